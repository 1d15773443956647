/**
 * Box–box (OBB–OBB) by the separating axis test on 15 axes: the 3 face normals of A, the 3 of
 * B and the 9 cross products of an edge direction of A with one of B (Gottschalk, Lin & Manocha
 * 1996; Ericson 2005, §4.4.1). Everything is in A's frame, where A's axes are the basis vectors
 * and B's axes are the columns of R = rotation of B in A (R_ij = A_i·B_j).
 *
 * Parallel edges: Ericson pads every |R_ij| with an epsilon so that a near-zero cross product
 * cannot make a false separating axis. That padding turns a gap of 1e-9 between parallel faces
 * into an overlap. We instead skip only an edge × edge axis whose cross product vanishes to the
 * last bits (`EDGE_AXIS_MIN_LENGTH_SQ`): when the edges are parallel the face axes already decide
 * separation, so nothing is lost and exact gaps stay gaps. Edges merely near parallel (1e-12..1e-6
 * rad) keep their axis, projected directly along the rounded direction (`edgeRbDirect`): any unit
 * direction's separation bounds the gap, so its rounding costs no validity, and it can be the
 * least overlap by far (two wedges' edges crossing apart by 1.9e-16, a face axis 4.95e-7 deep).
 *
 * Ties: a face axis of A is kept over a face of B, and a face over an edge × edge axis, unless
 * the other separates by more than a tie tolerance: `SAT_AXIS_TIE_DEPTH_TOLERANCE` of the best
 * separation's magnitude so far, at least `SAT_AXIS_TIE_ROUNDING` ulps and at most
 * `SAT_AXIS_TIE_TOLERANCE` of the boxes' size (src/constants.ts). Faces then win against edge
 * axes that are better by rounding only, and the depth stays within 1e-7 of the least
 * penetration, flat or huge boxes included. An axis that separates (s > 0) always displaces a
 * best that does not, tie or not: apart is decided by the sign, as in
 * {@link intersectsCuboidCuboid} (a box of 1e-5 3.4e-14 under a flat box of 10 at 500 was kept
 * touching on a side face overlapping by 3.6e-15; fuzz seed 80).
 *
 * Contact: the axis of least penetration gives the normal (oriented from A toward B) and the
 * depth; witness points are B's deepest support point for a face of A, A's for a face of B, and
 * where the two support edges cross seen along the axis for an edge × edge axis (the segments'
 * closest points when they do not). When the boxes are
 * apart, the SAT separation is only a lower bound of the distance, so a contact within a
 * positive `prediction` is computed by GJK (convex-convex), and so is the distance of boxes
 * apart; the distance of overlapping boxes is 0 with the SAT contact's witness points.
 */
import {
  SAT_AXIS_TIE_DEPTH_TOLERANCE,
  SAT_AXIS_TIE_ROUNDING,
  SAT_AXIS_TIE_TOLERANCE,
  TOUCH_TOLERANCE,
} from "../constants.js";
import {
  closestPointsSegmentSegment,
  type SegmentParameters,
} from "../geometry/closest-segments.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as mat3 from "../math/mat3.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { supportCuboid } from "../shapes/cuboid.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import { copyManifold, makeContact, makeContactManifold } from "./contact.js";
import { contactConvexConvex, distanceConvexConvex } from "./convex-convex.js";
import { keepContactOffIo, keptContactIo, manifoldFromContact } from "./manifold.js";
import { TOUCH_BAND, witnessMagnitude } from "./touching.js";

const R = mat3.create();
const absR = mat3.create();
const aH = new Float64Array(3);
const bH = new Float64Array(3);
const tA = new Float64Array(3);

function loadHalfExtentsAndTranslation(a: Cuboid, b: Cuboid, t: Vec3): void {
  aH[0] = a.halfExtents.x;
  aH[1] = a.halfExtents.y;
  aH[2] = a.halfExtents.z;
  bH[0] = b.halfExtents.x;
  bH[1] = b.halfExtents.y;
  bH[2] = b.halfExtents.z;
  tA[0] = t.x;
  tA[1] = t.y;
  tA[2] = t.z;
}

/**
 * The B-radius of the edge × edge axis L = A_i × B_j (A's frame, unnormalised: |L| = |A_i × B_j|)
 * projected directly, Σ_k h_k·|B_k·L| with B_k the columns of R, into `edgeRb[0]`; R must be
 * loaded ({@link loadRotation}). The textbook form (Gottschalk et al. 1996; Ericson 2005,
 * §4.4.1) takes B_k·(A_i × B_j) = ±A_i·(B_j × B_k) as an entry of R, an identity of orthonormal
 * matrices that R, rounded from the quaternion, keeps only to a few ε: each term then carries
 * ~ε·h_k absolute, which the separation's division by |L| turns into ε·h/|L|. For edges 1e-2 rad
 * from parallel on a box of 2e6 that is 7e-8, far beyond the tie (the open lines of
 * test/fuzz/box-side-graze.gen.ts: a depth 7.4e-8 short along an edge axis that does not attain
 * it). Projected directly, the error is ε·h, whatever |L|. The SAT asks it only where the
 * identity's value could decide (within {@link EDGE_IDENTITY_ROUNDING} ulps of Σh over |L| of the
 * best or of 0); B_j·L, exactly 0 here (two equal products cancel), is kept in the sum.
 */
function edgeRbDirect(hb: Vec3, i: number, j: number): void {
  const i1 = i === 2 ? 0 : i + 1;
  const i2 = i === 0 ? 2 : i - 1;
  // L = e_i × B_j: L_i = 0, L_i1 = −R[i2][j], L_i2 = R[i1][j].
  const l1 = -R[3 * i2 + j];
  const l2 = R[3 * i1 + j];
  const p0 = R[3 * i1] * l1 + R[3 * i2] * l2;
  const p1 = R[3 * i1 + 1] * l1 + R[3 * i2 + 1] * l2;
  const p2 = R[3 * i1 + 2] * l1 + R[3 * i2 + 2] * l2;
  edgeRb[0] = hb.x * Math.abs(p0) + hb.y * Math.abs(p1) + hb.z * Math.abs(p2);
}

/**
 * Least |A_i × B_j|² (unitless: unit axes) of an edge × edge axis the SAT tests; below it the
 * axis is skipped (edges parallel to the last bits, or so nearly that |L| would lose precision
 * in the square). Any unit direction is a valid separating-axis candidate: its separation is a
 * lower bound of the gap and its overlap an upper bound of the depth, whatever the direction's
 * own rounding, as long as the projections are taken along that very direction — which the
 * direct projection ({@link edgeRbDirect}) does, to ε of the sizes however small |L| is (the
 * SAT asks it wherever the cofactor form's ε·h/|L| could decide). So near-parallel edges keep
 * their axis: skipping it for |L|² ≤ 1e-12 (SAT_PARALLEL_EDGE_TOLERANCE, kept for hulls) made
 * two boxes turned 45° about x, one 1e-6 further about y, whose edges crossed apart by 1.9e-16
 * (exact rationals), overlap 4.95e-7 on a face axis (issue 16, fresh39b). The rounding of L's
 * direction, ε/|L|, moves the overlap only by that times the Minkowski face's width along it,
 * |L|·h: ε·h.
 */
const EDGE_AXIS_MIN_LENGTH_SQ = 1e-200;

/** Where {@link edgeRbDirect} writes (a double through an array: no boxing). */
const edgeRb = new Float64Array(1);

/**
 * Bound, in ulps of B's summed half extents, of the difference between an edge axis's B-radius by
 * the cofactor identity and projected directly ({@link edgeRbDirect}): R's entries are rounded
 * to ~2ε from a quaternion of unit length to ~2ε, so its cofactors differ from its entries by
 * ~8ε; 64 leaves room. Unitless.
 */
const EDGE_IDENTITY_ROUNDING = 64;

/**
 * Bound, in ulps of the pair's summed coordinates (|t| and both boxes' half extents), of how far
 * sideways of their axis the witnesses of two support edges that cross may be computed
 * ({@link facingEdgeAxis}; {@link satEdgeWitnesses} solves the crossing to ε·|t| at any angle
 * between the edges — the lines' closest points had needed this over |A_i × B_j|): beyond it
 * they do not cross. Unitless.
 */
const EDGE_FACING_ROUNDING = 64;

