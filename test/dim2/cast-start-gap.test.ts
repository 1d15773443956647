/**
 * 2D `castShapes` from a start closer than its stopping tolerance (issue 16, fresh-user attack
 * 39; repros /work/notes/fresh39b/leave*.jsonl, approach2d.jsonl). The cast stopped at once
 * (toi 0) on a gap at most 1e-9 of the smaller shape's size, so polygon and segment pairs apart
 * by up to ~1e-9 of their size — which `intersects` calls apart — were "hit" at time 0 whether
 * they moved apart, sideways or towards each other (parallel unit segments 1e-12 apart moving
 * apart: toi 0; rects of 1e6 with a gap of 1e-3: toi 0; a gap of 1e-9 closing at speed 1: toi 0
 * instead of 1e-9). docs/FORMATS.md: toi 0 exactly when `intersects` is true. The time-0
 * decision is now the `intersects` predicate (exact, orient2d) and the stopping gap is capped by
 * 1e-9 of the starting gap (src/dim2/cast-shapes2.ts, `castStopGap2`).
 *
 * Oracles: the hand-derived answers of the repros (apart and opening: null; closing head-on at
 * speed k over a gap g: toi g/k, normal the gap's direction), and a property over pairs built so
 * that their gap is exact in doubles (dyadic coordinates, quarter-turn scene rotations, offsets
 * from the world origin to 1e6 whose rounding the oracle re-derives as the library's relative
 * offset does: one subtraction of the poses).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castShapes2D } from "../../src/dim2/cast-shapes2.js";
import { distance2D, intersects2D } from "../../src/dim2/contact2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import {
  makeCapsule,
  makePolygon,
  makeRect,
  makeSegment,
  type Shape2,
  ShapeType2,
} from "../../src/dim2/shapes.js";
import type { Vec2 } from "../../src/dim2/vec2.js";
import { answerQuery2D } from "../../src/io/query-2d.js";
import { shapeArb } from "./arbitraries.js";

type Hit = { toi: number; normal: number[]; pointA: number[]; pointB: number[] } | null;

/** The castShapes line with A and B swapped (velocities with them). */
function swapped(q: Record<string, unknown>): Record<string, unknown> {
  return { ...q, a: q.b, b: q.a, velocityA: q.velocityB, velocityB: q.velocityA };
}

function cast(q: Record<string, unknown>): Hit {
  return answerQuery2D({ op: "castShapes", dim: 2, ...q }) as Hit;
}

function intersects(q: Record<string, unknown>): boolean {
  return (answerQuery2D({ op: "intersects", dim: 2, a: q.a, b: q.b }) as { intersects: boolean })
    .intersects;
}

const seg = (y: number) => ({ type: "segment", a: [0, y], b: [1, y] });
const rect = (min: number[], max: number[]) => ({ type: "rect", min, max });

