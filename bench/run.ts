/**
 * `npm run bench` / `collide bench`: every benchmark scene, Collide and its peers side by side in
 * one process. Scenes: (a) the detection-only world step at N = 1,000, 10,000 and 50,000 mixed
 * spheres and rotated boxes moving every frame (`world-N`), and the four world scenes of
 * bench/scenes.ts (lattice, random walks, a level of 100,000 static boxes, piles of sizes 1:100;
 * `scene-<name>-N`) with every engine in its own child process at its optimising tier, (b) pair-query micro benchmarks
 * (`pair …`), (c) ray casts against 10,000 boxes (`rays-10000-boxes`), (d) the demo scene
 * (`demo`), the scaling of the world step from 1,000 to 200,000 bodies (`scaling-N`), and the
 * mesh and 2D benchmarks. With --json, one object `{machine, scenes: [...]}`
 * on standard output (tables and progress go to standard error); every run is also kept in
 * bench/results/ with the machine described. `--quick` runs smaller sizes.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { runDemo } from "../src/cli/demo.js";
import { formatBroadPhaseRows, runBroadPhaseBench } from "./broadphases.js";
import { runDim2Bench } from "./dim2.js";
import { type MeshBenchRow, runMeshBench } from "./mesh.js";
import { formatPairRows, runPairBench } from "./pairs.js";
import { writePlots } from "./plots.js";
import { runScalingBench } from "./scaling.js";
import { SCENE_NAMES } from "./scenes.js";
import { runWorldBench } from "./world.js";
import { runRayBench } from "./world-rays.js";
import { runSceneBench, SCENE_ENGINES } from "./world-scenes.js";

const json = process.argv.includes("--json");
const quick = process.argv.includes("--quick");

/** One scene of the JSON output. */
interface SceneResult {
  name: string;
  n: number;
  engines: Record<string, { medianMs: number; pairs?: number; [k: string]: unknown }>;
}

const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  loadAverageAtStart: loadavg()[0],
  date: new Date().toISOString(),
};

