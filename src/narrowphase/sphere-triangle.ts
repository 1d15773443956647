/**
 * Sphere–triangle, the one routine of the pair in the library: the closest point of the triangle
 * to the sphere's centre by Voronoi regions (Ericson 2005, §5.1.5 and §5.2.7), then the radius.
 * A centre exactly on the triangle gets the triangle's normal (oriented toward the side of the
 * plane the centre lies on, deterministic), a degenerate triangle an edge-perpendicular
 * direction.
 *
 * One closed form ({@link contactSphereTriangleCore}, all points in one frame) serves both orders
 * of the pair table, each unflipped: (sphere, triangle) with the triangle moved into the
 * sphere's frame (`…SphereTriangle`: what the generic composite mid-phase asks for a surface's
 * part, src/narrowphase/composite.ts), and (triangle, sphere) with the centre moved into the
 * triangle's frame (`…TriangleSphere`: the triangle mesh's own frame,
 * src/narrowphase/convex-mesh.ts), so neither pays a flip.
 */
import {
  closestPointOnTriangle,
  sliverNormal,
  triangleIsSliver,
} from "../geometry/closest-point.js";
import {
  exactRange,
  PLANE_GAP_UNDECIDED,
  planeGapIo,
  pointTriangleGapSignIo,
} from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Sphere } from "../shapes/sphere.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { flipContactInto, makeContact } from "./contact.js";
import { contactFromCoreRadii, coreRadii, perpendicular } from "./rounded.js";

const closest = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const fallback = vec3.create();
const projected = vec3.create();
const faceNormal = vec3.create();
const edge = vec3.create();
const rel = vec3.create();
const crossTmp = vec3.create();
/** Barycentric weights of the closest point (closestPointOnTriangle's). */
const triW = new Float64Array(3);

/**
 * When point `p` projects into the face of triangle (a, b, c) (not degenerate), writes that
 * projection to `out` and returns true; else leaves `out` and returns false. In the face's
 * Voronoi region this is the closest point of the triangle (Ericson 2005, §5.1.5), taken from
 * the plane directly so that `p − out` is along the face normal: the barycentric computation's
 * rounding lies in the plane and would otherwise give a centre within rounding of the face an
 * in-plane normal. Sphere–triangle and mesh–sphere contacts both use it.
 */
export function projectOntoTriangleFace(out: Vec3, p: Vec3, a: Vec3, b: Vec3, c: Vec3): boolean {
  // A sliver's rounded normal is noise (its plane tilted by ε·L over its height along its long
  // edge): `closestPointOnTriangle` projects it along its exact normal, left as it is here.
  if (triangleIsSliver(a, b, c)) return false;
  vec3.sub(edge, b, a);
  vec3.sub(rel, c, a);
  vec3.cross(faceNormal, edge, rel);
  if (!vec3.tryNormalize(faceNormal, faceNormal)) return false;
  vec3.sub(rel, p, a);
  const h = faceNormal.x * rel.x + faceNormal.y * rel.y + faceNormal.z * rel.z;
  projected.x = p.x - h * faceNormal.x;
  projected.y = p.y - h * faceNormal.y;
  projected.z = p.z - h * faceNormal.z;
  if (!insideTriangle(projected, a, b, c, faceNormal)) return false;
  vec3.copy(out, projected);
  return true;
}

/**
 * True when point `p` of the plane of triangle (a, b, c) with unit normal `n` lies inside the
 * triangle or on its boundary: p is on the inner side of each edge (Ericson 2005, §5.4.2).
 */
function insideTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3, n: Vec3): boolean {
  return innerSide(p, a, b, n) && innerSide(p, b, c, n) && innerSide(p, c, a, n);
}

/**
 * ((p1 − p0) × (p − p0)) · n ≥ 0: p is on the triangle's side of edge p0 → p1 (the edges run
 * counter-clockwise about n, which is (b − a) × (c − a) normalised). Written out, a boolean: a
 * double returned by a call V8 does not inline is boxed (allocated).
 */
