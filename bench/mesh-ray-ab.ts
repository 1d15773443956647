/**
 * Mesh closest-hit ray casts, Collide against three-mesh-bvh, interleaved in one process so that
 * a shared machine's load falls on both alike: the bunny and bench/mesh.ts's 100,000 rays, then
 * `--rounds` rounds (default 7) each timing Collide's `castRayTriangleMesh` and three-mesh-bvh's
 * `raycastFirst` (double-sided) on all rays, by CPU time (`process.cpuUsage`). Prints the median
 * rays per second of each, the median of the rounds' ratios Collide ÷ three-mesh-bvh, the hit
 * counts (which must agree) and the load. `node --import tsx bench/mesh-ray-ab.ts [--rounds 7]`
 */
import { loadavg } from "node:os";
import * as THREE from "three";
import { MeshBVH } from "three-mesh-bvh";
import { bunnyMeshData } from "../src/io/mesh-loaders.js";
import { castRayTriangleMesh, makeMeshRayHit } from "../src/narrowphase/mesh-ray.js";
import { makeTriangleMesh } from "../src/shapes/triangle-mesh.js";
import { makeRays } from "./mesh.js";

const argv = process.argv.slice(2);
const at = argv.indexOf("--rounds");
const rounds = at >= 0 ? Number(argv[at + 1]) : 7;
const data = bunnyMeshData();
const count = 100_000;
const rays = makeRays(data, count, 7);
const mesh = makeTriangleMesh(data.vertices, data.indices);
const geometry = new THREE.BufferGeometry();
geometry.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(data.vertices), 3));
geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(data.indices), 1));
const bvh = new MeshBVH(geometry);

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const hit = makeMeshRayHit();
const o = { x: 0, y: 0, z: 0 };
const d = { x: 0, y: 0, z: 0 };
function collide(): number {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    o.x = rays[6 * i];
    o.y = rays[6 * i + 1];
    o.z = rays[6 * i + 2];
    d.x = rays[6 * i + 3];
    d.y = rays[6 * i + 4];
    d.z = rays[6 * i + 5];
    if (castRayTriangleMesh(hit, mesh, o, d, 1e9)) hits++;
  }
  return hits;
}
const ray = new THREE.Ray();
function three(): number {
  let hits = 0;
  for (let i = 0; i < count; i++) {
    ray.origin.set(rays[6 * i], rays[6 * i + 1], rays[6 * i + 2]);
    ray.direction.set(rays[6 * i + 3], rays[6 * i + 4], rays[6 * i + 5]);
    if (bvh.raycastFirst(ray, THREE.DoubleSide)) hits++;
  }
  return hits;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// Warm-up: both compiled before the first timed round.
collide();
three();
const ms: number[][] = [[], []];
const hits = [0, 0];
for (let r = 0; r < rounds; r++) {
  for (const [k, f] of [collide, three].entries()) {
    const t0 = cpu();
    hits[k] = f();
    ms[k].push(cpu() - t0);
  }
}
const ratios = ms[0].map((m, r) => ms[1][r] / m);
console.log(
  `bunny, ${count} rays, ${rounds} rounds: Collide ${((1000 * count) / median(ms[0]) / 1000).toFixed(0)}k rays/s, three-mesh-bvh ${((1000 * count) / median(ms[1]) / 1000).toFixed(0)}k; Collide ÷ three-mesh-bvh ${median(ratios).toFixed(2)}× (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); hits ${hits[0]} / ${hits[1]}; load ${loadavg()[0].toFixed(1)}`,
);
