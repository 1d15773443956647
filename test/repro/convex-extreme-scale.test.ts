/**
 * Regression (fresh-user pass, session 2): GJK/EPA on general convex shapes gave wrong answers,
 * without an error, far outside unit scale. Two cylinders of radius and half height s at x = 0
 * and 1.5·s were reported apart for s ≥ 1e77 (squared and cubed lengths overflowed); the depth
 * was 0 for s ≤ 1e-90 (they underflowed); hulls 1e155 apart were at distance 0. Oracles: the
 * hand-derived answers (the cylinders overlap by exactly 0.5·s along x, and their gap at 3·s is
 * s; EPA on curved shapes converges to EPA_TOLERANCE = 1e-4 relative), scale invariance of the
 * GJK distances, and the gap of two unit cubes 1e155 apart.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact, distance, intersects } from "../../src/index.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";

const at = (x: number, y = 0, z = 0) => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});
const cube = (h: number) => {
  const p: number[] = [];
  for (const x of [-h, h]) for (const y of [-h, h]) for (const z of [-h, h]) p.push(x, y, z);
  return makeConvexPolyhedron(p);
};

describe("convex pairs far from unit scale", () => {
  it("cylinders of size s at 1.5·s and 3·s: the hand-derived answers times s, for s = 1e±60 … 1e±300", () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 300 }), fc.boolean(), (e, big) => {
        const s = big ? 10 ** e : 10 ** -e;
        fc.pre(Number.isFinite(s) && s > 0 && s * 3 < Number.MAX_VALUE);
        const c = makeCylinder(s, s);
        expect(intersects(c, at(0), c, at(1.5 * s))).toBe(true);
        const ct = contact(c, at(0), c, at(1.5 * s), 0);
        expect(ct).not.toBeNull();
        expect(Math.abs(ct!.distance / s + 0.5)).toBeLessThan(0.5 * 1e-4);
        expect(Math.abs(ct!.normal.x)).toBeGreaterThan(1 - 1e-4);
        expect(distance(c, at(0), c, at(3 * s)).distance / s).toBeCloseTo(1, 9);
      }),
      { numRuns: 60 },
    );
  });

  it("other curved and mixed pairs stay scale invariant (capsule–cone, hull–cylinder)", () => {
    for (const s of [1e-150, 1e-80, 1, 1e80, 1e150]) {
      const cap = makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, 0.5 * s);
      const cone = makeCone(s, s);
      const hull = cube(s);
      const cyl = makeCylinder(s, s);
      const d1 = distance(cap, at(0), cone, at(4 * s)).distance / s;
      const d2 = distance(hull, at(0), cyl, at(0, 0, 5 * s)).distance / s;
      expect(d1).toBeCloseTo(
        distance(
          makeCapsule({ x: 0, y: -1, z: 0 }, { x: 0, y: 1, z: 0 }, 0.5),
          at(0),
          makeCone(1, 1),
          at(4),
        ).distance,
        9,
      );
      expect(d2).toBeCloseTo(3, 9);
    }
  });

  it("unit cubes 1e155 and 1e300 apart: the gap is the offset less 2", () => {
    const c = cube(1);
    expect(distance(c, at(0), c, at(1e155)).distance).toBe(1e155 - 2);
    expect(distance(c, at(0), c, at(1e300)).distance).toBe(1e300 - 2);
    expect(intersects(c, at(0), c, at(1e300))).toBe(false);
  });
});
