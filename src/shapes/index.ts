/**
 * The shapes: constructors, support functions and world AABBs, plus the generic `supportShape`
 * and `aabbShape` through the shape definitions' table (src/shapes/registry.ts).
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { shapeDef, supportOf } from "./registry.js";
import type { ConvexShape, Shape, ShapeType } from "./shape.js";

export * from "./capsule.js";
export * from "./compound.js";
export * from "./cone.js";
export * from "./convex-polyhedron.js";
export * from "./cuboid.js";
export * from "./cylinder.js";
export * from "./half-space.js";
export * from "./heightfield.js";
export * from "./rounded.js";
export * from "./shape.js";
export * from "./sphere.js";
export * from "./triangle.js";
export * from "./triangle-mesh.js";

/** out = the support point of convex shape `s` in local direction `dir` (local frame). */
export function supportShape(out: Vec3, s: ConvexShape, dir: Vec3): Vec3 {
  return supportOf(out, s, dir);
}

/** out = the tight world AABB of shape `s` placed at `pose`. */
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
