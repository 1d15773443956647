/**
 * Input validation shared by the shape constructors and by every layer above them: each check
 * throws a `CollideError` naming the field and the value it had. {@link checkShape} validates a
 * whole shape object (made by a `make…` constructor or by hand) and lives here, below the narrow
 * phase, the queries and the world, so that each of them can call it without importing upward
 * (docs/DESIGN.md, "Layers of the code"). {@link isShapeFinite} is its allocation-free,
 * non-throwing probe for the queries' "validate on the bad result" guard.
 */
import { UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { Compound } from "./compound.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import type { HalfSpace } from "./half-space.js";
import type { Shape } from "./shape.js";
import { isBrandedShape, isConvexShapeType, ShapeType, shapeTypeName } from "./shape.js";
import type { TriangleMesh } from "./triangle-mesh.js";

/** Throws unless `x` is a finite number. */
export function checkFinite(field: string, x: number): void {
  if (typeof x !== "number" || !Number.isFinite(x))
    invalidValue(field, x, "must be a finite number");
}

/** Throws unless `x` is finite and > 0. */
export function checkPositive(field: string, x: number): void {
  checkFinite(field, x);
  if (!(x > 0)) invalidValue(field, x, "must be > 0");
}

/** Throws unless `x` is finite and ≥ 0. */
export function checkNonNegative(field: string, x: number): void {
  checkFinite(field, x);
  if (!(x >= 0)) invalidValue(field, x, "must be ≥ 0");
}

/** Throws unless every component of `v` is finite. */
export function checkVec3(field: string, v: Vec3): void {
  if (
    v === null ||
    typeof v !== "object" ||
    !Number.isFinite(v.x) ||
    !Number.isFinite(v.y) ||
    !Number.isFinite(v.z)
  ) {
    invalidValue(field, v, "must be a vector of 3 finite numbers");
  }
}

/** Throws unless every component of `v` is finite and ≥ 0. */
export function checkNonNegativeVec3(field: string, v: Vec3): void {
  checkVec3(field, v);
  if (!(v.x >= 0 && v.y >= 0 && v.z >= 0)) invalidValue(field, v, "must be ≥ 0 on every axis");
}

/**
 * Throws unless `q` is a finite quaternion whose length is within UNIT_QUATERNION_TOLERANCE of 1
 * (docs/FORMATS.md: a non-unit quaternion is an error, never silently normalised).
 */
export function checkUnitQuat(field: string, q: Quat): void {
  if (
    q === null ||
    typeof q !== "object" ||
    !Number.isFinite(q.x) ||
    !Number.isFinite(q.y) ||
    !Number.isFinite(q.z) ||
    !Number.isFinite(q.w)
  ) {
    invalidValue(field, q, "must be a quaternion of 4 finite numbers");
  }
  const len = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(Math.abs(len - 1) <= UNIT_QUATERNION_TOLERANCE)) {
    invalidValue(field, q, `must be a unit quaternion (length ${len})`);
  }
}

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

function checkFiniteArray(field: string, a: Float64Array): void {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) invalidValue(`${field}[${i}]`, a[i], "must be finite");
  }
}

