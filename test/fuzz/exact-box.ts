/**
 * Exact rational geometry of boxes and aabbs on the input doubles, for seed 96's oracle: a box's
 * rotation matrix is the quaternion's quadratic form over |q|² (the rotation of q/|q|, rational in
 * q's doubles), so its corners and axes are exact rationals, and so is every separating-axis
 * projection, clip crossing and depth below. Written without the library.
 */

/** n / d exactly (d > 0). */
export interface Q {
  n: bigint;
  d: bigint;
}

const buf = new DataView(new ArrayBuffer(8));

/** The exact value of a finite double. */
export function q(x: number): Q {
  if (x === 0) return { n: 0n, d: 1n };
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const exp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = exp - 1075;
  }
  return e >= 0 ? { n: sign * (m << BigInt(e)), d: 1n } : { n: sign * m, d: 1n << BigInt(-e) };
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x;
}
function reduce(n: bigint, d: bigint): Q {
  const s = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (s * n) / g, d: (s * d) / g };
}
export const add = (a: Q, b: Q): Q => reduce(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Q, b: Q): Q => reduce(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Q, b: Q): Q => reduce(a.n * b.n, a.d * b.d);
export const div = (a: Q, b: Q): Q => reduce(a.n * b.d, a.d * b.n);
export function cmp(a: Q, b: Q): number {
  const x = a.n * b.d - b.n * a.d;
  return x > 0n ? 1 : x < 0n ? -1 : 0;
}
/** The nearest double below or at a (to 2^-200 relative: enough for any comparison in doubles). */
export function toNumber(a: Q): number {
  const neg = a.n < 0n;
  const n = neg ? -a.n : a.n;
  // Scale so that the quotient has ~80 bits.
  const shift = 80 - (n.toString(2).length - a.d.toString(2).length);
  const v = shift >= 0 ? (n << BigInt(shift)) / a.d : n / (a.d << BigInt(-shift));
  const r = Number(v) * 2 ** -shift;
  return neg ? -r : r;
}
/** floor(√n) for n ≥ 0 (Newton on integers). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
/** a / √b as a double (b > 0), to ~2^-100 relative. */
export function overSqrt(a: Q, b: Q): number {
  const S = 256n;
  const r = isqrt((b.d << (2n * S)) / b.n); // √(b.d / b.n) · 2^S
  return toNumber({ n: a.n * r, d: a.d << S });
}

export type QV = [Q, Q, Q];
const dot = (a: QV, b: QV): Q => add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
const crossV = (a: QV, b: QV): QV => [
  sub(mul(a[1], b[2]), mul(a[2], b[1])),
  sub(mul(a[2], b[0]), mul(a[0], b[2])),
  sub(mul(a[0], b[1]), mul(a[1], b[0])),
];

