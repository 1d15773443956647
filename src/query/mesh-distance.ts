/**
 * Closest point and signed distance on a triangle mesh through its BVH.
 *
 * The closest triangle is found by a depth-first traversal that visits the nearer child first
 * and skips every box farther than the best squared distance so far (three-mesh-bvh's
 * `closestPointToPoint`; Ericson 2005, §6.6). Inside a leaf, each triangle's squared distance
 * comes from the closest point of `closestPointOnTriangle`'s own body on the packed vertex array
 * (`closestOnTriangleArray`, src/geometry/closest-point.ts: Voronoi regions, §5.1.5, a thin
 * triangle along its exact normal), so the walk ranks by the number the answer is made of; the
 * winner's point and barycentric weights are then computed again. The sign, for a closed mesh, comes from the angle-weighted
 * pseudo-normal of the feature that holds the closest point (Bærentzen & Aanæs 2005, "Signed
 * distance computation using the angle weighted pseudonormal"; src/geometry/pseudo-normals.ts,
 * computed when the mesh is made): the face normal inside a face, the sum of the two face
 * normals on an edge, the angle-weighted sum at a vertex. p is inside when (p − q)·N < 0. For a
 * closed, consistently wound, manifold mesh this equals the sign of the winding number; where
 * the pseudo-normal gives no decision ((p − q)·N = 0 off the surface, next to degenerate
 * triangles) the generalised winding number decides (src/shapes/triangle-mesh.ts). Queries
 * allocate nothing.
 */

import {
  closestOnTriangleArray,
  closestPointOnTriangle,
  triangleIo,
} from "../geometry/closest-point.js";
import {
  commonExponent,
  EXACT_FAR_RATIO,
  type ExactNearest,
  exactCloser,
  exactDistance,
  exactNearestOnTriangle,
  exactPathFor,
  roundNearest,
  toScaledVec,
} from "../geometry/exact-nearest.js";
import { MESH_BVH_INNER_FLAG, meshBvhRightChild } from "../geometry/mesh-bvh.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { containsPointTriangleMesh, getMeshTriangle } from "../shapes/triangle-mesh.js";

/** The answer of {@link closestPointOnMesh}, written in place. */
export interface MeshPointQuery {
  /** Closest point of the mesh, local frame. */
  point: Vec3;
  /** Distance to it (≥ 0). */
  distance: number;
  /** Index of the closest triangle (−1 for a mesh without triangles). */
  triangle: number;
  /** True when the mesh is closed and the query point is inside (or on) it. */
  inside: boolean;
}

/** A new zeroed {@link MeshPointQuery} (allocates). */
export function makeMeshPointQuery(): MeshPointQuery {
  return { point: vec3.create(), distance: 0, triangle: -1, inside: false };
}

let stack = new Int32Array(256);
/** Squared box distance of each stacked node, computed when it was pushed. */
let stackKey = new Float64Array(256);
const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const weights = new Float64Array(3);
/**
 * Scratch of the leaf test, so that no double crosses a call boundary (V8 would box it): the
 * query point (0–2), the squared distance {@link triangleDistanceSq} writes (3) and the walk's
 * reach (4: the best squared distance plus its rounding bound).
 */
const probe = new Float64Array(5);

