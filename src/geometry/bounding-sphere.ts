/**
 * Bounding spheres of point sets, three ways, from cheapest to tightest:
 *
 * - **mean**: the centroid, with the distance to the farthest point as radius;
 * - **Ritter** (Ritter 1990; Ericson 2005, §4.3.2): a sphere on the most separated pair of the
 *   axis extremes, grown point by point until it holds them all;
 * - **exact**: the minimum enclosing sphere by Welzl's algorithm (Welzl 1991) in its randomized
 *   incremental form: the points are shuffled by a fixed-seed generator (so results are
 *   deterministic), then nested loops keep 1–4 support points on the boundary. Support spheres
 *   use exact circumsphere formulas; a collinear or coplanar support set (or one whose
 *   circumsphere round-off makes larger than the points' AABB sphere, which no true support
 *   sphere can be) falls back to the smallest sphere enclosing the support set itself. Passes
 *   repeat with the worst violator moved to the front (Gärtner's move-to-front heuristic) until
 *   every point is inside, capped by `MAX_REFINE_ITERATIONS`.
 *
 * Points come packed (`x0, y0, z0, x1, …`) as any `ArrayLike<number>` (a `Float64Array`, a
 * mesh's vertex buffer) or as an array of `{x, y, z}`. Every method ends with a pass in world
 * coordinates that sets the radius to cover the farthest point from the reported centre
 * exactly: |p − c|² ≤ r² holds in exact arithmetic for the doubles c and r (a floating-point
 * filter with a certified error bound, an exact rational test for the few points near the
 * radius, `coverRadius`); a radius past the largest double is refused naming `points`. All three
 * work in coordinates relative to the points' AABB centre, rescaled by a power of two to unit
 * size, so far-from-origin sets keep their relative precision and tiny or huge ones neither
 * under- nor overflow. The calls allocate only when packing a `Vec3[]` input or growing the
 * module's scratch buffer.
 */

import {
  CIRCUMSPHERE_DEGENERACY_TOLERANCE,
  CONTAINMENT_TOLERANCE,
  MAX_REFINE_ITERATIONS,
} from "../constants.js";
import { invalidValue } from "../errors.js";
import { hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import { type PointSet, readPointSet } from "./point-set.js";

/** A sphere enclosing a point set: `center` in the points' frame, `radius` in their unit. */
export interface BoundingSphere {
  center: Vec3;
  radius: number;
}

export type { PointSet } from "./point-set.js";
export { packPoints } from "./point-set.js";

/** A new bounding sphere at the origin with radius 0 (allocates). */
export function makeBoundingSphere(): BoundingSphere {
  return { center: { x: 0, y: 0, z: 0 }, radius: 0 };
}

/**
 * Range of squared distances that squaring represents without underflow or overflow
 * (2^±1000, inside the doubles' normal range 2^±1022); outside it distances are re-measured.
 */
const SQUARE_SAFE_MIN = 2 ** -1000;
const SQUARE_SAFE_MAX = 2 ** 1000;
/** Largest binary exponent by which the points are rescaled to unit size. */
const RESCALE_MAX_EXPONENT = 1000;

/**
 * Lifts a computed distance over the true one. In the squaring range each point's computed
 * d² = fl(dx² + dy² + dz²) is within a factor (1 ± u)⁶ of the exact |p − c|² (u = 2⁻⁵³: one
 * rounding for each difference, counted twice by squaring, one for each product and sum; terms
 * that underflow add under 2⁻¹⁰⁷² against a maximum of at least 2⁻¹⁰⁰⁰), so every exact
 * distance is at most √max·(1 + 3.5u) and, after the rounding of the root, the computed root
 * s·(1 + 5u). Multiplying by 1 + 2⁻⁵⁰ = 1 + 8u (rounded, at least 1 + 6.9u) covers that.
 */
const COVER_FACTOR = 1 + 2 ** -50;
/**
 * The same lift for `hypot3`'s scaled form (each quotient x/m rounded once more), with room to
 * spare, and the subnormal results' absolute rounding (below one `Number.MIN_VALUE` there; the
 * differences of subnormals are exact).
 */
const COVER_FACTOR_SCALED = 1 + 2 ** -48;
const COVER_ABSOLUTE = 4 * Number.MIN_VALUE;

/**
 * The radius that covers every point from centre (cx, cy, cz) in exact arithmetic: the larger
 * of `radius` and the computed distance to the farthest point, measured in the points' own
 * coordinates, lifted by its certified error bound (COVER_FACTOR: a few ulps), so that
 * |p − c|² ≤ r² holds exactly for the doubles c and r — the containment the docs promise (it
 * had failed by up to 1.3 ulp of r in about a third of random sets, session 40, F3).
 */
function coverRadius(p: ArrayLike<number>, cx: number, cy: number, cz: number, radius: number) {
  let maxSq = 0;
  for (let i = 0; i < p.length; i += 3) {
    const dx = p[i] - cx;
    const dy = p[i + 1] - cy;
    const dz = p[i + 2] - cz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > maxSq) maxSq = d2;
  }
  if (maxSq >= SQUARE_SAFE_MIN && maxSq <= SQUARE_SAFE_MAX) {
    return certifiedRadius(p, cx, cy, cz, Math.max(radius, Math.sqrt(maxSq)), maxSq);
  }
  // Squares under- or overflowed: measure again without squaring.
  let maxD = 0;
  for (let i = 0; i < p.length; i += 3) {
    maxD = Math.max(maxD, hypot3(p[i] - cx, p[i + 1] - cy, p[i + 2] - cz));
  }
  // 0 only when every difference is 0, i.e. every point is the centre (gradual underflow).
  if (maxD === 0) return Math.max(radius, 0);
  return Math.max(radius, maxD * COVER_FACTOR_SCALED + COVER_ABSOLUTE);
}

