/** Runs the built `collide` command (dist/cli/main.js) with arguments and optional stdin. */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Output of one run. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `collide ...args` from the repository root, feeding `input` on standard input. */
export function runCli(args: string[], input?: string): CliRun {
  const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli", "main.js"), ...args], {
    cwd: ROOT,
    input: input ?? "",
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Parses JSON Lines output. */
export function jsonLines(s: string): Record<string, unknown>[] {
  return s
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
