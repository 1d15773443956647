/**
 * Sphere–convex hull: the closest point of the hull's vertices' convex hull to the sphere's
 * centre (src/geometry/hull-point.ts, GJK on the point with exact feature projections), then
 * the radius — a sphere is its centre plus a radius, so the pair's distance is the centre's
 * distance to the hull less the radius (issue 16: GJK on the sphere's core against a ribbon or
 * sliver hull, stopping at a tolerance relative to the hull's size, answered 3.2e-8 for a gap of
 * 1.6e-8 beside a needle of 32; 2.9 % of such pairs up to 7e4 times the bar).
 *
 * A centre inside the hull or on its boundary (distance 0: the depth is the centre's distance to
 * the boundary plus the radius, along a face normal) is left to the general narrow phase
 * (src/narrowphase/convex-convex.ts, GJK then EPA), in every query, so that `intersects`,
 * `distance` and `contact` take one decision: a centre outside at distance d touches when
 * d ≤ r (the contact's d − r ≤ 0, the distance's max(0, d − r) = 0).
 *
 * The pair is A = sphere, B = hull (the table flips the other order); the work is in B's frame,
 * the results in A's.
 */

import {
  exactRange,
  orient3dSign,
  PLANE_GAP_UNDECIDED,
  planeGapIo,
  planeGapSignIo,
  pointTriangleGapSignIo,
  SEGMENT_GAP_UNDECIDED,
  segmentConeIo,
  segmentGapIo,
  segmentGapSignIo,
} from "../geometry/exact-predicates.js";
import {
  closestHullPoint,
  HULL_POINT_BEYOND,
  HULL_POINT_INSIDE,
  HULL_POINT_OUTSIDE,
  HULL_POINT_WITHIN,
  hullPointIo,
} from "../geometry/hull-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact, DistanceResult } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";

const centerInB = /* @__PURE__ */ vec3.create();
const closestInB = /* @__PURE__ */ vec3.create();
const normalInB = /* @__PURE__ */ vec3.create();

/**
 * The sphere's centre (A's origin) in B's frame, −R_bᵀ t_b, and its closest hull point
 * (src/geometry/hull-point.ts): HULL_POINT_OUTSIDE with closestInB, normalInB (from the hull
 * toward the centre) and hullPointIo[0] (the centre's distance), or HULL_POINT_INSIDE, or
 * HULL_POINT_UNDECIDED.
 */
function centreStatus(b: ConvexPolyhedron, bInA: Isometry): number {
  hullPointIo[1] = Number.NaN;
  vec3.negate(centerInB, bInA.translation);
  quat.inverseRotate(centerInB, bInA.rotation, centerInB);
  return closestHullPoint(closestInB, normalInB, b, centerInB);
}

/**
 * Relative width of the band (times the largest coordinate of the centre, its closest point
 * and the radii) within which the centre's double distance less the radii is decided exactly
 * ({@link exactHullGap}): far wider than its rounding (a few ε of the feature, hull-point.ts).
 */
const HULL_TOUCH_BAND = 2 ** -36;
/** Vertices within this times the hull's largest coordinate of the closest point's plane. */
const PLANE_SLACK = 2 ** -30;
/** Most vertices on that plane the exact decision takes (its triangles: k(k − 1)(k − 2)/6). */
const PLANE_VERTICES_MAX = 8;
const planeIndex = new Int32Array(PLANE_VERTICES_MAX);
const cornerA = /* @__PURE__ */ vec3.create();
const cornerB = /* @__PURE__ */ vec3.create();
const cornerC = /* @__PURE__ */ vec3.create();
const cornerV = /* @__PURE__ */ vec3.create();

/**
 * In/out of {@link exactHullGap} (no double crosses a call): [0] the gap, the centre's distance
 * less the radii (in; out with its sign made exact near 0), [1], [2] the radii r1, r2 (in).
 */
export const hullGapIo = new Float64Array(3);

