/**
 * The world's implicit warm-up (src/world/warm-up.ts) changes no answer: a world whose
 * `WARM_UP_AT`-th moving body ran the warm-up reports bit for bit the same contacts (points,
 * normals, distances, feature ids), events and pair counts at every step as a twin stepped with no
 * warm-up in the process before it (the oracle: the cold world, the same bodies less one far-off
 * body that triggers the warm-up). Spheres and rotated boxes of mixed sizes packed to touch, a
 * sensor kind, a filtered body, teleports; seeded by fast-check. Also: the warm-up runs at the
 * `WARM_UP_AT`-th moving body and not before (static bodies do not count), once per process and
 * kind of body, not with an executor's world, and never makes `addBody` throw (a sample of shapes
 * far apart in size; a world of `maxPairs` 1, which the dense sample exceeds).
 */
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { makeRandom, randomRotation } from "../../src/math/random.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  type BodyHandle,
  CollisionWorld,
  type CollisionWorldOptions,
  type WorldContact,
} from "../../src/world/index.js";
import { forgetWarmUps, kindsWarmed, WARM_UP_AT } from "../../src/world/warm-up.js";

const SPHERE_KEY = 2 * makeSphere(1).type;
const BOX_KEY = 2 * makeCuboid({ x: 1, y: 1, z: 1 }).type;

function bits(x: number): string {
  const b = new Float64Array([x]);
  return Buffer.from(b.buffer).toString("hex");
}

function contactBits(c: WorldContact): string {
  const m = c.manifold;
  const p: string[] = [`${c.a}-${c.b}`, bits(c.distance), bits(m.normal.x), bits(m.normal.y)];
  p.push(bits(m.normal.z), String(m.count));
  for (let i = 0; i < m.count; i++) {
    const q = m.points[i];
    for (const v of [q.pointA, q.pointB]) p.push(bits(v.x), bits(v.y), bits(v.z));
    p.push(bits(q.distance), String(q.featureId));
  }
  return p.join(",");
}

/** Everything a world reports at a step, doubles as bit strings. */
function snapshot(w: CollisionWorld): string {
  const ev = w.events();
  const parts: string[] = [];
  for (const [name, list] of [
    ["begin", ev.begin],
    ["persist", ev.persist],
    ["end", ev.end],
  ] as const) {
    for (let i = 0; i < list.count; i++) {
      parts.push(`${name}:${list.a(i)}-${list.b(i)}:${list.isSensor(i) ? "s" : "c"}`);
    }
  }
  for (const c of w.contacts()) parts.push(contactBits(c));
  parts.push(`stats:${w.stats.candidatePairs}/${w.stats.filteredPairs}/${w.stats.contactPairs}`);
  return parts.join("\n");
}

/**
 * `m` moving spheres and rotated boxes of seed `seed`, placed at random in a cube packed so that
 * a body touches one or two others (every tenth a sensor, the fifth on its own layer).
 */
function build(seed: number, m: number, options: Partial<CollisionWorldOptions> = {}) {
  const rng = makeRandom(seed);
  const world = new CollisionWorld(options);
  const side = Math.cbrt(2.1 * m);
  const moving: BodyHandle[] = [];
  for (let i = 0; i < m; i++) {
    const r = 0.25 + 0.2 * rng();
    const shape =
      i % 2 === 0
        ? makeSphere(r)
        : makeCuboid({ x: r, y: r * (0.6 + 0.6 * rng()), z: r * (0.6 + 0.6 * rng()) });
    moving.push(
      world.addBody({
        shape,
        pose: {
          translation: { x: side * rng(), y: side * rng(), z: side * rng() },
          rotation: i % 2 === 0 ? { x: 0, y: 0, z: 0, w: 1 } : randomRotation(rng),
        },
        sensor: i % 10 === 4,
        layer: i === 5 ? 2 : 1,
        mask: i === 5 ? 1 : 0xffffffff,
      }),
    );
  }
  return { world, moving, side };
}

