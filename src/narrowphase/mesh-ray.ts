/**
 * Ray casts against a triangle mesh, in the mesh's local frame: the closest hit and all hits.
 *
 * Traversal: the mesh BVH is walked depth-first with the slab test on each node box; for the
 * closest hit, a node whose entry distance is beyond the best hit so far is skipped and the
 * nearer child is visited first (three-mesh-bvh's `raycastFirst`, Jolt's closest-hit
 * collector with an early-out fraction).
 *
 * Triangles: the watertight ray–triangle test of Woop, Benthin & Wald (2013, "Watertight
 * Ray/Triangle Intersection", JCGT 2(1)): the triangle is sheared into the ray's frame and
 * classified by three 2D edge functions. An edge shared by two triangles gives exactly opposite
 * edge function values in both, so a ray through a shared edge or vertex hits at least one of
 * them — no cracks — and a ray lying in a triangle's plane misses that triangle. `toi` is in
 * multiples of `dir` (which need not be unit): the hit is origin + toi·dir.
 */
import type { MeshBvh } from "../geometry/mesh-bvh.js";
import {
  isMeshBvhLeaf,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhNodeRayEntry,
  meshBvhRightChild,
} from "../geometry/mesh-bvh.js";
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

// Sheared ray frame of the current cast (Woop et al. 2013, §3).
let kx = 0;
let ky = 1;
let kz = 2;
let sx = 0;
let sy = 0;
let sz = 1;
let rox = 0;
let roy = 0;
let roz = 0;
/** The sign of the last {@link hitTriangle}'s determinant (which side of the triangle the ray saw). */
let hitDet = 0;

/** Sets up the shear for direction d; false for a zero direction. */
function setupRay(o: Vec3, d: Vec3): boolean {
  const ax = Math.abs(d.x);
  const ay = Math.abs(d.y);
  const az = Math.abs(d.z);
  kz = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const dz = kz === 0 ? d.x : kz === 1 ? d.y : d.z;
  if (!(dz !== 0)) return false;
  kx = (kz + 1) % 3;
  ky = (kx + 1) % 3;
  if (dz < 0) {
    const t = kx;
    kx = ky;
    ky = t;
  }
  const dx = kx === 0 ? d.x : kx === 1 ? d.y : d.z;
  const dy = ky === 0 ? d.x : ky === 1 ? d.y : d.z;
  sx = dx / dz;
  sy = dy / dz;
  sz = 1 / dz;
  rox = o.x;
  roy = o.y;
  roz = o.z;
  return true;
}

/** Watertight hit parameter of triangle t, or Infinity on a miss (or a ray in its plane). */
function hitTriangle(mesh: TriangleMesh, t: number): number {
  const v = mesh.vertices;
  const i = mesh.indices;
  const a = 3 * i[3 * t];
  const b = 3 * i[3 * t + 1];
  const c = 3 * i[3 * t + 2];
  const o = kz === 0 ? rox : kz === 1 ? roy : roz;
  const ox = kx === 0 ? rox : kx === 1 ? roy : roz;
  const oy = ky === 0 ? rox : ky === 1 ? roy : roz;
  const az = v[a + kz] - o;
  const bz = v[b + kz] - o;
  const cz = v[c + kz] - o;
  const ax = v[a + kx] - ox - sx * az;
  const ay = v[a + ky] - oy - sy * az;
  const bx = v[b + kx] - ox - sx * bz;
  const by = v[b + ky] - oy - sy * bz;
  const cx = v[c + kx] - ox - sx * cz;
  const cy = v[c + ky] - oy - sy * cz;
  const u = cx * by - cy * bx;
  const w0 = ax * cy - ay * cx;
  const w = bx * ay - by * ax;
  if ((u < 0 || w0 < 0 || w < 0) && (u > 0 || w0 > 0 || w > 0)) return Infinity;
  const det = u + w0 + w;
  if (det === 0) return Infinity;
  hitDet = det;
  const tt = (u * az + w0 * bz + w * cz) * sz;
  const toi = tt / det;
  return toi >= 0 ? toi : Infinity;
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
 * solid convention). Watertight (see the module doc). Allocates nothing in steady state.
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
  const ix = 1 / dir.x;
  const iy = 1 / dir.y;
  const iz = 1 / dir.z;
  let best = maxToi;
  let bestTri = -1;
  let top = 0;
  // From outside the mesh's box, the first crossing of a solid mesh's closed surface enters it,
  // through a triangle facing the ray: triangles seen from behind are skipped. Exact, and what
  // decides a hit far from a small mesh, where every triangle's toi rounds to the same double
  // (a ray from 1e100 got the far side's normal).
  const entrySign = mesh.solid && outsideRootBox(bvh, origin) ? entryDetSign(mesh) : 0;
  const e0 = entry(bvh, 0, origin, ix, iy, iz, best);
  if (e0 === Infinity) return false;
  stack[top] = 0;
  entries[top++] = e0;
  while (top > 0) {
    top--;
    const i = stack[top];
    if (entries[top] > best) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const t = bvh.primitives[s];
        const toi = hitTriangle(mesh, t);
        if (toi === Infinity || toi > best) continue;
        if (entrySign * hitDet < 0) continue;
        if (toi < best || bestTri < 0 || t < bestTri) {
          best = toi;
          bestTri = t;
        }
      }
      continue;
    }
    const l = i + 1;
    const r = meshBvhRightChild(bvh, i);
    const el = entry(bvh, l, origin, ix, iy, iz, best);
    const er = entry(bvh, r, origin, ix, iy, iz, best);
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
  writeHit(out, mesh, bestTri, best, origin, dir);
  return true;
}

