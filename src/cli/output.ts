/**
 * Standard output and error of the `collide` command when the reader goes away. A command piped
 * into `head -1` finds its output closed (EPIPE) on the next write; like most Unix tools, it
 * then stops quietly with status 0 instead of dying on an unhandled stream error with a stack
 * trace. Any other write error (a full disk, EIO) is one line on standard error and status 1.
 */

/** Error codes that mean the reader of our output has gone away. */
const CLOSED_CODES = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

function onStreamError(stream: "output" | "error output") {
  return (e: NodeJS.ErrnoException): void => {
    if (e.code !== undefined && CLOSED_CODES.has(e.code)) process.exit(0);
    if (stream === "output") {
      process.stderr.write(`collide: cannot write the standard output: ${e.message}\n`);
    }
    process.exit(1);
  };
}

/** Installs the handlers above on standard output and standard error (once, at start-up). */
export function handleClosedOutput(): void {
  process.stdout.on("error", onStreamError("output"));
  process.stderr.on("error", onStreamError("error output"));
}

/** True once standard output has failed (its reader closed it): stop producing output. */
export function isOutputClosed(): boolean {
  return process.stdout.destroyed || process.stdout.errored !== null;
}

/**
 * Writes `text` to standard output and waits while its buffer is full (back-pressure, so a
 * slow reader does not make a long run hold all its output in memory). Resolves false when
 * standard output is closed, so the caller can stop.
 */
export async function writeOutput(text: string): Promise<boolean> {
  if (isOutputClosed()) return false;
  if (!process.stdout.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        process.stdout.off("drain", done);
        process.stdout.off("close", done);
        process.stdout.off("error", done);
        resolve();
      };
      process.stdout.on("drain", done);
      process.stdout.on("close", done);
      process.stdout.on("error", done);
    });
  }
  return !isOutputClosed();
}

/** `n` and the noun in the number it takes: `count(1, "body", "bodies")` is "1 body". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
