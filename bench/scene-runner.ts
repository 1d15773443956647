/**
 * Runs ONE engine on ONE scene of bench/scenes.ts and prints one JSON line: the child process of
 * bench/world-scenes.ts, so that every engine gets a fresh heap and every WebAssembly peer runs
 * at its optimising tier (the parent starts this with Node's `--no-liftoff`: V8 compiles the
 * WebAssembly with TurboFan before the first call instead of tiering up in the background).
 *
 * Engines: `collide` (the default options), `collide/<grid|tree|sap>`, `collide-2threads`
 * (the default broad phase with a 2-thread `WorkerExecutor`), `naive` (bench/naive-grid.ts, the
 * floor), `rapier` (`@dimforge/rapier3d-compat`) and `rapier-simd`
 * (`@dimforge/rapier3d-simd-compat`). Rapier: one kinematic position-based body per moving body,
 * one fixed body per static body, `world.step()` with kinematic–kinematic and kinematic–fixed
 * contacts enabled (fixed–fixed not), pairs counted with a contact point at distance ≤ 0.
 * Collide: `kind: "static"` for the static bodies when `addBody` takes it, otherwise the best a
 * user can do without it: the static bodies on layer 2 whose mask excludes layer 2 (reported as
 * `staticMode: "mask"`); `setPoses` for the moving bodies when the world has it.
 *
 * `node --no-liftoff --import tsx bench/scene-runner.ts --engine rapier --scene random --n 10000
 * [--frames 30] [--warmup 10] [--budget 8000]`.
 */
import type { Isometry } from "../src/math/isometry.js";
import { WorkerExecutor } from "../src/parallel/index.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import type { Shape } from "../src/shapes/shape.js";
import { makeSphere } from "../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  type CollisionWorldOptions,
  type WorldBroadPhase,
} from "../src/world/index.js";
import { makeNaiveGrid } from "./naive-grid.js";
import { makeScene, type Scene, type SceneName } from "./scenes.js";

/** What one run prints. */
export interface SceneRun {
  engine: string;
  scene: SceneName;
  /** Moving bodies. */
  n: number;
  /** Static bodies. */
  staticCount: number;
  frames: number;
  medianMs: number;
  meanMs: number;
  /** The first step after the bodies are added (builds every structure). */
  firstStepMs: number;
  /** Creating the world and adding the bodies. */
  setupMs: number;
  broadMs: number | null;
  narrowMs: number | null;
  /** Touching pairs at the count frame (the same poses for every engine). */
  pairs: number;
  /** How static bodies were given to Collide: "kind", "mask" or null. */
  staticMode: string | null;
  /** How the engine was brought to its optimising tier. */
  tier: string;
}

export interface Engine {
  frame(): void;
  pairs(): number;
  split(): [number, number] | null;
  free(): void;
  staticMode: string | null;
}

/** Body `i` of `scene`: its shape (sphere or box) and its pose at the scene's current frame. */
export function sceneShape(scene: Scene, i: number): Shape {
  const { size } = scene;
  return scene.kind[i] === 0
    ? makeSphere(size[3 * i])
    : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
}

/** Body `i`'s pose at the scene's current frame (a fresh object). */
export function scenePose(scene: Scene, i: number): Isometry {
  const { rot, pos } = scene;
  return {
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  };
}

/**
 * Adds every body of `scene` to `world` at its pose of the scene's current frame, the first
 * `scene.staticCount` (the level's terrain) with `kind: "static"`; returns the handles in scene
 * order, the static ones first.
 */
export function addSceneBodies(world: CollisionWorld, scene: Scene): BodyHandle[] {
  const handles: BodyHandle[] = [];
  for (let i = 0; i < scene.n; i++) {
    const shape = sceneShape(scene, i);
    const pose = scenePose(scene, i);
    handles.push(
      i < scene.staticCount
        ? world.addBody({ shape, pose, kind: "static" })
        : world.addBody({ shape, pose }),
    );
  }
  return handles;
}

/** A scene's frames as `setPoses` input for its moving bodies (see {@link sceneDriver}). */
export interface SceneDriver {
  /** 7 numbers per moving body (translation xyz, rotation xyzw), in scene order. */
  readonly bulk: Float64Array;
  /** The frame the scene is at (0 before the first {@link SceneDriver.next}). */
  readonly frame: number;
  /** Moves the scene to its next frame and writes the moving bodies' translations into `bulk`. */
  next(): void;
}

/**
 * The driver of `scene`'s moving bodies: `bulk` holds their rotations from the start (the
 * scenes' bodies never turn), and each `next()` moves the scene one frame on (frames 1, 2, …)
 * and copies the moving bodies' positions in. Allocates only here.
 */
export function sceneDriver(scene: Scene): SceneDriver {
  const { rot, pos, staticCount: s0, moving: m } = scene;
  const bulk = new Float64Array(7 * m);
  for (let j = 0; j < m; j++) bulk.set(rot.subarray(4 * (s0 + j), 4 * (s0 + j) + 4), 7 * j + 3);
  let frame = 0;
  return {
    bulk,
    get frame() {
      return frame;
    },
    next() {
      scene.move(++frame);
      for (let j = 0; j < m; j++) {
        const k = 3 * (s0 + j);
        bulk[7 * j] = pos[k];
        bulk[7 * j + 1] = pos[k + 1];
        bulk[7 * j + 2] = pos[k + 2];
      }
    },
  };
}

