/**
 * The pair table: one entry per ordered pair of `ShapeType`s and per operation (intersects,
 * distance, contact, manifold, and the optional world-pose intersects), as Box2D's contact
 * registers and parry's query dispatcher. A routine is registered once for `(typeA, typeB)` by
 * {@link registerPair}; the mirrored entry `(typeB, typeA)` is written at the same time with
 * its flip flag set (one flag per operation), so the flip is decided when the table is written
 * and a lookup is one load: a flipped entry is called with A and B swapped and its answer
 * re-expressed for (A, B) (normal negated, witness points exchanged, moved into A's frame).
 *
 * The table starts empty and imports no pair routine, so an application bundles only the
 * routines it registers. The full set — capability dispatch (support-mapped pairs → GJK/EPA,
 * composites → the generic composite mid-phase) with the specialised pairs as overrides — is
 * registered by src/narrowphase/dispatch.ts, which the main entry (`collide`) loads; the entry
 * `collide/core` leaves the table to the application (`registerPair` with the routines it
 * needs, or `registerDefaultPairs()` for all of them). An entry left empty is a pair with no
 * answer: `CollideError("unsupported_pair")`.
 *
 * Every routine works in A's frame with B's pose in A's frame (`bInA`), except the world-pose
 * intersects (`intersectsPoses`), which takes both world poses and may decline (−1) whatever it
 * cannot decide exactly. Composite routines that call back into this table copy `bInA` at entry
 * and write `out` only after their last nested call, so the flip scratch below is never
 * overwritten while in use.
 *
 * Face-normal snaps ({@link registerFaceNormalSnap}): a routine answering in one shape's frame
 * carries the other shape's face normal through the rotations between the frames, and the
 * queries rotate the answer into the world; each rotation rounds. A type may register a snap
 * that gives the world normal back as its exact face normal (the heightfield's,
 * src/narrowphase/heightfield-normal.ts); the `contact` and `manifold` queries apply it.
 */
import { CollideError, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_COUNT, SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
  contactErrorIo,
  flipContactInto,
  flipDistanceInto,
  flipManifold,
  makeContact,
  makeContactManifold,
  makeDistanceResult,
  singleContactManifold,
} from "./contact.js";
import {
  isScalablePair,
  offsetOutOfRange,
  pairRescaleFactor,
  scaledPose,
  scaledShape,
  solidMeshRescaleFactor,
  triangleRescaleFactor,
} from "./extreme-scale.js";

/** Boolean overlap routine of a pair (touching counts). */
export type IntersectsFn<A extends Shape = Shape, B extends Shape = Shape> = (
  a: A,
  b: B,
  bInA: Isometry,
) => boolean;
/** Closest-points routine of a pair; outputs in A's frame (deepest points when overlapping). */
export type DistanceFn<A extends Shape = Shape, B extends Shape = Shape> = (
  out: DistanceResult,
  a: A,
  b: B,
  bInA: Isometry,
) => DistanceResult;
/** Contact routine of a pair; false when the gap exceeds `prediction`; outputs in A's frame. */
export type ContactFn<A extends Shape = Shape, B extends Shape = Shape> = (
  out: Contact,
  a: A,
  b: B,
  bInA: Isometry,
  prediction: number,
) => boolean;
/** Manifold routine of a pair: false when the gap exceeds `prediction`; else 1–4 points, A's frame. */
export type ManifoldFn<A extends Shape = Shape, B extends Shape = Shape> = (
  out: ContactManifold,
  a: A,
  b: B,
  bInA: Isometry,
  prediction: number,
) => boolean;

/**
 * World-pose overlap routine of a pair: A at world pose `poseA`, B at `poseB`. Returns 1 when
 * they overlap or touch, 0 when apart, and −1 when it cannot decide exactly (a pose that is not
 * a finite translation with a unit quaternion, a field that is not a number, sizes outside the
 * range its arithmetic trusts): the caller then takes the validating, A-frame path. For pairs
 * whose test is cheaper in the world frame than forming B's pose in A's frame (sphere–cuboid:
 * one inverse rotation).
 */
