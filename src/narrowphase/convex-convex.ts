/**
 * The general narrow phase: intersection, distance and contact for any pair of convex shapes
 * through their support functions — GJK for the distance, EPA for the penetration depth (Jolt's
 * "GJK on shrunk shapes, EPA only for deep penetration"; van den Bergen 2003, §4.3 and §4.4).
 *
 * Rounded shapes run as cores plus margins: a sphere is its centre point with margin = radius,
 * a capsule its segment with margin = radius, every other shape its own point set with margin
 * 0. GJK finds the core distance d; when d > rA + rB the shapes are apart by d − rA − rB, when
 * 0 < d ≤ rA + rB they overlap by rA + rB − d along the core normal (both exact: sphere–sphere
 * through here is exact), and only when the cores themselves intersect does EPA compute the
 * core depth, the full depth being core depth + rA + rB.
 *
 * When EPA cannot converge or its polytope degenerates, polytope pairs (cuboid, convex
 * polyhedron, triangle) fall back to SAT over their face normals and edge × edge cross products
 * (Ericson 2005, §5.2.1; Gottschalk 1996), and pairs with a curved core (cylinder, cone) fall
 * back to sampling the overlap h_A(n) + h_B(−n) over PENETRATION_FALLBACK_SAMPLES directions
 * and refining the best by local search: an upper bound on the depth that is always a valid
 * separating direction. Either candidate only replaces EPA's best face when it is shallower.
 *
 * Frames: every routine works in A's frame with B's pose `bInA` in A's frame; every output is
 * in A's frame. Normals point from A toward B and are always unit vectors: when A − B is
 * degenerate (coincident sphere centres) the normal is B's centre direction or, failing that,
 * +x. No allocation per call.
 */

import {
  EPA_CURVED_TOLERANCE,
  EPA_POLYTOPE_TOLERANCE,
  EPA_TOLERANCE,
  EXACT_TOUCH_BAND,
  MAX_REFINE_ITERATIONS,
  PENETRATION_FALLBACK_SAMPLES,
  REFINE_MIN_ANGLE,
  SAT_PARALLEL_EDGE_TOLERANCE,
  TOUCH_TOLERANCE,
} from "../constants.js";
import {
  EpaStatus,
  epa,
  epaAnswerSupports,
  epaLastSupport,
  epaLeastIo,
  epaOctahedron,
  makeEpaResult,
} from "../geometry/epa.js";
import { exactRange, fewPointHullsMeet } from "../geometry/exact-predicates.js";
import {
  type GjkSimplex,
  GjkStatus,
  gjkLimit,
  gjkLowerIo,
  gjkToLimit,
  makeGjkResult,
  tryNormalizeScaled,
} from "../geometry/gjk.js";
import {
  makeNormalRefinement,
  type NormalRefinement,
  refineLowerIo,
  refineOverlapNormal,
  setOverlapNormal,
} from "../geometry/refine-normal.js";
import {
  makeRevolutionProjection,
  projectRevolutionDims,
  RevolutionKind,
  revolutionDims,
} from "../geometry/revolution.js";
import { polytopeFeatureGap, simplexFeatureIo } from "../geometry/simplex-features.js";
import { SegmentSupport, type SupportMap } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import { hypotIo, mathHypot2Io, mathHypot3Io } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type PolytopeAxes, shapeDef } from "../shapes/registry.js";
import { type ConvexShape, ShapeType } from "../shapes/shape.js";
import { type Revolution, writeBoundingRadiusOf } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";
import { canonicalOrder } from "./canonical-order.js";
import { type Contact, contactErrorIo, type DistanceResult, makeContact } from "./contact.js";
import { convexPair, pairBInA } from "./convex-pair.js";
import { cornerIo, cornerRevolution } from "./corner-revolution.js";
import { pairMagnitudes } from "./extreme-scale.js";
import { deepBallOverlap } from "./inner-sphere.js";
import { rimContact } from "./rim-contact.js";
import { contactPredictionIo, contactTrianglePolytopeIo } from "./triangle-polytope.js";
import { witnessFaces } from "./witness-faces.js";
import { witnessFeatures } from "./witness-features.js";
import { witnessPolish } from "./witness-polish.js";

export { ShapeCoreSupport } from "./convex-pair.js";

const {
  boundIo,
  coreA,
  coreB,
  coreBInA,
  curved,
  FACE_SNAP_COS,
  FACE_WITNESS_SLACK,
  faceCopy,
  faceCross,
  faceNegate,
  faceP,
  faceQ,
  faceRotate,
  faceSub,
  flatDims,
  flatIo,
  flatN,
  flatPolytope,
  fromLocalA,
  isPolytope,
  lengthInto,
  loadPair,
  negN,
  overlapInto,
  overlapIo,
  overlapMemo,
  pairOffset,
  polishD1,
  polytopeCore,
  projectIo,
  revDims,
  revolutionCore,
  revProj,
  revQ,
  ridgeRadiusIo,
  sA,
  satGapIo,
  sB,
  shiftA,
  shiftIo,
  sizeIo,
  snapLocal,
  solvedA,
  solvedB,
  solvedIo,
  solvedNormal,
  toLocalA,
  touchIo,
  triangleWitnessIo,
} = convexPair;
const { coresToSurfaces, faceWitnesses, surfaceIo } = witnessFaces;
const {
  featureFacingWitnesses,
  featureGapWitnesses,
  flatContactNormal,
  flatSeparation,
  projectOnto,
  triangleWitnesses,
} = witnessFeatures;
const {
  alternateProjections,
  gapWitnesses,
  offShapeGapWitnesses,
  overlapTouches,
  placedIo,
  polishBest,
  polishBestQ,
  polishD2,
  polishIo,
  polishP,
  polishQ,
  polishWitnesses,
  provenIo,
  restoreSolved,
  SEAT_SLACK,
  saveSolved,
  seatWitnesses,
  touchWitnesses,
  witnessesOffShapes,
} = witnessPolish;

const gjkOut = makeGjkResult();
const epaOut = makeEpaResult();
const initDir = vec3.create();

/**
 * [0] the gap (≥ 0, +∞ for none; scene units for {@link solve}, solver units for
 * {@link solveLoaded}) beyond which the solve may stop, proven apart: set by the caller just
 * before each call, read first thing by the callee. A typed-array slot: a double passed to a call
 * V8 does not inline is boxed (the world's prediction, 1.7 KB per step of the six curved kinds'
 * probe in {@link contactConvexConvex}; issue 15).
 */
const solveGapIo = new Float64Array(1);

/**
 * Runs GJK (and EPA when the cores intersect) and writes solved*; returns false when a
 * separating axis proves the full gap exceeds `maxGap` (solveGapIo[0], scene units).
 */
function solve(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  const maxGap = solveGapIo[0];
  const k = loadPair(a, b, bInA);
  const wanted = contactErrorIo[1] !== 0;
  if (k === 1) {
    solveGapIo[0] = maxGap;
    if (!solveLoaded(a, b, pairBInA)) return false;
  } else {
    solveGapIo[0] = maxGap * k;
    if (!solveLoaded(a, b, pairBInA)) return false;
  }
  if (k === 1 && solvedIo[0] + coreA.margin + coreB.margin > 0) generatorCoreGap(a, b);
  provenIo[0] = boundIo[1];
  // (intersectsConvexConvex below can run solveLoaded again.)
  const fromOverlap = overlapGap;
  if (solvedIo[0] > 0 && (curved(a) || curved(b))) {
    projectGapWitness(a, b);
    pointGapWitness(a, b);
  }
  if (wanted) lowerBound();
  // (intersectsConvexConvex below loads the pair again.)
  const shifted = shiftIo[0] !== 0;
  if (shifted) {
    // Back to A's origin (the shift was B's offset, solver units).
    ccAdd(solvedA, solvedA, shiftA);
    ccAdd(solvedB, solvedB, shiftA);
  }
  if (k !== 1) {
    // Back to scene units (division by a power of two: exact unless the result under/overflows).
    const inv = 1 / k;
    solvedIo[0] *= inv;
    boundIo[0] *= inv;
    boundIo[1] *= inv;
    provenIo[0] *= inv;
    ccScale(solvedA, solvedA, inv);
    ccScale(solvedB, solvedB, inv);
  }
  // One truth with intersects (issue 16, must-have 2): a gap at the rounding level of the pair
  // is decided by the same test as intersectsConvexConvex (GJK with early out), which its own
  // GJK run, stopping elsewhere, can contradict by a few ulps.
  if (solvedIo[0] > 0) {
    lengthInto(solvedA, 1);
    lengthInto(solvedB, 2);
  }
  let nearGap = false;
  if (
    solvedIo[0] > 0 &&
    (solvedIo[0] <= NEAR_TOUCH * Math.max(sizeIo[1], sizeIo[2]) || polytopeGapIsRounding(a, b, k))
  ) {
    // intersectsConvexConvex may solve the pair again (into the same scratch): keep this answer.
    saveSolved();
    const touching = intersectsConvexConvex(a, b, bInA);
    restoreSolved();
    if (touching) {
      solvedIo[0] = 0;
      touchIo[0] = k;
      touchWitnesses(1);
    } else nearGap = true;
  }
  if (solvedIo[0] > 0 && (curved(a) || curved(b) || satGapIo[0] !== 0)) {
    // A gap within the near-touching band (intersects asked already): its witnesses polished
    // whatever they are, as a touch's (a witness 4.1e-13 beside a triangle of 5e-5 that a cone
    // touched, 2e-19 apart); a wider gap only where its witnesses lie apart sideways.
    touchIo[0] = k;
    if (satGapIo[0] !== 0 && featureGapWitnesses(a, b, bInA)) {
      // Two polytopes' SAT gap: the witnesses from their supporting features.
    } else if (nearGap && !gapFeatures(a, b, pairBInA)) polishWitnesses(1, 0, 0);
    else gapWitnesses(k);
  } else if (solvedIo[0] > 0 && fromOverlap) {
    // A gap of two polytopes found on the overlap path (GJK called them in contact at its
    // rounding level): its witnesses were placed along the normal, not taken from GJK's simplex.
    touchIo[0] = k;
    offShapeGapWitnesses();
  } else if (solvedIo[0] <= 0 && (curved(a) || curved(b))) {
    // An overlap of exactly 0 is a touch (a least overlap at or below 0, clamped: a cone on the
    // circle of normals across a triangle's edge, whose support there is a generator or a rim
    // point 5e-3 from the edge, had both witnesses on the cone; issue 16, seeds 31–32).
    // An overlap within the rounding of the pair's size is a touch but for its sign: one point
    // on both shapes, as at a touch (a triangle's witness 1.3e-13 beside it where it crossed a
    // cone's rim by 7e-15 at size 6); (pB − pA)·n is then 0, within that rounding of the depth.
    // A deeper one: each witness seated on its own shape.
    // The rounding is of the pair's magnitude in the solver's frame: its support points' (GJK's
    // simplex) as well as the witnesses' (a cone of 0.014 whose rim crossed the edge of a
    // triangle of 57 by 5e-15, the triangle's corners at 50 in the cone's frame: seated, the
    // witnesses were 9e-11 apart sideways).
    simplexSize(gjkOut.simplex);
    const s = sizeIo[0] / k;
    lengthInto(solvedA, 1);
    lengthInto(solvedB, 2);
    touchIo[0] = k;
    const m = Math.max(sizeIo[1], sizeIo[2], s);
    provenIo[1] = m;
    if (0 - solvedIo[0] <= TOUCH_TOLERANCE * m) touchWitnesses(1);
    else if (
      !(0 - solvedIo[0] <= NEAR_TOUCH * m) ||
      !(provenIo[0] >= 0 - TOUCH_TOLERANCE * m) ||
      !overlapTouches()
    )
      seatWitnesses();
  } else if (solvedIo[0] < 0 || (solvedIo[0] === 0 && isPolytope(a) && isPolytope(b))) {
    // Two polytopes overlapping by little against their size: witnesses placed along the
    // normal from EPA's blends can lie beside a ridge that a small box's edge crosses (1.7e-6
    // off a hull of 10 whose ridge a box of 1e-5 crossed 4e-16 deep; the box's corner 3.9e-2
    // off a hull of 1e6 whose ridge it crossed, 1e-8 deep by the solver): where one is off its
    // shape, one point on both, as at a touch, or deeper each seated on its own shape. The
    // rounding is of the pair's magnitude in the solver's frame (the hull's support points at
    // 10 there, the witnesses at 1e-5).
    lengthInto(solvedA, 1);
    lengthInto(solvedB, 2);
    const w = Math.max(sizeIo[1], sizeIo[2]) * k;
    lengthInto(pairBInA.translation, 1);
    const size = Math.max(w, sizeIo[1], shiftIo[1]);
    touchIo[0] = k;
    // Only overlaps within the near-touching band (a deep one, as a stack's, pays nothing), or
    // whose witness was moved along the normal by more than rounding to be placed (placedIo): a
    // hint from EPA's face moved onto another face's plane (a box-like hull of 0.2 on a
    // capsule's segment, 2e3 deep, its witness 1.5e-2 beside the hull's face; issue 16).
    const depth = (0 - solvedIo[0]) * k;
    if ((depth <= NEAR_TOUCH * size || placedIo[0] > SEAT_SLACK * size) && witnessesOffShapes()) {
      if (depth <= TOUCH_TOLERANCE * size) touchWitnesses(1);
      else seatWitnesses();
    }
  }
  // A curved pair touching or overlapping within the near-touching band: the normal taken onto
  // the pair's flat features where that achieves the depth more nearly (a normal 2e-11 off a
  // face's leaves 1e-10 of overlap along it at the corner of a triangle of 5; issue 16). A deeper
  // contact (the world's resting ones) pays nothing: its normal is the refinement's, snapped —
  // but against a rounded shape whose core is apart from the curved one at any depth: the normal
  // is then GJK's direction between the cores, good to the square root of its tolerance across
  // flat features (a cylinder's generator across a rounded hull's core edge, 2.3e-9 rad off at a
  // depth of 7e-12 beside a cylinder of 4e-7; issue 16, rounded-axis-depth).
  if (solvedIo[0] <= 0 && (curved(a) || curved(b))) {
    lengthInto(solvedA, 1);
    lengthInto(solvedB, 2);
    if (
      0 - solvedIo[0] <= NEAR_TOUCH * Math.max(sizeIo[1], sizeIo[2]) ||
      solvedIo[0] * k + coreA.margin + coreB.margin > 0
    )
      flatContactNormal(a, b, k);
  }
  faceWitnesses(k);
  if ((coreA.margin !== 0 || coreB.margin !== 0) && (curved(a) || curved(b))) gapPairNormal(k);
  // A polytope's corner against a cylinder or cone: the corner's closed form where its bounds meet.
  if (cornerRevolution(a, b, bInA, solvedIo, solvedNormal, solvedA, solvedB) && wanted) {
    boundIo[0] = Math.max(boundIo[0], cornerIo[0]);
    boundIo[1] = Math.min(boundIo[1], cornerIo[1]);
  } else if (rimContact(a, b, bInA, solvedIo, solvedNormal, solvedA, solvedB) && wanted) {
    // A box's edge or face across the solid's rim: the overlap along the answer's normal, which
    // it achieves, a lower bound of the signed distance.
    boundIo[0] = Math.max(boundIo[0], solvedIo[0]);
  }
  if (wanted && solvedIo[0] < 0) witnessDepthBound(a, b, bInA);
  if (wanted) recordError(bInA);
  // (After the error's record: its rounding term is of the witnesses' magnitude before.)
  if ((polytopeCore(a) && polytopeCore(b)) || (revolutionCore(a) === a && revolutionCore(b) === b))
    featureFacingWitnesses(a, b, bInA);
  // A triangle's witness onto the triangle in its own frame (placed in the solver's, from the
  // other shape's features; issue 16, seed 87), at a touch or within the near-touching band: a
  // deeper contact or a wider gap (the world's resting ones) pays nothing, its witnesses those
  // of the solver's supports.
  if (
    (a.type === ShapeType.Triangle || b.type === ShapeType.Triangle) &&
    triangleWitnessIo[0] === 0 &&
    nearTouch()
  )
    triangleWitnesses(a, b, bInA);
  return true;
}

/**
 * True when the last {@link solveLoaded} answered a gap from its overlap path (EPA, SAT, the
 * refinement), whose witnesses are placed along the normal, rather than from GJK's simplex.
 */
let overlapGap = false;

/**
 * The scale of the rounding of the overlap along a direction as {@link solveLoaded} left it: the
 * witnesses' largest magnitude in the solver's frame (where the support points are evaluated),
 * and the distance of that frame's origin from A's when it was moved (a curved A's support points
 * round at A's own coordinates before the shift), to sizeIo[0]. Solver units.
 */
function witnessScale(): void {
  lengthInto(solvedA, 1);
  lengthInto(solvedB, 2);
  sizeIo[0] = Math.max(sizeIo[1], sizeIo[2], shiftIo[1]);
}

/**
 * True when two polytopes' solved gap (scene units) lies within {@link EXACT_TOUCH_BAND} of the
 * magnitude of GJK's support points (solver units, `k` times scene units): the rounding of
 * those points, not a separation, when the witnesses are far smaller — two hulls sharing a
 * vertex at their frames' origin had a gap of 1.9e-16 with both witnesses there, two crossing
 * edges 3.6e-12 among support points of 1.3e5 (session 23) — so {@link solve} asks intersects,
 * whose exact test of the supporting features decides, as for a gap within {@link NEAR_TOUCH} of
 * the witnesses' magnitude. Overwrites sizeIo.
 */
function polytopeGapIsRounding(a: ConvexShape, b: ConvexShape, k: number): boolean {
  if (!isPolytope(a) || !isPolytope(b) || octahedronIo[0] !== 0) return false;
  simplexSize(gjkOut.simplex);
  return solvedIo[0] * k <= EXACT_TOUCH_BAND * sizeIo[0];
}

/** Gap, relative to the witnesses' magnitude, under which {@link solve} asks intersects. */
const NEAR_TOUCH = 2 ** -20;

/**
 * True when the solved pair (solvedIo[0], solvedA, solvedB: scene units) touches, overlaps or is
 * apart by at most {@link NEAR_TOUCH} of its witnesses' magnitude. Leaves sizeIo[1], sizeIo[2].
 */
function nearTouch(): boolean {
  lengthInto(solvedA, 1);
  lengthInto(solvedB, 2);
  return Math.abs(solvedIo[0]) <= NEAR_TOUCH * Math.max(sizeIo[1], sizeIo[2]);
}

/**
 * boundIo[0] = the signed distance along the solved normal (cores loaded, solver units). When
 * EPA's polytope bounds the depth and its tolerance leaves more than BOUND_TARGET of it open,
 * EPA runs again from GJK's simplex to BOUND_EPA_TOLERANCE for a tighter boundIo[1] (queries
 * only: the answer itself does not change).
 */
function lowerBound(): void {
  const r = coreA.margin + coreB.margin;
  overlapInto(solvedNormal);
  boundIo[0] = 0 - overlapIo[0] - r;
  if (epaBoundIo[0] === 0) return;
  const s = solvedIo[0];
  if (!(boundIo[1] - s > BOUND_TARGET * Math.abs(s))) return;
  if (octahedronIo[0] === 0) {
    epa(epaBound, coreA, coreBInA, gjkOut.simplex, gjkOut.direction, BOUND_EPA_TOLERANCE);
  } else epaOctahedron(epaBound, coreA, coreBInA, BOUND_EPA_TOLERANCE);
  if (epaBound.status !== EpaStatus.Converged && epaBound.status !== EpaStatus.MaxIterations) {
    return;
  }
  const u = 0 - epaBound.depth - r;
  if (u < boundIo[1]) boundIo[1] = u;
}

/** [0] 1 when the last {@link solveLoaded} started EPA from the octahedron ({@link octahedronStart}). */
const octahedronIo = new Float64Array(1);

/**
 * EPA into epaOut from the octahedron of support points (`epaOctahedron`), for two polytopes
 * whose inner balls overlap deeply (`deepBallOverlap`), in the caller's frame and units (not
 * rescaled or shifted by {@link loadPair}); false when the test or the octahedron fails (GJK
 * and EPA from its simplex then run). The answer goes through the same steps as EPA's from
 * GJK's simplex (`exactPolytopeAxis`, the fallbacks).
 */
function octahedronStart(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  if (shiftIo[0] !== 0 || coreA.scale !== 1) return false;
  if (!deepBallOverlap(a, b, bInA)) return false;
  return epaOctahedron(epaOut, coreA, coreBInA, EPA_POLYTOPE_TOLERANCE);
}

/** [0] 1 when the last {@link solveLoaded} ran EPA from a simplex holding the origin. */
const epaBoundIo = new Float64Array(1);
const epaBound = makeEpaResult();

/**
 * Depth, relative to the support points' size, under which two polytopes' EPA answer is checked
 * by SAT: EPA's closest face is the difference's to its floor of that size (GJK_ROUNDING_TOLERANCE;
 * sliver faces where a small shape's feature meets a large one's), so its depth can exceed the
 * least overlap by ~1e-12 of the size, or be an overlap where the shapes are apart, beyond the
 * depth bar (1e-6·depth + 64·ε·L) only where the depth is below about 1e-6 of the size.
 */
const POLYTOPE_SAT_BAND = 1e-6;

/** Relative error bound above which {@link lowerBound} tightens EPA's. */
const BOUND_TARGET = 1e-9;

/** EPA's relative tolerance when run again for the bound alone. */
const BOUND_EPA_TOLERANCE = 1e-12;

/**
 * The error bound of the solved signed distance from {@link boundIo} (scene units), plus the
 * rounding of the support points' evaluation (TOUCH_TOLERANCE of their magnitude: the witnesses',
 * and the shapes' sizes with B's offset from A at `bInA` — a hull of 1e6 placed 1e6 away has its
 * vertices, and so its faces' planes, rounded at that magnitude however near the origin the
 * witnesses lie: a cylinder of 4e-7 1.3e-10 from such a hull's edge was answered 5.4e-11 deep
 * with that as its bound; issue 16, a fresh-user attack), raised into the query's register
 * {@link contactErrorIo}.
 */
