/**
 * Regression of issue 16, session 23 (a fresh user's findings F4 and F5 on main 55602dc): a
 * rounded box of 1e-2 on the slant of a cone of 3e3 was "6.21116e-6 deep" (errorBound 2.3e-11)
 * where the overlap along another direction is only 6.1747e-6; moved 6.18e-6 out along that
 * direction its distance was 1.8e-7 (true 5.3e-9) and, a little less far out, "touching" at a
 * gap of up to 4e-8; a rounded box cast at a cone of 1e5 stopped 1.0e-6 before contact. GJK's
 * |v| on the cores (the cone's apex and two rim points 7e3 across, a sliver simplex) rounded
 * 3.6e-8 below the cores' distance, and a depth through the margins (the cores apart) took it
 * unpolished, its error bound from it too. Fixed in src/narrowphase/convex-convex.ts: the cores'
 * gap polished as a gap is (`polishGap`, its upper bound from points of the cores) and
 * intersects deciding a touch that GJK's witnesses do not back by the refined overlap
 * (`curvedTouchUnbacked`); where |v| is the refined separation to rounding, the refined normal,
 * which attains it (GJK's own direction fell 1e-10 short of a rounded box's depth on a slant:
 * the second property, failing on main 55602dc as the recorded cases do).
 *
 * Oracle: test/oracles/ridge-overlap.ts, the least overlap over directions searched along the
 * kink circles of the cone and cylinder as well as on the sphere (no library code). Every value
 * it gives is attained by a direction, so a depth deeper than it (beyond the bar, or beyond the
 * reported errorBound) is wrong for certain; a separation it finds beyond the touching bar is a
 * certain gap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { type J, leastOverlap, supportOf } from "../oracles/ridge-overlap.js";
import { quatArb } from "./arbitraries.js";
import { offsetScenario } from "./generate.js";
import { add, norm, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";
import { type Answer, check, sizeOf } from "./ridge-check.js";

const EPS = 2 ** -52;

const F4A: J = {
  type: "cone",
  center: [0, 0, 0],
  halfHeight: 3446.120688326657,
  radius: 1606.554353699088,
};
const F4B: J = {
  type: "roundedBox",
  center: [1205.3990790396929, -2900.042351990938, 857.4837965294719],
  halfExtents: [0.006514735519886017, 0.0110493004322052, 0.00424957275390625],
  radius: 0.0026229694485664368,
};
/** The direction of the attack's least overlap (6.1747e-6). */
const F4N: V = [0.79358205533368, 0.22701046845826, 0.564529688026];

describe("a small rounded shape on a large cone's slant: the depth through the margins (session 23)", () => {
  it("F4: contact no deeper than the least overlap (6.17466e-6), within its errorBound", () => {
    const c = answerQuery({ op: "contact", a: F4A, b: F4B } as never) as Answer;
    const D = leastOverlap(F4A, F4B, [F4N]).value;
    // mpmath (50 digits, the least overlap over a grid refined to 1e-20 rad): 6.1746581191554e-6.
    expect(Math.abs(D - 6.1746581191554e-6)).toBeLessThan(2e-12);
    expect(-c.distance).toBeLessThanOrEqual(D + 1e-6 * D + 64 * EPS * 3800);
    expect(-c.distance - D).toBeLessThanOrEqual(c.errorBound);
    expect(check(F4A, F4B, F4A, F4B)).toEqual([]);
  });

  it("F4: moved out along the least overlap's direction, distance and intersects agree with it", () => {
    for (const t of [6.17e-6, 6.1745e-6, 6.1748e-6, 6.175e-6, 6.18e-6, 6.19e-6, 6.2e-6]) {
      const b = { ...F4B, center: add(F4B.center as V, scale(F4N, t)) };
      expect(check(F4A, b, F4A, b), `t = ${t}`).toEqual([]);
    }
  });

  it("F5: a rounded box cast at a cone of 1e5 meets it, not 1.0e-6 short", () => {
    const a: J = {
      type: "roundedBox",
      center: [0, 0, 0],
      halfExtents: [0.013627752661705017, 0.005073115229606628, 0.0034122467041015625],
      radius: 0.002282075583934784,
    };
    const b: J = {
      type: "cone",
      center: [57885.039258375764, 101909.50208884478, -35620.33567922562],
      halfHeight: 66498.04669918865,
      radius: 50119.65758771449,
      rotation: [-0.09314696829467373, 0.4152638752371727, 0.813250257038858, -0.39686720152558386],
    };
    const vB: V = [-12557.523258798961, -86180.94266566457, 33255.8896409701];
    const r = answerQuery({
      op: "castShapes",
      a,
      velocityA: [0, 0, 0],
      b,
      velocityB: vB,
      maxToi: 10,
    } as never) as Answer;
    expect(r).not.toBeNull();
    const at = { ...b, center: add(b.center as V, scale(vB, r.toi)) };
    const gap = -leastOverlap(a, at).value;
    // docs/FORMATS.md: not apart at toi by more than 16 distance bars (s the rounded box) plus
    // the rounding of the motion; nor in contact before toi less that bar over the speed.
    const s = sizeOf(a);
    const L = sizeOf(b);
    const bar = 1e-9 * s + 64 * EPS * L;
    const slack = 16 * bar + 64 * EPS * norm(vB) * r.toi + 16 * EPS * (L + norm(b.center as V));
    expect(gap).toBeLessThanOrEqual(slack);
    const before = { ...b, center: add(b.center as V, scale(vB, r.toi - (2 * slack) / norm(vB))) };
    expect(-leastOverlap(a, before).value).toBeGreaterThan(-slack);
  });
});

