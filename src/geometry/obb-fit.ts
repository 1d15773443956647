/**
 * An oriented bounding box fitted to a point set by principal component analysis (Gottschalk,
 * Lin & Manocha 1996, "OBBTree"; Ericson 2005, §4.4.3). The box axes are the eigenvectors of
 * the points' covariance matrix, the directions of greatest, middle and least spread; the
 * points projected on each axis give the box's extent along it. The box is therefore the
 * smallest box with those axes that holds every point (the AABB of the points in the eigen
 * frame); it is not the minimum-volume box, but for point sets spread over a box-like shape
 * with distinct extents the axes line up with the shape's.
 *
 * Axes are ordered by decreasing variance (local x has the greatest spread) and form a
 * right-handed basis; the extents are measured along the axes of the returned quaternion
 * itself, so the box and its rotation agree to the last rounding. Degenerate sets (all points
 * equal, collinear, coplanar) give zero half extents on the degenerate axes (up to round-off)
 * and a valid unit quaternion. The computation is done relative to the first point so sets far
 * from the origin keep their relative precision.
 */

import { invalidValue } from "../errors.js";
import * as mat3 from "../math/mat3.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import { readPointSet } from "./point-set.js";

/**
 * An oriented bounding box: `center` in the points' frame, `halfExtents` along the box's local
 * axes (≥ 0, in the points' unit), `rotation` the unit quaternion taking the local axes to the
 * frame's (column c of its rotation matrix is local axis c).
 */
export interface Obb {
  center: Vec3;
  halfExtents: Vec3;
  rotation: Quat;
}

/** A new box at the origin with zero half extents and the identity rotation (allocates). */
export function makeObb(): Obb {
  return {
    center: { x: 0, y: 0, z: 0 },
    halfExtents: { x: 0, y: 0, z: 0 },
    rotation: { x: 0, y: 0, z: 0, w: 1 },
  };
}

/** Throws `CollideError` naming `out` unless it is an {@link Obb} record to write. */
function checkObbOut(out: Obb): void {
  const ok = (v: unknown) => v !== null && typeof v === "object";
  if (!ok(out) || !ok(out.center) || !ok(out.halfExtents) || !ok(out.rotation))
    invalidValue("out", out, "must be a box record {center, halfExtents, rotation} (makeObb())");
}

/** Largest binary exponent by which the points are rescaled to unit size for the covariance. */
const RESCALE_MAX_EXPONENT = 1000;

const covariance = mat3.create();
const eigenvectors = mat3.create();
const axes = mat3.create();
const eigenvalues: Vec3 = { x: 0, y: 0, z: 0 };
const variances = new Float64Array(3);
const order = new Int32Array(3);

/**
 * Fits an oriented bounding box to the points by PCA (Ericson 2005, §4.4.3): the covariance of
 * the points, its eigenvectors by Jacobi rotations (`mat3.symmetricEigen`) as axes, and the
 * points' extreme projections on them as the box. Writes `out` and returns it.
 * @param out receives the box, in the points' frame.
 * @param points packed `x, y, z` coordinates (length a positive multiple of 3) or `{x, y, z}`
 * points.
 * @throws CollideError (`invalid_value`, field `points`) on an empty set, a length that is not
 * a multiple of 3, or a non-finite coordinate, and when the box's extent or centre overflows a
 * double (points spanning more than about 1.8e308); field `out` when it is not a box record
 * ({@link makeObb}).
 */
export function fitObbPca(out: Obb, points: ArrayLike<number> | readonly Vec3[]): Obb {
  checkObbOut(out);
  const p = readPointSet(points);
  let big = 0;
  for (let i = 0; i < p.length; i++) big = Math.max(big, Math.abs(p[i]));
  if (big <= HUGE_COORDINATE) return fitPoints(out, p);
  // Coordinates near the top of the doubles: their differences, sums and projections would
  // overflow (a NaN centre and −Infinity half extents for ±1e308). Fitted scaled down by a power
  // of two (exactly, but for coordinates that underflow, below 2⁻⁵⁰ of the box's size) and
  // scaled back; a box that does not fit in the doubles is refused.
  const k = 2 ** -Math.floor(Math.log2(big));
  if (scaled.length < p.length) scaled = new Float64Array(Math.max(p.length, 2 * scaled.length));
  for (let i = 0; i < p.length; i++) scaled[i] = p[i] * k;
  fitPoints(out, scaled.subarray(0, p.length));
  const h = out.halfExtents;
  const c = out.center;
  h.x /= k;
  h.y /= k;
  h.z /= k;
  c.x /= k;
  c.y /= k;
  c.z /= k;
  if (!(Math.max(h.x, h.y, h.z, Math.abs(c.x), Math.abs(c.y), Math.abs(c.z)) < Infinity)) {
    invalidValue(
      "points",
      p,
      "span too far: the fitted box's extent overflows a double (above about 1.8e308); scale the points down",
    );
  }
  return out;
}

/** Coordinates above this (2⁹⁰⁰) are fitted scaled down (see {@link fitObbPca}). */
const HUGE_COORDINATE = 2 ** 900;
/** The scaled-down copy of huge points (grown on demand, reused). */
let scaled = new Float64Array(0);