export type IntersectsPosesFn<A extends Shape = Shape, B extends Shape = Shape> = (
  a: A,
  poseA: Isometry,
  b: B,
  poseB: Isometry,
) => number;

/** The routines of one pair, each optional (see {@link registerPair}). */
export interface PairRoutines<A extends Shape, B extends Shape> {
  /** Boolean overlap in A's frame. */
  intersects?: IntersectsFn<A, B>;
  /** The world-pose overlap test tried first by the `intersects` query (see {@link IntersectsPosesFn}). */
  intersectsPoses?: IntersectsPosesFn<A, B>;
  /** Closest points (without one, `distance` is answered through `contact`). */
  distance?: DistanceFn<A, B>;
  /** Contact within a prediction distance. */
  contact?: ContactFn<A, B>;
  /** Contact manifold within a prediction distance. */
  manifold?: ManifoldFn<A, B>;
}

const N = SHAPE_TYPE_COUNT;

/** The keys of {@link PairRoutines}, for {@link registerPair}'s check. */
const ROUTINE_KEY = /^(intersects(Poses)?|distance|contact|manifold)$/;

/** Throws `CollideError` naming `field` unless `type` is an integer in [0, N). */
function checkTypeId(field: string, type: number): void {
  if (!(Number.isInteger(type) && type >= 0 && type < N))
    invalidValue(field, type, `must be an integer in [0, ${N})`);
}

/** One operation's column of the table: a routine per ordered type pair and its flip flag. */
interface Column<F> {
  fns: (F | null)[];
  /**
   * Per entry: 1 when the routine answers the mirrored pair (call with A and B swapped); 2 when
   * it is the entry's own but the queries solve the pair in the other order (see
   * {@link registerOrderedPair}); 0 otherwise.
   */
  flipped: Uint8Array;
}

function column<F>(): Column<F> {
  return { fns: new Array<F | null>(N * N).fill(null), flipped: new Uint8Array(N * N) };
}

const intersectsColumn = column<IntersectsFn>();
/** The world-pose routines, the mirrored entries already flipped (see {@link registerPair}). */
const intersectsPosesTable: (IntersectsPosesFn | null)[] = new Array(N * N).fill(null);
const distanceColumn = column<DistanceFn>();
const contactColumn = column<ContactFn>();
const manifoldColumn = column<ManifoldFn>();
const intersectsTable = intersectsColumn.fns;
const distanceTable = distanceColumn.fns;
const contactTable = contactColumn.fns;
const manifoldTable = manifoldColumn.fns;

/** Throws `CollideError` naming `fns` unless it is an object (null read `.intersects` of null). */
function checkFns(fns: unknown): void {
  if (fns === null || typeof fns !== "object")
    invalidValue("fns", fns, "must be an object of routines");
}

/**
 * Registers the routines of pair `(typeA, typeB)` (any order; the routines take A of `typeA`
 * and B of `typeB`); the mirrored entry is written as a flipped one. A routine given replaces
 * the one registered before; one omitted leaves the entry as it was. Typed: the shapes the
 * routines take are the types' own, so no cast is needed at the registration.
 * @throws CollideError `invalid_value` naming `typeA` or `typeB` for a type id that is not an
 * integer in [0, SHAPE_TYPE_COUNT) (the table's size: 99 wrote past it, 1.5 between entries),
 * `fns` when it is not an object (null), or `fns.<key>` for a key that is not one of {@link PairRoutines} (a misspelled `intersect` was
 * ignored) or a routine that is not a function (undefined leaves the entry as it was).
 */
