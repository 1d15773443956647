/**
 * `SharedMemoryExecutor`: the part of a parallel executor of the collision world's narrow phase
 * that is the same on every platform; `WorkerExecutor` of `collide/parallel`
 * (src/parallel/executor.ts, Node's `worker_threads`) and of `collide/parallel/browser`
 * (src/parallel/browser.ts, Web Workers) extend it with how they start, message, wake and stop
 * their workers.
 *
 * Per step the calling thread copies the filtered pairs, the poses, the flag bytes and the
 * bounding radii into shared buffers (unless the world keeps them there already), sends the shapes the workers have not seen yet (structured clone, once per
 * shape object), wakes the workers and then works on the job itself; every thread takes blocks
 * of pairs from a shared counter (dynamic load balancing) and writes each block's records into
 * the block's own region, so the blocks read in order give exactly the single-threaded records
 * (src/parallel/protocol.ts). Every thread runs the same `narrowPairRadius` code
 * (src/world/narrow-pair.ts) on the same doubles, so contacts are bitwise identical to a
 * single-threaded step. Between its own blocks the calling thread hands every finished block,
 * in order, to the world's sink, so the world merges contacts into its cache while the workers
 * still compute (the merge is serial work; overlapped, it no longer adds to the step). Small
 * jobs (fewer pairs than {@link WorkerExecutorOptions.minPairs}) run on the calling thread
 * alone. A block that a failed worker left unfinished (or that threw on the calling thread) is
 * computed again on the calling thread, in order, so the error thrown is the one a
 * single-threaded step throws.
 *
 * Shapes are identified by object identity: a slot whose shape object changed since the last
 * step is re-sent. Treat shapes as immutable, as the world asks.
 *
 * The calling thread waits for the workers' last blocks with `Atomics.wait` where the platform
 * lets it block (Node, a Web Worker) and by polling `Atomics.load` where it does not (a
 * browser's main thread); either way the wait is short, since the caller works on blocks until
 * none is left to take.
 */
import { type CandidateMergeJob, mergeCandidateChunk } from "../broadphase/candidate-merge.js";
import type { CellQueryJob } from "../broadphase/cell-query.js";
import { cellJobChunk } from "../broadphase/cell-update.js";
import { checkOptionKeys, invalidValue, withDefaults } from "../errors.js";
import type { Shape } from "../shapes/shape.js";
import type { NarrowPhaseInput, NarrowPhaseSink, StepExecutor } from "../world/executor.js";
import { NARROW_RECORD_STRIDE } from "../world/narrow-pair.js";
import {
  applyPoseChunk,
  POSE_CHUNK_PENDING,
  type PoseBoxesJob,
  poseBoxesChunk,
} from "../world/pose-boxes.js";
import { type StaticQueryJob, staticQueryChunk } from "../world/static-query.js";
import {
  runApplyChunks,
  runBlock,
  runBlocks,
  runCellChunks,
  runMergeChunks,
  runPoseChunks,
  runStaticChunks,
} from "./blocks.js";
import {
  type CellBuffers,
  CTRL_CELL_CHUNK_SIZE,
  CTRL_CELL_CHUNKS,
  CTRL_CELL_CLASS_BITS,
  CTRL_CELL_GENERATION,
  CTRL_CELL_MOVED,
  CTRL_CELL_ROOM,
  CTRL_CELL_SHIFT,
  CTRL_CELL_TABLE_GENERATION,
  CTRL_CELL_UPDATE,
  CTRL_DONE,
  CTRL_ERROR,
  CTRL_JOB_KIND,
  CTRL_MERGE_CHUNK_SIZE,
  CTRL_MERGE_CHUNKS,
  CTRL_MERGE_FILTER,
  CTRL_MERGE_GENERATION,
  CTRL_MERGE_NEW,
  CTRL_MERGE_OLD,
  CTRL_NARROW_CARRY,
  CTRL_NEXT_BLOCK,
  CTRL_PAIR_COUNT,
  CTRL_POSE_CHUNK_SIZE,
  CTRL_POSE_CHUNKS,
  CTRL_POSE_COUNT,
  CTRL_POSE_GRID,
  CTRL_READY,
  CTRL_SLOTS,
  CTRL_STATIC_CHUNK_SIZE,
  CTRL_STATIC_CHUNKS,
  CTRL_STATIC_COUNT,
  CTRL_STATIC_VERSION,
  JOB_CELLS,
  JOB_MERGE,
  JOB_NARROW,
  JOB_POSE_APPLY,
  JOB_POSES,
  JOB_STATIC,
  type MergeBuffers,
  PARALLEL_BLOCK_PAIRS,
  PARALLEL_JOB_TIMEOUT_MS,
  PARAM_SLOTS,
  type PoseApplyBuffers,
  type PoseBuffers,
  type SharedBuffers,
  type StaticBuffers,
  type WorkerMessage,
} from "./protocol.js";

/** Settings of a `WorkerExecutor` (Node or browser). */
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
  /**
   * Whether each worker, when it starts, runs its job code (the narrow phase, the grid's
   * candidate merge, cell update and cell queries, both passes of `setPoses`, the static
   * queries) on a small synthetic scene of 6,144 moving bodies over 1,024 static boxes, 16 steps
   * (src/parallel/warm-up.ts), before it reports ready: a worker is a V8 isolate of its own, and
   * without it the first threaded steps run the workers' share unoptimised. Costs each worker a
   * few hundred milliseconds of CPU once, at start, and delays `ready()` by that; results are the
   * same either way. @default true
   */
  warmUp: boolean;
}

