/**
 * The narrow phase of one candidate pair of the collision world, as one function over the
 * world's structure-of-arrays storage, so that the world's own step and the worker threads of
 * a parallel executor (src/parallel/) run exactly the same operations in the same order and so
 * produce bitwise-identical contacts.
 *
 * For slots `lo < hi`: a sensor pair (either body a sensor) gets the exact boolean overlap test
 * through the pair table. Any other pair is first tested with the bodies' bounding spheres in
 * the world frame (each body's bounding radius, from its shape definition, cached per slot), which
 * settles most candidate pairs of a broad phase before any relative pose is formed; then the
 * pair table's contact routine for the two shape types is looked up with its flip and called in
 * the order it takes (with the relative pose formed in that order, as the `contact` query forms
 * it, so that every contact is bitwise the query's), and the contact within the
 * prediction distance is widened into a manifold of up to 4 points in that same order
 * (`manifoldFromContact` for two convex shapes, else the table's manifold, else the single
 * contact), converted to the world frame once. A contact within a rounding band of touching is
 * decided by the pair's intersects test, as the queries decide it (src/narrowphase/touching.ts). The result is written as one record of
 * {@link NARROW_RECORD_STRIDE} doubles in the layout of the contact cache
 * (src/world/contact-cache.ts) from offset 2 on:
 *
 * `[kind, pairIndex, distance, normal xyz, count, count × (pointA xyz, pointB xyz, distance, featureId)]`
 *
 * where `kind` is {@link NARROW_NONE}, {@link NARROW_SENSOR} or {@link NARROW_CONTACT} and
 * `pairIndex` is left to the caller; the record is that of (lower slot, higher slot) whichever
 * order the routine took.
 */

import { WORLD_BOUND_REJECT_PAD } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import { sameTypeSwapped } from "../narrowphase/canonical-order.js";
import type { Contact, ContactManifold } from "../narrowphase/contact.js";
import { MAX_MANIFOLD_POINTS, makeContact, makeContactManifold } from "../narrowphase/contact.js";
import {
  contactCuboidCuboid,
  intersectsCuboidCuboid,
  lastCuboidSat,
  manifoldCuboidCuboid,
} from "../narrowphase/cuboid-cuboid.js";
import { offsetOutOfRange } from "../narrowphase/extreme-scale.js";
import { manifoldFromContact } from "../narrowphase/manifold.js";
import {
  type ContactFn,
  contactFlipped,
  contactOrderSwapped,
  contactPair,
  contactRoutine,
  hasFaceNormalSnap,
  type IntersectsFn,
  intersectsRoutineIs,
  manifoldPair,
  snapFaceNormal,
} from "../narrowphase/pair-table.js";
import {
  agreeContact,
  intersectsAsQuery,
  intersectsInQueryOrder,
  touchReach,
} from "../narrowphase/touching.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { boundingRadiusOf } from "../shapes/registry.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { FLAG_CONVEX, FLAG_SENSOR } from "./body-store.js";

/** Record kind: the pair does not touch (nothing to report). */
export const NARROW_NONE = 0;
/** Record kind: a sensor pair that overlaps (no manifold). */
export const NARROW_SENSOR = 1;
/** Record kind: a touching (or within-prediction) pair with a world-frame manifold. */
export const NARROW_CONTACT = 2;
/**
 * Record kind of a parallel narrow phase that was given the move buffer
 * (`NarrowPhaseInput.dirty`, src/world/executor.ts): a pair of two unmoved bodies, not tested,
 * whose last result the world carries over. Only `kind` and `pairIndex` are written.
 */
export const NARROW_CARRY = 3;

/** Doubles per manifold point in a narrow-phase record. */
export const NARROW_POINT_STRIDE = 8;
/** Doubles before the points: kind, pairIndex, distance, normal xyz, count. */
export const NARROW_HEADER = 7;
/** Doubles per narrow-phase record (header + 4 points), equal to the contact cache's stride. */
export const NARROW_RECORD_STRIDE = NARROW_HEADER + NARROW_POINT_STRIDE * MAX_MANIFOLD_POINTS;

