/**
 * Rounded cores (a sphere's centre, a capsule's segment) against a solid of revolution (cylinder,
 * cone): the closed forms behind sphere-cylinder.ts, sphere-cone.ts, capsule-cylinder.ts and
 * capsule-cone.ts (issue 16, must-have 1: exact where a closed form exists, instead of EPA's
 * tolerance).
 *
 * The core's point nearest the solid (its deepest when inside) and that point's projection onto
 * the solid's boundary (src/geometry/revolution.ts) give the signed distance s of the core; the
 * rounded shape of radius ρ is then at signed distance s − ρ, along the boundary's outward normal
 * m (normal from the rounded shape toward the solid: −m), with the witness on the solid the
 * boundary point and the witness on the rounded shape ρ ahead of the core point along −m. For a
 * sphere this is the whole answer, overlapping or not (a ball's penetration depth against a
 * convex solid is ρ plus its centre's depth). For a capsule it is the whole answer while the
 * segment stays outside the solid (s ≥ 0: the distance of two disjoint convex sets is their
 * separation, so the capsule's depth is ρ − s); a segment that enters a cylinder in a plane
 * through its axis has a closed form as well (`coplanarCylinder`), and any other segment that
 * enters or touches the solid (to CORE_TOUCH_BAND) is answered by GJK/EPA with the normal
 * refined (convex-convex.ts), whose depth is then the segment's own penetration plus ρ.
 *
 * Touching is decided on the computed signed distance, which is exact for exactly touching
 * inputs whose contact point is representable (the capsule resting on a cylinder's cap).
 * Every routine works in A's frame (the rounded shape's) with the solid at `bInA`; no allocation.
 */

import { TOUCH_TOLERANCE } from "../constants.js";
import {
  closestSegmentRevolutionOf,
  makeRevolutionProjection,
  makeSegmentRevolutionResult,
  projectRevolution,
  RevolutionKind,
} from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import { hypotIo, mathHypot2, mathHypot2Io, mathHypot3Io } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { Contact } from "./contact.js";
import { contactConvexConvex } from "./convex-convex.js";

// This file's own vector and pose helpers (the vec3 and isometry helpers' arithmetic, bitwise):
// inlined from the shared helpers, a store took their megamorphic property feedback (every
// vector shape of the library meets them), a generic store that boxed each double (issue 15).
function rrSet(out: Vec3, x: number, y: number, z: number): void {
  out.x = x;
  out.y = y;
  out.z = z;
}

function rrCopy(out: Vec3, a: Vec3): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

function rrNegate(out: Vec3, a: Vec3): void {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
}

function rrScale(out: Vec3, a: Vec3, s: number): void {
  out.x = a.x * s;
  out.y = a.y * s;
  out.z = a.z * s;
}

function rrAddScaled(out: Vec3, a: Vec3, b: Vec3, s: number): void {
  out.x = a.x + b.x * s;
  out.y = a.y + b.y * s;
  out.z = a.z + b.z * s;
}

/** out = bInA's rotation applied to v (out may be v). */
function rrTransformVector(out: Vec3, bInA: Isometry, v: Vec3): void {
  const q = bInA.rotation;
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  const x = v.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = v.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = v.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
}

/** out = bInA applied to point p (out may be p). */
function rrTransformPoint(out: Vec3, bInA: Isometry, p: Vec3): void {
  const q = bInA.rotation;
  const tr = bInA.translation;
  const tx = 2 * (q.y * p.z - q.z * p.y);
  const ty = 2 * (q.z * p.x - q.x * p.z);
  const tz = 2 * (q.x * p.y - q.y * p.x);
  const x = p.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = p.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = p.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x + tr.x;
  out.y = y + tr.y;
  out.z = z + tr.z;
}

