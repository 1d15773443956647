/**
 * A heightfield's triangles as a triangle mesh, built from docs/FORMATS.md's vertex placement and
 * cell split rather than from the field's code: the independent oracle of the tests that check
 * "every op answers a heightfield as it answers the `mesh` of the same triangles".
 */

import type { Vec3 } from "../../src/math/vec3.js";
import { type Heightfield, makeHeightfield } from "../../src/shapes/heightfield.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";

/**
 * The mesh of a `rows` × `cols` field of row-major heights `h` and scale `s`: vertex (r, c) at
 * (c·sx, h·sy, r·sz), each cell split along (r, c)–(r+1, c+1).
 */
export function meshOfField(
  rows: number,
  cols: number,
  h: readonly number[],
  s: Vec3,
): TriangleMesh {
  const v: number[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) v.push(c * s.x, h[r * cols + c] * s.y, r * s.z);
  const idx: number[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const v00 = r * cols + c;
      idx.push(v00, v00 + cols + 1, v00 + 1, v00, v00 + cols, v00 + cols + 1);
    }
  }
  return makeTriangleMesh(v, idx);
}

/**
 * A tilted plane as a `rows` × `cols` heightfield of scale `s` and as its mesh
 * ({@link meshOfField}): heights a·c + b·r, so vertex (r, c) at (c·sx, (a·c + b·r)·sy, r·sz) —
 * every vertex exactly on the plane y/sy = a·x/sx + b·z/sz when a, b and the scale are small
 * integers or dyadic (the exact touches' planes).
 */
export function planeField(
  rows: number,
  cols: number,
  a: number,
  b: number,
  s: Vec3,
): { field: Heightfield; mesh: TriangleMesh } {
  const heights: number[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) heights.push(a * c + b * r);
  return {
    field: makeHeightfield({ rows, cols, heights, scale: s }),
    mesh: meshOfField(rows, cols, heights, s),
  };
}
