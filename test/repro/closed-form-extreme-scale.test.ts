/**
 * Regression (second fresh-user pass, session 2): the closed-form pair routines compare squared
 * lengths, which underflow or overflow far from unit scale. Two spheres of radius 1e-200 with
 * centres 2.5e-200 apart were reported touching while `distance` gave the gap; capsule contacts
 * at 1e±200 had the wrong sign and a NaN witness. Oracle: hand-derived answers at size s —
 * spheres or boxes of size s at 2.5·s have a gap of 0.5·s, at 1.5·s a depth of 0.5·s; a sphere of
 * radius s/4 at height s over a triangle in z = 0 has a gap of 0.75·s.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";

const at = (x: number, y = 0, z = 0) => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

describe("closed-form pairs at 1e±40 … 1e±300", () => {
  it("spheres, boxes and capsules: gap 0.5·s at 2.5·s and depth 0.5·s at 1.5·s, in every query", () => {
    fc.assert(
      fc.property(fc.integer({ min: 40, max: 300 }), fc.boolean(), (e, big) => {
        const s = big ? 10 ** e : 10 ** -e;
        fc.pre(Number.isFinite(s) && s > 0 && 3 * s < Number.MAX_VALUE);
        const sphere = makeSphere(s);
        const box = makeCuboid({ x: s, y: s, z: s });
        const capsule = makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, s);
        for (const [a, b] of [
          [sphere, sphere],
          [sphere, box],
          [box, sphere],
          [capsule, sphere],
          [capsule, capsule],
        ] as const) {
          expect(intersects(a, at(0), b, at(2.5 * s))).toBe(false);
          expect(distance(a, at(0), b, at(2.5 * s)).distance / s).toBeCloseTo(0.5, 12);
          expect(intersects(a, at(0), b, at(1.5 * s))).toBe(true);
          const c = contact(a, at(0), b, at(1.5 * s), 0);
          expect(c).not.toBeNull();
          expect(c!.distance / s).toBeCloseTo(-0.5, 12);
          expect(c!.normal.x).toBeCloseTo(1, 12);
          expect(Number.isFinite(c!.pointA.x) && Number.isFinite(c!.pointB.x)).toBe(true);
          const m = manifold(a, at(0), b, at(1.5 * s), 0);
          expect(m).not.toBeNull();
          expect(m!.count).toBeGreaterThan(0);
          for (let i = 0; i < m!.count; i++) expect(m!.points[i].distance / s).toBeCloseTo(-0.5, 9);
        }
        const tri = makeTriangle(
          { x: -s, y: -s, z: 0 },
          { x: s, y: -s, z: 0 },
          { x: 0, y: s, z: 0 },
        );
        const ct = contact(tri, at(0), makeSphere(0.25 * s), at(0, 0, s), Number.POSITIVE_INFINITY);
        expect(ct).not.toBeNull();
        expect(ct!.distance / s).toBeCloseTo(0.75, 12);
      }),
      { numRuns: 60 },
    );
  });
});
