/**
 * Regression inputs of issue 16 (the differential fuzzer, seeds 16, 17 and 18): a cone or a
 * cylinder against a shape orders of magnitude larger, or far from the origin. The general
 * narrow phase (src/narrowphase/convex-convex.ts) had answered them in a frame or at a tolerance
 * set by the large shape: a cone of 1e-5 on the edge of a box of 2e3, solved in the box's frame,
 * had its support differences rounded to 4.5e-13 and its depth 30 times the least overlap (the
 * solver now moves its origin to the small shape); GJK's "intersecting" at its rounding level,
 * 1e-13 of the largest support point it met, had made a cylinder of 2e-5 4.2e-9 from a cone of
 * 6e4 touch (now decided by the least overlap, as distance and contact decide); GJK's |v| on a
 * sliver simplex had fallen 1.6 % below a gap its refinement certified. The oracle is the
 * fuzzer's own (test/fuzz/oracle-*.ts: closed-form signed distances, least overlap and
 * separation over directions, independent of the library), or a hand-derived exact gap.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { translateShape } from "./generate.js";
import { overlapPieces, pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { type OShape, oshape, type V } from "./oracle-shapes.js";

type ContactJson = { distance: number; normal: V; pointA: V; pointB: V } | null;
type DistanceJson = { distance: number; pointA: V; pointB: V };
type J = Record<string, unknown>;

const EPS = Number.EPSILON;
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const ulp = (p: V) => 2 ** (Math.floor(Math.log2(Math.max(...p.map(Math.abs)))) - 52);

/**
 * The pair in the oracle's frame: both shapes moved by −o, o the given point rounded to 20 bits
 * per axis (an exact shift of the fuzzer's placements), with the pair's extent L (bounding radii
 * and the distance of the centres) and the fuzzer's ambiguity bar 64ε·L.
 */
function oraclePair(a: J, b: J, at: V) {
  const o = at.map((v) => {
    const m = Math.floor(Math.log2(Math.abs(v) || 1)) - 20;
    return Math.round(v / 2 ** m) * 2 ** m;
  }) as V;
  const neg = o.map((x) => -x);
  const A = oshape(translateShape(a, neg));
  const B = oshape(translateShape(b, neg));
  const L = Math.max(A.radius, B.radius, norm(sub(B.center, A.center)));
  return { A, B, local: (p: V) => sub(p, o), amb: 64 * EPS * L };
}

/** Separation of A and B along unit n (A toward B): minus the overlap, from the oracle. */
function separation(A: OShape, B: OShape, n: V): number {
  return -overlapPieces(A.pieces[0], B.pieces[0], n);
}

