/**
 * `npm run fuzz -- --queries N --seed S [--out FILE] [--depth-rel R] [--types a,b] [--ops x,y] [--no-facing]`:
 * the differential fuzzer of test/fuzz/fuzz.ts. Prints the pair × op table (queries/wrong/max
 * error in units of the bar) and writes each failure as a `collide query` JSON line (with the
 * reason in `"_why"` on a separate `#` line of the text) to FILE (default fuzz-failures.jsonl).
 * Exit status 1 when any answer is wrong.
 */
import { writeFileSync } from "node:fs";
import { Command } from "commander";
import { formatTable, runFuzz } from "../test/fuzz/fuzz.js";
import { type ShapeTypeName, TYPES } from "../test/fuzz/generate.js";

const program = new Command()
  .option("--queries <n>", "number of queries", "100000")
  .option("--seed <s>", "seed", "1")
  .option("--out <file>", "failure lines", "fuzz-failures.jsonl")
  .option("--depth-rel <r>", "relative bar on depths", "1e-6")
  .option("--dist-rel <r>", "relative bar on distances", "1e-9")
  .option("--types <list>", "comma-separated JSON shape types")
  .option("--ops <list>", "comma-separated ops")
  .option("--facing", "check that contact witnesses face each other across the normal (default)")
  .option("--no-facing", "leave out the check that contact witnesses face each other")
  .parse();
const o = program.opts();
const types = o.types ? (o.types.split(",") as ShapeTypeName[]) : undefined;
for (const t of types ?? []) {
  if (!(TYPES as readonly string[]).includes(t)) throw new Error(`unknown type ${t}`);
}
const report = runFuzz({
  queries: Number(o.queries),
  seed: Number(o.seed),
  depthRel: Number(o.depthRel),
  distRel: Number(o.distRel),
  types,
  ops: o.ops ? o.ops.split(",") : undefined,
  facing: o.facing !== false,
});
console.log(formatTable(report));
const lines = report.failures.map((f) =>
  JSON.stringify({ id: `${f.pair} ${f.op}: ${f.reason}`.slice(0, 400), ...f.line }),
);
writeFileSync(o.out, lines.join("\n") + (lines.length ? "\n" : ""));
if (report.failures.length) console.log(`${report.failures.length} failure lines in ${o.out}`);
process.exitCode = report.wrong > 0 ? 1 : 0;