export function registerPair<A extends Shape, B extends Shape>(
  typeA: A["type"],
  typeB: B["type"],
  fns: PairRoutines<A, B>,
): void {
  // Kept small: it is in every `collide/core` app (test/browser/bundle.test.ts).
  checkTypeId("typeA", typeA);
  checkTypeId("typeB", typeB);
  checkFns(fns);
  for (const key in fns) {
    const f = (fns as Record<string, unknown>)[key];
    if (!ROUTINE_KEY.test(key) || (f !== undefined && typeof f !== "function"))
      invalidValue(`fns.${key}`, f, `must be a function under a key ${ROUTINE_KEY.source}`);
  }
  const k = typeA * N + typeB;
  const m = typeB * N + typeA;
  set(k, m, fns.intersects as IntersectsFn | undefined, intersectsColumn);
  const poses = fns.intersectsPoses as IntersectsPosesFn | undefined;
  if (poses) {
    // Written flipped here, once: the mirrored entry is a routine that swaps its arguments, so a
    // lookup is one load and one call.
    intersectsPosesTable[k] = poses;
    if (m !== k) intersectsPosesTable[m] = (a, poseA, b, poseB) => poses(b, poseB, a, poseA);
  }
  set(k, m, fns.distance as DistanceFn | undefined, distanceColumn);
  set(k, m, fns.contact as ContactFn | undefined, contactColumn);
  set(k, m, fns.manifold as ManifoldFn | undefined, manifoldColumn);
}

/**
 * Registers routines for the ordered pair `(typeA, typeB)` alone, unflipped, leaving the
 * mirrored entry as it is: for a pair whose two orders each have a routine of their own (one
 * closed form with a frame adaptor per order, as sphere–triangle's), so that neither order pays
 * the flip. Call it after the
 * {@link registerPair} of the pair, which writes both entries.
 */
export function registerOrderedPair<A extends Shape, B extends Shape>(
  typeA: A["type"],
  typeB: B["type"],
  fns: PairRoutines<A, B>,
): void {
  checkFns(fns);
  const k = typeA * N + typeB;
  set(k, k, fns.intersects as IntersectsFn | undefined, intersectsColumn);
  const poses = fns.intersectsPoses as IntersectsPosesFn | undefined;
  if (poses) intersectsPosesTable[k] = poses;
  set(k, k, fns.distance as DistanceFn | undefined, distanceColumn);
  set(k, k, fns.contact as ContactFn | undefined, contactColumn);
  set(k, k, fns.manifold as ManifoldFn | undefined, manifoldColumn);
  // Both orders with routines of their own: the queries solve the one whose A has the larger type
  // id (the box or the triangle, in whose frame those closed forms work), the other entry marked
  // 2, so that both orders of a query compute the same thing (see pairFlipped; attack-t: a
  // sphere–box pair 1e-16 apart intersected in one order and not in the other).
  const m = typeB * N + typeA;
  const q = typeA > typeB ? m : k;
  for (const c of [
    intersectsColumn,
    distanceColumn,
    contactColumn,
    manifoldColumn,
  ] as Column<unknown>[]) {
    if (m !== k && c.fns[k] && c.fns[m] && c.flipped[k] === 0 && c.flipped[m] === 0)
      c.flipped[q] = 2;
  }
}

function set<F>(k: number, m: number, f: F | undefined, c: Column<F>): void {
  if (!f) return;
  c.fns[k] = f;
  c.flipped[k] = 0;
  if (m !== k) {
    c.fns[m] = f;
    c.flipped[m] = 1;
  }
}

/**
 * The contact routine of the ordered type pair `(typeA, typeB)`, or null. With
 * {@link contactFlipped}, for callers that form B's pose in A's frame themselves in the order the
 * routine takes (the world's narrow phase), instead of {@link contactPair}'s inversion.
 */
export function contactRoutine(typeA: number, typeB: number): ContactFn | null {
  return contactTable[typeA * N + typeB];
}

