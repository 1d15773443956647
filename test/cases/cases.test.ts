/**
 * The handed cases: real failures reported against other engines (test/cases/*.jsonl, copied
 * from shared/cases so that a clone tests with nothing beside it). Each line is a `collide
 * query` object with the right answer; every one must pass through the same code path as the
 * command (`answerQuery`). Expectations: numbers within `tol`, vectors componentwise, "@unit"
 * for any unit vector, and a list of pairs exactly.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

interface Case {
  id: string;
  query: Record<string, unknown>;
  expect: Record<string, unknown>;
  tol: number;
  source: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const cases: Case[] = readdirSync(here)
  .filter((f) => f.endsWith(".jsonl"))
  .flatMap((f) =>
    readFileSync(join(here, f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Case),
  );

/** Compares `got` with `want` within `tol`, naming the field on failure. */
export function expectMatches(got: unknown, want: unknown, tol: number, field: string): void {
  if (want === "@unit") {
    const v = got as number[];
    expect(Array.isArray(v), `${field} is a vector`).toBe(true);
    expect(Math.hypot(...v), `${field} is unit`).toBeCloseTo(1, 9);
    return;
  }
  if (typeof want === "number") {
    expect(typeof got, `${field} is a number`).toBe("number");
    expect(Math.abs((got as number) - want), `${field}: ${got} vs ${want}`).toBeLessThanOrEqual(tol);
    return;
  }
  if (Array.isArray(want)) {
    expect(Array.isArray(got), `${field} is an array`).toBe(true);
    const g = got as unknown[];
    expect(g.length, `${field} length`).toBe(want.length);
    want.forEach((w, i) => {
      expectMatches(g[i], w, tol, `${field}[${i}]`);
    });
    return;
  }
  if (want !== null && typeof want === "object") {
    for (const [k, w] of Object.entries(want)) {
      expect(got, `${field}.${k} present`).toHaveProperty(k);
      expectMatches((got as Record<string, unknown>)[k], w, tol, `${field}.${k}`);
    }
    return;
  }
  expect(got, field).toEqual(want);
}

describe("handed cases (real failures of other engines)", () => {
  it("there are cases to run", () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  for (const c of cases) {
    it(`${c.id} (${c.source})`, () => {
      const result = answerQuery(c.query);
      expect(result, "a result").not.toBeNull();
      expectMatches(result, c.expect, c.tol, "result");
    });
  }
});
