/**
 * Refinement of a contact normal on the unit sphere. For convex sets A and B (B already posed in
 * A's frame) the overlap along a unit direction n is f(n) = h_A(n) + h_B(−n), with h the
 * support function: the penetration depth is min over unit n of f (when positive) and the
 * distance is −min f (when negative). EPA's polytope is only a coarse model of a curved
 * Minkowski difference (its answer is good to EPA_TOLERANCE, 1e-4), and GJK's lower bound on a
 * curved pair converges slowly; both end near the optimum, where this routine takes over.
 *
 * The gradient of the support function is the support point itself: ∇h_{A−B}(n) = s_A(n) −
 * s_B(−n) = w (van den Bergen 2003, §4.3.1), so the tangential gradient on the sphere is
 * g = w − (w·n) n, zero at the optimum (w parallel to n: the deepest point). The descent
 * n ← normalize(n − α g) takes Barzilai–Borwein step lengths α (Barzilai & Borwein 1988) with
 * backtracking (every accepted step lowers f), then a pattern search (8 tangent probes, step
 * doubled after a success, halved when none improves) settles ridges where a polytope's support jumps and the gradient
 * is not continuous. Where one support is an edge the optimum lies on the great circle normal to
 * it, which 8 probes do not follow: secant steps along that circle finish it, and two edges give
 * their cross product (`followRidge`). Both are bounded (REFINE_DESCENT_ITERATIONS, REFINE_PATTERN_ITERATIONS);
 * the result records what was achieved: the last tangential gradient and the last probe step,
 * so a caller can state its error. Every evaluated f(n) is exact up to rounding for the n it
 * was evaluated at (an upper bound on the depth, a lower bound on the distance). No allocation.
 */

import {
  REFINE_DESCENT_ITERATIONS,
  REFINE_MIN_ANGLE,
  REFINE_PATTERN_ITERATIONS,
} from "../constants.js";
import { hypotIo } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { SupportMap } from "./support.js";

/** The outcome of {@link refineOverlapNormal}. */
export interface NormalRefinement {
  /** The refined unit direction (A toward B), A's frame. */
  normal: Vec3;
  /** f(normal) = h_A(n) + h_B(−n): the overlap (> 0) or minus the gap (< 0), scene units. */
  overlap: number;
  /** A's support point along the normal (A's frame). */
  pointA: Vec3;
  /** B's support point along −normal (A's frame). */
  pointB: Vec3;
  /** Length of the tangential gradient |w − (w·n)n| at the end, scene units (0 at a smooth optimum). */
  gradient: number;
  /** The last pattern-search step, radians: the angular resolution reached. */
  step: number;
  /** Number of support evaluations used. */
  evaluations: number;
  /**
   * How far the caller's hints were moved along the normal onto their shapes' supporting planes
   * (the larger of the two), or |overlap| when one witness is placed on the other's line, scene
   * units; 0 when the witnesses are support points. A witness moved by more than rounding came
   * from another feature (EPA's face before the normal changed, the other shape's support) and
   * can lie beside its shape's supporting face or edge.
   */
  placed: number;
}

/** A fresh refinement record. */
export function makeNormalRefinement(): NormalRefinement {
  return {
    normal: vec3.create(1, 0, 0),
    overlap: 0,
    pointA: vec3.create(),
    pointB: vec3.create(),
    gradient: 0,
    step: 0,
    evaluations: 0,
    placed: 0,
  };
}

const sa = vec3.create();
const sb = vec3.create();
const neg = vec3.create();
const w = vec3.create();
/** The tangential gradient at n, and at the trial direction ({@link refineOverlapNormal} swaps the two on a step). */
let g = vec3.create();
const n = vec3.create();
const trial = vec3.create();
const wTrial = vec3.create();
let gTrial = vec3.create();
const ds = vec3.create();
const dy = vec3.create();
const t1 = vec3.create();
const t2 = vec3.create();
let evaluations = 0;

/**
 * [0] f(d) of the last {@link overlap}: a double in a typed array, not a return value (V8 boxes a
 * double returned by a call it does not inline; this one ran thousands of times per step).
 */
