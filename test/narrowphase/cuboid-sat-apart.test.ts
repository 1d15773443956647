/**
 * What the world's narrow phase relies on to skip the near-touching band's intersects test for a
 * box–box pair (`satApart`, src/world/narrow-pair.ts): whenever the box–box contact routine finds
 * nothing, at any prediction, the box–box intersects test on the same pose says apart too. The
 * oracle is the intersects routine itself, run in full. Random boxes and poses, with the
 * adversarial cases of the claim: no rotation (intersects' 3-axis shortcut), right-angle turns
 * (exactly parallel edges), and boxes placed exactly touching or a few ulps apart or into each
 * other along a face, an edge or a corner direction.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import {
  contactCuboidCuboid,
  intersectsCuboidCuboid,
  lastCuboidSat,
} from "../../src/narrowphase/cuboid-cuboid.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";

const ext = fc.double({ min: 0.01, max: 3, noNaN: true });
const H = Math.SQRT1_2;
/** Exact turns: none, quarter turns about each axis, a half turn, a corner turn. */
const turns = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: H, y: 0, z: 0, w: H },
  { x: 0, y: H, z: 0, w: H },
  { x: 0, y: 0, z: H, w: H },
  { x: 0, y: 1, z: 0, w: 0 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];

describe("box–box: the contact SAT's 'apart' is intersects' 'apart'", () => {
  it("holds on random and touching poses, at prediction 0 and above", () => {
    const c = makeContact();
    let apart = 0;
    fc.assert(
      fc.property(
        fc.tuple(ext, ext, ext, ext, ext, ext),
        fc.oneof(
          fc.integer({ min: 0, max: turns.length - 1 }),
          fc.nat().map((n) => -1 - n),
        ),
        fc.tuple(
          fc.integer({ min: -1, max: 1 }),
          fc.integer({ min: -1, max: 1 }),
          fc.integer({ min: -1, max: 1 }),
        ),
        fc.integer({ min: -3, max: 3 }),
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.constantFrom(0, 1e-9, 0.01, 0.5),
        (h, turn, dir, ulps, jitter, prediction) => {
          const a = makeCuboid({ x: h[0], y: h[1], z: h[2] });
          const b = makeCuboid({ x: h[3], y: h[4], z: h[5] });
          let rotation = turns[0];
          if (turn >= 0) rotation = turns[turn];
          else {
            const r = makeRandom(-turn);
            const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
            const l = Math.hypot(...q);
            rotation = { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
          }
          // Touching along `dir` for boxes without rotation (sum of half extents), then moved
          // by a few ulps; a random offset when dir is all zero.
          const touch = [h[0] + h[3], h[1] + h[4], h[2] + h[5]];
          const t = dir.map((d, i) => {
            if (dir.every((e) => e === 0)) return jitter;
            let v = d * touch[i];
            for (let k = 0; k < Math.abs(ulps); k++) v = ulps > 0 ? nextUp(v) : nextDown(v);
            return v;
          });
          const bInA = { translation: { x: t[0], y: t[1], z: t[2] }, rotation };
          if (contactCuboidCuboid(c, a, b, bInA, prediction)) return;
          apart++;
          expect(lastCuboidSat().separation).toBeGreaterThan(0);
          expect(intersectsCuboidCuboid(a, b, bInA)).toBe(false);
        },
      ),
      { numRuns: 20000 },
    );
    expect(apart).toBeGreaterThan(1000);
  });
});

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The next double above x. */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  i64[0] += x > 0 ? 1n : -1n;
  return f64[0];
}

/** The next double below x. */
function nextDown(x: number): number {
  return -nextUp(-x);
}
