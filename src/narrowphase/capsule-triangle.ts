/**
 * A capsule against a triangle. A point triangle (its three corners equal) is a point: the pair
 * is the point's distance to the capsule's segment less the radius, answered in closed form as
 * sphere–capsule's (Ericson 2005, §5.1.2), the normal perpendicular to the segment when the
 * closest point is inside it (issue 16: GJK on the swept segment, its end and its inside 1.5e-12
 * along it tied in distance to 2e-21, took the end's direction, 3.0e-9 rad off the perpendicular,
 * and a segment of 2e-4 turned that into 6.0e-13 short of a gap of 6.0e-13); that normal is the
 * part of p − a perpendicular to the segment to its own relative rounding (`accuratePerpendicular`,
 * session 35). A sliver or needle (least height at most 2^-20 of its longest edge,
 * {@link isNeedle}) whose segment stays more than 2^-20 of the pair's extent away is the capsule's
 * segment against it by triangle-polytope's exact features, the radius added, as for boxes
 * (`contactCapsulePolytope`, issue 16: GJK/EPA on the swept segment against a triangle two of whose
 * corners lay 1.6e-13 apart, touching a capsule of radius 0.25 1.9e-9 rad off parallel at 1e7,
 * left the normal 1.06e-9 short of the depth over a bar of 1.2e-14; on slivers of 2^-40..2^-20,
 * session 38, witnesses up to 766 apart across the normal; test/fuzz/capsule-sliver.test.ts).
 * Every other triangle up to 2^40 times the capsule's size and below 2^256 ({@link exactFeatures})
 * likewise takes the segment's exact features (`contactCapsulePolytope`): GJK/EPA on the swept
 * segment had turned the normal 0.19 rad for a capsule of 4e-5 across the edge of a triangle of
 * 4e5 (issue 16, seed 100) and left it up to 1.2e-9 short of the depth for a unit capsule's end on
 * a unit triangle's edge, its segment perpendicular to the edge (segment-edge-tie-gjk, session
 * 42). Beyond those bounds the pair is GJK/EPA's (src/narrowphase/convex-convex.ts).
 *
 * Allocation-free: module scratch vectors; no double crosses a call that V8 may leave out of line.
 */
import { TRIANGLE_SLIVER_RATIO } from "../constants.js";
import { closestPointOnSegment, triangleThinnerThan } from "../geometry/closest-point.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Triangle } from "../shapes/triangle.js";
import {
  capsulePredictionIo,
  contactCapsulePolytope,
  contactCapsulePolytopeIo,
} from "./capsule-polytope.js";
import { type Contact, type DistanceResult, makeContact } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import { CUBE_SAFE_MAX } from "./extreme-scale.js";
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
 * Least height, relative to the longest edge, of a triangle taken as a needle or sliver
 * ({@link isNeedle}): `TRIANGLE_SLIVER_RATIO`, below which triangle-polytope expands the face
 * normal exactly.
 */
const NEEDLE_RATIO = TRIANGLE_SLIVER_RATIO;
/** Least gap of the capsule's segment from a needle, relative to the pair's extent ({@link needleContact}). */
const NEEDLE_GAP = 2 ** -20;

/**
 * True when triangle `t` is a needle or a sliver: its rounded |(b − a) × (c − a)| (twice its
 * area) at most {@link NEEDLE_RATIO} times its longest edge squared — its least height at most
 * 2^-20 of its longest edge (`triangleIsSliver`); collinear, coincident and non-finite corners
 * included. Below 2^-40 (triangle-polytope's `PARALLEL`) the separating axis test drops its face
 * normal and takes it as its edges; between 2^-40 and 2^-20 triangle-polytope expands that
 * normal exactly (`exactFaceNormal`): rounded in doubles it is ε/h rad off for a relative height
 * h, and a capsule over a sliver of 1.2e-8 had its normal 3.1e-10 short of the depth (session 36's
 * trial of 2^-20; GJK/EPA, which had those slivers until session 38, put the witnesses up to 766
 * apart across the normal, capsuleThinSliverArb in test/fuzz/capsule-sliver.gen.ts).
 */