/** At most this many points are tested exactly per call; past it the radius is lifted instead. */
const MAX_EXACT_TESTS = 64;

/**
 * The smallest double r ≥ `r0` (within a few ulps) with |p − c|² ≤ r² exactly for every point:
 * a point whose computed d² is clearly inside (d²·(1 + 2⁻⁴⁹) ≤ r²·(1 − 2⁻⁵⁰) in doubles, which
 * bounds the exact values by the error analysis of COVER_FACTOR) is certified by the filter; the
 * few near the boundary are decided exactly ({@link outsideExactly}) and r raised one ulp at a
 * time while one is outside. An exact answer (the sphere of 0 and 1 has radius 0.5) stays exact.
 * Past MAX_EXACT_TESTS tests (points all on the sphere) the certified lift of `maxSq` is used.
 */
function certifiedRadius(
  p: ArrayLike<number>,
  cx: number,
  cy: number,
  cz: number,
  r0: number,
  maxSq: number,
): number {
  let r = r0;
  let tests = 0;
  for (let i = 0; i < p.length; i += 3) {
    const dx = p[i] - cx;
    const dy = p[i + 1] - cy;
    const dz = p[i + 2] - cz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 * (1 + 2 ** -49) <= r * r * (1 - 2 ** -50)) continue;
    while (outsideExactly(p[i], p[i + 1], p[i + 2], cx, cy, cz, r)) {
      if (++tests > MAX_EXACT_TESTS) return Math.max(r0, Math.sqrt(maxSq) * COVER_FACTOR);
      r = nextUp(r);
    }
    if (++tests > MAX_EXACT_TESTS) return Math.max(r0, Math.sqrt(maxSq) * COVER_FACTOR);
  }
  return r;
}

const bits = new DataView(new ArrayBuffer(8));

/** The next double above the finite double r ≥ 0. */
function nextUp(r: number): number {
  bits.setFloat64(0, r);
  bits.setBigUint64(0, bits.getBigUint64(0) + 1n);
  return bits.getFloat64(0);
}

/** Mantissas (signed integers) and binary exponents of {@link outsideExactly}'s seven doubles. */
const mant: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n, 0n];
const expo = new Int32Array(7);

