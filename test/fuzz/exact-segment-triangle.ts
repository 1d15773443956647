/**
 * The exact distance of a segment from a triangle in rationals over the input doubles, for the
 * capsule–triangle oracles (test/fuzz/seed-100.test.ts): every coordinate is an integer times one
 * common power of two, so the triangle's normal, the triple products and the segment–edge
 * closed form are exact BigInt fractions. The squared distance is the least of: 0 where the
 * segment meets the triangle (it crosses or touches the plane at a point inside the triangle);
 * an end's squared height over the plane where its foot lies inside the triangle; the segment's
 * squared distance to each edge (the clamped closed form of two segments, and each of the four
 * ends against the other segment, Ericson 2005, §5.1.9). Of a convex triangle and a segment the
 * closest pair is one of those. The square root is taken in integers at 2^-K of the unit and the
 * radius subtracted exactly, so the signed distance of the capsule is the double nearest the
 * true value (one rounding). Written without the library.
 */
import { dy } from "./exact.js";

type V = readonly number[];
/** A non-negative rational n/d, d > 0. */
interface Q {
  n: bigint;
  d: bigint;
}
type IV = [bigint, bigint, bigint];

const sub = (a: IV, b: IV): IV => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: IV, b: IV): bigint => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: IV, b: IV): IV => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const less = (a: Q, b: Q): boolean => a.n * b.d < b.n * a.d;
const clamp01 = (n: bigint, d: bigint): [bigint, bigint] =>
  n <= 0n ? [0n, 1n] : n >= d ? [1n, 1n] : [n, d];

/** Squared distance of integer point x to segment uv (exact). */
function pointSegment(x: IV, u: IV, v: IV): Q {
  const e = sub(v, u);
  const w = sub(x, u);
  const ee = dot(e, e);
  if (ee === 0n) return { n: dot(w, w), d: 1n };
  const [tn, td] = clamp01(dot(w, e), ee);
  // |td·w − tn·e|² / td²
  const r: IV = [td * w[0] - tn * e[0], td * w[1] - tn * e[1], td * w[2] - tn * e[2]];
  return { n: dot(r, r), d: td * td };
}

/** Squared distance of segments pq and uv (exact): the interiors' closed form and the ends. */
function segmentSegment(p: IV, q: IV, u: IV, v: IV): Q {
  let best = pointSegment(p, u, v);
  for (const c of [pointSegment(q, u, v), pointSegment(u, p, q), pointSegment(v, p, q)]) {
    if (less(c, best)) best = c;
  }
  const d1 = sub(q, p);
  const d2 = sub(v, u);
  const r = sub(p, u);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const b = dot(d1, d2);
  const c = dot(d1, r);
  const f = dot(d2, r);
  const den = a * e - b * b;
  if (den !== 0n) {
    // s = (b f − c e)/den on pq, t = (a f − b c)/den on uv: both inside, the interiors' pair.
    const sn = b * f - c * e;
    const tn = a * f - b * c;
    const pos = den > 0n;
    const inside = (n: bigint): boolean => (pos ? n >= 0n && n <= den : n <= 0n && n >= den);
    if (inside(sn) && inside(tn)) {
      const w: IV = [0, 1, 2].map((k) => den * r[k] + sn * d1[k] - tn * d2[k]) as unknown as IV;
      const cand = { n: dot(w, w), d: den * den };
      if (less(cand, best)) best = cand;
    }
  }
  return best;
}

/** All the points' coordinates as integers times one power of two 2^e. */
function integers(points: V[]): { ps: IV[]; e: number } {
  const ds = points.map((p) => p.map((x) => dy(x)));
  let e = Number.POSITIVE_INFINITY;
  for (const p of ds) for (const x of p) if (x.m !== 0n) e = Math.min(e, x.e);
  if (!Number.isFinite(e)) e = 0;
  const ps = ds.map((p) => p.map((x) => x.m << BigInt(x.e - e)) as unknown as IV);
  return { ps, e };
}

