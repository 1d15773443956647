/**
 * Slow, obviously correct twins for GJK and EPA on convex polytopes given as point sets (no hull
 * needed):
 *
 * - distance: the distance between two disjoint convex hulls is attained between two of their
 *   boundary features, and every feature lies in some triangle (or segment) spanned by input
 *   points, while every such triangle lies inside its hull. So the minimum over every
 *   vertex × triangle and segment × segment pair of the two point sets is exactly the distance.
 * - SAT: the facet normals of the Minkowski difference A − B are face normals of A or B or cross
 *   products of an edge of A with an edge of B, all found among the normals of point triples and
 *   the cross products of point-pair directions; every other direction only over-estimates.
 *   So the minimum over those axes of the overlap h_A(d) + h_B(−d) is the penetration depth
 *   when positive, and a negative minimum proves separation.
 *
 * Point–triangle and segment–segment distances here are written independently of
 * src/geometry/closest-point.ts (projection plus a 2×2 solve, then the boundary).
 */
import type { Vec3 } from "../../src/math/vec3.js";

type P = readonly [number, number, number];

function sub(a: P, b: P): [number, number, number] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: P, b: P): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function crossP(a: P, b: P): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Squared distance from p to segment [a, b] (clamped projection; a = b allowed). */
export function pointSegmentDistSq(p: P, a: P, b: P): number {
  const e = sub(b, a);
  const ee = dot(e, e);
  let t = ee > 0 ? dot(sub(p, a), e) / ee : 0;
  t = Math.min(1, Math.max(0, t));
  const q: P = [a[0] + e[0] * t, a[1] + e[1] * t, a[2] + e[2] * t];
  const d = sub(p, q);
  return dot(d, d);
}

/** Squared distance from p to triangle abc: plane projection if inside, else the edges. */
export function pointTriangleDistSq(p: P, a: P, b: P, c: P): number {
  const e0 = sub(b, a);
  const e1 = sub(c, a);
  const r = sub(p, a);
  const a00 = dot(e0, e0);
  const a01 = dot(e0, e1);
  const a11 = dot(e1, e1);
  const det = a00 * a11 - a01 * a01;
  let best = Math.min(
    pointSegmentDistSq(p, a, b),
    pointSegmentDistSq(p, b, c),
    pointSegmentDistSq(p, c, a),
  );
  if (det > 1e-14 * a00 * a11) {
    const b0 = dot(r, e0);
    const b1 = dot(r, e1);
    const s = (a11 * b0 - a01 * b1) / det;
    const t = (a00 * b1 - a01 * b0) / det;
    if (s >= 0 && t >= 0 && s + t <= 1) {
      const q: P = [
        a[0] + s * e0[0] + t * e1[0],
        a[1] + s * e0[1] + t * e1[1],
        a[2] + s * e0[2] + t * e1[2],
      ];
      const d = sub(p, q);
      best = Math.min(best, dot(d, d));
    }
  }
  return best;
}

/** Squared distance between segments [p1, q1] and [p2, q2]: interior critical point or ends. */
export function segmentSegmentDistSq(p1: P, q1: P, p2: P, q2: P): number {
  let best = Math.min(
    pointSegmentDistSq(p1, p2, q2),
    pointSegmentDistSq(q1, p2, q2),
    pointSegmentDistSq(p2, p1, q1),
    pointSegmentDistSq(q2, p1, q1),
  );
  const d1 = sub(q1, p1);
  const d2 = sub(q2, p2);
  const r = sub(p1, p2);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const b = dot(d1, d2);
  const den = a * e - b * b;
  if (den > 1e-14 * a * e) {
    const c = dot(d1, r);
    const f = dot(d2, r);
    const s = (b * f - c * e) / den;
    const t = (a * f - b * c) / den;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      const x: P = [p1[0] + d1[0] * s, p1[1] + d1[1] * s, p1[2] + d1[2] * s];
      const y: P = [p2[0] + d2[0] * t, p2[1] + d2[1] * t, p2[2] + d2[2] * t];
      const d = sub(x, y);
      best = Math.min(best, dot(d, d));
    }
  }
  return best;
}

function toP(v: Vec3): P {
  return [v.x, v.y, v.z];
}