function innerSide(p: Vec3, p0: Vec3, p1: Vec3, n: Vec3): boolean {
  const ex = p1.x - p0.x;
  const ey = p1.y - p0.y;
  const ez = p1.z - p0.z;
  const rx = p.x - p0.x;
  const ry = p.y - p0.y;
  const rz = p.z - p0.z;
  const cx = ey * rz - ez * ry;
  const cy = ez * rx - ex * rz;
  const cz = ex * ry - ey * rx;
  return cx * n.x + cy * n.y + cz * n.z >= 0;
}

/**
 * Doubles that would otherwise cross a call (boxed when V8 does not inline it, as under the mesh
 * pairs' deep call chains): [0] the distance of {@link distanceInto}.
 */
const io = new Float64Array(2);

/** io[0] = |a − b| as `vec3.distance` (hypot3) computes it, its common case inline. */
function distanceInto(a: Vec3, b: Vec3): void {
  const x = a.x - b.x;
  const y = a.y - b.y;
  const z = a.z - b.z;
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) io[0] = Math.sqrt(s);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (x === 0 && y === 0 && z === 0) io[0] = 0;
  else io[0] = hypot3(x, y, z);
}

/**
 * Relative width of the band (times the largest coordinate of the centre, the corners and the
 * radius) within which the double gap |centre − closest| − r is decided exactly
 * ({@link exactGapInto}): far wider than the rounding of that gap (a few ε of those
 * coordinates), so that outside it the doubles' sign is the exact one.
 */
export const SPHERE_TOUCH_BAND = 2 ** -36;

/** The exact sign of the last {@link exactGapInto}: −1, 0, 1, or PLANE_GAP_UNDECIDED. */
let exactSign = PLANE_GAP_UNDECIDED;

/**
 * io[1] = the gap io[0] − r (io[0] = |center − closest|, r = the sphere's radius) with its sign
 * made exact where the doubles leave it within {@link SPHERE_TOUCH_BAND} of 0 (issue 16: a
 * sphere resting exactly on a tilted face, edge or corner was 1.2e-16 apart): the sign of the
 * centre's distance to the closed triangle less r, in exact expansions
 * (src/geometry/exact-predicates.ts `pointTriangleGapSignIo`: the plane's gap — beyond the
 * radius, apart; at or within it with the foot in the triangle, touching (0) or overlapping —
 * else, the foot proven outside, the least of the edges' gaps, `segmentGapSignIo`: an edge's or
 * a corner's touch). An exact touch, or an overlap the doubles call apart, is 0; an exact gap the
 * doubles call none is the least positive double; an undecided sign (inputs out of range) keeps
 * the doubles' gap. The frame is the caller's: the centre as the routine holds it (B's pose in A's frame, one
 * rounding per coordinate when a rotation or a far offset is applied). Nothing allocated.
 */
function exactGapInto(center: Vec3, a: Vec3, b: Vec3, c: Vec3, s: Sphere): void {
  const r = s.radius;
  const g = io[0] - r;
  io[1] = g;
  exactSign = PLANE_GAP_UNDECIDED;
  const m = Math.max(
    Math.abs(center.x),
    Math.abs(center.y),
    Math.abs(center.z),
    Math.abs(a.x),
    Math.abs(a.y),
    Math.abs(a.z),
    Math.abs(b.x),
    Math.abs(b.y),
    Math.abs(b.z),
    Math.abs(c.x),
    Math.abs(c.y),
    Math.abs(c.z),
    r,
  );
  if (!(Math.abs(g) <= SPHERE_TOUCH_BAND * m)) return;
  if (!exactRange(center) || !exactRange(a) || !exactRange(b) || !exactRange(c)) return;
  if (!(r === 0 || (r < 2 ** 300 && r >= 2 ** -300))) return;
  const v = planeGapIo;
  v[0] = center.x;
  v[1] = center.y;
  v[2] = center.z;
  v[3] = 0;
  v[4] = 0;
  v[5] = 0;
  v[6] = a.x;
  v[7] = a.y;
  v[8] = a.z;
  v[9] = b.x;
  v[10] = b.y;
  v[11] = b.z;
  v[12] = c.x;
  v[13] = c.y;
  v[14] = c.z;
  v[15] = r;
  v[16] = 0;
  const k = pointTriangleGapSignIo();
  if (k === PLANE_GAP_UNDECIDED) return;
  exactSign = k;
  if (k === 0 || (k < 0 && g > 0)) io[1] = 0;
  else if (k > 0 && !(g > 0)) io[1] = Number.MIN_VALUE;
}

