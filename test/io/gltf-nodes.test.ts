/**
 * Issue 16: glTF node matrices and node trees. A node `matrix` scaling by 1e200 keeps a unit
 * triangle finite (≤ 1e200) and was refused ("overflows … becomes [NaN,NaN,NaN] (got [0,0,0])":
 * @gltf-transform decomposed the matrix by squaring its entries); a node listing itself or an
 * ancestor as a child was accepted silently; so were (attack 26, F5) a projective node matrix, a
 * rotation of length 0 (as identity) and a VEC2 POSITION accessor (read as (x, y, 0)); and a
 * sheared node matrix (glTF 2.0 requires T·R·S), while a zero scale, which exporters use to hide
 * a node, was refused. The right vertices are the matrices' products written out by hand here;
 * the files are small .gltf JSON written into a temporary folder.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
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

/** Columns of the rotation matrix of the unit quaternion (x, y, z, w): R[c] is R e_c. */
function rotationColumns([x, y, z, w]: number[]): number[][] {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
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

  it("a matrix with a shear (a rank-2 one among them) is refused naming nodes[i].matrix, its name and value; a 1e-200 scale (determinant underflows) is not", async () => {
    // Third column = first + second: rank 2, and columns 0 and 2 meet at cosine 1/√2 (shown to 3
    // digits).
    const rank2 = [1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1];
    const r = await refusal(write("rank2.gltf", gltf([{ mesh: 0, matrix: rank2 }], [0])));
    expect(r.code).toBe("invalid_value");
    expect(r.field).toBe("a.file:nodes[0].matrix");
    expect(r.value).toEqual(rank2);
    expect(r.message).toBe(
      `a.file:nodes[0].matrix must be translation·rotation·scale, with no shear (glTF 2.0 §3.5.3): columns 0 and 2 of its 3×3 part have cosine 0.707, beyond GLTF_NODE_SHEAR_TOLERANCE (0.00001) of orthogonal (got [1,0,0,0,0,1,0,0,1,1,0,0,0,0,0,1])`,
    );
    // y' = y + 0.5·x: column 0 is (1, 0.5, 0), column 1 (0, 1, 0), cosine 0.5 / √1.25 = 0.4472…;
    // a named child node.
    const shear = [1, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const e = await refusal(
      write("shear.gltf", gltf([{ children: [1] }, { name: "Arm", mesh: 0, matrix: shear }], [0])),
    );
    expect(e.message).toBe(
      `a.file:nodes[1].matrix (node "Arm") must be translation·rotation·scale, with no shear (glTF 2.0 §3.5.3): columns 0 and 1 of its 3×3 part have cosine 0.447, beyond GLTF_NODE_SHEAR_TOLERANCE (0.00001) of orthogonal (got [1,0.5,0,0,0,1,0,0,0,0,1,0,0,0,0,1])`,
    );
    // Column 1 = (c, 1, 0), cosine c/√(1 + c²) with column 0: 2e-5 is refused, 5e-6 taken as given.
    const lean = (c: number) => [1, 0, 0, 0, c, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const over = await refusal(write("over.gltf", gltf([{ mesh: 0, matrix: lean(2e-5) }], [0])));
    expect(over.message).toContain("columns 0 and 1 of its 3×3 part have cosine 0.00002,");
    const under = await loadMeshFile(
      write("under.gltf", gltf([{ mesh: 0, matrix: lean(5e-6) }], [0])),
      "a.file",
    );
    expect(Array.from(under.vertices)).toEqual([0, 0, 0, 1, 0, 0, 5e-6, 1, 0]);
    const tiny = await loadMeshFile(
      write("tiny.gltf", gltf([{ mesh: 0, matrix: scaleMatrix(1e-200) }], [0])),
      "a.file",
    );
    expect(Array.from(tiny.vertices)).toEqual([0, 0, 0, 1e-200, 0, 0, 0, 1e-200, 0]);
  });

  it("fast-check: R·diag(s) + t stored in single precision (scales ±1e-6..1e6, offsets to 1e9) is accepted, each vertex M·v; R·H·diag(s) with a shear |h| ≥ 1e-4 is refused naming its columns", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...[0, 1, 2, 3].map(() => fc.double({ min: -1, max: 1, noNaN: true }))),
        fc.tuple(...[0, 1, 2].map(() => fc.double({ min: -6, max: 6, noNaN: true }))),
        fc.tuple(...[0, 1, 2].map(() => fc.boolean())),
        fc.tuple(...[0, 1, 2].map(() => fc.double({ min: -1e9, max: 1e9, noNaN: true }))),
        fc.constantFrom([0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]),
        fc.double({ min: 1e-4, max: 1e3, noNaN: true }),
        fc.boolean(),
        async (q, logS, neg, t, [j, k], h, sheared) => {
          const len = Math.hypot(...q);
          fc.pre(len > 0.1);
          const R = rotationColumns(q.map((c) => c / len));
          const s = logS.map((l, i) => (neg[i] ? -1 : 1) * 10 ** l);
          // Column c of R·H·diag(s), H = I + h·e_j e_kᵀ: s_c (R e_c + [c = k] h R e_j).
          const cols = [0, 1, 2].map((c) =>
            [0, 1, 2].map((r) => s[c] * (R[c][r] + (sheared && c === k ? h * R[j][r] : 0))),
          );
          const m = [...cols[0], 0, ...cols[1], 0, ...cols[2], 0, ...t, 1].map(Math.fround);
          const path = write("p.gltf", gltf([{ mesh: 0, matrix: m }], [0]));
          if (sheared) {
            const e = await refusal(path);
            expect(e.field).toBe("a.file:nodes[0].matrix");
            expect(e.message).toContain(
              `columns ${Math.min(j, k)} and ${Math.max(j, k)} of its 3×3 part have cosine`,
            );
            return;
          }
          const mesh = await loadMeshFile(path, "a.file");
          // The triangle (0,0,0), (1,0,0), (0,1,0): t, column 0 + t, column 1 + t, each sum rounded once.
          const want = [0, 1, 2].flatMap((r) => [
            m[12 + r],
            m[r] + m[12 + r],
            m[4 + r] + m[12 + r],
          ]);
          const order = [0, 3, 6, 1, 4, 7, 2, 5, 8];
          expect(Array.from(mesh.vertices, (x) => x + 0)).toEqual(order.map((i) => want[i] + 0));
        },
      ),
      { numRuns: 150, seed: 16 },
    );
  });

  it("a zero scale hides a node and its subtree (three.js draws none): TRS or a matrix of zero columns, the other nodes' triangles kept", async () => {
    // nodes[0] visible at x + 10; nodes[1] scale [1, 0, 1] with a visible-scaled child nodes[2];
    // nodes[3] a matrix with column 1 zero (R·diag(2, 0, 2), R a quarter turn about z); nodes[4]
    // the all-zero matrix.
    const quarter = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 5, 5, 5, 1];
    const zero = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const path = write(
      "hidden.gltf",
      gltf(
        [
          { mesh: 0, translation: [10, 0, 0] },
          { mesh: 0, scale: [1, 0, 1], children: [2] },
          { mesh: 0, scale: [3, 3, 3] },
          { mesh: 0, matrix: quarter },
          { mesh: 0, matrix: zero },
        ],
        [0, 1, 3, 4],
      ),
    );
    const m = await loadMeshFile(path, "a.file");
    expect(Array.from(m.vertices)).toEqual([10, 0, 0, 11, 0, 0, 10, 1, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    // A hidden node's rotation is still checked, and a zero column beside a shear is a shear.
    const badQ = write(
      "hq.gltf",
      gltf([{ mesh: 0, scale: [0, 0, 0], rotation: [0, 0, 0, 2] }], [0]),
    );
    expect((await refusal(badQ)).field).toBe("a.file:nodes[0].rotation");
    const zeroShear = [0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1];
    const zs = await refusal(write("zs.gltf", gltf([{ mesh: 0, matrix: zeroShear }], [0])));
    expect(zs.message).toMatch(
      /^a\.file:nodes\[0\]\.matrix must be translation·rotation·scale, with no shear .*columns 1 and 2 /,
    );
  });

  it("a file whose every mesh node is hidden by a zero scale has no triangle: refused naming those nodes", async () => {
    const path = write(
      "allhidden.gltf",
      gltf(
        [
          { children: [1], scale: [0, 1, 1] },
          { mesh: 0 },
          { scale: [0, 0, 0] },
          { mesh: 0, matrix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
        ],
        [0, 2, 3],
      ),
    );
    const e = await refusal(path);
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a.file");
    expect(e.value).toBe(path);
    // nodes[2] hides no mesh and is not named.
    expect(e.message).toBe(
      `a.file: glTF file ${path} has no triangles outside nodes of zero scale (nodes[0], nodes[3]: a zero scale hides a node and its children); a mesh needs at least one triangle`,
    );
  });

  it("a matrix given with translation is refused naming the property", async () => {
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
