/**
 * overlapVolume of rounded shapes (a rounded box, a rounded hull) with half-spaces, boxes, hulls
 * and curved solids — by chords now (src/query/overlap-volume-chords.ts; they had gone to the
 * octree, 0.3–2.3 s a query) — and of huge pairs (fresh-user finding 04, issue 16: a rounded box
 * or hull of 1e105..1e300 with a box was refused rightly, but after 3–140 s of CPU; now answered
 * in units scaled by a power of two, refused at once when a lower bound already overflows).
 * Oracles written here, independent of the chords:
 *
 * - hand-derived closed forms: a rounded box (core half extents a, b, c, radius r) below a plane
 *   parallel to a face, at depth h ≤ r into its rounded layer: each slice at height s is a
 *   rounded rectangle 4ab + 4(a + b)ρ + πρ², ρ² = 2rs − s², so
 *   V(h) = 4ab·h + 4(a + b)·I(h) + π(r h² − h³/3), I(h) = ∫₀ʰ ρ ds (a circular segment's area:
 *   πr²/4 − ((r − h)√(2rh − h²) + r² asin((r − h)/r))/2); below the core's mid plane: half its
 *   Steiner volume; a box cutting a rounded box's face slab inside its flat part: a box;
 * - Monte Carlo (10^6 points, the answer within errorBound + 6σ) with membership tests written
 *   here: a rounded hull's by the distance to its core, a box of corners here (turned), or a
 *   tetrahedron (the distance to a tetrahedron by its faces' Voronoi regions: the closest point
 *   on a triangle from test/fuzz/oracle-shapes.ts, which imports nothing of src/);
 * - exact scaling: the same pair at 2^k (k ≤ 340) answers within both bounds of the unit pair's
 *   answer times 2^3k.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQueryLine } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import {
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeRoundedConvexPolyhedron,
  makeRoundedCuboid,
  makeSphere,
  type Shape,
} from "../../src/shapes/index.js";
import { closestOnTriangleVoronoi, dot, scale, sub } from "../fuzz/oracle-shapes.js";
import { axisAngle, pose } from "../support/pose.js";
import { unrotateByQuat, type V3 } from "../support/quat.js";

/** World point p in the frame of `at` (q unit). */
function toLocal(at: Isometry, p: V3): V3 {
  const t = at.translation;
  return unrotateByQuat(at.rotation, [p[0] - t.x, p[1] - t.y, p[2] - t.z]);
}

/** Distance from p to the solid tetrahedron t (0 inside). */
function tetraDistance(t: V3[], p: V3): number {
  const faces = [
    [0, 1, 2, 3],
    [0, 1, 3, 2],
    [0, 2, 3, 1],
    [1, 2, 3, 0],
  ];
  let inside = true;
  let best = Infinity;
  for (const [i, j, k, o] of faces) {
    const n: V3 = [
      (t[j][1] - t[i][1]) * (t[k][2] - t[i][2]) - (t[j][2] - t[i][2]) * (t[k][1] - t[i][1]),
      (t[j][2] - t[i][2]) * (t[k][0] - t[i][0]) - (t[j][0] - t[i][0]) * (t[k][2] - t[i][2]),
      (t[j][0] - t[i][0]) * (t[k][1] - t[i][1]) - (t[j][1] - t[i][1]) * (t[k][0] - t[i][0]),
    ];
    const side = dot(n, sub(p, t[i])) * dot(n, sub(t[o], t[i]));
    if (side < 0) inside = false;
    const q = closestOnTriangleVoronoi(p, t[i], t[j], t[k]);
    best = Math.min(best, Math.hypot(...sub(p, q)));
  }
  return inside ? 0 : best;
}

const TETRA: V3[] = [
  [-1, -0.8, -0.6],
  [1.1, -0.7, -0.5],
  [0.1, 1, -0.7],
  [0.2, 0.1, 0.9],
];
const CUBE_CORE: V3 = [0.8, 0.5, 0.3];
const cubeCorners = (h: V3): V3[] =>
  Array.from({ length: 8 }, (_, i) => [
    i & 1 ? h[0] : -h[0],
    i & 2 ? h[1] : -h[1],
    i & 4 ? h[2] : -h[2],
  ]);
