/**
 * Sphere–sphere: the centre distance against the radius sum (Ericson 2005, §4.3.1). Coincident
 * centres get the full depth ra + rb along +x when A is the smaller sphere and −x otherwise (so
 * contact(B, A) is
 * contact(A, B) flipped when the radii differ), never a zero or NaN normal. `intersects`,
 * `distance` and `contact` compare the same centre distance (its rounded length) with the same
 * radius sum, so they agree on touching to the last bit.
 */
import type { Isometry } from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact, DistanceResult } from "./contact.js";

/** True when the spheres overlap or touch (B's centre is `bInA.translation`). */
export function intersectsSphereSphere(a: Sphere, b: Sphere, bInA: Isometry): boolean {
  return vec3.length(bInA.translation) - (a.radius + b.radius) <= 0;
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
  const d = vec3.normalize(out.normal, c);
  if (!(d - r <= prediction)) return false;
  if (d === 0) vec3.set(out.normal, a.radius <= b.radius ? 1 : -1, 0, 0);
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
  if (d === 0) vec3.set(n, a.radius <= b.radius ? 1 : -1, 0, 0);
  out.distance = Math.max(0, d - (a.radius + b.radius));
  vec3.addScaled(out.pointB, c, n, -b.radius);
  vec3.scale(out.pointA, n, a.radius);
  return out;
}
