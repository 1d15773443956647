/**
 * Sphere–cuboid (sphere–AABB and sphere–OBB): the sphere's centre is taken into the box's
 * local frame and clamped into the box, giving the closest point (Ericson 2005, §5.2.5 and
 * §5.1.3). When the centre is inside the box the normal is the nearest face's and the depth is
 * the distance to that face plus the radius, so the normal is never zero or NaN. A bounding
 * sphere early-out (box radius |h|) rejects far pairs before the clamp.
 *
 * The pair is A = sphere, B = cuboid; the routines here work in B's frame internally and write
 * results in A's frame, as every pair routine does.
 */

import { UNIT_QUATERNION_SQ_SLACK } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Contact, DistanceResult } from "./contact.js";
import { UNIT_SQ_MAX, UNIT_SQ_MIN } from "./pose-pair.js";

const centerInB = /* @__PURE__ */ vec3.create();
const closestInB = /* @__PURE__ */ vec3.create();
const normalInB = /* @__PURE__ */ vec3.create();

/** Sphere centre (A's origin) in B's frame. */
function sphereCenterInBox(bInA: Isometry): Vec3 {
  // A's origin in B's frame = inverse(bInA) applied to 0 = −R_bᵀ t_b.
  vec3.negate(centerInB, bInA.translation);
  return quat.inverseRotate(centerInB, bInA.rotation, centerInB);
}

/**
 * Writes the closest point of the box to `p` (B's frame) into `closestInB`; its squared
 * distance to `p` (0 when p is inside or on the box) is `vec3.distanceSq(p, closestInB)`. It
 * returns nothing: V8 boxes a double returned by a call it does not inline.
 */
function clampIntoBox(p: Vec3, h: Vec3): void {
  closestInB.x = Math.min(Math.max(p.x, -h.x), h.x);
  closestInB.y = Math.min(Math.max(p.y, -h.y), h.y);
  closestInB.z = Math.min(Math.max(p.z, -h.z), h.z);
}

/** Distance from the point to the face found by the last {@link nearestFace} call. */
const faceDistance = /* @__PURE__ */ new Float64Array(1);

/**
 * The face of the box nearest to interior point `p` (B's frame): sets `normalInB` to its outward
 * normal and `faceDistance[0]` to the distance from p to it. Ties go to the lower axis, then to
 * +. (A typed array, not a return value: V8 boxes a double returned by a call it does not inline.)
 */
function nearestFace(p: Vec3, h: Vec3): void {
  let best = h.x - p.x;
  let axis = 0;
  if (h.x + p.x < best) {
    best = h.x + p.x;
    axis = 1;
  }
  if (h.y - p.y < best) {
    best = h.y - p.y;
    axis = 2;
  }
  if (h.y + p.y < best) {
    best = h.y + p.y;
    axis = 3;
  }
  if (h.z - p.z < best) {
    best = h.z - p.z;
    axis = 4;
  }
  if (h.z + p.z < best) {
    best = h.z + p.z;
    axis = 5;
  }
  const sign = (axis & 1) === 0 ? 1 : -1;
  normalInB.x = axis < 2 ? sign : 0;
  normalInB.y = axis === 2 || axis === 3 ? sign : 0;
  normalInB.z = axis > 3 ? sign : 0;
  faceDistance[0] = best;
}

/** True when the sphere (A) and the box (B at `bInA`) overlap or touch. */
export function intersectsSphereCuboid(a: Sphere, b: Cuboid, bInA: Isometry): boolean {
  const h = b.halfExtents;
  const r = a.radius;
  // Bounding-sphere early-out: the box lies within |h| of its centre.
  // |h| written out (hypot3's arithmetic): no double returned from a call.
  const hh = h.x * h.x + h.y * h.y + h.z * h.z;
  const reach = r + (hh > HYPOT_SAFE_MIN && hh < HYPOT_SAFE_MAX ? Math.sqrt(hh) : vec3.length(h));
  const t = bInA.translation;
  if (t.x * t.x + t.y * t.y + t.z * t.z > reach * reach) return false;
  const p = sphereCenterInBox(bInA);
  clampIntoBox(p, h);
  const dx = p.x - closestInB.x;
  const dy = p.y - closestInB.y;
  const dz = p.z - closestInB.z;
  return dx * dx + dy * dy + dz * dz <= r * r;
}

/** Smallest r² the world-pose test trusts (2^-256). */
const SPHERE_BOX_R2_MIN = 2 ** -256;
/** Largest r² the world-pose test trusts (2^256). */
const SPHERE_BOX_R2_MAX = 2 ** 256;

