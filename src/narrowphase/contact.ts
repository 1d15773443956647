/**
 * The results of pair routines. Pair routines work in A's local frame with B's pose given in
 * A's frame (`bInA`); every point and normal they write is in A's frame, and the query layer
 * converts to the world frame once.
 *
 * Signs (docs/DESIGN.md): `normal` is a unit vector from A toward B; `distance` is signed,
 * positive for a gap and negative for penetration (depth = max(0, −distance)); touching
 * (distance exactly 0) counts as intersecting.
 */

import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";

/** Closest points of two shapes: `distance` ≥ 0, witness points on A and on B. */
export interface DistanceResult {
  /** Euclidean distance between the shapes, scene units; 0 when they intersect. */
  distance: number;
  /** Closest point on A (or A's deepest point when intersecting). */
  pointA: Vec3;
  /** Closest point on B (or B's deepest point when intersecting). */
  pointB: Vec3;
}

/** One contact: signed distance, normal from A toward B, witness points on each shape. */
export interface Contact {
  /** Signed distance, scene units: gap > 0, penetration < 0. */
  distance: number;
  /** Unit normal from A toward B. */
  normal: Vec3;
  /** Witness point on A's surface (a composite's on its part's, as `pointB`). */
  pointA: Vec3;
  /**
   * Witness point on B's surface (a composite's: on the surface of the part it comes from — a
   * compound's child, which may lie inside another child, or a triangle; docs/FORMATS.md).
   */
  pointB: Vec3;
  /**
   * A bound on |`distance` − the true signed distance|, scene units, set by the `contact` query
   * (src/query/contact.ts): 0 where the pair's routine is exact to its rounding (the closed
   * forms, SAT, sphere and capsule pairs), else what the general narrow phase certified — an
   * upper bound attained along the normal against a lower bound from GJK's or EPA's polytope
   * (see `contactErrorIo` in src/narrowphase/contact.ts). For a composite the true value is its
   * deepest part's (a surface's triangle, not the whole surface); for two solid meshes one not
   * convex, or a convex shape or surface part crossing, inside or lying in a non-convex solid,
   * the solids' depth, whose upper bound the distance is: the bound less the depth of the
   * deepest point of one inside the other (src/narrowphase/mesh-solid.ts). Absent on contacts from the pair routines and the world.
   */
  errorBound?: number;
}

/**
 * The error register of the `contact` query: [0] the largest error bound (scene units) that
 * the general narrow phase (convex-convex.ts) certified since the query reset it, [1] non-zero
 * while a query wants it computed (the bound costs one support pair per call: the world's
 * narrow phase leaves it off). Written only by routines that are not exact to their rounding.
 */
export const contactErrorIo = new Float64Array(2);

/** One point of a contact manifold. */
export interface ManifoldPoint {
  /** Point on A's surface (a composite's: on its part's, as {@link Contact}'s witnesses). */
  pointA: Vec3;
  /** Point on B's surface (a composite's: on its part's, as {@link Contact}'s witnesses). */
  pointB: Vec3;
  /** Signed distance along the manifold normal (pointB − pointA)·normal. */
  distance: number;
  /** Feature id (which features of A and B made the point), for warm starting and caching. */
  featureId: number;
}

/** Maximum number of points in a contact manifold (Box2D, Jolt and parry keep 4). */
export const MAX_MANIFOLD_POINTS = 4;

/** A contact manifold: one normal and up to 4 points (`count` of `points` are valid). */
export interface ContactManifold {
  /** Unit normal from A toward B. */
  normal: Vec3;
  /** Preallocated points; only the first `count` are meaningful. */
  points: ManifoldPoint[];
  /** Number of valid points, 0..MAX_MANIFOLD_POINTS. */
  count: number;
}

// The records below are instances of private classes, not object literals: a class has a root
// map of its own, so no other object can join their maps' transition tree. An object literal
// shares its root with every literal of as many properties (and `{}` with every four-property
// one), so any `{ distance: someFunction, … }` anywhere in the process — an application's
// `registerPair(a, b, { distance, contact, manifold, intersects })` — would make a literal
// record's `distance` field tagged, and every double a routine stored there would allocate a heap
// number (docs/DESIGN.md, the rules).

class DistanceRecord implements DistanceResult {
  distance = 0;
  pointA: Vec3 = vec3.create();
  pointB: Vec3 = vec3.create();
}

class ContactRecord implements Contact {
  distance = 0;
  normal: Vec3 = vec3.create(0, 0, 1);
  pointA: Vec3 = vec3.create();
  pointB: Vec3 = vec3.create();
}

class ManifoldPointRecord implements ManifoldPoint {
  pointA: Vec3 = vec3.create();
  pointB: Vec3 = vec3.create();
  distance = 0;
  featureId = 0;
}

class ManifoldRecord implements ContactManifold {
  normal: Vec3 = vec3.create(0, 0, 1);
  points: ManifoldPoint[] = [];
  count = 0;
}

/** A new zeroed distance result (allocates). */
export function makeDistanceResult(): DistanceResult {
  return new DistanceRecord();
}

