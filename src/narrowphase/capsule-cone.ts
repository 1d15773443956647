/**
 * Capsule–cone: the capsule's segment point nearest the cone (an exact projection per point,
 * src/geometry/revolution.ts, minimised along the segment) and the radius added analytically
 * (rounded-revolution.ts): exact up to rounding while the segment stays outside the cone,
 * touching included (issue 16, class 1 and must-have 1); a segment that enters the cone is
 * answered by GJK/EPA with its normal refined. A's frame, B at `bInA`; no allocation.
 */
import { RevolutionKind } from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { Contact } from "./contact.js";
import { contactCapsuleRevolution, intersectsCapsuleRevolution } from "./rounded-revolution.js";

/**
 * Contact of capsule A and cone B (B at `bInA`, A's frame); false when the gap exceeds
 * `prediction` (scene units). Normal from the capsule toward the cone; pointA on the capsule,
 * pointB on the cone's boundary.
 */
export function contactCapsuleCone(
  out: Contact,
  a: Capsule,
  b: Cone,
  bInA: Isometry,
  prediction: number,
): boolean {
  return contactCapsuleRevolution(out, a, b, RevolutionKind.Cone, bInA, prediction);
}

/** True when capsule A and cone B (at `bInA`) overlap or touch. */
export function intersectsCapsuleCone(a: Capsule, b: Cone, bInA: Isometry): boolean {
  return intersectsCapsuleRevolution(a, b, RevolutionKind.Cone, bInA);
}