/**
 * The sphere–box overlap from the world poses (the pair table's `intersectsPoses`): 1 when
 * sphere `a` at `poseA` and box `b` at `poseB` overlap or touch, 0 when apart, −1 when it
 * cannot tell — a pose that is not finite numbers with a unit quaternion (src/narrowphase/
 * pose-pair.ts), r² outside [2^-256, 2^256] (where the comparison of squares could overflow or
 * underflow; the rescaling path answers), a NaN size, or a sphere with a rotation other than the
 * identity (then the A-frame path answers: its centre in the box's frame, and with it the
 * touching decision, is bitwise the one of `distance` and `contact` only without one). The centre is taken into the box's frame
 * by conj(q) and clamped (Ericson 2005, §5.2.5): one inverse rotation, no relative pose.
 */
export function intersectsSphereCuboidPoses(
  a: Sphere,
  poseA: Isometry,
  b: Cuboid,
  poseB: Isometry,
): number {
  if (poseA == null || poseB == null) return -1;
  const ts = poseA.translation;
  const qs = poseA.rotation;
  const tc = poseB.translation;
  const q = poseB.rotation;
  if (ts == null || qs == null || tc == null || q == null) return -1;
  const cx = ts.x;
  const cy = ts.y;
  const cz = ts.z;
  const tx = tc.x;
  const ty = tc.y;
  const tz = tc.z;
  const qx = q.x;
  const qy = q.y;
  const qz = q.z;
  const qw = q.w;
  const sx = qs.x;
  const sy = qs.y;
  const sz = qs.z;
  const sw = qs.w;
  if (
    typeof cx !== "number" ||
    typeof cy !== "number" ||
    typeof cz !== "number" ||
    typeof tx !== "number" ||
    typeof ty !== "number" ||
    typeof tz !== "number" ||
    typeof qx !== "number" ||
    typeof qy !== "number" ||
    typeof qz !== "number" ||
    typeof qw !== "number" ||
    typeof sx !== "number" ||
    typeof sy !== "number" ||
    typeof sz !== "number" ||
    typeof sw !== "number"
  ) {
    return -1;
  }
  const finite =
    cx - cx === 0 &&
    cy - cy === 0 &&
    cz - cz === 0 &&
    tx - tx === 0 &&
    ty - ty === 0 &&
    tz - tz === 0;
  const ns = sx * sx + sy * sy + sz * sz + sw * sw;
  const nq = qx * qx + qy * qy + qz * qz + qw * qw;
  if (
    !finite ||
    !(ns >= UNIT_SQ_MIN && ns <= UNIT_SQ_MAX && Math.abs(nq - 1) <= UNIT_QUATERNION_SQ_SLACK)
  ) {
    // (The box's rotation enters the test: one off unit by more than rounding is declined, for
    // the validating path to normalise, docs/FORMATS.md.)
    return -1;
  }
  // A turned sphere: the A-frame routines see its centre through its rotation (rounded), so the
  // A-frame path answers, the same predicate on the same numbers as distance and contact.
  if (sx !== 0 || sy !== 0 || sz !== 0) return -1;
  const dx = cx - tx;
  const dy = cy - ty;
  const dz = cz - tz;
  // quat.inverseRotate's formula, written out: doubles passed to a call V8 does not inline are
  // boxed.
  const ux = 2 * (-qy * dz + qz * dy);
  const uy = 2 * (-qz * dx + qx * dz);
  const uz = 2 * (-qx * dy + qy * dx);
  const px = dx + qw * ux + (-qy * uz + qz * uy);
  const py = dy + qw * uy + (-qz * ux + qx * uz);
  const pz = dz + qw * uz + (-qx * uy + qy * ux);
  const h = b.halfExtents;
  const ex = Math.max(Math.abs(px) - h.x, 0);
  const ey = Math.max(Math.abs(py) - h.y, 0);
  const ez = Math.max(Math.abs(pz) - h.z, 0);
  const d2 = ex * ex + ey * ey + ez * ez;
  const r = a.radius;
  const r2 = r * r;
  if (r2 >= SPHERE_BOX_R2_MIN && r2 <= SPHERE_BOX_R2_MAX) {
    if (d2 <= r2) return 1;
    if (d2 > r2) return 0;
  }
  return -1;
}

/** Signed distance of the last {@link boxFeature} call (a typed array: see faceDistance). */
const featureDistance = /* @__PURE__ */ new Float64Array(1);

/**
 * {@link boxFeature}'s two doubles, the sphere's radius (0) and the gap limit (1): passed in a
 * typed array, not as arguments — V8 boxes a double passed to a call it does not inline, and the
 * world's narrow phase calls the sphere–box contact per pair per step (heap numbers, ~90 B/step
 * on the 1,000-body scene, when they were arguments).
 */
const featureArgs = /* @__PURE__ */ new Float64Array(2);