const v3 = (p: V3) => ({ x: p[0], y: p[1], z: p[2] });

/** Membership tests written here, world point → inside. */
type Inside = (p: V3) => boolean;
const inRoundedTetra =
  (at: Isometry, r: number): Inside =>
  (p) =>
    tetraDistance(TETRA, toLocal(at, p)) <= r;
const inRoundedBox =
  (at: Isometry, h: V3, r: number): Inside =>
  (p) => {
    const l = toLocal(at, p);
    return (
      Math.hypot(
        Math.max(0, Math.abs(l[0]) - h[0]),
        Math.max(0, Math.abs(l[1]) - h[1]),
        Math.max(0, Math.abs(l[2]) - h[2]),
      ) <= r
    );
  };
const inBox = (at: Isometry, h: V3) => inRoundedBox(at, h, 0);
const inBall =
  (c: V3, r: number): Inside =>
  (p) =>
    Math.hypot(...sub(p, c)) <= r;
const inCylinder =
  (at: Isometry, halfHeight: number, r: number): Inside =>
  (p) => {
    const l = toLocal(at, p);
    return Math.abs(l[1]) <= halfHeight && Math.hypot(l[0], l[2]) <= r;
  };
const below =
  (n: V3, d: number): Inside =>
  (p) =>
    dot(n, p) <= d;

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Monte Carlo volume of A ∩ B over the cube of half side L about c: [estimate, σ]. */
function monteCarlo(inA: Inside, inB: Inside, c: V3, L: number, n = 1_000_000): [number, number] {
  const r = rng(20261207);
  let hit = 0;
  for (let i = 0; i < n; i++) {
    const p: V3 = [c[0] + (2 * r() - 1) * L, c[1] + (2 * r() - 1) * L, c[2] + (2 * r() - 1) * L];
    if (inA(p) && inB(p)) hit++;
  }
  const box = (2 * L) ** 3;
  const f = hit / n;
  return [f * box, Math.sqrt((f * (1 - f)) / n) * box];
}

const T1 = axisAngle(1, 2, 3, 0.7);
const T2 = axisAngle(-2, 1, 0.5, 1.1);
/** Generous against a second test process on 2 cores: the octree these replace took 0.3–140 s. */
const TIME_GUARD_MS = 2000;

function timed<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/** A circular segment's area ∫₀ʰ √(2rs − s²) ds (0 ≤ h ≤ r). */
function segmentIntegral(r: number, h: number): number {
  const u = r - h;
  return (
    (Math.PI * r * r) / 4 -
    (u * Math.sqrt(Math.max(0, r * r - u * u)) + r * r * Math.asin(u / r)) / 2
  );
}
/** The rounded box (a, b, c; r) below the plane at depth h ≤ r into its rounded layer along z. */
function roundedLayer(a: number, b: number, r: number, h: number): number {
  return (
    4 * a * b * h + 4 * (a + b) * segmentIntegral(r, h) + Math.PI * (r * h * h - (h * h * h) / 3)
  );
}
/** Steiner's volume of the rounded box (a, b, c; r). */
function roundedBoxVolume(a: number, b: number, c: number, r: number): number {
  return (
    8 * a * b * c +
    8 * (a * b + b * c + c * a) * r +
    2 * Math.PI * (a + b + c) * r * r +
    (4 / 3) * Math.PI * r * r * r
  );
}

