/**
 * Issue 16 (exactness; fresh-user finding 09 of session 44): a rounded core — a circle's centre,
 * a capsule's segment — exactly touching a straight edge (a polygon's, a segment's, a rectangle's
 * corner) must be touching: `intersects2D` true, `distance2D` 0, `contact2D` non-null with
 * distance 0, in both argument orders. A circle touching a triangle's tilted edge had been apart
 * by 8.9e-16 (the gap d − r rounded). Oracles: the finding's hand-derived touch, and for random
 * exact constructions (Pythagorean edge directions, so that a dyadic distance along a rational
 * unit normal is exact) the exact sign of the cores' distance less the radii, in BigInt rationals
 * (every double an integer times 2^-1100: the least squared distance over the cores'
 * vertex–segment pairs, against r²), also for the radius one ulp smaller (apart) and larger
 * (overlapping).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact2D, distance2D, intersects2D } from "../../src/dim2/contact2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import {
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  makeSegment,
  type Shape2,
} from "../../src/dim2/shapes.js";
import { big } from "./oracle.js";

/** The next double above (dir 1) or below (dir −1) a positive finite x. */
function nextDouble(x: number, dir: 1 | -1): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  b.setBigUint64(0, b.getBigUint64(0) + (dir > 0 ? 1n : -1n));
  return b.getFloat64(0);
}

type BP = [bigint, bigint];

/** The shape's core vertices in the world, exactly (a translation pose only), at big's scale. */
function worldCore(s: Shape2, p: Pose2): BP[] {
  expect(p.q.c).toBe(1);
  expect(p.q.s).toBe(0);
  const out: BP[] = [];
  for (let i = 0; i < s.core.count; i++) {
    out.push([big(s.core.verts[2 * i]) + big(p.p.x), big(s.core.verts[2 * i + 1]) + big(p.p.y)]);
  }
  return out;
}

