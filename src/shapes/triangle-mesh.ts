/**
 * A triangle mesh: a triangle soup (open, closed, non-manifold, with degenerate triangles — all
 * accepted) over shared vertices, with a static bounding volume hierarchy over its triangles
 * (src/geometry/mesh-bvh.ts) and per-edge "active edge" flags.
 *
 * Adjacency is over welded positions: vertices with exactly equal coordinates are one vertex for
 * the edge neighbours, closedness, active edges and vertex pseudo-normals (`weld`), so a triangle
 * soup or a file exported with split vertices (per-face normals, UV seams) answers as the same
 * triangles over shared vertices. No tolerance: vertices the user placed apart stay apart.
 *
 * Active edges (Jolt's `ActiveEdges`, Bullet's internal-edge utility). A contact against a
 * triangle at one of its edges gives an edge normal; on a flat floor made of many triangles,
 * such a normal at a shared, internal edge makes a sliding box bump. So each triangle edge is
 * classified once: it is active (a real ridge that may produce edge normals) when it is on the
 * boundary, shared by more than two triangles or by two inconsistently wound ones, next to a
 * degenerate triangle, or a convex edge whose dihedral angle exceeds the threshold
 * (`MESH_ACTIVE_EDGE_COS`); coplanar and concave shared edges are inactive, and contacts on
 * them take the triangle's face normal (src/narrowphase/convex-mesh.ts). Edge e of triangle t
 * runs from corner e to corner (e + 1) mod 3; bit e of `activeEdges[t]` is set when it is active.
 *
 * Point containment for closed meshes is by the generalized winding number (Jacobson, Kavan &
 * Sorkine-Hornung 2013): the sum of the signed solid angles of the triangles seen from the point
 * (Van Oosterom & Strackee 1983), divided by 4π. It has no ray to graze an edge or a vertex, so
 * it needs no special cases; it is 1 inside a closed, outward-wound mesh, 0 outside.
 */
import {
  MESH_ACTIVE_EDGE_COS,
  MESH_COORDINATE_LIMIT,
  MESH_WINDING_INSIDE,
  SOLID_MESH_CONVEX_TOLERANCE,
} from "../constants.js";
import { checkFieldArg, checkOptions, invalidValue, optionsSpec } from "../errors.js";
import type { MeshBvh } from "../geometry/mesh-bvh.js";
import { buildMeshBvh, refitMeshBvh } from "../geometry/mesh-bvh.js";
import { computeMeshPseudoNormals, type MeshPseudoNormals } from "../geometry/pseudo-normals.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { unitScale } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import { makeConvexPolyhedron, supportConvexPolyhedron } from "./convex-polyhedron.js";
import { brandShape, isBrandedShape, ShapeType } from "./shape.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/triangle-mesh.js";
// Its parts are triangles: their definition loads with it.
import "./defs/triangle.js";

/** A triangle mesh in its local frame (arrays are read-only by convention; see the module doc). */
export interface TriangleMesh {
  readonly type: typeof ShapeType.TriangleMesh;
  /** Vertex positions, packed xyz, local frame, scene units. */
  readonly vertices: Float64Array;
  /** Corner vertex indices, 3 per triangle. */
  readonly indices: Uint32Array;
  /** Number of vertices. */
  readonly vertexCount: number;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** BVH over the triangles, local frame. */
  readonly bvh: MeshBvh;
  /** Per triangle, bit e set when edge e (corner e → corner e+1) is active. */
  readonly activeEdges: Uint8Array;
  /**
   * Per triangle edge (3t + e): the triangle across it (over welded positions), or −1
   * (boundary, non-manifold, or a triangle with two corners at one position).
   */
  readonly edgeNeighbors: Int32Array;
  /**
   * True when every edge is shared by exactly two triangles with opposite directions (over
   * welded positions, see {@link TriangleMesh.weld}).
   */
  readonly closed: boolean;
  /**
   * Per vertex, the lowest index of a vertex at exactly the same position (each coordinate
   * `===`; no tolerance), or null when all positions are distinct: adjacency (edge neighbours,
   * closedness, active edges, vertex pseudo-normals) is over these welded vertices, so a soup
   * or a split-vertex export answers as the same triangles over shared vertices. The vertex
   * and index arrays stay as given.
   */
  readonly weld: Uint32Array | null;
  /**
   * The mesh's semantics in every query (issue 16, class 9; docs/FORMATS.md): true — a solid
   * bounded by the (closed) mesh, so a shape or point inside it touches it; false — a surface
   * (a triangle soup), so only the triangles count. Set by {@link TriangleMeshOptions.solid}.
   */
  readonly solid: boolean;
  /** Cosine threshold used for the active-edge classification. */
  readonly activeEdgeCos: number;
  /**
   * Angle-weighted pseudo-normals, which sign a closed mesh's point projection (Bærentzen &
   * Aanæs 2005; src/geometry/pseudo-normals.ts): computed when a closed mesh is made, null for
   * an open one.
   */
  readonly pseudoNormals: MeshPseudoNormals | null;
}

/** Options of {@link makeTriangleMesh}. */
export interface TriangleMeshOptions {
  /** Convex shared edges flatter than this cosine are inactive. @default MESH_ACTIVE_EDGE_COS */
  activeEdgeCos?: number;
  /**
   * How errors name an index: `"packed"` → `indices[22]` (a flat array), `"nested"` →
   * `indices[7][1]` (JSON's `[[i, j, k], …]`). @default "packed"
   */
  indexPath?: "packed" | "nested";
  /**
   * Treat the mesh as the solid it bounds in every query (intersects, distance, contact,
   * manifold, pairs, casts, ray casts, point projection) instead of as a surface. Only for a
   * closed mesh (every edge shared by exactly two triangles with opposite directions): refused
   * with `CollideError` (`<field>.solid`) otherwise. @default false
   */
  solid?: boolean;
}

