/**
 * Regression of issue 16 (fuzzer, curved-touching run, s24): a box of 5e-5 whose corner touched
 * a box of 20 (4e-15 apart). The SAT separated them, GJK/EPA ended at an overlap of −3.6e-15 with
 * B's witness 1.3e-10 sideways on the large face, and the distance, clamped to 0 and decided
 * apart by intersects, became |pB − pA| = 1.3e-10 — above the oracle's upper bound (bar 4.2e-13).
 * Fixed in src/narrowphase/cuboid-cuboid.ts: a gap within the near-touching band has its
 * witnesses polished by alternating exact closest-point projections onto the two boxes. The
 * recorded scenario is replayed through the fuzzer's checks, and scaled by 2^-12..2^12 and moved;
 * a fast-check property (which did not reproduce the miss before the fix) puts a small
 * rotated box's corner on or just above a large rotated box's face at sizes 1e-6..1e5 (ratios 2^10
 * to 2^24) and offsets up to 1e9, both orders, through the same checks.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { rotateVec } from "../support/quat.js";
import { quatArb } from "./arbitraries.js";
import {
  expectPassesBothOrders,
  loadCases,
  replayCases,
  replayScaledCases,
} from "./recorded-cases.js";

type Q = [number, number, number, number];
type V3 = [number, number, number];

describe("a small box's corner on a large box's face (curved-touching, s24)", () => {
  const cases = loadCases("./box-gap-polish.cases.json");
  replayCases(cases, 1);
  replayScaledCases(cases);

  it("property: distance within the oracle's bounds, sizes 1e-6..1e5, offsets to 1e9", () => {
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    const quat = quatArb as fc.Arbitrary<Q>;
    const half = fc.tuple(
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      fc.double({ min: 0.5, max: 1, noNaN: true }),
    );
    fc.assert(
      fc.property(
        quat,
        quat,
        half,
        half,
        fc.integer({ min: -20, max: 16 }),
        fc.integer({ min: 10, max: 24 }),
        fc.tuple(unit, unit),
        fc.integer({ min: 20, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (qA, qB, hA, hB, e, ratio, uv, gapExp, offExp) => {
          const L = 2 ** e;
          const s = L * 2 ** -ratio;
          const HB = hB.map((c) => c * L) as V3;
          const HA = hA.map((c) => c * s) as V3;
          const cB: V3 = [-0.7 * L, -0.8 * L, -0.2 * L];
          const n = rotateVec(qB, [0, 0, 1]);
          const local: V3 = [uv[0] * 0.5 * HB[0], uv[1] * 0.5 * HB[1], HB[2]];
          const r = rotateVec(qB, local);
          const p = [cB[0] + r[0], cB[1] + r[1], cB[2] + r[2]];
          // A's corner deepest along −n (its local frame), placed a gap of s·2^-gapExp above p.
          const nA = rotateVec([-qA[0], -qA[1], -qA[2], qA[3]], n);
          const corner = rotateVec(qA, [
            nA[0] > 0 ? -HA[0] : HA[0],
            nA[1] > 0 ? -HA[1] : HA[1],
            nA[2] > 0 ? -HA[2] : HA[2],
          ]);
          const g = s * 2 ** -gapExp;
          const cA = [0, 1, 2].map((i) => p[i] + g * n[i] - corner[i]);
          const a = { type: "box", center: cA, halfExtents: HA, rotation: qA };
          const b = { type: "box", center: cB, halfExtents: HB, rotation: qB };
          const o = [2 ** offExp, -(2 ** offExp), 0];
          expectPassesBothOrders(a, b, o, "box-box", { ops: ["distance", "intersects"] });
        },
      ),
      { numRuns: 150, seed: 103 },
    );
  });
});
