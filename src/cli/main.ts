#!/usr/bin/env node
/**
 * The `collide` command: one thin file per subcommand over the public API (docs/DESIGN.md).
 * Bad input prints a clear error naming the field and the value and exits with status 1; a
 * closed standard output (the reader went away) ends the command quietly (src/cli/output.ts).
 */
// Every pair of the built-in shape types answered (the pair table's default registrations).
import "../narrowphase/dispatch.js";
import { Command, InvalidArgumentError } from "commander";
import { CollideError } from "../errors.js";
import { runBenchCommand } from "./bench.js";
import { MAX_PAIRS_OPTION, runCheckCommand } from "./check.js";
import { DEMO_MAX_BODIES, DEMO_MAX_FRAMES, DEMO_MAX_SEED } from "./demo.js";
import { runDemoCommand } from "./demo-command.js";
import { handleClosedOutput } from "./output.js";
import { runQueryCommand } from "./query.js";
import { runViewCommand, VIEW_MAX_BODIES } from "./view.js";

handleClosedOutput();

/**
 * The option parser of an integer in [lo, hi], written in decimal digits: anything else (a
 * fraction, an exponent, a value out of range that would wrap or run for ever) is refused.
 */
function intInRange(name: string, lo: number, hi: number) {
  return (v: string) => {
    const t = v.trim();
    const n = Number(t);
    if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < lo || n > hi) {
      throw new InvalidArgumentError(
        `${name} must be an integer in [${lo}, ${hi}], in decimal digits (got ${v})`,
      );
    }
    return n;
  };
}

/**
 * The option parser of a finite number ≥ 0 written as a JSON number would be (decimal digits, a
 * fraction, an exponent): `Number` alone read `0x10` as 16 and `0b11` as 3, which JSON refuses.
 */
function nonNegativeNumber(name: string) {
  return (v: string) => {
    const t = v.trim();
    const n = Number(t);
    if (
      !/^\d+(\.\d*)?([eE][+-]?\d+)?$|^\.\d+([eE][+-]?\d+)?$/.test(t) ||
      !Number.isFinite(n) ||
      n < 0
    ) {
      throw new InvalidArgumentError(
        `${name} must be a finite number ≥ 0, in decimal notation (got ${v})`,
      );
    }
    return n;
  };
}

function broadphaseName(v: string) {
  if (!["brute", "sap", "grid", "tree", "octree"].includes(v)) {
    throw new InvalidArgumentError(
      `--broadphase must be brute, sap, grid, tree or octree (got ${v})`,
    );
  }
  return v;
}

const program = new Command();
program
  .name("collide")
  .description(
    "Collision detection: exact pair tests, GJK/EPA, broad phases, queries (JSON Lines).",
  )
  .version("0.1.0")
  // Every error line starts with `collide:` — commander's own ("error: unknown option …",
  // an option's parser refusing a value) as well as the library's CollideError below.
  .configureOutput({
    outputError: (text, write) => write(`collide: ${text.replace(/^error: /, "")}`),
  });

program
  .command("demo")
  .description("run the embedded demo scene on the Stanford bunny (the main job)")
  .option(
    "--bodies <n>",
    `moving bodies, 1 to ${DEMO_MAX_BODIES}`,
    intInRange("--bodies", 1, DEMO_MAX_BODIES),
    2000,
  )
  .option(
    "--frames <n>",
    `frames to run, 1 to ${DEMO_MAX_FRAMES}`,
    intInRange("--frames", 1, DEMO_MAX_FRAMES),
    300,
  )
  .option(
    "--seed <n>",
    `seed of the scene, 0 to ${DEMO_MAX_SEED}`,
    intInRange("--seed", 0, DEMO_MAX_SEED),
    1,
  )
  .option(
    "--gravity",
    "let the crowd fall under gravity and come to rest on the platform and bunny",
  )
  .option("--json", "print one JSON object instead of the summary")
  .action((o) => runDemoCommand(o));

program
  .command("check")
  .description("list every touching pair of a scene file with its contacts (interference check)")
  .argument("<scene>", "scene JSON file (docs/FORMATS.md)")
  .option("--broadphase <name>", "brute | sap | grid | tree | octree", broadphaseName, "brute")
  .option(
    "--prediction <d>",
    "also report pairs whose gap is at most d",
    nonNegativeNumber("--prediction"),
    0,
  )
  .option(
    "--max-pairs <n>",
    `most candidate pairs before the check is refused, 1 to ${MAX_PAIRS_OPTION} (default 2^21)`,
    intInRange("--max-pairs", 1, MAX_PAIRS_OPTION),
  )
  .option("--json", "print one JSON object instead of a table")
  .option("--allow-outside", "allow mesh files outside the scene file's folder")
  .action((scene, o) => runCheckCommand(scene, o));

program
  .command("query")
  .description("answer JSON Lines queries: one query object per line in, one answer per line out")
  .argument("[file]", "input file (default: standard input)")
  .option("--allow-outside", "allow mesh files outside the working directory")
  .action((file, o) => runQueryCommand(file, o));

program
  .command("bench")
  .description("run the benchmarks and print their table")
  .option("--json", "print one JSON object")
  .option("--quick", "smaller sizes and shorter runs")
  .option(
    "--gpu",
    "time the WebGPU path (collide/gpu) against the CPU path at 10k, 100k and 1M bodies (2k and 10k with --quick)",
  )
  .action((o) => runBenchCommand(o));

program
  .command("view")
  .description("serve the web debug viewer of a scene (or of the moving demo) on 127.0.0.1")
  .argument("[scene]", "scene JSON file (docs/FORMATS.md)")
  .option("--demo", "show the built-in moving demo instead of a scene file")
  .option("--gravity", "with --demo: the crowd falls under gravity and comes to rest")
  .option(
    "--bodies <n>",
    `with --demo: moving bodies, 1 to ${VIEW_MAX_BODIES} (default 400)`,
    intInRange("--bodies", 1, VIEW_MAX_BODIES),
  )
  .option("--port <n>", "TCP port (0: any free port)", intInRange("--port", 0, 65535), 0)
  .option("--host <h>", "address to bind: 127.0.0.1 only", "127.0.0.1")
  .option("--allow-outside", "allow mesh files outside the scene file's folder")
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
