/**
 * `collide/parallel/browser`: `WorkerExecutor` for web pages, the collision world's narrow
 * phase spread over Web Workers with `SharedArrayBuffer` storage, contacts bitwise identical to
 * one thread (the shared part is src/parallel/shared-executor.ts).
 *
 * ```ts
 * import { CollisionWorld } from "collide";
 * import { WorkerExecutor } from "collide/parallel/browser";
 * const executor = new WorkerExecutor({ threads: navigator.hardwareConcurrency });
 * await executor.ready(); // the workers start asynchronously; until then steps run on one thread
 * const world = new CollisionWorld({ broadphase: "grid", executor });
 * // … world.step() as usual; await executor.dispose() when done
 * ```
 *
 * `SharedArrayBuffer` exists only on a cross-origin isolated page: the server must send
 * `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`
 * (or `credentialless`) with the page. Without them the constructor throws a `CollideError`.
 *
 * The worker script is `./web-worker.js` beside this module, started as
 * `new Worker(new URL("./web-worker.js", import.meta.url), { type: "module" })`, the form
 * bundlers (Vite, webpack 5, esbuild with plugins) recognise and bundle. A worker waits for
 * messages in its event loop; the executor posts the job's new buffers and shapes and then a
 * `job` message (src/parallel/protocol.ts). The world may step on the page's main thread (it
 * cannot block there, so it polls while it waits for the workers' last blocks) or in a worker
 * of its own.
 */
import { invalidValue } from "../errors.js";
import type { WebWorkerMessage, WorkerMessage } from "./protocol.js";
import { SharedMemoryExecutor, type WorkerExecutorOptions } from "./shared-executor.js";

export {
  defaultWorkerExecutorOptions,
  SharedMemoryExecutor,
  type WorkerExecutorOptions,
} from "./shared-executor.js";

/** Throws `CollideError` when this page cannot share memory with workers; returns `options`. */
function requireIsolation<T>(options: T): T {
  const g = globalThis as { crossOriginIsolated?: boolean; Worker?: unknown };
  if (typeof SharedArrayBuffer !== "function" || g.crossOriginIsolated === false) {
    invalidValue(
      "SharedArrayBuffer",
      typeof SharedArrayBuffer,
      "is not available: serve the page cross-origin isolated (Cross-Origin-Opener-Policy: " +
        "same-origin and Cross-Origin-Embedder-Policy: require-corp)",
    );
  }
  if (typeof g.Worker !== "function") invalidValue("Worker", typeof g.Worker, "must be available");
  return options;
}

/**
 * A parallel executor of the collision world's narrow phase over Web Workers (see the module
 * docs). Throws `CollideError` on a page without `SharedArrayBuffer` (not cross-origin
 * isolated), for `threads` not an integer in [1, 64] or a negative `minPairs`.
 */
export class WorkerExecutor extends SharedMemoryExecutor {
  private readonly workers: Worker[] = [];

  /** Starts `threads − 1` Web Workers; `options` overrides `defaultWorkerExecutorOptions()`. */
  constructor(options: Partial<WorkerExecutorOptions> = {}) {
    super(requireIsolation(options));
    for (let t = 1; t < this.threads; t++) {
      const w = new Worker(new URL("./web-worker.js", import.meta.url), { type: "module" });
      w.addEventListener("error", (e) => {
        this.failure = e instanceof ErrorEvent && e.error ? e.error : new Error(e.message);
      });
      const init: WebWorkerMessage = {
        type: "init",
        control: this.control.buffer as SharedArrayBuffer,
        params: this.params.buffer as SharedArrayBuffer,
        warmUp: this.warmUp,
      };
      w.postMessage(init);
      this.workers.push(w);
    }
    this.workerCount = this.workers.length;
  }

  protected post(m: WorkerMessage): void {
    for (const w of this.workers) w.postMessage(m);
  }

  protected wake(): void {
    const job: WebWorkerMessage = { type: "job" };
    for (const w of this.workers) w.postMessage(job);
  }

  /** Terminates the workers (idempotent). The executor cannot be used afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const w of this.workers) w.terminate();
    this.workers.length = 0;
  }
}
export type { NarrowPhaseInput, NarrowPhaseSink, StepExecutor } from "../world/executor.js";
