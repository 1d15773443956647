/**
 * The cuboid's deferred operations (src/shapes/shape-def.ts, `ShapeOps`): ray cast by the slab
 * test, point projection by clamping (Ericson 2005, §5.3.3 and §5.1.3); supporting faces and
 * edges for manifolds by the largest axis of the direction. Registered when this module loads;
 * src/shapes/defs/ops.ts loads it for the queries that use them.
 */

import { reserveClipPolygon } from "../../geometry/clip.js";
import {
  FEATURE_POINT,
  FEATURE_POLYGON,
  FEATURE_SEGMENT,
  SEGMENT_SIN,
  type SupportFeature,
} from "../../geometry/feature.js";
import { boxFaces } from "../../geometry/polytope-volume.js";
import { rayIntervalCuboid } from "../../geometry/ray-primitives.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import type { Cuboid } from "../cuboid.js";
import { ShapeType } from "../shape.js";
import type { PointProjection } from "../shape-def.js";
import { registerShapeOps } from "../shape-def.js";
import { cuboidDef } from "./cuboid.js";
import { finishRayHit, rayInterval } from "./helpers.js";

function cuboidFace(f: SupportFeature, c: Cuboid, d: Vec3): void {
  // The face of the largest axis i of d (vec3.maxAbsAxis), on the side s of d's component; the
  // corners written straight into the polygon (no per-corner helper: this runs twice for every
  // touching box pair of a world step). A corner's coordinate is ±h exactly (the sign times h).
  const ax = Math.abs(d.x);
  const ay = Math.abs(d.y);
  const az = Math.abs(d.z);
  const i = ax >= ay ? (ax >= az ? 0 : 2) : ay >= az ? 1 : 2;
  const di = i === 0 ? d.x : i === 1 ? d.y : d.z;
  const s = di >= 0 ? 1 : -1;
  f.kind = FEATURE_POLYGON;
  f.index = 2 * i + (s < 0 ? 1 : 0);
  f.cos = Math.abs(di);
  f.normal.x = i === 0 ? s : 0;
  f.normal.y = i === 1 ? s : 0;
  f.normal.z = i === 2 ? s : 0;
  const h = c.halfExtents;
  const hx = h.x;
  const hy = h.y;
  const hz = h.z;
  const poly = f.poly;
  poly.count = 0;
  reserveClipPolygon(poly, 4);
  const v = poly.xyz;
  const tags = poly.tags;
  for (let q = 0; q < 4; q++) {
    // Counter-clockwise about +e_i is (+,+), (−,+), (−,−), (+,−) in (j, k) = (i + 1, i + 2)
    // mod 3; reversed for −e_i. Each corner is tagged 1 + its corner index (bit a: + on axis a).
    const qq = s > 0 ? q : q === 0 ? 0 : 4 - q;
    const sj = qq === 0 || qq === 3 ? 1 : -1;
    const sk = qq < 2 ? 1 : -1;
    const sx = i === 0 ? s : i === 1 ? sk : sj;
    const sy = i === 0 ? sj : i === 1 ? s : sk;
    const sz = i === 0 ? sk : i === 1 ? sj : s;
    v[3 * q] = sx * hx;
    v[3 * q + 1] = sy * hy;
    v[3 * q + 2] = sz * hz;
    tags[q] = 1 + (sx > 0 ? 1 : 0) + (sy > 0 ? 2 : 0) + (sz > 0 ? 4 : 0);
  }
  poly.count = 4;
}

