/**
 * A triangle mesh against a triangle mesh: intersects, the list of intersecting triangle pairs
 * (what a CAD interference check reports), distance, contact and manifold.
 *
 * Tree against tree: the two BVHs are descended together from their roots (Gottschalk, Lin &
 * Manocha 1996's simultaneous descent; Ericson 2005, §6.3.2 "descend the larger"). B's node
 * boxes are brought into A's frame as the AABBs of their rotated boxes (conservative), and a
 * pair of nodes whose boxes are apart (by more than the prediction distance) is dropped. At a
 * pair of leaves every triangle pair is tested:
 *
 * - intersection by Möller's interval overlap test (Möller 1997, "A fast triangle–triangle
 *   intersection test", JGT 2(2)): each triangle is classified against the other's plane, the
 *   two intervals on the planes' common line must overlap, and coplanar pairs take a 2D test
 *   (edge crossings, then a corner of one inside the other). Plane distances within
 *   `TRIANGLE_PLANE_TOLERANCE` of the pair's scale count as on the plane; a degenerate triangle
 *   (zero area) is answered by GJK on the two triangles instead;
 * - distance and contact by the convex pair routines on the two triangles
 *   (src/narrowphase/convex-convex.ts), the distance by branch and bound over node pairs.
 *
 * Contact is the deepest triangle-pair contact; the manifold merges the triangle-pair manifolds
 * whose normals agree with it into at most 4 points (as for a mesh against a convex shape). Meshes
 * built without `solid` are surfaces: nested meshes that do not cross do not touch; a solid mesh
 * (`solid: true`, closed) also holds a mesh wholly inside it (src/narrowphase/mesh-solid.ts:
 * one vertex decides, the contact goes through the nearest surface, one manifold point). All
 * outputs are in A's frame, normals from A toward B.
 */
import { MESH_MANIFOLD_MERGE_COS, TRIANGLE_PLANE_TOLERANCE } from "../constants.js";
import type { MeshBvh } from "../geometry/mesh-bvh.js";
import {
  isMeshBvhLeaf,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhRightChild,
} from "../geometry/mesh-bvh.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import type { Mat3 } from "../math/mat3.js";
import * as mat3 from "../math/mat3.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { ShapeType } from "../shapes/shape.js";
import type { Triangle } from "../shapes/triangle.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { getMeshTriangle } from "../shapes/triangle-mesh.js";
import { addMergedManifold, beginMergedManifold, endMergedManifold } from "./composite.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
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
import { manifoldFromContact } from "./manifold.js";
import { containedMeshContact, solidMeshHoldsMesh } from "./mesh-solid.js";

// ---------------------------------------------------------------------------------------------
// Triangle–triangle intersection (Möller 1997)
// ---------------------------------------------------------------------------------------------

const n1 = vec3.create();
const n2 = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const lineDir = vec3.create();
const gjkTriA: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const gjkTriB: Triangle = {
  type: ShapeType.Triangle,
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
};
const identityPose = iso.identity();

/** Interval of a triangle on the planes' line: written to ivLo / ivHi. */
let ivLo = 0;
let ivHi = 0;

/**
 * The interval on the common line of the triangle with projections p0..p2 and plane distances
 * d0..d2 (Möller 1997, §3); false when the triangle is coplanar (all distances 0).
 */