function recordError(bInA: Isometry): void {
  const s = solvedIo[0];
  lengthInto(solvedA, 1);
  lengthInto(solvedB, 2);
  const t = bInA.translation;
  const reach =
    Math.max(pairMagnitudes[0], 0) +
    Math.max(pairMagnitudes[1], 0) +
    Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  const round = TOUCH_TOLERANCE * (Math.max(sizeIo[1], sizeIo[2], reach) + Math.abs(s));
  const e = Math.max(boundIo[1] - s, s - boundIo[0], 0) + round;
  // A NaN bound (a degenerate run) claims nothing: infinite.
  const bound = e >= 0 ? e : Number.POSITIVE_INFINITY;
  if (!(bound <= contactErrorIo[0])) contactErrorIo[0] = bound;
}

/** {@link witnessDepthBound}'s witness in the solid's frame and its projection. */
const depthLocal = vec3.create();
const depthProj = makeRevolutionProjection();

/**
 * An upper bound of an overlap's signed distance from its witnesses: a point of one shape lying
 * inside the other at depth δ (its signed distance from a bare cylinder or cone, exact by
 * projection: src/geometry/revolution.ts) makes the Minkowski difference hold the solid's copy
 * about that point, so the origin lies at least δ inside the difference: the pair's depth is at
 * least δ, its signed distance at most −δ (boundIo[1] lowered to it). Where EPA gives no bound
 * (a hull's corner on a cylinder's axis, the depth the radius: the bound was 0, the errorBound
 * the whole depth; issue 16, attack30 F4), the witness on the polytope or on the smaller solid
 * does. Scene units, A's frame (solvedA, solvedB as {@link solve} leaves them); witnesses on
 * their shapes to rounding, which recordError adds.
 */
function witnessDepthBound(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  for (let side = 0; side < 2; side++) {
    // The witness of side `side` inside the other shape, a bare solid of revolution.
    const solid = side === 0 ? b : a;
    const rev = shapeDef(solid.type).revolution;
    if (rev === null) continue;
    const w = side === 0 ? solvedA : solvedB;
    if (side === 0) {
      depthLocal.x = w.x - bInA.translation.x;
      depthLocal.y = w.y - bInA.translation.y;
      depthLocal.z = w.z - bInA.translation.z;
      ccInverseRotate(depthLocal, bInA.rotation, depthLocal);
    } else ccCopy(depthLocal, w);
    rev.dims(revolutionDims, solid);
    projectRevolutionDims(depthProj, rev.kind, depthLocal);
    if (depthProj.distance < boundIo[1]) boundIo[1] = depthProj.distance;
  }
}

/**
 * {@link solve} on the cores as loaded by {@link loadPair} (B at `bInA`, in the solver's units),
 * `maxGap` solveGapIo[0] (solver units).
 */
function solveLoaded(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  const maxGap = solveGapIo[0];
  const rA = coreA.margin;
  const rB = coreB.margin;
  const r = rA + rB;
  ccCopy(initDir, pairOffset);
  // Doubles through typed arrays and vector updates written out in this routine: a double passed
  // to or returned by a call V8 does not inline is boxed (allocated), as under the mesh pairs'
  // deep call chains.
  const polytopes = isPolytope(a) && isPolytope(b);
  // Two polytopes that surely overlap deeply: EPA from an octahedron, no GJK (src/geometry/epa.ts).
  const deep = polytopes && octahedronStart(a, b, bInA);
  octahedronIo[0] = deep ? 1 : 0;
  if (!deep) {
    gjkLimit[0] = maxGap + r;
    gjkLimit[1] = r;
    gjkToLimit(gjkOut, coreA, coreBInA, initDir);
    if (gjkOut.status === GjkStatus.BeyondMaxDistance) return false;
  }
  overlapGap = false;
  placedIo[0] = 0;
  // Written on every path that returns an answer (the separated one below returns before EPA): a
  // register left from an earlier pair made `solve` take this pair's gap for a SAT gap, so the
  // same pair's witnesses depended on the calls before it (issue 16: a mesh against a rounded box
  // answered warm-started world steps differently from cold ones in the last bit).
  satGapIo[0] = 0;
  const unproven =
    !deep && (gjkOut.unproven || curvedGapUnbacked(a, b) || curvedCoreGapUnbacked(a, b));
  // The upper bound of boundIo: GJK's closest point (a point of the Minkowski difference).
  boundIo[1] = !deep && gjkOut.status === GjkStatus.Separated ? gjkOut.distance - r : 0 - r;
  epaBoundIo[0] = 0;
  if (unproven) {
    // GJK stalled on a sliver simplex without a separating axis, |v| at its rounding level: the
    // pair touches, overlaps or is apart by less than GJK resolves. Candidate 1: the least
    // overlap over directions refined from GJK's axis (a gap when negative; GJK's witnesses
    // place flat-on-flat contacts). Candidate 2: EPA from GJK's simplex, below — the refinement
    // alone can end in a local minimum of the overlap (another face of a small box). The least
    // overlap of the two is kept (both are attained by their directions).
    refineOverlapNormal(refined, coreA, coreBInA, gjkOut.direction, gjkOut.pointA, gjkOut.pointB);
    snapToFaceNormal(a, b, bInA, gjkOut.pointA, gjkOut.pointB);
    snapToRevolution(a, b, bInA);
    unprovenIo[0] = refined.overlap;
    ccCopy(unprovenNormal, refined.normal);
    ccCopy(unprovenA, refined.pointA);
    placedIo[1] = refined.placed;
    ccCopy(unprovenB, refined.pointB);
  }
  if (!deep && !unproven && gjkOut.status === GjkStatus.Separated && gjkOut.distance > 0) {
    ccCopy(solvedNormal, gjkOut.direction);
    solvedIo[0] = gjkOut.distance - r;
    const n = solvedNormal;
    const pa = gjkOut.pointA;
    const pb = gjkOut.pointB;
    solvedA.x = pa.x + n.x * rA;
    solvedA.y = pa.y + n.y * rA;
    solvedA.z = pa.z + n.z * rA;
    solvedB.x = pb.x + n.x * -rB;
    solvedB.y = pb.y + n.y * -rB;
    solvedB.z = pb.z + n.z * -rB;
    // The cores apart: a gap, or a depth through the margins (the rounded shapes overlapping by
    // less than their radii), is GJK's |v| less the margins, polished alike (issue 16, session 23).
    if (!polytopes) polishGap(a, b, bInA);
    else if (solvedIo[0] > 0) exactPolytopeGap();
    // A gap at the rounding level of the pair's size is touching (issue 16, class 1).
    if (solvedIo[0] > 0) {
      simplexSize(gjkOut.simplex);
      if (solvedIo[0] <= TOUCH_TOLERANCE * (sizeIo[0] + r)) {
        solvedIo[0] = 0;
        touchWitnesses(0);
      }
    }
    return true;
  }
  if (!deep) {
    epa(
      epaOut,
      coreA,
      coreBInA,
      gjkOut.simplex,
      gjkOut.direction,
      polytopes
        ? EPA_POLYTOPE_TOLERANCE
        : curved(a) || curved(b)
          ? EPA_CURVED_TOLERANCE
          : EPA_TOLERANCE,
    );
  }
  // EPA's confirming support pair (along its closest face's normal) for overlapInto.
  if (epaLastSupport(overlapMemo)) overlapMemo[9] = 1;
  let depth = epaOut.depth;
  // EPA's polytope holds the origin when GJK's simplex did (not after an unproven run): the
  // depth of its closest face is a lower bound on the core depth (see boundIo).
  if (
    !unproven &&
    (deep || gjkOut.status !== GjkStatus.Separated) &&
    (epaOut.status === EpaStatus.Converged || epaOut.status === EpaStatus.MaxIterations) &&
    depth > 0
  ) {
    boundIo[1] = 0 - depth - r;
    epaBoundIo[0] = 1;
  } else epaBoundIo[0] = 0;
  ccCopy(solvedNormal, epaOut.normal);
  ccCopy(solvedA, epaOut.pointA);
  ccCopy(solvedB, epaOut.pointB);
  if (epaOut.status !== EpaStatus.Converged && epaOut.status !== EpaStatus.Flat) {
    // EPA's best face is a lower bound; take a guaranteed upper bound (a separating direction).
    overlapInto(solvedNormal);
    depth = overlapIo[0];
    if (polytopes) {
      satDepth(a, b, bInA);
      const sat = satIo[0];
      if (sat < depth) {
        depth = sat;
        ccCopy(solvedNormal, fallbackNormal);
      }
    } else {
      // Refine EPA's normal, and independently the best of the sampled directions.
      ccCopy(fallbackNormal, solvedNormal);
      // Through refineIo (a double returned by a call V8 does not inline is tagged, and merged
      // into `depth` it would box every depth on the common path too).
      refineIo[0] = depth;
      refineDirection();
      depth = refineIo[0];
      ccCopy(solvedNormal, fallbackNormal);
      sampledDepth(bInA);
      const sampled = refineIo[0];
      if (sampled < depth) {
        depth = sampled;
        ccCopy(solvedNormal, fallbackNormal);
      }
      refineIo[0] = depth;
      stalledCandidates(a, b, bInA);
      depth = refineIo[0];
    }
    witnessesAlong(a, b, solvedNormal, depth);
    placedIo[0] = Math.abs(depth);
  }
  // EPA's face on a curved Minkowski difference is good to EPA_TOLERANCE only, and its witnesses
  // are blends of support points, inside the shapes: refine the normal to the least overlap
  // and take the support points along it, on both surfaces (issue 16, classes 4 and 5).
  if (polytopes && epaOut.status === EpaStatus.Converged) {
    // The depth in and out through axisIo: a double crossing a call V8 does not inline is boxed.
    axisIo[1] = depth;
    exactPolytopeAxis(a, b, bInA);
    depth = axisIo[1];
    if (!deep) {
      // A depth within POLYTOPE_SAT_BAND of the support points' size: the origin can be inside
      // GJK's simplex and EPA's polytope by rounding only, and their closest face need not be
      // the difference's (a hull of 8e-4 on a hull of 1.3e5, EPA 5.7e-9 deep, SAT's axes 1.6e-9
      // apart; a box of 2e-6 by a box of 2368's edge, EPA 3.6e-9 deep, 2.6e-10 apart; a hull's
      // face 9e-13 below EPA's of 1.6e-11). SAT's least overlap (exact for two polytopes) instead.
      simplexSize(gjkOut.simplex);
      if (depth <= POLYTOPE_SAT_BAND * sizeIo[0]) {
        satDepth(a, b, bInA);
        const sat = satIo[0];
        // EPA's witnesses are kept, on the shapes (placed on the supporting planes, a hull's was
        // 0.54 off a box of 3.7e5 whose edge it straddled), a gap's taken onto both later.
        if (sat < 0) satGapIo[0] = 1;
        if (sat < depth && sat >= 0) {
          // A lesser overlap along a SAT axis: the witnesses placed along it (EPA's lie along
          // its own normal).
          setOverlapNormal(refined, coreA, coreBInA, fallbackNormal, solvedA, solvedB);
          ccCopy(solvedNormal, refined.normal);
          ccCopy(solvedA, refined.pointA);
          ccCopy(solvedB, refined.pointB);
          depth = refined.overlap;
        } else if (sat < depth) {
          ccCopy(solvedNormal, fallbackNormal);
          depth = sat;
        }
      }
    }
    // EPA's witnesses are blends of support points at the larger shape's magnitude: with a hull
    // of 6e-6 deep inside one of 6e5 (issue 16, seed 44 at main 862b248) the blend lay 6.8e5
    // from the small hull. A witness outside its shape's bounding ball is no witness: B's
    // deepest point along −n instead, and A's depth·n ahead of it.
    if (witnessOutsideBall(a, b, bInA)) {
      witnessesAlong(a, b, solvedNormal, depth);
      placedIo[0] = Math.abs(depth);
    }
  } else {
    // EPA's depth, a certified lower bound when it converged, through refineLowerIo.
    const bounded = epaOut.status === EpaStatus.Converged;
    if (bounded) refineLowerIo[0] = epaOut.depth;
    refineOverlapNormal(refined, coreA, coreBInA, solvedNormal, solvedA, solvedB, bounded);
    searchRevolutionRidges(a, b, bInA, solvedA, solvedB);
    if (curved(a) && curved(b)) rimPairMinimum(a, b, bInA);
    snapToFaceNormal(a, b, bInA, solvedA, solvedB);
    snapToRevolution(a, b, bInA);
    if (refined.overlap <= depth || !polytopes) {
      depth = refined.overlap;
      ccCopy(solvedNormal, refined.normal);
      ccCopy(solvedA, refined.pointA);
      ccCopy(solvedB, refined.pointB);
      placedIo[0] = refined.placed;
    }
  }
  // EPA's answer from a sliver simplex only where clearly less (its flat-polytope witnesses can
  // lie far from the contact on a tie).
  if (unproven) simplexSize(gjkOut.simplex);
  if (unproven && !(depth < unprovenIo[0] - UNPROVEN_SLACK * sizeIo[0])) {
    depth = unprovenIo[0];
    ccCopy(solvedNormal, unprovenNormal);
    ccCopy(solvedA, unprovenA);
    placedIo[0] = placedIo[1];
    ccCopy(solvedB, unprovenB);
  }
  solvedIo[0] = 0 - (depth + r);
  overlapGap = solvedIo[0] > 0;
  const n = solvedNormal;
  solvedA.x = solvedA.x + n.x * rA;
  solvedA.y = solvedA.y + n.y * rA;
  solvedA.z = solvedA.z + n.z * rA;
  solvedB.x = solvedB.x + n.x * -rB;
  solvedB.y = solvedB.y + n.y * -rB;
  solvedB.z = solvedB.z + n.z * -rB;
  return true;
}

const featurePA = vec3.create();
const featurePB = vec3.create();
const featureDir = vec3.create();

/**
 * Two polytopes apart: GJK's gap is the projection of the origin onto a simplex of support-point
 * differences at the larger shape's magnitude, a sliver where an edge of a small shape crosses an
 * edge of a large one (issue 16: a hull of 0.1 beside one of 1e5 at 1e8, 3.7e-5 relative off,
 * below the certified lower bound; one of 1e-8 beside one of 10, 8.4e-11 over). Unless GJK's
 * answer is certified already, the supporting features' own closest points instead
 * ({@link polytopeFeatureGap}), taken when the separation along their normal (a certified lower
 * bound, one support pair) agrees with their distance (an upper bound: points of the shapes) to
 * TOUCH_TOLERANCE of the support points' magnitude, so the pair's distance is pinned between the
 * two; else GJK's answer stays. Margins added as in {@link solveLoaded}. Cores loaded.
 */
function exactPolytopeGap(): void {
  simplexSize(gjkOut.simplex);
  const tol = TOUCH_TOLERANCE * sizeIo[0];
  // GJK's answer certified already (the common case, shapes of like sizes): its witnesses'
  // distance (an upper bound) and |v| within the tolerance of the separation along its
  // direction (a lower bound).
  // (GJK's own last separation when it ended on its gap test, else one support pair.)
  let sep = gjkLowerIo[0];
  if (Number.isNaN(sep)) {
    overlapInto(solvedNormal);
    sep = 0 - overlapIo[0];
  }
  ccSub(featureDir, gjkOut.pointA, gjkOut.pointB);
  lengthInto(featureDir, 1);
  if (sizeIo[1] - sep <= tol && Math.abs(gjkOut.distance - sep) <= tol) return;
  simplexFeatureIo[0] = tol;
  // GJK's own width, its distance (|v| or its witnesses') less the separation along it: a pair
  // of the features not certified to the tolerance replaces GJK's answer only where narrower.
  simplexFeatureIo[2] = Math.max(sizeIo[1], gjkOut.distance) - sep;
  polytopeFeatureGap(featurePA, featurePB, featureDir, gjkOut.simplex, coreA, coreBInA);
  const d = simplexFeatureIo[0];
  if (!(d < Number.POSITIVE_INFINITY)) return;
  const rA = coreA.margin;
  const rB = coreB.margin;
  solvedIo[0] = d - rA - rB;
  ccCopy(solvedNormal, featureDir);
  ccAddScaled(solvedA, featurePA, featureDir, rA);
  ccAddScaled(solvedB, featurePB, featureDir, -rB);
}

/**
 * GJK on a cylinder or cone can stall on a sliver simplex of support points that are chords of
 * the curved surface, at a |v| far above its rounding level and with no separating axis: it then
 * reports a gap that is no gap (issue 16: a hull's vertex 2.9e-4 inside a cylinder of radius
 * 8786 was "apart by 2.4e-4", its witness on a chord 5.3e-4 inside the cylinder); so can a long
 * segment (a capsule's core) against a small set, the simplex a sliver of the segment's length
 * and the set's width. True for a pair other than two polytopes (SAT decides those) whose GJK
 * gap exceeds the touching
 * tolerance while the separation along GJK's own direction (a certified lower bound on the gap,
 * one support pair) does not: the caller then decides it as GJK's `unproven` stall, by the
 * least overlap refined from GJK's direction. Cores loaded (their margins read from them).
 */
function curvedGapUnbacked(a: ConvexShape, b: ConvexShape): boolean {
  if (gjkOut.status !== GjkStatus.Separated || gjkOut.unproven) return false;
  if (!curved(a) && !curved(b) && isPolytope(a) && isPolytope(b)) return false;
  // The cores' margins read here, not passed: a double passed to a call V8 does not inline is
  // boxed (allocated), ≈ 120 B per world step in the mesh probe.
  const r = coreA.margin + coreB.margin;
  simplexSize(gjkOut.simplex);
  const touch = TOUCH_TOLERANCE * (sizeIo[0] + r);
  if (!(gjkOut.distance - r > touch)) return false;
  overlapInto(gjkOut.direction);
  return !(0 - overlapIo[0] - r > touch);
}

/**
 * {@link curvedGapUnbacked} for the cores of rounded shapes that overlap by their margins: GJK's
 * core gap is then not a gap of the shapes, but the depth is the margins less it, and a core gap
 * that the separation along GJK's own direction does not back makes that depth wrong by as
 * much (issue 16: a capsule's segment of 2.5e5 through a cylinder of 4e-3 stalled on a sliver
 * simplex "1.4e-4 apart" while the cores overlapped by 2.3e-3, the cylinder's witness a blend
 * 1.3e-3 inside it; a capsule's segment of 400 through a hull of 4.5e-4 at 5e3 "3.9e-5 apart",
 * the depth 5.6e-4 short: seed 37 at main 704850b). Any pair but two polytopes. Cores loaded.
 */
function curvedCoreGapUnbacked(a: ConvexShape, b: ConvexShape): boolean {
  if (gjkOut.status !== GjkStatus.Separated || gjkOut.unproven) return false;
  // A core gap beyond the margins is the shapes' gap: curvedGapUnbacked's case.
  if (!(gjkOut.distance <= coreA.margin + coreB.margin)) return false;
  if (!curved(a) && !curved(b) && isPolytope(a) && isPolytope(b)) return false;
  simplexSize(gjkOut.simplex);
  const touch = TOUCH_TOLERANCE * sizeIo[0];
  if (!(gjkOut.distance > touch)) return false;
  overlapInto(gjkOut.direction);
  return !(0 - overlapIo[0] > touch);
}

/**
 * GJK's "touching" of a pair other than two polytopes, |v| within the touching tolerance of the
 * margins, that its own witnesses do not back: |pA − pB| (points of the cores, an upper bound on
 * their distance) beyond the margins by more than the tolerance. |v| is the projection of the
 * origin onto a simplex at the larger shape's magnitude and can round below the cores' distance
 * (a sliver of a cone's apex and two rim points 7e3 across, |v| 4e-8 short: a rounded box of 1e-2
 * 1e-9 to 4e-8 from the slant was "touching"; issue 16, session 23). The caller then decides the
 * pair as GJK's `unproven` stall. Cores loaded (their margins read from them).
 */
function curvedTouchUnbacked(a: ConvexShape, b: ConvexShape): boolean {
  if (gjkOut.status !== GjkStatus.Separated || gjkOut.unproven) return false;
  if (!curved(a) && !curved(b) && isPolytope(a) && isPolytope(b)) return false;
  const r = coreA.margin + coreB.margin;
  simplexSize(gjkOut.simplex);
  lengthInto(gjkOut.pointA, 1);
  lengthInto(gjkOut.pointB, 2);
  const touch = TOUCH_TOLERANCE * (Math.max(sizeIo[0], sizeIo[1], sizeIo[2], shiftIo[1]) + r);
  if (gjkOut.distance - r > touch) return false;
  ccSub(polishD, gjkOut.pointA, gjkOut.pointB);
  lengthInto(polishD, 1);
  return sizeIo[1] - r > touch;
}

const unprovenIo = new Float64Array(1);
const unprovenNormal = vec3.create(1, 0, 0);
const unprovenA = vec3.create();
const unprovenB = vec3.create();
const refined = makeNormalRefinement();

/**
 * Relative margin (of the simplex's size) by which EPA must beat the refinement after an unproven
 * GJK run: the touching tolerance, the rounding of the pair (2^-40 kept the refinement's 1.913e-10
 * over EPA's refined 1.886e-10 for a cylinder of 7 against a hull of 15, 1.3e-12 too deep).
 */
const UNPROVEN_SLACK = TOUCH_TOLERANCE;

/**
 * sizeIo[0] = the largest |w| over the simplex's Minkowski-difference points: the scale of GJK's
 * rounding (the lengths as vec3.length computes them, through `sizeIo[1]`).
 */
function simplexSize(s: GjkSimplex): void {
  let m = 0;
  for (let i = 0; i < s.count; i++) {
    lengthInto(s.w[i], 1);
    m = Math.max(m, sizeIo[1]);
  }
  sizeIo[0] = m;
}

