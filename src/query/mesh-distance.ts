/**
 * Closest point and signed distance on a triangle mesh through its BVH.
 *
 * The closest triangle is found by a depth-first traversal that visits the nearer child first
 * and skips every box farther than the best squared distance so far (three-mesh-bvh's
 * `closestPointToPoint`; Ericson 2005, §6.6). The sign, for a closed mesh, comes from the
 * angle-weighted pseudo-normal of the feature that holds the closest point (Bærentzen & Aanæs
 * 2005, "Signed distance computation using the angle weighted pseudonormal"): the face normal
 * inside a face, the sum of the two face normals on an edge, the sum of the incident face
 * normals weighted by their corner angles at a vertex. p is inside when (p − q)·N < 0. For a
 * closed, consistently wound, manifold mesh this equals the sign of the winding number; where
 * the pseudo-normal gives no decision ((p − q)·N = 0 off the surface, next to degenerate
 * triangles) the generalised winding number decides (src/shapes/triangle-mesh.ts).
 *
 * The pseudo-normals are computed once per mesh (O(triangles)) and kept beside it in a
 * `WeakMap`, so the shape itself is unchanged. Queries allocate nothing.
 */

import { closestPointOnTriangle } from "../geometry/closest-point.js";
import {
  isMeshBvhLeaf,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhRightChild,
} from "../geometry/mesh-bvh.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { containsPointTriangleMesh } from "../shapes/triangle-mesh.js";

/** Per-mesh pseudo-normals (unnormalised sums; only their direction matters). */
interface PseudoNormals {
  /** Unit face normal per triangle (0 for a degenerate triangle), packed xyz. */
  face: Float64Array;
  /** Per triangle edge 3t + e (corner e → e + 1): the sum of its two faces' normals. */
  edge: Float64Array;
  /** Per vertex: Σ angle × face normal over the incident triangles. */
  vertex: Float64Array;
  /** +1 for an outward winding (positive signed volume), −1 for an inward one. */
  orientation: number;
}

const cache = new WeakMap<TriangleMesh, PseudoNormals>();

/** The pseudo-normals of `mesh`, computed on first use. */
function pseudoNormals(mesh: TriangleMesh): PseudoNormals {
  const known = cache.get(mesh);
  if (known) return known;
  const v = mesh.vertices;
  const idx = mesh.indices;
  const T = mesh.triangleCount;
  const face = new Float64Array(3 * T);
  const edge = new Float64Array(9 * T);
  const vertex = new Float64Array(v.length);
  let volume6 = 0;
  for (let t = 0; t < T; t++) {
    const a = 3 * idx[3 * t];
    const b = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    const ux = v[b] - v[a];
    const uy = v[b + 1] - v[a + 1];
    const uz = v[b + 2] - v[a + 2];
    const wx = v[c] - v[a];
    const wy = v[c + 1] - v[a + 1];
    const wz = v[c + 2] - v[a + 2];
    let nx = uy * wz - uz * wy;
    let ny = uz * wx - ux * wz;
    let nz = ux * wy - uy * wx;
    volume6 +=
      v[a] * (v[b + 1] * v[c + 2] - v[b + 2] * v[c + 1]) -
      v[a + 1] * (v[b] * v[c + 2] - v[b + 2] * v[c]) +
      v[a + 2] * (v[b] * v[c + 1] - v[b + 1] * v[c]);
    const l = Math.hypot(nx, ny, nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    } else {
      nx = 0;
      ny = 0;
      nz = 0;
    }
    face[3 * t] = nx;
    face[3 * t + 1] = ny;
    face[3 * t + 2] = nz;
    // Corner angles, for the vertex pseudo-normals.
    const corners = [a, b, c];
    for (let k = 0; k < 3; k++) {
      const p = corners[k];
      const q = corners[(k + 1) % 3];
      const r = corners[(k + 2) % 3];
      const e1x = v[q] - v[p];
      const e1y = v[q + 1] - v[p + 1];
      const e1z = v[q + 2] - v[p + 2];
      const e2x = v[r] - v[p];
      const e2y = v[r + 1] - v[p + 1];
      const e2z = v[r + 2] - v[p + 2];
      const cross = Math.hypot(e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x);
      const angle = Math.atan2(cross, e1x * e2x + e1y * e2y + e1z * e2z);
      vertex[p] += angle * nx;
      vertex[p + 1] += angle * ny;
      vertex[p + 2] += angle * nz;
    }
  }
  const nb = mesh.edgeNeighbors;
  for (let t = 0; t < T; t++) {
    for (let e = 0; e < 3; e++) {
      const o = 9 * t + 3 * e;
      const u = nb[3 * t + e];
      edge[o] = face[3 * t] + (u >= 0 ? face[3 * u] : 0);
      edge[o + 1] = face[3 * t + 1] + (u >= 0 ? face[3 * u + 1] : 0);
      edge[o + 2] = face[3 * t + 2] + (u >= 0 ? face[3 * u + 2] : 0);
    }
  }
  const r: PseudoNormals = { face, edge, vertex, orientation: volume6 < 0 ? -1 : 1 };
  cache.set(mesh, r);
  return r;
}

