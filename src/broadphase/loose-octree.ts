/**
 * A loose octree broad phase (Ulrich 2000, "Loose octrees"; Ericson 2005, §7.3.6), hashed so
 * that it has no root box: the world is unbounded, every level is a grid of cubes of side
 * s = 2^k, and an object lives at the level whose side is the smallest power of two ≥ its
 * largest extent, in the cell that holds its centre. A cell's LOOSE box is the cell grown by
 * half its side on every face (looseness factor 2), so it contains every object stored in it.
 * Levels that hold no object cost nothing; cells are keys in one hash map.
 *
 * Pairs: each object looks, at its own level and at every coarser level that holds objects, in
 * the (at most 3 × 3 × 3) cells whose loose boxes its box touches, and tests the objects there
 * by their exact boxes; an object of a finer level finds this one from its side. Since a stored
 * object's box lies inside its cell's loose box, every overlapping pair is found (exactly the
 * brute-force set: candidates are filtered by the tight boxes, duplicates removed). Hash
 * collisions only add candidates. The levels also have a floor relative to the coordinates
 * (k ≥ log2|x| − 50), so cell indices stay exact integers for boxes far from the origin.
 *
 * `planar` makes it a loose quadtree (the z axis is not split), for the 2D world, whose boxes
 * are flat in z. The structure is rebuilt by `computePairs` in O(n) (insert, move and remove
 * only update the tight boxes); box queries walk the cells of each level, falling back to a
 * scan of that level when the query box spans more cells than the level holds objects; ray
 * casts scan every box (a world with frequent ray casts uses its static query BVH).
 *
 * Storage is typed arrays kept across rebuilds, so a steady-state step allocates nothing: the
 * cells are an open-addressing hash table of 32-bit cell keys (linear probing, at most half
 * full) whose entries hold a run of the cell's objects in one array (a counting sort by cell),
 * and the levels a count per level exponent with the objects of each level in one array.
 */
import { checkOptions, optionsSpec } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  castRayByScan,
  checkBox,
  ProxyBoxes,
  type RayCastCallback,
} from "./broad-phase.js";
import type { PairSet } from "./pair-set.js";

/** Options of {@link LooseOctree}. */
export interface LooseOctreeOptions {
  /** Do not split the z axis (a loose quadtree over x and y, for flat boxes). @default false */
  planar?: boolean;
}

/** Smallest level exponent (cells of side 2^−60 scene units). */
const MIN_LEVEL = -60;
/** Cell indices stay below 2^INDEX_BITS in magnitude (exact in doubles). */
const INDEX_BITS = 50;
/** Largest level exponent: boxes are finite, so extents and coordinates are below 2^1024. */
const MAX_LEVEL = 1024;
/** Number of level exponents, `MIN_LEVEL ..= MAX_LEVEL`. */
const LEVEL_RANGE = MAX_LEVEL - MIN_LEVEL + 1;

const OCTREE_SPEC = optionsSpec("LooseOctree", "options", { planar: "boolean" });

/** The loose octree broad phase; see the module docs. Exact like the others. */
export class LooseOctree implements BroadPhase {
  private readonly proxies = new ProxyBoxes();
  private readonly planar: boolean;
  /** Per live proxy (by id): its level exponent, from the last rebuild. */
  private level = new Int32Array(0);
  /** Per live index (the proxies' `live` order): its cell's entry in the hash table. */
  private itemEntry = new Int32Array(0);
  /** Hash table of the cells: key, stamp (the entry is used when it equals `stamp`), run. */
  private cellKeys = new Int32Array(0);
  private cellStamp = new Uint32Array(0);
  private stamp = 0;
  /** 32 − log2(table size): a key's home entry is the top bits of its multiplicative hash. */
  private cellShift = 32;
  /** The run of each used entry's objects in `cellItems`: start and length. */
  private cellStart = new Int32Array(0);
  private cellCount = new Int32Array(0);
  /** Object ids grouped by cell (a counting sort by entry). */
  private cellItems = new Int32Array(0);
  /** Levels that hold objects, ascending (`levelTotal` of them). */
  private levels = new Int32Array(16);
  private levelTotal = 0;
  /** Object count and start in `levelItems` per level exponent (index `k − MIN_LEVEL`). */
  private readonly levelCount = new Int32Array(LEVEL_RANGE);
  private readonly levelStart = new Int32Array(LEVEL_RANGE);
  /** Object ids grouped by level, ascending level (for the scan fallback). */
  private levelItems = new Int32Array(0);
  private dirty = true;

