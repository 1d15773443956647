/**
 * Session 36's second fresh-user attack, item 8: glTF files that break glTF 2.0's rules were
 * accepted or misreported — index accessors of FLOAT or signed-byte components or of type VEC3
 * (read as wrong or no triangles), an index count not a multiple of 3 (the last indices dropped),
 * an accessor `byteOffset` that is no multiple of its component's size (the vertices read from
 * the bytes of two floats), a GLB header whose length is not the file's, and a GLB whose
 * `buffers[0]` has no uri but whose second chunk is missing or not BIN (reported as
 * "buffers[0].uri is missing (only a GLB's first buffer may omit it)"). Each is now refused
 * naming the field and its value. The bad files are valid ones edited in memory; the right
 * triangles of the valid ones are the numbers they were written from.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { loadMeshFile, type MeshData, parseGlb } from "../../src/io/mesh-loaders.js";
import { quadGlb } from "../support/quad-glb.js";

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

// biome-ignore lint/suspicious/noExplicitAny: glTF JSON edited freely in the tests.
type Json = any;

/** The JSON and the BIN chunk of a GLB whose first chunk is JSON and second BIN. */
function splitGlb(glb: Uint8Array): { json: Json; bin: Uint8Array } {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = v.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const at = 20 + jsonLength;
  return { json, bin: glb.slice(at + 8, at + 8 + v.getUint32(at, true)) };
}

/**
 * A GLB of these chunks: the JSON (padded with spaces to 4 bytes), then each further chunk
 * (type, bytes; padded with zeros); the header's length is the file's.
 */
function packGlb(json: Json, ...chunks: [number, Uint8Array][]): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = (b: Uint8Array, fill: number) => {
    const out = new Uint8Array(Math.ceil(b.length / 4) * 4).fill(fill);
    out.set(b);
    return out;
  };
  const all: [number, Uint8Array][] = [
    [CHUNK_JSON, padded(text, 0x20)],
    ...chunks.map(([t, b]): [number, Uint8Array] => [t, padded(b, 0)]),
  ];
  const total = 12 + all.reduce((s, [, b]) => s + 8 + b.length, 0);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, GLB_MAGIC, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, total, true);
  let at = 12;
  for (const [type, b] of all) {
    v.setUint32(at, b.length, true);
    v.setUint32(at + 4, type, true);
    out.set(b, at + 8);
    at += 8 + b.length;
  }
  return out;
}

async function refusal(p: Promise<unknown>): Promise<CollideError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("no error");
}

