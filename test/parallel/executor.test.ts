/**
 * The parallel executor (src/parallel/): a world stepped with `WorkerExecutor` must give
 * bitwise-identical contacts and events to the same world stepped on one thread (the oracle),
 * step after step, while bodies move, appear and disappear; mixed shapes (spheres, boxes,
 * capsules, hulls, compounds, half-spaces), sensors, layer masks and a prediction distance.
 * Without a closed layer mask the executor is handed every pair and its threads sort out those
 * of two unmoved bodies (carried over by the world); with one the caller filters first: both
 * paths are run. `minPairs: 0` forces every job through the workers, however small. No timing
 * is asserted.
 */
import { afterAll, describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeRandom, type Random, randomRotation } from "../../src/math/random.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { type Shape, ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  type CollisionWorldOptions,
} from "../../src/world/index.js";
import { contactDoubles, eventsOf, expectSameDoubles } from "../oracles/world-answers.js";

const executors: WorkerExecutor[] = [];
async function executor(threads: number): Promise<WorkerExecutor> {
  const e = new WorkerExecutor({ threads, minPairs: 0 });
  executors.push(e);
  await e.ready();
  return e;
}
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

function randomPose(rng: Random, extent: number): Isometry {
  const rotation = randomRotation(rng);
  return { translation: { x: extent * rng(), y: extent * rng(), z: extent * rng() }, rotation };
}

const hullPoints = new Float64Array([
  0.4, 0, 0, -0.4, 0, 0, 0, 0.3, 0, 0, -0.3, 0, 0, 0, 0.5, 0, 0, -0.5, 0.2, 0.2, 0.2,
]);

function randomShape(rng: Random, shared: Shape[]): Shape {
  const k = Math.floor(rng() * 6);
  if (k === 0) return makeSphere(0.2 + 0.4 * rng());
  if (k === 1) return makeCuboid({ x: 0.1 + 0.4 * rng(), y: 0.1 + 0.4 * rng(), z: 0.1 + rng() });
  if (k === 2) return makeCapsule({ x: 0, y: -0.3, z: 0 }, { x: 0, y: 0.3, z: 0 }, 0.2);
  if (k === 3) return makeConvexPolyhedron(hullPoints);
  if (k === 4) {
    return makeCompound([
      { shape: makeSphere(0.3), pose: randomPose(rng, 0.3) },
      { shape: makeCuboid({ x: 0.2, y: 0.2, z: 0.2 }), pose: randomPose(rng, 0.3) },
    ]);
  }
  // A shape object used by several bodies (sent to the workers once).
  return shared[Math.floor(rng() * shared.length)];
}

interface Twin {
  ref: CollisionWorld;
  par: CollisionWorld;
  refHandles: BodyHandle[];
  parHandles: BodyHandle[];
}

function addBoth(t: Twin, rng: Random, shape: Shape, extent: number, masks: boolean): void {
  const pose = randomPose(rng, extent);
  const sensor = rng() < 0.1;
  const layer = rng() < 0.8 || !masks ? 1 : 2;
  const mask = rng() < 0.8 || !masks ? 0xffffffff : 1;
  const desc = { shape, pose, sensor, layer, mask };
  t.refHandles.push(t.ref.addBody(desc));
  t.parHandles.push(t.par.addBody(desc));
}

/** What a twin run saw: touching pairs, and pairs the threads carried over, summed over its steps. */
interface TwinRun {
  touching: number;
  /** Pairs of two unmoved bodies that went to the executor (not tested, carried over). */
  carried: number;
}

async function runTwin(
  seed: number,
  threads: number,
  options: Partial<CollisionWorldOptions>,
  steps: number,
  masks = true,
  still = 0.2,
): Promise<number> {
  return (await runTwinCounts(seed, threads, options, steps, masks, still)).touching;
}

