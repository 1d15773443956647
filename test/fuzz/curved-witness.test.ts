/**
 * Regression inputs of issue 16 (fuzzer seed 16, 10^5 queries): witness points off cylinders and
 * cones and depths off by more than the bars when the refinement stopped short of the least
 * overlap (a vertex or rim on a cone's slant, a radius of curvature far larger than the other
 * shape). Fixed by the fixed point of the exact projection onto the solid of revolution
 * (convex-convex.ts, `snapToRevolution`). Each answer is checked against the fuzzer's
 * independent oracle (test/fuzz/oracle-*.ts) at the bars of docs/FORMATS.md: the points on their
 * shapes, (pointB − pointA)·normal = distance, the normal achieving the depth (the overlap along
 * it, from the oracle's own support functions, an upper bound on the depth), the depth no less
 * than a point's certified depth inside both shapes (a lower bound), and contact(B, A) the
 * flip of contact(A, B).
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { commonInteriorDepth, overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** The fuzzer's bars for a contact of pair (a, b): 1e-6 of the depth plus 64 ε of the pair's span. */
function check(pair: { a: unknown; b: unknown }): void {
  const A = oshape(pair.a);
  const B = oshape(pair.b);
  const r = answerQuery({ op: "contact", ...pair }) as ContactJson;
  const f = answerQuery({ op: "contact", a: pair.b, b: pair.a }) as ContactJson;
  expect(r).not.toBeNull();
  expect(f).not.toBeNull();
  const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
  const depth = -r.distance;
  const tol = 1e-6 * Math.abs(depth) + 64 * EPS * L;
  expect(surfaceDistance(A, r.pointA)).toBeLessThanOrEqual(tol);
  expect(surfaceDistance(B, r.pointB)).toBeLessThanOrEqual(tol);
  expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(tol);
  // Upper bound: the overlap along the reported normal, from the oracle's support functions.
  const along = overlapPieces(A.pieces[0], B.pieces[0], r.normal);
  expect(Math.abs(along - depth)).toBeLessThanOrEqual(tol);
  // Lower bound: a point certified inside both shapes by that much (0 when none is found).
  const inside = commonInteriorDepth(
    A.pieces[0],
    B.pieces[0],
    [r.pointA, r.pointB, A.center, B.center],
    Math.max(depth, 1e-3 * Math.min(A.radius, B.radius)),
  );
  expect(depth).toBeGreaterThanOrEqual(inside - tol);
  // The flip.
  expect(Math.abs(f.distance - r.distance)).toBeLessThanOrEqual(tol);
  expect(
    norm([f.normal[0] + r.normal[0], f.normal[1] + r.normal[1], f.normal[2] + r.normal[2]]),
  ).toBeLessThanOrEqual(1e-6);
}

