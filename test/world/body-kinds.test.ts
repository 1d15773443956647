/**
 * Body kinds, the move buffer, sleeping and `setPoses` of the collision world: the work a step
 * does (counted by the world's stats and by a counting broad phase, never timed), the sleep
 * rules and their events, and the refusals of bad input (the world left unchanged). The
 * exactness of the results against a from-scratch world is body-kinds-model.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { BroadPhase } from "../../src/broadphase/broad-phase.js";
import { DynamicTree } from "../../src/broadphase/dynamic-tree.js";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeCuboid, makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import { type BodyHandle, CollisionWorld } from "../../src/world/index.js";

const at = (x: number, y = 0, z = 0) => iso.create(vec3.create(x, y, z));
const unitBox = makeCuboid(vec3.create(0.5, 0.5, 0.5));

/** A dynamic tree that counts the calls a step makes (a spy, not a timer). */
function countingTree(): { bp: BroadPhase; calls: { query: number; pairs: number } } {
  const tree = new DynamicTree();
  const calls = { query: 0, pairs: 0 };
  const bp: BroadPhase = {
    get size() {
      return tree.size;
    },
    insert: (id, min, max) => tree.insert(id, min, max),
    move: (id, min, max, d) => {
      tree.move(id, min, max, d);
    },
    remove: (id) => tree.remove(id),
    has: (id) => tree.has(id),
    clear: () => tree.clear(),
    computePairs: (out) => {
      calls.pairs++;
      return tree.computePairs(out);
    },
    queryAabb: (min, max, out) => {
      calls.query++;
      return tree.queryAabb(min, max, out);
    },
    castRay: (o, d, t, cb) => tree.castRay(o, d, t, cb),
  };
  return { bp, calls };
}

/** A 20 × 20 floor of touching static unit boxes and `m` spheres resting on it. */
function level(m: number, bp: BroadPhase | "tree" = "tree", sleepAfterSteps = 0) {
  const world = new CollisionWorld({ broadphase: bp, sleepAfterSteps });
  const floor: BodyHandle[] = [];
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 20; j++) {
      floor.push(world.addBody({ shape: unitBox, pose: at(i, 0, j), kind: "static" }));
    }
  }
  const balls: BodyHandle[] = [];
  for (let i = 0; i < m; i++) {
    balls.push(world.addBody({ shape: makeSphere(0.5), pose: at(2 * i + 0.5, 0.9, 3.5) }));
  }
  return { world, floor, balls };
}

describe("static bodies", () => {
  it("are never paired with one another, and pair with moving bodies", () => {
    const { world, floor, balls } = level(3);
    world.step();
    // 400 touching floor boxes (760 face neighbours plus diagonals) give no pair at all.
    const pairs = world.candidatePairs();
    for (let i = 0; i < pairs.length; i += 2) {
      expect(world.getKind(pairs[i]) === "static" && world.getKind(pairs[i + 1]) === "static").toBe(
        false,
      );
    }
    // Each ball at x = 2i + 0.5 sits over the seam of two boxes (z = 3.5: of four).
    for (const b of balls) {
      const touching = floor.filter((f) => world.isTouching(b, f));
      expect(touching.length).toBe(4);
    }
    expect(world.stats.contactPairs).toBe(12);
  });

  it("are seen by the world queries", () => {
    const { world, floor } = level(0);
    expect(world.overlapAabb(vec3.create(3.2, -1, 3.2), vec3.create(3.3, 1, 3.3))).toEqual([
      floor[3 * 20 + 3],
    ]);
    const hit = world.castRayWith(
      () => true,
      vec3.create(5.2, 10, 7.2),
      vec3.create(0, -1, 0),
      Infinity,
    );
    expect(hit).not.toBeNull();
  });

  it("setPose on a static body is allowed: the static structure is rebuilt, pairs follow", () => {
    const { world, floor, balls } = level(1);
    world.step();
    // The ball at (0.5, 0.9, 3.5) rests on the boxes at x = 0, 1 and z = 3, 4.
    const f = floor[1 * 20 + 3];
    expect(world.isTouching(balls[0], f)).toBe(true);
    world.setPose(f, at(1, -5, 3));
    world.step();
    expect(world.isTouching(balls[0], f)).toBe(false);
    expect(world.events().end.toArray()).toEqual([{ a: f, b: balls[0], sensor: false }]);
    world.setPose(f, at(1, 0, 3));
    world.step();
    expect(world.events().begin.toArray()).toEqual([{ a: f, b: balls[0], sensor: false }]);
  });

  it("a static sensor reports moving bodies, not static ones", () => {
    const world = new CollisionWorld();
    const s = world.addBody({ shape: makeSphere(2), pose: at(0), kind: "static", sensor: true });
    const st = world.addBody({ shape: unitBox, pose: at(1), kind: "static" });
    const d = world.addBody({ shape: unitBox, pose: at(-1), kind: "kinematic" });
    world.step();
    expect(world.events().begin.toArray()).toEqual([{ a: s, b: d, sensor: true }]);
    expect(world.isTouching(s, st)).toBe(false);
  });
});

