// temp (tri16): run fuzz, save failures (with scenario) matching a pair filter
import { writeFileSync } from "node:fs";
import { runFuzz } from "../test/fuzz/fuzz.js";
import type { ShapeTypeName } from "../test/fuzz/generate.js";
const [q, seed, out, types, filt] = process.argv.slice(2);
const r = runFuzz({ queries: Number(q), seed: Number(seed), maxFailures: Infinity,
  types: types && types !== "all" ? (types.split(",") as ShapeTypeName[]) : undefined });
const fs = r.failures.filter((f) => !filt || new RegExp(filt).test(f.pair));
console.log(`${r.wrong} wrong of ${r.queries}; kept ${fs.length} in ${r.seconds.toFixed(1)}s`);
for (const f of fs) console.log(f.pair, f.op, f.reason.slice(0, 150));
writeFileSync(out, fs.map((f) => JSON.stringify(f)).join("\n"));
