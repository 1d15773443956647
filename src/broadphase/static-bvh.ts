/**
 * A bounding volume hierarchy over a fixed set of boxes, built in O(n log n) with small
 * constants for the static bodies of a collision world (100,000 boxes in tens of
 * milliseconds): a linear BVH (Lauterbach et al. 2009, "Fast BVH construction on GPUs"; Karras
 * 2012) — the boxes are sorted along a Morton (Z-order) curve of their centres, quantised to
 * 10 bits per axis (ties in input order), and the sorted run is split at the highest Morton bit
 * on which its ends differ (at the middle when they agree), down to leaves of at most
 * {@link STATIC_BVH_LEAF_SIZE} boxes. The build is written for its first run in a fresh process
 * (a level's first step): the sort is the engine's native typed-array sort of one double key per
 * box (code and index), the node build iterative, and each pass a small function, so that V8
 * compiles small loops on the stack instead of the whole builder once per loop. Node boxes are the exact unions of their boxes, so
 * pruning never loses a box: queries are exact.
 *
 * The binned-SAH query BVH (src/broadphase/query-bvh.ts) answers rays faster once built but
 * takes seconds to build over a packed voxel terrain of 100,000 boxes; this one is what the
 * world rebuilds when static bodies are added, moved or removed (Box2D's static tree and
 * Jolt's non-moving broad-phase layer play the same role).
 *
 * Layout: per node `n`, `nodeBox[6n .. 6n+5]` (min xyz, max xyz) and `nodeInfo[2n], [2n+1]`:
 * for an inner node the two child indices, for a leaf `~start` and the count of its run in the
 * sorted `entryId` array. The entries' boxes are not copied: they are read in place from the
 * array given to the build (entry `r`'s box at `6 · entryId[r]` for `buildById`, at `6 · i` of
 * its input index `i` for `build`), which the caller keeps unchanged while it queries (it
 * rebuilds when a box changes, and {@link StaticBvh.rebind}s the hierarchy when it moves the
 * same boxes to a new array). A copy in hierarchy order was 4.8 MB of fresh pages for a level's
 * 100,000 boxes, written on its first step at about 15 µs of kernel time per 4 KB page on the
 * machine that measured it (bench/first-step.ts). `build` allocates only to grow its arrays
 * (kept between builds); queries allocate nothing and are not reentrant.
 */
import { invalidValue } from "../errors.js";
import { unionBoxes } from "../math/packed-box.js";
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

/** `spread3(v)` for every 10-bit v: a Morton code is three lookups, no call per box. */
const SPREAD = Int32Array.from({ length: 1024 }, (_, v) => spread3(v));

/** Throws `CollideError` unless `boxes[k .. k+5]` is finite with min <= max on every axis. */
function checkBoxAt(boxes: Float64Array, k: number): void {
  for (let j = 0; j < 6; j++) {
    if (!Number.isFinite(boxes[k + j]))
      invalidValue(`boxes[${k + j}]`, boxes[k + j], "must be finite");
  }
  if (boxes[k] > boxes[k + 3] || boxes[k + 1] > boxes[k + 4] || boxes[k + 2] > boxes[k + 5]) {
    invalidValue(`boxes[${k}]`, boxes[k], "must have min <= max on every axis");
  }
}

/**
 * Writes into `out` the least and greatest centre of `count` boxes, per axis (min x, y, z, max
 * x, y, z): box i at `6·ids[i]` when `byId`, else at `6i` (checked).
 */
function centreRange(
  boxes: Float64Array,
  ids: ArrayLike<number>,
  count: number,
  byId: boolean,
  out: Float64Array,
): void {
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
  out[0] = lo0;
  out[1] = lo1;
  out[2] = lo2;
  out[3] = hi0;
  out[4] = hi1;
  out[5] = hi2;
}

/** Sort keys carry the input index in their low 21 bits ({@link ID_BASE} = 2^21). */
const KEY_SCALE = ID_BASE;

