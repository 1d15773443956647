/**
 * The GPU batch narrow phase (src/gpu/narrow-phase.ts) on SwiftShader against the CPU `contact`
 * query, pair by pair: `intersects` must be the CPU's on every pair; pairs the CPU resolved carry
 * the CPU's distance and normal bitwise; pairs the GPU resolved carry a distance within the stated
 * bound (GPU_NARROW_RELATIVE_ERROR × scale) of the CPU's and the same normal to within that bound.
 * Scenes: random poses, pairs constructed to touch exactly or to miss by a hair (1e-9 of scale,
 * below f32 resolution), far from the origin (1e6), tiny (1e-6) and huge (1e5) shapes, parallel
 * and axis-aligned boxes and capsules.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import {
  createGpuNarrowPhase,
  GPU_NARROW_RELATIVE_ERROR,
  type GpuContactBatch,
  RESOLVED_BY_CPU,
} from "../../src/gpu/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeRandom, type Random, randomRotation } from "../../src/math/random.js";
import { contact } from "../../src/query/contact.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { sharedDevice } from "./device.js";

let device: GPUDevice;
beforeAll(async () => {
  device = (await sharedDevice()).device;
});

function rotation(rng: Random, axisAligned: boolean): Isometry["rotation"] {
  return axisAligned ? { x: 0, y: 0, z: 0, w: 1 } : randomRotation(rng);
}

function shape(rng: Random, k: number, size: number): Shape {
  if (k === 0) return makeSphere(size * (0.2 + rng()));
  if (k === 1)
    return makeCuboid({
      x: size * (0.1 + rng()),
      y: size * (0.1 + rng()),
      z: size * (0.1 + rng()),
    });
  const h = size * (0.1 + rng());
  return makeCapsule({ x: 0, y: -h, z: 0 }, { x: 0, y: h, z: 0 }, size * (0.1 + 0.5 * rng()));
}

function radius(s: Shape): number {
  if (s.type === 0) return (s as { radius: number }).radius;
  return 3;
}

interface Scene {
  shapes: Shape[];
  poses: Isometry[];
  pairs: number[];
}

/** Random pairs around `origin`, scale `size`; optionally nudged to touch (within 1e-9·size). */
function scene(
  seed: number,
  count: number,
  origin: number,
  size: number,
  mode: "random" | "touch" | "aligned",
): Scene {
  const rng = makeRandom(seed);
  const s: Scene = { shapes: [], poses: [], pairs: [] };
  for (let i = 0; i < count; i++) {
    const a = shape(rng, Math.floor(rng() * 3), size);
    const b = shape(rng, Math.floor(rng() * 3), size);
    const aligned = mode === "aligned";
    const pa: Isometry = {
      translation: { x: origin + size * 10 * rng(), y: origin, z: -origin + size * rng() },
      rotation: rotation(rng, aligned),
    };
    const dir = { x: 2 * rng() - 1, y: 2 * rng() - 1, z: 2 * rng() - 1 };
    const dl = Math.hypot(dir.x, dir.y, dir.z);
    let dist = size * 3 * rng();
    const pb: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: rotation(rng, aligned) };
    const place = (d: number) => {
      pb.translation = {
        x: pa.translation.x + (d * dir.x) / dl,
        y: pa.translation.y + (d * dir.y) / dl,
        z: pa.translation.z + (d * dir.z) / dl,
      };
    };
    place(dist);
    if (mode === "touch") {
      // Bisect the centre distance to the touching one (CPU contact as the judge), then step off
      // by ±1e-9·size or stay exactly there: the adversarial near-touching pairs.
      let lo = 0;
      let hi = size * 6;
      for (let it = 0; it < 80; it++) {
        const mid = 0.5 * (lo + hi);
        place(mid);
        if (contact(a, pa, b, pb) === null) hi = mid;
        else lo = mid;
      }
      const r = rng();
      dist = r < 0.33 ? lo : r < 0.66 ? lo + 1e-9 * size : lo - 1e-9 * size;
      place(dist);
    }
    s.shapes.push(a, b);
    s.poses.push(pa, { ...pb });
    s.pairs.push(2 * i, 2 * i + 1);
  }
  void radius;
  return s;
}