function interval(p0: number, p1: number, p2: number, d0: number, d1: number, d2: number): boolean {
  let a: number;
  let b: number;
  if (d0 * d1 > 0) {
    a = p2 + ((p0 - p2) * d2) / (d2 - d0);
    b = p2 + ((p1 - p2) * d2) / (d2 - d1);
  } else if (d0 * d2 > 0) {
    a = p1 + ((p0 - p1) * d1) / (d1 - d0);
    b = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else if (d1 * d2 > 0 || d0 !== 0) {
    a = p0 + ((p1 - p0) * d0) / (d0 - d1);
    b = p0 + ((p2 - p0) * d0) / (d0 - d2);
  } else if (d1 !== 0) {
    a = p1 + ((p0 - p1) * d1) / (d1 - d0);
    b = p1 + ((p2 - p1) * d1) / (d1 - d2);
  } else if (d2 !== 0) {
    a = p2 + ((p0 - p2) * d2) / (d2 - d0);
    b = p2 + ((p1 - p2) * d2) / (d2 - d1);
  } else return false;
  ivLo = Math.min(a, b);
  ivHi = Math.max(a, b);
  return true;
}

/** 2D orientation of (a, b, c): > 0 counter-clockwise. */
function orient2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** True when c is in the bounding box of segment ab (c collinear with it: then on the segment). */
function onSegment2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  return (
    Math.min(ax, bx) <= cx &&
    cx <= Math.max(ax, bx) &&
    Math.min(ay, by) <= cy &&
    cy <= Math.max(ay, by)
  );
}

/** True when closed 2D segments pq and rs share a point. */
function segmentsCross2(
  px: number,
  py: number,
  qx: number,
  qy: number,
  rx: number,
  ry: number,
  sx: number,
  sy: number,
): boolean {
  const d1 = orient2(px, py, qx, qy, rx, ry);
  const d2 = orient2(px, py, qx, qy, sx, sy);
  const d3 = orient2(rx, ry, sx, sy, px, py);
  const d4 = orient2(rx, ry, sx, sy, qx, qy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return true;
  if (d1 === 0 && onSegment2(px, py, qx, qy, rx, ry)) return true;
  if (d2 === 0 && onSegment2(px, py, qx, qy, sx, sy)) return true;
  if (d3 === 0 && onSegment2(rx, ry, sx, sy, px, py)) return true;
  if (d4 === 0 && onSegment2(rx, ry, sx, sy, qx, qy)) return true;
  return false;
}

/** True when 2D point p is in the closed triangle abc (either winding). */
function pointInTriangle2(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): boolean {
  const o1 = orient2(ax, ay, bx, by, px, py);
  const o2 = orient2(bx, by, cx, cy, px, py);
  const o3 = orient2(cx, cy, ax, ay, px, py);
  return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0);
}

const P = new Float64Array(12);

function project2(k: number, p: Vec3, i: number, j: number): void {
  P[2 * k] = vec3.getAxis(p, i);
  P[2 * k + 1] = vec3.getAxis(p, j);
}

/** The coplanar case: project on the plane's dominant axis pair and test in 2D. */
function coplanar(a0: Vec3, a1: Vec3, a2: Vec3, b0: Vec3, b1: Vec3, b2: Vec3, n: Vec3): boolean {
  const ax = Math.abs(n.x);
  const ay = Math.abs(n.y);
  const az = Math.abs(n.z);
  const drop = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const i = drop === 0 ? 1 : 0;
  const j = drop === 2 ? 1 : 2;
  project2(0, a0, i, j);
  project2(1, a1, i, j);
  project2(2, a2, i, j);
  project2(3, b0, i, j);
  project2(4, b1, i, j);
  project2(5, b2, i, j);
  for (let p = 0; p < 3; p++) {
    const q = (p + 1) % 3;
    for (let r = 3; r < 6; r++) {
      const s = r === 5 ? 3 : r + 1;
      if (
        segmentsCross2(
          P[2 * p],
          P[2 * p + 1],
          P[2 * q],
          P[2 * q + 1],
          P[2 * r],
          P[2 * r + 1],
          P[2 * s],
          P[2 * s + 1],
        )
      )
        return true;
    }
  }
  if (pointInTriangle2(P[0], P[1], P[6], P[7], P[8], P[9], P[10], P[11])) return true;
  return pointInTriangle2(P[6], P[7], P[0], P[1], P[2], P[3], P[4], P[5]);
}

