/**
 * A fresh user's report: `world.setPoses` accepted a translation of 1e308 (finite, but the
 * world's sums and differences of coordinates overflow past about 9e307). The rule: a body's
 * broad-phase AABB must lie within ±WORLD_MAX_COORDINATE (1e300); `addBody`, `setPose` and
 * `setPoses` (serial and threaded) refuse a pose past it with a `CollideError` naming the field
 * and value, and leave the world unchanged. Hand-derived: a unit sphere's box at x is
 * [x − 1, x + 1] grown by a relative pad of 1e-12, so x = 1e299 is inside and 1e300 is outside.
 */
import { afterAll, describe, expect, it } from "vitest";
import { WORLD_MAX_COORDINATE } from "../../src/constants.js";
import { CollideError } from "../../src/errors.js";
import { WorkerExecutor } from "../../src/parallel/index.js";
import { makeCuboid, makeSphere } from "../../src/shapes/index.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";

const I = { x: 0, y: 0, z: 0, w: 1 };
const at = (x: number, y = 0, z = 0) => ({ translation: { x, y, z }, rotation: I });

function thrown(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    if (e instanceof CollideError) return e;
    throw e;
  }
  throw new Error("expected a CollideError");
}

const executors: WorkerExecutor[] = [];
afterAll(async () => {
  await Promise.all(executors.map((e) => e.dispose()));
});

describe("world pose bound: the AABB within ±1e300", () => {
  it("is the documented constant", () => {
    expect(WORLD_MAX_COORDINATE).toBe(1e300);
  });

  it("addBody and setPose refuse 1e308 and 1e300, accept 1e299; the world unchanged", () => {
    const w = new CollisionWorld();
    const h = w.addBody({ shape: makeSphere(1), pose: at(0) });
    w.addBody({ shape: makeSphere(1), pose: at(1.5) });
    w.step();
    const before = w.contacts().length;
    for (const x of [1e308, -1e308, 1e300, Number.MAX_VALUE]) {
      const e = thrown(() => w.addBody({ shape: makeSphere(1), pose: at(0, 0, x) }));
      expect(e.field).toBe("body.pose.translation");
      expect(e.message).toMatch(/1e\+300/);
      const e2 = thrown(() => w.setPose(h, at(x)));
      expect(e2.field).toBe("pose.translation");
      expect(e2.message).toContain(String(x));
    }
    expect(w.bodyCount).toBe(2);
    expect(w.getPose(h).translation).toEqual({ x: 0, y: 0, z: 0 });
    w.step();
    expect(w.contacts().length).toBe(before);
    // Inside the bound: accepted and stepped (two far bodies touching each other).
    const far = w.addBody({ shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: at(1e299) });
    w.setPose(h, at(1e299, 1.5));
    w.step();
    expect(w.isTouching(h, far)).toBe(true);
  });

  it("setPoses names the component past the bound and changes nothing", () => {
    const w = new CollisionWorld();
    const hs = [0, 1, 2].map((i) => w.addBody({ shape: makeSphere(1), pose: at(3 * i) }));
    const poses = new Float64Array([
      5, 0, 0, 0, 0, 0, 1, 0, 1e308, 0, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0, 1,
    ]);
    const e = thrown(() => w.setPoses(hs, poses));
    expect(e.field).toBe("poses[8]");
    expect(e.value).toBe(1e308);
    expect(hs.map((h) => w.getPose(h).translation.x)).toEqual([0, 3, 6]);
  });

  it("the threaded first pass refuses the same poses as the serial one", async () => {
    const ex = new WorkerExecutor({ threads: 2, minPairs: 0 });
    executors.push(ex);
    await ex.ready();
    const serial = new CollisionWorld();
    const threaded = new CollisionWorld({ executor: ex });
    const n = 5000;
    const hs: BodyHandle[] = [];
    const ht: BodyHandle[] = [];
    for (let i = 0; i < n; i++) {
      hs.push(serial.addBody({ shape: makeSphere(0.4), pose: at(i) }));
      ht.push(threaded.addBody({ shape: makeSphere(0.4), pose: at(i) }));
    }
    const poses = new Float64Array(7 * n);
    for (let i = 0; i < n; i++) poses.set([i, 1, 0, 0, 0, 0, 1], 7 * i);
    for (const bad of [1e308, 1e300, -Number.MAX_VALUE]) {
      const p = poses.slice();
      p[7 * 4321 + 2] = bad;
      const es = thrown(() => serial.setPoses(hs, p));
      const et = thrown(() => threaded.setPoses(ht, p));
      expect(et.field).toBe(es.field);
      expect(et.field).toBe(`poses[${7 * 4321 + 2}]`);
      expect(et.message).toBe(es.message);
      expect(threaded.getPose(ht[4321]).translation).toEqual({ x: 4321, y: 0, z: 0 });
    }
    // Just inside: both accept, with bitwise equal boxes.
    poses[7 * 4321] = 1e299;
    serial.setPoses(hs, poses);
    threaded.setPoses(ht, poses);
    for (const i of [0, 4321, n - 1]) {
      expect(threaded.getAabb(ht[i])).toEqual(serial.getAabb(hs[i]));
    }
  });
});
