/**
 * Sphere–capsule: closest point of the capsule's segment to the sphere's centre (Ericson 2005,
 * §5.1.2), then the radii added analytically. A sphere centre on the capsule's axis gets a
 * normal perpendicular to the segment, never zero or NaN. (Capsule–capsule: capsule-capsule.ts.)
 */
import { closestPointOnSegment } from "../geometry/closest-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Sphere } from "../shapes/sphere.js";
import { type Contact, makeContact } from "./contact.js";
import { contactFromCorePoints, dropAxial, perpendicular } from "./rounded.js";

const origin = vec3.create();
const onSegment = vec3.create();
const a2 = vec3.create();
const b2 = vec3.create();
const axis = vec3.create();
const fallback = vec3.create();

/**
 * Contact of sphere A and capsule B (B at `bInA`) in A's frame; false when the gap exceeds
 * `prediction`. Normal from the sphere toward the capsule.
 */
export function contactSphereCapsule(
  out: Contact,
  a: Sphere,
  b: Capsule,
  bInA: Isometry,
  prediction: number,
): boolean {
  iso.transformPoint(a2, bInA, b.a);
  iso.transformPoint(b2, bInA, b.b);
  closestPointOnSegment(onSegment, origin, a2, b2);
  vec3.sub(axis, b2, a2);
  vec3.normalize(axis, axis);
  perpendicular(fallback, axis);
  // A closest point inside the segment is joined to the centre perpendicularly to the axis:
  // drop the axial part that rounding leaves (a sphere centred on the segment otherwise got the
  // axis itself as its normal, issue 16 class 3).
  if (!same(onSegment, a2) && !same(onSegment, b2)) {
    dropAxial(onSegment, origin, axis);
  }
  return contactFromCorePoints(out, origin, onSegment, a.radius, b.radius, prediction, fallback);
}

function same(p: Vec3, q: Vec3): boolean {
  return p.x === q.x && p.y === q.y && p.z === q.z;
}

/**
 * True when sphere A and capsule B overlap or touch: exactly when {@link contactSphereCapsule}
 * at prediction 0 answers (the same closest point, axial part dropped, so `intersects`,
 * `distance` and `contact` agree on touching pairs; issue 16, one truth across operations).
 */
export function intersectsSphereCapsule(a: Sphere, b: Capsule, bInA: Isometry): boolean {
  return contactSphereCapsule(scratch, a, b, bInA, 0);
}

const scratch = makeContact();
