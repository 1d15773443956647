/**
 * The differential fuzzer's model of the `collide query` JSON shapes, written independently of
 * src/: each shape is read straight from its JSON (FORMATS.md) into world-frame convex pieces,
 * each with an exact support function, a closest-point projection and a signed distance, all by
 * closed forms (sphere, box, capsule, cylinder, cone, triangle) or by brute force over the hull's
 * point triples (convex). A mesh is the union of its triangles (a surface); a compound the union
 * of its children. Nothing here imports the library.
 */

import { type Dy, dmul, dsub, dy } from "./exact.js";

/** A 3-vector as a tuple (world frame). */
export type V = [number, number, number];

export const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: V): number => Math.hypot(a[0], a[1], a[2]);
export const dist = (a: V, b: V): number => norm(sub(a, b));
export function unit(a: V): V {
  const n = norm(a);
  if (!(n > 0)) return [0, 0, 0];
  const r = 1 / n;
  if (Number.isFinite(r)) return scale(a, r);
  // A subnormal length (a shape moved by w·t at t = 5e-324, seed 99): 1/n overflows to Infinity and
  // the components to NaN. Divide by the largest component first (a quotient ≤ 1), then normalise.
  const m = Math.max(Math.abs(a[0]), Math.abs(a[1]), Math.abs(a[2]));
  const b: V = [a[0] / m, a[1] / m, a[2] / m];
  return scale(b, 1 / norm(b));
}

/** A rotation matrix (rows) from a quaternion [x, y, z, w], normalised first. */
export function quatMatrix(q: readonly number[] | undefined): number[][] {
  if (!q) {
    return [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
  }
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const [x, y, z, w] = [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}
const mul = (m: number[][], v: V): V => [
  m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
  m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
  m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
];
const mulT = (m: number[][], v: V): V => [
  m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
  m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
  m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
];
/** R·v: v turned by the quaternion q = [x, y, z, w] ({@link quatMatrix}'s R). */
export const rotate = (q: readonly number[] | undefined, v: V): V => mul(quatMatrix(q), v);
/** Rᵀ·v: v turned back by the quaternion q = [x, y, z, w] (the inverse of {@link rotate}). */
export const unrotate = (q: readonly number[] | undefined, v: V): V => mulT(quatMatrix(q), v);
function composeRot(a: number[][], b: number[][]): number[][] {
  const out = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i][j] += a[i][k] * b[k][j];
  return out;
}

/** A world-frame convex piece. */
export interface Piece {
  /** A point of the set extreme along d (d need not be unit). */
  support(d: V): V;
  /** The closest point of the (solid) set to p; p itself inside. */
  closest(p: V): V;
  /** Signed distance: > 0 outside, < 0 inside (0 for every point of a flat triangle). */
  signed(p: V): number;
  /** A point inside (or on) the set. */
  center: V;
  /** Bounding radius about `center`. */
  radius: number;
}

/** A shape of the fuzzer: convex pieces (one when convex), or a half-space. */
export interface OShape {
  type: string;
  json: unknown;
  pieces: Piece[];
  convex: boolean;
  halfspace: { n: V; o: number } | null;
  /** Bounding centre and radius (the half-space: its plane's closest point to the origin, 0). */
  center: V;
  radius: number;
  /** Every vertex of a polytope (box, convex, triangle, mesh) in the world frame, else null. */
  vertices: V[] | null;
  /** Edge directions and face normals of a polytope (for SAT axes), else empty. */
  edges: V[];
  normals: V[];
}

function seg(p: V, a: V, b: V): V {
  const e = sub(b, a);
  const ee = dot(e, e);
  let t = ee > 0 ? dot(sub(p, a), e) / ee : 0;
  t = Math.max(0, Math.min(t, 1));
  return add(a, scale(e, t));
}

/**
 * Closest point of triangle abc to p by its Voronoi regions (Ericson 2005, §5.1.5, written here
 * independently): a second oracle beside {@link closestOnTriangle}, with other rounding. A
 * triangle with a zero-length edge (two corners equal: a segment or a point) is the nearest of
 * its edges' points (its regions' divisions would be 0/0).
 */
export function closestOnTriangleVoronoi(p: V, a: V, b: V, c: V): V {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const bc = sub(c, b);
  if (dot(ab, ab) === 0 || dot(ac, ac) === 0 || dot(bc, bc) === 0) {
    let best = seg(p, a, b);
    for (const q of [seg(p, b, c), seg(p, c, a)]) if (dist(p, q) < dist(p, best)) best = q;
    return best;
  }
  const ap = sub(p, a);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, scale(ab, d1 / (d1 - d3)));
  const cp = sub(p, c);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, scale(ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    return add(b, scale(sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6))));
  }
  const den = 1 / (va + vb + vc);
  return add(a, add(scale(ab, vb * den), scale(ac, vc * den)));
}

