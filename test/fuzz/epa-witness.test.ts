/**
 * Regression inputs of issue 16 (the differential fuzzer, seeds 16 and 18): EPA's witnesses
 * when no face of its polytope holds the origin's projection. A flat or thin shape (an aabb of
 * zero thickness, a box against a compound's cone) leaves sliver faces on the Minkowski
 * difference, and EPA then took B's deepest point along −n with A's witness depth·n ahead of
 * it: on B, but as far from A as B's support point is from the contact (1.7 off an aabb of 1e-5
 * touched by a hull of 3; 1.7e3 off an aabb beside a cylinder). EPA now finds them by GJK
 * between A and B moved along the normal past touching (src/geometry/epa.ts,
 * `touchingWitnesses`).
 *
 * The oracle is the fuzzer's own (test/fuzz/oracle-*.ts: closed-form signed distances of each
 * shape, independent of the library) in a frame shifted exactly to the pair; for an aabb it is
 * also checked by hand: a point is on a box of zero thickness when it lies in its rectangle.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ContactJson, ManifoldJson } from "../support/answers.js";
import { translateShape } from "./generate.js";
import { surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

const EPS = Number.EPSILON;
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const ulp = (p: V) => 2 ** (Math.floor(Math.log2(Math.max(...p.map(Math.abs)))) - 52);

/**
 * The pair in the oracle's frame: both shapes moved by −o, o the given point rounded to 20 bits
 * per axis (an exact shift of the fuzzer's placements), with the fuzzer's ambiguity bar 64ε·L
 * (L the pair's extent: bounding radii and the distance of the centres).
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

/**
 * distance, contact (both orders) and manifold of the pair, checked as the fuzzer checks an
 * intersecting or touching pair: every witness within 1e-6 of the depth plus 64ε·L (plus 4 ulps
 * of its coordinates) of its shape's surface, and (pointB − pointA)·normal the contact's signed
 * distance. Returns the contact.
 */
function expectWitnessesOnShapes(a: J, b: J, at: V): ContactJson {
  const P = oraclePair(a, b, at);
  const c = answerQuery({ op: "contact", a, b }) as ContactJson;
  expect(c).not.toBeNull();
  expect(c.distance).toBeLessThanOrEqual(0);
  const bar = 1e-6 * Math.abs(c.distance) + P.amb;
  const onA = (p: V) =>
    expect(surfaceDistance(P.A, P.local(p))).toBeLessThanOrEqual(bar + 4 * ulp(p));
  const onB = (p: V) =>
    expect(surfaceDistance(P.B, P.local(p))).toBeLessThanOrEqual(bar + 4 * ulp(p));
  onA(c.pointA);
  onB(c.pointB);
  expect(Math.abs(dot(sub(c.pointB, c.pointA), c.normal) - c.distance)).toBeLessThanOrEqual(
    bar + 8 * ulp(c.pointA),
  );
  const f = answerQuery({ op: "contact", a: b, b: a }) as ContactJson;
  onA(f.pointB);
  onB(f.pointA);
  const d = answerQuery({ op: "distance", a, b }) as ContactJson;
  expect(d.distance).toBe(0);
  onA(d.pointA);
  onB(d.pointB);
  const m = answerQuery({ op: "manifold", a, b }) as ManifoldJson;
  for (const p of m.points) {
    onA(p.pointA);
    onB(p.pointB);
  }
  return c;
}

/** Distance of p from an aabb, 0 inside (hand oracle: a box of zero thickness is all surface). */
function outsideAabb(box: { min: V; max: V }, p: V): number {
  let s = 0;
  for (let k = 0; k < 3; k++) {
    const q = Math.min(Math.max(p[k], box.min[k]), box.max[k]);
    s += (p[k] - q) ** 2;
  }
  return Math.sqrt(s);
}

