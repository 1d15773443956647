/**
 * The world's first step against its steady step, on a scene of bench/scenes.ts: builds the
 * world (as bench/scene-runner.ts's `collide` engine), times the first step (wall clock and the
 * process's CPU time, `process.cpuUsage`), its broad / narrow split (`profile`), then
 * `--steady` frames for the steady median; with `--worlds K`, builds and steps K worlds one after
 * the other in the same process (a second world's first step runs warm code: what is left of
 * its first step is not JIT compilation).
 *
 * `node --no-liftoff --import tsx bench/first-step.ts [--scene random] [--n 50000]
 * [--worlds 2] [--steady 15] [--broadphase grid] [--prepare] [--profile PREFIX] [--heap PREFIX]`
 * (`--prepare`: `prepareWorld(world)` before the first step, its process CPU printed; `--profile`:
 * a CPU profile of each first step to PREFIX-scene-world.cpuprofile; `--heap`: its sampled
 * allocations by function to PREFIX-scene-world.txt)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { loadavg } from "node:os";
import { prepareWorld, type WorldBroadPhase } from "../src/world/index.js";
import { sceneWorld } from "./scene-runner.js";
import { makeScene, type SceneName } from "./scenes.js";

/** One world's first step and steady step. */
export interface FirstStepRun {
  setupMs: number;
  /** Process CPU time of building the world and adding its bodies (the implicit warm-up too). */
  setupCpuMs: number;
  /** Process CPU time of `prepareWorld` (0 without `--prepare`). */
  prepareCpuMs: number;
  firstMs: number;
  firstCpuMs: number;
  /** CPU time of the main thread alone over the first step (Linux schedstat; NaN elsewhere). */
  firstMainMs: number;
  firstBroadMs: number;
  firstNarrowMs: number;
  /** Growth of the resident set over the first step, MB (fresh pages touched). */
  firstRssMb: number;
  /** Minor page faults of the first step (fresh pages, each zeroed by the kernel). */
  firstFaults: number;
  next: number[];
  steadyMs: number;
  steadyCpuMs: number;
  /** Mean main-thread CPU time of a steady step (NaN where schedstat is missing). */
  steadyMainMs: number;
  steadyBroadMs: number;
  steadyNarrowMs: number;
  contacts: number;
}

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * CPU time the calling (main) thread has run, ms, from Linux's /proc/thread-self/schedstat (ns,
 * first field): unlike `process.cpuUsage` it leaves out V8's compiler and GC helper threads, and
 * unlike the wall clock it leaves out the time other processes held the cores. NaN elsewhere.
 */
const mainCpu = () => {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
};

/** A node of a sampled heap profile (the inspector's `SamplingHeapProfileNode`). */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** The sampled allocations by function and its two callers, largest first (bytes, tab, frames). */
function heapSummary(head: HeapNode): string {
  const bytes = new Map<string, number>();
  const walk = (node: HeapNode, stack: string[]) => {
    const f = node.callFrame;
    const here = [...stack, `${f.functionName || "(anon)"}:${f.lineNumber + 1}`];
    if (node.selfSize > 0) {
      const key = here.slice(-3).reverse().join(" <- ");
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, here);
  };
  walk(head, []);
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([k, v]) => `${v}\t${k}`)
    .join("\n");
}

/**
 * Builds the world of `sceneName` and times its first and steady steps; `profileFile` /
 * `heapFile` (when not empty) receive a CPU profile / a sampled-allocation summary of the first
 * step.
 */
