/**
 * The sphere's deferred operations (src/shapes/shape-def.ts, `ShapeOps`): its manifold feature
 * (the centre), its ray cast by the stable quadratic and its point projection radially (Ericson
 * 2005, §5.3.2 and §5.1.2 with a zero-length segment). Registered when this module loads;
 * src/shapes/defs/ops.ts loads it for the queries that use them.
 */
import { setPoint } from "../../geometry/feature.js";
import { rayIntervalSphere } from "../../geometry/ray-primitives.js";
import * as vec3 from "../../math/vec3.js";
import { ShapeType } from "../shape.js";
import { registerShapeOps } from "../shape-def.js";
import type { Sphere } from "../sphere.js";
import { finishRayHit, projectOnBall, rayInterval } from "./helpers.js";

const centre = vec3.create();

registerShapeOps<Sphere>(ShapeType.Sphere, {
  feature: (f) => setPoint(f, 0),
  edgeFeature: null,
  rayCast: (out, s, o, dUnit, _dRaw, len, maxToi, solid) =>
    rayIntervalSphere(rayInterval, s.radius, o, dUnit) &&
    finishRayHit(out, maxToi * len, len, solid),
  projectPoint: (out, s, p, solid) =>
    projectOnBall(out, p, vec3.set(centre, 0, 0, 0), s.radius, null, solid),
});