/**
 * After a centre status of HULL_POINT_OUTSIDE (the centre, its closest point and normal in the
 * module's scratch): hullGapIo[0], the gap in doubles, with its sign made exact where it lies
 * within {@link HULL_TOUCH_BAND} of 0 (issue 16: a sphere resting exactly on a hull's tilted
 * face was 5.6e-17 apart). The hull's vertices on the supporting plane through the closest
 * point (within {@link PLANE_SLACK}, at most {@link PLANE_VERTICES_MAX}) give triangles of the
 * hull: the centre at or within r1 + r2 of one's plane with its foot in it (exact expansions,
 * src/geometry/exact-predicates.ts `planeGapSignIo`, `footInTriangleIo`) is that near the hull,
 * a touch (gap 0) or an overlap (0 when the doubles said apart); with its foot outside, within
 * them of one's edge or corner (`pointTriangleGapSignIo`), likewise; beyond the radii from the
 * plane of one whose every hull vertex lies exactly on or behind it (`orient3dSign`), apart (the
 * least positive double when the doubles said none). One or two vertices on that plane (the
 * closest point on a hull corner or edge): that corner's or edge's exact gap, else a segment's
 * from the first of them to another vertex ({@link segmentGap}). Else the doubles' gap. The centre as the routine holds it (A's origin moved into B's frame: exact for an
 * identity rotation). Nothing allocated.
 */
function exactHullGap(b: ConvexPolyhedron): void {
  const g = hullGapIo[0];
  const r1 = hullGapIo[1];
  const r2 = hullGapIo[2];
  const m = Math.max(
    Math.abs(centerInB.x),
    Math.abs(centerInB.y),
    Math.abs(centerInB.z),
    Math.abs(closestInB.x),
    Math.abs(closestInB.y),
    Math.abs(closestInB.z),
    r1 + r2,
  );
  if (!(Math.abs(g) <= HULL_TOUCH_BAND * m)) return;
  if (!exactRange(centerInB)) return;
  if (!(r1 === 0 || (r1 < 2 ** 300 && r1 >= 2 ** -300))) return;
  if (!(r2 === 0 || (r2 < 2 ** 300 && r2 >= 2 ** -300))) return;
  const v = b.vertices;
  const n = b.vertexCount;
  let extent = 0;
  for (let i = 0; i < 3 * n; i++) extent = Math.max(extent, Math.abs(v[i]));
  const tol = PLANE_SLACK * extent;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const h =
      (v[3 * i] - closestInB.x) * normalInB.x +
      (v[3 * i + 1] - closestInB.y) * normalInB.y +
      (v[3 * i + 2] - closestInB.z) * normalInB.z;
    if (!(Math.abs(h) <= tol)) continue;
    if (k === PLANE_VERTICES_MAX) return;
    planeIndex[k++] = i;
  }
  let proven = PLANE_GAP_UNDECIDED;
  if (k === 1 || k === 2) {
    // The closest point on a hull corner or edge: that one first, then the segments from the
    // first vertex to every other (the plane's slack may have left the edge's other end out; a
    // segment that is no edge is a chord, inside the hull, and `segmentGap` proves its answer).
    const i0 = planeIndex[0];
    proven = segmentGap(v, n, i0, planeIndex[k - 1]);
    for (let j = 0; j < n && proven === PLANE_GAP_UNDECIDED; j++) {
      if (j !== i0) proven = segmentGap(v, n, i0, j);
    }
  }
  for (let i = 0; i < k && proven === PLANE_GAP_UNDECIDED; i++) {
    for (let j = i + 1; j < k && proven === PLANE_GAP_UNDECIDED; j++) {
      for (let l = j + 1; l < k && proven === PLANE_GAP_UNDECIDED; l++) {
        proven = triangleGap(v, n, planeIndex[i], planeIndex[j], planeIndex[l]);
      }
    }
  }
  if (proven === 0 || (proven < 0 && g > 0)) hullGapIo[0] = 0;
  else if (proven === 1 && !(g > 0)) hullGapIo[0] = Number.MIN_VALUE;
}

/**
 * The exact answer that hull triangle (vertices i, j, l of `v`, `n` of them) gives about the
 * centre (see {@link exactHullGap}): −1 or 0 (its foot in the triangle, that near), 1 (apart:
 * beyond the radii from the triangle's plane, every vertex on or behind it), or
 * PLANE_GAP_UNDECIDED.
 */