/** out = the inverse of bInA applied to point p (out may be p). */
function rrInverseTransformPoint(out: Vec3, bInA: Isometry, p: Vec3): void {
  const q = bInA.rotation;
  const tr = bInA.translation;
  const vx = p.x - tr.x;
  const vy = p.y - tr.y;
  const vz = p.z - tr.z;
  const tx = 2 * (-q.y * vz + q.z * vy);
  const ty = 2 * (-q.z * vx + q.x * vz);
  const tz = 2 * (-q.x * vy + q.y * vx);
  const x = vx + q.w * tx + (-q.y * tz + q.z * ty);
  const y = vy + q.w * ty + (-q.z * tx + q.x * tz);
  const z = vz + q.w * tz + (-q.x * ty + q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
}

const origin = vec3.create();
const centreInB = vec3.create();
const segA = vec3.create();
const segB = vec3.create();
const proj = makeRevolutionProjection();
const seg = makeSegmentRevolutionResult();
const normalB = vec3.create();
const nearest = vec3.create();

/**
 * [0] the rounded radius, [1] B's bounding radius `size`, [2] {@link touching}'s distance in and
 * out, [3] {@link segmentScale}'s answer: no double crosses these calls, since V8 boxes
 * (allocates) a double passed to or returned by a call it does not inline (issue 15).
 */
const rrIo = new Float64Array(4);

/**
 * Fills `out` (A's frame) from the core point `coreInB` and its projection `p` (B's frame), the
 * rounded radius rrIo[0] (size rrIo[1]): distance s − radius, normal −m, pointB the boundary
 * point, pointA the core point plus radius along the normal. False when the distance exceeds
 * `prediction`.
 */
function fill(
  out: Contact,
  bInA: Isometry,
  coreInB: typeof centreInB,
  p: typeof proj,
  prediction: number,
): boolean {
  const radius = rrIo[0];
  rrIo[2] = p.distance - radius;
  touching(coreInB);
  const d = rrIo[2];
  if (!(d <= prediction)) return false;
  out.distance = d;
  rrNegate(normalB, p.normal);
  rrTransformVector(out.normal, bInA, normalB);
  rrTransformPoint(out.pointB, bInA, p.point);
  rrTransformPoint(nearest, bInA, coreInB);
  rrAddScaled(out.pointA, nearest, out.normal, radius);
  return true;
}

/**
 * A gap rrIo[2] at the rounding level of the pair's size is touching (0, written back), as GJK's
 * gaps are in convex-convex.ts (`TOUCH_TOLERANCE`, issue 16 class 1): the core point's
 * coordinates in B's frame carry the rounding of the change of frame. The radius is rrIo[0], B's
 * bounding radius rrIo[1].
 */
function touching(coreInB: typeof centreInB): void {
  const d = rrIo[2];
  if (!(d > 0)) return;
  hypotIo[0] = coreInB.x;
  hypotIo[1] = coreInB.y;
  hypotIo[2] = coreInB.z;
  mathHypot3Io();
  const scale = Math.max(hypotIo[0], rrIo[1]) + rrIo[0];
  rrIo[2] = d <= TOUCH_TOLERANCE * scale ? 0 : d;
}

/**
 * Contact of a sphere of `radius` centred at A's origin with the solid of revolution (`kind`,
 * half height `h`, radius `r`) at `bInA`; false when the gap exceeds `prediction`.
 */
export function contactBallRevolution(
  out: Contact,
  radius: number,
  kind: RevolutionKind,
  h: number,
  r: number,
  bInA: Isometry,
  prediction: number,
): boolean {
  rrInverseTransformPoint(centreInB, bInA, origin);
  projectRevolution(proj, kind, h, r, centreInB);
  rrIo[0] = radius;
  rrIo[1] = mathHypot2(h, r);
  return fill(out, bInA, centreInB, proj, prediction);
}

/** True when the sphere of `radius` at A's origin and the solid at `bInA` overlap or touch. */
export function intersectsBallRevolution(
  radius: number,
  kind: RevolutionKind,
  h: number,
  r: number,
  bInA: Isometry,
): boolean {
  rrInverseTransformPoint(centreInB, bInA, origin);
  const s = projectRevolution(proj, kind, h, r, centreInB).distance;
  rrIo[0] = radius;
  rrIo[1] = mathHypot2(h, r);
  rrIo[2] = s - radius;
  touching(centreInB);
  return rrIo[2] <= 0;
}

/**
 * The capsule's segment against the solid, in B's frame (seg): false when the segment's nearest
 * point is farther than `prediction` + the capsule's radius from the solid by a cheap bound (the
 * segment's distance to the solid's bounding sphere about its centre). rrIo[1] = B's bounding
 * radius √(h² + r²).
 */
function segmentAgainst(
  a: Capsule,
  b: Revolution,
  kind: RevolutionKind,
  bInA: Isometry,
  prediction: number,
): boolean {
  const h = b.halfHeight;
  const r = b.radius;
  const limit = prediction + a.radius;
  rrInverseTransformPoint(segA, bInA, a.a);
  rrInverseTransformPoint(segB, bInA, a.b);
  // Bounding-sphere reject: the segment's distance to B's centre against √(h² + r²).
  const ex = segB.x - segA.x;
  const ey = segB.y - segA.y;
  const ez = segB.z - segA.z;
  const l2 = ex * ex + ey * ey + ez * ez;
  let t = l2 > 0 ? -(segA.x * ex + segA.y * ey + segA.z * ez) / l2 : 0;
  t = Math.min(Math.max(t, 0), 1);
  hypotIo[0] = segA.x + t * ex;
  hypotIo[1] = segA.y + t * ey;
  hypotIo[2] = segA.z + t * ez;
  mathHypot3Io();
  const cd = hypotIo[0];
  hypotIo[0] = h;
  hypotIo[1] = r;
  mathHypot2Io();
  rrIo[1] = hypotIo[0];
  if (cd - rrIo[1] > limit) return false;
  closestSegmentRevolutionOf(seg, kind, b, segA, segB);
  return true;
}

/** A convex solid of revolution: the pair routines' B. */
type Revolution = Cylinder | Cone;

/**
 * Contact of capsule A and the solid of revolution B (`kind` of `b`) at `bInA`; false when the
 * gap exceeds `prediction`. A segment that enters the solid goes to GJK/EPA (see the module).
 */
export function contactCapsuleRevolution(
  out: Contact,
  a: Capsule,
  b: Revolution,
  kind: RevolutionKind,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!segmentAgainst(a, b, kind, bInA, prediction)) return false;
  // A segment of zero length is a point: its depth is exact whatever it is.
  const point = a.a.x === a.b.x && a.a.y === a.b.y && a.a.z === a.b.z;
  const s = seg.projection.distance;
  if (s < 0 && !point) {
    if (kind === RevolutionKind.Cylinder && coplanarCylinder(out, a.radius, b as Cylinder, bInA)) {
      return true;
    }
    return contactConvexConvex(out, a, b, bInA, prediction);
  }
  segmentScale();
  if (!point && s < a.radius && s <= CORE_TOUCH_BAND * rrIo[3]) {
    // The segment touches the solid, to rounding: its nearest point's normal is undefined or
    // noise (see CORE_TOUCH_BAND), the least overlap the full solve's (or the coplanar closed
    // form's). Its answer stands unless it contradicts the closed form's overlap (a gap).
    if (kind === RevolutionKind.Cylinder && coplanarCylinder(out, a.radius, b as Cylinder, bInA)) {
      return true;
    }
    if (contactConvexConvex(out, a, b, bInA, prediction) && out.distance <= 0) return true;
  }
  if (!point) flatAlongSegment(seg.projection.normal, b, kind);
  rrIo[0] = a.radius;
  return fill(out, bInA, seg.segmentPoint, seg.projection, prediction);
}

