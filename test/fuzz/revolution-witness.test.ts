/**
 * Regression inputs of issue 16 (the differential fuzzer, seeds 16, 17 and 19): a cylinder or cone
 * against a much larger (or much smaller) cylinder or cone, overlapping at rims. Both supports
 * along the normal are unique (rim points that slide with the normal), but the witness-placing
 * step of the normal refinement (src/geometry/refine-normal.ts, anchorWitnesses) judged
 * uniqueness by a threshold relative to the witnesses' distance from the frame's origin: in the
 * frame of the small shape, the large shape's rim moved "too far" under the probe tilt, counted as
 * a face, and its witness was moved onto the small shape's line — off the large shape by up to
 * 2.9e-5 (bars 5e-13 … 2e-6). The oracle is the fuzzer's own (test/fuzz/oracle-*.ts): closed-form
 * signed distances for the witnesses, and the least overlap over directions (independent
 * sampling and refinement) for the depth.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson } from "../support/answers.js";
import { overlapPieces, pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

const EPS = Number.EPSILON;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const ulp = (p: V) => 2 ** (Math.floor(Math.log2(Math.max(...p.map(Math.abs)))) - 52);

/**
 * The contact of the line, checked against the oracle in the frame of A's centre (exact shifts of
 * the fuzzer's dyadic placements): witnesses on their surfaces, (pB − pA)·n = distance, the depth
 * no more than the least overlap the oracle finds and achieved along the normal. Bars as the
 * fuzzer's (test/fuzz/fuzz.ts): 1e-6 of the depth plus 64ε of the pair's extent L.
 */
function expectRimContact(a: J, b: J): ContactJson {
  const r = answerQuery({ op: "contact", a, b }) as ContactJson;
  expect(r).not.toBeNull();
  const c = a.center as V;
  const shift = (j: J): J => ({ ...j, center: sub(j.center as V, c) });
  const A = oshape(shift(a));
  const B = oshape(shift(b));
  const pa = sub(r.pointA, c);
  const pb = sub(r.pointB, c);
  const T = pairTruth(A, B, [pa, pb], true);
  const L = Math.max(A.radius, B.radius, norm(sub(B.center, A.center)));
  const depth = -r.distance;
  expect(depth).toBeGreaterThan(0);
  const bar = 1e-6 * depth + 64 * EPS * L;
  expect(surfaceDistance(A, pa)).toBeLessThanOrEqual(bar + 4 * ulp(r.pointA));
  expect(surfaceDistance(B, pb)).toBeLessThanOrEqual(bar + 4 * ulp(r.pointB));
  expect(Math.abs(dot(sub(pb, pa), r.normal) - r.distance)).toBeLessThanOrEqual(
    bar + 8 * ulp(r.pointA),
  );
  expect(depth - T.depth).toBeLessThanOrEqual(bar);
  expect(Math.abs(overlapPieces(A.pieces[0], B.pieces[0], r.normal) - depth)).toBeLessThanOrEqual(
    bar,
  );
  return r;
}

describe("issue 16: rim against rim, witnesses on both solids of revolution", () => {
  it("a cone of 1e-5 on the base rim of a cone of 24 (seed 16; was pointB 3.9e-11 off)", () => {
    expectRimContact(
      {
        type: "cone",
        center: [0.015364736318588257, -0.2580130100250244, 0.10623389482498169],
        halfHeight: 1.0512689489038563e-5,
        radius: 1.4049928413830675e-5,
        rotation: [
          -0.20948291852021841, 0.05876548892619045, 0.9114071515033394, 0.34928574025872594,
        ],
      },
      {
        type: "cone",
        center: [-20.372508664815925, 22.315383479325128, -13.048491346967444],
        halfHeight: 22.57337938759116,
        radius: 24.263387804959955,
      },
    );
  });

  it("a cylinder of 4e-6 against a cylinder of 1e-2 (seed 17; was pointB 3.6e-13 off)", () => {
    expectRimContact(
      {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 3.804979901293449e-6,
        radius: 3.791508771223013e-6,
        rotation: [
          -0.08842837428994103, -0.10411340113246097, 0.6708042178921005, 0.7289461733099618,
        ],
      },
      {
        type: "cylinder",
        center: [-0.010646522616993578, 0.005666985217780063, 0.0016233752441751146],
        halfHeight: 0.011623344172130554,
        radius: 0.003591808020614045,
        rotation: [-0.18853513646590958, 0.037859541787113, -0.7575960774041566, 0.623754231180267],
      },
    );
  });

  it("a cone of 0.06 against a cone of 80 (seed 19; was pointB 1.2e-9 off)", () => {
    expectRimContact(
      {
        type: "cone",
        center: [0, 0, 0],
        halfHeight: 0.02854259532769649,
        radius: 0.064279654169962,
        rotation: [
          0.45551471702728646, -0.19111942510913543, -0.8655916303213147, 0.08204168108463683,
        ],
      },
      {
        type: "cone",
        center: [-94.181362449287, 5.386379349827644, -14.012265890506237],
        halfHeight: 51.22460754019499,
        radius: 80.37356235134409,
        rotation: [
          -0.23516519822700865, 0.5280507980727696, -0.1736908838263372, -0.7973024276102441,
        ],
      },
    );
  });

  it("a cylinder of 1.5e3 against a cone of 4.6e5 (seed 19; was pointB 2.9e-5 off)", () => {
    expectRimContact(
      {
        type: "cylinder",
        center: [0, 0, 0],
        halfHeight: 1472.360657506629,
        radius: 1468.5548939825799,
        rotation: [
          0.30930505490947735, 0.7976901708012172, 0.24969363884417717, 0.4535128015120673,
        ],
      },
      {
        type: "cone",
        center: [-545443.0610929144, 276073.5577412324, 90704.43765004337],
        halfHeight: 408039.8097831339,
        radius: 461913.5638108229,
        rotation: [
          0.05147187569647602, 0.24656016727583865, -0.752537556111499, -0.6084783944947673,
        ],
      },
    );
  });

  it("a cylinder of 800 against a cone of 640 (seed 19; was pointA 7.4e-6 off)", () => {
    expectRimContact(
      {
        type: "cylinder",
        center: [0.0007739551365375519, 0.0003966896329075098, 0.0012449566274881363],
        halfHeight: 795.2644526163782,
        radius: 494.3581015447895,
        rotation: [
          0.00496650845256313, 0.46280440410910767, -0.884543326792847, -0.058056182765035845,
        ],
      },
      {
        type: "cone",
        center: [85.42938795304315, -386.96071294666876, -1615.0423477503641],
        halfHeight: 644.1927573144902,
        radius: 479.88999931680365,
        rotation: [
          -0.8803650905695831, -0.13035886984540673, 0.29661760769757234, 0.34638398802890286,
        ],
      },
    );
  });
});
