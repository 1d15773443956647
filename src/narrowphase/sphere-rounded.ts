/**
 * A sphere against a rounded box or a rounded convex hull (the points within `radius` of a box
 * or hull core): the sphere's centre against the core by the exact closed forms of the sphere's
 * plain pairs — the centre clamped into the box (src/narrowphase/sphere-cuboid.ts), the centre's
 * closest hull point (src/narrowphase/sphere-convex-polyhedron.ts) — with the radii summed. A
 * sphere is its centre swept by its radius and the rounded shape its core swept by its own, so
 * the pair is the centre against the core swept by rS + rB: the gap is the centre's distance to
 * the core less rS + rB (negative: the depth), along the core's normal at its closest point
 * (Ericson 2005, §5.2.5; parry's rounded shapes). B's witness moves from the core's surface by
 * rB against the normal onto the rounded surface, A's is the centre plus rS along it (issue 16,
 * a fresh-user attack: a sphere touching a rounded box tilted 2^-26 rad at 3.7e8 got a normal
 * 1.7e-8 rad off from GJK/EPA on the swept shapes, its separation 6.65e-9 for 9.67e-9).
 *
 * A centre inside the hull core, on it or undecided is GJK/EPA's on the sphere against the core
 * (src/narrowphase/convex-convex.ts), rB added, its error bound raised by the rounding of the
 * sum as src/narrowphase/rounded-polytope.ts does; the box's closed form covers an interior
 * centre itself (the nearest face). One contact routine per order decides `intersects`,
 * `distance` and `contact` (the pair table's `intersectsViaContact` and `distanceViaContact`,
 * registered by src/narrowphase/default-pairs.ts). The box-first order has its own routine, the
 * sphere's centre in the box's frame then B's offset as given (as sphere-cuboid.ts's); the hull's
 * other order is the table's flip (as the plain hull's).
 *
 * Allocation-free: the summed radius goes to the box's closed form through its typed-array
 * register; no computed double crosses a call.
 */
import type { Isometry } from "../math/isometry.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "../shapes/rounded.js";
import type { Sphere } from "../shapes/sphere.js";
import { type Contact, contactErrorIo } from "./contact.js";
import { contactConvexConvex } from "./convex-convex.js";
import { contactCentreHull, hullGapIo } from "./sphere-convex-polyhedron.js";
import { contactBoxSphere, contactSphereBox, sphereBoxRadius } from "./sphere-cuboid.js";

/**
 * The rounding of the core distance less the radii, relative to their magnitudes: the
 * subtraction's half ulp and the witnesses' moves along the normal, 4 ε (as rounded-polytope.ts).
 */
const RADIUS_ROUNDING = 4 * 2 ** -52;

/**
 * Contact of sphere A and rounded box B (at `bInA`, A's frame) within `prediction`: false when
 * apart by more; else the signed distance, the unit normal from the sphere toward the box, the
 * sphere's surface point and the rounded box's.
 */
export function contactSphereRoundedCuboid(
  out: Contact,
  a: Sphere,
  b: RoundedCuboid,
  bInA: Isometry,
  prediction: number,
): boolean {
  const rS = a.radius;
  const rB = b.radius;
  sphereBoxRadius[0] = rS + rB;
  if (!contactSphereBox(out, b.core.halfExtents, bInA, prediction)) return false;
  const n = out.normal;
  out.pointA.x = n.x * rS;
  out.pointA.y = n.y * rS;
  out.pointA.z = n.z * rS;
  out.pointB.x = out.pointB.x - n.x * rB;
  out.pointB.y = out.pointB.y - n.y * rB;
  out.pointB.z = out.pointB.z - n.z * rB;
  return true;
}

/**
 * Contact of rounded box A and sphere B (at `bInA`, A's frame) within `prediction` (normal from
 * the box toward the sphere).
 */
export function contactRoundedCuboidSphere(
  out: Contact,
  a: RoundedCuboid,
  b: Sphere,
  bInA: Isometry,
  prediction: number,
): boolean {
  const rA = a.radius;
  const rS = b.radius;
  sphereBoxRadius[0] = rS + rA;
  if (!contactBoxSphere(out, a.core.halfExtents, bInA, prediction)) return false;
  const n = out.normal;
  const p = bInA.translation;
  out.pointA.x = out.pointA.x + n.x * rA;
  out.pointA.y = out.pointA.y + n.y * rA;
  out.pointA.z = out.pointA.z + n.z * rA;
  out.pointB.x = p.x - n.x * rS;
  out.pointB.y = p.y - n.y * rS;
  out.pointB.z = p.z - n.z * rS;
  return true;
}

/**
 * Contact of sphere A and rounded hull B (at `bInA`, A's frame) within `prediction`: false when
 * apart by more; else the signed distance, the unit normal from the sphere toward the hull, the
 * sphere's surface point and the rounded hull's.
 */
export function contactSphereRoundedConvexPolyhedron(
  out: Contact,
  a: Sphere,
  b: RoundedConvexPolyhedron,
  bInA: Isometry,
  prediction: number,
): boolean {
  const rS = a.radius;
  const rB = b.radius;
  hullGapIo[1] = rS;
  hullGapIo[2] = rB;
  if (contactCentreHull(out, b.core, bInA)) {
    // The gap's sign exact near 0 (a sphere resting exactly on a tilted face: 0, not ±1e-16).
    const d = hullGapIo[0];
    if (!(d <= prediction)) return false;
    out.distance = d;
    const n = out.normal;
    out.pointA.x = n.x * rS;
    out.pointA.y = n.y * rS;
    out.pointA.z = n.z * rS;
    out.pointB.x = out.pointB.x - n.x * rB;
    out.pointB.y = out.pointB.y - n.y * rB;
    out.pointB.z = out.pointB.z - n.z * rB;
    return true;
  }
  // The centre inside the core, on it or undecided: GJK/EPA on the sphere against the core, at
  // any gap, its error register taken alone and raised by the rounding of taking rB off (the
  // register keeps the largest of a composite's parts).
  const wanted = contactErrorIo[1] !== 0;
  const e0 = contactErrorIo[0];
  contactErrorIo[0] = 0;
  const found = contactConvexConvex(out, a, b.core, bInA, Number.POSITIVE_INFINITY);
  const ec = contactErrorIo[0];
  if (wanted && found && ec > 0) {
    const e = ec + RADIUS_ROUNDING * (Math.abs(out.distance) + rS + rB);
    contactErrorIo[0] = Math.max(e, e0);
  } else contactErrorIo[0] = Math.max(ec, e0);
  if (!found) return false;
  const d = out.distance - rB;
  if (!(d <= prediction)) return false;
  out.distance = d;
  const n = out.normal;
  out.pointB.x = out.pointB.x - n.x * rB;
  out.pointB.y = out.pointB.y - n.y * rB;
  out.pointB.z = out.pointB.z - n.z * rB;
  return true;
}
