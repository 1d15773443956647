/** Scalar helpers shared by every layer. */

/** Clamps `x` into `[lo, hi]` (requires lo ≤ hi). */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}

/** True when `x` is a finite number (not NaN, not ±Infinity). */
export function isFiniteNumber(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** Exact equality, or |a − b| ≤ tol · max(1, |a|, |b|) (gl-matrix's `equals`). */
export function approxEqual(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}
