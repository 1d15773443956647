/**
 * Ray casts against a triangle mesh, in the mesh's local frame: the closest hit and all hits.
 *
 * Traversal: the mesh BVH is walked depth-first with the slab test on each node box; for the
 * closest hit, a node whose entry distance is beyond the best hit so far is skipped and the
 * nearer child is visited first (three-mesh-bvh's `raycastFirst`, Jolt's closest-hit
 * collector with an early-out fraction). A ray with no zero component of its direction takes
 * the slab test with each node's near and far bounds chosen once by the direction's signs (no NaN
 * case, no min/max: the same entry distances, bit for bit); the others take the general one.
 *
 * Triangles: the exact ray–triangle test that every triangle takes (`rayTriangleHit`,
 * src/geometry/ray-primitives.ts: Plücker's side test and the time of impact's sign on exact
 * predicates), so a mesh answers as its triangles alone do, bit for bit. An edge shared by two
 * triangles gets exactly opposite signs in both, so a ray through a shared edge or vertex hits at
 * least one of them — no cracks — and a ray parallel to a triangle's plane misses that triangle.
 * The decisions being exact, a hit lies in its triangle and so in every box holding it, which the
 * slab test (its far bounds widened, Ize 2013) never loses. `toi` is in multiples of `dir` (which
 * need not be unit): the hit is origin + toi·dir.
 */

import { RAY_SLAB_ROUNDING } from "../constants.js";
import type { MeshBvh } from "../geometry/mesh-bvh.js";
import {
  isMeshBvhLeaf,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhNodeRayEntry,
  meshBvhRightChild,
} from "../geometry/mesh-bvh.js";
import { rayTriangleIo, rayTriangleTest } from "../geometry/ray-primitives.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import { containsPointTriangleMesh, meshTriangleNormal } from "../shapes/triangle-mesh.js";

/** The closest hit of a ray on a mesh (local frame). */
export interface MeshRayHit {
  /** Hit parameter: the hit is origin + toi·dir. */
  toi: number;
  /** Hit point, local frame. */
  point: Vec3;
  /**
   * Unit face normal: on the side facing the ray's origin for a surface mesh, outward for a
   * solid one (zero for a solid inside hit).
   */
  normal: Vec3;
  /** Index of the triangle hit (−1 for a solid inside hit). */
  triangle: number;
}

/** A new zeroed ray hit (allocates). */
export function makeMeshRayHit(): MeshRayHit {
  return { toi: 0, point: vec3.create(), normal: vec3.create(), triangle: -1 };
}

/** All hits of a ray: `count` valid entries, sorted by toi (then triangle index). */
export interface MeshRayHits {
  /** Number of valid hits. */
  count: number;
  /** Hit parameters, ascending. */
  toi: Float64Array;
  /** Triangle of each hit. */
  triangles: Uint32Array;
}

/** A new empty all-hits list (allocates; grows as needed). */
export function makeMeshRayHits(capacity = 16): MeshRayHits {
  const c = Math.max(1, capacity);
  return { count: 0, toi: new Float64Array(c), triangles: new Uint32Array(c) };
}

/** The last {@link hitTriangle}'s hit parameter (a register: a returned double is boxed). */
const hitIo = new Float64Array(1);
/** The side of the last {@link hitTriangle}'s hit: sign(n·dir), n its winding's normal (exact). */
let hitSide = 0;
// The current cast's ray and the triangle's corners (scratch; the exact test takes points).
const rayO = vec3.create();
const rayD = vec3.create();
const triA = vec3.create();
const triB = vec3.create();
const triC = vec3.create();

/** Sets the current ray; false for a zero direction. */
function setupRay(o: Vec3, d: Vec3): boolean {
  if (d.x === 0 && d.y === 0 && d.z === 0) return false;
  vec3.copy(rayO, o);
  vec3.copy(rayD, d);
  return true;
}

/**
 * Whether the current ray hits triangle t (false on a miss or a ray parallel to its plane), its
 * hit parameter written to `hitIo[0]` and its side to `hitSide`: the one exact ray–triangle test
 * of every triangle (`rayTriangleTest`, src/geometry/ray-primitives.ts),
 * so a mesh answers bit for bit as its triangles do alone.
 */
