/**
 * Input validation shared by the shape constructors: each check throws a `CollideError`
 * naming the field and the value it had.
 */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";

/** Throws unless `x` is a finite number. */
export function checkFinite(field: string, x: number): void {
  if (typeof x !== "number" || !Number.isFinite(x))
    invalidValue(field, x, "must be a finite number");
}

/** Throws unless `x` is finite and > 0. */
export function checkPositive(field: string, x: number): void {
  checkFinite(field, x);
  if (!(x > 0)) invalidValue(field, x, "must be > 0");
}

/** Throws unless `x` is finite and ≥ 0. */
export function checkNonNegative(field: string, x: number): void {
  checkFinite(field, x);
  if (!(x >= 0)) invalidValue(field, x, "must be ≥ 0");
}

/** Throws unless every component of `v` is finite. */
export function checkVec3(field: string, v: Vec3): void {
  if (
    v === null ||
    typeof v !== "object" ||
    !Number.isFinite(v.x) ||
    !Number.isFinite(v.y) ||
    !Number.isFinite(v.z)
  ) {
    invalidValue(field, v, "must be a vector of 3 finite numbers");
  }
}

/** Throws unless every component of `v` is finite and ≥ 0. */
export function checkNonNegativeVec3(field: string, v: Vec3): void {
  checkVec3(field, v);
  if (!(v.x >= 0 && v.y >= 0 && v.z >= 0)) invalidValue(field, v, "must be ≥ 0 on every axis");
}

/**
 * Throws unless `q` is a finite quaternion whose length is within UNIT_QUATERNION_TOLERANCE of 1
 * (shared/FORMATS.md: a non-unit quaternion is an error, never silently normalised).
 */
export function checkUnitQuat(field: string, q: Quat): void {
  if (
    q === null ||
    typeof q !== "object" ||
    !Number.isFinite(q.x) ||
    !Number.isFinite(q.y) ||
    !Number.isFinite(q.z) ||
    !Number.isFinite(q.w)
  ) {
    invalidValue(field, q, "must be a quaternion of 4 finite numbers");
  }
  const len = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(Math.abs(len - 1) <= UNIT_QUATERNION_TOLERANCE)) {
    invalidValue(field, q, `must be a unit quaternion (length ${len})`);
  }
}