const overlapIo = new Float64Array(1);

/** f(d) for unit d into overlapIo[0]; writes the support points to sa, sb and w = sa − sb. */
function overlap(a: SupportMap, b: SupportMap, d: Vec3, wOut: Vec3): void {
  evaluations++;
  a.support(sa, d);
  // vec3.negate and vec3.sub written out: their shared store sites have seen many kinds of
  // object and, inlined here, would store through V8's generic handler, boxing each double.
  neg.x = -d.x;
  neg.y = -d.y;
  neg.z = -d.z;
  b.support(sb, neg);
  wOut.x = sa.x - sb.x;
  wOut.y = sa.y - sb.y;
  wOut.z = sa.z - sb.z;
  overlapIo[0] = d.x * wOut.x + d.y * wOut.y + d.z * wOut.z;
}

/*
 * No double crosses a call below unless the call is certain to be inlined: V8 boxes (allocates)
 * a double passed to or returned by a call it does not inline, and these routines are large
 * enough to spend TurboFan's inlining budget. So vec3's helpers with a double argument or result
 * (addScaled, scale, dot, length, distance) are written out, in their own operation order
 * (bitwise the same results); lengths come through hypotIo (vec3.lengthInto and kin), and doubles
 * between the routines of this file through the Float64Arrays below.
 */

/** out = w − (w·d) d (vec3.addScaled(out, w, d, −vec3.dot(w, d)) written out). */
function tangential(out: Vec3, wv: Vec3, d: Vec3): Vec3 {
  const k = -(wv.x * d.x + wv.y * d.y + wv.z * d.z);
  out.x = wv.x + d.x * k;
  out.y = wv.y + d.y * k;
  out.z = wv.z + d.z * k;
  return out;
}

/** v = v / Math.hypot(v.x, v.y, v.z) when that is positive and finite (returns true). */
function normalizeInPlace(v: Vec3): boolean {
  vec3.mathLengthInto(v);
  const l = hypotIo[0];
  if (!(l > 0) || !Number.isFinite(l)) return false;
  const k = 1 / l;
  v.x = v.x * k;
  v.y = v.y * k;
  v.z = v.z * k;
  return true;
}

/** [0] the angle of the next {@link tiltProbe}, radians. */
const tiltIo = new Float64Array(1);

/**
 * trial = d + t1·(cos_k·θ) + t2·(sin_k·θ), θ = tiltIo[0]: probe k of 8 around unit d (t1, t2 a
 * basis of its tangent plane), not yet normalised. Two vec3.addScaled written out.
 */
function tiltProbe(d: Vec3, k: number): void {
  const c = PROBE_COS[k] * tiltIo[0];
  trial.x = d.x + t1.x * c;
  trial.y = d.y + t1.y * c;
  trial.z = d.z + t1.z * c;
  const sn = PROBE_SIN[k] * tiltIo[0];
  trial.x = trial.x + t2.x * sn;
  trial.y = trial.y + t2.y * sn;
  trial.z = trial.z + t2.z * sn;
}

/** Relative gap between f(start) and a certified lower bound under which no refinement runs. */
const REFINE_CERTIFIED = 1e-11;

/** First pattern-search step, radians (grown by doubling when the descent stopped far away). */
const PATTERN_START_ANGLE = 2 ** -20;

/** Relative tangential gradient under which the descent's end is a smooth optimum. */
const SMOOTH_GRADIENT = 2 ** -36;

/** Step growth after a successful pattern-search round. */
const PATTERN_GROWTH = 2;

/** Relative gain of a pattern-search round below which the round counts as a failure. */
const PATTERN_MIN_GAIN = 2 ** -44;

/** Largest pattern-search step, radians. */
const REFINE_MAX_STEP = 0.25;

const PROBE_COS = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2, 0, Math.SQRT1_2];
const PROBE_SIN = [0, Math.SQRT1_2, 1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2];

/** [0] the certified lower bound of a {@link refineOverlapNormal} call whose `bounded` is true. */
export const refineLowerIo = new Float64Array(1);

