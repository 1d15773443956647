/**
 * The JSON shapes of docs/FORMATS.md and their conversion to Collide shapes with poses.
 * Vectors are `[x, y, z]`, rotations unit quaternions `[x, y, z, w]` (length within 1e-6 of 1,
 * never silently normalised); an omitted rotation is the identity. Unknown fields are errors.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { z } from "zod";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { isConvexType } from "../narrowphase/dispatch.js";
import { makeCapsule } from "../shapes/capsule.js";
import { type Compound, makeCompound } from "../shapes/compound.js";
import { makeCone } from "../shapes/cone.js";
import { makeConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { makeCuboid, makeCuboidFromMinMax } from "../shapes/cuboid.js";
import { makeCylinder } from "../shapes/cylinder.js";
import { makeHalfSpace } from "../shapes/half-space.js";
import { makeHeightfield } from "../shapes/heightfield.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../shapes/rounded.js";
import type { ConvexShape, Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { makeSphere } from "../shapes/sphere.js";
import { makeTriangle } from "../shapes/triangle.js";
import { makeTriangleMesh } from "../shapes/triangle-mesh.js";
import { checkUnitQuat } from "../shapes/validate.js";
import type { MeshData } from "./mesh-loaders.js";
import { loadMeshFileSync, transformMeshData } from "./mesh-loaders.js";
import { echoAsGiven, formatPath, parseWith } from "./validate-json.js";

const num = z.number();
const vec = z.tuple([num, num, num]);
const quatJson = z.tuple([num, num, num, num]);

/** Schemas of the 3D JSON shapes by `type`. */
export const SHAPE_SCHEMAS = {
  sphere: z.strictObject({ type: z.literal("sphere"), center: vec, radius: num }),
  aabb: z.strictObject({ type: z.literal("aabb"), min: vec, max: vec }),
  box: z.strictObject({
    type: z.literal("box"),
    center: vec,
    halfExtents: vec,
    rotation: quatJson.optional(),
  }),
  capsule: z.strictObject({ type: z.literal("capsule"), a: vec, b: vec, radius: num }),
  cylinder: z.strictObject({
    type: z.literal("cylinder"),
    center: vec,
    halfHeight: num,
    radius: num,
    rotation: quatJson.optional(),
  }),
  cone: z.strictObject({
    type: z.literal("cone"),
    center: vec,
    halfHeight: num,
    radius: num,
    rotation: quatJson.optional(),
  }),
  convex: z.strictObject({
    type: z.literal("convex"),
    points: z.array(vec),
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  triangle: z.strictObject({ type: z.literal("triangle"), a: vec, b: vec, c: vec }),
  roundedBox: z.strictObject({
    type: z.literal("roundedBox"),
    center: vec,
    halfExtents: vec,
    radius: num,
    rotation: quatJson.optional(),
  }),
  roundedConvex: z.strictObject({
    type: z.literal("roundedConvex"),
    points: z.array(vec),
    radius: num,
    position: vec.optional(),
    rotation: quatJson.optional(),
  }),
  halfspace: z.strictObject({ type: z.literal("halfspace"), normal: vec, offset: num }),
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

/** The JSON shape type names this version accepts. */
export const SHAPE_TYPES = Object.keys(SHAPE_SCHEMAS) as (keyof typeof SHAPE_SCHEMAS)[];

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
  if (typeof type !== "string" || !(type in SHAPE_SCHEMAS)) {
    invalidValue(tfield, type, `must be one of ${SHAPE_TYPES.join(", ")}`);
  }
  const p = (k: string) => `${field}.${k}`;
  switch (type as keyof typeof SHAPE_SCHEMAS) {
    case "sphere": {
      const s = parseWith(SHAPE_SCHEMAS.sphere, json, field);
      return { shape: makeSphere(s.radius, p("radius")), pose: pose(v3(s.center), field) };
    }
    case "aabb": {
      const s = parseWith(SHAPE_SCHEMAS.aabb, json, field);
      const { shape, center } = makeCuboidFromMinMax(v3(s.min), v3(s.max), field);
      return { shape, pose: pose(center, field) };
    }
    case "box": {
      const s = parseWith(SHAPE_SCHEMAS.box, json, field);
      return {
        shape: makeCuboid(v3(s.halfExtents), p("halfExtents")),
        pose: pose(v3(s.center), field, s.rotation),
      };
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
    case "cylinder": {
      const s = parseWith(SHAPE_SCHEMAS.cylinder, json, field);
      return {
        shape: makeCylinder(s.halfHeight, s.radius, field),
        pose: pose(v3(s.center), field, s.rotation),
      };
    }
    case "cone": {
      const s = parseWith(SHAPE_SCHEMAS.cone, json, field);
      return {
        shape: makeCone(s.halfHeight, s.radius, field),
        pose: pose(v3(s.center), field, s.rotation),
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
    case "roundedBox": {
      const s = parseWith(SHAPE_SCHEMAS.roundedBox, json, field);
      return {
        shape: makeRoundedCuboid(v3(s.halfExtents), s.radius, field),
        pose: pose(v3(s.center), field, s.rotation),
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
    case "halfspace": {
      const s = parseWith(SHAPE_SCHEMAS.halfspace, json, field);
      return {
        shape: makeHalfSpace(v3(s.normal), s.offset, field),
        pose: pose(vec3.create(), field),
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