function isNeedle(t: Triangle): boolean {
  return triangleThinnerThan(t.a, t.b, t.c, NEEDLE_RATIO);
}

/**
 * A needle's or sliver's contact (see {@link isNeedle}) into `out`: the capsule's segment against
 * the triangle by triangle-polytope's exact features, the radius added (`contactCapsulePolytope`).
 * 1 when found, 0 when apart by more than the prediction (`capsulePredictionIo[0]`), −1 when not a
 * needle or when the segment comes within {@link NEEDLE_GAP} of the pair's extent of the needle
 * (its own gap out.distance + r), which GJK/EPA answers: there the exact features' normal of a
 * segment 8.6e-15 from a collinear triangle of 1.2 was 3.4e-3 rad off the segments' cross product
 * (test/fuzz/degenerate-triangle.test.ts, its near-collinear property). A small integer, not a
 * double, crosses the call.
 */
function needleContact(out: Contact, a: Capsule, b: Triangle, bInA: Isometry): number {
  if (!isNeedle(b)) return -1;
  if (!contactCapsulePolytopeIo(out, a, b, bInA)) return 0;
  // The segment's own gap against 2^-20 of the pair's extent (the segment's and the needle's
  // spans, per coordinate): nearer, the features' direction is rounding noise.
  const ta = b.a;
  const tb = b.b;
  const tc = b.c;
  const span = Math.max(
    Math.abs(a.b.x - a.a.x),
    Math.abs(a.b.y - a.a.y),
    Math.abs(a.b.z - a.a.z),
    Math.max(ta.x, tb.x, tc.x) - Math.min(ta.x, tb.x, tc.x),
    Math.max(ta.y, tb.y, tc.y) - Math.min(ta.y, tb.y, tc.y),
    Math.max(ta.z, tb.z, tc.z) - Math.min(ta.z, tb.z, tc.z),
  );
  return out.distance + a.radius > NEEDLE_GAP * span ? 1 : -1;
}

/**
 * The largest triangle-to-capsule span ratio for which {@link exactFeatures} holds: 2^40. The
 * polytope route's tolerances follow the triangle's size (2^-52 of it is 2^-12 of the capsule
 * here). A property of that route, not of the change of units, which keeps pairs spanning up to
 * 2^720 in size (src/narrowphase/extreme-scale.ts, `pairRescaleFactor`): test/narrowphase/
 * huge-triangle-rescale's unit capsule 0.2 from a triangle of 1e155, brought to 2^-480 and 2^35,
 * had been called intersecting by the polytope route.
 */
const LARGE_TRIANGLE_MAX_RATIO = 2 ** 40;

/**
 * True when capsule `a` against fat triangle `t` takes the segment's exact features against the
 * triangle, the radius added (`contactCapsulePolytope`, as boxes and hulls do): whenever the
 * triangle's extent (its corners' largest per-axis span) is below {@link LARGE_TRIANGLE_MAX_RATIO}
 * times the capsule's (its segment's largest per-axis span plus its diameter) and its coordinates
 * below 2^256 (extreme-scale's `CUBE_SAFE_MAX`, the size the change of units reads; a
 * triangle that size reaches here unscaled only from the world's narrow phase). GJK/EPA on the
 * swept segment had both classes this answers: a triangle over 2^10 times the capsule (issue 16,
 * seed 100: its Minkowski difference a slab of the triangle's size and the capsule's thickness,
 * EPA's normal 0.19 rad off the endpoint's perpendicular to the edge for a capsule of radius
 * 4.1e-5 across the edge of a triangle of 4e5, witnesses 8.2e-6 apart across the normal over a bar
 * of 3.9e-9) and one within 2^10 of the capsule (segment-edge-tie-gjk, session 42: a unit capsule's
 * end touching an edge of a triangle of ~1.4, its segment perpendicular to the edge, the end's and
 * the segment's inside tied in distance to x²/(2g); EPA's normal short of the depth by 3.8e-13 to
 * 1.2e-9 over a bar of 2.1e-14). A double-free boolean test, the coordinate bound written out.
 */
