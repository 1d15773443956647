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
  return hullPointIo[0] <= a.radius;
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
  const gap = hullPointIo[0] - a.radius;
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
  out.distance = Math.max(0, hullPointIo[0] - a.radius);
  writeOutside(out.pointA, out.pointB, normalScratch, a.radius, bInA);
  return out;
}

const normalScratch = /* @__PURE__ */ vec3.create();

/**
 * The sphere's centre (A's origin) against hull B (at `bInA`) when it lies outside: true with
 * `out.distance` the centre's distance to the hull, `out.normal` (unit, from the centre toward
 * the hull's closest point), `out.pointB` that point and `out.pointA` the centre (A's frame);
 * false for a centre inside the hull, on it or undecided (the caller's general path answers).
 * For a rounded hull's pairs (src/narrowphase/sphere-rounded.ts), which add the radii.
 */
export function contactCentreHull(out: Contact, b: ConvexPolyhedron, bInA: Isometry): boolean {
  if (!centreOutside(b, bInA)) return false;
  out.distance = hullPointIo[0];
  writeOutside(out.pointA, out.pointB, out.normal, 0, bInA);
  return true;
}
