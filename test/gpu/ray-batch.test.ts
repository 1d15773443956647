/**
 * GPU batch ray casts (src/gpu/ray-batch.ts) on SwiftShader against an independent oracle: every
 * shape cast with `castRayShape` (the CPU per-shape routine) by brute force, closest toi, ties to
 * the lower index. The hit must be the oracle's for every ray; rays the CPU resolved carry the
 * oracle's toi bitwise, rays the GPU resolved a toi within the reported `toiError`. Scenes:
 * random spheres, cuboids and capsules; a triangle grid with rays through its vertices and edges
 * exactly; the Stanford bunny; the same far from the origin (1e6); rays grazing spheres and
 * running along box faces.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { createGpuRayCaster, type GpuRayHits } from "../../src/gpu/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import { loadBunny } from "../../src/models/bunny.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { sharedDevice } from "./device.js";

let device: GPUDevice;
beforeAll(async () => {
  device = (await sharedDevice()).device;
});

interface Scene {
  shapes: Shape[];
  poses: Isometry[];
}

function oracle(s: Scene, rays: Float64Array, maxToi: number): { hit: number[]; toi: number[] } {
  const h = makeRayHit();
  const hit: number[] = [];
  const toi: number[] = [];
  for (let r = 0; r < rays.length / 6; r++) {
    const o = { x: rays[6 * r], y: rays[6 * r + 1], z: rays[6 * r + 2] };
    const d = { x: rays[6 * r + 3], y: rays[6 * r + 4], z: rays[6 * r + 5] };
    let best = -1;
    let bt = Infinity;
    for (let i = 0; i < s.shapes.length; i++) {
      if (castRayShape(h, s.shapes[i], s.poses[i], o, d, maxToi, true) && h.toi < bt) {
        bt = h.toi;
        best = i;
      }
    }
    hit.push(best);
    toi.push(best < 0 ? 0 : bt);
  }
  return { hit, toi };
}

function check(
  s: Scene,
  rays: Float64Array,
  r: GpuRayHits,
  maxToi = Infinity,
): { gpu: number; hits: number } {
  const o = oracle(s, rays, maxToi);
  let gpu = 0;
  let hits = 0;
  for (let k = 0; k < r.count; k++) {
    if (r.hit[k] !== o.hit[k]) {
      throw new Error(
        `ray ${k} [${Array.from(rays.subarray(6 * k, 6 * k + 6))}]: GPU hit ${r.hit[k]} (by ${r.resolvedBy[k] ? "cpu" : "gpu"}, toi ${r.toi[k]}), oracle ${o.hit[k]} (toi ${o.toi[k]})`,
      );
    }
    if (o.hit[k] >= 0) hits++;
    if (r.resolvedBy[k] === 1) {
      expect(Object.is(r.toi[k], o.toi[k])).toBe(true);
    } else {
      gpu++;
      expect(Math.abs(r.toi[k] - o.toi[k])).toBeLessThanOrEqual(r.toiError[k]);
    }
  }
  if (process.env.GPU_TEST_VERBOSE) console.log({ rays: r.count, gpu, cpu: r.cpuRays, hits });
  return { gpu, hits };
}

function randomShapes(seed: number, count: number, origin: number): Scene {
  const rng = makeRandom(seed);
  const s: Scene = { shapes: [], poses: [] };
  for (let i = 0; i < count; i++) {
    const k = i % 3;
    const a = 0.2 + rng();
    s.shapes.push(
      k === 0
        ? makeSphere(a)
        : k === 1
          ? makeCuboid({ x: a, y: 0.3 + rng(), z: 0.2 + 0.5 * rng() })
          : makeCapsule({ x: 0, y: -a, z: 0 }, { x: 0, y: a, z: 0 }, 0.3),
    );
    s.poses.push({
      translation: { x: origin + 30 * rng(), y: 30 * rng(), z: -origin + 30 * rng() },
      rotation: randomRotation(rng),
    });
  }
  return s;
}

function randomRays(seed: number, count: number, origin: number, spread = 30): Float64Array {
  const rng = makeRandom(seed);
  const rays = new Float64Array(6 * count);
  for (let r = 0; r < count; r++) {
    rays[6 * r] = origin + spread * rng();
    rays[6 * r + 1] = spread * rng();
    rays[6 * r + 2] = -origin + spread * rng();
    rays[6 * r + 3] = 2 * rng() - 1;
    rays[6 * r + 4] = 2 * rng() - 1;
    rays[6 * r + 5] = 2 * rng() - 1;
  }
  return rays;
}

/** An n × n grid of unit squares (two triangles each) in the plane y = 0, offset by `origin`. */
function grid(n: number): Shape {
  const v: number[] = [];
  const idx: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) v.push(i, 0, j);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      idx.push(a, a + 1, a + n + 1, a + 1, a + n + 2, a + n + 1);
    }
  }
  return makeTriangleMesh(v, idx);
}

