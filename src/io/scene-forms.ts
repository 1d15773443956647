/**
 * The table of the scene JSON's shape forms (docs/FORMATS.md): one {@link SceneForm} per `type`
 * name, registered by the io side of each shape's definition (src/io/defs/<shape>-json.ts, loaded
 * by src/io/defs/index.ts) so that the shape layer and `collide/core` never load zod. The reader
 * (src/io/shapes-json.ts) dispatches by name through this table. A registered type with no form
 * of its own is read by its definition's JSON form (`ShapeDef.json`) under its JSON name, with an
 * optional `position` and `rotation` ({@link defaultSceneForm}).
 */
import { z } from "zod";
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  findShapeDef,
  MAX_SHAPE_TYPES,
  type ShapeDef,
  type ShapeJson,
  shapeDefByJsonName,
} from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { checkUnitQuat } from "../shapes/validate.js";
import type { MeshData } from "./mesh-loaders.js";
import { parseWith } from "./validate-json.js";

/** A shape with its world pose. */
export interface PosedShape {
  shape: Shape;
  pose: Isometry;
}

/** What a form's reader may ask of the scene reader. */
export interface SceneFormContext {
  /**
   * The mesh data of file `file` (as written in the JSON) named at `field`: resolved against the
   * scene's folder, refused outside it unless allowed, taken from the preloaded files or loaded.
   */
  loadMesh(file: string, field: string): MeshData;
  /** A nested shape in scene form (a compound's child) with its pose. */
  child(json: unknown, field: string): PosedShape;
}

/** One scene JSON shape form: its `type` name, schema and reader. */
export interface SceneForm {
  /** The `type` field's value in the scene JSON. */
  readonly name: string;
  /** The JSON names of the definitions this form reads (no default form is made for them). */
  readonly defs: readonly string[];
  /** The zod schema of the form (built once, on first use). */
  schema(): z.ZodType;
  /** The shape and pose of `json` (already checked against {@link schema}) at `field`. */
  read(json: Record<string, unknown>, field: string, ctx: SceneFormContext): PosedShape;
  /**
   * The field that sets the translation of the shape's pose (`center`, `position`, or `min` for
   * an `aabb`), named in errors about it; absent for a form placed by its own points.
   */
  readonly translationField?: string;
  /** The mesh file the form's (unchecked) JSON names, if any: preloaded by `loadSceneAsync`. */
  meshFile?(json: Record<string, unknown>): unknown;
}

/** The JSON vector `[x, y, z]`. */
export const vecJson = z.tuple([z.number(), z.number(), z.number()]);
/** The JSON quaternion `[x, y, z, w]`. */
export const quatJson = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** A vector from its JSON form. */
export function v3(a: readonly number[]): Vec3 {
  return vec3.create(a[0], a[1], a[2]);
}

/** Nested points `[[x, y, z], …]` packed into an xyz array. */
export function packPoints(points: readonly (readonly number[])[]): Float64Array {
  const pts = new Float64Array(points.length * 3);
  for (let i = 0; i < points.length; i++) pts.set(points[i], 3 * i);
  return pts;
}

/** A pose at `translation` with the unit quaternion `r` (checked; identity when omitted). */
export function pose(translation: Vec3, field: string, r?: readonly number[]): Isometry {
  if (!r) return { translation, rotation: { x: 0, y: 0, z: 0, w: 1 } };
  const q = { x: r[0], y: r[1], z: r[2], w: r[3] };
  checkUnitQuat(`${field}.rotation`, q);
  return { translation, rotation: q };
}

/** The pose of a form's optional `position` and `rotation`. */
export function positionPose(
  s: { position?: readonly number[]; rotation?: readonly number[] },
  field: string,
): Isometry {
  return pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation);
}

const forms = new Map<string, SceneForm>();
const covered = new Set<string>();
const schemas = new Map<SceneForm, z.ZodType>();

/** Adds `form` to the table (its name must be new); registration order is the message order. */
export function registerSceneForm(form: SceneForm): void {
  if (forms.has(form.name)) throw new Error(`scene form ${form.name} registered twice`);
  forms.set(form.name, form);
  for (const d of form.defs) covered.add(d);
}

/** The (cached) schema of `form`. */
export function sceneFormSchema(form: SceneForm): z.ZodType {
  let s = schemas.get(form);
  if (!s) {
    s = form.schema();
    schemas.set(form, s);
  }
  return s;
}

/** A shape in its definition's JSON form (a placed form's nested shape), local frame. */
function definitionShape(json: ShapeJson, field: string): Shape {
  const type = json !== null && typeof json === "object" ? json.type : undefined;
  const def = typeof type === "string" ? shapeDefByJsonName(type) : null;
  if (!def) return invalidValue(`${field}.type`, type, "is not a known shape type");
  const j = parseWith(def.json.schema(z), json, field) as ShapeJson;
  return def.json.fromJson(j, field, (c, f) => definitionShape(c, f));
}

/**
 * A form that is definition `def`'s JSON form (`ShapeDef.json`: its schema, and its reader
 * through the type's `make…`) under the scene's `name`, plus placement fields: a required
 * `center`, an optional `position` (0 when omitted) or none, and optionally a `rotation`.
 */
export function placedSceneForm(
  name: string,
  def: string,
  origin: "center" | "position" | "none",
  rotation: boolean,
): SceneForm {
  const defOf = () => shapeDefByJsonName(def) as ShapeDef;
  return {
    name,
    defs: [def],
    ...(origin === "none" ? {} : { translationField: origin }),
    schema() {
      const extra: Record<string, z.ZodType> = { type: z.literal(name) };
      if (origin === "center") extra.center = vecJson;
      if (origin === "position") extra.position = vecJson.optional();
      if (rotation) extra.rotation = quatJson.optional();
      return (defOf().json.schema(z) as z.ZodObject).extend(extra);
    },
    read(json, field) {
      const s = json as ShapeJson & { center?: number[]; position?: number[]; rotation?: number[] };
      const at = s.center ?? s.position;
      return {
        shape: defOf().json.fromJson({ ...s, type: def }, field, (j, f) => definitionShape(j, f)),
        pose: pose(at ? v3(at) : vec3.create(), field, s.rotation),
      };
    },
  };
}

const defaults = new Map<string, SceneForm>();

/** Every definition registered, in type id order. */
function registeredDefs(): ShapeDef[] {
  const out: ShapeDef[] = [];
  for (let t = 0; t < MAX_SHAPE_TYPES; t++) {
    const d = findShapeDef(t);
    if (d) out.push(d);
  }
  return out;
}

/** The default form of a registered definition no form covers, or null. */
function defaultSceneForm(name: string): SceneForm | null {
  if (covered.has(name) || !shapeDefByJsonName(name)) return null;
  let f = defaults.get(name);
  if (!f) {
    f = placedSceneForm(name, name, "position", true);
    defaults.set(name, f);
  }
  return f;
}

/** The form of scene `type` name, or null. */
export function sceneForm(type: string): SceneForm | null {
  return forms.get(type) ?? defaultSceneForm(type);
}

/** The scene `type` names known now: registered forms in order, then uncovered definitions. */
export function sceneFormNames(): string[] {
  const out = [...forms.keys()];
  for (const d of registeredDefs()) {
    if (!covered.has(d.json.name) && !forms.has(d.json.name)) out.push(d.json.name);
  }
  return out;
}
