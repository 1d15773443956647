/**
 * Regression of issue 16 (fuzzer, stress run 11, s24): a box of 0.4 whose face lay on the rim of
 * a cylinder of 1.9e5 (radius 9.7e4), 3.7e-11 apart. The gap's witnesses, polished by alternating
 * projections from GJK's, crawled along the face where the rim is tangent to it and ended 8.7e-4
 * along it, 3.9e-9 apart (`|pointB − pointA| ≠ distance`, bar 3.5e-9). Fixed in
 * src/narrowphase/convex-convex.ts: the projections start again from each shape's support point
 * along the normal (`supportStarts`), which lies at the contact. The recorded scenarios (both
 * orders) are replayed through the fuzzer's checks, and scaled by 2^-12..2^12 and moved up to 1e9.
 */
import { describe } from "vitest";
import { loadCases, replayCases, replayScaledCases } from "./recorded-cases.js";

describe("a box's face on a large cylinder's rim (stress-11, s24)", () => {
  const cases = loadCases("./rim-face-gap.cases.json");
  replayCases(cases, 2);
  replayScaledCases(cases);
});
