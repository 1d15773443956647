/**
 * Directed rounding from double to single precision, the bridge between Collide's f64 answers and
 * WebGPU's f32 kernels. `Math.fround` rounds to nearest; stepping one unit in the last place (ulp)
 * away when it rounded the wrong way gives the nearest f32 below (`roundDown`) or above
 * (`roundUp`): the result is within 1 f32 ulp of the double and on the stated side of it
 * (IEEE 754-2008 §4.3.2 directed rounding, done by hand). Values beyond ±FLT_MAX are clamped to
 * ±FLT_MAX rather than sent as infinities, which WGSL implementations may assume never occur
 * (WGSL §14.6); clamping is monotone, so an interval test on the clamped bounds still never
 * misses an overlap (it may only report more).
 */

/** Largest finite f32, 2^128 − 2^104. */
export const F32_MAX = 3.4028234663852886e38;

/** Unit roundoff of f32 (half an ulp of 1): 2^−24. */
export const F32_UNIT_ROUNDOFF = 2 ** -24;

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** The f32 next below `f` (an f32 value, finite). */
function nextBelow(f: number): number {
  if (f === 0) return -(2 ** -149);
  f32[0] = f;
  if (f > 0) i32[0] -= 1;
  else i32[0] += 1;
  return f32[0];
}

/** The f32 next above `f` (an f32 value, finite). */
function nextAbove(f: number): number {
  if (f === 0) return 2 ** -149;
  f32[0] = f;
  if (f > 0) i32[0] += 1;
  else i32[0] -= 1;
  return f32[0];
}

/** The largest f32 ≤ `x` (clamped to ±F32_MAX; never −0). `x` finite. */
export function roundDown(x: number): number {
  if (x >= F32_MAX) return F32_MAX;
  if (x <= -F32_MAX) return -F32_MAX;
  const f = Math.fround(x);
  return (f > x ? nextBelow(f) : f) + 0;
}

/** The smallest f32 ≥ `x` (clamped to ±F32_MAX; never −0). `x` finite. */
export function roundUp(x: number): number {
  if (x >= F32_MAX) return F32_MAX;
  if (x <= -F32_MAX) return -F32_MAX;
  const f = Math.fround(x);
  return (f < x ? nextAbove(f) : f) + 0;
}