describe("glTF index accessors, counts and alignment (attack 36b, item 8)", async () => {
  const { json, bin } = splitGlb(await quadGlb());
  const edited = (edit: (j: Json) => void): Uint8Array => {
    const j = structuredClone(json);
    edit(j);
    return packGlb(j, [CHUNK_BIN, bin]);
  };
  const idx: number = json.meshes[0].primitives[0].indices;
  const pos: number = json.meshes[0].primitives[0].attributes.POSITION;

  it("the valid file, repacked here, reads as written: the quad's 2 triangles", async () => {
    const m = await parseGlb(packGlb(json, [CHUNK_BIN, bin]));
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
  });

  // Each fault: the edit, the field (after "file:"), its value, the reason.
  const faults: [string, (j: Json) => void, string, unknown, RegExp][] = [
    [
      "FLOAT indices",
      (j) => {
        j.accessors[idx].componentType = 5126;
        j.accessors[idx].count = 3;
      },
      `accessors[${idx}].componentType`,
      5126,
      /must be UNSIGNED_BYTE \(5121\), UNSIGNED_SHORT \(5123\) or UNSIGNED_INT \(5125\): meshes\[0\]\.primitives\[0\]\.indices names it/,
    ],
    [
      "BYTE (signed) indices",
      (j) => {
        j.accessors[idx].componentType = 5120;
      },
      `accessors[${idx}].componentType`,
      5120,
      /must be UNSIGNED_BYTE/,
    ],
    [
      "SHORT (signed) indices",
      (j) => {
        j.accessors[idx].componentType = 5122;
      },
      `accessors[${idx}].componentType`,
      5122,
      /must be UNSIGNED_BYTE/,
    ],
    [
      "VEC3 indices",
      (j) => {
        j.accessors[idx].type = "VEC3";
        j.accessors[idx].count = 2;
      },
      `accessors[${idx}].type`,
      "VEC3",
      /must be SCALAR: meshes\[0\]\.primitives\[0\]\.indices names it/,
    ],
    [
      "5 indices of a triangle list",
      (j) => {
        j.accessors[idx].count = 5;
      },
      `accessors[${idx}].count`,
      5,
      /must be a multiple of 3: meshes\[0\]\.primitives\[0\], a triangle list \(mode 4\)/,
    ],
    [
      "4 vertices of a triangle list without indices",
      (j) => {
        delete j.meshes[0].primitives[0].indices;
      },
      `accessors[${pos}].count`,
      4,
      /must be a multiple of 3: .* without indices/,
    ],
    [
      "a POSITION accessor at byte 2 of its view",
      (j) => {
        j.accessors[pos].byteOffset = 2;
        j.accessors[pos].count = 3;
      },
      `accessors[${pos}].byteOffset`,
      2,
      /must be a multiple of 4, the size of accessors\[\d\]'s componentType 5126/,
    ],
    [
      "uint16 indices at byte 1 of their view",
      (j) => {
        j.accessors[idx].byteOffset = 1;
        j.accessors[idx].count = 3;
      },
      `accessors[${idx}].byteOffset`,
      1,
      /must be a multiple of 2, the size of accessors\[\d\]'s componentType 5123/,
    ],
    [
      "uint16 indices in a view at an odd byte of the buffer",
      (j) => {
        j.bufferViews[j.accessors[idx].bufferView].byteOffset += 1;
        j.bufferViews[j.accessors[idx].bufferView].byteLength -= 1;
        j.accessors[idx].count = 3;
      },
      `bufferViews[${json.accessors[idx].bufferView}].byteOffset`,
      json.bufferViews[json.accessors[idx].bufferView].byteOffset + 1,
      /plus accessors\[\d\]\.byteOffset \(0\) must be a multiple of 2/,
    ],
    [
      "sparse indices of FLOAT components",
      (j) => {
        j.accessors[pos].sparse = {
          count: 1,
          indices: { bufferView: j.accessors[idx].bufferView, componentType: 5126 },
          values: { bufferView: j.accessors[pos].bufferView },
        };
        // The vertices' view (written with a stride of 12) read as sparse values must have no
        // stride (refused first since session 38): the one fault here is the component type.
        delete j.bufferViews[j.accessors[pos].bufferView].byteStride;
      },
      `accessors[${pos}].sparse.indices.componentType`,
      5126,
      /must be UNSIGNED_BYTE/,
    ],
  ];
  for (const [name, edit, field, value, reason] of faults) {
    it(`${name}: refused naming ${field} and its value`, async () => {
      const e = await refusal(parseGlb(edited(edit)));
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe(`file:${field}`);
      expect(e.value).toEqual(value);
      expect(e.message).toMatch(reason);
      expect(e.message).toContain(`(got ${JSON.stringify(value)})`);
    });
  }

  it("a .gltf text file is refused alike (FLOAT indices, through loadMeshFile)", async () => {
    const j = structuredClone(json);
    j.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString("base64")}`;
    j.accessors[idx].componentType = 5126;
    j.accessors[idx].count = 3;
    const dir = mkdtempSync(join(tmpdir(), "collide-attack36b-"));
    const path = join(dir, "float-indices.gltf");
    writeFileSync(path, JSON.stringify(j));
    const e = await refusal(loadMeshFile(path, "a.file"));
    expect(e.field).toBe(`a.file:accessors[${idx}].componentType`);
    expect(e.value).toBe(5126);
  });
});

describe("the GLB container (attack 36b, item 8)", async () => {
  const { json, bin } = splitGlb(await quadGlb());
  const good = packGlb(json, [CHUNK_BIN, bin]);

  it("a header length beyond the file, or short of it: refused with the length and the file's", async () => {
    for (const delta of [100, 4, -8, -1]) {
      const b = good.slice();
      new DataView(b.buffer).setUint32(8, b.length + delta, true);
      const e = await refusal(parseGlb(b));
      expect(e.code).toBe("io_error");
      expect(e.field).toBe("file");
      expect(e.value).toBe(b.length + delta);
      expect(e.message).toContain(
        `its GLB header gives the file's length as ${b.length + delta} bytes (bytes 8–11), but the file has ${b.length}`,
      );
    }
  });

  it("buffers[0] without a uri and no second chunk: the missing BIN chunk named, not the uri", async () => {
    const e = await refusal(parseGlb(packGlb(json)));
    expect(e.code).toBe("io_error");
    expect(e.message).toContain(
      "buffers[0] has no uri, so its bytes are the GLB's BIN chunk, but the file has no second chunk",
    );
    expect(e.message).not.toContain("only a GLB's first buffer may omit it");
  });

  it("a second chunk not of type BIN: named with its type (and a BIN chunk third is not the BIN chunk)", async () => {
    for (const chunks of [
      [[0x12345678, bin]],
      [
        [0x4e4f534a, bin],
        [CHUNK_BIN, bin],
      ],
    ] as [number, Uint8Array][][]) {
      const e = await refusal(parseGlb(packGlb(json, ...chunks)));
      expect(e.code).toBe("io_error");
      expect(e.value).toBe(chunks[0][0]);
      expect(e.message).toMatch(
        /its second chunk has type 0x[0-9A-F]{8}.*, not BIN \(0x004E4942\)/,
      );
    }
  });

  it("a chunk of another type after the BIN chunk is ignored, as glTF 2.0 has readers do", async () => {
    const m = await parseGlb(packGlb(json, [CHUNK_BIN, bin], [0x41424344, new Uint8Array(8)]));
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3]);
  });

  it("a chunk whose length is no multiple of 4, and stray bytes after the last chunk: refused", async () => {
    const odd = good.slice();
    const v = new DataView(odd.buffer);
    const jsonLength = v.getUint32(12, true);
    // The JSON chunk one byte shorter (its last byte, a padding space, then counts as data that
    // the next chunk's header starts on: refused before).
    v.setUint32(12, jsonLength - 1, true);
    const e1 = await refusal(parseGlb(odd));
    expect(e1.code).toBe("io_error");
    expect(e1.message).toMatch(
      /chunk 0 \(at byte 12\) has a length of \d+ bytes, not a multiple of 4/,
    );
    const stray = new Uint8Array(good.length + 4);
    stray.set(good);
    new DataView(stray.buffer).setUint32(8, stray.length, true);
    const e2 = await refusal(parseGlb(stray));
    expect(e2.message).toContain(`4 stray bytes after its last chunk (at byte ${good.length})`);
  });
});

