/**
 * `collide bench --gpu`: the GPU path (`collide/gpu`) against the CPU path at N = 10,000, 100,000
 * and 1,000,000 bodies (and as many rays): the broad phase of a moving scene (GPU sorted hash grid
 * vs the CPU spatial hash, every body moving every frame), the batch narrow phase (N sphere,
 * cuboid and capsule pairs vs the CPU `contact` query one by one), and batch ray casts (N rays
 * into 10,000 shapes vs the CPU world ray cast). Answers are checked equal on every run. Prints
 * the adapter's description; on a software adapter (SwiftShader) it says so, since those
 * figures time a CPU emulating a GPU. Device from the `webgpu` package (Dawn): with no
 * VK_ICD_FILENAMES set and no GPU device node (/dev/dri), SwiftShader from Debian's chromium
 * package. `--quick`: N = 2,000 and 10,000; `--json`: one JSON object on standard output, the
 * tables on standard error; the run is kept in bench/results/.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PairSet } from "../src/broadphase/pair-set.js";
import { SpatialHash } from "../src/broadphase/spatial-hash.js";
import { createGpuBroadPhase, createGpuNarrowPhase, createGpuRayCaster } from "../src/gpu/index.js";
import type { Isometry } from "../src/math/isometry.js";
import { makeRandom, type Random, randomRotation } from "../src/math/random.js";
import { contact } from "../src/query/contact.js";
import { makeCapsule } from "../src/shapes/capsule.js";
import { makeCuboid } from "../src/shapes/cuboid.js";
import type { Shape } from "../src/shapes/shape.js";
import { makeSphere } from "../src/shapes/sphere.js";
import { CollisionWorld } from "../src/world/collision-world.js";
import { castRayClosest } from "../src/world/ray-cast.js";
import { speedWords } from "./speed-words.js";

const json = process.argv.includes("--json");
const quick = process.argv.includes("--quick");
const print = (s: string) => (json ? process.stderr : process.stdout).write(`${s}\n`);

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (
  process.env.VK_ICD_FILENAMES === undefined &&
  !existsSync("/dev/dri") &&
  existsSync(SWIFTSHADER_ICD)
) {
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}
if (process.env.XDG_RUNTIME_DIR === undefined) process.env.XDG_RUNTIME_DIR = "/tmp";

const { create } = await import("webgpu");
const gpu = create([]);
// Dawn stops serving a device once its GPU object is collected: keep it reachable to the end.
(globalThis as { collideBenchGpu?: unknown }).collideBenchGpu = gpu;
const adapter = await gpu.requestAdapter();
if (adapter === null) {
  print("collide bench --gpu: no WebGPU adapter (install libvulkan1 and chromium for SwiftShader)");
  process.exit(1);
}
const device = await adapter.requestDevice({
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
  },
});
const info = adapter.info;
const description =
  [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(" / ") ||
  "unknown adapter";
const software =
  /swiftshader|llvmpipe|lavapipe|software|warp/i.test(description) ||
  (info as { isFallbackAdapter?: boolean }).isFallbackAdapter === true;
print(
  `Collide GPU benchmarks — adapter: ${description}; CPU: ${cpus()[0]?.model} × ${cpus().length}`,
);
if (software) {
  print(
    "NOTE: this is a SOFTWARE adapter (a CPU emulating a GPU): the GPU figures below are a software adapter's, not a GPU's.",
  );
}

const sizes = quick ? [2000, 10000] : [10000, 100000, 1000000];

function shapeOf(rng: Random, i: number): Shape {
  const k = i % 3;
  const s = 0.3 + 0.4 * rng();
  if (k === 0) return makeSphere(s);
  if (k === 1) return makeCuboid({ x: s, y: 0.8 * s, z: 0.6 * s });
  return makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, 0.4 * s);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Row {
  stage: string;
  n: number;
  gpuMs: number;
  cpuMs: number;
  cpuResolved?: number;
  equal: boolean;
  /** Timed runs behind each figure (the median is printed; a single run is said so). */
  runs?: number;
}
const rows: Row[] = [];
const report = (r: Row) => {
  rows.push(r);
  print(
    `${r.stage.padEnd(14)} N=${String(r.n).padStart(8)}  GPU ${r.gpuMs.toFixed(1).padStart(9)} ms  CPU ${r.cpuMs.toFixed(1).padStart(9)} ms  GPU ${speedWords(r.gpuMs, r.cpuMs)}${r.cpuResolved !== undefined ? `  (${r.cpuResolved} settled on the CPU)` : ""}  ${r.equal ? "same answers" : "ANSWERS DIFFER"}${r.runs === undefined ? "" : r.runs === 1 ? "  (one run: noisy)" : `  (median of ${r.runs} runs)`}`,
  );
};

