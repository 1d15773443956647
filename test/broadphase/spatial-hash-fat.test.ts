/**
 * The spatial hash keeps its cell table and candidate pairs while every box stays inside its
 * fat box (src/broadphase/spatial-hash.ts). These tests move bodies by amounts far below the
 * margin, so that no rebuild happens between steps, and check every step's pairs, AABB queries
 * and ray casts against brute force: boxes drifting apart and together, exactly touching faces
 * (dyadic coordinates, so touching is exact), and a box leaving its fat box.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import type { Vec3 } from "../../src/math/vec3.js";

interface Box {
  min: Vec3;
  max: Vec3;
}

function pairsOf(bp: SpatialHash | BruteForceBroadPhase): Array<[number, number]> {
  return bp.computePairs(new PairSet(4)).toArray();
}

function boxAt(cx: number, cy: number, cz: number, h: number): Box {
  return { min: { x: cx - h, y: cy - h, z: cz - h }, max: { x: cx + h, y: cy + h, z: cz + h } };
}

describe("SpatialHash fat boxes: small moves between rebuilds", () => {
  it("a row of unit boxes sliding by 2^-12 per step: touching, apart and back, as brute force", () => {
    // Boxes of side 1 at x = 0, 1, 2, …: neighbours touch exactly. Odd boxes then drift +x by
    // 2^-12 per step for 8 steps (gaps open), then back (touching again), then past (overlap).
    const grid = new SpatialHash();
    const brute = new BruteForceBroadPhase();
    const n = 12;
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      xs.push(i);
      const b = boxAt(i, 0, 0, 0.5);
      grid.insert(i, b.min, b.max);
      brute.insert(i, b.min, b.max);
    }
    expect(pairsOf(grid)).toEqual(pairsOf(brute));
    expect(pairsOf(grid)).toHaveLength(n - 1);
    const steps = [...Array(8).fill(1), ...Array(16).fill(-1), ...Array(8).fill(1)];
    let seen = 0;
    for (const dir of steps) {
      for (let i = 1; i < n; i += 2) {
        xs[i] += dir * 2 ** -12;
        const b = boxAt(xs[i], 0, 0, 0.5);
        grid.move(i, b.min, b.max);
        brute.move(i, b.min, b.max);
      }
      const expected = pairsOf(brute);
      expect(pairsOf(grid)).toEqual(expected);
      seen += expected.length;
      const q = boxAt(5.5, 0, 0, 0.25);
      const got: number[] = [];
      const want: number[] = [];
      grid.queryAabb(q.min, q.max, got);
      brute.queryAabb(q.min, q.max, want);
      expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("random jittered scenes under tiny random motion: pairs, queries and rays equal brute force", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(1, 1e-3, 1e4),
        fc.constantFrom(0, 1e6),
        (seed, scale, offset) => {
          let s = seed;
          const rand = () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s / 4294967296;
          };
          const grid = new SpatialHash();
          const brute = new BruteForceBroadPhase();
          const n = 60;
          const centre: Vec3[] = [];
          const half: number[] = [];
          const place = (i: number, insert: boolean) => {
            const b = boxAt(centre[i].x, centre[i].y, centre[i].z, half[i]);
            if (insert) {
              grid.insert(i, b.min, b.max);
              brute.insert(i, b.min, b.max);
            } else {
              grid.move(i, b.min, b.max);
              brute.move(i, b.min, b.max);
            }
          };
          for (let i = 0; i < n; i++) {
            centre.push({
              x: offset + scale * 6 * rand(),
              y: offset + scale * 6 * rand(),
              z: scale * 6 * rand(),
            });
            half.push(scale * (0.3 + 0.4 * rand()));
            place(i, true);
          }
          for (let step = 0; step < 20; step++) {
            for (let i = 0; i < n; i++) {
              // Most steps move far less than the margin; one body in 40 jumps (a rebuild).
              const amp = scale * (rand() < 0.025 ? 2 : 2e-4);
              centre[i] = {
                x: centre[i].x + amp * (rand() - 0.5),
                y: centre[i].y + amp * (rand() - 0.5),
                z: centre[i].z + amp * (rand() - 0.5),
              };
              place(i, false);
            }
            expect(pairsOf(grid)).toEqual(pairsOf(brute));
            const o = { x: offset, y: offset + scale * 3 * rand(), z: scale * 3 * rand() };
            const d = { x: 1, y: rand() - 0.5, z: rand() - 0.5 };
            const hitsGrid: number[] = [];
            const hitsBrute: number[] = [];
            grid.castRay(o, d, scale * 20, (id) => {
              hitsGrid.push(id);
            });
            brute.castRay(o, d, scale * 20, (id) => {
              hitsBrute.push(id);
            });
            expect(hitsGrid.sort((a, b) => a - b)).toEqual(hitsBrute.sort((a, b) => a - b));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
