/**
 * Issue 16 (fresh-user attack, fresh39b): box–box contact with support edges 10^-12..10^-6 rad
 * from parallel. Both boxes turned 45° about x, B a further 1e-6 about y, B's lowest edge on A's
 * highest: the exact SAT finds the edges crossing 1.9e-16 apart, but the box SAT skipped every
 * edge axis with |A_i × B_j|² ≤ 1e-12 and answered a face axis 4.95e-7 deep, its witnesses the
 * edges' crossing (pointB = pointA: facing error the whole depth), and the manifold along that
 * face. Two faults of src/narrowphase/cuboid-cuboid.ts:
 *
 * 1. The skip (`EDGE_AXIS_MIN_LENGTH_SQ` now 1e-200): any unit direction's separation bounds the
 *    gap and its overlap the depth when projected along that very direction (`edgeRbDirect`), so
 *    near-parallel edge axes are kept.
 * 2. The edge axis's witnesses (`satEdgeWitnesses`): the lines' closest points divide by
 *    1 − cos²θ and slid 1.5e-4 along the edges at θ = 1e-6 (1.6e-10 sideways); now the crossing
 *    seen along the normal, which slides only ε·|t|/θ (ε·|t| sideways).
 *
 * Oracles, independent of the library (test/fuzz/exact-box.ts): the exact 15-axis SAT on the input
 * doubles (the least overlap: the depth, negative apart), the exact distance of each witness from
 * its box's surface; the property replays the class (test/fuzz/box-edge-parallel.gen.ts) through
 * the fuzzer's checks (facing bar on) and the exact depth. Before: 118 of 300 replays failing the
 * fuzzer's checks and 88 with a depth off the exact one (fast-check seed 1, 150 draws); after, 0
 * (and 0 of 2,000 at seed 2).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MANIFOLD_TOLERANCE } from "../../src/constants.js";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { edgeParallelArb } from "./box-edge-parallel.gen.js";
import { exactSat, exactShapeFaceDistance } from "./exact-box.js";
import { offsetScenario } from "./generate.js";
import { expectReplayPasses } from "./recorded-cases.js";

type J = Record<string, unknown>;
type V = [number, number, number];

interface ManifoldJson {
  normal: V;
  points: { pointA: V; pointB: V; distance: number }[];
}

const A: J = {
  type: "box",
  center: [0, 0, 0],
  halfExtents: [1, 1, 1],
  rotation: [0.3826834323650898, 0, 0, 0.9238795325112867],
};
const B: J = {
  type: "box",
  center: [0.3, 2.8284271247461903, 0],
  halfExtents: [1, 1, 1],
  rotation: [0.38268343236504193, 4.619397662556241e-7, -1.913417161825369e-7, 0.9238795325111713],
};
const A9: J = { ...A, center: [1e9, 1e9, 1e9] };
const B9: J = { ...B, center: [1000000000.3, 1000000002.8284271, 1e9] };

/** The largest magnitude of a box's coordinates (centre and half extents). */
function magnitude(j: J): number {
  return (
    Math.max(...(j.center as number[]).map(Math.abs)) + Math.max(...(j.halfExtents as number[]))
  );
}

/**
 * The exact depth's bar (docs/FORMATS.md, Accuracy: 1e-6 of the depth and 64 ulps of the
 * coordinates), then contact and manifold of x against y checked against `depth` (the exact least
 * overlap) at prediction 0 and 1e-3 of the size.
 */
