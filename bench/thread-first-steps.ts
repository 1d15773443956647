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
import { WorkerExecutor } from "../src/parallel/index.js";
import { sceneWorld } from "./scene-runner.js";
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
const { world, driver, step } = sceneWorld(makeScene(sceneName, n, 1), { executor });
const rows: string[] = [];
for (let f = 1; f <= steps; f++) {
  driver.next();
  const others = otherThreadsCpuNs();
  const c = threadCpuNs();
  const t = performance.now();
  step();
  const wall = performance.now() - t;
  const caller = (threadCpuNs() - c) / 1e6;
  const worker = busiestOtherThreadNs(others) / 1e6;
  rows.push(`${caller.toFixed(1)}/${worker.toFixed(1)}/${wall.toFixed(0)}`);
}
process.stdout.write(
  `${sceneName} n=${n} threads=${threads} warmUp=${warmUp}: ready in ${readyMs.toFixed(0)} ms; steps (caller/worker on-CPU/wall ms): ${rows.join(" ")}; contacts ${world.contactCount}; load ${loadavg()[0].toFixed(1)}\n`,
);
await executor.dispose();
