/** The `distance` query: Euclidean distance and closest points of two posed shapes. */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { DistanceResult } from "../narrowphase/contact.js";
import { makeDistanceResult } from "../narrowphase/contact.js";
import { distancePair } from "../narrowphase/pair-table.js";
import { agreeDistance, queryOrderSwapped } from "../narrowphase/touching.js";
import { enterFarFrame, FarFrameSlot, leaveFarFrame } from "../shapes/far-frame.js";
import type { Shape } from "../shapes/shape.js";
import { pairPose, swappedPairPose } from "./frames.js";
import { distanceHasNaN, refusePair } from "./guard.js";

const swapTmp = vec3.create();
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = iso.identity();
const unitB = iso.identity();

/**
 * Distance (≥ 0, scene units) between shape `a` at world pose `poseA` and `b` at `poseB`, with
 * the closest points on each, in the world frame. When the shapes intersect the distance is 0
 * and the points are the deepest points of {@link contact}. Writes into `out` when given.
 * Throws `CollideError`: `invalid_value` naming the argument for a bad pose (non-finite
 * translation, a rotation off unit length by more than `UNIT_QUATERNION_TOLERANCE`;
 * one within it is normalised before use), or the shape field (`a.radius`, …) when the answer would
 * hold a NaN (src/query/guard.ts); `unsupported_pair`. GJK (van den Bergen 2003) for general convex
 * pairs; closed forms for sphere pairs. Accuracy (docs/FORMATS.md, "Accuracy"): within
 * 1e-9·max(d, s) + 64·ε·L (s the smaller shape's size, L the pair's size, never its offset from
 * the origin), exactly 0 when `intersects` is true (an answer within a rounding band of touching is decided by
 * the intersects test, src/narrowphase/touching.ts); points on their surfaces to that bar.
 */
export function distance(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  out: DistanceResult = makeDistanceResult(),
): DistanceResult {
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = iso.unitPose(unitA, poseA);
  poseB = iso.unitPose(unitB, poseB);
  const bInA = pairPose(a, poseA, b, poseB);
  const f = enterFarFrame(FarFrameSlot.Distance, a, poseA, b, poseB);
  if (f !== null) {
    // A far triangle: answered at its first corner (src/shapes/triangle-frame.ts).
    distanceOf(out, f.a, f.poseA, f.b, f.poseB, pairPose(f.a, f.poseA, f.b, f.poseB));
    leaveFarFrame(f, out.pointA, out.pointB);
    return out;
  }
  return distanceOf(out, a, poseA, b, poseB, bInA);
}

/** {@link distance} of valid shapes at unit poses, B at `bInA` in A's frame. */
function distanceOf(
  out: DistanceResult,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): DistanceResult {
  if (queryOrderSwapped("distance", a, poseA, b, poseB, bInA)) {
    // In the routine's order, the pose formed in that order (see swappedPairPose): distance(B,
    // A) is distance(A, B) with the points exchanged, exactly.
    const aInB = swappedPairPose(poseA, poseB);
    distancePair(out, b, a, aInB);
    agreeDistance(out, b, poseB, a, poseA, aInB);
    iso.transformPoint(swapTmp, poseB, out.pointB);
    iso.transformPoint(out.pointB, poseB, out.pointA);
    vec3.copy(out.pointA, swapTmp);
  } else {
    distancePair(out, a, b, bInA);
    agreeDistance(out, a, poseA, b, poseB, bInA);
    iso.transformPoint(out.pointA, poseA, out.pointA);
    iso.transformPoint(out.pointB, poseA, out.pointB);
  }
  if (distanceHasNaN(out)) refusePair("distance", a, poseA, b, poseB);
  return out;
}
