/**
 * The shared-memory protocol between {@link WorkerExecutor} (src/parallel/executor.ts) and its
 * worker threads (src/parallel/worker.ts): the slots of the control array, the block size of the
 * work queue and the messages that carry buffers and shapes.
 *
 * A job is the narrow phase of one world step ({@link JOB_NARROW}), the grid's candidate merge
 * ({@link JOB_MERGE}, chunks of src/broadphase/candidate-merge.ts taken from the same shared
 * counter, the caller closing the gaps between their outputs afterwards), the grid's cell
 * queries of its moved bodies ({@link JOB_CELLS}), the first pass of `setPoses`
 * ({@link JOB_POSES}) or the moving bodies' static queries ({@link JOB_STATIC}). For the narrow phase, the calling thread writes the job's pairs,
 * poses and flags into shared buffers, bumps the job generation and wakes the workers
 * (`Atomics.notify`); then every thread, the caller included, takes blocks of
 * {@link PARALLEL_BLOCK_PAIRS} consecutive pairs from a shared counter (`Atomics.add`) until none
 * is left, writing each block's touching records compactly into that block's own region of the
 * output buffer and its length into `blockLength`. The caller waits for every worker to report
 * the job done, then reads the blocks in order: the same records in the same order as one thread.
 * Messages (new buffers, new shapes) are posted before the wake-up. On Node they go over a
 * `MessagePort` and the worker, woken by `Atomics.notify`, reads them synchronously with
 * `receiveMessageOnPort`; in a browser the wake-up is itself a message ({@link WebWorkerMessage}),
 * read after them in order.
 */
import type { Shape } from "../shapes/shape.js";

/** Control slot: job generation, bumped by the caller to start a job (workers wait on it). */
export const CTRL_GENERATION = 0;
/** Control slot: number of workers that finished the current job (the caller waits on it). */
export const CTRL_DONE = 1;
/** Control slot: next block of the current job to take. */
export const CTRL_NEXT_BLOCK = 2;
/** Control slot: 1 when the workers must exit. */
export const CTRL_STOP = 3;
/** Control slot: number of pairs of the current job. */
export const CTRL_PAIR_COUNT = 4;
/** Control slot: 1 when some thread failed on the current job (the caller then redoes it alone). */
export const CTRL_ERROR = 5;
/** Control slot: number of workers that have started and wait for jobs. */
export const CTRL_READY = 6;
/** Control slot: what the current job is, {@link JOB_NARROW} or {@link JOB_MERGE}. */
export const CTRL_JOB_KIND = 7;
/** Control slot (merge job): number of old candidates. */
export const CTRL_MERGE_OLD = 8;
/** Control slot (merge job): number of new candidates. */
export const CTRL_MERGE_NEW = 9;
/** Control slot (merge job): the move buffer's stamp. */
export const CTRL_MERGE_GENERATION = 10;
/** Control slot (merge job): 1 when the pairs are filtered out on the way. */
export const CTRL_MERGE_FILTER = 11;
/** Control slot (merge job): number of chunks. */
export const CTRL_MERGE_CHUNKS = 12;
/** Control slot (merge job): old candidates per chunk. */
export const CTRL_MERGE_CHUNK_SIZE = 13;
/** Control slot (poses job): bodies in the batch. */
export const CTRL_POSE_COUNT = 14;
/** Control slot (poses job): number of chunks. */
export const CTRL_POSE_CHUNKS = 15;
/** Control slot (poses job): bodies per chunk. */
export const CTRL_POSE_CHUNK_SIZE = 16;
/** Control slot (cell queries job): moved bodies. */
export const CTRL_CELL_MOVED = 17;
/** Control slot (cell queries job): moved bodies per chunk. */
export const CTRL_CELL_CHUNK_SIZE = 18;
/** Control slot (cell queries job): the move buffer's stamp. */
export const CTRL_CELL_GENERATION = 19;
/** Control slot (cell queries job): the cell table's hash shift. */
export const CTRL_CELL_SHIFT = 20;
/** Control slot (cell queries job): the stamp of the cell table's live slots. */
export const CTRL_CELL_TABLE_GENERATION = 21;
/** Control slot (cell queries job): keys per chunk's output region. */
export const CTRL_CELL_ROOM = 22;
/** Control slot (cell queries job): number of chunks. */
export const CTRL_CELL_CHUNKS = 23;
/** Control slot (second poses pass): `BulkMoveTarget.grid` (1: no fat boxes yet, 2: built). */
export const CTRL_POSE_GRID = 24;
/** Control slot (cell jobs): 1 for the cell update (src/broadphase/cell-update.ts), 0 for the queries. */
export const CTRL_CELL_UPDATE = 25;
/** Control slot (cell update): log2 of its number of classes. */
export const CTRL_CELL_CLASS_BITS = 26;
/**
 * Control slot (narrow phase): 1 when the job's pairs include those of two unmoved bodies, to be
 * sorted out by the move buffer ({@link SharedBuffers.dirty}) instead of tested.
 */
