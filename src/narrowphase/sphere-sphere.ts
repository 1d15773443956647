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
import { UNIT_SQ_MAX, UNIT_SQ_MIN } from "./pose-pair.js";

/** True when the spheres overlap or touch (B's centre is `bInA.translation`). */
export function intersectsSphereSphere(a: Sphere, b: Sphere, bInA: Isometry): boolean {
  return vec3.length(bInA.translation) - (a.radius + b.radius) <= 0;
}

/** Smallest (ra + rb)² the world-pose test trusts (2^-256). */
const SPHERE_SPHERE_R2_MIN = 2 ** -256;
/** Largest (ra + rb)² the world-pose test trusts (2^256). */
const SPHERE_SPHERE_R2_MAX = 2 ** 256;

/**
 * The sphere–sphere overlap from the world poses (the pair table's `intersectsPoses`): 1 when
 * they overlap or touch, 0 when apart, −1 when it cannot tell (a pose that is not finite numbers
 * with a unit quaternion, (ra + rb)² outside [2^-256, 2^256], a NaN radius): the query's
 * validating, rescaling path answers then. No relative pose is formed: the centres' offset is
 * the same in every frame.
 */
export function intersectsSphereSpherePoses(
  a: Sphere,
  poseA: Isometry,
  b: Sphere,
  poseB: Isometry,
): number {
  if (poseA == null || poseB == null) return -1;
  const ta = poseA.translation;
  const qa = poseA.rotation;
  const tb = poseB.translation;
  const qb = poseB.rotation;
  if (ta == null || qa == null || tb == null || qb == null) return -1;
  const ax = ta.x;
  const ay = ta.y;
  const az = ta.z;
  const bx = tb.x;
  const by = tb.y;
  const bz = tb.z;
  const qx = qa.x;
  const qy = qa.y;
  const qz = qa.z;
  const qw = qa.w;
  const rx = qb.x;
  const ry = qb.y;
  const rz = qb.z;
  const rw = qb.w;
  if (
    typeof ax !== "number" ||
    typeof ay !== "number" ||
    typeof az !== "number" ||
    typeof bx !== "number" ||
    typeof by !== "number" ||
    typeof bz !== "number" ||
    typeof qx !== "number" ||
    typeof qy !== "number" ||
    typeof qz !== "number" ||
    typeof qw !== "number" ||
    typeof rx !== "number" ||
    typeof ry !== "number" ||
    typeof rz !== "number" ||
    typeof rw !== "number"
  ) {
    return -1;
  }
  // The rotations do not enter the test, but a non-unit one is refused as on every path.
  const sa = qx * qx + qy * qy + qz * qz + qw * qw;
  const sb = rx * rx + ry * ry + rz * rz + rw * rw;
  if (!(sa >= UNIT_SQ_MIN && sa <= UNIT_SQ_MAX && sb >= UNIT_SQ_MIN && sb <= UNIT_SQ_MAX)) {
    return -1;
  }
  // Finite translations give a finite offset unless it overflowed; NaN or ±Infinity anywhere
  // makes d2 NaN or infinite, which the range test below declines.
  const dx = bx - ax;
  const dy = by - ay;
  const dz = bz - az;
  const d2 = dx * dx + dy * dy + dz * dz;
  const r = a.radius + b.radius;
  const r2 = r * r;
  // A non-finite translation or an offset that overflowed (poses about 2e308 apart) leaves d2
  // NaN or infinite: declined, so that the validating path names it.
  if (d2 - d2 === 0 && r2 >= SPHERE_SPHERE_R2_MIN && r2 <= SPHERE_SPHERE_R2_MAX) {
    // Within a relative 1e-12 of touching the squared test could disagree with the distance's
    // |offset| − (ra + rb) in the last bits: declined, so that every query decides a touching
    // pair the same way (src/narrowphase/sphere-sphere.ts's intersects, distance, contact).
    if (d2 < r2 * (1 - 1e-12)) return 1;
    if (d2 > r2 * (1 + 1e-12)) return 0;
  }
  return -1;
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
