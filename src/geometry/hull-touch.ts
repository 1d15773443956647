/**
 * Whether a point's distance to a convex hull equals a radius exactly: the touch of a sphere (or a
 * sphere and a rounded hull's radius) resting on a hull's face, decided in rational arithmetic.
 *
 * The closest hull point of src/geometry/hull-point.ts is exact to a few ε of its feature's size,
 * so a sphere whose top lies exactly on a face (every coordinate a small dyadic rational) is
 * found 1.1e-16 apart or 2.2e-16 deep as often as touching (406 of 3000 such placements on a box
 * given as a hull, fresh43): `intersects` then said false and `distance` 5.6e-17, against the
 * touching convention ("true whenever the shapes share a point", docs/FORMATS.md, Accuracy). Where
 * the double distance lies within {@link HULL_TOUCH_BAND} of the radius, this takes the vertices
 * on the answer's supporting plane (within the band: the face, edge or vertex it found), the exact
 * nearest point of their triangles to the point (src/geometry/exact-nearest.ts, integers in units
 * of the inputs' smallest last bit), certifies it against every vertex of the hull (each behind
 * the plane through it normal to the point's offset: then no point of the hull is nearer) and
 * compares the exact squared distance with the squared radius. Allocates (BigInt); asked only
 * within the band.
 */

import type { Vec3 } from "../math/vec3.js";
import {
  type ExactNearest,
  exactCloser,
  exactNearestOnSegment,
  exactNearestOnTriangle,
  lastBitExponent,
  toScaledInt,
} from "./exact-nearest.js";

/**
 * Relative width of the band, times the magnitude of the coordinates (the point's, the closest
 * point's and the radius): where the double distance of src/geometry/hull-point.ts (exact to a
 * few ε of its feature) may stand on either side of the radius at an exact touch. Unitless.
 */
export const HULL_TOUCH_BAND = 2 ** -40;

/** Most vertices on the answer's supporting plane that the exact test takes (its triangles: k³/6). */
const PLANE_VERTICES_MAX = 16;

/** The answer: the exact distance is below the radius, equal, above; or undecided. */
export const HULL_TOUCH_BELOW = -1;
export const HULL_TOUCH_EQUAL = 0;
export const HULL_TOUCH_ABOVE = 1;
export const HULL_TOUCH_UNDECIDED = 2;

const planeIndex = new Int32Array(PLANE_VERTICES_MAX);

/**
 * The sign of dist(p, hull) − (r1 + r2), exact: {@link HULL_TOUCH_BELOW}, {@link HULL_TOUCH_EQUAL}
 * or {@link HULL_TOUCH_ABOVE}; {@link HULL_TOUCH_UNDECIDED} when the vertices on the supporting
 * plane of `closest` (normal `normal`, unit, from the hull toward `p`) are none or more than
 * {@link PLANE_VERTICES_MAX}, or their nearest point is not certified against every vertex.
 * `v` (x, y, z per vertex, `n` vertices: a hull's, a triangle's corners), `p`, `closest`: one
 * frame, scene units; r1, r2 ≥ 0 (their sum taken exactly). Allocates (BigInt).
 */
export function exactHullTouch(
  v: ArrayLike<number>,
  n: number,
  p: Vec3,
  closest: Vec3,
  normal: Vec3,
  r1: number,
  r2: number,
): number {
  let m = Math.max(Math.abs(p.x), Math.abs(p.y), Math.abs(p.z), r1, r2);
  for (let i = 0; i < 3 * n; i++) m = Math.max(m, Math.abs(v[i]));
  const tol = HULL_TOUCH_BAND * m;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const h =
      (v[3 * i] - closest.x) * normal.x +
      (v[3 * i + 1] - closest.y) * normal.y +
      (v[3 * i + 2] - closest.z) * normal.z;
    if (!(Math.abs(h) <= tol)) continue;
    if (k === PLANE_VERTICES_MAX) return HULL_TOUCH_UNDECIDED;
    planeIndex[k++] = i;
  }
  if (k === 0) return HULL_TOUCH_UNDECIDED;
  // Every input an integer in units of 2^e, e the smallest last-bit exponent among them.
  let e = Number.POSITIVE_INFINITY;
  const see = (x: number): void => {
    if (x !== 0) e = Math.min(e, lastBitExponent(x));
  };
  for (let i = 0; i < 3 * n; i++) see(v[i]);
  see(p.x);
  see(p.y);
  see(p.z);
  see(r1);
  see(r2);
  if (!Number.isFinite(e)) e = 0;
  const P = [toScaledInt(p.x, e), toScaledInt(p.y, e), toScaledInt(p.z, e)];
  const at = (i: number): bigint[] => [
    toScaledInt(v[3 * i], e),
    toScaledInt(v[3 * i + 1], e),
    toScaledInt(v[3 * i + 2], e),
  ];
  const S = Array.from(planeIndex.subarray(0, k), at);
  let best: ExactNearest | null = null;
  const offer = (x: ExactNearest): void => {
    if (best === null || exactCloser(x, best)) best = x;
  };
  if (k === 1) offer(exactNearestOnSegment(S[0], S[0], P));
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      if (k === 2) offer(exactNearestOnSegment(S[i], S[j], P));
      for (let l = j + 1; l < k; l++) offer(exactNearestOnTriangle(S[i], S[j], S[l], P));
    }
  }
  const b = best as ExactNearest | null;
  if (b === null) return HULL_TOUCH_UNDECIDED;
  // The certificate: (w·den − num)·(p·den − num) ≤ 0 for every vertex w.
  const den = b.den;
  const ox = P[0] * den - b.num[0];
  const oy = P[1] * den - b.num[1];
  const oz = P[2] * den - b.num[2];
  for (let i = 0; i < n; i++) {
    const w = at(i);
    const s =
      (w[0] * den - b.num[0]) * ox + (w[1] * den - b.num[1]) * oy + (w[2] * den - b.num[2]) * oz;
    if (s > 0n) return HULL_TOUCH_UNDECIDED;
  }
  const r = toScaledInt(r1, e) + toScaledInt(r2, e);
  const rr = r * r * den * den;
  return b.sqNum < rr ? HULL_TOUCH_BELOW : b.sqNum === rr ? HULL_TOUCH_EQUAL : HULL_TOUCH_ABOVE;
}