/** Sign of dist(p, segment a–b)² − r² exactly (r at big's scale). */
function reachSign(p: BP, a: BP, b: BP, r: bigint): number {
  const dx = p[0] - a[0];
  const dy = p[1] - a[1];
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const l = ex * ex + ey * ey;
  const t = dx * ex + dy * ey;
  let num: bigint;
  let den = 1n;
  if (l === 0n || t <= 0n) num = dx * dx + dy * dy;
  else if (t >= l) {
    const fx = p[0] - b[0];
    const fy = p[1] - b[1];
    num = fx * fx + fy * fy;
  } else {
    const c = ex * dy - ey * dx;
    num = c * c;
    den = l;
  }
  const d = num - r * r * den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Exact sign of the distance of two cores that do not meet less the sum of their radii: the
 * least over vertex–edge pairs (and the point pair), compared with r² (Ericson 2005, §5.1.9).
 */
function oracleSign(a: Shape2, pa: Pose2, b: Shape2, pb: Pose2): number {
  const r = big(a.core.radius) + big(b.core.radius);
  const ca = worldCore(a, pa);
  const cb = worldCore(b, pb);
  let s = 1;
  const edges = (c: BP[]): [BP, BP][] =>
    c.length === 1
      ? [[c[0], c[0]]]
      : c.length === 2
        ? [[c[0], c[1]]]
        : c.map((v, i) => [v, c[(i + 1) % c.length]]);
  for (const [u, w] of edges(ca)) for (const v of cb) s = Math.min(s, reachSign(v, u, w, r));
  for (const [u, w] of edges(cb)) for (const v of ca) s = Math.min(s, reachSign(v, u, w, r));
  return s;
}

/** Asserts the three queries, both orders, against the exact sign. */
function expectSign(a: Shape2, pa: Pose2, b: Shape2, pb: Pose2, sign: number): void {
  for (const [x, px, y, py] of [
    [a, pa, b, pb],
    [b, pb, a, pa],
  ] as [Shape2, Pose2, Shape2, Pose2][]) {
    const hit = intersects2D(x, px, y, py);
    const dist = distance2D(x, px, y, py).distance;
    const c = contact2D(x, px, y, py);
    if (sign > 0) {
      expect(hit).toBe(false);
      expect(dist).toBeGreaterThan(0);
      expect(c).toBeNull();
    } else {
      expect(hit).toBe(true);
      expect(dist).toBe(0);
      expect(c).not.toBeNull();
      if (sign === 0) expect(c?.distance).toBe(0);
      // An overlap under the rounding: the least negative double, or −0 once a far-from-unit
      // pair's answer is scaled back (src/dim2/extreme-scale2.ts).
      else expect(c?.distance).toBeLessThanOrEqual(0);
    }
  }
}

describe("finding 09: a circle exactly touching a tilted polygon edge", () => {
  // Triangle (6,8), (-6,-8), (-8,6): the edge (6,8)–(-6,-8) on 4x − 3y = 0, the triangle on its
  // −(4,−3) side. Circle centre k·(4,−3), radius 5k, k = 2^-10: its distance to the line is
  // (16k + 9k)/5 = 5k, the foot the origin, inside the edge: an exact touch.
  const k = 2 ** -10;
  const poly = makePolygon([
    { x: 6, y: 8 },
    { x: -6, y: -8 },
    { x: -8, y: 6 },
  ]);
  const p0 = pose2.fromAngle(0, 0, 0);
  const pc = pose2.fromAngle(4 * k, -3 * k, 0);
  it("touches (was apart by 8.9e-16), both orders; an ulp smaller apart, larger overlapping", () => {
    const circle = makeCircle(5 * k);
    expect(oracleSign(poly, p0, circle, pc)).toBe(0);
    expectSign(poly, p0, circle, pc, 0);
    const c = contact2D(poly, p0, circle, pc);
    expect(c?.distance).toBe(0);
    expect(c?.normal.x).toBeCloseTo(0.8, 15);
    expect(c?.normal.y).toBeCloseTo(-0.6, 15);
    expectSign(poly, p0, makeCircle(nextDouble(5 * k, -1)), pc, 1);
    expectSign(poly, p0, makeCircle(nextDouble(5 * k, 1)), pc, -1);
  });
  it("at 2^-400 and 2^400 scale too (an apart answer keeps its gap through the change of units)", () => {
    for (const S of [2 ** -400, 2 ** 400]) {
      const big3 = makePolygon([
        { x: 6 * S, y: 8 * S },
        { x: -6 * S, y: -8 * S },
        { x: -8 * S, y: 6 * S },
      ]);
      const pcS = pose2.fromAngle(4 * k * S, -3 * k * S, 0);
      expectSign(big3, p0, makeCircle(5 * k * S), pcS, 0);
      expectSign(big3, p0, makeCircle(nextDouble(5 * k * S, -1)), pcS, 1);
      expectSign(big3, p0, makeCircle(nextDouble(5 * k * S, 1)), pcS, -1);
    }
  });
  it("the capsule along the edge (the finding's control) touches", () => {
    const cap = makeCapsule({ x: 0, y: 0 }, { x: 3 * k, y: 4 * k }, 5 * k);
    expectSign(poly, p0, cap, pc, 0);
  });
});

/** Integer edge directions (a, b) with a² + b² = c² (so the unit normal (b, −a)/c is rational). */
const DIRECTIONS: [number, number, number][] = [
  [4, -3, 5],
  [3, 4, 5],
  [5, 12, 13],
  [-12, 5, 13],
  [8, 15, 17],
  [15, -8, 17],
  [-7, -24, 25],
  [20, 21, 29],
  [1, 0, 1],
  [0, -1, 1],
];

interface Touch {
  straight: Shape2;
  poseS: Pose2;
  /** The rounded shape for radius r(ulps): r one ulp smaller (−1), exact (0), larger (1). */
  rounded: (ulps: -1 | 0 | 1) => Shape2;
  poseR: Pose2;
}

const scaleArb = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -8, max: 8 }),
  fc.integer({ min: -520, max: 520 }),
);

/**
 * An exact touch: an edge through the foot F along (a, b)·k, the rounded core's nearest point at
 * F + (b, −a)·k·t (distance c·k·t = r), the straight shape on the other side; k = 2^-m; the
 * straight shape placed by a dyadic translation T (far: up to 2^30), the rounded one at T + its
 * offset (exact: the bits fit); every length then multiplied by 2^e (tiny to huge).
 */