/**
 * GJK's gap on a curved pair converges linearly and stops at a relative tolerance; the gap is
 * the maximum over unit n of −(h_A(n) + h_B(−n)), so refine GJK's direction (a concave ascent)
 * and, when the support points along the refined normal face each other (tangential gradient
 * at the rounding level), take them and their gap (issue 16, class 6: a cone of size 20 and a
 * box of size 1e-8 had a gap 7e-4 off). Margins added as in {@link solveLoaded}. The cores'
 * gap alike when the margins overlap (rounded shapes): the depth is the margins less it, and
 * |v| on a sliver simplex of a cone's apex and rim points 7e3 across fell 3.6e-8 below the
 * cores' distance, a rounded box of 1e-2 on the slant "6.21e-6 deep" where no direction's
 * overlap exceeds 6.17e-6 (issue 16, session 23).
 */
function polishGap(pairA: ConvexShape, pairB: ConvexShape, pairBInA: Isometry): void {
  // GJK's gap is an upper bound and the separation along its direction a lower bound: when they
  // agree to 1e-11 there is nothing to polish (one support pair instead of a refinement). The
  // upper bound is |pA − pB|, GJK's witnesses (points of the two hulls of support points), which
  // |v| equals only up to the rounding of v's projection: on a sliver simplex (a far support
  // point and two 2e-6 apart on a cone's rim) |v| fell 1e-10 below |pA − pB| and below the
  // distance, with the separation along v agreeing with it. |pA − pB| carries the rounding of
  // the witnesses' coordinates (TOUCH_TOLERANCE of their magnitude), |v| does not.
  const r = coreA.margin + coreB.margin;
  const core = solvedIo[0] + r;
  overlapInto(solvedNormal);
  const sep = -overlapIo[0];
  ccSub(polishD, gjkOut.pointA, gjkOut.pointB);
  lengthInto(polishD, 0);
  const far = sizeIo[0];
  if (far - r > boundIo[1]) boundIo[1] = far - r;
  if (Math.abs(core - sep) <= GJK_POLISH_AGREEMENT * core) {
    lengthInto(gjkOut.pointA, 1);
    lengthInto(gjkOut.pointB, 2);
    const round = TOUCH_TOLERANCE * Math.max(sizeIo[1], sizeIo[2], shiftIo[1]);
    if (Math.abs(far - core) <= GJK_POLISH_AGREEMENT * core + round) return;
  }
  refineOverlapNormal(refined, coreA, coreBInA, solvedNormal);
  snapToFaceNormal(pairA, pairB, pairBInA, null, null);
  snapToRevolution(pairA, pairB, pairBInA);
  const gap = -refined.overlap - coreA.margin - coreB.margin;
  // A refined gap above GJK's is taken too: the separation along any direction is a certified
  // lower bound, so GJK's |v| was then below the distance, not above it (its sliver simplex
  // rounds: a box of 8e-3 4.5e-9 from a cone of 17 was "4.474e-9 apart", 1.6% short); where the
  // support points face each other (the gradient test below) |sA − sB| equals the gap, an upper
  // bound as well.
  // The cores' gap (the shapes' gap or, through the margins, their depth) from here on.
  if (!(gap + r > 0)) return;
  // A curved A's support points round at A's own coordinates, before the solver's shift, and
  // B's at B's offset in the solver's frame (issue 16: a cylinder of 4e-5 2.8e-9 from the slant
  // of a cone 1.7 away, the gradient 6.7e-17 at the refined optimum, within the rounding of the
  // cone's points there, 3.8e-16, but above 1e-12 of the witnesses' 4.8e-5).
  lengthInto(pairBInA.translation, 0);
  lengthInto(refined.pointA, 8);
  lengthInto(refined.pointB, 9);
  const size = Math.max(sizeIo[8], sizeIo[9], -refined.overlap, shiftIo[1], sizeIo[0]);
  // Two solids of revolution whose supports along the refined normal do not face: rim against
  // rim, the refinement stalls in the valley of the rims' radii (a cylinder of 6.5e-5 2.35e-10
  // from the rim of one of 708 centred 2.2e3 away: its gap 2.3523e-10 right, its supports 3.5e-6
  // apart sideways, so GJK's |v| of 3.95e-10 stayed; issue 16, seed 81). The rims' critical
  // point instead, as on the overlap path, and its rim points where they face across its gap.
  if (refined.gradient > GJK_POLISH_GRADIENT * size && curved(pairA) && curved(pairB)) {
    rimIo[6] = 0;
    rimPairMinimum(pairA, pairB, pairBInA);
    if (rimIo[6] !== 0 && refined.gradient > GJK_POLISH_GRADIENT * size) {
      rimIo[7] = TOUCH_TOLERANCE * size;
      rimFacingGap();
    }
  }
  if (refined.gradient > GJK_POLISH_GRADIENT * size) {
    // Not facing: GJK's witnesses kept (|pA − pB| the upper bound), but never a gap below the
    // certified lower bound found, with the normal that attains it.
    if (gap > solvedIo[0] && gap + r <= far) {
      solvedIo[0] = gap;
      ccCopy(solvedNormal, refined.normal);
    } else if (
      gap + r <= far &&
      solvedIo[0] - gap <= TOUCH_TOLERANCE * size + BOUND_TARGET * Math.abs(gap) &&
      (far + r) *
        (1 -
          (solvedNormal.x * refined.normal.x +
            solvedNormal.y * refined.normal.y +
            solvedNormal.z * refined.normal.z)) <=
        TOUCH_TOLERANCE * size + BOUND_TARGET * Math.abs(gap)
    ) {
      // GJK's |v| at the refined separation to rounding: the refined normal, which attains it
      // (GJK's own direction 1e-10 short of it where a rounded box of 4e-3 met a cone's slant,
      // its support jumping between apex and rim; issue 16, session 23) — when it turns the
      // witnesses' separation (pB − pA)·n, the cores' |pA − pB| plus the margins, by no more than
      // that tolerance: a triangle of 1e-6 on the segment of a capsule of radius 1136 has a
      // cores' gap of 6e-7 in any direction, and a refined normal 0.13 rad from GJK's left the
      // witnesses, placed along GJK's, 10.4 off it (1M-query fuzz, seed 51).
      ccCopy(solvedNormal, refined.normal);
    }
    return;
  }
  solvedIo[0] = gap;
  ccCopy(solvedNormal, refined.normal);
  ccAddScaled(solvedA, refined.pointA, solvedNormal, coreA.margin);
  ccAddScaled(solvedB, refined.pointB, solvedNormal, -coreB.margin);
  // Facing support points are points of the cores: their distance bounds the gap from above as
  // GJK's witnesses do, tighter once refined (boundIo, recordError).
  ccSub(polishD, refined.pointA, refined.pointB);
  lengthInto(polishD, 0);
  if (sizeIo[0] - r < boundIo[1]) boundIo[1] = sizeIo[0] - r;
}

const snapN = vec3.create();
const snapC = vec3.create();
const invRot = { x: 0, y: 0, z: 0, w: 1 };

/**
 * The refinement stops within REFINE_MIN_ANGLE of a face normal where the overlap has a kink
 * (a face of one shape against a point, edge or face of the other: the optimum is the face
 * normal exactly), and there the witness placed against the face is off it by the angle times
 * the face's size. Tries the face normals of both shapes (box, triangle and hull faces, a rounded
 * box's or hull's core's, the caps of cylinders and cones) within FACE_SNAP_COS of the refined normal and takes the one of
 * least overlap when it is no worse than the refinement's end (to rounding), re-placing the
 * witnesses along it (issue 16: witness points on their shapes).
 */
function snapToFaceNormal(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  hintA: Vec3 | null,
  hintB: Vec3 | null,
): void {
  const n = refined.normal;
  // Lengths through sizeIo[3..5] (its own slots), scalings written out: a double passed to or returned by a call V8
  // does not inline is boxed (12 KB per step of a world of mesh bodies).
  lengthInto(refined.pointA, 3);
  lengthInto(refined.pointB, 4);
  const size = Math.max(sizeIo[3], sizeIo[4]);
  let best = refined.overlap + FACE_SNAP_SLACK * size;
  let found = false;
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    // A rounded box's or hull's faces are its core's (flatPolytope).
    const ps = flatPolytope(s);
    const faces = ps === null ? 0 : faceCount(ps);
    const count = faces + (curved(s) ? 1 : 0);
    if (count === 0) continue;
    // n in the shape's local frame, to compare with its face normals before rotating any.
    if (side === 0) ccCopy(snapLocal, n);
    else {
      ccConjugate(invRot, bInA.rotation);
      ccRotate(snapLocal, invRot, n);
    }
    for (let i = 0; i < count; i++) {
      // The faces of a polytope; the caps' normal of a solid of revolution (local ±Y).
      if (ps !== null && i < faces)
        (shapeDef(ps.type).polytope as PolytopeAxes).faceNormal(snapC, ps, i);
      else ccSet(snapC, 0, 1, 0);
      lengthInto(snapC, 5);
      const l = sizeIo[5];
      if (!(l > 0)) continue;
      const c = (snapC.x * snapLocal.x + snapC.y * snapLocal.y + snapC.z * snapLocal.z) / l;
      if (Math.abs(c) < FACE_SNAP_COS) continue;
      const k = (c > 0 ? 1 : -1) / l;
      snapC.x *= k;
      snapC.y *= k;
      snapC.z *= k;
      if (side === 1) ccRotate(snapC, bInA.rotation, snapC);
      tryNormalizeScaled(snapC, snapC);
      overlapInto(snapC);
      const o = overlapIo[0];
      if (o <= best) {
        best = o;
        ccCopy(snapN, snapC);
        found = true;
      }
    }
  }
  if (found) setOverlapNormal(refined, coreA, coreBInA, snapN, hintA, hintB);
}

/** {@link epaAnswerSupports}'s corners: A's and B's support points, packed xyz. */
const axisFaceA = new Float64Array(9);
const axisFaceB = new Float64Array(9);
const axisP = vec3.create();
const axisQ = vec3.create();
const axisC = vec3.create();
const axisBest = vec3.create();
/** [0] the least overlap found by {@link exactPolytopeAxis}'s candidates; [1] the depth in and out. */
const axisIo = new Float64Array(2);

/**
 * EPA on two polytopes converges to a face of its polytope that lies on a face of the Minkowski
 * difference, but only to its stopping floor: GJK_ROUNDING_TOLERANCE of the polytope's size
 * (7e-8 at size 7e5), so its normal can miss the exact one by that over the size, and the overlap
 * along it exceed its depth by that much (issue 16: an aabb against a hull of 6e5, 5e-8 too deep
 * along EPA's normal, its manifold's points deeper than its contact). The exact normal is the
 * face's: a face normal of A or of B, or the cross product of an edge of each (SAT's axes,
 * Ericson 2005, §5.2.1), and the corners of EPA's answer face are support points on exactly
 * those features. When the overlap along EPA's normal exceeds its depth beyond rounding
 * (TOUCH_TOLERANCE of the witnesses' magnitude), this tries those candidates — the plane of A's
 * three corners, of B's, and the cross products of a corner difference of each — and the face
 * normals next to the best (`snapToFaceNormal`), takes the direction of least overlap when below
 * EPA's normal's, and its overlap as the depth (else EPA's normal's overlap): a depth that its
 * normal achieves, an upper bound on the depth as EPA's was a lower one. Witnesses by `setOverlapNormal` from EPA's (moved onto each
 * shape's supporting plane where both supports are flat). Cores loaded, solver frame; the depth
 * in and out through axisIo[1], unchanged otherwise. At most 12 support pairs beyond EPA's, and
 * only off the floor.
 */
function exactPolytopeAxis(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  overlapInto(solvedNormal);
  witnessScale();
  if (!(overlapIo[0] - axisIo[1] > TOUCH_TOLERANCE * sizeIo[0])) return;
  axisIo[0] = overlapIo[0];
  exactPolytopeSearch(a, b, bInA);
}

/**
 * {@link exactPolytopeAxis} past its test (EPA's normal's overlap, in axisIo[0], exceeds the
 * depth beyond rounding): the candidates and the answer. A function of its own: the test runs for
 * every converged EPA of two polytopes (≈ 10 a step in the six-curved-kinds world) and this part
 * rarely, and V8 tiers a function up by the bytecode it has run against its length, so together
 * they stayed unoptimized for ≈ 800 steps, every double of the test a heap number (0.8 KB per
 * step; issue 15).
 */
function exactPolytopeSearch(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  const f0 = axisIo[0];
  epaAnswerSupports(axisFaceA, axisFaceB);
  ccCopy(axisBest, solvedNormal);
  // The planes of A's corners and of B's (a face of one against a vertex or more of the other).
  cornerPlane(axisFaceA);
  cornerPlane(axisFaceB);
  // Edge against edge: a difference of two of A's corners across one of B's.
  for (let i = 0; i < 3; i++) {
    const i2 = i === 2 ? 0 : i + 1;
    axisP.x = axisFaceA[3 * i2] - axisFaceA[3 * i];
    axisP.y = axisFaceA[3 * i2 + 1] - axisFaceA[3 * i + 1];
    axisP.z = axisFaceA[3 * i2 + 2] - axisFaceA[3 * i + 2];
    if (axisP.x === 0 && axisP.y === 0 && axisP.z === 0) continue;
    for (let j = 0; j < 3; j++) {
      const j2 = j === 2 ? 0 : j + 1;
      axisQ.x = axisFaceB[3 * j2] - axisFaceB[3 * j];
      axisQ.y = axisFaceB[3 * j2 + 1] - axisFaceB[3 * j + 1];
      axisQ.z = axisFaceB[3 * j2 + 2] - axisFaceB[3 * j + 2];
      if (axisQ.x === 0 && axisQ.y === 0 && axisQ.z === 0) continue;
      ccCross(axisC, axisP, axisQ);
      tryExactAxis();
    }
  }
  if (!(axisIo[0] < f0)) {
    // No candidate below EPA's normal's overlap: that overlap is the depth (attained along the
    // normal), EPA's own depth being its face's plane rounded at the support points' magnitude
    // (a box of 1e-6 inside a hull of 1e6, EPA 1.06e-7 shallower than its normal's overlap).
    // Its witnesses placed along it as the candidates' are (EPA's span its own depth).
    setOverlapNormal(refined, coreA, coreBInA, solvedNormal, solvedA, solvedB);
    ccCopy(solvedA, refined.pointA);
    ccCopy(solvedB, refined.pointB);
    placedIo[0] = refined.placed;
    axisIo[1] = refined.overlap;
    return;
  }
  setOverlapNormal(refined, coreA, coreBInA, axisBest, solvedA, solvedB);
  snapToFaceNormal(a, b, bInA, solvedA, solvedB);
  ccCopy(solvedNormal, refined.normal);
  ccCopy(solvedA, refined.pointA);
  ccCopy(solvedB, refined.pointB);
  placedIo[0] = refined.placed;
  axisIo[1] = refined.overlap;
}

/** Tries the plane normal of three corners packed in `c` ({@link tryExactAxis}). */
function cornerPlane(c: Float64Array): void {
  axisP.x = c[3] - c[0];
  axisP.y = c[4] - c[1];
  axisP.z = c[5] - c[2];
  axisQ.x = c[6] - c[0];
  axisQ.y = c[7] - c[1];
  axisQ.z = c[8] - c[2];
  ccCross(axisC, axisP, axisQ);
  tryExactAxis();
}

/**
 * Takes axisC, turned toward the solved normal and normalised, into axisBest when its overlap is
 * below axisIo[0] (a zero or non-finite axis, three corners in line, is skipped).
 */
function tryExactAxis(): void {
  if (ccDot(axisC, solvedNormal) < 0) ccNegate(axisC, axisC);
  if (!tryNormalizeScaled(axisC, axisC)) return;
  overlapInto(axisC);
  const o = overlapIo[0];
  if (o < axisIo[0]) {
    axisIo[0] = o;
    ccCopy(axisBest, axisC);
  }
}

const ridgeX = vec3.create();
const ridgeY = vec3.create();
const ridgeZ = vec3.create();
const ridgeN = vec3.create();
const ridgeTan = vec3.create();
const ridgeBest = vec3.create();
const ridgeHintA = vec3.create();
const ridgeHintB = vec3.create();
/** Azimuth samples of the kink circle in {@link searchRevolutionRidges}. */
const RIDGE_SAMPLES = 32;

/** The overlaps at the azimuth samples of {@link ridgeMinimum}. */
const ridgeVals = new Float64Array(RIDGE_SAMPLES);
/**
 * [0] c, [1] y0, [2] sign of the circle; [3] the best overlap found, [4] its azimuth; [5]
 * {@link ridgeDirectionIo}'s azimuth; [6] {@link ridgeCertify}'s solid: 0 none, 1 A, 2 B; [7] the
 * circle's least overlap so far, [8] its azimuth; [9] the first sample's azimuth.
 */
const ridgeIo = new Float64Array(10);
/** The solid's centre (solver frame) when ridgeIo[6] is not 0. */
const ridgeC = vec3.create();

/**
 * The refinement is local: from EPA's normal it settles in the basin it starts in, and where one
 * shape is much smaller than a cylinder or cone it overlaps (a small box deep inside a large
 * cylinder) EPA's normal is only good to the large shape's tolerance, which can be another basin
 * of the small shape's support (another face of its shadow). The least overlap of a solid of
 * revolution against anything lies on one of few sets fixed by the solid alone: a cap's normal
 * (its support a disc), the circle of normals on which its support is a generator segment (a
 * cylinder's side, y = 0; a cone's slant, y = r/√(4h² + r²)), where the overlap has a kink, or
 * the smooth rim region between, where the refinement's descent converges. This tries the caps
 * and minimises the overlap along the kink circle globally: RIDGE_SAMPLES azimuths, then
 * bisection on the sign of the exact derivative w·dn/dφ (one-sided at a kink of the other shape)
 * in the brackets of the two least samples; and a polytope's face normals (both signs), the
 * optimum against a face of a polytope much larger than the other shape. A better end is refined again (the optimum can lie
 * just off the circle) and replaces `refined` when lower; the witnesses are placed by
 * setOverlapNormal and the snaps that follow. Bounded: 2 + RIDGE_SAMPLES + 2·RIDGE_BISECTIONS
 * support pairs per curved shape, two per polytope face, plus one refinement.
 */
function searchRevolutionRidges(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  hintA: Vec3,
  hintB: Vec3,
): void {
  faceCopy(ridgeHintA, hintA);
  faceCopy(ridgeHintB, hintB);
  const start = refined.overlap;
  let best = start;
  let found = false;
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    const rc = revolutionCore(s);
    if (rc === null) continue;
    const rev = shapeDef(rc.type).revolution as Revolution;
    rev.dims(revDims, rc);
    const h = revDims[0];
    const r = revDims[1];
    ridgeX.x = 1;
    ridgeX.y = 0;
    ridgeX.z = 0;
    ridgeY.x = 0;
    ridgeY.y = 1;
    ridgeY.z = 0;
    ridgeZ.x = 0;
    ridgeZ.y = 0;
    ridgeZ.z = 1;
    if (side === 1) {
      faceRotate(ridgeX, bInA.rotation, ridgeX);
      faceRotate(ridgeY, bInA.rotation, ridgeY);
      faceRotate(ridgeZ, bInA.rotation, ridgeZ);
    }
    // n (A → B) is A's outward normal, or minus B's.
    const sign = side === 0 ? 1 : -1;
    // The caps: ±Y for the cylinder, the cone's base −Y.
    for (let k = rev.kind === RevolutionKind.Cone ? 1 : 0; k < 2; k++) {
      const ks = k === 0 ? sign : -sign;
      ridgeN.x = ridgeY.x * ks;
      ridgeN.y = ridgeY.y * ks;
      ridgeN.z = ridgeY.z * ks;
      overlapInto(ridgeN);
      const o = overlapIo[0];
      if (o < best) {
        best = o;
        faceCopy(ridgeBest, ridgeN);
        found = true;
      }
    }
    // The kink circle: outward normals (c cos φ, y0, c sin φ) in the solid's frame.
    if (rev.kind === RevolutionKind.Cone) {
      hypotIo[0] = 2 * h;
      hypotIo[1] = r;
      mathHypot2Io();
      const len = hypotIo[0];
      ridgeIo[0] = (2 * h) / len;
      ridgeIo[1] = r / len;
    } else {
      ridgeIo[0] = 1;
      ridgeIo[1] = 0;
    }
    ridgeIo[2] = sign;
    ridgeIo[3] = best;
    // The solid's centre (solver frame) for the certificate of ridgeCertify, where the other
    // shape's core has finitely many support points along the circle (not a curved one).
    ridgeIo[6] = curved(side === 0 ? b : a) ? 0 : 1 + side;
    ridgeC.x = 0;
    ridgeC.y = 0;
    ridgeC.z = 0;
    if (side === 0) fromLocalA(ridgeC, ridgeC);
    else faceCopy(ridgeC, bInA.translation);
    if (ridgeMinimum()) {
      best = ridgeIo[3];
      ridgeIo[5] = ridgeIo[4];
      ridgeDirectionIo();
      faceCopy(ridgeBest, ridgeN);
      found = true;
    }
  }
  // A polytope's faces: against a much smaller shape the polytope is locally a face, an edge or
  // a vertex, and a face's least overlap lies on its normal exactly (a kink the descent from
  // another basin does not reach: a cone of 3e-5 on a hull of 2e5, EPA degenerate and the
  // descent 1e-7 deep along the cone's slant where the hull's face gave 6.6e-9).
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    const poly = shapeDef(s.type).polytope;
    if (poly === null) continue;
    const count = poly.faceCount(s);
    for (let i = 0; i < count; i++) {
      poly.faceNormal(ridgeN, s, i);
      if (side === 1) {
        faceRotate(ridgeN, bInA.rotation, ridgeN);
        faceNegate(ridgeN, ridgeN);
      }
      if (!tryNormalizeScaled(ridgeN, ridgeN)) continue;
      // Both signs: a triangle has one face normal for its two sides.
      for (let k = 0; k < 2; k++) {
        if (k === 1) faceNegate(ridgeN, ridgeN);
        overlapInto(ridgeN);
        const o = overlapIo[0];
        if (o < best) {
          best = o;
          faceCopy(ridgeBest, ridgeN);
          found = true;
        }
      }
    }
  }
  // A polytope's edges: along the great circle of normals perpendicular to an edge direction
  // the polytope's support is the edge, and off it a vertex, so the overlap has a kink there
  // that the descent stops at (a small cone or cylinder across a large triangle's edge).
  // Minimised as the kink circles above, where the polytope is over EDGE_CIRCLE_RATIO times the
  // solid's size (at comparable sizes EPA's normal is good to the pair's rounding and the
  // descent's basin is the optimum's; the circles cost 1.3–1.6x a cone–hull contact), or where
  // the overlap is within NEAR_TOUCH of the pair's size: EPA's normal is then good to its
  // tolerance of the size only, not of the depth (a box's corner across a cylinder's rim 2.5e-8
  // deep at size 100, the descent stopped on the rim point's normal arc 1e-9 too deep; a box's
  // edge across a cone's rim, 5e-8 at 4e4: issue 16, seeds 40 and 42 at main 704850b).
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    const other = side === 0 ? b : a;
    const poly = shapeDef(s.type).polytope;
    if (poly === null || revolutionCore(other) === null) continue;
    // The radii through ridgeRadiusIo (a double returned by a call V8 does not inline is boxed).
    writeBoundingRadiusOf(ridgeRadiusIo, s);
    const rs = ridgeRadiusIo[0];
    writeBoundingRadiusOf(ridgeRadiusIo, other);
    const ro = ridgeRadiusIo[0];
    if (!(rs > EDGE_CIRCLE_RATIO * ro) && !(best <= NEAR_TOUCH * Math.max(rs, ro))) continue;
    const count = poly.edgeCount(s);
    for (let i = 0; i < count; i++) {
      poly.edgeDirection(ridgeY, s, i);
      if (side === 1) faceRotate(ridgeY, bInA.rotation, ridgeY);
      if (!tryNormalizeScaled(ridgeY, ridgeY)) continue;
      const ax = Math.abs(ridgeY.x);
      const ay = Math.abs(ridgeY.y);
      const az = Math.abs(ridgeY.z);
      ridgeZ.x = ax <= ay && ax <= az ? 1 : 0;
      ridgeZ.y = ay < ax && ay <= az ? 1 : 0;
      ridgeZ.z = az < ax && az < ay ? 1 : 0;
      faceCross(ridgeX, ridgeY, ridgeZ);
      if (!tryNormalizeScaled(ridgeX, ridgeX)) continue;
      faceCross(ridgeZ, ridgeX, ridgeY);
      ridgeIo[0] = 1;
      ridgeIo[1] = 0;
      ridgeIo[2] = 1;
      ridgeIo[3] = best;
      ridgeIo[6] = 0;
      if (ridgeMinimum()) {
        best = ridgeIo[3];
        ridgeIo[5] = ridgeIo[4];
        ridgeDirectionIo();
        faceCopy(ridgeBest, ridgeN);
        found = true;
      }
    }
  }
  if (!found) return;
  // The optimum can lie just off the circle: refine from its best point (never worse than it).
  refineOverlapNormal(ridgeRefined, coreA, coreBInA, ridgeBest, ridgeHintA, ridgeHintB);
  if (!(ridgeRefined.overlap <= best)) {
    setOverlapNormal(ridgeRefined, coreA, coreBInA, ridgeBest, ridgeHintA, ridgeHintB);
  }
  if (!(ridgeRefined.overlap < start)) return;
  takeRefinement(refined, ridgeRefined);
}

