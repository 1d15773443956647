/**
 * Collide's world step with and without a `WorkerExecutor` on the scenes of bench/scenes.ts,
 * in one process: wall-clock median per step (`setPoses` and `step`; the scene's own motion is
 * computed outside the timed part), the process's CPU time per step
 * (`process.cpuUsage`, every thread) and the calling thread's own CPU time per step (Linux
 * `/proc/thread-self/stat`: the step's critical path when the workers keep up), the first step
 * and `uptime`'s load. On a shared machine the wall-clock ratio shows a thread speedup only when
 * the load stays below the core count; the calling thread's CPU time bounds it either way.
 *
 * `node --no-liftoff --import tsx bench/thread-scaling.ts [--scene random] [--n 50000]
 * [--threads 1,2] [--frames 20] [--warmup 10] [--profile PREFIX] [--rt]` (threads 0: a one-thread
 * executor, the threaded code path on the calling thread alone; `--profile`: a CPU profile of
 * the measured steps, calling thread, to PREFIX-scene-threads.cpuprofile; `--rt`: the measured
 * frames under the real-time scheduler, see {@link realtime}, for wall-clock numbers close to an
 * idle machine's on a loaded one). With an executor it also prints the on-CPU time per step of
 * the busiest other thread (the worker) and the share of the narrow phase's blocks the calling
 * thread ran.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { WorkerExecutor } from "../src/parallel/index.js";
import { sceneWorld } from "./scene-runner.js";
import { makeScene, type SceneName } from "./scenes.js";

/** CPU time of the calling thread so far, milliseconds (0 where /proc is missing). */
export function threadCpuMs(): number {
  try {
    const s = readFileSync("/proc/thread-self/stat", "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) of proc(5), counted from field 3 here.
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** On-CPU time of the calling thread so far, nanoseconds (Linux schedstat; 0 where missing). */
export function threadCpuNs(): number {
  try {
    const s = readFileSync("/proc/thread-self/schedstat", "utf8");
    return Number(s.slice(0, s.indexOf(" ")));
  } catch {
    return 0;
  }
}

/**
 * On-CPU time so far of every thread of this process but the calling one, nanoseconds by task
 * id (Linux `/proc/self/task/TID/schedstat`; empty where missing). The executor's workers are the
 * threads whose time grows with the jobs (V8's own helper threads take little in a steady state).
 */
export function otherThreadsCpuNs(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    const self = readFileSync("/proc/thread-self/stat", "utf8");
    const me = self.slice(0, self.indexOf(" "));
    for (const t of readdirSync("/proc/self/task")) {
      if (t === me) continue;
      try {
        const s = readFileSync(`/proc/self/task/${t}/schedstat`, "utf8");
        out.set(t, Number(s.slice(0, s.indexOf(" "))));
      } catch {
        // The thread ended.
      }
    }
  } catch {
    // No /proc.
  }
  return out;
}

/** The largest per-thread growth from `before` to now, nanoseconds (the busiest other thread). */
export function busiestOtherThreadNs(before: Map<string, number>): number {
  let most = 0;
  for (const [t, ns] of otherThreadsCpuNs()) most = Math.max(most, ns - (before.get(t) ?? ns));
  return most;
}

/**
 * Puts every thread of this process under the real-time FIFO scheduler (`on`) or back under the
 * normal one (Linux `chrt`, as root). For the measured frames only (`--rt`): on a shared machine
 * the other processes then run on what the kernel's real-time throttle leaves them (5 %), so the
 * wall clock of the step is nearly an idle machine's. The calling thread and the `busy` threads
 * (the executor's workers) get a higher priority than the process's other threads (V8's
 * compiler and GC helpers), which would otherwise keep a woken worker off a core for as long as
 * they run (FIFO threads of one priority do not preempt each other). Returns false where `chrt`
 * refused.
 */
export function realtime(on: boolean, busy: readonly string[] = []): boolean {
  try {
    const args = on ? ["-f", "-a", "-p", "10"] : ["-o", "-a", "-p", "0"];
    execFileSync("chrt", [...args, String(process.pid)], { stdio: "ignore" });
    if (on) {
      const self = readFileSync("/proc/thread-self/stat", "utf8");
      for (const t of [self.slice(0, self.indexOf(" ")), ...busy]) {
        execFileSync("chrt", ["-f", "-p", "20", t], { stdio: "ignore" });
      }
    }
    return true;
  } catch {
    return false;
  }
}

/** The ids of the `k` other threads whose on-CPU time grew most since `before`. */
export function busiestOtherThreads(before: Map<string, number>, k: number): string[] {
  return [...otherThreadsCpuNs()]
    .map(([t, ns]) => [t, ns - (before.get(t) ?? ns)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([t]) => t);
}

/** One run's numbers. */
export interface ThreadRun {
  scene: SceneName;
  n: number;
  threads: number;
  medianMs: number;
  cpuMs: number;
  callerCpuMs: number;
  firstStepMs: number;
  secondStepMs: number;
  steadyFirstFive: number[];
  broadMs: number;
  narrowMs: number;
  contacts: number;
  load1: number;
  /** True when the measured frames ran under the real-time scheduler (`--rt`). */
  rt: boolean;
  /**
   * With an executor: the calling thread's on-CPU time per step inside the executor's parallel
   * jobs (narrow phase with its ordered merge, candidate merge, poses) and outside them (the
   * serial part), ms. With threads 0 (everything on the calling thread) they are the step's
   * parallel work P and serial work S, so S + P / 2 is the critical path of two threads with a
   * free core each, whatever the machine's load.
   */
  inJobsMs: number;
  serialMs: number;
  /** On-CPU time per step of the busiest other thread (a worker, with an executor), ms. */
  workerMs: number;
  /** Share of the narrow phase's blocks the calling thread ran. */
  callerShare: number;
}

/** Runs the world on `sceneName` with `threads` threads (1: no executor). */
export async function runThreads(
  sceneName: SceneName,
  n: number,
  threads: number,
  frames: number,
  warmup: number,
  profileFile = "",
  rt = false,
): Promise<ThreadRun> {
  const scene = makeScene(sceneName, n, 1);
  let executor: WorkerExecutor | null = null;
  // threads 0: an executor of one thread (the threaded code path, all on the calling thread).
  if (threads !== 1) {
    executor = new WorkerExecutor({ threads: Math.max(1, threads) });
    await executor.ready();
  }
  // Time the calling thread spends in the executor's jobs (instance methods wrapped).
  let inJobsNs = 0;
  if (executor !== null) {
    const ex = executor as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const name of [
      "runNarrowPhase",
      "runCandidateMerge",
      "runCellQueries",
      "runPoseBoxes",
      "runPoseApply",
    ]) {
      const f = ex[name];
      if (typeof f !== "function") continue;
      ex[name] = (...a: unknown[]) => {
        const t0 = threadCpuNs();
        try {
          return f.apply(executor, a);
        } finally {
          inJobsNs += threadCpuNs() - t0;
        }
      };
    }
  }
  // The scene's motion (the driver, not Collide) is computed before the timed part of a step.
  const { world, driver, step } = sceneWorld(scene, { profile: true, executor });
  const drive = driver.next;
  drive();
  let t = performance.now();
  step();
  const firstStepMs = performance.now() - t;
  const early: number[] = [];
  for (let i = 0; i < 5; i++) {
    drive();
    t = performance.now();
    step();
    early.push(performance.now() - t);
  }
  const warm0 = otherThreadsCpuNs();
  for (let i = 0; i < warmup; i++) {
    drive();
    step();
  }
  const times: number[] = [];
  let broad = 0;
  let narrow = 0;
  let session: Session | null = null;
  if (profileFile !== "") {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
  }
  const isRt = rt && realtime(true, busiestOtherThreads(warm0, Math.max(0, threads - 1)));
  const c0 = process.cpuUsage();
  const others0 = otherThreadsCpuNs();
  let blocks = 0;
  let callerBlocks = 0;
  let callerTicksMs = 0;
  let callerNs = 0;
  inJobsNs = 0;
  for (let i = 0; i < frames; i++) {
    drive();
    const m0 = threadCpuMs();
    const n0 = threadCpuNs();
    t = performance.now();
    step();
    times.push(performance.now() - t);
    callerNs += threadCpuNs() - n0;
    callerTicksMs += threadCpuMs() - m0;
    broad += world.stats.broadPhaseMs;
    narrow += world.stats.narrowPhaseMs;
    if (executor !== null) {
      blocks += executor.lastJob.blocks;
      callerBlocks += executor.lastJob.callerBlocks;
    }
  }
  const c = process.cpuUsage(c0);
  if (isRt) realtime(false);
  const workerNs = busiestOtherThreadNs(others0);
  const callerCpuMs = callerTicksMs / frames;
  if (session !== null) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  const contacts = world.contactCount;
  await executor?.dispose();
  times.sort((a, b) => a - b);
  return {
    scene: sceneName,
    n,
    threads,
    medianMs: times[times.length >> 1],
    cpuMs: (c.user + c.system) / 1000 / frames,
    callerCpuMs,
    firstStepMs,
    secondStepMs: early[0],
    steadyFirstFive: early,
    broadMs: broad / frames,
    narrowMs: narrow / frames,
    contacts,
    load1: loadavg()[0],
    rt: isRt,
    inJobsMs: inJobsNs / 1e6 / frames,
    serialMs: (callerNs - inJobsNs) / 1e6 / frames,
    workerMs: workerNs / 1e6 / frames,
    callerShare: blocks > 0 ? callerBlocks / blocks : 1,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  for (const sceneName of arg("scene", "lattice,random").split(",") as SceneName[]) {
    for (const threads of arg("threads", "1,2").split(",").map(Number)) {
      const r = await runThreads(
        sceneName,
        Number(arg("n", "50000")),
        threads,
        Number(arg("frames", "20")),
        Number(arg("warmup", "10")),
        arg("profile", "") === "" ? "" : `${arg("profile", "")}-${sceneName}-${threads}.cpuprofile`,
        argv.includes("--rt"),
      );
      const f = (x: number) => x.toFixed(1);
      process.stdout.write(
        `${r.scene} n=${r.n} threads=${r.threads}: median ${f(r.medianMs)} ms, cpu ${f(r.cpuMs)} ms/step (caller ${f(r.callerCpuMs)}), broad ${f(r.broadMs)}, narrow ${f(r.narrowMs)}, first ${f(r.firstStepMs)} ms, next ${r.steadyFirstFive.map(f).join(" ")}, contacts ${r.contacts}, load ${r.load1.toFixed(1)}${r.rt ? " (real-time)" : ""}${r.threads === 1 ? "" : `, caller in jobs ${f(r.inJobsMs)}, serial ${f(r.serialMs)}${r.threads === 0 ? ` (S + P/2 = ${f(r.serialMs + r.inJobsMs / 2)})` : `, worker ${f(r.workerMs)}, caller's narrow blocks ${(100 * r.callerShare).toFixed(0)} %`}`}\n`,
      );
    }
  }
  process.exit(0);
}
