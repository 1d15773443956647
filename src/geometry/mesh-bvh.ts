/**
 * A static bounding volume hierarchy over primitives given by their AABBs (a triangle mesh's
 * triangles), built top-down by the binned surface area heuristic and stored flat in typed
 * arrays — no object per node (Wald 2007; the node layout of three-mesh-bvh and Jolt).
 *
 * Layout. Nodes are numbered depth-first (pre-order) so that an inner node's left child is the
 * next node, `i + 1`, and only the right child's index is stored:
 *
 * - `bounds[6i .. 6i+5]` = min x, y, z, max x, y, z of node i (Float64Array);
 * - `data[2i]` = a leaf's first slot in `primitives`, or an inner node's right child index;
 * - `data[2i+1]` = a leaf's primitive count (≥ 1), or `INNER_FLAG | splitAxis` for an inner
 *   node (Uint32Array);
 * - `primitives` = the primitive ids, permuted so each leaf's are contiguous.
 *
 * Because children always come after their parent, a refit (after the primitives moved, e.g. a
 * deforming mesh) is one reverse sweep over the nodes. The tree's topology is kept; only boxes
 * change, so a refit tree stays correct but may grow less efficient under large deformation.
 *
 * This layer knows nothing of triangles: it takes packed primitive AABBs. Queries that need the
 * primitives themselves (ray–triangle, triangle–shape) walk the arrays in the shape code, with
 * the accessors below.
 */
import {
  MESH_BVH_MAX_DEPTH,
  MESH_BVH_MAX_LEAF_SIZE,
  MESH_BVH_SAH_BINS,
  MESH_BVH_SAH_MIN_PRIMITIVES,
  MESH_BVH_TRAVERSAL_COST,
  RAY_SLAB_ROUNDING,
} from "../constants.js";
import { invalidValue } from "../errors.js";
import { unionBoxes } from "../math/packed-box.js";

/** Bit set in `data[2i+1]` of an inner node (the low bits hold its split axis). */
export const MESH_BVH_INNER_FLAG = 0x80000000;

/** A flat BVH: see the module documentation for the layout. */
export interface MeshBvh {
  /** Number of nodes (node 0 is the root; 0 nodes when there are no primitives). */
  nodeCount: number;
  /** Node boxes, 6 per node: min xyz then max xyz. */
  bounds: Float64Array;
  /** Two words per node: (first primitive slot, count) for a leaf; (right child, flag|axis) inner. */
  data: Uint32Array;
  /** Primitive ids in leaf order. */
  primitives: Uint32Array;
  /** Depth of the deepest leaf (the root alone is depth 0). */
  depth: number;
}

/** True when node `i` of `bvh` is a leaf. */
export function isMeshBvhLeaf(bvh: MeshBvh, i: number): boolean {
  return (bvh.data[2 * i + 1] & MESH_BVH_INNER_FLAG) === 0;
}

/** Index of the right child of inner node `i` (its left child is `i + 1`). */
export function meshBvhRightChild(bvh: MeshBvh, i: number): number {
  return bvh.data[2 * i];
}

/** First slot in `primitives` of leaf `i`. */
export function meshBvhLeafOffset(bvh: MeshBvh, i: number): number {
  return bvh.data[2 * i];
}

/** Number of primitives of leaf `i`. */
export function meshBvhLeafCount(bvh: MeshBvh, i: number): number {
  return bvh.data[2 * i + 1];
}

/** Options of {@link buildMeshBvh}; every field has the default named in src/constants.ts. */
export interface MeshBvhOptions {
  /** Largest leaf the SAH may keep instead of splitting. @default MESH_BVH_MAX_LEAF_SIZE (4) */
  maxLeafSize?: number;
  /** Bins per axis of the binned SAH. @default MESH_BVH_SAH_BINS (16) */
  bins?: number;
  /**
   * Accepted for compatibility and ignored: the build reads `primBounds` and never writes it
   * (it used to reorder the boxes in place to save a copy; it now copies centroids and extents).
   * @default false
   */
  reorderBounds?: boolean;
}

// Build scratch (the build is not a per-step path; the per-build work arrays are allocated by the
// build, these small ones are reused).
const binCount = new Uint32Array(64);
const binBounds = new Float64Array(64 * 6);
const rightBounds = new Float64Array(64 * 6);
const rightCount = new Uint32Array(64);

/** Numbers per task on the build stack: start, end, depth, parent, centroid box (6). */
const TASK = 10;

/** Surface area of the box (min xyz, max xyz); 0 for an empty box. */
function boxArea(
  minx: number,
  miny: number,
  minz: number,
  maxx: number,
  maxy: number,
  maxz: number,
): number {
  const dx = maxx - minx;
  const dy = maxy - miny;
  const dz = maxz - minz;
  if (!(dx >= 0 && dy >= 0 && dz >= 0)) return 0;
  return 2 * (dx * dy + dy * dz + dz * dx);
}

