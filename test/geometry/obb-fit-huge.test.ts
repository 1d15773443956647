/**
 * Session 40's fresh-user attack, finding F2: `fitObbPca` of points near the top of the doubles
 * answered a NaN centre and −Infinity half extents (±1e308: the first point's offsets overflowed)
 * or an infinite half extent (0, 1.7e308 on two axes). Such points are now fitted scaled down
 * by a power of two and scaled back. Oracles: hand-derived boxes (a segment, a right triangle's
 * diagonal frame), the scale equivariance of the fit — the same set at unit scale, fitted
 * without scaling, times 2^k gives the same box bit for bit, since power-of-two scaling commutes
 * with every rounding — and a box that cannot be represented is refused naming `points`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitObbPca, makeObb } from "../../src/index.js";
import { refusal } from "../support/refusal.js";

const fitBox = (pts: number[]) => fitObbPca(makeObb(), pts);

describe("fitObbPca near the top of the doubles (F2)", () => {
  it("hand-derived boxes: a segment of ±1e308 and a right triangle of legs 1.7e308", () => {
    const s = fitBox([-1e308, 0, 0, 1e308, 0, 0]);
    expect([s.center.x, s.center.y, s.center.z]).toEqual([0, 0, 0]);
    expect(s.halfExtents.x).toBe(1e308);
    expect(s.halfExtents.y).toBe(0);
    const t = fitBox([-1e308, 0, 0, 1e308, 0, 0, 0, 1e308, 0]);
    expect(t.halfExtents.x).toBe(1e308);
    expect(t.halfExtents.y).toBe(5e307);
    expect(t.center.x).toBe(0);
    expect(t.center.y).toBeCloseTo(5e307, -293);
    // Legs L = 1.7e308 on x and y: the axes are the diagonals; along (1, −1)/√2 the projections
    // are 0, ±L/√2 (half extent L/√2), along (1, 1)/√2 they are 0, L/√2, L/√2 (half extent
    // L/(2√2)); the centre is (L/4, L/4, 0).
    const L = 1.7e308;
    const r = fitBox([0, 0, 0, L, 0, 0, 0, L, 0]);
    const he = [r.halfExtents.x, r.halfExtents.y].sort((a, b) => b - a);
    expect(he[0] / (L / Math.SQRT2)).toBeCloseTo(1, 13);
    expect(he[1] / (L / (2 * Math.SQRT2))).toBeCloseTo(1, 13);
    expect(r.center.x / (L / 4)).toBeCloseTo(1, 13);
    expect(r.center.y / (L / 4)).toBeCloseTo(1, 13);
  });

  it("equals the unit-scale fit times 2^k, bit for bit (property)", () => {
    const coord = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 901, max: 1023 }),
        (pts, k) => {
          const flat = pts.flat().map((x) => (Math.abs(x) < 2 ** -100 ? 0 : x));
          const big = flat.map((x) => x * 2 ** k);
          if (!big.some((x) => Math.abs(x) > 2 ** 900)) return;
          const a = fitBox(flat);
          const b = fitBox(big);
          const s = 2 ** k;
          expect(b.halfExtents).toEqual({
            x: a.halfExtents.x * s,
            y: a.halfExtents.y * s,
            z: a.halfExtents.z * s,
          });
          expect(b.center).toEqual({ x: a.center.x * s, y: a.center.y * s, z: a.center.z * s });
          expect(b.rotation).toEqual(a.rotation);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a box that does not fit in the doubles is refused naming points", () => {
    const e = refusal(() =>
      fitBox([-1.7e308, -1.7e308, -1.7e308, 1.7e308, 1.7e308, 1.7e308, 1.7e308, -1.7e308, 0]),
    );
    expect(e.field).toBe("points");
    expect(e.message).toMatch(/overflows a double/);
  });
});
