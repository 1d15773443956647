import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "./run-cli.js";

const sphere = (c: number[], r: number) => ({ type: "sphere", center: c, radius: r });

describe("collide query", () => {
  it("prints the volume of the first worked example: 68π/3 ≈ 71.209", () => {
    const r = runCli(
      ["query"],
      `${JSON.stringify({ op: "volume", a: sphere([0, 0, 0], 5), b: sphere([4, 0, 0], 3) })}\n`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("71.209");
    const [line] = jsonLines(r.stdout);
    expect((line.result as { volume: number }).volume).toBeCloseTo((68 * Math.PI) / 3, 12);
    expect(line.id).toBe(0);
  });

  it("answers every line in order, echoes ids, keeps going after bad lines, exits 1", () => {
    const lines = [
      JSON.stringify({
        id: "ok",
        op: "intersects",
        a: sphere([0, 0, 0], 1),
        b: sphere([2, 0, 0], 1),
      }),
      "",
      "{not json",
      JSON.stringify({ op: "intersects", a: sphere([0, 0, 0], -1), b: sphere([2, 0, 0], 1) }),
      JSON.stringify({
        op: "intersects",
        a: sphere([0, 0, 0], 1),
        b: sphere([2, 0, 0], 1),
        colour: "red",
      }),
      JSON.stringify({
        op: "intersects",
        a: { type: "sphere", center: [0, 0, 0] },
        b: sphere([2, 0, 0], 1),
      }),
      JSON.stringify({ op: "explode" }),
      JSON.stringify({
        op: "contact",
        a: { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 2] },
        b: sphere([2, 0, 0], 1),
      }),
      JSON.stringify({
        op: "contact",
        a: { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] },
        b: sphere([2, 0, 0], 1),
      }),
      JSON.stringify({
        op: "boundingSphere",
        points: [
          [0, 0, 0],
          [1, 0, 0],
        ],
        method: "exact",
      }),
      JSON.stringify({ op: "convexity", a: 1 }),
      JSON.stringify({
        op: "contact",
        a: {
          type: "convex",
          points: [
            [0, 0, 0],
            [1, 0, 0],
            [2, 0, 0],
            [3, 0, 0],
          ],
        },
        b: sphere([2, 0, 0], 1),
      }),
    ];
    const r = runCli(["query"], `${lines.join("\n")}\n`);
    expect(r.status).toBe(1);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual(["ok", 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(out[0].result).toEqual({ intersects: true });
    const err = (i: number) => out[i].error as { code: string; message: string };
    expect(err(1).code).toBe("invalid_json");
    expect(err(2).code).toBe("invalid_value");
    expect(err(2).message).toContain("a.radius");
    expect(err(2).message).toContain("-1");
    expect(err(3).code).toBe("unknown_field");
    expect(err(3).message).toContain("colour");
    expect(err(4).code).toBe("missing_field");
    expect(err(4).message).toContain("a.radius");
    expect(err(5).code).toBe("unknown_op");
    expect(err(6).code).toBe("invalid_value");
    expect(err(6).message).toContain("a.rotation");
    expect(err(7).code).toBe("invalid_value");
    expect(err(7).message).toContain("a.rotation");
    expect(out[8].result).toEqual({ center: [0.5, 0, 0], radius: 0.5 });
    expect(err(9).code).toBe("unknown_op");
    expect(err(10).code).toBe("invalid_value");
    expect(err(10).message).toContain("a.points");
  });

  it("refuses a key given twice (JSON.parse would keep the last) and an id beyond the doubles, exit 1", () => {
    const sp = JSON.stringify(sphere([0, 0, 0], 1));
    const far = JSON.stringify(sphere([5, 0, 0], 1));
    const lines = [
      `{"id":"dup-op","op":"distance","op":"intersects","a":${sp},"b":${far}}`,
      `{"id":"dup-a","op":"intersects","a":${far},"a":${sp},"b":${sp}}`,
      `{"id":"dup-radius","op":"intersects","a":{"type":"sphere","center":[0,0,0],"radius":1,"radius":9},"b":${far}}`,
      `{"id":1e400,"op":"intersects","a":${sp},"b":${far}}`,
      `{"id":[1,-1e999],"op":"intersects","a":${sp},"b":${far}}`,
      `{"id":1e308,"op":"intersects","a":${sp},"b":${far}}`,
    ];
    const r = runCli(["query"], `${lines.join("\n")}\n`);
    expect(r.status).toBe(1);
    const out = jsonLines(r.stdout);
    // Lines that cannot be read carry their line number; a valid id is echoed.
    expect(out.map((o) => o.id)).toEqual([0, 1, 2, 3, 4, 1e308]);
    const err = (i: number) => out[i].error as { code: string; message: string };
    for (const [i, key, field] of [
      [0, "op", "op"],
      [1, "a", "a"],
      [2, "radius", "a.radius"],
    ] as const) {
      expect(err(i).code).toBe("invalid_json");
      expect(err(i).message).toBe(
        `invalid JSON: key "${key}" is given twice in one object (field ${field}); each key may be given once`,
      );
    }
    expect(err(3).code).toBe("invalid_value");
    expect(err(3).message).toMatch(/^id must be a finite number: .* \(got Infinity\)$/);
    expect(err(4).code).toBe("invalid_value");
    expect(err(4).message).toMatch(/^id\[1\] must be a finite number: .* \(got -Infinity\)$/);
    expect(out[5].result).toEqual({ intersects: false });
    expect(r.stdout).not.toContain("null");
  });

  it("names a heightfield whose every cell is a hole by its holes field and flags", () => {
    const hf = {
      type: "heightfield",
      rows: 2,
      cols: 3,
      heights: [0, 0, 0, 0, 0, 0],
      scale: [1, 1, 1],
      holes: [true, 1],
    };
    const r = runCli(
      ["query"],
      `${JSON.stringify({ op: "intersects", a: hf, b: sphere([0, 0, 0], 1) })}\n`,
    );
    expect(r.status).toBe(1);
    const [line] = jsonLines(r.stdout);
    expect(line.error).toEqual({
      code: "invalid_value",
      message:
        "a.holes marks every one of its 2 cells as a hole: at least one cell must be solid (a heightfield of holes touches nothing) (got [true,1])",
    });
  });

  it("reads a file argument, and a missing file is an error with exit 1", () => {
    const r = runCli(["query", "test/cli/no-such-file.jsonl"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("no-such-file.jsonl");
  });
});