/**
 * Minimises f(n) = h_A(n) + h_B(−n) over unit n from `start` (any non-zero direction, A's frame):
 * `a` and `b` are the two support maps in A's frame (cores; the caller adds margins). Writes
 * `out` and returns it; `out.overlap` is never above f(start). `bounded`: true when the caller
 * has a certified lower bound on min f (EPA's closest face), written to refineLowerIo[0] (a
 * double passed to a call V8 does not inline is boxed); when f(start) is within 1e-11 of it only
 * the witnesses are placed. `hintA`, `hintB`: witness candidates for flat-on-flat
 * supports (see anchorWitnesses).
 */
export function refineOverlapNormal(
  out: NormalRefinement,
  a: SupportMap,
  b: SupportMap,
  start: Vec3,
  hintA: Vec3 | null = null,
  hintB: Vec3 | null = null,
  bounded = false,
): NormalRefinement {
  const lowerBound = bounded ? refineLowerIo[0] : Number.NEGATIVE_INFINITY;
  evaluations = 0;
  vec3.copy(n, start);
  if (!normalizeInPlace(n)) vec3.set(n, 1, 0, 0);
  overlap(a, b, n, w);
  let f = overlapIo[0];
  vec3.copy(out.pointA, sa);
  vec3.copy(out.pointB, sb);
  tangential(g, w, n);
  // First step: a fraction of the angle the gradient suggests against the set's size.
  vec3.lengthInto(w);
  const size = Math.max(hypotIo[0], Math.abs(f));
  let alpha = size > 0 ? 0.5 / size : 1;
  // A caller's certified lower bound within REFINE_CERTIFIED of f(start): nothing to refine.
  const certified = f - lowerBound <= REFINE_CERTIFIED * Math.abs(f);
  for (let it = 0; !certified && it < REFINE_DESCENT_ITERATIONS; it++) {
    vec3.lengthInto(g);
    const gl = hypotIo[0];
    if (!(gl > 0) || !(alpha * gl > REFINE_MIN_ANGLE)) break;
    const ma = -alpha;
    trial.x = n.x + g.x * ma;
    trial.y = n.y + g.y * ma;
    trial.z = n.z + g.z * ma;
    if (!normalizeInPlace(trial)) break;
    overlap(a, b, trial, wTrial);
    const ft = overlapIo[0];
    if (ft < f) {
      tangential(gTrial, wTrial, trial);
      vec3.sub(ds, trial, n);
      vec3.sub(dy, gTrial, g);
      const sy = ds.x * dy.x + ds.y * dy.y + ds.z * dy.z;
      const ss = ds.x * ds.x + ds.y * ds.y + ds.z * ds.z;
      // Barzilai–Borwein step; doubled when the curvature estimate is not positive.
      alpha = sy > 0 ? ss / sy : alpha * 2;
      vec3.copy(n, trial);
      vec3.copy(w, wTrial);
      // The trial's gradient becomes g by swapping the two vectors (gTrial is written before it
      // is read again): a copy's store into g compiled to a generic store, boxing each coordinate.
      const swap = g;
      g = gTrial;
      gTrial = swap;
      f = ft;
      vec3.copy(out.pointA, sa);
      vec3.copy(out.pointB, sb);
    } else {
      alpha *= 0.25;
    }
  }
  // Pattern search: settles ridges (discontinuous gradients) and confirms the optimum.
  // A smooth optimum (tangential gradient at the rounding level of the support points) needs
  // none: there the overlap is flat to second order.
  let smooth = certified;
  if (!smooth) {
    vec3.lengthInto(g);
    const lg = hypotIo[0];
    vec3.lengthInto(w);
    smooth = lg <= SMOOTH_GRADIENT * hypotIo[0];
  }
  let step = smooth ? 0 : PATTERN_START_ANGLE;
  for (let it = 0; it < REFINE_PATTERN_ITERATIONS && step > REFINE_MIN_ANGLE; it++) {
    vec3.orthonormalBasis(t1, t2, n);
    let improved = false;
    const f0 = f;
    tiltIo[0] = step;
    for (let k = 0; k < 8; k++) {
      tiltProbe(n, k);
      if (!normalizeInPlace(trial)) continue;
      overlap(a, b, trial, wTrial);
      const ft = overlapIo[0];
      if (ft < f) {
        f = ft;
        vec3.copy(n, trial);
        vec3.copy(w, wTrial);
        vec3.copy(out.pointA, sa);
        vec3.copy(out.pointB, sb);
        improved = true;
      }
    }
    // Grow after a success (a long valley is crossed in few rounds), shrink after a failure.
    // A gain at the rounding level is no gain (a ridge would otherwise keep the step forever).
    if (improved && f0 - f <= PATTERN_MIN_GAIN * Math.abs(f0)) improved = false;
    step = improved ? Math.min(step * PATTERN_GROWTH, REFINE_MAX_STEP) : step * 0.5;
  }
  // A smooth optimum (no pattern search) has no ridge to follow.
  if (!certified && step > 0) {
    ridgeIo[0] = f;
    ridgeIo[1] = step;
    followRidge(out, a, b);
    f = ridgeIo[0];
  }
  tangential(g, w, n);
  vec3.copy(out.normal, n);
  out.overlap = f;
  ridgeIo[0] = f;
  ridgeIo[1] = step;
  anchorWitnesses(out, a, b, n, hintA, hintB);
  vec3.lengthInto(g);
  out.gradient = hypotIo[0];
  out.step = step;
  out.evaluations = evaluations;
  return out;
}

