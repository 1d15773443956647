/**
 * Child-process probe of test/world/steady-state.test.ts, run as
 * `node --expose-gc --no-memory-reducer --import tsx test/world/steady-state-probe.ts <broadphase> <n> <steps> <mode> [warm]`
 * (`WARMUP=<frames>` sets the warm-up, 1,000 by default; `APP_LITERALS=1` first builds object
 * literals an application might, see below; `HEAP_PROFILE=1` adds a window under V8's sampling
 * heap profiler and prints its allocation sites, `HEAP_BY=leaf` by allocating function): builds
 * the benchmark scene, collects the set-up's garbage, warms the world up (so that the JIT has compiled the step), then runs `steps`
 * steps moving every body each frame, and prints as JSON the heap growth over those steps and
 * the number of collections that ran meanwhile (a PerformanceObserver of "gc" entries). When no
 * collection ran, heap growth is the number of bytes allocated.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { makeBenchScene, moveScene } from "../../bench/world-scene.js";
import type { Isometry } from "../../src/math/isometry.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import {
  type BodyHandle,
  CollisionWorld,
  prepareWorld,
  type WorldBroadPhase,
} from "../../src/world/index.js";
import { BOX_TRIANGLES, boxCorners, boxMesh } from "../support/box-mesh.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const broadphase = (process.argv[2] ?? "tree") as WorldBroadPhase;
const n = Number(process.argv[3] ?? 1000);
const steps = Number(process.argv[4] ?? 1000);
/**
 * "full": the whole pipeline; "broad": masks 0, so the step is broad phase + filter + cache;
 * "kinds": every fourth body static and every fourth (offset 1) asleep, neither moved; the
 * others moved by one `setPoses` call per frame; "mesh": every fourth body a triangle mesh (a
 * closed box of 12 triangles with the box's half extents, or the sphere's radius), so the step
 * runs the mesh pairs (mesh–sphere, mesh–box, mesh–mesh) through the composite mid-phase;
 * "plane": a static half-space and, over it, `n` bodies in a grid, heightfields (10 × 10) and
 * closed box meshes by turns, moved up and down through the plane (the half-space × heightfield
 * and × mesh routines, src/narrowphase/half-space-vertices.ts); "curved": the bodies by turns a
 * cylinder, a cone, a rounded box, a rounded convex polyhedron, a capsule and a solid closed box
 * mesh (`solid: true`), sized like the scene's body, so the step runs the closed forms of the
 * solids of revolution, GJK/EPA with the normal's refinement on curved supports, and the solid
 * mesh's pairs (the surface contacts and a shape crossing or inside the solid).
 */
const mode = process.argv[5] ?? "full";
/** "kinds" or "threads-kinds" (the same with the 2-thread executor: `setPoses` batches of 4,096+ bodies run their first pass on both threads). */
const kinds = mode === "kinds" || mode === "threads-kinds";
/** "warm": the world's `warmStart` option on (src/world/warm-start-cache.ts). */
const warmStart = process.argv[6] === "warm";
const warmup = Number(process.env.WARMUP ?? 1000);
const meshes = mode === "mesh";
const plane = mode === "plane";
const curved = mode === "curved";

/** `CURVED_ONLY=0,1` (env): the "curved" mode's bodies only of these kinds (0 cylinder, 1 cone, 2 rounded box, 3 rounded polyhedron, 4 capsule, 5 solid mesh), to find which pair allocates. */
const CURVED_ONLY = (process.env.CURVED_ONLY ?? "")
  .split(",")
  .filter((s) => s !== "")
  .map(Number);
