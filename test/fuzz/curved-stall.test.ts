/**
 * Regression inputs of issue 16 (fuzzer seeds 16 and 17, 10^5 queries): GJK on a cylinder or
 * cone stalled on a sliver simplex whose points are chords of the curved surface, far above its
 * rounding level and with no separating axis, and reported a gap where the shapes overlap —
 * `intersects` false, `distance` > 0, `contact` null. Fixed in src/narrowphase/convex-convex.ts
 * (`curvedGapUnbacked`): a curved pair's GJK gap that the separation along GJK's own direction
 * does not back is decided as GJK's unproven stall, by the least overlap refined from that
 * direction. Checked against the fuzzer's independent oracle (test/fuzz/oracle-*.ts): every
 * operation says intersecting, the contact's points lie on their shapes, its depth is no more
 * than the overlap along its normal (an upper bound) and no less than the certified depth of a
 * point inside both shapes (a lower bound).
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import {
  commonInteriorDepth,
  overlapPieces,
  shapeSigned,
  surfaceDistance,
} from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** Every op agrees the pair intersects by at least `minDepth`; the contact at the fuzzer's bars. */
function check(pair: { a: unknown; b: unknown }, minDepth: number): void {
  const A = oshape(pair.a);
  const B = oshape(pair.b);
  expect(answerQuery({ op: "intersects", ...pair })).toEqual({ intersects: true });
  expect((answerQuery({ op: "distance", ...pair }) as { distance: number }).distance).toBe(0);
  const c = answerQuery({ op: "contact", ...pair }) as ContactJson;
  expect(c).not.toBeNull();
  const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
  const depth = -c.distance;
  const tol = 1e-6 * Math.abs(depth) + 64 * EPS * L;
  expect(depth).toBeGreaterThanOrEqual(minDepth - tol);
  expect(surfaceDistance(A, c.pointA)).toBeLessThanOrEqual(tol);
  expect(surfaceDistance(B, c.pointB)).toBeLessThanOrEqual(tol);
  const along = overlapPieces(A.pieces[0], B.pieces[0], c.normal);
  expect(depth).toBeLessThanOrEqual(along + tol);
  const inside = commonInteriorDepth(
    A.pieces[0],
    B.pieces[0],
    [c.pointA, c.pointB, A.center, B.center],
    Math.max(depth, 1e-3 * Math.min(A.radius, B.radius)),
  );
  expect(depth).toBeGreaterThanOrEqual(inside - tol);
}

describe("issue 16: GJK's stalled gap on a curved pair is decided by the refined overlap", () => {
  it("a hull's vertex 2.9e-4 inside a cylinder of radius 8786", () => {
    // Was: intersects false, distance 2.38e-4 (pointA on a chord 5.3e-4 inside the cylinder).
    const pair = {
      a: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 9051.233103820272,
        radius: 8785.790053393132,
        rotation: [
          -0.8136711554086821, 0.21865984725304805, -0.5182184912770256, 0.14689015403946432,
        ],
      },
      b: {
        type: "convex",
        points: [
          [-0.0020221696759108454, 0.004919513461118186, -0.12411260846238292],
          [0.016026877477543167, -0.004373530022803607, 0.001303887687754468],
          [0.004869588613019005, 0.008731295175948617, -0.012144524895120412],
          [0.04088100360286262, -0.07029026907002844, 0.18783672452809697],
          [-0.09965133018022243, 0.025898065057845088, 0.07006100791841163],
          [0.0878203292178782, 0.0878203292178782, 0.0878203292178782],
          [-0.0878203292178782, -0.0878203292178782, 0.0878203292178782],
          [-0.0878203292178782, 0.0878203292178782, -0.0878203292178782],
          [0.0878203292178782, -0.0878203292178782, -0.0878203292178782],
        ],
        position: [3850.8756618741127, -2579.7264029415305, -9486.414664867725],
      },
    };
    // The oracle's own signed distance of that vertex from the cylinder: a lower bound on the depth.
    const v = pair.b.points[6];
    const p: V = [v[0] + pair.b.position[0], v[1] + pair.b.position[1], v[2] + pair.b.position[2]];
    const inside = -shapeSigned(oshape(pair.a), p);
    expect(inside).toBeGreaterThan(2.8e-4);
    check(pair, inside);
  });

  it("a cone in a compound at 5e5 against a box of 3e4", () => {
    // Was: intersects false, distance 3.4e-4, contact null, the pair missing from `pairs`.
    check(
      {
        a: {
          type: "compound",
          children: [
            {
              shape: {
                type: "cone",
                center: [0, 0, 0],
                halfHeight: 2.5532166941536247,
                radius: 3.0490035370231956,
              },
              position: [1.2648806497924474, 1.508906996201332, -2.4163452460320882],
              rotation: [
                -0.5580414295182329, 0.28285568595866006, -0.776925636067315, 0.070490991506016,
              ],
            },
          ],
          position: [487928, -250148.875, 157831.25],
          rotation: [
            -0.34731075215097656, 0.18338730321597632, -0.46861275993465457, -0.7912941423300948,
          ],
        },
        b: {
          type: "box",
          center: [484431.4554704485, -272954.38821827166, 170000.26522781287],
          halfExtents: [28051.618239567433, 13143.073839185798, 14116.866950753985],
          rotation: [
            0.20411809261472766, 0.6414563717619831, 0.3993363874462765, -0.6224146343512784,
          ],
        },
      },
      0,
    );
  });
});
