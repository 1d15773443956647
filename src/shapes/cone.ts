/** The cone, axis along local +Y, apex at +halfHeight, base disc at −halfHeight. */

import { checkFieldArg } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot2Into, hypotIo } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkPositive, checkShapeExtent } from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/cone.js";

/** A solid cone: apex (0, halfHeight, 0), base disc of `radius` at y = −halfHeight. */
export interface Cone {
  readonly type: typeof ShapeType.Cone;
  readonly halfHeight: number;
  readonly radius: number;
}

/**
 * A cone of half height `halfHeight` (> 0) and base `radius` (> 0), scene units, axis local +Y
 * with the apex at +halfHeight. Throws `CollideError` naming `<field>.halfHeight` or
 * `<field>.radius` for a value that is not finite and positive, or not below
 * `MESH_COORDINATE_LIMIT` (2^1023, every shape's size limit: a cone of half height 1e308 had
 * its apex and base 2e308 apart, and a unit ball inside it was reported apart).
 */
export function makeCone(halfHeight: number, radius: number, field = ""): Cone {
  checkFieldArg("makeCone", field, "makeCone takes the half height and the radius");
  const p = field ? `${field}.` : "";
  checkPositive(`${p}halfHeight`, halfHeight);
  checkPositive(`${p}radius`, radius);
  checkShapeExtent(`${p}halfHeight`, halfHeight, halfHeight, "the half height");
  checkShapeExtent(`${p}radius`, radius, radius, "the radius");
  return brandShape({ type: ShapeType.Cone, halfHeight, radius });
}

/** out = the cone's support point in local direction `dir`: the apex or a base rim point. */
export function supportCone(out: Vec3, c: Cone, dir: Vec3): Vec3 {
  // hypot2's common case written out and the coordinates stored directly (see supportCylinder).
  const rr = dir.x * dir.x + dir.z * dir.z;
  let rho = Math.sqrt(rr);
  // (A zero pair, the axis: √0 is hypot2's 0, and the call would box its arguments.)
  if (!(rr > HYPOT_SAFE_MIN && rr < HYPOT_SAFE_MAX) && !(dir.x === 0 && dir.z === 0)) {
    hypot2Into(dir.x, dir.z);
    rho = hypotIo[0];
  }
  const h = c.halfHeight;
  const r = c.radius;
  // Apex wins when dir·apex ≥ dir·rim, i.e. dir.y·h ≥ −dir.y·h + rho·r.
  if (2 * h * dir.y >= rho * r) {
    out.x = 0;
    out.y = h;
    out.z = 0;
  } else if (rho > 0) {
    out.x = (dir.x / rho) * r;
    out.y = -h;
    out.z = (dir.z / rho) * r;
  } else {
    out.x = 0;
    out.y = -h;
    out.z = 0;
  }
  return out;
}

const axis = vec3.create();
const unitY = vec3.create(0, 1, 0);

/** out = the exact world AABB of the cone under `pose` (apex and base-disc extents). */
export function aabbCone(out: Aabb, c: Cone, pose: Isometry): Aabb {
  quat.rotate(axis, pose.rotation, unitY);
  const h = c.halfHeight;
  const r = c.radius;
  const t = pose.translation;
  const dx = r * Math.sqrt(axis.y * axis.y + axis.z * axis.z);
  const dy = r * Math.sqrt(axis.x * axis.x + axis.z * axis.z);
  const dz = r * Math.sqrt(axis.x * axis.x + axis.y * axis.y);
  const ax = axis.x * h;
  const ay = axis.y * h;
  const az = axis.z * h;
  vec3.set(
    out.min,
    t.x + Math.min(ax, -ax - dx),
    t.y + Math.min(ay, -ay - dy),
    t.z + Math.min(az, -az - dz),
  );
  vec3.set(
    out.max,
    t.x + Math.max(ax, -ax + dx),
    t.y + Math.max(ay, -ay + dy),
    t.z + Math.max(az, -az + dz),
  );
  return out;
}