/** Body i of the "curved" mode (see `mode`), of the scene's size `r` (a sphere's radius). */
function curvedShape(i: number, r: number): Shape {
  switch (CURVED_ONLY.length > 0 ? CURVED_ONLY[i % CURVED_ONLY.length] : i % 6) {
    case 0:
      return makeCylinder(r, 0.8 * r);
    case 1:
      return makeCone(r, r);
    case 2:
      return makeRoundedCuboid({ x: 0.7 * r, y: 0.5 * r, z: 0.6 * r }, 0.2 * r);
    case 3:
      return makeRoundedConvexPolyhedron(
        [
          r,
          0,
          0,
          -r,
          0,
          0,
          0,
          0.8 * r,
          0,
          0,
          -0.8 * r,
          0,
          0,
          0,
          0.7 * r,
          0.3 * r,
          0.2 * r,
          -0.7 * r,
        ],
        0.15 * r,
      );
    case 4:
      return makeCapsule({ x: -0.6 * r, y: 0, z: 0 }, { x: 0.6 * r, y: 0, z: 0 }, 0.5 * r);
    default:
      return makeTriangleMesh(
        new Float64Array(boxCorners(r, 0.8 * r, 0.9 * r).flat()),
        new Uint32Array(BOX_TRIANGLES.flat()),
        "",
        { solid: true },
      );
  }
}

const scene = makeBenchScene(n, 7);
// APP_LITERALS=1: objects an application may well write before it makes its world (pair
// routines as `collide/core` users register them, key by key or in any key order). Object
// literals share root maps with every literal of as many properties, so these would make the
// `distance` field of literal contact records tagged (every stored double boxed): the records
// are class instances so that nothing outside can reach their maps (src/narrowphase/contact.ts).
if (process.env.APP_LITERALS === "1") {
  const f = () => false;
  const routines: Record<string, unknown>[] = [
    { distance: f, contact: f, manifold: f, intersects: f },
    { distance: f, contact: f, manifold: f },
    { pointA: f, pointB: f, distance: f, featureId: f },
  ];
  const keyByKey: Record<string, unknown> = {};
  keyByKey.distance = f;
  routines.push(keyByKey, { ...{ distance: "n/a", normal: null, pointA: null, pointB: null } });
  if (routines.length !== 5) throw new Error("unreachable");
}
// "threads": the full pipeline with a 2-thread WorkerExecutor (narrow phase and, on the grid,
// the candidate merge on both threads); the calling thread's heap is measured.
const executor =
  mode === "threads" || mode === "threads-kinds"
    ? new WorkerExecutor({ threads: 2, minPairs: 0 })
    : null;
