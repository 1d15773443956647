/** The `intersects` query: do two posed shapes overlap or touch? */
import type { Isometry } from "../math/isometry.js";
import { intersectsPair, intersectsPosesPair } from "../narrowphase/pair-table.js";
import { queryOrderSwapped } from "../narrowphase/touching.js";
import { enterFarFrame, FarFrameSlot } from "../shapes/far-frame.js";
import { isBrandedShape, type Shape } from "../shapes/shape.js";
import { isShapeFinite } from "../shapes/validate.js";
import { pairPose, swappedPairPose } from "./frames.js";
import { refusePair } from "./guard.js";

/**
 * True when shape `a` at world pose `poseA` and shape `b` at `poseB` overlap or touch (exact:
 * no slop; touching counts, a gap of 1e-9 is a gap). Poses are translations plus unit
 * quaternions `{x,y,z,w}` (one within `UNIT_QUATERNION_TOLERANCE` of unit length is
 * normalised before use — in B's pose in A's frame, src/query/frames.ts — the caller's object
 * untouched). Throws `CollideError`: `invalid_value` naming the argument for a bad pose
 * (non-finite translation, non-unit rotation), or naming the shape field (`a.radius`,
 * `b.halfExtents`, …) when a shape holds a NaN or infinite number — checked after answering
 * (src/query/guard.ts), so a yes/no answer never comes from a NaN comparison;
 * `unsupported_pair` for a pair this version cannot answer. Accuracy (docs/FORMATS.md,
 * "Accuracy"): true whenever the shapes share a point, false when apart by more than 32 ulps of
 * the pair's size (L·2⁻⁴⁷); agrees with `distance` = 0 and a non-null `contact`.
 *
 * Two constructor-built shapes first try their pair's world-pose routine in the pair table
 * (sphere–sphere, sphere–cuboid: no relative pose formed), which answers only what it can decide
 * exactly from valid poses; everything else takes B's pose in A's frame through the table.
 */
export function intersects(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): boolean {
  if (
    a !== null &&
    typeof a === "object" &&
    b !== null &&
    typeof b === "object" &&
    isBrandedShape(a) &&
    isBrandedShape(b)
  ) {
    const hit = intersectsPosesPair(a, poseA, b, poseB);
    if (hit >= 0) return hit === 1;
  }
  const bInA = pairPose(a, poseA, b, poseB);
  const f = enterFarFrame(FarFrameSlot.Intersects, a, poseA, b, poseB);
  if (f !== null) {
    // A far triangle: answered at its first corner (src/shapes/triangle-frame.ts).
    return intersectsOf(f.a, f.poseA, f.b, f.poseB, pairPose(f.a, f.poseA, f.b, f.poseB));
  }
  return intersectsOf(a, poseA, b, poseB, bInA);
}

/** {@link intersects} of valid shapes, B at `bInA` in A's frame. */
function intersectsOf(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): boolean {
  // A flipped entry in its routine's order, the pose formed in that order (see swappedPairPose):
  // intersects(B, A) is intersects(A, B) bit for bit, and decided on the same input as contact.
  const hit = queryOrderSwapped("intersects", a, poseA, b, poseB, bInA)
    ? intersectsPair(b, a, swappedPairPose(poseA, poseB))
    : intersectsPair(a, b, bInA);
  // The deciding comparisons are the pair routine's: NaN makes them false (or, negated, true),
  // so the answer stands only when both shapes are finite.
  if (isShapeFinite(a) && isShapeFinite(b)) return hit;
  return refusePair("intersects", a, poseA, b, poseB);
}