describe("overlapVolume: a rounded shape with a half-space (chords, was the octree)", () => {
  const [a, b, c] = CUBE_CORE;
  const r = 0.2;
  const shapes: [string, Shape][] = [
    ["rounded box", makeRoundedCuboid(v3(CUBE_CORE), r)],
    [
      "rounded hull (a box's corners)",
      makeRoundedConvexPolyhedron(cubeCorners(CUBE_CORE).map(v3), r),
    ],
  ];
  for (const [name, s] of shapes) {
    it(`${name}: below a plane parallel to a face, at depths in its rounded layer, and its mid plane (hand-derived)`, () => {
      for (const h of [0.01, 0.05, 0.13, 0.2]) {
        // Below z = −(c + r) + h, as a half-space in the shape's frame (both argument orders),
        // the plane also turned with the shape.
        const plane = makeHalfSpace({ x: 0, y: 0, z: 1 }, -(c + r) + h);
        const exact = roundedLayer(a, b, r, h);
        for (const [ps, ph] of [
          [pose(), pose()],
          [pose(0.3, -0.2, 0.1, T1), pose(0.3, -0.2, 0.1, T1)],
        ]) {
          const [v, ms] = timed(() => overlapVolume(s, ps, plane, ph));
          expect(Math.abs(v.volume - exact)).toBeLessThanOrEqual(v.errorBound + 1e-12);
          expect(v.errorBound).toBeLessThanOrEqual(1.1e-3 * exact);
          expect(ms).toBeLessThan(TIME_GUARD_MS);
          const w = overlapVolume(plane, ph, s, ps);
          expect(Math.abs(w.volume - exact)).toBeLessThanOrEqual(w.errorBound + 1e-12);
        }
      }
      const mid = overlapVolume(s, pose(), makeHalfSpace({ x: 1, y: 0, z: 0 }, 0), pose());
      const half = roundedBoxVolume(a, b, c, r) / 2;
      expect(Math.abs(mid.volume - half)).toBeLessThanOrEqual(mid.errorBound + 1e-12);
      expect(mid.errorBound).toBeLessThanOrEqual(1.1e-3 * half);
    });
  }

  it("turned rounded box, rounded box-hull and rounded tetrahedron below oblique planes: Monte Carlo", () => {
    const n: V3 = [0.6, 0, 0.8];
    const plane = makeHalfSpace(v3(n), 0.1);
    const at = pose(0.1, 0.2, 0, T2);
    const cases: [Shape, Inside][] = [
      [makeRoundedCuboid(v3(CUBE_CORE), r), inRoundedBox(at, CUBE_CORE, r)],
      [
        makeRoundedConvexPolyhedron(cubeCorners(CUBE_CORE).map(v3), r),
        inRoundedBox(at, CUBE_CORE, r),
      ],
      [makeRoundedConvexPolyhedron(TETRA.map(v3), 0.3), inRoundedTetra(at, 0.3)],
    ];
    for (const [s, inS] of cases) {
      const [v, ms] = timed(() => overlapVolume(s, at, plane, pose()));
      expect(ms).toBeLessThan(TIME_GUARD_MS);
      const [mc, sigma] = monteCarlo(inS, below(n, 0.1), [0.1, 0.2, 0], 2.2);
      expect(Math.abs(v.volume - mc)).toBeLessThanOrEqual(v.errorBound + 6 * sigma);
      expect(v.errorBound).toBeLessThanOrEqual(1.1e-3 * v.volume);
    }
  });
});

