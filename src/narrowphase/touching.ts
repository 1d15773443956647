/**
 * One touching predicate across the operations (issue 16, must-have 2: `intersects` ⇔
 * `distance` = 0 ⇔ `contact` at prediction 0 non-null ⇔ the pair in `pairs` and in the world).
 *
 * Each pair's `intersects` routine decides touching exactly or by a filtered predicate (SAT's
 * interval tests, GJK with its touching tolerance, closed forms); its `distance` and `contact`
 * routines compute more (EPA, a full SAT, GJK run to convergence with another start) and decide
 * touching by their own arithmetic, so at an exact touch they could disagree by a few ulps — a
 * box corner on a face answered "apart" by intersects, "overlapping by 1e-10" by contact, "0" by
 * distance. Here the answers of `distance`, `contact`, `manifold` and the world's narrow phase
 * that lie within {@link TOUCH_BAND} of touching are decided by the intersects test itself, the
 * way the `intersects` query decides it (the pair's world-pose routine when it has one, else the
 * table's routine in the order given): a gap that intersects calls touching becomes 0, an overlap
 * or touch that it calls apart becomes the smallest gap the coordinates resolve (and is dropped
 * at a smaller prediction). Outside the band nothing is asked: deep overlaps and clear gaps cost
 * one comparison.
 */
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { isBrandedShape, type Shape } from "../shapes/shape.js";
import { sameTypeSwapped } from "./canonical-order.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { intersectsPair, intersectsPosesPair, manifoldPair, pairFlipped } from "./pair-table.js";

/**
 * Relative width of the near-touching band, times the largest coordinate magnitude of the answer
 * (its witness points and B's offset, in the routine's frame): wider than every touching
 * tolerance of the routines (GJK's `NEAR_TOUCH` is 2^-20 of the witnesses' magnitude).
 */
export const TOUCH_BAND = 2 ** -20;

/**
 * The prediction to ask a contact routine with so that {@link agreeContact} sees the gaps of the
 * band: `prediction` plus {@link TOUCH_BAND} times B's offset (`t`, its largest coordinate);
 * the routine's answer goes through {@link agreeContact} with the caller's own prediction, which
 * drops what lies beyond it.
 */
export function touchReach(prediction: number, t: Vec3): number {
  return prediction + TOUCH_BAND * Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
}

/**
 * True when a query of `op` for (a, b), A at world `poseA`, B at `poseB` and at `bInA` in A's
 * frame, calls the pair table in the order (b, a), with A's pose in B's frame formed from the
 * world poses (src/query/frames.ts, `swappedPairPose`), and flips the answer: for a table entry
 * that is the flip of a registration in (b, a)'s order, and for two shapes of one type when
 * {@link sameTypeSwapped} says the other order. Both orders of a query then run one computation
 * on the same input bit for bit, so contact(B, A) is contact(A, B) with the normal negated and
 * the points exchanged exactly (issue 16: a tie at a touching vertex otherwise went to different
 * parts or normals).
 */
export function queryOrderSwapped(
  op: "intersects" | "distance" | "contact" | "manifold",
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): boolean {
  if (a.type === b.type) return sameTypeSwapped(a, b, bInA, poseA, poseB);
  return pairFlipped(op, a.type, b.type);
}

/** Unit roundoff: the smallest gap {@link agreeContact} reports is this times the magnitude. */
const EPS = 2 ** -52;

/**
 * The `intersects` query's decision for A at world `poseA` and B at `poseB` (`bInA`: B's pose in
 * A's frame as the caller formed it): the pair's world-pose routine when it has one and both
 * shapes are constructor-built, else the table's routine for (A, B).
 */
export function intersectsAsQuery(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): boolean {
  if (isBrandedShape(a) && isBrandedShape(b)) {
    const hit = intersectsPosesPair(a, poseA, b, poseB);
    if (hit >= 0) return hit === 1;
  }
  return intersectsPair(a, b, bInA);
}

/**
 * The `intersects` query's decision (src/query/intersects.ts) for A at world `poseA` and B at
 * `poseB`, `bInA` B's pose in A's frame as the query forms it: the pair's world-pose routine when
 * it has one, else the table's routine in the order the queries take ({@link queryOrderSwapped}),
 * the other order's pose formed from the world poses into `aInB` (a scratch). For the world's
 * sensor pairs, which report exactly what `intersects` reports.
 */
export function intersectsInQueryOrder(
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  aInB: Isometry,
): boolean {
  if (isBrandedShape(a) && isBrandedShape(b)) {
    const hit = intersectsPosesPair(a, poseA, b, poseB);
    if (hit >= 0) return hit === 1;
  }
  if (queryOrderSwapped("intersects", a, poseA, b, poseB, bInA)) {
    return intersectsPair(b, a, iso.invMul(aInB, poseB, poseA));
  }
  return intersectsPair(a, b, bInA);
}

/**
 * The largest coordinate magnitude of two witness points and B's offset (their frame's): the
 * scale of {@link TOUCH_BAND} and of the touching tolerances.
 */
