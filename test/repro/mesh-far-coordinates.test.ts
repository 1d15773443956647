/**
 * Mesh coordinates beyond MESH_COORDINATE_LIMIT (2^1023 ≈ 8.99e307) are refused at construction
 * naming the user's field and the value (attack report of 2026-12-05, finding 4): before, the BVH
 * build refused them as `primBounds[0] min + max must be finite`, an internal name, for an inline
 * mesh, an OBJ file and a glTF node translation alike. Coordinates just below the limit build
 * (the box's min + max stays finite) and answer the distance of their triangle.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { answerQueryLine, answerQueryLineAsync, makeQuerySession } from "../../src/io/query.js";

const LIMIT = 2 ** 1023;
const BELOW = LIMIT - 2 ** 970; // the largest double below 2^1023

function dir(): string {
  return mkdtempSync(join(tmpdir(), "collide-far-coords-"));
}

/** The error of answering `q` (a query object), parsed. */
function errorOf(q: unknown, baseDir?: string): { code: string; message: string } {
  const a = answerQueryLine(JSON.stringify(q), 0, { baseDir });
  const out = JSON.parse(a.line);
  expect(out.error, a.line).toBeDefined();
  return out.error;
}

const sphere = { type: "sphere", center: [0, 0, 3], radius: 1 };

describe("mesh coordinates of 2^1023 or more: refused naming the vertex", () => {
  it("the report's inline mesh: a.vertices[0] and its value, not primBounds", () => {
    // The report's line as it was typed (its second and third vertices round to 1e308 too).
    const line =
      '{"op":"distance","a":{"type":"mesh","vertices":[[1e308,1e308,0],[1.0000000000000001e308,1e308,0],[1e308,1.0000000000000002e308,0]],"indices":[[0,1,2]]},"b":{"type":"sphere","center":[0,0,3],"radius":1}}';
    const e = JSON.parse(answerQueryLine(line, 0).line).error;
    expect(e.code).toBe("invalid_value");
    expect(e.message).toMatch(
      /^a\.vertices\[0\] \(a corner of triangle 0\) must have coordinates below MESH_COORDINATE_LIMIT = 2\^1023/,
    );
    expect(e.message).toContain("(got [1e+308,1e+308,0])");
    expect(e.message).not.toContain("primBounds");
  });

  it("makeTriangleMesh and updateTriangleMeshVertices, any vertex and axis (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: LIMIT, max: Number.MAX_VALUE, noNaN: true }),
        fc.boolean(),
        (vi, axis, x, negative) => {
          const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
          const idx = [0, 1, 2, 0, 2, 3];
          const bad = v.slice();
          bad[3 * vi + axis] = negative ? -x : x;
          expect(() => api.makeTriangleMesh(bad, idx, "m")).toThrow(
            new RegExp(
              `^m\\.vertices\\[${vi}\\] \\(a corner of triangle ${vi === 3 ? 1 : 0}\\) must have coordinates below`,
            ),
          );
          const mesh = api.makeTriangleMesh(v, idx);
          expect(() => api.updateTriangleMeshVertices(mesh, bad)).toThrow(
            new RegExp(`^vertices\\[${vi}\\] must be below MESH_COORDINATE_LIMIT`),
          );
        },
      ),
    );
  });

  it("just below the limit a small triangle builds and answers its distance", () => {
    // A triangle at 2^1023 − ulp: its corners differ by whole ulps (2^971 each).
    const u = 2 ** 971;
    const mesh = api.makeTriangleMesh(
      [BELOW - u, BELOW - u, 0, BELOW, BELOW - u, 0, BELOW - u, BELOW, 0],
      [0, 1, 2],
    );
    const I = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    const far = { translation: { x: BELOW - u, y: BELOW - u, z: 3 }, rotation: I.rotation };
    // A unit sphere 3 above the triangle's corner: 2 apart.
    const d = api.distance(mesh, I, api.makeSphere(1), far);
    expect(d.distance).toBe(2);
  });

  it("an OBJ file: a.file: OBJ file <path>:<line> vertex <coordinate>, the token", () => {
    const base = dir();
    writeFileSync(
      join(base, "far308.obj"),
      "v 1e308 1e308 0\nv 1.0000000000000001e308 1e308 0\nv 1e308 1.0000000000000002e308 0\nf 1 2 3\n",
    );
    writeFileSync(
      join(base, "far308b.obj"),
      "v 0 0 0\nv 1 0 0\n# a comment\nv 0 -9e307 0\nf 1 2 3\n",
    );
    const e = errorOf({ op: "distance", a: { type: "mesh", file: "far308.obj" }, b: sphere }, base);
    expect(e.message).toBe(
      `a.file: OBJ file ${join(base, "far308.obj")}:1 vertex x must be below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (a mesh's BVH sums a box's min and max) (got "1e308")`,
    );
    const e2 = errorOf(
      { op: "distance", a: { type: "mesh", file: "far308b.obj" }, b: sphere },
      base,
    );
    expect(e2.message).toMatch(
      /^a\.file: OBJ file .*far308b\.obj:4 vertex y must be below MESH_COORDINATE_LIMIT.*\(got "-9e307"\)$/,
    );
  });

  it("a glTF node translation of 1e308: a.file: glTF file <path>:<POSITION>, the node", async () => {
    const base = dir();
    // The reproducer mesh/trans-ovf.gltf: 4 float32 vertices, 2 triangles, node translation 1e308.
    const gltf = {
      asset: { version: "2.0" },
      scene: 0,
      scenes: [{ nodes: [0] }],
      nodes: [{ mesh: 0, translation: [1e308, 1e308, 0], scale: [10, 10, 10] }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
      buffers: [
        {
          byteLength: 60,
          uri: "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAABAAIAAAACAAMA",
        },
      ],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 48 },
        { buffer: 0, byteOffset: 48, byteLength: 12 },
      ],
      accessors: [
        {
          bufferView: 0,
          componentType: 5126,
          count: 4,
          type: "VEC3",
          min: [0, 0, 0],
          max: [1, 1, 1],
        },
        { bufferView: 1, componentType: 5123, count: 6, type: "SCALAR" },
      ],
    };
    writeFileSync(join(base, "trans-ovf.gltf"), JSON.stringify(gltf));
    const a = await answerQueryLineAsync(
      JSON.stringify({ op: "distance", a: { type: "mesh", file: "trans-ovf.gltf" }, b: sphere }),
      0,
      makeQuerySession({ baseDir: base }),
    );
    const out = JSON.parse(a.line);
    expect(out.error.code).toBe("invalid_value");
    expect(out.error.message).toBe(
      `a.file: glTF file ${join(base, "trans-ovf.gltf")}:meshes[0].primitives[0].attributes.POSITION[0] under the world matrix of nodes[0] becomes [1e+308,1e+308,0], beyond MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (a mesh's BVH sums a box's min and max) (got [0,0,0])`,
    );
  });
});
