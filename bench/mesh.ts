/**
 * Triangle-mesh benchmarks: BVH build time and closest-hit ray casts per second on the Stanford
 * bunny (3,674 triangles) and on a ~10^6-triangle mesh made from it by midpoint subdivision,
 * for Collide (binned-SAH flat BVH, watertight ray–triangle), `three-mesh-bvh` (three.js's BVH,
 * `raycastFirst`) and Rapier's `TriMesh` shape (`@dimforge/rapier3d-compat`, WebAssembly), on
 * the very same rays in one process. Hit counts are reported so that disagreements show.
 *
 * Run alone: `node --import tsx bench/mesh.ts [--json]`.
 */
import RAPIER from "@dimforge/rapier3d-compat";
import * as THREE from "three";
import { MeshBVH } from "three-mesh-bvh";
import { buildMeshBvh } from "../src/geometry/mesh-bvh.js";
import { bunnyMeshData, type MeshData } from "../src/io/mesh-loaders.js";
import * as iso from "../src/math/isometry.js";
import { makeRandom } from "../src/math/random.js";
import { castRayTriangleMesh, makeMeshRayHit } from "../src/narrowphase/mesh-ray.js";
import { projectPoints } from "../src/query/project-point.js";
import { makeTriangleMesh } from "../src/shapes/triangle-mesh.js";

/** One engine's numbers on one mesh. */
export interface MeshBenchEngine {
  /** Time to build the acceleration structure, milliseconds (median of runs). */
  buildMs: number;
  /** Closest-hit ray casts per second. */
  raysPerSecond: number;
  /** Rays that hit. */
  hits: number;
  /**
   * Closest point on the mesh to points spread over its box (10% margin), microseconds of CPU
   * time (`process.cpuUsage`, so that other processes on a loaded machine count less) per
   * query, median of runs: Collide's `projectPoints` (with the inside/outside sign),
   * three-mesh-bvh's `closestPointToPoint` (no sign). Absent for engines without the query.
   */
  closestPointUs?: number;
}

/** One mesh's row. */
export interface MeshBenchRow {
  mesh: string;
  triangles: number;
  rays: number;
  /** Collide's full `makeTriangleMesh` (BVH + edge adjacency + active edges), milliseconds. */
  collideMeshMs: number;
  engines: Record<string, MeshBenchEngine>;
}

/** 4-way midpoint subdivision, sharing edge midpoints; `levels` times. */
function subdivide(data: MeshData, levels: number): MeshData {
  let v = Array.from(data.vertices);
  let idx = Array.from(data.indices);
  for (let l = 0; l < levels; l++) {
    const mids = new Map<number, number>();
    const n = v.length / 3;
    const mid = (a: number, b: number) => {
      const key = Math.min(a, b) * n + Math.max(a, b);
      let m = mids.get(key);
      if (m === undefined) {
        m = v.length / 3;
        v.push(
          0.5 * (v[3 * a] + v[3 * b]),
          0.5 * (v[3 * a + 1] + v[3 * b + 1]),
          0.5 * (v[3 * a + 2] + v[3 * b + 2]),
        );
        mids.set(key, m);
      }
      return m;
    };
    const next: number[] = [];
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t];
      const b = idx[t + 1];
      const c = idx[t + 2];
      const ab = mid(a, b);
      const bc = mid(b, c);
      const ca = mid(c, a);
      next.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
    }
    idx = next;
    v = v.slice();
  }
  return { vertices: Float64Array.from(v), indices: Uint32Array.from(idx) };
}

/** Rays from a sphere around the mesh toward random points of its bounding box. */
export function makeRays(data: MeshData, count: number, seed: number): Float64Array {
  const v = data.vertices;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], v[i + k]);
      hi[k] = Math.max(hi[k], v[i + k]);
    }
  }
  const c = lo.map((x, k) => 0.5 * (x + hi[k]));
  const r = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const rng = makeRandom(seed);
  const rays = new Float64Array(6 * count);
  for (let i = 0; i < count; i++) {
    const z = 2 * rng() - 1;
    const phi = 2 * Math.PI * rng();
    const s = Math.sqrt(1 - z * z);
    const o = [c[0] + r * s * Math.cos(phi), c[1] + r * s * Math.sin(phi), c[2] + r * z];
    const t = lo.map((x, k) => x + rng() * (hi[k] - x));
    const d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]];
    const len = Math.hypot(d[0], d[1], d[2]);
    rays.set([o[0], o[1], o[2], d[0] / len, d[1] / len, d[2] / len], 6 * i);
  }
  return rays;
}

