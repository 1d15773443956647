/**
 * Query filters on every world query (rays, shape casts, box and shape overlaps; the frustum's
 * are in test/query/frustum.test.ts) against brute-force scans that apply the same filter to
 * every body and call the per-shape routine, for every broad phase; `ignoreInitialOverlap` on
 * rays and casts against hand-derived answers.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import { intersects } from "../../src/query/intersects.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCompound, makeCuboid, makeSphere } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { castShape } from "../../src/world/cast-shape.js";
import {
  CollisionWorld,
  type QueryFilter,
  type WorldBroadPhase,
} from "../../src/world/collision-world.js";
import type { BodyHandle } from "../../src/world/handles.js";
import { castRayAll, castRayClosest } from "../../src/world/ray-cast.js";

const BROAD_PHASES: WorldBroadPhase[] = ["brute", "sap", "grid", "tree", "octree"];
const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
const pose = (x = 0, y = 0, z = 0): Isometry => ({ translation: { x, y, z }, rotation: ID });

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

interface Body {
  handle: BodyHandle;
  shape: Shape;
  pose: Isometry;
  layer: number;
  sensor: boolean;
}

function scene(
  broadphase: WorldBroadPhase,
  seed: number,
): { world: CollisionWorld; bodies: Body[] } {
  const random = rng(seed);
  const world = new CollisionWorld({ broadphase });
  const bodies: Body[] = [];
  for (let i = 0; i < 150; i++) {
    const shape =
      i % 2 === 0
        ? makeSphere(0.3 + random())
        : makeCuboid({ x: 0.2 + random(), y: 0.2 + random(), z: 0.2 + random() });
    const p = pose(20 * random() - 10, 20 * random() - 10, 20 * random() - 10);
    const layer = 1 << (i % 3);
    const sensor = i % 5 === 0;
    bodies.push({
      handle: world.addBody({ shape, pose: p, layer, sensor }),
      shape,
      pose: p,
      layer,
      sensor,
    });
  }
  world.step();
  return { world, bodies };
}

/** The filter applied by hand (the oracle). */
function passes(b: Body, f: QueryFilter): boolean {
  if ((b.layer & (f.mask ?? 0xffffffff)) === 0) return false;
  if (f.includeSensors === false && b.sensor) return false;
  const ex = f.exclude;
  if (typeof ex === "number" && ex === b.handle) return false;
  if (Array.isArray(ex) && ex.includes(b.handle)) return false;
  if (ex instanceof Set && ex.has(b.handle)) return false;
  return f.predicate ? f.predicate(b.handle) : true;
}

