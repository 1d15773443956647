/**
 * A capsule against a polytope — a box or a convex polyhedron — by the exact feature computations
 * of its core segment against the polytope (src/narrowphase/triangle-polytope.ts, the segment a
 * triangle without area), the radius added analytically (issue 16: a capsule of 1e-6 across the
 * edge of an aabb of 2e4 at 1e6 came out 1.2e-8 too deep from EPA on the segment, which missed the
 * axis across the box's edge and the segment).
 *
 * The capsule is its segment swept by a ball of radius r, so its support along a unit d is the
 * segment's plus r·d, the overlap of the pair along every direction is the segment pair's plus r,
 * and its least overlap — the penetration depth — is the segment pair's least overlap plus r,
 * along the same normal: the separating axis test over the polytope's faces and the crosses of
 * the segment with its edges (exact for polytopes, Ericson 2005, §5.2.1; a segment's Minkowski
 * difference with a polytope has no other faces). When the segment is apart from the polytope by
 * g along the unit direction n between their closest points (an endpoint against a face, the
 * segment against an edge), the capsule is apart by g − r (an overlap when g < r: the depth r − g
 * along n; van den Bergen 2003, §4.3.4). Either way the segment's witness moves by r along the
 * normal, onto the capsule's surface where its supporting plane is. One computation decides
 * `intersects`, `distance` and `contact` (the segment's signed distance less r; the first two are
 * the pair table's `intersectsViaContact` and `distanceViaContact` of
 * {@link contactCapsulePolytope}, registered by src/narrowphase/default-pairs.ts), so that they
 * agree on every pair, touching ones included; the arithmetic is relative to the capsule's first
 * end (the triangle routine's local frame), not to the pair's distance from the origin.
 *
 * A rounded box or hull likewise, by the segment against its core box or hull, both radii added
 * (the core's support along d is the rounded shape's less r_B·d, so the overlap of the pair along
 * every direction is the cores' plus r_A + r_B): GJK/EPA on the swept shapes had put the normal of
 * a capsule lying on a rounded box's face 6.2e-9 rad off, 6.2e-9 short of the depth along it
 * (issue 16, test/fuzz/rounded-tilt-normal.test.ts).
 *
 * Allocation-free: the segment is written into a preallocated triangle, the core answer into the
 * caller's contact; the radii are read inside the routine, no computed double crosses a call
 * (session 35: ≤ 1.4 bytes a call over 192,000 calls against rounded boxes and hulls, as GJK's
 * path measured; the six-curved-kinds world's step 15.9 KB with this routing and without it).
 */
import { TOUCH_TOLERANCE } from "../constants.js";
import {
  exactRange,
  footInTriangleIo,
  planeGapIo,
  planeGapSignIo,
} from "../geometry/exact-predicates.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../shapes/rounded.js";
import { ShapeType } from "../shapes/shape.js";
import { writeBoundingRadiusOf } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact } from "./contact.js";
import { apartBeyond, apartGapIo } from "./convex-convex.js";
import {
  contactPredictionIo,
  contactRejectIo,
  contactTrianglePolytopeIo,
  writePairMagnitude,
} from "./triangle-polytope.js";

/**
 * A polytope these routines take: a box or a convex polyhedron, or a rounded one, or a triangle
 * (src/narrowphase/capsule-triangle.ts routes its slivers here).
 */
export type CapsulePolytopeOther =
  | Cuboid
  | ConvexPolyhedron
  | RoundedCuboid
  | RoundedConvexPolyhedron
  | Triangle;

/** The capsule's core segment as a triangle without area (corners a, b, b). */
const segment: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};

/**
 * The core pair's contact into `out` at any gap (its prediction unbounded: the closest features
 * always, never the SAT's early "apart", whose lower bound of the gap can round above the
 * features' own gap), or false at once when B is a triangle whose SAT proves the segment apart by
 * more than `rejectIo[0]` (+∞: never). False otherwise only for a non-finite gap.
 */
function coreContact(out: Contact, a: Capsule, b: CapsulePolytopeOther, bInA: Isometry): boolean {
  vec3.copy(segment.a, a.a);
  vec3.copy(segment.b, a.b);
  vec3.copy(segment.c, a.b);
  contactPredictionIo[0] = Number.POSITIVE_INFINITY;
  contactRejectIo[0] = rejectIo[0];
  const hit = contactTrianglePolytopeIo(out, segment, "core" in b ? b.core : b, bInA);
  contactRejectIo[0] = Number.POSITIVE_INFINITY;
  return hit;
}

/** {@link segment} = the capsule's core segment. */
function loadSegment(a: Capsule): void {
  vec3.copy(segment.a, a.a);
  vec3.copy(segment.b, a.b);
  vec3.copy(segment.c, a.b);
}

