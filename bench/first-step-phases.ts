/**
 * The first step's main-thread CPU time by phase (Linux /proc/thread-self/schedstat), for a
 * scene of bench/scenes.ts: wraps a few coarse methods of the world and its parts and sums the
 * main thread's CPU time spent inside each (outermost call only). Each phase's minor page
 * faults too. `node --import tsx bench/first-step-phases.ts [--scene level] [--n 1000]
 * [--broadphase grid] [--threads 2] [--warm-up 0] [--worlds 2]` (`--worlds K`: K worlds built and
 * stepped one after the other in the same process, each world's first step split alike — a
 * second world's runs code V8 has seen: what is left is not first compilation; on the grid, its
 * full build `bp.rebuild` and two of its passes are listed too; `--threads`: a `WorkerExecutor` of that many
 * threads, 0 for one thread, the threaded code path on the calling thread; then also the
 * executor's other threads' on-CPU time over the first step and a steady one, and
 * `--warm-up 0` starts its workers without their warm-up); with `MARK=1` it prints the first step's CLOCK_MONOTONIC interval (ns) to
 * stderr, to cut a `perf record -k CLOCK_MONOTONIC -e page-faults` of the run to that step.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { StaticBvh } from "../src/broadphase/static-bvh.js";
import { WorkerExecutor } from "../src/parallel/index.js";
import { BodyKinds } from "../src/world/body-kinds.js";
import { CollisionWorld } from "../src/world/index.js";
import { sceneWorld } from "./scene-runner.js";
import { makeScene, type SceneName } from "./scenes.js";
import { otherThreadsCpuNs } from "./thread-scaling.js";

const mainCpu = () =>
  Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
const faults = () => process.resourceUsage().minorPageFault;

const spent = new Map<string, [number, number]>();
const active = new Set<string>();
// biome-ignore lint/suspicious/noExplicitAny: instrumentation of private methods
function wrap(proto: any, name: string, label: string): void {
  const f = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    if (active.has(label)) return f.apply(this, args);
    active.add(label);
    const c = mainCpu();
    const p = faults();
    try {
      return f.apply(this, args);
    } finally {
      active.delete(label);
      const e = spent.get(label) ?? [0, 0];
      e[0] += mainCpu() - c;
      e[1] += faults() - p;
      spent.set(label, e);
    }
  };
}

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const scene = makeScene(arg("scene", "level") as SceneName, Number(arg("n", "1000")), 1);
const threadsArg = arg("threads", "");
let executor: WorkerExecutor | null = null;
if (threadsArg !== "") {
  const threads = Math.max(1, Number(threadsArg));
  const warmUp = arg("warm-up", "1") !== "0";
  const t = performance.now();
  executor = new WorkerExecutor({ threads, warmUp });
  await executor.ready();
  process.stdout.write(
    `executor of ${threads} threads ready in ${(performance.now() - t).toFixed(0)} ms\n`,
  );
}
/** On-CPU ms of every thread but this one (the executor's workers, V8's helpers) so far. */
const othersMs = () => {
  let ns = 0;
  for (const v of otherThreadsCpuNs().values()) ns += v;
  return ns / 1e6;
};
const worlds = Math.max(1, Number(arg("worlds", "1")));
const W = CollisionWorld.prototype;
for (let w = 1; w <= worlds; w++) {
  // A fresh scene per world (at frame 0), so that every world steps the same frames.
  const { world, frame: step } = sceneWorld(
    w === 1 ? scene : makeScene(arg("scene", "level") as SceneName, Number(arg("n", "1000")), 1),
    { broadphase: arg("broadphase", "grid") as "grid", executor },
  );
  if (w === 1) {
    wrap(W, "setPoses", "setPoses");
    wrap(W, "wantsAllMovingPairs", "wantsAll");
    // biome-ignore lint/suspicious/noExplicitAny: the world's broad phase
    const bp = Object.getPrototypeOf((world as any).bp);
    wrap(bp, "computePairs", "bp.computePairs");
    // The grid's full build and two of its passes (nested in computePairs).
    for (const m of ["rebuild", "enumerateCandidates", "sortCandidates"]) {
      if (typeof bp[m] === "function") wrap(bp, m, `bp.${m}`);
    }
    wrap(BodyKinds.prototype, "ensureStaticBvh", "staticBvh");
    wrap(StaticBvh.prototype, "buildFrom", "bvh-build");
    wrap(W, "buildPairs", "buildPairs");
    wrap(W, "finishStep", "finishStep");
  }
  spent.clear();
  const o0 = othersMs();
  const c0 = mainCpu();
  const f0 = faults();
  const h0 = process.hrtime.bigint();
  step();
  const h1 = process.hrtime.bigint();
  if (process.env.MARK) process.stderr.write(`MARK ${h0} ${h1}\n`);
  const total = mainCpu() - c0;
  const totalFaults = faults() - f0;
  const firstWall = Number(h1 - h0) / 1e6;
  const firstOthers = othersMs() - o0;
  const rows = [...spent].map(([k, [ms, pf]]) => `${k} ${ms.toFixed(1)} ms ${pf} faults`);
  for (let i = 0; i < 10; i++) step();
  const s0 = mainCpu();
  const so = othersMs();
  const sw = performance.now();
  for (let i = 0; i < 10; i++) step();
  const steady = (mainCpu() - s0) / 10;
  const steadyOthers = (othersMs() - so) / 10;
  const steadyWall = (performance.now() - sw) / 10;
  process.stdout.write(
    `${arg("scene", "level")} n=${arg("n", "1000")}${threadsArg === "" ? "" : ` threads=${threadsArg}`}${worlds > 1 ? ` world ${w}` : ""}: first main ${total.toFixed(1)} ms, ${totalFaults} faults; ${rows.join("; ")}; steady main ${steady.toFixed(1)} ms; ratio ${(total / steady).toFixed(1)}; other threads first ${firstOthers.toFixed(1)} ms, steady ${steadyOthers.toFixed(1)} ms; wall first ${firstWall.toFixed(1)}, steady ${steadyWall.toFixed(1)} ms; load ${loadavg()[0].toFixed(1)}\n`,
  );
}
await executor?.dispose();
