/**
 * Sphere–cone: the sphere's centre projected exactly onto the cone's boundary
 * (src/geometry/revolution.ts), the radius added analytically (rounded-revolution.ts): exact up
 * to rounding, overlapping or not, instead of EPA's tolerance (issue 16, must-have 1). A's frame,
 * B at `bInA`; no allocation.
 */
import { RevolutionKind } from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import type { Cone } from "../shapes/cone.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact } from "./contact.js";
import { contactBallRevolution, intersectsBallRevolution } from "./rounded-revolution.js";

/**
 * Contact of sphere A and cone B (B at `bInA`, A's frame); false when the gap exceeds
 * `prediction` (scene units). Normal from the sphere toward the cone; pointB on the cone's
 * boundary, pointA on the sphere. A centre inside the cone is pushed out through the nearest
 * boundary point. Ericson 2005, §5.1 (closest point on a convex solid).
 */
export function contactSphereCone(
  out: Contact,
  a: Sphere,
  b: Cone,
  bInA: Isometry,
  prediction: number,
): boolean {
  return contactBallRevolution(
    out,
    a.radius,
    RevolutionKind.Cone,
    b.halfHeight,
    b.radius,
    bInA,
    prediction,
  );
}

/** True when sphere A and cone B (at `bInA`) overlap or touch. */
export function intersectsSphereCone(a: Sphere, b: Cone, bInA: Isometry): boolean {
  return intersectsBallRevolution(a.radius, RevolutionKind.Cone, b.halfHeight, b.radius, bInA);
}
