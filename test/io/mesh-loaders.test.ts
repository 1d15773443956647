import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import {
  bunnyMeshData,
  loadMeshFile,
  loadMeshFileSync,
  meshFromData,
  parseGlb,
  parseObj,
  transformMeshData,
} from "../../src/io/mesh-loaders.js";
import { loadScene, loadSceneAsync } from "../../src/io/scene.js";
import { parseShape } from "../../src/io/shapes-json.js";
import { ShapeType } from "../../src/shapes/shape.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { quadGlb } from "../support/quad-glb.js";

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

describe("parseObj", () => {
  it("reads v and f lines: triangles, fans, v/vt/vn references, negative indices, comments", () => {
    const m = parseObj(
      [
        "# a square and a triangle",
        "o quad",
        "v 0 0 0",
        "v 1 0 0 1.0",
        "v 1 1 0",
        "v 0 1 0",
        "vt 0 0",
        "vn 0 0 1",
        "f 1/1/1 2/1/1 3//1 4",
        "g tri",
        "v 0 0 1",
        "f -1 1 2 # relative",
      ].join("\r\n"),
    );
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3, 4, 0, 1]);
    expect(m.vertices.length).toBe(15);
  });

  it("fan-triangulates a polygon from its first corner, as documented: a concave face covers its notch", () => {
    // The pentagon (0,0) (2,0) (2,2) (1,0.5) (0,2): a V notch down to (1, 0.5) (attack 29, F2).
    const m = parseObj("v 0 0 0\nv 2 0 0\nv 2 2 0\nv 1 0.5 0\nv 0 2 0\nf 1 2 3 4 5\n");
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4]);
    // (1, 0.8) lies in the notch, outside the face, yet inside the fan's triangle (0, 2, 3).
    const v = m.vertices;
    const [i, j, k] = [0, 2, 3].map((c) => 3 * c);
    const cross = (ax: number, ay: number, bx: number, by: number) => ax * by - ay * bx;
    const side = (p: number, q: number) =>
      cross(v[q] - v[p], v[q + 1] - v[p + 1], 1 - v[p], 0.8 - v[p + 1]);
    const sides = [side(i, j), side(j, k), side(k, i)];
    expect(sides.every((x) => x > 0) || sides.every((x) => x < 0)).toBe(true);
  });

  it("refuses malformed lines with their line numbers", () => {
    expect(errorOf(() => parseObj("v 0 0\n")).field).toBe("obj:1");
    expect(errorOf(() => parseObj("v 0 0 0\nv 1 0 0\nv 1x 0 0\n")).field).toBe("obj:3");
    expect(errorOf(() => parseObj("v 0 0 0\nf 1 1\n")).field).toBe("obj:2");
    expect(errorOf(() => parseObj("v 0 0 0\nf 1 2 0\n")).message).toMatch(/index 0/);
    expect(errorOf(() => parseObj("v 0 0 0\nf 1 2 3\n")).message).toMatch(/beyond the last vertex/);
    expect(errorOf(() => parseObj("v 0 0 0\nf -2 1 1\n")).field).toBe("obj:2");
    expect(errorOf(() => parseObj("bogus 1 2\n")).field).toBe("obj:1");
  });

  it("round-trips the bunny through OBJ text", () => {
    const b = bunnyMeshData();
    let s = "";
    for (let i = 0; i < b.vertices.length; i += 3)
      s += `v ${b.vertices[i]} ${b.vertices[i + 1]} ${b.vertices[i + 2]}\n`;
    for (let i = 0; i < b.indices.length; i += 3)
      s += `f ${b.indices[i] + 1} ${b.indices[i + 1] + 1} ${b.indices[i + 2] + 1}\n`;
    const m = parseObj(s);
    expect(m.vertices).toEqual(b.vertices);
    expect(m.indices).toEqual(b.indices);
    expect(b.indices.length / 3).toBe(3674);
  });
});