/** Surface area of the box at a[o..o+5]. */
function areaAt(a: Float64Array, o: number): number {
  return boxArea(a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5]);
}

/** The empty box (+∞ mins, −∞ maxes): the identity of {@link unionBoxes}. */
const EMPTY_BOX = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);

/** Writes into bounds[6·node] the union of the primitive boxes of slots [start, end). */
function unionPrimitives(
  out: Float64Array,
  o: number,
  prim: Uint32Array,
  pb: ArrayLike<number>,
  start: number,
  end: number,
): void {
  let a = Infinity;
  let b = Infinity;
  let c = Infinity;
  let d = -Infinity;
  let e = -Infinity;
  let f = -Infinity;
  for (let s = start; s < end; s++) {
    const k = 6 * prim[s];
    if (pb[k] < a) a = pb[k];
    if (pb[k + 1] < b) b = pb[k + 1];
    if (pb[k + 2] < c) c = pb[k + 2];
    if (pb[k + 3] > d) d = pb[k + 3];
    if (pb[k + 4] > e) e = pb[k + 4];
    if (pb[k + 5] > f) f = pb[k + 5];
  }
  out[o] = a;
  out[o + 1] = b;
  out[o + 2] = c;
  out[o + 3] = d;
  out[o + 4] = e;
  out[o + 5] = f;
}

/**
 * The working set of one build: the primitive ids (`prim`, the caller's output), their doubled
 * centroids (`cen`, min + max per axis, 3 per slot) and their extents (`ext`, max − min, single
 * precision: they only weigh the SAH's bins) permuted together, so the partitions move 40 bytes
 * per slot and the partitions and bins read consecutive memory even when the ids are scattered (a
 * triangle soup); the exact boxes stay in the caller's array and are read through the ids once,
 * by the final fit of the node boxes.
 */
interface BuildArrays {
  prim: Uint32Array;
  cen: Float64Array;
  /** Each slot's box extents (max − min per axis, single precision), read by the SAH's bins. */
  ext: Float32Array;
  /** Node words while building (capacity up to 2n − 1 nodes; copied out at the end). */
  data: Uint32Array;
}

/**
 * Builds the BVH of `count` primitives whose AABBs are packed in `primBounds` (6 numbers per
 * primitive: min xyz, max xyz, any frame and unit), top-down by the binned surface area
 * heuristic over the axis of largest centroid extent (Wald 2007, "On fast construction of
 * SAH-based bounding volume hierarchies", §3; cost model of MacDonald & Booth 1990 with
 * {@link MESH_BVH_TRAVERSAL_COST}). A node is split at the bin boundary of least SAH cost; it
 * stays a leaf when no split is cheaper than testing its primitives and it has at most
 * `maxLeafSize` of them, or at depth {@link MESH_BVH_MAX_DEPTH}. Nodes of at most
 * {@link MESH_BVH_SAH_MIN_PRIMITIVES} are split at their centroid box's midpoint. Primitives
 * whose centroids all coincide are split in halves by slot. The build partitions ids, centroids
 * and single-precision extents (which weigh the bins) in working arrays that it keeps for the next
 * build, and carries each node's centroid box (measured by the partition pass that makes the
 * node); the node boxes are fitted once at the end, leaves from their
 * primitives and inner nodes from their children (a reverse sweep, as {@link refitMeshBvh}), so
 * each is exactly the union of its primitives' boxes. Deterministic; `primBounds` is only read.
 * Throws `CollideError` for a `primBounds` shorter than 6·count or with non-finite values, and
 * for bad options.
 */
