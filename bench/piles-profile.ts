/**
 * Profiling aid for the world scenes of bench/scenes.ts: Collide's default world (or
 * `--broadphase NAME`) on one scene, CPU time per step (process.cpuUsage, so a loaded machine
 * inflates it less than wall time), the broad/narrow split and the world's pair statistics.
 * `node [--cpu-prof] --import tsx bench/piles-profile.ts piles 10000 [frames] [warmup] [broadphase]`.
 */
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld, type WorldBroadPhase } from "../src/world/index.js";
import { makeNaiveGrid } from "./naive-grid.js";
import { makeScene, type SceneName } from "./scenes.js";

const sceneName = (process.argv[2] ?? "piles") as SceneName;
const n = Number(process.argv[3] ?? 10000);
const frames = Number(process.argv[4] ?? 60);
const warmup = Number(process.argv[5] ?? 30);
const bp = process.argv[6] as WorldBroadPhase | undefined;

const variant = process.env.VARIANT?.split(",").map(Number);
const scene = variant
  ? (await import("./piles-variants.js")).pilesVariant(
      n,
      variant[0],
      variant[1],
      variant[2],
      3,
      variant[3] ?? 6,
    )
  : makeScene(sceneName, n, 1);
scene.move(0);
const world = new CollisionWorld(bp ? { profile: true, broadphase: bp } : { profile: true });
const handles: BodyHandle[] = [];
const { size, rot, pos } = scene;
for (let i = 0; i < scene.n; i++) {
  const shape =
    scene.kind[i] === 0
      ? makeSphere(size[3 * i])
      : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
  const pose = {
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  };
  handles.push(
    i < scene.staticCount
      ? world.addBody({ shape, pose, kind: "static" })
      : world.addBody({ shape, pose }),
  );
}
const moving = handles.slice(scene.staticCount);
const bulk = new Float64Array(7 * moving.length);
for (let j = 0; j < moving.length; j++) {
  const k = scene.staticCount + j;
  bulk.set(rot.subarray(4 * k, 4 * k + 4), 7 * j + 3);
}
let frame = 0;
function step(): void {
  scene.move(++frame);
  for (let j = 0; j < moving.length; j++) {
    const k = 3 * (scene.staticCount + j);
    bulk[7 * j] = pos[k];
    bulk[7 * j + 1] = pos[k + 1];
    bulk[7 * j + 2] = pos[k + 2];
  }
  world.setPoses(moving, bulk);
  world.step();
}
for (let i = 0; i < warmup; i++) step();
const naive = makeNaiveGrid(scene);
for (let i = 0; i < 5; i++) naive.step();
let broad = 0;
let narrow = 0;
let cand = 0;
let narrowPairs = 0;
let contacts = 0;
let moved = 0;
let nCpu = 0;
const c0 = process.cpuUsage();
for (let i = 0; i < frames; i++) {
  step();
  const st = world.stats;
  broad += st.broadPhaseMs;
  narrow += st.narrowPhaseMs;
  cand += st.candidatePairs;
  narrowPairs += st.narrowPairs;
  contacts += st.contactPairs;
  moved += st.movedBodies;
}
const c1 = process.cpuUsage(c0);
const cpu = (c1.user + c1.system) / 1000 / frames;
// The naive floor on the same poses, interleaved after.
const c2 = process.cpuUsage();
let naivePairs = 0;
for (let i = 0; i < frames; i++) naivePairs = naive.step();
const c3 = process.cpuUsage(c2);
nCpu = (c3.user + c3.system) / 1000 / frames;
const f = (x: number) => Math.round((x / frames) * 100) / 100;
process.stdout.write(
  `${JSON.stringify({
    scene: sceneName,
    n,
    bp: bp ?? "default",
    cpuMsPerStep: Math.round(cpu * 100) / 100,
    naiveCpuMsPerStep: Math.round(nCpu * 100) / 100,
    broadMs: f(broad),
    narrowMs: f(narrow),
    candidates: f(cand),
    narrowPairs: f(narrowPairs),
    contacts: f(contacts),
    naivePairs,
    moved: f(moved),
  })}\n`,
);
