/**
 * Exact closest points on the solids of revolution: the cylinder and the cone (axis local +Y).
 *
 * A solid of revolution is its profile, a convex polygon in the meridian half-plane (ρ, y) with
 * ρ = √(x² + z²) ≥ 0, swept about the axis: the rectangle [0, r] × [−h, h] for the cylinder, the
 * triangle (0, h), (r, −h), (0, −h) for the cone. The point of the solid's boundary nearest to a
 * point q lies in q's own meridian half-plane (rotating a boundary point about the axis towards
 * q's azimuth only brings it closer), so the 3D problem is the 2D closest point of (ρ_q, y_q) on
 * the profile, mapped back along q's azimuth (Ericson 2005, §5.1 for the closest-point
 * reductions; the cylinder's case is the one of `projectPoint`). The answer is exact up to the
 * rounding of a few operations: no iteration, no tolerance.
 *
 * The signed distance to a convex solid is a convex function of the point, so along a segment
 * it is a convex function of the segment parameter: {@link closestSegmentRevolution} finds its
 * minimum by bisection on the sign of its derivative (b − a)·m, m the boundary's outward normal
 * (the segment–cylinder and segment–cone closest points have no closed form for crossing axes
 * in general: a quartic), bounded by {@link SEGMENT_SEARCH_ITERATIONS}.
 *
 * Every routine works in the solid's local frame and allocates nothing.
 */
import { hypotIo, mathHypot2Io } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";

/** The profile kinds: 0 the cylinder's rectangle, 1 the cone's triangle. */
export const RevolutionKind = { Cylinder: 0, Cone: 1 } as const;
/** One of the {@link RevolutionKind} values. */
export type RevolutionKind = (typeof RevolutionKind)[keyof typeof RevolutionKind];

/** The closest boundary point of a solid of revolution to a query point (its local frame). */
export interface RevolutionProjection {
  /** The boundary point nearest to the query point, local frame. */
  point: Vec3;
  /** Outward unit normal of the boundary at `point` (from `point` toward an outside query). */
  normal: Vec3;
  /** Signed distance of the query point: positive outside, negative inside, scene units. */
  distance: number;
}

/** A new zeroed projection record (allocates). */
export function makeRevolutionProjection(): RevolutionProjection {
  return { point: vec3.create(), normal: vec3.create(0, 1, 0), distance: 0 };
}

/*
 * No double crosses a call here unless the call is certain to be inlined: V8 boxes (allocates) a
 * double passed to or returned by a call it does not inline, or stored in a module-level `let`
 * (a context slot), and these run for every snap of a witness onto a solid of revolution. So the
 * profile routines take their inputs from and write their answer to `prof`.
 */

/**
 * The 2D answer of the profile routines: [0] pr, [1] py the point (ρ, y), [2] nr, [3] ny the
 * outward normal, [4] sd the signed distance; their inputs: [5] ρ, [6] y of the query, [7] h,
 * [8] r of the solid.
 */
const prof = new Float64Array(9);

/**
 * The cylinder's profile [0, r] × [−h, h] against (ρ, y), ρ ≥ 0 (from prof[5..8]). Inside, the
 * nearer of the side and the nearer cap (the cap on a tie, so a point on the rim edge gets the
 * cap's normal).
 */
function cylinderProfile(): void {
  const rho = prof[5];
  const y = prof[6];
  const h = prof[7];
  const r = prof[8];
  const ay = Math.abs(y);
  if (rho > r || ay > h) {
    const pr = Math.min(rho, r);
    const py = Math.min(Math.max(y, -h), h);
    const dr = rho - pr;
    const dy = y - py;
    hypotIo[0] = dr;
    hypotIo[1] = dy;
    mathHypot2Io();
    const sd = hypotIo[0];
    prof[0] = pr;
    prof[1] = py;
    prof[2] = dr / sd;
    prof[3] = dy / sd;
    prof[4] = sd;
    return;
  }
  const side = r - rho;
  const cap = h - ay;
  if (cap <= side) {
    prof[0] = rho;
    prof[1] = y < 0 ? -h : h;
    prof[2] = 0;
    prof[3] = y < 0 ? -1 : 1;
    prof[4] = -cap;
  } else {
    prof[0] = r;
    prof[1] = y;
    prof[2] = 1;
    prof[3] = 0;
    prof[4] = -side;
  }
}

/**
 * The cone's profile, the triangle apex (0, h), rim (r, −h), base centre (0, −h), against
 * (ρ, y), ρ ≥ 0. The slant's outward normal is (2h, r)/√(4h² + r²). Outside, the nearer of the
 * closest points on the slant and on the base segments; inside, the nearer of the two feet of
 * the perpendiculars (both inside their edges: the half-profile's angles at the apex and the rim
 * are acute). Inputs and answer in `prof`, as {@link cylinderProfile}'s.
 */
