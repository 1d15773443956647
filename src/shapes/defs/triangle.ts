/**
 * The triangle's definition: the flat triangle a, b, c (local frame), a polytope with one face
 * seen from both sides. Ray cast by the exact ray–triangle test (`rayTriangleHit`, as a mesh's):
 * the `raycast` query crosses its face, so a ray lying in its plane (or meeting a zero-area
 * triangle) misses it, as on a mesh or a heightfield (`surfaceRayCast`); the narrow phase's line
 * casts take the flat convex set, edge-on by the GJK ray cast (`rayCast`). Point projection by
 * the closest point on a triangle (Ericson 2005, §5.1.5).
 */
import { pushClipPoint } from "../../geometry/clip.js";
import { triangleIsSliver } from "../../geometry/closest-point.js";
import {
  FEATURE_POLYGON,
  featureIo,
  SEGMENT_SIN,
  type SupportFeature,
  segmentSin,
  setPoint,
  setSegment,
} from "../../geometry/feature.js";
import { RAY_TRIANGLE_DEGENERATE, rayTriangle } from "../../geometry/ray-primitives.js";
import { projectOntoTriangle } from "../../geometry/triangle-projection.js";
import { hypotIo } from "../../math/scalar.js";
import type { Vec3 } from "../../math/vec3.js";
import * as vec3 from "../../math/vec3.js";
import { vecOrder } from "../data-order.js";
import { SHAPE_TYPE_NAMES, ShapeType } from "../shape.js";
import type { LocalRayHit, PointProjection, ShapeDef } from "../shape-def.js";
import { boundingRadiusWith, registerShape } from "../shape-def.js";
import { aabbTriangle, makeTriangle, supportTriangle, type Triangle } from "../triangle.js";
import { checkShapeExtent, checkVec3, maxAbs3 } from "../validate.js";
import {
  finite3,
  maxAbs,
  rayCastSupportMapped,
  scaledVec,
  vecFromJson,
  vecJson,
} from "./helpers.js";

function triangleFace(f: SupportFeature, t: Triangle, d: Vec3): void {
  const ux = t.b.x - t.a.x;
  const uy = t.b.y - t.a.y;
  const uz = t.b.z - t.a.z;
  const vx = t.c.x - t.a.x;
  const vy = t.c.y - t.a.y;
  const vz = t.c.z - t.a.z;
  // Written out, the corners pushed as vectors: doubles passed to or returned by a call V8 does
  // not inline are boxed (allocated), as under the mesh pairs' deep call chains.
  const n = f.normal;
  n.x = uy * vz - uz * vy;
  n.y = uz * vx - ux * vz;
  n.z = ux * vy - uy * vx;
  // A sliver (src/geometry/closest-point.ts `triangleIsSliver`) is its supporting edge, within
  // 2^-20 of its longest edge: its rounded normal is noise, and its side planes, rounded in the
  // pair's frame, bound no strip as thin as it is (a sliver 1e-17 thick on a cone kept a manifold
  // point 36 away from it).
  if (triangleIsSliver(t.a, t.b, t.c) || !vec3.tryNormalize(n, n)) {
    triangleEdge(f, t, d);
    return;
  }
  let cos = n.x * d.x + n.y * d.y + n.z * d.z;
  const flip = cos < 0;
  if (flip) {
    vec3.negate(f.normal, f.normal);
    cos = -cos;
  }
  f.kind = FEATURE_POLYGON;
  f.index = 0;
  f.cos = cos;
  f.poly.count = 0;
  pushClipPoint(f.poly, t.a, 1);
  if (flip) {
    pushClipPoint(f.poly, t.c, 3);
    pushClipPoint(f.poly, t.b, 2);
  } else {
    pushClipPoint(f.poly, t.b, 2);
    pushClipPoint(f.poly, t.c, 3);
  }
}