const poseA = iso.identity();
const poseB = iso.identity();
const bInA = iso.identity();
const aInB = iso.identity();
const contactScratch: Contact = makeContact();
const manifoldScratch: ContactManifold = makeContactManifold();

/** Reads the pose of `slot` from the 7-doubles-per-slot array `pose` into `out`. */
function readPose(out: Isometry, pose: Float64Array, slot: number): void {
  const k = 7 * slot;
  out.translation.x = pose[k];
  out.translation.y = pose[k + 1];
  out.translation.z = pose[k + 2];
  out.rotation.x = pose[k + 3];
  out.rotation.y = pose[k + 4];
  out.rotation.z = pose[k + 5];
  out.rotation.w = pose[k + 6];
}

/** out = the one-point manifold of contact `c` (feature id 0). */
function singleContact(out: ContactManifold, c: Contact): void {
  vec3.copy(out.normal, c.normal);
  const p = out.points[0];
  vec3.copy(p.pointA, c.pointA);
  vec3.copy(p.pointB, c.pointB);
  p.distance = c.distance;
  p.featureId = 0;
  out.count = 1;
}

/**
 * Per slot: the bounding radius of the shape last seen there ({@link radiusShape}), for the
 * world-frame reject test. Shapes are immutable (deeply frozen), so a radius stays valid while
 * the same shape object occupies the slot; a new shape in the slot (a removed and reused slot,
 * another world) is noticed by identity and its radius recomputed. Grown by doubling.
 */
let slotRadius = new Float64Array(64);
/** Per slot: the shape whose radius {@link slotRadius} holds. */
const radiusShape: (Shape | undefined)[] = [];

/** Caches the bounding radius of `s` at `slot` (allocates only when a slot sees a new shape). */
function cacheRadius(slot: number, s: Shape): void {
  if (slot >= slotRadius.length) {
    let n = slotRadius.length;
    while (n <= slot) n *= 2;
    const grown = new Float64Array(n);
    grown.set(slotRadius);
    slotRadius = grown;
  }
  slotRadius[slot] = boundingRadiusOf(s);
  radiusShape[slot] = s;
}

/**
 * Runs the narrow phase of the pair of slots `lo < hi` (see the module docs) and writes its
 * record at `out[offset ..]`: `out[offset]` = the kind (also returned), and for a contact the
 * signed distance, the world-frame normal (A toward B) and the manifold points from
 * `offset + 2` on; `out[offset + 1]` (the pair index) is not touched. `pose` holds 7 doubles per
 * slot (translation xyz, quaternion xyzw), `flags` the body flags (`FLAG_SENSOR`, `FLAG_CONVEX`),
 * `shapes` the slots' shapes; `prediction` is in scene units. The slots' bounding radii come
 * from this module's per-slot cache (the caller keeps none: the worker threads); the world's
 * own loop passes its per-slot radii to {@link narrowPairRadius}, the same answer. Allocates
 * nothing (once each slot's radius is cached). Throws `CollideError("unsupported_pair")` as the
 * pair table does.
 */
export function narrowPair(
  out: Float64Array,
  offset: number,
  lo: number,
  hi: number,
  pose: Float64Array,
  flags: Uint8Array,
  shapes: readonly (Shape | undefined)[],
  prediction: number,
): number {
  const sa = shapes[lo] as Shape;
  const sb = shapes[hi] as Shape;
  if (radiusShape[lo] !== sa) cacheRadius(lo, sa);
  if (radiusShape[hi] !== sb) cacheRadius(hi, sb);
  return narrowPairRadius(out, offset, lo, hi, pose, flags, shapes, slotRadius, prediction);
}

/**
 * {@link narrowPair} with the slots' bounding radii given: `radius[s]` = the bounding radius of
 * `shapes[s]` (`boundingRadiusOf`, the world's `SlotStore.radius`). The world-frame reject test
 * reads only the poses and these radii, so a pair it settles never loads the shape objects (at
 * 50,000 bodies in random slot order those loads were a fifth of the narrow phase, cache misses).
 */
