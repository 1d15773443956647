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
import { closestPointsSegmentSegment } from "../geometry/closest-segments.js";
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
import { FEATURE_SEGMENT, makeSupportFeature } from "../geometry/feature.js";
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
  refineLowerIo,
  refineOverlapNormal,
  setOverlapNormal,
} from "../geometry/refine-normal.js";
import {
  closestSegmentRevolution,
  makeRevolutionProjection,
  makeSegmentRevolutionResult,
  projectRevolutionDims,
  RevolutionKind,
  revolutionDims,
} from "../geometry/revolution.js";
import { polytopeFeatureGap, simplexFeatureIo } from "../geometry/simplex-features.js";
import type { SupportMap } from "../geometry/support.js";
import { SegmentSupport, TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import {
  HYPOT_SAFE_MAX,
  HYPOT_SAFE_MIN,
  hypot3,
  hypotIo,
  mathHypot2Io,
  mathHypot3Io,
} from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { supportCuboid } from "../shapes/cuboid.js";
import { type PolytopeAxes, shapeDef } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { type Revolution, writeBoundingRadiusOf } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";
import { canonicalOrder } from "./canonical-order.js";
import {
  type Contact,
  contactErrorIo,
  type DistanceResult,
  makeContact,
  makeContactManifold,
} from "./contact.js";
import { cornerIo, cornerRevolution } from "./corner-revolution.js";
import { pairMagnitudes, pairRescaleFactor } from "./extreme-scale.js";
import { deepBallOverlap } from "./inner-sphere.js";
import { manifoldFromContact } from "./manifold.js";
import { rimContact } from "./rim-contact.js";
import { contactPredictionIo, contactTrianglePolytopeIo } from "./triangle-polytope.js";

/**
 * The core of a convex shape as a {@link SupportMap} in the shape's local frame: a sphere's
 * centre (margin = radius), a capsule's segment (margin = radius), any other shape itself
 * (margin 0). Reusable: `reset` it per shape.
 */
export class ShapeCoreSupport implements SupportMap {
  /** The wrapped shape. */
  shape: ConvexShape = { type: ShapeType.Cuboid, halfExtents: { x: 0, y: 0, z: 0 } };
  /** Radius swept around the core, scene units (times {@link scale}). */
  margin = 0;
  /**
   * Power of two every support point and the margin are multiplied by (exact): the solver's
   * change of units for shapes far outside the range where GJK's squared and cubed lengths
   * neither overflow nor underflow. 1 almost always.
   */
  scale = 1;
  /**
   * Subtracted from every support point (after {@link scale}) when {@link shifted}: the solver's
   * frame moved to the smaller shape of a pair (see `loadPair` in this file). Zero after `reset`.
   */
  readonly offset = vec3.create();
  /** Whether {@link offset} applies. */
  shifted = false;

  /** The support of the core, from the shape's definition (src/shapes/registry.ts). */
  private coreSupport: (out: Vec3, s: ConvexShape, dir: Vec3) => Vec3 = supportCuboid as (
    out: Vec3,
    s: ConvexShape,
    dir: Vec3,
  ) => Vec3;

  /** Wraps `shape` at scale 1; returns this. */
  reset(shape: ConvexShape): this {
    const def = shapeDef(shape.type);
    this.shape = shape;
    this.scale = 1;
    this.shifted = false;
    // writeMargin where the margin is not 0: a double returned by a call is boxed.
    if (def.writeMargin !== undefined) {
      def.writeMargin(marginIo, shape);
      this.margin = marginIo[0];
    } else this.margin = def.margin(shape);
    this.coreSupport = def.coreSupport as (out: Vec3, s: ConvexShape, dir: Vec3) => Vec3;
    return this;
  }

  /** Multiplies the support points and the margin by the power of two `k` from now on. */
  rescale(k: number): void {
    this.scale = k;
    this.margin *= k;
  }

  /** out = the core's support point along `dir` (local frame), times {@link scale}. */
  support(out: Vec3, dir: Vec3): Vec3 {
    this.coreSupport(out, this.shape, dir);
    if (this.scale !== 1) vec3.scale(out, out, this.scale);
    if (this.shifted) vec3.sub(out, out, this.offset);
    return out;
  }
}

const marginIo = new Float64Array(1);

/** B's pose in the solver's frame when it is not the caller's `bInA` (rescaled or shifted). */
const scaledBInA: Isometry = { translation: vec3.create(), rotation: { x: 0, y: 0, z: 0, w: 1 } };

/**
 * B's pose in the frame the last {@link loadPair} set up: the caller's `bInA` or
 * {@link scaledBInA}. Every routine below that places B (or its features) uses this one.
 */
let pairBInA: Isometry = scaledBInA;

/**
 * The origin of the solver's frame in A's frame, solver units (zero unless `loadPair` shifted
 * it): A's local point p is p − shiftA there; B is at pairBInA.
 */
const shiftA = vec3.create();
/**
 * [0] 1 when {@link shiftA} is not zero; [1] |shiftA|, else 0: the scale at which a curved A's
 * support points round (at A's own coordinates, before the shift), which the tolerances set by
 * rounding on A's side do not fall below.
 */
const shiftIo = new Float64Array(2);
/** B's offset from A in the solver's units, whatever the shift: GJK's first direction. */
const pairOffset = vec3.create();

/**
 * Resets the cores for `a`, `b` and `coreBInA` for B at `bInA`, rescaled when the pair is out of
 * [2^-128, 2^128], where GJK's and EPA's products of up to four coordinates (signed volumes,
 * squared lengths) stay finite and normal (see `pairRescaleFactor`); returns the factor applied
 * (1 almost always).
 *
 * When B is much smaller than its distance from A's origin (B smaller than A and its offset more
 * than SHIFT_RATIO times its size), the solver works in A's orientation with its origin moved to
 * B's centre (issue 16): A's support points are then s_A − t, exact differences near the contact
 * for A's flat features (a box's vertex minus the nearby centre of B), and every tolerance that
 * scales with the witnesses' magnitude follows B's size instead of its distance from A's centre
 * (a cone of 1e-5 on the edge of a box of 2e3 had its support differences rounded to 4.5e-13 in
 * the box's frame, the minimisation along the box's edge lost in that noise, and its depth 30
 * times the least overlap). {@link solve} moves the answer back by +t.
 */
function loadPair(a: ConvexShape, b: ConvexShape, bInA: Isometry): number {
  coreA.reset(a);
  coreB.reset(b);
  overlapMemo[9] = 0;
  const k = pairRescaleFactor(a, b, bInA);
  const t = bInA.translation;
  const mB = pairMagnitudes[1];
  const shift =
    mB >= 0 &&
    mB < pairMagnitudes[0] &&
    mB * SHIFT_RATIO < Math.max(Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
  vec3.scale(pairOffset, t, k);
  if (k === 1 && !shift) {
    shiftIo[0] = 0;
    shiftIo[1] = 0;
    // Zero, as documented: routines that add or subtract it unguarded (generatorCoreGap's pose)
    // otherwise took an earlier query's shift (a cone against a rounded box after a small hull
    // against a cone: −0.896 for −5.9e-8; a fresh-user attack, session 29).
    shiftA.x = 0;
    shiftA.y = 0;
    shiftA.z = 0;
    pairBInA = bInA;
    coreBInA.reset(coreB, bInA);
    return 1;
  }
  if (k !== 1) {
    coreA.rescale(k);
    coreB.rescale(k);
  }
  quat.copy(scaledBInA.rotation, bInA.rotation);
  if (shift) {
    shiftIo[0] = 1;
    vec3.copy(shiftA, pairOffset);
    vec3.copy(coreA.offset, pairOffset);
    coreA.shifted = true;
    vec3.set(scaledBInA.translation, 0, 0, 0);
    lengthInto(shiftA, 1);
    shiftIo[1] = sizeIo[1];
  } else {
    shiftIo[0] = 0;
    shiftIo[1] = 0;
    shiftA.x = 0;
    shiftA.y = 0;
    shiftA.z = 0;
    vec3.copy(scaledBInA.translation, pairOffset);
  }
  pairBInA = scaledBInA;
  coreBInA.reset(coreB, scaledBInA);
  return k;
}

/** B's offset from A's origin, in B's sizes, above which the solver's frame moves to B. */
const SHIFT_RATIO = 2 ** 10;

/**
 * The solid of revolution that is `s`'s core: `s` itself for a cylinder or a cone, the core of a
 * rounded type whose core is one (a recipe-made rounded cylinder, docs/DESIGN.md "Adding a
 * shape"), else null. The refinement and the snaps below work on the cores (the margins are
 * added by the caller), so a rounded type's curved core takes the same exact projection.
 */
function revolutionCore(s: ConvexShape): ConvexShape | null {
  const def = shapeDef(s.type);
  if (def.revolution !== null) return s;
  if (def.roundedCore === undefined) return null;
  const core = def.roundedCore(s) as ConvexShape;
  return shapeDef(core.type).revolution !== null ? core : null;
}

/** True for the solids of revolution (cylinder, cone: a curved core with an exact projection). */
function curved(s: ConvexShape): boolean {
  return revolutionCore(s) !== null;
}

/**
 * True for the shapes whose core is a polytope: a box or hull, bare or rounded (the rounded
 * shapes' supporting features are their cores' moved by the margin).
 */
function polytopeCore(s: ConvexShape): boolean {
  const def = shapeDef(s.type);
  if (def.polytope !== null) return true;
  if (def.roundedCore === undefined) return false;
  return shapeDef((def.roundedCore(s) as ConvexShape).type).polytope !== null;
}

/**
 * The polytope whose faces and edges are s's flat features: s itself (a box, hull or triangle)
 * or a rounded box's or hull's core (the rounded shape's faces are the core's moved out by the
 * margin, its rounded edges flat along the core's edges); null for other shapes.
 */
function flatPolytope(s: ConvexShape): ConvexShape | null {
  const def = shapeDef(s.type);
  if (def.polytope !== null) return s;
  if (def.roundedCore === undefined) return null;
  const core = def.roundedCore(s) as ConvexShape;
  return shapeDef(core.type).polytope !== null ? core : null;
}

/** True for the shapes whose core is a polytope (flat faces only): SAT applies. */
function isPolytope(s: ConvexShape): boolean {
  return shapeDef(s.type).polytope !== null;
}

const coreA = new ShapeCoreSupport();
const coreB = new ShapeCoreSupport();
const coreBInA = new TransformedSupport();
const gjkOut = makeGjkResult();
const epaOut = makeEpaResult();
const initDir = vec3.create();

// The answer of `solve`: signed distance of the full shapes, unit normal A→B, surface points.
/** [0] the signed distance (a module variable holding a double boxes every store). */
const solvedIo = new Float64Array(1);
const solvedNormal = vec3.create(1, 0, 0);
const solvedA = vec3.create();
const solvedB = vec3.create();

/**
 * Runs GJK (and EPA when the cores intersect) and writes solved*; returns false when a
 * separating axis proves the full gap exceeds `maxGap`.
 */
function solve(a: ConvexShape, b: ConvexShape, bInA: Isometry, maxGap: number): boolean {
  const k = loadPair(a, b, bInA);
  const wanted = contactErrorIo[1] !== 0;
  if (k === 1) {
    if (!solveLoaded(a, b, pairBInA, maxGap)) return false;
  } else if (!solveLoaded(a, b, pairBInA, maxGap * k)) return false;
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
    vec3.add(solvedA, solvedA, shiftA);
    vec3.add(solvedB, solvedB, shiftA);
  }
  if (k !== 1) {
    // Back to scene units (division by a power of two: exact unless the result under/overflows).
    const inv = 1 / k;
    solvedIo[0] *= inv;
    boundIo[0] *= inv;
    boundIo[1] *= inv;
    provenIo[0] *= inv;
    vec3.scale(solvedA, solvedA, inv);
    vec3.scale(solvedB, solvedB, inv);
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
  if (polytopeCore(a) && polytopeCore(b)) featureFacingWitnesses(a, b, bInA);
  return true;
}

const faceP = vec3.create();
const faceX = vec3.create();
const faceY = vec3.create();
const faceQ = vec3.create();
const faceY1 = vec3.create();
const faceY2 = vec3.create();
const faceX1 = vec3.create();
const faceX2 = vec3.create();

// The face routines' own out = a, a − b, −a, a + b on their module vectors: inlined from the
// shared vec3 helpers, a store took those helpers' property feedback, megamorphic (every vector
// shape of the library meets them), and V8 stored each double through a generic store, boxed
// (16 KB per step in faceAlternate alone, the six curved kinds' probe; issue 15).
function faceCopy(out: Vec3, a: Vec3): void {
  out.x = a.x;
  out.y = a.y;
  out.z = a.z;
}

function faceSub(out: Vec3, a: Vec3, b: Vec3): void {
  out.x = a.x - b.x;
  out.y = a.y - b.y;
  out.z = a.z - b.z;
}

function faceNegate(out: Vec3, a: Vec3): void {
  out.x = -a.x;
  out.y = -a.y;
  out.z = -a.z;
}

function faceAdd(out: Vec3, a: Vec3, b: Vec3): void {
  out.x = a.x + b.x;
  out.y = a.y + b.y;
  out.z = a.z + b.z;
}

/** out = q applied to v (quat.rotate's arithmetic, written out for the reason above; out may be v). */
function faceRotate(out: Vec3, q: Quat, v: Vec3): void {
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

/** out = a × b (vec3.cross's arithmetic, written out for the reason above; out may be a or b). */
function faceCross(out: Vec3, a: Vec3, b: Vec3): void {
  const x = a.y * b.z - a.z * b.y;
  const y = a.z * b.x - a.x * b.z;
  const z = a.x * b.y - a.y * b.x;
  out.x = x;
  out.y = y;
  out.z = z;
}

/**
 * out = B's local point p in the solver's frame (pairBInA applied: iso.transformPoint's
 * arithmetic, written out for the reason above; out may be p).
 */
function faceFromB(out: Vec3, p: Vec3): void {
  const q = pairBInA.rotation;
  const tr = pairBInA.translation;
  const tx = 2 * (q.y * p.z - q.z * p.y);
  const ty = 2 * (q.z * p.x - q.x * p.z);
  const tz = 2 * (q.x * p.y - q.y * p.x);
  const x = p.x + q.w * tx + (q.y * tz - q.z * ty);
  const y = p.y + q.w * ty + (q.z * tx - q.x * tz);
  const z = p.z + q.w * tz + (q.x * ty - q.y * tx);
  out.x = x + tr.x;
  out.y = y + tr.y;
  out.z = z + tr.z;
}

/**
 * out = the solver frame's p (a point, or with `point` false a direction) in B's local frame
 * (iso.inverseTransformPoint's, inverseTransformVector's arithmetic written out; out may be p).
 */
function faceToB(out: Vec3, p: Vec3, point: boolean): void {
  const q = pairBInA.rotation;
  const tr = pairBInA.translation;
  const vx = point ? p.x - tr.x : p.x;
  const vy = point ? p.y - tr.y : p.y;
  const vz = point ? p.z - tr.z : p.z;
  const tx = 2 * (-q.y * vz + q.z * vy);
  const ty = 2 * (-q.z * vx + q.x * vz);
  const tz = 2 * (-q.x * vy + q.y * vx);
  out.x = vx + q.w * tx + (-q.y * tz + q.z * ty);
  out.y = vy + q.w * ty + (-q.z * tx + q.x * tz);
  out.z = vz + q.w * tz + (-q.x * ty + q.y * tx);
}

/** out = A's local p in the solver's frame, or with `toLocal` the reverse ({@link fromLocalA}, {@link toLocalA}, written out). */
function faceShiftA(out: Vec3, p: Vec3, toLocal: boolean): void {
  if (shiftIo[0] === 0) faceCopy(out, p);
  else if (toLocal) faceAdd(out, p, shiftA);
  else faceSub(out, p, shiftA);
}

/** [0] the tilt t of {@link faceTilt} (read from here, not passed: a double passed to a call V8 keeps out of line is boxed). */
const faceTiltIo = new Float64Array(1);

/**
 * out = from + dir·t, t = faceTiltIo[0], then normalised when `unit`: a normal tilted along a
 * direction of its tangent plane ({@link faceNewton}, {@link faceSecant}, {@link faceJumps},
 * {@link faceResidual}). `out` may be `from`.
 */
function faceTilt(out: Vec3, from: Vec3, dir: Vec3, unit: boolean): void {
  const t = faceTiltIo[0];
  out.x = from.x + dir.x * t;
  out.y = from.y + dir.y * t;
  out.z = from.z + dir.z * t;
  if (!unit) return;
  lengthInto(out, 1);
  const l = sizeIo[1];
  out.x /= l;
  out.y /= l;
  out.z /= l;
}

/** Sideways offset of the witnesses, relative to their magnitude, that {@link faceWitnesses} mends. */
const FACE_WITNESS_SLACK = 2 ** -48;

/**
 * A moved witness's distance outside its shape that {@link faceWitnesses} takes for on it,
 * relative to the pair's magnitude in the solver's frame (GJK's rounding from a point); and the
 * witnesses' distance from their supporting planes taken for on them, relative to the distance
 * besides (the planes' rounding at depth).
 */
const FACE_ON_SLACK = 2 ** -50;
const FACE_DEPTH_SLACK = 2 ** -40;

/** {@link faceFallback}'s move allowed, in faceWitnesses' slacks, besides its share of the depth (the touching contacts'). */
const FACE_NEAR_SLACK = 8;

/** Alternating projections of {@link faceWitnesses}, at most. */
const FACE_ITERATIONS = 48;

/**
 * Move off facing, relative to the depth, within which {@link faceFallback} takes a pair on both
 * shapes when the projections of {@link faceWitnesses} found no facing pair (2^-21, half the
 * depth bar's 1e-6 of docs/FORMATS.md: the pair then faces to within it).
 */
const FACE_FALLBACK = 2 ** -21;

/** [0] the cores' gap along the normal (on return the least move), [1] the move allowed, for {@link faceFallback}. */
const faceFallbackIo = new Float64Array(2);

/** The cores' support points along the normal in {@link faceWitnesses} (A's along n, B's along −n; solver frame). */
const faceSA = vec3.create();
const faceSB = vec3.create();

/** {@link faceWitnesses}' starting pair on the cores (solver frame). */
const faceX0 = vec3.create();
const faceY0 = vec3.create();

/**
 * The witnesses' lateral offset: `out` = (pB − pA) − ((pB − pA)·n)·n, the part of the witnesses'
 * difference across the unit normal n (zero when they face each other across it, pB − pA along
 * n), and its length (overflow-safe, {@link lengthInto}) into sizeIo[i]. Points, normal and
 * `out` are 3-vectors in one frame and one unit (both callers: A's frame, scene units); `out` may
 * be pA or pB, not n. For {@link faceWitnesses} and {@link featureFacingWitnesses}.
 */
function lateralOffsetInto(out: Vec3, pA: Vec3, pB: Vec3, n: Vec3, i: number): void {
  const dx = pB.x - pA.x;
  const dy = pB.y - pA.y;
  const dz = pB.z - pA.z;
  const t = dx * n.x + dy * n.y + dz * n.z;
  out.x = dx - t * n.x;
  out.y = dy - t * n.y;
  out.z = dz - t * n.z;
  lengthInto(out, i);
}

/**
 * The witnesses made to face each other across the normal: pointB − pointA = distance·normal.
 * A witness on a flat feature (a face or an edge supporting its shape along the normal) can lie
 * anywhere on that feature and still be on the right plane, the other shape's witness elsewhere
 * on its own: a triangle's far vertex 12 from a capsule of 0.03 crossing its edge, a cylinder's
 * cap rim 64 beside a box's face at depth 48 (issue 16, session 24). Where they lie apart
 * sideways by more than rounding, the contact region is sought where the two supporting features
 * overlap seen along the normal: from B's witness, the point opposite it on A's plane is taken
 * onto A (the nearest point, {@link projectOnto}, back on the plane), the point opposite that on
 * B's plane onto B, and so on (projections between two convex sets of the plane, converging into
 * their common part), until the point opposite lies on the other shape. Both witnesses stay on
 * their supporting planes, so (pB − pA)·n keeps the distance; when no such pair is found the
 * witnesses are left as they were. Scene units on entry and exit (solvedA, solvedB as
 * {@link solve} leaves them), `k` the change of units, cores loaded, solver frame inside.
 */
function faceWitnesses(k: number): void {
  const n = solvedNormal;
  lateralOffsetInto(faceP, solvedA, solvedB, n, 1);
  const lateral = sizeIo[1];
  lengthInto(solvedA, 1);
  lengthInto(solvedB, 2);
  const d = solvedIo[0];
  if (!(lateral > FACE_WITNESS_SLACK * Math.max(sizeIo[1], sizeIo[2], Math.abs(d)))) return;
  // Into the solver's frame (p·k − shift), where the cores are.
  const shifted = shiftIo[0] !== 0;
  faceX.x = solvedA.x * k;
  faceX.y = solvedA.y * k;
  faceX.z = solvedA.z * k;
  faceY.x = solvedB.x * k;
  faceY.y = solvedB.y * k;
  faceY.z = solvedB.z * k;
  if (shifted) {
    faceSub(faceX, faceX, shiftA);
    faceSub(faceY, faceY, shiftA);
  }
  lengthInto(faceX, 1);
  lengthInto(faceY, 2);
  lengthInto(pairBInA.translation, 0);
  const dk = d * k;
  const on = FACE_ON_SLACK * Math.max(sizeIo[0], sizeIo[1], sizeIo[2], shiftIo[1]);
  // The projections' own slack from the magnitude where a facing pair can lie: within both
  // shapes' bounding balls (about their origins, `apart` from each other) grown by the distance,
  // so at most apart + the lesser radius + |d| from either origin or the solver's. A starting
  // witness at a large shape's far corner (its support along the normal, ties broken to that
  // corner) is no measure of the rounding there: a box of 1e4's edge across a cylinder of 3e-6
  // at 7e3 from the box's centre took a pair 1.9e-10 off the box, its far corner at 1.4e4 (issue
  // 16, seed 57).
  const apart = Math.max(sizeIo[0], shiftIo[1]);
  writeBoundingRadiusOf(ridgeRadiusIo, coreA.shape);
  const rA = ridgeRadiusIo[0];
  writeBoundingRadiusOf(ridgeRadiusIo, coreB.shape);
  const onPair = Math.min(
    on,
    FACE_ON_SLACK * (apart + Math.min(rA, ridgeRadiusIo[0]) * k + Math.abs(dk)),
  );
  const flat = FACE_PLANE_SLACK * on + FACE_DEPTH_SLACK * Math.abs(dk);
  // On the cores (the supporting features of a rounded shape are its core's moved by its
  // margin along the normal, flat where the core's are; the nearest points of the rounded
  // surface would approach them only as the square root of the step): the cores' planes hA and
  // hB, gk apart, B's witness moved onto its core's.
  const mA = coreA.margin;
  const mB = coreB.margin;
  // The cores' supporting planes along the normal; the witnesses must lie on them (else the
  // normal or the distance is at fault, not the witnesses' place on their features: left).
  coreA.support(faceSA, n);
  const hA = faceSA.x * n.x + faceSA.y * n.y + faceSA.z * n.z;
  faceNegate(negN, n);
  coreBInA.support(faceSB, negN);
  const hB = faceSB.x * n.x + faceSB.y * n.y + faceSB.z * n.z;
  const gk = hB - hA;
  // Against a flat shape, the witnesses' distance from their planes allowed to the depth's share
  // that the fallback allows sideways (a cylinder's witness 3.9e-9 off its plane at a depth of
  // 4.3e-3, its partner a large triangle's far corner 7e3 away).
  const flatA = flatCore(0);
  const flatB = flatCore(1);
  const tolF = FACE_FALLBACK * Math.abs(dk) + on;
  const plane = flatA !== flatB ? Math.max(flat, tolF) : flat;
  // The flat shape's witness is not checked: it is replaced by its projections below, and the
  // normal's tilt off the face lifts a far corner off the plane across its sideways offset (1e-7
  // at 2.7e4 for a tilt of 3.7e-12: a cone of 4.6e-6 at a triangle's corner).
  const planeA = flatA && !flatB ? Number.POSITIVE_INFINITY : plane;
  const planeB = flatB && !flatA ? Number.POSITIVE_INFINITY : plane;
  // Against a cylinder or a cone: a witness off its plane is started from its
  // core's support point along the normal instead (on its shape and its plane), the projections
  // below taking the pair to face each other. The witnesses of a rounded box's edge across a
  // cone's rim, placed along GJK's direction or polished onto both shapes, lay 1.3e-8 and 8.8e-9
  // off their planes and 5e-3 apart sideways at a depth of 2.4e3 (issue 16). Likewise any shape
  // against a cylinder or a cone: a hull's witness seated at its far vertex before the normal
  // was snapped to a cylinder's side lay 3.4e-8 below its plane, 6.2e3 from the vertex on the
  // cylinder's axis that supports it (issue 16, attack30 F4).
  if (curved(coreA.shape) || curved(coreB.shape)) {
    if (!(Math.abs(faceX.x * n.x + faceX.y * n.y + faceX.z * n.z - mA - hA) <= planeA)) {
      faceX.x = faceSA.x + mA * n.x;
      faceX.y = faceSA.y + mA * n.y;
      faceX.z = faceSA.z + mA * n.z;
    }
    if (!(Math.abs(faceY.x * n.x + faceY.y * n.y + faceY.z * n.z + mB - hB) <= planeB)) {
      faceY.x = faceSB.x - mB * n.x;
      faceY.y = faceSB.y - mB * n.y;
      faceY.z = faceSB.z - mB * n.z;
    }
  }
  if (
    !(Math.abs(faceX.x * n.x + faceX.y * n.y + faceX.z * n.z - mA - hA) <= planeA) ||
    !(Math.abs(faceY.x * n.x + faceY.y * n.y + faceY.z * n.z + mB - hB) <= planeB) ||
    !(Math.abs(gk - mA - mB - dk) <= plane)
  )
    return;
  faceX.x -= mA * n.x;
  faceX.y -= mA * n.y;
  faceX.z -= mA * n.z;
  faceY.x += mB * n.x;
  faceY.y += mB * n.y;
  faceY.z += mB * n.z;
  coreA.margin = 0;
  coreB.margin = 0;
  faceCopy(faceX0, faceX);
  faceCopy(faceY0, faceY);
  generatorIo[0] = 0;
  generatorIo[1] = 0;
  if (flatA !== flatB) {
    generatorTol[0] = tolF;
    loadGenerator(flatA ? 1 : 0);
  } else if ((mA !== 0 || mB !== 0) && polytopeCore(coreA.shape) !== polytopeCore(coreB.shape)) {
    // A rounded box or hull against a cylinder's or a cone's generator: the generator projected
    // onto, as against a flat shape (a rounded box's edge across a cylinder's side at a depth of
    // 7e-3 crawled 1.1e-6 off the cylinder after 48 projections; issue 16, seed 68).
    generatorTol[0] = flat;
    loadGenerator(polytopeCore(coreA.shape) ? 1 : 0);
  } else if (mA !== 0 || mB !== 0) {
    // A capsule (or a sphere) against a cylinder's or a cone's generator, the normal across both
    // lines: the generator projected onto likewise (a capsule's segment across a cylinder's side
    // at a depth of 4.5e-3 crawled; the fallback's pair had the cylinder's point 3.45e-10 below
    // its supporting plane, off the generator around the axis; issue 16, seed 61).
    generatorTol[0] = flat;
    loadGenerator(0);
    loadGenerator(1);
  }
  faceCopy(facingN, n);
  faceIo[0] = gk;
  faceIo[1] = hA;
  faceIo[2] = hB;
  faceIo[3] = onPair;
  faceIo[7] = FACE_ITERATIONS;
  faceAlternate();
  let found = faceIo[6] !== 0;
  if (!found) {
    // The features' footprints apart: the normal short of the optimum (the overlap's tangential
    // gradient is their offset), refined by secant steps on that offset (the generator, a line
    // of the support at the first normal only, no longer projected onto).
    generatorIo[0] = 0;
    generatorIo[1] = 0;
    faceCopy(facingX, faceX);
    faceCopy(facingY, faceY);
    faceNormal();
    if (faceIo[6] !== 0) found = true;
    else {
      faceCopy(faceX, facingX);
      faceCopy(faceY, facingY);
    }
  }
  // Not converged: of the pairs on both shapes made from the last pair and the starting
  // witnesses ({@link faceFallback}), the one facing best, when within the touching tolerance's
  // share FACE_NEAR_SLACK·on (a cone's rim just touching a box's edge, the pair of 1e-6 at 30)
  // plus FACE_FALLBACK of the depth (a large triangle's corner or edge, the other's deepest
  // feature a sliver beyond it seen along the normal, right only to its own error; two lines
  // crossing seen along the normal, a capsule's segment across a cone's generator 3.8e3 deep,
  // whose projections crawl at the rounding of the supports). Both points lie on their shapes,
  // so a compound's child 1e-4 deep in a capsule of 3e3, whose own bar is 2e-10, keeps its
  // witness on it (a pair kept off the shapes by a share of the depth was 7e-7 off it, seed 16).
  faceFallbackIo[0] = gk;
  faceFallbackIo[1] = FACE_NEAR_SLACK * on + FACE_FALLBACK * Math.abs(dk);
  featureWitnessIo[0] = FACE_NEAR_SLACK * on;
  featureWitnessIo[1] = FACE_NORMAL_SLACK * on;
  let kept = found || featurePairWitnesses();
  if (!kept && featurePairNormal()) {
    // A generator across a polytope's edge: their common perpendicular, a normal no worse.
    found = true;
    kept = true;
  }
  if (!kept) kept = faceFallback();
  if (found) {
    // A converged pair is off its curved cores by up to the projections' slack, set by the
    // larger shape's rounding (16 ulps of its 7e3 offset: 1e-10 off a cone of 1e-6): each
    // witness on a cylinder or cone taken onto it (its exact projection, in its own frame), a
    // move within that slack (issue 16, seed 57's class).
    for (let side = 0; side < 2; side++) {
      if (revolutionCore(side === 0 ? coreA.shape : coreB.shape) === null) continue;
      const w = side === 0 ? faceX : faceY;
      projectOnto(faceQ, side, w);
      faceCopy(w, faceQ);
    }
  }
  generatorIo[0] = 0;
  generatorIo[1] = 0;
  coreA.margin = mA;
  coreB.margin = mB;
  if (!kept) return;
  if (found) {
    faceCopy(solvedNormal, facingN);
    solvedIo[0] = (faceIo[0] - mA - mB) / k;
  }
  surfaceIo[0] = k;
  coresToSurfaces(faceX, faceY);
}

/** [0] {@link coresToSurfaces}' change of units k (a double crossing a call through a typed array). */
const surfaceIo = new Float64Array(1);

/**
 * The witnesses x on A's core and y on B's (solver frame) taken off the cores onto the surfaces
 * along the solved normal n (x + mA·n, y − mB·n, the cores' margins), out of the solver's frame
 * (+ shiftA) and into scene units (÷ k, surfaceIo[0]) in solvedA, solvedB. x and y are
 * overwritten. Written out on the module's own vectors: a double passed to a call V8 does not
 * inline is boxed.
 */
function coresToSurfaces(x: Vec3, y: Vec3): void {
  const m = solvedNormal;
  const mA = coreA.margin;
  const mB = coreB.margin;
  x.x += m.x * mA;
  x.y += m.y * mA;
  x.z += m.z * mA;
  y.x += m.x * -mB;
  y.y += m.y * -mB;
  y.z += m.z * -mB;
  if (shiftIo[0] !== 0) {
    faceAdd(x, x, shiftA);
    faceAdd(y, y, shiftA);
  }
  const inv = 1 / surfaceIo[0];
  solvedA.x = x.x * inv;
  solvedA.y = x.y * inv;
  solvedA.z = x.z * inv;
  solvedB.x = y.x * inv;
  solvedB.y = y.y * inv;
  solvedB.z = y.z * inv;
}

/**
 * faceWitnesses' scalars (doubles crossing calls through a typed array): [0] gk, the cores'
 * planes' offset along facingN (hB − hA), [1] hA, [2] hB, [3] the convergence slack, [4] and [5]
 * the last pair's distances off A and off B, [6] 1 when both are within the slack, [7] the
 * projections' cap, [8] and [9] {@link faceJumps}' kinds of A's and B's supports, [10] the overlap
 * {@link faceNormal} started from, [11] the pair's magnitude.
 */
const faceIo = new Float64Array(12);
/** The normal of {@link faceAlternate}, solver frame. */
const facingN = vec3.create(1, 0, 0);
const facingN0 = vec3.create();
const faceU = vec3.create();
const facingX = vec3.create();
const faceT1 = vec3.create();
const faceEA = vec3.create();
const faceEB = vec3.create();
const faceT2 = vec3.create();
const facingY = vec3.create();
const faceR = vec3.create();

/**
 * The alternating projections of {@link faceWitnesses} between the cores' supporting features
 * along facingN (planes faceIo[1], faceIo[2]), from faceX on A's core and faceY on B's: the last
 * pair left in faceX, faceY (on their planes), its distances off the cores and whether both are
 * within the slack in faceIo. Cores loaded, margins 0, solver frame.
 */
function faceAlternate(): void {
  const n = facingN;
  const gk = faceIo[0];
  const hA = faceIo[1];
  const hB = faceIo[2];
  const on = faceIo[3];
  let found = false;
  let offA = Number.POSITIVE_INFINITY;
  let offB = 0;
  // First B's witness opposite A's (A's on a curved feature, B's on a flat one: one step; the
  // projections below would approach a curved feature tangent to its plane slowly).
  faceP.x = faceX.x + gk * n.x;
  faceP.y = faceX.y + gk * n.y;
  faceP.z = faceX.z + gk * n.z;
  faceProject(faceQ, 1, faceP);
  if (projectIo[0] <= on) {
    faceCopy(faceY, faceP);
    // Written out: a double passed to a call V8 keeps out of line is boxed.
    faceX.x = faceP.x - gk * n.x;
    faceX.y = faceP.y - gk * n.y;
    faceX.z = faceP.z - gk * n.z;
    offA = 0;
    found = true;
  }
  for (let it = 0; it < faceIo[7] && !found; it++) {
    if (it % 3 === 2) {
      // Two features crossing at a small angle (two lines seen along the normal) make the
      // projections converge geometrically: the limit extrapolated from the last three points
      // on B's plane (Aitken's step along their common direction). The extrapolated point is
      // off B by an amount not measured yet: offB unknown until B's projection below (its last
      // lift was kept, and a pair was taken for converged as soon as A's point was on A, B's
      // 1.5e-10 off a cone of 1e-6 at 7e3 from a box's centre, 7e-7 off a cylinder of 0.02
      // at 1.7e6; issue 16, seed 57's class).
      faceSub(faceP, faceY, faceY1);
      lengthInto(faceP, 1);
      const s1 = sizeIo[1];
      faceSub(faceQ, faceY1, faceY2);
      lengthInto(faceQ, 2);
      const r = s1 / sizeIo[2];
      if (r > 0 && r < 1) {
        const s = r / (1 - r);
        faceY.x += faceP.x * s;
        faceY.y += faceP.y * s;
        faceY.z += faceP.z * s;
        offB = Number.POSITIVE_INFINITY;
      }
    }
    faceCopy(faceY2, faceY1);
    faceCopy(faceY1, faceY);
    // faceY on B's plane (on B at the start): the point opposite on A's plane, onto A.
    faceX.x = faceY.x - gk * n.x;
    faceX.y = faceY.y - gk * n.y;
    faceX.z = faceY.z - gk * n.z;
    faceProject(faceQ, 0, faceX);
    offA = projectIo[0];
    if (offA <= on && offB <= on) {
      found = true;
      break;
    }
    let drop = hA - (faceQ.x * n.x + faceQ.y * n.y + faceQ.z * n.z);
    faceX.x = faceQ.x + drop * n.x;
    faceX.y = faceQ.y + drop * n.y;
    faceX.z = faceQ.z + drop * n.z;
    // The point opposite on B's plane, onto B.
    faceY.x = faceX.x + gk * n.x;
    faceY.y = faceX.y + gk * n.y;
    faceY.z = faceX.z + gk * n.z;
    faceProject(faceQ, 1, faceY);
    offA = Math.abs(drop);
    offB = projectIo[0];
    if (offA <= on && offB <= on) found = true;
    else {
      drop = hB - (faceQ.x * n.x + faceQ.y * n.y + faceQ.z * n.z);
      faceY.x = faceQ.x + drop * n.x;
      faceY.y = faceQ.y + drop * n.y;
      faceY.z = faceQ.z + drop * n.z;
      // (faceY off B by the lift.)
      offB = Math.abs(drop);
    }
  }
  faceIo[4] = offA;
  faceIo[5] = offB;
  faceIo[6] = found ? 1 : 0;
}

/**
 * The normal of an unconverged {@link faceAlternate} refined until the supporting features face
 * each other. The offset sideways between the last pair (faceY − faceX − gk·n, on the planes) is
 * the overlap's tangential gradient with its sign changed (the support points' difference w
 * less its part along n, van den Bergen 2003, §4.3.1; of the features' offsets, the least), zero
 * at the optimum; the normal is tilted along it, n(t) = normalize(n0 + t·u), and t found by
 * secant steps on the offset's component along u (an edge's offset is normal to the edge, so the
 * tilt keeps n on the edge's ridge). Kept (faceIo[6] 1, facingN, faceIo[0] and the pair) when the
 * projections converge there and the overlap is not above n0's by more than the slack (closer to
 * the optimum it is lower); else faceIo[6] 0. Cores loaded, margins 0, solver frame; faceX and
 * faceY the unconverged pair on entry. At most FACE_NORMAL_ROUNDS × FACE_NORMAL_STEPS normals.
 */
function faceNormal(): void {
  const on = faceIo[3];
  const f0 = faceIo[1] - faceIo[2];
  lengthInto(faceY, 1);
  lengthInto(faceX, 2);
  const size = Math.max(sizeIo[1], sizeIo[2], on / FACE_ON_SLACK);
  faceIo[6] = 0;
  faceCopy(faceStart, facingN);
  faceIo[10] = f0;
  faceIo[11] = size;
  faceJumps();
  // Two features (faces, edges): the projections between them are exact; nothing to refine.
  if (faceIo[8] !== 0 && faceIo[9] !== 0) return;
  if (faceIo[8] !== 0 || faceIo[9] !== 0) {
    faceSecant();
    if (faceIo[6] !== 0) return;
    // An edge seen where the optimum is beside its ridge (a cone's rim point near the generator
    // where the apex ties): the support points' offset, as where both slide.
    faceCopy(facingN, faceStart);
    faceIo[8] = 0;
    faceIo[9] = 0;
  }
  faceNewton();
}

const faceStart = vec3.create();

/**
 * {@link faceNormal}'s Newton steps in the tangent plane of facingN (both supports sliding: the
 * offset smooth in the normal), the offset's Jacobian by differences under tilts of
 * FACE_NEWTON_TILT along a basis of the plane. faceIo[6] 1 when they end converged.
 */
function faceNewton(): void {
  const f0 = faceIo[10];
  const size = faceIo[11];
  const on = faceIo[3];
  for (let it = 0; it < FACE_NEWTON_STEPS; it++) {
    vec3.orthonormalBasis(faceT1, faceT2, facingN);
    faceCopy(facingN0, facingN);
    faceResidual();
    faceIo[7] = FACE_NORMAL_PROJECTIONS;
    faceIo[3] = FACE_NORMAL_SLACK * on;
    faceAlternate();
    faceIo[3] = on;
    if (faceIo[6] !== 0) {
      if (!(faceIo[1] - faceIo[2] <= f0 + FACE_NORMAL_SLACK * on)) faceIo[6] = 0;
      return;
    }
    faceResidual();
    const r1 = faceR.x * faceT1.x + faceR.y * faceT1.y + faceR.z * faceT1.z;
    const r2 = faceR.x * faceT2.x + faceR.y * faceT2.y + faceR.z * faceT2.z;
    lengthInto(faceR, 1);
    if (!(sizeIo[1] < size)) return;
    const h = FACE_NEWTON_TILT;
    let j11 = 0;
    let j21 = 0;
    let j12 = 0;
    let j22 = 0;
    for (let c = 0; c < 2; c++) {
      faceTiltIo[0] = h;
      faceTilt(facingN, facingN0, c === 0 ? faceT1 : faceT2, true);
      faceResidual();
      const a1 = (faceR.x * faceT1.x + faceR.y * faceT1.y + faceR.z * faceT1.z - r1) / h;
      const a2 = (faceR.x * faceT2.x + faceR.y * faceT2.y + faceR.z * faceT2.z - r2) / h;
      if (c === 0) {
        j11 = a1;
        j21 = a2;
      } else {
        j12 = a1;
        j22 = a2;
      }
    }
    const det = j11 * j22 - j12 * j21;
    if (!(Math.abs(det) > 0)) return;
    const d1 = -(j22 * r1 - j12 * r2) / det;
    const d2 = -(-j21 * r1 + j11 * r2) / det;
    if (!(Math.abs(d1) + Math.abs(d2) < FACE_NORMAL_MAX_TILT)) return;
    faceTiltIo[0] = d1;
    faceTilt(facingN, facingN0, faceT1, false);
    faceTiltIo[0] = d2;
    faceTilt(facingN, facingN, faceT2, true);
  }
}

/** {@link faceNewton}'s steps at most, and its differences' tilt, radians. */
const FACE_NEWTON_STEPS = 6;
const FACE_NEWTON_TILT = 2 ** -30;

/**
 * {@link faceNormal}'s secant steps from facingN (the overlap there f0 + rounding at most, the
 * pair's magnitude `size`): faceIo[6] 1 when they end converged.
 */
function faceSecant(): void {
  const f0 = faceIo[10];
  const size = faceIo[11];
  const on = faceIo[3];
  // The sliding side's curvature radius is at most its bounding radius: the first tilt from the
  // lesser of that and the pair's size. Where it is far below the size, the overlap is flat in
  // the normal to the rounding of the size (ε·size over about √(ε·size/radius) radians), and the
  // refined normal can be off by that much: the steps may tilt as far (a cylinder of 3e-6, its
  // rim's tip against a box's edge at 7e3 from the box's centre, was 0.014 rad off; seed 57).
  let radius = 0;
  for (let side = 0; side < 2; side++) {
    if (faceIo[8 + side] !== 0) continue;
    const core = side === 0 ? coreA : coreB;
    writeBoundingRadiusOf(ridgeRadiusIo, core.shape);
    radius += ridgeRadiusIo[0] * core.scale;
  }
  if (!(radius > 0 && radius < size)) radius = size;
  // A rim near its cap's normal slides at its radius over the sine of the normal's angle from
  // the cap's, beyond its bounding radius and the pair's size: the first tilt at the rate
  // faceJumps measured (a cylinder of 512, the normal 2^-5 rad from its cap's, slid 16 times the
  // bounding radius; the first tilt went past the optimum by as much and was refused; issue 16,
  // point-rim-witness).
  const measured = (faceIo[8] === 0 ? faceSlideIo[0] : 0) + (faceIo[9] === 0 ? faceSlideIo[1] : 0);
  if (measured > radius) radius = measured;
  const maxTilt = Math.min(
    FACE_SECANT_MAX_TILT,
    Math.max(FACE_NORMAL_MAX_TILT, Math.sqrt((FACE_FLAT_ROUNDING * size) / radius)),
  );
  faceResidual();
  for (let round = 0; round < FACE_NORMAL_ROUNDS; round++) {
    lengthInto(faceR, 1);
    const r0 = sizeIo[1];
    if (!(r0 > 0) || !(r0 < size)) return;
    // Where neither support slides along the offset (a box's edge along a rim's tangent, the
    // normal tilted in the rim's fan), only the overlap's own turn moves it, by f0 a radian: the
    // tilt that cancels it, r0/f0, may be taken (2^-9 rad for a box of 4 on a cylinder of 4e-3,
    // the offset 1.5e-12 at a depth of 9.2e-10; issue 16, point-rim-witness).
    const reach = Math.min(
      FACE_SECANT_MAX_TILT,
      Math.max(maxTilt, (FACE_SECANT_REACH * r0) / Math.abs(f0)),
    );
    const inv0 = 1 / r0;
    faceU.x = faceR.x * inv0;
    faceU.y = faceR.y * inv0;
    faceU.z = faceR.z * inv0;
    faceCopy(facingN0, facingN);
    let tPrev = 0;
    let phiPrev = r0;
    // The first tilt as for a curvature radius of `radius`.
    let t = r0 / radius;
    for (let it = 0; it < FACE_NORMAL_STEPS; it++) {
      if (!(Math.abs(t) < reach)) return;
      faceTiltIo[0] = t;
      faceTilt(facingN, facingN0, faceU, true);
      faceResidual();
      // The support points' pair projected as in faceWitnesses: converged, the normal is kept.
      faceIo[7] = FACE_NORMAL_PROJECTIONS;
      // (Converged within the rounding of curved supports, the residual's noise: FACE_NORMAL_SLACK.)
      faceIo[3] = FACE_NORMAL_SLACK * on;
      faceAlternate();
      faceIo[3] = on;
      if (faceIo[6] !== 0) {
        if (!(faceIo[1] - faceIo[2] <= f0 + FACE_NORMAL_SLACK * on)) faceIo[6] = 0;
        return;
      }
      const phi = faceR.x * faceU.x + faceR.y * faceU.y + faceR.z * faceU.z;
      const den = phi - phiPrev;
      const next = den !== 0 ? t - (phi * (t - tPrev)) / den : t;
      tPrev = t;
      phiPrev = phi;
      t = next;
      if (!Number.isFinite(t) || t === tPrev) break;
    }
    // The next round from the last normal, along its own offset.
  }
}

/** Tilt of {@link faceJumps}, radians, and a support's move beyond which (times the tilt and the size) it jumps. */
const FACE_JUMP_TILT = 2 ** -20;
const FACE_JUMP_MOVE = 16;

/** Tilts across an edge's ridge by which {@link faceResidual} measures the edge, radians. */
const FACE_RIDGE_TILTS = new Float64Array([2 ** -20, 2 ** -30, 2 ** -40, 0]);

/** A chord of an edge, in faceWitnesses' slacks, that is a jump. */
const FACE_EDGE_CHORD = 2 ** 20;

/** Sine of the angle within which {@link faceJumps}' jumps lie along one edge. */
const FACE_EDGE_SIN = 2 ** -10;

/**
 * faceIo[8], faceIo[9] for A's (B's) core support along facingN: 0 where it slides under tilts of
 * FACE_JUMP_TILT (a curved surface or rim moves by its radius times the tilt), 2 where it jumps
 * along one line (an edge, a cone's generator: FACE_JUMP_MOVE times the tilt times `size` or
 * more; its unit direction into faceEA, faceEB), 1 where it jumps along two (a face).
 */
function faceJumps(): void {
  const size = faceIo[11];
  vec3.orthonormalBasis(faceT1, faceT2, facingN);
  coreA.support(faceX, facingN);
  faceNegate(negN, facingN);
  coreBInA.support(faceY, negN);
  faceIo[8] = 0;
  faceIo[9] = 0;
  faceSlideIo[0] = 0;
  faceSlideIo[1] = 0;
  const tilt = FACE_JUMP_TILT;
  const far = FACE_JUMP_MOVE * tilt * size;
  for (let k = 0; k < 4; k++) {
    faceTiltIo[0] = k % 2 === 0 ? tilt : -tilt;
    faceTilt(faceP, facingN, k < 2 ? faceT1 : faceT2, false);
    for (let side = 0; side < 2; side++) {
      if (side === 0) coreA.support(faceQ, faceP);
      else {
        faceNegate(negN, faceP);
        coreBInA.support(faceQ, negN);
      }
      faceSub(faceQ, faceQ, side === 0 ? faceX : faceY);
      lengthInto(faceQ, 1);
      const move = sizeIo[1];
      // A cylinder's or a cone's support moving by about half as much under half the tilt
      // slides, however far ({@link faceHalfMove}).
      let slides = !(move > far);
      if (!slides && curved(side === 0 ? coreA.shape : coreB.shape)) {
        faceHalfMove(side, k);
        slides = sizeIo[2] > FACE_SLIDE_LOW * move && sizeIo[2] < FACE_SLIDE_HIGH * move;
      }
      if (slides) {
        if (move > faceSlideIo[side] * tilt) faceSlideIo[side] = move / tilt;
        continue;
      }
      const edge = side === 0 ? faceEA : faceEB;
      const at = 8 + side;
      if (faceIo[at] === 0) {
        const invMove = 1 / move;
        edge.x = faceQ.x * invMove;
        edge.y = faceQ.y * invMove;
        edge.z = faceQ.z * invMove;
        faceIo[at] = 2;
      } else if (faceIo[at] === 2) {
        faceR.x = faceQ.y * edge.z - faceQ.z * edge.y;
        faceR.y = faceQ.z * edge.x - faceQ.x * edge.z;
        faceR.z = faceQ.x * edge.y - faceQ.y * edge.x;
        lengthInto(faceR, 1);
        if (sizeIo[1] > FACE_EDGE_SIN * move) faceIo[at] = 1;
      }
    }
  }
}

const faceHalf = vec3.create();
const faceHalfS = vec3.create();

/** [0], [1] the fastest slide {@link faceJumps} measured of A's, B's support: its move over the tilt (a curvature radius, solver units). */
const faceSlideIo = new Float64Array(2);

/**
 * sizeIo[2] = the move of the support on `side` (0 A along facingN, 1 B along its opposite) from
 * faceX (faceY) under half of {@link faceJumps}' tilt number `k`. A polytope's support jumps: under
 * the half tilt it moves as far or not at all. A rim's slides, at its radius over the sine of the
 * normal's angle from the cap's, beyond any multiple of the shapes' size near the cap's normal
 * (a box's corner into a cone's rim at 2^-8 rad from it: 90 times the pair's size, taken for an
 * edge, the rim left unrefined and the witnesses 2e-5 apart sideways at a depth of 3e-9; issue
 * 16, point-rim-witness); under the half tilt it moves about half as far. faceT1, faceT2 as
 * faceJumps set them.
 */
function faceHalfMove(side: number, k: number): void {
  faceTiltIo[0] = (k % 2 === 0 ? FACE_JUMP_TILT : -FACE_JUMP_TILT) * 0.5;
  faceTilt(faceHalf, facingN, k < 2 ? faceT1 : faceT2, false);
  if (side === 0) coreA.support(faceHalfS, faceHalf);
  else {
    faceNegate(faceHalf, faceHalf);
    coreBInA.support(faceHalfS, faceHalf);
  }
  faceSub(faceHalfS, faceHalfS, side === 0 ? faceX : faceY);
  lengthInto(faceHalfS, 2);
}

/** The share of a tilt's move under half the tilt within which {@link faceHalfMove} takes a support for sliding. */
const FACE_SLIDE_LOW = 0.25;
const FACE_SLIDE_HIGH = 0.75;

/**
 * The support points along facingN into faceX, faceY, their planes into faceIo[0..2], and into
 * faceR the least offset sideways between the supporting features (the overlap's tangential
 * gradient, sign changed; faceJumps' kinds in faceIo[8], faceIo[9], one side at most flat): the
 * support points' offset where neither is flat; with an edge, facingN first taken onto the great
 * circle normal to it (its ridge, where the optimum lies) and the offset along the edge dropped;
 * with a face, the other's point opposite taken onto it. Cores loaded, margins 0.
 */
function faceResidual(): void {
  const n = facingN;
  const edgeSide = faceIo[8] === 2 ? 0 : faceIo[9] === 2 ? 1 : -1;
  const e = edgeSide === 0 ? faceEA : faceEB;
  // The edge's direction from its end points, the supports under tilts across its ridge ever
  // smaller: a sliding end (a cone's rim point) moves with the tilt, and the ridge normal to the
  // chord of a tilt τ is off the true one by about τ² times the rim's radius.
  for (let i = 0; edgeSide >= 0 && i < FACE_RIDGE_TILTS.length; i++) {
    faceTiltIo[0] = -(n.x * e.x + n.y * e.y + n.z * e.z);
    faceTilt(n, n, e, true);
    if (i === FACE_RIDGE_TILTS.length - 1) break;
    faceTiltIo[0] = FACE_RIDGE_TILTS[i];
    faceTilt(faceP, n, e, false);
    faceTiltIo[0] = -FACE_RIDGE_TILTS[i];
    faceTilt(faceQ, n, e, false);
    if (edgeSide === 0) {
      coreA.support(faceX, faceP);
      coreA.support(faceY, faceQ);
    } else {
      faceNegate(faceP, faceP);
      faceNegate(faceQ, faceQ);
      coreBInA.support(faceX, faceP);
      coreBInA.support(faceY, faceQ);
    }
    faceSub(faceP, faceX, faceY);
    lengthInto(faceP, 1);
    const chord = sizeIo[1];
    // No jump across this tilt (the ridge not between the two): the last chord's direction.
    if (!(chord > FACE_EDGE_CHORD * faceIo[3])) break;
    const sgn = edgeSide === 0 ? 1 : -1;
    e.x = (faceP.x / chord) * sgn;
    e.y = (faceP.y / chord) * sgn;
    e.z = (faceP.z / chord) * sgn;
  }
  coreA.support(faceX, n);
  faceNegate(negN, n);
  coreBInA.support(faceY, negN);
  const hA = faceX.x * n.x + faceX.y * n.y + faceX.z * n.z;
  const hB = faceY.x * n.x + faceY.y * n.y + faceY.z * n.z;
  const gk = hB - hA;
  faceIo[0] = gk;
  faceIo[1] = hA;
  faceIo[2] = hB;
  if (faceIo[9] === 1) {
    faceP.x = faceX.x + gk * n.x;
    faceP.y = faceX.y + gk * n.y;
    faceP.z = faceX.z + gk * n.z;
    faceProject(faceQ, 1, faceP);
    faceSub(faceR, faceQ, faceP);
  } else if (faceIo[8] === 1) {
    faceP.x = faceY.x - gk * n.x;
    faceP.y = faceY.y - gk * n.y;
    faceP.z = faceY.z - gk * n.z;
    faceProject(faceQ, 0, faceP);
    faceSub(faceR, faceP, faceQ);
  } else faceSub(faceR, faceY, faceX);
  const along = faceR.x * n.x + faceR.y * n.y + faceR.z * n.z;
  faceR.x -= along * n.x;
  faceR.y -= along * n.y;
  faceR.z -= along * n.z;
  if (edgeSide >= 0) {
    const re = faceR.x * e.x + faceR.y * e.y + faceR.z * e.z;
    faceR.x -= re * e.x;
    faceR.y -= re * e.y;
    faceR.z -= re * e.z;
  }
}

/** Secant steps of {@link faceNormal} along one tilt direction, and the directions tried. */
const FACE_NORMAL_STEPS = 8;
const FACE_NORMAL_ROUNDS = 3;

/**
 * {@link faceNormal}'s pair taken for converged within this many times faceWitnesses' slack (16
 * ulps of the magnitude): the curved supports' offset, evaluated through trigonometry and square
 * roots, is noisy at some tens of ulps (a cylinder's and a cone's at 3.5e3, ±3e-11).
 */
const FACE_NORMAL_SLACK = 16;

/** {@link faceNormal}'s largest tilt, radians (a refined normal is off by far less). */
const FACE_NORMAL_MAX_TILT = 2 ** -10;

/**
 * {@link faceSecant}'s tilts at most (radians) where the sliding side is far smaller than the
 * pair's magnitude, and the overlap's rounding relative to that magnitude from which it bounds
 * the refined normal's error (√(FACE_FLAT_ROUNDING·size/radius)).
 */
const FACE_SECANT_MAX_TILT = 2 ** -3;
const FACE_FLAT_ROUNDING = 2 ** -40;

/** {@link faceSecant}'s reach in tilts r0/f0 (the offset over the overlap: the tilt the overlap's own turn needs). */
const FACE_SECANT_REACH = 2;

/** Projections of {@link faceAlternate} at each of {@link faceNormal}'s normals. */
const FACE_NORMAL_PROJECTIONS = 12;

/** The witnesses' distance from their supporting planes, in {@link faceWitnesses}' slacks, taken for on them. */
const FACE_PLANE_SLACK = 16;

/**
 * {@link faceWitnesses}' pair when its projections found none facing: of four pairs each on both
 * shapes — the last pair's B point taken onto B and the point of A nearest opposite it, and its A
 * point onto A and B's nearest opposite it; B's starting witness and A's nearest opposite it; A's starting witness and B's nearest opposite it
 * (a flat shape's starting witness, against a curved one, left out: its plane was not checked,
 * it may be a far corner lifted off the plane by the normal's tilt) — the one whose points move
 * least (the larger of their distances from the points they were taken from; the second's is
 * how far the pair is off facing) when that move is within faceFallbackIo[1] (true, the pair in faceX, faceY; the move into faceFallbackIo[0]).
 * faceFallbackIo[0] the cores' gap along the normal on entry, solver units (read from there, not
 * passed: a double passed to a call V8 keeps out of line is boxed); margins 0 (the cores).
 */
function faceFallback(): boolean {
  const gk = faceFallbackIo[0];
  const n = solvedNormal;
  const flatA = flatCore(0);
  const flatB = flatCore(1);
  // The last pair: B's point onto B, A's opposite it.
  faceProject(faceY1, 1, faceY);
  let bestMove = projectIo[0];
  faceP.x = faceY1.x - gk * n.x;
  faceP.y = faceY1.y - gk * n.y;
  faceP.z = faceY1.z - gk * n.z;
  faceProject(faceY2, 0, faceP);
  if (!(projectIo[0] <= bestMove)) bestMove = projectIo[0];
  let which = 0;
  // Its A point onto A, B's opposite it.
  faceProject(faceX1, 0, faceX);
  let move = projectIo[0];
  faceP.x = faceX1.x + gk * n.x;
  faceP.y = faceX1.y + gk * n.y;
  faceP.z = faceX1.z + gk * n.z;
  faceProject(faceX2, 1, faceP);
  if (!(projectIo[0] <= move)) move = projectIo[0];
  if (move < bestMove) {
    bestMove = move;
    which = 3;
  }
  if (!flatB || flatA) {
    faceP.x = faceY0.x - gk * n.x;
    faceP.y = faceY0.y - gk * n.y;
    faceP.z = faceY0.z - gk * n.z;
    faceProject(faceQ, 0, faceP);
    if (projectIo[0] < bestMove) {
      bestMove = projectIo[0];
      which = 1;
      faceCopy(faceX, faceQ);
      faceCopy(faceY, faceY0);
    }
  }
  if (!flatA || flatB) {
    faceP.x = faceX0.x + gk * n.x;
    faceP.y = faceX0.y + gk * n.y;
    faceP.z = faceX0.z + gk * n.z;
    faceProject(faceQ, 1, faceP);
    if (projectIo[0] < bestMove) {
      bestMove = projectIo[0];
      which = 2;
      faceCopy(faceX, faceX0);
      faceCopy(faceY, faceQ);
    }
  }
  faceFallbackIo[0] = bestMove;
  if (!(bestMove <= faceFallbackIo[1])) return false;
  if (which === 0) {
    faceCopy(faceX, faceY2);
    faceCopy(faceY, faceY1);
  } else if (which === 3) {
    faceCopy(faceX, faceX1);
    faceCopy(faceY, faceX2);
  }
  return true;
}

/** The segments of {@link featurePairWitnesses}, solver frame: side s's k-th from [4s + 2k] to [4s + 2k + 1]. */
const featureEnds = [
  vec3.create(),
  vec3.create(),
  vec3.create(),
  vec3.create(),
  vec3.create(),
  vec3.create(),
  vec3.create(),
  vec3.create(),
];
/** Side s's k-th segment in [2s + k]: 0 none, 1 a rim's tangent (its points taken onto the rim), 2 on the shape. */
const featureKind = new Uint8Array(4);
/** Side s's rim in its local frame (solver units): [2s] its height, [2s + 1] its radius. */
const featureRim = new Float64Array(4);
/**
 * [0] the move {@link featurePairWitnesses} allows (the touching tolerance's share), [1] the
 * rounding {@link featurePairNormal} allows its supports and witnesses, solver units.
 */
const featureWitnessIo = new Float64Array(2);
const featureParams = { s: 0, t: 0 };
const featureC = [vec3.create(), vec3.create()];
const featureL = vec3.create();

/**
 * The segments of the core on `side` (0 A, 1 B) along which it may touch the other shape at the
 * solved normal (+n for A, −n for B), solver frame, into featureEnds and featureKind: a cylinder's
 * or a cone's generator at the normal's azimuth and the tangent of its rim there (the top or
 * bottom rim toward the normal, a cone's base), a polytope's edge most nearly across the normal
 * at its supporting vertex (the shape's `edgeFeature`). Cores loaded.
 */
function loadFeatureSegments(side: number): void {
  featureKind[2 * side] = 0;
  featureKind[2 * side + 1] = 0;
  const core = side === 1 ? coreB : coreA;
  const m = generatorM;
  if (side === 1) {
    faceNegate(negN, solvedNormal);
    faceToB(m, negN, false);
  } else faceCopy(m, solvedNormal);
  const e0 = featureEnds[4 * side];
  const e1 = featureEnds[4 * side + 1];
  const t0 = featureEnds[4 * side + 2];
  const t1 = featureEnds[4 * side + 3];
  const rc = revolutionCore(core.shape);
  if (rc !== null) {
    const rev = shapeDef(rc.type).revolution as Revolution;
    rev.dims(revDims, rc);
    const h = revDims[0] * core.scale;
    const r = revDims[1] * core.scale;
    const mxz = Math.sqrt(m.x * m.x + m.z * m.z);
    if (!(mxz > 0)) return;
    const ux = (r * m.x) / mxz;
    const uz = (r * m.z) / mxz;
    const cone = rev.kind === RevolutionKind.Cone;
    e0.x = cone ? 0 : ux;
    e0.y = h;
    e0.z = cone ? 0 : uz;
    e1.x = ux;
    e1.y = -h;
    e1.z = uz;
    // The rim's tangent at the generator's end, a radius either way.
    const y = cone || m.y < 0 ? -h : h;
    t0.x = ux + uz;
    t0.y = y;
    t0.z = uz - ux;
    t1.x = ux - uz;
    t1.y = y;
    t1.z = uz + ux;
    featureRim[2 * side] = y;
    featureRim[2 * side + 1] = r;
    for (let i = 0; i < 4; i++) {
      const e = featureEnds[4 * side + i];
      if (side === 1) faceFromB(e, e);
      else faceShiftA(e, e, false);
    }
    featureKind[2 * side] = 2;
    featureKind[2 * side + 1] = 1;
    return;
  }
  const edgeFeature = shapeDef(core.shape.type).edgeFeature;
  if (edgeFeature === null || !isPolytope(core.shape)) return;
  edgeFeature(pointEdge, core.shape, m);
  if (pointEdge.kind !== FEATURE_SEGMENT) return;
  const v = pointEdge.poly.xyz;
  const k = core.scale;
  e0.x = v[0] * k;
  e0.y = v[1] * k;
  e0.z = v[2] * k;
  e1.x = v[3] * k;
  e1.y = v[4] * k;
  e1.z = v[5] * k;
  if (side === 1) {
    faceFromB(e0, e0);
    faceFromB(e1, e1);
  } else {
    faceShiftA(e0, e0, false);
    faceShiftA(e1, e1, false);
  }
  featureKind[2 * side] = 2;
}

/** p (solver frame, on side's rim tangent of {@link loadFeatureSegments}) taken onto that rim: radially in its plane, at its height. */
function featureOntoRim(p: Vec3, side: number): void {
  const l = featureL;
  if (side === 1) faceToB(l, p, true);
  else faceShiftA(l, p, true);
  const rxz = Math.sqrt(l.x * l.x + l.z * l.z);
  if (!(rxz > 0)) return;
  const f = featureRim[2 * side + 1] / rxz;
  l.x *= f;
  l.y = featureRim[2 * side];
  l.z *= f;
  if (side === 1) faceFromB(p, l);
  else faceShiftA(p, l, false);
}

/**
 * featureC[0], featureC[1] = the nearest points of A's feature i and B's feature j of
 * {@link loadFeatureSegments} (segments: generators, rims' tangents, a polytope's edge), a rim's
 * tangent point taken onto its rim (solver frame).
 */
function nearestFeaturePoints(i: number, j: number): void {
  const x = featureC[0];
  const y = featureC[1];
  closestPointsSegmentSegment(
    x,
    y,
    featureEnds[2 * i],
    featureEnds[2 * i + 1],
    featureEnds[4 + 2 * j],
    featureEnds[4 + 2 * j + 1],
    featureParams,
  );
  if (featureKind[i] === 1) featureOntoRim(x, 0);
  if (featureKind[2 + j] === 1) featureOntoRim(y, 1);
}

/**
 * {@link faceWitnesses}' pair, where its projections found none facing, from the nearest points
 * of the two shapes' touching features ({@link loadFeatureSegments}: generators, rims, a
 * polytope's edge): each nearest point (a rim's taken onto the rim) with the other shape's point
 * opposite it across the gap, kept when that opposite point is within featureWitnessIo[0] of its
 * shape and the feature's point on its supporting plane. Where the normal lies at the boundary
 * of a point's cone of normals (a cone's apex on its side's normal, a hull's vertex on its edge's),
 * the support points along it are the point, while the shapes touch along the edge or the
 * generator from it: a cone's generator across a cylinder's rim 1.8e-13 deep had its apex
 * 1.4e-11 beside the rim's support point, a hull's edge across a cylinder's rim its vertex
 * 3.4e-15 beside it (issue 16, seed 65). True with the pair in faceX, faceY; faceX, faceY
 * untouched otherwise. Cores loaded (margins 0), solver frame.
 */
function featurePairWitnesses(): boolean {
  const gk = faceFallbackIo[0];
  const n = solvedNormal;
  let best = featureWitnessIo[0];
  const hA = faceSA.x * n.x + faceSA.y * n.y + faceSA.z * n.z;
  const hB = faceSB.x * n.x + faceSB.y * n.y + faceSB.z * n.z;
  loadFeatureSegments(0);
  loadFeatureSegments(1);
  let kept = false;
  const x = featureC[0];
  const y = featureC[1];
  for (let i = 0; i < 2; i++) {
    if (featureKind[i] === 0) continue;
    for (let j = 0; j < 2; j++) {
      if (featureKind[2 + j] === 0) continue;
      nearestFeaturePoints(i, j);
      // A's point, B's opposite it; then B's point, A's opposite it.
      if (Math.abs(x.x * n.x + x.y * n.y + x.z * n.z - hA) <= best) {
        faceP.x = x.x + gk * n.x;
        faceP.y = x.y + gk * n.y;
        faceP.z = x.z + gk * n.z;
        faceProject(faceQ, 1, faceP);
        if (projectIo[0] <= best) {
          best = projectIo[0];
          faceCopy(faceX, x);
          faceCopy(faceY, faceQ);
          kept = true;
        }
      }
      if (Math.abs(y.x * n.x + y.y * n.y + y.z * n.z - hB) <= best) {
        faceP.x = y.x - gk * n.x;
        faceP.y = y.y - gk * n.y;
        faceP.z = y.z - gk * n.z;
        faceProject(faceQ, 0, faceP);
        if (projectIo[0] <= best) {
          best = projectIo[0];
          faceCopy(faceX, faceQ);
          faceCopy(faceY, y);
          kept = true;
        }
      }
    }
  }
  return kept;
}

/** {@link featurePairNormal}'s normal (the curved core's frame, then the solver's) and the edge's direction. */
const pairM = vec3.create();
const pairE = vec3.create();
/** {@link featurePairNormal}'s supports along its normal (A's along m, B's along −m; solver frame). */
const pairSA = vec3.create();
const pairSB = vec3.create();

/**
 * Sine of the least angle between a polytope's edge and a cylinder's or cone's axis, and between
 * the edge and the generator it crosses, for {@link featurePairNormal} (nearer parallel, the
 * crossing is no point: a line contact, or ill-conditioned).
 */
const FEATURE_CROSS_SIN = 2 ** -10;

/**
 * {@link faceWitnesses}' pair and normal where its projections and {@link featurePairWitnesses}
 * found none facing, and the supporting features are a cylinder's or a cone's generator (side
 * or slant) and a polytope's edge ({@link loadFeatureSegments}) crossing seen along the normal:
 * their common perpendicular m is the normal of the Minkowski difference's flat face they sweep,
 * exact there. The refinement ends on such a ridge to its angular resolution only (a cone's
 * generator estimated from support points under tilts), and tilted by θ the generator's and the
 * edge's ends differ in height by θ times their lengths: the features' footprints then cross off
 * their planes, no point of one faces the other to rounding, the seated witnesses fell to the
 * supports' tied ends, and the projections between the cone and the hull crawled (a cone of 1e5
 * 9.8e4 deep in a hull, the normal 4.3e-13 rad off: witnesses 1.0e5 apart sideways; issue 16,
 * seed 68). The generator is the one whose side normal is perpendicular to the edge (a closed
 * form: the slant normal's azimuth u has u·ê = −r·e_y / (2h·|e_xz|) for a cone of half height h
 * and radius r, 0 for a cylinder; the root nearer the normal's), m that side normal, the
 * witnesses the segments' nearest points, and the gap the supports' along m. Kept (true, facingN
 * = m, faceIo[0] that gap, the pair in faceX, faceY) when m lies within FACE_NORMAL_MAX_TILT of
 * the normal, both nearest points inside their segments, both segments support their shapes
 * along m and the pair faces across it to featureWitnessIo[1], and the overlap along m is not
 * above the solved one by more than that. After {@link featurePairWitnesses} (its segments
 * loaded); cores loaded (margins 0), solver frame; faceX, faceY untouched when false.
 */
function featurePairNormal(): boolean {
  // The curved side's second segment is its rim's tangent (kind 1), a polytope has none.
  let side = -1;
  if (featureKind[1] === 1 && featureKind[2] === 2 && featureKind[3] === 0) side = 0;
  else if (featureKind[3] === 1 && featureKind[0] === 2 && featureKind[1] === 0) side = 1;
  if (side < 0) return false;
  const core = side === 1 ? coreB : coreA;
  const rc = revolutionCore(core.shape);
  if (rc === null) return false;
  const rev = shapeDef(rc.type).revolution as Revolution;
  rev.dims(revDims, rc);
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  const n = solvedNormal;
  const tol = featureWitnessIo[1];
  // The edge's direction and the normal (outward from the curved core) in its local frame.
  const p0 = featureEnds[4 * (1 - side)];
  const p1 = featureEnds[4 * (1 - side) + 1];
  faceSub(pairE, p1, p0);
  if (side === 1) {
    faceToB(pairE, pairE, false);
    faceNegate(negN, n);
    faceToB(pairM, negN, false);
  } else faceCopy(pairM, n);
  const ex = pairE.x;
  const ey = pairE.y;
  const ez = pairE.z;
  const exz = Math.sqrt(ex * ex + ez * ez);
  if (!(exz > FEATURE_CROSS_SIN * Math.sqrt(ex * ex + ey * ey + ez * ez))) return false;
  const cone = rev.kind === RevolutionKind.Cone;
  // The side normal (c·u, sy), u the unit azimuth: (2h, r)/len on a cone's slant, (1, 0) on a
  // cylinder's side; perpendicular to the edge where u·ê = κ.
  const len = cone ? Math.sqrt(4 * h * h + r * r) : 1;
  const c = cone ? (2 * h) / len : 1;
  const sy = cone ? r / len : 0;
  const kappa = cone ? -(r * ey) / (2 * h * exz) : 0;
  if (!(Math.abs(kappa) < 1)) return false;
  const ux0 = ex / exz;
  const uz0 = ez / exz;
  // Of the two roots u = κ·ê ± √(1 − κ²)·ê⊥ (ê⊥ = (−ê_z, ê_x)), the one on the normal's side.
  let root = Math.sqrt(1 - kappa * kappa);
  if (-uz0 * pairM.x + ux0 * pairM.z < 0) root = -root;
  const ux = kappa * ux0 - root * uz0;
  const uz = kappa * uz0 + root * ux0;
  // The generator at u (local), into the curved side's segment of featureEnds.
  const g0 = featureEnds[4 * side];
  const g1 = featureEnds[4 * side + 1];
  g0.x = cone ? 0 : r * ux;
  g0.y = h;
  g0.z = cone ? 0 : r * uz;
  g1.x = r * ux;
  g1.y = -h;
  g1.z = r * uz;
  pairM.x = c * ux;
  pairM.y = sy;
  pairM.z = c * uz;
  if (side === 1) {
    faceFromB(g0, g0);
    faceFromB(g1, g1);
    faceRotate(pairM, pairBInA.rotation, pairM);
    faceNegate(pairM, pairM);
  } else {
    faceShiftA(g0, g0, false);
    faceShiftA(g1, g1, false);
  }
  const m = pairM;
  const tx = m.x - n.x;
  const ty = m.y - n.y;
  const tz = m.z - n.z;
  if (!(Math.sqrt(tx * tx + ty * ty + tz * tz) <= FACE_NORMAL_MAX_TILT)) return false;
  // The segments' nearest points: A's first.
  const x = featureC[0];
  const y = featureC[1];
  closestPointsSegmentSegment(
    x,
    y,
    featureEnds[0],
    featureEnds[1],
    featureEnds[4],
    featureEnds[5],
    featureParams,
  );
  const s = featureParams.s;
  const t = featureParams.t;
  if (!(s > 0 && s < 1 && t > 0 && t < 1)) return false;
  // Both segments support their shapes along m, and the pair faces across it.
  coreA.support(pairSA, m);
  const hA = pairSA.x * m.x + pairSA.y * m.y + pairSA.z * m.z;
  faceNegate(negN, m);
  coreBInA.support(pairSB, negN);
  const hB = pairSB.x * m.x + pairSB.y * m.y + pairSB.z * m.z;
  const gm = hB - hA;
  if (!(gm >= faceFallbackIo[0] - tol)) return false;
  if (!(Math.abs(x.x * m.x + x.y * m.y + x.z * m.z - hA) <= tol)) return false;
  if (!(Math.abs(y.x * m.x + y.y * m.y + y.z * m.z - hB) <= tol)) return false;
  const dx = y.x - x.x;
  const dy = y.y - x.y;
  const dz = y.z - x.z;
  const along = dx * m.x + dy * m.y + dz * m.z;
  const lx = dx - along * m.x;
  const ly = dy - along * m.y;
  const lz = dz - along * m.z;
  if (!(Math.sqrt(lx * lx + ly * ly + lz * lz) <= tol)) return false;
  faceCopy(facingN, m);
  faceCopy(faceX, x);
  faceCopy(faceY, y);
  faceIo[0] = gm;
  return true;
}

/**
 * {@link projectOnto} for {@link faceWitnesses}: a flat core ({@link flatCore}: a triangle, a
 * flat hull, bare or rounded) projected exactly by {@link flatProject} — GJK from a point stops at
 * its tolerance, 6e-7 off a triangle of 1e3, so the point opposite a cone's deepest point was never
 * taken for on the triangle and the triangle's witness stayed at its far corner (issue 16) — any
 * other core as projectOnto does. Cores loaded (margins as the caller set them: 0 there).
 */
function faceProject(out: Vec3, side: number, p: Vec3): void {
  if (flatCore(side)) flatProject(out, side, p);
  else if (generatorIo[side] !== 0) generatorProject(out, side, p);
  else projectOnto(out, side, p);
}

/** [0], [1] 1 when {@link faceWitnesses} projects side A's, B's core onto its generator ({@link loadGenerator}). */
const generatorIo = new Uint8Array(2);
/** The generators' ends, solver frame: A's in [0], [1], B's in [2], [3]. */
const generatorEnds = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const generatorM = vec3.create();

/**
 * Sets generatorIo[side] (0 A, 1 B) to 1, and the ends of the generator in generatorEnds, when the
 * core on `side` is a cylinder or a cone whose support toward the other shape (+n for A, −n for
 * B) is a generator to within generatorTol[0] (its two ends that far apart along the normal): a
 * curved surface tangent to its supporting plane along a line, which the alternating projections
 * of {@link faceWitnesses} approach only as fast as the surface curves away from it (a cone of
 * 4e-5 along a triangle's edge of 1e4 crawled 6e-9 off after 48 of them); the generator, a segment
 * on the shape, is projected onto instead. Else 0. Cores loaded.
 */
function loadGenerator(side: number): void {
  generatorIo[side] = 0;
  const core = side === 1 ? coreB : coreA;
  const rc = revolutionCore(core.shape);
  if (rc === null) return;
  const rev = shapeDef(rc.type).revolution as Revolution;
  rev.dims(revDims, rc);
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  const m = generatorM;
  if (side === 1) {
    faceNegate(negN, solvedNormal);
    faceToB(m, negN, false);
  } else faceCopy(m, solvedNormal);
  const mxz = Math.sqrt(m.x * m.x + m.z * m.z);
  if (!(mxz > 0)) return;
  const ux = (r * m.x) / mxz;
  const uz = (r * m.z) / mxz;
  const e0 = generatorEnds[2 * side];
  const e1 = generatorEnds[2 * side + 1];
  // Written out: a double passed to a call V8 keeps out of line is boxed.
  const cone = rev.kind === RevolutionKind.Cone;
  e0.x = cone ? 0 : ux;
  e0.y = h;
  e0.z = cone ? 0 : uz;
  e1.x = ux;
  e1.y = -h;
  e1.z = uz;
  const rise = cone ? h * m.y - (r * mxz - h * m.y) : 2 * h * m.y;
  if (!(Math.abs(rise) <= generatorTol[0])) return;
  if (side === 1) {
    faceFromB(e0, e0);
    faceFromB(e1, e1);
  } else {
    faceShiftA(e0, e0, false);
    faceShiftA(e1, e1, false);
  }
  generatorIo[side] = 1;
}

/** [0] the tolerance of {@link loadGenerator}, solver units. */
const generatorTol = new Float64Array(1);

/**
 * out = the point of the generator of `side` ({@link loadGenerator}) nearest to p, solver frame,
 * and projectIo[0] its distance from p.
 */
function generatorProject(out: Vec3, side: number, p: Vec3): void {
  const e0 = generatorEnds[2 * side];
  const e1 = generatorEnds[2 * side + 1];
  const ex = e1.x - e0.x;
  const ey = e1.y - e0.y;
  const ez = e1.z - e0.z;
  const ee = ex * ex + ey * ey + ez * ez;
  let t = ee > 0 ? ((p.x - e0.x) * ex + (p.y - e0.y) * ey + (p.z - e0.z) * ez) / ee : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  out.x = e0.x + ex * t;
  out.y = e0.y + ey * t;
  out.z = e0.z + ez * t;
  const dx = out.x - p.x;
  const dy = out.y - p.y;
  const dz = out.z - p.z;
  projectIo[0] = Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** The flat core's corners, packed xyz, local frame times its scale ({@link flatCore}). */
let flatV = new Float64Array(48);
/** [0] the flat core's corner count, [1..3] its unit normal (local frame). */
const flatCoreIo = new Float64Array(4);
const flatQ = vec3.create();
const flatR = vec3.create();

/**
 * True when the core on `side` (0 A, 1 B) is flat — a triangle, or a flat convex hull (a polygon:
 * src/geometry/hull.ts `flat`), bare or rounded — its corners then in flatV in order around the
 * polygon (local frame, times the core's scale) and their count and unit normal in flatCoreIo. A
 * degenerate triangle (a segment or a point) is not. Cores loaded.
 */
function flatCore(side: number): boolean {
  const core = side === 1 ? coreB : coreA;
  const s = core.shape;
  const k = core.scale;
  if (s.type === ShapeType.Triangle) {
    flatV[0] = s.a.x * k;
    flatV[1] = s.a.y * k;
    flatV[2] = s.a.z * k;
    flatV[3] = s.b.x * k;
    flatV[4] = s.b.y * k;
    flatV[5] = s.b.z * k;
    flatV[6] = s.c.x * k;
    flatV[7] = s.c.y * k;
    flatV[8] = s.c.z * k;
    flatCoreIo[0] = 3;
    // The unit normal of the edges from the first corner.
    const ux = flatV[3] - flatV[0];
    const uy = flatV[4] - flatV[1];
    const uz = flatV[5] - flatV[2];
    const vx = flatV[6] - flatV[0];
    const vy = flatV[7] - flatV[1];
    const vz = flatV[8] - flatV[2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 0) || !(l < Number.POSITIVE_INFINITY)) return false;
    const uu = ux * ux + uy * uy + uz * uz;
    const vv = vx * vx + vy * vy + vz * vz;
    // A sliver (its area below 2^-26 of its edges' product) is no plane to project onto.
    if (!(l > FLAT_SLIVER * Math.sqrt(uu * vv))) return false;
    flatCoreIo[1] = nx / l;
    flatCoreIo[2] = ny / l;
    flatCoreIo[3] = nz / l;
    return true;
  }
  const hull =
    s.type === ShapeType.ConvexPolyhedron
      ? s
      : s.type === ShapeType.RoundedConvexPolyhedron
        ? s.core
        : null;
  if (hull === null || !hull.flat) return false;
  const o = hull.faceOffsets[0];
  const count = hull.faceOffsets[1] - o;
  if (3 * count > flatV.length) flatV = new Float64Array(6 * count);
  const v = hull.vertices;
  for (let i = 0; i < count; i++) {
    const j = 3 * hull.faceVertices[o + i];
    flatV[3 * i] = v[j] * k;
    flatV[3 * i + 1] = v[j + 1] * k;
    flatV[3 * i + 2] = v[j + 2] * k;
  }
  flatCoreIo[0] = count;
  flatCoreIo[1] = hull.faceNormals[0];
  flatCoreIo[2] = hull.faceNormals[1];
  flatCoreIo[3] = hull.faceNormals[2];
  return true;
}

/** A triangle whose area is below this fraction of its two edges' product is no plane for {@link flatCore}. */
const FLAT_SLIVER = 2 ** -26;

/**
 * out = the point of the flat core on `side` (loaded by {@link flatCore}) nearest to p, solver
 * frame, and projectIo[0] their distance. Worked in the core's local frame at its corner nearest
 * to p, so that the arithmetic rounds at p's distance from that corner, not at the polygon's
 * distance from its origin: p moved there is q; its foot q' on the plane, inside every edge
 * (the edge's cross product with q' along the normal not negative) is the answer, else the
 * nearest point of the edges it lies outside of (Ericson 2005, §5.1.5, by edges instead of
 * barycentric products, which round at the product of the edges' lengths).
 */
function flatProject(out: Vec3, side: number, p: Vec3): void {
  if (side === 1) faceToB(snapLocal, p, true);
  else faceShiftA(snapLocal, p, true);
  const count = flatCoreIo[0];
  const nx = flatCoreIo[1];
  const ny = flatCoreIo[2];
  const nz = flatCoreIo[3];
  // The corner nearest p: the frame's origin o.
  let io = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const x = snapLocal.x - flatV[3 * i];
    const y = snapLocal.y - flatV[3 * i + 1];
    const z = snapLocal.z - flatV[3 * i + 2];
    const d = x * x + y * y + z * z;
    if (d < best) {
      best = d;
      io = i;
    }
  }
  const ox = flatV[3 * io];
  const oy = flatV[3 * io + 1];
  const oz = flatV[3 * io + 2];
  const qx = snapLocal.x - ox;
  const qy = snapLocal.y - oy;
  const qz = snapLocal.z - oz;
  const h = qx * nx + qy * ny + qz * nz;
  // The foot on the plane, relative to o.
  flatR.x = qx - h * nx;
  flatR.y = qy - h * ny;
  flatR.z = qz - h * nz;
  let outside = false;
  best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const j = i + 1 === count ? 0 : i + 1;
    const ux = flatV[3 * i] - ox;
    const uy = flatV[3 * i + 1] - oy;
    const uz = flatV[3 * i + 2] - oz;
    const ex = flatV[3 * j] - ox - ux;
    const ey = flatV[3 * j + 1] - oy - uy;
    const ez = flatV[3 * j + 2] - oz - uz;
    const wx = flatR.x - ux;
    const wy = flatR.y - uy;
    const wz = flatR.z - uz;
    const side2 = (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz;
    if (side2 >= 0) continue;
    outside = true;
    // The nearest point of this edge to q.
    const ee = ex * ex + ey * ey + ez * ez;
    let t = ee > 0 ? ((qx - ux) * ex + (qy - uy) * ey + (qz - uz) * ez) / ee : 0;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
    const cx = ux + ex * t;
    const cy = uy + ey * t;
    const cz = uz + ez * t;
    const dx = qx - cx;
    const dy = qy - cy;
    const dz = qz - cz;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < best) {
      best = d;
      flatQ.x = cx;
      flatQ.y = cy;
      flatQ.z = cz;
    }
  }
  if (outside) faceCopy(flatR, flatQ);
  const dx = qx - flatR.x;
  const dy = qy - flatR.y;
  const dz = qz - flatR.z;
  flatR.x += ox;
  flatR.y += oy;
  flatR.z += oz;
  if (side === 1) faceFromB(out, flatR);
  else faceShiftA(out, flatR, false);
  projectIo[0] = Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * solvedNormal taken onto the flat features near it ({@link flatSeparation}) when the overlap
 * along the candidate, margins added, is nearer the solved depth than along solvedNormal (scene
 * units in solvedIo, `k` the solver's change of units). The depth and the witnesses are kept.
 * Cores loaded.
 */
function flatContactNormal(a: ConvexShape, b: ConvexShape, k: number): void {
  const r = coreA.margin + coreB.margin;
  const depth = (0 - solvedIo[0]) * k;
  overlapInto(solvedNormal);
  const miss = Math.abs(overlapIo[0] + r - depth);
  flatSeparation(a, b, solvedNormal);
  if (!(Math.abs(r - flatIo[0] - depth) < miss)) return;
  vec3.copy(solvedNormal, flatN);
}

const gapContact = makeContact();
const gapManifold = makeContactManifold();

/**
 * The witnesses of two polytopes' gap found by SAT (GJK stalled at its rounding level, the gap
 * the separation along a face normal or an edge crossing, exact for the pair): the supporting
 * features along the normal clipped as the manifold builder clips them
 * (src/narrowphase/manifold.ts), the clipped point of least separation and its foot on the
 * reference face, both on their shapes and (pB − pA) along the normal. Taken when that
 * separation is the gap to TOUCH_TOLERANCE of the pair's magnitude (returns true); else the
 * witnesses are left to the projections. Alternating projections between a small hull's edge
 * and a large hull's nearly parallel edge shrink by 0.7% a cycle (issue 16, seed 40 at main
 * 704850b: hulls of 2e-6 and 1.8e5 2.05e-7 apart, the witnesses 3.4e-7 apart). A's frame, scene
 * units (after `solve`'s shift and scaling are undone).
 */
function featureGapWitnesses(a: ConvexShape, b: ConvexShape, bInA: Isometry): boolean {
  const g = solvedIo[0];
  gapContact.distance = g;
  vec3.copy(gapContact.normal, solvedNormal);
  vec3.copy(gapContact.pointA, solvedA);
  vec3.copy(gapContact.pointB, solvedB);
  manifoldFromContact(gapManifold, a, b, bInA, gapContact, g);
  // The given contact back (feature id 0): the features gave nothing, its witnesses unchecked.
  if (gapManifold.count === 1 && gapManifold.points[0].featureId === 0) return false;
  let best = -1;
  for (let i = 0; i < gapManifold.count; i++) {
    if (best < 0 || gapManifold.points[i].distance < gapManifold.points[best].distance) best = i;
  }
  if (best < 0) return false;
  const p = gapManifold.points[best];
  vec3.sub(polishD1, p.pointB, p.pointA);
  lengthInto(polishD1, 0);
  const far = sizeIo[0];
  lengthInto(p.pointA, 1);
  lengthInto(p.pointB, 2);
  const m = Math.max(sizeIo[1], sizeIo[2]);
  lengthInto(bInA.translation, 1);
  const slack = TOUCH_TOLERANCE * Math.max(m, sizeIo[1]);
  if (!(Math.abs(far - g) <= slack)) return false;
  vec3.copy(solvedA, p.pointA);
  vec3.copy(solvedB, p.pointB);
  return true;
}

/** {@link featureFacingWitnesses}' offset of the witnesses from facing, pB − pA − distance·n (A's frame). */
const facingOff = vec3.create();

/**
 * Two polytopes (boxes, hulls, bare or rounded) whose witnesses still lie apart sideways after
 * {@link faceWitnesses}: the closest points of their supporting edges along the normal, or of the
 * manifold builder's clipped supporting features (src/narrowphase/manifold.ts), whichever pair
 * faces more nearly across the normal. Where the supporting features are two edges, or a corner
 * and a face, tied to rounding, and meet only near one end (a box's corner on a hull's vertex,
 * an edge of each in the common supporting plane, 1e-14 to 1e-12 deep), the projections between
 * hulls, by GJK from a point, stall at its rounding (2.6e-14 off at size 1, against a slack of
 * 1.7e-15), and the witnesses stayed the support points of the tie: B's the far end of its
 * edge, 1.93 from A's (issue 16, attack 29's F6). Taken when the pair faces within
 * FACE_WITNESS_SLACK of the pair's magnitude (the distance and normal kept), else the witnesses
 * are left. A's frame, scene units (after `solve`'s shift and scaling are undone).
 */
function featureFacingWitnesses(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  const d = solvedIo[0];
  const n = solvedNormal;
  lateralOffsetInto(facingOff, solvedA, solvedB, n, 0);
  const lateral = sizeIo[0];
  // The pair's magnitude in A's frame, where the features' corners round: A's bounding radius,
  // B's offset plus its radius (the witnesses' own can be far smaller: a contact at A's origin).
  writeBoundingRadiusOf(ridgeRadiusIo, a);
  const rA = ridgeRadiusIo[0];
  writeBoundingRadiusOf(ridgeRadiusIo, b);
  lengthInto(bInA.translation, 1);
  const slack = FACE_WITNESS_SLACK * Math.max(rA, sizeIo[1] + ridgeRadiusIo[0], Math.abs(d));
  if (!(lateral > slack)) return;
  gapContact.distance = d;
  vec3.copy(gapContact.normal, n);
  vec3.copy(gapContact.pointA, solvedA);
  vec3.copy(gapContact.pointB, solvedB);
  manifoldFromContact(gapManifold, a, b, bInA, gapContact, Math.max(d, 0));
  // The given contact back (feature id 0): the features gave nothing.
  const none = gapManifold.count === 1 && gapManifold.points[0].featureId === 0;
  let best = -1;
  let bestOff = lateral;
  for (let i = 0; i < gapManifold.count && !none; i++) {
    const p = gapManifold.points[i];
    facingOff.x = p.pointB.x - p.pointA.x - d * n.x;
    facingOff.y = p.pointB.y - p.pointA.y - d * n.y;
    facingOff.z = p.pointB.z - p.pointA.z - d * n.z;
    lengthInto(facingOff, 0);
    const off = sizeIo[0];
    if (off < bestOff && off <= slack) {
      best = i;
      bestOff = off;
    }
  }
  // The supporting edges themselves (each polytope's edge most nearly across the normal at its
  // support point): their closest points, which face across the normal where they cross seen
  // along it. The manifold builder may take a face within its feature angle instead, whose
  // clipped points then lie off the tied edges' depth (2.3e-14 against 1.2e-13).
  if (facingEdgeEnds(a, 0, bInA) && facingEdgeEnds(b, 1, bInA)) {
    closestOfSegments();
    facingOff.x = edgeY.x - edgeX.x - d * n.x;
    facingOff.y = edgeY.y - edgeX.y - d * n.y;
    facingOff.z = edgeY.z - edgeX.z - d * n.z;
    lengthInto(facingOff, 0);
    const off = sizeIo[0];
    if (off < bestOff && off <= slack) {
      vec3.copy(solvedA, edgeX);
      vec3.copy(solvedB, edgeY);
      return;
    }
  }
  if (best < 0) return;
  vec3.copy(solvedA, gapManifold.points[best].pointA);
  vec3.copy(solvedB, gapManifold.points[best].pointB);
}

/** {@link featureFacingWitnesses}' supporting edges (A's frame, on the surfaces): A's P0 P1, B's Q0 Q1. */
const facingEnds = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const facingEdge = makeSupportFeature();
const facingDir = vec3.create();
/** {@link closestOfSegments}' answer: the closest points of the two edges (A's frame). */
const edgeX = vec3.create();
const edgeY = vec3.create();

/**
 * Shape `s` on `side` (0 A at the identity, 1 B at `bInA`): its core polytope's supporting edge
 * along the solved normal (−normal for B), moved onto the surface by the margin along it, into
 * facingEnds; false when the shape has no edge feature or its support there is a vertex.
 */
function facingEdgeEnds(s: ConvexShape, side: number, bInA: Isometry): boolean {
  const core = flatPolytope(s);
  if (core === null) return false;
  const edgeFeature = shapeDef(core.type).edgeFeature;
  if (edgeFeature === null) return false;
  const m = s === core ? 0 : shapeDef(s.type).margin(s);
  const n = solvedNormal;
  if (side === 0) vec3.copy(facingDir, n);
  else {
    faceNegate(facingDir, n);
    quat.inverseRotate(facingDir, bInA.rotation, facingDir);
  }
  edgeFeature(facingEdge, core, facingDir);
  if (facingEdge.kind !== FEATURE_SEGMENT) return false;
  const v = facingEdge.poly.xyz;
  const f = side === 0 ? m : 0 - m;
  for (let i = 0; i < 2; i++) {
    const e = facingEnds[2 * side + i];
    e.x = v[3 * i];
    e.y = v[3 * i + 1];
    e.z = v[3 * i + 2];
    if (side === 1) iso.transformPoint(e, bInA, e);
    e.x += n.x * f;
    e.y += n.y * f;
    e.z += n.z * f;
  }
  return true;
}

/**
 * edgeX, edgeY = the closest points of segments P0P1 and Q0Q1 (facingEnds), clamped to
 * both (Ericson 2005, §5.1.9); a degenerate segment is its first end.
 */
function closestOfSegments(): void {
  const p0 = facingEnds[0];
  const p1 = facingEnds[1];
  const q0 = facingEnds[2];
  const q1 = facingEnds[3];
  const d1x = p1.x - p0.x;
  const d1y = p1.y - p0.y;
  const d1z = p1.z - p0.z;
  const d2x = q1.x - q0.x;
  const d2y = q1.y - q0.y;
  const d2z = q1.z - q0.z;
  const rx = p0.x - q0.x;
  const ry = p0.y - q0.y;
  const rz = p0.z - q0.z;
  const aa = d1x * d1x + d1y * d1y + d1z * d1z;
  const ee = d2x * d2x + d2y * d2y + d2z * d2z;
  const ff = d2x * rx + d2y * ry + d2z * rz;
  let s = 0;
  let t = 0;
  if (aa > 0 && ee > 0) {
    const c = d1x * rx + d1y * ry + d1z * rz;
    const bb = d1x * d2x + d1y * d2y + d1z * d2z;
    const den = aa * ee - bb * bb;
    s = den > 0 ? Math.min(Math.max((bb * ff - c * ee) / den, 0), 1) : 0;
    t = (bb * s + ff) / ee;
    if (t < 0) {
      t = 0;
      s = Math.min(Math.max(-c / aa, 0), 1);
    } else if (t > 1) {
      t = 1;
      s = Math.min(Math.max((bb - c) / aa, 0), 1);
    }
  } else if (aa > 0) s = Math.min(Math.max(-(d1x * rx + d1y * ry + d1z * rz) / aa, 0), 1);
  else if (ee > 0) t = Math.min(Math.max(ff / ee, 0), 1);
  edgeX.x = p0.x + d1x * s;
  edgeX.y = p0.y + d1y * s;
  edgeX.z = p0.z + d1z * s;
  edgeY.x = q0.x + d2x * t;
  edgeY.y = q0.y + d2y * t;
  edgeY.z = q0.z + d2z * t;
}

/**
 * Overlap, relative to the witnesses' magnitude, that {@link overlapTouches} may call a touch
 * (64 ε, the depth bar's rounding term of docs/FORMATS.md: one witness for both misses the depth
 * along the normal by the overlap; at 128 ε a box's corner 7.8e-16 inside a cylinder's rim at
 * size 0.05 got one point for a depth of 7.8e-16, against a bar of 7.3e-16; issue 16, s24).
 */
const OVERLAP_TOUCH_ROUNDING = 2 * TOUCH_TOLERANCE;

/**
 * [0] the upper bound on the signed distance that {@link solveLoaded} proved (boundIo[1] before
 * {@link lowerBound} tightens it for a query's error bound: the same whether or not one is
 * asked), scene units once {@link solve} scales it back; [1] the witnesses' magnitude there.
 */
const provenIo = new Float64Array(2);

/**
 * Whether a curved pair's overlap within the near-touching band, which nothing proves (the
 * solver's upper bound on the signed distance, provenIo[0], not below −TOUCH_TOLERANCE of the
 * witnesses' magnitude: GJK's simplex held the origin only at the rounding level, EPA found no
 * depth) and within OVERLAP_TOUCH_ROUNDING of the witnesses' magnitude, is a touch: alternating
 * projections from its witnesses (as at a touch, {@link touchWitnesses}) end apart by no more
 * than the overlap claimed and within
 * TOUCH_TOLERANCE of the witnesses' magnitude (provenIo[1]) — a pair of points on both shapes
 * at their rounding, as for an overlap within it — and their point is kept for both witnesses
 * (true). The least overlap over directions converges slowly where two rims cross (its
 * curvature across the larger rim is the smaller's radius: issue 16, a cylinder of 1.4e-4 whose
 * rim touched the rim of one of 2.2, 2e-16 apart by mpmath, stopped at an "overlap" of 6.4e-14
 * with its seated witnesses 4.2e-8 apart sideways, which the distance reported as the gap once
 * intersects called the pair apart). Else the solved answer is restored (false). The solver's
 * change of units in touchIo[0] (not passed: a double crossing a call V8 does not inline is
 * boxed). Cores loaded.
 */
function overlapTouches(): boolean {
  // Beyond TOUCH_TOLERANCE (an overlap within it is a touch already) but within a few times it:
  // the queries' depths may err by 64 ε of the pair's extent (docs/FORMATS.md, the witnesses'
  // magnitude standing for it), which one witness for both then misses the overlap by at most.
  if (!(0 - solvedIo[0] <= OVERLAP_TOUCH_ROUNDING * provenIo[1])) return false;
  saveSolved();
  touchWitnesses(1);
  const g = polishIo[0] / touchIo[0];
  if (g > 0 && g <= 0 - savedIo[0] && g <= TOUCH_TOLERANCE * provenIo[1]) return true;
  restoreSolved();
  return false;
}

/**
 * A gap of a curved pair whose witnesses lie farther apart than the gap, by more than
 * GAP_WITNESS_SLACK of their magnitude in the solver's frame (sideways: the normal of a corner or
 * rim near a rim is fixed only to the flatness of the gap there), taken onto both shapes by
 * {@link polishWitnesses}; so too where a witness lies off its shape by more than SEAT_SLACK of
 * the pair's magnitude although the two agree with the gap (GJK's blend of a huge triangle's far
 * corners with weights near 1e-10: a triangle's witness 1.9e-4 off it at 6e-4 from its corner,
 * a cone of 1e-3 by a triangle of 1e6, issue 16). `k` the solver's change of units. Cores loaded.
 */
function gapWitnesses(k: number): void {
  vec3.sub(polishD1, solvedB, solvedA);
  lengthInto(polishD1, 0);
  const e = sizeIo[0] - solvedIo[0];
  vec3.scale(polishD1, solvedA, k);
  vec3.scale(polishD2, solvedB, k);
  if (shiftIo[0] !== 0) {
    vec3.sub(polishD1, polishD1, shiftA);
    vec3.sub(polishD2, polishD2, shiftA);
  }
  lengthInto(polishD1, 1);
  lengthInto(polishD2, 2);
  touchIo[0] = k;
  if (!(e * k > GAP_WITNESS_SLACK * Math.max(sizeIo[1], sizeIo[2])) && !witnessesOffShapes())
    return;
  polishWitnesses(1, 0, 0);
}

/**
 * A gap that the overlap path found ({@link overlapGap}: GJK called the pair in contact at its
 * rounding level, EPA or the exact axes then found a separating direction) has its witnesses
 * placed along the normal from blends of support points, on each shape's supporting plane but not
 * necessarily on the shape: beside a hull's face whose plane a small box's edge faces, 3.2e-3 off
 * a hull of 6e4 at a gap of 2.5e-11 (issue 16, seed 23). Where either lies off its own shape by
 * more than SEAT_SLACK of the pair's magnitude, both are taken onto the shapes by
 * {@link polishWitnesses} (alternating projections: a pair of nearest points, the gap theirs
 * when less). Cores loaded; touchIo[0] the change of units. Two point projections.
 */
function offShapeGapWitnesses(): void {
  if (witnessesOffShapes()) polishWitnesses(1, 0, 0);
}

/**
 * True when solvedA or solvedB (the caller's frame and units; touchIo[0] the change of units)
 * lies off its own shape by more than SEAT_SLACK of the pair's magnitude in the solver's frame.
 * Cores loaded. At most two point projections.
 */
function witnessesOffShapes(): boolean {
  const k = touchIo[0];
  lengthInto(pairBInA.translation, 0);
  const m = Math.max(sizeIo[0], shiftIo[1]);
  for (let side = 0; side < 2; side++) {
    const w = side === 0 ? solvedA : solvedB;
    polishP.x = w.x * k;
    polishP.y = w.y * k;
    polishP.z = w.z * k;
    if (shiftIo[0] !== 0) vec3.sub(polishP, polishP, shiftA);
    lengthInto(polishP, 1);
    const slack = SEAT_SLACK * Math.max(m, sizeIo[1]);
    projectOnto(polishQ, side, polishP);
    if (projectIo[0] > slack) return true;
  }
  return false;
}

/**
 * [0] how far the last {@link solveLoaded} moved a witness along the normal to place it (a hint
 * onto its shape's supporting plane, `refined.placed`, or the depth of {@link witnessesAlong}),
 * solver units, 0 when its witnesses are support points or EPA's blends; [1] the unproven
 * candidate's. A witness moved farther than rounding may lie beside its shape's supporting face.
 */
const placedIo = new Float64Array(2);

/**
 * True when the last {@link solveLoaded} answered a gap from its overlap path (EPA, SAT, the
 * refinement), whose witnesses are placed along the normal, rather than from GJK's simplex.
 */
let overlapGap = false;

/**
 * The witnesses of a curved pair's overlap (or of two polytopes' shallow overlap with a witness
 * off its shape, see {@link solve}), each taken onto its own shape where it lies outside
 * it by more than SEAT_SLACK of the pair's magnitude in the solver's frame: a witness placed
 * along the normal against the other's unique support (a hull's edge against a cylinder's rim)
 * lies on the edge's supporting plane but beside the edge by the normal's error times the edge's
 * length (issue 16: 1e-5 off a hull of 7e5 whose edge crossed the rim of a cylinder of 0.03). The
 * nearest point of the shape, kept on that plane (so that (pB − pA)·n keeps the depth) by
 * projections onto the plane and the shape in turn, else the shape's support point along the
 * normal. A witness inside its shape is left as it is. Cores loaded; touchIo[0] the change of units.
 */
function seatWitnesses(): void {
  const k = touchIo[0];
  lengthInto(pairBInA.translation, 0);
  const m = Math.max(sizeIo[0], shiftIo[1]);
  for (let side = 0; side < 2; side++) {
    const w = side === 0 ? solvedA : solvedB;
    polishP.x = w.x * k;
    polishP.y = w.y * k;
    polishP.z = w.z * k;
    if (shiftIo[0] !== 0) vec3.sub(polishP, polishP, shiftA);
    lengthInto(polishP, 1);
    // The plane's tolerance from the witness's magnitude, before projectOnto overwrites sizeIo[1].
    const flat = SEAT_PLANE_SLACK * Math.max(m, sizeIo[1]);
    projectOnto(polishQ, side, polishP);
    // (sizeIo[1] now the distance moved: the slack of the pair's magnitude, or of that distance.)
    const slack = SEAT_SLACK * Math.max(m, sizeIo[1]);
    if (!(projectIo[0] > slack)) continue;
    // The nearest point can drop below the witness's supporting plane (beside a hull's edge whose
    // next face slopes away: (pB − pA)·n then missed the depth by 3.5e-3 at depth 11): back onto
    // the plane and the shape in turn, converging into their common face; else the shape's
    // support point along the normal, on both.
    const sgn = side === 0 ? 1 : -1;
    const n = solvedNormal;
    // (vec3.dot written out: where V8 does not inline it, its returned double is boxed.)
    const h = sgn * (polishP.x * n.x + polishP.y * n.y + polishP.z * n.z);
    let t = h - sgn * (polishQ.x * n.x + polishQ.y * n.y + polishQ.z * n.z);
    // The vec3 steps written out: a double passed to a call V8 does not inline is boxed.
    for (let it = 0; it < SEAT_PLANE_ITERATIONS && t > flat; it++) {
      const st = sgn * t;
      polishD1.x = polishQ.x + n.x * st;
      polishD1.y = polishQ.y + n.y * st;
      polishD1.z = polishQ.z + n.z * st;
      projectOnto(polishQ, side, polishD1);
      t = h - sgn * (polishQ.x * n.x + polishQ.y * n.y + polishQ.z * n.z);
    }
    if (t > flat) {
      const core = side === 0 ? coreA : coreB;
      vec3.scale(negN, n, sgn);
      if (side === 0) coreA.support(polishQ, negN);
      else coreBInA.support(polishQ, negN);
      const mg = core.margin;
      polishQ.x += negN.x * mg;
      polishQ.y += negN.y * mg;
      polishQ.z += negN.z * mg;
    }
    if (shiftIo[0] !== 0) vec3.add(polishQ, polishQ, shiftA);
    const inv = 1 / k;
    w.x = polishQ.x * inv;
    w.y = polishQ.y * inv;
    w.z = polishQ.z * inv;
  }
}

/** Projections of {@link seatWitnesses} between a shape and its supporting plane, at most. */
const SEAT_PLANE_ITERATIONS = 8;

/** A seated witness's drop below its supporting plane, relative to the pair's magnitude, that is rounding. */
const SEAT_PLANE_SLACK = 2 ** -50;

/**
 * Distance outside its shape, relative to the pair's magnitude, from which a witness is seated:
 * 16 ulps, below the touching tolerance (2^-40 left a witness 3.7e-8 outside a hull of 2e5,
 * placed on a face's plane beyond its edge, and a cone's witness 1e-8 to 4e-8 off a large box's
 * edge, against a bar of 64 ulps of the size).
 */
const SEAT_SLACK = 2 ** -48;

/** Sideways offset of a gap's witnesses, relative to their magnitude, that {@link gapWitnesses} mends. */
const GAP_WITNESS_SLACK = 2 ** -44;

/** {@link saveSolved}'s copy: [0] the signed distance, [1] and [2] boundIo, [3] satGapIo. */
const savedIo = new Float64Array(4);
const savedNormal = vec3.create();
const savedA = vec3.create();
const savedB = vec3.create();

/** Copies the solved answer and its bounds aside. */
function saveSolved(): void {
  savedIo[0] = solvedIo[0];
  savedIo[1] = boundIo[0];
  savedIo[2] = boundIo[1];
  savedIo[3] = satGapIo[0];
  vec3.copy(savedNormal, solvedNormal);
  vec3.copy(savedA, solvedA);
  vec3.copy(savedB, solvedB);
}

/** Restores what {@link saveSolved} kept. */
function restoreSolved(): void {
  solvedIo[0] = savedIo[0];
  boundIo[0] = savedIo[1];
  boundIo[1] = savedIo[2];
  satGapIo[0] = savedIo[3];
  vec3.copy(solvedNormal, savedNormal);
  vec3.copy(solvedA, savedA);
  vec3.copy(solvedB, savedB);
}

/**
 * One witness for a pair decided touching, copied to the other: of A's and B's, the one nearer
 * the other shape (GJK from the point to the other's core, less its margin; A's on a tie). The
 * witnesses of a pair touching within rounding can lie apart sideways (flat supports placed
 * from EPA's blends, a sliver simplex), and then only one of them is on both shapes: a cone's
 * witness was 1.6e-6 off a triangle of 2e-3 it touched, and a cylinder's 4.5e-10 off a box of
 * 5e3. `scene` 1 when solvedA and solvedB are in the caller's frame and units (the solver's
 * point is p·k − shift, k in touchIo[0]), 0 in the solver's. Cores loaded. Two GJK runs on a
 * point, at a touch only.
 */
function touchWitnesses(scene: number): void {
  pointGap(solvedA, 1, scene, 1);
  pointGap(solvedB, 0, scene, 2);
  const fromB = touchIo[2] < touchIo[1];
  if (fromB) vec3.copy(solvedA, solvedB);
  else vec3.copy(solvedB, solvedA);
  if (curved(coreA.shape) || curved(coreB.shape)) polishWitnesses(scene, fromB ? 1 : 0, 1);
  else if (scene !== 0) {
    // Two polytopes: polished only where the point is off either shape (blends placed along
    // the normal beside a ridge).
    lengthInto(pairBInA.translation, 0);
    lengthInto(solvedA, 1);
    const slack = SEAT_SLACK * Math.max(sizeIo[0], sizeIo[1] * touchIo[0], shiftIo[1]);
    if (Math.min(touchIo[1], touchIo[2]) > slack || witnessesOffShapes()) {
      polishWitnesses(scene, fromB ? 1 : 0, 1);
    }
  }
}

const polishP = vec3.create();
const polishQ = vec3.create();
const polishBest = vec3.create();
const polishBestQ = vec3.create();
const polishH0 = vec3.create();
const polishH1 = vec3.create();
const polishD1 = vec3.create();
const polishD2 = vec3.create();
/** [0] {@link projectOnto}'s distance, solver units. */
const projectIo = new Float64Array(1);

/**
 * The witnesses of a pair with a cylinder or cone at a touch or a small gap, taken onto both
 * shapes by {@link alternateProjections}. A touch at a
 * rim or an apex (rim on rim, a box edge or a corner on a rim) fixes the normal only to about
 * the square root of the rounding, where the overlap is flat, and the witness placed along it is
 * off the other shape by that angle times the size (issue 16: 1.4e-9 off a cylinder of 0.7
 * whose rim touched another's, 2.3e-5 at 1e5; a triangle's corner 6.9e-13 from a cone's rim
 * with the rim's witness 2e-7 aside); near such a contact the boundaries cross at an angle. The
 * pair of least gap is kept: at a touch (`touch` 1) its point on one shape for both witnesses,
 * else both points, and its gap when below the solver's (points on both shapes attain it). Starts from solvedA, on shape `on` (0 A, 1 B) or near it; `scene` as {@link touchWitnesses}.
 * Cores loaded; for curved pairs only, at a touch or where the witnesses are apart by more than
 * the gap.
 */
function polishWitnesses(scene: number, on: number, touch: number): void {
  const k = scene !== 0 ? touchIo[0] : 1;
  if (scene !== 0) {
    polishP.x = solvedA.x * k;
    polishP.y = solvedA.y * k;
    polishP.z = solvedA.z * k;
    if (shiftIo[0] !== 0) vec3.sub(polishP, polishP, shiftA);
  } else vec3.copy(polishP, solvedA);
  // Onto its own shape first: a witness placed along the normal can be off its shape as well.
  alternateProjections(on, TOUCH_POLISH_ITERATIONS, 1);
  if (touch !== 0) centreStarts();
  if (touch !== 0) faceFeatureStarts();
  supportStarts();
  pointFeatureStarts();
  featurePairStarts();
  const best = polishIo[0];
  if (touch === 0) {
    // Not a touch: the pair itself, A's point first; its gap when below the solver's.
    if (polishIo[1] === 1) {
      // The swap written out: the shared vec3.copy's stores, where V8 does not know the
      // target's map, are generic calls that box the coordinates.
      const x = polishBest.x;
      const y = polishBest.y;
      const z = polishBest.z;
      polishBest.x = polishBestQ.x;
      polishBest.y = polishBestQ.y;
      polishBest.z = polishBestQ.z;
      polishBestQ.x = x;
      polishBestQ.y = y;
      polishBestQ.z = z;
      vec3.copy(polishP, polishBestQ);
    }
    if (shiftIo[0] !== 0) vec3.add(polishBestQ, polishBestQ, shiftA);
    vec3.scale(polishBestQ, polishBestQ, 1 / k);
    vec3.copy(solvedB, polishBestQ);
    const g = best / k;
    if (g < solvedIo[0]) solvedIo[0] = g;
  }
  if (shiftIo[0] !== 0) vec3.add(polishBest, polishBest, shiftA);
  vec3.scale(polishBest, polishBest, 1 / k);
  vec3.copy(solvedA, polishBest);
  if (touch !== 0) vec3.copy(solvedB, polishBest);
}

const supportStart = vec3.create();

/**
 * At a gap whose polished witnesses lie apart by more than the gap, or a touch whose point is
 * still off a shape: the projections start again from each shape's support point along the
 * normal toward the other, and the better end is kept. A rim or a generator facing a face at a
 * shallow angle leaves the projections crawling along the contact (a box's face on a cylinder's
 * rim of 9.7e4, 3.7e-11 apart: they ended 8.7e-4 along the face, 3.9e-9 apart; issue 16, s24
 * stress-11); the support point is at the contact. So too a cone's apex touching a cone's side
 * (issue 16, seed 54: the projections near the apex ended 2.3e-10 from it, 1e-10 off the apex's
 * cone at size 1e3); the apex is the support point. Cores loaded, solver frame. At most two
 * more runs of the projections.
 */
function supportStarts(): void {
  const gap = Math.max(0, solvedIo[0] * (touchIo[0] || 1));
  lengthInto(pairBInA.translation, 0);
  const slack = gap + SEAT_SLACK * Math.max(sizeIo[0], shiftIo[1]);
  for (let side = 0; side < 2 && polishIo[0] > slack; side++) {
    if (side === 0) coreA.support(supportStart, solvedNormal);
    else {
      vec3.negate(supportStart, solvedNormal);
      coreBInA.support(supportStart, supportStart);
    }
    vec3.copy(polishP, supportStart);
    polishFrom(side);
  }
}

const pointLocal = vec3.create();
const pointDir = vec3.create();
const pointEdge = makeSupportFeature();

/**
 * After {@link supportStarts}, where the pair is still apart by more than the gap: the
 * projections start again from each shape's point features at the contact — a cone's apex, and
 * both ends of a polytope's supporting edge along the normal (`edgeFeature`: the edge most
 * nearly across it) — and the best end is kept. Such a point is the support point along every
 * direction of its normal cone, but where the normal lies on that cone's boundary (the cone's
 * side, or the edge, in the plane across the normal) the support point jumps to the other end,
 * and the normal of a touch is known only to about the square root of the rounding: a cone's
 * apex touching a cylinder's rim with its side along the tangent plane there left the point
 * 3.3e-11 off the cylinder at size 0.25, and a box's corner on a rim of 20 with its edge along
 * the plane 2e-11 off the box, the projections crawling between the tangent boundaries (issue
 * 16, seed 56's class). Cores loaded, solver frame. At most four more runs of the projections.
 */
function pointFeatureStarts(): void {
  const gap = Math.max(0, solvedIo[0] * (touchIo[0] || 1));
  lengthInto(pairBInA.translation, 0);
  const slack = gap + SEAT_SLACK * Math.max(sizeIo[0], shiftIo[1]);
  for (let side = 0; side < 2 && polishIo[0] > slack; side++) {
    const core = side === 1 ? coreB : coreA;
    const rc = revolutionCore(core.shape);
    if (rc !== null) {
      const rev = shapeDef(rc.type).revolution as Revolution;
      if (rev.kind !== RevolutionKind.Cone) continue;
      rev.dims(revDims, rc);
      pointLocal.x = 0;
      pointLocal.y = revDims[0] * core.scale;
      pointLocal.z = 0;
      pointFeatureStart(side);
      continue;
    }
    const edgeFeature = shapeDef(core.shape.type).edgeFeature;
    if (edgeFeature === null) continue;
    // Toward the other shape, in the shape's local frame (the solver's is A's, shifted).
    if (side === 0) vec3.copy(pointDir, solvedNormal);
    else {
      vec3.negate(pointDir, solvedNormal);
      quat.inverseRotate(pointDir, pairBInA.rotation, pointDir);
    }
    edgeFeature(pointEdge, core.shape, pointDir);
    if (pointEdge.kind !== FEATURE_SEGMENT) continue;
    const v = pointEdge.poly.xyz;
    for (let i = 0; i < 2 && polishIo[0] > slack; i++) {
      pointLocal.x = v[3 * i] * core.scale;
      pointLocal.y = v[3 * i + 1] * core.scale;
      pointLocal.z = v[3 * i + 2] * core.scale;
      pointFeatureStart(side);
    }
  }
}

/**
 * After {@link pointFeatureStarts}, where the pair is still apart by more than the gap: the
 * projections start again from the nearest points of the shapes' touching features ({@link
 * loadFeatureSegments}: generators, rims, a polytope's edge), each on its own shape. Where the
 * normal lies at the boundary of a point's cone of normals, the shapes touch where the generator
 * or the edge from that point crosses the other's rim, and the projections from the point crawl
 * between the tangent boundaries: a cone's generator across a cylinder's rim of 100, 1.2e-9 from
 * the apex, left the common point 4.8e-11 off the cylinder (issue 16, seed 65's class). Cores
 * loaded, solver frame. At most eight more runs of the projections.
 */
function featurePairStarts(): void {
  const gap = Math.max(0, solvedIo[0] * (touchIo[0] || 1));
  lengthInto(pairBInA.translation, 0);
  const slack = gap + SEAT_SLACK * Math.max(sizeIo[0], shiftIo[1]);
  if (!(polishIo[0] > slack)) return;
  loadFeatureSegments(0);
  loadFeatureSegments(1);
  const x = featureC[0];
  const y = featureC[1];
  for (let i = 0; i < 2; i++) {
    if (featureKind[i] === 0) continue;
    for (let j = 0; j < 2 && polishIo[0] > slack; j++) {
      if (featureKind[2 + j] === 0) continue;
      nearestFeaturePoints(i, j);
      vec3.copy(polishP, x);
      polishFrom(0);
      if (!(polishIo[0] > slack)) return;
      vec3.copy(polishP, y);
      polishFrom(1);
    }
  }
}

/** {@link polishFrom} shape `side`'s point pointLocal (its local frame, solver units). */
function pointFeatureStart(side: number): void {
  if (side === 1) iso.transformPoint(polishP, pairBInA, pointLocal);
  else fromLocalA(polishP, pointLocal);
  polishFrom(side);
}

const centreBest = vec3.create();
const centreBestQ = vec3.create();
/** {@link centreStarts}'s copy of polishIo. */
const centreIo = new Float64Array(2);

/**
 * At a touch where {@link alternateProjections} left its point off the other shape by more than
 * SEAT_SLACK of the pair's magnitude: the projections start again from each shape's centre (its
 * local origin) taken onto the other shape, and the better end is kept. Where the boundaries
 * are tangent the projections barely move along the contact (a box's edge along a cylinder's
 * rim, crossing it 6e-16 deep: the cycles shrank the offset along the edge by a factor 1 − 1e-9,
 * and the point stayed 1.8e-6 along the edge from the contact, 3.1e-11 off the cylinder: issue
 * 16, seed 27); the nearest point of one shape to the other's centre lies at the foot of the
 * perpendicular from it, which a cap, a side or a rim touching a face or an edge has in the
 * contact. Cores loaded, solver frame. At most two more runs of the projections.
 */
function centreStarts(): void {
  lengthInto(pairBInA.translation, 0);
  lengthInto(polishBest, 1);
  const slack = SEAT_SLACK * Math.max(sizeIo[0], sizeIo[1], shiftIo[1]);
  for (let side = 0; side < 2 && polishIo[0] > slack; side++) {
    // B's centre onto A, then A's onto B.
    if (side === 0) vec3.copy(polishP, pairBInA.translation);
    else if (shiftIo[0] !== 0) vec3.negate(polishP, shiftA);
    else vec3.set(polishP, 0, 0, 0);
    polishFrom(side);
  }
}

/**
 * The alternating projections of the polish restarted from polishP (solver frame) on `side`,
 * their pair kept where it is closer than the best so far, else the best restored. Cores loaded.
 */
function polishFrom(side: number): void {
  vec3.copy(centreBest, polishBest);
  vec3.copy(centreBestQ, polishBestQ);
  centreIo[0] = polishIo[0];
  centreIo[1] = polishIo[1];
  alternateProjections(side, TOUCH_POLISH_ITERATIONS, 1);
  if (polishIo[0] < centreIo[0]) return;
  vec3.copy(polishBest, centreBest);
  vec3.copy(polishBestQ, centreBestQ);
  polishIo[0] = centreIo[0];
  polishIo[1] = centreIo[1];
}

const planeFrom = vec3.create();
const planeN = vec3.create();
const planeE1 = vec3.create();
const planeE2 = vec3.create();
const planeC = vec3.create();
const edgeCorners: Vec3[] = [vec3.create(), vec3.create(), vec3.create()];
const edgeGjk = makeGjkResult();
const edgeSeg = new SegmentSupport();

/**
 * At a touch still off by more than SEAT_SLACK after {@link centreStarts}, of a curved shape on
 * a polytope's face, edge or vertex (GJK's simplex of the pair's polytope point projected onto
 * it): candidates on the polytope from that feature — the curved shape's support point toward a
 * face (its deepest point there), taken onto the polytope, each edge's point nearest the curved
 * shape (GJK of the edge against its core, and the exact search along it, {@link
 * edgeOnRevolution}), a vertex itself — each kept with its projection onto the curved shape
 * where that pair is closer. A cap or a slant nearly parallel to the face makes the projections
 * cycle in steps of θ² of the gap, below the rounding of the coordinates, beside the edge the
 * shapes touch at (issue 16, seed 47: a cone's base 7.8e-3 rad from a box mesh's face at size
 * 3e-6, touching its edge; the face's point left 1.2e-16 from the edge, 3.5e-19 off the cone,
 * where the bar is 1.3e-19; the edge's point 6.5e-20). The polytope's point may lie on an edge
 * (a simplex of two: that edge alone) or a corner (one: that corner). An edge that crosses the
 * curved core (GJK: intersecting, its witnesses no point of the crossing) gives its point deepest
 * in the curved shape ({@link deepestOnEdge}): a cylinder's side tangent to a mesh box's bottom
 * edge (6e-3 rad from the bottom face), its rim crossing the edge 6e-10 deep, whose projections
 * stalled 1.2e-5 along the edge, 4.7e-7 off the box at size 1.2e6 (issue 16, seed 60). Cores
 * loaded, solver frame. At most three GJK runs on a segment, three edge searches (80 exact
 * projections each), three exact searches along a segment ({@link edgeOnRevolution}) and eleven
 * point projections, only at such touches.
 */
function faceFeatureStarts(): void {
  lengthInto(pairBInA.translation, 0);
  lengthInto(polishBest, 1);
  const slack = SEAT_SLACK * Math.max(sizeIo[0], sizeIo[1], shiftIo[1]);
  if (!(polishIo[0] > slack)) return;
  const curvedSide = curved(coreB.shape) ? 1 : curved(coreA.shape) ? 0 : -1;
  if (curvedSide < 0) return;
  const side = 1 - curvedSide;
  const core = side === 1 ? coreB : coreA;
  if (!isPolytope(core.shape) || core.margin !== 0) return;
  vec3.copy(planeFrom, polishIo[1] === side ? polishBest : polishBestQ);
  projectOnto(polishQ, side, planeFrom);
  const sx = touchGjk.simplex;
  const count = sx.count;
  if (count < 1 || count > 3) return;
  for (let i = 0; i < count; i++) vec3.copy(edgeCorners[i], side === 1 ? sx.b[i] : sx.a[i]);
  if (count === 1) {
    // A vertex: the point itself.
    vec3.copy(planeFrom, edgeCorners[0]);
    keepPolytopePoint(side, curvedSide);
    return;
  }
  const c0 = edgeCorners[0];
  if (count === 3) {
    vec3.sub(planeE1, edgeCorners[1], c0);
    vec3.sub(planeE2, edgeCorners[2], c0);
    vec3.cross(planeN, planeE1, planeE2);
  }
  if (count === 3 && tryNormalizeScaled(planeN, planeN)) {
    // Toward the polytope: away from the curved shape's centre's side of the face.
    if (curvedSide === 1) vec3.copy(planeC, pairBInA.translation);
    else fromLocalA(planeC, vec3.set(planeC, 0, 0, 0));
    vec3.sub(planeC, planeC, c0);
    if (vec3.dot(planeN, planeC) > 0) vec3.negate(planeN, planeN);
    const curvedCore = curvedSide === 1 ? coreB : coreA;
    if (curvedSide === 1) coreBInA.support(planeC, planeN);
    else coreA.support(planeC, planeN);
    vec3.addScaled(planeC, planeC, planeN, curvedCore.margin);
    projectOnto(planeFrom, side, planeC);
    keepPolytopePoint(side, curvedSide);
  }
  // A face's three edges, or the edge the point projects onto (a curved shape touching a
  // triangle's edge at a shallow angle: the projections crawled along it, 4.5e-10 off the
  // triangle beside a cone of 750; issue 16).
  const edges = count === 3 ? 3 : 1;
  for (let i = 0; i < edges; i++) {
    const p = edgeCorners[i];
    const q = edgeCorners[i === 2 ? 0 : i + 1];
    featureEdge(p, q, side, curvedSide);
    edgeOnRevolution(curvedSide, p, q);
    keepPolytopePoint(side, curvedSide);
  }
}

const edgeLocalP = vec3.create();
const edgeLocalQ = vec3.create();
const edgeSearch = makeSegmentRevolutionResult();

/**
 * planeFrom = the point of segment p–q (solver frame) nearest the curved core on side
 * `curvedSide`, by the exact search along the segment in the core's frame
 * (src/geometry/revolution.ts `closestSegmentRevolution`: bisection on the sign of the signed
 * distance's derivative, which stays reliable where the distance is too flat to compare, as
 * along an edge crossing the surface at a shallow angle), then placed on the segment in the
 * solver's frame (so it stays on the polytope). Cores loaded.
 */
function edgeOnRevolution(curvedSide: number, p: Vec3, q: Vec3): void {
  const core = curvedSide === 1 ? coreB : coreA;
  const rc = revolutionCore(core.shape);
  if (rc === null) return;
  const rev = shapeDef(rc.type).revolution as Revolution;
  rev.dims(revDims, rc);
  if (curvedSide === 1) {
    iso.inverseTransformPoint(edgeLocalP, pairBInA, p);
    iso.inverseTransformPoint(edgeLocalQ, pairBInA, q);
  } else {
    toLocalA(edgeLocalP, p);
    toLocalA(edgeLocalQ, q);
  }
  const h = revDims[0] * core.scale;
  const r = revDims[1] * core.scale;
  closestSegmentRevolution(edgeSearch, rev.kind, h, r, edgeLocalP, edgeLocalQ);
  const t = edgeSearch.t;
  if (t === 0) vec3.copy(planeFrom, p);
  else if (t === 1) vec3.copy(planeFrom, q);
  else {
    planeFrom.x = p.x + t * (q.x - p.x);
    planeFrom.y = p.y + t * (q.y - p.y);
    planeFrom.z = p.z + t * (q.z - p.z);
  }
}

/**
 * The polytope edge p→q's point nearest the curved shape (GJK of the edge against its core) or,
 * when the edge crosses the core, its point deepest in the curved shape, offered to the polish's
 * best pair ({@link keepPolytopePoint}). Solver frame, cores loaded.
 */
function featureEdge(p: Vec3, q: Vec3, side: number, curvedSide: number): void {
  edgeSeg.reset(p, q);
  gjkLimit[0] = Number.POSITIVE_INFINITY;
  if (curvedSide === 1) gjkToLimit(edgeGjk, edgeSeg, coreBInA, solvedNormal);
  else gjkToLimit(edgeGjk, coreA, edgeSeg, solvedNormal);
  if (edgeGjk.status === GjkStatus.Intersecting) deepestOnEdge(p, q, curvedSide);
  else vec3.copy(planeFrom, curvedSide === 1 ? edgeGjk.pointA : edgeGjk.pointB);
  keepPolytopePoint(side, curvedSide);
}

/** [0] {@link curvedSignedGap}'s answer, solver units. */
const signedIo = new Float64Array(1);
const edgeProbe = vec3.create();

/**
 * signedIo[0] = the signed distance of point `p` (solver frame) from the curved shape on `side`
 * (its revolution core's exact projection, src/geometry/revolution.ts, less the margin;
 * negative inside). Cores loaded; the side's core is a solid of revolution.
 */
function curvedSignedGap(side: number, p: Vec3): void {
  const core = side === 1 ? coreB : coreA;
  const rc = revolutionCore(core.shape) as ConvexShape;
  const rev = shapeDef(rc.type).revolution as Revolution;
  rev.dims(revDims, rc);
  if (side === 1) iso.inverseTransformPoint(snapLocal, pairBInA, p);
  else toLocalA(snapLocal, p);
  revolutionDims[0] = revDims[0] * core.scale;
  revolutionDims[1] = revDims[1] * core.scale;
  projectRevolutionDims(revProj, rev.kind, snapLocal);
  signedIo[0] = revProj.distance - core.margin;
}

/**
 * planeFrom = the point of segment p→q deepest in the curved shape on `curvedSide`: the least
 * signed distance, by golden-section search (the signed distance from a convex solid is convex,
 * so along a segment unimodal; Kiefer 1953). {@link EDGE_SEARCH_STEPS} steps shrink the interval
 * below the rounding of the parameter. Solver frame, cores loaded.
 */
function deepestOnEdge(p: Vec3, q: Vec3, curvedSide: number): void {
  let lo = 0;
  let hi = 1;
  let x1 = hi - GOLDEN * (hi - lo);
  let x2 = lo + GOLDEN * (hi - lo);
  vec3.lerp(edgeProbe, p, q, x1);
  curvedSignedGap(curvedSide, edgeProbe);
  let f1 = signedIo[0];
  vec3.lerp(edgeProbe, p, q, x2);
  curvedSignedGap(curvedSide, edgeProbe);
  let f2 = signedIo[0];
  for (let i = 0; i < EDGE_SEARCH_STEPS; i++) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - GOLDEN * (hi - lo);
      vec3.lerp(edgeProbe, p, q, x1);
      curvedSignedGap(curvedSide, edgeProbe);
      f1 = signedIo[0];
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + GOLDEN * (hi - lo);
      vec3.lerp(edgeProbe, p, q, x2);
      curvedSignedGap(curvedSide, edgeProbe);
      f2 = signedIo[0];
    }
  }
  vec3.lerp(planeFrom, p, q, f1 <= f2 ? x1 : x2);
}

/** The golden ratio's conjugate (√5 − 1)/2: the interval kept per step of {@link deepestOnEdge}. */
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** Steps of {@link deepestOnEdge}: 0.618^80 ≈ 2e-17, below a double's relative rounding. */
const EDGE_SEARCH_STEPS = 80;

/** planeFrom (a point of the polytope `side`) and its projection onto the curved side, as the polish's best pair when closer. */
function keepPolytopePoint(side: number, curvedSide: number): void {
  projectOnto(polishQ, curvedSide, planeFrom);
  if (!(projectIo[0] < polishIo[0])) return;
  polishIo[0] = projectIo[0];
  polishIo[1] = side;
  vec3.copy(polishBest, planeFrom);
  vec3.copy(polishBestQ, polishQ);
}

/** [0] the least gap {@link alternateProjections} found (solver units), [1] the side of polishBest. */
const polishIo = new Float64Array(2);

/**
 * Alternating projections between the two shapes (von Neumann; Bauschke & Borwein 1996: for two
 * convex sets the pairs converge to a pair of nearest points, a common point when the sets
 * meet), from polishP (solver frame), first onto shape `on` (0 A, 1 B) when `first` is 1, else
 * polishP taken as on it: at most `iterations` projections, stopping after TOUCH_POLISH_STALLS
 * without a smaller gap (rounding reached) or at a common point. Near a crossing of the
 * boundaries at a shallow angle the projections converge linearly and slowly: every second cycle
 * is extrapolated along its steps (Aitken's Δ² by vectors) and taken back onto the shape. Leaves
 * the pair of least gap in polishBest (on side polishIo[1]) and polishBestQ (on the other), the
 * gap in polishIo[0]. The curved shapes project exactly (src/geometry/revolution.ts), the others
 * by GJK from the point ({@link projectOnto}). Cores loaded. Allocates nothing.
 */
function alternateProjections(on: number, iterations: number, first: number): void {
  if (first !== 0) {
    projectOnto(polishQ, on, polishP);
    vec3.copy(polishP, polishQ);
  }
  let side = on;
  let best = Number.POSITIVE_INFINITY;
  let bestSide = on;
  let stalls = 0;
  // The points on `on`'s shape after each full cycle (polishH0, polishH1: the last two) for
  // the extrapolation, `cycles` of them since the last one.
  let cycles = 0;
  for (let it = 0; it < iterations; it++) {
    projectOnto(polishQ, 1 - side, polishP);
    const gap = projectIo[0];
    if (gap < best) {
      best = gap;
      bestSide = side;
      vec3.copy(polishBest, polishP);
      vec3.copy(polishBestQ, polishQ);
      stalls = 0;
    } else if (++stalls >= TOUCH_POLISH_STALLS) break;
    if (!(gap > 0)) break;
    vec3.copy(polishP, polishQ);
    side = 1 - side;
    if (side !== on) continue;
    // Near a shallow crossing the cycles shrink by a ratio c close to 1 along one direction:
    // x* ≈ x₂ + (x₂ − x₁)·c/(1 − c), taken back onto the shape.
    if (cycles >= 2) {
      vec3.sub(polishD1, polishH1, polishH0);
      vec3.sub(polishD2, polishP, polishH1);
      // (Lengths through sizeIo[6], [7] and the step written out: a double crossing a call V8
      // does not inline is boxed.)
      lengthInto(polishD1, 6);
      lengthInto(polishD2, 7);
      const l1 = sizeIo[6];
      const l2 = sizeIo[7];
      const c = l2 / l1;
      if (c > 0 && c < 1 && vec3.dot(polishD1, polishD2) >= TOUCH_POLISH_ALIGNED * l1 * l2) {
        const f = c / (1 - c);
        polishQ.x = polishP.x + polishD2.x * f;
        polishQ.y = polishP.y + polishD2.y * f;
        polishQ.z = polishP.z + polishD2.z * f;
        projectOnto(polishP, on, polishQ);
        cycles = 0;
      }
    }
    // Written out: the shared vec3.copy's stores can be generic calls boxing the coordinates.
    polishH0.x = polishH1.x;
    polishH0.y = polishH1.y;
    polishH0.z = polishH1.z;
    polishH1.x = polishP.x;
    polishH1.y = polishP.y;
    polishH1.z = polishP.z;
    cycles++;
  }
  polishIo[0] = best;
  polishIo[1] = bestSide;
}

/** Projections of {@link polishWitnesses}, at most. */
const TOUCH_POLISH_ITERATIONS = 24;

/** Cosine above which two cycles of {@link alternateProjections} run along one direction (extrapolated). */
const TOUCH_POLISH_ALIGNED = 0.99;

/** Projections without a smaller gap after which {@link alternateProjections} stops (rounding reached). */
const TOUCH_POLISH_STALLS = 3;

/**
 * out = the point of the shape on `side` (0 A, 1 B, with its margin) nearest to p, solver frame,
 * and projectIo[0] its distance from p (p itself and 0 inside): a cylinder's or cone's exact
 * projection, a box's clamp to its half extents, else GJK from the point to the core. Cores
 * loaded.
 */
function projectOnto(out: Vec3, side: number, p: Vec3): void {
  const core = side === 1 ? coreB : coreA;
  const rc = revolutionCore(core.shape);
  if (rc !== null) {
    const rev = shapeDef(rc.type).revolution as Revolution;
    rev.dims(revDims, rc);
    if (side === 1) iso.inverseTransformPoint(snapLocal, pairBInA, p);
    else toLocalA(snapLocal, p);
    // The solid's sizes through revolutionDims: doubles passed to a call V8 does not inline are boxed.
    revolutionDims[0] = revDims[0] * core.scale;
    revolutionDims[1] = revDims[1] * core.scale;
    projectRevolutionDims(revProj, rev.kind, snapLocal);
    if (!(revProj.distance > core.margin)) {
      vec3.copy(out, p);
      projectIo[0] = 0;
      return;
    }
    const m = core.margin;
    revQ.x = revProj.point.x + revProj.normal.x * m;
    revQ.y = revProj.point.y + revProj.normal.y * m;
    revQ.z = revProj.point.z + revProj.normal.z * m;
    if (side === 1) iso.transformPoint(out, pairBInA, revQ);
    else fromLocalA(out, revQ);
  } else if (core.shape.type === ShapeType.Cuboid) {
    // A box: clamped to its half extents in its own frame, exact to the rounding of the frame's
    // change. GJK from the point stops at its rounding level, 1e-13 of the box's support points:
    // an apex 2.4e-11 inside a box of 1.2e4 went 3.5e-10 off the cone (issue 16).
    if (side === 1) iso.inverseTransformPoint(snapLocal, pairBInA, p);
    else toLocalA(snapLocal, p);
    const h = core.shape.halfExtents;
    const k = core.scale;
    const hx = h.x * k;
    const hy = h.y * k;
    const hz = h.z * k;
    const x = snapLocal.x;
    const y = snapLocal.y;
    const z = snapLocal.z;
    revQ.x = Math.max(-hx, Math.min(x, hx));
    revQ.y = Math.max(-hy, Math.min(y, hy));
    revQ.z = Math.max(-hz, Math.min(z, hz));
    if (revQ.x === x && revQ.y === y && revQ.z === z) {
      vec3.copy(out, p);
      projectIo[0] = 0;
      return;
    }
    if (side === 1) iso.transformPoint(out, pairBInA, revQ);
    else fromLocalA(out, revQ);
  } else {
    touchPoint.reset(p, p);
    gjkLimit[0] = Number.POSITIVE_INFINITY;
    if (side === 1) gjkToLimit(touchGjk, touchPoint, coreBInA, solvedNormal);
    else gjkToLimit(touchGjk, coreA, touchPoint, solvedNormal);
    if (touchGjk.status === GjkStatus.Intersecting && !touchGjk.roundingContact) {
      vec3.copy(out, p);
      projectIo[0] = 0;
      return;
    }
    const c = side === 1 ? touchGjk.pointB : touchGjk.pointA;
    vec3.sub(revQ, p, c);
    lengthInto(revQ, 1);
    const d = sizeIo[1];
    if (!(d > core.margin)) {
      vec3.copy(out, p);
      projectIo[0] = 0;
      return;
    }
    const f = core.margin / d;
    out.x = c.x + revQ.x * f;
    out.y = c.y + revQ.y * f;
    out.z = c.z + revQ.z * f;
  }
  vec3.sub(revQ, out, p);
  lengthInto(revQ, 1);
  projectIo[0] = sizeIo[1];
}

/** [0] the solver's change of units of the last {@link solve}; [1], [2] {@link pointGap}'s answers. */
const touchIo = new Float64Array(3);
const touchP = vec3.create();
const touchGjk = makeGjkResult();
const touchPoint = new SegmentSupport();

/**
 * touchIo[at] = the distance of point p (see {@link touchWitnesses} for `scene`) from the shape
 * on side `other` (0 A, 1 B), solver units: GJK from the point to its core, less its margin; 0
 * inside. Cores loaded.
 */
function pointGap(p: Vec3, other: number, scene: number, at: number): void {
  if (scene !== 0) {
    // Written out: the factor, a double, passed to a call V8 does not inline would be boxed.
    const k = touchIo[0];
    touchP.x = p.x * k;
    touchP.y = p.y * k;
    touchP.z = p.z * k;
    if (shiftIo[0] !== 0) vec3.sub(touchP, touchP, shiftA);
  } else vec3.copy(touchP, p);
  touchPoint.reset(touchP, touchP);
  gjkLimit[0] = Number.POSITIVE_INFINITY;
  if (other === 1) gjkToLimit(touchGjk, touchPoint, coreBInA, solvedNormal);
  else gjkToLimit(touchGjk, coreA, touchPoint, solvedNormal);
  // |pA − pB| of GJK's witnesses, also when it called the point in contact at its rounding
  // level (1e-13 of the support points' magnitude: 4.4e-10 beyond a box's face at size 5e3).
  if (touchGjk.status === GjkStatus.Intersecting && !touchGjk.roundingContact) {
    touchIo[at] = 0;
    return;
  }
  vec3.sub(touchP, touchGjk.pointA, touchGjk.pointB);
  lengthInto(touchP, 1);
  const d = sizeIo[1] - (other === 1 ? coreB.margin : coreA.margin);
  touchIo[at] = Math.max(d, 0);
}

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
 * Certified bounds on the full signed distance s of the pair {@link solve} answers, in the
 * solver's units until it scales them: [0] a lower bound, [1] an upper bound. s = −min over unit n
 * of the overlap h_A(n) + h_B(−n) + rA + rB (gap or depth alike), so the overlap along any
 * direction gives a lower bound (the reported normal's: {@link lowerBound}); an upper bound is
 * a point of the Minkowski difference — GJK's closest point, |v| − r — or, when the cores
 * intersect, minus the depth of the origin in EPA's polytope (its vertices are support points,
 * so it lies inside the difference: its closest face is a lower bound on the depth), else −r
 * (GJK's simplex holds the origin). Set by {@link solveLoaded} ([1]) and {@link lowerBound} ([0]).
 */
const boundIo = new Float64Array(2);

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

/** [0] 1 when the last {@link solveLoaded} took a gap from SAT at EPA's floor (two polytopes). */
const satGapIo = new Float64Array(1);

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
      quat.inverseRotate(depthLocal, bInA.rotation, depthLocal);
    } else vec3.copy(depthLocal, w);
    rev.dims(revolutionDims, solid);
    projectRevolutionDims(depthProj, rev.kind, depthLocal);
    if (depthProj.distance < boundIo[1]) boundIo[1] = depthProj.distance;
  }
}

