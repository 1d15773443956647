/**
 * The moving bodies' static queries on the executor's threads (src/world/static-query.ts): a
 * level of static boxes whose neighbours touch, with thousands of moving spheres and boxes on a
 * random walk over it (enough that the queries run as a job of several chunks), stepped with a
 * `WorkerExecutor` of 2 and 3 threads and without one (the oracle): contacts, events and stats
 * bitwise the same every step, while bodies walk, teleport (their kept candidates refreshed on
 * the calling thread), and static bodies are added and removed (a new static build: every
 * candidate stale). No timing is asserted.
 */
import { afterAll, describe, expect, it } from "vitest";
import { PAIR_KEY_BASE } from "../../src/broadphase/pair-set.js";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";
import {
  emptyStaticQueryJob,
  STATIC_QUERY_ROOM_PER_BODY,
  staticQueryChunk,
} from "../../src/world/static-query.js";
import { contactDoubles, eventsOf, expectSameDoubles } from "../oracles/world-answers.js";

const executors: WorkerExecutor[] = [];
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

async function levelTwin(threads: number, seed: number, steps: number): Promise<number> {
  const ex = new WorkerExecutor({ threads, minPairs: 0 });
  executors.push(ex);
  await ex.ready();
  // Counts the jobs (the static queries must go through the threads, in several chunks).
  const run = ex.runStaticQueries.bind(ex);
  let jobs = 0;
  ex.runStaticQueries = (job, chunks) => {
    if (chunks >= 2) jobs++;
    run(job, chunks);
  };
  const worlds = [new CollisionWorld(), new CollisionWorld({ executor: ex })];
  const handles: BodyHandle[][] = [[], []];
  const statics: BodyHandle[][] = [[], []];
  const unit = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
  // 60 × 60 unit cubes whose faces touch, top face at y = 0.5.
  for (let x = 0; x < 60; x++) {
    for (let z = 0; z < 60; z++) {
      const pose = { translation: { x, y: 0, z }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
      for (let w = 0; w < 2; w++) {
        statics[w].push(worlds[w].addBody({ shape: unit, pose, kind: "static" }));
      }
    }
  }
  const rng = makeRandom(seed);
  const n = 3000;
  const pos = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const shape =
      rng() < 0.5
        ? makeSphere(0.2 + 0.3 * rng())
        : makeCuboid({ x: 0.1 + 0.3 * rng(), y: 0.1 + 0.3 * rng(), z: 0.1 + 0.3 * rng() });
    pos[3 * i] = 59 * rng();
    pos[3 * i + 1] = 0.6 + 1.5 * rng();
    pos[3 * i + 2] = 59 * rng();
    const rotation = randomRotation(rng);
    const pose = {
      translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
      rotation,
    };
    for (let w = 0; w < 2; w++) handles[w].push(worlds[w].addBody({ shape, pose }));
  }
  const poses = new Float64Array(7 * n);
  let touching = 0;
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < n; i++) {
      const q = worlds[0].getPose(handles[0][i]).rotation;
      // A random walk; every 40th body teleports now and then (a fresh static query).
      const jump = rng() < 0.01 ? 20 : 0.08;
      for (let a = 0; a < 3; a++) pos[3 * i + a] += jump * (2 * rng() - 1);
      pos[3 * i + 1] = Math.min(2.5, Math.max(0.3, pos[3 * i + 1]));
      poses.set([pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], q.x, q.y, q.z, q.w], 7 * i);
    }
    for (let w = 0; w < 2; w++) worlds[w].setPoses(handles[w], poses);
    if (s === 5) {
      // A static body removed and one added: the static structure is rebuilt.
      for (let w = 0; w < 2; w++) {
        worlds[w].removeBody(statics[w][1234]);
        worlds[w].addBody({
          shape: unit,
          pose: { translation: { x: 30, y: 1, z: 30 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
          kind: "static",
        });
      }
    }
    for (const w of worlds) w.step();
    const [ref, par] = worlds;
    expect(par.contactCount).toBe(ref.contactCount);
    expect(eventsOf(par.events())).toEqual(eventsOf(ref.events()));
    expectSameDoubles(contactDoubles(ref), contactDoubles(par));
    expect(par.stats).toEqual({ ...ref.stats, broadPhaseMs: 0, narrowPhaseMs: 0 });
    touching += ref.contactCount;
  }
  // Every step but the first (every static body is then in the move buffer: each moving body
  // queries the static structure whole, on the calling thread).
  expect(jobs).toBe(steps - 1);
  return touching;
}

