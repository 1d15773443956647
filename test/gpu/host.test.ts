/**
 * What the three GPU objects share (GpuHost, src/gpu/device.ts), tested on each: one call at a
 * time (a second call while one is in flight throws `CollideError` naming the method, and the
 * first still answers), and a device lost just before a call with nothing to compute (no bodies,
 * pairs or rays) is still reported as `CollideError`, with the CPU fallback answering when asked.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { CollideError } from "../../src/errors.js";
import {
  createGpuBroadPhase,
  createGpuNarrowPhase,
  createGpuRayCaster,
} from "../../src/gpu/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeDevice, sharedDevice } from "./device.js";

let device: GPUDevice;
beforeAll(async () => {
  device = (await sharedDevice()).device;
});

const at = (x: number): Isometry => ({
  translation: { x, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});
const sphere = makeSphere(1);
const pairBatch = { shapes: [sphere, sphere], poses: [at(0), at(1.5)], pairs: [0, 1] };
const noPairs = { shapes: [sphere], poses: [at(0)], pairs: [] };
const rayScene = { shapes: [sphere], poses: [at(5)] };
const oneRay = new Float64Array([0, 0, 0, 1, 0, 0]);

async function expectBusy(first: Promise<unknown>, second: () => Promise<unknown>, method: string) {
  const err = (await second().catch((e) => e)) as CollideError;
  expect(err).toBeInstanceOf(CollideError);
  expect(err.field).toBe(method);
  expect(String(err.message)).toMatch(/already running/);
  await first;
}

describe("GPU objects: one call at a time", () => {
  it("broad phase: computePairsAsync", async () => {
    const bp = createGpuBroadPhase(device);
    bp.insert(0, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 });
    bp.insert(1, { x: 1, y: 1, z: 1 }, { x: 2, y: 2, z: 2 });
    const out = new PairSet();
    const first = bp.computePairsAsync(out);
    await expectBusy(first, () => bp.computePairsAsync(new PairSet()), "computePairsAsync");
    expect(out.size).toBe(1); // touching corners overlap
  });

  it("narrow phase: contacts", async () => {
    const np = createGpuNarrowPhase(device);
    const first = np.contacts(pairBatch);
    await expectBusy(first, () => np.contacts(pairBatch), "contacts");
    const r = await first;
    expect(r.intersects[0]).toBe(1);
    expect(r.distance[0]).toBeCloseTo(-0.5, 3);
  });

  it("ray batch: castRays", async () => {
    const rc = createGpuRayCaster(device, rayScene);
    const first = rc.castRays(oneRay);
    await expectBusy(first, () => rc.castRays(oneRay), "castRays");
    const r = await first;
    expect(r.hit[0]).toBe(0);
    expect(r.toi[0]).toBeCloseTo(4, 4);
  });
});

describe("GPU objects: a device lost just before a call with nothing to compute", () => {
  it("broad phase with no proxies, narrow phase with no pairs, rays with no rays", async () => {
    const own = (await makeDevice()).device;
    const bp = createGpuBroadPhase(own);
    const np = createGpuNarrowPhase(own);
    const rc = createGpuRayCaster(own, rayScene);
    own.destroy();
    for (const call of [
      () => bp.computePairsAsync(new PairSet()),
      () => np.contacts(noPairs),
      () => rc.castRays(new Float64Array(0)),
    ]) {
      const err = await call().catch((e) => e);
      expect(err).toBeInstanceOf(CollideError);
      expect(String(err.message)).toMatch(/lost/);
    }
    // Asked for, the CPU answers the same (empty) calls and a real one.
    np.fallback = "cpu";
    expect((await np.contacts(noPairs)).count).toBe(0);
    const r = await np.contacts(pairBatch);
    expect(r.intersects[0]).toBe(1);
    expect(r.distance[0]).toBe(-0.5);
    rc.fallback = "cpu";
    expect((await rc.castRays(oneRay)).toi[0]).toBe(4);
  });

  it('refuses a fallback other than "none" or "cpu" set after construction', async () => {
    const bp = createGpuBroadPhase((await makeDevice()).device);
    for (const bad of ["CPU", "yes", true, undefined]) {
      expect(() => {
        bp.fallback = bad as unknown as "cpu";
      }).toThrow(/gpu\.fallback/);
    }
    expect(bp.fallback).toBe("none");
    bp.fallback = "cpu";
    expect(bp.fallback).toBe("cpu");
  });
});