/** Points spread uniformly over the mesh's box grown by 10% on each side, packed xyz. */
function makeQueryPoints(data: MeshData, count: number, seed: number): Float64Array {
  const v = data.vertices;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], v[i + k]);
      hi[k] = Math.max(hi[k], v[i + k]);
    }
  }
  const rng = makeRandom(seed);
  const pts = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const e = hi[k] - lo[k];
      pts[3 * i + k] = lo[k] - 0.1 * e + 1.2 * e * rng();
    }
  }
  return pts;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Runs `f` `runs` times, returning the median CPU time (user + system) in ms and the last result. */
function cpuTimed<T>(runs: number, f: () => T): { ms: number; value: T } {
  const times: number[] = [];
  let value = f();
  for (let i = 0; i < runs; i++) {
    const t0 = process.cpuUsage();
    value = f();
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / 1000);
  }
  return { ms: median(times), value };
}

/**
 * Runs `f` `runs` times (after one untimed call), returning the median wall time in ms and the
 * last result; `before`, when given, runs untimed ahead of every call.
 */
function timed<T>(runs: number, f: () => T, before?: () => void): { ms: number; value: T } {
  const times: number[] = [];
  before?.();
  let value = f();
  for (let i = 0; i < runs; i++) {
    before?.();
    const t0 = performance.now();
    value = f();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), value };
}

function benchMesh(
  name: string,
  data: MeshData,
  rayCount: number,
  buildRuns: number,
): MeshBenchRow {
  const tris = data.indices.length / 3;
  const rays = makeRays(data, rayCount, 7);
  const maxToi = 1e9;
  const engines: Record<string, MeshBenchEngine> = {};

  // Collide.
  const boxes = new Float64Array(6 * tris);
  const v = data.vertices;
  const idx = data.indices;
  const build = timed(buildRuns, () => {
    for (let t = 0; t < tris; t++) {
      const a = 3 * idx[3 * t];
      const b = 3 * idx[3 * t + 1];
      const c = 3 * idx[3 * t + 2];
      for (let k = 0; k < 3; k++) {
        boxes[6 * t + k] = Math.min(v[a + k], v[b + k], v[c + k]);
        boxes[6 * t + 3 + k] = Math.max(v[a + k], v[b + k], v[c + k]);
      }
    }
    return buildMeshBvh(boxes, tris, { reorderBounds: true });
  });
  const meshBuild = timed(Math.max(1, buildRuns >> 1), () => makeTriangleMesh(v, idx));
  const mesh = meshBuild.value;
  const hit = makeMeshRayHit();
  const o = { x: 0, y: 0, z: 0 };
  const d = { x: 0, y: 0, z: 0 };
  const collideRays = timed(3, () => {
    let hits = 0;
    for (let i = 0; i < rayCount; i++) {
      o.x = rays[6 * i];
      o.y = rays[6 * i + 1];
      o.z = rays[6 * i + 2];
      d.x = rays[6 * i + 3];
      d.y = rays[6 * i + 4];
      d.z = rays[6 * i + 5];
      if (castRayTriangleMesh(hit, mesh, o, d, maxToi)) hits++;
    }
    return hits;
  });
  const pointCount = 10_000;
  const queryPoints = makeQueryPoints(data, pointCount, 11);
  const pose = iso.identity();
  let projections = projectPoints(mesh, pose, queryPoints);
  const collidePoints = cpuTimed(9, () => {
    projections = projectPoints(mesh, pose, queryPoints, projections);
    return projections;
  });
  engines.collide = {
    buildMs: build.ms,
    raysPerSecond: rayCount / (collideRays.ms / 1000),
    hits: collideRays.value,
    closestPointUs: (1000 * collidePoints.ms) / pointCount,
  };

  // three-mesh-bvh (float32 positions, as three.js stores them).
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(Float32Array.from(v), 3));
  geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(idx), 1));
  // three-mesh-bvh sorts the geometry's index into its leaf order in place: each build starts
  // again from the mesh's own order (untimed), as Collide's builds do, rather than from the
  // last build's tree order (consecutive memory, few swaps).
  const threeIndex = geometry.index?.array as Uint32Array;
  const tBuild = timed(
    buildRuns,
    () => new MeshBVH(geometry),
    () => threeIndex.set(idx),
  );
  const bvh = tBuild.value;
  const ray = new THREE.Ray();
  const threeRays = timed(3, () => {
    let hits = 0;
    for (let i = 0; i < rayCount; i++) {
      ray.origin.set(rays[6 * i], rays[6 * i + 1], rays[6 * i + 2]);
      ray.direction.set(rays[6 * i + 3], rays[6 * i + 4], rays[6 * i + 5]);
      if (bvh.raycastFirst(ray, THREE.DoubleSide)) hits++;
    }
    return hits;
  });
  const probe = new THREE.Vector3();
  const closest = { point: new THREE.Vector3(), distance: 0, faceIndex: 0 };
  const threePoints = cpuTimed(9, () => {
    for (let i = 0; i < pointCount; i++) {
      probe.set(queryPoints[3 * i], queryPoints[3 * i + 1], queryPoints[3 * i + 2]);
      bvh.closestPointToPoint(probe, closest);
    }
    return closest.distance;
  });
  engines["three-mesh-bvh"] = {
    buildMs: tBuild.ms,
    raysPerSecond: rayCount / (threeRays.ms / 1000),
    hits: threeRays.value,
    closestPointUs: (1000 * threePoints.ms) / pointCount,
  };

  // Rapier's trimesh collider (float32, WebAssembly). Its `Shape.castRay` rebuilds the raw
  // shape on every call, so the rays go through a collider, which keeps its BVH.
  const fv = Float32Array.from(v);
  const fi = Uint32Array.from(idx);
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const rBuild = timed(buildRuns, () => {
    const col = world.createCollider(RAPIER.ColliderDesc.trimesh(fv, fi));
    return col;
  });
  const collider = rBuild.value;
  const rray = new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
  const rapierRays = timed(3, () => {
    let hits = 0;
    for (let i = 0; i < rayCount; i++) {
      rray.origin = { x: rays[6 * i], y: rays[6 * i + 1], z: rays[6 * i + 2] };
      rray.dir = { x: rays[6 * i + 3], y: rays[6 * i + 4], z: rays[6 * i + 5] };
      if (collider.castRay(rray, maxToi, false) >= 0) hits++;
    }
    return hits;
  });
  engines.rapier = {
    buildMs: rBuild.ms,
    raysPerSecond: rayCount / (rapierRays.ms / 1000),
    hits: rapierRays.value,
  };
  return { mesh: name, triangles: tris, rays: rayCount, collideMeshMs: meshBuild.ms, engines };
}