describe("parseObj: vertex colours, CR line ends, vt/vn lines (issue 16, a fresh user's attack)", () => {
  const PLAIN = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\n";
  const plain = parseObj(PLAIN);

  it("reads `v x y z r g b` (MeshLab's vertex colours) as `v x y z`, the colours ignored", () => {
    const m = parseObj(
      "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0.5 0.5 0.5\nv 0 0 1 255 128 0\nf 1 2 3\nf 1 3 4\n",
    );
    expect(m.vertices).toEqual(plain.vertices);
    expect(m.indices).toEqual(plain.indices);
    // Hand-derived: the vertices are the first three numbers of each line.
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it("ignores the weight w (any finite value, 0 too: it weighs rational curves, not polygon vertices)", () => {
    const m = parseObj("v 0 0 0 1\nv 1 0 0 0\nv 0 1 0 -2.5\nv 0 0 1 1e-300\nf 1 2 3\nf 1 3 4\n");
    expect(m.vertices).toEqual(plain.vertices);
    expect(m.indices).toEqual(plain.indices);
  });

  it("reads lone-CR (classic Mac OS) and mixed line ends, counting lines by them", () => {
    for (const end of ["\r", "\r\n", "\n"]) {
      const m = parseObj(PLAIN.replaceAll("\n", end));
      expect(m.vertices, JSON.stringify(end)).toEqual(plain.vertices);
      expect(m.indices, JSON.stringify(end)).toEqual(plain.indices);
    }
    const mixed = parseObj("v 0 0 0\rv 1 0 0\r\nv 0 1 0\n\rv 0 0 1\r\rf 1 2 3\r\nf 1 3 4");
    expect(mixed.vertices).toEqual(plain.vertices);
    expect(mixed.indices).toEqual(plain.indices);
    // A fault is named at its line counted by these ends (\r\r and \n\r hold an empty line).
    expect(errorOf(() => parseObj("v 0 0 0\rv 1 0 0\r\rv 0 x 0\r")).field).toBe("obj:4");
    expect(errorOf(() => parseObj("v 0 0 0\r\nv 1 0 0\n\rv 0 0 1\rf 1 2 9\r")).field).toBe("obj:5");
    // A continuation line ending in a backslash joins across a CR too.
    const cont = parseObj("v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 \\\r2 3\r");
    expect(Array.from(cont.indices)).toEqual([0, 1, 2]);
  });

  it("skips vt, vn and vp lines unread, malformed or not finite (C tools write `vn -nan -nan -nan`)", () => {
    const m = parseObj(
      [
        "vn -nan -nan -nan",
        "vn nan",
        "vt",
        "vt 0.5 abc",
        "vp 1e999",
        "v 0 0 0",
        "vn 0 0 1",
        "v 1 0 0",
        "v 0 1 0",
        "vt 0 0",
        "v 0 0 1",
        "f 1/1/1 2/9/9 3//7",
        "f 1 3 4",
      ].join("\n"),
    );
    expect(m.vertices).toEqual(plain.vertices);
    expect(m.indices).toEqual(plain.indices);
    // The face's own references stay checked: a vt or vn index must be an integer.
    expect(errorOf(() => parseObj("v 0 0 0\nf 1/x 1 1\n")).field).toBe("obj:2");
  });

  it("refuses other `v` forms naming the line and the number at fault", () => {
    const cases: [string, string, string, unknown][] = [
      ["v 0 0\n", "obj:1", "must be `v x y z`, `v x y z w` or `v x y z r g b`", "v 0 0"],
      ["v 0 0 0\nv 0 0 0 1 2\n", "obj:2", "must be `v x y z`, `v x y z w`", "v 0 0 0 1 2"],
      ["v 0 0 0 1 0 0 1\n", "obj:1", "must be `v x y z`", "v 0 0 0 1 0 0 1"],
      ["v 0 0 0\rv 0 nan 0\r", "obj:2", "vertex y must be a finite number", "nan"],
      ["v 0 0 0 1e999\n", "obj:1", "vertex w must be a finite number", "1e999"],
      ["v 0 0 0 w\n", "obj:1", "vertex w must be a finite number", "w"],
      ["v 0 0 0 1 NaN 0\n", "obj:1", "vertex colour g must be a finite number", "NaN"],
      ["v 0 0 0 1 0 -inf\n", "obj:1", "vertex colour b must be a finite number", "-inf"],
      ["v 0 0 1e308\n", "obj:1", "vertex z must be below MESH_COORDINATE_LIMIT", "1e308"],
    ];
    for (const [text, field, reason, value] of cases) {
      const e = errorOf(() => parseObj(text));
      expect(e.code, text).toBe("invalid_value");
      expect(e.field, text).toBe(field);
      expect(e.value, text).toBe(value);
      expect(e.message.startsWith(`${field} ${reason}`), e.message).toBe(true);
    }
  });

  it("a colour fault in a file names the file's field, path and line", () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-obj-colour-"));
    const path = join(dir, "c.obj");
    writeFileSync(path, "v 0 0 0 1 0 0\rv 1 0 0 1 0 x\rv 0 1 0\rf 1 2 3\r");
    const e = errorOf(() => loadMeshFileSync(path, "a.file"));
    expect(e.field).toBe("a.file");
    expect(e.message).toBe(
      `a.file: OBJ file ${path}:2 vertex colour b must be a finite number (got "x")`,
    );
  });

  it("property: random OBJ text with mixed line ends, colours, weights, vt/vn lines and reference forms loads to the plain form's mesh", () => {
    const coord = fc.oneof(
      fc.double({ min: -1e300, max: 1e300, noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -1000, max: 1000 }),
      fc.constantFrom(0, -0, 1e-300, 5e-324, 1e9 + 0.5),
    );
    const vertex = fc.record({
      p: fc.tuple(coord, coord, coord),
      form: fc.constantFrom("plain", "w", "rgb"),
      extra: fc.tuple(coord, coord, coord),
      before: fc.constantFrom(
        "",
        "vn 0 0 1",
        "vn -nan -nan -nan",
        "vt 0.5",
        "vt",
        "# c",
        "",
        "o x",
      ),
    });
    const end = fc.constantFrom("\n", "\r\n", "\r");
    /** A number as OBJ text, round-tripping (String(-0) is "0"). */
    const str = (xs: number[]) => xs.map((x) => (Object.is(x, -0) ? "-0" : String(x))).join(" ");
    fc.assert(
      fc.property(
        fc.array(vertex, { minLength: 3, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(3), fc.boolean()), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(end, { minLength: 64, maxLength: 64 }),
        (vs, faces, ends) => {
          const n = vs.length;
          const tri = faces.map(([a, b, c]) => [a % n, b % n, c % n]);
          // The plain form, and the oracle: the generating arrays themselves.
          let plainText = "";
          for (const v of vs) plainText += `v ${str(v.p)}\n`;
          for (const t of tri) plainText += `f ${t.map((i) => i + 1).join(" ")}\n`;
          const want = parseObj(plainText);
          expect(Array.from(want.vertices)).toEqual(vs.flatMap((v) => v.p));
          expect(Array.from(want.indices)).toEqual(tri.flat());
          // The variant: every vertex line first (faces may refer by negative index from the end).
          const lines: string[] = [];
          for (const v of vs) {
            if (v.before !== "") lines.push(v.before);
            const tail = v.form === "w" ? [v.extra[0]] : v.form === "rgb" ? v.extra : [];
            lines.push(`v ${str([...v.p, ...tail])}`);
          }
          for (const [k, [a, b, c, style, neg]] of faces.entries()) {
            const ref = (i: number) => `${neg ? i - n : i + 1}${["", "/1", "//2", "/1/2"][style]}`;
            lines.push(`f ${ref(a % n)} ${ref(b % n)} ${ref(c % n)}${k % 2 ? " # face" : ""}`);
          }
          const text = lines.map((l, i) => l + ends[i % ends.length]).join("");
          const got = parseObj(text);
          expect(got.vertices).toEqual(want.vertices);
          expect(got.indices).toEqual(want.indices);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("glTF through @gltf-transform/core", () => {
  it("reads a GLB's triangles in world coordinates (node transforms applied)", async () => {
    const m = await parseGlb(await quadGlb([10, 0, 0]));
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(m.vertices.subarray(0, 6))).toEqual([10, 0, 0, 11, 0, 0]);
    await expect(parseGlb(new Uint8Array([1, 2, 3]))).rejects.toThrow(CollideError);
  });

  it("loads .glb and .obj files, with scale and pose", async () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-mesh-"));
    writeFileSync(join(dir, "quad.glb"), await quadGlb([10, 0, 0]));
    writeFileSync(join(dir, "tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    expect((await loadMeshFile(join(dir, "quad.glb"))).indices.length).toBe(6);
    expect((await loadMeshFile(join(dir, "tri.obj"))).indices.length).toBe(3);
    expect(loadMeshFileSync(join(dir, "tri.obj")).vertices[3]).toBe(1);
    expect(errorOf(() => loadMeshFileSync(join(dir, "quad.glb"))).code).toBe("io_error");
    expect(errorOf(() => loadMeshFileSync(join(dir, "none.obj"))).code).toBe("io_error");
    expect(errorOf(() => loadMeshFileSync(join(dir, "x.stl"))).code).toBe("invalid_value");
    const t = transformMeshData(parseObj("v 1 2 3\nf 1 1 1\n"), {
      scale: { x: 2, y: 3, z: 4 },
      pose: {
        translation: { x: 1, y: 0, z: 0 },
        rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
      },
    });
    expect(t.vertices[0]).toBeCloseTo(1 - 6, 12);
    expect(t.vertices[1]).toBeCloseTo(2, 12);
    expect(t.vertices[2]).toBeCloseTo(12, 12);
    expect(() => transformMeshData(parseObj("v 1 2 3\n"), { scale: 0 })).toThrow(CollideError);
    expect(meshFromData(bunnyMeshData(), { scale: 2 }).bvh.bounds[4]).toBeGreaterThan(19);
  });
});

describe("mesh shapes in JSON and scenes", () => {
  it("parses inline meshes with scale and pose, naming bad indices as indices[t][k]", () => {
    const p = parseShape(
      {
        type: "mesh",
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        indices: [[0, 1, 2]],
        scale: 2,
        position: [1, 2, 3],
      },
      "a",
    );
    expect(p.shape.type).toBe(ShapeType.TriangleMesh);
    expect((p.shape as TriangleMesh).vertices[3]).toBe(2);
    expect(p.pose.translation).toEqual({ x: 1, y: 2, z: 3 });
    const e = errorOf(() =>
      parseShape(
        {
          type: "mesh",
          vertices: [[0, 0, 0]],
          indices: [
            [0, 0, 0],
            [0, 5, 0],
          ],
        },
        "b",
      ),
    );
    expect(e.field).toBe("b.indices[1][1]");
    expect(e.message).toMatch(/triangle 1/);
    expect(errorOf(() => parseShape({ type: "mesh", indices: [] }, "a")).code).toBe(
      "missing_field",
    );
    expect(
      errorOf(() => parseShape({ type: "mesh", vertices: [], indices: [], bad: 1 }, "a")).code,
    ).toBe("unknown_field");
  });

  it("resolves files against the scene's folder and refuses paths that leave it unless allowed", async () => {
    const root = mkdtempSync(join(tmpdir(), "collide-scene-"));
    const dir = join(root, "scene");
    mkdirSync(dir);
    writeFileSync(join(dir, "tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    writeFileSync(join(root, "outside.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    writeFileSync(join(dir, "quad.glb"), await quadGlb([10, 0, 0]));
    const scene = (file: string) =>
      JSON.stringify({
        bodies: [
          { id: "m", shape: { type: "mesh", file, scale: [1, 1, 2] } },
          { id: "s", shape: { type: "sphere", center: [0.2, 0.2, 0], radius: 0.5 } },
        ],
      });
    writeFileSync(join(dir, "ok.json"), scene("tri.obj"));
    writeFileSync(join(dir, "glb.json"), scene("quad.glb"));
    writeFileSync(join(dir, "out.json"), scene("../outside.obj"));
    expect(loadScene(join(dir, "ok.json")).bodies[0].shape.type).toBe(ShapeType.TriangleMesh);
    expect((await loadSceneAsync(join(dir, "glb.json"))).bodies[0].shape.type).toBe(
      ShapeType.TriangleMesh,
    );
    const e = errorOf(() => loadScene(join(dir, "out.json")));
    expect(e.field).toBe("bodies[0].shape.file");
    expect(e.message).toMatch(/allow-outside/);
    await expect(loadSceneAsync(join(dir, "out.json"))).rejects.toThrow(/leaves the folder/);
    expect(loadScene(join(dir, "out.json"), { allowOutside: true }).bodies.length).toBe(2);
    expect(errorOf(() => parseShape({ type: "mesh", file: "/etc/passwd.obj" }, "a")).code).toBe(
      "invalid_value",
    );
  });
});

/**
 * A GLB of one triangle primitive (`mode` 4 unless given) with these positions and, when given,
 * these 16-bit indices; its node is scaled by `scale` (1 unless given).
 */
async function faultyGlb(
  positions: number[],
  indices: number[] | null,
  options: { mode?: number; scale?: number } = {},
): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(new Float32Array(positions))
    .setBuffer(buffer);
  const prim = doc
    .createPrimitive()
    .setAttribute("POSITION", pos)
    .setMode((options.mode ?? 4) as 4);
  if (indices) {
    prim.setIndices(
      doc.createAccessor().setType("SCALAR").setArray(new Uint16Array(indices)).setBuffer(buffer),
    );
  }
  const s = options.scale ?? 1;
  const node = doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)).setScale([s, s, s]);
  doc.createScene().addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  return new NodeIO().writeBinary(doc);
}

describe("OBJ and glTF refuse the same faults alike (fresh-user attack, session 23)", () => {
  const TRI = [0, 0, 0, 1, 0, 0, 0, 1, 0];
  /** Each fault as an OBJ file and as glTF files, with the message's place and reason. */
  const faults: [string, [string, string | (() => Promise<Uint8Array>), string][], RegExp][] = [
    [
      "empty file",
      [
        ["empty.obj", "", ""],
        ["empty.gltf", "", ""],
        ["empty.glb", "", ""],
        ["blank.gltf", " \n\t\r\n", ""],
      ],
      /^is empty; a mesh needs at least one triangle$/,
    ],
    [
      "no triangles",
      [
        ["lines.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n", ""],
        ["lines.glb", () => faultyGlb(TRI, null, { mode: 1 }), ""],
      ],
      /^has no (faces|triangles) \(.*\); a mesh needs at least one triangle$/,
    ],
    [
      "an index past the last vertex",
      [
        ["index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", ":4"],
        ["index.glb", () => faultyGlb(TRI, [0, 1, 9]), ":meshes[0].primitives[0].indices[2]"],
      ],
      /^is beyond the last vertex (of its primitive )?\(3 vertices\) \(got "?9"?\)$/,
    ],
    [
      "a vertex that is not finite",
      [
        ["nan.obj", "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ":1"],
        ["inf.obj", "v 0 0 1e999\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ":1"],
        [
          "nan.glb",
          () => faultyGlb([0, 0, Number.NaN, 1, 0, 0, 0, 1, 0], [0, 1, 2]),
          ":meshes[0].primitives[0].attributes.POSITION[0]",
        ],
        [
          "overflow.glb",
          () => faultyGlb([0, 0, 0, 1, 0, 0, 0, 3e38, 0], [0, 1, 2], { scale: 1e300 }),
          ":meshes[0].primitives[0].attributes.POSITION[2]",
        ],
      ],
      /^((vertex [xyz] )?must be (a finite number|3 finite numbers)|overflows under the world matrix of nodes\[0\]: it becomes \[.*Infinity.*\]) \(got ("nan"|"1e999"|\[0,0,NaN\]|\[0,3\.\d+e\+38,0\])\)$/,
    ],
  ];

  for (const [fault, files, reason] of faults) {
    it(`${fault}: invalid_value naming the file's field, "<field>: <kind> file <path>[:<where>] <reason>"`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "collide-mesh-faults-"));
      for (const [name, content, where] of files) {
        const path = join(dir, name);
        writeFileSync(path, typeof content === "string" ? content : await content());
        const kind = name.endsWith(".obj") ? "OBJ" : "glTF";
        const errors = [await loadMeshFile(path, "a.file").catch((e: unknown) => e)];
        if (kind === "OBJ") errors.push(errorOf(() => loadMeshFileSync(path, "a.file")));
        for (const e of errors) {
          expect(e, name).toBeInstanceOf(CollideError);
          const c = e as CollideError;
          expect(c.code, name).toBe("invalid_value");
          expect(c.field, name).toBe("a.file");
          const lead = `a.file: ${kind} file ${path}${where} `;
          expect(c.message.startsWith(lead), `${name}: ${c.message}`).toBe(true);
          expect(c.message.slice(lead.length), name).toMatch(reason);
        }
      }
    });
  }

  it("an in-memory GLB: the same form with <glb bytes> for the path", async () => {
    const empty = await parseGlb(new Uint8Array(0), "b.file").catch((e: CollideError) => e);
    expect((empty as CollideError).message).toBe(
      "b.file: glTF file <glb bytes> is empty; a mesh needs at least one triangle",
    );
    const bad = await parseGlb(await faultyGlb(TRI, [0, 7, 1]), "b.file").catch(
      (e: CollideError) => e,
    );
    expect((bad as CollideError).message).toBe(
      "b.file: glTF file <glb bytes>:meshes[0].primitives[0].indices[1] is beyond the last vertex of its primitive (3 vertices) (got 7)",
    );
  });

  it("every loader error starts with the file's field, io errors included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-mesh-faults-"));
    writeFileSync(join(dir, "junk.gltf"), "not json");
    writeFileSync(join(dir, "short.glb"), "glTF");
    for (const name of ["missing.obj", "missing.glb", "junk.gltf", "short.glb"]) {
      const e = (await loadMeshFile(join(dir, name), "a.file").catch(
        (x: unknown) => x,
      )) as CollideError;
      expect(e.code, name).toBe("io_error");
      expect(e.field, name).toBe("a.file");
      expect(e.message, name).toMatch(/^a\.file: /);
      expect(e.message, name).toContain(name);
    }
    const sync = errorOf(() => loadMeshFileSync(join(dir, "missing.obj"), "a.file"));
    expect(sync.message).toMatch(/^a\.file: cannot read mesh file .*missing\.obj: /);
    const glb = errorOf(() => loadMeshFileSync(join(dir, "short.glb"), "a.file"));
    expect(glb.message).toMatch(/^a\.file: glTF file .*short\.glb needs the asynchronous loader/);
  });
});
