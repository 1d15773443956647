/**
 * GJK: the distance between two convex sets given by their support functions, and whether
 * they intersect (Gilbert, Johnson & Keerthi 1988; van den Bergen 1999 and 2003, §4.3).
 *
 * GJK walks a simplex (1 to 4 points) of the Minkowski difference A − B toward the origin: each
 * iteration asks for the support point w of A − B in the direction −v, where v is the point of
 * the current simplex closest to the origin, adds w and reduces the simplex to the smallest
 * face that still holds the new closest point. The reduction here is the signed-volumes
 * sub-algorithm (Montanari, Petrinic & Barbieri 2017): it projects the origin onto the
 * simplex's affine hull and decides the supporting face by the signs of sub-volumes (areas in
 * the best-conditioned coordinate plane), which stays accurate where Johnson's sub-algorithm
 * loses its way on nearly degenerate simplices; flat simplices are treated as the union of
 * their faces.
 *
 * Termination: (1) the lower bound v·w/|v| is within GJK_TOLERANCE (relative) of |v|, (2) the
 * new point is already in the simplex, (3) no progress (|v| did not shrink: the previous, best
 * simplex is kept), (4) the origin is inside a tetrahedron or within GJK_ROUNDING_TOLERANCE of
 * the simplex (touching counts as intersecting), (5) v·w/|v| exceeds the caller's
 * `maxDistance` (a separating axis; early out), (6) GJK_MAX_ITERATIONS, with the best answer
 * so far and `converged = false`.
 *
 * GJK runs on the CORES (the support maps' points); margins are the caller's to add. Both maps
 * must be in the same frame (B wrapped in a TransformedSupport for `bInA`). No allocation
 * unless a trace is passed.
 */
import {
  GJK_DEGENERATE_SIMPLEX_TOLERANCE,
  GJK_MAX_ITERATIONS,
  GJK_MAX_STALLED_ITERATIONS,
  GJK_ROUNDING_TOLERANCE,
  GJK_SUPPORT_ROUNDING,
  GJK_TOLERANCE,
  TOUCH_TOLERANCE,
} from "../constants.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { SupportMap } from "./support.js";

/**
 * A GJK simplex: `count` (0..4) points `w[i] = a[i] − b[i]` of the Minkowski difference with
 * their witnesses on A and B, and the barycentric `weights` of the point closest to the origin.
 * Arrays are preallocated to 4.
 */
export interface GjkSimplex {
  /** Number of valid points, 0..4. */
  count: number;
  /** Minkowski-difference points, A's frame. */
  readonly w: Vec3[];
  /** Support points on A, A's frame. */
  readonly a: Vec3[];
  /** Support points on B, A's frame. */
  readonly b: Vec3[];
  /** Barycentric weights of the closest point (sum 1 over the first `count`). */
  readonly weights: Float64Array;
}

/** How a GJK run ended. */
export const GjkStatus = {
  /** The cores are apart by `distance` > 0. */
  Separated: 0,
  /** The cores intersect or touch; `distance` = 0. EPA may continue from the simplex. */
  Intersecting: 1,
  /** A separating axis proved the distance exceeds `maxDistance`; `distance` is a lower bound. */
  BeyondMaxDistance: 2,
} as const;

/** One of the {@link GjkStatus} values. */
export type GjkStatus = (typeof GjkStatus)[keyof typeof GjkStatus];

/** The result of {@link gjk}; every vector in the frame of the support maps (A's frame). */
export interface GjkResult {
  /** How the run ended. */
  status: GjkStatus;
  /** Core distance, scene units: exact when Separated, 0 when Intersecting, a lower bound when Beyond. */
  distance: number;
  /** Closest point on A's core. */
  readonly pointA: Vec3;
  /** Closest point on B's core. */
  readonly pointB: Vec3;
  /**
   * Unit separating axis from A toward B ((pointB − pointA)/distance when Separated; the last
   * non-zero search direction otherwise). Pass it back as the warm start next frame.
   */
  readonly direction: Vec3;
  /** Iterations used. */
  iterations: number;
  /** False when GJK_MAX_ITERATIONS stopped the run (the answer is the best so far). */
  converged: boolean;
  /**
   * Separated, but only as an upper bound: the run stalled at a core distance under
   * 2^-30 of the Minkowski difference's size without finding a separating axis (the last
   * support point lay beyond the origin). The sets touch, or overlap or are apart by less than
   * GJK resolves: the caller decides (refining the normal on the sphere).
   */
  unproven: boolean;
  /**
   * Intersecting by the rounding test alone: |v| at GJK's rounding level on a simplex of fewer
   * than four points, with no separation along v beyond the touching tolerance — but v's
   * direction is itself rounding there, so the sets may also be apart by a few hundred ulps
   * along another axis (a triangle's corner 3.7e-13 of the size below a cylinder's cap, issue
   * 16). A predicate that must tell such a gap decides by refining the normal on the sphere.
   */
  roundingContact: boolean;
  /** The final simplex (EPA continues from it when Intersecting). */
  readonly simplex: GjkSimplex;
}

