/**
 * The cost of the options check (src/errors.ts `checkOptions`) on the hot queries: CPU time
 * (`process.cpuUsage`) of world `castRayClosest` without options and with three filter keys,
 * `overlapAabb` with and without a filter, and `overlapVolume` sphere–box with and without
 * options, as same-process ratios; and the heap growth of a million option checks (run with
 * `--expose-gc` for that line). Rounds alternate the variants so they share the machine's load.
 *
 * Run: `node --expose-gc --import tsx bench/options-check.ts`.
 */
import { loadavg } from "node:os";
import { makeRandom } from "../src/math/random.js";
import { overlapVolume } from "../src/query/overlap-volume.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import { makeSphere } from "../src/shapes/sphere.js";
import type { BodyHandle } from "../src/world/handles.js";
import { CollisionWorld, castRayClosest } from "../src/world/index.js";

const rng = makeRandom(7);
const world = new CollisionWorld({ broadphase: "tree" });
for (let i = 0; i < 2000; i++) {
  world.addBody({
    shape: makeCuboid({ x: 0.3, y: 0.3, z: 0.3 }),
    pose: {
      translation: { x: rng() * 60, y: rng() * 60, z: rng() * 60 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    },
    kind: "static",
  });
}
const N = 4000;
const origins = Array.from({ length: N }, () => ({ x: rng() * 60, y: rng() * 60, z: rng() * 60 }));
const dirs = Array.from({ length: N }, () => {
  const x = rng() - 0.5;
  const y = rng() - 0.5;
  const z = rng() - 0.5;
  const l = Math.hypot(x, y, z);
  return { x: x / l, y: y / l, z: z / l };
});
const filter = { mask: 0xffffffff, includeSensors: true, solid: true };
const hit = {
  handle: 0 as BodyHandle,
  toi: 0,
  point: { x: 0, y: 0, z: 0 },
  normal: { x: 0, y: 0, z: 0 },
};
const out: BodyHandle[] = [];
const lo = { x: 0, y: 0, z: 0 };
const hi = { x: 3, y: 3, z: 3 };
const aabbFilter = { mask: 0xffffffff, includeSensors: true };
const s = makeSphere(0.8);
const b = makeCuboid({ x: 0.5, y: 0.4, z: 0.3 });
const ps = { translation: { x: 0.3, y: 0.2, z: 0.1 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const pb = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const volOptions = { relativeTolerance: 1e-3, maxCells: 1000 };

let sink = 0;
const variants: Record<string, () => void> = {
  "castRayClosest, no options": () => {
    for (let i = 0; i < N; i++)
      sink += castRayClosest(world, origins[i], dirs[i], 50, undefined, hit) ? 1 : 0;
  },
  "castRayClosest, 3 option keys": () => {
    for (let i = 0; i < N; i++)
      sink += castRayClosest(world, origins[i], dirs[i], 50, filter, hit) ? 1 : 0;
  },
  "overlapAabb, no filter": () => {
    for (let i = 0; i < N; i++) {
      out.length = 0;
      lo.x = origins[i].x;
      hi.x = lo.x + 3;
      sink += world.overlapAabb(lo, hi, out).length;
    }
  },
  "overlapAabb, 2 filter keys": () => {
    for (let i = 0; i < N; i++) {
      out.length = 0;
      lo.x = origins[i].x;
      hi.x = lo.x + 3;
      sink += world.overlapAabb(lo, hi, out, aabbFilter).length;
    }
  },
  "overlapVolume sphere–box, no options": () => {
    for (let i = 0; i < 200; i++) sink += overlapVolume(s, ps, b, pb).volume;
  },
  "overlapVolume sphere–box, 2 option keys": () => {
    for (let i = 0; i < 200; i++) sink += overlapVolume(s, ps, b, pb, volOptions).volume;
  },
};
const cpu: Record<string, number[]> = {};
for (const k of Object.keys(variants)) cpu[k] = [];
for (let round = 0; round < 12; round++) {
  for (const [k, f] of Object.entries(variants)) {
    const t = process.cpuUsage();
    f();
    const d = process.cpuUsage(t);
    if (round >= 2) cpu[k].push(d.user + d.system);
  }
}
const median = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
const perCall = (k: string) => median(cpu[k]) / (k.startsWith("overlapVolume") ? 200 : N);
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const k of Object.keys(variants))
  console.log(`${k}: ${perCall(k).toFixed(3)} µs CPU per call (median of 10 rounds)`);
const pairs: [string, string][] = [
  ["castRayClosest, 3 option keys", "castRayClosest, no options"],
  ["overlapAabb, 2 filter keys", "overlapAabb, no filter"],
  ["overlapVolume sphere–box, 2 option keys", "overlapVolume sphere–box, no options"],
];
for (const [a, c] of pairs)
  console.log(`ratio ${a} / ${c}: ${(perCall(a) / perCall(c)).toFixed(3)}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) {
    out.length = 0;
    world.overlapAabb(lo, lo, out, aabbFilter);
  }
  const after = process.memoryUsage().heapUsed;
  console.log(`heap growth over 1e6 filtered overlapAabb calls: ${after - before} bytes`);
}
if (sink === Number.MIN_VALUE) console.log(sink);
