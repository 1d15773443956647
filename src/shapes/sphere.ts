/** A ball centred on its local origin. */
import { checkFieldArg } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkPositive, checkShapeExtent } from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/sphere.js";

/** A sphere of `radius` (> 0, scene units) centred on the local origin. */
export interface Sphere {
  readonly type: typeof ShapeType.Sphere;
  readonly radius: number;
}

/**
 * A sphere of radius `radius` (> 0, scene units), centred on its local origin; place it with a
 * pose. Throws `CollideError` (field `field`, default "radius") when the radius is not finite
 * and positive, or not below `MESH_COORDINATE_LIMIT` (2^1023, every shape's size limit).
 */
export function makeSphere(radius: number, field = "radius"): Sphere {
  checkFieldArg("makeSphere", field, "makeSphere takes the radius only");
  checkPositive(field, radius);
  checkShapeExtent(field, radius, radius, "the radius");
  return brandShape({ type: ShapeType.Sphere, radius });
}

/** out = the sphere's support point in local direction `dir` (any length; zero gives a point on it). */
export function supportSphere(out: Vec3, s: Sphere, dir: Vec3): Vec3 {
  const len = vec3.length(dir);
  if (len > 0) return vec3.scale(out, dir, s.radius / len);
  return vec3.set(out, s.radius, 0, 0);
}

/** out = the world AABB of the sphere under `pose` (exact). */
export function aabbSphere(out: Aabb, s: Sphere, pose: Isometry): Aabb {
  const t = pose.translation;
  const r = s.radius;
  vec3.set(out.min, t.x - r, t.y - r, t.z - r);
  vec3.set(out.max, t.x + r, t.y + r, t.z + r);
  return out;
}