const ridgeRefined = makeNormalRefinement();

/** `to` takes `from`'s normal, witnesses, overlap, gradient and step (its counts are kept). */
function takeRefinement(to: NormalRefinement, from: NormalRefinement): void {
  faceCopy(to.normal, from.normal);
  faceCopy(to.pointA, from.pointA);
  faceCopy(to.pointB, from.pointB);
  to.overlap = from.overlap;
  to.gradient = from.gradient;
  to.step = from.step;
}

/** Size ratio of a polytope to a solid of revolution above which its edges' circles are tried. */
const EDGE_CIRCLE_RATIO = 2 ** 10;

/**
 * Rim against rim: where the supports of two solids of revolution along the normal are both rim
 * points (a cylinder's cap edge, a cone's base edge), the overlap is smooth but its curvature is
 * the rims' radii, one along each rim's tangent, and their ratio (2e9: a cylinder of 1e-5 on the
 * base rim of a cone of 3e4) makes a valley the refinement's descent and pattern probes stall in
 * (its end 3.2e-9 deep where the least overlap was 3.9e-10). On a circle the support point's
 * tangent is normal to the direction, so n is ±t_A × t_B for every such n, and the optimum's
 * condition w = p_A − p_B ∥ n is that p_A − p_B is normal to both tangents: a critical point of
 * |p_A(φ_A) − p_B(φ_B)|² over the two rims' azimuths (as two edges' cross product and distance
 * give an edge–edge depth). Newton's method on those two azimuths (well conditioned in the rims'
 * arc lengths unless the rims are parallel) from the refined normal's azimuths, then the overlap
 * along ±t_A × t_B, taken into `refined` (witnesses by setOverlapNormal from the rim points)
 * when below its overlap: an overlap evaluated along its own direction, never worse. Both cores
 * solids of revolution; cores loaded, solver frame. At most RIM_NEWTON_STEPS steps, one support pair.
 */
function rimPairMinimum(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  if (!rimFrame(a, 0, bInA) || !rimFrame(b, 1, bInA)) return;
  const phiA = rimIo[2];
  const phiB = rimIo[3];
  rimNewton();
  rimOverlap();
  let best = overlapIo[0];
  rimBestIo[0] = rimIo[2];
  rimBestIo[1] = rimIo[3];
  // The critical point nearest the refined normal's azimuths no better than the refinement (a
  // line piercing a small rim's disc has several, and the refinement can stop at a kink of the
  // overlap, a cylinder's side normal, where the supports jump from rim to generator: a cylinder
  // of 6e-6 on the rim of one of 7e3, 3.0e-10 deep where the least overlap was 8.1e-11; issue 16,
  // seed 67): the smaller rim's azimuth started around its circle, the larger's at the nearest
  // point to it, the least overlap kept.
  if (!(best < refined.overlap)) {
    const small = rimIo[0] <= rimIo[1] ? 0 : 1;
    const phi0 = small === 0 ? phiA : phiB;
    for (let i = 1; i < RIM_STARTS; i++) {
      rimIo[2 + small] = phi0 + (2 * Math.PI * i) / RIM_STARTS;
      rimPoint(small);
      rimProject(1 - small, small === 0 ? rimP0 : rimP1);
      rimNewton();
      rimOverlap();
      const o = overlapIo[0];
      if (o < best) {
        best = o;
        rimBestIo[0] = rimIo[2];
        rimBestIo[1] = rimIo[3];
      }
    }
  }
  // Tied with the refinement within the overlap's rounding at the rim points' magnitude: the
  // critical point where its witnesses face each other better. The refinement stops where the
  // overlap's change falls below that rounding, its normal off by the square root of it over the
  // larger rim's radius, and the larger rim's support slides that far times its radius: a
  // cylinder of 1.6e-3 across the rim of one of 1.1e3 centred 1.8e3 away, the refinement 1.1e-13
  // below the critical point and its witnesses 1.1e-5 apart sideways, faced only by a move of
  // 1.4e-10 off the small rim (issue 16, seed 79).
  let tie = 0;
  if (!(best < refined.overlap)) {
    rimTie();
    tie = rimIo[5];
  }
  if (!(best < refined.overlap + tie)) return;
  rimIo[2] = rimBestIo[0];
  rimIo[3] = rimBestIo[1];
  rimOverlap();
  if (tie === 0) {
    setOverlapNormal(refined, coreA, coreBInA, rimW, rimP0, rimP1);
    rimIo[6] = 1;
    return;
  }
  setOverlapNormal(rimRefined, coreA, coreBInA, rimW, rimP0, rimP1);
  // Each refinement's witnesses' sideways offset, rimIo[4] = |w − (w·n) n| (w = pointA −
  // pointB), written out here: a helper called from this rare tail is not inlined and ran
  // unoptimized, every double a heap number (0.3 KB per step of the six-curved-kinds world).
  let before = 0;
  for (let k = 0; k < 2; k++) {
    const r = k === 0 ? refined : rimRefined;
    const n = r.normal;
    const wx = r.pointA.x - r.pointB.x;
    const wy = r.pointA.y - r.pointB.y;
    const wz = r.pointA.z - r.pointB.z;
    const d = wx * n.x + wy * n.y + wz * n.z;
    const lx = wx - d * n.x;
    const ly = wy - d * n.y;
    const lz = wz - d * n.z;
    rimIo[4] = Math.sqrt(lx * lx + ly * ly + lz * lz);
    if (k === 0) before = rimIo[4];
  }
  if (!(rimIo[4] < before)) return;
  takeRefinement(refined, rimRefined);
  rimIo[6] = 1;
}

/**
 * After {@link rimPairMinimum} took the rims' critical point into `refined` on the gap path: its
 * rim points (rimP0, rimP1, solver frame), points of the two cores, taken as refined's witnesses
 * when they face across its gap — pB − pA along the normal within rimIo[7] of the separation
 * −refined.overlap (a certified lower bound) and sideways within rimIo[7] — so their distance,
 * an upper bound, pins the gap between the two; refined.gradient then their sideways offset.
 * Else refined is left as it is. The supports along the critical point's normal need not face
 * where one rim is seen nearly face-on: a cone's base 2^-24 rad off the normal turns its support
 * point about the rim by the normal's last bits (3e-6 aside at a radius of 1.9e3, a cylinder's rim
 * 1.5e-10 below it), while the rim points, solved on the rims, face to rounding.
 */
function rimFacingGap(): void {
  const n = refined.normal;
  const wx = rimP1.x - rimP0.x;
  const wy = rimP1.y - rimP0.y;
  const wz = rimP1.z - rimP0.z;
  const d = wx * n.x + wy * n.y + wz * n.z;
  const lx = wx - d * n.x;
  const ly = wy - d * n.y;
  const lz = wz - d * n.z;
  const lateral = Math.sqrt(lx * lx + ly * ly + lz * lz);
  const tol = rimIo[7];
  if (!(lateral <= tol && Math.abs(d + refined.overlap) <= tol)) return;
  faceCopy(refined.pointA, rimP0);
  faceCopy(refined.pointB, rimP1);
  refined.gradient = lateral;
}

/** {@link rimPairMinimum}'s refinement at the rims' critical point, when tied with `refined`. */
const rimRefined = makeNormalRefinement();

/**
 * rimIo[5] = the overlap's rounding at the rim points' magnitude in the solver's frame
 * (RIM_TIE_ROUNDING of the larger rim centre's distance plus its radius, or of the shift's, where
 * A's supports round before it), solver units; rim frames set. Written, not returned: a double
 * returned by a call V8 does not inline is boxed.
 */
function rimTie(): void {
  const m0 = Math.sqrt(rimC0.x * rimC0.x + rimC0.y * rimC0.y + rimC0.z * rimC0.z) + rimIo[0];
  const m1 = Math.sqrt(rimC1.x * rimC1.x + rimC1.y * rimC1.y + rimC1.z * rimC1.z) + rimIo[1];
  rimIo[5] = RIM_TIE_ROUNDING * Math.max(m0, m1, shiftIo[1]);
}

/** Relative rounding of an overlap within which {@link rimPairMinimum}'s critical point ties the refinement (4 ulps). */
const RIM_TIE_ROUNDING = 2 ** -50;

/** {@link rimPairMinimum}'s best azimuths (A's, B's rim), radians. */
const rimBestIo = new Float64Array(2);

/** Starts of {@link rimPairMinimum} around the smaller rim where its first critical point is no better than the refinement. */
const RIM_STARTS = 8;

/**
 * Newton's method on the rims' azimuths rimIo[2], rimIo[3] toward a critical point of
 * |p_A − p_B|² (see {@link rimPairMinimum}), at most RIM_NEWTON_STEPS steps; rim frames set.
 */
function rimNewton(): void {
  for (let it = 0; it < RIM_NEWTON_STEPS; it++) {
    rimPoint(0);
    rimPoint(1);
    const rA = rimIo[0];
    const rB = rimIo[1];
    // w = p_A − p_B; g = ∇ ½|w|² over (φ_A, φ_B); H its Hessian.
    faceSub(rimW, rimP0, rimP1);
    const g1 = rA * ccDot(rimW, rimT0);
    const g2 = -rB * ccDot(rimW, rimT1);
    const h11 = rA * rA - rA * ccDot(rimW, rimR0);
    const h22 = rB * rB + rB * ccDot(rimW, rimR1);
    const h12 = -rA * rB * ccDot(rimT0, rimT1);
    const det = h11 * h22 - h12 * h12;
    if (!(det > 0 && h11 > 0)) {
      // Far from the critical point (|w| above the radii's curvature terms): alternating
      // projections of each rim's point onto the other rim, which converge at the rims'
      // crossing angle whatever their radii.
      rimProject(1, rimP0);
      rimPoint(1);
      rimProject(0, rimP1);
      continue;
    }
    const d1 = (h12 * g2 - h22 * g1) / det;
    const d2 = (h12 * g1 - h11 * g2) / det;
    rimIo[2] += d1;
    rimIo[3] += d2;
    if (!(Math.abs(d1) <= Math.PI && Math.abs(d2) <= Math.PI)) return;
    if (Math.abs(d1) <= RIM_NEWTON_ANGLE && Math.abs(d2) <= RIM_NEWTON_ANGLE) return;
  }
}

/**
 * overlapIo[0] = the overlap along ±t_A × t_B at the rims' azimuths (rimW, the sign toward
 * refined.normal; rim points in rimP0, rimP1), +∞ where the tangents are parallel (written, not
 * returned: a double returned by a call V8 does not inline is boxed). Solver frame, one support pair.
 */
function rimOverlap(): void {
  rimPoint(0);
  rimPoint(1);
  faceCross(rimW, rimT0, rimT1);
  if (!tryNormalizeScaled(rimW, rimW)) {
    overlapIo[0] = Number.POSITIVE_INFINITY;
    return;
  }
  const n = refined.normal;
  if (rimW.x * n.x + rimW.y * n.y + rimW.z * n.z < 0) faceNegate(rimW, rimW);
  overlapInto(rimW);
}

/** Newton steps of {@link rimPairMinimum}, at most. */
const RIM_NEWTON_STEPS = 12;

/** Azimuth step, radians, under which {@link rimPairMinimum}'s Newton iteration stops. */
const RIM_NEWTON_ANGLE = 2 ** -40;

/** Per rim (0 A's, 1 B's): centre, axes X and Z of its plane (solver frame). */
const rimC0 = vec3.create();
const rimX0 = vec3.create();
const rimZ0 = vec3.create();
const rimC1 = vec3.create();
const rimX1 = vec3.create();
const rimZ1 = vec3.create();
/** Per rim: its point, unit tangent and unit radial at the current azimuth. */
const rimP0 = vec3.create();
const rimT0 = vec3.create();
const rimR0 = vec3.create();
const rimP1 = vec3.create();
const rimT1 = vec3.create();
const rimR1 = vec3.create();
const rimW = vec3.create();
/**
 * [0], [1] the rims' radii (solver units); [2], [3] their azimuths; [4] a refinement's
 * witnesses' sideways offset |w − (w·n) n| (w = pointA − pointB; {@link rimPairMinimum}'s tie);
 * [5] {@link rimTie}'s rounding; [6] 1 when {@link rimPairMinimum} took the critical point into
 * `refined` (set to 0 by its caller), [7] {@link rimFacingGap}'s tolerance.
 */
const rimIo = new Float64Array(8);

/**
 * Sets rim `side` (0 A, 1 B) of solid of revolution `s` from the refined normal: the rim its
 * outward normal's axial sign picks (a cone's base only, its normal below the slant's), its
 * frame and the normal's azimuth. False when the support along the normal is not a rim's (a
 * cone's apex) or `s` has no revolution core.
 */
function rimFrame(s: ConvexShape, side: number, bInA: Isometry): boolean {
  const rc = revolutionCore(s);
  if (rc === null) return false;
  const rev = shapeDef(rc.type).revolution as Revolution;
  const core = side === 1 ? coreB : coreA;
  rev.dims(revDims, rc);
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  // The outward normal in the solid's frame.
  if (side === 1) {
    ccConjugate(invRot, bInA.rotation);
    faceRotate(featureD, invRot, refined.normal);
    faceNegate(featureD, featureD);
  } else faceCopy(featureD, refined.normal);
  const d = featureD;
  let y = -h;
  if (rev.kind === RevolutionKind.Cone) {
    hypotIo[0] = 2 * h;
    hypotIo[1] = r;
    mathHypot2Io();
    if (!(d.y < r / hypotIo[0])) return false;
  } else if (d.y > 0) y = h;
  const c = side === 0 ? rimC0 : rimC1;
  const x = side === 0 ? rimX0 : rimX1;
  const z = side === 0 ? rimZ0 : rimZ1;
  // Written out: a double passed to a call V8 does not inline is boxed.
  c.x = 0;
  c.y = y;
  c.z = 0;
  x.x = 1;
  x.y = 0;
  x.z = 0;
  z.x = 0;
  z.y = 0;
  z.z = 1;
  if (side === 1) {
    ccTransformPoint(c, bInA, c);
    faceRotate(x, bInA.rotation, x);
    faceRotate(z, bInA.rotation, z);
  } else fromLocalA(c, c);
  rimIo[side] = r;
  rimIo[2 + side] = Math.atan2(d.z, d.x);
  return true;
}

/** Sets rim `side`'s azimuth to that of point p about its centre (p's nearest point on the rim). */
function rimProject(side: number, p: Vec3): void {
  const c = side === 0 ? rimC0 : rimC1;
  const x = side === 0 ? rimX0 : rimX1;
  const z = side === 0 ? rimZ0 : rimZ1;
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  const dz = p.z - c.z;
  const u = dx * x.x + dy * x.y + dz * x.z;
  const v = dx * z.x + dy * z.y + dz * z.z;
  if (u !== 0 || v !== 0) rimIo[2 + side] = Math.atan2(v, u);
}

/** Rim `side`'s point, tangent and radial at its azimuth rimIo[2 + side]. */
function rimPoint(side: number): void {
  const phi = rimIo[2 + side];
  const cs = Math.cos(phi);
  const sn = Math.sin(phi);
  const c = side === 0 ? rimC0 : rimC1;
  const x = side === 0 ? rimX0 : rimX1;
  const z = side === 0 ? rimZ0 : rimZ1;
  const p = side === 0 ? rimP0 : rimP1;
  const t = side === 0 ? rimT0 : rimT1;
  const rr = side === 0 ? rimR0 : rimR1;
  const r = rimIo[side];
  rr.x = cs * x.x + sn * z.x;
  rr.y = cs * x.y + sn * z.y;
  rr.z = cs * x.z + sn * z.z;
  t.x = cs * z.x - sn * x.x;
  t.y = cs * z.y - sn * x.y;
  t.z = cs * z.z - sn * x.z;
  p.x = c.x + r * rr.x;
  p.y = c.y + r * rr.y;
  p.z = c.z + r * rr.z;
}

/** Bisection steps on the derivative's sign per bracket (the bracket 4π/RIDGE_SAMPLES wide). */
const RIDGE_BISECTIONS = 48;

/**
 * ridgeN = the unit normal (A → B, A's frame) at azimuth φ = ridgeIo[5] on the circle of ridgeIo
 * and ridgeTan = dn/dφ, from the solid's axes ridgeX, ridgeY, ridgeZ. The azimuth through the
 * register: a double argument of a call V8 does not inline is boxed (the wrapper that took it as
 * an argument boxed it from searchRevolutionRidges; issue 15).
 */
function ridgeDirectionIo(): void {
  const phi = ridgeIo[5];
  const c = ridgeIo[0] * ridgeIo[2];
  const y0 = ridgeIo[1] * ridgeIo[2];
  const cs = Math.cos(phi);
  const sn = Math.sin(phi);
  ridgeN.x = c * (cs * ridgeX.x + sn * ridgeZ.x) + y0 * ridgeY.x;
  ridgeN.y = c * (cs * ridgeX.y + sn * ridgeZ.y) + y0 * ridgeY.y;
  ridgeN.z = c * (cs * ridgeX.z + sn * ridgeZ.z) + y0 * ridgeY.z;
  ridgeTan.x = c * (cs * ridgeZ.x - sn * ridgeX.x);
  ridgeTan.y = c * (cs * ridgeZ.y - sn * ridgeX.y);
  ridgeTan.z = c * (cs * ridgeZ.z - sn * ridgeX.z);
}

/**
 * Minimises the overlap along the circle of ridgeIo (see {@link searchRevolutionRidges}); when
 * below ridgeIo[3], writes the least overlap to ridgeIo[3], its azimuth to ridgeIo[4] and
 * returns true.
 */
