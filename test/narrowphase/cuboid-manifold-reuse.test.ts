/**
 * `manifoldCuboidCuboid` reuses the manifold that `contactCuboidCuboid` clipped for its witness
 * points. Oracle: `manifoldFromContact` computed afresh from the same contact — the two must be
 * bitwise equal (every point, distance, feature id and the normal), whether the reuse applies
 * (same shapes, pose, normal, distance, prediction 0) or not (another pose, another pair, a
 * positive prediction, an edge–edge contact, a contact the caller changed).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { Contact, ContactManifold } from "../../src/narrowphase/contact.js";
import { makeContact, makeContactManifold } from "../../src/narrowphase/contact.js";
import { contactCuboidCuboid, manifoldCuboidCuboid } from "../../src/narrowphase/cuboid-cuboid.js";
import { manifoldFromContact } from "../../src/narrowphase/manifold.js";
import { manifoldPair } from "../../src/narrowphase/pair-table.js";
import { type Cuboid, makeCuboid } from "../../src/shapes/cuboid.js";
import { pose, unitQuat, vec } from "../oracles/arbitraries.js";

/** The manifold as plain numbers, −0 kept apart from +0 (Object.is through toEqual). */
function dump(m: ContactManifold): number[] {
  const out = [m.count, m.normal.x, m.normal.y, m.normal.z];
  for (let i = 0; i < m.count; i++) {
    const p = m.points[i];
    out.push(p.pointA.x, p.pointA.y, p.pointA.z, p.pointB.x, p.pointB.y, p.pointB.z);
    out.push(p.distance, p.featureId);
  }
  return out;
}

function cloneContact(c: Contact): Contact {
  const d = makeContact();
  d.distance = c.distance;
  d.normal.x = c.normal.x;
  d.normal.y = c.normal.y;
  d.normal.z = c.normal.z;
  d.pointA.x = c.pointA.x;
  d.pointA.y = c.pointA.y;
  d.pointA.z = c.pointA.z;
  d.pointB.x = c.pointB.x;
  d.pointB.y = c.pointB.y;
  d.pointB.z = c.pointB.z;
  return d;
}

const halfExtents = vec(0.05, 3).map((v) => ({
  x: Math.abs(v.x) + 0.01,
  y: Math.abs(v.y) + 0.01,
  z: Math.abs(v.z) + 0.01,
}));
/** B's pose near A: overlapping, touching or apart; axis-aligned rotations now and then. */
const nearPose: fc.Arbitrary<Isometry> = fc.oneof(
  pose(-2.5, 2.5),
  fc.record({ translation: vec(-2, 2), rotation: fc.constant({ x: 0, y: 0, z: 0, w: 1 }) }),
  fc.record({ translation: vec(-1, 1), rotation: unitQuat }),
);

describe("manifoldCuboidCuboid (witness manifold reuse)", () => {
  it("equals manifoldFromContact bitwise, right after the contact and after other calls", () => {
    fc.assert(
      fc.property(
        halfExtents,
        halfExtents,
        nearPose,
        nearPose,
        fc.constantFrom(0, 0, 0.05, 1),
        fc.constantFrom("direct", "other-pair-between", "same-shapes-other-pose"),
        (ha, hb, p, q, prediction, order) => {
          const a: Cuboid = makeCuboid(ha);
          const b: Cuboid = makeCuboid(hb);
          const c = makeContact();
          if (!contactCuboidCuboid(c, a, b, p, prediction)) return;
          const fresh = makeContactManifold();
          manifoldFromContact(fresh, a, b, p, cloneContact(c), prediction);
          if (order === "other-pair-between") {
            // Another contact in between replaces the kept witness.
            contactCuboidCuboid(makeContact(), b, a, q, 0);
          } else if (order === "same-shapes-other-pose") {
            contactCuboidCuboid(makeContact(), a, b, q, 0);
          }
          const got = makeContactManifold();
          manifoldCuboidCuboid(got, a, b, p, c, prediction);
          expect(dump(got)).toEqual(dump(fresh));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("does not reuse for a contact whose normal or distance the caller changed", () => {
    const a = makeCuboid({ x: 1, y: 1, z: 1 });
    const b = makeCuboid({ x: 0.3, y: 0.2, z: 0.4 });
    const p: Isometry = {
      translation: { x: 0.2, y: 1.1, z: -0.1 },
      rotation: { x: 0.1, y: 0.05, z: 0, w: Math.sqrt(1 - 0.0125) },
    };
    const c = makeContact();
    expect(contactCuboidCuboid(c, a, b, p, 0)).toBe(true);
    const reused = makeContactManifold();
    manifoldCuboidCuboid(reused, a, b, p, c, 0);
    expect(reused.count).toBeGreaterThan(1);
    for (const edit of ["distance", "normal"] as const) {
      const d = cloneContact(c);
      if (edit === "distance") d.distance -= 0.05;
      else d.normal.x += 1e-9;
      const fresh = makeContactManifold();
      manifoldFromContact(fresh, a, b, p, cloneContact(d), 0);
      const got = makeContactManifold();
      contactCuboidCuboid(makeContact(), a, b, p, 0);
      manifoldCuboidCuboid(got, a, b, p, d, 0);
      expect(dump(got)).toEqual(dump(fresh));
    }
  });

  it("the pair table's box–box manifold is the contact widened afresh", () => {
    fc.assert(
      fc.property(halfExtents, halfExtents, nearPose, (ha, hb, p) => {
        const a = makeCuboid(ha);
        const b = makeCuboid(hb);
        const c = makeContact();
        if (!contactCuboidCuboid(c, a, b, p, 0)) return;
        const fresh = makeContactManifold();
        manifoldFromContact(fresh, a, b, p, cloneContact(c), 0);
        const got = makeContactManifold();
        expect(manifoldPair(got, a, b, p, 0)).toBe(true);
        expect(dump(got)).toEqual(dump(fresh));
      }),
      { numRuns: 1000 },
    );
  });
});
