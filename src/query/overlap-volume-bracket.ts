/**
 * The concavity bracket's segment rule and refinement steps shared by the overlap volume's slicing
 * (src/query/overlap-volume-slices.ts, f = √area along a curved solid's axis, power 2) and its
 * chords (src/query/overlap-volume-chords.ts, f = √area along the slices' axis, power 2, and
 * f = the chord length across a slice, power 1).
 *
 * The rule is Brunn's principle (the Brunn–Minkowski inequality for the sections of a convex
 * body K): f, the (d-th root of the d-dimensional) section measure of K along an axis, is
 * concave on the interval I of heights where K has a section and 0 outside. With samples
 * t_0 < … < t_{n−1}, each carrying an interval [lo, hi] that holds f(t) (so lo > 0 puts t
 * certainly in I, and every sample between two such samples is in I too), ∫ f^power over a
 * segment [t_i, t_{i+1}] lies
 *  - above the integral of the chord of the lower values, where both ends are certainly in I
 *    (concavity: f is above its chords);
 *  - below the integral of the least of the extensions of the chords from each end's upper
 *    value to a certainly-inside sample beyond the other end (concavity: f is below a chord's
 *    extension, or 0 outside I), clamped to [0, cap] — cap a bound of f over the segment.
 * The gap closes at second order in the segment width where f is smooth.
 *
 * The refinement's common steps are here too: the first round's even samples
 * ({@link firstSamples}) and the bisection of the marked segments ({@link bisectMarked}); which
 * segments to mark, when to stop and the sums' rounding stay each caller's own.
 *
 * Units: t in the axis' unit; f in the unit of the section's (1/power)-th measure, so an area's
 * square root or a length (unit); the results in unit × unit^power. Our own derivation.
 */

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;

/** [lower, upper] of the last {@link segmentBounds} (unit^(power+1)). */
export const segmentOut = new Float64Array(2);
/** The breakpoints of {@link clampedPowerIntegral} (at most five), sorted. */
const breaks = new Float64Array(5);
/** How many of {@link breaks} are set. */
let nBreaks = 0;

/**
 * [lower, upper] of ∫ f^power (power 1 or 2) over segment i, [ts[i], ts[i + 1]], into
 * {@link segmentOut} (module doc). j, k: the first and last samples certainly in I (lo > 0);
 * `cap`: a bound of f over the segment. With `outermost`, a segment beyond the certain samples
 * (before j or after k) is also held below the extension of the chord of the two outermost
 * certain samples (the outer one's upper value, the inner one's lower), which holds there
 * whatever the uncertain samples' upper values. `zl` (< j) and `zr` (> k), when given: the
 * nearest samples outside the certain ones whose upper value is 0 — f is 0 there, so I lies
 * between them and every segment beyond them is 0 (a solid cut off square by a half-space).
 */
export function segmentBounds(
  ts: number[],
  lo: number[],
  hi: number[],
  i: number,
  j: number,
  k: number,
  power: number,
  cap: number,
  outermost: boolean,
  zl = -1,
  zr = Infinity,
): void {
  if (i + 1 <= zl || i >= zr) {
    // Beyond a sample whose upper value is 0 on the far side of the certain ones: f(t) = 0
    // there, so I ends before it and f is 0 over this segment.
    segmentOut[0] = 0;
    segmentOut[1] = 0;
    return;
  }
  const ta = ts[i];
  const tb = ts[i + 1];
  const w = tb - ta;
  let lower = 0;
  if (i >= j && i + 1 <= k) {
    const a = lo[i];
    const b = lo[i + 1];
    lower = power === 2 ? (w * (a * a + a * b + b * b)) / 3 : (w * (a + b)) / 2;
  }
  // Candidate lines by their values at ta and tb (Infinity: none).
  let la = Infinity;
  let lb = Infinity;
  let la2 = Infinity;
  let lb2 = Infinity;
  const fl = Math.min(i - 1, k);
  if (fl >= j && fl >= 0) {
    const slope = (hi[i] - lo[fl]) / (ts[i] - ts[fl]);
    la = hi[i];
    lb = hi[i] + slope * w;
  }
  const fr = Math.max(i + 2, j);
  if (fr <= k) {
    const slope = (hi[i + 1] - lo[fr]) / (ts[fr] - ts[i + 1]);
    lb2 = hi[i + 1];
    la2 = hi[i + 1] + slope * w;
  }
  if (outermost) {
    if (i + 1 <= j && j < k) {
      const slope = (lo[j + 1] - hi[j]) / (ts[j + 1] - ts[j]);
      const va = hi[j] + slope * (ta - ts[j]);
      const vb = hi[j] + slope * (tb - ts[j]);
      if (vb < lb2) {
        la2 = va;
        lb2 = vb;
      }
    } else if (i >= k && j < k) {
      const slope = (hi[k] - lo[k - 1]) / (ts[k] - ts[k - 1]);
      const va = hi[k] + slope * (ta - ts[k]);
      const vb = hi[k] + slope * (tb - ts[k]);
      if (va < la) {
        la = va;
        lb = vb;
      }
    }
  }
  const upper = clampedPowerIntegral(w, la, lb, la2, lb2, cap, power);
  segmentOut[0] = lower;
  segmentOut[1] = Math.max(lower, upper);
}