/**
 * Violation, as a cosine, at or below which a segment's end counts as leaving the solid along
 * the normal (see {@link flatAlongSegment}): the normal and the segment's direction are known to
 * a few ε. Unitless.
 */
const END_CONE_TOLERANCE = 16 * Number.EPSILON;

/**
 * Rounding units of the pair's magnitude by which the separation along the segment-flattened
 * normal must beat the projection's (see {@link flatAlongSegment}); the separations are
 * computed to a few ε of the coordinates. Unitless.
 */
const FLAT_MARGIN = 16 * Number.EPSILON;

const flat = vec3.create();

/**
 * The normal of a capsule's segment against the solid: the solid's outward normal `m` at the
 * boundary point nearest the segment (segA–segB, B's frame, parameter seg.t of the segment's
 * nearest point), or that normal taken into the segment's normal cone there — perpendicular to
 * the segment when the point is inside it, with the segment leaving the end along +m when it is
 * an end — whichever separates the segment from the solid by more (their supports, in closed
 * form); `m` is overwritten with it. The exact normal is in both cones; the computed one is the
 * direction between two points a small gap apart, tilted by their coordinates' rounding over
 * the gap, and a flat feature pays for a tilt at first order: the segment its length times the
 * tilt off its own cone (a capsule of 2e-8 over a cylinder's rim of 3e-3, the segment 1.6e-8
 * from it: 3.5e-14 over a depth of 5e-9, issue 16), a cap its radius times the tilt off its
 * normal (a segment level under a cap, whose direction is itself known only to the rounding
 * of its ends over its length, 1e-11 for a segment of 2.5e-5). The curved rim pays only the
 * square of a tilt. B's bounding radius is rrIo[1].
 */