function triangleGap(v: ArrayLike<number>, n: number, i: number, j: number, l: number): number {
  const io = planeGapIo;
  io[0] = centerInB.x;
  io[1] = centerInB.y;
  io[2] = centerInB.z;
  io[3] = 0;
  io[4] = 0;
  io[5] = 0;
  for (let q = 0; q < 3; q++) {
    io[6 + q] = v[3 * i + q];
    io[9 + q] = v[3 * j + q];
    io[12 + q] = v[3 * l + q];
  }
  io[15] = hullGapIo[1];
  io[16] = hullGapIo[2];
  const s = planeGapSignIo();
  if (s === PLANE_GAP_UNDECIDED) return s;
  if (s <= 0) {
    // The centre's exact gap to the closed triangle (face, edges, corners): an upper bound.
    const t = pointTriangleGapSignIo();
    return t <= 0 ? t : PLANE_GAP_UNDECIDED;
  }
  // Apart when the hull lies on the other side of the plane from the centre (or on it).
  const side = io[17];
  cornerA.x = v[3 * i];
  cornerA.y = v[3 * i + 1];
  cornerA.z = v[3 * i + 2];
  cornerB.x = v[3 * j];
  cornerB.y = v[3 * j + 1];
  cornerB.z = v[3 * j + 2];
  cornerC.x = v[3 * l];
  cornerC.y = v[3 * l + 1];
  cornerC.z = v[3 * l + 2];
  for (let q = 0; q < n; q++) {
    cornerV.x = v[3 * q];
    cornerV.y = v[3 * q + 1];
    cornerV.z = v[3 * q + 2];
    if (orient3dSign(cornerA, cornerB, cornerC, cornerV) === side) return PLANE_GAP_UNDECIDED;
  }
  return 1;
}

/**
 * The exact answer that hull edge i–j (a corner when i = j; vertices of `v`, `n` of them) gives
 * about the centre when the closest point lies on it (see {@link exactHullGap}): −1 when the
 * centre lies within the radii of the segment (src/geometry/exact-predicates.ts
 * `segmentGapSignIo`), or exactly at them without the proof below (at most the radii from the
 * hull: touching or overlapping); 0 or 1 when exactly at or beyond them and every hull vertex
 * lies on or behind the plane through the segment's nearest point q normal to centre − q
 * (`segmentConeIo`: the plane parts the centre from the hull, whose distance is then the
 * segment's); else PLANE_GAP_UNDECIDED.
 */
function segmentGap(v: ArrayLike<number>, n: number, i: number, j: number): number {
  const s = segmentGapIo;
  s[0] = centerInB.x;
  s[1] = centerInB.y;
  s[2] = centerInB.z;
  s[3] = 0;
  s[4] = 0;
  s[5] = 0;
  for (let q = 0; q < 3; q++) {
    s[6 + q] = v[3 * i + q];
    s[9 + q] = v[3 * j + q];
  }
  s[12] = hullGapIo[1];
  s[13] = hullGapIo[2];
  const g = segmentGapSignIo();
  if (g === SEGMENT_GAP_UNDECIDED) return PLANE_GAP_UNDECIDED;
  if (g < 0) return -1;
  for (let q = 0; q < n; q++) {
    if (q === i || q === j) continue;
    s[14] = v[3 * q];
    s[15] = v[3 * q + 1];
    s[16] = v[3 * q + 2];
    if (!segmentConeIo()) return g === 0 ? -1 : PLANE_GAP_UNDECIDED;
  }
  return g;
}

/** True when the centre is outside the hull (see {@link centreStatus}). */
function centreOutside(b: ConvexPolyhedron, bInA: Isometry): boolean {
  return centreStatus(b, bInA) === HULL_POINT_OUTSIDE;
}

