/**
 * The L-shaped solid for tests: the union of the boxes [0, 2] × [0, 1] × [0, 1] and
 * [0, 1] × [0, 2] × [0, 1] (times a scale), a closed, outward-wound triangle mesh of 12 vertices
 * and 20 triangles — its profile in the xy-plane extruded over z — with its exact inside test and
 * its two boxes, the independent oracle of the tests that use it (a point is in the L exactly
 * when it is in one of the boxes). One definition, so every non-convex solid-mesh test reads the
 * same triangulation.
 */

import type { Vec3 } from "../../src/math/vec3.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";

/** The L's profile in the xy-plane, counter-clockwise seen from +z (unit scale). */
const PROFILE: readonly (readonly [number, number])[] = [
  [0, 0],
  [2, 0],
  [2, 1],
  [1, 1],
  [1, 2],
  [0, 2],
];

/**
 * The L's vertices (x, y, z flat: the profile at z = 0, then at z = `scale`, each moved by `at`)
 * and triangles (three indices each): the bottom (facing −z) and the top (+z) each as two convex
 * quads, then the six side quads, two triangles each.
 */
export function lMeshArrays(
  scale = 1,
  at: readonly number[] = [0, 0, 0],
): { vertices: number[]; indices: number[] } {
  const n = PROFILE.length;
  const vertices: number[] = [];
  for (const z of [0, scale])
    for (const [x, y] of PROFILE) vertices.push(x * scale + at[0], y * scale + at[1], z + at[2]);
  const indices: number[] = [];
  for (const [a, b, c, d] of [
    [0, 1, 2, 3],
    [0, 3, 4, 5],
  ]) {
    indices.push(a, c, b, a, d, c);
    indices.push(n + a, n + b, n + c, n + a, n + c, n + d);
  }
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    indices.push(i, j, n + j, i, n + j, n + i);
  }
  return { vertices, indices };
}

/**
 * The L as a `solid: true` mesh (its local frame; `scale` its unit), its vertices moved by `at`
 * (the L given in world coordinates there: exact when `at` is on the grid of the L's corners).
 */
export function lMesh(scale = 1, at: readonly number[] = [0, 0, 0]): TriangleMesh {
  const { vertices, indices } = lMeshArrays(scale, at);
  return makeTriangleMesh(vertices, indices, "", { solid: true });
}

/** The L as a `collide query` JSON `mesh` (`solid: true`) at `position`. */
export function lMeshJson(
  position: readonly number[] = [0, 0, 0],
  scale = 1,
): { type: "mesh"; solid: true; vertices: number[][]; indices: number[][]; position: number[] } {
  const { vertices, indices } = lMeshArrays(scale);
  const triples = (a: number[]) => a.flatMap((_, i) => (i % 3 === 0 ? [a.slice(i, i + 3)] : []));
  return {
    type: "mesh",
    solid: true,
    vertices: triples(vertices),
    indices: triples(indices),
    position: [...position],
  };
}

/** The L's two boxes [min, max] (unit scale), translated by `t`. */
export function lBoxes(t: readonly number[]): [number[], number[]][] {
  return [
    [
      [t[0], t[1], t[2]],
      [t[0] + 2, t[1] + 1, t[2] + 1],
    ],
    [
      [t[0], t[1], t[2]],
      [t[0] + 1, t[1] + 2, t[2] + 1],
    ],
  ];
}

/** True when `p` lies in the (closed) unit-scale L at the origin. */
export function insideL(p: Vec3): boolean {
  return (
    p.z >= 0 &&
    p.z <= 1 &&
    ((p.x >= 0 && p.x <= 2 && p.y >= 0 && p.y <= 1) ||
      (p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 2))
  );
}

/**
 * The most two unions of axis-aligned boxes overlap on their least axis: max over box pairs of
 * the smallest of the three interval overlaps — > 0 when their interiors share a point, 0 when
 * they only touch (share a face, an edge or a corner), < 0 when apart (exact on the inputs).
 */
export function boxUnionsOverlap(
  a: readonly (readonly number[])[][],
  b: readonly (readonly number[])[][],
): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const [a0, a1] of a)
    for (const [b0, b1] of b) {
      let m = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 3; k++) m = Math.min(m, Math.min(a1[k], b1[k]) - Math.max(a0[k], b0[k]));
      best = Math.max(best, m);
    }
  return best;
}
