import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import {
  defaultSweepAndPruneOptions,
  SweepAndPrune,
} from "../../src/broadphase/sweep-and-prune.js";
import { SAP_AXIS_SWITCH_RATIO } from "../../src/constants.js";
import type { Vec3 } from "../../src/math/vec3.js";

const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

describe("SweepAndPrune", () => {
  it("defaults: automatic axis with switch ratio SAP_AXIS_SWITCH_RATIO", () => {
    expect(defaultSweepAndPruneOptions()).toEqual({
      axis: "auto",
      axisSwitchRatio: SAP_AXIS_SWITCH_RATIO,
    });
  });

  it("sweeps the axis of largest centre variance and switches when the spread changes", () => {
    const sap = new SweepAndPrune();
    const pairs = new PairSet();
    for (let i = 0; i < 20; i++) sap.insert(i, v(0, 3 * i, 0), v(1, 3 * i + 1, 1));
    sap.computePairs(pairs);
    expect(sap.axis).toBe(1);
    // Spread the bodies along z, far more than along y: the next sweep switches.
    for (let i = 0; i < 20; i++) sap.move(i, v(0, 3 * i, 50 * i), v(1, 3 * i + 1, 50 * i + 1));
    expect(sap.computePairs(pairs).size).toBe(0);
    expect(sap.axis).toBe(2);
    // Slightly more spread along x does not pass the hysteresis ratio...
    for (let i = 0; i < 20; i++) sap.move(i, v(60 * i, 0, 50 * i), v(60 * i + 1, 1, 50 * i + 1));
    sap.computePairs(pairs);
    expect(sap.axis).toBe(2);
    // ...but choosing on demand takes the largest.
    expect(sap.chooseAxis()).toBe(0);
    expect(new SweepAndPrune({ axis: 1 }).chooseAxis()).toBe(1);
  });

  it("touching intervals on the sweep axis overlap (min end points sort before max ones)", () => {
    const sap = new SweepAndPrune({ axis: 0 });
    sap.insert(2, v(1, 0, 0), v(2, 1, 1));
    sap.insert(1, v(0, 0, 0), v(1, 1, 1));
    sap.insert(0, v(2, 0, 0), v(2, 1, 1));
    expect(sap.computePairs(new PairSet()).toArray()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    // Move 1 so that it touches 0 only through a zero-width box at x = 2.
    sap.move(1, v(2, 1, 1), v(3, 2, 2));
    expect(sap.computePairs(new PairSet()).toArray()).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });

  it("incremental insertion sort after many coherent moves equals brute force", () => {
    const stepArb = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 29 }), fc.double({ min: -3, max: 3, noNaN: true })),
      { maxLength: 80 },
    );
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 6 }), (batches) => {
        const sap = new SweepAndPrune();
        const brute = new BruteForceBroadPhase();
        const x = new Array<number>(30).fill(0).map((_, i) => (i * 7) % 23);
        for (let i = 0; i < 30; i++) {
          sap.insert(i, v(x[i], 0, 0), v(x[i] + 2, 1, 1));
          brute.insert(i, v(x[i], 0, 0), v(x[i] + 2, 1, 1));
        }
        for (const batch of batches) {
          for (const [i, dx] of batch) {
            x[i] += dx;
            // Width changes too, so min and max move by different amounts.
            const w = 1 + Math.abs(dx);
            sap.move(i, v(x[i], 0, 0), v(x[i] + w, 1, 1));
            brute.move(i, v(x[i], 0, 0), v(x[i] + w, 1, 1));
          }
          expect(sap.computePairs(new PairSet()).toArray()).toEqual(
            brute.computePairs(new PairSet()).toArray(),
          );
        }
      }),
      { numRuns: 100 },
    );
  });

  it("a closest-hit cast along the sweep axis visits only the nearest box", () => {
    const sap = new SweepAndPrune({ axis: 0 });
    for (let i = 99; i >= 0; i--) sap.insert(i, v(2 * i, 0, 0), v(2 * i + 1, 1, 1));
    for (const [o, d, want] of [
      [v(-5, 0.5, 0.5), v(1, 0, 0), 0],
      [v(500, 0.5, 0.5), v(-1, 0, 0), 99],
    ] as const) {
      const visited: number[] = [];
      sap.castRay(o, d, Infinity, (id, toi) => {
        visited.push(id);
        return toi;
      });
      expect(visited).toEqual([want]);
    }
  });
});
