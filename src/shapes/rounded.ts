/**
 * Rounded shapes: a convex core swept by a ball — the points within `radius` of the core
 * (parry's `RoundShape`, Jolt's convex radius and `PlusRadiusSupport`). Two are defined: the
 * rounded cuboid (a box with rounded edges and corners) and the rounded convex polyhedron (a
 * hull with rounded edges and corners). This file is their whole definition (docs/DESIGN.md,
 * "Adding a shape", walks through it): the shapes, their constructors and one record each in
 * the shape definitions' table (src/shapes/shape-def.ts), registered when it loads. The support
 * is the core's plus the margin `radius`, so GJK/EPA, the composite path, the shape casts and
 * the GJK ray cast answer a rounded shape with no routine of its own; its manifold is the
 * core's, pushed out by the radius (src/narrowphase/manifold.ts, through `roundedCore`); its
 * point projection is the core's moved by the radius; its JSON form, validation, finiteness
 * check and debug view are in its record.
 */
import { invalidValue } from "../errors.js";
import type { Aabb } from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { ConvexPolyhedron } from "./convex-polyhedron.js";
import { makeConvexPolyhedron } from "./convex-polyhedron.js";
import type { Cuboid } from "./cuboid.js";
import { makeCuboid } from "./cuboid.js";
import { fin, rayCastSupportMapped, vecFromJson, vecJson } from "./defs/helpers.js";
import type { Shape } from "./shape.js";
import { brandShape, SHAPE_TYPE_NAMES, ShapeType, shapeTypeName } from "./shape.js";
import type { PointProjection, ShapeDef, ShapeView } from "./shape-def.js";
import { registerShape, shapeDef } from "./shape-def.js";
import { checkFinite, checkNonNegative, checkObject, checkShape } from "./validate.js";

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
  shapeDef(s.core.type).aabb(out, s.core, pose);
  const r = s.radius;
  out.min.x -= r;
  out.min.y -= r;
  out.min.z -= r;
  out.max.x += r;
  out.max.y += r;
  out.max.z += r;
  return out;
}

const roundedDir = vec3.create();

/**
 * Projection onto a rounded shape: the core swept by a ball of `radius` (Ericson 2005, §5.1:
 * the closest point of a sphere-swept volume is the core's closest point moved by the radius
 * toward the query point). Outside the core, the core's closest point q at distance d: inside
 * when d ≤ radius, the surface point q + radius·(p − q)/d. Inside the core (hollow query), the
 * core's nearest boundary point q at depth d moved on outward: q + radius·(q − p)/d, at distance
 * d + radius (the rounded face over a core face is that face moved by the radius).
 */
function projectRounded(
  out: PointProjection,
  s: RoundedShape,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const core = s.core as Shape;
  const radius = s.radius;
  const project = shapeDef(core.type).projectPoint as NonNullable<ShapeDef["projectPoint"]>;
  project(out, core, p, false);
  const d = out.distance;
  if (!out.inside) {
    out.inside = d <= radius;
    if (out.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
      return out;
    }
    // Normalised with rescaling: a subnormal gap would overflow 1/d (and 0·∞ is NaN).
    vec3.sub(roundedDir, p, out.point);
    if (vec3.normalize(roundedDir, roundedDir) === 0) vec3.set(roundedDir, 0, 0, 0);
    vec3.addScaled(out.point, out.point, roundedDir, radius);
    out.distance = Math.abs(d - radius);
    return out;
  }
  out.inside = true;
  if (solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  vec3.sub(roundedDir, out.point, p);
  if (vec3.normalize(roundedDir, roundedDir) === 0) vec3.set(roundedDir, 0, 0, 0);
  vec3.addScaled(out.point, out.point, roundedDir, radius);
  out.distance = d + radius;
  return out;
}

/** The parts both rounded records share, for core type `coreType`. */
function roundedDef<S extends RoundedShape>(
  type: S["type"],
  coreType: S["core"]["type"],
  view: (s: S) => ShapeView,
  json: ShapeDef<S>["json"],
): ShapeDef<S> {
  return {
    type,
    name: SHAPE_TYPE_NAMES[type],
    supportMapped: true,
    composite: false,
    polytope: false,
    aabb: aabbRounded,
    boundingRadius: (s) => shapeDef(s.core.type).boundingRadius(s.core) + s.radius,
    writeMagnitude: (out, s) => {
      shapeDef(s.core.type).writeMagnitude(out, s.core);
      out[0] += s.radius;
    },
    scaled: null,
    coreSupport: (out, s, dir) =>
      (shapeDef(s.core.type).coreSupport as (o: Vec3, c: Shape, d: Vec3) => Vec3)(out, s.core, dir),
    margin: (s) => s.radius,
    writeMargin: (out, s) => {
      out[0] = s.radius;
    },
    roundedCore: (s) => s.core,
    // The manifold builder clips the core's features (roundedCore) and pushes them out.
    feature: null,
    edgeFeature: null,
    rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
      rayCastSupportMapped(out, s, o, dUnit, len, maxToi, solid),
    projectPoint: projectRounded,
    check: (field, s) => {
      checkObject(`${field}.core`, s.core);
      if (s.core.type !== coreType) {
        invalidValue(`${field}.core.type`, s.core.type, `must be ${shapeTypeName(coreType)}`);
      }
      checkShape(`${field}.core`, s.core);
      checkFinite(`${field}.radius`, s.radius);
      checkNonNegative(`${field}.radius`, s.radius);
    },
    isFinite: (s) => {
      const c = s.core;
      return fin(s.radius) && c !== null && typeof c === "object" && shapeDef(c.type).isFinite(c);
    },
    view,
    json,
  };
}

/** The rounded cuboid's record in the shape definitions' table. */
export const roundedCuboidDef: ShapeDef<RoundedCuboid> = roundedDef<RoundedCuboid>(
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
);

/** The rounded convex polyhedron's record in the shape definitions' table. */
export const roundedConvexPolyhedronDef: ShapeDef<RoundedConvexPolyhedron> =
  roundedDef<RoundedConvexPolyhedron>(
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
  );

/** The rounded shape types, registered when this module loads. */
export const ROUNDED_SHAPE_TYPES: readonly number[] = [
  ShapeType.RoundedCuboid,
  ShapeType.RoundedConvexPolyhedron,
];

registerShape(roundedCuboidDef);
registerShape(roundedConvexPolyhedronDef);