/** {@link runTwin} with layer masks or not, `still` the share of bodies left unmoved per step. */
async function runTwinCounts(
  seed: number,
  threads: number,
  options: Partial<CollisionWorldOptions>,
  steps: number,
  masks: boolean,
  still: number,
): Promise<TwinRun> {
  const rng = makeRandom(seed);
  const extent = 6;
  const shared = [makeSphere(0.35), makeCuboid({ x: 0.3, y: 0.2, z: 0.4 })];
  const ex = await executor(threads);
  const t: Twin = {
    ref: new CollisionWorld(options),
    par: new CollisionWorld({ ...options, executor: ex }),
    refHandles: [],
    parHandles: [],
  };
  for (let i = 0; i < 220; i++) addBoth(t, rng, randomShape(rng, shared), extent, masks);
  const floor = makeHalfSpace({ x: 0, y: 1, z: 0 }, 0.5);
  addBoth(t, rng, floor, 0, masks);
  let touching = 0;
  let carried = 0;
  for (let s = 0; s < steps; s++) {
    // Move most bodies a little.
    for (let i = 0; i < t.refHandles.length; i++) {
      if (rng() < still) continue;
      const pose = t.ref.getPose(t.refHandles[i]);
      pose.translation.x += 0.1 * (rng() - 0.5);
      pose.translation.y += 0.1 * (rng() - 0.5);
      pose.translation.z += 0.1 * (rng() - 0.5);
      t.ref.setPose(t.refHandles[i], pose);
      t.par.setPose(t.parHandles[i], pose);
    }
    // Remove a few bodies and add a few (slots are recycled, shapes change per slot).
    if (rng() < 0.3 && t.refHandles.length > 50) {
      const k = Math.floor(rng() * t.refHandles.length);
      t.ref.removeBody(t.refHandles[k]);
      t.par.removeBody(t.parHandles[k]);
      t.refHandles.splice(k, 1);
      t.parHandles.splice(k, 1);
    }
    if (rng() < 0.3) addBoth(t, rng, randomShape(rng, shared), extent, masks);
    t.ref.step();
    t.par.step();
    const st = t.ref.stats;
    // Without masks the executor got every pair, the unmoved ones included (blocks of 512).
    const handed = masks ? st.narrowPairs : st.filteredPairs;
    expect(ex.lastJob.blocks).toBe(Math.ceil(handed / 512));
    if (!masks) carried += st.filteredPairs - st.narrowPairs;
    expect(t.par.contactCount).toBe(t.ref.contactCount);
    expect(eventsOf(t.par.events())).toEqual(eventsOf(t.ref.events()));
    expectSameDoubles(contactDoubles(t.ref), contactDoubles(t.par));
    expect(t.par.stats).toEqual({ ...t.ref.stats, broadPhaseMs: 0, narrowPhaseMs: 0 });
    touching += t.ref.contactCount + t.ref.stats.sensorPairs;
  }
  return { touching, carried };
}

