/**
 * The canonical order of a pair of shapes of one type (issue 16: swapping A and B flips the
 * answer exactly): a leaf module, so that the queries' touching rule and the world can ask it
 * without loading the GJK/EPA pair routine.
 */
import type { Isometry } from "../math/isometry.js";
import { shapeDataOrder } from "../shapes/data-order.js";
import type { Shape } from "../shapes/shape.js";

export { shapeDataOrder };

/** Quaternion components (and translation components, relative) below this decide nothing. */
const CANONICAL_TINY = 2 ** -40;

/**
 * For two shapes of one type: true when (A, B) at `bInA` is the order solved directly, false
 * when the pair is solved as (B, A) at bInA⁻¹ and flipped, so that both orders run the same
 * computation and contact(B, A) is contact(A, B) flipped up to the rounding of the inverse pose
 * (issue 16: flips; GJK's start, EPA's polytope and the refinement's local minimum otherwise
 * depend on the order). Decided by the relative rotation, whose inverse is its conjugate
 * exactly (taken with w ≥ 0: the first clearly non-zero of x, y, z positive), then, for a
 * relative rotation at the identity, by the translation (its inverse then −t): the two orders
 * get complementary answers. Returns 1 (this order), −1 (the other) or 0 (the relative pose is
 * the identity to 2^-40, or a half turn whose axis is normal to the translation: the caller
 * decides by the shapes).
 */
export function canonicalOrder(bInA: Isometry): number {
  // Every component read once and the first-sign rule written out three times: this runs for
  // every same-type pair of a world step, and a double passed to a helper V8 does not inline is
  // boxed (three coordinates per call: 16.7 KB per step in the steady-state probe once).
  const q = bInA.rotation;
  const t = bInA.translation;
  const qx = q.x;
  const qy = q.y;
  const qz = q.z;
  const tx = t.x;
  const ty = t.y;
  const tz = t.z;
  const m = CANONICAL_TINY * Math.max(Math.abs(tx), Math.abs(ty), Math.abs(tz));
  // The sign of the first of q.x, q.y, q.z whose magnitude exceeds CANONICAL_TINY (0 when none).
  const qv =
    Math.abs(qx) > CANONICAL_TINY
      ? qx
      : Math.abs(qy) > CANONICAL_TINY
        ? qy
        : Math.abs(qz) > CANONICAL_TINY
          ? qz
          : 0;
  const r = qv > 0 ? 1 : qv < 0 ? -1 : 0;
  if (Math.abs(q.w) <= CANONICAL_TINY) {
    // A half turn is its own inverse: the two orders have the same rotation and the sign of w is
    // rounding (it had made a cap-on-cap pair under a half turn take different ties in the two
    // orders). The inverse pose's translation −R⁻¹t = t − 2(t·k)k for the half turn's axis k
    // (sign fixed: its first clearly non-zero component positive; a unit quaternion with w ≈ 0
    // has one) reverses t·k: decide by it (its sign, when its magnitude exceeds m).
    const d = r * (tx * qx + ty * qy + tz * qz);
    const v = Math.abs(d) > m ? d : 0;
    return v > 0 ? 1 : v < 0 ? -1 : 0;
  }
  if (r !== 0) return q.w < 0 ? -r : r;
  // The sign of the first translation component whose magnitude exceeds m.
  const tv = Math.abs(tx) > m ? tx : Math.abs(ty) > m ? ty : Math.abs(tz) > m ? tz : 0;
  return tv > 0 ? 1 : tv < 0 ? -1 : 0;
}

/**
 * For two shapes of one type: true when the queries solve (A, B) at `bInA` as (B, A) and flip
 * the answer — {@link canonicalOrder}; where the relative pose decides nothing (the identity, or
 * a symmetric half turn) the shapes' data ({@link shapeDataOrder}: the smaller first); for two
 * equal shapes there, their world poses `poseA` and `poseB` ({@link poseOrder}: the smaller
 * first). Antisymmetric in (A, B) but for equal shapes at equal poses, so both argument orders
 * hand the routine one input bit for bit. The composite mid-phase keeps the first of its tied part
 * pairs in its walk's order (issue 16, seed 56: two open box meshes of 3e-5 given concentric,
 * each pair of faces tied at one depth with opposite normals, and each order kept another); two
 * flat boxes, triangles or polygons in one plane, one turned a half turn about its normal
 * relative to the other (the translation in the plane: a symmetric half turn), had each order
 * solve its own pose, whose rounding took another of the tied normals, witness or touching
 * decision (session 44: 42 of 2,273 such box pairs in contact, 37 of 1,970 polygon pairs).
 * Allocation free.
 */
export function sameTypeSwapped(
  a: Shape,
  b: Shape,
  bInA: Isometry,
  poseA: Isometry,
  poseB: Isometry,
): boolean {
  const c = canonicalOrder(bInA);
  if (c !== 0) return c < 0;
  const k = shapeDataOrder(a, b);
  if (k !== 0) return k > 0;
  return poseOrder(poseA, poseB) > 0;
}

/**
 * The sign of the first difference between two world poses — translation x, y, z, then rotation
 * x, y, z, w — 0 when they are equal. Antisymmetric: swapping them negates it.
 */
export function poseOrder(poseA: Isometry, poseB: Isometry): number {
  // Written out (no helper taking doubles): it can run in a world step.
  const ta = poseA.translation;
  const tb = poseB.translation;
  if (ta.x !== tb.x) return ta.x < tb.x ? -1 : 1;
  if (ta.y !== tb.y) return ta.y < tb.y ? -1 : 1;
  if (ta.z !== tb.z) return ta.z < tb.z ? -1 : 1;
  const qa = poseA.rotation;
  const qb = poseB.rotation;
  if (qa.x !== qb.x) return qa.x < qb.x ? -1 : 1;
  if (qa.y !== qb.y) return qa.y < qb.y ? -1 : 1;
  if (qa.z !== qb.z) return qa.z < qb.z ? -1 : 1;
  if (qa.w !== qb.w) return qa.w < qb.w ? -1 : 1;
  return 0;
}