/** A box or aabb (the query's JSON) exactly: its 8 corners (corner c: bit i set for +h_i) and 3 axes. */
export function exactBox(j: Record<string, unknown>): { corners: QV[]; axes: QV[] } {
  const one = q(1);
  const zero = q(0);
  if (j.type === "aabb") {
    const lo = (j.min as number[]).map(q);
    const hi = (j.max as number[]).map(q);
    const corners: QV[] = [];
    for (let c = 0; c < 8; c++) {
      corners.push([c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]]);
    }
    return {
      corners,
      axes: [
        [one, zero, zero],
        [zero, one, zero],
        [zero, zero, one],
      ],
    };
  }
  const [x, y, z, w] = ((j.rotation as number[] | undefined) ?? [0, 0, 0, 1]).map(q);
  const nn = add(add(mul(x, x), mul(y, y)), add(mul(z, z), mul(w, w)));
  const two = q(2);
  const f = (v: Q): Q => div(v, nn);
  const r: Q[][] = [
    [
      f(sub(nn, mul(two, add(mul(y, y), mul(z, z))))),
      f(mul(two, sub(mul(x, y), mul(z, w)))),
      f(mul(two, add(mul(x, z), mul(y, w)))),
    ],
    [
      f(mul(two, add(mul(x, y), mul(z, w)))),
      f(sub(nn, mul(two, add(mul(x, x), mul(z, z))))),
      f(mul(two, sub(mul(y, z), mul(x, w)))),
    ],
    [
      f(mul(two, sub(mul(x, z), mul(y, w)))),
      f(mul(two, add(mul(y, z), mul(x, w)))),
      f(sub(nn, mul(two, add(mul(x, x), mul(y, y))))),
    ],
  ];
  const c = (j.center as number[]).map(q);
  const h = (j.halfExtents as number[]).map(q);
  const axes = [0, 1, 2].map((k) => [r[0][k], r[1][k], r[2][k]] as QV);
  const corners: QV[] = [];
  for (let m = 0; m < 8; m++) {
    const s = [m & 1 ? 1n : -1n, m & 2 ? 1n : -1n, m & 4 ? 1n : -1n];
    corners.push(
      [0, 1, 2].map((row) => {
        let v = c[row];
        for (let k = 0; k < 3; k++) v = add(v, mul({ n: s[k] * h[k].n, d: h[k].d }, r[row][k]));
        return v;
      }) as QV,
    );
  }
  return { corners, axes };
}

/**
 * The separating axis test over the 15 axes, exactly: each axis's overlap of the two projections
 * (positive: overlapping; the least over the axes is the penetration depth of two boxes), as a
 * double to ~2^-100, sorted least first, with the axis's name (A i, B j, E ij) and its side.
 */
export function exactSat(
  ja: Record<string, unknown>,
  jb: Record<string, unknown>,
): { name: string; overlap: number }[] {
  const A = exactBox(ja);
  const B = exactBox(jb);
  const axes: { name: string; l: QV }[] = [];
  A.axes.forEach((a, i) => {
    axes.push({ name: `A${i}`, l: a });
  });
  B.axes.forEach((b, j) => {
    axes.push({ name: `B${j}`, l: b });
  });
  A.axes.forEach((a, i) => {
    B.axes.forEach((b, j) => {
      axes.push({ name: `E${i}${j}`, l: crossV(a, b) });
    });
  });
  const out: { name: string; overlap: number }[] = [];
  for (const { name, l } of axes) {
    const lsq = dot(l, l);
    if (lsq.n === 0n) continue;
    const pa = A.corners.map((p) => dot(p, l));
    const pb = B.corners.map((p) => dot(p, l));
    const max = (xs: Q[]): Q => xs.reduce((m, v) => (cmp(v, m) > 0 ? v : m));
    const min = (xs: Q[]): Q => xs.reduce((m, v) => (cmp(v, m) < 0 ? v : m));
    const o1 = sub(max(pa), min(pb));
    const o2 = sub(max(pb), min(pa));
    out.push({ name, overlap: overSqrt(cmp(o1, o2) <= 0 ? o1 : o2, lsq) });
  }
  return out.sort((u, v) => u.overlap - v.overlap);
}

/**
 * The least coordinate `k` over the box `jb` within the slab lo_j ≤ x_j ≤ hi_j (j ≠ k) of the
 * aabb `ja` (the deepest point of the box below the aabb's face x_k = max, along −e_k, inside that
 * face's prism), exactly: the box's 6 faces clipped to the slab in rationals, the least k-coordinate
 * over the clipped vertices (a linear programme's optimum lies at one). Null when none is inside.
 */