/** Splits the double x into mant[k]·2^expo[k], the mantissa an integer (exact). */
function split(k: number, x: number): void {
  if (x === 0) {
    // No bits: an exponent above every double's, so it never sets the common power.
    mant[k] = 0n;
    expo[k] = 2048;
    return;
  }
  bits.setFloat64(0, x);
  const hi = bits.getUint32(0);
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(bits.getUint32(4));
  // Normal: (2⁵² + fraction)·2^(e − 1075); subnormal (e = 0): fraction·2⁻¹⁰⁷⁴.
  if (e > 0) m |= 1n << 52n;
  mant[k] = hi >>> 31 ? -m : m;
  expo[k] = e > 0 ? e - 1075 : -1074;
}

/**
 * True when |p − c|² > r² in exact rational arithmetic: the seven doubles as integers over the
 * common power of two 2^min(exponent), compared as BigInts (a hundred-odd bits for points of
 * like magnitude); allocates, so called only for the few points near the radius.
 */
function outsideExactly(
  px: number,
  py: number,
  pz: number,
  cx: number,
  cy: number,
  cz: number,
  r: number,
): boolean {
  split(0, px);
  split(1, py);
  split(2, pz);
  split(3, cx);
  split(4, cy);
  split(5, cz);
  split(6, r);
  let lo = expo[0];
  for (let k = 1; k < 7; k++) if (expo[k] < lo) lo = expo[k];
  const v = (k: number): bigint => (mant[k] as bigint) << BigInt(expo[k] - lo);
  const dx = v(0) - v(3);
  const dy = v(1) - v(4);
  const dz = v(2) - v(5);
  const rr = v(6);
  return dx * dx + dy * dy + dz * dz > rr * rr;
}

/**
 * The points relative to their AABB centre, rescaled by a power of two (exactly) to unit size so
 * that no product of four coordinates under- or overflows and far-from-origin sets keep their
 * relative precision (grown on demand, reused across calls; the exact method shuffles it).
 */
let rel = new Float64Array(0);
/** Origin (the AABB centre) and scale of {@link rel}: world = origin + rel / relScale. */
let originX = 0;
let originY = 0;
let originZ = 0;
let relScale = 1;

/** Fills {@link rel}, the origin and the scale from packed points p. */
function loadRelative(p: ArrayLike<number>): void {
  let loX = p[0];
  let loY = p[1];
  let loZ = p[2];
  let hiX = loX;
  let hiY = loY;
  let hiZ = loZ;
  for (let i = 3; i < p.length; i += 3) {
    loX = Math.min(loX, p[i]);
    hiX = Math.max(hiX, p[i]);
    loY = Math.min(loY, p[i + 1]);
    hiY = Math.max(hiY, p[i + 1]);
    loZ = Math.min(loZ, p[i + 2]);
    hiZ = Math.max(hiZ, p[i + 2]);
  }
  // Halves first, so that neither the centre nor the extent overflows.
  originX = 0.5 * loX + 0.5 * hiX;
  originY = 0.5 * loY + 0.5 * hiY;
  originZ = 0.5 * loZ + 0.5 * hiZ;
  const half = Math.max(0.5 * hiX - 0.5 * loX, 0.5 * hiY - 0.5 * loY, 0.5 * hiZ - 0.5 * loZ);
  const exponent = half > 0 ? Math.floor(Math.log2(half)) : 0;
  relScale = 2 ** -Math.max(-RESCALE_MAX_EXPONENT, Math.min(RESCALE_MAX_EXPONENT, exponent));
  if (rel.length < p.length) rel = new Float64Array(Math.max(p.length, 2 * rel.length));
  for (let i = 0; i < p.length; i += 3) {
    rel[i] = (p[i] - originX) * relScale;
    rel[i + 1] = (p[i + 1] - originY) * relScale;
    rel[i + 2] = (p[i + 2] - originZ) * relScale;
  }
}

/**
 * Writes the sphere with relative centre (cx, cy, cz) and relative radius r to `out` in world
 * coordinates, its radius raised to cover every point of p exactly.
 */
function finish(
  out: BoundingSphere,
  p: ArrayLike<number>,
  cx: number,
  cy: number,
  cz: number,
  r: number,
): BoundingSphere {
  const wx = originX + cx / relScale;
  const wy = originY + cy / relScale;
  const wz = originZ + cz / relScale;
  const radius = coverRadius(p, wx, wy, wz, r / relScale);
  // A radius past the largest double (points spanning more than about 1.8e308) is refused, as
  // an overflowing coordinate is; it had been answered Infinity (session 40, F4).
  if (!(radius < Infinity)) {
    invalidValue(
      "points",
      p,
      "span too far: the bounding sphere's radius overflows a double (above about 1.8e308); scale the points down",
    );
  }
  out.center.x = wx;
  out.center.y = wy;
  out.center.z = wz;
  out.radius = radius;
  return out;
}

