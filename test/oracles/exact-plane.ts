/**
 * Exact signed distances to a posed half-space's plane, for the far-from-origin and large-scale
 * tests of meshes and heightfields against half-spaces: every input double is a dyadic rational
 * (test/fuzz/exact.ts), and the rotation a quaternion q stands for is R̃(q)/|q|² with R̃'s
 * entries polynomials in q's components (Shoemake 1985), so n·(R_M v + t_M − t_H) − o, with
 * n = R_H n_local, is one exact rational; only its final division is rounded. Written apart from
 * the library (no isometry, quaternion or Dot2 code of it).
 */
import { type Dy, dadd, dmul, dsub, dy } from "../fuzz/exact.js";

/** A pose as plain numbers: translation [x, y, z], rotation quaternion [x, y, z, w]. */
export interface PlainPose {
  t: readonly number[];
  q: readonly number[];
}

type DV = [Dy, Dy, Dy];
const ZERO: Dy = { m: 0n, e: 0 };
const sum = (...xs: Dy[]): Dy => xs.reduce(dadd, ZERO);

/** R̃(q)·v (|q|² times the rotation of v), exactly. */
function rotTilde(q: readonly number[], v: DV): DV {
  const [x, y, z, w] = q.map(dy);
  const two: Dy = { m: 2n, e: 0 };
  const xx = dmul(x, x);
  const yy = dmul(y, y);
  const zz = dmul(z, z);
  const ww = dmul(w, w);
  const m = (a: Dy, b: Dy) => dmul(two, dmul(a, b));
  const r00 = dsub(dsub(dadd(ww, xx), yy), zz);
  const r11 = dsub(dsub(dadd(ww, yy), xx), zz);
  const r22 = dsub(dsub(dadd(ww, zz), xx), yy);
  const r01 = dsub(m(x, y), m(w, z));
  const r10 = dadd(m(x, y), m(w, z));
  const r02 = dadd(m(x, z), m(w, y));
  const r20 = dsub(m(x, z), m(w, y));
  const r12 = dsub(m(y, z), m(w, x));
  const r21 = dadd(m(y, z), m(w, x));
  return [
    sum(dmul(r00, v[0]), dmul(r01, v[1]), dmul(r02, v[2])),
    sum(dmul(r10, v[0]), dmul(r11, v[1]), dmul(r12, v[2])),
    sum(dmul(r20, v[0]), dmul(r21, v[1]), dmul(r22, v[2])),
  ];
}

/** |q|², exactly. */
function norm2(q: readonly number[]): Dy {
  const d = q.map(dy);
  return sum(...d.map((c) => dmul(c, c)));
}

/** The double nearest (within an ulp or two) the dyadic m·2^e. */
export function dyToNumber(d: Dy): number {
  if (d.m === 0n) return 0;
  let m = d.m;
  let e = d.e;
  const neg = m < 0n;
  if (neg) m = -m;
  const bits = m.toString(2).length;
  if (bits > 64) {
    const s = bits - 64;
    m >>= BigInt(s);
    e += s;
  }
  const v = Number(m) * 2 ** e;
  // 2^e can underflow or overflow alone while the product is finite: split it.
  const h = Math.trunc(e / 2);
  const r = Number.isFinite(v) && (v !== 0 || e > -1000) ? v : Number(m) * 2 ** h * 2 ** (e - h);
  return neg ? -r : r;
}

/** (a/b) rounded, a and b exact dyadics (b > 0). */
function quotient(a: Dy, b: Dy): number {
  // Both scaled to about 2^64 integers first, so the division is of two accurate doubles.
  return dyToNumber(a) / dyToNumber(b);
}

/**
 * The signed distances, exact then rounded once, of the points `local` (each [x, y, z] in the
 * frame of pose `pm`) to the plane n·x = o of a half-space at pose `ph` (positive outside, on
 * the side the normal points to).
 */
export function exactPlaneGaps(
  n: readonly number[],
  o: number,
  ph: PlainPose,
  local: readonly (readonly number[])[],
  pm: PlainPose,
): number[] {
  const nT = rotTilde(ph.q, [dy(n[0]), dy(n[1]), dy(n[2])]);
  const dH = norm2(ph.q);
  const dM = norm2(pm.q);
  const dt: DV = [0, 1, 2].map((k) => dsub(dy(pm.t[k]), dy(ph.t[k]))) as DV;
  // s = (ñ·R̃v)/(|qH|²|qM|²) + ñ·Δt/|qH|² − o, over the common denominator |qH|²|qM|².
  const den = dmul(dH, dM);
  const fixed = dsub(
    dmul(sum(dmul(nT[0], dt[0]), dmul(nT[1], dt[1]), dmul(nT[2], dt[2])), dM),
    dmul(dy(o), den),
  );
  return local.map((v) => {
    const rv = rotTilde(pm.q, [dy(v[0]), dy(v[1]), dy(v[2])]);
    const num = dadd(sum(dmul(nT[0], rv[0]), dmul(nT[1], rv[1]), dmul(nT[2], rv[2])), fixed);
    return quotient(num, den);
  });
}
