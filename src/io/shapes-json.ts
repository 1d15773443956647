/**
 * The JSON shapes of docs/FORMATS.md and their conversion to Collide shapes with poses.
 * Vectors are `[x, y, z]`, rotations unit quaternions `[x, y, z, w]` (length within 1e-6 of 1,
 * never silently normalised); an omitted rotation is the identity. Unknown fields are errors.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { z } from "zod";
// Every shape type of the main entry, so that every JSON name is known.
import "../index.js";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { isConvexType } from "../narrowphase/dispatch.js";
import { makeCapsule } from "../shapes/capsule.js";
import { type Compound, makeCompound } from "../shapes/compound.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeCuboidFromMinMax } from "../shapes/cuboid.js";
import { makeHeightfield } from "../shapes/heightfield.js";
import {
  findShapeDef,
  MAX_SHAPE_TYPES,
  type ShapeDef,
  type ShapeJson,
  shapeDefByJsonName,
} from "../shapes/registry.js";
import { makeRoundedConvexPolyhedron } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { makeTriangle } from "../shapes/triangle.js";
import { makeTriangleMesh } from "../shapes/triangle-mesh.js";
import { checkUnitQuat } from "../shapes/validate.js";
import type { MeshData } from "./mesh-loaders.js";
import { loadMeshFileSync, transformMeshData } from "./mesh-loaders.js";
import { echoAsGiven, formatPath, parseWith } from "./validate-json.js";

const num = z.number();
const vec = z.tuple([num, num, num]);
const quatJson = z.tuple([num, num, num, num]);

/**
 * Schemas of the 3D JSON shapes whose docs/FORMATS.md form is not a definition's JSON form plus
 * a placement (see {@link PLACED_FORMS}), by `type`: the axis-aligned box by its corners, the
 * capsule and triangle by world points, the hulls by nested points, the heightfield's hole flags,
 * the compound's children and the mesh's file.
 */
