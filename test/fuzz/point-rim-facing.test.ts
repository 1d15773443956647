/**
 * Issue 16, the open lines point-rim-facing.jsonl (2026-12-05; found by the generator of
 * test/fuzz/point-rim.gen.ts with the facing check, 4 of 2,000 draws of its whole class,
 * fast-check seed 1): a box overlapping a cone of 32 or 128 or a cylinder of 3.3e4 across the
 * solid's rim, 1e-12 to 1.2e-4 deep, the least overlap's normal at the cap's end of the rim's fan
 * (the cap's, or 2^-20 rad from it) or 2^-17 rad from the side's; the depth and the normal right
 * to their bars but `contact`'s witnesses 9e-6 to 7.5 apart sideways (bars 2.3e-10 to 4.9e-7):
 * along the cap's normal the box's support is a corner beyond the rim, and no point of the cap's
 * disc faces it.
 *
 * Fixed in src/narrowphase/rim-contact.ts (`rimContact`, after `cornerRevolution`, only where the
 * solver's witnesses do not face each other): the overlap along candidate normals from closed
 * forms and 1-D roots — an edge of the box against a rim circle (their common perpendicular, a
 * local minimum of the squared distance over the edge's parameter, or the kink where the edge
 * crosses the rim's cylinder), a face's inward normal, the solver's normal with the box's
 * supporting corners — each kept only where its witnesses (the solid's support and the point
 * across the overlap) lie on their shapes: the least of them, no deeper than the solver's depth.
 *
 * Oracles, written without the library (test/oracles/revolution-depth.ts: closed-form supports
 * and signed distances): the least overlap over directions (an upper bound of the depth; the
 * answer's normal achieving its depth makes it a lower bound too), the generator's bounds
 * (`pointRimBounds`), the witnesses' signed distances from their shapes, pointB − pointA against
 * distance · normal, and the fuzzer's checks with `facing` (replay). Measured with the class's
 * property below (its draws at the ends of the fan, the exponent drawn with fast-check's bias,
 * seed 1, 1,000 draws, both orders): 29 not facing before, 0 after; the generator's whole class
 * (`pointRimArb`, seeds 1–4, 3,000 draws each): 6, 6, 6 and 5 before, 0 after.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { expectLeastOverlapContacts, expectPointRimFacing } from "./contact-checks.js";
import { broadArb, type PointRimParams } from "./point-rim.gen.js";
import { loadCases, replayCases } from "./recorded-cases.js";

/**
 * The class: the generator's broad draws (test/fuzz/point-rim.gen.ts: a box's corner on a
 * cylinder's rim or a cone's base rim, sizes 2^-20..2^20, the box 2^-12..2^12 of the solid,
 * edges 2^-10..2^-40 rad from the plane across the rim's normal m, offsets to 1e9) with m at an
 * end of the fan — the cap's normal, or 2^-18..2^-30 rad from the cap's or the side's (the
 * corner touching, into the solid or pushed off it: the box's edges and faces cross the rim).
 */
const fanEndArb: fc.Arbitrary<PointRimParams> = fc
  .tuple(
    broadArb,
    fc.oneof(
      fc.constant(["fan", 1] as ["fan", number]),
      fc.tuple(
        fc.constantFrom("cap" as const, "side" as const),
        fc.noBias(fc.integer({ min: 18, max: 30 })),
      ),
    ),
  )
  .map(([g, fan]) => ({ ...g, fan }));

describe("issue 16, point-rim-facing: a box's edge or face across a rim, the normal at an end of its fan", () => {
  const cases = loadCases("./point-rim-facing.cases.json");
  replayCases(cases, 4, { facing: true });

  it("the recorded pairs, both orders: depth the least overlap, its normal achieving it, witnesses on their shapes and facing", () => {
    expectLeastOverlapContacts(cases, { depthAtLeast: true });
  });

  it("property: a box's corner at a rim, its edges and faces across it, the normal at the cap's or the side's end of the fan (2^-18..2^-30 rad or on it), sizes 2^-20..2^20, offsets to 1e9: witnesses on the shapes and facing, the depth within the oracle's bounds", () => {
    fc.assert(
      fc.property(fanEndArb, (g) => {
        expectPointRimFacing(g);
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
