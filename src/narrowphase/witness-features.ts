/**
 * Witness points from the supporting features of the pair loaded in convex-pair.ts: the
 * touching features' segments and their nearest points (`loadFeatureSegments`,
 * `featurePairWitnesses`), a generator's common perpendicular with a polytope's edge for the
 * normal (`featurePairNormal`), a point's projection onto a core's supporting feature or the core
 * (`faceProject`: a flat core in a frame at its nearest corner, a generator as a segment, else
 * `projectOnto`), a curved pair's normal taken onto the flat features (`flatContactNormal`,
 * `flatSeparation`) and two polytopes' witnesses from their supporting edges or the manifold
 * builder's clipped features (`featureGapWitnesses`, `featureFacingWitnesses`).
 *
 * Called by convex-convex.ts's solve and by the witness routines above it (witness-faces.ts,
 * witness-polish.ts); all in the solver's frame, no allocation per call.
 */

import { TOUCH_TOLERANCE, TRIANGLE_SLIVER_RATIO } from "../constants.js";
import {
  closestOnTriangleArray,
  triangleIo,
  triangleThinnerThan,
} from "../geometry/closest-point.js";
import { closestPointsSegmentSegment } from "../geometry/closest-segments.js";
import { FEATURE_SEGMENT, makeSupportFeature } from "../geometry/feature.js";
import { GjkStatus, gjkLimit, gjkToLimit, tryNormalizeScaled } from "../geometry/gjk.js";
import { projectRevolutionDims, RevolutionKind, revolutionDims } from "../geometry/revolution.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { hypotIo, mathHypot2Io } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { type PolytopeAxes, shapeDef } from "../shapes/registry.js";
import { type ConvexShape, ShapeType } from "../shapes/shape.js";
import { type Revolution, writeBoundingRadiusOf } from "../shapes/shape-def.js";
import type { Triangle } from "../shapes/triangle.js";
import { makeContact, makeContactManifold } from "./contact.js";
import { convexPair, pairBInA } from "./convex-pair.js";
import { keepContactOffIo, manifoldFromContact } from "./manifold.js";

const {
  coreA,
  coreB,
  coreBInA,
  FACE_NORMAL_MAX_TILT,
  FACE_SNAP_COS,
  FACE_WITNESS_SLACK,
  faceCopy,
  faceFallbackIo,
  faceFromB,
  faceIo,
  faceNegate,
  faceP,
  faceQ,
  faceRotate,
  faceSA,
  faceSB,
  faceShiftA,
  faceSub,
  faceToB,
  faceX,
  faceY,
  facingN,
  flatDims,
  flatIo,
  flatN,
  flatPolytope,
  fromLocalA,
  isPolytope,
  lengthInto,
  negN,
  overlapInto,
  overlapIo,
  pointEdge,
  polishD1,
  projectIo,
  revDims,
  revolutionCore,
  revProj,
  revQ,
  ridgeRadiusIo,
  sizeIo,
  snapLocal,
  solvedA,
  solvedB,
  solvedIo,
  solvedNormal,
  toLocalA,
  touchGjk,
  touchPoint,
} = convexPair;

/**
 * The witnesses' lateral offset: `out` = (pB − pA) − ((pB − pA)·n)·n, the part of the witnesses'
 * difference across the unit normal n (zero when they face each other across it, pB − pA along
 * n), and its length (overflow-safe, {@link lengthInto}) into sizeIo[i]. Points, normal and
 * `out` are 3-vectors in one frame and one unit (both callers: A's frame, scene units); `out` may
 * be pA or pB, not n. For `faceWitnesses` and {@link featureFacingWitnesses}.
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
 * `faceWitnesses`' pair, where its projections found none facing, from the nearest points
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
 * `faceWitnesses`' pair and normal where its projections and {@link featurePairWitnesses}
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
 * {@link projectOnto} for `faceWitnesses`: a flat core ({@link flatCore}: a triangle, a
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

/** [0], [1] 1 when `faceWitnesses` projects side A's, B's core onto its generator ({@link loadGenerator}). */
const generatorIo = new Uint8Array(2);
/** The generators' ends, solver frame: A's in [0], [1], B's in [2], [3]. */
const generatorEnds = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const generatorM = vec3.create();

