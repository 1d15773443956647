/**
 * The world's box–box manifolds (which reuse the witness clipping of the box–box contact,
 * src/narrowphase/cuboid-cuboid.ts `manifoldCuboidCuboid`) are the `manifold` query's, bitwise,
 * on clustered boxes and spheres of sizes spanning 1:100 stepped through a few random moves.
 * Oracle: the `manifold` query per touching pair, and the brute-force pair set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { ContactManifold } from "../../src/narrowphase/contact.js";
import { manifold } from "../../src/query/manifold.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { CollisionWorld, makeWorldContact } from "../../src/world/index.js";
import { unitQuat } from "../oracles/arbitraries.js";

function dump(m: ContactManifold): number[] {
  const out = [m.count, m.normal.x, m.normal.y, m.normal.z];
  for (let i = 0; i < m.count; i++) {
    const p = m.points[i];
    out.push(p.pointA.x, p.pointA.y, p.pointA.z, p.pointB.x, p.pointB.y, p.pointB.z);
    out.push(p.distance, p.featureId);
  }
  return out;
}

const body = fc.record({
  box: fc.boolean(),
  size: fc.double({ min: 0, max: 2, noNaN: true }).map((u) => 0.05 * 100 ** (u / 2)),
  aspect: fc.tuple(
    fc.double({ min: 0.5, max: 1, noNaN: true }),
    fc.double({ min: 0.5, max: 1, noNaN: true }),
    fc.double({ min: 0.5, max: 1, noNaN: true }),
  ),
  at: fc.tuple(
    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
  ),
  rotation: unitQuat,
});

describe("world box–box manifolds", () => {
  it("equal the manifold query bitwise, over steps of a clustered mixed-size pile", () => {
    fc.assert(
      fc.property(
        fc.array(body, { minLength: 2, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(39), fc.double({ min: -0.3, max: 0.3, noNaN: true })), {
          maxLength: 30,
        }),
        (bodies, moves) => {
          const world = new CollisionWorld();
          const shapes: Shape[] = [];
          const poses: Isometry[] = [];
          const handles = bodies.map((b) => {
            const shape = b.box
              ? makeCuboid({
                  x: b.size * b.aspect[0],
                  y: b.size * b.aspect[1],
                  z: b.size * b.aspect[2],
                })
              : makeSphere(b.size);
            const pose: Isometry = {
              translation: { x: b.at[0], y: b.at[1], z: b.at[2] },
              rotation: b.box ? b.rotation : { x: 0, y: 0, z: 0, w: 1 },
            };
            shapes.push(shape);
            poses.push(pose);
            return world.addBody({ shape, pose });
          });
          const check = () => {
            world.step();
            let expected = 0;
            for (let i = 0; i < bodies.length; i++) {
              for (let j = i + 1; j < bodies.length; j++) {
                if (manifold(shapes[i], poses[i], shapes[j], poses[j]) !== null) expected++;
              }
            }
            expect(world.contactCount).toBe(expected);
            const wc = makeWorldContact();
            for (let k = 0; k < world.contactCount; k++) {
              world.readContact(k, wc);
              const i = handles.indexOf(wc.a);
              const j = handles.indexOf(wc.b);
              const q = manifold(shapes[i], poses[i], shapes[j], poses[j]);
              expect(q).not.toBeNull();
              // Box–box pairs are the ones this test is about (sphere pairs take other routines).
              if (!bodies[i].box || !bodies[j].box) continue;
              expect(dump(wc.manifold)).toEqual(dump(q as ContactManifold));
            }
          };
          check();
          for (const [k, d] of moves) {
            const i = k % bodies.length;
            const t = poses[i].translation;
            poses[i] = {
              translation: { x: t.x + d, y: t.y - d / 2, z: t.z },
              rotation: poses[i].rotation,
            };
            world.setPose(handles[i], poses[i]);
            if (k % 3 === 0) check();
          }
          check();
        },
      ),
      { numRuns: 150 },
    );
  });
});
