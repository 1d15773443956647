/**
 * Collide: collision detection in TypeScript. This module is the public face for every platform:
 * it names, one by one, what users may rely on, and imports nothing Node-only, so it bundles for
 * browsers. File loading, the scene and query formats and the bunny model are in the Node-only
 * entry `collide/node` (src/node.ts); threads in `collide/parallel`; three.js in `collide/three`.
 *
 * Conventions: doubles; lengths in the user's unit; vectors `{x, y, z}`; rotations unit
 * quaternions `{x, y, z, w}`; poses `{translation, rotation}`; normals point from A toward B;
 * contact distances are signed (negative = penetration). Shapes from the `make…` constructors are
 * deeply frozen: a changed shape is a new shape.
 */

// Every pair of the built-in shape types answered: the pair table's default registrations
// (package.json lists this module under "sideEffects", so bundlers keep the import). The entry
// `collide/core` (src/core.ts) leaves the table to the application.
import "./narrowphase/dispatch.js";
// Every built-in shape type's definition (each `make…` module loads its own; these imports keep
// them all in a bundle even when the app makes no shape of a type, so that a hand-built or
// JSON-read shape of any type is answered). Listed under package.json's "sideEffects".
import "./shapes/defs/sphere.js";
import "./shapes/defs/cuboid.js";
import "./shapes/defs/capsule.js";
import "./shapes/defs/cylinder.js";
import "./shapes/defs/cone.js";
import "./shapes/defs/convex-polyhedron.js";
import "./shapes/defs/triangle.js";
import "./shapes/defs/triangle-mesh.js";
import "./shapes/defs/half-space.js";
import "./shapes/defs/compound.js";
import "./shapes/rounded.js";
import "./shapes/heightfield.js";

export type {
  AabbQueryCallback,
  BroadPhase,
  BulkMoveTarget,
  RayCastCallback,
} from "./broadphase/broad-phase.js";
export { BruteForceBroadPhase } from "./broadphase/brute-force.js";
export {
  DynamicTree,
  type DynamicTreeOptions,
  defaultDynamicTreeOptions,
} from "./broadphase/dynamic-tree.js";
// PairSet stays: a broad phase's `computePairs(out: PairSet)` (the BroadPhase interface, which a
// custom broad phase given to the world implements) fills it and users read it (`forEach`,
// `toArray`, `loAt`/`hiAt`). Its key packing (packPair, pairLo, pairHi, MAX_PROXY_ID) is internal.
export { PairSet } from "./broadphase/pair-set.js";
export {
  defaultSpatialHashOptions,
  SpatialHash,
  type SpatialHashOptions,
} from "./broadphase/spatial-hash.js";
export {
  defaultSweepAndPruneOptions,
  SweepAndPrune,
  type SweepAndPruneOptions,
} from "./broadphase/sweep-and-prune.js";
// The defaults of options users may set (world, broad phases, meshes); every other tolerance is
// internal (src/constants.ts).
export {
  AABB_MARGIN,
  LINEAR_SLOP,
  MESH_ACTIVE_EDGE_COS,
  SPECULATIVE_DISTANCE,
  WORLD_MAX_PAIRS,
} from "./constants.js";
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
export { type ConvexHullOptions, computeConvexHull } from "./geometry/hull.js";
export type { Obb } from "./geometry/obb-fit.js";
export { fitObbPca, makeObb } from "./geometry/obb-fit.js";
export type { MeshPseudoNormals } from "./geometry/pseudo-normals.js";
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
export {
  aabbShape,
  containsPointTriangleMesh,
  getMeshTriangle,
  meshTriangleNormal,
  supportShape,
  windingNumberTriangleMesh,
} from "./query/checked-helpers.js";
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
export { computePairs, makeBroadPhase, type PairsOptions } from "./query/pairs.js";
export type { PointProjection, PointProjections } from "./query/project-point.js";
export { projectPoint, projectPoints } from "./query/project-point.js";
export type { RayHit } from "./query/raycast.js";
export { castRayShape, makeRayHit, raycast } from "./query/raycast.js";
export type { SphereSphereIntersection } from "./query/volume.js";
export { sphereSphereIntersection } from "./query/volume.js";
export { type Capsule, makeCapsule } from "./shapes/capsule.js";
export { type Compound, type CompoundChild, makeCompound } from "./shapes/compound.js";
export { type Cone, makeCone } from "./shapes/cone.js";
export { type ConvexPolyhedron, makeConvexPolyhedron } from "./shapes/convex-polyhedron.js";
export { type Cuboid, makeCuboid, makeCuboidFromMinMax } from "./shapes/cuboid.js";
export { type Cylinder, makeCylinder } from "./shapes/cylinder.js";
export { type HalfSpace, makeHalfSpace } from "./shapes/half-space.js";
export {
  type Heightfield,
  type HeightfieldDesc,
  type HeightfieldTree,
  heightfieldByteLength,
  heightfieldGeometry,
  makeHeightfield,
} from "./shapes/heightfield.js";
export {
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  type RoundedConvexPolyhedron,
  type RoundedCuboid,
  type RoundedShape,
} from "./shapes/rounded.js";
export {
  type ConvexShape,
  SHAPE_TYPE_NAMES,
  type Shape,
  type ShapeOfType,
  ShapeType,
} from "./shapes/shape.js";
export { makeSphere, type Sphere } from "./shapes/sphere.js";
export { makeTriangle, type Triangle } from "./shapes/triangle.js";
export {
  convexHullOfTriangleMesh,
  makeTriangleMesh,
  type TriangleMesh,
  type TriangleMeshOptions,
  updateTriangleMeshVertices,
} from "./shapes/triangle-mesh.js";
export type { BodyKind } from "./world/body-kinds.js";
export {
  castShape,
  makeWorldShapeCastHit,
  type ShapeCastOptions,
  type WorldShapeCastHit,
} from "./world/cast-shape.js";
export { ImpactList, makeWorldImpact, type WorldImpact } from "./world/ccd.js";
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
} from "./world/collision-world.js";
export {
  EventList,
  makeWorldContact,
  type WorldContact,
  type WorldEvent,
  type WorldEvents,
} from "./world/contact-cache.js";
export { type PairEvent, PairEventList, type PairEvents } from "./world/core/pair-cache.js";
export type { StepExecutor } from "./world/executor.js";
export {
  type BodyHandle,
  handleGeneration,
  handleSlot,
  MAX_BODY_SLOT,
} from "./world/handles.js";
export { prepareWorld } from "./world/prepare.js";
export { castRayAll, castRayAny, castRayClosest } from "./world/ray-cast.js";
export type { WarmStartStats } from "./world/warm-start-cache.js";