/**
 * The closest feature of box (half extents `h`) to a sphere of radius `r` = `featureArgs[0]`
 * centred at `p` (the box's frame), when their gap is at most `limit` − r (`limit` =
 * `featureArgs[1]`): sets `closestInB` (the box's point),
 * `normalInB` (the box's outward unit normal there, toward the sphere) and `featureDistance[0]`
 * (the signed distance). Returns false when the gap exceeds it. Touching is decided by the one
 * predicate of every sphere–box query, |p − clamp(p)|² ≤ r² (as {@link intersectsSphereCuboid}
 * and {@link intersectsSphereCuboidPoses}): the signed distance is clamped to ≤ 0 when it holds
 * and to > 0 when it does not, so `intersects`, `distance` and `contact` never disagree on a
 * pair whose gap is below the rounding of |p − clamp(p)| − r.
 */
function boxFeature(p: Vec3, h: Vec3): boolean {
  const r = featureArgs[0];
  const limit = featureArgs[1];
  clampIntoBox(p, h);
  const dx = p.x - closestInB.x;
  const dy = p.y - closestInB.y;
  const dz = p.z - closestInB.z;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (d2 > limit * limit) return false;
  let distance: number;
  if (d2 > HYPOT_SAFE_MIN && d2 < HYPOT_SAFE_MAX) {
    // Outside: the box's outward normal at the closest point is (p − closest)/|p − closest|
    // (vec3.tryNormalize's arithmetic, written out: no double crosses a call here, which the
    // world's narrow phase reaches per pair).
    const len = Math.sqrt(d2);
    const inv = 1 / len;
    normalInB.x = dx * inv;
    normalInB.y = dy * inv;
    normalInB.z = dz * inv;
    distance = len - r;
  } else if (d2 > 0) {
    // Outside at a length the squares do not resolve: rescaled.
    normalInB.x = dx;
    normalInB.y = dy;
    normalInB.z = dz;
    distance = vec3.length(normalInB) - r;
    vec3.tryNormalize(normalInB, normalInB);
  } else {
    // Centre inside or on the surface: push out through the nearest face.
    nearestFace(p, h);
    const toFace = faceDistance[0];
    distance = -toFace - r;
    closestInB.x = p.x + normalInB.x * toFace;
    closestInB.y = p.y + normalInB.y * toFace;
    closestInB.z = p.z + normalInB.z * toFace;
  }
  const touching = d2 <= r * r;
  if (touching) distance = Math.min(distance, 0);
  else if (!(distance > 0)) distance = Number.MIN_VALUE;
  featureDistance[0] = distance;
  return true;
}

/**
 * The sphere's radius of {@link contactSphereBox} and {@link contactBoxSphere} (a typed array,
 * not an argument: see featureArgs). A rounded box's pairs put the sum of the radii here: the
 * sphere against the rounded box is the sphere of the summed radius against the core
 * (src/narrowphase/sphere-rounded.ts).
 */
export const sphereBoxRadius = /* @__PURE__ */ new Float64Array(1);

/**
 * Contact of a sphere of radius `sphereBoxRadius[0]` (A) and a box of half extents `h` (B at
 * `bInA`) in A's frame: false when the gap exceeds `prediction`; else the signed distance, the
 * unit normal from the sphere toward the box, the sphere's surface point and the box's.
 */
export function contactSphereBox(
  out: Contact,
  h: Vec3,
  bInA: Isometry,
  prediction: number,
): boolean {
  const r = sphereBoxRadius[0];
  const limit = r + prediction;
  if (limit < 0) return false;
  // |h| written out (hypot3's arithmetic): no double returned from a call.
  const hh = h.x * h.x + h.y * h.y + h.z * h.z;
  const reach =
    limit + (hh > HYPOT_SAFE_MIN && hh < HYPOT_SAFE_MAX ? Math.sqrt(hh) : vec3.length(h));
  const t = bInA.translation;
  if (t.x * t.x + t.y * t.y + t.z * t.z > reach * reach) return false;
  featureArgs[0] = r;
  featureArgs[1] = limit;
  if (!boxFeature(sphereCenterInBox(bInA), h)) return false;
  // Box's outward normal points toward the sphere; the contact normal (A → B) is its negation.
  iso.transformPoint(out.pointB, bInA, closestInB);
  quat.rotate(out.normal, bInA.rotation, normalInB);
  vec3.negate(out.normal, out.normal);
  out.distance = featureDistance[0];
  out.pointA.x = out.normal.x * r;
  out.pointA.y = out.normal.y * r;
  out.pointA.z = out.normal.z * r;
  return true;
}

/**
 * Contact of sphere A and box B in A's frame: false when the gap exceeds `prediction`; else the
 * signed distance, the unit normal from the sphere toward the box, the sphere's surface point
 * and the box's surface point.
 */
export function contactSphereCuboid(
  out: Contact,
  a: Sphere,
  b: Cuboid,
  bInA: Isometry,
  prediction: number,
): boolean {
  sphereBoxRadius[0] = a.radius;
  return contactSphereBox(out, b.halfExtents, bInA, prediction);
}

