/**
 * A closed standard output (the reader went away: `collide … | head -1`) ends every command
 * that writes to it quietly, with status 0 and no stack trace on standard error, and a
 * streaming `collide query` stops reading at once instead of answering the rest.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliClosingOutput } from "./run-cli.js";

let big: string;

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "collide-output-closed-"));
  big = join(dir, "big.jsonl");
  writeFileSync(big, `${'{"op":"frobnicate"}\n'.repeat(200_000)}`);
});

/** What a run must not print on standard error after its output closed. */
function expectQuiet(r: { status: number | null; signal: string | null; stderr: string }) {
  expect(r.signal).toBeNull();
  expect(r.status).toBe(0);
  expect(r.stderr).not.toContain("EPIPE");
  expect(r.stderr).not.toMatch(/Error|at .*\.js:\d+/);
}

describe("a closed standard output", () => {
  it("stops collide query (stdin or file) quietly after the first line", async () => {
    const t0 = performance.now();
    expectQuiet(await runCliClosingOutput(["query"], 1, { stdinFile: big }));
    expectQuiet(await runCliClosingOutput(["query", big], 1));
    // Answering all 200,000 lines takes seconds; stopping at the closed output does not.
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it("ends collide query, check, demo and --help quietly when closed before the first write", async () => {
    for (const args of [
      ["query", big],
      ["check", "examples/scene.json", "--json"],
      ["check", "examples/scene.json"],
      ["demo", "--json", "--bodies", "20", "--frames", "2"],
      ["--help"],
    ]) {
      const r = await runCliClosingOutput(args, 0);
      expect(r.status, args.join(" ")).toBe(0);
      expect(r.stderr, args.join(" ")).not.toContain("EPIPE");
      expect(r.stderr, args.join(" ")).not.toMatch(/Error|at .*\.js:\d+/);
    }
  });
});
