/**
 * Point sets as the geometry layer takes them: packed coordinates `x0, y0, z0, x1, …` or an
 * array of `{x, y, z}` points, validated once at the boundary.
 */
import { invalidValue } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";

/** A point set: packed coordinates (length a positive multiple of 3) or `{x, y, z}` points. */
export type PointSet = ArrayLike<number> | readonly Vec3[];

/**
 * Throws `CollideError` naming `field` unless `points` is an array or a typed array: a number, a
 * string, a `Map` or a plain object would otherwise read as an empty set (NaN centres) or as
 * characters.
 */
function checkPointArray(points: unknown, field: string): void {
  if (!Array.isArray(points) && !ArrayBuffer.isView(points)) {
    invalidValue(field, points, "must be an array of {x, y, z} points or of numbers (packed xyz)");
  }
}

/**
 * Packs `{x, y, z}` points into a new `Float64Array` of length 3n (allocates).
 * @throws CollideError (`invalid_value`, naming `field`) when `points` is not an array, is empty,
 * or a point is missing, an `[x, y, z]` array or has a non-finite coordinate.
 */
export function packPoints(points: readonly Vec3[], field = "points"): Float64Array {
  checkPointArray(points, field);
  if (points.length === 0) {
    invalidValue(field, points, "must hold at least one point");
  }
  const out = new Float64Array(points.length * 3);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (Array.isArray(p)) {
      invalidValue(
        field,
        p,
        `must hold {x, y, z} points or packed numbers, not [x, y, z] arrays (point ${i})`,
      );
    }
    if (p == null || !Number.isFinite(p.x) || !Number.isFinite(p.y) || !Number.isFinite(p.z)) {
      invalidValue(field, p, `must have finite coordinates (point ${i})`);
    }
    out[3 * i] = p.x;
    out[3 * i + 1] = p.y;
    out[3 * i + 2] = p.z;
  }
  return out;
}

/**
 * Validates a point set and returns its packed coordinates (the input itself when it is
 * already packed, else a new packed copy).
 * @throws CollideError (`invalid_value`, naming `field`) on a value that is not an array or a
 * typed array, an empty set, a length that is not a multiple of 3, or a non-finite coordinate.
 */
export function readPointSet(points: PointSet, field = "points"): ArrayLike<number> {
  checkPointArray(points, field);
  if (points.length === 0) {
    invalidValue(field, points, "must hold at least one point");
  }
  if (typeof points[0] !== "number") return packPoints(points as readonly Vec3[], field);
  const flat = points as ArrayLike<number>;
  if (flat.length % 3 !== 0) {
    invalidValue(field, flat.length, "must have a length that is a multiple of 3");
  }
  for (let i = 0; i < flat.length; i++) {
    if (typeof flat[i] !== "number" || !Number.isFinite(flat[i])) {
      invalidValue(field, flat[i], `must have finite coordinates (coordinate ${i})`);
    }
  }
  return flat;
}