export const CTRL_NARROW_CARRY = 27;
/** Control slot (static queries job): querying bodies. */
export const CTRL_STATIC_COUNT = 28;
/** Control slot (static queries job): number of chunks. */
export const CTRL_STATIC_CHUNKS = 29;
/** Control slot (static queries job): bodies per chunk. */
export const CTRL_STATIC_CHUNK_SIZE = 30;
/** Control slot (static queries job): the current static build (older candidates are stale). */
export const CTRL_STATIC_VERSION = 31;
/** Number of control slots. */
export const CTRL_SLOTS = 32;

/** Job kind: the narrow phase of a step (blocks of pairs, src/parallel/blocks.ts). */
export const JOB_NARROW = 0;
/**
 * Job kind: the grid's candidate merge (chunks of src/broadphase/candidate-merge.ts), the
 * parallel part of the broad phase.
 */
export const JOB_MERGE = 1;
/**
 * Job kind: the first pass of the world's `setPoses` (chunks of src/world/pose-boxes.ts: each
 * body's checks and boxes), taken from the same shared counter.
 */
export const JOB_POSES = 2;
/**
 * Job kind: the cell queries of the grid's moved bodies (chunks of
 * src/broadphase/cell-query.ts) or, with {@link CTRL_CELL_UPDATE} set, their cell update (the
 * classes of src/broadphase/cell-update.ts), taken from the same shared counter.
 */
export const JOB_CELLS = 3;
/**
 * Job kind: the second pass of the world's `setPoses` (chunks of src/world/pose-boxes.ts
 * `applyPoseChunk`: poses and boxes written, the grid's fat-box tests), over the
 * {@link PoseBuffers} and {@link PoseApplyBuffers}.
 */
export const JOB_POSE_APPLY = 4;
/**
 * Job kind: the moving bodies' queries of the static structure in a world step (chunks of
 * src/world/static-query.ts: each body's kept static candidates tested), over the
 * {@link StaticBuffers}.
 */
export const JOB_STATIC = 5;

/** Doubles of the shared job parameters: [0] prediction (narrow phase), [1] half prediction (poses job). */
export const PARAM_SLOTS = 2;

/**
 * Pairs per block of the work queue: small enough that the threads finish together (dynamic
 * load balancing, which also absorbs a thread descheduled by other load), large enough that the
 * shared counter is touched rarely (a few hundred times per step at 10^5 pairs).
 */
export const PARALLEL_BLOCK_PAIRS = 512;

/** The shared buffers of a job (replaced by larger ones when a job outgrows them). */
export interface SharedBuffers {
  /** Packed pair keys of the job. */
  pairs: SharedArrayBuffer;
  /** Poses, 7 doubles per slot. */
  pose: SharedArrayBuffer;
  /** Flag bytes per slot. */
  flags: SharedArrayBuffer;
  /** Bounding radius per slot (`NarrowPhaseInput.radius`), doubles. */
  radius: SharedArrayBuffer;
  /** The move buffer, a byte per slot (read when {@link CTRL_NARROW_CARRY} is 1). */
  dirty: SharedArrayBuffer;
  /** Output records: block b's region starts at `b · PARALLEL_BLOCK_PAIRS · NARROW_RECORD_STRIDE`. */
  out: SharedArrayBuffer;
  /** Number of records of each block (Int32). */
  blockLength: SharedArrayBuffer;
}

/**
 * The shared arrays of a candidate merge (src/broadphase/candidate-merge.ts), sent when any of
 * them was replaced since the last merge job.
 */
export interface MergeBuffers {
  oldKeys: SharedArrayBuffer;
  oldLo: SharedArrayBuffer;
  oldHi: SharedArrayBuffer;
  newKeys: SharedArrayBuffer;
  movedStamp: SharedArrayBuffer;
  box: SharedArrayBuffer;
  outKeys: SharedArrayBuffer;
  outLo: SharedArrayBuffer;
  outHi: SharedArrayBuffer;
  pairKeys: SharedArrayBuffer;
  chunkLengths: SharedArrayBuffer;
}

