/**
 * The grid's chunked cell queries (src/broadphase/cell-query.ts): the merge of the chunks'
 * sorted runs against a plain sort of their union (fast-check), and incremental updates whose
 * chunks overflow their output room (the room grows and the chunks run again) against a grid
 * built afresh.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CELL_QUERY_CHUNK,
  CELL_QUERY_ROOM_PER_BODY,
  mergeSortedRuns,
} from "../../src/broadphase/cell-query.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";

describe("mergeSortedRuns", () => {
  it("merges sorted runs of unique keys, laid out with gaps, into their sorted union", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.nat(5),
        (keys, cuts, gap) => {
          // Split into runs at the cut points (empty runs included), each sorted.
          const bounds = [...cuts.map((c) => (keys.length === 0 ? 0 : c % (keys.length + 1)))];
          bounds.sort((a, b) => a - b);
          const edges = [0, ...bounds, keys.length];
          const runs = edges.length - 1;
          const src = new Float64Array(keys.length + runs * gap + 1).fill(-1);
          const starts = new Int32Array(runs);
          const ends = new Int32Array(runs);
          let at = 0;
          for (let r = 0; r < runs; r++) {
            const run = keys.slice(edges[r], edges[r + 1]).sort((a, b) => a - b);
            starts[r] = at;
            src.set(run, at);
            at += run.length;
            ends[r] = at;
            at += gap;
          }
          const dst = new Float64Array(keys.length);
          const n = mergeSortedRuns(src, starts, ends, runs, new Int32Array(runs), dst);
          expect(n).toBe(keys.length);
          expect(Array.from(dst)).toEqual([...keys].sort((a, b) => a - b));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the grid's chunked cell queries", () => {
  it("moved bodies whose chunks overflow their room give the pairs of a grid built afresh", () => {
    // 20,000 boxes, about 10 per unit volume (about 20 partners each); 200 move per step (an
    // incremental update, several chunks), so a chunk finds more keys than its first room. The
    // oracle is a grid built from scratch over the same boxes (its full rebuild enumerates
    // the cells' pairs, no cell query), itself tested against brute force elsewhere.
    const n = 20000;
    const grid = new SpatialHash();
    let seed = 12345;
    const rnd = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const at: number[] = [];
    const box = (i: number) => {
      const s = 0.5 + (i % 7) * 0.1;
      return {
        min: { x: at[3 * i], y: at[3 * i + 1], z: at[3 * i + 2] },
        max: { x: at[3 * i] + s, y: at[3 * i + 1] + s, z: at[3 * i + 2] + s },
      };
    };
    for (let i = 0; i < n; i++) {
      at.push(rnd() * 20, rnd() * 10, rnd() * 10);
      const b = box(i);
      grid.insert(i, b.min, b.max);
    }
    grid.computePairs(new PairSet());
    const moved = 200;
    expect(moved).toBeGreaterThan(2 * CELL_QUERY_CHUNK);
    for (let step = 0; step < 3; step++) {
      for (let k = 0; k < moved; k++) {
        const i = (k * 97 + step * 1001) % n;
        const d = { x: (rnd() - 0.5) * 0.6, y: (rnd() - 0.5) * 0.6, z: (rnd() - 0.5) * 0.6 };
        at[3 * i] += d.x;
        at[3 * i + 1] += d.y;
        at[3 * i + 2] += d.z;
        const b = box(i);
        grid.move(i, b.min, b.max, d);
      }
      const fresh = new SpatialHash();
      for (let i = 0; i < n; i++) {
        const b = box(i);
        fresh.insert(i, b.min, b.max);
      }
      const got = grid.computePairs(new PairSet());
      const want = fresh.computePairs(new PairSet());
      expect(got.size).toBeGreaterThan(n);
      expect(got.size).toBe(want.size);
      // The first differing index (−1: none); a flat loop, the sets hold ~400,000 pairs.
      let differ = -1;
      for (let i = 0; i < got.size && differ < 0; i++)
        if (got.keyAt(i) !== want.keyAt(i)) differ = i;
      expect(differ).toBe(-1);
    }
    // Incremental updates only, and the chunks' room had to grow.
    expect(grid.rebuilds).toBe(1);
    const room = (grid as unknown as { cellJob: { chunkRoom: number } }).cellJob.chunkRoom;
    expect(room).toBeGreaterThan(CELL_QUERY_CHUNK * CELL_QUERY_ROOM_PER_BODY);
  });
});
