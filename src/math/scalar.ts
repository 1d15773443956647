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

/**
 * Squared lengths strictly inside this range have an exact-enough square root without
 * rescaling: there `hypot3(x, y, z)` is `Math.sqrt(x*x + y*y + z*z)`, bit for bit.
 */
export const HYPOT_SAFE_MIN = 1e-290;
/** Upper end of the range of {@link HYPOT_SAFE_MIN}. */
export const HYPOT_SAFE_MAX = 1e290;

/**
 * √(x² + y²) without overflow or underflow: a plain square root in the normal range (much faster
 * than `Math.hypot`, which is variadic and slow in V8), rescaled by the larger magnitude outside it.
 */
export function hypot2(x: number, y: number): number {
  const s = x * x + y * y;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) return Math.sqrt(s);
  const m = Math.max(Math.abs(x), Math.abs(y));
  if (m === 0 || !Number.isFinite(m)) return m;
  const a = x / m;
  const b = y / m;
  return m * Math.sqrt(a * a + b * b);
}

/**
 * [0]: the result of {@link hypot2Into} / {@link hypot3Into}. A hot path that inlines the common
 * case `Math.sqrt(s)` and calls `hypot2`/`hypot3` outside it must not merge the two in one
 * expression (`ok ? Math.sqrt(s) : hypot2(x, y)`): when V8 does not inline the call, the merged
 * value is tagged and the square root is boxed (allocated) on the common path too. The rare path
 * calls these instead and reads the result from this array, so both branches stay doubles.
 */
export const hypotIo = new Float64Array(3);

/**
 * hypotIo[0] = Math.hypot(hypotIo[0], hypotIo[1]), bit for bit: no double crosses the call.
 * {@link scaledHypot}'s two-argument case written out (inlined into a caller whose inlining
 * budget is spent, a call to it would return a boxed double).
 */
export function mathHypot2Io(): void {
  const ax = Math.abs(hypotIo[0]);
  const ay = Math.abs(hypotIo[1]);
  if (ax === Infinity || ay === Infinity) hypotIo[0] = Infinity;
  else if (Number.isNaN(ax) || Number.isNaN(ay)) hypotIo[0] = Number.NaN;
  else {
    const m = Math.max(ax, ay);
    if (m === 0) hypotIo[0] = 0;
    else {
      const a = ax / m;
      const b = ay / m;
      hypotIo[0] = Math.sqrt(a * a + b * b) * m;
    }
  }
}

/**
 * hypotIo[0] = Math.hypot(hypotIo[0], hypotIo[1], hypotIo[2]), bit for bit (see
 * {@link mathHypot2Io}; {@link scaledHypot}'s three-argument case written out).
 */
export function mathHypot3Io(): void {
  const ax = Math.abs(hypotIo[0]);
  const ay = Math.abs(hypotIo[1]);
  const az = Math.abs(hypotIo[2]);
  if (ax === Infinity || ay === Infinity || az === Infinity) hypotIo[0] = Infinity;
  else if (Number.isNaN(ax) || Number.isNaN(ay) || Number.isNaN(az)) hypotIo[0] = Number.NaN;
  else {
    const m = Math.max(ax, ay, az);
    if (m === 0) hypotIo[0] = 0;
    else {
      const a = ax / m;
      const b = ay / m;
      const c = az / m;
      const s = a * a;
      const t = b * b;
      let sum = s + t;
      sum += c * c - (sum - s - t);
      hypotIo[0] = Math.sqrt(sum) * m;
    }
  }
}

/** hypotIo[0] = hypot2(x, y). */
export function hypot2Into(x: number, y: number): void {
  hypotIo[0] = hypot2(x, y);
}

/** hypotIo[0] = hypot3(x, y, z). */
export function hypot3Into(x: number, y: number, z: number): void {
  hypotIo[0] = hypot3(x, y, z);
}

/** √(x² + y² + z²) without overflow or underflow; see {@link hypot2}. */
export function hypot3(x: number, y: number, z: number): number {
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) return Math.sqrt(s);
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || !Number.isFinite(m)) return m;
  const a = x / m;
  const b = y / m;
  const c = z / m;
  return m * Math.sqrt(a * a + b * b + c * c);
}

/*
 * Math.hypot's value without its cost (session 19, the world's steady state): V8's builtin
 * (builtins/math.tq `MathHypot`) allocates a double array for its arguments and a heap number
 * for its result on every call — TurboFan does not inline it — so the curved shapes' kernels
 * allocated per call. `mathHypot2`/`mathHypot3` are the same algorithm written out: the largest
 * magnitude m (Infinity before NaN, 0 for all zeros), a Kahan-compensated sum of (|x_i|/m)², and
 * √sum · m, so they return Math.hypot's bits (test/math/math-hypot.test.ts compares them).
 */

/** Math.hypot(x, y), bit for bit, without allocating (see the note above). */
export function mathHypot2(x: number, y: number): number {
  return scaledHypot(Math.abs(x), Math.abs(y), 0, false);
}

/** Math.hypot(x, y, z), bit for bit, without allocating (see the note above). */
export function mathHypot3(x: number, y: number, z: number): number {
  return scaledHypot(Math.abs(x), Math.abs(y), Math.abs(z), true);
}

/**
 * The shared body of {@link mathHypot2} (`three` false, `az` 0) and {@link mathHypot3}, on
 * magnitudes: Infinity if any is infinite, else NaN if any is NaN, else 0 if all are 0, else
 * m·√Σ(a_i/m)² with m the largest, the sum Kahan-compensated term by term in argument order as
 * V8's `MathHypot` does (the first term's compensation is exactly 0, and the last term's is
 * never used, so neither is computed). Small enough for TurboFan to inline into both callers,
 * where `three` is a constant.
 */
