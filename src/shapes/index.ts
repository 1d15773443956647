/**
 * The shapes: constructors, support functions and world AABBs, plus the generic
 * `supportShape` and `aabbShape` that switch on `ShapeType`.
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { aabbCapsule, supportCapsule } from "./capsule.js";
import { aabbCone, supportCone } from "./cone.js";
import { aabbConvexPolyhedron, supportConvexPolyhedron } from "./convex-polyhedron.js";
import { aabbCuboid, supportCuboid } from "./cuboid.js";
import { aabbCylinder, supportCylinder } from "./cylinder.js";
import type { ConvexShape, Shape } from "./shape.js";
import { ShapeType } from "./shape.js";
import { aabbSphere, supportSphere } from "./sphere.js";
import { aabbTriangle, supportTriangle } from "./triangle.js";

export * from "./capsule.js";
export * from "./cone.js";
export * from "./convex-polyhedron.js";
export * from "./cuboid.js";
export * from "./cylinder.js";
export * from "./shape.js";
export * from "./sphere.js";
export * from "./triangle.js";

/** out = the support point of convex shape `s` in local direction `dir` (local frame). */
export function supportShape(out: Vec3, s: ConvexShape, dir: Vec3): Vec3 {
  switch (s.type) {
    case ShapeType.Sphere:
      return supportSphere(out, s, dir);
    case ShapeType.Cuboid:
      return supportCuboid(out, s, dir);
    case ShapeType.Capsule:
      return supportCapsule(out, s, dir);
    case ShapeType.Cylinder:
      return supportCylinder(out, s, dir);
    case ShapeType.Cone:
      return supportCone(out, s, dir);
    case ShapeType.ConvexPolyhedron:
      return supportConvexPolyhedron(out, s, dir);
    case ShapeType.Triangle:
      return supportTriangle(out, s, dir);
  }
}

/** out = the tight world AABB of shape `s` placed at `pose`. */
export function aabbShape(out: Aabb, s: Shape, pose: Isometry): Aabb {
  switch (s.type) {
    case ShapeType.Sphere:
      return aabbSphere(out, s, pose);
    case ShapeType.Cuboid:
      return aabbCuboid(out, s, pose);
    case ShapeType.Capsule:
      return aabbCapsule(out, s, pose);
    case ShapeType.Cylinder:
      return aabbCylinder(out, s, pose);
    case ShapeType.Cone:
      return aabbCone(out, s, pose);
    case ShapeType.ConvexPolyhedron:
      return aabbConvexPolyhedron(out, s, pose);
    case ShapeType.Triangle:
      return aabbTriangle(out, s, pose);
  }
}
