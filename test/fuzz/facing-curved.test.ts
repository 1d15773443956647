/**
 * Regression inputs of issue 16, "pointB − pointA not along the normal" for convex pairs with a
 * cylinder or a cone (the fuzzer's opt-in facing check, seed 16 at 10^5 queries), fixed in
 * src/narrowphase/witness-faces.ts (`faceWitnesses`, `faceNormal`): the refinement leaves the
 * normal about 2^-36 rad from the least overlap, where a curved support (a rim point, a cone's
 * generator, a curved side) no longer faces the other shape's feature across it: a box's corner
 * 9.8 along its edge from the cylinder's rim point it crossed 3.7e-8 deep, two cones' support
 * points 6.3e-7 apart sideways at a depth of 1.9e-9, a cylinder's and a cone's 3.8e-4 apart at a
 * depth of 0.3, a cone's apex 1.7e4 from a box of 1e-3 inside it (the projections between the
 * features had stopped 1e-10 short at depth 2e3); and a box's witness 1.2e-16 below its plane
 * at size 0.05, one rounding step beyond the planes' check.
 *
 * The recorded scenarios (facing-curved.cases.json) are replayed through the fuzzer's own checks
 * with the facing bar on (test/fuzz/fuzz.ts: its independent oracle, the bars of
 * docs/FORMATS.md), as recorded and scaled by 2^-12..2^12 and moved up to 1e9; a fast-check
 * property per class places the pair in contact along a random direction at a random depth
 * (from the rounding level to deep), the centres' distance from the test's own support
 * functions (h_A(d) + h_B(−d) less the depth), at 1e-6..1e6, mixed sizes, offsets to 1e9, both
 * orders, and replays it through the same checks.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { offsetArb, quatArb, unitArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { add, scale, unrotate, type V } from "./oracle-shapes.js";
import {
  expectPassesBothOrders,
  loadCases,
  replayCases,
  replayScaledCases,
} from "./recorded-cases.js";

type J = Record<string, unknown>;

const CASES = loadCases("./facing-curved.cases.json");

describe("issue 16: a curved pair's witnesses facing each other across the normal (seed 16)", () => {
  replayCases(CASES, 7, { ops: ["contact"], facing: true });
});

describe("the recorded cases scaled by 2^-12..2^12 and moved up to 1e9, facing on", () => {
  replayScaledCases(CASES, { ops: ["contact"], facing: true }, 12, 16);
});

/**
 * h(d) − c·d of a shape (JSON, centre c) along unit d, written here from the shapes' definitions:
 * a box |d|·half extents; a cylinder (axis y, turned by its rotation) h·|d_y| + r·|d_xz|; a cone
 * (apex at +h) max(h·d_y, −h·d_y + r·|d_xz|).
 */
function extent(j: J, d: V): number {
  if (j.type === "aabb") {
    const lo = j.min as V;
    const hi = j.max as V;
    return (
      (Math.abs(d[0]) * (hi[0] - lo[0])) / 2 +
      (Math.abs(d[1]) * (hi[1] - lo[1])) / 2 +
      (Math.abs(d[2]) * (hi[2] - lo[2])) / 2
    );
  }
  const l = unrotate(j.rotation as number[], d);
  const h = j.halfHeight as number;
  const r = j.radius as number;
  const rho = Math.hypot(l[0], l[2]);
  if (j.type === "cylinder") return h * Math.abs(l[1]) + r * rho;
  return Math.max(h * l[1], -h * l[1] + r * rho);
}

/** Shape JSON of `type` at the origin, of size s, turned by q (a box: half extents s·e). */
function shapeOf(type: string, s: number, e: V, q: number[]): J {
  if (type === "aabb") {
    const h = scale(e, s);
    return { type, min: scale(h, -1), max: h };
  }
  return { type, center: [0, 0, 0], halfHeight: s * e[0], radius: s * e[1], rotation: q };
}

/** `j` moved by t (its centre, or min and max). */
function moved(j: J, t: V): J {
  if (j.type === "aabb") return { ...j, min: add(j.min as V, t), max: add(j.max as V, t) };
  return { ...j, center: add(j.center as V, t) };
}

const dims = fc.tuple(
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
  fc.double({ min: 0.2, max: 1, noNaN: true }),
);

for (const [ta, tb] of [
  ["aabb", "cylinder"],
  ["aabb", "cone"],
  ["cylinder", "cone"],
  ["cone", "cone"],
]) {
  describe(`property: ${ta}–${tb} in contact, witnesses facing across the normal`, () => {
    it("1e-6..1e6, mixed sizes, depths from rounding to deep, offsets to 1e9, both orders", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -6, max: 6 }),
          fc.integer({ min: -3, max: 3 }),
          dims,
          dims,
          quatArb,
          quatArb,
          unitArb,
          fc.constantFrom(0, 1e-12, 1e-8, 1e-4, 1e-2, 0.3),
          offsetArb,
          (e, k, da, db, qa, qb, dir, depth, [ou, om]) => {
            const sa = 10 ** e;
            const sb = Math.min(1e6, Math.max(1e-6, sa * 10 ** k));
            const a = shapeOf(ta, sa, da, qa);
            const b0 = shapeOf(tb, sb, db, qb);
            const gap = extent(a, dir) + extent(b0, scale(dir, -1));
            const b = moved(b0, scale(dir, gap - depth * Math.min(sa, sb)));
            const mag = Math.max(sa, sb) * 1e4;
            const offset = exactOffset(ou, Math.min(1e9, om * mag));
            expectPassesBothOrders(a, b, offset, `${ta}-${tb}`, {
              ops: ["contact"],
              facing: true,
            });
          },
        ),
        { numRuns: 40, seed: 16 },
      );
    });
  });
}
