/**
 * The world step on the four scenes of bench/scenes.ts — (a) lattice, (b) random placement with
 * random walks, (c) a level of 100,000 static boxes with moving bodies over it, (d) clustered
 * piles of sizes 1:100 — at 1,000, 10,000 and 50,000 moving bodies (the level at 1,000 and
 * 10,000), every engine in its own child process (bench/scene-runner.ts) started with Node's
 * `--no-liftoff`, so the WebAssembly peers run at their optimising tier from the first frame.
 * Prints median milliseconds per step side by side with Collide's default over each peer, and
 * the first step; the machine's load average is recorded with every run (2 shared cores).
 *
 * Run alone: `node --import tsx bench/world-scenes.ts [--scenes random,level] [--sizes 1000]
 * [--engines collide,naive] [--frames 30] [--json]`; the rows are kept in
 * bench/results/scenes-<date>.json, whose tables `--from FILE` prints again (`--markdown`: one Markdown table).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SceneRun } from "./scene-runner.js";
import { SCENE_NAMES, type SceneName } from "./scenes.js";

/** Every engine run by default, Collide's default options first. */
export const SCENE_ENGINES = [
  "collide",
  "collide/tree",
  "collide-2threads",
  "naive",
  "rapier",
  "rapier-simd",
];

/** Options of {@link runSceneBench}. */
export interface SceneBenchOptions {
  scenes: SceneName[];
  sizes: number[];
  engines: string[];
  frames: number;
  warmup: number;
  budgetMs: number;
  json: boolean;
}

/** One run with the load average around it. */
export type SceneBenchRow = SceneRun & { load1: number; error?: string };

const runner = join(dirname(fileURLToPath(import.meta.url)), "scene-runner.ts");

/** Runs one engine on one scene in a child process (module docs). */
export function runChild(
  engine: string,
  scene: SceneName,
  n: number,
  frames: number,
  warmup: number,
  budgetMs: number,
): SceneBenchRow {
  const load1 = loadavg()[0];
  const args = [
    "--no-liftoff",
    "--max-old-space-size=8192",
    "--import",
    "tsx",
    runner,
    ...["--engine", engine, "--scene", scene, "--n", String(n)],
    ...["--frames", String(frames), "--warmup", String(warmup), "--budget", String(budgetMs)],
  ];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  try {
    return { ...(JSON.parse(line) as SceneRun), load1 };
  } catch {
    const nan = Number.NaN;
    return {
      engine,
      scene,
      n,
      staticCount: 0,
      frames: 0,
      medianMs: nan,
      meanMs: nan,
      firstStepMs: nan,
      setupMs: nan,
      broadMs: null,
      narrowMs: null,
      pairs: -1,
      staticMode: null,
      tier: "",
      load1,
      error: (r.stderr || String(r.error)).trim().split("\n").slice(-3).join(" "),
    };
  }
}

/** The sizes a scene runs at among `sizes` (the level: at most 10,000 moving bodies). */
export function sceneSizes(scene: SceneName, sizes: number[]): number[] {
  return scene === "level" ? sizes.filter((n) => n <= 10000) : sizes;
}

/** Formats one scene's rows at one size as a table with ratios to Collide's default. */
export function formatSceneRows(rows: SceneBenchRow[]): string {
  if (rows.length === 0) return "";
  const { scene, n, staticCount } = rows[0];
  const collide = rows.find((r) => r.engine === "collide");
  const naive = rows.find((r) => r.engine === "naive");
  const lines = [
    `\nscene ${scene}, ${n} moving bodies${staticCount > 0 ? ` + ${staticCount} static` : ""}${naive ? ` — exact touching pairs ${naive.pairs} (naive grid)` : ""}`,
    `${"engine".padEnd(18)}${"median ms".padStart(10)}${"first ms".padStart(10)}${"broad".padStart(8)}${"narrow".padStart(8)}${"÷ collide".padStart(10)}${"pairs".padStart(8)}${"frames".padStart(7)}${"load".padStart(6)}  tier`,
  ];
  const f = (x: number | null) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(2));
  for (const r of rows) {
    if (r.error) {
      lines.push(`${r.engine.padEnd(18)} failed: ${r.error}`);
      continue;
    }
    const ratio = collide ? r.medianMs / collide.medianMs : Number.NaN;
    const tier = `${r.tier}${r.staticMode ? `, static by ${r.staticMode === "kind" ? 'kind "static"' : "layer mask (workaround)"}` : ""}`;
    lines.push(
      `${r.engine.padEnd(18)}${f(r.medianMs).padStart(10)}${f(r.firstStepMs).padStart(10)}${f(r.broadMs).padStart(8)}${f(r.narrowMs).padStart(8)}${f(ratio).padStart(10)}${String(r.pairs).padStart(8)}${String(r.frames).padStart(7)}${r.load1.toFixed(1).padStart(6)}  ${tier}`,
    );
  }
  return lines.join("\n");
}

