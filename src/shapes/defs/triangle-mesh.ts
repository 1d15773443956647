/**
 * The triangle mesh's definition: a composite (its parts are its triangles, found through its
 * BVH; src/shapes/composite.ts) — a surface, or the solid it bounds when made with `solid`. Its
 * ray cast is the BVH's closest-hit walk (src/narrowphase/mesh-ray.ts) and its point projection
 * the BVH's closest-triangle walk with the angle-weighted pseudo-normal for inside
 * (src/query/mesh-distance.ts); both import nothing above the shapes.
 */
import { invalidValue } from "../../errors.js";
import { exactFarActive } from "../../geometry/exact-nearest.js";
import type { MeshBvhHits } from "../../geometry/mesh-bvh.js";
import { queryMeshBvhBox } from "../../geometry/mesh-bvh.js";
import { projectOntoTriangle } from "../../geometry/triangle-projection.js";
import * as vec3 from "../../math/vec3.js";
import { castRayTriangleMesh, makeMeshRayHit } from "../../narrowphase/mesh-ray.js";
import {
  closestPointOnMesh,
  exactTiedNearest,
  makeMeshPointQuery,
  tiedExactDistance,
} from "../../query/mesh-distance.js";
import { meshBvhTree } from "../composite.js";
import { arrayOrder } from "../data-order.js";
import { brandShape, isBrandedShape, SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { ShapeDef } from "../shape-def.js";
import { registerCompositeView, registerShape } from "../shape-def.js";
import {
  aabbTriangleMesh,
  containsPointTriangleMesh,
  getMeshTriangle,
  makeTriangleMesh,
  type TriangleMesh,
} from "../triangle-mesh.js";
import { checkTypedArray } from "../validate.js";
import { cachedPerShapeOf, maxVertexDistance } from "./helpers.js";

const meshHit = makeMeshRayHit();
const meshQuery = makeMeshPointQuery();
const meshTa = vec3.create();
const meshTb = vec3.create();
const meshTc = vec3.create();
const meshOne = { point: vec3.create(), distance: 0, inside: false };

/** Each edge of the mesh once (shared edges by their lower triangle), as vertex index pairs. */
function meshEdges(mesh: TriangleMesh): number[] {
  const idx = mesh.indices;
  const nb = mesh.edgeNeighbors;
  const edges: number[] = [];
  for (let t = 0; t < mesh.triangleCount; t++) {
    for (let e = 0; e < 3; e++) {
      const other = nb ? nb[3 * t + e] : -1;
      if (other >= 0 && other < t) continue;
      edges.push(idx[3 * t + e], idx[3 * t + ((e + 1) % 3)]);
    }
  }
  return edges;
}

/** The last scaled copy of each mesh and its factor (a query far from unit scale asks again). */
const scaledCopies = new WeakMap<TriangleMesh, { k: number; mesh: TriangleMesh }>();

/**
 * Mesh `s` with every vertex multiplied by `k` (a power of two: exact), the same triangles, edge
 * threshold and semantics; the last copy per mesh is kept. Its pseudo-normals, orientation and
 * active edges — invariant under scaling — are those of `s` at its own unit scale
 * ({@link unitScaleMesh}): computed on the copy, whose size k·|s| can be 1e-155 when a point is
 * 1e155 away, the corners' cross products would be subnormal and the signed volume 0 (an
 * inward-wound tetrahedron seen from 1e155 took its far side's normal). Allocates the copy (only
 * queries far from unit scale get here).
 */
function scaledSolidMesh(s: TriangleMesh, k: number): TriangleMesh {
  const kept = scaledCopies.get(s);
  if (kept !== undefined && kept.k === k) return kept.mesh;
  const unit = unitScaleMesh(s);
  const mesh = scaledMesh(s, k, unit.pseudoNormals, unit.activeEdges);
  scaledCopies.set(s, { k, mesh });
  return mesh;
}

/** `s`'s vertices times `k`, with the given scale-invariant normals and active edges. */
function scaledMesh(
  s: TriangleMesh,
  k: number,
  pseudoNormals: TriangleMesh["pseudoNormals"] | undefined,
  activeEdges: Uint8Array | undefined,
): TriangleMesh {
  const v = new Float64Array(s.vertices.length);
  for (let i = 0; i < v.length; i++) v[i] = s.vertices[i] * k;
  const mesh = makeTriangleMesh(v, s.indices, "", {
    activeEdgeCos: s.activeEdgeCos,
    solid: s.solid,
  });
  if (pseudoNormals === undefined || activeEdges === undefined) return mesh;
  return brandShape({ ...mesh, pseudoNormals, activeEdges });
}

/** Each mesh's copy at its own unit scale, when it is not there itself. */
const unitCopies = new WeakMap<TriangleMesh, TriangleMesh>();

/**
 * `s` itself when its size (largest vertex distance from its origin) lies in [2^-128, 2^128],
 * else its copy scaled by the power of two that brings that size into [1/2, 1) (kept per mesh).
 */
function unitScaleMesh(s: TriangleMesh): TriangleMesh {
  const m = triangleMeshDef.boundingRadius(s);
  if (!(m > 2 ** 128 || (m > 0 && m < 2 ** -128))) return s;
  const kept = unitCopies.get(s);
  if (kept !== undefined) return kept;
  let k = 1;
  while (m * k >= 1) k *= 0.5;
  while (m * k < 0.5) k *= 2;
  const mesh = scaledMesh(s, k, undefined, undefined);
  unitCopies.set(s, mesh);
  return mesh;
}

/** The triangle mesh's record in the shape definitions' table. */
export const triangleMeshDef: ShapeDef<TriangleMesh> = {
  type: ShapeType.TriangleMesh,
  name: SHAPE_TYPE_NAMES[ShapeType.TriangleMesh],
  supportMapped: false,
  composite: true,
  polytope: null,
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbTriangleMesh,
  boundingRadius: (s) => cachedPerShapeOf(s, maxVertexDistance, s.vertices),
  // A solid mesh's size and scaled copy, for the change of units far from unit scale
  // (src/narrowphase/extreme-scale.ts): its inside test and closest-triangle walk square lengths.
  // A surface mesh has neither: its triangles are rescaled one by one.
  writeMagnitude: (out, s) => {
    out[0] = s.solid ? triangleMeshDef.boundingRadius(s) : -1;
  },
  scaled: scaledSolidMesh,
  coreSupport: null,
  margin: () => 0,
  feature: null,
  edgeFeature: null,
  rayCast: (out, s, o, _dUnit, dRaw, _len, maxToi, solid) => {
    if (!castRayTriangleMesh(meshHit, s, o, dRaw, maxToi, solid)) return false;
    vec3.copy(out.normal, meshHit.normal);
    out.toi = meshHit.toi;
    return true;
  },
  projectPoint: (out, s, p, solid) => {
    // Closest triangle through the BVH; inside only for a solid mesh (a surface has no inside).
    closestPointOnMesh(meshQuery, s, p);
    out.inside = s.solid && meshQuery.inside;
    out.triangle = meshQuery.triangle;
    if (meshQuery.triangle < 0) {
      // No triangles: nothing to project onto; the point stays where it is, infinitely far.
      vec3.copy(out.point, p);
      out.distance = Infinity;
    } else if (out.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
    } else {
      // The winner's projection again at any scale (src/geometry/triangle-projection.ts): the
      // BVH walk's point carries the rounding of the corners' coordinates (a point 2 above a
      // 1e20 triangle landed on its corners' grid, 3e4 away).
      // Triangles tied to rounding from far: the nearest decided exactly, its point rounded once.
      const exact = exactFarActive() ? exactTiedNearest(out.point, s, p, meshQuery.distance) : -1;
      if (exact >= 0) {
        out.triangle = exact;
        out.distance = tiedExactDistance[0];
        return out;
      }
      const t = meshQuery.triangle;
      getMeshTriangle(s, t, meshTa, meshTb, meshTc);
      projectOntoTriangle(meshOne, meshTa, meshTb, meshTc, p);
      vec3.copy(out.point, meshOne.point);
      out.distance = meshOne.distance;
    }
    return out;
  },
  dataOrder: (a, b) => arrayOrder(a.vertices, b.vertices) || arrayOrder(a.indices, b.indices),
  check: (field, s) => {
    checkTypedArray(`${field}.vertices`, s.vertices, Float64Array);
    checkTypedArray(`${field}.indices`, s.indices, Uint32Array);
    // A mesh carries its BVH and edge data, which only makeTriangleMesh builds consistently.
    if (!isBrandedShape(s)) {
      invalidValue(field, "a hand-built mesh", "must be built by makeTriangleMesh");
    }
  },
  // Validated by its constructor (which alone builds a mesh, see check) and frozen.
  isFinite: () => true,
  view: (s) => ({
    type: "triangles",
    positions: Array.from(s.vertices),
    indices: Array.from(s.indices),
    edges: meshEdges(s),
  }),
  json: {
    name: "mesh",
    schema: (z) =>
      z.strictObject({
        type: z.literal("mesh"),
        vertices: z.array(z.number()),
        indices: z.array(z.number()),
        solid: z.boolean().optional(),
      }),
    toJson: (s) => ({
      type: "mesh",
      vertices: Array.from(s.vertices),
      indices: Array.from(s.indices),
      ...(s.solid ? { solid: true } : {}),
    }),
    fromJson: (j, field) =>
      makeTriangleMesh(
        Float64Array.from(j.vertices as number[]),
        Uint32Array.from(j.indices as number[]),
        field,
        { solid: j.solid === true },
      ),
  },
};

/**
 * The BVH's leaf hits narrowed to the triangles whose own boxes overlap the box (touching
 * counts): a leaf holds several triangles, and each one kept costs a pair query.
 */
function queryMeshTriangles(out: MeshBvhHits, mesh: TriangleMesh, box: Float64Array): number {
  const n = queryMeshBvhBox(out, mesh.bvh, box);
  const minx = box[0];
  const miny = box[1];
  const minz = box[2];
  const maxx = box[3];
  const maxy = box[4];
  const maxz = box[5];
  const v = mesh.vertices;
  const idx = mesh.indices;
  let kept = 0;
  for (let h = 0; h < n; h++) {
    const t = out.ids[h];
    const a = 3 * idx[3 * t];
    const b = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    if (
      Math.max(v[a], v[b], v[c]) < minx ||
      Math.min(v[a], v[b], v[c]) > maxx ||
      Math.max(v[a + 1], v[b + 1], v[c + 1]) < miny ||
      Math.min(v[a + 1], v[b + 1], v[c + 1]) > maxy ||
      Math.max(v[a + 2], v[b + 2], v[c + 2]) < minz ||
      Math.min(v[a + 2], v[b + 2], v[c + 2]) > maxz
    ) {
      continue;
    }
    out.ids[kept++] = t;
  }
  out.count = kept;
  return kept;
}

const argBox = new Float64Array(6);

const meshTree = meshBvhTree((s) => (s as TriangleMesh).bvh);

registerCompositeView(ShapeType.TriangleMesh, {
  partCount: (s) => (s as TriangleMesh).triangleCount,
  queryAabb: (out, s, minx, miny, minz, maxx, maxy, maxz) => {
    const b = argBox;
    b[0] = minx;
    b[1] = miny;
    b[2] = minz;
    b[3] = maxx;
    b[4] = maxy;
    b[5] = maxz;
    return queryMeshTriangles(out, s as TriangleMesh, b);
  },
  queryBox: (out, s, box) => queryMeshTriangles(out, s as TriangleMesh, box),
  part: (slot, s, i) => {
    const t = slot.triangle;
    getMeshTriangle(s as TriangleMesh, i, t.a, t.b, t.c);
    slot.shape = t;
    slot.hasPose = false;
  },
  edgeFlags: (s, i) => (s as TriangleMesh).activeEdges[i],
  tree: meshTree,
  containsPoint: (s, p) =>
    (s as TriangleMesh).solid && containsPointTriangleMesh(s as TriangleMesh, p),
  isSolid: (s) => (s as TriangleMesh).solid,
});
// After its composite view, so that the pair table's defaults see a composite type.
registerShape(triangleMeshDef);
