/** `collide check SCENE`: the interference check of a scene file, as a table or as JSON. */
import { CollideError } from "../errors.js";
import { type CheckResult, checkScene, loadSceneAsync } from "../node.js";
import type { BroadPhaseName } from "../query/pairs.js";
import { count } from "./output.js";

/**
 * Largest `--max-pairs`: 2^30 pairs (8 GiB of pair keys, about the largest typed array Node
 * allocates).
 */
export const MAX_PAIRS_OPTION = 2 ** 30;

/** Options of `collide check`. */
export interface CheckCommandOptions {
  broadphase: string;
  prediction: number;
  /** Most candidate pairs before the check is refused (`--max-pairs`). */
  maxPairs?: number;
  json?: boolean;
  /** Allow mesh files outside the scene file's folder. */
  allowOutside?: boolean;
}

/**
 * Runs `collide check` and prints the result; rejects with `CollideError` for a bad scene or a
 * mesh file that cannot be read (or lies outside the scene's folder without `allowOutside`).
 */
export async function runCheckCommand(scenePath: string, o: CheckCommandOptions): Promise<void> {
  const scene = await loadSceneAsync(scenePath, { allowOutside: o.allowOutside });
  let r: CheckResult;
  try {
    r = checkScene(scene, {
      broadphase: o.broadphase as BroadPhaseName,
      prediction: o.prediction,
      maxPairs: o.maxPairs,
    });
  } catch (e) {
    // Name the command's option, the one to raise.
    if (e instanceof CollideError && e.field === "maxPairs") {
      throw new CollideError(
        e.code,
        "--max-pairs",
        e.value,
        `--max-pairs${e.message.slice("maxPairs".length)}`,
      );
    }
    throw e;
  }
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ pairs: r.pairs, stats: r.stats })}\n`);
    return;
  }
  const out: string[] = [];
  out.push(
    `${scenePath}: ${count(r.stats.bodies, "body", "bodies")}, ${count(r.stats.candidatePairs, "candidate pair", "candidate pairs")} (${o.broadphase}), ${r.pairs.length} in contact (prediction ${o.prediction}), ${r.ms.toFixed(2)} ms`,
  );
  if (r.pairs.length > 0) {
    const w = Math.max(4, ...r.pairs.map((p) => Math.max(p.a.length, p.b.length)));
    out.push(
      `${"a".padEnd(w)}  ${"b".padEnd(w)}  ${"distance".padStart(12)}  ${"normal (a → b)".padEnd(30)}  points`,
    );
    for (const p of r.pairs) {
      const n = p.normal.map((x) => x.toFixed(4).padStart(8)).join(" ");
      out.push(
        `${p.a.padEnd(w)}  ${p.b.padEnd(w)}  ${p.distance.toExponential(4).padStart(12)}  ${n.padEnd(30)}  ${p.points.length}`,
      );
    }
  }
  process.stdout.write(`${out.join("\n")}\n`);
}
