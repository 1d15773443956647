/**
 * The shape definitions: one record per shape type ({@link ShapeDef}, crashcat's `ShapeDef`
 * and Jolt's shape classes in plain data), registered in one table indexed by the numeric type
 * id — the id the world keeps in a typed array — so that a call through the table stays
 * monomorphic per type. Code that needs to know something about "a shape" asks the table, not
 * a `switch (shape.type)`.
 *
 * What a record holds: the type's name, whether it is support-mapped (a convex set with a
 * support function: GJK/EPA applies) or composite (parts through a view,
 * src/shapes/composite.ts), its world AABB, its bounding radius (the lever arm of the rotating
 * time-of-impact bound), its magnitude (largest coordinate, for the change of units far from
 * unit scale) and, for support-mapped types, its support function split into a core and a
 * margin (a rounded shape is its core plus a radius: Jolt's `PlusRadiusSupport`, parry's
 * `RoundShape`).
 */
import { hypot2, hypot3 } from "../math/scalar.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { supportCapsuleCore } from "./capsule.js";
import { supportCone } from "./cone.js";
import { supportConvexPolyhedron } from "./convex-polyhedron.js";
import { supportCuboid } from "./cuboid.js";
import { supportCylinder } from "./cylinder.js";
import type { Shape, ShapeOfType } from "./shape.js";
import { supportTriangle } from "./triangle.js";
import { SHAPE_TYPE_COUNT, SHAPE_TYPE_NAMES, ShapeType } from "./shape.js";

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
  /**
   * Largest distance from the local origin to a point of the shape (scene units; Infinity for
   * an unbounded shape): the lever arm of the rotating time-of-impact bound and the size that
   * scales tolerances. May over-estimate (it must never under-estimate).
   */
  boundingRadius(s: S): number;
  /**
   * Support of the core along local `dir` (the shape itself for margin 0); null for shapes
   * without a support function.
   */
  readonly coreSupport: ((out: Vec3, s: S, dir: Vec3) => Vec3) | null;
  /** The margin swept around the core (scene units; 0 when the core is the shape). */
  margin(s: S): number;
}

const defs: (ShapeDef | null)[] = new Array(SHAPE_TYPE_COUNT).fill(null);
const supportMapped = new Uint8Array(SHAPE_TYPE_COUNT);

/** Registers the definition of its type (replacing one registered before). */
export function registerShape<S extends Shape>(def: ShapeDef<S>): void {
  defs[def.type] = def as unknown as ShapeDef;
  supportMapped[def.type] = def.supportMapped ? 1 : 0;
}

/** The definition of shape type `type`; throws on an unknown id. */
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

/** Largest |vertex| of a packed xyz vertex array. */
function maxVertexDistance(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i += 3) m = Math.max(m, hypot3(v[i], v[i + 1], v[i + 2]));
  return m;
}

/** Cached per object: shapes are immutable, and a mesh's scan is O(vertices). */
const radiusCache = new WeakMap<object, number>();

function cachedRadius(s: object, f: () => number): number {
  let r = radiusCache.get(s);
  if (r === undefined) {
    r = f();
    radiusCache.set(s, r);
  }
  return r;
}

const zero = (): number => 0;

type Def<T extends ShapeType> = ShapeDef<ShapeOfType<T>>;

const sphere: Def<typeof ShapeType.Sphere> = {
  type: ShapeType.Sphere,
  name: SHAPE_TYPE_NAMES[ShapeType.Sphere],
  supportMapped: true,
  composite: false,
  boundingRadius: (s) => s.radius,
  coreSupport: (out) => vec3.set(out, 0, 0, 0),
  margin: (s) => s.radius,
};

const cuboid: Def<typeof ShapeType.Cuboid> = {
  type: ShapeType.Cuboid,
  name: SHAPE_TYPE_NAMES[ShapeType.Cuboid],
  supportMapped: true,
  composite: false,
  boundingRadius: (s) => vec3.length(s.halfExtents),
  coreSupport: supportCuboid,
  margin: zero,
};

const capsule: Def<typeof ShapeType.Capsule> = {
  type: ShapeType.Capsule,
  name: SHAPE_TYPE_NAMES[ShapeType.Capsule],
  supportMapped: true,
  composite: false,
  boundingRadius: (s) => Math.max(vec3.length(s.a), vec3.length(s.b)) + s.radius,
  coreSupport: supportCapsuleCore,
  margin: (s) => s.radius,
};

registerShape(sphere);
registerShape(cuboid);
registerShape(capsule);
{
  const solidOfRevolution = (s: { halfHeight: number; radius: number }): number =>
    hypot2(s.halfHeight, s.radius);
  registerShape<ShapeOfType<typeof ShapeType.Cylinder>>({
    type: ShapeType.Cylinder,
    name: SHAPE_TYPE_NAMES[ShapeType.Cylinder],
    supportMapped: true,
    composite: false,
    boundingRadius: solidOfRevolution,
    coreSupport: supportCylinder,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.Cone>>({
    type: ShapeType.Cone,
    name: SHAPE_TYPE_NAMES[ShapeType.Cone],
    supportMapped: true,
    composite: false,
    boundingRadius: solidOfRevolution,
    coreSupport: supportCone,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.ConvexPolyhedron>>({
    type: ShapeType.ConvexPolyhedron,
    name: SHAPE_TYPE_NAMES[ShapeType.ConvexPolyhedron],
    supportMapped: true,
    composite: false,
    boundingRadius: (s) => cachedRadius(s, () => maxVertexDistance(s.vertices)),
    coreSupport: supportConvexPolyhedron,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.Triangle>>({
    type: ShapeType.Triangle,
    name: SHAPE_TYPE_NAMES[ShapeType.Triangle],
    supportMapped: true,
    composite: false,
    boundingRadius: (s) => Math.max(vec3.length(s.a), vec3.length(s.b), vec3.length(s.c)),
    coreSupport: supportTriangle,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.TriangleMesh>>({
    type: ShapeType.TriangleMesh,
    name: SHAPE_TYPE_NAMES[ShapeType.TriangleMesh],
    supportMapped: false,
    composite: true,
    boundingRadius: (s) => cachedRadius(s, () => maxVertexDistance(s.vertices)),
    coreSupport: null,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.HalfSpace>>({
    type: ShapeType.HalfSpace,
    name: SHAPE_TYPE_NAMES[ShapeType.HalfSpace],
    supportMapped: false,
    composite: false,
    boundingRadius: () => Infinity,
    coreSupport: null,
    margin: zero,
  });
  registerShape<ShapeOfType<typeof ShapeType.Compound>>({
    type: ShapeType.Compound,
    name: SHAPE_TYPE_NAMES[ShapeType.Compound],
    supportMapped: false,
    composite: true,
    boundingRadius: (s) =>
      cachedRadius(s, () => {
        let r = 0;
        for (const c of s.children) {
          r = Math.max(r, vec3.length(c.pose.translation) + boundingRadiusOf(c.shape));
        }
        return r;
      }),
    coreSupport: null,
    margin: zero,
  });
}
