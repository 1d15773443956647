/**
 * Regression inputs of issue 16 on box–box and aabb–box pairs of very different sizes (flat or
 * huge boxes against small ones), found by the differential fuzzer (`--types box,aabb`, seeds
 * 16–23), each checked against the fuzzer's independent oracle (test/fuzz/oracle-pairs.ts: the
 * least overlap over every face normal and edge crossing of the two boxes, and the signed
 * distance of a point to a box) at the bars of docs/FORMATS.md ("Accuracy").
 *
 * The SAT kept a face axis over a better edge or other face axis unless that was better by
 * 1e-9 of the larger box's size: 8e-5 deep where the truth is 2.09e-5 (a box of 780 under a
 * 2.7e5 aabb), 2.37e-3 for 2.30e-3 (a box of 868 against one of 2.5e5). Its tie is now at most
 * 1e-7 of the depth (and no less than 32 ulps of the size, src/constants.ts).
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson, ManifoldJson } from "../support/answers.js";
import { pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

const EPS = Number.EPSILON;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/**
 * Checks contact(a, b) and contact(b, a) of two overlapping boxes against the oracle: the depth
 * within 1e-6·depth + 64·ε·L of the least overlap over all SAT axes, the normal achieving it,
 * the witness points on their boxes and (pointB − pointA)·normal = distance, to that bar.
 */
function expectExactContact(a: unknown, b: unknown, depth: number): void {
  const A = oshape(a);
  const B = oshape(b);
  const L = Math.max(A.radius, B.radius, Math.hypot(...sub(A.center, B.center)));
  const truth = pairTruth(A, B, [], true);
  // The oracle agrees with the value pinned here (computed by it once, to its own rounding).
  expect(Math.abs(truth.depth - depth)).toBeLessThan(1e-9 * depth + 64 * EPS * L);
  const bar = 1e-6 * depth + 64 * EPS * L;
  for (const [x, y, X, Y] of [
    [a, b, A, B],
    [b, a, B, A],
  ] as const) {
    const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
    expect(c).not.toBeNull();
    if (!c) return;
    expect(Math.abs(-c.distance - depth)).toBeLessThan(bar);
    // The normal achieves the depth: the overlap of the boxes along it is the depth.
    const overlap = -pairTruthAlong(X, Y, c.normal);
    expect(Math.abs(overlap - depth)).toBeLessThan(bar);
    expect(surfaceDistance(X, c.pointA)).toBeLessThan(bar);
    expect(surfaceDistance(Y, c.pointB)).toBeLessThan(bar);
    expect(Math.abs(dot(sub(c.pointB, c.pointA), c.normal) - c.distance)).toBeLessThan(bar);
  }
}

/** Separation of boxes X and Y along unit n (X toward Y): min over Y of n·y − max over X of n·x. */
function pairTruthAlong(X: ReturnType<typeof oshape>, Y: ReturnType<typeof oshape>, n: V): number {
  const vx = X.vertices as V[];
  const vy = Y.vertices as V[];
  return Math.min(...vy.map((p) => dot(n, p))) - Math.max(...vx.map((p) => dot(n, p)));
}

