/**
 * The narrow-phase dispatch: one table per query, indexed by the pair of `ShapeType`s, holding
 * the specialised routine where there is one (sphere–sphere, sphere–cuboid, cuboid–cuboid, …)
 * and GJK/EPA (`convex-convex`) for every other pair of convex shapes, as Box2D's contact
 * registers and parry's default query dispatcher do. A routine is registered once, for
 * `(typeA, typeB)` in `ShapeType` order; the mirrored order is answered by the same routine
 * with A and B swapped and the result flipped (normal negated, witness points exchanged).
 * A pair with no routine throws `CollideError("unsupported_pair")`.
 *
 * Every routine works in A's frame with B's pose in A's frame (`bInA`).
 */
import { CollideError } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import type { Cuboid } from "../shapes/cuboid.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { Contact, DistanceResult } from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import { contactCuboidCuboidSat, intersectsCuboidCuboid } from "./cuboid-cuboid.js";
import {
  contactSphereCuboid,
  distanceSphereCuboid,
  intersectsSphereCuboid,
} from "./sphere-cuboid.js";
import {
  contactSphereSphere,
  distanceSphereSphere,
  intersectsSphereSphere,
} from "./sphere-sphere.js";

/** Boolean overlap routine of a pair (touching counts). */
export type IntersectsFn = (a: Shape, b: Shape, bInA: Isometry) => boolean;
/** Closest-points routine of a pair; outputs in A's frame. */
export type DistanceFn = (
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
) => DistanceResult;
/** Contact routine of a pair; false when the gap exceeds `prediction`; outputs in A's frame. */
export type ContactFn = (
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
) => boolean;

const N = SHAPE_TYPE_COUNT;
const intersectsTable: (IntersectsFn | null)[] = new Array(N * N).fill(null);
const distanceTable: (DistanceFn | null)[] = new Array(N * N).fill(null);
const contactTable: (ContactFn | null)[] = new Array(N * N).fill(null);

const CONVEX_TYPES: readonly ShapeType[] = [
  ShapeType.Sphere,
  ShapeType.Cuboid,
  ShapeType.Capsule,
  ShapeType.Cylinder,
  ShapeType.Cone,
  ShapeType.ConvexPolyhedron,
  ShapeType.Triangle,
];

/** True when `type` has a support function (GJK/EPA applies). */
export function isConvexType(type: ShapeType): boolean {
  return CONVEX_TYPES.includes(type);
}

/**
 * Registers the routines of pair `(typeA, typeB)` with typeA ≤ typeB; the mirrored order is
 * derived. Any of the three may be omitted (the entry is left as it was).
 */
export function registerPair(
  typeA: ShapeType,
  typeB: ShapeType,
  fns: { intersects?: IntersectsFn; distance?: DistanceFn; contact?: ContactFn },
): void {
  const k = typeA * N + typeB;
  if (fns.intersects) intersectsTable[k] = fns.intersects;
  if (fns.distance) distanceTable[k] = fns.distance;
  if (fns.contact) contactTable[k] = fns.contact;
}

for (const ta of CONVEX_TYPES) {
  for (const tb of CONVEX_TYPES) {
    if (tb < ta) continue;
    registerPair(ta, tb, {
      intersects: intersectsConvexConvex as IntersectsFn,
      distance: distanceConvexConvex as DistanceFn,
      contact: contactConvexConvex as ContactFn,
    });
  }
}

registerPair(ShapeType.Sphere, ShapeType.Sphere, {
  intersects: intersectsSphereSphere as IntersectsFn,
  distance: distanceSphereSphere as DistanceFn,
  contact: contactSphereSphere as ContactFn,
});

registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
  intersects: intersectsSphereCuboid as IntersectsFn,
  distance: distanceSphereCuboid as DistanceFn,
  contact: contactSphereCuboid as ContactFn,
});

/**
 * Box–box contact: the 15-axis SAT when the boxes overlap or touch; when they are apart but
 * within a positive prediction distance, GJK gives the true gap (SAT only bounds it).
 */
function contactCuboidCuboid(
  out: Contact,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (contactCuboidCuboidSat(out, a, b, bInA)) return true;
  if (prediction <= 0) return false;
  return contactConvexConvex(out, a, b, bInA, prediction);
}

