/**
 * The sphere's definition: a ball of `radius` about the local origin — a point core with the
 * radius as margin (Jolt's `PlusRadiusSupport` on a point). Its manifold feature, ray cast and
 * point projection are deferred to src/shapes/defs/sphere-ops.ts (loaded by the queries that
 * use them), so an app that only tests overlaps does not bundle them.
 */
import * as vec3 from "../../math/vec3.js";
import { numberOrder } from "../data-order.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { ShapeDef } from "../shape-def.js";
import { DEFERRED, marginWith, registerShape } from "../shape-def.js";
import { aabbSphere, makeSphere, type Sphere } from "../sphere.js";
import { checkPositive, checkShapeExtent } from "../validate.js";
import { fin } from "./helpers.js";

/** The sphere's record in the shape definitions' table. */
export const sphereDef: ShapeDef<Sphere> = {
  type: ShapeType.Sphere,
  name: SHAPE_TYPE_NAMES[ShapeType.Sphere],
  supportMapped: true,
  composite: false,
  polytope: null,
  revolution: null,
  unbounded: false,
  pointFeature: true,
  aabb: aabbSphere,
  boundingRadius: (s) => s.radius,
  writeMagnitude: (out, s) => {
    out[0] = s.radius;
  },
  scaled: (s, k) => ({ type: s.type, radius: s.radius * k }),
  coreSupport: (out) => vec3.set(out, 0, 0, 0),
  ...marginWith<Sphere>(
    (s) => s.radius,
    (out, s) => {
      out[0] = s.radius;
    },
  ),
  feature: DEFERRED,
  edgeFeature: DEFERRED,
  rayCast: DEFERRED,
  projectPoint: DEFERRED,
  dataOrder: (a, b) => numberOrder(a.radius, b.radius),
  check: (field, s) => {
    checkPositive(`${field}.radius`, s.radius);
    checkShapeExtent(`${field}.radius`, s.radius, s.radius, "the radius");
  },
  isFinite: (s) => fin(s.radius),
  view: (s) => ({ type: "sphere", radius: s.radius }),
  json: {
    name: "sphere",
    schema: (z) => z.strictObject({ type: z.literal("sphere"), radius: z.number() }),
    toJson: (s) => ({ type: "sphere", radius: s.radius }),
    fromJson: (j, field) => makeSphere(j.radius as number, `${field}.radius`),
  },
};

registerShape(sphereDef);
