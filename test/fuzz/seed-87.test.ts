/**
 * Issue 16, the repository fuzzer's seed 87 (10^6 queries on the session-35 merge 60d407e, its
 * only wrong; the open line seed-87.jsonl), moved here with its right values: a cylinder of 3e-5
 * (turned) touching a triangle of 5e-5 at its corner b, both at the origin — `contact`'s pointB
 * 7.97e-19 off the triangle over a bar of 7.70e-19 (118 ulps of the triangle's coordinates), the
 * depth −4.6e-19.
 *
 * Traced: the general narrow phase (src/narrowphase/convex-convex.ts) solves the pair in the
 * cylinder's frame. GJK/EPA's witnesses were at the corner; `faceWitnesses`
 * (src/narrowphase/witness-faces.ts) found them 2.5e-18 apart sideways (the cylinder's at its
 * rim), refined the normal until its alternating projections converged — within 16 of its
 * slacks of 2^-50 — and kept the triangle's point as the projections left it: the triangle's
 * nearest point lifted along the normal onto the supporting plane, off the triangle by the lift.
 * The whole kind: a triangle's witness placed in the solver's frame from the other shape's
 * features (a touch's one point for both shapes, taken onto the cylinder or cone by the polish:
 * 26 to 64 ulps off the triangle; a converged facing pair lifted onto its plane) is off the
 * triangle by those routines' own slacks and the solver frame's rounding.
 *
 * Fixed: a converged facing pair's witness on a flat core or a box is taken onto it as a
 * cylinder's or cone's already was (witness-faces.ts), and at the end of the solve, at a touch or
 * within the near-touching band, each triangle's witness is taken onto the triangle in the
 * triangle's own frame, at its corner nearest the witness (`triangleWitnesses`, src/narrowphase/witness-features.ts), when that moves
 * it by at most 2^-40 of the magnitude it was rounded at. The line's pointB is now 0.25 ulps off
 * the triangle and 2 ulps from the corner.
 *
 * Oracles, written without the library: the triangle's witness judged by its exact distance from
 * the triangle (test/fuzz/corner-touch.gen.ts: the Voronoi regions in integers, the squared
 * distance an exact rational); the line's corner b in the cylinder's frame in exact dyadic
 * arithmetic (the quaternion's rotation matrix over its squared norm, test/fuzz/exact.ts): inside
 * the cylinder by 1.51e-19 below its cap and 4.54e-19 within its side, so the pair overlaps and
 * its depth is at least 1.51e-19 (any separating move takes b out of the solid), and at most the
 * overlap along the answer's normal (the oracle's support functions); the fuzzer's checks
 * (replay, facing on). Property: the class generator (a turned cylinder or cone of 2^-20..2^20
 * touching a triangle of 2^-6..2^6 of it at a corner or along an edge, pushed in or out by up to
 * 2^12 ulps, offsets to 2^30): the triangle's witness more than 8 ulps of its coordinates off the
 * triangle in 18, 12 and 6 of 2,000 answers (1,000 draws, both orders) at fast-check seeds 1–3
 * before (up to 64 ulps; 26, 20 and 18 beyond 4 ulps), none after (at most 4 ulps).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { type ContactAnswer, EPS, extentOf, pairBar } from "./contact-checks.js";
import { cornerTouchArb, triangleDistance, ulpOfPoints } from "./corner-touch.gen.js";
import { type Dy, dadd, dmul, dsign, dsub, dy } from "./exact.js";
import { offsetScenario } from "./generate.js";
import { dot, norm, oshape, scale, sub, type V } from "./oracle-shapes.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

const CASES = loadCaseLines("./seed-87.cases.jsonl");

/** The triangle's witness is on it when within this many ulps of its largest coordinate. */
const ON_TRIANGLE_ULPS = 8;

const toNumber = (d: Dy): number => Number(d.m) * 2 ** d.e;

/**
 * Point p of the world in the frame of a solid at the origin turned by quaternion q, exactly:
 * Rᵀp = Mᵀp / |q|² with M the quaternion's (unnormalised) rotation matrix. Returns the three
 * numerators and |q|² as dyadic rationals.
 */
function exactLocal(q: number[], p: V): { x: Dy[]; n2: Dy } {
  const [x, y, z, w] = q.map(dy);
  const sq = (a: Dy) => dmul(a, a);
  const two = dy(2);
  const n2 = dadd(dadd(sq(x), sq(y)), dadd(sq(z), sq(w)));
  const M: Dy[][] = [
    [
      dsub(dadd(sq(w), sq(x)), dadd(sq(y), sq(z))),
      dmul(two, dsub(dmul(x, y), dmul(w, z))),
      dmul(two, dadd(dmul(x, z), dmul(w, y))),
    ],
    [
      dmul(two, dadd(dmul(x, y), dmul(w, z))),
      dsub(dadd(sq(w), sq(y)), dadd(sq(x), sq(z))),
      dmul(two, dsub(dmul(y, z), dmul(w, x))),
    ],
    [
      dmul(two, dsub(dmul(x, z), dmul(w, y))),
      dmul(two, dadd(dmul(y, z), dmul(w, x))),
      dsub(dadd(sq(w), sq(z)), dadd(sq(x), sq(y))),
    ],
  ];
  const P = p.map(dy);
  const col = (k: number) =>
    dadd(dadd(dmul(M[0][k], P[0]), dmul(M[1][k], P[1])), dmul(M[2][k], P[2]));
  return { x: [col(0), col(1), col(2)], n2 };
}

