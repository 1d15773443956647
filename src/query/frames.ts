/**
 * World ↔ A-frame conversion shared by the pair queries: the narrow phase answers in A's frame
 * with B's pose in A's frame (`bInA`); the queries validate and convert inputs once and outputs
 * once. The checks are the public API's boundary: cheap (a few comparisons), and they throw
 * `CollideError` naming the argument instead of letting NaN through.
 */
import { UNIT_QUATERNION_SQ_SLACK, UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { checkOutRecord, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { type Contact, type ContactManifold, MAX_MANIFOLD_POINTS } from "../narrowphase/contact.js";
import type { Shape } from "../shapes/shape.js";
import { isBrandedShape } from "../shapes/shape.js";
import { checkShape, checkUnitQuat, checkVec3 } from "../shapes/validate.js";

const bInAScratch = iso.identity();

/** Bounds on |q|² for a quaternion within UNIT_QUATERNION_TOLERANCE of unit length. */
const UNIT_SQ_MIN = (1 - UNIT_QUATERNION_TOLERANCE) ** 2;
const UNIT_SQ_MAX = (1 + UNIT_QUATERNION_TOLERANCE) ** 2;

/** B's pose in A's frame (a module scratch, valid until the next call). No validation. */
export function relativePose(poseA: Isometry, poseB: Isometry): Isometry {
  return iso.invMul(bInAScratch, poseA, poseB);
}

/**
 * Throws `CollideError` naming `field` when `p − from` overflows double precision (two finite
 * points about 2e308 apart, e.g. a ray origin and a shape's pose at ±1e308): every query
 * works with that offset, and an infinite one would turn into NaN.
 */
export function checkOffset(field: string, p: Vec3, from: Vec3, fromName: string): void {
  const dx = p.x - from.x;
  const dy = p.y - from.y;
  const dz = p.z - from.z;
  if (dx - dx === 0 && dy - dy === 0 && dz - dz === 0) return;
  invalidValue(field, p, `is too far from ${fromName}: their offset overflows double precision`);
}

/** Throws `CollideError` unless `pose` has a finite translation and a unit rotation. */
export function checkPose(field: string, pose: Isometry): void {
  if (pose === null || typeof pose !== "object")
    invalidValue(field, pose, "must be a pose {translation, rotation}");
  checkVec3(`${field}.translation`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
}

/** Fast path of {@link checkPose}: true when the pose is certainly valid. */
export function poseOk(p: Isometry): boolean {
  if (p === null || typeof p !== "object") return false;
  const t = p.translation;
  const q = p.rotation;
  if (t === null || typeof t !== "object" || q === null || typeof q !== "object") return false;
  if (typeof t.x !== "number" || typeof t.y !== "number" || typeof t.z !== "number") return false;
  // (Strings would coerce in the arithmetic below: "0.5" * "0.5" is 0.25.)
  if (
    typeof q.x !== "number" ||
    typeof q.y !== "number" ||
    typeof q.z !== "number" ||
    typeof q.w !== "number"
  ) {
    return false;
  }
  // x − x is 0 exactly for finite x and NaN for NaN or ±Infinity.
  if (t.x - t.x !== 0 || t.y - t.y !== 0 || t.z - t.z !== 0) return false;
  const s = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return s >= UNIT_SQ_MIN && s <= UNIT_SQ_MAX;
}

/**
 * Throws `CollideError` unless `s` is a valid shape. A shape built by a `make…` constructor is
 * trusted after one `WeakSet` lookup (src/shapes/shape.ts's `isBrandedShape`: the mark cannot be
 * forged, and the shape is deeply frozen, so its fields and counts are still those the
 * constructor checked). A hand-built object is validated in full by `checkShape`, which names
 * the bad field (`a.radius`, `b.halfExtents.x`, …): negative sizes, strings, infinities and
 * missing fields are refused.
 */
export function checkShapeArg(field: string, s: Shape): void {
  if (s === null || typeof s !== "object" || typeof (s as { type: unknown }).type !== "number") {
    invalidValue(field, s, "must be a shape made by a make… constructor");
  }
  if (!isBrandedShape(s)) checkShape(field, s);
}

/**
 * Validates the arguments of a pair query (shapes `a`, `b`, poses `poseA`, `poseB`) and returns
 * B's pose in A's frame. Throws `CollideError` naming the argument.
 */
export function pairPose(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): Isometry {
  checkShapeArg("a", a);
  checkShapeArg("b", b);
  if (relativePoseChecked(bInAScratch, poseA, poseB)) return offsetChecked(bInAScratch, poseB);
  // Something is off: name it (checkPose throws), else the poses were fine after all.
  if (!poseOk(poseA)) checkPose("poseA", poseA);
  if (!poseOk(poseB)) checkPose("poseB", poseB);
  return offsetChecked(iso.invMul(bInAScratch, poseA, poseB), poseB);
}

const aInBScratch = iso.identity();

/**
 * A's pose in B's frame (poseB⁻¹ ∘ poseA; a module scratch, valid until the next call), after
 * {@link pairPose} validated the arguments: the pose the pair table's routine takes when its
 * entry for (A, B) is the flip of a registration in (B, A)'s order (see `pairFlipped`). Forming
 * it from the world poses, not by inverting `bInA`, gives the routine the same input bit for bit
 * whichever order the caller named the shapes in (issue 16: swapping A and B swaps the points and
 * negates the normal exactly).
 */
export function swappedPairPose(poseA: Isometry, poseB: Isometry): Isometry {
  // The poses passed pairPose's checks, so this forms the pose (and normalises as pairPose does).
  relativePoseChecked(aInBScratch, poseB, poseA);
  return offsetChecked(aInBScratch, poseB);
}

/**
 * `bInA`, unless its offset overflowed (two finite poses about 2e308 apart): then a
 * `CollideError` naming `poseB`, instead of an infinite offset that the pair routines would
 * turn into NaN.
 */
function offsetChecked(bInA: Isometry, poseB: Isometry): Isometry {
  const t = bInA.translation;
  if (t.x - t.x === 0 && t.y - t.y === 0 && t.z - t.z === 0) return bInA;
  return invalidValue(
    "poseB.translation",
    poseB.translation,
    "is too far from poseA: their offset overflows double precision",
  );
}

/**
 * out = poseA⁻¹ ∘ poseB (as `iso.invMul`, bit for bit) when both poses pass the fast checks of
 * {@link poseOk}, a quaternion whose |q|² is off 1 by more than `UNIT_QUATERNION_SQ_SLACK` first
 * divided by its length (docs/FORMATS.md: an accepted quaternion is used normalised; the caller's
 * object is not written); returns false, `out` unspecified, otherwise. Each of the 14 numbers is read
 * once: this is the whole cost of a pair query's boundary, next to kernels of a few nanoseconds.
 */
function relativePoseChecked(out: Isometry, poseA: Isometry, poseB: Isometry): boolean {
  if (poseA === null || typeof poseA !== "object" || poseB === null || typeof poseB !== "object")
    return false;
  const ta = poseA.translation;
  const qa = poseA.rotation;
  const tb = poseB.translation;
  const qb = poseB.rotation;
  if (ta === null || typeof ta !== "object" || qa === null || typeof qa !== "object") return false;
  if (tb === null || typeof tb !== "object" || qb === null || typeof qb !== "object") return false;
  const ax = ta.x;
  const ay = ta.y;
  const az = ta.z;
  const bx = tb.x;
  const by = tb.y;
  const bz = tb.z;
  let qx = qa.x;
  let qy = qa.y;
  let qz = qa.z;
  let qw = qa.w;
  let rx = qb.x;
  let ry = qb.y;
  let rz = qb.z;
  let rw = qb.w;
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
    return false;
  }
  // x − x is 0 exactly for finite x and NaN for NaN or ±Infinity.
  if (ax - ax !== 0 || ay - ay !== 0 || az - az !== 0) return false;
  if (bx - bx !== 0 || by - by !== 0 || bz - bz !== 0) return false;
  const sa = qx * qx + qy * qy + qz * qz + qw * qw;
  const sb = rx * rx + ry * ry + rz * rz + rw * rw;
  if (!(sa >= UNIT_SQ_MIN && sa <= UNIT_SQ_MAX && sb >= UNIT_SQ_MIN && sb <= UNIT_SQ_MAX)) {
    return false;
  }
  // Scaled by 1 (exact) unless off unit by more than rounding.
  const ka = unitScale(sa);
  const kb = unitScale(sb);
  qx *= ka;
  qy *= ka;
  qz *= ka;
  qw *= ka;
  rx *= kb;
  ry *= kb;
  rz *= kb;
  rw *= kb;
  // Translation: conj(qa) applied to tb − ta (quat.rotate's formula with q = conj(qa)).
  const vx = bx - ax;
  const vy = by - ay;
  const vz = bz - az;
  const ix = -qx;
  const iy = -qy;
  const iz = -qz;
  const tx = 2 * (iy * vz - iz * vy);
  const ty = 2 * (iz * vx - ix * vz);
  const tz = 2 * (ix * vy - iy * vx);
  const t = out.translation;
  t.x = vx + qw * tx + (iy * tz - iz * ty);
  t.y = vy + qw * ty + (iz * tx - ix * tz);
  t.z = vz + qw * tz + (ix * ty - iy * tx);
  // Rotation: conj(qa) · qb (quat.multiply's formula).
  const r = out.rotation;
  r.x = qw * rx + ix * rw + iy * rz - iz * ry;
  r.y = qw * ry - ix * rz + iy * rw + iz * rx;
  r.z = qw * rz + ix * ry - iy * rx + iz * rw;
  r.w = qw * rw - ix * rx - iy * ry - iz * rz;
  return true;
}

/**
 * The factor that takes a quaternion of squared length `s` to unit length: 1 (exact) within
 * `UNIT_QUATERNION_SQ_SLACK` of 1, else 1/√s.
 */
function unitScale(s: number): number {
  return Math.abs(s - 1) > UNIT_QUATERNION_SQ_SLACK ? 1 / Math.sqrt(s) : 1;
}

/** Throws `CollideError` unless `prediction` is a number ≥ 0 (+Infinity allowed). */
export function checkPrediction(prediction: number): void {
  // typeof first: "5" >= 0 and null >= 0 are true in JavaScript (a string was taken as 5).
  if (typeof prediction !== "number" || !(prediction >= 0))
    invalidValue("prediction", prediction, "must be a number ≥ 0");
}

const isObj = (v: unknown): boolean => v !== null && typeof v === "object";

/**
 * Throws `CollideError` naming `out` unless it is a contact record to write (`makeContact()`'s
 * shape: objects `normal`, `pointA`, `pointB`); a null or `{}` had thrown a TypeError mid-answer.
 */
export function checkContactOut(out: Contact): void {
  checkOutRecord("out", out, CONTACT_PARTS, "a contact record (makeContact())");
}

const CONTACT_PARTS = ["normal", "pointA", "pointB"] as const;

/**
 * Throws `CollideError` naming `out` unless it is a manifold record to write
 * (`makeContactManifold()`'s shape: an object `normal` and `MAX_MANIFOLD_POINTS` point records).
 */
export function checkManifoldOut(out: ContactManifold, field = "out"): void {
  const p = isObj(out) ? out.points : undefined;
  let ok =
    isObj(out) &&
    !Object.isFrozen(out) &&
    isObj(out.normal) &&
    Array.isArray(p) &&
    p.length >= MAX_MANIFOLD_POINTS;
  for (let i = 0; ok && i < MAX_MANIFOLD_POINTS; i++)
    ok = isObj(p?.[i]) && isObj(p?.[i].pointA) && isObj(p?.[i].pointB);
  if (!ok) invalidValue(field, out, "must be a manifold record (makeContactManifold())");
}