/**
 * Sets generatorIo[side] (0 A, 1 B) to 1, and the ends of the generator in generatorEnds, when the
 * core on `side` is a cylinder or a cone whose support toward the other shape (+n for A, −n for
 * B) is a generator to within generatorTol[0] (its two ends that far apart along the normal): a
 * curved surface tangent to its supporting plane along a line, which the alternating projections
 * of `faceWitnesses` approach only as fast as the surface curves away from it (a cone of
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
  // The clipped points only, not the given contact's pair (what this checks and replaces).
  keepContactOffIo[0] = 1;
  manifoldFromContact(gapManifold, a, b, bInA, gapContact, g);
  keepContactOffIo[0] = 0;
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
 * `faceWitnesses`: the closest points of their supporting edges along the normal, or of the
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
  if (revolutionCore(a) === a && revolutionCore(b) === b) {
    // Two bare solids of revolution: the witnesses' whole miss — off facing at the distance,
    // across the normal or along it, and off their shapes (a touch's one point 1.3e-11 outside a
    // cone's base where its rim crossed a cylinder's; issue 16, cylinder-flat-facing).
    revolutionScore(a, b, bInA, solvedA, solvedB);
    if (!(revIo[1] > slack)) return;
    revolutionFacingWitnesses(a, b, bInA, revIo[1]);
    return;
  }
  if (!(lateral > slack)) return;
  gapContact.distance = d;
  vec3.copy(gapContact.normal, n);
  vec3.copy(gapContact.pointA, solvedA);
  vec3.copy(gapContact.pointB, solvedB);
  keepContactOffIo[0] = 1;
  manifoldFromContact(gapManifold, a, b, bInA, gapContact, Math.max(d, 0));
  keepContactOffIo[0] = 0;
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
    const e = facingEnds;
    closestPointsSegmentSegment(edgeX, edgeY, e[0], e[1], e[2], e[3], edgeParams);
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

/**
 * The tilt of the normal from a cap's normal or a generator's perpendicular (sine) under which
 * {@link generatorOnDisc} tries that flat feature: 2^-6 rad, beyond the class's 2^-8 (the
 * candidate is exact at any tilt, the bound only spares the work).
 */
const FLAT_FEATURE_SIN = 2 ** -6;
const FLAT_FEATURE_COS = Math.sqrt(1 - FLAT_FEATURE_SIN * FLAT_FEATURE_SIN);

/** {@link revolutionFacingWitnesses}' scratch: a side's support point, its partner, a direction (A's frame). */
const revSupport = vec3.create();
const revPartner = vec3.create();
const revDir = vec3.create();
const revBestA = vec3.create();
const revBestB = vec3.create();
/** {@link generatorOnDisc}'s generator P0 + t·E and disc (centre C, unit axis U), A's frame. */
const genP = vec3.create();
const genE = vec3.create();
const discC = vec3.create();
const discU = vec3.create();
/**
 * [0] the best candidate's score of {@link revolutionFacingWitnesses}, [1] the last score of
 * {@link revolutionScore} (scene units).
 */
const revIo = new Float64Array(2);
/** {@link revolutionScore}'s point in the shape's local frame. */
const revLocal = vec3.create();

/**
 * The miss of a pair of witnesses `pA`, `pB` (A's frame) of two bare cylinders or cones, into
 * revIo[1]: their offset from facing at the solved distance, |pB − pA − d·n|, plus each one's
 * distance from its own shape's surface (the exact projection of src/geometry/revolution.ts in
 * the shape's frame). Zero for an exact answer's pair; scene units.
 */
function revolutionScore(a: ConvexShape, b: ConvexShape, bInA: Isometry, pA: Vec3, pB: Vec3): void {
  const d = solvedIo[0];
  const n = solvedNormal;
  facingOff.x = pB.x - pA.x - d * n.x;
  facingOff.y = pB.y - pA.y - d * n.y;
  facingOff.z = pB.z - pA.z - d * n.z;
  lengthInto(facingOff, 0);
  let miss = sizeIo[0];
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    const rev = shapeDef(s.type).revolution;
    if (rev === null) continue;
    if (side === 0) vec3.copy(revLocal, pA);
    else iso.inverseTransformPoint(revLocal, bInA, pB);
    rev.dims(revDims, s);
    revolutionDims[0] = revDims[0];
    revolutionDims[1] = revDims[1];
    projectRevolutionDims(revProj, rev.kind, revLocal);
    miss += Math.abs(revProj.distance);
  }
  revIo[1] = miss;
}

/**
 * The pair's candidate `pA`, `pB` (A's frame) scored by {@link revolutionScore} (its offset
 * from facing at the solved distance and from the shapes), into revBestA/B when below revIo[0].
 */
function revolutionCandidate(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  pA: Vec3,
  pB: Vec3,
): void {
  revolutionScore(a, b, bInA, pA, pB);
  if (!(revIo[1] < revIo[0])) return;
  revIo[0] = revIo[1];
  vec3.copy(revBestA, pA);
  vec3.copy(revBestB, pB);
}

/**
 * Side `side`'s (0 A, 1 B at `bInA`) cylinder generator at the azimuth of its outward direction
 * (+n for A, −n for B) against the other side's cap or cone base toward it: the generator's
 * points whose projection along n onto the disc's plane falls in the disc (a quadratic's interval
 * of its parameter), the one of least separation along n (an end of that interval, the
 * separation linear along the generator) and its projection, the candidate pair; where no point
 * projects into the disc (the generator's end on its rim, missing by rounding), the point whose
 * projection is nearest the disc, that projection seated on the rim. Nothing when
 * the side is not a cylinder, the direction not within {@link FLAT_FEATURE_SIN} of the side's
 * perpendicular or the other's not within it of its axis.
 */