/**
 * An optional per-iteration recorder (for a debug viewer): `record` gets the reduced simplex
 * and v after every iteration. Off unless passed; costs nothing when off.
 */
export interface GjkTrace {
  /** Called after iteration `iteration` with the reduced simplex and its closest point v. */
  record(iteration: number, simplex: GjkSimplex, v: Vec3): void;
}

/** One recorded GJK iteration: copies of the simplex points and of v (A's frame). */
export interface GjkTraceStep {
  /** Minkowski-difference points of the reduced simplex. */
  simplex: Vec3[];
  /** Closest point of the simplex to the origin. */
  v: Vec3;
}

/** A {@link GjkTrace} that keeps a copy of every step (allocates; debugging only). */
export class GjkRecorder implements GjkTrace {
  /** The recorded steps, in order. */
  readonly steps: GjkTraceStep[] = [];

  /** Appends a copy of the simplex and v. */
  record(_iteration: number, simplex: GjkSimplex, v: Vec3): void {
    const pts: Vec3[] = [];
    for (let i = 0; i < simplex.count; i++) pts.push(vec3.clone(simplex.w[i]));
    this.steps.push({ simplex: pts, v: vec3.clone(v) });
  }
}

/** A new empty simplex (allocates). */
export function makeGjkSimplex(): GjkSimplex {
  const mk = () => [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
  return { count: 0, w: mk(), a: mk(), b: mk(), weights: new Float64Array(4) };
}

/** A new zeroed GJK result (allocates). */
export function makeGjkResult(): GjkResult {
  return {
    status: GjkStatus.Separated,
    distance: 0,
    pointA: vec3.create(),
    pointB: vec3.create(),
    direction: vec3.create(1, 0, 0),
    iterations: 0,
    converged: true,
    unproven: false,
    roundingContact: false,
    simplex: makeGjkSimplex(),
  };
}

/** out = src (copies count, points and weights). */
export function copySimplex(out: GjkSimplex, src: GjkSimplex): GjkSimplex {
  out.count = src.count;
  for (let i = 0; i < src.count; i++) {
    vec3.copy(out.w[i], src.w[i]);
    vec3.copy(out.a[i], src.a[i]);
    vec3.copy(out.b[i], src.b[i]);
    out.weights[i] = src.weights[i];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Signed-volumes sub-algorithm (Montanari, Petrinic & Barbieri 2017, §3).
// Each routine writes barycentric weights into `lam` (indexed by the simplex's vertex index)
// and returns the bit mask of the vertices with positive weight.

const DEG = GJK_DEGENERATE_SIMPLEX_TOLERANCE;
const e1 = vec3.create();
const e2 = vec3.create();
const e3 = vec3.create();
const nrm = vec3.create();
const proj = vec3.create();
const lamEdge = new Float64Array(4);
const lamFace = new Float64Array(4);
const lamBest = new Float64Array(4);

/**
 * Scratch for results that would otherwise cross a call as a returned double (boxed when V8 does
 * not inline the call, as under the mesh pairs' deep call chains): [0] |Σ λ W|² of
 * {@link weightedLengthSq}, [1] |v|² of {@link reduceSimplex}, [2] the length of
 * {@link tryNormalizeScaled}.
 */
const scratch = new Float64Array(3);

/** |a| as {@link hypot3} computes it, for the components of `a` (its common case inline). */
function lengthInto(a: Vec3, out: Float64Array, i: number): void {
  const x = a.x;
  const y = a.y;
  const z = a.z;
  const s = x * x + y * y + z * z;
  // Two stores: a conditional merging √s with hypot3's tagged result would box √s.
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) out[i] = Math.sqrt(s);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (x === 0 && y === 0 && z === 0) out[i] = 0;
  else out[i] = hypot3(x, y, z);
}

/** scratch[0] = |Σ lam_i W_i|² over the vertices of `mask`. */
function weightedLengthSq(W: Vec3[], lam: Float64Array, mask: number): void {
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < 4; i++) {
    if (mask & (1 << i)) {
      x += lam[i] * W[i].x;
      y += lam[i] * W[i].y;
      z += lam[i] * W[i].z;
    }
  }
  scratch[0] = x * x + y * y + z * z;
}

/** Closest point of segment W[i]W[j] to the origin. */
function s1d(W: Vec3[], i: number, j: number, lam: Float64Array): number {
  const p = W[i];
  const q = W[j];
  const ex = q.x - p.x;
  const ey = q.y - p.y;
  const ez = q.z - p.z;
  const ee = ex * ex + ey * ey + ez * ez;
  const t = ee > 0 ? -(p.x * ex + p.y * ey + p.z * ez) / ee : 0;
  if (!(t > 0)) {
    lam[i] = 1;
    return 1 << i;
  }
  if (t >= 1) {
    lam[j] = 1;
    return 1 << j;
  }
  lam[i] = 1 - t;
  lam[j] = t;
  return (1 << i) | (1 << j);
}

/** Best of the segment sub-problems among (i,j), (j,k), (i,k) selected by `which` bits 0..2. */
function s2dEdges(
  W: Vec3[],
  i: number,
  j: number,
  k: number,
  which: number,
  lam: Float64Array,
): number {
  let best = Infinity;
  let bestMask = 1 << i;
  for (let e = 0; e < 3; e++) {
    if (!(which & (1 << e))) continue;
    lamEdge.fill(0);
    const m = s1d(W, e === 0 ? j : i, e === 2 ? j : k, lamEdge);
    weightedLengthSq(W, lamEdge, m);
    const d = scratch[0];
    if (d < best) {
      best = d;
      bestMask = m;
      lam[i] = lamEdge[i];
      lam[j] = lamEdge[j];
      lam[k] = lamEdge[k];
    }
  }
  if (best === Infinity) lam[i] = 1;
  return bestMask;
}

/** Closest point of triangle W[i]W[j]W[k] to the origin. */
function s2d(W: Vec3[], i: number, j: number, k: number, lam: Float64Array): number {
  const a = W[i];
  const b = W[j];
  const c = W[k];
  vec3.sub(e1, b, a);
  vec3.sub(e2, c, a);
  vec3.cross(nrm, e1, e2);
  // Dot products, lengths and areas written out: a double returned by a call V8 does not
  // inline is boxed (allocated).
  const nn = nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z;
  const ee1 = e1.x * e1.x + e1.y * e1.y + e1.z * e1.z;
  const ee2 = e2.x * e2.x + e2.y * e2.y + e2.z * e2.z;
  if (!(nn > DEG * DEG * ee1 * ee2)) {
    return s2dEdges(W, i, j, k, 7, lam);
  }
  // Projection of the origin on the plane, then 2D signed areas on the best coordinate plane.
  const t = (nrm.x * a.x + nrm.y * a.y + nrm.z * a.z) / nn;
  proj.x = nrm.x * t;
  proj.y = nrm.y * t;
  proj.z = nrm.z * t;
  const axis = vec3.maxAbsAxis(nrm);
  // (u, v) = (y, z), (x, z) or (x, y): the plane of the two other axes.
  const au = axis === 0 ? a.y : a.x;
  const av = axis === 2 ? a.y : a.z;
  const bu = axis === 0 ? b.y : b.x;
  const bv = axis === 2 ? b.y : b.z;
  const cu = axis === 0 ? c.y : c.x;
  const cv = axis === 2 ? c.y : c.z;
  const pu = axis === 0 ? proj.y : proj.x;
  const pv = axis === 2 ? proj.y : proj.z;
  // Twice the signed areas of the 2D triangles (abc, pbc, apc, abp): (q − p) × (r − p).
  const mu = (bu - au) * (cv - av) - (bv - av) * (cu - au);
  const ci = (bu - pu) * (cv - pv) - (bv - pv) * (cu - pu);
  const cj = (pu - au) * (cv - av) - (pv - av) * (cu - au);
  const ck = (bu - au) * (pv - av) - (bv - av) * (pu - au);
  const oi = ci * mu >= 0;
  const oj = cj * mu >= 0;
  const ok = ck * mu >= 0;
  if (oi && oj && ok) {
    const sum = ci + cj + ck;
    lam[i] = ci / sum;
    lam[j] = cj / sum;
    lam[k] = ck / sum;
    return (lam[i] > 0 ? 1 << i : 0) | (lam[j] > 0 ? 1 << j : 0) | (lam[k] > 0 ? 1 << k : 0);
  }
  // Edge opposite i is (j,k) = bit 0; opposite j is (i,k) = bit 1; opposite k is (i,j) = bit 2.
  const which = (oi ? 0 : 1) | (oj ? 0 : 2) | (ok ? 0 : 4);
  return s2dEdges(W, i, j, k, which, lam);
}

const FACE_I = [1, 0, 0, 0];
const FACE_J = [2, 2, 1, 1];
const FACE_K = [3, 3, 3, 2];

/** The three edge lengths of {@link s3d}. */
const lens = new Float64Array(3);

/** The signed volumes of {@link s3d} with the origin for each vertex, and their roundings. */
const cof = new Float64Array(4);
const cofErr = new Float64Array(4);

/**
 * A multiple of the rounding bound of {@link signedVolume}'s volumes over which their sum decides
 * the origin's side of every face in {@link s3d}.
 */
const SIGNED_VOLUME_MARGIN = 64;

/**
 * cof[i] = det(x, y, z) = x·((y − x) × (z − x)) (and its cyclic shifts), expanded at the vertex
 * opposite the longest edge so the cross product is of the two shorter edges; cofErr[i] bounds
 * its rounding, 8ε·|base|·|e|·|e'| (a cross product and a dot product of rounded differences).
 */
function signedVolume(x: Vec3, y: Vec3, z: Vec3, out: Float64Array, i: number): void {
  // Edge opposite x is yz, opposite y is zx, opposite z is xy.
  const yz = vec3.distanceSq(y, z);
  const zx = vec3.distanceSq(z, x);
  const xy = vec3.distanceSq(x, y);
  let o = x;
  let p = y;
  let q = z;
  if (zx >= yz && zx >= xy) {
    o = y;
    p = z;
    q = x;
  } else if (xy >= yz && xy >= zx) {
    o = z;
    p = x;
    q = y;
  }
  vec3.sub(e1, p, o);
  vec3.sub(e2, q, o);
  vec3.cross(nrm, e1, e2);
  out[i] = o.x * nrm.x + o.y * nrm.y + o.z * nrm.z;
  cofErr[i] =
    8 *
    2 ** -52 *
    Math.sqrt(
      vec3.lengthSq(o) *
        (e1.x * e1.x + e1.y * e1.y + e1.z * e1.z) *
        (e2.x * e2.x + e2.y * e2.y + e2.z * e2.z),
    );
}

/** Closest point of tetrahedron W[0..3] to the origin. */
function s3d(W: Vec3[], lam: Float64Array): number {
  const p0 = W[0];
  const p1 = W[1];
  const p2 = W[2];
  const p3 = W[3];
  vec3.sub(e1, p1, p0);
  vec3.sub(e2, p2, p0);
  vec3.sub(e3, p3, p0);
  vec3.cross(nrm, e2, e3);
  let det = e1.x * nrm.x + e1.y * nrm.y + e1.z * nrm.z;
  lengthInto(e1, lens, 0);
  lengthInto(e2, lens, 1);
  lengthInto(e3, lens, 2);
  const scale = lens[0] * lens[1] * lens[2];
  let which = 15;
  let flat = !(Math.abs(det) > DEG * scale);
  if (flat) {
    // Thin against its edges' product, yet its volume can stand far above its rounding: a
    // needle (a small box's face and a vertex of a hull 1.3e5 away, the origin 0.09 inside it;
    // issue 16, a box straddling a hull's edge "apart by 0.0888", 0.17 deep) has heights far
    // above rounding, and the faces' minimum below is then a gap where the sets overlap. Each
    // signed volume taken on its face's two shorter edges (rounded to about ε·|p|·|e|·|e'|, not
    // ε·|p|³), the volume their sum: decided when it exceeds the sum of their roundings.
    signedVolume(p1, p2, p3, cof, 0);
    signedVolume(p0, p2, p3, cof, 1);
    signedVolume(p0, p1, p3, cof, 2);
    signedVolume(p0, p1, p2, cof, 3);
    cof[1] = -cof[1];
    cof[3] = -cof[3];
    const vol = cof[0] + cof[1] + cof[2] + cof[3];
    const err = cofErr[0] + cofErr[1] + cofErr[2] + cofErr[3];
    if (Math.abs(vol) > SIGNED_VOLUME_MARGIN * err) {
      flat = false;
      det = vol;
    }
  } else {
    // Signed volumes with the origin in place of each vertex (cofactors of the last row).
    vec3.cross(nrm, p2, p3);
    cof[0] = p1.x * nrm.x + p1.y * nrm.y + p1.z * nrm.z;
    cof[1] = -(p0.x * nrm.x + p0.y * nrm.y + p0.z * nrm.z);
    vec3.cross(nrm, p1, p3);
    cof[2] = p0.x * nrm.x + p0.y * nrm.y + p0.z * nrm.z;
    vec3.cross(nrm, p1, p2);
    cof[3] = -(p0.x * nrm.x + p0.y * nrm.y + p0.z * nrm.z);
  }
  if (!flat) {
    const c0 = cof[0];
    const c1 = cof[1];
    const c2 = cof[2];
    const c3 = cof[3];
    const o0 = c0 * det >= 0;
    const o1 = c1 * det >= 0;
    const o2 = c2 * det >= 0;
    const o3 = c3 * det >= 0;
    if (o0 && o1 && o2 && o3) {
      const sum = c0 + c1 + c2 + c3;
      lam[0] = c0 / sum;
      lam[1] = c1 / sum;
      lam[2] = c2 / sum;
      lam[3] = c3 / sum;
      return 15;
    }
    which = (o0 ? 0 : 1) | (o1 ? 0 : 2) | (o2 ? 0 : 4) | (o3 ? 0 : 8);
  }
  let best = Infinity;
  let bestMask = 1;
  lam[0] = 1;
  for (let f = 0; f < 4; f++) {
    if (!(which & (1 << f))) continue;
    lamFace.fill(0);
    const m = s2d(W, FACE_I[f], FACE_J[f], FACE_K[f], lamFace);
    weightedLengthSq(W, lamFace, m);
    const d = scratch[0];
    if (d < best) {
      best = d;
      bestMask = m;
      lam.set(lamFace);
    }
  }
  return bestMask;
}

/**
 * Reduces `s` to the face supporting its point closest to the origin; writes that point to `v`
 * and |v|² to scratch[1]. A full tetrahedron holding the origin keeps count 4 (v = 0).
 */
function reduceSimplex(s: GjkSimplex, v: Vec3): void {
  lamBest.fill(0);
  let mask: number;
  switch (s.count) {
    case 1:
      lamBest[0] = 1;
      mask = 1;
      break;
    case 2:
      mask = s1d(s.w, 0, 1, lamBest);
      break;
    case 3:
      mask = s2d(s.w, 0, 1, 2, lamBest);
      break;
    default:
      mask = s3d(s.w, lamBest);
      break;
  }
  if (mask === 0) {
    mask = 1;
    lamBest[0] = 1;
  }
  // Compact: keep the vertices in the mask, in order.
  let n = 0;
  for (let i = 0; i < s.count; i++) {
    if (!(mask & (1 << i))) continue;
    if (n !== i) {
      vec3.copy(s.w[n], s.w[i]);
      vec3.copy(s.a[n], s.a[i]);
      vec3.copy(s.b[n], s.b[i]);
    }
    s.weights[n] = lamBest[i];
    n++;
  }
  s.count = n;
  simplexClosestPoint(v, s);
  scratch[1] = n === 4 ? 0 : v.x * v.x + v.y * v.y + v.z * v.z;
}

/**
 * v = the point closest to the origin of the affine hull of the reduced simplex `s` (1 to 3
 * points with their weights; a tetrahedron gives 0). Σ λ_i w_i alone carries an absolute error
 * of about ε·max|w_i| in every direction, so when |v| is far below the simplex's size (a long
 * edge or a wide face passing near the origin) its direction is mostly rounding: v·w_i then
 * differs from |v|² by as much as |v|² itself, and the termination tests (duplicate support
 * point, lower bound v·w) stop GJK with a wrong distance. So the segment case takes one step of
 * iterative refinement (remove the component of v along the edge), and the triangle case is
 * the projection of the origin on the plane, n (n·w_0)/|n|²: both leave v orthogonal to the
 * simplex up to ε|v|, which is what the tests assume (van den Bergen 2003, §4.3.4, on the
 * accuracy of v; Montanari, Petrinic & Barbieri 2017, §3.2, project the same way).
 */
function simplexClosestPoint(out: Vec3, s: GjkSimplex): void {
  const n = s.count;
  const W = s.w;
  if (n === 1) {
    vec3.copy(out, W[0]);
    return;
  }
  if (n === 4) {
    vec3.set(out, 0, 0, 0);
    return;
  }
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < n; i++) {
    const l = s.weights[i];
    x += l * W[i].x;
    y += l * W[i].y;
    z += l * W[i].z;
  }
  out.x = x;
  out.y = y;
  out.z = z;
  if (n === 2) {
    vec3.sub(e1, W[1], W[0]);
    const ee = e1.x * e1.x + e1.y * e1.y + e1.z * e1.z;
    if (ee > 0 && Number.isFinite(ee)) {
      const k = -(out.x * e1.x + out.y * e1.y + out.z * e1.z) / ee;
      out.x = out.x + e1.x * k;
      out.y = out.y + e1.y * k;
      out.z = out.z + e1.z * k;
    }
    return;
  }
  vec3.sub(e1, W[1], W[0]);
  vec3.sub(e2, W[2], W[0]);
  vec3.cross(nrm, e1, e2);
  const nn = nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z;
  if (nn > 0 && Number.isFinite(nn)) {
    const w0 = W[0];
    const t = (nrm.x * w0.x + nrm.y * w0.y + nrm.z * w0.z) / nn;
    if (Number.isFinite(t)) {
      out.x = nrm.x * t;
      out.y = nrm.y * t;
      out.z = nrm.z * t;
    }
  }
}

