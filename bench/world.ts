/**
 * The collision-world benchmark: N = 1,000, 10,000 and 50,000 bodies (half spheres, half rotated
 * boxes, each touching one or two others, every body moved a little every frame; see
 * bench/world-scene.ts), stepped by Collide's `CollisionWorld` with each of its four broad
 * phases, beside Rapier (`@dimforge/rapier3d-compat`: one collider per kinematic position-based
 * body moved with `setNextKinematicTranslation`, `world.step()` running its broad and narrow
 * phase with kinematic–kinematic pairs enabled; parentless colliders get no contact pairs)
 * and cannon-es (dynamic bodies that are never integrated: its `SAPBroadphase` then its
 * `Narrowphase.getContacts`, the collision half of `world.step`), on the very same poses in one
 * process. Prints milliseconds per step, Collide's broad/narrow split, the ratio to Collide's
 * fastest broad phase and each engine's touching-pair count at one fixed frame beside the exact
 * count (Collide's, which every broad phase agrees on).
 *
 * Pair counts differ for stated reasons: Rapier keeps contact points up to its prediction
 * distance, so we count only pairs with a point at distance ≤ 0; cannon-es tests sphere–box and
 * box–box (as convex polyhedra, SAT + clipping) with its own tolerances and drops exactly
 * touching pairs in some routines. Each (engine, N) runs `frames` measured frames after a short
 * warm-up, or fewer when it exceeds a time budget (the O(n²) brute force at 50,000 bodies).
 *
 * Also: Rapier with every collider a sensor ("rapier-sensor": intersection pairs only, the
 * boolean counterpart), and Collide's fastest broad phase with a `WorkerExecutor`
 * (`collide/parallel`, "collide-2threads"). Rows report the median and the mean per step.
 *
 * Run alone: `node --import tsx bench/world.ts [--json] [--frames F] [--sizes 1000,10000]
 * [--threads T] [--no-cannon]`.
 */
import RAPIER from "@dimforge/rapier3d-compat";
import * as CANNON from "cannon-es";
import type { Isometry } from "../src/math/isometry.js";
import { WorkerExecutor } from "../src/parallel/index.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld, type WorldBroadPhase } from "../src/world/index.js";
import { crashcatWorldEngine } from "./crashcat.js";
import { speedWords } from "./speed-words.js";
import { type BenchScene, makeBenchScene, moveScene } from "./world-scene.js";

/** Options of {@link runWorldBench}. */
export interface WorldBenchOptions {
  /** Body counts to run. */
  sizes: number[];
  /** Measured frames per engine and size (fewer when the time budget runs out). */
  frames: number;
  /** Print one JSON object instead of the table. */
  json: boolean;
  /** Time budget per engine and size for the measured frames, milliseconds. @default 8000 */
  budgetMs?: number;
  /**
   * Threads of the extra `collide-<threads>threads` row (Collide's fastest broad phase with a
   * `WorkerExecutor` from `collide/parallel`); 0 or 1 skips it. @default 2
   */
  threads?: number;
  /** Also run cannon-es (slow: seconds per step at 50,000 bodies). @default true */
  cannon?: boolean;
}

/** One engine at one size. */
export interface WorldBenchRow {
  /**
   * "collide/tree", "collide/sap", "collide/grid", "collide/brute", "collide-2threads" (the
   * fastest broad phase with a 2-thread executor), "rapier" (contacts), "rapier-sensor" (every
   * collider a sensor: boolean intersection pairs only), "cannon-es".
   */
  engine: string;
  /** Number of bodies. */
  n: number;
  /** Frames measured. */
  frames: number;
  /** Mean milliseconds per step (moving every body plus the collision step). */
  msPerStep: number;
  /** Median milliseconds per step (the same work; robust to load spikes of a shared machine). */
  medianMs: number;
  /** Collide only: mean broad-phase milliseconds per step. */
  broadMs: number | null;
  /** Collide only: mean narrow-phase (and contact cache) milliseconds per step. */
  narrowMs: number | null;
  /** Milliseconds to build the world and add the bodies. */
  setupMs: number;
  /** Touching pairs the engine reports at the last frame. */
  pairs: number;
  /** msPerStep over Collide's fastest broad phase at this size. */
  ratio: number;
}

/** What {@link runWorldBench} returns. */
export interface WorldBenchResult {
  /** Every engine at every size. */
  rows: WorldBenchRow[];
  /** Exact touching-pair count at the last frame, per size (Collide, all broad phases agree). */
  exactPairs: Record<number, number>;
  /** Collide's fastest broad phase per size. */
  fastest: Record<number, string>;
}