/**
 * Axes the SAT skips, bit 3i + j for the edge axis A_i × B_j, 9 + i for face i of A, 12 + j for
 * face j of B: set only while {@link facingEdgeAxis} or {@link facingFaceAxis} looks for a tied
 * axis whose witnesses face each other, 0 otherwise.
 */
let axisMask = 0;

/** Kind of the axis found by {@link satCuboidCuboid}. */
const AXIS_FACE_A = 0;
const AXIS_FACE_B = 1;
const AXIS_EDGE = 2;

/** Result of the SAT: the least-penetration (or most-separating) axis, in A's frame. */
export interface CuboidSatResult {
  /** Largest separation over the axes, scene units: > 0 means separated (a lower bound of the gap). */
  separation: number;
  /** Unit axis from A toward B achieving it. */
  axis: Vec3;
  /** 0: face of A (index `i`), 1: face of B (index `j`), 2: edge i of A × edge j of B. */
  kind: number;
  /** Axis index on A (0..2). */
  i: number;
  /** Axis index on B (0..2). */
  j: number;
}

/** A new SAT result (allocates). */
export function makeCuboidSatResult(): CuboidSatResult {
  return { separation: 0, axis: vec3.create(), kind: 0, i: 0, j: 0 };
}

function loadRotation(bInA: Isometry): void {
  mat3.fromQuat(R, bInA.rotation);
  for (let k = 0; k < 9; k++) absR[k] = Math.abs(R[k]);
}

/**
 * True when the boxes overlap or touch: the 15-axis SAT with early exit. With no relative
 * rotation it reduces to the interval test on the 3 axes.
 */
export function intersectsCuboidCuboid(a: Cuboid, b: Cuboid, bInA: Isometry): boolean {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const t = bInA.translation;
  const q = bInA.rotation;
  if (q.x === 0 && q.y === 0 && q.z === 0) {
    return (
      Math.abs(t.x) <= ha.x + hb.x && Math.abs(t.y) <= ha.y + hb.y && Math.abs(t.z) <= ha.z + hb.z
    );
  }
  loadRotation(bInA);
  loadHalfExtentsAndTranslation(a, b, t);
  // Face axes of A.
  for (let i = 0; i < 3; i++) {
    const rb = bH[0] * absR[3 * i] + bH[1] * absR[3 * i + 1] + bH[2] * absR[3 * i + 2];
    if (Math.abs(tA[i]) > aH[i] + rb) return false;
  }
  // Face axes of B.
  for (let j = 0; j < 3; j++) {
    const tb = tA[0] * R[j] + tA[1] * R[3 + j] + tA[2] * R[6 + j];
    const ra = aH[0] * absR[j] + aH[1] * absR[3 + j] + aH[2] * absR[6 + j];
    if (Math.abs(tb) > ra + bH[j]) return false;
  }
  // Edge × edge axes L = A_i × B_j, skipping degenerate (parallel-edge) ones.
  const edgeSlack =
    EDGE_IDENTITY_ROUNDING * Number.EPSILON * (aH[0] + aH[1] + aH[2] + (bH[0] + bH[1] + bH[2]));
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3;
    const i2 = (i + 2) % 3;
    for (let j = 0; j < 3; j++) {
      // |A_i × B_j|² from the two other entries of column j (accurate near parallel, unlike 1 − R_ij²).
      const lenSq = R[3 * i1 + j] * R[3 * i1 + j] + R[3 * i2 + j] * R[3 * i2 + j];
      if (lenSq <= EDGE_AXIS_MIN_LENGTH_SQ) continue;
      const j1 = (j + 1) % 3;
      const j2 = (j + 2) % 3;
      const tl = tA[i2] * R[3 * i1 + j] - tA[i1] * R[3 * i2 + j];
      const ra = aH[i1] * absR[3 * i2 + j] + aH[i2] * absR[3 * i1 + j];
      const rb = bH[j1] * absR[3 * i + j2] + bH[j2] * absR[3 * i + j1];
      // Within the cofactor identity's rounding of apart: decided by the direct projection
      // (edgeRbDirect), exactly as the full test decides the sign (satApart in
      // src/world/narrow-pair.ts relies on the two agreeing).
      if (Math.abs(tl) - (ra + rb) > -edgeSlack) {
        edgeRbDirect(b.halfExtents, i, j);
        if (Math.abs(tl) > ra + edgeRb[0]) return false;
      }
    }
  }
  return true;
}

const axisTmp = vec3.create();

/**
 * The full 15-axis SAT in A's frame: writes the axis of largest separation (least penetration
 * when overlapping) into `out`, oriented from A toward B. Face axes win ties as described in
 * the file comment. With `stopAbove`, the test returns as soon as the separation found exceeds
 * it (a separating axis found early, Ericson 2005 §4.4.1): `out` then holds that axis, whose
 * separation bounds the full answer from below — enough for a caller that only needs to know
 * the boxes are apart by more than `stopAbove`.
 */
export function satCuboidCuboid(
  out: CuboidSatResult,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  stopAbove = Infinity,
): CuboidSatResult {
  loadRotation(bInA);
  loadHalfExtentsAndTranslation(a, b, bInA.translation);
  // Loops over the 15 axes through the module's typed arrays, not unrolled into locals: the
  // function runs a few times per world step (the rounded boxes' pairs), too rarely for V8 to
  // optimize a body of 7 KB of bytecode (49 ticks of its interrupt budget) within a thousand
  // steps, and unoptimized every double is a heap number (3 KB per step of the six-curved-kinds
  // world). Each axis's expressions are those of the unrolled form, in the same order, so every
  // separation is bitwise the same.
  const size = Math.max(aH[0], aH[1], aH[2], bH[0], bH[1], bH[2], Number.MIN_VALUE);
  // The tie (file comment) follows the best separation so far: SAT_AXIS_TIE_DEPTH_TOLERANCE of
  // its magnitude, between SAT_AXIS_TIE_ROUNDING ulps of the size and SAT_AXIS_TIE_TOLERANCE of
  // it; set again whenever `best` changes (the same expression, inlined: no call returns a double).
  const tieMax = SAT_AXIS_TIE_TOLERANCE * size;
  const tieMin = SAT_AXIS_TIE_ROUNDING * Number.EPSILON * size;
  let tie = tieMax;
  let best = Number.NEGATIVE_INFINITY;
  // Face axes of B: a face of B within the tie of A's best face wins when B is the larger box
  // (boxBeforeA): a rule symmetric in A and B, so contact(B, A) is contact(A, B) flipped.
  const bFirst = boxBeforeA(a, b);
  let bestB = Number.NEGATIVE_INFINITY;
  // Where an edge axis's unnormalised separation by the cofactor identity could differ in its
  // decision from the direct projection's (edgeRbDirect): within EDGE_IDENTITY_ROUNDING ulps of
  // the boxes' summed half extents of 0 or, over |L|, of the best so far plus the tie.
  const edgeSlack =
    EDGE_IDENTITY_ROUNDING * Number.EPSILON * (aH[0] + aH[1] + aH[2] + (bH[0] + bH[1] + bH[2]));
  // Axis k: 0–2 face k of A, 3–5 face k − 3 of B, 6–14 edge i of A × edge j of B (k = 6 + 3i + j),
  // parallel-edge axes skipped. One body, one acceptance: the bytecode stays small.
  for (let k = 0; k < 15; k++) {
    let s = 0;
    let take = false;
    let sign = 1;
    let len = 0;
    if (k < 3) {
      const c = 3 * k;
      const ti = tA[k];
      s = Math.abs(ti) - (aH[k] + (bH[0] * absR[c] + bH[1] * absR[c + 1] + bH[2] * absR[c + 2]));
      // The first face is taken whenever it beats −∞ (no tie to pass yet).
      take =
        (axisMask & (512 << k)) === 0 &&
        (k === 0 ? s > best : s > best + tie || (s > 0 && !(best > 0)));
      sign = ti >= 0 ? 1 : -1;
    } else if (k < 6) {
      const j = k - 3;
      const tb = tA[0] * R[j] + tA[1] * R[3 + j] + tA[2] * R[6 + j];
      s = Math.abs(tb) - (aH[0] * absR[j] + aH[1] * absR[3 + j] + aH[2] * absR[6 + j] + bH[j]);
      take =
        (axisMask & (4096 << j)) === 0 &&
        (((j === 0 ? s > bestB : s > bestB + tie) && (bFirst ? s >= best - tie : s > best + tie)) ||
          (s > 0 && !(best > 0)));
      // A centre offset exactly 0 along the axis takes −B_j (A's own faces take +A_i): the
      // two rules are each other's mirror when A and B are swapped.
      sign = tb > 0 ? 1 : -1;
      if (take) bestB = s;
    } else {
      const e = k - 6;
      const i = e < 3 ? 0 : e < 6 ? 1 : 2;
      const j = e - 3 * i;
      const c1 = 3 * (i === 2 ? 0 : i + 1) + j;
      const c2 = 3 * (i === 0 ? 2 : i - 1) + j;
      // |A_i × B_j|² from the two other entries of column j (accurate near parallel).
      const lenSq = R[c1] * R[c1] + R[c2] * R[c2];
      if (!(lenSq > EDGE_AXIS_MIN_LENGTH_SQ)) continue;
      const i1 = c1 >= 6 ? 2 : c1 >= 3 ? 1 : 0;
      const i2 = c2 >= 6 ? 2 : c2 >= 3 ? 1 : 0;
      const r = 3 * i;
      const j1 = j === 2 ? 0 : j + 1;
      const j2 = j === 0 ? 2 : j - 1;
      len = Math.sqrt(lenSq);
      const tl = tA[i2] * R[c1] - tA[i1] * R[c2];
      const ra = aH[i1] * absR[c2] + aH[i2] * absR[c1];
      s = Math.abs(tl) - (ra + (bH[j1] * absR[r + j2] + bH[j2] * absR[r + j1]));
      if (s > -edgeSlack || s / len > best + tie - edgeSlack / len) {
        edgeRbDirect(b.halfExtents, i, j);
        s = Math.abs(tl) - (ra + edgeRb[0]);
      }
      s /= len;
      take = (axisMask & (1 << e)) === 0 && (s > best + tie || (s > 0 && !(best > 0)));
      sign = tl >= 0 ? 1 : -1;
    }
    if (!take) continue;
    best = s;
    tie = Math.min(tieMax, Math.max(tieMin, SAT_AXIS_TIE_DEPTH_TOLERANCE * Math.abs(best)));
    if (k < 3) recordFaceA(out, k, sign);
    else if (k < 6) recordFaceB(out, k - 3, sign);
    else {
      edgeLength[0] = len;
      const e = k - 6;
      const i = e < 3 ? 0 : e < 6 ? 1 : 2;
      recordEdge(out, i, e - 3 * i, sign);
    }
    if (best > stopAbove) {
      out.separation = best;
      return out;
    }
  }
  out.separation = best;
  return out;
}

