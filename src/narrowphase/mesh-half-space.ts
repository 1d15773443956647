/**
 * Triangle mesh (A) against half-space (B), in A's frame. The signed distance to B's plane is
 * linear, so over a mesh (closed or not) its minimum is reached at a vertex: the deepest vertex
 * gives the exact distance, contact and witness points, and the vertices within the prediction
 * distance are the manifold's candidates, reduced to at most four (`reduceManifoldPoints`,
 * the deepest kept). One pass over the vertices per call (Ericson 2005, §5.2.2: a point's
 * distance to a plane; the polytope's extreme point along a direction is a vertex).
 *
 * B's solid side is `n·x ≤ offset` in B's frame; in A's frame that is `nA·x ≤ dA` with
 * `nA = R_B n` and `dA = offset + nA·t_B`. Normals point from A toward B's solid side (−nA).
 */
import { reduceManifoldPoints } from "../geometry/clip.js";
import type { Isometry } from "../math/isometry.js";
import * as quat from "../math/quat.js";
import { growFloat64, growInt32 } from "../math/typed-arrays.js";
import * as vec3 from "../math/vec3.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import {
  type Contact,
  type ContactManifold,
  type DistanceResult,
  MAX_MANIFOLD_POINTS,
} from "./contact.js";

const nA = vec3.create();
/** [0]: the deepest signed distance, [1]: its vertex index, [2]: the plane offset dA. */
const deepest = new Float64Array(3);
let candidateXyz = new Float64Array(3 * 64);
let candidateDistance = new Float64Array(64);
let candidateVertex = new Int32Array(64);
const chosen = new Int32Array(MAX_MANIFOLD_POINTS);

/** Per mesh: 1 for a vertex some triangle uses (a vertex no triangle uses is not on the mesh). */
const usedVertices = new WeakMap<TriangleMesh, Uint8Array>();

/** The used-vertex mask of `a` (computed once per mesh; meshes are immutable). */
function usedMask(a: TriangleMesh): Uint8Array {
  let m = usedVertices.get(a);
  if (!m) {
    m = new Uint8Array(a.vertexCount);
    const ix = a.indices;
    for (let k = 0; k < 3 * a.triangleCount; k++) m[ix[k]] = 1;
    usedVertices.set(a, m);
  }
  return m;
}

/** Writes nA and the deepest vertex of `a` below B's plane into `deepest` (module docs). */
function findDeepest(a: TriangleMesh, b: HalfSpace, bInA: Isometry): void {
  quat.rotate(nA, bInA.rotation, b.normal);
  const dA = b.offset + vec3.dot(nA, bInA.translation);
  const v = a.vertices;
  const used = usedMask(a);
  let best = Infinity;
  let at = 0;
  for (let i = 0; i < a.vertexCount; i++) {
    if (used[i] === 0) continue;
    const s = nA.x * v[3 * i] + nA.y * v[3 * i + 1] + nA.z * v[3 * i + 2] - dA;
    if (s < best) {
      best = s;
      at = i;
    }
  }
  deepest[0] = best;
  deepest[1] = at;
  deepest[2] = dA;
}

/** out = vertex `i` of `a`, and `proj` its projection onto the plane at signed distance `s`. */
function witnesses(pA: vec3.Vec3, pB: vec3.Vec3, a: TriangleMesh, i: number, s: number): void {
  const v = a.vertices;
  pA.x = v[3 * i];
  pA.y = v[3 * i + 1];
  pA.z = v[3 * i + 2];
  pB.x = pA.x - s * nA.x;
  pB.y = pA.y - s * nA.y;
  pB.z = pA.z - s * nA.z;
}

/** True when mesh A and half-space B overlap or touch (A's frame: `bInA` is B's pose in A). */
export function intersectsMeshHalfSpace(a: TriangleMesh, b: HalfSpace, bInA: Isometry): boolean {
  findDeepest(a, b, bInA);
  return deepest[0] <= 0;
}

/** Distance (≥ 0) and closest points of mesh A and half-space B, in A's frame. */
export function distanceMeshHalfSpace(
  out: DistanceResult,
  a: TriangleMesh,
  b: HalfSpace,
  bInA: Isometry,
): DistanceResult {
  findDeepest(a, b, bInA);
  const s = deepest[0];
  out.distance = Math.max(0, s);
  witnesses(out.pointA, out.pointB, a, deepest[1], s);
  return out;
}

/**
 * Contact of mesh A and half-space B in A's frame: false when the gap exceeds `prediction`
 * (scene units); else the signed distance of the deepest vertex, the normal −nA and the witness
 * points (the vertex and its projection onto the plane).
 */
export function contactMeshHalfSpace(
  out: Contact,
  a: TriangleMesh,
  b: HalfSpace,
  bInA: Isometry,
  prediction: number,
): boolean {
  findDeepest(a, b, bInA);
  const s = deepest[0];
  if (!(s <= prediction)) return false;
  out.distance = s;
  vec3.negate(out.normal, nA);
  witnesses(out.pointA, out.pointB, a, deepest[1], s);
  return true;
}

/**
 * Contact manifold of mesh A and half-space B in A's frame, given their contact: every vertex
 * within `max(prediction, contact distance)` of the plane is a candidate, and at most four are
 * kept by `reduceManifoldPoints` (largest area, deepest kept; feature id = vertex index).
 */
export function manifoldMeshHalfSpace(
  out: ContactManifold,
  a: TriangleMesh,
  b: HalfSpace,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  findDeepest(a, b, bInA);
  const dA = deepest[2];
  const limit = Math.max(prediction, deepest[0]);
  const v = a.vertices;
  const used = usedMask(a);
  let n = 0;
  for (let i = 0; i < a.vertexCount; i++) {
    if (used[i] === 0) continue;
    const s = nA.x * v[3 * i] + nA.y * v[3 * i + 1] + nA.z * v[3 * i + 2] - dA;
    if (!(s <= limit)) continue;
    candidateXyz = growFloat64(candidateXyz, 3 * n + 3);
    candidateDistance = growFloat64(candidateDistance, n + 1);
    candidateVertex = growInt32(candidateVertex, n + 1);
    candidateXyz[3 * n] = v[3 * i];
    candidateXyz[3 * n + 1] = v[3 * i + 1];
    candidateXyz[3 * n + 2] = v[3 * i + 2];
    candidateDistance[n] = s;
    candidateVertex[n++] = i;
  }
  vec3.negate(out.normal, nA);
  const count = reduceManifoldPoints(chosen, candidateXyz, candidateDistance, n, out.normal);
  for (let k = 0; k < count; k++) {
    const c = chosen[k];
    const p = out.points[k];
    witnesses(p.pointA, p.pointB, a, candidateVertex[c], candidateDistance[c]);
    p.distance = candidateDistance[c];
    p.featureId = candidateVertex[c];
  }
  out.count = count;
  if (count === 0) {
    // (No candidate: cannot happen after a contact, whose deepest vertex is one; kept total.)
    const p = out.points[0];
    vec3.copy(p.pointA, contact.pointA);
    vec3.copy(p.pointB, contact.pointB);
    p.distance = contact.distance;
    p.featureId = 0;
    out.count = 1;
  }
  return out;
}