describe("overlapVolume: a rounded hull with a box, a ball, a cylinder, a rounded hull (chords)", () => {
  it("a rounded tetrahedron with each, turned: Monte Carlo, both argument orders", () => {
    const at = pose(0, 0, 0, T1);
    const tetra = makeRoundedConvexPolyhedron(TETRA.map(v3), 0.3);
    const boxAt = pose(0.6, 0.3, 0.2, T2);
    const cylAt = pose(0.5, 0.3, 0.2, T2);
    const hullAt = pose(0.8, 0.3, 0.2, T2);
    const cases: [Shape, Isometry, Inside][] = [
      [makeCuboid({ x: 0.7, y: 0.6, z: 0.5 }), boxAt, inBox(boxAt, [0.7, 0.6, 0.5])],
      [makeSphere(0.8), pose(0.7, 0.3, 0.2), inBall([0.7, 0.3, 0.2], 0.8)],
      [makeCylinder(0.5, 0.6), cylAt, inCylinder(cylAt, 0.5, 0.6)],
      [
        makeRoundedConvexPolyhedron(cubeCorners(CUBE_CORE).map(v3), 0.2),
        hullAt,
        inRoundedBox(hullAt, CUBE_CORE, 0.2),
      ],
    ];
    for (const [s, ps, inS] of cases) {
      const [v, ms] = timed(() => overlapVolume(tetra, at, s, ps));
      expect(ms).toBeLessThan(TIME_GUARD_MS);
      const w = overlapVolume(s, ps, tetra, at);
      const [mc, sigma] = monteCarlo(inRoundedTetra(at, 0.3), inS, [0, 0, 0], 2.2);
      expect(Math.abs(v.volume - mc)).toBeLessThanOrEqual(v.errorBound + 6 * sigma);
      expect(Math.abs(w.volume - mc)).toBeLessThanOrEqual(w.errorBound + 6 * sigma);
      expect(v.errorBound).toBeLessThanOrEqual(1.1e-3 * v.volume);
    }
  });

  it("a box across a rounded hull's face slab within its flat part: a box (hand-derived)", () => {
    // Core the box (0.8, 0.5, 0.3), radius 0.2: for |y| ≤ 0.5, |z| ≤ 0.3 the solid is the slab
    // |x| ≤ 1, so a box x ∈ [0.5, 1.5], |y| ≤ 0.4, |z| ≤ 0.25 meets it in 0.5 × 0.8 × 0.5.
    const hull = makeRoundedConvexPolyhedron(cubeCorners(CUBE_CORE).map(v3), 0.2);
    const box = makeCuboid({ x: 0.5, y: 0.4, z: 0.25 });
    const v = overlapVolume(hull, pose(), box, pose(1, 0, 0));
    expect(Math.abs(v.volume - 0.2)).toBeLessThanOrEqual(v.errorBound + 1e-15);
    expect(v.errorBound).toBeLessThanOrEqual(1.1e-3 * 0.2);
  });
});

