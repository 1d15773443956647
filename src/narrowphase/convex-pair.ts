/**
 * The pair that the general narrow phase (convex-convex.ts) is solving, shared by its stages:
 * the two cores as support maps (`ShapeCoreSupport`, `coreA`, `coreB`, `coreBInA`), B's pose in
 * the solver's frame (`pairBInA`, rescaled or moved to B by `loadPair`), the answer registers
 * (`solvedIo`, `solvedNormal`, `solvedA`, `solvedB`) and the error bound's (`boundIo`,
 * `satGapIo`), the witnesses' magnitudes (`sizeIo`, `lengthInto`), the overlap along a normal
 * (`overlapInto`), the shape-class predicates, the witness routines' own small vector helpers
 * (`faceCopy`, `faceSub`, …: monomorphic stores, not the shared vec3 helpers) and the
 * module-level scratch that convex-convex.ts and the witness modules (witness-features.ts,
 * witness-faces.ts, witness-polish.ts) share.
 *
 * Frames as in convex-convex.ts: A's frame, or the solver's when `loadPair` rescaled the pair or
 * moved its origin to B. Every register is a module-level typed array or vector: no allocation
 * per call.
 */

import { makeSupportFeature } from "../geometry/feature.js";
import { makeGjkResult } from "../geometry/gjk.js";
import { makeRevolutionProjection } from "../geometry/revolution.js";
import { SegmentSupport, type SupportMap, TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import { HYPOT_SAFE_MAX, HYPOT_SAFE_MIN, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { supportCuboid } from "../shapes/cuboid.js";
import { shapeDef } from "../shapes/registry.js";
import { type ConvexShape, ShapeType } from "../shapes/shape.js";
import { pairMagnitudes, pairRescaleFactor } from "./extreme-scale.js";

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
export let pairBInA: Isometry = scaledBInA;

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
 * times the least overlap). `solve` moves the answer back by +t.
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

// The answer of `solve`: signed distance of the full shapes, unit normal A→B, surface points.
/** [0] the signed distance (a module variable holding a double boxes every store). */
const solvedIo = new Float64Array(1);
const solvedNormal = vec3.create(1, 0, 0);
const solvedA = vec3.create();
const solvedB = vec3.create();

const faceP = vec3.create();
const faceX = vec3.create();
const faceY = vec3.create();
const faceQ = vec3.create();

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
 * direction of its tangent plane (`faceNewton`, `faceSecant`, `faceJumps`,
 * `faceResidual`). `out` may be `from`.
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

/** Sideways offset of the witnesses, relative to their magnitude, that `faceWitnesses` mends. */
const FACE_WITNESS_SLACK = 2 ** -48;

/** [0] the cores' gap along the normal (on return the least move), [1] the move allowed, for `faceFallback`. */
const faceFallbackIo = new Float64Array(2);

/** The cores' support points along the normal in `faceWitnesses` (A's along n, B's along −n; solver frame). */
const faceSA = vec3.create();
const faceSB = vec3.create();

/**
 * faceWitnesses' scalars (doubles crossing calls through a typed array): [0] gk, the cores'
 * planes' offset along facingN (hB − hA), [1] hA, [2] hB, [3] the convergence slack, [4] and [5]
 * the last pair's distances off A and off B, [6] 1 when both are within the slack, [7] the
 * projections' cap, [8] and [9] `faceJumps`' kinds of A's and B's supports, [10] the overlap
 * `faceNormal` started from, [11] the pair's magnitude.
 */
const faceIo = new Float64Array(12);
/** The normal of `faceAlternate`, solver frame. */
const facingN = vec3.create(1, 0, 0);

/** `faceNormal`'s largest tilt, radians (a refined normal is off by far less). */
const FACE_NORMAL_MAX_TILT = 2 ** -10;
const polishD1 = vec3.create();
/** [0] `projectOnto`'s distance, solver units. */
const projectIo = new Float64Array(1);
const pointEdge = makeSupportFeature();

/** [0] the solver's change of units of the last `solve`; [1], [2] `pointGap`'s answers. */
const touchIo = new Float64Array(3);
const touchGjk = makeGjkResult();
const touchPoint = new SegmentSupport();

/**
 * Certified bounds on the full signed distance s of the pair `solve` answers, in the
 * solver's units until it scales them: [0] a lower bound, [1] an upper bound. s = −min over unit n
 * of the overlap h_A(n) + h_B(−n) + rA + rB (gap or depth alike), so the overlap along any
 * direction gives a lower bound (the reported normal's: `lowerBound`); an upper bound is
 * a point of the Minkowski difference — GJK's closest point, |v| − r — or, when the cores
 * intersect, minus the depth of the origin in EPA's polytope (its vertices are support points,
 * so it lies inside the difference: its closest face is a lower bound on the depth), else −r
 * (GJK's simplex holds the origin). Set by `solveLoaded` ([1]) and `lowerBound` ([0]).
 */
const boundIo = new Float64Array(2);

/** [0] 1 when the last `solveLoaded` took a gap from SAT at EPA's floor (two polytopes). */
const satGapIo = new Float64Array(1);

const sA = vec3.create();
const sB = vec3.create();
const negN = vec3.create();

/** [0] `simplexSize`'s answer, [1] and [2] lengths of {@link lengthInto}; [3]–[5] `snapToFaceNormal`'s lengths, [6], [7] `alternateProjections`', [8], [9] `featureWitnesses`' and `revolutionFixedPoint`'s. */
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
const snapLocal = vec3.create();
/** [0] a bounding radius of `searchRevolutionRidges`. */
const ridgeRadiusIo = new Float64Array(1);

const revProj = makeRevolutionProjection();
/** A solid of revolution's half height and radius ({@link Revolution.dims}). */
const revDims = new Float64Array(2);
const revQ = vec3.create();

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
/** [0] the separation of `flatSeparation`'s best direction (−∞ when none). */
const flatIo = new Float64Array(1);
/** `flatSeparation`'s best direction (solver frame, unit). */
const flatN = vec3.create();
const flatDims = new Float64Array(2);

/** Cosine of the largest angle between the refined normal and a face normal it is snapped to. */
const FACE_SNAP_COS = 1 - 2 ** -20;

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
 * [0] 1 while `faceContactTriangleConvex` (src/narrowphase/face-depth.ts) takes its Newton
 * steps: `solve` (src/narrowphase/convex-convex.ts) then leaves a triangle's witness where the
 * witness routines put it — no `triangleWitnesses`, no flat-core projection in `faceWitnesses`
 * — as before they were added (issue 16, seed 87). Those steps run on the world's mesh contacts
 * at an internal edge every step, where the moves, within rounding, sent later steps down rare,
 * unoptimized paths of the near-touch polish (session 36's patch: +2.2 KB per step in the
 * six-curved-kinds world, its `faceWitnesses` part alone +2.6 KB; session 37).
 */
const triangleWitnessIo = new Uint8Array(1);

/**
 * This module's bindings that the others read, as one record: each reader binds them to its own
 * module constants once at load (an exported binding is read through a cell on every access,
 * twice the cost of a module constant in a hot loop).
 */
export const convexPair = {
  triangleWitnessIo,
  shiftA,
  shiftIo,
  pairOffset,
  loadPair,
  revolutionCore,
  curved,
  polytopeCore,
  flatPolytope,
  isPolytope,
  coreA,
  coreB,
  coreBInA,
  solvedIo,
  solvedNormal,
  solvedA,
  solvedB,
  faceP,
  faceX,
  faceY,
  faceQ,
  faceCopy,
  faceSub,
  faceNegate,
  faceAdd,
  faceRotate,
  faceCross,
  faceFromB,
  faceToB,
  faceShiftA,
  faceTiltIo,
  faceTilt,
  FACE_WITNESS_SLACK,
  faceFallbackIo,
  faceSA,
  faceSB,
  faceIo,
  facingN,
  FACE_NORMAL_MAX_TILT,
  polishD1,
  projectIo,
  pointEdge,
  touchIo,
  touchGjk,
  touchPoint,
  boundIo,
  satGapIo,
  sA,
  sB,
  negN,
  sizeIo,
  lengthInto,
  snapLocal,
  ridgeRadiusIo,
  revProj,
  revDims,
  revQ,
  toLocalA,
  fromLocalA,
  flatIo,
  flatN,
  flatDims,
  FACE_SNAP_COS,
  overlapIo,
  overlapInto,
  overlapMemo,
};
