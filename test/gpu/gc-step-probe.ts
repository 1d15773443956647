/**
 * Probe of test/gpu/device-lifetime.test.ts, run in its own Node process with `--expose-gc`: the
 * fresh-user scene that crashed the process (N spheres of radius 0.5 in rows of 1,000, 0.9
 * apart, so about 4 N touching box pairs), stepped with `stepAsync` on a GPU broad phase whose
 * device comes from `requestGpuDevice(create([]))` — nothing else holds Dawn's `GPU` object —
 * while full garbage collections run every few milliseconds, as a busy program's would. Prints
 * one JSON line: the GPU world's pairs and contact count per step, and the `"grid"` world's.
 *
 * `node --expose-gc --import tsx test/gpu/gc-step-probe.ts N STEPS [unpinned]`; `unpinned` makes
 * the device as the README used to (`(await create([]).requestAdapter()).requestDevice()`), which
 * crashes inside Dawn (kept only to show what the test guards against; the test does not run it).
 */
import { create } from "webgpu";
import { createGpuBroadPhase, requestGpuDevice } from "../../src/gpu/index.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/index.js";
import { useSwiftShader } from "./device.js";

const n = Number(process.argv[2]);
const steps = Number(process.argv[3]);
const unpinned = process.argv[4] === "unpinned";
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

useSwiftShader();

async function device(): Promise<GPUDevice> {
  if (unpinned) {
    const adapter = await create([]).requestAdapter();
    if (adapter === null) throw new Error("no adapter");
    return adapter.requestDevice();
  }
  return requestGpuDevice(create([]));
}

const gpuWorld = new CollisionWorld({ broadphase: createGpuBroadPhase(await device()) });
const gridWorld = new CollisionWorld({ broadphase: "grid" });
const sphere = makeSphere(0.5);
for (let i = 0; i < n; i++) {
  const desc = {
    shape: sphere,
    pose: {
      translation: { x: (i % 1000) * 0.9, y: Math.floor(i / 1000) * 0.9, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    },
  };
  gpuWorld.addBody(desc);
  gridWorld.addBody(desc);
}

const result: { gpu: number[][]; grid: number[][] } = { gpu: [], grid: [] };
const timer = setInterval(gc, 5);
for (let s = 0; s < steps; s++) {
  gc();
  await gpuWorld.stepAsync();
  gridWorld.step();
  for (const [w, out] of [
    [gpuWorld, result.gpu],
    [gridWorld, result.grid],
  ] as const) {
    const row = [w.stats.candidatePairs, w.contactCount];
    for (const c of w.contacts()) row.push(c.a, c.b);
    out.push(row);
  }
}
clearInterval(timer);
process.stdout.write(`${JSON.stringify(result)}\n`);
