/**
 * A bounding volume hierarchy over a fixed set of boxes, built in O(n log n) with small
 * constants for the static bodies of a collision world (100,000 boxes in tens of
 * milliseconds): a linear BVH (Lauterbach et al. 2009, "Fast BVH construction on GPUs"; Karras
 * 2012) — the boxes are sorted along a Morton (Z-order) curve of their centres, quantised to
 * 10 bits per axis, and the sorted run is split recursively at the highest Morton bit on which
 * its ends differ (at the middle when they agree), down to leaves of at most
 * {@link STATIC_BVH_LEAF_SIZE} boxes. Node boxes are the exact unions of their boxes, so
 * pruning never loses a box: queries are exact.
 *
 * The binned-SAH query BVH (src/broadphase/query-bvh.ts) answers rays faster once built but
 * takes seconds to build over a packed voxel terrain of 100,000 boxes; this one is what the
 * world rebuilds when static bodies are added, moved or removed (Box2D's static tree and
 * Jolt's non-moving broad-phase layer play the same role).
 *
 * Layout: per node `n`, `nodeBox[6n .. 6n+5]` (min xyz, max xyz) and `nodeInfo[2n], [2n+1]`:
 * for an inner node the two child indices, for a leaf `~start` and the count of its run in the
 * sorted `entryBox` / `entryId` arrays. `build` allocates only to grow its arrays (kept between
 * builds); queries allocate nothing and are not reentrant.
 */
import { invalidValue } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  checkBox,
  checkRay,
  type RayCastCallback,
  raySegmentBoxEntry,
} from "./broad-phase.js";

/** Most boxes per leaf. */
export const STATIC_BVH_LEAF_SIZE = 4;

/** Most boxes a hierarchy holds (2^21). */
const ID_BASE = 2 ** 21;

