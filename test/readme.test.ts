/**
 * The README's TypeScript example must run and print what its comments say: it is extracted,
 * pointed at the built package (`import … from "collide"` resolves through the package's own
 * exports map) and run with tsx.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./cli/run-cli.js";

describe("README", () => {
  it("the TypeScript example runs and prints the values its comments state", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    const dir = join(ROOT, ".cache", "readme-example");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "example.ts");
    writeFileSync(file, code ?? "");
    const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    const r = spawnSync(process.execPath, [tsx, file], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("true true -0.100 { x: 0, y: 1, z: 0 }");
    expect(lines[1]).toBe("1");
  });
});
