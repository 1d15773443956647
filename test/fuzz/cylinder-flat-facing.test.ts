/**
 * Issue 16, the open lines cylinder-flat-facing.jsonl (test/fuzz/cylinder-crossing.gen.ts at
 * fast-check seed 2 without its rim filter: 6 of 1,500 draws): a cylinder's cap face or side
 * generator against a cap, a side generator or a cone's base 2^-8..2^-40 rad off parallel,
 * touching or up to 1e-9 deep, sizes 1e-3..1e4, bare or a compound's child — `contact`'s and
 * `manifold`'s witnesses 1.2e-6 to 2.5e-3 apart sideways across the normal (depth and normal
 * right).
 *
 * The cause: for two flat features nearly parallel, the support point along the normal slides
 * across the flat feature with the normal's last bits, and `faceWitnesses`' alternating
 * projections between a disc and a tilted disc or a generator crawl; the witnesses stayed where
 * they stopped. Now two bare cylinders or cones whose witnesses still lie apart sideways take
 * the deepest point of the overlap of their features seen along the normal
 * (`revolutionFacingWitnesses`, src/narrowphase/witness-features.ts): a side's support point
 * with its partner across the normal seated on the other shape, or a cylinder's generator with
 * its projection along the normal onto the other's cap or base (the ends of the interval of the
 * generator whose projection falls in the disc).
 *
 * Lines 6–9 (the open line left by cylflat34 and the flat mode's 3 failing draws of seed 2): a
 * flat feature's deepest point along the normal — a rim point of a cap 2^-11..2^-38 rad off it,
 * a generator's end 2^-21 off — lying just beside the other's cap or cone base seen along the
 * normal (3.8e-7, 9.6e-7, 5.9e-6 and 9.0e-11 outside its rim), so that no support point faces the
 * other's disc: the witnesses were a point of the disc's rim and the support point (9.6e-7 and
 * 9.0e-11 apart sideways), a cap's interior point 5.5e-11 short of the depth along the normal,
 * or a touch's one point 1.3e-11 outside a cone's base. The facing pair there is where the rims
 * cross seen along the normal (the depth lost along a rim second order in the step: α·s²/(2r));
 * now that crossing is a candidate (`rimCrossing`, by Newton's method on the rim's angle) and the
 * witnesses' miss counts their distance from their shapes and along the normal as well as across
 * it. Line 10 (seed 6's draw 155): two side generators 2^-22 and 2^-10 rad off, touching, the
 * larger's end 2e-6 past the smaller's end seen along the normal, both rims' planes containing
 * the normal nearly: the touch point 1.0e-9 off the smaller cylinder; now the rims' crossing in
 * both rims' angles at once (`rimPairCrossing`). Line 11 (seed 7's draw 804, a compound's
 * child): a generator whose end lies on a cap's rim, the rest outside, its stretch over the disc
 * empty by rounding (6.7e-15): witnesses 2.8e-2 apart sideways; now the generator's point nearest
 * the disc, its projection seated on the rim (`generatorOnDisc`). The regression: both witnesses
 * on their rims, facing at the exact geometry's depth.
 *
 * Oracles: the exact geometry of the bare shapes (test/oracles/revolution-depth.ts: signed
 * distances of cylinders and cones, the least overlap over directions), the fuzzer's checks
 * (replayed scenarios, the facing bar on). The property draws the class from the generator's
 * flat mode (both features a cap or a side generator, exactly or 2^-8..2^-40 rad off).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { leastOverlap, oracleShape, overlapAlong } from "../oracles/revolution-depth.js";
import { childInWorld } from "../support/compound.js";
import { unrotateVec } from "../support/quat.js";
import { cylinderCrossingArb } from "./cylinder-crossing.gen.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type V = [number, number, number];
type J = Record<string, unknown>;

const CASES = loadCaseLines("./cylinder-flat-facing.cases.jsonl");
const EPS = 2 ** -52;
const OPS = ["intersects", "distance", "contact", "manifold"];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V) => Math.sqrt(dot(a, a));

/** A bare shape, or a compound's one child as a bare shape with its pose composed (the frame given). */
function bare(j: J): J {
  return j.type === "compound" ? childInWorld(j) : j;
}

