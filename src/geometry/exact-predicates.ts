/**
 * Exact orientation predicates on input doubles, and the exact incidence tests built on them
 * (issue 16, must-have 2: exactly touching inputs are intersecting).
 *
 * The sign of a 2×2 or 3×3 orientation determinant is first taken from its floating-point value
 * when that exceeds a forward error bound (the filter); otherwise the determinant is expanded
 * exactly as a floating-point expansion — a sum of non-overlapping doubles, each product split
 * into its rounded value and its error term (Dekker's product, Knuth's two-sum) — whose sign is
 * that of its most significant non-zero term. Source: J. R. Shewchuk, "Adaptive Precision
 * Floating-Point Arithmetic and Fast Robust Geometric Predicates", Discrete & Computational
 * Geometry 18 (1997), §2 (expansions) and §4 (orientation); the filter constants are its
 * first-stage bounds.
 *
 * Two error-free transformations (Shewchuk 1997, §2) recur, each written out in place rather than
 * called: a double passed to a call V8 does not inline is boxed (allocated), and inside larger
 * functions V8 stopped inlining such small helpers (GJK's exact shared-point test then collected
 * garbage every step). Each occurrence is marked by a comment naming it:
 * - TwoSum (Knuth): x = a + b, bv = x − a, err = (a − (x − bv)) + (b − bv); then a + b = x + err
 *   exactly (TwoDiff is TwoSum of a and −b).
 * - TwoProduct (Dekker, with Veltkamp's split): each factor split by c = SPLITTER·a,
 *   hi = c − (c − a), lo = a − hi into two 26-bit halves; x = a·b,
 *   err = lo_a·lo_b − (((x − hi_a·hi_b) − lo_a·hi_b) − hi_a·lo_b); then a·b = x + err exactly
 *   (Shewchuk's Split and Two-Product).
 *
 * Exact for coordinates whose magnitudes lie in [2^-300, 2^300] or are zero (products of three
 * coordinate differences then neither overflow nor lose their error terms to underflow);
 * {@link exactRange} tells a caller whether its points qualify. Every buffer is preallocated:
 * nothing here allocates.
 */
import type { Vec3 } from "../math/vec3.js";

/** Unit roundoff of doubles, 2^-53. */
const U = 2 ** -53;
/** Dekker's splitter, 2^27 + 1: splits a double into two 26-bit halves. */
const SPLITTER = 2 ** 27 + 1;
/** Shewchuk's first-stage bound of orient2d, relative to |a·d| + |b·c|. */
const ORIENT2_BOUND = (3 + 16 * U) * U;
/** Shewchuk's first-stage bound of orient3d, relative to the permanent of the |differences|. */
const ORIENT3_BOUND = (7 + 56 * U) * U;
/** Coordinates at or beyond this magnitude (or non-zero below its inverse) are outside {@link exactRange}. */
const RANGE = 2 ** 300;

/**
 * h = e + b, b = src[at] (an expansion of elen terms plus a double) with zero terms dropped;
 * returns h's length. h may alias e. Shewchuk's GROW-EXPANSION with zero elimination. (The
 * double is read here, not passed: a double passed to a call V8 does not inline is boxed.)
 */
function growInto(
  e: Float64Array,
  elen: number,
  src: Float64Array,
  at: number,
  h: Float64Array,
): number {
  let q = src[at];
  let n = 0;
  for (let i = 0; i < elen; i++) {
    // TwoSum(q, b) = (x, err), written out (see the module docs).
    const b = e[i];
    const x = q + b;
    const bv = x - q;
    const err = q - (x - bv) + (b - bv);
    q = x;
    if (err !== 0) h[n++] = err;
  }
  if (q !== 0 || n === 0) h[n++] = q;
  return n;
}

/** h = e·b, b = src[at], exactly (Shewchuk's SCALE-EXPANSION, zeros dropped); returns h's length; h ≠ e. */
function scaleInto(
  e: Float64Array,
  elen: number,
  src: Float64Array,
  at: number,
  h: Float64Array,
): number {
  // Every TwoProduct and TwoSum written out (see the module docs: a double passed to a call V8
  // does not inline is boxed, and inside a large caller these small ones stop being inlined).
  // Veltkamp's split of b, once for every term.
  const b = src[at];
  let c = SPLITTER * b;
  const bhi = c - (c - b);
  const blo = b - bhi;
  let n = 0;
  // TwoProduct(e[0], b) = (x, err).
  let a = e[0];
  let x = a * b;
  c = SPLITTER * a;
  let ahi = c - (c - a);
  let alo = a - ahi;
  let q = x;
  let err = alo * blo - (x - ahi * bhi - alo * bhi - ahi * blo);
  if (err !== 0) h[n++] = err;
  for (let i = 1; i < elen; i++) {
    // TwoProduct(e[i], b) = (p1, p0).
    a = e[i];
    x = a * b;
    c = SPLITTER * a;
    ahi = c - (c - a);
    alo = a - ahi;
    const p1 = x;
    const p0 = alo * blo - (x - ahi * bhi - alo * bhi - ahi * blo);
    // TwoSum(q, p0) = (sum, err): its error out, its sum on.
    let sum = q + p0;
    let bv = sum - q;
    err = q - (sum - bv) + (p0 - bv);
    if (err !== 0) h[n++] = err;
    // TwoSum(p1, s0) = (sum, err).
    const s0 = sum;
    sum = p1 + s0;
    bv = sum - p1;
    err = p1 - (sum - bv) + (s0 - bv);
    q = sum;
    if (err !== 0) h[n++] = err;
  }
  if (q !== 0 || n === 0) h[n++] = q;
  return n;
}

/** acc += e (acc of length alen, result written back to acc); returns the new length. */
function addInto(acc: Float64Array, alen: number, e: Float64Array, elen: number): number {
  let n = alen;
  for (let i = 0; i < elen; i++) n = growInto(acc, n, e, i, acc);
  return n;
}

/** Sign of an expansion: that of its most significant (last) non-zero term. */
function signOf(e: Float64Array, n: number): number {
  for (let i = n - 1; i >= 0; i--) {
    if (e[i] > 0) return 1;
    if (e[i] < 0) return -1;
  }
  return 0;
}

/** The six coordinate differences as two-term expansions: [hi, lo] per entry. */
const diff = new Float64Array(18);
const termA = new Float64Array(8);
const minor = new Float64Array(32);
const prodA = new Float64Array(64);
const prodB = new Float64Array(64);
const total = new Float64Array(256);
const scratch = new Float64Array(64);

/** diff entry k = o2[i] − o2[j] exactly (two-sum written out: no double passed to a call). */
function diffIo(k: number, i: number, j: number): void {
  // TwoSum(a, −o2[j]) = (x, err) (TwoDiff): entry k is [err, x].
  const a = o2[i];
  const b = -o2[j];
  const x = a + b;
  const bv = x - a;
  diff[2 * k] = a - (x - bv) + (b - bv);
  diff[2 * k + 1] = x;
}

/** diff entries k0, k0 + 1, k0 + 2 = p − q per axis x, y, z exactly (two-sum written out: no double passed to a call). */
function diffXyz(k0: number, p: Vec3, q: Vec3): void {
  for (let axis = 0; axis < 3; axis++) {
    const a = axis === 0 ? p.x : axis === 1 ? p.y : p.z;
    const b = -(axis === 0 ? q.x : axis === 1 ? q.y : q.z);
    // TwoSum(a, b) = (x, err) (TwoDiff of p and q on this axis): entry k is [err, x].
    const x = a + b;
    const bv = x - a;
    const k = k0 + axis;
    diff[2 * k] = a - (x - bv) + (b - bv);
    diff[2 * k + 1] = x;
  }
}