/**
 * The weights of a 2-point simplex `s` recomputed as the origin's projection on its edge,
 * λ₁ = −w₀·e/|e|² (e = w₁ − w₀), when that lies on the edge: the weights the reduction left
 * carry its own rounding, which {@link simplexClosestPoint}'s refinement of v removes from v but
 * not from the witnesses Σ λᵢaᵢ, Σ λᵢbᵢ. Their difference then is v to the rounding of the
 * points, and a margin added along v's direction keeps them facing (issue 16: a box's face by a
 * capsule's side, the witnesses 4.9e-9 apart sideways at a gap of 1e-10).
 */
function edgeWeights(s: GjkSimplex): void {
  const w0 = s.w[0];
  vec3.sub(e1, s.w[1], w0);
  const ee = e1.x * e1.x + e1.y * e1.y + e1.z * e1.z;
  if (!(ee > 0 && Number.isFinite(ee))) return;
  const t = -(w0.x * e1.x + w0.y * e1.y + w0.z * e1.z) / ee;
  if (!(t >= 0 && t <= 1)) return;
  s.weights[0] = 1 - t;
  s.weights[1] = t;
}

/**
 * outA, outB = the witness points Σ weights·a_i, Σ weights·b_i of simplex `s` (A's frame).
 */
export function simplexWitnesses(outA: Vec3, outB: Vec3, s: GjkSimplex): void {
  vec3.set(outA, 0, 0, 0);
  vec3.set(outB, 0, 0, 0);
  for (let i = 0; i < s.count; i++) {
    // outA += a_i·λ_i, outB += b_i·λ_i, written out (no double passed to a call).
    const l = s.weights[i];
    const a = s.a[i];
    const b = s.b[i];
    outA.x = outA.x + a.x * l;
    outA.y = outA.y + a.y * l;
    outA.z = outA.z + a.z * l;
    outB.x = outB.x + b.x * l;
    outB.y = outB.y + b.y * l;
    outB.z = outB.z + b.z * l;
  }
}

