/**
 * View frustums against independent oracles: three.js's own camera matrices (the convention:
 * −z forward, +y up), brute-force point sampling of each shape (a point inside the frustum is
 * a point inside all six planes, checked here from the corners, not from the library's planes),
 * and the world query against a scan of every body.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQueryLines } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import {
  type Frustum,
  FrustumTest,
  frustumIntersectsShape,
  frustumTestAabb,
  frustumTestAabbUnchecked,
  frustumTestSphere,
  makeFrustum,
  makeFrustumFromMatrix,
} from "../../src/query/frustum.js";
import { makeCapsule, makeCuboid, makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { CollisionWorld, type WorldBroadPhase } from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";
import { axisAngle, ID, pose } from "../support/pose.js";

/** Seeded PRNG (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rotates v by q (plain formula, the oracle's own). */
function rotate(q: Quat, v: Vec3): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

interface Camera {
  position: Vec3;
  rotation: Quat;
  fovY: number;
  aspect: number;
  near: number;
  far: number;
}

/**
 * How far the world point p is outside the camera's frustum, measured in the camera's own frame
 * (the oracle: depth along −z in [near, far], |x| ≤ depth·tan·aspect, |y| ≤ depth·tan): the
 * largest violation, ≤ 0 inside. A lower bound of the distance to the frustum (each term is a
 * distance to one slab or wedge face, scaled ≤ 1).
 */
function outside(c: Camera, p: Vec3): number {
  const conj = { x: -c.rotation.x, y: -c.rotation.y, z: -c.rotation.z, w: c.rotation.w };
  const l = rotate(conj, { x: p.x - c.position.x, y: p.y - c.position.y, z: p.z - c.position.z });
  const depth = -l.z;
  const ty = Math.tan(c.fovY / 2);
  const tx = ty * c.aspect;
  return Math.max(
    c.near - depth,
    depth - c.far,
    (Math.abs(l.x) - depth * tx) / Math.hypot(1, tx),
    (Math.abs(l.y) - depth * ty) / Math.hypot(1, ty),
  );
}

const camera: Camera = {
  position: { x: 1, y: 2, z: 3 },
  rotation: axisAngle(0.3, 1, 0.2, 0.8),
  fovY: 0.9,
  aspect: 1.6,
  near: 0.5,
  far: 20,
};

/** Sample points covering a ball (grid of spacing h inside it, plus its surface). */
function ballSamples(c: Vec3, r: number, h: number): Vec3[] {
  const out: Vec3[] = [];
  const n = Math.ceil(r / h);
  for (let i = -n; i <= n; i++)
    for (let j = -n; j <= n; j++)
      for (let k = -n; k <= n; k++) {
        const x = i * h;
        const y = j * h;
        const z = k * h;
        const d = Math.hypot(x, y, z);
        if (d <= r) out.push({ x: c.x + x, y: c.y + y, z: c.z + z });
        else if (d > 0 && d <= r + h) {
          const s = r / d;
          out.push({ x: c.x + x * s, y: c.y + y * s, z: c.z + z * s });
        }
      }
  return out;
}

/** Sample points covering a rotated box (a grid over it, faces included, ≤ 12 steps an axis). */
function boxSamples(center: Vec3, half: Vec3, q: Quat, h: number): Vec3[] {
  const out: Vec3[] = [];
  const nx = Math.min(12, Math.max(1, Math.ceil((2 * half.x) / h)));
  const ny = Math.min(12, Math.max(1, Math.ceil((2 * half.y) / h)));
  const nz = Math.min(12, Math.max(1, Math.ceil((2 * half.z) / h)));
  for (let i = 0; i <= nx; i++)
    for (let j = 0; j <= ny; j++)
      for (let k = 0; k <= nz; k++) {
        const l = {
          x: -half.x + (2 * half.x * i) / nx,
          y: -half.y + (2 * half.y * j) / ny,
          z: -half.z + (2 * half.z * k) / nz,
        };
        const w = rotate(q, l);
        out.push({ x: center.x + w.x, y: center.y + w.y, z: center.z + w.z });
      }
  return out;
}

/**
 * The sampling oracle's verdict on a set of points covering a shape with spacing h: "yes" when
 * a sample is inside the frustum, "no" when every sample is farther than `slack` outside,
 * "unsure" in between.
 */