/**
 * Bounding sphere centred on the centroid of the points, with the distance to the farthest
 * point as radius (Ericson 2005, §4.3). Writes `out` and returns it.
 * @param out receives the sphere, in the points' frame.
 * @param points packed `x, y, z` coordinates or `{x, y, z}` points.
 * @throws CollideError (`invalid_value`, field `points`) on an empty set, a length that is not
 * a multiple of 3, or a non-finite coordinate.
 */
export function boundingSphereMean(out: BoundingSphere, points: PointSet): BoundingSphere {
  const p = readPointSet(points);
  const n = p.length / 3;
  loadRelative(p);
  let sumX = 0;
  let sumY = 0;
  let sumZ = 0;
  for (let i = 0; i < p.length; i += 3) {
    sumX += rel[i];
    sumY += rel[i + 1];
    sumZ += rel[i + 2];
  }
  return finish(out, p, sumX / n, sumY / n, sumZ / n, 0);
}

/**
 * Ritter's bounding sphere (Ritter 1990, "An Efficient Bounding Sphere"; Ericson 2005,
 * §4.3.2): the initial sphere has as diameter the most separated of the three pairs of axis
 * extremes (min and max point along x, y, z); every point outside grows the sphere just enough
 * to hold it, moving the centre toward it. A final pass makes the radius cover the farthest
 * point exactly. Within about 5–20 % of the minimum sphere in practice. Writes `out`, returns it.
 * @param out receives the sphere, in the points' frame.
 * @param points packed `x, y, z` coordinates or `{x, y, z}` points.
 * @throws CollideError (`invalid_value`, field `points`) as {@link boundingSphereMean}.
 */
export function boundingSphereRitter(out: BoundingSphere, points: PointSet): BoundingSphere {
  const p = readPointSet(points);
  loadRelative(p);
  // Indices (of the first coordinate) of the min and max point along each axis.
  let minX = 0;
  let maxX = 0;
  let minY = 0;
  let maxY = 0;
  let minZ = 0;
  let maxZ = 0;
  for (let i = 3; i < p.length; i += 3) {
    if (rel[i] < rel[minX]) minX = i;
    if (rel[i] > rel[maxX]) maxX = i;
    if (rel[i + 1] < rel[minY + 1]) minY = i;
    if (rel[i + 1] > rel[maxY + 1]) maxY = i;
    if (rel[i + 2] < rel[minZ + 2]) minZ = i;
    if (rel[i + 2] > rel[maxZ + 2]) maxZ = i;
  }
  let a = minX;
  let b = maxX;
  let best = distSqAt(minX, maxX);
  const dy = distSqAt(minY, maxY);
  if (dy > best) {
    best = dy;
    a = minY;
    b = maxY;
  }
  if (distSqAt(minZ, maxZ) > best) {
    a = minZ;
    b = maxZ;
  }
  let cx = 0.5 * (rel[a] + rel[b]);
  let cy = 0.5 * (rel[a + 1] + rel[b + 1]);
  let cz = 0.5 * (rel[a + 2] + rel[b + 2]);
  let r = 0.5 * Math.sqrt(distSqAt(a, b));
  for (let i = 0; i < p.length; i += 3) {
    const ex = rel[i] - cx;
    const ey = rel[i + 1] - cy;
    const ez = rel[i + 2] - cz;
    const d2 = ex * ex + ey * ey + ez * ez;
    if (d2 > r * r) {
      const d = Math.sqrt(d2);
      const grown = 0.5 * (r + d);
      const k = (grown - r) / d;
      cx += ex * k;
      cy += ey * k;
      cz += ez * k;
      r = grown;
    }
  }
  return finish(out, p, cx, cy, cz, r);
}

