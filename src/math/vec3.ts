/**
 * 3D vectors as plain `{x, y, z}` objects (duck-type compatible with three.js `Vector3` and
 * Rapier). Every operation is out-first and returns `out`; `out` may alias any input
 * (gl-matrix's convention). Only `create` and `clone` allocate.
 */

/** A 3D vector or point, in scene units unless stated. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** A new vector (allocates). */
export function create(x = 0, y = 0, z = 0): Vec3 {
  return { x, y, z };
}

/** A copy of `a` (allocates). */
export function clone(a: Vec3): Vec3 {
  return { x: a.x, y: a.y, z: a.z };
}

/** out = (x, y, z). */
export function set(out: Vec3, x: number, y: number, z: number): Vec3 {
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** out = a. */
export function copy(out: Vec3, a: Vec3): Vec3 {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
  return out;
}

/** out = a + b. */
export function add(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out.x = a.x + b.x;
  out.y = a.y + b.y;
  out.z = a.z + b.z;
  return out;
}

/** out = a − b. */
export function sub(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out.x = a.x - b.x;
  out.y = a.y - b.y;
  out.z = a.z - b.z;
  return out;
}

/** out = a · s. */
export function scale(out: Vec3, a: Vec3, s: number): Vec3 {
  out.x = a.x * s;
  out.y = a.y * s;
  out.z = a.z * s;
  return out;
}

/** out = a + b · s. */
export function addScaled(out: Vec3, a: Vec3, b: Vec3, s: number): Vec3 {
  out.x = a.x + b.x * s;
  out.y = a.y + b.y * s;
  out.z = a.z + b.z * s;
  return out;
}

/** out = −a. */
export function negate(out: Vec3, a: Vec3): Vec3 {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
  return out;
}

/** out = componentwise a · b. */
export function mul(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out.x = a.x * b.x;
  out.y = a.y * b.y;
  out.z = a.z * b.z;
  return out;
}

/** out = componentwise min(a, b). */
export function min(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out.x = Math.min(a.x, b.x);
  out.y = Math.min(a.y, b.y);
  out.z = Math.min(a.z, b.z);
  return out;
}

/** out = componentwise max(a, b). */
export function max(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out.x = Math.max(a.x, b.x);
  out.y = Math.max(a.y, b.y);
  out.z = Math.max(a.z, b.z);
  return out;
}

/** out = componentwise |a|. */
export function abs(out: Vec3, a: Vec3): Vec3 {
  out.x = Math.abs(a.x);
  out.y = Math.abs(a.y);
  out.z = Math.abs(a.z);
  return out;
}

/** out = a + (b − a) · t. */
export function lerp(out: Vec3, a: Vec3, b: Vec3, t: number): Vec3 {
  out.x = a.x + (b.x - a.x) * t;
  out.y = a.y + (b.y - a.y) * t;
  out.z = a.z + (b.z - a.z) * t;
  return out;
}

/** a · b. */
export function dot(a: Vec3, b: Vec3): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/** out = a × b (safe when out aliases a or b). */
export function cross(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  const x = a.y * b.z - a.z * b.y;
  const y = a.z * b.x - a.x * b.z;
  const z = a.x * b.y - a.y * b.x;
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/**
 * out = a × b times a positive power of two: a and b each first multiplied by the power of two
 * that brings its largest component near 1 when that lies outside [2^-128, 2^128] (exact), so
 * the product neither overflows (edges of 2^600: products of 2^1200) nor underflows (edges of
 * 2^-300) where the plain one would; for inputs in that range exactly {@link cross}. For a
 * direction only (a face normal to normalize, a sign): the length is not a·b's. The direction of
 * a pair scaled by any power of two is then the same bits. Allocation free.
 */
export function crossDirection(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  const ka = unitRangeScale(Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z)));
  const kb = unitRangeScale(Math.max(Math.abs(b.x), Math.abs(b.y), Math.abs(b.z)));
  const ax = a.x * ka;
  const ay = a.y * ka;
  const az = a.z * ka;
  const bx = b.x * kb;
  const by = b.y * kb;
  const bz = b.z * kb;
  out.x = ay * bz - az * by;
  out.y = az * bx - ax * bz;
  out.z = ax * by - ay * bx;
  return out;
}

