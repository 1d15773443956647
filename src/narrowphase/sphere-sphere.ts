/**
 * Sphere–sphere: compare squared centre distance with the squared radius sum; a square root
 * only when a contact is asked (Ericson 2005, §4.3.1). Coincident centres get the +x normal
 * and the full depth ra + rb, never a zero or NaN normal.
 */
import type { Isometry } from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact, DistanceResult } from "./contact.js";

/** True when the spheres overlap or touch (B's centre is `bInA.translation`). */
export function intersectsSphereSphere(a: Sphere, b: Sphere, bInA: Isometry): boolean {
  const r = a.radius + b.radius;
  return vec3.lengthSq(bInA.translation) <= r * r;
}

/**
 * Contact of two spheres in A's frame: false when the gap exceeds `prediction` (scene units);
 * otherwise `out` holds the signed distance, the unit normal from A's centre toward B's, and the
 * surface points.
 */
export function contactSphereSphere(
  out: Contact,
  a: Sphere,
  b: Sphere,
  bInA: Isometry,
  prediction: number,
): boolean {
  const c = bInA.translation;
  const r = a.radius + b.radius;
  const limit = r + prediction;
  const d2 = vec3.lengthSq(c);
  if (limit < 0 || d2 > limit * limit) return false;
  const d = vec3.normalize(out.normal, c);
  if (d === 0) vec3.set(out.normal, 1, 0, 0);
  out.distance = d - r;
  vec3.scale(out.pointA, out.normal, a.radius);
  vec3.addScaled(out.pointB, c, out.normal, -b.radius);
  return true;
}

/** Closest points of two spheres in A's frame (deepest points when they overlap). */
export function distanceSphereSphere(
  out: DistanceResult,
  a: Sphere,
  b: Sphere,
  bInA: Isometry,
): DistanceResult {
  const c = bInA.translation;
  const n = out.pointA;
  const d = vec3.normalize(n, c);
  if (d === 0) vec3.set(n, 1, 0, 0);
  out.distance = Math.max(0, d - a.radius - b.radius);
  vec3.addScaled(out.pointB, c, n, -b.radius);
  vec3.scale(out.pointA, n, a.radius);
  return out;
}
