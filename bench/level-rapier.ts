/**
 * Rapier beside Collide on the level scene and the random scene (bench/scenes.ts) in CPU time,
 * for the per-contact comparison of the level's step: run as
 * `node --no-liftoff --import tsx bench/level-rapier.ts [--n 1000] [--frames 60] [--simd]`
 * (`--no-liftoff`: the WebAssembly runs at its optimising tier from the first frame). Prints
 * the median CPU ms per step (`process.cpuUsage`) of Rapier (kinematic bodies over fixed ones,
 * bench/scene-runner.ts) on each scene and its touching pairs at the last frame.
 */
import { loadavg } from "node:os";
import { rapierEngine } from "./scene-runner.js";
import { makeScene, type SceneName } from "./scenes.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const n = Number(arg("n", "1000"));
const frames = Number(arg("frames", "60"));
const simd = argv.includes("--simd");

for (const name of ["level", "random"] as SceneName[]) {
  const scene = makeScene(name, n, 1);
  scene.move(0);
  const e = await rapierEngine(scene, simd);
  let frame = 0;
  const c0 = process.cpuUsage();
  scene.move(++frame);
  e.frame();
  const d0 = process.cpuUsage(c0);
  for (let i = 0; i < 20; i++) {
    scene.move(++frame);
    e.frame();
  }
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    scene.move(++frame);
    const c = process.cpuUsage();
    e.frame();
    const d = process.cpuUsage(c);
    times.push((d.user + d.system) / 1000);
  }
  times.sort((a, b) => a - b);
  const pairs = e.pairs();
  e.free();
  process.stdout.write(
    `${simd ? "rapier-simd" : "rapier"} ${name} ${n}: first ${((d0.user + d0.system) / 1000).toFixed(1)} ms, median ${times[times.length >> 1].toFixed(2)} ms CPU, touching pairs ${pairs}, load ${loadavg()[0].toFixed(1)}\n`,
  );
}