export function narrowPairRadius(
  out: Float64Array,
  offset: number,
  lo: number,
  hi: number,
  pose: Float64Array,
  flags: Uint8Array,
  shapes: readonly (Shape | undefined)[],
  radius: Float64Array,
  prediction: number,
): number {
  const fl = flags[lo];
  const fh = flags[hi];
  const c = contactScratch;
  const m = manifoldScratch;
  if (((fl | fh) & FLAG_SENSOR) !== 0) {
    const sa = shapes[lo] as Shape;
    const sb = shapes[hi] as Shape;
    readPose(poseA, pose, lo);
    readPose(poseB, pose, hi);
    iso.invMul(bInA, poseA, poseB);
    // Exactly the `intersects` query's answer (its order, its pose for the other order).
    const hit = intersectsInQueryOrder(sa, poseA, sb, poseB, bInA, aInB);
    const kind = hit ? NARROW_SENSOR : NARROW_NONE;
    out[offset] = kind;
    return kind;
  }
  // The world-frame bounding-sphere test; the padded limit keeps it conservative (an unbounded
  // shape's infinite radius never rejects).
  const ka = 7 * lo;
  const kb = 7 * hi;
  const dx = pose[kb] - pose[ka];
  const dy = pose[kb + 1] - pose[ka + 1];
  const dz = pose[kb + 2] - pose[ka + 2];
  const reach = (radius[lo] + radius[hi] + prediction) * (1 + WORLD_BOUND_REJECT_PAD);
  if (dx * dx + dy * dy + dz * dz > reach * reach) return none(out, offset);
  const sa = shapes[lo] as Shape;
  const sb = shapes[hi] as Shape;
  readPose(poseA, pose, lo);
  readPose(poseB, pose, hi);
  iso.invMul(bInA, poseA, poseB);
  // A contact found within the near-touching band is decided by intersects (agreeContact,
  // src/narrowphase/touching.ts, as the `contact` query). The routines are asked to the
  // prediction itself first, not to the query's prediction plus the band: that sum, a new double
  // passed to a call that is not inlined, would be boxed for every pair. Only when the routine
  // finds nothing within the prediction and the pair's intersects test says touching is it asked
  // again to the query's reach (bandContact): the query's answer, at one boxed double for such
  // pairs only.
  // The order the queries take (src/narrowphase/touching.ts, queryOrderSwapped): a flipped
  // entry, or two shapes of one type in their canonical order (the routine is the same). It is
  // decided before anything else, so that every branch below — the table's routine, or, far
  // outside unit scale, the table's dispatcher — runs in the query's order on the query's pose.
  // The two types are read once, by one function for both shapes (typeOf), and passed down as
  // integers (widen, writeRecord): a load that V8 compiled having met one shape map deoptimises
  // this whole function at the first shape of another map, and the step runs in baseline code
  // again until V8 has compiled it a second time (`--trace-deopt`, "wrong map": on scene (a) at
  // 50,000 bodies widen's `a.type` had met boxes alone when the first touching sphere–sphere
  // pair came, on the level `sa.type` static boxes alone — the lower slot — when the first
  // moving pair of two spheres came). typeOf's one load meets both shapes of every pair, so
  // every map of the world early, and its inlined copies share that feedback.
  const ta = typeOf(sa);
  const tb = typeOf(sb);
  const ordered = ta !== tb && contactOrderSwapped(ta, tb);
  const swap =
    ta === tb ? sameTypeSwapped(sa, sb, bInA, poseA, poseB) : ordered || contactFlipped(ta, tb);
  // A pair with a routine per order that the queries solve in the other order (sphere–box,
  // sphere–triangle) takes the other order's own routine; a flipped entry holds that one already.
  const f = ordered ? contactRoutine(tb, ta) : contactRoutine(ta, tb);
  if (!swap) {
    // Far outside unit scale (or with no routine) the table's dispatcher answers: it changes
    // units first (src/narrowphase/extreme-scale.ts), or throws unsupported_pair.
    const direct = f !== null && !offsetOutOfRange(bInA);
    const found = direct
      ? f(c, sa, sb, bInA, prediction)
      : contactPair(c, sa, sb, bInA, prediction);
    if (!found) {
      if (direct && satApart(f, ta, tb)) return none(out, offset);
      if (!bandContact(c, f, sa, poseA, sb, poseB, bInA, prediction)) return none(out, offset);
    }
    if (!agreeContact(c, sa, poseA, sb, poseB, bInA, prediction)) return none(out, offset);
    widen(m, c, sa, sb, ta, tb, bInA, fl, fh, prediction);
    return writeRecord(out, offset, c, m, sa, poseA, sb, poseB, ta, tb, false);
  }
  // The other order, (higher, lower): A's pose in B's frame formed from the world poses in that
  // order, as the queries form it (src/query/frames.ts, `swappedPairPose`), so that the answer is
  // bitwise the query's in either order; the record is computed in the higher slot's frame and
  // written for (lower, higher). The table's entry for (B, A) is not flipped, so the dispatcher
  // (far outside unit scale) calls the same routine in the same order on the same pose.
  iso.invMul(aInB, poseB, poseA);
  const direct = f !== null && !offsetOutOfRange(aInB);
  const found = direct ? f(c, sb, sa, aInB, prediction) : contactPair(c, sb, sa, aInB, prediction);
  if (!found) {
    if (direct && satApart(f, tb, ta)) return none(out, offset);
    if (!bandContact(c, f, sb, poseB, sa, poseA, aInB, prediction)) return none(out, offset);
  }
  if (!agreeContact(c, sb, poseB, sa, poseA, aInB, prediction)) return none(out, offset);
  widen(m, c, sb, sa, tb, ta, aInB, fh, fl, prediction);
  return writeRecord(out, offset, c, m, sb, poseB, sa, poseA, tb, ta, true);
}

