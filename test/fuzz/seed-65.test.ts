/**
 * Regression of issue 16 from the fuzzer at 10^6 queries, seed 65 (main f299a9b, the facing bar
 * a default check): two manifolds whose points the new facing re-pair of two parallel supporting
 * segments (`facingPair`, src/narrowphase/manifold.ts) took off the capsule — a capsule of radius
 * 2.3e3 deep through a cone of 2.8e3 (a point 2.2e3 off the capsule, deeper than the contact)
 * and a capsule of 6.5e-4 at 2e5 on a box mesh of 1e-2 (a point 1.6e-5 off it). The solid ray
 * cast that finds a shape's top along the normal started at the core's support plane, inside a
 * rounded shape (a capsule: its segment's support), and answered its own start; it now starts
 * past the core's support by twice the margin. Oracle: the fuzzer's checks (replayScenario, with
 * and without the facing bar: points on their shapes, no point deeper than the contact,
 * pointB − pointA along the normal).
 */
import { describe, it } from "vitest";
import { expectReplayPasses, loadCases } from "./recorded-cases.js";

describe("seed 65: capsule manifolds re-paired across the normal stay on the capsule", () => {
  const cases = loadCases("./seed-65.cases.json");
  for (const c of cases)
    it(`${c.pair} ${c.op}`, () => {
      expectReplayPasses(c.scenario, c.pair, { facing: false });
      expectReplayPasses(c.scenario, c.pair, { facing: true });
    });
});
