/**
 * Capsule–capsule: closest points of the two segments (Ericson 2005, §5.1.9), then the radii
 * added analytically. Crossing or parallel segments get a normal perpendicular to the
 * segment(s), never zero or NaN. The normal is the direction, among the closest points' offset,
 * the common perpendicular and the offset with an axis dropped, that separates the cores by the
 * most (their supports, a lower bound of the core distance, equal to it in the cores' normal
 * cone): near a touch the offset is rounding noise, and a segment is flat along its axis, so a
 * normal off that cone overlaps by the segment's length times its tilt more than the depth.
 */
import {
  closestPointsSegmentSegment,
  type SegmentParameters,
} from "../geometry/closest-segments.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import { canonicalOrder } from "./canonical-order.js";
import { type Contact, makeContact } from "./contact.js";
import { coreRadii, perpendicular } from "./rounded.js";

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
  // contact.ts's flipContactInto, written out: through it the six-curved-kinds world allocated
  // more per step (session 42's probe, 7.1–8.3 KB and 25 KB in 2 of 7 runs against 6.9–7.7).
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
  const hasA = vec3.tryNormalize(axis, axis);
  const hasB = vec3.tryNormalize(axis2, axis2);
  vec3.sub(rel, c2, c1);
  const sIn = params.s > 0 && params.s < 1;
  const tIn = params.t > 0 && params.t < 1;
  vec3.cross(perp, axis, axis2);
  const hasPerp = vec3.tryNormalize(perp, perp);
  writeMargin(a);
  // The natural offset first: inside both segments along their common perpendicular (crossing
  // segments otherwise got a normal along an axis, issue 16 class 3), inside one perpendicular
  // to its axis, else between the ends.
  if (sIn && tIn && hasPerp) alongPerp(cand);
  else {
    vec3.copy(cand, rel);
    if (sIn) dropAlong(cand, axis);
    else if (tIn) dropAlong(cand, axis2);
  }
  consider(a, 1);
  // The others, taken only when their overlap misses the depth by less (see `consider`).
  if (hasPerp && !(sIn && tIn)) {
    alongPerp(cand);
    consider(a, 0);
  }
  if (hasA && !sIn) {
    vec3.copy(cand, rel);
    dropAlong(cand, axis);
    consider(a, 0);
  }
  if (hasB && !tIn) {
    vec3.copy(cand, rel);
    dropAlong(cand, axis2);
    consider(a, 0);
  }
  if (sIn || tIn) {
    vec3.copy(cand, rel);
    consider(a, 0);
  }
  coreRadii[0] = a.radius;
  coreRadii[1] = b.radius;
  return fillFromOffset(out, c1, prediction);
}

const rel = vec3.create();
const cand = vec3.create();
const m = vec3.create();
const dir = vec3.create();

/**
 * [0] the core distance of the normal kept in `m`, [1] its separation, [2] the margin by which
 * another must beat it (no double crosses a call: see `contactFromCoreRadii`).
 */
const pick = new Float64Array(3);

/**
 * Rounding units of the pair's coordinates by which a later candidate's separation must beat
 * the kept one's (see `consider`): separations are computed to a few ε of the coordinates, so
 * ties keep the natural offset (and its exactly touching answers). Unitless.
 */
const CANDIDATE_MARGIN = 16 * Number.EPSILON;

/**
 * pick[2] ← {@link CANDIDATE_MARGIN} times the largest coordinate of A's ends and of B's ends in
 * A's frame (a2, b2); written, not returned (a returned double is boxed where not inlined).
 */
function writeMargin(a: Capsule): void {
  pick[2] =
    CANDIDATE_MARGIN *
    Math.max(
      Math.abs(a.a.x),
      Math.abs(a.a.y),
      Math.abs(a.a.z),
      Math.abs(a.b.x),
      Math.abs(a.b.y),
      Math.abs(a.b.z),
      Math.abs(a2.x),
      Math.abs(a2.y),
      Math.abs(a2.z),
      Math.abs(b2.x),
      Math.abs(b2.y),
      Math.abs(b2.z),
    );
}

/** out ← the part of `rel` along the common perpendicular `perp`. */
function alongPerp(out: Vec3): void {
  const along = rel.x * perp.x + rel.y * perp.y + rel.z * perp.z;
  out.x = perp.x * along;
  out.y = perp.y * along;
  out.z = perp.z * along;
}

