/**
 * The block loop every thread of a parallel narrow phase runs (the caller and the workers):
 * take the next block of pairs from the shared counter, run `narrowPairRadius` (src/world/narrow-pair.ts)
 * on each of its pairs and keep the touching records compactly in the block's region; and the
 * chunk loop of the grid's parallel candidate merge (src/broadphase/candidate-merge.ts).
 */
import { type CandidateMergeJob, mergeCandidateChunk } from "../broadphase/candidate-merge.js";
import type { CellQueryJob } from "../broadphase/cell-query.js";
import { cellJobChunk } from "../broadphase/cell-update.js";
import { PAIR_KEY_BASE } from "../broadphase/pair-set.js";
import type { Shape } from "../shapes/shape.js";
import {
  NARROW_CARRY,
  NARROW_NONE,
  NARROW_RECORD_STRIDE,
  narrowPairRadius,
} from "../world/narrow-pair.js";
import { applyPoseChunk, type PoseBoxesJob, poseBoxesChunk } from "../world/pose-boxes.js";
import { type StaticQueryJob, staticQueryChunk } from "../world/static-query.js";
import { CTRL_NEXT_BLOCK, PARALLEL_BLOCK_PAIRS } from "./protocol.js";

/**
 * Takes blocks from `control[CTRL_NEXT_BLOCK]` until every pair of `pairs[0 .. pairCount)` is
 * taken; for each block writes its touching records (pair index in `[1]`) from
 * `b · PARALLEL_BLOCK_PAIRS · NARROW_RECORD_STRIDE` in `out` — with the move buffer `dirty`
 * (a byte per slot, or null), a pair of two unmoved bodies is not tested but gets a
 * `NARROW_CARRY` record (kind and pair index only) — then publishes their number in
 * `blockLength[b]` (an atomic store, after which the records are visible to every thread, and a
 * notify for a thread waiting on it). `afterBlock`, when given, runs after each block (the
 * calling thread merges finished blocks there). Returns the number of blocks this thread did.
 */
export function runBlocks(
  control: Int32Array,
  pairs: Float64Array,
  pairCount: number,
  pose: Float64Array,
  flags: Uint8Array,
  radius: Float64Array,
  dirty: Uint8Array | null,
  shapes: readonly (Shape | undefined)[],
  prediction: number,
  out: Float64Array,
  blockLength: Int32Array,
  afterBlock: (() => void) | null = null,
): number {
  const blocks = Math.ceil(pairCount / PARALLEL_BLOCK_PAIRS);
  let done = 0;
  for (;;) {
    const b = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (b >= blocks) return done;
    runBlock(b, pairs, pairCount, pose, flags, radius, dirty, shapes, prediction, out, blockLength);
    done++;
    if (afterBlock !== null) afterBlock();
  }
}

/** Runs block `b` (see {@link runBlocks}) and publishes its record count. */
export function runBlock(
  b: number,
  pairs: Float64Array,
  pairCount: number,
  pose: Float64Array,
  flags: Uint8Array,
  radius: Float64Array,
  dirty: Uint8Array | null,
  shapes: readonly (Shape | undefined)[],
  prediction: number,
  out: Float64Array,
  blockLength: Int32Array,
): void {
  const start = b * PARALLEL_BLOCK_PAIRS;
  const end = Math.min(pairCount, start + PARALLEL_BLOCK_PAIRS);
  let off = start * NARROW_RECORD_STRIDE;
  let len = 0;
  for (let i = start; i < end; i++) {
    const key = pairs[i];
    const lo = Math.floor(key / PAIR_KEY_BASE);
    const hi = key - lo * PAIR_KEY_BASE;
    if (dirty !== null && dirty[lo] === 0 && dirty[hi] === 0) {
      out[off] = NARROW_CARRY;
    } else if (
      narrowPairRadius(out, off, lo, hi, pose, flags, shapes, radius, prediction) === NARROW_NONE
    ) {
      continue;
    }
    out[off + 1] = i;
    off += NARROW_RECORD_STRIDE;
    len++;
  }
  Atomics.store(blockLength, b, len);
  Atomics.notify(blockLength, b);
}

/**
 * Takes chunks of the candidate merge `job` from `control[CTRL_NEXT_BLOCK]` until all `chunks`
 * are taken and runs each (src/broadphase/candidate-merge.ts). Returns the chunks this thread did.
 */
export function runMergeChunks(
  control: Int32Array,
  job: CandidateMergeJob,
  chunks: number,
): number {
  let done = 0;
  for (;;) {
    const c = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (c >= chunks) return done;
    mergeCandidateChunk(job, c, chunks);
    done++;
  }
}

/**
 * Takes chunks of the poses job `job` from `control[CTRL_NEXT_BLOCK]` until all `chunks` are
 * taken and runs each (src/world/pose-boxes.ts) with `shapes` by slot. Returns the chunks this
 * thread did.
 */
export function runPoseChunks(
  control: Int32Array,
  job: PoseBoxesJob,
  shapes: readonly (Shape | undefined)[],
  chunks: number,
): number {
  let done = 0;
  for (;;) {
    const c = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (c >= chunks) return done;
    poseBoxesChunk(job, shapes, c);
    done++;
  }
}

/**
 * Takes chunks of the second poses pass `job` from `control[CTRL_NEXT_BLOCK]` until all
 * `chunks` are taken and runs each (src/world/pose-boxes.ts `applyPoseChunk`). Returns the
 * chunks this thread did.
 */
export function runApplyChunks(control: Int32Array, job: PoseBoxesJob, chunks: number): number {
  let done = 0;
  for (;;) {
    const c = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (c >= chunks) return done;
    applyPoseChunk(job, c);
    done++;
  }
}

/**
 * Takes chunks of the grid's cell job `job` (its cell queries, src/broadphase/cell-query.ts, or
 * cell update, src/broadphase/cell-update.ts) from `control[CTRL_NEXT_BLOCK]` until all
 * `chunks` are taken and runs each. Returns the chunks this thread did.
 */
export function runCellChunks(control: Int32Array, job: CellQueryJob, chunks: number): number {
  let done = 0;
  for (;;) {
    const c = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (c >= chunks) return done;
    cellJobChunk(job, c);
    done++;
  }
}

/**
 * Takes chunks of the static queries job `job` from `control[CTRL_NEXT_BLOCK]` until all
 * `chunks` are taken and runs each (src/world/static-query.ts). Returns the chunks this thread
 * did.
 */
export function runStaticChunks(control: Int32Array, job: StaticQueryJob, chunks: number): number {
  let done = 0;
  for (;;) {
    const c = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (c >= chunks) return done;
    staticQueryChunk(job, c);
    done++;
  }
}
