/**
 * The closest point of a convex hull's vertex set to a point, exact to the rounding of the
 * vertices' differences from it (issue 16: a sphere against ribbon and sliver hulls).
 *
 * GJK on the point against the hull's vertices (Gilbert, Johnson and Keerthi 1988; van den Bergen
 * 2003, §4.3): a simplex of at most four vertices, each written relative to the point (y = v − p,
 * one rounding of an exact difference for a vertex near it), whose closest point to the origin is
 * found by its own features and whose vertices not on that feature are dropped; the support of
 * the hull along the direction toward the point adds the next vertex, until no vertex lies
 * beyond the plane through the closest point by more than rounding. That plane certifies the
 * answer (every vertex on its far side), so its error is the rounding of the last feature's
 * projection, a few ε of the feature's size, however thin the hull.
 *
 * The feature projections stay right on slivers (triangles of 1e-12 of their length): a
 * triangle's plane is spanned by its longest edge u and the part v of the third corner across it
 * (Gram–Schmidt, twice), so the computed plane holds that edge and passes within rounding of the
 * third corner, and the foot of the point is tested against the triangle in that plane's own
 * coordinates: the answer is the exact one of a triangle within rounding of the given one, where
 * the cross product of two edges tilts a sliver's plane by ε·|edge|/width and Ericson's
 * barycentric coordinates lose the foot altogether. Whether the point lies inside a tetrahedron
 * of four vertices is decided by exact orientation signs (src/geometry/exact-predicates.ts).
 *
 * The stored face planes of a hull are not used: they fit merged faces and a flat hull's corners
 * only to the hull's tolerance (1e-10 of its extent; src/geometry/hull.ts), far above the rounding
 * a small sphere beside a large hull needs. No allocation per call.
 */

import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "../shapes/convex-polyhedron.js";
import { supportStartVertex } from "../shapes/convex-polyhedron.js";
import { exactRange, orient3dSign } from "./exact-predicates.js";

/** {@link closestHullPoint}'s answer: the point lies outside the hull (the answer is written). */
export const HULL_POINT_OUTSIDE = 0;
/**
 * {@link closestHullPoint}'s answer: the point lies inside the hull (in a tetrahedron of its
 * vertices, by exact signs) or on its boundary (distance 0): nothing written.
 */
export const HULL_POINT_INSIDE = 1;
/**
 * {@link closestHullPoint}'s answer: undecided — coordinates out of the range where squared
 * lengths are exact enough, or no convergence: nothing written.
 */
export const HULL_POINT_UNDECIDED = 2;

/**
 * {@link closestHullPoint}'s early answer (with a limit): the point is farther from the hull
 * than the limit, by more than rounding; nothing written.
 */
export const HULL_POINT_BEYOND = 3;
/**
 * {@link closestHullPoint}'s early answer (with a limit): the point is nearer to the hull than
 * the limit, by more than rounding (or inside it); nothing written.
 */
export const HULL_POINT_WITHIN = 4;

/**
 * {@link closestHullPoint}'s doubles (typed, not returned: V8 boxes a double a call returns):
 * [0] the distance from the point to the hull (out); [1] the limit (in): when not NaN the
 * routine may stop as soon as GJK's bounds put the distance beyond it or within it by more than
 * rounding (HULL_POINT_BEYOND, HULL_POINT_WITHIN), for a yes/no test. The caller sets [1].
 */
export const hullPointIo = new Float64Array([0, Number.NaN]);

/** Most GJK iterations before the answer is given up (UNDECIDED); each strictly nearer. */
const MAX_ITERATIONS = 64;
/**
 * The stop: the support y_w beyond the plane through the closest point x (normal to the
 * feature's direction toward the point) by at most this times |y_w| + |x|, which bounds the
 * distance's error (a few ε: the rounding of the support points' differences).
 */
const STOP_SLACK = 2 ** -50;
/**
 * A distance tie between two answers, relative to d·|y| + d² (y the simplex's vertices relative
 * to the point): many times the rounding of a squared distance projected onto a feature.
 */
