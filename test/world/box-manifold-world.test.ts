/**
 * The world's box–box manifolds (which reuse the witness clipping of the box–box contact,
 * src/narrowphase/cuboid-cuboid.ts `manifoldCuboidCuboid`) are the `manifold` query's, bitwise,
 * on clustered boxes and spheres of sizes spanning 1:100 stepped through a few random moves.
 * Oracle: the `manifold` query per touching pair, and the brute-force pair set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { canonicalOrder } from "../../src/narrowphase/canonical-order.js";
import type { ContactManifold } from "../../src/narrowphase/contact.js";
import { offsetOutOfRange } from "../../src/narrowphase/extreme-scale.js";
import { contact } from "../../src/query/contact.js";
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

  it("equal the manifold query bitwise when the pair is solved in the other order far outside unit scale", () => {
    // Regression (fast-check seed 20261201): two boxes 7.5e-75 apart, B's offset outside
    // [2^-128, 2^128] (the world took the table's dispatcher in the order (A, B)) and the
    // relative pose's canonical order the other one (the queries took (B, A) on the pose formed
    // from the world poses in that order). Each insertion order: the world's record is the
    // manifold query's, the contact query's depth is the record's, and the contact in the other
    // order is this one flipped exactly (+0 stays +0).
    const r = Math.SQRT1_2;
    const a = makeCuboid({ x: 0.0497, y: 0.0426, z: 0.0256 });
    const b = makeCuboid({ x: 0.0321, y: 0.0309, z: 0.0356 });
    const pa: Isometry = {
      translation: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: r, z: 0, w: r },
    };
    const pb: Isometry = {
      translation: { x: -7.5e-75, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const bInA = iso.invMul(iso.identity(), pa, pb);
    expect(offsetOutOfRange(bInA)).toBe(true);
    expect(canonicalOrder(bInA)).toBe(-1);
    for (const [s0, p0, s1, p1] of [
      [a, pa, b, pb],
      [b, pb, a, pa],
    ] as const) {
      const world = new CollisionWorld();
      const h0 = world.addBody({ shape: s0, pose: p0 });
      world.addBody({ shape: s1, pose: p1 });
      world.step();
      expect(world.contactCount).toBe(1);
      const wc = makeWorldContact();
      world.readContact(0, wc);
      expect(wc.a).toBe(h0);
      const q = manifold(s0, p0, s1, p1) as ContactManifold;
      expect(q).not.toBeNull();
      expect(dump(wc.manifold)).toEqual(dump(q));
      const c = contact(s0, p0, s1, p1);
      expect(c).not.toBeNull();
      expect(c?.distance).toBe(wc.distance);
      // The other order's contact is this one flipped exactly (+0 stays +0).
      const f = contact(s1, p1, s0, p0);
      expect([f?.normal.x, f?.normal.y, f?.normal.z]).toEqual([
        0 - (c?.normal.x as number),
        0 - (c?.normal.y as number),
        0 - (c?.normal.z as number),
      ]);
      expect(f?.pointA).toEqual(c?.pointB);
      expect(f?.pointB).toEqual(c?.pointA);
    }
  });
});