/**
 * Closest distance of segments p0p1 and q0q1 by clamped parameters (Ericson 2005, §5.1.9,
 * written here independently; a point-like segment is a point).
 */
export function segmentSegmentDistance(p0: V, p1: V, q0: V, q1: V): number {
  const d1 = sub(p1, p0);
  const d2 = sub(q1, q0);
  const r = sub(p0, q0);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  const clamp = (x: number): number => Math.min(1, Math.max(0, x));
  let s = 0;
  let t = 0;
  if (a === 0 && e === 0) return norm(r);
  if (a === 0) t = clamp(f / e);
  else {
    const c = dot(d1, r);
    if (e === 0) s = clamp(-c / a);
    else {
      const b = dot(d1, d2);
      const den = a * e - b * b;
      s = den > 0 ? clamp((b * f - c * e) / den) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp((b - c) / a);
      }
    }
  }
  return dist(add(p0, scale(d1, s)), add(q0, scale(d2, t)));
}

/** A dyadic rational to the nearest double (to about 2^-60 relative: its top 64 bits). */
function dyNumber(d: Dy): number {
  let m = d.m;
  let e = d.e;
  const neg = m < 0n;
  if (neg) m = -m;
  const bits = m.toString(2).length;
  if (bits > 64) {
    m >>= BigInt(bits - 64);
    e += bits - 64;
  }
  const x = Number(m) * 2 ** Math.max(e, -1000) * 2 ** Math.min(0, e + 1000);
  return neg ? -x : x;
}

/**
 * (b − a) × (c − a) of a triangle's input doubles, each component exact (dyadic) then rounded:
 * right to about an ulp however thin the triangle, [0, 0, 0] exactly when its corners are
 * collinear (the rounded cross product of a sliver is noise).
 */
export function exactTriangleNormal(a: V, b: V, c: V): V {
  const u = [0, 1, 2].map((k) => dsub(dy(b[k]), dy(a[k])));
  const w = [0, 1, 2].map((k) => dsub(dy(c[k]), dy(a[k])));
  const comp = (i: number, j: number) => dyNumber(dsub(dmul(u[i], w[j]), dmul(u[j], w[i])));
  return [comp(1, 2), comp(2, 0), comp(0, 1)];
}

/**
 * Closest point of triangle abc to p (projection when inside, else the nearest edge point). A
 * sliver (twice its area below 1e-3 of its longest edge squared) takes its exactly computed
 * normal ({@link exactTriangleNormal}); corners collinear in exact arithmetic, its three edges.
 */
export function closestOnTriangle(p: V, a: V, b: V, c: V): V {
  let n = cross(sub(b, a), sub(c, a));
  const l2 = Math.max(
    dot(sub(b, a), sub(b, a)),
    dot(sub(c, a), sub(c, a)),
    dot(sub(c, b), sub(c, b)),
  );
  if (!(norm(n) > 1e-3 * l2)) n = exactTriangleNormal(a, b, c);
  const nn = dot(n, n);
  if (nn > 0) {
    const q = sub(p, scale(n, dot(sub(p, a), n) / nn));
    const s1 = dot(cross(sub(b, a), sub(q, a)), n);
    const s2 = dot(cross(sub(c, b), sub(q, b)), n);
    const s3 = dot(cross(sub(a, c), sub(q, c)), n);
    if (s1 >= 0 && s2 >= 0 && s3 >= 0) return q;
  }
  let best = seg(p, a, b);
  let bd = dist(p, best);
  for (const q of [seg(p, b, c), seg(p, c, a)]) {
    const d = dist(p, q);
    if (d < bd) {
      bd = d;
      best = q;
    }
  }
  return best;
}

