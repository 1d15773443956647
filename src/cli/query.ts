/** `collide query [file]`: JSON Lines in (a file or standard input), JSON Lines out. */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { CollideError } from "../errors.js";
import { answerQueryLineAsync, makeQuerySession } from "../node.js";
import { writeOutput } from "./output.js";

/** Options of `collide query`. */
export interface QueryCommandOptions {
  /** Allow mesh files outside the working directory. */
  allowOutside?: boolean;
}

/**
 * Answers every line of `file` (or of standard input) in order, one after another, streaming;
 * mesh files (OBJ, glTF, GLB) resolve against the working directory and are read once per run.
 * Sets the exit status to 1 when any line failed; stops early when standard output is closed.
 * Throws `CollideError("io_error")` when the file cannot be read.
 */
export async function runQueryCommand(
  file: string | undefined,
  o: QueryCommandOptions = {},
): Promise<void> {
  const session = makeQuerySession({ allowOutside: o.allowOutside });
  let failed = false;
  let lineNumber = 0;
  /** Answers one physical line; false when the output is closed. */
  const answer = async (raw: string): Promise<boolean> => {
    const line = raw.replace(/\r$/, "");
    const n = lineNumber++;
    if (line.trim() === "") return true;
    const r = await answerQueryLineAsync(line, n, session);
    if (r.failed) failed = true;
    return writeOutput(`${r.line}\n`);
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
    for (const l of lines) if (!(await answer(l))) return;
  } else {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const l of rl) {
      if (!(await answer(l))) {
        rl.close();
        return;
      }
    }
  }
  if (failed) process.exitCode = 1;
}