/**
 * The distance routine registered for the ordered type pair `(typeA, typeB)` in that order (its
 * own entry, also one that {@link registerOrderedPair} marked for the queries to solve in the
 * other order), or null when the entry is empty or the mirrored pair's routine (flipped): for
 * callers that measure a pair in A's frame and order themselves, without {@link distancePair}'s
 * flip and change of units (src/narrowphase/face-depth.ts: a shape's touch on a mesh triangle by
 * the pair's exact routine).
 */
export function distanceRoutine(typeA: number, typeB: number): DistanceFn | null {
  const k = typeA * N + typeB;
  return distanceColumn.flipped[k] === 1 ? null : distanceTable[k];
}

/** True when {@link contactRoutine}`(typeA, typeB)` takes its shapes as (B, A). */
export function contactFlipped(typeA: number, typeB: number): boolean {
  return contactColumn.flipped[typeA * N + typeB] === 1;
}

/**
 * True when (typeA, typeB) has a contact routine of its own but the queries solve the pair in
 * the other order, with {@link contactRoutine}`(typeB, typeA)` (the entry marked 2 by
 * {@link registerOrderedPair}: sphere–box, sphere–triangle), so that the world answers as they do.
 */
export function contactOrderSwapped(typeA: number, typeB: number): boolean {
  return contactColumn.flipped[typeA * N + typeB] === 2;
}

/**
 * True when the queries answer `op` for the ordered types (typeA, typeB) in the order (typeB,
 * typeA): when the table answers it by calling the routine registered for (typeB, typeA) with the
 * shapes swapped, and when both orders have routines of their own ({@link registerOrderedPair}:
 * sphere–box, sphere–triangle) and typeB is the larger type id (the entry marked 2). The queries then call the routine in its own order themselves,
 * with the pose formed from the world poses in that order (src/query/frames.ts,
 * `swappedPairPose`), so that both orders of a query compute the same thing (attack-t: a
 * sphere–box pair 1e-16 apart intersected in one order and not in the other).
 */
export function pairFlipped(
  op: "intersects" | "distance" | "contact" | "manifold",
  typeA: number,
  typeB: number,
): boolean {
  const k = typeA * N + typeB;
  const c =
    op === "intersects"
      ? intersectsColumn
      : op === "distance"
        ? // Without a distance routine, distance is answered through the contact routine.
          distanceTable[k] === null
          ? contactColumn
          : distanceColumn
        : op === "contact"
          ? contactColumn
          : manifoldColumn;
  return c.flipped[k] !== 0;
}

/** True when `op` has a routine for the pair of types (in either order). */
export function hasPairRoutine(
  op: "intersects" | "distance" | "contact" | "manifold",
  typeA: number,
  typeB: number,
): boolean {
  const t =
    op === "intersects"
      ? intersectsTable
      : op === "distance"
        ? distanceTable
        : op === "contact"
          ? contactTable
          : manifoldTable;
  return t[typeA * N + typeB] != null;
}

/**
 * True when the `intersects` query of the ordered types (typeA, typeB) is `fn` itself, called in
 * that order on B's pose in A's frame: the table's unflipped routine, with no world-pose routine
 * before it. (The world's narrow phase uses it to know what the query would compute.)
 */
export function intersectsRoutineIs(typeA: number, typeB: number, fn: IntersectsFn): boolean {
  const k = typeA * N + typeB;
  return (
    intersectsTable[k] === fn &&
    intersectsColumn.flipped[k] === 0 &&
    intersectsPosesTable[k] === null
  );
}

/**
 * The world-pose overlap test of A at `poseA` and B at `poseB` when the pair registered one:
 * 1 (overlap or touch), 0 (apart); −1 when there is none or it declined (see
 * {@link IntersectsPosesFn}).
 */
export function intersectsPosesPair(a: Shape, poseA: Isometry, b: Shape, poseB: Isometry): number {
  const f = intersectsPosesTable[a.type * N + b.type];
  return f === null ? -1 : f(a, poseA, b, poseB);
}

