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
  MESH_BVH_TRAVERSAL_COST,
  RAY_SLAB_ROUNDING,
} from "../constants.js";
import { invalidValue } from "../errors.js";

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
}

// Build scratch (grown on demand; the build is not a per-step path).
let centroids = new Float64Array(0);
const binCount = new Uint32Array(64);
const binBounds = new Float64Array(64 * 6);
const rightArea = new Float64Array(64);
const rightCount = new Uint32Array(64);

function boxArea(
  minx: number,
  miny: number,
  minz: number,
  maxx: number,
  maxy: number,
  maxz: number,
) {
  const dx = maxx - minx;
  const dy = maxy - miny;
  const dz = maxz - minz;
  if (!(dx >= 0 && dy >= 0 && dz >= 0)) return 0;
  return 2 * (dx * dy + dy * dz + dz * dx);
}

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
 * Builds the BVH of `count` primitives whose AABBs are packed in `primBounds` (6 numbers per
 * primitive: min xyz, max xyz, any frame and unit), top-down by the binned surface area
 * heuristic (Wald 2007; cost model of MacDonald & Booth 1990 with
 * {@link MESH_BVH_TRAVERSAL_COST}). A node is split along the axis and bin boundary of least SAH
 * cost; it stays a leaf when no split is cheaper than testing its primitives and it has at most
 * `maxLeafSize` of them, or at depth {@link MESH_BVH_MAX_DEPTH}. Primitives whose centroids all
 * coincide are split in halves by index. Deterministic. Throws `CollideError` for a
 * `primBounds` shorter than 6·count or with non-finite values, and for bad options.
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
  for (let i = 0; i < count; i++) primitives[i] = i;
  if (centroids.length < 3 * count) centroids = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const lo = primBounds[6 * i + k];
      const hi = primBounds[6 * i + 3 + k];
      if (!Number.isFinite(lo) || !Number.isFinite(hi))
        invalidValue(`primBounds[${6 * i + k}]`, lo, "must be finite");
      centroids[3 * i + k] = 0.5 * (lo + hi);
    }
  }
  // A binary tree over n ≥ 1 leaves-worth of primitives has at most 2n − 1 nodes.
  const capacity = Math.max(1, 2 * count - 1);
  let bounds = new Float64Array(6 * capacity);
  let data = new Uint32Array(2 * capacity);
  let nodeCount = 0;
  let maxDepth = 0;
  if (count === 0) {
    return {
      nodeCount: 0,
      bounds: new Float64Array(0),
      data: new Uint32Array(0),
      primitives,
      depth: 0,
    };
  }
  // Explicit stack of tasks (start, end, depth, parent to patch or −1); right pushed before
  // left so that the left subtree is numbered first and the left child is always i + 1.
  const stack: number[] = [0, count, 0, -1];
  while (stack.length > 0) {
    const parent = stack.pop() as number;
    const depth = stack.pop() as number;
    const end = stack.pop() as number;
    const start = stack.pop() as number;
    const node = nodeCount++;
    if (parent >= 0) data[2 * parent] = node;
    if (depth > maxDepth) maxDepth = depth;
    unionPrimitives(bounds, 6 * node, primitives, primBounds, start, end);
    const n = end - start;
    const split =
      n > 1 && depth < MESH_BVH_MAX_DEPTH
        ? chooseSplit(primitives, primBounds, start, end, bounds, 6 * node, bins, maxLeaf)
        : -1;
    if (split < 0) {
      data[2 * node] = start;
      data[2 * node + 1] = n;
      continue;
    }
    const mid = splitMid;
    data[2 * node + 1] = MESH_BVH_INNER_FLAG | split;
    // Right task (patches this node's right pointer), then left (numbered next).
    stack.push(mid, end, depth + 1, node);
    stack.push(start, mid, depth + 1, -1);
  }
  if (nodeCount < capacity) {
    bounds = bounds.slice(0, 6 * nodeCount);
    data = data.slice(0, 2 * nodeCount);
  }
  return { nodeCount, bounds, data, primitives, depth: maxDepth };
}

/** Split position chosen by the last {@link chooseSplit} call. */
let splitMid = 0;

/**
 * Chooses the SAH split of slots [start, end) and partitions them in place; returns the split
 * axis (0–2) with the boundary slot in `splitMid`, or −1 to keep a leaf.
 */
