/**
 * The world ray-cast benchmark: rays per second of the closest-hit world ray cast against
 * 10,000 rotated boxes, Collide's `castRayClosest` (worlds with its dynamic tree, grid and sweep-
 * and-prune broad phases) beside Rapier's `world.castRay` (`@dimforge/rapier3d-compat` 0.21: one
 * parentless cuboid collider per box, the query pipeline brought up to date by one
 * `world.step()`), on the same boxes and the same rays in one process. The scene does not move,
 * so after one ray per body each Collide world has built its static four-wide query BVH
 * (src/broadphase/query-bvh.ts) and the three rows measure that hierarchy; the build is paid
 * during the answer-collecting pass, before the measured window (as Rapier's query pipeline is
 * built by its `step()`).
 *
 * Scene: boxes with half extents in [0.1, 0.6] at uniform random positions in a cube of side
 * 100 with random rotations (mean spacing about 4.6); rays start at uniform points of the cube
 * with uniform unit directions and a length of 200 (both engines get the same `maxToi`, solid),
 * so about a quarter of them hit a box and the rest cross the whole tree and leave the scene. The generator is seeded, so
 * every run sees the same scene. Besides the speed, the run counts the rays on which the two
 * engines agree (both miss, or both hit with times of impact within 1e-6, Rapier computing in
 * single precision), as a check that they answer the same question.
 *
 * Run alone: `node --import tsx bench/world-rays.ts [--json]`.
 */
import RAPIER from "@dimforge/rapier3d-compat";
import type { Isometry } from "../src/math/isometry.js";
import type { Vec3 } from "../src/math/vec3.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import {
  CollisionWorld,
  castRayClosest,
  type WorldBroadPhase,
  type WorldRayHit,
} from "../src/world/index.js";

/** Options of {@link runRayBench}. */
export interface RayBenchOptions {
  /** Print one JSON object instead of the table. */
  json: boolean;
  /** Number of boxes. @default 10000 */
  boxes?: number;
  /** Number of distinct rays (cast round-robin). @default 20000 */
  rays?: number;
  /** Time budget per engine, milliseconds. @default 1500 */
  budgetMs?: number;
}

/** One engine's result. */
export interface RayBenchRow {
  /** "collide/tree", "collide/grid", "collide/sap" or "rapier". */
  engine: string;
  /** Rays cast while measuring. */
  rays: number;
  /** Rays per second. */
  raysPerSecond: number;
  /** Milliseconds to build the scene. */
  setupMs: number;
  /** Rays (of the distinct set) that hit something. */
  hits: number;
  /** rays per second of Collide's fastest broad phase over this engine's. */
  ratio: number;
}

/** What {@link runRayBench} returns (and prints as JSON with `--json`). */
export interface RayBenchResult {
  /** Number of boxes. */
  boxes: number;
  /** Number of distinct rays. */
  distinctRays: number;
  /** One row per engine. */
  rows: RayBenchRow[];
  /** Rays on which Collide's tree and Rapier agree (hit or miss, toi within 1e-6). */
  agreement: number;
  /** Collide's fastest rays per second over Rapier's. */
  ratioToRapier: number;
}

const SIDE = 100;
const RAY_LENGTH = 200;
const AGREEMENT_TOLERANCE = 1e-6;
const COLLIDE_BROAD_PHASES: WorldBroadPhase[] = ["tree", "grid", "sap"];

