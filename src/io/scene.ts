/**
 * Scene files for `collide check` and `collide view` (shared/FORMATS.md): a list of bodies, each
 * with a unique string `id`, a JSON shape, and 32-bit `layer` / `mask` collision filters
 * (defaults: layer 1, mask all bits). Two bodies are tested when
 * `(layerA & maskB) != 0 && (layerB & maskA) != 0`.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { CollideError, invalidValue } from "../errors.js";
import type { PosedShape } from "./shapes-json.js";
import { parseShape } from "./shapes-json.js";
import { parseWith } from "./validate-json.js";

/** A body of a scene: its id, shape with pose, and collision filter. */
export interface SceneBody extends PosedShape {
  id: string;
  layer: number;
  mask: number;
}

/** A parsed scene. */
export interface Scene {
  bodies: SceneBody[];
}

const u32 = z.number().int().min(0).max(0xffffffff);
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
 * any invalid, missing or unknown field, and for duplicate ids.
 */
export function parseScene(json: unknown): Scene {
  const s = parseWith(sceneSchema, json, "");
  const seen = new Set<string>();
  const bodies = s.bodies.map((raw, i) => {
    const f = `bodies[${i}]`;
    const b = parseWith(bodySchema, raw, f);
    if (seen.has(b.id)) invalidValue(`${f}.id`, b.id, "duplicates another body's id");
    seen.add(b.id);
    const posed = parseShape(b.shape, `${f}.shape`);
    return { id: b.id, ...posed, layer: b.layer ?? DEFAULT_LAYER, mask: b.mask ?? DEFAULT_MASK };
  });
  return { bodies };
}

/** Reads and parses a scene file. Throws `CollideError("io_error")` when it cannot be read. */
export function loadScene(path: string): Scene {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new CollideError("io_error", "scene", path, `cannot read scene file ${path}: ${msg}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new CollideError(
      "invalid_json",
      "scene",
      path,
      `scene file ${path} is not valid JSON: ${msg}`,
    );
  }
  return parseScene(json);
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