/**
 * Makes a world contact normal exactly a shape's face normal when it is one up to the rounding
 * of the frame changes (src/narrowphase/heightfield-normal.ts): `normal` and `point` (the
 * contact's point on `shape`) in the world frame, `shape` at world `pose`; `sign` +1 when the
 * normal points out of the shape (it is shape A), −1 when into it (shape B). Writes `normal`
 * only.
 */
export type FaceNormalSnapFn = (
  normal: Vec3,
  shape: Shape,
  pose: Isometry,
  point: Vec3,
  sign: number,
) => void;

const faceNormalSnaps: (FaceNormalSnapFn | null)[] = /* @__PURE__ */ new Array(N).fill(null);

/**
 * Registers (or, with null, removes) the face-normal snap of a shape type: the `contact` and
 * `manifold` queries apply it to their world answers (see {@link snapFaceNormal}).
 */
export function registerFaceNormalSnap(type: number, fn: FaceNormalSnapFn | null): void {
  faceNormalSnaps[type] = fn;
}

/** True when shape type `type` registered a face-normal snap (see {@link registerFaceNormalSnap}). */
export function hasFaceNormalSnap(type: number): boolean {
  return faceNormalSnaps[type] !== null;
}

/**
 * The world answer's normal (A toward B) through the snaps of A's and B's types, when they
 * registered one; `pointA`, `pointB` are the contact's points on A and B (world frame). The
 * pair routines answer in A's frame, flipped from B's when the table holds the mirrored pair,
 * and the queries rotate that answer into the world: a face normal of B (or of A, after a flip)
 * arrives rounded by the rotations between the frames; the snap gives it back exactly.
 */
export function snapFaceNormal(
  normal: Vec3,
  a: Shape,
  poseA: Isometry,
  pointA: Vec3,
  b: Shape,
  poseB: Isometry,
  pointB: Vec3,
): void {
  const fa = faceNormalSnaps[a.type];
  if (fa) fa(normal, a, poseA, pointA, 1);
  const fb = faceNormalSnaps[b.type];
  if (fb) fb(normal, b, poseB, pointB, -1);
}

/** Throws `CollideError("unsupported_pair")` naming the pair and the operation. */
export function unsupportedPair(a: Shape, b: Shape, op: string): never {
  const na = SHAPE_TYPE_NAMES[a.type] ?? String(a.type);
  const nb = SHAPE_TYPE_NAMES[b.type] ?? String(b.type);
  throw new CollideError(
    "unsupported_pair",
    "",
    [na, nb],
    `${op} is not supported for the pair ${na}–${nb}`,
  );
}

const aInB = iso.identity();
const flipContactScratch: Contact = /* @__PURE__ */ makeContact();
const flipDistance: DistanceResult = /* @__PURE__ */ makeDistanceResult();
const flipManifoldScratch: ContactManifold = /* @__PURE__ */ makeContactManifold();

/**
 * The rescale factor of a pair far from unit scale (src/narrowphase/extreme-scale.ts), or 1: a
 * comparison of B's offset almost always; a solid mesh's box too (its offset to the other shape
 * can be small when the mesh is huge).
 */
function rescaleOf(a: Shape, b: Shape, bInA: Isometry): number {
  if (offsetOutOfRange(bInA)) return isScalablePair(a, b) ? pairRescaleFactor(a, b, bInA) : 1;
  if (a.type === ShapeType.Triangle || b.type === ShapeType.Triangle)
    return triangleRescaleFactor(a, b, bInA);
  if (a.type !== ShapeType.TriangleMesh && b.type !== ShapeType.TriangleMesh) return 1;
  return solidMeshRescaleFactor(a, b, bInA);
}