/** A point of a cone's or cylinder's surface feature and a normal of that feature there (local). */
function feature(kind: number, A: J, u: number, phi: number, lam: number): { p: V; m: V } {
  const h = A.halfHeight as number;
  const r = A.radius as number;
  const c = Math.cos(phi);
  const sn = Math.sin(phi);
  if (A.type === "cone") {
    const l = Math.hypot(2 * h, r);
    const slant: V = [(2 * h * c) / l, r / l, (2 * h * sn) / l];
    const rim: V = [r * c, -h, r * sn];
    if (kind === 0) return { p: add(scale([0, h, 0], 1 - u), scale(rim, u)), m: slant };
    if (kind === 1) return { p: rim, m: unit(add(scale(slant, 1 - lam), scale([0, -1, 0], lam))) };
    if (kind === 2)
      return { p: [0, h, 0], m: unit(add(scale(slant, 1 - lam), scale([0, 1, 0], lam))) };
    return { p: [r * u * c, -h, r * u * sn], m: [0, -1, 0] };
  }
  const side: V = [c, 0, sn];
  if (kind === 0) return { p: [r * c, h * (2 * u - 1), r * sn], m: side };
  const y = kind === 1 ? h : -h;
  if (kind === 1 || kind === 2)
    return {
      p: [r * c, y, r * sn],
      m: unit(add(scale(side, 1 - lam), scale([0, Math.sign(y), 0], lam))),
    };
  return { p: [r * u * c, h, r * u * sn], m: [0, 1, 0] };
}