if (executor !== null) await executor.ready();
/** `REORDER_AT=<bodies>` (env): the world's `reorderSlotsAt` (its spatial reordering of the slots at the first step). */
const reorderAt = process.env.REORDER_AT;
const world = new CollisionWorld({
  broadphase,
  executor,
  warmStart,
  ...(reorderAt === undefined ? {} : { reorderSlotsAt: Number(reorderAt) }),
});
const poses: Isometry[] = [];
const handles: BodyHandle[] = [];
const ground = makeHeightfield({
  rows: 10,
  cols: 10,
  heights: Array.from({ length: 100 }, (_, i) => 0.3 * Math.sin(i)),
  scale: { x: 0.5, y: 1, z: 0.5 },
});
const groundMesh = boxMesh(1, 1, 1);
if (plane) {
  world.addBody({
    shape: makeHalfSpace({ x: 0, y: 1, z: 0 }, 0),
    pose: { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
    kind: "static",
  });
}
for (let i = 0; i < n && plane; i++) {
  const p: Isometry = {
    translation: { x: (i % 32) * 12.5, y: 0.5, z: Math.floor(i / 32) * 12.5 },
    rotation: { x: 0, y: 0, z: 0.09983341664682815, w: 0.9950041652780258 },
  };
  poses.push(p);
  handles.push(world.addBody({ shape: i % 2 === 0 ? ground : groundMesh, pose: p }));
}
for (let i = 0; i < n && !plane; i++) {
  const sz = scene.size;
  const shape = curved
    ? curvedShape(i, sz[3 * i])
    : meshes && i % 4 === 0
      ? scene.kind[i] === 0
        ? boxMesh(sz[3 * i], sz[3 * i], sz[3 * i])
        : boxMesh(sz[3 * i], sz[3 * i + 1], sz[3 * i + 2])
      : scene.kind[i] === 0
        ? makeSphere(sz[3 * i])
        : makeCuboid({ x: sz[3 * i], y: sz[3 * i + 1], z: sz[3 * i + 2] });
  const p: Isometry = {
    translation: { x: scene.pos[3 * i], y: scene.pos[3 * i + 1], z: scene.pos[3 * i + 2] },
    rotation: {
      x: scene.rot[4 * i],
      y: scene.rot[4 * i + 1],
      z: scene.rot[4 * i + 2],
      w: scene.rot[4 * i + 3],
    },
  };
  poses.push(p);
  const kind = kinds && i % 4 === 0 ? "static" : "dynamic";
  handles.push(world.addBody({ shape, pose: p, kind, mask: mode === "broad" ? 0 : 0xffffffff }));
  if (kinds && i % 4 === 1) world.sleep(handles[i]);
}
// `PREPARE=1` (env): `prepareWorld` (src/world/prepare.ts) before the first step, as a level is
// loaded; the steps after it must allocate no more than without it.
if (process.env.PREPARE === "1") prepareWorld(world);
/** The bodies `setPoses` moves in "kinds" mode, and their poses. */
const movers = handles.filter((_, i) => i % 4 >= 2);
const moverIndex = handles.map((_, i) => i).filter((i) => i % 4 >= 2);
const moverPoses = new Float64Array(7 * movers.length);

function frame(f: number): number {
  if (plane) {
    for (let i = 0; i < n; i++) {
      poses[i].translation.y = 0.2 * Math.sin(0.01 * f + i);
      world.setPose(handles[i], poses[i]);
    }
    world.step();
    return world.contactCount + world.events().begin.count;
  }
  moveScene(scene, f);
  const pos = scene.pos;
  if (kinds) {
    for (let j = 0; j < moverIndex.length; j++) {
      const i = moverIndex[j];
      const r = poses[i].rotation;
      moverPoses[7 * j] = pos[3 * i];
      moverPoses[7 * j + 1] = pos[3 * i + 1];
      moverPoses[7 * j + 2] = pos[3 * i + 2];
      moverPoses[7 * j + 3] = r.x;
      moverPoses[7 * j + 4] = r.y;
      moverPoses[7 * j + 5] = r.z;
      moverPoses[7 * j + 6] = r.w;
    }
    world.setPoses(movers, moverPoses);
    world.step();
    return world.contactCount + world.events().begin.count;
  }
  for (let i = 0; i < n; i++) {
    const t = poses[i].translation;
    t.x = pos[3 * i];
    t.y = pos[3 * i + 1];
    t.z = pos[3 * i + 2];
    world.setPose(handles[i], poses[i]);
  }
  world.step();
  return world.contactCount + world.events().begin.count;
}

/** Frames `from ..= to`. One function for the warm-up and the measured run, so that the measured
 * loop is already compiled: compiling it (on-stack replacement) would allocate code and count. */
function run(from: number, to: number): number {
  let s = 0;
  for (let f = from; f <= to; f++) s += frame(f);
  return s;
}

let gcs = 0;
/** The window's collections by kind (`perf_hooks` constants: 1 minor, 4 major, 8 incremental, 16 weak callbacks). */
let gcKinds: number[] = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs++;
    gcKinds.push((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0);
  }
});
obs.observe({ entryTypes: ["gc"] });
// Collect the set-up's garbage first, then warm up: a forced collection clears weak references
// that optimized code embeds and so deoptimizes it ("weak objects"), and re-optimizing inside
// the measured steps would count the compiler's allocations as the step's.
gc();
gc();
let sink = run(1, warmup);
/**
 * Up to `WINDOWS` (env, 4 by default) consecutive windows of `steps` steps; the first with no collection and less
 * than `ACCEPT_BYTES_PER_STEP` of growth is reported (else the last). On a loaded machine the
 * JIT's background compilation can finish late, inside the first window, and the interpreted
 * steps before it allocate: later windows show the steady state the test is about. With
 * `REPORT=fewest` the window with the fewest collections is reported instead.
 */