/** v ← v minus its part along unit `u`. */
function dropAlong(v: Vec3, u: Vec3): void {
  const k = -(v.x * u.x + v.y * u.y + v.z * u.z);
  v.x += u.x * k;
  v.y += u.y * k;
  v.z += u.z * k;
}

/**
 * Weighs the candidate core offset `cand` (from c1 toward B's core): the cores' separation
 * along its direction n (min over B's ends of n·x less max over A's ends) is a lower bound of
 * their signed distance, equal to it along the exact offset, whose direction is in the cores'
 * normal cone. The first candidate (the natural offset) is kept with its length as the core
 * distance; a later one replaces it when its separation is larger by the margin pick[2], and
 * then that separation is the core distance, so that the overlap along the normal is the depth
 * by construction. Why: a rounded offset near a touch (the cores crossing, an end within
 * rounding of the other segment, near-parallel axes) has a direction at the rounding of the
 * points' coordinates relative to its length: noise, and a normal off the cone overlaps by a
 * segment's length times its tilt more than the depth (a segment of 2e-5 crossing one of 7e5 at
 * their centres: a normal 5.6e-6 off the common perpendicular, an overlap 1.9 over the depth
 * of 6e4, issue 16); the common perpendicular or an offset with an axis dropped then separates
 * the cores by more. A zero offset takes `fallback` (perpendicular to both axes, or to the
 * longer when parallel) as its direction. `first`: 1 for the natural offset, else 0.
 */
function consider(a: Capsule, first: number): void {
  const s = cand.x * cand.x + cand.y * cand.y + cand.z * cand.z;
  let len = 0;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) {
    len = Math.sqrt(s);
    const inv = 1 / len;
    dir.x = cand.x * inv;
    dir.y = cand.y * inv;
    dir.z = cand.z * inv;
  } else {
    vec3.copy(dir, cand);
    len = vec3.normalize(dir, dir);
    if (len === 0) vec3.copy(dir, fallback);
  }
  const ea = dir.x * a.a.x + dir.y * a.a.y + dir.z * a.a.z;
  const eb = dir.x * a.b.x + dir.y * a.b.y + dir.z * a.b.z;
  const fa = dir.x * a2.x + dir.y * a2.y + dir.z * a2.z;
  const fb = dir.x * b2.x + dir.y * b2.y + dir.z * b2.z;
  const sep = Math.min(fa, fb) - Math.max(ea, eb);
  if (first === 1 || sep > pick[1] + pick[2]) {
    pick[1] = sep;
    pick[0] = first === 1 ? len : sep;
    vec3.copy(m, dir);
  }
}

/**
 * Fills `out` from A's core point `c1`, the core normal `m` (unit), the core distance pick[0]
 * and the radii in `coreRadii`: distance d − (rA + rB), pointA c1 + rA·n, pointB
 * c1 + (d − rB)·n. False when the distance exceeds `prediction`; the distance is decided as
 * returned (d − r ≤ prediction), as in `contactFromCoreRadii`.
 */
function fillFromOffset(out: Contact, c1: Vec3, prediction: number): boolean {
  const rA = coreRadii[0];
  const rB = coreRadii[1];
  const d = pick[0];
  if (!(d - (rA + rB) <= prediction)) return false;
  const n = out.normal;
  vec3.copy(n, m);
  out.distance = d - (rA + rB);
  out.pointA.x = c1.x + n.x * rA;
  out.pointA.y = c1.y + n.y * rA;
  out.pointA.z = c1.z + n.z * rA;
  const k = d - rB;
  out.pointB.x = c1.x + n.x * k;
  out.pointB.y = c1.y + n.y * k;
  out.pointB.z = c1.z + n.z * k;
  return true;
}

/**
 * True when capsules A and B overlap or touch: exactly when {@link contactCapsuleCapsule} at
 * prediction 0 answers (one truth with distance and contact on touching pairs, issue 16).
 */
export function intersectsCapsuleCapsule(a: Capsule, b: Capsule, bInA: Isometry): boolean {
  return contactCapsuleCapsule(scratch, a, b, bInA, 0);
}

const scratch = makeContact();
