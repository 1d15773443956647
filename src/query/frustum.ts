/**
 * View frustums: the six-plane culling tests for bounding spheres and AABBs, and exact
 * "does this shape share a point with the frustum" answers.
 *
 * A frustum is a convex polytope (a truncated pyramid): six planes, each kept as n·p ≤ d with
 * an outward unit normal (the half-space convention of src/shapes/half-space.ts), and its eight
 * corners. It is made from a camera — position, orientation, vertical field of view, aspect,
 * near and far distances; the camera looks along its local −z with +y up, as three.js and
 * OpenGL do — or from a clip-from-world matrix (projection × view, column-major as three.js's
 * `Matrix4.elements`, OpenGL clip space −w ≤ x, y, z ≤ w), whose planes are the sums and
 * differences of its rows (Gribb & Hartmann 2001) and whose corners are the unprojected corners
 * of the clip cube.
 *
 * Culling modes. `conservative` is the classic six-plane test: a sphere is out when its centre
 * is more than r outside one plane; an AABB is out when its corner nearest the inside of one
 * plane (its "negative vertex") is outside it — the plane–corner test (Ericson 2005, §5.2.3; the
 * n-/p-vertex form of Greene 1994). It never drops a visible volume but keeps some invisible
 * ones near the frustum's edges and corners. `exact` settles those by an exact convex test
 * against the frustum as a convex polyhedron (GJK/SAT through the narrow phase's dispatch),
 * so it reports exactly the volumes that share a point with the frustum.
 */

