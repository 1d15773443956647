#!/usr/bin/env node
/**
 * The `collide` command: one thin file per subcommand over the public API (shared/DESIGN.md).
 * Bad input prints a clear error naming the field and the value and exits with status 1.
 */
import { Command, InvalidArgumentError } from "commander";
import { CollideError } from "../errors.js";
import { runBenchCommand } from "./bench.js";
import { runCheckCommand } from "./check.js";
import { runDemoCommand } from "./demo-command.js";
import { runQueryCommand } from "./query.js";
import { runViewCommand } from "./view.js";

function positiveInt(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${name} must be a positive integer (got ${v})`);
    return n;
  };
}

function nonNegativeNumber(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n) || n < 0) {
      throw new InvalidArgumentError(`${name} must be a finite number ≥ 0 (got ${v})`);
    }
    return n;
  };
}

function broadphaseName(v: string) {
  if (!["brute", "sap", "grid", "tree"].includes(v)) {
    throw new InvalidArgumentError(`--broadphase must be brute, sap, grid or tree (got ${v})`);
  }
  return v;
}

const program = new Command();
program
  .name("collide")
  .description(
    "Collision detection: exact pair tests, GJK/EPA, broad phases, queries (JSON Lines).",
  )
  .version("0.1.0");

program
  .command("demo")
  .description("run the embedded demo scene on the Stanford bunny (the main job)")
  .option("--bodies <n>", "moving bodies", positiveInt("--bodies"), 2000)
  .option("--frames <n>", "frames to run", positiveInt("--frames"), 300)
  .option("--seed <n>", "seed of the scene", positiveInt("--seed"), 1)
  .option("--json", "print one JSON object instead of the summary")
  .action((o) => runDemoCommand(o));

program
  .command("check")
  .description("list every touching pair of a scene file with its contacts (interference check)")
  .argument("<scene>", "scene JSON file (shared/FORMATS.md)")
  .option("--broadphase <name>", "brute | sap | grid | tree", broadphaseName, "brute")
  .option(
    "--prediction <d>",
    "also report pairs whose gap is at most d",
    nonNegativeNumber("--prediction"),
    0,
  )
  .option("--json", "print one JSON object instead of a table")
  .option("--allow-outside", "allow mesh files outside the scene file's folder")
  .action((scene, o) => runCheckCommand(scene, o));

program
  .command("query")
  .description("answer JSON Lines queries: one query object per line in, one answer per line out")
  .argument("[file]", "input file (default: standard input)")
  .action((file) => runQueryCommand(file));

program
  .command("bench")
  .description("run the benchmarks and print their table")
  .option("--json", "print one JSON object")
  .option("--quick", "smaller sizes and shorter runs")
  .action((o) => runBenchCommand(o));

program
  .command("view")
  .description("serve the web debug viewer of a scene (or of the moving demo) on 127.0.0.1")
  .argument("[scene]", "scene JSON file (shared/FORMATS.md)")
  .option("--demo", "show the built-in moving demo instead of a scene file")
  .option("--port <n>", "TCP port (0: any free port)", nonNegativeNumber("--port"), 0)
  .option("--host <h>", "address to bind: 127.0.0.1 only", "127.0.0.1")
  .option("--frames <n>", "frames of the demo", positiveInt("--frames"))
  .action((scene, o) => runViewCommand(scene, o));

program.exitOverride((err) => {
  process.exit(err.exitCode === 0 ? 0 : 1);
});

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CollideError) {
    process.stderr.write(`collide: ${e.message}\n`);
    process.exit(1);
  }
  throw e;
}
