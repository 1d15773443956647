/**
 * Generator and exact oracle of the class of seed 87's open line: a small turned cylinder or cone
 * touching a triangle at one of its corners (or along an edge through the touch point), the
 * triangle on the far side of the solid's supporting plane there. Written without the library.
 *
 * Construction (the oracle's closed-form supports, test/fuzz/oracle-shapes.ts): a direction d —
 * generic (a rim point or a cone's apex), near a cap's or base's normal, or near a side's — and
 * the solid's support point p along it; the triangle's touching corner at p, its other corners at
 * p + St·(u + h·d) with u in the plane normal to d and h ≥ 0 (h = 0: that edge lies in the
 * supporting plane), or in "edge" mode p inside an edge lying in that plane and the third corner
 * beyond it. The pair touches at p to the rounding of the construction.
 *
 * The triangle's witness is judged by its exact distance from the triangle (`triangleDistance2`:
 * the closest point by Voronoi regions in integers — every double is an integer times a power of
 * two —, so the squared distance is an exact rational; Ericson 2005, §5.1.5, for the regions).
 */
import fc from "fast-check";
import { quatArb, thousandthArb, thousandthPointArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { add, cross, oshape, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** One drawn pair: the triangle `t`, the solid `s` (local frame), the world offset, the fuzzer's pair name. */
export interface CornerTouch {
  t: J;
  s: J;
  offset: number[];
  pair: "cylinder-triangle" | "cone-triangle";
}

const buf = new DataView(new ArrayBuffer(8));

/** x = m · 2^e exactly (m a BigInt, e the exponent of the last mantissa bit). */
function dyadic(x: number): { m: bigint; e: number } {
  if (x === 0) return { m: 0n, e: 0 };
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) m |= 1n << 52n;
  const e = exp === 0 ? -1074 : exp - 1075;
  return { m: hi >>> 31 ? -m : m, e };
}

type IV = [bigint, bigint, bigint];
const isub = (a: IV, b: IV): IV => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const idot = (a: IV, b: IV): bigint => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const icross = (a: IV, b: IV): IV => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/**
 * The squared distance of p from the closed triangle abc, exactly: num / den · 2^(2·e) (num ≥ 0,
 * den > 0, BigInts). The corners and p are written as integers times the common 2^e; the region
 * of p decided by the signs of integer dot products; an edge's squared distance
 * (|w|²|e|² − (e·w)²)/|e|², the face's (n·w)²/|n|² for n = ab × ac. A degenerate triangle (n = 0)
 * is the least over its three edges.
 */
export function triangleDistance2(a: V, b: V, c: V, p: V): { num: bigint; den: bigint; e: number } {
  const all = [...a, ...b, ...c, ...p].map(dyadic);
  let e = 0;
  let first = true;
  for (const d of all) {
    if (d.m === 0n) continue;
    if (first || d.e < e) e = d.e;
    first = false;
  }
  const I = all.map((d) => (d.m === 0n ? 0n : d.m << BigInt(d.e - e)));
  const A: IV = [I[0], I[1], I[2]];
  const B: IV = [I[3], I[4], I[5]];
  const C: IV = [I[6], I[7], I[8]];
  const P: IV = [I[9], I[10], I[11]];
  const point = (q: IV) => ({ num: idot(isub(P, q), isub(P, q)), den: 1n, e });
  // Squared distance of P from segment qr (clamped).
  const segment = (q: IV, r: IV) => {
    const ed = isub(r, q);
    const w = isub(P, q);
    const ee = idot(ed, ed);
    const t = idot(ed, w);
    if (ee === 0n || t <= 0n) return point(q);
    if (t >= ee) return point(r);
    return { num: idot(w, w) * ee - t * t, den: ee, e };
  };
  const less = (x: { num: bigint; den: bigint }, y: { num: bigint; den: bigint }) =>
    x.num * y.den < y.num * x.den;
  const ab = isub(B, A);
  const ac = isub(C, A);
  const n = icross(ab, ac);
  if (idot(n, n) === 0n) {
    let best = segment(A, B);
    for (const s of [segment(B, C), segment(C, A)]) if (less(s, best)) best = s;
    return best;
  }
  const ap = isub(P, A);
  const d1 = idot(ab, ap);
  const d2 = idot(ac, ap);
  if (d1 <= 0n && d2 <= 0n) return point(A);
  const bp = isub(P, B);
  const d3 = idot(ab, bp);
  const d4 = idot(ac, bp);
  if (d3 >= 0n && d4 <= d3) return point(B);
  if (d1 * d4 - d3 * d2 <= 0n && d1 >= 0n && d3 <= 0n) return segment(A, B);
  const cp = isub(P, C);
  const d5 = idot(ab, cp);
  const d6 = idot(ac, cp);
  if (d6 >= 0n && d5 <= d6) return point(C);
  if (d5 * d2 - d1 * d6 <= 0n && d2 >= 0n && d6 <= 0n) return segment(A, C);
  if (d3 * d6 - d5 * d4 <= 0n && d4 - d3 >= 0n && d5 - d6 >= 0n) return segment(B, C);
  const h = idot(n, ap);
  return { num: h * h, den: idot(n, n), e };
}

/** The distance of p from triangle t (JSON), from the exact square (rounded once, nearly). */
export function triangleDistance(t: J, p: V): number {
  const { num, den, e } = triangleDistance2(t.a as V, t.b as V, t.c as V, p);
  if (num === 0n) return 0;
  // num/den to 60 significant bits, then the square root of the double, scaled by 2^e.
  const shift = BigInt(Math.max(0, 120 - (num.toString(2).length - den.toString(2).length)));
  const q = (num << shift) / den;
  const bits = q.toString(2).length;
  const top = bits > 60 ? q >> BigInt(bits - 60) : q;
  const lg = (bits > 60 ? bits - 60 : 0) - Number(shift) + 2 * e;
  return Math.sqrt(Number(top)) * 2 ** (lg / 2);
}

/** The unit of the last place of the largest coordinate of the points. */
export function ulpOfPoints(...ps: V[]): number {
  let m = 0;
  for (const p of ps) for (const x of p) m = Math.max(m, Math.abs(x));
  return m === 0 ? 0 : 2 ** (Math.floor(Math.log2(m)) - 52);
}

/**
 * A touching pair of the class: a cylinder or cone of 2^-20..2^20 (turned by a raw unit
 * quaternion), a triangle of 2^-6..2^6 of it touching it at a corner (or along an edge through
 * the touch point), moved by an exact offset of up to 2^30.
 */
export const cornerTouchArb: fc.Arbitrary<CornerTouch> = fc
  .tuple(
    fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -6, max: 6 }), fc.boolean()),
    fc.tuple(
      fc.constantFrom("generic", "cap", "side", "generic"),
      quatArb,
      thousandthPointArb,
      fc.integer({ min: -40, max: -4 }),
      thousandthPointArb,
    ),
    fc.tuple(
      fc.constantFrom("corner", "corner", "edge"),
      thousandthArb,
      thousandthArb,
      fc.integer({ min: -30, max: 0 }),
      fc.integer({ min: -30, max: 0 }),
      fc.integer({ min: 0, max: 2 }),
    ),
    fc.tuple(
      thousandthPointArb,
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: -12, max: 12 }),
    ),
  )
  .map(
    ([[eS, eR, cone], [dk, q, d0, eTilt, tilt], [mode, u1, u2, eh1, eh2, at], [dir, eo, ep]]) => {
      const S = 2 ** eS;
      const St = 2 ** Math.max(-20, Math.min(20, eS + eR));
      const solid: J = cone
        ? { type: "cone", center: [0, 0, 0], halfHeight: S, radius: 0.8 * S, rotation: q }
        : { type: "cylinder", center: [0, 0, 0], halfHeight: 0.88 * S, radius: S, rotation: q };
      // The direction in the solid's frame: generic, or a cap's (base's) or the side's normal tilted
      // by 2^eTilt.
      let base: V;
      if (dk === "generic") base = Math.hypot(...d0) > 0.1 ? (d0 as V) : [0.3, 0.8, -0.5];
      else if (dk === "cap") base = [0, d0[1] >= 0 && !cone ? 1 : -1, 0];
      else {
        const r = Math.hypot(d0[0], d0[2]);
        base = r > 0.1 ? [d0[0] / r, 0, d0[2] / r] : [1, 0, 0];
      }
      const d = rotate(q, unit(add(unit(base), scale(tilt as V, 2 ** eTilt))));
      // The touch point, pushed along d by up to 2^12 ulps of the solid's size (ep > 0: into it by
      // 2^(ep−1) of them; ep < 0 out of it; 0 not pushed): overlaps and gaps at the rounding level.
      const push = ep === 0 ? 0 : Math.sign(ep) * 2 ** (Math.abs(ep) - 1) * S * 2 ** -52;
      const p = sub(oshape(solid).pieces[0].support(d), scale(d, push));
      // A basis of the plane normal to d.
      const t0: V = Math.abs(d[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
      const e1 = unit(cross(d, t0));
      const e2 = cross(d, e1);
      const dirAt = (k: number): V => {
        const a = k * Math.PI;
        return add(scale(e1, Math.cos(a)), scale(e2, Math.sin(a)));
      };
      const h1 = eh1 === -30 ? 0 : 2 ** eh1;
      const h2 = 2 ** eh2;
      let corners: V[];
      if (mode === "corner") {
        // The two edges from p apart by 0.05π..0.95π seen along d.
        const g1 = dirAt(u1);
        const g2 = dirAt(u1 + (0.05 + 0.9 * Math.abs(u2)) * (u2 >= 0 ? 1 : -1));
        corners = [
          p,
          add(p, scale(add(g1, scale(d, h1)), St)),
          add(p, scale(add(g2, scale(d, h2)), St)),
        ];
      } else {
        // p inside an edge in the supporting plane, the third corner beyond it.
        const g = dirAt(u1);
        const l = 0.5 + 0.45 * u2;
        const w = cross(d, g);
        corners = [
          sub(p, scale(g, l * St)),
          add(p, scale(g, (1 - l) * St)),
          add(p, scale(add(add(scale(g, u2), w), scale(d, 0.5 + h2)), 0.5 * St)),
        ];
      }
      // The touching corner first, second or third.
      const [ta, tb, tc] = [0, 1, 2].map((i) => corners[(i + at) % 3]);
      const t: J = { type: "triangle", a: ta, b: tb, c: tc };
      const offset = exactOffset(dir, 2 ** Math.min(30, Math.max(eS, eS + eR) + eo));
      return { t, s: solid, offset, pair: cone ? "cone-triangle" : "cylinder-triangle" };
    },
  );
