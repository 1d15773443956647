/**
 * Scene files for `collide check` and `collide view` (docs/FORMATS.md): a list of bodies, each
 * with a unique string `id`, a JSON shape, and 32-bit `layer` / `mask` collision filters
 * (defaults: layer 1, mask all bits). Two bodies are tested when
 * `(layerA & maskB) != 0 && (layerB & maskA) != 0`.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { CollideError, invalidValue } from "../errors.js";
import { parseShapesLocal } from "./local-frame.js";
import type { MeshData } from "./mesh-loaders.js";
import { loadMeshFile } from "./mesh-loaders.js";
import { sceneForm } from "./scene-forms.js";
import type { PosedShape, ShapeParseContext } from "./shapes-json.js";
import { parseShape, resolveMeshPath } from "./shapes-json.js";
import { parseJsonText, parseWith } from "./validate-json.js";

/** A body of a scene: its id, shape with pose, and collision filter. */
export interface SceneBody extends PosedShape {
  id: string;
  layer: number;
  mask: number;
  /**
   * The body's `shape` as the scene file wrote it: what `checkScene` quotes when it refuses the
   * shape (`{"type":"sphere","center":…}`, never the library's record). Absent in a scene built
   * by hand.
   */
  shapeJson?: unknown;
}

/**
 * A parsed scene. Its bodies' shapes are read in one local frame (src/io/local-frame.ts, as the
 * pair ops of `collide query` read a line): a body's world pose is its `pose` moved by `origin`.
 */
export interface Scene {
  bodies: SceneBody[];
  /**
   * The world position of the frame the bodies' poses are in (an exact shift per axis, 0 on an
   * axis not shifted); `collide check` moves its points back by it. Absent means [0, 0, 0].
   */
  origin?: [number, number, number];
}

const u32 = z
  .number()
  .int({ message: "must be an integer in [0, 2^32 − 1]" })
  .min(0, { message: "must be an integer in [0, 2^32 − 1]" })
  .max(0xffffffff, { message: "must be an integer in [0, 2^32 − 1]" });
const bodySchema = z.strictObject({
  id: z.string(),
  shape: z.unknown(),
  layer: u32.optional(),
  mask: u32.optional(),
});
const sceneSchema = z.strictObject({ bodies: z.array(z.unknown()) });

/** Default collision layer of a body. */
export const DEFAULT_LAYER = 1;
/** Default collision mask of a body: every layer. */
export const DEFAULT_MASK = 0xffffffff;

/**
 * Parses a scene object. Throws `CollideError` naming the field (`bodies[3].shape.radius`) for
 * any invalid, missing or unknown field, and for duplicate ids. `mesh` shapes' files resolve
 * through `ctx` (src/io/shapes-json.ts `ShapeParseContext`: base folder, allow-outside flag,
 * preloaded files). The shapes are read in one local frame ({@link Scene.origin}; the frame of
 * src/io/local-frame.ts `parseShapesLocal`, as `collide query` reads a line).
 */
export function parseScene(json: unknown, ctx: ShapeParseContext = {}): Scene {
  const s = parseWith(sceneSchema, json, "");
  let valid: z.infer<typeof bodySchema>[];
  try {
    const ids = new Set<string>();
    valid = s.bodies.map((raw, i) => {
      const b = parseWith(bodySchema, raw, `bodies[${i}]`);
      if (ids.has(b.id)) throw new Error("duplicate id");
      ids.add(b.id);
      return b;
    });
  } catch {
    // A body's error, in the order the bodies (and their shapes) give them.
    return parseSceneAsGiven(s.bodies, ctx);
  }
  const { shapes, o } = parseShapesLocal(
    valid.map((b) => b.shape),
    valid.map((_, i) => `bodies[${i}].shape`),
    ctx,
  );
  return {
    bodies: valid.map((b, i) => ({
      id: b.id,
      ...shapes[i],
      layer: b.layer ?? DEFAULT_LAYER,
      mask: b.mask ?? DEFAULT_MASK,
      shapeJson: b.shape,
    })),
    origin: o ?? [0, 0, 0],
  };
}

