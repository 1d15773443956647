/**
 * Regression inputs of issue 16: a small curved shape on a large shape's surface.
 *
 * - Seed 67 (10^6 queries on 1975d51 with the facing bar: 3 wrong, one pair's `contact` at two
 *   predictions and its `manifold`): a cylinder of 5.8e-6 whose centre lies 4.6e-6 beyond both the
 *   cap's plane and the side of a cylinder of 7.0e3, at 7.6e3 from the origin. The answer was
 *   3.0e-10 deep on the large cylinder's side normal, its witnesses 2.2e-10 apart sideways; the
 *   least overlap is 8.09e-11, inside the rim's fan of normals, where the two rims pass closest
 *   (a critical point of the rims' distance). The refinement stopped at the side normal, a kink
 *   of the overlap where the large cylinder's support jumps from its rim to a generator, and the
 *   rims' Newton iteration (`rimPairMinimum` in src/narrowphase/convex-convex.ts), started there,
 *   converged to another critical point; now it is also started around the smaller rim.
 * - Seed 70's cylinder of 15 touching one of 2.2e5 (2.1e-11 deep, A's witness 1.9e5 sideways on
 *   session 30's main): right on this branch's base already, kept as a regression.
 * - Session 30's attack F4 (`collide query` line): a hull of ~8e3 at 1.6e6 whose vertex lies
 *   1.9e-10 off the axis of a cylinder of radius 1.1e-3 (the cylinder turned as the hull): depth
 *   right (the radius plus 8.4e-11), the hull's witness its far vertex 6.2e3 away (the normal on
 *   the edge whose ends tie; seated before the normal was snapped to the cylinder's side, so off
 *   the supporting plane by 3.4e-8 and `faceWitnesses` left it), the errorBound the whole depth.
 *   Now a witness off its plane is restarted from its support point for any curved pair (as for
 *   a rounded shape's), and the errorBound counts the witnesses' depth inside a bare cylinder or
 *   cone (a point of one shape δ inside the other proves a depth of at least δ).
 *
 * Right values from an independent oracle: the least overlap h_A(n) + h_B(−n) over directions,
 * the support functions in closed form evaluated in 40-digit arithmetic (mpmath) and minimised by
 * Nelder–Mead from several starts, confirmed by dense sampling of the surfaces along the optimum
 * (20,000 points of each rim). The property: a small cylinder, cone or capsule placed by its own
 * support function on a large cylinder's rim (in the rim's fan of normals), cap or side, or on a
 * box's or a hull's face, touching (±1e-13 of its size) or deep (a share of its size), sizes
 * 2^-20..2^20, offsets to 1e9, both orders, replayed through the fuzzer's checks with the facing
 * bar (its own oracle, the bars of docs/FORMATS.md). Its 40 runs per pair pass on the fix's base
 * (db67d1c) too: the class fails there only in rare draws (the recorded lines above fail there).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { quatMul } from "../support/quat.js";
import { angleArb, offsetArb, rotationArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { add, dot, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

const CASES = loadCaseLines("./small-curved-surface.cases.jsonl");

describe("issue 16, seeds 67 and 70: a small cylinder on a large one's rim, witnesses facing", () => {
  replayCases(CASES, 5, { facing: true });
});

/** A cylinder's support value along unit n: c·n + h|n·a| + r·|n − (n·a)a| (a its unit axis). */
function cylinderSupport(c: V, axis: V, h: number, r: number, n: V): number {
  const t = dot(n, axis);
  return dot(c, n) + h * Math.abs(t) + r * Math.sqrt(Math.max(0, 1 - t * t));
}

describe("seed 67: the least overlap where the rims pass closest", () => {
  it("answers the oracle's depth along a normal that achieves it", () => {
    const sc = CASES[0].scenario;
    const a = sc.worldA as J;
    const b = sc.worldB as J;
    const r = answerQuery({ op: "contact", a, b, prediction: 0 }) as {
      distance: number;
      normal: V;
      pointA: V;
      pointB: V;
      errorBound: number;
    };
    // The oracle's least overlap (its normal ≈ [-0.523531, -0.709739, -0.471366]); was 2.977e-10.
    const depth = 8.092960326583161e-11;
    // The rounding of the coordinates (7.6e3 from the origin: an ulp is 9e-13).
    const bar = 1e-11;
    expect(Math.abs(-r.distance - depth)).toBeLessThan(bar);
    const axis = (s: J): V => unit(rotate(s.rotation as number[], [0, 1, 0]));
    const n = r.normal;
    const achieved =
      cylinderSupport(a.center as V, axis(a), a.halfHeight as number, a.radius as number, n) +
      cylinderSupport(
        b.center as V,
        axis(b),
        b.halfHeight as number,
        b.radius as number,
        scale(n, -1),
      );
    expect(Math.abs(achieved - depth)).toBeLessThan(bar);
    const dp = sub(r.pointB, r.pointA);
    expect(Math.hypot(...sub(dp, scale(n, dot(dp, n))))).toBeLessThan(bar);
    // The errorBound holds the error and is of the rounding's order (was 3.8e-10).
    expect(r.errorBound).toBeGreaterThanOrEqual(Math.abs(-r.distance - depth));
    expect(r.errorBound).toBeLessThan(1.5e-10);
  });
});

