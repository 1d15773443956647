/**
 * 2D GJK: the distance between the convex hulls of two point sets (shape cores, radii ignored)
 * and its closest points (Gilbert, Johnson & Keerthi 1988; van den Bergen 2003, §4.3; the 2D
 * formulation of Box2D's `b2ShapeDistance`).
 *
 * The simplex holds up to 3 points of the Minkowski difference B − A, each remembered by its pair
 * of support indices. Each iteration replaces the simplex by the smallest sub-simplex whose hull
 * contains the point v closest to the origin (Voronoi regions of a segment or a triangle,
 * Ericson 2005, §5.1.2 and §5.1.5), then adds the support point of B − A along −v. It stops when
 * the simplex is a triangle containing the origin (overlap), when v is at rounding level of the
 * simplex size (touching: `GJK_ROUNDING_TOLERANCE`), when a support pair repeats, when the support
 * point improves the bound by less than `GJK_TOLERANCE` relative (or than the rounding error of
 * that bound), when the distance stops decreasing, or at `GJK_MAX_ITERATIONS`
 * (polygons converge in a few iterations; the cap keeps the loop finite). At every stop the
 * result is the current simplex's closest points, so it is always defined and finite.
 */

import { GJK_MAX_ITERATIONS, GJK_ROUNDING_TOLERANCE, GJK_TOLERANCE } from "../constants.js";
import { hypot2 } from "../math/scalar.js";
import { closestOnSegment, type SegmentClosest, type WorkCore2 } from "./core2.js";

/** Output of {@link gjkDistance2}, in the frame of the two cores. */
export interface GjkOutput2 {
  /** Distance between the two core hulls (0 when they touch or overlap). */
  distance: number;
  /** Closest point on A's core. */
  ax: number;
  ay: number;
  /** Closest point on B's core. */
  bx: number;
  by: number;
  /** True when the hulls touch or overlap (distance 0). */
  overlap: boolean;
  /** Iterations used. */
  iterations: number;
}

/** A new GJK output record (allocates). */
export function makeGjkOutput2(): GjkOutput2 {
  return { distance: 0, ax: 0, ay: 0, bx: 0, by: 0, overlap: false, iterations: 0 };
}

const idxA = new Int32Array(3);
const idxB = new Int32Array(3);
const wx = new Float64Array(3);
const wy = new Float64Array(3);
const lam = new Float64Array(3);
let count = 0;
const seg: SegmentClosest = { x: 0, y: 0, t: 0 };

function keep(i: number, to: number): void {
  idxA[to] = idxA[i];
  idxB[to] = idxB[i];
  wx[to] = wx[i];
  wy[to] = wy[i];
}

/** Reduces a 2-simplex to the feature closest to the origin. */
function solve2(): void {
  closestOnSegment(seg, wx[0], wy[0], wx[1], wy[1], 0, 0);
  if (seg.t === 0) {
    count = 1;
    lam[0] = 1;
  } else if (seg.t === 1) {
    keep(1, 0);
    count = 1;
    lam[0] = 1;
  } else {
    lam[0] = 1 - seg.t;
    lam[1] = seg.t;
  }
}

/** Squared distances of the origin to simplex edges, written by {@link segmentDistSq}. */
const dist2 = new Float64Array(3);

/**
 * Writes the squared distance of the origin to the simplex edge i–j into `dist2[k]`: through a
 * typed array rather than a returned double, which V8 boxes (allocates) when it does not inline
 * the call.
 */
function segmentDistSq(k: number, i: number, j: number): void {
  closestOnSegment(seg, wx[i], wy[i], wx[j], wy[j], 0, 0);
  dist2[k] = seg.x * seg.x + seg.y * seg.y;
}

/** Reduces to the sub-simplex {i, j} (as positions 0 and 1) and solves it. */
function reduceTo2(i: number, j: number): void {
  const ai = idxA[i];
  const bi = idxB[i];
  const xi = wx[i];
  const yi = wy[i];
  const aj = idxA[j];
  const bj = idxB[j];
  const xj = wx[j];
  const yj = wy[j];
  idxA[0] = ai;
  idxB[0] = bi;
  wx[0] = xi;
  wy[0] = yi;
  idxA[1] = aj;
  idxB[1] = bj;
  wx[1] = xj;
  wy[1] = yj;
  count = 2;
  solve2();
}