describe("the moving bodies' static queries on threads are bitwise the single-threaded ones", () => {
  it("2 threads: 3,000 moving bodies over 3,600 static boxes, 12 steps with walks, teleports and a static rebuild", async () => {
    // Thousands of contacts with the terrain every step.
    expect(await levelTwin(2, 1, 12)).toBeGreaterThan(12 * 1000);
  }, 120_000);

  it("3 threads (more than cores)", async () => {
    expect(await levelTwin(3, 2, 6)).toBeGreaterThan(6 * 1000);
  }, 120_000);
});

describe("staticQueryChunk", () => {
  it("writes the touching kept candidates' keys, and leaves stale, escaped and over-room bodies to the caller", () => {
    // Static slots 0..49: unit boxes along x at [i, i+1]; moving slots 50..53.
    const job = emptyStaticQueryJob();
    const slots = 54;
    job.box = new Float64Array(6 * slots);
    for (let i = 0; i < 50; i++) job.box.set([i, 0, 0, i + 1, 1, 1], 6 * i);
    // 50: spans x 2.5..4.5 (touches statics 2, 3, 4); 51: stale candidates; 52: left its fat
    // box; 53: spans every static (50 pairs, past a chunk of 2's room of 32).
    job.box.set([2.5, 0.5, 0.5, 4.5, 0.9, 0.9], 6 * 50);
    job.box.set([2.5, 0.5, 0.5, 4.5, 0.9, 0.9], 6 * 51);
    job.box.set([2.5, 0.5, 0.5, 4.5, 0.9, 0.9], 6 * 52);
    job.box.set([0, 0, 0, 50, 1, 1], 6 * 53);
    job.scBox = new Float64Array(6 * slots);
    job.scStart = new Int32Array(slots);
    job.scCount = new Int32Array(slots);
    job.scVersion = new Int32Array(slots);
    job.pool = new Int32Array(200);
    let len = 0;
    for (const [d, fat, ids] of [
      [50, [1, 0, 0, 6, 1, 1], [1, 2, 3, 4, 5]],
      [51, [1, 0, 0, 6, 1, 1], [1, 2, 3, 4, 5]],
      [52, [3, 0, 0, 6, 1, 1], [3, 4, 5]],
      [53, [-1, -1, -1, 51, 2, 2], Array.from({ length: 50 }, (_, i) => i)],
    ] as [number, number[], number[]][]) {
      job.scBox.set(fat, 6 * d);
      job.scStart[d] = len;
      job.scCount[d] = ids.length;
      job.scVersion[d] = d === 51 ? 6 : 7;
      job.pool.set(ids, len);
      len += ids.length;
    }
    job.staticVersion = 7;
    job.bodies = Int32Array.from([50, 51, 52, 53]);
    job.count = 4;
    job.chunkSize = 2;
    job.keys = new Float64Array(2 * 2 * STATIC_QUERY_ROOM_PER_BODY);
    job.serial = new Int32Array(4);
    job.chunkLengths = new Int32Array(4).fill(-1);
    staticQueryChunk(job, 0);
    staticQueryChunk(job, 1);
    const base = PAIR_KEY_BASE;
    const room = 2 * STATIC_QUERY_ROOM_PER_BODY;
    // Chunk 0: body 50's pairs with statics 2, 3, 4 (static slot lower: key = static·B + 50).
    expect(Array.from(job.keys.subarray(0, job.chunkLengths[0]))).toEqual([
      2 * base + 50,
      3 * base + 50,
      4 * base + 50,
    ]);
    expect(Array.from(job.serial.subarray(0, job.chunkLengths[1]))).toEqual([51]);
    // Chunk 1: body 52 left its fat box, body 53 has 50 pairs, past the room of 32.
    expect(job.chunkLengths[2]).toBe(0);
    expect(Array.from(job.serial.subarray(2, 2 + job.chunkLengths[3]))).toEqual([52, 53]);
    expect(room).toBe(32);
  });
});