function verdict(c: Camera, samples: Vec3[], slack: number): "yes" | "no" | "unsure" {
  let best = Infinity;
  for (const p of samples) best = Math.min(best, outside(c, p));
  if (best <= 0) return "yes";
  return best > slack ? "no" : "unsure";
}

describe("makeFrustum", () => {
  it("agrees with three.js's camera: planes and corners of projection × view", () => {
    const cam = new THREE.PerspectiveCamera(
      (camera.fovY * 180) / Math.PI,
      camera.aspect,
      camera.near,
      camera.far,
    );
    cam.position.set(camera.position.x, camera.position.y, camera.position.z);
    cam.quaternion.set(camera.rotation.x, camera.rotation.y, camera.rotation.z, camera.rotation.w);
    cam.updateMatrixWorld(true);
    cam.updateProjectionMatrix();
    const m = new THREE.Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    const a = makeFrustum(camera);
    const b = makeFrustumFromMatrix(m.elements);
    for (let i = 0; i < 24; i++) {
      expect(b.planes[i]).toBeCloseTo(a.planes[i], 9);
      expect(b.corners[i]).toBeCloseTo(a.corners[i], 9);
    }
    // three.js's own frustum contains the same points.
    const tf = new THREE.Frustum().setFromProjectionMatrix(m);
    const random = rng(4);
    for (let i = 0; i < 2000; i++) {
      const p = { x: 30 * random() - 15, y: 30 * random() - 15, z: 30 * random() - 15 };
      const inThree = tf.containsPoint(new THREE.Vector3(p.x, p.y, p.z));
      const o = outside(camera, p);
      if (Math.abs(o) > 1e-9) expect(inThree).toBe(o <= 0);
      expect(frustumTestSphere(a, p, 0) !== FrustumTest.Outside).toBe(o <= 0);
    }
  });

  it("corners lie on three planes each, and the frustum's volume is the truncated pyramid's", () => {
    const f = makeFrustum(camera);
    for (let c = 0; c < 8; c++) {
      const p = { x: f.corners[3 * c], y: f.corners[3 * c + 1], z: f.corners[3 * c + 2] };
      let on = 0;
      for (let i = 0; i < 24; i += 4) {
        const s =
          f.planes[i] * p.x + f.planes[i + 1] * p.y + f.planes[i + 2] * p.z - f.planes[i + 3];
        expect(s).toBeLessThan(1e-9);
        if (Math.abs(s) < 1e-9) on++;
      }
      expect(on).toBe(3);
      expect(Math.abs(outside(camera, p))).toBeLessThan(1e-9);
    }
  });

  it("refuses bad cameras and matrices, naming the field and value", () => {
    const bad: [Partial<Camera>, RegExp][] = [
      [{ near: 5, far: 5 }, /frustum\.far must be > near/],
      [{ near: 6, far: 5 }, /frustum\.far/],
      [{ near: 0 }, /frustum\.near/],
      [{ fovY: 0 }, /frustum\.fovY must be in \(0, π\)/],
      [{ fovY: Math.PI }, /frustum\.fovY/],
      [{ fovY: Number.NaN }, /frustum\.fovY/],
      [{ aspect: -1 }, /frustum\.aspect/],
      [{ rotation: { x: 0, y: 0, z: 0, w: 2 } }, /frustum\.rotation/],
    ];
    for (const [patch, re] of bad) {
      expect(() => makeFrustum({ ...camera, ...patch })).toThrow(CollideError);
      expect(() => makeFrustum({ ...camera, ...patch })).toThrow(re);
    }
    expect(() => makeFrustumFromMatrix(new Array(16).fill(0))).toThrow(/matrix is singular/);
    expect(() => makeFrustumFromMatrix([1, 2, 3])).toThrow(/matrix must be 16 numbers/);
    const nan = new THREE.Matrix4().elements.slice();
    nan[5] = Number.NaN;
    expect(() => makeFrustumFromMatrix(nan)).toThrow(/matrix\[5\]/);
  });
});

