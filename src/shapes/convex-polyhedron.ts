/**
 * A convex polyhedron: the convex hull of a point set, with true (merged coplanar) faces, its
 * unique edges and outward face normals, as clipping and SAT need them. Built by our own
 * quickhull (src/geometry/hull.ts).
 *
 * Coplanar points make a **flat convex polygon** (Jolt's flat hulls, a Box2D polygon placed in
 * 3D: a floor tile, a door, a sign): the same record with `flat` set and two faces, the polygon
 * about its normal n and the same corners reversed about −n, on one plane. That is a closed
 * 2-manifold (V − E + F = 2) of zero thickness, so everything written for hulls holds for it
 * unchanged: the support function is the farthest vertex, the SAT axes are ±n and the edge
 * crosses, the reference/incident face for clipping is the side facing the other shape, ray
 * casts and point projection read the two planes and the side edges. A flat hull is a new shape
 * type in nothing but this flag: JSON `"convex"` and `makeConvexPolyhedron` take both.
 */

import type { ConvexHull } from "../geometry/hull.js";
import { computeConvexHull } from "../geometry/hull.js";
import { readPointSet } from "../geometry/point-set.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/convex-polyhedron.js";

/** A convex polyhedron in its local frame (the hull's arrays, read-only by convention). */
export interface ConvexPolyhedron extends ConvexHull {
  readonly type: typeof ShapeType.ConvexPolyhedron;
  /** Number of hull vertices. */
  readonly vertexCount: number;
  /** Number of faces. */
  readonly faceCount: number;
}

/**
 * The convex polyhedron hull of `points` (packed xyz or `Vec3[]`, local frame, scene units), or
 * the flat convex polygon (`flat: true`) when they are coplanar within `HULL_FLAT_FACTOR` ×
 * `hullTolerance`. Throws `CollideError` naming `field` (default "points") and holding the
 * points for non-finite coordinates, fewer than 3 points, or points all coincident or collinear.
 */
export function makeConvexPolyhedron(
  points: ArrayLike<number> | readonly Vec3[],
  field = "points",
): ConvexPolyhedron {
  const packed = readPointSet(points, field);
  const hull = computeConvexHull(packed, field, { allowFlat: true });
  return brandShape({
    type: ShapeType.ConvexPolyhedron,
    ...hull,
    vertexCount: hull.vertices.length / 3,
    faceCount: hull.faceOffsets.length - 1,
  });
}

/** out = the hull's support point (the vertex farthest along `dir`), by a linear scan. */
export function supportConvexPolyhedron(out: Vec3, c: ConvexPolyhedron, dir: Vec3): Vec3 {
  const v = c.vertices;
  const n = v.length;
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  let best = 0;
  let bestDot = -Infinity;
  for (let i = 0; i < n; i += 3) {
    const d = v[i] * x + v[i + 1] * y + v[i + 2] * z;
    if (d > bestDot) {
      bestDot = d;
      best = i;
    }
  }
  return vec3.set(out, v[best], v[best + 1], v[best + 2]);
}

const tmp = vec3.create();

/** out = the exact world AABB of the hull under `pose` (every vertex transformed). */
export function aabbConvexPolyhedron(out: Aabb, c: ConvexPolyhedron, pose: Isometry): Aabb {
  const v = c.vertices;
  vec3.set(out.min, Infinity, Infinity, Infinity);
  vec3.set(out.max, -Infinity, -Infinity, -Infinity);
  for (let i = 0; i < v.length; i += 3) {
    vec3.set(tmp, v[i], v[i + 1], v[i + 2]);
    quat.rotate(tmp, pose.rotation, tmp);
    vec3.min(out.min, out.min, tmp);
    vec3.max(out.max, out.max, tmp);
  }
  const t = pose.translation;
  vec3.add(out.min, out.min, t);
  vec3.add(out.max, out.max, t);
  return out;
}
