/**
 * Do warm starts (src/world/warm-start-cache.ts, the world option `warmStart`) pay on the world
 * benchmark's scenes (bench/scenes.ts: lattice, random, level, piles)? Each scene is built twice
 * in one process, `warmStart: false` and `true`, and the two worlds are stepped interleaved on
 * the same poses (`setPoses` + `step`), each step timed in CPU time (`process.cpuUsage`: the
 * machine may be shared), so both see the same load. Prints median ms per step of each, the
 * ratio warm ÷ cold, and the warm world's counters per step (answers reused, pairs settled by
 * their cached axis, cold pairs).
 *
 * Run: `node --import tsx bench/warm-start-scenes.ts [--scenes lattice,random,level,piles]
 * [--sizes 1000,10000] [--frames 60]`.
 */
import { loadavg } from "node:os";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld } from "../src/world/index.js";
import { makeScene, SCENE_NAMES, type Scene, type SceneName } from "./scenes.js";

/** One world of a scene, stepped by {@link frame}. */
interface SceneWorld {
  world: CollisionWorld;
  frame(): void;
}

function buildWorld(scene: Scene, warmStart: boolean): SceneWorld {
  const world = new CollisionWorld({ warmStart });
  const { size, rot, pos, n, staticCount } = scene;
  const handles: BodyHandle[] = [];
  for (let i = 0; i < n; i++) {
    const shape =
      scene.kind[i] === 0
        ? makeSphere(size[3 * i])
        : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
    const pose = {
      translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
      rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
    };
    const h = world.addBody({ shape, pose, kind: i < staticCount ? "static" : "dynamic" });
    if (i >= staticCount) handles.push(h);
  }
  const m = handles.length;
  const bulk = new Float64Array(7 * m);
  return {
    world,
    frame() {
      for (let j = 0; j < m; j++) {
        const i = staticCount + j;
        bulk[7 * j] = pos[3 * i];
        bulk[7 * j + 1] = pos[3 * i + 1];
        bulk[7 * j + 2] = pos[3 * i + 2];
        bulk[7 * j + 3] = rot[4 * i];
        bulk[7 * j + 4] = rot[4 * i + 1];
        bulk[7 * j + 5] = rot[4 * i + 2];
        bulk[7 * j + 6] = rot[4 * i + 3];
      }
      world.setPoses(handles, bulk);
      world.step();
    },
  };
}

function median(a: number[]): number {
  const b = [...a].sort((x, y) => x - y);
  return b[b.length >> 1];
}

/** One scene and size: cold and warm medians (CPU ms per step) and the warm counters. */
export interface WarmSceneRow {
  scene: SceneName;
  n: number;
  coldMs: number;
  warmMs: number;
  reused: number;
  axisEarlyOuts: number;
  cold: number;
  load1: number;
}

/** Runs one scene at `n` moving bodies (module docs). */
export function runWarmScene(name: SceneName, n: number, frames: number): WarmSceneRow {
  const scene = makeScene(name, n, 1);
  scene.move(0);
  const worlds = [buildWorld(scene, false), buildWorld(scene, true)];
  const times: number[][] = [[], []];
  const counters = [0, 0, 0];
  const warmup = 20;
  for (let f = 1; f <= warmup + frames; f++) {
    scene.move(f);
    // Alternate which world goes first, so that neither always runs right after the move.
    for (let k = 0; k < 2; k++) {
      const w = (f + k) % 2;
      const c = process.cpuUsage();
      worlds[w].frame();
      const d = process.cpuUsage(c);
      if (f > warmup) times[w].push((d.user + d.system) / 1000);
    }
    if (f > warmup) {
      const s = worlds[1].world.warmStartStats();
      counters[0] += s.reused;
      counters[1] += s.axisEarlyOuts;
      counters[2] += s.cold;
    }
  }
  if (worlds[0].world.contactCount !== worlds[1].world.contactCount) {
    throw new Error(`${name} ${n}: warm and cold worlds disagree on the contact count`);
  }
  return {
    scene: name,
    n,
    coldMs: median(times[0]),
    warmMs: median(times[1]),
    reused: counters[0] / frames,
    axisEarlyOuts: counters[1] / frames,
    cold: counters[2] / frames,
    load1: loadavg()[0],
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const scenes = arg("scenes", SCENE_NAMES.join(",")).split(",") as SceneName[];
  const sizes = arg("sizes", "1000,10000").split(",").map(Number);
  const frames = Number(arg("frames", "60"));
  process.stdout.write(
    "scene      n        cold ms   warm ms  warm÷cold   reused  axis outs   cold pairs  load\n",
  );
  for (const name of scenes) {
    for (const n of sizes) {
      if (name === "level" && n > 10000) continue;
      const r = runWarmScene(name, n, frames);
      process.stdout.write(
        `${name.padEnd(10)} ${String(n).padEnd(8)} ${r.coldMs.toFixed(2).padStart(8)} ${r.warmMs.toFixed(2).padStart(9)} ${(r.warmMs / r.coldMs).toFixed(2).padStart(10)} ${r.reused.toFixed(0).padStart(8)} ${r.axisEarlyOuts.toFixed(0).padStart(10)} ${r.cold.toFixed(0).padStart(12)} ${r.load1.toFixed(1).padStart(5)}\n`,
      );
    }
  }
}