/** Records face `i` of A as the SAT's axis (`sign` = the side of B's centre: ±1). */
function recordFaceA(out: CuboidSatResult, i: number, sign: number): void {
  out.kind = AXIS_FACE_A;
  out.i = i;
  vec3.set(out.axis, 0, 0, 0);
  vec3.setAxis(out.axis, i, sign);
}

/** Records face `j` of B (column j of R, times `sign` = ±1) as the SAT's axis. */
function recordFaceB(out: CuboidSatResult, j: number, sign: number): void {
  out.kind = AXIS_FACE_B;
  out.j = j;
  vec3.set(out.axis, R[j] * sign, R[3 + j] * sign, R[6 + j] * sign);
}

/** |A_i × B_j| of the edge axis being recorded (a double through an array: no boxing). */
const edgeLength = new Float64Array(1);

/** Records edge i of A × edge j of B as the SAT's axis, normalised, oriented by `sign` = ±1. */
function recordEdge(out: CuboidSatResult, i: number, j: number, sign: number): void {
  out.kind = AXIS_EDGE;
  out.i = i;
  out.j = j;
  // L = e_i × (column j of R), in A's frame.
  vec3.set(axisTmp, 0, 0, 0);
  vec3.setAxis(axisTmp, i, 1);
  const bj = vec3.set(out.axis, R[j], R[3 + j], R[6 + j]);
  vec3.cross(out.axis, axisTmp, bj);
  // The scale written out: a double passed to a call V8 does not inline is boxed.
  const k = sign / edgeLength[0];
  out.axis.x *= k;
  out.axis.y *= k;
  out.axis.z *= k;
}

/**
 * True when box B's faces are preferred to A's on a tie: B has the larger volume, or equal
 * volumes and the larger sorted half extents (lexicographically). Swapping A and B swaps the
 * answer unless the boxes have the same half extents.
 */
function boxBeforeA(a: Cuboid, b: Cuboid): boolean {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const va = ha.x * ha.y * ha.z;
  const vb = hb.x * hb.y * hb.z;
  if (va !== vb) return vb > va;
  const a0 = Math.max(ha.x, ha.y, ha.z);
  const b0 = Math.max(hb.x, hb.y, hb.z);
  if (a0 !== b0) return b0 > a0;
  const a2 = Math.min(ha.x, ha.y, ha.z);
  const b2 = Math.min(hb.x, hb.y, hb.z);
  return b2 > a2;
}

/**
 * The separation of boxes A and B (B at `bInA` in A's frame) along one SAT axis — `kind` 0: face
 * `i` of A, 1: face `j` of B, 2: edge `i` of A × edge `j` of B (the numbering of
 * {@link CuboidSatResult}) — computed with exactly the arithmetic of {@link satCuboidCuboid}, so
 * it is bitwise the value the full test computes for that axis; −Infinity for an edge × edge
 * axis the full test skips (parallel edges). Written to `axisSeparation[0]`, not returned (a
 * double returned by a call V8 does not inline is boxed: an allocation per call). A warm start
 * (src/world/warm-start-cache.ts) tests the axis that separated or least penetrated a pair last frame
 * first: when it separates by more than {@link cuboidSatTie}, the full test is certain to report
 * the boxes apart.
 */
export function cuboidAxisSeparation(
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  kind: number,
  i: number,
  j: number,
): void {
  loadRotation(bInA);
  loadHalfExtentsAndTranslation(a, b, bInA.translation);
  const out = axisSeparation;
  if (kind === AXIS_FACE_A) {
    const rb = bH[0] * absR[3 * i] + bH[1] * absR[3 * i + 1] + bH[2] * absR[3 * i + 2];
    out[0] = Math.abs(tA[i]) - (aH[i] + rb);
    return;
  }
  if (kind === AXIS_FACE_B) {
    const tb = tA[0] * R[j] + tA[1] * R[3 + j] + tA[2] * R[6 + j];
    const ra = aH[0] * absR[j] + aH[1] * absR[3 + j] + aH[2] * absR[6 + j];
    out[0] = Math.abs(tb) - (ra + bH[j]);
    return;
  }
  const i1 = (i + 1) % 3;
  const i2 = (i + 2) % 3;
  const lenSq = R[3 * i1 + j] * R[3 * i1 + j] + R[3 * i2 + j] * R[3 * i2 + j];
  if (lenSq <= EDGE_AXIS_MIN_LENGTH_SQ) {
    out[0] = Number.NEGATIVE_INFINITY;
    return;
  }
  const len = Math.sqrt(lenSq);
  const tl = tA[i2] * R[3 * i1 + j] - tA[i1] * R[3 * i2 + j];
  const ra = aH[i1] * absR[3 * i2 + j] + aH[i2] * absR[3 * i1 + j];
  // The direct projection: the full test's value wherever it can decide the axis (edgeRbDirect).
  edgeRbDirect(b.halfExtents, i, j);
  out[0] = (Math.abs(tl) - (ra + edgeRb[0])) / len;
}

/** Where {@link cuboidAxisSeparation} writes its result (and {@link cuboidSatTie} its own). */
export const axisSeparation = new Float64Array(2);

/**
 * The largest tie tolerance of {@link satCuboidCuboid} for boxes `a` and `b` (its cap, with its
 * arithmetic), scene units, written to `axisSeparation[1]`: an axis separating by more proves
 * the boxes apart, whatever the depth-relative tie of the full test.
 */
export function cuboidSatTie(a: Cuboid, b: Cuboid): void {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const size = Math.max(ha.x, ha.y, ha.z, hb.x, hb.y, hb.z, Number.MIN_VALUE);
  axisSeparation[1] = SAT_AXIS_TIE_TOLERANCE * size;
}

