/**
 * Session 23's fresh-user attack (findings F1 and F2, main 55602dc), issue 16 must-have 2.
 *
 * F1. Polytopes sharing exactly one point — an aabb's corner or a hull's vertex on a hull's
 * vertex, edge or face, at size ratios of 1e4–1e8 — were reported apart: intersects false,
 * distance a few ulps (or 5e-324) with pointA = pointB, contact null, no pair, castShapes toi
 * 5e-324; likewise two 2D polygons sharing a vertex. GJK's gap and the refined overlap carry
 * the rounding of the support points (1e5 here) while the touching tolerance followed the
 * witnesses' magnitude (0 at a shared vertex at the origin); the 2D SAT measured separations
 * along rounded unit normals. Fixed: src/narrowphase/convex-convex.ts decides two polytopes near
 * touching by the exact test of GJK's supporting points (src/geometry/exact-predicates.ts),
 * and asks it where the solved gap exceeds the witnesses' separation; src/dim2/contact2.ts
 * decides two polygons whose SAT separation is within EXACT_TOUCH_BAND of 0 by the exact SAT
 * (orient2d per edge and vertex), both ways: a touch is distance 0, an exact gap stays a gap.
 *
 * F2. The 2D polygon SAT's tie favoured A's axes by 1e-9 of A's size, so near a vertex-on-vertex
 * contact the depth depended on the order (3.9 times the least overlap). Fixed: the tie is
 * symmetric and depth-relative, as the box–box SAT's.
 *
 * Expected values: the shared points are true by construction (integer arithmetic on the
 * generating vectors, test/fuzz/touch-one-point.gen.ts); the 2D SAT depth is the least overlap
 * over every edge normal of both polygons, computed here; exact predicates are checked against
 * BigInt arithmetic. The recorded lines and a generated sample are also replayed through the
 * fuzzer's own checks (test/fuzz/fuzz.ts) with the shared point given as certified.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  orient2dSign,
  orient3dSign,
  pointInTriangle,
  pointOnSegment,
  segmentsCross,
} from "../../src/geometry/exact-predicates.js";
import { answerQuery } from "../../src/io/query.js";
import type { Scenario } from "./generate.js";
import { expectReplayPasses } from "./recorded-cases.js";
import {
  type J,
  type TouchCase2,
  type TouchCase3,
  touchCase2,
  touchCase3,
  type V,
} from "./touch-one-point.gen.js";

const EPS = 2 ** -52;

// biome-ignore lint/suspicious/noExplicitAny: query answers are JSON
type Any = any;

/** Every point of a shape's JSON (vertices, corners of an aabb or a box). */
function pointsOf(j: J): V[] {
  if (j.type === "convex" && j.position) {
    const o = j.position as V;
    return (j.points as V[]).map((q) => q.map((x, i) => x + o[i]));
  }
  if (j.type === "convex" || j.type === "polygon") return j.points as V[];
  if (j.type === "triangle") return [j.a, j.b, j.c] as V[];
  if (j.type === "aabb" || j.type === "rect") return [j.min, j.max] as V[];
  const c = j.center as V;
  const h = j.halfExtents as V;
  return [c.map((x, i) => x - h[i]), c.map((x, i) => x + h[i])];
}

/** The pair's size L of docs/FORMATS.md "Accuracy" (bounding radii about the points' mean, centres' distance). */
function pairSize(a: J, b: J): number {
  const ball = (j: J) => {
    const p = pointsOf(j);
    const c = p[0].map((_, i) => p.reduce((s, q) => s + q[i], 0) / p.length);
    return { c, r: Math.max(...p.map((q) => Math.hypot(...q.map((x, i) => x - c[i])))) };
  };
  const A = ball(a);
  const B = ball(b);
  return Math.max(A.r, B.r, Math.hypot(...A.c.map((x, i) => x - B.c[i])));
}

