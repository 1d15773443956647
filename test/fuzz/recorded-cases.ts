/**
 * Recorded fuzzer failures, replayed as regression tests: a `<name>.cases.json` beside this file
 * holds the scenarios a fuzzer run failed on (test/fuzz/fuzz.ts), each with its seed, pair, op
 * and the verdict it had (`was`). A test file loads them with {@link loadCases} (a `.jsonl` of
 * them, one a line: {@link loadCaseLines}) and registers one test a case with
 * {@link replayCases}: the scenario replayed through the fuzzer's own checks (its independent
 * oracle, the bars of docs/FORMATS.md) must fail none of them. The same replay of any scenario
 * ({@link expectReplayPasses}, {@link expectPassesBothOrders}) and of the recorded cases scaled
 * and moved ({@link replayScaledCases}) serve the property tests beside them.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { expect, it } from "vitest";
import { offsetArb } from "./arbitraries.js";
import { type FuzzOptions, replayScenario } from "./fuzz.js";
import { exactOffset, offsetScenario, type Scenario } from "./generate.js";
import type { V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** One recorded failure: the fuzzer's seed, the pair and op that failed, its verdict, its scenario. */
export interface Case {
  seed: number;
  pair: string;
  /** The op that failed (absent from records that name none: every op of the replay's options). */
  op?: string;
  was: string;
  scenario: Scenario;
}

/** The recorded cases of `file` (a `.cases.json` in test/fuzz/, e.g. "./cast-start.cases.json"). */
export function loadCases(file: string): Case[] {
  return JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as Case[];
}

/** The recorded cases of `file`, a `.jsonl` in test/fuzz/ (one case a line, blank lines skipped). */
export function loadCaseLines(file: string): Case[] {
  return readFileSync(new URL(file, import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Case);
}

/**
 * Replays `scenario` as pair `pair` through the fuzzer's checks (`options`' ops, default all) and
 * expects no failure (each listed by its op, reason and the line that failed).
 */
export function expectReplayPasses(
  scenario: Scenario,
  pair: string,
  options?: Partial<FuzzOptions>,
): void {
  const failures = replayScenario(scenario, pair, options);
  expect(failures.map((f) => `${f.op}: ${f.reason} ${JSON.stringify(f.line)}`)).toEqual([]);
}

/** {@link expectReplayPasses} of shapes `a` and `b` (JSON) moved by `offset`, in both orders. */
export function expectPassesBothOrders(
  a: J,
  b: J,
  offset: number[],
  pair: string,
  options?: Partial<FuzzOptions>,
): void {
  for (const sc of [offsetScenario(a, b, offset), offsetScenario(b, a, offset)]) {
    expectReplayPasses(sc, pair, options);
  }
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
    const op = c.op === undefined ? "" : ` ${c.op}`;
    it(`${c.pair}${op} (seed ${c.seed}; was: ${c.was})`, () => {
      expectReplayPasses(c.scenario, c.pair, options);
    });
  }
}

/** `j` (a shape's JSON) with every length multiplied by k (a power of two: exact). */
export function scaledShape(j: J, k: number): J {
  const o = structuredClone(j);
  for (const f of ["center", "position", "min", "max", "a", "b", "c"]) {
    if (Array.isArray(o[f])) o[f] = (o[f] as number[]).map((x) => x * k);
  }
  for (const f of ["halfHeight", "radius"])
    if (typeof o[f] === "number") o[f] = (o[f] as number) * k;
  for (const f of ["points", "vertices"]) {
    if (Array.isArray(o[f])) o[f] = (o[f] as V[]).map((p) => p.map((x) => x * k));
  }
  return o;
}

/**
 * Registers one property test a case: its shapes scaled by 2^j (j in −12..12, exact) and moved
 * by up to 1e9 ({@link offsetArb}, at most 1e4 times the scale), replayed through the fuzzer's
 * checks with `options` (default: the case's op, or every op), `numRuns` runs (default 20) from
 * fast-check `seed` (default random).
 */
export function replayScaledCases(
  cases: readonly Case[],
  options?: Partial<FuzzOptions>,
  numRuns = 20,
  seed?: number,
): void {
  for (const c of cases) {
    const opts = options ?? (c.op === undefined ? undefined : { ops: [c.op] });
    it(`${c.pair} ${c.op ?? ""} (seed ${c.seed}; was: ${c.was}) scaled by 2^-12..2^12, offsets to 1e9`, () => {
      fc.assert(
        fc.property(fc.integer({ min: -12, max: 12 }), offsetArb, (j, [ou, om]) => {
          const k = 2 ** j;
          const a = scaledShape(c.scenario.localA as J, k);
          const b = scaledShape(c.scenario.localB as J, k);
          const sc = offsetScenario(a, b, exactOffset(ou, Math.min(1e9, om * k * 1e4)));
          expectReplayPasses(sc, c.pair, opts);
        }),
        seed === undefined ? { numRuns } : { numRuns, seed },
      );
    });
  }
}