/**
 * The sphere–triangle contact in one frame: sphere `s` at `center`, triangle (a, b, c);
 * false when the gap exceeds `prediction`. `sphereFirst`: the sphere is A (normal from the
 * centre toward the triangle's closest point, pointA on the sphere) or B (normal from the
 * triangle toward the centre, pointA on the triangle).
 */
function contactSphereTriangleCore(
  out: Contact,
  center: Vec3,
  s: Sphere,
  a: Vec3,
  b: Vec3,
  c: Vec3,
  prediction: number,
  sphereFirst: boolean,
): boolean {
  closestPointOnTriangle(closest, center, a, b, c, triW);
  vec3.sub(e1, b, a);
  vec3.sub(e2, c, a);
  vec3.cross(fallback, e1, e2);
  let onFace = false;
  const sliver = triangleIsSliver(a, b, c);
  // A sliver's normal expanded exactly (its rounded one is noise); collinear corners, or a
  // normal that is no direction, give a direction across the longest edge.
  if (sliver ? !sliverNormal(fallback, a, b, c) : !vec3.tryNormalize(fallback, fallback)) {
    vec3.sub(rel, c, b);
    const l1 = e1.x * e1.x + e1.y * e1.y + e1.z * e1.z;
    const l2 = e2.x * e2.x + e2.y * e2.y + e2.z * e2.z;
    const l3 = rel.x * rel.x + rel.y * rel.y + rel.z * rel.z;
    if (l2 > l1 && l2 >= l3) vec3.copy(e1, e2);
    else if (l3 > l1) vec3.copy(e1, rel);
    if (!vec3.tryNormalize(e1, e1)) vec3.set(e1, 1, 0, 0);
    perpendicular(fallback, e1);
  } else if (sliver) {
    // In the face's region (closestPointOnTriangle projected along the exact normal) when no
    // corner's weight is 0.
    vec3.copy(faceNormal, fallback);
    onFace = triW[0] > 0 && triW[1] > 0 && triW[2] > 0;
  } else {
    onFace = projectOntoTriangleFace(closest, center, a, b, c);
  }
  // Used only when the centre lies on the triangle, where either side is a minimum: the sign is
  // fixed by the plane's offset from the centre so that the choice is deterministic (from A
  // toward B).
  if (sphereFirst) vec3.sub(e2, a, center);
  else vec3.sub(e2, center, a);
  if (fallback.x * e2.x + fallback.y * e2.y + fallback.z * e2.z < 0)
    vec3.negate(fallback, fallback);
  // The radius through coreRadii: read from the shape, it would be boxed passed to a call.
  coreRadii[sphereFirst ? 0 : 1] = s.radius;
  coreRadii[sphereFirst ? 1 : 0] = 0;
  const hit = sphereFirst
    ? contactFromCoreRadii(out, center, closest, prediction, fallback)
    : contactFromCoreRadii(out, closest, center, prediction, fallback);
  // (Coincident centre and closest point: the fallback normal stands.)
  if (!hit || vec3.exactEquals(closest, center)) return hit;
  const n = out.normal;
  if (onFace) {
    // In the face's region the normal is the face normal itself: centre − projection is along
    // it only up to the rounding of the centre's coordinates (about ε·|centre − a|).
    const s = n.x * faceNormal.x + n.y * faceNormal.y + n.z * faceNormal.z >= 0 ? 1 : -1;
    vec3.scale(n, faceNormal, s);
  } else if (
    !vec3.exactEquals(closest, a) &&
    !vec3.exactEquals(closest, b) &&
    !vec3.exactEquals(closest, c)
  ) {
    // In an edge's region the normal is perpendicular to that edge: centre − closest point is
    // so only up to the rounding of the centre's coordinates, which tilts the normal along the
    // edge by about ε·|centre|/gap; over an edge 1e5 times the sphere that missed the depth by
    // 6.9e-7 (issue 16). The along-edge part is removed; the distance stays |centre − q| − r.
    nearestEdgeDirection(edge, closest, a, b, c);
    const along = n.x * edge.x + n.y * edge.y + n.z * edge.z;
    n.x -= along * edge.x;
    n.y -= along * edge.y;
    n.z -= along * edge.z;
    if (!vec3.tryNormalize(n, n)) return hit;
  } else return hit;
  // Written out: a double passed to a call V8 does not inline is boxed (allocated).
  const r = sphereFirst ? s.radius : -s.radius;
  const p = sphereFirst ? out.pointA : out.pointB;
  p.x = center.x + n.x * r;
  p.y = center.y + n.y * r;
  p.z = center.z + n.z * r;
  return hit;
}

