/**
 * The candidate merge of the grid's incremental update (src/broadphase/spatial-hash.ts), cut
 * into chunks that any thread may run: the kept candidates (pairs of fat boxes, sorted, neither
 * body in the move buffer) and the moved bodies' new candidates (sorted) are merged into the
 * next sorted candidate list, and each candidate whose current boxes overlap is written to the
 * pair output on the way (Ericson 2005, §7.1; the Verlet list of the module docs there).
 *
 * Chunk `c` takes the old candidates `[c·C, (c+1)·C)` (C = `chunkSize`, the grid's
 * {@link CANDIDATE_MERGE_CHUNK}) and
 * the new keys from the first one not below old key `c·C` (a binary search) up to the first one
 * not below old key `(c+1)·C`: so the chunks cut both sorted lists at the same keys, and their
 * outputs, read chunk after chunk, are exactly the single merge's. Chunk `c` writes from index
 * `c·C + (its first new key)` on — no earlier chunk can write that far — and publishes the
 * numbers it wrote; the caller then closes the gaps ({@link compactCandidateMerge}). Integer
 * keys only, so every thread gives bitwise the same output.
 */
import type { CellQueryJob } from "./cell-query.js";
import { PAIR_KEY_BASE } from "./pair-set.js";

/** Old candidates per chunk of the grid's parallel merge (`CandidateMergeJob.chunkSize`). */
export const CANDIDATE_MERGE_CHUNK = 8192;

/**
 * The arrays of one candidate merge. Every array a worker thread reads or writes lives in a
 * `SharedArrayBuffer` when the merge runs in parallel.
 */
export interface CandidateMergeJob {
  /** The candidates before the update: packed keys, ascending, `oldKeys[0 .. oldCount)`. */
  oldKeys: Float64Array;
  /** Lower id of each old candidate. */
  oldLo: Int32Array;
  /** Higher id of each old candidate. */
  oldHi: Int32Array;
  /** Number of old candidates. */
  oldCount: number;
  /** Old candidates per chunk, C of the module docs (a positive integer). */
  chunkSize: number;
  /** The moved bodies' new candidates: packed keys, ascending, unique, `newKeys[0 .. newCount)`. */
  newKeys: Float64Array;
  /** Number of new candidates. */
  newCount: number;
  /** `movedStamp[id] === generation` for the bodies of the move buffer (their old pairs go). */
  movedStamp: Int32Array;
  /** The move buffer's stamp. */
  generation: number;
  /** Current boxes, 6 doubles per id (min xyz, max xyz). */
  box: Float64Array;
  /**
   * 1 to write the candidates whose current boxes overlap to `pairKeys`, 0 not to;
   * `CANDIDATE_FILTER_ONLY` (no new key and no moved body: the candidates stay as they
   * are) to write only the pairs, leaving `outKeys`, `outLo`, `outHi` untouched.
   */
  filter: number;
  /** Output keys, lower and higher ids (room for `oldCount + newCount`). */
  outKeys: Float64Array;
  outLo: Int32Array;
  outHi: Int32Array;
  /** Output pairs (room for `oldCount + newCount`), written in each chunk's region. */
  pairKeys: Float64Array;
  /**
   * Per chunk: `[2c]` = candidates written, `[2c + 1]` = pairs written, −1 until the chunk is
   * done (then stored atomically).
   */
  chunkLengths: Int32Array;
  /** After `compactCandidateMerge`: the merged candidates' count. */
  outCount: number;
}

/**
 * `CandidateMergeJob.filter` of a step in which no box left its fat box: the candidates are
 * only filtered (chunk `c` writes its pairs from `c·C` on), not copied.
 */
export const CANDIDATE_FILTER_ONLY = 2;

/** Number of chunks of `job`'s merge (at least 1). */
export function candidateMergeChunks(job: CandidateMergeJob): number {
  return Math.max(1, Math.ceil(job.oldCount / job.chunkSize));
}

