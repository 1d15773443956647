/**
 * Regressions of issue 16 from the fuzzer at 10^6 queries, seed 56 (main a9cd145):
 *
 * - mesh–mesh `contact`, "flipped normal not negated: error 2.000e+0 > bar 1.000e-6": an open
 *   box mesh of 3e-5 (its −x and −y faces) and a closed one, concentric. Every pair of A's side
 *   triangles with B's top or bottom triangles overlaps by the same 1.3e-5, along +z for the top
 *   and −z for the bottom, and no normal separates all of them (the surfaces cross); the
 *   composite mid-phase keeps the first deepest pair of its walk, and the walk of (B, A) is not
 *   the walk of (A, B). At the identity relative pose `canonicalOrder` decides nothing, so each
 *   order ran its own walk. Fixed in src/narrowphase/canonical-order.ts (`sameTypeSwapped`): two
 *   meshes or two compounds there are solved in the order of their data, by the queries and the
 *   world, and the other order flips that answer.
 *
 * Each recorded scenario is replayed through the fuzzer's checks (its independent oracle).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { expectReplayPasses, loadCases, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;
interface Answer {
  distance: number;
  normal: number[];
  pointA: number[];
  pointB: number[];
}

describe("issue 16, seed 56: two composites at one pose flip exactly when swapped", () => {
  const cases = loadCases("./seed-56.cases.json");
  replayCases(cases, 1);

  it("the recorded open box meshes: contact(B, A) is contact(A, B) flipped", () => {
    const a = cases[0].scenario.worldA as J;
    const b = cases[0].scenario.worldB as J;
    const ab = answerQuery({ op: "contact", a, b }) as Answer;
    const ba = answerQuery({ op: "contact", a: b, b: a }) as Answer;
    // The overlap of the two surfaces along z: A's half height less B's, exactly.
    expect(ab.distance).toBe(-(2.412691062631248e-5 - 1.0973263386845335e-5));
    expect(ba.distance).toBe(ab.distance);
    expect(ba.normal).toEqual(ab.normal.map((x) => 0 - x));
    expect(ba.pointA).toEqual(ab.pointB);
    expect(ba.pointB).toEqual(ab.pointA);
  });

  it("property: box meshes (open or closed) and compounds at one pose, sizes 1e-6..1e6, offsets to 1e9, swap flips", () => {
    const ext = fc.tuple(
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom("mesh", "compound"),
        fc.integer({ min: -20, max: 20 }),
        offsetArb,
        fc.tuple(ext, ext, fc.boolean(), fc.boolean()),
        fc.option(quatArb, { nil: undefined }),
        (type, e, [ou, om], [ha, hb, openA, openB], rotation) => {
          const s = 2 ** e;
          const shape = (h: number[], open: boolean, k: number): J => {
            const he = h.map((x) => x * s);
            const j: J =
              type === "mesh"
                ? boxMeshJson(he, [0, 0, 0], open)
                : {
                    type: "compound",
                    position: [0, 0, 0],
                    children: [
                      {
                        shape: { type: "box", center: [0, 0, 0], halfExtents: he },
                        position: [0, 0, 0],
                      },
                      {
                        shape: { type: "sphere", center: [0, 0, 0], radius: he[k % 3] },
                        position: he.map((x, i) => (i === k % 3 ? x : 0)),
                      },
                    ],
                  };
            return rotation ? { ...j, rotation } : j;
          };
          const a = shape(ha, openA, 0);
          const b = shape(hb, openB, 1);
          const sc = offsetScenario(a, b, exactOffset(ou, Math.min(1e9, om * s * 1e4)));
          const ab = answerQuery({ op: "contact", a: sc.worldA, b: sc.worldB }) as Answer | null;
          const ba = answerQuery({ op: "contact", a: sc.worldB, b: sc.worldA }) as Answer | null;
          expect(ba === null).toBe(ab === null);
          if (ab !== null && ba !== null) {
            expect(ba.distance).toBe(ab.distance);
            expect(ba.normal).toEqual(ab.normal.map((x) => 0 - x));
            expect(ba.pointA).toEqual(ab.pointB);
            expect(ba.pointB).toEqual(ab.pointA);
          }
          expectReplayPasses(sc, `${type}-${type}`, { ops: ["intersects", "distance", "contact"] });
        },
      ),
      { numRuns: 120, seed: 56 },
    );
  });
});