function triangleEdge(f: SupportFeature, t: Triangle, d: Vec3): void {
  const da = vec3.dot(t.a, d);
  const db = vec3.dot(t.b, d);
  const dc = vec3.dot(t.c, d);
  // The supporting edge is the one opposite the lowest corner: edge k (1 ab, 2 bc, 3 ca) from
  // corner k to corner k mod 3 + 1.
  let edge: number;
  if (triangleIsSliver(t.a, t.b, t.c)) {
    // A sliver's (collinear or coincident corners') supporting feature is its longest edge, the
    // hull of its corners to its height: the edge opposite its lowest corner may be one of the
    // short ones (a corner repeated: a zero-length edge; a corner between the others: half of it).
    // Squared lengths written out: a double returned by a call V8 does not inline is boxed.
    const ab = (t.b.x - t.a.x) ** 2 + (t.b.y - t.a.y) ** 2 + (t.b.z - t.a.z) ** 2;
    const bc = (t.c.x - t.b.x) ** 2 + (t.c.y - t.b.y) ** 2 + (t.c.z - t.b.z) ** 2;
    const ca = (t.a.x - t.c.x) ** 2 + (t.a.y - t.c.y) ** 2 + (t.a.z - t.c.z) ** 2;
    edge = ab >= bc && ab >= ca ? 1 : bc >= ca ? 2 : 3;
  } else edge = dc <= da && dc <= db ? 1 : da <= db ? 2 : 3;
  const p = edge === 1 ? t.a : edge === 2 ? t.b : t.c;
  const q = edge === 1 ? t.b : edge === 2 ? t.c : t.a;
  const tp = edge;
  const tq = edge === 3 ? 1 : edge + 1;
  featureIo[0] = q.x - p.x;
  featureIo[1] = q.y - p.y;
  featureIo[2] = q.z - p.z;
  segmentSin(d);
  if (featureIo[6] > SEGMENT_SIN) {
    setPoint(f, edge);
    return;
  }
  featureIo[0] = p.x;
  featureIo[1] = p.y;
  featureIo[2] = p.z;
  featureIo[3] = q.x;
  featureIo[4] = q.y;
  featureIo[5] = q.z;
  setSegment(f, edge, tp, tq);
}

function rayCastTriangle(
  out: LocalRayHit,
  s: Triangle,
  o: Vec3,
  dUnit: Vec3,
  dRaw: Vec3,
  len: number,
  maxToi: number,
): boolean {
  const t = rayTriangle(out.normal, s.a, s.b, s.c, o, dRaw);
  if (t === RAY_TRIANGLE_DEGENERATE) {
    // Edge-on or degenerate: the triangle as a flat convex set (in-plane normal).
    if (!rayCastSupportMapped(out, s, o, dUnit, len, maxToi, true)) return false;
    if (vec3.lengthSq(out.normal) === 0) vec3.negate(out.normal, dUnit);
    return true;
  }
  if (!(t >= 0 && t <= maxToi)) return false;
  out.toi = t;
  return true;
}

/**
 * The `raycast` query's cast of a triangle, a surface: the exact test alone. A ray whose
 * n·d is exactly zero — lying in the triangle's plane, or against a zero-area triangle
 * (every line meeting a segment or a point lies in a plane through it) — misses, as a mesh's
 * triangle and a heightfield's do (src/narrowphase/mesh-ray.ts) and as parry's triangle does.
 */
function rayCastTriangleSurface(
  out: LocalRayHit,
  s: Triangle,
  o: Vec3,
  dRaw: Vec3,
  maxToi: number,
): boolean {
  const t = rayTriangle(out.normal, s.a, s.b, s.c, o, dRaw);
  if (!(t >= 0 && t <= maxToi)) return false;
  out.toi = t;
  return true;
}

function projectTriangle(out: PointProjection, s: Triangle, p: Vec3): PointProjection {
  // Flat: "inside" means on the triangle, up to the rounding of the point's offset from it
  // (src/geometry/triangle-projection.ts; any scale).
  return projectOntoTriangle(out, s.a, s.b, s.c, p);
}

