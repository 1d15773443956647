/**
 * The volume of a ball ∩ an axis-aligned box, by a cancellation-free one-dimensional integral,
 * with a bound on its error.
 *
 * By inclusion–exclusion over the box's slabs the volume is a signed sum of
 * P(a, b, c) = |unit ball ∩ {x > a, y > b, z > c}| with a, b, c ≥ 0 (a slab that straddles the
 * centre is the whole axis, "x > 0" twice, minus the two parts beyond its ends; a slab on one
 * side is mirrored to the positive side first). Each P is computed without cancellation:
 * growing the disc's radius ρ in a cross-section z = const sweeps the arc of the quadrant
 * corner {x > a, y > b}, so the corner's area is A = ½∫φ d(ρ²), φ the angle of that arc; and
 * the z-extent of the part of the ball where ρ² − a² − b² ≥ s is √(c² + D − s) − c. Hence
 *
 *   P(a, b, c) = ½ ∫₀ᴰ φ(s) · (D − s) / (√(c² + D − s) + c) ds,    D = 1 − a² − b² − c²,
 *   φ(s)       = atan2(ρ² s / (XY + ab), aX + bY),   X = √(a² + s), Y = √(b² + s), ρ² = a² + b² + s,
 *
 * every factor ≥ 0 and computed without subtracting close numbers (XY − ab = ρ² s / (XY + ab));
 * D by a compensated sum. The integrand is analytic on [0, D] except for branch points at
 * s = −a², −b² (just left of 0 when a or b is small) and s = D + c² (just right of D when c is
 * small), so it is integrated by Gauss–Legendre panels graded geometrically toward both ends
 * (each panel sits at a distance from the branch points at least a third of its width: the
 * rule converges like 3^(−2n)), the tiny end pieces bounded by monotonicity. A quadrant of a
 * cap (a = b = 0) has the closed form π(1 − c)²(2 + c)/12. (Derived for this file; checked against
 * 60-digit tanh–sinh quadrature of the cross-section area in the repository's scripts/ball-box-oracle.py and
 * test/query/ball-box-volume.test.ts.) Computed in units of the radius, so any scale works.
 */
import { productError } from "../math/scalar.js";

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;
/**
 * Relative error bound of one P (the quadrature of a positive integrand, graded panels with
 * Bernstein-ellipse parameter ≥ 3 at 16 nodes, ≈ 3^−32 ≈ 5e-16, plus the integrand's few
 * roundings): unitless, with a margin of ten over what the 60-digit oracle measures.
 */
const CORNER_RELATIVE_ERROR = 1e-14;
/** Ratio of consecutive graded panels toward an end of the interval. */
const GRADING = 0.25;
/** The end piece left out once its bound is below this fraction of the sum. */
const TAIL_FRACTION = 2 ** -60;
/** Most graded panels per end. */
const MAX_PANELS = 80;