/** out = (diff entry i)·(diff entry j) exactly; returns its length. */
function diffProduct(i: number, j: number, out: Float64Array): number {
  termA[0] = diff[2 * i];
  termA[1] = diff[2 * i + 1];
  let n = scaleInto(termA, 2, diff, 2 * j, out);
  const m = scaleInto(termA, 2, diff, 2 * j + 1, scratch);
  n = addInto(out, n, scratch, m);
  return n;
}

/**
 * Sign of the 2×2 determinant (bx − ax)(cy − ay) − (by − ay)(cx − ax): +1 when a, b, c turn
 * counter-clockwise, −1 clockwise, 0 exactly collinear. Inputs within {@link exactRange}.
 */
export function orient2dSign(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  o2[0] = ax;
  o2[1] = ay;
  o2[2] = bx;
  o2[3] = by;
  o2[4] = cx;
  o2[5] = cy;
  return orient2dOfIo();
}

/** The points of {@link orient2dOfIo}: ax, ay, bx, by, cx, cy. */
const o2 = new Float64Array(6);

/**
 * The points of {@link orient2dSignIo}, written by the caller: ax, ay, bx, by, cx, cy (so that
 * a hot caller passes no double to a call, which V8 boxes when it does not inline it).
 */
export const orient2dIo = o2;

/** {@link orient2dSign} of the points in {@link orient2dIo}. */
export function orient2dSignIo(): number {
  return orient2dOfIo();
}

