/**
 * Any convex shape (sphere, cuboid, capsule, cylinder, cone, convex polyhedron, triangle, the
 * rounded shapes) against a triangle mesh: intersects, distance, contact and manifold. The file
 * is named in `ShapeType` order (convex types before the mesh); its routines take the mesh as A
 * (`…MeshConvex`), and the pair table calls them flipped for (convex, mesh).
 *
 * Method (parry's and Jolt's composite-shape queries): B's AABB in the mesh's frame selects the
 * candidate triangles through the mesh's BVH; each candidate is an ordinary convex triangle,
 * handed with B to the pair table's unflipped (triangle, B) routine when it has one
 * (triangle–sphere's closed form, src/narrowphase/sphere-triangle.ts), else to GJK/EPA
 * (convex-convex.ts) with the triangle as A. A mesh built without `solid` is a surface: a shape
 * wholly inside it touches nothing; a solid mesh (`solid: true`, closed) also holds the shapes
 * wholly inside it, answered by src/narrowphase/mesh-solid.ts when no triangle meets B.
 *
 * - Contact: the deepest triangle contact (the smallest signed distance; ties to the first
 *   triangle in BVH order, so deterministic).
 * - Distance: branch and bound over the BVH — nodes farther (box to box) than the best distance
 *   so far are skipped, the nearer child is visited first. When some triangle intersects B, the
 *   distance is 0 and the points are those of the deepest contact.
 * - Manifold: every triangle contact within the prediction distance is widened to its own
 *   manifold (src/narrowphase/manifold.ts); the points of the triangles whose normals agree
 *   with the deepest contact's (within `MESH_MANIFOLD_MERGE_COS`) are measured along that normal
 *   and reduced to at most 4 points that keep the largest area (src/geometry/clip.ts).
 *
 * Internal edges. A penetrating contact that lands on an inactive edge of its triangle (a
 * coplanar or concave shared edge, src/shapes/triangle-mesh.ts) or on a vertex whose two edges
 * in that triangle are inactive takes the triangle's face normal (on B's side) instead of the
 * edge normal: a box sliding over the seam of two coplanar triangles gets the face normal, never
 * a bump (Jolt's `ActiveEdges::FixNormal`; Bullet's `btAdjustInternalEdgeContacts`). Its depth
 * and witnesses are measured again along that normal, over that triangle
 * (src/narrowphase/face-depth.ts): the edge contact's depth is a sideways push off the triangle,
 * so keeping it made a box whose deepest corner sits near an internal edge too shallow.
 * Separated contacts keep their exact closest-point normal.
 *
 * Frames: the routines take the mesh as A (B's pose `bInA` in the mesh's frame); the pair table
 * answers the mirrored order by its flip (src/narrowphase/pair-table.ts). No allocation per call in steady state (the candidate
 * and contact buffers grow only for a query larger than any before).
 */

