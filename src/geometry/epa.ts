/**
 * EPA, the expanding polytope algorithm: penetration depth, normal and witness points of two
 * intersecting convex sets given by their support functions (van den Bergen 2001, "Proximity
 * queries and penetration depth computation on 3D game objects"; Jolt's
 * `EPAPenetrationDepth`).
 *
 * The penetration depth is the distance from the origin to the boundary of the Minkowski
 * difference A − B, which contains the origin when A and B intersect. EPA starts from GJK's
 * final simplex, grows it into a tetrahedron when GJK stopped on a point, a segment or a
 * triangle (touching shapes, a zero-length capsule core) by adding support points along
 * directions orthogonal to the simplex, then repeatedly takes the polytope face closest to the
 * origin, asks for the support point w along its outward normal n, and stops when n·w exceeds
 * the face distance by at most `tolerance` (relative) — otherwise it replaces the faces that w
 * sees with a fan from w to their horizon. Moving B by depth·n separates the shapes, so n is the
 * contact normal from A toward B. The witnesses blend the closest face's support points; when
 * the origin's projection falls outside every face near it (sliver faces of a flat or thin
 * shape), GJK between A and B moved just past touching along n finds them instead.
 *
 * Memory: fixed-capacity typed-array arenas (EPA_MAX_ITERATIONS + 4 vertices), no allocation.
 * Every loop is capped; the result is always defined: `Converged`, `MaxIterations` or
 * `Degenerate` (the best face so far — the caller may fall back to SAT or sampling), or `Flat`
 * (A − B is flat, a segment or a point: depth 0).
 */
import {
  EPA_MAX_ITERATIONS,
  EPA_TOLERANCE,
  EPA_WITNESS_GAP,
  GJK_DEGENERATE_SIMPLEX_TOLERANCE,
  GJK_ROUNDING_TOLERANCE,
} from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { closestPointOnTriangle } from "./closest-point.js";
import {
  type GjkSimplex,
  GjkStatus,
  gjkLimit,
  gjkToLimit,
  makeGjkResult,
  normalizeScaled,
  simplexWitnesses,
  tryNormalizeScaled,
} from "./gjk.js";
import { type SupportMap, TransformedSupport } from "./support.js";

/** How an EPA run ended. */
export const EpaStatus = {
  /** The closest face was confirmed within the tolerance: depth and normal are the answer. */
  Converged: 0,
  /** The iteration cap or the arena capacity stopped the run; the best face so far is reported. */
  MaxIterations: 1,
  /** The polytope degenerated numerically; the best face so far is reported. */
  Degenerate: 2,
  /** A − B is flat (a polygon, a segment or a point) through the origin: depth 0. */
  Flat: 3,
} as const;

/** One of the {@link EpaStatus} values. */
export type EpaStatus = (typeof EpaStatus)[keyof typeof EpaStatus];

/** The result of {@link epa}; vectors in the support maps' frame (A's frame). */
export interface EpaResult {
  /** How the run ended. */
  status: EpaStatus;
  /** Core penetration depth ≥ 0, scene units. */
  depth: number;
  /** Unit contact normal from A toward B (move B by depth·normal to separate). */
  readonly normal: Vec3;
  /** Deepest point of A's core (into B). */
  readonly pointA: Vec3;
  /**
   * Deepest point of B's core (into A); pointA − pointB = depth·normal (when no face of the
   * polytope holds the contact point, up to the normal's error times a gap of EPA_WITNESS_GAP of
   * the polytope's size: both witnesses are then GJK's, on their cores).
   */
  readonly pointB: Vec3;
  /** Iterations used. */
  iterations: number;
}

