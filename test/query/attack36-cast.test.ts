/**
 * Attack 36, castShapes near the end of the doubles: with maxToi Infinity the search horizon
 * (src/query/cast-shapes.ts `castHorizon`) formed ½(min + max) of boxes near ±1e308, which
 * overflowed, and handed every such pair to the half-space branch, which threw a TypeError (unit
 * spheres at 0 and 9e307; spheres and boxes of 3e307–5e307). Twice the exit time could also carry
 * the motion past the doubles (spheres of 3e307 at 7e307: "displacement beyond the range"), and a
 * half-space's bound 2·(s + r) overflowed for a ball at 9e307. Oracle: the moving-spheres
 * quadratic (Ericson 2005, §5.5.3) in units of the pair's magnitude M (lengths and speeds divided
 * by M: the time is the same), or the hand-derived gap over the closing speed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";

const I = { x: 0, y: 0, z: 0, w: 1 };
const at = (x: number, y = 0, z = 0) => ({ translation: { x, y, z }, rotation: I });
const still = { x: 0, y: 0, z: 0 };

describe("castShapes with maxToi Infinity near the end of the doubles (attack 36)", () => {
  it("unit spheres 9e307 apart closing at 9e306: toi (9e307 − 2)/9e306 = 10 in doubles", () => {
    const hit = castShapes(
      makeSphere(1),
      at(0),
      { x: 9e306, y: 0, z: 0 },
      makeSphere(1),
      at(9e307),
      still,
      Number.POSITIVE_INFINITY,
    );
    expect(hit).not.toBeNull();
    expect(hit?.toi).toBe(10);
  });

  it("spheres and boxes of half-size s at 3s closing at s/10 meet at (3s − 2s)/(s/10) = 10", () => {
    for (const s of [1e300, 1e307, 3e307, 4.4e307, 5e307]) {
      for (const shape of [makeSphere(s), makeCuboid({ x: s, y: s, z: s })]) {
        const hit = castShapes(
          shape,
          at(0),
          { x: s / 10, y: 0, z: 0 },
          shape,
          at(3 * s),
          still,
          Number.POSITIVE_INFINITY,
        );
        expect(hit, `s ${s}`).not.toBeNull();
        expect(Math.abs((hit?.toi ?? 0) - 10)).toBeLessThan(1e-12);
      }
    }
  });

  it("balls of radius r at d closing at d/10 meet at (d − 2r)/(d/10) (no overflowing room)", () => {
    for (const [r, d] of [
      [3e307, 9e307],
      [1e307, 9e307],
      [2.5e307, 9e307],
      [3e307, 7e307],
    ]) {
      const hit = castShapes(
        makeSphere(r),
        at(0),
        { x: d / 10, y: 0, z: 0 },
        makeSphere(r),
        at(d),
        still,
        Number.POSITIVE_INFINITY,
      );
      const toi = (d - 2 * r) / (d / 10);
      expect(Math.abs((hit?.toi ?? Number.NaN) - toi)).toBeLessThan(1e-12 * toi);
    }
  });

  it("the same with maxToi 100 (a relative displacement of 9e308): searched while the motion is a double, toi 10", () => {
    const hit = castShapes(
      makeSphere(1),
      at(0),
      { x: 9e306, y: 0, z: 0 },
      makeSphere(1),
      at(9e307),
      still,
      100,
    );
    expect(hit?.toi).toBe(10);
  });

  it("a ball 9e307 above a plane, falling at 9e306, lands at (9e307 − 1)/9e306 = 10", () => {
    const hit = castShapes(
      makeSphere(1),
      at(9e307),
      { x: -9e306, y: 0, z: 0 },
      makeHalfSpace({ x: 1, y: 0, z: 0 }, 0),
      at(0),
      still,
      Number.POSITIVE_INFINITY,
    );
    expect(hit?.toi).toBe(10);
  });

  it("property: spheres of magnitude 1e290..8e307 anywhere, maxToi 1..1e300 or Infinity: the quadratic's time, or a CollideError", () => {
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    // Speeds of at least 1/20 of M per unit time per axis: the times stay near the magnitudes'
    // ratio (a crawl of 1e-251·M is a search over 1e251 time units, another regime).
    const speed = unit.map((x) => (x < 0 ? x - 0.05 : x + 0.05));
    fc.assert(
      fc.property(
        fc.double({ min: 290, max: 307.9, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.tuple(unit, unit, unit),
        fc.tuple(unit, unit, unit),
        fc.tuple(speed, speed, speed),
        fc.tuple(speed, speed, speed),
        fc.oneof(
          fc.constant(Number.POSITIVE_INFINITY),
          fc.double({ min: 0, max: 300, noNaN: true }).map((x) => 10 ** x),
        ),
        (e, ra, rb, pa, dd, va, vb, maxToi) => {
          const M = 10 ** e;
          const rA = ra * M;
          const rB = rb * M;
          const A = { x: pa[0] * 0.5 * M, y: pa[1] * 0.5 * M, z: pa[2] * 0.5 * M };
          const B = { x: A.x + dd[0] * M, y: A.y + dd[1] * M, z: A.z + dd[2] * M };
          const vA = { x: va[0] * M * 0.1, y: va[1] * M * 0.1, z: va[2] * M * 0.1 };
          const vB = { x: vb[0] * M * 0.1, y: vb[1] * M * 0.1, z: vb[2] * M * 0.1 };
          // The oracle in units of M: d = (B − A)/M, v = (vB − vA)/M, R = (rA + rB)/M.
          const d = [(B.x - A.x) / M, (B.y - A.y) / M, (B.z - A.z) / M];
          const v = [(vB.x - vA.x) / M, (vB.y - vA.y) / M, (vB.z - vA.z) / M];
          const R = ra + rb;
          const a = v[0] ** 2 + v[1] ** 2 + v[2] ** 2;
          const b = d[0] * v[0] + d[1] * v[1] + d[2] * v[2];
          const c = d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - R * R;
          const disc = b * b - a * c;
          let toi: number | null = null;
          if (c <= 0) toi = 0;
          else if (disc >= 0 && b < 0) toi = c / (-b + Math.sqrt(disc));
          // A graze (within rounding of tangent), a start within rounding of touching or a meeting
          // within rounding of maxToi may go either way.
          if (Math.abs(disc) < 1e-6 * b * b || Math.abs(c) < 1e-9) return;
          if (toi !== null && Math.abs(toi - maxToi) <= 1e-9 * toi) return;
          if (toi !== null && toi > maxToi) toi = null;
          let hit: ReturnType<typeof castShapes> = null;
          try {
            hit = castShapes(
              makeSphere(rA),
              at(A.x, A.y, A.z),
              vA,
              makeSphere(rB),
              at(B.x, B.y, B.z),
              vB,
              maxToi,
            );
          } catch (err) {
            expect(err).toBeInstanceOf(CollideError);
            return;
          }
          expect(hit === null, `hit ${hit?.toi} oracle ${toi}`).toBe(toi === null);
          if (hit && toi !== null) {
            // The contact positions agree to 1e-7 of the radii's sum.
            expect(Math.abs(hit.toi - toi) * Math.sqrt(a)).toBeLessThan(1e-7 * R);
          }
        },
      ),
      { numRuns: 400, seed: 36 },
    );
  });
});
