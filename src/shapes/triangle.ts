/** A triangle by its three corners in the local frame; it may be degenerate (a segment or a point). */
import { checkFieldArg } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkShapeExtent, checkShapeVec3, maxAbs3 } from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/triangle.js";
// The pair queries' frame at a far triangle's corner (src/shapes/far-frame.ts hook).
import "./triangle-frame.js";

/** A triangle with corners `a`, `b`, `c` (local frame, scene units). */
export interface Triangle {
  readonly type: typeof ShapeType.Triangle;
  readonly a: Vec3;
  readonly b: Vec3;
  readonly c: Vec3;
}

/**
 * A triangle with corners `a`, `b`, `c`; zero area is allowed. Throws `CollideError` naming
 * `<field>.a` etc. when a corner is not finite or has a coordinate not below
 * `MESH_COORDINATE_LIMIT` (2^1023, every shape's size limit, as a mesh's vertices).
 */
export function makeTriangle(a: Vec3, b: Vec3, c: Vec3, field = ""): Triangle {
  checkFieldArg("makeTriangle", field, "makeTriangle takes the three corners a, b, c");
  const p = field ? `${field}.` : "";
  checkShapeVec3(`${p}a`, a);
  checkShapeVec3(`${p}b`, b);
  checkShapeVec3(`${p}c`, c);
  checkShapeExtent(`${p}a`, a, maxAbs3(a), "a coordinate of a");
  checkShapeExtent(`${p}b`, b, maxAbs3(b), "a coordinate of b");
  checkShapeExtent(`${p}c`, c, maxAbs3(c), "a coordinate of c");
  return brandShape({
    type: ShapeType.Triangle,
    a: vec3.clone(a),
    b: vec3.clone(b),
    c: vec3.clone(c),
  });
}

/** out = the triangle's support point (a corner) in local direction `dir`. */
export function supportTriangle(out: Vec3, t: Triangle, dir: Vec3): Vec3 {
  const da = vec3.dot(t.a, dir);
  const db = vec3.dot(t.b, dir);
  const dc = vec3.dot(t.c, dir);
  if (da >= db && da >= dc) return vec3.copy(out, t.a);
  return db >= dc ? vec3.copy(out, t.b) : vec3.copy(out, t.c);
}

const p0 = vec3.create();
const p1 = vec3.create();
const p2 = vec3.create();

/** out = the exact world AABB of the triangle under `pose`. */
export function aabbTriangle(out: Aabb, t: Triangle, pose: Isometry): Aabb {
  iso.transformPoint(p0, pose, t.a);
  iso.transformPoint(p1, pose, t.b);
  iso.transformPoint(p2, pose, t.c);
  vec3.min(out.min, p0, p1);
  vec3.min(out.min, out.min, p2);
  vec3.max(out.max, p0, p1);
  vec3.max(out.max, out.max, p2);
  return out;
}