/**
 * out = a / |a|, robust for lengths down to the smallest subnormal (the components are scaled
 * by their largest magnitude first, so 1/|a| cannot overflow). Returns 0 and leaves `out`
 * unchanged when `a` is zero or not finite; otherwise returns a positive number.
 */
export function normalizeScaled(out: Vec3, a: Vec3): number {
  return tryNormalizeScaled(out, a) ? scratch[2] : 0;
}

/**
 * {@link normalizeScaled} returning whether it normalized (a boolean crosses a call unboxed; a
 * double returned by a call V8 does not inline is allocated).
 */
export function tryNormalizeScaled(out: Vec3, a: Vec3): boolean {
  const m = Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z));
  if (!(m > 0) || !Number.isFinite(m)) return false;
  const x = a.x / m;
  const y = a.y / m;
  const z = a.z / m;
  const len = Math.sqrt(x * x + y * y + z * z);
  out.x = x / len;
  out.y = y / len;
  out.z = z / len;
  scratch[2] = m * len;
  return true;
}

/**
 * Core distance, relative to the Minkowski difference's size, under which a stalled GJK run
 * that found no separating axis reports the sets intersecting: well above the 1e-12 that a
 * sliver simplex's rounding reaches, well below any gap the distance bar could tell apart.
 */
const GJK_STALL_TOUCH = 2 ** -30;