describe("GPU ray batches: the CPU's closest hits", () => {
  it("random spheres, cuboids and capsules", async () => {
    const s = randomShapes(1, 600, 0);
    const rc = createGpuRayCaster(device, s);
    const rays = randomRays(2, 5000, 0);
    const n = check(s, rays, await rc.castRays(rays));
    expect(n.hits).toBeGreaterThan(1500);
    expect(n.gpu).toBeGreaterThan(2500);
    // A finite maxToi.
    check(s, rays, await rc.castRays(rays, 3), 3);
  });

  it("a triangle grid, rays through its vertices and edges exactly, and the bunny", async () => {
    const pose: Isometry = {
      translation: { x: -4, y: 1, z: -4 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const s: Scene = { shapes: [grid(8)], poses: [pose] };
    const b = loadBunny();
    s.shapes.push(makeTriangleMesh(b.positions, b.cells));
    s.poses.push({ translation: { x: 20, y: 0, z: 0 }, rotation: randomRotation(makeRandom(3)) });
    const rc = createGpuRayCaster(device, s);
    const list: number[] = [];
    for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 8; j++) {
        // Straight down through vertex (i, j), and through the midpoint of an edge.
        list.push(-4 + i, 5, -4 + j, 0, -1, 0);
        list.push(-4 + i + 0.5, 5, -4 + j, 0.1, -1, 0);
        list.push(-4 + i + 0.5, 5, -4 + j + 0.5, 0, -2, 0);
      }
    }
    // Along the grid's plane (parallel, coplanar).
    list.push(-10, 1, 0, 1, 0, 0, -10, 1 + 1e-9, 0.5, 1, 0, 0);
    // Rays from a sphere of radius 15 around the bunny's centre, aimed near the centre.
    const bunnyMesh = s.shapes[1] as ReturnType<typeof makeTriangleMesh>;
    const c = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < bunnyMesh.vertices.length; i += 3) {
      c.x += bunnyMesh.vertices[i] / bunnyMesh.vertexCount;
      c.y += bunnyMesh.vertices[i + 1] / bunnyMesh.vertexCount;
      c.z += bunnyMesh.vertices[i + 2] / bunnyMesh.vertexCount;
    }
    const cw = iso.transformPoint({ x: 0, y: 0, z: 0 }, s.poses[1], c);
    const rng = makeRandom(4);
    for (let r = 0; r < 3000; r++) {
      const u = { x: 2 * rng() - 1, y: 2 * rng() - 1, z: 2 * rng() - 1 };
      const l = Math.hypot(u.x, u.y, u.z) || 1;
      const o = { x: cw.x + (15 * u.x) / l, y: cw.y + (15 * u.y) / l, z: cw.z + (15 * u.z) / l };
      const t = {
        x: cw.x + 4 * (rng() - 0.5),
        y: cw.y + 4 * (rng() - 0.5),
        z: cw.z + 4 * (rng() - 0.5),
      };
      list.push(o.x, o.y, o.z, t.x - o.x, t.y - o.y, t.z - o.z);
    }
    const rays = new Float64Array(list);
    const n = check(s, rays, await rc.castRays(rays));
    expect(n.hits).toBeGreaterThan(500);
  });

  it("far from the origin (1e6): random shapes and the grid", async () => {
    const s = randomShapes(5, 300, 1e6);
    const rc = createGpuRayCaster(device, s);
    const rays = randomRays(6, 3000, 1e6);
    const n = check(s, rays, await rc.castRays(rays));
    expect(n.gpu).toBeGreaterThan(1000);
    const g: Scene = {
      shapes: [grid(4)],
      poses: [{ translation: { x: 1e6, y: 0, z: 1e6 }, rotation: { x: 0, y: 0, z: 0, w: 1 } }],
    };
    const rg = createGpuRayCaster(device, g);
    const list: number[] = [];
    for (let i = 0; i <= 4; i++)
      for (let j = 0; j <= 4; j++)
        list.push(1e6 + i, 3, 1e6 + j, 0, -1, 0, 1e6 + i + 0.25, 3, 1e6 + j + 0.5, 0, -1, 0.01);
    const gr = new Float64Array(list);
    check(g, gr, await rg.castRays(gr));
  });

  it("grazing rays: tangent to spheres, along box faces, from inside and on the surface", async () => {
    const s: Scene = {
      shapes: [makeSphere(1), makeCuboid({ x: 1, y: 1, z: 1 }), makeSphere(0.5)],
      poses: [
        { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
        { translation: { x: 5, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
        { translation: { x: 0, y: 0, z: 3 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      ],
    };
    const rc = createGpuRayCaster(device, s);
    const rays = new Float64Array([
      -5,
      1,
      0,
      1,
      0,
      0, // tangent to sphere 0 at its top
      -5,
      1 - 1e-12,
      0,
      1,
      0,
      0,
      -5,
      1 + 1e-12,
      0,
      1,
      0,
      0,
      0,
      0,
      0,
      1,
      0,
      0, // from inside sphere 0
      1,
      0,
      0,
      1,
      0,
      0, // on its surface
      2,
      1,
      0,
      1,
      0,
      0, // along the top face of the box
      2,
      1,
      1,
      1,
      0,
      0, // along a top edge of the box
      5,
      5,
      0,
      0,
      -1,
      0, // down onto the box
      0,
      0,
      -5,
      0,
      0,
      1, // through sphere 0 into sphere 2 behind it
      0,
      0.5,
      10,
      0,
      0,
      -1,
    ]);
    check(s, rays, await rc.castRays(rays));
  });

  it("refuses other shapes, bad rays; empty scenes and batches are fine", async () => {
    const id: Isometry = {
      translation: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    expect(() => createGpuRayCaster(device, { shapes: [makeCone(1, 1)], poses: [id] })).toThrow(
      /scene.shapes\[0\].type/,
    );
    const rc = createGpuRayCaster(device, { shapes: [makeSphere(1)], poses: [id] });
    await expect(rc.castRays(new Float64Array([0, 0, 0, 0, 0, 0]))).rejects.toThrow(CollideError);
    await expect(rc.castRays(new Float64Array([0, Number.NaN, 0, 1, 0, 0]))).rejects.toThrow(
      /rays\[1\]/,
    );
    expect((await rc.castRays(new Float64Array(0))).count).toBe(0);
    const empty = createGpuRayCaster(device, { shapes: [], poses: [] });
    const r = await empty.castRays(new Float64Array([0, 0, 0, 1, 0, 0]));
    expect(r.hit[0]).toBe(-1);
  });
});
