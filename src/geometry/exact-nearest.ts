/**
 * The exact nearest point of a triangle or a segment to a point, in rational arithmetic (BigInt),
 * rounded to doubles once at the end: the slow path of `projectPoint` for a query point far from
 * a small polytope (src/geometry/triangle-projection.ts, the hull's and the 2D polygon's
 * projections), and of a cylinder or a cone ({@link exactRevolutionWhenFar}: integer square roots
 * with enough bits, each coordinate rounded once).
 *
 * Why: from a point q at distance D of a feature of size s, the feature's parameters (a
 * segment's t = (q − a)·(b − a)/|b − a|², a face's barycentric weights) are quotients of dot
 * products whose terms are of size D·s while the result is of size s²: in doubles each carries
 * an absolute error of about ε·D·s, so the nearest point drifts by ε·D (a unit triangle seen from
 * (1e16, 1e16) answered its corner (1, 0) instead of the midpoint (0.5, 0.5) of its edge).
 * Every double is an integer times 2^E for the smallest exponent E of the inputs' last bits, so
 * the Voronoi region walk (Ericson 2005, §5.1.5) runs exactly on integers; the point's
 * coordinates are rationals rounded to nearest (one rounding, twice only for a subnormal result).
 * Allocates (BigInt); only points far from the feature come here.
 */

import type { Vec3 } from "../math/vec3.js";

const bits = new Float64Array(1);
const words = new BigUint64Array(bits.buffer);
const MANT = (1n << 52n) - 1n;

/** The exponent of the last bit of the double x (its ulp's log2; −1074 for subnormals). */
export function lastBitExponent(x: number): number {
  bits[0] = x;
  const e = Number((words[0] >> 52n) & 0x7ffn);
  return e === 0 ? -1074 : e - 1075;
}

/** x / 2^e as an integer (exact when e ≤ lastBitExponent(x)); x finite. */
export function toScaledInt(x: number, e: number): bigint {
  if (x === 0) return 0n;
  bits[0] = x;
  const w = words[0];
  const be = Number((w >> 52n) & 0x7ffn);
  const m = be === 0 ? w & MANT : (w & MANT) | (1n << 52n);
  const ex = be === 0 ? -1074 : be - 1075;
  const v = m << BigInt(ex - e);
  return x < 0 ? -v : v;
}

function bitLength(n: bigint): number {
  return n === 0n
    ? 0
    : n.toString(16).length * 4 - (Math.clz32(Number.parseInt(n.toString(16)[0], 16)) - 28);
}

/** x · 2^k without intermediate overflow or underflow (one rounding, at the end). */
function ldexp(x: number, k: number): number {
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
  }
  return x * 2 ** k;
}

/** (n / d) · 2^e rounded to the nearest double (d > 0). */
export function ratioToNumber(n: bigint, d: bigint, e: number): number {
  if (n === 0n) return 0;
  const neg = n < 0n;
  const a = neg ? -n : n;
  let s = 66 - (bitLength(a) - bitLength(d));
  let q: bigint;
  let r: bigint;
  if (s >= 0) {
    const nn = a << BigInt(s);
    q = nn / d;
    r = nn - q * d;
  } else {
    const dd = d << BigInt(-s);
    q = a / dd;
    r = a - q * dd;
  }
  // A sticky bit below the 66 kept: Number() then rounds to nearest as the exact value would.
  q <<= 1n;
  s += 1;
  if (r !== 0n) q |= 1n;
  const v = ldexp(Number(q), e - s);
  return neg ? -v : v;
}

/**
 * The exact nearest point of a triangle (or segment) as rationals: `num[i] / den` (i = x, y, z)
 * in units of 2^E, and the squared distance `sqNum / den²` in units of 2^2E.
 */
export interface ExactNearest {
  num: [bigint, bigint, bigint];
  den: bigint;
  sqNum: bigint;
}

function dot(ax: bigint, ay: bigint, az: bigint, bx: bigint, by: bigint, bz: bigint): bigint {
  return ax * bx + ay * by + az * bz;
}

