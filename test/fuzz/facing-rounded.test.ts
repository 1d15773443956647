/**
 * Regression inputs of issue 16, "pointB − pointA not along the normal" for a cylinder or a cone
 * against the opt-in rounded shapes (roundedBox, roundedConvex: a core and a radius), the
 * fuzzer's facing check (seeds 67 and 68 at 30,000 queries restricted to those types, and the
 * class property below at fast-check seeds 3 and 4), fixed in src/narrowphase/convex-convex.ts
 * (`faceWitnesses`, `gapPairNormal`). Depth, normal and points on the shapes were right, but the
 * points slid sideways: a rounded box's edge across a cylinder's side at a depth of 7.1e-3, the
 * witnesses 6.3e-3 apart sideways (the projections crawled along the curved side instead of its
 * generator); a rounded box's edge across a cone's rim, both witnesses off their supporting
 * planes, 5e-3 apart at a depth of 2.4e3; a rounded hull's edge 4.2e4 from a cylinder's rim, the
 * refined normal 1.3e-6 rad off the nearest points' direction, 5.4e-2 apart sideways.
 *
 * The recorded scenarios (facing-rounded.cases.json) are replayed through the fuzzer's own checks
 * with the facing bar on (test/fuzz/fuzz.ts: its independent oracle, the bars of
 * docs/FORMATS.md), as recorded and scaled by 2^-12..2^12 and moved up to 1e9. The seed-67 gap is
 * also checked against its right value: the nearest points of the hull's edge and the cylinder's
 * rim, found by a golden-section search over the rim's angle at 40 digits (mpmath), the rim point
 * against the edge's nearest point. A fast-check property generates the class: a cylinder or a
 * cone against a rounded box or hull (radius 2^-10..1/2 of its size), placed along a random
 * direction from the test's own support functions (h_A(d) + h_B(−d)) at a random signed depth —
 * apart (with a prediction that reaches them), touching, overlapping from the rounding level to
 * deep — sizes 2^-20..2^20, mixed, offsets to 1e9, both orders, replayed with the facing bar on.
 * Its rotations are spread over the sphere of unit quaternions; the shared `quatArb`'s extremes
 * (axis-aligned turns with subnormal components) meet a separate class, an axis-aligned
 * cylinder's normal against a rounded shape (fixed since: test/fuzz/rounded-axis-depth.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { cubePointArb, fractionTripleArb, offsetArb, rotationArb, unitArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { dot, scale, unrotate, type V } from "./oracle-shapes.js";
import { expectReplayPasses, loadCases, replayCases, replayScaledCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

const CASES = loadCases("./facing-rounded.cases.json");

describe("issue 16: a curved shape against a rounded one, witnesses facing across the normal", () => {
  replayCases(CASES, 21, { ops: ["contact"], facing: true });
});

describe("the recorded cases scaled by 2^-12..2^12 and moved up to 1e9, facing on", () => {
  replayScaledCases(CASES, { ops: ["contact"], facing: true }, 8, 67);
});

describe("seed 67: a rounded hull's edge 4.2e4 from a cylinder's rim, the right gap and normal", () => {
  it("answers the nearest points' gap and direction, its witnesses facing across it", () => {
    const c = CASES.find((x) => x.seed === 67 && x.pair === "cylinder-roundedConvex");
    if (c === undefined) throw new Error("missing case");
    const r = answerQuery({
      op: "contact",
      a: c.scenario.localA,
      b: c.scenario.localB,
      prediction: c.scenario.prediction,
    }) as { distance: number; normal: V; pointA: V; pointB: V };
    // The rim point against the edge's nearest point, at 40 digits.
    const gap = 42223.527354861515;
    const normal: V = [0.9921354293631787, -0.1084692661084419, 0.062463654329835576];
    expect(Math.abs(r.distance - gap)).toBeLessThan(1e-9 * gap);
    for (let i = 0; i < 3; i++) expect(Math.abs(r.normal[i] - normal[i])).toBeLessThan(1e-9);
    const dp = [0, 1, 2].map((i) => r.pointB[i] - r.pointA[i]) as V;
    const along = dot(dp, r.normal);
    const side = Math.hypot(...dp.map((x, i) => x - along * r.normal[i]));
    expect(side).toBeLessThan(1e-9 * gap);
  });
});

/**
 * h(d) − c·d of a shape (JSON, centre or position c) along unit d, from the shapes' definitions: a
 * rounded box |d_local|·half extents + radius; a rounded hull max over its points of p·d_local +
 * radius; a cylinder (axis y) h·|d_y| + r·|d_xz|; a cone (apex at +h) max(h·d_y, −h·d_y + r·|d_xz|).
 */