/** {@link fitObbPca} on packed points whose differences and sums do not overflow. */
function fitPoints(out: Obb, p: ArrayLike<number>): Obb {
  const n = p.length / 3;
  const rx = p[0];
  const ry = p[1];
  const rz = p[2];
  let mx = 0;
  let my = 0;
  let mz = 0;
  for (let i = 0; i < p.length; i += 3) {
    mx += p[i] - rx;
    my += p[i + 1] - ry;
    mz += p[i + 2] - rz;
  }
  mx /= n;
  my /= n;
  mz /= n;
  // Rescale by a power of two (exactly) to unit size before squaring, so that the covariance
  // neither under- nor overflows; its eigenvectors do not change with the scale.
  let spread = 0;
  for (let i = 0; i < p.length; i += 3) {
    spread = Math.max(
      spread,
      Math.abs(p[i] - rx - mx),
      Math.abs(p[i + 1] - ry - my),
      Math.abs(p[i + 2] - rz - mz),
    );
  }
  const exponent = spread > 0 ? Math.floor(Math.log2(spread)) : 0;
  const k = 2 ** -Math.max(-RESCALE_MAX_EXPONENT, Math.min(RESCALE_MAX_EXPONENT, exponent));
  let cxx = 0;
  let cxy = 0;
  let cxz = 0;
  let cyy = 0;
  let cyz = 0;
  let czz = 0;
  for (let i = 0; i < p.length; i += 3) {
    const x = (p[i] - rx - mx) * k;
    const y = (p[i + 1] - ry - my) * k;
    const z = (p[i + 2] - rz - mz) * k;
    cxx += x * x;
    cxy += x * y;
    cxz += x * z;
    cyy += y * y;
    cyz += y * z;
    czz += z * z;
  }
  covariance[0] = cxx / n;
  covariance[1] = cxy / n;
  covariance[2] = cxz / n;
  covariance[3] = cxy / n;
  covariance[4] = cyy / n;
  covariance[5] = cyz / n;
  covariance[6] = cxz / n;
  covariance[7] = cyz / n;
  covariance[8] = czz / n;
  mat3.symmetricEigen(covariance, eigenvalues, eigenvectors);

  // Order the axes by decreasing variance (a stable sort of three), keeping the basis
  // right-handed: an odd permutation flips the last column.
  order[0] = 0;
  order[1] = 1;
  order[2] = 2;
  variances[0] = eigenvalues.x;
  variances[1] = eigenvalues.y;
  variances[2] = eigenvalues.z;
  let swaps = 0;
  for (let a = 0; a < 2; a++) {
    for (let b = 0; b < 2 - a; b++) {
      if (variances[order[b + 1]] > variances[order[b]]) {
        const t = order[b];
        order[b] = order[b + 1];
        order[b + 1] = t;
        swaps++;
      }
    }
  }
  const flip = swaps % 2 === 1 ? -1 : 1;
  for (let c = 0; c < 3; c++) {
    const sign = c === 2 ? flip : 1;
    for (let r = 0; r < 3; r++) axes[3 * r + c] = sign * eigenvectors[3 * r + order[c]];
  }
  quat.fromMat3(out.rotation, axes);
  // Measure along the quaternion's own axes so the box and its rotation agree exactly.
  mat3.fromQuat(axes, out.rotation);

  let lo0 = Number.POSITIVE_INFINITY;
  let lo1 = Number.POSITIVE_INFINITY;
  let lo2 = Number.POSITIVE_INFINITY;
  let hi0 = Number.NEGATIVE_INFINITY;
  let hi1 = Number.NEGATIVE_INFINITY;
  let hi2 = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i] - rx;
    const y = p[i + 1] - ry;
    const z = p[i + 2] - rz;
    const s0 = axes[0] * x + axes[3] * y + axes[6] * z;
    const s1 = axes[1] * x + axes[4] * y + axes[7] * z;
    const s2 = axes[2] * x + axes[5] * y + axes[8] * z;
    if (s0 < lo0) lo0 = s0;
    if (s0 > hi0) hi0 = s0;
    if (s1 < lo1) lo1 = s1;
    if (s1 > hi1) hi1 = s1;
    if (s2 < lo2) lo2 = s2;
    if (s2 > hi2) hi2 = s2;
  }
  const m0 = 0.5 * (lo0 + hi0);
  const m1 = 0.5 * (lo1 + hi1);
  const m2 = 0.5 * (lo2 + hi2);
  out.halfExtents.x = 0.5 * (hi0 - lo0);
  out.halfExtents.y = 0.5 * (hi1 - lo1);
  out.halfExtents.z = 0.5 * (hi2 - lo2);
  out.center.x = rx + axes[0] * m0 + axes[1] * m1 + axes[2] * m2;
  out.center.y = ry + axes[3] * m0 + axes[4] * m1 + axes[5] * m2;
  out.center.z = rz + axes[6] * m0 + axes[7] * m1 + axes[8] * m2;
  return out;
}