describe("issue 16: small against large, far from the origin (cones and cylinders)", () => {
  it("a cone of 1e-5 on the edge of an aabb of 2e3: the least overlap, witnesses on both (seed 16)", () => {
    // Was: depth 9.5e-10 along the box's face normal (least overlap 3.0e-12), pointB 3.0e-8 off
    // the aabb.
    const a = {
      type: "cone",
      center: [0.001795186661183834, 0.0007208860479295254, 0.003331737592816353],
      halfHeight: 5.9893359833593615e-6,
      radius: 6.947859434167619e-6,
      rotation: [0.10827166429150836, 0.9085318084215609, -0.17408828506668284, 0.3640610783925363],
    };
    const b = {
      type: "aabb",
      min: [-2547.6783892292333, -4076.652757526333, -44.248134396209615],
      max: [0.0017866758179138755, 0.0007175459698840702, 2131.1246782626895],
    };
    const r = answerQuery({ op: "contact", a, b }) as ContactJson;
    expect(r).not.toBeNull();
    if (!r) return;
    const P = oraclePair(a, b, a.center as V);
    const T = pairTruth(P.A, P.B, [P.local(r.pointA), P.local(r.pointB)], true);
    const depth = -r.distance;
    const bar = 1e-6 * depth + P.amb;
    // The oracle's least overlap: 3.004e-12, along (−0.998, −0.0624, 0).
    expect(T.depth).toBeGreaterThan(2.9e-12);
    expect(T.depth).toBeLessThan(3.1e-12);
    expect(Math.abs(depth - T.depth)).toBeLessThanOrEqual(bar);
    expect(Math.abs(-separation(P.A, P.B, r.normal) - depth)).toBeLessThanOrEqual(bar);
    expect(surfaceDistance(P.A, P.local(r.pointA))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointA));
    expect(surfaceDistance(P.B, P.local(r.pointB))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointB));
  });

  it("a box of 8e-3 4.5e-9 from a cone of 17 at 3.6e8: the distance within the oracle's bounds (seed 16)", () => {
    // Was: 4.474e-9, below the certified lower bound 4.547e-9 (GJK's |v| on a sliver simplex).
    const a = {
      type: "box",
      center: [-130144000, 363897856, 48662752],
      halfExtents: [0.006236199746977808, 0.002489806814023051, 0.00851028779988621],
      rotation: [0.6372014762125047, 0.355551925527567, -0.5886972523302243, -0.3478399805443425],
    };
    const b = {
      type: "cone",
      center: [-130143998.58451517, 363897853.12262607, 48662749.77458439],
      halfHeight: 17.59205548236274,
      radius: 6.287018959722257,
    };
    const r = answerQuery({ op: "distance", a, b }) as DistanceJson;
    const P = oraclePair(a, b, a.center as V);
    const T = pairTruth(P.A, P.B, [P.local(r.pointA), P.local(r.pointB)], false);
    const bar = 1e-9 * Math.max(r.distance, P.A.radius) + P.amb;
    expect(T.lower).toBeGreaterThan(4.5e-9);
    expect(r.distance).toBeGreaterThanOrEqual(T.lower - bar);
    expect(r.distance).toBeLessThanOrEqual(T.upper + bar);
  });

  it("a cylinder of 2e-5 4.2e-9 from a cone of 6e4 at 1e8: apart in every query (seed 16)", () => {
    // Was: intersects true and contact at distance 0, its normal a gap of 4.2e-9 (GJK
    // "intersecting" at 1e-13 of the cone's size).
    const a = {
      type: "cylinder",
      center: [16432344, 24395456, 89442816],
      halfHeight: 1.4774891612697644e-5,
      radius: 2.0402482018873426e-5,
      rotation: [
        0.002022909513551438, 0.38460669967886985, -0.7726395280784428, -0.5050759883917951,
      ],
    };
    const b = {
      type: "cone",
      center: [16379539.508767556, 24426865.34636055, 89450460.55352417],
      halfHeight: 61913.65382854702,
      radius: 51411.91513667844,
      rotation: [
        -0.22510538712025285, -0.05868943668031605, -0.838440221122444, 0.49284998763897275,
      ],
    };
    expect((answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects).toBe(
      false,
    );
    expect(answerQuery({ op: "contact", a, b })).toBeNull();
    const r = answerQuery({ op: "distance", a, b }) as DistanceJson;
    const P = oraclePair(a, b, a.center as V);
    const T = pairTruth(P.A, P.B, [P.local(r.pointA), P.local(r.pointB)], false);
    const bar = 1e-9 * Math.max(r.distance, P.A.radius) + P.amb;
    expect(T.lower).toBeGreaterThan(4.2e-9);
    expect(r.distance).toBeGreaterThanOrEqual(T.lower - bar);
    expect(r.distance).toBeLessThanOrEqual(T.upper + bar);
  });

  it("a cone of 600 7.7e-10 from a triangle of 2e3 at 1e8: apart, the gap achieved along the normal (seed 17)", () => {
    // Was: intersects true (a refinement from GJK's axis alone, stuck at an overlap of 4e-10)
    // while contact's own least overlap was a gap of 7.7e-10.
    const a = {
      type: "cone",
      center: [75067264, 19979712, -116369856],
      halfHeight: 563.5285284787665,
      radius: 600.9937555503603,
      rotation: [0.913461841777214, -0.3706450564810067, 0.07725040022653791, -0.14913779329201232],
    };
    const b = {
      type: "triangle",
      a: [75065090.53412455, 19979037.45184321, -116369647.2049346],
      b: [75065763.48425494, 19977308.72969788, -116370477.54676649],
      c: [75067129.16037281, 19979412.298451234, -116369868.833334],
    };
    expect((answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects).toBe(
      false,
    );
    const r = answerQuery({ op: "contact", a, b, prediction: 1e-6 }) as ContactJson;
    expect(r).not.toBeNull();
    if (!r) return;
    const P = oraclePair(a, b, a.center as V);
    const T = pairTruth(P.A, P.B, [P.local(r.pointA), P.local(r.pointB)], false);
    const bar = 1e-9 * Math.max(r.distance, 600) + P.amb;
    // The oracle's closest points are 7.736e-10 apart (an upper bound on the gap); the
    // separation along the reported normal, by the oracle's support functions, is a lower one.
    expect(T.upper).toBeLessThan(7.74e-10);
    expect(r.distance).toBeLessThanOrEqual(T.upper + bar);
    expect(Math.abs(separation(P.A, P.B, r.normal) - r.distance)).toBeLessThanOrEqual(bar);
    expect(r.distance).toBeGreaterThan(7.7e-10);
  });

  it("a cone's base 2^-33 above a cylinder's cap at 2e3: apart by exactly that (seed 18, hand-derived)", () => {
    // The cap is at y = −80.2978515625 + 1984 = 1903.7021484375 and the base at
    // 2047.7021484376164 − 144 = 1903.7021484376164 (both exact in doubles); the base disc
    // (radius 240, centre 2472 from the axis) lies over the cap (radius 3840): the gap is their
    // difference, 2^-33. Was: intersects true, distance 0.
    const a = {
      type: "cylinder",
      center: [-20.103012084960938, -80.2978515625, -125.09234619140625],
      halfHeight: 1984,
      radius: 3840,
    };
    const b = {
      type: "cone",
      center: [-2012.103012084961, 2047.7021484376164, -1589.0923461914062],
      halfHeight: 144,
      radius: 240,
    };
    const gap = 2 ** -33;
    expect(2047.7021484376164 - 144 - (-80.2978515625 + 1984)).toBe(gap);
    expect((answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects).toBe(
      false,
    );
    expect(answerQuery({ op: "contact", a, b })).toBeNull();
    const r = answerQuery({ op: "distance", a, b }) as DistanceJson;
    // Bar: 64ε of the pair's extent (the fuzzer's rounding term; its relative term, 1e-9 of the
    // smaller shape's size, would be 2.8e-7 here, above the gap itself).
    const L = norm(sub(b.center as V, a.center as V)) + Math.hypot(3840, 1984);
    const bar = 64 * EPS * L;
    expect(Math.abs(r.distance - gap)).toBeLessThanOrEqual(bar);
    expect(Math.abs(dot([0, 1, 0], sub(r.pointB, r.pointA)) - gap)).toBeLessThanOrEqual(bar);
  });
});
