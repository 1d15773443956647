/**
 * The workers' warm-up (option `warmUp`, src/parallel/warm-up.ts): its synthetic scene runs
 * every kind of job a worker takes (else it would leave that code cold), the option is checked,
 * and a world stepped through an executor whose workers warmed up — or did not — gives bitwise
 * the contacts of one thread. No timing is asserted (bench/thread-first-steps.ts measures it).
 */
import { afterAll, describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { SharedMemoryExecutor } from "../../src/parallel/shared-executor.js";
import { warmUpJobs } from "../../src/parallel/warm-up.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/index.js";
import { contactDoubles, expectSameDoubles } from "../oracles/world-answers.js";

const executors: WorkerExecutor[] = [];
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

describe("worker warm-up", () => {
  it("runs every parallel job kind: narrow phase, merge (both modes), cell update and queries, both setPoses passes, static queries", () => {
    const counts = new Map<string, number>();
    const proto = SharedMemoryExecutor.prototype as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    const names = [
      "runNarrowPhase",
      "runCandidateMerge",
      "runCellQueries",
      "runPoseBoxes",
      "runPoseApply",
      "runStaticQueries",
    ];
    const saved = names.map((m) => proto[m]);
    try {
      for (const [i, m] of names.entries()) {
        const f = saved[i];
        proto[m] = function (this: unknown, ...a: unknown[]) {
          const job = a[0] as { update?: number; filter?: number };
          let k = m;
          if (m === "runCellQueries") k += job.update === 1 ? ":update" : ":queries";
          if (m === "runCandidateMerge") k += job.filter === 2 ? ":filter-only" : ":merge";
          counts.set(k, (counts.get(k) ?? 0) + 1);
          return f.apply(this, a);
        };
      }
      expect(warmUpJobs()).toBeGreaterThan(1000);
    } finally {
      for (const [i, m] of names.entries()) proto[m] = saved[i];
    }
    for (const k of [
      "runNarrowPhase",
      "runCandidateMerge:merge",
      "runCandidateMerge:filter-only",
      "runCellQueries:update",
      "runCellQueries:queries",
      "runPoseBoxes",
      "runPoseApply",
      "runStaticQueries",
    ]) {
      expect(counts.get(k) ?? 0, k).toBeGreaterThan(0);
    }
  });

  it("rejects a warmUp that is not a boolean, naming the field", () => {
    expect(() => new WorkerExecutor({ warmUp: 1 as never })).toThrow(CollideError);
    expect(() => new WorkerExecutor({ warmUp: "yes" as never })).toThrow(/options\.warmUp/);
  });

  it("gives one thread's contacts bitwise, with and without the warm-up", async () => {
    for (const warmUp of [true, false]) {
      const e = new WorkerExecutor({ threads: 2, minPairs: 0, warmUp });
      executors.push(e);
      await e.ready();
      const rng = makeRandom(11);
      const ref = new CollisionWorld();
      const par = new CollisionWorld({ executor: e });
      for (let i = 0; i < 400; i++) {
        const r = 0.2 + 0.3 * rng();
        const shape = i % 2 === 0 ? makeSphere(r) : makeCuboid({ x: r, y: 0.8 * r, z: 0.6 * r });
        const desc = {
          shape,
          pose: {
            translation: { x: 8 * rng(), y: 8 * rng(), z: 8 * rng() },
            rotation: randomRotation(rng),
          },
        };
        ref.addBody(desc);
        par.addBody(desc);
      }
      ref.step();
      par.step();
      expect(ref.contactCount).toBeGreaterThan(50);
      expectSameDoubles(contactDoubles(ref), contactDoubles(par));
    }
  });
});
