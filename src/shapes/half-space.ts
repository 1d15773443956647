/**
 * The half-space: every point p with normal·p ≤ offset (docs/FORMATS.md `halfspace`), in its
 * local frame. It is unbounded, so it has no finite AABB and no support function; pair routines
 * against convex shapes use the convex shape's support point along −normal (its deepest point).
 */
import { UNIT_QUATERNION_SQ_SLACK } from "../constants.js";
import { checkFieldArg, invalidValue } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
import { checkFinite, checkShapeVec3 } from "./validate.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/half-space.js";

/** Tolerance on the length of a half-space normal given as unit (unitless). */
const UNIT_NORMAL_TOLERANCE = 1e-6;

/** The half-space {p : normal·p ≤ offset}; `normal` is unit and points out of the solid side. */
export interface HalfSpace {
  readonly type: typeof ShapeType.HalfSpace;
  readonly normal: Vec3;
  readonly offset: number;
}

/**
 * The half-space {p : normal·p ≤ offset}. `normal` must be a unit vector (its length within 1e-6
 * of 1; one within it is kept normalised, as a quaternion is: docs/FORMATS.md); `offset` a finite
 * length in scene units, kept as given (the plane's distance from the origin along the unit normal).
 * Throws `CollideError` naming `<field>.normal` or `<field>.offset`.
 */
export function makeHalfSpace(normal: Vec3, offset: number, field = ""): HalfSpace {
  checkFieldArg("makeHalfSpace", field, "makeHalfSpace takes the unit normal and the offset");
  const p = field ? `${field}.` : "";
  checkShapeVec3(`${p}normal`, normal);
  checkFinite(`${p}offset`, offset);
  const len = vec3.length(normal);
  if (!(Math.abs(len - 1) <= UNIT_NORMAL_TOLERANCE)) {
    invalidValue(`${p}normal`, normal, `must be a unit vector (length ${len})`);
  }
  const n = vec3.clone(normal);
  // Renormalised only when off unit by more than rounding (a unit normal keeps its bits).
  if (Math.abs(vec3.dot(n, n) - 1) > UNIT_QUATERNION_SQ_SLACK) vec3.scale(n, n, 1 / len);
  return brandShape({ type: ShapeType.HalfSpace, normal: n, offset });
}
