/**
 * World ray casts: the closest hit and all hits of a ray segment among a world's bodies, through
 * the broad phase's ray traversal (the dynamic tree visits nearer boxes first and skips those
 * beyond the best hit so far) with `castRayShape` (src/query/raycast.ts) as the exact per-shape
 * test. Results do not depend on the broad phase: ties in time of impact go to the lower handle.
 */
import type { Vec3 } from "../math/vec3.js";
import { castRayShape } from "../query/raycast.js";
import type { CollisionWorld, RayCastOptions, WorldRayHit } from "./collision-world.js";

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
  options: RayCastOptions = {},
  out?: WorldRayHit,
): WorldRayHit | null {
  return world.castRayWith(castRayShape, origin, dir, maxToi, options, out);
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
  options: RayCastOptions = {},
  out: WorldRayHit[] = [],
): WorldRayHit[] {
  return world.castRayAllWith(castRayShape, origin, dir, maxToi, options, out);
}
