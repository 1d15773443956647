/**
 * The contract between the collision world and a parallel executor of its narrow phase. The
 * world never imports an implementation (the Node-only `collide/parallel` entry,
 * src/parallel/, provides one over `worker_threads`), so the core still bundles for browsers:
 * it only calls {@link StepExecutor.runNarrowPhase} with plain typed arrays and reads the
 * results back as contiguous blocks.
 *
 * A step hands over its filtered candidate pairs (packed slot keys `lo · 2^26 + hi`, ascending)
 * and the bodies' storage; the executor runs `narrowPair` (src/world/narrow-pair.ts) on every
 * pair — on any thread, in any order — and leaves the records of the pairs that touch in
 * blocks of consecutive pair indices. Reading the blocks in order `0 .. blockCount − 1` and
 * each block's records in order gives the records in ascending pair order, exactly as one
 * thread produces them, so contacts and events are bitwise identical.
 */
import type { Shape } from "../shapes/shape.js";

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
  /** Shape of each slot (undefined for a free slot). */
  shapes: readonly (Shape | undefined)[];
  /** Number of slots in use (the storage high-water mark). */
  slotCount: number;
  /** Prediction distance, scene units (≥ 0). */
  prediction: number;
}

/**
 * The results of {@link StepExecutor.runNarrowPhase}: `blockCount` blocks; block `b` holds
 * `blockLength(b)` records of `NARROW_RECORD_STRIDE` doubles starting at
 * `blockOffset(b)` in `blockData(b)` (layout of src/world/narrow-pair.ts, with the pair index
 * in `[1]`), only for pairs that touch, in ascending pair order.
 */
export interface NarrowPhaseOutput {
  /** Number of blocks. */
  readonly blockCount: number;
  /** Number of records in block `b`. */
  blockLength(b: number): number;
  /** The array holding block `b`'s records. */
  blockData(b: number): Float64Array;
  /** Offset (in doubles) of block `b`'s first record in its array. */
  blockOffset(b: number): number;
}

/**
 * A parallel executor of the world's narrow phase (see the module docs), given to the world as
 * `new CollisionWorld({ executor })`. Implementations must produce exactly what `narrowPair`
 * produces on one thread for every pair.
 */
export interface StepExecutor {
  /** Number of threads the executor runs on (the calling thread included). */
  readonly threads: number;
  /** Runs the narrow phase of every pair of `input`; the returned output is valid until the next call. */
  runNarrowPhase(input: NarrowPhaseInput): NarrowPhaseOutput;
}
