/**
 * Angle-weighted pseudo-normals of a triangle mesh (Bærentzen & Aanæs 2005, "Signed distance
 * computation using the angle weighted pseudonormal", IEEE TVCG 11(3)).
 *
 * For a closed, consistently wound, manifold mesh, the sign of (p − q)·N, where q is the point
 * of the mesh closest to p and N the pseudo-normal of the feature that holds q, is the sign of
 * the signed distance: N is the face normal inside a face, the sum of the two face normals on
 * an edge, and the sum of the incident face normals weighted by their corner angles at a vertex.
 * The face and vertex pseudo-normals are stored; an edge's is the sum of the two face normals
 * across it (the mesh's edge neighbours), formed when asked, which keeps the memory at 3 doubles
 * per triangle and 3 per vertex.
 *
 * Computed once per closed mesh, when it is made (src/shapes/triangle-mesh.ts), in O(triangles).
 */

import * as vec3 from "../math/vec3.js";
import { detIo, exactRange, orient3dValue } from "./exact-predicates.js";

/** The pseudo-normals of a mesh (unnormalised vertex sums: only their direction matters). */
export interface MeshPseudoNormals {
  /** Unit face normal per triangle by its winding (zero for a degenerate one), packed xyz. */
  readonly face: Float64Array;
  /** Per vertex, Σ corner angle (radians) × unit face normal over its triangles, packed xyz. */
  readonly vertex: Float64Array;
  /** +1 when the triangles wind outward (positive signed volume), −1 when inward. */
  readonly orientation: number;
}

/**
 * The pseudo-normals of the triangles `indices` (3 per triangle) over `vertices` (packed xyz).
 * The corner angle at each vertex is atan2(|e₁ × e₂|, e₁·e₂), where |e₁ × e₂| is the triangle's
 * doubled area at each of its corners. `weld` (per vertex its canonical vertex at the same
 * position, or null: src/shapes/triangle-mesh.ts) sums the corners at one position into one
 * vertex pseudo-normal, written to each of its vertices. Allocates the two arrays;
 * O(triangles + vertices).
 */
export function computeMeshPseudoNormals(
  vertices: Float64Array,
  indices: Uint32Array,
  triangleCount: number,
  weld: Uint32Array | null = null,
): MeshPseudoNormals {
  const v = vertices;
  const face = new Float64Array(3 * triangleCount);
  const vertex = new Float64Array(v.length);
  // The winding's sign from the signed volume: Σ a·((b − a) × (c − a)) over the triangles, each
  // term about |a|·|face| with the rounding of a sliver's cross product (ε·L² against its L·h),
  // is noise for a thin closed mesh far from the origin (a 1.7e-6 × 1451 beam at 9.6e5 came out
  // inside-out, every point near it "inside"; session 38). Within the exact predicates' range
  // the volume is summed instead over the tetrahedra from the first vertex, each determinant
  // rounded once: their sum's error is ε of the terms, which stay within the mesh's own size.
  let volume6 = 0;
  let exactVolume6 = 0;
  const exact = exactVolumeRange(v);
  for (let t = 0; t < triangleCount; t++) {
    const ia = indices[3 * t];
    const ib = indices[3 * t + 1];
    const ic = indices[3 * t + 2];
    const a = 3 * ia;
    const b = 3 * ib;
    const c = 3 * ic;
    const abx = v[b] - v[a];
    const aby = v[b + 1] - v[a + 1];
    const abz = v[b + 2] - v[a + 2];
    const acx = v[c] - v[a];
    const acy = v[c + 1] - v[a + 1];
    const acz = v[c + 2] - v[a + 2];
    const bcx = v[c] - v[b];
    const bcy = v[c + 1] - v[b + 1];
    const bcz = v[c + 2] - v[b + 2];
    const nx = aby * acz - abz * acy;
    const ny = abz * acx - abx * acz;
    const nz = abx * acy - aby * acx;
    volume6 += v[a] * nx + v[a + 1] * ny + v[a + 2] * nz;
    if (exact) exactVolume6 -= exactTetrahedron6(v, a, b, c);
    // √ of the sum of squares unless it over- or underflows (huge or tiny coordinates).
    let area2 = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(area2 > 0 && area2 < Infinity)) area2 = Math.hypot(nx, ny, nz);
    if (!(area2 > 0)) continue;
    const ux = nx / area2;
    const uy = ny / area2;
    const uz = nz / area2;
    face[3 * t] = ux;
    face[3 * t + 1] = uy;
    face[3 * t + 2] = uz;
    const angleA = Math.atan2(area2, abx * acx + aby * acy + abz * acz);
    const angleB = Math.atan2(area2, -(abx * bcx + aby * bcy + abz * bcz));
    const angleC = Math.atan2(area2, acx * bcx + acy * bcy + acz * bcz);
    const wa = weld === null ? a : 3 * weld[ia];
    const wb = weld === null ? b : 3 * weld[ib];
    const wc = weld === null ? c : 3 * weld[ic];
    vertex[wa] += angleA * ux;
    vertex[wa + 1] += angleA * uy;
    vertex[wa + 2] += angleA * uz;
    vertex[wb] += angleB * ux;
    vertex[wb + 1] += angleB * uy;
    vertex[wb + 2] += angleB * uz;
    vertex[wc] += angleC * ux;
    vertex[wc + 1] += angleC * uy;
    vertex[wc + 2] += angleC * uz;
  }
  if (weld !== null) {
    for (let i = 0; i < weld.length; i++) {
      const w = weld[i];
      if (w === i) continue;
      vertex[3 * i] = vertex[3 * w];
      vertex[3 * i + 1] = vertex[3 * w + 1];
      vertex[3 * i + 2] = vertex[3 * w + 2];
    }
  }
  if (exact) volume6 = exactVolume6;
  return { face, vertex, orientation: volume6 < 0 ? -1 : 1 };
}

const va = vec3.create();
const vb = vec3.create();
const vc = vec3.create();
const vo = vec3.create();

/**
 * True when every vertex lies within the exact predicates' range; then vo = the first vertex,
 * the apex of {@link exactTetrahedron6}'s tetrahedra.
 */
function exactVolumeRange(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i += 3) {
    vec3.set(va, v[i], v[i + 1], v[i + 2]);
    if (!exactRange(va)) return false;
  }
  if (v.length >= 3) vec3.set(vo, v[0], v[1], v[2]);
  return true;
}

/**
 * det[b − a; c − a; vo − a] for the corners at offsets a, b, c of `v` (six times the signed volume
 * of the tetrahedron (vo, a, b, c), negated), from Shewchuk's expansion rounded once
 * (src/geometry/exact-predicates.ts).
 */
function exactTetrahedron6(v: Float64Array, a: number, b: number, c: number): number {
  vec3.set(va, v[a], v[a + 1], v[a + 2]);
  vec3.set(vb, v[b], v[b + 1], v[b + 2]);
  vec3.set(vc, v[c], v[c + 1], v[c + 2]);
  orient3dValue(va, vb, vc, vo);
  return detIo[0];
}