export function witnessMagnitude(p: Vec3, q: Vec3, t: Vec3): number {
  return Math.max(
    Math.abs(p.x),
    Math.abs(p.y),
    Math.abs(p.z),
    Math.abs(q.x),
    Math.abs(q.y),
    Math.abs(q.z),
    Math.abs(t.x),
    Math.abs(t.y),
    Math.abs(t.z),
  );
}

/**
 * Makes contact `c` of A and B (A's frame, B at `bInA`; A at world `poseA`, B at `poseB`), found
 * within {@link touchReach}`(prediction)`, agree with intersects near touching (see the module
 * docs). Returns false when the contact must be dropped: its gap, once agreed, exceeds
 * `prediction` (a touch that intersects calls apart gets the smallest gap the coordinates
 * resolve, so at prediction 0 it is dropped).
 */
export function agreeContact(
  c: Contact,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
): boolean {
  const d = c.distance;
  // The magnitude written out (the world's narrow phase calls this per contact: no double
  // returned from a call).
  const p = c.pointA;
  const q = c.pointB;
  const t = bInA.translation;
  const m = Math.max(
    Math.abs(p.x),
    Math.abs(p.y),
    Math.abs(p.z),
    Math.abs(q.x),
    Math.abs(q.y),
    Math.abs(q.z),
    Math.abs(t.x),
    Math.abs(t.y),
    Math.abs(t.z),
  );
  if (d > 0) {
    if (d <= TOUCH_BAND * m && intersectsAsQuery(a, poseA, b, poseB, bInA)) c.distance = 0;
    return c.distance <= prediction;
  }
  if (!(-d <= TOUCH_BAND * m)) return true;
  if (intersectsAsQuery(a, poseA, b, poseB, bInA)) return true;
  const gap = Math.max(EPS * m, Number.MIN_VALUE);
  if (gap > prediction) return false;
  c.distance = gap;
  return true;
}

/**
 * Makes manifold `mf` of A and B (as {@link agreeContact}) agree with intersects near touching:
 * false when it must be dropped (an overlap within the band that intersects calls apart whose
 * smallest resolvable gap exceeds `prediction`, or a gap past `prediction` within the band that
 * intersects calls apart); its point distances are left as found.
 */
export function agreeManifold(
  mf: ContactManifold,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (mf.count === 0) return true;
  let k = 0;
  for (let i = 1; i < mf.count; i++) if (mf.points[i].distance < mf.points[k].distance) k = i;
  const p = mf.points[k];
  const d = p.distance;
  if (d > 0 && d <= prediction) return true;
  const m = witnessMagnitude(p.pointA, p.pointB, bInA.translation);
  // A gap past the prediction but within the band (two box meshes touching at 1e-6: the part
  // contact 0, its merged points 5e-22 apart) is the touch intersects decides, as for the contact.
  if (d > 0) return !(d <= TOUCH_BAND * m) || intersectsAsQuery(a, poseA, b, poseB, bInA);
  if (!(-d <= TOUCH_BAND * m)) return true;
  if (intersectsAsQuery(a, poseA, b, poseB, bInA)) return true;
  return Math.max(EPS * m, Number.MIN_VALUE) <= prediction;
}

/**
 * The manifold of A and B (A's frame, B at `bInA`; world poses `poseA`, `poseB`) within the
 * near-touching band, for a caller whose routine found none within `prediction`: false when
 * the intersects test says apart; else the routine asked to {@link touchReach}`(prediction)`,
 * as the `contact` query asks, kept when its deepest gap lies within the prediction or the band
 * (a gap within the band that intersects calls touching is a contact there, so the manifold is
 * not null either; its point distances are left as found).
 */
export function manifoldInBand(
  out: ContactManifold,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (!intersectsAsQuery(a, poseA, b, poseB, bInA)) return false;
  if (!manifoldPair(out, a, b, bInA, touchReach(prediction, bInA.translation))) return false;
  if (out.count === 0) return true;
  // Kept as agreeContact keeps the contact: its deepest gap within the prediction or the band.
  let k = 0;
  for (let i = 1; i < out.count; i++) if (out.points[i].distance < out.points[k].distance) k = i;
  const p = out.points[k];
  const d = p.distance;
  return (
    d <= prediction || d <= TOUCH_BAND * witnessMagnitude(p.pointA, p.pointB, bInA.translation)
  );
}

/**
 * Makes distance result `out` of A and B (A's frame, B at `bInA`; world poses `poseA`, `poseB`)
 * agree with intersects near touching (see the module docs).
 */
export function agreeDistance(
  out: DistanceResult,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
  bInA: Isometry,
): void {
  const d = out.distance;
  const pa = out.pointA;
  const pb = out.pointB;
  const m = witnessMagnitude(pa, pb, bInA.translation);
  const band = TOUCH_BAND * m;
  if (d > 0) {
    if (d <= band && intersectsAsQuery(a, poseA, b, poseB, bInA)) out.distance = 0;
    return;
  }
  if (!(d === 0)) return;
  const dx = pb.x - pa.x;
  const dy = pb.y - pa.y;
  const dz = pb.z - pa.z;
  const sep = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(sep <= band)) return;
  if (intersectsAsQuery(a, poseA, b, poseB, bInA)) return;
  out.distance = Math.max(sep, EPS * m, Number.MIN_VALUE);
}