function generatorOnDisc(a: ConvexShape, b: ConvexShape, bInA: Isometry, side: number): void {
  const n = solvedNormal;
  const s = side === 0 ? a : b;
  const o = side === 0 ? b : a;
  if (s.type !== ShapeType.Cylinder) return;
  const sRev = shapeDef(s.type).revolution;
  const oRev = shapeDef(o.type).revolution;
  if (sRev === null || oRev === null) return;
  // The generator: local (r·ux, ±h, r·uz) at the azimuth of the side's outward direction.
  if (side === 0) vec3.copy(revDir, n);
  else {
    vec3.negate(revDir, n);
    quat.inverseRotate(revDir, bInA.rotation, revDir);
  }
  hypotIo[0] = revDir.x;
  hypotIo[1] = revDir.z;
  mathHypot2Io();
  const rho = hypotIo[0];
  if (!(Math.abs(revDir.y) <= FLAT_FEATURE_SIN) || !(rho > 0)) return;
  sRev.dims(revDims, s);
  const h = revDims[0];
  const r = revDims[1];
  vec3.set(genP, (r * revDir.x) / rho, -h, (r * revDir.z) / rho);
  vec3.set(genE, 0, 2 * h, 0);
  if (side === 1) {
    iso.transformPoint(genP, bInA, genP);
    quat.rotate(genE, bInA.rotation, genE);
  }
  // The other's disc toward the side: a cylinder's cap at the sign of its direction's y, a cone's
  // base (its direction down).
  if (side === 0) {
    vec3.negate(revDir, n);
    quat.inverseRotate(revDir, bInA.rotation, revDir);
  } else vec3.copy(revDir, n);
  if (!(Math.abs(revDir.y) >= FLAT_FEATURE_COS)) return;
  if (o.type === ShapeType.Cone && revDir.y > 0) return;
  oRev.dims(revDims, o);
  const up = revDir.y > 0 ? 1 : -1;
  vec3.set(discC, 0, up * revDims[0], 0);
  vec3.set(discU, 0, up, 0);
  const rd = revDims[1];
  if (side === 0) {
    iso.transformPoint(discC, bInA, discC);
    quat.rotate(discU, bInA.rotation, discU);
  }
  const nu = vec3.dot(n, discU);
  if (!(Math.abs(nu) > 0.5)) return;
  // x(t) = P0 + t·E; its projection along n onto the plane, x − ((x − C)·U / n·U)·n, is C + g0 + t·g1.
  vec3.sub(revSupport, genP, discC);
  const w0 = vec3.dot(revSupport, discU) / nu;
  const w1 = vec3.dot(genE, discU) / nu;
  const g0x = revSupport.x - w0 * n.x;
  const g0y = revSupport.y - w0 * n.y;
  const g0z = revSupport.z - w0 * n.z;
  const g1x = genE.x - w1 * n.x;
  const g1y = genE.y - w1 * n.y;
  const g1z = genE.z - w1 * n.z;
  const qa = g1x * g1x + g1y * g1y + g1z * g1z;
  const qb = g0x * g1x + g0y * g1y + g0z * g1z;
  const qc = g0x * g0x + g0y * g0y + g0z * g0z - rd * rd;
  const disc = qb * qb - qa * qc;
  if (!(qa > 0)) return;
  const root = Math.sqrt(Math.max(0, disc));
  const t0 = Math.max(0, (0 - qb - root) / qa);
  const t1 = Math.min(1, (0 - qb + root) / qa);
  // The separation along n of the pair (pB − pA)·n: −w(t) for a generator on A, +w(t) on B; the
  // least at an end of [t0, t1]. No such stretch (the generator's end on the rim, the rest
  // outside, missing by rounding: a generator at a cap's rim, 6.7e-15 outside, seed 7's draw
  // 804): the generator's point whose projection is nearest the disc, seated on its rim below.
  const sign = side === 0 ? -1 : 1;
  let t = Math.min(1, Math.max(0, (0 - qb) / qa));
  if (disc >= 0 && t0 <= t1) t = sign * (w0 + w1 * t0) <= sign * (w0 + w1 * t1) ? t0 : t1;
  const w = w0 + w1 * t;
  revSupport.x = genP.x + t * genE.x;
  revSupport.y = genP.y + t * genE.y;
  revSupport.z = genP.z + t * genE.z;
  revPartner.x = revSupport.x - w * n.x;
  revPartner.y = revSupport.y - w * n.y;
  revPartner.z = revSupport.z - w * n.z;
  // Outside the disc (its plane's point C + g0 + t·g1 beyond rd): seated radially on its rim.
  vec3.sub(rimQ, revPartner, discC);
  lengthInto(rimQ, 0);
  if (sizeIo[0] > rd) {
    const k = rd / sizeIo[0];
    revPartner.x = discC.x + k * rimQ.x;
    revPartner.y = discC.y + k * rimQ.y;
    revPartner.z = discC.z + k * rimQ.z;
  }
  if (side === 0) revolutionCandidate(a, b, bInA, revSupport, revPartner);
  else revolutionCandidate(a, b, bInA, revPartner, revSupport);
}

/** {@link rimCrossing}'s rims (A's frame): the parametrised rim's centre and unit radial basis, the other's centre and unit axis. */
const rimC = vec3.create();
const rimE1 = vec3.create();
const rimE2 = vec3.create();
const rimX = vec3.create();
const rimDX = vec3.create();
const rimQ = vec3.create();
const rimDQ = vec3.create();
/** Newton steps of {@link rimCrossing} (quadratic from a start within the features' overlap: 4–6 taken). */
const RIM_CROSSING_STEPS = 24;

