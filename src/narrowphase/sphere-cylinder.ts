/**
 * Sphere–cylinder: the sphere's centre projected exactly onto the cylinder's boundary
 * (src/geometry/revolution.ts), the radius added analytically (rounded-revolution.ts): exact up
 * to rounding, overlapping or not, instead of EPA's tolerance (issue 16, must-have 1). A's frame,
 * B at `bInA`; no allocation.
 */
import { RevolutionKind } from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact } from "./contact.js";
import { contactBallRevolution, intersectsBallRevolution } from "./rounded-revolution.js";

/**
 * Contact of sphere A and cylinder B (B at `bInA`, A's frame); false when the gap exceeds
 * `prediction` (scene units). Normal from the sphere toward the cylinder; pointB on the cylinder's
 * boundary, pointA on the sphere. A centre inside the cylinder is pushed out through the nearest
 * boundary point. Ericson 2005, §5.1 (closest point on a convex solid).
 */
export function contactSphereCylinder(
  out: Contact,
  a: Sphere,
  b: Cylinder,
  bInA: Isometry,
  prediction: number,
): boolean {
  return contactBallRevolution(
    out,
    a.radius,
    RevolutionKind.Cylinder,
    b.halfHeight,
    b.radius,
    bInA,
    prediction,
  );
}

/** True when sphere A and cylinder B (at `bInA`) overlap or touch. */
export function intersectsSphereCylinder(a: Sphere, b: Cylinder, bInA: Isometry): boolean {
  return intersectsBallRevolution(a.radius, RevolutionKind.Cylinder, b.halfHeight, b.radius, bInA);
}