registerPair(ShapeType.Cuboid, ShapeType.Cuboid, {
  intersects: intersectsCuboidCuboid as IntersectsFn,
  contact: contactCuboidCuboid as ContactFn,
});

function unsupported(a: Shape, b: Shape, op: string): never {
  const na = SHAPE_TYPE_NAMES[a.type];
  const nb = SHAPE_TYPE_NAMES[b.type];
  throw new CollideError(
    "unsupported_pair",
    "",
    [na, nb],
    `${op} is not supported for the pair ${na}–${nb}`,
  );
}

const aInB = iso.identity();
const tmpContact: Contact = {
  distance: 0,
  normal: vec3.create(),
  pointA: vec3.create(),
  pointB: vec3.create(),
};
const tmpDistance: DistanceResult = { distance: 0, pointA: vec3.create(), pointB: vec3.create() };

/** aInB = inverse of bInA. */
function invert(bInA: Isometry): Isometry {
  return iso.invert(aInB, bInA);
}

/** True when A and B (B at `bInA`) overlap or touch. Throws `unsupported_pair`. */
export function intersectsPair(a: Shape, b: Shape, bInA: Isometry): boolean {
  if (a.type <= b.type) {
    const f = intersectsTable[a.type * N + b.type];
    if (!f) unsupported(a, b, "intersects");
    return f(a, b, bInA);
  }
  const f = intersectsTable[b.type * N + a.type];
  if (!f) unsupported(a, b, "intersects");
  return f(b, a, invert(bInA));
}

/** Closest points of A and B in A's frame (deepest points when they overlap). */
export function distancePair(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (a.type <= b.type) {
    const f = distanceTable[a.type * N + b.type];
    if (f) return f(out, a, b, bInA);
    const c = contactTable[a.type * N + b.type];
    if (!c) unsupported(a, b, "distance");
    return distanceFromContact(out, c, a, b, bInA);
  }
  const ab = invert(bInA);
  const f = distanceTable[b.type * N + a.type];
  if (f) f(tmpDistance, b, a, ab);
  else {
    const c = contactTable[b.type * N + a.type];
    if (!c) unsupported(a, b, "distance");
    distanceFromContact(tmpDistance, c, b, a, ab);
  }
  // tmpDistance is in B's frame with roles swapped.
  out.distance = tmpDistance.distance;
  iso.transformPoint(out.pointA, bInA, tmpDistance.pointB);
  iso.transformPoint(out.pointB, bInA, tmpDistance.pointA);
  return out;
}

/** Distance through a contact routine with an unbounded prediction (for pairs with no distance routine). */
function distanceFromContact(
  out: DistanceResult,
  c: ContactFn,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (!c(tmpContact, a, b, bInA, Infinity)) {
    // An unbounded prediction always yields a contact for convex shapes; be defensive.
    return distanceConvexConvex(out, a as ConvexShape, b as ConvexShape, bInA);
  }
  out.distance = Math.max(0, tmpContact.distance);
  vec3.copy(out.pointA, tmpContact.pointA);
  vec3.copy(out.pointB, tmpContact.pointB);
  return out;
}

/**
 * Contact of A and B in A's frame: false when their gap exceeds `prediction` (scene units);
 * otherwise `out` holds the signed distance, the unit normal from A toward B and the witness
 * points. Throws `unsupported_pair`.
 */
export function contactPair(
  out: Contact,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (a.type <= b.type) {
    const f = contactTable[a.type * N + b.type];
    if (!f) unsupported(a, b, "contact");
    return f(out, a, b, bInA, prediction);
  }
  const f = contactTable[b.type * N + a.type];
  if (!f) unsupported(a, b, "contact");
  if (!f(tmpContact, b, a, invert(bInA), prediction)) return false;
  // Flip: the routine answered in B's frame for the pair (B, A).
  out.distance = tmpContact.distance;
  iso.transformVector(out.normal, bInA, tmpContact.normal);
  vec3.negate(out.normal, out.normal);
  iso.transformPoint(out.pointA, bInA, tmpContact.pointB);
  iso.transformPoint(out.pointB, bInA, tmpContact.pointA);
  return true;
}
