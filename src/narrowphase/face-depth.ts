/**
 * The contact of a convex shape S with one triangle T of a surface (a triangle mesh, a
 * heightfield) along T's face normal: what a contact on an internal edge becomes
 * (src/narrowphase/mesh-convex.ts, src/narrowphase/composite.ts).
 *
 * A contact that lands on an inactive (coplanar or concave) edge takes the face normal n instead
 * of the edge normal (Jolt's `ActiveEdges::FixNormal`). Its depth must then be measured along n
 * too: the closest-feature depth belongs to the edge direction, and near an edge it is the short
 * sideways push off the triangle, not the depth of S below the surface. So a box whose deepest
 * corner sits just inside a triangle, near its edge, got the sideways depth, and the deepest
 * contact of the whole surface came out too shallow.
 *
 * The depth along n is the distance S must move along n to clear T:
 * s* = max { s : (S + s·n) ∩ T ≠ ∅ } = max { s : s·n ∈ T − S }, the exit of the ray from the
 * origin along n through the Minkowski difference T − S (the "directional penetration depth").
 * It is at least the penetration depth (the smallest over all directions) and at most the depth
 * of S's support point below T's plane; it equals the latter when that support point lies over T
 * (in the prism T + ℝ·n), which is the closed form taken first. Otherwise the GJK ray cast
 * (van den Bergen 2004; src/geometry/gjk-raycast.ts) from inside T − S finds the exit — exact
 * for polytopes, to `GJK_RAYCAST_TOLERANCE` for curved shapes — and the witnesses are the
 * closest points of T and of S moved by s*·n (they touch there).
 *
 * Over a surface whose triangles share a plane, the deepest of these contacts is the depth of
 * S's support point below the plane wherever that point lies over the surface.
 */
import { gjkRayCast, makeGjkRayHit } from "../geometry/gjk-raycast.js";
import { MinkowskiDifference, TransformedSupport } from "../geometry/support.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { supportOf } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { Contact, DistanceResult } from "./contact.js";
import { distanceConvexConvex, ShapeCoreSupport } from "./convex-convex.js";

const down = vec3.create();
const deepest = vec3.create();
const highest = vec3.create();
const normal = vec3.create();
const raw = vec3.create();
const e = vec3.create();
const r = vec3.create();
const origin = vec3.create();
const coreT = new ShapeCoreSupport();
const coreS = new ShapeCoreSupport();
const posedS = new TransformedSupport();
const difference = new MinkowskiDifference();
const hit = makeGjkRayHit();
const moved: Isometry = iso.identity();
const touch: DistanceResult = { distance: 0, pointA: vec3.create(), pointB: vec3.create() };

/** (edge (v → w) × (p − v))·N ≥ 0: p lies on the inner side of the edge, seen along N. */
function insideEdge(v: Vec3, w: Vec3, p: Vec3, n: Vec3): boolean {
  vec3.sub(e, w, v);
  vec3.sub(r, p, v);
  vec3.cross(e, e, r);
  return vec3.dot(e, n) >= 0;
}

/**
 * Writes to `out` the contact of triangle `tri` (as A) with convex shape `s` (as B, posed by
 * `sPose`) along T's unit face normal `n`, all in one frame: distance −s* (s*, the distance S
 * must move along the normal to clear T, see the module doc), the normal, pointA on T, pointB on
 * S. The normal is n or −n: the side of T's plane that S reaches less far past — the one it
 * stands on — with ties to the sign of `hint` (the caller's side: +1 for n). Returns false,
 * leaving `out` unchanged, when no depth is found (S does not reach T along the normal).
 * Allocation free.
 */
export function faceContactTriangleConvex(
  out: Contact,
  tri: Triangle,
  n: Vec3,
  s: ConvexShape,
  sPose: Isometry,
  hint: number,
): boolean {
  // S's farthest points along −n and along n, in the common frame.
  iso.inverseTransformVector(down, sPose, n);
  supportOf(highest, s, down);
  iso.transformPoint(highest, sPose, highest);
  vec3.negate(down, down);
  supportOf(deepest, s, down);
  iso.transformPoint(deepest, sPose, deepest);
  const plane = vec3.dot(n, tri.a);
  const pastAlongN = plane - vec3.dot(n, deepest);
  const pastAgainstN = vec3.dot(n, highest) - plane;
  vec3.copy(normal, n);
  if (pastAgainstN < pastAlongN || (pastAgainstN === pastAlongN && hint < 0)) {
    vec3.negate(normal, n);
    vec3.copy(deepest, highest);
  }
  vec3.sub(raw, tri.b, tri.a);
  vec3.sub(r, tri.c, tri.a);
  vec3.cross(raw, raw, r);
  if (
    insideEdge(tri.a, tri.b, deepest, raw) &&
    insideEdge(tri.b, tri.c, deepest, raw) &&
    insideEdge(tri.c, tri.a, deepest, raw)
  ) {
    // Over the triangle: its depth past the plane.
    vec3.sub(r, tri.a, deepest);
    const depth = vec3.dot(r, normal);
    out.distance = -depth;
    vec3.copy(out.normal, normal);
    vec3.copy(out.pointB, deepest);
    vec3.addScaled(out.pointA, deepest, normal, depth);
    return true;
  }
  coreT.reset(tri);
  coreS.reset(s);
  posedS.reset(coreS, sPose);
  difference.reset(coreT, posedS);
  vec3.set(origin, 0, 0, 0);
  if (!gjkRayCast(hit, difference, origin, normal, Infinity, false)) return false;
  const depth = hit.toi;
  if (!Number.isFinite(depth)) return false;
  vec3.addScaled(moved.translation, sPose.translation, normal, depth);
  moved.rotation.x = sPose.rotation.x;
  moved.rotation.y = sPose.rotation.y;
  moved.rotation.z = sPose.rotation.z;
  moved.rotation.w = sPose.rotation.w;
  distanceConvexConvex(touch, tri, s, moved);
  out.distance = -depth;
  vec3.copy(out.normal, normal);
  vec3.copy(out.pointA, touch.pointA);
  vec3.addScaled(out.pointB, touch.pointB, normal, -depth);
  return true;
}