function flatAlongSegment(m: typeof normalB, b: Revolution, kind: RevolutionKind): void {
  const t = seg.t;
  const ex = segB.x - segA.x;
  const ey = segB.y - segA.y;
  const ez = segB.z - segA.z;
  const l2 = ex * ex + ey * ey + ez * ez;
  if (!(l2 > 0)) return;
  let k = (m.x * ex + m.y * ey + m.z * ez) / l2;
  if (t === 0 || t === 1) {
    // The direction into the segment from its end: +e at a, −e at b; m·w ≥ 0 holds exactly.
    const w = (t === 0 ? k : -k) * Math.sqrt(l2);
    if (w >= -END_CONE_TOLERANCE) return;
  }
  segmentScale();
  const margin = FLAT_MARGIN * rrIo[3];
  separation(m, b, kind);
  let best = sepIo[0] + margin;
  rrCopy(keep, m);
  // In 3D: m less its part along the segment.
  flat.x = m.x - k * ex;
  flat.y = m.y - k * ey;
  flat.z = m.z - k * ez;
  hypotIo[0] = flat.x;
  hypotIo[1] = flat.y;
  hypotIo[2] = flat.z;
  mathHypot3Io();
  k = hypotIo[0];
  if (k > 0) {
    rrScale(flat, flat, 1 / k);
    separation(flat, b, kind);
    const f = sepIo[0];
    if (f > best) {
      best = f;
      rrCopy(keep, flat);
    }
  }
  // In m's meridian plane (the rim's normals, a wedge of it): the direction of that plane
  // perpendicular to the segment, on m's side — no part along the rim's tangent.
  hypotIo[0] = m.x;
  hypotIo[1] = m.z;
  mathHypot2Io();
  const rho = hypotIo[0];
  if (rho > 0) {
    const ux = m.x / rho;
    const uz = m.z / rho;
    const eu = ex * ux + ez * uz;
    // (ey, −eu) in (û, ŷ) is perpendicular to (eu, ey); oriented along m.
    let fu = ey;
    let fy = -eu;
    if (fu * rho + fy * m.y < 0) {
      fu = -fu;
      fy = -fy;
    }
    hypotIo[0] = fu;
    hypotIo[1] = fy;
    mathHypot2Io();
    k = hypotIo[0];
    if (k > 0) {
      flat.x = (fu / k) * ux;
      flat.y = fy / k;
      flat.z = (fu / k) * uz;
      separation(flat, b, kind);
      if (sepIo[0] > best) rrCopy(keep, flat);
    }
  }
  rrCopy(m, keep);
}

