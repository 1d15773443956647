/**
 * A convex polyhedron: the convex hull of a point set, with true (merged coplanar) faces, its
 * unique edges and outward face normals, as clipping and SAT need them. Built by our own
 * quickhull (src/geometry/hull.ts).
 *
 * Coplanar points make a **flat convex polygon** (Jolt's flat hulls, a Box2D polygon placed in
 * 3D: a floor tile, a door, a sign): the same record with `flat` set and two faces, the polygon
 * about its normal n and the same corners reversed about −n, on one plane. That is a closed
 * 2-manifold (V − E + F = 2) of zero thickness, so everything written for hulls holds for it
 * unchanged: the support function is the farthest vertex, the SAT axes are ±n and the edge
 * crosses, the reference/incident face for clipping is the side facing the other shape, ray
 * casts and point projection read the two planes and the side edges. A flat hull is a new shape
 * type in nothing but this flag: JSON `"convex"` and `makeConvexPolyhedron` take both.
 */

import { checkFieldArg } from "../errors.js";
import type { ConvexHull } from "../geometry/hull.js";
import { computeConvexHull, hullTolerance } from "../geometry/hull.js";
import { readPointSet } from "../geometry/point-set.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { brandShape, ShapeType } from "./shape.js";
// Its definition (the record in the shape definitions' table), loaded with the constructor.
import "./defs/convex-polyhedron.js";
// The queries' frame at a far hull's centre (src/shapes/far-frame.ts hooks).
import { farCentre, setHullFrameMaker } from "./hull-frame.js";

/** A convex polyhedron in its local frame (the hull's arrays, read-only by convention). */
export interface ConvexPolyhedron extends ConvexHull {
  readonly type: typeof ShapeType.ConvexPolyhedron;
  /** Number of hull vertices. */
  readonly vertexCount: number;
  /** Number of faces. */
  readonly faceCount: number;
  /**
   * The vertices' neighbours along the hull's edges, for the support's hill climb: vertex i's are
   * `vertexNeighbors[vertexNeighborOffsets[i] .. vertexNeighborOffsets[i + 1]]` (length
   * vertexCount + 1). Made by {@link makeConvexPolyhedron}; absent on a record built by hand,
   * whose support then scans every vertex.
   */
  readonly vertexNeighborOffsets?: Uint32Array;
  /** See {@link ConvexPolyhedron.vertexNeighborOffsets}. */
  readonly vertexNeighbors?: Uint32Array;
  /**
   * The support's first vertex for each cell of a cube map of directions (6 × 16 × 16 cells, a
   * vertex that no neighbour beats at the cell's centre), or absent on a hull of fewer than 28
   * vertices (whose support scans). Made with the neighbours.
   */
  readonly supportStarts?: Uint32Array;
  /**
   * Slack of the hill climb's stop, scene units per unit of |dir|₁ (the sum of the direction's
   * absolute components): a vertex whose neighbours all lie more than this below it along `dir`
   * is the scan's answer; otherwise the support scans. Made with the neighbours.
   */
  readonly supportClimbSlack?: number;
  /**
   * 1 for each cube-map cell ({@link ConvexPolyhedron.supportStarts}) whose start vertex is the
   * support along every direction of the cell with the climb's stop met to spare (see
   * `settledCells`): the support answers it at once. Made with the start table; absent with it.
   */
  readonly supportSettled?: Uint8Array;
}

/**
 * The convex polyhedron hull of `points` (packed xyz or `Vec3[]`, local frame, scene units), or
 * the flat convex polygon (`flat: true`) when they are coplanar within `HULL_FLAT_FACTOR` ×
 * `hullTolerance`. Throws `CollideError` naming `field` (default "points") and holding the
 * points for non-finite coordinates, fewer than 3 points, or points all coincident or collinear
 * within that bar, 4 × (1e-10 × the points' extent + 8ε × their largest coordinate magnitude):
 * relative to the extent, so a sliver thinner than about 4e-10 of its length is refused at any
 * scale (src/geometry/hull.ts, `computeConvexHull`).
 */
