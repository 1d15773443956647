/**
 * Scaling of the collision world: the benchmark scene of bench/world-scene.ts (half spheres,
 * half rotated boxes, about 0.8 touching pairs per body, every body moved every frame) at N
 * growing from 1,000 to 50,000 and on to 200,000 where memory allows, stepped with contact
 * manifolds by each chosen broad phase. Prints the median time per step and per body
 * (microseconds); a flat "µs/body" column means linear cost, a growing one super-linear growth.
 *
 * Run alone: `node --import tsx bench/scaling.ts [--json] [--sizes 1000,5000] [--broadphases grid,tree]`.
 */
import { freemem } from "node:os";
import type { Isometry } from "../src/math/isometry.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld, type WorldBroadPhase } from "../src/world/index.js";
import { makeBenchScene, moveScene } from "./world-scene.js";

/** Options of {@link runScalingBench}. */
export interface ScalingBenchOptions {
  /** Body counts. @default 1,000 · 2,000 · 5,000 · 10,000 · 20,000 · 50,000 · 100,000 · 200,000 */
  sizes?: number[];
  /** Broad phases to run. @default ["grid", "tree"] */
  broadphases?: WorldBroadPhase[];
  /** Time budget of the measured frames per (broad phase, N), milliseconds. @default 3000 */
  budgetMs?: number;
  /** Most measured frames per (broad phase, N). @default 30 */
  frames?: number;
  /** Print one JSON object instead of the table. @default false */
  json?: boolean;
}

/** One broad phase at one N. */
export interface ScalingBenchRow {
  /** "collide/grid", "collide/tree", … */
  engine: string;
  /** Number of bodies. */
  n: number;
  /** Frames measured. */
  frames: number;
  /** Median milliseconds per step (moving every body plus `world.step()`). */
  medianMs: number;
  /** `medianMs` per body, microseconds. */
  usPerBody: number;
  /** `usPerBody` over its value at the smallest N of the same broad phase (1 = linear). */
  growth: number;
  /** Touching pairs at the last frame. */
  pairs: number;
}

/** What {@link runScalingBench} returns. */
export interface ScalingBenchResult {
  /** Every (broad phase, N) measured. */
  rows: ScalingBenchRow[];
  /** Sizes skipped for lack of memory. */
  skipped: number[];
}

const WARMUP_FRAMES = 10;
/**
 * Warm-up time per (broad phase, N) at the least, milliseconds: in the full `collide bench` run
 * the scaling table follows scenes with other shape types, after which V8 re-optimises the step;
 * five warm-up frames at 10,000 bodies were measured before it had (15 ms per step instead of 6).
 */
const WARMUP_MS = 500;
/** Rough heap bytes per body of a world with its broad phase and the scene (measured ≈ 1.5 KB). */
const BYTES_PER_BODY_ESTIMATE = 4096;

function measureOne(
  n: number,
  broadphase: WorldBroadPhase,
  frames: number,
  budgetMs: number,
): Omit<ScalingBenchRow, "engine" | "growth" | "usPerBody"> {
  const scene = makeBenchScene(n, 1);
  const world = new CollisionWorld({ broadphase });
  const poses: Isometry[] = [];
  const handles: BodyHandle[] = [];
  const { size, rot, pos } = scene;
  for (let i = 0; i < n; i++) {
    const shape =
      scene.kind[i] === 0
        ? makeSphere(size[3 * i])
        : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
    const p: Isometry = {
      translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
      rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
    };
    poses.push(p);
    handles.push(world.addBody({ shape, pose: p }));
  }
  const frame = (f: number) => {
    moveScene(scene, f);
    for (let i = 0; i < n; i++) {
      const t = poses[i].translation;
      t.x = pos[3 * i];
      t.y = pos[3 * i + 1];
      t.z = pos[3 * i + 2];
      world.setPose(handles[i], poses[i]);
    }
    world.step();
  };
  let f = 0;
  const warm0 = performance.now();
  for (let i = 0; i < WARMUP_FRAMES || performance.now() - warm0 < WARMUP_MS; i++) frame(++f);
  const times: number[] = [];
  let total = 0;
  while (times.length < frames && total < budgetMs) {
    const t0 = performance.now();
    frame(++f);
    const dt = performance.now() - t0;
    times.push(dt);
    total += dt;
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const medianMs = times.length % 2 === 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return { n, frames: times.length, medianMs, pairs: world.contactCount };
}

/**
 * Runs the scaling benchmark (see the module docs); prints a table (or one JSON object with
 * `json`) and returns the rows. Sizes whose estimated memory exceeds half the free memory are
 * skipped and listed.
 */
export async function runScalingBench(
  options: ScalingBenchOptions = {},
): Promise<ScalingBenchResult> {
  const sizes = options.sizes ?? [1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000];
  const broadphases = options.broadphases ?? ["grid", "tree"];
  const budgetMs = options.budgetMs ?? 3000;
  const frames = options.frames ?? 30;
  const log = (s: string) => {
    if (!options.json) process.stdout.write(`${s}\n`);
  };
  const rows: ScalingBenchRow[] = [];
  const skipped: number[] = [];
  // JIT warm-up on a small scene.
  for (const bp of broadphases) measureOne(2000, bp, 10, budgetMs);
  log("collision world scaling: median per step and per body, every body moved each frame");
  log(
    `${"engine".padEnd(14)}${"N".padStart(9)}${"median ms".padStart(11)}${"µs/body".padStart(10)}${"× linear".padStart(10)}${"pairs".padStart(9)}${"frames".padStart(8)}`,
  );
  for (const bp of broadphases) {
    let base = 0;
    for (const n of sizes) {
      if (n * BYTES_PER_BODY_ESTIMATE > freemem() / 2) {
        if (!skipped.includes(n)) skipped.push(n);
        continue;
      }
      const m = measureOne(n, bp, frames, budgetMs);
      const usPerBody = (1000 * m.medianMs) / n;
      if (base === 0) base = usPerBody;
      const row: ScalingBenchRow = {
        engine: `collide/${bp}`,
        ...m,
        usPerBody,
        growth: usPerBody / base,
      };
      rows.push(row);
      log(
        `${row.engine.padEnd(14)}${String(n).padStart(9)}${row.medianMs.toFixed(2).padStart(11)}${usPerBody.toFixed(3).padStart(10)}${row.growth.toFixed(2).padStart(10)}${String(row.pairs).padStart(9)}${String(row.frames).padStart(8)}`,
      );
    }
  }
  if (skipped.length > 0) log(`skipped for memory: N = ${skipped.join(", ")}`);
  const result = { rows, skipped };
  if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

function parseArgs(argv: string[]): ScalingBenchOptions {
  const o: ScalingBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--json") o.json = true;
    else if (argv[i] === "--sizes") o.sizes = argv[++i].split(",").map(Number);
    else if (argv[i] === "--broadphases") o.broadphases = argv[++i].split(",") as WorldBroadPhase[];
    else if (argv[i] === "--frames") o.frames = Number(argv[++i]);
    else if (argv[i] === "--budget") o.budgetMs = Number(argv[++i]);
  }
  return o;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await runScalingBench(parseArgs(process.argv.slice(2)));
}
