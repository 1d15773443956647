/**
 * A triangle far larger than 2^240 (a bare triangle or a mesh's part) queried against a shape
 * near unit size at a small offset: before the change the offset was in range, so no change of
 * units applied, and the triangle routines' squared lengths and cross products overflowed (a unit
 * sphere 0.2 from a 1e200 mesh triangle was answered 1.4e200 away). Now such a pair is brought
 * into range by a power of two that keeps the small shape's squares normal
 * (src/narrowphase/extreme-scale.ts `triangleRescaleFactor`). The triangle lies in the plane
 * x = 0 (exact at any size) and covers the shapes' projection, so the answer is hand-derived: the
 * gap is B's lowest x, its witness on A at x = 0. Spheres and capsules (closed forms) are right
 * for a span of sizes up to 2^720 (the triangle brought to 2^240, the small shape kept above
 * 2^-480); a cylinder or cone against a mesh part, or a polytope against any triangle more than
 * about 2^52 times its size, is the ratio limit FORMATS.md states (GJK's and the SAT's
 * tolerances follow the triangle's size), not tested here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import type { Shape } from "../../src/shapes/shape.js";

const ID = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };

function bigTriangle(s: number, mesh: boolean): Shape {
  const v = [0, -s, -s, 0, s, -s, 0, 0, s];
  if (mesh) return api.makeTriangleMesh(v, [0, 1, 2]);
  return api.makeTriangle({ x: 0, y: -s, z: -s }, { x: 0, y: s, z: -s }, { x: 0, y: 0, z: s });
}

/** B (lowest x at `r` below its centre along x) with that lowest x. */
function smallShape(kind: string, r: number): Shape {
  switch (kind) {
    case "sphere":
      return api.makeSphere(r);
    case "capsule":
      return api.makeCapsule({ x: 0, y: -r, z: 0 }, { x: 0, y: r, z: 0 }, r);
    default:
      // a cylinder's and a cone's axis is y: the curved side reaches x = −r
      return kind === "cylinder" ? api.makeCylinder(r, r) : api.makeCone(r, r);
  }
}

const KINDS = ["sphere", "capsule"] as const;

describe("a triangle beyond 2^240 against a unit-size shape at a small offset", () => {
  const cases: [number, string][] = [];
  for (const s of [1e155, 1e200, 1e250, 1e300]) cases.push([s, "sphere"]);
  for (const s of [1e155, 1e200]) cases.push([s, "capsule"], [s, "cylinder"]);
  for (const [s, kind] of cases)
    for (const mesh of kind === "cylinder" ? [false] : [false, true])
      it(`${mesh ? "mesh" : "triangle"} of ${s} – ${kind}: gap 0.2 and overlap 0.2`, () => {
        const a = bigTriangle(s, mesh);
        const b = smallShape(kind, 1);
        const apart = { translation: { x: 1.25, y: 0.3, z: 0.1 }, rotation: ID.rotation };
        expect(api.intersects(a, ID, b, apart)).toBe(false);
        const d = api.distance(a, ID, b, apart);
        expect(d.distance).toBeCloseTo(0.25, 12);
        expect(Math.abs(d.pointA.x)).toBeLessThan(1e-12);
        expect(d.pointB.x).toBeCloseTo(0.25, 12);
        expect(Math.hypot(d.pointB.y - 0.3, d.pointB.z - 0.1)).toBeLessThanOrEqual(1 + 1e-12);
        const over = { translation: { x: 0.75, y: 0.3, z: 0.1 }, rotation: ID.rotation };
        expect(api.intersects(a, ID, b, over)).toBe(true);
        const c = api.contact(a, ID, b, over);
        expect(c).not.toBeNull();
        if (!c) return;
        expect(c.distance).toBeCloseTo(-0.25, 12);
        expect(c.normal.x).toBeCloseTo(1, 12);
      });
});

describe("property: sizes 2^520..2^1000, B of 2^-20..2^20 at gaps of 2^-10..2 times its size", () => {
  it("spheres and capsules: distance and contact are B's lowest x (exact plane x = 0)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 520, max: 1000 }),
        fc.integer({ min: -20, max: 20 }),
        fc.double({ min: 2 ** -10, max: 2, noNaN: true }),
        fc.boolean(),
        fc.constantFrom(...KINDS),
        fc.boolean(),
        (e, er, gapRatio, mesh, kind, overlap) => {
          const s = 2 ** (kind === "capsule" ? Math.min(e, 700) : e);
          const r = 2 ** er;
          const g = (overlap ? -Math.min(gapRatio, 0.5) : gapRatio) * r;
          const a = bigTriangle(s, mesh);
          const b = smallShape(kind, r);
          const pose = {
            translation: { x: r + g, y: 0.3 * r, z: -0.2 * r },
            rotation: ID.rotation,
          };
          const gap = pose.translation.x - r; // B's lowest x, as rounded in the pose
          expect(api.intersects(a, ID, b, pose)).toBe(gap <= 0);
          const c = api.contact(a, ID, b, pose, Math.abs(gap) * 2 + r);
          expect(c).not.toBeNull();
          if (!c) return;
          expect(Math.abs(c.distance - gap)).toBeLessThanOrEqual(1e-9 * r);
          if (gap > 0) {
            const d = api.distance(a, ID, b, pose);
            expect(Math.abs(d.distance - gap)).toBeLessThanOrEqual(1e-9 * r);
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
