/**
 * The world keeps each slot's bounding radius beside its pose (`SlotStore.radius`, written by
 * `addBody`) for the narrow phase's reject test, which then reads no shape object. A slot freed
 * by `removeBody` and reused by a body of another shape must get the new shape's radius: a
 * stale radius of a small sphere would drop the pair of a big box in that slot. Oracle: the
 * pair query `contact` on the same poses (hand-placed so that the big box reaches its neighbour
 * and the old sphere's reach would not), and the same step in a world built afresh.
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

/** Every contact of the world's last step as plain numbers (−0 kept apart). */
function dump(w: CollisionWorld): number[] {
  const out: number[] = [];
  for (const c of w.contacts()) {
    const m = c.manifold;
    out.push(c.distance, m.count, m.normal.x, m.normal.y, m.normal.z);
    for (let i = 0; i < m.count; i++) {
      const p = m.points[i];
      out.push(p.pointA.x, p.pointA.y, p.pointA.z, p.pointB.x, p.pointB.y, p.pointB.z);
      out.push(p.distance, p.featureId);
    }
  }
  return out;
}

describe("the world's per-slot bounding radius", () => {
  it("follows a reused slot's new shape (a big box where a small sphere was)", () => {
    for (const broadphase of ["brute", "grid", "tree"] as const) {
      const w = new CollisionWorld({ broadphase });
      const small = w.addBody({ shape: makeSphere(0.1), pose: at(0, 0, 0) });
      const far = w.addBody({ shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: at(3, 0, 0) });
      w.step();
      expect(w.contacts()).toHaveLength(0);
      w.removeBody(small);
      w.step();
      // The freed slot comes back (LIFO) with a box of half extent 2.8: it overlaps the box at
      // x = 3 (faces at 2.8 and 2.5) by 0.3, far beyond the old sphere's reach of 0.1.
      const big = makeCuboid({ x: 2.8, y: 2.8, z: 2.8 });
      const reused = w.addBody({ shape: big, pose: at(0, 0, 0) });
      w.step();
      const contacts = w.contacts();
      expect(contacts).toHaveLength(1);
      const q = contact(big, at(0, 0, 0), makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), at(3, 0, 0));
      expect(q).not.toBeNull();
      // The reused slot 0 (generation 1) still sorts before slot 1: the big box is body A.
      expect(reused < far).toBe(true);
      expect(contacts[0].distance).toBeCloseTo(-0.3, 12);
      expect(contacts[0].distance).toBe(q?.distance);
      expect(contacts[0].manifold.normal.x).toBe(1);

      // The same bodies added to a fresh world (no slot reuse): bitwise the same contacts.
      const fresh = new CollisionWorld({ broadphase });
      fresh.addBody({ shape: big, pose: at(0, 0, 0) });
      fresh.addBody({ shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: at(3, 0, 0) });
      fresh.step();
      expect(dump(w)).toEqual(dump(fresh));
    }
  });
});