/** Every op says touching for (a, b), in both orders; contact(B, A) the flip of contact(A, B). */
function expectTouching(a: J, b: J, dim: 2 | 3): void {
  const q = dim === 2 ? { dim: 2 } : {};
  const zero = dim === 2 ? [0, 0] : [0, 0, 0];
  const vB = dim === 2 ? [1, 2] : [1, 2, 3];
  const bar = 64 * EPS * pairSize(a, b);
  const contacts: Any[] = [];
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const where = JSON.stringify({ a: x, b: y });
    expect((answerQuery({ ...q, op: "intersects", a: x, b: y }) as Any).intersects, where).toBe(
      true,
    );
    expect((answerQuery({ ...q, op: "distance", a: x, b: y }) as Any).distance, where).toBe(0);
    const c = answerQuery({ ...q, op: "contact", a: x, b: y }) as Any;
    expect(c, where).not.toBeNull();
    expect(c.distance, where).toBeLessThanOrEqual(0);
    expect(c.distance, where).toBeGreaterThanOrEqual(-bar);
    contacts.push(c);
    expect(answerQuery({ ...q, op: "manifold", a: x, b: y }), where).not.toBeNull();
    expect((answerQuery({ ...q, op: "pairs", shapes: [x, y] }) as Any).pairs, where).toEqual([
      [0, 1],
    ]);
    const cast = answerQuery({
      ...q,
      op: "castShapes",
      a: x,
      velocityA: zero,
      b: y,
      velocityB: vB,
      maxToi: 1,
    }) as Any;
    expect(cast?.toi, where).toBe(0);
  }
  expect(Math.abs(contacts[0].distance - contacts[1].distance)).toBeLessThanOrEqual(bar);
}

/**
 * The fuzzer's own checks (every op, both orders) on (a, b) with `p` certified common: its oracle
 * answers the pair moved by −p (exact: every coordinate is p plus a multiple of a grid step
 * that p is a multiple of), the library the pair as given.
 */
function fuzzerPasses(a: J, b: J, p: V, pair: string): void {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const sc: Scenario = {
      mode: "touching",
      localA: translateJson(x, p, -1),
      localB: translateJson(y, p, -1),
      worldA: x,
      worldB: y,
      offset: p,
      shared: [0, 0, 0],
      apart: 0,
      velocityA: [0, 0, 0],
      velocityB: [1, 2, 3],
      maxToi: 1,
      prediction: 0,
    };
    expectReplayPasses(sc, pair);
  }
}

/** A shape's JSON moved by s·p (its point fields), each coordinate checked exact. */
function translateJson(j: J, p: V, s: number): J {
  const mv = (q: V) =>
    q.map((x, i) => {
      const y = x + s * p[i];
      if (y - s * p[i] !== x) throw new Error(`inexact move of ${x} by ${s * p[i]}`);
      return y;
    });
  const o: J = { ...j };
  const fields = j.position ? ["position"] : ["points", "min", "max", "center", "a", "b", "c"];
  for (const k of fields) {
    const v = j[k];
    if (!Array.isArray(v)) continue;
    o[k] = Array.isArray(v[0]) ? (v as V[]).map(mv) : mv(v as V);
  }
  return o;
}

/** The fuzzer's pair name of a JSON shape type. */
const FUZZ_NAME: Record<string, string> = {
  convex: "convex",
  aabb: "aabb",
  box: "box",
  triangle: "triangle",
};

