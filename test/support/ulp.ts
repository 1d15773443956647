/**
 * Float helpers for tests that bound an answer in ulps of an exact oracle's value: the ulp of a
 * double, its neighbours (nextUp, nextDown), a positive double stepped by n ulps (stepUlps), and a fast-check arbitrary uniform on an interval.
 * Written apart from src/ (no code of the library), so the bars they set are independent of what
 * they check.
 */
import fc from "fast-check";

/** The unit in the last place of the double x (the gap above |x|; the least subnormal at 0). */
export function ulp(x: number): number {
  const a = Math.abs(x);
  if (a === 0) return Number.MIN_VALUE;
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return 2 ** Math.max(e - 52, -1074);
}

/** The next double above x (toward +∞; the least subnormal above 0). */
export function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  i[0] += x > 0 ? 1n : -1n;
  return f[0];
}

/** The next double below x (toward −∞). */
export const nextDown = (x: number): number => -nextUp(-x);

/**
 * Uniform on [lo, hi] in 2^30 steps (fast-check's doubles crowd the ends and 0): lo + (hi − lo)·i/2^30
 * for an integer i drawn from [0, 2^30].
 */
export const uniform = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: 2 ** 30 }).map((i) => lo + ((hi - lo) * i) / 2 ** 30);

/**
 * The finite positive double x moved by n ulps (n < 0 down), through its bit pattern: n steps
 * of nextUp (or nextDown) at once.
 */
export function stepUlps(x: number, n: number): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  b.setBigUint64(0, b.getBigUint64(0) + BigInt(n));
  return b.getFloat64(0);
}