const WINDOWS = Number(process.env.WINDOWS ?? 4);
const ACCEPT_BYTES_PER_STEP = 256;
const FEWEST = process.env.REPORT === "fewest";
let frameNo = warmup;
let result = { growth: 0, gcs: 0, before: 0, window: 0, kinds: [] as number[], cpuUs: 0 };
for (let w = 1; w <= WINDOWS; w++) {
  // Let the observer deliver the entries of the collections so far before counting.
  await new Promise((r) => setTimeout(r, 50));
  gcs = 0;
  gcKinds = [];
  const before = process.memoryUsage().heapUsed;
  const cpu0 = process.cpuUsage();
  sink += run(frameNo + 1, frameNo + steps);
  const cpu = process.cpuUsage(cpu0);
  const after = process.memoryUsage().heapUsed;
  frameNo += steps;
  await new Promise((r) => setTimeout(r, 50));
  // REPORT=fewest: every window runs and the one with the fewest collections is reported (a
  // rate test, where no window is expected clean, is then not failed by one late compilation);
  // of windows with as few, the one that grew least (a late compilation's allocations in the
  // first window, none collected, would otherwise stand for the steady state of the next).
  const growth = after - before;
  if (!(FEWEST && w > 1 && (gcs > result.gcs || (gcs === result.gcs && growth >= result.growth)))) {
    result = {
      growth,
      gcs,
      before,
      window: w,
      kinds: gcKinds,
      cpuUs: cpu.user + cpu.system,
    };
  }
  if (gcs === 0 && after - before < ACCEPT_BYTES_PER_STEP * steps) break;
}
// HEAP_PROFILE=1: one more window of `steps` steps under V8's sampling heap profiler (interval
// 512 bytes), and its allocation sites by self size on stderr (a diagnosis aid; not measured).
if (process.env.HEAP_PROFILE === "1") {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  sink += run(frameNo + 1, frameNo + steps);
  frameNo += steps;
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as {
    profile: { head: HeapNode };
  };
  interface HeapNode {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: HeapNode[];
  }
  const sites: { size: number; at: string }[] = [];
  const walk = (node: HeapNode, stack: string[]) => {
    const cf = node.callFrame;
    const here = `${cf.functionName || "(anon)"} ${cf.url.split("/").slice(-2).join("/")}:${cf.lineNumber + 1}`;
    const path = [...stack, here];
    if (node.selfSize > 0)
      sites.push({
        size: node.selfSize,
        at: path.slice(-Number(process.env.HEAP_DEPTH ?? 4)).join(" < "),
      });
    for (const c of node.children) walk(c, path);
  };
  walk(profile.head, []);
  if (process.env.HEAP_BY === "leaf") {
    const byLeaf = new Map<string, number>();
    for (const s of sites) {
      const leaf = s.at.split(" < ").pop() as string;
      byLeaf.set(leaf, (byLeaf.get(leaf) ?? 0) + s.size);
    }
    sites.length = 0;
    for (const [at, size] of byLeaf) sites.push({ size, at });
  }
  sites.sort((a, b) => b.size - a.size);
  for (const s of sites.slice(0, Number(process.env.HEAP_TOP ?? 25)))
    process.stderr.write(`${(s.size / steps).toFixed(0).padStart(8)} B/step  ${s.at}\n`);
  session.disconnect();
}
const gcsDuring = result.gcs;
gc();
const afterGc = process.memoryUsage().heapUsed;
const before = result.before;
const after = before + result.growth;
obs.disconnect();
process.stdout.write(
  `${JSON.stringify({
    broadphase,
    mode,
    n,
    steps,
    heapGrowthBytes: after - before,
    bytesPerStep: (after - before) / steps,
    heapAfterGcDeltaBytes: afterGc - before,
    gcsDuring,
    gcKinds: result.kinds,
    window: result.window,
    // CPU time of the reported window per step, ms (the process's, so the JIT's background
    // threads count too; for A/B timings on one machine).
    cpuMsPerStep: result.cpuUs / 1000 / steps,
    contacts: world.contactCount,
    parallelMerges:
      (world as unknown as { bp: { parallelMerges?: number } }).bp.parallelMerges ?? 0,
    sink,
  })}\n`,
);
await executor?.dispose();