describe("issue 16: box–box SAT ties relative to the depth", () => {
  it("a box of 780 under the corner of a 2.7e5 aabb: depth 2.0917e-5, not 8.0e-5", () => {
    const box = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [780.7312495953894, 1338.031349461919, 628.4524302854807],
      rotation: [0.0857068275729475, -0.09500555786124595, 0.7882081188245489, -0.6019603351566615],
    };
    const aabb = {
      type: "aabb",
      min: [1608.1687010506998, -217974.91666376486, 253.23139821724106],
      max: [270092.354634586, 12706.14528064634, 52508.23695458151],
    };
    expectExactContact(box, aabb, 0.000020916840639984002);
  });

  it("a box of 868 against one of 2.5e5: depth 2.29938e-3, not 2.3658e-3", () => {
    const big = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [99788.17646372573, 84461.32980373129, 246769.1881934561],
      rotation: [
        -0.6004016774143692, -0.6463592391610035, -0.11247722594151957, -0.4572597001198781,
      ],
    };
    const small = {
      type: "box",
      center: [115871.29152259021, -22563.79199816578, -227723.62349195933],
      halfExtents: [868.7908105427839, 1183.8619286989451, 867.1164291330182],
      rotation: [
        -0.824194681389545, -0.297846594500817, -0.47947081399354213, -0.04580689731713333,
      ],
    };
    expectExactContact(big, small, 0.0022993828170001507);
  });

  it("an aabb of 7e-4 in the face of a box of 6e4: depth 2.78099e-5, not 2.7894e-5", () => {
    const aabb = {
      type: "aabb",
      min: [-0.0007252568969449627, -0.0006640001817723866, -0.000310806867601458],
      max: [0.0007252568969449627, 0.0006640001817723866, 0.000310806867601458],
    };
    const box = {
      type: "box",
      center: [-54212.93792099458, 19685.552711572913, 51393.40297811725],
      halfExtents: [67518.74006086783, 60371.73247692141, 36125.32680298569],
      rotation: [
        0.9513964658472379, -0.2788899138489474, -0.11441523614720554, -0.06304232280056919,
      ],
    };
    expectExactContact(aabb, box, 0.00002780991337321653);
  });

  it("unit boxes overlapping by 3.16e-10 on an edge axis: not 4.74e-10 on a face", () => {
    const a = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [0.4767694882543696, 0.3471246946344351, 0.5387918481418903],
      rotation: [0.5085575615151434, -0.34274006611910646, 0.709462902248986, -0.34721872650375185],
    };
    const b = {
      type: "box",
      center: [1.182525294505946, -0.8919017851161765, -0.31728618470147973],
      halfExtents: [0.28696415839902445, 0.8135211789012533, 0.728441443905744],
      rotation: [
        0.780409253111403, -0.27164009192059135, 0.45454241299109194, -0.33251203423592146,
      ],
    };
    expectExactContact(a, b, 3.159500439053886e-10);
  });

  it("a box of 2.7e-4 touching a box of 4.5e5: the witness points one touching pair", () => {
    // Every corner of the small box's face lay within the old tie (4.5e-4) of the deepest, so
    // the averaged witnesses were 1.26e-4 apart along the normal for a distance of 0.
    const a = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [0.00027374189610331707, 0.00020625963806116362, 0.00012926542437765348],
    };
    const b = {
      type: "box",
      center: [434006.67060684785, 144781.30982302324, 277518.10381957697],
      halfExtents: [453952.7805401267, 490100.7004530294, 356918.75745811686],
      rotation: [
        0.37507594696986085, -0.3351643621229178, -0.3881369104740568, -0.7722257591501682,
      ],
    };
    const A = oshape(a);
    const B = oshape(b);
    const L = Math.max(A.radius, B.radius, Math.hypot(...sub(A.center, B.center)));
    const truth = pairTruth(A, B, [], true);
    const bar = 1e-6 * truth.depth + 64 * EPS * L;
    for (const [x, y, X, Y] of [
      [a, b, A, B],
      [b, a, B, A],
    ] as const) {
      const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
      if (!c) {
        // Touching within the rounding of the pair: apart is allowed only by that much.
        expect(truth.upper).toBeLessThan(bar);
        continue;
      }
      expect(Math.abs(-c.distance - truth.depth)).toBeLessThan(bar);
      expect(surfaceDistance(X, c.pointA)).toBeLessThan(bar);
      expect(surfaceDistance(Y, c.pointB)).toBeLessThan(bar);
      expect(Math.abs(dot(sub(c.pointB, c.pointA), c.normal) - c.distance)).toBeLessThan(bar);
    }
  });
});

/**
 * contact and manifold of a and b, both orders: witness points on their boxes within the bar of
 * docs/FORMATS.md (1e-6·depth + 64·ε·L, plus 4 ulps of the coordinates), every manifold point's
 * distance (pointB − pointA)·normal and none deeper than the contact.
 */