export function buildMeshBvh(
  primBounds: ArrayLike<number>,
  count: number,
  options: MeshBvhOptions = {},
): MeshBvh {
  const maxLeaf = options.maxLeafSize ?? MESH_BVH_MAX_LEAF_SIZE;
  const bins = options.bins ?? MESH_BVH_SAH_BINS;
  if (!Number.isInteger(maxLeaf) || maxLeaf < 1)
    invalidValue("maxLeafSize", maxLeaf, "must be an integer ≥ 1");
  if (!Number.isInteger(bins) || bins < 2 || bins > 64)
    invalidValue("bins", bins, "must be an integer in [2, 64]");
  if (!Number.isInteger(count) || count < 0) invalidValue("count", count, "must be an integer ≥ 0");
  if (primBounds.length < 6 * count)
    invalidValue("primBounds", primBounds.length, `must hold 6 numbers per primitive (${count})`);
  const primitives = new Uint32Array(count);
  if (count === 0) {
    return {
      nodeCount: 0,
      bounds: new Float64Array(0),
      data: new Uint32Array(0),
      primitives,
      depth: 0,
    };
  }
  const w = buildArrays(primitives, count, maxLeaf);
  const stack = buildStack;
  loadPrimitives(w, primBounds, count, stack);
  stack[0] = 0;
  stack[1] = count;
  stack[2] = 0;
  stack[3] = -1;
  const pb: ArrayLike<number> = primBounds;
  let data = w.data;
  let top = 1;
  let nodeCount = 0;
  let maxDepth = 0;
  // Depth-first: the right task is pushed before the left, so the left subtree is numbered
  // first and a left child is always its parent + 1. The stack holds at most one pending right
  // task per level, plus the current one.
  while (top > 0) {
    top--;
    const t = TASK * top;
    const start = stack[t] | 0;
    const end = stack[t + 1] | 0;
    const depth = stack[t + 2] | 0;
    const parent = stack[t + 3] | 0;
    const node = nodeCount++;
    if (2 * node === data.length) {
      growNodes(w, count);
      data = w.data;
    }
    if (parent >= 0) data[2 * parent] = node;
    if (depth > maxDepth) maxDepth = depth;
    const n = end - start;
    if (n === 1 || depth >= MESH_BVH_MAX_DEPTH) {
      data[2 * node] = start;
      data[2 * node + 1] = n;
      continue;
    }
    const axis = splitNode(w, stack, t, bins, maxLeaf);
    if (axis < 0) {
      data[2 * node] = start;
      data[2 * node + 1] = n;
      continue;
    }
    data[2 * node + 1] = MESH_BVH_INNER_FLAG | axis;
    // splitNode wrote the left child's task at t + TASK, to be popped first, and the right one's
    // at t; the right child's task carries the parent, which stores the right child's index.
    const r = t + TASK;
    stack[r + 2] = depth + 1;
    stack[r + 3] = -1;
    stack[t + 2] = depth + 1;
    stack[t + 3] = node;
    top += 2;
  }
  // The working arrays are kept for the next build: the node words are copied out, and the node
  // boxes get an array of their own, of exactly their size.
  const bvh: MeshBvh = {
    nodeCount,
    bounds: new Float64Array(6 * nodeCount),
    data: data.slice(0, 2 * nodeCount),
    primitives,
    depth: maxDepth,
  };
  return refitMeshBvh(bvh, pb);
}

/** The build's task stack (one pending right task per level, plus the current one). */
const buildStack = new Float64Array(TASK * (MESH_BVH_MAX_DEPTH + 2));

/** Working arrays kept between builds of up to {@link SCRATCH_KEPT_PRIMITIVES} primitives. */
let scratch: BuildArrays | null = null;

/**
 * Working arrays of the last build above {@link SCRATCH_KEPT_PRIMITIVES} primitives, held weakly:
 * builds run back to back (a level's meshes loaded in one task) reuse them, and the garbage
 * collector may free them once the task that built is over.
 */
let largeScratch: WeakRef<BuildArrays> | null = null;

/**
 * Largest build whose working arrays are kept strongly for the next one (about 3 MB): fresh large
 * typed arrays cost a page fault per 4 KB on first touch (12–15 µs each on a loaded virtual
 * machine), which was most of a bunny's build; a huge mesh's arrays are held only weakly.
 */
const SCRATCH_KEPT_PRIMITIVES = 1 << 16;

/**
 * Working arrays for `count` primitives (the ids are written into `prim`, the caller's output),
 * reused from an earlier build when they are large enough. The node words start at about one node
 * per primitive (leaves of up to `maxLeaf` ≥ 2 need fewer) and grow by half when full, up to the
 * 2n − 1 nodes of any binary tree with n leaves.
 */
function buildArrays(prim: Uint32Array, count: number, maxLeaf: number): BuildArrays {
  const most = Math.max(1, 2 * count - 1);
  const nodes = maxLeaf === 1 ? most : Math.min(most, count + MIN_NODE_CAPACITY);
  const kept = count <= SCRATCH_KEPT_PRIMITIVES;
  let w = kept ? scratch : (largeScratch?.deref() ?? null);
  if (w === null || w.cen.length < 3 * count) {
    // A small build's arrays are made for up to twice its count, so that slightly larger ones
    // reuse them.
    const room = kept ? Math.min(SCRATCH_KEPT_PRIMITIVES, 2 * count) : count;
    w = {
      prim,
      cen: new Float64Array(3 * room),
      ext: new Float32Array(3 * room),
      data: new Uint32Array(2 * nodes),
    };
    if (kept) scratch = w;
    else largeScratch = new WeakRef(w);
  }
  if (w.data.length < 2 * nodes) w.data = new Uint32Array(2 * nodes);
  w.prim = prim;
  return w;
}

