/**
 * The exact projection of a point onto the convex hull of a point set, in integer arithmetic on
 * the input doubles (every finite double is m·2^e: all coordinates are brought to one exponent,
 * so they are `BigInt` integers and sums, differences, products and signs are exact). No hull
 * construction of the library is used:
 *
 * - the boundary triangles: every triple of points spanning a plane with all other points on one
 *   side of it (exact orientation signs); with all points on one plane, every triple;
 * - inside: the point on the inner side of (or on) every boundary triangle's plane, or, for a
 *   flat set, at distance 0 from its triangles;
 * - the closest point: the least exact squared distance over the boundary triangles' face
 *   regions (the projection onto the plane when the three edge orientations agree), their edges
 *   (the clamped parameter strictly inside) and their corners, compared as fractions by cross
 *   multiplication. Only the final point and distance are rounded to doubles (once, to nearest
 *   up to 2^-60 relative).
 *
 * Slow (C(n, 3) triples, each against n points) and obviously correct, for small sets (≤ 16
 * points) in tests.
 */

import { dy } from "../fuzz/exact.js";

type I3 = [bigint, bigint, bigint];

/** The answer: the closest point of the hull (the hull's boundary for `boundary*`). */
export interface ExactHullProjection {
  /** True when the point lies in the hull or on its boundary (exactly). */
  inside: boolean;
  /** Distance to the hull (0 inside). */
  distance: number;
  /** The hull's closest point (the point itself inside). */
  point: [number, number, number];
  /** Distance to the hull's boundary (from inside too). */
  boundaryDistance: number;
  /** The boundary's closest point. */
  boundaryPoint: [number, number, number];
}

/** [mantissa, exponent] of a finite double x = m·2^e (m a BigInt; 0 → [0, +∞]). */
function split(x: number): [bigint, number] {
  if (x === 0) return [0n, Number.POSITIVE_INFINITY];
  const d = dy(x);
  return [d.m, d.e];
}

const sub = (a: I3, b: I3): I3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: I3, b: I3): bigint => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: I3, b: I3): I3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const scale = (a: I3, s: bigint): I3 => [a[0] * s, a[1] * s, a[2] * s];
const isZero = (a: I3): boolean => a[0] === 0n && a[1] === 0n && a[2] === 0n;

/** m·2^k for any integer k (m a double near 1 to 2^128: in-range factors applied in turn). */
function ldexp(m: number, k: number): number {
  let r = m;
  while (k > 1000) {
    r *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    r *= 2 ** -1000;
    k += 1000;
  }
  return r * 2 ** k;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : (x < 0n ? -x : x).toString(2).length;
}

/** n/d·2^e as a double (d > 0), to 2^-60 relative before the final rounding. */
function toDouble(n: bigint, d: bigint, e: number): number {
  if (n === 0n) return 0;
  const s = bitLength(d) - bitLength(n) + 64;
  const q = s >= 0 ? (n << BigInt(s)) / d : n / (d << BigInt(-s));
  // q has about 64 bits: its conversion is within 2^-63 relative, then an exact power of two.
  return ldexp(Number(q), e - s);
}

/** √(n/d)·2^e as a double (n ≥ 0, d > 0) at any magnitude of n/d. */
function sqrtRatio(n: bigint, d: bigint, e: number): number {
  if (n === 0n) return 0;
  // n/d = q·2^-s with q of about 128 bits and s even: √ = √q·2^(-s/2).
  let s = bitLength(d) - bitLength(n) + 128;
  if (s % 2 !== 0) s++;
  const q = s >= 0 ? (n << BigInt(s)) / d : n / (d << BigInt(-s));
  return ldexp(Math.sqrt(Number(q)), e - s / 2);
}

/** A candidate closest point: homogeneous X/w (w > 0) with squared distance num/den. */
interface Candidate {
  x: I3;
  w: bigint;
  num: bigint;
  den: bigint;
}

function less(a: Candidate, b: Candidate | null): boolean {
  return b === null || a.num * b.den < b.num * a.den;
}

/** Closest point to p over the triangles' face regions, edges and corners (exact). */
function closest(p: I3, pts: I3[], tris: number[][]): Candidate | null {
  let best: Candidate | null = null;
  const edges = new Set<string>();
  const corners = new Set<number>();
  for (const [i, j, k] of tris) {
    const a = pts[i];
    const b = pts[j];
    const c = pts[k];
    const n = cross(sub(b, a), sub(c, a));
    corners.add(i).add(j).add(k);
    for (const [u, v] of [
      [i, j],
      [j, k],
      [k, i],
    ]) {
      edges.add(u < v ? `${u},${v}` : `${v},${u}`);
    }
    if (isZero(n)) continue;
    // The projection lies on the triangle when p is on the inner side of its three edges.
    const s0 = dot(cross(sub(b, a), sub(p, a)), n);
    const s1 = dot(cross(sub(c, b), sub(p, b)), n);
    const s2 = dot(cross(sub(a, c), sub(p, c)), n);
    if (s0 < 0n || s1 < 0n || s2 < 0n) continue;
    const nn = dot(n, n);
    const h = dot(sub(p, a), n);
    const cand: Candidate = { x: sub(scale(p, nn), scale(n, h)), w: nn, num: h * h, den: nn };
    if (less(cand, best)) best = cand;
  }
  for (const key of edges) {
    const [u, v] = key.split(",").map(Number);
    const a = pts[u];
    const e = sub(pts[v], a);
    const ee = dot(e, e);
    const pa = sub(p, a);
    const t = dot(pa, e);
    if (ee === 0n || t <= 0n || t >= ee) continue;
    const cand: Candidate = {
      x: [a[0] * ee + e[0] * t, a[1] * ee + e[1] * t, a[2] * ee + e[2] * t],
      w: ee,
      num: dot(pa, pa) * ee - t * t,
      den: ee,
    };
    if (less(cand, best)) best = cand;
  }
  for (const i of corners) {
    const d = sub(p, pts[i]);
    const cand: Candidate = { x: pts[i], w: 1n, num: dot(d, d), den: 1n };
    if (less(cand, best)) best = cand;
  }
  return best;
}

