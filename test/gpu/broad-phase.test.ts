/**
 * The GPU broad phase (src/gpu/broad-phase.ts) on SwiftShader against an independent oracle: an
 * O(n²) scan of the f64 boxes written here. The pair sets must be equal, key for key, on scenes
 * chosen where f32 goes wrong: boxes that touch exactly (shared faces on a lattice), boxes far from
 * the origin whose gaps (1e-9) f32 cannot represent, mixed sizes (huge boxes over tiny ones),
 * coordinates beyond the f32 range, and random scenes; plus a pair buffer that overflows and
 * grows, bodies moving and leaving between steps, and the refusals (no device, small limits, lost
 * device) with the opt-in CPU fallback.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PairSet } from "../../src/broadphase/pair-set.js";
import { CollideError } from "../../src/errors.js";
import { createGpuBroadPhase, type GpuBroadPhase } from "../../src/gpu/index.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { makeDevice, sharedDevice } from "./device.js";

interface Box {
  min: Vec3;
  max: Vec3;
}

function oracle(boxes: Map<number, Box>): number[] {
  const ids = [...boxes.keys()].sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const a = boxes.get(ids[i]) as Box;
    for (let j = i + 1; j < ids.length; j++) {
      const b = boxes.get(ids[j]) as Box;
      if (
        a.min.x <= b.max.x &&
        b.min.x <= a.max.x &&
        a.min.y <= b.max.y &&
        b.min.y <= a.max.y &&
        a.min.z <= b.max.z &&
        b.min.z <= a.max.z
      ) {
        out.push(ids[i] * 2 ** 26 + ids[j]);
      }
    }
  }
  return out;
}

function keys(p: PairSet): number[] {
  const out: number[] = [];
  for (let i = 0; i < p.size; i++) out.push(p.keyAt(i));
  return out;
}

let device: GPUDevice;
beforeAll(async () => {
  device = (await sharedDevice()).device;
});

async function expectOracle(bp: GpuBroadPhase, boxes: Map<number, Box>): Promise<number> {
  const got = keys(await bp.computePairsAsync(new PairSet()));
  const want = oracle(boxes);
  expect(got.length).toBe(want.length);
  expect(got).toEqual(want);
  return want.length;
}

function fill(bp: GpuBroadPhase, boxes: Map<number, Box>): void {
  for (const [id, b] of boxes) bp.insert(id, b.min, b.max);
}

function cube(x: number, y: number, z: number, h: number): Box {
  return { min: { x, y, z }, max: { x: x + h, y: y + h, z: z + h } };
}

describe("GPU broad phase: the oracle's pairs on SwiftShader", () => {
  it("random boxes (seeded)", async () => {
    const seed = 20261202;
    const rng = makeRandom(seed);
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 5000; i++) {
      boxes.set(3 * i + 1, cube(60 * rng(), 60 * rng(), 60 * rng(), 0.2 + 1.5 * rng()));
    }
    const bp = createGpuBroadPhase(device);
    fill(bp, boxes);
    const n = await expectOracle(bp, boxes);
    expect(n).toBeGreaterThan(400);
  });

  it("boxes that touch exactly on a lattice (shared faces, edges and corners)", async () => {
    // Unit cubes at integer offsets scaled by 0.1 (not a power of two: f32 rounds every bound).
    const boxes = new Map<number, Box>();
    let id = 0;
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        for (let k = 0; k < 12; k++) {
          const s = 0.1;
          boxes.set(id++, {
            min: { x: 3.7 + i * s, y: -1.3 + j * s, z: 0.9 + k * s },
            max: { x: 3.7 + (i + 1) * s, y: -1.3 + (j + 1) * s, z: 0.9 + (k + 1) * s },
          });
        }
      }
    }
    const bp = createGpuBroadPhase(device);
    fill(bp, boxes);
    await expectOracle(bp, boxes);
  });

  it("far from the origin: gaps of 1e-9 at 1e7, which f32 cannot represent", async () => {
    const boxes = new Map<number, Box>();
    const t = 1e7;
    for (let i = 0; i < 400; i++) {
      // Box i spans [t + i, t + i + 1 - 1e-9] on x: neighbours miss by 1e-9, or touch (every 7th).
      const gap = i % 7 === 0 ? 0 : 1e-9;
      boxes.set(i, {
        min: { x: t + i, y: -t, z: t },
        max: { x: t + i + 1 - gap, y: -t + 1, z: t + 1 },
      });
    }
    const bp = createGpuBroadPhase(device);
    fill(bp, boxes);
    const n = await expectOracle(bp, boxes);
    expect(bp.stats.candidates).toBeGreaterThan(n);
  });

  it("mixed sizes: huge boxes over many tiny ones, zero-size boxes, beyond the f32 range", async () => {
    const rng = makeRandom(77);
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 2000; i++) boxes.set(i, cube(100 * rng(), 100 * rng(), 100 * rng(), 1e-4));
    boxes.set(5000, { min: { x: -1e6, y: 40, z: -1e6 }, max: { x: 1e6, y: 41, z: 1e6 } });
    boxes.set(5001, cube(50, 50, 50, 0));
    boxes.set(5002, cube(50, 50, 50, 0));
    boxes.set(5003, { min: { x: 1e39, y: 0, z: 0 }, max: { x: 2e39, y: 1, z: 1 } });
    boxes.set(5004, { min: { x: 3e39, y: 0, z: 0 }, max: { x: 4e39, y: 1, z: 1 } });
    boxes.set(5005, { min: { x: -1e300, y: -1e300, z: -1e300 }, max: { x: -1e299, y: 1, z: 1 } });
    boxes.set(5006, { min: { x: 1e-45, y: 0, z: 0 }, max: { x: 2e-45, y: 1e-40, z: 1e-40 } });
    boxes.set(5007, { min: { x: 3e-45, y: 0, z: 0 }, max: { x: 4e-45, y: 1, z: 1 } });
    const bp = createGpuBroadPhase(device);
    fill(bp, boxes);
    await expectOracle(bp, boxes);
  });

  it("fast-check: random lattice scenes at random scales and offsets", async () => {
    const bp = createGpuBroadPhase(device);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.integer({ min: -6, max: 6 }),
            fc.integer({ min: -6, max: 6 }),
            fc.integer({ min: -6, max: 6 }),
            fc.integer({ min: 0, max: 3 }),
          ),
          { minLength: 0, maxLength: 120 },
        ),
        fc.constantFrom(1, 0.1, 1e-3, 1e4, 3.3e-7),
        fc.constantFrom(0, 1e6, -2.5e7, 0.3),
        async (cells, u, t) => {
          bp.clear();
          const boxes = new Map<number, Box>();
          cells.forEach(([i, j, k, w], id) => {
            boxes.set(id, {
              min: { x: t + i * u, y: t + j * u, z: t + k * u },
              max: { x: t + (i + w) * u, y: t + (j + w) * u, z: t + (k + w) * u },
            });
          });
          fill(bp, boxes);
          await expectOracle(bp, boxes);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("grows the pair buffer when the pairs overflow it, then keeps it", async () => {
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 300; i++) boxes.set(i, cube(0.01 * i, 0, 0, 5)); // 44,850 pairs
    const bp = createGpuBroadPhase(device);
    fill(bp, boxes);
    expect(await expectOracle(bp, boxes)).toBe(44850);
    expect(bp.stats.readbacks).toBe(2);
    await expectOracle(bp, boxes);
    expect(bp.stats.readbacks).toBe(1);
  });

  it("follows moves and removals between steps (buffers reused)", async () => {
    const rng = makeRandom(5);
    const boxes = new Map<number, Box>();
    const bp = createGpuBroadPhase(device);
    for (let i = 0; i < 700; i++) boxes.set(i, cube(20 * rng(), 20 * rng(), 20 * rng(), 1));
    fill(bp, boxes);
    for (let step = 0; step < 4; step++) {
      for (const [id] of boxes) {
        if (rng() < 0.3) {
          const b = cube(20 * rng(), 20 * rng(), 20 * rng(), 1 + rng());
          boxes.set(id, b);
          bp.move(id, b.min, b.max);
        } else if (rng() < 0.05) {
          boxes.delete(id);
          bp.remove(id);
        }
      }
      await expectOracle(bp, boxes);
    }
    // Down to one body, then none.
    bp.clear();
    boxes.clear();
    bp.insert(3, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 });
    boxes.set(3, cube(0, 0, 0, 1));
    expect(await expectOracle(bp, boxes)).toBe(0);
  });

  it("answers box queries and ray casts on the host like the brute force", () => {
    const bp = createGpuBroadPhase(device);
    bp.insert(0, { x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 1 });
    bp.insert(1, { x: 5, y: 0, z: 0 }, { x: 6, y: 1, z: 1 });
    const found: number[] = [];
    expect(bp.queryAabb({ x: 0.5, y: 0.5, z: 0.5 }, { x: 5, y: 0.5, z: 0.5 }, found)).toBe(2);
    expect(found.sort()).toEqual([0, 1]);
    const hits: number[] = [];
    bp.castRay({ x: -1, y: 0.5, z: 0.5 }, { x: 1, y: 0, z: 0 }, 100, (id) => {
      hits.push(id);
    });
    expect(hits.sort()).toEqual([0, 1]);
  });
});

describe("GPU broad phase: refusals", () => {
  const spare: GPUDevice[] = [];
  afterAll(() => {
    for (const d of spare) d.destroy();
  });

  it("refuses a missing device or something that is not one", () => {
    expect(() => createGpuBroadPhase(undefined as unknown as GPUDevice)).toThrow(
      /device must be a GPUDevice/,
    );
    expect(() => createGpuBroadPhase({} as GPUDevice)).toThrow(CollideError);
    expect(() => createGpuBroadPhase(device, { fallback: "maybe" as "cpu" })).toThrow(
      /gpu.fallback/,
    );
    // An unknown option is a typo, refused naming it (as the world's options are).
    expect(() =>
      createGpuBroadPhase(device, { bogus: 1 } as unknown as { fallback: "cpu" }),
    ).toThrow(/bogus/);
  });

  /** The real device with some limits reported smaller (a stand-in for a weaker adapter). */
  function withLimits(limits: Partial<Record<keyof GPUSupportedLimits, number>>): GPUDevice {
    const fakeLimits = new Proxy(device.limits, {
      get: (t, k) => (k in limits ? limits[k as keyof typeof limits] : Reflect.get(t, k)),
    });
    return new Proxy(device, {
      get: (t, k) => {
        if (k === "limits") return fakeLimits;
        const v = Reflect.get(t, k);
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  }

  it("names a limit the kernels need that the device lacks", () => {
    const weak = withLimits({ maxComputeInvocationsPerWorkgroup: 128 });
    try {
      createGpuBroadPhase(weak);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CollideError);
      expect((e as CollideError).field).toBe("device.limits.maxComputeInvocationsPerWorkgroup");
    }
  });

  it("names the buffer limit when the bodies do not fit, and the CPU fallback answers when asked", async () => {
    const small = withLimits({ maxStorageBufferBindingSize: 24 * 1024 });
    const bp = createGpuBroadPhase(small);
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 2000; i++) boxes.set(i, cube(i, 0, 0, 1));
    fill(bp, boxes);
    await expect(bp.computePairsAsync(new PairSet())).rejects.toThrow(
      /maxStorageBufferBindingSize/,
    );
    bp.fallback = "cpu";
    await expectOracle(bp, boxes);
  });

  it("a lost device rejects with CollideError; fallback cpu continues with the same pairs", async () => {
    const own = await makeDevice();
    spare.push(own.device);
    const bp = createGpuBroadPhase(own.device);
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 50; i++) boxes.set(i, cube(0.5 * i, 0, 0, 1));
    fill(bp, boxes);
    await expectOracle(bp, boxes);
    own.device.destroy();
    await own.device.lost;
    expect(bp.deviceLost).toMatch(/destroyed/);
    const err = await bp.computePairsAsync(new PairSet()).catch((e) => e);
    expect(err).toBeInstanceOf(CollideError);
    expect(String(err.message)).toMatch(/lost/);
    expect(() => bp.computePairs(new PairSet())).toThrow(/stepAsync/);
    bp.fallback = "cpu";
    await expectOracle(bp, boxes);
    expect(keys(bp.computePairs(new PairSet()))).toEqual(oracle(boxes));
  });
});
