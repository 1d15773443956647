/**
 * Capsule–cylinder: the capsule's segment point nearest the cylinder (an exact projection per point,
 * src/geometry/revolution.ts, minimised along the segment) and the radius added analytically
 * (rounded-revolution.ts): exact up to rounding while the segment stays outside the cylinder,
 * touching included (issue 16, class 1 and must-have 1); a segment that enters the cylinder in a
 * plane through its axis (parallel or crossing axes) in closed form too (rounded-revolution.ts,
 * `coplanarCylinder`), any other by GJK/EPA with its normal refined (its certified error then in
 * the `contact` query's `errorBound`). A's frame, B at `bInA`; no allocation.
 */
import { RevolutionKind } from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { Contact } from "./contact.js";
import { contactCapsuleRevolution, intersectsCapsuleRevolution } from "./rounded-revolution.js";

/**
 * Contact of capsule A and cylinder B (B at `bInA`, A's frame); false when the gap exceeds
 * `prediction` (scene units). Normal from the capsule toward the cylinder; pointA on the capsule,
 * pointB on the cylinder's boundary.
 */
export function contactCapsuleCylinder(
  out: Contact,
  a: Capsule,
  b: Cylinder,
  bInA: Isometry,
  prediction: number,
): boolean {
  return contactCapsuleRevolution(out, a, b, RevolutionKind.Cylinder, bInA, prediction);
}

/** True when capsule A and cylinder B (at `bInA`) overlap or touch. */
export function intersectsCapsuleCylinder(a: Capsule, b: Cylinder, bInA: Isometry): boolean {
  return intersectsCapsuleRevolution(a, b, RevolutionKind.Cylinder, bInA);
}
