import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { castRayShape, makeRayHit } from "../../src/query/raycast.js";
import { makeCuboid, makeHalfSpace, makeSphere } from "../../src/shapes/index.js";
import { CollisionWorld, castRayClosest } from "../../src/world/index.js";
import { pose, vec } from "../oracles/arbitraries.js";

describe("half-spaces in the collision world", () => {
  it("are tested against every body, with the same contacts as the pair query, for every broad phase", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(vec(-5, 5), fc.boolean()), { minLength: 1, maxLength: 30 }),
        pose(-1, 1),
        (specs, planePose) => {
          const floor = makeHalfSpace(vec3.create(0, 1, 0), 0);
          const shapes = specs.map(([, isBox]) =>
            isBox ? makeCuboid(vec3.create(0.4, 0.3, 0.5)) : makeSphere(0.5),
          );
          const poses = specs.map(([t]) => iso.create(t));
          const results = (["brute", "sap", "grid", "tree"] as const).map((broadphase) => {
            const w = new CollisionWorld({ broadphase });
            const hf = w.addBody({ shape: floor, pose: planePose });
            const hs = shapes.map((s, i) => w.addBody({ shape: s, pose: poses[i] }));
            w.step();
            return { w, hf, hs, contacts: w.contacts().map((c) => [c.a, c.b, c.distance]) };
          });
          for (const r of results) expect(r.contacts).toEqual(results[0].contacts);
          const { w, hf, hs } = results[0];
          const touching = hs.filter((h, i) => {
            const c = contact(floor, planePose, shapes[i], poses[i]);
            expect(w.isTouching(hf, h)).toBe(c !== null);
            return c !== null;
          });
          // Removing the half-space ends exactly its contacts.
          w.removeBody(hf);
          w.step();
          const ended = w
            .events()
            .end.toArray()
            .filter((e) => e.a === hf || e.b === hf)
            .map((e) => (e.a === hf ? e.b : e.a));
          expect(ended.sort((a, b) => a - b)).toEqual(touching.sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("world queries see half-spaces: overlap and ray casts", () => {
    const w = new CollisionWorld();
    const floor = w.addBody({
      shape: makeHalfSpace(vec3.create(0, 1, 0), 0),
      pose: iso.identity(),
    });
    const ball = w.addBody({ shape: makeSphere(1), pose: iso.create(vec3.create(0, 5, 0)) });
    expect(w.overlapShape(makeSphere(0.5), iso.create(vec3.create(3, 0.2, 0)))).toEqual([floor]);
    // The floor's AABB is bounded above by its plane (y ≤ 0), so this box sees only the ball.
    expect(w.overlapAabb(vec3.create(-1, 4, -1), vec3.create(1, 6, 1))).toEqual([ball]);
    expect(w.overlapAabb(vec3.create(-1, -4, -1), vec3.create(1, 6, 1))).toEqual([floor, ball]);
    const hit = castRayClosest(w, vec3.create(10, 3, 0), vec3.create(0, -1, 0));
    expect(hit?.handle).toBe(floor);
    expect(hit?.toi).toBeCloseTo(3, 14);
    expect(hit?.normal).toEqual({ x: 0, y: 1, z: 0 });
    const h = makeRayHit();
    expect(
      castRayShape(
        h,
        makeHalfSpace(vec3.create(0, 1, 0), 0),
        iso.identity(),
        vec3.create(0, -1, 0),
        vec3.create(1, 0, 0),
        10,
        false,
      ),
    ).toBe(false);
  });
});