/**
 * Throws `CollideError` naming `field` unless `a` is an array or a typed array (a string, null
 * or a plain object reached `.length` and threw a TypeError, or was read as characters).
 */
function checkArrayArg(field: string, a: unknown, what: string): void {
  if (!Array.isArray(a) && !ArrayBuffer.isView(a)) invalidValue(field, a, `must be ${what}`);
}

function packVertices(vertices: ArrayLike<number> | readonly Vec3[], field: string): Float64Array {
  checkArrayArg(field, vertices, "an array of numbers (packed xyz) or of {x, y, z} vectors");
  if (vertices.length > 0 && typeof vertices[0] === "object") {
    const vs = vertices as readonly Vec3[];
    const out = new Float64Array(3 * vs.length);
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i];
      if (v === null || typeof v !== "object")
        invalidValue(`${field}[${i}]`, v, "must be a vector of 3 finite numbers");
      // An [x, y, z] array or a string coordinate would read as NaN, and the message would then
      // show NaN instead of what was given.
      if (Array.isArray(v))
        invalidValue(
          `${field}[${i}]`,
          v,
          "must be an {x, y, z} vector, not an [x, y, z] array (or pass packed numbers)",
        );
      if (typeof v.x !== "number" || typeof v.y !== "number" || typeof v.z !== "number")
        invalidValue(`${field}[${i}]`, v, "must be a vector of 3 finite numbers");
      out[3 * i] = v.x;
      out[3 * i + 1] = v.y;
      out[3 * i + 2] = v.z;
    }
    return out;
  }
  if (vertices.length % 3 !== 0)
    invalidValue(field, vertices.length, "must hold 3 numbers per vertex (length a multiple of 3)");
  if (Array.isArray(vertices)) {
    // Float64Array.from would turn "1" into 1 and null into 0.
    for (let i = 0; i < vertices.length; i++) {
      if (typeof vertices[i] !== "number")
        invalidValue(`${field}[${i}]`, vertices[i], "must be a number (packed xyz)");
    }
  }
  return Float64Array.from(vertices as ArrayLike<number>);
}

const MESH_SPEC = optionsSpec("makeTriangleMesh", "options", {
  activeEdgeCos: "number",
  indexPath: "string",
  solid: "boolean",
});

/**
 * A triangle mesh over `vertices` (packed xyz or `Vec3[]`, local frame, scene units) and
 * `indices` (3 vertex indices per triangle, any winding; an outward counter-clockwise winding
 * makes {@link containsPointTriangleMesh} meaningful for closed meshes). Degenerate triangles
 * (repeated or collinear corners) and open or non-manifold meshes are accepted. Builds the BVH
 * (binned SAH), welds equal positions for adjacency ({@link TriangleMesh.weld}) and classifies
 * active edges; the arrays are copied, as given.
 *
 * Throws `CollideError` (`invalid_value`) naming the triangle: an index that is not an integer
 * in [0, vertexCount) as `<field>.indices[3*t+k]` (or `indices[t][k]`, see
 * {@link TriangleMeshOptions.indexPath}) "of triangle t"; a non-finite coordinate as
 * `<field>.vertices[i]` with the first triangle that uses it, and so a coordinate of magnitude
 * `MESH_COORDINATE_LIMIT` (2^1023) or more; an index count that is not a multiple of 3; an
 * `options.indexPath` other than "packed" or "nested"; a mesh with no vertices (`<field>.vertices`) or no triangles
 * (`<field>.indices`): it would touch nothing, so an empty or failed export would pass an
 * interference check.
 */
export function makeTriangleMesh(
  vertices: ArrayLike<number> | readonly Vec3[],
  indices: ArrayLike<number>,
  field = "",
  options: TriangleMeshOptions = {},
): TriangleMesh {
  // makeTriangleMesh(v, i, { solid: true }): the options in the field's place were dropped.
  checkFieldArg(
    "makeTriangleMesh",
    field,
    "the options go fourth: makeTriangleMesh(vertices, indices, field, { solid, … })",
  );
  checkOptions(options, MESH_SPEC);
  const p = field ? `${field}.` : "";
  const v = packVertices(vertices, `${p}vertices`);
  checkArrayArg(`${p}indices`, indices, "an array of vertex indices, 3 per triangle");
  const vertexCount = v.length / 3;
  if (indices.length % 3 !== 0)
    invalidValue(`${p}indices`, indices.length, "must hold 3 vertex indices per triangle");
  const triangleCount = indices.length / 3;
  if (vertexCount === 0) {
    invalidValue(
      `${p}vertices`,
      [],
      "must hold at least one vertex (an empty mesh touches nothing)",
    );
  }
  if (triangleCount === 0) {
    invalidValue(
      `${p}indices`,
      [],
      "must hold at least one triangle (a mesh without triangles touches nothing)",
    );
  }
  const indexPath = options.indexPath;
  if (indexPath !== undefined && indexPath !== "packed" && indexPath !== "nested")
    invalidValue("options.indexPath", indexPath, 'must be "packed" or "nested"');
  const nested = indexPath === "nested";
  const idx = new Uint32Array(indices.length);
  for (let t = 0; t < triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const x = indices[3 * t + k];
      if (!Number.isInteger(x) || x < 0 || x >= vertexCount) {
        const f = nested ? `${p}indices[${t}][${k}]` : `${p}indices[${3 * t + k}]`;
        invalidValue(
          f,
          x,
          `of triangle ${t} must be an integer vertex index in [0, ${vertexCount})`,
        );
      }
      idx[3 * t + k] = x;
    }
  }
  for (let i = 0; i < v.length; i++) {
    // Also refuses a NaN.
    if (!(Math.abs(v[i]) < MESH_COORDINATE_LIMIT)) {
      const vi = Math.floor(i / 3);
      const t = idx.indexOf(vi);
      const user = t >= 0 ? `(a corner of triangle ${Math.floor(t / 3)}) ` : "";
      invalidValue(
        `${p}vertices[${vi}]`,
        [v[3 * vi], v[3 * vi + 1], v[3 * vi + 2]],
        Number.isFinite(v[i])
          ? `${user}must have coordinates below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (the BVH sums a box's min and max)`
          : `${user}must be a vector of 3 finite numbers`,
      );
    }
  }
  const activeEdgeCos = options.activeEdgeCos ?? MESH_ACTIVE_EDGE_COS;
  if (!(activeEdgeCos >= -1 && activeEdgeCos <= 1))
    invalidValue("activeEdgeCos", activeEdgeCos, "must be a cosine in [-1, 1]");
  const boxes = triangleBoxScratch(triangleCount);
  triangleBoxes(boxes, v, idx, triangleCount);
  const bvh = buildMeshBvh(boxes, triangleCount, { reorderBounds: true });
  const weld = weldVertices(v, vertexCount);
  const welded = weldedIndices(idx, weld);
  const { neighbors, closed } = findEdgeNeighbors(welded, vertexCount, triangleCount);
  const solid = options.solid ?? false;
  if (typeof solid !== "boolean") invalidValue(`${p}solid`, solid, "must be true or false");
  if (solid && !closed)
    invalidValue(
      `${p}solid`,
      true,
      "needs a closed mesh (every edge shared by exactly two triangles with opposite directions); this mesh has open or non-manifold edges",
    );
  const activeEdges = new Uint8Array(triangleCount);
  const mesh: TriangleMesh = {
    type: ShapeType.TriangleMesh,
    vertices: v,
    indices: idx,
    vertexCount,
    triangleCount,
    bvh,
    activeEdges,
    edgeNeighbors: neighbors,
    closed,
    solid,
    activeEdgeCos,
    weld,
    pseudoNormals: closed ? computeMeshPseudoNormals(v, idx, triangleCount, weld) : null,
  };
  classifyActiveEdges(mesh);
  return brandShape(mesh);
}

