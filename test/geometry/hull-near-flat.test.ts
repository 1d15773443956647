// Nearly flat and nearly collinear point sets just above the flatness threshold: every input
// point must stay inside or on the hull within the bar HULL_FLAT_FACTOR × hullTolerance (4 ×
// (1e-10 × extent + 8ε × max|x|): relative to the set's size, plus the coordinates' own rounding).
// Oracles: the hull's face planes, collide's projectPoint, and a brute-force support-function gap
// (max over directions of the input's support minus the hull vertices' support).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HULL_FLAT_FACTOR } from "../../src/constants.js";
import { CollideError } from "../../src/errors.js";
import { computeConvexHull, hullTolerance, validateConvexHull } from "../../src/geometry/hull.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import { intersects } from "../../src/query/intersects.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeSphere } from "../../src/shapes/index.js";

type M3 = [number[], number[], number[]];

/** Rotation matrix of the quaternion (x, y, z, w), normalised. */
function rotation(x: number, y: number, z: number, w: number): M3 {
  const l = Math.hypot(x, y, z, w);
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** Worst distance of an input point outside a face plane of the hull. */
function planeExcess(points: number[], hull: ReturnType<typeof computeConvexHull>): number {
  const { faceNormals: n, facePlaneOffsets: d } = hull;
  let worst = 0;
  for (let i = 0; i < points.length; i += 3) {
    for (let f = 0; f < d.length; f++) {
      const s = n[3 * f] * points[i] + n[3 * f + 1] * points[i + 1] + n[3 * f + 2] * points[i + 2];
      worst = Math.max(worst, s - d[f]);
    }
  }
  return worst;
}

/**
 * Brute-force lower bound of how far the input sticks out of the hull of the returned vertices:
 * max over directions d of (max p·d over the input − max v·d over the vertices), the directions
 * spread from along the set's long axis to nearly perpendicular to it (local axes rotated by R).
 */
function supportGap(points: number[], vertices: Float64Array, R: M3, rand: () => number): number {
  let worst = 0;
  for (let k = 0; k < 400; k++) {
    const e = 10 ** (-12 * rand());
    const l = [(2 * rand() - 1) * e, 2 * rand() - 1, 2 * rand() - 1];
    const d = R.map((row) => row[0] * l[0] + row[1] * l[1] + row[2] * l[2]);
    const len = Math.hypot(d[0], d[1], d[2]);
    let mp = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < points.length; i += 3) {
      mp = Math.max(mp, (d[0] * points[i] + d[1] * points[i + 1] + d[2] * points[i + 2]) / len);
    }
    let mv = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < vertices.length; i += 3) {
      mv = Math.max(
        mv,
        (d[0] * vertices[i] + d[1] * vertices[i + 1] + d[2] * vertices[i + 2]) / len,
      );
    }
    worst = Math.max(worst, mp - mv);
  }
  return worst;
}

const I = iso.identity();

