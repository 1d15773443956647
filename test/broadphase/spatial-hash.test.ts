import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { defaultSpatialHashOptions, SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { SPATIAL_HASH_CELL_SCALE, SPATIAL_HASH_MAX_CELLS_PER_BODY } from "../../src/constants.js";
import type { Vec3 } from "../../src/math/vec3.js";

const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

describe("SpatialHash", () => {
  it("defaults: automatic cell size, scale and cell cap from constants", () => {
    expect(defaultSpatialHashOptions()).toEqual({
      cellSize: 0,
      cellSizeScale: SPATIAL_HASH_CELL_SCALE,
      maxCellsPerBody: SPATIAL_HASH_MAX_CELLS_PER_BODY,
    });
  });

  it("automatic cell size is scale × the median largest side, robust to one huge box", () => {
    const hash = new SpatialHash();
    const sides = [1, 3, 2, 5, 4];
    sides.forEach((s, i) => {
      hash.insert(i, v(10 * i, 0, 0), v(10 * i + s, 0.5, 0.5));
    });
    hash.insert(9, v(-1e6, -1e6, -1e6), v(1e6, 1e6, 1e6));
    hash.computePairs(new PairSet());
    // Largest sides 1, 3, 2, 5, 4, 2e6: the upper median is 4.
    expect(hash.cellSize).toBe(SPATIAL_HASH_CELL_SCALE * 4);
    expect(hash.overflowSize).toBe(1);
    expect(hash.recomputeCellSize()).toBe(SPATIAL_HASH_CELL_SCALE * 4);
    // Points only: the cell size falls back to the spread of the centres.
    const points = new SpatialHash();
    for (let i = 0; i < 8; i++) points.insert(i, v(i, 0, 0), v(i, 0, 0));
    expect(points.recomputeCellSize()).toBe(7 / 2);
    const coincident = new SpatialHash();
    coincident.insert(0, v(3, 3, 3), v(3, 3, 3));
    coincident.insert(1, v(3, 3, 3), v(3, 3, 3));
    expect(coincident.computePairs(new PairSet()).toArray()).toEqual([[0, 1]]);
    expect(coincident.cellSize).toBeGreaterThan(0);
  });

  it("a fixed cell size is kept", () => {
    const hash = new SpatialHash({ cellSize: 0.75 });
    hash.insert(0, v(0, 0, 0), v(100, 100, 100));
    hash.computePairs(new PairSet());
    expect(hash.cellSize).toBe(0.75);
    expect(hash.recomputeCellSize()).toBe(0.75);
  });

  it("is exact around negative coordinates and cell boundaries (Math.floor cells)", () => {
    // Boxes touching exactly on cell boundaries at negative coordinates with cell size 1.
    const hash = new SpatialHash({ cellSize: 1 });
    hash.insert(0, v(-2, -2, -2), v(-1, -1, -1));
    hash.insert(1, v(-1, -1, -1), v(0, 0, 0));
    hash.insert(2, v(-0.5, -3, -3), v(-0.25, -2.5, -2.5));
    hash.insert(3, v(-3, -1.5, -1.5), v(-2, -1.25, -1.25));
    expect(hash.computePairs(new PairSet()).toArray()).toEqual([
      [0, 1],
      [0, 3],
    ]);
  });

  it("random boxes at any cell size and cell cap equal brute force (pairs and queries)", () => {
    const boxArb = fc
      .tuple(
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 8, noNaN: true }),
        fc.double({ min: 0, max: 8, noNaN: true }),
        fc.double({ min: 0, max: 8, noNaN: true }),
      )
      .map(([x, y, z, a, b, c]) => ({ min: v(x, y, z), max: v(x + a, y + b, z + c) }));
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 40, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(boxArb, { minLength: 1, maxLength: 60 }),
        boxArb,
        (cellSize, maxCellsPerBody, boxes, query) => {
          const hash = new SpatialHash({ cellSize, maxCellsPerBody });
          const brute = new BruteForceBroadPhase();
          boxes.forEach((b, i) => {
            hash.insert(i, b.min, b.max);
            brute.insert(i, b.min, b.max);
          });
          expect(hash.computePairs(new PairSet()).toArray()).toEqual(
            brute.computePairs(new PairSet()).toArray(),
          );
          const got: number[] = [];
          const want: number[] = [];
          hash.queryAabb(query.min, query.max, got);
          brute.queryAabb(query.min, query.max, want);
          expect(got.sort((p, q) => p - q)).toEqual(want.sort((p, q) => p - q));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("tiny boxes far from their cell scale stay exact and terminate (cell index limit)", () => {
    // Median side 1e-78 at coordinates ~30 would need cell indices ~1e79 without the limit.
    for (const [size, offset] of [
      [1e-78, 30],
      [1e-3, 1e6],
      [1e-9, -1e6],
    ]) {
      const hash = new SpatialHash();
      const brute = new BruteForceBroadPhase();
      for (let i = 0; i < 40; i++) {
        const x = offset + (i % 7) * size;
        const y = offset + Math.floor(i / 7) * size * 0.5;
        const box = { min: v(x, y, offset), max: v(x + size, y + size, offset + size) };
        hash.insert(i, box.min, box.max);
        brute.insert(i, box.min, box.max);
      }
      expect(hash.computePairs(new PairSet()).toArray()).toEqual(
        brute.computePairs(new PairSet()).toArray(),
      );
      expect(hash.cellSize).toBeGreaterThanOrEqual(Math.abs(offset) / 2 ** 40);
      const q = {
        min: v(offset, offset, offset),
        max: v(offset + 2 * size, offset + size, offset),
      };
      const got: number[] = [];
      const want: number[] = [];
      hash.queryAabb(q.min, q.max, got);
      brute.queryAabb(q.min, q.max, want);
      expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
      const hits = (bp: SpatialHash | BruteForceBroadPhase) => {
        const ids: number[] = [];
        bp.castRay(v(offset - 1, offset + 0.5 * size, offset), v(1, 0, 0), Infinity, (id) => {
          ids.push(id);
        });
        return ids.sort((a, b) => a - b);
      };
      expect(hits(hash)).toEqual(hits(brute));
    }
  });

  it("a closest-hit cast along a row of boxes visits only the nearest", () => {
    const hash = new SpatialHash();
    for (let i = 99; i >= 0; i--) hash.insert(i, v(2 * i, 0, 0), v(2 * i + 1, 1, 1));
    const visited: number[] = [];
    hash.castRay(v(-5, 0.5, 0.5), v(1, 0, 0), Infinity, (id, toi) => {
      visited.push(id);
      return toi;
    });
    expect(visited).toEqual([0]);
  });
});