/**
 * The triangle boxes of the last mesh made, held weakly: meshes made back to back (a level's, in
 * one task) reuse the array, whose pages are already mapped (a fresh one costs a page fault per
 * 4 KB on first touch: 11,000 for a million triangles). Only the BVH build reads it.
 */
let boxScratch: WeakRef<Float64Array> | null = null;

/** An array of at least 6·n numbers for the boxes of n triangles (the kept one when it fits). */
function triangleBoxScratch(n: number): Float64Array {
  const kept = boxScratch?.deref();
  if (kept !== undefined && kept.length >= 6 * n) return kept;
  const boxes = new Float64Array(6 * n);
  boxScratch = new WeakRef(boxes);
  return boxes;
}

function triangleBoxes(out: Float64Array, v: Float64Array, idx: Uint32Array, n: number): void {
  for (let t = 0; t < n; t++) {
    const a = 3 * idx[3 * t];
    const b = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    for (let k = 0; k < 3; k++) {
      out[6 * t + k] = Math.min(v[a + k], v[b + k], v[c + k]);
      out[6 * t + 3 + k] = Math.max(v[a + k], v[b + k], v[c + k]);
    }
  }
}

/**
 * Welds vertex positions for adjacency: per vertex, the lowest index of a vertex at exactly the
 * same position (x, y and z each equal by `===`, so −0 and +0 are one coordinate; no tolerance,
 * so vertices the user placed apart stay apart), or null when every position is distinct (the
 * indices are then the adjacency as given). A triangle soup or a file exported with split
 * vertices (per-face normals, UV seams) thus gets the edge neighbours, closedness and vertex
 * pseudo-normals of the same triangles over shared vertices. Open addressing over a table of
 * 2^k ≥ 2n slots keyed by a hash of the coordinates' bits: O(n) expected time, 12n bytes.
 */