function chooseSplit(
  prim: Uint32Array,
  pb: ArrayLike<number>,
  start: number,
  end: number,
  nodeBounds: Float64Array,
  o: number,
  maxBins: number,
  maxLeaf: number,
): number {
  const n = end - start;
  // A node of n primitives needs no more than 2n bins to separate them about as well: small
  // nodes, the great majority, then cost O(n) instead of O(bins) per axis.
  const bins = Math.min(maxBins, Math.max(2, 2 * n));
  centroidBounds(prim, start, end);
  const cminx = cbox[0];
  const cminy = cbox[1];
  const cminz = cbox[2];
  const cmaxx = cbox[3];
  const cmaxy = cbox[4];
  const cmaxz = cbox[5];
  const parentArea = boxArea(
    nodeBounds[o],
    nodeBounds[o + 1],
    nodeBounds[o + 2],
    nodeBounds[o + 3],
    nodeBounds[o + 4],
    nodeBounds[o + 5],
  );
  const cmin = [cminx, cminy, cminz];
  const cext = [cmaxx - cminx, cmaxy - cminy, cmaxz - cminz];
  let bestAxis = -1;
  let bestBin = 0;
  let bestCost = Infinity;
  for (let axis = 0; axis < 3; axis++) {
    const ext = cext[axis];
    if (!(ext > 0)) continue;
    binAxis(prim, pb, start, end, axis, cmin[axis], bins / ext, bins);
    if (axisCost < bestCost) {
      bestCost = axisCost;
      bestAxis = axis;
      bestBin = axisBin;
    }
  }
  if (bestAxis < 0) {
    // Every centroid coincides: split by index halves if the leaf would be too big.
    if (n <= maxLeaf) return -1;
    splitMid = start + (n >> 1);
    return 0;
  }
  const splitCost = MESH_BVH_TRAVERSAL_COST + (parentArea > 0 ? bestCost / parentArea : n);
  if (splitCost >= n && n <= maxLeaf) return -1;
  // Partition: bins ≤ bestBin to the left.
  const scale = bins / cext[bestAxis];
  const lo = cmin[bestAxis];
  const i = partition(prim, start, end, bestAxis, lo, scale, bins, bestBin);
  splitMid = i;
  if (splitMid === start || splitMid === end) splitMid = start + (n >> 1);
  return bestAxis;
}

/** Centroid box of the last {@link centroidBounds} call: min xyz, max xyz. */
const cbox = new Float64Array(6);

/** Writes the box of the centroids of slots [start, end) to `cbox`. */
function centroidBounds(prim: Uint32Array, start: number, end: number): void {
  let cminx = Infinity;
  let cminy = Infinity;
  let cminz = Infinity;
  let cmaxx = -Infinity;
  let cmaxy = -Infinity;
  let cmaxz = -Infinity;
  for (let s = start; s < end; s++) {
    const k = 3 * prim[s];
    const x = centroids[k];
    const y = centroids[k + 1];
    const z = centroids[k + 2];
    if (x < cminx) cminx = x;
    if (y < cminy) cminy = y;
    if (z < cminz) cminz = z;
    if (x > cmaxx) cmaxx = x;
    if (y > cmaxy) cmaxy = y;
    if (z > cmaxz) cmaxz = z;
  }
  cbox[0] = cminx;
  cbox[1] = cminy;
  cbox[2] = cminz;
  cbox[3] = cmaxx;
  cbox[4] = cmaxy;
  cbox[5] = cmaxz;
}

/**
 * Partitions slots [start, end) in place: centroids binned at or below `bestBin` along `axis`
 * first. Returns the first slot of the right side.
 */
function partition(
  prim: Uint32Array,
  start: number,
  end: number,
  axis: number,
  lo: number,
  scale: number,
  bins: number,
  bestBin: number,
): number {
  let i = start;
  let j = end - 1;
  while (i <= j) {
    if (binOf(centroids[3 * prim[i] + axis], lo, scale, bins) <= bestBin) i++;
    else {
      const t = prim[i];
      prim[i] = prim[j];
      prim[j] = t;
      j--;
    }
  }
  return i;
}

/** Least SAH cost and its bin boundary found by the last {@link binAxis} call. */
let axisCost = Infinity;
let axisBin = 0;

/**
 * Bins slots [start, end) by centroid along `axis` (`lo`, `scale` = bins / extent) and sweeps
 * the bin boundaries for the least SAH cost (areas × counts), left in `axisCost` / `axisBin`
 * (Infinity when no boundary separates two non-empty sides). A function of its own so that V8
 * optimizes it whole instead of entering its caller mid-loop (on-stack replacement), which had
 * made `chooseSplit` deoptimize at every call (so do {@link centroidBounds} and
 * {@link partition}: the caller keeps no loop over the primitives).
 */