const sat = makeCuboidSatResult();
const dirTmp = vec3.create();
const supA = vec3.create();
const supB = vec3.create();
const edgeA = vec3.create();
const edgeB = vec3.create();
const qA = vec3.create();
const qB = vec3.create();
const endA0 = vec3.create();
const endA1 = vec3.create();
const endB0 = vec3.create();
const endB1 = vec3.create();
const segParams: SegmentParameters = { s: 0, t: 0 };

/**
 * Contact of boxes A and B in A's frame from the SAT: false when separated by more than
 * `prediction` (or separated at all when prediction ≤ 0); when separated within a positive
 * prediction the caller's GJK fallback must be used, so this returns false there too and sets
 * `sat.separation` for it — see {@link contactCuboidCuboid} in the dispatch, which handles it.
 * When overlapping or touching: signed distance = −(least penetration), normal of that axis
 * from A toward B, witness points on both surfaces.
 */
export function contactCuboidCuboidSat(
  out: Contact,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
): boolean {
  // Only "apart" matters when the separation is positive: stop at the first separating axis.
  satCuboidCuboid(sat, a, b, bInA, 0);
  if (sat.separation > 0) return false;
  if (sat.kind === AXIS_EDGE) facingEdgeAxis(a, b, bInA, 0);
  const n = sat.axis;
  vec3.copy(out.normal, n);
  out.distance = sat.separation;
  if (sat.kind === AXIS_FACE_A) {
    // B's deepest point along −n, and its projection onto A's face.
    iso.inverseTransformVector(dirTmp, bInA, n);
    vec3.negate(dirTmp, dirTmp);
    supportCuboid(supB, b, dirTmp);
    iso.transformPoint(out.pointB, bInA, supB);
    // pointA = pointB − separation·n, written out: a double passed to a call V8 does not inline
    // (this function is past its inlining budget) is boxed.
    const s = sat.separation;
    out.pointA.x = out.pointB.x - s * n.x;
    out.pointA.y = out.pointB.y - s * n.y;
    out.pointA.z = out.pointB.z - s * n.z;
  } else if (sat.kind === AXIS_FACE_B) {
    supportCuboid(supA, a, n);
    vec3.copy(out.pointA, supA);
    const s = sat.separation;
    out.pointB.x = supA.x + n.x * s;
    out.pointB.y = supA.y + n.y * s;
    out.pointB.z = supA.z + n.z * s;
  } else satEdgeWitnesses(out.pointA, out.pointB, out.normal, a, b, bInA);
  return true;
}

/** [0] the tie of the SAT's separation [1] (scene units), set by {@link loadSatTie}. */
const satTieIo = new Float64Array(2);

/**
 * Loads the SAT's current separation (`sat`, boxes `a` and `b`) into satTieIo[1] and its tie into
 * satTieIo[0]: {@link satCuboidCuboid}'s tie at that separation (SAT_AXIS_TIE_DEPTH_TOLERANCE of
 * its magnitude, between SAT_AXIS_TIE_ROUNDING ulps of the boxes' size and
 * SAT_AXIS_TIE_TOLERANCE of it), the same arithmetic. Through an array: no double crosses a call.
 */
function loadSatTie(a: Cuboid, b: Cuboid): void {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const first = sat.separation;
  const size = Math.max(ha.x, ha.y, ha.z, hb.x, hb.y, hb.z, Number.MIN_VALUE);
  satTieIo[1] = first;
  satTieIo[0] = Math.min(
    SAT_AXIS_TIE_TOLERANCE * size,
    Math.max(
      SAT_AXIS_TIE_ROUNDING * Number.EPSILON * size,
      SAT_AXIS_TIE_DEPTH_TOLERANCE * Math.abs(first),
    ),
  );
}

/**
 * The SAT run again into `sat` with the axes of `mask` skipped besides those already masked
 * (`axisMask`, left set for the caller to clear), stopping above `stopAbove`: true when its new
 * separation lies within the tie of the one {@link loadSatTie} loaded (satTieIo) below it, on the
 * same side of 0. The one re-run of {@link facingEdgeAxis} and {@link facingFaceAxis}.
 */
function satWithinTieWithout(
  mask: number,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  stopAbove: number,
): boolean {
  axisMask |= mask;
  satCuboidCuboid(sat, a, b, bInA, stopAbove);
  const first = satTieIo[1];
  return sat.separation >= first - satTieIo[0] && sat.separation > 0 === first > 0;
}

const satKept = makeCuboidSatResult();
const facingA = vec3.create();
const facingB = vec3.create();

/**
 * The SAT's axis (`sat`, an edge × edge axis just found by {@link satCuboidCuboid} with
 * `stopAbove`) replaced by another within the tie of its separation whose witnesses face each
 * other, when its own do not. Within the tie the SAT keeps the first axis found, but an edge
 * axis is a face of the Minkowski difference only where its two support edges cross seen along
 * it; where they do not, the closest points of the two edges lie apart sideways and the least
 * separation is attained, to the tie, on another axis (exactly: the Minkowski difference's
 * faces are the only minima). A box of 6e-3 on an aabb's top at its side, 1.1e-15 deep: the
 * SAT kept A_y × B_z over A_z × B_z, 1.07e-15 deeper within a tie of 1.7e-15, whose support
 * edges' closest points lay 1.9e-3 apart sideways (test/fuzz/box-side-graze.gen.ts, draw 971 of
 * fast-check seed 2). So: while the axis is an edge axis whose witnesses ({@link satEdgeWitnesses})
 * lie sideways of it by more than the rounding of the crossing (EDGE_FACING_ROUNDING ulps of the
 * pair's coordinates),
 * the test is run again without it (`axisMask`); the new axis is kept when its separation lies
 * within the first's tie on the same side of 0, else the first is restored. A face axis found so
 * ends the search (its witnesses are the clip's). Returns true when the axis left in `sat` is an
 * edge axis whose witnesses face. Allocates nothing.
 */
function facingEdgeAxis(a: Cuboid, b: Cuboid, bInA: Isometry, stopAbove: number): boolean {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const t = bInA.translation;
  loadSatTie(a, b);
  const scale =
    EDGE_FACING_ROUNDING *
    Number.EPSILON *
    (Math.abs(t.x) + Math.abs(t.y) + Math.abs(t.z) + (ha.x + ha.y + ha.z) + (hb.x + hb.y + hb.z));
  copySat(satKept, sat);
  let faced = false;
  for (let round = 0; round < 9 && sat.kind === AXIS_EDGE; round++) {
    satEdgeWitnesses(facingA, facingB, sat.axis, a, b, bInA);
    const n = sat.axis;
    const dx = facingB.x - facingA.x;
    const dy = facingB.y - facingA.y;
    const dz = facingB.z - facingA.z;
    const along = dx * n.x + dy * n.y + dz * n.z;
    const wx = dx - along * n.x;
    const wy = dy - along * n.y;
    const wz = dz - along * n.z;
    // The crossing's witnesses lie sideways by ε·|t| at any angle (satEdgeWitnesses).
    if (wx * wx + wy * wy + wz * wz <= scale * scale) {
      faced = true;
      break;
    }
    if (!satWithinTieWithout(1 << (3 * sat.i + sat.j), a, b, bInA, stopAbove)) {
      copySat(sat, satKept);
      break;
    }
  }
  axisMask = 0;
  return faced;
}

/** Copies SAT result `src` into `dst`. */
function copySat(dst: CuboidSatResult, src: CuboidSatResult): void {
  dst.separation = src.separation;
  vec3.copy(dst.axis, src.axis);
  dst.kind = src.kind;
  dst.i = src.i;
  dst.j = src.j;
}

const satFaceKept = makeCuboidSatResult();

