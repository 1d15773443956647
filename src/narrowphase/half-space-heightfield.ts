/**
 * Half-space (A) against a heightfield (B), in the field's frame: as for a triangle mesh
 * (src/narrowphase/half-space-vertices.ts), the deepest vertex below the plane gives the exact
 * distance, contact and witnesses, and the vertices within the prediction are the manifold's
 * candidates. Vertex (r, c) is (c·sx, h·sy, r·sz) in B's frame (src/shapes/heightfield.ts), its
 * index r·cols + c the witnesses' feature id; a vertex that only hole cells use is skipped.
 *
 * The search visits the min/max tree's level-0 blocks (each owns the vertices of its cells'
 * rows and columns, the last block also the far border) and skips a block whose box — its
 * columns, rows and [min, max] height — lies beyond the best gap so far (a linear function's
 * minimum over a box is at a corner), with a margin of the rounding of both sides, so the
 * answer is that of the plain loop over every vertex. A field with holes takes the plain loop
 * (its blocks' ranges leave out the vertices that only hole cells use).
 *
 * Before, the pair went through the generic composite mid-phase in A's frame: each triangle
 * was moved there (rounded at the ulp of the field's distance from A's origin: a field of size
 * 1e-6 at 1e3 had gaps 1.2e-12 off, its size's 1e-6), and the manifold came back null for a
 * field wholly inside a tilted half-space (issue 16).
 *
 * Registered half-space first (src/narrowphase/default-pairs.ts); the field-first order is the
 * table's flip.
 */
import type { Isometry } from "../math/isometry.js";
import type { HalfSpace } from "../shapes/half-space.js";
import type { Heightfield } from "../shapes/heightfield.js";
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

/**
 * Relative rounding margin of a block's lower bound: its own rounding and that of a vertex's
 * gap, each a few ulps of the sum of the terms' magnitudes (3 products and 3 sums apiece).
 */
const BLOCK_BOUND_MARGIN = 2 ** -48;

/** Per field with holes: 1 for a vertex some cell that is not a hole uses. */
const usedVertices = new WeakMap<Heightfield, Uint8Array>();

/** The used-vertex mask of `b` (a field with holes; computed once, fields are immutable). */
function usedMask(b: Heightfield, holes: Uint8Array): Uint8Array {
  let m = usedVertices.get(b);
  if (!m) {
    const cols = b.cols;
    const cellCols = cols - 1;
    m = new Uint8Array(b.rows * cols);
    for (let r = 0; r < b.rows - 1; r++) {
      for (let c = 0; c < cellCols; c++) {
        const cell = r * cellCols + c;
        if ((holes[cell >> 3] & (1 << (cell & 7))) !== 0) continue;
        const i = r * cols + c;
        m[i] = 1;
        m[i + 1] = 1;
        m[i + cols] = 1;
        m[i + cols + 1] = 1;
      }
    }
    usedVertices.set(b, m);
  }
  return m;
}

/**
 * [0..3]: the vertex rows [r0, r1] and columns [c0, c1] (inclusive) block (br, bc) owns, set by
 * {@link blockRange}.
 */
const range = new Int32Array(4);

function blockRange(b: Heightfield, br: number, bc: number): void {
  const t = b.tree;
  const B = t.blockCells;
  range[0] = br * B;
  range[1] = br === t.levelRows[0] - 1 ? b.rows - 1 : (br + 1) * B - 1;
  range[2] = bc * B;
  range[3] = bc === t.levelCols[0] - 1 ? b.cols - 1 : (bc + 1) * B - 1;
}

/**
 * [0]: a lower bound of the gaps of the vertices block (br, bc) owns, less the rounding margin
 * (−Infinity for a block with no height range), set by {@link blockLowerBound}.
 */
const bound = new Float64Array(1);

function blockLowerBound(b: Heightfield, br: number, bc: number): void {
  const s = b.scale;
  const o = 2 * (br * b.tree.levelCols[0] + bc);
  const lo = b.tree.bounds[o] * s.y;
  const hi = b.tree.bounds[o + 1] * s.y;
  const nx = planeNormalB.x;
  const ny = planeNormalB.y;
  const nz = planeNormalB.z;
  const d = planeOffsetB[0];
  const x0 = nx * (range[2] * s.x);
  const x1 = nx * (range[3] * s.x);
  const y0 = ny * lo;
  const y1 = ny * hi;
  const z0 = nz * (range[0] * s.z);
  const z1 = nz * (range[1] * s.z);
  const lb = Math.min(x0, x1) + Math.min(y0, y1) + Math.min(z0, z1) - d;
  const mag =
    Math.max(Math.abs(x0), Math.abs(x1)) +
    Math.max(Math.abs(y0), Math.abs(y1)) +
    Math.max(Math.abs(z0), Math.abs(z1)) +
    Math.abs(d);
  // (NaN, from an all-hole block's [+∞, −∞] times a zero component, never prunes.)
  bound[0] = lb - BLOCK_BOUND_MARGIN * mag;
}

