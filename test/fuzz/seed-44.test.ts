/**
 * Regression of issue 16 from the fuzzer at 10^5 queries, seed 44, main 862b248: a hull of
 * 6e-6 deep inside a hull of 6.5e5 (the small one 3.7e5 from the origin). EPA did not converge
 * at that size ratio, SAT gave the right depth and normal, and the fallback witnesses took the
 * solver's B — the large hull, after the canonical order swapped the pair — at its deepest
 * point along −n: its far corner, 6.8e5 from the small hull (`pointB off its shape`). Fixed in
 * src/narrowphase/convex-convex.ts: `witnessesAlong` anchors on the smaller shape's deepest
 * point, and a converged polytope answer whose witness lies outside its shape's bounding ball
 * takes those witnesses too. The recorded scenario is replayed through the fuzzer's checks; a
 * fast-check property puts small random hulls deep inside large ones at sizes 1e-7..1e6 (ratios
 * up to 1e12) and offsets up to 1e9, both orders, through the same checks.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { expectPassesBothOrders, loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

describe("a small hull deep inside a large one (seed 44)", () => {
  replayCases(loadCases("./seed-44.cases.json"), 1);

  it("property: witnesses on their shapes and the depth's bars, sizes 1e-7..1e6, offsets to 1e9", () => {
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    const point = fc.tuple(unit, unit, unit);
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 6, maxLength: 12 }),
        fc.array(point, { minLength: 6, maxLength: 12 }),
        fc.integer({ min: -24, max: 20 }),
        fc.integer({ min: 8, max: 40 }),
        fc.tuple(unit, unit, unit),
        fc.integer({ min: 0, max: 30 }),
        (big, small, e, ratio, where, offExp) => {
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          // The large hull holds the cube of half-size L/2 (its corners added), the small one
          // sits at a point of that inner cube.
          const corners: number[][] = [];
          for (const x of [-1, 1])
            for (const y of [-1, 1]) for (const z of [-1, 1]) corners.push([x, y, z]);
          const a: J = {
            type: "convex",
            points: [...big, ...corners].map((p) => p.map((c) => c * L)),
          };
          // Off the centre, at distinct distances from the cube's faces: a tie between two of the
          // large hull's faces would leave the normal to the order of the pair (a swap test).
          const at = [0.13 + 0.1 * where[0], -0.07 + 0.03 * where[1], 0.25 + 0.05 * where[2]].map(
            (c) => c * L,
          );
          const b: J = {
            type: "convex",
            points: [...small, [1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]].map((p) =>
              p.map((c) => c * s),
            ),
            position: at,
          };
          const o = [2 ** offExp, -(2 ** offExp), 0];
          expectPassesBothOrders(a, b, o, "convex-convex", { ops: ["distance", "contact"] });
        },
      ),
      { numRuns: 60, seed: 44 },
    );
  });
});
