/**
 * What mesh loading may open: a glTF's buffer and image URIs obey the same folder rule as the
 * mesh `file` (relative to the .gltf, inside the allowed folder unless allow-outside, no other
 * schemes), every file read must be a regular file of at most MAX_MESH_FILE_BYTES (no devices,
 * named pipes, or huge files), accessors must fit their data, an empty `file` is named as such,
 * and a glTF without triangles is refused at load time. Error messages never quote the bytes of
 * a file they refused.
 *
 * Layout of every test: `root/` (a fresh temp folder) holds `allowed/` — the scene folder, or
 * the query session's base folder, given explicitly — and files outside it in `root/`.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { loadMeshFile, loadMeshFileSync, MAX_MESH_FILE_BYTES } from "../../src/io/mesh-loaders.js";
import { answerQueryLineAsync, makeQuerySession } from "../../src/io/query.js";
import { loadSceneAsync } from "../../src/io/scene.js";

/** The unit right triangle (0,0,0), (1,0,0), (0,1,0) as 36 bytes of little-endian float32. */
const TRIANGLE_BIN = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);

interface GltfSpec {
  uri?: string;
  byteLength?: number;
  viewLength?: number;
  count?: number;
  mode?: number;
  images?: unknown[];
}

/** glTF JSON of one primitive reading `count` VEC3 floats from buffer 0 through one view. */
function gltfJson(spec: GltfSpec = {}): string {
  const count = spec.count ?? 3;
  const byteLength = spec.byteLength ?? TRIANGLE_BIN.length;
  return JSON.stringify({
    asset: { version: "2.0" },
    buffers: [{ uri: spec.uri ?? "tri.bin", byteLength }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: spec.viewLength ?? byteLength }],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count,
        type: "VEC3",
        min: [0, 0, 0],
        max: [1, 1, 0],
      },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, mode: spec.mode ?? 4 }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    scene: 0,
    ...(spec.images ? { images: spec.images } : {}),
  });
}

/** A fresh `root/allowed/` with `tri.bin` inside and `outside.bin` (same bytes) in root. */
function makeRoot(): { root: string; allowed: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "collide-mesh-safety-")));
  const allowed = join(root, "allowed");
  mkdirSync(allowed);
  writeFileSync(join(allowed, "tri.bin"), TRIANGLE_BIN);
  writeFileSync(join(root, "outside.bin"), TRIANGLE_BIN);
  return { root, allowed };
}

/** A scene file in `allowed` with one mesh body named `file`. */
function writeScene(allowed: string, file: string): string {
  const path = join(allowed, "scene.json");
  writeFileSync(path, JSON.stringify({ bodies: [{ id: "m", shape: { type: "mesh", file } }] }));
  return path;
}

async function rejection(p: Promise<unknown>): Promise<CollideError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not reject");
}

