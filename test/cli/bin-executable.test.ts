/**
 * `npx collide` runs dist/cli/main.js directly, so the built file must be executable: tsc
 * writes it with mode 644, and a fresh clone answered "collide: Permission denied" until the
 * build made it 755 (scripts/bin-executable.mjs, run by `npm run build` and the test set-up).
 */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the built command", () => {
  it("is executable and runs by itself (its #! line)", () => {
    if (process.platform === "win32") return;
    expect(statSync("dist/cli/main.js").mode & 0o111).not.toBe(0);
    const out = execFileSync("./dist/cli/main.js", ["--help"], { encoding: "utf8" });
    expect(out).toMatch(/collide/);
  });
});
