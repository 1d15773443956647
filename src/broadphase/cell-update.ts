/**
 * The cell update of the grid's incremental update (src/broadphase/spatial-hash.ts) — unlinking
 * the moved bodies from their old cells and linking them at their new ones — cut into classes
 * of cells that any thread may run at once. On scene (b) at 50,000 bodies, ~1,430 bodies leave
 * their fat boxes per step (~8,600 cell entries); serial, this was half of the threaded step's
 * serial part (docs/DESIGN.md, "Threads").
 *
 * A cell belongs to class `c` when the top `classBits` bits of its home slot in the cell table
 * (`cellHash`) are `c`: the classes cut the table into contiguous regions. Class `c` walks the
 * whole move buffer in order and, for each body, removes its entry from each of its old cells of
 * class `c` (swap with the block's last entry) and then appends it to each of its new cells of
 * class `c`. A cell's slot, count, room and entry block are written by its own class only, and
 * no class adds a slot to the table (they only look cells up), so the classes share nothing they
 * write. Two kinds of operation cannot be done so, and are **deferred**: appending to a cell
 * that has no slot yet (inserting a slot moves other cells' probe sequences) and appending to a
 * full block (the block moves to the pool's end, a global allocation). A deferred cell is marked
 * (its room stored as `−room − 1`) and every later operation of the class on it is deferred
 * too; a new cell's operations are deferred anyway (it is not found). Each class writes its
 * deferred operations, in order, as records of {@link CELL_UPDATE_RECORD} doubles `[2·i + op, x,
 * y, z]` (i: the body's index in the move buffer, op: 0 remove, 1 append; the cell) from
 * `CELL_UPDATE_BASE + c · chunkRoom` on in `keys`, and their
 * number in `chunkLengths[c]` (an atomic store). A class stops before a body whose operations
 * might not all fit in its room, and writes the index of that body (`movedCount` when it did
 * them all) in `chunkLengths[2^classBits + c]`. The caller then replays the records class by
 * class (src/broadphase/spatial-hash.ts) and runs a class that stopped on from where it stopped
 * ({@link cellUpdateChunk}'s `from`), replaying again, until it is done. The replay is rare (a
 * new cell, a full block) and moves only integers (an entry is its body; the fat box is read
 * from the body's), so that code V8 may not have optimised yet allocates nothing.
 *
 * Per cell, the operations happen in the order of the serial update (each body unlinked from its
 * old cells, then linked at its new ones, body after body), so every cell's entries end in the
 * same order as on one thread; where a new cell's slot lands and where a moved block goes in the
 * pool do not change what any query reads. The classes do not depend on the number of threads,
 * so the table is the same on any thread count.
 */
import { type CellQueryJob, cellHash, cellQueryChunk } from "./cell-query.js";

/** log2 of the number of classes (chunks) of the parallel cell update: 8 classes. */
export const CELL_UPDATE_CLASS_BITS = 3;
/** Doubles per deferred operation record: `[2·i + op, x, y, z]`. */
export const CELL_UPDATE_RECORD = 4;
/** Index in `keys` of the first class's records. */
export const CELL_UPDATE_BASE = 0;
/** `CellQueryJob.update` of a cell update job ({@link cellUpdateChunk}). */
export const CELL_JOB_UPDATE = 1;

/** Runs chunk `c` of a grid cell job: the cell update's class `c` or the cell queries' chunk `c`. */
export function cellJobChunk(job: CellQueryJob, c: number): void {
  if (job.update === CELL_JOB_UPDATE) cellUpdateChunk(job, c);
  else cellQueryChunk(job, c);
}

/**
 * Runs class `c` of the cell update `job` (module docs) for the move buffer's bodies from index
 * `from` on and publishes its number of deferred records in `job.chunkLengths[c]` and where it
 * stopped in `job.chunkLengths[2^classBits + c]`. `job.oldRange[12i .. 12i + 11]` holds the
 * old and the new cell range of the move buffer's body `i` (each empty, `x1 < x0`, when it was
 * not or is not to be in the grid), so that the classes, which all walk every moved body, read
 * them in sequence. Its room (`job.chunkRoom` doubles) must hold the records of any one body's
 * cells.
 */