function scaledHypot(ax: number, ay: number, az: number, three: boolean): number {
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (Number.isNaN(ax) || Number.isNaN(ay) || Number.isNaN(az)) return Number.NaN;
  const m = three ? Math.max(ax, ay, az) : Math.max(ax, ay);
  if (m === 0) return 0;
  const a = ax / m;
  const b = ay / m;
  const s = a * a;
  const t = b * b;
  let sum = s + t;
  if (three) {
    const c = az / m;
    sum += c * c - (sum - s - t);
  }
  return Math.sqrt(sum) * m;
}

/**
 * The rounding error of a sum: `a + b − s` exactly, where `s = fl(a + b)` (Knuth's TwoSum;
 * exact for finite sums that do not overflow), so 0 exactly when the sum is exact. Shewchuk,
 * "Adaptive precision floating-point arithmetic" (1997), §2.
 */
export function sumError(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/** Veltkamp's splitting constant 2^27 + 1 (Dekker's exact product). */
const SPLIT = 134217729;

/**
 * The rounding error of a product: `a·b − p` exactly, where `p = fl(a·b)` (Dekker's TwoProduct
 * through Veltkamp's splitting; exact for finite products that neither overflow nor underflow),
 * so 0 exactly when the product is exact. Shewchuk, "Adaptive precision floating-point
 * arithmetic" (1997), §2.
 */
export function productError(a: number, b: number, p: number): number {
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/**
 * A power of two `k` with `m · k` in [0.5, 1] for a finite magnitude `m` > 0 (exactly 1 for m in
 * [0.5, 1], for 0 and for a non-finite m), kept within [2^-1022, 2^1022] so that `1 / k` is a
 * normal double too (near the ends of the range `m · k` then lands a few binades from 1). A
 * change of units by `k` is exact in binary floating point (Goldberg 1991, §2.1: multiplying by a
 * power of two only changes the exponent), so a routine answered on `k`-scaled input and
 * unscaled by `1 / k` gives bit for bit what it would give unscaled, without its squares and
 * products overflowing above about 1e154 or underflowing below about 1e-154. Built by
 * multiplication (no `Math.pow`), the same on every engine; allocates nothing.
 */
export function unitScale(m: number): number {
  return m > 0 && m < Number.POSITIVE_INFINITY ? unitScaleFactor(m) : 1;
}

/** True when x − o is finite and exact in doubles (the error term of Knuth's TwoSum of x and −o is 0). */
export function differenceExact(x: number, o: number): boolean {
  const d = x - o;
  const z = d - x;
  return Number.isFinite(d) && x - (d - z) + (-o - z) === 0;
}

/**
 * Bits below a triangle's extent of the grid of {@link gridOrigin}: the origin lies within 2^-21
 * of the extent from the first corner (a frame nearly at the corner, as the triangle's own frame
 * was; a grid as coarse as the extent moved a cone of 1e-5 beside a triangle of 2e3 at 1e9 onto
 * another GJK path, 5e-10 off), and two such origins differ exactly while within about 2^32
 * extents.
 */
export const GRID_ORIGIN_BITS = 20;

/**
 * A frame origin on one axis for three coordinates x0, x1, x2 spanning `extent` (the largest
 * corner difference over every axis): x0 rounded to a multiple of G, the largest power of two not
 * above 2^-{@link GRID_ORIGIN_BITS} of `extent`, when each xi minus it is exact, else 0 (each
 * xi − 0 is; a difference is inexact only for a coordinate within 1.5 extents of 0). Every origin
 * chosen so lies on a power-of-two grid, so the offset between two of them is exact as well (a
 * multiple of the finer grid, exact while below 2^53 of its steps), and the corners keep their
 * input values through a change of frame: a corner at xi − o1 in one frame is
 * (xi − o1) + (o1 − o2) = xi − o2 in the other, exactly, whenever xi − o2 is a double (a corner
 * shared with the other frame's shape is).
 */
export function gridOrigin(x0: number, x1: number, x2: number, extent: number): number {
  if (!(extent > 0 && extent < Number.POSITIVE_INFINITY)) return 0;
  let g = 2 ** (Math.floor(Math.log2(extent)) - GRID_ORIGIN_BITS);
  // Math.log2 may round up at a power of two's neighbour: keep g ≤ extent·2^-GRID_ORIGIN_BITS.
  if (g * 2 ** GRID_ORIGIN_BITS > extent) g /= 2;
  const o = Math.round(x0 / g) * g;
  if (!Number.isFinite(o)) return 0;
  return differenceExact(x0, o) && differenceExact(x1, o) && differenceExact(x2, o) ? o : 0;
}

/**
 * The power of two that brings magnitude `m` (> 0, out of the unit range [2^-128, 2^128]) near
 * 1: multiplying every length of a query by it is exact (src/narrowphase/extreme-scale.ts, the
 * heightfield's ray cells). {@link unitScale} is this with 0 and non-finite magnitudes sent to 1.
 */
export function unitScaleFactor(m: number): number {
  // k stays within [2^-1022, 2^1022] so that 1/k, which unscales the answer, is a normal
  // double too: near the ends of the range (a 1.6e308 offset, a subnormal size) the scaled
  // magnitude then lands a few binades from 1 instead of at 1, well inside the unit range.
  let k = 1;
  if (m > 1) {
    while (m * k > 2 ** 64 && k >= 2 ** -958) k *= 2 ** -64;
    while (m * k > 1 && k > 2 ** -1022) k *= 0.5;
  } else {
    while (m * k < 2 ** -64 && k <= 2 ** 958) k *= 2 ** 64;
    while (m * k < 0.5 && k < 2 ** 1022) k *= 2;
  }
  return k;
}