describe("query filters vs brute force, every broad phase", () => {
  it("rays: closest and all hits with exclude, sensors, mask and a predicate", () => {
    for (const broadphase of BROAD_PHASES) {
      const { world, bodies } = scene(broadphase, 3);
      const random = rng(8);
      const hit = makeRayHit();
      for (let r = 0; r < 60; r++) {
        const o = { x: 30 * random() - 15, y: 30 * random() - 15, z: 30 * random() - 15 };
        const d = { x: random() - 0.5, y: random() - 0.5, z: random() - 0.5 };
        const first = castRayClosest(world, o, d, 100);
        const filters: QueryFilter[] = [
          { exclude: first?.handle ?? (0 as BodyHandle) },
          { exclude: bodies.slice(0, 40).map((b) => b.handle) },
          { exclude: new Set(bodies.slice(20, 90).map((b) => b.handle)), includeSensors: false },
          { mask: 2, predicate: (h) => h % 3 !== 0 },
        ];
        for (const f of filters) {
          let best: { toi: number; handle: number } | null = null;
          const every: number[] = [];
          for (const b of bodies) {
            if (!passes(b, f)) continue;
            if (!castRayShape(hit, b.shape, b.pose, o, d, 100, true)) continue;
            every.push(b.handle);
            if (best === null || hit.toi < best.toi) best = { toi: hit.toi, handle: b.handle };
          }
          const got = castRayClosest(world, o, d, 100, f);
          expect(got?.handle ?? null).toBe(best?.handle ?? null);
          if (got && best) expect(got.toi).toBe(best.toi);
          const all = castRayAll(world, o, d, 100, f).map((h) => h.handle);
          expect([...all].sort((a, b) => a - b)).toEqual(every.sort((a, b) => a - b));
        }
      }
    }
  });

  it("overlapAabb and overlapShape with filters; the predicate sees only candidates", () => {
    for (const broadphase of BROAD_PHASES) {
      const { world, bodies } = scene(broadphase, 5);
      const probe = makeSphere(4);
      const p = pose(1, -2, 0.5);
      const seen: BodyHandle[] = [];
      const f: QueryFilter = {
        exclude: [bodies[0].handle, bodies[3].handle],
        includeSensors: false,
        predicate: (h) => {
          seen.push(h);
          return h % 2 === 0;
        },
      };
      const got = world.overlapShape(probe, p, [], f);
      const want = bodies
        .filter((b) => passes(b, { ...f, predicate: (h) => h % 2 === 0 }))
        .filter((b) => intersects(probe, p, b.shape, b.pose))
        .map((b) => b.handle);
      expect(got).toEqual(want);
      // The predicate ran only on bodies whose boxes the broad phase reported, never on sensors.
      expect(seen.length).toBeLessThan(bodies.length);
      for (const h of seen) expect(bodies.find((b) => b.handle === h)?.sensor).toBe(false);
      const box = world.overlapAabb({ x: -3, y: -3, z: -3 }, { x: 3, y: 3, z: 3 }, [], { mask: 1 });
      for (const h of box) expect(bodies.find((b) => b.handle === h)?.layer).toBe(1);
    }
  });

  it("shape casts: excluding the caster's own body, and ignoring the initial overlap", () => {
    for (const broadphase of BROAD_PHASES) {
      const world = new CollisionWorld({ broadphase });
      const ball = makeSphere(0.5);
      // The caster's own body at the origin, a wall ahead at x = 5 (face at 4.5).
      const self = world.addBody({ shape: ball, pose: pose() });
      const wall = world.addBody({ shape: makeCuboid({ x: 0.5, y: 3, z: 3 }), pose: pose(5) });
      world.step();
      const v = { x: 1, y: 0, z: 0 };
      expect(castShape(world, ball, pose(), v, 10)?.handle).toBe(self);
      const a = castShape(world, ball, pose(), v, 10, { exclude: self });
      expect(a?.handle).toBe(wall);
      expect(a?.toi).toBeCloseTo(4, 6);
      const b = castShape(world, ball, pose(), v, 10, { ignoreInitialOverlap: true });
      expect(b?.handle).toBe(wall);
      expect(b?.toi).toBeCloseTo(4, 6);
      // Starting inside the wall and moving on: nothing after it.
      expect(castShape(world, ball, pose(5), v, 10, { ignoreInitialOverlap: true })).toBeNull();
      expect(castShape(world, ball, pose(5), v, 10, { predicate: () => false })).toBeNull();
    }
  });

  it("compound bodies: the child overlapped at the start is skipped, the next one is hit", () => {
    const world = new CollisionWorld();
    const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
    const c = makeCompound([
      { shape: box, pose: pose() },
      { shape: box, pose: pose(4) },
    ]);
    const h = world.addBody({ shape: c, pose: pose() });
    world.step();
    const hit = castShape(world, makeSphere(0.25), pose(), { x: 1, y: 0, z: 0 }, 10, {
      ignoreInitialOverlap: true,
    });
    expect(hit?.handle).toBe(h);
    expect(hit?.toi).toBeCloseTo(3.25, 6);
  });

  it("rays starting inside a solid: ignoreInitialOverlap reports the exit", () => {
    const world = new CollisionWorld();
    const h = world.addBody({ shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: pose() });
    world.step();
    const o = { x: 0.25, y: 0, z: 0 };
    const d = { x: 1, y: 0, z: 0 };
    expect(castRayClosest(world, o, d, 10)?.toi).toBe(0);
    const exit = castRayClosest(world, o, d, 10, { ignoreInitialOverlap: true });
    expect(exit?.handle).toBe(h);
    expect(exit?.toi).toBeCloseTo(0.75, 12);
    expect(exit?.normal).toEqual({ x: 1, y: 0, z: 0 });
  });
});

describe("bad filters", () => {
  it("are refused naming the field and the value", () => {
    const world = new CollisionWorld();
    world.addBody({ shape: makeSphere(1), pose: pose() });
    world.step();
    const o = { x: -5, y: 0, z: 0 };
    const d = { x: 1, y: 0, z: 0 };
    const cases: [unknown, RegExp][] = [
      [{ predicate: "yes" }, /filter\.predicate must be a function .*"yes"/],
      [{ exclude: "a" }, /filter\.exclude must be a body handle .*"a"/],
      [{ exclude: [1, -2] }, /filter\.exclude\[1\] must be a body handle .*-2/],
      [{ exclude: 1.5 }, /filter\.exclude .*1\.5/],
      [{ includeSensors: 1 }, /filter\.includeSensors/],
      [{ ignoreInitialOverlap: "no" }, /ignoreInitialOverlap/],
    ];
    for (const [f, re] of cases) {
      expect(() => castRayClosest(world, o, d, 10, f as QueryFilter)).toThrow(CollideError);
      expect(() => castRayClosest(world, o, d, 10, f as QueryFilter)).toThrow(re);
    }
    expect(() => world.overlapAabb(o, { x: 1, y: 1, z: 1 }, [], { predicate: 7 } as never)).toThrow(
      /filter\.predicate/,
    );
    expect(() =>
      castShape(world, makeSphere(1), pose(), d, 1, { ignoreInitialOverlap: 1 } as never),
    ).toThrow(/filter\.ignoreInitialOverlap/);
  });
});

