/**
 * A static four-wide bounding volume hierarchy for scene queries (ray casts and box queries)
 * over a fixed set of boxes: parry's "QBVH" idea, or the wide BVHs of Embree and Jolt, in plain
 * typed arrays.
 *
 * Build. The binary tree comes from the binned-SAH builder of src/geometry/mesh-bvh.ts (Wald
 * 2007) with one box per leaf; it is then collapsed into four-wide nodes by repeatedly opening
 * the child of largest surface area until a node has four children (Dammertz, Hanika & Keller
 * 2008, "Shallow bounding volume hierarchies for fast SIMD ray tracing"; Wald, Benthin & Boulos
 * 2008). A node stores its children's boxes, so one visit tests four boxes whose arithmetic is
 * independent: the CPU overlaps them, where a binary tree makes every box test wait for the last.
 *
 * Layout, per node `n`:
 * - `childBox[24n .. 24n+23]`: the four child boxes as structure of arrays — min x of children
 *   0–3, then min y, min z, max x, max y, max z (Float64Array);
 * - `child[4n + i]`: ≥ 0 an inner node, < 0 a leaf `~leaf` (Int32Array);
 * - `childMask[n]` / `leafMask[n]`: bit i set when child i exists / is a leaf (Uint8Array);
 * - `order[8n + octant]`: the children sorted front to back for rays whose direction signs give
 *   `octant` (bit 0: x < 0, bit 1: y < 0, bit 2: z < 0), packed two bits per position.
 * Leaves hold a run `[leafStart, leafStart + leafCount)` of entries, whose boxes and ids are
 * copied in leaf order (`entryBox`, `entryId`); a leaf has one entry except at the builder's depth
 * limit.
 *
 * Ray traversal. Inner nodes are culled with the slab test (Kay & Kajiya 1986) using reciprocal
 * directions (Williams et al. 2005) and no branch per box: a box is missed when some entry plane
 * parameter exceeds some exit one, or the segment's end, or an exit one is negative — twelve
 * comparisons OR-ed together. Rounding is covered the way Ize (2013, "Robust BVH ray
 * traversal") asks, but at no cost per box: the origin used for entry planes is moved back
 * along the ray, and the one for exit planes forward, by `QUERY_BVH_RAY_SLACK` × (the largest
 * coordinate magnitude of the boxes and the origin), far more than the rounding of any plane
 * parameter, so a box the exact test would enter is never culled. A zero direction component
 * gives an infinite reciprocal; a plane exactly through the origin then gives NaN, which compares
 * false and keeps the box (conservative). Entries are decided by the exact
 * `raySegmentBoxEntry` that every broad phase shares (its register form `raySegmentBoxEnters`), so the reported set is the same as theirs.
 *
 * Built once, queried many times: `build` allocates; the queries allocate nothing and are not
 * reentrant (a callback must not query the same hierarchy).
 */
import { QUERY_BVH_RAY_SLACK } from "../constants.js";
import { invalidValue } from "../errors.js";
import { buildMeshBvh, MESH_BVH_INNER_FLAG, type MeshBvh } from "../geometry/mesh-bvh.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  checkBox,
  checkRay,
  type RayCastCallback,
  raySegmentBoxEnters,
} from "./broad-phase.js";

/** Children per node. */
const WIDTH = 4;

/**
 * A static four-wide BVH over boxes with integer ids (see the module docs). Exact: `castRay` and
 * `queryAabb` report exactly the entries whose boxes the ray segment or the query box touches,
 * like every {@link BroadPhase}.
 */
export class QueryBvh {
  private nodeCount = 0;
  private childBox = new Float64Array(0);
  private child = new Int32Array(0);
  private childMask = new Uint8Array(0);
  private leafMask = new Uint8Array(0);
  private order = new Uint8Array(0);
  private leafStart = new Int32Array(0);
  private leafCount = new Int32Array(0);
  private entryBox = new Float64Array(0);
  private entryId = new Int32Array(0);
  private entries = 0;
  /** Largest coordinate magnitude of any box (for the ray slack). */
  private maxAbs = 0;
  private stack = new Int32Array(0);
  /** A ray's segment and its last entry parameter (`raySegmentBoxEnters`'s register). */
  private readonly segmentIo = new Float64Array(8);

  /** Number of entries held. */
  get size(): number {
    return this.entries;
  }

  /** Number of four-wide nodes (0 when empty). */
  get nodes(): number {
    return this.nodeCount;
  }