// With --json, everything the sub-benchmarks print goes to standard error.
const print = (s: string) => (json ? process.stderr : process.stdout).write(`${s}\n`);
const realLog = console.log;
const realWrite = process.stdout.write.bind(process.stdout);
if (json) {
  console.log = (...args: unknown[]) => process.stderr.write(`${args.join(" ")}\n`);
  // Sub-benchmarks that write their tables straight to standard output (world, scaling) too.
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

print(`Collide benchmarks — ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`);
const scenes: SceneResult[] = [];

// (a) The world step.
const sizes = quick ? [1000, 10000] : [1000, 10000, 50000];
const world = await runWorldBench({ sizes, frames: quick ? 10 : 30, json: false });
for (const n of sizes) {
  const engines: SceneResult["engines"] = {};
  for (const r of world.rows.filter((x) => x.n === n)) {
    const key = r.engine === world.fastest[n] ? "collide" : r.engine.replace("cannon-es", "cannon");
    engines[key] = { medianMs: r.medianMs ?? r.msPerStep, pairs: r.pairs, engine: r.engine };
  }
  scenes.push({ name: `world-${n}`, n, engines });
}

// (a2) The world step on the four scenes (lattice, random walks, a level, piles), every engine in
// its own child process at its optimising tier (bench/world-scenes.ts).
print("");
const sceneRows = runSceneBench({
  scenes: [...SCENE_NAMES],
  sizes,
  engines: SCENE_ENGINES,
  frames: quick ? 10 : 20,
  warmup: 10,
  budgetMs: quick ? 3000 : 6000,
  json: false,
});
for (const row of sceneRows) {
  const name = `scene-${row.scene}-${row.n}`;
  let scene = scenes.find((x) => x.name === name);
  if (!scene) {
    scene = { name, n: row.n, engines: {} };
    scenes.push(scene);
  }
  scene.engines[row.engine] = { ...row, medianMs: row.medianMs, pairs: row.pairs };
}

// (b) Pair queries.
print("");
const pairs = await runPairBench({ time: quick ? 100 : 300 });
print(formatPairRows(pairs));
for (const r of pairs) {
  const engines: SceneResult["engines"] = {};
  for (const [k, v] of Object.entries(r.engines))
    engines[k] = { medianMs: v.medianMs, pairs: v.hits, nsPerCall: v.nsPerCall };
  scenes.push({ name: `pair ${r.name}`, n: r.n, engines });
}

// (b2) The five broad phases alone, on a uniform and a clustered mixed-size scene.
print("");
const broadphases = runBroadPhaseBench(quick ? 5 : 15);
print(formatBroadPhaseRows(broadphases));
for (const scene of new Set(broadphases.map((r) => r.scene))) {
  const engines: SceneResult["engines"] = {};
  for (const r of broadphases.filter((x) => x.scene === scene)) {
    engines[`collide/${r.broadphase}`] = { medianMs: r.medianMs, pairs: r.pairs };
  }
  const n = broadphases.find((r) => r.scene === scene)?.proxies ?? 0;
  scenes.push({ name: `broadphase ${scene}`, n, engines });
}

// (c) Ray casts against 10,000 boxes.
print("");
const rays = await runRayBench({ json: false, budgetMs: quick ? 500 : 1500 });
{
  const engines: SceneResult["engines"] = {};
  const best = rays.rows
    .filter((r) => r.engine.startsWith("collide"))
    .reduce((a, b) => (b.raysPerSecond > a.raysPerSecond ? b : a));
  for (const r of rays.rows) {
    const key = r === best ? "collide" : r.engine;
    engines[key] = {
      medianMs: 1000 / r.raysPerSecond,
      raysPerSecond: r.raysPerSecond,
      pairs: r.hits,
      engine: r.engine,
    };
  }
  scenes.push({ name: `rays-${rays.boxes}-boxes`, n: rays.boxes, engines });
}

// (d) The demo scene (Collide only: the peers have no loader for it).
print("");
const demoBodies = quick ? 500 : 2000;
const demoFrames = quick ? 60 : 300;
const demo = runDemo({ bodies: demoBodies, frames: demoFrames, seed: 1 });
print(
  `demo scene: ${demo.bodies} bodies × ${demo.frames} frames: ${demo.msPerFrame.total.toFixed(2)} ms per frame (broad ${demo.msPerFrame.broad.toFixed(2)}, narrow ${demo.msPerFrame.narrow.toFixed(2)}), ${demo.contactsPerFrame.toFixed(1)} contacts per frame`,
);
scenes.push({
  name: "demo",
  n: demo.bodies,
  engines: {
    collide: { medianMs: demo.msPerFrame.total, pairs: Math.round(demo.contactsPerFrame) },
  },
});

// Scaling of the world step, 1k → 200k bodies where memory allows (the grid, Collide's fastest).
print("");
const scaling = await runScalingBench({
  sizes: quick ? [1000, 10000] : [1000, 10000, 50000, 100000, 200000],
  broadphases: ["grid"],
  frames: quick ? 5 : 15,
  budgetMs: quick ? 500 : 2000,
});
for (const r of scaling.rows) {
  scenes.push({
    name: `scaling-${r.n}`,
    n: r.n,
    engines: { collide: { medianMs: r.medianMs, pairs: r.pairs, usPerBody: r.usPerBody } },
  });
}

// Meshes and 2D.
print("");
const mesh = (await runMeshBench({ json: false, quick })) as MeshBenchRow[];
for (const row of mesh) {
  const engines: SceneResult["engines"] = {};
  for (const [name, e] of Object.entries(row.engines)) {
    engines[name] = { medianMs: e.buildMs, raysPerSecond: e.raysPerSecond, pairs: e.hits };
  }
  scenes.push({ name: `mesh ${row.mesh}`, n: row.triangles, engines });
}
print("");
const dim2 = await runDim2Bench({ json: false });
scenes.push({ name: "dim2", n: 0, engines: { collide: { medianMs: Number.NaN, rows: dim2 } } });

console.log = realLog;
process.stdout.write = realWrite;
const result = { machine, scenes };
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
const dir = join(dirname(fileURLToPath(import.meta.url)), "results");
mkdirSync(dir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const kept = join(dir, `${stamp}${quick ? "-quick" : ""}.json`);
writeFileSync(kept, `${JSON.stringify(result, null, 2)}\n`);
print(`\nkept in bench/results/${stamp}${quick ? "-quick" : ""}.json`);
if (!quick) {
  // The README's plots follow the last full run (`npm run plots` redraws them from any run).
  for (const p of await writePlots(kept)) print(`plot ${relative(dirname(dirname(dir)), p)}`);
}