/** Squared distance between the relative points whose coordinates start at indices i and j. */
function distSqAt(i: number, j: number): number {
  const dx = rel[i] - rel[j];
  const dy = rel[i + 1] - rel[j + 1];
  const dz = rel[i + 2] - rel[j + 2];
  return dx * dx + dy * dy + dz * dz;
}

// ---------------------------------------------------------------------------------------------
// Welzl's minimum enclosing sphere.

/** Seed of the fixed shuffle that makes Welzl's expected linear time deterministic. */
const WELZL_SHUFFLE_SEED = 0x9e3779b9;
/** Squared containment factor: a point is inside when d² ≤ r² · (1 + tol)². */
const INSIDE_FACTOR_SQ = (1 + CONTAINMENT_TOLERANCE) * (1 + CONTAINMENT_TOLERANCE);

/** The current sphere: centre (relative) and squared radius. */
let curX = 0;
let curY = 0;
let curZ = 0;
let curR2 = 0;
/** Squared radius of the AABB's circumscribed sphere: no support sphere can be larger. */
let upperR2 = 0;
/** Candidate centre written by the circumsphere helpers. */
let tx = 0;
let ty = 0;
let tz = 0;
/** The support set of a degenerate sphere (point indices). */
const support = new Int32Array(4);

/** State of the shuffle's generator. */
let shuffleState = 0;

/** Next integer in [0, n) from a deterministic 32-bit generator (mulberry32). */
function nextIndex(n: number): number {
  shuffleState = (shuffleState + 0x6d2b79f5) >>> 0;
  let t = shuffleState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
}

function insideAt(i: number): boolean {
  const dx = rel[3 * i] - curX;
  const dy = rel[3 * i + 1] - curY;
  const dz = rel[3 * i + 2] - curZ;
  return dx * dx + dy * dy + dz * dz <= curR2 * INSIDE_FACTOR_SQ;
}

/** Squared distance from the candidate centre (tx, ty, tz) to point i. */
function candDistSq(i: number): number {
  const dx = rel[3 * i] - tx;
  const dy = rel[3 * i + 1] - ty;
  const dz = rel[3 * i + 2] - tz;
  return dx * dx + dy * dy + dz * dz;
}

function setSphere(r2: number): void {
  curX = tx;
  curY = ty;
  curZ = tz;
  curR2 = r2;
}

/** Candidate centre at the midpoint of points i and j. */
function midpoint(i: number, j: number): void {
  tx = 0.5 * (rel[3 * i] + rel[3 * j]);
  ty = 0.5 * (rel[3 * i + 1] + rel[3 * j + 1]);
  tz = 0.5 * (rel[3 * i + 2] + rel[3 * j + 2]);
}

/**
 * Candidate centre at the circumcentre of triangle (a, b, c) in its plane; false (candidate
 * unchanged) when the points are collinear within `CIRCUMSPHERE_DEGENERACY_TOLERANCE`.
 */
function circumcircle(a: number, b: number, c: number): boolean {
  const ax = rel[3 * a];
  const ay = rel[3 * a + 1];
  const az = rel[3 * a + 2];
  const ux = rel[3 * b] - ax;
  const uy = rel[3 * b + 1] - ay;
  const uz = rel[3 * b + 2] - az;
  const vx = rel[3 * c] - ax;
  const vy = rel[3 * c + 1] - ay;
  const vz = rel[3 * c + 2] - az;
  const wx = uy * vz - uz * vy;
  const wy = uz * vx - ux * vz;
  const wz = ux * vy - uy * vx;
  const w2 = wx * wx + wy * wy + wz * wz;
  const u2 = ux * ux + uy * uy + uz * uz;
  const v2 = vx * vx + vy * vy + vz * vz;
  if (!(w2 > CIRCUMSPHERE_DEGENERACY_TOLERANCE * u2 * v2)) return false;
  // offset = (|u|² (v × w) + |v|² (w × u)) / (2 |w|²)
  const s = 0.5 / w2;
  const ox = (u2 * (vy * wz - vz * wy) + v2 * (wy * uz - wz * uy)) * s;
  const oy = (u2 * (vz * wx - vx * wz) + v2 * (wz * ux - wx * uz)) * s;
  const oz = (u2 * (vx * wy - vy * wx) + v2 * (wx * uy - wy * ux)) * s;
  tx = ax + ox;
  ty = ay + oy;
  tz = az + oz;
  return true;
}

