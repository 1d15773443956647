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
import { CollideError } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import type { Contact, ContactManifold, DistanceResult } from "../narrowphase/contact.js";
import type { Shape } from "../shapes/shape.js";
import { checkShape, checkVec3 } from "../shapes/validate.js";
import { checkPose } from "./frames.js";

/** A named argument of a query, for the guard's error: `[field, value]`. */
export type NamedArg<T> = readonly [string, T];

/** A check of inputs that are each valid but together out of range (throws, or returns). */
export type RangeCheck = (
  op: string,
  shapes: readonly NamedArg<Shape>[],
  poses: readonly NamedArg<Isometry>[],
  vectors: readonly NamedArg<Vec3>[],
) => void;

let rangeCheck: RangeCheck | null = null;

/**
 * Installs the check {@link refuseBadInputs} runs after the validators (src/query/guard-range.ts,
 * loaded with the default pair routines, so `collide/core` does not bundle it: there an
 * out-of-range query is refused as an internal fault instead of naming its largest input).
 */
export function setRangeCheck(f: RangeCheck): void {
  rangeCheck = f;
}

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
  rangeCheck?.(op, shapes, poses, vectors);
  throw new CollideError(
    "invalid_value",
    "",
    op,
    `${op} produced NaN although its inputs pass validation (an internal fault: please report the inputs)`,
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
