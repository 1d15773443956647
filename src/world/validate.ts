/**
 * Boundary checks of the collision world: a body's shape, pose and collision filter are
 * validated before anything is written, so a refused `addBody` or `setPose` leaves the world
 * exactly as it was. Shapes made by the `make…` constructors always pass; these checks catch
 * hand-written or corrupted shape objects.
 */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import { isConvexType } from "../narrowphase/dispatch.js";
import type { Compound } from "../shapes/compound.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { Shape } from "../shapes/shape.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import {
  checkFinite,
  checkNonNegativeVec3,
  checkPositive,
  checkUnitQuat,
  checkVec3,
} from "../shapes/validate.js";

function checkObject(field: string, v: unknown): void {
  if (v === null || typeof v !== "object") invalidValue(field, v, "must be an object");
}

function checkTypedArray(
  field: string,
  v: unknown,
  ctor: Float64ArrayConstructor | Uint32ArrayConstructor,
): void {
  if (!(v instanceof ctor)) invalidValue(field, v, `must be a ${ctor.name}`);
}

/**
 * Throws `CollideError` (`invalid_value`, naming `field` and the sub-field) unless `shape` is a
 * well-formed shape the world's narrow phase supports: a known convex `ShapeType` with finite,
 * in-range parameters (sphere radius > 0, cuboid half extents ≥ 0, capsule corners finite and
 * radius > 0, cylinder and cone half height and radius > 0, triangle corners finite, convex
 * polyhedron with at least 4 finite vertices and its face arrays), or a compound of such shapes
 * at valid poses, a triangle mesh (built by `makeTriangleMesh`), or a half-space with a unit
 * normal and a finite offset.
 */
export function checkShape(field: string, shape: Shape): void {
  checkObject(field, shape);
  const type = (shape as { type: unknown }).type;
  if (typeof type !== "number" || !Number.isInteger(type) || type < 0) {
    invalidValue(`${field}.type`, type, "must be a ShapeType id");
  }
  if (type === ShapeType.Compound) {
    const children = (shape as Compound).children;
    if (!Array.isArray(children) || children.length === 0) {
      invalidValue(`${field}.children`, children, "must be a non-empty array");
    }
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      const f = `${field}.children[${i}]`;
      checkObject(f, c);
      if (!isConvexType(c.shape?.type)) {
        invalidValue(`${f}.shape.type`, c.shape?.type, "must be a convex shape");
      }
      checkShape(`${f}.shape`, c.shape);
      checkWorldPose(`${f}.pose`, c.pose);
    }
    return;
  }
  if (type === ShapeType.TriangleMesh) {
    const m = shape as TriangleMesh;
    checkTypedArray(`${field}.vertices`, m.vertices, Float64Array);
    checkTypedArray(`${field}.indices`, m.indices, Uint32Array);
    return;
  }
  if (type === ShapeType.HalfSpace) {
    const h = shape as HalfSpace;
    checkVec3(`${field}.normal`, h.normal);
    if (!(Math.abs(vec3.length(h.normal) - 1) <= UNIT_QUATERNION_TOLERANCE)) {
      invalidValue(`${field}.normal`, h.normal, "must be a unit vector");
    }
    checkFinite(`${field}.offset`, h.offset);
    return;
  }
  if (!isConvexType(type as ShapeType)) {
    const name = SHAPE_TYPE_NAMES[type as number] ?? "unknown";
    invalidValue(`${field}.type`, type, `is not supported by the collision world (${name})`);
  }
  switch (shape.type) {
    case ShapeType.Sphere:
      checkPositive(`${field}.radius`, shape.radius);
      return;
    case ShapeType.Cuboid:
      checkNonNegativeVec3(`${field}.halfExtents`, shape.halfExtents);
      return;
    case ShapeType.Capsule:
      checkVec3(`${field}.a`, shape.a);
      checkVec3(`${field}.b`, shape.b);
      checkPositive(`${field}.radius`, shape.radius);
      return;
    case ShapeType.Cylinder:
    case ShapeType.Cone:
      checkPositive(`${field}.halfHeight`, shape.halfHeight);
      checkPositive(`${field}.radius`, shape.radius);
      return;
    case ShapeType.Triangle:
      checkVec3(`${field}.a`, shape.a);
      checkVec3(`${field}.b`, shape.b);
      checkVec3(`${field}.c`, shape.c);
      return;
    case ShapeType.ConvexPolyhedron: {
      checkTypedArray(`${field}.vertices`, shape.vertices, Float64Array);
      checkTypedArray(`${field}.faceOffsets`, shape.faceOffsets, Uint32Array);
      checkTypedArray(`${field}.faceVertices`, shape.faceVertices, Uint32Array);
      checkTypedArray(`${field}.faceNormals`, shape.faceNormals, Float64Array);
      checkTypedArray(`${field}.facePlaneOffsets`, shape.facePlaneOffsets, Float64Array);
      checkTypedArray(`${field}.edges`, shape.edges, Uint32Array);
      const v = shape.vertices;
      if (v.length < 12 || v.length % 3 !== 0 || shape.vertexCount !== v.length / 3) {
        invalidValue(`${field}.vertices`, v.length, "must hold at least 4 packed xyz vertices");
      }
      for (let i = 0; i < v.length; i++) {
        if (!Number.isFinite(v[i])) invalidValue(`${field}.vertices[${i}]`, v[i], "must be finite");
      }
      if (shape.faceCount < 4 || shape.faceOffsets.length !== shape.faceCount + 1) {
        invalidValue(`${field}.faceCount`, shape.faceCount, "must match faceOffsets (≥ 4 faces)");
      }
      return;
    }
  }
}

/**
 * Throws `CollideError` unless `pose` has a finite translation and a unit quaternion rotation
 * (length within `UNIT_QUATERNION_TOLERANCE` of 1). The valid case builds no strings, so it
 * costs no allocation on the per-frame `setPose` path.
 */
export function checkWorldPose(field: string, pose: Isometry): void {
  if (pose !== null && typeof pose === "object") {
    const t = pose.translation;
    const q = pose.rotation;
    if (
      t !== null &&
      typeof t === "object" &&
      q !== null &&
      typeof q === "object" &&
      Number.isFinite(t.x) &&
      Number.isFinite(t.y) &&
      Number.isFinite(t.z) &&
      Number.isFinite(q.x) &&
      Number.isFinite(q.y) &&
      Number.isFinite(q.z) &&
      Number.isFinite(q.w) &&
      Math.abs(Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) - 1) <=
        UNIT_QUATERNION_TOLERANCE
    ) {
      return;
    }
  }
  checkObject(field, pose);
  checkVec3(`${field}.translation`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
}

/** Throws `CollideError` unless `v` is an unsigned 32-bit integer (a layer or mask). */
export function checkFilterBits(field: string, v: number): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    invalidValue(field, v, "must be an integer in [0, 2^32 − 1]");
  }
}