function ridgeMinimum(): boolean {
  const n = RIDGE_SAMPLES;
  const dphi = (2 * Math.PI) / n;
  // Start at the refined normal's azimuth, so its basin is sampled.
  const sgn = ridgeIo[2];
  const phi0 = Math.atan2(sgn * ccDot(refined.normal, ridgeZ), sgn * ccDot(refined.normal, ridgeX));
  let i0 = 0;
  let top = Number.NEGATIVE_INFINITY;
  ridgeIo[9] = phi0;
  for (let i = 0; i < n; i++) {
    ridgeIo[5] = phi0 + i * dphi;
    ridgeDirectionIo();
    overlapInto(ridgeN);
    ridgeVals[i] = overlapIo[0];
    if (ridgeIo[6] !== 0) ridgeCut(i);
    if (ridgeVals[i] < ridgeVals[i0]) i0 = i;
    if (ridgeVals[i] > top) top = ridgeVals[i];
  }
  // The second least local minimum of the samples.
  let i1 = -1;
  for (let i = 0; i < n; i++) {
    if (i === i0) continue;
    const v = ridgeVals[i];
    if (v <= ridgeVals[(i + n - 1) % n] && v <= ridgeVals[(i + 1) % n]) {
      if (i1 < 0 || v < ridgeVals[i1]) i1 = i;
    }
  }
  let best = ridgeVals[i0];
  let bestPhi = phi0 + i0 * dphi;
  // Then every local minimum of the samples within (max − min)·dφ of the least: the overlap varies
  // along the circle by at most about half its range per radian (the support of a point is a
  // sinusoid of that amplitude), so a bracket whose sample lies higher cannot hold a lower
  // minimum. Not only the two least: a box of 1e-6 deep in a cylinder of 3e-3 has six local
  // minima on the side circle (its shadow's edges) 1e-8 apart, less than the samples' error, and
  // the least was in a third bracket (issue 16, seed 40 at main 704850b: 1.2e-8 too deep).
  const within = best + (top - best) * dphi;
  for (let i = 0; i < n; i++) {
    const v = ridgeVals[i];
    const min = v <= ridgeVals[(i + n - 1) % n] && v <= ridgeVals[(i + 1) % n];
    if (i !== i0 && i !== i1 && !(min && v <= within)) continue;
    let lo = phi0 + (i - 1) * dphi;
    let hi = phi0 + (i + 1) * dphi;
    for (let it = 0; it < RIDGE_BISECTIONS && hi - lo > REFINE_MIN_ANGLE * 2 ** -10; it++) {
      const mid = 0.5 * (lo + hi);
      ridgeIo[5] = mid;
      ridgeDirectionIo();
      overlapInto(ridgeN);
      const o = overlapIo[0];
      if (o < best) {
        best = o;
        bestPhi = mid;
      }
      // w·dn/dφ, w = sA − sB the support points along the normal just evaluated.
      const d =
        (sA.x - sB.x) * ridgeTan.x + (sA.y - sB.y) * ridgeTan.y + (sA.z - sB.z) * ridgeTan.z;
      if (d > 0) hi = mid;
      else lo = mid;
    }
  }
  if (ridgeIo[6] !== 0) {
    ridgeIo[7] = best;
    ridgeIo[8] = bestPhi;
    ridgeCertify();
    best = ridgeIo[7];
    bestPhi = ridgeIo[8];
  }
  if (!(best < ridgeIo[3])) return false;
  ridgeIo[3] = best;
  ridgeIo[4] = bestPhi;
  return true;
}

/** Overlaps {@link ridgeCertify} evaluates at most per circle, beyond the samples. */
const RIDGE_CERTIFY_EVALS = 48;
/**
 * Gap, relative to the circle's magnitudes (the solid's support offset and the other shape's
 * points about the solid's centre), between an interval's lower bound and its least overlap
 * found under which {@link ridgeCertify} takes the interval as settled.
 */
const RIDGE_CERTIFY_TOLERANCE = 2 ** -40;
const RIDGE_CUTS = RIDGE_SAMPLES + RIDGE_CERTIFY_EVALS;
/** Cut k's sinusoid l_k(φ) = P cos φ + Q sin φ + E at [3k], [3k + 1], [3k + 2] (E without K). */
const ridgeCuts = new Float64Array(3 * RIDGE_CUTS);
/** Each sample's K_k = overlap − n·w_k (the solid's support offset, equal up to rounding). */
const ridgeK = new Float64Array(RIDGE_SAMPLES);
/**
 * [0] K; [1] a lower bound, [2] its azimuth; [3] a cut's least value on the azimuths [4, 5];
 * [6, 7] the interval bounded.
 */
const ridgeCertIo = new Float64Array(8);
/** Intervals of azimuths to settle: [4k] from, [4k + 1] to, [4k + 2] and [4k + 3] their end cuts. */
const ridgeStack = new Float64Array(4 * (RIDGE_SAMPLES + 2 * RIDGE_CERTIFY_EVALS));

/**
 * Records the support pair of the last overlapInto(ridgeN) as cut k: the other shape's support
 * point s gives the sinusoid l_k(φ) = K + n(φ)·w_k, w_k = c − s_B against a solid A, s_A − c
 * against a solid B (c its centre), a lower bound of the overlap at every azimuth (the solid's
 * support along its kink circle is n·c + K exactly, the other's at least its value at s).
 */
function ridgeCut(k: number): void {
  const solidA = ridgeIo[6] === 1;
  const wx = solidA ? ridgeC.x - sB.x : sA.x - ridgeC.x;
  const wy = solidA ? ridgeC.y - sB.y : sA.y - ridgeC.y;
  const wz = solidA ? ridgeC.z - sB.z : sA.z - ridgeC.z;
  const c = ridgeIo[0] * ridgeIo[2];
  const y0 = ridgeIo[1] * ridgeIo[2];
  ridgeCuts[3 * k] = c * (wx * ridgeX.x + wy * ridgeX.y + wz * ridgeX.z);
  ridgeCuts[3 * k + 1] = c * (wx * ridgeZ.x + wy * ridgeZ.y + wz * ridgeZ.z);
  ridgeCuts[3 * k + 2] = y0 * (wx * ridgeY.x + wy * ridgeY.y + wz * ridgeY.z);
  if (k < RIDGE_SAMPLES) {
    ridgeK[k] = overlapIo[0] - (wx * ridgeN.x + wy * ridgeN.y + wz * ridgeN.z);
  }
}

/**
 * Least value of cut k's sinusoid on the azimuths [ridgeCertIo[4], ridgeCertIo[5]] into
 * ridgeCertIo[3] (its ends, or its trough when that lies between), its azimuth into
 * ridgeCertIo[2] when below ridgeCertIo[1] (then also written there).
 */
function ridgeCutMin(k: number): void {
  const p = ridgeCuts[3 * k];
  const q = ridgeCuts[3 * k + 1];
  const e = ridgeCuts[3 * k + 2] + ridgeCertIo[0];
  const lo = ridgeCertIo[4];
  const hi = ridgeCertIo[5];
  let v = p * Math.cos(lo) + q * Math.sin(lo) + e;
  let at = lo;
  const vh = p * Math.cos(hi) + q * Math.sin(hi) + e;
  if (vh < v) {
    v = vh;
    at = hi;
  }
  if (p !== 0 || q !== 0) {
    // The trough at atan2(q, p) + π, moved into [lo, lo + 2π).
    const t = Math.atan2(q, p) + Math.PI;
    const u = lo + ((((t - lo) % TWO_PI) + TWO_PI) % TWO_PI);
    if (u < hi) {
      hypotIo[0] = p;
      hypotIo[1] = q;
      mathHypot2Io();
      const vt = e - hypotIo[0];
      if (vt < v) {
        v = vt;
        at = u;
      }
    }
  }
  ridgeCertIo[3] = v;
  if (v < ridgeCertIo[1]) {
    ridgeCertIo[1] = v;
    ridgeCertIo[2] = at;
  }
}

const TWO_PI = 2 * Math.PI;

/**
 * A certificate for {@link ridgeMinimum}'s least overlap along a solid's kink circle against a
 * shape whose core has finitely many support points (a polytope, a segment, a point): the
 * samples' brackets hold one local minimum each only where the other shape's features are
 * coarser than the samples, and a small hull deep inside a large cylinder has one per edge of
 * its shadow, several within a bracket (issue 16, seed 77: 3.2e-3 too deep at 653). On the
 * circle the solid's support is n·c + K exactly, so each support point s of the other gives a
 * sinusoid l(φ) = K + n(φ)·w below the overlap at every azimuth ({@link ridgeCut}), equal to it
 * where s is the support. Branch and bound over the azimuths between samples: an interval's
 * lower bound is the least of the larger of its end cuts' sinusoids (each end cut's least on
 * its side of their crossing); an interval whose bound is not below the least overlap found
 * (less RIDGE_CERTIFY_TOLERANCE of the magnitudes) is settled, else the overlap is evaluated at
 * the bound's azimuth, settling the interval when it meets the bound, else splitting it there
 * with the new support point as a cut. Against a polytope every split finds a new vertex, so it
 * ends with the least overlap exactly (the crossing of two vertices' sinusoids, an edge of the
 * shadow); at most RIDGE_CERTIFY_EVALS support pairs. Reads ridgeIo[7] (the least so far) and
 * [8], writes them when lower.
 */
function ridgeCertify(): void {
  const n = RIDGE_SAMPLES;
  const dphi = TWO_PI / n;
  const phi0 = ridgeIo[9];
  let kk = Number.POSITIVE_INFINITY;
  let scale = 0;
  for (let i = 0; i < n; i++) {
    const k = ridgeK[i];
    if (k < kk) kk = k;
    const m =
      Math.abs(k) +
      Math.abs(ridgeCuts[3 * i]) +
      Math.abs(ridgeCuts[3 * i + 1]) +
      Math.abs(ridgeCuts[3 * i + 2]);
    if (m > scale) scale = m;
  }
  if (!(Math.abs(kk) < Number.POSITIVE_INFINITY) || !(scale < Number.POSITIVE_INFINITY)) return;
  ridgeCertIo[0] = kk;
  const tol = RIDGE_CERTIFY_TOLERANCE * scale;
  let top = 0;
  for (let i = n - 1; i >= 0; i--) {
    ridgeStack[4 * top] = phi0 + i * dphi;
    ridgeStack[4 * top + 1] = phi0 + (i + 1) * dphi;
    ridgeStack[4 * top + 2] = i;
    ridgeStack[4 * top + 3] = (i + 1) % n;
    top++;
  }
  let cuts = n;
  while (top > 0) {
    top--;
    const lo = ridgeStack[4 * top];
    const hi = ridgeStack[4 * top + 1];
    const i = ridgeStack[4 * top + 2];
    const j = ridgeStack[4 * top + 3];
    const incumbent = Math.min(ridgeIo[7], ridgeIo[3]);
    ridgeCertIo[6] = lo;
    ridgeCertIo[7] = hi;
    ridgeSplitBound(i, j);
    const bound = ridgeCertIo[1];
    const at = ridgeCertIo[2];
    // Settled: nothing below the least found here; or bounded at an end, an overlap evaluated.
    if (!(bound < incumbent - tol) || !(at > lo && at < hi)) continue;
    if (cuts === RIDGE_CUTS) break;
    ridgeIo[5] = at;
    ridgeDirectionIo();
    overlapInto(ridgeN);
    const o = overlapIo[0];
    const k = cuts++;
    ridgeCut(k);
    if (o < ridgeIo[7]) {
      ridgeIo[7] = o;
      ridgeIo[8] = at;
    }
    if (o - bound <= tol) continue;
    ridgeStack[4 * top] = lo;
    ridgeStack[4 * top + 1] = at;
    ridgeStack[4 * top + 2] = i;
    ridgeStack[4 * top + 3] = k;
    top++;
    ridgeStack[4 * top] = at;
    ridgeStack[4 * top + 1] = hi;
    ridgeStack[4 * top + 2] = k;
    ridgeStack[4 * top + 3] = j;
    top++;
  }
}

/**
 * Lower bound of the overlap on the azimuths [ridgeCertIo[6], ridgeCertIo[7]] (less than π
 * apart) from its end cuts i and j into ridgeCertIo[1], its azimuth into ridgeCertIo[2]: the
 * overlap is at least l_i and at least l_j everywhere, so at least l_i below any split azimuth
 * and l_j above it; split where l_j rises through l_i (the bound is then the larger of the two),
 * else at an end. Azimuths through ridgeCertIo: a double argument of a call V8 does not inline
 * is boxed.
 */
function ridgeSplitBound(i: number, j: number): void {
  const lo = ridgeCertIo[6];
  const hi = ridgeCertIo[7];
  const dp = ridgeCuts[3 * j] - ridgeCuts[3 * i];
  const dq = ridgeCuts[3 * j + 1] - ridgeCuts[3 * i + 1];
  const de = ridgeCuts[3 * j + 2] - ridgeCuts[3 * i + 2];
  // l_j − l_i = ρ cos(φ − β) + de rises through 0 at β − acos(−de/ρ).
  let split = lo;
  hypotIo[0] = dp;
  hypotIo[1] = dq;
  mathHypot2Io();
  const rho = hypotIo[0];
  const x = rho > 0 ? -de / rho : de >= 0 ? -2 : 2;
  if (x >= 1) split = hi;
  else if (x > -1) {
    const t = Math.atan2(dq, dp) - Math.acos(x);
    split = lo + ((((t - lo) % TWO_PI) + TWO_PI) % TWO_PI);
    if (split > hi) {
      // No rise within: one cut above the other throughout (to rounding).
      const mid = 0.5 * (lo + hi);
      split = dp * Math.cos(mid) + dq * Math.sin(mid) + de >= 0 ? lo : hi;
    }
  }
  ridgeCertIo[4] = lo;
  ridgeCertIo[5] = split;
  ridgeCertIo[1] = Number.POSITIVE_INFINITY;
  ridgeCertIo[2] = lo;
  ridgeCutMin(i);
  const below = ridgeCertIo[1];
  const atBelow = ridgeCertIo[2];
  ridgeCertIo[4] = split;
  ridgeCertIo[5] = hi;
  ridgeCertIo[1] = Number.POSITIVE_INFINITY;
  ridgeCertIo[2] = hi;
  ridgeCutMin(j);
  if (below <= ridgeCertIo[1]) {
    ridgeCertIo[1] = below;
    ridgeCertIo[2] = atBelow;
  }
}
const revDimsB = new Float64Array(2);
const revN = vec3.create();
const revBestN = vec3.create();
const revBestA = vec3.create();
const revBestB = vec3.create();
const revInv: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

/**
 * Against a cylinder or a cone the refinement can stop short where the overlap has a kink (a
 * vertex or rim on the cone's slant, whose support jumps between apex and rim) or is nearly flat
 * over a large radius of curvature: its witness on the curved shape, placed along the normal
 * behind the other's, is then off the surface by the error of the depth. The solids of
 * revolution have an exact projection (src/geometry/revolution.ts), which gives the optimum's
 * own condition instead: at the least overlap (or the largest gap) the other shape's deepest
 * point q = s(n) projects onto the curved surface with outward normal ∓n. Iterates
 * n ← ∓normal(project(s(n))) from the refined end (a few steps: one for a vertex, a linear
 * contraction for two curved surfaces) and keeps the last n whose overlap is no worse than the
 * refinement's (to rounding) and which is a fixed point to REVOLUTION_FIXED_COS; the witnesses
 * are then s(n) and its projection, each exactly on its shape and facing along n.
 */
function snapToRevolution(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  if (curved(b)) revolutionFixedPoint(b, 1, bInA);
  if (curved(a)) revolutionFixedPoint(a, 0, bInA);
  if (curved(b)) featureWitnesses(b, 1, bInA);
  if (curved(a)) featureWitnesses(a, 0, bInA);
  if (curved(b)) touchWitness(b, 1, bInA);
  if (curved(a)) touchWitness(a, 0, bInA);
}

/**
 * Touching within rounding against a rim or an apex (a hull's vertex 4e-12 from a cylinder's rim
 * at size 1e4): the overlap is flat over the rim's cone of normals to far below its rounding, so
 * the refinement cannot fix the normal's azimuth, and the support points along it are apart
 * sideways (6e-6 there) while the fixed point of {@link revolutionFixedPoint} is lost to the
 * rounding of the projection's inside/outside test. The curved shape's witness is then the exact
 * projection of the other's onto it, when that is as near as the overlap says and spans it along
 * the normal (both on their shapes, (pB − pA)·n the signed distance to rounding).
 */
function touchWitness(s: ConvexShape, side: number, bInA: Isometry): void {
  const rc = revolutionCore(s);
  if (rc === null) return;
  const rev = shapeDef(rc.type).revolution as Revolution;
  const pa = refined.pointA;
  const pb = refined.pointB;
  const n = refined.normal;
  // A curved A's support points round at A's own coordinates, before the solver's shift.
  // The lengths through sizeIo: vec3.length, where V8 does not inline it, returns a boxed double.
  lengthInto(pa, 8);
  lengthInto(pb, 9);
  const size = Math.max(sizeIo[8], sizeIo[9], side === 0 ? shiftIo[1] : 0);
  ccSub(revQ, pb, pa);
  ccAddScaled(revQ, revQ, n, -ccDot(revQ, n));
  const f = Math.abs(refined.overlap);
  lengthInto(revQ, 8);
  if (!(sizeIo[8] > TOUCH_SIDEWAYS * size) || !(f <= TOUCH_SIDEWAYS * size)) return;
  const core = side === 1 ? coreB : coreA;
  rev.dims(revDims, rc);
  if (side === 1) {
    ccInvert(revInv, bInA);
    ccTransformPoint(snapLocal, revInv, pa);
  } else toLocalA(snapLocal, pb);
  revolutionDims[0] = revDims[0] * core.scale;
  revolutionDims[1] = revDims[1] * core.scale;
  projectRevolutionDims(revProj, rev.kind, snapLocal);
  if (!(Math.abs(revProj.distance) <= 2 * f + FACE_SNAP_SLACK * size)) return;
  if (side === 1) ccTransformPoint(revQ, bInA, revProj.point);
  else fromLocalA(revQ, revProj.point);
  // (pB − pA)·n must stay the signed distance −overlap: the nearest point can lie on another
  // face of the curved shape than the one n faces (a box's corner inside a cylinder of 4e-5 by
  // 1.6e-18 below its cap, 2.7e-14 deep along the side's normal: the witnesses one point, the
  // depth 2.7e-14; issue 16, s24). Then the other's witness moved along n by the overlap, where
  // that lies on the curved shape to rounding; else the refinement's witnesses stay.
  const o = side === 1 ? pa : pb;
  const sgn = side === 1 ? 1 : -1;
  const g = 0 - refined.overlap;
  const tol = FACE_SNAP_SLACK * size;
  const along = sgn * ((revQ.x - o.x) * n.x + (revQ.y - o.y) * n.y + (revQ.z - o.z) * n.z);
  if (!(Math.abs(along - g) <= tol)) {
    const m = sgn * g;
    revQ.x = o.x + n.x * m;
    revQ.y = o.y + n.y * m;
    revQ.z = o.z + n.z * m;
    if (side === 1) ccTransformPoint(snapLocal, revInv, revQ);
    else toLocalA(snapLocal, revQ);
    projectRevolutionDims(revProj, rev.kind, snapLocal);
    if (!(Math.abs(revProj.distance) <= tol)) return;
  }
  if (side === 1) ccCopy(pb, revQ);
  else ccCopy(pa, revQ);
}

/** Sideways offset of the witnesses and overlap, relative to the size, of a touch at a rim. */
const TOUCH_SIDEWAYS = 2 ** -40;

/** A disc as a core: centre, unit axis, radius (a cylinder's cap, a cone's base). */
class DiscSupport implements SupportMap {
  readonly center = vec3.create();
  readonly axis = vec3.create(0, 1, 0);
  radius = 0;
  margin = 0;

  /** out = the rim point farthest along dir (the centre when dir is along the axis). */
  support(out: Vec3, dir: Vec3): Vec3 {
    const t = ccDot(dir, this.axis);
    const x = dir.x - t * this.axis.x;
    const y = dir.y - t * this.axis.y;
    const z = dir.z - t * this.axis.z;
    // Math.hypot's bits through hypotIo: mathHypot3's call, where not inlined, boxes its
    // arguments and result.
    hypotIo[0] = x;
    hypotIo[1] = y;
    hypotIo[2] = z;
    mathHypot3Io();
    const l = hypotIo[0];
    if (!(l > 0)) {
      ccCopy(out, this.center);
      return out;
    }
    const k = this.radius / l;
    out.x = this.center.x + x * k;
    out.y = this.center.y + y * k;
    out.z = this.center.z + z * k;
    return out;
  }
}

const featureSeg = new SegmentSupport();
const featureDisc = new DiscSupport();
const featureGjk = makeGjkResult();
const featureD = vec3.create();
const featureP = vec3.create();
const featureQ = vec3.create();
const featureShift = vec3.create();
/** The feature's own outward normal (local, then A → B in the solver's frame). */
const featureN = vec3.create();

/**
 * Where the curved shape's support along the normal is a whole feature — a cylinder's side
 * generator or a cone's slant generator (the normal on the kink circle), a cap or the base
 * (the axis) — and the other's support a feature too (a box edge or face), the refinement's
 * witnesses are blends placed on the supporting planes, which can lie off both shapes. The
 * curved shape's feature is known exactly: moved along the normal by the overlap plus a small
 * clearance onto the far side of the other shape's supporting plane, GJK's closest points between
 * it and the other core are a pair facing each other along the normal, one on each feature;
 * moved back, they are the witnesses (issue 16, class 5: witnesses on their shapes). The normal,
 * within FEATURE_ANGLE of the feature's own, is first taken onto it where the overlap along it is
 * no worse (to rounding). Kept only when they are apart by the clearance along the normal, to
 * rounding, and not sideways (the features' shadows overlap).
 */
