/** The cylinder, axis along local +Y, centred on its local origin. */

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
import "./defs/cylinder.js";

/** A solid cylinder: |y| ≤ halfHeight, x² + z² ≤ radius² in its local frame. */
export interface Cylinder {
  readonly type: typeof ShapeType.Cylinder;
  readonly halfHeight: number;
  readonly radius: number;
}

/**
 * A cylinder of half height `halfHeight` (> 0) and `radius` (> 0), scene units, axis local +Y.
 * Throws `CollideError` naming `<field>.halfHeight` or `<field>.radius` for a value that is not
 * finite and positive, or not below `MESH_COORDINATE_LIMIT` (2^1023, every shape's size limit).
 */
export function makeCylinder(halfHeight: number, radius: number, field = ""): Cylinder {
  checkFieldArg("makeCylinder", field, "makeCylinder takes the half height and the radius");
  const p = field ? `${field}.` : "";
  checkPositive(`${p}halfHeight`, halfHeight);
  checkPositive(`${p}radius`, radius);
  checkShapeExtent(`${p}halfHeight`, halfHeight, halfHeight, "the half height");
  checkShapeExtent(`${p}radius`, radius, radius, "the radius");
  return brandShape({ type: ShapeType.Cylinder, halfHeight, radius });
}

/** out = the cylinder's support point in local direction `dir`. */
export function supportCylinder(out: Vec3, c: Cylinder, dir: Vec3): Vec3 {
  // hypot2's common case written out, and the coordinates stored directly, not through
  // vec3.set: inlined into a large caller whose inlining budget is spent, a call passing or
  // returning doubles boxes each one (allocates), and this runs for every support point.
  const rr = dir.x * dir.x + dir.z * dir.z;
  let rho = Math.sqrt(rr);
  // (A zero pair, the axis: √0 is hypot2's 0, and the call would box its arguments.)
  if (!(rr > HYPOT_SAFE_MIN && rr < HYPOT_SAFE_MAX) && !(dir.x === 0 && dir.z === 0)) {
    hypot2Into(dir.x, dir.z);
    rho = hypotIo[0];
  }
  out.y = dir.y >= 0 ? c.halfHeight : -c.halfHeight;
  if (rho > 0) {
    out.x = (dir.x / rho) * c.radius;
    out.z = (dir.z / rho) * c.radius;
  } else {
    out.x = 0;
    out.z = 0;
  }
  return out;
}

const axis = vec3.create();
const unitY = vec3.create(0, 1, 0);

/**
 * out = the exact world AABB of the cylinder under `pose`: along world axis i the extent is
 * |u_i|·h + r·√(1 − u_i²) for the world axis direction u, with √(1 − u_i²) computed as
 * √(u_j² + u_k²) to avoid cancellation when the axis is nearly aligned with a world axis.
 */
export function aabbCylinder(out: Aabb, c: Cylinder, pose: Isometry): Aabb {
  quat.rotate(axis, pose.rotation, unitY);
  const h = c.halfHeight;
  const r = c.radius;
  const ex = Math.abs(axis.x) * h + r * Math.sqrt(axis.y * axis.y + axis.z * axis.z);
  const ey = Math.abs(axis.y) * h + r * Math.sqrt(axis.x * axis.x + axis.z * axis.z);
  const ez = Math.abs(axis.z) * h + r * Math.sqrt(axis.x * axis.x + axis.y * axis.y);
  const t = pose.translation;
  vec3.set(out.min, t.x - ex, t.y - ey, t.z - ez);
  vec3.set(out.max, t.x + ex, t.y + ey, t.z + ez);
  return out;
}