describe("frustum culling of spheres and AABBs vs point sampling", () => {
  const f = makeFrustum(camera);
  const h = 0.05;

  it("spheres: exact mode agrees with sampling; conservative never drops a visible one", () => {
    const random = rng(11);
    let decided = 0;
    for (let i = 0; i < 150; i++) {
      const c = { x: 40 * random() - 20, y: 40 * random() - 20, z: 40 * random() - 20 };
      const r = 0.2 + 2 * random();
      const exact = frustumTestSphere(f, c, r, "exact");
      const cons = frustumTestSphere(f, c, r, "conservative");
      const v = verdict(camera, ballSamples(c, r, 0.15 * r), 0.3 * r);
      if (v === "yes") expect(exact).not.toBe(FrustumTest.Outside);
      if (v === "no") expect(exact).toBe(FrustumTest.Outside);
      if (exact !== FrustumTest.Outside) expect(cons).not.toBe(FrustumTest.Outside);
      if (v !== "unsure") decided++;
    }
    expect(decided).toBeGreaterThan(135);
  });

  it("AABBs: plane–corner test and exact mode agree with sampling", () => {
    const random = rng(12);
    for (let i = 0; i < 300; i++) {
      const c = { x: 40 * random() - 20, y: 40 * random() - 20, z: 40 * random() - 20 };
      const half = { x: 0.1 + 2 * random(), y: 0.1 + 2 * random(), z: 0.1 + 2 * random() };
      const min = { x: c.x - half.x, y: c.y - half.y, z: c.z - half.z };
      const max = { x: c.x + half.x, y: c.y + half.y, z: c.z + half.z };
      const exact = frustumTestAabb(f, min, max, "exact");
      const cons = frustumTestAabb(f, min, max, "conservative");
      const step = Math.max(half.x, half.y, half.z) / 6;
      const v = verdict(camera, boxSamples(c, half, ID, h), 2 * Math.sqrt(3) * step);
      if (v === "yes") expect(exact).not.toBe(FrustumTest.Outside);
      if (v === "no") expect(exact).toBe(FrustumTest.Outside);
      if (exact !== FrustumTest.Outside) expect(cons).not.toBe(FrustumTest.Outside);
      if (exact === FrustumTest.Inside) {
        for (const p of boxSamples(c, half, ID, 100)) expect(outside(camera, p)).toBeLessThan(1e-9);
      }
    }
  });

  it("boxes beside the frustum's edges: the planes keep some, the exact test drops them", () => {
    // Boxes around the far corners, where a box can straddle each plane without meeting the
    // frustum; the exact mode must drop them, as the sampling oracle confirms.
    const random = rng(13);
    let dropped = 0;
    for (let i = 0; i < 4000 && dropped < 5; i++) {
      const k = Math.floor(8 * random());
      const corner = { x: f.corners[3 * k], y: f.corners[3 * k + 1], z: f.corners[3 * k + 2] };
      const c = {
        x: corner.x + 4 * random() - 2,
        y: corner.y + 4 * random() - 2,
        z: corner.z + 4 * random() - 2,
      };
      const half = { x: 0.2 + random(), y: 0.2 + random(), z: 0.2 + random() };
      const min = { x: c.x - half.x, y: c.y - half.y, z: c.z - half.z };
      const max = { x: c.x + half.x, y: c.y + half.y, z: c.z + half.z };
      if (frustumTestAabb(f, min, max, "conservative") !== FrustumTest.Intersects) continue;
      if (frustumTestAabb(f, min, max, "exact") !== FrustumTest.Outside) continue;
      expect(verdict(camera, boxSamples(c, half, ID, 0.01), 0)).not.toBe("yes");
      dropped++;
    }
    expect(dropped).toBe(5);
  });
});