const TIE_SLACK = 2 ** -44;
/** The early answers' margin, times |y_w| + d: many times the rounding of the bounds. */
const EARLY_MARGIN = 2 ** -40;
/** A triangle whose third corner lies within this times its longest edge of that edge's line is a segment. */
const FLAT_TRIANGLE = 2 ** -48;
/**
 * Coordinates beyond this magnitude (or a hull smaller than its inverse) leave the answer to the
 * caller: squared lengths and orientation products of up to three coordinates then stay normal.
 */
const RANGE = 2 ** 120;

/**
 * Hulls of at most this many vertices (or without neighbour lists) take the support by a scan;
 * larger ones by a hill climb over the vertices' neighbours.
 */
const SCAN_MAX = 48;

/**
 * The support's vertex index (the climb's start: the last support, GJK's coherence; first the
 * hull's cube-map start).
 */
let supportIndex = 0;

/**
 * supportIndex = the vertex of `c` farthest along `dir` from `p`, measured as (v − p)·dir: the
 * differences from the point, not the vertices' own coordinates, whose rounding (ε·|v|) would
 * hide a feature a small sphere's gap depends on. A scan for small hulls; a climb over the
 * neighbours otherwise (a vertex that no neighbour beats is the farthest of a convex polytope,
 * Cameron 1997, §3).
 */
function support(c: ConvexPolyhedron, p: Vec3, dir: Vec3): void {
  const v = c.vertices;
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  const x = dir.x;
  const y = dir.y;
  const z = dir.z;
  const offsets = c.vertexNeighborOffsets;
  const adj = c.vertexNeighbors;
  const n = c.vertexCount;
  if (n <= SCAN_MAX || offsets === undefined || adj === undefined) {
    let best = 0;
    let bestDot = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const d = (v[3 * i] - px) * x + (v[3 * i + 1] - py) * y + (v[3 * i + 2] - pz) * z;
      if (d > bestDot) {
        bestDot = d;
        best = i;
      }
    }
    supportIndex = best;
    return;
  }
  let cur = supportIndex < n ? supportIndex : 0;
  let best = (v[3 * cur] - px) * x + (v[3 * cur + 1] - py) * y + (v[3 * cur + 2] - pz) * z;
  // Each move raises `best` strictly: at most n moves.
  for (let moves = 0; moves < n; moves++) {
    let next = -1;
    const end = offsets[cur + 1];
    for (let k = offsets[cur]; k < end; k++) {
      const m = adj[k];
      const d = (v[3 * m] - px) * x + (v[3 * m + 1] - py) * y + (v[3 * m + 2] - pz) * z;
      if (d > best) {
        best = d;
        next = m;
      }
    }
    if (next < 0) break;
    cur = next;
  }
  supportIndex = cur;
}

/** Squared distances below this (subnormal range near) leave the answer to the caller. */
const MIN_SQUARED = 2 ** -900;

// The simplex: up to four vertices relative to the point, and a spare for the support.
const simplex: Vec3[] = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const origin = vec3.create();
let count = 0;
/**
 * Most vertices of the final check's brute force (every triangle of them): a hull's all when it
 * has no more, else the farthest along the answer's normal.
 */
const BRUTE_MAX = 16;
const candidates: Vec3[] = Array.from({ length: BRUTE_MAX }, () => vec3.create());
const candidateScore = new Float64Array(BRUTE_MAX);
/** The points the feature solvers read: the simplex, or the brute force's candidates. */
let pts: Vec3[] = simplex;

// The best feature of the current solve: its squared distance, closest point (relative to the
// point), the unit direction from it toward the point and which simplex vertices span it.
const bestIo = new Float64Array(1);
const bestX = vec3.create();
const bestN = vec3.create();
let bestMask = 0;
// Per-triangle plane frame and heights (the triangle routine's scratch).
const frameU = vec3.create();
const frameV = vec3.create();
const frameN = vec3.create();
const dirW = vec3.create();

/** bestIo/bestX/bestMask = the candidate when nearer than the best so far; true when taken. */
function offer(d2: number, x: number, y: number, z: number, mask: number): boolean {
  if (!(d2 < bestIo[0])) return false;
  bestIo[0] = d2;
  bestX.x = x;
  bestX.y = y;
  bestX.z = z;
  bestMask = mask;
  return true;
}

