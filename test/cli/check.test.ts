import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

interface CheckJson {
  pairs: { a: string; b: string; distance: number; normal: number[]; points: unknown[] }[];
  stats: Record<string, number>;
}

describe("collide check", () => {
  it("lists the right pairs of the example scene (derived by hand), filtered by layer and mask", () => {
    const r = runCli(["check", "examples/scene.json", "--json"]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as CheckJson;
    expect(out.pairs.map((p) => [p.a, p.b])).toEqual([
      ["floor", "crate"],
      ["floor", "ball"],
      ["floor", "ball-near"],
      ["floor", "pill"],
      ["floor", "aabb-marker"],
      ["crate", "crate-on-crate"],
      ["aabb-marker", "rock"],
    ]);
    const byName = Object.fromEntries(out.pairs.map((p) => [`${p.a}/${p.b}`, p]));
    expect(byName["floor/crate"].distance).toBeCloseTo(-0.05, 12);
    expect(byName["floor/crate"].normal).toEqual([0, 1, 0]);
    expect(byName["floor/crate"].points).toHaveLength(4);
    expect(byName["floor/pill"].distance).toBeCloseTo(-0.1, 12);
    expect(byName["floor/pill"].points).toHaveLength(2);
    expect(byName["crate/crate-on-crate"].distance).toBeCloseTo(-0.05, 9);
  });

  it("--prediction adds the pair within the gap; the result does not depend on --broadphase", () => {
    const outs = ["brute", "sap", "grid", "tree"].map((bp) => {
      const r = runCli([
        "check",
        "examples/scene.json",
        "--json",
        "--prediction",
        "0.1",
        "--broadphase",
        bp,
      ]);
      expect(r.status).toBe(0);
      return r.stdout;
    });
    for (const o of outs) expect(o).toBe(outs[0]);
    const out = JSON.parse(outs[0]) as CheckJson;
    const near = out.pairs.find((p) => p.a === "ball" && p.b === "ball-near");
    expect(near?.distance).toBeCloseTo(0.05, 12);
  });

  it("prints a human table by default", () => {
    const r = runCli(["check", "examples/scene.json"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("crate-on-crate");
    expect(r.stdout).toContain("7 in contact");
  });

  it("bad input: missing file, bad JSON, unknown field, duplicate id, bad option → exit 1 with a clear message", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-check-"));
    const write = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const cases: [string[], string][] = [
      [["check", join(dir, "missing.json")], "missing.json"],
      [["check", write("bad.json", "{")], "not valid JSON"],
      [["check", write("unknown.json", JSON.stringify({ bodies: [], extra: 1 }))], "extra"],
      [
        [
          "check",
          write(
            "dup.json",
            JSON.stringify({
              bodies: [
                { id: "x", shape: { type: "sphere", center: [0, 0, 0], radius: 1 } },
                { id: "x", shape: { type: "sphere", center: [0, 0, 0], radius: 1 } },
              ],
            }),
          ),
        ],
        "bodies[1].id",
      ],
      [
        [
          "check",
          write(
            "nan.json",
            JSON.stringify({
              bodies: [{ id: "s", shape: { type: "sphere", center: [0, 0, 0], radius: 0 } }],
            }),
          ),
        ],
        "bodies[0].shape.radius",
      ],
      [["check", "examples/scene.json", "--broadphase", "quantum"], "--broadphase"],
      [["check", "examples/scene.json", "--prediction", "-1"], "--prediction"],
    ];
    for (const [args, needle] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toContain(needle);
    }
  });
});
