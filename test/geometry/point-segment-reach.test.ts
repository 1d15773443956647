/**
 * `pointSegmentReachSignIo` (src/geometry/exact-predicates.ts): the exact sign of a point's
 * distance from a segment less a reach r0 + r1, against BigInt rationals (every double an integer
 * times 2^-1100): the squared distance — |p − a|² before a, |p − b|² beyond b, else
 * orient2d(a, b, p)² / |b − a|² — against (r0 + r1)². Inputs near a touch (the reach the rounded
 * distance give or take a few ulps, a radius split in two), on the regions' boundaries (p exactly
 * abreast of an end), degenerate segments, and magnitudes from 2^-200 to 2^190.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  pointSegmentReachSignIo,
  REACH_UNDECIDED,
  reachIo,
} from "../../src/geometry/exact-predicates.js";
import { big } from "../dim2/oracle.js";
import { stepUlps } from "../support/ulp.js";

function oracle(v: number[]): number {
  const [ax, ay, bx, by, px, py, r0, r1] = v.map(big);
  const dx = px - ax;
  const dy = py - ay;
  const ex = bx - ax;
  const ey = by - ay;
  const l = ex * ex + ey * ey;
  const t = dx * ex + dy * ey;
  let num: bigint;
  let den = 1n;
  if (l === 0n || t <= 0n) num = dx * dx + dy * dy;
  else if (t >= l) num = (px - bx) ** 2n + (py - by) ** 2n;
  else {
    num = (ex * dy - ey * dx) ** 2n;
    den = l;
  }
  const r = r0 + r1;
  const d = num - r * r * den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

function reach(v: number[]): number {
  for (let i = 0; i < 8; i++) reachIo[i] = v[i];
  return pointSegmentReachSignIo();
}

/** The distance of p from the segment in doubles (a few ulps off the true one). */
function floatDistance(v: number[]): number {
  const [ax, ay, bx, by, px, py] = v;
  const ex = bx - ax;
  const ey = by - ay;
  const l = ex * ex + ey * ey;
  let t = l > 0 ? ((px - ax) * ex + (py - ay) * ey) / l : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}

const coord = (e: number) =>
  fc
    .tuple(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: -30, max: 0 }))
    .map(([m, s]) => m * 2 ** (s + e));

describe("pointSegmentReachSignIo: exact against BigInt rationals", () => {
  it("near-touch reaches, both splits of r, ulps either side", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -165, max: 165 }),
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (e, ulps, split, degenerate) =>
          fc.assert(
            fc.property(fc.array(coord(e), { minLength: 6, maxLength: 6 }), (c) => {
              const v = [...c, 0, 0];
              if (degenerate) {
                v[2] = v[0];
                v[3] = v[1];
              }
              const d = floatDistance(v);
              if (!(d > 0)) return;
              const r = stepUlps(d, ulps);
              v[6] = split === 0 ? r : r / 2 ** split;
              v[7] = split === 0 ? 0 : r - v[6];
              // Inputs outside the predicate's range (a reach below 2^-200) are undecided.
              if (v.some((x) => x !== 0 && !(Math.abs(x) >= 2 ** -200 && Math.abs(x) < 2 ** 200))) {
                expect(reach(v)).toBe(REACH_UNDECIDED);
                return;
              }
              expect(reach(v)).toBe(oracle(v));
            }),
            { numRuns: 5 },
          ),
      ),
      { numRuns: 300, seed: 46 },
    );
  });

  it("exact touches beside, at an end and abreast of an end (Pythagorean offsets)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom([3, 4, 5], [5, 12, 13], [8, 15, 17], [20, 21, 29]),
        fc.integer({ min: -160, max: 160 }),
        fc.integer({ min: -(2 ** 30), max: 2 ** 30 }),
        fc.integer({ min: -(2 ** 30), max: 2 ** 30 }),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: -2, max: 2 }),
        ([a, b, c], e, ox, oy, j, ulps) => {
          const k = 2 ** e;
          // Segment from o − (a, b)k·2 to o + (a, b)k·2; p at o + (a, b)k·j + (b, −a)k, so |j| ≤ 2
          // is beside (or abreast of an end) at distance ck, and |j| = 3 past an end.
          const v = [
            (ox - 2 * a) * k,
            (oy - 2 * b) * k,
            (ox + 2 * a) * k,
            (oy + 2 * b) * k,
            (ox + a * j + b) * k,
            (oy + b * j - a) * k,
            0,
            0,
          ];
          const d = floatDistance(v);
          v[6] = stepUlps(Math.abs(j) <= 2 ? c * k : d, ulps);
          expect(reach(v)).toBe(oracle(v));
          if (Math.abs(j) <= 2) expect(reach(v)).toBe(ulps === 0 ? 0 : ulps > 0 ? -1 : 1);
        },
      ),
      { numRuns: 500, seed: 47 },
    );
  });

  it("an input outside 2^±200 is undecided", () => {
    expect(reach([0, 0, 1, 0, 0.5, 1, 2 ** 210, 0])).toBe(REACH_UNDECIDED);
    expect(reach([2 ** -230, 0, 1, 0, 0.5, 1, 1, 0])).toBe(REACH_UNDECIDED);
    expect(reach([0, 0, 1, 0, 0.5, 1, 1, 0])).toBe(0);
  });
});
