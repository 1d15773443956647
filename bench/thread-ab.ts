/**
 * Interleaved A/B of the world step's code paths on one scene, in one process: a world without
 * an executor (`serial`), with a one-thread executor (`t0`: the threaded code path, all on the
 * calling thread) and with a two-thread executor (`t2`), stepped one after the other on the same
 * poses every frame (the order rotating), so that a shared machine's load falls on all alike.
 * Per world: the calling thread's on-CPU time (Linux schedstat) in `setPoses` + `step`, split
 * into its parts (`setPoses`, the broad phase's `computePairs`, `buildPairs`, the executor's jobs
 * — P of the threaded path — and the rest: for `serial`, its narrow phase and contact cache), and the wall-clock median. For `t0`,
 * S = caller − jobs and S + P / 2 bounds two threads' step on two free cores.
 *
 * `node --no-liftoff --import tsx bench/thread-ab.ts [--scene lattice] [--n 50000]
 * [--worlds serial,t0,t2] [--frames 30] [--warmup 10] [--warm-up 0] [--rt]` (`--warm-up 0`: the
 * executors' workers start without their warm-up, src/parallel/warm-up.ts; `--rt`: the measured frames under
 * the real-time scheduler, bench/thread-scaling.ts `realtime`, for wall-clock medians close to an
 * idle machine's on a loaded one)
 */
import { loadavg } from "node:os";
import { WorkerExecutor } from "../src/parallel/index.js";
import { type BodyHandle, CollisionWorld } from "../src/world/index.js";
import { addSceneBodies, sceneDriver } from "./scene-runner.js";
import { makeScene, type SceneName } from "./scenes.js";
import {
  busiestOtherThreadNs,
  busiestOtherThreads,
  otherThreadsCpuNs,
  realtime,
  threadCpuNs,
} from "./thread-scaling.js";

type Fn = (...a: unknown[]) => unknown;

/** Wraps `obj[name]` to add the calling thread's on-CPU time inside it to `acc[slot]`. */
function timeMethod(obj: object, name: string, acc: Float64Array, slot: number): void {
  const o = obj as Record<string, Fn>;
  const f = o[name];
  if (typeof f !== "function") return;
  let depth = 0;
  o[name] = function (this: unknown, ...a: unknown[]) {
    if (depth > 0) return f.apply(this, a);
    depth++;
    const t0 = threadCpuNs();
    try {
      return f.apply(this, a);
    } finally {
      acc[slot] += threadCpuNs() - t0;
      depth--;
    }
  };
}

const PARTS = [
  "setPoses",
  "poseJob",
  "computePairs",
  "mergeJob",
  "cellJob",
  "buildPairs",
  "narrowJob",
  "rest",
  "staticJob",
] as const;
const JOBS = [1, 3, 4, 6, 8];

interface Entry {
  name: string;
  world: CollisionWorld;
  handles: BodyHandle[];
  executor: WorkerExecutor | null;
  acc: Float64Array;
  callerNs: number;
  times: number[];
}

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const sceneName = arg("scene", "lattice") as SceneName;
const n = Number(arg("n", "50000"));
const frames = Number(arg("frames", "30"));
const warmup = Number(arg("warmup", "10"));
const names = arg("worlds", "serial,t0,t2").split(",");
const warmUp = arg("warm-up", "1") !== "0";

const scene = makeScene(sceneName, n, 1);
scene.move(0);
const entries: Entry[] = [];
for (const name of names) {
  let executor: WorkerExecutor | null = null;
  if (name !== "serial") {
    executor = new WorkerExecutor({ threads: name === "t0" ? 1 : Number(name.slice(1)), warmUp });
    await executor.ready();
  }
  const acc = new Float64Array(PARTS.length);
  const world = new CollisionWorld({ executor });
  // Static bodies (scene (c)'s terrain) are added as such and never moved.
  const handles = addSceneBodies(world, scene).slice(scene.staticCount);
  timeMethod(world, "setPoses", acc, 0);
  timeMethod((world as unknown as { bp: object }).bp, "computePairs", acc, 2);
  timeMethod(world, "buildPairs", acc, 5);
  if (executor !== null) {
    timeMethod(executor, "runPoseBoxes", acc, 1);
    timeMethod(executor, "runPoseApply", acc, 1);
    timeMethod(executor, "runCandidateMerge", acc, 3);
    timeMethod(executor, "runCellQueries", acc, 4);
    timeMethod(executor, "runNarrowPhase", acc, 6);
    timeMethod(executor, "runStaticQueries", acc, 8);
  }
  entries.push({ name, world, handles, executor, acc, callerNs: 0, times: [] });
}
const driver = sceneDriver(scene);
const { bulk } = driver;
const workers = entries.reduce((w, e) => w + Math.max(0, (e.executor?.threads ?? 1) - 1), 0);
const warm0 = otherThreadsCpuNs();
let rt = false;
let measured0 = warm0;
for (let f = 0; f < warmup + frames; f++) {
  if (f === warmup && argv.includes("--rt"))
    rt = realtime(true, busiestOtherThreads(warm0, workers));
  driver.next();
  if (f === warmup) {
    for (const e of entries) e.acc.fill(0);
    measured0 = otherThreadsCpuNs();
  }
  for (let k = 0; k < entries.length; k++) {
    const e = entries[(k + f) % entries.length];
    const n0 = threadCpuNs();
    const t = performance.now();
    e.world.setPoses(e.handles, bulk);
    e.world.step();
    if (f >= warmup) {
      e.times.push(performance.now() - t);
      e.callerNs += threadCpuNs() - n0;
    }
  }
  const c0 = entries[0].world.contactCount;
  for (const e of entries) {
    if (e.world.contactCount !== c0)
      throw new Error(`contact counts differ at frame ${driver.frame}`);
  }
}
if (rt) realtime(false);
const busiest = busiestOtherThreadNs(measured0);
const ms = (ns: number) => (ns / 1e6 / frames).toFixed(2);
process.stdout.write(
  `${sceneName} n=${n} frames=${frames} load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(
      " ",
    )}${rt ? " (real-time)" : ""} (per step, calling thread on-CPU ms; busiest other thread, a worker, ${(busiest / 1e6 / frames).toFixed(2)})\n`,
);
for (const e of entries) {
  e.times.sort((a, b) => a - b);
  e.acc[7] = e.callerNs - e.acc[0] - e.acc[2] - e.acc[5] - e.acc[6];
  const parts = PARTS.map((p, i) => `${p} ${ms(e.acc[i])}`).join(", ");
  let jobs = 0;
  for (const j of JOBS) jobs += e.acc[j];
  const serial = e.callerNs - jobs;
  const bound =
    e.name === "t0" ? `, S ${ms(serial)} P ${ms(jobs)} S+P/2 ${ms(serial + jobs / 2)}` : "";
  process.stdout.write(
    `  ${e.name.padEnd(6)} caller ${ms(e.callerNs)} [${parts}]${bound}, wall median ${e.times[e.times.length >> 1].toFixed(1)}\n`,
  );
}
for (const e of entries) await e.executor?.dispose();
process.exit(0);
