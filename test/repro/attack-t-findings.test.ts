/**
 * Findings of a fresh user (attack-t) on poses and messages: an extra key on a pose
 * (`{translation, rotation, scale: 2}`) was silently ignored; a `.glb` of random bytes was "not
 * valid JSON"; an error from a line of an .obj (a bad index, a NaN) lacked the `a.file: ` prefix
 * that an empty .obj's message has.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { CollisionWorld, makeCompound, makeSphere } from "../../src/index.js";
import { loadMeshFile, loadMeshFileSync } from "../../src/io/mesh-loaders.js";

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError");
}

const scaled = {
  translation: { x: 0, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
  scale: 2,
};

describe("an unknown key of a pose is refused, naming it (attack-t)", () => {
  it("world addBody, setPose and overlapShape", () => {
    const w = new CollisionWorld();
    let e = errorOf(() => w.addBody({ shape: makeSphere(1), pose: scaled }));
    expect(e.code).toBe("unknown_field");
    expect(e.field).toBe("body.pose.scale");
    expect(e.value).toBe(2);
    const { scale: _, ...pose } = scaled;
    const h = w.addBody({ shape: makeSphere(1), pose });
    expect(w.bodyCount).toBe(1);
    e = errorOf(() => w.setPose(h, scaled));
    expect(e.field).toBe("pose.scale");
    e = errorOf(() => w.overlapShape(makeSphere(1), scaled));
    expect(e.field).toBe("pose.scale");
  });

  it("a compound child's pose", () => {
    const e = errorOf(() => makeCompound([{ shape: makeSphere(1), pose: scaled }]));
    expect(e.code).toBe("unknown_field");
    expect(e.field).toBe("children[0].pose.scale");
  });
});

describe("mesh file messages (attack-t)", () => {
  const dir = mkdtempSync(join(tmpdir(), "collide-attack-t-"));
  // Bytes that are neither JSON text nor a GLB header (a fixed pattern: no randomness needed).
  const junk = Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) & 0xff);

  it("a .glb or .gltf of random bytes is not a valid glTF/GLB file (not 'not valid JSON')", async () => {
    for (const name of ["junk.glb", "junk.gltf"]) {
      const p = join(dir, name);
      writeFileSync(p, junk);
      const e = await loadMeshFile(p, "a.file").then(
        () => null,
        (x: unknown) => x as CollideError,
      );
      expect(e).toBeInstanceOf(CollideError);
      expect(e?.message).toContain("not a valid glTF/GLB file");
      expect(e?.message).not.toContain("not valid JSON");
    }
  });

  it("an error from a line of an .obj carries the field prefix, as the empty file's does", () => {
    const cases: [string, string, RegExp][] = [
      ["badidx.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", /:4 is beyond the last vertex/],
      ["nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", /:1 vertex x must be a finite number/],
      ["empty.obj", "", /is empty/],
    ];
    for (const [name, text, why] of cases) {
      const p = join(dir, name);
      writeFileSync(p, text);
      const e = errorOf(() => loadMeshFileSync(p, "a.file"));
      expect(e.field).toBe("a.file");
      expect(e.message.startsWith("a.file: ")).toBe(true);
      expect(e.message).toMatch(why);
    }
  });
});
