/**
 * Two shapes with polytope cores, at least one rounded — a rounded box or a rounded convex
 * polyhedron (the points within `radius` of a box or hull core) against another, or against a
 * plain box or hull — by the exact routines of the two cores (box–box: the separating axis test
 * and GJK's closest points, src/narrowphase/cuboid-cuboid.ts; a hull on either side: the
 * polytope paths of src/narrowphase/convex-convex.ts — SAT's least overlap, the supporting
 * features' exact gap), the radii added analytically (issue 16: a rounded box of 1e-4 against one
 * of 178 at 2.4e7 came out 1.68e-5 too deep from EPA on the swept shapes; a small rounded hull
 * deep in a rounded box 9.5e-6 too deep).
 *
 * The support of a rounded shape along a unit d is its core's plus r·d, so the overlap of the
 * pair along every direction is the core pair's plus rA + rB, and its least overlap — the
 * penetration depth — is the cores' least overlap plus rA + rB, along the same normal (exact for
 * polytopes by the separating axis test, Ericson 2005, §5.2.1). When the cores are apart by g
 * along the unit direction n between their closest points, the pair is apart by g − rA − rB (an
 * overlap when g < rA + rB: the depth rA + rB − g along n; van den Bergen 2003, §4.3.4). Either
 * way the cores' witnesses move by each radius along the normal, A's by +rA·n and B's by −rB·n,
 * onto the rounded surfaces where their supporting planes are. One core computation decides
 * `intersects`, `distance` and `contact` (its distance less the radii; the first two are the
 * pair table's `intersectsViaContact` and `distanceViaContact` of {@link contactRoundedPolytope},
 * registered by src/narrowphase/default-pairs.ts), so that they agree on every pair, touching
 * ones included.
 *
 * Allocation-free: the core answer is written into the caller's contact; the radii are read
 * inside the routine, no computed double crosses a call.
 */
import { TOUCH_TOLERANCE } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { RoundedShape } from "../shapes/rounded.js";
import { ShapeType } from "../shapes/shape.js";
import type { Contact } from "./contact.js";
import { contactConvexConvex } from "./convex-convex.js";
import { contactCuboidCuboid } from "./cuboid-cuboid.js";

/** A shape these routines take: a rounded box or hull, or a plain box or hull. */
export type RoundedPolytopeOther = RoundedShape | Cuboid | ConvexPolyhedron;

/**
 * The core pair's contact into `out` at any gap (prediction unbounded: the closest features
 * always, so that intersects, distance and contact decide on one number, the cores' signed
 * distance less the radii). False only for a non-finite pair.
 */
function coreContact(
  out: Contact,
  a: RoundedPolytopeOther,
  b: RoundedPolytopeOther,
  bInA: Isometry,
): boolean {
  const ca = "core" in a ? a.core : a;
  const cb = "core" in b ? b.core : b;
  if (ca.type === ShapeType.Cuboid && cb.type === ShapeType.Cuboid) {
    return contactCuboidCuboid(out, ca, cb, bInA, Number.POSITIVE_INFINITY);
  }
  return contactConvexConvex(out, ca, cb, bInA, Number.POSITIVE_INFINITY);
}

/**
 * Contact of `a` and `b` (B at `bInA`, A's frame; each a rounded box or hull, or a plain box or
 * hull) within `prediction` (≥ 0, scene units): the core pair's contact, its signed distance less
 * the radii (negative: the depth), its normal (unit, A toward B), A's witness moved by A's radius
 * along the normal and B's by B's radius against it. False when apart by more than `prediction`.
 */
export function contactRoundedPolytope(
  out: Contact,
  a: RoundedPolytopeOther,
  b: RoundedPolytopeOther,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!coreContact(out, a, b, bInA)) return false;
  const rA = "core" in a ? a.radius : 0;
  const rB = "core" in b ? b.radius : 0;
  let d = out.distance - (rA + rB);
  // A gap within the rounding of the pair's coordinates (B's offset, B's core witness, the
  // radii) is a touch: the cores' gap carries that rounding (a rounded box of 4e-4 on a face of
  // one of 200, 138 away, exactly touching, was apart by one ulp of 46).
  if (d > 0) {
    const t = bInA.translation;
    const q = out.pointB;
    const m = Math.max(
      rA + rB,
      Math.abs(t.x),
      Math.abs(t.y),
      Math.abs(t.z),
      Math.abs(q.x),
      Math.abs(q.y),
      Math.abs(q.z),
    );
    if (d <= TOUCH_TOLERANCE * m) d = 0;
  }
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  out.pointA.x = out.pointA.x + n.x * rA;
  out.pointA.y = out.pointA.y + n.y * rA;
  out.pointA.z = out.pointA.z + n.z * rA;
  out.pointB.x = out.pointB.x - n.x * rB;
  out.pointB.y = out.pointB.y - n.y * rB;
  out.pointB.z = out.pointB.z - n.z * rB;
  return true;
}