/**
 * Distance between the convex hulls of point sets A and B, valid when they are disjoint
 * (for intersecting hulls it returns a positive number or 0; use {@link satOverlap} first).
 */
export function polytopeDistance(a: readonly Vec3[], b: readonly Vec3[]): number {
  const A = a.map(toP);
  const B = b.map(toP);
  let best = Infinity;
  const vertexVsTriangles = (V: P[], T: P[]) => {
    for (let i = 0; i < T.length; i++)
      for (let j = i + 1; j < T.length; j++)
        for (let k = j + 1; k < T.length; k++)
          for (const p of V) best = Math.min(best, pointTriangleDistSq(p, T[i], T[j], T[k]));
    for (const p of V)
      for (let i = 0; i < T.length; i++) {
        best = Math.min(best, dot(sub(p, T[i]), sub(p, T[i])));
        for (let j = i + 1; j < T.length; j++)
          best = Math.min(best, pointSegmentDistSq(p, T[i], T[j]));
      }
  };
  vertexVsTriangles(A, B);
  vertexVsTriangles(B, A);
  for (let i = 0; i < A.length; i++)
    for (let j = i + 1; j < A.length; j++)
      for (let k = 0; k < B.length; k++)
        for (let l = k + 1; l < B.length; l++)
          best = Math.min(best, segmentSegmentDistSq(A[i], A[j], B[k], B[l]));
  return Math.sqrt(best);
}

/** h(d) = max over the points of p·d. */
export function supportValue(pts: readonly Vec3[], d: Vec3): number {
  let m = -Infinity;
  for (const p of pts) m = Math.max(m, p.x * d.x + p.y * d.y + p.z * d.z);
  return m;
}

/** Overlap of A and B along unit d: h_A(d) + h_B(−d) (the depth of moving B by it along d). */
export function overlapAlong(a: readonly Vec3[], b: readonly Vec3[], d: Vec3): number {
  return supportValue(a, d) + supportValue(b, { x: -d.x, y: -d.y, z: -d.z });
}

/**
 * SAT over every candidate axis of two point sets: the minimum overlap and its axis. A positive
 * minimum is the penetration depth; a negative one proves the hulls are disjoint.
 */
export function satOverlap(a: readonly Vec3[], b: readonly Vec3[]): { depth: number; axis: Vec3 } {
  const axes: P[] = [];
  const triNormals = (S: P[]) => {
    for (let i = 0; i < S.length; i++)
      for (let j = i + 1; j < S.length; j++)
        for (let k = j + 1; k < S.length; k++) axes.push(crossP(sub(S[j], S[i]), sub(S[k], S[i])));
  };
  const A = a.map(toP);
  const B = b.map(toP);
  triNormals(A);
  triNormals(B);
  const dirs = (S: P[]) => {
    const out: P[] = [];
    for (let i = 0; i < S.length; i++)
      for (let j = i + 1; j < S.length; j++) out.push(sub(S[j], S[i]));
    return out;
  };
  const da = dirs(A);
  const db = dirs(B);
  for (const u of da) for (const v of db) axes.push(crossP(u, v));
  // Lower-dimensional differences (points, segments): the vertex differences and, for every
  // edge, the perpendicular toward each vertex difference.
  for (const e of [...da, ...db])
    for (const k of [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ] as P[])
      axes.push(crossP(e, k));
  for (const k of [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as P[])
    axes.push(k);
  for (const p of A)
    for (const q of B) {
      const d = sub(p, q);
      axes.push(d);
      for (const e of [...da, ...db]) axes.push(crossP(e, crossP(e, d)));
    }
  let depth = Infinity;
  let axis: Vec3 = { x: 1, y: 0, z: 0 };
  for (const n of axes) {
    const l = Math.hypot(n[0], n[1], n[2]);
    if (!(l > 0)) continue;
    for (const s of [1, -1]) {
      const d = { x: (s * n[0]) / l, y: (s * n[1]) / l, z: (s * n[2]) / l };
      const o = overlapAlong(a, b, d);
      if (o < depth) {
        depth = o;
        axis = d;
      }
    }
  }
  return { depth, axis };
}