/** The scene's bodies read one by one in the world frame: throws the first invalid body's error. */
function parseSceneAsGiven(raws: readonly unknown[], ctx: ShapeParseContext): Scene {
  const seen = new Set<string>();
  const bodies = raws.map((raw, i) => {
    const f = `bodies[${i}]`;
    const b = parseWith(bodySchema, raw, f);
    if (seen.has(b.id)) invalidValue(`${f}.id`, b.id, "duplicates another body's id");
    seen.add(b.id);
    const posed = parseShape(b.shape, `${f}.shape`, ctx);
    return {
      id: b.id,
      ...posed,
      layer: b.layer ?? DEFAULT_LAYER,
      mask: b.mask ?? DEFAULT_MASK,
      shapeJson: b.shape,
    };
  });
  return { bodies, origin: [0, 0, 0] };
}

/** Options of {@link loadScene} and {@link loadSceneAsync}. */
export interface LoadSceneOptions {
  /** Allow mesh files outside the scene file's folder. @default false */
  allowOutside?: boolean;
}

/** The JSON of a scene file's text (a leading byte order mark is ignored). */
function readSceneJson(path: string, text: string): unknown {
  const json = parseJsonText(text, `scene file ${path} is not valid JSON`, "scene", path);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    const got = Array.isArray(json) ? "an array" : json === null ? "null" : typeof json;
    throw new CollideError(
      "invalid_value",
      "scene",
      path,
      `scene file ${path} must hold one JSON object with "bodies" (docs/FORMATS.md), not ${got}`,
    );
  }
  return json;
}

function ioError(path: string, e: unknown): never {
  const msg = e instanceof Error ? e.message : String(e);
  throw new CollideError("io_error", "scene", path, `cannot read scene file ${path}: ${msg}`);
}

/**
 * Reads and parses a scene file; `mesh` files are resolved relative to the scene file's folder
 * and refused outside it unless `options.allowOutside`. Synchronous, so mesh files must be OBJ
 * (use `loadSceneAsync` for glTF). Throws `CollideError("io_error")` when a file cannot be
 * read.
 */
export function loadScene(path: string, options: LoadSceneOptions = {}): Scene {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    ioError(path, e);
  }
  return parseScene(readSceneJson(path, text), {
    baseDir: dirname(path),
    allowOutside: options.allowOutside,
  });
}

/**
 * Reads and parses a scene file, loading its mesh files (OBJ and glTF/GLB) first, each once:
 * as {@link loadScene} otherwise. The promise rejects with the same `CollideError`s.
 */
export async function loadSceneAsync(path: string, options: LoadSceneOptions = {}): Promise<Scene> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    ioError(path, e);
  }
  const json = readSceneJson(path, text);
  const ctx: ShapeParseContext = { baseDir: dirname(path), allowOutside: options.allowOutside };
  const files = new Map<string, MeshData>();
  const bodies = (json as { bodies?: unknown }).bodies;
  if (Array.isArray(bodies)) {
    for (let i = 0; i < bodies.length; i++) {
      const shape = (bodies[i] as { shape?: { type?: unknown } } | null)?.shape;
      if (shape === null || typeof shape !== "object" || typeof shape.type !== "string") continue;
      const file = sceneForm(shape.type)?.meshFile?.(shape as Record<string, unknown>);
      if (typeof file !== "string") continue;
      const field = `bodies[${i}].shape.file`;
      if (file === "")
        invalidValue(field, file, "is empty: it must name an .obj, .gltf or .glb file");
      const abs = resolveMeshPath(file, field, ctx);
      if (!files.has(abs)) files.set(abs, await loadMeshFile(abs, field, ctx));
    }
  }
  return parseScene(json, { ...ctx, meshFiles: files });
}

/** True when the filters of two bodies let them be tested against each other. */
export function filtersAllow(
  layerA: number,
  maskA: number,
  layerB: number,
  maskB: number,
): boolean {
  return (layerA & maskB) !== 0 && (layerB & maskA) !== 0;
}
