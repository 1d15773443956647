/**
 * What the half-space's pairs with a vertex-bounded composite share (a triangle mesh:
 * src/narrowphase/mesh-half-space.ts; a heightfield: src/narrowphase/half-space-heightfield.ts).
 * The signed distance to a plane is linear, so over a surface of triangles (or the solid a
 * closed mesh bounds) its minimum is reached at a vertex (Ericson 2005, §5.2.2; the extreme
 * point of a polytope along a direction is a vertex): the deepest vertex gives the exact
 * distance, contact and witnesses, and the vertices within the prediction are the manifold's
 * candidates, reduced to at most four.
 *
 * Everything is computed in the composite's own frame (B's), where the vertices are stored:
 * the routines are registered half-space first, so a half-space given in the world (a query's
 * JSON form, a world body at the identity) sees the composite's world pose exactly, and the
 * plane's offset from the composite's origin, o − n·t, is formed with Dot2 and rounded once
 * (Ogita, Rump and Oishi 2005; as src/narrowphase/convex-half-space.ts's `planeOffsetAt`), its
 * normal rotated into B's frame.
 * Each vertex's gap n_B·v − o_B then carries the rounding of B's size, not of B's distance from
 * the origin: a mesh of size 1 at 1e9 had gaps 9e-7 off in A's frame (the relative pose rounded
 * at the ulp of 1e9), 1e-6 at 1e3 for a mesh of 1e-6 (issue 16, "far from the origin").
 *
 * The answers come back into A's frame: the normal is A's own n (from the half-space toward
 * B), `pointB` the vertex moved by `bInA` and `pointA` its projection onto the plane along n by
 * the gap measured in B's frame. No allocation per call: module scratch, candidate arrays that
 * grow once; no double passes through a call (the gap goes through `witnessGap`).
 */
import { reduceManifoldPoints } from "../geometry/clip.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { growFloat64, growInt32 } from "../math/typed-arrays.js";
import * as vec3 from "../math/vec3.js";
import type { HalfSpace } from "../shapes/half-space.js";
import { type Contact, type ContactManifold, MAX_MANIFOLD_POINTS } from "./contact.js";

/** The plane's normal in B's frame (set by {@link loadPlaneInB}). */
export const planeNormalB = vec3.create();
/** [0]: the plane's offset in B's frame, o − n·t (set by {@link loadPlaneInB}). */
export const planeOffsetB = new Float64Array(1);
/** [0]: the deepest vertex's signed distance, [1]: its index (set by the callers' searches). */
export const deepestVertex = new Float64Array(2);
/** A vertex in B's frame, for {@link writeWitnesses}. */
export const vertexB = vec3.create();
/** [0]: the gap of {@link vertexB}, for {@link writeWitnesses}. */
export const witnessGap = new Float64Array(1);

/** The manifold's candidates (B's frame): xyz, signed distance, vertex index. */
export let candidateXyz = new Float64Array(3 * 64);
export let candidateDistance = new Float64Array(64);
export let candidateVertex = new Int32Array(64);
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);
const reduceNormal = vec3.create();

/** Veltkamp's splitting constant 2^27 + 1 (Dekker's exact product; src/math/scalar.ts). */
const SPLIT = 134217729;

/**
 * Loads half-space `a`'s plane into B's frame (`bInA`: B's pose in A's frame; module docs): the
 * offset o − n·t by Dot2 as `planeOffsetAt` (src/narrowphase/convex-half-space.ts) forms it,
 * written out here with no call: inlined into the routines with its six calls to the scalar
 * helpers, V8 kept some of them out of line and boxed their doubles (64 bytes per call, a
 * world of meshes on a plane collected garbage).
 */
