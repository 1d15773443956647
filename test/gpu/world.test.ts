/**
 * A world whose broad phase runs on the GPU (`createGpuBroadPhase`, stepped with `stepAsync`)
 * against the same world on `"grid"` (the oracle): pairs, contacts and events bitwise identical,
 * step after step, on random, touching, far-from-origin and mixed-size scenes with bodies that
 * move, appear and leave. Also: `step()` refuses a GPU world, bodies cannot change during a
 * `stepAsync`, and a lost device leaves the world as it was and usable on the CPU.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { createGpuBroadPhase } from "../../src/gpu/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeRandom, type Random, randomRotation } from "../../src/math/random.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";
import { contactDoubles, eventsOf, expectSameDoubles } from "../oracles/world-answers.js";
import { makeDevice, sharedDevice } from "./device.js";

let device: GPUDevice;
beforeAll(async () => {
  device = (await sharedDevice()).device;
});

function expectSame(gpu: CollisionWorld, ref: CollisionWorld): void {
  expect(gpu.stats.candidatePairs).toBe(ref.stats.candidatePairs);
  expect(gpu.stats.filteredPairs).toBe(ref.stats.filteredPairs);
  expect(eventsOf(gpu.events())).toEqual(eventsOf(ref.events()));
  expectSameDoubles(contactDoubles(ref), contactDoubles(gpu));
}

type Scene = "random" | "touching" | "far" | "mixed";

function shapeFor(scene: Scene, rng: Random, i: number): Shape {
  if (scene === "touching") return makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
  const s = scene === "mixed" ? (i % 50 === 0 ? 20 : 0.05 + 0.3 * rng()) : 0.2 + 0.4 * rng();
  const k = i % 3;
  if (k === 0) return makeSphere(s);
  if (k === 1) return makeCuboid({ x: s, y: 0.7 * s, z: 1.2 * s });
  return makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, 0.5 * s);
}

function poseFor(scene: Scene, rng: Random, i: number): Isometry {
  if (scene === "touching") {
    // Unit cubes on a lattice of pitch 1: faces shared exactly, at an offset f32 cannot hold.
    const n = 8;
    return {
      translation: { x: 0.1 + (i % n), y: 0.3 + (Math.floor(i / n) % n), z: Math.floor(i / 64) },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
  }
  const o = scene === "far" ? 3.3e6 : 0;
  const extent = scene === "mixed" ? 60 : 12;
  return {
    translation: { x: o + extent * rng(), y: -o + extent * rng(), z: o + extent * rng() },
    rotation: randomRotation(rng),
  };
}

async function runScene(scene: Scene, seed: number, count: number, steps: number): Promise<void> {
  const rng = makeRandom(seed);
  const prediction = scene === "touching" ? 0 : 0.02;
  const gpu = new CollisionWorld({ broadphase: createGpuBroadPhase(device), prediction });
  const ref = new CollisionWorld({ broadphase: "grid", prediction });
  const hg: BodyHandle[] = [];
  const hr: BodyHandle[] = [];
  for (let i = 0; i < count; i++) {
    const desc = {
      shape: shapeFor(scene, rng, i),
      pose: poseFor(scene, rng, i),
      sensor: rng() < 0.05,
      layer: rng() < 0.9 ? 1 : 2,
      mask: rng() < 0.9 ? 0xffffffff : 1,
    };
    hg.push(gpu.addBody(desc));
    hr.push(ref.addBody(desc));
  }
  let contacts = 0;
  for (let s = 0; s < steps; s++) {
    await gpu.stepAsync();
    ref.step();
    expectSame(gpu, ref);
    contacts += ref.contactCount;
    for (let i = 0; i < hg.length; i++) {
      if (scene !== "touching" && rng() < 0.3) {
        const p = poseFor(scene, rng, i);
        gpu.setPose(hg[i], p);
        ref.setPose(hr[i], p);
      } else if (rng() < 0.02) {
        gpu.removeBody(hg[i]);
        ref.removeBody(hr[i]);
        const desc = { shape: shapeFor(scene, rng, i), pose: poseFor(scene, rng, i) };
        hg[i] = gpu.addBody(desc);
        hr[i] = ref.addBody(desc);
      }
    }
  }
  expect(contacts).toBeGreaterThan(0);
}

describe("CollisionWorld with the GPU broad phase: bitwise the grid's answers", () => {
  it("random scene (spheres, boxes, capsules, sensors, masks)", async () => {
    await runScene("random", 1, 1500, 4);
  });
  it("touching scene (cubes sharing faces exactly)", async () => {
    await runScene("touching", 2, 512, 2);
  });
  it("far from the origin (3.3e6)", async () => {
    await runScene("far", 3, 1000, 3);
  });
  it("mixed sizes (radius 20 among radius 0.05)", async () => {
    await runScene("mixed", 4, 1500, 3);
  });
});

describe("CollisionWorld.stepAsync and the GPU broad phase's refusals", () => {
  it("step() on a GPU world throws CollideError saying to use stepAsync", () => {
    const w = new CollisionWorld({ broadphase: createGpuBroadPhase(device) });
    w.addBody({ shape: makeSphere(1), pose: poseFor("random", makeRandom(1), 0) });
    expect(() => w.step()).toThrow(CollideError);
    expect(() => w.step()).toThrow(/stepAsync/);
  });

  it("stepAsync on a CPU world gives step()'s answers", async () => {
    const a = new CollisionWorld({ broadphase: "tree" });
    const b = new CollisionWorld({ broadphase: "tree" });
    const rng = makeRandom(9);
    for (let i = 0; i < 200; i++) {
      const desc = { shape: shapeFor("random", rng, i), pose: poseFor("random", rng, i) };
      a.addBody(desc);
      b.addBody(desc);
    }
    await a.stepAsync();
    b.step();
    expectSame(a, b);
  });

  it("bodies cannot change while stepAsync is in flight", async () => {
    const w = new CollisionWorld({ broadphase: createGpuBroadPhase(device) });
    const h = w.addBody({ shape: makeSphere(1), pose: poseFor("random", makeRandom(1), 0) });
    const p = w.stepAsync();
    expect(() => w.setPose(h, w.getPose(h))).toThrow(/stepAsync/);
    expect(() => w.removeBody(h)).toThrow(CollideError);
    await expect(w.stepAsync()).rejects.toThrow(/stepAsync/);
    await p;
    w.setPose(h, w.getPose(h));
  });

  it("refuses a broadphase option that is not a BroadPhase, or one already used", () => {
    expect(() => new CollisionWorld({ broadphase: {} as never })).toThrow(/options.broadphase/);
    const bp = createGpuBroadPhase(device);
    bp.insert(0, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 });
    expect(() => new CollisionWorld({ broadphase: bp })).toThrow(/empty/);
  });

  it("a lost device is reported with 0 or 1 bodies too, at once after destroy()", async () => {
    for (const count of [0, 1]) {
      const own = await makeDevice();
      const w = new CollisionWorld({ broadphase: createGpuBroadPhase(own.device) });
      for (let i = 0; i < count; i++) {
        w.addBody({ shape: makeSphere(1), pose: poseFor("random", makeRandom(1), i) });
      }
      await w.stepAsync();
      // Not awaiting device.lost: the loss is not delivered yet when stepAsync starts.
      own.device.destroy();
      const err = await w.stepAsync().catch((e) => e);
      expect(err).toBeInstanceOf(CollideError);
      expect(String(err.message)).toMatch(/lost/);
    }
  });

  it("a lost device: stepAsync rejects, the world is unchanged and continues on the CPU", async () => {
    const own = await makeDevice();
    const bp = createGpuBroadPhase(own.device);
    const gpu = new CollisionWorld({ broadphase: bp });
    const ref = new CollisionWorld({ broadphase: "grid" });
    const rng = makeRandom(11);
    for (let i = 0; i < 300; i++) {
      const desc = { shape: shapeFor("random", rng, i), pose: poseFor("random", rng, i) };
      gpu.addBody(desc);
      ref.addBody(desc);
    }
    await gpu.stepAsync();
    ref.step();
    expectSame(gpu, ref);
    own.device.destroy();
    await own.device.lost;
    await expect(gpu.stepAsync()).rejects.toThrow(/lost/);
    // Unchanged: the last step's contacts are still readable and equal.
    expectSame(gpu, ref);
    bp.fallback = "cpu";
    gpu.step();
    ref.step();
    expectSame(gpu, ref);
    await gpu.stepAsync();
    ref.step();
    expectSame(gpu, ref);
  });
});