describe("issue 16: flat features of cylinders and cones nearly parallel face across the normal", () => {
  replayCases(CASES, 11, { facing: true, ops: OPS });

  it("answers the exact geometry: depth the least overlap, witnesses on the shapes facing along the normal", () => {
    for (const [i, c] of CASES.entries()) {
      const sc = c.scenario as unknown as { localA: J; localB: J };
      const A = oracleShape(bare(sc.localA));
      const B = oracleShape(bare(sc.localB));
      const L = Math.max(A.size, B.size, norm((bare(sc.localB).center ?? [0, 0, 0]) as V));
      const r = answerQuery({ op: "contact", a: sc.localA, b: sc.localB }) as {
        distance: number;
        normal: V;
        pointA: V;
        pointB: V;
      };
      const least = leastOverlap(A, B, [r.normal]);
      const depth = -r.distance;
      // The compound's composed pose rounds at the child's magnitude.
      const tol = 256 * EPS * L;
      expect(Math.abs(depth - least.depth)).toBeLessThan(1e-6 * least.depth + tol);
      expect(Math.abs(overlapAlong(A, B, r.normal) - depth)).toBeLessThan(1e-6 * depth + tol);
      expect(Math.abs(A.signed(r.pointA))).toBeLessThan(tol);
      expect(Math.abs(B.signed(r.pointB))).toBeLessThan(tol);
      // pointB − pointA = distance·normal: the witnesses face each other across the normal.
      const d = sub(r.pointB, r.pointA);
      const along = dot(d, r.normal);
      const side = norm(sub(d, [along * r.normal[0], along * r.normal[1], along * r.normal[2]]));
      // Exact where a generator or rim point lies in the other's disc; where the deepest point is
      // a cone's base rim across the cylinder's curved side near its rim (the first two lines),
      // the projections stop 4.3e-9 and 5.6e-10 aside (5e-8 and 4e-12 of the size), under the
      // rounding of the scenario's world coordinates (offsets 1e9) that the fuzzer bars.
      expect(side).toBeLessThan(1e-6 * depth + (i < 2 ? 2 ** -24 * L : tol));
      // Their separation along the normal is the distance to the normal's own error times the
      // features' size (line 3: the normal 2.4e-12 rad off the cap's across a rim of 0.04, 9.6e-14).
      expect(Math.abs(along - r.distance)).toBeLessThan(1e-6 * depth + 2 ** -32 * L);
    }
  });

  it("lines 6–11: the witnesses are rim points where the rims cross seen along the normal", () => {
    for (const c of CASES.slice(5)) {
      const sc = c.scenario as unknown as { localA: J; localB: J };
      const r = answerQuery({ op: "contact", a: sc.localA, b: sc.localB }) as {
        pointA: V;
        pointB: V;
      };
      // The pair's magnitude, where the composed poses and the witnesses round.
      let L = Math.max(norm(r.pointA), norm(r.pointB));
      for (const j of [bare(sc.localA), bare(sc.localB)]) {
        L = Math.max(L, norm(j.center as V) + (j.halfHeight as number) + (j.radius as number));
      }
      for (const [j, p] of [
        [bare(sc.localA), r.pointA],
        [bare(sc.localB), r.pointB],
      ] as [J, V][]) {
        const h = j.halfHeight as number;
        const rad = j.radius as number;
        const l = unrotateVec(j.rotation as number[], sub(p, j.center as V));
        // A cylinder's rim at either end, a cone's base rim (local y = −h).
        const y = j.type === "cone" ? -l[1] : Math.abs(l[1]);
        expect(Math.abs(y - h)).toBeLessThan(256 * EPS * L);
        expect(Math.abs(Math.hypot(l[0], l[2]) - rad)).toBeLessThan(256 * EPS * L);
      }
    }
  });

  /**
   * The flat mode's draws that failed the fuzzer's checks before the rims' crossings (fast-check
   * seeds 2–9, 1,500 draws each: 3, 8, 4, 8, 6, 5, 8 and 5 failing, 0 after).
   */
  const FAILED: [number, number[]][] = [
    [2, [497, 596, 1156]],
    [3, [266, 428, 620, 808, 873, 944, 992, 1010]],
    [4, [374, 655, 1184, 1368]],
    [5, [13, 484, 553, 606, 657, 668, 1146, 1231]],
    [6, [155, 372, 701, 757, 1065, 1090]],
    [7, [72, 277, 368, 804, 1148]],
    [8, [68, 370, 399, 604, 866, 1057, 1073, 1210]],
    [9, [231, 772, 978, 1176, 1318]],
  ];
  it("the flat mode's previously failing draws of seeds 2–9 pass the fuzzer's checks", () => {
    for (const [seed, draws] of FAILED) {
      const all = fc.sample(cylinderCrossingArb(false, false, true), {
        seed,
        numRuns: Math.max(...draws) + 1,
      });
      for (const i of draws) {
        expectReplayPasses(all[i].scenario, all[i].pair, { ops: OPS, facing: true });
      }
    }
  });

  it("property: a cap or side generator against a cap, side generator or cone's base, 2^-8..2^-40 rad off", () => {
    fc.assert(
      fc.property(cylinderCrossingArb(false, false, true), (c) => {
        expectReplayPasses(c.scenario, c.pair, { ops: OPS, facing: true });
      }),
      { numRuns: 200, seed: 34 },
    );
  });
});
