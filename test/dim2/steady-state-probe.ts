/**
 * Child-process probe of test/dim2/steady-state.test.ts (the 2D twin of
 * test/world/steady-state-probe.ts), run as
 * `node --expose-gc --no-memory-reducer --import tsx test/dim2/steady-state-probe.ts <broadphase> <n> <steps> <mode>`
 * (`WARMUP=<frames>` sets the warm-up, 1,000 by default): builds the 2D benchmark scene
 * (bench/world2-scene.ts; every 16th body a sensor), collects the set-up's garbage, warms the
 * world up (so that the JIT has compiled the step), then runs `steps` steps moving every body
 * each frame, and prints as JSON the heap growth over those steps and the number of collections
 * that ran meanwhile (a PerformanceObserver of "gc" entries). When no collection ran, heap growth
 * is the number of bytes allocated. With `TIME=1` it prints the median step time instead. Mode
 * "touch" measures n / 2 resting pairs exactly touching instead (`addTouchScene`).
 */
import { PerformanceObserver } from "node:perf_hooks";
import { makeBenchScene2, moveScene2 } from "../../bench/world2-scene.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import { makeCapsule, makeCircle, makePolygon } from "../../src/dim2/shapes.js";
import {
  type BodyHandle2D,
  CollisionWorld2D,
  type World2DBroadPhase,
} from "../../src/dim2/world2.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const broadphase = (process.argv[2] ?? "tree") as World2DBroadPhase;
const n = Number(process.argv[3] ?? 1000);
const steps = Number(process.argv[4] ?? 1000);
/** "full": the whole pipeline; "broad": masks 0, so the step is broad phase + filter + cache. */
const mode = process.argv[5] ?? "full";
const warmup = Number(process.env.WARMUP ?? 1000);

const scene = makeBenchScene2(n, 7);
const world = new CollisionWorld2D({ broadphase });
const poses: Pose2[] = [];
const handles: BodyHandle2D[] = [];
if (mode === "touch") addTouchScene();
for (let i = 0; i < (mode === "touch" ? 0 : n); i++) {
  const p: Pose2 = {
    p: { x: scene.pos[2 * i], y: scene.pos[2 * i + 1] },
    q: { c: scene.rot[2 * i], s: scene.rot[2 * i + 1] },
  };
  poses.push(p);
  handles.push(
    world.addBody({
      shape: scene.shapes[i],
      pose: p,
      mask: mode === "broad" ? 0 : 0xffffffff,
      sensor: i % 16 === 5,
    }),
  );
}

/**
 * "touch" mode: n / 2 resting pairs, each a triangle and a circle or capsule exactly touching its
 * tilted edge (Pythagorean directions, dyadic coordinates: test/dim2/exact-touch.test.ts), every
 * 16th rounded body a sensor; each frame sets the same poses again, so every pair's gap is in the
 * exact predicate's band (src/dim2/contact2.ts `coresTouchGap`) every step.
 */
function addTouchScene(): void {
  const dirs = [
    [4, -3],
    [5, 12],
    [8, 15],
    [-12, 5],
  ];
  const k = 2 ** -6;
  for (let i = 0; i < n >> 1; i++) {
    const [a, b] = dirs[i % 4];
    const c = Math.hypot(a, b);
    const tri = makePolygon([
      { x: -a * k, y: -b * k },
      { x: a * k, y: b * k },
      { x: -b * k, y: a * k },
    ]);
    const tx = (i % 32) * 8;
    const ty = Math.floor(i / 32) * 8;
    const rounded =
      i % 3 === 0
        ? makeCircle(c * k)
        : i % 3 === 1
          ? makeCapsule({ x: 0, y: 0 }, { x: b * k, y: -a * k }, c * k)
          : makeCapsule({ x: 0, y: 0 }, { x: a * k, y: b * k }, c * k);
    const pt: Pose2 = { p: { x: tx, y: ty }, q: { c: 1, s: 0 } };
    const pr: Pose2 = { p: { x: tx + b * k, y: ty - a * k }, q: { c: 1, s: 0 } };
    handles.push(world.addBody({ shape: tri, pose: pt }));
    poses.push(pt);
    handles.push(world.addBody({ shape: rounded, pose: pr, sensor: i % 16 === 5 }));
    poses.push(pr);
  }
}

function frame(f: number): number {
  if (mode === "touch") {
    for (let i = 0; i < handles.length; i++) world.setPose(handles[i], poses[i]);
    world.step();
    return world.contactCount + world.events().begin.count;
  }
  moveScene2(scene, f);
  const pos = scene.pos;
  for (let i = 0; i < n; i++) {
    const t = poses[i].p;
    t.x = pos[2 * i];
    t.y = pos[2 * i + 1];
    world.setPose(handles[i], poses[i]);
  }
  world.step();
  return world.contactCount + world.events().begin.count;
}

/** Frames `from ..= to`. One function for the warm-up and the measured run, so that the measured
 * loop is already compiled: compiling it (on-stack replacement) would allocate code and count. */
function run(from: number, to: number): number {
  let s = 0;
  for (let f = from; f <= to; f++) s += frame(f);
  return s;
}

if (process.env.TIME === "1") {
  // Timing mode: median ms of `steps` frames (poses set + step) after the warm-up.
  let sink = run(1, warmup);
  const ms: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let f = warmup + 1; f <= warmup + steps; f++) {
    const t0 = performance.now();
    sink += frame(f);
    ms.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  ms.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({ broadphase, n, steps, medianMs: ms[ms.length >> 1], cpuMsPerStep: (cpu.user + cpu.system) / 1000 / steps, contacts: world.contactCount, touching: world.events().persist.count + world.events().begin.count, sink })}\n`,
  );
  process.exit(0);
}

let gcs = 0;
const obs = new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
});
obs.observe({ entryTypes: ["gc"] });
// Collect the set-up's garbage first, then warm up (see test/world/steady-state-probe.ts).
gc();
gc();
let sink = run(1, warmup);
/**
 * Up to `WINDOWS` (4) consecutive windows of `steps` steps; the first with no collection and less
 * than `ACCEPT_BYTES_PER_STEP` of growth is reported (else the last): on a loaded machine the
 * JIT's background compilation can finish inside the first window.
 */
const WINDOWS = 4;
const ACCEPT_BYTES_PER_STEP = 256;
let frameNo = warmup;
let result = { growth: 0, gcs: 0, before: 0, window: 0 };
for (let w = 1; w <= WINDOWS; w++) {
  await new Promise((r) => setTimeout(r, 50));
  gcs = 0;
  const before = process.memoryUsage().heapUsed;
  sink += run(frameNo + 1, frameNo + steps);
  const after = process.memoryUsage().heapUsed;
  frameNo += steps;
  await new Promise((r) => setTimeout(r, 50));
  result = { growth: after - before, gcs, before, window: w };
  if (gcs === 0 && after - before < ACCEPT_BYTES_PER_STEP * steps) break;
}
const gcsDuring = result.gcs;
gc();
const afterGc = process.memoryUsage().heapUsed;
const before = result.before;
const after = before + result.growth;
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
    window: result.window,
    contacts: world.contactCount,
    sensorPairs: world.stats.sensorPairs,
    sink,
  })}\n`,
);