/** Session 30's attack F4: a hull's vertex on a small cylinder's axis. */
const F4 = {
  a: {
    type: "convex",
    points: [
      [986.7351358057746, -222.2079207288124, 4067.6773762109833],
      [3270.155162367793, -4867.201890092309, -3382.539885046781],
      [-2636.4559996737057, -3768.0709426162484, -2544.9609446104337],
      [6389.067813319368, -1677.9469635408743, -2006.8484590297608],
      [2446.255197446394, -1722.3532750579586, 5570.144475508542],
      [-122.94185949113782, -6573.977908218872, -6342.961682407476],
      [1142.039389402585, 4386.57762271353, 5449.5599040075385],
      [5878.037930916554, -3971.0047474198473, -5387.5479059165855],
      [-7640.52866574589, -6292.2678481022085, -3412.881263744761],
    ],
    position: [-632689.1859227715, -1440678.4659869296, 1684375.972000289],
    rotation: [-0.8532941641438927, 0.1303681178378178, -0.4862096985948019, 0.13599026539334447],
  },
  b: {
    type: "cylinder",
    center: [-627806.7356095301, -1444584.9239094662, 1681037.516714077],
    halfHeight: 0.0019099662988250516,
    radius: 0.0011057131051329834,
    rotation: [-0.8532941641438927, 0.1303681178378178, -0.4862096985948019, 0.13599026539334447],
  },
};

describe("attack30 F4: a hull's vertex on a cylinder's axis", () => {
  it("answers the vertex and its point on the generator, facing, with a tight errorBound", () => {
    const r = answerQuery({ op: "contact", a: F4.a, b: F4.b, prediction: 0 }) as {
      distance: number;
      normal: V;
      pointA: V;
      pointB: V;
      errorBound: number;
    };
    // The oracle's least overlap: the radius plus the vertex's 8.4e-11 off the axis along the
    // normal, at the end of its cone of normals where the edge to the far vertex ties.
    const depth = 0.0011057131892324751;
    const vertex: V = [-627806.7356310757, -1444584.9241312656, 1681037.5166284028];
    // The rounding of the coordinates at 1.7e6 (an ulp is 2.3e-10).
    const bar = 2e-9;
    expect(Math.abs(-r.distance - depth)).toBeLessThan(bar);
    // The normal achieves the depth: the hull's support (its vertices, world) and the cylinder's.
    const q = F4.a.rotation;
    const n = r.normal;
    const hullSupport = Math.max(
      ...F4.a.points.map((p) => dot(add(rotate(q, p as V), F4.a.position as V), n)),
    );
    const cylAxis = unit(rotate(F4.b.rotation, [0, 1, 0]));
    const achieved =
      hullSupport +
      cylinderSupport(F4.b.center as V, cylAxis, F4.b.halfHeight, F4.b.radius, scale(n, -1));
    expect(Math.abs(achieved - depth)).toBeLessThan(bar);
    // The hull's witness is its supporting vertex (was the far vertex, 6.2e3 away).
    expect(Math.hypot(...sub(r.pointA, vertex))).toBeLessThan(bar);
    const dp = sub(r.pointB, r.pointA);
    expect(Math.hypot(...sub(dp, scale(n, dot(dp, n))))).toBeLessThan(bar);
    // The cylinder's witness on its side: at the radius from its axis.
    const rel = sub(r.pointB, F4.b.center as V);
    const radial = sub(rel, scale(cylAxis, dot(rel, cylAxis)));
    expect(Math.abs(Math.hypot(...radial) - F4.b.radius)).toBeLessThan(bar);
    // The errorBound holds the error and is of the vertex's offset from the axis (was 1.1e-3).
    expect(r.errorBound).toBeGreaterThanOrEqual(Math.abs(-r.distance - depth));
    expect(r.errorBound).toBeLessThan(1e-7);
  });
});

const frac = (min: number, max: number) => fc.double({ min, max, noNaN: true });

/**
 * The small shape of type `type`, size s, turned by qb (A's local frame), whose support along −m
 * (unit, A's local frame) lies `depth` below the plane through P with normal m: its centre is
 * P + (e − depth)·m, e its extent along −m from its centre. Local to A (A at the origin).
 */