function extent(j: J, d: V): number {
  const l = unrotate(j.rotation as number[], d);
  const radius = j.radius as number;
  if (j.type === "roundedBox") {
    const h = j.halfExtents as V;
    return Math.abs(l[0]) * h[0] + Math.abs(l[1]) * h[1] + Math.abs(l[2]) * h[2] + radius;
  }
  if (j.type === "roundedConvex") {
    let m = Number.NEGATIVE_INFINITY;
    for (const p of j.points as V[]) m = Math.max(m, dot(p, l));
    return m + radius;
  }
  const h = j.halfHeight as number;
  const rho = Math.hypot(l[0], l[2]);
  if (j.type === "cylinder") return h * Math.abs(l[1]) + radius * rho;
  return Math.max(h * l[1], -h * l[1] + radius * rho);
}

for (const curvedType of ["cylinder", "cone"]) {
  for (const roundedType of ["roundedBox", "roundedConvex"]) {
    const pair = `${curvedType}-${roundedType}`;
    describe(`property: ${pair} apart, touching or overlapping, witnesses facing`, () => {
      it("sizes 2^-20..2^20, mixed, depths from rounding to deep, gaps, offsets to 1e9, both orders", () => {
        fc.assert(
          fc.property(
            fc.integer({ min: -20, max: 20 }),
            fc.integer({ min: -4, max: 4 }),
            fractionTripleArb,
            fractionTripleArb,
            fc.array(cubePointArb, { minLength: 4, maxLength: 10 }),
            fc.constantFrom(2 ** -10, 2 ** -6, 2 ** -3, 0.25, 0.5),
            rotationArb,
            rotationArb,
            unitArb,
            fc.constantFrom(-2, -0.5, -0.1, -1e-3, -1e-6, 0, 0, 1e-12, 1e-8, 1e-4, 1e-2, 0.1, 0.3),
            offsetArb,
            (e, k, da, db, pts, rr, qa, qb, dir, depth, [ou, om]) => {
              const sa = 2 ** e;
              const sb = Math.min(2 ** 20, Math.max(2 ** -20, sa * 2 ** k));
              const a: J = {
                type: curvedType,
                center: [0, 0, 0],
                halfHeight: sa * da[0],
                radius: sa * da[1],
                rotation: qa,
              };
              const core = sb * (1 - rr);
              const t = 0.3;
              const b0: J =
                roundedType === "roundedBox"
                  ? {
                      type: roundedType,
                      center: [0, 0, 0],
                      halfExtents: scale(db as V, core),
                      radius: sb * rr,
                      rotation: qb,
                    }
                  : {
                      type: roundedType,
                      // Solid: a tetrahedron's corners among the points.
                      points: [...pts, [t, t, t], [-t, -t, t], [-t, t, -t], [t, -t, -t]].map((p) =>
                        scale(p as V, core),
                      ),
                      radius: sb * rr,
                      position: [0, 0, 0],
                      rotation: qb,
                    };
              const reach = extent(a, dir) + extent(b0, scale(dir, -1));
              const signed = depth * Math.min(sa, sb);
              const at = scale(dir, reach - signed);
              const b: J =
                roundedType === "roundedBox" ? { ...b0, center: at } : { ...b0, position: at };
              const offset = exactOffset(ou, Math.min(1e9, om * Math.max(sa, sb) * 1e4));
              for (const sc of [offsetScenario(a, b, offset), offsetScenario(b, a, offset)]) {
                // Apart: a prediction that reaches them, so that contact answers.
                if (signed < 0) sc.prediction = -2 * signed;
                expectReplayPasses(sc, pair, { ops: ["contact"], facing: true });
              }
            },
          ),
          { numRuns: 150 },
        );
      });
    });
  }
}