function finish(
  px: bigint,
  py: bigint,
  pz: bigint,
  nx: bigint,
  ny: bigint,
  nz: bigint,
  den: bigint,
): ExactNearest {
  const dx = px * den - nx;
  const dy = py * den - ny;
  const dz = pz * den - nz;
  return { num: [nx, ny, nz], den, sqNum: dx * dx + dy * dy + dz * dz };
}

/**
 * The exact nearest point of the segment ab to p, all integer coordinates (units 2^E).
 * t = (p − a)·(b − a) / |b − a|² clamped to [0, 1].
 */
export function exactNearestOnSegment(
  a: readonly bigint[],
  b: readonly bigint[],
  p: readonly bigint[],
): ExactNearest {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const ez = b[2] - a[2];
  const num = dot(p[0] - a[0], p[1] - a[1], p[2] - a[2], ex, ey, ez);
  const den = dot(ex, ey, ez, ex, ey, ez);
  if (num <= 0n || den === 0n) return finish(p[0], p[1], p[2], a[0], a[1], a[2], 1n);
  if (num >= den) return finish(p[0], p[1], p[2], b[0], b[1], b[2], 1n);
  return finish(
    p[0],
    p[1],
    p[2],
    a[0] * den + ex * num,
    a[1] * den + ey * num,
    a[2] * den + ez * num,
    den,
  );
}

/**
 * The exact nearest point of the triangle abc to p (integer coordinates, units 2^E): the
 * Voronoi region walk of Ericson 2005, §5.1.5, on exact dot products. A degenerate triangle
 * (collinear corners) is the nearest of its three edges.
 */
export function exactNearestOnTriangle(
  a: readonly bigint[],
  b: readonly bigint[],
  c: readonly bigint[],
  p: readonly bigint[],
): ExactNearest {
  const abx = b[0] - a[0];
  const aby = b[1] - a[1];
  const abz = b[2] - a[2];
  const acx = c[0] - a[0];
  const acy = c[1] - a[1];
  const acz = c[2] - a[2];
  const d1 = dot(abx, aby, abz, p[0] - a[0], p[1] - a[1], p[2] - a[2]);
  const d2 = dot(acx, acy, acz, p[0] - a[0], p[1] - a[1], p[2] - a[2]);
  if (d1 <= 0n && d2 <= 0n) return finish(p[0], p[1], p[2], a[0], a[1], a[2], 1n);
  const d3 = dot(abx, aby, abz, p[0] - b[0], p[1] - b[1], p[2] - b[2]);
  const d4 = dot(acx, acy, acz, p[0] - b[0], p[1] - b[1], p[2] - b[2]);
  if (d3 >= 0n && d4 <= d3) return finish(p[0], p[1], p[2], b[0], b[1], b[2], 1n);
  const d5 = dot(abx, aby, abz, p[0] - c[0], p[1] - c[1], p[2] - c[2]);
  const d6 = dot(acx, acy, acz, p[0] - c[0], p[1] - c[1], p[2] - c[2]);
  if (d6 >= 0n && d5 <= d6) return finish(p[0], p[1], p[2], c[0], c[1], c[2], 1n);
  const vc = d1 * d4 - d3 * d2;
  const vb = d5 * d2 - d1 * d6;
  const va = d3 * d6 - d5 * d4;
  if (va + vb + vc === 0n) {
    // Collinear corners: the nearest of the three edges.
    let best = exactNearestOnSegment(a, b, p);
    for (const e of [exactNearestOnSegment(b, c, p), exactNearestOnSegment(c, a, p)]) {
      if (exactCloser(e, best)) best = e;
    }
    return best;
  }
  if (vc <= 0n && d1 >= 0n && d3 <= 0n) return exactNearestOnSegment(a, b, p);
  if (vb <= 0n && d2 >= 0n && d6 <= 0n) return exactNearestOnSegment(a, c, p);
  if (va <= 0n && d4 - d3 >= 0n && d5 - d6 >= 0n) return exactNearestOnSegment(b, c, p);
  const den = va + vb + vc;
  return finish(
    p[0],
    p[1],
    p[2],
    a[0] * den + abx * vb + acx * vc,
    a[1] * den + aby * vb + acy * vc,
    a[2] * den + abz * vb + acz * vc,
    den,
  );
}

