/**
 * The closed box as a triangle mesh, for tests, benchmarks and the fuzzer: 8 corners and 12
 * outward-wound triangles (two per face), or the open 4-triangle surface of two of its faces.
 * One definition, so every mesh-versus-box test reads the same triangulation.
 */
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";

/** A point [x, y, z]. */
export type V3 = [number, number, number];

/**
 * The 12 triangles of the closed box over {@link boxCorners}' order, wound counter-clockwise
 * seen from outside (outward normals).
 */
export const BOX_TRIANGLES: readonly V3[] = [
  [0, 1, 3],
  [0, 3, 2],
  [4, 6, 7],
  [4, 7, 5],
  [0, 4, 5],
  [0, 5, 1],
  [2, 3, 7],
  [2, 7, 6],
  [0, 2, 6],
  [0, 6, 4],
  [1, 5, 7],
  [1, 7, 3],
];

/** The first four of {@link BOX_TRIANGLES}: the −x and −y faces, an open surface. */
export const OPEN_BOX_TRIANGLES: readonly V3[] = BOX_TRIANGLES.slice(0, 2).concat(
  BOX_TRIANGLES.slice(4, 6),
);

/**
 * The 8 corners of the box with half extents (hx, hy, hz) centred at the origin, x-major:
 * corner 4·[x > 0] + 2·[y > 0] + [z > 0].
 */
export function boxCorners(hx: number, hy: number, hz: number): V3[] {
  const v: V3[] = [];
  for (const x of [-hx, hx])
    for (const y of [-hy, hy]) for (const z of [-hz, hz]) v.push([x, y, z]);
  return v;
}

/** The closed box mesh with half extents (hx, hy, hz), in its own frame. */
export function boxMesh(hx: number, hy: number = hx, hz: number = hx): TriangleMesh {
  return makeTriangleMesh(
    new Float64Array(boxCorners(hx, hy, hz).flat()),
    new Uint32Array(BOX_TRIANGLES.flat()),
  );
}

/**
 * The closed `solid: true` box mesh of the box [lo, hi] (corners as given, in the mesh's frame:
 * far from its origin when they are), wound outward, or inward when `inward` (the same solid).
 */
export function solidBoxMesh(
  lo: readonly number[],
  hi: readonly number[],
  inward = false,
): TriangleMesh {
  const v: number[] = [];
  for (const x of [lo[0], hi[0]])
    for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) v.push(x, y, z);
  const t = BOX_TRIANGLES.flatMap(([a, b, c]) => (inward ? [a, c, b] : [a, b, c]));
  return makeTriangleMesh(new Float64Array(v), new Uint32Array(t), "", { solid: true });
}

/**
 * The box mesh as a `collide query` JSON shape (docs/FORMATS.md `mesh`): half extents `h`,
 * at `position`; `open` keeps only {@link OPEN_BOX_TRIANGLES}.
 */
export function boxMeshJson(
  h: readonly number[],
  position: readonly number[],
  open = false,
): { type: "mesh"; vertices: V3[]; indices: V3[]; position: number[] } {
  return {
    type: "mesh",
    vertices: boxCorners(h[0], h[1], h[2]),
    indices: (open ? OPEN_BOX_TRIANGLES : BOX_TRIANGLES).map((t) => [...t] as V3),
    position: [...position],
  };
}
