/**
 * Uniform grid broad phase stored in a hash table of cells (Ericson 2005, §7.1–7.1.3; cell hash
 * of Teschner et al. 2003, "Optimized Spatial Hashing for Collision Detection of Deformable
 * Objects").
 *
 * Space is cut into cubic cells of side `s`; a box occupies the cells `floor(min/s) ..
 * floor(max/s)` on each axis (`Math.floor`, so negative coordinates are correct). The grid is
 * built from fat boxes, each box grown by `SPATIAL_HASH_FAT_MARGIN` × `s`, and so are the
 * candidate pairs (the pairs whose fat boxes overlap, enumerated once per build). Both stay valid
 * while every box stays inside its fat box: a move that keeps it inside only records the new box,
 * and `computePairs` filters the candidates by the current boxes, which is exact because two
 * boxes that overlap have overlapping fat boxes (the Verlet list of molecular dynamics). A move
 * out of the fat box, an insert or a remove makes the next query rebuild, in O(total cell
 * entries) with a counting pass (no sorting, no allocation once the typed arrays have grown).
 * Bodies that would occupy more than `maxCellsPerBody` cells go to an overflow list that is
 * tested against every body, so huge boxes stay correct and cheap.
 *
 * Pairs are deduplicated without a hash set: two overlapping boxes share every cell of the
 * intersection of their cell ranges, and the pair is reported only in the lowest of them
 * (`max` of the two lower cell indices per axis), which is where the minimum corner of their
 * intersection lies. The same rule deduplicates `queryAabb`; `castRay` marks visited bodies.
 *
 * The automatic cell size is `cellSizeScale` × the median of the bodies' largest box side,
 * recomputed at a rebuild when the proxy count has doubled or halved since it was last chosen,
 * or on demand with {@link SpatialHash.recomputeCellSize}; the `cellSize` option fixes it.
 */
import {
  GRID_TRAVERSAL_PADDING,
  SPATIAL_HASH_CELL_SCALE,
  SPATIAL_HASH_FAT_MARGIN,
  SPATIAL_HASH_MAX_CELLS_PER_BODY,
} from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  checkBox,
  checkRay,
  growFloat64,
  growInt32,
  ProxyBoxes,
  type RayCastCallback,
  raySegmentBoxEntry,
} from "./broad-phase.js";
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
/**
 * Largest |cell index| the grid uses (2^40): the cell side is raised to at least
 * max |coordinate| / 2^40 at each rebuild, so that cell indices stay exact integers in a double
 * and `x + 1` always advances (tiny boxes far from the origin would otherwise need indices past
 * 2^53). Queries reaching beyond fall back to scanning the bodies.
 */