/** The answer of {@link closestPointOnMesh}, written in place. */
export interface MeshPointQuery {
  /** Closest point of the mesh, local frame. */
  point: Vec3;
  /** Distance to it (≥ 0). */
  distance: number;
  /** Index of the closest triangle (−1 for a mesh without triangles). */
  triangle: number;
  /** True when the mesh is closed and the query point is inside (or on) it. */
  inside: boolean;
}

/** A new zeroed {@link MeshPointQuery} (allocates). */
export function makeMeshPointQuery(): MeshPointQuery {
  return { point: vec3.create(), distance: 0, triangle: -1, inside: false };
}

let stack = new Int32Array(256);
/** Squared box distance of each stacked node, computed when it was pushed. */
let stackKey = new Float64Array(256);
const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const q = vec3.create();
const weights = [0, 0, 0];
const bestWeights = [0, 0, 0];

/** Squared distance from (x, y, z) to node i's box. */
function boxDistanceSq(b: Float64Array, i: number, x: number, y: number, z: number): number {
  const o = 6 * i;
  const dx = Math.max(0, b[o] - x, x - b[o + 3]);
  const dy = Math.max(0, b[o + 1] - y, y - b[o + 4]);
  const dz = Math.max(0, b[o + 2] - z, z - b[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Writes to `out` the point of `mesh` closest to the local point `p`, its distance, the index of
 * its triangle and — for a closed mesh — whether p is inside (pseudo-normal sign, see the module
 * doc). Local frame; allocation free.
 */
export function closestPointOnMesh(
  out: MeshPointQuery,
  mesh: TriangleMesh,
  p: Vec3,
): MeshPointQuery {
  const bvh = mesh.bvh;
  const v = mesh.vertices;
  const idx = mesh.indices;
  const bounds = bvh.bounds;
  out.triangle = -1;
  out.inside = false;
  out.distance = Infinity;
  if (bvh.nodeCount === 0) return out;
  if (stack.length < 2 * bvh.depth + 4) {
    stack = new Int32Array(2 * bvh.depth + 4);
    stackKey = new Float64Array(2 * bvh.depth + 4);
  }
  let best = Infinity;
  let bestTri = -1;
  let top = 0;
  stack[top] = 0;
  stackKey[top++] = 0;
  while (top > 0) {
    const i = stack[--top];
    // The box distance was computed at the push; the best may have shrunk since.
    if (stackKey[top] > best) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const first = meshBvhLeafOffset(bvh, i);
      const n = meshBvhLeafCount(bvh, i);
      for (let k = first; k < first + n; k++) {
        const t = bvh.primitives[k];
        const a = 3 * idx[3 * t];
        const b = 3 * idx[3 * t + 1];
        const c = 3 * idx[3 * t + 2];
        // The triangle's own box first: most triangles of a leaf are farther than the best.
        const ex = Math.max(0, Math.min(v[a], v[b], v[c]) - p.x, p.x - Math.max(v[a], v[b], v[c]));
        const ey = Math.max(
          0,
          Math.min(v[a + 1], v[b + 1], v[c + 1]) - p.y,
          p.y - Math.max(v[a + 1], v[b + 1], v[c + 1]),
        );
        const ez = Math.max(
          0,
          Math.min(v[a + 2], v[b + 2], v[c + 2]) - p.z,
          p.z - Math.max(v[a + 2], v[b + 2], v[c + 2]),
        );
        if (ex * ex + ey * ey + ez * ez > best) continue;
        vec3.set(ta, v[a], v[a + 1], v[a + 2]);
        vec3.set(tb, v[b], v[b + 1], v[b + 2]);
        vec3.set(tc, v[c], v[c + 1], v[c + 2]);
        closestPointOnTriangle(q, p, ta, tb, tc, weights);
        const d2 = vec3.distanceSq(p, q);
        if (d2 < best || (d2 === best && t < bestTri)) {
          best = d2;
          bestTri = t;
          vec3.copy(out.point, q);
          bestWeights[0] = weights[0];
          bestWeights[1] = weights[1];
          bestWeights[2] = weights[2];
        }
      }
      continue;
    }
    const left = i + 1;
    const right = meshBvhRightChild(bvh, i);
    const dl = boxDistanceSq(bounds, left, p.x, p.y, p.z);
    const dr = boxDistanceSq(bounds, right, p.x, p.y, p.z);
    // Nearer child on top of the stack.
    if (dl <= dr) {
      if (dr <= best) {
        stack[top] = right;
        stackKey[top++] = dr;
      }
      if (dl <= best) {
        stack[top] = left;
        stackKey[top++] = dl;
      }
    } else {
      if (dl <= best) {
        stack[top] = left;
        stackKey[top++] = dl;
      }
      if (dr <= best) {
        stack[top] = right;
        stackKey[top++] = dr;
      }
    }
  }
  out.triangle = bestTri;
  out.distance = Math.sqrt(best);
  if (mesh.closed) out.inside = insideByPseudoNormal(mesh, p, out.point, bestTri, out.distance);
  return out;
}

/** The pseudo-normal sign test at the closest point q of triangle t (see the module doc). */
function insideByPseudoNormal(
  mesh: TriangleMesh,
  p: Vec3,
  point: Vec3,
  t: number,
  distance: number,
): boolean {
  if (distance === 0) return true;
  const pn = pseudoNormals(mesh);
  const w0 = bestWeights[0];
  const w1 = bestWeights[1];
  const w2 = bestWeights[2];
  const nonzero = (w0 !== 0 ? 1 : 0) + (w1 !== 0 ? 1 : 0) + (w2 !== 0 ? 1 : 0);
  let nx: number;
  let ny: number;
  let nz: number;
  if (nonzero === 3) {
    nx = pn.face[3 * t];
    ny = pn.face[3 * t + 1];
    nz = pn.face[3 * t + 2];
  } else if (nonzero === 2) {
    // The edge opposite the corner whose weight is 0: edge e runs corner e → e + 1.
    const k = w0 === 0 ? 0 : w1 === 0 ? 1 : 2;
    const o = 9 * t + 3 * ((k + 1) % 3);
    nx = pn.edge[o];
    ny = pn.edge[o + 1];
    nz = pn.edge[o + 2];
  } else {
    const k = w0 !== 0 ? 0 : w1 !== 0 ? 1 : 2;
    const o = 3 * mesh.indices[3 * t + k];
    nx = pn.vertex[o];
    ny = pn.vertex[o + 1];
    nz = pn.vertex[o + 2];
  }
  const s = pn.orientation * ((p.x - point.x) * nx + (p.y - point.y) * ny + (p.z - point.z) * nz);
  if (s !== 0 && Number.isFinite(s)) return s < 0;
  return containsPointTriangleMesh(mesh, p);
}
