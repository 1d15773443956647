// temp (tri16): replay saved scenarios; print failures now
import { readFileSync } from "node:fs";
import { replayScenario } from "../test/fuzz/fuzz.js";
const files = process.argv.slice(2);
const seen = new Set<string>();
let n = 0, bad = 0;
for (const file of files) for (const l of readFileSync(file, "utf8").split("\n")) {
  if (!l.trim()) continue;
  const f = JSON.parse(l);
  const key = JSON.stringify(f.scenario);
  if (seen.has(key)) continue;
  seen.add(key);
  n++;
  const now = replayScenario(f.scenario, f.pair);
  if (now.length) bad++;
  console.log(now.length ? "FAIL" : "ok  ", f.pair, f.op, f.reason.slice(0, 100));
  for (const g of now) console.log("     now:", g.op, g.reason.slice(0, 160));
}
console.log(`${bad} of ${n} scenarios still fail`);