const v = vec3.create();
const negV = vec3.create();
const wA = vec3.create();
const wB = vec3.create();
const w = vec3.create();
const lastDir = vec3.create();
const best = makeGjkSimplex();

/**
 * Runs GJK on the cores of `a` and `b` (support maps in the same frame — A's, with B posed by
 * `bInA`) and writes `out`.
 *
 * - `initialDir`: warm start, a guess of the separating axis from A toward B (last frame's
 *   `out.direction`, or B's centre minus A's); null or zero uses +x.
 * - `maxDistance` (scene units, core distance): stop as soon as a separating axis proves the
 *   distance exceeds it (status BeyondMaxDistance). Infinity (default) computes the distance.
 * - `trace`: optional per-iteration recorder.
 *
 * Returns `out`: status, core `distance`, closest points (A's frame), unit `direction` from A
 * toward B, the final simplex. Never throws; never returns NaN for finite input.
 * Sources: Gilbert, Johnson & Keerthi 1988; van den Bergen 2003, §4.3.4 (termination);
 * Montanari, Petrinic & Barbieri 2017 (signed volumes).
 */
export function gjk(
  out: GjkResult,
  a: SupportMap,
  b: SupportMap,
  initialDir: Vec3 | null = null,
  maxDistance = Infinity,
  trace?: GjkTrace,
): GjkResult {
  gjkLimit[0] = maxDistance;
  return gjkToLimit(out, a, b, initialDir, trace);
}

