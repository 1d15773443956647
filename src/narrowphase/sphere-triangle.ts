/**
 * Sphere–triangle: the closest point of the triangle to the sphere's centre by Voronoi regions
 * (Ericson 2005, §5.1.5 and §5.2.7), then the radius. A centre exactly on the triangle gets the
 * triangle's normal (oriented toward B's side of A, deterministic), a degenerate triangle an
 * edge-perpendicular direction.
 */
import { closestPointOnTriangle } from "../geometry/closest-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { contactFromCorePoints, perpendicular } from "./rounded.js";

const origin = vec3.create();
const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const closest = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const fallback = vec3.create();
const projected = vec3.create();
const faceNormal = vec3.create();
const edge = vec3.create();
const rel = vec3.create();
const crossTmp = vec3.create();

/**
 * When point `p` projects into the face of triangle (a, b, c) (not degenerate), writes that
 * projection to `out` and returns true; else leaves `out` and returns false. In the face's
 * Voronoi region this is the closest point of the triangle (Ericson 2005, §5.1.5), taken from
 * the plane directly so that `p − out` is along the face normal: the barycentric computation's
 * rounding lies in the plane and would otherwise give a centre within rounding of the face an
 * in-plane normal. Sphere–triangle and mesh–sphere contacts both use it.
 */
export function projectOntoTriangleFace(out: Vec3, p: Vec3, a: Vec3, b: Vec3, c: Vec3): boolean {
  vec3.sub(edge, b, a);
  vec3.sub(rel, c, a);
  vec3.cross(faceNormal, edge, rel);
  if (!vec3.tryNormalize(faceNormal, faceNormal)) return false;
  vec3.sub(rel, p, a);
  const h = faceNormal.x * rel.x + faceNormal.y * rel.y + faceNormal.z * rel.z;
  projected.x = p.x - h * faceNormal.x;
  projected.y = p.y - h * faceNormal.y;
  projected.z = p.z - h * faceNormal.z;
  if (!insideTriangle(projected, a, b, c, faceNormal)) return false;
  vec3.copy(out, projected);
  return true;
}

/**
 * True when point `p` of the plane of triangle (a, b, c) with unit normal `n` lies inside the
 * triangle or on its boundary: p is on the inner side of each edge (Ericson 2005, §5.4.2).
 */
function insideTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3, n: Vec3): boolean {
  return edgeSide(p, a, b, n) >= 0 && edgeSide(p, b, c, n) >= 0 && edgeSide(p, c, a, n) >= 0;
}

/**
 * ((p1 − p0) × (p − p0)) · n: ≥ 0 when p is on the triangle's side of edge p0 → p1 (the edges
 * run counter-clockwise about n, which is (b − a) × (c − a) normalised).
 */
function edgeSide(p: Vec3, p0: Vec3, p1: Vec3, n: Vec3): number {
  vec3.sub(edge, p1, p0);
  vec3.sub(rel, p, p0);
  vec3.cross(crossTmp, edge, rel);
  return vec3.dot(crossTmp, n);
}

function loadTriangle(b: Triangle, bInA: Isometry): void {
  iso.transformPoint(ta, bInA, b.a);
  iso.transformPoint(tb, bInA, b.b);
  iso.transformPoint(tc, bInA, b.c);
  closestPointOnTriangle(closest, origin, ta, tb, tc);
}

/**
 * True when sphere A and triangle B overlap or touch. The closest point is the one
 * {@link contactSphereTriangle} uses (in the face region, the projection on the plane), so the
 * two agree: the barycentric closest point alone is off the plane by rounding relative to the
 * triangle's size (a triangle spanning 1e20 put it about 1e4 away from a sphere's centre that
 * `contact` found 0.5 deep).
 */
export function intersectsSphereTriangle(a: Sphere, b: Triangle, bInA: Isometry): boolean {
  loadTriangle(b, bInA);
  projectOntoTriangleFace(closest, origin, ta, tb, tc);
  return vec3.lengthSq(closest) <= a.radius * a.radius;
}

/**
 * Contact of sphere A and triangle B in A's frame; false when the gap exceeds `prediction`.
 * Normal from the sphere's centre toward the triangle's closest point.
 */
export function contactSphereTriangle(
  out: Contact,
  a: Sphere,
  b: Triangle,
  bInA: Isometry,
  prediction: number,
): boolean {
  loadTriangle(b, bInA);
  vec3.sub(e1, tb, ta);
  vec3.sub(e2, tc, ta);
  vec3.cross(fallback, e1, e2);
  if (!vec3.tryNormalize(fallback, fallback)) {
    if (vec3.normalize(e1, e1) === 0) vec3.normalize(e1, e2);
    perpendicular(fallback, e1);
  } else {
    projectOntoTriangleFace(closest, origin, ta, tb, tc);
  }
  // Used only when the centre lies on the triangle, where either side is a minimum: the sign is
  // fixed by the plane offset so that the choice is deterministic.
  if (vec3.dot(fallback, ta) < 0) vec3.negate(fallback, fallback);
  return contactFromCorePoints(out, origin, closest, a.radius, 0, prediction, fallback);
}

const distanceContact: Contact = {
  distance: 0,
  normal: vec3.create(),
  pointA: vec3.create(),
  pointB: vec3.create(),
};

/**
 * Closest points of sphere A and triangle B in A's frame (the deepest points when they
 * overlap, distance 0), by the closed form of {@link contactSphereTriangle}, so that distance,
 * `intersects` and `contact` agree (GJK's tolerance is relative to the triangle's size, which
 * gave distance 0 for a unit sphere 1 away from a triangle spanning 1e20).
 */
export function distanceSphereTriangle(
  out: DistanceResult,
  a: Sphere,
  b: Triangle,
  bInA: Isometry,
): DistanceResult {
  contactSphereTriangle(distanceContact, a, b, bInA, Number.POSITIVE_INFINITY);
  out.distance = Math.max(0, distanceContact.distance);
  vec3.copy(out.pointA, distanceContact.pointA);
  vec3.copy(out.pointB, distanceContact.pointB);
  return out;
}
