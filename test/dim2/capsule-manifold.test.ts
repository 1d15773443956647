/**
 * Issue 16 (attack 32, F1): a 2D manifold took a capsule's side as the reference edge when the
 * contact lay on its end cap, so it reported another normal than `contact` and a depth 9–70 %
 * short. The manifold's normal must be a contact normal and its deepest point the contact's depth
 * (docs/FORMATS.md, `manifold` row). Oracles: hand-derived values for the attack's lines; for
 * random pairs, `contact`'s answer and an independent one — the signed distance as
 * −min over unit u of s(u) = h_A(u) + h_B(−u) (support functions from the shapes' definitions),
 * by dense angle sampling refined by golden-section search — with each point's signed distance
 * to its shape by brute force.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact2D } from "../../src/dim2/contact2.js";
import { manifold2D } from "../../src/dim2/manifold2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { makeCapsule, type Shape2, ShapeType2 } from "../../src/dim2/shapes.js";
import { answerQuery } from "../../src/io/query.js";
import { logOffsetArb, logSizeArb, num, polygonArb, shapeArb } from "./arbitraries.js";

type P = [number, number];
const EPS = Number.EPSILON;

interface Answer {
  normal: P;
  points: { pointA: P; pointB: P; distance: number }[];
}

function manifoldLine(a: object, b: object): Answer {
  return answerQuery({ op: "manifold", dim: 2, a, b }) as Answer;
}

describe("2D manifold on a capsule's end cap: the contact's normal and depth (issue 16)", () => {
  const root17 = Math.sqrt(17);

  it("capsule against rect: the rect's corner (−1, 0.25) against the capsule's end a", () => {
    // |corner − a| = |(0.125, 0.5)| = √17/8 > 0 along the segment's parameter clamped to 0,
    // so the distance is √17/8 − 0.875 along (1, 4)/√17.
    const capsule = { type: "capsule", a: [-1.125, -0.25], b: [0.25, -0.875], radius: 0.875 };
    const rect = { type: "rect", min: [-1, 0.25], max: [0.875, 1] };
    const m = manifoldLine(capsule, rect);
    expect(m.points.length).toBe(1);
    const d = root17 / 8 - 0.875;
    expect(m.points[0].distance).toBeCloseTo(d, 14);
    expect(m.normal[0]).toBeCloseTo(1 / root17, 14);
    expect(m.normal[1]).toBeCloseTo(4 / root17, 14);
    expect(m.points[0].pointB[0]).toBeCloseTo(-1, 14);
    expect(m.points[0].pointB[1]).toBeCloseTo(0.25, 14);
    expect(m.points[0].pointA[0]).toBeCloseTo(-1.125 + 0.875 / root17, 14);
    expect(m.points[0].pointA[1]).toBeCloseTo(-0.25 + 3.5 / root17, 14);
    // The other order: the normal negated, the points swapped.
    const w = manifoldLine(rect, capsule);
    expect(w.points.length).toBe(1);
    expect(w.points[0].distance).toBeCloseTo(d, 14);
    expect(w.normal[0]).toBeCloseTo(-1 / root17, 14);
    expect(w.normal[1]).toBeCloseTo(-4 / root17, 14);
  });

  it("capsule against triangle: the vertex (1, 1.75) against the capsule's end b", () => {
    // (1, 1.75) − b = (−0.5, 0), past b along the segment ((−0.5, 0)·(−0.125, 1.75) > 0): the
    // distance is 0.5 − 0.625 along (−1, 0).
    const m = manifoldLine(
      { type: "capsule", a: [1.625, 0], b: [1.5, 1.75], radius: 0.625 },
      {
        type: "polygon",
        points: [
          [1, 1.75],
          [-2, 0.125],
          [-0.625, -1.875],
        ],
      },
    );
    expect(m.points.length).toBe(1);
    expect(m.points[0].distance).toBeCloseTo(-0.125, 14);
    expect(m.normal[0]).toBeCloseTo(-1, 14);
    expect(m.normal[1]).toBeCloseTo(0, 14);
    expect(m.points[0].pointA).toEqual([0.875, 1.75]);
    expect(m.points[0].pointB).toEqual([1, 1.75]);
  });

  it("capsule against segment: the segment's end (0.75, 0) against the capsule's end a", () => {
    // (0.75, 0) − a = (0.125, −0.5), past a along the core ((0.125, −0.5)·(−0.75, 0) < 0); the
    // segment's own nearest point to a is that end too (parameter 1.75 clamped to 1).
    const m = manifoldLine(
      { type: "capsule", a: [0.625, 0.5], b: [-0.125, 0.5], radius: 0.875 },
      { type: "segment", a: [0.5, -0.25], b: [0.75, 0] },
    );
    expect(m.points.length).toBe(1);
    expect(m.points[0].distance).toBeCloseTo(root17 / 8 - 0.875, 14);
    expect(m.normal[0]).toBeCloseTo(1 / root17, 14);
    expect(m.normal[1]).toBeCloseTo(-4 / root17, 14);
    expect(m.points[0].pointB).toEqual([0.75, 0]);
  });

  it("a capsule lying on a face keeps its two points", () => {
    const m = manifoldLine(
      { type: "rect", min: [-2, -1], max: [2, 0] },
      { type: "capsule", a: [-1, 0.125], b: [1, 0.125], radius: 0.25 },
    );
    expect(m.points.length).toBe(2);
    expect(m.normal).toEqual([0, 1]);
    for (const p of m.points) expect(p.distance).toBe(-0.125);
  });
});

// ---- Independent oracle: support functions and signed distances from the definitions. ----

/** The shape's defining points (local frame) and radius: a convex hull of points inflated by r. */
function definition(s: Shape2): { pts: P[]; r: number } {
  switch (s.type) {
    case ShapeType2.Circle:
      return { pts: [[0, 0]], r: s.radius };
    case ShapeType2.Capsule:
      return {
        pts: [
          [s.a.x, s.a.y],
          [s.b.x, s.b.y],
        ],
        r: s.radius,
      };
    case ShapeType2.Segment:
      return {
        pts: [
          [s.a.x, s.a.y],
          [s.b.x, s.b.y],
        ],
        r: 0,
      };
    default: {
      const v = s.core.verts;
      const pts: P[] = [];
      for (let i = 0; i < s.core.count; i++) pts.push([v[2 * i], v[2 * i + 1]]);
      return { pts, r: 0 };
    }
  }
}