describe("frustumIntersectsShape and the frustum op vs sampling", () => {
  it("rotated boxes (fast-check): exact answers agree with the sampling oracle", () => {
    const f = makeFrustum(camera);
    fc.assert(
      fc.property(
        fc.record({
          x: fc.double({ min: -20, max: 20, noNaN: true }),
          y: fc.double({ min: -20, max: 20, noNaN: true }),
          z: fc.double({ min: -20, max: 20, noNaN: true }),
        }),
        fc.record({
          x: fc.double({ min: 0.05, max: 2, noNaN: true }),
          y: fc.double({ min: 0.05, max: 2, noNaN: true }),
          z: fc.double({ min: 0.05, max: 2, noNaN: true }),
        }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (c, half, angle) => {
          const q = axisAngle(1, 2, 3, angle);
          const got = frustumIntersectsShape(f, makeCuboid(half), pose(c.x, c.y, c.z, q));
          const step = Math.max(half.x, half.y, half.z) / 6;
          const v = verdict(camera, boxSamples(c, half, q, 0.05), 2 * Math.sqrt(3) * step);
          if (v === "yes") expect(got).toBe(true);
          if (v === "no") expect(got).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("collide query answers visible indices; bad lines are errors and the others still answered", () => {
    const cam = {
      position: [0, 0, 0],
      rotation: [0, 0, 0, 1],
      fovY: 1,
      aspect: 1.5,
      near: 0.1,
      far: 100,
    };
    const lines = [
      {
        op: "frustum",
        frustum: cam,
        shapes: [
          { type: "sphere", center: [0, 0, -5], radius: 1 },
          { type: "sphere", center: [0, 0, 5], radius: 1 },
          { type: "box", center: [0, 0, -200], halfExtents: [1, 1, 1] },
          { type: "halfspace", normal: [0, 1, 0], offset: -1 },
          { type: "capsule", a: [-50, 0, -10], b: [50, 0, -10], radius: 0.1 },
          { type: "sphere", center: [0, 0, -0.05], radius: 0.01 },
        ],
      },
      { op: "frustum", frustum: { ...cam, near: 5, far: 5 }, shapes: [] },
      { op: "frustum", frustum: { ...cam, fovY: 3.2 }, shapes: [] },
      { op: "frustum", frustum: { ...cam, fovY: 0 }, shapes: [] },
      { op: "frustum", frustum: cam, shapes: [{ type: "sphere", center: [0, 0, -3], radius: 1 }] },
      // Omitted rotation means identity (FORMATS.md): the same camera.
      {
        op: "frustum",
        frustum: { position: [0, 0, 0], fovY: 1, aspect: 1.5, near: 0.1, far: 100 },
        shapes: [
          { type: "sphere", center: [0, 0, -3], radius: 1 },
          { type: "sphere", center: [0, 0, 3], radius: 1 },
        ],
      },
    ];
    const { lines: out, failed } = answerQueryLines(lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(failed).toBe(true);
    const r = out.map((l) => JSON.parse(l));
    expect(r[0].result).toEqual({ visible: [0, 3, 4] });
    expect(r[1].error.message).toMatch(/frustum\.far/);
    expect(r[2].error.message).toMatch(/frustum\.fovY.*3\.2/);
    expect(r[3].error.code).toBe("invalid_value");
    expect(r[4].result).toEqual({ visible: [0] });
    expect(r[5].result).toEqual({ visible: [0] });
  });
});

describe("world.overlapFrustum", () => {
  const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree"];

  it("equals a scan of every body with the exact test, for every broad phase, with filters", () => {
    const random = rng(21);
    const f = makeFrustum(camera);
    for (const broadphase of BROAD_PHASES) {
      const world = new CollisionWorld({ broadphase });
      const handles: BodyHandle[] = [];
      const bodies: {
        shape: Shape;
        pose: Isometry;
        sensor: boolean;
        layer: number;
      }[] = [];
      for (let i = 0; i < 200; i++) {
        const kind = i % 3;
        const shape =
          kind === 0
            ? makeSphere(0.2 + random())
            : kind === 1
              ? makeCuboid({ x: 0.2 + random(), y: 0.2 + random(), z: 0.2 + random() })
              : makeCapsule({ x: -0.5, y: 0, z: 0 }, { x: 0.5, y: 0, z: 0 }, 0.3);
        const p = pose(
          40 * random() - 20,
          40 * random() - 20,
          40 * random() - 20,
          axisAngle(random(), random(), random() + 0.1, 3 * random()),
        );
        const sensor = i % 7 === 0;
        const layer = i % 2 === 0 ? 1 : 2;
        bodies.push({ shape, pose: p, sensor, layer });
        handles.push(world.addBody({ shape, pose: p, sensor, layer }));
      }
      // Two half-spaces (kept out of the broad phase): y ≤ −5 reaches the frustum, y ≤ −40 not.
      for (const offset of [-5, -40]) {
        const shape = makeHalfSpace({ x: 0, y: 1, z: 0 }, offset);
        bodies.push({ shape, pose: pose(), sensor: false, layer: 1 });
        handles.push(world.addBody({ shape, pose: pose() }));
      }
      world.step();
      const all = world.overlapFrustum(f);
      const expected = handles.filter((_h, i) =>
        frustumIntersectsShape(f, bodies[i].shape, bodies[i].pose),
      );
      expect(all).toEqual(expected);
      expect(all).toContain(handles[200]);
      expect(all).not.toContain(handles[201]);
      // Conservative mode is a superset.
      const cons = world.overlapFrustum(f, { mode: "conservative" });
      for (const h of all) expect(cons).toContain(h);
      // Filters: layer mask, sensors, an excluded set and a predicate.
      const excluded = new Set([expected[0], expected[1]]);
      const filtered = world.overlapFrustum(f, {
        mask: 1,
        includeSensors: false,
        exclude: excluded as ReadonlySet<BodyHandle>,
        predicate: (h) => h !== expected[2],
      });
      const want = expected.filter((h) => {
        const i = handles.indexOf(h);
        return bodies[i].layer === 1 && !bodies[i].sensor && !excluded.has(h) && h !== expected[2];
      });
      expect(filtered).toEqual(want);
      // Repeat queries use the static query BVH: the same answer.
      for (let k = 0; k < 300; k++) world.overlapFrustum(f);
      expect(world.overlapFrustum(f)).toEqual(all);
    }
  });

  it("refuses a bad frustum, mode or filter, naming them", () => {
    const world = new CollisionWorld();
    world.addBody({ shape: makeSphere(1), pose: pose() });
    const f = makeFrustum(camera);
    expect(() => world.overlapFrustum({} as Frustum)).toThrow(/frustum must be a frustum/);
    expect(() => world.overlapFrustum(f, { mode: "fast" as "exact" })).toThrow(/options\.mode/);
    expect(() => world.overlapFrustum(f, { predicate: 3 as unknown as () => boolean })).toThrow(
      /filter\.predicate must be a function \(handle\) => boolean \(got 3\)/,
    );
    expect(() => world.overlapFrustum(f, { exclude: "a" as unknown as BodyHandle })).toThrow(
      /filter\.exclude/,
    );
  });
});

describe("frustum bad input found by a fresh user", () => {
  it("frustumIntersectsShape refuses what is not a frustum with a CollideError naming it", () => {
    const pose = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    for (const bad of [{}, null, 3, { planes: new Float64Array(24) }])
      expect(() => frustumIntersectsShape(bad as unknown as Frustum, makeSphere(1), pose)).toThrow(
        /^frustum must be a frustum/,
      );
  });

  it("a frustum too thin to build names the extreme field and its value", () => {
    const cam = {
      position: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
      fovY: 1,
      aspect: 1,
      near: 1,
      far: 5,
    };
    expect(() => makeFrustum({ ...cam, fovY: 1e-300 })).toThrow(/^frustum\.fovY .*1e-300/);
    expect(() => makeFrustum({ ...cam, aspect: 1e300 })).toThrow(/^frustum\.aspect .*1e\+300/);
  });
});

describe("half-spaces under an axis-aligned camera (found by a fresh user, session 22)", () => {
  // Under the identity rotation the frustum's planes have exact zero components, and a
  // half-space's AABB has infinite coordinates: the plane–corner test summed 0 · ∞ = NaN, which
  // compared as "inside every plane", so overlapFrustum reported every half-space body.
  const R = { x: 0, y: 0, z: 0, w: 1 };
  const I: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: R };
  const f = makeFrustum({
    position: { x: 0, y: 0, z: 0 },
    rotation: R,
    fovY: 1,
    aspect: 1,
    near: 0.1,
    far: 10,
  });
  const planes: [string, Vec3, number, boolean][] = [
    ["y ≤ −100 (far below)", { x: 0, y: 1, z: 0 }, -100, false],
    ["z ≥ 5 (behind the camera)", { x: 0, y: 0, z: -1 }, -5, false],
    ["z ≤ −20 (beyond far)", { x: 0, y: 0, z: 1 }, -20, false],
    ["y ≤ 0 (through the frustum)", { x: 0, y: 1, z: 0 }, 0, true],
    ["z ≤ −5 (across it)", { x: 0, y: 0, z: 1 }, -5, true],
  ];
  for (const broadphase of ["brute", "sap", "grid", "tree", "octree"] as WorldBroadPhase[]) {
    it(`${broadphase}: exact mode answers as frustumIntersectsShape`, () => {
      for (const [what, n, d, visible] of planes) {
        const hs = makeHalfSpace(n, d);
        expect(frustumIntersectsShape(f, hs, I), what).toBe(visible);
        const w = new CollisionWorld({ broadphase });
        const h = w.addBody({ shape: hs, pose: I });
        const s = w.addBody({ shape: hs, pose: I, kind: "static" });
        expect(w.overlapFrustum(f), what).toEqual(visible ? [h, s] : []);
      }
    });
  }
  it("frustumTestAabb of an unbounded box is never Inside; the unchecked cull gives NaN Intersects", () => {
    const inf = Number.POSITIVE_INFINITY;
    const below = frustumTestAabb(f, { x: -inf, y: -inf, z: -inf }, { x: inf, y: -100, z: inf });
    expect(below).not.toBe(FrustumTest.Inside);
    // Behind the camera along z alone: the near plane proves it outside.
    const behind = frustumTestAabb(f, { x: -inf, y: -inf, z: 5 }, { x: inf, y: inf, z: inf });
    expect(behind).toBe(FrustumTest.Outside);
    // The public entries refuse NaN (below); the world's unchecked cull never says Inside or
    // Outside for it.
    const nan = Number.NaN;
    for (const mode of ["conservative", "exact"] as const) {
      expect(
        frustumTestAabbUnchecked(f, { x: nan, y: 0, z: -1 }, { x: 0, y: 0, z: -1 }, mode),
      ).toBe(FrustumTest.Intersects);
    }
  });
});

describe("frustumTestSphere and frustumTestAabb refuse bad input (fresh-user attack, session 23)", () => {
  const f = makeFrustum({
    position: { x: 0, y: 0, z: 0 },
    rotation: ID,
    fovY: 1,
    aspect: 1,
    near: 0.1,
    far: 10,
  });
  const c = { x: 0, y: 0, z: -1 };
  const refusal = (run: () => unknown): CollideError => {
    try {
      run();
    } catch (e) {
      expect(e).toBeInstanceOf(CollideError);
      return e as CollideError;
    }
    throw new Error("did not throw");
  };

  it("a negative, NaN or infinite radius names radius and its value", () => {
    for (const [r, got] of [
      [-1, "-1"],
      [-1e-300, "-1e-300"],
      [Number.NaN, "NaN"],
      [Number.POSITIVE_INFINITY, "Infinity"],
    ] as const) {
      for (const mode of ["conservative", "exact"] as const) {
        const e = refusal(() => frustumTestSphere(f, c, r, mode));
        expect(e.code).toBe("invalid_value");
        expect(e.field).toBe("radius");
        expect(e.message).toBe(`radius must be a finite number ≥ 0 (got ${got})`);
      }
    }
    expect(refusal(() => frustumTestSphere(f, c, "1" as unknown as number)).field).toBe("radius");
  });

  it("a NaN or infinite centre names center; a bad frustum or mode names it", () => {
    for (const bad of [
      { x: Number.NaN, y: 0, z: -1 },
      { x: 0, y: Number.POSITIVE_INFINITY, z: -1 },
      null,
    ]) {
      const e = refusal(() => frustumTestSphere(f, bad as unknown as Vec3, 0.5));
      expect(e.field).toBe("center");
      expect(e.message).toMatch(/^center must be a vector of 3 finite numbers \(got /);
    }
    expect(refusal(() => frustumTestSphere({} as Frustum, c, 0.5)).field).toBe("frustum");
    const m = refusal(() => frustumTestSphere(f, c, 0.5, "Exact" as "exact"));
    expect(m.message).toBe('mode must be "conservative" or "exact" (got "Exact")');
    expect(refusal(() => frustumTestAabb(f, c, c, "fast" as "exact")).field).toBe("mode");
  });

  it("frustumTestAabb: a NaN corner names min or max; an inverted box names the axis of max", () => {
    const nan = Number.NaN;
    expect(refusal(() => frustumTestAabb(f, { x: nan, y: 0, z: -1 }, c)).field).toBe("min");
    expect(refusal(() => frustumTestAabb(f, c, { x: 0, y: 0, z: nan })).field).toBe("max");
    const inv = refusal(() => frustumTestAabb(f, { x: 0, y: 1, z: -1 }, { x: 0, y: 0, z: -1 }));
    expect(inv.field).toBe("max.y");
    expect(inv.message).toBe("max.y must be ≥ min.y (1) (got 0)");
  });

  it("valid input answers as before: a radius of 0 is a point, a ball at the camera intersects", () => {
    expect(frustumTestSphere(f, c, 0)).toBe(FrustumTest.Inside);
    expect(frustumTestSphere(f, { x: 0, y: 0, z: 1 }, 0)).toBe(FrustumTest.Outside);
    expect(frustumTestSphere(f, { x: 0, y: 0, z: 0 }, 0.5, "exact")).toBe(FrustumTest.Intersects);
    expect(frustumTestAabb(f, c, c)).toBe(FrustumTest.Inside);
  });
});
