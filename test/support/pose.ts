/**
 * Poses for tests, written out once: the identity rotation, a pose from a translation and a
 * rotation, a rotation about an axis, and a unit quaternion from any four numbers. Plain records: the tests build their poses without the
 * code they check (src/math/isometry.ts, src/math/quat.ts).
 */
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";

/** The identity rotation. */
export const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };

/** The pose of translation (x, y, z) (scene units) and unit quaternion `rotation` (the identity). */
export const pose = (x = 0, y = 0, z = 0, rotation: Quat = ID): Isometry => ({
  translation: { x, y, z },
  rotation,
});

/** The pose of translation `t` (scene units) and the identity rotation. */
export const at = (t: { x: number; y: number; z: number }): Isometry => pose(t.x, t.y, t.z);

/** The rotation by `angle` (radians, right-handed) about the axis (ax, ay, az) (any nonzero length). */
export const axisAngle = (ax: number, ay: number, az: number, angle: number): Quat => {
  const l = Math.hypot(ax, ay, az);
  const s = Math.sin(angle / 2) / l;
  return { x: ax * s, y: ay * s, z: az * s, w: Math.cos(angle / 2) };
};

/**
 * The unit quaternion of the four numbers [x, y, z, w], each divided by their norm; the identity
 * when that norm is below 1e-3 (a zero 4-vector, which a test's random draws can give).
 */
export function quatOf(q: readonly [number, number, number, number]): Quat {
  const l = Math.hypot(...q);
  return l < 1e-3 ? ID : { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
}