/** The default {@link WorkerExecutorOptions}. */
export function defaultWorkerExecutorOptions(): WorkerExecutorOptions {
  return { threads: 2, minPairs: 4 * PARALLEL_BLOCK_PAIRS, warmUp: true };
}

/** Polling period of the waits of the calling thread and of `ready()`, milliseconds. */
export const WORKER_POLL_MS = 5;

/** True when `a` lives in a `SharedArrayBuffer` (workers can read it in place). */
function isShared(a: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer === "function" && a.buffer instanceof SharedArrayBuffer;
}

/**
 * 0 when `a` is shared and its buffer is `sent[i]`, 1 when it is shared but another buffer, 2
 * when it is not in shared memory.
 */
function mergeBufferState(a: ArrayBufferView, sent: (ArrayBufferLike | null)[], i: number): number {
  if (!isShared(a)) return 2;
  return a.buffer === sent[i] ? 0 : 1;
}

/** Rounds `n` up to a power of two (at least `min`). */
function capacityFor(n: number, min: number): number {
  let c = min;
  while (c < n) c *= 2;
  return c;
}

/** Whether this thread may block in `Atomics.wait` (a browser's main thread may not). */
let canBlock: boolean | null = null;

/**
 * Waits until `a[index]` is no longer `value` or `ms` milliseconds have passed: `Atomics.wait`
 * where the thread may block, else a polling loop on `Atomics.load`.
 */
function waitWhileEqual(a: Int32Array, index: number, value: number, ms: number): void {
  if (canBlock === null) {
    try {
      Atomics.wait(a, index, value ^ 1, 0);
      canBlock = true;
    } catch {
      canBlock = false;
    }
  }
  if (canBlock) {
    Atomics.wait(a, index, value, ms);
    return;
  }
  const t0 = performance.now();
  while (Atomics.load(a, index) === value && performance.now() - t0 < ms) {
    // Spin: the main thread of a page cannot block.
  }
}

/**
 * The platform-independent part of a parallel executor of the collision world's narrow phase
 * over shared memory (see the module docs): the job buffers, the shape sync, the block queue
 * run on the calling thread and the ordered merge. A subclass starts the workers (Node's
 * `worker_threads` in src/parallel/executor.ts, Web Workers in src/parallel/browser.ts), posts
 * `WorkerMessage`s (src/parallel/protocol.ts) to them and wakes them for a job.
 */
export abstract class SharedMemoryExecutor implements StepExecutor {
  /** Threads, the calling thread included. */
  readonly threads: number;
  /**
   * True: {@link runNarrowPhase} honours the move buffer of its input (the threads sort out
   * the pairs of two unmoved bodies).
   * @internal
   */
  readonly carriesUnmoved = true;
  private readonly minPairs: number;
  /** Whether the workers warm up before they report ready ({@link WorkerExecutorOptions.warmUp}). */
  protected readonly warmUp: boolean;
  /** Number of worker threads started (`threads − 1`). */
  protected workerCount = 0;
  /** The shared control array (slots of src/parallel/protocol.ts). */
  protected readonly control = new Int32Array(new SharedArrayBuffer(4 * CTRL_SLOTS));
  /** The job's parameters (Float64: prediction). */
  protected readonly params = new Float64Array(new SharedArrayBuffer(8 * PARAM_SLOTS));
  private pairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private pose: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private flags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private radius: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private dirty: Uint8Array<ArrayBufferLike> = new Uint8Array(new SharedArrayBuffer(0));
  private out: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private blockLengths: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private buffersChanged = true;
  private readonly shapeIds = new WeakMap<Shape, number>();
  private nextShapeId = 0;
  private knownShapes: (Shape | undefined)[] = [];
  private readonly newIds: number[] = [];
  private readonly newShapes: Shape[] = [];
  private readonly slotChanges: number[] = [];
  /** True once {@link dispose} has run. */
  protected disposed = false;
  /** The first error a worker reported (it failed to start or crashed), else null. */
  protected failure: unknown = null;
  // The job being run (set for the duration of runNarrowPhase).
  private job: NarrowPhaseInput | null = null;
  private sink: NarrowPhaseSink | null = null;
  private jobPairs: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private jobPose: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private jobFlags: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private jobRadius: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private jobDirty: Uint8Array<ArrayBufferLike> | null = null;
  private nextMerge = 0;
  private blockTotal = 0;
  /**
   * The last job's blocks of {@link PARALLEL_BLOCK_PAIRS} pairs: in all, and run by the calling
   * thread (the rest ran on the workers).
   */
  readonly lastJob: {
    /** Blocks of the last job. */
    blocks: number;
    /** Of those, the blocks the calling thread ran. */
    callerBlocks: number;
  } = { blocks: 0, callerBlocks: 0 };
  private readonly mergeReadyBound = (): void => this.mergeReady();
  // The shapes array and version of the last shape sync.
  private syncedShapes: readonly (Shape | undefined)[] | null = null;
  private syncedVersion = -1;
  // The buffers the workers were last sent.
  private sentPairs: ArrayBufferLike | null = null;
  private sentPose: ArrayBufferLike | null = null;
  private sentFlags: ArrayBufferLike | null = null;
  private sentRadius: ArrayBufferLike | null = null;
  private sentDirty: ArrayBufferLike | null = null;
  // The merge job's arrays the workers were last sent (see shareMergeBuffers).
  private readonly sentMerge: (ArrayBufferLike | null)[] = new Array(11).fill(null);
  // The cell queries job's arrays the workers were last sent (see shareCellBuffers).
  private readonly sentCells: (ArrayBufferLike | null)[] = new Array(16).fill(null);
  // The static queries job's arrays the workers were last sent (see shareStaticBuffers).
  private readonly sentStatic: (ArrayBufferLike | null)[] = new Array(10).fill(null);
  // The poses job's arrays the workers were last sent (see sharePoseBuffers).
  private readonly sentPoses: (ArrayBufferLike | null)[] = new Array(5).fill(null);
  // The second poses pass's own arrays the workers were last sent (see shareApplyBuffers).
  private readonly sentApply: (ArrayBufferLike | null)[] = new Array(7).fill(null);

