/**
 * The chunked candidate merge of the grid (src/broadphase/candidate-merge.ts) against an
 * independent oracle: the set of old candidates minus those with a moved body, united with the
 * new keys, sorted; the pairs = those candidates whose boxes overlap or touch (six interval
 * tests written out here). Chunks are run in a random order (any thread may take any chunk) and
 * with tiny chunk sizes, so that chunk boundaries fall everywhere, including between equal keys
 * of the two lists.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CANDIDATE_FILTER_ONLY,
  type CandidateMergeJob,
  candidateMergeChunks,
  compactCandidateMerge,
  mergeCandidateChunk,
} from "../../src/broadphase/candidate-merge.js";
import { PAIR_KEY_BASE } from "../../src/broadphase/pair-set.js";

interface Case {
  ids: number;
  old: number[];
  moved: Set<number>;
  fresh: number[];
  box: Float64Array;
}

const key = (a: number, b: number) => (a < b ? a * PAIR_KEY_BASE + b : b * PAIR_KEY_BASE + a);

/** Sorted unique keys of `pairs` ([a, b] with a ≠ b). */
function keysOf(pairs: [number, number][]): number[] {
  return [...new Set(pairs.filter(([a, b]) => a !== b).map(([a, b]) => key(a, b)))].sort(
    (x, y) => x - y,
  );
}

const caseArb = fc
  .record({
    ids: fc.integer({ min: 2, max: 40 }),
    oldPairs: fc.array(fc.tuple(fc.nat(39), fc.nat(39)), { maxLength: 120 }),
    movedIds: fc.array(fc.nat(39), { maxLength: 12 }),
    newPairs: fc.array(fc.tuple(fc.nat(39), fc.nat(39)), { maxLength: 60 }),
    // Coarse coordinates: touching and equal faces are common.
    coords: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 6 * 40, maxLength: 6 * 40 }),
  })
  .map(({ ids, oldPairs, movedIds, newPairs, coords }): Case => {
    const clip = (p: [number, number][]) =>
      p.map(([a, b]) => [a % ids, b % ids] as [number, number]);
    const moved = new Set(movedIds.map((m) => m % ids));
    const old = keysOf(clip(oldPairs));
    // New keys are pairs with a moved body (as the grid's queries find them).
    const fresh = keysOf(
      clip(newPairs).map(([a, b]) => [moved.size > 0 ? [...moved][a % moved.size] : a, b]) as [
        number,
        number,
      ][],
    ).filter((k) => moved.has(Math.floor(k / PAIR_KEY_BASE)) || moved.has(k % PAIR_KEY_BASE));
    const box = new Float64Array(6 * ids);
    for (let i = 0; i < ids; i++) {
      for (let a = 0; a < 3; a++) {
        const u = coords[6 * i + a];
        const v = coords[6 * i + 3 + a];
        box[6 * i + a] = Math.min(u, v);
        box[6 * i + 3 + a] = Math.max(u, v);
      }
    }
    return { ids, old, moved, fresh, box };
  });

function oracle(c: Case): { candidates: number[]; pairs: number[] } {
  const lo = (k: number) => Math.floor(k / PAIR_KEY_BASE);
  const hi = (k: number) => k - lo(k) * PAIR_KEY_BASE;
  const kept = c.old.filter((k) => !c.moved.has(lo(k)) && !c.moved.has(hi(k)));
  const candidates = [...new Set([...kept, ...c.fresh])].sort((x, y) => x - y);
  const b = c.box;
  const pairs = candidates.filter((k) => {
    const i = 6 * lo(k);
    const j = 6 * hi(k);
    for (let a = 0; a < 3; a++) {
      if (b[i + a] > b[j + 3 + a] || b[j + a] > b[i + 3 + a]) return false;
    }
    return true;
  });
  return { candidates, pairs };
}

