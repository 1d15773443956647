/**
 * Two shapes with polytope cores, at least one rounded — a rounded box or a rounded convex
 * polyhedron (the points within `radius` of a box or hull core) against another, or against a
 * plain box or hull — by the exact routines of the two cores (box–box: the separating axis test
 * and GJK's closest points, src/narrowphase/cuboid-cuboid.ts; a hull on either side: the
 * polytope paths of src/narrowphase/convex-convex.ts — SAT's least overlap, the supporting
 * features' exact gap), the radii added analytically (issue 16: a rounded box of 1e-4 against one
 * of 178 at 2.4e7 came out 1.68e-5 too deep from EPA on the swept shapes; a small rounded hull
 * deep in a rounded box 9.5e-6 too deep). A rounded box or hull against a cylinder or a cone
 * likewise: the core box or hull against the solid by convex-convex.ts's paths for a plain
 * polytope and a solid of revolution (the corner's closed form, the supporting features' nearest
 * points), the radius added (parry's rounded shapes; issue 16, a fresh-user attack: a rim of 1e6
 * against a rounded box of 1e-6 came out −1.8e-7 for −6.9e-11 and −5.2e-8 for a gap of 5.3e-10
 * from GJK/EPA on the core with its margin, where the plain box's paths answered right).
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
import type { Cone } from "../shapes/cone.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { Cylinder } from "../shapes/cylinder.js";
import type { RoundedShape } from "../shapes/rounded.js";
import { ShapeType } from "../shapes/shape.js";
import { type Contact, contactErrorIo } from "./contact.js";
import { contactConvexConvex } from "./convex-convex.js";
import { contactCuboidCuboid, satGapContact } from "./cuboid-cuboid.js";

/**
 * A shape these routines take: a rounded box or hull, or a plain box or hull, or (against a
 * rounded box or hull) a cylinder or a cone.
 */
export type RoundedPolytopeOther = RoundedShape | Cuboid | ConvexPolyhedron | Cylinder | Cone;

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
    if (!contactCuboidCuboid(out, ca, cb, bInA, Number.POSITIVE_INFINITY)) return false;
    // Cores apart: the normal onto SAT's axis where that attains the gap (the radii taken off a
    // gap of their size leave a contact whose normal must be exact to the pair's rounding).
    if (out.distance > 0) satGapContact(out, ca, cb, bInA);
    return true;
  }
  return contactConvexConvex(out, ca, cb, bInA, Number.POSITIVE_INFINITY);
}

/**
 * The rounding of the core distance less the radii, relative to their magnitudes: the
 * subtraction's half ulp and the witnesses' moves along the normal, 4 ε.
 */
const RADIUS_ROUNDING = 4 * 2 ** -52;

/**
 * Core gap, relative to the pair's coordinates, above which a cylinder's or cone's pair whose
 * cores are apart by at most twice the radius is solved on the swept shapes: 2^-10, where GJK's
 * relative tolerance of the gap (~1e-13) reaches the touching tolerance of the coordinates.
 */
const CORE_GAP_BAND = 2 ** -10;

/** True for a cylinder or a cone (the other shape of a rounded box's or hull's pair). */
function revolution(s: RoundedPolytopeOther): boolean {
  return s.type === ShapeType.Cylinder || s.type === ShapeType.Cone;
}

/**
 * Contact of `a` and `b` (B at `bInA`, A's frame; each a rounded box or hull, or a plain box or
 * hull, or a cylinder or cone against a rounded box or hull) within `prediction` (≥ 0, scene units): the core pair's contact, its signed distance less
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
  // The core pair's error register (src/narrowphase/contact.ts) taken alone, then raised by the
  // rounding of taking the radii off its distance (the register keeps the largest of a
  // composite's parts: an earlier part's bound is kept beside this pair's).
  const wanted = contactErrorIo[1] !== 0;
  const e0 = contactErrorIo[0];
  contactErrorIo[0] = 0;
  const found = coreContact(out, a, b, bInA);
  const rA = "core" in a ? a.radius : 0;
  const rB = "core" in b ? b.radius : 0;
  // An exact core routine (0: box–box) stays exact to its rounding, as documented (FORMATS.md).
  const ec = contactErrorIo[0];
  if (wanted && found && ec > 0) {
    const e = ec + RADIUS_ROUNDING * (Math.abs(out.distance) + rA + rB);
    contactErrorIo[0] = Math.max(e, e0);
  } else contactErrorIo[0] = Math.max(ec, e0);
  if (!found) return false;
  const r = rA + rB;
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
  const dc = out.distance;
  if (dc > 0 && dc <= 2 * r && dc > CORE_GAP_BAND * m && (revolution(a) || revolution(b))) {
    // Against a cylinder or a cone, cores apart by a gap of the radius's order and of the pair's
    // size, the shapes within the radius of touching: the cores' gap is known to GJK's relative
    // tolerance of itself (7e-10 at 2.8e3, a cone's rim exactly on a rounded box of radius 2.8e3
    // called apart), which the radius taken off leaves at that absolute error. GJK/EPA on the
    // swept shapes decides there: the overlap along a direction includes the radius at the
    // support points' rounding (convex-convex.ts, the cores' gap under the margins).
    contactErrorIo[0] = 0;
    const hit = contactConvexConvex(out, a, b, bInA, prediction);
    const es = contactErrorIo[0];
    contactErrorIo[0] = Math.max(es, e0);
    return hit;
  }
  let d = dc - r;
  // A gap within the rounding of the pair's coordinates (B's offset, B's core witness, the
  // radii) is a touch: the cores' gap carries that rounding (a rounded box of 4e-4 on a face of
  // one of 200, 138 away, exactly touching, was apart by one ulp of 46).
  if (d > 0 && d <= TOUCH_TOLERANCE * m) d = 0;
  // addMargins's arithmetic (src/narrowphase/contact.ts), written out: a double passed to a call
  // V8 does not inline is boxed, and the distance and radii passed to it from here were (the
  // six curved kinds' probe, heap-sampled: 2.1 KB per step charged to this function; issue 15).
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  const pA = out.pointA;
  const pB = out.pointB;
  pA.x = pA.x + n.x * rA;
  pA.y = pA.y + n.y * rA;
  pA.z = pA.z + n.z * rA;
  pB.x = pB.x - n.x * rB;
  pB.y = pB.y - n.y * rB;
  pB.z = pB.z - n.z * rB;
  return true;
}