/** Offers simplex vertex i. */
function solveVertex(i: number): void {
  const a = pts[i];
  if (offer(a.x * a.x + a.y * a.y + a.z * a.z, a.x, a.y, a.z, 1 << i)) {
    bestN.x = -a.x;
    bestN.y = -a.y;
    bestN.z = -a.z;
  }
}

/** Offers the closest point of the segment of simplex vertices i and j (its ends included). */
function solveSegment(i: number, j: number): void {
  const a = pts[i];
  const b = pts[j];
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  const ee = ex * ex + ey * ey + ez * ez;
  const t = ee > 0 ? -(a.x * ex + a.y * ey + a.z * ez) / ee : 0;
  if (!(t > 0)) {
    solveVertex(i);
    return;
  }
  if (!(t < 1)) {
    solveVertex(j);
    return;
  }
  const x = a.x + t * ex;
  const y = a.y + t * ey;
  const z = a.z + t * ez;
  if (!offer(x * x + y * y + z * z, x, y, z, (1 << i) | (1 << j))) return;
  // Toward the point, perpendicular to the edge: x less its part along the edge (rounding of
  // the point's coordinates tilts x along a long edge by ε·|a|/|x|).
  const s = (x * ex + y * ey + z * ez) / ee;
  bestN.x = -(x - s * ex);
  bestN.y = -(y - s * ey);
  bestN.z = -(z - s * ez);
}

/**
 * Offers the closest point of the triangle of simplex vertices i, j, k: the foot of the origin
 * on its plane when inside it (tested in the plane's own coordinates), else the nearest of its
 * edges.
 */
function solveTriangle(i: number, j: number, k: number): void {
  // The longest edge (a, b), c the third corner.
  const p0 = pts[i];
  const p1 = pts[j];
  const p2 = pts[k];
  const l01 = sq(p1.x - p0.x, p1.y - p0.y, p1.z - p0.z);
  const l12 = sq(p2.x - p1.x, p2.y - p1.y, p2.z - p1.z);
  const l20 = sq(p0.x - p2.x, p0.y - p2.y, p0.z - p2.z);
  let ia = i;
  let ib = j;
  let ic = k;
  if (l12 >= l01 && l12 >= l20) {
    ia = j;
    ib = k;
    ic = i;
  } else if (l20 >= l01 && l20 >= l12) {
    ia = k;
    ib = i;
    ic = j;
  }
  const a = pts[ia];
  const b = pts[ib];
  const c = pts[ic];
  const ux = b.x - a.x;
  const uy = b.y - a.y;
  const uz = b.z - a.z;
  const uu = ux * ux + uy * uy + uz * uz;
  const wx = c.x - a.x;
  const wy = c.y - a.y;
  const wz = c.z - a.z;
  let vx = 0;
  let vy = 0;
  let vz = 0;
  let vv = 0;
  if (uu > 0) {
    // Gram–Schmidt twice: v ⟂ u to rounding of |v|, not of |w|.
    let s = (wx * ux + wy * uy + wz * uz) / uu;
    vx = wx - s * ux;
    vy = wy - s * uy;
    vz = wz - s * uz;
    s = (vx * ux + vy * uy + vz * uz) / uu;
    vx -= s * ux;
    vy -= s * uy;
    vz -= s * uz;
    vv = vx * vx + vy * vy + vz * vz;
  }
  if (!(vv > FLAT_TRIANGLE * FLAT_TRIANGLE * uu)) {
    solveSegment(i, j);
    solveSegment(j, k);
    solveSegment(k, i);
    return;
  }
  const lu = Math.sqrt(uu);
  const lv = Math.sqrt(vv);
  frameU.x = ux / lu;
  frameU.y = uy / lu;
  frameU.z = uz / lu;
  frameV.x = vx / lv;
  frameV.y = vy / lv;
  frameV.z = vz / lv;
  vec3.cross(frameN, frameU, frameV);
  // The corners and the origin in the plane's coordinates, a at (0, 0), b at (lu, 0).
  const cu = wx * frameU.x + wy * frameU.y + wz * frameU.z;
  const cv = wx * frameV.x + wy * frameV.y + wz * frameV.z;
  const qu = -(a.x * frameU.x + a.y * frameU.y + a.z * frameU.z);
  const qv = -(a.x * frameV.x + a.y * frameV.y + a.z * frameV.z);
  const h = -(a.x * frameN.x + a.y * frameN.y + a.z * frameN.z);
  const inside =
    qv >= 0 && (cu - lu) * qv - cv * (qu - lu) >= 0 && cv * (qu - cu) - cu * (qv - cv) >= 0;
  if (inside) {
    const x = -h * frameN.x;
    const y = -h * frameN.y;
    const z = -h * frameN.z;
    if (offer(h * h, x, y, z, (1 << i) | (1 << j) | (1 << k))) {
      const s = h >= 0 ? 1 : -1;
      bestN.x = s * frameN.x;
      bestN.y = s * frameN.y;
      bestN.z = s * frameN.z;
    }
    return;
  }
  solveSegment(i, j);
  solveSegment(j, k);
  solveSegment(k, i);
}

