/**
 * The lookups on the shape definitions' table (src/shapes/shape-def.ts): one record per shape
 * type, indexed by the numeric type id — the id the world keeps in a typed array — so that each
 * call through the table reaches a routine that only ever sees its own type (monomorphic field
 * loads, no boxed doubles). Code that needs to know something about "a shape" asks the table,
 * not a `switch (shape.type)`.
 *
 * Importing this module loads the built-in definitions (src/shapes/defs/index.ts), one file per
 * type, each registering its record when it loads. A new type is one more definition file (see
 * docs/DESIGN.md, "Adding a shape").
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import { hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import "./defs/index.js";
import type { Shape } from "./shape.js";
import { shapeDef } from "./shape-def.js";

export type {
  LocalRayHit,
  PointProjection,
  ShapeDef,
  ShapeJson,
  ShapeJsonDef,
  ShapeView,
  Vec3Json,
} from "./shape-def.js";
export {
  findShapeDef,
  isRoundedType,
  isSupportMappedType,
  MAX_SHAPE_TYPES,
  registerShape,
  shapeDef,
  shapeDefByJsonName,
} from "./shape-def.js";

/** The bounding radius of `s` (see {@link ShapeDef.boundingRadius}). */
export function boundingRadiusOf(s: Shape): number {
  return shapeDef(s.type).boundingRadius(s);
}

/** out = the world AABB of `s` at `pose` (see {@link ShapeDef.aabb}). */
export function aabbOf(out: Aabb, s: Shape, pose: Isometry): Aabb {
  return shapeDef(s.type).aabb(out, s, pose);
}

const fullDir = vec3.create();

/**
 * out = the support point of support-mapped `s` along local `dir`: the core's support pushed
 * out by the margin along `dir` (unit), any point of the shape for a zero `dir`.
 */
export function supportOf(out: Vec3, s: Shape, dir: Vec3): Vec3 {
  const d = shapeDef(s.type);
  (d.coreSupport as (out: Vec3, s: Shape, dir: Vec3) => Vec3)(out, s, dir);
  const m = d.margin(s);
  if (m === 0) return out;
  const len = vec3.length(dir);
  if (!(len > 0)) return out;
  vec3.scale(fullDir, dir, m / len);
  return vec3.add(out, out, fullDir);
}

/** Largest |vertex| of a packed xyz vertex array. */
export function maxVertexDistance(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i += 3) m = Math.max(m, hypot3(v[i], v[i + 1], v[i + 2]));
  return m;
}

/** Cached per object: shapes are immutable, and a mesh's or hull's scan is O(vertices). */
const radiusCache = new WeakMap<object, number>();

/** The value of `f()` computed once per shape object `s`. */
export function cachedPerShape(s: object, f: () => number): number {
  let r = radiusCache.get(s);
  if (r === undefined) {
    r = f();
    radiusCache.set(s, r);
  }
  return r;
}