  /** Drops every entry. */
  clear(): void {
    this.nodeCount = 0;
    this.entries = 0;
    this.maxAbs = 0;
  }

  /**
   * Rebuilds the hierarchy over `count` entries: entry i has id `ids[i]` (an integer ≥ 0) and the
   * box `boxes[6i .. 6i+5]` = (min x, y, z, max x, y, z), scene units, any fixed frame. Replaces
   * what was held. Throws `CollideError` for a negative count, arrays too short, a non-finite
   * coordinate or `min > max`.
   */
  build(boxes: ArrayLike<number>, ids: ArrayLike<number>, count: number): void {
    if (!Number.isInteger(count) || count < 0)
      invalidValue("count", count, "must be an integer ≥ 0");
    if (ids.length < count) invalidValue("ids", ids.length, `must hold ${count} ids`);
    for (let i = 0; i < count; i++) {
      const k = 6 * i;
      if (boxes[k] > boxes[k + 3] || boxes[k + 1] > boxes[k + 4] || boxes[k + 2] > boxes[k + 5]) {
        invalidValue(`boxes[${k}]`, boxes[k], "must have min <= max on every axis");
      }
    }
    const bvh = buildMeshBvh(boxes, count, { maxLeafSize: 1 });
    this.entries = count;
    this.entryBox = new Float64Array(6 * count);
    this.entryId = new Int32Array(count);
    let maxAbs = 0;
    for (let i = 0; i < count; i++) {
      const p = bvh.primitives[i];
      for (let k = 0; k < 6; k++) {
        const v = boxes[6 * p + k];
        this.entryBox[6 * i + k] = v;
        const a = Math.abs(v);
        if (a > maxAbs) maxAbs = a;
      }
      this.entryId[i] = ids[p];
    }
    this.maxAbs = maxAbs;
    // A four-wide node has at least two children, so there are fewer nodes than entries.
    const cap = Math.max(1, count);
    this.childBox = new Float64Array(24 * cap);
    this.child = new Int32Array(4 * cap);
    this.childMask = new Uint8Array(cap);
    this.leafMask = new Uint8Array(cap);
    this.order = new Uint8Array(8 * cap);
    this.leafStart = new Int32Array(cap);
    this.leafCount = new Int32Array(cap);
    this.nodeCount = 0;
    if (count === 0) return;
    let leaves = 0;
    let depth = 0;
    const isLeaf = (b: number): boolean => (bvh.data[2 * b + 1] & MESH_BVH_INNER_FLAG) === 0;
    // Collapses the binary subtree at `b` (an inner node, or the root leaf) into node `n`'s
    // children; returns the depth of the four-wide subtree below.
    const collapse = (b: number): number => {
      const n = this.nodeCount++;
      const kids: number[] = isLeaf(b) ? [b] : [b + 1, bvh.data[2 * b]];
      while (kids.length < WIDTH) {
        let best = -1;
        let bestArea = -1;
        for (let i = 0; i < kids.length; i++) {
          if (isLeaf(kids[i])) continue;
          const a = boxArea(bvh, kids[i]);
          if (a > bestArea) {
            bestArea = a;
            best = i;
          }
        }
        if (best < 0) break;
        const c = kids[best];
        kids.splice(best, 1, c + 1, bvh.data[2 * c]);
      }
      let mask = 0;
      let leafBits = 0;
      for (let i = 0; i < WIDTH; i++) {
        const o = 24 * n + i;
        if (i < kids.length) {
          for (let k = 0; k < 6; k++) this.childBox[o + 4 * k] = bvh.bounds[6 * kids[i] + k];
          mask |= 1 << i;
        } else {
          for (let k = 0; k < 3; k++) {
            this.childBox[o + 4 * k] = Infinity;
            this.childBox[o + 4 * (k + 3)] = -Infinity;
          }
        }
      }
      for (let oct = 0; oct < 8; oct++) this.order[8 * n + oct] = frontToBack(bvh, kids, oct);
      let below = 0;
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i];
        if (isLeaf(c)) {
          leafBits |= 1 << i;
          this.leafStart[leaves] = bvh.data[2 * c];
          this.leafCount[leaves] = bvh.data[2 * c + 1];
          this.child[4 * n + i] = ~leaves++;
        } else {
          this.child[4 * n + i] = this.nodeCount;
          const d = collapse(c);
          if (d > below) below = d;
        }
      }
      this.childMask[n] = mask;
      this.leafMask[n] = leafBits;
      return below + 1;
    };
    depth = collapse(0);
    // Each visit pops one node and pushes at most four.
    this.stack = new Int32Array(3 * depth + 4);
  }

  /**
   * Visits every entry whose box the segment `origin + t·dir`, `t ∈ [0, maxToi]`, touches
   * (`maxToi` may be Infinity), nearer boxes first as far as the tree orders them, calling
   * `callback(id, toi)` with the box entry parameter (0 when the origin is inside); the callback
   * may clip or stop the cast ({@link RayCastCallback}). Returns the number of visits. Throws
   * `CollideError` for a non-finite origin or direction or a negative or NaN `maxToi`.
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    checkRay(origin, dir, maxToi);
    if (this.nodeCount === 0) return 0;
    const { x: ox, y: oy, z: oz } = origin;
    const { x: dx, y: dy, z: dz } = dir;
    const ix = 1 / dx;
    const iy = 1 / dy;
    const iz = 1 / dz;
    const slack =
      QUERY_BVH_RAY_SLACK * (this.maxAbs + Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz)));
    // Entry-plane origins moved back along the ray and exit-plane ones forward (module docs);
    // the SoA offsets of the entry and exit planes follow the direction's signs.
    const sx = ix >= 0 ? slack : -slack;
    const sy = iy >= 0 ? slack : -slack;
    const sz = iz >= 0 ? slack : -slack;
    const enX = ox + sx;
    const enY = oy + sy;
    const enZ = oz + sz;
    const exX = ox - sx;
    const exY = oy - sy;
    const exZ = oz - sz;
    const nx = ix >= 0 ? 0 : 12;
    const ny = iy >= 0 ? 4 : 16;
    const nz = iz >= 0 ? 8 : 20;
    const fx = 12 - nx;
    const fy = 20 - ny;
    const fz = 28 - nz;
    const octant = (ix < 0 ? 1 : 0) | (iy < 0 ? 2 : 0) | (iz < 0 ? 4 : 0);
    const box = this.childBox;
    const child = this.child;
    const entryBox = this.entryBox;
    const entryId = this.entryId;
    const leafMask = this.leafMask;
    const order = this.order;
    const leafStart = this.leafStart;
    const leafCount = this.leafCount;
    const stack = this.stack;
    let tMax = maxToi;
    let visits = 0;
    let sp = 0;
    // The segment's register for the leaves' exact test (raySegmentBoxEnters).
    const io = this.segmentIo;
    io[0] = ox;
    io[1] = oy;
    io[2] = oz;
    io[3] = dx;
    io[4] = dy;
    io[5] = dz;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp];
      const o = 24 * n;
      // Four independent slab tests, one bit each (module docs).
      let hit = 0;
      for (let i = 0; i < WIDTH; i++) {
        const tx0 = (box[o + nx + i] - enX) * ix;
        const tx1 = (box[o + fx + i] - exX) * ix;
        const ty0 = (box[o + ny + i] - enY) * iy;
        const ty1 = (box[o + fy + i] - exY) * iy;
        const tz0 = (box[o + nz + i] - enZ) * iz;
        const tz1 = (box[o + fz + i] - exZ) * iz;
        const miss =
          +(tx0 > ty1) |
          +(tx0 > tz1) |
          +(ty0 > tx1) |
          +(ty0 > tz1) |
          +(tz0 > tx1) |
          +(tz0 > ty1) |
          +(tx0 > tMax) |
          +(ty0 > tMax) |
          +(tz0 > tMax) |
          +(tx1 < 0) |
          +(ty1 < 0) |
          +(tz1 < 0);
        hit |= (miss ^ 1) << i;
      }
      // (An absent child's box is empty, +∞ to −∞, so it always misses: no mask needed.)
      if (hit === 0) continue;
      const ord = order[8 * n + octant];
      const lm = leafMask[n];
      const leaves = hit & lm;
      if (leaves !== 0) {
        // Leaves front to back, each entry by the exact slab test.
        for (let j = 0; j < WIDTH; j++) {
          const i = (ord >> (2 * j)) & 3;
          if (((leaves >> i) & 1) === 0) continue;
          const leaf = ~child[4 * n + i];
          const start = leafStart[leaf];
          const end = start + leafCount[leaf];
          for (let e = start; e < end; e++) {
            io[6] = tMax;
            if (!raySegmentBoxEnters(io, entryBox, 6 * e)) continue;
            visits++;
            const r = callback(entryId[e], io[7]);
            if (typeof r === "number") {
              if (r < 0) return visits;
              if (r < tMax) tMax = r;
            }
          }
        }
      }
      const inner = hit & ~lm;
      if ((inner & (inner - 1)) === 0) {
        // One inner child (or none), the common case: no ordering needed.
        if (inner !== 0) stack[sp++] = child[4 * n + 31 - Math.clz32(inner)];
      } else {
        // Back to front onto the stack, so the front child is popped first.
        for (let j = WIDTH - 1; j >= 0; j--) {
          const i = (ord >> (2 * j)) & 3;
          if (((inner >> i) & 1) !== 0) stack[sp++] = child[4 * n + i];
        }
      }
    }
    return visits;
  }

  /**
   * Visits every entry whose box overlaps or touches `[min, max]` (closed boxes), calling
   * `callback(id)`; a callback returning `false` stops the query. Returns the number of visits.
   * Throws `CollideError` for a non-finite box or `min > max`.
   */
  queryAabb(min: Vec3, max: Vec3, callback: AabbQueryCallback): number {
    checkBox("aabb", min, max);
    if (this.nodeCount === 0) return 0;
    const { x: x0, y: y0, z: z0 } = min;
    const { x: x1, y: y1, z: z1 } = max;
    const box = this.childBox;
    const child = this.child;
    const entryBox = this.entryBox;
    const stack = this.stack;
    let visits = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp];
      const o = 24 * n;
      let hit = 0;
      for (let i = 0; i < WIDTH; i++) {
        const away =
          +(box[o + i] > x1) |
          +(box[o + 4 + i] > y1) |
          +(box[o + 8 + i] > z1) |
          +(box[o + 12 + i] < x0) |
          +(box[o + 16 + i] < y0) |
          +(box[o + 20 + i] < z0);
        hit |= (away ^ 1) << i;
      }
      hit &= this.childMask[n];
      for (let i = 0; i < WIDTH; i++) {
        if (((hit >> i) & 1) === 0) continue;
        const c = child[4 * n + i];
        if (c >= 0) {
          stack[sp++] = c;
          continue;
        }
        const start = this.leafStart[~c];
        const end = start + this.leafCount[~c];
        for (let e = start; e < end; e++) {
          const k = 6 * e;
          if (
            entryBox[k] <= x1 &&
            x0 <= entryBox[k + 3] &&
            entryBox[k + 1] <= y1 &&
            y0 <= entryBox[k + 4] &&
            entryBox[k + 2] <= z1 &&
            z0 <= entryBox[k + 5]
          ) {
            visits++;
            if (callback(this.entryId[e]) === false) return visits;
          }
        }
      }
    }
    return visits;
  }
}