function weldVertices(v: Float64Array, n: number): Uint32Array | null {
  let size = 2;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const bits = new Uint32Array(v.buffer, v.byteOffset, 2 * v.length);
  let canon: Uint32Array | null = null;
  for (let i = 0; i < n; i++) {
    const x = v[3 * i];
    const y = v[3 * i + 1];
    const z = v[3 * i + 2];
    let slot = positionHash(v, bits, i) & mask;
    let same = -1;
    for (;;) {
      const j = table[slot];
      if (j < 0) break;
      if (v[3 * j] === x && v[3 * j + 1] === y && v[3 * j + 2] === z) {
        same = j;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (same < 0) {
      table[slot] = i;
      if (canon !== null) canon[i] = i;
      continue;
    }
    if (canon === null) {
      canon = new Uint32Array(n);
      for (let k = 0; k < i; k++) canon[k] = k;
    }
    canon[i] = same;
  }
  return canon;
}

/**
 * A 32-bit hash of vertex i's exact coordinates (FNV-1a over their bits, then a finalizer), `bits`
 * the vertices' array viewed as 32-bit words; a zero coordinate hashes as +0's bits, as −0 === +0,
 * so positions equal by `===` hash alike.
 */
function positionHash(v: Float64Array, bits: Uint32Array, i: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < 3; k++) {
    const zero = v[3 * i + k] === 0;
    h = Math.imul(h ^ (zero ? 0 : bits[6 * i + 2 * k]), 0x01000193);
    h = Math.imul(h ^ (zero ? 0 : bits[6 * i + 2 * k + 1]), 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h;
}

/**
 * The weld of new positions `v` ({@link weldVertices}) for a mesh whose old positions had the
 * weld `old`: `old` itself when it still holds — every vertex still at exactly its canonical
 * vertex's position, and the canonical vertices still pairwise distinct (hashed alone: a soup's
 * distinct positions, about a sixth of its vertices on a grid) — else the weld computed afresh.
 * Equal to `weldVertices(v, n)` either way (a class neither splits nor merges, so its lowest
 * index stays its canonical vertex).
 */
function reweldVertices(v: Float64Array, n: number, old: Uint32Array | null): Uint32Array | null {
  if (old === null) return weldVertices(v, n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = old[i];
    if (j === i) {
      m++;
      continue;
    }
    if (v[3 * i] !== v[3 * j] || v[3 * i + 1] !== v[3 * j + 1] || v[3 * i + 2] !== v[3 * j + 2])
      return weldVertices(v, n);
  }
  let size = 2;
  while (size < 2 * m) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const bits = new Uint32Array(v.buffer, v.byteOffset, 2 * v.length);
  for (let i = 0; i < n; i++) {
    if (old[i] !== i) continue;
    let slot = positionHash(v, bits, i) & mask;
    for (;;) {
      const j = table[slot];
      if (j < 0) break;
      if (v[3 * j] === v[3 * i] && v[3 * j + 1] === v[3 * i + 1] && v[3 * j + 2] === v[3 * i + 2])
        return weldVertices(v, n);
      slot = (slot + 1) & mask;
    }
    table[slot] = i;
  }
  return old;
}

/** The corner indices with each vertex replaced by its welded (canonical) vertex. */
function weldedIndices(idx: Uint32Array, canon: Uint32Array | null): Uint32Array {
  if (canon === null) return idx;
  const w = new Uint32Array(idx.length);
  for (let k = 0; k < idx.length; k++) w[k] = canon[idx[k]];
  return w;
}

/**
 * Matches half-edges by their welded vertex pair (bucketed by the lower vertex, compressed-row
 * style, linear time): a neighbor across an edge only when exactly two half-edges share it in
 * opposite directions; closed when every edge is such a pair. A triangle with two corners at one
 * welded vertex (a segment or a point) takes no part: its edges have no neighbours, and it does
 * not separate the triangles on either side of it (a collapsed sliver); it opens the mesh unless
 * it lies on the others' surface (along one of their edges, at one of their vertices).
 */
function findEdgeNeighbors(
  idx: Uint32Array,
  vertexCount: number,
  triangleCount: number,
): { neighbors: Int32Array; closed: boolean } {
  const h = 3 * triangleCount;
  const start = new Uint32Array(vertexCount + 1);
  let kept = 0;
  for (let t = 0; t < triangleCount; t++) {
    const a = idx[3 * t];
    const b = idx[3 * t + 1];
    const c = idx[3 * t + 2];
    if (a === b || b === c || c === a) continue;
    kept++;
    start[Math.min(a, b) + 1]++;
    start[Math.min(b, c) + 1]++;
    start[Math.min(c, a) + 1]++;
  }
  for (let i = 0; i < vertexCount; i++) start[i + 1] += start[i];
  const fill = start.slice(0, vertexCount);
  const bucket = new Uint32Array(3 * kept);
  for (let e = 0; e < h; e++) {
    const t = e - (e % 3);
    if (idx[t] === idx[t + 1] || idx[t + 1] === idx[t + 2] || idx[t + 2] === idx[t]) continue;
    const a = idx[e];
    const b = idx[t + (((e % 3) + 1) % 3)];
    bucket[fill[Math.min(a, b)]++] = e;
  }
  const neighbors = new Int32Array(h).fill(-1);
  let closed = kept > 0;
  // Within a vertex's bucket the half-edges are grouped by their other end: a half-edge has a
  // neighbour when its undirected edge has exactly two half-edges, the other running the opposite
  // way; any other count (a boundary, three or more triangles on one edge) or two the same way
  // leaves it without one and the mesh open. Counted per other end, so a vertex of valence k
  // costs O(k), not O(k²) (a fan of 32k triangles on one edge had taken a minute).
  const count = new Uint32Array(vertexCount);
  const first = new Int32Array(vertexCount);
  const second = new Int32Array(vertexCount);
  for (let vtx = 0; vtx < vertexCount; vtx++) {
    const s0 = start[vtx];
    const s1 = start[vtx + 1];
    for (let s = s0; s < s1; s++) {
      const e = bucket[s];
      const o = otherEnd(idx, e, vtx);
      const c = count[o]++;
      if (c === 0) first[o] = e;
      else if (c === 1) second[o] = e;
    }
    for (let s = s0; s < s1; s++) {
      const e = bucket[s];
      const o = otherEnd(idx, e, vtx);
      if (count[o] !== 2) {
        closed = false;
        continue;
      }
      const f = first[o] === e ? second[o] : first[o];
      // Opposite ways: f's start is e's end.
      if (idx[f] === idx[e - (e % 3) + (((e % 3) + 1) % 3)]) neighbors[e] = Math.floor(f / 3);
      else closed = false;
    }
    for (let s = s0; s < s1; s++) count[otherEnd(idx, bucket[s], vtx)] = 0;
  }
  // A collapsed triangle keeps the mesh closed only where it lies on the kept surface: a segment
  // along one of its edges, a point at one of its vertices. Elsewhere (a point triangle inside a
  // cube) it is a part that the solid's closed surface does not hold, and the mesh is open.
  if (closed && kept < triangleCount)
    closed = collapsedOnSurface(idx, triangleCount, start, bucket);
  return { neighbors, closed };
}

/** The end of half-edge `e` (corner e to the next corner of its triangle) that is not `vtx`. */
function otherEnd(idx: Uint32Array, e: number, vtx: number): number {
  const a = idx[e];
  return a === vtx ? idx[e - (e % 3) + (((e % 3) + 1) % 3)] : a;
}

/**
 * True when every collapsed triangle of `idx` (two corners at one welded vertex) lies on the
 * surface of the others: its two distinct vertices an edge of theirs (in `bucket`, the kept
 * half-edges by lower vertex, `start` its rows), or its one vertex a corner of theirs.
 */
function collapsedOnSurface(
  idx: Uint32Array,
  triangleCount: number,
  start: Uint32Array,
  bucket: Uint32Array,
): boolean {
  let used: Uint8Array | null = null;
  for (let t = 0; t < triangleCount; t++) {
    const a = idx[3 * t];
    const b = idx[3 * t + 1];
    const c = idx[3 * t + 2];
    if (!(a === b || b === c || c === a)) continue;
    const u = Math.min(a, b, c);
    const v = Math.max(a, b, c);
    let found = false;
    if (u === v) {
      // A point: a corner of a kept half-edge (the corners marked once, on the first point).
      if (used === null) {
        used = new Uint8Array(start.length);
        for (let e = 0; e < bucket.length; e++) used[idx[bucket[e]]] = 1;
      }
      found = used[u] === 1;
    } else {
      for (let s = start[u]; s < start[u + 1] && !found; s++) {
        const f = bucket[s];
        const p = idx[f];
        const q = idx[f - (f % 3) + (((f % 3) + 1) % 3)];
        found = (p === u && q === v) || (p === v && q === u);
      }
    }
    if (!found) return false;
  }
  return true;
}

const na = vec3.create();
const nb = vec3.create();
const ea = vec3.create();
const eb = vec3.create();
const ec = vec3.create();

/** out = the unnormalized normal (b − a) × (c − a) of triangle t. */
function rawNormal(out: Vec3, mesh: TriangleMesh, t: number): Vec3 {
  const v = mesh.vertices;
  const i = mesh.indices;
  const a = 3 * i[3 * t];
  const b = 3 * i[3 * t + 1];
  const c = 3 * i[3 * t + 2];
  vec3.set(ea, v[b] - v[a], v[b + 1] - v[a + 1], v[b + 2] - v[a + 2]);
  vec3.set(eb, v[c] - v[a], v[c + 1] - v[a + 1], v[c + 2] - v[a + 2]);
  return vec3.cross(out, ea, eb);
}

/**
 * out = triangle `t`'s normal direction ((b − a) × (c − a) times a power of two,
 * `vec3.crossDirection`): a mesh scaled by 2^600 or 2^-300 as a whole has the same unit normals,
 * so the same active edges (its products had overflowed or underflowed: attack 38).
 */
function normalDirection(out: Vec3, mesh: TriangleMesh, t: number): Vec3 {
  const v = mesh.vertices;
  const i = mesh.indices;
  const a = 3 * i[3 * t];
  const b = 3 * i[3 * t + 1];
  const c = 3 * i[3 * t + 2];
  vec3.set(ea, v[b] - v[a], v[b + 1] - v[a + 1], v[b + 2] - v[a + 2]);
  vec3.set(eb, v[c] - v[a], v[c + 1] - v[a + 1], v[c + 2] - v[a + 2]);
  return vec3.crossDirection(out, ea, eb);
}

/** Recomputes `activeEdges` from the current vertices (see the module doc). */
function classifyActiveEdges(mesh: TriangleMesh): void {
  const v = mesh.vertices;
  const idx = mesh.indices;
  for (let t = 0; t < mesh.triangleCount; t++) {
    let flags = 0;
    normalDirection(na, mesh, t);
    const la = vec3.normalize(na, na);
    for (let e = 0; e < 3; e++) {
      const n = mesh.edgeNeighbors[3 * t + e];
      if (n < 0 || !(la > 0)) {
        flags |= 1 << e;
        continue;
      }
      normalDirection(nb, mesh, n);
      if (!(vec3.normalize(nb, nb) > 0)) {
        flags |= 1 << e;
        continue;
      }
      const p = 3 * idx[3 * t + e];
      const q = 3 * idx[3 * t + ((e + 1) % 3)];
      vec3.set(ec, v[q] - v[p], v[q + 1] - v[p + 1], v[q + 2] - v[p + 2]);
      vec3.cross(ea, na, nb);
      const convexity = vec3.dot(ea, ec);
      const cos = vec3.dot(na, nb);
      // Convex (a ridge seen from the normals' side) and bent beyond the threshold, or folded
      // back on itself: active. Coplanar or concave: inactive.
      if ((convexity > 0 && cos < mesh.activeEdgeCos) || cos <= -mesh.activeEdgeCos)
        flags |= 1 << e;
    }
    mesh.activeEdges[t] = flags;
  }
}

/**
 * A new mesh with `mesh`'s triangles over new vertex positions (a deforming mesh: same vertex
 * count and triangles; `mesh` itself is frozen and unchanged — a changed shape is a new shape).
 * A refit, as in parry and three-mesh-bvh: the index buffer is kept, and everything derived
 * from the positions is recomputed, so the new mesh answers every query as
 * {@link makeTriangleMesh} on the new vertices, the same indices and the same options would
 * (test/shapes/mesh-update-topology.test.ts), except that its BVH is the old tree refitted, not
 * rebuilt (`refitMeshBvh` on a copy of its boxes, src/geometry/mesh-bvh.ts: the same triangles
 * found, in another order, and a tree that degrades when the triangles move far). Recomputed:
 * the weld of exactly equal positions ({@link TriangleMesh.weld}) — corners that coincided and
 * now part stop being shared, corners that now coincide become shared — and, when it changed,
 * the edge neighbours and closedness (otherwise shared with `mesh`); the active edges (edge
 * convexity) and a closed mesh's pseudo-normals, always. O(vertices + triangles), a hash of the
 * positions more than the refit and the edges.
 *
 * Throws `CollideError` when `mesh` is not a triangle mesh (`mesh`) or `vertices` no array or
 * typed array (`vertices`), for a wrong length or a non-finite coordinate (`vertices[i]`) or one
 * beyond `MESH_COORDINATE_LIMIT` (2^1023), and (`solid`) when `mesh` was made with
 * `solid: true` and the new positions open it (an edge no longer shared by exactly two
 * triangles with opposite directions: {@link makeTriangleMesh} would refuse `solid: true` on
 * them); `mesh` is left as it was.
 */
export function updateTriangleMeshVertices(
  mesh: TriangleMesh,
  vertices: ArrayLike<number>,
): TriangleMesh {
  if (
    mesh === null ||
    typeof mesh !== "object" ||
    mesh.type !== ShapeType.TriangleMesh ||
    !isBrandedShape(mesh)
  )
    invalidValue("mesh", mesh, "must be a triangle mesh made by makeTriangleMesh");
  if (vertices === null || typeof vertices !== "object" || typeof vertices.length !== "number")
    invalidValue("vertices", vertices, "must be an array or typed array of numbers");
  if (vertices.length !== mesh.vertices.length)
    invalidValue("vertices", vertices.length, `must have length ${mesh.vertices.length}`);
  for (let i = 0; i < vertices.length; i++) {
    if (!Number.isFinite(vertices[i]))
      invalidValue(`vertices[${Math.floor(i / 3)}]`, vertices[i], "must be finite");
    if (!(Math.abs(vertices[i]) < MESH_COORDINATE_LIMIT))
      invalidValue(
        `vertices[${Math.floor(i / 3)}]`,
        vertices[i],
        "must be below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude",
      );
  }
  const v = Float64Array.from(vertices);
  // The adjacency is a function of the welded indices alone: recomputed only when the weld moved.
  const weld = reweldVertices(v, mesh.vertexCount, mesh.weld);
  let edgeNeighbors = mesh.edgeNeighbors;
  let closed = mesh.closed;
  if (weld !== mesh.weld && !sameWeld(weld, mesh.weld)) {
    const found = findEdgeNeighbors(
      weldedIndices(mesh.indices, weld),
      mesh.vertexCount,
      mesh.triangleCount,
    );
    edgeNeighbors = found.neighbors;
    closed = found.closed;
  }
  if (mesh.solid && !closed) {
    const t = firstOpenTriangle(mesh.indices, weld, edgeNeighbors, mesh.triangleCount);
    invalidValue(
      "solid",
      true,
      `needs a closed mesh (every edge shared by exactly two triangles with opposite directions, over exactly equal positions), as makeTriangleMesh requires; these vertices open it${t >= 0 ? ` (an edge of triangle ${t} is now open or non-manifold)` : ""}: refused, the mesh unchanged (make a mesh that deforms open with solid: false)`,
    );
  }
  const boxes = new Float64Array(6 * mesh.triangleCount);
  triangleBoxes(boxes, v, mesh.indices, mesh.triangleCount);
  const bvh: MeshBvh = { ...mesh.bvh, bounds: mesh.bvh.bounds.slice() };
  refitMeshBvh(bvh, boxes);
  const next: TriangleMesh = {
    ...mesh,
    vertices: v,
    bvh,
    weld,
    edgeNeighbors,
    closed,
    activeEdges: new Uint8Array(mesh.triangleCount),
    pseudoNormals: closed
      ? computeMeshPseudoNormals(v, mesh.indices, mesh.triangleCount, weld)
      : null,
  };
  classifyActiveEdges(next);
  return brandShape(next);
}

/** True when two welds ({@link weldVertices}) map every vertex alike (null: no two positions equal). */
function sameWeld(a: Uint32Array | null, b: Uint32Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The first triangle with three distinct welded corners and an edge without a neighbour (an
 * open or non-manifold edge), or −1 (the mesh is open only by a collapsed triangle off the
 * surface): the place an error message names.
 */
function firstOpenTriangle(
  idx: Uint32Array,
  weld: Uint32Array | null,
  neighbors: Int32Array,
  triangleCount: number,
): number {
  for (let t = 0; t < triangleCount; t++) {
    const a = weld === null ? idx[3 * t] : weld[idx[3 * t]];
    const b = weld === null ? idx[3 * t + 1] : weld[idx[3 * t + 1]];
    const c = weld === null ? idx[3 * t + 2] : weld[idx[3 * t + 2]];
    if (a === b || b === c || c === a) continue;
    if (neighbors[3 * t] < 0 || neighbors[3 * t + 1] < 0 || neighbors[3 * t + 2] < 0) return t;
  }
  return -1;
}

/**
 * The largest coordinate magnitude of the mesh's vertices in its own frame (its BVH root's box;
 * scene units; 0 for a mesh without nodes): the scale of its coordinates' rounding.
 */
export function meshMagnitude(mesh: TriangleMesh): number {
  const b = mesh.bvh.bounds;
  if (mesh.bvh.nodeCount === 0) return 0;
  return Math.max(
    Math.abs(b[0]),
    Math.abs(b[1]),
    Math.abs(b[2]),
    Math.abs(b[3]),
    Math.abs(b[4]),
    Math.abs(b[5]),
  );
}

/**
 * Writes the corners of triangle `t` of `mesh` (local frame) into a, b, c. Unchecked hot-path
 * form (`t` must be a triangle index): the main entry exports the checked one,
 * src/query/checked-helpers.ts.
 */
export function getMeshTriangle(mesh: TriangleMesh, t: number, a: Vec3, b: Vec3, c: Vec3): void {
  const v = mesh.vertices;
  const i = mesh.indices;
  const ia = 3 * i[3 * t];
  const ib = 3 * i[3 * t + 1];
  const ic = 3 * i[3 * t + 2];
  vec3.set(a, v[ia], v[ia + 1], v[ia + 2]);
  vec3.set(b, v[ib], v[ib + 1], v[ib + 2]);
  vec3.set(c, v[ic], v[ic + 1], v[ic + 2]);
}

/**
 * out = the unit normal of triangle `t` by its winding ((b − a) × (c − a), local frame); returns
 * the triangle's doubled area, 0 for a degenerate triangle (then out is left as the zero vector).
 * Unchecked hot-path form (`t` must be a triangle index): the main entry exports the checked one,
 * src/query/checked-helpers.ts.
 */
export function meshTriangleNormal(out: Vec3, mesh: TriangleMesh, t: number): number {
  rawNormal(out, mesh, t);
  return vec3.normalize(out, out);
}

const corner = vec3.create();

/**
 * out = a world AABB of the mesh placed at `pose`: exact for an identity rotation (the BVH root
 * box translated); otherwise the bounds of the rotated local box (conservative, O(1), so that
 * a large static mesh costs nothing per step). An empty mesh gives the point at the pose.
 */
export function aabbTriangleMesh(out: Aabb, mesh: TriangleMesh, pose: Isometry): Aabb {
  const t = pose.translation;
  if (mesh.bvh.nodeCount === 0) {
    vec3.copy(out.min, t);
    vec3.copy(out.max, t);
    return out;
  }
  const b = mesh.bvh.bounds;
  if (quat.isIdentity(pose.rotation)) {
    vec3.set(out.min, b[0] + t.x, b[1] + t.y, b[2] + t.z);
    vec3.set(out.max, b[3] + t.x, b[4] + t.y, b[5] + t.z);
    return out;
  }
  vec3.set(out.min, Infinity, Infinity, Infinity);
  vec3.set(out.max, -Infinity, -Infinity, -Infinity);
  for (let k = 0; k < 8; k++) {
    vec3.set(corner, k & 1 ? b[3] : b[0], k & 2 ? b[4] : b[1], k & 4 ? b[5] : b[2]);
    quat.rotate(corner, pose.rotation, corner);
    vec3.add(corner, corner, t);
    vec3.min(out.min, out.min, corner);
    vec3.max(out.max, out.max, corner);
  }
  return out;
}

/** Magnitudes the winding number takes unscaled: its cubes stay finite and normal. */
const WINDING_RANGE_MAX = 2 ** 256;
const WINDING_RANGE_MIN = 2 ** -256;

/**
 * The generalized winding number of `mesh` at local point `p` (Jacobson et al. 2013): Σ Ω_t /
 * 4π over the triangles, with the signed solid angle Ω_t of Van Oosterom & Strackee (1983),
 * 2·atan2(a·(b×c), |a||b||c| + (a·b)|c| + (b·c)|a| + (c·a)|b|) for corners relative to p. For a
 * closed, outward-wound mesh: 1 inside, 0 outside, ½ on the surface; for open meshes a smooth
 * "insideness". A point on a vertex or an edge adds 0 for that triangle (finite, never NaN).
 * The solid angle is a ratio of cubes of the corners' offsets, which overflow above about
 * 1e102 and underflow below about 1e-102: when the mesh's box or the point reaches outside
 * [2^-256, 2^256], the offsets are first multiplied by a power of two that brings that
 * magnitude near 1 (exact, and the same angles). O(triangles). Unchecked (a NaN point gives NaN):
 * the main entry exports the checked form, src/query/checked-helpers.ts.
 */
export function windingNumberTriangleMesh(mesh: TriangleMesh, p: Vec3): number {
  const v = mesh.vertices;
  const idx = mesh.indices;
  const bb = mesh.bvh.bounds;
  const m = Math.max(
    Math.abs(p.x),
    Math.abs(p.y),
    Math.abs(p.z),
    mesh.bvh.nodeCount === 0
      ? 0
      : Math.max(
          Math.abs(bb[0]),
          Math.abs(bb[1]),
          Math.abs(bb[2]),
          Math.abs(bb[3]),
          Math.abs(bb[4]),
          Math.abs(bb[5]),
        ),
  );
  let k = 1;
  if (m > WINDING_RANGE_MAX || (m > 0 && m < WINDING_RANGE_MIN)) k = unitScale(m);
  let sum = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const a = 3 * idx[3 * t];
    const b = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    const ax = (v[a] - p.x) * k;
    const ay = (v[a + 1] - p.y) * k;
    const az = (v[a + 2] - p.z) * k;
    const bx = (v[b] - p.x) * k;
    const by = (v[b + 1] - p.y) * k;
    const bz = (v[b + 2] - p.z) * k;
    const cx = (v[c] - p.x) * k;
    const cy = (v[c + 1] - p.y) * k;
    const cz = (v[c + 2] - p.z) * k;
    const la = Math.sqrt(ax * ax + ay * ay + az * az);
    const lb = Math.sqrt(bx * bx + by * by + bz * bz);
    const lc = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    const den =
      la * lb * lc +
      (ax * bx + ay * by + az * bz) * lc +
      (bx * cx + by * cy + bz * cz) * la +
      (cx * ax + cy * ay + cz * az) * lb;
    if (det === 0 && den === 0) continue;
    sum += 2 * Math.atan2(det, den);
  }
  return sum / (4 * Math.PI);
}

/**
 * True when local point `p` is inside the closed mesh: its winding number is at least
 * `MESH_WINDING_INSIDE` (½) in magnitude, so either winding of a closed mesh works. For an
 * open mesh the answer is the same rounding of its generalized winding number (a sensible
 * "inside" for nearly closed meshes). O(triangles). Unchecked (a NaN point gives false): the main
 * entry exports the checked form, src/query/checked-helpers.ts.
 */
export function containsPointTriangleMesh(mesh: TriangleMesh, p: Vec3): boolean {
  // Outside the box of the vertices the winding number of a closed mesh is 0 (exact, and free of
  // the rounding of a far point's solid angles).
  const b = mesh.bvh.bounds;
  if (
    mesh.closed &&
    mesh.bvh.nodeCount > 0 &&
    (p.x < b[0] || p.y < b[1] || p.z < b[2] || p.x > b[3] || p.y > b[4] || p.z > b[5])
  )
    return false;
  return Math.abs(windingNumberTriangleMesh(mesh, p)) >= MESH_WINDING_INSIDE;
}

/**
 * The convex hull of the mesh's vertices as a `convex` shape (src/geometry/hull.ts quickhull),
 * in the mesh's local frame. Throws `CollideError` naming `field` when the vertices are fewer
 * than 4 or all coplanar.
 */
export function convexHullOfTriangleMesh(mesh: TriangleMesh, field = "vertices"): ConvexPolyhedron {
  return makeConvexPolyhedron(mesh.vertices, field);
}

/** The convex solids of the meshes asked so far (null: not convex), see {@link convexSolidOfTriangleMesh}. */
const convexSolids = new WeakMap<TriangleMesh, ConvexPolyhedron | null>();

/**
 * The solid of a `solid: true` mesh as one convex shape when that solid is convex, else null (and
 * null for a surface mesh): the convex hull of its distinct vertex positions (sorted, so the same
 * for a soup as for the indexed mesh), in the mesh's frame, when every
 * triangle lies on the hull's boundary facing out — its corners within
 * `SOLID_MESH_CONVEX_TOLERANCE` of the mesh's magnitude of the hull's extent along the triangle's
 * outward normal — and the mesh winds once around an interior point (so it covers the hull's
 * boundary once). Computed on the first call (a hull, a hull support per triangle and one winding
 * number) and kept per mesh; later calls allocate nothing.
 */
export function convexSolidOfTriangleMesh(mesh: TriangleMesh): ConvexPolyhedron | null {
  if (!mesh.solid) return null;
  const kept = convexSolids.get(mesh);
  if (kept !== undefined) return kept;
  const hull = convexSolidOf(mesh);
  convexSolids.set(mesh, hull);
  return hull;
}

/**
 * The mesh's distinct vertex positions (one per welded vertex) in lexicographic (x, y, z) order,
 * each zero written +0 (the weld makes −0 and +0 one position; which sign its lowest index
 * carries follows the vertex order): the hull's input as a function of the positions alone, so
 * a soup, a split-vertex export, the indexed mesh of the same triangles and any reordering of
 * its vertices or triangles get the same hull, bit for bit.
 */
function distinctSortedPositions(mesh: TriangleMesh): Float64Array {
  const v = mesh.vertices;
  const weld = mesh.weld;
  const ids: number[] = [];
  for (let i = 0; i < mesh.vertexCount; i++) if (weld === null || weld[i] === i) ids.push(i);
  ids.sort(
    (i, j) => v[3 * i] - v[3 * j] || v[3 * i + 1] - v[3 * j + 1] || v[3 * i + 2] - v[3 * j + 2],
  );
  const out = new Float64Array(3 * ids.length);
  for (let k = 0; k < ids.length; k++) {
    out[3 * k] = v[3 * ids[k]] + 0;
    out[3 * k + 1] = v[3 * ids[k] + 1] + 0;
    out[3 * k + 2] = v[3 * ids[k] + 2] + 0;
  }
  return out;
}

/** The position hulls of the meshes asked so far (null: flat), see {@link positionHullOfTriangleMesh}. */
const positionHulls = new WeakMap<TriangleMesh, ConvexPolyhedron | null>();

/**
 * The convex hull of the mesh's distinct vertex positions taken in lexicographic order
 * ({@link distinctSortedPositions}), in the mesh's frame, or null when they are fewer than 4 or
 * coplanar: a function of the set of positions alone, bit for bit, whatever the order of the
 * vertices and triangles and whether the mesh is indexed or a soup. The convex solid of a convex
 * solid mesh and the hull that bounds a non-convex one (src/narrowphase/mesh-solid.ts) are this
 * hull. Computed on the first call and kept per mesh; later calls allocate nothing.
 */
export function positionHullOfTriangleMesh(mesh: TriangleMesh): ConvexPolyhedron | null {
  const kept = positionHulls.get(mesh);
  if (kept !== undefined) return kept;
  let hull: ConvexPolyhedron | null;
  try {
    hull = makeConvexPolyhedron(distinctSortedPositions(mesh));
  } catch {
    hull = null;
  }
  positionHulls.set(mesh, hull);
  return hull;
}

function convexSolidOf(mesh: TriangleMesh): ConvexPolyhedron | null {
  const hull = positionHullOfTriangleMesh(mesh);
  if (hull === null) return null; // flat: no solid to be convex
  const hv = hull.vertices;
  const v = mesh.vertices;
  const idx = mesh.indices;
  let mag = 0;
  for (let i = 0; i < v.length; i++) mag = Math.max(mag, Math.abs(v[i]));
  const tol = SOLID_MESH_CONVEX_TOLERANCE * mag;
  const orientation = mesh.pseudoNormals?.orientation ?? 1;
  const n = vec3.create();
  const top = vec3.create();
  for (let t = 0; t < mesh.triangleCount; t++) {
    if (meshTriangleNormal(n, mesh, t) === 0) continue; // degenerate: on its neighbours' planes
    vec3.scale(n, n, orientation);
    supportConvexPolyhedron(top, hull, n);
    const extent = vec3.dot(n, top);
    for (let c = 0; c < 3; c++) {
      const o = 3 * idx[3 * t + c];
      if (extent - (n.x * v[o] + n.y * v[o + 1] + n.z * v[o + 2]) > tol) return null;
    }
  }
  const centre = vec3.create();
  for (let k = 0; k < hv.length; k += 3) {
    centre.x += hv[k];
    centre.y += hv[k + 1];
    centre.z += hv[k + 2];
  }
  vec3.scale(centre, centre, 3 / hv.length);
  if (Math.abs(Math.abs(windingNumberTriangleMesh(mesh, centre)) - 1) > MESH_WINDING_INSIDE)
    return null;
  return hull;
}
