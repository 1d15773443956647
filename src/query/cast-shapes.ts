/**
 * The `castShapes` query: the time of impact of two moving shapes, by conservative advancement
 * (Mirtich 1996, "Impulse-based Dynamic Simulation of Rigid Body Systems", §2.3; Zhang, Lee &
 * Kim 2006 for the rotating bound).
 *
 * At a time t with gap d > 0 and unit contact normal n (from A toward B), no point of B can
 * approach A faster than μ = −(v_B − v_A)·n + |ω_A|·r_A·|n × u_A| + |ω_B|·r_B·|n × u_B|, where
 * r is a shape's largest distance from its pose origin and u the fixed world axis of its nlerp
 * turn (only a point's part across the axis moves): the separation along the fixed axis n, a
 * lower bound of the gap, falls no faster than μ. So the shapes cannot touch before t + d/μ; advancing
 * there and repeating converges to the first contact from before, and never steps past it.
 * μ ≤ 0 proves they never touch. Under linear motion (ω = 0) the gap is a convex function of
 * time and the step is a Newton step on it, so convergence is fast (quadratic on smooth
 * contacts, finite on polytope faces). The search stops when the gap is at most
 * SHAPE_CAST_TOLERANCE times the shapes' size (plus rounding of their offset). A search still
 * short of that after its step budget (SHAPE_CAST_MAX_ITERATIONS under linear motion,
 * SHAPE_CAST_ROTATING_ITERATIONS with rotation, whose steps shrink with the bound) goes on with
 * the tolerance widened ×4 every SHAPE_CAST_MAX_ITERATIONS steps: it always ends, a hit is within
 * the tolerance it stopped at (never a time where the shapes are farther apart than that: the
 * time reached at a cap was reported as a hit, 8.15e-4 apart on a ball that the spinning box
 * never touches, attack 33) and no hit is ever past a contact.
 *
 * The gap, normal and witness points at each step come from the narrow phase's contact routine
 * (exact for sphere pairs, GJK on cores otherwise), so the answer at the time of impact is
 * that routine's contact; each step is taken on the separation along the normal from the shapes'
 * support functions (a certified lower bound of the gap; the routine's gap is accurate only to
 * its relative bar). Shapes already touching or overlapping give toi 0 with their contact;
 * shapes apart at time 0 (any gap the contact routine sees) never do. A convex pair apart at 0
 * within the stopping tolerance that a plane separates then (up to it) and whose motion opens
 * along it never meets (the separation along a fixed plane is linear in t; not a plane across
 * which two flat shapes in parallel planes lie on its far side, see `crossesFlat`); with no such plane
 * found it meets at once (docs/FORMATS.md, castShapes). The rotating form interpolates poses between two keyframes: translation linearly,
 * rotation by normalised linear interpolation of the quaternions (nlerp, no trigonometry),
 * whose angular speed is at most 4·tan(Ω/2) for the quaternions' angle Ω (the derivative of
 * nlerp peaks at the midpoint).
 */

