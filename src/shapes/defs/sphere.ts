/**
 * The sphere's definition: a ball of `radius` about the local origin — a point core with the
 * radius as margin (Jolt's `PlusRadiusSupport` on a point). Ray cast by the stable quadratic,
 * point projection radially (Ericson 2005, §5.3.2 and §5.1.2 with a zero-length segment).
 */
import { setPoint } from "../../geometry/feature.js";
import { rayIntervalSphere } from "../../geometry/ray-primitives.js";
import * as vec3 from "../../math/vec3.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { ShapeDef } from "../shape-def.js";
import { registerShape } from "../shape-def.js";
import { aabbSphere, makeSphere, type Sphere } from "../sphere.js";
import { checkPositive } from "../validate.js";
import { fin, finishRayHit, projectOnBall, rayInterval } from "./helpers.js";

const centre = /* @__PURE__ */ vec3.create();

/** The sphere's record in the shape definitions' table. */
export const sphereDef: ShapeDef<Sphere> = {
  type: ShapeType.Sphere,
  name: SHAPE_TYPE_NAMES[ShapeType.Sphere],
  supportMapped: true,
  composite: false,
  polytope: false,
  aabb: aabbSphere,
  boundingRadius: (s) => s.radius,
  writeMagnitude: (out, s) => {
    out[0] = s.radius;
  },
  scaled: (s, k) => ({ type: s.type, radius: s.radius * k }),
  coreSupport: (out) => vec3.set(out, 0, 0, 0),
  margin: (s) => s.radius,
  feature: (f) => setPoint(f, 0),
  edgeFeature: null,
  rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
    rayIntervalSphere(rayInterval, s.radius, o, dUnit) &&
    finishRayHit(out, maxToi * len, len, solid),
  projectPoint: (out, s, p, solid) =>
    projectOnBall(out, p, vec3.set(centre, 0, 0, 0), s.radius, null, solid),
  check: (field, s) => checkPositive(`${field}.radius`, s.radius),
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
