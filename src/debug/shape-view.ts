/**
 * Plain-JSON descriptions of shapes for a renderer that builds its own surfaces (the debug
 * viewer, through `collide/three`): primitives by their parameters in the shape's local frame
 * (sphere, box, capsule, cylinder and cone along local +Y as Collide defines them), polytopes
 * and meshes as triangles, heightfields as their grid of heights, compounds as children with
 * local poses.
 */
import { type ShapeView, shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";

export type { ShapeView, Vec3Json } from "../shapes/registry.js";

/**
 * The {@link ShapeView} of `shape` (allocates): its definition's view (src/shapes/defs/), one of
 * the drawing primitives every renderer knows.
 */
export function shapeView(shape: Shape | TriangleMesh): ShapeView {
  return shapeDef(shape.type).view(shape);
}

export { heightfieldHoleFlags } from "../shapes/heightfield.js";
