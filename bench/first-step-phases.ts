/**
 * The first step's main-thread CPU time by phase (Linux /proc/thread-self/schedstat), for a
 * scene of bench/scenes.ts: wraps a few coarse methods of the world and its parts and sums the
 * main thread's CPU time spent inside each (outermost call only). Each phase's minor page
 * faults too. `node --import tsx bench/first-step-phases.ts [--scene level] [--n 1000]
 * [--broadphase grid]`; with `MARK=1` it prints the first step's CLOCK_MONOTONIC interval (ns) to
 * stderr, to cut a `perf record -k CLOCK_MONOTONIC -e page-faults` of the run to that step.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { StaticBvh } from "../src/broadphase/static-bvh.js";
import type { Isometry } from "../src/math/isometry.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { BodyKinds } from "../src/world/body-kinds.js";
import { type BodyHandle, CollisionWorld } from "../src/world/index.js";
import { makeScene, type SceneName } from "./scenes.js";

const mainCpu = () =>
  Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
const faults = () => process.resourceUsage().minorPageFault;

const spent = new Map<string, [number, number]>();
const active = new Set<string>();
// biome-ignore lint/suspicious/noExplicitAny: instrumentation of private methods
function wrap(proto: any, name: string, label: string): void {
  const f = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    if (active.has(label)) return f.apply(this, args);
    active.add(label);
    const c = mainCpu();
    const p = faults();
    try {
      return f.apply(this, args);
    } finally {
      active.delete(label);
      const e = spent.get(label) ?? [0, 0];
      e[0] += mainCpu() - c;
      e[1] += faults() - p;
      spent.set(label, e);
    }
  };
}

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const scene = makeScene(arg("scene", "level") as SceneName, Number(arg("n", "1000")), 1);
scene.move(0);
const world = new CollisionWorld({ broadphase: arg("broadphase", "grid") as "grid" });
const { size, rot, pos, staticCount } = scene;
const handles: BodyHandle[] = [];
for (let i = 0; i < scene.n; i++) {
  const shape =
    scene.kind[i] === 0
      ? makeSphere(size[3 * i])
      : makeCuboid({ x: size[3 * i], y: size[3 * i + 1], z: size[3 * i + 2] });
  const pose: Isometry = {
    translation: { x: pos[3 * i], y: pos[3 * i + 1], z: pos[3 * i + 2] },
    rotation: { x: rot[4 * i], y: rot[4 * i + 1], z: rot[4 * i + 2], w: rot[4 * i + 3] },
  };
  handles.push(
    i < staticCount
      ? world.addBody({ shape, pose, kind: "static" })
      : world.addBody({ shape, pose }),
  );
}
const moving = handles.slice(staticCount);
const m = moving.length;
const bulk = new Float64Array(7 * m);
for (let j = 0; j < m; j++) {
  bulk.set(rot.subarray(4 * (staticCount + j), 4 * (staticCount + j) + 4), 7 * j + 3);
}
let frame = 0;
const step = () => {
  scene.move(++frame);
  for (let j = 0; j < m; j++) {
    const k = 3 * (staticCount + j);
    bulk[7 * j] = pos[k];
    bulk[7 * j + 1] = pos[k + 1];
    bulk[7 * j + 2] = pos[k + 2];
  }
  world.setPoses(moving, bulk);
  world.step();
};
const W = CollisionWorld.prototype;
wrap(W, "setPoses", "setPoses");
wrap(W, "wantsAllMovingPairs", "wantsAll");
// biome-ignore lint/suspicious/noExplicitAny: the world's broad phase
wrap(Object.getPrototypeOf((world as any).bp), "computePairs", "bp.computePairs");
wrap(BodyKinds.prototype, "ensureStaticBvh", "staticBvh");
wrap(StaticBvh.prototype, "buildFrom", "bvh-build");
wrap(W, "buildPairs", "buildPairs");
wrap(W, "finishStep", "finishStep");
const c0 = mainCpu();
const f0 = faults();
const h0 = process.hrtime.bigint();
step();
const h1 = process.hrtime.bigint();
if (process.env.MARK) process.stderr.write(`MARK ${h0} ${h1}\n`);
const total = mainCpu() - c0;
const totalFaults = faults() - f0;
const rows = [...spent].map(([k, [ms, pf]]) => `${k} ${ms.toFixed(1)} ms ${pf} faults`);
let steady = 0;
for (let i = 0; i < 10; i++) step();
const s0 = mainCpu();
for (let i = 0; i < 10; i++) step();
steady = (mainCpu() - s0) / 10;
process.stdout.write(
  `${arg("scene", "level")} n=${arg("n", "1000")}: first main ${total.toFixed(1)} ms, ${totalFaults} faults; ${rows.join("; ")}; steady main ${steady.toFixed(1)} ms; ratio ${(total / steady).toFixed(1)}; load ${loadavg()[0].toFixed(1)}\n`,
);