export function exactLowestInPrism(
  ja: Record<string, unknown>,
  jb: Record<string, unknown>,
  k: number,
): Q | null {
  const lo = (ja.min as number[]).map(q);
  const hi = (ja.max as number[]).map(q);
  const { corners } = exactBox(jb);
  let best: Q | null = null;
  for (let ax = 0; ax < 3; ax++) {
    const u = ax === 0 ? 1 : 0;
    const v = ax === 2 ? 1 : 2;
    for (const side of [0, 1]) {
      let poly: QV[] = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ].map(([a, b]) => corners[(side << ax) | (a << u) | (b << v)]);
      for (let j = 0; j < 3; j++) {
        if (j === k) continue;
        for (const [bound, s] of [
          [hi[j], 1n],
          [lo[j], -1n],
        ] as [Q, bigint][]) {
          // Keep s·(x_j − bound) ≤ 0.
          const dist = (p: QV): Q => {
            const t = sub(p[j], bound);
            return { n: s * t.n, d: t.d };
          };
          const next: QV[] = [];
          for (let e = 0; e < poly.length; e++) {
            const p0 = poly[(e + poly.length - 1) % poly.length];
            const p1 = poly[e];
            const d0 = dist(p0);
            const d1 = dist(p1);
            if ((d0.n < 0n && d1.n > 0n) || (d0.n > 0n && d1.n < 0n)) {
              const t = div(d0, sub(d0, d1));
              next.push([0, 1, 2].map((i) => add(p0[i], mul(t, sub(p1[i], p0[i])))) as QV);
            }
            if (d1.n <= 0n) next.push(p1);
          }
          poly = next;
        }
      }
      for (const p of poly) if (best === null || cmp(p[k], best) < 0) best = p[k];
    }
  }
  return best;
}

/**
 * The signed distance of point `p` from the surface of box `j` along its nearest face's normal,
 * exactly up to the final rounding: max over the axes of |(p − c)·u_i| − h_i (≤ 0 inside; for a
 * point beyond one face only, its distance from that face).
 */
export function exactBoxFaceDistance(j: Record<string, unknown>, p: readonly number[]): number {
  const { axes } = exactBox(j);
  const c = (j.center as number[]).map(q);
  const h = (j.halfExtents as number[]).map(q);
  const d: QV = [sub(q(p[0]), c[0]), sub(q(p[1]), c[1]), sub(q(p[2]), c[2])];
  let best: Q | null = null;
  for (let i = 0; i < 3; i++) {
    const l = dot(d, axes[i]);
    const m = sub(l.n < 0n ? { n: -l.n, d: l.d } : l, h[i]);
    if (best === null || cmp(m, best) > 0) best = m;
  }
  return toNumber(best as Q);
}

/**
 * The overlap of boxes `ja` and `jb` along the direction `n` (A toward B, the doubles taken
 * exactly), exactly up to the final rounding: max over A's corners of p·n minus min over B's,
 * over |n| (positive: overlapping that deep along n; a contact normal achieves a depth d when
 * this is at most d).
 */
export function exactOverlapAlong(
  ja: Record<string, unknown>,
  jb: Record<string, unknown>,
  n: readonly number[],
): number {
  const l: QV = [q(n[0]), q(n[1]), q(n[2])];
  const pa = exactBox(ja).corners.map((p) => dot(p, l));
  const pb = exactBox(jb).corners.map((p) => dot(p, l));
  const maxA = pa.reduce((m, v) => (cmp(v, m) > 0 ? v : m));
  const minB = pb.reduce((m, v) => (cmp(v, m) < 0 ? v : m));
  return overSqrt(sub(maxA, minB), dot(l, l));
}

/**
 * The signed distance of point `p` from the surface of box or aabb `j` (the query's JSON) along
 * its nearest face's normal, exactly up to the final rounding (as {@link exactBoxFaceDistance},
 * an aabb by its min and max).
 */
export function exactShapeFaceDistance(j: Record<string, unknown>, p: readonly number[]): number {
  if (j.type !== "aabb") return exactBoxFaceDistance(j, p);
  const lo = j.min as number[];
  const hi = j.max as number[];
  let best: Q | null = null;
  for (let i = 0; i < 3; i++) {
    const x = q(p[i]);
    const a = sub(q(lo[i]), x);
    const b = sub(x, q(hi[i]));
    const m = cmp(a, b) > 0 ? a : b;
    if (best === null || cmp(m, best) > 0) best = m;
  }
  return toNumber(best as Q);
}
