/**
 * The capsule's definition: the points within `radius` of the segment a–b — a segment core with
 * the radius as margin. Ray cast by the stable quadratics of the cylinder and the end caps,
 * point projection through the closest point on the core (Ericson 2005, §5.3.7, §5.1.2).
 */
import { closestPointOnSegment } from "../../geometry/closest-point.js";
import {
  featureIo,
  SEGMENT_SIN,
  type SupportFeature,
  segmentSin,
  setPoint,
  setSegment,
} from "../../geometry/feature.js";
import { rayIntervalCapsule } from "../../geometry/ray-primitives.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { aabbCapsule, type Capsule, makeCapsule, supportCapsuleCore } from "../capsule.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { PointProjection, ShapeDef } from "../shape-def.js";
import { marginWith, registerShape } from "../shape-def.js";
import { checkPositive, checkVec3 } from "../validate.js";
import {
  fin,
  finishRayHit,
  finite3,
  maxAbs,
  projectOnBall,
  rayInterval,
  scaledVec,
  vecFromJson,
  vecJson,
} from "./helpers.js";

function capsuleFeature(f: SupportFeature, c: Capsule, d: Vec3): void {
  featureIo[0] = c.b.x - c.a.x;
  featureIo[1] = c.b.y - c.a.y;
  featureIo[2] = c.b.z - c.a.z;
  segmentSin(d);
  if (featureIo[6] > SEGMENT_SIN) {
    setPoint(f, 0);
    return;
  }
  // The side line facing d: the core pushed out by r along d's part normal to the axis, on the
  // surface (a + r·d is inside the capsule at the end where the axis slopes along d).
  const ux = c.b.x - c.a.x;
  const uy = c.b.y - c.a.y;
  const uz = c.b.z - c.a.z;
  const uu = ux * ux + uy * uy + uz * uz;
  const k = uu > 0 ? (d.x * ux + d.y * uy + d.z * uz) / uu : 0;
  let px = d.x - k * ux;
  let py = d.y - k * uy;
  let pz = d.z - k * uz;
  const pl = Math.sqrt(px * px + py * py + pz * pz);
  const r = pl > 0 ? c.radius / pl : c.radius;
  if (!(pl > 0)) {
    px = d.x;
    py = d.y;
    pz = d.z;
  }
  featureIo[0] = c.a.x + r * px;
  featureIo[1] = c.a.y + r * py;
  featureIo[2] = c.a.z + r * pz;
  featureIo[3] = c.b.x + r * px;
  featureIo[4] = c.b.y + r * py;
  featureIo[5] = c.b.z + r * pz;
  setSegment(f, 0, 1, 2);
}

const closest = vec3.create();
const axis = vec3.create();

function projectCapsule(
  out: PointProjection,
  c: Capsule,
  p: Vec3,
  solid: boolean,
): PointProjection {
  closestPointOnSegment(closest, p, c.a, c.b);
  vec3.sub(axis, c.b, c.a);
  const unitAxis = vec3.normalize(axis, axis) > 0 ? axis : null;
  return projectOnBall(out, p, closest, c.radius, unitAxis, solid);
}

/** The capsule's record in the shape definitions' table. */
export const capsuleDef: ShapeDef<Capsule> = {
  type: ShapeType.Capsule,
  name: SHAPE_TYPE_NAMES[ShapeType.Capsule],
  supportMapped: true,
  composite: false,
  polytope: null,
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbCapsule,
  boundingRadius: (s) => Math.max(vec3.length(s.a), vec3.length(s.b)) + s.radius,
  writeMagnitude: (out, s) => {
    out[0] = Math.max(maxAbs(s.a), maxAbs(s.b), s.radius);
  },
  scaled: (s, k) => ({
    type: s.type,
    a: scaledVec(s.a, k),
    b: scaledVec(s.b, k),
    radius: s.radius * k,
  }),
  coreSupport: supportCapsuleCore,
  ...marginWith<Capsule>(
    (s) => s.radius,
    (out, s) => {
      out[0] = s.radius;
    },
  ),
  feature: capsuleFeature,
  edgeFeature: null,
  rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
    rayIntervalCapsule(rayInterval, s.a, s.b, s.radius, o, dUnit) &&
    finishRayHit(out, maxToi * len, len, solid),
  projectPoint: projectCapsule,
  check: (field, s) => {
    checkVec3(`${field}.a`, s.a);
    checkVec3(`${field}.b`, s.b);
    checkPositive(`${field}.radius`, s.radius);
  },
  isFinite: (s) => fin(s.radius) && finite3(s.a) && finite3(s.b),
  view: (s) => ({ type: "capsule", a: vecJson(s.a), b: vecJson(s.b), radius: s.radius }),
  json: {
    name: "capsule",
    schema: (z) => {
      const v = z.tuple([z.number(), z.number(), z.number()]);
      return z.strictObject({ type: z.literal("capsule"), a: v, b: v, radius: z.number() });
    },
    toJson: (s) => ({ type: "capsule", a: vecJson(s.a), b: vecJson(s.b), radius: s.radius }),
    fromJson: (j, field) =>
      makeCapsule(
        vecFromJson(j.a as number[]),
        vecFromJson(j.b as number[]),
        j.radius as number,
        field,
      ),
  },
};

registerShape(capsuleDef);
