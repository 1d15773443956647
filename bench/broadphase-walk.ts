/**
 * The broad phases alone on the scenes of bench/scenes.ts: every moving body's box moved every
 * frame (with its displacement, as the world passes it), then `computePairs`. Reports the CPU
 * time per frame (`process.cpuUsage`, robust to other processes on a shared machine) and
 * wall-clock medians. `node --import tsx bench/broadphase-walk.ts [--scene random]
 * [--n 50000] [--frames 30] [--bp grid,tree]`.
 */
import type { BroadPhase } from "../src/broadphase/broad-phase.js";
import { DynamicTree } from "../src/broadphase/dynamic-tree.js";
import { PairSet } from "../src/broadphase/pair-set.js";
import { SpatialHash } from "../src/broadphase/spatial-hash.js";
import { SweepAndPrune } from "../src/broadphase/sweep-and-prune.js";
import { makeScene, type Scene, type SceneName } from "./scenes.js";

/** Half extents of every body's box (rotations are fixed in the scenes). */
function halfExtents(scene: Scene): Float64Array {
  const { n, kind, size, rot } = scene;
  const half = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const [x, y, z, w] = [rot[4 * i], rot[4 * i + 1], rot[4 * i + 2], rot[4 * i + 3]];
    const m = [
      1 - 2 * (y * y + z * z),
      2 * (x * y - w * z),
      2 * (x * z + w * y),
      2 * (x * y + w * z),
      1 - 2 * (x * x + z * z),
      2 * (y * z - w * x),
      2 * (x * z - w * y),
      2 * (y * z + w * x),
      1 - 2 * (x * x + y * y),
    ];
    for (let a = 0; a < 3; a++) {
      half[3 * i + a] =
        kind[i] === 0
          ? size[3 * i]
          : Math.abs(m[3 * a]) * size[3 * i] +
            Math.abs(m[3 * a + 1]) * size[3 * i + 1] +
            Math.abs(m[3 * a + 2]) * size[3 * i + 2];
    }
  }
  return half;
}

/** Runs broad phase `make()` on the scene; returns CPU and wall ms per frame and the pairs. */
export function runBroadPhaseWalk(
  sceneName: SceneName,
  n: number,
  make: () => BroadPhase,
  frames: number,
): { cpuMs: number; medianMs: number; firstMs: number; pairs: number } {
  const scene = makeScene(sceneName, n, 1);
  const half = halfExtents(scene);
  const bp = make();
  const min = { x: 0, y: 0, z: 0 };
  const max = { x: 0, y: 0, z: 0 };
  const d = { x: 0, y: 0, z: 0 };
  const prev = new Float64Array(scene.pos);
  const setBox = (i: number) => {
    const p = scene.pos;
    min.x = p[3 * i] - half[3 * i];
    min.y = p[3 * i + 1] - half[3 * i + 1];
    min.z = p[3 * i + 2] - half[3 * i + 2];
    max.x = p[3 * i] + half[3 * i];
    max.y = p[3 * i + 1] + half[3 * i + 1];
    max.z = p[3 * i + 2] + half[3 * i + 2];
  };
  for (let i = 0; i < scene.n; i++) {
    setBox(i);
    bp.insert(i, min, max);
  }
  const out = new PairSet();
  let t = performance.now();
  bp.computePairs(out);
  const firstMs = performance.now() - t;
  const times: number[] = [];
  let cpu = 0;
  for (let f = 1; f <= frames + 10; f++) {
    scene.move(f);
    const c0 = process.cpuUsage();
    t = performance.now();
    for (let i = scene.staticCount; i < scene.n; i++) {
      setBox(i);
      d.x = scene.pos[3 * i] - prev[3 * i];
      d.y = scene.pos[3 * i + 1] - prev[3 * i + 1];
      d.z = scene.pos[3 * i + 2] - prev[3 * i + 2];
      bp.move(i, min, max, d);
    }
    bp.computePairs(out);
    const dt = performance.now() - t;
    const c = process.cpuUsage(c0);
    prev.set(scene.pos);
    if (f > 10) {
      times.push(dt);
      cpu += (c.user + c.system) / 1000;
    }
  }
  times.sort((a, b) => a - b);
  return { cpuMs: cpu / frames, medianMs: times[times.length >> 1], firstMs, pairs: out.size };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const makers: Record<string, () => BroadPhase> = {
    grid: () => new SpatialHash(),
    tree: () => new DynamicTree({ margin: 0.05 }),
    sap: () => new SweepAndPrune(),
  };
  for (const name of arg("bp", "grid,tree").split(",")) {
    const r = runBroadPhaseWalk(
      arg("scene", "random") as SceneName,
      Number(arg("n", "50000")),
      makers[name],
      Number(arg("frames", "30")),
    );
    const extra = name === "grid" ? "" : "";
    process.stdout.write(
      `${name}: cpu ${r.cpuMs.toFixed(2)} ms/frame, median wall ${r.medianMs.toFixed(2)} ms, first ${r.firstMs.toFixed(1)} ms, pairs ${r.pairs}${extra}\n`,
    );
  }
}
