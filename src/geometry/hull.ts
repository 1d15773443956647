/**
 * The 3D convex hull of a point cloud, as true polygonal faces (a cube is 6 quads, not 12
 * triangles), for convex polyhedra: SAT needs the real face normals and edges, clipping needs the
 * real face polygons.
 *
 * Design, in three stages:
 *
 * 1. **Quickhull on triangles with an exact orientation predicate** (Barber, Dobkin & Huhdanpaa
 *    1996, "The Quickhull Algorithm for Convex Hulls"). An initial tetrahedron from extreme
 *    points; every other point sits in the conflict list of one face it sees; the farthest point
 *    of a face's list is the next eye; its visible faces are found by a depth-first search that
 *    emits the horizon in order; a cone of new triangles joins the horizon to the eye; orphaned
 *    points move to the new faces that see them. Visibility is the sign of the orientation
 *    determinant, a floating-point filter with Shewchuk's (1997) error bound backed by exact
 *    `BigInt` arithmetic when the filter is unsure, so the visible region is always a disk and
 *    the triangulation is exactly the hull of the (welded) points however degenerate they are
 *    (coplanar grids, collinear runs). Floating-point distances only pick the eyes.
 * 2. **Merging coplanar triangles into faces.** Triangles are grown into clusters, largest
 *    triangle first: a neighbour joins when its vertices lie within the distance tolerance of the
 *    seed's plane, it faces the seed's side (n · n_seed > 0: near a thin rim the far side's
 *    triangles pass within the tolerance too, and a cluster folded over the rim swallowed the
 *    rim's corners) and the cluster stays a topological disk. A vertex is a hull corner when it
 *    lies on three or more clusters, or on two and more than `HULL_FLAT_FACTOR` tolerances off
 *    the line of the corners beside it (a fold: see `markCorners`); the others (inside a face, or
 *    in the middle of an edge) are dropped from the face loops. Repairs, one per pass: a cluster left with fewer than 3
 *    corners (a sliver between two faces) is absorbed by the neighbour whose plane fits it best;
 *    a cluster whose corner polygon is not convex (a nearly flat curved cap cut by the tolerance
 *    slab leaves notches) falls back to its separate triangles.
 * 3. **Planes.** The seed triangle's plane (a supporting plane of the exact hull; its normal
 *    computed exactly when the triangle is a needle) is replaced by Newell's normal of the corner
 *    loop, or by the widest corner triangle's, when that fits the face's points better and turns
 *    away from the seed plane by less than the tolerance over the whole cloud. The offset lies
 *    halfway between the face's extreme points along the normal.
 *
 * The distance tolerance is `HULL_PLANE_TOLERANCE × extent + HULL_ROUNDOFF_FACTOR × ε × max|x|`
 * (qhull's mix of a relative term and a roundoff term), so a unit box translated by 1e6 still
 * merges its coplanar points. Points closer than the tolerance are welded first (first one kept);
 * clouds spread across the initial triangle's plane by at most `HULL_FLAT_FACTOR` tolerances
 * (that plane's normal computed as a needle's, exactly when needed) are refused as flat, or with
 * `allowFlat`
 * made a flat convex polygon: the 2D hull of the points on their plane (Andrew's monotone chain)
 * as two faces, about n and about −n, on one plane (see `ConvexHull.flat`).
 * Coordinates are scaled internally by a power of two (exact) so huge and tiny clouds neither
 * overflow nor underflow. Computed once per shape, so this code allocates freely; it is not a
 * per-step path. Deterministic: no randomness, every tie broken by index.
 */

import {
  HULL_EXACT_NORMAL_SINE,
  HULL_FLAT_FACTOR,
  HULL_PLANE_TOLERANCE,
  HULL_ROUNDOFF_FACTOR,
  MESH_COORDINATE_LIMIT,
  ORIENT3D_ERROR_BOUND,
} from "../constants.js";
import { checkOptions, invalidValue, optionsSpec } from "../errors.js";
import { hypot3 } from "../math/scalar.js";

/** A convex polyhedron as polygonal faces, in the frame (and unit) of the input points. */
export interface ConvexHull {
  /** Hull vertices, packed xyz (only the points that are hull corners, after merging). */
  vertices: Float64Array;
  /** faceOffsets[f]..faceOffsets[f+1] index into faceVertices; length faceCount+1. */
  faceOffsets: Uint32Array;
  /** Vertex indices of each face, counter-clockwise seen from outside. */
  faceVertices: Uint32Array;
  /** Unit outward normal of each face, packed xyz. */
  faceNormals: Float64Array;
  /** Plane offset of each face: normal·p = offset for points p on the face. */
  facePlaneOffsets: Float64Array;
  /** Unique undirected edges as vertex index pairs, packed (2 per edge). */
  edges: Uint32Array;
  /**
   * True for a flat convex polygon (coplanar input, allowed by `allowFlat`): two faces, the
   * polygon counter-clockwise about its normal n (face 0) and the same corners reversed about −n
   * (face 1), both on one plane; every vertex is on those 2 faces and each edge on both.
   */
  flat: boolean;
}

/** Options of {@link computeConvexHull}. */
export interface ConvexHullOptions {
  /**
   * Accept coplanar points (within `HULL_FLAT_FACTOR` × `hullTolerance` of one plane) as a flat
   * convex polygon instead of refusing them; 3 points are then enough.
   * @default false
   */
  allowFlat?: boolean;
}

const NO_FACE = -1;

/** Largest power-of-two exponent used for the internal scaling (keeps 2^k finite). */
const MAX_SCALE_EXPONENT = 1000;

// ---------------------------------------------------------------------------------------------
// Exact orientation predicate
// ---------------------------------------------------------------------------------------------

const splitView = new DataView(new ArrayBuffer(8));
const splitMantissa: bigint[] = new Array<bigint>(12).fill(0n);
const splitExponent = new Int32Array(12);
const exactCoord: bigint[] = new Array<bigint>(12).fill(0n);

/** Writes x = mantissa · 2^exponent (both exact) into slot i of the split scratch. */
function splitDouble(x: number, i: number): void {
  splitView.setFloat64(0, x);
  const hi = splitView.getUint32(0);
  const lo = splitView.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) {
    e = -1074;
  } else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  splitMantissa[i] = hi >>> 31 ? -m : m;
  splitExponent[i] = e;
}

/** Exact sign of ((b − a) × (c − a)) · (p − a) for points packed in P (BigInt arithmetic). */
function orientExact(P: Float64Array, a: number, b: number, c: number, p: number): number {
  const idx = [a, b, c, p];
  let emin = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 4; k++) {
    for (let j = 0; j < 3; j++) {
      const s = 3 * k + j;
      splitDouble(P[3 * idx[k] + j], s);
      if (splitMantissa[s] !== 0n && splitExponent[s] < emin) emin = splitExponent[s];
    }
  }
  if (emin === Number.POSITIVE_INFINITY) return 0;
  for (let s = 0; s < 12; s++) {
    exactCoord[s] = splitMantissa[s] << BigInt(splitExponent[s] - emin);
  }
  const C = exactCoord;
  const ux = C[3] - C[0];
  const uy = C[4] - C[1];
  const uz = C[5] - C[2];
  const vx = C[6] - C[0];
  const vy = C[7] - C[1];
  const vz = C[8] - C[2];
  const wx = C[9] - C[0];
  const wy = C[10] - C[1];
  const wz = C[11] - C[2];
  const det = uz * (vx * wy - wx * vy) + vz * (wx * uy - ux * wy) + wz * (ux * vy - vx * uy);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

/**
 * Sign (−1, 0, 1) of ((b − a) × (c − a)) · (p − a): 1 when p is on the side the normal of the
 * counter-clockwise triangle (a, b, c) points to. Exact (Shewchuk 1997 filter, then BigInt).
 */
function orient(P: Float64Array, a: number, b: number, c: number, p: number): number {
  const ax = P[3 * a];
  const ay = P[3 * a + 1];
  const az = P[3 * a + 2];
  const ux = P[3 * b] - ax;
  const uy = P[3 * b + 1] - ay;
  const uz = P[3 * b + 2] - az;
  const vx = P[3 * c] - ax;
  const vy = P[3 * c + 1] - ay;
  const vz = P[3 * c + 2] - az;
  const wx = P[3 * p] - ax;
  const wy = P[3 * p + 1] - ay;
  const wz = P[3 * p + 2] - az;
  const m1 = vx * wy;
  const m2 = wx * vy;
  const m3 = wx * uy;
  const m4 = ux * wy;
  const m5 = ux * vy;
  const m6 = vx * uy;
  const det = uz * (m1 - m2) + vz * (m3 - m4) + wz * (m5 - m6);
  const permanent =
    (Math.abs(m1) + Math.abs(m2)) * Math.abs(uz) +
    (Math.abs(m3) + Math.abs(m4)) * Math.abs(vz) +
    (Math.abs(m5) + Math.abs(m6)) * Math.abs(wz);
  const bound = ORIENT3D_ERROR_BOUND * permanent;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orientExact(P, a, b, c, p);
}

// ---------------------------------------------------------------------------------------------
// Input checks, tolerance, welding
// ---------------------------------------------------------------------------------------------

/**
 * Euclidean length of (x, y, z). Plain square root, much faster than `Math.hypot`; safe from
 * overflow and underflow because the hull works on coordinates scaled to magnitude ≤ 1.
 */