import { MESH_MANIFOLD_MERGE_COS } from "../constants.js";
import { reduceManifoldPoints } from "../geometry/clip.js";
import {
  isMeshBvhLeaf,
  makeMeshBvhHits,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhNodeBoxDistanceSq,
  meshBvhRightChild,
  queryMeshBvhAabb,
} from "../geometry/mesh-bvh.js";
import type { Aabb } from "../math/aabb.js";
import * as aabbOps from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import { growFloat64, growInt32 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { aabbShape } from "../shapes/registry.js";
import type { ConvexShape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { getMeshTriangle } from "../shapes/triangle-mesh.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
  MAX_MANIFOLD_POINTS,
  makeContact,
  makeContactManifold,
  makeDistanceResult,
  singleContactManifold,
} from "./contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "./convex-convex.js";
import { fixInternalEdgeContact } from "./face-depth.js";
import { manifoldFromContact } from "./manifold.js";
import { containedConvexContact, solidMeshHoldsConvex } from "./mesh-solid.js";
import { contactFlipped, contactPair, distancePair, intersectsPair } from "./pair-table.js";

/**
 * True when the pair table has a routine of its own for (triangle, B's type) in that order (the
 * sphere: src/narrowphase/sphere-triangle.ts): the mesh's triangles go through it. Otherwise the
 * entry is the flip of a GJK/EPA (B, triangle) registration, and the triangle is handed to
 * GJK/EPA in the mesh's order (A the triangle) directly, whose answers the fuzzer's ratchet and
 * the mesh tests were measured with (flipping them raised the wrong answers, see the commit).
 */
function ordered(b: ConvexShape): boolean {
  return !contactFlipped(ShapeType.Triangle, b.type);
}

/** Feature ids of mesh manifold points: triangle index · 2^21 + the triangle's own id mod 2^21. */
const TRIANGLE_FEATURE_FIELD = 2 ** 21;

const tri: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const hits = makeMeshBvhHits();
const boxB: Aabb = aabbOps.empty();
const _weights = [0, 0, 0];
const _cp = vec3.create();
const _faceN = vec3.create();
const _rel = vec3.create();

/** Candidate triangles whose own boxes overlap B's box grown by `margin`; returns their count. */
function candidates(mesh: TriangleMesh, b: ConvexShape, bInA: Isometry, margin: number): number {
  aabbShape(boxB, b, bInA);
  aabbOps.expandByMargin(boxB, boxB, margin);
  const lo = boxB.min;
  const hi = boxB.max;
  const n = queryMeshBvhAabb(hits, mesh.bvh, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
  const v = mesh.vertices;
  const idx = mesh.indices;
  let kept = 0;
  for (let h = 0; h < n; h++) {
    const t = hits.ids[h];
    const a = 3 * idx[3 * t];
    const bb = 3 * idx[3 * t + 1];
    const c = 3 * idx[3 * t + 2];
    if (
      Math.max(v[a], v[bb], v[c]) < lo.x ||
      Math.min(v[a], v[bb], v[c]) > hi.x ||
      Math.max(v[a + 1], v[bb + 1], v[c + 1]) < lo.y ||
      Math.min(v[a + 1], v[bb + 1], v[c + 1]) > hi.y ||
      Math.max(v[a + 2], v[bb + 2], v[c + 2]) < lo.z ||
      Math.min(v[a + 2], v[bb + 2], v[c + 2]) > hi.z
    ) {
      continue;
    }
    hits.ids[kept++] = t;
  }
  hits.count = kept;
  return kept;
}

/** Contact of triangle t (loaded into `tri`) with B; false beyond `prediction`. */
function triangleContact(
  out: Contact,
  mesh: TriangleMesh,
  t: number,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  getMeshTriangle(mesh, t, tri.a, tri.b, tri.c);
  const maxGap = Math.max(prediction, 0);
  if (ordered(b)) {
    if (!contactPair(out, tri, b, bInA, maxGap)) return false;
  } else if (!contactConvexConvex(out, tri, b, bInA, maxGap)) return false;
  fixInternalEdgeContact(out, tri, mesh.activeEdges[t], b, bInA);
  return true;
}

/**
 * True when mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame) intersect:
 * some triangle touches or overlaps B (touching counts; the mesh is a surface). BVH culling,
 * then each candidate triangle through the pair table (a closed form for spheres, GJK for the
 * rest: van den Bergen 2003, §4.3).
 */
export function intersectsMeshConvex(a: TriangleMesh, b: ConvexShape, bInA: Isometry): boolean {
  const n = candidates(a, b, bInA, 0);
  for (let h = 0; h < n; h++) {
    const t = hits.ids[h];
    getMeshTriangle(a, t, tri.a, tri.b, tri.c);
    if (ordered(b) ? intersectsPair(tri, b, bInA) : intersectsConvexConvex(tri, b, bInA))
      return true;
  }
  return solidMeshHoldsConvex(a, b, bInA);
}

const triContact = makeContact();

/**
 * Contact of mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame) within
 * `prediction` (scene units, ≥ 0): false when every triangle is farther than that; else the
 * deepest triangle contact — signed distance (negative = penetration), unit normal from the
 * mesh toward B, witness points on the triangle and on B, in the mesh's frame — with internal
 * edges given the face normal (see the module doc). Returns true with `out` written.
 */
export function contactMeshConvex(
  out: Contact,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const margin = Math.max(prediction, 0);
  const n = candidates(a, b, bInA, margin);
  let found = false;
  for (let h = 0; h < n; h++) {
    const t = hits.ids[h];
    if (!triangleContact(triContact, a, t, b, bInA, prediction)) continue;
    if (found && !(triContact.distance < out.distance)) continue;
    found = true;
    out.distance = triContact.distance;
    vec3.copy(out.normal, triContact.normal);
    vec3.copy(out.pointA, triContact.pointA);
    vec3.copy(out.pointB, triContact.pointB);
  }
  if (a.solid && !(found && out.distance <= 0) && solidMeshHoldsConvex(a, b, bInA)) {
    // B inside the solid, touching no triangle: the contact through the nearest surface.
    if (found) {
      vec3.copy(solidA, out.pointA);
      vec3.copy(solidB, out.pointB);
    } else {
      surfaceDistanceMeshConvex(solidDistance, a, b, bInA);
      vec3.copy(solidA, solidDistance.pointA);
      vec3.copy(solidB, solidDistance.pointB);
    }
    containedConvexContact(out, b, bInA, solidA, solidB);
    return true;
  }
  return found;
}

const solidA = vec3.create();
const solidB = vec3.create();
const solidDistance: DistanceResult = makeDistanceResult();
const solidContact = makeContact();

let nodeStack = new Int32Array(128);
let nodeLower = new Float64Array(128);
const triDistance: DistanceResult = makeDistanceResult();

function pushNode(top: number, i: number, lower: number): number {
  nodeStack = growInt32(nodeStack, top + 1);
  nodeLower = growFloat64(nodeLower, top + 1);
  nodeStack[top] = i;
  nodeLower[top] = lower;
  return top + 1;
}

/**
 * Closest points of mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame):
 * `out.distance` ≥ 0 and the witness points on the mesh and on B, in the mesh's frame. When
 * some triangle intersects B, the distance is 0 and the points are those of the deepest contact
 * ({@link contactMeshConvex}). An empty mesh gives distance Infinity with both points at B's
 * origin. Branch and bound over the BVH (nodes whose box is farther than the best so far are
 * skipped). Returns `out`.
 */
export function distanceMeshConvex(
  out: DistanceResult,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
): DistanceResult {
  surfaceDistanceMeshConvex(out, a, b, bInA);
  if (a.solid && out.distance > 0 && solidMeshHoldsConvex(a, b, bInA)) {
    // B inside the solid: distance 0 at the contact's witness points (mesh-solid.ts).
    containedConvexContact(solidContact, b, bInA, out.pointA, out.pointB);
    out.distance = 0;
    vec3.copy(out.pointA, solidContact.pointA);
    vec3.copy(out.pointB, solidContact.pointB);
  }
  return out;
}

/** {@link distanceMeshConvex} between the mesh's surface (its triangles) and B. */
function surfaceDistanceMeshConvex(
  out: DistanceResult,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
): DistanceResult {
  const bvh = a.bvh;
  out.distance = Infinity;
  vec3.copy(out.pointA, bInA.translation);
  vec3.copy(out.pointB, bInA.translation);
  if (bvh.nodeCount === 0) return out;
  aabbShape(boxB, b, bInA);
  const lo = boxB.min;
  const hi = boxB.max;
  let best = Infinity;
  let top = pushNode(0, 0, 0);
  while (top > 0) {
    top--;
    const i = nodeStack[top];
    if (nodeLower[top] > best * best) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const t = bvh.primitives[s];
        getMeshTriangle(a, t, tri.a, tri.b, tri.c);
        if (ordered(b)) distancePair(triDistance, tri, b, bInA);
        else distanceConvexConvex(triDistance, tri, b, bInA);
        const d = triDistance.distance;
        if (d < best) {
          best = d;
          vec3.copy(out.pointA, triDistance.pointA);
          vec3.copy(out.pointB, triDistance.pointB);
        }
        if (best === 0) break;
      }
      if (best === 0) break;
      continue;
    }
    const l = i + 1;
    const r = meshBvhRightChild(bvh, i);
    const dl = meshBvhNodeBoxDistanceSq(bvh, l, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    const dr = meshBvhNodeBoxDistanceSq(bvh, r, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    // Push the farther child first so that the nearer is visited next.
    if (dl <= dr) {
      top = pushNode(top, r, dr);
      top = pushNode(top, l, dl);
    } else {
      top = pushNode(top, l, dl);
      top = pushNode(top, r, dr);
    }
  }
  out.distance = best;
  if (best === 0 && contactMeshConvex(triContact, a, b, bInA, 0)) {
    vec3.copy(out.pointA, triContact.pointA);
    vec3.copy(out.pointB, triContact.pointB);
  }
  return out;
}

// Stored triangle contacts of a manifold query: [t, distance, n xyz, pointA xyz, pointB xyz].
const STRIDE = 11;
let stored = new Float64Array(STRIDE * 16);
let storedCount = 0;
let pointXyz = new Float64Array(3 * 64);
let pointA = new Float64Array(3 * 64);
let pointDist = new Float64Array(64);
let pointFeature = new Float64Array(64);
let pointCount = 0;
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);
const triManifold = makeContactManifold();
const mergeNormal = vec3.create();

function storeContact(t: number, c: Contact): void {
  if (STRIDE * (storedCount + 1) > stored.length) {
    const s = new Float64Array(2 * stored.length);
    s.set(stored);
    stored = s;
  }
  const o = STRIDE * storedCount++;
  stored[o] = t;
  stored[o + 1] = c.distance;
  stored[o + 2] = c.normal.x;
  stored[o + 3] = c.normal.y;
  stored[o + 4] = c.normal.z;
  stored[o + 5] = c.pointA.x;
  stored[o + 6] = c.pointA.y;
  stored[o + 7] = c.pointA.z;
  stored[o + 8] = c.pointB.x;
  stored[o + 9] = c.pointB.y;
  stored[o + 10] = c.pointB.z;
}

function loadContact(c: Contact, k: number): number {
  const o = STRIDE * k;
  c.distance = stored[o + 1];
  vec3.set(c.normal, stored[o + 2], stored[o + 3], stored[o + 4]);
  vec3.set(c.pointA, stored[o + 5], stored[o + 6], stored[o + 7]);
  vec3.set(c.pointB, stored[o + 8], stored[o + 9], stored[o + 10]);
  return stored[o];
}

function pushPoint(pa: Vec3, pb: Vec3, n: Vec3, feature: number): void {
  if (pointCount === pointDist.length) {
    const m = 2 * pointCount;
    const x = new Float64Array(3 * m);
    x.set(pointXyz);
    pointXyz = x;
    const y = new Float64Array(3 * m);
    y.set(pointA);
    pointA = y;
    const d = new Float64Array(m);
    d.set(pointDist);
    pointDist = d;
    const f = new Float64Array(m);
    f.set(pointFeature);
    pointFeature = f;
  }
  const i = pointCount++;
  pointXyz[3 * i] = pb.x;
  pointXyz[3 * i + 1] = pb.y;
  pointXyz[3 * i + 2] = pb.z;
  pointA[3 * i] = pa.x;
  pointA[3 * i + 1] = pa.y;
  pointA[3 * i + 2] = pa.z;
  pointDist[i] = (pb.x - pa.x) * n.x + (pb.y - pa.y) * n.y + (pb.z - pa.z) * n.z;
  pointFeature[i] = feature;
}

/**
 * Writes `out` from the merged points (pointCount of them, normal `n`): reduced to ≤ 4 points.
 */
function finishManifold(out: ContactManifold, n: Vec3): void {
  vec3.copy(out.normal, n);
  const count = reduceManifoldPoints(chosen, pointXyz, pointDist, pointCount, n);
  for (let q = 0; q < count; q++) {
    const i = chosen[q];
    const p = out.points[q];
    vec3.set(p.pointA, pointA[3 * i], pointA[3 * i + 1], pointA[3 * i + 2]);
    vec3.set(p.pointB, pointXyz[3 * i], pointXyz[3 * i + 1], pointXyz[3 * i + 2]);
    p.distance = pointDist[i];
    p.featureId = pointFeature[i];
  }
  out.count = count;
}

/** Starts a merged manifold: clears the point list. */
export function beginMeshManifold(): void {
  pointCount = 0;
}

/**
 * Adds the points of one triangle's manifold `m` (its normal within MESH_MANIFOLD_MERGE_COS of
 * `n`) to the merged list, measured along `n`; feature ids prefixed by `triangle`.
 */
export function addMeshManifoldPoints(m: ContactManifold, n: Vec3, triangle: number): void {
  if (vec3.dot(m.normal, n) < MESH_MANIFOLD_MERGE_COS) return;
  for (let q = 0; q < m.count; q++) {
    const p = m.points[q];
    pushPoint(
      p.pointA,
      p.pointB,
      n,
      triangle * TRIANGLE_FEATURE_FIELD + (p.featureId % TRIANGLE_FEATURE_FIELD),
    );
  }
}

/** Ends a merged manifold: reduces the points along `n` into `out`; false when there are none. */
export function endMeshManifold(out: ContactManifold, n: Vec3): boolean {
  if (pointCount === 0) return false;
  finishManifold(out, n);
  return true;
}

/**
 * Contact manifold of mesh `a` and convex shape `b` (B posed by `bInA` in the mesh's frame)
 * within `prediction` (scene units, ≥ 0): false when no triangle is that close; else one unit
 * normal from the mesh toward B (the deepest triangle contact's) and 1–4 points (A's frame)
 * merged from the manifolds of every triangle whose contact normal agrees with it (see the
 * module doc), each with its signed distance along the normal and a feature id
 * `triangle · 2^21 + the triangle manifold's id mod 2^21`. Returns true with `out` written.
 */
export function manifoldMeshConvex(
  out: ContactManifold,
  a: TriangleMesh,
  b: ConvexShape,
  bInA: Isometry,
  prediction: number,
): boolean {
  const margin = Math.max(prediction, 0);
  const n = candidates(a, b, bInA, margin);
  storedCount = 0;
  let best = -1;
  let bestDistance = Infinity;
  for (let h = 0; h < n; h++) {
    const t = hits.ids[h];
    if (!triangleContact(triContact, a, t, b, bInA, prediction)) continue;
    if (triContact.distance < bestDistance) {
      bestDistance = triContact.distance;
      best = storedCount;
    }
    storeContact(t, triContact);
  }
  if (a.solid && !(best >= 0 && bestDistance <= 0) && solidMeshHoldsConvex(a, b, bInA)) {
    // B inside the solid: the one-point manifold of the contact through the nearest surface.
    contactMeshConvex(solidContact, a, b, bInA, prediction);
    singleContactManifold(out, solidContact);
    return true;
  }
  if (best < 0) return false;
  loadContact(triContact, best);
  vec3.copy(mergeNormal, triContact.normal);
  beginMeshManifold();
  for (let k = 0; k < storedCount; k++) {
    const t = loadContact(triContact, k);
    if (vec3.dot(triContact.normal, mergeNormal) < MESH_MANIFOLD_MERGE_COS) continue;
    getMeshTriangle(a, t, tri.a, tri.b, tri.c);
    manifoldFromContact(triManifold, tri, b, bInA, triContact, prediction);
    addMeshManifoldPoints(triManifold, mergeNormal, t);
  }
  return endMeshManifold(out, mergeNormal);
}