import { MESH_COORDINATE_LIMIT } from "../constants.js";
import { CollideError, checkFieldArg, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { intersectsPair } from "../narrowphase/pair-table.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Sphere } from "../shapes/sphere.js";
import { checkUnitQuat, checkVec3 } from "../shapes/validate.js";
import { checkPose, checkShapeArg } from "./frames.js";

/** Number of planes of a frustum: left, right, bottom, top, near, far (in this order). */
export const FRUSTUM_PLANE_COUNT = 6;

/** A view frustum in the world frame (read-only by convention). */
export interface Frustum {
  /** Planes packed (nx, ny, nz, d), n·p ≤ d inside, n unit and outward: left, right, bottom, top, near, far. */
  readonly planes: Float64Array;
  /** The 8 corners packed xyz: near (−x−y, +x−y, −x+y, +x+y), then far in the same order. */
  readonly corners: Float64Array;
  /** The world AABB of the corners. */
  readonly min: Vec3;
  readonly max: Vec3;
  /** The frustum as a convex polyhedron in the world frame (identity pose), for exact tests. */
  readonly hull: ConvexPolyhedron;
}

/** A camera: where it is, where it looks (local −z, +y up) and its projection. */
export interface FrustumCamera {
  /** Camera position, world frame. */
  position: Vec3;
  /** Camera orientation, a unit quaternion (identity: looking along world −z, +y up). */
  rotation: Quat;
  /** Vertical field of view in radians, in (0, π). */
  fovY: number;
  /** Width over height of the view, > 0. */
  aspect: number;
  /** Distance of the near plane, > 0. */
  near: number;
  /** Distance of the far plane, > near. */
  far: number;
}

/** What a culling test found: outside, crossing a plane, or wholly inside. */
export const FrustumTest = { Outside: 0, Intersects: 1, Inside: 2 } as const;
/** One of the {@link FrustumTest} values. */
export type FrustumTest = (typeof FrustumTest)[keyof typeof FrustumTest];

/** `conservative` (the six planes only) or `exact` (settled by an exact convex test). */
export type FrustumMode = "conservative" | "exact";

function checkFiniteNumber(field: string, x: unknown): asserts x is number {
  if (typeof x !== "number" || !Number.isFinite(x))
    invalidValue(field, x, "must be a finite number");
}

const CAMERA_KEYS = {
  position: "any",
  rotation: "any",
  fovY: "any",
  aspect: "any",
  near: "any",
  far: "any",
} as const;
const CAMERA_SPEC = optionsSpec("makeFrustum", "frustum", CAMERA_KEYS);

/**
 * The frustum of a perspective camera (see {@link FrustumCamera}; three.js's convention: it looks
 * along its local −z, +y up, vertical field of view `fovY`). Throws `CollideError`
 * (`invalid_value`) naming the field: `fovY` outside (0, π), `aspect` ≤ 0, `near` ≤ 0,
 * `near` ≥ `far`, a non-finite number, a non-unit rotation (one within
 * `UNIT_QUATERNION_TOLERANCE` of unit length is accepted and normalised, as every pose's);
 * `far` when a corner of the far face reaches `MESH_COORDINATE_LIMIT` (2^1023 ≈ 8.99e307) in
 * magnitude (the frustum's hull, as every convex hull, takes coordinates below it); and a
 * frustum too thin for its polytope — thinner across some direction than about 4e-10 of its
 * extent, the bar under which every convex hull is flat — naming the field that makes it thin
 * (see `thinField`): `fovY` within about 2e-9 of π at far/near = 10 (the far face ~10^10 times
 * as wide as the frustum is deep), `far` within about 4e-10 of the far face's width of `near`,
 * an `aspect` beyond about 4e-10 or 2.5e9 of the height. Every frustum it returns is a solid
 * that its planes and its polytope both hold, so {@link frustumTestSphere},
 * {@link frustumTestAabb}, {@link frustumIntersectsShape} and the world's `overlapFrustum`
 * agree on it (up to the hull's tolerance at its faces).
 */
export function makeFrustum(camera: FrustumCamera, field = "frustum"): Frustum {
  checkFieldArg("makeFrustum", field, "makeFrustum takes one camera object");
  const p = field ? `${field}.` : "";
  if (camera === null || typeof camera !== "object")
    invalidValue(field, camera, "must be a camera {position, rotation, fovY, aspect, near, far}");
  checkOptions(
    camera,
    field === "frustum" ? CAMERA_SPEC : optionsSpec("makeFrustum", field, CAMERA_KEYS),
  );
  const { position, rotation, fovY, aspect, near, far } = camera;
  checkVec3(`${p}position`, position);
  checkUnitQuat(`${p}rotation`, rotation);
  checkFiniteNumber(`${p}fovY`, fovY);
  checkFiniteNumber(`${p}aspect`, aspect);
  checkFiniteNumber(`${p}near`, near);
  checkFiniteNumber(`${p}far`, far);
  if (!(fovY > 0 && fovY < Math.PI)) invalidValue(`${p}fovY`, fovY, "must be in (0, π) radians");
  if (!(aspect > 0)) invalidValue(`${p}aspect`, aspect, "must be > 0");
  if (!(near > 0)) invalidValue(`${p}near`, near, "must be > 0");
  if (!(near < far)) invalidValue(`${p}far`, far, `must be > near (${near})`);
  const ty = Math.tan(fovY / 2);
  const tx = ty * aspect;
  if (!Number.isFinite(tx * far) || !Number.isFinite(ty * far))
    invalidValue(`${p}far`, far, "makes the frustum's far face overflow");
  // Local corners: near then far, (−x−y, +x−y, −x+y, +x+y).
  const corners = new Float64Array(24);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md), as
  // every pose is (`iso.unitPose`): 1 ± 9e-7 had put the corners off in the 6th digit.
  const pose: Isometry = iso.unitPose(iso.identity(), {
    translation: vec3.clone(position),
    rotation: quat.copy(quat.create(), rotation),
  });
  const t = vec3.create();
  let k = 0;
  for (const dist of [near, far]) {
    for (let c = 0; c < 4; c++) {
      vec3.set(t, (c & 1 ? 1 : -1) * tx * dist, (c & 2 ? 1 : -1) * ty * dist, -dist);
      iso.transformPoint(t, pose, t);
      corners[k++] = t.x;
      corners[k++] = t.y;
      corners[k++] = t.z;
    }
  }
  // The corners as the frustum's hull takes them (computeConvexHull's coordinate limit), else
  // named by the far distance: the far face's corners are the ones that reach it.
  const axis = cornerOutOfRange(corners);
  if (axis >= 0)
    invalidValue(
      `${p}far`,
      far,
      `puts a corner of the frustum's far face at ${"xyz"[axis]} beyond MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude at this position, field of view and aspect (the frustum's hull takes coordinates below it; scale the scene down)`,
    );
  // Local planes n·p ≤ d: the side planes pass through the eye.
  const lx = Math.hypot(1, tx);
  const ly = Math.hypot(1, ty);
  const local = [
    -1 / lx,
    0,
    tx / lx,
    0,
    1 / lx,
    0,
    tx / lx,
    0,
    0,
    -1 / ly,
    ty / ly,
    0,
    0,
    1 / ly,
    ty / ly,
    0,
    0,
    0,
    1,
    -near,
    0,
    0,
    -1,
    far,
  ];
  const planes = new Float64Array(24);
  for (let i = 0; i < 24; i += 4) {
    vec3.set(t, local[i], local[i + 1], local[i + 2]);
    quat.rotate(t, pose.rotation, t);
    planes[i] = t.x;
    planes[i + 1] = t.y;
    planes[i + 2] = t.z;
    planes[i + 3] = local[i + 3] + vec3.dot(t, pose.translation);
  }
  const [name, value] = thinField(tx, ty, aspect, fovY, near, far);
  const size = `${2 * tx * far} wide, ${2 * ty * far} high and ${far - near} deep`;
  return finishFrustum(planes, corners, `${p}${name}`, value, size);
}

