/**
 * Convex shape (A) against a half-space (B). The half-space {p : n·p ≤ d} is unbounded, so the
 * exact answer comes from A's support point along −n, its deepest point into the half-space:
 * signed distance s = n·p − d, normal from A toward B = −n, and B's witness point is p projected
 * onto the plane (Ericson 2005, §5.2.2 for the plane side tests; parry's `contact_halfspace_support_map`).
 * The manifold clips A's supporting feature against a proxy box whose top face lies in the plane
 * and covers A's projection, so resting boxes and capsules get their full contact area.
 */
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { aabbShape, supportShape } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { manifoldFromContact } from "./manifold.js";

const nA = vec3.create();
const dir = vec3.create();
const deepest = vec3.create();

/** Loads B's plane in A's frame into `nA` and returns its offset; writes A's deepest point. */
function deepestPoint(a: ConvexShape, b: HalfSpace, bInA: Isometry): number {
  quat.rotate(nA, bInA.rotation, b.normal);
  const d = b.offset + vec3.dot(nA, bInA.translation);
  vec3.negate(dir, nA);
  supportShape(deepest, a, dir);
  return vec3.dot(nA, deepest) - d;
}

/** True when convex A touches or enters half-space B (B's pose in A's frame `bInA`). */
export function intersectsConvexHalfSpace(a: ConvexShape, b: HalfSpace, bInA: Isometry): boolean {
  return deepestPoint(a, b, bInA) <= 0;
}

/** Distance (≥ 0) and closest points of A and half-space B, in A's frame. */
export function distanceConvexHalfSpace(
  out: DistanceResult,
  a: ConvexShape,
  b: HalfSpace,
  bInA: Isometry,
): DistanceResult {
  const s = deepestPoint(a, b, bInA);
  out.distance = Math.max(0, s);
  vec3.copy(out.pointA, deepest);
  vec3.addScaled(out.pointB, deepest, nA, -s);
  return out;
}

/**
 * Contact of A and half-space B in A's frame: false when the gap exceeds `prediction`; else the
 * signed distance, the normal −n (from A toward the solid side) and the witness points.
 */
export function contactConvexHalfSpace(
  out: Contact,
  a: ConvexShape,
  b: HalfSpace,
  bInA: Isometry,
  prediction: number,
): boolean {
  const s = deepestPoint(a, b, bInA);
  if (s > prediction) return false;
  out.distance = s;
  vec3.negate(out.normal, nA);
  vec3.copy(out.pointA, deepest);
  vec3.addScaled(out.pointB, deepest, nA, -s);
  return true;
}

const proxyHalf = vec3.create();
const proxy: Cuboid = { type: ShapeType.Cuboid, halfExtents: proxyHalf };
const proxyPose = iso.identity();
const localBox = aabb.empty();
const identity = iso.identity();
const zAxis = vec3.create(0, 0, 1);

/**
 * The contact manifold of A resting on half-space B, given their contact (A's frame): A's
 * supporting feature clipped against a proxy box face lying in B's plane.
 */
export function manifoldConvexHalfSpace(
  out: ContactManifold,
  a: ConvexShape,
  b: HalfSpace,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  quat.rotate(nA, bInA.rotation, b.normal);
  const d = b.offset + vec3.dot(nA, bInA.translation);
  aabbShape(localBox, a, identity);
  const reach =
    Math.max(
      Math.abs(localBox.min.x),
      Math.abs(localBox.max.x),
      Math.abs(localBox.min.y),
      Math.abs(localBox.max.y),
      Math.abs(localBox.min.z),
      Math.abs(localBox.max.z),
    ) * 2;
  const r = Math.max(reach, Number.MIN_VALUE) * 2;
  vec3.set(proxyHalf, r, r, r);
  // Proxy centre: the plane point nearest A's origin, pushed r into the solid side.
  vec3.scale(proxyPose.translation, nA, d - r);
  // Rotation taking +z to n (half-way quaternion; the antiparallel case turns about x).
  const c = vec3.dot(zAxis, nA);
  const q = proxyPose.rotation;
  if (c < -1 + Number.EPSILON) {
    q.x = 1;
    q.y = 0;
    q.z = 0;
    q.w = 0;
  } else {
    vec3.cross(dir, zAxis, nA);
    q.x = dir.x;
    q.y = dir.y;
    q.z = dir.z;
    q.w = 1 + c;
    quat.normalize(q, q);
  }
  return manifoldFromContact(out, a, proxy, proxyPose, contact, prediction);
}