/** 1 for a magnitude `m` in [2^-128, 2^128] (or 0, or not finite), else `unitScaleFactor(m)`. */
function unitRangeScale(m: number): number {
  if (!(m > 0 && m < Number.POSITIVE_INFINITY) || (m >= 2 ** -128 && m <= 2 ** 128)) return 1;
  return unitScaleFactor(m);
}

/** |a|². */
export function lengthSq(a: Vec3): number {
  return a.x * a.x + a.y * a.y + a.z * a.z;
}

/** |a|, computed without overflow or underflow for huge or tiny components. */
export function length(a: Vec3): number {
  // hypot3's common case written out: inlined into a caller whose inlining budget is spent, a
  // call passing or returning doubles boxes each one (allocates). Inlined, the function's value
  // merges √s with the rare path's: a zero vector (an origin: common) answered here, and the
  // call's result made a number by `+`, since a merge with the tagged result of a call V8 does
  // not inline is tagged and boxes √s on the common path too (a heap number per call).
  const x = a.x;
  const y = a.y;
  const z = a.z;
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) return Math.sqrt(s);
  if (x === 0 && y === 0 && z === 0) return 0;
  return +hypot3(x, y, z);
}

/** |a − b|². */
export function distanceSq(a: Vec3, b: Vec3): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/** |a − b|. */
export function distance(a: Vec3, b: Vec3): number {
  const x = a.x - b.x;
  const y = a.y - b.y;
  const z = a.z - b.z;
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) return Math.sqrt(s);
  // As in length: no merge of √s with a tagged call result.
  if (x === 0 && y === 0 && z === 0) return 0;
  return +hypot3(x, y, z);
}

/**
 * hypotIo[0] (src/math/scalar.ts) = |a|, {@link length}'s bits. For hot code: a double returned
 * by a call V8 does not inline is boxed (allocated), an argument object is not.
 */
export function lengthInto(a: Vec3): void {
  const s = a.x * a.x + a.y * a.y + a.z * a.z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) hypotIo[0] = Math.sqrt(s);
  // A zero vector answered here (hypot3's 0): the call would box its three arguments.
  else if (a.x === 0 && a.y === 0 && a.z === 0) hypotIo[0] = 0;
  else hypot3Into(a.x, a.y, a.z);
}

/** hypotIo[0] = |a − b|, {@link distance}'s bits (see {@link lengthInto}). */
export function distanceInto(a: Vec3, b: Vec3): void {
  const x = a.x - b.x;
  const y = a.y - b.y;
  const z = a.z - b.z;
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) hypotIo[0] = Math.sqrt(s);
  else if (x === 0 && y === 0 && z === 0) hypotIo[0] = 0;
  else hypot3Into(x, y, z);
}

/** hypotIo[0] = Math.hypot(a.x, a.y, a.z), bit for bit (mathHypot3; see {@link lengthInto}). */
export function mathLengthInto(a: Vec3): void {
  hypotIo[0] = a.x;
  hypotIo[1] = a.y;
  hypotIo[2] = a.z;
  mathHypot3Io();
}

/** Below this length (about 2^-970) `normalize` rescales first; well above the subnormals. */
const TINY_LENGTH = 1e-292;
/**
 * |a|² strictly between these two takes the fast path of `normalize`, where √(x²+y²+z²) is exact
 * to rounding (the range in which `hypot3` takes the same path, so both paths agree bitwise).
 */
const NORMALIZE_SAFE_MIN_SQ = HYPOT_SAFE_MIN;
const NORMALIZE_SAFE_MAX_SQ = HYPOT_SAFE_MAX;

/**
 * out = a / |a|. Returns the length of `a`; when it is 0 (or not finite) `out` is left
 * unchanged and 0 is returned, so callers choose their own fallback instead of getting NaN.
 * In hot code that only needs to know whether it worked, prefer {@link tryNormalize}: V8 boxes
 * a double returned by a call it does not inline, a boolean it never does.
 */
export function normalize(out: Vec3, a: Vec3): number {
  const s = a.x * a.x + a.y * a.y + a.z * a.z;
  if (s > NORMALIZE_SAFE_MIN_SQ && s < NORMALIZE_SAFE_MAX_SQ) {
    const len = Math.sqrt(s);
    const inv = 1 / len;
    out.x = a.x * inv;
    out.y = a.y * inv;
    out.z = a.z * inv;
    return len;
  }
  // The rare path's length through hypotIo, not as a return value: merged with `len` above, a
  // double returned by a call V8 does not inline would box the common path's length too.
  normalizeRescaled(out, a);
  return hypotIo[0];
}