/**
 * ∫ over a segment of width w (unit) of g^power (power 1 or 2), g = clamp(min(L1, L2), 0, cap),
 * L1 and L2 the lines through (0, a1), (w, b1) and (0, a2), (w, b2) (Infinity for a missing
 * line): g is piecewise linear with breakpoints where the lines cross each other, 0 or cap; on
 * a piece of width w' from p to q, ∫g = w'(p + q)/2 and ∫g² = w'(p² + pq + q²)/3. Rounded up by
 * the breakpoints' own rounding.
 */
export function clampedPowerIntegral(
  w: number,
  a1: number,
  b1: number,
  a2: number,
  b2: number,
  cap: number,
  power: number,
): number {
  if (a1 === Infinity && a2 === Infinity) return (power === 2 ? cap * cap : cap) * w;
  if (a1 === Infinity) {
    a1 = a2;
    b1 = b2;
  } else if (a2 === Infinity) {
    a2 = a1;
    b2 = b1;
  }
  nBreaks = 0;
  cut(a1 - a2, b1 - b2, 0);
  cut(a1, b1, 0);
  cut(a2, b2, 0);
  cut(a1, b1, cap);
  cut(a2, b2, cap);
  const nb = nBreaks;
  let sum = 0;
  let s0 = 0;
  let p = Math.max(0, Math.min(cap, a1, a2));
  for (let i = 0; i <= nb; i++) {
    const s1 = i < nb ? breaks[i] : 1;
    if (!(s1 > s0)) continue;
    const q = Math.max(0, Math.min(cap, a1 + s1 * (b1 - a1), a2 + s1 * (b2 - a2)));
    sum += power === 2 ? ((s1 - s0) * (p * p + p * q + q * q)) / 3 : ((s1 - s0) * (p + q)) / 2;
    s0 = s1;
    p = q;
  }
  // The breakpoints' own rounding: g is within a few ulps of cap of its exact value. (16u is a
  // power of two: 16u·cap·cap is one rounding of the exact product, short of under/overflow.)
  const slack = power === 2 ? 16 * UNIT_ROUNDOFF * cap * cap * w : 16 * UNIT_ROUNDOFF * cap * w;
  return sum * w * (1 + 16 * UNIT_ROUNDOFF) + slack;
}

/** Inserts into the sorted breaks the fraction s ∈ (0, 1) where p + s(q − p) = v, if any. */
function cut(p: number, q: number, v: number): void {
  if ((p - v) * (q - v) < 0) {
    const x = (v - p) / (q - p);
    let i = nBreaks++;
    while (i > 0 && breaks[i - 1] > x) {
      breaks[i] = breaks[i - 1];
      i--;
    }
    breaks[i] = x;
  }
}

/** A sampler of f: out = [lower, upper] of f(t) (unit). */
export type BracketSampler = (t: number, out: Float64Array) => void;

/**
 * Appends to ts, lo, hi `n` ≥ 2 samples of f spaced evenly over [t0, t1] (the last exactly at
 * t1), the bracket's first round. `out`: the caller's own scratch for the sampler's answer (a
 * sampler may itself run a bracket: the chords' slices).
 */
export function firstSamples(
  sample: BracketSampler,
  t0: number,
  t1: number,
  n: number,
  ts: number[],
  lo: number[],
  hi: number[],
  out: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const t = i === n - 1 ? t1 : t0 + ((t1 - t0) * i) / (n - 1);
    sample(t, out);
    ts.push(t);
    lo.push(out[0]);
    hi.push(out[1]);
  }
}

/**
 * Splits, in place, each segment i of ts with marks[i] = 1 at its midpoint (sampled into lo,
 * hi), while there are fewer than `maxSamples` samples and the midpoint is strictly between the
 * ends (a segment at the doubles' spacing stays whole). False when nothing was split. `out`:
 * as for {@link firstSamples}.
 */
export function bisectMarked(
  sample: BracketSampler,
  ts: number[],
  lo: number[],
  hi: number[],
  marks: ArrayLike<number>,
  maxSamples: number,
  out: Float64Array,
): boolean {
  const n = ts.length;
  const ts2: number[] = [];
  const lo2: number[] = [];
  const hi2: number[] = [];
  for (let i = 0; i < n; i++) {
    ts2.push(ts[i]);
    lo2.push(lo[i]);
    hi2.push(hi[i]);
    if (i + 1 < n && marks[i] === 1 && ts2.length < maxSamples) {
      const m = 0.5 * (ts[i] + ts[i + 1]);
      if (m > ts[i] && m < ts[i + 1]) {
        sample(m, out);
        ts2.push(m);
        lo2.push(out[0]);
        hi2.push(out[1]);
      }
    }
  }
  if (ts2.length === n) return false;
  for (let i = 0; i < ts2.length; i++) {
    ts[i] = ts2[i];
    lo[i] = lo2[i];
    hi[i] = hi2[i];
  }
  return true;
}