  /**
   * Checks `options` (overriding {@link defaultWorkerExecutorOptions}); the subclass then starts
   * `threads − 1` workers. Throws `CollideError` for `threads` not an integer in [1, 64] or a
   * negative `minPairs`.
   */
  protected constructor(options: Partial<WorkerExecutorOptions>) {
    const defaults = defaultWorkerExecutorOptions();
    checkOptionKeys(options, defaults, "WorkerExecutor");
    const o = withDefaults(defaults, options);
    if (!(Number.isInteger(o.threads) && o.threads >= 1 && o.threads <= 64)) {
      invalidValue("options.threads", o.threads, "must be an integer in [1, 64]");
    }
    if (!(typeof o.minPairs === "number" && o.minPairs >= 0)) {
      invalidValue("options.minPairs", o.minPairs, "must be a number >= 0");
    }
    if (typeof o.warmUp !== "boolean") {
      invalidValue("options.warmUp", o.warmUp, "must be a boolean");
    }
    this.threads = o.threads;
    this.minPairs = o.minPairs;
    this.warmUp = o.warmUp;
  }

  /** Sends `m` to every worker, in order with the other messages. */
  protected abstract post(m: WorkerMessage): void;

  /** Wakes the workers for the job just written to the control array. */
  protected abstract wake(): void;