export function cellUpdateChunk(job: CellQueryJob, c: number, from = 0): void {
  const { moved, oldRange: ranges, slotX, slotY, slotZ, slotStamp } = job;
  const { slotStart, slotCount, slotCap, pBody, keys } = job;
  const tableGen = job.tableGeneration;
  const shift = job.tableShift;
  const mask = slotStamp.length - 1;
  // Home slot → class: its top classBits bits.
  const classShift = 32 - shift - job.classBits;
  const R = CELL_UPDATE_RECORD;
  const room = job.chunkRoom;
  const base = CELL_UPDATE_BASE + c * room;
  const m = job.movedCount;
  let n = 0;
  let i = from;
  for (; i < m; i++) {
    const id = moved[i];
    const o = 12 * i;
    const p = o + 6;
    // Stop where this body's operations, all deferred, might not fit.
    const ops =
      (ranges[o + 3] - ranges[o] + 1) *
        (ranges[o + 4] - ranges[o + 1] + 1) *
        (ranges[o + 5] - ranges[o + 2] + 1) +
      (ranges[p + 3] - ranges[p] + 1) *
        (ranges[p + 4] - ranges[p + 1] + 1) *
        (ranges[p + 5] - ranges[p + 2] + 1);
    if ((n + ops) * R > room) break;
    // Old cells: remove id's entry.
    for (let x = ranges[o]; x <= ranges[o + 3]; x++) {
      for (let y = ranges[o + 1]; y <= ranges[o + 4]; y++) {
        for (let z = ranges[o + 2]; z <= ranges[o + 5]; z++) {
          let slot = cellHash(x, y, z, shift);
          if (slot >>> classShift !== c) continue;
          // The cell's slot (it exists: id is linked there).
          for (let probe = 0; probe <= mask; probe++) {
            if (slotStamp[slot] === tableGen && slotX[slot] === x && slotY[slot] === y) {
              if (slotZ[slot] === z) break;
            }
            slot = (slot + 1) & mask;
          }
          if (slotCap[slot] < 0) {
            const r = base + n * R;
            keys[r] = 2 * i;
            keys[r + 1] = x;
            keys[r + 2] = y;
            keys[r + 3] = z;
            n++;
            continue;
          }
          const start = slotStart[slot];
          let e = start;
          while (pBody[e] !== id) e++;
          const last = start + slotCount[slot] - 1;
          slotCount[slot] = last - start;
          if (e !== last) pBody[e] = pBody[last];
        }
      }
    }
    // New cells: append id's entry.
    for (let x = ranges[p]; x <= ranges[p + 3]; x++) {
      for (let y = ranges[p + 1]; y <= ranges[p + 4]; y++) {
        for (let z = ranges[p + 2]; z <= ranges[p + 5]; z++) {
          let slot = cellHash(x, y, z, shift);
          if (slot >>> classShift !== c) continue;
          let found = false;
          for (let probe = 0; probe <= mask; probe++) {
            if (slotStamp[slot] !== tableGen) break;
            if (slotX[slot] === x && slotY[slot] === y && slotZ[slot] === z) {
              found = true;
              break;
            }
            slot = (slot + 1) & mask;
          }
          if (found) {
            const cap = slotCap[slot];
            const count = slotCount[slot];
            if (cap >= 0 && count < cap) {
              const e = slotStart[slot] + count;
              slotCount[slot] = count + 1;
              pBody[e] = id;
              continue;
            }
            // A full block: the caller moves it; this class leaves the cell alone from now on.
            if (cap >= 0) slotCap[slot] = -cap - 1;
          }
          const r = base + n * R;
          keys[r] = 2 * i + 1;
          keys[r + 1] = x;
          keys[r + 2] = y;
          keys[r + 3] = z;
          n++;
        }
      }
    }
  }
  job.chunkLengths[(1 << job.classBits) + c] = i;
  Atomics.store(job.chunkLengths, c, n);
}
