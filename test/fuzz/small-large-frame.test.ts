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
import type { ContactJson, DistanceJson } from "../support/answers.js";
import { translateShape } from "./generate.js";
import { overlapPieces, pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { type OShape, oshape, type V } from "./oracle-shapes.js";

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
  return { A, B, local: (p: V) => sub(p, o), amb: 64 * EPS * L, s: Math.min(A.radius, B.radius) };
}

/**
 * The distance query of the pair, checked as the fuzzer checks it (test/fuzz/fuzz.ts), in the
 * oracle's frame at `at`: the bar 1e-9 of the larger of the distance and the smaller shape's
 * size plus 64ε of the pair's extent; a gap within the oracle's certified bounds and achieved by
 * the witnesses, which lie on their shapes. Returns the answer.
 */
function expectDistance(a: J, b: J, at: V): DistanceJson {
  const r = answerQuery({ op: "distance", a, b }) as DistanceJson;
  const P = oraclePair(a, b, at);
  const pa = P.local(r.pointA);
  const pb = P.local(r.pointB);
  const T = pairTruth(P.A, P.B, [pa, pb], false);
  const d = r.distance;
  const bar = 1e-9 * Math.max(d, P.s) + P.amb;
  expect(surfaceDistance(P.A, pa)).toBeLessThanOrEqual(bar + 4 * ulp(r.pointA));
  expect(surfaceDistance(P.B, pb)).toBeLessThanOrEqual(bar + 4 * ulp(r.pointB));
  if (d > 0) {
    expect(d).toBeGreaterThanOrEqual(T.lower - bar);
    expect(d).toBeLessThanOrEqual(T.upper + bar);
    expect(Math.abs(norm(sub(pb, pa)) - d)).toBeLessThanOrEqual(bar + 8 * ulp(r.pointA));
  }
  return r;
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
    const r = answerQuery({ op: "contact", a, b }) as ContactJson | null;
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
    const r = answerQuery({ op: "contact", a, b, prediction: 1e-6 }) as ContactJson | null;
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

  it("a triangle of 1e-3 0.024 from a cone of 22: the distance, not GJK's |v| on a sliver simplex (seed 16)", () => {
    // Was (with the solver's frame at the triangle): 0.0238127587699, 1e-10 below the certified
    // lower bound and below |pB − pA|: GJK's simplex was a far rim point and two 2e-6 apart, and
    // |v| from its projection fell below the distance of its own witnesses.
    const a = {
      type: "cone",
      center: [98.0093994140625, 95.4005126953125, 150.4765625],
      halfHeight: 21.594286917579122,
      radius: 11.08393517048455,
      rotation: [
        -0.5691855371554961, -0.7353688601046868, -0.3338024052070788, -0.15439047301991182,
      ],
    };
    const b = {
      type: "triangle",
      a: [102.08972354107047, 91.8529774451916, 154.37381416004706],
      b: [102.09040123673488, 91.85301598498089, 154.37392196192667],
      c: [102.08996535080597, 91.85339579119943, 154.3739736257131],
    };
    const r = expectDistance(a, b, b.c as V);
    expect(r.distance).toBeGreaterThan(0.02381275887);
    expect(r.distance).toBeLessThan(0.0238127589);
  });

  it("a hull of 1e-6 8.3e-9 from a compound's cone at 4.4e8: the refined gap (seed 18)", () => {
    // Was 8.2667e-9, below the certified lower bound 8.2765e-9: the polish's test that the
    // refined support points face each other was scaled by the witnesses' magnitude in the frame
    // at the hull (1e-6), below the rounding of the cone's support points (at its own size).
    const a = {
      type: "compound",
      children: [
        {
          shape: {
            type: "capsule",
            a: [1.10098771973862, 0.6021760371638928, 1.2020513743136878],
            b: [-1.10098771973862, -0.6021760371638928, -1.2020513743136878],
            radius: 0.5308338124136729,
          },
          position: [4.179446109776992, -2.478946240842513, 2.1544475406696812],
          rotation: [
            0.23558706097973015, 0.8867172573724648, -0.1651754794515889, -0.36186779791068,
          ],
        },
        {
          shape: {
            type: "cone",
            center: [0, 0, 0],
            halfHeight: 1.9571620305494202,
            radius: 1.8428555745365105,
            rotation: [
              -0.20289291133570614, 0.25607481844588403, 0.14806172935529846, 0.9334548077909005,
            ],
          },
          position: [-3.371115018949167, -1.0249803463813925, 0.973376407463087],
          rotation: [
            -0.5908016487098633, -0.17507498033787003, -0.7875606737477121, 0.007095654124285339,
          ],
        },
        {
          shape: {
            type: "cone",
            center: [0, 0, 0],
            halfHeight: 2.105405386044645,
            radius: 3.5909992744561245,
            rotation: [
              0.4639110014103404, -0.6340142983731203, -0.552183472256591, -0.2791162216632159,
            ],
          },
          position: [0.585067470214547, -3.4682374376883733, 0.12414974869051679],
        },
      ],
      position: [441843712, -155329536, 180986240],
      rotation: [
        -0.028863423776877305, -0.3094531581214628, -0.07329758502489703, -0.9476460888570413,
      ],
    };
    const h = 1.1319547263256113e-6;
    const b = {
      type: "convex",
      points: [
        [-1.0209622736123691e-7, -2.635583311594303e-7, 2.8272641572346657e-7],
        [-5.134589322608463e-7, -8.39540446051501e-8, -1.375066910780376e-6],
        [2.0225122276951168e-7, 8.005561880075618e-7, -1.88117937782728e-7],
        [-1.4203847239491196e-6, -6.072656781874741e-7, 7.634567383840718e-7],
        [4.372403061836394e-7, 1.6391113710767513e-7, 9.45392377715848e-8],
        [-2.7454555440176165e-7, 7.149840439701904e-7, -3.87282991343163e-7],
        [4.864997837916718e-8, -6.348362573405097e-7, -6.935714692568595e-7],
        [-6.004990971142377e-8, -3.914335793275825e-7, 1.2518162550989587e-7],
        [3.5569136414004277e-8, 7.668100199254013e-8, 9.534666778332479e-8],
        [h, h, h],
        [-h, -h, h],
        [-h, h, -h],
        [h, -h, -h],
      ],
      position: [441843712.9478804, -155329538.76140663, 180986240.65990505],
      rotation: [
        0.2446776477863843, -0.16027451565008508, -0.1673920354863785, -0.9415013726822601,
      ],
    };
    const r = expectDistance(a, b, b.position as V);
    expect(r.distance).toBeGreaterThan(8.276e-9);
  });

  it("a compound's cylinder touching the corner of a box of 5e3: the witness on both (seed 18)", () => {
    // Touching within the box's rounding (a gap of 7e-13 at 5e3): the witness kept is the box's
    // corner, 7.4e-13 from the cylinder; the cylinder's own was 4.4e-10 beyond the box's face.
    const a = {
      type: "compound",
      children: [
        {
          shape: { type: "capsule", a: [0, 0, 0], b: [0, 0, 0], radius: 0.04677117649312319 },
          position: [-0.00011755001218480615, -0.27033094679564, 0.05698199348800782],
          rotation: [
            -0.18259894814307565, -0.6424799896264589, 0.3273895575204156, -0.6683510789197651,
          ],
        },
        {
          shape: {
            type: "cylinder",
            center: [0, 0, 0],
            halfHeight: 0.2659021422926339,
            radius: 0.11250751160536095,
            rotation: [
              -0.3240953939655418, -0.01650952746042353, 0.014094580761995022, 0.9457753189349454,
            ],
          },
          position: [0.017462410735747867, -0.21593632771468435, 0.058137736884061236],
        },
      ],
      position: [0, 0, 0],
      rotation: [0.12701298696124938, -0.08383355086944609, -0.8252376843311775, 0.543895579363831],
    };
    const b = {
      type: "box",
      center: [1406.7433655926138, 3053.7634256225138, -4847.863701318682],
      halfExtents: [5365.527168086375, 1201.1816519736517, 2138.8222058090482],
      rotation: [
        -0.593127319678527, -0.42394936002622374, 0.20080151615800979, -0.6543284144013359,
      ],
    };
    const r = expectDistance(a, b, [0, 0, 0]);
    expect(r.distance).toBe(0);
  });

  it("a triangle of 2e-6 on a cylinder's cap at 3e3: witnesses facing each other (seed 17)", () => {
    // A gap of 1.6e-14; was pointA 1.5e-11 sideways of pointB: the touch at a rim's test of
    // rounding was scaled by the witnesses' magnitude in the frame at the triangle (1e-11), not
    // by the cylinder's coordinates where its support points round.
    const a = {
      type: "cylinder",
      center: [3053.0703125, -679.84228515625, 262.82470703125],
      halfHeight: 0.1734146078234074,
      radius: 0.24734048896165095,
      rotation: [0.7764581254453282, -0.5058495971700468, -0.1880650768276485, 0.3253620926762046],
    };
    const b = {
      type: "triangle",
      a: [3052.9731113448975, -680.1248409455183, 262.8690252564408],
      b: [3052.9731107181756, -680.1248405377941, 262.869025334616],
      c: [3052.9731094926815, -680.1248410818469, 262.86902677999313],
    };
    expectDistance(a, b, a.center as V);
  });

  it("a triangle's vertex on the slant of a cone of 700 at 960: pointB on the triangle (seed 16)", () => {
    // Overlapping by 4e-13: the witness on the triangle stays at its vertex (was 1.6e-6 off it,
    // placed on the cone's rim point's line when the cone's support was judged fixed at the
    // scale of the cone's frame).
    const a = {
      type: "cone",
      center: [0.04224720597267151, 0.039213746786117554, -0.0297774076461792],
      halfHeight: 662.6849082603561,
      radius: 707.6483420605254,
      rotation: [-0.6904123362117858, 0.02294993801921697, 0.5877061499460242, -0.4211954269304442],
    };
    const b = {
      type: "triangle",
      a: [-564.1219232651791, 772.5261668437188, 158.19799405490053],
      b: [-564.1361616682783, 772.4337360654554, 158.16911168225656],
      c: [-564.212374685963, 772.4638681570386, 158.0624648385764],
    };
    const r = expectDistance(a, b, b.b as V);
    expect(r.distance).toBe(0);
    const c = answerQuery({ op: "contact", a, b }) as ContactJson | null;
    expect(c).not.toBeNull();
    if (!c) return;
    const P = oraclePair(a, b, b.b as V);
    const bar = 1e-6 * Math.abs(c.distance) + P.amb;
    expect(surfaceDistance(P.B, P.local(c.pointB))).toBeLessThanOrEqual(bar + 4 * ulp(c.pointB));
    expect(surfaceDistance(P.A, P.local(c.pointA))).toBeLessThanOrEqual(bar + 4 * ulp(c.pointA));
  });
});