describe("issue 16: curved contacts refined to the bars", () => {
  it("cone against a cone 500 times its size, touching (both on curved surfaces)", () => {
    // Was: pointB 1.96e-7 off the large cone (the depth's own error); the two orders 1.5e-7 apart.
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 1137.6507634554443,
        radius: 1361.6559298232057,
        rotation: [
          0.05110023863983333, -0.9053995212334213, -0.04617704419645558, -0.418936932187319,
        ],
      },
      b: {
        type: "cone",
        center: [-376563.47753485915, 436180.33967260335, 192588.47744219963],
        halfHeight: 253372.77130764967,
        radius: 629672.0863787805,
        rotation: [0.698252620220577, 0.10410513334917844, 0.3056170416584371, 0.6389081494341682],
      },
    });
  });

  it("triangle vertex on a cone's slant", () => {
    // Was: pointA 2.85e-11 off the cone (bar 9.8e-13).
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 40.64340781681179,
        radius: 16.63684012184043,
        rotation: [
          -0.1798426701658846, -0.5755118061115158, 0.7112698342094445, 0.3613004261795649,
        ],
      },
      b: {
        type: "triangle",
        a: [-4.812782382808086, 56.27680639507797, -16.41843347215479],
        b: [69.33450469295495, 81.76530320902684, -63.08590588085684],
        c: [5.52433637973879, 11.276155868329266, 9.477887013759172],
      },
    });
  });

  it("small triangle touching a cone of size 5e5", () => {
    // Was: pointB 6.6e-8 off the cone (bar 8.2e-9).
    check({
      a: {
        type: "triangle",
        a: [0.01873267287648572, 0.010259479597856657, 0.007186063201004844],
        b: [-0.004946864121178509, 0.00723238734850462, -0.007635308847622809],
        c: [-0.007383384293426146, -0.012243093194135907, -0.0012596171544096686],
      },
      b: {
        type: "cone",
        center: [-18391.20200958905, -338108.6703969429, 20971.79146037458],
        halfHeight: 470716.50540901,
        radius: 330161.0524510141,
        rotation: [
          0.10453435168406412, 0.9443788612283313, -0.01134168263169852, -0.31159669770097764,
        ],
      },
    });
  });

  it("small box on a cone's surface, cone of size 3e5", () => {
    // Was: pointA 1.07e-8 off the cone (bar 6.5e-9).
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 332442.85210622713,
        radius: 302694.86707264656,
        rotation: [
          0.9537491558714205, 0.06449392027143568, -0.11346123631640143, 0.2707944419225184,
        ],
      },
      b: {
        type: "box",
        center: [35333.576257489316, -250670.79084874594, 137013.57771673764],
        halfExtents: [6.254667270191427e-5, 0.00019055084995711258, 0.0001228770748160846],
      },
    });
  });

  it("thin triangle against a cylinder's side", () => {
    // Was: pointA 3.0e-11 off the cylinder (bar 1.4e-11).
    check({
      a: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 896.3258288827,
        radius: 304.9778858818649,
        rotation: [
          -0.7730987004879426, -0.3088511196160909, -0.5082569543742598, 0.22046372387751945,
        ],
      },
      b: {
        type: "triangle",
        a: [424.39719737408103, -58.54700689216105, 148.35863200208564],
        b: [424.3972016518141, -58.54700497524033, 148.35862987881478],
        c: [424.3971964986287, -58.54700561950523, 148.35862831446354],
      },
    });
  });

  it("small cylinder on a large one, crossing axes", () => {
    // Was: pointB 2.1e-11 off (bar 1.7e-11).
    check({
      a: {
        type: "cylinder",
        center: [-0.46789121627807617, 1.1888561248779297, 0.6345272064208984],
        halfHeight: 0.0014578172726243867,
        radius: 0.0015599025325469989,
        rotation: [
          0.06999255990839356, 0.9253892713610575, -0.006479745731346238, -0.3724429498628992,
        ],
      },
      b: {
        type: "cylinder",
        center: [-176.04849928233207, 763.704220283487, 258.4008114348578],
        halfHeight: 868.5693071128073,
        radius: 823.6534042310724,
        rotation: [
          0.5559046496756329, 0.6380577082124815, 0.030043646074460334, -0.5319302217304448,
        ],
      },
    });
  });

  it("small cone against a cone of size 2e4", () => {
    // Was: pointB 5.2e-10 off (bar 4.0e-10); the orders 4.3e-10 apart.
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 0.05809837885535305,
        radius: 0.049196980590221616,
        rotation: [
          -0.18494123471295307, -0.3531653761422344, 0.3457145471792759, -0.8494424104468713,
        ],
      },
      b: {
        type: "cone",
        center: [-2177.271819391606, 23.77751484310212, -6205.702616261361],
        halfHeight: 25017.461628475732,
        radius: 13546.950044695508,
        rotation: [
          -0.5817144989154976, -0.2134235642156518, 0.7493411118745542, -0.23355196861423763,
        ],
      },
    });
  });

  it("a flat box of 7e-3 at the centre of a cylinder of 600 (a side generator against a box face)", () => {
    // Was (seed 17): pointA 6.4 off the box and pointB 309 off the cylinder: the generator's
    // witnesses were rejected because GJK's |v| on the sliver simplex of the generator and the
    // box was 4.7e-10 off the clearance, and EPA's blends were kept instead.
    check({
      a: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 309.12278433516394,
        radius: 219.98464972017442,
        rotation: [
          0.07703870645268412, 0.393301071413277, 0.9056096543741278, -0.13874602278133394,
        ],
      },
      b: {
        type: "aabb",
        min: [-0.0017337065174933153, -0.003408730230828992, 0],
        max: [0.0017337065174933153, 0.003408730230828992, 0],
      },
    });
  });
});
