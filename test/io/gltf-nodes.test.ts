/**
 * Issue 16: glTF node matrices and node trees. A node `matrix` scaling by 1e200 keeps a unit
 * triangle finite (≤ 1e200) and was refused ("overflows … becomes [NaN,NaN,NaN] (got [0,0,0])":
 * @gltf-transform decomposed the matrix by squaring its entries); a node listing itself or an
 * ancestor as a child was accepted silently. The right vertices are the matrices' products
 * written out by hand here; the files are small .gltf JSON written into a temporary folder.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { loadMeshFile } from "../../src/io/mesh-loaders.js";

/** One triangle's float32 positions and uint16 indices as a data: URI buffer. */
function triangleBuffer(positions: number[]): { uri: string; byteLength: number } {
  const bytes = new Uint8Array(36 + 8);
  new Float32Array(bytes.buffer, 0, 9).set(positions);
  new Uint16Array(bytes.buffer, 36, 3).set([0, 1, 2]);
  return {
    uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString("base64")}`,
    byteLength: bytes.byteLength,
  };
}

/** A .gltf of one triangle mesh (mesh 0) with these nodes and the default scene's roots. */
function gltf(nodes: object[], roots: number[], positions = [0, 0, 0, 1, 0, 0, 0, 1, 0]): string {
  return JSON.stringify({
    asset: { version: "2.0" },
    buffers: [triangleBuffer(positions)],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 36 },
      { buffer: 0, byteOffset: 36, byteLength: 6 },
    ],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: 3,
        type: "VEC3",
        min: [0, 0, 0],
        max: [1, 1, 0],
      },
      { bufferView: 1, componentType: 5123, count: 3, type: "SCALAR" },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: 4 }] }],
    nodes,
    scenes: [{ nodes: roots }],
    scene: 0,
  });
}

function write(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "collide-gltf-nodes-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Column-major uniform scale s with translation t. */
function scaleMatrix(s: number, t: [number, number, number] = [0, 0, 0]): number[] {
  return [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, t[0], t[1], t[2], 1];
}

async function refusal(path: string): Promise<CollideError> {
  const e = await loadMeshFile(path, "a.file").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(CollideError);
  return e as CollideError;
}

describe("glTF node matrices and trees (issue 16)", () => {
  it("a node matrix scaling by 1e200 places a unit triangle at 1e200 (finite): accepted", async () => {
    const path = write("big.gltf", gltf([{ mesh: 0, matrix: scaleMatrix(1e200) }], [0]));
    const m = await loadMeshFile(path, "a.file");
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1e200, 0, 0, 0, 1e200, 0]);
  });

  it("the same scale as TRS, and a translation: every vertex s·v + t", async () => {
    const path = write(
      "trs.gltf",
      gltf([{ mesh: 0, scale: [1e200, 1e200, 1e200], translation: [5, 0, -1e200] }], [0]),
    );
    const m = await loadMeshFile(path, "a.file");
    expect(Array.from(m.vertices)).toEqual([5, 0, -1e200, 1e200, 0, -1e200, 5, 1e200, -1e200]);
  });

  it("nested scales 1e200 and 1e-200: their product overflows nowhere, the vertices are the triangle's", async () => {
    const path = write(
      "nested.gltf",
      gltf(
        [
          { children: [1], matrix: scaleMatrix(1e-200) },
          { mesh: 0, matrix: scaleMatrix(1e200) },
        ],
        [0],
      ),
    );
    const m = await loadMeshFile(path, "a.file");
    // 1e-200 · (1e200 · v), each product rounded: v within an ulp.
    const want = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    Array.from(m.vertices).forEach((x, i) => {
      expect(Math.abs(x - want[i])).toBeLessThanOrEqual(2 ** -52);
    });
  });

  it("two nested scales of 1e200: the vertex that truly overflows is named with its value and what it becomes", async () => {
    const path = write(
      "over.gltf",
      gltf(
        [
          { children: [1], matrix: scaleMatrix(1e200) },
          { mesh: 0, matrix: scaleMatrix(1e200) },
        ],
        [0],
      ),
    );
    const e = await refusal(path);
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a.file");
    // Vertex 0, [0, 0, 0], stays 0; vertex 1, [1, 0, 0], becomes 1e400.
    expect(e.message).toBe(
      `a.file: glTF file ${path}:meshes[0].primitives[0].attributes.POSITION[1] overflows under the world matrix of nodes[1]: it becomes [Infinity,0,0] (got [1,0,0])`,
    );
  });

  it("a node listing itself as a child: refused naming the node", async () => {
    const path = write("self.gltf", gltf([{ mesh: 0, children: [0] }], [0]));
    const e = await refusal(path);
    expect(e.code).toBe("invalid_value");
    expect(e.message).toContain("a.file:nodes[0].children[0]");
    expect(e.message).toContain("lists nodes[0] itself as a child");
    expect(e.value).toBe(0);
  });

  it("a node listing an ancestor as a child (0 → 1 → 2 → 0): refused naming the node and the ancestor", async () => {
    const path = write(
      "cycle.gltf",
      gltf([{ children: [1] }, { children: [2] }, { mesh: 0, children: [0] }], [0]),
    );
    const e = await refusal(path);
    expect(e.code).toBe("invalid_value");
    expect(e.message).toContain("a.file:nodes[2].children[0]");
    expect(e.message).toContain("lists nodes[0], an ancestor of nodes[2], as a child");
    expect(e.value).toBe(0);
  });

  it("a cycle outside the scene is refused too, and a child index past the nodes names it", async () => {
    const cyc = write("side.gltf", gltf([{ mesh: 0 }, { children: [2] }, { children: [1] }], [0]));
    expect((await refusal(cyc)).message).toContain("a.file:nodes[2].children[0]");
    const past = write("past.gltf", gltf([{ mesh: 0, children: [4] }], [0]));
    const e = await refusal(past);
    expect(e.message).toContain("a.file:nodes[0].children[0]");
    expect(e.value).toBe(4);
  });

  it("a node with two parents (a DAG; glTF nodes form disjoint trees) is refused naming both, as is a scene root with a parent", async () => {
    const path = write(
      "dag.gltf",
      gltf(
        [
          { children: [2], translation: [10, 0, 0] },
          { children: [2], translation: [-10, 0, 0] },
          { mesh: 0 },
        ],
        [0, 1],
      ),
    );
    const e = await refusal(path);
    expect(e.message).toContain("a.file:nodes[1].children[0]");
    expect(e.message).toContain("lists nodes[2], already a child of nodes[0]");
    const root = write("root.gltf", gltf([{ children: [1] }, { mesh: 0 }], [0, 1]));
    const r = await refusal(root);
    expect(r.message).toContain("a.file:scenes[0].nodes[1]");
    expect(r.message).toContain("names nodes[1], a child of nodes[0]");
  });

  it("a child in a tree: placed by its parent's matrix times its own", async () => {
    const path = write(
      "tree.gltf",
      gltf(
        [
          { children: [1], translation: [10, 0, 0] },
          { mesh: 0, scale: [2, 2, 2] },
        ],
        [0],
      ),
    );
    const m = await loadMeshFile(path, "a.file");
    expect(Array.from(m.vertices)).toEqual([10, 0, 0, 12, 0, 0, 10, 2, 0]);
  });
});
