/**
 * World ↔ A-frame conversion shared by the pair queries: the narrow phase answers in A's frame
 * with B's pose in A's frame (`bInA`); the queries validate and convert inputs once and outputs
 * once. The checks are the public API's boundary: cheap (a few comparisons), and they throw
 * `CollideError` naming the argument instead of letting NaN through.
 */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Shape } from "../shapes/shape.js";
import { checkUnitQuat, checkVec3 } from "../shapes/validate.js";

const bInAScratch = iso.identity();

/** Bounds on |q|² for a quaternion within UNIT_QUATERNION_TOLERANCE of unit length. */
const UNIT_SQ_MIN = (1 - UNIT_QUATERNION_TOLERANCE) ** 2;
const UNIT_SQ_MAX = (1 + UNIT_QUATERNION_TOLERANCE) ** 2;

/** B's pose in A's frame (a module scratch, valid until the next call). No validation. */
export function relativePose(poseA: Isometry, poseB: Isometry): Isometry {
  return iso.invMul(bInAScratch, poseA, poseB);
}

/** Throws `CollideError` unless `pose` has a finite translation and a unit rotation. */
export function checkPose(field: string, pose: Isometry): void {
  if (pose === null || typeof pose !== "object")
    invalidValue(field, pose, "must be a pose {translation, rotation}");
  checkVec3(`${field}.translation`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
}

/** Fast path of {@link checkPose}: true when the pose is certainly valid. */
function poseOk(p: Isometry): boolean {
  if (p === null || typeof p !== "object") return false;
  const t = p.translation;
  const q = p.rotation;
  if (t === null || typeof t !== "object" || q === null || typeof q !== "object") return false;
  // x − x is 0 exactly for finite x and NaN for NaN or ±Infinity.
  if (t.x - t.x !== 0 || t.y - t.y !== 0 || t.z - t.z !== 0) return false;
  const s = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return s >= UNIT_SQ_MIN && s <= UNIT_SQ_MAX;
}

/** Throws `CollideError` unless `s` looks like a shape (an object with a numeric `type`). */
export function checkShapeArg(field: string, s: Shape): void {
  if (s === null || typeof s !== "object" || typeof (s as { type: unknown }).type !== "number") {
    invalidValue(field, s, "must be a shape made by a make… constructor");
  }
}

/**
 * Validates the arguments of a pair query (shapes `a`, `b`, poses `poseA`, `poseB`) and returns
 * B's pose in A's frame. Throws `CollideError` naming the argument.
 */
export function pairPose(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): Isometry {
  checkShapeArg("a", a);
  checkShapeArg("b", b);
  if (!poseOk(poseA)) checkPose("poseA", poseA);
  if (!poseOk(poseB)) checkPose("poseB", poseB);
  return iso.invMul(bInAScratch, poseA, poseB);
}

/** Throws `CollideError` unless `prediction` is a number ≥ 0 (+Infinity allowed). */
export function checkPrediction(prediction: number): void {
  if (!(prediction >= 0)) invalidValue("prediction", prediction, "must be ≥ 0");
}