function hitTriangle(mesh: TriangleMesh, t: number): boolean {
  const v = mesh.vertices;
  const i = mesh.indices;
  const a = 3 * i[3 * t];
  const b = 3 * i[3 * t + 1];
  const c = 3 * i[3 * t + 2];
  vec3.set(triA, v[a], v[a + 1], v[a + 2]);
  vec3.set(triB, v[b], v[b + 1], v[b + 2]);
  vec3.set(triC, v[c], v[c + 1], v[c + 2]);
  if (rayTriangleTest(triA, triB, triC, rayO, rayD) < 0) return false;
  hitIo[0] = rayTriangleIo[1];
  hitSide = rayTriangleIo[0];
  return true;
}

let stack = new Int32Array(128);
let entries = new Float64Array(128);

function grow(): void {
  const s = new Int32Array(2 * stack.length);
  s.set(stack);
  stack = s;
  const e = new Float64Array(2 * entries.length);
  e.set(entries);
  entries = e;
}

/**
 * Closest hit of the ray origin + t·dir, t ∈ [0, maxToi], on `mesh` (all in the mesh's local
 * frame; `dir` any non-zero length, `maxToi` ≥ 0 in multiples of dir). Writes `out` (toi, point,
 * unit face normal — facing the origin for a surface mesh, outward for a solid one — triangle)
 * and returns true on a hit; false on a miss or a
 * zero direction. With `solid` true and a solid mesh (`mesh.solid`, a closed mesh made solid at
 * construction) whose inside (winding number) holds the origin, reports toi 0 at the origin with a zero normal and triangle −1 (docs/FORMATS.md's
 * solid convention). Exact and watertight (see the module doc). Allocates nothing in steady state.
 */
export function castRayTriangleMesh(
  out: MeshRayHit,
  mesh: TriangleMesh,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid = false,
): boolean {
  if (solid && mesh.solid && containsPointTriangleMesh(mesh, origin)) {
    out.toi = 0;
    vec3.copy(out.point, origin);
    vec3.set(out.normal, 0, 0, 0);
    out.triangle = -1;
    return true;
  }
  const bvh = mesh.bvh;
  if (bvh.nodeCount === 0 || !setupRay(origin, dir) || !(maxToi >= 0)) return false;
  // The closest hit's t lives only in slabIo[6], never in a local: a local double that takes
  // values from both a parameter and a typed array is kept boxed, one heap number per update.
  let bestTri = -1;
  let bestSide = 0;
  let top = 0;
  // From outside the mesh's box, the first crossing of a solid mesh's closed surface enters it,
  // through a triangle facing the ray: triangles seen from behind are skipped. Exact, and what
  // decides a hit far from a small mesh, where every triangle's toi rounds to the same double
  // (a ray from 1e100 got the far side's normal).
  const entrySign = mesh.solid && outsideRootBox(bvh, origin) ? entrySide(mesh) : 0;
  // Finite reciprocals (every component of dir non-zero): the slab test without its NaN cases.
  loadSlab(origin, dir);
  const fast =
    Number.isFinite(slabIo[3]) && Number.isFinite(slabIo[4]) && Number.isFinite(slabIo[5]);
  if (fast) {
    slabNear[0] = slabIo[3] < 0 ? 3 : 0;
    slabNear[1] = slabIo[4] < 0 ? 3 : 0;
    slabNear[2] = slabIo[5] < 0 ? 3 : 0;
  }
  const bounds = bvh.bounds;
  slabIo[6] = maxToi;
  if (!meshBvhNodeRayEntry(bvh, 0, slabIo)) return false;
  stack[top] = 0;
  entries[top++] = slabIo[7];
  while (top > 0) {
    top--;
    const i = stack[top];
    if (entries[top] > slabIo[6]) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const t = bvh.primitives[s];
        if (!hitTriangle(mesh, t)) continue;
        const toi = hitIo[0];
        const best = slabIo[6];
        if (toi > best) continue;
        if (entrySign * hitSide < 0) continue;
        if (toi < best || bestTri < 0 || t < bestTri) {
          slabIo[6] = toi;
          bestTri = t;
          bestSide = hitSide;
        }
      }
      continue;
    }
    const l = i + 1;
    const r = meshBvhRightChild(bvh, i);
    // Entries through the register slabIo[7]: no double crosses a call.
    const el = (fast ? entryFast(bounds, l) : meshBvhNodeRayEntry(bvh, l, slabIo))
      ? slabIo[7]
      : Number.POSITIVE_INFINITY;
    const er = (fast ? entryFast(bounds, r) : meshBvhNodeRayEntry(bvh, r, slabIo))
      ? slabIo[7]
      : Number.POSITIVE_INFINITY;
    if (top + 2 > stack.length) grow();
    // Farther first, so that the nearer is popped next.
    if (el <= er) {
      if (er !== Infinity) {
        stack[top] = r;
        entries[top++] = er;
      }
      if (el !== Infinity) {
        stack[top] = l;
        entries[top++] = el;
      }
    } else {
      stack[top] = l;
      entries[top++] = el;
      if (er !== Infinity) {
        stack[top] = r;
        entries[top++] = er;
      }
    }
  }
  if (bestTri < 0) return false;
  writeHit(out, mesh, bestTri, origin, dir, bestSide);
  return true;
}

