/**
 * The level scene's first step (bench/scenes.ts, scene c: 100,000 static unit boxes and `--n`
 * moving bodies) in a fresh process, as an outside harness meets it: the bodies are added one
 * `addBody` at a time with fresh shape and pose objects (as bench/scene-runner.ts's `collide`
 * engine), then one `setPoses` and `step()`. Prints one line: the step's wall time, the process's
 * CPU time (`process.cpuUsage`: every thread, V8's compiler and GC helpers included), the main
 * thread's alone (Linux /proc/thread-self/schedstat), the garbage collections that fell in the
 * step (count, pause ms, from `perf_hooks`) and its minor page faults. Run it several times,
 * alternating builds, to A/B a change: `node --import tsx bench/level-first.ts [--n 1000]
 * [--prepare] [--pause MS]` (`--prepare`: `prepareWorld(world)` after the bodies are added, its
 * CPU time printed apart).
 */
import { readFileSync, writeSync } from "node:fs";
import { loadavg } from "node:os";
import { PerformanceObserver } from "node:perf_hooks";
import { prepareWorld } from "../src/world/index.js";
import { sceneWorld } from "./scene-runner.js";
import { makeScene } from "./scenes.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const mainCpu = () => {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
};
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const gcs: { start: number; duration: number; kind: number }[] = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    // biome-ignore lint/suspicious/noExplicitAny: the gc entry's detail
    gcs.push({ start: e.startTime, duration: e.duration, kind: (e as any).detail?.kind ?? 0 });
  }
});
obs.observe({ entryTypes: ["gc"] });
const c0 = cpu();
const { world, frame } = sceneWorld(makeScene("level", Number(arg("n", "1000")), 1), {
  profile: true,
});
const setupCpu = cpu() - c0;
// `--prepare`: `prepareWorld` after the bodies are added (src/world/prepare.ts), timed apart.
const q0 = cpu();
if (argv.includes("--prepare")) prepareWorld(world);
const prepareCpu = cpu() - q0;
// `--pause MS`: let V8's background work of the set-up (compiles, marking) finish first.
const pause = Number(arg("pause", "0"));
if (pause > 0) await new Promise((r) => setTimeout(r, pause));
const f0 = process.resourceUsage().minorPageFault;
const m0 = mainCpu();
const p0 = cpu();
const mark = argv.includes("--mark");
const h0 = process.hrtime.bigint();
if (mark) writeSync(1, "--- first step\n");
const t0 = performance.now();
frame();
const t1 = performance.now();
if (mark) writeSync(1, `--- first step done\nMARK ${h0} ${process.hrtime.bigint()}\n`);
const cpuMs = cpu() - p0;
const mainMs = mainCpu() - m0;
const faults = process.resourceUsage().minorPageFault - f0;
const contacts = world.contactCount;
setTimeout(() => {
  obs.disconnect();
  const inStep = gcs.filter((g) => g.start >= t0 && g.start < t1);
  const pause = inStep.reduce((a, g) => a + g.duration, 0);
  const kinds = inStep.map((g) => (g.kind === 1 ? "S" : g.kind === 2 ? "M" : g.kind)).join("");
  process.stdout.write(
    `level first step: wall ${(t1 - t0).toFixed(1)} ms, cpu ${cpuMs.toFixed(1)}, main ${mainMs.toFixed(1)}, gc ${inStep.length} [${kinds}] ${pause.toFixed(1)} ms pause, ${faults} faults, contacts ${contacts}; setup cpu ${setupCpu.toFixed(0)} ms, prepare cpu ${prepareCpu.toFixed(0)} ms; load ${loadavg()[0].toFixed(1)}\n`,
  );
}, 0);