function posed(rot: number[][], t: V, local: Piece & { r: number }): Piece {
  return {
    support: (d) => add(mul(rot, local.support(mulT(rot, d))), t),
    closest: (p) => add(mul(rot, local.closest(mulT(rot, sub(p, t)))), t),
    signed: (p) => local.signed(mulT(rot, sub(p, t))),
    center: add(mul(rot, local.center), t),
    radius: local.r,
  };
}

/**
 * The points within r of a convex piece (a rounded box or hull: the core swept by a ball): the
 * support moves r along d, the signed distance drops by r, and a point outside is pulled to r
 * from its closest core point.
 */
function inflated(core: Piece, r: number): Piece {
  return {
    support: (d) => add(core.support(d), scale(unit(d), r)),
    closest: (p) => {
      const q = core.closest(p);
      const n = dist(p, q);
      return n <= r ? p : add(q, scale(sub(p, q), r / n));
    },
    signed: (p) => core.signed(p) - r,
    center: core.center,
    radius: core.radius + r,
  };
}

function sphereLocal(r: number): Piece & { r: number } {
  return {
    support: (d) => scale(unit(d), r),
    closest: (p) => {
      const n = norm(p);
      return n <= r ? p : scale(p, r / n);
    },
    signed: (p) => norm(p) - r,
    center: [0, 0, 0],
    radius: r,
    r,
  };
}

function boxLocal(h: V): Piece & { r: number } {
  return {
    support: (d) => [d[0] >= 0 ? h[0] : -h[0], d[1] >= 0 ? h[1] : -h[1], d[2] >= 0 ? h[2] : -h[2]],
    closest: (p) => [
      Math.min(h[0], Math.max(-h[0], p[0])),
      Math.min(h[1], Math.max(-h[1], p[1])),
      Math.min(h[2], Math.max(-h[2], p[2])),
    ],
    signed: (p) => {
      const q: V = [Math.abs(p[0]) - h[0], Math.abs(p[1]) - h[1], Math.abs(p[2]) - h[2]];
      const out = norm([Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0)]);
      return out > 0 ? out : Math.max(q[0], q[1], q[2]);
    },
    center: [0, 0, 0],
    radius: norm(h),
    r: norm(h),
  };
}

function capsuleWorld(a: V, b: V, r: number): Piece {
  return {
    support: (d) => add(dot(a, d) >= dot(b, d) ? a : b, scale(unit(d), r)),
    closest: (p) => {
      const q = seg(p, a, b);
      const n = dist(p, q);
      return n <= r ? p : add(q, scale(sub(p, q), r / n));
    },
    signed: (p) => dist(p, seg(p, a, b)) - r,
    center: scale(add(a, b), 0.5),
    radius: dist(a, b) / 2 + r,
  };
}

function cylinderLocal(hh: number, r: number): Piece & { r: number } {
  return {
    support: (d) => {
      const rho = Math.hypot(d[0], d[2]);
      const y = d[1] >= 0 ? hh : -hh;
      return rho > 0 ? [(r * d[0]) / rho, y, (r * d[2]) / rho] : [r, y, 0];
    },
    closest: (p) => {
      const rho = Math.hypot(p[0], p[2]);
      const f = rho > r ? r / rho : 1;
      return [p[0] * f, Math.min(hh, Math.max(-hh, p[1])), p[2] * f];
    },
    signed: (p) => {
      const dr = Math.hypot(p[0], p[2]) - r;
      const dy = Math.abs(p[1]) - hh;
      const out = Math.hypot(Math.max(dr, 0), Math.max(dy, 0));
      return out > 0 ? out : Math.max(dr, dy);
    },
    center: [0, 0, 0],
    radius: Math.hypot(hh, r),
    r: Math.hypot(hh, r),
  };
}

/** Closest point of the 2D triangle (meridian section of the cone) to (x, y). */
function closest2(x: number, y: number, tri: number[][]): [number, number] {
  const inside = (() => {
    let s = 0;
    for (let i = 0; i < 3; i++) {
      const [ax, ay] = tri[i];
      const [bx, by] = tri[(i + 1) % 3];
      const c = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
      if (c < 0) return false;
      s += c;
    }
    return s >= 0;
  })();
  if (inside) return [x, y];
  let best: [number, number] = [x, y];
  let bd = Infinity;
  for (let i = 0; i < 3; i++) {
    const [ax, ay] = tri[i];
    const [bx, by] = tri[(i + 1) % 3];
    const ex = bx - ax;
    const ey = by - ay;
    let t = ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey);
    t = Math.max(0, Math.min(t, 1));
    const qx = ax + ex * t;
    const qy = ay + ey * t;
    const d = Math.hypot(x - qx, y - qy);
    if (d < bd) {
      bd = d;
      best = [qx, qy];
    }
  }
  return best;
}