function thrown(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

/** Loads `allowed/m.gltf` (written from `json`) through a scene, as `collide check` does. */
async function sceneWith(json: string, allowOutside = false) {
  const { root, allowed } = makeRoot();
  writeFileSync(join(allowed, "m.gltf"), json);
  const scene = writeScene(allowed, "m.gltf");
  return { root, allowed, load: () => loadSceneAsync(scene, { allowOutside }) };
}

const FIELD = "bodies[0].shape.file";
const passwd = existsSync("/etc/passwd") ? readFileSync("/etc/passwd", "utf8") : "";
/** A few bytes of /etc/passwd that a message quoting the file would contain. */
const passwdSample = passwd.split("\n")[0].slice(0, 12);

describe("glTF external resources obey the folder rule", () => {
  it("loads a scene whose glTF buffer is inside the folder", async () => {
    const { load } = await sceneWith(gltfJson());
    expect((await load()).bodies.map((b) => b.id)).toEqual(["m"]);
  });

  it("gives the corner coordinates of the buffer it read", async () => {
    const { allowed } = makeRoot();
    writeFileSync(join(allowed, "m.gltf"), gltfJson());
    const m = await loadMeshFile(join(allowed, "m.gltf"), "f", { baseDir: allowed });
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
  });

  it.each([
    ["../outside.bin"],
    ["..%2Foutside.bin"],
    ["%2E%2E/outside.bin"],
    ["sub/../../outside.bin"],
  ])("refuses %s, which leaves the folder, naming the field and URI", async (uri) => {
    const { load } = await sceneWith(gltfJson({ uri }));
    const e = await rejection(load());
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe(`${FIELD}:buffers[0].uri`);
    expect(e.value).toBe(uri);
    expect(e.message).toContain("buffers[0].uri");
    expect(e.message).toContain(uri);
    expect(e.message).toContain("--allow-outside");
  });

  it("loads the same outside buffer with allow-outside", async () => {
    const { load } = await sceneWith(gltfJson({ uri: "../outside.bin" }), true);
    expect((await load()).bodies).toHaveLength(1);
  });

  it("refuses absolute paths, and never quotes the bytes of /etc/passwd", async () => {
    for (const uri of ["/etc/passwd", "../../../../../../../../etc/passwd", "%2Fetc%2Fpasswd"]) {
      const { load } = await sceneWith(gltfJson({ uri }));
      const e = await rejection(load());
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe(`${FIELD}:buffers[0].uri`);
      expect(e.message).toContain(uri);
      if (passwdSample !== "") expect(e.message).not.toContain(passwdSample);
    }
  });

  it("with allow-outside reads /etc/passwd only as bytes: the refusal does not quote them", async () => {
    if (passwd === "") return; // no /etc/passwd on this system: nothing to leak
    const { load } = await sceneWith(gltfJson({ uri: "/etc/passwd", byteLength: 1 << 20 }), true);
    const e = await rejection(load());
    expect(e.message).not.toContain(passwdSample);
  });

  it("refuses a percent-encoded name inside the folder only when it leaves it", async () => {
    const { allowed, load } = await sceneWith(gltfJson({ uri: "my%20tri.bin" }));
    writeFileSync(join(allowed, "my tri.bin"), TRIANGLE_BIN);
    expect((await load()).bodies).toHaveLength(1);
  });

  it("refuses a symbolic link inside the folder that points outside it", async () => {
    const { root, allowed, load } = await sceneWith(gltfJson({ uri: "link.bin" }));
    symlinkSync(join(root, "outside.bin"), join(allowed, "link.bin"));
    const e = await rejection(load());
    expect(e.field).toBe(`${FIELD}:buffers[0].uri`);
    expect(e.message).toContain("leaves the folder");
  });

  it.each([["http://example.com/tri.bin"], ["file:///etc/passwd"], ["ftp:tri.bin"]])(
    "refuses the scheme of %s even with allow-outside",
    async (uri) => {
      for (const allow of [false, true]) {
        const { load } = await sceneWith(gltfJson({ uri }), allow);
        const e = await rejection(load());
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe(`${FIELD}:buffers[0].uri`);
        expect(e.message).toContain("scheme");
      }
    },
  );

  it("accepts a data: buffer and checks image URIs too", async () => {
    const data = `data:application/octet-stream;base64,${TRIANGLE_BIN.toString("base64")}`;
    const ok = await sceneWith(gltfJson({ uri: data, images: [{ uri: "tex.png" }] }));
    expect((await ok.load()).bodies).toHaveLength(1);
    const bad = await sceneWith(gltfJson({ images: [{ uri: "../../../etc/passwd" }] }));
    const e = await rejection(bad.load());
    expect(e.field).toBe(`${FIELD}:images[0].uri`);
    expect(e.message).toContain("../../../etc/passwd");
  });

  it("applies the query session's base folder to glTF resources", async () => {
    const { allowed } = makeRoot();
    writeFileSync(join(allowed, "m.gltf"), gltfJson({ uri: "../outside.bin" }));
    const line = JSON.stringify({
      op: "projectPoint",
      shape: { type: "mesh", file: "m.gltf" },
      point: [0.25, 0.25, 2],
    });
    const refused = await answerQueryLineAsync(line, 0, makeQuerySession({ baseDir: allowed }));
    expect(refused.failed).toBe(true);
    expect(refused.line).toContain("shape.file:buffers[0].uri");
    expect(refused.line).toContain("../outside.bin");
    const session = makeQuerySession({ baseDir: allowed, allowOutside: true });
    const ok = await answerQueryLineAsync(line, 0, session);
    expect(ok.failed).toBe(false);
    expect(JSON.parse(ok.line).result.distance).toBeCloseTo(2, 12);
  });

  it("resolves URIs from the .gltf's folder; the allowed folder may be above it", async () => {
    const { allowed } = makeRoot();
    mkdirSync(join(allowed, "models"));
    const path = join(allowed, "models", "m.gltf");
    writeFileSync(path, gltfJson({ uri: "../tri.bin" }));
    const m = await loadMeshFile(path, "a.file", { baseDir: allowed });
    expect(Array.from(m.vertices)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    // Without a baseDir the .gltf's own folder is the allowed one: ../tri.bin leaves it.
    const e = await rejection(loadMeshFile(path, "a.file"));
    expect(e.field).toBe("a.file:buffers[0].uri");
    expect(e.message).toContain("leaves the folder");
  });

  it("does not quote a bad .gltf's bytes in its parse error", async () => {
    const { load } = await sceneWith("secret-token-123 not json");
    const e = await rejection(load());
    expect(e.code).toBe("io_error");
    expect(e.message).not.toContain("secret-token");
  });
});

describe("only regular files of bounded size are read", () => {
  const hasDevZero = existsSync("/dev/zero");

  it("refuses /dev/zero as a buffer (absolute with allow-outside, or through a symlink)", async () => {
    if (!hasDevZero) return; // no /dev/zero on this system
    const abs = await sceneWith(gltfJson({ uri: "/dev/zero" }), true);
    const e = await rejection(abs.load());
    expect(e.code).toBe("io_error");
    expect(e.field).toBe(`${FIELD}:buffers[0].uri`);
    expect(e.message).toContain("not a regular file");
    const link = await sceneWith(gltfJson({ uri: "zero.bin" }), true);
    symlinkSync("/dev/zero", join(link.allowed, "zero.bin"));
    expect((await rejection(link.load())).message).toContain("not a regular file");
  });

  it("refuses /dev/zero as the mesh file itself, through a symlink", async () => {
    if (!hasDevZero) return; // no /dev/zero on this system
    const { allowed } = makeRoot();
    symlinkSync("/dev/zero", join(allowed, "zero.obj"));
    symlinkSync("/dev/zero", join(allowed, "zero.gltf"));
    const e = thrown(() => loadMeshFileSync(join(allowed, "zero.obj"), "a.file"));
    expect(e.code).toBe("io_error");
    expect(e.field).toBe("a.file");
    expect(e.message).toContain("not a regular file");
    const g = await rejection(loadMeshFile(join(allowed, "zero.gltf"), "a.file"));
    expect(g.message).toContain("not a regular file");
  });

  it("refuses a named pipe at once (mesh file and glTF buffer) instead of hanging", async () => {
    const { allowed } = makeRoot();
    try {
      execFileSync("mkfifo", [join(allowed, "pipe.obj")]);
      execFileSync("mkfifo", [join(allowed, "pipe.bin")]);
    } catch {
      return; // mkfifo is unavailable (not Linux/macOS): this single case cannot be set up
    }
    const e = thrown(() => loadMeshFileSync(join(allowed, "pipe.obj"), "a.file"));
    expect(e.message).toContain("not a regular file");
    writeFileSync(join(allowed, "m.gltf"), gltfJson({ uri: "pipe.bin" }));
    const g = await rejection(loadMeshFile(join(allowed, "m.gltf"), "a.file"));
    expect(g.field).toBe("a.file:buffers[0].uri");
    expect(g.message).toContain("not a regular file");
  });

  it("refuses a folder named as a buffer", async () => {
    const { allowed, load } = await sceneWith(gltfJson({ uri: "sub" }));
    mkdirSync(join(allowed, "sub"));
    expect((await rejection(load())).message).toContain("not a regular file");
  });

  it("refuses files larger than MAX_MESH_FILE_BYTES before reading them (sparse files)", async () => {
    expect(MAX_MESH_FILE_BYTES).toBe(512 * 1024 * 1024);
    const { allowed } = makeRoot();
    const big = join(allowed, "big.obj");
    writeFileSync(big, "");
    truncateSync(big, MAX_MESH_FILE_BYTES + 1);
    const e = thrown(() => loadMeshFileSync(big, "a.file"));
    expect(e.code).toBe("io_error");
    expect(e.message).toContain("MAX_MESH_FILE_BYTES");
    const bigBin = join(allowed, "big.bin");
    writeFileSync(bigBin, "");
    truncateSync(bigBin, MAX_MESH_FILE_BYTES + 1);
    writeFileSync(join(allowed, "m.gltf"), gltfJson({ uri: "big.bin" }));
    const g = await rejection(loadMeshFile(join(allowed, "m.gltf"), "a.file"));
    expect(g.field).toBe("a.file:buffers[0].uri");
    expect(g.message).toContain("MAX_MESH_FILE_BYTES");
  });

  it("accepts a file of exactly the size it declares (boundary: no off-by-one)", async () => {
    const { allowed } = makeRoot();
    writeFileSync(join(allowed, "m.gltf"), gltfJson());
    const m = await loadMeshFile(join(allowed, "m.gltf"));
    expect(m.vertices.length).toBe(9);
  });
});

describe("accessors and buffer views must fit their data", () => {
  it("refuses an accessor whose count × element size exceeds its buffer view", async () => {
    const { load } = await sceneWith(gltfJson({ count: 4 }));
    const e = await rejection(load());
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe(`${FIELD}:accessors[0]`);
    expect(e.message).toContain("48 bytes"); // 4 × 12 bytes, hand-derived
    expect(e.message).toContain("36");
  });

  it("refuses a buffer view past its buffer, and a buffer longer than its data", async () => {
    const view = await sceneWith(gltfJson({ viewLength: 48, count: 3 }));
    const e = await rejection(view.load());
    expect(e.field).toBe(`${FIELD}:bufferViews[0]`);
    const buf = await sceneWith(gltfJson({ byteLength: 48, count: 3 }));
    const f = await rejection(buf.load());
    expect(f.field).toBe(`${FIELD}:buffers[0].byteLength`);
    expect(f.message).toContain("36 bytes");
  });

  it("refuses a huge all-zero accessor (no buffer view) instead of allocating it", async () => {
    const json = JSON.parse(gltfJson()) as { accessors: Record<string, unknown>[] };
    delete json.accessors[0].bufferView;
    json.accessors[0].count = 2 ** 30;
    const { load } = await sceneWith(JSON.stringify(json));
    const e = await rejection(load());
    expect(e.field).toBe(`${FIELD}:accessors[0].count`);
  });

  it("accepts the largest count that fits (3 vertices in 36 bytes) and strips/fans", async () => {
    for (const mode of [4, 5, 6]) {
      const { allowed } = makeRoot();
      writeFileSync(join(allowed, "m.gltf"), gltfJson({ mode }));
      const m = await loadMeshFile(join(allowed, "m.gltf"));
      expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    }
  });
});

describe("clear refusals", () => {
  it('names an empty "file" as empty, not as leaving the folder', async () => {
    const { allowed } = makeRoot();
    const e = await rejection(loadSceneAsync(writeScene(allowed, ""), {}));
    expect(e.field).toBe(FIELD);
    expect(e.message).toContain("is empty");
    expect(e.message).not.toContain("leaves the folder");
    const d = thrown(() => loadMeshFileSync("", "a.file"));
    expect(d.message).toContain("is empty");
  });

  it.each([0, 1, 2, 3])("refuses a glTF whose only primitive has mode %i", async (mode) => {
    const { load } = await sceneWith(gltfJson({ mode }));
    const e = await rejection(load());
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe(FIELD);
    expect(e.message).toContain("no triangles");
    expect(e.message).toContain(`modes ${mode}`);
  });
});
