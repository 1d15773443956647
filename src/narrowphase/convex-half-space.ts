/**
 * Half-space (A) against a convex shape (B). The half-space {p : n·p ≤ o} is unbounded, so the
 * exact answer comes from B's support point along −n, its deepest point into the half-space:
 * signed distance s = n·p − o, normal from the half-space toward B = n, and the half-space's
 * witness point is p projected onto the plane (Ericson 2005, §5.2.2 for the plane side tests;
 * parry's `contact_halfspace_support_map`). The manifold clips B's supporting feature against a
 * proxy box whose top face lies in the plane and covers B's projection, so resting boxes and
 * capsules get their full contact area.
 *
 * The routines take B's pose in the half-space's frame (`bInA`, registered in the order
 * (half-space, convex)): a half-space given in the world (the JSON form, a world body at the
 * identity) then sees B's world pose exactly, and the plane's offset from B's origin,
 * o − n·t, is formed with Dekker's exact products and a compensated sum (Ogita, Rump and Oishi
 * 2005, Dot2), rounded once. That offset cancels to the size of B when B rests on a plane far
 * from the origin; formed in B's frame from a rounded relative pose it carried the rounding of
 * the offset (a convex of 6e-6 at 1.6e4 got a gap 1.5e-12 off, one of 1e-4 at 15 an overlap
 * of 4.7e-15 for one of 4.4e-16, issue 16). Everything else is done in B's frame, where the
 * magnitudes are B's size: the gap is accurate to a few ulps of B's size plus its own.
 */
import * as aabb from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { productError, sumError } from "../math/scalar.js";
import * as vec3 from "../math/vec3.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { aabbShape, supportShape } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import {
  type Contact,
  type ContactManifold,
  type DistanceResult,
  flipManifold,
  makeContact,
  makeContactManifold,
} from "./contact.js";
import { manifoldFromContact } from "./manifold.js";

/** The plane's normal in B's frame (set by {@link deepestInB}). */
const nB = vec3.create();
const dir = vec3.create();
/** B's deepest point into the half-space, in B's frame (set by {@link deepestInB}). */
const deepest = vec3.create();
/** [0]: the plane's offset in B's frame, o − n·t (set by {@link deepestInB}). */
const planeB = new Float64Array(1);
const invRot = quat.identity();

/**
 * Writes into `out[0]` the offset o − n·t of half-space `a`'s plane seen from the point `t` (A's
 * frame): the plane's offset in a frame whose origin is `t`, formed exactly (Dot2: Dekker's
 * products, TwoSum) and rounded once, so it is accurate to its own size however far `t` and
 * the plane are from A's origin. Overflowing splits fall back to the plain rounded offset.
 */
export function planeOffsetAt(out: Float64Array, a: HalfSpace, t: vec3.Vec3): void {
  const n = a.normal;
  // Dot2: each product split exactly into p + e (Dekker), the sum of p's by TwoSum with the
  // errors and the e's carried to the end.
  const nx = n.x;
  const ny = n.y;
  const nz = n.z;
  const tx = t.x;
  const ty = t.y;
  const tz = t.z;
  const px = nx * tx;
  const py = ny * ty;
  const pz = nz * tz;
  // The products' rounding errors, exactly (Dekker): n_i·t_i = p_i + e_i.
  const e = productError(nx, tx, px) + productError(ny, ty, py) + productError(nz, tz, pz);
  // o − px − py − pz by TwoSum, each sum's rounding error collected in err.
  const o = a.offset;
  const s1 = o - px;
  const s2 = s1 - py;
  const s3 = s2 - pz;
  const err = sumError(o, -px, s1) + sumError(s1, -py, s2) + sumError(s2, -pz, s3);
  let d = s3 + (err - e);
  // Overflowing splits (|n|·|t| near the largest double) give NaN or infinite errors: the
  // plain rounded offset then (it is finite when the pose was).
  if (!(d - d === 0)) d = o - (px + py + pz);
  out[0] = d;
}

/**
 * Loads the plane in B's frame — normal into `nB`, offset o − n·t into `planeB[0]` (t: B's
 * translation in A's frame), formed exactly and rounded once — writes B's deepest point (B's
 * frame) into `deepest` and returns its signed distance to the plane.
 */
function deepestInB(a: HalfSpace, b: ConvexShape, bInA: Isometry): number {
  const n = a.normal;
  const t = bInA.translation;
  // Dot2 inline, as planeOffsetAt (kept in this routine of the world step: split out, V8
  // stopped inlining it here and the heightfield world allocated 4 KB per step).
  const nx = n.x;
  const ny = n.y;
  const nz = n.z;
  const tx = t.x;
  const ty = t.y;
  const tz = t.z;
  const px = nx * tx;
  const py = ny * ty;
  const pz = nz * tz;
  const e = productError(nx, tx, px) + productError(ny, ty, py) + productError(nz, tz, pz);
  const o = a.offset;
  const s1 = o - px;
  const s2 = s1 - py;
  const s3 = s2 - pz;
  const err = sumError(o, -px, s1) + sumError(s1, -py, s2) + sumError(s2, -pz, s3);
  let d = s3 + (err - e);
  if (!(d - d === 0)) d = o - (px + py + pz);
  planeB[0] = d;
  // The normal in B's frame: n rotated by B's rotation inverted.
  const q = bInA.rotation;
  invRot.x = -q.x;
  invRot.y = -q.y;
  invRot.z = -q.z;
  invRot.w = q.w;
  quat.rotate(nB, invRot, n);
  vec3.negate(dir, nB);
  supportShape(deepest, b, dir);
  return vec3.dot(nB, deepest) - d;
}

