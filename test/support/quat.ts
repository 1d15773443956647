/**
 * Quaternion arithmetic for tests on plain arrays [x, y, z, w] (and `{x, y, z, w}` records),
 * written apart from src/math/quat.ts so that tests can build rotations without the code they
 * check.
 */

import type { Quat } from "../../src/math/quat.js";

/** A quaternion [x, y, z, w]. */
export type Q4 = [number, number, number, number];

/** The Hamilton product a·b of quaternions [x, y, z, w]: as rotations, b applied first. */
export function quatMul(a: readonly number[], b: readonly number[]): Q4 {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** A vector [x, y, z]. */
export type V3 = [number, number, number];

/**
 * v rotated by the unit quaternion q = [x, y, z, w], in doubles: t = 2 q×v, v' = v + w t + q×t
 * (the same rounding as every test that wrote it out before, so recorded values still match).
 */
export function rotateVec(q: readonly number[], v: readonly number[]): V3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [
    v[0] + w * tx + (y * tz - z * ty),
    v[1] + w * ty + (z * tx - x * tz),
    v[2] + w * tz + (x * ty - y * tx),
  ];
}

/** v rotated by the inverse of the unit quaternion q = [x, y, z, w] (its conjugate). */
export function unrotateVec(q: readonly number[], v: readonly number[]): V3 {
  return rotateVec([-q[0], -q[1], -q[2], q[3]], v);
}

/** {@link rotateVec} by the unit quaternion record q: the same arithmetic. */
export function rotateByQuat(q: Quat, v: readonly number[]): V3 {
  return rotateVec([q.x, q.y, q.z, q.w], v);
}

/** {@link unrotateVec} by the unit quaternion record q: the same arithmetic. */
export function unrotateByQuat(q: Quat, v: readonly number[]): V3 {
  return unrotateVec([q.x, q.y, q.z, q.w], v);
}
