/**
 * `collide query` with mesh files: glTF/GLB files load in query lines as in scenes (each file
 * read once per run, answers in input order), `--allow-outside` works as for `collide check`,
 * and the JSON edge cases of a line (a byte order mark, nesting too deep to validate).
 *
 * The oracle is a hand-derived tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1), moved by the
 * file's node translation: a sphere of radius 0.1 whose centre is 0.05 above the face z = 0
 * touches it; one 0.2 from every face of the (hollow) triangle soup does not; a sphere of radius
 * 0.5 centred 1 below the face z = 0 is 0.5 away, closest points straight above and below.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "./run-cli.js";

const TETRA = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const TETRA_FACES = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];

/** A glTF document with the tetrahedron under a node translated by `t`. */
function tetraDoc(t: [number, number, number]): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(new Float32Array(TETRA))
    .setBuffer(buffer);
  const ind = doc
    .createAccessor()
    .setType("SCALAR")
    .setArray(new Uint16Array(TETRA_FACES))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos).setIndices(ind);
  const node = doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)).setTranslation(t);
  doc.createScene().addChild(node);
  return doc;
}

/** The tetrahedron as OBJ text, translated by `t`. */
function tetraObj(t: [number, number, number]): string {
  const lines = [];
  for (let i = 0; i < 4; i++) {
    lines.push(`v ${TETRA[3 * i] + t[0]} ${TETRA[3 * i + 1] + t[1]} ${TETRA[3 * i + 2] + t[2]}`);
  }
  for (let f = 0; f < 4; f++) {
    const c = TETRA_FACES.slice(3 * f, 3 * f + 3).map((k) => k + 1);
    lines.push(`f ${c.join(" ")}`);
  }
  return `${lines.join("\n")}\n`;
}

const sphere = (c: number[], r: number) => ({ type: "sphere", center: c, radius: r });
const mesh = (file: string) => ({ type: "mesh", file });

let dir: string;
/** A folder outside the working directory of the runs. */
let outside: string;

beforeAll(async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "collide-query-files-")));
  dir = join(root, "work");
  outside = join(root, "elsewhere");
  mkdirSync(dir);
  mkdirSync(outside);
  const io = new NodeIO();
  writeFileSync(join(dir, "east.glb"), await io.writeBinary(tetraDoc([10, 0, 0])));
  await io.write(join(dir, "west.gltf"), tetraDoc([-10, 0, 0]));
  writeFileSync(join(dir, "east.obj"), tetraObj([10, 0, 0]));
  writeFileSync(join(outside, "east.obj"), tetraObj([10, 0, 0]));
  writeFileSync(join(outside, "east.glb"), await io.writeBinary(tetraDoc([10, 0, 0])));
});

const run = (lines: unknown[], args: string[] = []) =>
  runCli(
    ["query", ...args],
    `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`,
    { cwd: dir },
  );