describe("F1: polytopes sharing exactly one point are touching (session 23)", () => {
  // Each pair is split by a plane through the origin (x + y + z = 0 for the aabb and the first
  // hull, x = 0 for the others) that each shape meets only at its vertex (0, 0, 0): the shapes
  // share that point and nothing else — true depth 0, the witnesses at the origin.
  const aabbHull: [J, J] = [
    { type: "aabb", min: [-1, -5, -1], max: [0, 0, 0] },
    {
      type: "convex",
      points: [
        [0, 0, 0],
        [120000, 120000, -150000],
        [-120000, 60000, 60000],
        [30000, 60000, 30000],
      ],
    },
  ];
  const hullHull: [J, J] = [
    {
      type: "convex",
      points: [
        [0, 0, 0],
        [-1000, -2000, 1000],
        [-3000, 5000, -4000],
        [-5000, 1000, 4000],
      ],
    },
    {
      type: "convex",
      points: [
        [0, 0, 0],
        [1.5e8, -3e7, 1.2e8],
        [6e7, 6e7, -6e7],
        [6e7, -6e7, -9e7],
      ],
    },
  ];
  const polygons: [J, J] = [
    {
      type: "polygon",
      points: [
        [0, 0],
        [-1, -3],
        [-5, 5],
      ],
    },
    {
      type: "polygon",
      points: [
        [0, 0],
        [60000, -30000],
        [60000, 60000],
      ],
    },
  ];

  it("an aabb's corner on a hull's vertex, ratio 1e5 (was: false, distance 5.55e-16)", () => {
    expectTouching(...aabbHull, 3);
    const d = answerQuery({ op: "distance", a: aabbHull[0], b: aabbHull[1] }) as Any;
    expect(d).toEqual({ distance: 0, pointA: [0, 0, 0], pointB: [0, 0, 0] });
    fuzzerPasses(...aabbHull, [0, 0, 0], "aabb-convex");
  });

  it("a hull's vertex on a hull's vertex, ratio 1e5 (was: false, distance 5e-324)", () => {
    expectTouching(...hullHull, 3);
    const d = answerQuery({ op: "distance", a: hullHull[0], b: hullHull[1] }) as Any;
    expect(d).toEqual({ distance: 0, pointA: [0, 0, 0], pointB: [0, 0, 0] });
    fuzzerPasses(...hullHull, [0, 0, 0], "convex-convex");
  });

  it("2D: two triangles sharing a vertex, ratio 1e4 (was: false, distance 1.1e-16)", () => {
    expectTouching(...polygons, 2);
    const d = answerQuery({ op: "distance", dim: 2, a: polygons[0], b: polygons[1] }) as Any;
    expect(d).toEqual({ distance: 0, pointA: [0, 0], pointB: [0, 0] });
  });

  it("property: hulls, aabbs, boxes, triangles sharing a vertex / vertex on edge or face / crossing edges", () => {
    fc.assert(
      fc.property(touchCase3(), (c: TouchCase3) => expectTouching(c.a, c.b, 3)),
      { numRuns: 300, seed: 2323 },
    );
  });

  it("property: the same class through the fuzzer's checks (every op, both orders)", () => {
    fc.assert(
      fc.property(touchCase3(), (c: TouchCase3) =>
        fuzzerPasses(
          c.a,
          c.b,
          c.p,
          `${FUZZ_NAME[c.a.type as string]}-${FUZZ_NAME[c.b.type as string]}`,
        ),
      ),
      { numRuns: 40, seed: 2324 },
    );
  });

  it("property: 2D polygons and rects sharing a vertex or a vertex on an edge", () => {
    fc.assert(
      fc.property(touchCase2(), (c: TouchCase2) => expectTouching(c.a, c.b, 2)),
      { numRuns: 400, seed: 2325 },
    );
  });

  it("property: moved apart by an exact tiny gap, they stay apart (2D: every gap; 3D: beyond 32 ulps of L)", () => {
    fc.assert(
      fc.property(
        touchCase2(),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom(0, 1),
        (c: TouchCase2, j, axis) => {
          // B moved along ±axis by 2^-j of its coordinates' finest grid step, away from A when
          // the line's normal has that component: a gap of exactly δ·|n_axis|/|n| > 0.
          const pb = pointsOf(c.b);
          const pa = pointsOf(c.a);
          const side = Math.sign(
            pb.reduce((s, q) => s + q[axis], 0) / pb.length -
              pa.reduce((s, q) => s + q[axis], 0) / pa.length,
          );
          if (side === 0) return;
          const grid = Math.min(...pb.flat().map(ulpGrid));
          const d = grid * 2 ** -j * side;
          const moved = moveJson(c.b, axis, d);
          if (!moved) return;
          const q = { dim: 2, a: c.a, b: moved };
          // Apart only when the shapes' extents on that axis are split by the move (the shared
          // point is extreme on the axis for both): else the move may slide B along A.
          const maxA = Math.max(...pa.map((p) => side * p[axis]));
          const minB = Math.min(...pointsOf(moved).map((p) => side * p[axis]));
          if (!(minB > maxA)) return;
          expect((answerQuery({ ...q, op: "intersects" }) as Any).intersects).toBe(false);
          expect((answerQuery({ ...q, op: "distance" }) as Any).distance).toBeGreaterThan(0);
          expect(answerQuery({ ...q, op: "contact" })).toBeNull();
        },
      ),
      { numRuns: 300, seed: 2326 },
    );
    fc.assert(
      fc.property(touchCase3(), fc.integer({ min: 0, max: 2 }), (c: TouchCase3, axis) => {
        const pa = pointsOf(c.a);
        const pb = pointsOf(c.b);
        const maxA = Math.max(...pa.map((p) => p[axis]));
        const minB = Math.min(...pb.map((p) => p[axis]));
        // Only pairs already split on the axis at the shared point: moved by 2^6 · 32 ulps of L.
        if (!(minB >= maxA)) return;
        const L = pairSize(c.a, c.b);
        const grid = Math.min(...pb.flat().map(ulpGrid));
        const d = Math.max(grid, 2 ** Math.ceil(Math.log2(2048 * EPS * L)));
        const moved = moveJson(c.b, axis, d);
        if (!moved) return;
        expect((answerQuery({ op: "intersects", a: c.a, b: moved }) as Any).intersects).toBe(false);
        expect((answerQuery({ op: "distance", a: c.a, b: moved }) as Any).distance).toBeGreaterThan(
          0,
        );
      }),
      { numRuns: 200, seed: 2327 },
    );
  });
});

