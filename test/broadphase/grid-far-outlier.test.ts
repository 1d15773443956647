/**
 * A fresh user's scene: 3,000 spheres on a lattice and one body far away (1e14–9e299). The grid
 * raised its cell to the far body's magnitude / 2^39, which put every other body in one cell:
 * 1,500 bodies stepped in 365 ms, 3,000 threw `maxPairs`. The far body now goes to the overflow
 * list and the cell follows the bulk. Oracle: the brute-force broad phase's pairs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { BruteForceBroadPhase, CollisionWorld, makeSphere, SpatialHash } from "../../src/index.js";

const rot = { x: 0, y: 0, z: 0, w: 1 };
const at = (x: number, y = 0, z = 0) => ({ translation: { x, y, z }, rotation: rot });

describe("grid with a body far from the rest", () => {
  it("the fresh user's world: 3,000 lattice spheres and one at 1e15 step with the exact pairs", () => {
    const w = new CollisionWorld({ broadphase: "grid" });
    const handles = [];
    for (let i = 0; i < 3000; i++) {
      handles.push(
        w.addBody({ shape: makeSphere(0.5), pose: at((i % 100) * 1.2, Math.floor(i / 100) * 1.2) }),
      );
    }
    const far = w.addBody({ shape: makeSphere(0.5), pose: at(1e15) });
    w.step();
    expect(w.contactCount).toBe(0);
    // Moving the far body, and a lattice body onto it, keeps the answers exact.
    w.setPose(far, at(-3e14, 2e14));
    w.step();
    expect(w.contactCount).toBe(0);
    w.setPose(handles[0], at(-3e14, 2e14 + 0.5));
    w.step();
    expect(w.contactCount).toBe(1);
    w.setPose(far, at(9e299));
    w.step();
    expect(w.contactCount).toBe(0);
    // Past the world's coordinate bound (±1e300) the pose is refused and the body stays put.
    expect(() => w.setPose(far, at(1e308))).toThrow(/out of range/);
    w.step();
    expect(w.contactCount).toBe(0);
  });

  it("pairs equal brute force with a few far bodies among clustered ones (fast-check)", () => {
    const near = fc.double({ min: -50, max: 50, noNaN: true });
    const farCoord = fc.oneof(
      fc.double({ min: 1e12, max: 1e300, noNaN: true }),
      fc.double({ min: -1e300, max: -1e12, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(near, near, near, fc.double({ min: 0.1, max: 3, noNaN: true })), {
          minLength: 20,
          maxLength: 200,
        }),
        fc.array(fc.tuple(farCoord, near, farCoord), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), near, near, near), { maxLength: 20 }),
        (bulk, outliers, moves) => {
          const grid = new SpatialHash();
          const brute = new BruteForceBroadPhase();
          const boxes: [number, number, number, number, number, number][] = [];
          for (const [x, y, z, r] of bulk) boxes.push([x - r, y - r, z - r, x + r, y + r, z + r]);
          for (const [x, y, z] of outliers) boxes.push([x - 1, y - 1, z - 1, x + 1, y + 1, z + 1]);
          const ids = boxes.map((b, i) => {
            const min = { x: b[0], y: b[1], z: b[2] };
            const max = { x: b[3], y: b[4], z: b[5] };
            grid.insert(i, min, max);
            brute.insert(i, min, max);
            return i;
          });
          const check = () => {
            const a = grid.computePairs(new PairSet(4)).toArray();
            const b = brute.computePairs(new PairSet(4)).toArray();
            expect(a).toEqual(b);
          };
          check();
          for (const [n, x, y, z] of moves) {
            const id = ids[n % ids.length];
            const min = { x, y, z };
            const max = { x: x + 1, y: y + 1, z: z + 1 };
            grid.move(id, min, max);
            brute.move(id, min, max);
          }
          check();
        },
      ),
      { numRuns: 60, seed: 20261202 },
    );
  });
});
