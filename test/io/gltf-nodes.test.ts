/**
 * Issue 16: glTF node matrices and node trees. A node `matrix` scaling by 1e200 keeps a unit
 * triangle finite (≤ 1e200) and was refused ("overflows … becomes [NaN,NaN,NaN] (got [0,0,0])":
 * @gltf-transform decomposed the matrix by squaring its entries); a node listing itself or an
 * ancestor as a child was accepted silently; so were (attack 26, F5) a projective node matrix, a
 * rotation of length 0 (as identity) and a VEC2 POSITION accessor (read as (x, y, 0)). The right vertices are the matrices' products
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
function gltf(
  nodes: object[],
  roots: number[],
  positions = [0, 0, 0, 1, 0, 0, 0, 1, 0],
  extra: { position?: object; top?: object } = {},
): string {
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
        ...extra.position,
      },
      { bufferView: 1, componentType: 5123, count: 3, type: "SCALAR" },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: 4 }] }],
    nodes,
    scenes: [{ nodes: roots }],
    scene: 0,
    ...extra.top,
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

  it("a node matrix whose last row is not [0, 0, 0, 1] (projective, or w = 2) is refused naming nodes[i].matrix and its value", async () => {
    const proj = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 3, 1];
    const e = await refusal(write("proj.gltf", gltf([{ mesh: 0, matrix: proj }], [0])));
    expect(e.code).toBe("invalid_value");
    expect(e.message).toBe(
      "a.file:nodes[0].matrix must be affine: its last row (entries 3, 7, 11, 15, column-major) must be [0, 0, 0, 1] (glTF node matrices are translation·rotation·scale) (got [1,0,0,0,0,1,0,0,0,0,1,0.5,0,0,3,1])",
    );
    expect(e.value).toEqual(proj);
    const w2 = scaleMatrix(2);
    w2[15] = 2;
    const f = await refusal(
      write("w2.gltf", gltf([{ children: [1] }, { mesh: 0, matrix: w2 }], [0])),
    );
    expect(f.message).toMatch(
      /^a\.file:nodes\[1\]\.matrix must be affine: its last row .* \(got \[2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,2\]\)$/,
    );
  });

  it("a singular node matrix (all zeros; a rank-2 one) is refused as not invertible; a 1e-200 scale (determinant underflows) is not", async () => {
    const zero = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const e = await refusal(write("zero.gltf", gltf([{ mesh: 0, matrix: zero }], [0])));
    expect(e.message).toBe(
      "a.file:nodes[0].matrix must be invertible: its 3×3 part has determinant 0 and would flatten the mesh (got [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1])",
    );
    // Third column = first + second: rank 2 (exact in floating point).
    const rank2 = [1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1];
    const r = await refusal(write("rank2.gltf", gltf([{ mesh: 0, matrix: rank2 }], [0])));
    expect(r.message).toMatch(/^a\.file:nodes\[0\]\.matrix must be invertible: /);
    const tiny = await loadMeshFile(
      write("tiny.gltf", gltf([{ mesh: 0, matrix: scaleMatrix(1e-200) }], [0])),
      "a.file",
    );
    expect(Array.from(tiny.vertices)).toEqual([0, 0, 0, 1e-200, 0, 0, 0, 1e-200, 0]);
  });

  it("a zero scale component, and a matrix given with translation, are refused naming the property", async () => {
    const e = await refusal(write("s0.gltf", gltf([{ mesh: 0, scale: [1, 0, 1] }], [0])));
    expect(e.message).toBe(
      "a.file:nodes[0].scale must have no zero component: a zero scale would flatten the mesh (got [1,0,1])",
    );
    const both = write(
      "both.gltf",
      gltf([{ mesh: 0, matrix: scaleMatrix(1), translation: [0, 0, 10] }], [0]),
    );
    expect((await refusal(both)).message).toBe(
      "a.file:nodes[0].translation must not be given with matrix (a glTF node has a matrix or translation/rotation/scale) (got [0,0,10])",
    );
  });

  it("a node rotation not of unit length within UNIT_QUATERNION_TOLERANCE ([0,0,0,0], [0,0,0,2]) is refused; one within is normalised", async () => {
    for (const q of [
      [0, 0, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 0, 1 + 2e-6],
    ]) {
      const e = await refusal(write("q.gltf", gltf([{ mesh: 0, rotation: q }], [0])));
      expect(e.code).toBe("invalid_value");
      expect(e.message).toBe(
        `a.file:nodes[0].rotation must be a unit quaternion [x, y, z, w] (length within UNIT_QUATERNION_TOLERANCE, 0.000001, of 1) (got ${JSON.stringify(q)})`,
      );
      expect(e.value).toEqual(q);
    }
    // A half turn about z, length 1 + 5e-7: (1, 0, 0) → (−1, 0, 0) exactly once normalised.
    const m = await loadMeshFile(
      write("qz.gltf", gltf([{ mesh: 0, rotation: [0, 0, 1 + 5e-7, 0] }], [0])),
      "a.file",
    );
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, -1, 0, 0, 0, -1, 0]);
  });

  it("a default scene index past the scenes is refused naming scene and the value", async () => {
    const e = await refusal(
      write("sc.gltf", gltf([{ mesh: 0 }], [0], undefined, { top: { scene: 5 } })),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.message).toBe("a.file:scene names no scene (got 5)");
    expect(e.value).toBe(5);
  });

  it("a POSITION accessor that is not VEC3 of floats is refused naming the attribute (a VEC2 was read as (x, y, 0) pairs)", async () => {
    // The 9 floats read as VEC2 would be 4 vertices of some other shape.
    const v2 = write(
      "v2.gltf",
      gltf([{ mesh: 0 }], [0], undefined, { position: { type: "VEC2", min: [0, 0], max: [1, 1] } }),
    );
    const e = await refusal(v2);
    expect(e.code).toBe("invalid_value");
    expect(e.message).toBe(
      'a.file:meshes[0].primitives[0].attributes.POSITION must be a VEC3 accessor, but accessors[0] has type (got "VEC2")',
    );
    const ints = write(
      "u16.gltf",
      gltf([{ mesh: 0 }], [0], undefined, { position: { componentType: 5123, count: 1 } }),
    );
    expect((await refusal(ints)).message).toBe(
      "a.file:meshes[0].primitives[0].attributes.POSITION must have FLOAT (5126) components (others need the KHR_mesh_quantization extension), but accessors[0] has componentType (got 5123)",
    );
  });
});