function coneLocal(hh: number, r: number): Piece & { r: number } {
  // Counter-clockwise meridian section: base left, base right, apex.
  const tri = [
    [-r, -hh],
    [r, -hh],
    [0, hh],
  ];
  const slant = Math.hypot(r, 2 * hh);
  return {
    support: (d) => {
      const rho = Math.hypot(d[0], d[2]);
      const rim: V = rho > 0 ? [(r * d[0]) / rho, -hh, (r * d[2]) / rho] : [r, -hh, 0];
      return dot(rim, d) > hh * d[1] ? rim : [0, hh, 0];
    },
    closest: (p) => {
      const rho = Math.hypot(p[0], p[2]);
      const [qr, qy] = closest2(rho, p[1], tri);
      if (rho > 0) return [(p[0] * qr) / rho, qy, (p[2] * qr) / rho];
      return [qr, qy, 0];
    },
    signed: (p) => {
      const rho = Math.hypot(p[0], p[2]);
      const [qr, qy] = closest2(rho, p[1], tri);
      const out = Math.hypot(rho - qr, p[1] - qy);
      if (out > 0) return out;
      // Inside: the largest of the (negative) distances to the base plane and the slant side.
      const dBase = -hh - p[1];
      const dSide = (2 * hh * rho + r * p[1] - r * hh) / slant;
      return Math.max(dBase, dSide);
    },
    center: [0, 0, 0],
    radius: Math.hypot(hh, r),
    r: Math.hypot(hh, r),
  };
}

/** Face triangles (outward) of the hull of `pts` by brute force over triples. */
export function hullFaces(pts: V[]): { tri: [V, V, V]; n: V; o: number }[] {
  const out: { tri: [V, V, V]; n: V; o: number }[] = [];
  // Tolerances relative to the hull's own extent about its centroid (a small hull far from the
  // origin would otherwise have every face under the thresholds and no face at all).
  let c: V = [0, 0, 0];
  for (const p of pts) c = add(c, p);
  c = scale(c, 1 / pts.length);
  const q = pts.map((p) => sub(p, c));
  let ext = 0;
  for (const p of q) ext = Math.max(ext, norm(p));
  const tol = 1e-12 * ext + 4 * Number.EPSILON * norm(c);
  for (let i = 0; i < pts.length; i++)
    for (let j = i + 1; j < pts.length; j++)
      for (let k = j + 1; k < pts.length; k++) {
        let n = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
        const nl = norm(n);
        if (!(nl > 1e-14 * ext * ext)) continue;
        n = scale(n, 1 / nl);
        let o = dot(n, pts[i]);
        let pos = false;
        let neg = false;
        for (const p of pts) {
          const s = dot(n, p) - o;
          if (s > tol) pos = true;
          else if (s < -tol) neg = true;
        }
        if (pos && neg) continue;
        if (pos) {
          n = scale(n, -1);
          o = -o;
        }
        out.push({ tri: [pts[i], pts[j], pts[k]], n, o });
      }
  return out;
}

function hullWorld(pts: V[]): Piece {
  const faces = hullFaces(pts);
  let c: V = [0, 0, 0];
  for (const p of pts) c = add(c, p);
  c = scale(c, 1 / pts.length);
  let r = 0;
  for (const p of pts) r = Math.max(r, dist(p, c));
  const inside = (p: V) => faces.every((f) => dot(f.n, p) <= f.o);
  return {
    support: (d) => {
      let best = pts[0];
      let bv = -Infinity;
      for (const p of pts) {
        const v = dot(p, d);
        if (v > bv) {
          bv = v;
          best = p;
        }
      }
      return best;
    },
    closest: (p) => {
      if (inside(p)) return p;
      let best = p;
      let bd = Infinity;
      for (const f of faces) {
        const q = closestOnTriangle(p, f.tri[0], f.tri[1], f.tri[2]);
        const d = dist(p, q);
        if (d < bd) {
          bd = d;
          best = q;
        }
      }
      return best;
    },
    signed: (p) => {
      if (!inside(p)) {
        let bd = Infinity;
        for (const f of faces) bd = Math.min(bd, dist(p, closestOnTriangle(p, ...f.tri)));
        return bd;
      }
      let m = -Infinity;
      for (const f of faces) m = Math.max(m, dot(f.n, p) - f.o);
      return m;
    },
    center: c,
    radius: r,
  };
}