/**
 * Throws `CollideError` (`invalid_value`, naming `field` and the sub-field) unless `shape` is a
 * well-formed shape: a known convex `ShapeType` with finite, in-range parameters (sphere radius
 * > 0, cuboid half extents ≥ 0, capsule corners finite and radius > 0, cylinder and cone half
 * height and radius > 0, triangle corners finite, convex polyhedron with at least 4 finite
 * vertices, a finite vertex count, its face arrays and finite face planes), or a compound of
 * such shapes at valid poses ({@link checkIsometry}), a triangle mesh (built by
 * `makeTriangleMesh`), or a half-space with a unit normal and a finite offset. Fields are dotted
 * paths under `field` (`a.radius`, `body.shape.vertices[7]`, `shape.children[0].pose.rotation`).
 * Shapes made by the `make…` constructors always pass. Cost: constant for every type but the
 * convex polyhedron, which is scanned (linear in its vertices and faces).
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
      if (!isConvexShapeType(c.shape?.type)) {
        invalidValue(
          `${f}.shape.type`,
          shapeTypeName(c.shape?.type),
          "must be a convex shape (nested compounds are flattened by makeCompound)",
        );
      }
      checkShape(`${f}.shape`, c.shape);
      checkIsometry(`${f}.pose`, c.pose);
    }
    return;
  }
  if (type === ShapeType.TriangleMesh) {
    const m = shape as TriangleMesh;
    checkTypedArray(`${field}.vertices`, m.vertices, Float64Array);
    checkTypedArray(`${field}.indices`, m.indices, Uint32Array);
    // A mesh carries its BVH and edge data, which only makeTriangleMesh builds consistently.
    if (!isBrandedShape(shape)) {
      invalidValue(field, "a hand-built mesh", "must be built by makeTriangleMesh");
    }
    return;
  }
  if (type === ShapeType.Heightfield) {
    // A heightfield carries its min/max tree, which only makeHeightfield builds consistently.
    if (!isBrandedShape(shape)) {
      invalidValue(field, "a hand-built heightfield", "must be built by makeHeightfield");
    }
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
  if (!isConvexShapeType(type as number)) {
    invalidValue(`${field}.type`, type, "is not a known shape type");
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
      checkFinite(`${field}.vertexCount`, shape.vertexCount);
      const v = shape.vertices;
      const flat = shape.flat === true;
      if (shape.flat !== undefined && typeof shape.flat !== "boolean") {
        invalidValue(`${field}.flat`, shape.flat, "must be a boolean when given");
      }
      if (v.length < (flat ? 9 : 12) || v.length % 3 !== 0 || shape.vertexCount !== v.length / 3) {
        invalidValue(
          `${field}.vertices`,
          v.length,
          flat
            ? "must hold at least 3 packed xyz vertices (flat)"
            : "must hold at least 4 packed xyz vertices",
        );
      }
      checkFiniteArray(`${field}.vertices`, v);
      if (
        (flat ? shape.faceCount !== 2 : shape.faceCount < 4) ||
        shape.faceOffsets.length !== shape.faceCount + 1
      ) {
        invalidValue(
          `${field}.faceCount`,
          shape.faceCount,
          flat ? "must match faceOffsets (2 faces, flat)" : "must match faceOffsets (≥ 4 faces)",
        );
      }
      checkFiniteArray(`${field}.faceNormals`, shape.faceNormals);
      checkFiniteArray(`${field}.facePlaneOffsets`, shape.facePlaneOffsets);
      return;
    }
    case ShapeType.RoundedCuboid:
    case ShapeType.RoundedConvexPolyhedron: {
      checkObject(`${field}.core`, shape.core);
      const coreType =
        shape.type === ShapeType.RoundedCuboid ? ShapeType.Cuboid : ShapeType.ConvexPolyhedron;
      if (shape.core.type !== coreType) {
        invalidValue(`${field}.core.type`, shape.core.type, `must be ${shapeTypeName(coreType)}`);
      }
      checkShape(`${field}.core`, shape.core);
      checkFinite(`${field}.radius`, shape.radius);
      checkNonNegative(`${field}.radius`, shape.radius);
      return;
    }
  }
}

/**
 * Throws `CollideError` unless `pose` is an object with a finite translation (`<field>.translation`)
 * and a unit quaternion rotation (`<field>.rotation`, length within `UNIT_QUATERNION_TOLERANCE`
 * of 1). The valid case builds no strings, so it costs no allocation on per-frame paths (the
 * world's `setPose`, a compound's children).
 */
