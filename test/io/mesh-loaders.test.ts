import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
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
      /^(must be (a finite number|3 finite numbers)|overflows under the world matrix of nodes\[0\]: it becomes \[.*Infinity.*\]) \(got ("nan"|"1e999"|\[0,0,NaN\]|\[0,3\.\d+e\+38,0\])\)$/,
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
