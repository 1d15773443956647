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

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

/** A GLB with one quad (2 triangles) under a node translated by (10, 0, 0). */
async function quadGlb(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const ind = doc
    .createAccessor()
    .setType("SCALAR")
    .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos).setIndices(ind);
  const mesh = doc.createMesh().addPrimitive(prim);
  const node = doc.createNode().setMesh(mesh).setTranslation([10, 0, 0]);
  doc.createScene().addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  return new NodeIO().writeBinary(doc);
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
    const m = await parseGlb(await quadGlb());
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(m.vertices.subarray(0, 6))).toEqual([10, 0, 0, 11, 0, 0]);
    await expect(parseGlb(new Uint8Array([1, 2, 3]))).rejects.toThrow(CollideError);
  });

  it("loads .glb and .obj files, with scale and pose", async () => {
    const dir = mkdtempSync(join(tmpdir(), "collide-mesh-"));
    writeFileSync(join(dir, "quad.glb"), await quadGlb());
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
    writeFileSync(join(dir, "quad.glb"), await quadGlb());
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
