/**
 * `npx tsx scripts/fuzz-breakdown.ts --queries N --seed S [--top K]`: runs the differential
 * fuzzer of test/fuzz/fuzz.ts and classifies every wrong answer by op and failing bar (the
 * reason with its numbers removed), then by pair within each class, largest classes first.
 * Writes every failure (not only the first 1000) as JSON lines to --out.
 */
import { writeFileSync } from "node:fs";
import { Command } from "commander";
import { runFuzz } from "../test/fuzz/fuzz.js";
import type { ShapeTypeName } from "../test/fuzz/generate.js";

const o = new Command()
  .option("--queries <n>", "number of queries", "100000")
  .option("--seed <s>", "seed", "16")
  .option("--top <k>", "classes to print", "60")
  .option("--types <list>", "comma-separated JSON shape types")
  .option("--ops <list>", "comma-separated ops")
  .option("--out <file>", "all failure lines", "fuzz-breakdown.jsonl")
  .option("--facing", "check that contact witnesses face each other across the normal (default)")
  .option("--no-facing", "leave out the check that contact witnesses face each other")
  .parse()
  .opts();
const report = runFuzz({
  queries: Number(o.queries),
  seed: Number(o.seed),
  maxFailures: Number.POSITIVE_INFINITY,
  types: o.types ? (o.types.split(",") as ShapeTypeName[]) : undefined,
  ops: o.ops ? o.ops.split(",") : undefined,
  facing: o.facing !== false,
});
/** A failing bar: the first clause of each issue, numbers and bracketed values removed. */
function bars(reason: string): string[] {
  return reason.split("; ").map((s) =>
    s
      .replace(/\[[^\]]*\]/g, "[…]")
      .replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi, "#")
      .replace(/error # > bar #/, "over its bar")
      .slice(0, 90),
  );
}
const classes = new Map<string, Map<string, number>>();
for (const f of report.failures) {
  for (const b of new Set(bars(f.reason))) {
    const key = `${f.op}: ${b}`;
    let m = classes.get(key);
    if (!m) {
      m = new Map();
      classes.set(key, m);
    }
    m.set(f.pair, (m.get(f.pair) ?? 0) + 1);
  }
}
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const sorted = [...classes.entries()].sort((a, b) => sum(b[1]) - sum(a[1]));
console.log(
  `${report.wrong} wrong of ${report.queries} (${report.errors} errors) in ${report.seconds.toFixed(1)} s`,
);
for (const [k, m] of sorted.slice(0, Number(o.top))) {
  const pairs = [...m.entries()].sort((a, b) => b[1] - a[1]);
  console.log(
    `${String(sum(m)).padStart(5)}  ${k}\n        ${pairs
      .slice(0, 8)
      .map(([p, c]) => `${p} ${c}`)
      .join(", ")}`,
  );
}
writeFileSync(
  o.out,
  report.failures
    .map((f) =>
      JSON.stringify({
        pair: f.pair,
        op: f.op,
        why: f.reason,
        line: f.line,
        answer: f.answer,
        scenario: f.scenario,
      }),
    )
    .join("\n"),
);
