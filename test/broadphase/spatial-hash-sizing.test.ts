/**
 * The grid's storage is sized at a rebuild from the scene (src/broadphase/spatial-hash.ts): the
 * cell table from a bound on the cells the rebuild occupies (its entries, and the cells of the
 * box around every fat box), the entry pool as asked without copying. These properties build
 * scenes whose occupied cells are far fewer than their entries (a tight cluster, a flat layer,
 * a line), then teleport bodies into many new cells a few at a time (the incremental update
 * must find room in the table or rebuild) and all at once, and check the pairs against the
 * brute-force oracle at every step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { makeRandom } from "../../src/math/random.js";

/** Layouts whose cells are few for their entries: 0 a cluster, 1 a flat layer, 2 a line. */
type Layout = 0 | 1 | 2;

function runSizing(seed: number, layout: Layout, n: number, scale: number, teleports: number) {
  const rng = makeRandom(seed);
  const grid = new SpatialHash();
  const brute = new BruteForceBroadPhase();
  const c = new Float64Array(3 * n);
  const h = new Float64Array(3 * n);
  const min = { x: 0, y: 0, z: 0 };
  const max = { x: 0, y: 0, z: 0 };
  const boxOf = (i: number) => {
    min.x = c[3 * i] - h[3 * i];
    min.y = c[3 * i + 1] - h[3 * i + 1];
    min.z = c[3 * i + 2] - h[3 * i + 2];
    max.x = c[3 * i] + h[3 * i];
    max.y = c[3 * i + 1] + h[3 * i + 1];
    max.z = c[3 * i + 2] + h[3 * i + 2];
  };
  const spread = scale * Math.cbrt(n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      // The cluster spans about two boxes; the layer is flat in y; the line runs along x.
      const span =
        layout === 0 ? 2 * scale : layout === 1 ? (a === 1 ? 0 : spread) : a === 0 ? n * scale : 0;
      c[3 * i + a] = span * rng();
      h[3 * i + a] = scale * (0.3 + 0.4 * rng());
    }
    boxOf(i);
    grid.insert(i, min, max);
    brute.insert(i, min, max);
  }
  const check = () => {
    const got = grid.computePairs(new PairSet(4)).toArray();
    const want = brute.computePairs(new PairSet(4)).toArray();
    expect(got).toEqual(want);
  };
  check();
  // A few bodies at a time (an incremental update each) to fresh cells far apart, then all.
  for (let step = 0; step < teleports; step++) {
    const count = step === teleports - 1 ? n : Math.max(1, n >> 5);
    for (let r = 0; r < count; r++) {
      const i = step === teleports - 1 ? r : Math.floor(rng() * n);
      for (let a = 0; a < 3; a++) c[3 * i + a] = 40 * spread * (rng() - 0.5);
      boxOf(i);
      grid.move(i, min, max);
      brute.move(i, min, max);
    }
    check();
  }
}

describe("spatial hash sizing: tables sized from the occupied cells stay exact", () => {
  it("clusters, layers and lines, then teleports into many new cells: pairs equal brute force", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom<Layout>(0, 1, 2),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(1, 1e-3, 1e4),
        fc.integer({ min: 1, max: 12 }),
        (seed, layout, n, scale, teleports) => {
          runSizing(seed, layout, n, scale, teleports);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a flat layer of 2,000 boxes, spread over a volume in 8 updates", () => {
    runSizing(7, 1, 2000, 1, 8);
  });
});
