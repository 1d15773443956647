/**
 * The draws of test/fuzz/box-side-graze.gen.ts (seed 96's class: a turned box grazing an aabb's or
 * box's top at its side) that still failed after seed 96's fix, 12 of 10,000 replays at fast-check
 * seeds 1–5 (test/fuzz/box-side-graze.cases.jsonl; open in test/fuzz/open/ until session 39).
 * Three faults of the box–box SAT (src/narrowphase/cuboid-cuboid.ts):
 *
 * 1. Edge axes' separations off by ε·h/|A_i × B_j| (draws 765 of seed 2, 303 and 398 of seed 3,
 *    778 of seed 5: a box of 1e4..1e5 against one of ~2e6, edges 1e-4..1e-2 rad from parallel;
 *    the depths 4e-8 to 1e-7 short along an edge axis that did not attain them, one order calling
 *    the boxes apart by 8e-7 where they overlap by 7e-7): the textbook B-radius takes
 *    B_k·(A_i × B_j) as an entry of R, an identity that the rounded R keeps to a few ε, which the
 *    division by |A_i × B_j| magnifies. Now projected directly where it could decide
 *    (`edgeRbDirect`), in the full test, the intersects test and the warm start's axis alike.
 * 2. A tied edge axis whose support edges do not cross (draw 971 of seed 2, 662 of seed 5): the SAT
 *    kept A_y × B_z over A_z × B_z 1.07e-15 deeper within the tie, its edges' closest points
 *    1.9e-3 apart sideways; now a tied axis whose witnesses face is taken (`facingEdgeAxis`).
 * 3. A face axis tied with an edge axis but not realized inside its prism (draw 356 of seed 5,
 *    found after fix 1: the face 6.2e-16 deep, the edge axis touching, the deepest point inside
 *    the prism 5.9e-15 above the face): the edge axis is taken (`facingFaceAxis`).
 *
 * Oracles, independent of the library (test/fuzz/exact-box.ts): the exact 15-axis SAT on the
 * input doubles (the least overlap: the depth), the exact overlap of the boxes along the reported
 * normal (the normal achieves the depth), the exact distance of each witness from its shape's
 * surface; the property replays the class through the fuzzer's checks at the seeds that found
 * these draws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { sideGrazeArb } from "./box-side-graze.gen.js";
import { exactOverlapAlong, exactSat, exactShapeFaceDistance } from "./exact-box.js";
import { offsetScenario } from "./generate.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
type V = [number, number, number];

const CASES = loadCaseLines("./box-side-graze.cases.jsonl") as (ReturnType<
  typeof loadCaseLines
>[number] & { draw: number })[];

/** The exact least overlap over the 15 axes (the depth; negative: apart) of each case, A then B. */
const EXACT_DEPTH: Record<string, number> = {
  "2/765": 3.636567402405301e-7,
  "2/971": 1.2436043764934285e-17,
  "3/303": 1.133921614382416e-7,
  "3/398": 3.6365418493735973e-7,
  "5/356": -4.570398924069676e-18,
  "5/662": 1.3004930465854159e-11,
  "5/778": 3.3691219935685795e-7,
};

/** The largest magnitude of a shape's coordinates (centre, corners' bounds). */
function magnitude(j: J): number {
  const xs = [
    ...((j.center as number[]) ?? []),
    ...((j.min as number[]) ?? []),
    ...((j.max as number[]) ?? []),
  ].map(Math.abs);
  const h = (j.halfExtents as number[]) ?? [0, 0, 0];
  return Math.max(...xs) + Math.max(...h);
}

describe("box-side-graze: edge axes near parallel at large coordinates, tied axes that do not face", () => {
  replayCases(CASES, 7);

  for (const c of CASES) {
    it(`draw ${c.draw} of seed ${c.seed}: the exact depth, a normal achieving it, facing witnesses on the shapes (both orders)`, () => {
      const a = c.scenario.worldA as J;
      const b = c.scenario.worldB as J;
      const depth = exactSat(a, b)[0].overlap;
      const known = EXACT_DEPTH[`${c.seed}/${c.draw}`];
      expect(Math.abs(depth - known)).toBeLessThanOrEqual(1e-9 * Math.abs(known));
      // The fuzzer's depth bar (docs/FORMATS.md, Accuracy): 1e-6 of the depth and 64 ulps of the
      // coordinates.
      const L = Math.max(magnitude(a), magnitude(b));
      const bar = 1e-6 * Math.abs(depth) + 64 * Number.EPSILON * L;
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const r = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
        if (r === null) {
          // Apart: only where the exact depth is within the rounding of touching.
          expect(depth).toBeLessThanOrEqual(bar);
          continue;
        }
        const d = -r.distance;
        expect(Math.abs(d - depth)).toBeLessThanOrEqual(bar);
        // The normal achieves the depth: the exact overlap along it is no deeper.
        expect(exactOverlapAlong(x, y, r.normal)).toBeLessThanOrEqual(d + bar);
        // The witnesses on their shapes and facing across the normal.
        expect(Math.abs(exactShapeFaceDistance(x, r.pointA))).toBeLessThanOrEqual(bar);
        expect(Math.abs(exactShapeFaceDistance(y, r.pointB))).toBeLessThanOrEqual(bar);
        const w = [0, 1, 2].map((k) => r.pointB[k] - r.pointA[k] - r.distance * r.normal[k]) as V;
        expect(Math.hypot(...w)).toBeLessThanOrEqual(bar);
      }
    });
  }
});

/**
 * The class at the fast-check seeds that found these draws (seed 1 runs in seed-96.test.ts):
 * 1,000 draws each, both orders, through the fuzzer's checks. Before: 4, 4 and 4 of 2,000 replays
 * failing at seeds 2, 3 and 5 (0 at 1 and 4); after, 0.
 */
describe("property: a turned box just beyond an aabb's or box's side, touching its top (seeds 2, 3, 5)", () => {
  for (const seed of [2, 3, 5]) {
    it(`seed ${seed}: witnesses facing along a normal that achieves the depth (both orders)`, () => {
      fc.assert(
        fc.property(sideGrazeArb, (g) => {
          for (const [x, y] of [
            [g.box, g.other],
            [g.other, g.box],
          ]) {
            expectReplayPasses(offsetScenario(x, y, g.offset), g.pair, {
              ops: ["contact", "manifold", "distance"],
            });
          }
        }),
        { numRuns: 1000, seed },
      );
    }, 180_000);
  }
});