/** Reduces a 3-simplex (Ericson 2005, §5.1.5, with the origin as the query point). */
function solve3(): void {
  const ax = wx[0];
  const ay = wy[0];
  const abx = wx[1] - ax;
  const aby = wy[1] - ay;
  const acx = wx[2] - ax;
  const acy = wy[2] - ay;
  const area = abx * acy - aby * acx;
  const size = Math.max(abx * abx + aby * aby, acx * acx + acy * acy);
  if (Math.abs(area) <= GJK_ROUNDING_TOLERANCE * size) {
    // Collinear: the closest point lies on the best of the three edges.
    segmentDistSq(0, 0, 1);
    segmentDistSq(1, 0, 2);
    segmentDistSq(2, 1, 2);
    const d01 = dist2[0];
    const d02 = dist2[1];
    const d12 = dist2[2];
    if (d01 <= d02 && d01 <= d12) reduceTo2(0, 1);
    else if (d02 <= d12) reduceTo2(0, 2);
    else reduceTo2(1, 2);
    return;
  }
  // Signed areas of the sub-triangles formed with the origin; the origin is inside when all
  // three have the sign of the triangle.
  const s = area > 0 ? 1 : -1;
  const u = s * (wx[1] * wy[2] - wy[1] * wx[2]); // opposite vertex 0
  const v = s * (wx[2] * wy[0] - wy[2] * wx[0]); // opposite vertex 1
  const w = s * (wx[0] * wy[1] - wy[0] * wx[1]); // opposite vertex 2
  if (u >= 0 && v >= 0 && w >= 0) {
    const inv = 1 / (u + v + w);
    lam[0] = u * inv;
    lam[1] = v * inv;
    lam[2] = w * inv;
    count = 3;
    return;
  }
  // Outside: the closest point is on an edge whose opposite sub-area is negative; try each
  // such edge and keep the nearest.
  let best = Infinity;
  let bi = 0;
  let bj = 1;
  if (w < 0) {
    segmentDistSq(0, 0, 1);
    const d = dist2[0];
    if (d < best) {
      best = d;
      bi = 0;
      bj = 1;
    }
  }
  if (v < 0) {
    segmentDistSq(1, 0, 2);
    const d = dist2[1];
    if (d < best) {
      best = d;
      bi = 0;
      bj = 2;
    }
  }
  if (u < 0) {
    segmentDistSq(2, 1, 2);
    const d = dist2[2];
    if (d < best) {
      bi = 1;
      bj = 2;
    }
  }
  reduceTo2(bi, bj);
}

/**
 * Distance between the convex hulls of cores `a` and `b` (same frame; radii ignored), with the
 * closest points, written to `out`. Allocates nothing. Degenerate cores (one point, two points,
 * collinear vertices) are valid.
 */
export function gjkDistance2(out: GjkOutput2, a: WorkCore2, b: WorkCore2): GjkOutput2 {
  const av = a.verts;
  const bv = b.verts;
  idxA[0] = 0;
  idxB[0] = 0;
  wx[0] = bv[0] - av[0];
  wy[0] = bv[1] - av[1];
  lam[0] = 1;
  count = 1;
  let overlap = false;
  let it = 0;
  let vvPrev = Infinity;
  for (; it < GJK_MAX_ITERATIONS; it++) {
    if (count === 2) solve2();
    else if (count === 3) solve3();
    if (count === 3) {
      overlap = true;
      break;
    }
    let vx = 0;
    let vy = 0;
    let size = 0;
    for (let i = 0; i < count; i++) {
      vx += lam[i] * wx[i];
      vy += lam[i] * wy[i];
      size = Math.max(size, Math.abs(wx[i]), Math.abs(wy[i]));
    }
    const vv = vx * vx + vy * vy;
    const zero = GJK_ROUNDING_TOLERANCE * size;
    // Compare components, not vv, which underflows for subnormal distances.
    if (Math.max(Math.abs(vx), Math.abs(vy)) <= zero) {
      overlap = true;
      break;
    }
    const ia = supportPoint(a, vx, vy);
    const ib = supportPoint(b, -vx, -vy);
    let repeated = false;
    for (let i = 0; i < count; i++) {
      if (idxA[i] === ia && idxB[i] === ib) repeated = true;
    }
    if (repeated) break;
    const nx = bv[2 * ib] - av[2 * ia];
    const ny = bv[2 * ib + 1] - av[2 * ia + 1];
    // Converged when the new support point improves the lower bound v·w on the distance by less
    // than the relative tolerance, or by less than the rounding of v·w itself (|v| · |w| ulps):
    // at tiny distances between large shapes the second term is what stops parallel-edge cycling.
    const wSize = Math.max(size, Math.abs(nx), Math.abs(ny));
    const roundoff = GJK_ROUNDING_TOLERANCE * wSize * Math.sqrt(vv);
    if (vv - (vx * nx + vy * ny) <= GJK_TOLERANCE * vv + roundoff) break;
    // No progress since the previous iteration (rounding): the current simplex is final.
    if (vv >= vvPrev) break;
    vvPrev = vv;
    idxA[count] = ia;
    idxB[count] = ib;
    wx[count] = nx;
    wy[count] = ny;
    count++;
  }
  let pax = 0;
  let pay = 0;
  let pbx = 0;
  let pby = 0;
  for (let i = 0; i < count; i++) {
    pax += lam[i] * av[2 * idxA[i]];
    pay += lam[i] * av[2 * idxA[i] + 1];
    pbx += lam[i] * bv[2 * idxB[i]];
    pby += lam[i] * bv[2 * idxB[i] + 1];
  }
  if (count === 1) {
    pax = av[2 * idxA[0]];
    pay = av[2 * idxA[0] + 1];
    pbx = bv[2 * idxB[0]];
    pby = bv[2 * idxB[0] + 1];
  }
  out.ax = pax;
  out.ay = pay;
  out.bx = pbx;
  out.by = pby;
  out.overlap = overlap;
  out.distance = overlap ? 0 : hypot2(pbx - pax, pby - pay);
  out.iterations = it;
  return out;
}

function supportPoint(core: WorkCore2, dx: number, dy: number): number {
  const v = core.verts;
  let best = 0;
  let bestD = v[0] * dx + v[1] * dy;
  for (let i = 1; i < core.count; i++) {
    const d = v[2 * i] * dx + v[2 * i + 1] * dy;
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