import {
  GJK_ROUNDING_TOLERANCE,
  SHAPE_CAST_MAX_ITERATIONS,
  SHAPE_CAST_ROTATING_ITERATIONS,
  SHAPE_CAST_TOLERANCE,
} from "../constants.js";
import { invalidValue } from "../errors.js";
import type { MeshBvhHits } from "../geometry/mesh-bvh.js";
import { makeMeshBvhHits } from "../geometry/mesh-bvh.js";
import * as aabbm from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Mat3 } from "../math/mat3.js";
import * as mat3 from "../math/mat3.js";
import type { Quat } from "../math/quat.js";
import * as quat from "../math/quat.js";
import { hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { canonicalOrder } from "../narrowphase/canonical-order.js";
import type { PartPairSearch } from "../narrowphase/composite.js";
import { leastOverPartPairs } from "../narrowphase/composite.js";
import { makeContact } from "../narrowphase/contact.js";
import { planeOffsetAt } from "../narrowphase/convex-half-space.js";
import { contactPair, intersectsPair, unsupportedPair } from "../narrowphase/pair-table.js";
import { intersectsInQueryOrder } from "../narrowphase/touching.js";
import type { CompositePart, CompositeView } from "../shapes/composite.js";
import { compositeView, isCompositeType, makeCompositePart } from "../shapes/composite.js";
import { enterFarFrame, FarFrameSlot, leaveFarFrame } from "../shapes/far-frame.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { aabbShape, boundingRadiusOf, isSupportMappedType, supportOf } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { checkVec3, isShapeFinite } from "../shapes/validate.js";
import { checkOffset, checkPose, checkShapeArg, relativePose } from "./frames.js";
import { hasNaN3, refuseBadInputs } from "./guard.js";

/** A time of impact with the contact at that time, world frame. */
export interface ShapeCastHit {
  /** Time of impact: seconds for {@link castShapes}, the keyframe fraction in [0, 1] for {@link castShapesNonlinear}. */
  toi: number;
  /** Unit contact normal from A toward B at the time of impact. */
  normal: Vec3;
  /** Witness point on A at the time of impact. */
  pointA: Vec3;
  /** Witness point on B at the time of impact. */
  pointB: Vec3;
}

/** True when a number of `hit` is NaN. */
function castHitHasNaN(hit: ShapeCastHit): boolean {
  return Number.isNaN(hit.toi) || hasNaN3(hit.normal) || hasNaN3(hit.pointA) || hasNaN3(hit.pointB);
}

/**
 * True when a cast's answer stands: a hit free of NaN, or a miss with both shapes finite (a miss
 * may come from a NaN comparison). Otherwise the caller refuses its inputs (src/query/guard.ts).
 */
function castAnswerStands(found: boolean, hit: ShapeCastHit, a: Shape, b: Shape): boolean {
  return found ? !castHitHasNaN(hit) : isShapeFinite(a) && isShapeFinite(b);
}

/** A new zeroed shape-cast hit (allocates). */
export function makeShapeCastHit(): ShapeCastHit {
  return { toi: 0, normal: vec3.create(), pointA: vec3.create(), pointB: vec3.create() };
}

/**
 * Largest distance from the shape's local origin to any of its points (scene units; Infinity
 * for a half-space): the lever arm of the rotating bound and the size that scales the
 * tolerance. The shape definitions' value (src/shapes/registry.ts).
 */
export function boundingRadius(shape: Shape): number {
  return boundingRadiusOf(shape);
}

const contact = makeContact();
const poseA = iso.identity();
const poseB = iso.identity();
const q1A: Quat = quat.identity();
const q1B: Quat = quat.identity();
const relVel = vec3.create();
const nW = vec3.create();

/**
 * The motion of one body: pose at t = t0 + t·velocity, rotation nlerp(q0, q1, t) when rotating.
 * nlerp(q0, q1, t) = normalize((1 − t) + t·r)·q0 with r = q1·q0⁻¹ turns the body about one fixed
 * world axis through its origin, r's: `axis` (unit), or (0, 0, 0) when r's axis is not known
 * (no rotation, or a vector part that does not normalise), where the bound takes every axis.
 */
interface Motion {
  pose0: Isometry;
  velocity: Vec3;
  q1: Quat | null;
  axis: Vec3;
}

const motionA: Motion = {
  pose0: iso.identity(),
  velocity: vec3.create(),
  q1: null,
  axis: vec3.create(),
};
const motionB: Motion = {
  pose0: iso.identity(),
  velocity: vec3.create(),
  q1: null,
  axis: vec3.create(),
};

/**
 * One side of a cast: a shape carried by a body's motion, at pose `part` in the body's frame
 * (a part of a composite; identity for the body itself), with `lever` the body's bounding
 * radius about its origin (the rotating bound's lever arm) and `angular` its angular-speed
 * bound (rad per unit t).
 */
interface Side {
  shape: Shape;
  motion: Motion;
  part: Isometry;
  hasPart: boolean;
  lever: number;
  angular: number;
}

function makeSide(motion: Motion): Side {
  return {
    shape: SCRATCH_SHAPE,
    motion,
    part: iso.identity(),
    hasPart: false,
    lever: 0,
    angular: 0,
  };
}

/**
 * When set (world shape casts with `ignoreInitialOverlap`), a convex pair or composite part
 * already touching at time 0 is skipped: under a straight-line motion a convex set once left is
 * not met again.
 */
let skipInitial = false;

/**
 * The number of composite parts (or part pairs) {@link skipInitial} has skipped in the current
 * cast: a composite cast that skipped one keeps its best part's own contact rather than the whole
 * pair's ({@link wholeContactAt}), which would see the skipped part still overlapping at the time
 * of impact and report its normal and points (issue 16, attack 40).
 */
let skippedParts = 0;

/**
 * When set (castShapesInto without `ignoreInitialOverlap`), the time-0 question is already
 * answered for the whole pair by the `intersects` query's predicate, and it said apart: no part
 * of a cast may then answer toi 0, and a part whose contact routine sees a rounding-level
 * overlap at time 0 meets at the first time after 0 (or never, when the motion separates it).
 */
let startDecided = false;

const SCRATCH_SHAPE: Shape = { type: ShapeType.Sphere, radius: 0 };
const sideA = makeSide(motionA);
const sideB = makeSide(motionB);

function poseAt(out: Isometry, m: Motion, t: number): Isometry {
  vec3.addScaled(out.translation, m.pose0.translation, m.velocity, t);
  const q0 = m.pose0.rotation;
  const q1 = m.q1;
  if (!q1 || t === 0) quat.copy(out.rotation, q0);
  else {
    const r = out.rotation;
    r.x = q0.x + (q1.x - q0.x) * t;
    r.y = q0.y + (q1.y - q0.y) * t;
    r.z = q0.z + (q1.z - q0.z) * t;
    r.w = q0.w + (q1.w - q0.w) * t;
    if (quat.normalize(r, r) === 0) quat.copy(r, q0);
  }
  return out;
}

/** out = the world pose of side `s`'s shape at time t. */
function sidePoseAt(out: Isometry, s: Side, t: number): Isometry {
  poseAt(out, s.motion, t);
  if (s.hasPart) iso.multiply(out, out, s.part);
  return out;
}

/** Upper bound of nlerp's angular speed from q0 to q1 (same hemisphere), rad per unit t. */
function nlerpAngularBound(q0: Quat, q1: Quat): number {
  const c = Math.min(1, Math.abs(q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w));
  const s = Math.sqrt(Math.max(0, (1 - c) * (1 + c)));
  return (4 * s) / (1 + c);
}

/** Writes the contact at the current poses into out (world frame); returns the signed gap. */
function contactAt(out: ShapeCastHit, a: Shape, b: Shape, t: number): number {
  contactPair(contact, a, b, relativePose(poseA, poseB), Infinity);
  out.toi = t;
  iso.transformVector(out.normal, poseA, contact.normal);
  iso.transformPoint(out.pointA, poseA, contact.pointA);
  iso.transformPoint(out.pointB, poseA, contact.pointB);
  return contact.distance;
}

const sepRel = iso.identity();
const sepA = vec3.create();
const sepB = vec3.create();
const sepDir = vec3.create();

/**
 * The separation of convex `a` and `b` (at poseA, poseB) along the unit contact normal of the
 * last {@link contactAt} (A's frame): min over B of n·x − max over A of n·x, from their support
 * functions (Minkowski duality, van den Bergen 2003, §2.4). A lower bound of the gap for any
 * unit n, exact up to the rounding of the support points; under the motion it falls no faster
 * than the advancement's μ (the axis is fixed). NaN when a side has no support function (a
 * half-space, whose contact gap is already a plane's exact separation).
 */
function separationAlongNormal(a: Shape, b: Shape): number {
  if (!isSupportMappedType(a.type) || !isSupportMappedType(b.type)) return Number.NaN;
  const n = contact.normal;
  iso.invMul(sepRel, poseA, poseB);
  supportOf(sepA, a, n);
  vec3.negate(sepDir, n);
  quat.inverseRotate(sepDir, sepRel.rotation, sepDir);
  supportOf(sepB, b, sepDir);
  iso.transformPoint(sepB, sepRel, sepB);
  return n.x * (sepB.x - sepA.x) + n.y * (sepB.y - sepA.y) + n.z * (sepB.z - sepA.z);
}

const approachP = vec3.create();
const approachVA = vec3.create();
const approachVB = vec3.create();
const omegaQ: Quat = quat.identity();
const omegaD: Quat = quat.identity();
const omegaC: Quat = quat.identity();
const omegaR = vec3.create();

/**
 * out = the velocity at time t (scene units per unit t, the cast's frame) of the material point
 * of side `s`'s body at `p`: the body's velocity plus ω × (p − c), c the body's origin at t and
 * ω its angular velocity there. Under nlerp, q(t) = u/|u| with u = q0 + (q1 − q0)·t, so
 * q' = (d − q·(q·d))/|u| (d = q1 − q0, the derivative of a normalisation) and the world angular
 * velocity is the vector part of 2·q'·q̄ (Shoemake 1985; q' = ½·ω·q).
 */
function pointVelocity(out: Vec3, s: Side, t: number, p: Vec3): Vec3 {
  const m = s.motion;
  vec3.copy(out, m.velocity);
  const q1 = m.q1;
  if (!(s.angular > 0) || q1 === null) return out;
  const q0 = m.pose0.rotation;
  const d = omegaD;
  d.x = q1.x - q0.x;
  d.y = q1.y - q0.y;
  d.z = q1.z - q0.z;
  d.w = q1.w - q0.w;
  const q = omegaQ;
  q.x = q0.x + d.x * t;
  q.y = q0.y + d.y * t;
  q.z = q0.z + d.z * t;
  q.w = q0.w + d.w * t;
  const len = quat.length(q);
  if (!(len > 0) || !Number.isFinite(len)) return out;
  q.x /= len;
  q.y /= len;
  q.z /= len;
  q.w /= len;
  const qd = q.x * d.x + q.y * d.y + q.z * d.z + q.w * d.w;
  d.x = (d.x - q.x * qd) / len;
  d.y = (d.y - q.y * qd) / len;
  d.z = (d.z - q.z * qd) / len;
  d.w = (d.w - q.w * qd) / len;
  quat.multiply(omegaC, d, quat.conjugate(omegaC, q));
  // r = p − c(t); out += ω × r with ω = 2·(omegaC's vector part).
  vec3.addScaled(omegaR, m.pose0.translation, m.velocity, t);
  vec3.sub(omegaR, p, omegaR);
  const wx = 2 * omegaC.x;
  const wy = 2 * omegaC.y;
  const wz = 2 * omegaC.z;
  out.x += wy * omegaR.z - wz * omegaR.y;
  out.y += wz * omegaR.x - wx * omegaR.z;
  out.z += wx * omegaR.y - wy * omegaR.x;
  return out;
}

/**
 * A hit at t > 0 of two flat shapes face to face (triangles, flat hulls, a mesh's or a
 * heightfield's triangles, in parallel planes): at the time of impact the pair lies in one plane,
 * so the Minkowski difference is flat and both the plane's normals n and −n support it; the
 * contact routine's choice of sign is then arbitrary (issue 16, fresh-user attack 39: a triangle
 * cast onto a triangle gave (1, 0, 0) in both argument orders). At a first contact every valid
 * normal from A toward B has the material points closing along it, n·(v_B(p) − v_A(p)) ≤ 0 at
 * the witness point p (the relative path enters the Minkowski difference there: its outward
 * normal −n faces the path). So when n opens (that product > 0) and −n separates the shapes too
 * (the support functions' separation along −n at least −stopTol: the pair is flat across n),
 * the normal is negated; the points stay. A pair with volume across n (−n's separation is minus
 * its width) or without support functions (a half-space) keeps its normal. Reads the poses and
 * the contact of the last {@link contactAt} (at t); `out.normal` is its world normal.
 */
function orientFlatContact(out: ShapeCastHit, a: Side, b: Side, t: number, stopTol: number): void {
  vec3.lerp(approachP, out.pointA, out.pointB, 0.5);
  pointVelocity(approachVA, a, t, approachP);
  pointVelocity(approachVB, b, t, approachP);
  vec3.sub(approachVB, approachVB, approachVA);
  if (!(vec3.dot(approachVB, out.normal) > 0)) return;
  const n = contact.normal;
  vec3.negate(n, n);
  const sep = separationAlongNormal(a.shape, b.shape);
  vec3.negate(n, n);
  if (sep >= -stopTol) vec3.negate(out.normal, out.normal);
}

/** Largest distance between the bodies' origins over t ∈ [0, maxT] (linear paths: at an end). */
function originSpread(maxT: number): number {
  const a = motionA.pose0.translation;
  const b = motionB.pose0.translation;
  const d0 = hypot3(b.x - a.x, b.y - a.y, b.z - a.z);
  const d1 = hypot3(
    b.x - a.x + (motionB.velocity.x - motionA.velocity.x) * maxT,
    b.y - a.y + (motionB.velocity.y - motionA.velocity.y) * maxT,
    b.z - a.z + (motionB.velocity.z - motionA.velocity.z) * maxT,
  );
  return Math.max(d0, d1);
}

/**
 * |n × u| for unit n and a body's turning axis u ({@link Motion}), 1 when the axis is unknown,
 * plus 2^-30 for the rounding of both (at most 1): a point at distance ρ from the body's origin
 * turning at ω about u moves along a fixed n at most ω·ρ·|n × u| (n·(ω u × r) = ω r·(n × u), and
 * n × u is perpendicular to u, so only r's part across the axis counts), so the step's bound is
 * not the full lever's when the normal lies near the axis.
 */
function acrossAxis(u: Vec3, n: Vec3): number {
  if (u.x === 0 && u.y === 0 && u.z === 0) return 1;
  const c = hypot3(n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x);
  return Math.min(1, c + 2 ** -30);
}

/**
 * Conservative advancement of two convex (or half-space) sides over t ∈ [0, maxT]. An unbounded
 * side's lever arm (a half-space) is replaced by the reach of the other body from its origin:
 * the contact point on the plane is the projection of a point of the other body.
 */
function advance(out: ShapeCastHit, a: Side, b: Side, maxT: number): boolean {
  const rA = boundingRadiusOf(a.shape);
  const rB = boundingRadiusOf(b.shape);
  // The stopping gap follows the smaller shape (a tolerance relative to the larger one lets a
  // small shape stop early by many times its own accuracy: mixed scales, issue 16); an
  // unbounded side (a half-space) takes the other's size.
  const fA = Number.isFinite(rA) ? rA : 0;
  const fB = Number.isFinite(rB) ? rB : 0;
  const small = Number.isFinite(rA) && Number.isFinite(rB) ? Math.min(rA, rB) : Math.max(fA, fB);
  const large = Math.max(fA, fB);
  const shapeTol = SHAPE_CAST_TOLERANCE * small;
  let leverA = a.lever;
  let leverB = b.lever;
  if (a.angular > 0 && !Number.isFinite(leverA)) leverA = originSpread(maxT) + leverB;
  if (b.angular > 0 && !Number.isFinite(leverB)) leverB = originSpread(maxT) + leverA;
  const spin = (a.angular > 0 ? a.angular * leverA : 0) + (b.angular > 0 ? b.angular * leverB : 0);
  if (!Number.isFinite(spin)) return castTurningHalfSpaces(out, a, b, maxT);
  vec3.sub(relVel, b.motion.velocity, a.motion.velocity);
  let t = 0;
  // The search runs until it stops within its tolerance or proves no contact: past the budget
  // (a rotating motion's steps shrink with its bound, a graze's near its closest approach), the
  // stopping tolerance widens ×4 every SHAPE_CAST_MAX_ITERATIONS further steps, so a hit is
  // always within the tolerance it stopped at and never after a contact (docs/FORMATS.md).
  const budget = spin > 0 ? SHAPE_CAST_ROTATING_ITERATIONS : SHAPE_CAST_MAX_ITERATIONS;
  let widen = 1;
  for (let iter = 0; ; iter++) {
    if (iter >= budget && (iter - budget) % SHAPE_CAST_MAX_ITERATIONS === 0) widen *= 4;
    sidePoseAt(poseA, a, t);
    sidePoseAt(poseB, b, t);
    // At time 0 the pair's own predicate decides: toi 0 exactly when `intersects` is true, so
    // distance, intersects and castShapes agree (issue 16, class 8: boxes 2^-29 apart gave toi
    // 0; a contact routine's rounding-level gap or overlap never decides it).
    // When the whole pair's start is decided (apart), a part never answers toi 0.
    const touching =
      t === 0 && !startDecided && intersectsPair(a.shape, b.shape, relativePose(poseA, poseB));
    const gap = contactAt(out, a.shape, b.shape, t);
    if (touching) return true;
    // The rounding part of the tolerance follows the coordinates at the current time, not the
    // farthest point of the whole motion (a huge maxToi must not make every gap "touching"),
    // and the shapes' offset from each other and their sizes, not their distance from the origin.
    const coord = Math.max(vec3.distance(poseA.translation, poseB.translation), large);
    const stopTol =
      widen === Number.POSITIVE_INFINITY
        ? widen
        : (shapeTol + GJK_ROUNDING_TOLERANCE * coord) * widen;
    if (t > 0 && (gap <= 0 || gap <= stopTol)) {
      orientFlatContact(out, a, b, t, stopTol);
      return true;
    }
    vec3.copy(nW, out.normal);
    const mu =
      -vec3.dot(relVel, nW) +
      (a.angular > 0 ? a.angular * leverA * acrossAxis(a.motion.axis, nW) : 0) +
      (b.angular > 0 ? b.angular * leverB * acrossAxis(b.motion.axis, nW) : 0);
    // The step's gap is certified along the normal: the contact routine's gap is accurate only
    // to its relative bar (1e-9·d for GJK), so d/μ from a far start overshot a small shape's
    // contact by that much over μ (issue 16, seed 21: a cylinder of 5e-6 cast 2,547 to a mesh
    // face ended 4.7e-7 inside it). The separation along n is a true lower bound; the gap stays
    // when the normal separates much less (a poor normal: its plane proves little).
    const sep = separationAlongNormal(a.shape, b.shape);
    // Time 0 within the stopping tolerance (the predicate said apart: a rounding-level touch).
    const startTouch = t === 0 && gap <= stopTol;
    // Moving apart along n, proved never to meet: n separates them up to the tolerance, and
    // the separation along n then grows at −μ (a contact could only lie within a displacement
    // of the tolerance of the start, the touch `intersects` called apart; docs/FORMATS.md).
    const parts =
      !(mu > 0) &&
      (!startTouch ||
        Number.isNaN(sep) ||
        (sep >= -stopTol && !crossesFlat(a.shape, b.shape, sep)));
    if (parts) return false;
    if (startTouch) {
      // The normal of a rounding-level touch may be noise (witnesses at the rounding of far
      // coordinates) or one of many (an edge on a face): it neither proves they part nor that
      // they meet. Without rotation a probe a little later (2^14 times the tolerance of
      // displacement) may find a normal that separates them then and at time 0 and opens: they
      // never meet (docs/FORMATS.md, castShapes). Otherwise they meet at once.
      if (spin === 0 && vec3.length(relVel) === 0) return false;
      if (spin === 0 && partsAfterProbe(out, a, b, maxT, stopTol)) return false;
      if (!(maxT > 0)) return false;
      if (!(mu > 0)) {
        sidePoseAt(poseA, a, 0);
        sidePoseAt(poseB, b, 0);
        contactAt(out, a.shape, b.shape, 0);
        out.toi = Number.MIN_VALUE;
        return true;
      }
    }
    // (Only when the two differ by more than half the tolerance: below that, the step on the gap
    // lands within the tolerance, and a slightly short step would leave a curved pair's last
    // contact in the costly near-touching polish, 1.5–2× the time of a far cast.)
    const step = sep >= 0.5 * gap && gap - sep > 0.5 * stopTol ? sep : gap;
    // Apart at time 0 by the predicate but not by the contact's gap (rounding): they meet at
    // once, at the first time after 0.
    // (A gap below the rounding, as a closed form's smallest positive distance for a pair its
    // predicate calls apart, advances to that first time too: gap/mu underflows to 0.)
    let tNext = gap > 0 ? t + step / mu : t > 0 ? t : Number.MIN_VALUE;
    if (t === 0 && !(tNext > 0)) tNext = Number.MIN_VALUE;
    if (!(tNext <= maxT)) return false;
    t = tNext;
  }
}

/**
 * True when sides `a` and `b` (no rotation), within `stopTol` of touching at time 0, are apart at
 * the probe time t1 = 2^14·stopTol / |v_B − v_A| (or maxT if sooner) by more than `stopTol` along
 * the contact normal n there, n opens ((v_B − v_A)·n ≥ 0) and n separated them at time 0 up to
 * `stopTol`: the separation along n, linear in t, is then at least −stopTol from time 0 on and
 * positive after a displacement of 2·stopTol along n, so they touch at most within the
 * tolerance of their start, never after. Overwrites the poses, the contact and `out`.
 */
function partsAfterProbe(
  out: ShapeCastHit,
  a: Side,
  b: Side,
  maxT: number,
  stopTol: number,
): boolean {
  const t1 = Math.min(maxT, (16384 * stopTol) / vec3.length(relVel));
  if (!(t1 > 0)) return false;
  sidePoseAt(poseA, a, t1);
  sidePoseAt(poseB, b, t1);
  const gap = contactAt(out, a.shape, b.shape, t1);
  const opens = vec3.dot(relVel, out.normal);
  if (!(opens >= 0)) return false;
  const sep = separationAlongNormal(a.shape, b.shape);
  const sep1 = Number.isNaN(sep) ? gap : sep;
  // The separation along the fixed n is linear in t: at time 0 it was sep1 − t1·opens. It must
  // hold then too (up to the tolerance), or the probe may have passed through the other shape.
  if (!(sep1 > stopTol && sep1 - t1 * opens >= -stopTol)) return false;
  if (Number.isNaN(sep)) return true;
  // The same along n at time 0 itself (the poses as given, no rounding of t1·opens: a gap of
  // 1e-300 vanishes in it), and n must not cross a flat pair's slab (see crossesFlat).
  sidePoseAt(poseA, a, 0);
  sidePoseAt(poseB, b, 0);
  const sep0 = separationAlongNormal(a.shape, b.shape);
  return sep0 >= -stopTol && !crossesFlat(a.shape, b.shape, sep0);
}

/**
 * True when the pair at the current poses, with the contact normal n of the last
 * {@link contactAt} (A's frame) and `sep` its separation along n there, lies on the −n side of
 * its own thin slab: its projections on n overlap (sep < 0) and its separation along −n is
 * larger than along n. Only a pair whose Minkowski difference is thinner along n than twice |sep|
 * does so (separations along n and −n sum to minus that width): two flat shapes in parallel planes
 * (zero-thickness boxes, triangles, flat hulls, a mesh's or a heightfield's faces), where n and −n
 * both separate up to a rounding-level gap. A motion opening along n then closes along −n and
 * carries one face through the other, so n proves no parting (fresh-user finding 08: a flat tile
 * 1e-11 above a flat floor moving down onto it was null, passing through). Restores the normal.
 */
function crossesFlat(a: Shape, b: Shape, sep: number): boolean {
  if (!(sep < 0)) return false;
  const n = contact.normal;
  vec3.negate(n, n);
  const opposite = separationAlongNormal(a, b);
  vec3.negate(n, n);
  return opposite > sep;
}

/**
 * Two half-spaces, one of them rotating: both lever arms are unbounded, so conservative
 * advancement on the contact routine has no bound. Two half-spaces intersect unless their
 * normals are exactly opposite with a gap (src/narrowphase/half-space-half-space.ts), so:
 * - touching at time 0 (any pair but opposite normals with a gap): toi 0 with that contact;
 * - apart at time 0, and the motion keeps the normals opposite — each rotation turns its body
 *   about its own plane's normal (which leaves the half-space the same set), or both bodies
 *   turn by the same rotation (their relative orientation is then constant under nlerp) — the
 *   gap g(t) = m_A(t)·(p_B(t) − p_A(t)) − d_A − d_B (m_A A's world normal, p the bodies'
 *   origins, d the offsets) is closed by conservative advancement with the finite bound
 *   |g'| ≤ −(v_B − v_A)·m_A + ω_A·max|p_B − p_A| (a Newton step, exact in one step, when the
 *   normal does not turn); the contact at toi is A's normal with the points of each plane
 *   nearest A's origin, as the other queries give for opposite half-spaces;
 * - apart at time 0, and the relative rotation turns B's normal away from −n_A: the normals are
 *   opposite only at isolated instants, so the half-spaces intersect at every time just after 0.
 *   The answer is the first time after 0, toi = Number.MIN_VALUE (the same convention as a pair
 *   apart at time 0 by its predicate but not by its contact's gap), with the contact at time 0
 *   (normal n_A, the points of each plane nearest A's origin), when maxT > 0.
 * A rotation "turns about the normal" or two rotations are "the same" up to the rounding of
 * their quaternions (16ε).
 */
function castTurningHalfSpaces(out: ShapeCastHit, a: Side, b: Side, maxT: number): boolean {
  sidePoseAt(poseA, a, 0);
  sidePoseAt(poseB, b, 0);
  if (!startDecided && intersectsPair(a.shape, b.shape, relativePose(poseA, poseB))) {
    contactAt(out, a.shape, b.shape, 0);
    return true;
  }
  if (a.shape.type !== ShapeType.HalfSpace || b.shape.type !== ShapeType.HalfSpace)
    return unsupportedPair(a.shape, b.shape, "castShapesNonlinear (two unbounded shapes)");
  if (!(maxT > 0)) return false;
  const keepA = keepsNormal(turnA, a.motion, a.shape.normal);
  const keepB = keepsNormal(turnB, b.motion, b.shape.normal);
  // A turns its normal (else m_A is fixed): opposite normals held only by a shared rotation.
  const turnsA = !keepA;
  if (!(keepA && keepB) && !(!keepA && !keepB && sameTurn(turnA, turnB))) {
    contactAt(out, a.shape, b.shape, 0);
    out.toi = Number.MIN_VALUE;
    return true;
  }
  const spin = turnsA ? a.angular * originSpread(maxT) : 0;
  vec3.sub(relVel, b.motion.velocity, a.motion.velocity);
  const dA = a.shape.offset;
  const dB = b.shape.offset;
  let t = 0;
  // Past the budget the tolerance widens as in `advance`: a hit is within the tolerance it
  // stopped at.
  let widen = 1;
  for (let iter = 0; ; iter++) {
    if (iter >= SHAPE_CAST_ROTATING_ITERATIONS && iter % SHAPE_CAST_MAX_ITERATIONS === 0)
      widen *= 4;
    const gap = halfSpaceGapAt(a, b, t, turnsA);
    const span = vec3.distance(poseA.translation, poseB.translation);
    const tol =
      widen === Number.POSITIVE_INFINITY
        ? widen
        : (SHAPE_CAST_TOLERANCE + GJK_ROUNDING_TOLERANCE) *
          Math.max(span, Math.abs(dA), Math.abs(dB)) *
          widen;
    if (t > 0 && gap <= tol) break;
    const mu = -vec3.dot(relVel, nW) + spin;
    if (!(mu > 0)) return false;
    const tNext = t + gap / mu;
    if (!(tNext <= maxT)) return false;
    t = tNext;
  }
  const gap = halfSpaceGapAt(a, b, t, turnsA);
  out.toi = t;
  vec3.copy(out.normal, nW);
  vec3.addScaled(out.pointA, poseA.translation, nW, dA);
  vec3.addScaled(out.pointB, out.pointA, nW, gap);
  return true;
}

const turnA: Quat = quat.identity();
const turnB: Quat = quat.identity();
const turnAxis = vec3.create();
const TURN_EPS = 16 * Number.EPSILON;

/**
 * out = the body's turn r = q1·q0⁻¹ (identity when it does not rotate); true when the turn is
 * about the body's world normal R(q0)·n (nlerp(q0, r·q0, t) = normalize((1 − t) + t·r)·q0 turns
 * about r's axis at every t, so the half-space stays the same set).
 */
function keepsNormal(out: Quat, m: Motion, normal: Vec3): boolean {
  if (!m.q1) {
    out.x = 0;
    out.y = 0;
    out.z = 0;
    out.w = 1;
    return true;
  }
  quat.conjugate(out, m.pose0.rotation);
  quat.multiply(out, m.q1, out);
  quat.rotate(turnAxis, m.pose0.rotation, normal);
  const v = hypot3(out.x, out.y, out.z);
  const cx = out.y * turnAxis.z - out.z * turnAxis.y;
  const cy = out.z * turnAxis.x - out.x * turnAxis.z;
  const cz = out.x * turnAxis.y - out.y * turnAxis.x;
  return hypot3(cx, cy, cz) <= TURN_EPS * v;
}

/**
 * True when two turns are the same quaternion up to 16ε (both are taken the shorter way, so the
 * same rotation gives the same nlerp path only with the same sign).
 */
function sameTurn(p: Quat, q: Quat): boolean {
  return (
    Math.abs(p.x - q.x) <= TURN_EPS &&
    Math.abs(p.y - q.y) <= TURN_EPS &&
    Math.abs(p.z - q.z) <= TURN_EPS &&
    Math.abs(p.w - q.w) <= TURN_EPS
  );
}

/**
 * The gap of two opposite half-spaces at time t: loads the poses, nW = A's world normal (turned
 * with A's pose when `turnsA`, else at time 0); g = m_A·(p_B − p_A) − d_A − d_B.
 */
function halfSpaceGapAt(a: Side, b: Side, t: number, turnsA: boolean): number {
  sidePoseAt(poseA, a, t);
  sidePoseAt(poseB, b, t);
  const hA = a.shape as HalfSpace;
  const hB = b.shape as HalfSpace;
  quat.rotate(nW, turnsA ? poseA.rotation : a.motion.pose0.rotation, hA.normal);
  const dx = poseB.translation.x - poseA.translation.x;
  const dy = poseB.translation.y - poseA.translation.y;
  const dz = poseB.translation.z - poseA.translation.z;
  return nW.x * dx + nW.y * dy + nW.z * dz - hA.offset - hB.offset;
}

/** Scratch of one composite level of a cast. */
interface CastLevel {
  hits: MeshBvhHits;
  part: CompositePart;
  side: Side;
  hit: ShapeCastHit;
  best: ShapeCastHit;
  frame: Isometry;
  posA0: Vec3;
  posA1: Vec3;
  /** Two composites ({@link castTwoComposites}): A's part, the sides, the search and its bounds. */
  partOfA: CompositePart;
  sideOfA: Side;
  sideA: Side;
  sideB: Side;
  maxT: number;
  found: boolean;
  search: PartPairSearch;
  frameB: Isometry;
  rel: Isometry;
  rot: Mat3;
  vel: Vec3;
  linear: boolean;
  pad: number;
  ca: Vec3;
  cb: Vec3;
}

const castLevels: CastLevel[] = [];
let castDepth = 0;

function castLevel(): CastLevel {
  while (castLevels.length <= castDepth) {
    const l: CastLevel = {
      hits: makeMeshBvhHits(16),
      part: makeCompositePart(),
      side: makeSide(motionA),
      hit: makeShapeCastHit(),
      best: makeShapeCastHit(),
      frame: iso.identity(),
      posA0: vec3.create(),
      posA1: vec3.create(),
      partOfA: makeCompositePart(),
      sideOfA: makeSide(motionA),
      sideA: sideA,
      sideB: sideB,
      maxT: 0,
      found: false,
      search: { lower: () => 0, pair: () => Infinity },
      frameB: iso.identity(),
      rel: iso.identity(),
      rot: mat3.create(),
      vel: vec3.create(),
      linear: true,
      pad: 0,
      ca: vec3.create(),
      cb: vec3.create(),
    };
    l.search = {
      lower: (ba, bb) => castNodeBound(l, ba, bb),
      pair: (ia, ib, limit) => castPartPair(l, ia, ib, limit),
    };
    castLevels.push(l);
  }
  return castLevels[castDepth];
}

const swapped = makeShapeCastHit();

/** The cast of side A against side B, whatever their kinds (composite, convex, half-space). */
function castSides(out: ShapeCastHit, a: Side, b: Side, maxT: number): boolean {
  if (castsTwoTrees(a.shape.type, b.shape.type)) return castTwoComposites(out, a, b, maxT);
  if (isCompositeType(b.shape.type)) return castComposite(out, a, b, maxT);
  if (isCompositeType(a.shape.type)) {
    if (!castComposite(swapped, b, a, maxT)) return false;
    flipHit(out, swapped);
    return true;
  }
  return advance(out, a, b, maxT);
}

/**
 * The cast of side A against composite side B: the earliest of the casts against B's parts
 * that A can reach during the motion (candidates from the composite's bounding-volume query
 * with A's swept bound in B's frame; every part when B rotates), each later part searched only
 * up to the best time so far. Ties go to the first part in the view's order.
 */
function castComposite(out: ShapeCastHit, a: Side, b: Side, maxT: number): boolean {
  if (
    !skipInitial &&
    !startDecided &&
    isSolid(b.shape) &&
    intersectsPair(a.shape, b.shape, relativePose(sidePoseAt(poseA, a, 0), sidePoseAt(poseB, b, 0)))
  ) {
    // A solid mesh holding A touches no triangle, so no part's cast sees it: toi 0 here.
    contactAt(out, a.shape, b.shape, 0);
    return true;
  }
  const view = compositeView(b.shape.type) as CompositeView;
  const l = castLevel();
  castDepth++;
  try {
    let n: number;
    if (b.angular > 0) {
      n = view.queryAabb(
        l.hits,
        b.shape,
        -Infinity,
        -Infinity,
        -Infinity,
        Infinity,
        Infinity,
        Infinity,
      );
    } else {
      // B's frame is a fixed rotation moving linearly, so A's reference point moves linearly in
      // it: A's shape origin when A does not rotate (reach: A's radius), else A's body origin
      // (reach: A's lever).
      const useBody = a.angular > 0;
      const reach = useBody ? a.lever : boundingRadiusOf(a.shape);
      sidePoseAt(l.frame, b, 0);
      referencePoint(l.posA0, a, 0, useBody);
      iso.inverseTransformPoint(l.posA0, l.frame, l.posA0);
      sidePoseAt(l.frame, b, maxT);
      referencePoint(l.posA1, a, maxT, useBody);
      iso.inverseTransformPoint(l.posA1, l.frame, l.posA1);
      const p = l.posA0;
      const q = l.posA1;
      n = view.queryAabb(
        l.hits,
        b.shape,
        Math.min(p.x, q.x) - reach,
        Math.min(p.y, q.y) - reach,
        Math.min(p.z, q.z) - reach,
        Math.max(p.x, q.x) + reach,
        Math.max(p.y, q.y) + reach,
        Math.max(p.z, q.z) + reach,
      );
    }
    const side = l.side;
    side.motion = b.motion;
    side.lever = b.lever;
    side.angular = b.angular;
    side.hasPart = true;
    let found = false;
    let limit = maxT;
    const skipped0 = skippedParts;
    for (let h = 0; h < n; h++) {
      view.part(l.part, b.shape, l.hits.ids[h]);
      side.shape = l.part.shape;
      if (b.hasPart) iso.copy(side.part, b.part);
      else iso.copy(side.part, IDENTITY);
      if (l.part.hasPose) iso.multiply(side.part, side.part, l.part.pose);
      if (!castSides(l.hit, a, side, limit)) continue;
      if (skipInitial && l.hit.toi === 0) {
        skippedParts++;
        continue;
      }
      if (found && !(l.hit.toi < l.best.toi)) continue;
      found = true;
      limit = l.hit.toi;
      copyHit(l.best, l.hit);
    }
    if (found) {
      copyHit(out, l.best);
      // With parts skipped (touching at time 0, ignoreInitialOverlap) the answer is the hit
      // part's own contact: the whole pair's would see a skipped part (docs/FORMATS.md).
      if (skippedParts === skipped0) wholeContactAt(out, a, b);
    }
    return found;
  } finally {
    castDepth--;
  }
}

/**
 * The normal and points of composite cast `out` (at out.toi) taken again from the contact of the
 * whole pair there: at the time of impact several parts may touch at once (a cylinder reaching a
 * box mesh's side face with its end faces in the planes of the box's top and bottom touches six
 * triangles), and a lone part's normal need not separate the others (the bottom triangle's
 * (0,1,0) cut through the side face, with both points at a far corner). The composite contact
 * picks among touching parts the normal that achieves the depth on the others. The part's answer
 * stays when the pair's contact sees nothing that close (rounding).
 */
function wholeContactAt(out: ShapeCastHit, a: Side, b: Side): void {
  const t = out.toi;
  sidePoseAt(poseA, a, t);
  sidePoseAt(poseB, b, t);
  // The cast stops within its tolerance of touching (see `advance`): look that far.
  const rA = boundingRadiusOf(a.shape);
  const rB = boundingRadiusOf(b.shape);
  const small = Math.min(Number.isFinite(rA) ? rA : rB, Number.isFinite(rB) ? rB : rA);
  const reach =
    2 * vec3.distance(out.pointA, out.pointB) +
    SHAPE_CAST_TOLERANCE * (Number.isFinite(small) ? small : 0) +
    GJK_ROUNDING_TOLERANCE * vec3.distance(poseA.translation, poseB.translation);
  if (!contactPair(contact, a.shape, b.shape, relativePose(poseA, poseB), reach)) return;
  iso.transformVector(out.normal, poseA, contact.normal);
  iso.transformPoint(out.pointA, poseA, contact.pointA);
  iso.transformPoint(out.pointB, poseA, contact.pointB);
  orientOpeningNormal(out, a, b, reach);
}

const probeContact = makeContact();
const probeNormal = vec3.create();

/**
 * The composite form of {@link orientFlatContact}: flat parts face to face (a triangle on a
 * mesh's coplanar triangle, two surface quads) touch at the time of impact in one plane, and the
 * pair's contact there picks that plane's normal with either sign (the parts' own hits may have
 * given an in-plane edge normal, which says nothing of the sign). A normal n that opens at the
 * witness point (n·(v_B(p) − v_A(p)) > 0) is no first contact's. The pair is then looked at
 * again a little before: at t − Δ, Δ the time the closing speed along n takes to cover 2^10 times
 * `reach` (the stopping gap), the pair is apart by about that much and its contact normal is the
 * direction from A's closest point to B's, whose sign is not in doubt; when it lies across from
 * n (dot < −1/2: the same plane seen from the other side) n is negated. Overwrites the poses.
 */
function orientOpeningNormal(out: ShapeCastHit, a: Side, b: Side, reach: number): void {
  const t = out.toi;
  vec3.lerp(approachP, out.pointA, out.pointB, 0.5);
  pointVelocity(approachVA, a, t, approachP);
  pointVelocity(approachVB, b, t, approachP);
  vec3.sub(approachVB, approachVB, approachVA);
  const opens = vec3.dot(approachVB, out.normal);
  if (!(opens > 0)) return;
  const dt = Math.min(t, (1024 * reach) / opens);
  if (!(dt > 0)) return;
  sidePoseAt(poseA, a, t - dt);
  sidePoseAt(poseB, b, t - dt);
  if (!contactPair(probeContact, a.shape, b.shape, relativePose(poseA, poseB), Infinity)) return;
  iso.transformVector(probeNormal, poseA, probeContact.normal);
  if (vec3.dot(probeNormal, out.normal) < -0.5) vec3.negate(out.normal, out.normal);
}

const IDENTITY = iso.identity();

/**
 * True when a pair of composite types is cast through the composite module's node-pair search
 * ({@link castTwoComposites}): both views have a tree and neither is flat (`flatTree`, the
 * heightfield: its pairs with composites keep the part-by-part cast, as their other queries keep
 * their path).
 */
function castsTwoTrees(ta: number, tb: number): boolean {
  const va = compositeView(ta);
  const vb = compositeView(tb);
  if (va === null || vb === null || va.flatTree === true || vb.flatTree === true) return false;
  return va.tree !== undefined && vb.tree !== undefined;
}

/**
 * The cast of two composite sides: the earliest time of impact over their part pairs, by the
 * composite module's branch and bound over node pairs ({@link leastOverPartPairs}), each part
 * pair cast as two sides (a compound's child may be composite itself) up to the best time so
 * far. A node pair's bound: under linear motion (neither rotates) the time B's node box, moving
 * in A's frame, first meets A's; else conservative advancement on the boxes' bounding balls
 * (their gap at time 0 over the fastest their centres can close). The normal and points are the
 * whole pair's contact at the time of impact (see {@link wholeContactAt}). A solid mesh holding
 * the other at time 0 touches no part pair: toi 0 there.
 */
function castTwoComposites(out: ShapeCastHit, a: Side, b: Side, maxT: number): boolean {
  if (
    !skipInitial &&
    !startDecided &&
    (isSolid(a.shape) || isSolid(b.shape)) &&
    intersectsPair(a.shape, b.shape, relativePose(sidePoseAt(poseA, a, 0), sidePoseAt(poseB, b, 0)))
  ) {
    contactAt(out, a.shape, b.shape, 0);
    return true;
  }
  const l = castLevel();
  castDepth++;
  try {
    l.sideA = a;
    l.sideB = b;
    l.maxT = maxT;
    l.found = false;
    const skipped0 = skippedParts;
    prepareBounds(l, a, b, maxT);
    leastOverPartPairs(a.shape, b.shape, l.search, Infinity);
    if (!l.found) return false;
    copyHit(out, l.best);
    if (skippedParts === skipped0) wholeContactAt(out, a, b);
    return true;
  } finally {
    castDepth--;
  }
}

/** True for a closed solid composite (its view's `isSolid`: a mesh made with `solid: true`). */
function isSolid(s: Shape): boolean {
  const view = compositeView(s.type);
  return view?.isSolid?.(s) === true;
}

/** Loads part `i` of composite side `c` into `side` (the part's shape, its pose from the body). */
function loadPartSide(side: Side, part: CompositePart, c: Side, i: number): void {
  (compositeView(c.shape.type) as CompositeView).part(part, c.shape, i);
  side.shape = part.shape;
  side.motion = c.motion;
  side.lever = c.lever;
  side.angular = c.angular;
  side.hasPart = true;
  if (c.hasPart) iso.copy(side.part, c.part);
  else iso.copy(side.part, IDENTITY);
  if (part.hasPose) iso.multiply(side.part, side.part, part.pose);
}

/** The key of one part pair of {@link castTwoComposites}: its toi when below `limit`. */
function castPartPair(l: CastLevel, ia: number, ib: number, limit: number): number {
  loadPartSide(l.side, l.part, l.sideB, ib);
  loadPartSide(l.sideOfA, l.partOfA, l.sideA, ia);
  if (!castSides(l.hit, l.sideOfA, l.side, Math.min(limit, l.maxT))) return Infinity;
  if (skipInitial && l.hit.toi === 0) {
    skippedParts++;
    return Infinity;
  }
  if (!(l.hit.toi < limit)) return Infinity;
  l.found = true;
  copyHit(l.best, l.hit);
  return l.hit.toi;
}

/**
 * The node-pair bounds' constants of {@link castTwoComposites}: the boxes grow by a margin over
 * the cast's stopping gap (a part cast stops that far before touching, so its toi may be that
 * much before its boxes meet); under linear motion B's frame in A's (rotation, translation at
 * time 0) and its velocity there; else each side's pose at time 0 and its speed bounds.
 */
function prepareBounds(l: CastLevel, a: Side, b: Side, maxT: number): void {
  const spread = Number.isFinite(maxT) ? originSpread(maxT) : 0;
  l.pad =
    4 *
    (SHAPE_CAST_TOLERANCE + GJK_ROUNDING_TOLERANCE) *
    (boundingRadiusOf(a.shape) + boundingRadiusOf(b.shape) + spread + 1e-300);
  sidePoseAt(l.frame, a, 0);
  sidePoseAt(l.frameB, b, 0);
  l.linear = !(a.angular > 0) && !(b.angular > 0);
  if (l.linear) {
    iso.invMul(l.rel, l.frame, l.frameB);
    mat3.fromQuat(l.rot, l.rel.rotation);
    vec3.sub(l.vel, b.motion.velocity, a.motion.velocity);
    quat.inverseRotate(l.vel, l.frame.rotation, l.vel);
  }
}

/** {@link castTwoComposites}' lower bound of the toi under A's node box `ba` and B's `bb`. */
function castNodeBound(l: CastLevel, ba: Float64Array, bb: Float64Array): number {
  const pad = l.pad;
  if (l.linear) {
    // B's box in A's frame: centre R·c + T moving with l.vel, half extents |R|·h.
    const m = l.rot;
    const t = l.rel.translation;
    const cx = 0.5 * (bb[0] + bb[3]);
    const cy = 0.5 * (bb[1] + bb[4]);
    const cz = 0.5 * (bb[2] + bb[5]);
    const hx = 0.5 * (bb[3] - bb[0]);
    const hy = 0.5 * (bb[4] - bb[1]);
    const hz = 0.5 * (bb[5] - bb[2]);
    let enter = 0;
    let exit = Infinity;
    for (let k = 0; k < 3; k++) {
      const r = 3 * k;
      const c = m[r] * cx + m[r + 1] * cy + m[r + 2] * cz + (k === 0 ? t.x : k === 1 ? t.y : t.z);
      const e = Math.abs(m[r]) * hx + Math.abs(m[r + 1]) * hy + Math.abs(m[r + 2]) * hz;
      const reach = e + 0.5 * (ba[k + 3] - ba[k]) + pad;
      const gap = c - 0.5 * (ba[k] + ba[k + 3]);
      const v = k === 0 ? l.vel.x : k === 1 ? l.vel.y : l.vel.z;
      // |gap + v·t| ≤ reach.
      if (v === 0) {
        if (Math.abs(gap) > reach) return Infinity;
        continue;
      }
      const t0 = (-reach - gap) / v;
      const t1 = (reach - gap) / v;
      enter = Math.max(enter, Math.min(t0, t1));
      exit = Math.min(exit, Math.max(t0, t1));
    }
    return enter <= exit ? enter : Infinity;
  }
  // Bounding balls: centres in the world at time 0, each moving at most |v| + ω·|centre offset|.
  const a = l.sideA;
  const b = l.sideB;
  ballCentre(l.ca, ba, l.frame);
  ballCentre(l.cb, bb, l.frameB);
  const ra = 0.5 * Math.hypot(ba[3] - ba[0], ba[4] - ba[1], ba[5] - ba[2]);
  const rb = 0.5 * Math.hypot(bb[3] - bb[0], bb[4] - bb[1], bb[5] - bb[2]);
  const gap = vec3.distance(l.ca, l.cb) - ra - rb - pad;
  if (!(gap > 0)) return 0;
  const speed =
    vec3.length(a.motion.velocity) +
    vec3.length(b.motion.velocity) +
    a.angular * (vec3.distance(l.ca, a.motion.pose0.translation) + ra) +
    b.angular * (vec3.distance(l.cb, b.motion.pose0.translation) + rb);
  return speed > 0 ? gap / speed : Infinity;
}

/** out = the world centre at time 0 of box `b` (in the frame posed by `frame`). */
function ballCentre(out: Vec3, b: Float64Array, frame: Isometry): void {
  vec3.set(out, 0.5 * (b[0] + b[3]), 0.5 * (b[1] + b[4]), 0.5 * (b[2] + b[5]));
  iso.transformPoint(out, frame, out);
}

/** out = side `s`'s reference point at time t: its body origin, or its shape's origin. */
function referencePoint(out: Vec3, s: Side, t: number, body: boolean): Vec3 {
  if (body) return vec3.addScaled(out, s.motion.pose0.translation, s.motion.velocity, t);
  sidePoseAt(poseA, s, t);
  return vec3.copy(out, poseA.translation);
}

function copyHit(out: ShapeCastHit, h: ShapeCastHit): void {
  out.toi = h.toi;
  vec3.copy(out.normal, h.normal);
  vec3.copy(out.pointA, h.pointA);
  vec3.copy(out.pointB, h.pointB);
}

/** Loads the two bodies as the top-level sides and casts them. */
function castBodies(
  out: ShapeCastHit,
  a: Shape,
  b: Shape,
  maxT: number,
  angularA: number,
  angularB: number,
): boolean {
  loadSide(sideA, a, motionA, angularA);
  loadSide(sideB, b, motionB, angularB);
  return castSides(out, sideA, sideB, maxT);
}

function loadSide(s: Side, shape: Shape, motion: Motion, angular: number): void {
  s.shape = shape;
  s.motion = motion;
  s.hasPart = false;
  s.lever = boundingRadiusOf(shape);
  s.angular = angular;
}

/**
 * The first time of contact of `a` (world pose `poseA` at time 0, moving with constant
 * `velocityA`, scene units per second, no rotation) and `b` (`poseB`, `velocityB`) within
 * [0, maxToi] seconds: writes toi, the unit normal from A toward B and the witness points at
 * that time (world frame) to `out` and returns true, or returns false when they do not touch
 * by maxToi. Touching or overlapping at time 0 gives toi 0 and the contact there (or, with
 * `ignoreInitialOverlap`, no hit from that pair or composite part). Hot-path
 * form: no validation, no allocation. Throws `unsupported_pair` for a shape pair without a
 * contact routine. Source: conservative advancement (Mirtich 1996).
 */
export function castShapesInto(
  out: ShapeCastHit,
  a: Shape,
  poseA0: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB0: Isometry,
  velocityB: Vec3,
  maxToi = Number.POSITIVE_INFINITY,
  ignoreInitialOverlap = false,
): boolean {
  const f = enterFarFrame(FarFrameSlot.Cast, a, poseA0, b, poseB0);
  if (f === null)
    return castInFrame(
      out,
      a,
      poseA0,
      velocityA,
      b,
      poseB0,
      velocityB,
      maxToi,
      ignoreInitialOverlap,
    );
  // The frame at a far triangle's first corner (src/shapes/triangle-frame.ts; issue 16: a triangle
  // 0.3 wide at 1.5e8 beside a cone was cast at toi 3.7e-11, where the pair meets at 5.6e-12).
  const found = castInFrame(
    out,
    f.a,
    f.poseA,
    velocityA,
    f.b,
    f.poseB,
    velocityB,
    maxToi,
    ignoreInitialOverlap,
  );
  leaveFarFrame(f, out.pointA, out.pointB);
  return found;
}

/** {@link castShapesInto} in the frame given (no triangle frame). */
function castInFrame(
  out: ShapeCastHit,
  a: Shape,
  poseA0: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB0: Isometry,
  velocityB: Vec3,
  maxToi: number,
  ignoreInitialOverlap: boolean,
): boolean {
  if (!swapsOrder(a, poseA0, velocityA, b, poseB0, velocityB))
    return castOrdered(
      out,
      a,
      poseA0,
      velocityA,
      b,
      poseB0,
      velocityB,
      maxToi,
      ignoreInitialOverlap,
    );
  const found = castOrdered(
    swappedHit,
    b,
    poseB0,
    velocityB,
    a,
    poseA0,
    velocityA,
    maxToi,
    ignoreInitialOverlap,
  );
  if (found) flipHit(out, swappedHit);
  return found;
}

const swappedHit = makeShapeCastHit();
const orderVelocity = vec3.create();

/**
 * True when a pair of two composites of one type (mesh–mesh, compound–compound) is cast as
 * (B, A) and flipped, so that both argument orders run one computation and swapping A and B
 * negates the normal and swaps the points (issue 16, must-have 2; the parts' ties and the
 * A-centred frame otherwise differ by order). Decided by the relative pose at time 0
 * ({@link canonicalOrder}), then by the relative velocity in A's frame, whose swap negates it.
 */
function swapsOrder(
  a: Shape,
  poseA0: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB0: Isometry,
  velocityB: Vec3,
): boolean {
  if (a.type !== b.type || !isCompositeType(a.type)) return false;
  const c = canonicalOrder(relativePose(poseA0, poseB0));
  if (c !== 0) return c < 0;
  vec3.sub(orderVelocity, velocityB, velocityA);
  quat.inverseRotate(orderVelocity, poseA0.rotation, orderVelocity);
  const v = orderVelocity;
  if (v.x !== 0) return v.x < 0;
  if (v.y !== 0) return v.y < 0;
  return v.z < 0;
}

/** out = hit `h` of the pair (B, A), seen as (A, B): the normal negated, the points swapped. */
function flipHit(out: ShapeCastHit, h: ShapeCastHit): void {
  out.toi = h.toi;
  vec3.negate(out.normal, h.normal);
  vec3.copy(out.pointA, h.pointB);
  vec3.copy(out.pointB, h.pointA);
}

/** {@link castShapesInto} in the order given. */
function castOrdered(
  out: ShapeCastHit,
  a: Shape,
  poseA0: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB0: Isometry,
  velocityB: Vec3,
  maxToi: number,
  ignoreInitialOverlap: boolean,
): boolean {
  if (!ignoreInitialOverlap && intersectsAtStart(a, poseA0, b, poseB0)) {
    // Toi 0 exactly when the `intersects` query says so (issue 16, class 8), with the contact
    // there (world poses as given).
    iso.copy(poseA, poseA0);
    iso.copy(poseB, poseB0);
    contactAt(out, a, b, 0);
    return true;
  }
  // The search runs in an offset-free frame: A at rest with its position at the origin, B moving
  // with the relative velocity. The offset of the pair from the world origin then rounds
  // nothing (at 1e7 from the origin a world coordinate's ulp is 2e-9, far above the accuracy
  // of a small pair's time of impact); the answer is moved back at the end.
  vec3.set(motionA.pose0.translation, 0, 0, 0);
  quat.copy(motionA.pose0.rotation, poseA0.rotation);
  vec3.set(motionA.velocity, 0, 0, 0);
  motionA.q1 = null;
  vec3.sub(motionB.pose0.translation, poseB0.translation, poseA0.translation);
  quat.copy(motionB.pose0.rotation, poseB0.rotation);
  vec3.sub(motionB.velocity, velocityB, velocityA);
  motionB.q1 = null;
  // A half-space against a bounded shape: its plane moved to the other body's origin (below).
  const origin = rebaseHalfSpace(a, b, poseA0, poseB0);
  if (origin !== 0) {
    if (origin === 1) b = rebasedPlane;
    else a = rebasedPlane;
  }
  skipInitial = ignoreInitialOverlap;
  startDecided = !ignoreInitialOverlap;
  try {
    const found = castBodies(out, a, b, maxToi, 0, 0);
    if (found) {
      vec3.addScaled(
        shift,
        origin === 2 ? poseB0.translation : poseA0.translation,
        velocityA,
        out.toi,
      );
      vec3.add(out.pointA, out.pointA, shift);
      vec3.add(out.pointB, out.pointB, shift);
    }
    return found && !(ignoreInitialOverlap && out.toi === 0);
  } finally {
    skipInitial = false;
    startDecided = false;
  }
}

const shift = vec3.create();

/** A half-space record (a class: a map of its own, its `offset` an untagged double). */
class PlaneRecord implements HalfSpace {
  readonly type = ShapeType.HalfSpace;
  normal: Vec3 = vec3.create(0, 0, 1);
  offset = 0;
}

/** The plane of {@link rebaseHalfSpace}: the cast's half-space seen from the other body's origin. */
const rebasedPlane = new PlaneRecord();
const rebaseAt = vec3.create();
const rebaseOffset = new Float64Array(1);

/**
 * Moves a linear cast's half-space to the other body's origin, for {@link castOrdered} (its
 * motions set: A at the origin, B at its offset from A). A half-space is posed where its plane's
 * offset is measured, usually the world origin, however far the pair lies from it: every
 * composite part's pose, B's position along its motion and the plane's gap from them rounded at
 * that distance — a compound of 2e-6 at 3e3 cast against a plane was stopped 1.3e-13 late, where
 * the bar of its size is 1.1e-13 (issue 16). Here the plane's offset from the other body's
 * origin, o − n·t (t that origin in the plane's frame), is formed exactly and rounded once
 * (src/narrowphase/convex-half-space.ts `planeOffsetAt`) into `rebasedPlane`, and both bodies
 * start at the frame's origin, so the search rounds at the bounded body's size. Returns 0 (no
 * half-space, or two), 1 when B is the half-space moved to A's origin (B's start set to it), 2
 * when A is the one moved to B's origin (the frame's origin is then B's start: A's position set
 * to it, B's to 0).
 */
function rebaseHalfSpace(a: Shape, b: Shape, poseA0: Isometry, poseB0: Isometry): 0 | 1 | 2 {
  const halfA = a.type === ShapeType.HalfSpace;
  if (halfA === (b.type === ShapeType.HalfSpace)) return 0;
  const plane = (halfA ? a : b) as HalfSpace;
  const planePose = halfA ? poseA0 : poseB0;
  const other = halfA ? poseB0 : poseA0;
  vec3.sub(rebaseAt, other.translation, planePose.translation);
  quat.inverseRotate(rebaseAt, planePose.rotation, rebaseAt);
  planeOffsetAt(rebaseOffset, plane, rebaseAt);
  vec3.copy(rebasedPlane.normal, plane.normal);
  rebasedPlane.offset = rebaseOffset[0];
  vec3.set(motionB.pose0.translation, 0, 0, 0);
  return halfA ? 2 : 1;
}

/**
 * The `intersects` query's predicate on world poses (src/query/intersects.ts): the pair's
 * world-pose routine when it has one, else its routine in the order the query calls it
 * (src/narrowphase/touching.ts, `intersectsInQueryOrder`). No validation.
 */
function intersectsAtStart(a: Shape, poseA0: Isometry, b: Shape, poseB0: Isometry): boolean {
  // In the query's order, the other order's pose formed from the world poses (a flipped entry
  // through its own inverse had called a box at 4e7 and a small mesh touching where the
  // intersects query, in the mesh's order, said apart: toi 0 against intersects false).
  return intersectsInQueryOrder(a, poseA0, b, poseB0, relativePose(poseA0, poseB0), startAInB);
}

const startAInB = iso.identity();

/**
 * Throws `CollideError` naming `velocityB` when B's motion relative to A over `maxToi` is not a
 * finite displacement (velocities near ±1e308 overflow when subtracted): conservative
 * advancement would otherwise take the infinite step for an immediate touch.
 */
function checkRelativeMotion(velocityA: Vec3, velocityB: Vec3, maxToi: number): void {
  const dx = (velocityB.x - velocityA.x) * maxToi;
  const dy = (velocityB.y - velocityA.y) * maxToi;
  const dz = (velocityB.z - velocityA.z) * maxToi;
  if (!(Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz))) {
    invalidValue(
      "velocityB",
      velocityB,
      "relative to velocityA, over maxToi, gives a displacement beyond the range of doubles",
    );
  }
}

