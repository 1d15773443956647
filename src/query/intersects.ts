/** The `intersects` query: do two posed shapes overlap or touch? */
import type { Isometry } from "../math/isometry.js";
import { intersectsPair } from "../narrowphase/dispatch.js";
import type { Shape } from "../shapes/shape.js";
import { pairPose } from "./frames.js";

/**
 * True when shape `a` at world pose `poseA` and shape `b` at `poseB` overlap or touch (exact:
 * no slop; touching counts, a gap of 1e-9 is a gap). Poses are translations plus unit
 * quaternions `{x,y,z,w}`. Throws `CollideError`: `invalid_value` naming the argument for a bad shape, pose
 * (non-finite translation, non-unit rotation) or prediction; `unsupported_pair` for a pair this version
 * cannot answer.
 */
export function intersects(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  return intersectsPair(a, b, pairPose(a, poseA, b, poseB));
}
