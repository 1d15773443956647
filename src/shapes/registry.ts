/**
 * The shape definitions: one record per shape type ({@link ShapeDef}, crashcat's `ShapeDef`
 * and Jolt's shape classes in plain data), registered in one table indexed by the numeric type
 * id — the id the world keeps in a typed array — so that each call through the table reaches a
 * routine that only ever sees its own type (monomorphic field loads, no boxed doubles). Code
 * that needs to know something about "a shape" asks the table, not a `switch (shape.type)`.
 *
 * A record holds the type's name; whether it is support-mapped (a convex set with a support
 * function: GJK/EPA applies, a compound may hold it) or composite (parts through a view,
 * src/shapes/composite.ts); its world AABB; its bounding radius (the lever arm of the rotating
 * time-of-impact bound); and, for support-mapped types, its support split into a core and a
 * margin (a rounded shape is its core plus a radius: Jolt's `PlusRadiusSupport`, parry's
 * `RoundShape`) with whether the core is a polytope (SAT applies).
 *
 * The built-in types are registered below; a new type registers its record from its own file
 * (see src/shapes/rounded-cuboid.ts and docs/DESIGN.md, "Adding a shape").
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { hypot2, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { aabbCapsule, supportCapsuleCore } from "./capsule.js";
import type { Compound } from "./compound.js";
import { aabbCone, supportCone } from "./cone.js";
import { aabbConvexPolyhedron, supportConvexPolyhedron } from "./convex-polyhedron.js";
import { aabbCuboid, supportCuboid } from "./cuboid.js";
import { aabbCylinder, supportCylinder } from "./cylinder.js";
import type { HalfSpace } from "./half-space.js";
import type { Shape, ShapeOfType } from "./shape.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "./shape.js";
import { aabbSphere } from "./sphere.js";
import { aabbTriangle, supportTriangle } from "./triangle.js";
import { aabbTriangleMesh } from "./triangle-mesh.js";

/** Everything the library needs to know about one shape type. */
export interface ShapeDef<S extends Shape = Shape> {
  /** The type id (index in the table). */
  readonly type: S["type"];
  /** The name used in messages (`"sphere"`, `"cuboid"`, …). */
  readonly name: string;
  /** True for a convex set with a support function (GJK/EPA, the compound's children). */
  readonly supportMapped: boolean;
  /** True for a composite (a view of parts, src/shapes/composite.ts). */
  readonly composite: boolean;
  /** True when the core is a polytope (flat faces only: SAT over its faces and edges applies). */
  readonly polytope: boolean;
  /** out = the tight (or, for meshes, conservative) world AABB of `s` placed at `pose`. */
  aabb(out: Aabb, s: S, pose: Isometry): Aabb;
  /**
   * Largest distance from the local origin to a point of the shape (scene units; Infinity for
   * an unbounded shape): the lever arm of the rotating time-of-impact bound and the size that
   * scales tolerances. May over-estimate, never under-estimate.
   */
  boundingRadius(s: S): number;
  /**
   * out = the support point of the core along local `dir` (the shape itself when the margin is
   * 0); null for shapes without a support function.
   */
  readonly coreSupport: ((out: Vec3, s: S, dir: Vec3) => Vec3) | null;
  /** The margin swept around the core (scene units; 0 when the core is the shape). */
  margin(s: S): number;
  /**
   * For a rounded shape (a core swept by a ball of radius {@link margin}, src/shapes/rounded.ts):
   * its core, a shape of its own type. Absent for every other type.
   */
  roundedCore?(s: S): Shape;
}

/** Room for the built-in types and those registered later (the type ids are small integers). */
export const MAX_SHAPE_TYPES = 32;

const defs: (ShapeDef | null)[] = new Array(MAX_SHAPE_TYPES).fill(null);
const supportMapped = new Uint8Array(MAX_SHAPE_TYPES);

/** Registers the definition of its type (replacing one registered before). */
export function registerShape<S extends Shape>(def: ShapeDef<S>): void {
  defs[def.type] = def as unknown as ShapeDef;
  supportMapped[def.type] = def.supportMapped ? 1 : 0;
}

