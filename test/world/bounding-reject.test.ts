/**
 * The narrow phase's bounding-sphere pre-test for spheres and boxes (src/world/narrow-pair.ts)
 * must never drop a pair the exact routine reports: pairs that touch exactly where the bounding
 * spheres touch (a sphere on a box corner, along the diagonal), at scales 1e-3 to 1e4 and far
 * from the origin, are compared with the pair query `contact`.
 */
import fc from "fast-check";
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

describe("bounding-sphere pre-test of the world's narrow phase", () => {
  it("keeps a sphere resting on a box corner (bounding spheres exactly touching)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e6, -3e5),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.constantFrom(0, 1e-6),
        fc.boolean(),
        (scale, shift, r, gap, sphereFirst) => {
          const h = { x: scale, y: scale, z: scale };
          const radius = r * scale;
          // Sphere centre on the box's diagonal, at distance |h| + radius (+ gap) from its centre.
          const d = (Math.sqrt(3) * scale + radius + gap * scale) / Math.sqrt(3);
          const w = new CollisionWorld({ broadphase: "brute" });
          const box = { shape: makeCuboid(h), pose: at(shift, shift, shift) };
          const ball = { shape: makeSphere(radius), pose: at(shift + d, shift + d, shift + d) };
          if (sphereFirst) {
            w.addBody(ball);
            w.addBody(box);
          } else {
            w.addBody(box);
            w.addBody(ball);
          }
          w.step();
          const c = contact(box.shape, box.pose, ball.shape, ball.pose, 0);
          expect(w.contactCount).toBe(c === null ? 0 : 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reports a sphere just inside a box corner's reach and not one just beyond it", () => {
    const w = new CollisionWorld({ broadphase: "brute" });
    const s = 1 / Math.sqrt(3);
    w.addBody({ shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: at(0, 0, 0) });
    const ball = w.addBody({
      shape: makeSphere(1),
      pose: at(1 + s * 0.999, 1 + s * 0.999, 1 + s * 0.999),
    });
    w.step();
    expect(w.contactCount).toBe(1);
    w.setPose(ball, at(1 + s * 1.001, 1 + s * 1.001, 1 + s * 1.001));
    w.step();
    expect(w.contactCount).toBe(0);
  });
});