function norm3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * Writes the unit normal of the counter-clockwise triangle (a, b, c) into out[o..o+2] (zero
 * when degenerate) and returns twice its area. The cross product is taken of the two shortest
 * edges, which keeps a needle's normal accurate: crossing its two long, nearly parallel edges
 * would cancel away most of the significant digits.
 */
function triangleNormal(
  P: Float64Array,
  a: number,
  b: number,
  c: number,
  out: Float64Array | number[],
  o: number,
): number {
  // Edges e0 = b − a, e1 = c − b, e2 = a − c; e0 × e1 = e1 × e2 = e2 × e0 = twice the area.
  const e0x = P[3 * b] - P[3 * a];
  const e0y = P[3 * b + 1] - P[3 * a + 1];
  const e0z = P[3 * b + 2] - P[3 * a + 2];
  const e1x = P[3 * c] - P[3 * b];
  const e1y = P[3 * c + 1] - P[3 * b + 1];
  const e1z = P[3 * c + 2] - P[3 * b + 2];
  const e2x = P[3 * a] - P[3 * c];
  const e2y = P[3 * a + 1] - P[3 * c + 1];
  const e2z = P[3 * a + 2] - P[3 * c + 2];
  const l0 = e0x * e0x + e0y * e0y + e0z * e0z;
  const l1 = e1x * e1x + e1y * e1y + e1z * e1z;
  const l2 = e2x * e2x + e2y * e2y + e2z * e2z;
  let nx: number;
  let ny: number;
  let nz: number;
  let lx: number;
  let ly: number;
  let lz: number;
  if (l0 >= l1 && l0 >= l2) {
    nx = e1y * e2z - e1z * e2y;
    ny = e1z * e2x - e1x * e2z;
    nz = e1x * e2y - e1y * e2x;
    lx = e0x;
    ly = e0y;
    lz = e0z;
  } else if (l1 >= l2) {
    nx = e2y * e0z - e2z * e0y;
    ny = e2z * e0x - e2x * e0z;
    nz = e2x * e0y - e2y * e0x;
    lx = e1x;
    ly = e1y;
    lz = e1z;
  } else {
    nx = e0y * e1z - e0z * e1y;
    ny = e0z * e1x - e0x * e1z;
    nz = e0x * e1y - e0y * e1x;
    lx = e2x;
    ly = e2y;
    lz = e2z;
  }
  const len = norm3(nx, ny, nz);
  // |cross| = |e| |e'| sin θ: when θ is tiny the float cross product has lost ~log2(1/sin θ)
  // bits, so take the exact cross product instead (rounded once at the end).
  const longest = Math.max(l0, l1, l2);
  const shortPair = longest > 0 ? Math.sqrt((l0 / longest) * l1 * l2) : 0;
  if (len < HULL_EXACT_NORMAL_SINE * shortPair) {
    exactCross(P, a, b, c, exactNormal);
    nx = exactNormal[0];
    ny = exactNormal[1];
    nz = exactNormal[2];
  }
  writeUnitNormal(nx, ny, nz, lx, ly, lz, out, o);
  return len;
}

const exactNormal = new Float64Array(3);

/**
 * Direction of (b − a) × (c − a) computed exactly in BigInt and rounded once to doubles
 * (scaled by a power of two, so only its direction is meaningful), into out[0..2].
 */
function exactCross(P: Float64Array, a: number, b: number, c: number, out: Float64Array): void {
  const idx = [a, b, c];
  let emin = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 3; k++) {
    for (let j = 0; j < 3; j++) {
      const s = 3 * k + j;
      splitDouble(P[3 * idx[k] + j], s);
      if (splitMantissa[s] !== 0n && splitExponent[s] < emin) emin = splitExponent[s];
    }
  }
  if (emin === Number.POSITIVE_INFINITY) {
    out.fill(0);
    return;
  }
  for (let s = 0; s < 9; s++) exactCoord[s] = splitMantissa[s] << BigInt(splitExponent[s] - emin);
  const C = exactCoord;
  const ux = C[3] - C[0];
  const uy = C[4] - C[1];
  const uz = C[5] - C[2];
  const vx = C[6] - C[0];
  const vy = C[7] - C[1];
  const vz = C[8] - C[2];
  const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
  let bits = 0;
  for (const x of n) bits = Math.max(bits, (x < 0n ? -x : x).toString(2).length);
  // Keep the 60 leading bits of the largest component so the conversion cannot overflow.
  const shift = BigInt(Math.max(0, bits - 60));
  for (let j = 0; j < 3; j++) out[j] = Number(n[j] >> shift);
}

/**
 * Writes (nx, ny, nz) made exactly perpendicular to the chord (lx, ly, lz) by one Gram–Schmidt
 * step, then normalised, into out[o..o+2] (zero when degenerate). For a sliver whose points are
 * nearly collinear a cross product leaves an error of about ε / sin θ in the direction of the
 * chord, which tilts the plane along the sliver's length; removing it keeps every vertex on the
 * plane to within a few ulps.
 */
function writeUnitNormal(
  nx: number,
  ny: number,
  nz: number,
  lx: number,
  ly: number,
  lz: number,
  out: Float64Array | number[],
  o: number,
): void {
  const ll = lx * lx + ly * ly + lz * lz;
  if (ll > 0) {
    const k = (nx * lx + ny * ly + nz * lz) / ll;
    nx -= k * lx;
    ny -= k * ly;
    nz -= k * lz;
  }
  const len = norm3(nx, ny, nz);
  const inv = len > 0 ? 1 / len : 0;
  out[o] = nx * inv;
  out[o + 1] = ny * inv;
  out[o + 2] = nz * inv;
}

/** Largest |coordinate| and largest per-axis extent of packed xyz points. */
function measure(points: ArrayLike<number>): { maxAbs: number; extent: number } {
  let maxAbs = 0;
  let extent = 0;
  const n = Math.floor(points.length / 3);
  for (let j = 0; j < 3; j++) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const x = points[3 * i + j];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (n > 0) {
      extent = Math.max(extent, hi - lo);
      maxAbs = Math.max(maxAbs, Math.abs(lo), Math.abs(hi));
    }
  }
  return { maxAbs, extent };
}

/**
 * The convex hull's distance tolerance for a point cloud, in the points' unit:
 * `HULL_PLANE_TOLERANCE × extent + HULL_ROUNDOFF_FACTOR × Number.EPSILON × max|coordinate|`,
 * where extent is the largest side of the points' AABB (qhull's relative-plus-roundoff
 * tolerance, Barber, Dobkin & Huhdanpaa 1996, §4). Points within it of a face plane count as on
 * it; points within it of each other are one point.
 * @param points packed xyz coordinates (finite).
 * @returns the tolerance, ≥ 0.
 */
export function hullTolerance(points: ArrayLike<number>): number {
  const { maxAbs, extent } = measure(points);
  return HULL_PLANE_TOLERANCE * extent + HULL_ROUNDOFF_FACTOR * Number.EPSILON * maxAbs;
}

/** Throws unless `points` is packed xyz of at least 4 (3 when flat is allowed) finite points. */
function checkPoints(points: ArrayLike<number>, field: string, allowFlat: boolean): void {
  if (points === null || typeof points !== "object" || typeof points.length !== "number") {
    invalidValue(field, points, "must be an array of packed x, y, z coordinates");
  }
  if (points.length % 3 !== 0) {
    invalidValue(field, points.length, "length must be a multiple of 3 (x, y, z per point)");
  }
  for (let i = 0; i < points.length; i++) {
    const x = points[i];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      invalidValue(field, x, `coordinate ${i} must be a finite number`);
    }
  }
  for (let j = 0; j < 3; j++) {
    // Two points farther apart on an axis than the largest double: every tolerance and plane of
    // the hull would be Infinity or NaN ("collinear within Infinity" for a tetrahedron).
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = j; i < points.length; i += 3) {
      if (points[i] < lo) lo = points[i];
      if (points[i] > hi) hi = points[i];
    }
    if (!Number.isFinite(hi - lo) && points.length >= 3) {
      invalidValue(
        field,
        Array.from(points),
        `span ${"xyz"[j]} from ${lo} to ${hi}: their difference overflows double precision (scale the points down)`,
      );
    }
  }
  for (let i = 0; i < points.length; i++) {
    // The mesh's bound, for the same reason: below 2^1023 every difference of two points and
    // every face plane's offset n·p (at most √3·2^1023) stays finite; beyond it a hull was built
    // with an infinite plane offset that every query then refused.
    if (!(Math.abs(points[i]) < MESH_COORDINATE_LIMIT)) {
      invalidValue(
        field,
        Array.from(points),
        `coordinate ${i} (${points[i]}) must be below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 in magnitude (a face plane's offset n·p must stay finite; scale the points down)`,
      );
    }
  }
  if (points.length < (allowFlat ? 9 : 12)) {
    const n = points.length / 3;
    const held = `holds ${n} point${n === 1 ? "" : "s"}`;
    invalidValue(
      field,
      Array.from(points),
      allowFlat
        ? `${held}: a convex shape needs at least 3 non-collinear points`
        : `${held}: a hull needs at least 4 non-coplanar points`,
    );
  }
}