describe("collide query with mesh files", () => {
  it("loads .glb and .gltf files (with their node transforms) as it loads .obj files", () => {
    const lines: unknown[] = [];
    for (const file of ["east.glb", "east.obj"]) {
      lines.push(
        { op: "intersects", a: mesh(file), b: sphere([10.2, 0.2, 0.05], 0.1) },
        { op: "intersects", a: mesh(file), b: sphere([10.2, 0.2, 0.2], 0.1) },
        { op: "distance", a: mesh(file), b: sphere([10.2, 0.2, -1], 0.5) },
      );
    }
    lines.push(
      { op: "intersects", a: mesh("west.gltf"), b: sphere([-9.8, 0.2, 0.05], 0.1) },
      { op: "intersects", a: sphere([-9.8, 0.2, 0.2], 0.1), b: mesh("west.gltf") },
    );
    const r = run(lines);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const k of [0, 3]) {
      expect(out[k].result).toEqual({ intersects: true });
      expect(out[k + 1].result).toEqual({ intersects: false });
      const d = out[k + 2].result as { distance: number; pointA: number[]; pointB: number[] };
      expect(d.distance).toBeCloseTo(0.5, 6);
      expect(d.pointA[0]).toBeCloseTo(10.2, 6);
      expect(d.pointA[1]).toBeCloseTo(0.2, 6);
      expect(d.pointA[2]).toBeCloseTo(0, 6);
      expect(d.pointB[2]).toBeCloseTo(-0.5, 6);
    }
    expect(out[6].result).toEqual({ intersects: true });
    expect(out[7].result).toEqual({ intersects: false });
  });

  it("keeps one answer per line, in order, through missing files and bad lines", () => {
    const lines: unknown[] = [
      { id: "a", op: "intersects", a: mesh("east.glb"), b: sphere([10.2, 0.2, 0.05], 0.1) },
      { id: "missing", op: "intersects", a: mesh("nope.glb"), b: sphere([0, 0, 0], 1) },
      "{not json",
      "",
      { op: "intersects", a: sphere([0, 0, 0], 1), b: mesh("east.glb"), colour: 1 },
      {
        id: "two files",
        op: "pairs",
        shapes: [
          mesh("east.glb"),
          mesh("west.gltf"),
          sphere([10.2, 0.2, 0.05], 0.1),
          sphere([-9.8, 0.2, 0.05], 0.1),
        ],
      },
      { id: "last", op: "intersects", a: mesh("east.glb"), b: sphere([10.2, 0.2, 0.2], 0.1) },
    ];
    const r = run(lines);
    expect(r.status).toBe(1);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual(["a", "missing", 2, 4, "two files", "last"]);
    expect(out[0].result).toEqual({ intersects: true });
    const missing = out[1].error as { code: string; message: string };
    expect(missing.code).toBe("io_error");
    expect(missing.message).toContain("nope.glb");
    expect((out[2].error as { code: string }).code).toBe("invalid_json");
    expect((out[3].error as { code: string }).code).toBe("unknown_field");
    expect(out[4].result).toEqual({
      pairs: [
        [0, 2],
        [1, 3],
      ],
    });
    expect(out[5].result).toEqual({ intersects: false });
  });

  it("refuses mesh files outside the working directory unless --allow-outside", () => {
    const lines = ["east.obj", "east.glb"].map((f) => ({
      op: "intersects",
      a: mesh(join(outside, f)),
      b: sphere([10.2, 0.2, 0.05], 0.1),
    }));
    lines.push({
      op: "intersects",
      a: mesh("../elsewhere/east.glb"),
      b: sphere([10.2, 0.2, 0.05], 0.1),
    });
    const refused = run(lines);
    expect(refused.status).toBe(1);
    for (const o of jsonLines(refused.stdout)) {
      const e = o.error as { code: string; message: string };
      expect(e.code).toBe("invalid_value");
      expect(e.message).toContain("a.file");
      expect(e.message).toContain("--allow-outside");
    }
    const allowed = run(lines, ["--allow-outside"]);
    expect(allowed.stderr).toBe("");
    expect(allowed.status).toBe(0);
    expect(jsonLines(allowed.stdout).map((o) => o.result)).toEqual([
      { intersects: true },
      { intersects: true },
      { intersects: true },
    ]);
  });
});

