/**
 * Regression inputs of issue 16 (fuzzer seed 16, 10^5 queries): manifolds of two parallel
 * supporting segments (a cone's slant generator against another cone's, or against a box edge).
 * First their reference-side points lay on the plane through A's segment, off A's segment by the
 * segments' sideways offset (38 units on cones of size 10^3, 3.5e-9 on a box of 1e-5), and
 * deeper than the contact (the plane's normal is not the contact normal): each clipped point of
 * B's segment was then paired with the point of A's segment abreast of it. That pair lies on both
 * shapes but not across the normal from each other (the fuzzer's facing bar, now a default check:
 * pointB − pointA 36.6 and 38.1 off the normal's line on the cones, 3.5e-9 on the box, bars 1.1e-3
 * and 4.1e-11). Fixed in src/narrowphase/manifold.ts (`facingPair`): a pair apart sideways takes
 * the deeper of A's top along the normal on B's point's line and B's bottom on A's point's line,
 * each by its shape's ray cast. Checked against the fuzzer's independent oracle
 * (test/fuzz/oracle-*.ts): every point on its shape, its distance (pointB − pointA)·normal,
 * pointB − pointA along the normal, no point deeper than the overlap of the shapes along the
 * manifold's normal (the oracle's support functions: an upper bound on any point pair's depth
 * along it) and, where recorded, the deepest point at that overlap (the box's corner in the cone:
 * p's line met the box's face where the generator crosses it, at distance 0, beside the depth
 * 1.38e-7). The property builds the class: a box edge, a cylinder's or a cone's generator laid
 * along a cylinder's or a cone's generator, tilted up to 0.03 rad and offset sideways, at depths
 * from a touch to 1e-3 of the smaller shape, sizes 1e-3..1e3, offsets to 1e6, through the
 * fuzzer's replay (its oracle and bars, the facing one included).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ManifoldJson } from "../support/answers.js";
import { offsetArb, quatArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { oshape, quatMatrix, unit, type V } from "./oracle-shapes.js";
import { expectPassesBothOrders } from "./recorded-cases.js";

const EPS = 2 ** -52;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/**
 * The manifold of (a, b) at the fuzzer's bars: 1e-6 of the depth plus 64 ε of the pair's span;
 * its deepest point at the oracle's overlap along the normal when `deepest`.
 */
function check(pair: { a: unknown; b: unknown }, points: number, deepest: boolean): void {
  const A = oshape(pair.a);
  const B = oshape(pair.b);
  const m = answerQuery({ op: "manifold", ...pair }) as ManifoldJson;
  expect(m).not.toBeNull();
  expect(m.points.length).toBe(points);
  const overlap = overlapPieces(A.pieces[0], B.pieces[0], m.normal);
  const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
  const tol = 1e-6 * Math.abs(overlap) + 64 * EPS * L;
  for (const p of m.points) {
    expect(surfaceDistance(A, p.pointA)).toBeLessThanOrEqual(tol);
    expect(surfaceDistance(B, p.pointB)).toBeLessThanOrEqual(tol);
    expect(Math.abs(dot(sub(p.pointB, p.pointA), m.normal) - p.distance)).toBeLessThanOrEqual(tol);
    expect(p.distance).toBeGreaterThanOrEqual(-overlap - tol);
    const d = sub(p.pointB, p.pointA);
    const along = dot(d, m.normal);
    const side = norm(sub(d, m.normal.map((x) => x * along) as V));
    expect(side).toBeLessThanOrEqual(tol);
  }
  if (deepest) {
    expect(Math.abs(Math.min(...m.points.map((p) => p.distance)) + overlap)).toBeLessThanOrEqual(
      tol,
    );
  }
}

describe("issue 16: parallel segment manifolds with points on both shapes, facing", () => {
  it("two cones at one centre, slant generators parallel and offset sideways", () => {
    // Was: points[1].pointA 38.1 off cone A, 1.41 deeper than the contact (depth 1031.67); then
    // pointB − pointA 36.6 and 38.1 off the normal's line (bar 1.1e-3).
    check(
      {
        a: {
          type: "cone",
          center: [0.02663591504096985, -0.008944928646087646, -0.0029996074736118317],
          halfHeight: 533.5803517472566,
          radius: 216.46875774686586,
          rotation: [
            -0.06777759356125429, 0.6898931512872237, -0.6999124368253734, -0.17197737756808798,
          ],
        },
        b: {
          type: "cone",
          center: [0.02663591504096985, -0.008944928646087646, -0.0029996074736118317],
          halfHeight: 1871.5456471996738,
          radius: 2067.2290204185065,
          rotation: [
            0.0907797799124698, 0.372000550536078, -0.5741347548486142, -0.7237015304908647,
          ],
        },
      },
      2,
      true,
    );
  });

  it("a box edge against a cone's slant", () => {
    // Was: pointA 3.46e-9 off the box (size 1e-5), 8.6e-11 deeper than the contact; then
    // pointB − pointA 3.5e-9 off the normal's line (bar 4.1e-11); the one point at the depth.
    check(
      {
        a: {
          type: "box",
          center: [0.01030111312866211, -0.06010308861732483, -0.01707957684993744],
          halfExtents: [5.0269694366515394e-6, 5.288946076198212e-6, 6.538609263976477e-6],
          rotation: [
            -0.30564481944097127, 0.9458502752067555, 0.10774600089030839, 0.018420112169755642,
          ],
        },
        b: {
          type: "cone",
          center: [0.007454273516850834, -0.06156269238067048, -0.01329677692967536],
          halfHeight: 0.006761051783216085,
          radius: 0.006491728157690397,
          rotation: [
            0.31730530409003016, 0.7975748406272132, -0.5054448020299737, -0.08784799198439092,
          ],
        },
      },
      1,
      true,
    );
  });
});