const WARMUP_FRAMES = 10;
/** Frame at which every engine's pairs are counted, the same for all whatever their budgets. */
const COUNT_FRAME = 100000;
const COLLIDE_BROAD_PHASES: WorldBroadPhase[] = ["tree", "sap", "grid", "brute"];
/** Above this many bodies the O(n²) brute force is skipped (1.25e9 box tests a frame at 50,000). */
const BRUTE_MAX_BODIES = 20000;

interface Engine {
  /** Moves every body to the scene's current positions and runs one collision step. */
  frame(): void;
  /** Touching pairs after the last frame. */
  pairs(): number;
  /** Broad / narrow split of the last frame (Collide only). */
  split(): [number, number] | null;
  free(): void;
}

function collideEngine(
  scene: BenchScene,
  broadphase: WorldBroadPhase,
  executor: WorkerExecutor | null = null,
): Engine {
  const world = new CollisionWorld({ broadphase, profile: true, executor });
  const poses: Isometry[] = [];
  const handles: BodyHandle[] = [];
  const { size, rot, pos } = scene;
  for (let i = 0; i < scene.n; i++) {
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
  return {
    frame() {
      for (let i = 0; i < scene.n; i++) {
        const t = poses[i].translation;
        t.x = pos[3 * i];
        t.y = pos[3 * i + 1];
        t.z = pos[3 * i + 2];
        world.setPose(handles[i], poses[i]);
      }
      world.step();
    },
    pairs: () => world.contactCount,
    split: () => [world.stats.broadPhaseMs, world.stats.narrowPhaseMs],
    free() {},
  };
}

function rapierEngine(scene: BenchScene, sensor = false): Engine {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const colliders: RAPIER.Collider[] = [];
  const bodies: RAPIER.RigidBody[] = [];
  const { size, rot, pos } = scene;
  for (let i = 0; i < scene.n; i++) {
    const desc =
      scene.kind[i] === 0
        ? RAPIER.ColliderDesc.ball(size[3 * i])
        : RAPIER.ColliderDesc.cuboid(size[3 * i], size[3 * i + 1], size[3 * i + 2]);
    desc.setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL);
    if (sensor) desc.setSensor(true);
    const body = world.createRigidBody(
      RAPIER.RigidBodyDesc.kinematicPositionBased()
        .setTranslation(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2])
        .setRotation({ x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] }),
    );
    bodies.push(body);
    colliders.push(world.createCollider(desc, body));
  }
  const v = { x: 0, y: 0, z: 0 };
  return {
    frame() {
      for (let i = 0; i < scene.n; i++) {
        v.x = pos[3 * i];
        v.y = pos[3 * i + 1];
        v.z = pos[3 * i + 2];
        bodies[i].setNextKinematicTranslation(v);
      }
      world.step();
    },
    pairs() {
      let count = 0;
      if (sensor) {
        for (const c of colliders) {
          world.intersectionPairsWith(c, (other) => {
            if (other.handle > c.handle) count++;
          });
        }
        return count;
      }
      for (const c of colliders) {
        world.contactPairsWith(c, (other) => {
          if (other.handle <= c.handle) return;
          let touching = false;
          world.contactPair(c, other, (m) => {
            for (let k = 0; k < m.numContacts(); k++) if (m.contactDist(k) <= 0) touching = true;
          });
          if (touching) count++;
        });
      }
      return count;
    },
    split: () => null,
    free: () => world.free(),
  };
}

