/**
 * Contacts of rounded shapes from their cores (a sphere is a point plus a radius, a capsule a
 * segment plus a radius): once the closest points of the cores are known, the radii are added
 * analytically (Ericson 2005, §4.5; van den Bergen 2003, §4.3.4). When the cores touch or cross,
 * the caller supplies the normal (a direction perpendicular to the features), so the normal is
 * never zero or NaN.
 */
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Contact } from "./contact.js";

const coreDir = vec3.create();

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
  coreRadii[0] = rA;
  coreRadii[1] = rB;
  return contactFromCoreRadii(out, pA, pB, prediction, fallbackNormal);
}

/**
 * The radii (A's, B's) of {@link contactFromCoreRadii}: a radius read from a shape and passed to
 * a call V8 does not inline is boxed (allocated), as under the mesh pairs' deep call chains.
 */
export const coreRadii = new Float64Array(2);

/**
 * {@link contactFromCorePoints} with the radii in {@link coreRadii}; the normalisation and the
 * points written out (no double crosses a call on the common path), bitwise the same.
 */
export function contactFromCoreRadii(
  out: Contact,
  pA: Vec3,
  pB: Vec3,
  prediction: number,
  fallbackNormal: Vec3,
): boolean {
  const rA = coreRadii[0];
  const rB = coreRadii[1];
  const r = rA + rB;
  // The gap is decided on the distance as returned (d − r), not on d² against (r + prediction)²,
  // whose rounding differs: a pair whose distance rounds to 0 is a contact at prediction 0
  // (issue 16: intersects, distance and contact agree on touching pairs).
  const x = pB.x - pA.x;
  const y = pB.y - pA.y;
  const z = pB.z - pA.z;
  const s = x * x + y * y + z * z;
  let d = 0;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) {
    // vec3.normalize's fast path, written out.
    d = Math.sqrt(s);
    const inv = 1 / d;
    coreDir.x = x * inv;
    coreDir.y = y * inv;
    coreDir.z = z * inv;
  } else {
    vec3.set(coreDir, x, y, z);
    d = vec3.normalize(coreDir, coreDir);
  }
  if (!(d - r <= prediction)) return false;
  const n = out.normal;
  vec3.copy(n, d === 0 ? fallbackNormal : coreDir);
  out.distance = d - r;
  out.pointA.x = pA.x + n.x * rA;
  out.pointA.y = pA.y + n.y * rA;
  out.pointA.z = pA.z + n.z * rA;
  out.pointB.x = pB.x + n.x * -rB;
  out.pointB.y = pB.y + n.y * -rB;
  out.pointB.z = pB.z + n.z * -rB;
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
  // tryNormalize: normalize's returned length, unused, would be boxed where not inlined.
  vec3.tryNormalize(out, out);
  return out;
}

const rel = vec3.create();

/** q ← p + the part of (q − p) perpendicular to unit `u` (all in one frame). */
export function dropAxial(q: Vec3, p: Vec3, u: Vec3): void {
  vec3.sub(rel, q, p);
  // rel −= (rel·u) u written out (a double passed to or returned by a call is boxed).
  const along = -(rel.x * u.x + rel.y * u.y + rel.z * u.z);
  rel.x += u.x * along;
  rel.y += u.y * along;
  rel.z += u.z * along;
  vec3.add(q, p, rel);
}
