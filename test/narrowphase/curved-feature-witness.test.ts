/**
 * Fuzzer inputs of issue 16 (seeds 17 and 18, 10^5 queries) where a cylinder's flat support (a
 * side generator) met a box's edge or face and the witnesses were EPA's blends, far off the
 * shapes: the exact feature's witnesses were refused because GJK's gap between the generator
 * and the box (its own tolerance at a long generator) missed the clearance by more than the
 * slack (convex-convex.ts, `featureWitnesses`, now measured along the normal). Checked with the
 * fuzzer's independent oracle (test/fuzz/oracle-*.ts): witnesses on their shapes and facing
 * along the normal, the normal achieving the depth.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { overlapPieces, surfaceDistance } from "../fuzz/oracle-pairs.js";
import { oshape, type V } from "../fuzz/oracle-shapes.js";

interface C {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function check(a: object, b: object, tol: number): void {
  const c = answerQuery({ op: "contact", a, b }) as C;
  expect(c).not.toBeNull();
  const A = oshape(a);
  const B = oshape(b);
  expect(surfaceDistance(A, c.pointA)).toBeLessThanOrEqual(tol);
  expect(surfaceDistance(B, c.pointB)).toBeLessThanOrEqual(tol);
  const pq: V = [c.pointB[0] - c.pointA[0], c.pointB[1] - c.pointA[1], c.pointB[2] - c.pointA[2]];
  expect(Math.abs(dot(pq, c.normal) - c.distance)).toBeLessThanOrEqual(tol);
  const along = overlapPieces(A.pieces[0], B.pieces[0], c.normal);
  expect(Math.abs(along + c.distance)).toBeLessThanOrEqual(tol + 1e-6 * Math.abs(c.distance));
}

describe("issue 16: a cylinder's generator against a box's edge", () => {
  it("a flat box of 3e-3 at the centre of a cylinder of radius 220 (was: pointB 309 off)", () => {
    check(
      {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 309.12278433516394,
        radius: 219.98464972017442,
        rotation: [
          0.07703870645268412, 0.393301071413277, 0.9056096543741278, -0.13874602278133394,
        ],
      },
      {
        type: "aabb",
        min: [-0.0017337065174933153, -0.003408730230828992, 0],
        max: [0.0017337065174933153, 0.003408730230828992, 0],
      },
      1e-9 * 220,
    );
  });

  it("a box's edge along a cylinder of 2.6e4 at 2.4e8 (was: pointB 3e-3 off)", () => {
    check(
      {
        type: "cylinder",
        center: [95126272, -12306040, -236430336],
        halfHeight: 13466.205841634483,
        radius: 26295.44762757405,
      },
      {
        type: "aabb",
        min: [95011578.19362314, -12353390.032816688, -236474013.50188607],
        max: [95101192.95044154, -12263178.389415383, -236438241.17799792],
      },
      // The fuzzer's bar there: 1e-9 of the size plus the rounding of coordinates at 2.4e8.
      1.2e-7,
    );
  });
});