function cannonEngine(scene: BenchScene): Engine {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  world.broadphase = new CANNON.SAPBroadphase(world);
  const bodies: CANNON.Body[] = [];
  const { size, rot, pos } = scene;
  for (let i = 0; i < scene.n; i++) {
    const shape =
      scene.kind[i] === 0
        ? new CANNON.Sphere(size[3 * i])
        : new CANNON.Box(new CANNON.Vec3(size[3 * i], size[3 * i + 1], size[3 * i + 2]));
    const body = new CANNON.Body({ mass: 1, shape });
    body.position.set(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    body.quaternion.set(rot[4 * i], rot[4 * i + 1], rot[4 * i + 2], rot[4 * i + 3]);
    world.addBody(body);
    bodies.push(body);
  }
  const p1: CANNON.Body[] = [];
  const p2: CANNON.Body[] = [];
  let result: CANNON.ContactEquation[] = [];
  let pool: CANNON.ContactEquation[] = [];
  const frictionResult: CANNON.FrictionEquation[] = [];
  const frictionPool: CANNON.FrictionEquation[] = [];
  return {
    frame() {
      for (let i = 0; i < scene.n; i++) {
        const b = bodies[i];
        b.position.set(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        b.aabbNeedsUpdate = true;
      }
      p1.length = 0;
      p2.length = 0;
      world.broadphase.collisionPairs(world, p1, p2);
      for (const c of result) pool.push(c);
      const old = pool;
      pool = [];
      result = [];
      frictionResult.length = 0;
      world.narrowphase.getContacts(p1, p2, world, result, old, frictionResult, frictionPool);
    },
    pairs() {
      const seen = new Set<number>();
      for (const c of result) {
        const a = Math.min(c.bi.id, c.bj.id);
        const b = Math.max(c.bi.id, c.bj.id);
        seen.add(a * 1e7 + b);
      }
      return seen.size;
    },
    split: () => null,
    free() {},
  };
}

interface Measured {
  frames: number;
  msPerStep: number;
  medianMs: number;
  broadMs: number | null;
  narrowMs: number | null;
  setupMs: number;
  pairs: number;
}

function measure(
  scene: BenchScene,
  make: () => Engine,
  frames: number,
  budgetMs: number,
): Measured {
  moveScene(scene, 0);
  const t0 = performance.now();
  const engine = make();
  const setupMs = performance.now() - t0;
  let frame = 0;
  const warm = performance.now();
  for (let i = 0; i < WARMUP_FRAMES; i++) {
    moveScene(scene, ++frame);
    engine.frame();
    if (performance.now() - warm > budgetMs) break;
  }
  let total = 0;
  let broad = 0;
  let narrow = 0;
  let done = 0;
  const times: number[] = [];
  while (done < frames) {
    moveScene(scene, ++frame);
    const s = performance.now();
    engine.frame();
    const dt = performance.now() - s;
    total += dt;
    times.push(dt);
    const split = engine.split();
    if (split) {
      broad += split[0];
      narrow += split[1];
    }
    done++;
    if (total > budgetMs) break;
  }
  const hasSplit = engine.split() !== null;
  moveScene(scene, COUNT_FRAME);
  engine.frame();
  const pairs = engine.pairs();
  engine.free();
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const medianMs = times.length % 2 === 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return {
    frames: done,
    msPerStep: total / done,
    medianMs,
    broadMs: hasSplit ? broad / done : null,
    narrowMs: hasSplit ? narrow / done : null,
    setupMs,
    pairs,
  };
}

/**
 * Runs the world benchmark (see the module docs) and prints a table, or one JSON object when
 * `json`. Returns every row, the exact pair counts and Collide's fastest broad phase per size.
 * Collide's broad phases must agree on the pair count at every size, or it throws.
 */
export async function runWorldBench(options: WorldBenchOptions): Promise<WorldBenchResult> {
  await RAPIER.init();
  const budgetMs = options.budgetMs ?? 8000;
  // Warm the JIT up on a small scene first, so that the first engine measured is not penalised.
  const warmScene = makeBenchScene(2000, 99);
  for (const bp of COLLIDE_BROAD_PHASES)
    measure(warmScene, () => collideEngine(warmScene, bp), 20, budgetMs);
  measure(warmScene, () => rapierEngine(warmScene), 20, budgetMs);
  measure(warmScene, () => crashcatWorldEngine(warmScene) as unknown as Engine, 20, budgetMs);
  const withCannon = options.cannon ?? true;
  if (withCannon) measure(warmScene, () => cannonEngine(warmScene), 20, budgetMs);
  const threads = options.threads ?? 2;
  const executor = threads > 1 ? new WorkerExecutor({ threads }) : null;
  if (executor) {
    await executor.ready();
    measure(warmScene, () => collideEngine(warmScene, "grid", executor), 20, budgetMs);
  }
  const rows: WorldBenchRow[] = [];
  const exactPairs: Record<number, number> = {};
  const fastest: Record<number, string> = {};
  const log = (s: string) => {
    if (!options.json) process.stdout.write(`${s}\n`);
  };
  log(
    `collision world: ${options.frames} frames, every body moved each frame (half spheres, half rotated boxes)`,
  );
  for (const n of options.sizes) {
    const scene = makeBenchScene(n, 1);
    const sizeRows: WorldBenchRow[] = [];
    let exact = -1;
    const notes: string[] = [];
    for (const bp of COLLIDE_BROAD_PHASES) {
      if (bp === "brute" && n > BRUTE_MAX_BODIES) {
        notes.push(`collide/brute: skipped above ${BRUTE_MAX_BODIES} bodies (O(n²))`);
        continue;
      }
      const m = measure(scene, () => collideEngine(scene, bp), options.frames, budgetMs);
      if (exact < 0) exact = m.pairs;
      else if (m.pairs !== exact) {
        throw new Error(`collide/${bp} reports ${m.pairs} pairs, collide/tree ${exact} (n = ${n})`);
      }
      sizeRows.push({ engine: `collide/${bp}`, n, ...m, ratio: 0 });
    }
    exactPairs[n] = exact;
    const single = sizeRows.reduce((a, b) => (b.medianMs < a.medianMs ? b : a));
    if (executor) {
      const bp = single.engine.slice("collide/".length) as WorldBroadPhase;
      const m = measure(scene, () => collideEngine(scene, bp, executor), options.frames, budgetMs);
      if (m.pairs !== exact) {
        throw new Error(`collide-${threads}threads reports ${m.pairs} pairs, one thread ${exact}`);
      }
      sizeRows.push({ engine: `collide-${threads}threads`, n, ...m, ratio: 0 });
      notes.push(
        `collide-${threads}threads: ${single.engine} with a ${threads}-thread WorkerExecutor, ${speedWords(
          m.medianMs,
          single.medianMs,
        )
          .replace(/(faster|slower)$/, "$1 than")
          .replace("as fast", "as fast as")} ${single.engine}`,
      );
    }
    const peers: [string, () => Engine][] = [
      ["rapier", () => rapierEngine(scene)],
      ["rapier-sensor", () => rapierEngine(scene, true)],
      ["crashcat", () => crashcatWorldEngine(scene) as unknown as Engine],
    ];
    if (withCannon) peers.push(["cannon-es", () => cannonEngine(scene)]);
    for (const [engine, make] of peers) {
      try {
        sizeRows.push({ engine, n, ...measure(scene, make, options.frames, budgetMs), ratio: 0 });
      } catch (e) {
        // cannon-es's ArrayCollisionMatrix holds n(n − 1)/2 entries and fails at 50,000 bodies.
        notes.push(`${engine}: failed (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    const best = single;
    fastest[n] = best.engine;
    for (const r of sizeRows) r.ratio = r.medianMs / best.medianMs;
    rows.push(...sizeRows);
    log(`\nN = ${n}: exact touching pairs ${exact} (${(exact / n).toFixed(2)} per body)`);
    log(
      `${"engine".padEnd(18)}${"median ms".padStart(10)}${"mean ms".padStart(9)}${"broad".padStart(9)}${"narrow".padStart(9)}${"× best".padStart(9)}${"pairs".padStart(9)}${"frames".padStart(8)}${"setup ms".padStart(10)}`,
    );
    for (const note of notes) log(note);
    for (const r of sizeRows) {
      const f = (x: number | null) => (x === null ? "—" : x.toFixed(2));
      log(
        `${r.engine.padEnd(18)}${r.medianMs.toFixed(2).padStart(10)}${r.msPerStep.toFixed(2).padStart(9)}${f(r.broadMs).padStart(9)}${f(r.narrowMs).padStart(9)}${r.ratio.toFixed(2).padStart(9)}${String(r.pairs).padStart(9)}${String(r.frames).padStart(8)}${r.setupMs.toFixed(0).padStart(10)}`,
      );
    }
  }
  await executor?.dispose();
  log(
    "\npairs: Rapier counted with a contact point at distance <= 0 (it keeps points within its prediction distance); rapier-sensor by its intersection pairs (every collider a sensor: boolean overlap, no contact points); cannon-es by its contact equations (its own sphere-box and convex SAT tolerances). × best: median over Collide's fastest single-threaded broad phase.",
  );
  const result = { rows, exactPairs, fastest };
  if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

function parseArgs(argv: string[]): WorldBenchOptions {
  const o: WorldBenchOptions = { sizes: [1000, 10000, 50000], frames: 30, json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--json") o.json = true;
    else if (argv[i] === "--frames") o.frames = Number(argv[++i]);
    else if (argv[i] === "--sizes") o.sizes = argv[++i].split(",").map(Number);
    else if (argv[i] === "--budget") o.budgetMs = Number(argv[++i]);
    else if (argv[i] === "--threads") o.threads = Number(argv[++i]);
    else if (argv[i] === "--no-cannon") o.cannon = false;
  }
  return o;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await runWorldBench(parseArgs(process.argv.slice(2)));
}