/** {@link solve} on the cores as loaded by {@link loadPair} (B at `bInA`, in the solver's units). */
function solveLoaded(a: ConvexShape, b: ConvexShape, bInA: Isometry, maxGap: number): boolean {
  const rA = coreA.margin;
  const rB = coreB.margin;
  const r = rA + rB;
  vec3.copy(initDir, pairOffset);
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
    vec3.copy(unprovenNormal, refined.normal);
    vec3.copy(unprovenA, refined.pointA);
    placedIo[1] = refined.placed;
    vec3.copy(unprovenB, refined.pointB);
  }
  if (!deep && !unproven && gjkOut.status === GjkStatus.Separated && gjkOut.distance > 0) {
    vec3.copy(solvedNormal, gjkOut.direction);
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
  vec3.copy(solvedNormal, epaOut.normal);
  vec3.copy(solvedA, epaOut.pointA);
  vec3.copy(solvedB, epaOut.pointB);
  if (epaOut.status !== EpaStatus.Converged && epaOut.status !== EpaStatus.Flat) {
    // EPA's best face is a lower bound; take a guaranteed upper bound (a separating direction).
    overlapInto(solvedNormal);
    depth = overlapIo[0];
    if (polytopes) {
      satDepth(a, b, bInA);
      const sat = satIo[0];
      if (sat < depth) {
        depth = sat;
        vec3.copy(solvedNormal, fallbackNormal);
      }
    } else {
      // Refine EPA's normal, and independently the best of the sampled directions.
      vec3.copy(fallbackNormal, solvedNormal);
      // Through refineIo (a double returned by a call V8 does not inline is tagged, and merged
      // into `depth` it would box every depth on the common path too).
      refineIo[0] = depth;
      refineDirection();
      depth = refineIo[0];
      vec3.copy(solvedNormal, fallbackNormal);
      sampledDepth(bInA);
      const sampled = refineIo[0];
      if (sampled < depth) {
        depth = sampled;
        vec3.copy(solvedNormal, fallbackNormal);
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
          vec3.copy(solvedNormal, refined.normal);
          vec3.copy(solvedA, refined.pointA);
          vec3.copy(solvedB, refined.pointB);
          depth = refined.overlap;
        } else if (sat < depth) {
          vec3.copy(solvedNormal, fallbackNormal);
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
      vec3.copy(solvedNormal, refined.normal);
      vec3.copy(solvedA, refined.pointA);
      vec3.copy(solvedB, refined.pointB);
      placedIo[0] = refined.placed;
    }
  }
  // EPA's answer from a sliver simplex only where clearly less (its flat-polytope witnesses can
  // lie far from the contact on a tie).
  if (unproven) simplexSize(gjkOut.simplex);
  if (unproven && !(depth < unprovenIo[0] - UNPROVEN_SLACK * sizeIo[0])) {
    depth = unprovenIo[0];
    vec3.copy(solvedNormal, unprovenNormal);
    vec3.copy(solvedA, unprovenA);
    placedIo[0] = placedIo[1];
    vec3.copy(solvedB, unprovenB);
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
  vec3.sub(featureDir, gjkOut.pointA, gjkOut.pointB);
  lengthInto(featureDir, 1);
  if (sizeIo[1] - sep <= tol && Math.abs(gjkOut.distance - sep) <= tol) return;
  simplexFeatureIo[0] = tol;
  polytopeFeatureGap(featurePA, featurePB, featureDir, gjkOut.simplex, coreA, coreBInA);
  const d = simplexFeatureIo[0];
  if (!(d < Number.POSITIVE_INFINITY)) return;
  const rA = coreA.margin;
  const rB = coreB.margin;
  solvedIo[0] = d - rA - rB;
  vec3.copy(solvedNormal, featureDir);
  vec3.addScaled(solvedA, featurePA, featureDir, rA);
  vec3.addScaled(solvedB, featurePB, featureDir, -rB);
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
  vec3.sub(polishD, gjkOut.pointA, gjkOut.pointB);
  lengthInto(polishD, 1);
  return sizeIo[1] - r > touch;
}

const unprovenIo = new Float64Array(1);
const unprovenNormal = vec3.create(1, 0, 0);
const unprovenA = vec3.create();
const unprovenB = vec3.create();

const sA = vec3.create();
const sB = vec3.create();
const negN = vec3.create();
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

/** [0] {@link simplexSize}'s answer, [1] and [2] lengths of {@link lengthInto}; [3]–[5] {@link snapToFaceNormal}'s lengths, [6], [7] {@link alternateProjections}', [8], [9] {@link featureWitnesses}' and {@link revolutionFixedPoint}'s. */
const sizeIo = new Float64Array(10);

/** sizeIo[i] = |a| as `vec3.length` (hypot3) computes it, its common case inline. */
function lengthInto(a: Vec3, i: number): void {
  const x = a.x;
  const y = a.y;
  const z = a.z;
  const s = x * x + y * y + z * z;
  if (s > HYPOT_SAFE_MIN && s < HYPOT_SAFE_MAX) sizeIo[i] = Math.sqrt(s);
  // A zero vector (an origin, a pair at the identity) answered here: hypot3's call would box
  // its three coordinates when V8 does not inline it (27 KB per step in the mesh probe once).
  else if (x === 0 && y === 0 && z === 0) sizeIo[i] = 0;
  else sizeIo[i] = hypot3(x, y, z);
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
  vec3.sub(polishD, gjkOut.pointA, gjkOut.pointB);
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
  if (refined.gradient > GJK_POLISH_GRADIENT * size) {
    // Not facing: GJK's witnesses kept (|pA − pB| the upper bound), but never a gap below the
    // certified lower bound found, with the normal that attains it.
    if (gap > solvedIo[0] && gap + r <= far) {
      solvedIo[0] = gap;
      vec3.copy(solvedNormal, refined.normal);
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
      vec3.copy(solvedNormal, refined.normal);
    }
    return;
  }
  solvedIo[0] = gap;
  vec3.copy(solvedNormal, refined.normal);
  vec3.addScaled(solvedA, refined.pointA, solvedNormal, coreA.margin);
  vec3.addScaled(solvedB, refined.pointB, solvedNormal, -coreB.margin);
  // Facing support points are points of the cores: their distance bounds the gap from above as
  // GJK's witnesses do, tighter once refined (boundIo, recordError).
  vec3.sub(polishD, refined.pointA, refined.pointB);
  lengthInto(polishD, 0);
  if (sizeIo[0] - r < boundIo[1]) boundIo[1] = sizeIo[0] - r;
}

const snapN = vec3.create();
const snapC = vec3.create();
const snapLocal = vec3.create();
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
    if (side === 0) vec3.copy(snapLocal, n);
    else {
      quat.conjugate(invRot, bInA.rotation);
      quat.rotate(snapLocal, invRot, n);
    }
    for (let i = 0; i < count; i++) {
      // The faces of a polytope; the caps' normal of a solid of revolution (local ±Y).
      if (ps !== null && i < faces)
        (shapeDef(ps.type).polytope as PolytopeAxes).faceNormal(snapC, ps, i);
      else vec3.set(snapC, 0, 1, 0);
      lengthInto(snapC, 5);
      const l = sizeIo[5];
      if (!(l > 0)) continue;
      const c = (snapC.x * snapLocal.x + snapC.y * snapLocal.y + snapC.z * snapLocal.z) / l;
      if (Math.abs(c) < FACE_SNAP_COS) continue;
      const k = (c > 0 ? 1 : -1) / l;
      snapC.x *= k;
      snapC.y *= k;
      snapC.z *= k;
      if (side === 1) quat.rotate(snapC, bInA.rotation, snapC);
      tryNormalizeScaled(snapC, snapC);
      overlapInto(snapC);
      const o = overlapIo[0];
      if (o <= best) {
        best = o;
        vec3.copy(snapN, snapC);
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
  const f0 = overlapIo[0];
  witnessScale();
  if (!(f0 - axisIo[1] > TOUCH_TOLERANCE * sizeIo[0])) return;
  epaAnswerSupports(axisFaceA, axisFaceB);
  axisIo[0] = f0;
  vec3.copy(axisBest, solvedNormal);
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
      vec3.cross(axisC, axisP, axisQ);
      tryExactAxis();
    }
  }
  if (!(axisIo[0] < f0)) {
    // No candidate below EPA's normal's overlap: that overlap is the depth (attained along the
    // normal), EPA's own depth being its face's plane rounded at the support points' magnitude
    // (a box of 1e-6 inside a hull of 1e6, EPA 1.06e-7 shallower than its normal's overlap).
    // Its witnesses placed along it as the candidates' are (EPA's span its own depth).
    setOverlapNormal(refined, coreA, coreBInA, solvedNormal, solvedA, solvedB);
    vec3.copy(solvedA, refined.pointA);
    vec3.copy(solvedB, refined.pointB);
    placedIo[0] = refined.placed;
    axisIo[1] = refined.overlap;
    return;
  }
  setOverlapNormal(refined, coreA, coreBInA, axisBest, solvedA, solvedB);
  snapToFaceNormal(a, b, bInA, solvedA, solvedB);
  vec3.copy(solvedNormal, refined.normal);
  vec3.copy(solvedA, refined.pointA);
  vec3.copy(solvedB, refined.pointB);
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
  vec3.cross(axisC, axisP, axisQ);
  tryExactAxis();
}

/**
 * Takes axisC, turned toward the solved normal and normalised, into axisBest when its overlap is
 * below axisIo[0] (a zero or non-finite axis, three corners in line, is skipped).
 */
function tryExactAxis(): void {
  if (vec3.dot(axisC, solvedNormal) < 0) vec3.negate(axisC, axisC);
  if (!tryNormalizeScaled(axisC, axisC)) return;
  overlapInto(axisC);
  const o = overlapIo[0];
  if (o < axisIo[0]) {
    axisIo[0] = o;
    vec3.copy(axisBest, axisC);
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
 * {@link ridgeDirection}'s azimuth; [6] {@link ridgeCertify}'s solid: 0 none, 1 A, 2 B; [7] the
 * circle's least overlap so far, [8] its azimuth; [9] the first sample's azimuth.
 */
const ridgeIo = new Float64Array(10);
/** The solid's centre (solver frame) when ridgeIo[6] is not 0. */
const ridgeC = vec3.create();
/** [0] a bounding radius of {@link searchRevolutionRidges}. */
const ridgeRadiusIo = new Float64Array(1);

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
    else vec3.copy(ridgeC, bInA.translation);
    if (ridgeMinimum()) {
      best = ridgeIo[3];
      ridgeDirection(ridgeIo[4]);
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
        ridgeDirection(ridgeIo[4]);
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
  faceCopy(refined.normal, ridgeRefined.normal);
  faceCopy(refined.pointA, ridgeRefined.pointA);
  faceCopy(refined.pointB, ridgeRefined.pointB);
  refined.overlap = ridgeRefined.overlap;
  refined.gradient = ridgeRefined.gradient;
  refined.step = ridgeRefined.step;
}

const ridgeRefined = makeNormalRefinement();

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
  if (!(best < refined.overlap)) return;
  rimIo[2] = rimBestIo[0];
  rimIo[3] = rimBestIo[1];
  rimOverlap();
  setOverlapNormal(refined, coreA, coreBInA, rimW, rimP0, rimP1);
}

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
    const g1 = rA * vec3.dot(rimW, rimT0);
    const g2 = -rB * vec3.dot(rimW, rimT1);
    const h11 = rA * rA - rA * vec3.dot(rimW, rimR0);
    const h22 = rB * rB + rB * vec3.dot(rimW, rimR1);
    const h12 = -rA * rB * vec3.dot(rimT0, rimT1);
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
  if (vec3.dot(rimW, refined.normal) < 0) faceNegate(rimW, rimW);
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
/** [0], [1] the rims' radii (solver units); [2], [3] their azimuths. */
const rimIo = new Float64Array(4);

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
    quat.conjugate(invRot, bInA.rotation);
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
    iso.transformPoint(c, bInA, c);
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
 * ridgeN = the unit normal (A → B, A's frame) at azimuth φ on the circle of ridgeIo and
 * ridgeTan = dn/dφ, from the solid's axes ridgeX, ridgeY, ridgeZ.
 */
function ridgeDirection(phi: number): void {
  ridgeIo[5] = phi;
  ridgeDirectionIo();
}

/** {@link ridgeDirection} of the azimuth ridgeIo[5] (a double argument of a call V8 does not inline is boxed). */
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
  const phi0 = Math.atan2(
    sgn * vec3.dot(refined.normal, ridgeZ),
    sgn * vec3.dot(refined.normal, ridgeX),
  );
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

const revProj = makeRevolutionProjection();
/** A solid of revolution's half height and radius ({@link Revolution.dims}). */
const revDims = new Float64Array(2);
const revDimsB = new Float64Array(2);
const revQ = vec3.create();
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

/** out = solver-frame point p in A's local frame (solver units): p + shiftA when shifted. */
function toLocalA(out: Vec3, p: Vec3): void {
  if (shiftIo[0] !== 0) vec3.add(out, p, shiftA);
  else vec3.copy(out, p);
}

/** out = A's local point p (solver units) in the solver's frame: p − shiftA when shifted. */
function fromLocalA(out: Vec3, p: Vec3): void {
  if (shiftIo[0] !== 0) vec3.sub(out, p, shiftA);
  else vec3.copy(out, p);
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
  vec3.sub(revQ, pb, pa);
  vec3.addScaled(revQ, revQ, n, -vec3.dot(revQ, n));
  const f = Math.abs(refined.overlap);
  lengthInto(revQ, 8);
  if (!(sizeIo[8] > TOUCH_SIDEWAYS * size) || !(f <= TOUCH_SIDEWAYS * size)) return;
  const core = side === 1 ? coreB : coreA;
  rev.dims(revDims, rc);
  if (side === 1) {
    iso.invert(revInv, bInA);
    iso.transformPoint(snapLocal, revInv, pa);
  } else toLocalA(snapLocal, pb);
  revolutionDims[0] = revDims[0] * core.scale;
  revolutionDims[1] = revDims[1] * core.scale;
  projectRevolutionDims(revProj, rev.kind, snapLocal);
  if (!(Math.abs(revProj.distance) <= 2 * f + FACE_SNAP_SLACK * size)) return;
  if (side === 1) iso.transformPoint(revQ, bInA, revProj.point);
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
    if (side === 1) iso.transformPoint(snapLocal, revInv, revQ);
    else toLocalA(snapLocal, revQ);
    projectRevolutionDims(revProj, rev.kind, snapLocal);
    if (!(Math.abs(revProj.distance) <= tol)) return;
  }
  if (side === 1) vec3.copy(pb, revQ);
  else vec3.copy(pa, revQ);
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
    const t = vec3.dot(dir, this.axis);
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
    if (!(l > 0)) return vec3.copy(out, this.center);
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
    quat.conjugate(invRot, bInA.rotation);
    quat.rotate(featureD, invRot, n);
    vec3.negate(featureD, featureD);
  } else vec3.copy(featureD, n);
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
    vec3.set(featureN, 0, d.y < 0 ? -1 : 1, 0);
    featureDisc.center.x = 0;
    featureDisc.center.y = d.y < 0 ? -h : h;
    featureDisc.center.z = 0;
    vec3.set(featureDisc.axis, 0, 1, 0);
    featureDisc.radius = r;
    if (side === 1) {
      iso.transformPoint(featureDisc.center, bInA, featureDisc.center);
      quat.rotate(featureDisc.axis, bInA.rotation, featureDisc.axis);
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
      iso.transformPoint(featureP, bInA, featureP);
      iso.transformPoint(featureQ, bInA, featureQ);
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
    quat.rotate(featureN, bInA.rotation, featureN);
    vec3.negate(featureN, featureN);
  }
  if (!tryNormalizeScaled(featureN, featureN)) return;
  overlapInto(featureN);
  const snapped = overlapIo[0];
  if (snapped <= refined.overlap + FACE_SNAP_SLACK * size) {
    vec3.copy(refined.normal, featureN);
    refined.overlap = snapped;
  }
  // Moved onto the far side of the other shape's supporting plane by the clearance.
  const clear = FEATURE_CLEARANCE * size;
  const f = refined.overlap;
  const shift = side === 0 ? -(f + clear) : f + clear;
  featureShift.x = n.x * shift;
  featureShift.y = n.y * shift;
  featureShift.z = n.z * shift;
  if (map === featureDisc) vec3.add(featureDisc.center, featureDisc.center, featureShift);
  else {
    vec3.add(featureSeg.a, featureSeg.a, featureShift);
    vec3.add(featureSeg.b, featureSeg.b, featureShift);
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
    vec3.sub(refined.pointA, featureGjk.pointA, featureShift);
    vec3.copy(refined.pointB, featureGjk.pointB);
  } else {
    vec3.copy(refined.pointA, featureGjk.pointA);
    vec3.sub(refined.pointB, featureGjk.pointB, featureShift);
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
  vec3.copy(refined.normal, solvedNormal);
  vec3.scale(refined.pointA, solvedA, k);
  vec3.scale(refined.pointB, solvedB, k);
  if (shiftIo[0] !== 0) {
    vec3.sub(refined.pointA, refined.pointA, shiftA);
    vec3.sub(refined.pointB, refined.pointB, shiftA);
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
    vec3.add(refined.pointA, refined.pointA, shiftA);
    vec3.add(refined.pointB, refined.pointB, shiftA);
  }
  const inv = 1 / k;
  // The gap stays the solver's (the features' witnesses are apart by it along the normal).
  vec3.copy(solvedNormal, refined.normal);
  vec3.scale(solvedA, refined.pointA, inv);
  vec3.scale(solvedB, refined.pointB, inv);
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
  if (side === 1) iso.invert(revInv, bInA);
  // q: the other shape's witness, the start of the iteration.
  vec3.copy(revQ, side === 1 ? refined.pointA : refined.pointB);
  let found = false;
  let best = Number.POSITIVE_INFINITY;
  for (let it = 0; it < REVOLUTION_ITERATIONS; it++) {
    // Project q onto the curved shape (its local frame), n = ∓ its outward normal (A → B).
    if (side === 1) iso.transformPoint(snapLocal, revInv, revQ);
    else toLocalA(snapLocal, revQ);
    revolutionDims[0] = h;
    revolutionDims[1] = r;
    projectRevolutionDims(revProj, kind, snapLocal);
    if (side === 1) {
      quat.rotate(revN, bInA.rotation, revProj.normal);
      vec3.negate(revN, revN);
    } else vec3.copy(revN, revProj.normal);
    if (!tryNormalizeScaled(revN, revN)) return;
    // Fixed point: the normal at q's projection is the direction q was the support along.
    // (vec3.dot written out: where V8 does not inline it, its returned double is boxed.)
    const cos = revN.x * revBestN.x + revN.y * revBestN.y + revN.z * revBestN.z;
    if (it > 0 && cos >= REVOLUTION_FIXED_COS && best <= limit) {
      found = true;
      if (side === 1) iso.transformPoint(revBestB, bInA, revProj.point);
      else fromLocalA(revBestA, revProj.point);
      break;
    }
    overlapInto(revN);
    const o = overlapIo[0];
    // Converging: no worse than the last step beyond rounding (the sequence of overlaps falls).
    if (!(o <= Math.min(best, limit) + FACE_SNAP_SLACK * size)) break;
    best = o;
    vec3.copy(revBestN, revN);
    // The other shape's support along the new normal: the next q and its witness.
    if (side === 1) {
      vec3.copy(revQ, sA);
      vec3.copy(revBestA, sA);
    } else {
      vec3.copy(revQ, sB);
      vec3.copy(revBestB, sB);
    }
  }
  if (!found) return;
  vec3.copy(refined.normal, revBestN);
  refined.overlap = best;
  vec3.copy(refined.pointA, revBestA);
  vec3.copy(refined.pointB, revBestB);
  vec3.sub(revQ, revBestA, revBestB);
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
  vec3.sub(polishD1, solvedB, solvedA);
  lengthInto(polishD1, 0);
  let err = Math.abs(sizeIo[0] - d);
  witnessScale();
  if (!(err > TOUCH_TOLERANCE * sizeIo[0])) return;
  // The certified lower bound: the separation along the solved normal, or along that normal
  // taken onto the pair's flat features ({@link flatSeparation}) where more.
  overlapInto(solvedNormal);
  let lower = 0 - overlapIo[0];
  vec3.copy(gapLowerN, solvedNormal);
  flatSeparation(a, b, solvedNormal);
  if (flatIo[0] > lower) {
    lower = flatIo[0];
    vec3.copy(gapLowerN, flatN);
  }
  if (!(lower > 0)) return;
  for (let side = 1; side >= 0; side--) {
    if (!curved(side === 1 ? b : a)) continue;
    // From the other shape's witness, taken as on it.
    vec3.copy(polishP, side === 1 ? solvedA : solvedB);
    alternateProjections(1 - side, GAP_PROJECTIONS, 0);
    // The separation along the pair's own direction too: where the solved normal is off by an
    // angle θ, the separation along it falls short of the distance by about θ²·size, which the
    // pair's direction, near the true normal, does not (issue 16: cones of 1e-4, 1.8e-6 apart,
    // 3.1e-14 short along the solved normal, 3e-18 along the pair's direction); and along it
    // taken onto the flat features. Capped at |p − q| (the two agree but for rounding): still a
    // lower bound.
    if (polishIo[1] === 0) vec3.sub(polishD2, polishBestQ, polishBest);
    else vec3.sub(polishD2, polishBest, polishBestQ);
    let bound = Math.min(lower, polishIo[0]);
    let along = 0;
    if (tryNormalizeScaled(polishD2, polishD2)) {
      overlapInto(polishD2);
      let l = 0 - overlapIo[0];
      flatSeparation(a, b, polishD2);
      if (flatIo[0] > l) {
        l = flatIo[0];
        vec3.copy(polishD2, flatN);
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
    vec3.copy(solvedNormal, along !== 0 ? polishD2 : gapLowerN);
    if (polishIo[1] === 0) {
      vec3.copy(solvedA, polishBest);
      vec3.copy(solvedB, polishBestQ);
    } else {
      vec3.copy(solvedA, polishBestQ);
      vec3.copy(solvedB, polishBest);
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
    vec3.add(generatorPose.translation, t, shiftA);
    quat.copy(generatorPose.rotation, pairBInA.rotation);
  } else {
    vec3.set(generatorPose.translation, 0, 0, 0);
    const q = generatorPose.rotation;
    q.x = 0;
    q.y = 0;
    q.z = 0;
    q.w = 1;
    quat.conjugate(invRot, pairBInA.rotation);
  }
  vec3.copy(generatorU, solvedNormal);
  for (let i = 0; i < GENERATOR_TRIES; i++) {
    // The curved core's outward direction in its own frame.
    if (curvedA) vec3.copy(generatorDir, generatorU);
    else {
      quat.rotate(generatorDir, invRot, generatorU);
      vec3.negate(generatorDir, generatorDir);
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
    if (cone) vec3.set(g.b, 0, h, 0);
    else vec3.set(g.b, g.a.x, h, g.a.z);
    if (!curvedA) {
      quat.rotate(g.a, pairBInA.rotation, g.a);
      quat.rotate(g.b, pairBInA.rotation, g.b);
      vec3.add(g.a, g.a, t);
      vec3.add(g.a, g.a, shiftA);
      vec3.add(g.b, g.b, t);
      vec3.add(g.b, g.b, shiftA);
    }
    vec3.copy(g.c, g.b);
    contactPredictionIo[0] = Number.POSITIVE_INFINITY;
    if (!contactTrianglePolytopeIo(generatorContact, g, poly, generatorPose)) return;
    const d = generatorContact.distance;
    if (!(d > 0)) return;
    // A toward B: the segment's normal points from it toward the polytope.
    if (curvedA) vec3.copy(generatorU, generatorContact.normal);
    else vec3.negate(generatorU, generatorContact.normal);
    overlapInto(generatorU);
    let sep = 0 - overlapIo[0];
    // The nearest points' direction carries their rounding at the segment's length over the gap,
    // a tilt off the perpendicular of the generator and the edge that their lengths turn into a
    // loss of separation (7.9e-12 at a gap of 128 along a generator of 4.5e3): the direction
    // taken onto the flat features near it when that separates more.
    flatSeparation(a, b, generatorU);
    if (flatIo[0] > sep) {
      sep = flatIo[0];
      vec3.copy(generatorU, flatN);
    }
    lengthInto(generatorContact.pointA, 1);
    lengthInto(generatorContact.pointB, 2);
    const round = TOUCH_TOLERANCE * Math.max(sizeIo[1], sizeIo[2], shiftIo[1]);
    // d is an upper bound on the cores' distance, sep a lower bound: both must meet it.
    if (!(Math.abs(d - sep) <= round)) continue;
    solvedIo[0] = d - mA - mB;
    vec3.copy(solvedNormal, generatorU);
    const pa = curvedA ? generatorContact.pointA : generatorContact.pointB;
    const pb = curvedA ? generatorContact.pointB : generatorContact.pointA;
    vec3.sub(solvedA, pa, shiftA);
    vec3.sub(solvedB, pb, shiftA);
    vec3.addScaled(solvedA, solvedA, generatorU, mA);
    vec3.addScaled(solvedB, solvedB, generatorU, -mB);
    if (d - mA - mB < boundIo[1]) boundIo[1] = d - mA - mB;
    return;
  }
}

/** Projections of {@link projectGapWitness} from each side, at most. */
const GAP_PROJECTIONS = 16;

/** The direction of {@link projectGapWitness}'s lower bound along the solved normal. */
const gapLowerN = vec3.create();
/** [0] the separation of {@link flatSeparation}'s best direction (−∞ when none). */
const flatIo = new Float64Array(1);
/** {@link flatSeparation}'s best direction (solver frame, unit). */
const flatN = vec3.create();
const flatC = vec3.create();
const flatL = vec3.create();
/** Up to FLAT_LINES line directions per side of {@link flatSeparation}, packed xyz (solver frame). */
const flatLines = [new Float64Array(3 * 8), new Float64Array(3 * 8)];
const FLAT_LINES = 8;
/** Lines kept per side ({@link flatSeparation}). */
const flatLineCount = new Int32Array(2);
const flatDims = new Float64Array(2);

/**
 * |cos| between a direction and a flat feature's line (an edge, a cylinder's or a cone's
 * generator) under which {@link flatSeparation} takes the direction perpendicular to it: the
 * angle of {@link FACE_SNAP_COS} (about 1.4e-3 rad).
 */
const FLAT_LINE_SIN = 2 ** -9.5;

/**
 * The largest separation −(h_A(m) + h_B(−m)) over the directions m that unit `d` (solver frame,
 * from A toward B) becomes when taken onto the flat features of the pair near it, into flatIo[0]
 * and flatN (−∞ when no feature is near): a face normal within {@link FACE_SNAP_COS} of d (a
 * polytope's faces, a rounded box's or hull's core's ({@link flatPolytope}), a cylinder's caps, a
 * cone's base); d made perpendicular to a line within {@link FLAT_LINE_SIN} of perpendicular to
 * it (a polytope's edges, a rounded shape's core's, a cylinder's side generator,
 * a cone's slant generator at d's azimuth); and the direction perpendicular to a line of each
 * shape. Along a direction tilted by θ from a flat feature the feature's far end decides the
 * support, so the separation falls short by θ times the feature's length — linear in θ, where a
 * curved surface loses θ² times its radius: a direction from two witnesses 2e-9 apart at 5e-5
 * from the frame's origin is off by 1e-11, which lost 3.9e-12 across a triangle of 0.8 beside a
 * cylinder of 5e-5 (issue 16). Every direction's separation is a certified lower bound on the gap
 * (Minkowski duality), so the candidates can only tighten it. Cores loaded; margins not added.
 */
function flatSeparation(a: ConvexShape, b: ConvexShape, d: Vec3): void {
  flatIo[0] = Number.NEGATIVE_INFINITY;
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    flatLineCount[side] = 0;
    // d in the shape's local frame (B's outward direction is −d: the features do not care).
    if (side === 0) faceCopy(snapLocal, d);
    else faceToB(snapLocal, d, false);
    const ps = flatPolytope(s);
    if (ps !== null) {
      const poly = shapeDef(ps.type).polytope as PolytopeAxes;
      const faces = poly.faceCount(ps);
      for (let i = 0; i < faces; i++) {
        poly.faceNormal(flatC, ps, i);
        if (!tryNormalizeScaled(flatC, flatC)) continue;
        const c = flatC.x * snapLocal.x + flatC.y * snapLocal.y + flatC.z * snapLocal.z;
        if (Math.abs(c) < FACE_SNAP_COS) continue;
        if (c < 0) faceNegate(flatC, flatC);
        flatTry(side, flatC);
      }
      const edges = poly.edgeCount(ps);
      for (let i = 0; i < edges; i++) {
        poly.edgeDirection(flatL, ps, i);
        flatLine(side);
      }
      continue;
    }
    const rc = revolutionCore(s);
    if (rc === null) continue;
    const rev = shapeDef(rc.type).revolution as Revolution;
    rev.dims(flatDims, rc);
    const cone = rev.kind === RevolutionKind.Cone;
    // The caps' normal (a cone's base only: the outward normal −Y on A's side, +Y seen as −d).
    const y = snapLocal.y;
    if (Math.abs(y) >= FACE_SNAP_COS && (!cone || (side === 0 ? y < 0 : y > 0))) {
      flatC.x = 0;
      flatC.y = y < 0 ? -1 : 1;
      flatC.z = 0;
      flatTry(side, flatC);
    }
    if (!cone) {
      flatL.x = 0;
      flatL.y = 1;
      flatL.z = 0;
      flatLine(side);
      continue;
    }
    // The slant generator at d's azimuth, apex (0, h) to rim (r, −h) in the meridian plane.
    hypotIo[0] = snapLocal.x;
    hypotIo[1] = snapLocal.z;
    mathHypot2Io();
    const rho = hypotIo[0];
    if (!(rho > 0)) continue;
    const sg = side === 0 ? 1 : -1;
    const r = flatDims[1];
    flatL.x = (sg * r * snapLocal.x) / rho;
    flatL.y = -2 * flatDims[0];
    flatL.z = (sg * r * snapLocal.z) / rho;
    flatLine(side);
  }
  // A line of each: the direction perpendicular to both (an edge across a generator).
  const la = flatLines[0];
  const lb = flatLines[1];
  for (let i = 0; i < flatLineCount[0]; i++) {
    for (let j = 0; j < flatLineCount[1]; j++) {
      flatC.x = la[3 * i + 1] * lb[3 * j + 2] - la[3 * i + 2] * lb[3 * j + 1];
      flatC.y = la[3 * i + 2] * lb[3 * j] - la[3 * i] * lb[3 * j + 2];
      flatC.z = la[3 * i] * lb[3 * j + 1] - la[3 * i + 1] * lb[3 * j];
      if (!tryNormalizeScaled(flatC, flatC)) continue;
      const c = flatC.x * d.x + flatC.y * d.y + flatC.z * d.z;
      if (Math.abs(c) < FACE_SNAP_COS) continue;
      if (c < 0) faceNegate(flatC, flatC);
      flatTry(-1, flatC);
    }
  }
}

/**
 * flatL (a line of shape `side`, its local frame, any length): when d (snapLocal there) is within
 * {@link FLAT_LINE_SIN} of perpendicular to it, d made perpendicular to it is tried and the line
 * kept (solver frame) for the crossings of {@link flatSeparation}.
 */
function flatLine(side: number): void {
  if (!tryNormalizeScaled(flatL, flatL)) return;
  const t = flatL.x * snapLocal.x + flatL.y * snapLocal.y + flatL.z * snapLocal.z;
  if (!(Math.abs(t) <= FLAT_LINE_SIN)) return;
  flatC.x = snapLocal.x + flatL.x * -t;
  flatC.y = snapLocal.y + flatL.y * -t;
  flatC.z = snapLocal.z + flatL.z * -t;
  if (!tryNormalizeScaled(flatC, flatC)) return;
  flatTry(side, flatC);
  if (side === 1) faceRotate(flatL, pairBInA.rotation, flatL);
  const k = flatLineCount[side];
  if (k >= FLAT_LINES) return;
  const buf = flatLines[side];
  buf[3 * k] = flatL.x;
  buf[3 * k + 1] = flatL.y;
  buf[3 * k + 2] = flatL.z;
  flatLineCount[side] = k + 1;
}

/** The unit direction m (shape `side`'s local frame; −1 the solver's) as {@link flatSeparation}'s best when it separates more. */
function flatTry(side: number, m: Vec3): void {
  if (side === 1) faceRotate(m, pairBInA.rotation, m);
  overlapInto(m);
  const sep = 0 - overlapIo[0];
  if (sep > flatIo[0]) {
    flatIo[0] = sep;
    faceCopy(flatN, m);
  }
}

/** Steps of {@link snapToRevolution}'s fixed-point iteration. */
const REVOLUTION_ITERATIONS = 8;

/** Cosine under which the projection's normal repeats the direction (a fixed point). */
const REVOLUTION_FIXED_COS = 1 - 2 ** -44;

/** Cosine of the largest angle between the refined normal and a face normal it is snapped to. */
const FACE_SNAP_COS = 1 - 2 ** -20;

/** Overlap increase, relative to the pair's size, within which a face normal is taken (rounding). */
const FACE_SNAP_SLACK = 2 ** -48;

/** GJK's witnesses' difference pA − pB in {@link polishGap} (its length an upper bound on the gap). */
const polishD = vec3.create();

/** Relative agreement of GJK's gap and the separation along its direction that needs no polish. */
const GJK_POLISH_AGREEMENT = 1e-11;

/** Tangential gradient, relative to the pair's size, under which polished witnesses face each other. */
const GJK_POLISH_GRADIENT = 1e-12;

/** [0] the overlap of the last {@link overlapInto}. */
const overlapIo = new Float64Array(1);

/**
 * overlapIo[0] = the core overlap along unit n, h_A(n) + h_B(−n): the depth of the separating
 * translation n. Through the io slot, each caller reading it after the call: a double returned
 * by a call V8 does not inline is boxed (an allocation per support pair; 0.2 MB per step with
 * curved shapes, 0.16 MB with mesh bodies from a small wrapper returning it).
 */
function overlapInto(n: Vec3): void {
  const m = overlapMemo;
  const x = n.x;
  const y = n.y;
  const z = n.z;
  // The same direction, bit for bit (a zero's sign too), as the memo's: its support pair.
  if (
    m[9] === 1 &&
    x === m[0] &&
    y === m[1] &&
    z === m[2] &&
    (x !== 0 || 1 / x === 1 / m[0]) &&
    (y !== 0 || 1 / y === 1 / m[1]) &&
    (z !== 0 || 1 / z === 1 / m[2])
  ) {
    sA.x = m[3];
    sA.y = m[4];
    sA.z = m[5];
    sB.x = m[6];
    sB.y = m[7];
    sB.z = m[8];
  } else {
    coreA.support(sA, n);
    faceNegate(negN, n);
    coreBInA.support(sB, negN);
    m[0] = x;
    m[1] = y;
    m[2] = z;
    m[3] = sA.x;
    m[4] = sA.y;
    m[5] = sA.z;
    m[6] = sB.x;
    m[7] = sB.y;
    m[8] = sB.z;
    m[9] = 1;
  }
  overlapIo[0] = x * sA.x + y * sA.y + z * sA.z - (x * sB.x + y * sB.y + z * sB.z);
}

/**
 * {@link overlapInto}'s last direction [0..2], A's support point along it [3..5] and B's along
 * its negation [6..8] (cores as loaded, solver frame), valid when [9] is 1: cleared by
 * {@link loadPair}, seeded by EPA's confirming support pair (`epaLastSupport`). The exact-axis
 * check and the lower bound both ask for the pair along EPA's normal, which EPA's last iteration
 * asked for already.
 */
const overlapMemo = new Float64Array(10);

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
    vec3.addScaled(solvedB, solvedA, n, -depth);
    return;
  }
  vec3.negate(negN, n);
  coreBInA.support(solvedB, negN);
  vec3.addScaled(solvedA, solvedB, n, depth);
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
    vec3.copy(fallbackNormal, cand);
  }
  vec3.negate(cand, cand);
  overlapInto(cand);
  const o2 = overlapIo[0];
  if (o2 < satIo[0]) {
    satIo[0] = o2;
    vec3.copy(fallbackNormal, cand);
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
      vec3.set(tang1, 0, 0, 0);
      vec3.setAxis(tang1, k % 3, k % 6 < 3 ? 1 : -1);
      if (k >= 6) quat.rotate(tang1, bInA.rotation, tang1);
    } else {
      const y = 1 - (2 * (i + 0.5)) / n;
      const rr = Math.sqrt(Math.max(0, 1 - y * y));
      const t = golden * i;
      vec3.set(tang1, Math.cos(t) * rr, y, Math.sin(t) * rr);
    }
    overlapInto(tang1);
    const o = overlapIo[0];
    if (o < best) {
      best = o;
      vec3.copy(fallbackNormal, tang1);
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
      vec3.addScaled(probe, fallbackNormal, tang1, PROBE_COS[k] * step);
      vec3.addScaled(probe, probe, tang2, PROBE_SIN[k] * step);
      tryNormalizeScaled(probe, probe);
      overlapInto(probe);
      const o = overlapIo[0];
      if (o < best) {
        best = o;
        vec3.copy(fallbackNormal, probe);
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
      vec3.copy(solvedNormal, fallbackNormal);
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
  vec3.set(fanY, 0, 1, 0);
  // The other shape's support along the normal, relative to the solid's centre.
  if (side === 1) {
    quat.rotate(fanY, bInA.rotation, fanY);
    coreA.support(fanQ, solvedNormal);
    vec3.sub(fanQ, fanQ, bInA.translation);
  } else {
    vec3.negate(negN, solvedNormal);
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
  if (cone || along < 0) vec3.negate(fanC, fanY);
  else vec3.copy(fanC, fanY);
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
  vec3.copy(fanBest, fanN);
  if (!tryNormalizeScaled(fanBest, fanBest)) return;
  overlapInto(fanBest);
  if (!(overlapIo[0] < refineIo[0])) return;
  refineIo[0] = overlapIo[0];
  vec3.copy(solvedNormal, fanBest);
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
    tryAxis(quat.rotate(faceAxis, bInA.rotation, faceAxis));
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
      quat.rotate(edgeB, bInA.rotation, edgeB);
      vec3.cross(cross, edgeA, edgeB);
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
  vec3.copy(initDir, pairOffset);
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
    solveLoaded(a, b, pairBInA, Number.POSITIVE_INFINITY);
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
    iso.invert(aInB, bInA);
    solve(b, a, aInB, Infinity);
    out.distance = Math.max(solvedIo[0], 0);
    iso.transformPoint(out.pointA, bInA, solvedB);
    iso.transformPoint(out.pointB, bInA, solvedA);
    return out;
  }
  solve(a, b, bInA, Infinity);
  out.distance = Math.max(solvedIo[0], 0);
  vec3.copy(out.pointA, solvedA);
  vec3.copy(out.pointB, solvedB);
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
    iso.invert(aInB, bInA);
    if (!solve(b, a, aInB, maxGap)) return false;
    if (solvedIo[0] > maxGap) return false;
    out.distance = solvedIo[0];
    quat.rotate(out.normal, bInA.rotation, solvedNormal);
    vec3.negate(out.normal, out.normal);
    iso.transformPoint(out.pointA, bInA, solvedB);
    iso.transformPoint(out.pointB, bInA, solvedA);
    return true;
  }
  if (!solve(a, b, bInA, maxGap)) return false;
  if (solvedIo[0] > maxGap) return false;
  out.distance = solvedIo[0];
  vec3.copy(out.normal, solvedNormal);
  vec3.copy(out.pointA, solvedA);
  vec3.copy(out.pointB, solvedB);
  return true;
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
  vec3.copy(initDir, pairOffset);
  gjkLimit[0] = apartGapIo[0] * k + r;
  gjkLimit[1] = r;
  gjkToLimit(gjkOut, coreA, coreBInA, initDir);
  return gjkOut.status === GjkStatus.BeyondMaxDistance;
}