/** Squared distance from (x, y, z) to node i's box. */
function boxDistanceSq(b: Float64Array, i: number, x: number, y: number, z: number): number {
  const o = 6 * i;
  const dx = Math.max(0, b[o] - x, x - b[o + 3]);
  const dy = Math.max(0, b[o + 1] - y, y - b[o + 4]);
  const dz = Math.max(0, b[o + 2] - z, z - b[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * probe[3] = the squared distance from the point probe[0..2] to the triangle whose corners
 * start at offsets a, b, c of `v`, from the point `closestPointOnTriangle`'s own body
 * (`closestOnTriangleArray`, src/geometry/closest-point.ts) gives, so that the walk ranks every
 * triangle by the number the answer uses. A scalar copy of its region walk once ranked here:
 * without its thin-triangle branch (projection along the exactly expanded normal) it overstated
 * a long thin triangle's distance (the products d1·d4 − d3·d2 cancel to the rounding of the long
 * edge's squares), so the walk never kept the nearest side of a 0.01 × 10000 beam and answered
 * 0.0037 for 0.0027 (session 38).
 */
function triangleDistanceSq(v: Float64Array, a: number, b: number, c: number): void {
  closestOnTriangleArray(v, a, b, c, probe, 0);
  const dx = probe[0] - triangleIo[0];
  const dy = probe[1] - triangleIo[1];
  const dz = probe[2] - triangleIo[2];
  probe[3] = dx * dx + dy * dy + dz * dz;
}

/**
 * Writes to `out` the point of `mesh` closest to the local point `p`, its distance, the index of
 * its triangle and — for a closed mesh — whether p is inside (pseudo-normal sign, see the module
 * doc). Triangles tied to rounding are decided by their closest points (see the note on ties
 * below): the nearest point, the lowest index at equal distances. Local frame;
 * allocation free.
 */
export function closestPointOnMesh(
  out: MeshPointQuery,
  mesh: TriangleMesh,
  p: Vec3,
): MeshPointQuery {
  const bvh = mesh.bvh;
  const v = mesh.vertices;
  const idx = mesh.indices;
  const bounds = bvh.bounds;
  const data = bvh.data;
  const primitives = bvh.primitives;
  out.triangle = -1;
  out.inside = false;
  out.distance = Infinity;
  if (bvh.nodeCount === 0) return out;
  if (stack.length < 2 * bvh.depth + 4) {
    stack = new Int32Array(2 * bvh.depth + 4);
    stackKey = new Float64Array(2 * bvh.depth + 4);
  }
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  probe[0] = px;
  probe[1] = py;
  probe[2] = pz;
  // Rounding bound of a triangle's squared distance (see `tieWindow`), so that the walk keeps
  // every triangle that may be the nearest: the best's and the tied ones'.
  const mag = Math.max(
    Math.abs(px),
    Math.abs(py),
    Math.abs(pz),
    Math.abs(bounds[0]),
    Math.abs(bounds[1]),
    Math.abs(bounds[2]),
    Math.abs(bounds[3]),
    Math.abs(bounds[4]),
    Math.abs(bounds[5]),
  );
  let best = Infinity;
  let reach = Infinity;
  let tied = 0;
  let top = 0;
  stack[top] = 0;
  stackKey[top++] = 0;
  while (top > 0) {
    const i = stack[--top];
    // The box distance was computed at the push; the best may have shrunk since.
    if (stackKey[top] > reach) continue;
    const word = data[2 * i + 1];
    if ((word & MESH_BVH_INNER_FLAG) === 0) {
      // A leaf: `word` is its triangle count, data[2i] its first slot (src/geometry/mesh-bvh.ts).
      const first = data[2 * i];
      for (let k = first; k < first + word; k++) {
        const t = primitives[k];
        triangleDistanceSq(v, 3 * idx[3 * t], 3 * idx[3 * t + 1], 3 * idx[3 * t + 2]);
        const d2 = probe[3];
        if (!(d2 <= reach)) continue;
        if (d2 < best) {
          best = d2;
          // The rounding bound of d²: its relative error, plus 2·d times the closest point's
          // coordinate rounding (that of `mag`); 2^-40 is far above their few ulps.
          reach = best + TIE_RELATIVE * (best + Math.sqrt(best) * mag);
          probe[4] = reach;
        }
        tied = keepTied(tied, t);
      }
      continue;
    }
    const left = i + 1;
    const right = meshBvhRightChild(bvh, i);
    const dl = boxDistanceSq(bounds, left, px, py, pz);
    const dr = boxDistanceSq(bounds, right, px, py, pz);
    // Nearer child on top of the stack.
    if (dl <= dr) {
      if (dr <= reach) {
        stack[top] = right;
        stackKey[top++] = dr;
      }
      if (dl <= reach) {
        stack[top] = left;
        stackKey[top++] = dl;
      }
    } else {
      if (dl <= reach) {
        stack[top] = left;
        stackKey[top++] = dl;
      }
      if (dr <= reach) {
        stack[top] = right;
        stackKey[top++] = dr;
      }
    }
  }
  lastTied = tied;
  if (tied === 0) return out;
  const bestTri = nearestTied(mesh, tied, p);
  lastBestTri = bestTri;
  // The winner's point and weights (the weights name the feature that signs the distance).
  getMeshTriangle(mesh, bestTri, ta, tb, tc);
  closestPointOnTriangle(out.point, p, ta, tb, tc, weights);
  out.triangle = bestTri;
  out.distance = Math.sqrt(vec3.distanceSq(p, out.point));
  // Outside the mesh's box a point is outside the mesh: decided exactly here, because far from
  // it (about 1e16 times its size) the squared distances of all its triangles round alike and
  // the walk may pick a triangle on the far side, whose pseudo-normal would call p inside.
  if (mesh.closed && !outsideRootBox(bounds, px, py, pz))
    out.inside = insideByPseudoNormal(mesh, p, out.point, bestTri, out.distance);
  return out;
}

/*
 * Ties (issue 16): far from the mesh the squared distances of the triangles around the nearest
 * feature agree to their rounding (at 1e9 times the mesh's size they differ by about one part
 * in 1e18, below the ulp), and the lowest-index triangle's point — on another vertex or edge of
 * that triangle, a whole edge away from the nearest point — was returned with the right distance.
 * So the walk keeps every triangle within the rounding bound of the best squared distance, and
 * the tied triangles' closest points are then compared by the difference of their squared
 * distances formed as (q_i − q_j)·((q_i − p) + (q_j − p)), whose rounding is relative to
 * |q_i − q_j|·|q − p| instead of to |q − p|²: the exact nearest point wins (the shared vertex or
 * edge point), and a true tie (equal distances, different points: a point inside, equidistant
 * from two faces) still goes to the lowest index.
 */

/** The tied count of the last walk ({@link closestPointOnMesh}), for {@link exactTiedNearest}. */
let lastTied = 0;
/** The winner of the last walk's tied triangles (their nearest by the double comparison). */
let lastBestTri = -1;

/**
 * Far from the tied triangles of the last {@link closestPointOnMesh} walk on `mesh` from `p`
 * (more than one within the rounding reach, and p farther than {@link EXACT_FAR_RATIO} times
 * their extent, {@link exactPathFor}): the nearest of them decided in exact rationals
 * (src/geometry/exact-nearest.ts) — its exact squared distance, then at equal distances the
 * lexicographically least point (x, then y, then z), then the lowest index — and its point
 * rounded once to `out`. Returns that triangle, or −1 (then `out` is untouched) when the double
 * walk's answer stands. The double comparison of the tied closest points had read their drift,
 * ε·distance: two mirrored triangles seen from 1e9 sizes on their mirror plane answered by
 * triangle order, and a nearer one by 2^-40 of the distance lost (issue 16, session 42).
 * Allocates (BigInt) only then.
 */
export function exactTiedNearest(out: Vec3, mesh: TriangleMesh, p: Vec3, distance: number): number {
  const reach = probe[4];
  let n = 0;
  let lo0 = Infinity;
  let lo1 = Infinity;
  let lo2 = Infinity;
  let hi0 = -Infinity;
  let hi1 = -Infinity;
  let hi2 = -Infinity;
  const v = mesh.vertices;
  const idx = mesh.indices;
  for (let k = 0; k < lastTied; k++) {
    if (!(tiedDist[k] <= reach)) continue;
    n++;
    const t = tiedIds[k];
    for (let j = 0; j < 3; j++) {
      const o = 3 * idx[3 * t + j];
      lo0 = Math.min(lo0, v[o]);
      hi0 = Math.max(hi0, v[o]);
      lo1 = Math.min(lo1, v[o + 1]);
      hi1 = Math.max(hi1, v[o + 1]);
      lo2 = Math.min(lo2, v[o + 2]);
      hi2 = Math.max(hi2, v[o + 2]);
    }
  }
  if (n < 2) return -1;
  const ext = Math.max(hi0 - lo0, hi1 - lo1, hi2 - lo2);
  const coord = Math.max(-lo0, hi0, -lo1, hi1, -lo2, hi2);
  if (!exactPathFor(distance, ext, coord)) return -1;
  let m = 0;
  if (tiedList.length < n) tiedList = new Int32Array(2 * n);
  for (let k = 0; k < lastTied; k++) if (tiedDist[k] <= reach) tiedList[m++] = tiedIds[k];
  loadMesh = mesh;
  return exactNearestAmong(out, tiedList, m, loadMeshTriangle, p, lastBestTri);
}

/** The tied triangles of {@link exactTiedNearest} (ids, grown as needed). */
let tiedList = new Int32Array(64);
/** The mesh {@link loadMeshTriangle} reads. */
let loadMesh: TriangleMesh | null = null;
function loadMeshTriangle(t: number, a: Vec3, b: Vec3, c: Vec3): void {
  getMeshTriangle(loadMesh as TriangleMesh, t, a, b, c);
}

/**
 * Of the `count` triangles `ids[0..count)` (corners written by `load(id, a, b, c)`), the nearest
 * to `p` decided in exact rationals (src/geometry/exact-nearest.ts): its exact squared distance,
 * then at equal distances the lexicographically least point (x, then y, then z), then the lowest
 * id; its point rounded once to `out`, its distance to {@link tiedExactDistance}. `w` is a
 * triangle near the nearest (the double walk's winner): a triangle whose box is exactly farther
 * from p than w's exact nearest point ({@link fartherThanHeld}) is skipped unrationalised, so that
 * the rationals are formed for the few truly tied triangles only (one pass keeping the best: the
 * answer does not depend on the order). Returns the winner's id, or −1 for no triangle.
 * Allocates (BigInt).
 */
export function exactNearestAmong(
  out: Vec3,
  ids: ArrayLike<number>,
  count: number,
  load: (t: number, a: Vec3, b: Vec3, c: Vec3) => void,
  p: Vec3,
  w: number,
): number {
  if (count === 0) return -1;
  // The common exponent over every corner (the answer's rounding is that of the same rationals
  // whichever triangles the pruning skips).
  let e = commonExponent([p]);
  for (let k = 0; k < count; k++) {
    load(ids[k], ta, tb, tc);
    e = Math.min(e, commonExponent([ta, tb, tc]));
  }
  const pi = toScaledVec(p, e);
  // w's exact nearest point x (rounded once): a triangle whose box is farther from p than x, by
  // more than the rounding of that comparison, is exactly farther than w and cannot be the
  // nearest (nor tie with it).
  load(w, ta, tb, tc);
  const rw = exactNearestOnTriangle(toScaledVec(ta, e), toScaledVec(tb, e), toScaledVec(tc, e), pi);
  roundNearest(held, rw, e);
  const wMag = Math.max(maxAbs3(ta), maxAbs3(tb), maxAbs3(tc));
  let best: ExactNearest | null = null;
  let bestTri = -1;
  for (let k = 0; k < count; k++) {
    const t = ids[k];
    load(t, ta, tb, tc);
    if (t !== w && fartherThanHeld(ta, tb, tc, p, wMag)) continue;
    const r =
      t === w
        ? rw
        : exactNearestOnTriangle(toScaledVec(ta, e), toScaledVec(tb, e), toScaledVec(tc, e), pi);
    if (best !== null && !exactCloser(r, best)) {
      if (exactCloser(best, r)) continue;
      const c = lexCompare(r, best);
      if (c > 0 || (c === 0 && t > bestTri)) continue;
    }
    best = r;
    bestTri = t;
  }
  if (best === null) return -1;
  roundNearest(out, best, e);
  tiedExactDistance[0] = exactDistance(best, e);
  return bestTri;
}

/**
 * True when triangle (ta, tb, tc)'s box is farther from p than `held` (a point within rounding of
 * the walk's winner, whose coordinates reach `mag`), by more than the rounding of the comparison:
 * then the triangle is exactly farther from p than the winner ({@link boxExactlyFarther}).
 */
function fartherThanHeld(ta: Vec3, tb: Vec3, tc: Vec3, p: Vec3, mag: number): boolean {
  const b = heldBox;
  b[0] = Math.min(ta.x, tb.x, tc.x);
  b[1] = Math.min(ta.y, tb.y, tc.y);
  b[2] = Math.min(ta.z, tb.z, tc.z);
  b[3] = Math.max(ta.x, tb.x, tc.x);
  b[4] = Math.max(ta.y, tb.y, tc.y);
  b[5] = Math.max(ta.z, tb.z, tc.z);
  return boxExactlyFarther(b, p, held, mag);
}
const heldBox = new Float64Array(6);

/**
 * True when every point of the box `box` (min xyz, max xyz) is farther from p than the point x
 * (within rounding of a triangle's exact nearest point, the triangle's coordinates reaching
 * `mag`), by more than the rounding of the comparison — so nothing in the box is as near as that
 * triangle. The difference of the squared distances, box point c (p clamped to the box) less x,
 * is Σ (c − x)(c + x − 2p) per axis (no square of the distance, so its rounding is relative to
 * |c − x|·(|c| + |x| + 2|p|)); the bar holds that rounding (a few ε of it) and x's offset from the
 * triangle's exact point (ε·mag) along 2|p − x|, with a margin of 2^8 (2^-44). Non-finite terms
 * (coordinates near 1e154) never prune. Allocation free.
 */
export function boxExactlyFarther(box: Float64Array, p: Vec3, x: Vec3, mag: number): boolean {
  let lb = 0;
  let terms = 0;
  let dsum = 0;
  for (let i = 0; i < 3; i++) {
    const pi = i === 0 ? p.x : i === 1 ? p.y : p.z;
    const xi = i === 0 ? x.x : i === 1 ? x.y : x.z;
    const ci = Math.min(Math.max(pi, box[i]), box[i + 3]);
    lb += (ci - xi) * (ci + xi - 2 * pi);
    terms += Math.abs(ci - xi) * (Math.abs(ci) + Math.abs(xi) + 2 * Math.abs(pi));
    dsum += Math.abs(xi - pi);
  }
  const bar = 2 ** -44 * (terms + mag * (2 * dsum + mag)) + Number.MIN_VALUE;
  return lb > bar && Number.isFinite(bar);
}

/**
 * Writes to `out` the exact nearest point of triangle abc to p rounded once (the point
 * {@link exactNearestAmong} holds for its winner `w`, the same double whatever the common
 * exponent) and returns the largest magnitude of the corners (the `mag` of
 * {@link boxExactlyFarther}). Allocates (BigInt).
 */
export function exactHeldPoint(out: Vec3, a: Vec3, b: Vec3, c: Vec3, p: Vec3): number {
  const e = commonExponent([p, a, b, c]);
  const r = exactNearestOnTriangle(
    toScaledVec(a, e),
    toScaledVec(b, e),
    toScaledVec(c, e),
    toScaledVec(p, e),
  );
  roundNearest(out, r, e);
  return Math.max(maxAbs3(a), maxAbs3(b), maxAbs3(c));
}

function maxAbs3(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/** The exact distance of {@link exactTiedNearest}'s last answer (a register). */
export const tiedExactDistance = new Float64Array(1);

/** The sign of x's point less y's, lexicographically (x, then y, then z), exactly. */
function lexCompare(x: ExactNearest, y: ExactNearest): number {
  const sx = x.den < 0n ? -1n : 1n;
  const sy = y.den < 0n ? -1n : 1n;
  for (let k = 0; k < 3; k++) {
    const a = x.num[k] * y.den * sx * sy;
    const b = y.num[k] * x.den * sx * sy;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** Relative rounding bound of a triangle's computed squared distance d² (2^-40 ≫ its few ulps). */
const TIE_RELATIVE = 2 ** -40;

/** The walk's triangles within `reach` of the best so far: ids and squared distances. */
let tiedIds = new Int32Array(64);
let tiedDist = new Float64Array(64);

/**
 * Keeps triangle `t` (its squared distance in probe[3]) among the tied ones, first dropping those
 * beyond the current reach (probe[4]); returns the new count. (Doubles in `probe`, not
 * arguments: V8 boxes a double passed to a call it does not inline.)
 */
function keepTied(count: number, t: number): number {
  const reach = probe[4];
  let n = count;
  // Compacted only when full (those beyond the reach dropped), growing when that frees less
  // than half: amortised O(1) per kept triangle. Compacting at every keep was quadratic in the
  // tied count — every triangle of a flat mesh seen face-on from 1e8 sizes (80,000 triangles,
  // 16 s: fresh-user finding 43/03); the readers skip those beyond the final reach.
  if (n === tiedIds.length) {
    n = 0;
    for (let k = 0; k < count; k++) {
      if (tiedDist[k] <= reach) {
        tiedIds[n] = tiedIds[k];
        tiedDist[n++] = tiedDist[k];
      }
    }
    if (2 * n >= tiedIds.length) {
      const ids = new Int32Array(2 * tiedIds.length);
      const dist = new Float64Array(2 * tiedIds.length);
      ids.set(tiedIds);
      dist.set(tiedDist);
      tiedIds = ids;
      tiedDist = dist;
    }
  }
  tiedIds[n] = t;
  tiedDist[n] = probe[3];
  return n + 1;
}

const cand = vec3.create();
const held = vec3.create();

/**
 * Of the tied triangles within the reach (probe[4]), the one whose closest point to `p` is
 * nearest by the difference of squared distances (see the note above); equal to the lowest index.
 */
function nearestTied(mesh: TriangleMesh, count: number, p: Vec3): number {
  const reach = probe[4];
  let bestTri = -1;
  for (let k = 0; k < count; k++) {
    if (!(tiedDist[k] <= reach)) continue;
    const t = tiedIds[k];
    trianglePoint(cand, mesh, t, p);
    if (bestTri >= 0) {
      const s =
        (cand.x - held.x) * (cand.x - p.x + (held.x - p.x)) +
        (cand.y - held.y) * (cand.y - p.y + (held.y - p.y)) +
        (cand.z - held.z) * (cand.z - p.z + (held.z - p.z));
      if (!(s < 0 || (s === 0 && t < bestTri))) continue;
    }
    bestTri = t;
    vec3.copy(held, cand);
  }
  return bestTri;
}

/** out = the point of triangle `t` of `mesh` closest to `p`. */
function trianglePoint(out: Vec3, mesh: TriangleMesh, t: number, p: Vec3): void {
  getMeshTriangle(mesh, t, ta, tb, tc);
  closestPointOnTriangle(out, p, ta, tb, tc);
}

/** True when (x, y, z) lies strictly outside the root box (node 0) of the bounds `b`. */
function outsideRootBox(b: Float64Array, x: number, y: number, z: number): boolean {
  return x < b[0] || y < b[1] || z < b[2] || x > b[3] || y > b[4] || z > b[5];
}

/** The pseudo-normal sign test at the closest point q of triangle t (see the module doc). */
function insideByPseudoNormal(
  mesh: TriangleMesh,
  p: Vec3,
  point: Vec3,
  t: number,
  distance: number,
): boolean {
  const pn = mesh.pseudoNormals;
  if (distance === 0) return true;
  if (pn === null) return containsPointTriangleMesh(mesh, p);
  const w0 = weights[0];
  const w1 = weights[1];
  const w2 = weights[2];
  const nonzero = (w0 !== 0 ? 1 : 0) + (w1 !== 0 ? 1 : 0) + (w2 !== 0 ? 1 : 0);
  let nx: number;
  let ny: number;
  let nz: number;
  if (nonzero === 3) {
    nx = pn.face[3 * t];
    ny = pn.face[3 * t + 1];
    nz = pn.face[3 * t + 2];
  } else if (nonzero === 2) {
    // The edge opposite the corner whose weight is 0 (edge e runs corner e → e + 1), and the
    // triangle across it.
    const k = w0 === 0 ? 0 : w1 === 0 ? 1 : 2;
    const u = mesh.edgeNeighbors[3 * t + ((k + 1) % 3)];
    const f = pn.face;
    nx = f[3 * t] + (u >= 0 ? f[3 * u] : 0);
    ny = f[3 * t + 1] + (u >= 0 ? f[3 * u + 1] : 0);
    nz = f[3 * t + 2] + (u >= 0 ? f[3 * u + 2] : 0);
  } else {
    const k = w0 !== 0 ? 0 : w1 !== 0 ? 1 : 2;
    const o = 3 * mesh.indices[3 * t + k];
    nx = pn.vertex[o];
    ny = pn.vertex[o + 1];
    nz = pn.vertex[o + 2];
  }
  const s = pn.orientation * ((p.x - point.x) * nx + (p.y - point.y) * ny + (p.z - point.z) * nz);
  if (s !== 0 && Number.isFinite(s)) return s < 0;
  return containsPointTriangleMesh(mesh, p);
}