/**
 * The SAT's face axis (`sat`, overlapping: the contact `out` from it, A's frame) replaced by an
 * edge × edge axis within its tie whose witnesses face each other, when the face's own contact
 * is not realized: neither the clip of the incident face nor the deepest point of the incident
 * box inside the reference face's prism ({@link deepestInPrism}) comes within the tie of the
 * face's depth, so the projections overlap that deep only outside the prism. Where an edge axis
 * within the tie of the face ties with it by rounding (exactly it separates the boxes by 4.6e-18
 * while the face overlaps 6.6e-16: a box's edge on a box's top edge at its side; draw 356 of
 * test/fuzz/box-side-graze.gen.ts at fast-check seed 5), the SAT keeps the face and its witness
 * lay 5.9e-15 above the top. The test is run again without the face (`axisMask`); an edge axis
 * found within the face's tie, not separating, whose witnesses face ({@link facingEdgeAxis}),
 * becomes the contact's normal and depth with its edges' closest points. Returns true when `out`
 * was replaced; else `sat` is restored and out unchanged. Allocates nothing.
 */
function facingFaceAxis(out: Contact, a: Cuboid, b: Cuboid, bInA: Isometry): boolean {
  copySat(satFaceKept, sat);
  loadSatTie(a, b);
  // The face's separation is not above 0 (the boxes overlap): within its tie on its side of 0 is
  // within the tie and not separating.
  const mask = 1 << (sat.kind === AXIS_FACE_A ? 9 + sat.i : 12 + sat.j);
  let ok = satWithinTieWithout(mask, a, b, bInA, 0) && sat.kind === AXIS_EDGE;
  // (facingEdgeAxis keeps the face masked while it looks further, and clears the mask.)
  if (ok) ok = facingEdgeAxis(a, b, bInA, 0) && sat.kind === AXIS_EDGE;
  axisMask = 0;
  if (!ok) {
    copySat(sat, satFaceKept);
    return false;
  }
  vec3.copy(out.normal, sat.axis);
  out.distance = sat.separation;
  satEdgeWitnesses(out.pointA, out.pointB, out.normal, a, b, bInA);
  witnessValid = false;
  return true;
}

/**
 * The witnesses of the SAT's edge × edge axis (`sat`, unit axis `n` in A's frame from A toward
 * B; scene units, A's frame): where A's support edge along n and B's along −n cross seen along n
 * (both are ⊥ n, so the two points differ by the separation along n only), or the segments'
 * closest points when that crossing lies off either edge, into `pA` and `pB`.
 */
function satEdgeWitnesses(pA: Vec3, pB: Vec3, n: Vec3, a: Cuboid, b: Cuboid, bInA: Isometry): void {
  // Support edge of A along n (direction e_i, through A's support vertex), of B along −n.
  supportCuboid(supA, a, n);
  vec3.setAxis(supA, sat.i, 0);
  // Edge half vectors written out (no helper returning a double: boxed when not inlined).
  const ha = a.halfExtents;
  edgeA.x = sat.i === 0 ? ha.x : 0;
  edgeA.y = sat.i === 1 ? ha.y : 0;
  edgeA.z = sat.i === 2 ? ha.z : 0;
  iso.inverseTransformVector(dirTmp, bInA, n);
  vec3.negate(dirTmp, dirTmp);
  supportCuboid(supB, b, dirTmp);
  vec3.setAxis(supB, sat.j, 0);
  const hb = b.halfExtents;
  edgeB.x = sat.j === 0 ? hb.x : 0;
  edgeB.y = sat.j === 1 ? hb.y : 0;
  edgeB.z = sat.j === 2 ? hb.z : 0;
  iso.transformPoint(supB, bInA, supB);
  iso.transformVector(edgeB, bInA, edgeB);
  // Support edges as centre ± half vector.
  // Where the edges cross seen along n (both are ⊥ n): with w = n × e_i (unit, ⊥ n and A's
  // edge), B's point supB + u·b̂_j with (supB + u·b̂_j − supA)·w = 0, then A's point the foot of
  // B's along e_i. B_j·w = n·(e_i × B_j) = ±|A_i × B_j|: for edges θ from parallel the crossing
  // slides along them by ε·|t|/θ, which moves B's point sideways by that times θ: ε·|t| (the
  // lines' closest points of closestPointsSegmentSegment divide by 1 − cos²θ and slid 1.5e-4
  // at θ = 1e-6: 1.6e-10 sideways; issue 16, fresh39b). Used when the crossing lies on both
  // segments (within the rounding of the clamp); else the segments' closest points.
  const i = sat.i;
  const wx = i === 0 ? 0 : i === 1 ? n.z : -n.y;
  const wy = i === 0 ? -n.z : i === 1 ? 0 : n.x;
  const wz = i === 0 ? n.y : i === 1 ? -n.x : 0;
  const hj = sat.j === 0 ? hb.x : sat.j === 1 ? hb.y : hb.z;
  const bw = (edgeB.x * wx + edgeB.y * wy + edgeB.z * wz) / hj;
  const gw = (supB.x - supA.x) * wx + (supB.y - supA.y) * wy + (supB.z - supA.z) * wz;
  const u = -gw / bw;
  if (Math.abs(u) <= hj) {
    const k = u / hj;
    pB.x = supB.x + k * edgeB.x;
    pB.y = supB.y + k * edgeB.y;
    pB.z = supB.z + k * edgeB.z;
    const hi = i === 0 ? ha.x : i === 1 ? ha.y : ha.z;
    const sA = i === 0 ? pB.x : i === 1 ? pB.y : pB.z;
    if (Math.abs(sA) <= hi) {
      // A's coordinate along its edge set in place (no double passed to a call: boxed).
      pA.x = i === 0 ? sA : supA.x;
      pA.y = i === 1 ? sA : supA.y;
      pA.z = i === 2 ? sA : supA.z;
      return;
    }
  }
  vec3.sub(endA0, supA, edgeA);
  vec3.add(endA1, supA, edgeA);
  vec3.sub(endB0, supB, edgeB);
  vec3.add(endB1, supB, edgeB);
  closestPointsSegmentSegment(qA, qB, endA0, endA1, endB0, endB1, segParams);
  vec3.copy(pA, qA);
  vec3.copy(pB, qB);
}

/**
 * Boxes apart (issue 16, attack30 F5): GJK's closest points in `out` (A's frame, distance > 0)
 * give the gap to its tolerance, but its normal only to that tolerance over the gap — 1.3e-13 rad
 * off a face's normal at a gap of 50, which a rounded box's radius of 50 taken off left a depth
 * of 6.5e-12 whose normal achieved 1.45e-11. Where the closest features are a face of one box
 * and a point of the other, or an edge of each, meeting inside them, the gap is attained along an
 * axis of the SAT, and its largest separation (a lower bound of the gap) equals the distance (an
 * upper bound). When it does to the rounding of the coordinates (TOUCH_TOLERANCE of the pair's
 * magnitude), the axis is the normal, its separation the distance, and the witnesses face each
 * other across it: for a face of A, B's witness (GJK's nearest point) and its foot on A's face;
 * for a face of B the same reversed; for two edges where the support edges cross. An edge axis
 * whose edges cross seen along it ({@link facingEdgeAxis}) attains its separation by itself and
 * is taken whatever GJK's distance. Returns true when `out` was replaced so. Allocation-free.
 */
export function satGapContact(out: Contact, a: Cuboid, b: Cuboid, bInA: Isometry): boolean {
  satCuboidCuboid(sat, a, b, bInA);
  let faced = false;
  if (sat.kind === AXIS_EDGE && sat.separation > 0) faced = facingEdgeAxis(a, b, bInA, Infinity);
  const sep = sat.separation;
  const t = bInA.translation;
  const pA = out.pointA;
  const pB = out.pointB;
  const m = witnessMagnitude(pA, pB, t);
  // An edge axis whose support edges cross seen along it attains its separation (the crossing's
  // two points lie that far apart along it): the gap, however far GJK's polished pair lies above
  // it (alternating projections between edges θ from parallel shorten the pair by ~θ² a step;
  // a pair 8.9e-13 apart where the edges crossed 4.4e-16 apart, θ ≈ 1e-7, issue 16).
  if (!(sep > 0)) return false;
  if (!(faced && sat.kind === AXIS_EDGE) && !(Math.abs(out.distance - sep) <= TOUCH_TOLERANCE * m))
    return false;
  const n = sat.axis;
  vec3.copy(out.normal, n);
  out.distance = sep;
  if (sat.kind === AXIS_FACE_A) {
    pA.x = pB.x - sep * n.x;
    pA.y = pB.y - sep * n.y;
    pA.z = pB.z - sep * n.z;
  } else if (sat.kind === AXIS_FACE_B) {
    pB.x = pA.x + sep * n.x;
    pB.y = pA.y + sep * n.y;
    pB.z = pA.z + sep * n.z;
  } else satEdgeWitnesses(out.pointA, out.pointB, out.normal, a, b, bInA);
  return true;
}