function coneProfile(): void {
  const rho = prof[5];
  const y = prof[6];
  const h = prof[7];
  const r = prof[8];
  hypotIo[0] = 2 * h;
  hypotIo[1] = r;
  mathHypot2Io();
  const len = hypotIo[0];
  const mr = (2 * h) / len;
  const my = r / len;
  // Signed distances to the slant line (through the apex) and to the base plane.
  const slant = rho * mr + (y - h) * my;
  const base = -h - y;
  if (slant > 0 || base > 0) {
    // Closest point on the slant segment apex → rim, parameter t ∈ [0, 1].
    const er = r;
    const ey = -2 * h;
    const tu = (rho * er + (y - h) * ey) / (er * er + ey * ey);
    const t = Math.min(Math.max(tu, 0), 1);
    let qr = t === 1 ? r : t * er;
    let qy = t === 1 ? -h : h + t * ey;
    let dr = rho - qr;
    let dy = y - qy;
    let d2 = dr * dr + dy * dy;
    // Closest point on the base segment (0, −h) → (r, −h).
    const br = Math.min(rho, r);
    const bdr = rho - br;
    const bdy = y + h;
    const b2 = bdr * bdr + bdy * bdy;
    // The region by its sign tests, as Voronoi regions of the profile's edges: outside the slant
    // line within its span is the slant's, below the base within ρ ≤ r the base's. Comparing the
    // squared distances there decides by their rounding (ε·d² against a difference that can be
    // ε·d² as well) and can give the rim for a point of the slant's region: a normal from the
    // points tilted by up to √ε past the slant's, whose overlap then exceeds the depth by the
    // slant's length times that tilt (a sphere of 32 on a cone of 0.8, 2.2e-10; issue 16). Only
    // where both or neither region holds (at the rim, within rounding) the distances decide.
    const inSlant = slant > 0 && tu > 0 && tu < 1;
    const inBase = base > 0 && rho <= r;
    const onBase = inSlant !== inBase ? inBase : b2 < d2;
    if (onBase) {
      qr = br;
      qy = -h;
      dr = bdr;
      dy = bdy;
      d2 = b2;
    }
    // The rim as the nearest point (the slant's end, or the base's): (dr, dy) is the query's
    // offset from it, exact to the rounding of ρ, so the rim is nearest only if that offset lies
    // in the rim's cone of normals, between the base's (0, −1) and the slant's; tu carries the
    // rounding of ρ·r against 4h² and can reach 1 for a point of the slant's region within ulps
    // of the rim (a sphere's centre 1.4e-17 above the base at the rim's radius took the normal
    // (0, 1), not the cone's at all, and its overlap along it was the height more; issue 16).
    const rim = onBase ? br === r : t === 1;
    if (rim && slant > 0 && 2 * h * dy - r * dr > 0) {
      prof[0] = Math.max(0, rho - slant * mr);
      prof[1] = y - slant * my;
      prof[2] = mr;
      prof[3] = my;
      prof[4] = slant;
      return;
    }
    if (!onBase && t > 0 && t < 1) {
      // Inside the slant's span: the line's own normal and signed distance, exact to the
      // rounding of the query's coordinates (the difference of two large points is not).
      prof[0] = Math.max(0, rho - slant * mr);
      prof[1] = y - slant * my;
      prof[2] = mr;
      prof[3] = my;
      prof[4] = slant;
      return;
    }
    prof[0] = qr;
    prof[1] = qy;
    const sd = Math.sqrt(d2);
    prof[4] = sd;
    if (sd > 0) {
      prof[2] = dr / sd;
      prof[3] = dy / sd;
    } else if (slant >= base) {
      prof[2] = mr;
      prof[3] = my;
    } else {
      prof[2] = 0;
      prof[3] = -1;
    }
    return;
  }
  if (-base <= -slant) {
    prof[0] = rho;
    prof[1] = -h;
    prof[2] = 0;
    prof[3] = -1;
    prof[4] = base;
  } else {
    prof[0] = Math.max(0, rho - slant * mr);
    prof[1] = y - slant * my;
    prof[2] = mr;
    prof[3] = my;
    prof[4] = slant;
  }
}

/**
 * Writes to `out` the boundary point of the solid (`kind`, half height `h`, radius `r`, local
 * frame) nearest to `q`, the boundary's outward normal there and the signed distance of `q`
 * (negative inside). A query on the axis takes the +x azimuth for a side point. Returns `out`.
 */
