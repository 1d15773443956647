/**
 * The lookups on the shape definitions' table (src/shapes/shape-def.ts): one record per shape
 * type, indexed by the numeric type id — the id the world keeps in a typed array — so that each
 * call through the table reaches a routine that only ever sees its own type (monomorphic field
 * loads, no boxed doubles). Code that needs to know something about "a shape" asks the table,
 * not a `switch (shape.type)`.
 *
 * It loads no definition: each type's record registers itself when its constructor's module
 * loads (src/shapes/sphere.ts imports src/shapes/defs/sphere.ts, …), so a shape made by a
 * `make…` always finds its record, and an application bundles only the types it makes. The main
 * entry (src/index.ts) loads every built-in type. A new type is one more definition file (see
 * docs/DESIGN.md, "Adding a shape").
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexShape, Shape, ShapeType } from "./shape.js";
import { shapeDef } from "./shape-def.js";

export type {
  LocalRayHit,
  PointProjection,
  PolytopeAxes,
  Revolution,
  ShapeDef,
  ShapeJson,
  ShapeJsonDef,
  ShapeView,
  Vec3Json,
} from "./shape-def.js";
export {
  findShapeDef,
  isPointFeatureType,
  isRoundedType,
  isSupportMappedType,
  isUnboundedType,
  MAX_SHAPE_TYPES,
  NO_DEFINITION,
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

/**
 * out = the tight world AABB of shape `s` placed at `pose`. Unchecked hot-path form (the world
 * step, the composite mid-phase): the main entry exports the checked one,
 * src/query/checked-helpers.ts.
 */
export function aabbShape(out: Aabb, s: Shape, pose: Isometry): Aabb {
  return shapeDef(s.type).aabb(out, s, pose);
}

/**
 * {@link aabbShape} for a shape whose type id `type` (equal to `s.type`) the caller keeps apart,
 * as the world does in a typed array: the definitions' table is indexed by it, so the shape's
 * own type is never loaded and each per-type routine sees one shape layout (no boxed doubles).
 */
export function aabbShapeOfType(out: Aabb, type: ShapeType, s: Shape, pose: Isometry): Aabb {
  return shapeDef(type).aabb(out, s, pose);
}

/** out = the support point of convex shape `s` in local direction `dir` (local frame). */
export function supportShape(out: Vec3, s: ConvexShape, dir: Vec3): Vec3 {
  return supportOf(out, s, dir);
}

const fullDir = /* @__PURE__ */ vec3.create();

/**
 * out = the support point of support-mapped `s` along local `dir`: the core's support pushed
 * out by the margin along `dir` (unit), any point of the shape for a zero `dir`.
 */
export function supportOf(out: Vec3, s: Shape, dir: Vec3): Vec3 {
  const d = shapeDef(s.type);
  (d.coreSupport as (out: Vec3, s: Shape, dir: Vec3) => Vec3)(out, s, dir);
  // The margin and |dir| through a typed array, the push written out: a double returned by or
  // passed to a call V8 does not inline is boxed (allocated), as under the mesh pairs' deep call
  // chains. Bitwise as vec3.length, vec3.scale and vec3.add.
  const io = supportIo;
  if (d.writeMargin !== undefined) d.writeMargin(io, s);
  else io[0] = d.margin(s);
  const m = io[0];
  if (m === 0) return out;
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  const ss = x * x + y * y + z * z;
  if (ss > HYPOT_SAFE_MIN && ss < HYPOT_SAFE_MAX) io[1] = Math.sqrt(ss);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (x === 0 && y === 0 && z === 0) io[1] = 0;
  else io[1] = hypot3(x, y, z);
  const len = io[1];
  if (!(len > 0)) return out;
  const k = m / len;
  fullDir.x = x * k;
  fullDir.y = y * k;
  fullDir.z = z * k;
  out.x = out.x + fullDir.x;
  out.y = out.y + fullDir.y;
  out.z = out.z + fullDir.z;
  return out;
}

/** [0] the margin, [1] |dir| of {@link supportOf}. */
const supportIo = /* @__PURE__ */ new Float64Array(2);

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