function featureWitnesses(s: ConvexShape, side: number, bInA: Isometry): void {
  const rc = revolutionCore(s);
  if (rc === null) return;
  const rev = shapeDef(rc.type).revolution as Revolution;
  const core = side === 1 ? coreB : coreA;
  rev.dims(revDims, rc);
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  const n = refined.normal;
  // The curved shape's outward normal, its local frame.
  if (side === 1) {
    ccConjugate(invRot, bInA.rotation);
    ccRotate(featureD, invRot, n);
    ccNegate(featureD, featureD);
  } else ccCopy(featureD, n);
  const d = featureD;
  // Math.hypot's bits through hypotIo, and the feature's points and normal written out: a
  // double passed to or returned by a call V8 does not inline is boxed.
  hypotIo[0] = d.x;
  hypotIo[1] = d.z;
  mathHypot2Io();
  const rho = hypotIo[0];
  const cone = rev.kind === RevolutionKind.Cone;
  let map: SupportMap;
  if (rho <= FEATURE_ANGLE && (!cone || d.y < 0)) {
    // The feature's own normal: the axis.
    ccSet(featureN, 0, d.y < 0 ? -1 : 1, 0);
    featureDisc.center.x = 0;
    featureDisc.center.y = d.y < 0 ? -h : h;
    featureDisc.center.z = 0;
    ccSet(featureDisc.axis, 0, 1, 0);
    featureDisc.radius = r;
    if (side === 1) {
      ccTransformPoint(featureDisc.center, bInA, featureDisc.center);
      ccRotate(featureDisc.axis, bInA.rotation, featureDisc.axis);
    } else fromLocalA(featureDisc.center, featureDisc.center);
    map = featureDisc;
  } else {
    if (!(rho > 0)) return;
    const ux = d.x / rho;
    const uz = d.z / rho;
    if (cone) {
      hypotIo[0] = 2 * h;
      hypotIo[1] = r;
      mathHypot2Io();
      const len = hypotIo[0];
      if (!(Math.abs(d.y - r / len) <= FEATURE_ANGLE)) return;
      // The slant's normal at the normal's azimuth.
      const c = (2 * h) / len;
      featureN.x = ux * c;
      featureN.y = r / len;
      featureN.z = uz * c;
      featureP.x = 0;
      featureP.y = h;
      featureP.z = 0;
    } else {
      if (!(Math.abs(d.y) <= FEATURE_ANGLE)) return;
      featureN.x = ux;
      featureN.y = 0;
      featureN.z = uz;
      featureP.x = r * ux;
      featureP.y = h;
      featureP.z = r * uz;
    }
    featureQ.x = r * ux;
    featureQ.y = -h;
    featureQ.z = r * uz;
    if (side === 1) {
      ccTransformPoint(featureP, bInA, featureP);
      ccTransformPoint(featureQ, bInA, featureQ);
    } else {
      fromLocalA(featureP, featureP);
      fromLocalA(featureQ, featureQ);
    }
    featureSeg.reset(featureP, featureQ);
    map = featureSeg;
  }
  // The lengths through sizeIo: vec3.length, where V8 does not inline it, returns a boxed double.
  lengthInto(refined.pointA, 8);
  lengthInto(refined.pointB, 9);
  const size = Math.max(sizeIo[8], sizeIo[9], h, r, featureIo[1]);
  // The normal, within FEATURE_ANGLE of the feature's, taken onto it exactly where the overlap
  // along it is no worse (to rounding): tilted by θ, the feature's ends differ in height by θ
  // times its length (3e-7 along a cone's slant of 3.4e5 tilted by 1e-12), which the witnesses
  // facing each other would carry into (pB − pA)·n.
  if (side === 1) {
    ccRotate(featureN, bInA.rotation, featureN);
    ccNegate(featureN, featureN);
  }
  if (!tryNormalizeScaled(featureN, featureN)) return;
  overlapInto(featureN);
  const snapped = overlapIo[0];
  if (snapped <= refined.overlap + FACE_SNAP_SLACK * size) {
    ccCopy(refined.normal, featureN);
    refined.overlap = snapped;
  }
  // Moved onto the far side of the other shape's supporting plane by the clearance.
  const clear = FEATURE_CLEARANCE * size;
  const f = refined.overlap;
  const shift = side === 0 ? -(f + clear) : f + clear;
  featureShift.x = n.x * shift;
  featureShift.y = n.y * shift;
  featureShift.z = n.z * shift;
  if (map === featureDisc) ccAdd(featureDisc.center, featureDisc.center, featureShift);
  else {
    ccAdd(featureSeg.a, featureSeg.a, featureShift);
    ccAdd(featureSeg.b, featureSeg.b, featureShift);
  }
  gjkLimit[0] = Number.POSITIVE_INFINITY;
  if (side === 0) gjkToLimit(featureGjk, map, coreBInA, n);
  else gjkToLimit(featureGjk, coreA, map, n);
  if (featureGjk.status !== GjkStatus.Separated || featureGjk.unproven) return;
  // The features' shadows overlap: GJK's witnesses face each other along the normal, apart by
  // the clearance. Measured on the witnesses, not on GJK's |v|, which loses digits on the sliver
  // simplex of a long generator and a small shape (4.7e-10 of a clearance of 3.7e-4 at size 309).
  const dx = featureGjk.pointB.x - featureGjk.pointA.x;
  const dy = featureGjk.pointB.y - featureGjk.pointA.y;
  const dz = featureGjk.pointB.z - featureGjk.pointA.z;
  const along = dx * n.x + dy * n.y + dz * n.z;
  const lx = dx - along * n.x;
  const ly = dy - along * n.y;
  const lz = dz - along * n.z;
  lengthInto(featureGjk.pointA, 8);
  lengthInto(featureGjk.pointB, 9);
  // (And B's offset: the other core's support points round at its coordinates.)
  lengthInto(pairBInA.translation, 7);
  const near = Math.max(sizeIo[8], sizeIo[9], sizeIo[7]);
  // Within the rounding of the witnesses and of the features' support points (GJK's blends of
  // a generator's ends: 6e-14 at size 383 for witnesses at 2e-3).
  const slack = FEATURE_GAP_SLACK * near + FEATURE_ROUNDING * size;
  if (!(Math.abs(along - clear) <= slack)) return;
  if (!(lx * lx + ly * ly + lz * lz <= FEATURE_SIDEWAYS * FEATURE_SIDEWAYS * clear * clear)) return;
  if (side === 0) {
    ccSub(refined.pointA, featureGjk.pointA, featureShift);
    ccCopy(refined.pointB, featureGjk.pointB);
  } else {
    ccCopy(refined.pointA, featureGjk.pointA);
    ccSub(refined.pointB, featureGjk.pointB, featureShift);
  }
  featureIo[0] = 1;
}

/**
 * [0] 1 when the last {@link featureWitnesses} took the features' witnesses; [1] a magnitude its
 * clearance and roundings follow besides the features' own (0 on the overlap path).
 */
const featureIo = new Float64Array(2);

/**
 * A curved pair's gap (cores without margins, solver frame) whose normal lies on a cylinder's or
 * cone's flat feature — a side or slant generator, a cap or the base — takes the features'
 * closest points of {@link featureWitnesses} (they face each other along the normal, apart by the
 * gap): GJK's blend of support points on a sliver simplex of a large hull's edge crossing a
 * small cylinder's generator lay 1.5e-4 off the hull, and the polish's alternating projections,
 * rounding at the hull's size, ended 3.9e-6 apart for a gap of 5.8e-11 (issue 16, s24). True
 * when taken. Cores loaded; solved* in the caller's frame and units (touchIo[0] the change).
 */
function gapFeatures(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  if (coreA.margin !== 0 || coreB.margin !== 0) return false;
  // Into the solver's frame and units (k in touchIo[0]).
  const k = touchIo[0];
  ccCopy(refined.normal, solvedNormal);
  ccScale(refined.pointA, solvedA, k);
  ccScale(refined.pointB, solvedB, k);
  if (shiftIo[0] !== 0) {
    ccSub(refined.pointA, refined.pointA, shiftA);
    ccSub(refined.pointB, refined.pointB, shiftA);
  }
  refined.overlap = (0 - solvedIo[0]) * k;
  featureIo[0] = 0;
  // The clearance past the other core at its coordinates' rounding (B's offset): GJK from a
  // generator of 5e-4 moved 5.9e-10 clear of a hull of 2e5 called them in contact.
  lengthInto(pairBInA.translation, 7);
  featureIo[1] = sizeIo[7];
  if (curved(b)) featureWitnesses(b, 1, bInA);
  if (featureIo[0] === 0 && curved(a)) featureWitnesses(a, 0, bInA);
  featureIo[1] = 0;
  if (featureIo[0] === 0) return false;
  if (shiftIo[0] !== 0) {
    ccAdd(refined.pointA, refined.pointA, shiftA);
    ccAdd(refined.pointB, refined.pointB, shiftA);
  }
  const inv = 1 / k;
  // The gap stays the solver's (the features' witnesses are apart by it along the normal).
  ccCopy(solvedNormal, refined.normal);
  ccScale(solvedA, refined.pointA, inv);
  ccScale(solvedB, refined.pointB, inv);
  return true;
}

/** Sideways offset of the feature witnesses, relative to the clearance, under which they face each other. */
const FEATURE_SIDEWAYS = 2 ** -12;

/** Angle, radians, within which the normal is on a kink circle or an axis (a flat support). */
const FEATURE_ANGLE = 2 ** -36;

/** Clearance, relative to the pair's size, by which the feature is moved past the other shape. */
const FEATURE_CLEARANCE = 2 ** -20;

/**
 * GJK's gap minus the clearance, relative to its witnesses' magnitude, under which the features
 * face each other (with FEATURE_ROUNDING of the size; 2^-40 of the size alone let (pB − pA)·n miss
 * the depth by 3e-7 at a cone of 3.4e5 whose slant the normal was tilted from). What it admits
 * (pB − pA)·n misses the depth by: 32 ε, within the bar's 64 ε of the pair's extent (2^-44 let a
 * box of 200 on the slant of a cone of 1.5e5, witnesses at 8e4, miss it by 4.6e-9 against a bar
 * of 3.1e-9; issue 16, s24).
 */
const FEATURE_GAP_SLACK = 2 ** -47;

/** The rounding of GJK's witnesses on a feature, relative to the pair's size (16 ε). */
const FEATURE_ROUNDING = 2 ** -48;

/** {@link snapToRevolution} onto the curved shape `s`: side 1 is B (posed by bInA), 0 is A. */
function revolutionFixedPoint(s: ConvexShape, side: number, bInA: Isometry): void {
  const rc = revolutionCore(s);
  if (rc === null) return;
  const rev = shapeDef(rc.type).revolution as Revolution;
  const core = side === 1 ? coreB : coreA;
  rev.dims(revDims, rc);
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  const kind = rev.kind;
  // The lengths through sizeIo: vec3.length, where V8 does not inline it, returns a boxed double.
  lengthInto(refined.pointA, 8);
  lengthInto(refined.pointB, 9);
  const size = Math.max(sizeIo[8], sizeIo[9], h, r);
  const limit = refined.overlap + FACE_SNAP_SLACK * size;
  if (side === 1) ccInvert(revInv, bInA);
  // q: the other shape's witness, the start of the iteration.
  ccCopy(revQ, side === 1 ? refined.pointA : refined.pointB);
  let found = false;
  let best = Number.POSITIVE_INFINITY;
  for (let it = 0; it < REVOLUTION_ITERATIONS; it++) {
    // Project q onto the curved shape (its local frame), n = ∓ its outward normal (A → B).
    if (side === 1) ccTransformPoint(snapLocal, revInv, revQ);
    else toLocalA(snapLocal, revQ);
    revolutionDims[0] = h;
    revolutionDims[1] = r;
    projectRevolutionDims(revProj, kind, snapLocal);
    if (side === 1) {
      ccRotate(revN, bInA.rotation, revProj.normal);
      ccNegate(revN, revN);
    } else ccCopy(revN, revProj.normal);
    if (!tryNormalizeScaled(revN, revN)) return;
    // Fixed point: the normal at q's projection is the direction q was the support along.
    // (vec3.dot written out: where V8 does not inline it, its returned double is boxed.)
    const cos = revN.x * revBestN.x + revN.y * revBestN.y + revN.z * revBestN.z;
    if (it > 0 && cos >= REVOLUTION_FIXED_COS && best <= limit) {
      found = true;
      if (side === 1) ccTransformPoint(revBestB, bInA, revProj.point);
      else fromLocalA(revBestA, revProj.point);
      break;
    }
    overlapInto(revN);
    const o = overlapIo[0];
    // Converging: no worse than the last step beyond rounding (the sequence of overlaps falls).
    if (!(o <= Math.min(best, limit) + FACE_SNAP_SLACK * size)) break;
    best = o;
    ccCopy(revBestN, revN);
    // The other shape's support along the new normal: the next q and its witness.
    if (side === 1) {
      ccCopy(revQ, sA);
      ccCopy(revBestA, sA);
    } else {
      ccCopy(revQ, sB);
      ccCopy(revBestB, sB);
    }
  }
  if (!found) return;
  ccCopy(refined.normal, revBestN);
  refined.overlap = best;
  ccCopy(refined.pointA, revBestA);
  ccCopy(refined.pointB, revBestB);
  ccSub(revQ, revBestA, revBestB);
  // revQ −= (revQ·n) n written out (a double passed to a call V8 does not inline is boxed).
  const along = -(revQ.x * revBestN.x + revQ.y * revBestN.y + revQ.z * revBestN.z);
  revQ.x += revBestN.x * along;
  revQ.y += revBestN.y * along;
  revQ.z += revBestN.z * along;
  lengthInto(revQ, 8);
  refined.gradient = sizeIo[8];
}

/**
 * A gap's witnesses must lie the gap apart, |pointB − pointA| = distance, but against a cylinder's
 * or a cone's rim, apex or slant the refinement can stop with the curved shape's support point
 * sliding off to the side of the other's (a triangle's corner 6.9e-13 from a cone's rim with the
 * rim's support point 2e-7 away; a small cone's rim beside a large cone's slant: issue 16). From
 * the other shape's witness, on that shape, {@link alternateProjections} onto the curved one
 * (exactly) and back give a pair on both shapes whose |p − q| is a distance both points attain
 * (an upper bound on the gap, the separation along the normal a lower one). The pair is taken,
 * with the lower bound as the gap (never above the true distance: castShapes' conservative
 * advancement steps by it) and the normal kept, when it leaves less between the two bounds than
 * the solved witnesses' disagreement |‖pB − pA‖ − d| (so the answer only gets more consistent).
 * Only when that disagreement exceeds rounding (TOUCH_TOLERANCE of the witnesses' magnitude), the
 * lower bound is a gap, and neither core has a margin. From each curved side's other shape, B's
 * first. Cores loaded, solver frame and units.
 */
function projectGapWitness(a: ConvexShape, b: ConvexShape): void {
  if (coreA.margin !== 0 || coreB.margin !== 0) return;
  const d = solvedIo[0];
  ccSub(polishD1, solvedB, solvedA);
  lengthInto(polishD1, 0);
  let err = Math.abs(sizeIo[0] - d);
  witnessScale();
  if (!(err > TOUCH_TOLERANCE * sizeIo[0])) return;
  // The certified lower bound: the separation along the solved normal, or along that normal
  // taken onto the pair's flat features ({@link flatSeparation}) where more.
  overlapInto(solvedNormal);
  let lower = 0 - overlapIo[0];
  ccCopy(gapLowerN, solvedNormal);
  flatSeparation(a, b, solvedNormal);
  if (flatIo[0] > lower) {
    lower = flatIo[0];
    ccCopy(gapLowerN, flatN);
  }
  if (!(lower > 0)) return;
  for (let side = 1; side >= 0; side--) {
    if (!curved(side === 1 ? b : a)) continue;
    // From the other shape's witness, taken as on it.
    ccCopy(polishP, side === 1 ? solvedA : solvedB);
    alternateProjections(1 - side, GAP_PROJECTIONS, 0);
    // The separation along the pair's own direction too: where the solved normal is off by an
    // angle θ, the separation along it falls short of the distance by about θ²·size, which the
    // pair's direction, near the true normal, does not (issue 16: cones of 1e-4, 1.8e-6 apart,
    // 3.1e-14 short along the solved normal, 3e-18 along the pair's direction); and along it
    // taken onto the flat features. Capped at |p − q| (the two agree but for rounding): still a
    // lower bound.
    if (polishIo[1] === 0) ccSub(polishD2, polishBestQ, polishBest);
    else ccSub(polishD2, polishBest, polishBestQ);
    let bound = Math.min(lower, polishIo[0]);
    let along = 0;
    if (tryNormalizeScaled(polishD2, polishD2)) {
      overlapInto(polishD2);
      let l = 0 - overlapIo[0];
      flatSeparation(a, b, polishD2);
      if (flatIo[0] > l) {
        l = flatIo[0];
        ccCopy(polishD2, flatN);
      }
      l = Math.min(l, polishIo[0]);
      if (l > bound) {
        bound = l;
        along = 1;
      }
    }
    const e = polishIo[0] - bound;
    if (!(e >= 0 && e < err)) continue;
    err = e;
    // The certified lower bound, not |p − q|: a gap never above the distance, so that the
    // conservative advancement of castShapes, stepping by it, never passes the contact.
    solvedIo[0] = bound;
    ccCopy(solvedNormal, along !== 0 ? polishD2 : gapLowerN);
    if (polishIo[1] === 0) {
      ccCopy(solvedA, polishBest);
      ccCopy(solvedB, polishBestQ);
    } else {
      ccCopy(solvedA, polishBestQ);
      ccCopy(solvedB, polishBest);
    }
  }
}

/**
 * A polytope apart from a cylinder or cone: where the separation along the solved normal falls
 * short of the witnesses' distance by more than rounding, the polytope's witness projected onto
 * the curved shape exactly ({@link projectOnto}) gives the direction between the two — the normal
 * of the curved surface there — and, when the separation along it agrees with their distance to
 * rounding, that pair, the direction and the separation along it (a certified lower bound, as
 * {@link projectGapWitness} takes) are the answer. A box's corner on the meridian plane of a cone
 * beside its slant is the nearest point of its edge, where the distance is stationary along the
 * edge: the refinement's normal was 1.55e-9 off it, and the separation along that normal fell
 * 2.7e-11 short across the edge of 0.018 (issue 16, seed 62). Cores loaded, solver frame and
 * units; neither core with a margin.
 */
function pointGapWitness(a: ConvexShape, b: ConvexShape): void {
  if (coreA.margin !== 0 || coreB.margin !== 0) return;
  witnessScale();
  const tol = TOUCH_TOLERANCE * sizeIo[0];
  faceSub(polishD1, solvedB, solvedA);
  lengthInto(polishD1, 3);
  overlapInto(solvedNormal);
  let err = sizeIo[3] - (0 - overlapIo[0]);
  if (!(err > tol)) return;
  // Never a gap below the solved one by more than the rounding of the gap itself: far from the
  // solver's origin the separation along the new direction rounds at the coordinates (a box
  // 94 from a cylinder at 1e9: 9.7e-8 short).
  const floor = solvedIo[0] - TOUCH_TOLERANCE * sizeIo[3];
  for (let side = 0; side < 2; side++) {
    const flat = side === 0 ? a : b;
    const round = side === 0 ? b : a;
    if (!isPolytope(flat) || revolutionCore(round) === null) continue;
    faceCopy(polishP, side === 0 ? solvedA : solvedB);
    projectOnto(polishQ, 1 - side, polishP);
    const d = projectIo[0];
    if (!(d > 0)) continue;
    if (side === 0) faceSub(polishD2, polishQ, polishP);
    else faceSub(polishD2, polishP, polishQ);
    const invD = 1 / d;
    polishD2.x *= invD;
    polishD2.y *= invD;
    polishD2.z *= invD;
    overlapInto(polishD2);
    const lower = Math.min(0 - overlapIo[0], d);
    const e = d - lower;
    if (!(lower > 0 && lower >= floor && e < err)) continue;
    err = e;
    solvedIo[0] = lower;
    faceCopy(solvedNormal, polishD2);
    faceCopy(side === 0 ? solvedA : solvedB, polishP);
    faceCopy(side === 0 ? solvedB : solvedA, polishQ);
  }
}

const pairU = vec3.create();
const pairA = vec3.create();
const pairB = vec3.create();

/**
 * A rounded shape's gap from a cylinder or cone: the direction between the cores' witnesses,
 * u = (qB − qA)/|qB − qA|, taken for the normal, the witnesses placed on the surfaces along it
 * (qA + rA·u, qB − rB·u: facing each other across it), when the separation along u (a certified
 * lower bound on the cores' distance) falls short of |qB − qA| (an upper bound) by no more than
 * twice what the solved normal's does, plus rounding (TOUCH_TOLERANCE of the witnesses'
 * magnitude); the gap is raised to u's separation where that is more. Nearest points lie along
 * the normal of their gap, but the refinement stops short of it on a ridge of the separation, an
 * edge across a rim, where a tilt off the ridge loses separation linearly: a hull's edge 4.2e4
 * from a cylinder's rim had the refined normal 1.3e-6 rad off the nearest points' direction
 * (7.8e-7 short along it), the witnesses 5.4e-2 apart sideways across it (issue 16, seed 67).
 * Scene units on entry and exit (solvedA, solvedB as {@link solve} leaves them), `k` the change
 * of units; cores loaded, solver frame inside.
 */
function gapPairNormal(k: number): void {
  const mA = coreA.margin;
  const mB = coreB.margin;
  const n = solvedNormal;
  // The cores' witnesses in the solver's frame (p·k − shift, less the margins along n).
  pairA.x = solvedA.x * k - n.x * mA;
  pairA.y = solvedA.y * k - n.y * mA;
  pairA.z = solvedA.z * k - n.z * mA;
  pairB.x = solvedB.x * k + n.x * mB;
  pairB.y = solvedB.y * k + n.y * mB;
  pairB.z = solvedB.z * k + n.z * mB;
  const shifted = shiftIo[0] !== 0;
  if (shifted) {
    faceSub(pairA, pairA, shiftA);
    faceSub(pairB, pairB, shiftA);
  }
  // The polytope core's witness taken to the point of its core nearest the curved core's witness
  // (exact on the curved side; GJK's witness on a polytope's edge can lie along it, where the
  // distance changes only to second order).
  const curvedA = curved(coreA.shape);
  if (curvedA !== curved(coreB.shape) && solvedIo[0] * k + mA + mB > 0) {
    coreA.margin = 0;
    coreB.margin = 0;
    if (curvedA) {
      projectOnto(faceQ, 1, pairA);
      faceCopy(pairB, faceQ);
    } else {
      projectOnto(faceQ, 0, pairB);
      faceCopy(pairA, faceQ);
    }
    coreA.margin = mA;
    coreB.margin = mB;
  }
  faceSub(pairU, pairB, pairA);
  lengthInto(pairU, 0);
  const far = sizeIo[0];
  // The cores apart (their witnesses, on them, then are their nearest points), the witnesses apart
  // sideways by more than rounding.
  if (!(solvedIo[0] * k + mA + mB > 0) || !(far < Number.POSITIVE_INFINITY)) return;
  const t = pairU.x * n.x + pairU.y * n.y + pairU.z * n.z;
  faceP.x = pairU.x - t * n.x;
  faceP.y = pairU.y - t * n.y;
  faceP.z = pairU.z - t * n.z;
  lengthInto(faceP, 1);
  if (!(sizeIo[1] > FACE_WITNESS_SLACK * far)) return;
  pairU.x /= far;
  pairU.y /= far;
  pairU.z /= far;
  overlapInto(n);
  const sepN = 0 - overlapIo[0];
  overlapInto(pairU);
  const sepU = 0 - overlapIo[0];
  lengthInto(pairA, 1);
  lengthInto(pairB, 2);
  const round = TOUCH_TOLERANCE * Math.max(sizeIo[1], sizeIo[2], shiftIo[1]);
  if (!(sepU > 0 && far - sepU <= 2 * Math.max(far - sepN, 0) + round)) return;
  faceCopy(solvedNormal, pairU);
  // A gap raised to u's separation where more (still a lower bound on the distance); a depth kept.
  const g = (sepU - mA - mB) / k;
  if (solvedIo[0] > 0 && g > solvedIo[0]) solvedIo[0] = g;
  surfaceIo[0] = k;
  coresToSurfaces(pairA, pairB);
}