/** A Collide world built from a scene (see {@link sceneWorld}). */
export interface SceneWorld {
  world: CollisionWorld;
  /** Every body's handle, in scene order (the static bodies first). */
  handles: BodyHandle[];
  /** The moving bodies' handles (`handles` from `scene.staticCount` on). */
  moving: BodyHandle[];
  /** Wall-clock ms of creating the world and adding the bodies. */
  setupMs: number;
  /** The scene's frames for `moving`. */
  driver: SceneDriver;
  /** `setPoses(moving, driver.bulk)` and `step()`: the world's part of a frame. */
  step(): void;
  /** `driver.next()` then {@link SceneWorld.step}: one whole frame. */
  frame(): void;
}

/**
 * The scene set-up of the world benches: puts `scene` at frame 0, creates a `CollisionWorld`
 * with `options` and adds every body ({@link addSceneBodies}, timed as `setupMs`), with a
 * {@link sceneDriver} for its frames. Warm-up and measured frames are the caller's.
 */
export function sceneWorld(scene: Scene, options: Partial<CollisionWorldOptions>): SceneWorld {
  scene.move(0);
  const t0 = performance.now();
  const world = new CollisionWorld(options);
  const handles = addSceneBodies(world, scene);
  const setupMs = performance.now() - t0;
  const moving = handles.slice(scene.staticCount);
  const driver = sceneDriver(scene);
  const step = () => {
    world.setPoses(moving, driver.bulk);
    world.step();
  };
  return {
    world,
    handles,
    moving,
    setupMs,
    driver,
    step,
    frame() {
      driver.next();
      step();
    },
  };
}

function collideEngine(scene: Scene, name: string, executor: WorkerExecutor | null): Engine {
  const options: Partial<CollisionWorldOptions> = { profile: true, executor };
  const bp = name.split("/")[1];
  if (bp !== undefined) options.broadphase = bp as WorldBroadPhase;
  const world = new CollisionWorld(options);
  const { rot, pos, n, staticCount } = scene;
  const handles: BodyHandle[] = [];
  let staticMode: string | null = null;
  const pose = (i: number): Isometry => scenePose(scene, i);
  const shape = (i: number) => sceneShape(scene, i);
  for (let i = 0; i < n; i++) {
    if (i < staticCount) {
      if (staticMode === null) {
        try {
          handles.push(world.addBody({ shape: shape(i), pose: pose(i), kind: "static" } as never));
          staticMode = "kind";
          continue;
        } catch {
          staticMode = "mask";
        }
      }
      if (staticMode === "kind") {
        handles.push(world.addBody({ shape: shape(i), pose: pose(i), kind: "static" } as never));
      } else {
        handles.push(world.addBody({ shape: shape(i), pose: pose(i), layer: 2, mask: 1 }));
      }
    } else {
      handles.push(world.addBody({ shape: shape(i), pose: pose(i), layer: 1 }));
    }
  }
  const moving = handles.slice(staticCount);
  const m = moving.length;
  const bulk = new Float64Array(7 * m);
  for (let j = 0; j < m; j++)
    bulk.set(rot.subarray(4 * (staticCount + j), 4 * (staticCount + j) + 4), 7 * j + 3);
  const setPoses = (
    world as unknown as { setPoses?: (h: ArrayLike<number>, p: Float64Array) => void }
  ).setPoses;
  const poses = moving.map((_, j) => pose(staticCount + j));
  return {
    staticMode,
    frame() {
      if (typeof setPoses === "function") {
        for (let j = 0; j < m; j++) {
          const k = 3 * (staticCount + j);
          bulk[7 * j] = pos[k];
          bulk[7 * j + 1] = pos[k + 1];
          bulk[7 * j + 2] = pos[k + 2];
        }
        setPoses.call(world, moving, bulk);
      } else {
        for (let j = 0; j < m; j++) {
          const k = 3 * (staticCount + j);
          const t = poses[j].translation;
          t.x = pos[k];
          t.y = pos[k + 1];
          t.z = pos[k + 2];
          world.setPose(moving[j], poses[j]);
        }
      }
      world.step();
    },
    pairs: () => world.contactCount,
    split: () => [world.stats.broadPhaseMs, world.stats.narrowPhaseMs],
    free() {},
  };
}

type RapierModule = typeof import("@dimforge/rapier3d-compat").default;