const keep = vec3.create();

/**
 * The separation of the segment segA–segB from the solid (`b` of `kind`: h, r; B's frame) along unit
 * `n` pointing from the solid toward the segment: the segment's least n·x less the solid's
 * support h_B(n) (cylinder h|n_y| + r·√(n_x² + n_z²); cone the larger of its apex's h·n_y and
 * its rim's −h·n_y + r·√(n_x² + n_z²)), written to sepIo[0] (a returned double is boxed where
 * not inlined).
 */
function separation(n: typeof normalB, b: Revolution, kind: RevolutionKind): void {
  const h = b.halfHeight;
  const r = b.radius;
  const lo = Math.min(
    n.x * segA.x + n.y * segA.y + n.z * segA.z,
    n.x * segB.x + n.y * segB.y + n.z * segB.z,
  );
  hypotIo[0] = n.x;
  hypotIo[1] = n.z;
  mathHypot2Io();
  const side = r * hypotIo[0];
  const support =
    kind === RevolutionKind.Cylinder ? h * Math.abs(n.y) + side : Math.max(h * n.y, side - h * n.y);
  sepIo[0] = lo - support;
}

/** [0] the last {@link separation}. */
const sepIo = new Float64Array(1);

/**
 * Core distance, relative to the pair's magnitude ({@link segmentScale}), at or below which a
 * capsule's segment counts as touching the solid for its normal (issue 16, class 3 against
 * curved shapes). At an exact touch the nearest point's normal is undefined (a segment through
 * a rim point took the cap's normal, along which the overlap is the segment's length more), and
 * just outside it is the direction between two points whose offset is at the rounding of their
 * coordinates, so it can be any direction of the rim's normal cone while the least overlap is
 * along the one perpendicular to the segment: a segment 1e-8 of the size outside a rim had its
 * overlap along the normal 1e-7 of the size over the depth, against a bar of 1e-6 of the depth.
 * Outside it, {@link flatAlongSegment} takes the normal perpendicular to the segment in the
 * rim's normal cone where that separates more, so the band is only the rounding of the gap
 * itself (it was 2⁻²⁰, and the general solve's normal inside it missed the depth of a capsule
 * of 3e-6 near a cap's rim by 7.9e-12, the bar 2.7e-12). Unitless: 2⁻⁴⁴ (16 ulps of the
 * pair's magnitude times 2⁸).
 */
const CORE_TOUCH_BAND = 2 ** -44;

/**
 * rrIo[3] = the magnitude of a capsule–solid pair in B's frame (after {@link segmentAgainst}):
 * the largest of the solid's bounding radius rrIo[1] and the segment's ends' coordinates.
 */
function segmentScale(): void {
  rrIo[3] = Math.max(
    rrIo[1],
    Math.abs(segA.x),
    Math.abs(segA.y),
    Math.abs(segA.z),
    Math.abs(segB.x),
    Math.abs(segB.y),
    Math.abs(segB.z),
  );
}

/** True when capsule A and the solid of revolution B at `bInA` overlap or touch. */
export function intersectsCapsuleRevolution(
  a: Capsule,
  b: Revolution,
  kind: RevolutionKind,
  bInA: Isometry,
): boolean {
  if (!segmentAgainst(a, b, kind, bInA, 0)) return false;
  rrIo[0] = a.radius;
  rrIo[2] = seg.projection.distance - a.radius;
  touching(seg.segmentPoint);
  return rrIo[2] <= 0;
}

/**
 * Out-of-plane offset of a capsule's segment from a plane through the cylinder's axis, in
 * rounding units of the pair's coordinates, under which the segment counts as coplanar with the
 * axis (parallel or crossing): moving it by that much changes the depth by no more.
 */
const COPLANAR_ULPS = 16;

// The 2D answer of `coplanarCylinder`: candidate normal (mu, my) in the meridian plane.
const pn = vec3.create();
const pA = vec3.create();
const pB = vec3.create();