describe("a predicate that changes the world (found by a fresh user, session 22)", () => {
  // The predicate runs while the query walks the broad phase: a body removed there left the walk
  // reading a freed slot (a TypeError). The world now refuses every change from a predicate with
  // a CollideError, and is usable again once the query has thrown.
  it("is refused with a CollideError for every change, on every broad phase, the world unchanged", () => {
    for (const broadphase of BROAD_PHASES) {
      const w = new CollisionWorld({ broadphase });
      const a = w.addBody({ shape: makeSphere(1), pose: pose(0) });
      const b = w.addBody({ shape: makeSphere(1), pose: pose(5) });
      w.step();
      const changes: [string, () => void][] = [
        ["removeBody", () => w.removeBody(a)],
        ["addBody", () => w.addBody({ shape: makeSphere(1), pose: pose(9) })],
        ["setPose", () => w.setPose(a, pose(1))],
        ["setPoses", () => w.setPoses([a], new Float64Array([1, 0, 0, 0, 0, 0, 1]))],
        ["sleep", () => w.sleep(a)],
        ["wake", () => w.wake(a)],
        ["step", () => w.step()],
      ];
      for (const [what, change] of changes) {
        const predicate = () => {
          change();
          return true;
        };
        const o = { x: -10, y: 0, z: 0 };
        const d = { x: 1, y: 0, z: 0 };
        expect(() => castRayClosest(w, o, d, 100, { predicate }), what).toThrow(CollideError);
        expect(
          () => w.overlapAabb({ x: -9, y: -9, z: -9 }, { x: 9, y: 9, z: 9 }, [], { predicate }),
          what,
        ).toThrow(/predicate must not add, move, remove/);
        // Unchanged, and usable: the same answers as before, changes allowed again.
        expect(w.overlapAabb({ x: -9, y: -9, z: -9 }, { x: 9, y: 9, z: 9 })).toEqual([a, b]);
        expect(w.getPose(a).translation.x, what).toBe(0);
      }
      w.setPose(a, pose(2));
      w.step();
      expect(w.getPose(a).translation.x).toBe(2);
    }
  });
});

describe("a predicate that starts another query of the same world (found by a fresh user, session 26)", () => {
  // The world keeps one set of query fields and each broad phase one traversal stack: a query
  // started inside a predicate overwrote them, so the outer overlapAabb returned no body, an
  // outer castShape missed its hit, and nested rays threw TypeErrors. A nested query is now
  // refused before it touches anything; a caller that catches that error inside its predicate
  // gets the outer query's full answer.
  it("is refused with a CollideError, the outer query's answer unchanged, on every broad phase", () => {
    for (const broadphase of BROAD_PHASES) {
      const w = new CollisionWorld({ broadphase });
      const hs = [0, 1, 2, 3, 4, 5].map((i) =>
        w.addBody({ shape: makeSphere(0.5), pose: pose(i) }),
      );
      w.step();
      const lo = { x: -1, y: -1, z: -1 };
      const hi = { x: 10, y: 1, z: 1 };
      const far = { x: 100, y: 100, z: 100 };
      const o = { x: -5, y: 0, z: 0 };
      const d = { x: 1, y: 0, z: 0 };
      const ball = makeSphere(0.2);
      const nested: [string, () => unknown][] = [
        ["overlapAabb", () => w.overlapAabb(far, far)],
        ["overlapShape", () => w.overlapShape(ball, pose(0))],
        ["castRayClosest", () => castRayClosest(w, o, d, 100)],
        ["castRayAll", () => castRayAll(w, o, d, 100)],
        ["castShape", () => castShape(w, ball, pose(-5), d, 100)],
      ];
      for (const [what, query] of nested) {
        let refused = 0;
        const predicate = () => {
          try {
            query();
          } catch (e) {
            expect(e, what).toBeInstanceOf(CollideError);
            expect(String(e), what).toMatch(/must not start another query/);
            refused++;
          }
          return true;
        };
        expect(w.overlapAabb(lo, hi, [], { predicate }), `${broadphase} ${what}`).toEqual(hs);
        expect(refused, what).toBe(6);
        const hit = castShape(w, ball, pose(-5), d, 100, { predicate });
        // The ball (0.2) meets body 0 (0.5 at x = 0) when its centre reaches x = −0.7: toi 4.3.
        expect(hit?.handle, what).toBe(hs[0]);
        expect(hit?.toi, what).toBeCloseTo(4.3, 12);
        expect(castRayClosest(w, o, d, 100, { predicate })?.handle, what).toBe(hs[0]);
        // Not thrown through: the outer queries finished, and the world answers queries again.
        const rethrow = () => {
          query();
          return true;
        };
        expect(() => w.overlapAabb(lo, hi, [], { predicate: rethrow })).toThrow(
          /must not start another query/,
        );
        expect(w.overlapAabb(lo, hi)).toEqual(hs);
      }
    }
  });
});