function checkMaxToi(maxToi: number): void {
  // typeof first: "10" >= 0 is true in JavaScript.
  if (typeof maxToi !== "number" || !(maxToi >= 0))
    invalidValue("maxToi", maxToi, "must be a number ≥ 0 (or Infinity)");
}

const castBoxA = aabbm.empty();
const castBoxB = aabbm.empty();

/** [0..2] the centre and [3] the half diagonal of a box, by {@link boxSphere}. */
const boxSphereIo = new Float64Array(4);

/**
 * boxSphereIo = the bounding sphere of an AABB scaled by `scale` (a power of two, 1 or 1/8):
 * its centre and half its diagonal, in units of 1/scale scene units. Each corner coordinate is
 * halved (and scaled) before it is added or subtracted, so a box near ±Number.MAX_VALUE does
 * not overflow in min + max (attack 36: spheres of radius 1 at 0 and 9e307 overflowed there);
 * at scale 1/8 a finite box's centre is at most MAX/4 per axis, its half diagonal at most
 * √3·MAX/8, so the differences and sums {@link castHorizon} forms stay finite. With scale 1
 * the values are those of ½(min + max) and ½|max − min| (halving a normal double is exact).
 */
function boxSphere(box: aabbm.Aabb, scale: number): void {
  const h = 0.5 * scale;
  boxSphereIo[0] = h * box.min.x + h * box.max.x;
  boxSphereIo[1] = h * box.min.y + h * box.max.y;
  boxSphereIo[2] = h * box.min.z + h * box.max.z;
  boxSphereIo[3] = hypot3(
    h * box.max.x - h * box.min.x,
    h * box.max.y - h * box.min.y,
    h * box.max.z - h * box.min.z,
  );
}