export async function rapierEngine(scene: Scene, simd: boolean): Promise<Engine> {
  const R: RapierModule = simd
    ? ((await import("@dimforge/rapier3d-simd-compat")).default as unknown as RapierModule)
    : (await import("@dimforge/rapier3d-compat")).default;
  await R.init();
  const world = new R.World({ x: 0, y: 0, z: 0 });
  const { size, rot, pos, n, staticCount } = scene;
  const colliders: InstanceType<RapierModule["Collider"]>[] = [];
  const bodies: InstanceType<RapierModule["RigidBody"]>[] = [];
  const moverTypes =
    R.ActiveCollisionTypes.KINEMATIC_KINEMATIC | R.ActiveCollisionTypes.KINEMATIC_FIXED;
  for (let i = 0; i < n; i++) {
    const desc =
      scene.kind[i] === 0
        ? R.ColliderDesc.ball(size[3 * i])
        : R.ColliderDesc.cuboid(size[3 * i], size[3 * i + 1], size[3 * i + 2]);
    const isStatic = i < staticCount;
    desc.setActiveCollisionTypes(isStatic ? R.ActiveCollisionTypes.DEFAULT : moverTypes);
    const bd = (isStatic ? R.RigidBodyDesc.fixed() : R.RigidBodyDesc.kinematicPositionBased())
      .setTranslation(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2])
      .setRotation({ x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] });
    const body = world.createRigidBody(bd);
    bodies.push(body);
    colliders.push(world.createCollider(desc, body));
  }
  const v = { x: 0, y: 0, z: 0 };
  return {
    staticMode: null,
    frame() {
      for (let i = staticCount; i < n; i++) {
        v.x = pos[3 * i];
        v.y = pos[3 * i + 1];
        v.z = pos[3 * i + 2];
        bodies[i].setNextKinematicTranslation(v);
      }
      world.step();
    },
    pairs() {
      let count = 0;
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

function naiveEngine(scene: Scene): Engine {
  const grid = makeNaiveGrid(scene);
  let last = 0;
  return {
    staticMode: null,
    frame() {
      last = grid.step();
    },
    pairs: () => last,
    split: () => null,
    free() {},
  };
}

/** Least time spent on warm-up frames, milliseconds. */
const WARMUP_MS = 1500;

/** Frame at which every engine's pairs are counted: a jump, so every body teleports there. */
const COUNT_FRAME = 100000;

/** Runs `engine` on `scene` with `n` moving bodies (module docs). */
export async function runScene(
  engine: string,
  sceneName: SceneName,
  n: number,
  frames: number,
  warmup: number,
  budgetMs: number,
): Promise<SceneRun> {
  const scene = makeScene(sceneName, n, 1);
  let executor: WorkerExecutor | null = null;
  if (engine.startsWith("collide-2threads")) {
    executor = new WorkerExecutor({ threads: 2 });
    await executor.ready();
  }
  scene.move(0);
  const t0 = performance.now();
  let e: Engine;
  if (engine === "naive") e = naiveEngine(scene);
  else if (engine === "rapier" || engine === "rapier-simd") {
    e = await rapierEngine(scene, engine === "rapier-simd");
  } else e = collideEngine(scene, engine.replace("collide-2threads", "collide"), executor);
  const setupMs = performance.now() - t0;
  let frame = 0;
  scene.move(++frame);
  const f0 = performance.now();
  e.frame();
  const firstStepMs = performance.now() - f0;
  const warmStart = performance.now();
  // At least `warmup` frames, and at least WARMUP_MS of them (so that the JavaScript engines
  // are optimised too), within the budget.
  for (let i = 0; i < warmup || performance.now() - warmStart < WARMUP_MS; i++) {
    scene.move(++frame);
    e.frame();
    if (performance.now() - warmStart > budgetMs) break;
  }
  const times: number[] = [];
  let total = 0;
  let broad = 0;
  let narrow = 0;
  while (times.length < frames) {
    scene.move(++frame);
    const s = performance.now();
    e.frame();
    const dt = performance.now() - s;
    times.push(dt);
    total += dt;
    const split = e.split();
    if (split) {
      broad += split[0];
      narrow += split[1];
    }
    if (total > budgetMs) break;
  }
  const hasSplit = e.split() !== null;
  scene.move(COUNT_FRAME);
  e.frame();
  const pairs = e.pairs();
  e.free();
  await executor?.dispose();
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const medianMs = times.length % 2 === 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  const wasm = engine.startsWith("rapier");
  return {
    engine,
    scene: sceneName,
    n,
    staticCount: scene.staticCount,
    frames: times.length,
    medianMs,
    meanMs: total / times.length,
    firstStepMs,
    setupMs,
    broadMs: hasSplit ? broad / times.length : null,
    narrowMs: hasSplit ? narrow / times.length : null,
    pairs,
    staticMode: e.staticMode,
    tier: wasm
      ? process.execArgv.includes("--no-liftoff")
        ? "--no-liftoff"
        : `liftoff, warmed ≥ ${warmup} frames and ≥ ${WARMUP_MS / 1000} s`
      : `JS, warmed ≥ ${warmup} frames and ≥ ${WARMUP_MS / 1000} s`,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const run = await runScene(
    arg("engine", "collide"),
    arg("scene", "random") as SceneName,
    Number(arg("n", "1000")),
    Number(arg("frames", "30")),
    Number(arg("warmup", "10")),
    Number(arg("budget", "8000")),
  );
  process.stdout.write(`${JSON.stringify(run)}\n`);
  process.exit(0);
}