export function makeConvexPolyhedron(
  points: ArrayLike<number> | readonly Vec3[],
  field = "points",
): ConvexPolyhedron {
  checkFieldArg("makeConvexPolyhedron", field, "makeConvexPolyhedron takes the points only");
  const packed = readPointSet(points, field);
  const hull = hullInOwnFrame(packed, field);
  const vertexCount = hull.vertices.length / 3;
  const { offsets, neighbors } = vertexAdjacency(vertexCount, hull.edges);
  const slack = climbSlack(hull.vertices);
  const starts =
    vertexCount >= CLIMB_MIN_VERTICES
      ? supportStartTable(hull.vertices, offsets, neighbors)
      : undefined;
  return brandShape({
    type: ShapeType.ConvexPolyhedron,
    ...hull,
    vertexCount,
    faceCount: hull.faceOffsets.length - 1,
    vertexNeighborOffsets: offsets,
    vertexNeighbors: neighbors,
    supportStarts: starts,
    supportClimbSlack: slack,
    supportSettled:
      starts === undefined
        ? undefined
        : settledCells(hull.vertices, starts, offsets, neighbors, slack),
  });
}

/**
 * The hull of `packed`, computed in the frame at the points' centre when they lie far from their
 * frame's origin (src/shapes/hull-frame.ts `farCentre`: a power-of-two grid point, so the moved
 * points are exact), then moved back (the vertices are input points, exactly; the plane offsets
 * rounded once): its tolerances, and so which points are corners, then follow the points'
 * spread, not their distance from the origin (issue 16: points of a hull of size 100 at 1e10
 * within 1e-6 of a face were merged into it).
 */
function hullInOwnFrame(packed: ArrayLike<number>, field: string): ConvexHull {
  const c = farCentre(packed);
  if (c === null) return computeConvexHull(packed, field, { allowFlat: true });
  const moved = new Float64Array(packed.length);
  for (let i = 0; i < packed.length; i++) moved[i] = packed[i] - c[i % 3];
  let hull: ConvexHull;
  try {
    hull = computeConvexHull(moved, field, { allowFlat: true });
  } catch (e) {
    // Refused: refused again on the points as given, so the error holds those.
    computeConvexHull(packed, field, { allowFlat: true });
    throw e;
  }
  const v = hull.vertices;
  for (let i = 0; i < v.length; i++) v[i] += c[i % 3];
  const n = hull.faceNormals;
  const d = hull.facePlaneOffsets;
  for (let f = 0; f < d.length; f++)
    d[f] += n[3 * f] * c[0] + n[3 * f + 1] * c[1] + n[3 * f + 2] * c[2];
  return hull;
}

/** The vertices' neighbours over the unique edges (pairs of vertex indices), as offsets + list. */
function vertexAdjacency(
  vertexCount: number,
  edges: Uint32Array,
): { offsets: Uint32Array; neighbors: Uint32Array } {
  const offsets = new Uint32Array(vertexCount + 1);
  for (let q = 0; q < edges.length; q++) offsets[edges[q] + 1]++;
  for (let i = 0; i < vertexCount; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, vertexCount);
  const neighbors = new Uint32Array(edges.length);
  for (let q = 0; q + 1 < edges.length; q += 2) {
    neighbors[fill[edges[q]]++] = edges[q + 1];
    neighbors[fill[edges[q + 1]]++] = edges[q];
  }
  return { offsets, neighbors };
}

/**
 * The hill climb's slack per unit of |dir|₁: twice the rounding of two dot products (3ε·max|x|
 * each, Higham 2002, §3.1) and four hull tolerances (a merged face is planar only to within one,
 * so a climb may stop at a corner that another corner of its face beats by up to two).
 */
function climbSlack(v: Float64Array): number {
  let maxAbs = 0;
  for (let i = 0; i < v.length; i++) maxAbs = Math.max(maxAbs, Math.abs(v[i]));
  return 4 * hullTolerance(v) + 12 * Number.EPSILON * maxAbs;
}

/**
 * Cells per side of each of the six faces of the cube map that gives the support's first vertex
 * ({@link ConvexPolyhedron.supportStarts}): 6 × 16 × 16 cells, about 0.12 rad wide, so on a
 * hull of a few dozen vertices the start is the answer or one edge from it, and most cells lie
 * inside one vertex's cone of directions (settled: 59% of EPA's support calls on
 * bench/hull-contact.ts's 32-vertex hulls, 33% with 8 × 8; the EPA contact query about 5% faster
 * than with 8 × 8, 24 × 24 another 2% at twice the memory: 7.7 KB of tables per hull).
 */
const START_CELLS = 16;

/**
 * Hulls with fewer vertices than this scan them and keep no cube map: the cell lookup and the
 * climb's dependent loads cost about what a scan of that many vertices does (contact queries of
 * overlapping hull pairs, bench/hull-contact.ts's configurations, CPU-time A/B in one process:
 * the climb 13 % slower at 16 vertices, even at 24–28, 5 % faster at 32, 7 % at 40).
 */
const CLIMB_MIN_VERTICES = 28;