describe("collide query: JSON edge cases of a line", () => {
  it("ignores a byte order mark at the start of a line", () => {
    const q = JSON.stringify({
      op: "intersects",
      a: sphere([0, 0, 0], 1),
      b: sphere([2, 0, 0], 1),
    });
    const r = run([`\uFEFF${q}`, q]);
    expect(r.status).toBe(0);
    expect(jsonLines(r.stdout).map((o) => o.result)).toEqual([
      { intersects: true },
      { intersects: true },
    ]);
  });

  it("answers nesting too deep to validate with invalid_json, and goes on", () => {
    const n = 100_000;
    const lines = [
      "[".repeat(n) + "]".repeat(n),
      `${'{"a":'.repeat(n)}1${"}".repeat(n)}`,
      JSON.stringify({ op: "intersects", a: sphere([0, 0, 0], 1), b: sphere([3, 0, 0], 1) }),
    ];
    const r = run(lines);
    expect(r.status).toBe(1);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual([0, 1, 2]);
    for (const o of out.slice(0, 2)) {
      const e = o.error as { code: string; message: string };
      expect(e.code).toBe("invalid_json");
      expect(e.message).toContain("nesting too deep");
    }
    expect(out[2].result).toEqual({ intersects: false });
  });

  it("echoes an aabb's or a rotation's bad vector as the array the line gave", () => {
    const r = run([
      {
        op: "intersects",
        a: { type: "aabb", min: [0, 0, 0], max: [-1, 1, 1] },
        b: sphere([0, 0, 0], 1),
      },
      {
        op: "intersects",
        a: { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 2] },
        b: sphere([0, 0, 0], 1),
      },
      {
        op: "intersects",
        dim: 2,
        a: { type: "rect", min: [0, 0], max: [-1, 1] },
        b: { type: "circle", center: [0, 0], radius: 1 },
      },
    ]);
    const errors = jsonLines(r.stdout).map((o) => o.error as { code: string; message: string });
    expect(errors[0].message).toContain("a.max");
    expect(errors[0].message).toContain("(got [-1,1,1])");
    expect(errors[1].message).toContain("a.rotation");
    expect(errors[1].message).toContain("(got [0,0,0,2])");
    expect(errors[2].message).toContain("a.max");
    expect(errors[2].message).toContain("(got [-1,1])");
    for (const e of errors) {
      expect(e.code).toBe("invalid_value");
      expect(e.message).not.toContain('"x"');
    }
  });
});

describe("collide query: OBJ and glTF faults give one code and one message form", () => {
  it("empty files, no triangles, a bad index: invalid_value, `<field>: <kind> file <path>…`, exit 1", async () => {
    const doc = tetraDoc([0, 0, 0]);
    // An index past the tetrahedron's 4 vertices.
    const ind = doc.getRoot().listAccessors()[1];
    ind.setArray(new Uint16Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4]));
    writeFileSync(join(dir, "bad-index.glb"), await new NodeIO().writeBinary(doc));
    writeFileSync(join(dir, "bad-index.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
    writeFileSync(join(dir, "empty.obj"), "");
    writeFileSync(join(dir, "empty.gltf"), "");
    writeFileSync(join(dir, "empty.glb"), "");
    writeFileSync(join(dir, "points.obj"), "v 0 0 0\nv 1 0 0\n");
    const files = [
      "empty.obj",
      "empty.gltf",
      "empty.glb",
      "points.obj",
      "bad-index.obj",
      "bad-index.glb",
    ];
    const r = run([
      ...files.map((f) => ({ op: "intersects", a: mesh(f), b: sphere([0, 0, 0], 1) })),
      { op: "intersects", a: sphere([0, 0, 0], 1), b: mesh("east.glb") },
    ]);
    expect(r.status).toBe(1);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const messages = out.slice(0, 6).map((o) => {
      const e = o.error as { code: string; message: string };
      expect(e.code).toBe("invalid_value");
      return e.message.replace(`${dir}/`, "");
    });
    expect(messages).toEqual([
      "a.file: OBJ file empty.obj is empty; a mesh needs at least one triangle",
      "a.file: glTF file empty.gltf is empty; a mesh needs at least one triangle",
      "a.file: glTF file empty.glb is empty; a mesh needs at least one triangle",
      "a.file: OBJ file points.obj has no faces (no `f` line with 3 or more vertices); a mesh needs at least one triangle",
      'a.file: OBJ file bad-index.obj:4 is beyond the last vertex (3 vertices) (got "4")',
      "a.file: glTF file bad-index.glb:meshes[0].primitives[0].indices[11] is beyond the last vertex of its primitive (4 vertices) (got 4)",
    ]);
    expect(out[6].result).toEqual({ intersects: false });
  });

  it("collide check names the body's file field for an empty glTF, exit 1", () => {
    writeFileSync(join(dir, "empty-part.gltf"), "");
    const scene = join(dir, "empty-part.json");
    writeFileSync(
      scene,
      JSON.stringify({ bodies: [{ id: "part", shape: mesh("empty-part.gltf") }] }),
    );
    const r = runCli(["check", scene, "--json"], undefined, { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      `bodies[0].shape.file: glTF file ${join(dir, "empty-part.gltf")} is empty; a mesh needs at least one triangle`,
    );
  });
});