/** Nodes of headroom over one per primitive in a first node allocation. */
const MIN_NODE_CAPACITY = 64;

/** Grows the node words of `w` by half (at most to 2·count − 1 nodes), keeping their content. */
function growNodes(w: BuildArrays, count: number): void {
  const nodes = w.data.length / 2;
  const grown = Math.min(Math.max(1, 2 * count - 1), nodes + (nodes >> 1) + MIN_NODE_CAPACITY);
  const data = new Uint32Array(2 * grown);
  data.set(w.data);
  w.data = data;
}

/**
 * Fills the working arrays from the caller's boxes (checking them), and writes the root's
 * centroid box into the task at stack[4..9].
 */
function loadPrimitives(
  w: BuildArrays,
  primBounds: ArrayLike<number>,
  count: number,
  stack: Float64Array,
): void {
  const { prim, cen, ext } = w;
  let ca = Infinity;
  let cb = Infinity;
  let cc = Infinity;
  let cd = -Infinity;
  let ce = -Infinity;
  let cf = -Infinity;
  for (let i = 0; i < count; i++) {
    prim[i] = i;
    const o = 6 * i;
    const cx = primBounds[o] + primBounds[o + 3];
    const cy = primBounds[o + 1] + primBounds[o + 4];
    const cz = primBounds[o + 2] + primBounds[o + 5];
    // Non-finite bounds (or a NaN) make a non-finite centroid sum.
    if (!(Number.isFinite(cx) && Number.isFinite(cy) && Number.isFinite(cz)))
      badPrimitive(primBounds, i);
    cen[3 * i] = cx;
    cen[3 * i + 1] = cy;
    cen[3 * i + 2] = cz;
    ext[3 * i] = primBounds[o + 3] - primBounds[o];
    ext[3 * i + 1] = primBounds[o + 4] - primBounds[o + 1];
    ext[3 * i + 2] = primBounds[o + 5] - primBounds[o + 2];
    if (cx < ca) ca = cx;
    if (cy < cb) cb = cy;
    if (cz < cc) cc = cz;
    if (cx > cd) cd = cx;
    if (cy > ce) ce = cy;
    if (cz > cf) cf = cz;
  }
  stack[4] = ca;
  stack[5] = cb;
  stack[6] = cc;
  stack[7] = cd;
  stack[8] = ce;
  stack[9] = cf;
}

/** Throws naming the first non-finite coordinate of primitive i (or a sum that overflows). */
function badPrimitive(primBounds: ArrayLike<number>, i: number): never {
  for (let k = 0; k < 6; k++) {
    const x = primBounds[6 * i + k];
    if (!Number.isFinite(x)) invalidValue(`primBounds[${6 * i + k}]`, x, "must be finite");
  }
  return invalidValue(
    `primBounds[${6 * i}]`,
    Array.from({ length: 6 }, (_, k) => primBounds[6 * i + k]),
    "min + max must be finite (|coordinates| below 8.9e307)",
  );
}

/**
 * Splits the node whose task is at stack[t..t+9]: bins its slots along the axis of largest
 * centroid extent, picks the SAH boundary and partitions in place. On a split, returns the axis
 * and writes the left child's task at t + TASK and the right child's at t (start, end, centroid
 * box; depth and parent are the caller's). Returns −1 to keep a leaf.
 */
function splitNode(
  w: BuildArrays,
  stack: Float64Array,
  t: number,
  maxBins: number,
  maxLeaf: number,
): number {
  const start = stack[t] | 0;
  const end = stack[t + 1] | 0;
  const n = end - start;
  let axis = 0;
  let ext = stack[t + 7] - stack[t + 4];
  const ey = stack[t + 8] - stack[t + 5];
  const ez = stack[t + 9] - stack[t + 6];
  if (ey > ext) {
    axis = 1;
    ext = ey;
  }
  if (ez > ext) {
    axis = 2;
    ext = ez;
  }
  if (!(ext > 0)) {
    // Every centroid coincides: halves by slot, if the leaf would be too big; both halves keep
    // the (one-point) centroid box.
    if (n <= maxLeaf) return -1;
    const r = t + TASK;
    for (let k = 4; k < TASK; k++) stack[r + k] = stack[t + k];
    const mid = start + (n >> 1);
    stack[r] = start;
    stack[r + 1] = mid;
    stack[t] = mid;
    return 0;
  }
  const lo = stack[t + 4 + axis];
  if (n <= MESH_BVH_SAH_MIN_PRIMITIVES) {
    // Small nodes, the great majority: a leaf when small enough, else the centroid box's
    // midpoint (three-mesh-bvh's "center" split): two bins, the left one kept.
    if (n <= maxLeaf) return -1;
    const mid = partitionSlots(w, stack, t, axis, lo + 0.5 * ext);
    if (mid === start || mid === end) splitHalves(w, stack, t, start, end, start + (n >> 1));
    return axis;
  }
  const scale = maxBins / ext;
  binSlots(w, start, end, axis, lo, scale, maxBins);
  const best = sweepBins(maxBins);
  if (n <= maxLeaf) {
    // The node's box is the union of all bins' (the left side of the last boundary and the
    // right side's last bin).
    let parentArea = 0;
    if (maxBins > 1) {
      unionBoxes(nodeBox, 0, leftBox, 0, binBounds, 6 * (maxBins - 1));
      parentArea = areaAt(nodeBox, 0);
    }
    const splitCost = MESH_BVH_TRAVERSAL_COST + (parentArea > 0 ? bestCost / parentArea : n);
    if (splitCost >= n) return -1;
  }
  const mid = partitionSlots(w, stack, t, axis, lo + (best + 1) / scale);
  // The boundary rounded onto an end of a tiny centroid range: halves by slot.
  if (mid === start || mid === end) splitHalves(w, stack, t, start, end, start + (n >> 1));
  return axis;
}