/** True when A and B (B at `bInA`, A's frame) overlap or touch. Throws `unsupported_pair`. */
export function intersectsPair(a: Shape, b: Shape, bInA: Isometry): boolean {
  const k = rescaleOf(a, b, bInA);
  if (k !== 1) return intersectsPair(scaledShape(a, k), scaledShape(b, k), scaledPose(bInA, k));
  const e = a.type * N + b.type;
  const f = intersectsTable[e];
  if (!f) return unsupportedPair(a, b, "intersects");
  if (intersectsColumn.flipped[e] !== 1) return f(a, b, bInA);
  return f(b, a, iso.invert(aInB, bInA));
}

/**
 * Closest points of A and B in A's frame: `out.distance` ≥ 0; when they overlap, distance 0
 * and the deepest points of their contact. A pair without a distance routine is answered
 * through its contact routine with an unbounded prediction. Throws `unsupported_pair`.
 */
export function distancePair(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  const k = rescaleOf(a, b, bInA);
  if (k !== 1) {
    distancePair(out, scaledShape(a, k), scaledShape(b, k), scaledPose(bInA, k));
    unscale(out, 1 / k);
    return out;
  }
  const e = a.type * N + b.type;
  const f = distanceTable[e];
  if (!f) return distanceFromContact(out, a, b, bInA);
  if (distanceColumn.flipped[e] !== 1) return f(out, a, b, bInA);
  f(flipDistance, b, a, iso.invert(aInB, bInA));
  return flipDistanceInto(out, flipDistance, bInA);
}

const viaContact: Contact = /* @__PURE__ */ makeContact();

/** Distance through the pair's contact routine with an unbounded prediction. */
function distanceFromContact(
  out: DistanceResult,
  a: Shape,
  b: Shape,
  bInA: Isometry,
): DistanceResult {
  if (!contactTable[a.type * N + b.type]) return unsupportedPair(a, b, "distance");
  if (!contactPair(viaContact, a, b, bInA, Infinity)) return unsupportedPair(a, b, "distance");
  out.distance = Math.max(0, viaContact.distance);
  vec3.copy(out.pointA, viaContact.pointA);
  vec3.copy(out.pointB, viaContact.pointB);
  return out;
}

/** Divides a rescaled answer's lengths by the scale (`inv` = 1/k, a power of two: exact). */
function unscale(out: Contact | DistanceResult, inv: number): void {
  out.distance *= inv;
  vec3.scale(out.pointA, out.pointA, inv);
  vec3.scale(out.pointB, out.pointB, inv);
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
  const k = rescaleOf(a, b, bInA);
  if (k !== 1) {
    // The error register (src/narrowphase/contact.ts) is raised in the scaled units: brought
    // back by 1/k too (a cone–cylinder pair of 1e40 reported an errorBound of 4e-13).
    const e0 = contactErrorIo[0];
    contactErrorIo[0] = 0;
    const hit = contactPair(
      out,
      scaledShape(a, k),
      scaledShape(b, k),
      scaledPose(bInA, k),
      prediction * k,
    );
    const e = contactErrorIo[0] * (1 / k);
    contactErrorIo[0] = Math.max(e, e0);
    if (!hit) return false;
    unscale(out, 1 / k);
    return true;
  }
  const e = a.type * N + b.type;
  const f = contactTable[e];
  if (!f) return unsupportedPair(a, b, "contact");
  if (contactColumn.flipped[e] !== 1) return f(out, a, b, bInA, prediction);
  const t = flipContactScratch;
  if (!f(t, b, a, iso.invert(aInB, bInA), prediction)) return false;
  // The routine answered (B, A) in B's frame.
  flipContactInto(out, t, bInA);
  return true;
}

/**
 * The contact manifold of A and B in A's frame: false when their gap exceeds `prediction`; else
 * `out` holds one normal (A toward B) and 1–4 points. Throws `unsupported_pair`.
 */
