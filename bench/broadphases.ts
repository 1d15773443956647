/**
 * The five broad phases side by side on two seeded scenes, each moved a little every frame:
 * - `uniform`: 10,000 boxes of similar size (0.5–1.5) spread evenly in a cube;
 * - `city`: a clustered block of very mixed sizes — 200 buildings (10–40 wide, up to 80 tall),
 *   3,000 cars (about 4 × 2 × 1.5) on a street grid, 10,000 cans (0.1) clustered around
 *   the cars — the scene the issue names for a loose octree.
 * Per broad phase: median milliseconds per frame (every proxy moved, then `computePairs`) and
 * the pair count (identical across broad phases: they are exact).
 *
 * Run alone: `node --import tsx bench/broadphases.ts [--json]`.
 */

import type { BroadPhase } from "../src/broadphase/broad-phase.js";
import { BruteForceBroadPhase } from "../src/broadphase/brute-force.js";
import { DynamicTree } from "../src/broadphase/dynamic-tree.js";
import { LooseOctree } from "../src/broadphase/loose-octree.js";
import { PairSet } from "../src/broadphase/pair-set.js";
import { SpatialHash } from "../src/broadphase/spatial-hash.js";
import { SweepAndPrune } from "../src/broadphase/sweep-and-prune.js";
import { makeRandom } from "../src/math/random.js";

/** One broad phase on one scene. */
export interface BroadPhaseBenchRow {
  scene: string;
  broadphase: string;
  proxies: number;
  medianMs: number;
  pairs: number;
}

interface Scene {
  name: string;
  /** Boxes packed (minx, miny, minz, maxx, maxy, maxz). */
  boxes: Float64Array;
  /** Per proxy: moves each frame (static buildings do not). */
  moving: Uint8Array;
}

function uniformScene(n: number): Scene {
  const rnd = makeRandom(1);
  const side = 2 * Math.cbrt(n);
  const boxes = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    const c = [side * rnd(), side * rnd(), side * rnd()];
    for (let k = 0; k < 3; k++) {
      const h = 0.25 + 0.5 * rnd();
      boxes[6 * i + k] = c[k] - h;
      boxes[6 * i + 3 + k] = c[k] + h;
    }
  }
  return { name: "uniform 10k", boxes, moving: new Uint8Array(n).fill(1) };
}

function cityScene(): Scene {
  const rnd = makeRandom(2);
  const list: number[] = [];
  const moving: number[] = [];
  const add = (x: number, y: number, z: number, hx: number, hy: number, hz: number, m: number) => {
    list.push(x - hx, y - hy, z - hz, x + hx, y + hy, z + hz);
    moving.push(m);
  };
  for (let i = 0; i < 200; i++) {
    const hx = 5 + 15 * rnd();
    const hz = 5 + 15 * rnd();
    const hy = 5 + 35 * rnd();
    add(600 * rnd(), hy, 600 * rnd(), hx, hy, hz, 0);
  }
  const cars: number[][] = [];
  for (let i = 0; i < 3000; i++) {
    const street = Math.floor(12 * rnd()) * 50;
    const along = 600 * rnd();
    const c = rnd() < 0.5 ? [street, 0.75, along] : [along, 0.75, street];
    cars.push(c);
    add(c[0], c[1], c[2], 2, 0.75, 1, 1);
  }
  for (let i = 0; i < 10000; i++) {
    const car = cars[Math.floor(cars.length * rnd())];
    add(car[0] + 8 * rnd() - 4, 0.1, car[2] + 8 * rnd() - 4, 0.05, 0.1, 0.05, 1);
  }
  return { name: "city 13.2k", boxes: Float64Array.from(list), moving: Uint8Array.from(moving) };
}

function makeAll(): [string, () => BroadPhase][] {
  return [
    ["brute", () => new BruteForceBroadPhase()],
    ["sap", () => new SweepAndPrune()],
    ["grid", () => new SpatialHash()],
    ["tree", () => new DynamicTree()],
    ["octree", () => new LooseOctree()],
  ];
}

function runOne(
  scene: Scene,
  make: () => BroadPhase,
  frames: number,
): { ms: number; pairs: number } {
  const bp = make();
  const b = scene.boxes;
  const n = b.length / 6;
  const min = { x: 0, y: 0, z: 0 };
  const max = { x: 0, y: 0, z: 0 };
  const d = { x: 0, y: 0, z: 0 };
  for (let i = 0; i < n; i++) {
    min.x = b[6 * i];
    min.y = b[6 * i + 1];
    min.z = b[6 * i + 2];
    max.x = b[6 * i + 3];
    max.y = b[6 * i + 4];
    max.z = b[6 * i + 5];
    bp.insert(i, min, max);
  }
  const pairs = new PairSet();
  const times: number[] = [];
  for (let f = 0; f < frames; f++) {
    // The same three poses in turn, so every broad phase ends on the same frame.
    const dx = 0.01 * Math.sin(f % 3);
    d.x = dx;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      if (!scene.moving[i]) continue;
      min.x = b[6 * i] + dx * ((f % 3) + 1);
      min.y = b[6 * i + 1];
      min.z = b[6 * i + 2];
      max.x = b[6 * i + 3] + dx * ((f % 3) + 1);
      max.y = b[6 * i + 4];
      max.z = b[6 * i + 5];
      bp.move(i, min, max, d);
    }
    bp.computePairs(pairs);
    times.push(performance.now() - t0);
  }
  times.sort((p, q) => p - q);
  return { ms: times[Math.floor(times.length / 2)], pairs: pairs.size };
}

/** Runs every broad phase on both scenes. `frames` per run (the brute force gets 3). */
export function runBroadPhaseBench(frames = 15): BroadPhaseBenchRow[] {
  const rows: BroadPhaseBenchRow[] = [];
  for (const scene of [uniformScene(10000), cityScene()]) {
    for (const [name, make] of makeAll()) {
      const r = runOne(scene, make, name === "brute" ? 3 : frames);
      rows.push({
        scene: scene.name,
        broadphase: name,
        proxies: scene.boxes.length / 6,
        medianMs: r.ms,
        pairs: r.pairs,
      });
    }
  }
  return rows;
}

/** The rows as a text table. */
export function formatBroadPhaseRows(rows: BroadPhaseBenchRow[]): string {
  const lines = ["broad phases (move every proxy + computePairs), ms per frame:"];
  for (const r of rows) {
    lines.push(
      `  ${r.scene.padEnd(12)} ${r.broadphase.padEnd(7)} ${r.medianMs.toFixed(2).padStart(9)} ms  ${r.pairs} pairs`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = runBroadPhaseBench();
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows));
  else console.log(formatBroadPhaseRows(rows));
}