/**
 * Side `side`'s (0 A, 1 B at `bInA`) rim nearest its witness — a cylinder's end at the sign of
 * the witness's axial coordinate, a cone's base — against the other side's rim nearest its
 * witness, where they cross seen along the normal n: the rim points x(θ) = C + r(cos θ·e1 +
 * sin θ·e2) whose projection along n onto the other rim's plane, P(θ) = x − ((x − C')·U / n·U)·n,
 * lies on the other rim, g(θ) = |P(θ) − C'| − r' = 0, by Newton's method from the witness's
 * azimuth; the candidate pair is x and P seated radially on the other rim. Where a flat feature's
 * deepest point along n (a rim point of a cap 2^-k rad off n, a generator's end) lies just beside
 * the other's flat feature seen along n, the facing pair is where the rims cross (the depth lost
 * there second order in the step along the rim: a rim of r tilted by α loses α·s²/(2r) over s);
 * the support points and their projections face only where one lies over the other's disc
 * (issue 16, cylinder-flat-facing: a cylinder's rim 9.6e-7 beside a cap it crossed, a cone's
 * base rim 3.8e-7 and 5.9e-6 beside a cap's, a generator's end 9.0e-11 beside one). Nothing when
 * the other rim's plane lies within 60° of n (the projection onto it ill-conditioned: the other
 * order parametrises that rim). A's frame, scene units.
 */
function rimCrossing(a: ConvexShape, b: ConvexShape, bInA: Isometry, side: number): void {
  const n = solvedNormal;
  const s = side === 0 ? a : b;
  const o = side === 0 ? b : a;
  const sRev = shapeDef(s.type).revolution;
  const oRev = shapeDef(o.type).revolution;
  if (sRev === null || oRev === null) return;
  // The other's rim: its end toward its witness (a cone's base), centre and axis in A's frame.
  if (side === 0) iso.inverseTransformPoint(revLocal, bInA, solvedB);
  else vec3.copy(revLocal, solvedA);
  oRev.dims(revDims, o);
  const oUp = o.type === ShapeType.Cylinder && revLocal.y > 0 ? 1 : -1;
  const ro = revDims[1];
  vec3.set(discC, 0, oUp * revDims[0], 0);
  vec3.set(discU, 0, 1, 0);
  if (side === 0) {
    iso.transformPoint(discC, bInA, discC);
    quat.rotate(discU, bInA.rotation, discU);
  }
  const nu = vec3.dot(n, discU);
  if (!(Math.abs(nu) > 0.5)) return;
  // The side's rim: centre and radial basis in A's frame, the start the witness's azimuth.
  if (side === 0) vec3.copy(revLocal, solvedA);
  else iso.inverseTransformPoint(revLocal, bInA, solvedB);
  sRev.dims(revDims, s);
  const sUp = s.type === ShapeType.Cylinder && revLocal.y > 0 ? 1 : -1;
  const rs = revDims[1];
  let theta = Math.atan2(revLocal.z, revLocal.x);
  vec3.set(rimC, 0, sUp * revDims[0], 0);
  vec3.set(rimE1, 1, 0, 0);
  vec3.set(rimE2, 0, 0, 1);
  if (side === 1) {
    iso.transformPoint(rimC, bInA, rimC);
    quat.rotate(rimE1, bInA.rotation, rimE1);
    quat.rotate(rimE2, bInA.rotation, rimE2);
  }
  let g = Number.POSITIVE_INFINITY;
  for (let it = 0; it < RIM_CROSSING_STEPS; it++) {
    const c = Math.cos(theta);
    const sn = Math.sin(theta);
    rimX.x = rimC.x + rs * (c * rimE1.x + sn * rimE2.x);
    rimX.y = rimC.y + rs * (c * rimE1.y + sn * rimE2.y);
    rimX.z = rimC.z + rs * (c * rimE1.z + sn * rimE2.z);
    rimDX.x = rs * (c * rimE2.x - sn * rimE1.x);
    rimDX.y = rs * (c * rimE2.y - sn * rimE1.y);
    rimDX.z = rs * (c * rimE2.z - sn * rimE1.z);
    // Q = P − C' (in the other rim's plane) and its derivative.
    vec3.sub(rimQ, rimX, discC);
    const w = vec3.dot(rimQ, discU) / nu;
    rimQ.x -= w * n.x;
    rimQ.y -= w * n.y;
    rimQ.z -= w * n.z;
    const w1 = vec3.dot(rimDX, discU) / nu;
    rimDQ.x = rimDX.x - w1 * n.x;
    rimDQ.y = rimDX.y - w1 * n.y;
    rimDQ.z = rimDX.z - w1 * n.z;
    lengthInto(rimQ, 0);
    const q = sizeIo[0];
    if (!(q > 0)) return;
    g = q - ro;
    const dg = vec3.dot(rimQ, rimDQ) / q;
    if (!(Math.abs(dg) > 0)) break;
    let step = g / dg;
    // A step of at most a radian: Newton's from near a tangency can leap the crossing.
    if (step > 1) step = 1;
    else if (step < -1) step = -1;
    theta -= step;
    if (Math.abs(step) <= 2 ** -52 * (1 + Math.abs(theta))) break;
  }
  if (!(Math.abs(g) <= 2 ** -20 * ro)) return;
  // The final θ's rim point and its partner: P seated radially on the other rim.
  const c = Math.cos(theta);
  const sn = Math.sin(theta);
  rimX.x = rimC.x + rs * (c * rimE1.x + sn * rimE2.x);
  rimX.y = rimC.y + rs * (c * rimE1.y + sn * rimE2.y);
  rimX.z = rimC.z + rs * (c * rimE1.z + sn * rimE2.z);
  vec3.sub(rimQ, rimX, discC);
  const w = vec3.dot(rimQ, discU) / nu;
  rimQ.x -= w * n.x;
  rimQ.y -= w * n.y;
  rimQ.z -= w * n.z;
  lengthInto(rimQ, 0);
  const k = ro / sizeIo[0];
  revPartner.x = discC.x + k * rimQ.x;
  revPartner.y = discC.y + k * rimQ.y;
  revPartner.z = discC.z + k * rimQ.z;
  if (side === 0) revolutionCandidate(a, b, bInA, rimX, revPartner);
  else revolutionCandidate(a, b, bInA, revPartner, rimX);
}