const horizonN = vec3.create();
const horizonM = vec3.create();

/**
 * {@link castHorizon} when a shape is a half-space {p : n·p ≤ o} (posed: n and o in the world):
 * the signed gap of the other shape along n is at most s + r (s its AABB centre's height above
 * the plane, r its half diagonal) and closes at k = −n·(v_other − v_half); contact needs that
 * gap ≤ 0, so no meeting after (s + r)/k, and none after time 0 when k ≤ 0 (parallel or opening
 * motion keeps the gap). Two half-spaces meet at time 0 unless their world normals are exactly
 * opposite (parallel planes facing apart), when the gap −(o_A + o_B) closes at n_A·(v_A − v_B).
 * Returns that time (castHorizon adds the room for rounding; Infinity when it is beyond the
 * doubles), 0 when only time 0 can meet.
 */
function halfSpaceHorizon(
  a: Shape,
  poseA: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB: Isometry,
  velocityB: Vec3,
): number {
  const halfA = a.type === ShapeType.HalfSpace;
  const h = (halfA ? a : b) as HalfSpace;
  const poseH = halfA ? poseA : poseB;
  quat.rotate(horizonN, poseH.rotation, h.normal);
  const o = h.offset + vec3.dot(horizonN, poseH.translation);
  // Relative velocity of the other shape with respect to the half-space.
  if (halfA) vec3.sub(horizonM, velocityB, velocityA);
  else vec3.sub(horizonM, velocityA, velocityB);
  const k = -vec3.dot(horizonN, horizonM);
  let bound: number;
  if (a.type === ShapeType.HalfSpace && b.type === ShapeType.HalfSpace) {
    const nAx = horizonN.x;
    const nAy = horizonN.y;
    const nAz = horizonN.z;
    quat.rotate(horizonN, poseB.rotation, b.normal);
    if (!(nAx === -horizonN.x && nAy === -horizonN.y && nAz === -horizonN.z)) return 0;
    const oB = b.offset + vec3.dot(horizonN, poseB.translation);
    bound = -(o + oB);
  } else {
    // The other shape's world box, as castHorizon measured it.
    boxSphere(halfA ? castBoxB : castBoxA, 1);
    bound =
      horizonN.x * boxSphereIo[0] +
      horizonN.y * boxSphereIo[1] +
      horizonN.z * boxSphereIo[2] -
      o +
      boxSphereIo[3];
  }
  if (!(k > 0) || !(bound > 0)) return 0;
  // Infinity when the closing speed is so slow that the gap closes beyond the doubles (a sphere
  // 1e10 above the plane approaching at 1e-300): castHorizon then searches to the largest double,
  // and a meeting later than that is null, as for two bounded shapes (docs/FORMATS.md; attack
  // 36b had it refused, "maxToi must be finite").
  return bound / k;
}