/** True when local point `p` lies outside the root box of `bvh` (which holds every vertex). */
function outsideRootBox(bvh: MeshBvh, p: Vec3): boolean {
  const b = bvh.bounds;
  return p.x < b[0] || p.y < b[1] || p.z < b[2] || p.x > b[3] || p.y > b[4] || p.z > b[5];
}

/**
 * The side ({@link hitTriangle}'s sign of n·dir, n the winding's normal) of a triangle whose
 * outward normal faces the ray (the solid's entry side): −1 for an outward-wound mesh, +1 for an
 * inward-wound one.
 */
function entrySide(mesh: TriangleMesh): number {
  const pn = mesh.pseudoNormals;
  return pn !== null && pn.orientation < 0 ? 1 : -1;
}

/** Loads the ray's origin and reciprocal direction (a zero component's ±Infinity) into `slabIo`. */
function loadSlab(o: Vec3, d: Vec3): void {
  slabIo[0] = o.x;
  slabIo[1] = o.y;
  slabIo[2] = o.z;
  slabIo[3] = 1 / d.x;
  slabIo[4] = 1 / d.y;
  slabIo[5] = 1 / d.z;
}

/**
 * The current ray's slab data for {@link entryFast} and `meshBvhNodeRayEntry`: [0..2] origin,
 * [3..5] 1/dir, [6] the farthest t still wanted (the closest hit so far), [7] the last node's
 * entry t, written by the test.
 */
const slabIo = new Float64Array(8);
/**
 * The offset (0 or 3) of each axis' near bound in a node's box (min xyz, max xyz) for
 * {@link entryFast}: its max bound when that component of dir is negative.
 */
const slabNear = new Int32Array(3);

/**
 * `meshBvhNodeRayEntry` for a ray whose three reciprocals are finite (no zero component of dir): the
 * near and far bound of each slab are known from dir's signs, so the box is read without the
 * NaN (0·∞) checks and the min/max of each slab — the same t0 and t1, bit for bit (the rounded
 * products are monotone in the bound; `RAY_SLAB_ROUNDING` widens each far bound as there).
 */
function entryFast(b: Float64Array, i: number): boolean {
  const o = 6 * i;
  const ox = slabIo[0];
  const oy = slabIo[1];
  const oz = slabIo[2];
  const ix = slabIo[3];
  const iy = slabIo[4];
  const iz = slabIo[5];
  const nx = slabNear[0];
  const ny = slabNear[1];
  const nz = slabNear[2];
  let t0 = 0;
  let t1 = slabIo[6];
  let near = (b[o + nx] - ox) * ix;
  let far = (b[o + 3 - nx] - ox) * ix * (1 + RAY_SLAB_ROUNDING);
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  near = (b[o + 1 + ny] - oy) * iy;
  far = (b[o + 4 - ny] - oy) * iy * (1 + RAY_SLAB_ROUNDING);
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  near = (b[o + 2 + nz] - oz) * iz;
  far = (b[o + 5 - nz] - oz) * iz * (1 + RAY_SLAB_ROUNDING);
  if (near > t0) t0 = near;
  if (far < t1) t1 = far;
  slabIo[7] = t0;
  return t0 <= t1;
}