/** Hash of an integer grid cell (collisions only cost a distance test). */
function cellHash(cx: number, cy: number, cz: number): number {
  return Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663) ^ Math.imul(cz | 0, 83492791);
}

/**
 * Indices of the points kept after welding: a point within `tol` (per axis) of an earlier kept
 * point is dropped (only exact duplicates when `tol` is 0). Uniform grid hash with cell size
 * `tol`, so only the 27 cells around a point are searched.
 */
function weld(P: Float64Array, n: number, tol: number): number[] {
  const kept: number[] = [];
  const cells = new Map<number, number[]>();
  const inv = tol > 0 ? 1 / tol : 0;
  const reach = tol > 0 ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const x = P[3 * i];
    const y = P[3 * i + 1];
    const z = P[3 * i + 2];
    const cx = tol > 0 ? Math.floor(x * inv) : 0;
    const cy = tol > 0 ? Math.floor(y * inv) : 0;
    const cz = tol > 0 ? Math.floor(z * inv) : 0;
    let duplicate = false;
    for (let dx = -reach; dx <= reach && !duplicate; dx++) {
      for (let dy = -reach; dy <= reach && !duplicate; dy++) {
        for (let dz = -reach; dz <= reach && !duplicate; dz++) {
          const list = cells.get(cellHash(cx + dx, cy + dy, cz + dz));
          if (list === undefined) continue;
          for (const j of list) {
            if (
              Math.abs(P[3 * j] - x) <= tol &&
              Math.abs(P[3 * j + 1] - y) <= tol &&
              Math.abs(P[3 * j + 2] - z) <= tol
            ) {
              duplicate = true;
              break;
            }
          }
        }
      }
    }
    if (duplicate) continue;
    kept.push(i);
    const key = cellHash(cx, cy, cz);
    const list = cells.get(key);
    if (list === undefined) cells.set(key, [i]);
    else list.push(i);
  }
  return kept;
}

/**
 * Four points of `ids` spanning a tetrahedron of non-zero volume (extreme along the widest
 * axis, then farthest from their line, then farthest from their plane), or throws when every
 * point lies within `HULL_FLAT_FACTOR × tol` of one point, one line or one plane.
 */
function initialSimplex(
  P: Float64Array,
  ids: number[],
  tol: number,
  points: ArrayLike<number>,
  field: string,
  allowFlat: boolean,
): [number, number, number, number] {
  // Thinner than a few tolerances, the merging would fold the top and bottom faces together.
  const flat = HULL_FLAT_FACTOR * tol;
  const fail = (what: string): never => {
    // Where the coordinates' rounding sets the tolerance (points far from the origin), say how
    // to keep a small hull: give the points about a pose's position.
    const { maxAbs, extent } = measure(points);
    const far =
      HULL_ROUNDOFF_FACTOR * Number.EPSILON * maxAbs > HULL_PLANE_TOLERANCE * extent
        ? " (the tolerance grows with the points' distance from the origin: give them relative to the shape's position)"
        : "";
    return invalidValue(
      field,
      Array.from(points),
      allowFlat
        ? `are all ${what} within ${HULL_FLAT_FACTOR * hullTolerance(points)}${far}: a convex shape needs at least 3 non-collinear points`
        : `are all ${what} within ${HULL_FLAT_FACTOR * hullTolerance(points)}${far}: a hull needs at least 4 non-coplanar points`,
    );
  };
  let i0 = ids[0];
  let i1 = ids[0];
  let best = -1;
  for (let j = 0; j < 3; j++) {
    let lo = ids[0];
    let hi = ids[0];
    for (const i of ids) {
      if (P[3 * i + j] < P[3 * lo + j]) lo = i;
      if (P[3 * i + j] > P[3 * hi + j]) hi = i;
    }
    const w = P[3 * hi + j] - P[3 * lo + j];
    if (w > best) {
      best = w;
      i0 = lo;
      i1 = hi;
    }
  }
  if (!(best > flat)) fail("coincident");
  // Farthest from the line i0–i1.
  const ex = P[3 * i1] - P[3 * i0];
  const ey = P[3 * i1 + 1] - P[3 * i0 + 1];
  const ez = P[3 * i1 + 2] - P[3 * i0 + 2];
  const elen = norm3(ex, ey, ez);
  let i2 = i0;
  best = -1;
  for (const i of ids) {
    const wx = P[3 * i] - P[3 * i0];
    const wy = P[3 * i + 1] - P[3 * i0 + 1];
    const wz = P[3 * i + 2] - P[3 * i0 + 2];
    const d = norm3(ey * wz - ez * wy, ez * wx - ex * wz, ex * wy - ey * wx) / elen;
    if (d > best) {
      best = d;
      i2 = i;
    }
  }
  if (!(best > flat)) fail("collinear");
  // Farthest from the plane i0–i1–i2. Its normal by triangleNormal: for a needle (i2 barely off
  // the line i0–i1) a plain cross product errs by about ε / sin θ, and the part of that error
  // along the needle puts its far end (i1 itself) "off the plane" while the real thickness across
  // it is missed.
  const plane = [0, 0, 0];
  triangleNormal(P, i0, i1, i2, plane, 0);
  const [nx, ny, nz] = plane;
  // Flat when the points' spread across the plane (both sides) is within the bar, so that a
  // flat polygon on the mid-plane holds every point within half of it.
  let i3 = i0;
  best = -1;
  let lo = 0;
  let hi = 0;
  for (const i of ids) {
    if (i === i0 || i === i1 || i === i2) continue;
    const s =
      nx * (P[3 * i] - P[3 * i0]) +
      ny * (P[3 * i + 1] - P[3 * i0 + 1]) +
      nz * (P[3 * i + 2] - P[3 * i0 + 2]);
    if (s < lo) lo = s;
    if (s > hi) hi = s;
    if (Math.abs(s) > best) {
      best = Math.abs(s);
      i3 = i;
    }
  }
  if (!(hi - lo > flat) || orient(P, i0, i1, i2, i3) === 0) {
    if (allowFlat) return [i0, i1, i2, NO_FACE];
    fail("coplanar");
  }
  return [i0, i1, i2, i3];
}

// ---------------------------------------------------------------------------------------------
// Stage 1: quickhull on triangles
// ---------------------------------------------------------------------------------------------

/** A closed triangulated surface: 3 vertex ids per triangle (CCW outside), 3 neighbours. */
interface TriangleHull {
  count: number;
  /** Vertex ids, triangle t is tri[3t..3t+2]; edge e runs from tri[3t+e] to tri[3t+(e+1)%3]. */
  tri: Int32Array;
  /** Triangle across edge e of triangle t: adj[3t+e]. */
  adj: Int32Array;
}

