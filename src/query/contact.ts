/** The `contact` query: signed distance, normal and witness points of two posed shapes. */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Contact } from "../narrowphase/contact.js";
import { contactErrorIo, makeContact } from "../narrowphase/contact.js";
import { contactPair, snapFaceNormal } from "../narrowphase/pair-table.js";
import { agreeContact, queryOrderSwapped, touchReach } from "../narrowphase/touching.js";
import { enterFarFrame, FarFrameSlot, leaveFarFrame } from "../shapes/far-frame.js";
import type { Shape } from "../shapes/shape.js";
import { isShapeFinite } from "../shapes/validate.js";
import { checkContactOut, checkPrediction, pairPose, swappedPairPose } from "./frames.js";
import { contactHasNaN, refusePair } from "./guard.js";

const swapTmp = vec3.create();
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA = iso.identity();
const unitB = iso.identity();

/**
 * The contact of shape `a` at world pose `poseA` and `b` at `poseB`, in the world frame: `null`
 * when their gap exceeds `prediction` (≥ 0, scene units; default 0: touching or overlapping
 * only), else the signed distance (negative = penetration depth), the unit normal from A toward
 * B, and the witness points on each surface. Writes into `out` when given. Throws `CollideError`:
 * `invalid_value` naming the argument for a bad pose (non-finite translation, a rotation off unit
 * length by more than `UNIT_QUATERNION_TOLERANCE`; one within it is normalised before use)
 * or prediction, or the shape field (`a.radius`, …) when the answer would hold a NaN or a miss
 * comes with a non-finite shape (src/query/guard.ts); `unsupported_pair`. Accuracy
 * (docs/FORMATS.md, "Accuracy"): a gap as `distance`'s; a depth within 1e-6·depth + 64·ε·L
 * (curved pairs refined to about 1e-9·depth, src/geometry/refine-normal.ts); the normal achieves
 * the depth; witnesses on their surfaces; null exactly when `intersects` is false (prediction 0):
 * an answer within a rounding band of touching is decided by the intersects test
 * (src/narrowphase/touching.ts). A composite (mesh, heightfield, compound) answers its deepest
 * part's contact (parry's composite contact): for a surface, the depth that clears that triangle,
 * not the least translation clearing the whole surface; the witness on the composite lies on that
 * part's surface (a compound's child, a triangle), which may lie inside another child. `errorBound` (scene units) bounds
 * |distance − the true signed distance| (for a composite, that part's): 0 for routines exact to
 * their rounding (closed forms, SAT), else the general narrow phase's certificate (the distance
 * attained along the normal against GJK's closest point or EPA's inner polytope); for the solid
 * meshes' upper-bound depths (docs/FORMATS.md, Accuracy) the bound less a certified lower bound
 * of the solids' depth (see `Contact.errorBound`).
 */
export function contact(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  prediction = 0,
  out: Contact = makeContact(),
): Contact | null {
  checkPrediction(prediction);
  checkContactOut(out);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = iso.unitPose(unitA, poseA);
  poseB = iso.unitPose(unitB, poseB);
  const bInA = pairPose(a, poseA, b, poseB);
  const f = enterFarFrame(FarFrameSlot.Contact, a, poseA, b, poseB);
  if (f !== null) {
    // A far triangle: answered at its first corner (src/shapes/triangle-frame.ts).
    const hit = contactOf(
      f.a,
      f.poseA,
      f.b,
      f.poseB,
      pairPose(f.a, f.poseA, f.b, f.poseB),
      prediction,
      out,
    );
    if (hit === null) return null;
    leaveFarFrame(f, hit.pointA, hit.pointB);
    return hit;
  }
  return contactOf(a, poseA, b, poseB, bInA, prediction, out);
}

/** {@link contact} of valid shapes at unit poses, B at `bInA` in A's frame. */
function contactOf(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
  out: Contact,
): Contact | null {
  // A flipped entry is called in its routine's order with the pose formed in that order, so
  // that contact(B, A) is contact(A, B) flipped exactly (see swappedPairPose).
  const flip = queryOrderSwapped("contact", a, poseA, b, poseB, bInA);
  let hit: boolean;
  // The error register (src/narrowphase/contact.ts): reset, on for this call only.
  contactErrorIo[0] = 0;
  contactErrorIo[1] = 1;
  let found = false;
  try {
    if (flip) {
      const aInB = swappedPairPose(poseA, poseB);
      found = contactPair(out, b, a, aInB, touchReach(prediction, aInB.translation));
      const d = out.distance;
      hit = found && agreeContact(out, b, poseB, a, poseA, aInB, prediction);
      agreedIo[0] = d;
    } else {
      found = contactPair(out, a, b, bInA, touchReach(prediction, bInA.translation));
      const d = out.distance;
      hit = found && agreeContact(out, a, poseA, b, poseB, bInA, prediction);
      agreedIo[0] = d;
    }
  } finally {
    contactErrorIo[1] = 0;
  }
  if (!hit) {
    // "Apart" may come from a NaN comparison: it stands only for finite shapes.
    if (isShapeFinite(a) && isShapeFinite(b)) return null;
    return refusePair("contact", a, poseA, b, poseB);
  }
  if (flip) {
    // The answer of (B, A) in B's frame: reverse the normal (as 0 − x, as the world and
    // flipManifold do: a zero component stays +0), exchange the points.
    const n = out.normal;
    iso.transformVector(n, poseB, n);
    n.x = 0 - n.x;
    n.y = 0 - n.y;
    n.z = 0 - n.z;
    iso.transformPoint(swapTmp, poseB, out.pointB);
    iso.transformPoint(out.pointB, poseB, out.pointA);
    vec3.copy(out.pointA, swapTmp);
  } else {
    iso.transformVector(out.normal, poseA, out.normal);
    iso.transformPoint(out.pointA, poseA, out.pointA);
    iso.transformPoint(out.pointB, poseA, out.pointB);
  }
  snapFaceNormal(out.normal, a, poseA, out.pointA, b, poseB, out.pointB);
  if (contactHasNaN(out)) refusePair("contact", a, poseA, b, poseB);
  // The routine's certified error, plus what agreeing with intersects moved the distance by.
  out.errorBound = contactErrorIo[0] + Math.abs(out.distance - agreedIo[0]);
  return out;
}

/** [0] the distance before {@link agreeContact} (a double kept out of the call's frame). */
const agreedIo = new Float64Array(1);