/** Half the surface area of binary node `b`'s box (the SAH's measure). */
function boxArea(bvh: MeshBvh, b: number): number {
  const k = 6 * b;
  const ex = bvh.bounds[k + 3] - bvh.bounds[k];
  const ey = bvh.bounds[k + 4] - bvh.bounds[k + 1];
  const ez = bvh.bounds[k + 5] - bvh.bounds[k + 2];
  return ex * ey + ey * ez + ez * ex;
}

/**
 * The children `kids` (binary node ids) sorted by their box centres along the diagonal of
 * `octant`, nearest first for a ray of that octant; packed two bits per position. Positions
 * past `kids.length` name the absent children, which the traversal's masks leave out, so every
 * child appears exactly once.
 */
function frontToBack(bvh: MeshBvh, kids: number[], octant: number): number {
  const sx = octant & 1 ? -1 : 1;
  const sy = octant & 2 ? -1 : 1;
  const sz = octant & 4 ? -1 : 1;
  const idx = [0, 1, 2, 3].slice(0, kids.length);
  const key = (i: number): number => {
    const k = 6 * kids[i];
    const b = bvh.bounds;
    return sx * (b[k] + b[k + 3]) + sy * (b[k + 1] + b[k + 4]) + sz * (b[k + 2] + b[k + 5]);
  };
  idx.sort((p, q) => key(p) - key(q) || p - q);
  for (let i = kids.length; i < WIDTH; i++) idx.push(i);
  let packed = 0;
  for (let j = 0; j < WIDTH; j++) packed |= idx[j] << (2 * j);
  return packed;
}
