/**
 * Options, capacity and argument checks of CollisionWorld found by the fresh-user pass of
 * session 2: unknown options were accepted silently, `overlapAabb` without `max` threw a plain
 * TypeError, and 10,000 bodies at one point (50 million pairs) exhausted the machine's memory.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { computePairs, dim2 } from "../../src/index.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/index.js";

const at = (x: number, y: number, z: number) => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

function thrown(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

describe("CollisionWorld options", () => {
  it("refuses unknown and ill-typed options, naming them", () => {
    expect(thrown(() => new CollisionWorld({ bogus: 1 } as never)).field).toBe("options.bogus");
    expect(thrown(() => new CollisionWorld({ profile: "yes" } as never)).field).toBe(
      "options.profile",
    );
    expect(thrown(() => new CollisionWorld({ maxPairs: 0 })).field).toBe("options.maxPairs");
    expect(thrown(() => new CollisionWorld({ maxPairs: 1.5 })).field).toBe("options.maxPairs");
    expect(thrown(() => new CollisionWorld({ executor: {} as never })).field).toBe(
      "options.executor",
    );
    expect(thrown(() => new CollisionWorld(null as never)).field).toBe("options");
    expect(thrown(() => new CollisionWorld([] as never)).field).toBe("options");
  });

  it("addBody refuses unknown body fields (a typo such as sensr), leaving the world unchanged", () => {
    const world = new CollisionWorld();
    const e = thrown(() =>
      world.addBody({ shape: makeSphere(1), pose: at(0, 0, 0), sensr: true } as never),
    );
    expect(e.field).toBe("body.sensr");
    expect(world.bodyCount).toBe(0);
  });
});

describe("CollisionWorld maxPairs", () => {
  for (const broadphase of ["brute", "sap", "grid", "tree"] as const) {
    it(`${broadphase}: more candidate pairs than maxPairs throw before the narrow phase; the last step's results stay`, () => {
      const world = new CollisionWorld({ broadphase, maxPairs: 40 });
      const handles = [];
      for (let i = 0; i < 10; i++)
        handles.push(world.addBody({ shape: makeSphere(1), pose: at(3 * i, 0, 0) }));
      world.step();
      expect(world.contactCount).toBe(0);
      // Pile all ten at one point: 45 pairs > 40.
      for (const h of handles) world.setPose(h, at(0, 0, 0));
      const e = thrown(() => world.step());
      expect(e.field).toBe("options.maxPairs");
      expect(e.message).toContain("45");
      expect(world.contactCount).toBe(0);
      // Spread them again: the world steps normally.
      for (let i = 0; i < 10; i++) world.setPose(handles[i], at(3 * i, 0, 0));
      world.step();
      expect(world.contactCount).toBe(0);
      // Exactly at the limit is allowed.
      const w2 = new CollisionWorld({ broadphase, maxPairs: 45 });
      for (let i = 0; i < 10; i++) w2.addBody({ shape: makeSphere(1), pose: at(0, 0, 0) });
      w2.step();
      expect(w2.contactCount).toBe(45);
    });
  }
});

describe("CollisionWorld maxPairs stops the broad phase early", () => {
  for (const broadphase of ["brute", "sap", "grid", "tree", "octree"] as const) {
    for (const spread of [0, 1e-3]) {
      it(`${broadphase}: 10,000 spheres within ${spread * 6} of one point (50 million pairs) throw at the default limit, soon`, () => {
        const world = new CollisionWorld({ broadphase });
        for (let i = 0; i < 10_000; i++) {
          world.addBody({ shape: makeSphere(1), pose: at((i % 7) * spread, 0, 0) });
        }
        // Without the limit this step ran for 86 s and used the machine's 24 GB; with it the
        // broad phase stops within twice the limit (0.1–0.3 s here). The grid's enumeration had
        // gone on past its full candidate storage (a request capped at the limit was met by the
        // storage already there) until a later check threw: 10 s of CPU at 10,000 bodies, 40 s
        // at 20,000 (session 42's fresh attack, finding 01). The guard is far above the fix's
        // time on a loaded machine and far below the old one.
        const t0 = performance.now();
        const e = thrown(() => world.step());
        const ms = performance.now() - t0;
        expect(e.field).toBe("options.maxPairs");
        expect(e.message).toContain(String(2 ** 21));
        expect(ms).toBeLessThan(4000);
      });
    }
  }
});

describe("the grid's pair limit in the 2D world and computePairs", () => {
  // The same enumeration (src/broadphase/spatial-hash.ts) serves both: 7.7 s and 6.9 s of CPU at
  // 8,000 coincident bodies before the fix, 0.1–0.2 s after.
  it("8,000 circles at one point: the 2D world's grid throws options.maxPairs soon", () => {
    const world = new dim2.CollisionWorld2D({ broadphase: "grid" });
    for (let i = 0; i < 8000; i++) {
      world.addBody({
        shape: dim2.makeCircle(1),
        pose: dim2.pose2.fromAngle(0, (i % 7) * 1e-3, 0),
      });
    }
    const t0 = performance.now();
    expect(thrown(() => world.step()).field).toBe("options.maxPairs");
    expect(performance.now() - t0).toBeLessThan(4000);
  });
  it("8,000 spheres at one point: computePairs on the grid throws options.maxPairs soon", () => {
    const shapes: { shape: ReturnType<typeof makeSphere>; pose: ReturnType<typeof at> }[] = [];
    for (let i = 0; i < 8000; i++)
      shapes.push({ shape: makeSphere(1), pose: at((i % 7) * 1e-3, 0, 0) });
    const t0 = performance.now();
    expect(thrown(() => computePairs(shapes, "grid")).field).toBe("options.maxPairs");
    expect(performance.now() - t0).toBeLessThan(4000);
  });
});

describe("CollisionWorld.overlapAabb arguments", () => {
  it("a missing or non-finite corner is a CollideError naming it", () => {
    const world = new CollisionWorld();
    world.addBody({ shape: makeSphere(1), pose: at(0, 0, 0) });
    expect(thrown(() => world.overlapAabb({ x: 0, y: 0, z: 0 }, undefined as never)).field).toBe(
      "max",
    );
    expect(
      thrown(() => world.overlapAabb({ x: Number.NaN, y: 0, z: 0 }, { x: 1, y: 1, z: 1 })).field,
    ).toMatch(/^min/);
  });
});