/** The SAT result of the last {@link contactCuboidCuboidSat} call (read-only scratch). */
export function lastCuboidSat(): Readonly<CuboidSatResult> {
  return sat;
}

const witnessManifold = makeContactManifold();
/**
 * What {@link witnessManifold} was computed from (by {@link faceWitnessCuboidCuboid}): the
 * shapes, B's pose in A's frame (translation xyz, rotation xyzw), and the contact's normal xyz
 * and distance; `witnessValid` is false until then and when it fell back to the single contact.
 */
let witnessA: Cuboid | null = null;
let witnessB: Cuboid | null = null;
const witnessKey = new Float64Array(11);
let witnessValid = false;

/** Stores the key of the witness manifold just computed for (a, b, bInA, contact c). */
function keepWitnessKey(a: Cuboid, b: Cuboid, bInA: Isometry, c: Contact): void {
  witnessA = a;
  witnessB = b;
  const k = witnessKey;
  const t = bInA.translation;
  const q = bInA.rotation;
  k[0] = t.x;
  k[1] = t.y;
  k[2] = t.z;
  k[3] = q.x;
  k[4] = q.y;
  k[5] = q.z;
  k[6] = q.w;
  k[7] = c.normal.x;
  k[8] = c.normal.y;
  k[9] = c.normal.z;
  k[10] = c.distance;
  // The single-contact fallback (feature id 0) copies the contact's witness points, which
  // faceWitnessCuboidCuboid then moves: not reusable.
  // Nor is a manifold that kept the contact's own point (those witnesses, which move).
  const m = witnessManifold;
  witnessValid = !(m.count === 1 && m.points[0].featureId === 0) && keptContactIo[0] === 0;
}

/**
 * The manifold of boxes A and B from contact `c` (B at `bInA` in A's frame) — exactly
 * `manifoldFromContact(out, a, b, bInA, c, prediction)` — reusing the manifold that the last
 * {@link contactCuboidCuboid} built for its witness points when it was built from the same
 * shapes, pose, normal and distance and the same point limit (`max(prediction, distance)` as
 * with prediction 0): a box–box contact then clips its faces once instead of twice. Every
 * input of the clipping is compared, so the answer is the same either way. Returns out.
 */
export function manifoldCuboidCuboid(
  out: ContactManifold,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  c: Contact,
  prediction: number,
): ContactManifold {
  const k = witnessKey;
  const t = bInA.translation;
  const q = bInA.rotation;
  if (
    witnessValid &&
    a === witnessA &&
    b === witnessB &&
    Math.max(prediction, c.distance) === Math.max(0, c.distance) &&
    k[10] === c.distance &&
    k[7] === c.normal.x &&
    k[8] === c.normal.y &&
    k[9] === c.normal.z &&
    k[0] === t.x &&
    k[1] === t.y &&
    k[2] === t.z &&
    k[3] === q.x &&
    k[4] === q.y &&
    k[5] === q.z &&
    k[6] === q.w
  ) {
    return copyManifold(out, witnessManifold);
  }
  return manifoldFromContact(out, a, b, bInA, c, prediction);
}

/**
 * Moves the witness points of a face-axis contact (from {@link contactCuboidCuboidSat}) onto the
 * overlap: B's support point along −n may be a corner of a face of B that lies beyond A's face
 * (box A (3,7,9) against B (10,4,10) at (3,7,9) put pointA 14 units from A, issue 16 class 2).
 * The deepest point of the clipped manifold (incident face clipped to the reference face,
 * Ericson 2005, §8.3.4) lies on both boxes' features; the distance and normal stay the SAT's.
 * Equally deep points (parallel faces) are averaged.
 */
export function faceWitnessCuboidCuboid(out: Contact, a: Cuboid, b: Cuboid, bInA: Isometry): void {
  witnessValid = false;
  if (sat.kind === AXIS_EDGE) return;
  // The clipped points only: the contact's own pair is SAT's support point, which may lie off
  // the overlap (it is what this moves), so the manifold does not keep it (a box of 3e-5 on an
  // aabb's edge had its witness 2e-5 off the aabb); where a fresh build would, the key is not
  // kept (keptContactIo).
  keepContactOffIo[0] = 1;
  manifoldFromContact(witnessManifold, a, b, bInA, out, 0);
  keepContactOffIo[0] = 0;
  keepWitnessKey(a, b, bInA, out);
  let bestDistance = Infinity;
  for (let i = 0; i < witnessManifold.count; i++) {
    bestDistance = Math.min(bestDistance, witnessManifold.points[i].distance);
  }
  if (!(bestDistance < Infinity)) return;
  // The deepest points, and every point as deep within the SAT's tie (flat on flat): their
  // average, which lies on both faces (convex) and does not depend on which box is the
  // reference, so contact(B, A) is contact(A, B) flipped.
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const size = Math.max(ha.x, ha.y, ha.z, hb.x, hb.y, hb.z, Number.MIN_VALUE);
  const tie = Math.min(
    SAT_AXIS_TIE_TOLERANCE * size,
    Math.max(
      SAT_AXIS_TIE_ROUNDING * Number.EPSILON * size,
      SAT_AXIS_TIE_DEPTH_TOLERANCE * Math.abs(out.distance),
    ),
  );
  // The clip gave nothing but the contact's own pair (the single-contact fallback, feature id
  // 0): the supporting features were no face to clip against — a box of zero thickness has
  // segments for side faces, and two such segments crossing (flat boxes meeting edge to edge)
  // are clipped to neither — so the pair is still B's support corner, which may lie off A
  // (1.4 off a flat box, fresh43). The overlap's deepest part within the reference face's
  // prism is then the witness: the prism of a face of zero width is its plane, and the clip to
  // it keeps exactly the incident features' points on it.
  const single = witnessManifold.count === 1 && witnessManifold.points[0].featureId === 0;
  // The clip of the incident box's primary face left the contact out (its deepest point
  // shallower than the SAT's depth by more than the tie): the deepest part of the overlap lies
  // on another of its faces turned toward the reference face.
  if (single || bestDistance > out.distance + tie) {
    const moved = deepestInPrism(out, a, b, bInA, single ? Infinity : bestDistance, tie);
    // Not even there: the face's depth is not realized; an edge axis tied with it may be.
    const deepest = moved ? prismBestIo[0] : bestDistance;
    if (deepest > out.distance + tie && facingFaceAxis(out, a, b, bInA)) return;
    if (moved) return;
  }
  vec3.set(out.pointA, 0, 0, 0);
  vec3.set(out.pointB, 0, 0, 0);
  let n = 0;
  for (let i = 0; i < witnessManifold.count; i++) {
    const p = witnessManifold.points[i];
    if (p.distance > bestDistance + tie) continue;
    vec3.add(out.pointA, out.pointA, p.pointA);
    vec3.add(out.pointB, out.pointB, p.pointB);
    n++;
  }
  vec3.scale(out.pointA, out.pointA, 1 / n);
  vec3.scale(out.pointB, out.pointB, 1 / n);
}

const prismR = mat3.create();
/** {@link deepestInPrism}'s least signed distance over the prism (a double through an array). */
const prismBestIo = new Float64Array(1);
/** The incident box's corners in the reference box's frame (corner c: bit a set for +h_a). */
const prismCorners = new Float64Array(24);
/** Its axes' components along the reference face's normal axis k (a: 0..2). */
const prismAxisK = new Float64Array(3);
/** Clip buffers: a quadrilateral cut by 4 planes keeps at most 8 vertices. */
const prismPolyA = new Float64Array(24);
const prismPolyB = new Float64Array(24);
/** Every clipped vertex of every lower face (3 faces × 8), and its signed distance. */
const prismPoints = new Float64Array(72);
const prismDistances = new Float64Array(24);
/** Clip pass scratch: the polygon's vertex count after the pass. */
const prismCount = new Int32Array(1);
const prismTmp = vec3.create();
const prismInc = vec3.create();
const prismRef = vec3.create();
/** The cyclic order of a face's corners over its two other axes' bits: (0,0), (1,0), (1,1), (0,1). */
const FACE_LOOP_U = [0, 1, 1, 0];
const FACE_LOOP_V = [0, 0, 1, 1];