function quickhullTriangles(
  P: Float64Array,
  n: number,
  ids: number[],
  simplex: [number, number, number, number],
): TriangleHull {
  const fv: number[] = [];
  const adj: number[] = [];
  const adjEdge: number[] = [];
  const normal: number[] = [];
  const alive: boolean[] = [];
  const head: number[] = [];
  const eye: number[] = [];
  const eyeDist: number[] = [];
  const mark: number[] = [];
  const nextInList = new Int32Array(n).fill(-1);

  const addFace = (a: number, b: number, c: number): number => {
    const f = alive.length;
    fv.push(a, b, c);
    adj.push(NO_FACE, NO_FACE, NO_FACE);
    adjEdge.push(0, 0, 0);
    normal.push(0, 0, 0);
    triangleNormal(P, a, b, c, normal, 3 * f);
    alive.push(true);
    head.push(-1);
    eye.push(-1);
    eyeDist.push(Number.NEGATIVE_INFINITY);
    mark.push(-1);
    return f;
  };

  const sees = (f: number, p: number): boolean =>
    orient(P, fv[3 * f], fv[3 * f + 1], fv[3 * f + 2], p) > 0;

  const addConflict = (f: number, p: number): void => {
    const a = fv[3 * f];
    const d =
      normal[3 * f] * (P[3 * p] - P[3 * a]) +
      normal[3 * f + 1] * (P[3 * p + 1] - P[3 * a + 1]) +
      normal[3 * f + 2] * (P[3 * p + 2] - P[3 * a + 2]);
    nextInList[p] = head[f];
    head[f] = p;
    if (d > eyeDist[f]) {
      eyeDist[f] = d;
      eye[f] = p;
    }
  };

  // Initial tetrahedron, every face oriented with the fourth vertex behind it.
  let [a, b, c, d] = simplex;
  if (orient(P, a, b, c, d) > 0) [b, c] = [c, b];
  const start = [
    [a, b, c],
    [a, d, b],
    [b, d, c],
    [c, d, a],
  ];
  for (const [x, y, z] of start) addFace(x, y, z);
  for (let f = 0; f < 4; f++) {
    for (let e = 0; e < 3; e++) {
      const from = fv[3 * f + e];
      const to = fv[3 * f + ((e + 1) % 3)];
      for (let g = 0; g < 4; g++) {
        for (let k = 0; k < 3; k++) {
          if (fv[3 * g + k] === to && fv[3 * g + ((k + 1) % 3)] === from) {
            adj[3 * f + e] = g;
            adjEdge[3 * f + e] = k;
          }
        }
      }
    }
  }
  for (const p of ids) {
    if (p === a || p === b || p === c || p === d) continue;
    for (let f = 0; f < 4; f++) {
      if (sees(f, p)) {
        addConflict(f, p);
        break;
      }
    }
  }

  const visible: number[] = [];
  const stackFace: number[] = [];
  const stackStart: number[] = [];
  const stackStep: number[] = [];
  const horizonFace: number[] = [];
  const horizonEdge: number[] = [];
  const orphans: number[] = [];
  // Each eye becomes a hull vertex and never returns to a conflict list: at most n eyes.
  let eyes = 0;
  for (let f0 = 0; f0 < alive.length && eyes < n; f0++) {
    if (!alive[f0] || head[f0] < 0) continue;
    eyes++;
    const p = eye[f0];
    const visStamp = 2 * eyes;
    const hidStamp = visStamp + 1;

    // Visible region by depth-first search; the horizon comes out as one CCW loop.
    visible.length = 0;
    horizonFace.length = 0;
    horizonEdge.length = 0;
    visible.push(f0);
    mark[f0] = visStamp;
    stackFace.push(f0);
    stackStart.push(0);
    stackStep.push(0);
    while (stackFace.length > 0) {
      const top = stackFace.length - 1;
      const step = stackStep[top];
      if (step === 3) {
        stackFace.pop();
        stackStart.pop();
        stackStep.pop();
        continue;
      }
      stackStep[top] = step + 1;
      const g = stackFace[top];
      const e = (stackStart[top] + step) % 3;
      const h = adj[3 * g + e];
      if (mark[h] === visStamp) continue;
      if (mark[h] !== hidStamp) {
        if (sees(h, p)) {
          mark[h] = visStamp;
          visible.push(h);
          stackFace.push(h);
          stackStart.push((adjEdge[3 * g + e] + 1) % 3);
          stackStep.push(0);
          continue;
        }
        mark[h] = hidStamp;
      }
      horizonFace.push(g);
      horizonEdge.push(e);
    }

    // Cone of new faces from the horizon to the eye.
    const m = horizonFace.length;
    const first = alive.length;
    for (let k = 0; k < m; k++) {
      const g = horizonFace[k];
      const e = horizonEdge[k];
      const from = fv[3 * g + e];
      const to = fv[3 * g + ((e + 1) % 3)];
      const prevTo =
        fv[3 * horizonFace[(k + m - 1) % m] + ((horizonEdge[(k + m - 1) % m] + 1) % 3)];
      if (prevTo !== from) throw new Error("convex hull: internal error, horizon is not a loop");
      const h = adj[3 * g + e];
      const he = adjEdge[3 * g + e];
      const nf = addFace(from, to, p);
      adj[3 * nf] = h;
      adjEdge[3 * nf] = he;
      adj[3 * h + he] = nf;
      adjEdge[3 * h + he] = 0;
    }
    for (let k = 0; k < m; k++) {
      const nf = first + k;
      const nn = first + ((k + 1) % m);
      adj[3 * nf + 1] = nn;
      adjEdge[3 * nf + 1] = 2;
      adj[3 * nn + 2] = nf;
      adjEdge[3 * nn + 2] = 1;
    }

    // Retire the visible faces and hand their points to the new faces that see them.
    orphans.length = 0;
    for (const v of visible) {
      alive[v] = false;
      for (let q = head[v]; q >= 0; q = nextInList[q]) if (q !== p) orphans.push(q);
      head[v] = -1;
    }
    for (const q of orphans) {
      for (let k = 0; k < m; k++) {
        if (sees(first + k, q)) {
          addConflict(first + k, q);
          break;
        }
      }
    }
  }

  // Compact the live triangles.
  const remap = new Int32Array(alive.length).fill(NO_FACE);
  let count = 0;
  for (let f = 0; f < alive.length; f++) if (alive[f]) remap[f] = count++;
  const tri = new Int32Array(3 * count);
  const tadj = new Int32Array(3 * count);
  for (let f = 0; f < alive.length; f++) {
    const t = remap[f];
    if (t < 0) continue;
    for (let e = 0; e < 3; e++) {
      tri[3 * t + e] = fv[3 * f + e];
      tadj[3 * t + e] = remap[adj[3 * f + e]];
    }
  }
  return { count, tri, adj: tadj };
}

// ---------------------------------------------------------------------------------------------
// Stage 2: clusters of coplanar triangles
// ---------------------------------------------------------------------------------------------

/**
 * Grows disk-shaped clusters of triangles within `tol` of their seed's plane. Returns the
 * cluster id of every triangle and the seed triangle of every cluster.
 */
function clusterTriangles(
  P: Float64Array,
  n: number,
  hull: TriangleHull,
  tol: number,
): { cluster: Int32Array; seeds: number[] } {
  const { count, tri, adj } = hull;
  const area = new Float64Array(count);
  const nrm = new Float64Array(3 * count);
  for (let t = 0; t < count; t++) {
    area[t] = triangleNormal(P, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], nrm, 3 * t);
  }
  const order = Array.from({ length: count }, (_, t) => t);
  order.sort((s, t) => area[t] - area[s] || s - t);

  const cluster = new Int32Array(count).fill(-1);
  const vertexMark = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  const seeds: number[] = [];
  for (const seed of order) {
    if (cluster[seed] >= 0) continue;
    const id = seeds.length;
    seeds.push(seed);
    const sx = nrm[3 * seed];
    const sy = nrm[3 * seed + 1];
    const sz = nrm[3 * seed + 2];
    const o = tri[3 * seed];
    const ox = P[3 * o];
    const oy = P[3 * o + 1];
    const oz = P[3 * o + 2];
    const near = (v: number): boolean =>
      Math.abs(sx * (P[3 * v] - ox) + sy * (P[3 * v + 1] - oy) + sz * (P[3 * v + 2] - oz)) <= tol;
    const join = (t: number): void => {
      cluster[t] = id;
      for (let e = 0; e < 3; e++) {
        vertexMark[tri[3 * t + e]] = id;
        if (cluster[adj[3 * t + e]] < 0) queue.push(adj[3 * t + e]);
      }
    };
    queue.length = 0;
    join(seed);
    // Each join pushes at most 3 entries, so the queue is bounded by 3 × count.
    for (let qi = 0; qi < queue.length; qi++) {
      const t = queue[qi];
      if (cluster[t] >= 0) continue;
      if (!near(tri[3 * t]) || !near(tri[3 * t + 1]) || !near(tri[3 * t + 2])) continue;
      // Only triangles facing the seed's side: near a thin rim, triangles of the opposite side
      // of the hull pass within the tolerance of the seed's plane too, and a cluster folded over
      // the rim would swallow the rim's corners (they would lie inside it).
      if (area[t] > 0 && !(nrm[3 * t] * sx + nrm[3 * t + 1] * sy + nrm[3 * t + 2] * sz > 0)) {
        continue;
      }
      let shared = 0;
      let sharedEdge = 0;
      for (let e = 0; e < 3; e++) {
        if (cluster[adj[3 * t + e]] === id) {
          shared++;
          sharedEdge = e;
        }
      }
      // Keep the cluster a disk: one shared edge needs a fresh apex; three would close it.
      if (shared === 3) continue;
      if (shared === 1 && vertexMark[tri[3 * t + ((sharedEdge + 2) % 3)]] === id) continue;
      join(t);
    }
  }
  return { cluster, seeds };
}

/** Boundary loops (CCW from outside) of every cluster, indexed by cluster id. */
function clusterLoops(hull: TriangleHull, cluster: Int32Array, n: number): number[][] {
  const { count, tri, adj } = hull;
  let clusters = 0;
  for (let t = 0; t < count; t++) clusters = Math.max(clusters, cluster[t] + 1);
  const members: number[][] = Array.from({ length: clusters }, () => []);
  for (let t = 0; t < count; t++) members[cluster[t]].push(t);
  const succ = new Int32Array(n).fill(-1);
  const loops: number[][] = [];
  for (let c = 0; c < clusters; c++) {
    let edges = 0;
    let startVertex = -1;
    for (const t of members[c]) {
      for (let e = 0; e < 3; e++) {
        if (cluster[adj[3 * t + e]] === c) continue;
        const a = tri[3 * t + e];
        if (succ[a] >= 0) throw new Error("convex hull: internal error, face is not a disk");
        succ[a] = tri[3 * t + ((e + 1) % 3)];
        if (startVertex < 0) startVertex = a;
        edges++;
      }
    }
    const loop: number[] = [];
    if (startVertex >= 0) {
      let v = startVertex;
      do {
        loop.push(v);
        v = succ[v];
      } while (v !== startVertex && loop.length <= edges);
    }
    for (const v of loop) succ[v] = -1;
    if (loop.length !== edges) throw new Error("convex hull: internal error, face is not a disk");
    loops.push(loop);
  }
  return loops;
}

/** max − min of n · (v − r) over the given vertices, n = normals[o..o+2] (scaled coordinates). */
function planeSpread(
  P: Float64Array,
  loop: number[],
  normals: Float64Array,
  o: number,
  r: number,
): number {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of loop) {
    const d =
      normals[o] * (P[3 * v] - P[3 * r]) +
      normals[o + 1] * (P[3 * v + 1] - P[3 * r + 1]) +
      normals[o + 2] * (P[3 * v + 2] - P[3 * r + 2]);
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  return hi - lo;
}