/** The definition of shape type `type`; throws `RangeError` for an id with none. */
export function shapeDef(type: number): ShapeDef {
  const d = defs[type];
  if (!d) throw new RangeError(`no shape definition for type ${type}`);
  return d;
}

/** True when `type` is a registered support-mapped type (false for any other value). */
export function isSupportMappedType(type: number | undefined): boolean {
  return typeof type === "number" && supportMapped[type] === 1;
}

/** The bounding radius of `s` (see {@link ShapeDef.boundingRadius}). */
export function boundingRadiusOf(s: Shape): number {
  return shapeDef(s.type).boundingRadius(s);
}

/** out = the world AABB of `s` at `pose` (see {@link ShapeDef.aabb}). */
export function aabbOf(out: Aabb, s: Shape, pose: Isometry): Aabb {
  return shapeDef(s.type).aabb(out, s, pose);
}

const fullDir = vec3.create();

/**
 * out = the support point of support-mapped `s` along local `dir`: the core's support pushed
 * out by the margin along `dir` (unit), any point of the shape for a zero `dir`.
 */
export function supportOf(out: Vec3, s: Shape, dir: Vec3): Vec3 {
  const d = shapeDef(s.type);
  (d.coreSupport as (out: Vec3, s: Shape, dir: Vec3) => Vec3)(out, s, dir);
  const m = d.margin(s);
  if (m === 0) return out;
  const len = vec3.length(dir);
  if (!(len > 0)) return out;
  vec3.scale(fullDir, dir, m / len);
  return vec3.add(out, out, fullDir);
}

/** Largest |vertex| of a packed xyz vertex array. */
export function maxVertexDistance(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i += 3) m = Math.max(m, hypot3(v[i], v[i + 1], v[i + 2]));
  return m;
}

/** Cached per object: shapes are immutable, and a mesh's or hull's scan is O(vertices). */
const radiusCache = new WeakMap<object, number>();

/** The value of `f()` computed once per shape object `s`. */
export function cachedPerShape(s: object, f: () => number): number {
  let r = radiusCache.get(s);
  if (r === undefined) {
    r = f();
    radiusCache.set(s, r);
  }
  return r;
}

const zero = (): number => 0;

type Def<T extends ShapeType> = ShapeDef<ShapeOfType<T>>;

const childPose: Isometry = iso.identity();
const childBox: Aabb = { min: vec3.create(), max: vec3.create() };

/** out = the union of a compound's children's tight world AABBs. */
function aabbCompound(out: Aabb, c: Compound, pose: Isometry): Aabb {
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (const child of c.children) {
    iso.multiply(childPose, pose, child.pose);
    aabbOf(childBox, child.shape, childPose);
    minX = Math.min(minX, childBox.min.x);
    minY = Math.min(minY, childBox.min.y);
    minZ = Math.min(minZ, childBox.min.z);
    maxX = Math.max(maxX, childBox.max.x);
    maxY = Math.max(maxY, childBox.max.y);
    maxZ = Math.max(maxZ, childBox.max.z);
  }
  vec3.set(out.min, minX, minY, minZ);
  vec3.set(out.max, maxX, maxY, maxZ);
  return out;
}

const worldNormal = vec3.create();

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

const solidOfRevolution = (s: { halfHeight: number; radius: number }): number =>
  hypot2(s.halfHeight, s.radius);

const sphere: Def<typeof ShapeType.Sphere> = {
  type: ShapeType.Sphere,
  name: SHAPE_TYPE_NAMES[ShapeType.Sphere],
  supportMapped: true,
  composite: false,
  polytope: false,
  aabb: aabbSphere,
  boundingRadius: (s) => s.radius,
  coreSupport: (out) => vec3.set(out, 0, 0, 0),
  margin: (s) => s.radius,
};

const cuboid: Def<typeof ShapeType.Cuboid> = {
  type: ShapeType.Cuboid,
  name: SHAPE_TYPE_NAMES[ShapeType.Cuboid],
  supportMapped: true,
  composite: false,
  polytope: true,
  aabb: aabbCuboid,
  boundingRadius: (s) => vec3.length(s.halfExtents),
  coreSupport: supportCuboid,
  margin: zero,
};