/** Adds one moving sphere far from every other body (no pair): the `m + 1`-th moving body. */
function addFarBody(world: CollisionWorld, side: number): void {
  world.addBody({
    shape: makeSphere(0.3),
    pose: { translation: { x: 10 * side, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
  });
}

/** The snapshots of `steps` walk steps of `world` (a teleport every third step). */
function walk(world: CollisionWorld, moving: BodyHandle[], seed: number, steps: number): string[] {
  const rng = makeRandom(seed);
  const poses = new Float64Array(7 * moving.length);
  const pose = world.getPose(moving[0]);
  for (let i = 0; i < moving.length; i++) {
    world.getPose(moving[i], pose);
    const t = pose.translation;
    const q = pose.rotation;
    poses.set([t.x, t.y, t.z, q.x, q.y, q.z, q.w], 7 * i);
  }
  const out: string[] = [];
  world.step();
  out.push(snapshot(world));
  for (let s = 1; s < steps; s++) {
    for (let i = 0; i < moving.length; i++) {
      const far = s % 3 === 0 && i % 97 === 0 ? 3 : 0.05;
      for (let j = 0; j < 3; j++) poses[7 * i + j] += far * (2 * rng() - 1);
    }
    world.setPoses(moving, poses);
    world.step();
    out.push(snapshot(world));
  }
  return out;
}

describe("implicit warm-up", () => {
  beforeEach(() => forgetWarmUps());

  it("changes no answer (cold twin as oracle)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        forgetWarmUps();
        // The oracle first: WARM_UP_AT − 1 moving bodies never warm up.
        const cold = build(seed, WARM_UP_AT - 1);
        expect(kindsWarmed([SPHERE_KEY, BOX_KEY])).toBe(false);
        const expected = walk(cold.world, cold.moving, seed, 4);
        expect(kindsWarmed([SPHERE_KEY, BOX_KEY])).toBe(false);
        const warm = build(seed, WARM_UP_AT - 1);
        addFarBody(warm.world, warm.side);
        expect(kindsWarmed([SPHERE_KEY, BOX_KEY, SPHERE_KEY + 1])).toBe(true);
        const got = walk(warm.world, warm.moving, seed, 4);
        expect(got).toEqual(expected);
        expect(expected[0]).toContain("begin:");
      }),
      { numRuns: 2 },
    );
  });

  it("runs at the WARM_UP_AT-th moving body, once per process and kind", () => {
    const world = new CollisionWorld();
    const identity = { x: 0, y: 0, z: 0, w: 1 };
    const box = makeCuboid({ x: 0.3, y: 0.3, z: 0.3 });
    for (let i = 0; i < WARM_UP_AT; i++) {
      world.addBody({
        shape: box,
        pose: { translation: { x: i, y: 5, z: 0 }, rotation: identity },
        kind: "static",
      });
    }
    expect(kindsWarmed([BOX_KEY])).toBe(false);
    for (let i = 0; i < WARM_UP_AT - 1; i++) {
      world.addBody({
        shape: box,
        pose: { translation: { x: i, y: 0, z: 0 }, rotation: identity },
      });
    }
    expect(kindsWarmed([BOX_KEY])).toBe(false);
    world.addBody({ shape: box, pose: { translation: { x: -9, y: 0, z: 0 }, rotation: identity } });
    expect(kindsWarmed([BOX_KEY])).toBe(true);
    expect(kindsWarmed([SPHERE_KEY])).toBe(false);
  });

  it("is skipped with an executor", () => {
    const executor = {
      runNarrowPhase() {
        throw new Error("not stepped");
      },
    } as unknown as CollisionWorldOptions["executor"];
    build(3, WARM_UP_AT, { executor });
    expect(kindsWarmed([SPHERE_KEY])).toBe(false);
  });

  it("never makes addBody throw", () => {
    // The dense sample exceeds maxPairs 1 (a CollideError of the sample, not of the world).
    const tight = build(5, WARM_UP_AT, { maxPairs: 1 });
    expect(tight.world.bodyCount).toBe(WARM_UP_AT);
    expect(kindsWarmed([SPHERE_KEY, BOX_KEY])).toBe(true);
    // Shapes far apart in size: the large ones are left out of the sample.
    forgetWarmUps();
    const world = new CollisionWorld();
    const identity = { x: 0, y: 0, z: 0, w: 1 };
    for (let i = 0; i < WARM_UP_AT; i++) {
      world.addBody({
        shape: i % 64 === 0 ? makeSphere(1e6) : makeCuboid({ x: 0.3, y: 0.3, z: 0.3 }),
        pose: { translation: { x: 3 * i, y: 0, z: 0 }, rotation: identity },
      });
    }
    expect(kindsWarmed([SPHERE_KEY, BOX_KEY])).toBe(true);
  });
});
