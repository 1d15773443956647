import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_PROXY_ID,
  PAIR_KEY_BASE,
  PairSet,
  packPair,
  pairHi,
  pairLo,
} from "../../src/broadphase/pair-set.js";

describe("PairSet", () => {
  it("packs (lo, hi) exactly up to the id limit, in either argument order", () => {
    expect(MAX_PROXY_ID).toBe(2 ** 26 - 1);
    const idArb = fc.integer({ min: 0, max: MAX_PROXY_ID });
    fc.assert(
      fc.property(idArb, idArb, (a, b) => {
        const key = packPair(a, b);
        expect(key).toBe(packPair(b, a));
        expect(pairLo(key)).toBe(Math.min(a, b));
        expect(pairHi(key)).toBe(Math.max(a, b));
        expect(Number.isSafeInteger(key)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(pairHi(packPair(MAX_PROXY_ID - 1, MAX_PROXY_ID))).toBe(MAX_PROXY_ID);
    expect(PAIR_KEY_BASE).toBe(2 ** 26);
  });

  it("sorts by (lo, hi), dedupes, grows by doubling and iterates packed keys", () => {
    const pairArb = fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }));
    fc.assert(
      fc.property(
        fc.array(
          pairArb.filter(([a, b]) => a !== b),
          { maxLength: 200 },
        ),
        (pairs) => {
          const set = new PairSet(1);
          for (const [a, b] of pairs) set.add(a, b);
          expect(set.size).toBe(pairs.length);
          const norm = pairs.map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)]);
          const cmp = (p: [number, number], q: [number, number]) => p[0] - q[0] || p[1] - q[1];
          set.sort();
          expect(set.toArray()).toEqual([...norm].sort(cmp));
          const unique = [...new Map(norm.map((p) => [`${p[0]},${p[1]}`, p])).values()].sort(cmp);
          set.sortUnique();
          expect(set.toArray()).toEqual(unique);
          for (const [a, b] of unique) expect(set.has(b, a)).toBe(true);
          expect(set.has(5001, 5002)).toBe(false);
          const keys = [...set];
          expect(keys.map((k) => [pairLo(k), pairHi(k)])).toEqual(unique);
          for (let i = 0; i < set.size; i++) {
            expect([set.loAt(i), set.hiAt(i)]).toEqual(unique[i]);
            expect(set.keyAt(i)).toBe(keys[i]);
          }
          const copy = new PairSet();
          for (const k of keys) copy.addKey(k);
          expect(copy.equals(set)).toBe(true);
          set.clear();
          expect(set.size).toBe(0);
          expect(copy.equals(set)).toBe(keys.length === 0);
        },
      ),
      { numRuns: 150 },
    );
  });
});
