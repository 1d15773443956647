/**
 * World ray casts: the closest hit, all hits and any hit (early out) of a ray segment among a
 * world's bodies, through the broad phase's ray traversal (the dynamic tree visits nearer boxes
 * first and skips those beyond the best hit so far) with `castRayShape` (src/query/raycast.ts)
 * as the exact per-shape test. The closest and all-hits results do not depend on the broad
 * phase: ties in time of impact go to the lower handle. The any-hit query stops at the first
 * hit found, so only whether it hits is independent of the broad phase.
 */
import type { Vec3 } from "../math/vec3.js";
import { castRayShapeInto } from "../query/raycast.js";
import {
  type CollisionWorld,
  checkWorldArg,
  NO_RAY_OPTIONS,
  type RayCastOptions,
  type WorldRayHit,
} from "./collision-world.js";

/**
 * The closest body of `world` hit by the segment `origin + t·dir`, `t ∈ [0, maxToi]` (world
 * frame; `maxToi` may be Infinity; `dir` need not be unit and `toi` is in multiples of it), or
 * null. `options`: `solid` (default true: a ray starting inside a body hits it at 0), `mask`
 * (only bodies whose layer has one of its bits), `includeSensors` (default true). Writes into
 * `out` when given. Throws `CollideError` for a non-finite origin or direction, a zero
 * direction or a negative `maxToi`.
 */
export function castRayClosest(
  world: CollisionWorld,
  origin: Vec3,
  dir: Vec3,
  maxToi = Infinity,
  options: RayCastOptions = NO_RAY_OPTIONS,
  out?: WorldRayHit,
): WorldRayHit | null {
  checkWorldArg(world);
  return world.castRayWith(castRayShapeInto, origin, dir, maxToi, options, out);
}

/**
 * Every body of `world` hit by the segment (see {@link castRayClosest}), sorted by time of impact
 * then handle, appended to `out` (allocates the hits).
 */
export function castRayAll(
  world: CollisionWorld,
  origin: Vec3,
  dir: Vec3,
  maxToi = Infinity,
  options: RayCastOptions = NO_RAY_OPTIONS,
  out: WorldRayHit[] = [],
): WorldRayHit[] {
  checkWorldArg(world);
  return world.castRayAllWith(castRayShapeInto, origin, dir, maxToi, options, out);
}

/**
 * Some body of `world` hit by the segment (see {@link castRayClosest}), or null: the cast stops
 * at the first hit it finds (an any-hit query, for line of sight and occlusion). Whether it
 * hits is the same for every broad phase; which body is reported when several are on the ray
 * depends on the traversal (use {@link castRayClosest} for a deterministic answer). Writes into
 * `out` when given. Throws like {@link castRayClosest}.
 */
export function castRayAny(
  world: CollisionWorld,
  origin: Vec3,
  dir: Vec3,
  maxToi = Infinity,
  options: RayCastOptions = NO_RAY_OPTIONS,
  out?: WorldRayHit,
): WorldRayHit | null {
  checkWorldArg(world);
  return world.castRayAnyWith(castRayShapeInto, origin, dir, maxToi, options, out);
}
