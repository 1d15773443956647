/**
 * The canonical order of a pair of shapes of one type (issue 16: swapping A and B flips the
 * answer exactly): a leaf module, so that the queries' touching rule and the world can ask it
 * without loading the GJK/EPA pair routine.
 */
import type { Isometry } from "../math/isometry.js";

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
  const q = bInA.rotation;
  const t = bInA.translation;
  const m = CANONICAL_TINY * Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  if (Math.abs(q.w) <= CANONICAL_TINY) {
    // A half turn is its own inverse: the two orders have the same rotation and the sign of w is
    // rounding (it had made a cap-on-cap pair under a half turn take different ties in the two
    // orders). The inverse pose's translation −R⁻¹t = t − 2(t·k)k for the half turn's axis k
    // (sign fixed: its first clearly non-zero component positive; a unit quaternion with w ≈ 0
    // has one) reverses t·k: decide by it.
    const s = firstSign(q.x, q.y, q.z, CANONICAL_TINY);
    return firstSign(s * (t.x * q.x + t.y * q.y + t.z * q.z), 0, 0, m);
  }
  const r = firstSign(q.x, q.y, q.z, CANONICAL_TINY);
  if (r !== 0) return q.w < 0 ? -r : r;
  return firstSign(t.x, t.y, t.z, m);
}

/** The sign (1 or −1) of the first of x, y, z whose magnitude exceeds `tiny`; 0 when none does. */
function firstSign(x: number, y: number, z: number, tiny: number): number {
  const v = Math.abs(x) > tiny ? x : Math.abs(y) > tiny ? y : Math.abs(z) > tiny ? z : 0;
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}