/** Spreads the low 10 bits of `v` to every third bit. */
function spread3(v: number): number {
  let x = v & 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

/** Throws `CollideError` unless `boxes[k .. k+5]` is finite with min <= max on every axis. */
function checkBoxAt(boxes: ArrayLike<number>, k: number): void {
  for (let j = 0; j < 6; j++) {
    if (!Number.isFinite(boxes[k + j]))
      invalidValue(`boxes[${k + j}]`, boxes[k + j], "must be finite");
  }
  if (boxes[k] > boxes[k + 3] || boxes[k + 1] > boxes[k + 4] || boxes[k + 2] > boxes[k + 5]) {
    invalidValue(`boxes[${k}]`, boxes[k], "must have min <= max on every axis");
  }
}

/** A static BVH over boxes with integer ids (see the module docs). */
export class StaticBvh {
  private nodeBox = new Float64Array(0);
  private nodeInfo = new Int32Array(0);
  private nodeCount = 0;
  private entryBox = new Float64Array(0);
  private entryId = new Int32Array(0);
  private codes = new Int32Array(0);
  // Radix sort scratch: codes and input indices, and their second buffers.
  private sortCode = new Int32Array(0);
  private sortIndex = new Int32Array(0);
  private sortCode2 = new Int32Array(0);
  private sortIndex2 = new Int32Array(0);
  private readonly digitCount = new Int32Array(1024);
  private entries = 0;
  private stack = new Int32Array(64);
  /** Entry indices gathered by {@link queryAabb} (grown when a query finds more). */
  private hits = new Int32Array(64);

  /** Number of boxes held. */
  get size(): number {
    return this.entries;
  }

  /**
   * Rebuilds the hierarchy over `count` boxes: box i has id `ids[i]` and coordinates
   * `boxes[6i .. 6i+5]` = (min x, y, z, max x, y, z). Throws `CollideError` for a count above
   * 2^21, a non-finite coordinate or `min > max`.
   */
  build(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number): void {
    this.buildFrom(boxes, ids, count, false);
  }

  /**
   * Rebuilds the hierarchy over the boxes of `count` ids taken from a per-id box array: entry i
   * has id `ids[i]` and coordinates `boxes[6·ids[i] .. 6·ids[i]+5]` (the collision world's
   * per-slot broad-phase boxes, read in place instead of copied). The boxes are taken as
   * valid (finite, min <= max: the world checked them when it took the poses) and not checked
   * again: on the first step after a level of 100,000 static bodies is added, the check ran in
   * code V8 had not optimised yet, reading 600,000 doubles. Throws `CollideError` for a count
   * above 2^21.
   */
  buildById(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number): void {
    this.buildFrom(boxes, ids, count, true);
  }

  /** {@link build} (`byId` false: box i at `6i`) or {@link buildById} (box i at `6·ids[i]`). */
  private buildFrom(
    boxes: ArrayLike<number>,
    ids: ArrayLike<number>,
    count: number,
    byId: boolean,
  ): void {
    if (!Number.isInteger(count) || count < 0 || count > ID_BASE) {
      invalidValue("count", count, `must be an integer in [0, ${ID_BASE}]`);
    }
    let lo0 = Infinity;
    let lo1 = Infinity;
    let lo2 = Infinity;
    let hi0 = -Infinity;
    let hi1 = -Infinity;
    let hi2 = -Infinity;
    for (let i = 0; i < count; i++) {
      const k = byId ? 6 * ids[i] : 6 * i;
      if (!byId) checkBoxAt(boxes, k);
      const cx = 0.5 * boxes[k] + 0.5 * boxes[k + 3];
      const cy = 0.5 * boxes[k + 1] + 0.5 * boxes[k + 4];
      const cz = 0.5 * boxes[k + 2] + 0.5 * boxes[k + 5];
      if (cx < lo0) lo0 = cx;
      if (cy < lo1) lo1 = cy;
      if (cz < lo2) lo2 = cz;
      if (cx > hi0) hi0 = cx;
      if (cy > hi1) hi1 = cy;
      if (cz > hi2) hi2 = cz;
    }
    // Sort by Morton code of the centre, ties by input order (deterministic): a stable LSD
    // radix sort of the 30-bit codes, three passes of 10 bits (O(n), no comparisons).
    this.reserve(count);
    const codeIn = this.sortCode;
    const idxIn = this.sortIndex;
    const s0 = hi0 > lo0 ? 1023 / (hi0 - lo0) : 0;
    const s1 = hi1 > lo1 ? 1023 / (hi1 - lo1) : 0;
    const s2 = hi2 > lo2 ? 1023 / (hi2 - lo2) : 0;
    for (let i = 0; i < count; i++) {
      const k = byId ? 6 * ids[i] : 6 * i;
      const qx = Math.floor((0.5 * boxes[k] + 0.5 * boxes[k + 3] - lo0) * s0);
      const qy = Math.floor((0.5 * boxes[k + 1] + 0.5 * boxes[k + 4] - lo1) * s1);
      const qz = Math.floor((0.5 * boxes[k + 2] + 0.5 * boxes[k + 5] - lo2) * s2);
      codeIn[i] = spread3(qx) | (spread3(qy) << 1) | (spread3(qz) << 2);
      idxIn[i] = i;
    }
    const sorted = this.radixSort(count);
    const codes = this.codes;
    const order = sorted === 0 ? this.sortIndex : this.sortIndex2;
    const orderCodes = sorted === 0 ? this.sortCode : this.sortCode2;
    const eb = this.entryBox;
    const eid = this.entryId;
    for (let r = 0; r < count; r++) {
      const i = order[r];
      codes[r] = orderCodes[r];
      const id = ids[i];
      eid[r] = id;
      const k = byId ? 6 * id : 6 * i;
      const o = 6 * r;
      eb[o] = boxes[k];
      eb[o + 1] = boxes[k + 1];
      eb[o + 2] = boxes[k + 2];
      eb[o + 3] = boxes[k + 3];
      eb[o + 4] = boxes[k + 4];
      eb[o + 5] = boxes[k + 5];
    }
    this.entries = count;
    this.nodeCount = 0;
    let depth = 0;
    if (count > 0) depth = this.buildRange(0, count, 0);
    if (this.stack.length < 2 * depth + 8) this.stack = new Int32Array(2 * depth + 8);
  }

  /**
   * Grows the entry, node and sort arrays to hold `count` boxes (kept between builds: a
   * rebuild of the same or fewer boxes allocates nothing).
   */
  private reserve(count: number): void {
    if (this.entryId.length < count) {
      this.entryBox = new Float64Array(6 * count);
      this.entryId = new Int32Array(count);
      this.codes = new Int32Array(count);
      this.sortCode = new Int32Array(count);
      this.sortIndex = new Int32Array(count);
      this.sortCode2 = new Int32Array(count);
      this.sortIndex2 = new Int32Array(count);
    }
    // Nodes: at most 2·count − 1, about count / 2 with full leaves; start at count and double
    // on demand in buildRange.
    const cap = Math.max(1, count);
    if (this.nodeInfo.length < 2 * cap) {
      this.nodeBox = new Float64Array(6 * cap);
      this.nodeInfo = new Int32Array(2 * cap);
    }
  }

  /** Doubles the node arrays (keeping the nodes built so far). */
  private growNodes(): void {
    const cap = 2 * Math.max(1, this.nodeInfo.length >> 1);
    const box = new Float64Array(6 * cap);
    box.set(this.nodeBox);
    const info = new Int32Array(2 * cap);
    info.set(this.nodeInfo);
    this.nodeBox = box;
    this.nodeInfo = info;
  }

  /**
   * Stable LSD radix sort of `sortCode[0 .. count)` (30-bit codes) with `sortIndex` alongside,
   * three passes of 10 bits between the two buffer pairs. Returns 0 when the result is in
   * `sortCode` / `sortIndex`, 1 when in `sortCode2` / `sortIndex2`.
   */
  private radixSort(count: number): number {
    const hist = this.digitCount;
    let srcC = this.sortCode;
    let srcI = this.sortIndex;
    let dstC = this.sortCode2;
    let dstI = this.sortIndex2;
    let where = 0;
    for (let shift = 0; shift < 30; shift += 10) {
      hist.fill(0);
      for (let i = 0; i < count; i++) hist[(srcC[i] >>> shift) & 1023]++;
      let sum = 0;
      for (let d = 0; d < 1024; d++) {
        const c = hist[d];
        hist[d] = sum;
        sum += c;
      }
      for (let i = 0; i < count; i++) {
        const c = srcC[i];
        const at = hist[(c >>> shift) & 1023]++;
        dstC[at] = c;
        dstI[at] = srcI[i];
      }
      const tc = srcC;
      const ti = srcI;
      srcC = dstC;
      srcI = dstI;
      dstC = tc;
      dstI = ti;
      where ^= 1;
    }
    return where;
  }

  /** Builds the node of sorted run `[lo, hi)`; returns the depth of its subtree. */
  private buildRange(lo: number, hi: number, level: number): number {
    const n = this.nodeCount++;
    if (2 * n + 1 >= this.nodeInfo.length) this.growNodes();
    if (hi - lo <= STATIC_BVH_LEAF_SIZE) {
      this.nodeInfo[2 * n] = ~lo;
      this.nodeInfo[2 * n + 1] = hi - lo;
      const b = this.nodeBox;
      const e = this.entryBox;
      const o = 6 * n;
      for (let j = 0; j < 3; j++) {
        b[o + j] = Infinity;
        b[o + 3 + j] = -Infinity;
      }
      for (let r = lo; r < hi; r++) {
        for (let j = 0; j < 3; j++) {
          if (e[6 * r + j] < b[o + j]) b[o + j] = e[6 * r + j];
          if (e[6 * r + 3 + j] > b[o + 3 + j]) b[o + 3 + j] = e[6 * r + 3 + j];
        }
      }
      return 1;
    }
    const mid = this.split(lo, hi);
    const left = this.nodeCount;
    const dl = this.buildRange(lo, mid, level + 1);
    const right = this.nodeCount;
    const dr = this.buildRange(mid, hi, level + 1);
    this.nodeInfo[2 * n] = left;
    this.nodeInfo[2 * n + 1] = right;
    const b = this.nodeBox;
    const o = 6 * n;
    for (let j = 0; j < 3; j++) {
      b[o + j] = Math.min(b[6 * left + j], b[6 * right + j]);
      b[o + 3 + j] = Math.max(b[6 * left + 3 + j], b[6 * right + 3 + j]);
    }
    return 1 + Math.max(dl, dr);
  }

  /**
   * The split of sorted run `[lo, hi)`: the first index whose code has the highest bit on
   * which the run's first and last codes differ (Karras 2012), or the middle when they agree
   * or the split would leave a side with fewer than a quarter of the run.
   */
  private split(lo: number, hi: number): number {
    const mid = (lo + hi) >>> 1;
    const c = this.codes;
    const first = c[lo];
    const last = c[hi - 1];
    if (first === last) return mid;
    const bit = 31 - Math.clz32(first ^ last);
    const prefix = first >>> (bit + 1);
    // Binary search for the first code with `bit` set (and the same prefix).
    let a = lo;
    let b = hi - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      const v = c[m];
      if (v >>> (bit + 1) === prefix && ((v >>> bit) & 1) === 0) a = m + 1;
      else b = m;
    }
    const quarter = (hi - lo) >> 2;
    if (a - lo < quarter || hi - a < quarter) return mid;
    return a;
  }

  /** The boxes in hierarchy order, 6 per entry (read-only; valid until the next build). */
  get entryBoxes(): Float64Array {
    return this.entryBox;
  }

  /** The ids in hierarchy order (read-only; valid until the next build). */
  get entryIds(): Int32Array {
    return this.entryId;
  }

  /**
   * Appends to `out[at ..]` the entry indices (positions in {@link entryBoxes} /
   * {@link entryIds}) of every box that overlaps or touches the box `(x0, y0, z0)`–`(x1, y1,
   * z1)`, up to `out.length`; returns the number found, which may exceed the room (then only
   * the first fit: call again with more room). No validation: the world's own boxes only.
   */
  collectEntries(
    x0: number,
    y0: number,
    z0: number,
    x1: number,
    y1: number,
    z1: number,
    out: Int32Array,
    at: number,
  ): number {
    if (this.entries === 0) return 0;
    const nb = this.nodeBox;
    const info = this.nodeInfo;
    const eb = this.entryBox;
    const stack = this.stack;
    let found = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp];
      const o = 6 * n;
      if (nb[o] > x1 || nb[o + 3] < x0 || nb[o + 1] > y1 || nb[o + 4] < y0) continue;
      if (nb[o + 2] > z1 || nb[o + 5] < z0) continue;
      const a = info[2 * n];
      if (a >= 0) {
        stack[sp++] = info[2 * n + 1];
        stack[sp++] = a;
        continue;
      }
      const start = ~a;
      const end = start + info[2 * n + 1];
      for (let r = start; r < end; r++) {
        const k = 6 * r;
        if (eb[k] > x1 || eb[k + 3] < x0 || eb[k + 1] > y1 || eb[k + 4] < y0) continue;
        if (eb[k + 2] > z1 || eb[k + 5] < z0) continue;
        if (at + found < out.length) out[at + found] = r;
        found++;
      }
    }
    return found;
  }

  /**
   * Visits every box that overlaps or touches `[min, max]` (closed boxes), calling
   * `callback(id)`; a callback returning `false` stops the query. Returns the number of visits.
   * Throws `CollideError` for a non-finite box or `min > max`.
   */
  queryAabb(min: Vec3, max: Vec3, callback: AabbQueryCallback): number {
    checkBox("aabb", min, max);
    if (this.entries === 0) return 0;
    // The entries are gathered by the one traversal (collectEntries), then visited in its order.
    let found = this.collectEntries(min.x, min.y, min.z, max.x, max.y, max.z, this.hits, 0);
    if (found > this.hits.length) {
      this.hits = new Int32Array(found + (found >> 1));
      found = this.collectEntries(min.x, min.y, min.z, max.x, max.y, max.z, this.hits, 0);
    }
    const hits = this.hits;
    for (let i = 0; i < found; i++) {
      if (callback(this.entryId[hits[i]]) === false) return i + 1;
    }
    return found;
  }

  /**
   * Visits every box the segment `origin + t·dir`, `t ∈ [0, maxToi]` touches, calling
   * `callback(id, toi)` with its entry parameter (the shared `raySegmentBoxEntry`, so the set
   * is that of every broad phase); the callback may clip (`0 ≤ r < maxToi`) or stop (`r < 0`)
   * the cast. Nearer children are visited first. Returns the number of visits.
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    checkRay(origin, dir, maxToi);
    if (this.entries === 0) return 0;
    const { x: ox, y: oy, z: oz } = origin;
    const { x: dx, y: dy, z: dz } = dir;
    const nb = this.nodeBox;
    const info = this.nodeInfo;
    const eb = this.entryBox;
    const stack = this.stack;
    let tMax = maxToi;
    let visits = 0;
    let sp = 0;
    if (raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, nb, 0) < 0) return 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp];
      const a = info[2 * n];
      if (a >= 0) {
        const c = info[2 * n + 1];
        const ta = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, nb, 6 * a);
        const tc = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, nb, 6 * c);
        if (ta >= 0 && tc >= 0) {
          if (ta <= tc) {
            stack[sp++] = c;
            stack[sp++] = a;
          } else {
            stack[sp++] = a;
            stack[sp++] = c;
          }
        } else if (ta >= 0) stack[sp++] = a;
        else if (tc >= 0) stack[sp++] = c;
        continue;
      }
      // The leaf may lie beyond a clip made since it was pushed: its entries are re-tested.
      const start = ~a;
      const end = start + info[2 * n + 1];
      for (let r = start; r < end; r++) {
        const t = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, eb, 6 * r);
        if (t < 0) continue;
        visits++;
        const res = callback(this.entryId[r], t);
        if (typeof res === "number") {
          if (res < 0) return visits;
          if (res < tMax) tMax = res;
        }
      }
    }
    return visits;
  }
}