  /**
   * Runs the narrow phase of `input` over the threads (see the module docs), handing the
   * records to `sink` block by block in order. Throws `CollideError` after {@link dispose}, and
   * whatever a single-threaded step throws (e.g. `unsupported_pair`).
   */
  runNarrowPhase(input: NarrowPhaseInput, sink: NarrowPhaseSink): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const n = input.pairCount;
    this.reserve(input);
    const control = this.control;
    this.job = input;
    this.sink = sink;
    this.nextMerge = 0;
    this.blockTotal = Math.ceil(n / PARALLEL_BLOCK_PAIRS);
    this.lastJob.blocks = this.blockTotal;
    this.lastJob.callerBlocks = this.blockTotal;
    // −1 = not finished yet: mergeReady stops at the first such block.
    this.blockLengths.fill(-1, 0, this.blockTotal);
    try {
      // Until every worker has started (a fraction of a second after construction), run alone:
      // the result is the same.
      const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
      if (this.workerCount === 0 || n < this.minPairs || !ready) {
        this.jobPairs = input.pairs;
        this.jobPose = input.pose;
        this.jobFlags = input.flags;
        this.jobRadius = input.radius;
        this.jobDirty = input.dirty ?? null;
        for (let blk = 0; blk < this.blockTotal; blk++) {
          this.runBlockHere(blk);
          this.mergeReady();
        }
        return;
      }
      // Arrays already in shared memory (the world allocates them so when it has an executor)
      // are read in place by the workers; others are copied into the executor's buffers.
      if (isShared(input.pairs)) this.jobPairs = input.pairs;
      else {
        this.pairs.set(input.pairs.subarray(0, n));
        this.jobPairs = this.pairs;
      }
      if (isShared(input.pose)) this.jobPose = input.pose;
      else {
        this.pose.set(input.pose.subarray(0, 7 * input.slotCount));
        this.jobPose = this.pose;
      }
      if (isShared(input.flags)) this.jobFlags = input.flags;
      else {
        this.flags.set(input.flags.subarray(0, input.slotCount));
        this.jobFlags = this.flags;
      }
      if (isShared(input.radius)) this.jobRadius = input.radius;
      else {
        this.radius.set(input.radius.subarray(0, input.slotCount));
        this.jobRadius = this.radius;
      }
      const dirty = input.dirty ?? null;
      if (dirty === null || isShared(dirty)) this.jobDirty = dirty;
      else {
        this.dirty.set(dirty.subarray(0, input.slotCount));
        this.jobDirty = this.dirty;
      }
      this.shareBuffers();
      this.syncShapes(input.shapes, input.slotCount, input.shapesVersion);
      this.params[0] = input.prediction;
      control[CTRL_JOB_KIND] = JOB_NARROW;
      control[CTRL_PAIR_COUNT] = n;
      control[CTRL_NARROW_CARRY] = this.jobDirty === null ? 0 : 1;
      control[CTRL_NEXT_BLOCK] = 0;
      control[CTRL_DONE] = 0;
      control[CTRL_ERROR] = 0;
      this.wake();
      try {
        this.lastJob.callerBlocks = runBlocks(
          control,
          this.jobPairs,
          n,
          this.jobPose,
          this.jobFlags,
          this.jobRadius,
          this.jobDirty,
          input.shapes,
          input.prediction,
          this.out,
          this.blockLengths,
          this.mergeReadyBound,
        );
      } catch {
        // The block left unfinished (length −1) is run again below, in order, and rethrows.
      }
      this.finishMerge();
    } finally {
      this.job = null;
      this.sink = null;
      this.jobDirty = null;
    }
  }

  /**
   * Runs the `chunks` chunks of the grid's candidate merge `job` (src/broadphase/candidate-merge.ts)
   * over the threads, the calling thread included, and returns when every chunk is done (a chunk
   * a failed worker left is run here). Runs alone on the calling thread before the workers are
   * ready, for one chunk, or when an array of `job` is not in shared memory. Throws
   * `CollideError` after {@link dispose}.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runCandidateMerge(job: CandidateMergeJob, chunks: number): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const lengths = job.chunkLengths;
    lengths.fill(-1, 0, 2 * chunks);
    const control = this.control;
    const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
    if (this.workerCount === 0 || chunks < 2 || !ready || !this.shareMergeBuffers(job)) {
      for (let c = 0; c < chunks; c++) mergeCandidateChunk(job, c, chunks);
      return;
    }
    control[CTRL_JOB_KIND] = JOB_MERGE;
    control[CTRL_MERGE_OLD] = job.oldCount;
    control[CTRL_MERGE_NEW] = job.newCount;
    control[CTRL_MERGE_GENERATION] = job.generation;
    control[CTRL_MERGE_FILTER] = job.filter;
    control[CTRL_MERGE_CHUNKS] = chunks;
    control[CTRL_MERGE_CHUNK_SIZE] = job.chunkSize;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    this.wake();
    try {
      runMergeChunks(control, job, chunks);
    } catch {
      // The chunk left unfinished is run again below.
    }
    const workers = this.workerCount;
    const t0 = Date.now();
    for (;;) {
      const d = Atomics.load(control, CTRL_DONE);
      if (d >= workers) break;
      waitWhileEqual(control, CTRL_DONE, d, WORKER_POLL_MS);
      if (Date.now() - t0 > PARALLEL_JOB_TIMEOUT_MS) {
        invalidValue("executor", this.threads, "a worker thread stopped answering");
      }
    }
    for (let c = 0; c < chunks; c++) {
      if (Atomics.load(lengths, 2 * c) < 0) mergeCandidateChunk(job, c, chunks);
    }
  }

  /**
   * Runs the `chunks` chunks of the grid's cell queries `job` (src/broadphase/cell-query.ts) —
   * or, when `job.update` is 1, the classes of its cell update (src/broadphase/cell-update.ts) —
   * over the threads, the calling thread included, and returns when every chunk is done (a
   * chunk a failed worker left is run here). Runs alone on the calling thread before the
   * workers are ready, for one chunk, or when an array of `job` is not in shared memory.
   * Throws `CollideError` after {@link dispose}.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runCellQueries(job: CellQueryJob, chunks: number): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const lengths = job.chunkLengths;
    lengths.fill(-1, 0, chunks);
    const control = this.control;
    const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
    if (this.workerCount === 0 || chunks < 2 || !ready || !this.shareCellBuffers(job)) {
      for (let c = 0; c < chunks; c++) cellJobChunk(job, c);
      return;
    }
    control[CTRL_JOB_KIND] = JOB_CELLS;
    control[CTRL_CELL_UPDATE] = job.update;
    control[CTRL_CELL_CLASS_BITS] = job.classBits;
    control[CTRL_CELL_MOVED] = job.movedCount;
    control[CTRL_CELL_CHUNK_SIZE] = job.chunkSize;
    control[CTRL_CELL_GENERATION] = job.generation;
    control[CTRL_CELL_SHIFT] = job.tableShift;
    control[CTRL_CELL_TABLE_GENERATION] = job.tableGeneration;
    control[CTRL_CELL_ROOM] = job.chunkRoom;
    control[CTRL_CELL_CHUNKS] = chunks;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    this.wake();
    try {
      runCellChunks(control, job, chunks);
    } catch {
      // The chunk left unfinished is run again below.
    }
    this.waitForWorkers();
    for (let c = 0; c < chunks; c++) {
      if (Atomics.load(lengths, c) < 0) cellJobChunk(job, c);
    }
  }

  /**
   * Runs the `chunks` chunks of the first pass of the world's `setPoses` (src/world/pose-boxes.ts)
   * over the threads, the calling thread included, the slots' shapes being `shapes`, and returns
   * when every chunk is done (a chunk a failed worker left is run here; a chunk's own failure is
   * its status, for the world to handle). Runs alone on the calling thread before the workers
   * are ready, for one chunk, or when an array of `job` is not in shared memory. Throws
   * `CollideError` after {@link dispose}.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runPoseBoxes(
    job: PoseBoxesJob,
    chunks: number,
    shapes: readonly (Shape | undefined)[],
    slotCount: number,
    shapesVersion: number,
  ): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const status = job.status;
    status.fill(POSE_CHUNK_PENDING, 0, chunks);
    const control = this.control;
    const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
    if (this.workerCount === 0 || chunks < 2 || !ready || !this.sharePoseBuffers(job)) {
      for (let c = 0; c < chunks; c++) poseBoxesChunk(job, shapes, c);
      return;
    }
    this.syncShapes(shapes, slotCount, shapesVersion);
    this.params[1] = job.halfPrediction;
    control[CTRL_JOB_KIND] = JOB_POSES;
    control[CTRL_POSE_COUNT] = job.count;
    control[CTRL_POSE_CHUNKS] = chunks;
    control[CTRL_POSE_CHUNK_SIZE] = job.chunkSize;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    this.wake();
    try {
      runPoseChunks(control, job, shapes, chunks);
    } catch {
      // The chunk left unfinished is run again below.
    }
    this.waitForWorkers();
    for (let c = 0; c < chunks; c++) {
      if (Atomics.load(status, c) === POSE_CHUNK_PENDING) poseBoxesChunk(job, shapes, c);
    }
  }

  /**
   * Runs the `chunks` chunks of the second pass of the world's `setPoses`
   * (src/world/pose-boxes.ts `applyPoseChunk`) over the threads, the calling thread included,
   * and returns when every chunk is done (a chunk a failed worker left is run here). Runs alone
   * on the calling thread before the workers are ready, for one chunk, or when an array of
   * `job` is not in shared memory. Throws `CollideError` after {@link dispose}.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runPoseApply(job: PoseBoxesJob, chunks: number): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const status = job.status;
    status.fill(POSE_CHUNK_PENDING, 0, chunks);
    const control = this.control;
    const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
    if (
      this.workerCount === 0 ||
      chunks < 2 ||
      !ready ||
      !this.sharePoseBuffers(job) ||
      !this.shareApplyBuffers(job)
    ) {
      for (let c = 0; c < chunks; c++) applyPoseChunk(job, c);
      return;
    }
    // The apply pass grows each tight box into its broad-phase box (half the prediction).
    this.params[1] = job.halfPrediction;
    control[CTRL_JOB_KIND] = JOB_POSE_APPLY;
    control[CTRL_POSE_COUNT] = job.count;
    control[CTRL_POSE_CHUNKS] = chunks;
    control[CTRL_POSE_CHUNK_SIZE] = job.chunkSize;
    control[CTRL_POSE_GRID] = job.grid;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    this.wake();
    try {
      runApplyChunks(control, job, chunks);
    } catch {
      // The chunk left unfinished is run again below.
    }
    this.waitForWorkers();
    for (let c = 0; c < chunks; c++) {
      if (Atomics.load(status, c) === POSE_CHUNK_PENDING) applyPoseChunk(job, c);
    }
  }

  /**
   * Sends the workers the second poses pass's own arrays when any was replaced since the last
   * such job. Returns false (nothing sent) when some array is not in shared memory.
   */
  private shareApplyBuffers(job: PoseBoxesJob): boolean {
    const sent = this.sentApply;
    let state = 0;
    state |= mergeBufferState(job.aabb, sent, 0);
    state |= mergeBufferState(job.bpBox, sent, 1);
    state |= mergeBufferState(job.kind, sent, 2);
    state |= mergeBufferState(job.left, sent, 3);
    state |= mergeBufferState(job.gridBox, sent, 4);
    state |= mergeBufferState(job.fat, sent, 5);
    state |= mergeBufferState(job.pad, sent, 6);
    if ((state & 2) !== 0) return false;
    if (state === 0) return true;
    sent[0] = job.aabb.buffer;
    sent[1] = job.bpBox.buffer;
    sent[2] = job.kind.buffer;
    sent[3] = job.left.buffer;
    sent[4] = job.gridBox.buffer;
    sent[5] = job.fat.buffer;
    sent[6] = job.pad.buffer;
    const buffers: PoseApplyBuffers = {
      aabb: job.aabb.buffer as SharedArrayBuffer,
      bpBox: job.bpBox.buffer as SharedArrayBuffer,
      kind: job.kind.buffer as SharedArrayBuffer,
      left: job.left.buffer as SharedArrayBuffer,
      gridBox: job.gridBox.buffer as SharedArrayBuffer,
      fat: job.fat.buffer as SharedArrayBuffer,
      pad: job.pad.buffer as SharedArrayBuffer,
    };
    this.post({ type: "pose-apply-buffers", buffers });
    return true;
  }

  /**
   * Runs the `chunks` chunks of the world's static queries `job` (src/world/static-query.ts)
   * over the threads, the calling thread included, and returns when every chunk is done (a
   * chunk a failed worker left is run here). Runs alone on the calling thread before the
   * workers are ready, for one chunk, or when an array of `job` is not in shared memory.
   * Throws `CollideError` after {@link dispose}.
   * @internal Between the world and `collide/parallel`; the job types are not API.
   */
  runStaticQueries(job: StaticQueryJob, chunks: number): void {
    if (this.disposed) invalidValue("executor", "disposed", "has been disposed");
    const lengths = job.chunkLengths;
    lengths.fill(-1, 0, 2 * chunks);
    const control = this.control;
    const ready = Atomics.load(control, CTRL_READY) >= this.workerCount;
    if (this.workerCount === 0 || chunks < 2 || !ready || !this.shareStaticBuffers(job)) {
      for (let c = 0; c < chunks; c++) staticQueryChunk(job, c);
      return;
    }
    control[CTRL_JOB_KIND] = JOB_STATIC;
    control[CTRL_STATIC_COUNT] = job.count;
    control[CTRL_STATIC_CHUNK_SIZE] = job.chunkSize;
    control[CTRL_STATIC_VERSION] = job.staticVersion;
    control[CTRL_STATIC_CHUNKS] = chunks;
    control[CTRL_NEXT_BLOCK] = 0;
    control[CTRL_DONE] = 0;
    control[CTRL_ERROR] = 0;
    this.wake();
    try {
      runStaticChunks(control, job, chunks);
    } catch {
      // The chunk left unfinished is run again below.
    }
    this.waitForWorkers();
    for (let c = 0; c < chunks; c++) {
      if (Atomics.load(lengths, 2 * c) < 0) staticQueryChunk(job, c);
    }
  }

  /**
   * Sends the workers the static queries job's arrays when any was replaced since the last
   * such job. Returns false (nothing sent) when some array is not in shared memory.
   */
  private shareStaticBuffers(job: StaticQueryJob): boolean {
    const sent = this.sentStatic;
    // No array literal here: this runs every step and allocates nothing.
    let state = 0;
    state |= mergeBufferState(job.bodies, sent, 0);
    state |= mergeBufferState(job.box, sent, 1);
    state |= mergeBufferState(job.scBox, sent, 2);
    state |= mergeBufferState(job.scStart, sent, 3);
    state |= mergeBufferState(job.scCount, sent, 4);
    state |= mergeBufferState(job.scVersion, sent, 5);
    state |= mergeBufferState(job.pool, sent, 6);
    state |= mergeBufferState(job.keys, sent, 7);
    state |= mergeBufferState(job.serial, sent, 8);
    state |= mergeBufferState(job.chunkLengths, sent, 9);
    if ((state & 2) !== 0) return false;
    if (state === 0) return true;
    sent[0] = job.bodies.buffer;
    sent[1] = job.box.buffer;
    sent[2] = job.scBox.buffer;
    sent[3] = job.scStart.buffer;
    sent[4] = job.scCount.buffer;
    sent[5] = job.scVersion.buffer;
    sent[6] = job.pool.buffer;
    sent[7] = job.keys.buffer;
    sent[8] = job.serial.buffer;
    sent[9] = job.chunkLengths.buffer;
    const buffers: StaticBuffers = {
      bodies: job.bodies.buffer as SharedArrayBuffer,
      box: job.box.buffer as SharedArrayBuffer,
      scBox: job.scBox.buffer as SharedArrayBuffer,
      scStart: job.scStart.buffer as SharedArrayBuffer,
      scCount: job.scCount.buffer as SharedArrayBuffer,
      scVersion: job.scVersion.buffer as SharedArrayBuffer,
      pool: job.pool.buffer as SharedArrayBuffer,
      keys: job.keys.buffer as SharedArrayBuffer,
      serial: job.serial.buffer as SharedArrayBuffer,
      chunkLengths: job.chunkLengths.buffer as SharedArrayBuffer,
    };
    this.post({ type: "static-buffers", buffers });
    return true;
  }

  /** Waits until every worker has left the current job. */
  private waitForWorkers(): void {
    const control = this.control;
    const workers = this.workerCount;
    const t0 = Date.now();
    for (;;) {
      const d = Atomics.load(control, CTRL_DONE);
      if (d >= workers) break;
      waitWhileEqual(control, CTRL_DONE, d, WORKER_POLL_MS);
      if (Date.now() - t0 > PARALLEL_JOB_TIMEOUT_MS) {
        invalidValue("executor", this.threads, "a worker thread stopped answering");
      }
    }
  }

  /**
   * Sends the workers the poses job's arrays when any was replaced since the last poses job.
   * Returns false (nothing sent) when some array is not in shared memory.
   */
  private sharePoseBuffers(job: PoseBoxesJob): boolean {
    const sent = this.sentPoses;
    let state = 0;
    state |= mergeBufferState(job.poses, sent, 0);
    state |= mergeBufferState(job.slots, sent, 1);
    state |= mergeBufferState(job.pose, sent, 2);
    state |= mergeBufferState(job.boxes, sent, 3);
    state |= mergeBufferState(job.status, sent, 4);
    if ((state & 2) !== 0) return false;
    if (state === 0) return true;
    sent[0] = job.poses.buffer;
    sent[1] = job.slots.buffer;
    sent[2] = job.pose.buffer;
    sent[3] = job.boxes.buffer;
    sent[4] = job.status.buffer;
    const buffers: PoseBuffers = {
      poses: job.poses.buffer as SharedArrayBuffer,
      slots: job.slots.buffer as SharedArrayBuffer,
      pose: job.pose.buffer as SharedArrayBuffer,
      boxes: job.boxes.buffer as SharedArrayBuffer,
      status: job.status.buffer as SharedArrayBuffer,
    };
    this.post({ type: "pose-buffers", buffers });
    return true;
  }

  /**
   * Sends the workers the cell queries job's arrays when any was replaced since the last such
   * job. Returns false (nothing sent) when some array is not in shared memory.
   */
  private shareCellBuffers(job: CellQueryJob): boolean {
    const sent = this.sentCells;
    // No array literal here: this runs every step and allocates nothing.
    let state = 0;
    state |= mergeBufferState(job.moved, sent, 0);
    state |= mergeBufferState(job.movedStamp, sent, 1);
    state |= mergeBufferState(job.inGrid, sent, 2);
    state |= mergeBufferState(job.fat, sent, 3);
    state |= mergeBufferState(job.range, sent, 4);
    state |= mergeBufferState(job.slotX, sent, 5);
    state |= mergeBufferState(job.slotY, sent, 6);
    state |= mergeBufferState(job.slotZ, sent, 7);
    state |= mergeBufferState(job.slotStamp, sent, 8);
    state |= mergeBufferState(job.slotStart, sent, 9);
    state |= mergeBufferState(job.slotCount, sent, 10);
    state |= mergeBufferState(job.pBody, sent, 11);
    state |= mergeBufferState(job.keys, sent, 12);
    state |= mergeBufferState(job.chunkLengths, sent, 13);
    state |= mergeBufferState(job.oldRange, sent, 14);
    state |= mergeBufferState(job.slotCap, sent, 15);
    if ((state & 2) !== 0) return false;
    if (state === 0) return true;
    sent[0] = job.moved.buffer;
    sent[1] = job.movedStamp.buffer;
    sent[2] = job.inGrid.buffer;
    sent[3] = job.fat.buffer;
    sent[4] = job.range.buffer;
    sent[5] = job.slotX.buffer;
    sent[6] = job.slotY.buffer;
    sent[7] = job.slotZ.buffer;
    sent[8] = job.slotStamp.buffer;
    sent[9] = job.slotStart.buffer;
    sent[10] = job.slotCount.buffer;
    sent[11] = job.pBody.buffer;
    sent[12] = job.keys.buffer;
    sent[13] = job.chunkLengths.buffer;
    sent[14] = job.oldRange.buffer;
    sent[15] = job.slotCap.buffer;
    const buffers: CellBuffers = {
      oldRange: job.oldRange.buffer as SharedArrayBuffer,
      slotCap: job.slotCap.buffer as SharedArrayBuffer,
      moved: job.moved.buffer as SharedArrayBuffer,
      movedStamp: job.movedStamp.buffer as SharedArrayBuffer,
      inGrid: job.inGrid.buffer as SharedArrayBuffer,
      fat: job.fat.buffer as SharedArrayBuffer,
      range: job.range.buffer as SharedArrayBuffer,
      slotX: job.slotX.buffer as SharedArrayBuffer,
      slotY: job.slotY.buffer as SharedArrayBuffer,
      slotZ: job.slotZ.buffer as SharedArrayBuffer,
      slotStamp: job.slotStamp.buffer as SharedArrayBuffer,
      slotStart: job.slotStart.buffer as SharedArrayBuffer,
      slotCount: job.slotCount.buffer as SharedArrayBuffer,
      pBody: job.pBody.buffer as SharedArrayBuffer,
      keys: job.keys.buffer as SharedArrayBuffer,
      chunkLengths: job.chunkLengths.buffer as SharedArrayBuffer,
    };
    this.post({ type: "cell-buffers", buffers });
    return true;
  }

  /**
   * Sends the workers the merge job's arrays when any was replaced since the last merge job.
   * Returns false (nothing sent) when some array is not in shared memory.
   */
  private shareMergeBuffers(job: CandidateMergeJob): boolean {
    const sent = this.sentMerge;
    // No array literal here: this runs every step and allocates nothing.
    let state = 0;
    state |= mergeBufferState(job.oldKeys, sent, 0);
    state |= mergeBufferState(job.oldLo, sent, 1);
    state |= mergeBufferState(job.oldHi, sent, 2);
    state |= mergeBufferState(job.newKeys, sent, 3);
    state |= mergeBufferState(job.movedStamp, sent, 4);
    state |= mergeBufferState(job.box, sent, 5);
    state |= mergeBufferState(job.outKeys, sent, 6);
    state |= mergeBufferState(job.outLo, sent, 7);
    state |= mergeBufferState(job.outHi, sent, 8);
    state |= mergeBufferState(job.pairKeys, sent, 9);
    state |= mergeBufferState(job.chunkLengths, sent, 10);
    if ((state & 2) !== 0) return false;
    const changed = state !== 0;
    if (!changed) return true;
    sent[0] = job.oldKeys.buffer;
    sent[1] = job.oldLo.buffer;
    sent[2] = job.oldHi.buffer;
    sent[3] = job.newKeys.buffer;
    sent[4] = job.movedStamp.buffer;
    sent[5] = job.box.buffer;
    sent[6] = job.outKeys.buffer;
    sent[7] = job.outLo.buffer;
    sent[8] = job.outHi.buffer;
    sent[9] = job.pairKeys.buffer;
    sent[10] = job.chunkLengths.buffer;
    const buffers: MergeBuffers = {
      oldKeys: job.oldKeys.buffer as SharedArrayBuffer,
      oldLo: job.oldLo.buffer as SharedArrayBuffer,
      oldHi: job.oldHi.buffer as SharedArrayBuffer,
      newKeys: job.newKeys.buffer as SharedArrayBuffer,
      movedStamp: job.movedStamp.buffer as SharedArrayBuffer,
      box: job.box.buffer as SharedArrayBuffer,
      outKeys: job.outKeys.buffer as SharedArrayBuffer,
      outLo: job.outLo.buffer as SharedArrayBuffer,
      outHi: job.outHi.buffer as SharedArrayBuffer,
      pairKeys: job.pairKeys.buffer as SharedArrayBuffer,
      chunkLengths: job.chunkLengths.buffer as SharedArrayBuffer,
    };
    this.post({ type: "merge-buffers", buffers });
    return true;
  }

  /** Runs block `b` of the current job on this thread. */
  private runBlockHere(b: number): void {
    const input = this.job as NarrowPhaseInput;
    runBlock(
      b,
      this.jobPairs,
      input.pairCount,
      this.jobPose,
      this.jobFlags,
      this.jobRadius,
      this.jobDirty,
      input.shapes,
      input.prediction,
      this.out,
      this.blockLengths,
    );
  }

  /** Hands every finished block from `nextMerge` on, in order, to the sink. */
  private mergeReady(): void {
    const lengths = this.blockLengths;
    const sink = this.sink as NarrowPhaseSink;
    while (this.nextMerge < this.blockTotal) {
      const len = Atomics.load(lengths, this.nextMerge);
      if (len < 0) return;
      sink(this.out, this.nextMerge * PARALLEL_BLOCK_PAIRS * NARROW_RECORD_STRIDE, len);
      this.nextMerge++;
    }
  }

  /**
   * Merges the remaining blocks in order, waiting for the workers' blocks. Once every worker
   * has left the job, a block still unfinished (its worker failed, or it threw here) is run on
   * this thread, so an error surfaces in pair order, as on one thread.
   */
  private finishMerge(): void {
    const control = this.control;
    const workers = this.workerCount;
    const t0 = Date.now();
    for (;;) {
      this.mergeReady();
      if (this.nextMerge < this.blockTotal) {
        if (Atomics.load(control, CTRL_DONE) >= workers) this.runBlockHere(this.nextMerge);
        else waitWhileEqual(this.blockLengths, this.nextMerge, -1, WORKER_POLL_MS);
      } else {
        // Every worker leaves the job before the next one starts.
        const d = Atomics.load(control, CTRL_DONE);
        if (d >= workers) return;
        waitWhileEqual(control, CTRL_DONE, d, WORKER_POLL_MS);
      }
      if (Date.now() - t0 > PARALLEL_JOB_TIMEOUT_MS) {
        invalidValue("executor", this.threads, "a worker thread stopped answering");
      }
    }
  }

  /**
   * Resolves once every worker has started (until then steps run on the calling thread alone,
   * with the same results). Rejects with the worker's error if one failed to start, or after
   * `timeoutMs` milliseconds.
   */
  async ready(timeoutMs = PARALLEL_JOB_TIMEOUT_MS): Promise<void> {
    const t0 = Date.now();
    while (Atomics.load(this.control, CTRL_READY) < this.workerCount) {
      if (this.failure !== null) throw this.failure;
      if (Date.now() - t0 > timeoutMs) {
        invalidValue("executor", this.threads, "its worker threads did not start in time");
      }
      await new Promise((r) => setTimeout(r, WORKER_POLL_MS));
    }
  }

  /** Stops and terminates the workers (idempotent). The executor cannot be used afterwards. */
  abstract dispose(): Promise<void>;

  /**
   * Grows the shared buffers to hold the job's pairs and records, and copies of its poses,
   * flags and bounding radii when those are not already shared.
   */
  private reserve(input: NarrowPhaseInput): void {
    const pairs = input.pairCount;
    const slots = input.slotCount;
    const blocks = Math.ceil(pairs / PARALLEL_BLOCK_PAIRS);
    if (blocks * PARALLEL_BLOCK_PAIRS > this.pairs.length) {
      const cap = capacityFor(blocks * PARALLEL_BLOCK_PAIRS, PARALLEL_BLOCK_PAIRS);
      this.pairs = new Float64Array(new SharedArrayBuffer(8 * cap));
      this.out = new Float64Array(new SharedArrayBuffer(8 * cap * NARROW_RECORD_STRIDE));
      this.blockLengths = new Int32Array(new SharedArrayBuffer(4 * (cap / PARALLEL_BLOCK_PAIRS)));
      this.buffersChanged = true;
    }
    if (
      slots > this.flags.length &&
      !(isShared(input.pose) && isShared(input.flags) && isShared(input.radius))
    ) {
      const cap = capacityFor(slots, 64);
      this.pose = new Float64Array(new SharedArrayBuffer(8 * 7 * cap));
      this.flags = new Uint8Array(new SharedArrayBuffer(cap));
      this.radius = new Float64Array(new SharedArrayBuffer(8 * cap));
      this.buffersChanged = true;
    }
    const dirty = input.dirty ?? null;
    if (dirty !== null && slots > this.dirty.length && !isShared(dirty)) {
      this.dirty = new Uint8Array(new SharedArrayBuffer(capacityFor(slots, 64)));
      this.buffersChanged = true;
    }
  }

  /** Sends the workers the job's buffers when any of them changed since the last job. */
  private shareBuffers(): void {
    const pairs = this.jobPairs.buffer;
    const pose = this.jobPose.buffer;
    const flags = this.jobFlags.buffer;
    const radius = this.jobRadius.buffer;
    // Without a move buffer the workers do not read it: the last one sent stands.
    const dirty =
      this.jobDirty === null ? (this.sentDirty ?? this.dirty.buffer) : this.jobDirty.buffer;
    if (
      !this.buffersChanged &&
      pairs === this.sentPairs &&
      pose === this.sentPose &&
      flags === this.sentFlags &&
      radius === this.sentRadius &&
      dirty === this.sentDirty
    ) {
      return;
    }
    this.sentPairs = pairs;
    this.sentPose = pose;
    this.sentFlags = flags;
    this.sentRadius = radius;
    this.sentDirty = dirty;
    this.buffersChanged = false;
    const buffers: SharedBuffers = {
      pairs: pairs as SharedArrayBuffer,
      pose: pose as SharedArrayBuffer,
      flags: flags as SharedArrayBuffer,
      radius: radius as SharedArrayBuffer,
      dirty: dirty as SharedArrayBuffer,
      out: this.out.buffer as unknown as SharedArrayBuffer,
      blockLength: this.blockLengths.buffer as unknown as SharedArrayBuffer,
    };
    this.post({ type: "buffers", buffers });
  }

  /** Sends the workers the slots whose shape object changed since the last job. */
  private syncShapes(
    shapes: readonly (Shape | undefined)[],
    slotCount: number,
    shapesVersion: number,
  ): void {
    // Nothing to look for when the same world's shapes have not changed since the last job.
    if (shapes === this.syncedShapes && shapesVersion === this.syncedVersion) return;
    this.syncedShapes = shapes;
    this.syncedVersion = shapesVersion;
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
}