/**
 * The camera field to name when the frustum is too thin for its polytope: the factor that
 * makes its thinnest side thin against its largest. The far face is W = 2·tx·far wide,
 * H = 2·ty·far high (tx = ty·aspect), and the frustum D = far − near deep. Thin across x
 * against y, or y against x: `aspect` (W/H = aspect). Thin across x against the depth:
 * W/D = 2·ty·aspect·far/D, `aspect` when it is the smaller factor, else `fovY`; across y
 * against the depth: `fovY`. Thin in depth against the far face: `far` when the depth ratio
 * D/far is the smaller factor (near and far too close), else the field that makes the face wide
 * (`fovY`, or `aspect` when W is the larger side and aspect > ty).
 */
function thinField(
  tx: number,
  ty: number,
  aspect: number,
  fovY: number,
  near: number,
  far: number,
): [string, number] {
  const w = 2 * tx * far;
  const h = 2 * ty * far;
  const d = far - near;
  if (d <= w && d <= h) {
    const wide = Math.max(2 * tx, 2 * ty);
    if (d / far <= 1 / wide) return ["far", far];
    return w > h && aspect > ty ? ["aspect", aspect] : ["fovY", fovY];
  }
  if (w <= h) {
    if (h >= d) return ["aspect", aspect];
    return aspect < 2 * ty * (far / d) ? ["aspect", aspect] : ["fovY", fovY];
  }
  return w >= d ? ["aspect", aspect] : ["fovY", fovY];
}

/**
 * The frustum of a clip-from-world matrix `m` (16 numbers, column-major like three.js's
 * `Matrix4.elements`: projection × view; OpenGL clip space, −w ≤ x, y, z ≤ w inside). Planes by
 * Gribb & Hartmann (2001); corners by unprojecting the clip cube through m⁻¹ (inverted with
 * its columns scaled by powers of two, so that a matrix times any positive factor gives the
 * same frustum). Throws `CollideError` naming `field`: not 16 finite numbers, a singular matrix,
 * one whose clip cube does not unproject to a finite frustum in front of the eye (w ≤ 0 at a
 * corner: an infinite far plane, a far plane behind the eye, the matrix times a negative
 * number), or one whose frustum is too thin for its polytope (as {@link makeFrustum}).
 */
