/**
 * The capsule's definition: the points within `radius` of the segment a–b — a segment core with
 * the radius as margin. Ray cast by the stable quadratics of the cylinder and the end caps,
 * point projection through the closest point on the core (Ericson 2005, §5.3.7, §5.1.2).
 */
import { closestPointOnSegment } from "../../geometry/closest-point.js";
import { exactSegmentWhenFar } from "../../geometry/exact-nearest.js";
import { exactOffset, farGridCentre } from "../../geometry/far-centre.js";
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
import { numberOrder, vecOrder } from "../data-order.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { PointProjection, ShapeDef } from "../shape-def.js";
import { marginWith, registerShape } from "../shape-def.js";
import { checkPositive, checkShapeExtent, checkVec3, maxAbs3 } from "../validate.js";
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

/**
 * The capsule's supporting feature along unit local `d`: its core a–b moved by r·d (Jolt's
 * `GetSupportingFace`) when the axis lies within `SEGMENT_SIN` of the plane ⟂ d, else a point.
 * The moved core spans the core's extent across d, so the end where the axis slopes along d is
 * the capsule's support point (the cap's pole) and the segment is the capsule's top along d only
 * when it is level: where the axis slopes, its points lie inside the capsule, and the manifold
 * builder seats each clipped point on the surface along d (src/narrowphase/manifold.ts). The side
 * line (the core moved by r across the axis) was on the surface but stopped r·tan α short of the
 * pole, so a sloped capsule's manifold missed its deepest point (issue 16).
 */
function capsuleFeature(f: SupportFeature, c: Capsule, d: Vec3): void {
  featureIo[0] = c.b.x - c.a.x;
  featureIo[1] = c.b.y - c.a.y;
  featureIo[2] = c.b.z - c.a.z;
  segmentSin(d);
  if (featureIo[6] > SEGMENT_SIN) {
    setPoint(f, 0);
    return;
  }
  const r = c.radius;
  featureIo[0] = c.a.x + r * d.x;
  featureIo[1] = c.a.y + r * d.y;
  featureIo[2] = c.a.z + r * d.z;
  featureIo[3] = c.b.x + r * d.x;
  featureIo[4] = c.b.y + r * d.y;
  featureIo[5] = c.b.z + r * d.z;
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
  // A core far from the origin for its size (src/geometry/far-centre.ts): the core and p in the
  // frame at its centre, as a posed capsule's (the "on the core" tolerance of projectOnBall is
  // a fraction of p's coordinates: at 1e13 a point 0.75 outside was inside).
  vec3.min(capLo, c.a, c.b);
  vec3.max(capHi, c.a, c.b);
  const ext = Math.max(capHi.x - capLo.x, capHi.y - capLo.y, capHi.z - capLo.z) + c.radius;
  if (
    farGridCentre(capCentre, capLo, capHi, ext) &&
    exactOffset(capA, c.a, capCentre) &&
    exactOffset(capB, c.b, capCentre) &&
    exactOffset(capP, p, capCentre)
  ) {
    closestPointOnSegment(closest, capP, capA, capB);
    exactSegmentWhenFar(closest, capP, capA, capB);
    vec3.sub(axis, capB, capA);
    const centredAxis = vec3.normalize(axis, axis) > 0 ? axis : null;
    projectOnBall(out, capP, closest, c.radius, centredAxis, solid);
    if (out.inside && solid) vec3.copy(out.point, p);
    else vec3.add(out.point, out.point, capCentre);
    return out;
  }
  closestPointOnSegment(closest, p, c.a, c.b);
  exactSegmentWhenFar(closest, p, c.a, c.b);
  vec3.sub(axis, c.b, c.a);
  const unitAxis = vec3.normalize(axis, axis) > 0 ? axis : null;
  return projectOnBall(out, p, closest, c.radius, unitAxis, solid);
}

const capLo = vec3.create();
const capHi = vec3.create();
const capCentre = vec3.create();
const capA = vec3.create();
const capB = vec3.create();
const capP = vec3.create();

/**
 * A capsule answered in other units (src/query/project-point.ts: the copy scaled by a power of
 * two, which may flush a small capsule's subnormal-scale bits to 0 under a point 2^1000 away):
 * `out` (unscaled, outside) again from the original core when p is far from it — the exact
 * core point (src/geometry/exact-nearest.ts), then the radius along p's offset from it.
 */
export function refineFarCapsule(out: PointProjection, c: Capsule, p: Vec3): void {
  closestPointOnSegment(closest, p, c.a, c.b);
  if (!exactSegmentWhenFar(closest, p, c.a, c.b)) return;
  const dx = p.x - closest.x;
  const dy = p.y - closest.y;
  const dz = p.z - closest.z;
  const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  if (!(m > 0) || !Number.isFinite(m)) return;
  const ux = dx / m;
  const uy = dy / m;
  const uz = dz / m;
  const l = Math.sqrt(ux * ux + uy * uy + uz * uz);
  out.point.x = closest.x + (c.radius * ux) / l;
  out.point.y = closest.y + (c.radius * uy) / l;
  out.point.z = closest.z + (c.radius * uz) / l;
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
  dataOrder: (p, q) => vecOrder(p.a, q.a) || vecOrder(p.b, q.b) || numberOrder(p.radius, q.radius),
  check: (field, s) => {
    checkVec3(`${field}.a`, s.a);
    checkVec3(`${field}.b`, s.b);
    checkPositive(`${field}.radius`, s.radius);
    // The constructor's size limit (src/shapes/capsule.ts).
    const e = Math.max(maxAbs3(s.a), maxAbs3(s.b));
    checkShapeExtent(
      `${field}.radius`,
      s.radius,
      e + s.radius,
      "the capsule's reach (an end's coordinate plus the radius)",
    );
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
