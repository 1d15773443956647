/**
 * Regression (fresh-user pass, session 2): a sphere whose centre lies in the plane of a triangle,
 * inside it, got an in-plane contact normal ((0.707, 0.707, 0) for the centre (0.2, 0.2, 0) of a
 * triangle in z = 0): the Voronoi-region closest point carried rounding of about 1e-17 in the
 * plane, and the normal was that rounding normalised. Hand-derived answer: the normal is the
 * face normal (either side, ±z), the depth the radius, the witness on the triangle the centre.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact } from "../../src/query/contact.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

const I = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const at = (x: number, y: number, z: number) => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

describe("sphere centred on a triangle's face", () => {
  const tri = makeTriangle({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });

  it("the reported case: normal ±z, depth = radius, in both argument orders", () => {
    for (const c of [
      contact(tri, I, makeSphere(0.1), at(0.2, 0.2, 0)),
      contact(makeSphere(0.1), at(0.2, 0.2, 0), tri, I),
    ]) {
      expect(c).not.toBeNull();
      expect(Math.abs(c!.normal.z)).toBe(1);
      expect(c!.normal.x).toBe(0);
      expect(c!.normal.y).toBe(0);
      expect(c!.distance).toBeCloseTo(-0.1, 15);
    }
  });

  it("any centre inside the face at heights 0 or ±1e-12: the normal is the face normal", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.98, noNaN: true }),
        fc.double({ min: 0.01, max: 0.98, noNaN: true }),
        fc.constantFrom(0, 1e-12, -1e-12),
        fc.constantFrom(1, 1e-3, 1e4),
        (u, v, z, scale) => {
          fc.pre(u + v < 0.99);
          const t = makeTriangle(
            { x: 0, y: 0, z: 0 },
            { x: scale, y: 0, z: 0 },
            { x: 0, y: scale, z: 0 },
          );
          const r = 0.005 * scale;
          const c = contact(makeSphere(r), at(u * scale, v * scale, z * scale), t, I);
          expect(c).not.toBeNull();
          expect(Math.abs(c!.normal.z)).toBeCloseTo(1, 12);
          expect(Math.abs(c!.distance + r - Math.abs(z * scale))).toBeLessThan(1e-12 * scale);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("through a triangle mesh too (collide query and check take this path)", () => {
    const mesh = makeTriangleMesh(
      new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      new Uint32Array([0, 1, 2]),
    );
    const c = contact(mesh, I, makeSphere(0.1), at(0.2, 0.2, 0));
    expect(c).not.toBeNull();
    expect(Math.abs(c!.normal.z)).toBe(1);
  });
});
