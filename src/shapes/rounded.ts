/**
 * Rounded shapes: a convex core swept by a ball — the points within `radius` of the core
 * (parry's `RoundShape`, Jolt's convex radius and `PlusRadiusSupport`). Two are defined: the
 * rounded cuboid (a box with rounded edges and corners) and the rounded convex polyhedron (a
 * hull with rounded edges and corners). Each is one record in the shape definitions' table
 * (src/shapes/registry.ts): its support is the core's plus the margin `radius`, so GJK/EPA,
 * the composite path, the shape casts and the GJK ray cast answer it with no routine of its own;
 * its manifold is the core's, pushed out by the radius (src/narrowphase/manifold.ts); its point
 * projection goes through the core's (src/query/project-point.ts). This file is the whole
 * definition; docs/DESIGN.md, "Adding a shape", walks through it.
 */
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import { makeConvexPolyhedron } from "./convex-polyhedron.js";
import type { Cuboid } from "./cuboid.js";
import { makeCuboid } from "./cuboid.js";
import { aabbOf, boundingRadiusOf, registerShape, type ShapeDef, shapeDef } from "./registry.js";
import type { Shape } from "./shape.js";
import { brandShape, SHAPE_TYPE_NAMES, ShapeType } from "./shape.js";
import { checkFinite, checkNonNegative } from "./validate.js";

/** A box (half extents `core.halfExtents`) with edges and corners rounded by `radius`. */
export interface RoundedCuboid {
  readonly type: typeof ShapeType.RoundedCuboid;
  /** The box swept by the ball (its half extents, local frame, scene units). */
  readonly core: Cuboid;
  /** Radius of the ball (≥ 0, scene units). */
  readonly radius: number;
}

/** A convex polyhedron `core` with edges and corners rounded by `radius`. */
export interface RoundedConvexPolyhedron {
  readonly type: typeof ShapeType.RoundedConvexPolyhedron;
  /** The hull swept by the ball (local frame). */
  readonly core: ConvexPolyhedron;
  /** Radius of the ball (≥ 0, scene units). */
  readonly radius: number;
}

/** Either rounded shape. */
export type RoundedShape = RoundedCuboid | RoundedConvexPolyhedron;

/**
 * A rounded box: the points within `radius` of the box of half extents `halfExtents` (so its
 * overall half extents are `halfExtents + radius`). Throws `CollideError` naming
 * `<field>.halfExtents` or `<field>.radius` for a negative or non-finite value.
 */
export function makeRoundedCuboid(halfExtents: Vec3, radius: number, field = ""): RoundedCuboid {
  const p = field ? `${field}.` : "";
  const core = makeCuboid(halfExtents, `${p}halfExtents`);
  checkRadius(`${p}radius`, radius);
  return brandShape({ type: ShapeType.RoundedCuboid, core, radius });
}

/**
 * A rounded convex polyhedron: the points within `radius` of the convex hull of `points`
 * (packed xyz or `Vec3[]`, local frame). Throws `CollideError` naming `<field>.points` (as
 * `makeConvexPolyhedron`) or `<field>.radius`.
 */
export function makeRoundedConvexPolyhedron(
  points: ArrayLike<number> | readonly Vec3[],
  radius: number,
  field = "",
): RoundedConvexPolyhedron {
  const p = field ? `${field}.` : "";
  const core = makeConvexPolyhedron(points, `${p}points`);
  checkRadius(`${p}radius`, radius);
  return brandShape({ type: ShapeType.RoundedConvexPolyhedron, core, radius });
}

function checkRadius(field: string, r: number): void {
  checkFinite(field, r);
  checkNonNegative(field, r);
}

/** out = the world AABB of rounded `s` at `pose`: the core's, grown by the radius. */
function aabbRounded(out: Aabb, s: RoundedShape, pose: Isometry): Aabb {
  aabbOf(out, s.core, pose);
  const r = s.radius;
  out.min.x -= r;
  out.min.y -= r;
  out.min.z -= r;
  out.max.x += r;
  out.max.y += r;
  out.max.z += r;
  return out;
}

function roundedDef<S extends RoundedShape>(type: S["type"]): ShapeDef<S> {
  return {
    type,
    name: SHAPE_TYPE_NAMES[type],
    supportMapped: true,
    composite: false,
    polytope: false,
    aabb: aabbRounded,
    boundingRadius: (s) => boundingRadiusOf(s.core) + s.radius,
    coreSupport: (out, s, dir) =>
      (shapeDef(s.core.type).coreSupport as (o: Vec3, c: Shape, d: Vec3) => Vec3)(out, s.core, dir),
    margin: (s) => s.radius,
    roundedCore: (s) => s.core,
  };
}

/** The rounded shape types, registered when this module loads. */
export const ROUNDED_SHAPE_TYPES: readonly number[] = [
  ShapeType.RoundedCuboid,
  ShapeType.RoundedConvexPolyhedron,
];

registerShape(roundedDef<RoundedCuboid>(ShapeType.RoundedCuboid));
registerShape(roundedDef<RoundedConvexPolyhedron>(ShapeType.RoundedConvexPolyhedron));