/** True when `a`'s coordinates are exact-predicate inputs (exactRange) below {@link RANGE}. */
function inRange(a: Vec3): boolean {
  return exactRange(a) && Math.abs(a.x) < RANGE && Math.abs(a.y) < RANGE && Math.abs(a.z) < RANGE;
}

function sq(x: number, y: number, z: number): number {
  return x * x + y * y + z * z;
}

/**
 * Solves the simplex: the closest point of its hull to the origin into best*, the simplex
 * reduced to that feature's vertices. False when the origin lies inside the tetrahedron or on
 * the simplex (distance 0).
 */
function solveSimplex(): boolean {
  bestIo[0] = Number.POSITIVE_INFINITY;
  bestMask = 0;
  if (count === 1) solveVertex(0);
  else if (count === 2) solveSegment(0, 1);
  else if (count === 3) solveTriangle(0, 1, 2);
  else {
    // The newest vertex (3) is on the nearer feature: the faces through it. The origin inside
    // the tetrahedron when it is on each face's inner side, by exact signs.
    const s = orient3dSign(simplex[0], simplex[1], simplex[2], simplex[3]);
    if (
      s !== 0 &&
      orient3dSign(origin, simplex[1], simplex[2], simplex[3]) === s &&
      orient3dSign(simplex[0], origin, simplex[2], simplex[3]) === s &&
      orient3dSign(simplex[0], simplex[1], origin, simplex[3]) === s &&
      orient3dSign(simplex[0], simplex[1], simplex[2], origin) === s
    )
      return false;
    solveTriangle(0, 1, 3);
    solveTriangle(1, 2, 3);
    solveTriangle(2, 0, 3);
  }
  if (!(bestIo[0] > 0)) return false;
  // Keep the feature's vertices, in order.
  let n = 0;
  for (let q = 0; q < count; q++) {
    if ((bestMask & (1 << q)) === 0) continue;
    if (n !== q) vec3.copy(simplex[n], simplex[q]);
    n++;
  }
  count = n;
  return true;
}

/**
 * The closest point of hull `c`'s vertices' convex hull to point `p`, by GJK on the point against
 * the vertices with exact feature projections (Gilbert, Johnson and Keerthi 1988; van den Bergen
 * 2003, §4.3; see the module docs).
 *
 * - `out` (written): the closest point, in the hull's frame, scene units.
 * - `normal` (written): the unit direction from `out` toward `p` (a face's own normal on a face,
 *   perpendicular to an edge on an edge), the hull's frame.
 * - `c`: the hull, its vertices (`c.vertices`, x, y, z per vertex) and the support's start and
 *   neighbour lists; its stored face planes are not read.
 * - `p`: the point, in the hull's frame, scene units.
 * - {@link hullPointIo}: [1] (in) the limit in scene units, NaN for none; [0] (out) the distance
 *   from `p` to the hull in scene units, written only with {@link HULL_POINT_OUTSIDE}.
 *
 * Returns {@link HULL_POINT_OUTSIDE} with `out`, `normal` and the distance written (exact to a
 * few ε of the last feature's size, certified by the plane through `out`); else, with nothing
 * written: {@link HULL_POINT_INSIDE} (p inside a tetrahedron of the vertices by exact signs, or
 * on the boundary: distance 0); with a limit, {@link HULL_POINT_BEYOND} or
 * {@link HULL_POINT_WITHIN} (the distance farther or nearer than it by more than rounding); and
 * {@link HULL_POINT_UNDECIDED} when degenerate or out of range — a coordinate of `p` or of a
 * simplex vertex's difference from `p` non-finite, of magnitude 2^120 or more, or non-zero below
 * 2^-300 (of the hull's first vertex: non-finite or 2^120 or more); a squared distance at or
 * below 2^-900; a first step without progress or a direction that does not normalise; an
 * uncertified answer (GJK stalled or out of iterations) that the brute force over the vertices'
 * triangles cannot certify. The caller then takes the general narrow phase (GJK/EPA on the
 * shapes). Never throws; allocates nothing.
 */