function print(rows: MeshBenchRow[]): void {
  console.log(
    "mesh BVH: build (ms, median), closest-hit rays per second (same rays for all) and closest point (CPU µs a query; Collide's with the inside/outside sign)",
  );
  for (const r of rows) {
    console.log(
      `\n${r.mesh}: ${r.triangles} triangles, ${r.rays} rays (Collide's full makeTriangleMesh ${r.collideMeshMs.toFixed(1)} ms)`,
    );
    console.log(
      `${"engine".padEnd(16)} ${"build ms".padStart(10)} ${"rays/s".padStart(12)} ${"hits".padStart(8)} ${"closest µs".padStart(11)}`,
    );
    for (const [name, e] of Object.entries(r.engines)) {
      console.log(
        `${name.padEnd(16)} ${e.buildMs.toFixed(2).padStart(10)} ${Math.round(e.raysPerSecond).toString().padStart(12)} ${String(e.hits).padStart(8)} ${(e.closestPointUs === undefined ? "–" : e.closestPointUs.toFixed(2)).padStart(11)}`,
      );
    }
  }
}

/**
 * Runs the mesh benchmarks (the bunny, then the bunny subdivided 4 times: 940,544 triangles) and
 * prints a table, or with `json` one JSON object `{"mesh": rows}`; returns the rows. `quick`
 * runs the bunny only.
 */
export async function runMeshBench(options: { json: boolean; quick?: boolean }): Promise<unknown> {
  await RAPIER.init();
  const bunny = bunnyMeshData();
  const rows = [benchMesh("bunny", bunny, 100_000, 9)];
  if (!options.quick) rows.push(benchMesh("bunny ×4 subdivided", subdivide(bunny, 4), 50_000, 1));
  if (options.json) console.log(JSON.stringify({ mesh: rows }));
  else print(rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runMeshBench({
    json: process.argv.includes("--json"),
    quick: process.argv.includes("--quick"),
  });
}
