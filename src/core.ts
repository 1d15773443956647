/**
 * `collide/core`: the pair queries over a pair table that the application fills, for apps that
 * must stay small in a browser bundle. The main entry (`collide`) registers every pair routine
 * when it loads (src/narrowphase/dispatch.ts), so any query of it brings GJK, EPA, clipping, the
 * mesh routines and the composite mid-phase along; this entry registers nothing, and a bundler
 * keeps only the routines the application registers (crashcat's explicit registration, parry's
 * one routine per operation × pair):
 *
 * ```ts
 * import { intersects, intersectsSphereCuboidPoses, intersectsSphereCuboid, makeCuboid,
 *   makeSphere, registerPair, ShapeType } from "collide/core";
 * registerPair(ShapeType.Sphere, ShapeType.Cuboid, {
 *   intersects: intersectsSphereCuboid,
 *   intersectsPoses: intersectsSphereCuboidPoses,
 * });
 * ```
 *
 * A pair or an operation that was not registered throws `CollideError("unsupported_pair")`
 * naming both types and the operation; `registerDefaultPairs()` registers everything (the main
 * entry's table). The routines take A's frame with B's pose in A's frame (`bInA`); one pair
 * registered in one order answers both orders (the table writes the mirrored entry flipped).
 * The registrations are the module's state: they hold for every query of the page or process,
 * whichever entry it comes through. Shape types load the same way: each `make…` loads its own
 * type's definition, so the bundle holds only the types the application makes (a hand-built
 * shape of a type whose `make…` it never imports is refused with a `CollideError` naming `type`).
 */

export { CollideError, type CollideErrorCode } from "./errors.js";
export type { Isometry } from "./math/isometry.js";
export type { Quat } from "./math/quat.js";
export type { Vec3 } from "./math/vec3.js";
export {
  type Contact,
  type ContactManifold,
  type DistanceResult,
  MAX_MANIFOLD_POINTS,
  type ManifoldPoint,
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "./narrowphase/contact.js";
export {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./narrowphase/convex-convex.js";
export { contactCuboidCuboid, intersectsCuboidCuboid } from "./narrowphase/cuboid-cuboid.js";
export { registerDefaultPairs } from "./narrowphase/default-pairs.js";
export { manifoldFromContact } from "./narrowphase/manifold.js";
export {
  type ContactFn,
  type DistanceFn,
  type FromContactFn,
  type IntersectsFn,
  type IntersectsPosesFn,
  type ManifoldFn,
  manifoldOfSingleContact,
  manifoldViaContact,
  type PairRoutines,
  registerPair,
} from "./narrowphase/pair-table.js";
export {
  contactSphereCuboid,
  distanceSphereCuboid,
  intersectsSphereCuboid,
  intersectsSphereCuboidPoses,
} from "./narrowphase/sphere-cuboid.js";
export {
  contactSphereSphere,
  distanceSphereSphere,
  intersectsSphereSphere,
  intersectsSphereSpherePoses,
} from "./narrowphase/sphere-sphere.js";
export { contact } from "./query/contact.js";
export { distance } from "./query/distance.js";
export { intersects } from "./query/intersects.js";
export { manifold } from "./query/manifold.js";
export { type Capsule, makeCapsule } from "./shapes/capsule.js";
export { type Cone, makeCone } from "./shapes/cone.js";
export { type ConvexPolyhedron, makeConvexPolyhedron } from "./shapes/convex-polyhedron.js";
export { type Cuboid, makeCuboid, makeCuboidFromMinMax } from "./shapes/cuboid.js";
export { type Cylinder, makeCylinder } from "./shapes/cylinder.js";
export { type ConvexShape, type Shape, ShapeType } from "./shapes/shape.js";
export { makeSphere, type Sphere } from "./shapes/sphere.js";
export { makeTriangle, type Triangle } from "./shapes/triangle.js";