/** A new zeroed contact, normal (0, 0, 1) (allocates). */
export function makeContact(): Contact {
  return new ContactRecord();
}

/** A new zeroed manifold point (allocates). */
export function makeManifoldPoint(): ManifoldPoint {
  return new ManifoldPointRecord();
}

/** A new empty manifold with preallocated points (allocates). */
export function makeContactManifold(): ContactManifold {
  const m = new ManifoldRecord();
  for (let i = 0; i < MAX_MANIFOLD_POINTS; i++) m.points.push(new ManifoldPointRecord());
  return m;
}

/**
 * A contact of two rounded shapes from their cores' contact `out` (A's witness on A's core, B's on
 * B's, the unit normal from A toward B): its signed distance `d` (the cores' less both radii,
 * scene units) and each witness moved onto its rounded surface — A's by its radius `rA` along the
 * normal, B's by `rB` against it. False, `out` unchanged, when `d` exceeds `prediction`.
 * Allocates nothing.
 */
export function addMargins(
  out: Contact,
  d: number,
  rA: number,
  rB: number,
  prediction: number,
): boolean {
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

/** out = c with A and B swapped: normal negated, witness points exchanged. */
export function flipContact(out: Contact, c: Contact): Contact {
  out.distance = c.distance;
  vec3.negate(out.normal, c.normal);
  const ax = c.pointA.x;
  const ay = c.pointA.y;
  const az = c.pointA.z;
  vec3.copy(out.pointA, c.pointB);
  vec3.set(out.pointB, ax, ay, az);
  return out;
}

/**
 * out = contact `c` of the pair (B, A) given in B's frame, re-expressed for the pair (A, B) in
 * A's frame (`bInA` = B's pose in A's frame): normal rotated then negated (−x: a zero component
 * turns to −0), witness points exchanged and transformed, distance kept. `out` must not alias
 * `c`. The one flip of every routine that answers the other order (pair-table.ts's flipped
 * entries, composite.ts's frame swap and posed parts). Returns out.
 */
export function flipContactInto(out: Contact, c: Contact, bInA: Isometry): Contact {
  out.distance = c.distance;
  iso.transformVector(out.normal, bInA, c.normal);
  vec3.negate(out.normal, out.normal);
  iso.transformPoint(out.pointA, bInA, c.pointB);
  iso.transformPoint(out.pointB, bInA, c.pointA);
  return out;
}

/**
 * out = closest points `d` of the pair (B, A) given in B's frame, re-expressed for (A, B) in A's
 * frame (`bInA` = B's pose in A's frame): witness points exchanged and transformed, distance
 * kept. `out` must not alias `d`. Returns out.
 */
export function flipDistanceInto(
  out: DistanceResult,
  d: DistanceResult,
  bInA: Isometry,
): DistanceResult {
  out.distance = d.distance;
  iso.transformPoint(out.pointA, bInA, d.pointB);
  iso.transformPoint(out.pointB, bInA, d.pointA);
  return out;
}

/** out = the one-point manifold of `contact` (feature id 0). Returns out. */
export function singleContactManifold(out: ContactManifold, contact: Contact): ContactManifold {
  vec3.copy(out.normal, contact.normal);
  const p = out.points[0];
  vec3.copy(p.pointA, contact.pointA);
  vec3.copy(p.pointB, contact.pointB);
  p.distance = contact.distance;
  p.featureId = 0;
  out.count = 1;
  return out;
}

/**
 * out = manifold `m` of the pair (B, A) given in B's frame, re-expressed for the pair (A, B) in
 * A's frame (`bInA` = B's pose in A's frame): normal rotated and negated, witness points
 * exchanged and transformed; distances and feature ids kept. `out` must not alias `m`. The normal
 * is reversed as 0 − x, as the world's narrow phase reverses it (a zero component stays +0), so
 * that the `manifold` query of a pair taken in the other order is the world's record bit for bit.
 */
export function flipManifold(out: ContactManifold, m: ContactManifold, bInA: Isometry): void {
  const n = out.normal;
  iso.transformVector(n, bInA, m.normal);
  n.x = 0 - n.x;
  n.y = 0 - n.y;
  n.z = 0 - n.z;
  for (let q = 0; q < m.count; q++) {
    const s = m.points[q];
    const d = out.points[q];
    iso.transformPoint(d.pointA, bInA, s.pointB);
    iso.transformPoint(d.pointB, bInA, s.pointA);
    d.distance = s.distance;
    d.featureId = s.featureId;
  }
  out.count = m.count;
}

/** out = a copy of manifold `m` (normal, count and the valid points). `out` may alias `m`. */
export function copyManifold(out: ContactManifold, m: ContactManifold): ContactManifold {
  if (out === m) return out;
  vec3.copy(out.normal, m.normal);
  for (let q = 0; q < m.count; q++) {
    const s = m.points[q];
    const d = out.points[q];
    vec3.copy(d.pointA, s.pointA);
    vec3.copy(d.pointB, s.pointB);
    d.distance = s.distance;
    d.featureId = s.featureId;
  }
  out.count = m.count;
  return out;
}