/** The finest power of two dividing x (its last bit's weight; 2^-1074 for 0). */
function ulpGrid(x: number): number {
  if (x === 0) return Number.POSITIVE_INFINITY;
  let g = 2 ** Math.floor(Math.log2(Math.abs(x)));
  while (x % g !== 0) g /= 2;
  return g;
}

/** A shape's JSON moved by d along an axis, or null when a coordinate does not move exactly. */
function moveJson(j: J, axis: number, d: number): J | null {
  const mv = (p: V) => p.map((x, i) => (i === axis ? x + d : x));
  const ok = (p: V) =>
    p.every((x, i) => i !== axis || x + d - d === x) && mv(p)[axis] - p[axis] === d;
  const o: J = { ...j };
  const fields = j.position ? ["position"] : ["points", "min", "max", "center", "a", "b", "c"];
  for (const k of fields) {
    const v = j[k];
    if (!Array.isArray(v)) continue;
    if (Array.isArray(v[0])) {
      if (!(v as V[]).every(ok)) return null;
      o[k] = (v as V[]).map(mv);
    } else {
      if (!ok(v as V)) return null;
      o[k] = mv(v as V);
    }
  }
  return o;
}

/**
 * The least overlap of two convex polygons over every edge normal of both (the 2D SAT depth,
 * > 0 when they overlap), each separation taken relative to the edge's own vertex.
 */