describe("overlapVolume: huge rounded pairs (fresh-user finding 04, issue 16)", () => {
  const refused = /too large for a finite overlap volume/;
  const tetraAt = (S: number) => TETRA.map((p) => v3(scale(p, S)));

  it("a volume past the doubles is refused fast, by name, in both argument orders and by the CLI", () => {
    for (const S of [1e105, 1e200, 1e300]) {
      const box = makeCuboid({ x: S, y: S, z: S });
      const pairs: [Shape, Isometry][] = [
        [makeRoundedCuboid({ x: S / 2, y: S / 2, z: S / 2 }, S / 4), pose(S / 3, 0, 0, T1)],
        [makeRoundedConvexPolyhedron(tetraAt(S), S / 4), pose(S / 3, 0, 0, T1)],
      ];
      for (const [s, ps] of pairs) {
        for (const [x, px, y, py] of [
          [box, pose(), s, ps],
          [s, ps, box, pose()],
          [s, ps, makeHalfSpace({ x: 0, y: 0.6, z: 0.8 }, S / 10), pose()],
        ] as [Shape, Isometry, Shape, Isometry][]) {
          const t0 = performance.now();
          let err: unknown = null;
          try {
            overlapVolume(x, px, y, py);
          } catch (e) {
            err = e;
          }
          expect(performance.now() - t0).toBeLessThan(TIME_GUARD_MS);
          expect(err).toBeInstanceOf(CollideError);
          expect((err as Error).message).toMatch(refused);
        }
      }
    }
    const line = JSON.stringify({
      op: "volume",
      a: { type: "box", center: [0, 0, 0], halfExtents: [1e200, 1e200, 1e200] },
      b: { type: "roundedConvex", points: TETRA.map((p) => scale(p, 1e200)), radius: 2e199 },
    });
    const t0 = performance.now();
    const out = JSON.stringify(answerQueryLine(line, 0));
    expect(performance.now() - t0).toBeLessThan(TIME_GUARD_MS);
    expect(out).toMatch(refused);
  });

  it("a rounded box's face slab cut by a box at 2^100..2^340: exactly (a + r)·4a², refused from 2^341", () => {
    for (const e of [100, 200, 300, 338, 340, 341, 600]) {
      const a = 2 ** e;
      const r = 2 ** (e - 2);
      // B: x ∈ [0, 2(a + r)], |y|, |z| ≤ a: it meets the slab |x| ≤ a + r of the flat part.
      const box = makeCuboid({ x: a + r, y: a, z: a });
      const exact = (a + r) * 4 * a * a;
      for (const s of [
        makeRoundedCuboid({ x: a, y: a, z: a }, r),
        makeRoundedConvexPolyhedron(cubeCorners([a, a, a]).map(v3), r),
      ]) {
        const t0 = performance.now();
        if (exact === Infinity) {
          expect(() => overlapVolume(s, pose(), box, pose(a + r, 0, 0))).toThrow(refused);
        } else {
          const v = overlapVolume(s, pose(), box, pose(a + r, 0, 0));
          expect(Math.abs(v.volume - exact)).toBeLessThanOrEqual(v.errorBound);
          expect(v.errorBound).toBeLessThanOrEqual(1.1e-3 * exact);
        }
        expect(performance.now() - t0).toBeLessThan(TIME_GUARD_MS);
      }
    }
  });

  it("a rounded box below a plane in its rounded layer at 2^300: the hand-derived layer, scaled", () => {
    const k = 2 ** 300;
    const [a, b, c] = CUBE_CORE;
    const r = 0.2;
    const s = makeRoundedCuboid({ x: a * k, y: b * k, z: c * k }, r * k);
    const plane = makeHalfSpace({ x: 0, y: 0, z: 1 }, (-(c + r) + 0.13) * k);
    const [v, ms] = timed(() => overlapVolume(s, pose(), plane, pose()));
    const exact = roundedLayer(a, b, r, 0.13) * k * k * k;
    expect(Math.abs(v.volume - exact)).toBeLessThanOrEqual(v.errorBound + 1e-12 * exact);
    expect(ms).toBeLessThan(TIME_GUARD_MS);
  });

  it("the same turned pair at 2^200 and 2^330 answers the unit pair's volume times 2^3k, within both bounds", () => {
    const tetra = (S: number) => makeRoundedConvexPolyhedron(tetraAt(S), 0.3 * S);
    const box = (S: number) => makeCuboid({ x: 0.7 * S, y: 0.6 * S, z: 0.5 * S });
    const unit = overlapVolume(tetra(1), pose(0, 0, 0, T1), box(1), pose(0.6, 0.3, 0.2, T2));
    for (const e of [200, 330]) {
      const S = 2 ** e;
      const [v, ms] = timed(() =>
        overlapVolume(tetra(S), pose(0, 0, 0, T1), box(S), pose(0.6 * S, 0.3 * S, 0.2 * S, T2)),
      );
      const k3 = S * S * S;
      expect(Math.abs(v.volume / k3 - unit.volume)).toBeLessThanOrEqual(
        v.errorBound / k3 + unit.errorBound,
      );
      expect(ms).toBeLessThan(TIME_GUARD_MS);
    }
  });

  it("a thin turned slab of 2^400 by 2^-400 across a box of 2^400: finite, answered within its own volume (was refused)", () => {
    const a = 2 ** 400;
    const slab = makeCuboid({ x: a, y: a, z: 2 ** -400 });
    const own = 8 * a * a * 2 ** -400;
    const v = overlapVolume(
      makeCuboid({ x: a, y: a, z: a }),
      pose(a, 0, 0),
      slab,
      pose(0, 0, 0, axisAngle(1, 0, 0, 0.3)),
    );
    // The true volume is half the slab's (the box's face x = 0 halves it): in [0, own].
    expect(Number.isFinite(v.volume) && Number.isFinite(v.errorBound)).toBe(true);
    expect(Math.abs(v.volume - own / 2)).toBeLessThanOrEqual(v.errorBound);
    expect(v.volume + v.errorBound).toBeLessThanOrEqual(own * (1 + 1e-12));
  });
});
