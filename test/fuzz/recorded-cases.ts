/**
 * Recorded fuzzer failures, replayed as regression tests: a `<name>.cases.json` beside this file
 * holds the scenarios a fuzzer run failed on (test/fuzz/fuzz.ts), each with its seed, pair, op
 * and the verdict it had (`was`). A test file loads them with {@link loadCases} and registers
 * one test a case with {@link replayCases}: the scenario replayed through the fuzzer's own
 * checks (its independent oracle, the bars of docs/FORMATS.md) must fail none of them.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { type FuzzOptions, replayScenario } from "./fuzz.js";
import type { Scenario } from "./generate.js";

/** One recorded failure: the fuzzer's seed, the pair and op that failed, its verdict, its scenario. */
export interface Case {
  seed: number;
  pair: string;
  op: string;
  was: string;
  scenario: Scenario;
}

/** The recorded cases of `file` (a `.cases.json` in test/fuzz/, e.g. "./cast-start.cases.json"). */
export function loadCases(file: string): Case[] {
  return JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as Case[];
}

/**
 * Registers, in the enclosing `describe`, "recorded the failing scenarios" (there are `count`;
 * none when `count` is null) and one test a case, named by its pair, op, seed and former verdict,
 * that replays it (through `options`' ops, default all) and expects no failure.
 */
export function replayCases(
  cases: readonly Case[],
  count: number | null,
  options?: Partial<FuzzOptions>,
): void {
  if (count !== null) {
    it("recorded the failing scenarios", () => {
      expect(cases.length).toBe(count);
    });
  }
  for (const c of cases) {
    it(`${c.pair} ${c.op} (seed ${c.seed}; was: ${c.was})`, () => {
      const failures = replayScenario(c.scenario, c.pair, options);
      expect(failures.map((f) => `${f.op}: ${f.reason}`)).toEqual([]);
    });
  }
}