/** Points of the definition placed by `pose`, relative to the world point `o` (o's offset exact). */
function placed(s: Shape2, pose: Pose2, o: P): { pts: P[]; r: number } {
  const d = definition(s);
  const dx = pose.p.x - o[0];
  const dy = pose.p.y - o[1];
  return {
    pts: d.pts.map(([x, y]) => [
      pose.q.c * x - pose.q.s * y + dx,
      pose.q.s * x + pose.q.c * y + dy,
    ]),
    r: d.r,
  };
}

function support(sh: { pts: P[]; r: number }, ux: number, uy: number): number {
  let m = -Infinity;
  for (const [x, y] of sh.pts) m = Math.max(m, x * ux + y * uy);
  return m + sh.r;
}

/** s(θ) = h_A(u) + h_B(−u): the overlap along u; the signed distance is −min s. */
function overlapAt(A: { pts: P[]; r: number }, B: { pts: P[]; r: number }, t: number): number {
  const ux = Math.cos(t);
  const uy = Math.sin(t);
  return support(A, ux, uy) + support(B, -ux, -uy);
}

/** min over θ of s(θ): 2048 samples plus `extra` angles, the best 6 refined by golden section. */
function leastOverlap(A: { pts: P[]; r: number }, B: { pts: P[]; r: number }, extra: number[]) {
  const K = 2048;
  const cand: { t: number; v: number }[] = [];
  for (let i = 0; i < K; i++) {
    const t = (2 * Math.PI * i) / K;
    cand.push({ t, v: overlapAt(A, B, t) });
  }
  for (const t of extra) cand.push({ t, v: overlapAt(A, B, t) });
  cand.sort((p, q) => p.v - q.v);
  let best = cand[0].v;
  const g = (Math.sqrt(5) - 1) / 2;
  for (const { t } of cand.slice(0, 6)) {
    let lo = t - (2 * Math.PI) / K;
    let hi = t + (2 * Math.PI) / K;
    let x1 = hi - g * (hi - lo);
    let x2 = lo + g * (hi - lo);
    let f1 = overlapAt(A, B, x1);
    let f2 = overlapAt(A, B, x2);
    for (let k = 0; k < 120; k++) {
      if (f1 <= f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = overlapAt(A, B, x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = overlapAt(A, B, x2);
      }
      best = Math.min(best, f1, f2);
    }
  }
  return best;
}

function segDist(p: P, a: P, b: P): number {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const l2 = ex * ex + ey * ey;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey);
}