/**
 * Sets `out` to the unit direction `d` (A's frame) without refining it: its overlap f(d), the
 * support points along it and the witnesses placed as by {@link refineOverlapNormal} (facing
 * each other along d). For a caller that knows a better normal than the refinement's end, e.g.
 * a face normal the refinement stopped next to. `out.gradient` is the tangential gradient at d.
 */
export function setOverlapNormal(
  out: NormalRefinement,
  a: SupportMap,
  b: SupportMap,
  d: Vec3,
  hintA: Vec3 | null = null,
  hintB: Vec3 | null = null,
): NormalRefinement {
  evaluations = 0;
  vec3.copy(n, d);
  overlap(a, b, n, w);
  const f = overlapIo[0];
  vec3.copy(out.pointA, sa);
  vec3.copy(out.pointB, sb);
  vec3.copy(out.normal, n);
  out.overlap = f;
  ridgeIo[0] = f;
  ridgeIo[1] = 0;
  anchorWitnesses(out, a, b, n, hintA, hintB);
  vec3.lengthInto(tangential(g, w, n));
  out.gradient = hypotIo[0];
  out.step = 0;
  out.evaluations += evaluations;
  return out;
}

const probeA = vec3.create();
const probeB = vec3.create();
const edgeA = vec3.create();
const edgeB = vec3.create();
const edgeP = vec3.create();
const edgeQ = vec3.create();
const ridgeT = vec3.create();
const bestN = vec3.create();
const bestW = vec3.create();
const bestSa = vec3.create();
const bestSb = vec3.create();

/**
 * [0] f and [1] the pattern search's step into {@link followRidge} and {@link anchorWitnesses},
 * [0] the new f out of followRidge; [2] the tilt and [3] the tolerance of {@link supportEdge}.
 */
const ridgeIo = new Float64Array(4);

/**
 * Writes to `edge` the unit direction of the segment supporting `m` along d when its support is
 * one (the support points under 8 tilts of d by the tilt ridgeIo[2] fall on two clusters, each
 * within the tolerance ridgeIo[3], on a line), and returns true; false for a unique point or a
 * face.
 */