function exactFeatures(a: Capsule, t: Triangle): boolean {
  const ta = t.a;
  const tb = t.b;
  const tc = t.c;
  const ext = Math.max(
    Math.max(ta.x, tb.x, tc.x) - Math.min(ta.x, tb.x, tc.x),
    Math.max(ta.y, tb.y, tc.y) - Math.min(ta.y, tb.y, tc.y),
    Math.max(ta.z, tb.z, tc.z) - Math.min(ta.z, tb.z, tc.z),
  );
  const cap =
    Math.max(Math.abs(a.b.x - a.a.x), Math.abs(a.b.y - a.a.y), Math.abs(a.b.z - a.a.z)) +
    2 * a.radius;
  const m = Math.max(
    Math.abs(ta.x),
    Math.abs(ta.y),
    Math.abs(ta.z),
    Math.abs(tb.x),
    Math.abs(tb.y),
    Math.abs(tb.z),
    Math.abs(tc.x),
    Math.abs(tc.y),
    Math.abs(tc.z),
  );
  return ext < LARGE_TRIANGLE_MAX_RATIO * cap && m < CUBE_SAFE_MAX;
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
    } else if (accuratePerpendicular(point, a.a, a.b)) {
      if (!contactFromCorePoints(out, onSegment, point, a.radius, 0, prediction, fallback)) {
        return false;
      }
      vec3.copy(out.normal, perp);
      return true;
    }
  }
  return contactFromCorePoints(out, onSegment, point, a.radius, 0, prediction, fallback);
}

/** Veltkamp's splitting constant 2^27 + 1 (Dekker's exact product). */
const SPLIT = 134217729;
/** The unit perpendicular of {@link accuratePerpendicular}. */
const perp = vec3.create();

/**
 * `perp` = the unit direction from segment ab's line to point p (all in A's frame), the part of
 * p − a perpendicular to b − a, to the relative rounding of that part itself: p − a and b − a
 * exact as double-doubles (Knuth's TwoSum), t·(b − a) exact (Dekker's TwoProduct) for the
 * double t ≈ (p − a)·(b − a)/|b − a|², so that t's rounding leaves an error along b − a alone,
 * which a second projection removes. In doubles the foot a + (b − a)·t rounds to ε of the
 * coordinates, which against a gap g turns the normal by ~ε|p|/g: a capsule of radius 1e-3 and
 * length 2 beside a point then missed the depth along its normal by 4.2e-14 over a bar of
 * 1.5e-14 (issue 16, test/fuzz/rounded-tilt.gen.ts at seed 3). Shewchuk 1997, §2 (TwoSum,
 * TwoProduct). False when the part is zero or not finite (the caller's normal stands).
 * Allocation-free; the arithmetic written out, no double crosses a call.
 */
