/**
 * Regression inputs of issue 16, "distance off the oracle's bounds" for two polytopes at a size
 * ratio of 1e6–1e9 (found by least-overlap.test.ts's hull property with `distance` asked, main
 * 704850b). GJK's gap is the projection of the origin onto a simplex of support-point
 * differences at the large shape's magnitude; where an edge of the small shape crosses an edge
 * of the large one the simplex is a sliver, and its projection lost the size ratio to rounding:
 * a hull of 0.1 beside one of 1e5 (at 1e8) was answered 0.0148334747, 5.5e-7 below the
 * certified lower bound; a hull of 1e-8 beside one of 10 (at 1e7) 4.496e-10 where 3.321e-10
 * separates them. Fixed (src/geometry/simplex-features.ts, `exactPolytopeGap` in
 * src/narrowphase/convex-convex.ts): unless GJK's answer is certified by the separation along its
 * direction, the closest points of the supporting features themselves (corner–face along the
 * face normal, edge–edge on the common perpendicular e1 × e2), iterated over support points and
 * taken when the separation along their normal meets their distance.
 *
 * The recorded inputs are replayed through the fuzzer's checks (test/fuzz/fuzz.ts, its
 * independent oracle test/fuzz/oracle-*.ts at the bars of docs/FORMATS.md) with their right
 * distances from a brute force over every feature pair (edge–edge and corner–face of the two
 * hulls' triangulated boundaries, here in the test); a fast-check property generates the class
 * (a small hull or box near a large hull, apart by a fraction of the small one's size,
 * sizes 1e-6..1e6, ratios 1e2..1e9, offsets to 1e9) against the same oracle.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { segmentSegmentDistSq } from "../oracles/polytope-distance.js";
import { unitArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import {
  add,
  closestOnTriangle,
  dist,
  dot,
  norm,
  oshape,
  scale,
  sub,
  unit,
  type V,
} from "./oracle-shapes.js";
import { expectPassesBothOrders } from "./recorded-cases.js";

type J = Record<string, unknown>;

/** A convex hull of size s about the origin: eight jittered cube corners. */
function hullPoints(s: number, jitter: number[]): V[] {
  const pts: V[] = [];
  for (let i = 0; i < 8; i++) {
    const c: V = [i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1];
    pts.push(c.map((x, k) => s * x * (1 + 0.3 * jitter[(3 * i + k) % jitter.length])) as V);
  }
  return pts;
}

/** Every op of the scenario passes the fuzzer's bars, in both orders. */
function passes(a: J, b: J, o: number[], pair: string): void {
  expectPassesBothOrders(a, b, o, pair, { ops: ["distance"] });
}

const small1: V[] = [
  [-0.09999999999999999, -0.09999999999999999, -0.09999999999999999],
  [0.09999999999999999, -0.09999999999999999, -0.09999999999999999],
  [-0.09999999999999999, 0.09999999999999999, -0.09999999999999999],
  [0.09999999999999999, 0.09999999999999999, -0.12999999999999998],
  [-0.12999999999999998, -0.09999999999999999, 0.09999999999999999],
  [0.09999999999999999, -0.09999999999999999, 0.09999999999999999],
  [-0.09999999999999999, 0.09999999999999999, 0.09999999999999999],
  [0.09999999999999999, 0.12999999999999992, 0.09999999999999999],
];
const large1: V[] = [
  [-100000, -100000, -100000],
  [100000, -100000, -100000],
  [-100000, 100000, -100000],
  [100000, 100000, -100000],
  [-100000, -100000, 100000],
  [100000, -100000, 129999.99999999999],
  [-100000, 100000, 100000],
  [100000, 100000, 70000.00000000001],
];
const small2: V[] = [
  [-1e-8, -1e-8, -1e-8],
  [1e-8, -7.000000000000002e-9, -1e-8],
  [-7.000000000000001e-9, 1e-8, -7.000000000000002e-9],
  [1e-8, 1e-8, -1e-8],
  [-1e-8, -1e-8, 1e-8],
  [1e-8, -1e-8, 1e-8],
  [-1e-8, 1e-8, 7.000000000000003e-9],
  [1.2999999999999999e-8, 1.2999999999999999e-8, 7.000000000000002e-9],
];
const large2: V[] = [
  [-12.999999999999998, -10, -10],
  [12.999999999999998, -10, -10],
  [-10, 10, -10],
  [10, 10, -10],
  [-10, -10, 10],
  [12.999999999999998, -10, 10],
  [-10, 10, 11.455655504340154],
  [10, 10, 10],
];

