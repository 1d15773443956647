/**
 * The JSON shapes of docs/FORMATS.md and their conversion to Collide shapes with poses.
 * Vectors are `[x, y, z]`, rotations unit quaternions `[x, y, z, w]` (length within 1e-6 of 1,
 * then normalised before use; farther from unit an error); an omitted rotation is the identity. Unknown fields are errors.
 * Each `type` is read by its form in the scene forms' table (src/io/scene-forms.ts), which the
 * io side of the shape definitions fills (src/io/defs/); this file only dispatches by name.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
// Every shape type of the main entry, so that every JSON name is known.
import "../index.js";
// Every built-in scene form, in the docs/FORMATS.md order.
import "./defs/index.js";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import type { MeshData } from "./mesh-loaders.js";
import { loadMeshFileSync } from "./mesh-loaders.js";
import {
  type PosedShape,
  type SceneFormContext,
  sceneForm,
  sceneFormNames,
  sceneFormSchema,
} from "./scene-forms.js";
import { echoAsGiven, formatPath, parseWith } from "./validate-json.js";

export type { PosedShape } from "./scene-forms.js";

/** The JSON shape type names this version accepts (the types registered when it loads). */
export const SHAPE_TYPES: readonly string[] = sceneFormNames();

/** {@link SHAPE_TYPES} and the names of types registered since (for messages). */
function shapeTypeNames(): string[] {
  return [...SHAPE_TYPES, ...sceneFormNames().filter((n) => !SHAPE_TYPES.includes(n))];
}

/** Types named by docs/FORMATS.md that later versions add. */
const LATER_TYPES = new Set<string>([]);

/**
 * Where `mesh` shapes find their `file`s: paths are resolved against `baseDir` (the scene file's
 * folder; the working directory for a query line) and refused when they leave it, unless
 * `allowOutside`. `meshFiles` holds files already loaded (by absolute path), as the asynchronous
 * scene loader does for glTF; files not in it go to `loadMesh` (by default OBJ files are read
 * synchronously).
 */
export interface ShapeParseContext {
  /** Folder that relative mesh paths start from. @default process.cwd() */
  baseDir?: string;
  /** Allow mesh files outside `baseDir` (the `--allow-outside` flag). @default false */
  allowOutside?: boolean;
  /** Preloaded mesh files by absolute path. */
  meshFiles?: ReadonlyMap<string, MeshData>;
  /**
   * Loads a mesh file that is not in `meshFiles` (absolute path, field for errors); it may
   * throw. @default loadMeshFileSync (OBJ only)
   */
  loadMesh?: (path: string, field: string) => MeshData;
}

function realOrResolved(p: string): string {
  try {
    return existsSync(p) ? realpathSync(p) : resolve(p);
  } catch {
    return resolve(p);
  }
}

/**
 * The absolute path of mesh file `file` relative to `ctx.baseDir`. Throws `CollideError`
 * (`invalid_value` on `field`) when the path, after resolving symbolic links, leaves the base
 * folder and `ctx.allowOutside` is not set.
 */
export function resolveMeshPath(file: string, field: string, ctx: ShapeParseContext = {}): string {
  if (file === "") invalidValue(field, file, "is empty: it must name an .obj, .gltf or .glb file");
  const base = resolve(ctx.baseDir ?? process.cwd());
  const abs = resolve(base, file);
  if (!ctx.allowOutside) {
    const rel = relative(realOrResolved(base), realOrResolved(abs));
    if (rel === "") {
      invalidValue(
        field,
        file,
        `names the folder ${base} itself: it must name an .obj, .gltf or .glb file`,
      );
    }
    if (rel.startsWith("..") || isAbsolute(rel)) {
      invalidValue(
        field,
        file,
        `leaves the folder ${base} (mesh files must be inside it; allow with --allow-outside)`,
      );
    }
  }
  return abs;
}

/**
 * Parses the JSON shape at `field` (e.g. "a") into a shape and its world pose. Throws
 * `CollideError` with code `missing_field`, `unknown_field` or `invalid_value` naming the field
 * and the value as given (a vector as the array `[x, y, z]`); `unsupported_pair` for shape types
 * a later version adds. `mesh` shapes with a `file` resolve it by `ctx`
 * (`ShapeParseContext`); an unreadable file is `io_error`.
 */
export function parseShape(json: unknown, field: string, ctx: ShapeParseContext = {}): PosedShape {
  try {
    return parseShapeJson(json, field, ctx);
  } catch (e) {
    throw echoAsGiven(e, json, field);
  }
}

function parseShapeJson(json: unknown, field: string, ctx: ShapeParseContext): PosedShape {
  if (json === undefined)
    throw new CollideError("missing_field", field, undefined, `missing field ${field}`);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    invalidValue(field, json, "must be a shape object");
  }
  const type = (json as { type?: unknown }).type;
  const tfield = formatPath(field, ["type"]);
  if (type === undefined)
    throw new CollideError("missing_field", tfield, undefined, `missing field ${tfield}`);
  if (typeof type === "string" && LATER_TYPES.has(type)) {
    throw new CollideError(
      "unsupported_pair",
      tfield,
      type,
      `${tfield} ${describeValue(type)} is not supported by this version`,
    );
  }
  const form = typeof type === "string" ? sceneForm(type) : null;
  if (!form) return invalidValue(tfield, type, `must be one of ${shapeTypeNames().join(", ")}`);
  const s = parseWith(sceneFormSchema(form), json, field) as Record<string, unknown>;
  return form.read(s, field, formContext(ctx));
}

/** What the forms' readers use of `ctx`: its mesh files, and the reader for nested shapes. */
function formContext(ctx: ShapeParseContext): SceneFormContext {
  return {
    loadMesh(file, field) {
      const abs = resolveMeshPath(file, field, ctx);
      return ctx.meshFiles?.get(abs) ?? (ctx.loadMesh ?? loadMeshFileSync)(abs, field);
    },
    // A compound's children are read without the context (they hold no mesh file).
    child: (json, field) => parseShape(json, field),
  };
}