/** True when sphere A and hull B (B at `bInA`, A's frame) overlap or touch. */
export function intersectsSphereConvexPolyhedron(
  a: Sphere,
  b: ConvexPolyhedron,
  bInA: Isometry,
): boolean {
  vec3.negate(centerInB, bInA.translation);
  quat.inverseRotate(centerInB, bInA.rotation, centerInB);
  // Decided early when GJK's bounds put the centre's distance beyond the radius or within it
  // by more than rounding (distance and contact, converging, then decide alike).
  hullPointIo[1] = a.radius;
  const status = closestHullPoint(closestInB, normalInB, b, centerInB);
  if (status === HULL_POINT_BEYOND) return false;
  // A centre within the radius, inside the hull or on it: the sphere meets it (as GJK/EPA,
  // which distance and contact ask for a centre inside, find).
  if (status === HULL_POINT_WITHIN || status === HULL_POINT_INSIDE) return true;
  if (status !== HULL_POINT_OUTSIDE) return intersectsConvexConvex(a, b, bInA);
  hullGapIo[0] = hullPointIo[0] - a.radius;
  hullGapIo[1] = a.radius;
  hullGapIo[2] = 0;
  exactHullGap(b);
  return hullGapIo[0] <= 0;
}

/**
 * Writes the outside answer into the sphere's and the hull's points and the normal (A's frame):
 * normal from the centre toward the hull's closest point, pointA on the sphere along it.
 */
function writeOutside(pointA: Vec3, pointB: Vec3, normal: Vec3, r: number, bInA: Isometry): void {
  iso.transformPoint(pointB, bInA, closestInB);
  quat.rotate(normal, bInA.rotation, normalInB);
  vec3.negate(normal, normal);
  pointA.x = normal.x * r;
  pointA.y = normal.y * r;
  pointA.z = normal.z * r;
}

/**
 * Contact of sphere A and hull B in A's frame; false when the gap exceeds `prediction`. Normal
 * from the sphere's centre toward the hull's closest point.
 */
export function contactSphereConvexPolyhedron(
  out: Contact,
  a: Sphere,
  b: ConvexPolyhedron,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!centreOutside(b, bInA)) return contactConvexConvex(out, a, b, bInA, prediction);
  hullGapIo[0] = hullPointIo[0] - a.radius;
  hullGapIo[1] = a.radius;
  hullGapIo[2] = 0;
  exactHullGap(b);
  const gap = hullGapIo[0];
  if (!(gap <= prediction)) return false;
  out.distance = gap;
  writeOutside(out.pointA, out.pointB, out.normal, a.radius, bInA);
  return true;
}

/** Closest points of sphere A and hull B in A's frame (the deepest points when they overlap). */
export function distanceSphereConvexPolyhedron(
  out: DistanceResult,
  a: Sphere,
  b: ConvexPolyhedron,
  bInA: Isometry,
): DistanceResult {
  if (!centreOutside(b, bInA)) return distanceConvexConvex(out, a, b, bInA);
  hullGapIo[0] = hullPointIo[0] - a.radius;
  hullGapIo[1] = a.radius;
  hullGapIo[2] = 0;
  exactHullGap(b);
  out.distance = Math.max(0, hullGapIo[0]);
  writeOutside(out.pointA, out.pointB, normalScratch, a.radius, bInA);
  return out;
}

const normalScratch = /* @__PURE__ */ vec3.create();

/**
 * The sphere's centre (A's origin) against hull B (at `bInA`) when it lies outside: true with
 * `out.distance` the centre's distance to the hull, `out.normal` (unit, from the centre toward
 * the hull's closest point), `out.pointB` that point and `out.pointA` the centre (A's frame);
 * false for a centre inside the hull, on it or undecided (the caller's general path answers).
 * The caller sets the radii in hullGapIo[1], [2]; hullGapIo[0] is then the distance less their
 * sum with its sign made exact near 0 ({@link exactHullGap}). For a rounded hull's pairs (src/narrowphase/sphere-rounded.ts), which add the radii.
 */
export function contactCentreHull(out: Contact, b: ConvexPolyhedron, bInA: Isometry): boolean {
  if (!centreOutside(b, bInA)) return false;
  out.distance = hullPointIo[0];
  // The gap less the radii of hullGapIo[1], [2] (the caller's) with its sign made exact.
  hullGapIo[0] = hullPointIo[0] - (hullGapIo[1] + hullGapIo[2]);
  exactHullGap(b);
  writeOutside(out.pointA, out.pointB, out.normal, 0, bInA);
  return true;
}
