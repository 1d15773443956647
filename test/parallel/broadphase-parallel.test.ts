/**
 * The threaded broad phase: a world whose grid runs its candidate merge, its moved bodies' cell
 * update and cell queries over a 2-thread `WorkerExecutor` (src/broadphase/candidate-merge.ts,
 * cell-update.ts, cell-query.ts) gives bitwise the contacts, events and
 * counters of the same world on one thread (the oracle), step after step, on the benchmark's
 * scenes (a) lattice and (b) random (bench/scenes.ts) with their motion, a teleport of every
 * body (a rebuild), removals and additions. Large enough (5,000 bodies, tens of thousands of
 * candidates) that the merge runs in several chunks; that it did is asserted. No timing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { makeScene, type SceneName } from "../../bench/scenes.js";
import type { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";
import { contactDoubles, eventsOf, expectSameDoubles } from "../oracles/world-answers.js";

const executors: WorkerExecutor[] = [];
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

/**
 * Runs `sceneName` with `n` bodies for `steps` steps on one thread and on two, comparing every
 * step. With `teleports`, besides the scene's motion, every step sends some bodies (a different
 * few each step) to another spot of the scene and a few far away (1e9 and 1e15: past the
 * largest cell index, the grid's overflow list); they come back to their walk the next step.
 */
async function twinRun(
  sceneName: SceneName,
  n: number,
  steps: number,
  teleports = false,
): Promise<number> {
  const e = new WorkerExecutor({ threads: 2, minPairs: 0 });
  executors.push(e);
  await e.ready();
  const scene = makeScene(sceneName, n, 3);
  scene.move(0);
  const ref = new CollisionWorld({ broadphase: "grid" });
  const par = new CollisionWorld({ broadphase: "grid", executor: e });
  const { size, rot, pos } = scene;
  const refHandles: BodyHandle[] = [];
  const parHandles: BodyHandle[] = [];
  const shape = (i: number) =>
    scene.kind[i] === 0
      ? makeSphere(size[3 * i])
      : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
  const pose = (i: number) => ({
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  });
  for (let i = 0; i < n; i++) {
    const s = shape(i);
    refHandles.push(ref.addBody({ shape: s, pose: pose(i) }));
    parHandles.push(par.addBody({ shape: s, pose: pose(i) }));
  }
  const live = new Uint8Array(n).fill(1);
  let touching = 0;
  let overflowSteps = 0;
  for (let f = 1; f <= steps; f++) {
    // Frame 8 jumps: every body teleports (more than a quarter leave their fat boxes: rebuild).
    scene.move(f === 8 ? 5000 : f);
    const idx: number[] = [];
    for (let i = 0; i < n; i++) if (live[i] === 1) idx.push(i);
    const poses = new Float64Array(7 * idx.length);
    idx.forEach((i, j) => {
      poses.set([pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]], 7 * j);
      poses.set(rot.subarray(4 * i, 4 * i + 4), 7 * j + 3);
    });
    if (teleports && f !== 8) {
      // Within the scene: onto another body's spot (so that it touches something there).
      for (let j = f % 37; j < idx.length; j += 37) {
        const other = idx[(j * 7919 + f * 104729) % idx.length];
        poses.set([pos[3 * other] + 0.25, pos[3 * other + 1], pos[3 * other + 2]], 7 * j);
      }
      // Far away, two of them on the same spot (a pair between two overflow bodies).
      for (let j = f % 211, q = 0; j < idx.length; j += 211, q++) {
        const far = q % 3 === 2 ? 1e15 : 1e9;
        poses.set([far, q % 3 === 0 ? far : -far, 0], 7 * j);
      }
    }
    ref.setPoses(
      idx.map((i) => refHandles[i]),
      poses,
    );
    par.setPoses(
      idx.map((i) => parHandles[i]),
      poses,
    );
    // A few removals and re-additions (the move buffer's remove and insert paths).
    if (f % 3 === 0) {
      for (let i = f; i < n; i += 397) {
        if (live[i] === 1) {
          ref.removeBody(refHandles[i]);
          par.removeBody(parHandles[i]);
          live[i] = 0;
        } else {
          refHandles[i] = ref.addBody({ shape: shape(i), pose: pose(i) });
          parHandles[i] = par.addBody({ shape: shape(i), pose: pose(i) });
          live[i] = 1;
        }
      }
    }
    ref.step();
    par.step();
    expect(par.contactCount).toBe(ref.contactCount);
    expect(eventsOf(par.events())).toEqual(eventsOf(ref.events()));
    expectSameDoubles(contactDoubles(ref), contactDoubles(par));
    expect(par.stats).toEqual({ ...ref.stats, broadPhaseMs: 0, narrowPhaseMs: 0 });
    touching += ref.contactCount;
    const g = (par as unknown as { bp: SpatialHash }).bp;
    overflowSteps += g.overflowSize > 0 ? 1 : 0;
  }
  const grid = (par as unknown as { bp: SpatialHash }).bp;
  if (teleports) {
    // The far bodies went to the overflow list, and the steps were incremental updates.
    expect(overflowSteps).toBeGreaterThan(steps / 2);
    expect(grid.rebuilds).toBeLessThan(steps / 2);
  }
  expect(grid.parallelMerges).toBeGreaterThan(steps / 2);
  // The moved bodies' cell queries ran on the threads too (scene (b): every step moves some).
  // and so did their unlinking and re-placement (src/broadphase/cell-update.ts).
  if (sceneName === "random") {
    expect(grid.parallelCellQueries).toBeGreaterThan(0);
    expect(grid.parallelCellUpdates).toBe(grid.parallelCellQueries);
  }
  const refGrid = (ref as unknown as { bp: SpatialHash }).bp;
  expect(refGrid.parallelMerges).toBe(0);
  expect(refGrid.parallelCellQueries).toBe(0);
  expect(refGrid.parallelCellUpdates).toBe(0);
  // The same rebuilds: the threads' update decides as the serial one.
  expect(grid.rebuilds).toBe(refGrid.rebuilds);
  return touching;
}

describe("the grid's broad phase on 2 threads is bitwise the single-threaded one", () => {
  // Teleports every step: bodies leave their fat boxes by far more than their margins (the
  // incremental update's unlink and re-placement), some to the overflow list and back.
  it("scene (b) random, 5,000 bodies, 20 steps with random walks and teleports of a few bodies every step", async () => {
    expect(await twinRun("random", 5000, 20, true)).toBeGreaterThan(20 * 1000);
  }, 120_000);

  it("scene (a) lattice, 5,000 bodies, 16 steps with moves, a teleport, removals and additions", async () => {
    expect(await twinRun("lattice", 5000, 16)).toBeGreaterThan(16 * 1000);
  }, 120_000);

  // 24 steps: the random walk moves more than one chunk of bodies out of their fat boxes per
  // step (the cell queries then run on the threads) only some steps after a (re)build.
  it("scene (b) random, 5,000 bodies, 24 steps with random walks, a teleport, removals and additions", async () => {
    expect(await twinRun("random", 5000, 24)).toBeGreaterThan(24 * 1000);
  }, 120_000);
});