function spreadOf(m: number, a0: Vec3, p: Vec3): number {
  return Math.max(m, Math.abs(p.x - a0.x), Math.abs(p.y - a0.y), Math.abs(p.z - a0.z));
}

function maxSpread(a0: Vec3, a1: Vec3, a2: Vec3, b0: Vec3, b1: Vec3, b2: Vec3): number {
  return spreadOf(
    spreadOf(spreadOf(spreadOf(spreadOf(0, a0, a1), a0, a2), a0, b0), a0, b1),
    a0,
    b2,
  );
}

/**
 * True when the closed triangles a0a1a2 and b0b1b2 (same frame) share a point; touching counts.
 * Möller's interval overlap test (1997) with plane distances snapped to 0 within
 * TRIANGLE_PLANE_TOLERANCE of the pair's scale, a 2D test for coplanar pairs, and GJK for a
 * degenerate (zero-area) triangle. Allocates nothing.
 */
export function intersectsTriangleTriangle(
  a0: Vec3,
  a1: Vec3,
  a2: Vec3,
  b0: Vec3,
  b1: Vec3,
  b2: Vec3,
): boolean {
  vec3.sub(e1, a1, a0);
  vec3.sub(e2, a2, a0);
  vec3.cross(n1, e1, e2);
  vec3.sub(e1, b1, b0);
  vec3.sub(e2, b2, b0);
  vec3.cross(n2, e1, e2);
  const l1 = vec3.length(n1);
  const l2 = vec3.length(n2);
  if (!(l1 > 0) || !(l2 > 0)) {
    vec3.copy(gjkTriA.a, a0);
    vec3.copy(gjkTriA.b, a1);
    vec3.copy(gjkTriA.c, a2);
    vec3.copy(gjkTriB.a, b0);
    vec3.copy(gjkTriB.b, b1);
    vec3.copy(gjkTriB.c, b2);
    return intersectsConvexConvex(gjkTriA, gjkTriB, identityPose);
  }
  const scale = maxSpread(a0, a1, a2, b0, b1, b2);
  const tol = TRIANGLE_PLANE_TOLERANCE * scale;
  // Distances of B's corners from A's plane (length units: divided by |n1|).
  const s1 = vec3.dot(n1, a0);
  let db0 = (vec3.dot(n1, b0) - s1) / l1;
  let db1 = (vec3.dot(n1, b1) - s1) / l1;
  let db2 = (vec3.dot(n1, b2) - s1) / l1;
  if (Math.abs(db0) <= tol) db0 = 0;
  if (Math.abs(db1) <= tol) db1 = 0;
  if (Math.abs(db2) <= tol) db2 = 0;
  if (db0 * db1 > 0 && db0 * db2 > 0) return false;
  const s2 = vec3.dot(n2, b0);
  let da0 = (vec3.dot(n2, a0) - s2) / l2;
  let da1 = (vec3.dot(n2, a1) - s2) / l2;
  let da2 = (vec3.dot(n2, a2) - s2) / l2;
  if (Math.abs(da0) <= tol) da0 = 0;
  if (Math.abs(da1) <= tol) da1 = 0;
  if (Math.abs(da2) <= tol) da2 = 0;
  if (da0 * da1 > 0 && da0 * da2 > 0) return false;
  if (db0 === 0 && db1 === 0 && db2 === 0) return coplanar(a0, a1, a2, b0, b1, b2, n1);
  if (da0 === 0 && da1 === 0 && da2 === 0) return coplanar(a0, a1, a2, b0, b1, b2, n2);
  vec3.cross(lineDir, n1, n2);
  const ax = Math.abs(lineDir.x);
  const ay = Math.abs(lineDir.y);
  const az = Math.abs(lineDir.z);
  const k = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  if (!interval(vec3.getAxis(a0, k), vec3.getAxis(a1, k), vec3.getAxis(a2, k), da0, da1, da2))
    return coplanar(a0, a1, a2, b0, b1, b2, n1);
  const aLo = ivLo;
  const aHi = ivHi;
  if (!interval(vec3.getAxis(b0, k), vec3.getAxis(b1, k), vec3.getAxis(b2, k), db0, db1, db2))
    return coplanar(a0, a1, a2, b0, b1, b2, n1);
  return aLo <= ivHi && ivLo <= aHi;
}

