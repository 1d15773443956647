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
import { HANDLE_GENERATION_BASE } from "../world/handles.js";
import {
  NARROW_CARRY,
  NARROW_HEADER,
  NARROW_NONE,
  NARROW_POINT_STRIDE,
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

/**
 * The parallel copy of a narrow phase's records into the contact cache (`NarrowPhaseInput.copy`,
 * src/world/executor.ts): the narrow phase's output (`out`, `blockLength`, `pairs` as in
 * {@link runBlocks}), where each block's records go (`touchBase[b]`: its first pair's index in
 * the frame, `doubleBase[b]`: its first record's offset, from the calling thread's count of every
 * block before it), a done flag per block, and the cache's arrays (`RecordCopyTarget`).
 */
export interface RecordCopyJob {
  out: Float64Array;
  blockLength: Int32Array;
  pairs: Float64Array;
  generation: Uint32Array;
  touchBase: Int32Array;
  doubleBase: Int32Array;
  done: Int32Array;
  records: Float64Array;
  start: Int32Array;
  keys: Float64Array;
  handles: Float64Array;
  sensors: Uint8Array;
}

/** An empty {@link RecordCopyJob} (its arrays set per job). */
export function emptyRecordCopyJob(): RecordCopyJob {
  return {
    out: new Float64Array(0),
    blockLength: new Int32Array(0),
    pairs: new Float64Array(0),
    generation: new Uint32Array(0),
    touchBase: new Int32Array(0),
    doubleBase: new Int32Array(0),
    done: new Int32Array(0),
    records: new Float64Array(0),
    start: new Int32Array(0),
    keys: new Float64Array(0),
    handles: new Float64Array(0),
    sensors: new Uint8Array(0),
  };
}

/**
 * Copies block `b`'s records (every one a contact) to their final places in the cache's arrays:
 * per record, its pair key, the two handles (`packHandle` of each slot with its generation) and
 * sensor byte 0 into the touch list, its start into `start`, and the cache record — the two
 * handles, then the narrow-phase record from its third double on, `NARROW_HEADER − 2 +
 * NARROW_POINT_STRIDE · count` doubles — at `records[start ..]`; then flags the block done.
 * The same doubles, in the same places, as the calling thread's merge writes one record after
 * another (`ContactCache.addContactRecord`).
 */
export function copyBlockRecords(job: RecordCopyJob, b: number): void {
  const { out, pairs, generation, records, start, keys, handles, sensors } = job;
  const len = job.blockLength[b];
  let src = b * PARALLEL_BLOCK_PAIRS * NARROW_RECORD_STRIDE;
  let t = job.touchBase[b];
  let at = job.doubleBase[b];
  for (let r = 0; r < len; r++, t++, src += NARROW_RECORD_STRIDE) {
    const key = pairs[out[src + 1]];
    const lo = Math.floor(key / PAIR_KEY_BASE);
    const hi = key - lo * PAIR_KEY_BASE;
    const ha = (lo + 1) * HANDLE_GENERATION_BASE + generation[lo];
    const hb = (hi + 1) * HANDLE_GENERATION_BASE + generation[hi];
    keys[t] = key;
    handles[2 * t] = ha;
    handles[2 * t + 1] = hb;
    sensors[t] = 0;
    start[t] = at;
    records[at] = ha;
    records[at + 1] = hb;
    const end = NARROW_HEADER + NARROW_POINT_STRIDE * out[src + NARROW_HEADER - 1];
    for (let i = 2; i < end; i++) records[at + i] = out[src + i];
    at += end;
  }
  Atomics.store(job.done, b, 1);
}

/**
 * Takes blocks of the record copy `job` from `control[CTRL_NEXT_BLOCK]` until all `blocks` are
 * taken and copies each ({@link copyBlockRecords}). Returns the blocks this thread did.
 */
export function runCopyChunks(control: Int32Array, job: RecordCopyJob, blocks: number): number {
  let done = 0;
  for (;;) {
    const b = Atomics.add(control, CTRL_NEXT_BLOCK, 1);
    if (b >= blocks) return done;
    copyBlockRecords(job, b);
    done++;
  }
}
