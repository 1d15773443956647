/**
 * The spatial hash updates only the boxes that left their fat boxes (its move buffer), with a
 * margin that follows each box's displacement (src/broadphase/spatial-hash.ts). These property
 * tests drive it with mixed motion — most boxes still, some on a slow random walk, some fast,
 * some teleported across the scene, inserts and removes between steps, displacements given or
 * not — and check every step's pairs, an AABB query and a ray cast against the brute-force
 * oracle, and that the grid is rebuilt only rarely (the incremental path does the work).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BruteForceBroadPhase } from "../../src/broadphase/brute-force.js";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { SpatialHash } from "../../src/broadphase/spatial-hash.js";

function makeRand(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

interface Body {
  c: [number, number, number];
  h: [number, number, number];
  /** 0 still, 1 slow walk, 2 fast, 3 teleports now and then. */
  speed: number;
}

function box(b: Body) {
  return {
    min: { x: b.c[0] - b.h[0], y: b.c[1] - b.h[1], z: b.c[2] - b.h[2] },
    max: { x: b.c[0] + b.h[0], y: b.c[1] + b.h[1], z: b.c[2] + b.h[2] },
  };
}

function runScene(seed: number, scale: number, offset: number, withDisplacement: boolean) {
  const rand = makeRand(seed);
  const grid = new SpatialHash();
  const brute = new BruteForceBroadPhase();
  const side = 12 * scale;
  const bodies = new Map<number, Body>();
  let nextId = 0;
  const add = () => {
    const size = scale * (rand() < 0.1 ? 2 + 3 * rand() : 0.2 + 0.4 * rand());
    const b: Body = {
      c: [offset + side * rand(), offset + side * rand(), offset + side * rand()],
      h: [size * (0.5 + rand()), size * (0.5 + rand()), size * (0.5 + rand())],
      speed: Math.floor(4 * rand()),
    };
    const id = nextId++;
    bodies.set(id, b);
    const { min, max } = box(b);
    grid.insert(id, min, max);
    brute.insert(id, min, max);
  };
  for (let i = 0; i < 150; i++) add();
  const d = { x: 0, y: 0, z: 0 };
  const steps = 40;
  for (let step = 0; step < steps; step++) {
    for (const [id, b] of bodies) {
      let step3: [number, number, number] = [0, 0, 0];
      if (b.speed === 1)
        step3 = [0.05, 0.05, 0.05].map((v) => v * scale * (2 * rand() - 1)) as typeof step3;
      else if (b.speed === 2)
        step3 = [0.6, 0.6, 0.6].map((v) => v * scale * (2 * rand() - 1)) as typeof step3;
      else if (b.speed === 3 && rand() < 0.1) {
        step3 = [0, 1, 2].map((a) => offset + side * rand() - b.c[a]) as typeof step3;
      }
      if (step3[0] === 0 && step3[1] === 0 && step3[2] === 0) continue;
      for (let a = 0; a < 3; a++) b.c[a] += step3[a];
      d.x = step3[0];
      d.y = step3[1];
      d.z = step3[2];
      const { min, max } = box(b);
      grid.move(id, min, max, withDisplacement ? d : undefined);
      brute.move(id, min, max);
    }
    if (step % 7 === 3) {
      // Remove a few and add a few (ids reused and new).
      const ids = [...bodies.keys()];
      for (let r = 0; r < 3; r++) {
        const id = ids[Math.floor(rand() * ids.length)];
        if (!bodies.has(id)) continue;
        bodies.delete(id);
        grid.remove(id);
        brute.remove(id);
      }
      for (let r = 0; r < 3; r++) add();
    }
    const got = grid.computePairs(new PairSet(4)).toArray();
    const want = brute.computePairs(new PairSet(4)).toArray();
    expect(got).toEqual(want);
    const qc = [offset + side * rand(), offset + side * rand(), offset + side * rand()];
    const qh = scale * 2;
    const qmin = { x: qc[0] - qh, y: qc[1] - qh, z: qc[2] - qh };
    const qmax = { x: qc[0] + qh, y: qc[1] + qh, z: qc[2] + qh };
    const qg: number[] = [];
    const qb: number[] = [];
    grid.queryAabb(qmin, qmax, qg);
    brute.queryAabb(qmin, qmax, qb);
    expect(qg.sort((x, y) => x - y)).toEqual(qb.sort((x, y) => x - y));
    const o = { x: offset - scale, y: qc[1], z: qc[2] };
    const dir = { x: 1, y: 0.3 * (rand() - 0.5), z: 0.3 * (rand() - 0.5) };
    const rg: Array<[number, number]> = [];
    const rb: Array<[number, number]> = [];
    grid.castRay(o, dir, side + 2 * scale, (id, t) => {
      rg.push([id, t]);
    });
    brute.castRay(o, dir, side + 2 * scale, (id, t) => {
      rb.push([id, t]);
    });
    expect(rg.sort((x, y) => x[0] - y[0])).toEqual(rb.sort((x, y) => x[0] - y[0]));
  }
  return grid.rebuilds;
}

describe("SpatialHash incremental updates (move buffer, displacement margins)", () => {
  it("mixed speeds, teleports, inserts and removes: pairs, queries and rays equal brute force", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(1, 1e-3, 1e4),
        fc.constantFrom(0, -1e6, 1e6),
        fc.boolean(),
        (seed, scale, offset, withDisplacement) => {
          // Correctness is checked inside at every step; a quarter of the bodies moving fast
          // (more than a quarter leaving their fat boxes) may rebuild at any step.
          expect(runScene(seed, scale, offset, withDisplacement)).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 12 },
    );
  });

  it("a slow random walk of many boxes is updated incrementally (few full rebuilds)", () => {
    const rand = makeRand(7);
    const grid = new SpatialHash();
    const brute = new BruteForceBroadPhase();
    const n = 2000;
    const side = Math.cbrt(n * 2);
    const c = new Float64Array(3 * n);
    const h = 0.4;
    for (let i = 0; i < 3 * n; i++) c[i] = side * rand();
    const boxOf = (i: number) => ({
      min: { x: c[3 * i] - h, y: c[3 * i + 1] - h, z: c[3 * i + 2] - h },
      max: { x: c[3 * i] + h, y: c[3 * i + 1] + h, z: c[3 * i + 2] + h },
    });
    for (let i = 0; i < n; i++) {
      const b = boxOf(i);
      grid.insert(i, b.min, b.max);
      brute.insert(i, b.min, b.max);
    }
    const d = { x: 0, y: 0, z: 0 };
    for (let step = 0; step < 30; step++) {
      for (let i = 0; i < n; i++) {
        d.x = 0.05 * (2 * rand() - 1);
        d.y = 0.05 * (2 * rand() - 1);
        d.z = 0.05 * (2 * rand() - 1);
        c[3 * i] += d.x;
        c[3 * i + 1] += d.y;
        c[3 * i + 2] += d.z;
        const b = boxOf(i);
        grid.move(i, b.min, b.max, d);
        brute.move(i, b.min, b.max);
      }
      expect(grid.computePairs(new PairSet(4)).toArray()).toEqual(
        brute.computePairs(new PairSet(4)).toArray(),
      );
    }
    // The first build, and one when the first step moves nearly every box out of its initial
    // (displacement-free) margin; the walk then refits a few boxes per step.
    expect(grid.rebuilds).toBeLessThanOrEqual(3);
  });
});