// ---------------------------------------------------------------------------------------------
// Tree against tree
// ---------------------------------------------------------------------------------------------

/** Intersecting triangle pairs: `count` pairs (triangle of A, triangle of B) packed in `pairs`. */
export interface TrianglePairs {
  /** Number of pairs. */
  count: number;
  /** 2 per pair: A's triangle, B's triangle; grown as needed. */
  pairs: Uint32Array;
}

/** A new empty pair list (allocates). */
export function makeTrianglePairs(capacity = 64): TrianglePairs {
  return { count: 0, pairs: new Uint32Array(2 * Math.max(1, capacity)) };
}

function pushPair(out: TrianglePairs, ta: number, tb: number): void {
  if (2 * out.count === out.pairs.length) {
    const p = new Uint32Array(2 * out.pairs.length);
    p.set(out.pairs);
    out.pairs = p;
  }
  out.pairs[2 * out.count] = ta;
  out.pairs[2 * out.count + 1] = tb;
  out.count++;
}

const rot: Mat3 = mat3.create();
let pairStack = new Int32Array(256);
let pairLower = new Float64Array(128);
// B's node box in A's frame, written by boxOfB.
let bminx = 0;
let bminy = 0;
let bminz = 0;
let bmaxx = 0;
let bmaxy = 0;
let bmaxz = 0;

/** Writes B's node j box (B's frame) as an AABB in A's frame into bmin / bmax. */
function boxOfB(bvh: MeshBvh, j: number, bInA: Isometry): void {
  const b = bvh.bounds;
  const o = 6 * j;
  const cx = 0.5 * (b[o] + b[o + 3]);
  const cy = 0.5 * (b[o + 1] + b[o + 4]);
  const cz = 0.5 * (b[o + 2] + b[o + 5]);
  const hx = 0.5 * (b[o + 3] - b[o]);
  const hy = 0.5 * (b[o + 4] - b[o + 1]);
  const hz = 0.5 * (b[o + 5] - b[o + 2]);
  const t = bInA.translation;
  const m = rot;
  // mat3 is row-major: m[3·row + col].
  const wx = m[0] * cx + m[1] * cy + m[2] * cz + t.x;
  const wy = m[3] * cx + m[4] * cy + m[5] * cz + t.y;
  const wz = m[6] * cx + m[7] * cy + m[8] * cz + t.z;
  const ex = Math.abs(m[0]) * hx + Math.abs(m[1]) * hy + Math.abs(m[2]) * hz;
  const ey = Math.abs(m[3]) * hx + Math.abs(m[4]) * hy + Math.abs(m[5]) * hz;
  const ez = Math.abs(m[6]) * hx + Math.abs(m[7]) * hy + Math.abs(m[8]) * hz;
  bminx = wx - ex;
  bminy = wy - ey;
  bminz = wz - ez;
  bmaxx = wx + ex;
  bmaxy = wy + ey;
  bmaxz = wz + ez;
}

