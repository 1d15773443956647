/**
 * Collide: collision detection in TypeScript. This module is the public face; it re-exports what
 * users may rely on, nothing else.
 *
 * Conventions: doubles; lengths in the user's unit; vectors `{x, y, z}`; rotations unit
 * quaternions `{x, y, z, w}`; poses `{translation, rotation}`; normals point from A toward B;
 * contact distances are signed (negative = penetration).
 */

export * from "./broadphase/index.js";
export * from "./constants.js";
export * as dim2 from "./dim2/index.js";
export type { CollideErrorCode } from "./errors.js";
export { CollideError } from "./errors.js";
export type { BoundingSphere } from "./geometry/bounding-sphere.js";
export {
  boundingSphereExact,
  boundingSphereMean,
  boundingSphereRitter,
  makeBoundingSphere,
} from "./geometry/bounding-sphere.js";
export type { ConvexHull } from "./geometry/hull.js";
export { computeConvexHull } from "./geometry/hull.js";
export type { Obb } from "./geometry/obb-fit.js";
export { fitObbPca, makeObb } from "./geometry/obb-fit.js";
export type { CheckOptions, CheckPair, CheckResult } from "./io/check.js";
export { checkScene } from "./io/check.js";
export { answerQuery, answerQueryLine, answerQueryLines } from "./io/query.js";
export type { Scene, SceneBody } from "./io/scene.js";
export { loadScene, parseScene } from "./io/scene.js";
export type { PosedShape } from "./io/shapes-json.js";
export { parseShape } from "./io/shapes-json.js";
export type { Aabb } from "./math/aabb.js";
export * as aabb from "./math/aabb.js";
export type { Isometry } from "./math/isometry.js";
export * as isometry from "./math/isometry.js";
export * as mat3 from "./math/mat3.js";
export type { Quat } from "./math/quat.js";
export * as quat from "./math/quat.js";
export { makeRandom } from "./math/random.js";
export type { Vec3 } from "./math/vec3.js";
export * as vec3 from "./math/vec3.js";
export type {
  Contact,
  ContactManifold,
  DistanceResult,
  ManifoldPoint,
} from "./narrowphase/contact.js";
export {
  MAX_MANIFOLD_POINTS,
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "./narrowphase/contact.js";
export type { BoundingSphereMethod } from "./query/bounding-sphere.js";
export { boundingSphereOfPoints } from "./query/bounding-sphere.js";
export type { ShapeCastHit } from "./query/cast-shapes.js";
export { castShapes, castShapesNonlinear } from "./query/cast-shapes.js";
export { contact } from "./query/contact.js";
export { distance } from "./query/distance.js";
export type { Frustum, FrustumCamera, FrustumMode } from "./query/frustum.js";
export {
  FRUSTUM_PLANE_COUNT,
  FrustumTest,
  frustumIntersectsShape,
  frustumTestAabb,
  frustumTestSphere,
  makeFrustum,
  makeFrustumFromMatrix,
} from "./query/frustum.js";
export { intersects } from "./query/intersects.js";
export { manifold } from "./query/manifold.js";
export type { OverlapVolume, OverlapVolumeOptions } from "./query/overlap-volume.js";
export { overlapVolume } from "./query/overlap-volume.js";
export type { BroadPhaseName } from "./query/pairs.js";
export { computePairs, makeBroadPhase } from "./query/pairs.js";
export type { PointProjection, PointProjections } from "./query/project-point.js";
export { projectPoint, projectPoints } from "./query/project-point.js";
export type { RayHit } from "./query/raycast.js";
export { castRayShape, makeRayHit, raycast } from "./query/raycast.js";
export type { SphereSphereIntersection } from "./query/volume.js";
export { sphereSphereIntersection } from "./query/volume.js";
export * from "./shapes/index.js";
export * from "./world/index.js";