function satDepth(a: V[], b: V[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const [p, q] of [
    [a, b],
    [b, a],
  ]) {
    // Outward normals whatever the winding: the side away from the polygon's mean.
    const c = [0, 1].map((i) => p.reduce((s, x) => s + x[i], 0) / p.length);
    for (let i = 0; i < p.length; i++) {
      const u = p[i];
      const v = p[(i + 1) % p.length];
      const e = [v[0] - u[0], v[1] - u[1]];
      const l = Math.hypot(e[0], e[1]);
      let n = [e[1] / l, -e[0] / l];
      if (n[0] * (c[0] - u[0]) + n[1] * (c[1] - u[1]) > 0) n = [-n[0], -n[1]];
      const sep = Math.min(...q.map((x) => n[0] * (x[0] - u[0]) + n[1] * (x[1] - u[1])));
      best = Math.min(best, -sep);
    }
  }
  return best;
}

describe("F2: 2D polygon depth is the SAT minimum in both orders (session 23)", () => {
  const recorded: [J, J][] = [
    [
      {
        type: "polygon",
        points: [
          [0, 0],
          [-6000, 6000],
          [-4000, -1000],
        ],
      },
      {
        type: "polygon",
        points: [
          [-5.587935447692871e-9, 0],
          [4.9999999944120646, 1],
          [2.9999999944120646, -9],
        ],
      },
    ],
    [
      {
        type: "polygon",
        points: [
          [0, 0],
          [-60, 10],
          [-40, -70],
        ],
      },
      {
        type: "polygon",
        points: [
          [-3.3527612686157227e-8, 0],
          [8.999999966472387, 7],
          [1.9999999664723873, -3],
        ],
      },
    ],
  ];

  /** contact(A, B) and contact(B, A): depth the SAT minimum to the bar, the flip of each other. */
  function expectSymmetricDepth(a: J, b: J): void {
    const depth = satDepth(a.points as V[], b.points as V[]);
    const bar = 1e-6 * depth + 64 * EPS * pairSize(a, b);
    const ab = answerQuery({ op: "contact", dim: 2, a, b }) as Any;
    const ba = answerQuery({ op: "contact", dim: 2, a: b, b: a }) as Any;
    const where = JSON.stringify({ a, b, depth });
    expect(ab, where).not.toBeNull();
    expect(ba, where).not.toBeNull();
    expect(Math.abs(-ab.distance - depth), where).toBeLessThanOrEqual(bar);
    expect(Math.abs(-ba.distance - depth), where).toBeLessThanOrEqual(bar);
    for (const m of [
      answerQuery({ op: "manifold", dim: 2, a, b }) as Any,
      answerQuery({ op: "manifold", dim: 2, a: b, b: a }) as Any,
    ]) {
      for (const p of m.points) expect(-p.distance, where).toBeLessThanOrEqual(depth + bar);
    }
  }

  it("the recorded pairs (was: contact(B, A) 3.9× and 1.04× the least overlap)", () => {
    for (const [a, b] of recorded) {
      expectSymmetricDepth(a, b);
      const ab = answerQuery({ op: "contact", dim: 2, a, b }) as Any;
      const ba = answerQuery({ op: "contact", dim: 2, a: b, b: a }) as Any;
      expect(ba.distance).toBe(ab.distance);
      expect(ba.normal).toEqual(ab.normal.map((x: number) => -x));
      expect(ba.pointA).toEqual(ab.pointB);
      expect(ba.pointB).toEqual(ab.pointA);
    }
    const d0 = satDepth(recorded[0][0].points as V[], recorded[0][1].points as V[]);
    expect(Math.abs(d0 - 1.35527e-9)).toBeLessThan(1e-14);
  });

  it("property: a vertex a little past a vertex, sizes 1e-3..1e4, ratios 1e2..1e4", () => {
    const unit = fc.integer({ min: 1, max: 1000 }).map((k) => 0.05 + k / 1053);
    const signed = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
    const turnArb = fc.integer({ min: 0, max: 359 }).map((k) => (k * Math.PI) / 180);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(unit, signed), { minLength: 2, maxLength: 5 }),
        fc.array(fc.tuple(unit, signed), { minLength: 2, maxLength: 5 }),
        fc.integer({ min: -10, max: 13 }),
        fc.integer({ min: 7, max: 14 }),
        fc.integer({ min: 20, max: 40 }),
        turnArb,
        (wa, wb, e, ratio, depthE, turn) => {
          // A: a fan from its vertex at the origin into the half-plane x < 0 (angles in
          // (−π/2·0.95, π/2·0.95) about −x); B: one into x > 0 from its vertex moved by −δ along
          // a direction, so the vertices overlap by about δ.
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          const fan = (w: [number, number][], size: number, dir: number): V[] => {
            const pts = w.map(([r, t]) => {
              const ang = (t * 0.95 * Math.PI) / 2;
              return [dir * size * r * Math.cos(ang), size * r * Math.sin(ang)];
            });
            return [[0, 0], ...pts];
          };
          const big = hullOf(fan(wa, L, -1));
          const d = s * 2 ** -depthE * 64;
          const c = Math.cos(turn) * d;
          const small = hullOf(fan(wb, s, 1)).map((p) => [
            p[0] - Math.abs(c),
            p[1] + Math.sin(turn) * d,
          ]);
          if (big.length < 3 || small.length < 3) return;
          const a = { type: "polygon", points: big };
          const b = { type: "polygon", points: small };
          if (!(satDepth(big, small) > 0)) return;
          expectSymmetricDepth(a, b);
        },
      ),
      { numRuns: 400, seed: 2328 },
    );
  });
});