/** Slots binned per SAH node at most (about: a node of n slots bins every ⌊n / SAH_SAMPLE⌋-th). */
const SAH_SAMPLE = 4096;

/** Least SAH cost found by the last {@link sweepBins} call (areas × counts). */
let bestCost = Infinity;
/** The union of the boxes of bins [0, bins − 1) after {@link sweepBins}. */
const leftBox = new Float64Array(6);
/** A node's box as the union of its bins (in {@link splitNode}). */
const nodeBox = new Float64Array(6);

/**
 * Bins slots [start, end) by centroid along `axis` (`lo`, `scale` = bins / extent): counts and
 * boxes per bin, the boxes doubled (centroid sum ∓ extent) from the slots' own arrays, so the
 * reads are consecutive whatever the primitives' order. A function of its own so
 * that V8 optimizes it whole instead of entering its caller mid-loop (on-stack replacement),
 * which had made the caller deoptimize at every call.
 */
function binSlots(
  w: BuildArrays,
  start: number,
  end: number,
  axis: number,
  lo: number,
  scale: number,
  bins: number,
): void {
  const { cen, ext } = w;
  binCount.fill(0, 0, bins);
  for (let k = 0; k < bins; k++) {
    const o = 6 * k;
    binBounds[o] = Infinity;
    binBounds[o + 1] = Infinity;
    binBounds[o + 2] = Infinity;
    binBounds[o + 3] = -Infinity;
    binBounds[o + 4] = -Infinity;
    binBounds[o + 5] = -Infinity;
  }
  const last = bins - 1;
  // A large node is binned from a sample of about SAH_SAMPLE evenly spaced slots: the SAH
  // estimate of a boundary needs boxes and counts only up to a common factor.
  const step = Math.max(1, Math.floor((end - start) / SAH_SAMPLE));
  for (let s = start; s < end; s += step) {
    // lo is the least centroid: the offset is ≥ 0, so truncation is the floor.
    const q = 3 * s;
    let k = ((cen[q + axis] - lo) * scale) | 0;
    if (k > last) k = last;
    binCount[k]++;
    const o = 6 * k;
    // The slot's box doubled (centroid sum ∓ extent): the SAH compares areas only.
    const cx = cen[q];
    const cy = cen[q + 1];
    const cz = cen[q + 2];
    const ex = ext[q];
    const ey = ext[q + 1];
    const ez = ext[q + 2];
    const x0 = cx - ex;
    const y0 = cy - ey;
    const z0 = cz - ez;
    const x1 = cx + ex;
    const y1 = cy + ey;
    const z1 = cz + ez;
    if (x0 < binBounds[o]) binBounds[o] = x0;
    if (y0 < binBounds[o + 1]) binBounds[o + 1] = y0;
    if (z0 < binBounds[o + 2]) binBounds[o + 2] = z0;
    if (x1 > binBounds[o + 3]) binBounds[o + 3] = x1;
    if (y1 > binBounds[o + 4]) binBounds[o + 4] = y1;
    if (z1 > binBounds[o + 5]) binBounds[o + 5] = z1;
  }
}

/**
 * Sweeps the bin boundaries for the least SAH cost (left area × left count + right area × right
 * count): returns the last bin of the left side, with the cost in `bestCost`, the right-side
 * unions in `rightBounds` and the union of all bins but the last in `leftBox`. Both ends of the
 * centroid range have bins, so a boundary with two non-empty sides always exists.
 */