/**
 * The deepest part of the overlap along a face axis of the SAT (`sat`, kind face of A or of B),
 * where the clip of the incident box's primary face lost it: the least of the signed distance
 * σ·x_k − h_k over the incident box within the reference face's prism (the reference box's
 * frame, face x_k = σ·h_k, its prism |x_j| ≤ h_j for j ≠ k). A linear programme: its optimum lies
 * on a face of the incident box turned toward the reference face (outward normal m with
 * m·σe_k < 0; a point of any other face moves deeper along −σe_k inside both), so each of those
 * (at most 3) is clipped to the prism (Sutherland–Hodgman, Ericson 2005 §8.3.4, the planes
 * axis-aligned in that frame) and the least distance over the clipped vertices is the optimum.
 * A turned box whose lowest corner lies just beyond the reference face's side (seed 96: 8e-13
 * beyond an aabb's side at 2.5e3) has its primary face inside the prism only along the edge that
 * runs 4.8e-4 rad off that side plane, crossing it 6.8e-10 above the face, while its third edge
 * from the corner crosses 9e-12 below. Writes the average of the vertices within `tie` of the
 * least (as {@link faceWitnessCuboidCuboid}) on the incident box and its foot on the reference
 * face into out.pointA/pointB (A's frame) and returns true, when the least is below `clipBest`
 * (the clip's own); else false, out unchanged. Allocates nothing; asked only when the clip lost
 * the contact.
 */
function deepestInPrism(
  out: Contact,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  clipBest: number,
  tie: number,
): boolean {
  const faceA = sat.kind === AXIS_FACE_A;
  const ref = faceA ? a : b;
  const inc = faceA ? b : a;
  const k = faceA ? sat.i : sat.j;
  mat3.fromQuat(prismR, bInA.rotation);
  const n = out.normal;
  // σ: the side of the reference face the incident box lies on, in the reference box's frame.
  let sigma = 0;
  if (faceA) sigma = vec3.getAxis(n, k) >= 0 ? 1 : -1;
  else sigma = n.x * prismR[k] + n.y * prismR[3 + k] + n.z * prismR[6 + k] > 0 ? -1 : 1;
  const hr = ref.halfExtents;
  const hi = inc.halfExtents;
  const hrk = k === 0 ? hr.x : k === 1 ? hr.y : hr.z;
  // The incident box's corners and axes in the reference frame.
  for (let c = 0; c < 8; c++) {
    prismTmp.x = c & 1 ? hi.x : -hi.x;
    prismTmp.y = c & 2 ? hi.y : -hi.y;
    prismTmp.z = c & 4 ? hi.z : -hi.z;
    if (faceA) iso.transformPoint(prismTmp, bInA, prismTmp);
    else iso.inverseTransformPoint(prismTmp, bInA, prismTmp);
    prismCorners[3 * c] = prismTmp.x;
    prismCorners[3 * c + 1] = prismTmp.y;
    prismCorners[3 * c + 2] = prismTmp.z;
  }
  // B's axis a in A's frame is column a of R; A's axis a in B's frame is row a.
  for (let ax = 0; ax < 3; ax++) prismAxisK[ax] = faceA ? prismR[3 * k + ax] : prismR[3 * ax + k];
  const k1 = k === 0 ? 1 : 0;
  const k2 = k === 2 ? 1 : 2;
  const h1 = k1 === 0 ? hr.x : hr.y;
  const h2 = k2 === 1 ? hr.y : hr.z;
  let total = 0;
  for (let ax = 0; ax < 3; ax++) {
    const mk = prismAxisK[ax];
    if (mk === 0) continue;
    // The face of side ±1 along this axis turned toward the reference face: side·mk·σ < 0.
    const side = mk * sigma > 0 ? 0 : 1;
    const u = ax === 0 ? 1 : 0;
    const v = ax === 2 ? 1 : 2;
    for (let q = 0; q < 4; q++) {
      const c = (side << ax) | (FACE_LOOP_U[q] << u) | (FACE_LOOP_V[q] << v);
      prismPolyA[3 * q] = prismCorners[3 * c];
      prismPolyA[3 * q + 1] = prismCorners[3 * c + 1];
      prismPolyA[3 * q + 2] = prismCorners[3 * c + 2];
    }
    prismCount[0] = 4;
    clipSlab(prismPolyB, prismPolyA, k1, 1, h1);
    clipSlab(prismPolyA, prismPolyB, k1, -1, h1);
    clipSlab(prismPolyB, prismPolyA, k2, 1, h2);
    clipSlab(prismPolyA, prismPolyB, k2, -1, h2);
    const m = prismCount[0];
    for (let q = 0; q < m; q++) {
      prismPoints[3 * total] = prismPolyA[3 * q];
      prismPoints[3 * total + 1] = prismPolyA[3 * q + 1];
      prismPoints[3 * total + 2] = prismPolyA[3 * q + 2];
      prismDistances[total] = sigma * prismPolyA[3 * q + k] - hrk;
      total++;
    }
  }
  let best = Number.POSITIVE_INFINITY;
  for (let q = 0; q < total; q++) best = Math.min(best, prismDistances[q]);
  prismBestIo[0] = best;
  if (!(best < clipBest)) return false;
  vec3.set(prismInc, 0, 0, 0);
  let count = 0;
  for (let q = 0; q < total; q++) {
    if (prismDistances[q] > best + tie) continue;
    prismInc.x += prismPoints[3 * q];
    prismInc.y += prismPoints[3 * q + 1];
    prismInc.z += prismPoints[3 * q + 2];
    count++;
  }
  vec3.scale(prismInc, prismInc, 1 / count);
  // Its foot on the reference face: the face's coordinate set exactly (the other two lie in the
  // prism: an average of points that do).
  vec3.copy(prismRef, prismInc);
  vec3.setAxis(prismRef, k, sigma * hrk);
  if (faceA) {
    vec3.copy(out.pointA, prismRef);
    vec3.copy(out.pointB, prismInc);
  } else {
    iso.transformPoint(out.pointA, bInA, prismInc);
    iso.transformPoint(out.pointB, bInA, prismRef);
  }
  return true;
}

/**
 * One pass of {@link deepestInPrism}'s clip: the polygon `src` (prismCount[0] vertices) cut to
 * the half-space sign·x_j ≤ h, into `dst`, prismCount[0] updated. A crossing is interpolated
 * from the end nearer the plane and its coordinate j set to the plane's exactly.
 */
function clipSlab(dst: Float64Array, src: Float64Array, j: number, sign: number, h: number): void {
  const n = prismCount[0];
  let m = 0;
  if (n === 0) return;
  let p = 3 * (n - 1);
  let d0 = sign * src[p + j] - h;
  for (let e = 0; e < n; e++) {
    const q = 3 * e;
    const d1 = sign * src[q + j] - h;
    if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) {
      // From the nearer end: the step is the smaller fraction of the edge.
      const near = Math.abs(d0) <= Math.abs(d1) ? p : q;
      const far = near === p ? q : p;
      const dn = near === p ? d0 : d1;
      const df = near === p ? d1 : d0;
      const t = dn / (dn - df);
      dst[3 * m] = src[near] + t * (src[far] - src[near]);
      dst[3 * m + 1] = src[near + 1] + t * (src[far + 1] - src[near + 1]);
      dst[3 * m + 2] = src[near + 2] + t * (src[far + 2] - src[near + 2]);
      dst[3 * m + j] = sign * h;
      m++;
    }
    if (d1 <= 0) {
      dst[3 * m] = src[q];
      dst[3 * m + 1] = src[q + 1];
      dst[3 * m + 2] = src[q + 2];
      m++;
    }
    d0 = d1;
    p = q;
  }
  prismCount[0] = m;
}

/**
 * Box–box contact: the 15-axis SAT when the boxes overlap or touch; when they are apart but
 * within a positive prediction distance, GJK gives the true gap (SAT only bounds it).
 */