/** Convex hull of floating-point points (monotone chain; collinear points dropped). */
function hullOf(points: V[]): V[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const turn = (o: V, a: V, b: V) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (pts: V[]) => {
    const h: V[] = [];
    for (const q of pts) {
      while (h.length >= 2 && turn(h[h.length - 2], h[h.length - 1], q) <= 0) h.pop();
      h.push(q);
    }
    return h.slice(0, -1);
  };
  return half(p).concat(half([...p].reverse()));
}

/** x as an exact fraction n / 2^k (BigInt n, k ≥ 0 up to 1074). */
function frac(x: number): { n: bigint; k: number } {
  let k = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  return { n: BigInt(m), k };
}

/** Exact sign of a polynomial in the inputs, each scaled to a common integer grid. */
function onGrid(xs: number[]): bigint[] {
  const f = xs.map(frac);
  const k = Math.max(...f.map((t) => t.k));
  return f.map((t) => t.n * 2n ** BigInt(k - t.k));
}

function sign(x: bigint): number {
  return x > 0n ? 1 : x < 0n ? -1 : 0;
}

function orient2dBig(p: number[]): number {
  const [ax, ay, bx, by, cx, cy] = onGrid(p);
  return sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

function orient3dBig(p: number[]): number {
  const [ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz] = onGrid(p);
  const [ux, uy, uz] = [bx - ax, by - ay, bz - az];
  const [vx, vy, vz] = [cx - ax, cy - ay, cz - az];
  const [wx, wy, wz] = [dx - ax, dy - ay, dz - az];
  return sign(ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx));
}

const v3 = (p: number[], i: number) => ({ x: p[3 * i], y: p[3 * i + 1], z: p[3 * i + 2] });