export function closestHullPoint(out: Vec3, normal: Vec3, c: ConvexPolyhedron, p: Vec3): number {
  const v = c.vertices;
  if (!exactRange(p)) return HULL_POINT_UNDECIDED;
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  if (
    !(Math.abs(px) < RANGE && Math.abs(py) < RANGE && Math.abs(pz) < RANGE) ||
    !(Math.abs(v[0]) < RANGE && Math.abs(v[1]) < RANGE && Math.abs(v[2]) < RANGE)
  )
    return HULL_POINT_UNDECIDED;
  // First vertex: the support toward p from vertex 0.
  dirW.x = px - v[0];
  dirW.y = py - v[1];
  dirW.z = pz - v[2];
  supportIndex = supportStartVertex(c, dirW);
  support(c, p, dirW);
  count = 1;
  let w = 3 * supportIndex;
  vec3.set(simplex[0], v[w] - px, v[w + 1] - py, v[w + 2] - pz);
  let d2 = Number.POSITIVE_INFINITY;
  let certified = false;
  // The last answer's feature: how many vertices span it.
  let featureCount = 0;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    for (let q = 0; q < count; q++) if (!inRange(simplex[q])) return HULL_POINT_UNDECIDED;
    if (!solveSimplex()) return HULL_POINT_INSIDE;
    if (!(bestIo[0] < d2)) {
      if (d2 === Number.POSITIVE_INFINITY) return HULL_POINT_UNDECIDED;
      // No progress (rounding): the last answer stands — unless the new feature has more
      // vertices at a distance tied to rounding. Its foot then lies inside it, beside the last
      // feature (a face's interior beside its diagonal), where the distance is flat to second
      // order but the normal is not: the point 1e-9 beside a face's diagonal, 0.14 from it,
      // kept the diagonal's foot and a normal 1.1e-8 rad off the face's (issue 16).
      let m2 = 0;
      for (let q = 0; q < count; q++) {
        const s = simplex[q];
        m2 = Math.max(m2, s.x * s.x + s.y * s.y + s.z * s.z);
      }
      if (!(count > featureCount && bestIo[0] - d2 <= TIE_SLACK * (Math.sqrt(d2 * m2) + d2))) {
        break;
      }
    }
    featureCount = count;
    d2 = bestIo[0];
    if (!vec3.tryNormalize(bestN, bestN)) return HULL_POINT_UNDECIDED;
    vec3.copy(out, bestX);
    vec3.copy(normal, bestN);
    // The support toward p, along the feature's own normal (x's rounding along an edge would
    // tilt −x; over a needle that hid its third corner).
    support(c, p, bestN);
    w = 3 * supportIndex;
    const wx = v[w] - px;
    const wy = v[w + 1] - py;
    const wz = v[w + 2] - pz;
    // How far the support lies beyond the plane through x normal to n: the answer's error.
    const ex = wx - bestX.x;
    const ey = wy - bestX.y;
    const ez = wz - bestX.z;
    const excess = ex * bestN.x + ey * bestN.y + ez * bestN.z;
    const limit = hullPointIo[1];
    if (!Number.isNaN(limit)) {
      // GJK's bounds: d above, d − excess below (every vertex behind the plane through x moved
      // out by the excess); a margin of rounding either side.
      const d = Math.sqrt(d2);
      const margin = EARLY_MARGIN * (Math.sqrt(wx * wx + wy * wy + wz * wz) + d);
      if (d - excess > limit + margin) return HULL_POINT_BEYOND;
      if (d < limit - margin) return HULL_POINT_WITHIN;
    }
    if (excess <= STOP_SLACK * (Math.sqrt(wx * wx + wy * wy + wz * wz) + Math.sqrt(d2))) {
      certified = true;
      break;
    }
    let known = false;
    for (let q = 0; q < count; q++) {
      const s = simplex[q];
      if (s.x === wx && s.y === wy && s.z === wz) known = true;
    }
    if (known) break;
    if (it === MAX_ITERATIONS - 1) break;
    vec3.set(simplex[count], wx, wy, wz);
    count++;
  }
  if (!(d2 < Number.POSITIVE_INFINITY && d2 > MIN_SQUARED)) return HULL_POINT_UNDECIDED;
  hullPointIo[0] = d2;
  if (!certified && !bruteForce(out, normal, c, p)) return HULL_POINT_UNDECIDED;
  hullPointIo[0] = Math.sqrt(hullPointIo[0]);
  out.x += px;
  out.y += py;
  out.z += pz;
  return HULL_POINT_OUTSIDE;
}