describe("issue 16: EPA's witnesses when no polytope face holds the contact point", () => {
  it("a flat aabb of 1e-5 grazed by a hull of size 3 (seed 16): pointA on the aabb, not 1.7 off", () => {
    const a = {
      type: "aabb",
      min: [178.09301484015745, 75.66472904516102, -80.634033203125] as V,
      max: [178.09302031609255, 75.66473872827648, -80.634033203125] as V,
    };
    const b = {
      type: "convex",
      points: [
        [0.49348503846037683, 1.9110015404141865, 1.2415656199216223],
        [-2.7739129726045357, -1.6693735541154895, -1.0583366486890025],
        [-2.1249507304141213, -1.7846357059813234, 0.1906222948859373],
        [-0.19454686124285736, 0.48399215690423336, -0.4006519921236136],
        [-0.43657176276644627, 0.8838122203542254, 0.6837353234839145],
        [-0.00018266432890978734, -0.3920942017875704, 0.027198710267601678],
        [1.9850981926778202, 2.8287476877514233, 2.577468179695831],
        [1.464958694049785, 1.8572361069668823, -2.7345630863311814],
        [-3.335910220125787, -3.673341876939153, 2.8183773201747435],
        [0.06944172234935575, -0.048489009930140714, 0.021812031834363976],
        [3.1790519643159927, 3.1790519643159927, 3.1790519643159927],
        [-3.1790519643159927, -3.1790519643159927, 3.1790519643159927],
        [-3.1790519643159927, 3.1790519643159927, -3.1790519643159927],
        [3.1790519643159927, -3.1790519643159927, -3.1790519643159927],
      ],
      position: [181.21477138667117, 78.14561055566065, -79.29650434877541],
      rotation: [
        0.7753609113936918, 0.054083755605395856, 0.6246084749872097, -0.07585945845121467,
      ],
    };
    const c = expectWitnessesOnShapes(a, b, a.min);
    // Was 1.742 off the aabb's rectangle.
    expect(outsideAabb(a, c.pointA)).toBeLessThanOrEqual(4 * ulp(c.pointA));
    // The hull grazes the aabb: the depth is at the rounding of the pair (< 1e-11).
    expect(c.distance).toBeGreaterThan(-1e-11);
  });

  it("a flat aabb beside a cylinder of 1e3 (seed 18): pointA on the aabb, not 1.7e3 off", () => {
    const a = {
      type: "aabb",
      min: [19220.803776033397, -712.6078032880282, -21632.578125] as V,
      max: [19220.977473966603, -711.7720795244718, -21632.578125] as V,
    };
    const b = {
      type: "cylinder",
      center: [19056.8905057289, -1869.8657998779768, -21766.482632730193],
      halfHeight: 2861.135902889047,
      radius: 1140.7929954833512,
    };
    const c = expectWitnessesOnShapes(a, b, a.min);
    expect(outsideAabb(a, c.pointA)).toBeLessThanOrEqual(4 * ulp(c.pointA));
  });

  it("a cylinder of 2.6e4 at 2.4e8 against an aabb (seed 18)", () => {
    const a = {
      type: "cylinder",
      center: [95126272, -12306040, -236430336],
      halfHeight: 13466.205841634483,
      radius: 26295.44762757405,
    };
    const b = {
      type: "aabb",
      min: [95011578.19362314, -12353390.032816688, -236474013.50188607],
      max: [95101192.95044154, -12263178.389415383, -236438241.17799792],
    };
    expectWitnessesOnShapes(a, b, a.center as V);
  });

  it("a cylinder of 4e-6 8e-20 from an aabb's corner (seed 18): pointB on the aabb, not 6e-7 off", () => {
    const a = {
      type: "cylinder",
      center: [-0.0005501811392605305, 0.0005150944925844669, -0.002652334049344063],
      halfHeight: 2.4023942051857057e-6,
      radius: 3.7989461746489993e-6,
    };
    const b = {
      type: "aabb",
      min: [-0.0005629673224391861, 0.0005090832541230188, -0.0026600123770290805] as V,
      max: [-0.0005509925726083862, 0.000516898496185188, -0.002656045325130079] as V,
    };
    // Apart by a rounding-level gap: distance, and contact within a prediction.
    const P = oraclePair(a, b, a.center as V);
    const d = answerQuery({ op: "distance", a, b }) as ContactJson;
    const c = answerQuery({ op: "contact", a, b, prediction: 1e-6 }) as ContactJson;
    for (const r of [d, c]) {
      expect(r.distance).toBeGreaterThan(0);
      expect(r.distance).toBeLessThan(1e-18);
      const bar = 1e-9 * 3.8e-6 + P.amb;
      expect(surfaceDistance(P.A, P.local(r.pointA))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointA));
      expect(surfaceDistance(P.B, P.local(r.pointB))).toBeLessThanOrEqual(bar + 4 * ulp(r.pointB));
      // Was 6.0e-7 off the aabb (hand oracle: clamping to the box).
      expect(outsideAabb(b, r.pointB)).toBeLessThanOrEqual(4 * ulp(r.pointB));
    }
  });

  it("a box against a compound's cone at 1e7 (seed 16): pointA on the box, not 2.1e-3 off", () => {
    const a = {
      type: "box",
      center: [-4746340, 10957632, -2142668],
      halfExtents: [115.2175871958266, 479.0074210745774, 99.68172352145598],
      rotation: [0.6550701104389139, -0.2844502525700198, -0.3511778395975001, -0.6055124517283137],
    };
    const b = {
      type: "compound",
      children: [
        {
          shape: {
            type: "cone",
            center: [0, 0, 0],
            halfHeight: 417.68986552402487,
            radius: 388.72137102721194,
            rotation: [
              -0.38767026685518297, 0.4601907110165628, 0.7807204551426747, 0.1685581342217471,
            ],
          },
          position: [141.54506588265235, 186.87208638620842, 76.09282015323264],
        },
        {
          shape: { type: "sphere", center: [0, 0, 0], radius: 174.39562406593456 },
          position: [-365.3738398872673, 293.8886529241445, 434.13238993070627],
          rotation: [
            0.462580268655301, -0.05544431320956014, 0.6244895228724375, -0.6268638281206416,
          ],
        },
      ],
      position: [-4746277.022793217, 10958164.603310296, -2143300.3552891025],
      rotation: [0.6608004618802663, 0.2134055339913322, 0.7158739910402208, 0.07297435572066967],
    };
    expectWitnessesOnShapes(a, b, a.center as V);
  });

  it("a hull of 0.03 against a compound of cylinders at 3e5 (seed 18): pointA not 2.9e-4 off", () => {
    const a = {
      type: "compound",
      children: [
        {
          shape: {
            type: "cylinder",
            center: [0, 0, 0],
            halfHeight: 0.0025171448321373983,
            radius: 0.006391617946840418,
            rotation: [
              -0.3192420862239705, -0.5309857754861079, 0.6225971793198949, -0.47802860679847814,
            ],
          },
          position: [-0.005926767962789201, -0.005349166997315436, 0.005496142800810465],
        },
        {
          shape: {
            type: "cylinder",
            center: [0, 0, 0],
            halfHeight: 0.001675168505078154,
            radius: 0.006095021832113895,
            rotation: [
              -0.014676270817791505, -0.2030550143364651, -0.617465873658137, -0.759795474516198,
            ],
          },
          position: [-0.003380015371412904, 0.00015730960453757493, 0.0020742095151409065],
        },
        {
          shape: {
            type: "cylinder",
            center: [0, 0, 0],
            halfHeight: 0.004143822306552123,
            radius: 0.005009264342743049,
            rotation: [
              0.05447881944959589, 0.5329874857703484, 0.12383050692275491, 0.8352379324472966,
            ],
          },
          position: [0.0033715653531664422, 0.0006655370318406955, -0.005749931730184451],
          rotation: [
            0.9212820919377408, 0.2023880432770759, -0.25044028417869146, -0.21807808480861365,
          ],
        },
      ],
      position: [296988.5, -43910.375, -68516.6875],
      rotation: [-0.5628540250121431, 0.1568605484241116, 0.803223494956226, -0.11585392538029059],
    };
    const b = {
      type: "convex",
      points: [
        [0.00688078724900716, -0.02701730693688209, -0.006038963981398571],
        [-0.00035797325826051295, 0.00047102794214787204, -0.0005296981173668891],
        [-0.003098114918238451, 0.0010973655696595594, 0.0037680170404744973],
        [0.015782793037460774, -0.0057527599181902865, 0.00654153032319818],
        [0.0007103348374540644, 0.006929441025208301, 0.0033155508369882014],
        [-0.005838788126021971, 0.01238389668091287, 0.003760743195383748],
        [-0.0159148302098059, -0.005843527041535487, 0.002761174762656443],
        [0.012149611561945476, 0.0051879732073384565, 0.018866264301461884],
        [-0.0038296764610751296, -0.007388719976387757, -0.007248100894504492],
        [0.004358396325498068, -0.0047707448447864235, 0.0037259545518594783],
        [0.016106770660271698, 0.016106770660271698, 0.016106770660271698],
        [-0.016106770660271698, -0.016106770660271698, 0.016106770660271698],
        [-0.016106770660271698, 0.016106770660271698, -0.016106770660271698],
        [0.016106770660271698, -0.016106770660271698, -0.016106770660271698],
      ],
      position: [296988.5071007645, -43910.37613112925, -68516.66181026258],
      rotation: [0.21339856278779504, 0.4177335316496486, 0.8821102169088879, -0.04291054836016765],
    };
    expectWitnessesOnShapes(a, b, a.position as V);
  });
});
