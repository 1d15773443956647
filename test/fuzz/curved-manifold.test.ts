/**
 * Regression inputs of issue 16 (fuzzer seed 16, 10^5 queries): manifolds of two parallel
 * supporting segments (a cone's slant generator against another cone's, or against a box edge)
 * whose reference-side points lay on the plane through A's segment, off A's segment by the
 * segments' sideways offset (38 units on cones of size 10^3, 3.5e-9 on a box of 1e-5), and
 * deeper than the contact (the plane's normal is not the contact normal). Fixed in
 * src/narrowphase/manifold.ts: each clipped point of B's segment is paired with the point of A's
 * segment abreast of it. Checked against the fuzzer's independent oracle (test/fuzz/oracle-*.ts):
 * every point on its shape, its distance (pointB − pointA)·normal, and no point deeper than the
 * overlap of the shapes along the manifold's normal (the oracle's support functions: an upper
 * bound on any point pair's depth along it).
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

type ManifoldJson = { normal: V; points: { pointA: V; pointB: V; distance: number }[] };
const EPS = 2 ** -52;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** The manifold of (a, b) at the fuzzer's bars: 1e-6 of the depth plus 64 ε of the pair's span. */
function check(pair: { a: unknown; b: unknown }, points: number): void {
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
  }
}

describe("issue 16: parallel segment manifolds with points on both segments", () => {
  it("two cones at one centre, slant generators parallel and offset sideways", () => {
    // Was: points[1].pointA 38.1 off cone A, 1.41 deeper than the contact (depth 1031.67).
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
    );
  });

  it("a box edge against a cone's slant", () => {
    // Was: pointA 3.46e-9 off the box (size 1e-5), 8.6e-11 deeper than the contact.
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
    );
  });
});