/** Mulberry32: a small seeded generator of doubles in [0, 1). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Scene {
  half: Float64Array;
  pos: Float64Array;
  rot: Float64Array;
  origins: Float64Array;
  dirs: Float64Array;
}

function makeScene(boxes: number, rays: number): Scene {
  const r = rng(7);
  const half = new Float64Array(3 * boxes);
  const pos = new Float64Array(3 * boxes);
  const rot = new Float64Array(4 * boxes);
  for (let i = 0; i < boxes; i++) {
    for (let k = 0; k < 3; k++) {
      half[3 * i + k] = 0.1 + 0.5 * r();
      pos[3 * i + k] = SIDE * r();
    }
    let x = 0;
    let y = 0;
    let z = 0;
    let w = 0;
    let l = 0;
    do {
      x = 2 * r() - 1;
      y = 2 * r() - 1;
      z = 2 * r() - 1;
      w = 2 * r() - 1;
      l = Math.hypot(x, y, z, w);
    } while (l < 0.1 || l > 1);
    rot.set([x / l, y / l, z / l, w / l], 4 * i);
  }
  const origins = new Float64Array(3 * rays);
  const dirs = new Float64Array(3 * rays);
  for (let i = 0; i < rays; i++) {
    for (let k = 0; k < 3; k++) origins[3 * i + k] = SIDE * r();
    let x = 0;
    let y = 0;
    let z = 0;
    let l = 0;
    do {
      x = 2 * r() - 1;
      y = 2 * r() - 1;
      z = 2 * r() - 1;
      l = Math.hypot(x, y, z);
    } while (l < 0.1 || l > 1);
    dirs.set([x / l, y / l, z / l], 3 * i);
  }
  return { half, pos, rot, origins, dirs };
}

/** An engine under test: casts ray `i` and returns its time of impact, or −1 on a miss. */
interface Engine {
  cast(i: number): number;
  free(): void;
}

function collideEngine(s: Scene, bp: WorldBroadPhase): Engine {
  const world = new CollisionWorld({ broadphase: bp });
  const n = s.half.length / 3;
  for (let i = 0; i < n; i++) {
    const pose: Isometry = {
      translation: { x: s.pos[3 * i], y: s.pos[3 * i + 1], z: s.pos[3 * i + 2] },
      rotation: { x: s.rot[4 * i], y: s.rot[4 * i + 1], z: s.rot[4 * i + 2], w: s.rot[4 * i + 3] },
    };
    world.addBody({
      shape: makeCuboid({ x: s.half[3 * i], y: s.half[3 * i + 1], z: s.half[3 * i + 2] }),
      pose,
    });
  }
  const origin: Vec3 = { x: 0, y: 0, z: 0 };
  const dir: Vec3 = { x: 0, y: 0, z: 0 };
  const hit: WorldRayHit = {
    handle: 0 as WorldRayHit["handle"],
    toi: 0,
    point: { x: 0, y: 0, z: 0 },
    normal: { x: 0, y: 0, z: 0 },
  };
  const options = { solid: true };
  return {
    cast(i) {
      origin.x = s.origins[3 * i];
      origin.y = s.origins[3 * i + 1];
      origin.z = s.origins[3 * i + 2];
      dir.x = s.dirs[3 * i];
      dir.y = s.dirs[3 * i + 1];
      dir.z = s.dirs[3 * i + 2];
      return castRayClosest(world, origin, dir, RAY_LENGTH, options, hit) ? hit.toi : -1;
    },
    free() {},
  };
}

function rapierEngine(s: Scene): Engine {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const n = s.half.length / 3;
  for (let i = 0; i < n; i++) {
    world.createCollider(
      RAPIER.ColliderDesc.cuboid(s.half[3 * i], s.half[3 * i + 1], s.half[3 * i + 2])
        .setTranslation(s.pos[3 * i], s.pos[3 * i + 1], s.pos[3 * i + 2])
        .setRotation({
          x: s.rot[4 * i],
          y: s.rot[4 * i + 1],
          z: s.rot[4 * i + 2],
          w: s.rot[4 * i + 3],
        }),
    );
  }
  world.step();
  const ray = new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
  return {
    cast(i) {
      ray.origin.x = s.origins[3 * i];
      ray.origin.y = s.origins[3 * i + 1];
      ray.origin.z = s.origins[3 * i + 2];
      ray.dir.x = s.dirs[3 * i];
      ray.dir.y = s.dirs[3 * i + 1];
      ray.dir.z = s.dirs[3 * i + 2];
      const h = world.castRay(ray, RAY_LENGTH, true);
      return h ? h.timeOfImpact : -1;
    },
    free() {
      world.free();
    },
  };
}

