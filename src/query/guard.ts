/**
 * The queries' guard against NaN: "validate on the bad result". The pair and shape queries do
 * not validate their shapes on entry (that would cost more than some of their kernels); instead,
 * when an answer holds a NaN — or, for a yes/no answer, when a shape holds a non-finite number
 * ({@link isShapeFinite}, checked after answering) — the query hands its arguments to
 * {@link refuseBadInputs}, which runs the full validators (`checkShape`, the pose and vector
 * checks) so that the `CollideError` names the argument and field at fault (`a.radius`,
 * `poseB.rotation`, `shape.vertices[7]`). When every argument passes, the NaN is an internal
 * fault and is refused all the same: a NaN never leaves a query.
 */
import { CollideError, describeValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import type { Contact, ContactManifold, DistanceResult } from "../narrowphase/contact.js";
import { boundingRadiusOf } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { checkShape, checkVec3 } from "../shapes/validate.js";
import { checkPose } from "./frames.js";

/** A named argument of a query, for the guard's error: `[field, value]`. */
export type NamedArg<T> = readonly [string, T];

/**
 * Throws: validates each shape (`checkShape`), then each pose (`checkPose`), then each vector
 * (`checkVec3`) under its argument name, so that the first bad one throws `CollideError`
 * (`invalid_value`) naming the field and the value; when all pass, throws `CollideError`
 * (`invalid_value`, field `""`, value `op`) reporting the NaN as an internal fault of query
 * `op`. Only called on a bad result (allocates its argument lists there, never on the valid path).
 */
export function refuseBadInputs(
  op: string,
  shapes: readonly NamedArg<Shape>[],
  poses: readonly NamedArg<Isometry>[],
  vectors: readonly NamedArg<Vec3>[] = [],
): never {
  for (const [field, shape] of shapes) checkShape(field, shape);
  for (const [field, pose] of poses) checkPose(field, pose);
  for (const [field, v] of vectors) checkVec3(field, v);
  refuseOutOfRange(op, shapes, poses, vectors);
  throw new CollideError(
    "invalid_value",
    "",
    op,
    `${op} produced NaN although its inputs pass validation (an internal fault: please report the inputs)`,
  );
}

/**
 * Throws `CollideError` (`invalid_value`) naming the largest of the inputs when their magnitudes
 * — each shape's bounding radius (a half-space's |offset|), each pose's largest translation
 * coordinate, each vector's largest coordinate — add up past an eighth of the largest double:
 * each input is finite, but the query's sums and differences of them overflow (a sphere at
 * y = −1e308 in the half-space y ≤ 1e308 is 2e308 deep). Returns when they do not.
 */
function refuseOutOfRange(
  op: string,
  shapes: readonly NamedArg<Shape>[],
  poses: readonly NamedArg<Isometry>[],
  vectors: readonly NamedArg<Vec3>[],
): void {
  let total = 0;
  let worst = -1;
  let worstField = "";
  let worstValue: unknown = null;
  const add = (m: number, field: string, value: unknown): void => {
    if (!Number.isFinite(m)) return;
    total += m;
    if (m > worst) {
      worst = m;
      worstField = field;
      worstValue = value;
    }
  };
  const largest = (v: Vec3) => Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
  for (const [field, shape] of shapes) {
    const r = boundingRadiusOf(shape);
    const offset = (shape as { offset?: unknown }).offset;
    if (!Number.isFinite(r) && typeof offset === "number") {
      add(Math.abs(offset), `${field}.offset`, offset);
    } else add(r, field, shape);
  }
  for (const [field, pose] of poses) {
    add(largest(pose.translation), `${field}.translation`, pose.translation);
  }
  for (const [field, v] of vectors) add(largest(v), field, v);
  if (Number.isFinite(8 * total) || worst < 0) return;
  throw new CollideError(
    "invalid_value",
    worstField,
    worstValue,
    `${worstField} is too large for ${op} with the other inputs: their magnitudes add up past the range of doubles (scale the scene down or move it nearer the origin) (got ${describeValue(worstValue)})`,
  );
}

/**
 * Throws for a pair query `op(a, poseA, b, poseB)` that produced NaN: {@link refuseBadInputs}
 * with the argument names "a", "b", "poseA", "poseB".
 */
export function refusePair(
  op: string,
  a: Shape,
  poseA: Isometry,
  b: Shape,
  poseB: Isometry,
): never {
  return refuseBadInputs(
    op,
    [
      ["a", a],
      ["b", b],
    ],
    [
      ["poseA", poseA],
      ["poseB", poseB],
    ],
  );
}

/** True when a component of `v` is NaN (infinities are not NaN: they may be a true answer). */
export function hasNaN3(v: Vec3): boolean {
  return Number.isNaN(v.x) || Number.isNaN(v.y) || Number.isNaN(v.z);
}

/** True when the distance or a witness point of `d` is NaN. */
export function distanceHasNaN(d: DistanceResult): boolean {
  return Number.isNaN(d.distance) || hasNaN3(d.pointA) || hasNaN3(d.pointB);
}

/** True when the distance, the normal or a witness point of `c` is NaN. */
export function contactHasNaN(c: Contact): boolean {
  return Number.isNaN(c.distance) || hasNaN3(c.normal) || hasNaN3(c.pointA) || hasNaN3(c.pointB);
}

/** True when the normal or one of the `count` points of `m` holds a NaN. */
export function manifoldHasNaN(m: ContactManifold): boolean {
  if (hasNaN3(m.normal)) return true;
  for (let i = 0; i < m.count; i++) {
    const p = m.points[i];
    if (Number.isNaN(p.distance) || hasNaN3(p.pointA) || hasNaN3(p.pointB)) return true;
  }
  return false;
}
