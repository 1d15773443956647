/**
 * The threaded step as a whole against the single-threaded one (the oracle), as a fast-check
 * property over random programs of steps on scene (b)'s bodies (bench/scenes.ts): each step a
 * random walk of a random share of the bodies through `setPoses` (batches large enough that its
 * two passes run on the executor's threads, src/world/pose-boxes.ts, and that the grid's
 * candidate merge and its moved bodies' cell queries run in chunks), teleports, a handle given twice, a bad pose (the same error,
 * the world unchanged), removals, additions, `sleep`, automatic sleep, and static bodies (some
 * moved). After every step the contacts, events and counters, and every live body's box and pose, must be
 * bitwise those of one thread. No timing is asserted.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { makeScene } from "../../bench/scenes.js";
import type { SpatialHash } from "../../src/broadphase/spatial-hash.js";
import { CollideError } from "../../src/errors.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";
import { POSE_BOXES_CHUNK } from "../../src/world/pose-boxes.js";
import { contactDoubles, eventsOf, expectSameDoubles } from "../oracles/world-answers.js";

const executors: WorkerExecutor[] = [];
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

/** Bodies: more than two chunks of the parallel first pass of `setPoses` when most move. */
const N = 3 * POSE_BOXES_CHUNK;

const stepArb = fc.record({
  /** Share of the live bodies in this step's `setPoses` batch (below 1/4: no walk batch is parallel). */
  share: fc.constantFrom(0.1, 0.7, 0.95, 1),
  /** Largest walk per axis. */
  walk: fc.constantFrom(0.01, 0.05, 0.3),
  teleports: fc.integer({ min: 0, max: 40 }),
  duplicate: fc.boolean(),
  /** Index (as a fraction of the batch) of a NaN put in a first, refused batch, or −1. */
  bad: fc.oneof(fc.constant(-1), fc.double({ min: 0, max: 0.999, noNaN: true })),
  removals: fc.integer({ min: 0, max: 25 }),
  additions: fc.integer({ min: 0, max: 25 }),
  sleeps: fc.integer({ min: 0, max: 25 }),
  moveStatic: fc.boolean(),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

/** A small deterministic generator (the two worlds get the same numbers). */
function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function twinProgram(
  sceneSeed: number,
  sleepAfterSteps: number,
  steps: Step[],
): Promise<void> {
  const e = new WorkerExecutor({ threads: 2, minPairs: 0 });
  executors.push(e);
  await e.ready();
  // Count the parallel second passes of setPoses (src/world/pose-boxes.ts applyPoseChunk).
  const apply = e.runPoseApply.bind(e);
  e.runPoseApply = (job, chunks) => {
    poseApplies++;
    apply(job, chunks);
  };
  const scene = makeScene("random", N, sceneSeed);
  scene.move(0);
  const ref = new CollisionWorld({ broadphase: "grid", sleepAfterSteps });
  const par = new CollisionWorld({ broadphase: "grid", sleepAfterSteps, executor: e });
  const { size, rot, pos } = scene;
  const shapes: Shape[] = [];
  for (let i = 0; i < N; i++) {
    shapes.push(
      scene.kind[i] === 0
        ? makeSphere(size[3 * i])
        : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] }),
    );
  }
  // Where body i is now (the worlds' poses are compared through their boxes).
  const at = new Float64Array(7 * N);
  for (let i = 0; i < N; i++) {
    at.set([pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]], 7 * i);
    at.set(rot.subarray(4 * i, 4 * i + 4), 7 * i + 3);
  }
  const refH: (BodyHandle | -1)[] = [];
  const parH: (BodyHandle | -1)[] = [];
  const isStatic = new Uint8Array(N);
  const add = (i: number) => {
    const o = 7 * i;
    const desc = {
      shape: shapes[i],
      pose: {
        translation: { x: at[o], y: at[o + 1], z: at[o + 2] },
        rotation: { x: at[o + 3], y: at[o + 4], z: at[o + 5], w: at[o + 6] },
      },
      kind: isStatic[i] === 1 ? ("static" as const) : ("dynamic" as const),
    };
    refH[i] = ref.addBody(desc);
    parH[i] = par.addBody(desc);
  };
  for (let i = 0; i < N; i++) {
    isStatic[i] = i % 10 === 3 ? 1 : 0;
    add(i);
  }
  const compare = () => {
    expect(par.contactCount).toBe(ref.contactCount);
    expect(eventsOf(par.events())).toEqual(eventsOf(ref.events()));
    expectSameDoubles(contactDoubles(ref), contactDoubles(par));
    expect(par.stats).toEqual({ ...ref.stats, broadPhaseMs: 0, narrowPhaseMs: 0 });
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < N; i++) {
      const hr = refH[i];
      const hp = parH[i];
      if (hr === -1 || hp === -1) continue;
      const x = ref.getAabb(hr);
      const y = par.getAabb(hp);
      a.push(x.min.x, x.min.y, x.min.z, x.max.x, x.max.y, x.max.z, +ref.isSleeping(hr));
      b.push(y.min.x, y.min.y, y.min.z, y.max.x, y.max.y, y.max.z, +par.isSleeping(hp));
      const p = ref.getPose(hr);
      const q = par.getPose(hp);
      a.push(p.translation.x, p.translation.y, p.translation.z, p.rotation.x, p.rotation.w);
      b.push(q.translation.x, q.translation.y, q.translation.z, q.rotation.x, q.rotation.w);
    }
    expectSameDoubles(a, b);
  };
  for (const st of steps) {
    const rng = lcg(st.seed);
    // The batch: a share of the live bodies (static ones only when moveStatic), walked, a few
    // teleported far, and maybe one handle twice (refused).
    const idx: number[] = [];
    for (let i = 0; i < N; i++) {
      if (refH[i] === -1 || (isStatic[i] === 1 && !st.moveStatic)) continue;
      if (rng() < st.share) idx.push(i);
    }
    for (const i of idx) {
      for (let j = 0; j < 3; j++) at[7 * i + j] += st.walk * (2 * rng() - 1);
    }
    for (let t = 0; t < st.teleports && idx.length > 0; t++) {
      const i = idx[Math.floor(rng() * idx.length)];
      for (let j = 0; j < 3; j++) at[7 * i + j] = 60 * rng();
    }
    const batch = idx.slice();
    const poses = new Float64Array(7 * batch.length);
    batch.forEach((i, j) => {
      poses.set(at.subarray(7 * i, 7 * i + 7), 7 * j);
    });
    const rh = batch.map((i) => refH[i] as BodyHandle);
    const ph = batch.map((i) => parH[i] as BodyHandle);
    // A handle given twice: refused by both worlds alike, naming the repeat, neither changed
    // (the batch is then applied without it).
    if (st.duplicate && batch.length > 0) {
      const j = Math.floor(rng() * batch.length);
      const twice = new Float64Array(poses.length + 7);
      twice.set(poses);
      twice.set(poses.subarray(7 * j, 7 * j + 7), poses.length);
      twice[poses.length] += 3;
      const refusal = (w: CollisionWorld, hs: BodyHandle[]): unknown => {
        try {
          w.setPoses([...hs, hs[j]], twice);
        } catch (err) {
          return err;
        }
        return null;
      };
      const refErr = refusal(ref, rh);
      const parErr = refusal(par, ph);
      expect(refErr).toBeInstanceOf(CollideError);
      expect((refErr as CollideError).field).toBe(`handles[${batch.length}]`);
      expect((parErr as Error).message).toBe((refErr as Error).message);
    }
    if (st.bad >= 0 && batch.length > 0) {
      const wrong = poses.slice();
      wrong[7 * Math.floor(st.bad * batch.length) + 1] = Number.NaN;
      let refErr: unknown = null;
      let parErr: unknown = null;
      try {
        ref.setPoses(rh, wrong);
      } catch (err) {
        refErr = err;
      }
      try {
        par.setPoses(ph, wrong);
      } catch (err) {
        parErr = err;
      }
      expect(refErr).toBeInstanceOf(CollideError);
      expect(parErr).toBeInstanceOf(CollideError);
      expect((parErr as Error).message).toBe((refErr as Error).message);
    }
    ref.setPoses(rh, poses);
    par.setPoses(ph, poses);
    for (let r = 0; r < st.removals; r++) {
      const i = Math.floor(rng() * N);
      if (refH[i] === -1) continue;
      ref.removeBody(refH[i] as BodyHandle);
      par.removeBody(parH[i] as BodyHandle);
      refH[i] = -1;
      parH[i] = -1;
    }
    for (let a = 0; a < st.additions; a++) {
      const i = Math.floor(rng() * N);
      if (refH[i] === -1) add(i);
    }
    for (let s = 0; s < st.sleeps; s++) {
      const i = Math.floor(rng() * N);
      if (refH[i] === -1 || isStatic[i] === 1) continue;
      ref.sleep(refH[i] as BodyHandle);
      par.sleep(parH[i] as BodyHandle);
    }
    ref.step();
    par.step();
    compare();
  }
  const grid = (par as unknown as { bp: SpatialHash }).bp;
  expect(grid.parallelMerges).toBeGreaterThan(0);
  parallelCellQueries += grid.parallelCellQueries;
}

/** Incremental grid updates whose cell queries ran on the threads, over every program. */
let parallelCellQueries = 0;
/** `setPoses` batches whose second pass ran on the threads, over every program. */
let poseApplies = 0;

describe("the threaded step (poses, broad phase, narrow phase) is bitwise the single-threaded one", () => {
  it("random programs of walks, teleports, duplicates, bad poses, removals, additions, sleep and static bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(0, 2),
        fc.array(stepArb, { minLength: 3, maxLength: 6 }),
        async (sceneSeed, sleepAfterSteps, steps) => {
          await twinProgram(sceneSeed, sleepAfterSteps, steps);
        },
      ),
      { numRuns: 4 },
    );
    // The moved bodies' cell queries (src/broadphase/cell-query.ts) were among the jobs run.
    expect(parallelCellQueries).toBeGreaterThan(0);
    // So did the second pass of setPoses (poses, boxes, fat-box tests: applyPoseChunk).
    expect(poseApplies).toBeGreaterThan(0);
  }, 600_000);
});
