/**
 * Argument checks of the 2D pair queries (`intersects2D`, `contact2D`, `distance2D`,
 * `manifold2D`, `castRay2D`, `projectPoint2D`, `containsPoint2D`, `castShapes2D`), as the 3D
 * queries check theirs: a bad shape, pose, point or vector is a `CollideError` naming the
 * argument and the value, and an answer that would hold a NaN or an infinity (inputs finite but
 * out of the range doubles can answer) is refused instead of returned. Error paths allocate; the
 * checks of valid input do not.
 */
import { invalidValue } from "../errors.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import { keptShape2, type Shape2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/**
 * The shape to answer for: `s` itself when a `make…` constructor built it, else the validated
 * copy its constructor builds (a hand-built object's `core` is never trusted). Throws
 * `CollideError` naming `field` for anything that is not a valid 2D shape.
 */
export function checkedShape2(field: string, s: Shape2): Shape2 {
  return keptShape2(field, s);
}

/** Throws `CollideError` naming `field` unless `v` is a vector `{x, y}` of finite numbers. */
export function checkVec2(field: string, v: Vec2): void {
  if (v === null || typeof v !== "object" || !Number.isFinite(v.x) || !Number.isFinite(v.y)) {
    invalidValue(field, v, "must be a finite vector {x, y}");
  }
}

/**
 * Checks the poses of a pair query (`a` and `b` already checked): each a valid pose, and B's
 * translation within the range of doubles from A's (their difference finite), as the 3D queries'
 * `poseB.translation is too far from poseA`. Any finite offset and sizes are answered: far from
 * unit scale the queries change units (src/dim2/extreme-scale2.ts), and an answer that is not
 * finite is refused by {@link checkAnswer2}.
 */
export function checkPair2(_a: Shape2, poseA: Pose2, _b: Shape2, poseB: Pose2): void {
  pose2.checkPose("poseA", poseA);
  pose2.checkPose("poseB", poseB);
  const dx = poseB.p.x - poseA.p.x;
  const dy = poseB.p.y - poseA.p.y;
  if (!(Number.isFinite(dx) && Number.isFinite(dy))) {
    invalidValue(
      "poseB.p",
      poseB.p,
      "is too far from poseA.p: their offset overflows double precision",
    );
  }
}

/**
 * Throws `CollideError` naming `field` when the point `p` (a ray's origin, a projected point) is
 * past the range of doubles from the shape's `pose` (their offset not finite): a ray from 1e308
 * toward a circle at −1e308 was "inside" it at toi 0.
 */
export function checkOffset2(field: string, p: Vec2, pose: Pose2): void {
  if (!(Number.isFinite(p.x - pose.p.x) && Number.isFinite(p.y - pose.p.y))) {
    invalidValue(
      field,
      p,
      "is too far from pose.p (the shape's position): their offset overflows double precision",
    );
  }
}

/**
 * Throws `CollideError` when `value` (a number of the answer of `op`) is not finite: the shapes'
 * sizes and offset are finite but the answer is out of the range of doubles.
 */
export function checkAnswer2(op: string, what: string, value: number): void {
  if (!Number.isFinite(value)) {
    invalidValue(
      `result.${what}`,
      value,
      `of ${op} is not a finite number: the shapes' sizes or their offset are out of the range doubles can answer`,
    );
  }
}
