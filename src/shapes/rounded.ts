/**
 * Rounded shapes: a convex core swept by a ball — the points within `radius` of the core
 * (parry's `RoundShape`, Jolt's convex radius and `PlusRadiusSupport`). Two are defined: the
 * rounded cuboid (a box with rounded edges and corners) and the rounded convex polyhedron (a
 * hull with rounded edges and corners). This file is their whole definition (docs/DESIGN.md,
 * "Adding a shape", walks through it): the shapes, their constructors and one record each in
 * the shape definitions' table (src/shapes/shape-def.ts), registered when it loads. The support
 * is the core's plus the margin `radius`, so GJK/EPA, the composite path and the shape casts
 * answer a rounded shape with no routine of its own; its ray cast is in closed form (the core's
 * faces pushed out by the radius and its edges' capsules, src/geometry/ray-rounded.ts; a new
 * rounded type without one gets the GJK ray cast of `roundedShapeDef`); its manifold is the
 * core's, each point moved out along the normal onto the rounded surface (by the radius where
 * the normal is the core's there; src/narrowphase/manifold.ts, through `roundedCore`); its
 * point projection is the core's moved by the radius; its JSON form, validation, finiteness
 * check and debug view are in its record. The parts both records share are built by
 * `roundedShapeDef` (src/shapes/defs/helpers.ts, with `projectRounded`, `aabbRounded` and
 * `checkRoundingRadius`), which a new rounded type's definition file imports the same way.
 */

import { checkFieldArg } from "../errors.js";
import { rayHitIo } from "../geometry/ray-primitives.js";
import {
  rayIntervalRoundedCuboidIn,
  rayIntervalRoundedPolytopeIn,
  roundedIn,
} from "../geometry/ray-rounded.js";
import type { Vec3 } from "../math/vec3.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import { makeConvexPolyhedron } from "./convex-polyhedron.js";
import type { Cuboid } from "./cuboid.js";
import { makeCuboid } from "./cuboid.js";
import {
  checkRoundingRadius,
  finishRayHitIn,
  rayInterval,
  roundedShapeDef,
  vecFromJson,
  vecJson,
} from "./defs/helpers.js";
import { brandShape, ShapeType } from "./shape.js";
import type { LocalRayHit, ShapeDef } from "./shape-def.js";
import { registerShape, shapeDef } from "./shape-def.js";
import { checkShapeExtent, maxAbs3 } from "./validate.js";

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
  checkFieldArg(
    "makeRoundedCuboid",
    field,
    "makeRoundedCuboid takes the half extents and the radius",
  );
  const p = field ? `${field}.` : "";
  const core = makeCuboid(halfExtents, `${p}halfExtents`);
  checkRoundingRadius(`${p}radius`, radius);
  checkRoundedExtent(`${p}radius`, radius, maxAbs3(core.halfExtents));
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
  checkFieldArg(
    "makeRoundedConvexPolyhedron",
    field,
    "makeRoundedConvexPolyhedron takes the points and the radius",
  );
  const p = field ? `${field}.` : "";
  const core = makeConvexPolyhedron(points, `${p}points`);
  checkRoundingRadius(`${p}radius`, radius);
  checkRoundedExtent(`${p}radius`, radius, maxAbsArray(core.vertices));
  return brandShape({ type: ShapeType.RoundedConvexPolyhedron, core, radius });
}

/**
 * The size limit of a rounded shape (src/shapes/validate.ts `checkShapeExtent`): its radius, and
 * its radius added to `coreExtent` (the core's largest coordinate magnitude), below 2^1023 —
 * a rounded box of half extents 1e308 and radius 1 had answered every query with an internal
 * fault's NaN. Names the radius: the core alone was checked by its constructor.
 */
function checkRoundedExtent(field: string, radius: number, coreExtent: number): void {
  checkShapeExtent(field, radius, radius, "the radius");
  checkShapeExtent(
    field,
    radius,
    coreExtent + radius,
    "the radius added to the core's largest coordinate",
  );
}