  constructor(options: LooseOctreeOptions = {}) {
    checkOptions(options, OCTREE_SPEC);
    this.planar = options.planar ?? false;
  }

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    this.dirty = true;
  }

  move(id: number, min: Vec3, max: Vec3, _displacement?: Vec3): void {
    this.proxies.set(id, min, max);
    this.dirty = true;
  }

  remove(id: number): void {
    this.proxies.delete(id);
    this.dirty = true;
  }

  has(id: number): boolean {
    return this.proxies.has(id);
  }

  clear(): void {
    this.proxies.clear();
    this.dirty = true;
  }

  /** The level exponent of the box at `o` in `box`. */
  private levelOf(box: Float64Array, o: number): number {
    const ex = Math.max(
      box[o + 3] - box[o],
      box[o + 4] - box[o + 1],
      this.planar ? 0 : box[o + 5] - box[o + 2],
    );
    const far = Math.max(
      Math.abs(box[o]),
      Math.abs(box[o + 1]),
      Math.abs(box[o + 3]),
      Math.abs(box[o + 4]),
      this.planar ? 0 : Math.max(Math.abs(box[o + 2]), Math.abs(box[o + 5])),
    );
    let k = MIN_LEVEL;
    if (ex > 0) k = Math.max(k, Math.ceil(Math.log2(ex)));
    if (far > 0) k = Math.max(k, Math.floor(Math.log2(far)) - INDEX_BITS);
    // log2 rounding: make sure 2^k ≥ ex.
    while (2 ** k < ex) k++;
    // As an int32: a double returned from a call V8 does not inline is boxed (allocated).
    return k | 0;
  }

  /** Rebuilds the cells from the tight boxes. O(n); allocates only when the world grew. */
  private rebuild(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const { box, live, count } = this.proxies;
    if (this.level.length < this.proxies.slot.length) {
      this.level = new Int32Array(this.proxies.slot.length);
    }
    if (this.itemEntry.length < count) {
      this.itemEntry = new Int32Array(count);
      this.cellItems = new Int32Array(count);
      this.levelItems = new Int32Array(count);
    }
    let cap = Math.max(64, this.cellKeys.length);
    while (cap < 2 * count) cap *= 2;
    if (cap !== this.cellKeys.length) {
      this.cellKeys = new Int32Array(cap);
      this.cellStamp = new Uint32Array(cap);
      this.cellStart = new Int32Array(cap);
      this.cellCount = new Int32Array(cap);
      this.cellShift = 32 - Math.log2(cap);
      this.stamp = 0;
    }
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.cellStamp.fill(0);
      this.stamp = 1;
    }
    const levelCount = this.levelCount;
    levelCount.fill(0);
    // Pass 1: each object's level and cell entry; count per entry and per level.
    for (let i = 0; i < count; i++) {
      const id = live[i];
      const o = 6 * id;
      const k = this.levelOf(box, o);
      this.level[id] = k;
      const s = 2 ** k;
      const ix = Math.floor((0.5 * (box[o] + box[o + 3])) / s);
      const iy = Math.floor((0.5 * (box[o + 1] + box[o + 4])) / s);
      const iz = this.planar ? 0 : Math.floor((0.5 * (box[o + 2] + box[o + 5])) / s);
      const e = this.insertCell(cellKey(k, (ix % FOLD) | 0, (iy % FOLD) | 0, (iz % FOLD) | 0));
      this.itemEntry[i] = e;
      this.cellCount[e]++;
      levelCount[k - MIN_LEVEL]++;
    }
    // Runs: cells in table order, levels ascending.
    let at = 0;
    for (let e = 0; e < cap; e++) {
      if (this.cellStamp[e] !== this.stamp) continue;
      this.cellStart[e] = at;
      at += this.cellCount[e];
      this.cellCount[e] = 0;
    }
    at = 0;
    this.levelTotal = 0;
    for (let l = 0; l < LEVEL_RANGE; l++) {
      this.levelStart[l] = at;
      if (levelCount[l] === 0) continue;
      at += levelCount[l];
      if (this.levelTotal === this.levels.length) {
        const grown = new Int32Array(2 * this.levels.length);
        grown.set(this.levels);
        this.levels = grown;
      }
      this.levels[this.levelTotal++] = l + MIN_LEVEL;
      levelCount[l] = 0;
    }
    // Pass 2: place the objects, in live order within each cell and level.
    for (let i = 0; i < count; i++) {
      const id = live[i];
      const e = this.itemEntry[i];
      this.cellItems[this.cellStart[e] + this.cellCount[e]++] = id;
      const l = this.level[id] - MIN_LEVEL;
      this.levelItems[this.levelStart[l] + levelCount[l]++] = id;
    }
  }

  /** The hash-table entry of cell `key`, made when absent (linear probing). */
  private insertCell(key: number): number {
    const mask = this.cellKeys.length - 1;
    let e = Math.imul(key, 0x85ebca6b) >>> this.cellShift;
    while (this.cellStamp[e] === this.stamp) {
      if (this.cellKeys[e] === key) return e;
      e = (e + 1) & mask;
    }
    this.cellStamp[e] = this.stamp;
    this.cellKeys[e] = key;
    this.cellCount[e] = 0;
    return e;
  }

  /** The hash-table entry of cell `key`, or −1 when no object lies in it. */
  private findCell(key: number): number {
    const mask = this.cellKeys.length - 1;
    let e = Math.imul(key, 0x85ebca6b) >>> this.cellShift;
    while (this.cellStamp[e] === this.stamp) {
      if (this.cellKeys[e] === key) return e;
      e = (e + 1) & mask;
    }
    return -1;
  }

  /** Fills `out` with every overlapping or touching pair, sorted by `(lo, hi)`. */
  computePairs(out: PairSet): PairSet {
    out.clear();
    this.rebuild();
    const { box, live, count } = this.proxies;
    const levels = this.levels;
    const items = this.cellItems;
    for (let i = 0; i < count; i++) {
      const a = live[i];
      const o = 6 * a;
      const ka = this.level[a];
      for (let li = 0; li < this.levelTotal; li++) {
        const k = levels[li];
        if (k < ka) continue;
        const s = 2 ** k;
        const x0 = Math.ceil(box[o] / s - 1.5);
        const x1 = Math.floor(box[o + 3] / s + 0.5);
        const y0 = Math.ceil(box[o + 1] / s - 1.5);
        const y1 = Math.floor(box[o + 4] / s + 0.5);
        const z0 = this.planar ? 0 : Math.ceil(box[o + 2] / s - 1.5);
        const z1 = this.planar ? 0 : Math.floor(box[o + 5] / s + 0.5);
        // A sparse level (fewer objects than cells to look up) is scanned instead.
        const spanned = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
        const objects = this.levelCount[k - MIN_LEVEL];
        if (k > ka && objects <= spanned) {
          const start = this.levelStart[k - MIN_LEVEL];
          for (let j = start; j < start + objects; j++) {
            const b = this.levelItems[j];
            if (boxesOverlap(box, o, box, 6 * b)) out.add(Math.min(a, b), Math.max(a, b));
          }
          continue;
        }
        for (let ix = x0; ix <= x1; ix++) {
          for (let iy = y0; iy <= y1; iy++) {
            for (let iz = z0; iz <= z1; iz++) {
              const e = this.findCell(
                cellKey(k, (ix % FOLD) | 0, (iy % FOLD) | 0, (iz % FOLD) | 0),
              );
              if (e < 0) continue;
              const start = this.cellStart[e];
              const end = start + this.cellCount[e];
              for (let j = start; j < end; j++) {
                const b = items[j];
                // Same level: each pair once, from its lower id; coarser: always.
                if (b === a || (this.level[b] === ka && b < a)) continue;
                if (boxesOverlap(box, o, box, 6 * b)) out.add(Math.min(a, b), Math.max(a, b));
              }
            }
          }
        }
      }
    }
    return out.sortUnique();
  }

  /** Reports every proxy whose box overlaps or touches `[min, max]` (each once). */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    checkBox("query", min, max);
    this.rebuild();
    const { box } = this.proxies;
    let n = 0;
    for (let li = 0; li < this.levelTotal; li++) {
      const k = this.levels[li];
      const s = 2 ** k;
      const x0 = Math.ceil(min.x / s - 1.5);
      const x1 = Math.floor(max.x / s + 0.5);
      const y0 = Math.ceil(min.y / s - 1.5);
      const y1 = Math.floor(max.y / s + 0.5);
      const z0 = this.planar ? 0 : Math.ceil(min.z / s - 1.5);
      const z1 = this.planar ? 0 : Math.floor(max.z / s + 0.5);
      const cellsSpanned = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
      const objects = this.levelCount[k - MIN_LEVEL];
      // Each level's objects are visited once: by scan, or by cells (a hash collision could list
      // an object under two visited keys, so the cell walk de-duplicates by a mark).
      const mark = this.nextMark();
      if (!(cellsSpanned <= objects)) {
        const start = this.levelStart[k - MIN_LEVEL];
        for (let j = start; j < start + objects; j++) {
          const id = this.levelItems[j];
          if (overlapsBox(box, 6 * id, min, max)) {
            n++;
            if (Array.isArray(out)) out.push(id);
            else if (out(id) === false) return n;
          }
        }
        continue;
      }
      for (let ix = x0; ix <= x1; ix++) {
        for (let iy = y0; iy <= y1; iy++) {
          for (let iz = z0; iz <= z1; iz++) {
            const e = this.findCell(cellKey(k, (ix % FOLD) | 0, (iy % FOLD) | 0, (iz % FOLD) | 0));
            if (e < 0) continue;
            const start = this.cellStart[e];
            const end = start + this.cellCount[e];
            for (let j = start; j < end; j++) {
              const id = this.cellItems[j];
              if (this.level[id] !== k || this.marks[id] === mark) continue;
              this.marks[id] = mark;
              if (overlapsBox(box, 6 * id, min, max)) {
                n++;
                if (Array.isArray(out)) out.push(id);
                else if (out(id) === false) return n;
              }
            }
          }
        }
      }
    }
    return n;
  }

  private marks = new Uint32Array(0);
  private mark = 0;

  /** A fresh mark for de-duplicating one walk (marks grow with the ids). */
  private nextMark(): number {
    if (this.marks.length < this.proxies.slot.length) {
      this.marks = new Uint32Array(this.proxies.slot.length);
      this.mark = 0;
    }
    this.mark = (this.mark + 1) >>> 0;
    if (this.mark === 0) {
      this.marks.fill(0);
      this.mark = 1;
    }
    return this.mark;
  }

  /** Visits every proxy whose box the segment touches, by a scan of the boxes. O(n). */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    return castRayByScan(this.proxies, origin, dir, maxToi, callback);
  }
}

/** True when the box at `o` overlaps or touches [min, max]. */
function overlapsBox(box: Float64Array, o: number, min: Vec3, max: Vec3): boolean {
  return (
    box[o] <= max.x &&
    min.x <= box[o + 3] &&
    box[o + 1] <= max.y &&
    min.y <= box[o + 4] &&
    box[o + 2] <= max.z &&
    min.z <= box[o + 5]
  );
}

/** 2^32: a cell index (|i| < 2^51) folded into 32 bits as `(i % FOLD) | 0`. */
const FOLD = 4294967296;

/**
 * A 32-bit hash of a cell (level k, indices folded into 32 bits by the caller, `(i % FOLD) | 0`,
 * so that only small integers cross the call: a double passed to a call V8 does not inline is
 * boxed): collisions only merge buckets.
 */
function cellKey(k: number, fx: number, fy: number, fz: number): number {
  // Mix (Teschner et al. 2003 primes).
  const h = Math.imul(fx, 73856093) ^ Math.imul(fy, 19349663) ^ Math.imul(fz, 83492791);
  // A signed 32-bit result: a small integer to V8, never boxed when passed or stored.
  return Math.imul(h ^ (k + 1024), 0x9e3779b1);
}
