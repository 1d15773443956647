/**
 * Collide in 2D: circle, rectangle (axis-aligned or oriented), convex polygon, capsule and
 * segment; pair tests with contacts and minimum translation vectors (SAT, 2D GJK); manifolds of
 * up to 2 points; ray casts, point projection, distance and linear time of impact; and
 * `CollisionWorld2D` over the 3D broad phases. Vectors are `{x, y}`, angles radians CCW.
 */
export { castShapes2D, type ShapeCastHit2 } from "./cast-shapes2.js";
export {
  type Contact2,
  contact2D,
  contactShapes2,
  type Distance2,
  distance2D,
  intersects2D,
  makeContact2,
} from "./contact2.js";
export { type GjkOutput2, gjkDistance2, makeGjkOutput2 } from "./gjk2.js";
export {
  type Manifold2,
  type ManifoldPoint2,
  makeManifold2,
  manifold2D,
  manifoldShapes2,
} from "./manifold2.js";
export type { Pose2 } from "./pose2.js";
export * as pose2 from "./pose2.js";
export { makePointProjection2, type PointProjection2, projectPoint2D } from "./project-point2.js";
export { castRay2D, containsPoint2D, makeRayHit2, type RayHit2 } from "./raycast2.js";
export type { Rot2 } from "./rot2.js";
export * as rot2 from "./rot2.js";
export {
  aabbShape2,
  type Capsule2,
  type Circle2,
  capsuleAt,
  circleAt,
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  makeSegment,
  orientedRect,
  type Polygon2,
  type PosedShape2,
  polygonAt,
  type Rect2,
  rectFromCenter,
  rectFromMinMax,
  type Segment2,
  type Shape2,
  ShapeType2,
  segmentAt,
} from "./shapes.js";
export type { Vec2 } from "./vec2.js";
export * as vec2 from "./vec2.js";
export {
  type BodyDesc2D,
  type BodyHandle2D,
  CollisionWorld2D,
  type CollisionWorld2DOptions,
  defaultCollisionWorld2DOptions,
  EventList2D,
  makeWorldContact2D,
  type QueryFilter2D,
  type RayCastOptions2D,
  type World2DBroadPhase,
  type WorldContact2D,
  type WorldEvent2D,
  type WorldEvents2D,
  type WorldRayHit2D,
  type WorldStepStats2D,
} from "./world2.js";