/**
 * [0] the `maxDistance` of {@link gjkToLimit}: a computed double passed to a call V8 does not
 * inline is boxed (allocated), as under the mesh pairs' deep call chains, so hot callers write it
 * here. [1] the margins (scene units, ≥ 0) the caller will subtract from the core distance, read
 * and reset to 0 by each run: the relative termination tolerance then applies to |v| − margins,
 * the gap or depth the caller reports, not to |v| (with a capsule of radius 4.4e5 by a box of
 * 1.7e-8, 1e-12 of the core distance was 1.4e-7 on a gap that was 0; issue 16).
 */
export const gjkLimit = new Float64Array(2);

/**
 * [0] after a run that ended on its gap test (termination 1): v·w/|v| for the final v and its
 * support point w of A − B, the separation along v, a lower bound on the distance (up to the
 * rounding of the support points); NaN after any other ending. A typed-array slot: a double
 * stored in a module variable or a result field is boxed.
 */
export const gjkLowerIo = new Float64Array(1);

/** {@link gjk} with `maxDistance` read from `gjkLimit[0]`, the margins from `gjkLimit[1]`. */
export function gjkToLimit(
  out: GjkResult,
  a: SupportMap,
  b: SupportMap,
  initialDir: Vec3 | null,
  trace?: GjkTrace,
): GjkResult {
  const maxDistance = gjkLimit[0];
  const margin = gjkLimit[1];
  gjkLimit[1] = 0;
  gjkLowerIo[0] = Number.NaN;
  const s = out.simplex;
  s.count = 0;
  if (initialDir && tryNormalizeScaled(v, initialDir)) {
    vec3.negate(v, v);
  } else {
    vec3.set(v, -1, 0, 0);
  }
  lastDir.x = -v.x || 0;
  lastDir.y = -v.y || 0;
  lastDir.z = -v.z || 0;
  let vv = Infinity;
  let bestVV = Infinity;
  let stalls = 0;
  let maxWW = 0;
  let status: GjkStatus = GjkStatus.Separated;
  let converged = false;
  let lowerBound = 0;
  let iter = 0;
  // Stopped without progress while the last support point lay beyond the origin (v·w ≤ 0):
  // no separating axis was found.
  let unproven = false;
  // Intersecting by |v| at the rounding level on fewer than four points.
  let roundingContact = false;
  const round2 = GJK_ROUNDING_TOLERANCE * GJK_ROUNDING_TOLERANCE;
  for (; iter < GJK_MAX_ITERATIONS; iter++) {
    vec3.negate(negV, v);
    a.support(wA, negV);
    b.support(wB, v);
    vec3.sub(w, wA, wB);
    const vw = v.x * w.x + v.y * w.y + v.z * w.z;
    const vLenSq = v.x * v.x + v.y * v.y + v.z * v.z;
    maxWW = Math.max(maxWW, w.x * w.x + w.y * w.y + w.z * w.z);
    // A lower bound within rounding of maxDistance is not proof: touching stays touching.
    const limit = maxDistance + GJK_ROUNDING_TOLERANCE * Math.sqrt(maxWW);
    if (vw > 0 && vw * vw > limit * limit * vLenSq) {
      status = GjkStatus.BeyondMaxDistance;
      lowerBound = vw / Math.sqrt(vLenSq);
      if (s.count === 0) {
        vec3.copy(s.w[0], w);
        vec3.copy(s.a[0], wA);
        vec3.copy(s.b[0], wB);
        s.weights[0] = 1;
        s.count = 1;
      }
      converged = true;
      break;
    }
    if (s.count > 0) {
      // |v|·(|v| − margins) for |v|²: the tolerance relative to the caller's gap or depth.
      const rel = margin > 0 ? Math.sqrt(vv) * Math.abs(Math.sqrt(vv) - margin) : vv;
      if (vv - vw <= GJK_TOLERANCE * rel + GJK_SUPPORT_ROUNDING * Math.sqrt(vv * maxWW)) {
        // The separation along v of its last support point: a lower bound on the distance.
        gjkLowerIo[0] = vw / Math.sqrt(vLenSq);
        converged = true;
        break;
      }
      let dup = false;
      for (let i = 0; i < s.count; i++) if (vec3.exactEquals(s.w[i], w)) dup = true;
      if (dup) {
        converged = true;
        unproven = vw <= 0;
        break;
      }
    }
    const n = s.count;
    vec3.copy(s.w[n], w);
    vec3.copy(s.a[n], wA);
    vec3.copy(s.b[n], wB);
    s.count = n + 1;
    reduceSimplex(s, v);
    const vvNew = scratch[1];
    if (trace) trace.record(iter, s, v);
    if (s.count === 4 || vvNew <= round2 * maxWW) {
      if (s.count < 4 && vvNew > 0) {
        // |v| at GJK's rounding tolerance (1e-13 of the support points' size: hundreds of
        // ulps) is no proof of contact: one more support pair along the new v, and a
        // separation along it beyond the touching tolerance (32 ulps of the size, as the
        // callers' touching test) is a gap (issue 16: a triangle 9.1e-13 below a box of 42
        // and a cone's rim 1.7e-18 from a box of 6e-5 were "intersecting"). Written out: no
        // double crosses a call.
        vec3.negate(negV, v);
        a.support(wA, negV);
        b.support(wB, v);
        const sx = wA.x - wB.x;
        const sy = wA.y - wB.y;
        const sz = wA.z - wB.z;
        const sep = v.x * sx + v.y * sy + v.z * sz;
        const ww = Math.max(maxWW, sx * sx + sy * sy + sz * sz);
        if (sep > 0 && sep * sep > TOUCH_TOLERANCE * TOUCH_TOLERANCE * ww * vvNew) {
          vv = vvNew;
          if (vvNew < bestVV) {
            bestVV = vvNew;
            copySimplex(best, s);
          }
          vec3.negate(lastDir, v);
          converged = true;
          iter++;
          break;
        }
      }
      status = GjkStatus.Intersecting;
      // Not a tetrahedron holding the origin: contact by rounding only (`roundingContact`).
      roundingContact = s.count < 4;
      converged = true;
      iter++;
      break;
    }
    if (vvNew < bestVV) {
      bestVV = vvNew;
      stalls = 0;
      copySimplex(best, s);
    } else if (++stalls > GJK_MAX_STALLED_ITERATIONS) {
      converged = true;
      unproven = vw <= 0;
      iter++;
      break;
    }
    // A stall (|v|² not smaller) passed the gap test above, so the support point lies well
    // beyond v: the progress is below the rounding of |v|² (a long edge or a wide face nearly
    // through the origin), yet the new v points elsewhere. Keep iterating from the new simplex;
    // the best one is restored at the end.
    vv = vvNew;
    vec3.negate(lastDir, v);
  }
  if (status === GjkStatus.Separated && vv > bestVV) {
    copySimplex(s, best);
    // The lower bound was the separation along the last v, not along the kept simplex's: with
    // a face of 1e6 the two directions 4e-13 apart differ by 1.2e-6 in separation (a rounded
    // hull of 1e-6 5.3e-6 from a hull of 1e6, its normal achieving 4.1e-6).
    gjkLowerIo[0] = Number.NaN;
  }
  // A stall with no separating axis and |v| at the rounding level of a sliver simplex (a long
  // thin triangle nearly through the origin, whose reduction loses every new support point):
  // the origin is within |v| of A − B and nothing separates it. The distance stays |v| (an
  // upper bound); `unproven` tells the caller that the sets may touch or overlap by less than
  // GJK can resolve (issue 16: intersects false for a pair in contact).
  out.unproven =
    status === GjkStatus.Separated &&
    unproven &&
    bestVV <= GJK_STALL_TOUCH * GJK_STALL_TOUCH * maxWW;
  out.roundingContact = status === GjkStatus.Intersecting && roundingContact;
  out.status = status;
  out.iterations = iter;
  out.converged = converged;
  if (status === GjkStatus.Separated && s.count === 2) edgeWeights(s);
  simplexWitnesses(out.pointA, out.pointB, s);
  if (status === GjkStatus.Intersecting) {
    out.distance = 0;
  } else if (status === GjkStatus.BeyondMaxDistance) {
    out.distance = lowerBound;
  } else {
    // v of the kept simplex, orthogonal to it (not pointA − pointB, which carries the rounding
    // of the shapes' coordinates, 1e6 away from the origin, rather than of the simplex).
    simplexClosestPoint(v, s);
    lengthInto(v, scratch, 0);
    out.distance = scratch[0];
    if (out.distance > 0) vec3.negate(lastDir, v);
  }
  if (!tryNormalizeScaled(out.direction, lastDir)) vec3.set(out.direction, 1, 0, 0);
  return out;
}