describe("the move buffer: work proportional to what moved", () => {
  it("a step in which nothing moved queries nothing and tests no pair", () => {
    const { bp, calls } = countingTree();
    const { world, balls } = level(10, bp);
    world.step();
    expect(world.stats.narrowPairs).toBe(world.stats.filteredPairs);
    const contacts = world.contactCount;
    expect(contacts).toBe(40);
    world.step(); // persist events now; from here the steps are quiet
    calls.query = 0;
    calls.pairs = 0;
    for (let i = 0; i < 5; i++) {
      world.step();
      expect(world.stats.narrowPairs).toBe(0);
      expect(world.stats.movedBodies).toBe(0);
      expect(world.contactCount).toBe(contacts);
      expect(world.events().persist.count).toBe(contacts);
      expect(world.events().begin.count + world.events().end.count).toBe(0);
    }
    expect(calls).toEqual({ query: 0, pairs: 0 });
    // One ball moves: one broad-phase query, and only its pairs are tested.
    world.setPose(balls[4], at(8.6, 0.9, 3.5));
    world.step();
    expect(world.stats.movedBodies).toBe(1);
    expect(calls.query).toBe(1);
    expect(calls.pairs).toBe(0);
    expect(world.stats.narrowPairs).toBe(4);
    expect(world.contactCount).toBe(contacts);
  });

  it("unchanged pairs keep their contacts bitwise while other bodies move", () => {
    const { world, balls } = level(10);
    world.step();
    const before = world.contacts();
    for (let f = 1; f <= 5; f++) {
      world.setPose(balls[9], at(18.5, 0.9 + 0.01 * f, 3.5));
      world.step();
      expect(world.stats.narrowPairs).toBe(4);
    }
    const after = world.contacts();
    const still = (c: { a: number; b: number }) => c.a !== balls[9] && c.b !== balls[9];
    expect(after.filter(still)).toEqual(before.filter(still));
  });

  it("setPoses moves many bodies with the effect of setPose on each", () => {
    const a = level(10).world;
    const b = level(10).world;
    a.step();
    b.step();
    const hs = a.handles().filter((h) => a.getKind(h) === "dynamic");
    const poses = new Float64Array(7 * hs.length);
    hs.forEach((h, i) => {
      poses.set([2 * i + 0.7, 0.95, 3.4 + 0.01 * i, 0, 0, 0, 1], 7 * i);
      b.setPose(h, iso.create(vec3.create(2 * i + 0.7, 0.95, 3.4 + 0.01 * i)));
    });
    a.setPoses(hs, poses);
    a.step();
    b.step();
    expect(a.contacts()).toEqual(b.contacts());
    expect(a.events().begin.toArray()).toEqual(b.events().begin.toArray());
    expect(a.events().end.toArray()).toEqual(b.events().end.toArray());
    expect(a.stats.movedBodies).toBe(10);
  });

  it("setPoses gives every body bitwise the tight and broad-phase boxes of setPose", () => {
    // The batch keeps only the tight box between its passes and grows it into the broad-phase
    // box again: the same box, bit for bit, as setPose's. Rotated boxes and spheres far from
    // the origin (the rounding pad, relative to the coordinates, is not zero), every broad phase.
    for (const broadphase of ["grid", "tree", "sap"] as const) {
      const a = new CollisionWorld({ broadphase, prediction: 0.03 });
      const b = new CollisionWorld({ broadphase, prediction: 0.03 });
      const hs: BodyHandle[] = [];
      const poses = new Float64Array(7 * 40);
      for (let i = 0; i < 40; i++) {
        const shape =
          i % 2 === 0 ? makeSphere(0.3 + 0.01 * i) : makeCuboid(vec3.create(0.2, 0.4, 0.7));
        const h = a.addBody({ shape, pose: at(1e5 + 0.9 * i, -3e4, 0.1 * i) });
        b.addBody({ shape, pose: at(1e5 + 0.9 * i, -3e4, 0.1 * i) });
        hs.push(h);
        const t = 0.37 * i;
        const q = [Math.sin(t) * 0.6, Math.sin(t) * 0.8, 0, Math.cos(t)];
        poses.set([1e5 + 0.9 * i + 0.011 * i, -3e4 - 0.02, 0.1 * i + 1 / 3, ...q], 7 * i);
      }
      a.step();
      b.step();
      a.setPoses(hs, poses);
      for (let i = 0; i < 40; i++) {
        const o = 7 * i;
        b.setPose(hs[i], {
          translation: vec3.create(poses[o], poses[o + 1], poses[o + 2]),
          rotation: { x: poses[o + 3], y: poses[o + 4], z: poses[o + 5], w: poses[o + 6] },
        });
      }
      // biome-ignore lint/suspicious/noExplicitAny: the world's per-slot boxes (internal)
      const kinds = (w: CollisionWorld) => (w as any).kinds.box as Float64Array;
      // biome-ignore lint/suspicious/noExplicitAny: the world's per-slot boxes (internal)
      const tight = (w: CollisionWorld) => (w as any).bodies.aabb as Float64Array;
      expect(Array.from(kinds(a).subarray(0, 6 * 40))).toEqual(
        Array.from(kinds(b).subarray(0, 6 * 40)),
      );
      expect(Array.from(tight(a).subarray(0, 6 * 40))).toEqual(
        Array.from(tight(b).subarray(0, 6 * 40)),
      );
      a.step();
      b.step();
      expect(a.contacts()).toEqual(b.contacts());
    }
  });
});