function binAxis(
  prim: Uint32Array,
  pb: ArrayLike<number>,
  start: number,
  end: number,
  axis: number,
  lo: number,
  scale: number,
  bins: number,
): void {
  binCount.fill(0, 0, bins);
  for (let b = 0; b < bins; b++) {
    binBounds[6 * b] = Infinity;
    binBounds[6 * b + 1] = Infinity;
    binBounds[6 * b + 2] = Infinity;
    binBounds[6 * b + 3] = -Infinity;
    binBounds[6 * b + 4] = -Infinity;
    binBounds[6 * b + 5] = -Infinity;
  }
  for (let s = start; s < end; s++) {
    const p = prim[s];
    const b = binOf(centroids[3 * p + axis], lo, scale, bins);
    binCount[b]++;
    growBin(pb, b, p);
  }
  // Sweep from the right: area and count of bins b..bins−1.
  let ra = Infinity;
  let rb = Infinity;
  let rc = Infinity;
  let rd = -Infinity;
  let re = -Infinity;
  let rf = -Infinity;
  let rn = 0;
  for (let b = bins - 1; b > 0; b--) {
    const k = 6 * b;
    ra = Math.min(ra, binBounds[k]);
    rb = Math.min(rb, binBounds[k + 1]);
    rc = Math.min(rc, binBounds[k + 2]);
    rd = Math.max(rd, binBounds[k + 3]);
    re = Math.max(re, binBounds[k + 4]);
    rf = Math.max(rf, binBounds[k + 5]);
    rn += binCount[b];
    rightArea[b] = boxArea(ra, rb, rc, rd, re, rf);
    rightCount[b] = rn;
  }
  let la = Infinity;
  let lb = Infinity;
  let lc = Infinity;
  let ld = -Infinity;
  let le = -Infinity;
  let lf = -Infinity;
  let ln = 0;
  axisCost = Infinity;
  axisBin = 0;
  for (let b = 0; b < bins - 1; b++) {
    const k = 6 * b;
    la = Math.min(la, binBounds[k]);
    lb = Math.min(lb, binBounds[k + 1]);
    lc = Math.min(lc, binBounds[k + 2]);
    ld = Math.max(ld, binBounds[k + 3]);
    le = Math.max(le, binBounds[k + 4]);
    lf = Math.max(lf, binBounds[k + 5]);
    ln += binCount[b];
    const rnb = rightCount[b + 1];
    if (ln === 0 || rnb === 0) continue;
    const cost = boxArea(la, lb, lc, ld, le, lf) * ln + rightArea[b + 1] * rnb;
    if (cost < axisCost) {
      axisCost = cost;
      axisBin = b;
    }
  }
}

function binOf(c: number, lo: number, scale: number, bins: number): number {
  const b = Math.floor((c - lo) * scale);
  return b < 0 ? 0 : b >= bins ? bins - 1 : b;
}

function growBin(pb: ArrayLike<number>, b: number, p: number): void {
  const k = 6 * b;
  const q = 6 * p;
  if (pb[q] < binBounds[k]) binBounds[k] = pb[q];
  if (pb[q + 1] < binBounds[k + 1]) binBounds[k + 1] = pb[q + 1];
  if (pb[q + 2] < binBounds[k + 2]) binBounds[k + 2] = pb[q + 2];
  if (pb[q + 3] > binBounds[k + 3]) binBounds[k + 3] = pb[q + 3];
  if (pb[q + 4] > binBounds[k + 4]) binBounds[k + 4] = pb[q + 4];
  if (pb[q + 5] > binBounds[k + 5]) binBounds[k + 5] = pb[q + 5];
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
    const l = 6 * (i + 1);
    const r = 6 * d[2 * i];
    for (let k = 0; k < 3; k++) {
      b[o + k] = Math.min(b[l + k], b[r + k]);
      b[o + 3 + k] = Math.max(b[l + 3 + k], b[r + 3 + k]);
    }
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
 * never loses a touching box (Ize 2013): the entry t, or Infinity when the ray misses the box.
 */
export function meshBvhNodeRayEntry(
  bvh: MeshBvh,
  i: number,
  ox: number,
  oy: number,
  oz: number,
  ix: number,
  iy: number,
  iz: number,
  tmax: number,
): number {
  const b = bvh.bounds;
  const o = 6 * i;
  let t0 = 0;
  let t1 = tmax;
  // A NaN slab bound is 0·∞: the ray runs inside the slab's boundary plane, so that slab holds
  // for every t and is skipped.
  for (let k = 0; k < 3; k++) {
    const oo = k === 0 ? ox : k === 1 ? oy : oz;
    const inv = k === 0 ? ix : k === 1 ? iy : iz;
    const a = (b[o + k] - oo) * inv;
    const c = (b[o + 3 + k] - oo) * inv;
    if (Number.isNaN(a) || Number.isNaN(c)) continue;
    const near = Math.min(a, c);
    const far = Math.max(a, c) * (1 + RAY_SLAB_ROUNDING);
    if (near > t0) t0 = near;
    if (far < t1) t1 = far;
  }
  return t0 <= t1 ? t0 : Infinity;
}

primeBuilder();