function check(s: Scene, r: GpuContactBatch): { gpu: number; cpu: number; hits: number } {
  let gpu = 0;
  let hits = 0;
  expect(r.count).toBe(s.pairs.length / 2);
  for (let k = 0; k < r.count; k++) {
    const ia = s.pairs[2 * k];
    const ib = s.pairs[2 * k + 1];
    const c = contact(s.shapes[ia], s.poses[ia], s.shapes[ib], s.poses[ib]);
    if ((c !== null) !== (r.intersects[k] === 1)) {
      throw new Error(
        `pair ${k}: GPU intersects=${r.intersects[k]}, CPU ${c !== null}; ${JSON.stringify([s.shapes[ia], s.poses[ia], s.shapes[ib], s.poses[ib]])}`,
      );
    }
    if (c !== null) hits++;
    if (r.resolvedBy[k] === RESOLVED_BY_CPU) {
      if (c !== null) {
        expect(Object.is(r.distance[k], c.distance)).toBe(true);
        expect([r.normal[3 * k], r.normal[3 * k + 1], r.normal[3 * k + 2]]).toEqual([
          c.normal.x,
          c.normal.y,
          c.normal.z,
        ]);
      }
    } else {
      gpu++;
      if (c !== null) {
        const pa = s.poses[ia].translation;
        const pb = s.poses[ib].translation;
        const scale =
          Math.hypot(pb.x - pa.x, pb.y - pa.y, pb.z - pa.z) + 20 * Math.abs(c.distance) + 10;
        const eps = GPU_NARROW_RELATIVE_ERROR * scale;
        expect(Math.abs(r.distance[k] - c.distance)).toBeLessThanOrEqual(eps);
        const dot =
          r.normal[3 * k] * c.normal.x +
          r.normal[3 * k + 1] * c.normal.y +
          r.normal[3 * k + 2] * c.normal.z;
        expect(dot).toBeGreaterThan(1 - 1e-3);
      }
    }
  }
  if (process.env.GPU_TEST_VERBOSE) console.log({ gpu, cpu: r.cpuPairs, hits });
  return { gpu, cpu: r.cpuPairs, hits };
}

describe("GPU batch narrow phase: the CPU's answers", () => {
  it("random pairs of spheres, boxes and capsules", async () => {
    const s = scene(1, 4000, 0, 1, "random");
    const np = createGpuNarrowPhase(device);
    const n = check(s, await np.contacts(s));
    expect(n.hits).toBeGreaterThan(500);
    expect(n.gpu).toBeGreaterThan(2000);
  });

  it("pairs touching exactly or missing by 1e-9 of their size", async () => {
    const s = scene(2, 1500, 0, 1, "touch");
    const np = createGpuNarrowPhase(device);
    const n = check(s, await np.contacts(s));
    expect(n.cpu).toBeGreaterThan(1000);
  });

  it("far from the origin (1e6), touching and random", async () => {
    const np = createGpuNarrowPhase(device);
    check(scene(3, 800, 1e6, 1, "touch"), await np.contacts(scene(3, 800, 1e6, 1, "touch")));
    const s = scene(4, 2000, 1e6, 1, "random");
    const n = check(s, await np.contacts(s));
    expect(n.gpu).toBeGreaterThan(1000);
  });

  it("tiny (1e-6) and huge (1e5) shapes, axis-aligned boxes and parallel capsules", async () => {
    const np = createGpuNarrowPhase(device);
    for (const [seed, size, mode] of [
      [5, 1e-6, "random"],
      [6, 1e5, "random"],
      [7, 1, "aligned"],
      [8, 1e-6, "touch"],
      [9, 1, "aligned"],
    ] as const) {
      const s = scene(seed, 1000, 0, size, mode);
      check(s, await np.contacts(s));
    }
    const sa = scene(10, 1000, 0, 1, "aligned");
    // Touching aligned scenes too.
    const st = scene(11, 600, 0, 1, "touch");
    for (const p of st.poses) p.rotation = { x: 0, y: 0, z: 0, w: 1 };
    check(sa, await np.contacts(sa));
    check(st, await np.contacts(st));
  });

  it("refuses other shapes, bad indices; empty batches are fine", async () => {
    const np = createGpuNarrowPhase(device);
    const id: Isometry = {
      translation: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const tri = makeTriangle({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
    await expect(
      np.contacts({ shapes: [makeSphere(1), tri], poses: [id, id], pairs: [0, 1] }),
    ).rejects.toThrow(/batch.shapes\[1\].type/);
    await expect(
      np.contacts({ shapes: [makeSphere(1)], poses: [id], pairs: [0, 3] }),
    ).rejects.toThrow(CollideError);
    const r = await np.contacts({ shapes: [], poses: [], pairs: [] });
    expect(r.count).toBe(0);
    expect(() => createGpuNarrowPhase(null as unknown as GPUDevice)).toThrow(/GPUDevice/);
  });
});
