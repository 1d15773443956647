/**
 * 3D `projectPoint` on triangles and surface meshes at any scale (issue 16; session 15,
 * fresh2d). A point 2 above a triangle in the z = 0 plane whose corners are ~1e20 from the
 * origin was "inside, distance 0" (the inside tolerance grew with the corners' distance from
 * the origin), at 1e100 it projected onto a corner's rounding grid 1e100 away, and a mesh at
 * 1e160 was refused ("too far") although the point is 2 from it. The values below are
 * hand-derived: the plane is z = 0 (or x = 0, y = 0), so the closest point of a point over the
 * face is the point with that coordinate zeroed and the distance is that coordinate's
 * magnitude, exactly, at every scale.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

const I = iso.identity();

function corners(s: number): [Vec3, Vec3, Vec3] {
  return [
    { x: -s, y: -s, z: 0 },
    { x: 10 * s, y: -s, z: 0 },
    { x: -s, y: 10 * s, z: 0 },
  ];
}

function shapesAt(c: [Vec3, Vec3, Vec3]) {
  const [a, b, d] = c;
  return {
    triangle: makeTriangle(a, b, d),
    mesh: makeTriangleMesh([a.x, a.y, a.z, b.x, b.y, b.z, d.x, d.y, d.z], [0, 1, 2]),
  };
}

describe("projectPoint onto a triangle / surface mesh at any scale (hand-derived)", () => {
  for (const s of [1, 1e20, 1e100, 1e160, 1e300]) {
    const shapes = shapesAt(corners(s));
    for (const [name, shape] of Object.entries(shapes)) {
      it(`${name} at ${s}: (1,5,2) → (1,5,0) at distance 2, outside; (1,5,0) is on it`, () => {
        const r = projectPoint(shape, I, { x: 1, y: 5, z: 2 });
        expect(r.point).toEqual({ x: 1, y: 5, z: 0 });
        expect(r.distance).toBe(2);
        expect(r.inside).toBe(false);
        const below = projectPoint(shape, I, { x: 1, y: 5, z: -3 });
        expect(below.point).toEqual({ x: 1, y: 5, z: 0 });
        expect(below.distance).toBe(3);
        const on = projectPoint(shape, I, { x: 1, y: 5, z: 0 });
        // A surface mesh has no inside (on it: distance 0, inside false); a triangle is flat.
        expect(on.inside).toBe(name === "triangle");
        expect(on.distance).toBe(0);
        expect(on.point).toEqual({ x: 1, y: 5, z: 0 });
        if (name === "mesh") expect(r.triangle).toBe(0);
      });
      it(`${name} at ${s}: a point past corner a projects onto a exactly`, () => {
        // (−2s, −2s, 1): the corner region of a = (−s, −s, 0); distance √(s² + s² + 1).
        const r = projectPoint(shape, I, { x: -2 * s, y: -2 * s, z: 1 });
        expect(r.point).toEqual({ x: -s, y: -s, z: 0 });
        expect(Math.abs(r.distance / Math.hypot(s, s, 1) - 1)).toBeLessThan(1e-15);
        expect(r.inside).toBe(false);
      });
    }
  }
});

/** x·2^e, exact (two steps so that 2^e itself stays a double for |e| ≤ 1800). */
function times2(x: number, e: number): number {
  const h = Math.trunc(e / 2);
  return x * 2 ** h * 2 ** (e - h);
}

describe("projectPoint onto a triangle in an axis plane (fast-check, scales 2^±900, heights 2^±480 of them)", () => {
  it("a point over the face projects onto it with the axis coordinate zeroed, exactly", () => {
    const unit = fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(unit, unit), { minLength: 3, maxLength: 3 }),
        fc.tuple(
          fc.double({ min: 0.05, max: 1, noNaN: true }),
          fc.double({ min: 0.05, max: 1, noNaN: true }),
          fc.double({ min: 0.05, max: 1, noNaN: true }),
        ),
        fc.integer({ min: -900, max: 900 }),
        // The height's binade relative to the triangle's: up to 2^±480 (beyond 2^500 sizes the
        // in-plane part is only kept to the rounding of the normal component's removal).
        fc.integer({ min: -480, max: 480 }),
        fc.oneof(
          fc.constant(0),
          fc.double({ min: 0.125, max: 8, noNaN: true }),
          fc.double({ min: -8, max: -0.125, noNaN: true }),
        ),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (cs, w, e, df, h, axis, asMesh) => {
          const f = e + df;
          fc.pre(Math.abs(f) <= 1000);
          const [x0, y0] = cs[0];
          const [x1, y1] = cs[1];
          const [x2, y2] = cs[2];
          // A well-shaped triangle (twice its area at least a tenth of its squared size).
          const area2 = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
          const size = Math.max(
            Math.abs(x1 - x0),
            Math.abs(y1 - y0),
            Math.abs(x2 - x0),
            Math.abs(y2 - y0),
          );
          fc.pre(Math.abs(area2) > 0.1 * size * size && size > 0.5);
          const sw = w[0] + w[1] + w[2];
          // The in-plane point: a convex combination well inside (every weight ≥ 0.05/3).
          const u = (w[0] * x0 + w[1] * x1 + w[2] * x2) / sw;
          const v = (w[0] * y0 + w[1] * y1 + w[2] * y2) / sw;
          const height = times2(h, f);
          const lift = (a: number, b: number, c: number): Vec3 =>
            axis === 0
              ? { x: c, y: a, z: b }
              : axis === 1
                ? { x: a, y: c, z: b }
                : { x: a, y: b, z: c };
          const A = lift(times2(x0, e), times2(y0, e), 0);
          const B = lift(times2(x1, e), times2(y1, e), 0);
          const C = lift(times2(x2, e), times2(y2, e), 0);
          const pu = times2(u, e);
          const pv = times2(v, e);
          const p = lift(pu, pv, height);
          const shape = asMesh
            ? makeTriangleMesh([A.x, A.y, A.z, B.x, B.y, B.z, C.x, C.y, C.z], [0, 1, 2])
            : makeTriangle(A, B, C);
          const r = projectPoint(shape, I, p);
          if (height === 0) {
            expect(r.inside).toBe(!asMesh);
            expect(r.distance).toBe(0);
            expect(r.point).toEqual(p);
            return;
          }
          expect(r.inside).toBe(false);
          expect(r.distance).toBe(Math.abs(height));
          const q = lift(pu, pv, 0);
          expect(r.point.x).toBe(q.x);
          expect(r.point.y).toBe(q.y);
          expect(r.point.z).toBe(q.z);
        },
      ),
      { numRuns: 400 },
    );
  });
});
