/**
 * The broad phase: given one axis-aligned box per proxy, report every pair of proxies whose boxes
 * overlap, cheaply, so that the narrow phase only looks at those (Ericson 2005, ch. 7).
 *
 * Every implementation of {@link BroadPhase} works over integer proxy ids chosen by the caller
 * (non-negative integers up to {@link MAX_PROXY_ID}, dense-ish — a world passes its body
 * indices — since storage is indexed by id). Boxes are closed intervals: boxes that merely touch
 * (a shared face, edge or corner) overlap. The pair set is EXACT with respect to the boxes given
 * to `insert`/`move` (the tight boxes): implementations that keep fat AABBs internally use them
 * only to prune and filter every candidate by the tight boxes, so every implementation reports
 * exactly the set of the brute-force oracle, sorted ascending by `(lo, hi)`.
 *
 * This file also holds the pieces the implementations share: validation of ids and boxes, the
 * structure-of-arrays store of tight boxes ({@link ProxyBoxes}), and the slab test of a ray
 * segment against a box ({@link raySegmentBoxEntry}).
 */
import { invalidValue } from "../errors.js";
import { growFloat64, growFloat64Mem, growInt32 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import type { CandidateMergeRunner } from "./candidate-merge.js";
import { MAX_PROXY_ID, type PairSet } from "./pair-set.js";

/**
 * Visitor of {@link BroadPhase.queryAabb}: called once per proxy id whose box overlaps the query
 * box; return `false` to stop the query early.
 */
export type AabbQueryCallback = (id: number) => unknown;

/**
 * Visitor of {@link BroadPhase.castRay}: called once per proxy whose box the ray segment touches,
 * with the segment parameter `toi` ≥ 0 at which it enters the box (0 when the origin is inside).
 * Return a number to change the cast: `r < 0` stops it, `0 ≤ r < maxToi` clips the segment to
 * `[0, r]` (a closest-hit collector returns its best hit's time of impact), anything else
 * (or nothing) continues unchanged.
 */
export type RayCastCallback = (id: number, toi: number) => unknown;

/**
 * A broad phase over integer proxy ids and their world-space AABBs (scene units).
 *
 * Errors: every method throws `CollideError` (`invalid_value`) on an id that is not an integer in
 * `[0, MAX_PROXY_ID]`, on inserting an id that is present, on moving or removing an absent id,
 * and on boxes with a non-finite coordinate or `min > max` on some axis. Zero-size and huge boxes
 * are valid.
 */
export interface BroadPhase {
  /** Number of proxies held. */
  readonly size: number;
  /** Adds proxy `id` with tight box `[min, max]`. */
  insert(id: number, min: Vec3, max: Vec3): void;
  /**
   * Gives proxy `id` its new tight box. `displacement` (scene units, the motion expected over the
   * next step) lets fat-AABB implementations stretch the fat box ahead of the motion; others
   * ignore it.
   */
  move(id: number, min: Vec3, max: Vec3, displacement?: Vec3): void;
  /** Removes proxy `id`. */
  remove(id: number): void;
  /** True when proxy `id` is present (false for any id out of range, never throws). */
  has(id: number): boolean;
  /** Removes every proxy, keeping storage. */
  clear(): void;
  /**
   * Clears `out` and fills it with every pair `(i < j)` whose tight boxes overlap or touch,
   * sorted ascending by `(i, j)`, without duplicates. Returns `out`.
   */
  computePairs(out: PairSet): PairSet;
  /**
   * Reports every proxy whose tight box overlaps or touches `[min, max]`: appended to `out` when
   * it is an array (order unspecified), or passed to the callback. Returns the number reported.
   */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number;
  /**
   * Visits every proxy whose tight box the segment `origin + t·dir`, `t ∈ [0, maxToi]` touches
   * (`maxToi` may be `Infinity` for a ray), calling `callback(id, toi)` once each; the callback
   * may clip or stop the cast (see {@link RayCastCallback}). Returns the number of visits.
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number;
  /**
   * True when `computePairs` cannot answer synchronously (a GPU broad phase whose readback is
   * asynchronous): a world with this broad phase must be stepped with `stepAsync`. Absent means
   * false.
   */
  readonly requiresAsync?: boolean;
  /**
   * The asynchronous twin of `computePairs` (same contract, same pair set); absent on the CPU
   * broad phases, whose `stepAsync` calls `computePairs`. The broad phase reads the boxes when
   * called, before its promise settles.
   */
  computePairsAsync?(out: PairSet): Promise<PairSet>;
  /**
   * Lets the broad phase spread its own work over the threads of `runner` (a parallel executor,
   * or null for none); absent on broad phases that do not. The grid moves its arrays into shared
   * memory and runs its candidate merge in chunks (src/broadphase/candidate-merge.ts), with the
   * same pairs, in the same order, as on one thread.
   * @internal Between the world, its broad phase and `collide/parallel`; the job types are not API.
   */
  setParallel?(runner: CandidateMergeRunner | null): void;
  /**
   * Optional, for a caller that has validated the box (the world's `setPoses`): `move` of live
   * `id` to the box `boxes[at .. at+5]` (min xyz, max xyz), the displacement being
   * `to[t .. t+2] − from[f .. f+2]`. Arrays and indices only, so no double is boxed when it is
   * not inlined. Same effect as `move`.
   */
  moveFromArrays?(
    id: number,
    boxes: Float64Array,
    at: number,
    to: Float64Array,
    t: number,
    from: Float64Array,
    f: number,
  ): void;
  /**
   * Optional (the grid with a parallel runner): points `target` at the arrays a bulk move on
   * other threads writes (src/world/pose-boxes.ts `applyPoseChunk`, the `moveFromArrays` of
   * many boxes at once), in shared memory. Returns false when it cannot.
   */
  prepareBulkMove?(target: BulkMoveTarget): boolean;
  /** Optional, with `prepareBulkMove`: puts `id`, which a bulk move found outside its fat box, in the move buffer. */
  markMovedOut?(id: number): void;
}

/** The arrays of a broad phase that a bulk move writes (`BroadPhase.prepareBulkMove`). */
export interface BulkMoveTarget {
  /** Proxy boxes, 6 doubles per id. */
  gridBox: Float64Array;
  /** Fat boxes, 6 doubles per id (read). */
  fat: Float64Array;
  /** Per id: the margin of a box that left its fat box (written for those). */
  pad: Float64Array;
  /** 1: no fat boxes yet (only the boxes are written); 2: fat boxes built. */
  grid: number;
}

/** The methods every {@link BroadPhase} has, for checking an instance given by a caller. */
export const BROAD_PHASE_METHODS = [
  "insert",
  "move",
  "remove",
  "has",
  "clear",
  "computePairs",
  "queryAabb",
  "castRay",
] as const;

/** True when `value` has every method of {@link BroadPhase} and a numeric `size`. */
export function isBroadPhase(value: unknown): value is BroadPhase {
  if (value === null || typeof value !== "object") return false;
  const o = value as Record<string, unknown>;
  if (typeof o.size !== "number") return false;
  for (const m of BROAD_PHASE_METHODS) if (typeof o[m] !== "function") return false;
  return true;
}

/** Throws unless `id` is an integer in `[0, MAX_PROXY_ID]`. */
export function checkProxyId(field: string, id: number): void {
  if (!Number.isInteger(id) || id < 0 || id > MAX_PROXY_ID) {
    invalidValue(field, id, `must be an integer in [0, ${MAX_PROXY_ID}]`);
  }
}

/** Throws unless `min` and `max` are finite with `min ≤ max` on every axis. */
export function checkBox(field: string, min: Vec3, max: Vec3): void {
  if (
    min === null ||
    max === null ||
    typeof min !== "object" ||
    typeof max !== "object" ||
    !Number.isFinite(min.x) ||
    !Number.isFinite(min.y) ||
    !Number.isFinite(min.z)
  ) {
    invalidValue(`${field}.min`, min, "must be a finite vector");
  }
  if (!Number.isFinite(max.x) || !Number.isFinite(max.y) || !Number.isFinite(max.z)) {
    invalidValue(`${field}.max`, max, "must be a finite vector");
  }
  if (min.x > max.x || min.y > max.y || min.z > max.z) {
    invalidValue(field, { min, max }, "must have min <= max on every axis");
  }
}

/** Throws unless `v` is a finite vector. */
export function checkFiniteVector(field: string, v: Vec3): void {
  if (
    v === null ||
    typeof v !== "object" ||
    !Number.isFinite(v.x) ||
    !Number.isFinite(v.y) ||
    !Number.isFinite(v.z)
  ) {
    invalidValue(field, v, "must be a finite vector");
  }
}

/** Throws unless the ray segment is well formed: finite origin and direction, `maxToi ≥ 0`. */
export function checkRay(origin: Vec3, dir: Vec3, maxToi: number): void {
  checkFiniteVector("origin", origin);
  checkFiniteVector("dir", dir);
  if (typeof maxToi !== "number" || Number.isNaN(maxToi) || maxToi < 0) {
    invalidValue("maxToi", maxToi, "must be a number >= 0 (Infinity allowed)");
  }
}

/** The typed-array growth helpers (src/math/typed-arrays.ts), re-exported for the broad phases. */
export { growFloat64, growInt32 };

/**
 * Entry parameter of the segment `o + t·d`, `t ∈ [0, tMax]`, into the closed box stored at
 * `boxes[k .. k+5]` as `(minx, miny, minz, maxx, maxy, maxz)`, or −1 when it misses (Kay–Kajiya
 * slab test, Ericson 2005, §5.3.3). Axes with `d = 0` test the origin's coordinate against the
 * slab instead of dividing, so no NaN arises. Every implementation and its tests decide touching
 * with this one formula; since each step is monotone in the box coordinates, a box containing
 * another is touched whenever the inner one is, which keeps hierarchical pruning exact.
 */
export function raySegmentBoxEntry(
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  tMax: number,
  boxes: Float64Array,
  k: number,
): number {
  const io = entryIo;
  io[0] = ox;
  io[1] = oy;
  io[2] = oz;
  io[3] = dx;
  io[4] = dy;
  io[5] = dz;
  io[6] = tMax;
  return raySegmentBoxEnters(io, boxes, k) ? io[7] : -1;
}

/** The register of {@link raySegmentBoxEntry}'s own calls. */
const entryIo = new Float64Array(8);

/**
 * {@link raySegmentBoxEntry} through a register, for hot loops: `io` holds the segment as
 * `[ox, oy, oz, dx, dy, dz, tMax]` (read) and receives the entry parameter in `io[7]` when the
 * segment meets the box, which the return value says. The same formula and bits; no double
 * crosses the call (V8 boxes one passed to or returned from a call it does not inline: seven
 * per box test).
 */
export function raySegmentBoxEnters(io: Float64Array, boxes: Float64Array, k: number): boolean {
  const ox = io[0];
  const oy = io[1];
  const oz = io[2];
  const dx = io[3];
  const dy = io[4];
  const dz = io[5];
  let t0 = 0;
  let t1 = io[6];
  if (dx === 0) {
    if (ox < boxes[k] || ox > boxes[k + 3]) return false;
  } else {
    let a = (boxes[k] - ox) / dx;
    let b = (boxes[k + 3] - ox) / dx;
    if (a > b) {
      const s = a;
      a = b;
      b = s;
    }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  if (dy === 0) {
    if (oy < boxes[k + 1] || oy > boxes[k + 4]) return false;
  } else {
    let a = (boxes[k + 1] - oy) / dy;
    let b = (boxes[k + 4] - oy) / dy;
    if (a > b) {
      const s = a;
      a = b;
      b = s;
    }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  if (dz === 0) {
    if (oz < boxes[k + 2] || oz > boxes[k + 5]) return false;
  } else {
    let a = (boxes[k + 2] - oz) / dz;
    let b = (boxes[k + 5] - oz) / dz;
    if (a > b) {
      const s = a;
      a = b;
      b = s;
    }
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  io[7] = t0;
  return true;
}

/** True when the boxes at `a[i..i+5]` and `b[j..j+5]` overlap or touch (closed intervals). */
export function boxesOverlap(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  return (
    a[i] <= b[j + 3] &&
    b[j] <= a[i + 3] &&
    a[i + 1] <= b[j + 4] &&
    b[j + 1] <= a[i + 4] &&
    a[i + 2] <= b[j + 5] &&
    b[j + 2] <= a[i + 5]
  );
}

/**
 * The proxies' tight boxes in structure-of-arrays form, indexed by id, plus the dense list of
 * live ids (swap-remove, so `live[0 .. count)` is in no particular order). Storage grows by
 * doubling to the largest id seen and is kept across `clear()`.
 */
export class ProxyBoxes {
  /** Tight boxes: `box[6·id .. 6·id+5] = (minx, miny, minz, maxx, maxy, maxz)`. */
  box: Float64Array = new Float64Array(0);
  /** Live ids, densely packed in `live[0 .. count)`. */
  live = new Int32Array(16);
  /** Position of each live id in `live`, −1 when absent. */
  slot = new Int32Array(0);
  /** Number of live ids. */
  count = 0;
  /** True when `box` lives in shared memory (worker threads read it). */
  shared = false;

  /** True when `id` is live (false for anything that is not a valid id). */
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.slot.length && this.slot[id] >= 0;
  }

  /** Validates and adds `id` with box `[min, max]`; throws when it is present or invalid. */
  add(id: number, min: Vec3, max: Vec3): void {
    checkProxyId("id", id);
    if (this.has(id)) invalidValue("id", id, "is already in the broad phase");
    checkBox("aabb", min, max);
    if (id >= this.slot.length) {
      this.slot = growInt32(this.slot, id + 1, -1);
      this.box = growFloat64Mem(this.box, 6 * this.slot.length, this.shared);
    }
    this.live = growInt32(this.live, this.count + 1);
    this.slot[id] = this.count;
    this.live[this.count++] = id;
    this.write(id, min, max);
  }

  /** Validates and replaces the box of live `id`; throws when it is absent or the box invalid. */
  set(id: number, min: Vec3, max: Vec3): void {
    this.requireLive(id);
    checkBox("aabb", min, max);
    this.write(id, min, max);
  }

  /** Validates and removes live `id`; throws when it is absent. */
  delete(id: number): void {
    this.requireLive(id);
    const s = this.slot[id];
    const last = this.live[--this.count];
    this.live[s] = last;
    this.slot[last] = s;
    this.slot[id] = -1;
  }

  /** Throws unless `id` is live. */
  requireLive(id: number): void {
    checkProxyId("id", id);
    if (!this.has(id)) invalidValue("id", id, "is not in the broad phase");
  }

  /** Removes every id, keeping storage. */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.slot[this.live[i]] = -1;
    this.count = 0;
  }

  private write(id: number, min: Vec3, max: Vec3): void {
    const b = this.box;
    const k = 6 * id;
    b[k] = min.x;
    b[k + 1] = min.y;
    b[k + 2] = min.z;
    b[k + 3] = max.x;
    b[k + 4] = max.y;
    b[k + 5] = max.z;
  }
}

/**
 * Visits every live proxy of `proxies` whose box the segment `origin + t·dir`, t ∈ [0, maxToi],
 * touches, in storage order, by a scan of the boxes: O(n). The callback may return a smaller
 * maxToi to clip the segment, or a negative number to stop. Returns how many proxies it visited.
 * @throws CollideError for a non-finite origin or direction or a negative or NaN maxToi.
 */
export function castRayByScan(
  proxies: ProxyBoxes,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  callback: RayCastCallback,
): number {
  checkRay(origin, dir, maxToi);
  const { box, live, count } = proxies;
  let tMax = maxToi;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const id = live[i];
    const t = raySegmentBoxEntry(
      origin.x,
      origin.y,
      origin.z,
      dir.x,
      dir.y,
      dir.z,
      tMax,
      box,
      6 * id,
    );
    if (t < 0) continue;
    n++;
    const r = callback(id, t);
    if (typeof r === "number") {
      if (r < 0) break;
      if (r < tMax) tMax = r;
    }
  }
  return n;
}