/**
 * Candidate centre at the circumcentre of tetrahedron (a, b, c, d); false (candidate unchanged)
 * when the points are coplanar within `CIRCUMSPHERE_DEGENERACY_TOLERANCE`.
 */
function circumsphere(a: number, b: number, c: number, d: number): boolean {
  const ax = rel[3 * a];
  const ay = rel[3 * a + 1];
  const az = rel[3 * a + 2];
  const ux = rel[3 * b] - ax;
  const uy = rel[3 * b + 1] - ay;
  const uz = rel[3 * b + 2] - az;
  const vx = rel[3 * c] - ax;
  const vy = rel[3 * c + 1] - ay;
  const vz = rel[3 * c + 2] - az;
  const wx = rel[3 * d] - ax;
  const wy = rel[3 * d + 1] - ay;
  const wz = rel[3 * d + 2] - az;
  // v × w, w × u, u × v
  const vwx = vy * wz - vz * wy;
  const vwy = vz * wx - vx * wz;
  const vwz = vx * wy - vy * wx;
  const wux = wy * uz - wz * uy;
  const wuy = wz * ux - wx * uz;
  const wuz = wx * uy - wy * ux;
  const uvx = uy * vz - uz * vy;
  const uvy = uz * vx - ux * vz;
  const uvz = ux * vy - uy * vx;
  const det = ux * vwx + uy * vwy + uz * vwz;
  const u2 = ux * ux + uy * uy + uz * uz;
  const v2 = vx * vx + vy * vy + vz * vz;
  const w2 = wx * wx + wy * wy + wz * wz;
  if (!(det * det > CIRCUMSPHERE_DEGENERACY_TOLERANCE * u2 * v2 * w2)) return false;
  const s = 0.5 / det;
  tx = ax + (u2 * vwx + v2 * wux + w2 * uvx) * s;
  ty = ay + (u2 * vwy + v2 * wuy + w2 * uvy) * s;
  tz = az + (u2 * vwz + v2 * wuz + w2 * uvz) * s;
  return true;
}

/** Largest squared distance from the candidate centre to the first `count` support points. */
function candCoverSq(count: number): number {
  let m = 0;
  for (let q = 0; q < count; q++) {
    const d2 = candDistSq(support[q]);
    if (d2 > m) m = d2;
  }
  return m;
}

/**
 * Sets the current sphere to the smallest sphere enclosing the first `count` (2–4) support
 * points, by trying every pair's diametral sphere and every non-collinear triple's circumcircle
 * and keeping the candidate whose covering radius is least: the minimum enclosing sphere of a
 * set is one of these, and every other candidate covers with a radius at least as large.
 */
function supportFallback(count: number): void {
  let bestR2 = Number.POSITIVE_INFINITY;
  let bx = 0;
  let by = 0;
  let bz = 0;
  for (let a = 0; a < count; a++) {
    for (let b = a + 1; b < count; b++) {
      midpoint(support[a], support[b]);
      const r2 = candCoverSq(count);
      if (r2 < bestR2) {
        bestR2 = r2;
        bx = tx;
        by = ty;
        bz = tz;
      }
      for (let c = b + 1; c < count; c++) {
        if (!circumcircle(support[a], support[b], support[c])) continue;
        const r2c = candCoverSq(count);
        if (r2c < bestR2) {
          bestR2 = r2c;
          bx = tx;
          by = ty;
          bz = tz;
        }
      }
    }
  }
  tx = bx;
  ty = by;
  tz = bz;
  setSphere(bestR2);
}

function sphere1(i: number): void {
  tx = rel[3 * i];
  ty = rel[3 * i + 1];
  tz = rel[3 * i + 2];
  setSphere(0);
}

function sphere2(i: number, j: number): void {
  midpoint(i, j);
  setSphere(Math.max(candDistSq(i), candDistSq(j)));
}

function sphere3(i: number, j: number, k: number): void {
  support[0] = i;
  support[1] = j;
  support[2] = k;
  if (circumcircle(i, j, k)) {
    const r2 = candCoverSq(3);
    if (r2 <= upperR2) {
      setSphere(r2);
      return;
    }
  }
  supportFallback(3);
}

