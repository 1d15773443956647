/**
 * A triangle mesh against a triangle mesh: the triangle–triangle part-pair test, and the names of
 * the mesh–mesh routines, which are the generic composite mid-phase's two-tree routines
 * (src/narrowphase/composite.ts: both BVHs descended together, each leaf pair's triangle pairs
 * through the pair table; contact the deepest triangle-pair contact, the manifold the merged
 * triangle-pair manifolds that agree with it, a solid mesh holding the other through the view's
 * `containsPoint`). No traversal of its own.
 *
 * Triangle–triangle intersection, the part-pair test of two meshes' triangles: Möller's
 * interval overlap test (Möller 1997, "A fast triangle–triangle intersection test", JGT 2(2)):
 * each triangle is classified against the other's plane, the two intervals on the planes'
 * common line must overlap, and coplanar pairs take a 2D test (edge crossings, then a corner of
 * one inside the other). Plane distances within `TRIANGLE_PLANE_TOLERANCE` of the pair's scale
 * count as on the plane; a degenerate triangle (zero area) is answered by GJK on the two
 * triangles instead. All outputs are in A's frame, normals from A toward B.
 */
import { TRIANGLE_PLANE_TOLERANCE } from "../constants.js";
import { exactRange, trianglesMeet } from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import {
  contactCompositeComposite,
  distanceCompositeComposite,
  intersectingPartPairs,
  intersectsCompositeComposite,
  makePartPairs,
  manifoldCompositeComposite,
  type PartPairs,
} from "./composite.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { intersectsConvexConvex } from "./convex-convex.js";

// ---------------------------------------------------------------------------------------------
// Triangle–triangle intersection (Möller 1997)
// ---------------------------------------------------------------------------------------------

const n1 = vec3.create();
const n2 = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const lineDir = vec3.create();
const gjkTriA: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const gjkTriB: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const identityPose = iso.identity();

/**
 * {@link interval}'s arguments p0, p1, p2, d0, d1, d2 ([0..5]) and its answer, lo and hi ([6],
 * [7]): a typed array, since V8 boxes a double passed to a call it does not inline or stored in
 * a module `let` (a world of solid meshes allocated ≈ 0.5 MB per step so; issue 15).
 */
const ivIo = new Float64Array(8);

/**
 * The interval on the common line of the triangle with projections p0..p2 and plane distances
 * d0..d2 (Möller 1997, §3), read from and written to {@link ivIo}; false when the triangle is
 * coplanar (all distances 0).
 */
