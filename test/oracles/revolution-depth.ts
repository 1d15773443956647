/**
 * A slow, obviously correct twin for contacts of spheres, boxes, capsules, cylinders and cones
 * given as `collide query` JSON (docs/FORMATS.md), written without the library:
 *
 * - support functions and signed distances by closed forms in each shape's local frame (a
 *   cylinder or cone through its meridian section: the signed distance of a solid of revolution
 *   to a point is the 2D signed distance of the point's (ρ, y) to the section's polygon, a
 *   rectangle or a triangle, mirrored across the axis);
 * - the penetration depth as the least overlap f(n) = h_A(n) + h_B(−n) over unit n (the distance
 *   from the origin to the boundary of the Minkowski difference A − B), minimised by a Fibonacci
 *   lattice of directions followed by Nelder–Mead restarts on the tangent plane. Every value it
 *   returns is f at an actual direction, so it is an upper bound of the depth: an answer below
 *   it by more than rounding is wrong, and an answer whose own normal achieves its depth
 *   (f(normal) = depth) is at least the depth; the two together pin it.
 * - sphere against any of these: the exact depth r − sd(c) (sd the signed distance of the
 *   sphere's centre to the convex solid; Ericson 2005, §5.1).
 */

/** A 3-vector as a tuple (world frame). */
export type V = [number, number, number];
/** A query-JSON shape. */
export type J = Record<string, unknown>;

const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const len = (a: V): number => Math.sqrt(dot(a, a));
const unit = (a: V): V => scale(a, 1 / len(a));