/** {@link rimPairCrossing}'s B rim (A's frame: centre, radial basis), point, tangents and a basis across n. */
const rimCB = vec3.create();
const rimB1 = vec3.create();
const rimB2 = vec3.create();
const rimY = vec3.create();
const rimDY = vec3.create();
const rimT1 = vec3.create();
const rimT2 = vec3.create();

/**
 * The rims of A and B nearest their witnesses (a cylinder's end at the sign of the witness's
 * axial coordinate, a cone's base) where they cross seen along the normal n, found in both rims'
 * angles at once: x(θ) on A's rim and y(φ) on B's with y − x along n, the two components of
 * y − x across n zero, by Newton's method on (θ, φ) from the witnesses' azimuths; the candidate
 * pair x, y. For rims whose planes both contain n nearly (two side generators 2^-22 and 2^-10
 * rad off their sides' normals, one's end just past the other's end seen along n, its cap edge
 * on), where {@link rimCrossing}'s projection onto a rim's plane is ill-conditioned (issue 16,
 * cylinder-flat-facing, seed 6's draw 155: the touch point 1.0e-9 off the smaller cylinder).
 * A's frame, scene units.
 */
function rimPairCrossing(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  const n = solvedNormal;
  const aRev = shapeDef(a.type).revolution;
  const bRev = shapeDef(b.type).revolution;
  if (aRev === null || bRev === null) return;
  aRev.dims(revDims, a);
  const ra = revDims[1];
  vec3.set(rimC, 0, (a.type === ShapeType.Cylinder && solvedA.y > 0 ? 1 : -1) * revDims[0], 0);
  vec3.set(rimE1, 1, 0, 0);
  vec3.set(rimE2, 0, 0, 1);
  let theta = Math.atan2(solvedA.z, solvedA.x);
  iso.inverseTransformPoint(revLocal, bInA, solvedB);
  bRev.dims(revDims, b);
  const rb = revDims[1];
  vec3.set(rimCB, 0, (b.type === ShapeType.Cylinder && revLocal.y > 0 ? 1 : -1) * revDims[0], 0);
  iso.transformPoint(rimCB, bInA, rimCB);
  vec3.set(rimB1, 1, 0, 0);
  vec3.set(rimB2, 0, 0, 1);
  quat.rotate(rimB1, bInA.rotation, rimB1);
  quat.rotate(rimB2, bInA.rotation, rimB2);
  let phi = Math.atan2(revLocal.z, revLocal.x);
  // A basis across n: t1 = n × (the axis least along n), t2 = n × t1.
  const ax = Math.abs(n.x);
  const ay = Math.abs(n.y);
  const az = Math.abs(n.z);
  if (ax <= ay && ax <= az) vec3.set(rimT1, 0, n.z, -n.y);
  else if (ay <= az) vec3.set(rimT1, -n.z, 0, n.x);
  else vec3.set(rimT1, n.y, -n.x, 0);
  const tl = Math.sqrt(rimT1.x * rimT1.x + rimT1.y * rimT1.y + rimT1.z * rimT1.z);
  rimT1.x /= tl;
  rimT1.y /= tl;
  rimT1.z /= tl;
  vec3.cross(rimT2, n, rimT1);
  for (let it = 0; it < RIM_CROSSING_STEPS; it++) {
    const ca = Math.cos(theta);
    const sa = Math.sin(theta);
    const cb = Math.cos(phi);
    const sb = Math.sin(phi);
    rimX.x = rimC.x + ra * (ca * rimE1.x + sa * rimE2.x);
    rimX.y = rimC.y + ra * (ca * rimE1.y + sa * rimE2.y);
    rimX.z = rimC.z + ra * (ca * rimE1.z + sa * rimE2.z);
    rimDX.x = ra * (ca * rimE2.x - sa * rimE1.x);
    rimDX.y = ra * (ca * rimE2.y - sa * rimE1.y);
    rimDX.z = ra * (ca * rimE2.z - sa * rimE1.z);
    rimY.x = rimCB.x + rb * (cb * rimB1.x + sb * rimB2.x);
    rimY.y = rimCB.y + rb * (cb * rimB1.y + sb * rimB2.y);
    rimY.z = rimCB.z + rb * (cb * rimB1.z + sb * rimB2.z);
    rimDY.x = rb * (cb * rimB2.x - sb * rimB1.x);
    rimDY.y = rb * (cb * rimB2.y - sb * rimB1.y);
    rimDY.z = rb * (cb * rimB2.z - sb * rimB1.z);
    vec3.sub(rimQ, rimY, rimX);
    const f1 = vec3.dot(rimQ, rimT1);
    const f2 = vec3.dot(rimQ, rimT2);
    // J = [[−x'·t1, y'·t1], [−x'·t2, y'·t2]].
    const j11 = 0 - vec3.dot(rimDX, rimT1);
    const j12 = vec3.dot(rimDY, rimT1);
    const j21 = 0 - vec3.dot(rimDX, rimT2);
    const j22 = vec3.dot(rimDY, rimT2);
    const det = j11 * j22 - j12 * j21;
    if (!(Math.abs(det) > 0)) break;
    let dt = (f1 * j22 - f2 * j12) / det;
    let dp = (j11 * f2 - j21 * f1) / det;
    // Steps of at most a radian: Newton's from near a tangency can leap the crossing.
    const m = Math.max(Math.abs(dt), Math.abs(dp));
    if (m > 1) {
      dt /= m;
      dp /= m;
    }
    theta -= dt;
    phi -= dp;
    if (m <= 2 ** -52 * (1 + Math.abs(theta) + Math.abs(phi))) break;
  }
  const ca = Math.cos(theta);
  const sa = Math.sin(theta);
  const cb = Math.cos(phi);
  const sb = Math.sin(phi);
  rimX.x = rimC.x + ra * (ca * rimE1.x + sa * rimE2.x);
  rimX.y = rimC.y + ra * (ca * rimE1.y + sa * rimE2.y);
  rimX.z = rimC.z + ra * (ca * rimE1.z + sa * rimE2.z);
  rimY.x = rimCB.x + rb * (cb * rimB1.x + sb * rimB2.x);
  rimY.y = rimCB.y + rb * (cb * rimB1.y + sb * rimB2.y);
  rimY.z = rimCB.z + rb * (cb * rimB1.z + sb * rimB2.z);
  revolutionCandidate(a, b, bInA, rimX, rimY);
}