function smallShape(
  type: string,
  s: number,
  dims: number[],
  qb: number[],
  P: V,
  m: V,
  depth: number,
): J {
  const axis = unit(rotate(qb, [0, 1, 0]));
  const t = -dot(m, axis);
  const sin = Math.sqrt(Math.max(0, 1 - t * t));
  const h = s * dims[0];
  const r = s * dims[1];
  let e: number;
  if (type === "cylinder") e = h * Math.abs(t) + r * sin;
  else if (type === "cone") e = Math.max(h * t, -h * t + r * sin);
  else e = h * Math.abs(t) + r;
  const c = add(P, scale(m, e - depth));
  if (type === "capsule") {
    return { type, a: sub(c, scale(axis, h)), b: add(c, scale(axis, h)), radius: r };
  }
  return { type, center: c, halfHeight: h, radius: r, rotation: qb };
}

/** Shape j (local to A, A at the origin unturned) turned whole by q about the origin. */
function turned(j: J, q: number[]): J {
  const o: J = { ...j };
  for (const k of ["center", "a", "b", "position"]) {
    if (o[k]) o[k] = rotate(q, o[k] as V);
  }
  if (o.rotation) o.rotation = quatMul(q, o.rotation as number[]);
  else if (o.type !== "capsule") o.rotation = q;
  return o;
}

for (const large of ["cylinder-rim", "cylinder-cap", "cylinder-side", "box", "convex"]) {
  for (const smallType of ["cylinder", "cone", "capsule"]) {
    describe(`property: a small ${smallType} on a large ${large}, witnesses facing`, () => {
      it("sizes 2^-20..2^20, touching and deep, offsets to 1e9, both orders", () => {
        fc.assert(
          fc.property(
            fc.integer({ min: -3, max: 20 }),
            fc.integer({ min: 4, max: 36 }),
            fc.tuple(frac(0.3, 1), frac(0.3, 1), frac(0.3, 1)),
            fc.tuple(frac(0.2, 1), frac(0.2, 1)),
            rotationArb,
            rotationArb,
            fc.tuple(angleArb, frac(0.02, 0.98), frac(-0.9, 0.9)),
            fc.oneof(fc.constantFrom(0, 1e-13, -1e-13), frac(0.02, 0.5)),
            offsetArb,
            (eL, dk, [d0, d1, d2], [s0, s1], qa, qb, [phi, along, across], share, [ou, om]) => {
              const L = 2 ** eL;
              const s = Math.max(2 ** -20, L * 2 ** -dk);
              const depth = share * s * Math.min(s0, s1);
              const R = L * d0;
              const H = L * d1;
              const u: V = [Math.cos(phi), 0, Math.sin(phi)];
              let a: J;
              let P: V;
              let m: V;
              if (large.startsWith("cylinder")) {
                a = { type: "cylinder", center: [0, 0, 0], halfHeight: H, radius: R };
                if (large === "cylinder-rim") {
                  P = [R * u[0], H, R * u[2]];
                  const al = (along * Math.PI) / 2;
                  m = unit(add(scale(u, Math.cos(al)), [0, Math.sin(al), 0]));
                } else if (large === "cylinder-cap") {
                  P = [R * across * u[0], H, R * across * u[2]];
                  m = [0, 1, 0];
                } else {
                  P = [R * u[0], H * across, R * u[2]];
                  m = u;
                }
              } else {
                const he: V = [L * d0, L * d1, L * d2];
                P = [he[0] * across, he[1], he[2] * (2 * along - 1)];
                m = [0, 1, 0];
                if (large === "box") a = { type: "box", center: [0, 0, 0], halfExtents: he };
                else {
                  // A hull: the box's top face exact, its bottom corners pulled in unevenly.
                  const pts: V[] = [];
                  for (const sx of [-1, 1]) {
                    for (const sz of [-1, 1]) {
                      pts.push([sx * he[0], he[1], sz * he[2]]);
                      const f = 0.5 + 0.2 * (sx + 1) + 0.1 * (sz + 1);
                      pts.push([sx * he[0] * f, -he[1], sz * he[2] * (1.2 - f)]);
                    }
                  }
                  a = { type: "convex", points: pts };
                }
              }
              const b = smallShape(smallType, s, [s0, s1], qb, P, m, depth);
              const wa = turned(a, qa);
              const wb = turned(b, qa);
              const pair = `${a.type}-${smallType}`;
              const offset = exactOffset(ou, Math.min(1e9, om * L * 1e4));
              for (const sc of [offsetScenario(wa, wb, offset), offsetScenario(wb, wa, offset)]) {
                expectReplayPasses(sc, pair, { ops: ["contact"], facing: true });
              }
            },
          ),
          { numRuns: 40, seed: 31 },
        );
      });
    });
  }
}