/** A cylinder's or a cone's generator as a triangle without area (corners a, b, b), A's frame. */
const generator: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const generatorContact = makeContact();
/** The rounded shape's core's pose in A's frame for {@link generatorCoreGap}. */
const generatorPose: Isometry = {
  translation: vec3.create(),
  rotation: { x: 0, y: 0, z: 0, w: 1 },
};
const generatorDir = vec3.create();
const generatorU = vec3.create();

/** Generators {@link generatorCoreGap} tries, each at the azimuth of the last one's normal. */
const GENERATOR_TRIES = 4;

/**
 * A cylinder or a cone (bare or a rounded type's core) against a rounded box's or hull's core,
 * the cores apart: their distance and nearest points from the exact features when the curved
 * core's nearest feature is its side generator — the segment of the side at the normal's
 * azimuth (a cylinder's from cap to cap, a cone's from the apex to the rim), whose distance from
 * the polytope core is that of a segment (src/narrowphase/triangle-polytope.ts: an end against a
 * face, the segment against an edge; Ericson 2005, §5.1.9), an upper bound on the cores'
 * distance. It is taken — the gap or the depth through the margins, the direction u between the
 * nearest points for the normal, the points moved by the margins along u for the witnesses —
 * when the cores' separation along u (a lower bound) meets it to rounding (TOUCH_TOLERANCE of
 * the points' magnitude); each try takes the generator at the azimuth of the last u. GJK's gap
 * stops at a tolerance relative to the pair's size and the polish keeps it where the flat
 * features' support points do not face each other (issue 16: a cylinder of 3.4e3 whose
 * generator, turned 4.8e-12 rad, crossed the edge of a rounded box's core face 128 away was
 * 1.9e-10 short of the depth; a cylinder of 8e-7 whose generator crossed a rounded hull's core
 * edge 9.5e-15 away had its normal 2.6e-9 rad off the edges' common normal). Solver frame at
 * scale 1 (A's frame less shiftA); cores loaded.
 */
function generatorCoreGap(a: ConvexShape, b: ConvexShape): void {
  const curvedA = curved(a);
  if (curvedA === curved(b)) return;
  const poly = flatPolytope(curvedA ? b : a);
  // A rounded box's or hull's core only (a bare polytope has its own gap routines).
  if (poly === null || poly === (curvedA ? b : a)) return;
  if (poly.type !== ShapeType.Cuboid && poly.type !== ShapeType.ConvexPolyhedron) return;
  const rc = revolutionCore(curvedA ? a : b) as ConvexShape;
  const rev = shapeDef(rc.type).revolution as Revolution;
  rev.dims(flatDims, rc);
  const h = flatDims[0];
  const rad = flatDims[1];
  const cone = rev.kind === RevolutionKind.Cone;
  const mA = coreA.margin;
  const mB = coreB.margin;
  const t = pairBInA.translation;
  // B's pose in A's frame (the solver's is shifted by shiftA when shiftIo[0] is set).
  if (curvedA) {
    ccAdd(generatorPose.translation, t, shiftA);
    const q = generatorPose.rotation;
    const p = pairBInA.rotation;
    q.x = p.x;
    q.y = p.y;
    q.z = p.z;
    q.w = p.w;
  } else {
    const gt = generatorPose.translation;
    gt.x = 0;
    gt.y = 0;
    gt.z = 0;
    const q = generatorPose.rotation;
    q.x = 0;
    q.y = 0;
    q.z = 0;
    q.w = 1;
    const p = pairBInA.rotation;
    invRot.x = -p.x;
    invRot.y = -p.y;
    invRot.z = -p.z;
    invRot.w = p.w;
  }
  ccCopy(generatorU, solvedNormal);
  for (let i = 0; i < GENERATOR_TRIES; i++) {
    // The curved core's outward direction in its own frame.
    if (curvedA) ccCopy(generatorDir, generatorU);
    else {
      ccRotate(generatorDir, invRot, generatorU);
      ccNegate(generatorDir, generatorDir);
    }
    hypotIo[0] = generatorDir.x;
    hypotIo[1] = generatorDir.z;
    mathHypot2Io();
    const rho = hypotIo[0];
    if (!(rho > 0)) return;
    const g = generator;
    g.a.x = (generatorDir.x / rho) * rad;
    g.a.y = -h;
    g.a.z = (generatorDir.z / rho) * rad;
    g.b.x = cone ? 0 : g.a.x;
    g.b.y = h;
    g.b.z = cone ? 0 : g.a.z;
    if (!curvedA) {
      ccRotate(g.a, pairBInA.rotation, g.a);
      ccRotate(g.b, pairBInA.rotation, g.b);
      ccAdd(g.a, g.a, t);
      ccAdd(g.a, g.a, shiftA);
      ccAdd(g.b, g.b, t);
      ccAdd(g.b, g.b, shiftA);
    }
    ccCopy(g.c, g.b);
    contactPredictionIo[0] = Number.POSITIVE_INFINITY;
    if (!contactTrianglePolytopeIo(generatorContact, g, poly, generatorPose)) return;
    const d = generatorContact.distance;
    if (!(d > 0)) return;
    // A toward B: the segment's normal points from it toward the polytope.
    if (curvedA) ccCopy(generatorU, generatorContact.normal);
    else ccNegate(generatorU, generatorContact.normal);
    overlapInto(generatorU);
    let sep = 0 - overlapIo[0];
    // The nearest points' direction carries their rounding at the segment's length over the gap,
    // a tilt off the perpendicular of the generator and the edge that their lengths turn into a
    // loss of separation (7.9e-12 at a gap of 128 along a generator of 4.5e3): the direction
    // taken onto the flat features near it when that separates more.
    flatSeparation(a, b, generatorU);
    if (flatIo[0] > sep) {
      sep = flatIo[0];
      ccCopy(generatorU, flatN);
    }
    lengthInto(generatorContact.pointA, 1);
    lengthInto(generatorContact.pointB, 2);
    const round = TOUCH_TOLERANCE * Math.max(sizeIo[1], sizeIo[2], shiftIo[1]);
    // d is an upper bound on the cores' distance, sep a lower bound: both must meet it.
    if (!(Math.abs(d - sep) <= round)) continue;
    // Taken (a few times per step of a world, of hundreds of calls): written out, not through
    // ccCopy, ccSub and ccAddScaled, which V8 does not inline at a call site this rare (the
    // margins were passed boxed, and a helper not optimized on its own runs with every double a
    // heap number). The same arithmetic: solvedA = (pa − shiftA) + u·mA, solvedB = (pb −
    // shiftA) + u·(−mB).
    solvedIo[0] = d - mA - mB;
    const u = generatorU;
    solvedNormal.x = u.x;
    solvedNormal.y = u.y;
    solvedNormal.z = u.z;
    const pa = curvedA ? generatorContact.pointA : generatorContact.pointB;
    const pb = curvedA ? generatorContact.pointB : generatorContact.pointA;
    const nmB = -mB;
    solvedA.x = pa.x - shiftA.x + u.x * mA;
    solvedA.y = pa.y - shiftA.y + u.y * mA;
    solvedA.z = pa.z - shiftA.z + u.z * mA;
    solvedB.x = pb.x - shiftA.x + u.x * nmB;
    solvedB.y = pb.y - shiftA.y + u.y * nmB;
    solvedB.z = pb.z - shiftA.z + u.z * nmB;
    if (d - mA - mB < boundIo[1]) boundIo[1] = d - mA - mB;
    return;
  }
}

/** Projections of {@link projectGapWitness} from each side, at most. */
const GAP_PROJECTIONS = 16;

/** The direction of {@link projectGapWitness}'s lower bound along the solved normal. */
const gapLowerN = vec3.create();

/** Steps of {@link snapToRevolution}'s fixed-point iteration. */
const REVOLUTION_ITERATIONS = 8;

/** Cosine under which the projection's normal repeats the direction (a fixed point). */
const REVOLUTION_FIXED_COS = 1 - 2 ** -44;

/** Overlap increase, relative to the pair's size, within which a face normal is taken (rounding). */
const FACE_SNAP_SLACK = 2 ** -48;

/** GJK's witnesses' difference pA − pB in {@link polishGap} (its length an upper bound on the gap). */
const polishD = vec3.create();

/** Relative agreement of GJK's gap and the separation along its direction that needs no polish. */
const GJK_POLISH_AGREEMENT = 1e-11;

/** Tangential gradient, relative to the pair's size, under which polished witnesses face each other. */
const GJK_POLISH_GRADIENT = 1e-12;

/**
 * True when solvedA lies outside A's bounding ball (about A's origin, A's frame) or solvedB
 * outside B's (about B's origin, placed by `bInA`), each grown by 2^-20 of its radius and of the
 * pair's offset for rounding: a witness that cannot be on its shape.
 */
function witnessOutsideBall(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  const t = bInA.translation;
  const slack = 2 ** -20 * (Math.abs(t.x) + Math.abs(t.y) + Math.abs(t.z));
  writeBoundingRadiusOf(ridgeRadiusIo, a);
  const ra = ridgeRadiusIo[0] * (1 + 2 ** -20) + slack;
  if (solvedA.x * solvedA.x + solvedA.y * solvedA.y + solvedA.z * solvedA.z > ra * ra) return true;
  writeBoundingRadiusOf(ridgeRadiusIo, b);
  const rb = ridgeRadiusIo[0] * (1 + 2 ** -20) + slack;
  const dx = solvedB.x - t.x;
  const dy = solvedB.y - t.y;
  const dz = solvedB.z - t.z;
  return dx * dx + dy * dy + dz * dz > rb * rb;
}

/**
 * Fallback witnesses along the normal n: the smaller shape's (by bounding radius) deepest core
 * point, and the other's depth·n from it. Anchored on the smaller shape: the larger one's
 * deepest point along −n can lie its whole size away from the contact (a hull of 6e-6 deep in
 * one of 6e5: the large hull's far corner, 6.8e5 from the small one; issue 16, seed 44).
 */
function witnessesAlong(a: ConvexShape, b: ConvexShape, n: Vec3, depth: number): void {
  writeBoundingRadiusOf(ridgeRadiusIo, a);
  const ra = ridgeRadiusIo[0];
  writeBoundingRadiusOf(ridgeRadiusIo, b);
  if (ra < ridgeRadiusIo[0]) {
    coreA.support(solvedA, n);
    ccAddScaled(solvedB, solvedA, n, -depth);
    return;
  }
  ccNegate(negN, n);
  coreBInA.support(solvedB, negN);
  ccAddScaled(solvedA, solvedB, n, depth);
}

const fallbackNormal = vec3.create(1, 0, 0);
const cand = vec3.create();
const tang1 = vec3.create();
const tang2 = vec3.create();
const probe = vec3.create();

/** Tries unit axis `axis` in both signs; keeps the smaller overlap in satIo[0] and its axis in fallbackNormal. */
function tryAxis(axis: Vec3): void {
  if (!tryNormalizeScaled(cand, axis)) return;
  overlapInto(cand);
  const o1 = overlapIo[0];
  if (o1 < satIo[0]) {
    satIo[0] = o1;
    ccCopy(fallbackNormal, cand);
  }
  ccNegate(cand, cand);
  overlapInto(cand);
  const o2 = overlapIo[0];
  if (o2 < satIo[0]) {
    satIo[0] = o2;
    ccCopy(fallbackNormal, cand);
  }
}

/**
 * Sampled penetration depth of the cores: min of the overlap over the six axis directions of A's
 * and of B's frames (the face normals of cylinders and cones) and PENETRATION_FALLBACK_SAMPLES
 * Fibonacci directions, refined by {@link refineDirection}; to refineIo[0], its direction in
 * fallbackNormal.
 */
function sampledDepth(bInA: Isometry): void {
  const n = PENETRATION_FALLBACK_SAMPLES;
  const golden = Math.PI * (3 - Math.sqrt(5));
  let best = Infinity;
  for (let i = -12; i < n; i++) {
    if (i < 0) {
      const k = i + 12;
      ccSet(tang1, 0, 0, 0);
      vec3.setAxis(tang1, k % 3, k % 6 < 3 ? 1 : -1);
      if (k >= 6) ccRotate(tang1, bInA.rotation, tang1);
    } else {
      const y = 1 - (2 * (i + 0.5)) / n;
      const rr = Math.sqrt(Math.max(0, 1 - y * y));
      const t = golden * i;
      ccSet(tang1, Math.cos(t) * rr, y, Math.sin(t) * rr);
    }
    overlapInto(tang1);
    const o = overlapIo[0];
    if (o < best) {
      best = o;
      ccCopy(fallbackNormal, tang1);
    }
  }
  refineIo[0] = best;
  refineDirection();
}

/** Cosines and sines of the 8 probe angles k·π/4 of the local search. */
const PROBE_COS = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2, 0, Math.SQRT1_2];
const PROBE_SIN = [0, Math.SQRT1_2, 1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1, -Math.SQRT1_2];

/**
 * Local search on the unit sphere from fallbackNormal (whose overlap is `best`): probes 8
 * tangent steps (axes and diagonals, so a ridge of the overlap where a support jumps does not
 * stall it), halves the step when none improves; MAX_REFINE_ITERATIONS rounds. Returns the
 * best overlap, its direction in fallbackNormal. `best` in and out through refineIo[0].
 */
function refineDirection(): void {
  let best = refineIo[0];
  let step = Math.sqrt((4 * Math.PI) / PENETRATION_FALLBACK_SAMPLES);
  for (let it = 0; it < MAX_REFINE_ITERATIONS; it++) {
    vec3.orthonormalBasis(tang1, tang2, fallbackNormal);
    let improved = false;
    for (let k = 0; k < 8; k++) {
      ccAddScaled(probe, fallbackNormal, tang1, PROBE_COS[k] * step);
      ccAddScaled(probe, probe, tang2, PROBE_SIN[k] * step);
      tryNormalizeScaled(probe, probe);
      overlapInto(probe);
      const o = overlapIo[0];
      if (o < best) {
        best = o;
        ccCopy(fallbackNormal, probe);
        improved = true;
      }
    }
    if (!improved) step *= 0.5;
  }
  refineIo[0] = best;
}

/** [0] the overlap in and out of {@link refineDirection} and out of {@link sampledDepth}. */
const refineIo = new Float64Array(1);

/**
 * EPA stopped by its cap or a degenerate step on a pair with a curved core: its reported face
 * can be one that rounding turned over (a box of 0.14 whose corner touched the rim of a cylinder
 * of 270, its faces' planes known to 1e-10 about a depth of 1e-8: the same support points taken
 * again in a cycle, the last face's normal the opposite of the depth's), and the best of the
 * samples, refined by the pattern search, a kink that search cannot leave: a cap's normal, where
 * the cap's support is its whole disc and every tilt but those within a narrow cone toward the
 * other shape's contact raises the overlap by the radius times the tilt (the overlap 1.8e-3
 * there, where the rim's normal 7e-3 rad away gave 1e-8; issue 16, test/fuzz/point-rim.test.ts).
 * Two more candidates, each an overlap along an actual direction (an upper bound, never worse
 * than what it replaces): the least overlap EPA met along the normals it asked a support pair for
 * (`epaLeastIo`), and for each solid of revolution the least overlap along its rim's fan of
 * normals (from the cap's to the side's, {@link rimFan}) at the azimuth of the other shape's
 * support point along the best normal so far. In and out: refineIo[0], the overlap along
 * solvedNormal. Cores loaded, solver frame.
 */
function stalledCandidates(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  if (epaLeastIo[0] < refineIo[0]) {
    fallbackNormal.x = epaLeastIo[1];
    fallbackNormal.y = epaLeastIo[2];
    fallbackNormal.z = epaLeastIo[3];
    overlapInto(fallbackNormal);
    const o = overlapIo[0];
    if (o < refineIo[0]) {
      refineIo[0] = o;
      ccCopy(solvedNormal, fallbackNormal);
    }
  }
  for (let round = 0; round < FAN_ROUNDS; round++) {
    if (curved(b)) rimFan(b, 1, bInA);
    if (curved(a)) rimFan(a, 0, bInA);
  }
}

const fanY = vec3.create();
const fanR = vec3.create();
const fanC = vec3.create();
const fanQ = vec3.create();
const fanN = vec3.create();
const fanT = vec3.create();
const fanBest = vec3.create();
/** The overlaps at the samples of {@link rimFan}. */
const fanVals = new Float64Array(16);
/** [0] the angle τ of the next {@link fanDirection}; [1] the fan's sign (n = ±the solid's normal). */
const fanIo = new Float64Array(2);

/** Rounds of {@link rimFan} (the second from the other shape's support along the first's best). */
const FAN_ROUNDS = 2;

/** Bisections of the fan's bracket in {@link rimFan}: its samples' spacing (≤ 0.12 rad) to 2^-50. */
const FAN_BISECTIONS = 48;

/**
 * fanN = ±(cos τ·fanC + sin τ·fanR) and fanT = dfanN/dτ, τ = fanIo[0], ± = fanIo[1]: the fan's
 * normal at angle τ from the cap's and its tangent.
 */
function fanDirection(): void {
  const t = fanIo[0];
  const c = Math.cos(t) * fanIo[1];
  const sn = Math.sin(t) * fanIo[1];
  fanN.x = fanC.x * c + fanR.x * sn;
  fanN.y = fanC.y * c + fanR.y * sn;
  fanN.z = fanC.z * c + fanR.z * sn;
  fanT.x = fanR.x * c - fanC.x * sn;
  fanT.y = fanR.y * c - fanC.y * sn;
  fanT.z = fanR.z * c - fanC.z * sn;
}

/**
 * The rim's fan of solid of revolution `s` (side 0 A, 1 B): at a rim point the outward normals
 * run from the cap's (±Y, a cone's base −Y) to the side's, in the meridian plane, and along all
 * of them the solid's support is that rim point; a point feature of the other shape (a box's
 * corner) on the rim has its least overlap there, where the other's support turns from one
 * corner to the next. The rim (the cylinder's nearer one, a cone's base) and the azimuth of the
 * other shape's support point along solvedNormal; the overlap sampled at fanVals.length angles
 * of the fan, then bisected on the sign of its exact derivative w·dn/dτ in the least sample's
 * bracket (one-sided at a kink). Takes the least into solvedNormal and refineIo[0] when below.
 * Bounded: fanVals.length + FAN_BISECTIONS support pairs and one more.
 */
function rimFan(s: ConvexShape, side: number, bInA: Isometry): void {
  const rc = revolutionCore(s) as ConvexShape;
  const rev = shapeDef(rc.type).revolution as Revolution;
  ccSet(fanY, 0, 1, 0);
  // The other shape's support along the normal, relative to the solid's centre.
  if (side === 1) {
    ccRotate(fanY, bInA.rotation, fanY);
    coreA.support(fanQ, solvedNormal);
    ccSub(fanQ, fanQ, bInA.translation);
  } else {
    ccNegate(negN, solvedNormal);
    coreBInA.support(fanQ, negN);
    toLocalA(fanQ, fanQ);
  }
  const along = fanQ.x * fanY.x + fanQ.y * fanY.y + fanQ.z * fanY.z;
  fanR.x = fanQ.x - fanY.x * along;
  fanR.y = fanQ.y - fanY.y * along;
  fanR.z = fanQ.z - fanY.z * along;
  if (!tryNormalizeScaled(fanR, fanR)) return;
  const cone = rev.kind === RevolutionKind.Cone;
  // The cap's outward normal: a cone's base, a cylinder's cap on the point's side.
  if (cone || along < 0) ccNegate(fanC, fanY);
  else ccCopy(fanC, fanY);
  // The fan's angle: to the side's normal, (2h·R + r·Y)/√(4h² + r²) for a cone.
  let span = Math.PI / 2;
  if (cone) {
    rev.dims(revDims, rc);
    span += Math.atan2(revDims[1], 2 * revDims[0]);
  }
  // n (A → B) is A's outward normal, or minus B's.
  fanIo[1] = side === 0 ? 1 : -1;
  const count = fanVals.length;
  const step = span / (count - 1);
  let i0 = 0;
  for (let i = 0; i < count; i++) {
    fanIo[0] = i * step;
    fanDirection();
    overlapInto(fanN);
    fanVals[i] = overlapIo[0];
    if (fanVals[i] < fanVals[i0]) i0 = i;
  }
  let best = fanVals[i0];
  let bestT = i0 * step;
  let lo = Math.max(0, (i0 - 1) * step);
  let hi = Math.min(span, (i0 + 1) * step);
  for (let it = 0; it < FAN_BISECTIONS; it++) {
    const mid = 0.5 * (lo + hi);
    fanIo[0] = mid;
    fanDirection();
    overlapInto(fanN);
    const o = overlapIo[0];
    if (o < best) {
      best = o;
      bestT = mid;
    }
    const d = (sA.x - sB.x) * fanT.x + (sA.y - sB.y) * fanT.y + (sA.z - sB.z) * fanT.z;
    if (d > 0) hi = mid;
    else lo = mid;
  }
  if (!(best < refineIo[0])) return;
  fanIo[0] = bestT;
  fanDirection();
  ccCopy(fanBest, fanN);
  if (!tryNormalizeScaled(fanBest, fanBest)) return;
  overlapInto(fanBest);
  if (!(overlapIo[0] < refineIo[0])) return;
  refineIo[0] = overlapIo[0];
  ccCopy(solvedNormal, fanBest);
}

