/**
 * A triangle against a rounded polytope — a rounded box or a rounded convex polyhedron, the
 * points within `radius` of a polytope core — by the exact feature computations of the triangle
 * against the core (src/narrowphase/triangle-polytope.ts), the radius added analytically
 * (issue 16: a triangle deep in a rounded box answered by EPA on the swept shape, 6.5e-4 too
 * deep; a small rounded hull deep in a rounded box 9.5e-6 too deep).
 *
 * The support of the rounded shape along a unit d is the core's plus r·d, so the overlap of the
 * pair along every direction is the core pair's plus r, and its least overlap — the penetration
 * depth — is the core pair's least overlap plus r, along the same normal (the separating axis
 * test over the triangle's normal, the core's faces and the edge crosses: exact for polytopes,
 * Ericson 2005, §5.2.1). When the cores are apart by g along the unit direction n between their
 * closest points, the rounded pair is apart by g − r (an overlap when g < r: the depth r − g
 * along n; van den Bergen 2003, §4.3.4). Either way the core answer moves B's witness by r
 * against the normal, onto the rounded surface where its supporting plane along −n is.
 *
 * Allocation-free: the core answers are written into preallocated results; no double crosses a
 * call V8 may leave out of line (the radius is read inside each routine, the core's prediction
 * passed through `contactPredictionIo`).
 */
import type { Isometry } from "../math/isometry.js";
import type { RoundedShape } from "../shapes/rounded.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { makeContact } from "./contact.js";
import {
  contactPredictionIo,
  contactTrianglePolytopeIo,
  distanceTrianglePolytope,
} from "./triangle-polytope.js";

const core = makeContact();

/**
 * The core pair's contact into `out` at any gap (its prediction unbounded: the closest features
 * always, never the SAT's early "apart", whose lower bound of the gap can round above the
 * features' own gap), so that intersects, distance and contact decide on one number, the
 * features' gap less the radius. False only for a non-finite gap.
 */
function coreContact(out: Contact, a: Triangle, b: RoundedShape, bInA: Isometry): boolean {
  contactPredictionIo[0] = Number.POSITIVE_INFINITY;
  return contactTrianglePolytopeIo(out, a, b.core, bInA);
}

/**
 * Contact of triangle `a` and rounded polytope `b` (B at `bInA`, A's frame) within `prediction`
 * (≥ 0, scene units): the core pair's contact, its distance less the radius (negative: the
 * depth), its normal (unit, A toward B), A's witness and B's moved by the radius against the
 * normal. False when apart by more than `prediction`.
 */
export function contactTriangleRounded(
  out: Contact,
  a: Triangle,
  b: RoundedShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!coreContact(out, a, b, bInA)) return false;
  const r = b.radius;
  const d = out.distance - r;
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  out.pointB.x = out.pointB.x - n.x * r;
  out.pointB.y = out.pointB.y - n.y * r;
  out.pointB.z = out.pointB.z - n.z * r;
  return true;
}

/**
 * Closest points of triangle `a` and rounded polytope `b` (A's frame): the contact's gap when
 * positive, with A's closest point and B's (the core's moved by the radius against the normal);
 * else distance 0 with the contact's witnesses (the deepest points, spanning its depth along its
 * normal). Returns `out`.
 */
export function distanceTriangleRounded(
  out: DistanceResult,
  a: Triangle,
  b: RoundedShape,
  bInA: Isometry,
): DistanceResult {
  if (!coreContact(core, a, b, bInA)) return distanceTrianglePolytope(out, a, b.core, bInA);
  const r = b.radius;
  const d = core.distance - r;
  const n = core.normal;
  out.distance = Math.max(d, 0);
  out.pointA.x = core.pointA.x;
  out.pointA.y = core.pointA.y;
  out.pointA.z = core.pointA.z;
  out.pointB.x = core.pointB.x - n.x * r;
  out.pointB.y = core.pointB.y - n.y * r;
  out.pointB.z = core.pointB.z - n.z * r;
  return out;
}

/** True when triangle `a` and rounded polytope `b` (B at `bInA`, A's frame) overlap or touch. */
export function intersectsTriangleRounded(a: Triangle, b: RoundedShape, bInA: Isometry): boolean {
  return coreContact(core, a, b, bInA) && core.distance - b.radius <= 0;
}
