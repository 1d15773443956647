/**
 * The collision world: bodies by generational handle, a `step()` running broad phase, layer
 * filter, narrow phase and contact cache, begin/persist/end events, and world queries (ray,
 * AABB and shape overlap) through the broad phase.
 */

// The pair table's default registrations (see src/index.ts).
import "../narrowphase/dispatch.js";

export type { BodyKind } from "./body-kinds.js";
export {
  castShape,
  makeWorldShapeCastHit,
  type ShapeCastOptions,
  type WorldShapeCastHit,
} from "./cast-shape.js";
export { ImpactList, makeWorldImpact, type WorldImpact } from "./ccd.js";
export {
  type BodyDesc,
  CollisionWorld,
  type CollisionWorldOptions,
  defaultCollisionWorldOptions,
  type FrustumQueryOptions,
  type QueryFilter,
  type RayCastOptions,
  type RayShapeCaster,
  type RayShapeHit,
  type WorldBroadPhase,
  type WorldRayHit,
  type WorldStepStats,
} from "./collision-world.js";
export {
  CONTACT_RECORD_STRIDE,
  EventList,
  makeWorldContact,
  type WorldContact,
  type WorldEvent,
  type WorldEvents,
} from "./contact-cache.js";
export {
  type BodyHandle,
  HANDLE_GENERATION_BASE,
  handleGeneration,
  handleSlot,
  MAX_BODY_SLOT,
} from "./handles.js";
export {
  PREPARE_MOVING,
  PREPARE_STATIC,
  PREPARE_STEPS,
  prepareWorld,
} from "./prepare.js";
export { castRayAll, castRayAny, castRayClosest } from "./ray-cast.js";