/** Runs every engine on every scene and size (module docs); prints as it goes unless `json`. */
export function runSceneBench(o: SceneBenchOptions): SceneBenchRow[] {
  const all: SceneBenchRow[] = [];
  const log = (s: string) => {
    if (!o.json) process.stdout.write(`${s}\n`);
  };
  log(
    `world scenes: median ms per step over ${o.frames} frames after ${o.warmup} warm-up frames, one child process per engine (node --no-liftoff); "÷ collide" = engine median over Collide's default; load = 1-minute load average of the 2-core machine when the run started`,
  );
  for (const scene of o.scenes) {
    for (const n of sceneSizes(scene, o.sizes)) {
      const rows: SceneBenchRow[] = [];
      for (const engine of o.engines) {
        const row = runChild(engine, scene, n, o.frames, o.warmup, o.budgetMs);
        if (o.json) {
          process.stderr.write(`${scene} ${n} ${engine}: ${row.medianMs.toFixed(2)} ms\n`);
        }
        rows.push(row);
      }
      log(formatSceneRows(rows));
      all.push(...rows);
    }
  }
  if (o.json) process.stdout.write(`${JSON.stringify(all)}\n`);
  return all;
}

/**
 * One Markdown table of every scene and size: median ms (first step in brackets) of Collide's
 * default, the tree, two threads, the naive floor, Rapier and Rapier SIMD, and the ratios.
 */
export function markdownSceneTable(rows: SceneBenchRow[]): string {
  const get = (scene: string, n: number, engine: string) =>
    rows.find((r) => r.scene === scene && r.n === n && r.engine === engine && !r.error);
  const cell = (r: SceneBenchRow | undefined) =>
    r ? `${r.medianMs.toFixed(1)} (${r.firstStepMs.toFixed(0)})` : "—";
  const ratio = (a: SceneBenchRow | undefined, b: SceneBenchRow | undefined) =>
    a && b ? (a.medianMs / b.medianMs).toFixed(2) : "—";
  const lines = [
    "| scene | N moving | Collide (default) | tree | 2 threads | naive floor | Rapier | Rapier SIMD | Rapier ÷ Collide | SIMD ÷ Collide | Collide ÷ naive | load |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const keys = [...new Set(rows.map((r) => `${r.scene}|${r.n}`))];
  for (const k of keys) {
    const [scene, ns] = k.split("|");
    const n = Number(ns);
    const c = get(scene, n, "collide");
    const rapier = get(scene, n, "rapier");
    const simd = get(scene, n, "rapier-simd");
    const naive = get(scene, n, "naive");
    const mask = c?.staticMode === "mask" ? " (mask)" : "";
    lines.push(
      `| ${scene}${mask} | ${n.toLocaleString("en-US")} | ${cell(c)} | ${cell(get(scene, n, "collide/tree"))} | ${cell(get(scene, n, "collide-2threads"))} | ${cell(naive)} | ${cell(rapier)} | ${cell(simd)} | ${ratio(rapier, c)} | ${ratio(simd, c)} | ${ratio(c, naive)} | ${c ? c.load1.toFixed(0) : "—"} |`,
    );
  }
  return lines.join("\n");
}

/** Writes `rows` to bench/results/scenes-<date>.json with the machine described; returns the path. */
export function saveSceneRows(rows: SceneBenchRow[]): string {
  const machine = {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverageAtEnd: loadavg()[0],
    date: new Date().toISOString(),
  };
  const dir = join(dirname(fileURLToPath(import.meta.url)), "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `scenes-${machine.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
  return file;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const from = arg("from", "");
  if (from !== "") {
    // Print the tables of a kept run (bench/results/scenes-*.json).
    const rows = (JSON.parse(readFileSync(from, "utf8")) as { rows: SceneBenchRow[] }).rows;
    if (argv.includes("--markdown")) {
      process.stdout.write(`${markdownSceneTable(rows)}\n`);
      process.exit(0);
    }
    const keys = [...new Set(rows.map((r) => `${r.scene} ${r.n}`))];
    for (const k of keys) {
      process.stdout.write(`${formatSceneRows(rows.filter((r) => `${r.scene} ${r.n}` === k))}\n`);
    }
    process.exit(0);
  }
  const rows = runSceneBench({
    scenes: arg("scenes", SCENE_NAMES.join(",")).split(",") as SceneName[],
    sizes: arg("sizes", "1000,10000,50000").split(",").map(Number),
    engines: arg("engines", SCENE_ENGINES.join(",")).split(","),
    frames: Number(arg("frames", "30")),
    warmup: Number(arg("warmup", "10")),
    budgetMs: Number(arg("budget", "8000")),
    json: argv.includes("--json"),
  });
  process.stderr.write(`kept in ${saveSceneRows(rows)}\n`);
}
