/**
 * The differential fuzzer in CI (issue 16, must-have 4): FUZZ_QUERIES queries (default 100,000)
 * from seed FUZZ_SEED (default 16) over every pair of shape types and every op, each checked
 * against the independent oracles at the bars of docs/FORMATS.md ("Accuracy"). A failure prints
 * the table and the first failing `collide query` lines with their reasons.
 */
import { describe, expect, it } from "vitest";
import { formatTable, runFuzz } from "./fuzz.js";

const QUERIES = Number(process.env.FUZZ_QUERIES ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 16);

describe("differential fuzzer", () => {
  it(`${QUERIES} queries from seed ${SEED} are all within their bars`, { timeout: 900_000 }, () => {
    const report = runFuzz({ queries: QUERIES, seed: SEED, maxFailures: 20 });
    const lines = report.failures.map(
      (f) => `${f.pair} ${f.op}: ${f.reason}\n  ${JSON.stringify(f.line)}`,
    );
    if (report.wrong > 0) console.log(`${formatTable(report)}\n${lines.join("\n")}`);
    expect(report.errors).toBe(0);
    expect(report.wrong).toBe(0);
  });
});