export function runFirstStep(
  sceneName: SceneName,
  n: number,
  steady: number,
  broadphase: WorldBroadPhase,
  profileFile = "",
  heapFile = "",
  prepare = false,
): FirstStepRun {
  const s0 = cpu();
  const {
    world,
    setupMs,
    frame: step,
  } = sceneWorld(makeScene(sceneName, n, 1), {
    profile: true,
    broadphase,
  });
  const setupCpuMs = cpu() - s0;
  const p0 = cpu();
  if (prepare) prepareWorld(world);
  const prepareCpuMs = cpu() - p0;
  let session: Session | null = null;
  if (profileFile !== "") {
    session = new Session();
    session.connect();
    session.post("Profiler.enable");
    session.post("Profiler.setSamplingInterval", { interval: 100 });
    session.post("Profiler.start");
  }
  if (heapFile !== "") {
    session = session ?? new Session();
    if (profileFile === "") session.connect();
    session.post("HeapProfiler.enable");
    session.post("HeapProfiler.startSampling", {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const rss0 = process.memoryUsage().rss;
  const faults0 = process.resourceUsage().minorPageFault;
  let c = cpu();
  let m0 = mainCpu();
  let t = performance.now();
  step();
  const firstMainMs = mainCpu() - m0;
  const firstRssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  const firstFaults = process.resourceUsage().minorPageFault - faults0;
  const firstMs = performance.now() - t;
  const firstCpuMs = cpu() - c;
  if (session !== null) {
    const s = session;
    if (heapFile !== "") {
      s.post("HeapProfiler.stopSampling", (err, res) => {
        if (err === null) writeFileSync(heapFile, heapSummary(res.profile.head));
      });
    }
    if (profileFile !== "") {
      s.post("Profiler.stop", (err, res) => {
        if (err === null) writeFileSync(profileFile, JSON.stringify(res.profile));
      });
    }
    s.disconnect();
  }
  const firstBroadMs = world.stats.broadPhaseMs;
  const firstNarrowMs = world.stats.narrowPhaseMs;
  const next: number[] = [];
  for (let i = 0; i < 4; i++) {
    t = performance.now();
    step();
    next.push(performance.now() - t);
  }
  for (let i = 0; i < 6; i++) step();
  const times: number[] = [];
  let broad = 0;
  let narrow = 0;
  c = cpu();
  m0 = mainCpu();
  for (let i = 0; i < steady; i++) {
    t = performance.now();
    step();
    times.push(performance.now() - t);
    broad += world.stats.broadPhaseMs;
    narrow += world.stats.narrowPhaseMs;
  }
  const steadyCpuMs = (cpu() - c) / steady;
  const steadyMainMs = (mainCpu() - m0) / steady;
  times.sort((a, b) => a - b);
  return {
    setupMs,
    setupCpuMs,
    prepareCpuMs,
    firstMs,
    firstCpuMs,
    firstMainMs,
    firstBroadMs,
    firstNarrowMs,
    firstRssMb,
    firstFaults,
    next,
    steadyMs: times[times.length >> 1],
    steadyCpuMs,
    steadyMainMs,
    steadyBroadMs: broad / steady,
    steadyNarrowMs: narrow / steady,
    contacts: world.contactCount,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const f = (x: number) => x.toFixed(1);
  for (const sceneName of arg("scene", "random").split(",") as SceneName[]) {
    for (let w = 0; w < Number(arg("worlds", "1")); w++) {
      const r = runFirstStep(
        sceneName,
        Number(arg("n", "50000")),
        Number(arg("steady", "15")),
        arg("broadphase", "grid") as WorldBroadPhase,
        arg("profile", "") === "" ? "" : `${arg("profile", "")}-${sceneName}-${w + 1}.cpuprofile`,
        arg("heap", "") === "" ? "" : `${arg("heap", "")}-${sceneName}-${w + 1}.txt`,
        argv.includes("--prepare"),
      );
      process.stdout.write(
        `${sceneName} n=${arg("n", "50000")} world ${w + 1}: setup ${f(r.setupMs)} ms (cpu ${f(r.setupCpuMs)}), prepare cpu ${f(r.prepareCpuMs)} ms, first ${f(r.firstMs)} ms (cpu ${f(r.firstCpuMs)}, main ${f(r.firstMainMs)}, broad ${f(r.firstBroadMs)}, narrow ${f(r.firstNarrowMs)}, rss +${f(r.firstRssMb)} MB, ${r.firstFaults} faults), next ${r.next.map(f).join(" ")}, steady median ${f(r.steadyMs)} ms (cpu ${f(r.steadyCpuMs)}, main ${f(r.steadyMainMs)}, broad ${f(r.steadyBroadMs)}, narrow ${f(r.steadyNarrowMs)}), first/steady ${(r.firstMs / r.steadyMs).toFixed(1)}×, cpu ratio ${(r.firstCpuMs / r.steadyCpuMs).toFixed(1)}×, main ratio ${(r.firstMainMs / r.steadyMainMs).toFixed(1)}×, contacts ${r.contacts}, load ${loadavg()[0].toFixed(1)}\n`,
      );
    }
  }
}