/**
 * The distance of the hulls of point sets P and Q (apart), by brute force: every segment of two
 * points of P against every one of Q, every point of either against every triangle of three of
 * the other. Each is a subset of its hull, so none is below the distance, and the closest
 * features of two polytopes (an edge pair or a corner and a face) are among them.
 */
function bruteDistance(P: V[], Q: V[]): number {
  let best = Infinity;
  const pairs = (X: V[]) => X.flatMap((x, i) => X.slice(i + 1).map((y) => [x, y]));
  const triples = (X: V[]) =>
    X.flatMap((x, i) => X.slice(i + 1).flatMap((y, j) => X.slice(i + j + 2).map((z) => [x, y, z])));
  for (const [p1, q1] of pairs(P))
    for (const [p2, q2] of pairs(Q))
      best = Math.min(best, Math.sqrt(segmentSegmentDistSq(p1, q1, p2, q2)));
  for (const [X, Y] of [
    [P, Q],
    [Q, P],
  ])
    for (const p of X)
      for (const [a, b, c] of triples(Y))
        best = Math.min(best, dist(p, closestOnTriangle(p, a, b, c)));
  return best;
}

/** The recorded pairs: small hull at `at` (world), large at `large` (world), right distance. */
const CASES = [
  {
    small: small1,
    at: [21137.196786155742, -100021137.19678615, 118170.70951792324] as V,
    large: large1,
    largeAt: [0, -100000000, 0] as V,
    // bruteDistance's (an edge of each).
    distance: 0.014834045984795,
  },
  {
    small: small2,
    at: [-11.848938592849128, -2.3262572089632827, -10000001.767740913] as V,
    large: large2,
    largeAt: [0, 0, -10000000] as V,
    distance: 3.3214700585e-10,
  },
];

describe("issue 16: two polytopes' gap at size ratios of 1e6–1e9", () => {
  for (const [i, c] of CASES.entries()) {
    it(`recorded pair ${i + 1}: distance ${c.distance} (both orders, the fuzzer's checks)`, () => {
      // The right distance by brute force, in the large hull's frame (the offset exact there).
      const rel = sub(c.at, c.largeAt);
      const truth = bruteDistance(
        c.small.map((p) => add(p, rel)),
        c.large,
      );
      const L = Math.max(...c.large.map(norm), norm(rel));
      const bar = 1e-9 * truth + 64 * 2 ** -52 * L;
      expect(Math.abs(truth - c.distance)).toBeLessThanOrEqual(bar);
      const a: J = { type: "convex", points: c.small, position: c.at };
      const b: J = { type: "convex", points: c.large, position: c.largeAt };
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const r = answerQuery({ op: "distance", a: x, b: y }) as { distance: number };
        expect(Math.abs(r.distance - truth)).toBeLessThanOrEqual(bar);
      }
      // The same pair through the fuzzer's oracle, moved to the large hull's frame.
      passes(
        { type: "convex", points: c.small, position: sub(c.at, c.largeAt) },
        { type: "convex", points: c.large, position: [0, 0, 0] },
        c.largeAt,
        "convex-convex",
      );
    });
  }
});

const jitterArb = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
  minLength: 24,
  maxLength: 24,
});

describe("properties of the class", () => {
  it("a small hull or box apart from a large hull, any scales and offset (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("convex", "box"),
        fc.integer({ min: -6, max: 6 }),
        fc.integer({ min: 2, max: 9 }),
        unitArb,
        jitterArb,
        jitterArb,
        fc.double({ min: 1e-3, max: 1, noNaN: true }),
        unitArb,
        fc.constantFrom(0, 1, 1e3, 1e6, 1e9),
        (kind, eb, ratio, d, jb, ja, gap, ou, om) => {
          const S = 10 ** eb;
          const s = Math.max(1e-6, S * 10 ** -ratio);
          const b: J = { type: "convex", points: hullPoints(S, jb), position: [0, 0, 0] };
          const far = scale(d, 4 * S);
          const p = oshape(b).pieces[0].closest(far);
          // The small shape's lowest point along −n on the large one's surface point, then lifted
          // along n by `gap` of its size (n an outward normal there).
          const n = unit(sub(far, p));
          const pts = kind === "convex" ? hullPoints(s, ja) : hullPoints(s, [0]);
          const h = Math.max(...pts.map((q) => -dot(q, n)));
          const at = add(p, scale(n, h + gap * s));
          const a: J =
            kind === "convex"
              ? { type: "convex", points: pts, position: at }
              : { type: "aabb", min: add(at, [-s, -s, -s]), max: add(at, [s, s, s]) };
          passes(a, b, exactOffset(ou, om * S), `${kind === "box" ? "aabb" : kind}-convex`);
        },
      ),
      { numRuns: 80 },
    );
  });
});
