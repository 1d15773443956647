/**
 * Child-process probe of test/world/steady-state.test.ts, run as
 * `node --expose-gc --import tsx test/world/steady-state-probe.ts <broadphase> <n> <steps> <mode>`:
 * builds the benchmark scene, warms the world up (so the JIT has compiled the step), collects
 * garbage, then runs `steps` steps moving every body each frame and prints, as JSON, the heap
 * growth over those steps without any collection in between and the number of GCs that ran
 * (counted by a PerformanceObserver of "gc" entries). With a semi-space large enough to hold
 * the whole run, heap growth is the number of bytes allocated.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { makeBenchScene, moveScene } from "../../bench/world-scene.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld, type WorldBroadPhase } from "../../src/world/index.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const broadphase = (process.argv[2] ?? "tree") as WorldBroadPhase;
const n = Number(process.argv[3] ?? 1000);
const steps = Number(process.argv[4] ?? 1000);
/** "full": the whole pipeline; "broad": masks 0, so the step is broad phase + filter + cache. */
const mode = process.argv[5] ?? "full";
const warmup = 200;

const scene = makeBenchScene(n, 7);
const world = new CollisionWorld({ broadphase });
const poses: Isometry[] = [];
const handles: BodyHandle[] = [];
for (let i = 0; i < n; i++) {
  const sz = scene.size;
  const shape =
    scene.kind[i] === 0
      ? makeSphere(sz[3 * i])
      : makeCuboid({ x: sz[3 * i], y: sz[3 * i + 1], z: sz[3 * i + 2] });
  const p: Isometry = {
    translation: { x: scene.pos[3 * i], y: scene.pos[3 * i + 1], z: scene.pos[3 * i + 2] },
    rotation: {
      x: scene.rot[4 * i],
      y: scene.rot[4 * i + 1],
      z: scene.rot[4 * i + 2],
      w: scene.rot[4 * i + 3],
    },
  };
  poses.push(p);
  handles.push(world.addBody({ shape, pose: p, mask: mode === "broad" ? 0 : 0xffffffff }));
}

function frame(f: number): number {
  moveScene(scene, f);
  const pos = scene.pos;
  for (let i = 0; i < n; i++) {
    const t = poses[i].translation;
    t.x = pos[3 * i];
    t.y = pos[3 * i + 1];
    t.z = pos[3 * i + 2];
    world.setPose(handles[i], poses[i]);
  }
  world.step();
  return world.contactCount + world.events().begin.count;
}

let sink = 0;
for (let f = 1; f <= warmup; f++) sink += frame(f);
let gcs = 0;
const obs = new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
});
obs.observe({ entryTypes: ["gc"] });
gc();
gc();
// Let the observer deliver the entries of the forced collections before counting.
await new Promise((r) => setTimeout(r, 50));
gcs = 0;
const before = process.memoryUsage().heapUsed;
for (let f = warmup + 1; f <= warmup + steps; f++) sink += frame(f);
const after = process.memoryUsage().heapUsed;
await new Promise((r) => setTimeout(r, 50));
const gcsDuring = gcs;
gc();
const afterGc = process.memoryUsage().heapUsed;
obs.disconnect();
process.stdout.write(
  `${JSON.stringify({
    broadphase,
    mode,
    n,
    steps,
    heapGrowthBytes: after - before,
    bytesPerStep: (after - before) / steps,
    heapAfterGcDeltaBytes: afterGc - before,
    gcsDuring,
    contacts: world.contactCount,
    sink,
  })}\n`,
);
