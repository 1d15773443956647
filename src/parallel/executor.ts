/**
 * `WorkerExecutor`: the collision world's narrow phase spread over `worker_threads` with
 * `SharedArrayBuffer` storage (Node only; the entry point `collide/parallel`).
 *
 * ```ts
 * import { WorkerExecutor } from "collide/parallel";
 * const executor = new WorkerExecutor({ threads: 2 });
 * const world = new CollisionWorld({ broadphase: "grid", executor });
 * // … world.step() as usual …
 * executor.dispose();
 * ```
 *
 * Per step the calling thread copies the filtered pairs, the poses and the flag bytes into
 * shared buffers, sends the shapes the workers have not seen yet (structured clone, once per
 * shape object), wakes the workers and then works on the job itself; every thread takes blocks
 * of pairs from a shared counter (dynamic load balancing) and writes each block's records into
 * the block's own region, so the blocks read in order give exactly the single-threaded records
 * (src/parallel/protocol.ts). Every thread runs the same `narrowPair` code
 * (src/world/narrow-pair.ts) on the same doubles, so contacts are bitwise identical to a
 * single-threaded step. Small jobs (fewer pairs than {@link WorkerExecutorOptions.minPairs})
 * run on the calling thread alone. If a worker fails (e.g. an unsupported shape pair), the job
 * is redone on the calling thread, which throws the error a single-threaded step would.
 *
 * Shapes are identified by object identity: a slot whose shape object changed since the last
 * step is re-sent. Treat shapes as immutable, as the world asks.
 *
 * Workers wait with `Atomics.wait` between steps (no CPU while idle) and are `unref`ed, so an
 * executor never keeps a process alive; `dispose()` stops and terminates them.
 */
import { MessageChannel, type MessagePort as NodeMessagePort, Worker } from "node:worker_threads";
import { invalidValue } from "../errors.js";
import type { Shape } from "../shapes/shape.js";
import type { NarrowPhaseInput, NarrowPhaseOutput, StepExecutor } from "../world/executor.js";
import { NARROW_RECORD_STRIDE } from "../world/narrow-pair.js";
import { runBlocks } from "./blocks.js";
import {
  CTRL_DONE,
  CTRL_ERROR,
  CTRL_GENERATION,
  CTRL_NEXT_BLOCK,
  CTRL_PAIR_COUNT,
  CTRL_READY,
  CTRL_SLOTS,
  CTRL_STOP,
  PARALLEL_BLOCK_PAIRS,
  PARALLEL_JOB_TIMEOUT_MS,
  type SharedBuffers,
  type WorkerInit,
  type WorkerMessage,
} from "./protocol.js";

/** Settings of a {@link WorkerExecutor}. */
export interface WorkerExecutorOptions {
  /**
   * Threads, the calling thread included (an integer ≥ 1; 1 runs everything on the caller).
   * @default 2
   */
  threads: number;
  /**
   * Jobs with fewer filtered pairs than this run on the calling thread alone (waking the
   * workers costs tens of microseconds). @default 2048 pairs
   */
  minPairs: number;
}

/** The default {@link WorkerExecutorOptions}. */
export function defaultWorkerExecutorOptions(): WorkerExecutorOptions {
  return { threads: 2, minPairs: 4 * PARALLEL_BLOCK_PAIRS };
}

/** Polling period of {@link WorkerExecutor.ready}, milliseconds. */
const WORKER_POLL_MS = 5;

/** Rounds `n` up to a power of two (at least `min`). */
function capacityFor(n: number, min: number): number {
  let c = min;
  while (c < n) c *= 2;
  return c;
}

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
 * A parallel executor of the collision world's narrow phase over worker threads (see the
 * module docs). Throws `CollideError` for `threads` not an integer in [1, 64] or a negative
 * `minPairs`.
 */
