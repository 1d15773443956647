/**
 * Input validation shared by the shape constructors and by every layer above them: each check
 * throws a `CollideError` naming the field and the value it had. {@link checkShape} validates a
 * whole shape object (made by a `make…` constructor or by hand) and lives here, below the narrow
 * phase, the queries and the world, so that each of them can call it without importing upward
 * (docs/DESIGN.md, "Layers of the code"). {@link isShapeFinite} is its allocation-free,
 * non-throwing probe for the queries' "validate on the bad result" guard. Both ask the shape's
 * definition (src/shapes/shape-def.ts: `check`, `isFinite`).
 */
import { MESH_COORDINATE_LIMIT, UNIT_QUATERNION_TOLERANCE } from "../constants.js";
import { CollideError, describeValue, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import type { Quat } from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import { MADE_2D } from "./dimension.js";
import { findShapeDef, NO_DEFINITION, shapeDef, shapeDefByJsonName } from "./registry.js";
import { isBrandedShape, SHAPE_TYPE_COUNT, type Shape, shapeTypeName } from "./shape.js";
import type { ShapeJson } from "./shape-def.js";

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

/**
 * The size limit of every shape (`MESH_COORDINATE_LIMIT` = 2^1023, the limit of a mesh's, a
 * hull's and a heightfield's vertices): throws `invalid_value` naming `field` with `value` unless
 * `extent` — the largest magnitude a coordinate of the shape reaches in its own frame (a radius,
 * a half extent, a corner's coordinate, a capsule's end plus its radius, a compound child's box)
 * — is below it. Below it the difference of any two points of the shape (its own extent, a
 * Minkowski difference's support at a coincident pose) is finite; at or above it a query's
 * support differences overflow and its answers turned wrong (a cone of half height 1e308 around a
 * unit ball reported apart) or NaN. `what` names the extent in the message ("the half height",
 * "a's coordinate plus the radius"). A NaN or infinite extent (a finite sum that overflowed) is
 * refused too, without printing it.
 */
export function checkShapeExtent(
  field: string,
  value: unknown,
  extent: number,
  what: string,
): void {
  if (extent < MESH_COORDINATE_LIMIT) return;
  const reach = Number.isFinite(extent) ? ` reaches ${extent}, which is` : " is";
  invalidValue(
    field,
    value,
    `is too large: ${what}${reach} not below MESH_COORDINATE_LIMIT = 2^1023 ≈ 8.99e307 (the limit of every shape's coordinates in its own frame, so that the difference of two of its points stays finite; scale the scene down)`,
  );
}

/** The largest magnitude of `v`'s components (v finite). */
export function maxAbs3(v: Vec3): number {
  return Math.max(Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
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

/**
 * {@link checkVec3} for a shape maker's vector argument, which also refuses an unknown key of a
 * plain object (`{x, y, z, w}`: a quaternion or a typo, never silently dropped) with
 * `unknown_field` naming `<field>.<key>`, as options objects are refused (src/errors.ts
 * `checkOptions`). Instances of a class (three.js `Vector3`, Babylon's, Rapier's) are read by
 * duck typing whatever else they hold.
 */
export function checkShapeVec3(field: string, v: Vec3): void {
  checkVec3(field, v);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return;
  for (const key in v) {
    if (key === "x" || key === "y" || key === "z") continue;
    throw new CollideError(
      "unknown_field",
      `${field}.${key}`,
      (v as unknown as Record<string, unknown>)[key],
      `${field}.${key} is not a field of a vector {x, y, z} (got ${describeValue(v)})`,
    );
  }
}

/**
 * Throws `CollideError` `unknown_field` naming `<field>.<key>` when the plain object `pose` has a
 * key other than `translation` and `rotation` (`{translation, rotation, scale: 2}`: a scale is
 * not part of a pose, and would otherwise be silently ignored). Scans the keys (tens of
 * nanoseconds), so it runs where a pose is kept or refused — a world body's, a compound child's,
 * the queries' error path — not on every pair query. `pose` must be an object.
 */
export function checkPoseKeys(field: string, pose: Isometry): void {
  const proto = Object.getPrototypeOf(pose);
  if (proto !== Object.prototype && proto !== null) return;
  for (const key in pose) {
    if (key === "translation" || key === "rotation") continue;
    // As checkShapeVec3 refuses an unknown key of a vector.
    throw new CollideError(
      "unknown_field",
      `${field}.${key}`,
      (pose as unknown as Record<string, unknown>)[key],
      `${field}.${key} is not a field of a pose {translation, rotation} (got ${describeValue(pose)})`,
    );
  }
}

/** Throws unless every component of `v` is finite and ≥ 0. */
export function checkNonNegativeVec3(field: string, v: Vec3): void {
  checkVec3(field, v);
  if (!(v.x >= 0 && v.y >= 0 && v.z >= 0)) invalidValue(field, v, "must be ≥ 0 on every axis");
}

/**
 * Throws unless `q` is a finite quaternion whose length is within UNIT_QUATERNION_TOLERANCE of 1
 * (docs/FORMATS.md: one within it is accepted and normalised before use, by `iso.unitPose`; one
 * farther from unit is an error).
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

/** Throws unless `v` is a non-null object. */
export function checkObject(field: string, v: unknown): void {
  if (v === null || typeof v !== "object") invalidValue(field, v, "must be an object");
}

/** Throws unless `v` is an instance of `ctor`. */
export function checkTypedArray(
  field: string,
  v: unknown,
  ctor: Float64ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor,
): void {
  if (!(v instanceof ctor)) invalidValue(field, v, `must be a ${ctor.name}`);
}

/** Throws naming `<field>[i]` for the first non-finite element of `a`. */
export function checkFiniteArray(field: string, a: Float64Array): void {
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
  if (MADE_2D.has(shape))
    invalidValue(field, shape, "is a 2D shape (dim2): 3D queries take 3D shapes");
  const type = (shape as { type: unknown }).type;
  if (typeof type !== "number" || !Number.isInteger(type) || type < 0) {
    invalidValue(`${field}.type`, type, "must be a ShapeType id");
  }
  const def = findShapeDef(type);
  if (!def) {
    const why = type < SHAPE_TYPE_COUNT ? NO_DEFINITION : "is not a known shape type";
    invalidValue(`${field}.type`, type, why);
  }
  def.check(field, shape);
}

/**
 * The shape to keep beyond the call (a world body's, a compound's child): `shape` itself when a
 * `make…` constructor built it (marked, deeply frozen: it cannot change); otherwise, a hand-built
 * object is validated in full ({@link checkShape}, naming `field`) and replaced by the shape its
 * type's `make…` builds from its defining numbers — its JSON form through its definition
 * (`json.toJson`, then `json.fromJson`, which calls the constructor; a compound's children
 * alike) — so it is marked, deeply frozen, laid out as a made shape, and owns its arrays:
 * changing the hand-built object later changes nothing that was kept. A hand-built convex
 * polyhedron is rebuilt from its vertices (the hull of its points, as `makeConvexPolyhedron`
 * makes it). Allocates only for a hand-built shape.
 */
export function keptShape<S extends Shape>(field: string, shape: S): S {
  if (shape !== null && typeof shape === "object" && isBrandedShape(shape)) return shape;
  checkShape(field, shape);
  const json = shapeDef(shape.type).json;
  const copy = json.fromJson(json.toJson(shape), field, childFromJson);
  if (!isBrandedShape(copy)) {
    invalidValue(
      `${field}.type`,
      shapeTypeName(shape.type),
      "has a definition whose json.fromJson does not build the shape with its make… constructor",
    );
  }
  return copy as S;
}

/** A nested JSON shape (a compound's child) built by its type's `make…` (see keptShape). */
function childFromJson(j: ShapeJson, field: string): Shape {
  const def = shapeDefByJsonName(j.type);
  if (!def) return invalidValue(`${field}.type`, j.type, "is not a known shape type");
  return def.json.fromJson(j, field, childFromJson);
}

/**
 * Throws `CollideError` unless `pose` is an object with a finite translation (`<field>.translation`)
 * and a unit quaternion rotation (`<field>.rotation`, length within `UNIT_QUATERNION_TOLERANCE`
 * of 1; the callers use it normalised, `iso.unitPose`), and no key but those two
 * ({@link checkPoseKeys}). The valid case builds no strings, so it costs no allocation on per-frame paths (the
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
      checkPoseKeys(field, pose);
      return;
    }
  }
  checkObject(field, pose);
  checkPoseKeys(field, pose);
  checkVec3(`${field}.translation`, pose.translation);
  checkUnitQuat(`${field}.rotation`, pose.rotation);
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
  return shapeDef(shape.type).isFinite(shape);
}
