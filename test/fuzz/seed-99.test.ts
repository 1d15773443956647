/**
 * Issue 16, the repository fuzzer's seed 99 (10^6 queries on 2afb463: 1 wrong of 1,000,007):
 * `castShapes` of a triangle whose corner c lies 8.9e-16 beside a cone's apex, B moving at 137 a
 * second, answered toi 5e-324 (the least positive double: apart at 0, `intersects` false, so not
 * toi 0, and closing at once), and the fuzzer's check "shapes apart at the reported toi" read an
 * error of NaN. The library's answer is within the check's bar (the gap at 0 is under 1e-16 against
 * a bar of 1.4e-7); the NaN was the oracle's: B moved by w·5e-324 put the two hint points 7e-323
 * apart, `Math.hypot` gave that subnormal length exactly, and its reciprocal overflowed, so the
 * direction's components were ±Infinity and NaN. Fixed in the oracle: `unit` (test/fuzz/oracle-
 * shapes.ts) divides a vector of subnormal length by its largest component first. Its values for
 * every other vector are unchanged (the same `scale(a, 1 / n)`).
 */
import { describe, expect, it } from "vitest";
import { norm, unit } from "./oracle-shapes.js";
import { loadCaseLines, replayCases } from "./recorded-cases.js";

const CASES = loadCaseLines("./seed-99.cases.jsonl");

describe("issue 16, seed 99: a cast answered at the least positive toi", () => {
  replayCases(CASES, 1, { facing: true });

  it("the oracle's unit vector of a subnormal vector is a unit vector along it", () => {
    for (const v of [
      [5e-324, 0, 0],
      [0, -1e-323, 0],
      [7e-323, -5e-324, 2e-323],
      [1e-310, 1e-310, 1e-310],
    ]) {
      const u = unit(v as [number, number, number]);
      expect(Math.abs(norm(u) - 1)).toBeLessThan(4e-16);
      for (let i = 0; i < 3; i++) expect(Math.sign(u[i])).toBe(Math.sign(v[i]));
    }
    expect(unit([3, 4, 0])).toEqual([3 * (1 / 5), 4 * (1 / 5), 0]);
    expect(unit([0, 0, 0])).toEqual([0, 0, 0]);
  });
});