/**
 * Two bare cylinders or cones whose witnesses still miss after `faceWitnesses` (off facing at
 * the distance, across the normal or along it, or off their shapes: {@link revolutionScore}):
 * where a flat feature (a cap, a cone's base, a cylinder's side generator) of one lies nearly
 * parallel to a flat feature or a rim of the other (2^-8..2^-40 rad off), the support points
 * along the normal slide across the flat feature with the normal's last bits, and the
 * projections between a disc and a tilted disc or generator crawl (witnesses 1.2e-6 to 2.5e-3
 * apart across the normal at depths to 1e-9; issue 16, cylinder-flat-facing). The facing pair
 * is the deepest point of the overlap of the features seen along the normal: each side's
 * support point along the normal (a rim's point, a generator's end) with that point moved by
 * the distance along the normal and seated on the other shape (exact projection of
 * src/geometry/revolution.ts), and a cylinder's generator with its projection along the normal
 * onto the other's cap or base ({@link generatorOnDisc}), and where the rims nearest the
 * witnesses cross seen along the normal ({@link rimCrossing}, {@link rimPairCrossing}: a flat
 * feature's deepest point just beside the other's disc); the candidate facing best at the solved
 * distance and on the shapes, taken when it misses less than the witnesses (`lateral` their
 * miss). The
 * distance and normal are kept. A's frame, scene units (after `solve`'s shift and scaling are
 * undone).
 */
function revolutionFacingWitnesses(
  a: ConvexShape,
  b: ConvexShape,
  bInA: Isometry,
  lateral: number,
): void {
  const d = solvedIo[0];
  const n = solvedNormal;
  revIo[0] = lateral;
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    const o = side === 0 ? b : a;
    const support = shapeDef(s.type).coreSupport;
    const rev = shapeDef(o.type).revolution;
    if (support === null || rev === null) return;
    // The support point along the side's outward direction (+n for A, −n for B), A's frame.
    if (side === 0) support(revSupport, s, n);
    else {
      vec3.negate(revDir, n);
      quat.inverseRotate(revDir, bInA.rotation, revDir);
      support(revSupport, s, revDir);
      iso.transformPoint(revSupport, bInA, revSupport);
    }
    // Its partner across the normal (pB = pA + d·n), seated on the other shape.
    const t = side === 0 ? d : 0 - d;
    revPartner.x = revSupport.x + t * n.x;
    revPartner.y = revSupport.y + t * n.y;
    revPartner.z = revSupport.z + t * n.z;
    if (side === 0) iso.inverseTransformPoint(snapLocal, bInA, revPartner);
    else vec3.copy(snapLocal, revPartner);
    rev.dims(revDims, o);
    revolutionDims[0] = revDims[0];
    revolutionDims[1] = revDims[1];
    projectRevolutionDims(revProj, rev.kind, snapLocal);
    if (side === 0) iso.transformPoint(revPartner, bInA, revProj.point);
    else vec3.copy(revPartner, revProj.point);
    if (side === 0) revolutionCandidate(a, b, bInA, revSupport, revPartner);
    else revolutionCandidate(a, b, bInA, revPartner, revSupport);
    generatorOnDisc(a, b, bInA, side);
    rimCrossing(a, b, bInA, side);
  }
  rimPairCrossing(a, b, bInA);
  if (!(revIo[0] < lateral)) return;
  vec3.copy(solvedA, revBestA);
  vec3.copy(solvedB, revBestB);
}