function supportEdge(edge: Vec3, m: SupportMap, d: Vec3, sign: number): boolean {
  const tilt = ridgeIo[2];
  const tol = ridgeIo[3];
  vec3.orthonormalBasis(t1, t2, d);
  let count = 0;
  tiltIo[0] = tilt;
  for (let k = 0; k < 8; k++) {
    tiltProbe(d, k);
    normalizeInPlace(trial);
    if (sign < 0) vec3.negate(trial, trial);
    m.support(probeA, trial);
    if (count === 0) {
      vec3.copy(edgeP, probeA);
      count = 1;
    } else if (count === 1) {
      vec3.distanceInto(probeA, edgeP);
      if (hypotIo[0] > tol) {
        vec3.copy(edgeQ, probeA);
        count = 2;
      }
    } else {
      vec3.distanceInto(probeA, edgeP);
      let third = hypotIo[0] > tol;
      if (third) {
        vec3.distanceInto(probeA, edgeQ);
        third = hypotIo[0] > tol;
      }
      if (third) {
        // A third cluster: off the line through the first two means a face.
        vec3.sub(edge, edgeQ, edgeP);
        vec3.sub(ds, probeA, edgeP);
        vec3.cross(dy, edge, ds);
        vec3.lengthInto(dy);
        const off = hypotIo[0];
        vec3.lengthInto(edge);
        if (off > tol * hypotIo[0]) return false;
      }
    }
  }
  if (count < 2) return false;
  vec3.sub(edge, edgeQ, edgeP);
  // A rim or curved surface seen near its kink slides by more than `tol` too, but in proportion
  // to the tilt; an edge's support jumps between its end points whatever the tilt (or, when d is
  // off the edge's ridge by more than the smaller tilt, not at all). Under the tilt times
  // WITNESS_SCALE_RATIO a sliding support spreads that much less, within WITNESS_SCALE_SLACK (a
  // cone's rim taken for an edge stopped the ridge search 1.1e-5 rad short of a box edge on it:
  // depth 2.7e-9 relative too deep, the edge's witness 1.3e-4 off the box).
  vec3.lengthInto(edge);
  const spread = hypotIo[0];
  let small = 0;
  // (c·tilt)·2⁻⁶ = c·(tilt·2⁻⁶) exactly: WITNESS_SCALE_RATIO is a power of two.
  tiltIo[0] = tilt * WITNESS_SCALE_RATIO;
  for (let k = 0; k < 8; k++) {
    tiltProbe(d, k);
    normalizeInPlace(trial);
    if (sign < 0) vec3.negate(trial, trial);
    m.support(probeA, trial);
    if (k === 0) vec3.copy(probeB, probeA);
    else {
      vec3.distanceInto(probeA, probeB);
      small = Math.max(small, hypotIo[0]);
    }
  }
  const expect = spread * WITNESS_SCALE_RATIO;
  if (small <= WITNESS_SCALE_SLACK * expect && small * WITNESS_SCALE_SLACK >= expect) return false;
  return normalizeInPlace(edge);
}

/**
 * The pattern search stalls on a ridge of f, where one support is an edge (the overlap has a kink
 * across the plane normal to the edge, and the optimum lies on that plane): there the normal is
 * constrained to the great circle normal to the edge and f minimised along it by secant steps on
 * its derivative w·t (exact, the edge's end points differing only along the edge), or, with an
 * edge on each side, taken as their cross product (Ericson 2005, §5.2.1). Reads f from
 * ridgeIo[0] and the last pattern-search step from ridgeIo[1]; replaces n, w, the support points
 * in `out` and sets ridgeIo[0] to the new f when no worse than f.
 */