/** True when x is strictly nearer its point than y (exact squared distances compared). */
export function exactCloser(x: ExactNearest, y: ExactNearest): boolean {
  return x.sqNum * y.den * y.den < y.sqNum * x.den * x.den;
}

/** The smallest last-bit exponent over the coordinates of the points (nonzero ones). */
export function commonExponent(points: readonly Vec3[]): number {
  let e = Number.POSITIVE_INFINITY;
  for (const p of points) {
    if (p.x !== 0) e = Math.min(e, lastBitExponent(p.x));
    if (p.y !== 0) e = Math.min(e, lastBitExponent(p.y));
    if (p.z !== 0) e = Math.min(e, lastBitExponent(p.z));
  }
  return e === Number.POSITIVE_INFINITY ? 0 : e;
}

/** The point as integers in units of 2^e. */
export function toScaledVec(p: Vec3, e: number): [bigint, bigint, bigint] {
  return [toScaledInt(p.x, e), toScaledInt(p.y, e), toScaledInt(p.z, e)];
}

/**
 * The distance of `r` (units 2^e), √sqNum / |den| · 2^e, rounded from ⌊√(sqNum·4^k)⌋ with at
 * least 120 bits (to 2^-119 of itself, then rounded once): exact to the last bit where the
 * rounded point's distance is not — a point of coordinates far above its distance carries their
 * rounding (a mesh at 4e13 seen from 1e7 had answered 2.5e4 ulps off, session 42).
 */
export function exactDistance(r: ExactNearest, e: number): number {
  if (r.sqNum === 0n) return 0;
  const k = Math.max(0, Math.ceil((240 - bitLength(r.sqNum)) / 2));
  const root = isqrt(r.sqNum << BigInt(2 * k));
  const den = (r.den < 0n ? -r.den : r.den) << BigInt(k);
  return ratioToNumber(root, den, e);
}

/** Writes the rounded nearest point of `r` (units 2^e) to `out`. */
export function roundNearest(out: Vec3, r: ExactNearest, e: number): Vec3 {
  out.x = ratioToNumber(r.num[0], r.den, e);
  out.y = ratioToNumber(r.num[1], r.den, e);
  out.z = ratioToNumber(r.num[2], r.den, e);
  return out;
}

/**
 * The ratio beyond which a query point counts as far from a feature (its distance over the
 * feature's extent): the double paths' error, about ε·D, stays within a few ulps of the
 * feature's coordinates below it, and the exact path answers beyond it.
 */
export const EXACT_FAR_RATIO = 4;

/**
 * The ratio of a feature's coordinates to its extent beyond which it counts as small for its
 * place (2^44, the feature spanning under 2^8 ulps of its coordinates): its offsets then carry
 * few bits, and the double walk's error, ε times the coordinates, is a fair part of the feature
 * (a 1e-6 triangle at 1e9 answered 8 ulps off).
 */
export const EXACT_SMALL_RATIO = 2 ** 44;

/**
 * How many query entries (`projectPoint`, `projectPoints`, `projectPoint2D`) are active: the
 * exact path runs only inside them ({@link exactFarScope}), never in the narrow phase's own
 * projections (src/narrowphase/mesh-solid.ts: the world's step must not allocate).
 */
const exactFarDepth = new Int32Array(1);

/** Whether a query entry that takes the exact far path is active (a cheap first test). */
export function exactFarActive(): boolean {
  return exactFarDepth[0] > 0;
}

/**
 * Turns the exact far path off (returning the depth it had), for a walk that decides its ties
 * exactly afterwards; {@link exactFarResume} restores it.
 */
export function exactFarSuspend(): number {
  const d = exactFarDepth[0];
  exactFarDepth[0] = 0;
  return d;
}

/** Restores the depth {@link exactFarSuspend} returned. */
export function exactFarResume(depth: number): void {
  exactFarDepth[0] = depth;
}

/** Opens (+1) or closes (−1) a query entry that takes the exact far path. */
export function exactFarScope(delta: 1 | -1): void {
  exactFarDepth[0] += delta;
}

