/**
 * `WorkerExecutor`: the collision world's narrow phase spread over `worker_threads` with
 * `SharedArrayBuffer` storage (Node only; the entry point `collide/parallel`; for browsers see
 * `collide/parallel/browser`, src/parallel/browser.ts).
 *
 * ```ts
 * import { WorkerExecutor } from "collide/parallel";
 * const executor = new WorkerExecutor({ threads: 2 });
 * const world = new CollisionWorld({ broadphase: "grid", executor });
 * // … world.step() as usual …
 * executor.dispose();
 * ```
 *
 * How a step is shared between the threads, and why the contacts are bitwise those of one
 * thread, is in src/parallel/shared-executor.ts. On Node, messages go over a `MessagePort` and
 * a worker reads them synchronously (`receiveMessageOnPort`) when the job generation it waits on
 * (`Atomics.wait`) is bumped. Workers wait with no CPU while idle and are `unref`ed, so an
 * executor never keeps a process alive; `dispose()` stops and terminates them.
 */
import { MessageChannel, type MessagePort as NodeMessagePort, Worker } from "node:worker_threads";
import { CTRL_GENERATION, CTRL_STOP, type WorkerInit, type WorkerMessage } from "./protocol.js";
import { SharedMemoryExecutor, type WorkerExecutorOptions } from "./shared-executor.js";

export { defaultWorkerExecutorOptions, type WorkerExecutorOptions } from "./shared-executor.js";

/** The URL and options of the worker script: the compiled .js, or the .ts through tsx in tests. */
function spawnWorker(init: WorkerInit): Worker {
  const self = import.meta.url;
  const transfer = [init.port as unknown as NodeMessagePort];
  if (self.endsWith(".ts")) {
    // Running from sources (tests, `node --import tsx`): register tsx inside the worker first.
    const url = new URL("./worker.ts", self).href;
    const code = `import("tsx/esm/api").then((api) => { api.register(); return import(${JSON.stringify(url)}); });`;
    return new Worker(code, { eval: true, workerData: init, transferList: transfer });
  }
  return new Worker(new URL("./worker.js", self), { workerData: init, transferList: transfer });
}

/**
 * A parallel executor of the collision world's narrow phase over Node's worker threads (see
 * the module docs). Throws `CollideError` for `threads` not an integer in [1, 64] or a negative
 * `minPairs`.
 */
export class WorkerExecutor extends SharedMemoryExecutor {
  private readonly workers: Worker[] = [];
  private readonly ports: NodeMessagePort[] = [];

  /** Starts `threads − 1` workers; `options` overrides `defaultWorkerExecutorOptions()`. */
  constructor(options: Partial<WorkerExecutorOptions> = {}) {
    super(options);
    for (let t = 1; t < this.threads; t++) {
      const channel = new MessageChannel();
      const w = spawnWorker({
        control: this.control.buffer as unknown as SharedArrayBuffer,
        params: this.params.buffer as unknown as SharedArrayBuffer,
        port: channel.port2 as unknown as MessagePort,
        warmUp: this.warmUp,
      });
      w.unref();
      w.on("error", (e) => {
        this.failure = e;
      });
      channel.port1.unref();
      this.workers.push(w);
      this.ports.push(channel.port1);
    }
    this.workerCount = this.workers.length;
  }

  protected post(m: WorkerMessage): void {
    for (const p of this.ports) p.postMessage(m);
  }

  protected wake(): void {
    Atomics.add(this.control, CTRL_GENERATION, 1);
    Atomics.notify(this.control, CTRL_GENERATION);
  }

  /** Stops and terminates the workers (idempotent). The executor cannot be used afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    Atomics.store(this.control, CTRL_STOP, 1);
    this.wake();
    for (const p of this.ports) p.close();
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}