function followRidge(out: NormalRefinement, a: SupportMap, b: SupportMap): void {
  const f = ridgeIo[0];
  const step = ridgeIo[1];
  vec3.lengthInto(out.pointA);
  const la = hypotIo[0];
  vec3.lengthInto(out.pointB);
  const size = Math.max(la, hypotIo[0], Math.abs(f));
  if (!(size > 0)) return;
  const tilt = Math.max(step, WITNESS_PROBE_ANGLE);
  const tol = SUPPORT_FLAT * tilt * size;
  ridgeIo[2] = tilt;
  ridgeIo[3] = tol;
  const onA = supportEdge(edgeA, a, n, 1);
  const onB = supportEdge(edgeB, b, n, -1);
  if (!onA && !onB) return;
  const slack = RIDGE_SLACK * size;
  vec3.copy(bestN, n);
  vec3.copy(bestW, w);
  vec3.copy(bestSa, out.pointA);
  vec3.copy(bestSb, out.pointB);
  let best = f;
  if (onA && onB) {
    vec3.cross(trial, edgeA, edgeB);
    vec3.lengthInto(trial);
    if (hypotIo[0] > RIDGE_PARALLEL && normalizeInPlace(trial)) {
      if (trial.x * n.x + trial.y * n.y + trial.z * n.z < 0) vec3.negate(trial, trial);
      overlap(a, b, trial, wTrial);
      const ft = overlapIo[0];
      if (ft <= best + slack) {
        best = ft;
        vec3.copy(bestN, trial);
        vec3.copy(bestW, wTrial);
        vec3.copy(bestSa, sa);
        vec3.copy(bestSb, sb);
      }
    }
  } else {
    const e = onA ? edgeA : edgeB;
    // Start on the circle: n without its component along the edge.
    const ne = -(n.x * e.x + n.y * e.y + n.z * e.z);
    trial.x = n.x + e.x * ne;
    trial.y = n.y + e.y * ne;
    trial.z = n.z + e.z * ne;
    if (normalizeInPlace(trial)) {
      vec3.copy(ds, trial);
      vec3.cross(ridgeT, e, ds);
      normalizeInPlace(ridgeT);
      // Secant on φ ↦ f'(φ) = w(φ)·t(φ), the circle n(φ) = cos φ·n0 + sin φ·t0.
      let phiPrev = 0;
      overlap(a, b, ds, wTrial);
      let ft = overlapIo[0];
      let dPrev = wTrial.x * ridgeT.x + wTrial.y * ridgeT.y + wTrial.z * ridgeT.z;
      // Along the ridge f is smooth and flat at its minimum: the point kept is the one of least
      // |f'| among those within rounding of the pattern search's f.
      let leastSlope = Number.POSITIVE_INFINITY;
      if (ft <= f + slack) {
        best = ft;
        leastSlope = Math.abs(dPrev);
        vec3.copy(bestN, ds);
        vec3.copy(bestW, wTrial);
        vec3.copy(bestSa, sa);
        vec3.copy(bestSb, sb);
      }
      vec3.lengthInto(wTrial);
      let phi = -dPrev / Math.max(hypotIo[0], size);
      for (let it = 0; it < RIDGE_ITERATIONS; it++) {
        if (!(Math.abs(phi - phiPrev) > REFINE_MIN_ANGLE * 2 ** -8) || !Number.isFinite(phi)) break;
        const c = Math.cos(phi);
        const sn = Math.sin(phi);
        trial.x = ds.x * c;
        trial.y = ds.y * c;
        trial.z = ds.z * c;
        trial.x = trial.x + ridgeT.x * sn;
        trial.y = trial.y + ridgeT.y * sn;
        trial.z = trial.z + ridgeT.z * sn;
        normalizeInPlace(trial);
        overlap(a, b, trial, wTrial);
        ft = overlapIo[0];
        // Tangent of the circle at φ: −sin φ·n0 + cos φ·t0.
        const msn = -sn;
        dy.x = ds.x * msn;
        dy.y = ds.y * msn;
        dy.z = ds.z * msn;
        dy.x = dy.x + ridgeT.x * c;
        dy.y = dy.y + ridgeT.y * c;
        dy.z = dy.z + ridgeT.z * c;
        const dv = wTrial.x * dy.x + wTrial.y * dy.y + wTrial.z * dy.z;
        if (ft <= f + slack && Math.abs(dv) <= leastSlope) {
          best = ft;
          leastSlope = Math.abs(dv);
          vec3.copy(bestN, trial);
          vec3.copy(bestW, wTrial);
          vec3.copy(bestSa, sa);
          vec3.copy(bestSb, sb);
        }
        const den = dv - dPrev;
        const next = den !== 0 ? phi - (dv * (phi - phiPrev)) / den : phi;
        phiPrev = phi;
        dPrev = dv;
        phi = next;
      }
    }
  }
  if (bestN.x === n.x && bestN.y === n.y && bestN.z === n.z) return;
  vec3.copy(n, bestN);
  vec3.copy(w, bestW);
  vec3.copy(out.pointA, bestSa);
  vec3.copy(out.pointB, bestSb);
  ridgeIo[0] = best;
}

