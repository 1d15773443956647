/**
 * The exact volume of a closed solid mesh below a plane, for {@link overlapVolume}
 * (src/query/overlap-volume.ts). By the divergence theorem a closed solid's volume is
 * (1/3)∮(x − p₀)·n dA for any point p₀; the solid below the plane {n·p ≤ d} is bounded by the
 * mesh's triangles clipped to that side and by its cross-section in the plane, and with p₀ on
 * the plane the cross-section adds nothing ((x − p₀)·n = 0 there). So the volume is the sum of
 * the signed tetrahedra (p₀, clipped triangle fan), without finding the cross-section (Ericson
 * 2005, §8.3.4 for the clipping; the signed-tetrahedra volume of a closed mesh as in
 * Zhang & Chen 2001, "Efficient feature extraction for 2D/3D objects in mesh representation").
 */

import type { Aabb } from "../math/aabb.js";
import * as iso from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import { type CompositeView, compositeView, makeCompositePart } from "../shapes/composite.js";
import { aabbShape } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;

/**
 * The volume of the closed solid composite `s` (its parts triangles, its frame) where
 * n·p ≤ d, with a bound on its rounding: each signed tetrahedron's determinant is within a few
 * roundings of the product of its edge lengths, and `delta` (the plane's own uncertainty) moves
 * the answer by at most the cross-section's area, bounded by the mesh's area.
 * The mesh's winding sets the sign (an inward-wound mesh is counted from its total's sign).
 */
export function solidBelowPlane(
  s: Shape,
  nx: number,
  ny: number,
  nz: number,
  d: number,
  delta: number,
): { volume: number; errorBound: number } {
  const view = compositeView(s.type) as CompositeView;
  const box: Aabb = aabbShape({ min: vec3.create(), max: vec3.create() }, s, iso.identity());
  const mx = 0.5 * (box.min.x + box.max.x);
  const my = 0.5 * (box.min.y + box.max.y);
  const mz = 0.5 * (box.min.z + box.max.z);
  const nn = nx * nx + ny * ny + nz * nz;
  // p₀: the plane's point nearest the box's centre.
  const t = (nx * mx + ny * my + nz * mz - d) / nn;
  const px = mx - t * nx;
  const py = my - t * ny;
  const pz = mz - t * nz;
  const slot = makeCompositePart();
  const tri = slot.triangle;
  const poly = new Float64Array(12);
  let below = 0;
  let total = 0;
  let rounding = 0;
  let meshArea = 0;
  let minS = Infinity;
  let maxS = -Infinity;
  const count = view.partCount(s);
  for (let i = 0; i < count; i++) {
    view.part(slot, s, i);
    const a = tri.a;
    const b = tri.b;
    const c = tri.c;
    // The whole mesh's signed volume about the box's centre (its winding's sign).
    total += det(
      a.x - mx,
      a.y - my,
      a.z - mz,
      b.x - mx,
      b.y - my,
      b.z - mz,
      c.x - mx,
      c.y - my,
      c.z - mz,
    );
    meshArea +=
      0.5 * triangleArea(b.x - a.x, b.y - a.y, b.z - a.z, c.x - a.x, c.y - a.y, c.z - a.z);
    // Sutherland–Hodgman of the triangle by n·p ≤ d.
    let m = 0;
    for (let k = 0; k < 3; k++) {
      const p = k === 0 ? a : k === 1 ? b : c;
      const q = k === 0 ? b : k === 1 ? c : a;
      const sp = nx * p.x + ny * p.y + nz * p.z - d;
      const sq = nx * q.x + ny * q.y + nz * q.z - d;
      minS = Math.min(minS, sp);
      maxS = Math.max(maxS, sp);
      if (sp <= 0) {
        poly[3 * m] = p.x;
        poly[3 * m + 1] = p.y;
        poly[3 * m + 2] = p.z;
        m++;
      }
      if ((sp < 0 && sq > 0) || (sp > 0 && sq < 0)) {
        const u = sp / (sp - sq);
        poly[3 * m] = p.x + u * (q.x - p.x);
        poly[3 * m + 1] = p.y + u * (q.y - p.y);
        poly[3 * m + 2] = p.z + u * (q.z - p.z);
        m++;
      }
    }
    for (let k = 1; k + 1 < m; k++) {
      const ax = poly[0] - px;
      const ay = poly[1] - py;
      const az = poly[2] - pz;
      const bx = poly[3 * k] - px;
      const by = poly[3 * k + 1] - py;
      const bz = poly[3 * k + 2] - pz;
      const cx = poly[3 * k + 3] - px;
      const cy = poly[3 * k + 4] - py;
      const cz = poly[3 * k + 5] - pz;
      below += det(ax, ay, az, bx, by, bz, cx, cy, cz);
      rounding += Math.hypot(ax, ay, az) * Math.hypot(bx, by, bz) * Math.hypot(cx, cy, cz);
    }
  }
  // Wholly above the plane, beyond its uncertainty δ: nothing below.
  if (minS > delta) return { volume: 0, errorBound: 0 };
  const volume = Math.max(0, (total < 0 ? -below : below) / 6);
  // The determinants' rounding; and where the plane (within δ) meets the mesh, the volume it
  // can move: at most the cross-section's area (the surface below covers it) times δ.
  const errorBound =
    16 * UNIT_ROUNDOFF * (rounding / 6 + volume) + (maxS >= -delta ? meshArea * delta : 0);
  return { volume, errorBound };
}

function triangleArea(
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
): number {
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}

function det(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
): number {
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}
