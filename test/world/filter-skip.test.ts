/**
 * The world's step skips the layer/mask test while no body ever had a filter that can refuse a
 * pair (every mask all ones, no layer 0), and tests it from the first such filter on — whether
 * it came with `addBody` or later with `setFilter`, on a moved or an unmoved body. Oracle, by
 * hand: two overlapping unit boxes touch unless one's layer misses the other's mask.
 */
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { CollisionWorld } from "../../src/world/collision-world.js";

const at = (x: number): Isometry => ({
  translation: { x, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});
const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });

describe("the step's layer/mask filter", () => {
  it("refuses a pair once setFilter closes it, and takes it back when reopened", () => {
    for (const broadphase of ["brute", "grid", "tree"] as const) {
      const w = new CollisionWorld({ broadphase });
      const a = w.addBody({ shape: box, pose: at(0) });
      const b = w.addBody({ shape: box, pose: at(0.8) });
      w.step();
      expect(w.contacts().map((c) => [c.a, c.b])).toEqual([[a, b]]);
      // b's layer 2 is not in a's mask 1: refused (neither body moves).
      w.setFilter(b, 2, 0xffffffff);
      w.setFilter(a, 1, 1);
      w.step();
      expect(w.contacts()).toHaveLength(0);
      expect(w.events().end.count).toBe(1);
      // Moved, still refused.
      w.setPose(b, at(0.7));
      w.step();
      expect(w.contacts()).toHaveLength(0);
      // Reopened: the pair is back.
      w.setFilter(a, 1, 0xffffffff);
      w.step();
      expect(w.contacts().map((c) => [c.a, c.b])).toEqual([[a, b]]);
    }
  });

  it("refuses the pairs of a body added with layer 0 or a closed mask", () => {
    const w = new CollisionWorld({ broadphase: "grid" });
    w.addBody({ shape: box, pose: at(0) });
    w.step();
    w.addBody({ shape: box, pose: at(0.5), layer: 0 });
    w.step();
    expect(w.contacts()).toHaveLength(0);
    w.addBody({ shape: box, pose: at(-0.5), mask: 2 });
    w.step();
    expect(w.contacts()).toHaveLength(0);
    // A third box with open filters touches the first (and the layer-0 one is still refused;
    // the mask-2 one refuses layer 1).
    const c = w.addBody({ shape: box, pose: at(0.9) });
    w.step();
    expect(w.contacts().map((x) => x.b)).toEqual([c]);
  });
});