/**
 * Whether the exact path answers a query at `distance` from a feature of extent `ext` whose
 * coordinates reach `coord`: inside a query entry only, when the point is far
 * ({@link EXACT_FAR_RATIO}) or the feature small for its place ({@link EXACT_SMALL_RATIO});
 * never for a degenerate or overflowing extent.
 */
export function exactPathFor(distance: number, ext: number, coord: number): boolean {
  if (exactFarDepth[0] === 0 || !(ext > 0 && Number.isFinite(ext))) return false;
  return distance > EXACT_FAR_RATIO * ext || coord > EXACT_SMALL_RATIO * ext;
}

/**
 * `closest` (the double nearest point of segment ab to p) again in exact rationals when p is
 * farther from it than {@link EXACT_FAR_RATIO} times the segment's extent, rounded once (a
 * capsule's core). True when it did. Allocates (BigInt) only for such far points.
 */
export function exactSegmentWhenFar(closest: Vec3, p: Vec3, a: Vec3, b: Vec3): boolean {
  const ext = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y), Math.abs(b.z - a.z));
  const g = Math.max(
    Math.abs(p.x - closest.x),
    Math.abs(p.y - closest.y),
    Math.abs(p.z - closest.z),
  );
  if (!exactPathFor(g, ext, Math.max(maxAbs(a), maxAbs(b)))) return false;
  const e = commonExponent([a, b, p]);
  roundNearest(
    closest,
    exactNearestOnSegment(toScaledVec(a, e), toScaledVec(b, e), toScaledVec(p, e)),
    e,
  );
  return true;
}

function maxAbs(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
}

