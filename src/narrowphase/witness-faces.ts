/**
 * Witnesses made to face each other across the normal, pB − pA = distance·n (`faceWitnesses`):
 * alternating projections between the cores' supporting features on their supporting planes
 * (`faceAlternate`), the normal refined first where the features' footprints miss — secant steps
 * along an edge's ridge (`faceSecant`), Newton steps where both supports slide (`faceNewton`), the
 * supports' jumps (`faceJumps`) — else the touching features' nearest points or a pair taken onto
 * both shapes (`faceFallback`). Run by convex-convex.ts's solve on the pair loaded in
 * convex-pair.ts, in the solver's frame; no allocation per call.
 */

import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { writeBoundingRadiusOf } from "../shapes/shape-def.js";
import { convexPair, pairBInA } from "./convex-pair.js";
import { witnessFeatures } from "./witness-features.js";

const {
  coreA,
  coreB,
  coreBInA,
  curved,
  FACE_NORMAL_MAX_TILT,
  FACE_WITNESS_SLACK,
  faceAdd,
  faceCopy,
  faceFallbackIo,
  faceIo,
  faceNegate,
  faceP,
  faceQ,
  faceSA,
  faceSB,
  faceSub,
  faceTilt,
  faceTiltIo,
  faceX,
  faceY,
  facingN,
  lengthInto,
  negN,
  polytopeCore,
  projectIo,
  revolutionCore,
  ridgeRadiusIo,
  shiftA,
  shiftIo,
  sizeIo,
  solvedA,
  solvedB,
  solvedIo,
  solvedNormal,
  triangleWitnessIo,
} = convexPair;
const {
  faceProject,
  featurePairNormal,
  featurePairWitnesses,
  featureWitnessIo,
  flatCore,
  generatorIo,
  generatorTol,
  lateralOffsetInto,
  loadGenerator,
  projectOnto,
} = witnessFeatures;

const faceY1 = vec3.create();
const faceY2 = vec3.create();
const faceX1 = vec3.create();
const faceX2 = vec3.create();

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

/** {@link faceWitnesses}' starting pair on the cores (solver frame). */
const faceX0 = vec3.create();
const faceY0 = vec3.create();

/**
 * The band, relative to the witnesses' magnitude, within which `faceWitnesses` takes a flat
 * core's converged witness onto the core: the near-touching band (`NEAR_TOUCH` of
 * src/narrowphase/convex-convex.ts), where `triangleWitnesses` runs too. A deeper contact (the
 * world's resting ones) pays nothing: moved within rounding, its witnesses sent the world's later
 * near-touch polish down rare, unoptimized paths (+2.6 KB per step in the six-curved-kinds
 * world, session 37).
 */
const FLAT_WITNESS_BAND = 2 ** -20;

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
 * `solve` leaves them), `k` the change of units, cores loaded, solver frame inside.
 */
function faceWitnesses(k: number): void {
  const n = solvedNormal;
  lateralOffsetInto(faceP, solvedA, solvedB, n, 1);
  const lateral = sizeIo[1];
  lengthInto(solvedA, 1);
  lengthInto(solvedB, 2);
  const d = solvedIo[0];
  if (!(lateral > FACE_WITNESS_SLACK * Math.max(sizeIo[1], sizeIo[2], Math.abs(d)))) return;
  // At a touch or within the near-touching band only, and not in face-depth's Newton steps: a
  // flat core's witness taken onto it (below).
  const flatOnto =
    triangleWitnessIo[0] === 0 && Math.abs(d) <= FLAT_WITNESS_BAND * Math.max(sizeIo[1], sizeIo[2]);
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
    // So too, at a touch or near it (flatOnto), a witness on a flat core (a triangle, a flat
    // hull), lifted onto its supporting plane by up to that slack (faceAlternate): its nearest
    // point of the core (in the core's frame at its nearest corner, written out), on it to its
    // rounding (a triangle's corner touching a cylinder's rim, the pair converged from the
    // refined normal with B's point 7.97e-19 off the triangle of 5e-5, 118 ulps of its
    // coordinates; issue 16, seed 87).
    for (let side = 0; side < 2; side++) {
      const w = side === 0 ? faceX : faceY;
      const core = side === 0 ? coreA.shape : coreB.shape;
      if (revolutionCore(core) !== null) projectOnto(faceQ, side, w);
      else if (flatOnto && flatCore(side)) faceProject(faceQ, side, w);
      else continue;
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

/**
 * This module's bindings that the others read, as one record: each reader binds them to its own
 * module constants once at load (an exported binding is read through a cell on every access,
 * twice the cost of a module constant in a hot loop).
 */
export const witnessFaces = { faceWitnesses, surfaceIo, coresToSurfaces };