/** A new zeroed EPA result (allocates). */
export function makeEpaResult(): EpaResult {
  return {
    status: EpaStatus.Converged,
    depth: 0,
    normal: vec3.create(1, 0, 0),
    pointA: vec3.create(),
    pointB: vec3.create(),
    iterations: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Arenas.
//
// The polytope is a closed triangle mesh with face adjacency: edge e of face f runs from corner e
// to corner e + 1 (mod 3), and fAdj[3f + e] is the twin half-edge 4g + e' of the neighbour g
// across it (4g, not 3g: the flood takes g and e' apart by a shift and a mask, not a division). The faces that see a new support point are found by a flood from the closest face
// over this adjacency (not by testing every face), and the flood walks the horizon in loop order,
// so the new fan is linked to its neighbours as it is made. Removed faces go to a free list and
// their slots are reused: a polytope of V vertices has 2V − 4 faces, so MAX_FACES bounds the live
// ones. A removed face, and a face without a normal (zero area), has fDist = +∞, so the closest
// face is a plain minimum over the slots.

const MAX_VERTICES = EPA_MAX_ITERATIONS + 8;
const MAX_FACES = 2 * MAX_VERTICES + 8;

const vw = new Float64Array(3 * MAX_VERTICES);
const va = new Float64Array(3 * MAX_VERTICES);
const vb = new Float64Array(3 * MAX_VERTICES);
let nv = 0;

/** Corner vertex indices of each face, counter-clockwise seen from outside. */
const fIdx = new Int32Array(3 * MAX_FACES);
/** Twin half-edge (4·face + edge) across each edge (indexed 3·face + edge). */
const fAdj = new Int32Array(3 * MAX_FACES);
const fNrm = new Float64Array(3 * MAX_FACES);
/** Plane distance of each face; +∞ for a removed face or a face without a normal. */
const fDist = new Float64Array(MAX_FACES);
/** 1 for a live face (with or without a normal), 0 for a free slot. */
const fLive = new Uint8Array(MAX_FACES);
/** Flood marks: `stamp` for a face that sees the new point, −`stamp` for one tested and not. */
const fMark = new Int32Array(MAX_FACES);
/** Slots in use: every face index is below it. */
let faceTop = 0;
const freeFaces = new Int32Array(MAX_FACES);
let nFree = 0;
/** Live faces with a normal. */
let nNormal = 0;
let stamp = 0;

/** Horizon edges in loop order: from hA to hB, with the twin half-edge of the face beyond. */
const hA = new Int32Array(3 * MAX_FACES);
const hB = new Int32Array(3 * MAX_FACES);
const hTwin = new Int32Array(3 * MAX_FACES);
let nh = 0;
/** Faces that see the new point. */
const visList = new Int32Array(MAX_FACES);
let nVis = 0;
/** Flood stack: face, first edge, edges done, edges to do. */
const stFace = new Int32Array(MAX_FACES);
const stEdge = new Int32Array(MAX_FACES);
const stDone = new Int32Array(MAX_FACES);
const stTodo = new Int32Array(MAX_FACES);
/** New face of each horizon edge. */
const newFaces = new Int32Array(3 * MAX_FACES);

const pa = vec3.create();
const pb = vec3.create();
const negDir = vec3.create();
/**
 * Squared size of the polytope (largest |w|² so far), in a typed array: a double stored into a
 * module-level `let` is boxed on every store (a heap allocation in V8), and addSupport stores it
 * once per support point.
 */
const size = new Float64Array(1);

/**
 * Doubles that would otherwise cross a call (boxed when V8 does not inline it, as under the mesh
 * pairs' deep call chains): [0] the result of {@link vertexDistSq} and {@link lineDistSq}, [1]
 * the squared residual of {@link faceResultOf} and {@link closestCoplanarFace}, [2] the `slack`
 * argument of closestCoplanarFace, [3] the `floor` argument of {@link floodVisible}.
 */
const io = new Float64Array(4);

/** Adds the support point of A − B along `dir` to the vertex arena; returns its index. */
function addSupport(a: SupportMap, b: SupportMap, dir: Vec3): number {
  a.support(pa, dir);
  vec3.negate(negDir, dir);
  b.support(pb, negDir);
  const k = 3 * nv;
  va[k] = pa.x;
  va[k + 1] = pa.y;
  va[k + 2] = pa.z;
  vb[k] = pb.x;
  vb[k + 1] = pb.y;
  vb[k + 2] = pb.z;
  const x = pa.x - pb.x;
  const y = pa.y - pb.y;
  const z = pa.z - pb.z;
  vw[k] = x;
  vw[k + 1] = y;
  vw[k + 2] = z;
  const l = x * x + y * y + z * z;
  if (l > size[0]) size[0] = l;
  return nv++;
}

/** io[0] = squared distance between vertices i and j. */
function vertexDistSq(i: number, j: number): void {
  const dx = vw[3 * i] - vw[3 * j];
  const dy = vw[3 * i + 1] - vw[3 * j + 1];
  const dz = vw[3 * i + 2] - vw[3 * j + 2];
  io[0] = dx * dx + dy * dy + dz * dz;
}

const t0 = vec3.create();
const t1 = vec3.create();
const t2 = vec3.create();

function loadW(out: Vec3, i: number): Vec3 {
  out.x = vw[3 * i];
  out.y = vw[3 * i + 1];
  out.z = vw[3 * i + 2];
  return out;
}

/** io[0] = squared distance of vertex `k` from the line through vertices i, j. */
function lineDistSq(i: number, j: number, k: number): void {
  loadW(t0, i);
  loadW(t1, j);
  loadW(t2, k);
  vec3.sub(t1, t1, t0);
  vec3.sub(t2, t2, t0);
  const ee = t1.x * t1.x + t1.y * t1.y + t1.z * t1.z;
  if (!(ee > 0)) {
    io[0] = t2.x * t2.x + t2.y * t2.y + t2.z * t2.z;
    return;
  }
  vec3.cross(t0, t1, t2);
  io[0] = (t0.x * t0.x + t0.y * t0.y + t0.z * t0.z) / ee;
}

/** A free face slot (the caller has checked that one exists). */
function allocFace(): number {
  const f = nFree > 0 ? freeFaces[--nFree] : faceTop++;
  fLive[f] = 1;
  fMark[f] = 0;
  return f;
}

/** Returns face f's slot to the free list. */
function freeFace(f: number): void {
  if (fDist[f] !== Number.POSITIVE_INFINITY) nNormal--;
  fLive[f] = 0;
  fDist[f] = Number.POSITIVE_INFINITY;
  freeFaces[nFree++] = f;
}

/**
 * Sets face f to (i, j, k) with its outward unit normal; a face without one (zero area: i, j, k
 * in line, as coplanar box corners make) keeps its place in the mesh with fDist = +∞, so it is
 * never the closest face and is taken away by the flood of any neighbour that sees a new point.
 * Written out again, to the operation, in `expand`'s fan loop (see the comment there): a change
 * here is made there too, or the two kinds of face round apart.
 */
function setFace(f: number, i: number, j: number, k: number): void {
  // In scalars (no vector objects): this runs for every new face of every iteration.
  fIdx[3 * f] = i;
  fIdx[3 * f + 1] = j;
  fIdx[3 * f + 2] = k;
  const ox = vw[3 * i];
  const oy = vw[3 * i + 1];
  const oz = vw[3 * i + 2];
  const ax = vw[3 * j] - ox;
  const ay = vw[3 * j + 1] - oy;
  const az = vw[3 * j + 2] - oz;
  const bx = vw[3 * k] - ox;
  const by = vw[3 * k + 1] - oy;
  const bz = vw[3 * k + 2] - oz;
  const l1 = ax * ax + ay * ay + az * az;
  const l2 = bx * bx + by * by + bz * bz;
  const cx = ay * bz - az * by;
  const cy = az * bx - ax * bz;
  const cz = ax * by - ay * bx;
  const nn = cx * cx + cy * cy + cz * cz;
  if (!(nn > GJK_DEGENERATE_SIMPLEX_TOLERANCE ** 2 * l1 * l2)) {
    fDist[f] = Number.POSITIVE_INFINITY;
    return;
  }
  const inv = 1 / Math.sqrt(nn);
  const nx = cx * inv;
  const ny = cy * inv;
  const nz = cz * inv;
  fNrm[3 * f] = nx;
  fNrm[3 * f + 1] = ny;
  fNrm[3 * f + 2] = nz;
  fDist[f] = nx * ox + ny * oy + nz * oz;
  nNormal++;
}

/**
 * Floods from face f (which sees vertex q) over the faces that see q — those with q more than
 * `floor` (io[3]) above their plane, and faces without a normal next to one — marking them with `stamp`
 * into visList, and writes the horizon, the edges between them and the rest, in loop order (a
 * depth-first walk that turns the same way round every face). Returns false when the horizon is
 * not one closed loop (the visible faces are not a disk: rounding).
 */
function floodVisible(f: number, q: number): boolean {
  const floor = io[3];
  const qx = vw[3 * q];
  const qy = vw[3 * q + 1];
  const qz = vw[3 * q + 2];
  if (stamp >= 0x3fffffff) {
    stamp = 0;
    fMark.fill(0);
  }
  const s = ++stamp;
  nVis = 0;
  nh = 0;
  fMark[f] = s;
  visList[nVis++] = f;
  let sp = 0;
  stFace[0] = f;
  stEdge[0] = 0;
  stDone[0] = 0;
  stTodo[0] = 3;
  sp = 1;
  while (sp > 0) {
    const top = sp - 1;
    const g = stFace[top];
    const done = stDone[top];
    if (done === stTodo[top]) {
      sp--;
      continue;
    }
    stDone[top] = done + 1;
    let e = stEdge[top] + done;
    if (e >= 3) e -= 3;
    const he = fAdj[3 * g + e];
    const h = he >> 2;
    const m = fMark[h];
    if (m === s) continue;
    let sees = false;
    if (m !== -s) {
      const d = fDist[h];
      sees =
        d === Number.POSITIVE_INFINITY ||
        fNrm[3 * h] * qx + fNrm[3 * h + 1] * qy + fNrm[3 * h + 2] * qz - d > floor;
    }
    if (sees) {
      fMark[h] = s;
      visList[nVis++] = h;
      let te = (he & 3) + 1;
      if (te >= 3) te -= 3;
      stFace[sp] = h;
      stEdge[sp] = te;
      stDone[sp] = 0;
      stTodo[sp] = 2;
      sp++;
    } else {
      fMark[h] = -s;
      hA[nh] = fIdx[3 * g + e];
      hB[nh] = fIdx[3 * g + (e === 2 ? 0 : e + 1)];
      hTwin[nh] = he;
      nh++;
    }
  }
  if (nh < 3) return false;
  for (let i = 0; i < nh; i++) if (hB[i] !== hA[i + 1 === nh ? 0 : i + 1]) return false;
  return true;
}

const dirs = vec3.create();
const u = vec3.create();
const wv = vec3.create();
const axisE = vec3.create();
const AXES = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];

const pFace = vec3.create();
const bary = new Float64Array(3);
const wi = vec3.create();
const wj = vec3.create();
const wk = vec3.create();

/**
 * Writes depth, normal and witnesses of face f into out, and to io[1] the squared distance
 * between the origin's projection on the face plane and the face (0 when it falls inside it).
 */
function faceResult(out: EpaResult, f: number): void {
  faceResultOf(out, fIdx[3 * f], fIdx[3 * f + 1], fIdx[3 * f + 2], fNrm, 3 * f, fDist, f);
}

/**
 * {@link faceResult} of the face (i, j, k) with unit normal n = `nrm[at..at+2]` and plane
 * distance d = `dist[dAt]` (arrays and indices: no double crosses the call).
 */
function faceResultOf(
  out: EpaResult,
  i: number,
  j: number,
  k: number,
  nrm: Float64Array,
  at: number,
  dist: Float64Array,
  dAt: number,
): void {
  const nx = nrm[at];
  const ny = nrm[at + 1];
  const nz = nrm[at + 2];
  const d = dist[dAt];
  answerFace[0] = i;
  answerFace[1] = j;
  answerFace[2] = k;
  out.depth = Math.max(d, 0);
  const normal = out.normal;
  normal.x = nx;
  normal.y = ny;
  normal.z = nz;
  loadW(wi, i);
  loadW(wj, j);
  loadW(wk, k);
  pFace.x = nx * d;
  pFace.y = ny * d;
  pFace.z = nz * d;
  closestPointOnTriangle(pFace, pFace, wi, wj, wk, bary);
  const residual = (pFace.x - nx * d) ** 2 + (pFace.y - ny * d) ** 2 + (pFace.z - nz * d) ** 2;
  const l0 = bary[0];
  const l1 = bary[1];
  const l2 = bary[2];
  // Written out, not through vec3.set: no double passed to a call.
  const pA = out.pointA;
  pA.x = l0 * va[3 * i] + l1 * va[3 * j] + l2 * va[3 * k];
  pA.y = l0 * va[3 * i + 1] + l1 * va[3 * j + 1] + l2 * va[3 * k + 1];
  pA.z = l0 * va[3 * i + 2] + l1 * va[3 * j + 2] + l2 * va[3 * k + 2];
  const pB = out.pointB;
  pB.x = l0 * vb[3 * i] + l1 * vb[3 * j] + l2 * vb[3 * k];
  pB.y = l0 * vb[3 * i + 1] + l1 * vb[3 * j + 1] + l2 * vb[3 * k + 1];
  pB.z = l0 * vb[3 * i + 2] + l1 * vb[3 * j + 2] + l2 * vb[3 * k + 2];
  io[1] = residual;
}

/** The corners (vertex indices) of the face the last {@link epa} answer was taken from. */
const answerFace = new Int32Array(3);

/**
 * Copies the support points of the corners of the face the last {@link epa} run took its answer
 * from (after a run that reached a polytope: not `Flat`): A's three to `outA`, B's three to
 * `outB`, packed xyz, in the support maps' frame. On a polytope pair the face lies on a face of
 * the Minkowski difference, a face of one shape against a vertex of the other or an edge against
 * an edge, so these corners name the features whose exact normal (a face's plane, an edge × edge
 * cross product) EPA's normal approximates (src/narrowphase/convex-convex.ts, `exactPolytopeAxis`).
 */
export function epaAnswerSupports(outA: Float64Array, outB: Float64Array): void {
  for (let c = 0; c < 3; c++) {
    const v = 3 * answerFace[c];
    outA[3 * c] = va[v];
    outA[3 * c + 1] = va[v + 1];
    outA[3 * c + 2] = va[v + 2];
    outB[3 * c] = vb[v];
    outB[3 * c + 1] = vb[v + 1];
    outB[3 * c + 2] = vb[v + 2];
  }
}

/**
 * Among the faces coplanar with the closest face f (same normal, distance within `slack`),
 * writes the one that holds the origin's projection: a face of A − B with more than 3 corners
 * is split into triangles, and the first one found need not contain the contact point. Writes
 * the squared residual of the chosen face (0 when it holds the projection) to io[1]; `slack` is
 * io[2].
 */
function closestCoplanarFace(out: EpaResult, f: number): void {
  const slack = io[2];
  faceResult(out, f);
  let bestRes = io[1];
  if (bestRes === 0) return;
  let best = f;
  const d = fDist[f];
  for (let g = 0; g < faceTop; g++) {
    if (g === f || !(fDist[g] <= d + slack)) continue;
    const c =
      fNrm[3 * g] * fNrm[3 * f] +
      fNrm[3 * g + 1] * fNrm[3 * f + 1] +
      fNrm[3 * g + 2] * fNrm[3 * f + 2];
    if (!(c >= 1 - GJK_DEGENERATE_SIMPLEX_TOLERANCE)) continue;
    faceResult(out, g);
    const r = io[1];
    if (r < bestRes) {
      bestRes = r;
      best = g;
      if (r === 0) return;
    }
  }
  faceResult(out, best);
}

/**
 * Grows the arena's 1–3 points into a tetrahedron. Returns 4 on success, or the dimension + 1
 * of the flat set A − B (1 point, 2 segment, 3 polygon) with `dirs` holding, for 3, the plane
 * normal and, for 2, the segment direction.
 */
function growToTetrahedron(a: SupportMap, b: SupportMap): number {
  if (nv === 1) {
    for (let d = 0; d < 6; d++) {
      vec3.set(dirs, AXES[3 * d], AXES[3 * d + 1], AXES[3 * d + 2]);
      const q = addSupport(a, b, dirs);
      const floor = GJK_ROUNDING_TOLERANCE * GJK_ROUNDING_TOLERANCE * size[0];
      vertexDistSq(0, q);
      if (io[0] > floor) break;
      nv--;
    }
    if (nv === 1) return 1;
  }
  if (nv === 2) {
    loadW(axisE, 1);
    loadW(t0, 0);
    vec3.sub(axisE, axisE, t0);
    tryNormalizeScaled(axisE, axisE);
    vec3.orthonormalBasis(u, wv, axisE);
    let best = -1;
    let bestD = 0;
    for (let d = 0; d < 4; d++) {
      const s = d & 1 ? -1 : 1;
      if (d < 2) vec3.scale(dirs, u, s);
      else vec3.scale(dirs, wv, s);
      const q = addSupport(a, b, dirs);
      lineDistSq(0, 1, q);
      const dd = io[0];
      if (dd > bestD) {
        bestD = dd;
        best = q;
      }
    }
    const floor = GJK_ROUNDING_TOLERANCE * GJK_ROUNDING_TOLERANCE * size[0];
    if (best < 0 || !(bestD > floor)) {
      nv = 2;
      vec3.copy(dirs, axisE);
      return 2;
    }
    copyVertex(2, best);
    nv = 3;
  }
  if (nv === 3) {
    loadW(t0, 0);
    loadW(t1, 1);
    loadW(t2, 2);
    vec3.sub(t1, t1, t0);
    vec3.sub(t2, t2, t0);
    vec3.cross(u, t1, t2);
    tryNormalizeScaled(u, u);
    loadW(wv, 0);
    const base = u.x * wv.x + u.y * wv.y + u.z * wv.z;
    const q1 = addSupport(a, b, u);
    vec3.negate(dirs, u);
    const q2 = addSupport(a, b, dirs);
    const d1 = vw[3 * q1] * u.x + vw[3 * q1 + 1] * u.y + vw[3 * q1 + 2] * u.z - base;
    const d2 = base - (vw[3 * q2] * u.x + vw[3 * q2 + 1] * u.y + vw[3 * q2 + 2] * u.z);
    const floor = GJK_ROUNDING_TOLERANCE * Math.sqrt(size[0]);
    if (!(Math.max(d1, d2) > floor)) {
      nv = 3;
      vec3.copy(dirs, u);
      return 3;
    }
    copyVertex(3, d1 >= d2 ? q1 : q2);
    nv = 4;
  }
  return 4;
}

function copyVertex(to: number, from: number): void {
  for (let c = 0; c < 3; c++) {
    vw[3 * to + c] = vw[3 * from + c];
    va[3 * to + c] = va[3 * from + c];
    vb[3 * to + c] = vb[3 * from + c];
  }
}

const centroid = vec3.create();
const TET_FACES = [0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2];

/**
 * Builds the 4 outward faces of the tetrahedron in vertices 0..3 and their adjacency; false
 * when it is flat (a face without a normal).
 */
function buildTetrahedron(): boolean {
  faceTop = 0;
  nFree = 0;
  nNormal = 0;
  vec3.set(centroid, 0, 0, 0);
  for (let i = 0; i < 4; i++) {
    centroid.x += 0.25 * vw[3 * i];
    centroid.y += 0.25 * vw[3 * i + 1];
    centroid.z += 0.25 * vw[3 * i + 2];
  }
  const F = TET_FACES;
  for (let g = 0; g < 4; g++) {
    allocFace();
    setFace(g, F[3 * g], F[3 * g + 1], F[3 * g + 2]);
    if (fDist[g] === Number.POSITIVE_INFINITY) return false;
    const side =
      fNrm[3 * g] * centroid.x +
      fNrm[3 * g + 1] * centroid.y +
      fNrm[3 * g + 2] * centroid.z -
      fDist[g];
    if (side > 0) {
      // Inward: flip winding and normal.
      const t = fIdx[3 * g + 1];
      fIdx[3 * g + 1] = fIdx[3 * g + 2];
      fIdx[3 * g + 2] = t;
      fNrm[3 * g] = -fNrm[3 * g];
      fNrm[3 * g + 1] = -fNrm[3 * g + 1];
      fNrm[3 * g + 2] = -fNrm[3 * g + 2];
      fDist[g] = -fDist[g];
    }
  }
  // Adjacency: the twin of edge i→j is the edge j→i (every edge of a tetrahedron has one when
  // the faces are consistently outward; rounding on a near-flat one may leave one without).
  for (let h = 0; h < 12; h++) {
    const i = fIdx[h];
    const j = fIdx[h % 3 === 2 ? h - 2 : h + 1];
    let twin = -1;
    for (let k = 0; k < 12; k++) {
      if (fIdx[k] === j && fIdx[k % 3 === 2 ? k - 2 : k + 1] === i) twin = k;
    }
    if (twin < 0) return false;
    fAdj[h] = 4 * ((twin / 3) | 0) + (twin % 3);
  }
  return true;
}

const nDir = vec3.create();
/**
 * Arena slot of the support pair that confirmed the last run's closest face (taken along nDir,
 * left in the arenas past `nv`), or −1 when the run ended otherwise.
 */
let lastSupport = -1;

/**
 * After an {@link epa} or {@link epaOctahedron} run that converged by confirming its closest
 * face: writes to `out` the direction of that last support pair (the face's unit normal, xyz),
 * A's support point along it and B's along its negation (xyz each, the support maps' frame) and
 * returns true — the support pair of that direction, which a caller evaluating the same maps
 * along the same normal need not ask for again. Returns false (out untouched) otherwise.
 */
export function epaLastSupport(out: Float64Array): boolean {
  const k = lastSupport;
  if (k < 0) return false;
  out[0] = nDir.x;
  out[1] = nDir.y;
  out[2] = nDir.z;
  for (let c = 0; c < 3; c++) {
    out[3 + c] = va[3 * k + c];
    out[6 + c] = vb[3 * k + c];
  }
  return true;
}
/**
 * The least overlap n·w met by the last {@link epa} or {@link epaOctahedron} expansion, over the
 * unit normals n it asked a support pair w = s_A(n) − s_B(−n) for: [0] that overlap (+∞ before
 * any), [1..3] its normal (the support maps' frame). An overlap along an actual direction, so an
 * upper bound of the depth, whatever became of the polytope: a run stopped by its cap after its
 * closest faces turned over to rounding (a polytope of 1.2e3 about a depth of 1e-8: the faces'
 * planes known to 1e-10, the same support points taken again in a cycle) still met the
 * optimum's neighbourhood on the way, while the face it reports is the last one's.
 */
export const epaLeastIo = new Float64Array(4);

/** The closest face saved before the polytope changes: normal xyz and plane distance. */
const savedFace = new Float64Array(4);
let savedI = 0;
let savedJ = 0;
let savedK = 0;

/**
 * Runs EPA on the cores of `a` and `b` (same frame — A's) from GJK's final `simplex` of an
 * intersecting pair, and writes `out`.
 *
 * - `hint`: a direction from A toward B (e.g. GJK's last search direction or B's centre minus
 *   A's) that orients the normal when A − B is flat and every normal in its plane is valid.
 * - `tolerance`: relative convergence tolerance (default EPA_TOLERANCE; use
 *   EPA_POLYTOPE_TOLERANCE for polytope pairs, which converge exactly).
 *
 * Returns `out` with the core penetration depth, the unit normal from A toward B and the
 * witness points. Never throws; the result is finite for finite input.
 */
export function epa(
  out: EpaResult,
  a: SupportMap,
  b: SupportMap,
  simplex: GjkSimplex,
  hint: Vec3 | null = null,
  tolerance: number = EPA_TOLERANCE,
): EpaResult {
  nv = 0;
  faceTop = 0;
  nFree = 0;
  size[0] = 0;
  lastSupport = -1;
  epaLeastIo[0] = Number.POSITIVE_INFINITY;
  out.iterations = 0;
  const count = Math.min(Math.max(simplex.count, 0), 4);
  for (let i = 0; i < count; i++) {
    const k = 3 * nv++;
    const w = simplex.w[i];
    vw[k] = w.x;
    vw[k + 1] = w.y;
    vw[k + 2] = w.z;
    va[k] = simplex.a[i].x;
    va[k + 1] = simplex.a[i].y;
    va[k + 2] = simplex.a[i].z;
    vb[k] = simplex.b[i].x;
    vb[k + 1] = simplex.b[i].y;
    vb[k + 2] = simplex.b[i].z;
    const l = w.x * w.x + w.y * w.y + w.z * w.z;
    if (l > size[0]) size[0] = l;
  }
  if (nv === 0) {
    vec3.set(dirs, 1, 0, 0);
    addSupport(a, b, dirs);
  }
  let dim = 4;
  if (nv === 4 && !buildTetrahedron()) nv = 3;
  if (nv < 4) {
    dim = growToTetrahedron(a, b);
    if (dim === 4 && !buildTetrahedron()) dim = 3;
  }
  if (dim < 4) return flat(out, simplex, dim, hint);
  return expand(out, a, b, tolerance);
}

/**
 * The expansion shared by {@link epa} and {@link epaOctahedron}: from the closed start polytope
 * in the arenas (origin inside), grows it toward the boundary of A − B until the closest face is
 * confirmed within `tolerance`, and writes `out` (see {@link epa}).
 */
function expand(out: EpaResult, a: SupportMap, b: SupportMap, tolerance: number): EpaResult {
  lastSupport = -1;
  // The answer is taken once, at the end, from the closest face of the last iteration whose
  // polytope is still the current one (`current`); when the run ends after the polytope has
  // changed (a degenerate step, the iteration cap), from that face as saved (`savedI` …): its
  // normal and depth, the witnesses then being recomputed below (status not Converged).
  let status: EpaStatus = EpaStatus.MaxIterations;
  let best = -1;
  let bestDist = -Infinity;
  let slack = 0;
  let current = false;
  let iter = 0;
  epaLeastIo[0] = Number.POSITIVE_INFINITY;
  for (; iter < EPA_MAX_ITERATIONS; iter++) {
    // Locals for the module's arenas: V8 reloads a module binding at every use in a loop.
    const fd = fDist;
    const fn = fNrm;
    const top = faceTop;
    let f = 0;
    let dist = fd[0];
    for (let g = 1; g < top; g++) {
      const x = fd[g];
      if (x < dist) {
        dist = x;
        f = g;
      }
    }
    const sizeLen = Math.sqrt(size[0]);
    if (dist < bestDist - (tolerance + GJK_ROUNDING_TOLERANCE) * sizeLen) {
      // The closest face moved toward the origin: the polytope lost convexity to rounding
      // (sliver faces); keep the answer of the previous iteration.
      status = EpaStatus.Degenerate;
      break;
    }
    bestDist = Math.max(bestDist, dist);
    best = f;
    current = true;
    slack = tolerance * Math.max(dist, 0) + GJK_ROUNDING_TOLERANCE * sizeLen;
    if (nv >= MAX_VERTICES) break;
    const nx = fn[3 * f];
    const ny = fn[3 * f + 1];
    const nz = fn[3 * f + 2];
    nDir.x = nx;
    nDir.y = ny;
    nDir.z = nz;
    const q = addSupport(a, b, nDir);
    const supDist = vw[3 * q] * nx + vw[3 * q + 1] * ny + vw[3 * q + 2] * nz;
    if (supDist < epaLeastIo[0]) {
      epaLeastIo[0] = supDist;
      epaLeastIo[1] = nx;
      epaLeastIo[2] = ny;
      epaLeastIo[3] = nz;
    }
    const floor = GJK_ROUNDING_TOLERANCE * Math.sqrt(size[0]);
    let done = supDist - dist <= tolerance * Math.max(dist, 0) + floor;
    for (let c = 0; c < 3; c++) {
      vertexDistSq(fIdx[3 * f + c], q);
      if (io[0] <= floor * floor) done = true;
    }
    if (done) {
      nv--;
      lastSupport = nv;
      status = EpaStatus.Converged;
      break;
    }
    // Faces that see q, and their horizon. Faces within rounding of q's plane do not see it:
    // q joins them coplanar, which keeps the visible set a disk when support points are coplanar.
    io[3] = floor;
    const closed = floodVisible(f, q);
    if (!closed || nFree + nVis + MAX_FACES - faceTop < nh) {
      nv--;
      status = closed ? EpaStatus.MaxIterations : EpaStatus.Degenerate;
      break;
    }
    // The polytope changes: save the closest face for a run that ends before the next one.
    savedI = fIdx[3 * f];
    savedJ = fIdx[3 * f + 1];
    savedK = fIdx[3 * f + 2];
    savedFace[0] = nx;
    savedFace[1] = ny;
    savedFace[2] = nz;
    savedFace[3] = dist;
    current = false;
    for (let v = 0; v < nVis; v++) freeFace(visList[v]);
    // The fan from q to the horizon: edge 0 of each new face is its horizon edge (twin beyond),
    // edge 1 (hB → q) meets edge 2 of the next one, edge 2 (q → hA) edge 1 of the previous one.
    // setFace written out, the same operations in the same order (so a fan face is set bit for bit
    // as setFace sets it): V8 does not inline setFace in this large function, and written out
    // the faces' square roots and divisions, independent of each other, overlap, which the calls
    // did not let them do (commit 957bfe1, measured then). Keep the two alike.
    const qx = vw[3 * q];
    const qy = vw[3 * q + 1];
    const qz = vw[3 * q + 2];
    for (let e = 0; e < nh; e++) {
      const g = nFree > 0 ? freeFaces[--nFree] : faceTop++;
      fLive[g] = 1;
      fMark[g] = 0;
      newFaces[e] = g;
      const i = hA[e];
      const j = hB[e];
      fIdx[3 * g] = i;
      fIdx[3 * g + 1] = j;
      fIdx[3 * g + 2] = q;
      const ox = vw[3 * i];
      const oy = vw[3 * i + 1];
      const oz = vw[3 * i + 2];
      const ax = vw[3 * j] - ox;
      const ay = vw[3 * j + 1] - oy;
      const az = vw[3 * j + 2] - oz;
      const bx = qx - ox;
      const by = qy - oy;
      const bz = qz - oz;
      const l1 = ax * ax + ay * ay + az * az;
      const l2 = bx * bx + by * by + bz * bz;
      const cx = ay * bz - az * by;
      const cy = az * bx - ax * bz;
      const cz = ax * by - ay * bx;
      const nn = cx * cx + cy * cy + cz * cz;
      if (!(nn > GJK_DEGENERATE_SIMPLEX_TOLERANCE ** 2 * l1 * l2)) {
        fDist[g] = Number.POSITIVE_INFINITY;
      } else {
        const inv = 1 / Math.sqrt(nn);
        const nx = cx * inv;
        const ny = cy * inv;
        const nz = cz * inv;
        fNrm[3 * g] = nx;
        fNrm[3 * g + 1] = ny;
        fNrm[3 * g + 2] = nz;
        fDist[g] = nx * ox + ny * oy + nz * oz;
        nNormal++;
      }
      const t = hTwin[e];
      fAdj[3 * g] = t;
      fAdj[3 * (t >> 2) + (t & 3)] = 4 * g;
    }
    for (let e = 0; e < nh; e++) {
      const g = newFaces[e];
      const next = newFaces[e + 1 === nh ? 0 : e + 1];
      fAdj[3 * g + 1] = 4 * next + 2;
      fAdj[3 * next + 2] = 4 * g + 1;
    }
    if (nNormal < 4) {
      status = EpaStatus.Degenerate;
      iter++;
      break;
    }
  }
  let residual = 0;
  if (best >= 0) {
    // The answer, from the face (among those coplanar with the closest) holding the projection.
    if (current) {
      io[2] = slack;
      closestCoplanarFace(out, best);
    } else faceResultOf(out, savedI, savedJ, savedK, savedFace, 0, savedFace, 3);
    residual = io[1];
  }
  const residualLimit = slack * slack;
  out.iterations = iter;
  out.status = best < 0 ? EpaStatus.Degenerate : status;
  if (out.status !== EpaStatus.Converged || residual > residualLimit) touchingWitnesses(out, a, b);
  return out;
}

/**
 * The octahedron's directions, vertex 2k along +row k and 2k + 1 along −row k of a rotation with
 * no zero entry (the integer orthogonal matrix [−49 −26 82; 86 −17 46; 2 94 31] / 99, determinant
 * +1), not the axes: along an axis the support of a box square to it, or of a hull with a face
 * across it, is a tie, and two of the six support points of a box pair then coincide (a face
 * without a normal: no octahedron) far more often.
 */
const OCTA_DIRS = new Float64Array(18);
{
  const rows = [-49, -26, 82, 86, -17, 46, 2, 94, 31];
  for (let k = 0; k < 3; k++) {
    for (let c = 0; c < 3; c++) {
      OCTA_DIRS[6 * k + c] = rows[3 * k + c] / 99;
      OCTA_DIRS[6 * k + 3 + c] = -rows[3 * k + c] / 99;
    }
  }
}

/**
 * The faces of the start octahedron of {@link epaOctahedron}, vertices 0..5 the support points
 * along ±d₀, ±d₁, ±d₂ ({@link OCTA_DIRS}): one face per octant of that frame, counter-clockwise seen from outside for the
 * regular octahedron (and for any octahedron that passes the checks there).
 */
const OCTA_FACES = new Int32Array(24);
/** Twin half-edge (4·face + edge) of each half-edge of {@link OCTA_FACES} (fixed: made once). */
const OCTA_ADJ = new Int32Array(24);
for (let f = 0; f < 8; f++) {
  const x = f & 1;
  const y = 2 + ((f >> 1) & 1);
  const z = 4 + ((f >> 2) & 1);
  // An odd number of negative axes mirrors the octant: the winding turns.
  const odd = ((f & 1) ^ ((f >> 1) & 1) ^ ((f >> 2) & 1)) === 1;
  OCTA_FACES[3 * f] = x;
  OCTA_FACES[3 * f + 1] = odd ? z : y;
  OCTA_FACES[3 * f + 2] = odd ? y : z;
}
for (let h = 0; h < 24; h++) {
  const i = OCTA_FACES[h];
  const j = OCTA_FACES[h % 3 === 2 ? h - 2 : h + 1];
  for (let k = 0; k < 24; k++) {
    if (OCTA_FACES[k] === j && OCTA_FACES[k % 3 === 2 ? k - 2 : k + 1] === i) {
      OCTA_ADJ[h] = 4 * ((k / 3) | 0) + (k % 3);
    }
  }
}

/**
 * EPA without GJK, for a pair whose cores surely overlap deeply (the caller's test: e.g. the
 * balls that each shape contains overlap). The start polytope is the octahedron of the support
 * points of A − B along ± three fixed orthogonal directions (not the axes: {@link OCTA_DIRS});
 * it is taken only when it is a proper one — every face with a
 * normal, every vertex off a face at most rounding above its plane (convex), and the origin at
 * least rounding below every face plane (inside) — and then expanded as {@link epa} expands
 * GJK's simplex (same tolerance, same answer face and witnesses). Returns false, with `out`
 * untouched, when the octahedron is not such a polytope (a flat or thin difference, supports
 * that coincide, the origin near or outside its boundary): the caller then runs GJK and
 * {@link epa}. Six support pairs before the expansion; no allocation. Frames and units as
 * {@link epa}.
 */
export function epaOctahedron(
  out: EpaResult,
  a: SupportMap,
  b: SupportMap,
  tolerance: number = EPA_TOLERANCE,
): boolean {
  nv = 0;
  size[0] = 0;
  lastSupport = -1;
  epaLeastIo[0] = Number.POSITIVE_INFINITY;
  for (let d = 0; d < 6; d++) {
    dirs.x = OCTA_DIRS[3 * d];
    dirs.y = OCTA_DIRS[3 * d + 1];
    dirs.z = OCTA_DIRS[3 * d + 2];
    addSupport(a, b, dirs);
  }
  faceTop = 0;
  nFree = 0;
  nNormal = 0;
  const floor = GJK_ROUNDING_TOLERANCE * Math.sqrt(size[0]);
  for (let f = 0; f < 8; f++) {
    allocFace();
    setFace(f, OCTA_FACES[3 * f], OCTA_FACES[3 * f + 1], OCTA_FACES[3 * f + 2]);
    // No normal (+∞), or the origin not inside by more than rounding.
    if (!(fDist[f] > floor) || fDist[f] === Number.POSITIVE_INFINITY) return false;
    const nx = fNrm[3 * f];
    const ny = fNrm[3 * f + 1];
    const nz = fNrm[3 * f + 2];
    const top = fDist[f] + floor;
    // The three vertices off the face: the opposite one of each of its axes.
    for (let c = 0; c < 3; c++) {
      const v = OCTA_FACES[3 * f + c] ^ 1;
      if (nx * vw[3 * v] + ny * vw[3 * v + 1] + nz * vw[3 * v + 2] > top) return false;
    }
  }
  for (let h = 0; h < 24; h++) fAdj[h] = OCTA_ADJ[h];
  out.iterations = 0;
  expand(out, a, b, tolerance);
  return true;
}

/** B moved by {@link touchingWitnesses}'s step along the normal (identity rotation). */
const movedPose: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };
const movedB = new TransformedSupport();
const witnessGjk = makeGjkResult();