export class WorkerExecutor implements StepExecutor, NarrowPhaseOutput {
  /** Threads, the calling thread included. */
  readonly threads: number;
  /** Number of result blocks of the last job. */
  blockCount = 0;
  private readonly minPairs: number;
  private readonly workers: Worker[] = [];
  private readonly ports: NodeMessagePort[] = [];
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * CTRL_SLOTS));
  private readonly params = new Float64Array(new SharedArrayBuffer(8));
  private pairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private pose: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private flags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private out: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private blockLengths: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private buffersChanged = true;
  private readonly shapeIds = new WeakMap<Shape, number>();
  private nextShapeId = 0;
  private knownShapes: (Shape | undefined)[] = [];
  private readonly newIds: number[] = [];
  private readonly newShapes: Shape[] = [];
  private readonly slotChanges: number[] = [];
  private disposed = false;
  private failure: unknown = null;

  /** Starts `threads − 1` workers; `options` overrides {@link defaultWorkerExecutorOptions}. */
  constructor(options: Partial<WorkerExecutorOptions> = {}) {
    const o = { ...defaultWorkerExecutorOptions(), ...options };
    if (!(Number.isInteger(o.threads) && o.threads >= 1 && o.threads <= 64)) {
      invalidValue("options.threads", o.threads, "must be an integer in [1, 64]");
    }
    if (!(typeof o.minPairs === "number" && o.minPairs >= 0)) {
      invalidValue("options.minPairs", o.minPairs, "must be a number >= 0");
    }
    this.threads = o.threads;
    this.minPairs = o.minPairs;
    for (let t = 1; t < this.threads; t++) {
      const channel = new MessageChannel();
      const w = spawnWorker({
        control: this.control.buffer as unknown as SharedArrayBuffer,
        params: this.params.buffer as unknown as SharedArrayBuffer,
        port: channel.port2 as unknown as MessagePort,
      });
      w.unref();
      w.on("error", (e) => {
        this.failure = e;
      });
      channel.port1.unref();
      this.workers.push(w);
      this.ports.push(channel.port1);
    }
  }

  /** Number of records in block `b` of the last job. */
  blockLength(b: number): number {
    return this.blockLengths[b];
  }

  /** The array holding block `b`'s records. */
  blockData(_b: number): Float64Array {
    return this.out;
  }

  /** Offset of block `b`'s first record (doubles). */
  blockOffset(b: number): number {
    return b * PARALLEL_BLOCK_PAIRS * NARROW_RECORD_STRIDE;
  }

  /**
   * Runs the narrow phase of `input` over the threads (see the module docs) and returns this
   * executor as the output (valid until the next call). Throws `CollideError` after
   * {@link dispose}, and whatever a single-threaded step throws (e.g. `unsupported_pair`).
   */
  runNarrowPhase(input: NarrowPhaseInput): NarrowPhaseOutput {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const n = input.pairCount;
    this.reserve(n, input.slotCount);
    const control = this.control;
    // Until every worker has started (a fraction of a second after construction), run alone:
    // the result is the same.
    const ready = Atomics.load(control, CTRL_READY) >= this.workers.length;
    if (this.workers.length === 0 || n < this.minPairs || !ready) {
      control[CTRL_NEXT_BLOCK] = 0;
      this.blockCount = this.runHere(input, input.pairs, input.pose, input.flags);
      return this;
    }
    this.pairs.set(input.pairs.subarray(0, n));
    this.pose.set(input.pose.subarray(0, 7 * input.slotCount));
    this.flags.set(input.flags.subarray(0, input.slotCount));
    this.syncShapes(input.shapes, input.slotCount);
    this.params[0] = input.prediction;
    control[CTRL_PAIR_COUNT] = n;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    Atomics.add(control, CTRL_GENERATION, 1);
    Atomics.notify(control, CTRL_GENERATION);
    let failure: unknown = null;
    try {
      runBlocks(
        control,
        this.pairs,
        n,
        this.pose,
        this.flags,
        input.shapes,
        input.prediction,
        this.out,
        this.blockLengths,
      );
    } catch (e) {
      failure = e;
    }
    const workers = this.workers.length;
    const t0 = Date.now();
    for (;;) {
      const d = Atomics.load(control, CTRL_DONE);
      if (d >= workers) break;
      Atomics.wait(control, CTRL_DONE, d, PARALLEL_JOB_TIMEOUT_MS);
      if (Date.now() - t0 > PARALLEL_JOB_TIMEOUT_MS) {
        invalidValue("executor", this.threads, "a worker thread stopped answering");
      }
    }
    this.blockCount = Math.ceil(n / PARALLEL_BLOCK_PAIRS);
    if (failure !== null || Atomics.load(control, CTRL_ERROR) !== 0) {
      // Redo alone: the same error (or, if a worker alone failed, the right answer).
      control[CTRL_NEXT_BLOCK] = 0;
      this.blockCount = this.runHere(input, this.pairs, this.pose, this.flags);
    }
    return this;
  }

  /**
   * Resolves once every worker has started (until then steps run on the calling thread alone,
   * with the same results). Rejects with the worker's error if one failed to start, or after
   * `timeoutMs` milliseconds.
   */
  async ready(timeoutMs = PARALLEL_JOB_TIMEOUT_MS): Promise<void> {
    const t0 = Date.now();
    while (Atomics.load(this.control, CTRL_READY) < this.workers.length) {
      if (this.failure !== null) throw this.failure;
      if (Date.now() - t0 > timeoutMs) {
        invalidValue("executor", this.threads, "its worker threads did not start in time");
      }
      await new Promise((r) => setTimeout(r, WORKER_POLL_MS));
    }
  }

  /** Stops and terminates the workers (idempotent). The executor cannot be used afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    Atomics.store(this.control, CTRL_STOP, 1);
    Atomics.add(this.control, CTRL_GENERATION, 1);
    Atomics.notify(this.control, CTRL_GENERATION);
    for (const p of this.ports) p.close();
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }

  /** Runs every block on the calling thread; returns the number of blocks. */
  private runHere(
    input: NarrowPhaseInput,
    pairs: Float64Array,
    pose: Float64Array,
    flags: Uint8Array,
  ): number {
    runBlocks(
      this.control,
      pairs,
      input.pairCount,
      pose,
      flags,
      input.shapes,
      input.prediction,
      this.out,
      this.blockLengths,
    );
    return Math.ceil(input.pairCount / PARALLEL_BLOCK_PAIRS);
  }

  /** Grows the shared buffers to hold `pairs` pairs and `slots` slots. */
  private reserve(pairs: number, slots: number): void {
    const blocks = Math.ceil(pairs / PARALLEL_BLOCK_PAIRS);
    if (blocks * PARALLEL_BLOCK_PAIRS > this.pairs.length) {
      const cap = capacityFor(blocks * PARALLEL_BLOCK_PAIRS, PARALLEL_BLOCK_PAIRS);
      this.pairs = new Float64Array(new SharedArrayBuffer(8 * cap));
      this.out = new Float64Array(new SharedArrayBuffer(8 * cap * NARROW_RECORD_STRIDE));
      this.blockLengths = new Int32Array(new SharedArrayBuffer(4 * (cap / PARALLEL_BLOCK_PAIRS)));
      this.buffersChanged = true;
    }
    if (slots > this.flags.length) {
      const cap = capacityFor(slots, 64);
      this.pose = new Float64Array(new SharedArrayBuffer(8 * 7 * cap));
      this.flags = new Uint8Array(new SharedArrayBuffer(cap));
      this.buffersChanged = true;
    }
    if (this.buffersChanged && this.workers.length > 0) {
      const buffers: SharedBuffers = {
        pairs: this.pairs.buffer as unknown as SharedArrayBuffer,
        pose: this.pose.buffer as unknown as SharedArrayBuffer,
        flags: this.flags.buffer as unknown as SharedArrayBuffer,
        out: this.out.buffer as unknown as SharedArrayBuffer,
        blockLength: this.blockLengths.buffer as unknown as SharedArrayBuffer,
      };
      this.post({ type: "buffers", buffers });
    }
    this.buffersChanged = false;
  }

  /** Sends the workers the slots whose shape object changed since the last job. */
  private syncShapes(shapes: readonly (Shape | undefined)[], slotCount: number): void {
    const known = this.knownShapes;
    const changes = this.slotChanges;
    for (let s = 0; s < slotCount; s++) {
      const shape = shapes[s];
      if (shape === known[s]) continue;
      known[s] = shape;
      let id = -1;
      if (shape !== undefined) {
        const had = this.shapeIds.get(shape);
        if (had === undefined) {
          id = this.nextShapeId++;
          this.shapeIds.set(shape, id);
          this.newIds.push(id);
          this.newShapes.push(shape);
        } else id = had;
      }
      changes.push(s, id);
    }
    if (changes.length === 0) return;
    this.post({
      type: "shapes",
      ids: this.newIds.slice(),
      shapes: this.newShapes.slice(),
      slots: changes.slice(),
    });
    this.newIds.length = 0;
    this.newShapes.length = 0;
    changes.length = 0;
  }

  private post(m: WorkerMessage): void {
    for (const p of this.ports) p.postMessage(m);
  }
}
