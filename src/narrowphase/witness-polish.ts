/**
 * The polish of a touch's and a near gap's witnesses, and the seating of an overlap's: alternating
 * projections between the two shapes (`alternateProjections`) from the solver's witnesses and, where
 * the polished point stays off the other shape, from other starts — the shapes' centres, a
 * polytope's face, edge or vertex, the support points, a cone's apex, the touching features
 * (`polishWitnesses`, `touchWitnesses`, `gapWitnesses`); a deeper overlap's witnesses each seated
 * on its own shape on its supporting plane (`seatWitnesses`). Run by convex-convex.ts's solve on
 * the pair loaded in convex-pair.ts, in the solver's frame; no allocation per call.
 */
import { TOUCH_TOLERANCE } from "../constants.js";
import { FEATURE_SEGMENT } from "../geometry/feature.js";
import {
  GjkStatus,
  gjkLimit,
  gjkToLimit,
  makeGjkResult,
  tryNormalizeScaled,
} from "../geometry/gjk.js";
import {
  closestSegmentRevolution,
  makeSegmentRevolutionResult,
  projectRevolutionDims,
  RevolutionKind,
  revolutionDims,
} from "../geometry/revolution.js";
import { SegmentSupport } from "../geometry/support.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { shapeDef } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import type { Revolution } from "../shapes/shape-def.js";
import { convexPair, pairBInA } from "./convex-pair.js";
import { witnessFeatures } from "./witness-features.js";

const {
  boundIo,
  coreA,
  coreB,
  coreBInA,
  curved,
  fromLocalA,
  isPolytope,
  lengthInto,
  negN,
  pointEdge,
  polishD1,
  projectIo,
  revDims,
  revolutionCore,
  revProj,
  satGapIo,
  shiftA,
  shiftIo,
  sizeIo,
  snapLocal,
  solvedA,
  solvedB,
  solvedIo,
  solvedNormal,
  toLocalA,
  touchGjk,
  touchIo,
  touchPoint,
} = convexPair;
const { featureC, featureKind, loadFeatureSegments, nearestFeaturePoints, projectOnto } =
  witnessFeatures;

/**
 * Overlap, relative to the witnesses' magnitude, that {@link overlapTouches} may call a touch
 * (64 ε, the depth bar's rounding term of docs/FORMATS.md: one witness for both misses the depth
 * along the normal by the overlap; at 128 ε a box's corner 7.8e-16 inside a cylinder's rim at
 * size 0.05 got one point for a depth of 7.8e-16, against a bar of 7.3e-16; issue 16, s24).
 */
const OVERLAP_TOUCH_ROUNDING = 2 * TOUCH_TOLERANCE;

/**
 * [0] the upper bound on the signed distance that `solveLoaded` proved (boundIo[1] before
 * `lowerBound` tightens it for a query's error bound: the same whether or not one is
 * asked), scene units once `solve` scales it back; [1] the witnesses' magnitude there.
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
 * A gap that the overlap path found (`overlapGap`: GJK called the pair in contact at its
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
 * [0] how far the last `solveLoaded` moved a witness along the normal to place it (a hint
 * onto its shape's supporting plane, `refined.placed`, or the depth of `witnessesAlong`),
 * solver units, 0 when its witnesses are support points or EPA's blends; [1] the unproven
 * candidate's. A witness moved farther than rounding may lie beside its shape's supporting face.
 */
const placedIo = new Float64Array(2);

/**
 * The witnesses of a curved pair's overlap (or of two polytopes' shallow overlap with a witness
 * off its shape, see `solve`), each taken onto its own shape where it lies outside
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
const polishD2 = vec3.create();

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
const touchP = vec3.create();

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
 * This module's bindings that the others read, as one record: each reader binds them to its own
 * module constants once at load (an exported binding is read through a cell on every access,
 * twice the cost of a module constant in a hot loop).
 */
export const witnessPolish = {
  provenIo,
  overlapTouches,
  gapWitnesses,
  offShapeGapWitnesses,
  witnessesOffShapes,
  placedIo,
  seatWitnesses,
  SEAT_SLACK,
  saveSolved,
  restoreSolved,
  touchWitnesses,
  polishP,
  polishQ,
  polishBest,
  polishBestQ,
  polishD2,
  polishWitnesses,
  polishIo,
  alternateProjections,
};
