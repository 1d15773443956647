/**
 * Issue 16: a hull made from points all near 1e10 with no position (pose at the identity) was
 * answered at the rounding of 1e10, not of its size: `projectPoint`'s distance off by 1.2e-6 for
 * a hull of size 1 (4.4e-6 for one of 0.01), `distance` between two such hulls by 1.4e-6, against
 * bars of 1e-9·R + 256ε·R and 1e-9·d + 64ε·L (docs/FORMATS.md, Accuracy). Such a hull is answered
 * in the frame at its centre (src/shapes/hull-frame.ts). Oracle: brute force over the point sets'
 * triangles, edges and vertices (test/oracles/polytope-distance.ts) on the points in their own
 * frame (the offset subtracted, exactly: every coordinate is on the 2^-19 grid, which 1e10 holds).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../../src/narrowphase/dispatch.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { distance } from "../../src/query/distance.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeConvexPolyhedron } from "../../src/shapes/index.js";
import { polytopeDistance } from "../oracles/polytope-distance.js";

const EPS = 2 ** -52;
const GRID = 2 ** -19;
const onGrid = (x: number) => Math.round(x / GRID) * GRID;
const V = (p: number[]): Vec3 => ({ x: p[0], y: p[1], z: p[2] });

/** n points on the sphere of radius r about c, on the grid. */
function ballPoints(dirs: number[][], r: number, c: number[]): number[][] {
  // A tetrahedron's directions first: never a flat or collinear set.
  const tetra = [
    [1, 1, 1],
    [1, -1, -1],
    [-1, 1, -1],
    [-1, -1, 1],
  ];
  return tetra.concat(dirs).map((d) => {
    const l = Math.hypot(...d);
    return d.map((x, k) => onGrid(c[k] + (x / l) * r));
  });
}

const dir = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter((d) => Math.hypot(...d) > 0.1)
  .map((d) => [...d]);

describe("a hull given far from its frame's origin (issue 16)", () => {
  it("projectPoint and distance at 1e6–1e10 as at the origin: within the bars of the hull's size (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.array(dir, { minLength: 8, maxLength: 14 }),
        fc.array(dir, { minLength: 6, maxLength: 10 }),
        dir,
        fc.constantFrom(0.01, 1, 100),
        fc.constantFrom([1e10, -1e10, 5e9], [1e6, 0, 0], [0, 0, -1e10]),
        fc.double({ min: 1.6, max: 4, noNaN: true }),
        (da, db, toward, R, base, k) => {
          const local = ballPoints(da, R, [0, 0, 0]);
          const A = makeConvexPolyhedron(local.flatMap((p) => p.map((x, i) => x + base[i])));
          const l = Math.hypot(...toward);
          const pl = toward.map((x) => onGrid((x / l) * R * k));
          const pw = pl.map((x, i) => x + base[i]);
          // projectPoint: the point is outside the ball of the points, so outside the hull.
          const pr = projectPoint(A, iso.identity(), V(pw), true);
          const want = polytopeDistance([V(pl)], local.map(V));
          expect(pr.inside).toBe(false);
          expect(Math.abs(pr.distance - want)).toBeLessThanOrEqual(1e-9 * R + 256 * EPS * R);
          const u = EPS * Math.max(...pw.map(Math.abs));
          const onSurface = polytopeDistance(
            [V([pr.point.x - base[0], pr.point.y - base[1], pr.point.z - base[2]])],
            local.map(V),
          );
          expect(onSurface).toBeLessThanOrEqual(1e-9 * R + 256 * EPS * R + 4 * u);
          // distance to a hull of radius R/2 about that point (apart: centres ≥ 1.6 R apart).
          const lb = ballPoints(db, R / 2, pl);
          const B = makeConvexPolyhedron(lb.flatMap((p) => p.map((x, i) => x + base[i])));
          const wantD = polytopeDistance(local.map(V), lb.map(V));
          const d = distance(A, iso.identity(), B, iso.identity());
          const L = R * (k + 1);
          expect(Math.abs(d.distance - wantD)).toBeLessThanOrEqual(1e-9 * wantD + 64 * EPS * L);
          const swapped = distance(B, iso.identity(), A, iso.identity());
          expect(swapped.distance).toBe(d.distance);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a unit cube at 1e10: the projection of a point 0.25 off a face is exactly 0.25 away, the foot on the face", () => {
    const c = 1e10;
    const pts: number[] = [];
    for (const x of [-0.5, 0.5])
      for (const y of [-0.5, 0.5]) for (const z of [-0.5, 0.5]) pts.push(c + x, c + y, c + z);
    const A = makeConvexPolyhedron(pts);
    const pr = projectPoint(A, iso.identity(), { x: c + 0.75, y: c + 0.125, z: c - 0.25 }, true);
    expect(pr.distance).toBe(0.25);
    expect(pr.point).toEqual({ x: c + 0.5, y: c + 0.125, z: c - 0.25 });
  });
});