describe("sleeping", () => {
  it("a sleeping body keeps its contacts as persist, with no begin or end while it sleeps", () => {
    const { world, floor, balls } = level(2);
    world.step();
    world.sleep(balls[0]);
    expect(world.isSleeping(balls[0])).toBe(true);
    expect(world.isSleeping(floor[0])).toBe(false);
    for (let i = 0; i < 3; i++) {
      world.setPose(balls[1], at(2.5, 0.9 + 0.001 * i, 3.5));
      world.step();
      expect(world.events().begin.count + world.events().end.count).toBe(0);
      expect(world.isSleeping(balls[0])).toBe(true);
      const persist = world.events().persist.toArray();
      expect(persist.filter((e) => e.b === balls[0]).length).toBe(4);
    }
  });

  it("wakes when moved, when woken, and when a moving awake body touches it", () => {
    const { world, balls } = level(2);
    world.step();
    world.sleep(balls[0]);
    world.setPose(balls[0], at(0.5, 0.9, 3.5));
    expect(world.isSleeping(balls[0])).toBe(false);
    world.sleep(balls[0]);
    world.wake(balls[0]);
    expect(world.isSleeping(balls[0])).toBe(false);
    world.sleep(balls[0]);
    world.step();
    // Ball 1 rolls into ball 0: the contact wakes ball 0 at the end of that step.
    world.setPose(balls[1], at(1.4, 0.9, 3.5));
    world.step();
    expect(world.isTouching(balls[0], balls[1])).toBe(true);
    const begin = world.events().begin.toArray();
    expect(begin).toContainEqual({ a: balls[0], b: balls[1], sensor: false });
    expect(begin.filter((e) => e.a === balls[0] || e.b === balls[0]).length).toBe(1);
    expect(world.isSleeping(balls[0])).toBe(false);
  });

  it("a sensor overlap does not wake a sleeping body", () => {
    const world = new CollisionWorld();
    const a = world.addBody({ shape: makeSphere(0.5), pose: at(0) });
    const s = world.addBody({ shape: makeSphere(0.5), pose: at(5), sensor: true });
    world.step();
    world.sleep(a);
    world.setPose(s, at(0.5));
    world.step();
    expect(world.events().begin.toArray()).toEqual([{ a, b: s, sensor: true }]);
    expect(world.isSleeping(a)).toBe(true);
  });

  it("sleepAfterSteps puts a body to sleep after that many steps without a move", () => {
    const { world, balls } = level(2, "tree", 3);
    world.step(); // step 0: added (moved)
    world.step();
    world.step();
    expect(world.isSleeping(balls[0])).toBe(false);
    world.setPose(balls[1], at(2.5, 0.9, 3.5));
    world.step(); // step 3: ball 0 still for 3 steps; ball 1 moved
    expect(world.isSleeping(balls[0])).toBe(true);
    expect(world.isSleeping(balls[1])).toBe(false);
    expect(world.stats.sleepingBodies).toBe(1);
    world.step();
    world.step();
    expect(world.isSleeping(balls[1])).toBe(false);
    world.step();
    expect(world.isSleeping(balls[1])).toBe(true);
    expect(world.stats.sleepingBodies).toBe(2);
  });
});