/**
 * The search horizon for an unbounded `maxToi` (Infinity, as `raycast` and the world's rays
 * accept): a finite time after which the shapes cannot meet. Their world AABBs' bounding
 * spheres (centres cA, cB, radii rA, rB, half diagonals) move apart with the relative velocity
 * v = vB − vA; contact needs |cB − cA + v·t| ≤ rA + rB, which holds for no t beyond the larger
 * root of that quadratic (Ericson 2005, §5.5.3, moving spheres). Returns 0 when that time is
 * past or never comes (then only time 0 is searched) and twice the root otherwise (room for the
 * rounding of the spheres), at most the largest double (a slower closing speed meets, if ever,
 * at a time beyond the doubles). With a half-space, {@link halfSpaceHorizon}.
 *
 * Near the end of the doubles (attack 36: unit spheres at 0 and 9e307, boxes of 3e307 at 9e307,
 * where ½(min + max) overflowed and every pair was handed to the half-space branch, which threw
 * a TypeError): the spheres are measured in units of 8 scene units when they overflow at 1
 * ({@link boxSphere}), and about the bodies' origins with their bounding radii when even the
 * AABBs overflow (a shape reaching past ±MAX); the room is cut from twice the root to the root
 * plus 2^-30 of it, then to the last time at which the relative displacement and B's origin
 * relative to A's are still doubles ({@link lastFiniteTime}), when twice the root would carry
 * the motion past the doubles (the search forms both and would overflow; no contact is lost
 * while the cut horizon is at least the root, as the shapes meet, if ever, within it).
 */