const capsule: Def<typeof ShapeType.Capsule> = {
  type: ShapeType.Capsule,
  name: SHAPE_TYPE_NAMES[ShapeType.Capsule],
  supportMapped: true,
  composite: false,
  polytope: false,
  aabb: aabbCapsule,
  boundingRadius: (s) => Math.max(vec3.length(s.a), vec3.length(s.b)) + s.radius,
  coreSupport: supportCapsuleCore,
  margin: (s) => s.radius,
};

const cylinder: Def<typeof ShapeType.Cylinder> = {
  type: ShapeType.Cylinder,
  name: SHAPE_TYPE_NAMES[ShapeType.Cylinder],
  supportMapped: true,
  composite: false,
  polytope: false,
  aabb: aabbCylinder,
  boundingRadius: solidOfRevolution,
  coreSupport: supportCylinder,
  margin: zero,
};

const cone: Def<typeof ShapeType.Cone> = {
  type: ShapeType.Cone,
  name: SHAPE_TYPE_NAMES[ShapeType.Cone],
  supportMapped: true,
  composite: false,
  polytope: false,
  aabb: aabbCone,
  boundingRadius: solidOfRevolution,
  coreSupport: supportCone,
  margin: zero,
};

const convexPolyhedron: Def<typeof ShapeType.ConvexPolyhedron> = {
  type: ShapeType.ConvexPolyhedron,
  name: SHAPE_TYPE_NAMES[ShapeType.ConvexPolyhedron],
  supportMapped: true,
  composite: false,
  polytope: true,
  aabb: aabbConvexPolyhedron,
  boundingRadius: (s) => cachedPerShape(s, () => maxVertexDistance(s.vertices)),
  coreSupport: supportConvexPolyhedron,
  margin: zero,
};

const triangle: Def<typeof ShapeType.Triangle> = {
  type: ShapeType.Triangle,
  name: SHAPE_TYPE_NAMES[ShapeType.Triangle],
  supportMapped: true,
  composite: false,
  polytope: true,
  aabb: aabbTriangle,
  boundingRadius: (s) => Math.max(vec3.length(s.a), vec3.length(s.b), vec3.length(s.c)),
  coreSupport: supportTriangle,
  margin: zero,
};

const triangleMesh: Def<typeof ShapeType.TriangleMesh> = {
  type: ShapeType.TriangleMesh,
  name: SHAPE_TYPE_NAMES[ShapeType.TriangleMesh],
  supportMapped: false,
  composite: true,
  polytope: false,
  aabb: aabbTriangleMesh,
  boundingRadius: (s) => cachedPerShape(s, () => maxVertexDistance(s.vertices)),
  coreSupport: null,
  margin: zero,
};

const halfSpace: Def<typeof ShapeType.HalfSpace> = {
  type: ShapeType.HalfSpace,
  name: SHAPE_TYPE_NAMES[ShapeType.HalfSpace],
  supportMapped: false,
  composite: false,
  polytope: false,
  aabb: aabbHalfSpace,
  boundingRadius: () => Infinity,
  coreSupport: null,
  margin: zero,
};

const compound: Def<typeof ShapeType.Compound> = {
  type: ShapeType.Compound,
  name: SHAPE_TYPE_NAMES[ShapeType.Compound],
  supportMapped: false,
  composite: true,
  polytope: false,
  aabb: aabbCompound,
  boundingRadius: (s) =>
    cachedPerShape(s, () => {
      let r = 0;
      for (const c of s.children) {
        r = Math.max(r, vec3.length(c.pose.translation) + boundingRadiusOf(c.shape));
      }
      return r;
    }),
  coreSupport: null,
  margin: zero,
};

registerShape(sphere);
registerShape(cuboid);
registerShape(capsule);
registerShape(cylinder);
registerShape(cone);
registerShape(convexPolyhedron);
registerShape(triangle);
registerShape(triangleMesh);
registerShape(halfSpace);
registerShape(compound);
