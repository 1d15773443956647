/**
 * The closed-form ray cast of a rounded polytope: a convex polytope P (a box, a hull, a flat
 * polygon) swept by a ball of radius r > 0, the points within r of P (Ericson 2005, §5.3.7 for
 * the capsule, and §5.5.7's view of a swept sphere against a box as the union of the box's faces
 * pushed out, its edges' capsules and its corners' balls).
 *
 * Pieces of P ⊕ B(r), each inside it: every edge's capsule (the finite cylinder of radius r about
 * the edge and the balls at its ends) and every face's prism (the face polygon moved out along
 * its normal by 0..r). A point of the shape's boundary is at distance r from P, its closest point
 * of P on a face's interior, an edge or a vertex, so it lies in that face's prism or that edge's
 * capsule. The shape is convex, so the line meets it in [t0, t1] with both ends on its boundary:
 * t0 is the least entry over the pieces and t1 the greatest exit (every piece's point is the
 * shape's, and the pieces holding the two ends enter or leave there). A boundary point in a prism
 * is on its outer face (its sides are inside the capsules, its inner face is P's, at distance 0),
 * so a face counts only through its outer plane n·x = offset + r, where that point moved back by
 * r·n lies in the face polygon. At every seam one of the two pieces accepts without a test (a
 * ball) or with a test across the seam (a capsule's side spans its edge; the face polygon is
 * bounded by the edges), so rounding in one test cannot open a gap between them.
 *
 * Normals: the capsules' radial normals (from the closest point of the edge), the faces' own.
 * Returns the line's interval in the units of `d` (any non-zero vector); the caller turns it into
 * a ray's answer with `selectRayHit` (src/geometry/ray-primitives.ts). No allocation.
 */
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  capsuleIn,
  makeRayInterval,
  type RayInterval,
  rayIntervalCapsuleIn,
} from "./ray-primitives.js";

const edgeA = /* @__PURE__ */ vec3.create();
const edgeB = /* @__PURE__ */ vec3.create();
const piece: RayInterval = /* @__PURE__ */ makeRayInterval();

/**
 * The line o + t·d inside the polytope of packed xyz `vertices`, `edges` (vertex index pairs),
 * faces (`faceCount` loops: `faceVertices[faceOffsets[f] .. faceOffsets[f + 1])`, counter-clockwise
 * seen from outside, with unit outward `faceNormals` and `facePlaneOffsets`, n·p ≤ offset
 * inside) swept by the ball of radius `r` > 0 (see the module comment). Returns false on a miss.
 */
export function rayIntervalRoundedPolytope(
  out: RayInterval,
  vertices: ArrayLike<number>,
  edges: ArrayLike<number>,
  faceCount: number,
  faceOffsets: ArrayLike<number>,
  faceVertices: ArrayLike<number>,
  faceNormals: ArrayLike<number>,
  facePlaneOffsets: ArrayLike<number>,
  r: number,
  o: Vec3,
  d: Vec3,
): boolean {
  roundedIn[0] = r;
  return rayIntervalRoundedPolytopeIn(
    out,
    vertices,
    edges,
    faceCount,
    faceOffsets,
    faceVertices,
    faceNormals,
    facePlaneOffsets,
    o,
    d,
  );
}

/**
 * The radius r read by {@link rayIntervalRoundedPolytopeIn} and {@link rayIntervalRoundedCuboidIn}
 * (a typed array: a radius passed to a call V8 does not inline is boxed, once per edge before).
 */
export const roundedIn = /* @__PURE__ */ new Float64Array(1);

/** {@link rayIntervalRoundedPolytope} with the radius read from `roundedIn[0]`. */
export function rayIntervalRoundedPolytopeIn(
  out: RayInterval,
  vertices: ArrayLike<number>,
  edges: ArrayLike<number>,
  faceCount: number,
  faceOffsets: ArrayLike<number>,
  faceVertices: ArrayLike<number>,
  faceNormals: ArrayLike<number>,
  facePlaneOffsets: ArrayLike<number>,
  o: Vec3,
  d: Vec3,
): boolean {
  edgeCapsules(out, vertices, edges, o, d);
  pushedFaces(
    out,
    vertices,
    null,
    faceCount,
    faceOffsets,
    faceVertices,
    faceNormals,
    facePlaneOffsets,
    o,
    d,
  );
  if (!(span[0] <= span[1])) return false;
  out.tEnter = span[0];
  out.tExit = span[1];
  return true;
}

/**
 * The interval being built: [0] the least entry and [1] the greatest exit so far (their normals
 * in the output's). A typed array, not module `let`s, which V8 would box on every store.
 */
const span = /* @__PURE__ */ new Float64Array(2);

/** Starts the interval with the capsules (radius `roundedIn[0]`) of the edges (vertex index pairs) of `v`. */
function edgeCapsules(
  out: RayInterval,
  v: ArrayLike<number>,
  edges: ArrayLike<number>,
  o: Vec3,
  d: Vec3,
): void {
  span[0] = Infinity;
  span[1] = -Infinity;
  capsuleIn[0] = roundedIn[0];
  for (let q = 0; q + 1 < edges.length; q += 2) {
    const i = 3 * edges[q];
    const j = 3 * edges[q + 1];
    edgeA.x = v[i];
    edgeA.y = v[i + 1];
    edgeA.z = v[i + 2];
    edgeB.x = v[j];
    edgeB.y = v[j + 1];
    edgeB.z = v[j + 2];
    if (!rayIntervalCapsuleIn(piece, edgeA, edgeB, o, d)) continue;
    if (piece.tEnter < span[0]) {
      span[0] = piece.tEnter;
      vec3.copy(out.normalEnter, piece.normalEnter);
    }
    if (piece.tExit > span[1]) {
      span[1] = piece.tExit;
      vec3.copy(out.normalExit, piece.normalExit);
    }
  }
}