/** The largest magnitude in `a` (finite numbers). */
function maxAbsArray(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/**
 * The closed-form ray cast of a rounded shape of radius > 0 (src/geometry/ray-rounded.ts). The
 * radius and the limit go through `roundedIn` and `rayHitIo`: doubles passed to calls V8 does
 * not inline are boxed (the world's rounded manifolds cast one ray per point).
 */
function roundedRayCast(
  out: LocalRayHit,
  s: RoundedShape,
  o: Vec3,
  dUnit: Vec3,
  len: number,
  maxToi: number,
  solid: boolean,
): boolean {
  roundedIn[0] = s.radius;
  rayHitIo[0] = maxToi * len;
  if (s.type === ShapeType.RoundedCuboid) {
    if (!rayIntervalRoundedCuboidIn(rayInterval, (s as RoundedCuboid).core.halfExtents, o, dUnit))
      return false;
  } else {
    const c = (s as RoundedConvexPolyhedron).core;
    if (
      !rayIntervalRoundedPolytopeIn(
        rayInterval,
        c.vertices,
        c.edges,
        c.faceCount,
        c.faceOffsets,
        c.faceVertices,
        c.faceNormals,
        c.facePlaneOffsets,
        o,
        dUnit,
      )
    )
      return false;
  }
  return finishRayHitIn(out, len, solid);
}

/** A rounding radius of 0: the shape is its core, cast by the core's own ray cast. */
function coreRayCast(
  out: LocalRayHit,
  s: RoundedShape,
  o: Vec3,
  dUnit: Vec3,
  dRaw: Vec3,
  len: number,
  maxToi: number,
  solid: boolean,
): boolean {
  const cast = shapeDef(s.core.type).rayCast as NonNullable<ShapeDef["rayCast"]>;
  return cast(out, s.core, o, dUnit, dRaw, len, maxToi, solid);
}

/**
 * The rounded cuboid's record in the shape definitions' table; its ray cast in closed form
 * (src/geometry/ray-rounded.ts: the box's faces pushed out, its edges' capsules).
 */
export const roundedCuboidDef: ShapeDef<RoundedCuboid> = {
  ...roundedShapeDef<RoundedCuboid>(
    ShapeType.RoundedCuboid,
    ShapeType.Cuboid,
    (s) => {
      // Drawn as its outer box (the rounded edges and corners are inside it).
      const h = s.core.halfExtents;
      const r = s.radius;
      return { type: "box", halfExtents: [h.x + r, h.y + r, h.z + r] };
    },
    {
      name: "roundedBox",
      schema: (z) =>
        z.strictObject({
          type: z.literal("roundedBox"),
          halfExtents: z.tuple([z.number(), z.number(), z.number()]),
          radius: z.number(),
        }),
      toJson: (s) => ({
        type: "roundedBox",
        halfExtents: vecJson(s.core.halfExtents),
        radius: s.radius,
      }),
      fromJson: (j, field) =>
        makeRoundedCuboid(vecFromJson(j.halfExtents as number[]), j.radius as number, field),
    },
  ),
  rayCast: (out, s, o, dUnit, dRaw, len, maxToi, solid) =>
    s.radius > 0
      ? roundedRayCast(out, s, o, dUnit, len, maxToi, solid)
      : coreRayCast(out, s, o, dUnit, dRaw, len, maxToi, solid),
};

/**
 * The rounded convex polyhedron's record in the shape definitions' table; its ray cast in closed
 * form over the hull's faces pushed out and its edges' capsules (src/geometry/ray-rounded.ts).
 */
export const roundedConvexPolyhedronDef: ShapeDef<RoundedConvexPolyhedron> = {
  ...roundedShapeDef<RoundedConvexPolyhedron>(
    ShapeType.RoundedConvexPolyhedron,
    ShapeType.ConvexPolyhedron,
    // Drawn as its core hull (the radius is not drawn).
    (s) => shapeDef(s.core.type).view(s.core),
    {
      name: "roundedConvex",
      schema: (z) =>
        z.strictObject({
          type: z.literal("roundedConvex"),
          vertices: z.array(z.number()),
          radius: z.number(),
        }),
      toJson: (s) => ({
        type: "roundedConvex",
        vertices: Array.from(s.core.vertices),
        radius: s.radius,
      }),
      fromJson: (j, field) =>
        makeRoundedConvexPolyhedron(
          Float64Array.from(j.vertices as number[]),
          j.radius as number,
          field,
        ),
    },
  ),
  rayCast: (out, s, o, dUnit, dRaw, len, maxToi, solid) =>
    s.radius > 0
      ? roundedRayCast(out, s, o, dUnit, len, maxToi, solid)
      : coreRayCast(out, s, o, dUnit, dRaw, len, maxToi, solid),
};

/** The rounded shape types, registered when this module loads. */
export const ROUNDED_SHAPE_TYPES: readonly number[] = [
  ShapeType.RoundedCuboid,
  ShapeType.RoundedConvexPolyhedron,
];

registerShape(roundedCuboidDef);
registerShape(roundedConvexPolyhedronDef);
