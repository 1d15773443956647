/**
 * The shapes: constructors, support functions and world AABBs, plus the generic
 * `supportShape` and `aabbShape` that switch on `ShapeType`.
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { aabbCapsule, supportCapsule } from "./capsule.js";
import type { Compound } from "./compound.js";
import { aabbCone, supportCone } from "./cone.js";
import { aabbConvexPolyhedron, supportConvexPolyhedron } from "./convex-polyhedron.js";
import { aabbCuboid, supportCuboid } from "./cuboid.js";
import { aabbCylinder, supportCylinder } from "./cylinder.js";
import type { HalfSpace } from "./half-space.js";
import type { ConvexShape, Shape, ShapeOfType } from "./shape.js";
import { ShapeType } from "./shape.js";
import { aabbSphere, supportSphere } from "./sphere.js";
import { aabbTriangle, supportTriangle } from "./triangle.js";
import { aabbTriangleMesh } from "./triangle-mesh.js";

export * from "./capsule.js";
export * from "./compound.js";
export * from "./cone.js";
export * from "./convex-polyhedron.js";
export * from "./cuboid.js";
export * from "./cylinder.js";
export * from "./half-space.js";
export * from "./shape.js";
export * from "./sphere.js";
export * from "./triangle.js";
export * from "./triangle-mesh.js";

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
  return aabbShapeOfType(out, s.type, s, pose);
}

/**
 * {@link aabbShape} for a shape whose type id `type` (equal to `s.type`) the caller keeps apart,
 * as the world does in a typed array: dispatching on it rather than on `s.type` keeps V8's field
 * loads in each per-type routine monomorphic, so that the hot path allocates nothing.
 */
export function aabbShapeOfType(out: Aabb, type: ShapeType, s: Shape, pose: Isometry): Aabb {
  switch (type) {
    case ShapeType.Sphere:
      return aabbSphere(out, s as ShapeOfType<typeof ShapeType.Sphere>, pose);
    case ShapeType.Cuboid:
      return aabbCuboid(out, s as ShapeOfType<typeof ShapeType.Cuboid>, pose);
    case ShapeType.Capsule:
      return aabbCapsule(out, s as ShapeOfType<typeof ShapeType.Capsule>, pose);
    case ShapeType.Cylinder:
      return aabbCylinder(out, s as ShapeOfType<typeof ShapeType.Cylinder>, pose);
    case ShapeType.Cone:
      return aabbCone(out, s as ShapeOfType<typeof ShapeType.Cone>, pose);
    case ShapeType.ConvexPolyhedron:
      return aabbConvexPolyhedron(out, s as ShapeOfType<typeof ShapeType.ConvexPolyhedron>, pose);
    case ShapeType.Triangle:
      return aabbTriangle(out, s as ShapeOfType<typeof ShapeType.Triangle>, pose);
    case ShapeType.TriangleMesh:
      return aabbTriangleMesh(out, s as ShapeOfType<typeof ShapeType.TriangleMesh>, pose);
    case ShapeType.HalfSpace:
      return aabbHalfSpace(out, s as ShapeOfType<typeof ShapeType.HalfSpace>, pose);
    case ShapeType.Compound:
      return aabbCompound(out, s as ShapeOfType<typeof ShapeType.Compound>, pose);
  }
}

const childPose: Isometry = {
  translation: { x: 0, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
};
const childBox: Aabb = { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };

/** out = the union of the children's tight world AABBs. */
function aabbCompound(out: Aabb, c: Compound, pose: Isometry): Aabb {
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (const child of c.children) {
    iso.multiply(childPose, pose, child.pose);
    aabbShape(childBox, child.shape, childPose);
    minX = Math.min(minX, childBox.min.x);
    minY = Math.min(minY, childBox.min.y);
    minZ = Math.min(minZ, childBox.min.z);
    maxX = Math.max(maxX, childBox.max.x);
    maxY = Math.max(maxY, childBox.max.y);
    maxZ = Math.max(maxZ, childBox.max.z);
  }
  out.min.x = minX;
  out.min.y = minY;
  out.min.z = minZ;
  out.max.x = maxX;
  out.max.y = maxY;
  out.max.z = maxZ;
  return out;
}

const worldNormal = { x: 0, y: 0, z: 0 };

/**
 * out = the world AABB of a half-space: unbounded (±Infinity) except along a world axis that its
 * normal is exactly aligned with, where the plane bounds it. Broad phases keep unbounded boxes
 * out of their structure and test them against everything.
 */
function aabbHalfSpace(out: Aabb, h: HalfSpace, pose: Isometry): Aabb {
  quat.rotate(worldNormal, pose.rotation, h.normal);
  const d = h.offset + vec3.dot(worldNormal, pose.translation);
  vec3.set(out.min, -Infinity, -Infinity, -Infinity);
  vec3.set(out.max, Infinity, Infinity, Infinity);
  const n = worldNormal;
  if (n.y === 0 && n.z === 0) {
    if (n.x > 0) out.max.x = d / n.x;
    else if (n.x < 0) out.min.x = d / n.x;
  } else if (n.x === 0 && n.z === 0) {
    if (n.y > 0) out.max.y = d / n.y;
    else if (n.y < 0) out.min.y = d / n.y;
  } else if (n.x === 0 && n.y === 0) {
    if (n.z > 0) out.max.z = d / n.z;
    else if (n.z < 0) out.min.z = d / n.z;
  }
  return out;
}