function castHorizon(
  a: Shape,
  poseA: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB: Isometry,
  velocityB: Vec3,
): number {
  aabbShape(castBoxA, a, poseA);
  aabbShape(castBoxB, b, poseB);
  const vx = velocityB.x - velocityA.x;
  const vy = velocityB.y - velocityA.y;
  const vz = velocityB.z - velocityA.z;
  let t =
    a.type === ShapeType.HalfSpace || b.type === ShapeType.HalfSpace
      ? halfSpaceHorizon(a, poseA, velocityA, b, poseB, velocityB)
      : boxesExit(1, vx, vy, vz);
  if (Number.isNaN(t)) t = boxesExit(0.125, vx, vy, vz);
  if (Number.isNaN(t)) {
    // A shape reaching past the doubles: bounding spheres about the bodies' origins, whose
    // offset checkOffset has kept finite.
    const s = 0.125;
    const pa = poseA.translation;
    const pb = poseB.translation;
    t = sphereExit(
      s * (pb.x - pa.x),
      s * (pb.y - pa.y),
      s * (pb.z - pa.z),
      s * boundingRadiusOf(a) + s * boundingRadiusOf(b),
      vx,
      vy,
      vz,
      s,
    );
    if (Number.isNaN(t))
      invalidValue("maxToi", Infinity, "must be finite for shapes beyond the range of doubles");
  }
  if (!(t > 0)) return 0;
  const room = 2 * t;
  if (motionStaysFinite(poseA, poseB, vx, vy, vz, room)) return Math.min(room, Number.MAX_VALUE);
  const tight = t * (1 + 2 ** -30);
  if (motionStaysFinite(poseA, poseB, vx, vy, vz, tight)) return tight;
  return Math.min(t, lastFiniteTime(poseA, poseB, vx, vy, vz), Number.MAX_VALUE);
}