function sweepBins(bins: number): number {
  // The last bin alone, then each bin's union with the bins to its right.
  let k = bins - 1;
  unionBoxes(rightBounds, 6 * k, binBounds, 6 * k, EMPTY_BOX, 0);
  let rn = binCount[k];
  rightCount[k] = rn;
  for (k--; k > 0; k--) {
    const o = 6 * k;
    unionBoxes(rightBounds, o, binBounds, o, rightBounds, o + 6);
    rn += binCount[k];
    rightCount[k] = rn;
  }
  leftBox.set(EMPTY_BOX);
  let ln = 0;
  let cost = Infinity;
  let best = 0;
  for (k = 0; k < bins - 1; k++) {
    unionBoxes(leftBox, 0, leftBox, 0, binBounds, 6 * k);
    ln += binCount[k];
    const rnb = rightCount[k + 1];
    if (ln === 0 || rnb === 0) continue;
    const c = areaAt(leftBox, 0) * ln + areaAt(rightBounds, 6 * (k + 1)) * rnb;
    if (c < cost) {
      cost = c;
      best = k;
    }
  }
  bestCost = cost;
  return best;
}

/**
 * Partitions the slots [start, end) of the task at stack[t] in place (Hoare: ids, centroids and
 * extents swapped together) by their doubled centroid along `axis`: those below `split` first.
 * The SAH split passes its chosen bin boundary (lo + (best + 1) / scale: a slot on it may land on
 * either side of the bins' count by rounding, which moves one slot and no box); a centroid-midpoint
 * split passes the midpoint of the centroid range. Every slot is read once, by the scan
 * that places it, which also grows its side's centroid box: the left task is written at t + TASK
 * and the right one at t (start, end, centroid box), as {@link splitHalves} would. Returns the
 * first slot of the right side (when it is `start` or `end`, one task is empty and the caller
 * splits in halves instead).
 */
function partitionSlots(
  w: BuildArrays,
  stack: Float64Array,
  t: number,
  axis: number,
  split: number,
): number {
  const { prim, cen, ext } = w;
  const start = stack[t] | 0;
  const end = stack[t + 1] | 0;
  let la = Infinity;
  let lb = Infinity;
  let lc = Infinity;
  let ld = -Infinity;
  let le = -Infinity;
  let lf = -Infinity;
  let ra = Infinity;
  let rb = Infinity;
  let rc = Infinity;
  let rd = -Infinity;
  let re = -Infinity;
  let rf = -Infinity;
  let i = start;
  let j = end - 1;
  for (;;) {
    while (i <= j) {
      const a = 3 * i;
      const c = cen[a + axis];
      if (c >= split) break;
      const x = cen[a];
      const y = cen[a + 1];
      const z = cen[a + 2];
      if (x < la) la = x;
      if (y < lb) lb = y;
      if (z < lc) lc = z;
      if (x > ld) ld = x;
      if (y > le) le = y;
      if (z > lf) lf = z;
      i++;
    }
    while (i <= j) {
      const b = 3 * j;
      const c = cen[b + axis];
      if (c < split) break;
      const x = cen[b];
      const y = cen[b + 1];
      const z = cen[b + 2];
      if (x < ra) ra = x;
      if (y < rb) rb = y;
      if (z < rc) rc = z;
      if (x > rd) rd = x;
      if (y > re) re = y;
      if (z > rf) rf = z;
      j--;
    }
    if (i >= j) break;
    // Slot i goes right and slot j left: swap, and count each on its new side.
    const p = prim[i];
    prim[i] = prim[j];
    prim[j] = p;
    const a = 3 * i;
    const b = 3 * j;
    const x = cen[a];
    const y = cen[a + 1];
    const z = cen[a + 2];
    const u = cen[b];
    const v = cen[b + 1];
    const q = cen[b + 2];
    cen[a] = u;
    cen[a + 1] = v;
    cen[a + 2] = q;
    cen[b] = x;
    cen[b + 1] = y;
    cen[b + 2] = z;
    const ea = ext[a];
    const eb = ext[a + 1];
    const ec = ext[a + 2];
    ext[a] = ext[b];
    ext[a + 1] = ext[b + 1];
    ext[a + 2] = ext[b + 2];
    ext[b] = ea;
    ext[b + 1] = eb;
    ext[b + 2] = ec;
    if (u < la) la = u;
    if (v < lb) lb = v;
    if (q < lc) lc = q;
    if (u > ld) ld = u;
    if (v > le) le = v;
    if (q > lf) lf = q;
    if (x < ra) ra = x;
    if (y < rb) rb = y;
    if (z < rc) rc = z;
    if (x > rd) rd = x;
    if (y > re) re = y;
    if (z > rf) rf = z;
    i++;
    j--;
  }
  const r = t + TASK;
  stack[r] = start;
  stack[r + 1] = i;
  stack[r + 4] = la;
  stack[r + 5] = lb;
  stack[r + 6] = lc;
  stack[r + 7] = ld;
  stack[r + 8] = le;
  stack[r + 9] = lf;
  stack[t] = i;
  stack[t + 4] = ra;
  stack[t + 5] = rb;
  stack[t + 6] = rc;
  stack[t + 7] = rd;
  stack[t + 8] = re;
  stack[t + 9] = rf;
  return i;
}

