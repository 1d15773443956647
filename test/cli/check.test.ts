import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "./run-cli.js";

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
      // Number() read these as 16, 3 and 8 (session 38's second attack, item 8): JSON refuses them.
      [["check", "examples/scene.json", "--prediction", "0x10"], "decimal notation"],
      [["check", "examples/scene.json", "--prediction", "0b11"], "decimal notation"],
      [["check", "examples/scene.json", "--prediction", "0o10"], "decimal notation"],
      [["check", "examples/scene.json", "--prediction", "1e400"], "--prediction"],
    ];
    for (const [args, needle] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr, args.join(" ")).toContain(needle);
    }
  });

  it("--help of check and view points at docs/FORMATS.md, the file in the repository", () => {
    for (const cmd of ["check", "view", "query", "demo"]) {
      const r = runCli([cmd, "--help"]);
      expect(r.status, cmd).toBe(0);
      expect(r.stdout, cmd).not.toContain("shared/");
      if (cmd === "check" || cmd === "view") expect(r.stdout).toContain("docs/FORMATS.md");
    }
    expect(existsSync(join(ROOT, "docs", "FORMATS.md"))).toBe(true);
  });

  it("reads a scene file that starts with a byte order mark", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-check-bom-"));
    const p = join(dir, "scene.json");
    writeFileSync(p, `\uFEFF${readFileSync(join(ROOT, "examples", "scene.json"), "utf8")}`);
    const want = JSON.parse(runCli(["check", "examples/scene.json", "--json"]).stdout);
    const r = runCli(["check", p, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).pairs).toEqual(want.pairs);
  });

  it("refuses a deeply nested scene as invalid JSON, and a non-object scene as such", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-check-deep-"));
    const deep = join(dir, "deep.json");
    writeFileSync(deep, `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    const r = runCli(["check", deep]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("not valid JSON: nesting too deep");
    expect(r.stderr).not.toContain("call stack");
    const arr = join(dir, "array.json");
    writeFileSync(arr, "[]");
    const a = runCli(["check", arr]);
    expect(a.status).toBe(1);
    expect(a.stderr).toMatch(
      /scene file \S+ must hold one JSON object with "bodies" .*, not an array/,
    );
  });

  it("refuses a scene that gives a key twice, naming its path (JSON.parse would keep the last)", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-check-dup-"));
    const scene = join(dir, "dup.json");
    writeFileSync(
      scene,
      '{"bodies":[{"id":"a","shape":{"type":"sphere","center":[0,0,0],"radius":1}},' +
        '{"id":"b","shape":{"type":"sphere","center":[0,0,0],"radius":1,"center":[9,0,0]}}]}',
    );
    const r = runCli(["check", scene, "--json"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      `scene file ${scene} is not valid JSON: key "center" is given twice in one object (field bodies[1].shape.center); each key may be given once`,
    );
  });

  it("loads a scene whose mesh lies outside its folder only with --allow-outside", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-check-outside-"));
    const scene = join(dir, "scene.json");
    const bunny = join(ROOT, "examples", "bunny.obj");
    writeFileSync(
      scene,
      JSON.stringify({
        bodies: [
          { id: "bunny", shape: { type: "mesh", file: bunny } },
          { id: "ball", shape: { type: "sphere", center: [100, 0, 0], radius: 1 } },
        ],
      }),
    );
    const refused = runCli(["check", scene]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("--allow-outside");
    const allowed = runCli(["check", scene, "--json", "--allow-outside"]);
    expect(allowed.status).toBe(0);
    expect(JSON.parse(allowed.stdout).stats.bodies).toBe(2);
  });
});

describe("collide check's header counts (found by a fresh user, session 22)", () => {
  it('says "1 body" and "0 candidate pairs", "2 bodies" and "1 candidate pair"', () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-count-"));
    const one = join(dir, "one.json");
    const two = join(dir, "two.json");
    const sphere = (x: number) => ({ type: "sphere", center: [x, 0, 0], radius: 1 });
    writeFileSync(one, JSON.stringify({ bodies: [{ id: "a", shape: sphere(0) }] }));
    writeFileSync(
      two,
      JSON.stringify({
        bodies: [
          { id: "a", shape: sphere(0) },
          { id: "b", shape: sphere(1) },
        ],
      }),
    );
    const r1 = runCli(["check", one]);
    expect(r1.status).toBe(0);
    expect(r1.stdout).toMatch(/: 1 body, 0 candidate pairs \(/);
    const r2 = runCli(["check", two]);
    expect(r2.stdout).toMatch(/: 2 bodies, 1 candidate pair \(/);
  });
});
