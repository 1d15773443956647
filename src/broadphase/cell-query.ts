/**
 * The cell queries of the grid's incremental update (src/broadphase/spatial-hash.ts), cut into
 * chunks that any thread may run: once the moved bodies are unlinked and placed at their new
 * cells (serial, it changes the cell table), each moved body in the grid reads the entries of
 * its new cells and keeps the bodies whose fat boxes overlap its own — each pair once: in the
 * lowest cell the two share, and for two moved bodies by the higher id's query — as packed
 * pair keys. Nothing is written but the job's own output, so the queries of every moved body
 * can run at once on several threads reading the same table.
 *
 * Chunk `c` takes the moved bodies `[c·M, (c+1)·M)` (M = `chunkSize`) and writes its keys from
 * `c · chunkRoom` on, sorted, and their number in `chunkLengths[c]` (an atomic store). A chunk
 * that finds more than `chunkRoom` keys writes only the first `chunkRoom`, unsorted, and
 * reports how many it found: the caller then grows the room and runs every chunk again. The
 * caller merges the chunks' sorted runs into the one sorted list of new keys
 * ({@link mergeSortedRuns}); the keys are unique, so that list does not depend on the chunks or
 * the threads. Bodies outside the grid (the overflow list) and pairs with an overflow body are
 * the caller's, serially.
 */
import { heapSortRange, PAIR_KEY_BASE } from "./pair-set.js";

/** Moved bodies per chunk of the parallel cell queries (`CellQueryJob.chunkSize`). */
export const CELL_QUERY_CHUNK = 64;
/** Keys per moved body of a chunk's output region to start with (grown when a chunk needs more). */
export const CELL_QUERY_ROOM_PER_BODY = 32;
/**
 * The grid's cell hash (Teschner et al. 2003) of cell `(x, y, z)` into a table of
 * `2^(32 − shift)` slots.
 */
export function cellHash(x: number, y: number, z: number, shift: number): number {
  const h = Math.imul(x | 0, 73856093) ^ Math.imul(y | 0, 19349663) ^ Math.imul(z | 0, 83492791);
  return Math.imul(h, 0x9e3779b1) >>> shift;
}

/**
 * The arrays of one round of cell queries (or, with `update` set, of the cell update of
 * src/broadphase/cell-update.ts): the grid's own (read only for the queries) and the output.
 * Every array a worker thread reads or writes lives in a `SharedArrayBuffer` when it runs in
 * parallel.
 */
export interface CellQueryJob {
  /** 0: the cell queries ({@link cellQueryChunk}); 1: the cell update (`cellUpdateChunk`). */
  update: number;
  /** Cell update: log2 of its number of classes (chunks). */
  classBits: number;
  /**
   * Cell update: the old and the new cell range of the move buffer's body i at `12i` and
   * `12i + 6` (empty, x1 < x0, outside the grid).
   */
  oldRange: Float64Array;
  /** The move buffer: `moved[0 .. movedCount)`. */
  moved: Int32Array;
  movedCount: number;
  /** Moved bodies per chunk (a positive integer). */
  chunkSize: number;
  /** `movedStamp[id] === generation` for the bodies of the move buffer. */
  movedStamp: Int32Array;
  generation: number;
  /** 1 for a body linked in the cells. */
  inGrid: Uint8Array;
  /** Fat boxes, 6 doubles per id. */
  fat: Float64Array;
  /** Cell range of each fat box, 6 doubles per id. */
  range: Float64Array;
  /** The cell table: cell coordinates, stamp, entry block of each slot. */
  slotX: Float64Array;
  slotY: Float64Array;
  slotZ: Float64Array;
  slotStamp: Int32Array;
  slotStart: Int32Array;
  slotCount: Int32Array;
  /** Cell update: room of each slot's block (−room − 1 while the update defers the cell). */
  slotCap: Int32Array;
  /** The table's hash shift (`cellHash`) and the stamp of its live slots. */
  tableShift: number;
  tableGeneration: number;
  /** The entry pool: the body of each entry (its fat box is read from `fat`). */
  pBody: Int32Array;
  /**
   * Output keys (the cell update's deferred records): chunk c's region is
   * `[c · chunkRoom, (c + 1) · chunkRoom)`.
   */
  keys: Float64Array;
  chunkRoom: number;
  /** Keys found by each chunk, −1 until it is done (then stored atomically). */
  chunkLengths: Int32Array;
}