const faceAxis = vec3.create();
const edgeA = vec3.create();
const edgeB = vec3.create();
const cross = vec3.create();

/** Number of SAT face normals of shape s (its polytope capability's; 0 for a non-polytope). */
function faceCount(s: ConvexShape): number {
  const p = shapeDef(s.type).polytope;
  return p === null ? 0 : p.faceCount(s);
}

/**
 * SAT penetration depth of two polytopes (cores = shapes): the minimum overlap over the face
 * normals of A and B and the cross products of their edges (each shape's polytope capability,
 * src/shapes/shape-def.ts), into satIo[0]; writes its axis to fallbackNormal.
 */
function satDepth(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  const pa = shapeDef(a.type).polytope as PolytopeAxes;
  const pb = shapeDef(b.type).polytope as PolytopeAxes;
  satIo[0] = Number.POSITIVE_INFINITY;
  const fa = pa.faceCount(a);
  for (let i = 0; i < fa; i++) tryAxis(pa.faceNormal(faceAxis, a, i));
  const fb = pb.faceCount(b);
  for (let i = 0; i < fb; i++) {
    pb.faceNormal(faceAxis, b, i);
    ccRotate(faceAxis, bInA.rotation, faceAxis);
    tryAxis(faceAxis);
  }
  const ea = pa.edgeCount(a);
  const eb = pb.edgeCount(b);
  for (let i = 0; i < ea; i++) {
    pa.edgeDirection(edgeA, a, i);
    // Squared lengths written out: vec3.lengthSq left out of line here returned boxed doubles
    // (26 KB per step of the mesh bodies' steady step).
    const la = edgeA.x * edgeA.x + edgeA.y * edgeA.y + edgeA.z * edgeA.z;
    for (let j = 0; j < eb; j++) {
      pb.edgeDirection(edgeB, b, j);
      ccRotate(edgeB, bInA.rotation, edgeB);
      ccCross(cross, edgeA, edgeB);
      const lc = cross.x * cross.x + cross.y * cross.y + cross.z * cross.z;
      const lb = edgeB.x * edgeB.x + edgeB.y * edgeB.y + edgeB.z * edgeB.z;
      if (!(lc > SAT_PARALLEL_EDGE_TOLERANCE * la * lb)) continue;
      tryAxis(cross);
    }
  }
}

/** [0] the least overlap of {@link satDepth}'s axes so far (its answer). */
const satIo = new Float64Array(1);

const aInB: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

/**
 * Whether a pair of one type is solved in the order given ({@link canonicalOrder}); at the
 * identity relative pose, directly (the documented +x of coincident centres).
 */
function solveDirect(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  if (a.type !== b.type) return true;
  const c = canonicalOrder(bInA);
  if (c !== 0) return c > 0;
  // A symmetric relative pose: the smaller cylinder or cone first (radius, then half height).
  const rev = shapeDef(a.type).revolution;
  if (rev !== null) {
    rev.dims(revDims, a);
    rev.dims(revDimsB, b);
    return (revDimsB[1] - revDims[1] || revDimsB[0] - revDims[0] || 1) > 0;
  }
  // Two polytopes given in one frame (hulls of world points): the one whose data comes first,
  // so that both orders run one computation — at a touch on a shared vertex the normal is any
  // of a cone, and each order had found its own (session 23).
  return polytopeDataOrder(a, b) <= 0;
}

/**
 * The sign of the first difference between the numbers that define polytopes `a` and `b` of
 * one type — a hull's vertex count then its vertices, a box's half extents, a triangle's corners
 * — 0 when they are equal or not polytopes. Antisymmetric: swapping a and b negates it.
 */
function polytopeDataOrder(a: ConvexShape, b: ConvexShape): number {
  if (!isPolytope(a)) return 0;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const va = ra.vertices;
  const vb = rb.vertices;
  if (va instanceof Float64Array && vb instanceof Float64Array) {
    if (va.length !== vb.length) return va.length < vb.length ? -1 : 1;
    for (let i = 0; i < va.length; i++) if (va[i] !== vb[i]) return va[i] < vb[i] ? -1 : 1;
    return 0;
  }
  for (const k of POLYTOPE_VECTOR_FIELDS) {
    const p = ra[k] as Vec3 | undefined;
    const q = rb[k] as Vec3 | undefined;
    if (p === undefined || q === undefined) continue;
    if (p.x !== q.x) return p.x < q.x ? -1 : 1;
    if (p.y !== q.y) return p.y < q.y ? -1 : 1;
    if (p.z !== q.z) return p.z < q.z ? -1 : 1;
  }
  return 0;
}

/** The vector fields {@link polytopeDataOrder} compares after a hull's vertices: box, triangle. */
const POLYTOPE_VECTOR_FIELDS = ["halfExtents", "a", "b", "c"];

/**
 * True when convex shapes `a` and `b` (B posed by `bInA` in A's frame) intersect; touching
 * counts. Exact up to rounding: a gap of 1e-9 is a gap. GJK on the cores with early out on a
 * separating axis (Gilbert, Johnson & Keerthi 1988; van den Bergen 2003, §4.3).
 */
export function intersectsConvexConvex(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  loadPair(a, b, bInA);
  const r = coreA.margin + coreB.margin;
  ccCopy(initDir, pairOffset);
  gjkLimit[0] = r; // not passed: a computed double crossing a call is boxed
  gjkLimit[1] = r;
  gjkToLimit(gjkOut, coreA, coreBInA, initDir);
  if (gjkOut.status === GjkStatus.BeyondMaxDistance) return false;
  const shallow = gjkOut.status === GjkStatus.Intersecting && !gjkOut.roundingContact;
  if (shallow && !originNearFace(gjkOut.simplex)) return true;
  if (
    shallow ||
    gjkOut.unproven ||
    gjkOut.roundingContact ||
    curvedGapUnbacked(a, b) ||
    curvedTouchUnbacked(a, b)
  ) {
    // GJK decided at its rounding level: stalled without a separating axis, or "intersecting"
    // because |v| fell below the rounding of the largest support point it met (not a
    // tetrahedron about the origin). First the least overlap refined from GJK's axis, its end
    // snapped as the contact's unproven path snaps it (a face normal, the exact projection's
    // fixed point on a cylinder or cone): the descent alone stopped 2e-13 of the size short of
    // the least overlap on a cylinder's side against a triangle's corner, calling a gap of
    // 6.9e-16 at size 5e-3 touching (the fuzzer's seed 16). Any direction's overlap is
    // attained, so a gap found is a gap (issue 16: a turned cylinder of 1e-6 4.4e-20 from a
    // triangle was "intersecting").
    // Two polytopes whose supporting points in GJK's simplex share a point exactly touch
    // (session 23: an aabb's corner on a hull's vertex at a size ratio of 1e5 came out 5e-12
    // apart from the refinement below, with the simplex's one point the shared vertex).
    if (simplexPointsMeet(a, b)) return true;
    refineOverlapNormal(refined, coreA, coreBInA, gjkOut.direction);
    snapToFaceNormal(a, b, pairBInA, gjkOut.pointA, gjkOut.pointB);
    snapToRevolution(a, b, pairBInA);
    // The tolerance scales with the support points' magnitude, whose rounding the overlap
    // carries, not only with the simplex's |w|: two cylinders' rims touching at size 1 have
    // |w| ~ 1e-6, and 5 ulps of 1 along the refined normal were taken for a gap.
    // A curved A's support points round at A's own coordinates, before the solver's shift, and
    // B's at B's offset in the solver's frame, whatever their sum (issue 16: a cylinder of 5e-7
    // on the rim of one of 3e-2, 0.03 from its centre, touching to 3e-18 — mpmath — was "apart"
    // by 2.2e-17, 7 ulps of that offset and 3e4 times the tolerance at the witnesses' 7e-7).
    simplexSize(gjkOut.simplex);
    lengthInto(refined.pointA, 1);
    lengthInto(refined.pointB, 2);
    const reach = Math.max(sizeIo[0], sizeIo[1], sizeIo[2], shiftIo[1]);
    lengthInto(pairBInA.translation, 1);
    const size = Math.max(reach, sizeIo[1]);
    if (refined.overlap + r < -TOUCH_TOLERANCE * (size + r)) return false;
    // Then as distance and contact decide (solveLoaded: the least overlap refined from EPA's
    // normal as well, the kink circles of a solid of revolution): the refinement from GJK's
    // axis alone can stop in another basin (a cylinder of 2e-5 4.2e-9 from a cone of 6e4 and a
    // cone 7.7e-10 from a triangle of 2e3 were "intersecting").
    solveGapIo[0] = Number.POSITIVE_INFINITY;
    solveLoaded(a, b, pairBInA);
    witnessScale();
    return !(solvedIo[0] > TOUCH_TOLERANCE * (sizeIo[0] + r));
  }
  // Touching within the rounding of the pair's size counts (as in distanceConvexConvex).
  simplexSize(gjkOut.simplex);
  const gap = gjkOut.distance - r;
  if (gap <= TOUCH_TOLERANCE * (sizeIo[0] + r)) return true;
  // A gap at the rounding level of the simplex: the closest features' exact test decides.
  return gap <= NEAR_TOUCH * sizeIo[0] && simplexPointsMeet(a, b);
}

/**
 * Whether polytopes `a` and `b` (no margins) provably share a point: the supporting points of
 * GJK's final simplex in gjkOut — vertices of A and of B in the solver's frame, exact there —
 * span features that meet exactly (src/geometry/exact-predicates.ts: equal points, a point on
 * an edge or in a triangle of the other's points, crossing edges). False for any other pair, or
 * points outside the predicates' exact range. Sound at any gap; asked only near touching, where
 * the rounding of GJK's |v| and of the refined overlap (a few ulps of the support points'
 * magnitude, which dwarfs the witnesses' at a shared vertex near the origin) cannot tell a touch.
 */
function simplexPointsMeet(a: ConvexShape, b: ConvexShape): boolean {
  if (coreA.margin !== 0 || coreB.margin !== 0 || !isPolytope(a) || !isPolytope(b)) return false;
  const s = gjkOut.simplex;
  for (let i = 0; i < s.count; i++) if (!exactRange(s.a[i]) || !exactRange(s.b[i])) return false;
  return fewPointHullsMeet(s.a, s.count, s.b, s.count);
}

const faceE1 = vec3.create();
const faceE2 = vec3.create();
const faceN = vec3.create();

/**
 * Whether the origin lies within TETRAHEDRON_ROUNDING of the largest |w| from a face of GJK's
 * final tetrahedron `s` (4 points), or on the far side of a face from the fourth point: its
 * containment is then no proof of contact, the signs of the sub-volumes being rounded at that
 * scale (issue 16: a hull 1.05e-9 from a cylinder of 3.3e3, their support points 3e4 across,
 * "intersecting" by a tetrahedron the origin was outside; seed 38 at main 704850b; a cone of
 * 3e-5 1.1e-10 from a triangle of 5 2.5 away, three of the four points on its rim 2e-7 apart,
 * the origin 2e-10 outside the face they span, by exact arithmetic); or within the rounding of
 * the face's plane through its normal, large for a sliver (issue 16, seed 53: a hull 5.4e-10
 * from a cylinder of 3e3, three points on its rim 1e-3 apart and 1e4 from the fourth, the origin
 * "inside" by 1e-6 where the plane was known to 1e-5). Written out, no allocation.
 */
function originNearFace(s: GjkSimplex): boolean {
  if (s.count !== 4) return false;
  simplexSize(s);
  const m = sizeIo[0];
  const tol = TETRAHEDRON_ROUNDING * m;
  for (let i = 0; i < 4; i++) {
    const p = s.w[i];
    const q = s.w[(i + 1) & 3];
    const t = s.w[(i + 2) & 3];
    const u = s.w[(i + 3) & 3];
    faceSub(faceE1, q, p);
    faceSub(faceE2, t, p);
    lengthInto(faceE1, 1);
    lengthInto(faceE2, 2);
    // The plane's rounding through its normal: each edge carries the rounding of the points, ε
    // of |w| a coordinate, which turns n = e1 × e2 by up to that times (|e1| + |e2|) over |n|
    // and moves −n·p by that times |p| ≤ |w|. A sliver face (a short edge beside two long ones)
    // has a small |n| and a plane known only that roughly.
    const turned = PLANE_ROUNDING * m * m * (sizeIo[1] + sizeIo[2]);
    faceCross(faceN, faceE1, faceE2);
    lengthInto(faceN, 1);
    // The origin's side, −n·p, and the fourth point's, n·(u − p), of the face's plane.
    const o = 0 - (faceN.x * p.x + faceN.y * p.y + faceN.z * p.z);
    const v = faceN.x * (u.x - p.x) + faceN.y * (u.y - p.y) + faceN.z * (u.z - p.z);
    if (Math.abs(o) <= tol * sizeIo[1] + turned || o * v < 0) return true;
  }
  return false;
}

/** Distance of the origin from a face of GJK's tetrahedron, relative to |w|, under which its containment is rounding. */
const TETRAHEDRON_ROUNDING = 2 ** -36;

/**
 * The rounding of a face's plane in {@link originNearFace} through its normal's turn, relative
 * to |w|² times the edges' lengths: 64 ε, the bound's ε of |w| a coordinate with room for the
 * support points' own rounding.
 */
const PLANE_ROUNDING = 2 ** -46;

/**
 * Closest points of convex shapes `a` and `b` (B posed by `bInA`): writes `out.distance` ≥ 0
 * (scene units) and the witness points on each surface, in A's frame. When the shapes
 * intersect, distance is 0 and the points are the deepest points of the contact
 * ({@link contactConvexConvex}). Returns `out`. Sources: GJK (van den Bergen 2003, §4.3), EPA
 * (van den Bergen 2001).
 */
export function distanceConvexConvex(
  out: DistanceResult,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
): DistanceResult {
  if (!solveDirect(a, b, bInA)) {
    // Same type, the other order: solved as (B, A) and flipped (see canonicalOrder).
    ccInvert(aInB, bInA);
    solveGapIo[0] = Number.POSITIVE_INFINITY;
    solve(b, a, aInB);
    out.distance = Math.max(solvedIo[0], 0);
    ccTransformPoint(out.pointA, bInA, solvedB);
    ccTransformPoint(out.pointB, bInA, solvedA);
    return out;
  }
  solveGapIo[0] = Number.POSITIVE_INFINITY;
  solve(a, b, bInA);
  out.distance = Math.max(solvedIo[0], 0);
  ccCopy(out.pointA, solvedA);
  ccCopy(out.pointB, solvedB);
  return out;
}

/**
 * Contact of convex shapes `a` and `b` (B posed by `bInA` in A's frame) within `prediction`
 * (scene units, ≥ 0): returns false when the gap exceeds `prediction`; otherwise writes the
 * signed distance (gap > 0, penetration < 0), the unit normal from A toward B, and the points
 * on A's and B's surfaces (A's frame), and returns true. Touching is a contact with distance 0.
 * Sources: GJK on cores + margins, EPA for intersecting cores (Jolt; van den Bergen 2001).
 */
export function contactConvexConvex(
  out: Contact,
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const maxGap = Number.isNaN(prediction) ? 0 : Math.max(prediction, 0);
  if (!solveDirect(a, b, bInA)) {
    ccInvert(aInB, bInA);
    solveGapIo[0] = maxGap;
    if (!solve(b, a, aInB)) return false;
    if (solvedIo[0] > maxGap) return false;
    out.distance = solvedIo[0];
    ccRotate(out.normal, bInA.rotation, solvedNormal);
    ccNegate(out.normal, out.normal);
    ccTransformPoint(out.pointA, bInA, solvedB);
    ccTransformPoint(out.pointB, bInA, solvedA);
    return true;
  }
  solveGapIo[0] = maxGap;
  if (!solve(a, b, bInA)) return false;
  if (solvedIo[0] > maxGap) return false;
  out.distance = solvedIo[0];
  ccCopy(out.normal, solvedNormal);
  ccCopy(out.pointA, solvedA);
  ccCopy(out.pointB, solvedB);
  return true;
}

// The answer's and the generator's own vector copies and transforms ({@link contactConvexConvex},
// {@link generatorCoreGap}): the arithmetic of vec3's, quat's and iso's, written out. Inlined,
// the shared helpers bring their own property feedback, megamorphic (every vector shape of the
// library meets them), and V8 stores each double through a generic store, boxed (a heap number
// per coordinate: 1.7 KB per step in contactConvexConvex, the six curved kinds' probe; issue 15).

/** out = a (vec3.copy's arithmetic). */
function ccCopy(out: Vec3, a: Vec3): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

/** out = −a (vec3.negate's arithmetic; out may be a). */
function ccNegate(out: Vec3, a: Vec3): void {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
}

/** out = a + b (vec3.add's arithmetic; out may be a or b). */
function ccAdd(out: Vec3, a: Vec3, b: Vec3): void {
  out.x = a.x + b.x;
  out.y = a.y + b.y;
  out.z = a.z + b.z;
}

/** out = a − b (vec3.sub's arithmetic; out may be a or b). */
function ccSub(out: Vec3, a: Vec3, b: Vec3): void {
  out.x = a.x - b.x;
  out.y = a.y - b.y;
  out.z = a.z - b.z;
}

/** out = a + s b (vec3.addScaled's arithmetic; out may be a or b). */
function ccAddScaled(out: Vec3, a: Vec3, b: Vec3, s: number): void {
  out.x = a.x + b.x * s;
  out.y = a.y + b.y * s;
  out.z = a.z + b.z * s;
}

/** out = (x, y, z) (vec3.set's). */
function ccSet(out: Vec3, x: number, y: number, z: number): void {
  out.x = x;
  out.y = y;
  out.z = z;
}

/** out = a s (vec3.scale's arithmetic; out may be a). */
function ccScale(out: Vec3, a: Vec3, s: number): void {
  out.x = a.x * s;
  out.y = a.y * s;
  out.z = a.z * s;
}

/** a · b (vec3.dot's arithmetic). */
function ccDot(a: Vec3, b: Vec3): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/** out = a × b (vec3.cross's arithmetic; out may be a or b). */
function ccCross(out: Vec3, a: Vec3, b: Vec3): void {
  const x = a.y * b.z - a.z * b.y;
  const y = a.z * b.x - a.x * b.z;
  const z = a.x * b.y - a.y * b.x;
  out.x = x;
  out.y = y;
  out.z = z;
}

/** out = the conjugate of q (quat.conjugate's). */
function ccConjugate(out: Quat, q: Quat): void {
  out.x = -q.x;
  out.y = -q.y;
  out.z = -q.z;
  out.w = q.w;
}

/** out = the inverse of q applied to v (quat.inverseRotate's arithmetic; out may be v). */
function ccInverseRotate(out: Vec3, q: Quat, v: Vec3): void {
  const tx = 2 * (-q.y * v.z + q.z * v.y);
  const ty = 2 * (-q.z * v.x + q.x * v.z);
  const tz = 2 * (-q.x * v.y + q.y * v.x);
  const x = v.x + q.w * tx + (-q.y * tz + q.z * ty);
  const y = v.y + q.w * ty + (-q.z * tx + q.x * tz);
  const z = v.z + q.w * tz + (-q.x * ty + q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
}

/** out = q applied to v (quat.rotate's arithmetic; out may be v). */
function ccRotate(out: Vec3, q: Quat, v: Vec3): void {
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  const x = v.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = v.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = v.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x;
  out.y = y;
  out.z = z;
}

/** out = pose applied to point p (iso.transformPoint's arithmetic; out may be p). */
function ccTransformPoint(out: Vec3, pose: Isometry, p: Vec3): void {
  ccRotate(out, pose.rotation, p);
  const t = pose.translation;
  out.x += t.x;
  out.y += t.y;
  out.z += t.z;
}

/** out = the inverse of pose `a` (iso.invert's arithmetic; out not a). */
function ccInvert(out: Isometry, a: Isometry): void {
  const q = a.rotation;
  const r = out.rotation;
  r.x = -q.x;
  r.y = -q.y;
  r.z = -q.z;
  r.w = q.w;
  ccRotate(out.translation, r, a.translation);
  ccNegate(out.translation, out.translation);
}

/**
 * [0] the gap (scene units, ≥ 0) {@link apartBeyond} tests: a typed-array slot, since a computed
 * double passed to a call V8 does not inline is boxed (allocated).
 */
export const apartGapIo = new Float64Array(1);

/**
 * True when GJK on the cores proves convex shapes `a` and `b` (B posed by `bInA` in A's frame)
 * apart by more than `apartGapIo[0]` (scene units) beyond their margins: a separating axis along
 * which the surfaces are apart by more than that, plus the rounding of the support points
 * (GJK_ROUNDING_TOLERANCE of their magnitude). False means not proven: near, touching or
 * overlapping. Exact routines whose separating axis test is costly (a capsule's segment or a
 * triangle against a hull of many faces) ask it first, with their own rounding added to the gap,
 * so that a pair apart beyond their prediction costs a few support calls (Gilbert, Johnson &
 * Keerthi 1988; van den Bergen 2003, §4.3.4: the separation along v is a lower bound on the
 * distance).
 */
export function apartBeyond(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  const k = loadPair(a, b, bInA);
  const r = coreA.margin + coreB.margin;
  ccCopy(initDir, pairOffset);
  gjkLimit[0] = apartGapIo[0] * k + r;
  gjkLimit[1] = r;
  gjkToLimit(gjkOut, coreA, coreBInA, initDir);
  return gjkOut.status === GjkStatus.BeyondMaxDistance;
}