export function manifoldPair(
  out: ContactManifold,
  a: Shape,
  b: Shape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const k = rescaleOf(a, b, bInA);
  if (k !== 1) {
    const sa = scaledShape(a, k);
    const sb = scaledShape(b, k);
    if (!manifoldPair(out, sa, sb, scaledPose(bInA, k), prediction * k)) return false;
    const inv = 1 / k;
    for (let i = 0; i < out.count; i++) {
      const p = out.points[i];
      vec3.scale(p.pointA, p.pointA, inv);
      vec3.scale(p.pointB, p.pointB, inv);
      p.distance *= inv;
    }
    return true;
  }
  const e = a.type * N + b.type;
  const f = manifoldTable[e];
  if (!f) return unsupportedPair(a, b, "manifold");
  if (manifoldColumn.flipped[e] !== 1) return f(out, a, b, bInA, prediction);
  if (!f(flipManifoldScratch, b, a, iso.invert(aInB, bInA), prediction)) return false;
  flipManifold(out, flipManifoldScratch, bInA);
  return true;
}

/** A manifold routine that widens the pair's contact (the `…FromContact` routines' form). */
export type FromContactFn<A extends Shape, B extends Shape> = (
  out: ContactManifold,
  a: A,
  b: B,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
) => unknown;

/**
 * The table's distance routine of a pair from its contact routine, asked with an unbounded
 * prediction: the distance is the contact's signed distance clamped at 0 (0 when they overlap;
 * scene units, A's frame), the witnesses its points (each pair gets its own contact scratch).
 * When the contact routine answers false even so (a non-finite pair), `fallback`'s answer when
 * one is given (GJK's, `distanceConvexConvex`, for the exact polytope pairs: the table imports
 * no routine, so the caller names it), else the contact's record as it stands.
 */
export function distanceViaContact<A extends Shape, B extends Shape>(
  contactFn: ContactFn<A, B>,
  fallback?: DistanceFn<A, B>,
): DistanceFn<A, B> {
  const c = makeContact();
  return (out, a, b, bInA) => {
    if (!contactFn(c, a, b, bInA, Number.POSITIVE_INFINITY) && fallback) {
      return fallback(out, a, b, bInA);
    }
    out.distance = Math.max(0, c.distance);
    vec3.copy(out.pointA, c.pointA);
    vec3.copy(out.pointB, c.pointB);
    return out;
  };
}

/**
 * The table's intersects routine of a pair from its contact routine: true when the contact
 * within a prediction of 0 is found (overlap or touch, the contact's signed distance ≤ 0), so
 * that `intersects`, `distance` and `contact` decide on one number (each pair gets its own
 * contact scratch).
 */
export function intersectsViaContact<A extends Shape, B extends Shape>(
  contactFn: ContactFn<A, B>,
): IntersectsFn<A, B> {
  const c = makeContact();
  return (a, b, bInA) => contactFn(c, a, b, bInA, 0);
}

/**
 * The table's manifold routine of a pair from its contact routine and a routine that widens a
 * contact into a manifold (each such pair gets its own contact scratch).
 */
export function manifoldViaContact<A extends Shape, B extends Shape>(
  contactFn: ContactFn<A, B>,
  widen: FromContactFn<A, B>,
): ManifoldFn<A, B> {
  const c = makeContact();
  return (out, a, b, bInA, prediction) => {
    if (!contactFn(c, a, b, bInA, prediction)) return false;
    widen(out, a, b, bInA, c, prediction);
    return true;
  };
}

/**
 * The manifold routine of a pair whose manifold is its one contact (a sphere against anything:
 * one point, feature id 0, the normal normalised — what `manifoldFromContact` answers for a
 * sphere), from its contact routine; needs none of the clipping code.
 */
export function manifoldOfSingleContact<A extends Shape, B extends Shape>(
  contactFn: ContactFn<A, B>,
): ManifoldFn<A, B> {
  const c = makeContact();
  return (out, a, b, bInA, prediction) => {
    if (!contactFn(c, a, b, bInA, prediction)) return false;
    singleContactManifold(out, c);
    if (!vec3.tryNormalize(out.normal, c.normal)) vec3.copy(out.normal, c.normal);
    return true;
  };
}
