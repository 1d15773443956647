/** The `manifold` query: a contact manifold of up to 4 points between two posed shapes. */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { ContactManifold } from "../narrowphase/contact.js";
import { flipManifold, makeContactManifold } from "../narrowphase/contact.js";
import { manifoldPair, snapFaceNormal } from "../narrowphase/pair-table.js";
import { agreeManifold, manifoldInBand, queryOrderSwapped } from "../narrowphase/touching.js";
import { enterFarFrame, FarFrameSlot, leaveFarFrame } from "../shapes/far-frame.js";
import type { Shape } from "../shapes/shape.js";
import { isShapeFinite } from "../shapes/validate.js";
import { checkManifoldOut, checkPrediction, pairPose, swappedPairPose } from "./frames.js";
import { manifoldHasNaN, refusePair } from "./guard.js";

const swapped: ContactManifold = makeContactManifold();
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = iso.identity();
const unitB = iso.identity();

/**
 * The contact manifold of shape `a` at world pose `poseA` and `b` at `poseB`, in the world
 * frame: `null` when the gap exceeds `prediction` (≥ 0, scene units); else one unit normal from
 * A toward B and 1–4 points (the first `count` entries of `points`, which always has four slots;
 * the others unused), each with its witness points and signed distance, chosen by
 * reference-face / incident-face clipping to keep the largest contact area (Ericson 2005,
 * §8.3.4; Box2D, Jolt). Writes into `out` when given. Throws `CollideError`:
 * `invalid_value` naming the argument for a bad pose (non-finite translation, non-unit
 * rotation) or prediction, or the shape field (`a.radius`, …) when the answer would hold a NaN
 * or a miss comes with a non-finite shape (src/query/guard.ts); `unsupported_pair`. Accuracy
 * (docs/FORMATS.md, "Accuracy"): null exactly when `contact` is; points on their surfaces within
 * the contact's bars, none deeper than the contact. A composite answers by its deepest part, as
 * `contact` (parry's, Jolt's and Box2D's per-child manifolds): a compound's manifold is that of
 * the child giving the contact, a mesh's or heightfield's merges the manifolds of its triangles
 * whose normals agree with the deepest; each point lies on the surface of its child or triangle,
 * which for a compound may lie inside another child (test/query/compound-child-witness.test.ts).
 */
export function manifold(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  prediction = 0,
  out: ContactManifold = makeContactManifold(),
): ContactManifold | null {
  checkPrediction(prediction);
  checkManifoldOut(out);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = iso.unitPose(unitA, poseA);
  poseB = iso.unitPose(unitB, poseB);
  const bInA = pairPose(a, poseA, b, poseB);
  const f = enterFarFrame(FarFrameSlot.Manifold, a, poseA, b, poseB);
  if (f !== null) {
    // A far triangle: answered at its first corner (src/shapes/triangle-frame.ts).
    const hit = manifoldOf(
      f.a,
      f.poseA,
      f.b,
      f.poseB,
      pairPose(f.a, f.poseA, f.b, f.poseB),
      prediction,
      out,
    );
    if (hit === null) return null;
    for (let i = 0; i < hit.count; i++)
      leaveFarFrame(f, hit.points[i].pointA, hit.points[i].pointB);
    return hit;
  }
  return manifoldOf(a, poseA, b, poseB, bInA, prediction, out);
}

/** {@link manifold} of valid shapes at unit poses, B at `bInA` in A's frame. */
function manifoldOf(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
  out: ContactManifold,
): ContactManifold | null {
  // A flipped entry in its routine's order, the pose formed in that order (see swappedPairPose).
  const flip = queryOrderSwapped("manifold", a, poseA, b, poseB, bInA);
  let hit: boolean;
  if (flip) {
    const aInB = swappedPairPose(poseA, poseB);
    hit =
      (manifoldPair(swapped, b, a, aInB, prediction) ||
        manifoldInBand(swapped, b, poseB, a, poseA, aInB, prediction)) &&
      agreeManifold(swapped, b, poseB, a, poseA, aInB, prediction);
  } else {
    hit =
      (manifoldPair(out, a, b, bInA, prediction) ||
        manifoldInBand(out, a, poseA, b, poseB, bInA, prediction)) &&
      agreeManifold(out, a, poseA, b, poseB, bInA, prediction);
  }
  if (!hit) {
    // "Apart" may come from a NaN comparison: it stands only for finite shapes.
    if (isShapeFinite(a) && isShapeFinite(b)) return null;
    return refusePair("manifold", a, poseA, b, poseB);
  }
  if (flip) {
    // (B, A) in B's frame into (A, B) in the world: normal negated, points exchanged.
    flipManifold(out, swapped, poseB);
  } else {
    iso.transformVector(out.normal, poseA, out.normal);
    for (let i = 0; i < out.count; i++) {
      const p = out.points[i];
      iso.transformPoint(p.pointA, poseA, p.pointA);
      iso.transformPoint(p.pointB, poseA, p.pointB);
    }
  }
  if (out.count > 0) {
    // The deepest point's contact gave the manifold its normal.
    let deepest = out.points[0];
    for (let i = 1; i < out.count; i++) {
      if (out.points[i].distance < deepest.distance) deepest = out.points[i];
    }
    snapFaceNormal(out.normal, a, poseA, deepest.pointA, b, poseB, deepest.pointB);
  }
  if (manifoldHasNaN(out)) refusePair("manifold", a, poseA, b, poseB);
  return out;
}