/** Rows of the rotation matrix of quaternion [x, y, z, w] (normalised), identity when absent. */
function matrix(q: unknown): V[] {
  if (!Array.isArray(q)) {
    return [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
  }
  const l = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const [x, y, z, w] = [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** One shape of the oracle: support and signed distance in the world frame. */
export interface OracleShape {
  /** A point of the shape extreme along d. */
  support(d: V): V;
  /** Signed distance of p to the shape's surface: > 0 outside, < 0 inside. */
  signed(p: V): number;
  /** Half the shape's largest extent (its size, for relative bars). */
  size: number;
}

/** Signed distance of (x, y) to the convex polygon `poly` (counter-clockwise). */
function polygonSigned(x: number, y: number, poly: [number, number][]): number {
  let inside = true;
  let outside = Number.POSITIVE_INFINITY;
  let depth = Number.POSITIVE_INFINITY;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    const ex = bx - ax;
    const ey = by - ay;
    const el = Math.sqrt(ex * ex + ey * ey);
    // Outward normal of a counter-clockwise edge: (ey, −ex).
    const s = (ey * (x - ax) - ex * (y - ay)) / el;
    if (s > 0) inside = false;
    depth = Math.min(depth, -s);
    let t = ((x - ax) * ex + (y - ay) * ey) / (el * el);
    t = Math.max(0, Math.min(1, t));
    outside = Math.min(outside, Math.hypot(x - ax - t * ex, y - ay - t * ey));
  }
  return inside ? -depth : outside;
}

/** The oracle's model of a sphere, box, capsule, cylinder or cone JSON shape. */
export function oracleShape(j: J): OracleShape {
  const R = matrix(j.rotation);
  const c = (j.center ?? [0, 0, 0]) as V;
  const toLocal = (p: V): V => {
    const q = sub(p, c);
    return [
      R[0][0] * q[0] + R[1][0] * q[1] + R[2][0] * q[2],
      R[0][1] * q[0] + R[1][1] * q[1] + R[2][1] * q[2],
      R[0][2] * q[0] + R[1][2] * q[1] + R[2][2] * q[2],
    ];
  };
  const toWorld = (p: V): V => add(c, [dot(R[0], p), dot(R[1], p), dot(R[2], p)]);
  const dirLocal = (d: V): V => [
    R[0][0] * d[0] + R[1][0] * d[1] + R[2][0] * d[2],
    R[0][1] * d[0] + R[1][1] * d[1] + R[2][1] * d[2],
    R[0][2] * d[0] + R[1][2] * d[1] + R[2][2] * d[2],
  ];
  switch (j.type) {
    case "sphere": {
      const r = j.radius as number;
      return {
        support: (d) => add(c, scale(unit(d), r)),
        signed: (p) => len(sub(p, c)) - r,
        size: r,
      };
    }
    case "box": {
      const h = j.halfExtents as V;
      return {
        support: (d) => {
          const l = dirLocal(d);
          return toWorld([
            l[0] < 0 ? -h[0] : h[0],
            l[1] < 0 ? -h[1] : h[1],
            l[2] < 0 ? -h[2] : h[2],
          ]);
        },
        signed: (p) => {
          const l = toLocal(p);
          const q: V = [Math.abs(l[0]) - h[0], Math.abs(l[1]) - h[1], Math.abs(l[2]) - h[2]];
          const o: V = [Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0)];
          return len(o) + Math.min(Math.max(q[0], q[1], q[2]), 0);
        },
        size: Math.max(...h),
      };
    }
    case "capsule": {
      const a = j.a as V;
      const b = j.b as V;
      const r = j.radius as number;
      return {
        support: (d) => add(dot(a, d) >= dot(b, d) ? a : b, scale(unit(d), r)),
        signed: (p) => {
          const e = sub(b, a);
          const ee = dot(e, e);
          const t = ee > 0 ? Math.max(0, Math.min(1, dot(sub(p, a), e) / ee)) : 0;
          return len(sub(p, add(a, scale(e, t)))) - r;
        },
        size: len(sub(b, a)) / 2 + r,
      };
    }
    case "cylinder":
    case "cone": {
      const hh = j.halfHeight as number;
      const r = j.radius as number;
      const cone = j.type === "cone";
      // The meridian section (ρ, y), mirrored across the axis, counter-clockwise.
      const section: [number, number][] = cone
        ? [
            [-r, -hh],
            [r, -hh],
            [0, hh],
          ]
        : [
            [-r, -hh],
            [r, -hh],
            [r, hh],
            [-r, hh],
          ];
      return {
        support: (d) => {
          const l = dirLocal(d);
          const rho = Math.hypot(l[0], l[2]);
          const rim: V = rho > 0 ? [(r * l[0]) / rho, 0, (r * l[2]) / rho] : [0, 0, 0];
          if (cone) {
            // Apex (0, hh, 0) against the base rim point.
            const apex = hh * l[1];
            const base = r * rho - hh * l[1];
            return toWorld(apex >= base ? [0, hh, 0] : [rim[0], -hh, rim[2]]);
          }
          return toWorld([rim[0], l[1] < 0 ? -hh : hh, rim[2]]);
        },
        signed: (p) => {
          const l = toLocal(p);
          return polygonSigned(Math.hypot(l[0], l[2]), l[1], section);
        },
        size: Math.max(hh, r),
      };
    }
  }
  throw new Error(`revolution-depth oracle: unsupported shape ${String(j.type)}`);
}

/** f(n) = h_A(n) + h_B(−n): how far B must move along unit n to stop overlapping A. */
export function overlapAlong(A: OracleShape, B: OracleShape, n: V): number {
  const m = scale(n, -1);
  return dot(A.support(n), n) + dot(B.support(m), m);
}

/** Nelder–Mead on g(u, v) from (0, 0) with the given first step: the best vertex found. */
function nelderMead(g: (u: number, v: number) => number, step: number, iterations: number): V {
  let P: V[] = [
    [0, 0, g(0, 0)],
    [step, 0, g(step, 0)],
    [0, step, g(0, step)],
  ];
  for (let i = 0; i < iterations; i++) {
    P.sort((p, q) => p[2] - q[2]);
    const [b, s, w] = P;
    const cx = (b[0] + s[0]) / 2;
    const cy = (b[1] + s[1]) / 2;
    const r: V = [2 * cx - w[0], 2 * cy - w[1], 0];
    r[2] = g(r[0], r[1]);
    if (r[2] < b[2]) {
      const e: V = [3 * cx - 2 * w[0], 3 * cy - 2 * w[1], 0];
      e[2] = g(e[0], e[1]);
      P[2] = e[2] < r[2] ? e : r;
    } else if (r[2] < s[2]) P[2] = r;
    else {
      const k: V = [(cx + w[0]) / 2, (cy + w[1]) / 2, 0];
      k[2] = g(k[0], k[1]);
      if (k[2] < w[2]) P[2] = k;
      else {
        const s2: V = [(b[0] + s[0]) / 2, (b[1] + s[1]) / 2, 0];
        const w2: V = [(b[0] + w[0]) / 2, (b[1] + w[1]) / 2, 0];
        s2[2] = g(s2[0], s2[1]);
        w2[2] = g(w2[0], w2[1]);
        P = [b, s2, w2];
      }
    }
  }
  P.sort((p, q) => p[2] - q[2]);
  return P[0];
}

/**
 * The least overlap over unit directions found by `samples` lattice directions (plus `hints`)
 * and Nelder–Mead restarts from the best few: { depth: f(n), n }. An upper bound of the depth
 * (f at an actual direction); on the pairs here it agrees with the depth to ~1e-14 relative.
 */
export function leastOverlap(
  A: OracleShape,
  B: OracleShape,
  hints: V[] = [],
  samples = 4000,
): { depth: number; n: V } {
  const dirs: V[] = hints.map(unit);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < samples; i++) {
    const y = 1 - (2 * (i + 0.5)) / samples;
    const r = Math.sqrt(1 - y * y);
    dirs.push([Math.cos(golden * i) * r, y, Math.sin(golden * i) * r]);
  }
  const ranked = dirs.map((d) => ({ f: overlapAlong(A, B, d), d })).sort((p, q) => p.f - q.f);
  let best = ranked[0];
  for (const start of ranked.slice(0, 4)) {
    let n = start.d;
    let f = start.f;
    let step = 0.05;
    for (let round = 0; round < 40 && step > 1e-12; round++) {
      const t = Math.abs(n[0]) < 0.6 ? ([1, 0, 0] as V) : ([0, 1, 0] as V);
      const e1 = unit(cross(n, t));
      const e2 = cross(n, e1);
      const at = (u: number, v: number) => unit(add(n, add(scale(e1, u), scale(e2, v))));
      const [u, v, g] = nelderMead((x, y) => overlapAlong(A, B, at(x, y)), step, 200);
      if (g < f) {
        n = at(u, v);
        f = g;
      }
      step = Math.max(Math.hypot(u, v) * 2, step * 0.3);
    }
    if (f < best.f) best = { f, d: n };
  }
  return { depth: best.f, n: best.d };
}