const radiusIo = new Float64Array(1);
/** [0] the core gap (scene units) beyond which {@link coreContact} may answer "apart" at once. */
const rejectIo = new Float64Array(1);

/**
 * A triangle B's core gap beyond the prediction, the radius and the touch test's rounding by this
 * fraction of the pair's magnitude is "apart" by the SAT alone ({@link rejectGap}): 2^-30, far
 * above the SAT's rounding and `TOUCH_TOLERANCE` (2^-47).
 */
const REJECT_MARGIN = 2 ** -30;

/**
 * rejectIo[0] = the segment's SAT gap against triangle `b` beyond which the capsule is apart by
 * more than the prediction `capsulePredictionIo[0]` (scene units): prediction + r +
 * {@link REJECT_MARGIN} of the pair's magnitude (r, the capsule's ends, B's offset and corners,
 * each in its own frame), well above the touch test's `TOUCH_TOLERANCE` and the rounding between
 * the SAT's lower bound and the features' gap. It stands in for {@link provedApart}'s GJK for a
 * triangle, whose SAT over a segment is a few axes (session 41: GJK was a fifth of the
 * capsule–mesh pairs' time).
 */
function rejectGap(a: Capsule, b: Triangle, bInA: Isometry): void {
  loadSegment(a);
  writePairMagnitude(rejectIo, segment, b, bInA);
  const r = a.radius;
  rejectIo[0] = capsulePredictionIo[0] + r + REJECT_MARGIN * (rejectIo[0] + r);
}

/**
 * Whether GJK proves the capsule apart from B by more than `capsulePredictionIo[0]` (scene units)
 * and the rounding this routine's touch test forgives ({@link contactCapsulePolytopeIo}:
 * TOUCH_TOLERANCE of the pair's magnitude, bounded here by r + |t|₁ + B's bounding radius, taken
 * four times): the separating axis test over B's faces and the segment's crosses with its edges
 * costs O(F + E) projections of B's V vertices, ~1e5 operations for a hull of 100 vertices, where
 * GJK needs a few support calls (the demo scene's capsules over hulls spent 10 of 22 s of CPU in
 * that test when every candidate pair ran it). A pair not proven apart takes the exact features.
 */
function provedApart(a: Capsule, b: CapsulePolytopeOther, bInA: Isometry): boolean {
  writeBoundingRadiusOf(radiusIo, b);
  const t = bInA.translation;
  const m = a.radius + Math.abs(t.x) + Math.abs(t.y) + Math.abs(t.z) + radiusIo[0];
  apartGapIo[0] = capsulePredictionIo[0] + 4 * TOUCH_TOLERANCE * m;
  return apartBeyond(a, b, bInA);
}

/**
 * Relative width (times the largest coordinate of the capsule's ends, B's offset and corners and
 * the radius) of the depths {@link exactEndsTouch} decides exactly: far above their rounding.
 */
const END_TOUCH_BAND = 2 ** -36;

const endInB = vec3.create();
/** [0] the depth (scene units, > 0) {@link exactEndsTouch} decides. */
const endDepthIo = new Float64Array(1);

/**
 * True when capsule `a` touches triangle `b` (B at `bInA`) exactly through its ends: each end
 * lies at or beyond the radius from B's plane on one and the same side, and one at exactly the
 * radius has its foot in the closed triangle (src/geometry/exact-predicates.ts `planeGapSignIo`,
 * `footInTriangleIo`): the plane then holds the capsule off by the radius (the segment lies on
 * that side) and that end touches. An end is placed in B's frame as t⁻¹ exactly (p = end − t)
 * for a translation, else rotated as the queries round it. Only for a `depth` within
 * {@link END_TOUCH_BAND} (`endDepthIo`[0]; a capsule lying flat on a tilted face was −4.4e-16 deep). Nothing
 * allocated.
 */