/**
 * out = a / |a| when `a` has a positive finite length (returns true); else `out` is left
 * unchanged and false is returned. Exactly the direction {@link normalize} gives.
 */
export function tryNormalize(out: Vec3, a: Vec3): boolean {
  const s = a.x * a.x + a.y * a.y + a.z * a.z;
  if (s > NORMALIZE_SAFE_MIN_SQ && s < NORMALIZE_SAFE_MAX_SQ) {
    const inv = 1 / Math.sqrt(s);
    out.x = a.x * inv;
    out.y = a.y * inv;
    out.z = a.z * inv;
    return true;
  }
  normalizeRescaled(out, a);
  return hypotIo[0] > 0;
}

/**
 * `normalize` for lengths outside the fast range: huge, tiny, subnormal, zero or not finite;
 * writes normalize's return value to hypotIo[0].
 */
function normalizeRescaled(out: Vec3, a: Vec3): void {
  const len = hypot3(a.x, a.y, a.z);
  hypotIo[0] = 0;
  if (!(len > 0) || !Number.isFinite(len)) return;
  hypotIo[0] = len;
  if (len < TINY_LENGTH) {
    // Subnormal range: 1/len overflows and hypot has lost its relative precision, so rescale
    // by the largest component (exact enough) before normalising.
    const m = Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z));
    const x = a.x / m;
    const y = a.y / m;
    const z = a.z / m;
    const l = hypot3(x, y, z);
    out.x = x / l;
    out.y = y / l;
    out.z = z / l;
    return;
  }
  const inv = 1 / len;
  out.x = a.x * inv;
  out.y = a.y * inv;
  out.z = a.z * inv;
}

/** Component `i` (0 = x, 1 = y, 2 = z). */
export function getAxis(a: Vec3, i: number): number {
  return i === 0 ? a.x : i === 1 ? a.y : a.z;
}

/** Sets component `i` (0 = x, 1 = y, 2 = z) to `v`. */
export function setAxis(out: Vec3, i: number, v: number): Vec3 {
  if (i === 0) out.x = v;
  else if (i === 1) out.y = v;
  else out.z = v;
  return out;
}

/** Exact equality of every component. */
export function exactEquals(a: Vec3, b: Vec3): boolean {
  return a.x === b.x && a.y === b.y && a.z === b.z;
}

/** Componentwise |a − b| ≤ tol · max(1, |a|, |b|). */
export function equals(a: Vec3, b: Vec3, tol: number): boolean {
  const ok = (p: number, q: number) =>
    Math.abs(p - q) <= tol * Math.max(1, Math.abs(p), Math.abs(q));
  return ok(a.x, b.x) && ok(a.y, b.y) && ok(a.z, b.z);
}

/** True when every component is finite. */
export function isFiniteVec(a: Vec3): boolean {
  return Number.isFinite(a.x) && Number.isFinite(a.y) && Number.isFinite(a.z);
}

/**
 * Two unit vectors `u`, `v` completing unit `n` to a right-handed orthonormal basis
 * (Duff et al. 2017, "Building an Orthonormal Basis, Revisited").
 */
export function orthonormalBasis(u: Vec3, v: Vec3, n: Vec3): void {
  const sign = n.z >= 0 ? 1 : -1;
  const a = -1 / (sign + n.z);
  const b = n.x * n.y * a;
  // Stored directly, not through `set`: six doubles passed to a call V8 does not inline are boxed.
  // (All computed before any store, as the calls did, in case u or v aliases n.)
  const ux = 1 + sign * n.x * n.x * a;
  const uy = sign * b;
  const uz = -sign * n.x;
  u.x = ux;
  u.y = uy;
  u.z = uz;
  const vy = sign + n.y * n.y * a;
  const vz = -n.y;
  v.x = b;
  v.y = vy;
  v.z = vz;
}

/** Index (0, 1, 2) of the component of largest magnitude. */
export function maxAbsAxis(a: Vec3): number {
  const x = Math.abs(a.x);
  const y = Math.abs(a.y);
  const z = Math.abs(a.z);
  return x >= y ? (x >= z ? 0 : 2) : y >= z ? 1 : 2;
}

import {
  HYPOT_SAFE_MAX,
  HYPOT_SAFE_MIN,
  hypot3,
  hypot3Into,
  hypotIo,
  mathHypot3Io,
  unitScaleFactor,
} from "./scalar.js";
