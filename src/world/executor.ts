/**
 * The contract between the collision world and a parallel executor of its narrow phase. The
 * world never imports an implementation (the Node-only `collide/parallel` entry,
 * src/parallel/, provides one over `worker_threads`), so the core still bundles for browsers:
 * it only calls {@link StepExecutor.runNarrowPhase} with plain typed arrays and reads the
 * results back as contiguous blocks.
 *
 * A step hands over its filtered candidate pairs (packed slot keys `lo · 2^26 + hi`, ascending)
 * and the bodies' storage; the executor runs `narrowPair` (src/world/narrow-pair.ts) on every
 * pair — on any thread, in any order — and hands the records of the pairs that touch back to the
 * world's sink in blocks of consecutive pair indices, in block order, on the calling thread.
 * The records so arrive in ascending pair order, exactly as one thread produces them, so
 * contacts and events are bitwise identical. Because the sink may be called while other threads
 * still work on later blocks, the world's merge of the contacts into its cache overlaps the
 * parallel narrow phase instead of following it.
 */
import type { CandidateMergeJob } from "../broadphase/candidate-merge.js";
import type { CellQueryJob } from "../broadphase/cell-query.js";
import type { Shape } from "../shapes/shape.js";
import type { PoseBoxesJob } from "./pose-boxes.js";
import type { StaticQueryJob } from "./static-query.js";

/** What a step hands to {@link StepExecutor.runNarrowPhase}. Arrays are read, not kept. */
export interface NarrowPhaseInput {
  /** Filtered candidate pairs as packed slot keys, ascending; `pairs[0 .. pairCount)` are valid. */
  pairs: Float64Array;
  /** Number of valid pairs. */
  pairCount: number;
  /** Poses, 7 doubles per slot (translation xyz, quaternion xyzw), world frame. */
  pose: Float64Array;
  /** Body flag bytes per slot (src/world/body-store.ts). */
  flags: Uint8Array;
  /**
   * Bounding radius of each slot's shape, scene units (`SlotStore.radius`, the shape
   * definition's `boundingRadius`): the narrow phase's world-frame reject test reads it beside
   * the poses (`narrowPairRadius`), so a thread needs no radius cache of its own.
   */
  radius: Float64Array;
  /** Shape of each slot (undefined for a free slot). */
  shapes: readonly (Shape | undefined)[];
  /** Number of slots in use (the storage high-water mark). */
  slotCount: number;
  /**
   * Changes whenever some slot's shape changes (a body added or removed): while it and the
   * `shapes` array are the same as at the last job, an executor need not look for new shapes.
   */
  shapesVersion: number;
  /** Prediction distance, scene units (≥ 0). */
  prediction: number;
  /**
   * The move buffer, one byte per slot (non-zero: the body moved this step), or null. Only an
   * executor with {@link StepExecutor.carriesUnmoved} is given one; then `pairs` also holds the
   * pairs of two unmoved bodies, which are not tested: each gets a record of kind
   * `NARROW_CARRY` (src/world/narrow-pair.ts; only its kind and pair index written) in its
   * place in pair order, for the world to carry the pair's last result over. With null every
   * pair is tested.
   * @internal Between the world and `collide/parallel`.
   */
  dirty?: Uint8Array | null;
}

/**
 * Receives one block of narrow-phase records from {@link StepExecutor.runNarrowPhase}: `count`
 * records of `NARROW_RECORD_STRIDE` doubles from `data[offset]` on (layout of
 * src/world/narrow-pair.ts, with the pair index in `[1]`), only for pairs that touch, in
 * ascending pair order. Called on the calling thread, block after block in order; `data` is
 * valid only during the call.
 */
export type NarrowPhaseSink = (data: Float64Array, offset: number, count: number) => void;

/**
 * A parallel executor of the world's narrow phase (see the module docs), given to the world as
 * `new CollisionWorld({ executor })`. Implementations must produce exactly what `narrowPair`
 * produces on one thread for every pair.
 */
export interface StepExecutor {
  /** Number of threads the executor runs on (the calling thread included). */
  readonly threads: number;
  /**
   * Optional: true when {@link runNarrowPhase} honours `NarrowPhaseInput.dirty` (the threads
   * then sort out the pairs of two unmoved bodies, not the calling thread).
   * @internal Between the world and `collide/parallel`.
   */
  readonly carriesUnmoved?: boolean;
  /**
   * Runs the narrow phase of every pair of `input` and passes the records to `sink`, block by
   * block in ascending pair order, before it returns. If a pair throws, the error thrown is the
   * one the first failing pair (in pair order) throws on one thread, after `sink` has received
   * every block before it.
   */
  runNarrowPhase(input: NarrowPhaseInput, sink: NarrowPhaseSink): void;
  /**
   * Optional: runs the chunks `0 .. chunks − 1` of the grid broad phase's candidate merge
   * (src/broadphase/candidate-merge.ts) over the threads and returns when all are done. When
   * present, the world hands the executor to its broad phase (`setParallel`), so that the broad
   * phase runs in parallel too.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runCandidateMerge?(job: CandidateMergeJob, chunks: number): void;
  /**
   * Optional: runs the chunks `0 .. chunks − 1` of the grid broad phase's cell queries of its
   * moved bodies (src/broadphase/cell-query.ts), or with `job.update` the classes of their cell
   * update (src/broadphase/cell-update.ts), over the threads and returns when all are done
   * (handed to the broad phase with `runCandidateMerge`).
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runCellQueries?(job: CellQueryJob, chunks: number): void;
  /**
   * Optional: runs the chunks `0 .. chunks − 1` of the first pass of `setPoses` (each body's
   * checks and boxes, src/world/pose-boxes.ts) over the threads, with `shapes[0 .. slotCount)`
   * the slots' shapes (`shapesVersion` as in {@link NarrowPhaseInput}), and returns when all are
   * done. When present, a large `setPoses` batch runs its first pass through it.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runPoseBoxes?(
    job: PoseBoxesJob,
    chunks: number,
    shapes: readonly (Shape | undefined)[],
    slotCount: number,
    shapesVersion: number,
  ): void;
  /**
   * Optional: runs the chunks `0 .. chunks − 1` of the second pass of `setPoses`
   * (src/world/pose-boxes.ts `applyPoseChunk`) over the threads and returns when all are done.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  runPoseApply?(job: PoseBoxesJob, chunks: number): void;
  /**
   * Optional: runs the chunks `0 .. chunks − 1` of the moving bodies' static queries
   * (src/world/static-query.ts) over the threads and returns when all are done. When present,
   * a step in which many moving bodies moved tests their kept static candidates through it.
   * @internal Between the world and `collide/parallel`; the job types are not API.
   */
  runStaticQueries?(job: StaticQueryJob, chunks: number): void;
}