/** {@link featureFacingWitnesses}' supporting edges (A's frame, on the surfaces): A's P0 P1, B's Q0 Q1. */
const facingEnds = [vec3.create(), vec3.create(), vec3.create(), vec3.create()];
const facingEdge = makeSupportFeature();
const facingDir = vec3.create();
/**
 * The closest points of the two edges of {@link facingEnds} (A's frame; Ericson 2005, §5.1.9, by
 * `closestPointsSegmentSegment`, src/geometry/closest-segments.ts), and their parameters.
 */
const edgeX = vec3.create();
const edgeY = vec3.create();
const edgeParams = { s: 0, t: 0 };

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
const flatC = vec3.create();
const flatL = vec3.create();
/** Up to FLAT_LINES line directions per side of {@link flatSeparation}, packed xyz (solver frame). */
const flatLines = [new Float64Array(3 * 8), new Float64Array(3 * 8)];
const FLAT_LINES = 8;
/** Lines kept per side ({@link flatSeparation}). */
const flatLineCount = new Int32Array(2);

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

/** [0..2] the witness in the triangle's frame, [3..5] its nearest point of the triangle, relative to the frame's corner. */
const triIo = new Float64Array(6);

/**
 * A triangle's witness moved by at most this fraction of the magnitude where it was rounded (its
 * coordinates' in A's frame, the triangle's frame's offset there, its coordinates' and the
 * corners' in the triangle's frame: the largest) is taken onto the triangle by
 * {@link triangleWitnesses}: 2^12 ulps, above every rounding of the witness routines (a touch's
 * shared point 26 ulps off, a converged facing pair's 16 slacks of 2^-50) and far below any
 * distance of the pair that matters.
 */
const TRIANGLE_WITNESS_SNAP = 2 ** -40;

/**
 * Each triangle's witness (solvedA where `a` is a triangle, solvedB where `b` is; A's frame,
 * scene units, B posed by `bInA`) taken onto the triangle in the triangle's own frame, where its
 * corners are exact: the witness routines place it in the solver's frame from the other shape's
 * features (a rim point, a touch's shared point on a cylinder or cone, a converged facing pair's
 * point lifted onto the supporting plane), which rounds at that frame's magnitude and at their
 * own slacks — a cylinder of 3e-5 touching a triangle's corner had the triangle's witness 7.97e-19
 * (118 ulps of its coordinates) off it, a cone's base touching a triangle's corner 26 ulps
 * (issue 16, seed 87). The point of the triangle nearest to the witness is worked out in a frame
 * at the triangle's corner nearest to it ({@link triangleNearest}: the offsets from that corner
 * round at the witness's distance from it, not at the corner's from the origin), the corner
 * added back once; taken when it moves the witness by at most TRIANGLE_WITNESS_SNAP of the
 * magnitude (a witness farther off is another fault, left to show). The triangle's witness then
 * lies on it to the rounding of the frames' changes, a few ulps. A sliver (least height below
 * TRIANGLE_SLIVER_RATIO of its longest edge) is left as it is. Written out on scalars and typed
 * arrays (the shared vector helpers' stores box doubles on the step's path); no allocation.
 */
