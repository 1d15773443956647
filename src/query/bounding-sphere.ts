/** The `boundingSphere` query: a sphere enclosing a point set by the mean, Ritter or exact method. */

import { invalidValue } from "../errors.js";
import type { BoundingSphere } from "../geometry/bounding-sphere.js";
import {
  boundingSphereExact,
  boundingSphereMean,
  boundingSphereRitter,
  makeBoundingSphere,
} from "../geometry/bounding-sphere.js";

/** How to compute a bounding sphere: centroid + farthest point, Ritter 1990, or Welzl 1991. */
export type BoundingSphereMethod = "mean" | "ritter" | "exact";

/**
 * A sphere containing every point of `points` (packed xyz, in scene units): `mean` = centroid
 * and the farthest point's distance; `ritter` = Ritter's method (Ericson 2005, §4.3.2);
 * `exact` = the minimum enclosing sphere (Welzl 1991). Every point lies in the sphere exactly
 * (|p − c|² ≤ r² in exact arithmetic for the returned doubles). Throws `CollideError` for an
 * empty set, a non-finite coordinate, a radius past the largest double (`points`), or an
 * unknown method.
 */
export function boundingSphereOfPoints(
  points: ArrayLike<number>,
  method: BoundingSphereMethod,
  out: BoundingSphere = makeBoundingSphere(),
): BoundingSphere {
  switch (method) {
    case "mean":
      return boundingSphereMean(out, points);
    case "ritter":
      return boundingSphereRitter(out, points);
    case "exact":
      return boundingSphereExact(out, points);
  }
  return invalidValue("method", method, "must be mean, ritter or exact");
}
