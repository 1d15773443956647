/**
 * The cylinder's definition: radius `radius`, from y = −halfHeight to +halfHeight about local Y.
 * Ray cast by the stable quadratic and the cap planes; point projection in the 2D profile (a
 * rectangle) of the half-plane through the axis and the point; supporting cap octagons and side
 * lines for manifolds.
 */
import { MANIFOLD_FEATURE_COS } from "../../constants.js";
import { exactFarActive, exactRevolutionWhenFar } from "../../geometry/exact-nearest.js";
import {
  azimuthIo,
  discPolygon,
  featureAzimuth,
  featureIo,
  SEGMENT_SIN,
  type SupportFeature,
  setPoint,
  setSegment,
} from "../../geometry/feature.js";
import { rayIntervalCylinder } from "../../geometry/ray-primitives.js";
import { RevolutionKind } from "../../geometry/revolution.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { aabbCylinder, type Cylinder, makeCylinder, supportCylinder } from "../cylinder.js";
import { ShapeType } from "../shape.js";
import type { PointProjection, ShapeDef } from "../shape-def.js";
import { registerShape } from "../shape-def.js";
import { azimuth, fromProfile, revolutionSolidDef } from "./helpers.js";

function cylinderFeature(f: SupportFeature, c: Cylinder, d: Vec3): void {
  // The azimuth and the setters' coordinates through registers: no double crosses a call
  // (src/geometry/feature.ts).
  featureAzimuth(d);
  const ux = azimuthIo[0];
  const uz = azimuthIo[1];
  const ay = Math.abs(d.y);
  if (ay >= MANIFOLD_FEATURE_COS) {
    const up = d.y >= 0;
    featureIo[0] = up ? c.halfHeight : -c.halfHeight;
    featureIo[1] = c.radius;
    featureIo[2] = ux;
    featureIo[3] = uz;
    discPolygon(f, up);
    f.index = up ? 0 : 1;
    f.cos = ay;
    vec3.set(f.normal, 0, up ? 1 : -1, 0);
    return;
  }
  if (ay <= SEGMENT_SIN) {
    const x = c.radius * ux;
    const z = c.radius * uz;
    featureIo[0] = x;
    featureIo[1] = -c.halfHeight;
    featureIo[2] = z;
    featureIo[3] = x;
    featureIo[4] = c.halfHeight;
    featureIo[5] = z;
    setSegment(f, 2, 1, 2);
    return;
  }
  setPoint(f, 2);
}

function projectCylinder(
  out: PointProjection,
  c: Cylinder,
  p: Vec3,
  solid: boolean,
): PointProjection {
  const rho = azimuth(p);
  const h = c.halfHeight;
  const r = c.radius;
  const inside = rho <= r && Math.abs(p.y) <= h;
  out.inside = inside;
  if (inside && solid) {
    vec3.copy(out.point, p);
    out.distance = 0;
    return out;
  }
  if (!inside) {
    fromProfile(out, Math.min(rho, r), Math.min(Math.max(p.y, -h), h));
    out.distance = vec3.distance(p, out.point);
    // Far outside, inside a query entry only: the exact nearest point
    // (src/geometry/exact-nearest.ts).
    if (exactFarActive() && exactRevolutionWhenFar(out.point, out.distance, false, h, r, p))
      out.distance = vec3.distance(p, out.point);
    return out;
  }
  const sideGap = r - rho;
  const capGap = h - Math.abs(p.y);
  if (sideGap <= capGap) {
    fromProfile(out, r, p.y);
    out.distance = sideGap;
  } else {
    fromProfile(out, rho, p.y < 0 ? -h : h);
    out.distance = capGap;
  }
  return out;
}

/** The cylinder's record in the shape definitions' table. */
export const cylinderDef: ShapeDef<Cylinder> = revolutionSolidDef<Cylinder>({
  type: ShapeType.Cylinder,
  jsonName: "cylinder",
  kind: RevolutionKind.Cylinder,
  aabb: aabbCylinder,
  support: supportCylinder,
  feature: cylinderFeature,
  rayInterval: rayIntervalCylinder,
  projectPoint: projectCylinder,
  make: makeCylinder,
});

registerShape(cylinderDef);