export function checkIsometry(field: string, pose: Isometry): void {
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

/** True when `x` is a finite number: x − x is 0 exactly for finite x, NaN for NaN, ±∞ or junk. */
function fin(x: number): boolean {
  return x - x === 0;
}

function finite3(v: Vec3): boolean {
  return v !== null && typeof v === "object" && fin(v.x) && fin(v.y) && fin(v.z);
}

function finiteArray(a: Float64Array): boolean {
  if (!(a instanceof Float64Array)) return false;
  for (let i = 0; i < a.length; i++) if (!fin(a[i])) return false;
  return true;
}

/** Polyhedra already found finite (shapes are immutable by convention, as for their AABBs). */
const finitePolyhedra = new WeakSet<object>();
/**
 * The two polyhedra most recently found finite: a pair query asks about the same two over and
 * over, and a reference comparison is cheaper than a `WeakSet` lookup. Holds at most two shapes.
 */
let recentFinite0: object | null = null;
let recentFinite1: object | null = null;

function finitePolyhedron(c: ConvexPolyhedron): boolean {
  if (c === recentFinite0 || c === recentFinite1) return true;
  if (!finitePolyhedra.has(c)) {
    const ok =
      fin(c.vertexCount) &&
      fin(c.faceCount) &&
      finiteArray(c.vertices) &&
      finiteArray(c.faceNormals) &&
      finiteArray(c.facePlaneOffsets);
    if (!ok) return false;
    finitePolyhedra.add(c);
  }
  recentFinite1 = recentFinite0;
  recentFinite0 = c;
  return true;
}

function finitePose(p: Isometry): boolean {
  if (p === null || typeof p !== "object") return false;
  const q = p.rotation;
  return (
    finite3(p.translation) &&
    q !== null &&
    typeof q === "object" &&
    fin(q.x) &&
    fin(q.y) &&
    fin(q.z) &&
    fin(q.w)
  );
}

/**
 * True when every number of `shape` that {@link checkShape} requires to be finite is finite (no
 * NaN, no ±Infinity): radii, half extents, half heights, corners, a half-space's normal and
 * offset, a convex polyhedron's vertices, counts and face planes, a compound's children and their
 * poses. Says nothing about signs or sizes (a radius of −1 passes) and does not look into a
 * triangle mesh (its constructor validates it). `shape` must be an object (the queries call it
 * on shapes they have already read); a missing field counts as non-finite, except a cuboid's
 * `halfExtents` and a sphere's type test, read unguarded on the fast path. Allocates nothing;
 * constant time except for a convex polyhedron, which is scanned once and then remembered (per
 * object, in a `WeakSet`; shapes are immutable by convention). The queries call it after
 * answering, to decide whether a yes/no answer may have come from a NaN comparison.
 */
export function isShapeFinite(shape: Shape): boolean {
  // A chain of type tests, commonest first: measured several times cheaper than a switch here
  // (it stays small enough for the JIT to inline into the queries).
  if (shape.type === ShapeType.Cuboid) {
    const h = shape.halfExtents;
    // One comparison: the sum of the x − x is 0 exactly when all three are finite numbers.
    return h.x - h.x + (h.y - h.y) + (h.z - h.z) === 0;
  }
  if (shape.type === ShapeType.Sphere) return fin(shape.radius);
  if (shape.type === ShapeType.ConvexPolyhedron) return finitePolyhedron(shape);
  return isOtherShapeFinite(shape);
}

function isOtherShapeFinite(shape: Shape): boolean {
  if (shape.type === ShapeType.Capsule) {
    return fin(shape.radius) && finite3(shape.a) && finite3(shape.b);
  }
  if (shape.type === ShapeType.Cylinder || shape.type === ShapeType.Cone) {
    return fin(shape.halfHeight) && fin(shape.radius);
  }
  if (shape.type === ShapeType.Triangle) {
    return finite3(shape.a) && finite3(shape.b) && finite3(shape.c);
  }
  if (shape.type === ShapeType.HalfSpace) return fin(shape.offset) && finite3(shape.normal);
  if (shape.type === ShapeType.Compound) return finiteCompound(shape);
  if (shape.type === ShapeType.RoundedCuboid || shape.type === ShapeType.RoundedConvexPolyhedron) {
    const c = shape.core;
    return fin(shape.radius) && c !== null && typeof c === "object" && isShapeFinite(c);
  }
  return true;
}

function finiteCompound(shape: Compound): boolean {
  const children = shape.children;
  if (!Array.isArray(children)) return false;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    if (c === null || typeof c !== "object" || c.shape === null || typeof c.shape !== "object")
      return false;
    if (!isShapeFinite(c.shape) || !finitePose(c.pose)) return false;
  }
  return true;
}
