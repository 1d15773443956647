/**
 * The asynchronous query path: glTF/GLB mesh files in query lines, loaded once per session and
 * cached by absolute path; OBJ files too; the synchronous path still refuses glTF clearly.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  answerQueryLine,
  answerQueryLineAsync,
  makeQuerySession,
  QUERY_MESH_CACHE_SIZE,
} from "../../src/io/query.js";

/** A GLB with the unit right triangle (0,0,0), (1,0,0), (0,1,0) in the plane z = 0. */
async function triangleGlb(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos);
  doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
  return new NodeIO().writeBinary(doc);
}

let dir: string;
let glb: Uint8Array;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "collide-query-session-")));
  glb = await triangleGlb();
});

/** A projectPoint line on mesh `file` from (0.25, 0.25, h): the distance is |h| (hand-derived). */
const project = (file: string, h: number) =>
  JSON.stringify({
    op: "projectPoint",
    shape: { type: "mesh", file },
    point: [0.25, 0.25, h],
  });

describe("answerQueryLineAsync", () => {
  it("loads a GLB once per session: the answer stays after the file is deleted", async () => {
    writeFileSync(join(dir, "tri.glb"), glb);
    const session = makeQuerySession({ baseDir: dir });
    const first = await answerQueryLineAsync(project("tri.glb", 2), 0, session);
    expect(first.failed).toBe(false);
    const r = JSON.parse(first.line) as {
      id: number;
      result: { distance: number; point: number[] };
    };
    expect(r.id).toBe(0);
    expect(r.result.distance).toBeCloseTo(2, 12);
    expect(r.result.point).toEqual([0.25, 0.25, 0]);
    expect(session.meshes.has(join(dir, "tri.glb"))).toBe(true);
    rmSync(join(dir, "tri.glb"));
    const again = JSON.parse((await answerQueryLineAsync(project("tri.glb", -3), 1, session)).line);
    expect(again.result.distance).toBeCloseTo(3, 12);
    // A new session reads the file again, so now it is missing.
    const fresh = await answerQueryLineAsync(
      project("tri.glb", 1),
      2,
      makeQuerySession({ baseDir: dir }),
    );
    expect(fresh.failed).toBe(true);
    expect(JSON.parse(fresh.line).error.code).toBe("io_error");
  });

  it("caches OBJ files too, and answers lines without files exactly as the sync path", async () => {
    writeFileSync(join(dir, "tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const session = makeQuerySession({ baseDir: dir });
    const a = await answerQueryLineAsync(project("tri.obj", 0.5), 0, session);
    rmSync(join(dir, "tri.obj"));
    const b = await answerQueryLineAsync(project("tri.obj", 0.5), 0, session);
    expect(b.line).toBe(a.line);
    for (const line of [
      '{"op":"intersects","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[2,0,0],"radius":1}}',
      '{"op":"nope"}',
      "{bad",
      '\uFEFF{"id":"x","op":"volume","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,0,0],"radius":1}}',
    ]) {
      expect(await answerQueryLineAsync(line, 7, session)).toEqual(answerQueryLine(line, 7));
    }
  });

  it("keeps at most QUERY_MESH_CACHE_SIZE files, dropping the least recently used", async () => {
    const session = makeQuerySession({ baseDir: dir });
    const n = QUERY_MESH_CACHE_SIZE + 3;
    for (let i = 0; i < n; i++) {
      writeFileSync(join(dir, `m${i}.glb`), glb);
      const r = await answerQueryLineAsync(project(`m${i}.glb`, 1), i, session);
      expect(r.failed).toBe(false);
    }
    expect(session.meshes.size).toBe(QUERY_MESH_CACHE_SIZE);
    expect(session.meshes.has(join(dir, "m0.glb"))).toBe(false);
    expect(session.meshes.has(join(dir, `m${n - 1}.glb`))).toBe(true);
  });

  it("the synchronous path still names the asynchronous loader for glTF", () => {
    writeFileSync(join(dir, "sync.glb"), glb);
    const r = answerQueryLine(project(join(dir, "sync.glb"), 1), 0, { allowOutside: true });
    expect(r.failed).toBe(true);
    expect(JSON.parse(r.line).error.message).toContain("answerQueryLineAsync");
  });
});