/**
 * True when the contact routine `f` just called for shapes of types `ta`, `tb` (in that order,
 * directly, on B's pose in A's frame) found nothing and the pair's intersects test is certain
 * to say apart too, so that {@link bandContact} would return false without it being run: `f` is
 * the box–box contact, whose SAT found an axis of separation > 0 (it found nothing only then),
 * and the table's intersects for two boxes is the box–box SAT with early exit on that same pose
 * (`intersectsRoutineIs`). That test computes every axis with the contact SAT's very arithmetic
 * and rejects on `|t| > rA + rB`, which holds exactly when `|t| − (rA + rB) > 0` (an IEEE
 * difference of finite doubles is positive exactly when the first is larger; an edge axis's
 * division by its positive length keeps the sign), and its shortcut for a pose without rotation
 * tests the same three face values: so it returns false at that axis or before. Saves the
 * second SAT of every box–box candidate pair that the first found apart.
 */
function satApart(f: ContactFn, ta: number, tb: number): boolean {
  return (
    ta === ShapeType.Cuboid &&
    tb === ShapeType.Cuboid &&
    f === (contactCuboidCuboid as ContactFn) &&
    intersectsRoutineIs(ta, tb, intersectsCuboidCuboid as IntersectsFn) &&
    lastCuboidSat().separation > 0
  );
}

/**
 * The contact of A and B (in the routine's order: `f` takes (a, b), B at `bInA`; world poses
 * `poseA`, `poseB`) that the `contact` query finds when the routine, asked to `prediction`, found
 * none: the query asks to `touchReach(prediction, bInA.translation)` (the prediction plus the
 * near-touching band) and keeps a gap beyond the prediction only when the intersects test says
 * touching (agreeContact). So: false when intersects says apart (the query then has no contact
 * either), else the routine's answer to the query's reach, which the caller passes through
 * agreeContact as the query does. Not inlined into the hot path; its boxed reach is paid only
 * by pairs that intersects calls touching and the routine called apart.
 */
function bandContact(
  c: Contact,
  f: ContactFn | null,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!intersectsAsQuery(a, poseA, b, poseB, bInA)) return false;
  const reach = touchReach(prediction, bInA.translation);
  return f === null || offsetOutOfRange(bInA)
    ? contactPair(c, a, b, bInA, reach)
    : f(c, a, b, bInA, reach);
}

/**
 * The type of `s`: the one load of a shape's type in narrowPairRadius (see there), so that its
 * type feedback holds the maps of both shapes of every pair.
 */
