/**
 * The frame at a far primitive's centre for the point projections (issue 16, fresh-user
 * finding 43/07): a triangle or a capsule's core given by coordinates far from its frame's origin
 * (world coordinates at 1e13 with an identity pose) had its projection's "on it" tolerance
 * (a fraction of the point's own coordinates, src/geometry/triangle-projection.ts, and of the
 * capsule's, src/shapes/defs/helpers.ts `projectOnBall`) at 1e13 · 1e-13 = 1: a point 0.75 off
 * was called inside. The same primitive placed by a pose is answered in its local frame, where
 * those tolerances follow its size. So a primitive whose coordinates lie more than
 * {@link FAR_CENTRE_RATIO} times its extent from the origin is moved, with the point, by −c for a
 * point c of a coarse power-of-two grid inside its box (per axis: the middle of its range rounded
 * to a multiple of the least power of two at least that range, as the far hull's frame,
 * src/shapes/hull-frame.ts), when every such difference is exact (checked by TwoSum); the answer
 * is then that of the moved primitive, its point moved back by +c (one rounding at its world
 * magnitude, as a posed primitive's). Allocation free.
 */
import type { Vec3 } from "../math/vec3.js";

/** Coordinates beyond this many extents from the origin move to the centre's frame (4). */
export const FAR_CENTRE_RATIO = 4;

/**
 * The power-of-two grid point nearest the middle of [lo, hi] on a grid at least hi − lo wide (lo
 * when the range is empty or not finite; the grid the least power of two ≥ hi − lo, capped at
 * 2^1023 so that both loops end for any finite lo ≤ hi — uncapped, g doubled to Infinity for a
 * range above 2^1023 and the halving loop never ended, issue attack36). May be ±Infinity when the
 * middle rounds to the grid point past the largest double: callers refuse a centre not finite.
 * Shared with src/shapes/hull-frame.ts.
 */
export function gridCentre(lo: number, hi: number): number {
  const w = hi - lo;
  if (!(w > 0 && w < Number.POSITIVE_INFINITY)) return lo;
  let g = 1;
  while (g < w && g < 2 ** 1023) g *= 2;
  while (g > 2 ** -1074 && g / 2 >= w) g /= 2;
  return Math.round((lo / 2 + hi / 2) / g) * g;
}

/**
 * Writes to `out` the grid centre of the box [lo, hi] (per axis) and returns true when the box's
 * largest coordinate lies more than {@link FAR_CENTRE_RATIO} times `reach` (the primitive's
 * extent, at least its largest range) from the origin; false (out unspecified) otherwise, or when
 * the centre is not finite.
 */
export function farGridCentre(out: Vec3, lo: Vec3, hi: Vec3, reach: number): boolean {
  const m = Math.max(
    Math.abs(lo.x),
    Math.abs(lo.y),
    Math.abs(lo.z),
    Math.abs(hi.x),
    Math.abs(hi.y),
    Math.abs(hi.z),
  );
  if (!(reach >= 0 && m > FAR_CENTRE_RATIO * reach && Number.isFinite(m))) return false;
  out.x = gridCentre(lo.x, hi.x);
  out.y = gridCentre(lo.y, hi.y);
  out.z = gridCentre(lo.z, hi.z);
  return Number.isFinite(out.x) && Number.isFinite(out.y) && Number.isFinite(out.z);
}

/** The rounding error of s = fl(a + b): a + b − s exactly (Knuth's TwoSum). */
export function twoSumError(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/** Writes a − c to `out`; true when every coordinate's difference is exact. */
export function exactOffset(out: Vec3, a: Vec3, c: Vec3): boolean {
  out.x = a.x - c.x;
  out.y = a.y - c.y;
  out.z = a.z - c.z;
  return (
    twoSumError(a.x, -c.x, out.x) === 0 &&
    twoSumError(a.y, -c.y, out.y) === 0 &&
    twoSumError(a.z, -c.z, out.z) === 0
  );
}