function triangleWorld(a: V, b: V, c: V): Piece {
  const pts = [a, b, c];
  const cen = scale(add(add(a, b), c), 1 / 3);
  return {
    support: (d) => {
      let best = a;
      for (const p of pts) if (dot(p, d) > dot(best, d)) best = p;
      return best;
    },
    closest: (p) => closestOnTriangle(p, a, b, c),
    signed: (p) => dist(p, closestOnTriangle(p, a, b, c)),
    center: cen,
    radius: Math.max(dist(a, cen), dist(b, cen), dist(c, cen)),
  };
}

type J = Record<string, unknown>;
const v = (x: unknown): V => [...(x as number[])] as V;

/** The world-frame pieces of a JSON shape placed by an extra parent rotation and translation. */
function piecesOf(
  j: J,
  parentRot: number[][],
  parentT: V,
): { pieces: Piece[]; verts: V[] | null; edges: V[]; normals: V[] } {
  const toW = (rot: number[][], t: V) => (p: V) =>
    add(mul(parentRot, add(mul(rot, p), t)), parentT);
  const rotOf = (q: unknown) => quatMatrix(q as number[] | undefined);
  switch (j.type) {
    case "sphere": {
      const c = toW(rotOf(undefined), [0, 0, 0])(v(j.center));
      return {
        pieces: [posed(rotOf(undefined), c, sphereLocal(j.radius as number))],
        verts: null,
        edges: [],
        normals: [],
      };
    }
    case "roundedBox": {
      // The box of its half extents (the core) and the radius about it; no vertices (curved).
      const core = piecesOf({ ...j, type: "box" }, parentRot, parentT);
      return {
        pieces: [inflated(core.pieces[0], j.radius as number)],
        verts: null,
        edges: core.edges,
        normals: core.normals,
      };
    }
    case "roundedConvex": {
      const core = piecesOf({ ...j, type: "convex" }, parentRot, parentT);
      return {
        pieces: [inflated(core.pieces[0], j.radius as number)],
        verts: null,
        edges: core.edges,
        normals: core.normals,
      };
    }
    case "aabb":
    case "box": {
      let c: V;
      let h: V;
      let rot = rotOf(j.rotation);
      if (j.type === "aabb") {
        const lo = v(j.min);
        const hi = v(j.max);
        c = scale(add(lo, hi), 0.5);
        h = scale(sub(hi, lo), 0.5);
        rot = rotOf(undefined);
      } else {
        c = v(j.center);
        h = v(j.halfExtents);
      }
      const wr = composeRot(parentRot, rot);
      const wc = add(mul(parentRot, c), parentT);
      const verts: V[] = [];
      for (const sx of [-1, 1])
        for (const sy of [-1, 1])
          for (const sz of [-1, 1]) verts.push(add(mul(wr, [sx * h[0], sy * h[1], sz * h[2]]), wc));
      const axes: V[] = [0, 1, 2].map((k) => [wr[0][k], wr[1][k], wr[2][k]] as V);
      return { pieces: [posed(wr, wc, boxLocal(h))], verts, edges: axes, normals: axes };
    }
    case "capsule": {
      const w = toW(rotOf(undefined), [0, 0, 0]);
      const a = w(v(j.a));
      const b = w(v(j.b));
      return {
        pieces: [capsuleWorld(a, b, j.radius as number)],
        verts: null,
        edges: [unit(sub(b, a))],
        normals: [],
      };
    }
    case "cylinder":
    case "cone": {
      const wr = composeRot(parentRot, rotOf(j.rotation));
      const wc = add(mul(parentRot, v(j.center)), parentT);
      const f = j.type === "cylinder" ? cylinderLocal : coneLocal;
      const ax: V = [wr[0][1], wr[1][1], wr[2][1]];
      return {
        pieces: [posed(wr, wc, f(j.halfHeight as number, j.radius as number))],
        verts: null,
        edges: [ax],
        normals: [ax],
      };
    }
    case "convex": {
      const w = toW(rotOf(j.rotation), j.position ? v(j.position) : [0, 0, 0]);
      const pts = (j.points as number[][]).map((p) => w(v(p)));
      const faces = hullFaces(pts);
      const edges: V[] = [];
      for (const f of faces)
        for (let i = 0; i < 3; i++) edges.push(unit(sub(f.tri[(i + 1) % 3], f.tri[i])));
      return { pieces: [hullWorld(pts)], verts: pts, edges, normals: faces.map((f) => f.n) };
    }
    case "triangle": {
      const w = toW(rotOf(undefined), [0, 0, 0]);
      const pts = [w(v(j.a)), w(v(j.b)), w(v(j.c))];
      const edges = [
        unit(sub(pts[1], pts[0])),
        unit(sub(pts[2], pts[1])),
        unit(sub(pts[0], pts[2])),
      ];
      return {
        pieces: [triangleWorld(pts[0], pts[1], pts[2])],
        verts: pts,
        edges,
        normals: [unit(cross(sub(pts[1], pts[0]), sub(pts[2], pts[0])))],
      };
    }
    case "mesh": {
      const s =
        j.scale === undefined
          ? [1, 1, 1]
          : typeof j.scale === "number"
            ? [j.scale, j.scale, j.scale]
            : v(j.scale);
      const w = toW(rotOf(j.rotation), j.position ? v(j.position) : [0, 0, 0]);
      const verts = (j.vertices as number[][]).map((p) =>
        w([p[0] * s[0], p[1] * s[1], p[2] * s[2]]),
      );
      const pieces = (j.indices as number[][]).map((t) =>
        triangleWorld(verts[t[0]], verts[t[1]], verts[t[2]]),
      );
      return { pieces, verts, edges: [], normals: [] };
    }
    case "compound": {
      const wr = composeRot(parentRot, rotOf(j.rotation));
      const wt = add(mul(parentRot, j.position ? v(j.position) : [0, 0, 0]), parentT);
      const pieces: Piece[] = [];
      const verts: V[] = [];
      const edges: V[] = [];
      const normals: V[] = [];
      let poly = true;
      for (const c of j.children as J[]) {
        const cr = composeRot(wr, rotOf(c.rotation));
        const ct = add(mul(wr, c.position ? v(c.position) : [0, 0, 0]), wt);
        const sub = piecesOf(c.shape as J, cr, ct);
        pieces.push(...sub.pieces);
        if (sub.verts) verts.push(...sub.verts);
        else poly = false;
        edges.push(...sub.edges);
        normals.push(...sub.normals);
      }
      return { pieces, verts: poly ? verts : null, edges, normals };
    }
  }
  throw new Error(`fuzz oracle: unknown shape type ${String(j.type)}`);
}