describe("nearly flat convex keeps its footprint corners (attack26 F2)", () => {
  const pts = [
    [0.441, -0.21, 1.68e-9],
    [0.419, -0.318, 1.42e-9],
    [-0.49, -1.03, -1.54e-9],
    [-1.95, 1.85, 5.63e-10],
    [0.297, -1.9, 2.86e-10],
  ];

  it("the corner (0.441, −0.21) is a hull vertex: a sphere on it intersects, projection 0", () => {
    // (0.441, −0.21) lies 0.0945 outside the edge (−1.95, 1.85)–(0.297, −1.9) in xy: a corner of
    // the footprint, so a vertex of the exact hull (the z spread, ±1.7e-9, is above the flat bar).
    const hull = computeConvexHull(pts.flat(), { allowFlat: true });
    expect(validateConvexHull(pts.flat(), hull)).toEqual([]);
    expect(hull.vertices.length / 3).toBe(5);
    const shape = makeConvexPolyhedron(pts.flat());
    const ball = makeSphere(0.05);
    expect(intersects(shape, I, ball, iso.create({ x: 0.441, y: -0.21, z: 0 }))).toBe(true);
    const r = projectPoint(shape, I, { x: 0.441, y: -0.21, z: 1.68e-9 });
    expect(r.distance).toBe(0);
  });

  it("fast-check: near-flat sets (thickness 1e-12..1e-6, sizes 1e-6..1e6, offsets to 1e9, rotated) stay within the bar", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 30 }),
        fc.double({ min: -12, max: -6, noNaN: true }),
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.double({ min: -3, max: 9, noNaN: true }),
        fc.boolean(),
        (seed, n, logThickness, logSize, logOffset, centred) => {
          const rand = makeRandom(seed);
          const t = 10 ** logThickness;
          const size = 10 ** logSize;
          const off = centred ? 0 : 10 ** logOffset * size;
          const R = rotation(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5);
          const o = [0, 1, 2].map(() => (2 * rand() - 1) * off);
          const points: number[] = [];
          for (let k = 0; k < n; k++) {
            const l = [2 * rand() - 1, 2 * rand() - 1, (2 * rand() - 1) * t];
            for (let j = 0; j < 3; j++) {
              points.push(size * (R[j][0] * l[0] + R[j][1] * l[1] + R[j][2] * l[2]) + o[j]);
            }
          }
          const bar = HULL_FLAT_FACTOR * hullTolerance(points);
          let hull: ReturnType<typeof computeConvexHull>;
          try {
            hull = computeConvexHull(points, { allowFlat: true });
          } catch (e) {
            // Only refused when the coordinates' rounding swamps the set (far off the origin).
            expect(e).toBeInstanceOf(CollideError);
            expect(off / size).toBeGreaterThan(1e9);
            return;
          }
          expect(planeExcess(points, hull)).toBeLessThanOrEqual(bar);
          expect(supportGap(points, hull.vertices, R, rand)).toBeLessThanOrEqual(bar);
          const shape = makeConvexPolyhedron(points);
          for (let i = 0; i < points.length; i += 3) {
            const q = { x: points[i], y: points[i + 1], z: points[i + 2] };
            expect(projectPoint(shape, I, q).distance).toBeLessThanOrEqual(bar);
          }
        },
      ),
      { numRuns: 400, seed: 26 },
    );
  });

  it("fast-check: needles and nearly collinear ribbons keep their far corners (face planes, support gap)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 30 }),
        fc.double({ min: -12, max: -6, noNaN: true }),
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.boolean(),
        (seed, n, logThickness, logSize, ribbon) => {
          const rand = makeRandom(seed);
          const t = 10 ** logThickness;
          const w = ribbon ? Math.sqrt(t) : t;
          const size = 10 ** logSize;
          const R = rotation(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5);
          const points: number[] = [];
          for (let k = 0; k < n; k++) {
            const l = [2 * rand() - 1, (2 * rand() - 1) * w, (2 * rand() - 1) * t];
            for (let j = 0; j < 3; j++) {
              points.push(size * (R[j][0] * l[0] + R[j][1] * l[1] + R[j][2] * l[2]));
            }
          }
          const bar = HULL_FLAT_FACTOR * hullTolerance(points);
          let hull: ReturnType<typeof computeConvexHull>;
          try {
            hull = computeConvexHull(points, { allowFlat: true });
          } catch (e) {
            // Collinear within the flat bar: refused, never a wrong hull.
            expect(e).toBeInstanceOf(CollideError);
            expect(w).toBeLessThan(1e-9);
            return;
          }
          expect(planeExcess(points, hull)).toBeLessThanOrEqual(bar);
          expect(supportGap(points, hull.vertices, R, rand)).toBeLessThanOrEqual(bar);
        },
      ),
      { numRuns: 400, seed: 27 },
    );
  });
});
