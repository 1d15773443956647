/**
 * Solid triangle meshes (issue 16, class 9): a closed mesh built with `solid: true`
 * (src/shapes/triangle-mesh.ts) is the solid it bounds in every query, a mesh without it the
 * surface. The triangle routines (convex-mesh, mesh-mesh) answer every pair whose surfaces meet;
 * what they cannot see is a shape wholly inside a solid mesh, touching no triangle. Since the
 * surfaces do not meet, the other shape is then entirely on one side of the mesh's surface, so
 * one of its points decides (the generalized winding number of
 * {@link containsPointTriangleMesh}, Jacobson, Kavan & Sorkine-Hornung 2013), and the contact
 * is built from the closest points of the two surfaces, pA on the mesh and pB on the enclosed
 * shape: the normal n = (pA − pB)/|pA − pB| (the way out through the nearest part of the mesh's
 * surface, from A toward B), the depth the overlap along n of the enclosed shape with the
 * half-space behind pA — n·pA − min_B n·x for an enclosed B, max_A n·x − n·pB for an enclosed A —
 * and the witness points pA (on the mesh's surface) and the enclosed shape's extreme point
 * along n (on its surface), so that (pointB − pointA)·n = distance. For a convex mesh and an
 * enclosed shape whose closest point lies on a face this is the exact penetration depth; for a
 * non-convex mesh it is the overlap along that way out (an upper bound of the depth).
 *
 * A mesh wholly inside a solid mesh is answered the same way by the composite path's two-tree
 * routines (src/narrowphase/composite.ts, over the enclosed surface's parts). All in the mesh's
 * (A's) frame; nothing allocates.
 */
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { supportShape } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { containsPointTriangleMesh } from "../shapes/triangle-mesh.js";
import type { Contact } from "./contact.js";

const dirLocal = vec3.create();
const point = vec3.create();
const n = vec3.create();
const X = { x: 1, y: 0, z: 0 };

/** out = a point of convex B (posed by `bInA`) in A's frame: its support along its local +x. */
export function pointOfConvex(out: Vec3, b: ConvexShape, bInA: Isometry): Vec3 {
  supportShape(out, b, X);
  return iso.transformPoint(out, bInA, out);
}

/** True when solid mesh `a` holds convex B (B touching none of `a`'s triangles). */
export function solidMeshHoldsConvex(a: TriangleMesh, b: ConvexShape, bInA: Isometry): boolean {
  return a.solid && containsPointTriangleMesh(a, pointOfConvex(point, b, bInA));
}

/** n = unit(pA − pB); false when the points coincide (the surfaces meet). */
function wayOut(pA: Vec3, pB: Vec3): boolean {
  vec3.sub(n, pA, pB);
  const l = vec3.length(n);
  if (!(l > 0)) return false;
  vec3.scale(n, n, 1 / l);
  return true;
}

/**
 * The contact of convex B wholly inside solid mesh A, from the surfaces' closest points `pA`
 * (on the mesh) and `pB` (on B), A's frame (see the module doc). `out` may alias neither point.
 */
export function containedConvexContact(
  out: Contact,
  b: ConvexShape,
  bInA: Isometry,
  pA: Vec3,
  pB: Vec3,
): void {
  if (!wayOut(pA, pB)) vec3.set(n, 0, 1, 0);
  // B's extreme point along −n, in A's frame.
  quat.inverseRotate(dirLocal, bInA.rotation, n);
  vec3.negate(dirLocal, dirLocal);
  supportShape(point, b, dirLocal);
  iso.transformPoint(point, bInA, point);
  vec3.copy(out.pointA, pA);
  vec3.copy(out.pointB, point);
  vec3.copy(out.normal, n);
  out.distance = Math.min(0, vec3.dot(n, point) - vec3.dot(n, pA));
}