/**
 * out = the unit direction of the edge of triangle (a, b, c) whose line passes nearest to `q`
 * (a point on the triangle's boundary): |(q − p0) × (p1 − p0)| / |p1 − p0| smallest.
 */
function nearestEdgeDirection(out: Vec3, q: Vec3, a: Vec3, b: Vec3, c: Vec3): void {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 3; k++) {
    const p0 = k === 0 ? a : k === 1 ? b : c;
    const p1 = k === 0 ? b : k === 1 ? c : a;
    vec3.sub(e1, p1, p0);
    if (!vec3.tryNormalize(e1, e1)) continue;
    vec3.sub(e2, q, p0);
    vec3.cross(crossTmp, e2, e1);
    const d = crossTmp.x * crossTmp.x + crossTmp.y * crossTmp.y + crossTmp.z * crossTmp.z;
    if (d < best) {
      best = d;
      vec3.copy(out, e1);
    }
  }
}

/**
 * The sphere's centre in the triangle's frame (B at `bInA` in the sphere's frame): the
 * sphere-first routines answer in the triangle's frame, by the triangle-first ones, and flip
 * (issue 16: swapping A and B must swap the points and negate the normal; each order had its own
 * frame and rounding, and an exactly touching pair was touching in one order and 2e-13 apart in
 * the other). For a translation alone the centre is exactly the one the other order sees.
 */
const centerInTriangle: Isometry = iso.identity();

function loadCenter(bInA: Isometry): void {
  iso.invert(centerInTriangle, bInA);
}

const flipped: Contact = makeContact();

/** True when sphere A and triangle B (B at `bInA`, A's frame) overlap or touch. */
export function intersectsSphereTriangle(a: Sphere, b: Triangle, bInA: Isometry): boolean {
  loadCenter(bInA);
  return intersectsTriangleSphere(b, a, centerInTriangle);
}

/** True when triangle A and sphere B (B at `bInA`, A's frame) overlap or touch. */
export function intersectsTriangleSphere(a: Triangle, b: Sphere, bInA: Isometry): boolean {
  const center = bInA.translation;
  closestPointOnTriangle(closest, center, a.a, a.b, a.c);
  projectOntoTriangleFace(closest, center, a.a, a.b, a.c);
  // The gap as distanceTriangleSphere and contactTriangleSphere measure it (|c − p| − r, not
  // squared lengths), so the three agree on a sphere that exactly touches.
  distanceInto(closest, center);
  exactGapInto(center, a.a, a.b, a.c, b);
  return io[1] <= 0;
}

/**
 * Contact of sphere A and triangle B in A's frame; false when the gap exceeds `prediction`.
 * Normal from the sphere's centre toward the triangle's closest point.
 */
