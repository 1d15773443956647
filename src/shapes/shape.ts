/**
 * Shape type ids and the `Shape` union. Shapes are plain data in their own local frame; a pose
 * (`Isometry`) places them in the world. Operations are free functions in each shape's file;
 * pair routines are chosen by one table over `ShapeType` (src/narrowphase/dispatch.ts).
 */

import { setShapeMessageForm } from "../errors.js";
import type { Capsule } from "./capsule.js";
import type { Compound } from "./compound.js";
import type { Cone } from "./cone.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import type { Cuboid } from "./cuboid.js";
import type { Cylinder } from "./cylinder.js";
import { MADE_3D } from "./dimension.js";
import type { HalfSpace } from "./half-space.js";
import type { Heightfield } from "./heightfield.js";
import type { RoundedConvexPolyhedron, RoundedCuboid } from "./rounded.js";
import { isSupportMappedType, shapeDef } from "./shape-def.js";
import type { Sphere } from "./sphere.js";
import type { Triangle } from "./triangle.js";
import type { TriangleMesh } from "./triangle-mesh.js";

/** Numeric shape type ids; pair files are named in this order (`sphere-cuboid`, …). */
export const ShapeType = {
  Sphere: 0,
  Cuboid: 1,
  Capsule: 2,
  Cylinder: 3,
  Cone: 4,
  ConvexPolyhedron: 5,
  Triangle: 6,
  TriangleMesh: 7,
  HalfSpace: 8,
  Compound: 9,
  RoundedCuboid: 10,
  RoundedConvexPolyhedron: 11,
  Heightfield: 12,
} as const;

/** One of the {@link ShapeType} ids. */
export type ShapeType = (typeof ShapeType)[keyof typeof ShapeType];

/** Number of shape types (the dispatch table's side). */
export const SHAPE_TYPE_COUNT = 13;

/** Human names of the shape types, by id (for messages). */
export const SHAPE_TYPE_NAMES: readonly string[] = [
  "sphere",
  "cuboid",
  "capsule",
  "cylinder",
  "cone",
  "convex",
  "triangle",
  "mesh",
  "halfspace",
  "compound",
  "roundedCuboid",
  "roundedConvex",
  "heightfield",
];

/**
 * The name of shape type id `type` for messages (`"mesh"`, `"compound"`, …), so that no message
 * prints an internal number; anything that is not a known id is returned as given.
 */
export function shapeTypeName(type: unknown): unknown {
  return typeof type === "number" && Number.isInteger(type) && type >= 0 && type < SHAPE_TYPE_COUNT
    ? SHAPE_TYPE_NAMES[type]
    : type;
}

/** Every convex shape with a support function. */
export type ConvexShape =
  | Sphere
  | Cuboid
  | Capsule
  | Cylinder
  | Cone
  | ConvexPolyhedron
  | Triangle
  | RoundedCuboid
  | RoundedConvexPolyhedron;

/** Any shape Collide knows. */
export type Shape = ConvexShape | TriangleMesh | HalfSpace | Compound | Heightfield;

/** The member of {@link Shape} whose `type` is `T`. */
export type ShapeOfType<T extends ShapeType> = Extract<Shape, { type: T }>;

/**
 * True when `type` is the id of a registered convex shape type with a support function (its
 * definition is `supportMapped`: sphere, cuboid, capsule, cylinder, cone, convex polyhedron,
 * triangle, the rounded shapes): the shapes GJK/EPA and the compound's children accept. False
 * for meshes, half-spaces, compounds and anything that is not a known id (including
 * `undefined`). Read from the shape definitions' table (van den Bergen 2003, §4.3: a convex
 * object is one with a support mapping).
 */
export function isConvexShapeType(type: number | undefined): boolean {
  return isSupportMappedType(type);
}

/**
 * Returns its argument from the constructor, so that {@link ShapeMark}'s private field is
 * stamped onto an existing object (the shape) instead of a new one.
 */
class Stamp {
  constructor(o: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the private-field stamp (see ShapeMark).
    return o;
  }
}

/**
 * The mark of a shape built, and so validated, by one of the `make…` constructors: a private
 * class field stamped onto the shape. It cannot be forged (a private name is not a property: no
 * `Object.getOwnPropertySymbols`, no copy by spread or `Object.assign`, none on a hand-built
 * object), is invisible on the object (`JSON.stringify`, `Object.keys`, structured clones,
 * equality helpers), and is tested by `#mark in s` — one inline-cached load, as fast as the
 * symbol-keyed property it replaces (a module-private `WeakSet` costs a hash lookup: +7 ns on a
 * 22 ns sphere–box `intersects`, measured; docs/DESIGN.md). The pair queries trust a marked shape
 * and validate an unmarked, hand-built one in full (`checkShape`), so a bad hand-built shape is
 * refused with the field named instead of answered. A marked shape is deeply frozen, so it stays
 * valid.
 */
class ShapeMark extends Stamp {
  #mark = true;
  /** True when `o` carries the mark. */
  static has(o: object): boolean {
    return #mark in o;
  }
}

/**
 * Marks `s` as built by a constructor (see {@link isBrandedShape}) and freezes it deeply (see
 * {@link deepFreezeShape}); returns it. Internal: not part of the public entry, so a user cannot
 * mark a hand-built object as validated.
 */
export function brandShape<T extends object>(s: T): T {
  new ShapeMark(s);
  MADE_3D.add(s);
  return deepFreezeShape(s);
}

/**
 * Freezes `s` and every plain object and array it reaches (vectors, poses, compound children,
 * the mesh BVH record), so that a shape cannot change under a world or a cached BVH: a changed
 * shape is a new shape. Typed arrays (mesh vertices and indices, hull faces, BVH nodes) cannot be
 * frozen in JavaScript while they hold elements; the constructors fill them from copies of their
 * input, so nothing the caller holds aliases them, and they are skipped here (documented as
 * read-only on each shape). Already-frozen objects (a child shape) are not walked again.
 */
export function deepFreezeShape<T extends object>(s: T): T {
  if (Object.isFrozen(s) || ArrayBuffer.isView(s)) return s;
  Object.freeze(s);
  for (const v of Object.values(s)) {
    if (v !== null && typeof v === "object") deepFreezeShape(v as object);
  }
  return s;
}

/** True when `s` was built, and validated, by a `make…` constructor ({@link brandShape}). */
export function isBrandedShape(s: object): boolean {
  return ShapeMark.has(s);
}

/**
 * The form of a value in an error message (src/errors.ts `describeValue`): a shape a `make…`
 * constructor built is written as its JSON form, its kind by name (`{"type":"sphere",
 * "radius":1e+300}`, a compound's children alike), never as the record with its internal type
 * number (`{"type":0,…}`, fresh16); anything else — a hand-built object is quoted as its author
 * wrote it — is returned as given. A made shape's definition is loaded (its constructor loaded
 * it) and its JSON form always written. Error path only (allocates).
 */
const shapeMessageForm = (value: object): unknown =>
  ShapeMark.has(value) ? shapeDef((value as Shape).type).json.toJson(value as Shape) : value;
setShapeMessageForm(shapeMessageForm);