export function projectRevolution(
  out: RevolutionProjection,
  kind: RevolutionKind,
  h: number,
  r: number,
  q: Vec3,
): RevolutionProjection {
  prof[7] = h;
  prof[8] = r;
  return projectRevolutionIo(out, kind, q);
}

/**
 * {@link projectRevolution} with the solid's half height and radius read from
 * revolutionDims[0], [1] (no double crosses the call). Returns `out`.
 */
export function projectRevolutionDims(
  out: RevolutionProjection,
  kind: RevolutionKind,
  q: Vec3,
): RevolutionProjection {
  prof[7] = revolutionDims[0];
  prof[8] = revolutionDims[1];
  return projectRevolutionIo(out, kind, q);
}

/** [0] the half height and [1] the radius for {@link projectRevolutionDims}. */
export const revolutionDims = new Float64Array(2);

/** {@link projectRevolution} with h and r already in prof[7], prof[8]. */
function projectRevolutionIo(
  out: RevolutionProjection,
  kind: RevolutionKind,
  q: Vec3,
): RevolutionProjection {
  hypotIo[0] = q.x;
  hypotIo[1] = q.z;
  mathHypot2Io();
  const rho = hypotIo[0];
  prof[5] = rho;
  prof[6] = q.y;
  if (kind === RevolutionKind.Cylinder) cylinderProfile();
  else coneProfile();
  const pr = prof[0];
  const py = prof[1];
  const nr = prof[2];
  out.distance = prof[4];
  const ux = rho > 0 ? q.x / rho : 1;
  const uz = rho > 0 ? q.z / rho : 0;
  // The query's own coordinates (stored directly, not through vec3.set: see the note above)
  // when the profile point keeps its ρ (exactly on its azimuth).
  const p = out.point;
  if (pr === rho) {
    p.x = q.x;
    p.y = py;
    p.z = q.z;
  } else {
    p.x = pr * ux;
    p.y = py;
    p.z = pr * uz;
  }
  const m = out.normal;
  m.x = nr * ux;
  m.y = prof[3];
  m.z = nr * uz;
  return out;
}

/**
 * Bisection steps on the sign of the signed distance's derivative along a segment: 2⁻⁸⁰ of the
 * segment's parameter range, below the rounding of any parameter away from 0. Count.
 */
export const SEGMENT_SEARCH_ITERATIONS = 80;

/** The outcome of {@link closestSegmentRevolution}. */
export interface SegmentRevolutionResult {
  /** The segment's parameter t ∈ [0, 1] of its point nearest the solid (deepest when inside). */
  t: number;
  /** The segment's point at `t`, local frame. */
  segmentPoint: Vec3;
  /** Its projection onto the solid's boundary (point, outward normal, signed distance). */
  projection: RevolutionProjection;
}

/** A new zeroed segment result (allocates). */
export function makeSegmentRevolutionResult(): SegmentRevolutionResult {
  return { t: 0, segmentPoint: vec3.create(), projection: makeRevolutionProjection() };
}

const segPoint = vec3.create();
const scratch = makeRevolutionProjection();

/**
 * [0] the parameter t of the next {@link signedAt} or {@link keep}; the solid's h and r are in
 * prof[7], prof[8] for the whole segment search (set by {@link closestSegmentRevolution}).
 */
const segIo = new Float64Array(1);

/**
 * out = a, this module's own copy: inlined from vec3.copy, a store took that shared helper's
 * megamorphic property feedback, a generic store that boxed each double (issue 15).
 */
function revCopy(out: Vec3, a: Vec3): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

/**
 * Signed distance of a + t·(b − a) to the solid, t = segIo[0] (point in segPoint, projection in
 * scratch, the distance in scratch.distance).
 */
function signedAt(kind: RevolutionKind, a: Vec3, b: Vec3): void {
  const t = segIo[0];
  if (t === 0) revCopy(segPoint, a);
  else if (t === 1) revCopy(segPoint, b);
  else {
    segPoint.x = a.x + t * (b.x - a.x);
    segPoint.y = a.y + t * (b.y - a.y);
    segPoint.z = a.z + t * (b.z - a.z);
  }
  projectRevolutionIo(scratch, kind, segPoint);
}

/** Copies the last evaluation (segPoint, scratch) into `out` at parameter t = segIo[0]. */
function keep(out: SegmentRevolutionResult): void {
  out.t = segIo[0];
  revCopy(out.segmentPoint, segPoint);
  const p = out.projection;
  revCopy(p.point, scratch.point);
  revCopy(p.normal, scratch.normal);
  p.distance = scratch.distance;
}