for (const n of sizes) {
  // Broad phase: boxes of unit-ish bodies at a density of ~1 per 8 unit cubes, all moving.
  const rng = makeRandom(n);
  const side = Math.cbrt(8 * n);
  const pos = new Float64Array(3 * n);
  const half = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    pos[3 * i] = side * rng();
    pos[3 * i + 1] = side * rng();
    pos[3 * i + 2] = side * rng();
    half[i] = 0.3 + 0.4 * rng();
  }
  const gbp = createGpuBroadPhase(device);
  const cbp = new SpatialHash();
  const lo = { x: 0, y: 0, z: 0 };
  const hi = { x: 0, y: 0, z: 0 };
  const setBox = (i: number) => {
    lo.x = pos[3 * i] - half[i];
    lo.y = pos[3 * i + 1] - half[i];
    lo.z = pos[3 * i + 2] - half[i];
    hi.x = pos[3 * i] + half[i];
    hi.y = pos[3 * i + 1] + half[i];
    hi.z = pos[3 * i + 2] + half[i];
  };
  for (let i = 0; i < n; i++) {
    setBox(i);
    gbp.insert(i, lo, hi);
    cbp.insert(i, lo, hi);
  }
  const frames = n >= 1000000 ? 2 : n >= 100000 ? 3 : 5;
  const gt: number[] = [];
  const ct: number[] = [];
  const gp = new PairSet();
  const cp = new PairSet();
  let equal = true;
  for (let f = 0; f <= frames; f++) {
    for (let i = 0; i < n; i++) {
      pos[3 * i] += 0.05 * (rng() - 0.5);
      pos[3 * i + 1] += 0.05 * (rng() - 0.5);
      setBox(i);
      gbp.move(i, lo, hi);
      cbp.move(i, lo, hi);
    }
    let t = performance.now();
    await gbp.computePairsAsync(gp);
    if (f > 0) gt.push(performance.now() - t);
    t = performance.now();
    cbp.computePairs(cp);
    if (f > 0) ct.push(performance.now() - t);
    if (gp.size !== cp.size) equal = false;
    else for (let k = 0; k < gp.size; k++) if (gp.keyAt(k) !== cp.keyAt(k)) equal = false;
  }
  report({ stage: "broad phase", n, gpuMs: median(gt), cpuMs: median(ct), equal });
  gbp.destroy();

  // Narrow phase: n pairs of posed spheres, cuboids and capsules at random distances.
  const shapes: Shape[] = [];
  const poses: Isometry[] = [];
  const pairs = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const a = shapeOf(rng, i);
    const b = shapeOf(rng, i + 1 + Math.floor(3 * rng()));
    const x = side * rng();
    shapes.push(a, b);
    poses.push(
      { translation: { x, y: 0, z: 0 }, rotation: randomRotation(rng) },
      { translation: { x: x + 2 * rng(), y: rng(), z: rng() }, rotation: randomRotation(rng) },
    );
    pairs[2 * i] = 2 * i;
    pairs[2 * i + 1] = 2 * i + 1;
  }
  const np = createGpuNarrowPhase(device);
  const batch = { shapes, poses, pairs };
  await np.contacts({ shapes, poses, pairs: pairs.subarray(0, 2) }); // compile
  // A warm-up run of each side (JIT, pipelines, buffers), then the median of `runs` timed runs:
  // a single cold call measured start-up, not throughput.
  const runs = n <= 100_000 ? 3 : 1;
  let res = await np.contacts(batch);
  const hits = new Uint8Array(n);
  const cpuContacts = () => {
    for (let i = 0; i < n; i++)
      hits[i] =
        contact(shapes[2 * i], poses[2 * i], shapes[2 * i + 1], poses[2 * i + 1]) === null ? 0 : 1;
  };
  cpuContacts();
  const gn: number[] = [];
  const cn: number[] = [];
  for (let k = 0; k < runs; k++) {
    let t = performance.now();
    res = await np.contacts(batch);
    gn.push(performance.now() - t);
    t = performance.now();
    cpuContacts();
    cn.push(performance.now() - t);
  }
  const gpuNarrow = median(gn);
  const cpuNarrow = median(cn);
  let narrowEqual = true;
  for (let i = 0; i < n; i++) if (hits[i] !== res.intersects[i]) narrowEqual = false;
  report({
    stage: "narrow phase",
    n,
    gpuMs: gpuNarrow,
    cpuMs: cpuNarrow,
    cpuResolved: res.cpuPairs,
    equal: narrowEqual,
    runs,
  });
  np.destroy();

  // Rays: n rays into 10,000 static shapes.
  const m = Math.min(10000, n);
  const rs: Shape[] = [];
  const rp: Isometry[] = [];
  const box = Math.cbrt(8 * m);
  for (let i = 0; i < m; i++) {
    rs.push(shapeOf(rng, i));
    rp.push({
      translation: { x: box * rng(), y: box * rng(), z: box * rng() },
      rotation: randomRotation(rng),
    });
  }
  const rc = createGpuRayCaster(device, { shapes: rs, poses: rp });
  const rays = new Float64Array(6 * n);
  for (let r = 0; r < n; r++) {
    rays[6 * r] = box * rng();
    rays[6 * r + 1] = box * rng();
    rays[6 * r + 2] = -1;
    rays[6 * r + 3] = rng() - 0.5;
    rays[6 * r + 4] = rng() - 0.5;
    rays[6 * r + 5] = 1;
  }
  await rc.castRays(rays.subarray(0, 6)); // compile
  let rh = await rc.castRays(rays);
  const gr: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    rh = await rc.castRays(rays);
    gr.push(performance.now() - t);
  }
  const gpuRays = median(gr);
  const world = new CollisionWorld({ broadphase: "tree" });
  for (let i = 0; i < m; i++) world.addBody({ shape: rs[i], pose: rp[i] });
  const o = { x: 0, y: 0, z: 0 };
  const d = { x: 0, y: 0, z: 0 };
  let rayEqual = true;
  castRayClosest(world, o, { x: 1, y: 0, z: 0 }); // builds the query structure
  const cpuHit = new Float64Array(n);
  const cpuCast = () => {
    for (let r = 0; r < n; r++) {
      o.x = rays[6 * r];
      o.y = rays[6 * r + 1];
      o.z = rays[6 * r + 2];
      d.x = rays[6 * r + 3];
      d.y = rays[6 * r + 4];
      d.z = rays[6 * r + 5];
      const h = castRayClosest(world, o, d);
      cpuHit[r] = h === null ? -1 : h.handle;
    }
  };
  cpuCast();
  const cr: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    cpuCast();
    cr.push(performance.now() - t);
  }
  const cpuRays = median(cr);
  const indexOf = new Map<number, number>();
  const handles = world.handles();
  for (let i = 0; i < handles.length; i++) indexOf.set(handles[i], i);
  for (let r = 0; r < n; r++) {
    const want = cpuHit[r] < 0 ? -1 : indexOf.get(cpuHit[r]);
    if (rh.hit[r] !== want) rayEqual = false;
  }
  report({
    stage: "rays",
    n,
    gpuMs: gpuRays,
    cpuMs: cpuRays,
    cpuResolved: rh.cpuRays,
    equal: rayEqual,
    runs,
  });
  rc.destroy();
}

const out = { adapter: description, software, quick, rows, date: new Date().toISOString() };
const dir = join(dirname(fileURLToPath(import.meta.url)), "results");
mkdirSync(dir, { recursive: true });
const stamp = out.date.replace(/[:.]/g, "-");
writeFileSync(
  join(dir, `gpu-${stamp}${quick ? "-quick" : ""}.json`),
  `${JSON.stringify(out, null, 2)}\n`,
);
print(`kept in bench/results/gpu-${stamp}${quick ? "-quick" : ""}.json`);
if (json) process.stdout.write(`${JSON.stringify(out)}\n`);
device.destroy();
process.exit(rows.every((r) => r.equal) ? 0 : 1);
