/**
 * 2D poses (rigid transforms): a translation `p` and a rotation `q`, mapping a shape's local
 * frame to the world frame as `x_W = q · x_L + p` (Box2D v3's `b2Transform`). Pair routines work
 * in A's frame with B's pose given in A's frame, `bInA = poseA⁻¹ · poseB` (docs/DESIGN.md).
 */
import { UNIT_QUATERNION_SQ_SLACK, UNIT_ROTATION2D_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Rot2 } from "./rot2.js";
import * as rot2 from "./rot2.js";
import type { Vec2 } from "./vec2.js";

/** A 2D rigid transform: translation `p` (scene units) and unit rotation `q`. */
export interface Pose2 {
  p: Vec2;
  q: Rot2;
}

/** The identity pose (allocates). */
export function identity(): Pose2 {
  return { p: { x: 0, y: 0 }, q: { c: 1, s: 0 } };
}

/**
 * A pose at `(x, y)` rotated by `angle` radians counter-clockwise (allocates). Calls
 * `Math.cos`/`Math.sin` once through {@link rot2.fromAngle}; this is the boundary. Throws
 * `CollideError` naming `angle` unless it is a finite number (x and y are checked where the
 * pose is used).
 */
export function fromAngle(x: number, y: number, angle = 0): Pose2 {
  return { p: { x, y }, q: rot2.fromAngle(angle) };
}

/** A copy of `a` (allocates). */
export function clone(a: Pose2): Pose2 {
  return { p: { x: a.p.x, y: a.p.y }, q: { c: a.q.c, s: a.q.s } };
}

/** out = a (copies the numbers, no allocation). */
export function copy(out: Pose2, a: Pose2): Pose2 {
  out.p.x = a.p.x;
  out.p.y = a.p.y;
  out.q.c = a.q.c;
  out.q.s = a.q.s;
  return out;
}

/** out = pose applied to the local point v: q · v + p. */
export function transformPoint(out: Vec2, pose: Pose2, v: Vec2): Vec2 {
  const x = v.x;
  const y = v.y;
  out.x = pose.q.c * x - pose.q.s * y + pose.p.x;
  out.y = pose.q.s * x + pose.q.c * y + pose.p.y;
  return out;
}

/** out = pose⁻¹ applied to the world point v: q⁻¹ · (v − p). */
export function invTransformPoint(out: Vec2, pose: Pose2, v: Vec2): Vec2 {
  const x = v.x - pose.p.x;
  const y = v.y - pose.p.y;
  out.x = pose.q.c * x + pose.q.s * y;
  out.y = -pose.q.s * x + pose.q.c * y;
  return out;
}

/** out = a · b (b's frame expressed through a: first b, then a). out may alias a or b. */
export function mul(out: Pose2, a: Pose2, b: Pose2): Pose2 {
  const bx = b.p.x;
  const by = b.p.y;
  const px = a.q.c * bx - a.q.s * by + a.p.x;
  const py = a.q.s * bx + a.q.c * by + a.p.y;
  rot2.mul(out.q, a.q, b.q);
  out.p.x = px;
  out.p.y = py;
  return out;
}

/** out = a⁻¹ · b: b's pose in a's frame (`bInA`). out may alias a or b. */
export function invMul(out: Pose2, a: Pose2, b: Pose2): Pose2 {
  const dx = b.p.x - a.p.x;
  const dy = b.p.y - a.p.y;
  const px = a.q.c * dx + a.q.s * dy;
  const py = -a.q.s * dx + a.q.c * dy;
  rot2.invMul(out.q, a.q, b.q);
  out.p.x = px;
  out.p.y = py;
  return out;
}

/** out = a⁻¹ (the inverse transform). out may alias a. */
export function invert(out: Pose2, a: Pose2): Pose2 {
  const c = a.q.c;
  const s = a.q.s;
  const px = -(c * a.p.x + s * a.p.y);
  const py = -(-s * a.p.x + c * a.p.y);
  out.q.c = c;
  out.q.s = -s;
  out.p.x = px;
  out.p.y = py;
  return out;
}

/**
 * The pose to compute with for a pose the caller gave (as the 3D `iso.unitPose`): `a` itself when
 * c² + s² is within `UNIT_QUATERNION_SQ_SLACK` of 1, else `out` = `a` with its rotation divided
 * by its length when that length is within `UNIT_ROTATION2D_TOLERANCE` of 1 (an accepted
 * rotation is normalised before use, so it is rigid); anything else returns `a` for
 * {@link checkPose} to refuse. Never writes `a`; allocates nothing.
 */
export function unitPose(out: Pose2, a: Pose2): Pose2 {
  if (a === null || typeof a !== "object") return a;
  const q = a.q;
  const p = a.p;
  if (q === null || typeof q !== "object" || p === null || typeof p !== "object") return a;
  const c = q.c;
  const s = q.s;
  const n = c * c + s * s;
  if (!(Math.abs(n - 1) > UNIT_QUATERNION_SQ_SLACK)) return a;
  if (typeof c !== "number" || typeof s !== "number") return a;
  if (!(Math.abs(Math.sqrt(n) - 1) <= UNIT_ROTATION2D_TOLERANCE)) return a;
  const k = 1 / Math.sqrt(n);
  out.p.x = p.x;
  out.p.y = p.y;
  out.q.c = c * k;
  out.q.s = s * k;
  return out;
}

/**
 * Throws `CollideError` (`invalid_value`, naming `field`) unless `pose` has a finite translation
 * and a rotation whose length √(c² + s²) is within UNIT_ROTATION2D_TOLERANCE of 1, as a 3D
 * quaternion's (docs/FORMATS.md; one within it is normalised before use, {@link unitPose}).
 */
export function checkPose(field: string, pose: Pose2): void {
  if (pose === null || typeof pose !== "object") invalidValue(field, pose, "must be a pose {p, q}");
  const p = pose.p;
  if (p === null || typeof p !== "object" || !Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    invalidValue(`${field}.p`, p, "must be a finite vector {x, y}");
  }
  const q = pose.q;
  if (q === null || typeof q !== "object" || !Number.isFinite(q.c) || !Number.isFinite(q.s)) {
    invalidValue(`${field}.q`, q, "must be a finite rotation {c, s}");
  }
  if (!(Math.abs(Math.sqrt(q.c * q.c + q.s * q.s) - 1) <= UNIT_ROTATION2D_TOLERANCE)) {
    invalidValue(`${field}.q`, q, "must be a unit rotation (c² + s² = 1)");
  }
}