const touchArb: fc.Arbitrary<Touch> = fc
  .record({
    dir: fc.constantFrom(...DIRECTIONS),
    m: fc.integer({ min: 0, max: 16 }),
    t: fc.integer({ min: 1, max: 6 }),
    l0: fc.integer({ min: 1, max: 5 }),
    l1: fc.integer({ min: 1, max: 5 }),
    j: fc.integer({ min: -4, max: 4 }),
    h: fc.integer({ min: 1, max: 6 }),
    tx: fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
    ty: fc.integer({ min: -(2 ** 20), max: 2 ** 20 }),
    tShift: fc.integer({ min: 0, max: 10 }),
    kind: fc.constantFrom("polygon", "segment", "rectCorner", "rectSide"),
    rounded: fc.constantFrom("circle", "capsuleAway", "capsuleParallel", "capsuleEnd"),
    u1: fc.integer({ min: 0, max: 4 }),
    u2: fc.integer({ min: -4, max: 4 }),
    e: scaleArb,
  })
  .map((g) => {
    const S = 2 ** g.e;
    const k = 2 ** -g.m * S;
    let [a, b, c] = g.dir;
    // The straight shape in its local frame (foot F at the origin unless a rectangle).
    let straight: Shape2;
    let fx = 0;
    let fy = 0;
    if (g.kind === "rectCorner" || g.kind === "rectSide") {
      const hx = g.l0 * k * 4;
      const hy = g.l1 * k * 4;
      straight = makeRect({ x: hx, y: hy });
      if (g.kind === "rectCorner") {
        // The corner (hx, hy) is the nearest point, the offset along (4, 3)·k·t or (3, 4)·k·t:
        // the rectangle lies behind the line through the corner normal to it.
        fx = hx;
        fy = hy;
        [a, b, c] = g.j >= 0 ? [-3, 4, 5] : [-4, 3, 5];
      } else {
        fx = hx;
        fy = (g.j * hy) / 8;
        [a, b, c] = [0, 1, 1];
      }
    } else {
      const e0 = { x: -a * k * g.l0, y: -b * k * g.l0 };
      const e1 = { x: a * k * g.l1, y: b * k * g.l1 };
      if (g.kind === "segment") straight = makeSegment(e0, e1);
      else {
        const v = { x: -b * k * g.h + a * k * g.j, y: a * k * g.h + b * k * g.j };
        straight = makePolygon([e0, e1, v]);
      }
    }
    const t = g.t;
    const r = c * k * t;
    // Offset of the rounded core's nearest point from the straight shape's origin.
    const ox = fx + b * k * t;
    const oy = fy - a * k * t;
    const T = 2 ** g.tShift * S;
    const poseS = pose2.fromAngle(g.tx * T, g.ty * T, 0);
    const poseR = pose2.fromAngle(g.tx * T + ox, g.ty * T + oy, 0);
    // Exact offsets: the translation's sum is exact by the bits it holds (checked).
    expect(poseR.p.x - poseS.p.x).toBe(ox);
    expect(poseR.p.y - poseS.p.y).toBe(oy);
    const radius = (ulps: -1 | 0 | 1): number => (ulps === 0 ? r : nextDouble(r, ulps));
    let rounded: (ulps: -1 | 0 | 1) => Shape2;
    if (g.rounded === "circle") rounded = (u) => makeCircle(radius(u));
    else {
      // The capsule's segment from its nearest point: away from the edge (u1 ≥ 1 along the
      // normal) or parallel to it (u1 = 0); "capsuleEnd" starts at its far end.
      const u1 = g.rounded === "capsuleParallel" ? 0 : Math.max(1, g.u1);
      const u2 = g.u2 === 0 && u1 === 0 ? 1 : g.u2;
      const wx = (b * u1 + a * u2) * k;
      const wy = (-a * u1 + b * u2) * k;
      const end = g.rounded === "capsuleEnd";
      rounded = (u) =>
        end
          ? makeCapsule({ x: wx, y: wy }, { x: 0, y: 0 }, radius(u))
          : makeCapsule({ x: 0, y: 0 }, { x: wx, y: wy }, radius(u));
    }
    return { straight, poseS, rounded, poseR };
  });

describe("exact touches of rounded cores and straight edges (property)", () => {
  it("touching at r, apart one ulp below, overlapping one ulp above — the exact oracle's sign", () => {
    fc.assert(
      fc.property(touchArb, ({ straight, poseS, rounded, poseR }) => {
        for (const u of [0, -1, 1] as const) {
          const shape = rounded(u);
          const sign = oracleSign(straight, poseS, shape, poseR);
          expect(sign).toBe(u === 0 ? 0 : u < 0 ? 1 : -1);
          expectSign(straight, poseS, shape, poseR, sign);
        }
      }),
      { numRuns: 400, seed: 44 },
    );
  });

  it("two circles touching along a Pythagorean offset (both orders, ulps either side)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DIRECTIONS),
        fc.integer({ min: 0, max: 16 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 6 }),
        scaleArb,
        ([a, b, c], m, t, split, e) => {
          const k = 2 ** (e - m);
          const r = c * k * t;
          const r1 = (r * split) / 16;
          const p0 = pose2.fromAngle(0, 0, 0);
          const p1 = pose2.fromAngle(a * k * t, b * k * t, 0);
          for (const u of [0, -1, 1] as const) {
            const r2 = u === 0 ? r - r1 : nextDouble(r - r1, u);
            const x = makeCircle(r1);
            const y = makeCircle(r2);
            const sign = oracleSign(x, p0, y, p1);
            expect(sign).toBe(u === 0 ? 0 : u < 0 ? 1 : -1);
            expectSign(x, p0, y, p1, sign);
          }
        },
      ),
      { numRuns: 200, seed: 45 },
    );
  });
});
