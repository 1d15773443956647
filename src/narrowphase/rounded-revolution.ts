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
 * separation, so the capsule's depth is ρ − s); a segment that enters the solid is answered by
 * GJK/EPA with the normal refined (convex-convex.ts), whose depth is then the segment's own
 * penetration plus ρ.
 *
 * Touching is decided on the computed signed distance, which is exact for exactly touching
 * inputs whose contact point is representable (the capsule resting on a cylinder's cap).
 * Every routine works in A's frame (the rounded shape's) with the solid at `bInA`; no allocation.
 */

import { TOUCH_TOLERANCE } from "../constants.js";
import {
  closestSegmentRevolution,
  makeRevolutionProjection,
  makeSegmentRevolutionResult,
  projectRevolution,
  type RevolutionKind,
} from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Capsule } from "../shapes/capsule.js";
import type { Cone } from "../shapes/cone.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { Contact } from "./contact.js";
import { contactConvexConvex } from "./convex-convex.js";

const origin = vec3.create();
const centreInB = vec3.create();
const segA = vec3.create();
const segB = vec3.create();
const proj = makeRevolutionProjection();
const seg = makeSegmentRevolutionResult();
const normalB = vec3.create();
const nearest = vec3.create();

/**
 * Fills `out` (A's frame) from the core point `coreInB` and its projection `p` (B's frame), the
 * rounded radius `radius`: distance s − radius, normal −m, pointB the boundary point, pointA the
 * core point plus radius along the normal. False when the distance exceeds `prediction`.
 */
function fill(
  out: Contact,
  bInA: Isometry,
  coreInB: typeof centreInB,
  p: typeof proj,
  radius: number,
  prediction: number,
  size: number,
): boolean {
  const d = touching(p.distance - radius, coreInB, radius, size);
  if (!(d <= prediction)) return false;
  out.distance = d;
  vec3.negate(normalB, p.normal);
  iso.transformVector(out.normal, bInA, normalB);
  iso.transformPoint(out.pointB, bInA, p.point);
  iso.transformPoint(nearest, bInA, coreInB);
  vec3.addScaled(out.pointA, nearest, out.normal, radius);
  return true;
}

/**
 * A gap at the rounding level of the pair's size is touching (0), as GJK's gaps are in
 * convex-convex.ts (`TOUCH_TOLERANCE`, issue 16 class 1): the core point's coordinates in B's
 * frame carry the rounding of the change of frame. `size` is B's bounding radius.
 */
function touching(d: number, coreInB: typeof centreInB, radius: number, size: number): number {
  if (!(d > 0)) return d;
  const scale = Math.max(Math.hypot(coreInB.x, coreInB.y, coreInB.z), size) + radius;
  return d <= TOUCH_TOLERANCE * scale ? 0 : d;
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
  iso.inverseTransformPoint(centreInB, bInA, origin);
  projectRevolution(proj, kind, h, r, centreInB);
  return fill(out, bInA, centreInB, proj, radius, prediction, Math.hypot(h, r));
}

/** True when the sphere of `radius` at A's origin and the solid at `bInA` overlap or touch. */
export function intersectsBallRevolution(
  radius: number,
  kind: RevolutionKind,
  h: number,
  r: number,
  bInA: Isometry,
): boolean {
  iso.inverseTransformPoint(centreInB, bInA, origin);
  const s = projectRevolution(proj, kind, h, r, centreInB).distance;
  return touching(s - radius, centreInB, radius, Math.hypot(h, r)) <= 0;
}

/**
 * The capsule's segment against the solid, in B's frame (seg): false when the segment's nearest
 * point is farther than `limit` from the solid by a cheap bound (the segment's distance to the
 * solid's bounding sphere about its centre).
 */
function segmentAgainst(
  a: Capsule,
  kind: RevolutionKind,
  h: number,
  r: number,
  bInA: Isometry,
  limit: number,
): boolean {
  iso.inverseTransformPoint(segA, bInA, a.a);
  iso.inverseTransformPoint(segB, bInA, a.b);
  // Bounding-sphere reject: the segment's distance to B's centre against √(h² + r²).
  const ex = segB.x - segA.x;
  const ey = segB.y - segA.y;
  const ez = segB.z - segA.z;
  const l2 = ex * ex + ey * ey + ez * ez;
  let t = l2 > 0 ? -(segA.x * ex + segA.y * ey + segA.z * ez) / l2 : 0;
  t = Math.min(Math.max(t, 0), 1);
  const cd = Math.hypot(segA.x + t * ex, segA.y + t * ey, segA.z + t * ez);
  if (cd - Math.hypot(h, r) > limit) return false;
  closestSegmentRevolution(seg, kind, h, r, segA, segB);
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
  if (!segmentAgainst(a, kind, b.halfHeight, b.radius, bInA, prediction + a.radius)) return false;
  // A segment of zero length is a point: its depth is exact whatever it is.
  const point = a.a.x === a.b.x && a.a.y === a.b.y && a.a.z === a.b.z;
  if (seg.projection.distance < 0 && !point) {
    return contactConvexConvex(out, a, b, bInA, prediction);
  }
  const size = Math.hypot(b.halfHeight, b.radius);
  return fill(out, bInA, seg.segmentPoint, seg.projection, a.radius, prediction, size);
}

/** True when capsule A and the solid of revolution B at `bInA` overlap or touch. */
export function intersectsCapsuleRevolution(
  a: Capsule,
  b: Revolution,
  kind: RevolutionKind,
  bInA: Isometry,
): boolean {
  if (!segmentAgainst(a, kind, b.halfHeight, b.radius, bInA, a.radius)) return false;
  const size = Math.hypot(b.halfHeight, b.radius);
  return touching(seg.projection.distance - a.radius, seg.segmentPoint, a.radius, size) <= 0;
}