function expectWitnessesOnBoxes(a: unknown, b: unknown): void {
  const A = oshape(a);
  const B = oshape(b);
  const L = Math.max(A.radius, B.radius, Math.hypot(...sub(A.center, B.center)));
  for (const [x, y, X, Y] of [
    [a, b, A, B],
    [b, a, B, A],
  ] as const) {
    const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
    expect(c).not.toBeNull();
    if (!c) return;
    const bar = 1e-6 * Math.abs(c.distance) + 64 * EPS * L;
    const ulps = (p: V) => 4 * EPS * Math.max(...p.map(Math.abs));
    expect(surfaceDistance(X, c.pointA)).toBeLessThan(bar + ulps(c.pointA));
    expect(surfaceDistance(Y, c.pointB)).toBeLessThan(bar + ulps(c.pointB));
    const m = answerQuery({ op: "manifold", a: x, b: y }) as ManifoldJson | null;
    expect(m).not.toBeNull();
    for (const p of m?.points ?? []) {
      expect(surfaceDistance(X, p.pointA)).toBeLessThan(bar + ulps(p.pointA));
      expect(surfaceDistance(Y, p.pointB)).toBeLessThan(bar + ulps(p.pointB));
      expect(p.distance).toBeGreaterThanOrEqual(c.distance - bar);
    }
  }
}

describe("issue 16: manifold clipping of touching and flat boxes", () => {
  it("two aabbs sharing exactly one corner: the witnesses are that corner", () => {
    // A's min corner is B's max corner. The incident face, formed in the reference box's frame,
    // lay one ulp outside the reference face's side plane: the clip was empty and the witness
    // fell back to an arbitrary corner of the incident face, 0.18 off the other box.
    const a = {
      type: "aabb",
      min: [6.186548147015237, 5.5445893447793795, -0.06472621618122973],
      max: [6.260503854937888, 5.706402476509683, 0.012245220526169921],
    };
    const b = {
      type: "aabb",
      min: [5.75299863925488, 5.15265763163239, -0.3001555805358179],
      max: [6.186548147015237, 5.5445893447793795, -0.06472621618122973],
    };
    const corner: V = [6.186548147015237, 5.5445893447793795, -0.06472621618122973];
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
      expect(c?.distance).toBe(0);
      for (const p of [c?.pointA, c?.pointB] as V[]) {
        expect(Math.hypot(...sub(p, corner))).toBeLessThan(16 * EPS * 6.3);
      }
    }
    expectWitnessesOnBoxes(a, b);
  });

  it("a box of 3e-5 touching the edge of an aabb of 8e3: witnesses on the aabb", () => {
    // The box's face and the aabb's edge meet along a line; in the box's frame the aabb's face
    // lay 4.8e-14 beyond the box's face (rounding of coordinates near 5e3): clipped empty.
    const a = {
      type: "aabb",
      min: [-3931.8576724080094, -1622.5631331529667, -5486.782655882789],
      max: [3952.416662886525, 1612.6228255357792, 5494.163763213111],
    };
    const b = {
      type: "box",
      center: [-3931.8577033819556, 1612.622864616848, -358.7655739575589],
      halfExtents: [3.097394647657171e-5, 3.908106868682225e-5, 3.489635973356449e-5],
    };
    expectWitnessesOnBoxes(a, b);
  });

  it("a box of zero thickness on its long edge against a box: no point deeper than the contact", () => {
    // The flat box's side face (a segment listed as a polygon) was the reference face: its side
    // planes bounded one side only, and a manifold point was 22.4 deep for a contact of 3.2e-5.
    const a = {
      type: "box",
      center: [-1573.70703125, 2476.388671875, -179.4876708984375],
      halfExtents: [1022.4271770993695, 872.7112012253813, 1267.6691073175489],
      rotation: [
        0.17492897200025104, 0.006575743278116464, -0.3875129761577519, -0.9050913255935211,
      ],
    };
    const b = {
      type: "box",
      center: [-280.25637917569, 2884.576029432646, 812.8742614026704],
      halfExtents: [473.55881188165495, 101.21425033833006, 0],
      rotation: [-0.1864875367844893, 0.4175092399715023, -0.6111691009654785, -0.6460501243615088],
    };
    const truth = pairTruth(oshape(a), oshape(b), [], true);
    const c = answerQuery({ op: "contact", a, b }) as ContactJson | null;
    expect(Math.abs(-(c?.distance ?? 0) - truth.depth)).toBeLessThan(1e-6 * truth.depth + 1e-9);
    expectWitnessesOnBoxes(a, b);
  });

  it("a box of 4e-3 against a flat box of 7e-3 at 2e4: manifold points on the flat box", () => {
    const a = {
      type: "box",
      center: [7015.328125, 19309.046875, -1573.6640625],
      halfExtents: [0.001975671849943562, 0.0012208893225119702, 0.000885861247454428],
      rotation: [0.5771133421637133, 0.22724351914614505, -0.46458673481575846, 0.6320282740004094],
    };
    const b = {
      type: "box",
      center: [7015.323212190703, 19309.04502316808, -1573.664579535563],
      halfExtents: [0.0036234048545988004, 0.0032133096217183046, 0],
      rotation: [
        -0.7379947799570022, -0.2160094875503907, -0.07268639447741426, 0.6351537562687537,
      ],
    };
    // Checked in the pair's own frame (the oracle's points at 2e4 would carry 4e-12 of rounding).
    const shift = (j: Record<string, unknown>) => ({
      ...j,
      center: sub(j.center as V, [7015.328125, 19309.046875, -1573.6640625]),
    });
    expectWitnessesOnBoxes(shift(a), shift(b));
  });
});

