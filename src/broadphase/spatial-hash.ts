/**
 * Uniform grid broad phase stored in a hash table of cells (Ericson 2005, §7.1–7.1.3; cell hash
 * of Teschner et al. 2003, "Optimized Spatial Hashing for Collision Detection of Deformable
 * Objects").
 *
 * Space is cut into cubic cells of side `s`; a box occupies the cells `floor(min/s) ..
 * floor(max/s)` on each axis (`Math.floor`, so negative coordinates are correct). The grid holds
 * fat boxes — each box grown by a margin — and so do the candidate pairs (the pairs whose fat
 * boxes overlap, kept sorted between steps). Both stay valid while a box stays inside its fat
 * box: a move that keeps it inside only records the new box, and `computePairs` filters the
 * candidates by the current boxes, which is exact because two boxes that overlap have
 * overlapping fat boxes (the Verlet list of molecular dynamics). A box that leaves its fat box
 * (or is inserted or removed) goes to a move buffer (Box2D's `b2BufferMove`); the next query
 * updates only those: their cell entries are removed and added again (each cell keeps its
 * entries — bodies; the fat boxes are the bodies' own — consecutive in a pool, with room to
 * grow, so that a cell is read in sequence), their
 * candidate pairs dropped and found again from their new cells, and merged into the sorted
 * candidates in one linear pass. A full rebuild — O(total cell
 * entries) with a counting pass, entries laid out cell by cell — happens only for the first
 * query, when more than a quarter of the proxies moved out, when the cell size is re-chosen, or
 * when the cell table fills. The margin of a box that moved out follows its motion: eight times
 * the largest axis of the `displacement` given to `move` (the expected motion per step), at
 * least `SPATIAL_HASH_FAT_MARGIN` × `s` and at most half a cell, so a random walk refits a body
 * every ten or so steps instead of every step, and a teleported body costs only its own update;
 * a box whose motion is not known yet (inserted, never moved out) has a tenth of a cell.
 * With a parallel runner ({@link SpatialHash.setParallel}, a world's `WorkerExecutor`) the
 * update's pass over every candidate (src/broadphase/candidate-merge.ts), the moved bodies'
 * unlinking and re-placement (src/broadphase/cell-update.ts, in classes of cells) and their cell
 * queries (src/broadphase/cell-query.ts) run in chunks on several threads, with the same pairs
 * in the same order and the same entries in every cell.
 * Bodies that would occupy more than `maxCellsPerBody` cells go to an overflow list that is
 * tested against every body, so huge boxes stay correct and cheap.
 *
 * Pairs are deduplicated without a hash set: two overlapping boxes share every cell of the
 * intersection of their cell ranges, and the pair is reported only in the lowest of them
 * (`max` of the two lower cell indices per axis), which is where the minimum corner of their
 * intersection lies. A full build tests only such pairs: it lays each cell's entries out in 8
 * groups by the axes on which the entry's cells start at that cell, and tests the pairs of
 * groups that together cover the three axes (about half the pairs of the cell). The same rule
 * deduplicates `queryAabb`; `castRay` marks visited bodies.
 *
 * The automatic cell size is `cellSizeScale` × the median of the bodies' largest box side (raised,
 * when sizes span orders of magnitude, until the 99th percentile fits in `maxCellsPerBody` cells),
 * recomputed at a rebuild when the proxy count has doubled or halved since it was last chosen,
 * or on demand with {@link SpatialHash.recomputeCellSize}; the `cellSize` option fixes it.
 */
import {
  GRID_TRAVERSAL_PADDING,
  SPATIAL_HASH_CELL_SCALE,
  SPATIAL_HASH_FAT_MARGIN,
  SPATIAL_HASH_MAX_CELLS_PER_BODY,
} from "../constants.js";
import { checkOptions, invalidValue, optionsSpec, withDefaults } from "../errors.js";
import {
  growFloat64Mem,
  growInt32Mem,
  newInt32,
  toSharedFloat64,
  toSharedInt32,
} from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  type BulkMoveTarget,
  boxesOverlap,
  checkBox,
  checkRay,
  growFloat64,
  growInt32,
  ProxyBoxes,
  type RayCastCallback,
  raySegmentBoxEntry,
} from "./broad-phase.js";
import {
  CANDIDATE_FILTER_ONLY,
  CANDIDATE_MERGE_CHUNK,
  type CandidateMergeJob,
  type CandidateMergeRunner,
  candidateMergeChunks,
  compactCandidateMerge,
} from "./candidate-merge.js";
import {
  CELL_QUERY_CHUNK,
  CELL_QUERY_ROOM_PER_BODY,
  type CellQueryJob,
  cellHash,
  cellQueryChunk,
  cellQueryChunks,
  mergeSortedRuns,
} from "./cell-query.js";
import {
  CELL_JOB_UPDATE,
  CELL_UPDATE_BASE,
  CELL_UPDATE_CLASS_BITS,
  CELL_UPDATE_RECORD,
  cellUpdateChunk,
} from "./cell-update.js";
import { heapSortRange, PAIR_KEY_BASE, PairSet } from "./pair-set.js";

/** Settings of {@link SpatialHash}. */
export interface SpatialHashOptions {
  /**
   * Fixed cell side in scene units, or 0 to choose it from the bodies' sizes.
   * @default 0 (automatic)
   */
  cellSize: number;
  /**
   * Automatic cell side as a multiple of the median largest box side. Unitless.
   * @default SPATIAL_HASH_CELL_SCALE = 2
   */
  cellSizeScale: number;
  /**
   * Most cells a body may occupy before it goes to the overflow list. Count.
   * @default SPATIAL_HASH_MAX_CELLS_PER_BODY = 64
   */
  maxCellsPerBody: number;
}

/** The default {@link SpatialHashOptions}: automatic cell size (2 × median), 64 cells per body. */
export function defaultSpatialHashOptions(): SpatialHashOptions {
  return {
    cellSize: 0,
    cellSizeScale: SPATIAL_HASH_CELL_SCALE,
    maxCellsPerBody: SPATIAL_HASH_MAX_CELLS_PER_BODY,
  };
}

/** Cell side used when every box is a point and every centre coincides (any size is exact). */
const DEGENERATE_CELL_SIZE = 1;
/** Runs of one lower id longer than this are heap-sorted by the rebuild's sort, not by insertion. */
const INSERTION_SORT_MAX_RUN = 32;
/**
 * Largest |cell index| the grid uses (2^40): the cell side is raised at each rebuild to at least
 * the 99th percentile of the bodies' |coordinate| / 2^39, so that cell indices stay exact
 * integers in a double and `x + 1` always advances (tiny boxes far from the origin would
 * otherwise need indices past 2^53); the few bodies beyond go to the overflow list. Queries
 * reaching beyond fall back to scanning the bodies.
 */
const MAX_CELL_INDEX = 2 ** 40;

/** True when a body's cell range (`range[k .. k + 5]`) reaches past MAX_CELL_INDEX. */
function beyondCellIndex(range: Float64Array, k: number): boolean {
  return (
    Math.max(-range[k], -range[k + 1], -range[k + 2], range[k + 3], range[k + 4], range[k + 5]) >
    MAX_CELL_INDEX
  );
}
/** Entries of groups 0–6 of the cell whose 8 group counts start at `group[g8]` (rebuild). */
function at7(group: Int32Array, g8: number): number {
  return (
    group[g8] +
    group[g8 + 1] +
    group[g8 + 2] +
    group[g8 + 3] +
    group[g8 + 4] +
    group[g8 + 5] +
    group[g8 + 6]
  );
}

/**
 * Most grid slabs a ray may cross per body before `castRay` scans the bodies instead of walking
 * the grid (each slab costs a few cell look-ups, a body one slab test).
 */
const RAY_SLABS_PER_BODY = 4;
const MIN_TABLE_CAPACITY = 16;
const STAMP_LIMIT = 0x7fffffff;
/**
 * Room the fat-box candidates get beyond the output's pair limit: a quarter of it plus this
 * many pairs (fat boxes find a few more pairs than the current boxes overlap; the error then
 * quotes the output's limit, since more than that many candidates were found either way).
 */
const CANDIDATE_LIMIT_SLACK = 2 ** 16;

/**
 * One over the fraction of the proxies that may leave their fat boxes between two queries before
 * the next query rebuilds the whole grid instead of updating them one by one (a rebuild costs
 * about as much as updating a quarter of the bodies). An integer, so the test is integer
 * arithmetic.
 */
const INCREMENTAL_MAX_DIVISOR = 4;
/** The margin of a box that moved out: this many times its largest displacement per axis (4 and 8 tried on scene (b): 8 refits a random walk about four times less often). */
export const DISPLACEMENT_MARGIN_SCALE = 8;
/** Largest margin, as a fraction of the cell side (larger ones make many candidates). */
const MAX_MARGIN_CELLS = 0.5;
/**
 * Margin of a box whose motion is not known yet (inserted, never moved out of its fat box), as a
 * fraction of the cell side (five times the least margin). With the least margin, a world whose
 * bodies all move saw most of them leave their first fat boxes at the second step and half the
 * rest at the third, each a full rebuild (scene (b) at 50,000 bodies: 25,150 then 12,537 moved
 * out); with this one they leave over many steps, a few at a time, and their own displacement
 * then sets their margin (0.25 tried: the first build's candidates and cell entries doubled and
 * it cost more than the rebuilds it saved). It was out for a while because the 1,000-body
 * steady-state probe collected garbage with it: that was the allocation of `marginOf` and of the
 * pair merges (test/world/steady-state.test.ts), not the margin.
 */
const UNKNOWN_MOTION_MARGIN_CELLS = 0.1;
/** Quantile of the box sizes that the automatic cell size keeps out of the overflow list. */
const OVERFLOW_QUANTILE = 0.99;
/** Least room of a cell's block in the entry pool, entries. */
const MIN_CELL_ROOM = 4;
/** The pool may grow to this many times the live entries (abandoned blocks) before a rebuild. */
const POOL_REBUILD_RATIO = 4;

const HASH_SPEC = optionsSpec("SpatialHash", "options", {
  cellSize: "number",
  cellSizeScale: "number",
  maxCellsPerBody: "number",
});

/**
 * Uniform grid broad phase over hashed cells (see the module docs). Exact: reports the pairs
 * whose boxes overlap or touch. Callbacks must not modify this broad phase while it iterates.
 * Throws `CollideError` on bad options.
 */