export function makeFrustumFromMatrix(m: ArrayLike<number>, field = "matrix"): Frustum {
  checkFieldArg("makeFrustumFromMatrix", field, "makeFrustumFromMatrix takes the 16 numbers only");
  if (m === null || typeof m !== "object" || m.length !== 16)
    invalidValue(field, m, "must be 16 numbers (a column-major 4×4 matrix)");
  for (let i = 0; i < 16; i++) checkFiniteNumber(`${field}[${i}]`, m[i]);
  // Inverted with its columns scaled: M·S, S = diag(2^k_j) putting column j's largest entry in
  // [1, 2) (exact: powers of two), so the determinant's products of four entries neither
  // overflow nor underflow for a matrix that is merely large or small (attack 36b: a
  // perspective-view matrix times 1e100 was called singular, its determinant 1e400 overflowing).
  // M⁻¹ = S·(M·S)⁻¹: row j of the inverse is row j of the scaled one times 2^k_j, and a corner is
  // a ratio of rows 0..2 to row 3, so only 2^(k_r − k_3) is formed.
  const exps = [0, 0, 0, 0];
  const ms = new Float64Array(16);
  for (let j = 0; j < 4; j++) {
    const big = Math.max(
      Math.abs(m[4 * j]),
      Math.abs(m[4 * j + 1]),
      Math.abs(m[4 * j + 2]),
      Math.abs(m[4 * j + 3]),
    );
    if (big === 0) invalidValue(field, Array.from(m), "is singular (it has no inverse)");
    // Clamped so that 2^k is a normal double; a column smaller than 2^-1000 keeps some scale.
    const e = Math.min(1000, Math.max(-1000, -Math.floor(Math.log2(big))));
    exps[j] = e;
    const sc = 2 ** e;
    for (let i = 0; i < 4; i++) ms[4 * j + i] = m[4 * j + i] * sc;
  }
  const inv = invert4(ms);
  if (inv === null) invalidValue(field, Array.from(m), "is singular (it has no inverse)");
  const corners = new Float64Array(24);
  let k = 0;
  for (const z of [-1, 1]) {
    for (let c = 0; c < 4; c++) {
      const x = c & 1 ? 1 : -1;
      const y = c & 2 ? 1 : -1;
      const w = inv[3] * x + inv[7] * y + inv[11] * z + inv[15];
      // The clip w of the unprojected point is 1/w: inside the clip cube −w ≤ x, y, z ≤ w only
      // for w > 0. A corner with w ≤ 0 lies at infinity or behind the eye — an infinite far
      // plane, a far plane behind the eye, or the matrix times a negative number, whose planes
      // (r3 ± r_i) flip to hold the outside of the corners' hull (attack 37: −M had been
      // accepted, its planes calling outside what its polytope called inside).
      if (!(w > 0))
        invalidValue(
          field,
          Array.from(m),
          w < 0
            ? "has a clip-cube corner behind the eye (w < 0 there: a far plane behind the eye, or the matrix times a negative number)"
            : "has a clip-cube corner at infinity",
        );
      for (let r = 0; r < 3; r++) {
        const q = (inv[r] * x + inv[4 + r] * y + inv[8 + r] * z + inv[12 + r]) / w;
        corners[k++] = exps[r] === exps[3] ? q : q * 2 ** (exps[r] - exps[3]);
      }
    }
  }
  // Rows of m: row i is (m[i], m[4 + i], m[8 + i], m[12 + i]).
  const planes = new Float64Array(24);
  const combos = [
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [2, 1],
    [2, -1],
  ];
  for (let j = 0; j < 6; j++) {
    const [row, sign] = combos[j];
    // Inside: (r3 + sign·r_row)·(p, 1) ≥ 0, i.e. −(…)xyz·p ≤ (…)w. Halved (the plane is
    // homogeneous) so that two entries near ±MAX do not overflow in their sum.
    const a = 0.5 * m[3] + sign * 0.5 * m[row];
    const b = 0.5 * m[7] + sign * 0.5 * m[4 + row];
    const c = 0.5 * m[11] + sign * 0.5 * m[8 + row];
    const d = 0.5 * m[15] + sign * 0.5 * m[12 + row];
    const len = Math.hypot(a, b, c);
    if (!(len > 0) || !Number.isFinite(len))
      invalidValue(field, Array.from(m), `has a degenerate plane ${j}`);
    planes[4 * j] = -a / len;
    planes[4 * j + 1] = -b / len;
    planes[4 * j + 2] = -c / len;
    planes[4 * j + 3] = d / len;
  }
  return finishFrustum(planes, corners, field, Array.from(m), "");
}

/**
 * The first axis (0, 1, 2) on which packed corners xyz hold a coordinate that is not finite or
 * whose magnitude reaches `MESH_COORDINATE_LIMIT` (2^1023: the frustum's hull refuses it, as
 * `computeConvexHull` does every point set, so that its differences and plane offsets stay
 * finite), else −1.
 */
function cornerOutOfRange(corners: Float64Array): number {
  for (let i = 0; i < corners.length; i++) {
    if (!(Math.abs(corners[i]) < MESH_COORDINATE_LIMIT)) return i % 3;
  }
  return -1;
}