/** First index `i` in `[0, n)` with `keys[i] >= key`, or `n`. */
function lowerBound(keys: Float64Array, n: number, key: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first new key of chunk `c` (see the module docs). */
export function chunkNewStart(job: CandidateMergeJob, c: number): number {
  if (c === 0) return 0;
  const a = c * job.chunkSize;
  if (a >= job.oldCount) return job.newCount;
  return lowerBound(job.newKeys, job.newCount, job.oldKeys[a]);
}

/**
 * Runs chunk `c` of `job` (module docs) and publishes its lengths in `job.chunkLengths`
 * (atomic stores, after which its output is visible to every thread).
 */
export function mergeCandidateChunk(job: CandidateMergeJob, c: number, chunks: number): void {
  if (job.filter === CANDIDATE_FILTER_ONLY) {
    filterCandidateChunk(job, c);
    return;
  }
  const { oldKeys, oldLo, oldHi, newKeys, movedStamp: stamp, box, outKeys, outLo, outHi } = job;
  const pairKeys = job.pairKeys;
  const gen = job.generation;
  const filter = job.filter !== 0;
  let a = c * job.chunkSize;
  const na = Math.min(job.oldCount, a + job.chunkSize);
  let b = chunkNewStart(job, c);
  const nk = c + 1 >= chunks ? job.newCount : chunkNewStart(job, c + 1);
  const start = a + b;
  let w = start;
  let p = start;
  while (a < na || b < nk) {
    let key: number;
    let lo: number;
    let hi: number;
    if (a < na) {
      lo = oldLo[a];
      hi = oldHi[a];
      if (stamp[lo] === gen || stamp[hi] === gen) {
        a++;
        continue;
      }
      key = oldKeys[a];
      if (b < nk && newKeys[b] < key) {
        key = newKeys[b++];
        lo = Math.floor(key / PAIR_KEY_BASE);
        hi = key - lo * PAIR_KEY_BASE;
      } else a++;
    } else {
      key = newKeys[b++];
      lo = Math.floor(key / PAIR_KEY_BASE);
      hi = key - lo * PAIR_KEY_BASE;
    }
    outKeys[w] = key;
    outLo[w] = lo;
    outHi[w++] = hi;
    if (filter) {
      const i = 6 * lo;
      const j = 6 * hi;
      const separated =
        +(box[i] > box[j + 3]) |
        +(box[j] > box[i + 3]) |
        +(box[i + 1] > box[j + 4]) |
        +(box[j + 1] > box[i + 4]) |
        +(box[i + 2] > box[j + 5]) |
        +(box[j + 2] > box[i + 5]);
      if (separated === 0) pairKeys[p++] = key;
    }
  }
  Atomics.store(job.chunkLengths, 2 * c + 1, p - start);
  Atomics.store(job.chunkLengths, 2 * c, w - start);
}

/**
 * Chunk `c` of a filter-only job (`CANDIDATE_FILTER_ONLY`): the old candidates
 * `[c·C, (c+1)·C)` whose current boxes overlap, written to `pairKeys` from `c·C` on.
 */
function filterCandidateChunk(job: CandidateMergeJob, c: number): void {
  const { oldKeys, oldLo, oldHi, box, pairKeys } = job;
  const start = c * job.chunkSize;
  const na = Math.min(job.oldCount, start + job.chunkSize);
  let p = start;
  for (let a = start; a < na; a++) {
    const i = 6 * oldLo[a];
    const j = 6 * oldHi[a];
    const separated =
      +(box[i] > box[j + 3]) |
      +(box[j] > box[i + 3]) |
      +(box[i + 1] > box[j + 4]) |
      +(box[j + 1] > box[i + 4]) |
      +(box[i + 2] > box[j + 5]) |
      +(box[j + 2] > box[i + 5]);
    if (separated === 0) pairKeys[p++] = oldKeys[a];
  }
  Atomics.store(job.chunkLengths, 2 * c + 1, p - start);
  Atomics.store(job.chunkLengths, 2 * c, na - start);
}

/**
 * Closes the gaps between the chunks' outputs (in place, chunk after chunk; no allocation) and
 * sets `job.outCount`; `emitPairs(from, to)` receives each chunk's pair region of
 * `job.pairKeys` in order (the caller appends them to its pair set). Every chunk must be done.
 */
export function compactCandidateMerge(
  job: CandidateMergeJob,
  chunks: number,
  emitPairs: (from: number, to: number) => void,
): void {
  const lengths = job.chunkLengths;
  const copy = job.filter !== CANDIDATE_FILTER_ONLY;
  let w = 0;
  for (let c = 0; c < chunks; c++) {
    const start = c * job.chunkSize + chunkNewStart(job, c);
    const len = lengths[2 * c];
    if (copy && start !== w && len > 0) {
      job.outKeys.copyWithin(w, start, start + len);
      job.outLo.copyWithin(w, start, start + len);
      job.outHi.copyWithin(w, start, start + len);
    }
    w += len;
    const pairs = lengths[2 * c + 1];
    if (pairs > 0) emitPairs(start, start + pairs);
  }
  job.outCount = w;
}

/**
 * Runs the chunks of a candidate merge over threads: a parallel executor (`WorkerExecutor` of
 * `collide/parallel`) implements it, and the world hands it to its grid broad phase
 * (`setParallel` of src/broadphase/spatial-hash.ts).
 */
export interface CandidateMergeRunner {
  /** Threads it runs on, the calling thread included. */
  readonly threads: number;
  /**
   * Runs every chunk `0 .. chunks − 1` of `job` with `mergeCandidateChunk`, on any thread
   * in any order, and returns when all are done.
   */
  runCandidateMerge(job: CandidateMergeJob, chunks: number): void;
  /**
   * Optional: runs every chunk `0 .. chunks − 1` of the grid's cell job `job` with
   * `cellJobChunk` (src/broadphase/cell-update.ts: the cell queries of
   * src/broadphase/cell-query.ts, or with `job.update` the classes of the cell update), on any
   * thread in any order, and returns when all are done. Without it the grid runs its cell
   * queries on the calling thread and its cell update serially.
   */
  runCellQueries?(job: CellQueryJob, chunks: number): void;
}
