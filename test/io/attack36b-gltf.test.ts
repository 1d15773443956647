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