/** Loads the plane into B's frame and writes B's deepest vertex into `deepestVertex`. */
function findDeepest(a: HalfSpace, b: Heightfield, bInA: Isometry): void {
  loadPlaneInB(a, bInA);
  const nx = planeNormalB.x;
  const ny = planeNormalB.y;
  const nz = planeNormalB.z;
  const d = planeOffsetB[0];
  const sx = b.scale.x;
  const sy = b.scale.y;
  const sz = b.scale.z;
  const h = b.heights;
  const cols = b.cols;
  let best = Infinity;
  let at = 0;
  const holes = b.holes;
  if (holes !== null) {
    const used = usedMask(b, holes);
    for (let r = 0; r < b.rows; r++) {
      const zr = nz * (r * sz) - d;
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        if (used[i] === 0) continue;
        const s = nx * (c * sx) + ny * (h[i] * sy) + zr;
        if (s < best) {
          best = s;
          at = i;
        }
      }
    }
  } else {
    const nbr = b.tree.levelRows[0];
    const nbc = b.tree.levelCols[0];
    for (let br = 0; br < nbr; br++) {
      for (let bc = 0; bc < nbc; bc++) {
        blockRange(b, br, bc);
        blockLowerBound(b, br, bc);
        if (bound[0] > best) continue;
        for (let r = range[0]; r <= range[1]; r++) {
          const zr = nz * (r * sz) - d;
          for (let c = range[2]; c <= range[3]; c++) {
            const i = r * cols + c;
            const s = nx * (c * sx) + ny * (h[i] * sy) + zr;
            if (s < best || (s === best && i < at)) {
              best = s;
              at = i;
            }
          }
        }
      }
    }
  }
  deepestVertex[0] = best;
  deepestVertex[1] = at;
}

/** Loads vertex `i` of `b` (B's frame) and the deepest gap for `writeWitnesses`. */
function loadVertex(b: Heightfield, i: number): void {
  const r = Math.floor(i / b.cols);
  const c = i - r * b.cols;
  vertexB.x = c * b.scale.x;
  vertexB.y = b.heights[i] * b.scale.y;
  vertexB.z = r * b.scale.z;
  witnessGap[0] = deepestVertex[0];
}

/** True when half-space A and heightfield B overlap or touch (`bInA`: B's pose in A's frame). */
export function intersectsHalfSpaceHeightfield(
  a: HalfSpace,
  b: Heightfield,
  bInA: Isometry,
): boolean {
  findDeepest(a, b, bInA);
  return deepestVertex[0] <= 0;
}

/** Distance (≥ 0) and closest points of half-space A and heightfield B, in A's frame. */
export function distanceHalfSpaceHeightfield(
  out: DistanceResult,
  a: HalfSpace,
  b: Heightfield,
  bInA: Isometry,
): DistanceResult {
  findDeepest(a, b, bInA);
  out.distance = Math.max(0, deepestVertex[0]);
  loadVertex(b, deepestVertex[1]);
  writeWitnesses(out.pointA, out.pointB, a, bInA);
  return out;
}

/**
 * Contact of half-space A and heightfield B in A's frame: false when the gap exceeds
 * `prediction` (scene units); else the deepest vertex's signed distance, A's normal n (from A
 * toward B) and the witnesses (the vertex and its projection onto the plane).
 */
export function contactHalfSpaceHeightfield(
  out: Contact,
  a: HalfSpace,
  b: Heightfield,
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

/** Appends the vertices of rows [r0, r1] × columns [c0, c1] within `limit` from candidate `n` on. */
function collect(
  b: Heightfield,
  used: Uint8Array | null,
  limitIo: Float64Array,
  n: number,
): number {
  const nx = planeNormalB.x;
  const ny = planeNormalB.y;
  const nz = planeNormalB.z;
  const d = planeOffsetB[0];
  const limit = limitIo[0];
  const sx = b.scale.x;
  const sy = b.scale.y;
  const sz = b.scale.z;
  const h = b.heights;
  const cols = b.cols;
  for (let r = range[0]; r <= range[1]; r++) {
    const z = r * sz;
    const zr = nz * z - d;
    for (let c = range[2]; c <= range[3]; c++) {
      const i = r * cols + c;
      if (used !== null && used[i] === 0) continue;
      const x = c * sx;
      const y = h[i] * sy;
      const s = nx * x + ny * y + zr;
      if (!(s <= limit)) continue;
      reserveCandidates(n + 1);
      candidateXyz[3 * n] = x;
      candidateXyz[3 * n + 1] = y;
      candidateXyz[3 * n + 2] = z;
      candidateDistance[n] = s;
      candidateVertex[n++] = i;
    }
  }
  return n;
}

const limitIo = new Float64Array(1);

/**
 * Contact manifold of half-space A and heightfield B in A's frame, given their contact: every
 * vertex within `max(prediction, contact distance)` of the plane is a candidate, and at most four
 * are kept (`finishManifold`).
 */
export function manifoldHalfSpaceHeightfield(
  out: ContactManifold,
  a: HalfSpace,
  b: Heightfield,
  bInA: Isometry,
  contact: Contact,
  prediction: number,
): ContactManifold {
  findDeepest(a, b, bInA);
  limitIo[0] = Math.max(prediction, deepestVertex[0]);
  let n = 0;
  const holes = b.holes;
  if (holes !== null) {
    range[0] = 0;
    range[1] = b.rows - 1;
    range[2] = 0;
    range[3] = b.cols - 1;
    n = collect(b, usedMask(b, holes), limitIo, 0);
  } else {
    const nbr = b.tree.levelRows[0];
    const nbc = b.tree.levelCols[0];
    for (let br = 0; br < nbr; br++) {
      for (let bc = 0; bc < nbc; bc++) {
        blockRange(b, br, bc);
        blockLowerBound(b, br, bc);
        if (bound[0] > limitIo[0]) continue;
        n = collect(b, null, limitIo, n);
      }
    }
  }
  return finishManifold(out, a, bInA, contact, n);
}