/**
 * Three corners of a face spanning a wide triangle, in loop order: its first corner, the corner
 * farthest from it, and the corner farthest from the line through those two; then, fourth,
 * the corner farthest from the first again.
 */
function widestCorners(P: Float64Array, face: number[], cornerIds: number[]): number[] {
  const k = face.length;
  const a = cornerIds[face[0]];
  let ib = 1;
  let best = -1;
  for (let i = 1; i < k; i++) {
    const v = cornerIds[face[i]];
    const d = norm3(P[3 * v] - P[3 * a], P[3 * v + 1] - P[3 * a + 1], P[3 * v + 2] - P[3 * a + 2]);
    if (d > best) {
      best = d;
      ib = i;
    }
  }
  const b = cornerIds[face[ib]];
  const ex = P[3 * b] - P[3 * a];
  const ey = P[3 * b + 1] - P[3 * a + 1];
  const ez = P[3 * b + 2] - P[3 * a + 2];
  let ic = ib === 1 ? 2 : 1;
  best = -1;
  for (let i = 1; i < k; i++) {
    if (i === ib) continue;
    const v = cornerIds[face[i]];
    const wx = P[3 * v] - P[3 * a];
    const wy = P[3 * v + 1] - P[3 * a + 1];
    const wz = P[3 * v + 2] - P[3 * a + 2];
    const d = norm3(ey * wz - ez * wy, ez * wx - ex * wz, ex * wy - ey * wx);
    if (d > best) {
      best = d;
      ic = i;
    }
  }
  const c = cornerIds[face[ic]];
  return ib < ic ? [a, b, c, b] : [a, c, b, b];
}

/** Largest |n · (v − P[o])| over the loop's vertices (scaled coordinates). */
function planeDistance(P: Float64Array, loop: number[], normal: Float64Array, o: number): number {
  let worst = 0;
  for (const v of loop) {
    const d = Math.abs(
      normal[0] * (P[3 * v] - P[3 * o]) +
        normal[1] * (P[3 * v + 1] - P[3 * o + 1]) +
        normal[2] * (P[3 * v + 2] - P[3 * o + 2]),
    );
    if (d > worst) worst = d;
  }
  return worst;
}

/** Distance from point v to the line through a and b (scaled coordinates). */
function lineDistance(P: Float64Array, v: number, a: number, b: number): number {
  const ex = P[3 * b] - P[3 * a];
  const ey = P[3 * b + 1] - P[3 * a + 1];
  const ez = P[3 * b + 2] - P[3 * a + 2];
  let wx = P[3 * v] - P[3 * a];
  let wy = P[3 * v + 1] - P[3 * a + 1];
  let wz = P[3 * v + 2] - P[3 * a + 2];
  const ee = ex * ex + ey * ey + ez * ez;
  const t = ee > 0 ? (wx * ex + wy * ey + wz * ez) / ee : 0;
  wx -= t * ex;
  wy -= t * ey;
  wz -= t * ez;
  return norm3(wx, wy, wz);
}

/**
 * Marks the hull's corners in `isCorner` (1) from the clusters' boundary loops: a vertex on
 * three or more clusters, and a vertex on two clusters that lies farther than `HULL_FLAT_FACTOR`
 * × `tol` from the line through the corners on either side of it along the boundary they share,
 * found by Douglas–Peucker splitting of each boundary run between corners (Douglas & Peucker
 * 1973). The second kind is a fold: two clusters that meet at a small or nearly straight dihedral
 * angle (the top and bottom of a thin slab's rim) have planes that pass within `tol` of points
 * up to about tol / angle off their common line, so "on both planes" does not mean "in the middle
 * of an edge"; dropping such a vertex would cut a real corner off the hull (attack26 F2: 5 % of
 * the size). The line, not the segment: a run that doubles back along a noisy edge past a corner
 * keeps its old treatment. A loop with fewer than two corners (two clusters forming the whole
 * surface) is anchored at a corner or its lowest vertex id and the vertex farthest from it.
 * Deterministic and direction-independent (ties by vertex id), so two loops sharing a run mark
 * the same vertices.
 */
function markCorners(
  P: Float64Array,
  loops: number[][],
  onFaces: Int32Array,
  isCorner: Uint8Array,
  tol: number,
): void {
  onFaces.fill(0);
  isCorner.fill(0);
  for (const loop of loops) for (const v of loop) onFaces[v]++;
  for (const loop of loops) for (const v of loop) if (onFaces[v] >= 3) isCorner[v] = 1;
  const stackFrom: number[] = [];
  const stackTo: number[] = [];
  for (const loop of loops) {
    const k = loop.length;
    if (k < 3) continue;
    let cornerCount = 0;
    for (const v of loop) cornerCount += isCorner[v];
    if (cornerCount < 2) {
      // Anchor: a corner, else the lowest id; then the vertex farthest from it.
      let a = -1;
      for (const v of loop) if (isCorner[v] === 1 || (cornerCount === 0 && (a < 0 || v < a))) a = v;
      let b = -1;
      let best = -1;
      for (const v of loop) {
        if (v === a) continue;
        const d = norm3(
          P[3 * v] - P[3 * a],
          P[3 * v + 1] - P[3 * a + 1],
          P[3 * v + 2] - P[3 * a + 2],
        );
        if (d > best || (d === best && v < b)) {
          best = d;
          b = v;
        }
      }
      isCorner[a] = 1;
      isCorner[b] = 1;
    }
    // Runs between consecutive corners, split where a vertex is farther than tol from the chord.
    let first = 0;
    while (isCorner[loop[first]] === 0) first++;
    let j = first;
    do {
      let next = (j + 1) % k;
      while (isCorner[loop[next]] === 0) next = (next + 1) % k;
      stackFrom.push(j);
      stackTo.push(next);
      j = next;
    } while (j !== first);
    while (stackFrom.length > 0) {
      const from = stackFrom.pop() as number;
      const to = stackTo.pop() as number;
      let far = -1;
      let best = HULL_FLAT_FACTOR * tol;
      for (let i = (from + 1) % k; i !== to; i = (i + 1) % k) {
        const d = lineDistance(P, loop[i], loop[from], loop[to]);
        if (d > best || (d === best && far >= 0 && loop[i] < loop[far])) {
          best = d;
          far = i;
        }
      }
      if (far < 0) continue;
      isCorner[loop[far]] = 1;
      stackFrom.push(from, far);
      stackTo.push(far, to);
    }
  }
}

/**
 * True when a corner (see {@link markCorners}) of the loop lies more than `tol` inside the
 * chord between its neighbouring corners, i.e. the corner polygon is not convex seen along
 * `normal` (the loop runs counter-clockwise about it).
 */
