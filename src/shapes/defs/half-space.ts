/**
 * The half-space's definition: the solid {p : normal·p ≤ offset}, unbounded — neither support
 * mapped nor composite (its pairs are closed forms, src/narrowphase/). Ray cast against the
 * plane; point projection onto it (Ericson 2005, §5.1.1, §5.3.1).
 */
import { UNIT_QUATERNION_TOLERANCE } from "../../constants.js";
import { invalidValue } from "../../errors.js";
import { rayIntervalHalfSpace } from "../../geometry/ray-primitives.js";
import type { Aabb } from "../../math/aabb.js";
import type { Isometry } from "../../math/isometry.js";
import * as quat from "../../math/quat.js";
import * as vec3 from "../../math/vec3.js";
import { numberOrder, vecOrder } from "../data-order.js";
import { type HalfSpace, makeHalfSpace } from "../half-space.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { ShapeDef } from "../shape-def.js";
import { registerShape } from "../shape-def.js";
import { checkFinite, checkVec3 } from "../validate.js";
import { fin, finishRayHit, finite3, rayInterval, vecFromJson, vecJson } from "./helpers.js";

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

/** The half-space's record in the shape definitions' table. */
export const halfSpaceDef: ShapeDef<HalfSpace> = {
  type: ShapeType.HalfSpace,
  name: SHAPE_TYPE_NAMES[ShapeType.HalfSpace],
  supportMapped: false,
  composite: false,
  polytope: null,
  revolution: null,
  unbounded: true,
  pointFeature: false,
  aabb: aabbHalfSpace,
  boundingRadius: () => Infinity,
  writeMagnitude: (out) => {
    out[0] = -1;
  },
  scaled: null,
  coreSupport: null,
  margin: () => 0,
  feature: null,
  edgeFeature: null,
  rayCast: (out, s, o, _dUnit, dRaw, _len, maxToi, solid) =>
    rayIntervalHalfSpace(rayInterval, s.normal, s.offset, o, dRaw) &&
    finishRayHit(out, maxToi, 1, solid),
  projectPoint: (out, s, p, solid) => {
    // The plane n·p = offset bounds the solid side n·p ≤ offset (Ericson 2005, §5.1.1).
    const sep = vec3.dot(s.normal, p) - s.offset;
    out.inside = sep <= 0;
    if (out.inside && solid) {
      vec3.copy(out.point, p);
      out.distance = 0;
    } else {
      vec3.addScaled(out.point, p, s.normal, -sep);
      out.distance = Math.abs(sep);
    }
    return out;
  },
  dataOrder: (a, b) => vecOrder(a.normal, b.normal) || numberOrder(a.offset, b.offset),
  check: (field, s) => {
    checkVec3(`${field}.normal`, s.normal);
    if (!(Math.abs(vec3.length(s.normal) - 1) <= UNIT_QUATERNION_TOLERANCE)) {
      invalidValue(`${field}.normal`, s.normal, "must be a unit vector");
    }
    checkFinite(`${field}.offset`, s.offset);
  },
  isFinite: (s) => fin(s.offset) && finite3(s.normal),
  view: (s) => ({ type: "halfspace", normal: vecJson(s.normal), offset: s.offset }),
  json: {
    name: "halfspace",
    schema: (z) =>
      z.strictObject({
        type: z.literal("halfspace"),
        normal: z.tuple([z.number(), z.number(), z.number()]),
        offset: z.number(),
      }),
    toJson: (s) => ({ type: "halfspace", normal: vecJson(s.normal), offset: s.offset }),
    fromJson: (j, field) =>
      makeHalfSpace(vecFromJson(j.normal as number[]), j.offset as number, field),
  },
};

registerShape(halfSpaceDef);
