/**
 * The grid's full build (src/broadphase/spatial-hash.ts) filters the pairs as it sorts the
 * candidates, and counts the pairs per lower id as it finds them: the pairs of a first
 * `computePairs` come from that path, those of a second one (no box moved) from the filter of
 * the kept candidates, and those after a query (a build with no output) from that filter too.
 * Each must be the brute-force oracle's pairs, in ascending key order, with boxes of mixed sizes
 * (some huge: the overflow list) and a fixed cell size that makes many candidates per body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";

const boxArb = fc.record({
  x: fc.double({ min: -20, max: 20, noNaN: true }),
  y: fc.double({ min: -20, max: 20, noNaN: true }),
  z: fc.double({ min: -20, max: 20, noNaN: true }),
  // Mostly small, a few huge (past 64 cells: the overflow list).
  h: fc.oneof(
    { weight: 9, arbitrary: fc.double({ min: 0, max: 3, noNaN: true }) },
    { weight: 1, arbitrary: fc.double({ min: 10, max: 40, noNaN: true }) },
  ),
});

function keys(set: PairSet): number[] {
  const out: number[] = [];
  for (let i = 0; i < set.size; i++) out.push(set.keyAt(i));
  return out;
}

describe("spatial hash: the pairs of a full build", () => {
  it("equal brute force on the build, on the next query and after a build by a query", () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 0, maxLength: 120 }),
        fc.constantFrom(0, 1, 2.5),
        fc.boolean(),
        (boxes, cellSize, queryFirst) => {
          const grid = new SpatialHash({ cellSize });
          const brute = new BruteForceBroadPhase();
          boxes.forEach((b, i) => {
            const min = { x: b.x - b.h, y: b.y - b.h, z: b.z - b.h };
            const max = { x: b.x + b.h, y: b.y + b.h, z: b.z + b.h };
            grid.insert(i, min, max);
            brute.insert(i, min, max);
          });
          const want = keys(brute.computePairs(new PairSet()));
          if (queryFirst) grid.queryAabb({ x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 }, []);
          // A small output: the build's filter grows it as it writes.
          const got = new PairSet(1);
          expect(keys(grid.computePairs(got))).toEqual(want);
          expect(keys(grid.computePairs(got))).toEqual(want);
          expect(grid.rebuilds).toBe(1);
        },
      ),
      { numRuns: 200, seed: 15 },
    );
  });

  it("equal brute force when the live ids start far above zero, sparse (a level's moving bodies)", () => {
    // The build's counting sort runs over the live ids' range only: ids from `base` on, spaced
    // by `gap`, some removed before the build.
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 1, maxLength: 80 }),
        fc.constantFrom(0, 1, 2.5),
        fc.constantFrom(1, 999, 100_000),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 3 }),
        (boxes, cellSize, base, gap, removeEvery) => {
          const grid = new SpatialHash({ cellSize });
          const brute = new BruteForceBroadPhase();
          boxes.forEach((b, i) => {
            const min = { x: b.x - b.h, y: b.y - b.h, z: b.z - b.h };
            const max = { x: b.x + b.h, y: b.y + b.h, z: b.z + b.h };
            grid.insert(base + gap * i, min, max);
            brute.insert(base + gap * i, min, max);
          });
          if (removeEvery > 0) {
            for (let i = 0; i < boxes.length; i += removeEvery + 1) {
              grid.remove(base + gap * i);
              brute.remove(base + gap * i);
            }
          }
          const want = keys(brute.computePairs(new PairSet()));
          expect(keys(grid.computePairs(new PairSet(1)))).toEqual(want);
          expect(keys(grid.computePairs(new PairSet(1)))).toEqual(want);
        },
      ),
      { numRuns: 150, seed: 16 },
    );
  });
});