/**
 * The exact squared distance of segment pq from triangle abc as a rational n/d in units of
 * 2^(2e) (e returned): see the file's comment.
 */
export function segmentTriangleDistance2(p: V, q: V, a: V, b: V, c: V): Q & { e: number } {
  const {
    ps: [P, Qp, A, B, C],
    e,
  } = integers([p, q, a, b, c]);
  const n = cross(sub(B, A), sub(C, A));
  const nn = dot(n, n);
  let best: Q = segmentSegment(P, Qp, A, B);
  for (const [u, v] of [
    [B, C],
    [C, A],
  ] as [IV, IV][]) {
    const s = segmentSegment(P, Qp, u, v);
    if (less(s, best)) best = s;
  }
  if (nn !== 0n) {
    const edges: [IV, IV][] = [
      [A, B],
      [B, C],
      [C, A],
    ];
    // x's foot inside the triangle (or x itself, scaled by k: ((v − u) × (k x − k u))·n ≥ 0).
    const insideScaled = (x: IV, k: bigint): boolean =>
      edges.every(([u, v]) => {
        const w: IV = [x[0] - k * u[0], x[1] - k * u[1], x[2] - k * u[2]];
        const s = dot(cross(sub(v, u), w), n);
        return k > 0n ? s >= 0n : s <= 0n;
      });
    const hP = dot(n, sub(P, A));
    const hQ = dot(n, sub(Qp, A));
    for (const [x, h] of [
      [P, hP],
      [Qp, hQ],
    ] as [IV, bigint][]) {
      if (insideScaled(x, 1n)) {
        const s = { n: h * h, d: nn };
        if (less(s, best)) best = s;
      }
    }
    if ((hP <= 0n && hQ >= 0n) || (hP >= 0n && hQ <= 0n)) {
      // The crossing X = P + (Q − P)·hP/(hP − hQ), scaled by k = hP − hQ.
      const k = hP - hQ;
      if (k === 0n) {
        // The segment in the plane: an end inside, or a crossing of an edge (covered above at 0).
        if (insideScaled(P, 1n) || insideScaled(Qp, 1n)) best = { n: 0n, d: 1n };
      } else {
        const X: IV = [0, 1, 2].map((i) => k * P[i] + (Qp[i] - P[i]) * hP) as unknown as IV;
        if (insideScaled(X, k)) best = { n: 0n, d: 1n };
      }
    }
  }
  return { ...best, e };
}

/** floor(√x) of a non-negative BigInt (Newton's iteration). */
function isqrt(x: bigint): bigint {
  if (x < 2n) return x;
  let y = BigInt(Math.floor(Math.sqrt(Number(x))));
  // Newton from above.
  if (y * y < x) y = y * 2n + 1n;
  for (;;) {
    const z = (y + x / y) / 2n;
    if (z >= y) break;
    y = z;
  }
  while (y * y > x) y -= 1n;
  while ((y + 1n) * (y + 1n) <= x) y += 1n;
  return y;
}

/**
 * The capsule's exact signed distance from the triangle — the segment's distance less the radius
 * — as the double nearest it (√ taken to 2^-K of the coordinates' unit with K = 200 bits below
 * it, so the one rounding is the conversion's).
 */
export function capsuleTriangleSignedDistance(
  capA: V,
  capB: V,
  radius: number,
  a: V,
  b: V,
  c: V,
): number {
  const { n, d, e } = segmentTriangleDistance2(capA, capB, a, b, c);
  // distance = √(n/d)·2^e; in units of 2^(e − K): √(n·4^K/d).
  const K = 200;
  const root = isqrt((n << BigInt(2 * K)) / d);
  const r = dy(radius);
  // r in units of 2^(e − K): m·2^(r.e − e + K).
  const shift = r.e - e + K;
  const rInt = shift >= 0 ? r.m << BigInt(shift) : r.m >> BigInt(-shift);
  const diff = root - rInt;
  // Number(diff) rounds once; the power of two scales exactly (no underflow at these sizes).
  return Number(diff) * 2 ** (e - K);
}
