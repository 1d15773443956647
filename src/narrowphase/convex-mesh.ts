/**
 * Any convex shape (sphere, cuboid, capsule, cylinder, cone, convex polyhedron, triangle, the
 * rounded shapes) against a triangle mesh: intersects, distance, contact and manifold. The file
 * is named in `ShapeType` order (convex types before the mesh); its routines take the mesh as A
 * (`…MeshConvex`), and the pair table calls them flipped for (convex, mesh).
 *
 * They are the generic composite mid-phase's part-first routines (src/narrowphase/composite.ts)
 * on the mesh's composite view (src/shapes/defs/triangle-mesh.ts): the BVH selects the
 * candidate triangles (narrowed by their own boxes), each triangle goes to the pair table as A
 * (triangle–sphere's closed form) or to GJK/EPA in the triangle-first order; the distance is the
 * branch and bound over the BVH; penetrating contacts on internal edges take the face normal
 * with their depth measured along it (the view's edge flags, src/narrowphase/face-depth.ts); the
 * manifold merges the triangle manifolds that agree with the deepest contact; a solid mesh
 * (`solid: true`, closed) also holds the shapes wholly inside it (the view's `containsPoint`,
 * src/narrowphase/mesh-solid.ts). No code of its own: the names say which pair they serve.
 */
import type { Isometry } from "../math/isometry.js";
import type { ConvexShape } from "../shapes/shape.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import {
  contactCompositeShape,
  distanceCompositeShape,
  intersectsCompositeShape,
  manifoldCompositeShape,
} from "./composite.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";

/**
 * True when mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame) intersect:
 * some triangle touches or overlaps B (touching counts), or a solid `a` holds B.
 */
export const intersectsMeshConvex: (a: TriangleMesh, b: ConvexShape, bInA: Isometry) => boolean =
  intersectsCompositeShape;

/**
 * Contact of mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame) within
 * `prediction` (scene units, ≥ 0): false when every triangle is farther than that; else the
 * deepest triangle contact — signed distance (negative = penetration), unit normal from the
 * mesh toward B, witness points on the triangle and on B, in the mesh's frame — with internal
 * edges given the face normal. Returns true with `out` written.
 */
export const contactMeshConvex: (
  out: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
) => boolean = contactCompositeShape;

/**
 * Closest points of mesh `a` and convex shape `b` (mesh's frame): distance ≥ 0; 0 with the
 * deepest contact's points when they meet. An empty mesh gives Infinity with both points at B's
 * origin. Returns `out`.
 */
export const distanceMeshConvex: (
  out: DistanceResult,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
) => DistanceResult = distanceCompositeShape;

/**
 * Contact manifold of mesh `a` and convex shape `b` within `prediction` (mesh's frame): one unit
 * normal from the mesh toward B (the deepest triangle contact's) and 1–4 points merged from the
 * manifolds of the triangles whose contact normals agree with it, feature ids
 * `triangle · 2^21 + the triangle manifold's id mod 2^21`. False when no triangle is that close.
 */
export const manifoldMeshConvex: (
  out: ContactManifold,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
) => boolean = manifoldCompositeShape;