describe("bad input: CollideError naming the field and value, the world unchanged", () => {
  function snapshot(w: CollisionWorld): unknown {
    return w.handles().map((h) => [h, w.getPose(h), w.isSleeping(h), w.getKind(h)]);
  }

  function expectError(fn: () => unknown, field: string, value?: unknown): void {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(CollideError);
      expect((e as CollideError).field).toBe(field);
      if (value !== undefined) expect((e as CollideError).value).toEqual(value);
      return;
    }
    throw new Error(`expected a CollideError on ${field}`);
  }

  it("setPoses: wrong length, NaN, infinity, non-unit quaternion, stale handle, not typed", () => {
    const { world, floor, balls } = level(3);
    world.step();
    const before = snapshot(world);
    const contacts = world.contacts();
    const good = [0.5, 1, 3.5, 0, 0, 0, 1, 2.5, 1, 3.5, 0, 0, 0, 1];
    const two = [balls[0], balls[1]];
    expectError(() => world.setPoses(two, new Float64Array(13)), "poses.length", 13);
    const nan = Float64Array.from(good);
    nan[8] = Number.NaN;
    expectError(() => world.setPoses(two, nan), "poses[8]");
    const inf = Float64Array.from(good);
    inf[0] = Number.POSITIVE_INFINITY;
    expectError(() => world.setPoses(two, inf), "poses[0]", Number.POSITIVE_INFINITY);
    const skew = Float64Array.from(good);
    skew[13] = 0.5;
    expectError(() => world.setPoses(two, skew), "poses[10..13]", [0, 0, 0, 0.5]);
    const gone = world.addBody({ shape: unitBox, pose: at(50) });
    world.removeBody(gone);
    expectError(
      () => world.setPoses([balls[0], gone], Float64Array.from(good)),
      "handles[1]",
      gone,
    );
    expectError(() => world.setPoses(two, good as unknown as Float64Array), "poses");
    // A pose past the world's coordinate bound (±1e300: differences of coordinates overflow).
    const far = Float64Array.from(good);
    far[7] = 1.7e308;
    expectError(() => world.setPoses([balls[0], balls[2]], far), "poses[7]", 1.7e308);
    expectError(() => world.setPose(balls[2], at(-1.7e308, 0, 0)), "pose.translation");
    // Nothing moved: the first pose of each refused call was not applied.
    expect(snapshot(world)).toEqual(before);
    world.step();
    world.step();
    expect(world.contacts()).toEqual(contacts);
    expect(floor.length).toBe(400);
  });

  it("sleep / wake of a static or removed body, bad kinds, ccd on a static body", () => {
    const { world, floor, balls } = level(1);
    world.step();
    const before = snapshot(world);
    expectError(() => world.sleep(floor[0]), "handle", floor[0]);
    expectError(() => world.wake(floor[0]), "handle", floor[0]);
    const gone = world.addBody({ shape: unitBox, pose: at(50) });
    world.removeBody(gone);
    expectError(() => world.wake(gone), "handle", gone);
    expectError(() => world.sleep(gone), "handle", gone);
    expectError(() => world.isSleeping(gone), "handle", gone);
    expectError(
      () => world.addBody({ shape: unitBox, pose: at(0), kind: "fixed" as "static" }),
      "body.kind",
      "fixed",
    );
    expectError(
      () => world.addBody({ shape: unitBox, pose: at(0), kind: "static", ccd: true }),
      "body.ccd",
      true,
    );
    expectError(() => world.setCcd(floor[1], true), "handle", floor[1]);
    expectError(() => new CollisionWorld({ sleepAfterSteps: -1 }), "options.sleepAfterSteps", -1);
    expectError(() => new CollisionWorld({ sleepAfterSteps: 1.5 }), "options.sleepAfterSteps");
    expect(snapshot(world)).toEqual(before);
    expect(world.isSleeping(balls[0])).toBe(false);
  });

  it("a static half-space pairs with moving bodies only", () => {
    const world = new CollisionWorld();
    const ground = world.addBody({
      shape: makeHalfSpace(vec3.create(0, 1, 0), 0),
      pose: at(0),
      kind: "static",
    });
    const box = world.addBody({ shape: unitBox, pose: at(0, 0.4), kind: "static" });
    const ball = world.addBody({ shape: makeSphere(0.5), pose: at(3, 0.4) });
    world.step();
    expect(world.isTouching(ground, box)).toBe(false);
    expect(world.isTouching(ground, ball)).toBe(true);
  });
});