/**
 * Checks the corners' range, builds the hull and the AABB. A frustum whose hull comes out flat
 * (or collinear) — thinner across some direction than `HULL_FLAT_FACTOR` hull tolerances, about
 * 4e-10 of its extent (src/geometry/hull.ts `hullTolerance`), the bar below which every convex
 * hull is a polygon or refused — is refused naming `field` (the camera field that makes it thin,
 * or the matrix): its polytope, which the exact tests (`frustumIntersectsShape`, the `exact`
 * modes, the world's `overlapFrustum`) read, would be a polygon holding none of the inside that
 * its planes hold (attack 36b: fovY 3.141592653 at near 1, far 10 gave no visible sphere where
 * the plane tests saw it inside). `size` describes the frustum's extents for the message.
 */
function finishFrustum(
  planes: Float64Array,
  corners: Float64Array,
  field: string,
  value: unknown,
  size: string,
): Frustum {
  const min = vec3.create(Infinity, Infinity, Infinity);
  const max = vec3.create(-Infinity, -Infinity, -Infinity);
  for (let i = 0; i < 24; i += 3) {
    if (
      !Number.isFinite(corners[i]) ||
      !Number.isFinite(corners[i + 1]) ||
      !Number.isFinite(corners[i + 2])
    )
      invalidValue(field, value, "gives a frustum corner out of range");
  }
  if (cornerOutOfRange(corners) >= 0)
    invalidValue(
      field,
      value,
      "gives a frustum corner beyond MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (the frustum's hull takes coordinates below it)",
    );
  for (let i = 0; i < 24; i += 3) {
    min.x = Math.min(min.x, corners[i]);
    min.y = Math.min(min.y, corners[i + 1]);
    min.z = Math.min(min.z, corners[i + 2]);
    max.x = Math.max(max.x, corners[i]);
    max.y = Math.max(max.y, corners[i + 1]);
    max.z = Math.max(max.z, corners[i + 2]);
  }
  const flat = `gives a frustum${size ? ` ${size},` : ""} too thin for its polytope: thinner across some direction than about 4e-10 of its extent (HULL_FLAT_FACTOR hull tolerances, under which a convex hull is flat) or than the rounding of its corners' coordinates, so the exact tests could not hold its inside`;
  let hull: ConvexPolyhedron;
  try {
    hull = makeConvexPolyhedron(corners, field);
  } catch (e) {
    if (e instanceof CollideError) invalidValue(field, value, flat);
    throw e;
  }
  if (hull.flat) invalidValue(field, value, flat);
  return { planes, corners, min, max, hull };
}

/** The inverse of the column-major 4×4 matrix m, or null when it is singular. */
function invert4(m: ArrayLike<number>): Float64Array | null {
  // Cofactor expansion (the adjugate over the determinant).
  const a00 = m[0],
    a01 = m[1],
    a02 = m[2],
    a03 = m[3];
  const a10 = m[4],
    a11 = m[5],
    a12 = m[6],
    a13 = m[7];
  const a20 = m[8],
    a21 = m[9],
    a22 = m[10],
    a23 = m[11];
  const a30 = m[12],
    a31 = m[13],
    a32 = m[14],
    a33 = m[15];
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0 || !Number.isFinite(det) || !Number.isFinite(1 / det)) return null;
  const r = 1 / det;
  const out = new Float64Array(16);
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * r;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * r;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * r;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * r;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * r;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * r;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * r;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * r;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * r;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * r;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * r;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * r;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * r;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * r;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * r;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * r;
  for (let i = 0; i < 16; i++) if (!Number.isFinite(out[i])) return null;
  return out;
}

/** A ball whose radius the sphere test sets (a `Sphere` with a writable radius). */
const probeSphere: { type: typeof ShapeType.Sphere; radius: number } = {
  type: ShapeType.Sphere,
  radius: 1,
};
/** True when every coordinate of `v` is finite. */
function isFiniteVec(v: Vec3): boolean {
  return Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
}
const probeBox: Cuboid = { type: ShapeType.Cuboid, halfExtents: vec3.create() };
const probePose: Isometry = iso.identity();

/** Throws `CollideError` naming `mode` unless it is `"conservative"` or `"exact"`. */
function checkMode(mode: unknown): void {
  if (mode !== "conservative" && mode !== "exact")
    invalidValue("mode", mode, 'must be "conservative" or "exact"');
}