/** {@link orient2dSign} of the points in `o2` (no double passed to a call: none boxed). */
function orient2dOfIo(): number {
  const ax = o2[0];
  const ay = o2[1];
  const bx = o2[2];
  const by = o2[3];
  const cx = o2[4];
  const cy = o2[5];
  const l = (bx - ax) * (cy - ay);
  const r = (by - ay) * (cx - ax);
  const det = l - r;
  const bound = ORIENT2_BOUND * (Math.abs(l) + Math.abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  diffIo(0, 2, 0);
  diffIo(1, 5, 1);
  diffIo(2, 3, 1);
  diffIo(3, 4, 0);
  const n = diffProduct(0, 1, prodA);
  const m = diffProduct(2, 3, prodB);
  for (let i = 0; i < m; i++) prodB[i] = -prodB[i];
  return signOf(prodA, addInto(prodA, n, prodB, m));
}

/**
 * Magnitude bound of {@link pointSegmentReachSignIo}: its inputs, when not zero, lie in
 * [2^-200, 2^200) (its squared lengths are of degree 4 in them: within that range their exact
 * expansions neither overflow nor lose a term to underflow).
 */
const REACH_RANGE = 2 ** 200;

/** The answer of {@link pointSegmentReachSignIo} for an input outside its range: undecided. */
export const REACH_UNDECIDED = 2;

/**
 * The inputs of {@link pointSegmentReachSignIo}, written by the caller: ax, ay, bx, by (the
 * segment's ends; a = b a point), px, py (the point), r0, r1 (the reach r = r0 + r1, each ≥ 0,
 * summed exactly: two radii).
 */
export const reachIo = new Float64Array(8);

/** Expansion buffers of {@link pointSegmentReachSignIo}. */
const reachR = new Float64Array(4);
const reachR2 = new Float64Array(16);
const reachO = new Float64Array(32);
const reachL2 = new Float64Array(32);
const reachP = new Float64Array(1024);
const reachQ = new Float64Array(1024);
const reachT = new Float64Array(64);

/**
 * [0] r² rounded, for the filter of `reachEnd` (through the array, not as an argument: a double
 * passed to a call V8 does not inline is boxed).
 */
const reachF = new Float64Array(1);

/** Margin, relative, of the floating-point filters of {@link pointSegmentReachSignIo}: 2^-48 (32 ε). */
const REACH_FILTER = 2 ** -48;

/**
 * Sign of dist(p, segment a–b) − r, exactly, for the doubles in {@link reachIo}: −1 when p lies
 * within r of the segment, 0 when exactly at r (a touch), +1 beyond; {@link REACH_UNDECIDED} when
 * a non-zero input lies outside [2^-200, 2^200). The region of p — before a, beyond b, or beside
 * the segment — is decided by the exact signs of (p − a)·(b − a) and (p − b)·(b − a); beside it,
 * orient2d(a, b, p)² is compared with r²·|b − a|², else |p − end|² with r², each a floating-point
 * filter first, then the exact floating-point expansions (Shewchuk 1997, §2; products of
 * expansions as sums of scaled ones, compressed). Allocates nothing (preallocated buffers).
 */
export function pointSegmentReachSignIo(): number {
  const io = reachIo;
  for (let i = 0; i < 8; i++) {
    const m = Math.abs(io[i]);
    if (m !== 0 && !(m < REACH_RANGE && m * REACH_RANGE >= 1)) return REACH_UNDECIDED;
  }
  // Entries of `diff`: 0 ex = bx − ax, 1 ey = by − ay, 2 dax = px − ax, 3 day = py − ay,
  // 4 dbx = px − bx, 5 dby = py − by, each exact as [err, x].
  reachDiff(0, 2, 0);
  reachDiff(1, 3, 1);
  reachDiff(2, 4, 0);
  reachDiff(3, 5, 1);
  reachDiff(4, 4, 2);
  reachDiff(5, 5, 3);
  // r = r0 + r1 exactly, and r² (compressed).
  reachR[0] = io[6];
  const rn = growInto(reachR, 1, io, 7, reachR);
  let r2n = mulInto(reachR, rn, reachR, rn, reachR2);
  r2n = compressInto(reachR2, r2n);
  const rf = io[6] + io[7];
  const r2f = rf * rf;
  reachF[0] = r2f;
  const ex = diff[1];
  const ey = diff[3];
  if (ex === 0 && ey === 0 && diff[0] === 0 && diff[2] === 0) return reachEnd(2, r2n);
  if (reachDotSign(2) <= 0) return reachEnd(2, r2n);
  if (reachDotSign(4) >= 0) return reachEnd(4, r2n);
  // Beside the segment: orient2d(a, b, p)² against r²·|b − a|².
  const l = ex * diff[7];
  const r = ey * diff[5];
  const of = Math.abs(l - r);
  const errO = ORIENT2_BOUND * (Math.abs(l) + Math.abs(r));
  const lf = (ex * ex + ey * ey) * r2f;
  const lo = Math.max(0, of - errO);
  const hi = of + errO;
  if (lo * lo * (1 - REACH_FILTER) > lf * (1 + REACH_FILTER)) return 1;
  if (hi * hi * (1 + REACH_FILTER) < lf * (1 - REACH_FILTER)) return -1;
  let on = diffProduct(0, 3, reachO);
  const m = diffProduct(1, 2, reachT);
  for (let i = 0; i < m; i++) reachT[i] = -reachT[i];
  on = compressInto(reachO, addInto(reachO, on, reachT, m));
  let ln = diffProduct(0, 0, reachL2);
  ln = addInto(reachL2, ln, reachT, diffProduct(1, 1, reachT));
  ln = compressInto(reachL2, ln);
  const pn = mulInto(reachO, on, reachO, on, reachP);
  const qn = mulInto(reachR2, r2n, reachL2, ln, reachQ);
  for (let i = 0; i < qn; i++) reachQ[i] = -reachQ[i];
  return signOf(reachP, addInto(reachP, pn, reachQ, qn));
}

/** diff entry k = reachIo[i] − reachIo[j] exactly, [err, x] (TwoDiff written out). */
function reachDiff(k: number, i: number, j: number): void {
  // TwoSum(a, −reachIo[j]) = (x, err).
  const a = reachIo[i];
  const b = -reachIo[j];
  const x = a + b;
  const bv = x - a;
  diff[2 * k] = a - (x - bv) + (b - bv);
  diff[2 * k + 1] = x;
}

/**
 * Sign of (diff entries k, k + 1)·(ex, ey) exactly: the offset of p from an end (k = 2: from a,
 * k = 4: from b) along the segment.
 */
function reachDotSign(k: number): number {
  const l = diff[1] * diff[2 * k + 1];
  const r = diff[3] * diff[2 * k + 3];
  const det = l + r;
  const bound = ORIENT2_BOUND * (Math.abs(l) + Math.abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  const n = diffProduct(0, k, reachP);
  const m = diffProduct(1, k + 1, reachT);
  return signOf(reachP, addInto(reachP, n, reachT, m));
}

/** Sign of |p − end|² − r² (end's offset in diff entries k, k + 1), exactly. */
function reachEnd(k: number, r2n: number): number {
  const r2f = reachF[0];
  const dx = diff[2 * k + 1];
  const dy = diff[2 * k + 3];
  const df = dx * dx + dy * dy;
  if (df * (1 - REACH_FILTER) > r2f * (1 + REACH_FILTER)) return 1;
  if (df * (1 + REACH_FILTER) < r2f * (1 - REACH_FILTER)) return -1;
  let n = diffProduct(k, k, reachP);
  n = addInto(reachP, n, reachT, diffProduct(k + 1, k + 1, reachT));
  for (let i = 0; i < r2n; i++) reachQ[i] = -reachR2[i];
  return signOf(reachP, addInto(reachP, n, reachQ, r2n));
}

/** out = e·f exactly (Shewchuk's product of expansions as a sum of scaled ones); returns its length. out ≠ e, f. */
function mulInto(
  e: Float64Array,
  en: number,
  f: Float64Array,
  fn: number,
  out: Float64Array,
): number {
  let n = scaleInto(e, en, f, 0, out);
  for (let j = 1; j < fn; j++) n = addInto(out, n, reachT, scaleInto(e, en, f, j, reachT));
  return n;
}

/**
 * Compresses expansion e (n terms) in place: the same value in fewer, still non-overlapping
 * terms (Shewchuk 1997, §2.8, COMPRESS; Fast-Two-Sum written out). Returns the new length.
 */
function compressInto(e: Float64Array, n: number): number {
  let bottom = n - 1;
  let q = e[bottom];
  for (let i = n - 2; i >= 0; i--) {
    // FastTwoSum(q, e[i]) = (x, err).
    const now = e[i];
    const x = q + now;
    const err = now - (x - q);
    if (err !== 0) {
      e[bottom--] = x;
      q = err;
    } else q = x;
  }
  let top = 0;
  for (let i = bottom + 1; i < n; i++) {
    // FastTwoSum(e[i], q) = (x, err).
    const now = e[i];
    const x = now + q;
    const err = q - (x - now);
    if (err !== 0) e[top++] = err;
    q = x;
  }
  e[top++] = q;
  return top;
}

/**
 * Sign of det[b − a; c − a; d − a] (rows): +1 when d lies on the side of the plane through a, b,
 * c that (b − a) × (c − a) points to, −1 on the other side, 0 exactly coplanar. Inputs within
 * {@link exactRange}.
 */
export function orient3dSign(a: Vec3, b: Vec3, c: Vec3, d: Vec3): number {
  const bx = b.x - a.x;
  const by = b.y - a.y;
  const bz = b.z - a.z;
  const cx = c.x - a.x;
  const cy = c.y - a.y;
  const cz = c.z - a.z;
  const dx = d.x - a.x;
  const dy = d.y - a.y;
  const dz = d.z - a.z;
  const m0 = cy * dz - cz * dy;
  const m1 = cz * dx - cx * dz;
  const m2 = cx * dy - cy * dx;
  const det = bx * m0 + by * m1 + bz * m2;
  const perm =
    Math.abs(bx) * (Math.abs(cy * dz) + Math.abs(cz * dy)) +
    Math.abs(by) * (Math.abs(cz * dx) + Math.abs(cx * dz)) +
    Math.abs(bz) * (Math.abs(cx * dy) + Math.abs(cy * dx));
  const bound = ORIENT3_BOUND * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  // Entries 0..8: b − a, c − a, d − a by coordinate (x, y, z).
  diffXyz(0, b, a);
  diffXyz(3, c, a);
  diffXyz(6, d, a);
  return signOf(total, expandDet3());
}

/**
 * total = det[entries 0..2; 3..5; 6..8] (rows of `diff`) exactly, expanded along the first row;
 * returns its length.
 */
function expandDet3(): number {
  let t = 0;
  // det = Σ over the three entries k of row 0: r0_k · (r1_i r2_j − r1_j r2_i), (k, i, j) cyclic.
  for (let k = 0; k < 3; k++) {
    const i = (k + 1) % 3;
    const j = (k + 2) % 3;
    let n = diffProduct(3 + i, 6 + j, prodA);
    const m = diffProduct(3 + j, 6 + i, prodB);
    for (let q = 0; q < m; q++) prodB[q] = -prodB[q];
    n = addInto(prodA, n, prodB, m);
    for (let q = 0; q < n; q++) minor[q] = prodA[q];
    let h = scaleInto(minor, n, diff, 2 * k, prodB);
    t = addInto(total, t, prodB, h);
    h = scaleInto(minor, n, diff, 2 * k + 1, prodB);
    t = addInto(total, t, prodB, h);
  }
  return t;
}

/** The sum of an expansion's terms, smallest first: its value to about one rounding. */
function expansionValue(e: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += e[i];
  return s;
}

/** diff entries k0, k0 + 1, k0 + 2 = vector v exactly (a zero error term each). */
function vectorXyz(k0: number, v: Vec3): void {
  for (let axis = 0; axis < 3; axis++) {
    const k = k0 + axis;
    diff[2 * k] = 0;
    diff[2 * k + 1] = axis === 0 ? v.x : axis === 1 ? v.y : v.z;
  }
}

/**
 * Relative error below which a filtered determinant's floating-point value is returned as its
 * value by {@link tripleVectorValue} and {@link orient3dValue} (2^-50: a few roundings); above
 * it the exact expansion's rounded sum.
 */
const VALUE_FILTER = 2 ** -50;

/**
 * [0] the value written by {@link tripleVectorValue} and {@link orient3dValue} (a typed-array
 * slot: a double returned from a call V8 does not inline is boxed).
 */
export const detIo = new Float64Array(1);

/**
 * Sign of det[p − o; q − o; v] (rows) = ((p − o) × (q − o))·v, for points p, q, o and a vector
 * v: +1, −1, or 0 exactly when v is parallel to the plane through o, p and q (or that plane is
 * not one). The line o + t·v passes through triangle abc exactly when this sign for the edges
 * (b, c), (c, a), (a, b) is the same or 0 for all three and not 0 for all three (Plücker's side
 * test; their sum is ((b − a) × (c − a))·v). Inputs within {@link exactRange}.
 */
export function tripleVectorSign(p: Vec3, q: Vec3, o: Vec3, v: Vec3): number {
  const px = p.x - o.x;
  const py = p.y - o.y;
  const pz = p.z - o.z;
  const qx = q.x - o.x;
  const qy = q.y - o.y;
  const qz = q.z - o.z;
  const m0 = qy * v.z - qz * v.y;
  const m1 = qz * v.x - qx * v.z;
  const m2 = qx * v.y - qy * v.x;
  const det = px * m0 + py * m1 + pz * m2;
  const perm =
    Math.abs(px) * (Math.abs(qy * v.z) + Math.abs(qz * v.y)) +
    Math.abs(py) * (Math.abs(qz * v.x) + Math.abs(qx * v.z)) +
    Math.abs(pz) * (Math.abs(qx * v.y) + Math.abs(qy * v.x));
  const bound = ORIENT3_BOUND * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  diffXyz(0, p, o);
  diffXyz(3, q, o);
  vectorXyz(6, v);
  return signOf(total, expandDet3());
}

/**
 * detIo[0] = det[p − o; q − o; v] (see {@link tripleVectorSign}) to a few roundings of its value
 * (relative, with its exact sign): the floating-point value where its error bound allows, else
 * the exact expansion rounded. Inputs within {@link exactRange}.
 */
export function tripleVectorValue(p: Vec3, q: Vec3, o: Vec3, v: Vec3): void {
  const px = p.x - o.x;
  const py = p.y - o.y;
  const pz = p.z - o.z;
  const qx = q.x - o.x;
  const qy = q.y - o.y;
  const qz = q.z - o.z;
  const m0 = qy * v.z - qz * v.y;
  const m1 = qz * v.x - qx * v.z;
  const m2 = qx * v.y - qy * v.x;
  const det = px * m0 + py * m1 + pz * m2;
  const perm =
    Math.abs(px) * (Math.abs(qy * v.z) + Math.abs(qz * v.y)) +
    Math.abs(py) * (Math.abs(qz * v.x) + Math.abs(qx * v.z)) +
    Math.abs(pz) * (Math.abs(qx * v.y) + Math.abs(qy * v.x));
  if (ORIENT3_BOUND * perm <= VALUE_FILTER * Math.abs(det)) {
    detIo[0] = det;
    return;
  }
  diffXyz(0, p, o);
  diffXyz(3, q, o);
  vectorXyz(6, v);
  detIo[0] = expansionValue(total, expandDet3());
}

/**
 * detIo[0] = det[b − a; c − a; d − a] (the determinant whose sign {@link orient3dSign} gives)
 * to a few roundings of its value (relative, with its exact sign). Inputs within
 * {@link exactRange}.
 */
export function orient3dValue(a: Vec3, b: Vec3, c: Vec3, d: Vec3): void {
  const bx = b.x - a.x;
  const by = b.y - a.y;
  const bz = b.z - a.z;
  const cx = c.x - a.x;
  const cy = c.y - a.y;
  const cz = c.z - a.z;
  const dx = d.x - a.x;
  const dy = d.y - a.y;
  const dz = d.z - a.z;
  const m0 = cy * dz - cz * dy;
  const m1 = cz * dx - cx * dz;
  const m2 = cx * dy - cy * dx;
  const det = bx * m0 + by * m1 + bz * m2;
  const perm =
    Math.abs(bx) * (Math.abs(cy * dz) + Math.abs(cz * dy)) +
    Math.abs(by) * (Math.abs(cz * dx) + Math.abs(cx * dz)) +
    Math.abs(bz) * (Math.abs(cx * dy) + Math.abs(cy * dx));
  if (ORIENT3_BOUND * perm <= VALUE_FILTER * Math.abs(det)) {
    detIo[0] = det;
    return;
  }
  diffXyz(0, b, a);
  diffXyz(3, c, a);
  diffXyz(6, d, a);
  detIo[0] = expansionValue(total, expandDet3());
}

/** True when every coordinate of `p` is zero or of magnitude in [2^-300, 2^300) (see the module docs). */
export function exactRange(p: Vec3): boolean {
  for (let axis = 0; axis < 3; axis++) {
    const m = Math.abs(axis === 0 ? p.x : axis === 1 ? p.y : p.z);
    if (!(m === 0 || (m < RANGE && m * RANGE >= 1))) return false;
  }
  return true;
}

/** Orientation of p, q, r projected on the coordinate plane that drops axis `k` (0 x, 1 y, 2 z). */
function orientDropping(k: number, p: Vec3, q: Vec3, r: Vec3): number {
  if (k === 0) {
    o2[0] = p.y;
    o2[1] = p.z;
    o2[2] = q.y;
    o2[3] = q.z;
    o2[4] = r.y;
    o2[5] = r.z;
  } else if (k === 1) {
    o2[0] = p.z;
    o2[1] = p.x;
    o2[2] = q.z;
    o2[3] = q.x;
    o2[4] = r.z;
    o2[5] = r.x;
  } else {
    o2[0] = p.x;
    o2[1] = p.y;
    o2[2] = q.x;
    o2[3] = q.y;
    o2[4] = r.x;
    o2[5] = r.y;
  }
  return orient2dOfIo();
}

/** True when p, q, r are exactly collinear (every projected orientation 0). */
function collinear(p: Vec3, q: Vec3, r: Vec3): boolean {
  return (
    orientDropping(0, p, q, r) === 0 &&
    orientDropping(1, p, q, r) === 0 &&
    orientDropping(2, p, q, r) === 0
  );
}

/** True when p lies on the closed segment [a, b], exactly. */
export function pointOnSegment(p: Vec3, a: Vec3, b: Vec3): boolean {
  // Each coordinate between the ends' (compared in place: a double passed to a call V8 does not
  // inline is boxed).
  if (a.x <= b.x ? !(a.x <= p.x && p.x <= b.x) : !(b.x <= p.x && p.x <= a.x)) return false;
  if (a.y <= b.y ? !(a.y <= p.y && p.y <= b.y) : !(b.y <= p.y && p.y <= a.y)) return false;
  if (a.z <= b.z ? !(a.z <= p.z && p.z <= b.z) : !(b.z <= p.z && p.z <= a.z)) return false;
  return collinear(a, b, p);
}

/** True when p lies in the closed triangle (a, b, c), exactly (a degenerate one: on its edges). */
export function pointInTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): boolean {
  let k = -1;
  let s = 0;
  for (let i = 2; i >= 0 && k < 0; i--) {
    s = orientDropping(i, a, b, c);
    if (s !== 0) k = i;
  }
  if (k < 0) return pointOnSegment(p, a, b) || pointOnSegment(p, b, c) || pointOnSegment(p, c, a);
  if (orient3dSign(a, b, c, p) !== 0) return false;
  // Coplanar: the projection dropping axis k maps the plane one to one, so containment is the
  // projected one: each edge's orientation with p zero or of the triangle's sign.
  const s1 = orientDropping(k, a, b, p);
  if (s1 === -s) return false;
  const s2 = orientDropping(k, b, c, p);
  if (s2 === -s) return false;
  return orientDropping(k, c, a, p) !== -s;
}

/**
 * True when the segments [a0, a1] and [b0, b1] cross at a point interior to both, exactly
 * (coplanar, and in a projection that keeps their plane each one's ends strictly on either side
 * of the other's line); an end lying on the other segment is {@link pointOnSegment}'s case.
 */
export function segmentsCross(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3): boolean {
  if (orient3dSign(a0, a1, b0, b1) !== 0) return false;
  for (let k = 2; k >= 0; k--) {
    const d0 = orientDropping(k, a0, a1, b0);
    const d1 = orientDropping(k, a0, a1, b1);
    if (d0 === 0 || d0 !== -d1) continue;
    const d2 = orientDropping(k, b0, b1, a0);
    const d3 = orientDropping(k, b0, b1, a1);
    if (d2 !== 0 && d2 === -d3) return true;
  }
  return false;
}

/**
 * True when the convex hulls of a few points, `a[0..na)` and `b[0..nb)` (na, nb ≤ 4, e.g. the
 * supporting points of GJK's simplex on each shape), share a point, as far as their vertices,
 * edges and triangles tell exactly: a point of one equal to a point of the other, inside one of
 * its edges or inside one of its triangles, or an edge of one crossing an edge of the other.
 * Those are the points that two convex sets touching on a separating plane always share (the
 * vertices of the convex polygon where their faces in that plane meet), so for touching sets
 * whose features these points span the answer is true; a true answer is a proof that the hulls
 * — and so any sets holding them — share a point. Points within {@link exactRange}.
 */
export function fewPointHullsMeet(a: Vec3[], na: number, b: Vec3[], nb: number): boolean {
  return hullPointsIn(a, na, b, nb) || hullPointsIn(b, nb, a, na) || edgesCross(a, na, b, nb);
}

/** Whether a point of `p[0..np)` lies in a vertex, an edge or a triangle of `q[0..nq)`. */
function hullPointsIn(p: Vec3[], np: number, q: Vec3[], nq: number): boolean {
  for (let i = 0; i < np; i++) {
    const x = p[i];
    for (let j = 0; j < nq; j++) {
      const qj = q[j];
      if (x.x === qj.x && x.y === qj.y && x.z === qj.z) return true;
    }
    for (let j = 0; j < nq; j++) {
      for (let k = j + 1; k < nq; k++) {
        if (pointOnSegment(x, q[j], q[k])) return true;
        for (let l = k + 1; l < nq; l++) if (pointInTriangle(x, q[j], q[k], q[l])) return true;
      }
    }
  }
  return false;
}

/** Whether an edge of `a[0..na)` crosses an edge of `b[0..nb)` at interior points of both. */
function edgesCross(a: Vec3[], na: number, b: Vec3[], nb: number): boolean {
  for (let i = 0; i < na; i++) {
    for (let j = i + 1; j < na; j++) {
      for (let k = 0; k < nb; k++) {
        for (let l = k + 1; l < nb; l++) if (segmentsCross(a[i], a[j], b[k], b[l])) return true;
      }
    }
  }
  return false;
}

/**
 * True when the closed segment [p, q] and the closed triangle (a, b, c) share a point, exactly.
 * Apart from the triangle's plane when both ends lie strictly on one side of it; across it, the
 * crossing point lies in the triangle when the line pq turns the same way (or not at all) about
 * each of its edges (the signs of the orientations of p, q with each edge, Plücker's side
 * test); in the plane (or against a degenerate triangle, every orientation 0) an end inside the
 * triangle or the segment meeting an edge. Points within {@link exactRange}; nothing allocated.
 */
export function segmentMeetsTriangle(p: Vec3, q: Vec3, a: Vec3, b: Vec3, c: Vec3): boolean {
  const op = orient3dSign(a, b, c, p);
  const oq = orient3dSign(a, b, c, q);
  if (op !== 0 && op === oq) return false;
  if (op === 0 && oq === 0) {
    if (pointInTriangle(p, a, b, c) || pointInTriangle(q, a, b, c)) return true;
    return (
      segmentMeetsEdge(p, q, a, b) || segmentMeetsEdge(p, q, b, c) || segmentMeetsEdge(p, q, c, a)
    );
  }
  const s1 = orient3dSign(p, q, a, b);
  const s2 = orient3dSign(p, q, b, c);
  if (s1 * s2 < 0) return false;
  const s3 = orient3dSign(p, q, c, a);
  return !(s1 * s3 < 0 || s2 * s3 < 0);
}

/**
 * Whether segment [p, q] meets the edge [u, w] other than by an end of [p, q] lying on it (the
 * caller's case): crossing inside both, or an end of the edge on the segment.
 */
function segmentMeetsEdge(p: Vec3, q: Vec3, u: Vec3, w: Vec3): boolean {
  return segmentsCross(p, q, u, w) || pointOnSegment(u, p, q) || pointOnSegment(w, p, q);
}

/**
 * True when the closed triangles (a0, a1, a2) and (b0, b1, b2) share a point, exactly on the
 * input doubles (issue 16: two box meshes 4.5e-13 apart were called touching by a padded
 * test). Two convex sets' common part is convex and its extreme points lie on the relative
 * boundary of one of them, so the triangles meet exactly when an edge of one meets the other
 * ({@link segmentMeetsTriangle}, six tests); a degenerate triangle (a segment or a point) is its
 * edges. Points within {@link exactRange}; nothing allocated.
 */
export function trianglesMeet(a0: Vec3, a1: Vec3, a2: Vec3, b0: Vec3, b1: Vec3, b2: Vec3): boolean {
  return (
    segmentMeetsTriangle(a0, a1, b0, b1, b2) ||
    segmentMeetsTriangle(a1, a2, b0, b1, b2) ||
    segmentMeetsTriangle(a2, a0, b0, b1, b2) ||
    segmentMeetsTriangle(b0, b1, a0, a1, a2) ||
    segmentMeetsTriangle(b1, b2, a0, a1, a2) ||
    segmentMeetsTriangle(b2, b0, a0, a1, a2)
  );
}

// ---------------------------------------------------------------------------------------------
// A point's distance to a triangle's plane against a radius, exactly (issue 16: a sphere or a
// rounded core's vertex resting exactly on a tilted face was 1e-16 apart).

/** Capacity of each expansion register of {@link planeGapSignIo} (terms). */
const XCAP = 4096;
/** Registers: expansions of {@link planeGapSignIo}, each with its length in `xlen`. */
const XREGS = 29;
const xreg: Float64Array[] = [];
for (let i = 0; i < XREGS; i++) xreg.push(new Float64Array(XCAP));
const xlen = new Int32Array(XREGS);
/** A product's terms before they join the sum. */
const xprod = new Float64Array(2 * XCAP);
/** One double handed to growInto (never passed as an argument: boxed). */
const xin = new Float64Array(1);
/** Set when a register would overflow: the answer is then undecided. */
let xFull = false;

/**
 * Inputs of {@link planeGapSignIo} and {@link footInTriangleIo}, written by the caller (no double
 * crosses a call): [0..2] p1, [3..5] p2 — the point is p = p1 + p2 exactly (a core vertex and
 * its offset: the sum is not rounded); [6..8] a, [9..11] b, [12..14] c — the triangle; [15] r1,
 * [16] r2 — the radius is r1 + r2 exactly (each ≥ 0). Out: [17] the sign of n·(p − a),
 * n = (b − a) × (c − a), after {@link planeGapSignIo}.
 */
export const planeGapIo = new Float64Array(18);

/** {@link planeGapSignIo}'s answer when a, b, c are collinear or a register overflows. */
export const PLANE_GAP_UNDECIDED = 2;

/**
 * Shewchuk's COMPRESS of register `r`, in place (nonoverlapping terms, smallest first, zeros
 * dropped; its value unchanged): at most one term per 53 bits of the value's range.
 */
function xCompress(r: number): void {
  const e = xreg[r];
  const n = xlen[r];
  let bottom = n - 1;
  let q = e[bottom];
  for (let i = n - 2; i >= 0; i--) {
    // Fast-Two-Sum(q, e[i]) = (qn, err), written out.
    const enow = e[i];
    const qn = q + enow;
    const err = enow - (qn - q);
    if (err !== 0) {
      e[bottom--] = qn;
      q = err;
    } else q = qn;
  }
  let top = 0;
  for (let i = bottom + 1; i < n; i++) {
    // Fast-Two-Sum(e[i], q) = (qn, err), written out.
    const hnow = e[i];
    const qn = hnow + q;
    const err = q - (qn - hnow);
    if (err !== 0) e[top++] = err;
    q = qn;
  }
  e[top++] = q;
  xlen[r] = top;
}

/** Register d = src[i] + src[j] + s·src[k] exactly (s = ±1). */
function xSum3(d: number, src: Float64Array, i: number, j: number, k: number, s: number): void {
  const e = xreg[d];
  e[0] = src[i];
  let n = 1;
  xin[0] = src[j];
  n = growInto(e, n, xin, 0, e);
  xin[0] = s * src[k];
  n = growInto(e, n, xin, 0, e);
  xlen[d] = n;
}

/** Register d = register i + s·register j exactly (s = ±1; d may be i, not j). */
function xAdd(d: number, i: number, j: number, s: number): void {
  const e = xreg[d];
  let n = xlen[i];
  const m = xlen[j];
  if (n + m > XCAP) {
    xFull = true;
    e[0] = 0;
    xlen[d] = 1;
    return;
  }
  if (d !== i) {
    const src = xreg[i];
    for (let q = 0; q < n; q++) e[q] = src[q];
  }
  const f = xreg[j];
  for (let q = 0; q < m; q++) {
    xin[0] = s * f[q];
    n = growInto(e, n, xin, 0, e);
  }
  xlen[d] = n;
  if (n > 64) xCompress(d);
}

/** Register d = register i · register j exactly (d distinct from both). */
function xMul(d: number, i: number, j: number): void {
  const e = xreg[i];
  const f = xreg[j];
  const el = xlen[i];
  const fl = xlen[j];
  const h = xreg[d];
  if (2 * el * fl > XCAP) {
    xFull = true;
    h[0] = 0;
    xlen[d] = 1;
    return;
  }
  h[0] = 0;
  let n = 1;
  for (let q = 0; q < fl; q++) {
    const m = scaleInto(e, el, f, q, xprod);
    n = addInto(h, n, xprod, m);
  }
  xlen[d] = n;
  xCompress(d);
}

// Register map: 0–2 p − a, 3–5 b − a, 6–8 c − a, 9–11 n, 12 d = n·(p − a), 13–14 the scratch of
// xCross and xDot, 15–17 scalars, 18 r, 19 r², 20–22 an edge, 23–25 a cross product, 26–28 the
// point less an edge's start.
const W = 0;
const E = 3;
const F = 6;
const NR = 9;
const V = 20;
const X = 23;
const T = 26;

/** Registers d..d+2 = u × v (registers u..u+2, v..v+2; d apart from both), exactly; uses 13, 14. */
function xCross(d: number, u: number, v: number): void {
  for (let axis = 0; axis < 3; axis++) {
    const i = (axis + 1) % 3;
    const j = (axis + 2) % 3;
    xMul(13, u + i, v + j);
    xMul(14, u + j, v + i);
    xAdd(d + axis, 13, 14, -1);
  }
}

/** Register d = u · v (registers u..u+2, v..v+2; d apart from both, not 13, 14), exactly. */
function xDot(d: number, u: number, v: number): void {
  xMul(d, u, v);
  xMul(13, u + 1, v + 1);
  xMul(14, u + 2, v + 2);
  xAdd(d, d, 13, 1);
  xAdd(d, d, 14, 1);
}

/** Register d = src[i] − src[j] exactly (TwoDiff). */
function xDiff(d: number, src: Float64Array, i: number, j: number): void {
  const e = xreg[d];
  e[0] = src[i];
  xin[0] = -src[j];
  xlen[d] = growInto(e, 1, xin, 0, e);
}

/**
 * The sign of dist(p, plane(a, b, c)) − (r1 + r2), exactly, for the inputs in
 * {@link planeGapIo} (p = p1 + p2; the distance to the plane through the triangle, not to the
 * triangle): with n = (b − a) × (c − a) and d = n·(p − a), the sign of d² − (r1 + r2)²·|n|², all
 * in floating-point expansions (Shewchuk 1997, §2: Two-Sum, Two-Product, Scale-Expansion,
 * Compress). −1 (nearer than the radius), 0 (exactly at it), 1 (farther); planeGapIo[17] the
 * sign of d (the side of p: that of n or not). {@link PLANE_GAP_UNDECIDED} for collinear a, b,
 * c or an expansion past its register. A point farther from the plane than the radius is
 * farther from the triangle and from any convex set the plane bounds; one nearer or at it whose
 * foot lies in the triangle ({@link footInTriangleIo}) is that near the triangle. Inputs within
 * {@link exactRange} (radii too). Nothing allocated: preallocated registers.
 */
export function planeGapSignIo(): number {
  const io = planeGapIo;
  let same = lastValid;
  for (let i = 0; i < 17 && same; i++) same = Object.is(io[i], lastIn[i]);
  if (same) {
    io[17] = lastSide;
    return lastSign;
  }
  for (let i = 0; i < 17; i++) lastIn[i] = io[i];
  lastFoot = -1;
  lastSign = planeGapCompute();
  lastSide = io[17];
  lastValid = true;
  return lastSign;
}

/**
 * The last inputs of {@link planeGapSignIo} and its answers (a query asks the same pair two or
 * three times: its routine, then the touching agreement's intersects): [lastFoot] −1 not asked,
 * 0 outside (proven), 1 inside, 3 undecided (a register overflowed).
 */
const lastIn = new Float64Array(17);
let lastValid = false;
let lastSign = 0;
let lastSide = 0;
let lastFoot = -1;

/** {@link planeGapSignIo}'s computation (no cache). */
function planeGapCompute(): number {
  xFull = false;
  for (let axis = 0; axis < 3; axis++) {
    xSum3(W + axis, planeGapIo, axis, 3 + axis, 6 + axis, -1);
    xDiff(E + axis, planeGapIo, 9 + axis, 6 + axis);
    xDiff(F + axis, planeGapIo, 12 + axis, 6 + axis);
  }
  xCross(NR, E, F);
  xDot(12, NR, W);
  planeGapIo[17] = xSign(12);
  xMul(15, 12, 12);
  xDot(16, NR, NR);
  if (xSign(16) === 0) return PLANE_GAP_UNDECIDED;
  const rr = xreg[18];
  rr[0] = planeGapIo[15];
  xin[0] = planeGapIo[16];
  xlen[18] = growInto(rr, 1, xin, 0, rr);
  xMul(19, 18, 18);
  xMul(17, 19, 16);
  xAdd(15, 15, 17, -1);
  if (xFull) return PLANE_GAP_UNDECIDED;
  return xSign(15);
}

/**
 * True when the foot of p on the plane of triangle (a, b, c) lies in the closed triangle,
 * exactly (the inputs of {@link planeGapIo}; called after {@link planeGapSignIo}, whose
 * registers it reads): for each edge (v, v') of a → b → c → a, ((v' − v) × (p − v))·n ≥ 0,
 * n = (b − a) × (c − a) (p's side of the edge is the triangle's, in the plane). False too when a
 * register overflows.
 */
export function footInTriangleIo(): boolean {
  // Another predicate (a segment's) may have used the registers since: recompute them.
  if (!lastValid) planeGapSignIo();
  if (lastFoot < 0) {
    const f = footFiltered();
    lastFoot = f === 0 ? footExact() : f > 0 ? 1 : 0;
  }
  return lastFoot === 1;
}

/**
 * True when the foot of p on the plane of triangle (a, b, c) is proven to lie outside the closed
 * triangle (the inputs of {@link planeGapIo}, after {@link planeGapSignIo}): p's side of some edge
 * is not the triangle's, exactly. False when the foot lies in it or a register overflowed.
 */
export function footOutsideTriangleIo(): boolean {
  footInTriangleIo();
  return lastFoot === 0;
}

/** Relative margin of the filtered foot test (many times its rounding, about 10 ε). */
const FOOT_FILTER = 2 ** -44;

/**
 * The foot test in doubles with an error bound: 1 when every edge's value ((v' − v) × (p − v))·n
 * exceeds its bound (inside), −1 when one lies below minus its bound (outside), 0 undecided.
 * Each difference rounds by ε of itself, p1 + p2 by ε of its size (a term of its own), n's
 * products by a few ε of |b − a|·|c − a|: the bound FOOT_FILTER·|v' − v|·(|p − v| + (|p1| +
 * |p2| + |v|)·2^-6)·|b − a|·|c − a| (1-norms) holds them with a wide margin.
 */
function footFiltered(): number {
  const io = planeGapIo;
  const px = io[0] + io[3];
  const py = io[1] + io[4];
  const pz = io[2] + io[5];
  const e0x = io[9] - io[6];
  const e0y = io[10] - io[7];
  const e0z = io[11] - io[8];
  const e1x = io[12] - io[6];
  const e1y = io[13] - io[7];
  const e1z = io[14] - io[8];
  const nx = e0y * e1z - e0z * e1y;
  const ny = e0z * e1x - e0x * e1z;
  const nz = e0x * e1y - e0y * e1x;
  const nBound =
    (Math.abs(e0x) + Math.abs(e0y) + Math.abs(e0z)) *
    (Math.abs(e1x) + Math.abs(e1y) + Math.abs(e1z));
  const pSize =
    Math.abs(io[0]) +
    Math.abs(io[1]) +
    Math.abs(io[2]) +
    Math.abs(io[3]) +
    Math.abs(io[4]) +
    Math.abs(io[5]);
  let all = 1;
  for (let k = 0; k < 3; k++) {
    const o = 6 + 3 * k;
    const o2 = k === 2 ? 6 : o + 3;
    const vx = io[o];
    const vy = io[o + 1];
    const vz = io[o + 2];
    const ex = io[o2] - vx;
    const ey = io[o2 + 1] - vy;
    const ez = io[o2 + 2] - vz;
    const wx = px - vx;
    const wy = py - vy;
    const wz = pz - vz;
    const s = (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
    const bound =
      FOOT_FILTER *
      (Math.abs(ex) + Math.abs(ey) + Math.abs(ez)) *
      (Math.abs(wx) +
        Math.abs(wy) +
        Math.abs(wz) +
        (pSize + Math.abs(vx) + Math.abs(vy) + Math.abs(vz)) * 2 ** -6) *
      nBound;
    if (s < -bound) return -1;
    if (!(s > bound)) all = 0;
  }
  return all;
}

/**
 * {@link footInTriangleIo} in expansions (after {@link planeGapCompute} filled the registers): 1
 * inside, 0 proven outside, 3 undecided (a register overflowed).
 */
function footExact(): number {
  let k = edgeInner(E, W);
  if (k !== 1) return k;
  // Edge b → c: c − b and p − b.
  for (let axis = 0; axis < 3; axis++) {
    xAdd(V + axis, F + axis, E + axis, -1);
    xAdd(T + axis, W + axis, E + axis, -1);
  }
  k = edgeInner(V, T);
  if (k !== 1) return k;
  // Edge c → a: a − c and p − c.
  for (let axis = 0; axis < 3; axis++) {
    const f = xreg[F + axis];
    const v = xreg[V + axis];
    const n = xlen[F + axis];
    for (let q = 0; q < n; q++) v[q] = -f[q];
    xlen[V + axis] = n;
    xAdd(T + axis, W + axis, F + axis, -1);
  }
  return edgeInner(V, T);
}

/**
 * ((e) × (w))·n ≥ 0 for registers e..e+2, w..w+2 and n: 1 when so, 0 when not, 3 when a
 * register overflowed.
 */
function edgeInner(e: number, w: number): number {
  xCross(X, e, w);
  xDot(16, X, NR);
  if (xFull) return 3;
  return xSign(16) >= 0 ? 1 : 0;
}

/** Sign of register r. */
function xSign(r: number): number {
  return signOf(xreg[r], xlen[r]);
}

// ---------------------------------------------------------------------------------------------
// A point's distance to a segment against a radius, exactly (issue 16: a sphere or a rounded
// core's vertex touching a tilted face exactly at an edge or a corner was decided by the
// doubles: 1e-16 apart, or touching across a gap of one ulp). The 3D analogue of
// {@link pointSegmentReachSignIo}, in the registers of {@link planeGapSignIo}.

/**
 * Inputs of {@link segmentGapSignIo} and {@link segmentConeIo}, written by the caller (no double
 * crosses a call): [0..2] p1, [3..5] p2 — the point is p = p1 + p2 exactly; [6..8] a, [9..11] b —
 * the segment (a = b a point); [12] r1, [13] r2 — the radius r1 + r2 exactly (each ≥ 0);
 * [14..16] w, the point {@link segmentConeIo} tests.
 */
export const segmentGapIo = new Float64Array(17);

/** {@link segmentGapSignIo}'s answer for an input outside its range or an overflowed register. */
export const SEGMENT_GAP_UNDECIDED = 2;

/**
 * Magnitude bound of {@link segmentGapSignIo} and {@link segmentConeIo}: their inputs, when not
 * zero, lie in [2^-200, 2^200). Their polynomials are of degree 4 in the inputs' differences
 * (multiples of 2^-252): every term of their expansions is a multiple of 2^-1008 and below
 * 2^820, so none underflows or overflows.
 */
const SEGMENT_RANGE = 2 ** 200;

/**
 * Margin of the filters of {@link segmentGapSignIo} and {@link segmentConeIo}, relative to S, the
 * sum of the magnitudes of every input coordinate and radius: 2^-40. The doubles' distance of p
 * to the segment is within about 12 ε·S of the exact one (p = p1 + p2, the differences and the
 * nearest point each round by ε of S; the nearest point's parameter errs by 2 ε·S/|b − a| along
 * the segment, which moves the distance by as much; the square root by ε), far below it.
 */
const SEGMENT_FILTER = 2 ** -40;

/** [0] S (see {@link SEGMENT_FILTER}), [1..3] the doubles' nearest point of the segment to p. */
const segF = new Float64Array(4);

/** segF = S (over the first `n` inputs) and the doubles' nearest point of the segment to p1 + p2. */
function segmentFloat(n: number): void {
  const io = segmentGapIo;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(io[i]);
  segF[0] = sum;
  const ex = io[9] - io[6];
  const ey = io[10] - io[7];
  const ez = io[11] - io[8];
  const wx = io[0] + io[3] - io[6];
  const wy = io[1] + io[4] - io[7];
  const wz = io[2] + io[5] - io[8];
  const l = ex * ex + ey * ey + ez * ez;
  let t = 0;
  if (l > 0) {
    t = (wx * ex + wy * ey + wz * ez) / l;
    if (!(t > 0)) t = 0;
    else if (t > 1) t = 1;
  }
  segF[1] = io[6] + t * ex;
  segF[2] = io[7] + t * ey;
  segF[3] = io[8] + t * ez;
}

/** True when an input of {@link segmentGapIo} (the first `n`) is outside the range (or NaN). */
function segmentOutOfRange(n: number): boolean {
  const io = segmentGapIo;
  for (let i = 0; i < n; i++) {
    const m = Math.abs(io[i]);
    if (m !== 0 && !(m < SEGMENT_RANGE && m * SEGMENT_RANGE >= 1)) return true;
  }
  return false;
}

/**
 * Sign of dist(p, segment a–b) − (r1 + r2), exactly, for the inputs in {@link segmentGapIo}:
 * −1 (p lies nearer than the radius), 0 (exactly at it: a touch), 1 (farther);
 * {@link SEGMENT_GAP_UNDECIDED} for a non-zero input outside [2^-200, 2^200). A floating-point
 * filter first ({@link SEGMENT_FILTER}); then, in expansions (Shewchuk 1997, §2): the foot's
 * region by the exact signs of (p − a)·(b − a) and (p − b)·(b − a) — before a or beyond b, the
 * sign of |p − end|² − r², beside the segment that of |(p − a) × (b − a)|² − r²·|b − a|² (a = b:
 * |p − a|² − r²). Nothing allocated (the preallocated registers of {@link planeGapSignIo}, whose
 * cached answer it discards).
 */
export function segmentGapSignIo(): number {
  if (segmentOutOfRange(14)) return SEGMENT_GAP_UNDECIDED;
  const io = segmentGapIo;
  segmentFloat(14);
  const dx = io[0] + io[3] - segF[1];
  const dy = io[1] + io[4] - segF[2];
  const dz = io[2] + io[5] - segF[3];
  const g = Math.sqrt(dx * dx + dy * dy + dz * dz) - (io[12] + io[13]);
  const bound = SEGMENT_FILTER * segF[0];
  if (g > bound) return 1;
  if (g < -bound) return -1;
  lastValid = false;
  xFull = false;
  for (let axis = 0; axis < 3; axis++) {
    xSum3(W + axis, io, axis, 3 + axis, 6 + axis, -1);
    xDiff(E + axis, io, 9 + axis, 6 + axis);
    xSum3(T + axis, io, axis, 3 + axis, 9 + axis, -1);
  }
  // r = r1 + r2 (register 18) and r² (19).
  const rr = xreg[18];
  rr[0] = io[12];
  xin[0] = io[13];
  xlen[18] = growInto(rr, 1, xin, 0, rr);
  xMul(19, 18, 18);
  xDot(12, W, E);
  if (xSign(12) <= 0) return segmentEnd(W);
  xDot(12, T, E);
  if (xSign(12) >= 0) return segmentEnd(T);
  xCross(X, W, E);
  xDot(16, X, X);
  xDot(15, E, E);
  xMul(17, 19, 15);
  xAdd(16, 16, 17, -1);
  return xFull ? SEGMENT_GAP_UNDECIDED : xSign(16);
}

/** Sign of |registers k..k+2|² − r² (r² in register 19), exactly. */
function segmentEnd(k: number): number {
  xDot(16, k, k);
  xAdd(16, 16, 19, -1);
  return xFull ? SEGMENT_GAP_UNDECIDED : xSign(16);
}

/**
 * True when (w − q)·(p − q) ≤ 0 exactly, q the nearest point of segment a–b to p (the inputs of
 * {@link segmentGapIo}, w at [14..16]): w lies on or behind the plane through q normal to p − q.
 * When every vertex of a convex polytope containing the segment passes, that plane separates p
 * from the polytope, whose distance to p is then p's distance to the segment. q's region as in
 * {@link segmentGapSignIo}; before a, (w − a)·(p − a); beyond b, (w − b)·(p − b); beside,
 * (w − a)·((p − a)·|e|² − ((p − a)·e)·e), e = b − a (q − a is along e, normal to p − q). A
 * filter first; false too when an input is out of range or a register overflows. Nothing
 * allocated.
 */
export function segmentConeIo(): boolean {
  if (segmentOutOfRange(17)) return false;
  const io = segmentGapIo;
  segmentFloat(17);
  const ux = io[0] + io[3] - segF[1];
  const uy = io[1] + io[4] - segF[2];
  const uz = io[2] + io[5] - segF[3];
  const vx = io[14] - segF[1];
  const vy = io[15] - segF[2];
  const vz = io[16] - segF[3];
  const s = segF[0];
  const f = ux * vx + uy * vy + uz * vz;
  const bound =
    SEGMENT_FILTER *
    s *
    (Math.abs(ux) + Math.abs(uy) + Math.abs(uz) + Math.abs(vx) + Math.abs(vy) + Math.abs(vz) + s);
  if (f < -bound) return true;
  if (f > bound) return false;
  lastValid = false;
  xFull = false;
  for (let axis = 0; axis < 3; axis++) {
    xSum3(W + axis, io, axis, 3 + axis, 6 + axis, -1);
    xDiff(E + axis, io, 9 + axis, 6 + axis);
    xSum3(T + axis, io, axis, 3 + axis, 9 + axis, -1);
    xDiff(F + axis, io, 14 + axis, 6 + axis);
    xDiff(V + axis, io, 14 + axis, 9 + axis);
  }
  xDot(12, W, E);
  if (xSign(12) <= 0) return coneEnd(F, W);
  xDot(15, T, E);
  if (xSign(15) >= 0) return coneEnd(V, T);
  xDot(15, E, E);
  for (let axis = 0; axis < 3; axis++) {
    xMul(17, W + axis, 15);
    xMul(18, E + axis, 12);
    xAdd(NR + axis, 17, 18, -1);
  }
  xDot(16, F, NR);
  return !xFull && xSign(16) <= 0;
}

/** (registers w..w+2)·(registers u..u+2) ≤ 0, exactly, with no register overflowed. */
function coneEnd(w: number, u: number): boolean {
  xDot(16, w, u);
  return !xFull && xSign(16) <= 0;
}

/** The last inputs of {@link pointTriangleGapSignIo} and its answer and side. */
const triIn = new Float64Array(17);
let triValid = false;
let triSign = 0;
let triSide = 0;

/**
 * The sign of dist(p, closed triangle a, b, c) − (r1 + r2), exactly, for the inputs of
 * {@link planeGapIo} (planeGapIo[17]: the side of p, as {@link planeGapSignIo} leaves it): p
 * beyond the radius from the triangle's plane, 1; nearer or at it with its foot in the triangle
 * ({@link footInTriangleIo}), the plane's sign; with its foot proven outside the triangle, the
 * least of the three edges' signs ({@link segmentGapSignIo}) — the nearest point of the
 * triangle then lies on its boundary, the union of the edges (that of the foot, the nearest
 * point of the convex triangle in its plane, whose distance adds to the height's in squares).
 * {@link PLANE_GAP_UNDECIDED} when any step is undecided (an edge's −1 decides the rest). Nothing
 * allocated.
 */
export function pointTriangleGapSignIo(): number {
  const io = planeGapIo;
  let same = triValid;
  for (let i = 0; i < 17 && same; i++) same = Object.is(io[i], triIn[i]);
  if (same) {
    io[17] = triSide;
    return triSign;
  }
  for (let i = 0; i < 17; i++) triIn[i] = io[i];
  triSign = pointTriangleCompute();
  io[17] = triSide;
  triValid = true;
  return triSign;
}

/** {@link pointTriangleGapSignIo}'s computation (no cache); sets triSide. */
function pointTriangleCompute(): number {
  const io = planeGapIo;
  const k = planeGapSignIo();
  triSide = io[17];
  if (k === PLANE_GAP_UNDECIDED || k > 0) return k;
  if (footInTriangleIo()) return k;
  if (!footOutsideTriangleIo()) return PLANE_GAP_UNDECIDED;
  const s = segmentGapIo;
  let best = 1;
  for (let e = 0; e < 3; e++) {
    const o = 6 + 3 * e;
    const o2 = e === 2 ? 6 : o + 3;
    for (let q = 0; q < 6; q++) s[q] = io[q];
    for (let q = 0; q < 3; q++) {
      s[6 + q] = io[o + q];
      s[9 + q] = io[o2 + q];
    }
    s[12] = io[15];
    s[13] = io[16];
    const g = segmentGapSignIo();
    if (g === -1) return -1;
    if (g === SEGMENT_GAP_UNDECIDED) best = PLANE_GAP_UNDECIDED;
    else if (best !== PLANE_GAP_UNDECIDED && g < best) best = g;
  }
  return best;
}