describe("issue 16: box–box distance of overlapping boxes from the SAT", () => {
  /** distance(a, b) both orders: 0, the contact's witness points, on their boxes. */
  function expectDistanceWitnesses(a: unknown, b: unknown): void {
    const A = oshape(a);
    const B = oshape(b);
    const L = Math.max(A.radius, B.radius, Math.hypot(...sub(A.center, B.center)));
    for (const [x, y, X, Y] of [
      [a, b, A, B],
      [b, a, B, A],
    ] as const) {
      const d = answerQuery({ op: "distance", a: x, b: y }) as {
        distance: number;
        pointA: V;
        pointB: V;
      };
      const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
      expect(d.distance).toBe(0);
      const bar = 1e-6 * Math.abs(c?.distance ?? 0) + 64 * EPS * L;
      expect(surfaceDistance(X, d.pointA)).toBeLessThan(bar);
      expect(surfaceDistance(Y, d.pointB)).toBeLessThan(bar);
      expect(d.pointA).toEqual(c?.pointA);
      expect(d.pointB).toEqual(c?.pointB);
    }
  }

  it("a box of 8e-4 in a box of 270: the witness on the big box, not 1.3e-3 off it", () => {
    expectDistanceWitnesses(
      {
        type: "box",
        center: [0, 0, 0],
        halfExtents: [0.0003275218423442799, 0.00043800954198359646, 0.000750220889440411],
        rotation: [
          0.42291344690109733, -0.8791076755284584, 0.08248351659052176, 0.20374096482554632,
        ],
      },
      {
        type: "box",
        center: [-136.69280031585788, -70.16464348558927, 43.865356601623766],
        halfExtents: [76.962179179728, 270.25958531823176, 52.813549527104506],
        rotation: [
          0.11826736364786515, 0.15075481316090494, 0.21338720926200952, -0.9579935886674688,
        ],
      },
    );
  });

  it("a box of 0.5 through a flat box of 1.2e4: the witness on the small box, not 9.4e3 off it", () => {
    expectDistanceWitnesses(
      {
        type: "box",
        center: [0.03825536370277405, 0.006575208157300949, -0.019492968916893005],
        halfExtents: [0.4743826622148917, 0.12475181819455151, 0.19703710739074146],
        rotation: [
          0.22574523836320937, -0.6739002823112337, 0.5685786485018213, -0.41426539479543734,
        ],
      },
      {
        type: "box",
        center: [8831.652349370463, 7700.655654746383, 1969.4063669886818],
        halfExtents: [11527.149175808478, 6555.598437666411, 0],
        rotation: [
          0.2484808924544912, 0.03856487755018368, 0.24571285005412544, 0.9361598109419341,
        ],
      },
    );
  });
});
