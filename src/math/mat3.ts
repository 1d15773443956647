/**
 * 3×3 matrices stored row-major in a `Float64Array(9)`: `m[3 * row + col]`. Used for rotation
 * matrices (columns are the rotated basis vectors) and covariance matrices.
 */
import type { Quat } from "./quat.js";
import type { Vec3 } from "./vec3.js";

/** A 3×3 matrix, row-major. */
export type Mat3 = Float64Array;

/** A new zero matrix (allocates). */
export function create(): Mat3 {
  return new Float64Array(9);
}

/** out = identity. */
export function identity(out: Mat3): Mat3 {
  out.fill(0);
  out[0] = 1;
  out[4] = 1;
  out[8] = 1;
  return out;
}

/** out = rotation matrix of unit quaternion q. */
export function fromQuat(out: Mat3, q: Quat): Mat3 {
  const { x, y, z, w } = q;
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[0] = 1 - (yy + zz);
  out[1] = xy - wz;
  out[2] = xz + wy;
  out[3] = xy + wz;
  out[4] = 1 - (xx + zz);
  out[5] = yz - wx;
  out[6] = xz - wy;
  out[7] = yz + wx;
  out[8] = 1 - (xx + yy);
  return out;
}

/** out = m · v. */
export function transform(out: Vec3, m: Mat3, v: Vec3): Vec3 {
  const x = m[0] * v.x + m[1] * v.y + m[2] * v.z;
  const y = m[3] * v.x + m[4] * v.y + m[5] * v.z;
  const z = m[6] * v.x + m[7] * v.y + m[8] * v.z;
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** out = mᵀ · v. */
export function transformTranspose(out: Vec3, m: Mat3, v: Vec3): Vec3 {
  const x = m[0] * v.x + m[3] * v.y + m[6] * v.z;
  const y = m[1] * v.x + m[4] * v.y + m[7] * v.z;
  const z = m[2] * v.x + m[5] * v.y + m[8] * v.z;
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** out = column `c` of m. */
export function getColumn(out: Vec3, m: Mat3, c: number): Vec3 {
  out.x = m[c];
  out.y = m[3 + c];
  out.z = m[6 + c];
  return out;
}

/** out = a · b (out may alias neither input). */
export function multiply(out: Mat3, a: Mat3, b: Mat3): Mat3 {
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
    }
  }
  return out;
}

/** out = aᵀ · b (out may alias neither input). */
export function multiplyTransposeA(out: Mat3, a: Mat3, b: Mat3): Mat3 {
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out[3 * r + c] = a[r] * b[c] + a[3 + r] * b[3 + c] + a[6 + r] * b[6 + c];
    }
  }
  return out;
}

/**
 * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations (Golub & Van Loan,
 * §8.5). On return `eigenvalues` holds the eigenvalues and the columns of `eigenvectors` the
 * matching orthonormal eigenvectors (a right-handed basis). `a` is not modified. The sweep
 * count is capped; Jacobi converges quadratically, so 32 sweeps reach machine precision.
 */
export function symmetricEigen(a: Mat3, eigenvalues: Vec3, eigenvectors: Mat3): void {
  const m = Float64Array.from(a);
  const v = identity(eigenvectors);
  const maxSweeps = 32;
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    const off = m[1] * m[1] + m[2] * m[2] + m[5] * m[5];
    const diag = m[0] * m[0] + m[4] * m[4] + m[8] * m[8];
    if (off <= Number.EPSILON * Number.EPSILON * diag || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = m[3 * p + q];
        if (apq === 0) continue;
        const app = m[3 * p + p];
        const aqq = m[3 * q + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          const mkp = m[3 * k + p];
          const mkq = m[3 * k + q];
          m[3 * k + p] = c * mkp - s * mkq;
          m[3 * k + q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < 3; k++) {
          const mpk = m[3 * p + k];
          const mqk = m[3 * q + k];
          m[3 * p + k] = c * mpk - s * mqk;
          m[3 * q + k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[3 * k + p];
          const vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  eigenvalues.x = m[0];
  eigenvalues.y = m[4];
  eigenvalues.z = m[8];
  // Make the basis right-handed: column 2 = column 0 × column 1.
  const det =
    v[0] * (v[4] * v[8] - v[5] * v[7]) -
    v[1] * (v[3] * v[8] - v[5] * v[6]) +
    v[2] * (v[3] * v[7] - v[4] * v[6]);
  if (det < 0) {
    v[2] = -v[2];
    v[5] = -v[5];
    v[8] = -v[8];
  }
}