/**
 * A GLB of these float32 vertices and triangles (indices of `componentType`), its views at the
 * buffer offsets `viewOffsets` (the index view's after the vertices'), each accessor at
 * `accessorOffsets` in its view; `bend` edits the JSON last.
 */
function layoutGlb(
  vertices: number[],
  triangles: number[],
  componentType: 5121 | 5123 | 5125,
  viewOffsets: [number, number],
  accessorOffsets: [number, number],
  bend: (j: Json) => void = () => {},
): Uint8Array {
  const comp = { 5121: 1, 5123: 2, 5125: 4 }[componentType];
  const posStart = viewOffsets[0] + accessorOffsets[0];
  const posEnd = posStart + 4 * vertices.length;
  const indView = posEnd + viewOffsets[1];
  const indStart = indView + accessorOffsets[1];
  const bytes = new Uint8Array(indStart + comp * triangles.length);
  const v = new DataView(bytes.buffer);
  vertices.forEach((x, i) => {
    v.setFloat32(posStart + 4 * i, x, true);
  });
  triangles.forEach((t, i) => {
    if (comp === 1) v.setUint8(indStart + i, t);
    else if (comp === 2) v.setUint16(indStart + 2 * i, t, true);
    else v.setUint32(indStart + 4 * i, t, true);
  });
  const json: Json = {
    asset: { version: "2.0" },
    buffers: [{ byteLength: bytes.length }],
    bufferViews: [
      { buffer: 0, byteOffset: viewOffsets[0], byteLength: posEnd - viewOffsets[0] },
      { buffer: 0, byteOffset: indView, byteLength: bytes.length - indView },
    ],
    accessors: [
      {
        bufferView: 0,
        byteOffset: accessorOffsets[0],
        componentType: 5126,
        count: vertices.length / 3,
        type: "VEC3",
      },
      {
        bufferView: 1,
        byteOffset: accessorOffsets[1],
        componentType,
        count: triangles.length,
        type: "SCALAR",
      },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  bend(json);
  return packGlb(json, [CHUNK_BIN, bytes]);
}

describe("fast-check: the class of layouts (attack 36b, item 8)", () => {
  const layout = fc
    .record({
      n: fc.integer({ min: 3, max: 12 }),
      ct: fc.constantFrom(5121 as const, 5123 as const, 5125 as const),
      v0: fc.integer({ min: 0, max: 5 }),
      a0: fc.integer({ min: 0, max: 5 }),
      v1: fc.integer({ min: 0, max: 5 }),
      a1: fc.integer({ min: 0, max: 5 }),
    })
    .chain(({ n, ct, v0, a0, v1, a1 }) =>
      fc.record({
        n: fc.constant(n),
        ct: fc.constant(ct),
        vertices: fc.array(fc.integer({ min: -1000, max: 1000 }), {
          minLength: 3 * n,
          maxLength: 3 * n,
        }),
        triangles: fc
          .array(fc.integer({ min: 0, max: n - 1 }), { minLength: 3, maxLength: 30 })
          .map((t) => t.slice(0, t.length - (t.length % 3))),
        comp: fc.constant({ 5121: 1, 5123: 2, 5125: 4 }[ct]),
        offsets: fc.constant([v0, a0, v1, a1]),
      }),
    );

  it("every aligned layout of unsigned indices loads its vertices and triangles exactly", async () => {
    await fc.assert(
      fc.asyncProperty(layout, async ({ vertices, triangles, ct, comp, offsets }) => {
        const [v0, a0, v1, a1] = offsets;
        const m: MeshData = await parseGlb(
          layoutGlb(vertices, triangles, ct, [4 * v0, 4 * v1], [4 * a0, a1 * comp]),
        );
        expect(Array.from(m.vertices)).toEqual(vertices.map((x) => x + 0));
        expect(Array.from(m.indices)).toEqual(triangles);
      }),
      { numRuns: 150 },
    );
  });

  it("the same layouts broken — an offset off its component's size, a signed or float index type, VEC3 indices, a count off 3, a header length off — are refused naming the field and value", async () => {
    await fc.assert(
      fc.asyncProperty(
        layout,
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(5120, 5122, 5126),
        fc.integer({ min: 0, max: 6 }),
        async ({ vertices, triangles, ct, comp, offsets }, d, badType, which) => {
          const [v0, a0, v1, a1] = offsets;
          const build = (bend?: (j: Json) => void, idxShift = 0, viewShift = 0) =>
            layoutGlb(
              vertices,
              triangles,
              ct,
              [4 * v0, 4 * v1 + viewShift],
              [4 * a0, a1 * comp + idxShift],
              bend,
            );
          let bytes: Uint8Array;
          let field: string;
          let value: unknown;
          if (which === 0) {
            // The vertices' accessor at d bytes (1..3) past a multiple of 4.
            bytes = layoutGlb(vertices, triangles, ct, [4 * v0, 4 * v1], [4 * a0 + d, 0]);
            [field, value] = ["file:accessors[0].byteOffset", 4 * a0 + d];
          } else if (which === 1 && comp > 1) {
            const s = d % comp || 1;
            bytes = build(undefined, s);
            [field, value] = ["file:accessors[1].byteOffset", a1 * comp + s];
          } else if (which === 2 && comp > 1) {
            const s = d % comp || 1;
            bytes = build(undefined, 0, s);
            const posEnd = 4 * v0 + 4 * a0 + 4 * vertices.length;
            [field, value] = ["file:bufferViews[1].byteOffset", posEnd + 4 * v1 + s];
          } else if (which === 3) {
            // At the view's start, as many as fit: only the type is wrong.
            const badComp = { 5120: 1, 5122: 2, 5126: 4 }[badType] as number;
            bytes = build((j) => {
              j.accessors[1].componentType = badType;
              j.accessors[1].byteOffset = 0;
              j.accessors[1].count = Math.floor((triangles.length * comp) / badComp);
            });
            [field, value] = ["file:accessors[1].componentType", badType];
          } else if (which === 4) {
            bytes = build((j) => {
              j.accessors[1].type = "VEC3";
              j.accessors[1].count = triangles.length / 3;
            });
            [field, value] = ["file:accessors[1].type", "VEC3"];
          } else if (which === 5) {
            bytes = build();
            const length = bytes.length + (d === 2 ? -4 : 4 * d);
            new DataView(bytes.buffer).setUint32(8, length, true);
            const e = await refusal(parseGlb(bytes));
            expect([e.code, e.field, e.value]).toEqual(["io_error", "file", length]);
            return;
          } else {
            // One or two indices fewer (the buffer still holds them); single bytes align
            // anywhere, so the offset cases 1 and 2 of UNSIGNED_BYTE indices come here too.
            const fewer = 1 + (d % 2);
            bytes = build((j) => {
              j.accessors[1].count = triangles.length - fewer;
            });
            [field, value] = ["file:accessors[1].count", triangles.length - fewer];
          }
          const e = await refusal(parseGlb(bytes));
          expect(e.code).toBe("invalid_value");
          expect(e.field).toBe(field);
          expect(e.value).toBe(value);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/**
 * glTF 2.0's rules on index data (session 38): an index accessor holds no primitive-restart value
 * (its component type's largest: 255, 65535, 4294967295 — loaded as a vertex index before when
 * the primitive had more vertices than that), and the buffer view of indices, or of a sparse
 * accessor's indices or values, defines no `byteStride` (accepted before). An index at or past
 * the vertex count was already refused; the property confirms it over the layouts.
 */
describe("glTF index values and index buffer views (session 38)", () => {
  const RESTART = { 5121: 0xff, 5123: 0xffff, 5125: 0xffffffff } as const;
  const NAME = { 5121: "UNSIGNED_BYTE", 5123: "UNSIGNED_SHORT", 5125: "UNSIGNED_INT" } as const;
  /** n vertices, distinct integers (vertex i at (i, i mod 7, i mod 3)). */
  const verticesOf = (n: number) => {
    const v: number[] = [];
    for (let i = 0; i < n; i++) v.push(i, i % 7, i % 3);
    return v;
  };
  // Enough vertices that the restart value would name a vertex (UNSIGNED_INT: a few, as no
  // primitive can have 2^32 vertices; refused for the value, not as past the last vertex).
  const arb = fc
    .record({
      ct: fc.constantFrom(5121 as const, 5123 as const, 5125 as const),
      extra: fc.integer({ min: 1, max: 40 }),
      tris: fc.integer({ min: 1, max: 6 }),
      seed: fc.integer({ min: 0, max: 1e6 }),
      at: fc.nat(),
    })
    .map(({ ct, extra, tris, seed, at }) => {
      const n = ct === 5125 ? 3 + (extra % 10) : RESTART[ct] + extra;
      const triangles: number[] = [];
      // Indices below the restart value (and the vertex count), as the component type holds.
      const top = Math.min(n, RESTART[ct]);
      for (let k = 0; k < 3 * tris; k++) triangles.push((seed * (k + 7) + k * k) % top);
      return { ct, n, triangles, at: at % (3 * tris) };
    });

  it("an index that is the primitive-restart value is refused naming the accessor, its element and the value; one below it loads", async () => {
    await fc.assert(
      fc.asyncProperty(arb, async ({ ct, n, triangles, at }) => {
        const vertices = verticesOf(n);
        const restart = RESTART[ct];
        const bad = triangles.slice();
        bad[at] = restart;
        const e = await refusal(parseGlb(layoutGlb(vertices, bad, ct, [0, 0], [0, 0])));
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe("file:accessors[1]");
        expect(e.value).toBe(restart);
        expect(e.message).toBe(
          `file:accessors[1] holds the primitive-restart value ${restart}, the largest ${NAME[ct]}, at element ${at}: meshes[0].primitives[0].indices names it, and glTF 2.0 forbids that value in indices (use a larger component type for more vertices) (got ${restart})`,
        );
        // The largest index that is not the restart value, where it names a vertex: loaded.
        if (restart - 1 < n) {
          const good = triangles.slice();
          good[at] = restart - 1;
          const m = await parseGlb(layoutGlb(vertices, good, ct, [0, 0], [0, 0]));
          expect(Array.from(m.indices)).toEqual(good);
          expect(m.vertices[3 * (restart - 1)]).toBe(restart - 1);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("an index at or past the vertex count (below the restart value) is refused naming it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(5121 as const, 5123 as const, 5125 as const),
        fc.integer({ min: 3, max: 12 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 5 }),
        async (ct, n, past, at) => {
          const v = Math.min(n + past, RESTART[ct] - 1);
          const triangles = [0, 1, 2, 2, 1, 0];
          triangles[at] = v;
          const e = await refusal(
            parseGlb(layoutGlb(verticesOf(n), triangles, ct, [0, 0], [0, 0])),
          );
          expect(e.field).toBe("file");
          expect(e.value).toBe(v);
          expect(e.message).toContain(
            `:meshes[0].primitives[0].indices[${at}] is beyond the last vertex of its primitive (${n} vertices)`,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a byteStride on the indices' buffer view, or on a sparse accessor's indices or values view, is refused naming it and its value", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(5121 as const, 5123 as const, 5125 as const),
        fc.integer({ min: 1, max: 63 }).map((k) => 4 * k),
        fc.boolean(),
        async (ct, stride, sparse) => {
          const vertices = verticesOf(4);
          const triangles = [0, 1, 2, 0, 2, 3];
          if (!sparse) {
            const bytes = layoutGlb(vertices, triangles, ct, [0, 0], [0, 0], (j) => {
              j.bufferViews[1].byteStride = stride;
            });
            const e = await refusal(parseGlb(bytes));
            expect(e.code).toBe("invalid_value");
            expect(e.field).toBe("file:bufferViews[1].byteStride");
            expect(e.value).toBe(stride);
            expect(e.message).toBe(
              `file:bufferViews[1].byteStride must not be defined: accessors[1] (meshes[0].primitives[0].indices) reads its view as tightly packed values (glTF 2.0: the buffer view of indices, and of a sparse accessor's indices and values, has no stride) (got ${stride})`,
            );
            return;
          }
          // A sparse POSITION accessor whose one substituted vertex (index 0) and its value are
          // read from views 1 and 0; view 0, the POSITION data's, may have a stride of 12 as
          // vertex data (the same file without the sparse block loads), not as sparse values.
          const withSparse = (j: Json) => {
            j.bufferViews[0].byteStride = 12;
            j.accessors[0].sparse = {
              count: 1,
              indices: { bufferView: 1, componentType: ct },
              values: { bufferView: 0 },
            };
          };
          const plain = layoutGlb(vertices, triangles, ct, [0, 0], [0, 0], (j) => {
            j.bufferViews[0].byteStride = 12;
          });
          expect(Array.from((await parseGlb(plain)).indices)).toEqual(triangles);
          const e = await refusal(
            parseGlb(layoutGlb(vertices, triangles, ct, [0, 0], [0, 0], withSparse)),
          );
          expect(e.field).toBe("file:bufferViews[0].byteStride");
          expect(e.value).toBe(12);
          expect(e.message).toContain(
            "file:bufferViews[0].byteStride must not be defined: accessors[0].sparse.values reads",
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