/** Signed distance of p to the placed shape's surface (< 0 inside), brute force. */
function signedDist(sh: { pts: P[]; r: number }, p: P): number {
  const w = sh.pts;
  if (w.length === 1) return Math.hypot(p[0] - w[0][0], p[1] - w[0][1]) - sh.r;
  let d = Infinity;
  let inside = w.length >= 3;
  for (let i = 0; i < w.length; i++) {
    const a = w[i];
    const b = w[(i + 1) % w.length];
    d = Math.min(d, segDist(p, a, b));
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0) inside = false;
  }
  return (inside ? -d : d) - sh.r;
}

function coordScale(sh: { pts: P[]; r: number }): number {
  let m = sh.r;
  for (const [x, y] of sh.pts) m = Math.max(m, Math.abs(x), Math.abs(y));
  return m;
}

/**
 * The manifold of (a, b) against `contact` and the oracle: null together; each point on both
 * surfaces and facing across the normal; the deepest point at the contact's distance; the
 * normal the contact's and achieving that distance; no direction with less overlap.
 */
function checkPair(a: Shape2, pa: Pose2, b: Shape2, pb: Pose2): void {
  const m = manifold2D(a, pa, b, pb);
  const c = contact2D(a, pa, b, pb);
  expect(m === null).toBe(c === null);
  if (m === null || c === null) return;
  const o: P = [pa.p.x, pa.p.y];
  const A = placed(a, pa, o);
  const B = placed(b, pb, o);
  const size = coordScale(A) + coordScale(B);
  const L = size + Math.max(Math.abs(pa.p.x), Math.abs(pa.p.y), Math.abs(pb.p.x), Math.abs(pb.p.y));
  // The contact's bar (docs/FORMATS.md): 1e-6·depth + 64·ε·L.
  const bar = 1e-6 * Math.abs(c.distance) + 64 * EPS * L;
  expect(m.count).toBeGreaterThanOrEqual(1);
  let deepest = Infinity;
  for (let i = 0; i < m.count; i++) {
    const q = m.points[i];
    deepest = Math.min(deepest, q.distance);
    const qa: P = [q.pointA.x - o[0], q.pointA.y - o[1]];
    const qb: P = [q.pointB.x - o[0], q.pointB.y - o[1]];
    expect(Math.abs(signedDist(A, qa))).toBeLessThanOrEqual(bar);
    expect(Math.abs(signedDist(B, qb))).toBeLessThanOrEqual(bar);
    expect(Math.abs(qb[0] - qa[0] - q.distance * m.normal.x)).toBeLessThanOrEqual(bar);
    expect(Math.abs(qb[1] - qa[1] - q.distance * m.normal.y)).toBeLessThanOrEqual(bar);
  }
  expect(Math.abs(deepest - c.distance)).toBeLessThanOrEqual(bar);
  expect(Math.hypot(m.normal.x - c.normal.x, m.normal.y - c.normal.y)).toBeLessThanOrEqual(1e-6);
  // Independent: the overlap along the manifold's normal is its depth, and no direction has less
  // (the sampled minimum, with the two normals among the candidates, bounds the true one above).
  const tm = Math.atan2(m.normal.y, m.normal.x);
  const tc = Math.atan2(c.normal.y, c.normal.x);
  const along = overlapAt(A, B, tm);
  const oracleBar = bar + 64 * EPS * size;
  expect(Math.abs(-along - deepest)).toBeLessThanOrEqual(oracleBar);
  expect(Math.abs(-leastOverlap(A, B, [tm, tc]) - deepest)).toBeLessThanOrEqual(oracleBar);
}

/** Angles: any, near multiples of π/4 (parallel edges), or exactly those. */
const angleArb = fc.oneof(
  num(-Math.PI, Math.PI),
  fc
    .tuple(fc.integer({ min: -4, max: 4 }), num(-0.04, 0.04))
    .map(([k, e]) => (k * Math.PI) / 4 + e),
  fc.integer({ min: -4, max: 4 }).map((k) => (k * Math.PI) / 4),
);

