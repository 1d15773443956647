/**
 * The kept static candidates of moving bodies (src/world/body-kinds.ts, `queryStatic`) against
 * brute force: a packed voxel slab of static boxes (neighbours touching) and moving boxes of
 * mixed sizes that random-walk (small steps: kept candidates are reused), teleport (they leave
 * their fat boxes), are removed and re-added (slot reuse) and see the static set change (a
 * rebuild invalidates every kept list) — after every move, each moving body's static pairs must
 * be exactly the static boxes its box overlaps or touches. Enough moving bodies that the
 * candidate pool fills and is compacted and grown several times.
 */
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import { BodyKinds, KIND_DYNAMIC, KIND_STATIC } from "../../src/world/body-kinds.js";

function setBox(k: BodyKinds, s: number, c: number[], h: number[]): void {
  for (let a = 0; a < 3; a++) {
    k.box[6 * s + a] = c[a] - h[a];
    k.box[6 * s + 3 + a] = c[a] + h[a];
  }
}

function brute(k: BodyKinds, s: number, statics: number[]): number[] {
  const b = k.box;
  const o = 6 * s;
  return statics
    .filter((t) => {
      const q = 6 * t;
      for (let a = 0; a < 3; a++) {
        if (b[q + a] > b[o + 3 + a] || b[q + 3 + a] < b[o + a]) return false;
      }
      return true;
    })
    .sort((x, y) => x - y);
}

describe("kept static candidates of moving bodies", () => {
  it("equal brute force through walks, teleports, slot reuse, static rebuilds and pool growth", () => {
    const rng = makeRandom(5);
    const k = new BodyKinds();
    const statics: number[] = [];
    // A 30 × 30 × 2 slab of unit boxes whose faces touch.
    for (let x = 0; x < 30; x++) {
      for (let z = 0; z < 30; z++) {
        for (let y = 0; y < 2; y++) {
          const s = statics.length;
          k.ensure(s);
          k.kind[s] = KIND_STATIC;
          setBox(k, s, [x, y - 1, z], [0.5, 0.5, 0.5]);
          k.addStatic(s, true);
          statics.push(s);
        }
      }
    }
    const first = statics.length;
    const moving: number[] = [];
    const half: number[][] = [];
    const centre: number[][] = [];
    const place = (j: number) => {
      centre[j] = [29 * rng(), 0.5 + rng(), 29 * rng()];
      setBox(k, moving[j], centre[j], half[j]);
    };
    for (let j = 0; j < 400; j++) {
      const s = first + j;
      k.ensure(s);
      k.kind[s] = KIND_DYNAMIC;
      moving.push(s);
      const h = 0.05 + (j % 7 === 0 ? 2 : 0.5) * rng();
      half.push([h, h * (0.5 + rng()), h]);
      place(j);
    }
    let slotCount = first + moving.length;
    let checks = 0;
    for (let step = 0; step < 60; step++) {
      if (step === 20) {
        // The static set changes: one box removed, one added (reusing nothing): rebuild.
        const gone = statics.pop() as number;
        k.removeStatic(gone, true);
        k.kind[gone] = KIND_DYNAMIC;
        const s = slotCount++;
        k.ensure(s);
        k.kind[s] = KIND_STATIC;
        setBox(k, s, [10, 0.6, 10], [0.3, 0.3, 0.3]);
        k.addStatic(s, true);
        statics.push(s);
      }
      if (!k.staticFresh) k.ensureStaticBvh(slotCount);
      for (let j = 0; j < moving.length; j++) {
        const r = rng();
        if (r < 0.05) place(j);
        else if (r < 0.07) {
          // Removed and re-added in the same slot (the world forgets its candidates).
          k.forgetStaticCandidates(moving[j]);
          place(j);
        } else {
          for (let a = 0; a < 3; a++) centre[j][a] += 0.1 * (rng() - 0.5);
          setBox(k, moving[j], centre[j], half[j]);
        }
        const got: number[] = [];
        k.queryStatic(moving[j], slotCount, (id) => got.push(id));
        got.sort((x, y) => x - y);
        expect(got).toEqual(brute(k, moving[j], statics));
        checks++;
      }
    }
    expect(checks).toBe(60 * 400);
  });
});
