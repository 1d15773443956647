/**
 * Sphere–triangle: the closest point of the triangle to the sphere's centre by Voronoi regions
 * (Ericson 2005, §5.1.5 and §5.2.7), then the radius. A centre exactly on the triangle gets the
 * triangle's normal (oriented toward B's side of A, deterministic), a degenerate triangle an
 * edge-perpendicular direction.
 */
import { closestPointOnTriangle } from "../geometry/closest-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact } from "./contact.js";
import { contactFromCorePoints, perpendicular } from "./rounded.js";

const origin = vec3.create();
const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const closest = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const fallback = vec3.create();

function loadTriangle(b: Triangle, bInA: Isometry): void {
  iso.transformPoint(ta, bInA, b.a);
  iso.transformPoint(tb, bInA, b.b);
  iso.transformPoint(tc, bInA, b.c);
  closestPointOnTriangle(closest, origin, ta, tb, tc);
}

/** True when sphere A and triangle B overlap or touch. */
export function intersectsSphereTriangle(a: Sphere, b: Triangle, bInA: Isometry): boolean {
  loadTriangle(b, bInA);
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
  if (vec3.normalize(fallback, fallback) === 0) {
    if (vec3.normalize(e1, e1) === 0) vec3.normalize(e1, e2);
    perpendicular(fallback, e1);
  }
  // Used only when the centre lies on the triangle, where either side is a minimum: the sign is
  // fixed by the plane offset so that the choice is deterministic.
  if (vec3.dot(fallback, ta) < 0) vec3.negate(fallback, fallback);
  return contactFromCorePoints(out, origin, closest, a.radius, 0, prediction, fallback);
}