/**
 * The cube-map cell of `dir`: face 2·axis + (1 when that component is negative) of the axis of
 * largest magnitude, the other two components divided by it binned in START_CELLS; −1 for a zero
 * or non-finite direction, or one whose largest component lies outside [2^-400, 2^400] (there
 * the support scans; within, the dot products with the vertices of a settled table's hull
 * neither overflow nor lose their relative precision: see `settledCells`). Takes the vector, not its components: a double passed to a call V8
 * does not inline is boxed (allocated), and the world's narrow phase reaches this.
 */
function startCell(dir: Vec3): number {
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face: number;
  let u: number;
  let w: number;
  let m: number;
  if (ax >= ay && ax >= az) {
    face = x < 0 ? 1 : 0;
    m = ax;
    u = y;
    w = z;
  } else if (ay >= az) {
    face = y < 0 ? 3 : 2;
    m = ay;
    u = z;
    w = x;
  } else {
    face = z < 0 ? 5 : 4;
    m = az;
    u = x;
    w = y;
  }
  // One division: (u/m + 1)·half as u·(half/m) + half (the cell may differ from that by rounding
  // at its edges, which changes only where the climb starts). A zero, subnormal (half/m
  // overflows) or non-finite m: no cell.
  const half = START_CELLS / 2;
  const k = half / m;
  if (!(k > CELL_K_MIN && k < CELL_K_MAX)) return -1;
  let i = Math.floor(u * k + half);
  let j = Math.floor(w * k + half);
  if (i >= START_CELLS) i = START_CELLS - 1;
  else if (i < 0) i = 0;
  if (j >= START_CELLS) j = START_CELLS - 1;
  else if (j < 0) j = 0;
  return (face * START_CELLS + i) * START_CELLS + j;
}

/** Cells of the cube map: the length of `supportStarts` and `supportSettled`. */
export const SUPPORT_START_CELLS = 6 * START_CELLS * START_CELLS;

/** {@link startCell}'s bounds on START_CELLS / 2 / m: m within (2^-400, 2^400). */
const CELL_K_MIN = (START_CELLS / 2) * 2 ** -400;
const CELL_K_MAX = (START_CELLS / 2) * 2 ** 400;

/** The direction with components `sign` along the cube-map face's axis and u, w across it. */
function cellDirection(out: Vec3, face: number, u: number, w: number): void {
  const axis = face >> 1;
  const sign = face & 1 ? -1 : 1;
  if (axis === 0) vec3.set(out, sign, u, w);
  else if (axis === 1) vec3.set(out, w, sign, u);
  else vec3.set(out, u, w, sign);
}

/**
 * Widening of a cell, in units of u and w, by which the settled test covers the directions that
 * {@link startCell}'s rounding puts in a cell from beyond its edges (a few ε of the cell index).
 */
const CELL_PAD = 1e-9;

/**
 * The cells of the cube map ({@link ConvexPolyhedron.supportSettled}) in which the climb would
 * stop at its start at once: for every direction d in the cell (widened by CELL_PAD), every
 * neighbour n of the start vertex s has d·(s − n) > 2·slack·|d|₁ in exact arithmetic. The
 * difference is linear in the cell's coordinates (u, w) and |d|₁ = m·(1 + |u| + |w|) convex, so
 * it is least at a corner of the cell: four corners per neighbour, each evaluated with 8ε of its
 * terms to spare for its own rounding. Then the climb's computed dot products (rounded by at
 * most 3ε·max|x|·|d|₁ each, 12ε·max|x| ≤ slack; no overflow or underflow with |x| and |d|'s
 * largest component within [2^-400, 2^400], which {@link startCell} and this table's absence
 * outside that range assure) leave no neighbour above the start and every one more than the
 * slack below it: the climb's stop, and so its answer (the scan's). All zero for a hull whose
 * largest coordinate lies outside [2^-400, 2^400].
 */
