/**
 * The capsule: a segment (its core) swept by a ball. As a rounded shape it is a core plus a
 * margin radius, so GJK runs on the segment and the radius is added analytically.
 */
import { checkFieldArg } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkPositive, checkShapeExtent, checkShapeVec3, maxAbs3 } from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/capsule.js";

/** A capsule: the points within `radius` (> 0) of the local segment from `a` to `b`. */
export interface Capsule {
  readonly type: typeof ShapeType.Capsule;
  readonly a: Vec3;
  readonly b: Vec3;
  readonly radius: number;
}

/**
 * A capsule around the local segment `a`–`b` (a = b gives a sphere) with `radius` > 0, scene
 * units. Throws `CollideError` naming `<field>.a`, `<field>.b` or `<field>.radius` for a
 * non-finite value or radius ≤ 0, and when the capsule reaches `MESH_COORDINATE_LIMIT` (2^1023,
 * every shape's size limit) in its frame: an end's coordinate (naming it), the radius, or an
 * end's coordinate plus the radius (naming radius).
 */
export function makeCapsule(a: Vec3, b: Vec3, radius: number, field = ""): Capsule {
  checkFieldArg("makeCapsule", field, "makeCapsule takes the segment's ends a, b and the radius");
  const p = field ? `${field}.` : "";
  checkShapeVec3(`${p}a`, a);
  checkShapeVec3(`${p}b`, b);
  checkPositive(`${p}radius`, radius);
  const ea = maxAbs3(a);
  const eb = maxAbs3(b);
  checkShapeExtent(`${p}a`, a, ea, "a coordinate of a");
  checkShapeExtent(`${p}b`, b, eb, "a coordinate of b");
  checkShapeExtent(`${p}radius`, radius, radius, "the radius");
  checkShapeExtent(
    `${p}radius`,
    radius,
    Math.max(ea, eb) + radius,
    "the radius added to the largest coordinate of a and b",
  );
  return brandShape({ type: ShapeType.Capsule, a: vec3.clone(a), b: vec3.clone(b), radius });
}

/** out = support point of the capsule's core segment (without the radius) in direction `dir`. */
export function supportCapsuleCore(out: Vec3, c: Capsule, dir: Vec3): Vec3 {
  return vec3.dot(c.b, dir) > vec3.dot(c.a, dir) ? vec3.copy(out, c.b) : vec3.copy(out, c.a);
}

/** out = support point of the whole capsule (core + radius) in local direction `dir`. */
export function supportCapsule(out: Vec3, c: Capsule, dir: Vec3): Vec3 {
  const len = vec3.length(dir);
  supportCapsuleCore(out, c, dir);
  if (len > 0) return vec3.addScaled(out, out, dir, c.radius / len);
  out.x += c.radius;
  return out;
}

const sa = vec3.create();
const sb = vec3.create();

/** out = the exact world AABB of the capsule under `pose`. */
export function aabbCapsule(out: Aabb, c: Capsule, pose: Isometry): Aabb {
  iso.transformPoint(sa, pose, c.a);
  iso.transformPoint(sb, pose, c.b);
  const r = c.radius;
  vec3.set(out.min, Math.min(sa.x, sb.x) - r, Math.min(sa.y, sb.y) - r, Math.min(sa.z, sb.z) - r);
  vec3.set(out.max, Math.max(sa.x, sb.x) + r, Math.max(sa.y, sb.y) + r, Math.max(sa.z, sb.z) + r);
  return out;
}