/**
 * Capsule (radius `rho`, segment segA–segB in B's frame, entering the cylinder) against cylinder
 * B when the segment lies in a plane through B's axis — parallel to it or crossing it — in closed
 * form (issue 16, must-have 1). In that plane, coordinates (u, y) along a unit horizontal e_u and
 * the axis, the cylinder is the rectangle R = [−r, r] × [−h, h] and the segment S is P–Q. The
 * least overlap f(n) = h_S(n) + h_B(−n) over unit n: for n = c·m + s·n⊥ (m in the plane, n⊥ its
 * normal, c ≥ 0) it is c·(h_S(m) + h|m_y|) + r·√(c²m_u² + s²) — the segment's support has no n⊥
 * part, the cylinder's is r times the horizontal length — concave in c, so its minimum is at
 * c = 1 (in the plane) or c = 0 (n = ±n⊥, f = r). In the plane the minimum of h_S(m) + h_R(−m)
 * is the depth of the origin in the polygon S ⊕ (−R), attained at one of its edge normals: ±e_u,
 * ±y (R's edges) and ±(Q − P)⊥ (S's). So the core depth is the least of seven closed-form
 * values (ties to the first in that order), the capsule's depth that plus its radius. The
 * witnesses face each other along the normal: the supporting features of S and of R (a point or
 * an edge each) meet at the middle of the overlap of their spans across the normal. False when
 * the segment is not coplanar with the axis (to COPLANAR_ULPS of rounding): GJK/EPA then.
 */
