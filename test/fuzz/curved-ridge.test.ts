/**
 * Regression inputs of issue 16 (fuzzer seed 16, 10^5 queries, main 4259e81) with a cylinder or
 * cone: a small shape deep inside a large cylinder or cone whose depth ended in the wrong basin
 * of the small shape's support (EPA's normal good to the large shape's tolerance only), witnesses
 * of flat-on-flat supports (a cylinder's side generator on a box face) placed off both shapes, and
 * touches at a rim whose witnesses were apart sideways. Fixed in convex-convex.ts
 * (`searchRevolutionRidges`, `featureWitnesses`, `touchWitness`, `supportWitnesses`).
 *
 * Each answer is checked against the fuzzer's independent oracle (test/fuzz/oracle-*.ts), at the
 * bars of docs/FORMATS.md: points on their shapes, (pointB − pointA)·normal = distance, the
 * overlap along the normal (the oracle's support functions) equal to the depth, and the depth no
 * more than the least overlap found by dense sampling of the sphere (a Fibonacci grid refined by
 * a pattern search: every sampled overlap is attained, an upper bound on the true depth).
 * A fast-check property covers the class: small boxes and hulls deep inside cylinders and cones,
 * mixed scales, far from the origin.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { maximiseOnSphere, overlapPieces, surfaceDistance } from "./oracle-pairs.js";
import { type OShape, oshape, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** The least overlap h_A(d) + h_B(−d) found over unit d: a grid, then pattern searches. */
function leastOverlap(A: OShape, B: OShape): number {
  const f = (d: V) => overlapPieces(A.pieces[0], B.pieces[0], d);
  const n = 4000;
  const golden = Math.PI * (3 - Math.sqrt(5));
  const grid: [number, V][] = [];
  for (let i = 0; i < n; i++) {
    const y = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - y * y);
    const d: V = [Math.cos(golden * i) * r, y, Math.sin(golden * i) * r];
    grid.push([f(d), d]);
  }
  grid.sort((p, q) => p[0] - q[0]);
  let best = grid[0][0];
  for (const [, d] of grid.slice(0, 6)) {
    const [, g] = maximiseOnSphere((e) => -f(e), d, 0.05, 4000);
    best = Math.min(best, -g);
  }
  return best;
}

/** The fuzzer's bars for a contact of pair (a, b): 1e-6 of the depth plus 64 ε of the pair's span. */
function check(pair: { a: unknown; b: unknown }): void {
  const A = oshape(pair.a);
  const B = oshape(pair.b);
  const r = answerQuery({ op: "contact", ...pair }) as ContactJson | null;
  const L = Math.max(A.radius, B.radius, norm(sub(A.center, B.center)));
  if (r === null) {
    // A pair touching within the rounding of its span may be answered apart (a cone of 1e-3 on
    // a triangle of 1e3, 3.6e-15 deep by one answer, 2e-13 apart by another: 64 ε L = 1.4e-11),
    // then with its gap within that rounding and its points on the shapes.
    const d = answerQuery({ op: "distance", ...pair }) as ContactJson;
    expect(d.distance).toBeLessThanOrEqual(64 * EPS * L);
    expect(surfaceDistance(A, d.pointA)).toBeLessThanOrEqual(
      1e-9 * Math.min(A.radius, B.radius) + 64 * EPS * L,
    );
    expect(surfaceDistance(B, d.pointB)).toBeLessThanOrEqual(
      1e-9 * Math.min(A.radius, B.radius) + 64 * EPS * L,
    );
    return;
  }
  const depth = -r.distance;
  const tol = 1e-6 * Math.abs(depth) + 64 * EPS * L;
  const onTol = 1e-9 * Math.min(A.radius, B.radius) + 64 * EPS * L;
  expect(surfaceDistance(A, r.pointA)).toBeLessThanOrEqual(Math.max(onTol, tol * 1e-3));
  expect(surfaceDistance(B, r.pointB)).toBeLessThanOrEqual(Math.max(onTol, tol * 1e-3));
  // The points are doubles at their world coordinates: their difference carries the rounding of
  // those coordinates (half an ulp each), whatever the pair's span.
  const M = Math.max(...r.pointA.map(Math.abs), ...r.pointB.map(Math.abs));
  expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
    tol + 4 * EPS * M,
  );
  // (The test's overlap is formed from support points at those coordinates too.)
  expect(Math.abs(overlapPieces(A.pieces[0], B.pieces[0], r.normal) - depth)).toBeLessThanOrEqual(
    tol + 4 * EPS * M,
  );
  expect(depth).toBeLessThanOrEqual(leastOverlap(A, B) + tol + 4 * EPS * M);
}