describe("2D castShapes from a start within its old stopping tolerance (repros)", () => {
  // Parallel unit segments (0,0)–(1,0) and (0,g)–(1,g): apart by g.
  const gaps = [1e-15, 5e-15, 1e-14, 2e-14, 5e-14, 1e-13, 1e-12, 1e-11, 1e-10, 2e-10, 1e-9, 1e-6];
  it.each(gaps)("segments %s apart moving apart or slanted away: null, both orders", (g) => {
    for (const v of [
      [0, 1],
      [1, 1],
      [-3, 1e-3],
    ]) {
      const q = { a: seg(0), velocityA: [0, 0], b: seg(g), velocityB: v };
      expect(intersects(q)).toBe(false);
      expect(cast(q)).toBeNull();
      expect(cast(swapped(q))).toBeNull();
    }
  });

  it.each(gaps)("segments %s apart moving sideways: null; closing at speed 2: toi g/2", (g) => {
    const side = { a: seg(0), velocityA: [0, 0], b: seg(g), velocityB: [1, 0] };
    expect(cast(side)).toBeNull();
    expect(cast(swapped(side))).toBeNull();
    const close = { a: seg(0), velocityA: [0, 0], b: seg(g), velocityB: [0, -2] };
    for (const [q, ny] of [
      [close, 1],
      [swapped(close), -1],
    ] as const) {
      const h = cast(q);
      expect(h).not.toBeNull();
      // Head-on, the gap closes linearly: toi = g / 2 (hand-derived).
      expect(Math.abs((h as NonNullable<Hit>).toi - g / 2)).toBeLessThanOrEqual(1e-9 * (g / 2));
      expect((h as NonNullable<Hit>).normal).toEqual([0, ny]);
    }
  });

  it("rects, rect–segment, segment–polygon and crossing segments apart 1e-14 and 1e-12, leaving: null", () => {
    for (const g of [1e-14, 1e-12]) {
      const pairs = [
        [rect([0, -1], [1, 0]), rect([0, g], [1, 1])],
        [rect([0, -1], [1, 0]), seg(g)],
        [
          seg(0),
          {
            type: "polygon",
            points: [
              [0, g],
              [1, g],
              [0.5, 1],
            ],
          },
        ],
        [seg(0), { type: "segment", a: [0.5, g], b: [0.5, 1] }],
      ];
      for (const [a, b] of pairs) {
        const q = { a, velocityA: [0, 0], b, velocityB: [0, 1] };
        expect(intersects(q)).toBe(false);
        expect(cast(q)).toBeNull();
        expect(cast(swapped(q))).toBeNull();
      }
    }
  });

  it("rects of size s with a gap g (leave3): leaving null, closing at speed 1 toi g", () => {
    for (const [s, g] of [
      [1000, 1e-6],
      [1000, 1e-5],
      [1e-3, 1e-12],
      [1e6, 1e-3],
      [1, 3e-9],
      [1, 1e-8],
    ]) {
      const a = rect([0, -s], [s, 0]);
      const b = rect([0, g], [s, s]);
      const leave = { a, velocityA: [0, 0], b, velocityB: [0, 1] };
      expect(intersects(leave)).toBe(false);
      expect(cast(leave)).toBeNull();
      expect(cast(swapped(leave))).toBeNull();
      const close = { a, velocityA: [0, 0], b, velocityB: [0, -1] };
      for (const q of [close, swapped(close)]) {
        const h = cast(q) as NonNullable<Hit>;
        expect(Math.abs(h.toi - g)).toBeLessThanOrEqual(1e-9 * g);
      }
    }
  });

  it("approach2d: a gap of 1e-9 (1e-7) closing at speed 1 hits at 1e-9 (1e-7); sideways null", () => {
    for (const g of [1e-9, 1e-7]) {
      const a = rect([0, -1], [1, 0]);
      const b = rect([0, g], [1, 1]);
      const close = { a, velocityA: [0, 0], b, velocityB: [0, -1] };
      for (const [q, ny] of [
        [close, 1],
        [swapped(close), -1],
      ] as const) {
        const h = cast(q) as NonNullable<Hit>;
        expect(Math.abs(h.toi - g)).toBeLessThanOrEqual(1e-9 * g);
        expect(h.normal).toEqual([0, ny]);
      }
      const side = { a, velocityA: [0, 0], b, velocityB: [1, 0] };
      expect(cast(side)).toBeNull();
      expect(cast(swapped(side))).toBeNull();
    }
  });

  it("touching (gap 0) still answers toi 0, as intersects", () => {
    const q = {
      a: rect([0, -1], [1, 0]),
      velocityA: [0, 0],
      b: rect([0, 0], [1, 1]),
      velocityB: [0, 1],
    };
    expect(intersects(q)).toBe(true);
    expect((cast(q) as NonNullable<Hit>).toi).toBe(0);
    expect((cast(swapped(q)) as NonNullable<Hit>).toi).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: pairs with an exact gap.
//
// In the scene's own frame ("up" frame) A lies below B: A's highest point is at local y = hA
// (above A's pose), B's lowest at local y = −hB (below B's pose), and B's pose is D = hA + hB + g
// above A's. Every coordinate is a small integer times q = 2^(E−10) (s = 2^E the scale, 1e-3 to
// 1e6) and g = j·2^(E−50) (1e-15 to 1e-3 of s), so D is exact. The scene is turned by a quarter
// turn R (exact) and placed at an offset O up to 1e6: pose A = (O, R), pose B = (O + R·(0, D), R),
// whose rounding the oracle follows: the library reads B relative to A as one subtraction of
// the poses, so the realised D' = R^T·(pB − pA) (exact for a quarter turn) and the realised gap
// is D' − (hA + hB) (to one rounding, relative ε). At least one of A, B meets the other with a
// horizontal edge across x = 0 (so the gap is along the edge normal, and the closed form's
// distance is exact).

interface Side {
  shape: Shape2;
  /** Extent toward the other shape from the pose (hA or hB), scene units. */
  h: number;
  flat: boolean;
}

const small = (lo: number, hi: number) => fc.integer({ min: lo, max: hi });

/** A shape with its highest point at y = h·q, a flat top across x = 0 or a vertex at (0, h·q). */
function upperArb(q: number): fc.Arbitrary<Side> {
  const P = (x: number, y: number): Vec2 => ({ x: x * q, y: y * q });
  return fc.oneof(
    fc.record({ w: small(1, 512), h: small(1, 512) }).map(({ w, h }) => ({
      shape: makeRect({ x: w * q, y: h * q }),
      h: h * q,
      flat: true,
    })),
    fc
      .record({
        w1: small(1, 512),
        w2: small(1, 512),
        h: small(0, 256),
        d: small(1, 256),
        x: small(-256, 256),
      })
      .map(({ w1, w2, h, d, x }) => ({
        shape: makePolygon([P(-w1, h), P(w2, h), P(x, h - d)]),
        h: h * q,
        flat: true,
      })),
    fc
      .record({ w1: small(1, 512), w2: small(1, 512), h: small(0, 256), d: small(1, 256) })
      .map(({ w1, w2, h, d }) => ({
        shape: makePolygon([P(0, h), P(-w1, h - d), P(w2, h - d)]),
        h: h * q,
        flat: false,
      })),
    fc
      .record({ w1: small(1, 512), w2: small(1, 512), h: small(-256, 256) })
      .map(({ w1, w2, h }) => ({ shape: makeSegment(P(-w1, h), P(w2, h)), h: h * q, flat: true })),
    fc
      .record({ x: small(-256, 256), h: small(-256, 256), d: small(1, 256) })
      .map(({ x, h, d }) => ({ shape: makeSegment(P(0, h), P(x, h - d)), h: h * q, flat: false })),
    fc
      .record({ w1: small(1, 512), w2: small(1, 512), h: small(1, 256), r: small(1, 256) })
      .map(({ w1, w2, h, r }) => ({
        shape: makeCapsule(P(-w1, h), P(w2, h), r * q),
        h: (h + r) * q,
        flat: true,
      })),
  );
}

/** `s` mirrored in y (so its lowest point is at −h). */
function mirrored(side: Side): Side {
  const s = side.shape;
  const flip = (i: number): Vec2 => ({ x: s.core.verts[2 * i], y: -s.core.verts[2 * i + 1] });
  switch (s.type) {
    case ShapeType2.Rect:
      return side; // a rect is symmetric
    default: {
      const n = s.core.count;
      const pts = Array.from({ length: n }, (_, i) => flip(i));
      let shape: Shape2;
      if (n >= 3) shape = makePolygon(pts);
      else if (s.core.radius > 0) shape = makeCapsule(pts[0], pts[1], s.core.radius);
      else shape = makeSegment(pts[0], pts[1]);
      return { shape, h: side.h, flat: side.flat };
    }
  }
}

const QUARTERS = [
  { c: 1, s: 0 },
  { c: 0, s: 1 },
  { c: -1, s: 0 },
  { c: 0, s: -1 },
];

/** R·(x, y) for the quarter turn (c, s): exact. */
const turn = (r: { c: number; s: number }, x: number, y: number) => ({
  x: r.c * x - r.s * y,
  y: r.s * x + r.c * y,
});

const pairArb = fc
  .record({
    e: fc.integer({ min: -10, max: 20 }),
    jExp: fc.double({ min: 0, max: 40, noNaN: true }),
  })
  .chain(({ e, jExp }) => {
    const q = 2 ** (e - 10);
    const g = Math.floor(2 ** jExp) * 2 ** (e - 50);
    return fc.record({
      e: fc.constant(e),
      g: fc.constant(g),
      a: upperArb(q),
      b: upperArb(q).map(mirrored),
      r: fc.integer({ min: 0, max: 3 }),
      ox: fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
      oy: fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
      speed: fc.double({ min: -3, max: 3, noNaN: true }).map((u) => 2 ** e * 10 ** u),
      lateral: fc.double({ min: -2, max: 2, noNaN: true }),
      swap: fc.boolean(),
    });
  })
  .filter(({ a, b }) => a.flat || b.flat);

describe("2D castShapes: toi 0 iff intersects, null when separating, g/k head-on (property)", () => {
  it("holds for polygons, rects, segments, capsules of 1e-3..1e6 at offsets to 1e6, gaps 1e-15..1e-3 of the size", () => {
    fc.assert(
      fc.property(pairArb, ({ g, a, b, r, ox, oy, speed, lateral, swap }) => {
        const rot = QUARTERS[r];
        const D = a.h + b.h + g;
        const off = turn(rot, 0, D);
        const poseA: Pose2 = { p: { x: ox, y: oy }, q: { ...rot } };
        const poseB: Pose2 = { p: { x: ox + off.x, y: oy + off.y }, q: { ...rot } };
        // The realised offset, as the library reads it (pB − pA, then R^T: exact).
        const rel = { x: poseB.p.x - poseA.p.x, y: poseB.p.y - poseA.p.y };
        const dUp = rot.c * rel.y - rot.s * rel.x;
        const gap = dUp - (a.h + b.h);
        const n = turn(rot, 0, 1);
        const t = turn(rot, 1, 0);
        const meets = intersects2D(a.shape, poseA, b.shape, poseB);
        expect(meets).toBe(gap <= 0);
        const zero = { x: 0, y: 0 };
        /** The cast with B moving at v relative to A (or, swapped, A at −v relative to B). */
        const run = (v: Vec2) =>
          swap
            ? castShapes2D(b.shape, poseB, zero, a.shape, poseA, { x: -v.x, y: -v.y })
            : castShapes2D(a.shape, poseA, zero, b.shape, poseB, v);
        const k = Math.abs(speed);
        const away = { x: k * n.x + lateral * k * t.x, y: k * n.y + lateral * k * t.y };
        const side = { x: k * t.x, y: k * t.y };
        const towards = { x: -k * n.x, y: -k * n.y };
        for (const v of [away, side, towards]) {
          const h = run(v);
          if (meets) {
            expect(h?.toi).toBe(0);
            continue;
          }
          if (v !== towards) {
            expect(h).toBeNull();
            continue;
          }
          expect(h).not.toBeNull();
          const toi = (h as NonNullable<typeof h>).toi;
          expect(toi).toBeGreaterThan(0);
          expect(Math.abs(toi - gap / k)).toBeLessThanOrEqual(1e-9 * (gap / k));
          const sign = swap ? -1 : 1;
          expect((h as NonNullable<typeof h>).normal.x * sign).toBeCloseTo(n.x, 12);
          expect((h as NonNullable<typeof h>).normal.y * sign).toBeCloseTo(n.y, 12);
        }
      }),
      { numRuns: 1500, seed: 39 },
    );
  });
});

// Any two shapes at any angle, placed by their own distance query a gap g (−1e-3..1e-3 of the
// size, down to 1e-15 of it, or 0) apart along their closest points' direction n: the cast's
// start agrees with `intersects` in both orders; moving apart along n (a separating direction of
// two convex shapes, up to its rounding) never meets once the gap is well above that rounding;
// moving together along n meets when the gap has closed (|v|·toi = gap: the distance falls no
// faster than |v|, and reaches 0 there), to 1e-9 of the gap plus the distance's own rounding.
describe("2D castShapes near touching at any angle (property)", () => {
  it("toi 0 iff intersects; null opening along n; gap/speed closing along n", () => {
    const sizeArb = fc.integer({ min: -10, max: 20 }).map((e) => 2 ** e);
    const arb = sizeArb.chain((s) =>
      fc.record({
        s: fc.constant(s),
        a: shapeArb(s),
        b: shapeArb(s),
        angA: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        angB: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        dir: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        ox: fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
        oy: fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
        gapExp: fc.double({ min: -15, max: -3, noNaN: true }),
        gapSign: fc.constantFrom(-1, 0, 1),
      }),
    );
    fc.assert(
      fc.property(arb, ({ s, a, b, angA, angB, dir, ox, oy, gapExp, gapSign }) => {
        const poseA: Pose2 = { p: { x: ox, y: oy }, q: { c: Math.cos(angA), s: Math.sin(angA) } };
        // B far along `dir`, then moved back along the closest points' direction.
        const far = 8 * s;
        const poseB0: Pose2 = {
          p: { x: ox + far * Math.cos(dir), y: oy + far * Math.sin(dir) },
          q: { c: Math.cos(angB), s: Math.sin(angB) },
        };
        const d0 = distance2D(a, poseA, b, poseB0);
        if (!(d0.distance > 0)) return;
        const nx = (d0.pointB.x - d0.pointA.x) / d0.distance;
        const ny = (d0.pointB.y - d0.pointA.y) / d0.distance;
        const g = gapSign * 10 ** gapExp * s;
        const move = d0.distance - g;
        const poseB: Pose2 = {
          p: { x: poseB0.p.x - move * nx, y: poseB0.p.y - move * ny },
          q: poseB0.q,
        };
        const meets = intersects2D(a, poseA, b, poseB);
        const zero = { x: 0, y: 0 };
        const k = s;
        const opening = { x: k * nx, y: k * ny };
        const closing = { x: -k * nx, y: -k * ny };
        for (const v of [opening, closing]) {
          const h1 = castShapes2D(a, poseA, zero, b, poseB, v);
          const h2 = castShapes2D(b, poseB, v, a, poseA, zero);
          expect(h1?.toi === 0).toBe(meets);
          expect(h2?.toi === 0).toBe(meets);
        }
        if (meets) return;
        const d = distance2D(a, poseA, b, poseB).distance;
        // The rounding of a placement and of n: a few ulps of the size and of the offsets.
        const round = 64 * Number.EPSILON * (s + Math.abs(ox) + Math.abs(oy));
        // Below that, n is the direction of a gap at the rounding: it proves nothing.
        // (A negative g may have pushed a thin B through A, to the other side of n.)
        if (!(d > 1e4 * round) || g <= 0) return;
        expect(castShapes2D(a, poseA, zero, b, poseB, opening)).toBeNull();
        expect(castShapes2D(b, poseB, opening, a, poseA, zero)).toBeNull();
        for (const h of [
          castShapes2D(a, poseA, zero, b, poseB, closing),
          castShapes2D(b, poseB, closing, a, poseA, zero),
        ]) {
          expect(h).not.toBeNull();
          const toi = (h as NonNullable<typeof h>).toi;
          expect(toi).toBeGreaterThan(0);
          expect(Math.abs(toi * k - d)).toBeLessThanOrEqual(1e-9 * d + round);
        }
      }),
      { numRuns: 1500, seed: 391 },
    );
  });
});
