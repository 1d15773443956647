/**
 * Rigid poses: a translation plus a unit-quaternion rotation. A pose maps a shape's local frame
 * to the world: p_world = rotation · p_local + translation. Pair routines take B's pose in A's
 * frame (`bInA`), as Box2D and parry do.
 */

import { UNIT_QUATERNION_SQ_SLACK, UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import type { Quat } from "./quat.js";
import * as quat from "./quat.js";
import type { Vec3 } from "./vec3.js";
import * as vec3 from "./vec3.js";

/** A rigid transform: rotate by `rotation` (unit quaternion), then translate by `translation`. */
export interface Isometry {
  translation: Vec3;
  rotation: Quat;
}

/** The identity pose (allocates). */
export function identity(): Isometry {
  return { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
}

/** A pose from a translation and an optional rotation (allocates; copies its inputs). */
export function create(translation: Vec3, rotation?: Quat): Isometry {
  return {
    translation: { x: translation.x, y: translation.y, z: translation.z },
    rotation: rotation
      ? { x: rotation.x, y: rotation.y, z: rotation.z, w: rotation.w }
      : { x: 0, y: 0, z: 0, w: 1 },
  };
}

/**
 * The pose to compute with for a pose the caller gave: `a` itself when its rotation is unit to
 * within `UNIT_QUATERNION_SQ_SLACK` on |q|² (the common case: one read of the quaternion and a
 * comparison), else `out` = `a` with its rotation divided by its length, when that length is
 * within `UNIT_QUATERNION_TOLERANCE` of 1 (docs/FORMATS.md: an accepted quaternion is normalised
 * before use, so the rotation applied is rigid). Anything else — not an object, non-numbers, a
 * length beyond the tolerance — returns `a` unchanged for the caller's validation to refuse.
 * Never writes `a`; allocates nothing (`out` is the caller's scratch).
 */
export function unitPose(out: Isometry, a: Isometry): Isometry {
  if (a === null || typeof a !== "object") return a;
  const q = a.rotation;
  if (q === null || typeof q !== "object") return a;
  const x = q.x;
  const y = q.y;
  const z = q.z;
  const w = q.w;
  const s = x * x + y * y + z * z + w * w;
  // NaN (and a coerced string near unit) stays with `a`: validation names it.
  if (!(Math.abs(s - 1) > UNIT_QUATERNION_SQ_SLACK)) return a;
  const t = a.translation;
  if (
    !(Math.abs(Math.sqrt(s) - 1) <= UNIT_QUATERNION_TOLERANCE) ||
    t === null ||
    typeof t !== "object" ||
    typeof x !== "number" ||
    typeof y !== "number" ||
    typeof z !== "number" ||
    typeof w !== "number"
  ) {
    return a;
  }
  const inv = 1 / Math.sqrt(s);
  out.translation.x = t.x;
  out.translation.y = t.y;
  out.translation.z = t.z;
  const r = out.rotation;
  r.x = x * inv;
  r.y = y * inv;
  r.z = z * inv;
  r.w = w * inv;
  return out;
}

/**
 * Normalises the quaternion at `a[o .. o+3]` (x, y, z, w) in place when its |q|² is more than
 * `UNIT_QUATERNION_SQ_SLACK` from 1 (see {@link unitPose}); the caller has validated it (finite,
 * length within `UNIT_QUATERNION_TOLERANCE`).
 */
export function unitQuatAt(a: Float64Array, o: number): void {
  const x = a[o];
  const y = a[o + 1];
  const z = a[o + 2];
  const w = a[o + 3];
  const s = x * x + y * y + z * z + w * w;
  if (!(Math.abs(s - 1) > UNIT_QUATERNION_SQ_SLACK)) return;
  const inv = 1 / Math.sqrt(s);
  a[o] = x * inv;
  a[o + 1] = y * inv;
  a[o + 2] = z * inv;
  a[o + 3] = w * inv;
}

/** out = a. */
export function copy(out: Isometry, a: Isometry): Isometry {
  out.translation.x = a.translation.x;
  out.translation.y = a.translation.y;
  out.translation.z = a.translation.z;
  quat.copy(out.rotation, a.rotation);
  return out;
}

/** out = iso applied to point p (local → world). out may alias p. */
export function transformPoint(out: Vec3, iso: Isometry, p: Vec3): Vec3 {
  quat.rotate(out, iso.rotation, p);
  out.x += iso.translation.x;
  out.y += iso.translation.y;
  out.z += iso.translation.z;
  return out;
}

/** out = inverse of iso applied to point p (world → local). out may alias p. */
export function inverseTransformPoint(out: Vec3, iso: Isometry, p: Vec3): Vec3 {
  out.x = p.x - iso.translation.x;
  out.y = p.y - iso.translation.y;
  out.z = p.z - iso.translation.z;
  return quat.inverseRotate(out, iso.rotation, out);
}

/** out = rotation of iso applied to direction v. */
export function transformVector(out: Vec3, iso: Isometry, v: Vec3): Vec3 {
  return quat.rotate(out, iso.rotation, v);
}

/** out = inverse rotation of iso applied to direction v. */
export function inverseTransformVector(out: Vec3, iso: Isometry, v: Vec3): Vec3 {
  return quat.inverseRotate(out, iso.rotation, v);
}

/** out = a ∘ b: first b, then a. out may alias a or b. */
export function multiply(out: Isometry, a: Isometry, b: Isometry): Isometry {
  // Read a's translation before writing out (out may alias a or b).
  const ax = a.translation.x;
  const ay = a.translation.y;
  const az = a.translation.z;
  const t = out.translation;
  t.x = b.translation.x;
  t.y = b.translation.y;
  t.z = b.translation.z;
  quat.rotate(t, a.rotation, t);
  t.x += ax;
  t.y += ay;
  t.z += az;
  quat.multiply(out.rotation, a.rotation, b.rotation);
  return out;
}

/** out = a⁻¹ ∘ b: the pose of b expressed in a's frame (`bInA`). out may alias a or b. */
export function invMul(out: Isometry, a: Isometry, b: Isometry): Isometry {
  const t = out.translation;
  const ax = a.translation.x;
  const ay = a.translation.y;
  const az = a.translation.z;
  const ar = a.rotation;
  const arx = ar.x;
  const ary = ar.y;
  const arz = ar.z;
  const arw = ar.w;
  t.x = b.translation.x - ax;
  t.y = b.translation.y - ay;
  t.z = b.translation.z - az;
  const inv = invScratch;
  inv.x = -arx;
  inv.y = -ary;
  inv.z = -arz;
  inv.w = arw;
  quat.rotate(t, inv, t);
  quat.multiply(out.rotation, inv, b.rotation);
  return out;
}

const invScratch: Quat = { x: 0, y: 0, z: 0, w: 1 };

/** out = a⁻¹, the inverse pose (world → local). out may alias a. */
export function invert(out: Isometry, a: Isometry): Isometry {
  quat.conjugate(out.rotation, a.rotation);
  quat.rotate(out.translation, out.rotation, a.translation);
  vec3.negate(out.translation, out.translation);
  return out;
}