describe("WorkerExecutor: threaded steps are bitwise identical to single-threaded ones", () => {
  it("2 threads, grid, prediction 0: 200 steps with moves, adds and removes", async () => {
    const touching = await runTwin(11, 2, { broadphase: "grid" }, 200);
    expect(touching).toBeGreaterThan(1000);
  });

  it("2 threads, tree, prediction 0.05: 150 steps", async () => {
    const touching = await runTwin(12, 2, { broadphase: "tree", prediction: 0.05 }, 150);
    expect(touching).toBeGreaterThan(1000);
  });

  it("no layer mask: the threads sort out the pairs of two unmoved bodies (carried over, sensors too) — 2 threads, grid, 120 steps", async () => {
    const r = await runTwinCounts(15, 2, { broadphase: "grid" }, 120, false, 0.5);
    expect(r.touching).toBeGreaterThan(1000);
    // A quarter of the pairs have two unmoved bodies: hundreds carried over by the threads.
    expect(r.carried).toBeGreaterThan(500);
  });

  it("no layer mask, 1 thread (no workers) and 3 threads, tree with prediction: carried alike", async () => {
    const tree = { broadphase: "tree", prediction: 0.05 } as const;
    const one = await runTwinCounts(16, 1, tree, 50, false, 0.7);
    expect(await runTwinCounts(16, 3, tree, 50, false, 0.7)).toEqual(one);
    expect(one.carried).toBeGreaterThan(500);
  });

  it("3 threads (more threads than cores) and 1 thread (no workers) agree too", async () => {
    expect(await runTwin(13, 3, { broadphase: "sap" }, 60)).toBeGreaterThan(100);
    expect(await runTwin(14, 1, { broadphase: "sap" }, 60)).toBeGreaterThan(100);
  });

  it("a hand-built shape broken after addBody changes nothing on either thread, and the executor stays usable", async () => {
    // This test used to break a hand-built box after addBody (its half extents removed) to make
    // a pair throw in the narrow phase, on the worker as on the caller. Since addBody keeps a
    // frozen copy of a hand-built shape (src/shapes/validate.ts, keptShape), no shape can be
    // broken under a world and no pair throws through the public API: the threaded and the
    // single-threaded worlds both step, with the same contacts.
    const e = await executor(2);
    const w = new CollisionWorld({ broadphase: "brute", executor: e });
    const ref = new CollisionWorld({ broadphase: "brute" });
    const rng = makeRandom(3);
    for (const world of [ref, w]) {
      const r = makeRandom(3);
      for (let i = 0; i < 120; i++)
        world.addBody({ shape: makeSphere(0.5), pose: randomPose(r, 2) });
    }
    const pose = randomPose(rng, 0);
    for (const world of [ref, w]) {
      const box = { type: ShapeType.Cuboid, halfExtents: { x: 0.5, y: 0.5, z: 0.5 } } as Shape;
      world.addBody({ shape: box, pose });
      (box as unknown as { halfExtents: unknown }).halfExtents = null;
    }
    ref.step();
    w.step();
    expect(w.contactCount).toBe(ref.contactCount);
    expect(w.contactCount).toBeGreaterThan(0);
    // The same executor still serves another world.
    expect(runTwinOn(e)).toBeGreaterThan(0);
  });

  it("two half-spaces and a mesh step alike on one and two threads (they threw unsupported_pair)", async () => {
    const e = await executor(2);
    const w = new CollisionWorld({ executor: e });
    const ref = new CollisionWorld();
    for (const world of [ref, w]) {
      world.addBody({
        shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
        pose: randomPose(makeRandom(1), 0),
      });
      world.addBody({
        shape: makeHalfSpace({ x: 1, y: 0, z: 0 }, 0),
        pose: randomPose(makeRandom(2), 0),
      });
      const r = makeRandom(4);
      for (let i = 0; i < 80; i++)
        world.addBody({ shape: makeSphere(0.4), pose: randomPose(r, 2) });
    }
    ref.step();
    w.step();
    expect(w.contactCount).toBe(ref.contactCount);
    expect(w.contactCount).toBeGreaterThan(0);
  });

  it("rejects bad options and refuses work after dispose (idempotent)", async () => {
    expect(() => new WorkerExecutor({ threads: 0 })).toThrow(CollideError);
    expect(() => new WorkerExecutor({ threads: 1.5 })).toThrow(CollideError);
    expect(() => new WorkerExecutor({ minPairs: -1 })).toThrow(CollideError);
    // Unknown fields and non-objects are refused, naming the field (as the world does).
    expect(() => new WorkerExecutor({ foo: 1 } as never)).toThrow(/options\.foo/);
    expect(() => new WorkerExecutor(null as never)).toThrow(CollideError);
    const e = new WorkerExecutor({ threads: 2, minPairs: 0 });
    await e.ready();
    const w = new CollisionWorld({ executor: e });
    w.addBody({ shape: makeSphere(1), pose: randomPose(makeRandom(1), 0) });
    w.addBody({ shape: makeSphere(1), pose: randomPose(makeRandom(1), 0) });
    w.step();
    expect(w.contactCount).toBe(1);
    await e.dispose();
    await e.dispose();
    expect(() => w.step()).toThrow(CollideError);
  });
});

/** A small scene stepped through executor `e` beside the single-threaded oracle; touching count. */
function runTwinOn(e: WorkerExecutor): number {
  const rng = makeRandom(5);
  const ref = new CollisionWorld();
  const par = new CollisionWorld({ executor: e });
  for (let i = 0; i < 60; i++) {
    const desc = { shape: makeSphere(0.5), pose: randomPose(rng, 3) };
    ref.addBody(desc);
    par.addBody(desc);
  }
  ref.step();
  par.step();
  expectSameDoubles(contactDoubles(ref), contactDoubles(par));
  return ref.contactCount;
}