describe("cones and cylinders against small and large rounded shapes at their slant, rim and apex", () => {
  it("property: intersects, distance and contact against the least overlap, sizes 1e-6..1e6, ratios 1e-6..1e6, offsets to 1e9", () => {
    const unit01 = fc.double({ min: 0, max: 1, noNaN: true });
    const third = fc.tuple(unit01, unit01, unit01);
    fc.assert(
      fc.property(
        fc.constantFrom("cone", "cylinder"),
        fc.constantFrom("roundedBox", "roundedConvex", "convex", "box", "sphere"),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(unit01, unit01),
        quatArb,
        quatArb,
        third,
        fc.array(third, { minLength: 4, maxLength: 8 }),
        fc.tuple(fc.integer({ min: 0, max: 3 }), unit01, unit01, unit01),
        fc.tuple(fc.boolean(), fc.integer({ min: 2, max: 40 })),
        fc.integer({ min: 0, max: 30 }),
        (typeA, typeB, eA, ratio, dims, qA, qB, box, pts, where, depth, offExp) => {
          const L = 2 ** eA;
          const A: J = {
            type: typeA,
            center: [0.3 * L, -0.2 * L, 0.1 * L],
            halfHeight: L * (0.2 + 0.8 * dims[0]),
            radius: L * (0.2 + 0.8 * dims[1]),
            rotation: qA,
          };
          const s = L * 2 ** ratio;
          const B: J = { type: typeB, center: [0, 0, 0], rotation: qB };
          if (typeB === "roundedBox" || typeB === "box") {
            B.halfExtents = box.map((x) => s * (0.1 + 0.9 * x));
            if (typeB === "roundedBox") B.radius = s * 0.5 * box[0];
          } else if (typeB === "sphere") {
            B.radius = s;
            delete B.rotation;
          } else {
            delete B.center;
            B.position = [0, 0, 0];
            B.points = [...pts, [1, 1, 1], [0, 0, 0], [1, 0, 0.3], [0.2, 1, 0]].map((p) =>
              p.map((x) => s * (2 * x - 1)),
            );
            if (typeB === "roundedConvex") B.radius = s * 0.3 * box[1];
          }
          // A's feature in the world, B's extreme point along −m put δ out along m from it.
          const f = feature(where[0], A, where[1], 2 * Math.PI * where[2], where[3]);
          const p = add(A.center as V, rotate(qA, f.p));
          const m = unit(rotate(qA, f.m));
          const delta = (depth[0] ? 1 : -1) * Math.min(L, s) * 2 ** -depth[1];
          const foot = supportOf(B, scale(m, -1), [0, 0, 0]).point;
          const c = sub(add(p, scale(m, delta)), foot);
          if (B.position) B.position = c;
          else B.center = c;
          const o = [2 ** offExp, -(2 ** offExp), 2 ** (offExp - 1)];
          const sc = offsetScenario(A, B, o);
          const bad = check(sc.localA, sc.localB, sc.worldA, sc.worldB, [m]);
          expect(bad, JSON.stringify({ a: sc.worldA, b: sc.worldB })).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 600_000);
  it("property: a small rounded box or hull into a cone's slant or a cylinder's side by less than its radius (the cores apart)", () => {
    const unit01 = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom("cone", "cylinder"),
        fc.constantFrom("roundedBox", "roundedConvex"),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 4, max: 24 }),
        fc.tuple(unit01, unit01, unit01, unit01, unit01),
        quatArb,
        quatArb,
        fc.array(fc.tuple(unit01, unit01, unit01), { minLength: 4, maxLength: 8 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (typeA, typeB, eA, ratio, u, qA, qB, pts, j, offExp) => {
          const L = 2 ** eA;
          const A: J = {
            type: typeA,
            center: [0.3 * L, -0.2 * L, 0.1 * L],
            halfHeight: L * (0.5 + 0.5 * u[0]),
            radius: L * (0.2 + 0.3 * u[1]),
            rotation: qA,
          };
          const s = L * 2 ** -ratio;
          const radius = s * (0.1 + 0.4 * u[2]);
          const B: J =
            typeB === "roundedBox"
              ? {
                  type: typeB,
                  center: [0, 0, 0],
                  halfExtents: [s, 0.7 * s, 0.4 * s],
                  radius,
                  rotation: qB,
                }
              : {
                  type: typeB,
                  position: [0, 0, 0],
                  points: [...pts, [1, 1, 1], [0, 0, 0], [1, 0, 0.3], [0.2, 1, 0]].map((p) =>
                    p.map((x) => s * (2 * x - 1)),
                  ),
                  radius,
                  rotation: qB,
                };
          const f = feature(0, A, 0.1 + 0.8 * u[3], 2 * Math.PI * u[4], 0);
          const p = add(A.center as V, rotate(qA, f.p));
          const m = unit(rotate(qA, f.m));
          const foot = supportOf(B, scale(m, -1), [0, 0, 0]).point;
          const c = sub(add(p, scale(m, -radius * 2 ** -j)), foot);
          if (B.position) B.position = c;
          else B.center = c;
          const o = [2 ** offExp, -(2 ** offExp), 2 ** (offExp - 1)];
          const sc = offsetScenario(A, B, o);
          const bad = check(sc.localA, sc.localB, sc.worldA, sc.worldB, [m]);
          expect(bad, JSON.stringify({ a: sc.worldA, b: sc.worldB })).toEqual([]);
        },
      ),
      { numRuns: 80 },
    );
  }, 600_000);
});