/**
 * Culls the ball (centre `center`, `radius` ≥ 0, world frame) against `f`:
 * {@link FrustumTest.Outside}, `Intersects` or `Inside` (wholly inside every plane). In
 * `conservative` mode (default) by the six planes only: a ball near an edge or corner of the
 * frustum may be reported `Intersects` while outside. In `exact` mode such a ball is settled by
 * an exact test against the frustum polytope, so `Outside` means no shared point. Allocation
 * free. Throws `CollideError` (`invalid_value`) naming the argument and its value: `frustum` not
 * made by {@link makeFrustum} or {@link makeFrustumFromMatrix}, `center` not three finite
 * numbers, `radius` negative, NaN or infinite, `mode` neither `"conservative"` nor `"exact"`
 * (the checks are a few comparisons; a ball of radius 0 is a point).
 */
export function frustumTestSphere(
  f: Frustum,
  center: Vec3,
  radius: number,
  mode: FrustumMode = "conservative",
): FrustumTest {
  checkFrustum("frustum", f);
  checkVec3("center", center);
  if (typeof radius !== "number" || !(radius >= 0 && radius < Infinity))
    invalidValue("radius", radius, "must be a finite number ≥ 0");
  checkMode(mode);
  const p = f.planes;
  let inside = true;
  for (let i = 0; i < 24; i += 4) {
    const s = p[i] * center.x + p[i + 1] * center.y + p[i + 2] * center.z - p[i + 3];
    if (s > radius) return FrustumTest.Outside;
    // Written so that a NaN (centre or radius) is never `Inside`: it is `Intersects`.
    if (!(s <= -radius)) inside = false;
  }
  if (inside) return FrustumTest.Inside;
  if (mode === "conservative" || !(isFiniteVec(center) && radius >= 0 && radius < Infinity)) {
    return FrustumTest.Intersects;
  }
  // (A ball of radius 0 was settled by the planes: a point is inside all six or outside one.)
  probeSphere.radius = radius;
  vec3.copy(probePose.translation, center);
  return intersectsPair(f.hull, probeSphere as Sphere, probePose)
    ? FrustumTest.Intersects
    : FrustumTest.Outside;
}

/**
 * Culls the box [min, max] (world frame) against `f` by the plane–corner test (Ericson 2005,
 * §5.2.3): for each plane, the corner deepest inside it decides `Outside`, the corner farthest
 * out decides whether the box is wholly `Inside`. `exact` mode settles the boxes left
 * `Intersects` by an exact box–polytope test (SAT) against the frustum. Allocation free. An
 * unbounded box (infinite coordinates, as a half-space's AABB) is allowed: it is culled by the
 * planes it can be culled by and otherwise `Intersects` (the exact test is not run for it).
 * Throws `CollideError` (`invalid_value`) naming the argument and its value: `frustum` not made
 * by {@link makeFrustum} or {@link makeFrustumFromMatrix}, `min` or `max` not an object of three
 * numbers or holding a NaN, `max.x` (`.y`, `.z`) below `min`'s, `mode` neither `"conservative"`
 * nor `"exact"`.
 */
export function frustumTestAabb(
  f: Frustum,
  min: Vec3,
  max: Vec3,
  mode: FrustumMode = "conservative",
): FrustumTest {
  checkFrustum("frustum", f);
  checkBoxCorner("min", min);
  checkBoxCorner("max", max);
  if (!(min.x <= max.x)) invalidValue("max.x", max.x, `must be ≥ min.x (${min.x})`);
  if (!(min.y <= max.y)) invalidValue("max.y", max.y, `must be ≥ min.y (${min.y})`);
  if (!(min.z <= max.z)) invalidValue("max.z", max.z, `must be ≥ min.z (${min.z})`);
  checkMode(mode);
  return frustumTestAabbUnchecked(f, min, max, mode);
}

