/** Shared builders for the triangle-mesh tests: random soups, grids, closed convex meshes. */
import { computeConvexHull } from "../../src/geometry/hull.js";
import type { Random } from "../../src/math/random.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

/** A soup of `n` random triangles of size ~`size` inside a cube of side `extent` (seeded). */
export function randomSoup(rng: Random, n: number, extent: number, size: number): TriangleMesh {
  const v: number[] = [];
  const idx: number[] = [];
  for (let t = 0; t < n; t++) {
    const cx = (rng() - 0.5) * extent;
    const cy = (rng() - 0.5) * extent;
    const cz = (rng() - 0.5) * extent;
    for (let k = 0; k < 3; k++) {
      v.push(cx + (rng() - 0.5) * size, cy + (rng() - 0.5) * size, cz + (rng() - 0.5) * size);
      idx.push(3 * t + k);
    }
  }
  return makeTriangleMesh(v, idx);
}

/** A flat grid of (n × n) squares, 2 triangles each, in the plane z = 0 over [0, n·cell]². */
export function flatGrid(n: number, cell: number): TriangleMesh {
  const v: number[] = [];
  const idx: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) v.push(i * cell, j * cell, 0);
  const at = (i: number, j: number) => j * (n + 1) + i;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      idx.push(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      idx.push(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  return makeTriangleMesh(v, idx);
}

/** The closed, outward-wound triangulated convex hull of packed points (fan per hull face). */
export function hullMesh(points: ArrayLike<number>): TriangleMesh {
  const h = computeConvexHull(points);
  const idx: number[] = [];
  for (let f = 0; f + 1 < h.faceOffsets.length; f++) {
    const s = h.faceOffsets[f];
    const e = h.faceOffsets[f + 1];
    for (let k = s + 1; k + 1 < e; k++)
      idx.push(h.faceVertices[s], h.faceVertices[k], h.faceVertices[k + 1]);
  }
  return makeTriangleMesh(h.vertices, idx);
}

/** The closed unit cube [0, s]³ as 12 outward triangles. */
export function cubeMesh(s = 1, solid = false): TriangleMesh {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push(k & 1 ? s : 0, k & 2 ? s : 0, k & 4 ? s : 0);
  const idx = [
    0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3,
    7, 1, 7, 5,
  ];
  return makeTriangleMesh(v, idx, "", { solid });
}
