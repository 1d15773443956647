/**
 * The cuboid's definition: a box of half extents `halfExtents` about the local origin, a
 * polytope (SAT applies). Its manifold features, ray cast and point projection are deferred to
 * src/shapes/defs/cuboid-ops.ts (loaded by the queries that use them), so an app that only
 * tests overlaps does not bundle them.
 */

import { hypotIo } from "../../math/scalar.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { aabbCuboid, type Cuboid, makeCuboid, supportCuboid } from "../cuboid.js";
import { vecOrder } from "../data-order.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { ShapeDef } from "../shape-def.js";
import { boundingRadiusWith, DEFERRED, registerShape } from "../shape-def.js";
import { checkNonNegativeVec3, checkShapeExtent, maxAbs3 } from "../validate.js";
import { maxAbs, scaledVec, vecFromJson, vecJson } from "./helpers.js";

/** out = the unit vector along local axis `i` (0 x, 1 y, 2 z). */
function unitAxis(out: Vec3, _s: Cuboid, i: number): Vec3 {
  return vec3.set(out, i === 0 ? 1 : 0, i === 1 ? 1 : 0, i === 2 ? 1 : 0);
}

/** The cuboid's record in the shape definitions' table. */
export const cuboidDef: ShapeDef<Cuboid> = {
  type: ShapeType.Cuboid,
  name: SHAPE_TYPE_NAMES[ShapeType.Cuboid],
  supportMapped: true,
  composite: false,
  // SAT's axes: the three face normals, which are also the three edge directions.
  polytope: {
    faceCount: () => 3,
    faceNormal: unitAxis,
    edgeCount: () => 3,
    edgeDirection: unitAxis,
    flat: false,
    // Its closed faces and planes (the overlap volume's clipping) are set by cuboid-ops.ts, as
    // its other heavy operations: an app that never asks for them does not bundle them.
    faces: null,
    planes: null,
  },
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbCuboid,
  ...boundingRadiusWith<Cuboid>(
    (s) => vec3.length(s.halfExtents),
    (out, s) => {
      vec3.lengthInto(s.halfExtents);
      out[0] = hypotIo[0];
    },
  ),
  writeMagnitude: (out, s) => {
    out[0] = maxAbs(s.halfExtents);
  },
  scaled: (s, k) => ({ type: s.type, halfExtents: scaledVec(s.halfExtents, k) }),
  coreSupport: supportCuboid,
  margin: () => 0,
  feature: DEFERRED,
  edgeFeature: DEFERRED,
  rayCast: DEFERRED,
  projectPoint: DEFERRED,
  dataOrder: (a, b) => vecOrder(a.halfExtents, b.halfExtents),
  check: (field, s) => {
    checkNonNegativeVec3(`${field}.halfExtents`, s.halfExtents);
    const h = s.halfExtents;
    checkShapeExtent(`${field}.halfExtents`, h, maxAbs3(h), "a half extent");
  },
  // One comparison: the sum of the x − x is 0 exactly when all three are finite numbers.
  isFinite: (s) => {
    const h = s.halfExtents;
    return h.x - h.x + (h.y - h.y) + (h.z - h.z) === 0;
  },
  view: (s) => ({ type: "box", halfExtents: vecJson(s.halfExtents) }),
  json: {
    name: "cuboid",
    schema: (z) =>
      z.strictObject({
        type: z.literal("cuboid"),
        halfExtents: z.tuple([z.number(), z.number(), z.number()]),
      }),
    toJson: (s) => ({ type: "cuboid", halfExtents: vecJson(s.halfExtents) }),
    fromJson: (j, field) =>
      makeCuboid(vecFromJson(j.halfExtents as number[]), `${field}.halfExtents`),
  },
};

registerShape(cuboidDef);
