/**
 * Half-space (A) against a triangle mesh (B), in the mesh's frame: the deepest vertex below the
 * plane gives the exact distance, contact and witnesses, and the vertices within the prediction
 * are the manifold's candidates (src/narrowphase/half-space-vertices.ts: why a vertex, why in
 * B's frame, how the answers come back). One pass over the vertices per call; a vertex that no
 * triangle uses is not on the mesh and is skipped. A solid mesh (`solid: true`) gets the same
 * answers: its solid's lowest point along the normal is a vertex too.
 *
 * Registered half-space first (src/narrowphase/default-pairs.ts); the mesh-first order is the
 * table's flip.
 */
import type { Isometry } from "../math/isometry.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { TriangleMesh } from "../shapes/triangle-mesh.js";
import type { Contact, ContactManifold, DistanceResult } from "./contact.js";
import {
  candidateDistance,
  candidateVertex,
  candidateXyz,
  deepestVertex,
  finishManifold,
  loadPlaneInB,
  planeNormalB,
  planeOffsetB,
  reserveCandidates,
  vertexB,
  witnessGap,
  writeWitnesses,
} from "./half-space-vertices.js";

/** Per mesh: 1 for a vertex some triangle uses (a vertex no triangle uses is not on the mesh). */
const usedVertices = new WeakMap<TriangleMesh, Uint8Array>();

/** The used-vertex mask of `b` (computed once per mesh; meshes are immutable). */
function usedMask(b: TriangleMesh): Uint8Array {
  let m = usedVertices.get(b);
  if (!m) {
    m = new Uint8Array(b.vertexCount);
    const ix = b.indices;
    for (let k = 0; k < 3 * b.triangleCount; k++) m[ix[k]] = 1;
    usedVertices.set(b, m);
  }
  return m;
}

/** Loads the plane into B's frame and writes B's deepest vertex into `deepestVertex`. */
function findDeepest(a: HalfSpace, b: TriangleMesh, bInA: Isometry): void {
  loadPlaneInB(a, bInA);
  const nx = planeNormalB.x;
  const ny = planeNormalB.y;
  const nz = planeNormalB.z;
  const d = planeOffsetB[0];
  const v = b.vertices;
  const used = usedMask(b);
  let best = Infinity;
  let at = 0;
  for (let i = 0; i < b.vertexCount; i++) {
    if (used[i] === 0) continue;
    const s = nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2] - d;
    if (s < best) {
      best = s;
      at = i;
    }
  }
  deepestVertex[0] = best;
  deepestVertex[1] = at;
}

/** Loads vertex `i` of `b` and gap `s` for `writeWitnesses`. */
function loadVertex(b: TriangleMesh, i: number): void {
  const v = b.vertices;
  vertexB.x = v[3 * i];
  vertexB.y = v[3 * i + 1];
  vertexB.z = v[3 * i + 2];
  witnessGap[0] = deepestVertex[0];
}

/** True when half-space A and mesh B overlap or touch (`bInA`: B's pose in A's frame). */
export function intersectsHalfSpaceMesh(a: HalfSpace, b: TriangleMesh, bInA: Isometry): boolean {
  findDeepest(a, b, bInA);
  return deepestVertex[0] <= 0;
}

/** Distance (≥ 0) and closest points of half-space A and mesh B, in A's frame. */
export function distanceHalfSpaceMesh(
  out: DistanceResult,
  a: HalfSpace,
  b: TriangleMesh,
  bInA: Isometry,
): DistanceResult {
  findDeepest(a, b, bInA);
  out.distance = Math.max(0, deepestVertex[0]);
  loadVertex(b, deepestVertex[1]);
  writeWitnesses(out.pointA, out.pointB, a, bInA);
  return out;
}

/**
 * Contact of half-space A and mesh B in A's frame: false when the gap exceeds `prediction`
 * (scene units); else the deepest vertex's signed distance, A's normal n (from A toward B) and
 * the witnesses (the vertex and its projection onto the plane).
 */
export function contactHalfSpaceMesh(
  out: Contact,
  a: HalfSpace,
  b: TriangleMesh,
  bInA: Isometry,
  prediction: number,
): boolean {
  findDeepest(a, b, bInA);
  const s = deepestVertex[0];
  if (!(s <= prediction)) return false;
  out.distance = s;
  out.normal.x = a.normal.x;
  out.normal.y = a.normal.y;
  out.normal.z = a.normal.z;
  loadVertex(b, deepestVertex[1]);
  writeWitnesses(out.pointA, out.pointB, a, bInA);
  return true;
}

/**
 * Contact manifold of half-space A and mesh B in A's frame, given their contact: every vertex
 * within `max(prediction, contact distance)` of the plane is a candidate, and at most four are
 * kept (`finishManifold`).
 */
export function manifoldHalfSpaceMesh(
  out: ContactManifold,
  a: HalfSpace,
  b: TriangleMesh,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  findDeepest(a, b, bInA);
  const nx = planeNormalB.x;
  const ny = planeNormalB.y;
  const nz = planeNormalB.z;
  const d = planeOffsetB[0];
  const limit = Math.max(prediction, deepestVertex[0]);
  const v = b.vertices;
  const used = usedMask(b);
  let n = 0;
  for (let i = 0; i < b.vertexCount; i++) {
    if (used[i] === 0) continue;
    const s = nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2] - d;
    if (!(s <= limit)) continue;
    reserveCandidates(n + 1);
    candidateXyz[3 * n] = v[3 * i];
    candidateXyz[3 * n + 1] = v[3 * i + 1];
    candidateXyz[3 * n + 2] = v[3 * i + 2];
    candidateDistance[n] = s;
    candidateVertex[n++] = i;
  }
  return finishManifold(out, a, bInA, contact, n);
}
