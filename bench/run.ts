/**
 * `npm run bench` / `collide bench`: every benchmark scene, Collide and its peers side by side in
 * one process. With --json, one object `{machine, scenes: [...]}`; each run is also kept in
 * bench/results/ with the machine described.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatPairRows, runPairBench } from "./pairs.js";

const json = process.argv.includes("--json");
const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
};

const pairs = await runPairBench();
const scenes: unknown[] = pairs.map((r) => ({
  name: `pair ${r.name}`,
  n: r.n,
  engines: r.engines,
}));

if (json) {
  process.stdout.write(`${JSON.stringify({ machine, scenes })}\n`);
} else {
  process.stdout.write(
    `Collide benchmarks — ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}\n\n`,
  );
  process.stdout.write(`${formatPairRows(pairs)}\n`);
}
const dir = join(dirname(fileURLToPath(import.meta.url)), "results");
mkdirSync(dir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
writeFileSync(join(dir, `${stamp}.json`), `${JSON.stringify({ machine, scenes }, null, 2)}\n`);