/** Casts round-robin over the rays for `budgetMs` (after a warm-up pass); rays per second. */
function measure(e: Engine, rays: number, budgetMs: number): { rays: number; perSecond: number } {
  for (let i = 0; i < Math.min(rays, 2000); i++) e.cast(i);
  let count = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < budgetMs) {
    for (let k = 0; k < 1000; k++) {
      e.cast(count % rays);
      count++;
    }
    t = performance.now();
  }
  return { rays: count, perSecond: (count * 1000) / (t - t0) };
}

/**
 * Runs the ray benchmark (see the module docs): prints one row per engine with rays per second
 * and the ratio to Collide's fastest broad phase, or one JSON object when `json`. Returns the
 * result.
 */
export async function runRayBench(options: RayBenchOptions): Promise<RayBenchResult> {
  await RAPIER.init();
  const boxes = options.boxes ?? 10000;
  const nRays = options.rays ?? 20000;
  const budgetMs = options.budgetMs ?? 1500;
  const scene = makeScene(boxes, nRays);
  const rows: RayBenchRow[] = [];
  const answers: Float64Array[] = [];
  const builders: [string, () => Engine][] = [
    ...COLLIDE_BROAD_PHASES.map((bp): [string, () => Engine] => [
      `collide/${bp}`,
      () => collideEngine(scene, bp),
    ]),
    ["rapier", () => rapierEngine(scene)],
  ];
  for (const [name, build] of builders) {
    const t0 = performance.now();
    const e = build();
    const setupMs = performance.now() - t0;
    const toi = new Float64Array(nRays);
    let hits = 0;
    for (let i = 0; i < nRays; i++) {
      toi[i] = e.cast(i);
      if (toi[i] >= 0) hits++;
    }
    answers.push(toi);
    const m = measure(e, nRays, budgetMs);
    e.free();
    rows.push({ engine: name, rays: m.rays, raysPerSecond: m.perSecond, setupMs, hits, ratio: 0 });
  }
  const best = Math.max(
    ...rows.filter((r) => r.engine.startsWith("collide")).map((r) => r.raysPerSecond),
  );
  for (const r of rows) r.ratio = best / r.raysPerSecond;
  const tree = answers[0];
  const rap = answers[answers.length - 1];
  let agreement = 0;
  for (let i = 0; i < nRays; i++) {
    if (
      (tree[i] < 0 && rap[i] < 0) ||
      (tree[i] >= 0 && rap[i] >= 0 && Math.abs(tree[i] - rap[i]) <= AGREEMENT_TOLERANCE * SIDE)
    ) {
      agreement++;
    }
  }
  const rapierRow = rows[rows.length - 1];
  const result: RayBenchResult = {
    boxes,
    distinctRays: nRays,
    rows,
    agreement,
    ratioToRapier: best / rapierRow.raysPerSecond,
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    process.stdout.write(
      `World ray casts (closest hit): ${boxes} boxes, ${nRays} distinct rays of length ${RAY_LENGTH}\n`,
    );
    process.stdout.write(
      `${"engine".padEnd(14)}${"rays/s".padStart(12)}${"setup ms".padStart(10)}${"hits".padStart(8)}${"best/this".padStart(11)}\n`,
    );
    for (const r of rows) {
      process.stdout.write(
        `${r.engine.padEnd(14)}${Math.round(r.raysPerSecond).toString().padStart(12)}${r.setupMs.toFixed(0).padStart(10)}${r.hits.toString().padStart(8)}${r.ratio.toFixed(2).padStart(11)}\n`,
      );
    }
    process.stdout.write(
      `Collide's fastest / Rapier: ${result.ratioToRapier.toFixed(2)}× the rays per second; ` +
        `answers agree on ${agreement} of ${nRays} rays\n`,
    );
  }
  return result;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await runRayBench({ json: process.argv.includes("--json") });
}