/** An offset's coordinate: 0, or ± a log-uniform magnitude up to 1e9. */
const offsetArb = fc.oneof(
  fc.constant(0),
  fc.tuple(logOffsetArb, fc.boolean()).map(([m, neg]) => (neg ? -m : m)),
);

function capsuleArb(s: number): fc.Arbitrary<Shape2> {
  const pt = fc.record({ x: num(-1.5, 1.5), y: num(-1.5, 1.5) });
  return fc
    .record({ a: pt, b: pt, r: num(0.05, 1) })
    .map(({ a, b, r }) =>
      makeCapsule({ x: s * a.x, y: s * a.y }, { x: s * b.x, y: s * b.y }, s * r),
    );
}

/** A shape's local centre (mean of its defining points). */
function centre(s: Shape2): P {
  const { pts } = definition(s);
  let x = 0;
  let y = 0;
  for (const p of pts) {
    x += p[0];
    y += p[1];
  }
  return [x / pts.length, y / pts.length];
}

describe("2D manifolds of pairs with a capsule: the contact's normal and depth, property", () => {
  it("random pairs at sizes 1e-6..1e6, offsets to 1e9", () => {
    const arb = logSizeArb.chain((s) =>
      fc.record({
        s: fc.constant(s),
        a: capsuleArb(s),
        b: fc.oneof(capsuleArb(s), shapeArb(s)),
        ox: offsetArb,
        oy: offsetArb,
        qa: angleArb,
        qb: angleArb,
        dx: num(-2.5, 2.5),
        dy: num(-2.5, 2.5),
        swap: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(arb, ({ s, a, b, ox, oy, qa, qb, dx, dy, swap }) => {
        const pa = pose2.fromAngle(ox, oy, qa);
        const pb = pose2.fromAngle(ox + s * dx, oy + s * dy, qb);
        if (swap) checkPair(b, pb, a, pa);
        else checkPair(a, pa, b, pb);
      }),
      { numRuns: 600 },
    );
  });

  it("a corner or end placed on a capsule's end cap, near its side's normal", () => {
    // The capsule's core runs from (−l, 0) to (l, 0); another shape's defining point is put at
    // (−l, 0) + d·(cos φ, sin φ) with φ within 0.4 rad past the side normal (π/2) onto the cap,
    // the shape turned to lie outward along φ — the configuration of the issue.
    const arb = logSizeArb.chain((s) =>
      fc.record({
        s: fc.constant(s),
        l: num(0.2, 1.5),
        r: num(0.1, 1),
        b: fc.oneof(shapeArb(s), polygonArb(s)),
        k: fc.nat(),
        phi: num(0, 0.4),
        d: num(0.3, 1.1),
        jitter: num(-0.5, 0.5),
        ox: offsetArb,
        oy: offsetArb,
        qa: angleArb,
        swap: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(arb, ({ s, l, r, b, k, phi, d, jitter, ox, oy, qa, swap }) => {
        const a = makeCapsule({ x: -s * l, y: 0 }, { x: s * l, y: 0 }, s * r);
        const pa = pose2.fromAngle(ox, oy, qa);
        const { pts } = definition(b);
        const v = pts[k % pts.length];
        const cb = centre(b);
        const ang = Math.PI / 2 + phi;
        // Target of v in A's frame, and B's turn so that its centre lies outward along φ.
        const tx = -s * l + s * r * d * Math.cos(ang);
        const ty = s * r * d * Math.sin(ang);
        const psi = ang - Math.atan2(cb[1] - v[1], cb[0] - v[0]) + jitter;
        const cps = Math.cos(psi);
        const sps = Math.sin(psi);
        const bx = tx - (cps * v[0] - sps * v[1]);
        const by = ty - (sps * v[0] + cps * v[1]);
        // B's pose in A's frame, then in the world.
        const wx = ox + pa.q.c * bx - pa.q.s * by;
        const wy = oy + pa.q.s * bx + pa.q.c * by;
        const pb = pose2.fromAngle(wx, wy, qa + psi);
        if (swap) checkPair(b, pb, a, pa);
        else checkPair(a, pa, b, pb);
      }),
      { numRuns: 600 },
    );
  });
});