/**
 * Splits the task at t into slots [start, mid) and [mid, end) as they lie (a partition that left
 * one side empty), measuring both sides' centroid boxes; the left task at t + TASK, the right at
 * t.
 */
function splitHalves(
  w: BuildArrays,
  stack: Float64Array,
  t: number,
  start: number,
  end: number,
  mid: number,
): void {
  const r = t + TASK;
  centroidBox(w.cen, start, mid, stack, r);
  centroidBox(w.cen, mid, end, stack, t);
  stack[r] = start;
  stack[r + 1] = mid;
  stack[t] = mid;
  stack[t + 1] = end;
}

/** Writes the centroid box of slots [start, end) into the task at t. */
function centroidBox(
  cen: Float64Array,
  start: number,
  end: number,
  stack: Float64Array,
  t: number,
) {
  let ca = Infinity;
  let cb = Infinity;
  let cc = Infinity;
  let cd = -Infinity;
  let ce = -Infinity;
  let cf = -Infinity;
  for (let s = start; s < end; s++) {
    const x = cen[3 * s];
    const y = cen[3 * s + 1];
    const z = cen[3 * s + 2];
    if (x < ca) ca = x;
    if (y < cb) cb = y;
    if (z < cc) cc = z;
    if (x > cd) cd = x;
    if (y > ce) ce = y;
    if (z > cf) cf = z;
  }
  stack[t + 4] = ca;
  stack[t + 5] = cb;
  stack[t + 6] = cc;
  stack[t + 7] = cd;
  stack[t + 8] = ce;
  stack[t + 9] = cf;
}

/**
 * Runs the builder once, at load, on a small fixed input (a 4 × 4 × 4 lattice of unit boxes, one
 * of them flat and two with coincident centroids) so that V8 records type feedback for every
 * statement after each loop before any large build. Without it, the first large build is
 * optimized on the stack inside a loop (OSR) with no feedback for the code after the loop; V8
 * keeps that code, and every later build deoptimizes there again and runs in the interpreter —
 * measured: a 10,000-box build took 43 ms instead of about 10.
 */
function primeBuilder(): void {
  const n = 66;
  const pb = new Float64Array(6 * n);
  for (let i = 0; i < 64; i++) {
    const x = i & 3;
    const y = (i >> 2) & 3;
    const z = i >> 4;
    pb.set([x, y, z, x + 1, y + 1, i === 5 ? z : z + 1], 6 * i);
  }
  pb.set([0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1], 6 * 64);
  const bvh = buildMeshBvh(pb, n, { maxLeafSize: 1 });
  buildMeshBvh(pb, n);
  refitMeshBvh(bvh, pb);
}

/**
 * Refits `bvh` in place to moved primitives (a deforming mesh): leaf boxes become the union of
 * their primitives' new AABBs in `primBounds` (same packing and ids as at the build), inner
 * boxes the union of their children's, in one reverse sweep (children follow their parent).
 * The topology is unchanged. Allocates nothing. Returns `bvh`.
 */
export function refitMeshBvh(bvh: MeshBvh, primBounds: ArrayLike<number>): MeshBvh {
  const b = bvh.bounds;
  const d = bvh.data;
  for (let i = bvh.nodeCount - 1; i >= 0; i--) {
    const o = 6 * i;
    if ((d[2 * i + 1] & MESH_BVH_INNER_FLAG) === 0) {
      const start = d[2 * i];
      unionPrimitives(b, o, bvh.primitives, primBounds, start, start + d[2 * i + 1]);
      continue;
    }
    unionBoxes(b, o, b, 6 * (i + 1), b, 6 * d[2 * i]);
  }
  return bvh;
}

/** A growable list of primitive ids found by a BVH query (`count` of `ids` are valid). */
export interface MeshBvhHits {
  /** Number of valid ids. */
  count: number;
  /** Ids; grown (reallocated) when a query finds more than fit. */
  ids: Uint32Array;
}

/** A new empty hit list (allocates). */
export function makeMeshBvhHits(capacity = 64): MeshBvhHits {
  return { count: 0, ids: new Uint32Array(Math.max(1, capacity)) };
}

/** Appends id to hits, growing the buffer when full. */
export function pushMeshBvhHit(hits: MeshBvhHits, id: number): void {
  if (hits.count === hits.ids.length) {
    const grown = new Uint32Array(2 * hits.ids.length);
    grown.set(hits.ids);
    hits.ids = grown;
  }
  hits.ids[hits.count++] = id;
}