/**
 * The point of segment a–b (solid's local frame) of least signed distance to the solid, and its
 * projection. The signed distance of a convex solid is convex, with the boundary's outward
 * normal m as its (sub)gradient, so along the segment its derivative (b − a)·m(t) is
 * non-decreasing: an end point whose derivative points outward is the minimum (found exactly),
 * otherwise the root of the derivative is bracketed and bisected on its sign
 * ({@link SEGMENT_SEARCH_ITERATIONS} steps) — the sign of a normal's dot product stays reliable
 * where the distance itself is too flat to compare, so the parameter converges to the rounding
 * and the normal there is orthogonal to the segment to the rounding. A segment whose ends are
 * both within {@link SEGMENT_TIE_ULPS} rounding units of the minimum is level over its whole
 * length (convexity): any of its points is nearest, and the search's pick followed the rounding
 * of the frame change, which differs between the argument orders of a pair (a capsule lying on a
 * cylinder's cap took one end in one order and the other end in the other); it answers with
 * the segment's midpoint, as the parallel cylinders take the middle of their common part.
 * Returns `out`.
 */
export function closestSegmentRevolution(
  out: SegmentRevolutionResult,
  kind: RevolutionKind,
  h: number,
  r: number,
  a: Vec3,
  b: Vec3,
): SegmentRevolutionResult {
  prof[7] = h;
  prof[8] = r;
  return closestSegmentOfProfile(out, kind, a, b);
}

/**
 * {@link closestSegmentRevolution} of the solid `s` (its half height and radius read here: a
 * double passed to a call V8 does not inline is boxed, allocated; issue 15). Returns `out`.
 */
export function closestSegmentRevolutionOf(
  out: SegmentRevolutionResult,
  kind: RevolutionKind,
  s: { readonly halfHeight: number; readonly radius: number },
  a: Vec3,
  b: Vec3,
): SegmentRevolutionResult {
  prof[7] = s.halfHeight;
  prof[8] = s.radius;
  return closestSegmentOfProfile(out, kind, a, b);
}

/** {@link closestSegmentRevolution} with h, r in prof[7], prof[8]. */
function closestSegmentOfProfile(
  out: SegmentRevolutionResult,
  kind: RevolutionKind,
  a: Vec3,
  b: Vec3,
): SegmentRevolutionResult {
  const h = prof[7];
  const r = prof[8];
  searchSegment(out, kind, a, b);
  segIo[0] = 0;
  signedAt(kind, a, b);
  const f0 = scratch.distance;
  segIo[0] = 1;
  signedAt(kind, a, b);
  const f1 = scratch.distance;
  const m = Math.max(
    Math.abs(a.x),
    Math.abs(a.y),
    Math.abs(a.z),
    Math.abs(b.x),
    Math.abs(b.y),
    Math.abs(b.z),
  );
  const tol = SEGMENT_TIE_ULPS * Number.EPSILON * (m + h + r);
  const f = out.projection.distance;
  if (f0 - f <= tol && f1 - f <= tol) {
    segIo[0] = 0.5;
    signedAt(kind, a, b);
    keep(out);
  }
  return out;
}

/**
 * Rounding units (of the segment's coordinates plus the solid's size) within which the signed
 * distances at a segment's two ends count as level with its minimum (see
 * {@link closestSegmentRevolution}); the projection rounds a few operations on each coordinate.
 */
export const SEGMENT_TIE_ULPS = 16;

/** The search of {@link closestSegmentRevolution} without its tie rule (h, r in prof[7], prof[8]). */
function searchSegment(
  out: SegmentRevolutionResult,
  kind: RevolutionKind,
  a: Vec3,
  b: Vec3,
): SegmentRevolutionResult {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  segIo[0] = 0;
  signedAt(kind, a, b);
  keep(out);
  let n = scratch.normal;
  if (ex * n.x + ey * n.y + ez * n.z >= 0) return out;
  segIo[0] = 1;
  signedAt(kind, a, b);
  n = scratch.normal;
  if (ex * n.x + ey * n.y + ez * n.z <= 0) {
    if (scratch.distance <= out.projection.distance) keep(out);
    return out;
  }
  let lo = 0;
  let hi = 1;
  for (let it = 0; it < SEGMENT_SEARCH_ITERATIONS; it++) {
    const mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    segIo[0] = mid;
    signedAt(kind, a, b);
    n = scratch.normal;
    if (ex * n.x + ey * n.y + ez * n.z > 0) hi = mid;
    else lo = mid;
  }
  // The better of the bracket's ends (the end point 0 was kept above).
  segIo[0] = lo;
  signedAt(kind, a, b);
  if (scratch.distance <= out.projection.distance) keep(out);
  segIo[0] = hi;
  signedAt(kind, a, b);
  if (scratch.distance < out.projection.distance) keep(out);
  return out;
}
