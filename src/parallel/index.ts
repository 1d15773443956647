/**
 * `collide/parallel`: the Node-only entry point with {@link WorkerExecutor}, which spreads the
 * collision world's narrow phase over `worker_threads` with shared memory. The core library
 * never imports this module, so it still bundles for browsers; pass the executor to the world
 * as `new CollisionWorld({ executor })`.
 */

export type { NarrowPhaseInput, NarrowPhaseSink, StepExecutor } from "../world/executor.js";
export {
  defaultWorkerExecutorOptions,
  WorkerExecutor,
  type WorkerExecutorOptions,
} from "./executor.js";
export { PARALLEL_BLOCK_PAIRS } from "./protocol.js";
