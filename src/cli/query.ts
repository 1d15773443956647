/** `collide query [file]`: JSON Lines in (a file or standard input), JSON Lines out. */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { CollideError } from "../errors.js";
import { answerQueryLine } from "../io/query.js";

/**
 * Answers every line of `file` (or of standard input) in order, streaming; sets the exit status
 * to 1 when any line failed. Throws `CollideError("io_error")` when the file cannot be read.
 */
export async function runQueryCommand(file: string | undefined): Promise<void> {
  let failed = false;
  let lineNumber = 0;
  const answer = (raw: string) => {
    const line = raw.replace(/\r$/, "");
    const n = lineNumber++;
    if (line.trim() === "") return;
    const r = answerQueryLine(line, n);
    if (r.failed) failed = true;
    process.stdout.write(`${r.line}\n`);
  };
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new CollideError("io_error", "file", file, `cannot read ${file}: ${msg}`);
    }
    const lines = text.split("\n");
    if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    for (const l of lines) answer(l);
  } else {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const l of rl) answer(l);
  }
  if (failed) process.exitCode = 1;
}