export function contactCuboidCuboid(
  out: Contact,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
  prediction: number,
): boolean {
  if (contactCuboidCuboidSat(out, a, b, bInA)) {
    faceWitnessCuboidCuboid(out, a, b, bInA);
    return true;
  }
  if (prediction <= 0) return false;
  if (!contactConvexConvex(out, a, b, bInA, prediction)) return false;
  // The SAT separated the boxes; GJK within the near-touching band (or touching) has its
  // witnesses and normal only to its tolerance (a box of 1e-5 3.4e-14 under a flat box of 10 at
  // 500: distance 0 there, both witnesses on the flat box). The exact closest pair, its
  // direction, then the SAT's axis where it attains the gap (satGapContact).
  if (out.distance <= TOUCH_BAND * witnessMagnitude(out.pointA, out.pointB, bInA.translation)) {
    polishGapPair(out.pointA, out.pointB, a, b, bInA);
    const d = vec3.distance(out.pointA, out.pointB);
    out.distance = d;
    if (d > 0) {
      vec3.sub(out.normal, out.pointB, out.pointA);
      vec3.scale(out.normal, out.normal, 1 / d);
      cornerEdgeNormal(out.normal, out.pointA, out.pointB, a, b, bInA);
    }
    satGapContact(out, a, b, bInA);
  }
  return true;
}

const satContact = makeContact();

/**
 * Box–box distance (B at `bInA` in A's frame; A's frame out): when the boxes overlap or touch,
 * distance 0 and the deepest points of {@link contactCuboidCuboid}'s SAT contact — witness
 * points on the boxes, as its depth and normal are exact (GJK/EPA, asked here before, put a
 * witness 4e5 off a flat box of that size); when the SAT separates them, GJK's closest points
 * (the SAT separation only bounds the gap from below), polished within the near-touching band
 * ({@link polishGapWitnesses}). Returns out.
 */
export function distanceCuboidCuboid(
  out: DistanceResult,
  a: Cuboid,
  b: Cuboid,
  bInA: Isometry,
): DistanceResult {
  if (contactCuboidCuboidSat(satContact, a, b, bInA)) {
    faceWitnessCuboidCuboid(satContact, a, b, bInA);
    out.distance = 0;
    vec3.copy(out.pointA, satContact.pointA);
    vec3.copy(out.pointB, satContact.pointB);
    return out;
  }
  distanceConvexConvex(out, a, b, bInA);
  if (out.distance <= TOUCH_BAND * witnessMagnitude(out.pointA, out.pointB, bInA.translation)) {
    polishGapPair(out.pointA, out.pointB, a, b, bInA);
    out.distance = vec3.distance(out.pointA, out.pointB);
  }
  return out;
}

const polishA = vec3.create();
const polishB = vec3.create();
const polishLocal = vec3.create();
const bestA = vec3.create();
const bestB = vec3.create();
/** {@link polishGapPair}'s point of B in B's frame (its clamped coordinates exactly ±half extent). */
const bestBLocal = vec3.create();
/** Alternating projections per start of {@link polishGapPair} (each pass ends when one does not shorten the pair). */
const POLISH_STEPS = 8;

/** `p` (in box `a`'s frame) clamped onto the box: its closest point of `a`, into `out`. */
function clampOnto(out: Vec3, a: Cuboid, p: Vec3): void {
  const h = a.halfExtents;
  out.x = Math.min(Math.max(p.x, -h.x), h.x);
  out.y = Math.min(Math.max(p.y, -h.y), h.y);
  out.z = Math.min(Math.max(p.z, -h.z), h.z);
}

/**
 * A gap the SAT separates but GJK left within the near-touching band (GJK/EPA ends there at the
 * rounding of the larger box: a box of 5e-5 whose corner touched a box of 20 had its witness on
 * the large face 1.3e-10 sideways, while the gap was 4e-15; a box of 1e-5 3.4e-14 under a flat
 * box of 10 at 500 got 3.6e-15 with both witnesses the flat box's corner, 7 from the small box;
 * issue 16): the witnesses `pA`, `pB` (A's frame) replaced by the shortest pair of alternating
 * exact closest-point projections onto the two boxes (each step never lengthens |pB − pA|; the
 * clamp onto a box is its closest point), started from GJK's point of A and again from B's centre
 * clamped onto A, so that a GJK pair off the boxes or short of the true gap is not kept. Both
 * points lie on their boxes. Allocates nothing.
 */
function polishGapPair(pA: Vec3, pB: Vec3, a: Cuboid, b: Cuboid, bInA: Isometry): void {
  let best = Number.POSITIVE_INFINITY;
  for (let start = 0; start < 2; start++) {
    if (start === 0) vec3.copy(polishA, pA);
    else clampOnto(polishA, a, bInA.translation);
    let last = Number.POSITIVE_INFINITY;
    for (let i = 0; i < POLISH_STEPS; i++) {
      // pB: the point of B nearest pA (clamped in B's frame); pA: the point of A nearest pB.
      iso.inverseTransformPoint(polishLocal, bInA, polishA);
      clampOnto(polishLocal, b, polishLocal);
      iso.transformPoint(polishB, bInA, polishLocal);
      clampOnto(polishA, a, polishB);
      const d = vec3.distance(polishA, polishB);
      if (d < best) {
        best = d;
        vec3.copy(bestA, polishA);
        vec3.copy(bestB, polishB);
        vec3.copy(bestBLocal, polishLocal);
      }
      if (!(d < last)) break;
      last = d;
    }
  }
  vec3.copy(pA, bestA);
  vec3.copy(pB, bestB);
}

const edgeAxis = vec3.create();

/**
 * The gap's normal `n` (A's frame, unit, from pA toward pB) made exactly perpendicular to the
 * edge when {@link polishGapPair}'s closest pair is a corner of one box against the inside of an
 * edge of the other (two of the point's coordinates on the box's faces, ±half extent, in its own
 * frame). The direction pB − pA of a gap far below the boxes' size carries the rounding of the
 * points' coordinates (~ε·size) divided by the gap; its component along the edge tilts the normal
 * off the edge's normal cone and the separation along it falls short of the gap by that tilt
 * times the edge's length (a flat aabb of 3e-3 whose corner lay 1.4e-12 from a box's edge: the
 * separation along the normal 5.6e-11 short, issue 16, seed 85). Removing the component along the
 * edge's direction leaves only the tilt about the edge, which keeps the edge and the corner
 * extreme (second order in the tilt). Face cases are the SAT's axes ({@link satGapContact});
 * edge–edge pairs its edge axes. Allocates nothing.
 */
function cornerEdgeNormal(n: Vec3, pA: Vec3, pB: Vec3, a: Cuboid, b: Cuboid, bInA: Isometry): void {
  const ha = a.halfExtents;
  const hb = b.halfExtents;
  const freeA =
    (Math.abs(pA.x) === ha.x ? 0 : 1) +
    (Math.abs(pA.y) === ha.y ? 0 : 2) +
    (Math.abs(pA.z) === ha.z ? 0 : 4);
  const q = bestBLocal;
  const freeB =
    (Math.abs(q.x) === hb.x ? 0 : 1) +
    (Math.abs(q.y) === hb.y ? 0 : 2) +
    (Math.abs(q.z) === hb.z ? 0 : 4);
  // One free coordinate on one side (an edge), none on the other (a corner).
  if (freeA === 0 && singleAxis(freeB)) {
    vec3.set(edgeAxis, freeB === 1 ? 1 : 0, freeB === 2 ? 1 : 0, freeB === 4 ? 1 : 0);
    iso.transformVector(edgeAxis, bInA, edgeAxis);
  } else if (freeB === 0 && singleAxis(freeA)) {
    vec3.set(edgeAxis, freeA === 1 ? 1 : 0, freeA === 2 ? 1 : 0, freeA === 4 ? 1 : 0);
  } else return;
  const wx = pB.x - pA.x;
  const wy = pB.y - pA.y;
  const wz = pB.z - pA.z;
  const along = wx * edgeAxis.x + wy * edgeAxis.y + wz * edgeAxis.z;
  const px = wx - along * edgeAxis.x;
  const py = wy - along * edgeAxis.y;
  const pz = wz - along * edgeAxis.z;
  const len = Math.sqrt(px * px + py * py + pz * pz);
  if (!(len > 0)) return;
  n.x = px / len;
  n.y = py / len;
  n.z = pz / len;
}

/** True when the bit mask of free coordinates (x 1, y 2, z 4) has exactly one bit: an edge. */
function singleAxis(m: number): boolean {
  return m === 1 || m === 2 || m === 4;
}