export function loadPlaneInB(a: HalfSpace, bInA: Isometry): void {
  const n = a.normal;
  const t = bInA.translation;
  const nx = n.x;
  const ny = n.y;
  const nz = n.z;
  const tx = t.x;
  const ty = t.y;
  const tz = t.z;
  const px = nx * tx;
  const py = ny * ty;
  const pz = nz * tz;
  // Each product's rounding error exactly (Dekker's TwoProduct through Veltkamp's split).
  let c = SPLIT * nx;
  let ah = c - (c - nx);
  let al = nx - ah;
  c = SPLIT * tx;
  let bh = c - (c - tx);
  let bl = tx - bh;
  let e = ah * bh - px + ah * bl + al * bh + al * bl;
  c = SPLIT * ny;
  ah = c - (c - ny);
  al = ny - ah;
  c = SPLIT * ty;
  bh = c - (c - ty);
  bl = ty - bh;
  e += ah * bh - py + ah * bl + al * bh + al * bl;
  c = SPLIT * nz;
  ah = c - (c - nz);
  al = nz - ah;
  c = SPLIT * tz;
  bh = c - (c - tz);
  bl = tz - bh;
  e += ah * bh - pz + ah * bl + al * bh + al * bl;
  // o − px − py − pz, each sum's rounding error exactly (Knuth's TwoSum).
  const o = a.offset;
  const s1 = o - px;
  let bb = s1 - o;
  let err = o - (s1 - bb) + (-px - bb);
  const s2 = s1 - py;
  bb = s2 - s1;
  err += s1 - (s2 - bb) + (-py - bb);
  const s3 = s2 - pz;
  bb = s3 - s2;
  err += s2 - (s3 - bb) + (-pz - bb);
  let d = s3 + (err - e);
  // Overflowing splits (|n|·|t| near the largest double) give NaN or infinite errors: the plain
  // rounded offset then (finite when the pose is).
  if (!(d - d === 0)) d = o - (px + py + pz);
  planeOffsetB[0] = d;
  quat.inverseRotate(planeNormalB, bInA.rotation, a.normal);
}

/** Makes room for `n` candidates (the arrays grow by doubling and are kept). */
export function reserveCandidates(n: number): void {
  if (n <= candidateDistance.length) return;
  candidateXyz = growFloat64(candidateXyz, 3 * n);
  candidateDistance = growFloat64(candidateDistance, n);
  candidateVertex = growInt32(candidateVertex, n);
}

/**
 * Writes the witnesses in A's frame of {@link vertexB} at gap `witnessGap[0]`: the vertex moved
 * by `bInA` into `pointB`, its projection onto the plane along A's normal into `pointA`.
 */
export function writeWitnesses(
  pointA: vec3.Vec3,
  pointB: vec3.Vec3,
  a: HalfSpace,
  bInA: Isometry,
): void {
  iso.transformPoint(pointB, bInA, vertexB);
  const s = witnessGap[0];
  const n = a.normal;
  pointA.x = pointB.x - s * n.x;
  pointA.y = pointB.y - s * n.y;
  pointA.z = pointB.z - s * n.z;
}

/**
 * The manifold in A's frame from the first `count` candidates: at most four kept by
 * `reduceManifoldPoints` (largest area, the deepest kept; feature id = vertex index), the normal
 * A's n; with no candidate (not after a contact, whose deepest vertex is one) the contact's
 * one point.
 */
export function finishManifold(
  out: ContactManifold,
  a: HalfSpace,
  bInA: Isometry,
  contact: Contact,
  count: number,
): ContactManifold {
  vec3.negate(reduceNormal, planeNormalB);
  const kept = reduceManifoldPoints(chosen, candidateXyz, candidateDistance, count, reduceNormal);
  vec3.copy(out.normal, a.normal);
  for (let k = 0; k < kept; k++) {
    const c = chosen[k];
    const p = out.points[k];
    vertexB.x = candidateXyz[3 * c];
    vertexB.y = candidateXyz[3 * c + 1];
    vertexB.z = candidateXyz[3 * c + 2];
    witnessGap[0] = candidateDistance[c];
    writeWitnesses(p.pointA, p.pointB, a, bInA);
    p.distance = candidateDistance[c];
    p.featureId = candidateVertex[c];
  }
  out.count = kept;
  if (kept === 0) {
    const p = out.points[0];
    vec3.copy(p.pointA, contact.pointA);
    vec3.copy(p.pointB, contact.pointB);
    p.distance = contact.distance;
    p.featureId = 0;
    out.count = 1;
  }
  return out;
}