function sphere4(i: number, j: number, k: number, l: number): void {
  support[0] = i;
  support[1] = j;
  support[2] = k;
  support[3] = l;
  if (circumsphere(i, j, k, l)) {
    const r2 = candCoverSq(4);
    if (r2 <= upperR2) {
      setSphere(r2);
      return;
    }
  }
  supportFallback(4);
}

/** One pass of Welzl's algorithm as nested loops over the first n relative points. */
function welzlPass(n: number): void {
  sphere1(0);
  for (let i = 1; i < n; i++) {
    if (insideAt(i)) continue;
    sphere1(i);
    for (let j = 0; j < i; j++) {
      if (insideAt(j)) continue;
      sphere2(i, j);
      for (let k = 0; k < j; k++) {
        if (insideAt(k)) continue;
        sphere3(i, j, k);
        for (let l = 0; l < k; l++) {
          if (insideAt(l)) continue;
          sphere4(i, j, k, l);
        }
      }
    }
  }
}

/** Index of the point farthest outside the current sphere, or −1 when all are inside. */
function worstViolator(n: number): number {
  let worst = -1;
  let worstExcess = 0;
  const limit = curR2 * INSIDE_FACTOR_SQ;
  for (let i = 0; i < n; i++) {
    const dx = rel[3 * i] - curX;
    const dy = rel[3 * i + 1] - curY;
    const dz = rel[3 * i + 2] - curZ;
    const excess = dx * dx + dy * dy + dz * dz - limit;
    if (excess > worstExcess) {
      worstExcess = excess;
      worst = i;
    }
  }
  return worst;
}

/** Moves relative point i to index 0, shifting points 0…i−1 up by one. */
function moveToFront(i: number): void {
  const x = rel[3 * i];
  const y = rel[3 * i + 1];
  const z = rel[3 * i + 2];
  rel.copyWithin(3, 0, 3 * i);
  rel[0] = x;
  rel[1] = y;
  rel[2] = z;
}

/**
 * The minimum enclosing sphere of the points (Welzl 1991, "Smallest enclosing disks (balls and
 * ellipsoids)"; Ericson 2005, §4.3.5), by the randomized incremental form of Welzl's algorithm
 * with a fixed-seed shuffle, so the same points in the same order give bitwise the same sphere.
 * Robust to duplicate, collinear, coplanar and cospherical points: degenerate support sets fall
 * back to their own smallest enclosing sphere, passes repeat with the worst violator moved to
 * the front (at most `MAX_REFINE_ITERATIONS` times), and a final pass makes the radius cover
 * the farthest point exactly. Expected O(n) time. Writes `out` and returns it.
 * @param out receives the sphere, in the points' frame.
 * @param points packed `x, y, z` coordinates or `{x, y, z}` points.
 * @throws CollideError (`invalid_value`, field `points`) as {@link boundingSphereMean}.
 */
export function boundingSphereExact(out: BoundingSphere, points: PointSet): BoundingSphere {
  const p = readPointSet(points);
  const n = p.length / 3;
  loadRelative(p);
  upperR2 = 0;
  for (let i = 0; i < p.length; i += 3) {
    upperR2 = Math.max(
      upperR2,
      rel[i] * rel[i] + rel[i + 1] * rel[i + 1] + rel[i + 2] * rel[i + 2],
    );
  }
  upperR2 *= INSIDE_FACTOR_SQ;
  shuffleState = WELZL_SHUFFLE_SEED;
  for (let i = n - 1; i > 0; i--) {
    const j = nextIndex(i + 1);
    for (let c = 0; c < 3; c++) {
      const t = rel[3 * i + c];
      rel[3 * i + c] = rel[3 * j + c];
      rel[3 * j + c] = t;
    }
  }
  welzlPass(n);
  for (let iter = 0; iter < MAX_REFINE_ITERATIONS; iter++) {
    const worst = worstViolator(n);
    if (worst < 0) break;
    moveToFront(worst);
    welzlPass(n);
  }
  return finish(out, p, curX, curY, curZ, Math.sqrt(curR2));
}