function accuratePerpendicular(p: Vec3, a: Vec3, b: Vec3): boolean {
  // p − a and b − a: hi + lo exactly, per component.
  const px = p.x - a.x;
  const py = p.y - a.y;
  const pz = p.z - a.z;
  let bb = px - p.x;
  const pxl = p.x - (px - bb) + (-a.x - bb);
  bb = py - p.y;
  const pyl = p.y - (py - bb) + (-a.y - bb);
  bb = pz - p.z;
  const pzl = p.z - (pz - bb) + (-a.z - bb);
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  bb = ex - b.x;
  const exl = b.x - (ex - bb) + (-a.x - bb);
  bb = ey - b.y;
  const eyl = b.y - (ey - bb) + (-a.y - bb);
  bb = ez - b.z;
  const ezl = b.z - (ez - bb) + (-a.z - bb);
  const ee = ex * ex + ey * ey + ez * ez;
  if (!(ee > 0) || !Number.isFinite(ee)) return false;
  const t = (px * ex + py * ey + pz * ez) / ee;
  // v = (p − a) − t·(b − a), each component as hi − fl(t·e) by TwoSum plus the small terms.
  const cst = SPLIT * t;
  const th = cst - (cst - t);
  const tl = t - th;
  let q = t * ex;
  let c = SPLIT * ex;
  let h = c - (c - ex);
  let l = ex - h;
  let qe = th * h - q + th * l + tl * h + tl * l;
  let s = px - q;
  bb = s - px;
  let vx = s + (px - (s - bb) + (-q - bb) - qe + pxl - t * exl);
  q = t * ey;
  c = SPLIT * ey;
  h = c - (c - ey);
  l = ey - h;
  qe = th * h - q + th * l + tl * h + tl * l;
  s = py - q;
  bb = s - py;
  let vy = s + (py - (s - bb) + (-q - bb) - qe + pyl - t * eyl);
  q = t * ez;
  c = SPLIT * ez;
  h = c - (c - ez);
  l = ez - h;
  qe = th * h - q + th * l + tl * h + tl * l;
  s = pz - q;
  bb = s - pz;
  let vz = s + (pz - (s - bb) + (-q - bb) - qe + pzl - t * ezl);
  // t's rounding left v off the perpendicular along b − a only: project it out once more.
  const w = (vx * ex + vy * ey + vz * ez) / ee;
  vx -= w * ex;
  vy -= w * ey;
  vz -= w * ez;
  const n2 = vx * vx + vy * vy + vz * vz;
  if (!(n2 > HYPOT_SAFE_MIN && n2 < HYPOT_SAFE_MAX)) return false;
  const inv = 1 / Math.sqrt(n2);
  perp.x = vx * inv;
  perp.y = vy * inv;
  perp.z = vz * inv;
  return true;
}

/**
 * Contact of capsule `a` and triangle `b` (B at `bInA`, A's frame) within `prediction` (≥ 0,
 * scene units): a point triangle's closed form, else the segment's exact features (a needle's
 * only when its segment stays clear of it; {@link exactFeatures}), else GJK/EPA's. Normal from A
 * toward B.
 */
export function contactCapsuleTriangle(
  out: Contact,
  a: Capsule,
  b: Triangle,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (isPointTriangle(b)) return contactCapsulePoint(out, a, b, bInA, prediction);
  // The prediction in a register: a double passed to a call V8 does not inline is boxed.
  capsulePredictionIo[0] = prediction;
  const needle = needleContact(out, a, b, bInA);
  if (needle >= 0) return needle === 1;
  if (exactFeatures(a, b) && !isNeedle(b)) return contactCapsulePolytopeIo(out, a, b, bInA);
  return contactConvexConvex(out, a, b, bInA, prediction);
}

/** Whether capsule `a` and triangle `b` (B at `bInA`) touch or overlap (see {@link contactCapsuleTriangle}). */
export function intersectsCapsuleTriangle(a: Capsule, b: Triangle, bInA: Isometry): boolean {
  if (isPointTriangle(b)) return contactCapsulePoint(scratch, a, b, bInA, 0);
  capsulePredictionIo[0] = 0;
  const needle = needleContact(scratch, a, b, bInA);
  if (needle >= 0) return needle === 1;
  if (exactFeatures(a, b) && !isNeedle(b)) return contactCapsulePolytope(scratch, a, b, bInA, 0);
  return intersectsConvexConvex(a, b, bInA);
}

/** Distance (≥ 0, scene units) and closest points of capsule `a` and triangle `b` (A's frame). */
export function distanceCapsuleTriangle(
  out: DistanceResult,
  a: Capsule,
  b: Triangle,
  bInA: Isometry,
): DistanceResult {
  if (isPointTriangle(b)) {
    contactCapsulePoint(scratch, a, b, bInA, Number.POSITIVE_INFINITY);
  } else if (exactFeatures(a, b) && !isNeedle(b)) {
    if (!contactCapsulePolytope(scratch, a, b, bInA, Number.POSITIVE_INFINITY)) {
      return distanceConvexConvex(out, a, b, bInA);
    }
  } else {
    capsulePredictionIo[0] = Number.POSITIVE_INFINITY;
    if (needleContact(scratch, a, b, bInA) !== 1) return distanceConvexConvex(out, a, b, bInA);
  }
  out.distance = Math.max(0, scratch.distance);
  vec3.copy(out.pointA, scratch.pointA);
  vec3.copy(out.pointB, scratch.pointB);
  return out;
}