/**
 * The search time of a cast with horizon `h`: h, or the last time at which the relative motion
 * is still a double ({@link lastFiniteTime}) when h carries it past the doubles (attack 36: unit
 * balls 9e307 apart closing at 9e306 with maxToi 100 were refused, "a displacement beyond the
 * range of doubles", though they meet at 10). A relative velocity that is itself not a double
 * is left to checkRelativeMotion to refuse. The world's unbounded `castShape` cuts each
 * candidate's horizon by it too (src/world/cast-shape.ts).
 */
export function reachableHorizon(
  poseA: Isometry,
  velocityA: Vec3,
  poseB: Isometry,
  velocityB: Vec3,
  h: number,
): number {
  const vx = velocityB.x - velocityA.x;
  const vy = velocityB.y - velocityA.y;
  const vz = velocityB.z - velocityA.z;
  if (!(Number.isFinite(vx) && Number.isFinite(vy) && Number.isFinite(vz))) return h;
  if (motionStaysFinite(poseA, poseB, vx, vy, vz, h)) return h;
  return Math.min(h, lastFiniteTime(poseA, poseB, vx, vy, vz));
}

/**
 * True when, over [0, h], the relative displacement v·h and B's origin relative to A's,
 * (tB − tA) + v·h, are doubles on every axis (the search forms both: checkRelativeMotion and
 * originSpread); both are linear in h, so their ends decide.
 */
function motionStaysFinite(
  poseA: Isometry,
  poseB: Isometry,
  vx: number,
  vy: number,
  vz: number,
  h: number,
): boolean {
  const pa = poseA.translation;
  const pb = poseB.translation;
  const mx = vx * h;
  const my = vy * h;
  const mz = vz * h;
  return (
    Number.isFinite(mx) &&
    Number.isFinite(my) &&
    Number.isFinite(mz) &&
    Number.isFinite(pb.x - pa.x + mx) &&
    Number.isFinite(pb.y - pa.y + my) &&
    Number.isFinite(pb.z - pa.z + mz)
  );
}

/**
 * The largest time h (less 2^-50 of it, for the rounding of the divisions) for which
 * {@link motionStaysFinite} holds: on each moving axis, |v_i·h| ≤ MAX and
 * |d_i + v_i·h| ≤ MAX (d = tB − tA, finite by checkOffset).
 */
function lastFiniteTime(
  poseA: Isometry,
  poseB: Isometry,
  vx: number,
  vy: number,
  vz: number,
): number {
  const pa = poseA.translation;
  const pb = poseB.translation;
  const h = Math.min(
    axisLastTime(pb.x - pa.x, vx),
    axisLastTime(pb.y - pa.y, vy),
    axisLastTime(pb.z - pa.z, vz),
  );
  return h * (1 - 2 ** -50);
}

/** {@link lastFiniteTime} on one axis: offset d, speed v (Infinity when v = 0). */
function axisLastTime(d: number, v: number): number {
  const big = Number.MAX_VALUE;
  if (v > 0) return Math.min(big / v, (big - d) / v);
  if (v < 0) return Math.min(big / -v, (-big - d) / v);
  return Number.POSITIVE_INFINITY;
}

/**
 * The exit time of the moving AABB spheres of castBoxA and castBoxB ({@link castHorizon}) at
 * `scale` ({@link boxSphere}), relative velocity (vx, vy, vz); NaN when the spheres overflow at
 * that scale.
 */
function boxesExit(scale: number, vx: number, vy: number, vz: number): number {
  boxSphere(castBoxA, scale);
  const ax = boxSphereIo[0];
  const ay = boxSphereIo[1];
  const az = boxSphereIo[2];
  const rA = boxSphereIo[3];
  boxSphere(castBoxB, scale);
  return sphereExit(
    boxSphereIo[0] - ax,
    boxSphereIo[1] - ay,
    boxSphereIo[2] - az,
    rA + boxSphereIo[3],
    vx,
    vy,
    vz,
    scale,
  );
}

/**
 * The larger root t of |d + v·t| = r (d and r in units of 1/scale scene units, v in scene
 * units per unit time), 0 when it is not positive or the spheres never meet, Infinity when it is
 * beyond the doubles, NaN when d or r is not finite.
 */
function sphereExit(
  dx: number,
  dy: number,
  dz: number,
  r: number,
  vx: number,
  vy: number,
  vz: number,
  scale: number,
): number {
  if (!(Number.isFinite(r) && Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz)))
    return Number.NaN;
  // In units of the larger of |d| and R, so that the squares neither overflow nor underflow.
  const unit = Math.max(hypot3(dx, dy, dz), r);
  const speed = hypot3(vx, vy, vz);
  if (unit === 0 || speed === 0) return 0;
  const ux = dx / unit;
  const uy = dy / unit;
  const uz = dz / unit;
  const wx = vx / speed;
  const wy = vy / speed;
  const wz = vz / speed;
  const ru = r / unit;
  // |u + w·s|² = ru², s = t·speed/unit: s² + 2(u·w)s + (|u|² − ru²) = 0.
  const uw = ux * wx + uy * wy + uz * wz;
  const c = ux * ux + uy * uy + uz * uz - ru * ru;
  const disc = uw * uw - c;
  if (!(disc >= 0)) return 0;
  const sExit = -uw + Math.sqrt(disc);
  if (!(sExit > 0)) return 0;
  // A closing speed so slow that the exit lies beyond the doubles (1e-310 over a distance of 3)
  // searches to the largest double: a meeting later than that has no time to report, so the
  // answer is null there, as a ray's hit beyond the doubles is a miss (docs/FORMATS.md).
  return (sExit * (unit / speed)) / scale;
}