/** Gauss–Legendre nodes (on [0, 1]) and weights of order 16, by Newton on P₁₆ at load time. */
const GL_ORDER = 16;
const GL_NODES = new Float64Array(GL_ORDER);
const GL_WEIGHTS = new Float64Array(GL_ORDER);
{
  const n = GL_ORDER;
  for (let i = 0; i < n; i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let dp = 1;
    for (let it = 0; it < 100; it++) {
      let p0 = 1;
      let p1 = x;
      for (let k = 2; k <= n; k++) {
        const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = (n * (x * p1 - p0)) / (x * x - 1);
      const dx = p1 / dp;
      x -= dx;
      if (Math.abs(dx) < 1e-17) break;
    }
    GL_NODES[i] = 0.5 * (1 - x);
    GL_WEIGHTS[i] = 1 / ((1 - x * x) * dp * dp);
  }
}

/** 1 − a² − b² − c², compensated (error ≈ u times the result, not times 1). */
function depth(a: number, b: number, c: number): number {
  const a2 = a * a;
  const b2 = b * b;
  const c2 = c * c;
  let err = -productError(a, a, a2) - productError(b, b, b2) - productError(c, c, c2);
  let s = 1;
  for (const t of [-a2, -b2, -c2]) {
    const n = s + t;
    const bb = n - s;
    err += s - (n - bb) + (t - bb);
    s = n;
  }
  return s + err;
}

/** The integrand of P: φ(s)·(D − s)/(√(c² + D − s) + c), given s and v = D − s. */
function integrand(a: number, b: number, c: number, s: number, v: number): number {
  const x = Math.sqrt(a * a + s);
  const y = Math.sqrt(b * b + s);
  const rho2 = a * a + b * b + s;
  const phi = Math.atan2((rho2 * s) / (x * y + a * b), a * x + b * y);
  return (phi * v) / (Math.sqrt(c * c + v) + c);
}

/**
 * |unit ball ∩ {x > a, y > b, z > c}| for 0 ≤ c ≤ b ≤ a (see the module doc). Relative error
 * at most {@link CORNER_RELATIVE_ERROR}.
 */
function positiveCorner(a: number, b: number, c: number): number {
  if (a >= 1) return 0;
  if (a === 0) {
    // b = c = 0: an eighth of the ball.
    return Math.PI / 6;
  }
  if (b === 0) {
    // A quarter of the cap beyond x = a.
    const t = 1 - a;
    return (Math.PI * t * t * (2 + a)) / 12;
  }
  const d = depth(a, b, c);
  if (!(d > 0)) return 0;
  // The integrand grows from 0 at s = 0 and falls to 0 at s = D; grade toward both ends.
  const half = 0.5 * d;
  let sum = 0;
  // Toward s = 0: panels [σ^(k+1)·half, σ^k·half].
  let hiS = half;
  for (let k = 0; k < MAX_PANELS; k++) {
    // The last panel reaches 0 once the branch points at −b², −a² are a third of its width away.
    const loS = k === MAX_PANELS - 1 || 3 * b * b >= hiS ? 0 : hiS * GRADING;
    const w = hiS - loS;
    let part = 0;
    for (let i = 0; i < GL_ORDER; i++) {
      const s = loS + w * GL_NODES[i];
      part += GL_WEIGHTS[i] * integrand(a, b, c, s, d - s);
    }
    sum += part * w;
    hiS = loS;
    // The rest, ∫₀^loS: φ is increasing and the other factor is ≤ its value at 0.
    if (loS === 0 || loS * integrand(a, b, c, loS, d) <= TAIL_FRACTION * sum) break;
  }
  // Toward s = D, in v = D − s: panels [σ^(k+1)·half, σ^k·half].
  let hiV = d - half;
  for (let k = 0; k < MAX_PANELS; k++) {
    // Likewise toward D, whose branch point is c² beyond it.
    const loV = k === MAX_PANELS - 1 || 3 * c * c >= hiV ? 0 : hiV * GRADING;
    const w = hiV - loV;
    let part = 0;
    for (let i = 0; i < GL_ORDER; i++) {
      const v = loV + w * GL_NODES[i];
      part += GL_WEIGHTS[i] * integrand(a, b, c, d - v, v);
    }
    sum += part * w;
    hiV = loV;
    // The rest, ∫₀^loV dv: φ ≤ φ(D) and the other factor is increasing in v.
    if (loV === 0 || loV * integrand(a, b, c, d, loV) <= TAIL_FRACTION * sum) break;
  }
  return 0.5 * sum;
}

/** |unit ball ∩ {x > a, y > b, z > c}| for a, b, c ≥ 0, in any order. */
function corner(a: number, b: number, c: number): number {
  // Sort descending so that every axis order computes the same value.
  let p = a;
  let q = b;
  let r = c;
  if (p < q) [p, q] = [q, p];
  if (q < r) [q, r] = [r, q];
  if (p < q) [p, q] = [q, p];
  return positiveCorner(p, q, r);
}

/** The value and error bound of {@link ballBoxVolumeBounded}. */
export interface BallBoxVolume {
  /** The volume (unit³). */
  volume: number;
  /** A bound on the error of the computation from the given bounds (unit³). */
  errorBound: number;
}

/** Per axis, the slab as signed "beyond" terms: up to 3 (threshold, weight) pairs. */
const thresholds = [new Float64Array(3), new Float64Array(3), new Float64Array(3)];
const weights = [new Float64Array(3), new Float64Array(3), new Float64Array(3)];
const termCount = new Int32Array(3);

function slabTerms(axis: number, lo: number, hi: number): void {
  // Mirror a slab on the negative side to the positive side.
  let l = lo;
  let h = hi;
  if (h <= 0) {
    l = -hi;
    h = -lo;
  }
  const t = thresholds[axis];
  const w = weights[axis];
  let n = 0;
  if (l >= 0) {
    // 1[l < x < h] = 1[x > l] − 1[x > h].
    t[n] = l;
    w[n++] = 1;
    if (h < 1) {
      t[n] = h;
      w[n++] = -1;
    }
  } else {
    // 1[l < x < h] = 1 − 1[x > h] − 1[−x > −l]; the whole axis is twice "x > 0".
    t[n] = 0;
    w[n++] = 2;
    if (h < 1) {
      t[n] = h;
      w[n++] = -1;
    }
    if (-l < 1) {
      t[n] = -l;
      w[n++] = -1;
    }
  }
  termCount[axis] = n;
}

/**
 * The volume of the ball of `radius` centred at the origin intersected with the box
 * [x0, x1] × [y0, y1] × [z0, z1] (unit³; finite bounds with x0 ≤ x1 …, radius > 0), with a
 * bound on the error of computing it from these bounds (the quadrature and rounding; the
 * error of the bounds themselves is the caller's). See the module doc for the method.
 */
export function ballBoxVolumeBounded(
  radius: number,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
): BallBoxVolume {
  const r = radius;
  // Clip the box to the ball's cube (exact for the volume), then work in units of r.
  const ax = Math.max(x0, -r) / r;
  const bx = Math.min(x1, r) / r;
  const ay = Math.max(y0, -r) / r;
  const by = Math.min(y1, r) / r;
  const az = Math.max(z0, -r) / r;
  const bz = Math.min(z1, r) / r;
  if (!(ax < bx && ay < by && az < bz)) return { volume: 0, errorBound: 0 };
  slabTerms(0, ax, bx);
  slabTerms(1, ay, by);
  slabTerms(2, az, bz);
  let v = 0;
  let magnitude = 0;
  let terms = 0;
  for (let i = 0; i < termCount[0]; i++) {
    for (let j = 0; j < termCount[1]; j++) {
      for (let k = 0; k < termCount[2]; k++) {
        const p = corner(thresholds[0][i], thresholds[1][j], thresholds[2][k]);
        if (p === 0) continue;
        const w = weights[0][i] * weights[1][j] * weights[2][k];
        v += w * p;
        magnitude += Math.abs(w * p);
        terms++;
      }
    }
  }
  const boxVolume = (bx - ax) * (by - ay) * (bz - az);
  const unitVolume = Math.min(Math.max(0, v), boxVolume, (4 / 3) * Math.PI);
  // Each P within CORNER_RELATIVE_ERROR; the signed sum adds a rounding per term; the final
  // scaling by r³ three more.
  const unitError =
    magnitude * (CORNER_RELATIVE_ERROR + (terms + 4) * UNIT_ROUNDOFF) +
    4 * UNIT_ROUNDOFF * unitVolume;
  const r3 = r * r * r;
  return { volume: unitVolume * r3, errorBound: unitError * r3 };
}

/** {@link ballBoxVolumeBounded}'s volume alone (unit³). */
export function ballBoxVolume(
  radius: number,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
): number {
  return ballBoxVolumeBounded(radius, x0, y0, z0, x1, y1, z1).volume;
}