function typeOf(s: Shape): number {
  return s.type;
}

/** Writes the NARROW_NONE record at `out[offset]` and returns NARROW_NONE. */
function none(out: Float64Array, offset: number): number {
  out[offset] = NARROW_NONE;
  return NARROW_NONE;
}

/**
 * m = the manifold of contact `c` of A and B (types `ta`, `tb`, read by the caller; B at
 * `bInA`, flags `fa`, `fb`): widened by
 * `manifoldFromContact` for two convex shapes, else the table's manifold, else the single contact.
 */
function widen(
  m: ContactManifold,
  c: Contact,
  a: Shape,
  b: Shape,
  ta: number,
  tb: number,
  bInA: Isometry,
  fa: number,
  fb: number,
  prediction: number,
): void {
  if ((fa & fb & FLAG_CONVEX) !== 0) {
    if (ta === ShapeType.Cuboid && tb === ShapeType.Cuboid) {
      // The same manifold, reusing the clipping the box–box contact did for its witnesses.
      manifoldCuboidCuboid(m, a as Cuboid, b as Cuboid, bInA, c, prediction);
      return;
    }
    manifoldFromContact(m, a as ConvexShape, b as ConvexShape, bInA, c, prediction);
  } else if (!manifoldPair(m, a, b, bInA, prediction)) {
    singleContact(m, c);
  }
}

/**
 * Writes the contact record of `c` / `m` (in the frame of `frame`, the pose of the routine's A)
 * at `out[offset ..]` in the world frame. With `flip`, A and B were computed the other way round
 * (A = the higher slot): the normal is reversed and each point's two witnesses are swapped, so
 * the record is that of (lower slot, higher slot). `firstType` / `secondType`: the two shapes'
 * types, read by the caller. Returns NARROW_CONTACT.
 */
function writeRecord(
  out: Float64Array,
  offset: number,
  c: Contact,
  m: ContactManifold,
  first: Shape,
  frame: Isometry,
  second: Shape,
  secondPose: Isometry,
  firstType: number,
  secondType: number,
  flip: boolean,
): number {
  iso.transformVector(m.normal, frame, m.normal);
  const n = m.normal;
  const count = m.count;
  for (let p = 0; p < count; p++) {
    const pt = m.points[p];
    iso.transformPoint(pt.pointA, frame, pt.pointA);
    iso.transformPoint(pt.pointB, frame, pt.pointB);
  }
  // A face normal of a shape type with a snap (the heightfield) made exact, as the `contact`
  // and `manifold` queries do (src/narrowphase/heightfield-normal.ts), at the deepest point.
  if (count > 0 && (hasFaceNormalSnap(firstType) || hasFaceNormalSnap(secondType))) {
    let deepest = 0;
    for (let p = 1; p < count; p++) {
      if (m.points[p].distance < m.points[deepest].distance) deepest = p;
    }
    const pt = m.points[deepest];
    snapFaceNormal(n, first, frame, pt.pointA, second, secondPose, pt.pointB);
  }
  out[offset] = NARROW_CONTACT;
  out[offset + 2] = c.distance;
  // Reversed as 0 − x, not −x: a zero component stays +0 (−0 would print as "-0").
  out[offset + 3] = flip ? 0 - n.x : n.x;
  out[offset + 4] = flip ? 0 - n.y : n.y;
  out[offset + 5] = flip ? 0 - n.z : n.z;
  out[offset + 6] = count;
  let k = offset + NARROW_HEADER;
  for (let p = 0; p < count; p++, k += NARROW_POINT_STRIDE) {
    const pt = m.points[p];
    const wa = flip ? pt.pointB : pt.pointA;
    const wb = flip ? pt.pointA : pt.pointB;
    out[k] = wa.x;
    out[k + 1] = wa.y;
    out[k + 2] = wa.z;
    out[k + 3] = wb.x;
    out[k + 4] = wb.y;
    out[k + 5] = wb.z;
    out[k + 6] = pt.distance;
    out[k + 7] = pt.featureId;
  }
  return NARROW_CONTACT;
}