const MAX_CELL_INDEX = 2 ** 40;
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
/** Doubles per entry of `SpatialHash.cellData`: min xyz, max xyz, lower cell index xyz. */
const CELL_ENTRY_STRIDE = 9;

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
  private dirty = true;
  /**
   * Fat box of each proxy at the last rebuild: its box grown by `SPATIAL_HASH_FAT_MARGIN` × the
   * cell side. The cell table and {@link candidates} are built from these and stay valid while
   * every box stays inside its fat box (checked by `move`).
   */
  private fat = new Float64Array(0);
  /** The pairs whose fat boxes overlap, sorted, from the last rebuild (when `candidatesValid`). */
  private readonly candidates = new PairSet();
  private candidatesValid = false;
  /** Box offsets (6 · id) of each candidate's lower and higher id, in the order of `candidates`. */
  private candidateLo = new Int32Array(16);
  private candidateHi = new Int32Array(16);
  /** Cell range of each proxy's fat box at the last rebuild: `(x0, y0, z0, x1, y1, z1)`. */
  private range = new Float64Array(0);
  private isOverflow = new Uint8Array(0);
  private overflow = new Int32Array(8);
  private overflowCount = 0;
  private normalCount = 0;
  /** Union of the normal (non-overflow) bodies' boxes. */
  private readonly bounds = new Float64Array(6);
  // Open-addressing cell table, valid for slots whose stamp equals `generation`.
  private tableShift = 32;
  private slotX = new Float64Array(0);
  private slotY = new Float64Array(0);
  private slotZ = new Float64Array(0);
  private slotStamp = new Int32Array(0);
  private slotCount = new Int32Array(0);
  private slotStart = new Int32Array(0);
  private generation = 0;
  private occupied = new Int32Array(16);
  private occupiedCount = 0;
  private entryBody = new Int32Array(16);
  private entrySlot = new Int32Array(16);
  private cellBodies = new Int32Array(16);
  /**
   * Per cell entry, in the order of `cellBodies`: the body's box (6 doubles) and its lower cell
   * indices (3), {@link CELL_ENTRY_STRIDE} doubles, so that the pair loop of a cell reads memory
   * in sequence instead of jumping between bodies.
   */
  private cellData = new Float64Array(16 * CELL_ENTRY_STRIDE);
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
    const o = { ...defaultSpatialHashOptions(), ...options };
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

  /** Number of proxies in the overflow list after the last rebuild. */
  get overflowSize(): number {
    return this.overflowCount;
  }

  /** Adds proxy `id` with box `[min, max]`; throws `CollideError` on a present id or a bad box. */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    if (id >= this.isOverflow.length) {
      const n = this.proxies.slot.length;
      this.range = growFloat64(this.range, 6 * n);
      this.fat = growFloat64(this.fat, 6 * n);
      const flags = new Uint8Array(n);
      flags.set(this.isOverflow);
      this.isOverflow = flags;
      this.visitStamp = growInt32(this.visitStamp, n);
    }
    this.dirty = true;
  }

  /**
   * Records the new box of proxy `id`. While the box stays inside its fat box nothing else
   * happens; when it leaves it, the grid is rebuilt at the next query.
   */
  move(id: number, min: Vec3, max: Vec3, _displacement?: Vec3): void {
    this.proxies.set(id, min, max);
    if (this.dirty) return;
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
      this.dirty = true;
    }
  }

  /** Removes proxy `id`; throws `CollideError` when it is absent. */
  remove(id: number): void {
    this.proxies.delete(id);
    this.dirty = true;
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy. */
  clear(): void {
    this.proxies.clear();
    this.dirty = true;
    this.sizedAtCount = 0;
    if (this.options.cellSize === 0) this.cell = 0;
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
    this.dirty = true;
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
      heapSortRange(this.sizes, 0, count);
      const median = this.sizes[count >> 1];
      const spread = Math.max(cMaxX - cMinX, cMaxY - cMinY, cMaxZ - cMinZ);
      if (median > 0 && Number.isFinite(median)) cell = this.options.cellSizeScale * median;
      else if (spread > 0 && Number.isFinite(spread)) cell = spread / Math.cbrt(count);
    }
    this.cell = cell;
    return cell;
  }

  /**
   * Fills `out` with every overlapping or touching pair, sorted by `(lo, hi)`: the candidate
   * pairs of the fat boxes (enumerated once per rebuild) whose current boxes overlap.
   */
  computePairs(out: PairSet): PairSet {
    out.clear();
    this.ensureBuilt();
    const c = this.candidates;
    if (!this.candidatesValid) {
      // The fat-box candidates are a superset of the pairs: give them room beyond `out`'s limit.
      c.setLimit(
        out.limit + Math.ceil(out.limit / 4) + CANDIDATE_LIMIT_SLACK,
        out.limitField,
        out.limitValue,
      );
      this.enumerateCandidates(c);
      const n = c.size;
      if (this.candidateLo.length < n) {
        this.candidateLo = growInt32(this.candidateLo, n);
        this.candidateHi = growInt32(this.candidateHi, n);
      }
      for (let i = 0; i < n; i++) {
        const key = c.keyAt(i);
        const lo = Math.floor(key / PAIR_KEY_BASE);
        this.candidateLo[i] = 6 * lo;
        this.candidateHi[i] = 6 * (key - lo * PAIR_KEY_BASE);
      }
      this.candidatesValid = true;
    }
    const box = this.proxies.box;
    const los = this.candidateLo;
    const his = this.candidateHi;
    const n = c.size;
    for (let i = 0; i < n; i++) {
      const a = los[i];
      const b = his[i];
      // One branch for the six interval tests (see enumerateCandidates).
      const separated =
        +(box[a] > box[b + 3]) |
        +(box[b] > box[a + 3]) |
        +(box[a + 1] > box[b + 4]) |
        +(box[b + 1] > box[a + 4]) |
        +(box[a + 2] > box[b + 5]) |
        +(box[b + 2] > box[a + 5]);
      if (separated === 0) out.addKey(c.keyAt(i));
    }
    return out;
  }

  /** Fills `out` with the pairs whose fat boxes overlap or touch, sorted (module docs). */
  private enumerateCandidates(out: PairSet): void {
    out.clear();
    const fat = this.fat;
    const data = this.cellData;
    const bodies = this.cellBodies;
    const D = CELL_ENTRY_STRIDE;
    for (let o = 0; o < this.occupiedCount; o++) {
      const s = this.occupied[o];
      const cx = this.slotX[s];
      const cy = this.slotY[s];
      const cz = this.slotZ[s];
      const start = this.slotStart[s];
      const end = start + this.slotCount[s];
      for (let a = start; a < end; a++) {
        const pa = D * a;
        const minX = data[pa];
        const minY = data[pa + 1];
        const minZ = data[pa + 2];
        const maxX = data[pa + 3];
        const maxY = data[pa + 4];
        const maxZ = data[pa + 5];
        const rx = data[pa + 6];
        const ry = data[pa + 7];
        const rz = data[pa + 8];
        for (let b = a + 1, pb = pa + D; b < end; b++, pb += D) {
          // One branch for the six tests instead of six keeps the loop free of mispredictions
          // (their outcomes are close to random; about 1 candidate in 10 overlaps).
          const separated =
            +(data[pb] > maxX) |
            +(minX > data[pb + 3]) |
            +(data[pb + 1] > maxY) |
            +(minY > data[pb + 4]) |
            +(data[pb + 2] > maxZ) |
            +(minZ > data[pb + 5]);
          if (
            separated === 0 &&
            // Report the pair only in the lowest cell the two boxes share (module docs).
            Math.max(rx, data[pb + 6]) === cx &&
            Math.max(ry, data[pb + 7]) === cy &&
            Math.max(rz, data[pb + 8]) === cz
          ) {
            out.add(bodies[a], bodies[b]);
          }
        }
      }
    }
    const { live, count } = this.proxies;
    for (let o = 0; o < this.overflowCount; o++) {
      const a = this.overflow[o];
      for (let i = 0; i < count; i++) {
        const b = live[i];
        if (b === a || (this.isOverflow[b] === 1 && b < a)) continue;
        if (boxesOverlap(fat, 6 * a, fat, 6 * b)) out.add(a, b);
      }
    }
    out.sort();
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
              const id = this.cellBodies[e];
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
            if (this.rayVisit(this.cellBodies[e])) return true;
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

  /** Rebuilds the cell table when boxes changed since the last rebuild. */
  private ensureBuilt(): void {
    if (!this.dirty) return;
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
    const s = Math.max(this.cell, maxAbs / MAX_CELL_INDEX);
    this.s = s;
    // Fat boxes: grown by the margin, kept finite at the ends of the double range.
    const margin = SPATIAL_HASH_FAT_MARGIN * s;
    const fat = this.fat;
    for (let i = 0; i < count; i++) {
      const k = 6 * live[i];
      for (let j = 0; j < 3; j++) {
        fat[k + j] = Math.max(-Number.MAX_VALUE, box[k + j] - margin);
        fat[k + 3 + j] = Math.min(Number.MAX_VALUE, box[k + 3 + j] + margin);
      }
    }
    const range = this.range;
    const maxCells = this.options.maxCellsPerBody;
    const bounds = this.bounds;
    bounds.fill(Infinity, 0, 3);
    bounds.fill(-Infinity, 3, 6);
    this.overflowCount = 0;
    this.normalCount = 0;
    let entries = 0;
    for (let i = 0; i < count; i++) {
      const id = live[i];
      const k = 6 * id;
      for (let j = 0; j < 6; j++) range[k + j] = Math.floor(fat[k + j] / s);
      const cells =
        (range[k + 3] - range[k] + 1) *
        (range[k + 4] - range[k + 1] + 1) *
        (range[k + 5] - range[k + 2] + 1);
      if (cells > maxCells) {
        this.isOverflow[id] = 1;
        this.overflow = growInt32(this.overflow, this.overflowCount + 1);
        this.overflow[this.overflowCount++] = id;
        continue;
      }
      this.isOverflow[id] = 0;
      this.normalCount++;
      entries += cells;
      for (let j = 0; j < 3; j++) {
        if (fat[k + j] < bounds[j]) bounds[j] = fat[k + j];
        if (fat[k + 3 + j] > bounds[3 + j]) bounds[3 + j] = fat[k + 3 + j];
      }
    }
    this.entryBody = growInt32(this.entryBody, entries);
    this.entrySlot = growInt32(this.entrySlot, entries);
    this.cellBodies = growInt32(this.cellBodies, entries);
    this.occupied = growInt32(this.occupied, entries);
    this.prepareTable(entries);
    this.occupiedCount = 0;
    let e = 0;
    for (let i = 0; i < count; i++) {
      const id = live[i];
      if (this.isOverflow[id] === 1) continue;
      const k = 6 * id;
      for (let x = range[k]; x <= range[k + 3]; x++) {
        for (let y = range[k + 1]; y <= range[k + 4]; y++) {
          for (let z = range[k + 2]; z <= range[k + 5]; z++) {
            const slot = this.findOrInsert(x, y, z);
            this.slotCount[slot]++;
            this.entrySlot[e] = slot;
            this.entryBody[e++] = id;
          }
        }
      }
    }
    let start = 0;
    for (let i = 0; i < this.occupiedCount; i++) {
      const slot = this.occupied[i];
      this.slotStart[slot] = start;
      start += this.slotCount[slot];
      this.slotCount[slot] = 0;
    }
    for (let i = 0; i < e; i++) {
      const slot = this.entrySlot[i];
      this.cellBodies[this.slotStart[slot] + this.slotCount[slot]++] = this.entryBody[i];
    }
    if (this.cellData.length < CELL_ENTRY_STRIDE * e) {
      this.cellData = growFloat64(this.cellData, CELL_ENTRY_STRIDE * e);
    }
    const data = this.cellData;
    const bodies = this.cellBodies;
    for (let i = 0, d = 0; i < e; i++, d += CELL_ENTRY_STRIDE) {
      const k = 6 * bodies[i];
      data[d] = fat[k];
      data[d + 1] = fat[k + 1];
      data[d + 2] = fat[k + 2];
      data[d + 3] = fat[k + 3];
      data[d + 4] = fat[k + 4];
      data[d + 5] = fat[k + 5];
      data[d + 6] = range[k];
      data[d + 7] = range[k + 1];
      data[d + 8] = range[k + 2];
    }
    this.candidatesValid = false;
    this.dirty = false;
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
      this.slotCount = new Int32Array(cap);
      this.slotStart = new Int32Array(cap);
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
    const h = Math.imul(x | 0, 73856093) ^ Math.imul(y | 0, 19349663) ^ Math.imul(z | 0, 83492791);
    return Math.imul(h, 0x9e3779b1) >>> this.tableShift;
  }

  /** The slot of cell (x, y, z), or −1 when it holds no body. */
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

  /** The slot of cell (x, y, z), claimed with a zero count when new. */
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
        this.occupied[this.occupiedCount++] = h;
        return h;
      }
      if (this.slotX[h] === x && this.slotY[h] === y && this.slotZ[h] === z) return h;
      h = (h + 1) & mask;
    }
    // Unreachable: the table has at least twice as many slots as entries.
    throw new Error("SpatialHash: cell table full");
  }
}
