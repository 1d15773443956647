/**
 * `cuboidAxisSeparation` (the warm start's test of one cached SAT axis, src/world/warm-start-cache.ts)
 * computes bitwise the separation the full 15-axis test computes for that axis: the full test's
 * chosen axis, re-evaluated alone, gives exactly its reported separation; and an axis that
 * separates by more than the tie tolerance makes the full test (stopping above 0) report the
 * boxes apart. Random boxes and poses, including axis-aligned and exactly touching ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import {
  axisSeparation,
  cuboidAxisSeparation,
  cuboidSatTie,
  makeCuboidSatResult,
  satCuboidCuboid,
} from "../../src/narrowphase/cuboid-cuboid.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";

const ext = fc.double({ min: 0.05, max: 3, noNaN: true });
const coord = fc.double({ min: -4, max: 4, noNaN: true });

describe("cuboidAxisSeparation", () => {
  it("equals the full SAT's separation on its chosen axis, and proves 'apart' as it does", () => {
    const sat = makeCuboidSatResult();
    fc.assert(
      fc.property(
        fc.tuple(ext, ext, ext, ext, ext, ext),
        fc.tuple(coord, coord, coord),
        fc.oneof(fc.constant(-1), fc.nat()),
        (h, t, seed) => {
          const a = makeCuboid({ x: h[0], y: h[1], z: h[2] });
          const b = makeCuboid({ x: h[3], y: h[4], z: h[5] });
          let rotation = { x: 0, y: 0, z: 0, w: 1 };
          if (seed >= 0) {
            const r = makeRandom(seed);
            const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
            const l = Math.hypot(...q);
            rotation = { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
          }
          const bInA = { translation: { x: t[0], y: t[1], z: t[2] }, rotation };
          satCuboidCuboid(sat, a, b, bInA);
          cuboidAxisSeparation(a, b, bInA, sat.kind, sat.i, sat.j);
          expect(Object.is(axisSeparation[0], sat.separation)).toBe(true);
          // Every axis: one beyond the tie proves the full (early-exit) test reports "apart".
          cuboidSatTie(a, b);
          const tie = axisSeparation[1];
          for (let kind = 0; kind < 3; kind++) {
            for (let i = 0; i < 3; i++) {
              for (let j = 0; j < 3; j++) {
                cuboidAxisSeparation(a, b, bInA, kind, i, j);
                if (axisSeparation[0] > tie) {
                  satCuboidCuboid(sat, a, b, bInA, 0);
                  expect(sat.separation).toBeGreaterThan(0);
                }
              }
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