/** Traversal stack shared by the single-tree queries (depth-first needs depth + 2 slots). */
const stack = new Int32Array(MESH_BVH_MAX_DEPTH + 2);

/**
 * Collects into `out` (reset first) the ids of the primitives in every leaf whose box overlaps
 * the box [min, max] (touching counts; same frame as the build): a superset of the primitives
 * whose own AABBs overlap it, in leaf order. Allocates only when `out` must grow. Returns the
 * number of ids.
 */
export function queryMeshBvhAabb(
  out: MeshBvhHits,
  bvh: MeshBvh,
  minx: number,
  miny: number,
  minz: number,
  maxx: number,
  maxy: number,
  maxz: number,
): number {
  const box = argBox;
  box[0] = minx;
  box[1] = miny;
  box[2] = minz;
  box[3] = maxx;
  box[4] = maxy;
  box[5] = maxz;
  return queryMeshBvhBox(out, bvh, box);
}

const argBox = new Float64Array(6);

/**
 * {@link queryMeshBvhAabb} of the box `box` (min xyz, max xyz): the composite mid-phase's entry,
 * which passes its box in a typed array (six doubles passed to a call V8 does not inline are
 * six allocations).
 */
export function queryMeshBvhBox(out: MeshBvhHits, bvh: MeshBvh, box: Float64Array): number {
  const minx = box[0];
  const miny = box[1];
  const minz = box[2];
  const maxx = box[3];
  const maxy = box[4];
  const maxz = box[5];
  out.count = 0;
  if (bvh.nodeCount === 0) return 0;
  const b = bvh.bounds;
  const d = bvh.data;
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const i = stack[--top];
    const o = 6 * i;
    if (
      b[o] > maxx ||
      b[o + 1] > maxy ||
      b[o + 2] > maxz ||
      b[o + 3] < minx ||
      b[o + 4] < miny ||
      b[o + 5] < minz
    ) {
      continue;
    }
    const w = d[2 * i + 1];
    if ((w & MESH_BVH_INNER_FLAG) === 0) {
      const start = d[2 * i];
      for (let s = start; s < start + w; s++) pushMeshBvhHit(out, bvh.primitives[s]);
      continue;
    }
    stack[top++] = d[2 * i];
    stack[top++] = i + 1;
  }
  return out.count;
}

/**
 * Squared distance between node `i`'s box and the box [min, max] (0 when they overlap): a lower
 * bound on the squared distance between anything inside the two boxes.
 */
export function meshBvhNodeBoxDistanceSq(
  bvh: MeshBvh,
  i: number,
  minx: number,
  miny: number,
  minz: number,
  maxx: number,
  maxy: number,
  maxz: number,
): number {
  const b = bvh.bounds;
  const o = 6 * i;
  const dx = Math.max(0, b[o] - maxx, minx - b[o + 3]);
  const dy = Math.max(0, b[o + 1] - maxy, miny - b[o + 4]);
  const dz = Math.max(0, b[o + 2] - maxz, minz - b[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Entry distance of the ray origin + t·dir (t in [0, tmax]) into node `i`'s box by the slab test
 * (Kay & Kajiya 1986; Williams et al. 2005 with precomputed reciprocals `inv` = 1/dir, where a
 * zero component gives ±Infinity), each far bound widened by `RAY_SLAB_ROUNDING` so rounding
 * never loses a touching box (Ize 2013). `ray` holds [ox, oy, oz, 1/dx, 1/dy, 1/dz, tmax, entry]:
 * the first seven are read; the entry t is written to `ray[7]` (Infinity on a miss). Returns true
 * when the ray enters the box. (A register, not a returned double: a double returned from or
 * passed to a call that V8 does not inline is boxed, one heap number per node visited.)
 */
export function meshBvhNodeRayEntry(bvh: MeshBvh, i: number, ray: Float64Array): boolean {
  const b = bvh.bounds;
  const o = 6 * i;
  let t0 = 0;
  let t1 = ray[6];
  // A NaN slab bound is 0·∞: the ray runs inside the slab's boundary plane, so that slab holds
  // for every t and is skipped.
  for (let k = 0; k < 3; k++) {
    const oo = ray[k];
    const inv = ray[3 + k];
    const a = (b[o + k] - oo) * inv;
    const c = (b[o + 3 + k] - oo) * inv;
    if (Number.isNaN(a) || Number.isNaN(c)) continue;
    const near = Math.min(a, c);
    const far = Math.max(a, c) * (1 + RAY_SLAB_ROUNDING);
    if (near > t0) t0 = near;
    if (far < t1) t1 = far;
  }
  const hit = t0 <= t1;
  ray[7] = hit ? t0 : Number.POSITIVE_INFINITY;
  return hit;
}

primeBuilder();
