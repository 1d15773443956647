/**
 * Child-process probe of test/narrowphase/mesh-ray-alloc.test.ts, run as
 * `node --expose-gc --no-memory-reducer --max-semi-space-size=64 --import tsx test/narrowphase/mesh-ray-alloc-probe.ts <mode>`
 * with mode "general" (no zero component in any direction: the traversal's sign-known slab test)
 * or "axis" (every direction's x zero: the general slab test with its NaN cases). Casts 20,000
 * rays at the bunny (after 20 warm-up passes, so the code is compiled), through
 * `castRayTriangleMesh` and through the public `castRayShape` at a turned, shifted pose, and
 * through a world's `castRayClosest` (600 static boxes, spheres and bunnies, a caller's hit record),
 * and prints as JSON the heap growth per ray of each and the collections that ran meanwhile (none:
 * then the growth is the bytes allocated).
 */
import { PerformanceObserver } from "node:perf_hooks";
import { bunnyMeshData } from "../../src/io/mesh-loaders.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import { castRayTriangleMesh, makeMeshRayHit } from "../../src/narrowphase/mesh-ray.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import {
  type BodyHandle,
  CollisionWorld,
  castRayClosest,
  type WorldRayHit,
} from "../../src/world/index.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const axis = process.argv[2] === "axis";
const data = bunnyMeshData();
const mesh = makeTriangleMesh(data.vertices, data.indices);
const count = 20_000;
// Origins on a sphere around the mesh, aimed at random points of its box.
const rays = new Float64Array(6 * count);
const rng = makeRandom(11);
const b = mesh.bvh.bounds;
const cx = (b[0] + b[3]) / 2;
const cy = (b[1] + b[4]) / 2;
const cz = (b[2] + b[5]) / 2;
const r = Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
for (let i = 0; i < count; i++) {
  const u = 2 * rng() - 1;
  const phi = 2 * Math.PI * rng();
  const s = Math.sqrt(1 - u * u);
  const ox = cx + r * s * Math.cos(phi);
  const oy = cy + r * s * Math.sin(phi);
  const oz = cz + r * u;
  rays.set(
    [
      axis ? cx : ox,
      oy,
      oz,
      axis ? 0 : b[0] + rng() * (b[3] - b[0]) - ox,
      b[1] + rng() * (b[4] - b[1]) - oy,
      b[2] + rng() * (b[5] - b[2]) - oz,
    ],
    6 * i,
  );
}
const hit = makeMeshRayHit();
const rayHit = makeRayHit();
const pose = iso.create({ x: 3, y: -2, z: 1e3 }, { x: 0.2, y: 0.4, z: 0.1, w: Math.sqrt(0.79) });
const o = { x: 0, y: 0, z: 0 };
const d = { x: 0, y: 0, z: 0 };
function load(i: number): void {
  o.x = rays[6 * i];
  o.y = rays[6 * i + 1];
  o.z = rays[6 * i + 2];
  d.x = rays[6 * i + 3];
  d.y = rays[6 * i + 4];
  d.z = rays[6 * i + 5];
}
function local(): number {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    load(i);
    if (castRayTriangleMesh(hit, mesh, o, d, 1e9)) hits++;
  }
  return hits;
}
function world(): number {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    load(i);
    iso.transformPoint(o, pose, o);
    iso.transformVector(d, pose, d);
    if (castRayShape(rayHit, mesh, pose, o, d, 1e9, true)) hits++;
  }
  return hits;
}
// A world of 600 static bodies (boxes, spheres, the bunny) spread over 30 mesh sizes, and its
// closest-hit ray cast with a caller's hit record.
const scene = new CollisionWorld();
const wr = makeRandom(12);
for (let i = 0; i < 600; i++) {
  const shape =
    i % 3 === 0
      ? makeCuboid({ x: 0.3 * r, y: 0.2 * r, z: 0.4 * r })
      : i % 3 === 1
        ? makeSphere(0.3 * r)
        : mesh;
  scene.addBody({
    shape,
    kind: "static",
    pose: iso.create({ x: 30 * r * wr(), y: 30 * r * wr(), z: 30 * r * wr() }),
  });
}
scene.step();
const worldHit: WorldRayHit = {
  handle: 0 as BodyHandle,
  toi: 0,
  point: { x: 0, y: 0, z: 0 },
  normal: { x: 0, y: 0, z: 0 },
};
function worldRays(): number {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    load(i);
    o.x += 15 * r;
    o.y += 15 * r;
    o.z += 15 * r;
    if (castRayClosest(scene, o, d, 30, undefined, worldHit) !== null) hits++;
  }
  return hits;
}
let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ["gc"] });
function measure(run: () => number): { bytesPerRay: number; gcs: number; hits: number } {
  for (let k = 0; k < 20; k++) run();
  let best = { bytesPerRay: Number.POSITIVE_INFINITY, gcs: 0, hits: 0 };
  // The least of three windows: a window may hold the JIT finishing a compilation.
  for (let w = 0; w < 3; w++) {
    gc?.();
    gc?.();
    gcs = 0;
    const before = process.memoryUsage().heapUsed;
    const hits = run();
    const grown = process.memoryUsage().heapUsed - before;
    if (grown / count < best.bytesPerRay) best = { bytesPerRay: grown / count, gcs, hits };
  }
  return best;
}
const localResult = measure(local);
const worldResult = measure(world);
const sceneResult = measure(worldRays);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(
  JSON.stringify({
    mode: axis ? "axis" : "general",
    local: localResult,
    world: worldResult,
    scene: sceneResult,
  }),
);
