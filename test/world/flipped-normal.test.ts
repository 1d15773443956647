/**
 * The world's sphere/box fast path computes a (box, sphere) pair sphere first and reverses the
 * normal when it writes the record; a zero component must come out +0 (a −0 printed as "-0" in
 * the README example), equal in sign to the pair query's.
 */
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { contact } from "../../src/query/contact.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld } from "../../src/world/collision-world.js";

const at = (x: number, y: number, z: number): Isometry => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

describe("flipped sphere–box records", () => {
  it("a ball resting on a box floor has the normal {0, 1, 0} with positive zeros", () => {
    for (const ballFirst of [false, true]) {
      const w = new CollisionWorld();
      const floor = { shape: makeCuboid({ x: 5, y: 0.5, z: 5 }), pose: at(0, -0.5, 0) };
      const ball = { shape: makeSphere(0.5), pose: at(0, 0.4, 0) };
      if (ballFirst) {
        w.addBody(ball);
        w.addBody(floor);
      } else {
        w.addBody(floor);
        w.addBody(ball);
      }
      w.step();
      const [c] = [...w.contacts()];
      const n = c.manifold.normal;
      // From the lower slot to the higher one.
      const want = ballFirst ? { x: 0, y: -1, z: 0 } : { x: 0, y: 1, z: 0 };
      expect(n).toEqual(want);
      expect(Object.is(n.x, 0) && Object.is(n.z, 0)).toBe(true);
      const q = ballFirst
        ? contact(ball.shape, ball.pose, floor.shape, floor.pose)
        : contact(floor.shape, floor.pose, ball.shape, ball.pose);
      expect(c.distance).toBeCloseTo(q?.distance ?? Number.NaN, 12);
    }
  });
});