function coplanarCylinder(out: Contact, rho: number, b: Cylinder, bInA: Isometry): boolean {
  const h = b.halfHeight;
  const r = b.radius;
  const P = segA;
  const Q = segB;
  const size = Math.max(
    Math.abs(P.x),
    Math.abs(P.y),
    Math.abs(P.z),
    Math.abs(Q.x),
    Math.abs(Q.y),
    Math.abs(Q.z),
    h,
    r,
  );
  const tol = COPLANAR_ULPS * Number.EPSILON * size;
  const lp = mathHypot2(P.x, P.z);
  const lq = mathHypot2(Q.x, Q.z);
  // e_u: the horizontal direction of the farther end from the axis; +x when both are on it to
  // rounding (any plane through the axis holds the segment then).
  let ux = 1;
  let uz = 0;
  if (Math.max(lp, lq) > tol) {
    ux = lp >= lq ? P.x / lp : Q.x / lq;
    uz = lp >= lq ? P.z / lp : Q.z / lq;
    const l = mathHypot2(ux, uz);
    ux /= l;
    uz /= l;
  }
  // Out-of-plane offsets along n⊥ = (−uz, 0, ux).
  const v1 = ux * P.z - uz * P.x;
  const v2 = ux * Q.z - uz * Q.x;
  if (!(Math.abs(v1) <= tol && Math.abs(v2) <= tol)) return false;
  const u1 = P.x * ux + P.z * uz;
  const u2 = Q.x * ux + Q.z * uz;
  const y1 = P.y;
  const y2 = Q.y;
  // Candidates: f and (mu, my); index 6 is ±n⊥.
  let best = Math.max(u1, u2) + r;
  let mu = 1;
  let my = 0;
  let perp = 0;
  let f = r - Math.min(u1, u2);
  if (f < best) {
    best = f;
    mu = -1;
    my = 0;
  }
  f = Math.max(y1, y2) + h;
  if (f < best) {
    best = f;
    mu = 0;
    my = 1;
  }
  f = h - Math.min(y1, y2);
  if (f < best) {
    best = f;
    mu = 0;
    my = -1;
  }
  const eu = u2 - u1;
  const ey = y2 - y1;
  const len = mathHypot2(eu, ey);
  if (len > 0) {
    const qu = -ey / len;
    const qy = eu / len;
    const c = u1 * qu + y1 * qy;
    const rr = r * Math.abs(qu) + h * Math.abs(qy);
    f = c + rr;
    if (f < best) {
      best = f;
      mu = qu;
      my = qy;
    }
    f = rr - c;
    if (f < best) {
      best = f;
      mu = -qu;
      my = -qy;
    }
  }
  f = Math.max(v1, v2) + r;
  if (f < best) {
    best = f;
    perp = 1;
  }
  f = r - Math.min(v1, v2);
  if (f < best) {
    best = f;
    perp = -1;
  }
  if (perp !== 0) {
    // n = ±n⊥: the cylinder's support a generator at −r·n (u = 0 in the plane), the segment's
    // the whole segment: its point on the axis's line (the nearest to it when it misses).
    rrSet(pn, -uz * perp, 0, ux * perp);
    let t = 0;
    if (u1 !== u2) t = Math.min(Math.max(u1 / (u1 - u2), 0), 1);
    else t = 0.5;
    const ys = y1 + t * (y2 - y1);
    rrSet(pA, P.x + t * (Q.x - P.x), ys, P.z + t * (Q.z - P.z));
    rrSet(pB, -r * pn.x, Math.min(Math.max(ys, -h), h), -r * pn.z);
  } else {
    rrSet(pn, mu * ux, my, mu * uz);
    // Spans across the normal along t = (−my, mu): the segment's support (both ends when it
    // is level along m, else the higher end), and R's along −m (an edge for an axis normal,
    // else a corner).
    const tu = -my;
    const ty = mu;
    const d1 = u1 * mu + y1 * my;
    const d2 = u2 * mu + y2 * my;
    const t1 = u1 * tu + y1 * ty;
    const t2 = u2 * tu + y2 * ty;
    let aLo: number;
    let aHi: number;
    const levelS = Math.abs(d1 - d2) <= 4 * Number.EPSILON * size;
    if (levelS) {
      aLo = Math.min(t1, t2);
      aHi = Math.max(t1, t2);
    } else {
      aLo = d1 > d2 ? t1 : t2;
      aHi = aLo;
    }
    // R's support along −m: corner (−r·sgn mu, −h·sgn my); a whole edge when mu or my is 0.
    const cu = mu > 0 ? -r : r;
    const cy = my > 0 ? -h : h;
    let bLo: number;
    let bHi: number;
    if (mu === 0) {
      bLo = -r;
      bHi = r;
    } else if (my === 0) {
      bLo = -h;
      bHi = h;
    } else {
      bLo = cu * tu + cy * ty;
      bHi = bLo;
    }
    const lo = Math.max(aLo, bLo);
    const hi = Math.min(aHi, bHi);
    // The middle of the common span (the nearer ends when they miss each other: rounding).
    const ta = lo <= hi ? 0.5 * (lo + hi) : Math.min(Math.max(0.5 * (lo + hi), aLo), aHi);
    const tb = lo <= hi ? ta : Math.min(Math.max(0.5 * (lo + hi), bLo), bHi);
    // The segment's point at ta: on the segment between its ends' spans, else the higher end.
    let su: number;
    let sy: number;
    if (levelS && t1 !== t2) {
      const k = (ta - t1) / (t2 - t1);
      su = u1 + k * eu;
      sy = y1 + k * ey;
    } else {
      su = d1 >= d2 ? u1 : u2;
      sy = d1 >= d2 ? y1 : y2;
    }
    // R's point at tb: on its support line m·X = −h_R(−m).
    let ru: number;
    let ry: number;
    if (mu === 0) {
      ru = tb * tu;
      ry = cy;
    } else if (my === 0) {
      ru = cu;
      ry = tb * ty;
    } else {
      ru = cu;
      ry = cy;
    }
    rrSet(pA, su * ux, sy, su * uz);
    rrSet(pB, ru * ux, ry, ru * uz);
  }
  out.distance = 0 - (best + rho);
  rrTransformVector(out.normal, bInA, pn);
  rrTransformPoint(out.pointB, bInA, pB);
  rrTransformPoint(nearest, bInA, pA);
  rrAddScaled(out.pointA, nearest, out.normal, rho);
  return true;
}
