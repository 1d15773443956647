/**
 * Shapes placed far from the origin for tests with exact oracles: the grid step that keeps every
 * far coordinate exact, an offset on that grid and local grid points moved by it, and a triangle
 * mesh's (or a heightfield's mesh's) vertices and faces as the lists the exact oracles take
 * (test/oracles/exact-hull-projection.ts).
 */
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { ulp } from "./ulp.js";

/** A point or a face's three vertex indices. */
export type V3 = [number, number, number];

/**
 * The grid step of local coordinates at offset magnitude s: an ulp of s, at least 2^-8. Every
 * O + k·step with |O| ≈ s is exact (|O| < 2^53 steps), so a shape on that grid moved by O is
 * exactly the local shape moved, and as small as that allows (about 1 up to 1e13, 32 at 1e15).
 */
export function gridStep(s: number): number {
  return Math.max(2 ** -8, ulp(s));
}

/** A far offset `o` of magnitude about `s`, on the grid of step `k` = gridStep(s). */
export interface Placement {
  s: number;
  o: V3;
  k: number;
}

/**
 * The placement at s = 10^e with the offset (sx·s, sy·s/2, sz·s/4) rounded to the grid (exact:
 * |o| < 2^53 steps); sx, sy, sz are signs (±1) in the tests that draw them.
 */
export function farPlacement([e, sx, sy, sz]: [number, number, number, number]): Placement {
  const s = 10 ** e;
  const k = gridStep(s);
  const g = (x: number) => Math.round(x / k) * k;
  return { s, k, o: [g(sx * s), g((sy * s) / 2), g((sz * s) / 4)] };
}

/** The world point of local grid point l (integers): o + l·k, exact. */
export const onGrid = (pl: Placement, l: V3): V3 => [
  pl.o[0] + l[0] * pl.k,
  pl.o[1] + l[1] * pl.k,
  pl.o[2] + l[2] * pl.k,
];

/** The mesh's vertices and faces as lists of triples. */
export function meshTriangles(mesh: TriangleMesh): { vertices: V3[]; faces: V3[] } {
  const vertices: V3[] = [];
  for (let i = 0; i < mesh.vertices.length; i += 3)
    vertices.push([mesh.vertices[i], mesh.vertices[i + 1], mesh.vertices[i + 2]]);
  const faces: V3[] = [];
  for (let i = 0; i < mesh.indices.length; i += 3)
    faces.push([mesh.indices[i], mesh.indices[i + 1], mesh.indices[i + 2]]);
  return { vertices, faces };
}
