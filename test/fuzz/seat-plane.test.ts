/**
 * Regression inputs of issue 16, "(pB − pA)·n = distance" for deep curved contacts (the fuzzer
 * at 10^5 queries, seeds 20 and 21, main 930b32e): `seatWitnesses` (src/narrowphase/
 * convex-convex.ts) took a witness lying off its shape to the shape's nearest point, which beside
 * a hull's edge or a box's corner lies on the next face, below the witness's supporting plane:
 * (pB − pA)·n missed the depth by 3.5e-3 at depth 11 (a cylinder in a hull of 5e4), 1.4e-6 at
 * depth 8e-6 (at 5e7 from the origin), 2e-5 at depth 4.7e-7 (a cylinder of 6e-3 against a hull of
 * 1e5) and 1.25e-7 at depth 4e-5 (a box against a cone). Fixed: the nearest point taken back onto
 * the supporting plane and the shape in turn, into their common face, else the support point.
 *
 * Each recorded scenario is replayed through the fuzzer's own checks (test/fuzz/fuzz.ts, against
 * its independent oracle test/fuzz/oracle-*.ts at the bars of docs/FORMATS.md): every op passes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { replayScenario } from "./fuzz.js";
import type { Scenario } from "./generate.js";

interface Case {
  seed: number;
  pair: string;
  op: string;
  was: string;
  scenario: Scenario;
}

const CASES = JSON.parse(
  readFileSync(new URL("./seat-plane.cases.json", import.meta.url), "utf8"),
) as Case[];

describe("issue 16: seated witnesses stay on their supporting planes (fuzzer seeds 20, 21)", () => {
  it("recorded the failing scenarios", () => {
    expect(CASES.length).toBe(4);
  });
  for (const c of CASES) {
    it(`${c.pair} ${c.op} (seed ${c.seed}; was: ${c.was})`, () => {
      const failures = replayScenario(c.scenario, c.pair);
      expect(failures.map((f) => `${f.op}: ${f.reason}`)).toEqual([]);
    });
  }
});