const triU = vec3.create();
const triV = vec3.create();

/** The triangle's record in the shape definitions' table. */
export const triangleDef: ShapeDef<Triangle> = {
  type: ShapeType.Triangle,
  name: SHAPE_TYPE_NAMES[ShapeType.Triangle],
  supportMapped: true,
  composite: false,
  // SAT's axes: the one face normal (either side) and the three edges.
  polytope: {
    faceCount: () => 1,
    faceNormal: (out, t) => {
      vec3.sub(triU, t.b, t.a);
      vec3.sub(triV, t.c, t.a);
      return vec3.cross(out, triU, triV);
    },
    edgeCount: () => 3,
    edgeDirection: (out, t, i) => {
      const p = i === 0 ? t.a : i === 1 ? t.b : t.c;
      const q = i === 0 ? t.b : i === 1 ? t.c : t.a;
      return vec3.sub(out, q, p);
    },
    flat: true,
    faces: null,
    planes: null,
  },
  revolution: null,
  unbounded: false,
  pointFeature: false,
  aabb: aabbTriangle,
  ...boundingRadiusWith<Triangle>(
    (s) => Math.max(vec3.length(s.a), vec3.length(s.b), vec3.length(s.c)),
    (out, s) => {
      vec3.lengthInto(s.a);
      const a = hypotIo[0];
      vec3.lengthInto(s.b);
      const b = hypotIo[0];
      vec3.lengthInto(s.c);
      out[0] = Math.max(a, b, hypotIo[0]);
    },
  ),
  writeMagnitude: (out, s) => {
    out[0] = Math.max(maxAbs(s.a), maxAbs(s.b), maxAbs(s.c));
  },
  scaled: (s, k) => ({
    type: s.type,
    a: scaledVec(s.a, k),
    b: scaledVec(s.b, k),
    c: scaledVec(s.c, k),
  }),
  coreSupport: supportTriangle,
  margin: () => 0,
  feature: triangleFace,
  edgeFeature: triangleEdge,
  rayCast: (out, s, o, dUnit, dRaw, len, maxToi) =>
    rayCastTriangle(out, s, o, dUnit, dRaw, len, maxToi),
  surfaceRayCast: (out, s, o, _dUnit, dRaw, _len, maxToi) =>
    rayCastTriangleSurface(out, s, o, dRaw, maxToi),
  projectPoint: (out, s, p) => projectTriangle(out, s, p),
  dataOrder: (p, q) => vecOrder(p.a, q.a) || vecOrder(p.b, q.b) || vecOrder(p.c, q.c),
  check: (field, s) => {
    checkVec3(`${field}.a`, s.a);
    checkVec3(`${field}.b`, s.b);
    checkVec3(`${field}.c`, s.c);
    checkShapeExtent(`${field}.a`, s.a, maxAbs3(s.a), "a coordinate of a");
    checkShapeExtent(`${field}.b`, s.b, maxAbs3(s.b), "a coordinate of b");
    checkShapeExtent(`${field}.c`, s.c, maxAbs3(s.c), "a coordinate of c");
  },
  isFinite: (s) => finite3(s.a) && finite3(s.b) && finite3(s.c),
  view: (s) => ({
    type: "triangles",
    positions: [...vecJson(s.a), ...vecJson(s.b), ...vecJson(s.c)],
    indices: [0, 1, 2],
  }),
  json: {
    name: "triangle",
    schema: (z) => {
      const v = z.tuple([z.number(), z.number(), z.number()]);
      return z.strictObject({ type: z.literal("triangle"), a: v, b: v, c: v });
    },
    toJson: (s) => ({ type: "triangle", a: vecJson(s.a), b: vecJson(s.b), c: vecJson(s.c) }),
    fromJson: (j, field) =>
      makeTriangle(
        vecFromJson(j.a as number[]),
        vecFromJson(j.b as number[]),
        vecFromJson(j.c as number[]),
        field,
      ),
  },
};

registerShape(triangleDef);
