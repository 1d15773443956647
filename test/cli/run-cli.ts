/** Runs the built `collide` command (dist/cli/main.js) with arguments and optional stdin. */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The built command. */
export const MAIN = join(ROOT, "dist", "cli", "main.js");

/** Output of one run. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `collide ...args` from the repository root (or from `options.cwd`), feeding `input` on
 * standard input.
 */
export function runCli(args: string[], input?: string, options: { cwd?: string } = {}): CliRun {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: options.cwd ?? ROOT,
    input: input ?? "",
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs `collide ...args` and closes the read end of its standard output once `closeAfter`
 * bytes have arrived (0: at once), as `collide … | head -c N` does; standard input is
 * `options.stdinFile` (default: none). Resolves with the exit status, the signal and everything
 * written to standard error.
 */
export function runCliClosingOutput(
  args: string[],
  closeAfter: number,
  options: { stdinFile?: string } = {},
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const stdin = options.stdinFile === undefined ? "ignore" : openSync(options.stdinFile, "r");
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      stdio: [stdin, "pipe", "pipe"],
    });
    if (typeof stdin === "number") closeSync(stdin);
    const out = child.stdout as Readable;
    const err = child.stderr as Readable;
    let stderr = "";
    let received = 0;
    err.setEncoding("utf8");
    err.on("data", (s: string) => {
      stderr += s;
    });
    if (closeAfter === 0) out.destroy();
    else {
      out.on("data", (b: Buffer) => {
        received += b.length;
        if (received >= closeAfter) out.destroy();
      });
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`collide ${args.join(" ")} did not exit after its output closed`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stderr });
    });
  });
}

/** Parses JSON Lines output. */
export function jsonLines(s: string): Record<string, unknown>[] {
  return s
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