type J = Record<string, unknown>;
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const add = (a: V, b: V, s = 1): V => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
const apply = (m: number[][], v: V): V => [0, 1, 2].map((i) => dot(m[i] as V, v)) as V;

/** The unit quaternion [x, y, z, w] of rotation matrix m (rows; Shepperd's method). */
function matrixQuat(m: number[][]): number[] {
  const t = m[0][0] + m[1][1] + m[2][2];
  let q: number[];
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4];
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
    q = [s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s];
  } else if (m[1][1] > m[2][2]) {
    const s = 2 * Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
    q = [(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
    q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s];
  }
  const l = Math.hypot(...q);
  return q.map((c) => c / l);
}

/**
 * A shape's straight supporting line in its own frame: a point E of a box's edge (along local z,
 * its outward normals between +x and +y by α), of a cylinder's side line or of a cone's slant
 * generator (at azimuth φ, a fraction s of the way along it), its unit direction G and the unit
 * outward normal M there (M ⟂ G).
 */
function line(
  type: string,
  size: number,
  dims: number[],
  angle: number,
  s: number,
): { json: J; e: V; g: V; m: V } {
  if (type === "box") {
    const h: V = [size * dims[0], size * dims[1], size * dims[2]];
    return {
      json: { type, halfExtents: h },
      e: [h[0], h[1], (2 * s - 1) * h[2]],
      g: [0, 0, 1],
      m: [Math.cos(angle), Math.sin(angle), 0],
    };
  }
  const hh = size * dims[0];
  const r = size * dims[1];
  const [c, sn] = [Math.cos(angle), Math.sin(angle)];
  if (type === "cylinder") {
    return {
      json: { type, halfHeight: hh, radius: r },
      e: [r * c, (2 * s - 1) * hh, r * sn],
      g: [0, 1, 0],
      m: [c, 0, sn],
    };
  }
  const base: V = [r * c, -hh, r * sn];
  return {
    json: { type, halfHeight: hh, radius: r },
    e: add(base, [-r * c, 2 * hh, -r * sn], s),
    g: unit([-r * c, 2 * hh, -r * sn]),
    m: unit([2 * hh * c, r, 2 * hh * sn]),
  };
}

const dims = fc.tuple(
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
);

for (const [ta, tb] of [
  ["box", "cylinder"],
  ["box", "cone"],
  ["cylinder", "cone"],
  ["cone", "cone"],
  ["cylinder", "cylinder"],
]) {
  describe(`property: ${ta}'s supporting line along ${tb}'s generator, manifold facing`, () => {
    it("tilted up to 0.03 rad, shallow, sizes 1e-3..1e3, offsets to 1e6, both orders", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -3, max: 3 }),
          fc.integer({ min: -3, max: 3 }),
          dims,
          dims,
          fc.double({ min: 0.1, max: 1.45, noNaN: true }),
          fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
          fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          fc.double({ min: -0.03, max: 0.03, noNaN: true }),
          fc.boolean(),
          quatArb,
          fc.constantFrom(0, 1e-12, 1e-9, 1e-6, 1e-3),
          offsetArb,
          (ea, eb, da, db, angleA, angleB, sa, sb, tilt, flip, qb, depth, [ou, om]) => {
            const sizeA = 10 ** ea;
            const sizeB = Math.min(1e3, Math.max(1e-3, sizeA * 10 ** eb));
            const A = line(ta, sizeA, da, ta === "box" ? angleA : angleB + 1, sa);
            const B = line(tb, sizeB, db, angleB, sb);
            // B's line in the world: its rotation qb, its centre at the origin.
            const rb = quatMatrix(qb);
            const eW = apply(rb, B.e);
            const mW = apply(rb, B.m);
            // A's line along B's, tilted about B's normal, A's normal facing B's.
            const g0 = apply(rb, B.g);
            const g1 = unit(add(g0, cross(mW, g0), Math.tan(tilt)));
            const gW = flip ? (g1.map((x) => -x) as V) : g1;
            const nW: V = mW.map((x) => -x) as V;
            // Rotation taking A's (g, m, g × m) to (gW, nW, gW × nW): columns of the product.
            const from = [A.g, A.m, cross(A.g, A.m)];
            const to = [gW, nW, cross(gW, nW)];
            const ra = [0, 1, 2].map((i) =>
              [0, 1, 2].map(
                (j) => to[0][i] * from[0][j] + to[1][i] * from[1][j] + to[2][i] * from[2][j],
              ),
            );
            const qa = matrixQuat(ra);
            // A's point E on B's, pushed into B by the depth (a fraction of the smaller size).
            const target = add(eW, mW, -depth * Math.min(sizeA, sizeB));
            const centreA = add(target, apply(quatMatrix(qa), A.e), -1);
            const a = { ...A.json, center: centreA, rotation: qa };
            const b = { ...B.json, center: [0, 0, 0], rotation: qb };
            const offset = exactOffset(ou, Math.min(1e6, om * Math.max(sizeA, sizeB) * 1e3));
            expectPassesBothOrders(a, b, offset, `${ta}-${tb}`, {
              ops: ["contact", "manifold"],
              facing: true,
            });
          },
        ),
        { numRuns: 60, seed: 16 },
      );
    });
  });
}
