/**
 * Boundary checks of the collision world: a body's shape, pose and collision filter are
 * validated before anything is written, so a refused `addBody` or `setPose` leaves the world
 * exactly as it was. Shapes made by the `make…` constructors always pass; these checks catch
 * hand-written or corrupted shape objects. The shape and pose validators live in
 * src/shapes/validate.ts, below every layer that uses them, and are re-exported here under the
 * world's names.
 */
import { invalidValue } from "../errors.js";

export {
  /**
   * Throws `CollideError` unless `pose` has a finite translation and a unit quaternion rotation
   * (length within `UNIT_QUATERNION_TOLERANCE` of 1); no allocation in the valid case. The
   * shapes layer's `checkIsometry` under the world's name.
   */
  checkIsometry as checkWorldPose,
  /**
   * Throws `CollideError` (`invalid_value`, naming `field` and the sub-field) unless `shape` is
   * a well-formed shape the world's narrow phase supports (see src/shapes/validate.ts).
   */
  checkShape,
  /**
   * The shape a body keeps: a made shape itself, a hand-built one validated and copied by its
   * `make…` (see src/shapes/validate.ts).
   */
  keptShape,
} from "../shapes/validate.js";

/** Throws `CollideError` unless `v` is an unsigned 32-bit integer (a layer or mask). */
export function checkFilterBits(field: string, v: number): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    invalidValue(field, v, "must be an integer in [0, 2^32 − 1]");
  }
}
