/**
 * The box, by half extents about its local origin: an AABB when its pose has no rotation, an
 * OBB otherwise. Conversions between the min/max and centre + half-extents forms of an AABB
 * live here and in src/math/aabb.ts.
 */

import { checkFieldArg, invalidValue } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as mat3 from "../math/mat3.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import {
  checkNonNegativeVec3,
  checkShapeExtent,
  checkShapeVec3,
  checkVec3,
  maxAbs3,
} from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/cuboid.js";

/** A box with half extents `halfExtents` (≥ 0 on every axis, scene units) about its origin. */
export interface Cuboid {
  readonly type: typeof ShapeType.Cuboid;
  readonly halfExtents: Vec3;
}

/**
 * A box with half extents `halfExtents` (each ≥ 0, scene units; zero gives a flat or degenerate
 * box). Throws `CollideError` naming `field` (default "halfExtents") when a half extent is
 * negative, not finite or not below `MESH_COORDINATE_LIMIT` (2^1023, every shape's size limit).
 */
export function makeCuboid(halfExtents: Vec3, field = "halfExtents"): Cuboid {
  // makeCuboid(min, max) would name the second corner as the field ("[object Object] must…").
  checkFieldArg(
    "makeCuboid",
    field,
    "makeCuboid takes the half extents only; for two corners use makeCuboidFromMinMax(min, max)",
  );
  checkShapeVec3(field, halfExtents);
  checkNonNegativeVec3(field, halfExtents);
  checkShapeExtent(field, halfExtents, maxAbs3(halfExtents), "a half extent");
  return brandShape({ type: ShapeType.Cuboid, halfExtents: vec3.clone(halfExtents) });
}

/**
 * An AABB given by its corners as a box plus its centre (the pose translation): the min/max
 * form converted to centre + half extents. Throws when min > max on an axis or a value is not
 * finite.
 */
export function makeCuboidFromMinMax(
  min: Vec3,
  max: Vec3,
  field = "",
): { shape: Cuboid; center: Vec3 } {
  checkFieldArg("makeCuboidFromMinMax", field, "makeCuboidFromMinMax takes the two corners");
  const p = field ? `${field}.` : "";
  checkVec3(`${p}min`, min);
  checkVec3(`${p}max`, max);
  if (!(min.x <= max.x && min.y <= max.y && min.z <= max.z)) {
    invalidValue(`${p}max`, max, "must be ≥ min on every axis");
  }
  // Halved before the sum where min + max overflows (corners 1e308 and 1.7e308, whose centre
  // 1.35e308 is a double: fresh41 02/03, the centre had been Infinity, refused as a non-finite
  // `min` or returned as is); as before elsewhere, where halving first would round subnormal
  // corners. Both halves are then below 2^1023, so their sum is finite.
  const mid = (lo: number, hi: number) =>
    Number.isFinite(lo + hi) ? 0.5 * (lo + hi) : 0.5 * lo + 0.5 * hi;
  const center = vec3.create(mid(min.x, max.x), mid(min.y, max.y), mid(min.z, max.z));
  // Halved before the difference where max − min overflows (corners ±1e308, whose half extent
  // 1e308 is then refused by its size, not as "not finite"); as before elsewhere, where halving
  // first would round subnormal corners.
  const half = (lo: number, hi: number) =>
    Number.isFinite(hi - lo) ? 0.5 * (hi - lo) : 0.5 * hi - 0.5 * lo;
  const h = vec3.create(half(min.x, max.x), half(min.y, max.y), half(min.z, max.z));
  return { shape: makeCuboid(h, `${p}max`), center };
}

/** out = the box's support point in local direction `dir` (the corner with matching signs). */
export function supportCuboid(out: Vec3, c: Cuboid, dir: Vec3): Vec3 {
  const h = c.halfExtents;
  return vec3.set(out, dir.x >= 0 ? h.x : -h.x, dir.y >= 0 ? h.y : -h.y, dir.z >= 0 ? h.z : -h.z);
}

const rotation = mat3.create();

/**
 * out = the tight world AABB of the box under `pose`: centre t, half extents |R|·h
 * (Ericson 2005, §4.2.6; Arvo 1990).
 */
export function aabbCuboid(out: Aabb, c: Cuboid, pose: Isometry): Aabb {
  const m = mat3.fromQuat(rotation, pose.rotation);
  const h = c.halfExtents;
  const ex = Math.abs(m[0]) * h.x + Math.abs(m[1]) * h.y + Math.abs(m[2]) * h.z;
  const ey = Math.abs(m[3]) * h.x + Math.abs(m[4]) * h.y + Math.abs(m[5]) * h.z;
  const ez = Math.abs(m[6]) * h.x + Math.abs(m[7]) * h.y + Math.abs(m[8]) * h.z;
  const t = pose.translation;
  vec3.set(out.min, t.x - ex, t.y - ey, t.z - ez);
  vec3.set(out.max, t.x + ex, t.y + ey, t.z + ez);
  return out;
}