export class SpatialHash implements BroadPhase {
  private readonly proxies = new ProxyBoxes();
  private readonly options: SpatialHashOptions;
  /** The chosen (automatic or fixed) cell side. */
  private cell = 0;
  /** The cell side in use: `cell`, raised so that cell indices stay below MAX_CELL_INDEX. */
  private s = 0;
  private sizedAtCount = 0;
  /** False until the first full build, and after anything that needs a full rebuild. */
  private built = false;
  /**
   * Fat box of each proxy in the grid: its box grown by its margin when it was last (re)placed.
   * The cell lists and the candidates hold these and stay valid while every box stays inside.
   */
  private fat: Float64Array = new Float64Array(0);
  /** Margin of each proxy's fat box, scene units (chosen from its displacement). */
  private pad: Float64Array = new Float64Array(0);
  /** The pairs whose fat boxes overlap, sorted (valid when `built` and the buffer is empty). */
  private candidates = new PairSet();
  /** The next candidates, merged from `candidates` and the moved bodies' new pairs. */
  private candidatesNext = new PairSet();
  /** The output set whose limit (at its `limitVersion`) the candidates' limits follow. */
  private limitSource: PairSet | null = null;
  private limitSourceVersion = -1;
  /** Lower and higher id of each candidate, in the order of `candidates`. */
  private candidateLo: Int32Array = new Int32Array(16);
  private candidateHi: Int32Array = new Int32Array(16);
  /** The same for `candidatesNext`. */
  private nextLo: Int32Array = new Int32Array(16);
  private nextHi: Int32Array = new Int32Array(16);
  /** The threads of the candidate merge (null: this thread alone), see {@link setParallel}. */
  private runner: CandidateMergeRunner | null = null;
  /** True when the arrays the merge reads and writes live in shared memory. */
  private shared = false;
  /** The parallel merge's job, its pair output and its chunk lengths (kept across steps). */
  private readonly mergeJob: CandidateMergeJob;
  private pairScratch: Float64Array = new Float64Array(0);
  private chunkLengths: Int32Array = new Int32Array(0);
  /** The pair set the parallel merge's pairs go to (during {@link mergeParallel}). */
  private mergePairs: PairSet | null = null;
  private readonly emitPairs: (from: number, to: number) => void;
  /** Cell range of each proxy's fat box: `(x0, y0, z0, x1, y1, z1)`. */
  private range: Float64Array = new Float64Array(0);
  private isOverflow = new Uint8Array(0);
  /** 1 while the proxy's entries are linked in the cell lists. */
  private inGrid: Uint8Array = new Uint8Array(0);
  private overflow = new Int32Array(8);
  /** Position of each overflow proxy in `overflow`. */
  private overflowPos = new Int32Array(0);
  private overflowCount = 0;
  private normalCount = 0;
  /** Union of the normal (non-overflow) bodies' fat boxes (grown, never shrunk, between builds). */
  private readonly bounds = new Float64Array(6);
  /** The move buffer: proxies inserted, removed or moved out of their fat box since the query. */
  private moved: Int32Array = new Int32Array(16);
  private movedCount = 0;
  /** `movedStamp[id] === movedGeneration` while `id` is in the move buffer. */
  private movedStamp: Int32Array = new Int32Array(0);
  private movedGeneration = 1;
  /** Keys of the moved bodies' new candidate pairs, sorted (scratch of an incremental update). */
  private newKeys: Float64Array = new Float64Array(64);
  /** The cell queries of the moved bodies (src/broadphase/cell-query.ts), kept across steps. */
  private readonly cellJob: CellQueryJob;
  /** The cell queries' output: each chunk's sorted run, then the overflow pairs' run. */
  private cellKeys: Float64Array = new Float64Array(0);
  private cellLengths: Int32Array = new Int32Array(0);
  /** The old and new cell ranges of the move buffer's bodies (the parallel cell update's, 12 per body). */
  private movedRange: Float64Array = new Float64Array(0);
  /** Scratch of the merge of those runs. */
  private runStart = new Int32Array(16);
  private runEnd = new Int32Array(16);
  private runHeap = new Int32Array(16);
  // Open-addressing cell table, valid for slots whose stamp equals `generation`; each slot owns
  // a block of the entry pool: `slotCount` entries from `slotStart`, room for `slotCap`.
  private tableShift = 32;
  private slotX: Float64Array = new Float64Array(0);
  private slotY: Float64Array = new Float64Array(0);
  private slotZ: Float64Array = new Float64Array(0);
  private slotStamp: Int32Array = new Int32Array(0);
  private slotStart: Int32Array = new Int32Array(0);
  private slotCount: Int32Array = new Int32Array(0);
  private slotCap: Int32Array = new Int32Array(0);
  private generation = 0;
  private occupied = new Int32Array(16);
  private occupiedCount = 0;
  /**
   * The entry pool: the body of each entry; its fat box is read from {@link fat} (module docs:
   * a copy of the fat box per entry was 48 of the pool's 52 bytes per entry — the first build of
   * scene (b) at 50,000 bodies wrote 15 MB of copies, 3,700 fresh pages at 12–15 µs each on the
   * machine that measured it — for a locality the pair loops did not measurably need). A cell's
   * entries are consecutive; a full cell moves to the pool's end with twice the room (the old
   * block is reclaimed at the next rebuild).
   */
  private pBody: Int32Array = new Int32Array(16);
  /**
   * Rebuild scratch: per occupied cell, the ends of its entries' 8 groups (the axes on which the
   * entry's body's cells start at that cell) in the pool.
   */
  private groupStart: Int32Array = new Int32Array(0);
  /** Sort scratch of the rebuild: pairs per lower id. */
  private loCounts: Int32Array = new Int32Array(0);
  /** Least and greatest live id at the last rebuild: the range of the sort's counts. */
  private idLo = 0;
  private idHi = 0;
  private poolTop = 0;
  /** Entries in the cells (the pool holds more: slack and abandoned blocks). */
  private liveEntries = 0;
  private sizes = new Float64Array(16);
  private visitStamp = new Int32Array(0);
  private visitGeneration = 0;
  // State of the ray cast in progress.
  private rayO = new Float64Array(3);
  private rayD = new Float64Array(3);
  private rayTMax = 0;
  private rayVisits = 0;
  private rayCallback: RayCastCallback | null = null;

  /** A new, empty spatial hash; `options` overrides {@link defaultSpatialHashOptions}. */
  constructor(options: Partial<SpatialHashOptions> = {}) {
    checkOptions(options, HASH_SPEC);
    const o = withDefaults(defaultSpatialHashOptions(), options);
    if (!(Number.isFinite(o.cellSize) && o.cellSize >= 0)) {
      invalidValue("options.cellSize", o.cellSize, "must be a finite number >= 0 (0 = automatic)");
    }
    if (!(Number.isFinite(o.cellSizeScale) && o.cellSizeScale > 0)) {
      invalidValue("options.cellSizeScale", o.cellSizeScale, "must be a finite number > 0");
    }
    if (!(Number.isInteger(o.maxCellsPerBody) && o.maxCellsPerBody >= 1)) {
      invalidValue("options.maxCellsPerBody", o.maxCellsPerBody, "must be an integer >= 1");
    }
    this.options = o;
    this.mergeJob = {
      oldKeys: this.newKeys,
      oldLo: this.candidateLo,
      oldHi: this.candidateHi,
      oldCount: 0,
      chunkSize: CANDIDATE_MERGE_CHUNK,
      newKeys: this.newKeys,
      newCount: 0,
      movedStamp: this.movedStamp,
      generation: 0,
      box: this.newKeys,
      filter: 0,
      outKeys: this.newKeys,
      outLo: this.nextLo,
      outHi: this.nextHi,
      pairKeys: this.pairScratch,
      chunkLengths: this.chunkLengths,
      outCount: 0,
    };
    this.cellJob = {
      update: 0,
      classBits: CELL_UPDATE_CLASS_BITS,
      oldRange: this.movedRange,
      moved: this.moved,
      movedCount: 0,
      chunkSize: CELL_QUERY_CHUNK,
      movedStamp: this.movedStamp,
      generation: 0,
      inGrid: this.inGrid,
      fat: this.fat,
      range: this.range,
      slotX: this.slotX,
      slotY: this.slotY,
      slotZ: this.slotZ,
      slotStamp: this.slotStamp,
      slotStart: this.slotStart,
      slotCount: this.slotCount,
      slotCap: this.slotCap,
      tableShift: this.tableShift,
      tableGeneration: 0,
      pBody: this.pBody,
      keys: this.cellKeys,
      chunkRoom: CELL_QUERY_CHUNK * CELL_QUERY_ROOM_PER_BODY,
      chunkLengths: this.cellLengths,
    };
    this.emitPairs = (from, to) =>
      (this.mergePairs as PairSet).appendKeys(this.pairScratch, from, to);
  }

  /**
   * Spreads the candidate merge of the incremental update — the pass over every candidate that
   * keeps, adds and filters them, the bulk of a step's grid work when many bodies move — over
   * the threads of `runner` (src/broadphase/candidate-merge.ts); null runs it on this thread.
   * The arrays it reads move into `SharedArrayBuffer`s (where the platform has them). The pairs
   * are the same, in the same order, either way.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  setParallel(runner: CandidateMergeRunner | null): void {
    this.runner = runner;
    if (runner === null || typeof SharedArrayBuffer !== "function" || this.shared) return;
    this.shared = true;
    this.proxies.shared = true;
    this.proxies.box = toSharedFloat64(this.proxies.box, true);
    this.movedStamp = toSharedInt32(this.movedStamp, true);
    this.candidateLo = toSharedInt32(this.candidateLo, true);
    this.candidateHi = toSharedInt32(this.candidateHi, true);
    this.nextLo = toSharedInt32(this.nextLo, true);
    this.nextHi = toSharedInt32(this.nextHi, true);
    this.newKeys = toSharedFloat64(this.newKeys, true);
    this.pairScratch = toSharedFloat64(this.pairScratch, true);
    this.chunkLengths = toSharedInt32(this.chunkLengths, true);
    this.candidates.useSharedMemory();
    this.candidatesNext.useSharedMemory();
  }

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  /**
   * The cell side (scene units) in use after the last rebuild (0 before the first): the chosen
   * size, raised if needed to max |coordinate| / 2^40 so that cell indices stay exact.
   */
  get cellSize(): number {
    return this.s;
  }

  /** Number of proxies in the overflow list after the last query. */
  get overflowSize(): number {
    return this.overflowCount;
  }

  /** Full rebuilds of the grid so far (the first build included): for tests and profiling. */
  rebuilds = 0;

  /** Candidate merges run in chunks through the parallel runner so far: for tests and profiling. */
  parallelMerges = 0;

  /** Incremental updates whose cell queries ran through the parallel runner: for tests and profiling. */
  parallelCellQueries = 0;

  /**
   * Incremental updates whose unlinking and re-placement ran as a cell update job through the
   * parallel runner (src/broadphase/cell-update.ts): for tests and profiling.
   */
  parallelCellUpdates = 0;

  /** Operations the parallel cell updates deferred to this thread (new cells, full blocks): for tests. */
  deferredCellOps = 0;

  /** Classes of the parallel cell updates run on from where they ran out of room: for tests. */
  cellUpdateResumes = 0;