/** Squared gap between A's node i box and the current B box (0 when overlapping). */
function gapSq(bvh: MeshBvh, i: number): number {
  const b = bvh.bounds;
  const o = 6 * i;
  const dx = Math.max(0, b[o] - bmaxx, bminx - b[o + 3]);
  const dy = Math.max(0, b[o + 1] - bmaxy, bminy - b[o + 4]);
  const dz = Math.max(0, b[o + 2] - bmaxz, bminz - b[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

function nodeArea(bvh: MeshBvh, i: number): number {
  const b = bvh.bounds;
  const o = 6 * i;
  const dx = b[o + 3] - b[o];
  const dy = b[o + 4] - b[o + 1];
  const dz = b[o + 5] - b[o + 2];
  return dx * dy + dy * dz + dz * dx;
}

function pushPairNode(top: number, i: number, j: number, lower: number): number {
  if (2 * (top + 1) > pairStack.length) {
    const s = new Int32Array(2 * pairStack.length);
    s.set(pairStack);
    pairStack = s;
    const l = new Float64Array(2 * pairLower.length);
    l.set(pairLower);
    pairLower = l;
  }
  pairStack[2 * top] = i;
  pairStack[2 * top + 1] = j;
  pairLower[top] = lower;
  return top + 1;
}

const ta0 = vec3.create();
const ta1 = vec3.create();
const ta2 = vec3.create();
const tb0 = vec3.create();
const tb1 = vec3.create();
const tb2 = vec3.create();
const triA: Triangle = { type: ShapeType.Triangle, a: ta0, b: ta1, c: ta2 };
const triB: Triangle = { type: ShapeType.Triangle, a: tb0, b: tb1, c: tb2 };

/** Loads B's triangle t into tb0..tb2, in A's frame. */
function loadB(b: TriangleMesh, t: number, bInA: Isometry): void {
  getMeshTriangle(b, t, tb0, tb1, tb2);
  iso.transformPoint(tb0, bInA, tb0);
  iso.transformPoint(tb1, bInA, tb1);
  iso.transformPoint(tb2, bInA, tb2);
}

/** True when the boxes of the loaded triangles are within `margin` of each other. */
function triangleBoxesNear(margin: number): boolean {
  return !(
    Math.max(ta0.x, ta1.x, ta2.x) + margin < Math.min(tb0.x, tb1.x, tb2.x) ||
    Math.max(tb0.x, tb1.x, tb2.x) + margin < Math.min(ta0.x, ta1.x, ta2.x) ||
    Math.max(ta0.y, ta1.y, ta2.y) + margin < Math.min(tb0.y, tb1.y, tb2.y) ||
    Math.max(tb0.y, tb1.y, tb2.y) + margin < Math.min(ta0.y, ta1.y, ta2.y) ||
    Math.max(ta0.z, ta1.z, ta2.z) + margin < Math.min(tb0.z, tb1.z, tb2.z) ||
    Math.max(tb0.z, tb1.z, tb2.z) + margin < Math.min(ta0.z, ta1.z, ta2.z)
  );
}

const MODE_ANY = 0;
const MODE_PAIRS = 1;
const MODE_CONTACTS = 2;

const pairContact = makeContact();
// Triangle-pair contacts of a contact / manifold query: [ta, tb, distance, n, pointA, pointB].
const STRIDE = 12;
let stored = new Float64Array(STRIDE * 16);
let storedCount = 0;

function storeContact(ta: number, tb: number, c: Contact): void {
  if (STRIDE * (storedCount + 1) > stored.length) {
    const s = new Float64Array(2 * stored.length);
    s.set(stored);
    stored = s;
  }
  const o = STRIDE * storedCount++;
  stored[o] = ta;
  stored[o + 1] = tb;
  stored[o + 2] = c.distance;
  stored[o + 3] = c.normal.x;
  stored[o + 4] = c.normal.y;
  stored[o + 5] = c.normal.z;
  stored[o + 6] = c.pointA.x;
  stored[o + 7] = c.pointA.y;
  stored[o + 8] = c.pointA.z;
  stored[o + 9] = c.pointB.x;
  stored[o + 10] = c.pointB.y;
  stored[o + 11] = c.pointB.z;
}

function loadContact(c: Contact, k: number): void {
  const o = STRIDE * k;
  c.distance = stored[o + 2];
  vec3.set(c.normal, stored[o + 3], stored[o + 4], stored[o + 5]);
  vec3.set(c.pointA, stored[o + 6], stored[o + 7], stored[o + 8]);
  vec3.set(c.pointB, stored[o + 9], stored[o + 10], stored[o + 11]);
}

/**
 * Descends both trees over node pairs within `margin`; at leaf pairs applies `mode`. Returns
 * true when MODE_ANY found an intersecting pair.
 */
function descend(
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  margin: number,
  mode: number,
  pairsOut: TrianglePairs | null,
  prediction: number,
): boolean {
  const A = a.bvh;
  const B = b.bvh;
  if (A.nodeCount === 0 || B.nodeCount === 0) return false;
  mat3.fromQuat(rot, bInA.rotation);
  const m2 = margin * margin;
  let top = pushPairNode(0, 0, 0, 0);
  while (top > 0) {
    top--;
    const i = pairStack[2 * top];
    const j = pairStack[2 * top + 1];
    boxOfB(B, j, bInA);
    if (gapSq(A, i) > m2) continue;
    const leafA = isMeshBvhLeaf(A, i);
    const leafB = isMeshBvhLeaf(B, j);
    if (leafA && leafB) {
      const sa = meshBvhLeafOffset(A, i);
      const ea = sa + meshBvhLeafCount(A, i);
      const sb = meshBvhLeafOffset(B, j);
      const eb = sb + meshBvhLeafCount(B, j);
      for (let p = sb; p < eb; p++) {
        const tbi = B.primitives[p];
        loadB(b, tbi, bInA);
        for (let q = sa; q < ea; q++) {
          const tai = A.primitives[q];
          getMeshTriangle(a, tai, ta0, ta1, ta2);
          if (!triangleBoxesNear(margin)) continue;
          if (mode === MODE_CONTACTS) {
            if (contactConvexConvex(pairContact, triA, triB, identityPose, prediction))
              storeContact(tai, tbi, pairContact);
            continue;
          }
          if (!intersectsTriangleTriangle(ta0, ta1, ta2, tb0, tb1, tb2)) continue;
          if (mode === MODE_ANY) return true;
          if (pairsOut) pushPair(pairsOut, tai, tbi);
        }
      }
      continue;
    }
    if (leafB || (!leafA && nodeArea(A, i) >= nodeArea(B, j))) {
      top = pushPairNode(top, meshBvhRightChild(A, i), j, 0);
      top = pushPairNode(top, i + 1, j, 0);
    } else {
      top = pushPairNode(top, i, meshBvhRightChild(B, j), 0);
      top = pushPairNode(top, i, j + 1, 0);
    }
  }
  return false;
}

/**
 * True when meshes `a` and `b` (B posed by `bInA` in A's frame) share a point: some triangle
 * pair intersects or touches (Möller 1997 after a simultaneous BVH descent).
 */
export function intersectsMeshMesh(a: TriangleMesh, b: TriangleMesh, bInA: Isometry): boolean {
  return descend(a, b, bInA, 0, MODE_ANY, null, 0) || nested(a, b, bInA) !== 0;
}

const aInB = iso.identity();

/**
 * For meshes whose surfaces do not meet: 1 when solid A holds B, −1 when solid B holds A, 0
 * otherwise (neither is solid, or they are apart).
 */
function nested(a: TriangleMesh, b: TriangleMesh, bInA: Isometry): number {
  if (!a.solid && !b.solid) return 0;
  if (solidMeshHoldsMesh(a, b, bInA)) return 1;
  if (b.solid && solidMeshHoldsMesh(b, a, iso.invert(aInB, bInA))) return -1;
  return 0;
}

const nestedDistance: DistanceResult = makeDistanceResult();
const nestedContact = makeContact();
/** Whether the last {@link contactMeshMesh} answered a nested pair (one manifold point). */
let lastNested = false;

/**
 * Every intersecting (or touching) triangle pair of meshes `a` and `b` (B posed by `bInA` in
 * A's frame) into `out` (reset first), as (A's triangle, B's triangle), sorted ascending by A's
 * then B's triangle so the list is deterministic. Returns the number of pairs. Allocates only
 * when `out` must grow.
 */
export function intersectingTrianglePairsMeshMesh(
  out: TrianglePairs,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
): number {
  out.count = 0;
  descend(a, b, bInA, 0, MODE_PAIRS, out, 0);
  sortPairs(out);
  return out.count;
}

/** Sorts the pairs by (A's triangle, B's triangle), in place. */
function sortPairs(out: TrianglePairs): void {
  const n = out.count;
  if (n < 2) return;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = out.pairs[2 * k] * 2 ** 32 + out.pairs[2 * k + 1];
  keys.sort();
  for (let k = 0; k < n; k++) {
    out.pairs[2 * k] = Math.floor(keys[k] / 2 ** 32);
    out.pairs[2 * k + 1] = keys[k] % 2 ** 32;
  }
}

const pairDistance: DistanceResult = makeDistanceResult();

/**
 * Closest points of meshes `a` and `b` (B posed by `bInA` in A's frame), in A's frame:
 * distance ≥ 0; when they intersect, 0 with the points of the deepest contact
 * ({@link contactMeshMesh}). Branch and bound over node pairs (a pair whose boxes are farther
 * apart than the best distance so far is dropped). An empty mesh gives Infinity. Returns `out`.
 */
export function distanceMeshMesh(
  out: DistanceResult,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
): DistanceResult {
  surfaceDistanceMeshMesh(out, a, b, bInA);
  if (out.distance > 0 && Number.isFinite(out.distance)) {
    const k = nested(a, b, bInA);
    if (k !== 0) {
      containedMeshContact(nestedContact, a, b, bInA, out.pointA, out.pointB, k > 0);
      out.distance = 0;
      vec3.copy(out.pointA, nestedContact.pointA);
      vec3.copy(out.pointB, nestedContact.pointB);
    }
  }
  return out;
}

/** {@link distanceMeshMesh} between the two surfaces (their triangles). */
function surfaceDistanceMeshMesh(
  out: DistanceResult,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
): DistanceResult {
  out.distance = Infinity;
  vec3.set(out.pointA, 0, 0, 0);
  vec3.copy(out.pointB, bInA.translation);
  const A = a.bvh;
  const B = b.bvh;
  if (A.nodeCount === 0 || B.nodeCount === 0) return out;
  mat3.fromQuat(rot, bInA.rotation);
  let best = Infinity;
  boxOfB(B, 0, bInA);
  let top = pushPairNode(0, 0, 0, gapSq(A, 0));
  while (top > 0 && best > 0) {
    top--;
    const i = pairStack[2 * top];
    const j = pairStack[2 * top + 1];
    if (pairLower[top] > best * best) continue;
    const leafA = isMeshBvhLeaf(A, i);
    const leafB = isMeshBvhLeaf(B, j);
    if (leafA && leafB) {
      const sa = meshBvhLeafOffset(A, i);
      const ea = sa + meshBvhLeafCount(A, i);
      const sb = meshBvhLeafOffset(B, j);
      const eb = sb + meshBvhLeafCount(B, j);
      for (let p = sb; p < eb && best > 0; p++) {
        loadB(b, B.primitives[p], bInA);
        for (let q = sa; q < ea; q++) {
          getMeshTriangle(a, A.primitives[q], ta0, ta1, ta2);
          distanceConvexConvex(pairDistance, triA, triB, identityPose);
          if (pairDistance.distance < best) {
            best = pairDistance.distance;
            vec3.copy(out.pointA, pairDistance.pointA);
            vec3.copy(out.pointB, pairDistance.pointB);
            if (best === 0) break;
          }
        }
      }
      continue;
    }
    let i1 = i;
    let j1 = j;
    let i2 = i;
    let j2 = j;
    if (leafB || (!leafA && nodeArea(A, i) >= nodeArea(B, j))) {
      i1 = i + 1;
      i2 = meshBvhRightChild(A, i);
    } else {
      j1 = j + 1;
      j2 = meshBvhRightChild(B, j);
    }
    boxOfB(B, j1, bInA);
    const g1 = gapSq(A, i1);
    boxOfB(B, j2, bInA);
    const g2 = gapSq(A, i2);
    if (g1 <= g2) {
      top = pushPairNode(top, i2, j2, g2);
      top = pushPairNode(top, i1, j1, g1);
    } else {
      top = pushPairNode(top, i1, j1, g1);
      top = pushPairNode(top, i2, j2, g2);
    }
  }
  out.distance = best;
  if (best === 0 && contactMeshMesh(pairContact, a, b, bInA, 0)) {
    vec3.copy(out.pointA, pairContact.pointA);
    vec3.copy(out.pointB, pairContact.pointB);
  }
  return out;
}

/**
 * Contact of meshes `a` and `b` (B posed by `bInA` in A's frame) within `prediction` (scene
 * units, ≥ 0): false when no triangle pair is that close; else the deepest triangle-pair
 * contact (signed distance, unit normal from A toward B, witness points), in A's frame. Ties go
 * to the first pair in traversal order (deterministic).
 */
export function contactMeshMesh(
  out: Contact,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  prediction: number,
): boolean {
  const p = Math.max(0, prediction);
  storedCount = 0;
  lastNested = false;
  descend(a, b, bInA, p, MODE_CONTACTS, null, p);
  let best = 0;
  for (let k = 1; k < storedCount; k++)
    if (stored[STRIDE * k + 2] < stored[STRIDE * best + 2]) best = k;
  if (!(storedCount > 0 && stored[STRIDE * best + 2] <= 0)) {
    const k = nested(a, b, bInA);
    if (k !== 0) {
      surfaceDistanceMeshMesh(nestedDistance, a, b, bInA);
      containedMeshContact(out, a, b, bInA, nestedDistance.pointA, nestedDistance.pointB, k > 0);
      lastNested = true;
      return true;
    }
  }
  if (storedCount === 0) return false;
  loadContact(out, best);
  return true;
}

const manifoldContact = makeContact();
const pairManifold = makeContactManifold();
const mergeNormal = vec3.create();

/**
 * Contact manifold of meshes `a` and `b` (B posed by `bInA` in A's frame) within `prediction`:
 * the deepest pair's normal (A toward B) and
 * 1–4 points merged from the triangle-pair manifolds whose normals agree with it
 * (`MESH_MANIFOLD_MERGE_COS`), each measured along that normal; feature ids from A's triangle.
 * In the dispatch table's form: `contact` is the pair's contact already found (the manifold is
 * that single contact if the merge comes out empty). Returns `out`.
 */
export function manifoldMeshMesh(
  out: ContactManifold,
  a: TriangleMesh,
  b: TriangleMesh,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  if (!contactMeshMesh(manifoldContact, a, b, bInA, prediction) || lastNested)
    return singleContactManifold(out, contact);
  vec3.copy(mergeNormal, manifoldContact.normal);
  beginMergedManifold(mergeNormal);
  const p = Math.max(0, prediction);
  for (let k = 0; k < storedCount; k++) {
    loadContact(manifoldContact, k);
    if (vec3.dot(manifoldContact.normal, mergeNormal) < MESH_MANIFOLD_MERGE_COS) continue;
    const tai = stored[STRIDE * k];
    getMeshTriangle(a, tai, ta0, ta1, ta2);
    loadB(b, stored[STRIDE * k + 1], bInA);
    manifoldFromContact(pairManifold, triA, triB, identityPose, manifoldContact, p);
    addMergedManifold(pairManifold, tai);
  }
  if (!endMergedManifold(out)) singleContactManifold(out, contact);
  return out;
}
