/**
 * `segmentGapSignIo` and `segmentConeIo` (src/geometry/exact-predicates.ts): the exact sign of a
 * point's distance from a 3D segment less a radius r1 + r2 (the point p1 + p2), and the exact
 * side of a point w of the plane through the segment's nearest point q normal to p − q, against
 * BigInt rationals (every double an integer times 2^-1100): the squared distance — |p − a|²
 * before a, |p − b|² beyond b, else |(p − a) × e|² / |e|² — against (r1 + r2)². Inputs near a
 * touch (the rounded distance give or take a few ulps), exact touches from Pythagorean
 * quadruples (beside the segment, at an end, on the segment's line beyond its ends), degenerate
 * segments, dyadic scales 2^-30..2^30 times offsets up to 2^30 sizes, and magnitudes to 2^±160.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PLANE_GAP_UNDECIDED,
  planeGapIo,
  planeGapSignIo,
  pointTriangleGapSignIo,
  SEGMENT_GAP_UNDECIDED,
  segmentConeIo,
  segmentGapIo,
  segmentGapSignIo,
} from "../../src/geometry/exact-predicates.js";
import { big } from "../dim2/oracle.js";
import { stepUlps } from "../support/ulp.js";

type B3 = [bigint, bigint, bigint];
const sub = (p: B3, q: B3): B3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const dot = (p: B3, q: B3): bigint => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p: B3, q: B3): B3 => [
  p[1] * q[2] - p[2] * q[1],
  p[2] * q[0] - p[0] * q[2],
  p[0] * q[1] - p[1] * q[0],
];
const sgn = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);

/** v: p1 (3), p2 (3), a (3), b (3), r1, r2[, w (3)]. */
function parts(v: number[]) {
  const g = v.map(big);
  const p: B3 = [g[0] + g[3], g[1] + g[4], g[2] + g[5]];
  const a: B3 = [g[6], g[7], g[8]];
  const b: B3 = [g[9], g[10], g[11]];
  return { p, a, b, r: g[12] + g[13], w: [g[14] ?? 0n, g[15] ?? 0n, g[16] ?? 0n] as B3 };
}

/** The exact sign of dist(p, [a, b]) − r. */
function oracle(v: number[]): number {
  const { p, a, b, r } = parts(v);
  const e = sub(b, a);
  const l = dot(e, e);
  const t = dot(sub(p, a), e);
  if (l === 0n || t <= 0n) return sgn(dot(sub(p, a), sub(p, a)) - r * r);
  if (t >= l) return sgn(dot(sub(p, b), sub(p, b)) - r * r);
  const x = cross(sub(p, a), e);
  return sgn(dot(x, x) - r * r * l);
}

/** The exact (w − q)·(p − q) ≤ 0, q the segment's nearest point to p. */
function coneOracle(v: number[]): boolean {
  const { p, a, b, w } = parts(v);
  const e = sub(b, a);
  const l = dot(e, e);
  const t = dot(sub(p, a), e);
  if (l === 0n || t <= 0n) return dot(sub(w, a), sub(p, a)) <= 0n;
  if (t >= l) return dot(sub(w, b), sub(p, b)) <= 0n;
  // L·(w − q) = L(w − a) − t e, L·(p − q) = L(p − a) − t e.
  const wa = sub(w, a);
  const pa = sub(p, a);
  const W: B3 = [l * wa[0] - t * e[0], l * wa[1] - t * e[1], l * wa[2] - t * e[2]];
  const P: B3 = [l * pa[0] - t * e[0], l * pa[1] - t * e[1], l * pa[2] - t * e[2]];
  return dot(W, P) <= 0n;
}

function gap(v: number[]): number {
  for (let i = 0; i < 14; i++) segmentGapIo[i] = v[i];
  return segmentGapSignIo();
}

function cone(v: number[]): boolean {
  for (let i = 0; i < 17; i++) segmentGapIo[i] = v[i];
  return segmentConeIo();
}

/** The distance of p1 + p2 from the segment in doubles (a few ulps off the true one). */
function floatDistance(v: number[]): number {
  const p = [v[0] + v[3], v[1] + v[4], v[2] + v[5]];
  const e = [v[9] - v[6], v[10] - v[7], v[11] - v[8]];
  const w = [p[0] - v[6], p[1] - v[7], p[2] - v[8]];
  const l = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  let t = l > 0 ? (w[0] * e[0] + w[1] * e[1] + w[2] * e[2]) / l : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(w[0] - t * e[0], w[1] - t * e[1], w[2] - t * e[2]);
}