  /** Adds proxy `id` with box `[min, max]`; throws `CollideError` on a present id or a bad box. */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    if (id >= this.isOverflow.length) {
      const n = this.proxies.slot.length;
      this.range = growFloat64Mem(this.range, 6 * n, this.shared);
      this.fat = growFloat64Mem(this.fat, 6 * n, this.shared);
      this.pad = growFloat64Mem(this.pad, n, this.shared);
      const flags = new Uint8Array(n);
      flags.set(this.isOverflow);
      this.isOverflow = flags;
      const grid = new Uint8Array(n);
      grid.set(this.inGrid);
      this.inGrid = grid;
      this.overflowPos = growInt32(this.overflowPos, n);
      this.movedStamp = growInt32Mem(this.movedStamp, n, this.shared);
      this.visitStamp = growInt32(this.visitStamp, n);
    }
    // No motion known yet (module docs): the margin of UNKNOWN_MOTION_MARGIN_CELLS.
    this.pad[id] = -1;
    this.buffer(id);
  }

  /**
   * Records the new box of proxy `id`. While the box stays inside its fat box nothing else
   * happens; when it leaves it, the proxy goes to the move buffer with a margin of eight times
   * the largest axis of `displacement` (module docs), and the next query updates it.
   */
  move(id: number, min: Vec3, max: Vec3, displacement?: Vec3): void {
    this.proxies.set(id, min, max);
    if (!this.built) return;
    const f = this.fat;
    const k = 6 * id;
    if (
      min.x < f[k] ||
      min.y < f[k + 1] ||
      min.z < f[k + 2] ||
      max.x > f[k + 3] ||
      max.y > f[k + 4] ||
      max.z > f[k + 5]
    ) {
      let d = 0;
      if (displacement !== undefined) {
        d = Math.max(Math.abs(displacement.x), Math.abs(displacement.y), Math.abs(displacement.z));
        if (!Number.isFinite(d)) d = 0;
      }
      this.pad[id] = DISPLACEMENT_MARGIN_SCALE * d;
      this.buffer(id);
    }
  }

  /** `move` of a validated box given in arrays (BroadPhase.moveFromArrays). */
  moveFromArrays(
    id: number,
    boxes: Float64Array,
    at: number,
    to: Float64Array,
    t: number,
    from: Float64Array,
    f: number,
  ): void {
    const box = this.proxies.box;
    const k = 6 * id;
    const x0 = boxes[at];
    const y0 = boxes[at + 1];
    const z0 = boxes[at + 2];
    const x1 = boxes[at + 3];
    const y1 = boxes[at + 4];
    const z1 = boxes[at + 5];
    box[k] = x0;
    box[k + 1] = y0;
    box[k + 2] = z0;
    box[k + 3] = x1;
    box[k + 4] = y1;
    box[k + 5] = z1;
    if (!this.built) return;
    const fb = this.fat;
    if (
      x0 < fb[k] ||
      y0 < fb[k + 1] ||
      z0 < fb[k + 2] ||
      x1 > fb[k + 3] ||
      y1 > fb[k + 4] ||
      z1 > fb[k + 5]
    ) {
      let d = Math.max(
        Math.abs(to[t] - from[f]),
        Math.abs(to[t + 1] - from[f + 1]),
        Math.abs(to[t + 2] - from[f + 2]),
      );
      if (!Number.isFinite(d)) d = 0;
      this.pad[id] = DISPLACEMENT_MARGIN_SCALE * d;
      this.buffer(id);
    }
  }

  /** BroadPhase.prepareBulkMove: with a parallel runner, the shared boxes, fat boxes and pads. */
  prepareBulkMove(target: BulkMoveTarget): boolean {
    const box = this.proxies.box;
    if (!this.shared || !(box.buffer instanceof SharedArrayBuffer)) return false;
    this.fat = toSharedFloat64(this.fat, true);
    this.pad = toSharedFloat64(this.pad, true);
    target.gridBox = box;
    target.fat = this.fat;
    target.pad = this.pad;
    target.grid = this.built ? 2 : 1;
    return true;
  }

  /** BroadPhase.markMovedOut: `id` left its fat box in a bulk move (its pad is written). */
  markMovedOut(id: number): void {
    this.buffer(id);
  }

  /** Removes proxy `id`; throws `CollideError` when it is absent. */
  remove(id: number): void {
    this.proxies.delete(id);
    this.buffer(id);
  }

  /** Puts `id` in the move buffer (once); a full rebuild pending makes it unnecessary. */
  private buffer(id: number): void {
    if (!this.built || this.movedStamp[id] === this.movedGeneration) return;
    this.movedStamp[id] = this.movedGeneration;
    this.moved = growInt32Mem(this.moved, this.movedCount + 1, this.shared);
    this.moved[this.movedCount++] = id;
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy. */
  clear(): void {
    this.proxies.clear();
    this.invalidate();
    this.sizedAtCount = 0;
    if (this.options.cellSize === 0) this.cell = 0;
  }

  /** Makes the next query rebuild everything (and empties the move buffer). */
  private invalidate(): void {
    this.built = false;
    this.movedCount = 0;
    this.nextMovedGeneration();
  }

  private nextMovedGeneration(): void {
    this.movedGeneration++;
    if (this.movedGeneration >= STAMP_LIMIT) {
      this.movedStamp.fill(0);
      this.movedGeneration = 1;
    }
  }

  /**
   * Chooses the automatic cell size now from the current boxes (no effect with a fixed
   * `cellSize`) and marks the grid for rebuild. Returns the cell size.
   */
  recomputeCellSize(): number {
    if (this.options.cellSize > 0) {
      this.cell = this.options.cellSize;
      return this.cell;
    }
    const { box, live, count } = this.proxies;
    this.sizedAtCount = count;
    this.invalidate();
    this.sizes = growFloat64(this.sizes, count);
    let cMinX = Infinity;
    let cMinY = Infinity;
    let cMinZ = Infinity;
    let cMaxX = -Infinity;
    let cMaxY = -Infinity;
    let cMaxZ = -Infinity;
    for (let i = 0; i < count; i++) {
      const k = 6 * live[i];
      this.sizes[i] = Math.max(
        box[k + 3] - box[k],
        box[k + 4] - box[k + 1],
        box[k + 5] - box[k + 2],
      );
      const cx = 0.5 * (box[k] + box[k + 3]);
      const cy = 0.5 * (box[k + 1] + box[k + 4]);
      const cz = 0.5 * (box[k + 2] + box[k + 5]);
      cMinX = Math.min(cMinX, cx);
      cMinY = Math.min(cMinY, cy);
      cMinZ = Math.min(cMinZ, cz);
      cMaxX = Math.max(cMaxX, cx);
      cMaxY = Math.max(cMaxY, cy);
      cMaxZ = Math.max(cMaxZ, cz);
    }
    let cell = DEGENERATE_CELL_SIZE;
    if (count > 0) {
      // The native sort of a view (this runs at a rebuild only): the heap sort it replaced took
      // 20–40 ms of the first step at 50,000 bodies, in code not yet optimised. The same order.
      this.sizes.subarray(0, count).sort();
      const median = this.sizes[count >> 1];
      const spread = Math.max(cMaxX - cMinX, cMaxY - cMinY, cMaxZ - cMinZ);
      // Sizes spanning orders of magnitude: raise the cell so that the 99th percentile still fits
      // in maxCellsPerBody cells (a box of side L covers up to (L / s + 1)³ cells), so that at
      // most about 1% of the bodies go to the overflow list, which every body is tested against.
      const p99 = this.sizes[Math.floor(OVERFLOW_QUANTILE * (count - 1))];
      const perAxis = Math.cbrt(this.options.maxCellsPerBody) - 1;
      const fitLarge = perAxis > 0 && Number.isFinite(p99) ? p99 / perAxis : 0;
      if (median > 0 && Number.isFinite(median)) {
        cell = Math.max(this.options.cellSizeScale * median, fitLarge);
      } else if (spread > 0 && Number.isFinite(spread)) cell = spread / Math.cbrt(count);
    }
    this.cell = cell;
    return cell;
  }

  /**
   * Fills `out` with every overlapping or touching pair, sorted by `(lo, hi)`: the candidate
   * pairs of the fat boxes (kept between queries, module docs) whose current boxes overlap.
   */
  computePairs(out: PairSet): PairSet {
    out.clear();
    // The fat-box candidates are a superset of the pairs: give them room beyond `out`'s limit.
    // Only when `out`'s limit changed: the limits are doubles, and this runs once per step, so it
    // may still run unoptimized, where every double read or made is allocated.
    if (out !== this.limitSource || out.limitVersion !== this.limitSourceVersion) {
      const limit = out.limit + Math.ceil(out.limit / 4) + CANDIDATE_LIMIT_SLACK;
      this.candidates.setLimit(limit, out.limitField, out.limitValue);
      this.candidatesNext.setLimit(limit, out.limitField, out.limitValue);
      this.limitSource = out;
      this.limitSourceVersion = out.limitVersion;
    }
    if (this.ensureBuilt(out)) return out;
    if (this.runner !== null && this.shared && this.candidates.size > CANDIDATE_MERGE_CHUNK) {
      // No box left its fat box: the candidates filtered in chunks on the runner's threads
      // (not copied: they stay as they are).
      this.newKeys[0] = 0;
      this.mergeParallel(out, 0);
      return out;
    }
    out.setSize(this.filterCandidates(out));
    return out;
  }

  /**
   * The candidate filter of computePairs; returns the pair count. Its own method so that no call
   * follows the loop: V8 enters the loop through on-stack-replaced code compiled before the
   * method's tail had ever run, so a call after the loop (`out.setSize`) had no type feedback
   * there and deoptimized the step every frame (`--trace-deopt`: "Insufficient type feedback
   * for call", 1 per step on the grid at 1,000 bodies).
   */
  private filterCandidates(out: PairSet): number {
    const c = this.candidates;
    const box = this.proxies.box;
    const los = this.candidateLo;
    const his = this.candidateHi;
    const n = c.size;
    const ck = c.storage;
    // Keys written to the storage directly (PairSet.room).
    let keys = out.storage;
    let w = 0;
    // The pass starts at −1 and does nothing there: this runs once per step, so V8 runs it in
    // on-stack-replaced code for thousands of steps before it compiles the method itself, and
    // enters that code only at the loop's first back edge; a first pass of real work would read
    // its doubles unoptimized, where each is allocated (12 per step, ~190 B per step measured).
    for (let i = -1; i < n; i++) {
      if (i < 0) continue;
      const a = 6 * los[i];
      const b = 6 * his[i];
      if (packedBoxesApart(box, a, b) === 0) {
        if (w === keys.length) {
          out.setSize(w);
          keys = out.room();
        }
        keys[w++] = ck[i];
      }
    }
    return w;
  }

  /**
   * Fills the candidates with the pairs whose fat boxes overlap or touch, unsorted, after a
   * rebuild laid out the `entries` cell entries by group (module docs) and counted the `tests`
   * box tests this makes (which size the candidates' storage). A pair is kept in the
   * lowest cell the two share, where on each axis at least one of the two has its first cell:
   * in the cell's entries grouped by the axes on which their cells start there (the group's
   * bits), only pairs of groups whose bits together cover the three axes are tested, and each
   * such pair is kept in that cell alone — about half the tests of all pairs in each cell, and
   * no test of which cell is the lowest (scene (a) at 50,000 bodies: ~4 million box tests for
   * ~570,000 candidates before).
   */
  private enumerateCandidates(entries: number, tests: number): void {
    const c = this.candidates;
    c.clear();
    // Room for a quarter more pairs than entries, or a third of the box tests when that is more
    // (a fifth to a quarter of the tests passed on scenes (a) and (b), 10,000 and 50,000
    // bodies: room for a quarter more than entries was half of scene (a)'s 568,000 candidates
    // at 50,000 bodies, grown and copied once); when full, grown to the count the cells seen so
    // far predict (PairSet.reserve).
    c.reserve(Math.min(Math.max(entries + (entries >> 2), Math.ceil(tests / 3)), c.limit));
    // The pairs per lower id, for sortCandidates, counted here (`counts[lo + 1]`): a pass over
    // the candidates fewer.
    const ids = this.inGrid.length;
    if (this.loCounts.length < ids + 1) this.loCounts = new Int32Array(ids + 1);
    const counts = this.loCounts;
    // Only the live ids' counts, `[idLo, idHi + 1]`: the ids below idLo keep zero counts (a
    // world's moving bodies may sit at slots 100,000 and up, behind a level's static bodies).
    counts.fill(0, this.idLo, this.idHi + 2);
    let keys = c.storage;
    let w = 0;
    const fat = this.fat;
    const bodies = this.pBody;
    const group = this.groupStart;
    const cells = this.occupiedCount;
    for (let i = 0; i < cells; i++) {
      const first = this.slotStart[this.occupied[i]];
      for (let ga = 0; ga < 8; ga++) {
        const aEnd = group[8 * i + ga];
        for (let pa = ga === 0 ? first : group[8 * i + ga - 1]; pa < aEnd; pa++) {
          const a = bodies[pa];
          const r = 6 * a;
          const minX = fat[r];
          const minY = fat[r + 1];
          const minZ = fat[r + 2];
          const maxX = fat[r + 3];
          const maxY = fat[r + 4];
          const maxZ = fat[r + 5];
          for (let gb = ga; gb < 8; gb++) {
            if ((ga | gb) !== 7) continue;
            const bEnd = group[8 * i + gb];
            for (let pb = gb === ga ? pa + 1 : group[8 * i + gb - 1]; pb < bEnd; pb++) {
              const b = bodies[pb];
              const q = 6 * b;
              // One branch for the six tests instead of six keeps the loop free of
              // mispredictions (their outcomes are close to random).
              const separated =
                +(fat[q] > maxX) |
                +(minX > fat[q + 3]) |
                +(fat[q + 1] > maxY) |
                +(minY > fat[q + 4]) |
                +(fat[q + 2] > maxZ) |
                +(minZ > fat[q + 5]);
              if (separated === 0) {
                if (w === keys.length) {
                  c.setSize(w);
                  // At least one more key, so that a full set at its limit throws here (capped at
                  // the limit, the request had been met by the full storage and the loop went on
                  // writing past its end, quadratic in the bodies of a crowded cell, before a
                  // later check threw).
                  c.reserve(
                    Math.max(w + 1, Math.min(c.limit, Math.ceil(((w / (i + 1)) * cells * 9) / 8))),
                  );
                  keys = c.storage;
                }
                if (a < b) {
                  keys[w++] = a * PAIR_KEY_BASE + b;
                  counts[a + 1]++;
                } else {
                  keys[w++] = b * PAIR_KEY_BASE + a;
                  counts[b + 1]++;
                }
              }
            }
          }
        }
      }
    }
    c.setSize(w);
    const fatBoxes = this.fat;
    const { live, count } = this.proxies;
    for (let o = 0; o < this.overflowCount; o++) {
      const a = this.overflow[o];
      for (let i = 0; i < count; i++) {
        const b = live[i];
        if (b === a || (this.isOverflow[b] === 1 && b < a)) continue;
        if (boxesOverlap(fatBoxes, 6 * a, fatBoxes, 6 * b)) {
          c.add(a, b);
          counts[Math.min(a, b) + 1]++;
        }
      }
    }
  }

  /**
   * Sorts the candidates and fills `candidateLo/Hi`: a counting sort by lower id (counted by
   * enumerateCandidates, which must run just before) straight into the lo / hi arrays, each id's few higher ids sorted by insertion (a heap sort of the keys
   * for a long run), the keys written back from them — no second key buffer (the pair set's
   * sort used one: 4.5 MB of fresh pages for scene (a)'s ~570,000 candidates at 50,000 bodies).
   * `out`, when given, receives the pairs whose current boxes overlap as the keys are written
   * back, in the same order as {@link filterCandidates} (a pass over the candidates fewer).
   */
  private sortCandidates(out: PairSet | null): void {
    const c = this.candidates;
    const n = c.size;
    const keys = c.storage;
    if (this.candidateLo.length < n) {
      if (this.nextLo.length >= n) {
        // The rebuild's entry scratch holds them (its pages already written): the two pairs of
        // arrays trade places.
        const lo = this.candidateLo;
        const hi = this.candidateHi;
        this.candidateLo = this.nextLo;
        this.candidateHi = this.nextHi;
        this.nextLo = lo;
        this.nextHi = hi;
      } else {
        // Not copied: the old contents are scratch. An eighth more than the candidates: the
        // updates merge into the other pair of arrays, grown as they need.
        const cap = n + (n >> 3);
        this.candidateLo = newInt32(cap, this.shared);
        this.candidateHi = newInt32(cap, this.shared);
      }
    }
    const los = this.candidateLo;
    const his = this.candidateHi;
    // counts[lo + 1]: the pairs of lower id lo (enumerateCandidates counted them), for the
    // live ids `[idLo, idHi]` alone (none below idLo: counts[idLo] is 0).
    const counts = this.loCounts;
    const idLo = this.idLo;
    const idHi = this.idHi;
    for (let id = idLo + 1; id <= idHi + 1; id++) counts[id] += counts[id - 1];
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const at = counts[lo]++;
      los[at] = lo;
      his[at] = key - lo * PAIR_KEY_BASE;
    }
    // counts[lo] is now the end of lo's run.
    const box = this.proxies.box;
    // Room for every candidate in the output up front (at most its limit: past it, room()
    // throws as before): grown by doubling from 256 as it filled, a first build's output was
    // reallocated and copied nine times (scene (b) at 50,000 bodies: 81,000 pairs).
    if (out !== null) out.reserve(Math.min(n, out.limit));
    // Keys written to the output's storage directly (PairSet.room); no output: none are kept.
    let outKeys = out !== null ? out.storage : keys;
    let w = 0;
    let start = 0;
    for (let lo = idLo; lo <= idHi; lo++) {
      const end = counts[lo];
      if (end === start) continue;
      const base = lo * PAIR_KEY_BASE;
      if (end - start > INSERTION_SORT_MAX_RUN) {
        for (let i = start; i < end; i++) keys[i] = base + his[i];
        heapSortRange(keys, start, end);
        for (let i = start; i < end; i++) his[i] = keys[i] - base;
      } else {
        for (let i = start + 1; i < end; i++) {
          const v = his[i];
          let j = i - 1;
          while (j >= start && his[j] > v) {
            his[j + 1] = his[j];
            j--;
          }
          his[j + 1] = v;
        }
        for (let i = start; i < end; i++) keys[i] = base + his[i];
      }
      if (out !== null) {
        // The filter of filterCandidates, the same test (packedBoxesApart) in the same order.
        const a = 6 * lo;
        for (let i = start; i < end; i++) {
          const b = 6 * his[i];
          if (packedBoxesApart(box, a, b) === 0) {
            if (w === outKeys.length) {
              out.setSize(w);
              outKeys = out.room();
            }
            outKeys[w++] = keys[i];
          }
        }
      }
      start = end;
    }
    if (out !== null) out.setSize(w);
  }

  /**
   * Reports every proxy whose box overlaps or touches `[min, max]`: the grid cells the query box
   * covers (or all bodies, when that is cheaper), then the overflow list.
   */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    checkBox("query", min, max);
    this.ensureBuilt();
    const box = this.proxies.box;
    const range = this.range;
    const s = this.s;
    let n = 0;
    const x0 = Math.floor(min.x / s);
    const y0 = Math.floor(min.y / s);
    const z0 = Math.floor(min.z / s);
    const x1 = Math.floor(max.x / s);
    const y1 = Math.floor(max.y / s);
    const z1 = Math.floor(max.z / s);
    const cells = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
    const indexable = Math.max(-x0, -y0, -z0, x1, y1, z1) <= MAX_CELL_INDEX;
    if (indexable && cells <= this.normalCount) {
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          for (let z = z0; z <= z1; z++) {
            const slot = this.lookup(x, y, z);
            if (slot < 0) continue;
            const start = this.slotStart[slot];
            const end = start + this.slotCount[slot];
            for (let e = start; e < end; e++) {
              const id = this.pBody[e];
              const k = 6 * id;
              if (
                box[k] <= max.x &&
                min.x <= box[k + 3] &&
                box[k + 1] <= max.y &&
                min.y <= box[k + 4] &&
                box[k + 2] <= max.z &&
                min.z <= box[k + 5] &&
                Math.max(range[k], x0) === x &&
                Math.max(range[k + 1], y0) === y &&
                Math.max(range[k + 2], z0) === z
              ) {
                n++;
                if (Array.isArray(out)) out.push(id);
                else if (out(id) === false) return n;
              }
            }
          }
        }
      }
    } else {
      const { live, count } = this.proxies;
      for (let i = 0; i < count; i++) {
        const id = live[i];
        if (this.isOverflow[id] === 1) continue;
        if (this.boxTouches(id, min, max)) {
          n++;
          if (Array.isArray(out)) out.push(id);
          else if (out(id) === false) return n;
        }
      }
    }
    for (let o = 0; o < this.overflowCount; o++) {
      const id = this.overflow[o];
      if (this.boxTouches(id, min, max)) {
        n++;
        if (Array.isArray(out)) out.push(id);
        else if (out(id) === false) return n;
      }
    }
    return n;
  }

  /**
   * Visits every proxy whose box the segment touches: the overflow list first, then the grid
   * cells along the segment slab by slab (one cell thick along the direction's dominant axis,
   * near to far, widened by `GRID_TRAVERSAL_PADDING` against rounding), or every body when the
   * segment crosses more than 4 slabs per body (then a scan is cheaper).
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    checkRay(origin, dir, maxToi);
    this.ensureBuilt();
    const o = this.rayO;
    const d = this.rayD;
    o[0] = origin.x;
    o[1] = origin.y;
    o[2] = origin.z;
    d[0] = dir.x;
    d[1] = dir.y;
    d[2] = dir.z;
    this.rayTMax = maxToi;
    this.rayVisits = 0;
    this.rayCallback = callback;
    this.visitGeneration++;
    if (this.visitGeneration >= STAMP_LIMIT) {
      this.visitStamp.fill(0);
      this.visitGeneration = 1;
    }
    try {
      this.castRayInner();
    } finally {
      this.rayCallback = null;
    }
    return this.rayVisits;
  }

  private castRayInner(): void {
    for (let i = 0; i < this.overflowCount; i++) {
      if (this.rayVisit(this.overflow[i])) return;
    }
    if (this.normalCount === 0) return;
    const o = this.rayO;
    const d = this.rayD;
    const s = this.s;
    const b = this.bounds;
    const t0 = raySegmentBoxEntry(o[0], o[1], o[2], d[0], d[1], d[2], this.rayTMax, b, 0);
    if (t0 < 0) return;
    const ax = Math.abs(d[0]);
    const ay = Math.abs(d[1]);
    const az = Math.abs(d[2]);
    const k = ax >= ay ? (ax >= az ? 0 : 2) : ay >= az ? 1 : 2;
    const dk = d[k];
    if (dk === 0) {
      this.visitSubSegment(t0, t0);
      return;
    }
    const step = dk > 0 ? 1 : -1;
    const pk = o[k] + t0 * dk;
    const pad = GRID_TRAVERSAL_PADDING * (s + Math.abs(pk));
    let c = Math.floor((dk > 0 ? pk - pad : pk + pad) / s);
    const cBound = Math.floor((dk > 0 ? b[3 + k] : b[k]) / s);
    const slabs = Math.abs(cBound - c) + 1;
    if (!(slabs <= RAY_SLABS_PER_BODY * this.normalCount)) {
      this.rayScanNormal();
      return;
    }
    for (let iter = 0; iter <= slabs; iter++) {
      let ta = ((dk > 0 ? c : c + 1) * s - o[k]) / dk;
      let tb = ((dk > 0 ? c + 1 : c) * s - o[k]) / dk;
      if (iter === 0 || ta < t0) ta = t0;
      if (ta > this.rayTMax) return;
      if (tb > this.rayTMax) tb = this.rayTMax;
      if (tb < ta) tb = ta;
      if (!Number.isFinite(tb)) {
        // Only for a direction so small that the slab parameters overflow: scan instead.
        this.rayScanNormal();
        return;
      }
      if (this.visitSubSegment(ta, tb)) return;
      if (c === cBound) return;
      c += step;
    }
  }

  /** Tests every normal body against the current segment (the fallback of the grid walk). */
  private rayScanNormal(): void {
    const { live, count } = this.proxies;
    for (let i = 0; i < count; i++) {
      const id = live[i];
      if (this.isOverflow[id] === 0 && this.rayVisit(id)) return;
    }
  }

  /** Visits the bodies of the cells covering the sub-segment `[ta, tb]`; true when stopped. */
  private visitSubSegment(ta: number, tb: number): boolean {
    const o = this.rayO;
    const d = this.rayD;
    const s = this.s;
    const b = this.bounds;
    let x0 = 0;
    let x1 = 0;
    let y0 = 0;
    let y1 = 0;
    let z0 = 0;
    let z1 = 0;
    for (let j = 0; j < 3; j++) {
      const pa = o[j] + ta * d[j];
      const pb = o[j] + tb * d[j];
      const lo = Math.min(pa, pb);
      const hi = Math.max(pa, pb);
      const pad = GRID_TRAVERSAL_PADDING * (s + Math.max(Math.abs(lo), Math.abs(hi)));
      const c0 = Math.max(Math.floor((lo - pad) / s), Math.floor(b[j] / s));
      const c1 = Math.min(Math.floor((hi + pad) / s), Math.floor(b[3 + j] / s));
      if (j === 0) {
        x0 = c0;
        x1 = c1;
      } else if (j === 1) {
        y0 = c0;
        y1 = c1;
      } else {
        z0 = c0;
        z1 = c1;
      }
    }
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        for (let z = z0; z <= z1; z++) {
          const slot = this.lookup(x, y, z);
          if (slot < 0) continue;
          const start = this.slotStart[slot];
          const end = start + this.slotCount[slot];
          for (let e = start; e < end; e++) {
            if (this.rayVisit(this.pBody[e])) return true;
          }
        }
      }
    }
    return false;
  }

  /** Tests one body against the current segment (once per cast); true when the cast stops. */
  private rayVisit(id: number): boolean {
    if (this.visitStamp[id] === this.visitGeneration) return false;
    this.visitStamp[id] = this.visitGeneration;
    const o = this.rayO;
    const d = this.rayD;
    const t = raySegmentBoxEntry(
      o[0],
      o[1],
      o[2],
      d[0],
      d[1],
      d[2],
      this.rayTMax,
      this.proxies.box,
      6 * id,
    );
    if (t < 0) return false;
    this.rayVisits++;
    const r = (this.rayCallback as RayCastCallback)(id, t);
    if (typeof r === "number") {
      if (r < 0) return true;
      if (r < this.rayTMax) this.rayTMax = r;
    }
    return false;
  }

  private boxTouches(id: number, min: Vec3, max: Vec3): boolean {
    const box = this.proxies.box;
    const k = 6 * id;
    return (
      box[k] <= max.x &&
      min.x <= box[k + 3] &&
      box[k + 1] <= max.y &&
      min.y <= box[k + 4] &&
      box[k + 2] <= max.z &&
      min.z <= box[k + 5]
    );
  }

  /**
   * Brings the grid and the candidates up to date: a full rebuild or the moved bodies only.
   * Returns true when it also filled `out` with the pairs (an update merges and filters in one
   * pass; a rebuild filters as it sorts the candidates).
   */
  private ensureBuilt(out: PairSet | null = null): boolean {
    const count = this.proxies.count;
    if (this.built) {
      if (this.movedCount === 0) return false;
      const resize =
        this.options.cellSize === 0 &&
        (count >= 2 * this.sizedAtCount || 2 * count <= this.sizedAtCount);
      // Integer arithmetic: a double product would be allocated while this runs unoptimized.
      if (!resize && this.movedCount * INCREMENTAL_MAX_DIVISOR <= count && this.update(out)) {
        return out !== null;
      }
    }
    this.rebuild(out);
    return out !== null;
  }

  /**
   * Writes the fat box of `id` for the current cell side `s`, kept finite at the ends of the
   * double range. Its margin is `id`'s own (from its motion) within the bounds for `s`.
   * No double crosses a call here (the margin is computed inline, `s` read from the field): a
   * double passed to or returned by a call V8 does not inline is boxed, and whether it inlines
   * depends on the caller's inlining budget (`update` is large) — a `marginOf(id, s)` helper
   * measured 1.6 KB per step in the steady-state probe.
   */
  private writeFat(id: number): void {
    const s = this.s;
    const box = this.proxies.box;
    const fat = this.fat;
    const k = 6 * id;
    const pad = this.pad[id];
    const margin =
      pad < 0
        ? UNKNOWN_MOTION_MARGIN_CELLS * s
        : Math.min(MAX_MARGIN_CELLS * s, Math.max(SPATIAL_HASH_FAT_MARGIN * s, pad));
    for (let j = 0; j < 3; j++) {
      fat[k + j] = Math.max(-Number.MAX_VALUE, box[k + j] - margin);
      fat[k + 3 + j] = Math.min(Number.MAX_VALUE, box[k + 3 + j] + margin);
    }
  }

  /**
   * Updates the bodies of the move buffer alone (module docs). Returns false, having changed
   * only their fat boxes, when it cannot (a cell index past MAX_CELL_INDEX or a table that
   * would fill): the caller then rebuilds.
   */
  private update(pairs: PairSet | null): boolean {
    const s = this.s;
    const maxCells = this.options.maxCellsPerBody;
    const moved = this.moved;
    const m = this.movedCount;
    const fat = this.fat;
    // Check first, change nothing yet.
    let newCells = 0;
    for (let i = 0; i < m; i++) {
      const id = moved[i];
      if (!this.proxies.has(id)) continue;
      this.writeFat(id);
      const k = 6 * id;
      let cells = 1;
      let far = false;
      for (let j = 0; j < 3; j++) {
        const lo = Math.floor(fat[k + j] / s);
        const hi = Math.floor(fat[k + 3 + j] / s);
        // Past the largest cell index: the body goes to the overflow list (place()).
        if (Math.max(-lo, hi) > MAX_CELL_INDEX) far = true;
        cells *= hi - lo + 1;
      }
      if (!far && cells <= maxCells) newCells += cells;
    }
    if (2 * (this.occupiedCount + newCells) > this.slotStamp.length) return false;
    if (this.poolTop > POOL_REBUILD_RATIO * (this.liveEntries + newCells) + MIN_TABLE_CAPACITY) {
      return false;
    }
    this.occupied = growInt32(this.occupied, this.occupiedCount + newCells);
    const gen = this.movedGeneration;
    if (this.parallelCells(m)) {
      // The same in classes of cells on the runner's threads (src/broadphase/cell-update.ts).
      this.updateCellsParallel();
    } else {
      // Unlink the moved bodies, then link the present ones at their new cells.
      for (let i = 0; i < m; i++) {
        const id = moved[i];
        if (this.inGrid[id] === 1) this.unlink(id);
        if (this.isOverflow[id] === 1) this.removeOverflow(id);
        if (this.proxies.has(id)) this.place(id);
      }
    }
    // New candidates of the moved bodies: each pair once (module docs), sorted in newKeys.
    const nk = this.queryMovedCells();
    if (
      this.runner !== null &&
      this.shared &&
      this.candidates.size > CANDIDATE_MERGE_CHUNK &&
      this.candidates.size + nk <= this.candidatesNext.limit
    ) {
      this.mergeParallel(pairs, nk);
      return true;
    }
    // Merge the kept candidates (no moved body) with the new ones, in order, and filter them by
    // the current boxes into `pairs` on the way.
    const old = this.candidates;
    const out = this.candidatesNext;
    out.clear();
    const keys = this.newKeys;
    const stamp = this.movedStamp;
    const oldLo = this.candidateLo;
    const oldHi = this.candidateHi;
    const na = old.size;
    if (this.nextLo.length < na + nk) {
      this.nextLo = growInt32Mem(this.nextLo, na + nk, this.shared);
      this.nextHi = growInt32Mem(this.nextHi, na + nk, this.shared);
    }
    const newLo = this.nextLo;
    const newHi = this.nextHi;
    const box = this.proxies.box;
    // Keys written to the storages directly (PairSet.room).
    let outKeys = out.storage;
    let ow = 0;
    let pairKeys = pairs !== null ? pairs.storage : outKeys;
    let pw = pairs !== null ? pairs.size : 0;
    let a = 0;
    let b = 0;
    let c = 0;
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
        key = old.keyAt(a);
        if (b < nk && keys[b] < key) {
          key = keys[b++];
          lo = Math.floor(key / PAIR_KEY_BASE);
          hi = key - lo * PAIR_KEY_BASE;
        } else a++;
      } else {
        key = keys[b++];
        lo = Math.floor(key / PAIR_KEY_BASE);
        hi = key - lo * PAIR_KEY_BASE;
      }
      if (ow === outKeys.length) {
        out.setSize(ow);
        outKeys = out.room();
      }
      outKeys[ow++] = key;
      newLo[c] = lo;
      newHi[c++] = hi;
      if (pairs !== null) {
        const p = 6 * lo;
        const q = 6 * hi;
        const separated =
          +(box[p] > box[q + 3]) |
          +(box[q] > box[p + 3]) |
          +(box[p + 1] > box[q + 4]) |
          +(box[q + 1] > box[p + 4]) |
          +(box[p + 2] > box[q + 5]) |
          +(box[q + 2] > box[p + 5]);
        if (separated === 0) {
          if (pw === pairKeys.length) {
            pairs.setSize(pw);
            pairKeys = pairs.room();
          }
          pairKeys[pw++] = key;
        }
      }
    }
    out.setSize(ow);
    if (pairs !== null) pairs.setSize(pw);
    this.finishUpdate();
    return true;
  }

  /** The end of an update: the merged candidates become current; the move buffer empties. */
  private finishUpdate(): void {
    const old = this.candidates;
    const oldLo = this.candidateLo;
    const oldHi = this.candidateHi;
    this.candidates = this.candidatesNext;
    this.candidatesNext = old;
    this.candidateLo = this.nextLo;
    this.candidateHi = this.nextHi;
    this.nextLo = oldLo;
    this.nextHi = oldHi;
    this.movedCount = 0;
    this.nextMovedGeneration();
  }

  /**
   * The candidate merge of {@link update} in chunks run over the threads of the runner
   * (src/broadphase/candidate-merge.ts): the same candidates and pairs, in the same order, as
   * the merge on one thread. `nk` new keys are sorted in `newKeys`.
   */
  private mergeParallel(pairs: PairSet | null, nk: number): void {
    const old = this.candidates;
    const out = this.candidatesNext;
    const na = old.size;
    const total = na + nk;
    // No moved body and no new key: the candidates stay; the chunks only filter them.
    const filterOnly = nk === 0 && this.movedCount === 0 && pairs !== null;
    if (!filterOnly) {
      out.clear();
      out.reserve(total);
    }
    if (this.nextLo.length < total) {
      this.nextLo = growInt32Mem(this.nextLo, total, true);
      this.nextHi = growInt32Mem(this.nextHi, total, true);
    }
    if (this.pairScratch.length < total) {
      this.pairScratch = growFloat64Mem(this.pairScratch, total, true);
    }
    const job = this.mergeJob;
    job.oldCount = na;
    const chunks = candidateMergeChunks(job);
    if (this.chunkLengths.length < 2 * chunks) {
      this.chunkLengths = growInt32Mem(this.chunkLengths, 2 * chunks, true);
    }
    job.oldKeys = old.storage;
    job.oldLo = this.candidateLo;
    job.oldHi = this.candidateHi;
    job.oldCount = na;
    job.newKeys = this.newKeys;
    job.newCount = nk;
    job.movedStamp = this.movedStamp;
    job.generation = this.movedGeneration;
    job.box = this.proxies.box;
    job.filter = filterOnly ? CANDIDATE_FILTER_ONLY : pairs !== null ? 1 : 0;
    job.outKeys = out.storage;
    job.outLo = this.nextLo;
    job.outHi = this.nextHi;
    job.pairKeys = this.pairScratch;
    job.chunkLengths = this.chunkLengths;
    (this.runner as CandidateMergeRunner).runCandidateMerge(job, chunks);
    this.parallelMerges++;
    this.mergePairs = pairs;
    try {
      compactCandidateMerge(job, chunks, this.emitPairs);
    } finally {
      this.mergePairs = null;
    }
    if (filterOnly) return;
    out.setSize(job.outCount);
    this.finishUpdate();
  }

  /** Appends the key of pair (a, b) to `cellKeys[n]`; returns n + 1. */
  private pushKey(n: number, a: number, b: number): number {
    if (n === this.cellKeys.length) {
      this.cellKeys = growFloat64Mem(this.cellKeys, n + 1, this.shared);
    }
    this.cellKeys[n] = a < b ? a * PAIR_KEY_BASE + b : b * PAIR_KEY_BASE + a;
    return n + 1;
  }

  /**
   * True when the `m` moved bodies' cell jobs (their update and their queries) go through the
   * runner: it has threads for them and more than one chunk of queries moved.
   */
  private parallelCells(m: number): boolean {
    return (
      this.runner !== null &&
      this.shared &&
      this.runner.runCellQueries !== undefined &&
      m > CELL_QUERY_CHUNK
    );
  }

  /** Points the cell job at the grid's current arrays, for the `m` bodies of the move buffer. */
  private fillCellJob(m: number): void {
    const job = this.cellJob;
    job.moved = this.moved;
    job.movedCount = m;
    job.movedStamp = this.movedStamp;
    job.generation = this.movedGeneration;
    job.inGrid = this.inGrid;
    job.fat = this.fat;
    job.range = this.range;
    job.oldRange = this.movedRange;
    job.slotX = this.slotX;
    job.slotY = this.slotY;
    job.slotZ = this.slotZ;
    job.slotStamp = this.slotStamp;
    job.slotStart = this.slotStart;
    job.slotCount = this.slotCount;
    job.slotCap = this.slotCap;
    job.tableShift = this.tableShift;
    job.tableGeneration = this.generation;
    job.pBody = this.pBody;
  }

  /**
   * The unlinking and re-placement of {@link update}'s moved bodies as a cell update job on the
   * runner's threads (src/broadphase/cell-update.ts): here the overflow list, the counts, the
   * bounds and the new ranges, body after body as `unlink` and `place` do; there the cell
   * entries, in classes of cells; here again the operations the classes deferred, class by
   * class, and a class that ran out of room on from where it stopped. Every cell ends
   * with the entries `unlink` and `place` leave, in the same order.
   */
  private updateCellsParallel(): void {
    this.shareCellTables();
    const m = this.movedCount;
    const moved = this.moved;
    if (this.movedRange.length < 12 * m) {
      this.movedRange = growFloat64Mem(this.movedRange, 12 * m, true);
    }
    const old = this.movedRange;
    const range = this.range;
    const fat = this.fat;
    const inGrid = this.inGrid;
    const b = this.bounds;
    const s = this.s;
    const maxCells = this.options.maxCellsPerBody;
    let ops = 0;
    for (let i = 0; i < m; i++) {
      const id = moved[i];
      const k = 6 * id;
      const o = 12 * i;
      // Empty ranges (nothing to unlink, nothing to link) unless set below.
      for (let j = 0; j < 3; j++) {
        old[o + j] = 0;
        old[o + 3 + j] = -1;
        old[o + 6 + j] = 0;
        old[o + 9 + j] = -1;
      }
      if (inGrid[id] === 1) {
        for (let j = 0; j < 6; j++) old[o + j] = range[k + j];
        const cells =
          (range[k + 3] - range[k] + 1) *
          (range[k + 4] - range[k + 1] + 1) *
          (range[k + 5] - range[k + 2] + 1);
        this.liveEntries -= cells;
        ops += cells;
        inGrid[id] = 0;
        this.normalCount--;
      }
      if (this.isOverflow[id] === 1) this.removeOverflow(id);
      if (!this.proxies.has(id)) continue;
      for (let j = 0; j < 6; j++) range[k + j] = Math.floor(fat[k + j] / s);
      const cells =
        (range[k + 3] - range[k] + 1) *
        (range[k + 4] - range[k + 1] + 1) *
        (range[k + 5] - range[k + 2] + 1);
      if (cells > maxCells || beyondCellIndex(range, k)) {
        this.addOverflow(id);
        continue;
      }
      for (let j = 0; j < 3; j++) {
        if (fat[k + j] < b[j]) b[j] = fat[k + j];
        if (fat[k + 3 + j] > b[3 + j]) b[3 + j] = fat[k + 3 + j];
      }
      for (let j = 0; j < 6; j++) old[o + 6 + j] = range[k + j];
      this.liveEntries += cells;
      ops += cells;
      inGrid[id] = 1;
      this.normalCount++;
    }
    // Each class's room: twice its share of the operations, and room for the most cells one body
    // may leave and enter (integer arithmetic).
    const classes = 1 << CELL_UPDATE_CLASS_BITS;
    const R = CELL_UPDATE_RECORD;
    const room = R * (((2 * ops) >> CELL_UPDATE_CLASS_BITS) + 2 * maxCells + 64);
    const keysNeeded = CELL_UPDATE_BASE + classes * room;
    if (this.cellKeys.length < keysNeeded) {
      this.cellKeys = growFloat64Mem(this.cellKeys, keysNeeded, true);
    }
    if (this.cellLengths.length < 2 * classes) {
      this.cellLengths = growInt32Mem(this.cellLengths, 2 * classes, true);
    }
    const job = this.cellJob;
    this.fillCellJob(m);
    job.update = CELL_JOB_UPDATE;
    job.classBits = CELL_UPDATE_CLASS_BITS;
    const queryRoom = job.chunkRoom;
    job.chunkRoom = room;
    job.keys = this.cellKeys;
    job.chunkLengths = this.cellLengths;
    this.cellLengths.fill(-1, 0, classes);
    try {
      (this.runner as Required<CandidateMergeRunner>).runCellQueries(job, classes);
      this.parallelCellUpdates++;
      const lengths = this.cellLengths;
      for (let c = 0; c < classes; c++) {
        for (;;) {
          if (lengths[c] > 0) this.replayDeferred(c, room);
          if (lengths[classes + c] >= m) break;
          // The class ran out of room: on from where it stopped, here.
          this.cellUpdateResumes++;
          cellUpdateChunk(job, c, lengths[classes + c]);
        }
      }
    } finally {
      job.chunkRoom = queryRoom;
      job.update = 0;
    }
  }

  /**
   * Replays, in order, the operations class `c` of a cell update deferred
   * (src/broadphase/cell-update.ts): removals and appends whose cell had no slot or a full block.
   * Rare, so V8 may run it unoptimised: it moves only integers (entries are bodies).
   */
  private replayDeferred(c: number, room: number): void {
    const keys = this.cellKeys;
    const moved = this.moved;
    const R = CELL_UPDATE_RECORD;
    const from = CELL_UPDATE_BASE + c * room;
    const to = from + this.cellLengths[c] * R;
    this.deferredCellOps += this.cellLengths[c];
    for (let r = from; r < to; r += R) {
      const code = keys[r];
      const id = moved[code >> 1];
      const x = keys[r + 1];
      const y = keys[r + 2];
      const z = keys[r + 3];
      if ((code & 1) === 0) {
        const slot = this.lookup(x, y, z);
        const cap = this.slotCap[slot];
        if (cap < 0) this.slotCap[slot] = -cap - 1;
        const start = this.slotStart[slot];
        let e = start;
        while (this.pBody[e] !== id) e++;
        const last = start + --this.slotCount[slot];
        if (e !== last) this.pBody[e] = this.pBody[last];
      } else {
        const slot = this.findOrInsert(x, y, z);
        const cap = this.slotCap[slot];
        if (cap < 0) this.slotCap[slot] = -cap - 1;
        const e = this.append(slot);
        this.pBody[e] = id;
      }
    }
  }

  /**
   * The new candidates of the moved bodies, each pair once, sorted into `newKeys`; returns
   * their number. The moved bodies are linked at their new cells. The grid bodies' cell
   * queries run in chunks (src/broadphase/cell-query.ts), on the runner's threads when it has
   * them; the pairs with an overflow body are found here, serially. The keys are unique, so
   * the sorted list is the same however the chunks ran.
   */
  private queryMovedCells(): number {
    const m = this.movedCount;
    const job = this.cellJob;
    const parallel = this.parallelCells(m);
    if (parallel) this.shareCellTables();
    this.fillCellJob(m);
    job.update = 0;
    const chunks = cellQueryChunks(job);
    if (this.cellLengths.length < chunks + 1) {
      this.cellLengths = growInt32Mem(this.cellLengths, chunks + 1, this.shared);
    }
    // Not tied to cellLengths, which the cell update also grows.
    if (this.runStart.length < chunks + 1) {
      this.runStart = growInt32(this.runStart, chunks + 1);
      this.runEnd = growInt32(this.runEnd, chunks + 1);
      this.runHeap = growInt32(this.runHeap, chunks + 1);
    }
    job.chunkLengths = this.cellLengths;
    if (this.cellKeys.length < chunks * job.chunkRoom) {
      this.cellKeys = growFloat64Mem(this.cellKeys, chunks * job.chunkRoom, this.shared);
    }
    job.keys = this.cellKeys;
    this.cellLengths.fill(-1, 0, chunks);
    if (parallel && chunks >= 2) {
      (this.runner as Required<CandidateMergeRunner>).runCellQueries(job, chunks);
      this.parallelCellQueries++;
    } else {
      for (let c = 0; c < chunks; c++) cellQueryChunk(job, c);
    }
    let most = 0;
    for (let c = 0; c < chunks; c++) most = Math.max(most, this.cellLengths[c]);
    if (most > job.chunkRoom) {
      // A chunk found more keys than its room: grow the room, run every chunk again (here).
      let room = job.chunkRoom;
      while (room < most) room *= 2;
      job.chunkRoom = room;
      this.cellKeys = growFloat64Mem(this.cellKeys, chunks * room, this.shared);
      job.keys = this.cellKeys;
      for (let c = 0; c < chunks; c++) cellQueryChunk(job, c);
    }
    const room = job.chunkRoom;
    const starts = this.runStart;
    const ends = this.runEnd;
    let total = 0;
    for (let c = 0; c < chunks; c++) {
      starts[c] = c * room;
      ends[c] = c * room + this.cellLengths[c];
      total += this.cellLengths[c];
    }
    // Pairs with an overflow body, serially, as one more sorted run after the chunks' regions.
    const from = chunks * room;
    let n = from;
    const moved = this.moved;
    const gen = this.movedGeneration;
    const fat = this.fat;
    for (
      let i = 0;
      i < m && (this.overflowCount > 0 || this.normalCount < this.proxies.count);
      i++
    ) {
      const id = moved[i];
      if (!this.proxies.has(id)) continue;
      const k = 6 * id;
      if (this.inGrid[id] === 1) {
        for (let o = 0; o < this.overflowCount; o++) {
          const j = this.overflow[o];
          if (this.movedStamp[j] === gen) continue;
          if (boxesOverlap(fat, k, fat, 6 * j)) n = this.pushKey(n, id, j);
        }
      } else {
        const { live, count } = this.proxies;
        for (let l = 0; l < count; l++) {
          const j = live[l];
          if (j === id) continue;
          if (j < id && this.isOverflow[j] === 1 && this.movedStamp[j] === gen) continue;
          if (boxesOverlap(fat, k, fat, 6 * j)) n = this.pushKey(n, id, j);
        }
      }
    }
    heapSortRange(this.cellKeys, from, n);
    starts[chunks] = from;
    ends[chunks] = n;
    total += n - from;
    if (this.newKeys.length < total) {
      this.newKeys = growFloat64Mem(this.newKeys, total, this.shared);
    }
    return mergeSortedRuns(this.cellKeys, starts, ends, chunks + 1, this.runHeap, this.newKeys);
  }

  /**
   * Moves the arrays the cell queries read into shared memory where they are not yet (after a
   * rebuild or a growth replaced one): nothing to do in a steady state.
   */
  private shareCellTables(): void {
    this.moved = toSharedInt32(this.moved, true);
    this.fat = toSharedFloat64(this.fat, true);
    this.range = toSharedFloat64(this.range, true);
    this.slotX = toSharedFloat64(this.slotX, true);
    this.slotY = toSharedFloat64(this.slotY, true);
    this.slotZ = toSharedFloat64(this.slotZ, true);
    this.slotStamp = toSharedInt32(this.slotStamp, true);
    this.slotStart = toSharedInt32(this.slotStart, true);
    this.slotCount = toSharedInt32(this.slotCount, true);
    this.slotCap = toSharedInt32(this.slotCap, true);
    this.movedRange = toSharedFloat64(this.movedRange, true);
    this.pBody = toSharedInt32(this.pBody, true);
    if (!(this.inGrid.buffer instanceof SharedArrayBuffer)) {
      const a = new Uint8Array(new SharedArrayBuffer(this.inGrid.length));
      a.set(this.inGrid);
      this.inGrid = a;
    }
  }

  /** Removes the cell entries of `id` (found in the cells of its range): swap with the last. */
  private unlink(id: number): void {
    const range = this.range;
    const bodies = this.pBody;
    const k = 6 * id;
    for (let x = range[k]; x <= range[k + 3]; x++) {
      for (let y = range[k + 1]; y <= range[k + 4]; y++) {
        for (let z = range[k + 2]; z <= range[k + 5]; z++) {
          const slot = this.lookup(x, y, z);
          let e = this.slotStart[slot];
          while (bodies[e] !== id) e++;
          const last = this.slotStart[slot] + --this.slotCount[slot];
          if (e !== last) bodies[e] = bodies[last];
        }
      }
    }
    this.liveEntries -= this.cellCount(id);
    this.inGrid[id] = 0;
    this.normalCount--;
  }

  /** Cells of `id`'s range. */
  private cellCount(id: number): number {
    const r = this.range;
    const k = 6 * id;
    return (r[k + 3] - r[k] + 1) * (r[k + 4] - r[k + 1] + 1) * (r[k + 5] - r[k + 2] + 1);
  }

  private removeOverflow(id: number): void {
    const p = this.overflowPos[id];
    const last = this.overflow[--this.overflowCount];
    this.overflow[p] = last;
    this.overflowPos[last] = p;
    this.isOverflow[id] = 0;
  }

  private addOverflow(id: number): void {
    this.overflow = growInt32(this.overflow, this.overflowCount + 1);
    this.overflowPos[id] = this.overflowCount;
    this.overflow[this.overflowCount++] = id;
    this.isOverflow[id] = 1;
  }

  /** Places `id` (fat box written) in the overflow list or at the head of its cells' lists. */
  private place(id: number): void {
    const s = this.s;
    const fat = this.fat;
    const range = this.range;
    const k = 6 * id;
    for (let j = 0; j < 6; j++) range[k + j] = Math.floor(fat[k + j] / s);
    const cells =
      (range[k + 3] - range[k] + 1) *
      (range[k + 4] - range[k + 1] + 1) *
      (range[k + 5] - range[k + 2] + 1);
    if (cells > this.options.maxCellsPerBody || beyondCellIndex(range, k)) {
      this.addOverflow(id);
      return;
    }
    const b = this.bounds;
    for (let j = 0; j < 3; j++) {
      if (fat[k + j] < b[j]) b[j] = fat[k + j];
      if (fat[k + 3 + j] > b[3 + j]) b[3 + j] = fat[k + 3 + j];
    }
    for (let x = range[k]; x <= range[k + 3]; x++) {
      for (let y = range[k + 1]; y <= range[k + 4]; y++) {
        for (let z = range[k + 2]; z <= range[k + 5]; z++) {
          const slot = this.findOrInsert(x, y, z);
          const e = this.append(slot);
          this.pBody[e] = id;
        }
      }
    }
    this.liveEntries += cells;
    this.inGrid[id] = 1;
    this.normalCount++;
  }

  /**
   * Claims the next entry of `slot`'s block and returns its index; a full block first moves to
   * the pool's end with twice the room.
   */
  private append(slot: number): number {
    const count = this.slotCount[slot];
    if (count === this.slotCap[slot]) {
      const cap = Math.max(MIN_CELL_ROOM, 2 * count);
      const from = this.slotStart[slot];
      const to = this.poolTop;
      this.poolTop += cap;
      this.growPool(this.poolTop);
      this.pBody.copyWithin(to, from, from + count);
      this.slotStart[slot] = to;
      this.slotCap[slot] = cap;
    }
    this.slotCount[slot] = count + 1;
    return this.slotStart[slot] + count;
  }

  /** Makes the pool hold at least `n` entries. */
  private growPool(n: number): void {
    if (n <= this.pBody.length) return;
    this.pBody = growInt32Mem(this.pBody, n, this.shared);
  }

  /**
   * Makes the pool hold at least `n` entries for a rebuild, which writes every entry anew: a
   * larger pool is allocated without copying the old one, and as large as asked (twice the
   * old one when that is larger), not rounded up to a power of two — the first build of scene
   * (b) at 50,000 bodies allocated 76 MB of pool for 25 MB of entries.
   */
  private reservePool(n: number): void {
    if (n <= this.pBody.length) return;
    const cap = Math.max(n, 2 * this.pBody.length);
    this.pBody = new Int32Array(cap);
  }

  /**
   * Rebuilds the cell table, the entries and the candidates from the current boxes; `out`, when
   * given, receives the pairs whose current boxes overlap (filtered as the candidates are sorted).
   */
  private rebuild(out: PairSet | null): void {
    this.rebuilds++;
    const { box, live, count } = this.proxies;
    if (this.options.cellSize > 0) this.cell = this.options.cellSize;
    else if (this.cell === 0 || count >= 2 * this.sizedAtCount || 2 * count <= this.sizedAtCount) {
      this.recomputeCellSize();
    }
    let maxAbs = 0;
    for (let i = 0; i < count; i++) {
      const k = 6 * live[i];
      for (let j = 0; j < 6; j++) {
        const a = Math.abs(box[k + j]);
        if (a > maxAbs) maxAbs = a;
      }
    }
    // Room for the margin: fat boxes reach at most half a cell beyond the boxes. The cell is
    // raised for the bulk of the bodies only: a few bodies far from the rest (beyond the 99th
    // percentile of the coordinates' magnitude) go to the overflow list, so that one body
    // teleported to 1e15 does not put every other body in one cell.
    let reach = maxAbs;
    if (maxAbs / (MAX_CELL_INDEX / 2) > this.cell && count > 1) {
      this.sizes = growFloat64(this.sizes, count);
      for (let i = 0; i < count; i++) {
        const k = 6 * live[i];
        let a = 0;
        for (let j = 0; j < 6; j++) a = Math.max(a, Math.abs(box[k + j]));
        this.sizes[i] = a;
      }
      heapSortRange(this.sizes, 0, count);
      reach = this.sizes[Math.floor(OVERFLOW_QUANTILE * (count - 1))];
    }
    const s = Math.max(this.cell, reach / (MAX_CELL_INDEX / 2));
    this.s = s;
    const fat = this.fat;
    const range = this.range;
    const maxCells = this.options.maxCellsPerBody;
    const bounds = this.bounds;
    bounds.fill(Infinity, 0, 3);
    bounds.fill(-Infinity, 3, 6);
    this.inGrid.fill(0);
    this.isOverflow.fill(0);
    this.overflowCount = 0;
    this.normalCount = 0;
    let entries = 0;
    let idLo = count > 0 ? live[0] : 0;
    let idHi = idLo;
    // One pass per body: its fat box, its cell range and its place (each loop of a build runs
    // once, interpreted until V8 compiles it: fewer loops, less of that).
    for (let i = 0; i < count; i++) {
      const id = live[i];
      if (id < idLo) idLo = id;
      if (id > idHi) idHi = id;
      this.writeFat(id);
      const k = 6 * id;
      for (let j = 0; j < 6; j++) range[k + j] = Math.floor(fat[k + j] / s);
      const cells =
        (range[k + 3] - range[k] + 1) *
        (range[k + 4] - range[k + 1] + 1) *
        (range[k + 5] - range[k + 2] + 1);
      if (cells > maxCells || beyondCellIndex(range, k)) {
        this.addOverflow(id);
        continue;
      }
      this.inGrid[id] = 1;
      this.normalCount++;
      entries += cells;
      for (let j = 0; j < 3; j++) {
        if (fat[k + j] < bounds[j]) bounds[j] = fat[k + j];
        if (fat[k + 3 + j] > bounds[3 + j]) bounds[3 + j] = fat[k + 3 + j];
      }
    }
    // The slot and body of each entry before the counting pass are listed in the lo / hi arrays
    // of the next candidates, unused until an update merges into them: two scratch arrays of
    // their own were 2 MB of fresh pages on the first step of scene (b) at 50,000 bodies (490
    // page faults). (The current candidates' arrays, used before, were then replaced by
    // sortCandidates when the candidates outnumbered the entries by a quarter: 12.6 MB
    // allocated for 4.5 MB of lo / hi on scene (a) at 50,000 bodies.) Their contents are
    // scratch: not copied when they grow.
    if (this.nextLo.length < entries) {
      this.nextLo = newInt32(entries + (entries >> 2), this.shared);
      this.nextHi = newInt32(entries + (entries >> 2), this.shared);
    }
    const entrySlot = this.nextLo;
    const entryBody = this.nextHi;
    const cells = this.cellBound(entries);
    this.occupied = growInt32(this.occupied, cells);
    // Entries per cell and group (below), 8 per occupied cell, then the groups' starts.
    if (this.groupStart.length < 8 * cells + 1) this.groupStart = new Int32Array(8 * cells + 1);
    const group = this.groupStart;
    group.fill(0, 0, 8 * cells + 1);
    // A table of at least four times as many slots as there can be occupied cells: room for
    // new cells.
    this.prepareTable(2 * cells);
    this.occupiedCount = 0;
    const slotCap = this.slotCap;
    let e = 0;
    for (let i = 0; i < count; i++) {
      const id = live[i];
      if (this.inGrid[id] === 0) continue;
      const k = 6 * id;
      const rx = range[k];
      const ry = range[k + 1];
      const rz = range[k + 2];
      for (let x = rx; x <= range[k + 3]; x++) {
        for (let y = ry; y <= range[k + 4]; y++) {
          for (let z = rz; z <= range[k + 5]; z++) {
            const before = this.occupiedCount;
            const slot = this.findOrInsert(x, y, z);
            // Until the counting pass, a new cell's room holds its place among the occupied.
            if (this.occupiedCount !== before) slotCap[slot] = before;
            // The entry's group: the axes on which its body's cells start here (bit 0 x, 1 y,
            // 2 z).
            const g = +(x === rx) | (+(y === ry) << 1) | (+(z === rz) << 2);
            const code = 8 * slotCap[slot] + g;
            group[code]++;
            entrySlot[e] = code;
            entryBody[e++] = id;
          }
        }
      }
    }
    // Counting pass: each cell's entries consecutive, by group, with room to grow by a quarter
    // (at least MIN_CELL_ROOM in all), in the order of the occupied cells; `group[8i + g]`
    // becomes the start of group g of occupied cell i. On the way, the box tests that
    // enumerateCandidates will make: the pairs of groups whose bits cover the three axes.
    let start = 0;
    let tests = 0;
    for (let i = 0; i < this.occupiedCount; i++) {
      const slot = this.occupied[i];
      this.slotStart[slot] = start;
      const g8 = 8 * i;
      const n7 = group[g8 + 7];
      const n5 = group[g8 + 5];
      const n6 = group[g8 + 6];
      const below7 = at7(group, g8);
      tests +=
        n7 * below7 +
        ((n7 * (n7 - 1)) >> 1) +
        group[g8 + 1] * n6 +
        group[g8 + 2] * n5 +
        group[g8 + 3] * (group[g8 + 4] + n5 + n6) +
        n5 * n6;
      let at = start;
      for (let g = 0; g < 8; g++) {
        const n = group[8 * i + g];
        group[8 * i + g] = at;
        at += n;
      }
      const c = at - start;
      const cap = Math.max(MIN_CELL_ROOM, c + (c >> 2) + 1);
      slotCap[slot] = cap;
      this.slotCount[slot] = c;
      start += cap;
    }
    this.poolTop = start;
    this.reservePool(2 * start);
    // The scatter: `group[8i + g]` ends as the end of group g of occupied cell i (the start of
    // group g + 1; group 0 starts at the block's start).
    const pBody = this.pBody;
    for (let i = 0; i < e; i++) pBody[group[entrySlot[i]]++] = entryBody[i];
    this.liveEntries = e;
    this.idLo = idLo;
    this.idHi = idHi;
    this.enumerateCandidates(e, tests);
    this.sortCandidates(out);
    this.built = true;
    this.movedCount = 0;
    this.nextMovedGeneration();
  }

  /**
   * An upper bound of the cells a rebuild occupies: its `entries`, and no more than the cells of
   * the box around every fat box in the grid ({@link bounds}, written by the rebuild's pass over
   * the ranges). The cell table is sized from it: sized from the entries alone, it was 64 times
   * the occupied cells on scene (b) (16 entries per cell), 40 MB of slots whose pages the first
   * build touched at random.
   */
  private cellBound(entries: number): number {
    const b = this.bounds;
    const s = this.s;
    let box = 1;
    for (let j = 0; j < 3; j++) box *= Math.floor(b[3 + j] / s) - Math.floor(b[j] / s) + 1;
    return box >= 1 && box < entries ? box : entries;
  }

  /** Makes the table hold at least twice `entries` slots and starts a new generation. */
  private prepareTable(entries: number): void {
    let cap = this.slotStamp.length;
    if (cap < MIN_TABLE_CAPACITY || cap < 2 * entries) {
      cap = Math.max(MIN_TABLE_CAPACITY, cap);
      while (cap < 2 * entries) cap *= 2;
      this.slotX = new Float64Array(cap);
      this.slotY = new Float64Array(cap);
      this.slotZ = new Float64Array(cap);
      this.slotStamp = new Int32Array(cap);
      this.slotStart = new Int32Array(cap);
      this.slotCount = new Int32Array(cap);
      this.slotCap = new Int32Array(cap);
      this.generation = 0;
      this.tableShift = 32 - Math.round(Math.log2(cap));
    }
    this.generation++;
    if (this.generation >= STAMP_LIMIT) {
      this.slotStamp.fill(0);
      this.generation = 1;
    }
  }

  private hash(x: number, y: number, z: number): number {
    return cellHash(x, y, z, this.tableShift);
  }

  /** The slot of cell (x, y, z), or −1 when it was never occupied since the last rebuild. */
  private lookup(x: number, y: number, z: number): number {
    const mask = this.slotStamp.length - 1;
    let h = this.hash(x, y, z);
    for (let probe = 0; probe <= mask; probe++) {
      if (this.slotStamp[h] !== this.generation) return -1;
      if (this.slotX[h] === x && this.slotY[h] === y && this.slotZ[h] === z) return h;
      h = (h + 1) & mask;
    }
    return -1;
  }

  /** The slot of cell (x, y, z), claimed with an empty list and a zero count when new. */
  private findOrInsert(x: number, y: number, z: number): number {
    const mask = this.slotStamp.length - 1;
    let h = this.hash(x, y, z);
    for (let probe = 0; probe <= mask; probe++) {
      if (this.slotStamp[h] !== this.generation) {
        this.slotStamp[h] = this.generation;
        this.slotX[h] = x;
        this.slotY[h] = y;
        this.slotZ[h] = z;
        this.slotCount[h] = 0;
        this.slotCap[h] = 0;
        this.occupied[this.occupiedCount++] = h;
        return h;
      }
      if (this.slotX[h] === x && this.slotY[h] === y && this.slotZ[h] === z) return h;
      h = (h + 1) & mask;
    }
    // Unreachable: the table has at least twice as many slots as occupied cells.
    throw new Error("SpatialHash: cell table full");
  }
}

/**
 * Non-zero when the boxes at `box[a .. a + 5]` and `box[b .. b + 5]` (min x, y, z, max x, y, z)
 * are apart on some axis, 0 when they overlap or touch (or a coordinate is NaN): the candidate
 * filter of `filterCandidates` and of the first build's `sortCandidates`. The six interval tests
 * in one branch instead of six keep the loops free of mispredictions (their outcomes are close
 * to random; see enumerateCandidates). It takes offsets and returns a small integer, so no double
 * is boxed even where V8 does not inline it; a same-process CPU A/B against the test written out
 * in both loops (grids of 5,000 and 20,000 random boxes, first build and steady filter,
 * alternating, 60–120 reps; and a cold first build, one per process, 16 alternating pairs)
 * measured no difference beyond ±2% noise, and V8 inlined it into both.
 */
function packedBoxesApart(box: Float64Array, a: number, b: number): number {
  return (
    +(box[a] > box[b + 3]) |
    +(box[b] > box[a + 3]) |
    +(box[a + 1] > box[b + 4]) |
    +(box[b + 1] > box[a + 4]) |
    +(box[a + 2] > box[b + 5]) |
    +(box[b + 2] > box[a + 5])
  );
}