describe("issue 16: cylinders and cones, least overlap and witnesses", () => {
  it("aabb-cone (was: depth above the least overlap found, error 3.040e-3)", () => {
    check({
      a: {
        type: "aabb",
        min: [-5453.580183873796, -2444.3551001751584, 7317.351816668658],
        max: [-5453.107316126204, -2443.7386498248416, 7317.921620831342],
      },
      b: {
        type: "cone",
        center: [-5453.34375, -2444.046875, 7317.63671875],
        halfHeight: 2159.149395555532,
        radius: 1715.9312863911287,
        rotation: [0.7358545957661364, 0.428624682276784, 0.5161362957149184, -0.09166362353007967],
      },
    });
  });

  it("capsule-cylinder (was: depth above the least overlap found, error 4.585e-5)", () => {
    check({
      a: {
        type: "capsule",
        a: [4.684483956768457, -1.8934208536433355, 0.3423068921881409],
        b: [4.684931326434668, -1.8933852529240474, 0.341669281212738],
        radius: 0.00040168394202215777,
      },
      b: {
        type: "cylinder",
        center: [4.6847076416015625, -1.8934030532836914, 0.34198808670043945],
        halfHeight: 15.328164027716204,
        radius: 13.711332065573446,
        rotation: [
          0.26310979626716924, 0.7677910742750353, -0.5480653875184008, -0.20222371862900027,
        ],
      },
    });
  });

  it("cylinder-convex (was: pointA off its shape, error 3.682e-6)", () => {
    check({
      a: {
        type: "convex",
        points: [
          [3983.368020934506, 4672.31140799494, 1242.6032567764205],
          [-12465.53368781513, -4307.0200209317745, 6357.156268424955],
          [-1859.6911260716815, 9769.645993509617, 10106.846498668672],
          [407.6224845519035, 8770.7621306532, 13028.555348168455],
          [-182.72792246565496, -3101.6016503983224, -9643.385118106245],
          [496.5198554939438, -3453.1187134818283, -14680.73267138093],
          [5268.4996172381, 14449.126715416432, -2637.189014750952],
          [6093.579909039798, -3268.7284125421866, -3349.6936971380806],
          [-14631.163369369708, 1228.2174484131504, -2622.8282507107774],
          [9296.388828821635, 9296.388828821635, 9296.388828821635],
          [-9296.388828821635, -9296.388828821635, 9296.388828821635],
          [-9296.388828821635, 9296.388828821635, -9296.388828821635],
          [9296.388828821635, -9296.388828821635, -9296.388828821635],
        ],
        position: [-0.10991060733795166, -0.13560795783996582, -0.6203069686889648],
      },
      b: {
        type: "cylinder",
        center: [5210.589952034831, 25477.32026900534, -7169.597392748239],
        halfHeight: 7480.639777526316,
        radius: 9284.638740772947,
        rotation: [
          -0.2236636422270689, -0.6709071630264565, 0.41164011353462504, -0.5748135094747813,
        ],
      },
    });
  });

  it("cone-cone (was: depth above the least overlap found, error 1.445e-6)", () => {
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 4.746002204464858,
        radius: 2.8287474397992916,
        rotation: [
          -0.3280963809713283, -0.16068079611312333, -0.36545473745302953, 0.8561409238128423,
        ],
      },
      b: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 2.2327121330544368e-5,
        radius: 2.3929608999358166e-5,
      },
    });
  });

  it("aabb-cylinder (was: pointB off its shape, error 4.195e+3)", () => {
    check({
      a: {
        type: "cylinder",
        center: [2127.263671875, -1593.79296875, 2381.150390625],
        halfHeight: 2974.818367272884,
        radius: 2660.3391846713957,
      },
      b: {
        type: "aabb",
        min: [3433.5166738877206, -2814.2123129772435, 654.4902424781551],
        max: [3433.5940323739114, -2814.0046570115464, 654.9465749127728],
      },
    });
  });

  it("aabb-cylinder (was: depth above the least overlap found, error 2.717e-17)", () => {
    check({
      a: {
        type: "cylinder",
        center: [-1.0764665603637695, -1.141571044921875, 1.4916162490844727],
        halfHeight: 0.00017585151487205445,
        radius: 0.0001244130017426083,
        rotation: [
          -0.35042490872303733, 0.030710884620391826, 0.3886739264685144, 0.8515819419150643,
        ],
      },
      b: {
        type: "aabb",
        min: [-1.076260152855395, -1.1421311035205672, 1.4916294120130726],
        max: [-1.0759647778859232, -1.1416312531279824, 1.4919719534633225],
      },
    });
  });

  it("cone-triangle (was: pointB off its shape, error 9.369e-6)", () => {
    check({
      a: {
        type: "cone",
        center: [-11.682670593261719, 3.0996932983398438, -14.606895446777344],
        halfHeight: 6539.9197481449955,
        radius: 12862.252681566411,
        rotation: [
          -0.7383602172105685, -0.49684288638091245, 0.2549175543204983, -0.37813803880686403,
        ],
      },
      b: {
        type: "triangle",
        a: [-23200.493646179908, 12572.814306927623, 21592.13045876899],
        b: [-14694.642282331697, 3595.159264954613, 15545.604714292953],
        c: [-6567.385143017759, 11100.902306431566, 6471.504158923158],
      },
    });
  });

  it("cone-triangle (was: pointA off its shape, error 2.035e+3)", () => {
    check({
      a: {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 0.0011141064236812538,
        radius: 0.0009592680263661796,
        rotation: [
          0.7172843640254978, 0.20506067718466944, 0.6019384454865716, -0.28482164180818725,
        ],
      },
      b: {
        type: "triangle",
        a: [-201.5396374761017, -1331.1589618103167, 550.7647205835517],
        b: [38.68221068921139, 69.71875027972817, -25.79237303008472],
        c: [-939.5597174348459, -1693.465832459981, 626.4833622306769],
      },
    });
  });

  it("box-cylinder (was: depth above the least overlap found, error 6.456e-3)", () => {
    check({
      a: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 276.842624605014,
        radius: 211.92889535888554,
        rotation: [
          0.7914475504714629, 0.03379726108462915, -0.5318689913252753, -0.2993056899935799,
        ],
      },
      b: {
        type: "box",
        center: [0, 0, 0],
        halfExtents: [0.0034302784879255395, 0.01511879730936486, 0.0025623706804683787],
        rotation: [0.2884638494654472, 0.6202943869869089, 0.707408414745606, -0.17775493177748847],
      },
    });
  });

  it("box-cylinder (was: depth above the least overlap found, error 1.387e-3)", () => {
    check({
      a: {
        type: "box",
        center: [0, 0, 0],
        halfExtents: [0.006433592920251722, 0.0016386852343446385, 0.007063715609009432],
      },
      b: {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 862.6859103826938,
        radius: 421.0667700474815,
        rotation: [0.255428253030666, 0.9378068734802871, -0.1930741455068076, 0.134153083988579],
      },
    });
  });

  it("capsule-cone (was: depth above the least overlap found, error 1.383e-2)", () => {
    check({
      a: {
        type: "capsule",
        a: [-390.32346779066376, -205.9043337566996, 277.51885856009915],
        b: [-390.35084861558624, -205.8974240558004, 277.52606331490085],
        radius: 0.007472732471022116,
      },
      b: {
        type: "cone",
        center: [-390.337158203125, -205.90087890625, 277.5224609375],
        halfHeight: 18223.016559259955,
        radius: 8444.0053826199,
        rotation: [
          -0.02288510572425883, 0.9153878163603016, 0.10982090920954563, -0.38662745051987346,
        ],
      },
    });
  });

  it("small box or hull deep inside a cylinder or cone: depth is the least overlap, witnesses on the shapes (fast-check)", () => {
    const quat = fc
      .tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
      )
      .map(([x, y, z, w]) => {
        const l = Math.hypot(x, y, z, w);
        return [x / l, y / l, z / l, w / l];
      });
    fc.assert(
      fc.property(
        fc.constantFrom("cylinder", "cone"),
        fc.constantFrom("box", "convex"),
        fc.double({ min: -2, max: 4, noNaN: true }),
        fc.double({ min: -5, max: -2, noNaN: true }),
        fc.double({ min: 1.3, max: 3, noNaN: true }),
        quat,
        quat,
        fc.tuple(
          fc.double({ min: -0.2, max: 0.2, noNaN: true }),
          fc.double({ min: -0.2, max: 0.2, noNaN: true }),
          fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        ),
        fc.constantFrom(0, 1e3, 1e6),
        (big, small, logR, logRatio, hOverR, qa, qb, off, far) => {
          const R = 10 ** logR;
          const s = R * 10 ** logRatio;
          const c: V = [far + off[0] * R, -far + off[1] * R, far / 2 + off[2] * R];
          const a = {
            type: big,
            center: [far, -far, far / 2],
            halfHeight: R * hOverR,
            radius: R,
            rotation: qa,
          };
          const b =
            small === "box"
              ? { type: "box", center: c, halfExtents: [s, 0.6 * s, 0.3 * s], rotation: qb }
              : {
                  type: "convex",
                  points: [
                    [s, 0, 0],
                    [-s, 0.2 * s, 0],
                    [0, s, 0.1 * s],
                    [0, -0.7 * s, s],
                    [0.3 * s, 0, -s],
                  ],
                  position: c,
                  rotation: qb,
                };
          check({ a, b });
          check({ a: b, b: a });
        },
      ),
      { numRuns: 20 },
    );
  });
});