function checkPair(x: J, y: J, depth: number): void {
  const L = Math.max(magnitude(x), magnitude(y));
  const bar = 1e-6 * Math.abs(depth) + 64 * Number.EPSILON * L;
  const size = Math.max(...(x.halfExtents as number[]), ...(y.halfExtents as number[]));
  for (const prediction of [0, 1e-3 * size]) {
    const r = answerQuery({ op: "contact", a: x, b: y, prediction }) as ContactJson | null;
    const m = answerQuery({ op: "manifold", a: x, b: y, prediction }) as ManifoldJson | null;
    expect(m === null).toBe(r === null);
    if (r === null || m === null) {
      // Apart: only where the exact depth is within the rounding of touching, or beyond the prediction.
      expect(depth).toBeLessThanOrEqual(bar - prediction);
      continue;
    }
    expect(Math.abs(-r.distance - depth)).toBeLessThanOrEqual(bar);
    expect(Math.abs(exactShapeFaceDistance(x, r.pointA))).toBeLessThanOrEqual(bar);
    expect(Math.abs(exactShapeFaceDistance(y, r.pointB))).toBeLessThanOrEqual(bar);
    const w = [0, 1, 2].map((k) => r.pointB[k] - r.pointA[k] - r.distance * r.normal[k]);
    expect(Math.hypot(...w)).toBeLessThanOrEqual(bar);
    for (const p of m.points) {
      // Facing along the manifold's normal, no deeper than the contact, and within the prediction
      // plus the manifold's plane tolerance (docs: points up to max(prediction, distance) + it).
      const dp = [0, 1, 2].map((k) => p.pointB[k] - p.pointA[k]);
      const along = dp[0] * m.normal[0] + dp[1] * m.normal[1] + dp[2] * m.normal[2];
      expect(Math.abs(along - p.distance)).toBeLessThanOrEqual(bar);
      const side = [0, 1, 2].map((k) => dp[k] - along * m.normal[k]);
      expect(Math.hypot(...side)).toBeLessThanOrEqual(bar);
      expect(p.distance).toBeGreaterThanOrEqual(r.distance - bar);
      expect(p.distance).toBeLessThanOrEqual(
        Math.max(prediction, r.distance) + Math.min(MANIFOLD_TOLERANCE, 1e-3 * L) + bar,
      );
    }
  }
}

describe("box–box, support edges near parallel (issue 16, fresh39b)", () => {
  it("the repro: apart by 1.9e-16 exactly (the edge axis A_x × B_x), not 4.95e-7 deep on a face; witnesses facing (both orders)", () => {
    const sat = exactSat(A, B);
    expect(sat[0].name).toBe("E00");
    expect(sat[0].overlap).toBeCloseTo(-1.9334586626905827e-16, 28);
    expect(sat[1].overlap).toBeCloseTo(4.949747467132376e-7, 20);
    checkPair(A, B, sat[0].overlap);
    checkPair(B, A, exactSat(B, A)[0].overlap);
    // At prediction 1e-3: the gap of the edges' crossing, both witnesses at it.
    const r = answerQuery({ op: "contact", a: A, b: B, prediction: 1e-3 }) as ContactJson;
    expect(Math.abs(r.normal[1] - 1)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.pointA[0] - 0.3)).toBeLessThanOrEqual(1e-12);
  });

  it("the repro at 1e9: 4.84e-8 deep on the edge axis (the centre's rounding), both orders", () => {
    const sat = exactSat(A9, B9);
    expect(sat[0].name).toBe("E00");
    expect(sat[0].overlap).toBeCloseTo(4.840646841791588e-8, 20);
    checkPair(A9, B9, sat[0].overlap);
    checkPair(B9, A9, exactSat(B9, A9)[0].overlap);
  });
});

/**
 * The class at fast-check seeds 1 and 2: 150 draws each, both orders, through the fuzzer's checks
 * (contact, manifold, distance) and the exact depth.
 */
describe("property: box–box with an edge pair 1e-12..1e-6 rad from parallel, crossing, penetration 0..1e-3 of the size, offsets to 1e8", () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: the exact depth, witnesses facing, manifold points within bounds (both orders)`, () => {
      fc.assert(
        fc.property(edgeParallelArb, (g) => {
          for (const [x, y] of [
            [g.a, g.b],
            [g.b, g.a],
          ]) {
            const sc = offsetScenario(x, y, g.offset);
            expectReplayPasses(sc, "box-box", { ops: ["contact", "manifold", "distance"] });
            const wa = sc.worldA as J;
            const wb = sc.worldB as J;
            checkPair(wa, wb, exactSat(wa, wb)[0].overlap);
          }
        }),
        { numRuns: 150, seed },
      );
    }, 180_000);
  }
});