/** Throws `CollideError` naming `field` unless `v` holds three numbers, none NaN (±∞ allowed). */
function checkBoxCorner(field: string, v: Vec3): void {
  if (
    v === null ||
    typeof v !== "object" ||
    typeof v.x !== "number" ||
    typeof v.y !== "number" ||
    typeof v.z !== "number" ||
    Number.isNaN(v.x) ||
    Number.isNaN(v.y) ||
    Number.isNaN(v.z)
  )
    invalidValue(
      field,
      v,
      "must be a vector of 3 numbers, none NaN (±Infinity for an unbounded box)",
    );
}

/**
 * {@link frustumTestAabb} without validation (the world's per-body cull, on boxes it built): a
 * NaN coordinate gives `Intersects`, never `Inside` or `Outside`.
 */
export function frustumTestAabbUnchecked(
  f: Frustum,
  min: Vec3,
  max: Vec3,
  mode: FrustumMode,
): FrustumTest {
  const p = f.planes;
  let inside = true;
  for (let i = 0; i < 24; i += 4) {
    const nx = p[i];
    const ny = p[i + 1];
    const nz = p[i + 2];
    // The corner minimising n·x (deepest inside), and the one maximising it. A zero component
    // adds nothing (not 0 · ∞ = NaN: an unbounded box, a half-space's, against a frustum whose
    // planes have exact zeros, as under the identity rotation).
    const near =
      (nx > 0 ? nx * min.x : nx < 0 ? nx * max.x : 0) +
      (ny > 0 ? ny * min.y : ny < 0 ? ny * max.y : 0) +
      (nz > 0 ? nz * min.z : nz < 0 ? nz * max.z : 0);
    if (near > p[i + 3]) return FrustumTest.Outside;
    const far =
      (nx > 0 ? nx * max.x : nx < 0 ? nx * min.x : 0) +
      (ny > 0 ? ny * max.y : ny < 0 ? ny * min.y : 0) +
      (nz > 0 ? nz * max.z : nz < 0 ? nz * min.z : 0);
    // Written so that a NaN is never `Inside` (a box with a NaN coordinate is `Intersects`).
    if (!(far <= p[i + 3])) inside = false;
  }
  if (inside) return FrustumTest.Inside;
  if (mode === "conservative" || !(isFiniteVec(min) && isFiniteVec(max))) {
    // An unbounded or NaN box is not settled by the exact box test: `Intersects`.
    return FrustumTest.Intersects;
  }
  vec3.set(
    probeBox.halfExtents,
    0.5 * (max.x - min.x),
    0.5 * (max.y - min.y),
    0.5 * (max.z - min.z),
  );
  vec3.set(
    probePose.translation,
    0.5 * (min.x + max.x),
    0.5 * (min.y + max.y),
    0.5 * (min.z + max.z),
  );
  return intersectsPair(f.hull, probeBox, probePose) ? FrustumTest.Intersects : FrustumTest.Outside;
}

/**
 * Throws `CollideError` (`invalid_value`, naming `field`) unless `f` is a frustum made by
 * {@link makeFrustum} or {@link makeFrustumFromMatrix} (24 plane numbers and its polytope).
 */
export function checkFrustum(field: string, f: unknown): asserts f is Frustum {
  const g = f as Frustum | null;
  if (
    g === null ||
    typeof g !== "object" ||
    !(g.planes instanceof Float64Array) ||
    g.planes.length !== 24 ||
    g.hull == null
  )
    invalidValue(field, f, "must be a frustum made by makeFrustum or makeFrustumFromMatrix");
}

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitPoseScratch = iso.identity();

/**
 * True when `shape` at world `pose` shares a point with the frustum `f` (exact: the frustum as a
 * convex polytope against the shape through the narrow phase's dispatch — GJK, SAT or the
 * composite path for meshes and compounds). Throws `CollideError` for a bad frustum, shape or pose.
 */
export function frustumIntersectsShape(f: Frustum, shape: Shape, pose: Isometry): boolean {
  checkFrustum("frustum", f);
  checkShapeArg("shape", shape);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = iso.unitPose(unitPoseScratch, pose);
  checkPose("pose", pose);
  return frustumIntersectsShapeUnchecked(f, shape, pose);
}

/** {@link frustumIntersectsShape} without validation (the world's per-body test). */
export function frustumIntersectsShapeUnchecked(f: Frustum, shape: Shape, pose: Isometry): boolean {
  // B's pose in the frustum hull's frame is B's world pose: the hull has the identity pose.
  return intersectsPair(f.hull, shape, pose);
}
