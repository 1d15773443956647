/**
 * A convex solid mesh as its convex hull, for {@link overlapVolume} (src/query/overlap-volume.ts):
 * a `solid: true` triangle mesh whose solid is convex (src/shapes/triangle-mesh.ts
 * `convexSolidOfTriangleMesh`, the test the pair queries use) is answered as the hull H of its
 * vertices by the convex routes (exact clipping, slices, chords), with the bound widened by the
 * shell between the solid S and H, whose size is measured here, not assumed:
 *
 * - γ: for each triangle t with unit normal n (as rounded), how far its corners lie below the
 *   greatest n·v over all the mesh's vertices; every point q of t then has n·q within γ of that
 *   support, so the mesh surface lies within γ of H's boundary (q ∈ H: moving q by γ along n
 *   leaves H);
 * - ε: how far any mesh vertex lies beyond a face plane of H (0 unless the hull merged nearly
 *   coplanar points), and how far a hull vertex lies off its own face's plane;
 * - the region of H deeper than γ + 2ε is convex, crossed by no triangle, so of one winding
 *   number: the hull centre's (checked to lie in it, winding ±1 by the convexity test).
 *
 * So H shrunk by γ + 2ε lies in S, and S lies in H's faces pushed out by ε: |X ∩ S| lies within
 * [|X ∩ H| − (γ + 2ε)·area, |X ∩ H| + ε·area], area bounding H's surface (the surface area of the
 * box of the mesh's vertices, grown by 1e-6 of its size: a convex body's surface area is at most
 * that of any convex body holding it). For a box mesh γ and ε are a few ulps (errorBound a few
 * 1e-16 of the size³ beyond the hull route's own). The measure is cached per mesh.
 */

import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import {
  convexSolidOfTriangleMesh,
  meshTriangleNormal,
  type TriangleMesh,
} from "../shapes/triangle-mesh.js";

/** A convex solid mesh's hull and the widths of its shell (module doc). */
export interface ConvexMeshHull {
  hull: ConvexPolyhedron;
  /** Volume bound of S's shortfall from H (the inner shell), scene units³. */
  inner: number;
  /** Volume bound of S's excess over H (the outer shell), scene units³. */
  outer: number;
}

/** Unit roundoff of doubles, 2^-53. */
const UNIT_ROUNDOFF = 2 ** -53;

/** Largest triangles × vertices the shell measure scans (beyond it: the octree). */
const MAX_SCAN = 4e7;

const cache = new WeakMap<TriangleMesh, ConvexMeshHull | null>();

/**
 * The hull of a convex `solid: true` mesh and its shell's volume bounds (module doc), or null
 * when the mesh is not a solid triangle mesh, not convex, or too large to measure.
 */
export function convexMeshHull(s: Shape): ConvexMeshHull | null {
  if (s.type !== ShapeType.TriangleMesh) return null;
  const mesh = s as TriangleMesh;
  const kept = cache.get(mesh);
  if (kept !== undefined) return kept;
  const r = measure(mesh);
  cache.set(mesh, r);
  return r;
}

function measure(mesh: TriangleMesh): ConvexMeshHull | null {
  const hull = convexSolidOfTriangleMesh(mesh);
  if (hull === null) return null;
  const v = mesh.vertices;
  const nv = mesh.vertexCount;
  const idx = mesh.indices;
  if (mesh.triangleCount * nv > MAX_SCAN) return null;
  let mag = 0;
  let lx = Infinity;
  let ly = Infinity;
  let lz = Infinity;
  let hx = -Infinity;
  let hy = -Infinity;
  let hz = -Infinity;
  for (let i = 0; i < nv; i++) {
    const x = v[3 * i];
    const y = v[3 * i + 1];
    const z = v[3 * i + 2];
    mag = Math.max(mag, Math.abs(x), Math.abs(y), Math.abs(z));
    lx = Math.min(lx, x);
    ly = Math.min(ly, y);
    lz = Math.min(lz, z);
    hx = Math.max(hx, x);
    hy = Math.max(hy, y);
    hz = Math.max(hz, z);
  }
  // A dot product of a (near-)unit vector with a point and its difference with another: a few
  // roundings of the magnitude (the normal's own length off 1 by a few ulps included).
  const round = 16 * UNIT_ROUNDOFF * mag;
  // γ: every triangle's corners below the vertices' support along its normal.
  const n = vec3.create();
  // Outward: an inward-wound mesh's triangles turned (the convexity test's orientation).
  const orientation = mesh.pseudoNormals?.orientation ?? 1;
  let gamma = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    if (meshTriangleNormal(n, mesh, t) === 0) continue;
    vec3.scale(n, n, orientation);
    let top = -Infinity;
    for (let i = 0; i < nv; i++) {
      top = Math.max(top, n.x * v[3 * i] + n.y * v[3 * i + 1] + n.z * v[3 * i + 2]);
    }
    for (let c = 0; c < 3; c++) {
      const o = 3 * idx[3 * t + c];
      gamma = Math.max(gamma, top - (n.x * v[o] + n.y * v[o + 1] + n.z * v[o + 2]));
    }
  }
  // A degenerate triangle (no normal) lies on its neighbours' lines: within γ of the boundary
  // only if they are; its corners are mesh vertices, on the neighbours' triangles.
  gamma += round;
  // ε: mesh vertices beyond a face plane, hull vertices off their own faces' planes.
  const fn = hull.faceNormals;
  const fd = hull.facePlaneOffsets;
  const hv = hull.vertices;
  let eps = 0;
  for (let f = 0; f < hull.faceCount; f++) {
    const nx = fn[3 * f];
    const ny = fn[3 * f + 1];
    const nz = fn[3 * f + 2];
    for (let i = 0; i < nv; i++) {
      eps = Math.max(eps, nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2] - fd[f]);
    }
    for (let k = hull.faceOffsets[f]; k < hull.faceOffsets[f + 1]; k++) {
      const o = 3 * hull.faceVertices[k];
      eps = Math.max(eps, Math.abs(nx * hv[o] + ny * hv[o + 1] + nz * hv[o + 2] - fd[f]));
    }
  }
  eps += round;
  // The hull centre (its vertices' mean, the convexity test's winding point) deeper than γ + 2ε.
  const c = vec3.create();
  for (let k = 0; k < hv.length; k += 3) {
    c.x += hv[k];
    c.y += hv[k + 1];
    c.z += hv[k + 2];
  }
  vec3.scale(c, c, 3 / hv.length);
  let depth = Infinity;
  for (let f = 0; f < hull.faceCount; f++) {
    depth = Math.min(depth, fd[f] - (fn[3 * f] * c.x + fn[3 * f + 1] * c.y + fn[3 * f + 2] * c.z));
  }
  if (!(depth > 2 * (gamma + 2 * eps) + round)) return null;
  const grow = 1e-6 * Math.max(hx - lx, hy - ly, hz - lz);
  const ax = hx - lx + 2 * grow;
  const ay = hy - ly + 2 * grow;
  const az = hz - lz + 2 * grow;
  const area = 2 * (ax * ay + ay * az + az * ax) * (1 + 8 * UNIT_ROUNDOFF);
  const slack = 1 + 8 * UNIT_ROUNDOFF;
  return { hull, inner: (gamma + 2 * eps) * area * slack, outer: eps * area * slack };
}
