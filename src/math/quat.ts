/**
 * Unit quaternions `{x, y, z, w}` (w last, as in three.js, Rapier and docs/FORMATS.md) for
 * rotations. Out-first; `out` may alias inputs. The core avoids `Math.sin`/`cos` so results
 * are bitwise reproducible across JavaScript engines; only `fromAxisAngle` (a convenience for
 * users and tests) calls them.
 */
import type { Vec3 } from "./vec3.js";

/** A rotation as a unit quaternion; w is the scalar part. */
export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** The identity rotation (allocates). */
export function identity(): Quat {
  return { x: 0, y: 0, z: 0, w: 1 };
}

/** A new quaternion (allocates). */
export function create(x = 0, y = 0, z = 0, w = 1): Quat {
  return { x, y, z, w };
}

/** out = q. */
export function copy(out: Quat, q: Quat): Quat {
  out.x = q.x;
  out.y = q.y;
  out.z = q.z;
  out.w = q.w;
  return out;
}

/**
 * out = the rotation by `angle` radians about unit `axis` (out-first like every function here;
 * uses Math.sin/cos, so its last bits may differ between engines). Returns out.
 */
export function fromAxisAngle(out: Quat, axis: Vec3, angle: number): Quat {
  const s = Math.sin(angle / 2);
  out.x = axis.x * s;
  out.y = axis.y * s;
  out.z = axis.z * s;
  out.w = Math.cos(angle / 2);
  return out;
}

/** out = a ⊗ b (apply b, then a). */
export function multiply(out: Quat, a: Quat, b: Quat): Quat {
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return out;
}

/** out = conjugate of q (the inverse of a unit quaternion). */
export function conjugate(out: Quat, q: Quat): Quat {
  out.x = -q.x;
  out.y = -q.y;
  out.z = -q.z;
  out.w = q.w;
  return out;
}

/** |q|. */
export function length(q: Quat): number {
  return Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
}

/** out = q / |q|; returns |q| (0 leaves out unchanged). */
export function normalize(out: Quat, q: Quat): number {
  const len = length(q);
  if (!(len > 0)) return 0;
  const inv = 1 / len;
  out.x = q.x * inv;
  out.y = q.y * inv;
  out.z = q.z * inv;
  out.w = q.w * inv;
  return len;
}

/** out = q applied to v (v rotated by q); out may alias v. */
export function rotate(out: Vec3, q: Quat, v: Vec3): Vec3 {
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  const x = v.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = v.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = v.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** out = inverse of q applied to v; out may alias v. */
export function inverseRotate(out: Vec3, q: Quat, v: Vec3): Vec3 {
  const tx = 2 * (-q.y * v.z + q.z * v.y);
  const ty = 2 * (-q.z * v.x + q.x * v.z);
  const tz = 2 * (-q.x * v.y + q.y * v.x);
  const x = v.x + q.w * tx + (-q.y * tz + q.z * ty);
  const y = v.y + q.w * ty + (-q.z * tx + q.x * tz);
  const z = v.z + q.w * tz + (-q.x * ty + q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** True when the rotation is exactly the identity. */
export function isIdentity(q: Quat): boolean {
  return q.x === 0 && q.y === 0 && q.z === 0 && (q.w === 1 || q.w === -1);
}

/**
 * out = unit quaternion of rotation matrix `m` (row-major, orthonormal, det +1), by Shepperd's
 * method (largest-diagonal branch for stability), normalised. The sign is chosen with w ≥ 0.
 */
export function fromMat3(out: Quat, m: ArrayLike<number>): Quat {
  const m00 = m[0];
  const m11 = m[4];
  const m22 = m[8];
  const trace = m00 + m11 + m22;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    w = 0.25 * s;
    x = (m[7] - m[5]) / s;
    y = (m[2] - m[6]) / s;
    z = (m[3] - m[1]) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m[7] - m[5]) / s;
    x = 0.25 * s;
    y = (m[1] + m[3]) / s;
    z = (m[2] + m[6]) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m[2] - m[6]) / s;
    x = (m[1] + m[3]) / s;
    y = 0.25 * s;
    z = (m[5] + m[7]) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m[3] - m[1]) / s;
    x = (m[2] + m[6]) / s;
    y = (m[5] + m[7]) / s;
    z = 0.25 * s;
  }
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  normalize(out, out);
  return out;
}