/**
 * Writes into `keys` each box's sort key: the Morton code of its centre (quantised to 10 bits per
 * axis over `range`, as {@link centreRange} wrote it) times 2^21 plus its input index — below
 * 2^51, so exact as a double, and distinct: sorting the keys orders the boxes by code, ties by
 * input order.
 */
function mortonKeys(
  boxes: Float64Array,
  ids: ArrayLike<number>,
  count: number,
  byId: boolean,
  range: Float64Array,
  keys: Float64Array,
  hist: Int32Array,
): void {
  hist.fill(0);
  const lo0 = range[0];
  const lo1 = range[1];
  const lo2 = range[2];
  const s0 = range[3] > lo0 ? 1023 / (range[3] - lo0) : 0;
  const s1 = range[4] > lo1 ? 1023 / (range[4] - lo1) : 0;
  const s2 = range[5] > lo2 ? 1023 / (range[5] - lo2) : 0;
  for (let i = 0; i < count; i++) {
    const k = byId ? 6 * ids[i] : 6 * i;
    const qx = Math.floor((0.5 * boxes[k] + 0.5 * boxes[k + 3] - lo0) * s0);
    const qy = Math.floor((0.5 * boxes[k + 1] + 0.5 * boxes[k + 4] - lo1) * s1);
    const qz = Math.floor((0.5 * boxes[k + 2] + 0.5 * boxes[k + 5] - lo2) * s2);
    const c = SPREAD[qx & 1023] | (SPREAD[qy & 1023] << 1) | (SPREAD[qz & 1023] << 2);
    keys[i] = c * KEY_SCALE + i;
    hist[c & 1023]++;
    hist[1024 + ((c >>> 10) & 1023)]++;
    hist[2048 + (c >>> 20)]++;
  }
}

/**
 * Sorts `keys[0 .. count)` (distinct, Morton code × 2^21 + input index, so already in input
 * order within a code) by code: a least-significant-digit radix sort over the code's three 10-bit
 * digits, whose counts {@link mortonKeys} gathered in `hist` (1,024 per digit). Each pass is
 * stable, so ties keep input order and the result is the keys' numeric order — what
 * `keys.sort()` gives, in a few linear passes instead of a comparison sort (the native one took
 * 13–20 ms for 100,000 keys here, the first build of a level's static bodies). A digit on which
 * every key agrees is skipped. `scratch` holds `count` doubles; the result ends in `keys`.
 */