/**
 * The shared arrays of the poses job (src/world/pose-boxes.ts), sent when any of them was
 * replaced since the last poses job.
 */
export interface PoseBuffers {
  poses: SharedArrayBuffer;
  slots: SharedArrayBuffer;
  pose: SharedArrayBuffer;
  boxes: SharedArrayBuffer;
  status: SharedArrayBuffer;
}

/**
 * The shared arrays of the second poses pass (src/world/pose-boxes.ts `applyPoseChunk`) beyond
 * the {@link PoseBuffers}, sent when any of them was replaced since the last such job.
 */
export interface PoseApplyBuffers {
  aabb: SharedArrayBuffer;
  bpBox: SharedArrayBuffer;
  kind: SharedArrayBuffer;
  left: SharedArrayBuffer;
  gridBox: SharedArrayBuffer;
  fat: SharedArrayBuffer;
  pad: SharedArrayBuffer;
}

/**
 * The shared arrays of the grid's cell queries (src/broadphase/cell-query.ts) and cell update
 * (src/broadphase/cell-update.ts), sent when any of them was replaced since the last such job.
 */
export interface CellBuffers {
  oldRange: SharedArrayBuffer;
  slotCap: SharedArrayBuffer;
  moved: SharedArrayBuffer;
  movedStamp: SharedArrayBuffer;
  inGrid: SharedArrayBuffer;
  fat: SharedArrayBuffer;
  range: SharedArrayBuffer;
  slotX: SharedArrayBuffer;
  slotY: SharedArrayBuffer;
  slotZ: SharedArrayBuffer;
  slotStamp: SharedArrayBuffer;
  slotStart: SharedArrayBuffer;
  slotCount: SharedArrayBuffer;
  pBody: SharedArrayBuffer;
  keys: SharedArrayBuffer;
  chunkLengths: SharedArrayBuffer;
}

/**
 * The shared arrays of the static queries (src/world/static-query.ts), sent when any of them was
 * replaced since the last such job.
 */
export interface StaticBuffers {
  bodies: SharedArrayBuffer;
  box: SharedArrayBuffer;
  scBox: SharedArrayBuffer;
  scStart: SharedArrayBuffer;
  scCount: SharedArrayBuffer;
  scVersion: SharedArrayBuffer;
  pool: SharedArrayBuffer;
  keys: SharedArrayBuffer;
  serial: SharedArrayBuffer;
  chunkLengths: SharedArrayBuffer;
}

/** A message from the executor to a worker. */
export type WorkerMessage =
  | { type: "buffers"; buffers: SharedBuffers }
  | { type: "pose-buffers"; buffers: PoseBuffers }
  | { type: "pose-apply-buffers"; buffers: PoseApplyBuffers }
  | { type: "merge-buffers"; buffers: MergeBuffers }
  | { type: "cell-buffers"; buffers: CellBuffers }
  | { type: "static-buffers"; buffers: StaticBuffers }
  | {
      type: "shapes";
      /** New shapes by id. */
      ids: number[];
      shapes: Shape[];
      /** Slot assignments as (slot, shape id) pairs; id −1 clears the slot. */
      slots: number[];
    };

/**
 * Longest wait of the calling thread for the workers to finish one job, milliseconds: far above
 * any real job, it only turns a dead worker into an error instead of a hang.
 */
export const PARALLEL_JOB_TIMEOUT_MS = 60_000;

/**
 * A message from the browser executor (src/parallel/browser.ts) to a Web Worker: first `init`
 * with the shared control and parameter buffers, then {@link WorkerMessage}s, and `job` to wake
 * the worker for a job (a Web Worker that blocked in `Atomics.wait` could not receive messages,
 * so it waits in its event loop and the wake-up is a message, behind the buffers and shapes
 * of the job).
 */
export type WebWorkerMessage =
  | WorkerMessage
  | { type: "init"; control: SharedArrayBuffer; params: SharedArrayBuffer; warmUp: boolean }
  | { type: "job" };

/** What a worker receives as `workerData`. */
export interface WorkerInit {
  /** The control array's buffer (Int32 × {@link CTRL_SLOTS}). */
  control: SharedArrayBuffer;
  /** The job's parameters (Float64 × {@link PARAM_SLOTS}). */
  params: SharedArrayBuffer;
  /** The port carrying {@link WorkerMessage}s. */
  port: MessagePort;
  /** Whether the worker runs the warm-up (src/parallel/warm-up.ts) before it reports ready. */
  warmUp: boolean;
}
