/**
 * Regression: GJK's answer depended on its starting direction near degenerate Minkowski
 * differences (found by the property tests of test/geometry/gjk.test.ts with the default seed
 * 20261201 and with FC_SEED=1, 13, 14, 23).
 *
 * The fault: v = Σ λ_i w_i carries an absolute rounding error of about ε·max|w_i|, so when a
 * long edge (or a wide face) of the simplex passes within 1e-9 of the origin, the direction of
 * v was mostly rounding. The duplicate-support-point and "no progress" exits then stopped GJK
 * on a segment 1.5e-9 or 3e-9 from the origin while the Minkowski difference holds the origin
 * (the oracle's distance is 0), and the reported direction (from pointA − pointB, 1e6 from the
 * origin) missed the supporting planes by up to 8e-6. Fixed in src/geometry/gjk.ts: v is made
 * orthogonal to the simplex (refinement on an edge, the plane's normal on a face), a stalled
 * |v|² keeps iterating while the support point is still well beyond v, and the distance and
 * direction come from the best simplex's v.
 *
 * Expected values are those of the brute-force oracle (test/oracles/polytope-distance.ts),
 * recomputed here as well.
 */
import { describe, expect, it } from "vitest";
import { GjkStatus, gjk, makeGjkResult } from "../../src/geometry/gjk.js";
import { PointCloudSupport } from "../../src/geometry/support.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { polytopeDistance, supportValue } from "../oracles/polytope-distance.js";

type P = [number, number, number];

interface Repro {
  name: string;
  a: P[];
  b: P[];
  /** The oracle's distance between the hulls. */
  distance: number;
  /** Size of the shapes (the test's relative scale) and their distance from the origin. */
  size: number;
  offset: number;
}

const cases: Repro[] = [
  {
    name: "seed 20261201: A almost a segment on y, B at ±1 in z (origin inside A − B)",
    a: [
      [0, -3.009423283137229e-9, 0],
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
      [0, 3.870902793002011e-33, -1.3010827888003978e-47],
      [0, 0, 4.606899742968211e-99],
      [-3.812534130037692e-31, 0, 8.227427102918052e-50],
      [0, 2.2782430444690596e-57, -3.263709612882197e-70],
      [0, 0, 1.7345463899408403e-65],
    ],
    b: [
      [0, 1.9305678604710458e-92, 3.4063678720065206e-108],
      [1.447254033849037e-69, -2.220446049250313e-16, 1],
      [0, 1.1102230246251565e-16, -0.9999999999999982],
      [0, 0, 0],
      [-1.6233225126266546e-52, 0, 0],
      [0, -7.98641294463532e-97, -1.03954097656449e-112],
    ],
    distance: 0,
    size: 1,
    offset: 0,
  },
  {
    name: "seed 13: segments along x and y, B's point 2.3e-9 off in z (origin inside A − B)",
    a: [
      [3.834281679854158e-77, 0, 0],
      [1.954606957776625e-38, 0, 0],
      [5.547974623991262e-21, 0, 0],
      [0, -0.9999999999999991, 0],
      [1.0036821016494122e-39, -5.424179969474274e-68, 0],
      [0, 0, 0],
      [0, -0.9999999999999989, -9.390848750405318e-68],
    ],
    b: [
      [0.9999999999999992, -0.9999999999999982, -1.862197068640375e-83],
      [0, 7.293375782555324e-276, 2.3345755270346594e-9],
      [0, -4.953787983742659e-15, 0],
      [1.1980399991701608e-49, 7.293375782555324e-276, 9.192842275178753e-30],
    ],
    distance: 0,
    size: 1,
    offset: 0,
  },
  {
    name: "seed 1: a point against a 30-long segment 3.7e-6 away, 1e6 from the origin",
    a: [[1000000, -1000000, 500000]],
    b: [
      [1000000, -1000000, 500030],
      [1000000, -1000000.0000036947, 500000],
    ],
    distance: 3.69467306882143e-6,
    size: 30,
    offset: 1e6,
  },
  {
    name: "seed 14: a 30-long segment against a point 8.5e-6 away, 1e6 from the origin",
    a: [
      [1000000, -1000000, 500000.0000084557],
      [1000000, -999970, 500000],
    ],
    b: [[1000000, -1000000, 500000]],
    distance: 8.455710485577583e-6,
    size: 30,
    offset: 1e6,
  },
  {
    name: "seed 23: a 90-long segment through the origin against a point 7.8e-8 off it",
    a: [
      [0, 0, 0],
      [29.999999999999993, 14.999999999999996, -29.999999999999993],
      [-30, -15, 30],
    ],
    b: [[-1.2956677713709972e-95, -7.776572916110778e-8, 1.2956677713709939e-95]],
    distance: 7.331823257831434e-8,
    size: 30,
    offset: 0,
  },
];

const toVec = (p: P): Vec3 => ({ x: p[0], y: p[1], z: p[2] });

function pack(pts: readonly P[]): Float64Array {
  return Float64Array.from(pts.flat());
}

/** Starting directions: cold (null), the axes both ways, two oblique ones. */
const starts: (Vec3 | null)[] = [
  null,
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 0, y: -1, z: 0 },
  { x: 0, y: 0, z: 1 },
  { x: 0, y: 0, z: -1 },
  { x: 1, y: 2, z: 3 },
  { x: -3, y: 1, z: -2 },
];

describe("repro: GJK's distance does not depend on the starting direction", () => {
  const supA = new PointCloudSupport();
  const supB = new PointCloudSupport();
  const res = makeGjkResult();

  for (const c of cases) {
    it(c.name, () => {
      const a = c.a.map(toVec);
      const b = c.b.map(toVec);
      // The recorded value is the oracle's.
      expect(polytopeDistance(a, b)).toBe(c.distance);
      supA.reset(pack(c.a));
      supB.reset(pack(c.b));
      const tol = 1e-9 * Math.max(c.distance, c.size) + 1e-14 * c.offset;
      const planeTol = 1e-9 * c.size + 1e-12 * c.offset;
      for (const start of starts) {
        for (const warm of [false, true]) {
          const init = warm ? vec3.clone(gjk(res, supA, supB, start).direction) : start;
          const r = gjk(res, supA, supB, init);
          expect(Math.abs(r.distance - c.distance)).toBeLessThanOrEqual(tol);
          if (c.distance === 0) {
            expect(r.status).toBe(GjkStatus.Intersecting);
            continue;
          }
          expect(r.status).toBe(GjkStatus.Separated);
          // The direction is a separating axis: the planes through the witnesses support A and B.
          const n = r.direction;
          expect(supportValue(a, n) - vec3.dot(n, r.pointA)).toBeLessThanOrEqual(planeTol);
          const m = vec3.negate(vec3.create(), n);
          expect(supportValue(b, m) - vec3.dot(m, r.pointB)).toBeLessThanOrEqual(planeTol);
        }
      }
    });
  }
});
