/**
 * The exact volume of two axis-aligned boxes' intersection, in BigInt over the input doubles
 * (each a dyadic rational: an integer times 2^-1074), and the check that an `overlapVolume`
 * interval holds it: the independent oracle of the overlap-volume tests whose pairs are boxes
 * (or unions of boxes). Written apart from src/ (no code of the library).
 */

/** The exact value of a double times 2^1074 (an integer). */
export function scaled(x: number): bigint {
  if (x === 0) return 0n;
  let m = x;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return BigInt(m) << BigInt(e + 1074);
}

/** Exact volume × 2^(3·1074) of the boxes [lo, hi] ∩ [lo2, hi2] (corners as doubles). */
export function boxBox(lo: number[], hi: number[], lo2: number[], hi2: number[]): bigint {
  let v = 1n;
  for (let k = 0; k < 3; k++) {
    const d = scaled(Math.min(hi[k], hi2[k])) - scaled(Math.max(lo[k], lo2[k]));
    if (d <= 0n) return 0n;
    v *= d;
  }
  return v;
}

/** True when the exact value (× 2^3222, as {@link boxBox}'s) lies within volume ± errorBound. */
export function holds(exact: bigint, r: { volume: number; errorBound: number }): boolean {
  const s = 2n * 1074n;
  const gap = exact - (scaled(r.volume) << s);
  return (gap < 0n ? -gap : gap) <= scaled(r.errorBound) << s;
}

/** An exact value (× 2^3222, as {@link boxBox}'s) as a double, about (to 2^-222 relative). */
export const toNumber = (exact: bigint): number => Number(exact >> 3000n) / 2 ** 222;
