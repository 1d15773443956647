/**
 * A capsule against a triangle. A point triangle (its three corners equal) is a point: the pair
 * is the point's distance to the capsule's segment less the radius, answered in closed form as
 * sphere–capsule's (Ericson 2005, §5.1.2), the normal perpendicular to the segment when the
 * closest point is inside it (issue 16: GJK on the swept segment, its end and its inside 1.5e-12
 * along it tied in distance to 2e-21, took the end's direction, 3.0e-9 rad off the perpendicular,
 * and a segment of 2e-4 turned that into 6.0e-13 short of a gap of 6.0e-13). Every other triangle
 * is GJK/EPA's (src/narrowphase/convex-convex.ts).
 *
 * Allocation-free: module scratch vectors; no double crosses a call that V8 may leave out of line.
 */
import { closestPointOnSegment } from "../geometry/closest-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Triangle } from "../shapes/triangle.js";
import { type Contact, type DistanceResult, makeContact } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import { contactFromCorePoints, dropAxial, perpendicular } from "./rounded.js";

const EPS = 2 ** -52;
/** A point this many ulps of the pair's coordinates from the axis lies on it (its direction noise). */
const ON_AXIS_ULPS = 64;
const point = vec3.create();
const onSegment = vec3.create();
const axis = vec3.create();
const fallback = vec3.create();
const scratch = makeContact();

/** True when triangle `t`'s three corners are equal (a point). */
function isPointTriangle(t: Triangle): boolean {
  const a = t.a;
  const b = t.b;
  const c = t.c;
  return a.x === b.x && a.y === b.y && a.z === b.z && a.x === c.x && a.y === c.y && a.z === c.z;
}

/**
 * Closed form of capsule `a` against point triangle `b` (B at `bInA`, A's frame) within
 * `prediction` (scene units): the point's closest point on the segment (its part along the
 * segment dropped when inside it), the radius subtracted; normal (unit) from the capsule to the
 * point, perpendicular to the segment when the point lies on its axis.
 */
function contactCapsulePoint(
  out: Contact,
  a: Capsule,
  b: Triangle,
  bInA: Isometry,
  prediction: number,
): boolean {
  iso.transformPoint(point, bInA, b.a);
  closestPointOnSegment(onSegment, point, a.a, a.b);
  vec3.sub(axis, a.b, a.a);
  vec3.tryNormalize(axis, axis);
  perpendicular(fallback, axis);
  if (!vec3.exactEquals(onSegment, a.a) && !vec3.exactEquals(onSegment, a.b)) {
    dropAxial(onSegment, point, axis);
    // A point on the axis within the coordinates' rounding: its direction is rounding noise, not
    // perpendicular to the axis; the points taken as coinciding, the normal is the fallback's.
    const m = Math.max(
      Math.abs(point.x),
      Math.abs(point.y),
      Math.abs(point.z),
      Math.abs(a.a.x),
      Math.abs(a.a.y),
      Math.abs(a.a.z),
      Math.abs(a.b.x),
      Math.abs(a.b.y),
      Math.abs(a.b.z),
    );
    const dx = point.x - onSegment.x;
    const dy = point.y - onSegment.y;
    const dz = point.z - onSegment.z;
    if (Math.abs(dx) + Math.abs(dy) + Math.abs(dz) <= ON_AXIS_ULPS * EPS * m) {
      vec3.copy(onSegment, point);
    }
  }
  return contactFromCorePoints(out, onSegment, point, a.radius, 0, prediction, fallback);
}

/**
 * Contact of capsule `a` and triangle `b` (B at `bInA`, A's frame) within `prediction` (≥ 0,
 * scene units): a point triangle's closed form, else GJK/EPA's. Normal from A toward B.
 */
export function contactCapsuleTriangle(
  out: Contact,
  a: Capsule,
  b: Triangle,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (isPointTriangle(b)) return contactCapsulePoint(out, a, b, bInA, prediction);
  return contactConvexConvex(out, a, b, bInA, prediction);
}

/** Whether capsule `a` and triangle `b` (B at `bInA`) touch or overlap (see {@link contactCapsuleTriangle}). */
export function intersectsCapsuleTriangle(a: Capsule, b: Triangle, bInA: Isometry): boolean {
  if (isPointTriangle(b)) return contactCapsulePoint(scratch, a, b, bInA, 0);
  return intersectsConvexConvex(a, b, bInA);
}

/** Distance (≥ 0, scene units) and closest points of capsule `a` and triangle `b` (A's frame). */
export function distanceCapsuleTriangle(
  out: DistanceResult,
  a: Capsule,
  b: Triangle,
  bInA: Isometry,
): DistanceResult {
  if (!isPointTriangle(b)) return distanceConvexConvex(out, a, b, bInA);
  contactCapsulePoint(scratch, a, b, bInA, Number.POSITIVE_INFINITY);
  out.distance = Math.max(0, scratch.distance);
  vec3.copy(out.pointA, scratch.pointA);
  vec3.copy(out.pointB, scratch.pointB);
  return out;
}
