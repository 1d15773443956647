/**
 * The cone's definition: base radius `radius` at y = −halfHeight, apex at y = +halfHeight about
 * local Y. Ray cast by the stable quadratic and the base plane; point projection in the 2D
 * profile (a triangle) of the half-plane through the axis and the point (Ericson 2005, §5.1.5);
 * the supporting base octagon or side line for manifolds.
 */
import { MANIFOLD_FEATURE_COS } from "../../constants.js";
import { closestPointOnSegment, closestPointOnTriangle } from "../../geometry/closest-point.js";
import { exactFarActive, exactRevolutionWhenFar } from "../../geometry/exact-nearest.js";
import {
  azimuthIo,
  discPolygon,
  featureAzimuth,
  featureIo,
  SEGMENT_SIN,
  type SupportFeature,
  segmentSin,
  setPoint,
  setSegment,
} from "../../geometry/feature.js";
import { rayIntervalCone } from "../../geometry/ray-primitives.js";
import { RevolutionKind } from "../../geometry/revolution.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { aabbCone, type Cone, makeCone, supportCone } from "../cone.js";
import { ShapeType } from "../shape.js";
import type { PointProjection, ShapeDef } from "../shape-def.js";
import { registerShape } from "../shape-def.js";
import { azimuth, fromProfile, revolutionSolidDef } from "./helpers.js";

function coneFeature(f: SupportFeature, c: Cone, d: Vec3): void {
  // The azimuth and the setters' coordinates through registers: no double crosses a call
  // (src/geometry/feature.ts).
  featureAzimuth(d);
  const ux = azimuthIo[0];
  const uz = azimuthIo[1];
  const rho = azimuthIo[2];
  if (-d.y >= MANIFOLD_FEATURE_COS) {
    featureIo[0] = -c.halfHeight;
    featureIo[1] = c.radius;
    featureIo[2] = ux;
    featureIo[3] = uz;
    discPolygon(f, false);
    f.index = 0;
    f.cos = -d.y;
    vec3.set(f.normal, 0, -1, 0);
    return;
  }
  const x = c.radius * ux;
  const z = c.radius * uz;
  const h = c.halfHeight;
  if (rho > 0) {
    featureIo[0] = x;
    featureIo[1] = -2 * h;
    featureIo[2] = z;
    segmentSin(d);
    if (featureIo[6] <= SEGMENT_SIN) {
      featureIo[0] = 0;
      featureIo[1] = h;
      featureIo[2] = 0;
      featureIo[3] = x;
      featureIo[4] = -h;
      featureIo[5] = z;
      setSegment(f, 1, 1, 2);
      return;
    }
  }
  setPoint(f, 1);
}

const prof = vec3.create();
const apex2 = vec3.create();
const rim2 = vec3.create();
const base2 = vec3.create();
const c2a = vec3.create();
const c2b = vec3.create();

function projectCone(out: PointProjection, c: Cone, p: Vec3, solid: boolean): PointProjection {
  const rho = azimuth(p);
  const h = c.halfHeight;
  const r = c.radius;
  // The profile triangle in the (ρ, y) half-plane, embedded as (ρ, y, 0).
  vec3.set(prof, rho, p.y, 0);
  vec3.set(apex2, 0, h, 0);
  vec3.set(rim2, r, -h, 0);
  vec3.set(base2, 0, -h, 0);
  // Inside: below the side line ρ = r·(h − y)/(2h), above the base.
  const inside = p.y >= -h && p.y <= h && 2 * h * rho <= r * (h - p.y);
  out.inside = inside;
  if (inside && solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (!inside) {
    closestPointOnTriangle(c2a, prof, apex2, rim2, base2);
  } else {
    // Hollow from inside: the nearer of the side and the base (the axis is not boundary).
    closestPointOnSegment(c2a, prof, apex2, rim2);
    closestPointOnSegment(c2b, prof, rim2, base2);
    if (vec3.distanceSq(c2b, prof) < vec3.distanceSq(c2a, prof)) vec3.copy(c2a, c2b);
  }
  fromProfile(out, Math.max(0, c2a.x), c2a.y);
  out.distance = vec3.distance(p, out.point);
  // Far outside, inside a query entry only: the exact nearest point (src/geometry/exact-nearest.ts).
  if (!inside && exactFarActive() && exactRevolutionWhenFar(out.point, out.distance, true, h, r, p))
    out.distance = vec3.distance(p, out.point);
  return out;
}

/** The cone's record in the shape definitions' table. */
export const coneDef: ShapeDef<Cone> = revolutionSolidDef<Cone>({
  type: ShapeType.Cone,
  jsonName: "cone",
  kind: RevolutionKind.Cone,
  aabb: aabbCone,
  support: supportCone,
  feature: coneFeature,
  rayInterval: rayIntervalCone,
  projectPoint: projectCone,
  make: makeCone,
});

registerShape(coneDef);