function runChunked(
  c: Case,
  chunkSize: number,
  order: number[],
  filter: boolean | "only",
): { candidates: number[]; lo: number[]; hi: number[]; pairs: number[] } {
  const total = c.old.length + c.fresh.length;
  const generation = 7;
  const stamp = new Int32Array(c.ids);
  for (const m of c.moved) stamp[m] = generation;
  const job: CandidateMergeJob = {
    oldKeys: Float64Array.from(c.old),
    oldLo: Int32Array.from(c.old.map((k) => Math.floor(k / PAIR_KEY_BASE))),
    oldHi: Int32Array.from(c.old.map((k) => k % PAIR_KEY_BASE)),
    oldCount: c.old.length,
    chunkSize,
    newKeys: Float64Array.from(c.fresh),
    newCount: c.fresh.length,
    movedStamp: stamp,
    generation,
    box: c.box,
    filter: filter === "only" ? CANDIDATE_FILTER_ONLY : filter ? 1 : 0,
    // Garbage beyond the output, as a reused buffer holds.
    outKeys: new Float64Array(total + 3).fill(-5),
    outLo: new Int32Array(total + 3).fill(-5),
    outHi: new Int32Array(total + 3).fill(-5),
    pairKeys: new Float64Array(total + 3).fill(-5),
    chunkLengths: new Int32Array(64).fill(-1),
    outCount: 0,
  };
  const chunks = candidateMergeChunks(job);
  const seq = order.filter((c) => c < chunks);
  for (let i = 0; i < chunks; i++) if (!seq.includes(i)) seq.push(i);
  for (const ch of seq) mergeCandidateChunk(job, ch, chunks);
  const pairs: number[] = [];
  compactCandidateMerge(job, chunks, (from, to) => {
    for (let i = from; i < to; i++) pairs.push(job.pairKeys[i]);
  });
  const n = job.outCount;
  return {
    candidates: [...job.outKeys.subarray(0, n)],
    lo: [...job.outLo.subarray(0, n)],
    hi: [...job.outHi.subarray(0, n)],
    pairs,
  };
}

describe("candidate merge in chunks (the grid's parallel broad phase)", () => {
  it("equals the set oracle for every chunk size and chunk order", () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat(40), { maxLength: 40 }),
        (c, chunkSize, order) => {
          const want = oracle(c);
          const got = runChunked(c, chunkSize, order, true);
          expect(got.candidates).toEqual(want.candidates);
          expect(got.lo).toEqual(want.candidates.map((k) => Math.floor(k / PAIR_KEY_BASE)));
          expect(got.hi).toEqual(want.candidates.map((k) => k % PAIR_KEY_BASE));
          expect(got.pairs).toEqual(want.pairs);
          // Without the filter: the same candidates, no pairs.
          const bare = runChunked(c, chunkSize, order, false);
          expect(bare.candidates).toEqual(want.candidates);
          expect(bare.pairs).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("filter-only chunks (no moved body, no new key) give the oracle's pairs and leave the output arrays untouched", () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat(40), { maxLength: 40 }),
        (c0, chunkSize, order) => {
          const c: Case = { ...c0, moved: new Set(), fresh: [] };
          const want = oracle(c);
          const got = runChunked(c, chunkSize, order, "only");
          expect(got.pairs).toEqual(want.pairs);
          // The candidates are not copied: the output keys keep the reused buffer's garbage.
          expect(got.candidates).toEqual(want.candidates.map(() => -5));
          expect(got.lo).toEqual(want.candidates.map(() => -5));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("handles the edge cases by hand: no old candidates, every body moved, new keys past the last old key", () => {
    const box = new Float64Array(6 * 5);
    for (let i = 0; i < 5; i++) box.set([i, 0, 0, i + 1, 1, 1], 6 * i);
    // No old candidates: one chunk of new keys.
    const a: Case = { ids: 5, old: [], moved: new Set([1]), fresh: [key(0, 1), key(1, 2)], box };
    expect(runChunked(a, 2, [], true)).toEqual({
      candidates: [key(0, 1), key(1, 2)],
      lo: [0, 1],
      hi: [1, 2],
      pairs: [key(0, 1), key(1, 2)],
    });
    // Every old candidate stale, new keys after all of them.
    const b: Case = {
      ids: 5,
      old: [key(0, 1), key(0, 2), key(1, 2)],
      moved: new Set([0, 1, 2]),
      fresh: [key(2, 3), key(2, 4)],
      box,
    };
    expect(runChunked(b, 1, [2, 0, 1], true)).toEqual({
      candidates: [key(2, 3), key(2, 4)],
      lo: [2, 2],
      hi: [3, 4],
      pairs: [key(2, 3)],
    });
  });
});
