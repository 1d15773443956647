/**
 * The level scene's static structure alone (bench/scenes.ts, scene c: 100,000 touching unit
 * boxes): `StaticBvh.buildById` over the boxes as the world holds them (a per-slot array, the
 * ids ascending), in a fresh process — the first build (cold JIT, fresh pages: what the level's
 * first step pays) and the following ones, as CPU time (`process.cpuUsage`) with the minor page
 * faults of each, then the box queries of 1,000 moving bodies' fat boxes (the first step's other
 * use of the structure), so that a faster build is seen not to cost queries.
 *
 * `node --import tsx bench/level-static.ts [--builds 5] [--queries 20]`
 */
import { loadavg } from "node:os";
import { StaticBvh } from "../src/broadphase/static-bvh.js";
import { makeRandom } from "../src/math/random.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const builds = Number(arg("builds", "5"));
const queryRounds = Number(arg("queries", "20"));

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

// The level's terrain: two layers of 250 × 200 unit cubes, as bench/scenes.ts places them, each
// box grown by a small pad as the world's broad-phase boxes are.
const nx = 250;
const nz = 200;
const count = 2 * nx * nz;
const pad = 1e-9;
const boxes = new Float64Array(6 * count);
const ids = new Int32Array(count);
let i = 0;
for (let y = 0; y < 2; y++) {
  for (let x = 0; x < nx; x++) {
    for (let z = 0; z < nz; z++) {
      boxes.set(
        [x - 0.5 - pad, y - 1.5 - pad, z - 0.5 - pad, x + 0.5 + pad, y - 0.5 + pad, z + 0.5 + pad],
        6 * i,
      );
      ids[i] = i;
      i++;
    }
  }
}
const bvh = new StaticBvh();
const times: string[] = [];
for (let b = 0; b < builds; b++) {
  const f0 = process.resourceUsage().minorPageFault;
  const c0 = cpu();
  bvh.buildById(boxes, ids, count);
  times.push(`${(cpu() - c0).toFixed(1)} (${process.resourceUsage().minorPageFault - f0} faults)`);
}
// 1,000 fat query boxes over the terrain's top, about the moving bodies' size (side 0.5–1.4).
const rng = makeRandom(3);
const q = new Float64Array(6 * 1000);
for (let j = 0; j < 1000; j++) {
  const cx = (nx - 1) * rng();
  const cz = (nz - 1) * rng();
  const cy = 0.3 + 0.5 * rng();
  const h = 0.35 + 0.35 * rng();
  q.set([cx - h, cy - h, cz - h, cx + h, cy + h, cz + h], 6 * j);
}
const out = new Int32Array(4096);
let found = 0;
const qTimes: number[] = [];
for (let r = 0; r < queryRounds; r++) {
  const c0 = cpu();
  found = 0;
  for (let j = 0; j < 1000; j++) {
    const o = 6 * j;
    found += bvh.collectEntries(q[o], q[o + 1], q[o + 2], q[o + 3], q[o + 4], q[o + 5], out, 0);
  }
  qTimes.push(cpu() - c0);
}
qTimes.sort((a, b) => a - b);
process.stdout.write(
  `static BVH, ${count} boxes, load ${loadavg()[0].toFixed(1)}: builds (CPU ms) ${times.join(", ")}; 1,000 box queries: median ${qTimes[qTimes.length >> 1].toFixed(2)} ms CPU, ${found} entries found\n`,
);
