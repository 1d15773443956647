/**
 * Degenerate boxes for tests — flat (one half extent 0) and line-like (two) — built without the
 * code they check: the eight corners ±h of a box (repeated where an extent is 0), the box as a
 * cuboid or as the hull of those corners, a permutation of a vector's axes, and exact dyadic
 * values for half extents and offsets.
 */
import fc from "fast-check";
import type { Vec3 } from "../../src/math/vec3.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";

/**
 * The eight corners (±h.x, ±h.y, ±h.z), x outermost then y then z, minus sign first (a flat
 * box's corners come twice, a line-like box's four times).
 */
export function boxCorners(h: Vec3): Vec3[] {
  return [-1, 1].flatMap((x) =>
    [-1, 1].flatMap((y) => [-1, 1].map((z) => ({ x: x * h.x, y: y * h.y, z: z * h.z }))),
  );
}

/** The box of half extents h: a cuboid, or the convex hull of its corners when `asHull`. */
export function boxShape(h: Vec3, asHull = false): Shape {
  return asHull ? makeConvexPolyhedron(boxCorners(h)) : makeCuboid(h);
}

/** v with its axes permuted: component i of the answer is component perm[i] of v. */
export function permuted(v: Vec3, perm: readonly number[]): Vec3 {
  const a = [v.x, v.y, v.z];
  return { x: a[perm[0]], y: a[perm[1]], z: a[perm[2]] };
}

/** Multiples of 1/16 in [lo, hi]: exact in doubles, as are their sums and small products. */
export const dyadic = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.integer({ min: lo * 16, max: hi * 16 }).map((i) => i / 16);