/** A hull's points in exact integers, its boundary triangles and outward orientation. */
export interface ExactHull {
  readonly points: readonly (readonly number[])[];
  /** Every coordinate is an integer times 2^e0. */
  readonly e0: number;
  readonly flat: boolean;
  /** Boundary triples, oriented so every point lies on the non-positive side. */
  readonly triangles: number[][];
}

/** The boundary triangles of the hull of `points` (exact). */
export function exactHull(points: readonly (readonly number[])[], query: number[] = []): ExactHull {
  let e0 = Number.POSITIVE_INFINITY;
  for (const p of points) for (const x of p) e0 = Math.min(e0, split(x)[1]);
  for (const x of query) e0 = Math.min(e0, split(x)[1]);
  if (!Number.isFinite(e0)) e0 = 0;
  const pts = points.map((p) => toInts(p, e0));
  const n = pts.length;
  const triangles: number[][] = [];
  let anyThick = false;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const nrm = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
        if (isZero(nrm)) continue;
        let pos = false;
        let neg = false;
        for (let m = 0; m < n; m++) {
          const s = dot(sub(pts[m], pts[i]), nrm);
          if (s > 0n) pos = true;
          else if (s < 0n) neg = true;
        }
        if (pos && neg) continue;
        if (pos || neg) anyThick = true;
        triangles.push(pos ? [i, k, j] : [i, j, k]);
      }
    }
  }
  // A set with a point off some triangle's plane is solid (no triple has every point on its
  // plane); a flat set's triples are all boundary.
  const flat = !anyThick;
  return { points, e0, flat, triangles };
}

function toInts(p: readonly number[], e0: number): I3 {
  return [0, 1, 2].map((k) => {
    const [m, e] = split(p[k]);
    return m === 0n ? 0n : m << BigInt(e - e0);
  }) as I3;
}

/**
 * The exact projection of `q` onto the hull of `points` (its solid and its boundary), rounded
 * once to doubles. Allocates; for tests.
 */
export function exactHullProjection(
  points: readonly (readonly number[])[],
  q: readonly number[],
): ExactHullProjection {
  const hull = exactHull(points, [...q]);
  return projectOntoExactHull(hull, q);
}

/** As {@link exactHullProjection} on a hull already made (its e0 must hold q's bits). */
export function projectOntoExactHull(hull: ExactHull, q: readonly number[]): ExactHullProjection {
  let e0 = hull.e0;
  for (const x of q) e0 = Math.min(e0, split(x)[1]);
  const pts = hull.points.map((p) => toInts(p, e0));
  const p = toInts(q, e0);
  const c = closest(p, pts, hull.triangles);
  if (c === null) throw new Error("exactHullProjection: no boundary (all points on one line?)");
  let inside: boolean;
  if (hull.flat) inside = c.num === 0n;
  else {
    inside = true;
    for (const [i, j, k] of hull.triangles) {
      const nrm = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
      if (dot(sub(p, pts[i]), nrm) > 0n) {
        inside = false;
        break;
      }
    }
  }
  const cp = [0, 1, 2].map((k) => toDouble(c.x[k], c.w, e0)) as [number, number, number];
  const cd = sqrtRatio(c.num, c.den, e0);
  return {
    inside,
    distance: inside ? 0 : cd,
    point: inside ? [q[0], q[1], q[2]] : cp,
    boundaryDistance: cd,
    boundaryPoint: cp,
  };
}

/** The exact projection of `q` onto a triangle mesh's surface, rounded once to doubles. */
export interface ExactMeshProjection {
  /** Distance from q to the nearest triangle (0 on the surface). */
  distance: number;
  /** The nearest point of the triangles (exactly nearest; rounded once). */
  point: [number, number, number];
}

/**
 * The exact projection of `q` onto the union of the triangles `indices` (triples into
 * `vertices`): {@link exactHullProjection}'s face-region, edge and corner candidates over those
 * triangles, compared as exact fractions (no hull: any mesh, open or closed, with any slivers).
 * Allocates; for tests on small meshes.
 */
export function exactMeshProjection(
  vertices: readonly (readonly number[])[],
  indices: readonly (readonly number[])[],
  q: readonly number[],
): ExactMeshProjection {
  let e0 = Number.POSITIVE_INFINITY;
  for (const p of vertices) for (const x of p) e0 = Math.min(e0, split(x)[1]);
  for (const x of q) e0 = Math.min(e0, split(x)[1]);
  if (!Number.isFinite(e0)) e0 = 0;
  const pts = vertices.map((p) => toInts(p, e0));
  const c = closest(
    toInts(q, e0),
    pts,
    indices.map((t) => [t[0], t[1], t[2]]),
  );
  if (c === null) throw new Error("exactMeshProjection: no triangles");
  return {
    distance: sqrtRatio(c.num, c.den, e0),
    point: [0, 1, 2].map((k) => toDouble(c.x[k], c.w, e0)) as [number, number, number],
  };
}
