/**
 * The warm-up of a `WorkerExecutor`'s worker thread (option `warmUp`, on by default): before
 * the worker reports ready, it steps a small synthetic world whose executor runs every job on
 * this thread — the narrow phase's blocks, the grid's candidate merge (and its filter-only
 * pass), cell update and cell queries, both passes of `setPoses` and the static queries — so
 * that V8 has compiled this thread's copy of that code (each thread is an isolate of its own,
 * with its own type feedback and its own optimised code) before the first real job arrives.
 *
 * Why: without it the first steps of a threaded world ran the workers' share in V8's
 * interpreter and baseline tiers while the calling thread ran optimised code, so the first
 * steps of a world — and a short benchmark — were slower with two threads than with one. The
 * scene is sized to pass every threshold of the parallel paths ({@link WARM_UP_MOVING} moving
 * bodies: two chunks of the `setPoses` passes and of the static queries, more than one chunk of
 * candidates; a random walk that takes more than 64 of them out of their fat boxes every step;
 * {@link WARM_UP_STATIC} static boxes under them) and stepped {@link WARM_UP_STEPS} times, with
 * shapes passed through a structured clone, as the workers receive them. It costs each worker a
 * few hundred milliseconds of CPU once, while the caller builds its world; results do not depend
 * on it (every job is a pure function of its inputs).
 */
// The built-in pair routines (the worker loads them too, src/parallel/worker-state.ts).
import "../narrowphase/dispatch.js";
import { makeRandom, randomRotation } from "../math/random.js";
import { makeCuboid } from "../shapes/cuboid.js";
import type { Shape } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import { CollisionWorld } from "../world/collision-world.js";
import type { BodyHandle } from "../world/handles.js";
import { POSE_BOXES_CHUNK } from "../world/pose-boxes.js";
import type { WorkerMessage } from "./protocol.js";
import { SharedMemoryExecutor, type WorkerExecutorOptions } from "./shared-executor.js";

/** Moving bodies of the warm-up scene: two chunks of `setPoses`' parallel passes. */
export const WARM_UP_MOVING = 2 * POSE_BOXES_CHUNK;
/** Static unit boxes of the warm-up scene: a 32 × 32 floor under the moving bodies. */
export const WARM_UP_STATIC = 32 * 32;
/** Steps of the warm-up scene (the first builds the grid; the rest are incremental). */
export const WARM_UP_STEPS = 10;
/** Side of the cube the moving bodies start in, scene units (≈ 1.5 touching partners each). */
const WARM_UP_SIDE = 32;
/** Largest step of the moving bodies' random walk per axis, scene units. */
const WARM_UP_WALK = 0.05;

/** An executor of no worker threads: every job runs on the calling thread (the warm-up's). */
class LocalExecutor extends SharedMemoryExecutor {
  constructor(options: Partial<WorkerExecutorOptions>) {
    super(options);
  }
  protected post(_m: WorkerMessage): void {}
  protected wake(): void {}
  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

/**
 * Steps the warm-up scene (see the module docs) on this thread. Returns the number of contacts
 * of its last step (so that nothing of it is dead code). Allocates a few megabytes, released
 * when it returns.
 */
export function warmUpJobs(): number {
  const executor = new LocalExecutor({ threads: 1, minPairs: 0, warmUp: false });
  const world = new CollisionWorld({ broadphase: "grid", executor });
  const rng = makeRandom(0x5eed);
  for (let i = 0; i < WARM_UP_STATIC; i++) {
    const x = (i % 32) - 16 + 0.5;
    const y = Math.floor(i / 32) - 16 + 0.5;
    world.addBody({
      shape: structuredClone(makeCuboid({ x: 0.5, y: 0.5, z: 0.5 })) as Shape,
      pose: { translation: { x, y, z: -0.5 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      kind: "static",
    });
  }
  const handles: BodyHandle[] = [];
  const poses = new Float64Array(new SharedArrayBuffer(8 * 7 * WARM_UP_MOVING));
  for (let i = 0; i < WARM_UP_MOVING; i++) {
    const r = 0.2 + 0.3 * rng();
    const shape =
      i % 2 === 0
        ? makeSphere(r)
        : makeCuboid({ x: r, y: r * (0.5 + rng()), z: r * (0.5 + rng()) });
    const q = randomRotation(rng);
    const x = WARM_UP_SIDE * (rng() - 0.5);
    const y = WARM_UP_SIDE * (rng() - 0.5);
    const z = 0.6 + 4 * rng();
    const k = 7 * i;
    poses[k] = x;
    poses[k + 1] = y;
    poses[k + 2] = z;
    poses[k + 3] = q.x;
    poses[k + 4] = q.y;
    poses[k + 5] = q.z;
    poses[k + 6] = q.w;
    handles.push(
      world.addBody({
        shape: structuredClone(shape) as Shape,
        pose: { translation: { x, y, z }, rotation: q },
      }),
    );
  }
  world.step();
  for (let s = 1; s < WARM_UP_STEPS; s++) {
    for (let i = 0; i < WARM_UP_MOVING; i++) {
      const k = 7 * i;
      poses[k] += WARM_UP_WALK * (2 * rng() - 1);
      poses[k + 1] += WARM_UP_WALK * (2 * rng() - 1);
      poses[k + 2] += WARM_UP_WALK * (2 * rng() - 1);
    }
    world.setPoses(handles, poses);
    world.step();
  }
  return world.contactCount;
}