/** True when half-space A touches or holds part of convex B (B's pose in A's frame `bInA`). */
export function intersectsHalfSpaceConvex(a: HalfSpace, b: ConvexShape, bInA: Isometry): boolean {
  return deepestInB(a, b, bInA) <= 0;
}

/**
 * Writes the witnesses in A's frame for gap `s`: B's deepest point moved into A's frame into
 * `pointB`, its projection onto the plane (along A's normal) into `pointA`.
 */
function witnesses(pointA: vec3.Vec3, pointB: vec3.Vec3, a: HalfSpace, bInA: Isometry, s: number) {
  iso.transformPoint(pointB, bInA, deepest);
  vec3.addScaled(pointA, pointB, a.normal, -s);
}

/** Distance (≥ 0) and closest points of half-space A and convex B, in A's frame. */
export function distanceHalfSpaceConvex(
  out: DistanceResult,
  a: HalfSpace,
  b: ConvexShape,
  bInA: Isometry,
): DistanceResult {
  const s = deepestInB(a, b, bInA);
  out.distance = Math.max(0, s);
  witnesses(out.pointA, out.pointB, a, bInA, s);
  return out;
}

/**
 * Contact of half-space A and convex B in A's frame: false when the gap exceeds `prediction`;
 * else the signed distance, the normal n (from A toward B: out of the solid side) and the
 * witness points.
 */
export function contactHalfSpaceConvex(
  out: Contact,
  a: HalfSpace,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const s = deepestInB(a, b, bInA);
  if (s > prediction) return false;
  out.distance = s;
  vec3.copy(out.normal, a.normal);
  witnesses(out.pointA, out.pointB, a, bInA, s);
  return true;
}

const proxyHalf = vec3.create();
const proxy: Cuboid = { type: ShapeType.Cuboid, halfExtents: proxyHalf };
const proxyPose = iso.identity();
const localBox = aabb.empty();
const identity = iso.identity();
const zAxis = vec3.create(0, 0, 1);
const contactInB = makeContact();
const manifoldInB = makeContactManifold();

/**
 * The contact manifold of convex B resting on half-space A, given their contact (A's frame):
 * B's supporting feature clipped, in B's frame, against a proxy box face lying in the plane;
 * each point's gap taken again from the plane in B's frame; the result moved into A's frame with
 * A's normal.
 */
export function manifoldHalfSpaceConvex(
  out: ContactManifold,
  a: HalfSpace,
  b: ConvexShape,
  bInA: Isometry,
  _contact: Contact,
  prediction: number,
): ContactManifold {
  const s = deepestInB(a, b, bInA);
  const d = planeB[0];
  // The contact in B's frame, B first: normal −n toward the solid side.
  const c = contactInB;
  c.distance = s;
  vec3.negate(c.normal, nB);
  vec3.copy(c.pointA, deepest);
  vec3.addScaled(c.pointB, deepest, nB, -s);
  aabbShape(localBox, b, identity);
  const reach = aabb.reach(localBox) * 2;
  const r = Math.max(reach, Number.MIN_VALUE) * 2;
  vec3.set(proxyHalf, r, r, r);
  // Proxy centre: the plane point nearest B's origin, pushed r into the solid side.
  vec3.scale(proxyPose.translation, nB, d - r);
  // Rotation taking +z to n (half-way quaternion; the antiparallel case turns about x).
  const cz = vec3.dot(zAxis, nB);
  const q = proxyPose.rotation;
  if (cz < -1 + Number.EPSILON) {
    q.x = 1;
    q.y = 0;
    q.z = 0;
    q.w = 0;
  } else {
    vec3.cross(dir, zAxis, nB);
    q.x = dir.x;
    q.y = dir.y;
    q.z = dir.z;
    q.w = 1 + cz;
    quat.normalize(q, q);
  }
  const m = manifoldInB;
  manifoldFromContact(m, b, proxy, proxyPose, c, prediction);
  // Each point's gap from the plane itself (B's frame, where the offset is exact to a rounding),
  // its plane witness the projection.
  for (let i = 0; i < m.count; i++) {
    const p = m.points[i];
    const g = vec3.dot(nB, p.pointA) - d;
    p.distance = g;
    vec3.addScaled(p.pointB, p.pointA, nB, -g);
  }
  flipManifold(out, m, bInA);
  vec3.copy(out.normal, a.normal);
  return out;
}