describe("exact predicates (src/geometry/exact-predicates.ts) against BigInt arithmetic", () => {
  // Points on a line or plane through integer combinations, then nudged by a few ulps: the
  // degenerate and nearly degenerate inputs the filter cannot decide.
  // Coordinates m·2^e (|m| < 2^40, e in [−80, 0]): within the predicates' exact range, with
  // long mantissas so that differences and products round.
  const base = fc
    .tuple(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.integer({ min: -80, max: 0 }))
    .map(([m, e]) => m * 2 ** e + 1e6 * 2 ** e * 0.123456789);
  const scaleArb = fc.integer({ min: -60, max: 60 }).map((e) => 2 ** e);
  const nudge = fc.integer({ min: -2, max: 2 });
  const nudged = (x: number, k: number) => {
    let y = x;
    for (let i = 0; i < Math.abs(k); i++) y = nextToward(y, k > 0);
    return y;
  };

  it("orient2d: collinear and nearly collinear triples", () => {
    fc.assert(
      fc.property(
        fc.tuple(base, base),
        fc.tuple(base, base),
        fc.integer({ min: -8, max: 8 }),
        scaleArb,
        fc.array(nudge, { minLength: 6, maxLength: 6 }),
        (a, u, t, g, ks) => {
          const p = [
            a[0],
            a[1],
            a[0] + g * u[0],
            a[1] + g * u[1],
            a[0] + t * g * u[0],
            a[1] + t * g * u[1],
          ];
          const q = p.map((x, i) => nudged(x, ks[i]));
          expect(orient2dSign(q[0], q[1], q[2], q[3], q[4], q[5])).toBe(orient2dBig(q));
        },
      ),
      { numRuns: 2000, seed: 2329 },
    );
  });

  it("orient3d: coplanar and nearly coplanar quadruples", () => {
    fc.assert(
      fc.property(
        fc.tuple(base, base, base),
        fc.tuple(base, base, base),
        fc.tuple(base, base, base),
        fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
        scaleArb,
        fc.array(nudge, { minLength: 12, maxLength: 12 }),
        (a, u, v, [s, t], g, ks) => {
          const b = a.map((x, i) => x + g * u[i]);
          const c = a.map((x, i) => x + g * v[i]);
          const d = a.map((x, i) => x + s * g * u[i] + t * g * v[i]);
          const p = [...a, ...b, ...c, ...d].map((x, i) => nudged(x, ks[i]));
          expect(orient3dSign(v3(p, 0), v3(p, 1), v3(p, 2), v3(p, 3))).toBe(orient3dBig(p));
        },
      ),
      { numRuns: 2000, seed: 2330 },
    );
  });

  it("incidence: a point on a segment or in a triangle, crossing segments (integer grids)", () => {
    const o = { x: 1e9, y: -3e8, z: 7 };
    const at = (x: number, y: number, z: number) => ({ x: o.x + x, y: o.y + y, z: o.z + z });
    expect(pointOnSegment(at(1, 2, 3), at(0, 0, 0), at(2, 4, 6))).toBe(true);
    expect(pointOnSegment(at(1, 2, 3.0000001), at(0, 0, 0), at(2, 4, 6))).toBe(false);
    expect(pointOnSegment(at(3, 6, 9), at(0, 0, 0), at(2, 4, 6))).toBe(false);
    expect(pointInTriangle(at(1, 1, 0), at(0, 0, 0), at(3, 0, 0), at(0, 3, 0))).toBe(true);
    expect(pointInTriangle(at(1.5, 1.5, 0), at(0, 0, 0), at(3, 0, 0), at(0, 3, 0))).toBe(true);
    expect(pointInTriangle(at(1.5, 1.5000001, 0), at(0, 0, 0), at(3, 0, 0), at(0, 3, 0))).toBe(
      false,
    );
    expect(pointInTriangle(at(1, 1, 2 ** -20), at(0, 0, 0), at(3, 0, 0), at(0, 3, 0))).toBe(false);
    expect(segmentsCross(at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0))).toBe(true);
    expect(segmentsCross(at(-1, 0, 0), at(1, 0, 0), at(0, -1, 2 ** -20), at(0, 1, 0))).toBe(false);
    expect(segmentsCross(at(-1, 0, 0), at(1, 0, 0), at(0, 0, 0), at(0, 1, 0))).toBe(false);
  });
});

/** The next double after x toward +∞ (up) or −∞. */
function nextToward(x: number, up: boolean): number {
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  i[0] += x > 0 === up ? 1n : -1n;
  return b[0];
}