/** Number of chunks of `job` (0 when nothing moved). */
export function cellQueryChunks(job: CellQueryJob): number {
  return Math.ceil(job.movedCount / job.chunkSize);
}

/**
 * Runs chunk `c` of `job` (module docs) and publishes its length in `job.chunkLengths[c]`.
 * Every moved body in the grid must be linked at its current cells.
 */
export function cellQueryChunk(job: CellQueryJob, c: number): void {
  const { moved, movedStamp, inGrid, fat, range, slotX, slotY, slotZ, slotStamp } = job;
  const { slotStart, slotCount, pBody, keys } = job;
  const gen = job.generation;
  const tableGen = job.tableGeneration;
  const shift = job.tableShift;
  const mask = slotStamp.length - 1;
  const room = job.chunkRoom;
  const base = c * room;
  const end = Math.min(job.movedCount, (c + 1) * job.chunkSize);
  let n = 0;
  for (let i = c * job.chunkSize; i < end; i++) {
    const id = moved[i];
    if (inGrid[id] !== 1) continue;
    const k = 6 * id;
    const minX = fat[k];
    const minY = fat[k + 1];
    const minZ = fat[k + 2];
    const maxX = fat[k + 3];
    const maxY = fat[k + 4];
    const maxZ = fat[k + 5];
    const rx = range[k];
    const ry = range[k + 1];
    const rz = range[k + 2];
    for (let x = rx; x <= range[k + 3]; x++) {
      for (let y = ry; y <= range[k + 4]; y++) {
        for (let z = rz; z <= range[k + 5]; z++) {
          // The cell's slot (it exists: `id` is linked there).
          let slot = cellHash(x, y, z, shift);
          for (let probe = 0; probe <= mask; probe++) {
            if (slotStamp[slot] === tableGen && slotX[slot] === x && slotY[slot] === y) {
              if (slotZ[slot] === z) break;
            }
            slot = (slot + 1) & mask;
          }
          const start = slotStart[slot];
          const stop = start + slotCount[slot];
          for (let e = start; e < stop; e++) {
            const j = pBody[e];
            if (j === id || (j < id && movedStamp[j] === gen)) continue;
            const p = 6 * j;
            if (
              fat[p] > maxX ||
              minX > fat[p + 3] ||
              fat[p + 1] > maxY ||
              minY > fat[p + 4] ||
              fat[p + 2] > maxZ ||
              minZ > fat[p + 5] ||
              Math.max(rx, range[6 * j]) !== x ||
              Math.max(ry, range[6 * j + 1]) !== y ||
              Math.max(rz, range[6 * j + 2]) !== z
            ) {
              continue;
            }
            if (n < room) keys[base + n] = id < j ? id * PAIR_KEY_BASE + j : j * PAIR_KEY_BASE + id;
            n++;
          }
        }
      }
    }
  }
  if (n <= room) heapSortRange(keys, base, base + n);
  Atomics.store(job.chunkLengths, c, n);
}

/**
 * Merges sorted runs of unique keys, run r being `src[starts[r] .. ends[r])`, into `dst` from
 * index 0 (ascending; `dst` has room for all, and is not `src`). A binary heap of the runs by
 * their next key: O(n log runs). `heap` (room for `runs` ints) is scratch; `starts` is consumed.
 * Returns the number of keys written.
 */
export function mergeSortedRuns(
  src: Float64Array,
  starts: Int32Array,
  ends: Int32Array,
  runs: number,
  heap: Int32Array,
  dst: Float64Array,
): number {
  let size = 0;
  for (let r = 0; r < runs; r++) {
    if (starts[r] >= ends[r]) continue;
    // Sift up run r.
    let i = size++;
    const v = src[starts[r]];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (src[starts[heap[parent]]] <= v) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = r;
  }
  let w = 0;
  while (size > 0) {
    const top = heap[0];
    dst[w++] = src[starts[top]++];
    let r = top;
    if (starts[top] >= ends[top]) {
      r = heap[--size];
      if (size === 0) break;
    }
    // Sift run r down from the root.
    const v = src[starts[r]];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && src[starts[heap[child + 1]]] < src[starts[heap[child]]]) child++;
      if (src[starts[heap[child]]] >= v) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = r;
  }
  return w;
}