function cuboidEdge(f: SupportFeature, c: Cuboid, d: Vec3): void {
  // Components written out and the corners straight into the polygon: a double passed to or
  // returned by a call V8 does not inline is boxed (allocated), and this runs for every box pair
  // of a world step whose contact is an edge (7.6 KB per step in the steady-state probe once).
  const h = c.halfExtents;
  const sx = d.x >= 0 ? 1 : -1;
  const sy = d.y >= 0 ? 1 : -1;
  const sz = d.z >= 0 ? 1 : -1;
  // The edge along the axis most nearly ⟂ d, among the axes the box has an extent on.
  let best = -1;
  let bestSin = Infinity;
  const ax = Math.abs(d.x);
  const ay = Math.abs(d.y);
  const az = Math.abs(d.z);
  if (h.x > 0 && ax < bestSin) {
    bestSin = ax;
    best = 0;
  }
  if (h.y > 0 && ay < bestSin) {
    bestSin = ay;
    best = 1;
  }
  if (h.z > 0 && az < bestSin) {
    bestSin = az;
    best = 2;
  }
  const corner = (sx > 0 ? 1 : 0) + (sy > 0 ? 2 : 0) + (sz > 0 ? 4 : 0);
  // The corner (a point feature, as setPoint makes it) where no edge is near enough ⟂ d, else
  // the edge: one path up to here, the point's written out, so that the rarer of the two has no
  // arithmetic or call of its own. Where it had (setPoint's call and its index), the first
  // point after V8 optimized this on edges deoptimized it, and it ran unoptimized for ≈ 500
  // steps of the six-curved-kinds world, every double a heap number (issue 15).
  const point = best < 0 || bestSin > SEGMENT_SIN;
  const poly = f.poly;
  f.kind = point ? FEATURE_POINT : FEATURE_SEGMENT;
  f.index = 6 + 3 * corner + (point ? 0 : best);
  f.cos = 0;
  poly.count = 0;
  if (point) return;
  reserveClipPolygon(poly, 2);
  const v = poly.xyz;
  // The supporting corner, then the corner across the edge (the sign of axis `best` flipped);
  // each tagged 1 + its corner index (bit a: + on axis a).
  v[0] = sx * h.x;
  v[1] = sy * h.y;
  v[2] = sz * h.z;
  poly.tags[0] = 1 + corner;
  const tx = best === 0 ? -sx : sx;
  const ty = best === 1 ? -sy : sy;
  const tz = best === 2 ? -sz : sz;
  v[3] = tx * h.x;
  v[4] = ty * h.y;
  v[5] = tz * h.z;
  poly.tags[1] = 1 + (tx > 0 ? 1 : 0) + (ty > 0 ? 2 : 0) + (tz > 0 ? 4 : 0);
  poly.count = 2;
}

function projectCuboid(out: PointProjection, c: Cuboid, p: Vec3, solid: boolean): PointProjection {
  const h = c.halfExtents;
  const inside = Math.abs(p.x) <= h.x && Math.abs(p.y) <= h.y && Math.abs(p.z) <= h.z;
  out.inside = inside;
  if (!inside) {
    vec3.set(
      out.point,
      Math.min(Math.max(p.x, -h.x), h.x),
      Math.min(Math.max(p.y, -h.y), h.y),
      Math.min(Math.max(p.z, -h.z), h.z),
    );
    out.distance = vec3.distance(p, out.point);
    return out;
  }
  vec3.copy(out.point, p);
  if (solid) {
    out.distance = 0;
    return out;
  }
  // Hollow from inside: push to the nearest face (first axis on ties).
  let best = 0;
  let bestGap = Infinity;
  for (let i = 0; i < 3; i++) {
    const gap = vec3.getAxis(h, i) - Math.abs(vec3.getAxis(p, i));
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  const pi = vec3.getAxis(p, best);
  vec3.setAxis(out.point, best, pi < 0 ? -vec3.getAxis(h, best) : vec3.getAxis(h, best));
  out.distance = bestGap;
  return out;
}

registerShapeOps<Cuboid>(ShapeType.Cuboid, {
  feature: cuboidFace,
  edgeFeature: cuboidEdge,
  // The raw direction keeps the slab times exact ((h − o)/d is one rounding from the truth).
  rayCast: (out, s, o, _dUnit, dRaw, _len, maxToi, solid) =>
    rayIntervalCuboid(rayInterval, s.halfExtents, o, dRaw) && finishRayHit(out, maxToi, 1, solid),
  projectPoint: projectCuboid,
});

// The closed polytope's faces and planes (src/query/overlap-volume.ts clips them), deferred with
// the operations above: written into the record's polytope axes, whose other fields are set.
const axes = cuboidDef.polytope as {
  faces: ((s: Cuboid) => number[][]) | null;
  planes: ((s: Cuboid) => number[]) | null;
};
axes.faces = (s) => {
  const { x, y, z } = s.halfExtents;
  return boxFaces(-x, -y, -z, x, y, z);
};
axes.planes = (s) => {
  const { x, y, z } = s.halfExtents;
  return [1, 0, 0, x, -1, 0, 0, x, 0, 1, 0, y, 0, -1, 0, y, 0, 0, 1, z, 0, 0, -1, z];
};