function settledCells(
  v: Float64Array,
  starts: Uint32Array,
  offsets: Uint32Array,
  adj: Uint32Array,
  slack: number,
): Uint8Array {
  const table = new Uint8Array(starts.length);
  let maxAbs = 0;
  for (let i = 0; i < v.length; i++) maxAbs = Math.max(maxAbs, Math.abs(v[i]));
  if (!(maxAbs >= 2 ** -400 && maxAbs <= 2 ** 400)) return table;
  const d = vec3.create();
  for (let face = 0; face < 6; face++) {
    for (let i = 0; i < START_CELLS; i++) {
      for (let j = 0; j < START_CELLS; j++) {
        const cell = (face * START_CELLS + i) * START_CELLS + j;
        const s = starts[cell];
        let settled = true;
        for (let k = offsets[s]; k < offsets[s + 1] && settled; k++) {
          const n = adj[k];
          const ex = v[3 * s] - v[3 * n];
          const ey = v[3 * s + 1] - v[3 * n + 1];
          const ez = v[3 * s + 2] - v[3 * n + 2];
          for (let corner = 0; corner < 4; corner++) {
            const ci = i + (corner & 1);
            const cj = j + (corner >> 1);
            const u = (ci / START_CELLS) * 2 - 1 + (corner & 1 ? CELL_PAD : -CELL_PAD);
            const w = (cj / START_CELLS) * 2 - 1 + (corner >> 1 ? CELL_PAD : -CELL_PAD);
            cellDirection(d, face, u, w);
            const value = ex * d.x + ey * d.y + ez * d.z;
            const terms = Math.abs(ex * d.x) + Math.abs(ey * d.y) + Math.abs(ez * d.z);
            const need = 2 * slack * (1 + Math.abs(u) + Math.abs(w)) + 8 * Number.EPSILON * terms;
            if (!(value > need)) settled = false;
          }
        }
        table[cell] = settled ? 1 : 0;
      }
    }
  }
  return table;
}

/**
 * The vertex at the centre of every cube-map cell (see {@link startCell}): the scan's for each
 * face's first cell, then a climb over the edges from the previous cell's vertex to one that no
 * neighbour beats (the scan's, but on a near tie; the support certifies what it returns from
 * there, and `settledCells` what it takes at once) — a few neighbours per cell, not a scan of
 * every vertex.
 */
function supportStartTable(v: Float64Array, offsets: Uint32Array, adj: Uint32Array): Uint32Array {
  const cells = 6 * START_CELLS * START_CELLS;
  const table = new Uint32Array(cells);
  const dir = vec3.create();
  let cur = 0;
  for (let face = 0; face < 6; face++) {
    for (let i = 0; i < START_CELLS; i++) {
      for (let j = 0; j < START_CELLS; j++) {
        const u = ((i + 0.5) / START_CELLS) * 2 - 1;
        const w = ((j + 0.5) / START_CELLS) * 2 - 1;
        cellDirection(dir, face, u, w);
        if (i === 0 && j === 0) cur = scanIndex(v, dir);
        const x = dir.x;
        const y = dir.y;
        const z = dir.z;
        let best = v[3 * cur] * x + v[3 * cur + 1] * y + v[3 * cur + 2] * z;
        // Each move raises `best` strictly: no vertex twice.
        for (let moved = true; moved; ) {
          moved = false;
          for (let k = offsets[cur]; k < offsets[cur + 1]; k++) {
            const n = adj[k];
            const d = v[3 * n] * x + v[3 * n + 1] * y + v[3 * n + 2] * z;
            if (d > best) {
              best = d;
              cur = n;
              moved = true;
              break;
            }
          }
        }
        table[(face * START_CELLS + i) * START_CELLS + j] = cur;
      }
    }
  }
  return table;
}

/**
 * out = the hull's support point along `dir`: the vertex of largest dir·v, the first one in
 * vertex order on a tie — the answer of a scan over every vertex (which small hulls run), found by
 * a hill climb over the vertices' neighbours (the edges of a convex polytope: a vertex that no
 * neighbour beats is the farthest; Cameron 1997, "Enhancing GJK", §3) from the vertex that a
 * cube map of directions, made with the hull, holds for `dir`. It scans instead when a neighbour
 * of the climb's last vertex comes within {@link ConvexPolyhedron.supportClimbSlack} of it (a
 * tie, a face nearly normal to `dir`, or rounding) and when `dir` is zero or not finite, so the
 * answer is the scan's.
 */
