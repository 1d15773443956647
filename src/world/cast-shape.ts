/**
 * The world's shape cast (a "sweep test"): the first body that a shape moving in a
 * straight line would touch, with the time of impact, the contact normal and the witness points
 * at that time — what a character controller or a thick projectile asks before it moves.
 *
 * The motion `pose + t·velocity`, t ∈ [0, maxToi], sweeps the shape's AABB over the union of its
 * boxes at t = 0 and t = maxToi (exact for a translation), padded by `SWEPT_AABB_PAD` (for
 * maxToi Infinity, to ±Number.MAX_VALUE along the motion, each candidate then cast up to a
 * finite horizon of its own); the
 * broad phase's box query (`overlapAabb`, with the layer mask and sensor filter) gives the
 * candidate bodies in ascending handle order, and each is cast exactly with `castShapesInto`
 * (src/query/cast-shapes.ts: conservative advancement, Mirtich 1996; a composite body — a
 * triangle mesh, a compound — part by part through its composite view; a half-space by the
 * same advancement, exact in one step under a translation). The closest hit wins, ties to the
 * lower handle, so the answer does not depend on the broad phase. No body is skipped: a pair
 * the casts cannot answer throws `CollideError`.
 */
import { checkFiniteVector } from "../broadphase/broad-phase.js";
import { SWEPT_AABB_PAD } from "../constants.js";
import { checkOptions, checkOutRecord, invalidValue, optionsSpec } from "../errors.js";
import * as aabbm from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import {
  boundingRadius,
  castShapesInto,
  makeShapeCastHit,
  reachableHorizon,
  type ShapeCastHit,
} from "../query/cast-shapes.js";
import { aabbShape } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType, shapeTypeName } from "../shapes/shape.js";
import { type CollisionWorld, checkWorldArg, type QueryFilter } from "./collision-world.js";
import type { BodyHandle } from "./handles.js";
import { checkShape, checkWorldPose } from "./validate.js";