function exactEndsTouch(a: Capsule, b: Triangle, bInA: Isometry): boolean {
  const depth = endDepthIo[0];
  const t = bInA.translation;
  const q = bInA.rotation;
  const r = a.radius;
  let m = Math.max(r, Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  m = Math.max(m, Math.abs(a.a.x), Math.abs(a.a.y), Math.abs(a.a.z));
  m = Math.max(m, Math.abs(a.b.x), Math.abs(a.b.y), Math.abs(a.b.z));
  m = Math.max(m, Math.abs(b.a.x), Math.abs(b.a.y), Math.abs(b.a.z));
  m = Math.max(m, Math.abs(b.b.x), Math.abs(b.b.y), Math.abs(b.b.z));
  m = Math.max(m, Math.abs(b.c.x), Math.abs(b.c.y), Math.abs(b.c.z));
  if (!(depth <= END_TOUCH_BAND * m)) return false;
  if (!exactRange(t) || !exactRange(b.a) || !exactRange(b.b) || !exactRange(b.c)) return false;
  if (!(r === 0 || (r < 2 ** 300 && r >= 2 ** -300))) return false;
  const identity = q.x === 0 && q.y === 0 && q.z === 0;
  const v = planeGapIo;
  v[6] = b.a.x;
  v[7] = b.a.y;
  v[8] = b.a.z;
  v[9] = b.b.x;
  v[10] = b.b.y;
  v[11] = b.b.z;
  v[12] = b.c.x;
  v[13] = b.c.y;
  v[14] = b.c.z;
  let side = 0;
  let touch = false;
  for (let i = 0; i < 2; i++) {
    const e = i === 0 ? a.a : a.b;
    if (identity) {
      vec3.copy(endInB, e);
      v[3] = -t.x;
      v[4] = -t.y;
      v[5] = -t.z;
    } else {
      iso.inverseTransformPoint(endInB, bInA, e);
      v[3] = 0;
      v[4] = 0;
      v[5] = 0;
    }
    if (!exactRange(endInB)) return false;
    v[0] = endInB.x;
    v[1] = endInB.y;
    v[2] = endInB.z;
    v[15] = r;
    v[16] = 0;
    const k = planeGapSignIo();
    if (k !== 0 && k !== 1) return false;
    const sd = v[17];
    if (sd === 0 || (side !== 0 && sd !== side)) return false;
    side = sd;
    if (k === 0 && footInTriangleIo()) touch = true;
  }
  return touch;
}

/**
 * [0] the prediction (scene units, ≥ 0) of {@link contactCapsulePolytopeIo}: a double passed to
 * a call V8 does not inline is boxed (allocated).
 */
export const capsulePredictionIo = new Float64Array(1);

/**
 * Contact of capsule `a` and box or convex polyhedron `b`, plain or rounded (B at `bInA`, A's
 * frame), within `prediction` (≥ 0, scene units): the segment's contact with B's core, its
 * distance less the radii (negative: the depth; a gap within the rounding of the pair's
 * coordinates is a touch, 0), its normal (unit, A toward B), A's witness moved by A's radius
 * along the normal and B's by B's radius against it. False when apart by more than `prediction`.
 */
export function contactCapsulePolytope(
  out: Contact,
  a: Capsule,
  b: CapsulePolytopeOther,
  bInA: Isometry,
  prediction: number,
): boolean {
  capsulePredictionIo[0] = prediction;
  return contactCapsulePolytopeIo(out, a, b, bInA);
}

/**
 * {@link contactCapsulePolytope} with the prediction in {@link capsulePredictionIo}[0]. A
 * triangle B that the segment's SAT proves apart beyond the prediction is answered at once
 * ({@link rejectGap}), any other B proven apart by GJK ({@link provedApart}) likewise; no double
 * crosses a call (the margins added here, `addMargins`' arithmetic written out).
 */
export function contactCapsulePolytopeIo(
  out: Contact,
  a: Capsule,
  b: CapsulePolytopeOther,
  bInA: Isometry,
): boolean {
  const prediction = capsulePredictionIo[0];
  rejectIo[0] = Number.POSITIVE_INFINITY;
  if (prediction < Number.POSITIVE_INFINITY) {
    if (b.type === ShapeType.Triangle) rejectGap(a, b, bInA);
    else if (provedApart(a, b, bInA)) return false;
  }
  if (!coreContact(out, a, b, bInA)) return false;
  const rA = a.radius;
  const rB = "core" in b ? b.radius : 0;
  const r = rA + rB;
  let d = out.distance - r;
  // A gap within the rounding of the pair's coordinates (B's offset, B's witness, the radius) is a
  // touch, as for the rounded polytopes (src/narrowphase/rounded-polytope.ts).
  if (d > 0) {
    const t = bInA.translation;
    const q = out.pointB;
    const m = Math.max(
      r,
      Math.abs(t.x),
      Math.abs(t.y),
      Math.abs(t.z),
      Math.abs(q.x),
      Math.abs(q.y),
      Math.abs(q.z),
    );
    if (d <= TOUCH_TOLERANCE * m) d = 0;
  } else if (d < 0 && b.type === ShapeType.Triangle) {
    // The depth through a register: a double passed to a call V8 does not inline is boxed.
    endDepthIo[0] = -d;
    if (exactEndsTouch(a, b, bInA)) d = 0;
  }
  // addMargins (src/narrowphase/contact.ts), inline: its doubles would be boxed across the call.
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  const pa = out.pointA;
  const pb = out.pointB;
  pa.x = pa.x + n.x * rA;
  pa.y = pa.y + n.y * rA;
  pa.z = pa.z + n.z * rA;
  pb.x = pb.x - n.x * rB;
  pb.y = pb.y - n.y * rB;
  pb.z = pb.z - n.z * rB;
  return true;
}