export function supportConvexPolyhedron(out: Vec3, c: ConvexPolyhedron, dir: Vec3): Vec3 {
  const starts = c.supportStarts;
  const offsets = c.vertexNeighborOffsets;
  const adj = c.vertexNeighbors;
  if (starts === undefined || offsets === undefined || adj === undefined) {
    return scanSupport(out, c, dir);
  }
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  const cell = startCell(dir);
  if (cell < 0) return scanSupport(out, c, dir);
  const v = c.vertices;
  let cur = starts[cell];
  const settledCell = c.supportSettled;
  if (settledCell !== undefined && settledCell[cell] === 1) {
    // The climb would stop here at once, its stop met (settledCells).
    out.x = v[3 * cur];
    out.y = v[3 * cur + 1];
    out.z = v[3 * cur + 2];
    return out;
  }
  const count = c.vertexCount;
  let best = v[3 * cur] * x + v[3 * cur + 1] * y + v[3 * cur + 2] * z;
  let runnerUp = Number.NEGATIVE_INFINITY;
  let settled = false;
  // Each move raises `best` strictly, so no vertex is left twice: at most `count` moves.
  for (let moves = 0; moves <= count; moves++) {
    runnerUp = Number.NEGATIVE_INFINITY;
    let next = -1;
    const end = offsets[cur + 1];
    for (let k = offsets[cur]; k < end; k++) {
      const n = adj[k];
      const d = v[3 * n] * x + v[3 * n + 1] * y + v[3 * n + 2] * z;
      if (d > best) {
        best = d;
        next = n;
        break;
      }
      if (d > runnerUp) runnerUp = d;
    }
    if (next < 0) {
      settled = true;
      break;
    }
    cur = next;
  }
  const slack = (c.supportClimbSlack as number) * (Math.abs(x) + Math.abs(y) + Math.abs(z));
  if (!settled || !(runnerUp < best - slack)) return scanSupport(out, c, dir);
  out.x = v[3 * cur];
  out.y = v[3 * cur + 1];
  out.z = v[3 * cur + 2];
  return out;
}

/**
 * The index of the vertex the support's climb starts from for `dir` (the cube map's, see
 * {@link supportConvexPolyhedron}): near the farthest along it; 0 on a hull without the table or
 * for a direction it does not bin. For climbs of one's own (src/geometry/hull-point.ts).
 */
export function supportStartVertex(c: ConvexPolyhedron, dir: Vec3): number {
  const starts = c.supportStarts;
  if (starts === undefined) return 0;
  const cell = startCell(dir);
  return cell < 0 ? 0 : starts[cell];
}

/** The index of the vertex farthest along `dir` (the first on a tie), by a linear scan. */
function scanIndex(v: Float64Array, dir: Vec3): number {
  const n = v.length;
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  let best = 0;
  let bestDot = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i += 3) {
    const d = v[i] * x + v[i + 1] * y + v[i + 2] * z;
    if (d > bestDot) {
      bestDot = d;
      best = i;
    }
  }
  return best / 3;
}

/**
 * out = the vertex farthest along `dir` (the first on a tie), by a linear scan over vertex pairs:
 * the even and the odd vertices keep a best each (two independent compare chains, which the CPU
 * overlaps), merged at the end with the lower index on a tie — the answer of a scan one by one.
 */
function scanSupport(out: Vec3, c: ConvexPolyhedron, dir: Vec3): Vec3 {
  const v = c.vertices;
  const n = v.length;
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  let best0 = 0;
  let dot0 = Number.NEGATIVE_INFINITY;
  let best1 = 0;
  let dot1 = Number.NEGATIVE_INFINITY;
  let i = 0;
  for (; i + 3 < n; i += 6) {
    const d0 = v[i] * x + v[i + 1] * y + v[i + 2] * z;
    const d1 = v[i + 3] * x + v[i + 4] * y + v[i + 5] * z;
    if (d0 > dot0) {
      dot0 = d0;
      best0 = i;
    }
    if (d1 > dot1) {
      dot1 = d1;
      best1 = i + 3;
    }
  }
  if (i < n) {
    const d0 = v[i] * x + v[i + 1] * y + v[i + 2] * z;
    if (d0 > dot0) {
      dot0 = d0;
      best0 = i;
    }
  }
  // The odd chain's best wins when strictly greater, or equal at a lower index (a NaN direction
  // leaves both at their start: vertex 0, as the one-by-one scan).
  const best = dot1 > dot0 || (dot1 === dot0 && best1 < best0) ? best1 : best0;
  // Written out, not through vec3.set: no double passed to a call.
  out.x = v[best];
  out.y = v[best + 1];
  out.z = v[best + 2];
  return out;
}

const tmp = vec3.create();

/** out = the exact world AABB of the hull under `pose` (every vertex transformed). */
export function aabbConvexPolyhedron(out: Aabb, c: ConvexPolyhedron, pose: Isometry): Aabb {
  const v = c.vertices;
  vec3.set(out.min, Infinity, Infinity, Infinity);
  vec3.set(out.max, -Infinity, -Infinity, -Infinity);
  for (let i = 0; i < v.length; i += 3) {
    vec3.set(tmp, v[i], v[i + 1], v[i + 2]);
    quat.rotate(tmp, pose.rotation, tmp);
    vec3.min(out.min, out.min, tmp);
    vec3.max(out.max, out.max, tmp);
  }
  const t = pose.translation;
  vec3.add(out.min, out.min, t);
  vec3.add(out.max, out.max, t);
  return out;
}

setHullFrameMaker((points) => makeConvexPolyhedron(points));
