/**
 * The grid's start-up transition (src/broadphase/spatial-hash.ts): a box whose motion is not
 * known yet gets a margin of its own (a tenth of a cell), so that when every body starts a
 * random walk of up to 0.05 per axis per step (scene (b) of bench/scenes.ts) the steps after the
 * first build update the few boxes that left their fat boxes instead of rebuilding the grid
 * (with the least margin, half the bodies left at step 2 and a quarter at step 3: two full
 * rebuilds). The pairs stay those of the brute-force oracle at every step.
 */
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { makeRandom } from "../../src/math/random.js";

describe("spatial hash start-up: no rebuild after the first build under a random walk", () => {
  it("3,000 boxes placed at random, every one walking up to 0.05 per axis per step, 12 steps", () => {
    const n = 3000;
    const rng = makeRandom(21);
    const side = Math.cbrt(n * 2.1);
    const c = new Float64Array(3 * n);
    const h = new Float64Array(3 * n);
    for (let i = 0; i < 3 * n; i++) {
      c[i] = side * rng();
      h[i] = 0.25 + 0.2 * rng();
    }
    const grid = new SpatialHash();
    const brute = new BruteForceBroadPhase();
    const min = { x: 0, y: 0, z: 0 };
    const max = { x: 0, y: 0, z: 0 };
    const d = { x: 0, y: 0, z: 0 };
    const boxOf = (i: number) => {
      min.x = c[3 * i] - h[3 * i];
      min.y = c[3 * i + 1] - h[3 * i + 1];
      min.z = c[3 * i + 2] - h[3 * i + 2];
      max.x = c[3 * i] + h[3 * i];
      max.y = c[3 * i + 1] + h[3 * i + 1];
      max.z = c[3 * i + 2] + h[3 * i + 2];
    };
    for (let i = 0; i < n; i++) {
      boxOf(i);
      grid.insert(i, min, max);
      brute.insert(i, min, max);
    }
    const got = new PairSet();
    const want = new PairSet();
    grid.computePairs(got);
    expect(grid.rebuilds).toBe(1);
    for (let step = 0; step < 12; step++) {
      for (let i = 0; i < n; i++) {
        d.x = 0.1 * rng() - 0.05;
        d.y = 0.1 * rng() - 0.05;
        d.z = 0.1 * rng() - 0.05;
        c[3 * i] += d.x;
        c[3 * i + 1] += d.y;
        c[3 * i + 2] += d.z;
        boxOf(i);
        grid.move(i, min, max, d);
        brute.move(i, min, max);
      }
      grid.computePairs(got);
      brute.computePairs(want);
      expect(got.equals(want)).toBe(true);
    }
    // The first build only: every later step was an incremental update.
    expect(grid.rebuilds).toBe(1);
    expect(want.size).toBeGreaterThan(n / 2);
  });
});
