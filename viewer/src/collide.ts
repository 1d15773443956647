/**
 * The parts of Collide the viewer's Web Worker uses, in one place: the browser-safe library
 * modules (world, queries, shapes, debug draw and traces). Nothing here reaches `node:*` or the
 * file loaders of src/io; the server sends meshes as arrays (src/debug/scene-transfer.ts).
 * `createGpuBroadPhase` (collide/gpu) takes the worker's own `navigator.gpu` device.
 */
export { DemoScene } from "../../src/debug/demo-scene.js";
export { isTraceable } from "../../src/debug/gjk-trace.js";
export {
  poseFromTransfer,
  type SceneTransfer,
  shapeFromTransfer,
} from "../../src/debug/scene-transfer.js";
export { type ShapeView, shapeView } from "../../src/debug/shape-view.js";
export {
  aabbOfShape,
  buildViewGjk,
  buildViewMeshPair,
  sceneSize,
  type ViewGjk,
  type ViewMeshPair,
} from "../../src/debug/view-model.js";
export { createGpuBroadPhase } from "../../src/gpu/broad-phase.js";
export * as aabb from "../../src/math/aabb.js";
export type { Isometry } from "../../src/math/isometry.js";
export * as isometry from "../../src/math/isometry.js";
export type { Vec3 } from "../../src/math/vec3.js";
export * as vec3 from "../../src/math/vec3.js";
export { type Shape, ShapeType } from "../../src/shapes/shape.js";
export {
  type BodyHandle,
  CollisionWorld,
  castRayClosest,
  makeWorldContact,
  type WorldRayHit,
} from "../../src/world/index.js";
