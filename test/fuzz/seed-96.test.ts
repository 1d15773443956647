/**
 * Fuzz seed 96 (10^6 queries on a9abdd7: 1 wrong of 1,000,007), its aabb–box line: a turned box
 * of 160 × 78 × 30 touching the top of an aabb of 5e3 at (−1.6e4, −9.3e3) from above, `contact`'s
 * witnesses 6.9e-10 apart along the normal (0, −1, 0) where the distance is −1.2e-11 (bar
 * 9.5e-11). The box's lowest corner lies 8e-13 beyond the aabb's side x = min.x (below an ulp
 * of the coordinates), so its face turned down, the manifold's incident face, lies beyond that
 * side but for a sliver along its edge that runs 4.8e-4 rad off the side plane: the clip kept
 * only that edge's crossing, 6.8e-10 above the top. The deepest part of the overlap is where the
 * box's third edge from the corner crosses the side, 9.6e-12 below the top: now, when the clip
 * loses the contact, every face of the box turned toward the reference face is clipped to its
 * prism and the deepest point taken (`deepestInPrism`, src/narrowphase/cuboid-cuboid.ts).
 *
 * Oracles, independent of the library (test/fuzz/exact-box.ts): the exact separating axis test
 * over the 15 axes in rationals on the input doubles (least overlap 2.894e-12 along the edge axis
 * A_z × B_z, the top face's 1.172e-11 within the tie), the exact deepest point of the box inside
 * the top face's prism (the box's faces clipped in rationals: 9.642e-12 below the top), and the
 * exact distance of the witnesses from the box's surface. The property draws the class
 * (test/fuzz/box-side-graze.gen.ts) through the fuzzer's checks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { sideGrazeArb } from "./box-side-graze.gen.js";
import {
  exactBoxFaceDistance,
  exactLowestInPrism,
  exactSat,
  q,
  sub,
  toNumber,
} from "./exact-box.js";
import { offsetScenario } from "./generate.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
type V = [number, number, number];

const CASES = loadCaseLines("./seed-96.cases.jsonl");

describe("fuzz seed 96: a turned box's corner just beyond an aabb's side, touching its top", () => {
  replayCases(CASES, 1);

  it("contact: the top face's depth, witnesses at the deepest point of the overlap, facing", () => {
    const sc = CASES[0].scenario;
    const box = sc.worldA as J;
    const aabb = sc.worldB as J;
    const top = (aabb.max as V)[1];
    // Exact: the least overlap over the 15 axes, and the top face's.
    const sat = exactSat(box, aabb);
    expect(sat[0].name).toBe("E22");
    expect(Math.abs(sat[0].overlap - 2.8941067348202178e-12)).toBeLessThan(1e-24);
    const face = sat.find((s) => s.name === "B1")?.overlap as number;
    expect(Math.abs(face - 1.1719741737295048e-11)).toBeLessThan(1e-24);
    // Exact: the box's deepest point inside the top face's prism, 9.642e-12 below the top.
    const lowest = exactLowestInPrism(aabb, box, 1);
    expect(lowest).not.toBeNull();
    const below = toNumber(sub(q(top), lowest as NonNullable<typeof lowest>));
    expect(Math.abs(below - 9.642334943673848e-12)).toBeLessThan(1e-24);
    for (const [x, y, flip] of [
      [box, aabb, 1],
      [aabb, box, -1],
    ] as const) {
      const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson;
      const pBox = (flip === 1 ? c.pointA : c.pointB) as V;
      const pAabb = (flip === 1 ? c.pointB : c.pointA) as V;
      // The top face's normal and depth (within the SAT's tie of the least overlap: 32 ulps of
      // the size 5e3, 3.5e-11), to the rounding of the coordinates at 1.6e4 (3.6e-12 an ulp).
      expect(c.normal.map((v) => v * flip + 0)).toEqual([0, -1, 0]);
      expect(Math.abs(-c.distance - face)).toBeLessThan(4e-12);
      expect(-c.distance - sat[0].overlap).toBeLessThan(3.5e-11);
      // The box's witness: on the box, at the deepest point (was 6.83e-10 above the top).
      expect(Math.abs(exactBoxFaceDistance(box, pBox))).toBeLessThan(4e-12);
      expect(Math.abs(top - pBox[1] - below)).toBeLessThan(4e-12);
      // The aabb's: its foot on the top face, inside it.
      expect(pAabb[1]).toBe(top);
      expect(pAabb[0]).toBeGreaterThanOrEqual((aabb.min as V)[0]);
      expect(pAabb[0]).toBe(pBox[0]);
      expect(pAabb[2]).toBe(pBox[2]);
      // Facing along the normal: (pB − pA)·n = distance to the bar (was 6.94e-10 off).
      const along = (c.pointB[1] - c.pointA[1]) * c.normal[1];
      expect(Math.abs(along - c.distance)).toBeLessThan(1e-11);
    }
  });
});

/**
 * The class: a turned box whose lowest corner (or a point of one of its edges) lies within a few
 * ulps of an aabb's side, or across it, at a depth of 2^-38..2^-50 of its size below the top —
 * where the top face's axis ties with the edge axes — one of its axes 10^-1..10^-6 rad off the side
 * plane; sizes 1e-3..1e5, offsets to 1e9 (at most 10^4 times the box); against an aabb and, the pair
 * turned as a whole, a box; both orders; replayed through the fuzzer's checks (contact, manifold,
 * distance; the facing bar on). Before the fix 4 of 2,000 replays of fast-check seed 1's 1,000
 * draws failed (10 of seed 2's, 8 of seed 3's, the witnesses 2e-10 to 1.7e-8 apart along the
 * normal); after, 0 (seed 1). Seeds 2 and 3 found two other classes, before and after alike,
 * fixed in session 39: test/fuzz/box-side-graze.test.ts runs the property at seeds 2, 3 and 5.
 */
describe("property: a turned box just beyond an aabb's or box's side, touching its top", () => {
  it("witnesses at the deepest point of the overlap, facing along the normal (both orders)", () => {
    fc.assert(
      fc.property(sideGrazeArb, (g) => {
        for (const [a, b] of [
          [g.box, g.other],
          [g.other, g.box],
        ]) {
          expectReplayPasses(offsetScenario(a, b, g.offset), g.pair, {
            ops: ["contact", "manifold", "distance"],
          });
        }
      }),
      { numRuns: 1000, seed: 1 },
    );
  }, 120_000);
});