/**
 * The witnesses of `out`'s depth and normal when no polytope face holds the origin's projection
 * (a sliver face of a flat or thin shape, a run stopped early): GJK between A and B moved along
 * the normal by the depth plus a gap g (EPA_WITNESS_GAP of the polytope's size, at least the
 * depth), whose closest points lie on the features of A and B that touch along the normal;
 * pointB is B's moved back. Both are points of their cores, and pointA − pointB is depth·normal
 * up to the normal's error times g. (Blending the face's support points off the face, or taking
 * B's deepest point with A's depth·n ahead of it, put a witness 1.7 off a box of 1e-5 touched by
 * a hull: issue 16.) Falls back to B's deepest point along −n, A's depth·n ahead of it, should
 * GJK find the moved pair still touching.
 */
function touchingWitnesses(out: EpaResult, a: SupportMap, b: SupportMap): void {
  const n = out.normal;
  const depth = out.depth;
  const step = depth + Math.max(depth, EPA_WITNESS_GAP * Math.sqrt(size[0]));
  const t = movedPose.translation;
  t.x = n.x * step;
  t.y = n.y * step;
  t.z = n.z * step;
  movedB.reset(b, movedPose);
  gjkLimit[0] = Number.POSITIVE_INFINITY;
  gjkToLimit(witnessGjk, a, movedB, n);
  if (witnessGjk.status === GjkStatus.Separated && !witnessGjk.unproven) {
    vec3.copy(out.pointA, witnessGjk.pointA);
    vec3.sub(out.pointB, witnessGjk.pointB, t);
    return;
  }
  vec3.negate(negDir, n);
  b.support(out.pointB, negDir);
  const pB = out.pointB;
  const pA = out.pointA;
  pA.x = pB.x + n.x * depth;
  pA.y = pB.y + n.y * depth;
  pA.z = pB.z + n.z * depth;
}

/** The Flat result: depth 0, a normal of the flat set's orthogonal space oriented by `hint`. */
function flat(out: EpaResult, simplex: GjkSimplex, dim: number, hint: Vec3 | null): EpaResult {
  out.status = EpaStatus.Flat;
  out.depth = 0;
  simplexWitnesses(out.pointA, out.pointB, simplex);
  const h = hint && vec3.isFiniteVec(hint) ? hint : null;
  const n = out.normal;
  if (dim === 3) {
    vec3.copy(n, dirs);
    if (h && vec3.dot(h, n) < 0) vec3.negate(n, n);
  } else if (dim === 2) {
    // The hint's component orthogonal to the segment, unless the hint is along the segment.
    let ok = false;
    if (h) {
      vec3.addScaled(n, h, dirs, -vec3.dot(h, dirs));
      ok = normalizeScaled(n, n) > GJK_DEGENERATE_SIMPLEX_TOLERANCE * vec3.length(h);
    }
    if (!ok) {
      vec3.orthonormalBasis(n, u, dirs);
    }
  } else if (!h || normalizeScaled(n, h) === 0) {
    vec3.set(n, 1, 0, 0);
  }
  return out;
}
