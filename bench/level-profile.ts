/**
 * The level scene (bench/scenes.ts, scene c) in one process, for profiling with
 * `node --cpu-prof --import tsx bench/level-profile.ts [--n 1000] [--frames 200] [--warm-start]`:
 * builds the level with `kind: "static"`, then times (CPU time, `process.cpuUsage`, so that the
 * other processes of a shared machine count less) the setup, the first step (which builds the
 * static structure) and the median steady step; then the same moving bodies ALONE (no static
 * bodies) in a second world, so the ratio level ÷ alone is measured in one process. Prints one
 * line per world with the step's broad/narrow split, the pairs and the contact points.
 */
import { loadavg } from "node:os";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { type BodyHandle, CollisionWorld, makeWorldContact } from "../src/world/index.js";
import { sceneDriver } from "./scene-runner.js";
import { makeScene, type Scene } from "./scenes.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const n = Number(arg("n", "1000"));
const frames = Number(arg("frames", "200"));
const warmStart = argv.includes("--warm-start");
const only = arg("only", "");
const firstOnly = argv.includes("--first-only");

/** CPU milliseconds (user + system) of this process since `from` (a `process.cpuUsage()`). */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

interface Result {
  setupMs: number;
  firstMs: number;
  medianMs: number;
  broadMs: number;
  narrowMs: number;
  pairs: number;
  points: number;
  narrowPairs: number;
}

function run(scene: Scene, withStatic: boolean): Result {
  const c0 = process.cpuUsage();
  const world = new CollisionWorld({ profile: true, warmStart });
  const { size, rot, pos, n: total, staticCount } = scene;
  const handles: BodyHandle[] = [];
  for (let i = withStatic ? 0 : staticCount; i < total; i++) {
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
  const driver = sceneDriver(scene);
  const setupMs = cpuMs(c0);
  const frameFn = () => {
    driver.next();
    world.setPoses(handles, driver.bulk);
    world.step();
  };
  if (argv.includes("--mark")) process.stdout.write("--- first step\n");
  const c1 = process.cpuUsage();
  frameFn();
  const firstMs = cpuMs(c1);
  if (argv.includes("--mark")) {
    const st = world.stats;
    process.stdout.write(
      `first step wall: broad ${st.broadPhaseMs.toFixed(1)} ms, narrow + events ${st.narrowPhaseMs.toFixed(1)} ms\n`,
    );
  }
  if (argv.includes("--mark")) process.stdout.write("--- first step done\n");
  if (firstOnly)
    return {
      setupMs,
      firstMs,
      medianMs: 0,
      broadMs: 0,
      narrowMs: 0,
      pairs: 0,
      points: 0,
      narrowPairs: 0,
    };
  for (let i = 0; i < 30; i++) frameFn();
  const times: number[] = [];
  const rec = makeWorldContact();
  let broad = 0;
  let narrow = 0;
  let pairs = 0;
  let points = 0;
  let narrowPairs = 0;
  for (let f = 0; f < frames; f++) {
    const c = process.cpuUsage();
    frameFn();
    times.push(cpuMs(c));
    broad += world.stats.broadPhaseMs;
    narrow += world.stats.narrowPhaseMs;
    pairs += world.contactCount;
    narrowPairs += world.stats.narrowPairs;
    for (let i = 0; i < world.contactCount; i++) points += world.readContact(i, rec).manifold.count;
  }
  times.sort((a, b) => a - b);
  return {
    setupMs,
    firstMs,
    medianMs: times[times.length >> 1],
    broadMs: broad / frames,
    narrowMs: narrow / frames,
    pairs: pairs / frames,
    points: points / frames,
    narrowPairs: narrowPairs / frames,
  };
}

const scene = makeScene("level", n, 1);
scene.move(0);
const line = (name: string, r: Result) =>
  `${name.padEnd(22)} setup ${r.setupMs.toFixed(0).padStart(5)} ms  first ${r.firstMs.toFixed(1).padStart(6)} ms  median ${r.medianMs.toFixed(2).padStart(6)} ms  broad ${r.broadMs.toFixed(2)}  narrow ${r.narrowMs.toFixed(2)}  tested ${r.narrowPairs.toFixed(0)}  touching ${r.pairs.toFixed(0)}  points ${r.points.toFixed(0)}`;
process.stdout.write(`load ${loadavg()[0].toFixed(2)}, n ${n}, warmStart ${warmStart}\n`);
let level: Result | null = null;
let alone: Result | null = null;
if (only !== "alone") {
  level = run(scene, true);
  process.stdout.write(`${line("level (100k static)", level)}\n`);
  if (argv.includes("--again")) {
    // A second level world in the same process: its first step runs optimised code.
    scene.move(0);
    level = run(scene, true);
    process.stdout.write(`${line("level again (warm JIT)", level)}\n`);
  }
}
if (only !== "level") {
  scene.move(0);
  alone = run(scene, false);
  process.stdout.write(`${line("moving bodies alone", alone)}\n`);
}
let random: Result | null = null;
if (only === "" || only === "random") {
  random = run(makeScene("random", n, 1), true);
  process.stdout.write(`${line(`random scene, ${n}`, random)}\n`);
}
if (level && alone) {
  process.stdout.write(`ratio level / alone: ${(level.medianMs / alone.medianMs).toFixed(2)}\n`);
}
if (level && random) {
  process.stdout.write(`ratio level / random: ${(level.medianMs / random.medianMs).toFixed(2)}\n`);
}
