/**
 * The world's shape cast (a "sweep test"): the first body that a convex shape moving in a
 * straight line would touch, with the time of impact, the contact normal and the witness points
 * at that time — what a character controller or a thick projectile asks before it moves.
 *
 * The motion `pose + t·velocity`, t ∈ [0, maxToi], sweeps the shape's AABB over the union of its
 * boxes at t = 0 and t = maxToi (exact for a translation), padded by `SWEPT_AABB_PAD`; the
 * broad phase's box query (`overlapAabb`, with the layer mask and sensor filter) gives the
 * candidate bodies in ascending handle order, and each is cast exactly with `castShapesInto`
 * (src/query/cast-shapes.ts: conservative advancement, Mirtich 1996). The closest hit wins,
 * ties to the lower handle, so the answer does not depend on the broad phase. Candidates are
 * answered by kind: a convex body by `castShapesInto`; a compound child by child; a
 * half-space in closed form (under a translation its gap to a convex shape is linear in time);
 * a triangle mesh is skipped (no time of impact against meshes yet).
 */
import { checkFiniteVector } from "../broadphase/broad-phase.js";
import { SWEPT_AABB_PAD } from "../constants.js";
import { invalidValue } from "../errors.js";
import * as aabbm from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { makeContact } from "../narrowphase/contact.js";
import { contactPair, isConvexType } from "../narrowphase/dispatch.js";
import {
  boundingRadius,
  castShapesInto,
  makeShapeCastHit,
  type ShapeCastHit,
} from "../query/cast-shapes.js";
import type { Compound } from "../shapes/compound.js";
import { aabbShape } from "../shapes/index.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType, shapeTypeName } from "../shapes/shape.js";
import type { CollisionWorld, QueryFilter } from "./collision-world.js";
import type { BodyHandle } from "./handles.js";
import { checkShape, checkWorldPose } from "./validate.js";

/** Options of {@link castShape}: the query filter and whether to skip initial overlaps. */
export interface ShapeCastOptions extends QueryFilter {
  /**
   * Skip the contacts that hold at time 0 (the shape starts touching or inside a body): report
   * the first contact after separation instead (Box2D #824). Under a straight-line motion a
   * convex body once left is not met again, so such a body (or compound child) is skipped.
   * @default false
   */
  ignoreInitialOverlap?: boolean;
}

/** A shape-cast hit in the world: the body, the time of impact and the contact at that time. */
export interface WorldShapeCastHit {
  /** The body hit. */
  handle: BodyHandle;
  /** Time of impact, in the units of `velocity` (the shape is at `pose + toi·velocity`). */
  toi: number;
  /** Unit contact normal from the cast shape toward the body at the time of impact, world frame. */
  normal: Vec3;
  /** Witness point on the cast shape at the time of impact, world frame. */
  pointA: Vec3;
  /** Witness point on the body at the time of impact, world frame. */
  pointB: Vec3;
}

/** A new zeroed {@link WorldShapeCastHit} (allocates). */
export function makeWorldShapeCastHit(): WorldShapeCastHit {
  return {
    handle: 0 as BodyHandle,
    toi: 0,
    normal: vec3.create(),
    pointA: vec3.create(),
    pointB: vec3.create(),
  };
}

const ZERO: Vec3 = vec3.create();
const box0 = aabbm.empty();
const box1 = aabbm.empty();
const qMin = vec3.create();
const qMax = vec3.create();
const bodyPose = iso.identity();
const childPose = iso.identity();
const movedPose = iso.identity();
const rel = iso.identity();
const hit = makeShapeCastHit();
const best = makeShapeCastHit();
const childBest = makeShapeCastHit();
const contact = makeContact();
const candidates: BodyHandle[] = [];

/**
 * The time of impact of convex `shape` at `pose` moving with `velocity` against the static
 * half-space `hs` at `hsPose`, t ∈ [0, maxToi], in closed form: the gap d(t) = d₀ − t·(v·n) is
 * linear under a translation (n the contact normal toward the half-space). Writes `out`.
 */
function castHalfSpace(
  out: ShapeCastHit,
  shape: Shape,
  pose: Isometry,
  velocity: Vec3,
  hs: Shape,
  hsPose: Isometry,
  maxToi: number,
): boolean {
  contactPair(contact, shape, hs, iso.invMul(rel, pose, hsPose), Infinity);
  let t = 0;
  if (contact.distance > 0) {
    iso.transformVector(out.normal, pose, contact.normal);
    const closing = vec3.dot(velocity, out.normal);
    if (!(closing > 0)) return false;
    t = contact.distance / closing;
    if (!(t <= maxToi)) return false;
    iso.copy(movedPose, pose);
    vec3.addScaled(movedPose.translation, pose.translation, velocity, t);
    contactPair(contact, shape, hs, iso.invMul(rel, movedPose, hsPose), Infinity);
  } else {
    iso.copy(movedPose, pose);
  }
  out.toi = t;
  iso.transformVector(out.normal, movedPose, contact.normal);
  iso.transformPoint(out.pointA, movedPose, contact.pointA);
  iso.transformPoint(out.pointB, movedPose, contact.pointB);
  return true;
}