/**
 * ⌊√n⌋ for an integer n ≥ 0: Newton's method on BigInt from above the root — from the double
 * square root of n's top 104 bits, plus 2 for its rounding, so that each step doubles some 52
 * correct bits (a power of two above had cost a dozen steps at 1000 bits).
 */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  const len = bitLength(n);
  const half = len > 104 ? (len - 103) >> 1 : 0;
  const top = Number(n >> BigInt(2 * half));
  let x = (BigInt(Math.ceil(Math.sqrt(top))) + 2n) << BigInt(half);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * Fractional bits of the radial distance ρ = √(x² + z²) in {@link exactRevolutionWhenFar}: ρ is
 * taken as ⌊ρ·2^k⌋ in units of 2^E, so each coordinate built from it carries a relative error
 * below 2^-k (and a cone's slant parameter an absolute one below 2^-k), far below the one rounding
 * to a double.
 */
const RHO_BITS = 160n;

/** Sign of R·√A − C for integers R ≥ 0, A ≥ 0 (exact: by squares when both sides are ≥ 0). */
function signRootMinus(R: bigint, A: bigint, C: bigint): number {
  if (C < 0n) return R > 0n && A > 0n ? 1 : -1;
  const l = R * R * A;
  const r = C * C;
  return l > r ? 1 : l < r ? -1 : 0;
}

/**
 * The nearest point of a cylinder (`cone` false: radius r, y in [−h, h], axis Y) or a cone (`cone`
 * true: base radius r at y = −h, apex at +h) to a local point p outside it, again exactly when p
 * is farther than {@link EXACT_FAR_RATIO} times the solid's extent from `out` (the double
 * answer, overwritten): the double profile carries ρ = √(x² + z²) rounded, and its parameters
 * (the clamp to a cap's disc, a cone's slant foot t = (r·ρ − 2h·(y − h))/(r² + 4h²)) drift by
 * ε·distance; a cone seen from 1e8 sizes below its base answered 5e-9 off the foot (x, −h, z).
 * Here every input is an integer in units of 2^E, the region is decided exactly (comparisons of
 * r·ρ with rationals by their squares), and ρ enters only as ⌊ρ·2^k⌋ ({@link RHO_BITS}) in the
 * final quotients, each coordinate rounded once: a cap's foot is (x, ±h, z) as given, a rim's or
 * side's point r·(x, z)/ρ, a slant's r·t·(x, z)/ρ at height h − 2h·t, the apex (0, h, 0). True
 * when it did. Allocates (BigInt); only the query entries ({@link exactFarScope}) come here.
 */
export function exactRevolutionWhenFar(
  out: Vec3,
  distance: number,
  cone: boolean,
  h: number,
  r: number,
  p: Vec3,
): boolean {
  const ext = 2 * Math.max(h, r);
  if (!exactPathFor(distance, ext, ext)) return false;
  let e = Math.min(lastBitExponent(h), lastBitExponent(r));
  if (p.x !== 0) e = Math.min(e, lastBitExponent(p.x));
  if (p.y !== 0) e = Math.min(e, lastBitExponent(p.y));
  if (p.z !== 0) e = Math.min(e, lastBitExponent(p.z));
  const X = toScaledInt(p.x, e);
  const Y = toScaledInt(p.y, e);
  const Z = toScaledInt(p.z, e);
  const H = toScaledInt(h, e);
  const R = toScaledInt(r, e);
  const A = X * X + Z * Z;
  const R2 = R * R;
  const k = RHO_BITS;
  if (!cone) {
    const y = Math.min(Math.max(p.y, -h), h);
    if (A <= R2) {
      // Over a cap's disc: the cap's foot, exact.
      out.x = p.x;
      out.y = y;
      out.z = p.z;
      return true;
    }
    const S = isqrt(A << (2n * k));
    out.x = ratioToNumber((R * X) << k, S, e);
    out.y = y;
    out.z = ratioToNumber((R * Z) << k, S, e);
    return true;
  }
  if (Y < -H) {
    // Below the base's plane: its foot over the disc, else the rim.
    out.y = -h;
    if (A <= R2) {
      out.x = p.x;
      out.z = p.z;
      return true;
    }
    const S = isqrt(A << (2n * k));
    out.x = ratioToNumber((R * X) << k, S, e);
    out.z = ratioToNumber((R * Z) << k, S, e);
    return true;
  }
  // Beside or above the base: the slant segment's clamped foot, t·L² = r·ρ − 2h·(y − h).
  const C = 2n * H * (Y - H);
  const L2 = R2 + 4n * H * H;
  if (signRootMinus(R, A, C) <= 0) {
    out.x = 0;
    out.y = h;
    out.z = 0;
    return true;
  }
  if (signRootMinus(R, A, C + L2) >= 0) {
    const S = isqrt(A << (2n * k));
    out.x = ratioToNumber((R * X) << k, S, e);
    out.y = -h;
    out.z = ratioToNumber((R * Z) << k, S, e);
    return true;
  }
  // t = T / (L²·2^k), T = R·S − C·2^k; the point r·t·(x, z)/ρ at height h − 2h·t (numerator
  // M = L²·2^k − 2T over L²·2^k, times h). S's error (below 1) puts an error below R in T and
  // 2R in M: where either cancels (t near 0, the apex's end, or near 1/2, height near 0), k grows
  // until both hold 2^100 times their error, so even a coordinate far below the shape's size is
  // rounded once from a value within 2^-100 of it. ρ rational (S exact) has no error; ρ irrational
  // makes neither T nor M zero, so the loop ends.
  let kk = k;
  let S = 0n;
  let T = 0n;
  let M = 0n;
  for (;;) {
    S = isqrt(A << (2n * kk));
    T = R * S - (C << kk);
    M = (L2 << kk) - 2n * T;
    if (S * S === A << (2n * kk)) break;
    const need = Math.max(
      bitLength(R) + 100 - bitLength(T < 0n ? -T : T),
      bitLength(R) + 101 - bitLength(M < 0n ? -M : M),
    );
    if (need <= 0 || kk > MAX_RHO_BITS) break;
    kk += BigInt(need + 8);
  }
  if (S === 0n) return false;
  out.x = ratioToNumber(R * X * T, L2 * S, e);
  out.y = ratioToNumber(H * M, L2 << kk, e);
  out.z = ratioToNumber(R * Z * T, L2 * S, e);
  return true;
}

/** The most fractional bits of ρ that {@link exactRevolutionWhenFar} takes (a bound, never met). */
const MAX_RHO_BITS = 1n << 13n;
