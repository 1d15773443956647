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
 * doubled area at each of its corners. Allocates the two arrays; O(triangles).
 */
export function computeMeshPseudoNormals(
  vertices: Float64Array,
  indices: Uint32Array,
  triangleCount: number,
): MeshPseudoNormals {
  const v = vertices;
  const face = new Float64Array(3 * triangleCount);
  const vertex = new Float64Array(v.length);
  let volume6 = 0;
  for (let t = 0; t < triangleCount; t++) {
    const a = 3 * indices[3 * t];
    const b = 3 * indices[3 * t + 1];
    const c = 3 * indices[3 * t + 2];
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
    vertex[a] += angleA * ux;
    vertex[a + 1] += angleA * uy;
    vertex[a + 2] += angleA * uz;
    vertex[b] += angleB * ux;
    vertex[b + 1] += angleB * uy;
    vertex[b + 2] += angleB * uz;
    vertex[c] += angleC * ux;
    vertex[c + 1] += angleC * uy;
    vertex[c + 2] += angleC * uz;
  }
  return { face, vertex, orientation: volume6 < 0 ? -1 : 1 };
}
