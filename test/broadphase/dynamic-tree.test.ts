import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { DynamicTree, defaultDynamicTreeOptions } from "../../src/broadphase/dynamic-tree.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { AABB_DISPLACEMENT_MULTIPLIER, AABB_MARGIN } from "../../src/constants.js";
import type { Vec3 } from "../../src/math/vec3.js";

const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

describe("DynamicTree", () => {
  it("defaults: margin AABB_MARGIN, multiplier AABB_DISPLACEMENT_MULTIPLIER, reinsert", () => {
    expect(defaultDynamicTreeOptions()).toEqual({
      margin: AABB_MARGIN,
      displacementMultiplier: AABB_DISPLACEMENT_MULTIPLIER,
      moveStrategy: "reinsert",
    });
  });

  for (const n of [1, 2, 3, 100, 1000]) {
    it(`stays balanced for ${n} sequential inserts along a line (height ≤ 2·log2(n) + 2)`, () => {
      for (const margin of [AABB_MARGIN, 0]) {
        const tree = new DynamicTree({ margin });
        for (let i = 0; i < n; i++) tree.insert(i, v(i, 0, 0), v(i + 1, 1, 1));
        tree.validate();
        expect(tree.nodeCount).toBe(2 * n - 1);
        expect(tree.height()).toBeLessThanOrEqual(2 * Math.log2(n) + 2);
        // Points on a line: every surface area is 0 with margin 0, so only rotations balance it.
        const points = new DynamicTree({ margin });
        for (let i = 0; i < n; i++) points.insert(i, v(i, 0, 0), v(i, 0, 0));
        points.validate();
        expect(points.height()).toBeLessThanOrEqual(2 * Math.log2(n) + 2);
        // Removing every other proxy keeps the invariants and the balance.
        for (let i = 0; i < n; i += 2) tree.remove(i);
        tree.validate();
        const left = Math.max(1, Math.floor(n / 2));
        expect(tree.height()).toBeLessThanOrEqual(2 * Math.log2(left) + 2);
      }
    });
  }

  it("an empty tree: height 0, no pairs, no hits", () => {
    const tree = new DynamicTree();
    tree.validate();
    expect(tree.height()).toBe(0);
    expect(tree.computePairs(new PairSet()).size).toBe(0);
    expect(tree.queryAabb(v(0, 0, 0), v(1, 1, 1), [])).toBe(0);
    expect(tree.castRay(v(0, 0, 0), v(1, 0, 0), 10, () => {})).toBe(0);
  });

  it("move changes the tree only when the tight box leaves the fat AABB", () => {
    const tree = new DynamicTree({ margin: 0.5 });
    tree.insert(7, v(0, 0, 0), v(1, 1, 1));
    tree.insert(8, v(5, 0, 0), v(6, 1, 1));
    const min = v(0, 0, 0);
    const max = v(0, 0, 0);
    tree.fatAabb(7, min, max);
    expect([min, max]).toEqual([v(-0.5, -0.5, -0.5), v(1.5, 1.5, 1.5)]);
    expect(tree.move(7, v(0.4, 0.2, -0.5), v(1.4, 1.2, 0.5))).toBe(false);
    tree.fatAabb(7, min, max);
    expect([min, max]).toEqual([v(-0.5, -0.5, -0.5), v(1.5, 1.5, 1.5)]);
    // The pairs use the tight box, not the fat one.
    expect(tree.computePairs(new PairSet()).size).toBe(0);
    expect(tree.queryAabb(v(1.45, 0, 0), v(2, 1, 1), [])).toBe(0);
    // Leaving the fat box: new fat box = tight ± margin, stretched by 4 × displacement.
    expect(tree.move(7, v(1, 0, 0), v(2, 1, 1), v(0.5, -0.25, 0))).toBe(true);
    tree.fatAabb(7, min, max);
    expect([min, max]).toEqual([v(0.5, -1.5, -0.5), v(4.5, 1.5, 1.5)]);
    tree.validate();
  });

  it("random inserts, moves, removes: validate() holds and pairs equal brute force", () => {
    const boxArb = fc
      .tuple(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 0, max: 6 }),
      )
      .map(([x, y, z, w]) => ({ min: v(x, y, z), max: v(x + w, y + w, z + w) }));
    const opArb = fc.tuple(fc.integer({ min: 0, max: 29 }), boxArb, fc.boolean());
    fc.assert(
      fc.property(
        fc.constantFrom("reinsert" as const, "refit" as const),
        fc.array(fc.array(opArb, { maxLength: 30 }), { maxLength: 6 }),
        (moveStrategy, batches) => {
          const tree = new DynamicTree({ moveStrategy, margin: 0.25 });
          const brute = new BruteForceBroadPhase();
          const a = new PairSet();
          const b = new PairSet();
          for (const batch of batches) {
            for (const [id, box, removeIt] of batch) {
              if (brute.has(id)) {
                if (removeIt) {
                  tree.remove(id);
                  brute.remove(id);
                } else {
                  tree.move(id, box.min, box.max, v(1, -1, 0));
                  brute.move(id, box.min, box.max);
                }
              } else {
                tree.insert(id, box.min, box.max);
                brute.insert(id, box.min, box.max);
              }
            }
            tree.validate();
            expect(tree.computePairs(a).toArray()).toEqual(brute.computePairs(b).toArray());
          }
          tree.clear();
          tree.validate();
          expect(tree.size).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("castRay visits the nearer child first: a closest-hit cast along a row visits one box", () => {
    const tree = new DynamicTree();
    const n = 256;
    for (let i = n - 1; i >= 0; i--) tree.insert(i, v(2 * i, 0, 0), v(2 * i + 1, 1, 1));
    const visited: number[] = [];
    tree.castRay(v(-5, 0.5, 0.5), v(1, 0, 0), Infinity, (id, toi) => {
      visited.push(id);
      return toi;
    });
    expect(visited).toEqual([0]);
    const back: number[] = [];
    tree.castRay(v(1000, 0.5, 0.5), v(-1, 0, 0), Infinity, (id, toi) => {
      back.push(id);
      return toi;
    });
    expect(back).toEqual([n - 1]);
  });
});