const I3 = quatMatrix(undefined);

/** The fuzzer's model of one JSON shape. */
export function oshape(json: unknown): OShape {
  const j = json as J;
  if (j.type === "halfspace") {
    const n = v(j.normal);
    const l = norm(n);
    return {
      type: "halfspace",
      json,
      pieces: [],
      convex: true,
      halfspace: { n: scale(n, 1 / l), o: (j.offset as number) / l },
      center: scale(n, (j.offset as number) / l / l),
      radius: 0,
      vertices: null,
      edges: [],
      normals: [],
    };
  }
  const { pieces, verts, edges, normals } = piecesOf(j, I3, [0, 0, 0]);
  let lo: V = [Infinity, Infinity, Infinity];
  const hi: V = [-Infinity, -Infinity, -Infinity];
  for (const p of pieces) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p.center[k] - p.radius);
      hi[k] = Math.max(hi[k], p.center[k] + p.radius);
    }
  }
  const center = scale(add(lo, hi), 0.5);
  let radius = 0;
  for (const p of pieces) radius = Math.max(radius, dist(p.center, center) + p.radius);
  lo = hi;
  return {
    type: j.type as string,
    json,
    pieces,
    convex: pieces.length === 1,
    halfspace: null,
    center,
    radius,
    vertices: verts,
    edges,
    normals,
  };
}