describe("issue 16, seed 87: a cylinder touching a triangle's corner, the triangle's witness off it", () => {
  replayCases(CASES, 1, { facing: true });

  it("the line, both orders: an overlap (corner b inside the cylinder, exactly) of depth between b's and the overlap along the normal, pointB on the triangle to 8 ulps and at its corner, pointA on the cylinder, facing", () => {
    const c = CASES[0] as unknown as { line: { a: J; b: J } };
    const cyl = c.line.a;
    const tri = c.line.b;
    const h = cyl.halfHeight as number;
    const r = cyl.radius as number;
    const corner = tri.b as V;
    // Corner b in the cylinder's frame (its centre at the origin), exactly.
    const { x: L, n2 } = exactLocal(cyl.rotation as number[], corner);
    const hn2 = dmul(dy(h), n2);
    const belowCap = dsub(hn2, L[1]);
    const aboveBase = dadd(hn2, L[1]);
    const r2n4 = dmul(dmul(dy(r), dy(r)), dmul(n2, n2));
    const rho2n4 = dadd(dmul(L[0], L[0]), dmul(L[2], L[2]));
    const withinSide = dsub(r2n4, rho2n4);
    expect([dsign(belowCap), dsign(aboveBase), dsign(withinSide)]).toEqual([1, 1, 1]);
    // b's depth: the least of its distances from the caps' planes and from the side.
    const qn2 = toNumber(n2);
    const capDepth = Math.min(toNumber(belowCap), toNumber(aboveBase)) / qn2;
    const sideDepth = toNumber(withinSide) / (qn2 * qn2) / (2 * r);
    const lower = Math.min(capDepth, sideDepth);
    expect(capDepth).toBeCloseTo(1.51e-19, 21);
    expect(sideDepth).toBeCloseTo(4.54e-19, 21);
    const bar = pairBar(cyl, tri);
    const solid = oshape(cyl).pieces[0];
    const triangle = oshape(tri).pieces[0];
    for (const cylFirst of [true, false]) {
      const [a, b] = cylFirst ? [cyl, tri] : [tri, cyl];
      const ans = answerQuery({ op: "contact", a, b }) as ContactAnswer | null;
      expect(ans).not.toBeNull();
      const res = ans as ContactAnswer;
      const [pS, pT] = cylFirst ? [res.pointA, res.pointB] : [res.pointB, res.pointA];
      // n from the cylinder toward the triangle.
      const n = cylFirst ? res.normal : scale(res.normal, -1);
      const overlap = dot(n, solid.support(n)) - dot(n, triangle.support(scale(n, -1)));
      expect(res.distance).toBeLessThanOrEqual(0);
      expect(-res.distance).toBeGreaterThanOrEqual(lower);
      expect(-res.distance).toBeLessThanOrEqual(overlap + bar);
      const u = ulpOfPoints(tri.a as V, tri.b as V, tri.c as V);
      expect(triangleDistance(tri, pT) / u).toBeLessThanOrEqual(ON_TRIANGLE_ULPS);
      // At the corner (the triangle's points inside lie within 1.3e-18 of it): 2 ulps now.
      expect(norm(sub(pT, corner)) / u).toBeLessThanOrEqual(8);
      expect(Math.abs(solid.signed(pS))).toBeLessThanOrEqual(bar);
      const f = norm(sub(sub(res.pointB, res.pointA), scale(res.normal, res.distance)));
      expect(f).toBeLessThanOrEqual(bar);
    }
  });

  it("property: a turned cylinder or cone of 2^-20..2^20 touching a triangle of 2^-6..2^6 of it at a corner or along an edge, pushed by up to 2^12 ulps, offsets to 2^30, both orders: the triangle's witness on the triangle to 8 ulps (exactly measured), and the fuzzer's checks with facing", () => {
    fc.assert(
      fc.property(cornerTouchArb, (g) => {
        const size = Math.max(
          (g.s.halfHeight as number) + (g.s.radius as number),
          extentOf(g.t as J),
        );
        for (const sc of [offsetScenario(g.t, g.s, g.offset), offsetScenario(g.s, g.t, g.offset)]) {
          const wa = sc.worldA as J;
          const wb = sc.worldB as J;
          const triFirst = wa.type === "triangle";
          const wt = triFirst ? wa : wb;
          // Within a prediction covering the push (2^11 ulps of the solid's size at most).
          const prediction = 4 * pairBar(wa, wb) + 2 ** 12 * EPS * size;
          const r = answerQuery({
            op: "contact",
            a: wa,
            b: wb,
            prediction,
          }) as ContactAnswer | null;
          expect(r).not.toBeNull();
          const pT = triFirst ? (r as ContactAnswer).pointA : (r as ContactAnswer).pointB;
          const u = ulpOfPoints(wt.a as V, wt.b as V, wt.c as V, pT);
          expect(triangleDistance(wt, pT) / u).toBeLessThanOrEqual(ON_TRIANGLE_ULPS);
          expectReplayPasses(sc, g.pair, {
            ops: ["intersects", "distance", "contact", "manifold"],
            facing: true,
          });
        }
      }),
      { numRuns: 300, seed: 87 },
    );
  });
});