function hasReflexCorner(
  P: Float64Array,
  loop: number[],
  isCorner: Uint8Array,
  normal: Float64Array,
  tol: number,
): boolean {
  const corners: number[] = [];
  for (const v of loop) if (isCorner[v] === 1) corners.push(v);
  const k = corners.length;
  for (let i = 0; i < k; i++) {
    const p = corners[(i + k - 1) % k];
    const v = corners[i];
    const q = corners[(i + 1) % k];
    const ax = P[3 * v] - P[3 * p];
    const ay = P[3 * v + 1] - P[3 * p + 1];
    const az = P[3 * v + 2] - P[3 * p + 2];
    const bx = P[3 * q] - P[3 * p];
    const by = P[3 * q + 1] - P[3 * p + 1];
    const bz = P[3 * q + 2] - P[3 * p + 2];
    // ((v − p) × (q − p)) · n is negative at a right (reflex) turn.
    const turn =
      normal[0] * (ay * bz - az * by) +
      normal[1] * (az * bx - ax * bz) +
      normal[2] * (ax * by - ay * bx);
    if (turn < 0 && -turn > tol * norm3(bx, by, bz)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Flat input: a convex polygon
// ---------------------------------------------------------------------------------------------

/**
 * The flat hull of coplanar points (scaled coordinates P, welded `ids`): the 2D convex hull of
 * the points projected on their plane (Andrew's monotone chain, Andrew 1979), vertices within
 * `tol` of the segment between their neighbours dropped, as two faces (the polygon about n, and
 * reversed about −n) on one plane. `i0`–`i1` is the point set's widest chord.
 */
function flatConvexHull(
  P: Float64Array,
  ids: number[],
  i0: number,
  i1: number,
  tol: number,
  points: ArrayLike<number>,
  field: string,
): ConvexHull {
  // In-plane basis: u along the widest chord, w the direction (within the plane) of the point
  // farthest from it, n = u × w.
  let ux = P[3 * i1] - P[3 * i0];
  let uy = P[3 * i1 + 1] - P[3 * i0 + 1];
  let uz = P[3 * i1 + 2] - P[3 * i0 + 2];
  const ulen = norm3(ux, uy, uz);
  ux /= ulen;
  uy /= ulen;
  uz /= ulen;
  let far = i0;
  let farDist = -1;
  for (const i of ids) {
    const wx = P[3 * i] - P[3 * i0];
    const wy = P[3 * i + 1] - P[3 * i0 + 1];
    const wz = P[3 * i + 2] - P[3 * i0 + 2];
    const d = norm3(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx);
    if (d > farDist) {
      farDist = d;
      far = i;
    }
  }
  const normal = new Float64Array(3);
  triangleNormal(P, i0, i1, far, normal, 0);
  const nx = normal[0];
  const ny = normal[1];
  const nz = normal[2];
  // v = n × u: (u, v, n) is right-handed, so counter-clockwise in (u, v) is about +n.
  const vx = ny * uz - nz * uy;
  const vy = nz * ux - nx * uz;
  const vz = nx * uy - ny * ux;
  const m = ids.length;
  const X = new Float64Array(m);
  const Y = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const i = ids[k];
    const wx = P[3 * i] - P[3 * i0];
    const wy = P[3 * i + 1] - P[3 * i0 + 1];
    const wz = P[3 * i + 2] - P[3 * i0 + 2];
    X[k] = wx * ux + wy * uy + wz * uz;
    Y[k] = wx * vx + wy * vy + wz * vz;
  }
  const order = Array.from({ length: m }, (_, k) => k).sort(
    (a, b) => X[a] - X[b] || Y[a] - Y[b] || ids[a] - ids[b],
  );
  const turn = (o: number, a: number, b: number): number =>
    (X[a] - X[o]) * (Y[b] - Y[o]) - (Y[a] - Y[o]) * (X[b] - X[o]);
  const chain: number[] = [];
  for (const k of order) {
    while (chain.length >= 2 && turn(chain[chain.length - 2], chain[chain.length - 1], k) <= 0) {
      chain.pop();
    }
    chain.push(k);
  }
  const lowerEnd = chain.length + 1;
  for (let j = order.length - 2; j >= 0; j--) {
    const k = order[j];
    while (
      chain.length >= lowerEnd &&
      turn(chain[chain.length - 2], chain[chain.length - 1], k) <= 0
    ) {
      chain.pop();
    }
    chain.push(k);
  }
  chain.pop();
  // Drop corners within the tolerance of the segment between their neighbours (the middle of an
  // edge). Not of its line: a needle's tip lies within the tolerance of the line through the
  // corners beside it but beyond them (issue 16: a ribbon of 1e-9 of its length lost its far
  // end, 7.9e-7 of 3e-5).
  const between = (a: number, b: number, c: number): boolean =>
    (X[b] - X[a]) * (X[c] - X[a]) + (Y[b] - Y[a]) * (Y[c] - Y[a]) >= 0 &&
    (X[b] - X[c]) * (X[a] - X[c]) + (Y[b] - Y[c]) * (Y[a] - Y[c]) >= 0;
  for (let changed = true; changed && chain.length > 3; ) {
    changed = false;
    for (let j = 0; j < chain.length && chain.length > 3; j++) {
      const a = chain[(j + chain.length - 1) % chain.length];
      const b = chain[j];
      const c = chain[(j + 1) % chain.length];
      const base = Math.hypot(X[c] - X[a], Y[c] - Y[a]);
      if (turn(a, b, c) <= tol * base && between(a, b, c)) {
        chain.splice(j, 1);
        changed = true;
        j--;
      }
    }
  }
  if (chain.length < 3) {
    invalidValue(
      field,
      Array.from(points),
      `are all collinear within ${HULL_FLAT_FACTOR * hullTolerance(points)}: a convex shape needs at least 3 non-collinear points`,
    );
  }
  const loopIds = chain.map((k) => ids[k]);
  const cornerIds = loopIds.slice().sort((a, b) => a - b);
  const outIndex = new Map<number, number>();
  for (let k = 0; k < cornerIds.length; k++) outIndex.set(cornerIds[k], k);
  const vertices = new Float64Array(3 * cornerIds.length);
  for (let k = 0; k < cornerIds.length; k++) {
    for (let j = 0; j < 3; j++) vertices[3 * k + j] = points[3 * cornerIds[k] + j];
  }
  const loop = loopIds.map((id) => outIndex.get(id) as number);
  let first = 0;
  for (let k = 1; k < loop.length; k++) if (loop[k] < loop[first]) first = k;
  const top = loop.slice(first).concat(loop.slice(0, first));
  const bottom = [top[0], ...top.slice(1).reverse()];
  const k = top.length;
  const faceOffsets = Uint32Array.of(0, k, 2 * k);
  const faceVertices = new Uint32Array(2 * k);
  faceVertices.set(top, 0);
  faceVertices.set(bottom, k);
  // The plane: of the two candidate normals, the widest corner triangle's and the spanning
  // triangle's (i0, i1, far: the plane the flatness was judged on, every point within
  // HULL_FLAT_FACTOR tolerances of it), the one the points spread least along; offset halfway
  // between the extreme points (all input points, welded ones too).
  const wide = widestCorners(P, top, cornerIds);
  const plane = new Float64Array(3);
  triangleNormal(P, wide[0], wide[1], wide[2], plane, 0);
  if (plane[0] * nx + plane[1] * ny + plane[2] * nz < 0) {
    plane[0] = -plane[0];
    plane[1] = -plane[1];
    plane[2] = -plane[2];
  }
  const n = points.length / 3;
  const all = Array.from({ length: n }, (_, i) => i);
  if (planeSpread(P, all, normal, 0, i0) < planeSpread(P, all, plane, 0, i0)) plane.set(normal);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const d =
      plane[0] * points[3 * i] + plane[1] * points[3 * i + 1] + plane[2] * points[3 * i + 2];
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const offset = 0.5 * (lo + hi);
  const faceNormals = Float64Array.of(
    plane[0],
    plane[1],
    plane[2],
    -plane[0],
    -plane[1],
    -plane[2],
  );
  const facePlaneOffsets = Float64Array.of(offset, 0 - offset);
  const edgeKeys: number[] = [];
  for (let j = 0; j < k; j++) {
    const a = top[j];
    const b = top[(j + 1) % k];
    edgeKeys.push(Math.min(a, b) * k + Math.max(a, b));
  }
  edgeKeys.sort((p, q) => p - q);
  const edges = new Uint32Array(2 * k);
  for (let j = 0; j < k; j++) {
    edges[2 * j] = Math.floor(edgeKeys[j] / k);
    edges[2 * j + 1] = edgeKeys[j] % k;
  }
  return { vertices, faceOffsets, faceVertices, faceNormals, facePlaneOffsets, edges, flat: true };
}

// ---------------------------------------------------------------------------------------------
// Public entry
// ---------------------------------------------------------------------------------------------

/** The default options (no option set): told apart from options given in the field's place. */
const NO_HULL_OPTIONS: ConvexHullOptions = Object.freeze({});
const HULL_SPEC = optionsSpec("computeConvexHull", "options", { allowFlat: "boolean" });

/**
 * The convex hull of a point cloud with coplanar triangles merged into polygonal faces.
 *
 * Quickhull (Barber, Dobkin & Huhdanpaa 1996) with an exact orientation predicate (Shewchuk
 * 1997), then region growing of coplanar triangles, Newell normals (Sutherland, Sproull &
 * Schumacker 1974) and removal of the points that are not corners (inside a face or in the middle
 * of an edge). Points within `hullTolerance` of each other or of a face's plane count as
 * one point / on the plane. Duplicates, interior points and coplanar clusters are fine.
 *
 * @param points packed x, y, z coordinates (`[x0, y0, z0, x1, …]`), any unit and frame.
 * @param field name of the argument in error messages; or the options, when given in its place
 *   (`computeConvexHull(points, { allowFlat: true })`).
 * @param options `allowFlat`: coplanar points make a flat convex polygon (see
 *   {@link ConvexHull.flat}) instead of an error.
 * @returns the hull: corner vertices (a subset of the input points, in input order), faces CCW
 *   from outside with unit outward normals and plane offsets, unique edges.
 * @throws CollideError (`invalid_value` on `field`) for non-finite coordinates, two points
 *   whose difference on an axis overflows, a coordinate of magnitude `MESH_COORDINATE_LIMIT`
 *   (2^1023) or more, a length that is not a multiple of 3, fewer than 4 points (3 with `allowFlat`), or points all coincident,
 *   collinear or (without `allowFlat`) coplanar within `HULL_FLAT_FACTOR` × `hullTolerance` —
 *   4 × (1e-10 × the bounding box's largest side + 8ε × the largest coordinate magnitude), so
 *   relative to the points' extent: all within it of the line through the widest pair is
 *   collinear (`[[0,0,0],[1,0,0],[2,1e-12,0]]`, 5e-13 off against 8.0e-10), a sliver thinner than
 *   about 4e-10 of its length at any scale; the message holds the points and that bar.
 */
export function computeConvexHull(
  points: ArrayLike<number>,
  field: string | ConvexHullOptions = "points",
  options: ConvexHullOptions = NO_HULL_OPTIONS,
): ConvexHull {
  // `computeConvexHull(points, { allowFlat: true })`: the options in the field's place.
  if (typeof field === "object" && field !== null && options === NO_HULL_OPTIONS) {
    options = field;
    field = "points";
  }
  if (typeof field !== "string") {
    invalidValue(
      "field",
      field,
      "must be a string (the points' name in error messages) or the options",
    );
  }
  checkOptions(options, HULL_SPEC);
  const allowFlat = options.allowFlat === true;
  checkPoints(points, field, allowFlat);
  const n = points.length / 3;
  const { maxAbs } = measure(points);
  // Scale by an exact power of two so the largest coordinate is about 1.
  const exponent = Math.max(
    -MAX_SCALE_EXPONENT,
    Math.min(MAX_SCALE_EXPONENT, -Math.ceil(Math.log2(maxAbs > 0 ? maxAbs : 1))),
  );
  const scale = 2 ** exponent;
  const P = new Float64Array(3 * n);
  for (let i = 0; i < 3 * n; i++) P[i] = points[i] * scale;
  const tol = hullTolerance(P);
  // Upper bound on the distance between any two points: the AABB's diagonal.
  const diameter = Math.sqrt(3) * measure(P).extent;

  const ids = weld(P, n, tol);
  const simplex = initialSimplex(P, ids, tol, points, field, allowFlat);
  if (simplex[3] === NO_FACE) {
    return flatConvexHull(P, ids, simplex[0], simplex[1], tol, points, field);
  }
  const hull = quickhullTriangles(P, n, ids, simplex);
  const { cluster, seeds } = clusterTriangles(P, n, hull, tol);

  // Repair passes, one fix each: a cluster with fewer than 3 corners (a sliver between two faces)
  // is absorbed by a neighbour; a cluster whose corner polygon is not convex (a nearly flat
  // curved cap cut by the tolerance slab leaves notches) falls back to its triangles. Bounded:
  // at most count − 1 splits and each absorption removes a cluster.
  let loops = clusterLoops(hull, cluster, n);
  const onFaces = new Int32Array(n);
  const isCorner = new Uint8Array(n);
  const seedNormal = new Float64Array(3);
  const maxPasses = 4 * hull.count;
  for (let pass = 0; pass < maxPasses; pass++) {
    markCorners(P, loops, onFaces, isCorner, tol);
    let thin = -1;
    let notched = -1;
    for (let c = 0; c < loops.length && thin < 0; c++) {
      let corners = 0;
      for (const v of loops[c]) corners += isCorner[v];
      if (corners < 3) thin = c;
      else if (notched < 0 && corners > 3) {
        const sd = seeds[c];
        triangleNormal(
          P,
          hull.tri[3 * sd],
          hull.tri[3 * sd + 1],
          hull.tri[3 * sd + 2],
          seedNormal,
          0,
        );
        if (hasReflexCorner(P, loops[c], isCorner, seedNormal, tol)) notched = c;
      }
    }
    if (thin >= 0 && loops.length > 4) {
      // Into the neighbour whose seed plane fits the sliver's boundary best.
      let into = -1;
      let bestFit = Number.POSITIVE_INFINITY;
      for (let t = 0; t < hull.count; t++) {
        if (cluster[t] !== thin) continue;
        for (let e = 0; e < 3; e++) {
          const other = cluster[hull.adj[3 * t + e]];
          if (other === thin || other === into) continue;
          const sd = seeds[other];
          triangleNormal(
            P,
            hull.tri[3 * sd],
            hull.tri[3 * sd + 1],
            hull.tri[3 * sd + 2],
            seedNormal,
            0,
          );
          const fit = planeDistance(P, loops[thin], seedNormal, hull.tri[3 * sd]);
          if (fit < bestFit || (fit === bestFit && other < into)) {
            bestFit = fit;
            into = other;
          }
        }
      }
      seeds.splice(thin, 1);
      for (let t = 0; t < hull.count; t++) {
        if (cluster[t] === thin) cluster[t] = into;
        if (cluster[t] > thin) cluster[t]--;
      }
    } else if (notched >= 0) {
      let kept = false;
      for (let t = 0; t < hull.count; t++) {
        if (cluster[t] !== notched) continue;
        if (!kept) {
          seeds[notched] = t;
          kept = true;
        } else {
          cluster[t] = seeds.length;
          seeds.push(t);
        }
      }
    } else {
      break;
    }
    loops = clusterLoops(hull, cluster, n);
  }
  markCorners(P, loops, onFaces, isCorner, tol);

  // Corners in input order.
  const outIndex = new Int32Array(n).fill(-1);
  const cornerIds: number[] = [];
  for (let i = 0; i < n; i++) {
    if (isCorner[i] === 1) {
      outIndex[i] = cornerIds.length;
      cornerIds.push(i);
    }
  }
  const vertices = new Float64Array(3 * cornerIds.length);
  for (let k = 0; k < cornerIds.length; k++) {
    for (let j = 0; j < 3; j++) vertices[3 * k + j] = points[3 * cornerIds[k] + j];
  }

  const faceList: number[][] = [];
  // Every vertex of each cluster's triangles (boundary and interior): the face plane must account
  // for the points dropped from inside the face as well as for its corners.
  const clusterVertices: number[][] = Array.from({ length: loops.length }, () => []);
  const seen = new Int32Array(n).fill(-1);
  for (let t = 0; t < hull.count; t++) {
    const c = cluster[t];
    for (let e = 0; e < 3; e++) {
      const v = hull.tri[3 * t + e];
      if (seen[v] === c) continue;
      seen[v] = c;
      clusterVertices[c].push(v);
    }
  }
  const faceMembers: number[][] = [];
  const faceSeeds: number[] = [];
  for (let c = 0; c < loops.length; c++) {
    const face: number[] = [];
    for (const v of loops[c]) if (outIndex[v] >= 0) face.push(outIndex[v]);
    if (face.length < 3) continue;
    let first = 0;
    for (let k = 1; k < face.length; k++) if (face[k] < face[first]) first = k;
    faceList.push(face.slice(first).concat(face.slice(0, first)));
    faceMembers.push(clusterVertices[c]);
    faceSeeds.push(seeds[c]);
  }

  const faceCount = faceList.length;
  const faceOffsets = new Uint32Array(faceCount + 1);
  let total = 0;
  for (let f = 0; f < faceCount; f++) {
    faceOffsets[f] = total;
    total += faceList[f].length;
  }
  faceOffsets[faceCount] = total;
  const faceVertices = new Uint32Array(total);
  const faceNormals = new Float64Array(3 * faceCount);
  const facePlaneOffsets = new Float64Array(faceCount);
  const edgeKeys: number[] = [];
  const candidate = new Float64Array(9);
  for (let f = 0; f < faceCount; f++) {
    const face = faceList[f];
    faceVertices.set(face, faceOffsets[f]);
    for (let k = 0; k < face.length; k++) {
      const a = face[k];
      const b = face[(k + 1) % face.length];
      if (a < b) edgeKeys.push(a * cornerIds.length + b);
    }
    // Candidate normals: Newell's normal of the corner loop (relative to its first corner,
    // scaled coordinates), the seed triangle's normal, whose plane every vertex of the cluster
    // is within the tolerance of by construction, and the widest corner triangle's normal.
    const r = cornerIds[face[0]];
    let nx = 0;
    let ny = 0;
    let nz = 0;
    for (let k = 0; k < face.length; k++) {
      const i = cornerIds[face[k]];
      const j = cornerIds[face[(k + 1) % face.length]];
      const ix = P[3 * i] - P[3 * r];
      const iy = P[3 * i + 1] - P[3 * r + 1];
      const iz = P[3 * i + 2] - P[3 * r + 2];
      const jx = P[3 * j] - P[3 * r];
      const jy = P[3 * j + 1] - P[3 * r + 1];
      const jz = P[3 * j + 2] - P[3 * r + 2];
      nx += (iy - jy) * (iz + jz);
      ny += (iz - jz) * (ix + jx);
      nz += (ix - jx) * (iy + jy);
    }
    // Third candidate: the plane of the widest corner triangle, exact for a triangular face
    // and well conditioned for a needle, where Newell's sum cancels.
    const far = widestCorners(P, face, cornerIds);
    // Newell's normal, made perpendicular to the face's longest chord (first corner to the
    // corner farthest from it).
    const tip = far[3];
    writeUnitNormal(
      nx,
      ny,
      nz,
      P[3 * tip] - P[3 * far[0]],
      P[3 * tip + 1] - P[3 * far[0] + 1],
      P[3 * tip + 2] - P[3 * far[0] + 2],
      candidate,
      0,
    );
    const seed = faceSeeds[f];
    triangleNormal(
      P,
      hull.tri[3 * seed],
      hull.tri[3 * seed + 1],
      hull.tri[3 * seed + 2],
      candidate,
      3,
    );
    triangleNormal(P, far[0], far[1], far[2], candidate, 6);
    // The seed's plane is a supporting plane of the exact hull, with every vertex of the cluster
    // within the tolerance. Another candidate replaces it only when it fits the boundary better
    // and turns away from it by less than the tolerance across the whole point set, so no input
    // point can end up outside by more than the tolerance (a needle's own vertices do not fix
    // its plane's rotation about its axis).
    let chosen = 3;
    let bestSpread = planeSpread(P, faceMembers[f], candidate, 3, r);
    for (const o of [0, 6]) {
      const dx = candidate[o] - candidate[3];
      const dy = candidate[o + 1] - candidate[4];
      const dz = candidate[o + 2] - candidate[5];
      if (norm3(dx, dy, dz) * diameter > tol) continue;
      const spread = planeSpread(P, faceMembers[f], candidate, o, r);
      if (spread < bestSpread) {
        bestSpread = spread;
        chosen = o;
      }
    }
    nx = candidate[chosen];
    ny = candidate[chosen + 1];
    nz = candidate[chosen + 2];
    faceNormals[3 * f] = nx;
    faceNormals[3 * f + 1] = ny;
    faceNormals[3 * f + 2] = nz;
    // Offset halfway between the extreme boundary points, in the input's own coordinates.
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const v of faceMembers[f]) {
      const d = nx * points[3 * v] + ny * points[3 * v + 1] + nz * points[3 * v + 2];
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    facePlaneOffsets[f] = 0.5 * (lo + hi);
  }

  const uniqueKeys = Array.from(new Set(edgeKeys)).sort((p, q) => p - q);
  const edges = new Uint32Array(2 * uniqueKeys.length);
  for (let k = 0; k < uniqueKeys.length; k++) {
    edges[2 * k] = Math.floor(uniqueKeys[k] / cornerIds.length);
    edges[2 * k + 1] = uniqueKeys[k] % cornerIds.length;
  }
  return { vertices, faceOffsets, faceVertices, faceNormals, facePlaneOffsets, edges, flat: false };
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/**
 * Checks that `hull` is a valid convex hull of `points` and returns every problem found (an
 * empty array when valid): consistent array lengths and indices; finite unit normals; every
 * face planar (vertices within `tolerance` of its plane) and convex (every face vertex inside
 * every edge line of the face, within `tolerance` widened for short edges, whose direction is
 * only known to about tolerance / length); a closed 2-manifold (each directed face edge
 * once, with its reverse in another face) whose `edges` are exactly the face edges; Euler's
 * V − E + F = 2; every vertex on at least 3 faces, or on 2 and farther than `tolerance` from the
 * line through its two neighbours along their shared edges (a corner that {@link markCorners}
 * keeps on a fold of a thin hull, or a corner of a flat polygon; one within is the middle of an
 * edge); every input point inside or on every face plane within `tolerance` — on a flat hull
 * within `HULL_FLAT_FACTOR` / 2 × `tolerance`, as its plane is the mid-plane of points up to
 * `HULL_FLAT_FACTOR` tolerances apart (the vertices, input points, likewise). The oracle of the
 * hull tests and of the convex-polyhedron shape.
 * @param points packed xyz input of {@link computeConvexHull}.
 * @param hull its result.
 * @param tolerance distance slack in the points' unit; default {@link hullTolerance}(points).
 */
export function validateConvexHull(
  points: ArrayLike<number>,
  hull: ConvexHull,
  tolerance = hullTolerance(points),
): string[] {
  const problems: string[] = [];
  const { vertices, faceOffsets, faceVertices, faceNormals, facePlaneOffsets, edges } = hull;
  const V = vertices.length / 3;
  const F = faceOffsets.length - 1;
  const E = edges.length / 2;
  if (!Number.isInteger(V) || !Number.isInteger(E) || F < 0) {
    return ["array lengths are not multiples of 3 (vertices) and 2 (edges)"];
  }
  if (faceNormals.length !== 3 * F || facePlaneOffsets.length !== F) {
    return [`faceNormals/facePlaneOffsets lengths do not match ${F} faces`];
  }
  if (faceOffsets[0] !== 0 || faceOffsets[F] !== faceVertices.length) {
    return ["faceOffsets do not span faceVertices"];
  }
  for (let i = 0; i < vertices.length; i++) {
    if (!Number.isFinite(vertices[i])) problems.push(`vertex coordinate ${i} is not finite`);
  }
  for (const v of faceVertices) if (v >= V) return [`face vertex index ${v} out of range`];
  for (const v of edges) if (v >= V) return [`edge vertex index ${v} out of range`];

  const planeSlack = hull.flat ? 0.5 * HULL_FLAT_FACTOR * tolerance : tolerance;
  const directed = new Map<number, number>();
  const facesOfVertex = new Int32Array(V);
  // Each vertex's neighbours in the first face that lists it.
  const before = new Int32Array(V).fill(-1);
  const after = new Int32Array(V).fill(-1);
  for (let f = 0; f < F; f++) {
    const start = faceOffsets[f];
    const end = faceOffsets[f + 1];
    const k = end - start;
    if (k < 3) {
      problems.push(`face ${f} has ${k} vertices`);
      continue;
    }
    const nx = faceNormals[3 * f];
    const ny = faceNormals[3 * f + 1];
    const nz = faceNormals[3 * f + 2];
    const d = facePlaneOffsets[f];
    if (!(Math.abs(hypot3(nx, ny, nz) - 1) <= HULL_PLANE_TOLERANCE) || !Number.isFinite(d)) {
      problems.push(`face ${f} normal is not a finite unit vector`);
      continue;
    }
    for (let i = start; i < end; i++) {
      const a = faceVertices[i];
      const b = faceVertices[i + 1 < end ? i + 1 : start];
      facesOfVertex[a]++;
      if (before[a] < 0) {
        before[a] = faceVertices[i > start ? i - 1 : end - 1];
        after[a] = b;
      }
      const key = a * V + b;
      if (directed.has(key)) problems.push(`directed edge ${a}→${b} is in two faces`);
      directed.set(key, f);
      const ax = vertices[3 * a];
      const ay = vertices[3 * a + 1];
      const az = vertices[3 * a + 2];
      const dist = nx * ax + ny * ay + nz * az - d;
      if (Math.abs(dist) > planeSlack)
        problems.push(`face ${f} vertex ${a} is ${dist} off its plane`);
      // Inward direction of the edge within the face plane: n × (b − a).
      const ex = vertices[3 * b] - ax;
      const ey = vertices[3 * b + 1] - ay;
      const ez = vertices[3 * b + 2] - az;
      const ix = ny * ez - nz * ey;
      const iy = nz * ex - nx * ez;
      const iz = nx * ey - ny * ex;
      const ilen = hypot3(ix, iy, iz);
      if (!(ilen > 0)) {
        problems.push(`face ${f} has a zero-length edge ${a}→${b}`);
        continue;
      }
      // Moving the edge's endpoints by the tolerance turns its line by about 2 tol / length, so
      // a vertex at distance r from the endpoints may sit tol · (1 + 2r / length) outside it.
      const elen = hypot3(ex, ey, ez);
      for (let j = start; j < end; j++) {
        const v = faceVertices[j];
        const wx = vertices[3 * v] - ax;
        const wy = vertices[3 * v + 1] - ay;
        const wz = vertices[3 * v + 2] - az;
        const s = (ix * wx + iy * wy + iz * wz) / ilen;
        const slack = tolerance * (1 + (2 * hypot3(wx, wy, wz)) / elen);
        if (s < -slack)
          problems.push(`face ${f} is not convex at edge ${a}→${b} (vertex ${v}: ${s})`);
      }
    }
    const n = points.length / 3;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const s = nx * points[3 * i] + ny * points[3 * i + 1] + nz * points[3 * i + 2] - d;
      if (s > worst) worst = s;
    }
    if (worst > planeSlack) problems.push(`an input point is ${worst} outside face ${f}`);
  }
  for (const [key, f] of directed) {
    const a = Math.floor(key / V);
    const b = key % V;
    if (!directed.has(b * V + a)) problems.push(`edge ${a}→${b} of face ${f} has no reverse`);
  }
  const undirected = new Set<number>();
  for (let k = 0; k < E; k++) {
    const a = Math.min(edges[2 * k], edges[2 * k + 1]);
    const b = Math.max(edges[2 * k], edges[2 * k + 1]);
    if (a === b) problems.push(`edge ${k} is a loop`);
    if (undirected.has(a * V + b)) problems.push(`edge ${a}–${b} is listed twice`);
    undirected.add(a * V + b);
    if (!directed.has(a * V + b) && !directed.has(b * V + a)) {
      problems.push(`edge ${a}–${b} is on no face`);
    }
  }
  if (undirected.size * 2 !== directed.size) {
    problems.push(`edges list ${undirected.size} edges, faces have ${directed.size / 2}`);
  }
  if (V - E + F !== 2) problems.push(`Euler characteristic V − E + F = ${V - E + F}, not 2`);
  for (let v = 0; v < V; v++) {
    if (facesOfVertex[v] < 2) problems.push(`vertex ${v} is on ${facesOfVertex[v]} faces`);
    if (facesOfVertex[v] !== 2) continue;
    const p = before[v];
    const q = after[v];
    const ex = vertices[3 * q] - vertices[3 * p];
    const ey = vertices[3 * q + 1] - vertices[3 * p + 1];
    const ez = vertices[3 * q + 2] - vertices[3 * p + 2];
    const wx = vertices[3 * v] - vertices[3 * p];
    const wy = vertices[3 * v + 1] - vertices[3 * p + 1];
    const wz = vertices[3 * v + 2] - vertices[3 * p + 2];
    // |w × e| / |e| written out, not markCorners' lineDistance: the check of what that keeps,
    // independent of it, in the points' own units (hypot3; lineDistance's plain root is for the
    // hull's coordinates scaled to magnitude ≤ 1, its squares subnormal below about 1e-154).
    const elen = hypot3(ex, ey, ez);
    const off =
      elen > 0
        ? hypot3(wy * ez - wz * ey, wz * ex - wx * ez, wx * ey - wy * ex) / elen
        : hypot3(wx, wy, wz);
    if (!(off > tolerance))
      problems.push(
        `vertex ${v} is on 2 faces and ${off} from the line through its neighbours ${p} and ${q}: the middle of an edge`,
      );
  }
  return problems;
}
