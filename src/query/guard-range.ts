/**
 * The range check of the queries' NaN guard (src/query/guard.ts): inputs that each pass
 * validation but whose magnitudes add up past the range of doubles are refused naming the
 * largest of them. Installed when the default pair routines load (src/narrowphase/dispatch.ts).
 */
import { CollideError, describeValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { boundingRadiusOf } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { type NamedArg, setRangeCheck } from "./guard.js";

/**
 * Throws `CollideError` (`invalid_value`) naming the largest of the inputs when their magnitudes
 * — each shape's bounding radius (a half-space's |offset|), each pose's largest translation
 * coordinate, each vector's largest coordinate — add up past an eighth of the largest double:
 * each input is finite, but the query's sums and differences of them overflow (a sphere at
 * y = −1e308 in the half-space y ≤ 1e308 is 2e308 deep). Returns when they do not.
 */
export function refuseOutOfRange(
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

setRangeCheck(refuseOutOfRange);