/**
 * Adds the faces pushed out by r = `roundedIn[0]`: where the line crosses face f's outer plane and that point,
 * moved back by r·n, lies in the face — the polygon's loop (each side's edge function ≥ 0), or,
 * for a box of half extents `box`, |coordinate| ≤ half extent on the face's two other axes (a
 * box face may have no area: a half extent of 0).
 */
function pushedFaces(
  out: RayInterval,
  v: ArrayLike<number>,
  box: Vec3 | null,
  faceCount: number,
  faceOffsets: ArrayLike<number>,
  faceVertices: ArrayLike<number>,
  faceNormals: ArrayLike<number>,
  facePlaneOffsets: ArrayLike<number>,
  o: Vec3,
  d: Vec3,
): void {
  const r = roundedIn[0];
  for (let f = 0; f < faceCount; f++) {
    const nx = faceNormals[3 * f];
    const ny = faceNormals[3 * f + 1];
    const nz = faceNormals[3 * f + 2];
    const denom = nx * d.x + ny * d.y + nz * d.z;
    // Parallel to the face: the line meets its outer plane nowhere or everywhere; the capsules
    // of the face's edges hold the ends of the piece of the line within r of the face.
    if (denom === 0) continue;
    const t = (facePlaneOffsets[f] + r - (nx * o.x + ny * o.y + nz * o.z)) / denom;
    const entering = denom < 0;
    if (entering ? !(t < span[0]) : !(t > span[1])) continue;
    if (t - t !== 0) continue; // ±∞: parallel up to a subnormal component
    // The hit moved back onto the face's plane.
    const qx = o.x + t * d.x - r * nx;
    const qy = o.y + t * d.y - r * ny;
    const qz = o.z + t * d.z - r * nz;
    let inside = true;
    if (box !== null) {
      // Face f's axis is f >> 1 (+x, −x, +y, −y, +z, −z).
      const axis = f >> 1;
      inside =
        (axis === 0 || Math.abs(qx) <= box.x) &&
        (axis === 1 || Math.abs(qy) <= box.y) &&
        (axis === 2 || Math.abs(qz) <= box.z);
    } else {
      const start = faceOffsets[f];
      const end = faceOffsets[f + 1];
      for (let k = start; k < end && inside; k++) {
        const a = 3 * faceVertices[k];
        const b = 3 * faceVertices[k + 1 < end ? k + 1 : start];
        const ex = v[b] - v[a];
        const ey = v[b + 1] - v[a + 1];
        const ez = v[b + 2] - v[a + 2];
        const wx = qx - v[a];
        const wy = qy - v[a + 1];
        const wz = qz - v[a + 2];
        // (e × w)·n ≥ 0: q on the inner side of the side from a to b; NaN-safe.
        const s = (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
        if (!(s >= 0)) inside = false;
      }
    }
    if (!inside) continue;
    if (entering) {
      span[0] = t;
      vec3.set(out.normalEnter, nx, ny, nz);
    } else {
      span[1] = t;
      vec3.set(out.normalExit, nx, ny, nz);
    }
  }
}

/** The box's corners: bit 0, 1, 2 of the index set → +x, +y, +z. */
const BOX_EDGES = /* @__PURE__ */ new Uint8Array([
  0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7,
]);
/** The box's faces +x, −x, +y, −y, +z, −z, counter-clockwise seen from outside. */
const BOX_FACE_VERTICES = /* @__PURE__ */ new Uint8Array([
  1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1,
]);
const BOX_FACE_OFFSETS = /* @__PURE__ */ new Uint8Array([0, 4, 8, 12, 16, 20, 24]);
const BOX_FACE_NORMALS = /* @__PURE__ */ new Float64Array([
  1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1,
]);
const boxVertices = /* @__PURE__ */ new Float64Array(24);
const boxOffsets = /* @__PURE__ */ new Float64Array(6);

/**
 * The line o + t·d inside the box of half extents `h` (≥ 0) swept by the ball of radius `r` > 0:
 * {@link rayIntervalRoundedPolytope} over the box's 8 corners, 12 edges and 6 faces.
 */
export function rayIntervalRoundedCuboid(
  out: RayInterval,
  h: Vec3,
  r: number,
  o: Vec3,
  d: Vec3,
): boolean {
  roundedIn[0] = r;
  return rayIntervalRoundedCuboidIn(out, h, o, d);
}

/** {@link rayIntervalRoundedCuboid} with the radius read from `roundedIn[0]`. */
export function rayIntervalRoundedCuboidIn(out: RayInterval, h: Vec3, o: Vec3, d: Vec3): boolean {
  for (let i = 0; i < 8; i++) {
    boxVertices[3 * i] = i & 1 ? h.x : -h.x;
    boxVertices[3 * i + 1] = i & 2 ? h.y : -h.y;
    boxVertices[3 * i + 2] = i & 4 ? h.z : -h.z;
  }
  boxOffsets[0] = h.x;
  boxOffsets[1] = h.x;
  boxOffsets[2] = h.y;
  boxOffsets[3] = h.y;
  boxOffsets[4] = h.z;
  boxOffsets[5] = h.z;
  edgeCapsules(out, boxVertices, BOX_EDGES, o, d);
  pushedFaces(
    out,
    boxVertices,
    h,
    6,
    BOX_FACE_OFFSETS,
    BOX_FACE_VERTICES,
    BOX_FACE_NORMALS,
    boxOffsets,
    o,
    d,
  );
  if (!(span[0] <= span[1])) return false;
  out.tEnter = span[0];
  out.tExit = span[1];
  return true;
}