/** Casts against one candidate body; true with `hit` filled on a hit within `maxToi`. */
function castBody(
  shape: Shape,
  pose: Isometry,
  velocity: Vec3,
  body: Shape,
  bPose: Isometry,
  maxToi: number,
  ignoreInitial: boolean,
): boolean {
  if (isConvexType(body.type)) {
    return castShapesInto(hit, shape, pose, velocity, body, bPose, ZERO, maxToi);
  }
  if (body.type === ShapeType.HalfSpace) {
    return castHalfSpace(hit, shape, pose, velocity, body, bPose, maxToi);
  }
  if (body.type === ShapeType.Compound) {
    let found = false;
    let limit = maxToi;
    for (const c of (body as Compound).children) {
      iso.multiply(childPose, bPose, c.pose);
      if (!castShapesInto(hit, shape, pose, velocity, c.shape, childPose, ZERO, limit)) continue;
      if (ignoreInitial && hit.toi === 0) continue;
      if (found && hit.toi >= childBest.toi) continue;
      found = true;
      limit = hit.toi;
      copyHit(childBest, hit);
    }
    if (found) copyHit(hit, childBest);
    return found;
  }
  return false;
}

function copyHit(out: ShapeCastHit, h: ShapeCastHit): void {
  out.toi = h.toi;
  vec3.copy(out.normal, h.normal);
  vec3.copy(out.pointA, h.pointA);
  vec3.copy(out.pointB, h.pointB);
}

/**
 * The first body of `world` that the convex `shape`, at world pose `pose` at time 0 and moving
 * with constant `velocity` (scene units per unit time, no rotation), touches within
 * `t ∈ [0, maxToi]`: `{handle, toi, normal, pointA, pointB}` (normal from the shape toward the
 * body, witness points on each, at the time of impact, world frame), written into `out` when
 * given, or null. A body already touching the shape at `pose` gives toi 0, unless
 * `filter.ignoreInitialOverlap`. `filter`: the {@link QueryFilter} fields (`mask`,
 * `includeSensors`, `exclude`, `predicate`) and `ignoreInitialOverlap`. Ties in
 * toi go to the lower handle; triangle meshes are skipped (see the module docs). Allocation
 * free apart from the answer when `out` is omitted.
 * @throws CollideError `invalid_value` for an invalid or non-convex `shape`, a bad pose, a
 * non-finite velocity, a `maxToi` that is negative, NaN or infinite, or bad filter bits.
 */
export function castShape(
  world: CollisionWorld,
  shape: Shape,
  pose: Isometry,
  velocity: Vec3,
  maxToi: number,
  filter: ShapeCastOptions = {},
  out?: WorldShapeCastHit,
): WorldShapeCastHit | null {
  checkShape("shape", shape);
  if (!isConvexType(shape.type)) {
    invalidValue("shape.type", shapeTypeName(shape.type), "must be a convex shape");
  }
  checkWorldPose("pose", pose);
  checkFiniteVector("velocity", velocity);
  if (!(typeof maxToi === "number" && maxToi >= 0 && Number.isFinite(maxToi))) {
    invalidValue("maxToi", maxToi, "must be a finite number >= 0");
  }
  aabbShape(box0, shape, pose);
  vec3.addScaled(box1.min, box0.min, velocity, maxToi);
  vec3.addScaled(box1.max, box0.max, velocity, maxToi);
  aabbm.union(box0, box0, box1);
  const mn = box0.min;
  const mx = box0.max;
  const big = Math.max(
    Math.abs(mn.x),
    Math.abs(mn.y),
    Math.abs(mn.z),
    Math.abs(mx.x),
    Math.abs(mx.y),
    Math.abs(mx.z),
  );
  const pad = SWEPT_AABB_PAD * (big + boundingRadius(shape));
  vec3.set(qMin, mn.x - pad, mn.y - pad, mn.z - pad);
  vec3.set(qMax, mx.x + pad, mx.y + pad, mx.z + pad);
  if (!vec3.isFiniteVec(qMin) || !vec3.isFiniteVec(qMax)) {
    invalidValue("velocity", velocity, "sweeps the shape's AABB out of range");
  }
  const ignoreInitial = filter?.ignoreInitialOverlap ?? false;
  if (typeof ignoreInitial !== "boolean")
    invalidValue("filter.ignoreInitialOverlap", ignoreInitial, "must be a boolean");
  candidates.length = 0;
  world.overlapAabb(qMin, qMax, candidates, filter);
  let bestHandle = 0 as BodyHandle;
  let limit = maxToi;
  for (let i = 0; i < candidates.length; i++) {
    const h = candidates[i];
    const body = world.getShape(h);
    world.getPose(h, bodyPose);
    if (!castBody(shape, pose, velocity, body, bodyPose, limit, ignoreInitial)) continue;
    if (ignoreInitial && hit.toi === 0) continue;
    if (bestHandle !== 0 && hit.toi >= best.toi) continue;
    bestHandle = h;
    limit = hit.toi;
    copyHit(best, hit);
  }
  candidates.length = 0;
  if (bestHandle === 0) return null;
  const r = out ?? makeWorldShapeCastHit();
  r.handle = bestHandle;
  r.toi = best.toi;
  vec3.copy(r.normal, best.normal);
  vec3.copy(r.pointA, best.pointA);
  vec3.copy(r.pointB, best.pointB);
  return r;
}
