/**
 * Contacts of rounded shapes from their cores (a sphere is a point plus a radius, a capsule a
 * segment plus a radius): once the closest points of the cores are known, the radii are added
 * analytically (Ericson 2005, §4.5; van den Bergen 2003, §4.3.4). When the cores touch or cross,
 * the caller supplies the normal (a direction perpendicular to the features), so the normal is
 * never zero or NaN.
 */
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Contact } from "./contact.js";

/**
 * Fills `out` from core points `pA` (on A's core) and `pB` (on B's core), radii `rA`, `rB`
 * (scene units) and `fallbackNormal` (unit, from A toward B) used when the core points coincide.
 * Returns false when the gap exceeds `prediction`.
 */
export function contactFromCorePoints(
  out: Contact,
  pA: Vec3,
  pB: Vec3,
  rA: number,
  rB: number,
  prediction: number,
  fallbackNormal: Vec3,
): boolean {
  const r = rA + rB;
  const limit = r + prediction;
  const d2 = vec3.distanceSq(pA, pB);
  if (limit < 0 || d2 > limit * limit) return false;
  vec3.sub(out.normal, pB, pA);
  const d = vec3.normalize(out.normal, out.normal);
  if (d === 0) vec3.copy(out.normal, fallbackNormal);
  out.distance = d - r;
  vec3.addScaled(out.pointA, pA, out.normal, rA);
  vec3.addScaled(out.pointB, pB, out.normal, -rB);
  return true;
}

/** out = a unit vector perpendicular to unit-or-zero `d` (+x when d is zero). */
export function perpendicular(out: Vec3, d: Vec3): Vec3 {
  const ax = Math.abs(d.x);
  const ay = Math.abs(d.y);
  const az = Math.abs(d.z);
  if (ax === 0 && ay === 0 && az === 0) return vec3.set(out, 1, 0, 0);
  // Cross with the world axis least aligned with d.
  if (ax <= ay && ax <= az) vec3.set(out, 0, d.z, -d.y);
  else if (ay <= az) vec3.set(out, -d.z, 0, d.x);
  else vec3.set(out, d.y, -d.x, 0);
  vec3.normalize(out, out);
  return out;
}

const rel = vec3.create();

/** q ← p + the part of (q − p) perpendicular to unit `u` (all in one frame). */
export function dropAxial(q: Vec3, p: Vec3, u: Vec3): void {
  vec3.sub(rel, q, p);
  vec3.addScaled(rel, rel, u, -vec3.dot(rel, u));
  vec3.add(q, p, rel);
}