/** Closest points of sphere A and box B in A's frame (deepest points when they overlap). */
export function distanceSphereCuboid(
  out: DistanceResult,
  a: Sphere,
  b: Cuboid,
  bInA: Isometry,
): DistanceResult {
  const r = a.radius;
  featureArgs[0] = r;
  featureArgs[1] = Number.POSITIVE_INFINITY;
  boxFeature(sphereCenterInBox(bInA), b.halfExtents);
  iso.transformPoint(out.pointB, bInA, closestInB);
  quat.rotate(normalInB, bInA.rotation, normalInB);
  // Sphere's witness: toward the box (−normal of the box face).
  out.pointA.x = normalInB.x * -r;
  out.pointA.y = normalInB.y * -r;
  out.pointA.z = normalInB.z * -r;
  out.distance = Math.max(0, featureDistance[0]);
  return out;
}

/*
 * The box-first order (A = box, B = sphere): the sphere's centre in the box's frame is B's
 * offset itself, bitwise the centre the world-pose test and the world's narrow phase compute for
 * this order. Through the flipped entry it was taken out of the box's frame and back
 * (invert, then −Rᵀt): at a sphere of radius 4e5 against a box of 1e-3 those two roundings
 * made `distance` 2.3e-10 and `contact` null where `intersects` said touching.
 */

/** True when box A and sphere B (at `bInA`) overlap or touch. */
export function intersectsCuboidSphere(a: Cuboid, b: Sphere, bInA: Isometry): boolean {
  const h = a.halfExtents;
  const r = b.radius;
  // |h| written out (hypot3's arithmetic): no double returned from a call.
  const hh = h.x * h.x + h.y * h.y + h.z * h.z;
  const reach = r + (hh > HYPOT_SAFE_MIN && hh < HYPOT_SAFE_MAX ? Math.sqrt(hh) : vec3.length(h));
  const p = bInA.translation;
  if (p.x * p.x + p.y * p.y + p.z * p.z > reach * reach) return false;
  clampIntoBox(p, h);
  const dx = p.x - closestInB.x;
  const dy = p.y - closestInB.y;
  const dz = p.z - closestInB.z;
  return dx * dx + dy * dy + dz * dz <= r * r;
}

/**
 * Contact of a box of half extents `h` (A) and a sphere of radius `sphereBoxRadius[0]` (B at
 * `bInA`) in A's frame (normal from the box toward the sphere).
 */
export function contactBoxSphere(
  out: Contact,
  h: Vec3,
  bInA: Isometry,
  prediction: number,
): boolean {
  const r = sphereBoxRadius[0];
  const limit = r + prediction;
  if (limit < 0) return false;
  // |h| written out (hypot3's arithmetic): no double returned from a call.
  const hh = h.x * h.x + h.y * h.y + h.z * h.z;
  const reach =
    limit + (hh > HYPOT_SAFE_MIN && hh < HYPOT_SAFE_MAX ? Math.sqrt(hh) : vec3.length(h));
  const p = bInA.translation;
  if (p.x * p.x + p.y * p.y + p.z * p.z > reach * reach) return false;
  featureArgs[0] = r;
  featureArgs[1] = limit;
  if (!boxFeature(p, h)) return false;
  vec3.copy(out.pointA, closestInB);
  vec3.copy(out.normal, normalInB);
  out.distance = featureDistance[0];
  out.pointB.x = p.x + normalInB.x * -r;
  out.pointB.y = p.y + normalInB.y * -r;
  out.pointB.z = p.z + normalInB.z * -r;
  return true;
}

/** Contact of box A and sphere B in A's frame (normal from the box toward the sphere). */
export function contactCuboidSphere(
  out: Contact,
  a: Cuboid,
  b: Sphere,
  bInA: Isometry,
  prediction: number,
): boolean {
  sphereBoxRadius[0] = b.radius;
  return contactBoxSphere(out, a.halfExtents, bInA, prediction);
}

/** Closest points of box A and sphere B in A's frame (deepest points when they overlap). */
export function distanceCuboidSphere(
  out: DistanceResult,
  a: Cuboid,
  b: Sphere,
  bInA: Isometry,
): DistanceResult {
  const r = b.radius;
  const p = bInA.translation;
  featureArgs[0] = r;
  featureArgs[1] = Number.POSITIVE_INFINITY;
  boxFeature(p, a.halfExtents);
  vec3.copy(out.pointA, closestInB);
  out.pointB.x = p.x + normalInB.x * -r;
  out.pointB.y = p.y + normalInB.y * -r;
  out.pointB.z = p.z + normalInB.z * -r;
  out.distance = Math.max(0, featureDistance[0]);
  return out;
}