/** Options of {@link castShape}: the query filter and whether to skip initial overlaps. */
export interface ShapeCastOptions extends QueryFilter {
  /**
   * Skip the contacts that hold at time 0 (the shape starts touching or inside a body; Box2D
   * #824, parry's `stop_at_penetration: false`): a convex body, or a composite's part (a
   * compound's child, a mesh's or heightfield's triangle; for a composite shape, a pair of
   * parts), that touches the shape at time 0 (as `intersects` says) is ignored entirely — under
   * a straight-line motion a convex set once left is not met again. The answer is the earliest
   * cast against the remaining bodies and parts, with the time of impact, normal and witness
   * points of that part cast alone (never the contact of an ignored part the shape still
   * overlaps at that time; docs/FORMATS.md, `castShapes`).
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
const SHAPE_HIT_PARTS = ["normal", "pointA", "pointB"] as const;
const box0 = aabbm.empty();
const box1 = aabbm.empty();
/** The cast shape's world AABB at time 0. */
const start = aabbm.empty();
/** A candidate body's world AABB. */
const bodyBox = aabbm.empty();
const planeNormal = vec3.create();
const qMin = vec3.create();
const qMax = vec3.create();
const bodyPose = iso.identity();
const hit = makeShapeCastHit();
const best = makeShapeCastHit();
const candidates: BodyHandle[] = [];
/** The options of {@link castShape}: the query filter and `ignoreInitialOverlap`. */
const CAST_SHAPE_SPEC = optionsSpec("castShape", "filter", {
  mask: "any",
  includeSensors: "any",
  exclude: "any",
  predicate: "any",
  ignoreInitialOverlap: "boolean",
});
/** The filter alone, handed to the world's box query (reused: no allocation per cast). */
const boxFilter: QueryFilter = {};

function copyHit(out: ShapeCastHit, h: ShapeCastHit): void {
  out.toi = h.toi;
  vec3.copy(out.normal, h.normal);
  vec3.copy(out.pointA, h.pointA);
  vec3.copy(out.pointB, h.pointB);
}

/**
 * An unbounded cast (`maxToi` Infinity): the query box (qMin, qMax, the shape's padded box at
 * time 0) reaches to ±Number.MAX_VALUE along each axis on which the shape moves. That finite box
 * holds every point the sweep reaches: every bounded body (its box lies within
 * ±WORLD_MAX_COORDINATE) and every half-space (the broad phase keeps those apart and tests their
 * boxes, unbounded but for the plane of an axis-aligned one, finite at any offset) that the
 * shape can ever touch are candidates.
 */
function sweepToEnd(v: Vec3): void {
  const big = Number.MAX_VALUE;
  if (v.x > 0) qMax.x = big;
  else if (v.x < 0) qMin.x = -big;
  if (v.y > 0) qMax.y = big;
  else if (v.y < 0) qMin.y = -big;
  if (v.z > 0) qMax.z = big;
  else if (v.z < 0) qMin.z = -big;
}

/**
 * The search horizon of an unbounded cast against candidate `h` (shape `body`, at `bodyPose`):
 * a finite time after which the shape (at `pose`, its time-0 box `start`, moving with `v`)
 * cannot touch the body, twice that time for room for rounding (as the pair query's horizon,
 * src/query/cast-shapes.ts). A bounded body: the time the moving box leaves the body's box along
 * some axis for good (slab exit; 0 when the shape does not move). A half-space {n·p ≤ d} (world
 * frame): the time the moving box lies wholly inside it, max over the box of n·p falling to d
 * (0 when the box does not approach the plane: the gap never closes after time 0). Then, as the
 * pair query cuts its own (`reachableHorizon`): at most the largest double — a speed so slow
 * that the meeting lies beyond it (a sphere 1e10 from a body approaching at 1e-300) searches to
 * it and finds no hit, as a meeting beyond the doubles is null (docs/FORMATS.md; attack 36b had
 * it refused, "too slow for the distance") — and at most the last time at which the shape's
 * origin relative to the body's and its displacement are still doubles (the search forms both).
 */
function castHorizon(
  world: CollisionWorld,
  h: BodyHandle,
  body: Shape,
  pose: Isometry,
  v: Vec3,
): number {
  let t: number;
  if (body.type === ShapeType.HalfSpace) {
    quat.rotate(planeNormal, bodyPose.rotation, body.normal);
    const n = planeNormal;
    const d = body.offset + vec3.dot(n, bodyPose.translation);
    const far =
      (n.x > 0 ? n.x * start.max.x : n.x * start.min.x) +
      (n.y > 0 ? n.y * start.max.y : n.y * start.min.y) +
      (n.z > 0 ? n.z * start.max.z : n.z * start.min.z);
    const rate = vec3.dot(n, v);
    t = rate < 0 ? Math.max(0, (far - d) / -rate) : 0;
  } else {
    world.getAabb(h, bodyBox);
    t = Infinity;
    t = Math.min(t, slabExit(start.min.x, start.max.x, bodyBox.min.x, bodyBox.max.x, v.x));
    t = Math.min(t, slabExit(start.min.y, start.max.y, bodyBox.min.y, bodyBox.max.y, v.y));
    t = Math.min(t, slabExit(start.min.z, start.max.z, bodyBox.min.z, bodyBox.max.z, v.z));
    if (v.x === 0 && v.y === 0 && v.z === 0) t = 0; // the shape does not move: only time 0
  }
  return reachableHorizon(pose, v, bodyPose, ZERO, Math.min(2 * t, Number.MAX_VALUE));
}

/**
 * The time after which the interval [lo + v·t, hi + v·t] lies past [bLo, bHi] for good
 * (≥ 0), or Infinity when v = 0 (the axis never separates them).
 */
function slabExit(lo: number, hi: number, bLo: number, bHi: number, v: number): number {
  if (v > 0) return Math.max(0, (bHi - lo) / v);
  if (v < 0) return Math.max(0, (bLo - hi) / v);
  return Infinity;
}

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitPoseScratch = iso.identity();

/**
 * The first body of `world` that `shape` (any bounded shape: convex, mesh or compound), at
 * world pose `pose` at time 0 and moving with constant `velocity` (scene units per unit time,
 * no rotation), touches within
 * `t ∈ [0, maxToi]`: `{handle, toi, normal, pointA, pointB}` (normal from the shape toward the
 * body, witness points on each, at the time of impact, world frame), written into `out` when
 * given, or null. A body already touching the shape at `pose` gives toi 0, unless
 * `filter.ignoreInitialOverlap` (then a body or composite part touching at time 0 is ignored
 * entirely, and the hit is that of the first part met, as cast alone: see
 * {@link ShapeCastOptions.ignoreInitialOverlap}). `filter`: the {@link QueryFilter} fields (`mask`, `includeSensors`, `exclude`,
 * `predicate`) and `ignoreInitialOverlap`. `maxToi` may be Infinity, its default (no time limit, as for the
 * world's ray casts and the pair query `castShapes`): the box query then reaches along the
 * motion to the end of the doubles' range, and each candidate is searched up to a finite
 * horizon past which the shape cannot touch it (its box left behind, or a half-space's plane
 * crossed by the whole shape, at most the largest double), so the answer is the one a finite
 * `maxToi` large enough gives, half-spaces included, and null for a speed so slow that the
 * meeting lies beyond the doubles (as the pair query `castShapes` answers). Ties in
 * toi go to the lower handle. Allocation free apart from the answer when `out` is omitted.
 * @throws CollideError `invalid_value` for an invalid or unbounded `shape` (a half-space), a
 * bad pose, a non-finite velocity, a `maxToi` that is negative or NaN, or bad filter bits.
 */
export function castShape(
  world: CollisionWorld,
  shape: Shape,
  pose: Isometry,
  velocity: Vec3,
  maxToi = Number.POSITIVE_INFINITY,
  filter: ShapeCastOptions = {},
  out?: WorldShapeCastHit,
): WorldShapeCastHit | null {
  // Before any module scratch is touched: an outer castShape's predicate is running when this
  // throws, and its candidates and boxes live in that scratch.
  checkWorldArg(world);
  world.checkNotInQuery();
  if (out !== undefined) {
    checkOutRecord(
      "out",
      out,
      SHAPE_HIT_PARTS,
      "a shape cast hit record (makeWorldShapeCastHit())",
    );
  }
  if (filter === undefined) invalidValue("filter", filter, "must be an object");
  checkOptions(filter, CAST_SHAPE_SPEC);
  checkShape("shape", shape);
  if (!Number.isFinite(boundingRadius(shape))) {
    invalidValue(
      "shape.type",
      shapeTypeName(shape.type),
      "must be a bounded shape (not a half-space)",
    );
  }
  // A quaternion within the tolerance of unit length is used normalised (docs/FORMATS.md).
  pose = iso.unitPose(unitPoseScratch, pose);
  checkWorldPose("pose", pose);
  checkFiniteVector("velocity", velocity);
  // typeof first: "10" >= 0 is true in JavaScript.
  if (typeof maxToi !== "number" || !(maxToi >= 0)) {
    invalidValue("maxToi", maxToi, "must be a number >= 0 (or Infinity)");
  }
  const unlimited = maxToi === Number.POSITIVE_INFINITY;
  aabbShape(start, shape, pose);
  aabbm.copy(box0, start);
  if (!unlimited) {
    vec3.addScaled(box1.min, box0.min, velocity, maxToi);
    vec3.addScaled(box1.max, box0.max, velocity, maxToi);
    aabbm.union(box0, box0, box1);
  }
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
  if (unlimited) sweepToEnd(velocity);
  if (!vec3.isFiniteVec(qMin) || !vec3.isFiniteVec(qMax)) {
    invalidValue("velocity", velocity, "sweeps the shape's AABB out of range");
  }
  const ignoreInitial = filter?.ignoreInitialOverlap ?? false;
  if (typeof ignoreInitial !== "boolean")
    invalidValue("filter.ignoreInitialOverlap", ignoreInitial, "must be a boolean");
  candidates.length = 0;
  boxFilter.mask = filter.mask;
  boxFilter.includeSensors = filter.includeSensors;
  boxFilter.exclude = filter.exclude;
  boxFilter.predicate = filter.predicate;
  try {
    world.overlapAabb(qMin, qMax, candidates, boxFilter);
  } finally {
    boxFilter.exclude = undefined;
    boxFilter.predicate = undefined;
  }
  let bestHandle = 0 as BodyHandle;
  let limit = maxToi;
  for (let i = 0; i < candidates.length; i++) {
    const h = candidates[i];
    const body = world.getShape(h);
    world.getPose(h, bodyPose);
    const horizon = unlimited
      ? Math.min(limit, castHorizon(world, h, body, pose, velocity))
      : limit;
    if (!castShapesInto(hit, shape, pose, velocity, body, bodyPose, ZERO, horizon, ignoreInitial))
      continue;
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