/**
 * The first time of contact of two shapes under linear motion: `a` at world pose `poseA` at
 * time 0 moving with `velocityA` (scene units per second), `b` likewise; the search covers
 * [0, maxToi] seconds. `maxToi` may be Infinity, its default (no time limit, as for `raycast` and
 * the world's rays): the search then ends once the shapes' bounding spheres have passed each other.
 * Returns `{toi, normal, pointA, pointB}` (normal from A toward B and witness points at the
 * time of impact, world frame) or null when they do not touch by maxToi; toi 0 exactly when
 * they already touch (as `intersects`), never for a gap. Shapes apart at time 0 within rounding
 * answer their next meeting (or null) when they move apart — a plane separates them at time 0
 * up to the stopping tolerance (1e-10 of the smaller shape plus 1e-13 of their coordinates) and
 * the motion opens along it, so they touch at most within that tolerance of their start, as
 * parry's cast with `stop_at_penetration` treats a separating start — and meet at once
 * otherwise (never passing through a face they touch). Allocates the answer. Accuracy
 * (docs/FORMATS.md, "Accuracy"): the shapes are in contact at toi within 16 times the distance
 * bar (relative to the smaller shape, plus the rounding of the motion, 64·ε·|v_B − v_A|·toi),
 * and not before it by more than that bar over the closing speed, wherever the pair is (the
 * search runs in a frame at A's starting position).
 * A `maxToi` that would carry B, relative to A, past the range of doubles is searched up to the
 * last time its relative position is a double.
 * @throws CollideError `invalid_value` for a non-finite velocity, a relative velocity beyond
 * the range of doubles, a negative or NaN `maxToi` (or Infinity with an
 * unbounded half-space), or a bad pose, or
 * naming the shape field (`a.radius`, …) when the answer would hold a NaN or a miss comes with
 * a non-finite shape (src/query/guard.ts); `unsupported_pair` for a pair without a contact
 * routine.
 */
export function castShapes(
  a: Shape,
  poseA: Isometry,
  velocityA: Vec3,
  b: Shape,
  poseB: Isometry,
  velocityB: Vec3,
  maxToi = Number.POSITIVE_INFINITY,
): ShapeCastHit | null {
  checkShapeArg("a", a);
  checkShapeArg("b", b);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA = iso.unitPose(unitA0, poseA);
  poseB = iso.unitPose(unitB0, poseB);
  checkPose("poseA", poseA);
  checkPose("poseB", poseB);
  checkOffset("poseB.translation", poseB.translation, poseA.translation, "poseA");
  checkVec3("velocityA", velocityA);
  checkVec3("velocityB", velocityB);
  checkMaxToi(maxToi);
  const horizon = reachableHorizon(
    poseA,
    velocityA,
    poseB,
    velocityB,
    maxToi === Number.POSITIVE_INFINITY
      ? castHorizon(a, poseA, velocityA, b, poseB, velocityB)
      : maxToi,
  );
  checkRelativeMotion(velocityA, velocityB, horizon);
  const hit = makeShapeCastHit();
  const found = castShapesInto(hit, a, poseA, velocityA, b, poseB, velocityB, horizon);
  if (castAnswerStands(found, hit, a, b)) return found ? hit : null;
  return refuseBadInputs(
    "castShapes",
    [
      ["a", a],
      ["b", b],
    ],
    [
      ["poseA", poseA],
      ["poseB", poseB],
    ],
    [
      ["velocityA", velocityA],
      ["velocityB", velocityB],
    ],
  );
}

/**
 * The first time of contact of two shapes moving between keyframes: A from world pose
 * `poseA0` (t = 0) to `poseA1` (t = 1), B from `poseB0` to `poseB1`, translations interpolated
 * linearly and rotations by nlerp (the shorter way); the search covers t ∈ [0, maxToi] with
 * maxToi ≤ 1. Writes toi (a fraction of the keyframe interval), the normal from A toward B and
 * the witness points at that time to `out` and returns true, or returns false when they do not
 * touch. Conservative advancement with the bound |v·n| + |ω|·r_max·|n × u| (u the turn's axis;
 * Mirtich 1996; Zhang, Lee & Kim 2006); the accuracy of {@link castShapesNonlinear}. Hot-path
 * form: no validation, no allocation.
 */
export function castShapesNonlinearInto(
  out: ShapeCastHit,
  a: Shape,
  poseA0: Isometry,
  poseA1: Isometry,
  b: Shape,
  poseB0: Isometry,
  poseB1: Isometry,
  maxToi = 1,
): boolean {
  vec3.sub(orderVelocity, poseB1.translation, poseB0.translation);
  vec3.sub(orderDelta, poseA1.translation, poseA0.translation);
  if (!swapsOrder(a, poseA0, orderDelta, b, poseB0, orderVelocity))
    return castNonlinearOrdered(out, a, poseA0, poseA1, b, poseB0, poseB1, maxToi);
  const found = castNonlinearOrdered(swappedHit, b, poseB0, poseB1, a, poseA0, poseA1, maxToi);
  if (found) flipHit(out, swappedHit);
  return found;
}

const orderDelta = vec3.create();
/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitA0 = iso.identity();
const unitA1 = iso.identity();
const unitB0 = iso.identity();
const unitB1 = iso.identity();

/** {@link castShapesNonlinearInto} in the order given. */
function castNonlinearOrdered(
  out: ShapeCastHit,
  a: Shape,
  poseA0: Isometry,
  poseA1: Isometry,
  b: Shape,
  poseB0: Isometry,
  poseB1: Isometry,
  maxToi: number,
): boolean {
  // Offset-free frame: both poses relative to A's initial position (see castShapesInto).
  const o = poseA0.translation;
  vec3.set(motionA.pose0.translation, 0, 0, 0);
  quat.copy(motionA.pose0.rotation, poseA0.rotation);
  vec3.sub(motionA.velocity, poseA1.translation, o);
  vec3.sub(motionB.pose0.translation, poseB0.translation, o);
  quat.copy(motionB.pose0.rotation, poseB0.rotation);
  vec3.sub(motionB.velocity, poseB1.translation, poseB0.translation);
  const angularA = shortestArc(q1A, poseA0.rotation, poseA1.rotation);
  const angularB = shortestArc(q1B, poseB0.rotation, poseB1.rotation);
  motionA.q1 = angularA > 0 ? q1A : null;
  motionB.q1 = angularB > 0 ? q1B : null;
  turnAxisOf(motionA.axis, poseA0.rotation, q1A, angularA);
  turnAxisOf(motionB.axis, poseB0.rotation, q1B, angularB);
  const found = castBodies(out, a, b, Math.min(maxToi, 1), angularA, angularB);
  if (found) {
    vec3.add(out.pointA, out.pointA, o);
    vec3.add(out.pointB, out.pointB, o);
  }
  return found;
}

const turnQ: Quat = quat.identity();

/**
 * out = the unit world axis of the turn r = q1·q0⁻¹ that nlerp(q0, q1, t) follows ({@link Motion}),
 * or (0, 0, 0) when the body does not turn or r's vector part does not normalise.
 */
function turnAxisOf(out: Vec3, q0: Quat, q1: Quat, angular: number): void {
  vec3.set(out, 0, 0, 0);
  if (!(angular > 0)) return;
  quat.conjugate(turnQ, q0);
  quat.multiply(turnQ, q1, turnQ);
  const l = hypot3(turnQ.x, turnQ.y, turnQ.z);
  if (!(l > 0) || !Number.isFinite(l)) return;
  const x = turnQ.x / l;
  const y = turnQ.y / l;
  const z = turnQ.z / l;
  if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) vec3.set(out, x, y, z);
}

/** out = q1 or −q1, whichever is nearer q0; returns nlerp's angular-speed bound (0 if equal). */
function shortestArc(out: Quat, q0: Quat, q1: Quat): number {
  const dot = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w;
  const s = dot < 0 ? -1 : 1;
  out.x = s * q1.x;
  out.y = s * q1.y;
  out.z = s * q1.z;
  out.w = s * q1.w;
  if (out.x === q0.x && out.y === q0.y && out.z === q0.z && out.w === q0.w) return 0;
  return nlerpAngularBound(q0, out);
}

/**
 * The first time of contact of two shapes moving between keyframe poses (see
 * `castShapesNonlinearInto`): each translation interpolated linearly and each rotation by
 * normalised linear interpolation of the shorter-arc quaternions (nlerp, not slerp: the same
 * end poses, a slightly different path between them), `{toi, normal, pointA, pointB}` with
 * toi ∈ [0, maxToi] a fraction of the keyframe interval, or null. Allocates the answer. Accuracy (docs/FORMATS.md):
 * as `castShapes` — toi 0 exactly when `intersects` is true at time 0; at toi the shapes are not
 * apart by more than 16 times the distance bar of the smaller shape, and no contact lies before
 * toi; null when no contact within maxToi (a pair that only grazes within the bar may get
 * either answer). A near-graze of a fast turn that the search has not settled within 16,384
 * steps widens its stopping tolerance ×4 every 256 further steps; such a hit is still never
 * before a contact and its witnesses are at most the widened tolerance apart
 * (|pointB − pointA| shows it); the attack-33 family (thin boxes, capsules, hulls, balls,
 * random spins) settles within the budget.
 * @throws CollideError `invalid_value` for a bad pose or a `maxToi` outside [0, 1], or naming
 * the shape field when the answer would hold a NaN or a miss comes with a non-finite shape;
 * `unsupported_pair` for a pair without a contact routine. Two half-spaces apart at time 0
 * (exactly opposite normals, a gap) while one rotates: when the motion keeps the normals
 * opposite (each body turns about its own normal, or both by the same rotation) the time their
 * gap closes; when it turns one normal away from the other, `Number.MIN_VALUE` (they intersect
 * at every time after 0) with the contact at time 0 (castTurningHalfSpaces).
 */
export function castShapesNonlinear(
  a: Shape,
  poseA0: Isometry,
  poseA1: Isometry,
  b: Shape,
  poseB0: Isometry,
  poseB1: Isometry,
  maxToi = 1,
): ShapeCastHit | null {
  checkShapeArg("a", a);
  checkShapeArg("b", b);
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  poseA0 = iso.unitPose(unitA0, poseA0);
  poseA1 = iso.unitPose(unitA1, poseA1);
  poseB0 = iso.unitPose(unitB0, poseB0);
  poseB1 = iso.unitPose(unitB1, poseB1);
  checkPose("poseA0", poseA0);
  checkPose("poseA1", poseA1);
  checkPose("poseB0", poseB0);
  checkPose("poseB1", poseB1);
  // typeof first: a string "1" or `true` was coerced to 1 and answered.
  if (typeof maxToi !== "number" || !(maxToi >= 0 && maxToi <= 1))
    invalidValue("maxToi", maxToi, "must be a number in [0, 1]");
  const hit = makeShapeCastHit();
  const found = castShapesNonlinearInto(hit, a, poseA0, poseA1, b, poseB0, poseB1, maxToi);
  if (castAnswerStands(found, hit, a, b)) return found ? hit : null;
  return refuseBadInputs(
    "castShapesNonlinear",
    [
      ["a", a],
      ["b", b],
    ],
    [
      ["poseA0", poseA0],
      ["poseA1", poseA1],
      ["poseB0", poseB0],
      ["poseB1", poseB1],
    ],
  );
}
