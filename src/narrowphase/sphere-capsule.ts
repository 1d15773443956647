/**
 * Sphere–capsule and capsule–capsule: closest points of the cores (the sphere's centre, the
 * capsules' segments; Ericson 2005, §5.1.2 and §5.1.9), then the radii added analytically. A
 * sphere centre on the capsule's axis, or crossing segments, get a normal perpendicular to the
 * segment(s), never zero or NaN.
 */
import { closestPointOnSegment } from "../geometry/closest-point.js";
import {
  closestPointsSegmentSegment,
  type SegmentParameters,
} from "../geometry/closest-segments.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact } from "./contact.js";
import { contactFromCorePoints, perpendicular } from "./rounded.js";

const origin = vec3.create();
const onSegment = vec3.create();
const a2 = vec3.create();
const b2 = vec3.create();
const c1 = vec3.create();
const c2 = vec3.create();
const axis = vec3.create();
const axis2 = vec3.create();
const fallback = vec3.create();
const perp = vec3.create();
const params: SegmentParameters = { s: 0, t: 0 };

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

const rel = vec3.create();

function same(p: Vec3, q: Vec3): boolean {
  return p.x === q.x && p.y === q.y && p.z === q.z;
}

/** q ← p + the part of (q − p) perpendicular to unit `u`. */
function dropAxial(q: Vec3, p: Vec3, u: Vec3): void {
  vec3.sub(rel, q, p);
  vec3.addScaled(rel, rel, u, -vec3.dot(rel, u));
  vec3.add(q, p, rel);
}

/** True when sphere A and capsule B overlap or touch. */
export function intersectsSphereCapsule(a: Sphere, b: Capsule, bInA: Isometry): boolean {
  iso.transformPoint(a2, bInA, b.a);
  iso.transformPoint(b2, bInA, b.b);
  closestPointOnSegment(onSegment, origin, a2, b2);
  const r = a.radius + b.radius;
  return vec3.lengthSq(onSegment) <= r * r;
}

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
  iso.transformPoint(a2, bInA, b.a);
  iso.transformPoint(b2, bInA, b.b);
  closestPointsSegmentSegment(c1, c2, a.a, a.b, a2, b2, params);
  vec3.sub(axis, a.b, a.a);
  vec3.sub(axis2, b2, a2);
  vec3.cross(fallback, axis, axis2);
  if (vec3.normalize(fallback, fallback) === 0) {
    vec3.normalize(axis, axis);
    perpendicular(fallback, axis);
  }
  if (vec3.dot(fallback, bInA.translation) < 0) vec3.negate(fallback, fallback);
  // Closest points inside both segments are joined along the common perpendicular, inside one
  // segment perpendicularly to its axis: drop what rounding leaves along the axes (crossing
  // segments otherwise got a normal along an axis, issue 16 class 3).
  const sIn = params.s > 0 && params.s < 1;
  const tIn = params.t > 0 && params.t < 1;
  if (sIn || tIn) {
    vec3.normalize(axis, axis);
    vec3.normalize(axis2, axis2);
    vec3.cross(perp, axis, axis2);
    if (sIn && tIn && vec3.normalize(perp, perp) > 0) {
      vec3.sub(rel, c2, c1);
      vec3.addScaled(c2, c1, perp, vec3.dot(rel, perp));
    } else if (sIn) dropAxial(c2, c1, axis);
    else dropAxial(c2, c1, axis2);
  }
  return contactFromCorePoints(out, c1, c2, a.radius, b.radius, prediction, fallback);
}

/** True when capsules A and B overlap or touch. */
export function intersectsCapsuleCapsule(a: Capsule, b: Capsule, bInA: Isometry): boolean {
  iso.transformPoint(a2, bInA, b.a);
  iso.transformPoint(b2, bInA, b.b);
  closestPointsSegmentSegment(c1, c2, a.a, a.b, a2, b2, params);
  const r = a.radius + b.radius;
  return vec3.distanceSq(c1, c2) <= r * r;
}