/**
 * Fills a hit record for triangle t at the closest hit's t (`slabIo[6]`, read here rather than
 * passed: a double crossing a call is boxed), hit from `side` (sign of n·dir).
 */
function writeHit(
  out: MeshRayHit,
  mesh: TriangleMesh,
  t: number,
  origin: Vec3,
  dir: Vec3,
  side: number,
): void {
  const toi = slabIo[6];
  out.toi = toi;
  out.triangle = t;
  out.point.x = origin.x + dir.x * toi;
  out.point.y = origin.y + dir.y * toi;
  out.point.z = origin.z + dir.z * toi;
  meshRayHitNormal(out.normal, mesh, t, side);
}

/**
 * out = the unit normal of triangle `t` at a hit from `side` — the exact sign of n·dir, n its
 * winding's normal (`rayTriangleIo`) — in the local frame: for a surface mesh the face normal on
 * the side facing the ray's origin (negated when n points along the ray), as a bare triangle's;
 * for a solid mesh (`mesh.solid`) the outward normal, as for every solid shape,
 * so a hollow cast from inside reports its exit with the normal pointing out (along the ray).
 * Returns out.
 */
export function meshRayHitNormal(out: Vec3, mesh: TriangleMesh, t: number, side: number): Vec3 {
  if (!(meshTriangleNormal(out, mesh, t) > 0)) return vec3.set(out, 0, 0, 0);
  if (mesh.solid && mesh.pseudoNormals !== null) {
    // Outward: the winding's own side when the mesh winds outward, the other one otherwise.
    if (mesh.pseudoNormals.orientation < 0) vec3.negate(out, out);
    return out;
  }
  if (side > 0) vec3.negate(out, out);
  return out;
}

/**
 * Every hit of the ray origin + t·dir, t ∈ [0, maxToi], on `mesh` (local frame; see
 * {@link castRayTriangleMesh}), into `out` sorted by toi then triangle index: a ray through a
 * shared edge may list each triangle that claims it. Returns the number of hits. Allocates only
 * when `out` must grow.
 */
export function castRayTriangleMeshAll(
  out: MeshRayHits,
  mesh: TriangleMesh,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
): number {
  out.count = 0;
  const bvh = mesh.bvh;
  if (bvh.nodeCount === 0 || !setupRay(origin, dir) || !(maxToi >= 0)) return 0;
  loadSlab(origin, dir);
  slabIo[6] = maxToi;
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const i = stack[--top];
    if (!meshBvhNodeRayEntry(bvh, i, slabIo)) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const t = bvh.primitives[s];
        if (hitTriangle(mesh, t) && hitIo[0] <= maxToi) insertHit(out, hitIo[0], t);
      }
      continue;
    }
    if (top + 2 > stack.length) grow();
    stack[top++] = meshBvhRightChild(bvh, i);
    stack[top++] = i + 1;
  }
  return out.count;
}

/** Inserts (toi, t) keeping `out` sorted by (toi, t). */
function insertHit(out: MeshRayHits, toi: number, t: number): void {
  if (out.count === out.toi.length) {
    const a = new Float64Array(2 * out.count);
    a.set(out.toi);
    out.toi = a;
    const b = new Uint32Array(2 * out.count);
    b.set(out.triangles);
    out.triangles = b;
  }
  let k = out.count++;
  while (k > 0 && (out.toi[k - 1] > toi || (out.toi[k - 1] === toi && out.triangles[k - 1] > t))) {
    out.toi[k] = out.toi[k - 1];
    out.triangles[k] = out.triangles[k - 1];
    k--;
  }
  out.toi[k] = toi;
  out.triangles[k] = t;
}