export function contactSphereTriangle(
  out: Contact,
  a: Sphere,
  b: Triangle,
  bInA: Isometry,
  prediction: number,
): boolean {
  loadCenter(bInA);
  if (!contactTriangleSphere(flipped, b, a, centerInTriangle, prediction)) return false;
  flipContactInto(out, flipped, bInA); // the triangle-first contact seen from the sphere
  return true;
}

/**
 * Contact of triangle A and sphere B in A's frame; false when the gap exceeds `prediction`.
 * Normal from the triangle's closest point toward the sphere's centre.
 */
export function contactTriangleSphere(
  out: Contact,
  a: Triangle,
  b: Sphere,
  bInA: Isometry,
  prediction: number,
): boolean {
  const center = bInA.translation;
  closestPointOnTriangle(closest, center, a.a, a.b, a.c);
  projectOntoTriangleFace(closest, center, a.a, a.b, a.c);
  // Rejected on the gap |c − p| − r, as intersectsTriangleSphere and distanceTriangleSphere
  // measure it (a sphere that exactly touches is touching in all three).
  distanceInto(closest, center);
  exactGapInto(center, a.a, a.b, a.c, b);
  const gap = io[1];
  if (gap > prediction) return false;
  const k = exactSign;
  if (!contactSphereTriangleCore(out, center, b, a.a, a.b, a.c, Infinity, false)) return false;
  // The gap's sign as decided exactly (a touch is distance 0, not ±1e-16).
  if (k === 0 || (k < 0 && out.distance > 0) || (k === 1 && !(out.distance > 0))) {
    out.distance = gap;
  }
  return true;
}

const distanceContact: Contact = makeContact();

function distanceFromContact(out: DistanceResult): DistanceResult {
  out.distance = Math.max(0, distanceContact.distance);
  vec3.copy(out.pointA, distanceContact.pointA);
  vec3.copy(out.pointB, distanceContact.pointB);
  return out;
}

/**
 * Closest points of sphere A and triangle B in A's frame (the deepest points when they
 * overlap, distance 0), by the closed form of the contact, so that distance, `intersects` and
 * `contact` agree (GJK's tolerance is relative to the triangle's size, which gave distance 0
 * for a unit sphere 1 away from a triangle spanning 1e20).
 */
export function distanceSphereTriangle(
  out: DistanceResult,
  a: Sphere,
  b: Triangle,
  bInA: Isometry,
): DistanceResult {
  contactSphereTriangle(distanceContact, a, b, bInA, Number.POSITIVE_INFINITY);
  return distanceFromContact(out);
}

/**
 * {@link distanceSphereTriangle} with the triangle as A, by the same closest point
 * (`intersects`' and the contact's): distance max(0, |c − p| − r), pointA the triangle's closest
 * point p, pointB the sphere's point toward it (its deepest point when they overlap); a centre
 * exactly on the triangle takes the contact's normal. No normal is formed otherwise: a triangle
 * mesh's distance asks this of every triangle its branch and bound visits.
 */
export function distanceTriangleSphere(
  out: DistanceResult,
  a: Triangle,
  b: Sphere,
  bInA: Isometry,
): DistanceResult {
  const center = bInA.translation;
  closestPointOnTriangle(closest, center, a.a, a.b, a.c);
  projectOntoTriangleFace(closest, center, a.a, a.b, a.c);
  distanceInto(closest, center);
  const d = io[0];
  if (!(d > 0)) {
    contactTriangleSphere(distanceContact, a, b, bInA, Number.POSITIVE_INFINITY);
    return distanceFromContact(out);
  }
  exactGapInto(center, a.a, a.b, a.c, b);
  out.distance = Math.max(0, io[1]);
  vec3.copy(out.pointA, closest);
  // vec3.lerp written out (its t would be boxed passed to a call).
  const t = b.radius / d;
  out.pointB.x = center.x + (closest.x - center.x) * t;
  out.pointB.y = center.y + (closest.y - center.y) * t;
  out.pointB.z = center.z + (closest.z - center.z) * t;
  return out;
}