/** True when local point `p` lies outside the root box of `bvh` (which holds every vertex). */
function outsideRootBox(bvh: MeshBvh, p: Vec3): boolean {
  const b = bvh.bounds;
  return p.x < b[0] || p.y < b[1] || p.z < b[2] || p.x > b[3] || p.y > b[4] || p.z > b[5];
}

/**
 * The sign of {@link hitTriangle}'s determinant for a triangle whose outward normal faces the
 * ray (the solid's entry side): −1 for an outward-wound mesh, +1 for an inward-wound one.
 */
function entryDetSign(mesh: TriangleMesh): number {
  const pn = mesh.pseudoNormals;
  return pn !== null && pn.orientation < 0 ? -1 : 1;
}

function entry(
  bvh: MeshBvh,
  i: number,
  o: Vec3,
  ix: number,
  iy: number,
  iz: number,
  tmax: number,
): number {
  return meshBvhNodeRayEntry(bvh, i, o.x, o.y, o.z, ix, iy, iz, tmax);
}

/** Fills a hit record for triangle t at toi. */
function writeHit(
  out: MeshRayHit,
  mesh: TriangleMesh,
  t: number,
  toi: number,
  origin: Vec3,
  dir: Vec3,
): void {
  out.toi = toi;
  out.triangle = t;
  vec3.addScaled(out.point, origin, dir, toi);
  meshRayHitNormal(out.normal, mesh, t, dir);
}

/**
 * out = the unit normal of triangle `t` at a hit of a ray of direction `dir` (local frame): for
 * a surface mesh the face normal on the side facing the ray's origin (negated when it points
 * along the ray); for a solid mesh (`mesh.solid`) the outward normal, as for every solid shape,
 * so a hollow cast from inside reports its exit with the normal pointing out (along the ray).
 * Returns out.
 */
export function meshRayHitNormal(out: Vec3, mesh: TriangleMesh, t: number, dir: Vec3): Vec3 {
  if (!(meshTriangleNormal(out, mesh, t) > 0)) return vec3.set(out, 0, 0, 0);
  if (mesh.solid && mesh.pseudoNormals !== null) {
    // Outward: the winding's own side when the mesh winds outward, the other one otherwise.
    if (mesh.pseudoNormals.orientation < 0) vec3.negate(out, out);
    return out;
  }
  if (vec3.dot(out, dir) > 0) vec3.negate(out, out);
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
  const ix = 1 / dir.x;
  const iy = 1 / dir.y;
  const iz = 1 / dir.z;
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const i = stack[--top];
    if (entry(bvh, i, origin, ix, iy, iz, maxToi) === Infinity) continue;
    if (isMeshBvhLeaf(bvh, i)) {
      const start = meshBvhLeafOffset(bvh, i);
      const end = start + meshBvhLeafCount(bvh, i);
      for (let s = start; s < end; s++) {
        const t = bvh.primitives[s];
        const toi = hitTriangle(mesh, t);
        if (toi <= maxToi) insertHit(out, toi, t);
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