const SHAPE_SCHEMAS = {
  aabb: z.strictObject({ type: z.literal("aabb"), min: vec, max: vec }),
  capsule: z.strictObject({ type: z.literal("capsule"), a: vec, b: vec, radius: num }),
  convex: z.strictObject({
    type: z.literal("convex"),
    points: z.array(vec),
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  triangle: z.strictObject({ type: z.literal("triangle"), a: vec, b: vec, c: vec }),
  roundedConvex: z.strictObject({
    type: z.literal("roundedConvex"),
    points: z.array(vec),
    radius: num,
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  heightfield: z.strictObject({
    type: z.literal("heightfield"),
    rows: num,
    cols: num,
    heights: z.array(num),
    scale: vec,
    // Each flag is checked by makeHeightfield, which names the entry and says what is allowed.
    holes: z.array(z.any()).optional(),
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  compound: z.strictObject({
    type: z.literal("compound"),
    children: z.array(
      z.strictObject({
        shape: z.unknown(),
        position: vec.optional(),
        rotation: quatJson.optional(),
      }),
    ),
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  mesh: z.strictObject({
    type: z.literal("mesh"),
    vertices: z.array(vec).optional(),
    indices: z.array(z.tuple([num, num, num])).optional(),
    file: z.string().optional(),
    position: vec.optional(),
    rotation: quatJson.optional(),
    scale: z.union([num, vec]).optional(),
    solid: z.boolean().optional(),
  }),
} as const;

/**
 * How a docs/FORMATS.md shape form places a shape: its definition's JSON form (src/shapes/defs/,
 * `ShapeDef.json`: the schema, and the reader through the type's `make…`) under the scene's name,
 * plus the placement fields — a required `center` or an optional `position`, and an optional
 * `rotation` (a unit quaternion; identity when omitted).
 */
interface PlacedForm {
  /** The definition's JSON name (`ShapeJsonDef.name`). */
  def: string;
  /** `center`: required centre; `position`: optional origin (0 when omitted); `none`. */
  origin: "center" | "position" | "none";
  /** Whether the form takes a `rotation`. */
  rotation: boolean;
}

/**
 * The FORMATS.md forms read through the shape definitions by scene name. Every registered type
 * whose definition's JSON name is neither here nor in {@link SHAPE_SCHEMAS} (a type added after
 * these, such as a new shape's definition) is read the same way under its own name, with an
 * optional `position` and `rotation`: adding a shape needs no change here.
 */
const PLACED_FORMS: Record<string, PlacedForm> = {
  sphere: { def: "sphere", origin: "center", rotation: false },
  box: { def: "cuboid", origin: "center", rotation: true },
  cylinder: { def: "cylinder", origin: "center", rotation: true },
  cone: { def: "cone", origin: "center", rotation: true },
  roundedBox: { def: "roundedBox", origin: "center", rotation: true },
  halfspace: { def: "halfspace", origin: "none", rotation: false },
};

/** Definition JSON names that a form above or in SHAPE_SCHEMAS covers. */
const COVERED_DEFS = new Set<string>([
  ...Object.values(PLACED_FORMS).map((f) => f.def),
  ...["cuboid", "capsule", "convex", "triangle", "roundedConvex", "heightfield", "compound"],
  "mesh",
]);

/** Every definition registered (the main entry's types, imported above), in type id order. */
function registeredDefs(): ShapeDef[] {
  const out: ShapeDef[] = [];
  for (let t = 0; t < MAX_SHAPE_TYPES; t++) {
    const d = findShapeDef(t);
    if (d) out.push(d);
  }
  return out;
}

/** The placed form of a JSON shape type name, or null. */
function placedForm(type: string): PlacedForm | null {
  const f = PLACED_FORMS[type];
  if (f) return f;
  if (COVERED_DEFS.has(type) || !shapeDefByJsonName(type)) return null;
  return { def: type, origin: "position", rotation: true };
}

/** The JSON shape type names this version accepts (the types registered when it loads). */
export const SHAPE_TYPES: readonly string[] = [
  // The docs/FORMATS.md order.
  ...["sphere", "aabb", "box", "capsule", "cylinder", "cone", "convex", "triangle"],
  ...["roundedBox", "roundedConvex", "halfspace", "heightfield", "compound", "mesh"],
  ...registeredDefs()
    .map((d) => d.json.name)
    .filter((n) => !COVERED_DEFS.has(n)),
];

/** {@link SHAPE_TYPES} and the names of types registered since (for messages). */
function shapeTypeNames(): string[] {
  const later = registeredDefs()
    .map((d) => d.json.name)
    .filter((n) => !COVERED_DEFS.has(n) && !SHAPE_TYPES.includes(n));
  return [...SHAPE_TYPES, ...later];
}

const placedSchemas = new Map<string, z.ZodType>();

/** The schema of placed form `type`: the definition's, renamed, with its placement fields. */
function placedSchema(type: string, form: PlacedForm, def: ShapeDef): z.ZodType {
  let schema = placedSchemas.get(type);
  if (!schema) {
    const base = def.json.schema(z) as z.ZodObject;
    const extra: Record<string, z.ZodType> = { type: z.literal(type) };
    if (form.origin === "center") extra.center = vec;
    if (form.origin === "position") extra.position = vec.optional();
    if (form.rotation) extra.rotation = quatJson.optional();
    schema = base.extend(extra);
    placedSchemas.set(type, schema);
  }
  return schema;
}

/** Reads a placed form (see {@link PlacedForm}) through its definition. */
function parsePlaced(json: object, type: string, form: PlacedForm, field: string): PosedShape {
  const def = shapeDefByJsonName(form.def) as ShapeDef;
  const s = parseWith(placedSchema(type, form, def), json, field) as ShapeJson & {
    center?: number[];
    position?: number[];
    rotation?: number[];
  };
  const origin = s.center ?? s.position;
  return {
    shape: def.json.fromJson({ ...s, type: form.def }, field, (j, f) => definitionShape(j, f)),
    pose: pose(origin ? v3(origin) : vec3.create(), field, s.rotation),
  };
}

/** A shape in its definition's JSON form (a placed form's nested shape), local frame. */
function definitionShape(json: ShapeJson, field: string): Shape {
  const type = json !== null && typeof json === "object" ? json.type : undefined;
  const def = typeof type === "string" ? shapeDefByJsonName(type) : null;
  if (!def) return invalidValue(`${field}.type`, type, "is not a known shape type");
  const j = parseWith(def.json.schema(z), json, field) as ShapeJson;
  return def.json.fromJson(j, field, (c, f) => definitionShape(c, f));
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
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
      invalidValue(
        field,
        file,
        `leaves the folder ${base} (mesh files must be inside it; allow with --allow-outside)`,
      );
    }
  }
  return abs;
}

/** A shape with its world pose. */
export interface PosedShape {
  shape: Shape;
  pose: Isometry;
}

function v3(a: readonly number[]): Vec3 {
  return vec3.create(a[0], a[1], a[2]);
}

function rotationOf(field: string, r: readonly number[] | undefined) {
  if (!r) return { x: 0, y: 0, z: 0, w: 1 };
  const q = { x: r[0], y: r[1], z: r[2], w: r[3] };
  checkUnitQuat(field, q);
  return q;
}

function pose(translation: Vec3, field: string, r?: readonly number[]): Isometry {
  return { translation, rotation: rotationOf(`${field}.rotation`, r) };
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
  const placed = typeof type === "string" ? placedForm(type) : null;
  if (placed) return parsePlaced(json as object, type as string, placed, field);
  if (typeof type !== "string" || !(type in SHAPE_SCHEMAS)) {
    invalidValue(tfield, type, `must be one of ${shapeTypeNames().join(", ")}`);
  }
  const p = (k: string) => `${field}.${k}`;
  switch (type as keyof typeof SHAPE_SCHEMAS) {
    case "aabb": {
      const s = parseWith(SHAPE_SCHEMAS.aabb, json, field);
      const { shape, center } = makeCuboidFromMinMax(v3(s.min), v3(s.max), field);
      return { shape, pose: pose(center, field) };
    }
    case "capsule": {
      const s = parseWith(SHAPE_SCHEMAS.capsule, json, field);
      const a = v3(s.a);
      const b = v3(s.b);
      const mid = vec3.lerp(vec3.create(), a, b, 0.5);
      makeCapsule(a, b, s.radius, field);
      const half = vec3.sub(vec3.create(), b, mid);
      return {
        shape: makeCapsule(vec3.negate(vec3.create(), half), half, s.radius, field),
        pose: pose(mid, field),
      };
    }
    case "convex": {
      const s = parseWith(SHAPE_SCHEMAS.convex, json, field);
      const pts = new Float64Array(s.points.length * 3);
      for (let i = 0; i < s.points.length; i++) pts.set(s.points[i], 3 * i);
      return {
        shape: makeConvexPolyhedron(pts, p("points")),
        pose: pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation),
      };
    }
    case "roundedConvex": {
      const s = parseWith(SHAPE_SCHEMAS.roundedConvex, json, field);
      const pts = new Float64Array(s.points.length * 3);
      for (let i = 0; i < s.points.length; i++) pts.set(s.points[i], 3 * i);
      return {
        shape: makeRoundedConvexPolyhedron(pts, s.radius, field),
        pose: pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation),
      };
    }
    case "heightfield": {
      const s = parseWith(SHAPE_SCHEMAS.heightfield, json, field);
      for (let k = 0; k < 3; k++) {
        if (!(s.scale[k] > 0)) invalidValue(`${p("scale")}[${k}]`, s.scale[k], "must be > 0");
      }
      return {
        shape: makeHeightfield(
          {
            rows: s.rows,
            cols: s.cols,
            heights: s.heights,
            scale: v3(s.scale),
            ...(s.holes ? { holes: s.holes } : {}),
          },
          field,
        ),
        pose: pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation),
      };
    }
    case "compound": {
      const s = parseWith(SHAPE_SCHEMAS.compound, json, field);
      const children = s.children.map((c, i) => {
        const cf = `${field}.children[${i}]`;
        const child = parseShape(c.shape, `${cf}.shape`);
        if (!isConvexType(child.shape.type) && child.shape.type !== ShapeType.Compound) {
          invalidValue(
            `${cf}.shape.type`,
            (c.shape as { type: unknown }).type,
            "must be a convex shape or a compound",
          );
        }
        // The child's own placement (centre, or points' frame) composed with its position/rotation.
        const local = pose(c.position ? v3(c.position) : vec3.create(), cf, c.rotation);
        return {
          shape: child.shape as ConvexShape | Compound,
          pose: iso.multiply(iso.identity(), local, child.pose),
        };
      });
      return {
        shape: makeCompound(children, field),
        pose: pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation),
      };
    }
    case "mesh": {
      const s = parseWith(SHAPE_SCHEMAS.mesh, json, field);
      let vertices: Float64Array;
      let indices: ArrayLike<number>;
      if (s.file !== undefined) {
        for (const k of ["vertices", "indices"] as const) {
          if (s[k] !== undefined)
            invalidValue(p(k), "(given)", "must not be given together with file");
        }
        const abs = resolveMeshPath(s.file, p("file"), ctx);
        const data = ctx.meshFiles?.get(abs) ?? (ctx.loadMesh ?? loadMeshFileSync)(abs, p("file"));
        vertices = data.vertices;
        indices = data.indices;
      } else {
        if (s.vertices === undefined) {
          throw new CollideError(
            "missing_field",
            p("vertices"),
            undefined,
            `missing field ${p("vertices")} (or ${p("file")})`,
          );
        }
        if (s.indices === undefined) {
          throw new CollideError(
            "missing_field",
            p("indices"),
            undefined,
            `missing field ${p("indices")}`,
          );
        }
        vertices = new Float64Array(3 * s.vertices.length);
        for (let i = 0; i < s.vertices.length; i++) vertices.set(s.vertices[i], 3 * i);
        const flat = new Float64Array(3 * s.indices.length);
        for (let i = 0; i < s.indices.length; i++) flat.set(s.indices[i], 3 * i);
        indices = flat;
      }
      if (s.scale !== undefined) {
        const scale = typeof s.scale === "number" ? s.scale : v3(s.scale);
        vertices = transformMeshData(
          { vertices, indices: new Uint32Array(0) },
          { scale },
          p("scale"),
        ).vertices;
      }
      return {
        shape: makeTriangleMesh(vertices, indices, field, {
          indexPath: s.file === undefined ? "nested" : "packed",
          solid: s.solid,
        }),
        pose: pose(s.position ? v3(s.position) : vec3.create(), field, s.rotation),
      };
    }
    case "triangle": {
      const s = parseWith(SHAPE_SCHEMAS.triangle, json, field);
      // Validated as given, then placed in a local frame at its first vertex: a triangle far
      // from the origin keeps tolerances relative to its own size (b − a is exact when the
      // vertices are within a factor 2 of each other; issue 16, class 7).
      makeTriangle(v3(s.a), v3(s.b), v3(s.c), field);
      const a = v3(s.a);
      return {
        shape: makeTriangle(
          vec3.create(),
          vec3.sub(vec3.create(), v3(s.b), a),
          vec3.sub(vec3.create(), v3(s.c), a),
          field,
        ),
        pose: pose(a, field),
      };
    }
  }
  return invalidValue(tfield, type, "is not a known shape type");
}
