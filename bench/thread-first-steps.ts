/**
 * The first steps of a threaded world, step by step: the calling thread's on-CPU time, the
 * busiest other thread's (the executor's worker) and the wall clock of each of the first
 * `--steps` steps (`setPoses` + `step`) of a fresh world on a scene of bench/scenes.ts, with
 * a `WorkerExecutor` whose workers warmed up (src/parallel/warm-up.ts) or not. Wall clock and
 * `uptime` load printed beside: on a shared machine compare the on-CPU columns.
 *
 * `node --no-liftoff --import tsx bench/thread-first-steps.ts [--scene random] [--n 50000]
 * [--threads 2] [--warm-up 1] [--steps 6]`
 */
import { loadavg } from "node:os";
import type { Isometry } from "../src/math/isometry.js";
import { WorkerExecutor } from "../src/parallel/index.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../src/world/index.js";
import { makeScene, type SceneName } from "./scenes.js";
import { busiestOtherThreadNs, otherThreadsCpuNs, threadCpuNs } from "./thread-scaling.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const sceneName = arg("scene", "random") as SceneName;
const n = Number(arg("n", "50000"));
const threads = Number(arg("threads", "2"));
const warmUp = arg("warm-up", "1") !== "0";
const steps = Number(arg("steps", "6"));

const t0 = performance.now();
const executor = new WorkerExecutor({ threads, warmUp });
await executor.ready();
const readyMs = performance.now() - t0;
const scene = makeScene(sceneName, n, 1);
scene.move(0);
const { size, rot, pos, staticCount } = scene;
const world = new CollisionWorld({ executor });
const handles: BodyHandle[] = [];
for (let i = 0; i < scene.n; i++) {
  const shape =
    scene.kind[i] === 0
      ? makeSphere(size[3 * i])
      : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
  const pose: Isometry = {
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  };
  if (i < staticCount) world.addBody({ shape, pose, kind: "static" });
  else handles.push(world.addBody({ shape, pose }));
}
const m = handles.length;
const bulk = new Float64Array(7 * m);
for (let j = 0; j < m; j++) {
  bulk.set(rot.subarray(4 * (staticCount + j), 4 * (staticCount + j) + 4), 7 * j + 3);
}
const rows: string[] = [];
for (let f = 1; f <= steps; f++) {
  scene.move(f);
  for (let j = 0; j < m; j++) {
    const k = 3 * (staticCount + j);
    bulk[7 * j] = pos[k];
    bulk[7 * j + 1] = pos[k + 1];
    bulk[7 * j + 2] = pos[k + 2];
  }
  const others = otherThreadsCpuNs();
  const c = threadCpuNs();
  const t = performance.now();
  world.setPoses(handles, bulk);
  world.step();
  const wall = performance.now() - t;
  const caller = (threadCpuNs() - c) / 1e6;
  const worker = busiestOtherThreadNs(others) / 1e6;
  rows.push(`${caller.toFixed(1)}/${worker.toFixed(1)}/${wall.toFixed(0)}`);
}
process.stdout.write(
  `${sceneName} n=${n} threads=${threads} warmUp=${warmUp}: ready in ${readyMs.toFixed(0)} ms; steps (caller/worker on-CPU/wall ms): ${rows.join(" ")}; contacts ${world.contactCount}; load ${loadavg()[0].toFixed(1)}\n`,
);
await executor.dispose();