/** Overlap increase, relative to the pair's size, within which a ridge point is taken (rounding). */
const RIDGE_SLACK = 2 ** -48;

/** Secant steps along a ridge. */
const RIDGE_ITERATIONS = 24;

/** |e_A × e_B| of unit edges below which they count as parallel. */
const RIDGE_PARALLEL = 2 ** -20;

/**
 * Makes the witnesses face each other along the normal: where one support is unique (a curved
 * surface, a vertex) and the other is a whole face or edge (whose support point is an arbitrary
 * corner of it), the unique one is kept and the other is placed `overlap` behind it along the
 * normal, on the other shape's supporting plane. Uniqueness is judged by how far each support
 * point moves when the normal is tilted by a small probe angle. Reads f from ridgeIo[0] and the
 * pattern search's last step from ridgeIo[1].
 */
function anchorWitnesses(
  out: NormalRefinement,
  a: SupportMap,
  b: SupportMap,
  d: Vec3,
  hintA: Vec3 | null,
  hintB: Vec3 | null,
): void {
  const f = ridgeIo[0];
  const step = ridgeIo[1];
  out.placed = 0;
  const tilt = Math.max(step, WITNESS_PROBE_ANGLE);
  moveIo[4] = tilt;
  supportMoves(out, a, b, d, 0);
  const moveA = moveIo[0];
  const moveB = moveIo[1];
  vec3.lengthInto(out.pointA);
  const flatA = SUPPORT_FLAT * tilt * Math.max(hypotIo[0], Math.abs(f));
  vec3.lengthInto(out.pointB);
  const flatB = SUPPORT_FLAT * tilt * Math.max(hypotIo[0], Math.abs(f));
  // A support that moves beyond `flat` in proportion to the tilt slides over a curved surface or
  // rim (by its radius of curvature times the tilt), unlike a face's or an edge's, which jumps
  // between corners by the feature's size whatever the tilt: a sliding point is exactly on its
  // shape too. `flat` is relative to the witnesses' distance from the frame's origin, so in the
  // frame of a small shape a large one's rim (radius 24 against a cone of 1e-5) had counted as a
  // face, and its witness was moved off it onto the small shape's line (issue 16). Each side's
  // from its own witness: from the larger of the two, a box of 7e-3 inside a capsule of 1.2e3
  // (segment 1e4) had its edge's jump taken for a unique point, the segment's witness placed on
  // the box corner's line, 3.5e-3 beside the segment and 5e-9 off the capsule (issue 16, seed 54).
  if (moveA > flatA || moveB > flatB) {
    moveIo[4] = tilt * WITNESS_SCALE_RATIO;
    supportMoves(out, a, b, d, 2);
  }
  const jumpsA = moveA > flatA && !slides(0);
  const jumpsB = moveB > flatB && !slides(1);
  // Neither jumps (each fixed or sliding: curved or vertex on curved): the support points
  // themselves, each exactly on its surface, with (pointB − pointA)·d = −f; moving one onto the
  // other's line would put it off its shape by the residual tangential gradient.
  if (!jumpsA && !jumpsB) return;
  // Both supports flat (a face or an edge each, e.g. a cylinder's cap on a box face, or a face
  // and a rim sliding fast, a cap seen nearly face-on): the caller's hints (EPA's witnesses,
  // blends of support points over the overlap) moved along the normal onto each shape's
  // supporting plane.
  // A side that slides keeps its support point, exactly on its shape and on its supporting
  // plane as the other's moved hint is on its own (a cone's rim sliding fast near its base
  // normal against a box edge had been moved 7.6e-9 off the cone).
  if (hintA && hintB && moveA > flatA && moveB > flatB) {
    const pa = out.pointA;
    const pb = out.pointB;
    const hA = d.x * pa.x + d.y * pa.y + d.z * pa.z;
    const hB = d.x * pb.x + d.y * pb.y + d.z * pb.z;
    if (jumpsA) {
      const s = hA - (d.x * hintA.x + d.y * hintA.y + d.z * hintA.z);
      pa.x = hintA.x + d.x * s;
      pa.y = hintA.y + d.y * s;
      pa.z = hintA.z + d.z * s;
      out.placed = Math.abs(s);
    }
    if (jumpsB) {
      const s = hB - (d.x * hintB.x + d.y * hintB.y + d.z * hintB.z);
      pb.x = hintB.x + d.x * s;
      pb.y = hintB.y + d.y * s;
      pb.z = hintB.z + d.z * s;
      out.placed = Math.max(out.placed, Math.abs(s));
    }
    return;
  }
  // The one that jumps (of two, the one that moves more) is placed on the other's line: `f`
  // along the normal from a point of the other shape, on its own shape only where the normal is
  // the optimum's exactly (a normal 1.8e-6 rad off a small box's edge ridge kept its corner, and
  // a capsule's witness placed from it lay 4e-7 beside the segment, 8e-14 off the capsule;
  // issue 16), so it counts as placed.
  const pa = out.pointA;
  const pb = out.pointB;
  out.placed = Math.abs(f);
  if (jumpsB && (!jumpsA || moveA <= moveB)) {
    const s = -f;
    pb.x = pa.x + d.x * s;
    pb.y = pa.y + d.y * s;
    pb.z = pa.z + d.z * s;
  } else {
    pa.x = pb.x + d.x * f;
    pa.y = pb.y + d.y * f;
    pa.z = pb.z + d.z * f;
  }
}

