/**
 * Quaternion arithmetic for tests on plain arrays [x, y, z, w], written apart from
 * src/math/quat.ts so that tests can build rotations without the code they check.
 */

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
