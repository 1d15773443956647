/**
 * Capsule–capsule: closest points of the two segments (Ericson 2005, §5.1.9), then the radii
 * added analytically. Crossing or parallel segments get a normal perpendicular to the
 * segment(s), never zero or NaN.
 */
import {
  closestPointsSegmentSegment,
  type SegmentParameters,
} from "../geometry/closest-segments.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import { canonicalOrder } from "./canonical-order.js";
import { type Contact, makeContact } from "./contact.js";
import { contactFromCoreRadii, coreRadii, dropAxial, perpendicular } from "./rounded.js";

const a2 = vec3.create();
const b2 = vec3.create();
const c1 = vec3.create();
const c2 = vec3.create();
const axis = vec3.create();
const axis2 = vec3.create();
const fallback = vec3.create();
const perp = vec3.create();
const rel = vec3.create();
const params: SegmentParameters = { s: 0, t: 0 };

/**
 * Contact of capsules A and B in A's frame; false when the gap exceeds `prediction`. Crossing
 * segments get the normal of the plane they span (their cross product), oriented from A toward
 * B's centre.
 */
export function contactCapsuleCapsule(
  out: Contact,
  a: Capsule,
  b: Capsule,
  bInA: Isometry,
  prediction: number,
): boolean {
  const order = canonicalOrder(bInA);
  const direct =
    order !== 0
      ? order > 0
      : a.radius < b.radius || (a.radius === b.radius && lengthSq(a) <= lengthSq(b));
  if (direct) return contactOrdered(out, a, b, bInA, prediction);
  // The other order, solved as (B, A) and flipped: contact(B, A) is contact(A, B) flipped up to
  // the rounding of the inverse pose, ties (parallel or crossing axes) included (issue 16).
  iso.invert(aInB, bInA);
  if (!contactOrdered(flipped, b, a, aInB, prediction)) return false;
  out.distance = flipped.distance;
  quat.rotate(out.normal, bInA.rotation, flipped.normal);
  vec3.negate(out.normal, out.normal);
  iso.transformPoint(out.pointA, bInA, flipped.pointB);
  iso.transformPoint(out.pointB, bInA, flipped.pointA);
  return true;
}

function lengthSq(c: Capsule): number {
  return vec3.distanceSq(c.a, c.b);
}

const aInB: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };
const flipped = makeContact();

/** {@link contactCapsuleCapsule} in the order given. */
function contactOrdered(
  out: Contact,
  a: Capsule,
  b: Capsule,
  bInA: Isometry,
  prediction: number,
): boolean {
  iso.transformPoint(a2, bInA, b.a);
  iso.transformPoint(b2, bInA, b.b);
  closestPointsSegmentSegment(c1, c2, a.a, a.b, a2, b2, params);
  vec3.sub(axis, a.b, a.a);
  vec3.sub(axis2, b2, a2);
  vec3.cross(fallback, axis, axis2);
  // tryNormalize, not normalize: a length returned by a call V8 does not inline is boxed (the
  // same directions; false exactly where normalize returns 0).
  if (!vec3.tryNormalize(fallback, fallback)) {
    // Parallel axes, or one segment a point: perpendicular to the longer axis (a point's zero
    // axis gave +x, not perpendicular to the other capsule, whose overlap along it is larger).
    const ax = vec3.lengthSq(axis) >= vec3.lengthSq(axis2) ? axis : axis2;
    vec3.tryNormalize(ax, ax);
    perpendicular(fallback, ax);
  }
  const t = bInA.translation;
  if (fallback.x * t.x + fallback.y * t.y + fallback.z * t.z < 0) vec3.negate(fallback, fallback);
  // Closest points inside both segments are joined along the common perpendicular, inside one
  // segment perpendicularly to its axis: drop what rounding leaves along the axes (crossing
  // segments otherwise got a normal along an axis, issue 16 class 3).
  const sIn = params.s > 0 && params.s < 1;
  const tIn = params.t > 0 && params.t < 1;
  if (sIn || tIn) {
    vec3.tryNormalize(axis, axis);
    vec3.tryNormalize(axis2, axis2);
    vec3.cross(perp, axis, axis2);
    if (sIn && tIn && vec3.tryNormalize(perp, perp)) {
      vec3.sub(rel, c2, c1);
      // c2 = c1 + (rel·perp) perp written out (a double passed to a call is boxed).
      const along = rel.x * perp.x + rel.y * perp.y + rel.z * perp.z;
      c2.x = c1.x + perp.x * along;
      c2.y = c1.y + perp.y * along;
      c2.z = c1.z + perp.z * along;
    } else if (sIn) dropAxial(c2, c1, axis);
    else dropAxial(c2, c1, axis2);
  }
  coreRadii[0] = a.radius;
  coreRadii[1] = b.radius;
  return contactFromCoreRadii(out, c1, c2, prediction, fallback);
}

/**
 * True when capsules A and B overlap or touch: exactly when {@link contactCapsuleCapsule} at
 * prediction 0 answers (one truth with distance and contact on touching pairs, issue 16).
 */
export function intersectsCapsuleCapsule(a: Capsule, b: Capsule, bInA: Isometry): boolean {
  return contactCapsuleCapsule(scratch, a, b, bInA, 0);
}

const scratch = makeContact();