/**
 * GJK stalled short of its stop (rounding hid the progress of a step: a point 1e-18 from a
 * needle of 1e-6 whose faces meet at its corner near the point): every triangle of the hull's
 * vertices, or of the BRUTE_MAX farthest along `normal`, projected onto; the nearer answer
 * replaces `out`, `normal`, hullPointIo[0] (squared). True when the answer then holds every
 * vertex of the hull behind the plane through it (to the stop's slack), certified.
 */
function bruteForce(out: Vec3, normal: Vec3, c: ConvexPolyhedron, p: Vec3): boolean {
  const v = c.vertices;
  const n = c.vertexCount;
  const px = p.x;
  const py = p.y;
  const pz = p.z;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = v[3 * i] - px;
    const y = v[3 * i + 1] - py;
    const z = v[3 * i + 2] - pz;
    const score = x * normal.x + y * normal.y + z * normal.z;
    // Kept sorted by score, farthest along −normal (toward the hull) first: the lowest scores.
    let k = m < BRUTE_MAX ? m++ : BRUTE_MAX;
    if (k === BRUTE_MAX && !(score < candidateScore[BRUTE_MAX - 1])) continue;
    if (k === BRUTE_MAX) k = BRUTE_MAX - 1;
    while (k > 0 && candidateScore[k - 1] > score) {
      candidateScore[k] = candidateScore[k - 1];
      vec3.copy(candidates[k], candidates[k - 1]);
      k--;
    }
    candidateScore[k] = score;
    vec3.set(candidates[k], x, y, z);
  }
  for (let i = 0; i < m; i++) if (!inRange(candidates[i])) return false;
  pts = candidates;
  bestIo[0] = Number.POSITIVE_INFINITY;
  bestMask = 0;
  if (m === 1) solveVertex(0);
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      if (m === 2) solveSegment(i, j);
      for (let k = j + 1; k < m; k++) solveTriangle(i, j, k);
    }
  }
  pts = simplex;
  if (bestIo[0] < hullPointIo[0]) {
    if (!(bestIo[0] > MIN_SQUARED) || !vec3.tryNormalize(bestN, bestN)) return false;
    hullPointIo[0] = bestIo[0];
    vec3.copy(out, bestX);
    vec3.copy(normal, bestN);
  }
  // The certificate. Over every vertex the answer is the boundary's nearest point (every
  // triangle of them taken), outside the hull when no vertex lies beyond the plane through it
  // by half the distance (a sliver face's normal, tilted by ε·|edge|/width, leaves the
  // vertices along it that far within rounding of the plane, not within the stop's slack).
  // Over the farthest few only, no vertex beyond that plane by more than the stop's slack.
  const d = Math.sqrt(hullPointIo[0]);
  const all = m === n;
  for (let i = 0; i < n; i++) {
    const x = v[3 * i] - px;
    const y = v[3 * i + 1] - py;
    const z = v[3 * i + 2] - pz;
    const excess = (x - out.x) * normal.x + (y - out.y) * normal.y + (z - out.z) * normal.z;
    const slack = all ? d / 2 : STOP_SLACK * (Math.sqrt(x * x + y * y + z * z) + d);
    if (!(excess <= slack)) return false;
  }
  return true;
}