const coord = (e: number) =>
  fc
    .tuple(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: -30, max: 0 }))
    .map(([m, s]) => m * 2 ** (s + e));

const inRange = (v: number[]) =>
  v.every((x) => x === 0 || (Math.abs(x) >= 2 ** -200 && Math.abs(x) < 2 ** 200));

/** Orthogonal integer directions of length 7 (Pythagorean quadruples 2² + 3² + 6² = 7²). */
const D0 = [2, 3, 6];
const D1 = [6, 2, -3];
const D2 = [3, -6, 2];

describe("segmentGapSignIo: exact against BigInt rationals", () => {
  it("random near-touch radii, both splits of p and r, ulps either side, degenerate segments", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -160, max: 160 }),
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom("segment", "degenerate", "on line"),
        (e, ulps, split, kind) =>
          fc.assert(
            fc.property(
              fc.array(coord(e), { minLength: 12, maxLength: 12 }),
              fc.integer({ min: -4, max: 4 }),
              (c, j) => {
                const v = [...c, 0, 0];
                if (kind === "degenerate") for (let i = 0; i < 3; i++) v[9 + i] = v[6 + i];
                if (kind === "on line") {
                  // p on the segment's line, at a + j·(b − a)/2 (beyond the ends for |j| > 2).
                  for (let i = 0; i < 3; i++) {
                    v[i] = v[6 + i] + (j / 2) * (v[9 + i] - v[6 + i]);
                    v[3 + i] = 0;
                  }
                }
                const d = floatDistance(v);
                if (!(d > 0)) return;
                const r = stepUlps(d, ulps);
                v[12] = split === 0 ? r : r / 2 ** split;
                v[13] = split === 0 ? 0 : r - v[12];
                if (!inRange(v)) {
                  expect(gap(v)).toBe(SEGMENT_GAP_UNDECIDED);
                  return;
                }
                expect(gap(v)).toBe(oracle(v));
              },
            ),
            { numRuns: 4 },
          ),
      ),
      { numRuns: 300, seed: 4501 },
    );
  });

  it("exact touches beside, at an end, and on the line beyond an end (offsets to 2^30 sizes)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom([3, 4, 5], [0, 1, 1], [5, 12, 13], [8, 15, 17]),
        fc.constantFrom([1, 2, 2], [2, 3, 6], [1, 4, 8], [0, 0, 1]),
        fc.integer({ min: -30, max: 30 }),
        fc.array(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: -6, max: 6 }),
        fc.integer({ min: -2, max: 2 }),
        fc.constantFrom("beside", "end", "line"),
        fc.integer({ min: 0, max: 2 }),
        ([al, be, c], [g1, g2, g3], e, o, j, ulps, kind, pSplit) => {
          const k = 2 ** e;
          const a = [0, 1, 2].map((i) => (o[i] - 2 * D0[i]) * k);
          const b = [0, 1, 2].map((i) => (o[i] + 2 * D0[i]) * k);
          let p: number[];
          let r: number;
          if (kind === "beside") {
            // Abreast of the segment (|j| ≤ 2) at 7c·k from it.
            const jj = Math.max(-2, Math.min(2, j));
            p = [0, 1, 2].map((i) => (o[i] + jj * D0[i] + al * D1[i] + be * D2[i]) * k);
            r = 7 * c * k;
          } else if (kind === "end") {
            // Past b by the quadruple (g1, g2, g3): at 7·|(g1, g2, g3)|·k from b.
            const s = g1 === 0 && g2 === 0 ? 1 : g1 === 1 && g2 === 2 ? 3 : g1 === 2 ? 7 : 9;
            p = [0, 1, 2].map((i) => b[i] + (g3 * D0[i] + g1 * D1[i] + g2 * D2[i]) * k);
            r = 7 * s * k;
          } else {
            // On the line, |j| + 2 past the centre: 7·|j|·k beyond an end.
            const jj = j === 0 ? 1 : j;
            p = [0, 1, 2].map((i) => (o[i] + (jj + 2 * Math.sign(jj)) * D0[i]) * k);
            r = 7 * Math.abs(jj) * k;
          }
          // p = p1 + p2 with p2 a small dyadic offset (exact: every value an integer times k/8).
          const p2 = [0, 1, 2].map((i) => (pSplit === 0 ? 0 : ((i + pSplit) * k) / 8));
          const p1 = [0, 1, 2].map((i) => p[i] - p2[i]);
          const v = [...p1, ...p2, ...a, ...b, stepUlps(r, ulps), 0];
          expect(gap(v)).toBe(oracle(v));
          expect(gap(v)).toBe(ulps === 0 ? 0 : ulps > 0 ? -1 : 1);
          // The radius split in two: the same sign.
          v[13] = v[12] / 4;
          v[12] = v[12] - v[13];
          expect(gap(v)).toBe(oracle(v));
        },
      ),
      { numRuns: 800, seed: 4502 },
    );
  });

  it("an input outside 2^±200 is undecided; a point segment is a ball", () => {
    const v = [1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0];
    expect(gap(v)).toBe(0);
    v[12] = stepUlps(3, -1);
    expect(gap(v)).toBe(1);
    v[12] = 2 ** 210;
    expect(gap(v)).toBe(SEGMENT_GAP_UNDECIDED);
    v[12] = 3;
    v[6] = 2 ** -230;
    expect(gap(v)).toBe(SEGMENT_GAP_UNDECIDED);
  });
});

