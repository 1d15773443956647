/**
 * Regression of issue 16 (found in passing, session 23; recorded in test/fuzz/ridge-check.ts): the
 * sphere–cone closed form's normal did not attain its depth when the sphere's centre lay just
 * inside the slant's region next to the rim (or the apex). The cone's profile
 * (src/geometry/revolution.ts) chose between the slant segment and the base segment by their
 * squared distances, whose rounding (ε·d²) exceeds their difference there: it took the rim with
 * the normal from the rim to the centre, tilted up to √ε past the slant's own normal, and the
 * overlap along that normal exceeded the depth by the slant's length times the tilt (a sphere of
 * 32 on a cone of 0.8: 1.538e-9 along the normal for a depth of 1.314e-9). Fixed: the region is
 * decided by its sign tests (outside the slant line within its span; below the base within its
 * radius), the distances only where both or neither hold.
 *
 * Oracle: test/oracles/ridge-overlap.ts (support functions of the JSON shapes, no library code):
 * the overlap along the reported normal must equal the depth within the bar of docs/FORMATS.md,
 * and the depth must be the least overlap over directions (through ridge-check.ts, which now asks
 * the sphere's normal too).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { type J, overlapAlong } from "../oracles/ridge-overlap.js";
import { quatArb } from "./arbitraries.js";
import { offsetScenario } from "./generate.js";
import { add, norm, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";
import { type Answer, check, sizeOf } from "./ridge-check.js";

const EPS = 2 ** -52;

describe("sphere–cone: the normal attains the depth next to the rim and the apex (issue 16)", () => {
  it("the recorded pair: a sphere of 32 on the rim of a cone of 0.8, at 3.4e7", () => {
    const a: J = {
      type: "cone",
      center: [33554433.2, -33554432.8, 16777216.4],
      halfHeight: 0.8,
      radius: 0.8,
      rotation: [1, 9.439418838506685e-147, -1.3866452956380182e-186, 4e-323],
    };
    const b: J = {
      type: "sphere",
      center: [33554462.62167011, -33554446.310835056, 16777216.4],
      radius: 32,
    };
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const c = answerQuery({ op: "contact", a: x, b: y } as never) as Answer;
      // mpmath (40 digits) on the input doubles: the centre is 31.99999999868565691468 from the
      // slant line, inside its span (parameter 1 − 2.2e-9): depth 1.31434308532e-9.
      expect(Math.abs(-c.distance - 1.31434308532e-9)).toBeLessThan(1e-14);
      const along = overlapAlong(x, y, c.normal as V, a.center as V);
      expect(Math.abs(along + c.distance)).toBeLessThan(64 * EPS * 32 + 16 * EPS * 32);
    }
    expect(check(a, b, a, b)).toEqual([]);
  });

  it("property: a sphere along the slant's normal at its ends (rim, apex), sizes 2^-20..2^20, ratios 2^±20, offsets to 2^30", () => {
    const unit01 = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom("cone", "cylinder"),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(unit01, unit01),
        quatArb,
        fc.constantFrom(0, 1, 2 ** -30, 1 - 2 ** -30, 2 ** -12, 1 - 2 ** -12),
        fc.tuple(fc.boolean(), fc.integer({ min: 2, max: 40 })),
        fc.integer({ min: 0, max: 30 }),
        (type, eA, ratio, dims, q, u, depth, offExp) => {
          const L = 2 ** eA;
          const h = L * (0.2 + 0.8 * dims[0]);
          const r = L * (0.2 + 0.8 * dims[1]);
          const A: J = {
            type,
            center: [0.3 * L, -0.2 * L, 0.1 * L],
            halfHeight: h,
            radius: r,
            rotation: q,
          };
          // A point of the side (the cone's slant from apex to rim, the cylinder's side from top
          // to bottom) at parameter u and the side's outward normal there (local, azimuth +x).
          const top: V = type === "cone" ? [0, h, 0] : [r, h, 0];
          const rim: V = [r, -h, 0];
          const m: V = type === "cone" ? unit([2 * h, r, 0]) : [1, 0, 0];
          const p = add(A.center as V, rotate(q, add(scale(top, 1 - u), scale(rim, u))));
          const n = unit(rotate(q, m));
          const s = L * 2 ** ratio;
          const delta = (depth[0] ? 1 : -1) * Math.min(L, s) * 2 ** -depth[1];
          const B: J = { type: "sphere", center: add(p, scale(n, s + delta)), radius: s };
          const o = [2 ** offExp, -(2 ** offExp), 2 ** (offExp - 1)];
          const sc = offsetScenario(A, B, o);
          const bad = check(sc.localA, sc.localB, sc.worldA, sc.worldB, [n]);
          expect(bad, JSON.stringify({ a: sc.worldA, b: sc.worldB })).toEqual([]);
          // The normal's overlap, both orders, at the bar (s the smaller size, L the pair's).
          const size = Math.max(
            sizeOf(sc.localA),
            s,
            norm(sub(sc.localB.center as V, sc.localA.center as V)),
          );
          for (const [x, y] of [
            [sc.worldA, sc.worldB],
            [sc.worldB, sc.worldA],
          ]) {
            const c = answerQuery({ op: "contact", a: x, b: y } as never) as Answer;
            if (c === null) continue;
            const along = overlapAlong(x, y, c.normal as V, sc.worldA.center as V);
            const bar = 1e-6 * Math.abs(c.distance) + 80 * EPS * size + 16 * EPS * norm(o as V);
            expect(Math.abs(along + c.distance), JSON.stringify({ x, y, c })).toBeLessThanOrEqual(
              bar,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 600_000);
});