function triangleWitnesses(a: ConvexShape, b: ConvexShape, bInA: Isometry): void {
  for (let side = 0; side < 2; side++) {
    const s = side === 0 ? a : b;
    if (s.type !== ShapeType.Triangle) continue;
    const w = side === 0 ? solvedA : solvedB;
    const q = bInA.rotation;
    const t = bInA.translation;
    let lx = w.x;
    let ly = w.y;
    let lz = w.z;
    if (side === 1) {
      // Into B's frame: the inverse rotation of w − t (v + w·u + q×u, u = 2 q×v, q negated).
      const vx = lx - t.x;
      const vy = ly - t.y;
      const vz = lz - t.z;
      const ux = 2 * (q.z * vy - q.y * vz);
      const uy = 2 * (q.x * vz - q.z * vx);
      const uz = 2 * (q.y * vx - q.x * vy);
      lx = vx + q.w * ux + (q.z * uy - q.y * uz);
      ly = vy + q.w * uy + (q.x * uz - q.z * ux);
      lz = vz + q.w * uz + (q.y * ux - q.x * uy);
    }
    triIo[0] = lx;
    triIo[1] = ly;
    triIo[2] = lz;
    const corner = triangleNearest(s);
    if (corner < 0) continue;
    const o = corner === 0 ? s.a : corner === 1 ? s.b : s.c;
    const mx = triIo[3] - (lx - o.x);
    const my = triIo[4] - (ly - o.y);
    const mz = triIo[5] - (lz - o.z);
    const move = Math.max(Math.abs(mx), Math.abs(my), Math.abs(mz));
    if (!(move > 0)) continue;
    // The magnitude where the witness was rounded: its coordinates in A's frame and the
    // triangle's frame's offset there, its coordinates and the corners' in the triangle's frame.
    let m = Math.max(Math.abs(w.x), Math.abs(w.y), Math.abs(w.z), Math.abs(lx), Math.abs(ly));
    m = Math.max(m, Math.abs(lz), Math.abs(s.a.x), Math.abs(s.a.y), Math.abs(s.a.z));
    m = Math.max(m, Math.abs(s.b.x), Math.abs(s.b.y), Math.abs(s.b.z), Math.abs(s.c.x));
    m = Math.max(m, Math.abs(s.c.y), Math.abs(s.c.z));
    if (side === 1) m = Math.max(m, Math.abs(t.x), Math.abs(t.y), Math.abs(t.z));
    if (!(move <= TRIANGLE_WITNESS_SNAP * m)) continue;
    const px = triIo[3] + o.x;
    const py = triIo[4] + o.y;
    const pz = triIo[5] + o.z;
    if (side === 0) {
      w.x = px;
      w.y = py;
      w.z = pz;
      continue;
    }
    // Back into A's frame: the rotation of p, plus t.
    const ux = 2 * (q.y * pz - q.z * py);
    const uy = 2 * (q.z * px - q.x * pz);
    const uz = 2 * (q.x * py - q.y * px);
    w.x = px + q.w * ux + (q.y * uz - q.z * uy) + t.x;
    w.y = py + q.w * uy + (q.z * ux - q.x * uz) + t.y;
    w.z = pz + q.w * uz + (q.x * uy - q.y * ux) + t.z;
  }
}

/**
 * The corners of {@link triangleNearest}'s triangle relative to the one nearest the witness
 * (0–2 that corner, zeros; 3–5 and 6–8 the other two) and the witness relative to it (9–11).
 */
const triRel = new Float64Array(12);

/**
 * The point of triangle `s` (its own frame) nearest to triIo[0..2], relative to the corner nearest
 * to that point, into triIo[3..5]; returns that corner (0 a, 1 b, 2 c), or −1 for a sliver (its
 * doubled area at most TRIANGLE_SLIVER_RATIO times its longest edge squared) or non-finite
 * corners. The corner is the frame's origin, the other two and the point offsets from it (they
 * round at their distance from it, not at its distance from the origin), the nearest point
 * `closestOnTriangleArray`'s (src/geometry/closest-point.ts: the Voronoi regions, a face's point
 * projected along the normal, a triangle thinner than TRIANGLE_THIN_RATIO along its exactly
 * expanded normal; the one body of every triangle's closest point). Only the triangle crosses
 * the call.
 */
function triangleNearest(s: Triangle): number {
  if (triangleThinnerThan(s.a, s.b, s.c, TRIANGLE_SLIVER_RATIO)) return -1;
  const px = triIo[0];
  const py = triIo[1];
  const pz = triIo[2];
  let x = px - s.a.x;
  let y = py - s.a.y;
  let z = pz - s.a.z;
  const da = x * x + y * y + z * z;
  x = px - s.b.x;
  y = py - s.b.y;
  z = pz - s.b.z;
  const db = x * x + y * y + z * z;
  x = px - s.c.x;
  y = py - s.c.y;
  z = pz - s.c.z;
  const dc = x * x + y * y + z * z;
  let corner = 0;
  if (db < da && db <= dc) corner = 1;
  else if (dc < da && dc < db) corner = 2;
  const o = corner === 0 ? s.a : corner === 1 ? s.b : s.c;
  const e1 = corner === 0 ? s.b : corner === 1 ? s.c : s.a;
  const e2 = corner === 0 ? s.c : corner === 1 ? s.a : s.b;
  const r = triRel;
  r[0] = 0;
  r[1] = 0;
  r[2] = 0;
  r[3] = e1.x - o.x;
  r[4] = e1.y - o.y;
  r[5] = e1.z - o.z;
  r[6] = e2.x - o.x;
  r[7] = e2.y - o.y;
  r[8] = e2.z - o.z;
  r[9] = px - o.x;
  r[10] = py - o.y;
  r[11] = pz - o.z;
  closestOnTriangleArray(r, 0, 3, 6, r, 9);
  triIo[3] = triangleIo[0];
  triIo[4] = triangleIo[1];
  triIo[5] = triangleIo[2];
  return corner;
}

/**
 * This module's bindings that the others read, as one record: each reader binds them to its own
 * module constants once at load (an exported binding is read through a cell on every access,
 * twice the cost of a module constant in a hot loop).
 */
export const witnessFeatures = {
  lateralOffsetInto,
  featureKind,
  featureWitnessIo,
  featureC,
  loadFeatureSegments,
  nearestFeaturePoints,
  featurePairWitnesses,
  featurePairNormal,
  faceProject,
  generatorIo,
  loadGenerator,
  generatorTol,
  flatCore,
  flatContactNormal,
  featureGapWitnesses,
  featureFacingWitnesses,
  projectOnto,
  flatSeparation,
  triangleWitnesses,
};