/**
 * [0], [1]: how far A's and B's supports move under the witness tilt; [2], [3]: under the tilt
 * times WITNESS_SCALE_RATIO; [4] the tilt of the next {@link supportMoves} (doubles cross calls
 * through this array, not as arguments: a double argument of a call V8 does not inline is boxed).
 */
const moveIo = new Float64Array(5);

/**
 * moveIo[at], moveIo[at + 1] = the largest distance A's (B's) support point moves from
 * out.pointA (out.pointB) when d is tilted by moveIo[4] radians in 4 tangent directions.
 */
function supportMoves(
  out: NormalRefinement,
  a: SupportMap,
  b: SupportMap,
  d: Vec3,
  at: number,
): void {
  const tilt = moveIo[4];
  vec3.orthonormalBasis(t1, t2, d);
  moveIo[at] = 0;
  moveIo[at + 1] = 0;
  tiltIo[0] = tilt;
  for (let k = 0; k < 8; k += 2) {
    tiltProbe(d, k);
    normalizeInPlace(trial);
    a.support(probeA, trial);
    vec3.negate(neg, trial);
    b.support(probeB, neg);
    vec3.distanceInto(probeA, out.pointA);
    moveIo[at] = Math.max(moveIo[at], hypotIo[0]);
    vec3.distanceInto(probeB, out.pointB);
    moveIo[at + 1] = Math.max(moveIo[at + 1], hypotIo[0]);
  }
}

/**
 * True when side `i`'s support (0 A, 1 B), which moved by moveIo[i] under the witness tilt,
 * moved in proportion under the tilt times WITNESS_SCALE_RATIO (moveIo[i + 2], within a factor
 * WITNESS_SCALE_SLACK): it slides over a curved surface, continuously. A jump between a
 * feature's corners keeps its length (the small tilt crosses the same kink) or vanishes (it
 * does not).
 */
function slides(i: number): boolean {
  const small = moveIo[i + 2];
  const expect = moveIo[i] * WITNESS_SCALE_RATIO;
  return small <= WITNESS_SCALE_SLACK * expect && small * WITNESS_SCALE_SLACK >= expect;
}

/** The second, smaller tilt of the proportionality test, relative to the first. */
const WITNESS_SCALE_RATIO = 2 ** -6;

/** Factor within which a support's move counts as proportional to the tilt. */
const WITNESS_SCALE_SLACK = 4;

/** A support point that moves by more than this times the tilt times the size is not unique. */
const SUPPORT_FLAT = 16;

/** Tilt of the normal, radians, by which a support point's uniqueness is judged. */
const WITNESS_PROBE_ANGLE = 2 ** -20;