describe("segmentConeIo: exact against BigInt rationals", () => {
  it("points w on, behind and in front of the plane through the nearest point", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100, max: 100 }),
        fc.array(fc.integer({ min: -64, max: 64 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
        (e, c, s, t, ulp, off) => {
          const k = 2 ** e;
          const v = [...c.slice(0, 3), 0, 0, 0, ...c.slice(6, 12), 0, 0, 0, 0, 0].map((x) => x * k);
          for (let i = 0; i < 3; i++) v[i] += off * k;
          for (let i = 6; i < 12; i++) v[i] += off * k;
          // w = q + s·(p − q) + t·(a perpendicular), q the doubles' nearest point: exactly on
          // the plane when that q is exact; then nudged by an ulp.
          const a = v.slice(6, 9);
          const b = v.slice(9, 12);
          const p = v.slice(0, 3);
          const ex = b.map((x, i) => x - a[i]);
          const l = ex[0] ** 2 + ex[1] ** 2 + ex[2] ** 2;
          let tt = l > 0 ? p.reduce((acc, x, i) => acc + (x - a[i]) * ex[i], 0) / l : 0;
          tt = Math.max(0, Math.min(1, tt));
          const q = a.map((x, i) => x + tt * ex[i]);
          const u = p.map((x, i) => x - q[i]);
          const perp = [
            u[1] * ex[2] - u[2] * ex[1],
            u[2] * ex[0] - u[0] * ex[2],
            u[0] * ex[1] - u[1] * ex[0],
          ];
          for (let i = 0; i < 3; i++) v[14 + i] = stepUlps(q[i] + s * u[i] + t * perp[i], ulp);
          if (!inRange(v)) return;
          expect(cone(v)).toBe(coneOracle(v));
        },
      ),
      { numRuns: 1500, seed: 4503 },
    );
  });
});

describe("pointTriangleGapSignIo: the nearest of face, edges and corners", () => {
  it("touches at an edge and a corner of a tilted triangle, one ulp either side", () => {
    // Triangle a, b = a + 4·D0, c = a + 4·D2 (in the plane spanned by D0, D2; normal along D1).
    for (const k of [2 ** -30, 1, 2 ** 30]) {
      for (const off of [0, 3, 2 ** 30]) {
        const a = [off * k, -off * k, 2 * off * k];
        const b = a.map((x, i) => x + 4 * D0[i] * k);
        const c = a.map((x, i) => x + 4 * D2[i] * k);
        // Edge ab touch: across ab (−D2) by 4, above the plane (D1) by 3: 35k from the edge.
        const pe = a.map((x, i) => x + (2 * D0[i] - 4 * D2[i] + 3 * D1[i]) * k);
        // Corner a touch: (−D0, −D2, D1)·(2, 1, 2)… |(2, 1, 2)| = 3: 21k from a.
        const pc = a.map((x, i) => x + (-2 * D0[i] - 1 * D2[i] + 2 * D1[i]) * k);
        for (const [p, r] of [
          [pe, 35 * k],
          [pc, 21 * k],
        ] as const) {
          for (const ulps of [-1, 0, 1]) {
            const v = planeGapIo;
            const rr = stepUlps(r, ulps);
            for (let i = 0; i < 3; i++) {
              v[i] = p[i];
              v[3 + i] = 0;
              v[6 + i] = a[i];
              v[9 + i] = b[i];
              v[12 + i] = c[i];
            }
            v[15] = rr;
            v[16] = 0;
            // The plane alone says overlap (the point is nearer the plane than r).
            expect(planeGapSignIo()).toBe(-1);
            expect(pointTriangleGapSignIo()).toBe(ulps === 0 ? 0 : ulps > 0 ? -1 : 1);
            expect(pointTriangleGapSignIo()).not.toBe(PLANE_GAP_UNDECIDED);
          }
        }
      }
    }
  });
});