function radixSortKeys(
  keys: Float64Array,
  scratch: Float64Array,
  count: number,
  hist: Int32Array,
): void {
  let src = keys;
  let dst = scratch;
  for (let d = 0; d < 3; d++) {
    const base = 1024 * d;
    // Exclusive prefix sums of the digit's counts; skip the pass when one bucket holds all.
    let sum = 0;
    let single = false;
    for (let v = 0; v < 1024; v++) {
      const h = hist[base + v];
      if (h === count) single = true;
      hist[base + v] = sum;
      sum += h;
    }
    if (single) continue;
    const shift = 10 * d;
    for (let i = 0; i < count; i++) {
      const key = src[i];
      const v = base + ((((key / KEY_SCALE) | 0) >>> shift) & 1023);
      dst[hist[v]++] = key;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== keys) keys.set(src.subarray(0, count));
}

/**
 * Writes each entry's id to its sorted place (`keys` sorted) in `eid`, and, for a `build` (not
 * `byId`), its input index (where its box is) in `src`.
 */
function placeEntries(
  ids: ArrayLike<number>,
  count: number,
  byId: boolean,
  keys: Float64Array,
  eid: Int32Array,
  src: Int32Array,
): void {
  for (let r = 0; r < count; r++) {
    const key = keys[r];
    const i = key - Math.floor(key / KEY_SCALE) * KEY_SCALE;
    eid[r] = ids[i];
    if (!byId) src[r] = i;
  }
}

/** Most boxes {@link sortByMorton} orders (2^21, the sort keys' index field). */
export const MORTON_ORDER_MAX = ID_BASE;

/**
 * Writes into `out[0 .. count)` the ids `ids[0 .. count)` sorted along the Morton (Z-order)
 * curve of their boxes' centres (`boxes[6·id .. 6·id+5]`, min xyz then max xyz, taken as valid):
 * the 30-bit code of 10 bits per axis, quantised over the centres' range, ties in input order —
 * the order the static BVH's build sorts its entries in (Karras 2012), through the same radix
 * sort. Throws `CollideError` when `count` exceeds {@link MORTON_ORDER_MAX}. Allocates its keys
 * and scratch (O(count)).
 */
export function sortByMorton(
  boxes: Float64Array,
  ids: Int32Array,
  count: number,
  out: Int32Array,
): void {
  if (!Number.isInteger(count) || count < 0 || count > ID_BASE) {
    invalidValue("count", count, `must be an integer in [0, ${ID_BASE}]`);
  }
  const range = new Float64Array(6);
  centreRange(boxes, ids, count, true, range);
  const keys = new Float64Array(count);
  const hist = new Int32Array(3 * 1024);
  mortonKeys(boxes, ids, count, true, range, keys, hist);
  radixSortKeys(keys, new Float64Array(count), count, hist);
  placeEntries(ids, count, true, keys, out, out);
}

/**
 * Fits each inner node's box (`info[2n]` ≥ 0) to the union of its children's, children first
 * (they are numbered after their parent).
 */
function fitInner(b: Float64Array, info: Int32Array, nodeCount: number): void {
  for (let n = nodeCount - 1; n >= 0; n--) {
    const left = info[2 * n];
    if (left < 0) continue;
    const right = info[2 * n + 1];
    unionBoxes(b, 6 * n, b, 6 * left, b, 6 * right);
  }
}

/** A static BVH over boxes with integer ids (see the module docs). */
export class StaticBvh {
  private nodeBox = new Float64Array(0);
  private nodeInfo = new Int32Array(0);
  private nodeCount = 0;
  /** @internal The ids in hierarchy order. */
  entryId = new Int32Array(0);
  /** For a {@link build}: each entry's input index, in hierarchy order (its box's number). */
  private entrySrc = new Int32Array(0);
  /** Each entry's box number in {@link boxes} (box `j` at `6j`): `entryId` or `entrySrc`. */
  private boxOf: Int32Array = this.entryId;
  /** The boxes of the last build, read in place (module docs). */
  private boxes: Float64Array = new Float64Array(0);
  /**
   * Sort keys, in hierarchy order after a build: Morton code × 2^21 + input index (the node
   * splits read the codes from them).
   */
  private keys = new Float64Array(0);
  /** The centres' range of the last build (min xyz, max xyz). */
  private readonly centreRange = new Float64Array(6);
  /** The radix sort's counts: 1,024 per 10-bit digit of the Morton code, three digits. */
  private readonly digitCounts = new Int32Array(3 * 1024);
  /** The node build's pending runs: (start, end, parent, level) each. */
  private tasks = new Int32Array(4 * 64);
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
   * `boxes[6i .. 6i+5]` = (min x, y, z, max x, y, z). The boxes are read in place, by this
   * build and by every query until the next build: keep them unchanged meanwhile. Throws
   * `CollideError` for a count above 2^21, a non-finite coordinate or `min > max`.
   */
  build(boxes: Float64Array, ids: ArrayLike<number>, count: number): void {
    this.buildFrom(boxes, ids, count, false);
  }

  /**
   * Rebuilds the hierarchy over the boxes of `count` ids taken from a per-id box array: entry i
   * has id `ids[i]` and coordinates `boxes[6·ids[i] .. 6·ids[i]+5]` (the collision world's
   * per-slot broad-phase boxes, read in place, by this build and by every query until the
   * next build, instead of copied: keep them unchanged meanwhile). The boxes are taken as
   * valid (finite, min <= max: the world checked them when it took the poses) and not checked
   * again: on the first step after a level of 100,000 static bodies is added, the check ran in
   * code V8 had not optimised yet, reading 600,000 doubles. Throws `CollideError` for a count
   * above 2^21.
   */
  buildById(boxes: Float64Array, ids: ArrayLike<number>, count: number): void {
    this.buildFrom(boxes, ids, count, true);
  }

  /**
   * Points the hierarchy at `boxes`, a new array holding the same boxes at the same places as
   * the one it was built over (the world's per-slot boxes after they grew or moved to shared
   * memory). Queries read it from then on.
   */
  rebind(boxes: Float64Array): void {
    this.boxes = boxes;
  }

  /** {@link build} (`byId` false: box i at `6i`) or {@link buildById} (box i at `6·ids[i]`). */
  private buildFrom(
    boxes: Float64Array,
    ids: ArrayLike<number>,
    count: number,
    byId: boolean,
  ): void {
    if (!Number.isInteger(count) || count < 0 || count > ID_BASE) {
      invalidValue("count", count, `must be an integer in [0, ${ID_BASE}]`);
    }
    // Each pass is a function of its own: the first build of a level runs before V8 has
    // optimised anything, and a pass is then compiled on the stack (on-stack replacement) as a
    // small function, not as the whole builder once per loop.
    const range = this.centreRange;
    centreRange(boxes, ids, count, byId, range);
    // Sort by Morton code of the centre, ties by input order (deterministic): the keys (code
    // and index in one double) by a radix sort over the code's digits (radixSortKeys).
    this.reserve(count, byId);
    const keys = this.keys.subarray(0, count);
    const hist = this.digitCounts;
    mortonKeys(boxes, ids, count, byId, range, keys, hist);
    // The node boxes' first `count` doubles are the sort's scratch: the nodes are written after.
    radixSortKeys(keys, this.nodeBox, count, hist);
    placeEntries(ids, count, byId, keys, this.entryId, this.entrySrc);
    this.boxes = boxes;
    this.boxOf = byId ? this.entryId : this.entrySrc;
    this.entries = count;
    this.nodeCount = 0;
    let depth = 0;
    if (count > 0) depth = this.buildNodes(count);
    if (this.stack.length < 2 * depth + 8) this.stack = new Int32Array(2 * depth + 8);
  }

  /**
   * Grows the entry, node and sort arrays to hold `count` boxes, with the input indices for a
   * {@link build} (not `byId`) (kept between builds: a rebuild of the same or fewer boxes
   * allocates nothing).
   */
  private reserve(count: number, byId: boolean): void {
    if (this.entryId.length < count) {
      this.entryId = new Int32Array(count);
      this.keys = new Float64Array(count);
    }
    if (!byId && this.entrySrc.length < count) this.entrySrc = new Int32Array(count);
    // Nodes: at most 2·count − 1, about count / 2 with full leaves; start at count and double
    // on demand in buildNodes.
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
   * Builds the nodes over the sorted entries `[0, count)`, numbered depth first (a node, its
   * left subtree, then its right one): a run of at most {@link STATIC_BVH_LEAF_SIZE} entries is
   * a leaf, boxed as it is made; a longer one is split ({@link split}). Inner boxes are fitted
   * afterwards by one reverse sweep (children are numbered after their parent). Iterative (an
   * explicit stack of pending right runs), so that the first build of a level, which runs before
   * V8 has optimised anything, makes no recursive calls. Returns the depth.
   */
  private buildNodes(count: number): number {
    let tasks = this.tasks;
    tasks[0] = 0;
    tasks[1] = count;
    tasks[2] = -1;
    tasks[3] = 0;
    let top = 1;
    let depth = 0;
    const e = this.boxes;
    const boxOf = this.boxOf;
    while (top > 0) {
      top--;
      const t = 4 * top;
      const lo = tasks[t];
      const hi = tasks[t + 1];
      const parent = tasks[t + 2];
      const level = tasks[t + 3];
      const n = this.nodeCount++;
      if (2 * n + 1 >= this.nodeInfo.length) this.growNodes();
      const info = this.nodeInfo;
      // A left child follows its parent; only the right child is found by its parent's words.
      if (parent >= 0) info[n === parent + 1 ? 2 * parent : 2 * parent + 1] = n;
      if (hi - lo <= STATIC_BVH_LEAF_SIZE) {
        if (level + 1 > depth) depth = level + 1;
        info[2 * n] = ~lo;
        info[2 * n + 1] = hi - lo;
        const b = this.nodeBox;
        const o = 6 * n;
        let a0 = Infinity;
        let a1 = Infinity;
        let a2 = Infinity;
        let a3 = -Infinity;
        let a4 = -Infinity;
        let a5 = -Infinity;
        for (let r = lo; r < hi; r++) {
          const k = 6 * boxOf[r];
          if (e[k] < a0) a0 = e[k];
          if (e[k + 1] < a1) a1 = e[k + 1];
          if (e[k + 2] < a2) a2 = e[k + 2];
          if (e[k + 3] > a3) a3 = e[k + 3];
          if (e[k + 4] > a4) a4 = e[k + 4];
          if (e[k + 5] > a5) a5 = e[k + 5];
        }
        b[o] = a0;
        b[o + 1] = a1;
        b[o + 2] = a2;
        b[o + 3] = a3;
        b[o + 4] = a4;
        b[o + 5] = a5;
        continue;
      }
      const mid = this.split(lo, hi);
      if (4 * (top + 2) > tasks.length) {
        const grown = new Int32Array(2 * tasks.length);
        grown.set(tasks);
        this.tasks = grown;
        tasks = grown;
      }
      // The right run is pushed first, so the left one is built (and numbered) first.
      tasks[t] = mid;
      tasks[t + 1] = hi;
      tasks[t + 2] = n;
      tasks[t + 3] = level + 1;
      tasks[t + 4] = lo;
      tasks[t + 5] = mid;
      tasks[t + 6] = n;
      tasks[t + 7] = level + 1;
      top += 2;
    }
    this.fitNodes();
    return depth;
  }

  /** Fits every inner node's box to its children's ({@link fitInner}; idempotent; the build's last pass, also run alone by {@link warmStaticBvh}). */
  fitNodes(): void {
    fitInner(this.nodeBox, this.nodeInfo, this.nodeCount);
  }

  /**
   * The split of sorted run `[lo, hi)`: the first index whose code has the highest bit on
   * which the run's first and last codes differ (Karras 2012), or the middle when they agree
   * or the split would leave a side with fewer than a quarter of the run.
   */
  private split(lo: number, hi: number): number {
    const mid = (lo + hi) >>> 1;
    const c = this.keys;
    const first = (c[lo] / KEY_SCALE) | 0;
    const last = (c[hi - 1] / KEY_SCALE) | 0;
    if (first === last) return mid;
    const bit = 31 - Math.clz32(first ^ last);
    const prefix = first >>> (bit + 1);
    // Binary search for the first code with `bit` set (and the same prefix).
    let a = lo;
    let b = hi - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      const v = (c[m] / KEY_SCALE) | 0;
      if (v >>> (bit + 1) === prefix && ((v >>> bit) & 1) === 0) a = m + 1;
      else b = m;
    }
    const quarter = (hi - lo) >> 2;
    if (a - lo < quarter || hi - a < quarter) return mid;
    return a;
  }

  /** The ids in hierarchy order (read-only; valid until the next build). */
  get entryIds(): Int32Array {
    return this.entryId;
  }

  /**
   * Appends to `out[at ..]` the entry indices (positions in {@link entryIds}) of every box that overlaps or touches the box `(x0, y0, z0)`–`(x1, y1,
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
    const eb = this.boxes;
    const boxOf = this.boxOf;
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
        const k = 6 * boxOf[r];
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
    const eb = this.boxes;
    const boxOf = this.boxOf;
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
        const t = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, eb, 6 * boxOf[r]);
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

/**
 * Builds a small hierarchy once, at load (a 4 × 4 × 4 lattice of unit boxes, two of them with
 * the same centre, through both entry points), so that V8 has type feedback for every statement
 * of the builder before the first large build: without it, that build (a level's first step)
 * is optimised mid-loop with no feedback for the code after each loop, and the next build
 * deoptimises there.
 */
function primeStaticBvh(): void {
  const n = 65;
  const boxes = new Float64Array(6 * n);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const j = i === 64 ? 0 : i;
    const x = j & 3;
    const y = (j >> 2) & 3;
    const z = j >> 4;
    boxes.set([x, y, z, x + 1, y + 1, z + 1], 6 * i);
    ids[i] = i;
  }
  const bvh = new StaticBvh();
  bvh.build(boxes, ids, n);
  bvh.buildById(boxes, ids, n);
  bvh.collectEntries(0, 0, 0, 1, 1, 1, ids, 0);
}

primeStaticBvh();

/** Builds and boxes of {@link warmStaticBvh}: tuned so that V8 optimises the builder's passes. */
const WARM_BUILDS = 20;
const WARM_BOXES = 128;
/** Extra runs of the inner-node fit (one per build is too few for V8 to optimise it). */
const WARM_FITS = 100;
let warmed = false;

/**
 * Runs the builder {@link WARM_BUILDS} times over {@link WARM_BOXES} unit boxes scattered on a
 * 97 × 89 × 83 lattice (with the queries a moving body makes), once per process, so that V8
 * compiles each pass as a whole function, on its compiler thread, while the caller goes on: the
 * collision world calls it when its static set reaches a few thousand bodies (a level being
 * added), so that the level's first build runs optimised code from its start instead of each
 * pass starting cold and being replaced on the stack mid-loop (bench/level-static.ts: 100,000
 * boxes 22–30 ms of main-thread CPU cold, 4–8 ms after this, which costs 2–4 ms). The last pass,
 * the inner nodes' fit, runs once per build and is run {@link WARM_FITS} more times alone. The
 * hierarchy built is thrown away: no state but V8's changes.
 */
export function warmStaticBvh(): void {
  if (warmed) return;
  warmed = true;
  const boxes = new Float64Array(6 * WARM_BOXES);
  const ids = new Int32Array(WARM_BOXES);
  for (let i = 0; i < WARM_BOXES; i++) {
    const x = (i * 7919) % 97;
    const y = (i * 104729) % 89;
    const z = i % 83;
    boxes[6 * i] = x;
    boxes[6 * i + 1] = y;
    boxes[6 * i + 2] = z;
    boxes[6 * i + 3] = x + 1;
    boxes[6 * i + 4] = y + 1;
    boxes[6 * i + 5] = z + 1;
    ids[i] = i;
  }
  const out = new Int32Array(64);
  const bvh = new StaticBvh();
  for (let k = 0; k < WARM_BUILDS; k++) {
    bvh.buildById(boxes, ids, WARM_BOXES);
    for (let i = 0; i < WARM_BOXES; i += 8) {
      const o = 6 * i;
      bvh.collectEntries(
        boxes[o] - 2,
        boxes[o + 1] - 2,
        boxes[o + 2] - 2,
        boxes[o + 3] + 2,
        boxes[o + 4] + 2,
        boxes[o + 5] + 2,
        out,
        0,
      );
    }
  }
  for (let k = 0; k < WARM_FITS; k++) bvh.fitNodes();
}