function interval(): boolean {
  const p0 = ivIo[0];
  const p1 = ivIo[1];
  const p2 = ivIo[2];
  const d0 = ivIo[3];
  const d1 = ivIo[4];
  const d2 = ivIo[5];
  let a: number;
  let b: number;
  if (d0 * d1 > 0) {
    a = p2 + ((p0 - p2) * d2) / (d2 - d0);
    b = p2 + ((p1 - p2) * d2) / (d2 - d1);
  } else if (d0 * d2 > 0) {
    a = p1 + ((p0 - p1) * d1) / (d1 - d0);
    b = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else if (d1 * d2 > 0 || d0 !== 0) {
    a = p0 + ((p1 - p0) * d0) / (d0 - d1);
    b = p0 + ((p2 - p0) * d0) / (d0 - d2);
  } else if (d1 !== 0) {
    a = p1 + ((p0 - p1) * d1) / (d1 - d0);
    b = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else if (d2 !== 0) {
    a = p2 + ((p0 - p2) * d2) / (d2 - d0);
    b = p2 + ((p1 - p2) * d2) / (d2 - d1);
  } else return false;
  ivIo[6] = Math.min(a, b);
  ivIo[7] = Math.max(a, b);
  return true;
}

/** 2D orientation of (a, b, c): > 0 counter-clockwise. */
function orient2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** True when c is in the bounding box of segment ab (c collinear with it: then on the segment). */
function onSegment2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  return (
    Math.min(ax, bx) <= cx &&
    cx <= Math.max(ax, bx) &&
    Math.min(ay, by) <= cy &&
    cy <= Math.max(ay, by)
  );
}

/** True when closed 2D segments pq and rs share a point. */
function segmentsCross2(
  px: number,
  py: number,
  qx: number,
  qy: number,
  rx: number,
  ry: number,
  sx: number,
  sy: number,
): boolean {
  const d1 = orient2(px, py, qx, qy, rx, ry);
  const d2 = orient2(px, py, qx, qy, sx, sy);
  const d3 = orient2(rx, ry, sx, sy, px, py);
  const d4 = orient2(rx, ry, sx, sy, qx, qy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return true;
  if (d1 === 0 && onSegment2(px, py, qx, qy, rx, ry)) return true;
  if (d2 === 0 && onSegment2(px, py, qx, qy, sx, sy)) return true;
  if (d3 === 0 && onSegment2(rx, ry, sx, sy, px, py)) return true;
  if (d4 === 0 && onSegment2(rx, ry, sx, sy, qx, qy)) return true;
  return false;
}

/** True when 2D point p is in the closed triangle abc (either winding). */
function pointInTriangle2(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): boolean {
  const o1 = orient2(ax, ay, bx, by, px, py);
  const o2 = orient2(bx, by, cx, cy, px, py);
  const o3 = orient2(cx, cy, ax, ay, px, py);
  return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0);
}

const P = new Float64Array(12);

function project2(k: number, p: Vec3, i: number, j: number): void {
  P[2 * k] = vec3.getAxis(p, i);
  P[2 * k + 1] = vec3.getAxis(p, j);
}

/** The coplanar case: project on the plane's dominant axis pair and test in 2D. */
function coplanar(a0: Vec3, a1: Vec3, a2: Vec3, b0: Vec3, b1: Vec3, b2: Vec3, n: Vec3): boolean {
  const ax = Math.abs(n.x);
  const ay = Math.abs(n.y);
  const az = Math.abs(n.z);
  const drop = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const i = drop === 0 ? 1 : 0;
  const j = drop === 2 ? 1 : 2;
  project2(0, a0, i, j);
  project2(1, a1, i, j);
  project2(2, a2, i, j);
  project2(3, b0, i, j);
  project2(4, b1, i, j);
  project2(5, b2, i, j);
  for (let p = 0; p < 3; p++) {
    const q = (p + 1) % 3;
    for (let r = 3; r < 6; r++) {
      const s = r === 5 ? 3 : r + 1;
      if (
        segmentsCross2(
          P[2 * p],
          P[2 * p + 1],
          P[2 * q],
          P[2 * q + 1],
          P[2 * r],
          P[2 * r + 1],
          P[2 * s],
          P[2 * s + 1],
        )
      )
        return true;
    }
  }
  if (pointInTriangle2(P[0], P[1], P[6], P[7], P[8], P[9], P[10], P[11])) return true;
  return pointInTriangle2(P[6], P[7], P[0], P[1], P[2], P[3], P[4], P[5]);
}

/** The largest coordinate difference of the triangles' corners from a0, into ivIo[6]. */
function maxSpread(a0: Vec3, a1: Vec3, a2: Vec3, b0: Vec3, b1: Vec3, b2: Vec3): void {
  const x = a0.x;
  const y = a0.y;
  const z = a0.z;
  let m = Math.max(0, Math.abs(a1.x - x), Math.abs(a1.y - y), Math.abs(a1.z - z));
  m = Math.max(m, Math.abs(a2.x - x), Math.abs(a2.y - y), Math.abs(a2.z - z));
  m = Math.max(m, Math.abs(b0.x - x), Math.abs(b0.y - y), Math.abs(b0.z - z));
  m = Math.max(m, Math.abs(b1.x - x), Math.abs(b1.y - y), Math.abs(b1.z - z));
  ivIo[6] = Math.max(m, Math.abs(b2.x - x), Math.abs(b2.y - y), Math.abs(b2.z - z));
}

/**
 * True when the closed triangles a0a1a2 and b0b1b2 (same frame) share a point; touching counts.
 * Decided exactly ({@link trianglesMeet}) for coordinates within `exactRange`; beyond it,
 * Möller's interval overlap test (1997) with plane distances snapped to 0 within
 * TRIANGLE_PLANE_TOLERANCE of the pair's scale, a 2D test for coplanar pairs, and GJK for a
 * degenerate (zero-area) triangle. Allocates nothing.
 */
export function intersectsTriangleTriangle(
  a0: Vec3,
  a1: Vec3,
  a2: Vec3,
  b0: Vec3,
  b1: Vec3,
  b2: Vec3,
): boolean {
  // Exactly on the doubles given (issue 16: a padded plane test called box meshes 4.5e-13
  // apart touching, which their distance did not): the same predicate as the pair's distance
  // and contact (src/narrowphase/triangle-polytope.ts), so intersects ⇔ distance 0.
  if (
    exactRange(a0) &&
    exactRange(a1) &&
    exactRange(a2) &&
    exactRange(b0) &&
    exactRange(b1) &&
    exactRange(b2)
  )
    return trianglesMeet(a0, a1, a2, b0, b1, b2);
  vec3.sub(e1, a1, a0);
  vec3.sub(e2, a2, a0);
  vec3.cross(n1, e1, e2);
  vec3.sub(e1, b1, b0);
  vec3.sub(e2, b2, b0);
  vec3.cross(n2, e1, e2);
  const l1 = vec3.length(n1);
  const l2 = vec3.length(n2);
  if (!(l1 > 0) || !(l2 > 0)) {
    vec3.copy(gjkTriA.a, a0);
    vec3.copy(gjkTriA.b, a1);
    vec3.copy(gjkTriA.c, a2);
    vec3.copy(gjkTriB.a, b0);
    vec3.copy(gjkTriB.b, b1);
    vec3.copy(gjkTriB.c, b2);
    return intersectsConvexConvex(gjkTriA, gjkTriB, identityPose);
  }
  maxSpread(a0, a1, a2, b0, b1, b2);
  const tol = TRIANGLE_PLANE_TOLERANCE * ivIo[6];
  // Distances of B's corners from A's plane (length units: divided by |n1|).
  const s1 = vec3.dot(n1, a0);
  let db0 = (vec3.dot(n1, b0) - s1) / l1;
  let db1 = (vec3.dot(n1, b1) - s1) / l1;
  let db2 = (vec3.dot(n1, b2) - s1) / l1;
  if (Math.abs(db0) <= tol) db0 = 0;
  if (Math.abs(db1) <= tol) db1 = 0;
  if (Math.abs(db2) <= tol) db2 = 0;
  if (db0 * db1 > 0 && db0 * db2 > 0) return false;
  const s2 = vec3.dot(n2, b0);
  let da0 = (vec3.dot(n2, a0) - s2) / l2;
  let da1 = (vec3.dot(n2, a1) - s2) / l2;
  let da2 = (vec3.dot(n2, a2) - s2) / l2;
  if (Math.abs(da0) <= tol) da0 = 0;
  if (Math.abs(da1) <= tol) da1 = 0;
  if (Math.abs(da2) <= tol) da2 = 0;
  if (da0 * da1 > 0 && da0 * da2 > 0) return false;
  if (db0 === 0 && db1 === 0 && db2 === 0) return coplanar(a0, a1, a2, b0, b1, b2, n1);
  if (da0 === 0 && da1 === 0 && da2 === 0) return coplanar(a0, a1, a2, b0, b1, b2, n2);
  vec3.cross(lineDir, n1, n2);
  const ax = Math.abs(lineDir.x);
  const ay = Math.abs(lineDir.y);
  const az = Math.abs(lineDir.z);
  const k = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  // The projections on axis k written out (vec3.getAxis returns a double: boxed, not inlined).
  ivIo[0] = k === 0 ? a0.x : k === 1 ? a0.y : a0.z;
  ivIo[1] = k === 0 ? a1.x : k === 1 ? a1.y : a1.z;
  ivIo[2] = k === 0 ? a2.x : k === 1 ? a2.y : a2.z;
  ivIo[3] = da0;
  ivIo[4] = da1;
  ivIo[5] = da2;
  if (!interval()) return coplanar(a0, a1, a2, b0, b1, b2, n1);
  const aLo = ivIo[6];
  const aHi = ivIo[7];
  ivIo[0] = k === 0 ? b0.x : k === 1 ? b0.y : b0.z;
  ivIo[1] = k === 0 ? b1.x : k === 1 ? b1.y : b1.z;
  ivIo[2] = k === 0 ? b2.x : k === 1 ? b2.y : b2.z;
  ivIo[3] = db0;
  ivIo[4] = db1;
  ivIo[5] = db2;
  if (!interval()) return coplanar(a0, a1, a2, b0, b1, b2, n1);
  return aLo <= ivIo[7] && ivIo[6] <= aHi;
}

/** Möller's test on two triangles in one frame (the composite path's bare-triangle part pairs). */
export function intersectsTrianglesInFrame(a: Triangle, b: Triangle): boolean {
  return intersectsTriangleTriangle(a.a, a.b, a.c, b.a, b.b, b.c);
}

// ---------------------------------------------------------------------------------------------
// Mesh against mesh: the generic composite path's two-tree routines
// ---------------------------------------------------------------------------------------------

/** Intersecting triangle pairs: `count` pairs (triangle of A, triangle of B) packed in `pairs`. */
export type TrianglePairs = PartPairs;

/** A new empty pair list (allocates). */
export const makeTrianglePairs: (capacity?: number) => TrianglePairs = makePartPairs;

/**
 * Every intersecting (or touching) triangle pair of meshes `a` and `b` (B posed by `bInA` in
 * A's frame) into `out` (reset first), as (A's triangle, B's triangle), sorted ascending by A's
 * then B's triangle. Returns the number of pairs.
 */
export const intersectingTrianglePairsMeshMesh: (
  out: TrianglePairs,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
) => number = intersectingPartPairs;

/** True when meshes `a` and `b` share a point (or a solid one holds the other). */
export const intersectsMeshMesh: (a: TriangleMesh, b: TriangleMesh, bInA: Isometry) => boolean =
  intersectsCompositeComposite;

/** Closest points of meshes `a` and `b` (A's frame); 0 with the deepest contact's points when they meet. */
export const distanceMeshMesh: (
  out: DistanceResult,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
) => DistanceResult = distanceCompositeComposite;

/** Contact of meshes `a` and `b` within `prediction` (A's frame): the deepest triangle-pair contact. */
export const contactMeshMesh: (
  out: Contact,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  prediction: number,
) => boolean = contactCompositeComposite;

/** Contact manifold of meshes `a` and `b` within `prediction` (A's frame): merged triangle-pair manifolds. */
export const manifoldMeshMesh: (
  out: ContactManifold,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  prediction: number,
) => boolean = manifoldCompositeComposite;
