/**
 * Issue 16, the repository fuzzer's seed 97 (10^6 queries on 3c3a769: 2 wrong of 1,000,007, one
 * line at two predictions; the open line seed-97-cylinder-touch.jsonl), moved here with its right
 * values: a triangle in the plane x = −1.25 touching a cylinder's side (axis y, radius 1.4375,
 * centre (0.1875, 1.3125, −0.375)) along its generator x = −1.25, z = −0.375 — distance 0 and
 * normal (1, 0, 0) right, but `contact`'s pointA (the triangle's) had z −0.374999999999899, 1.0e-13
 * off the generator where pointB was on it: the witnesses 1.08e-13 apart across the normal over a
 * bar of 3.75e-14.
 *
 * Traced (a scratch script printing the solver's witnesses after each stage of `solve`,
 * src/narrowphase/convex-convex.ts): GJK/EPA, the touch's shared point and the face polish all
 * left both witnesses at (−1.4375, −1.1341312056737591, 0) in the cylinder's frame — on the
 * generator and on the triangle. The last step, `triangleWitnesses`
 * (src/narrowphase/witness-features.ts, seed 87's snap of a triangle's witness onto the
 * triangle), took the triangle's nearest point by the Voronoi regions' weights and blended the
 * corners with them, a + ab·v + ac·w; the weights come from products d1·d4 − d3·d2, … that cancel,
 * and the blend rounds at about ε·(L/h)² of the longest edge L over the least height h: 450 ulps
 * here (L/h ≈ 60), which moved a point already on the triangle 1.0e-13 off the generator.
 * `closestPointOnTriangle` (src/geometry/closest-point.ts) had the same blend: the whole kind is
 * every triangle's face point, for every triangle fatter than the thin ratio 2^-10 (thinner ones
 * are projected along their exact normal).
 *
 * Fixed: the face region's point is p moved along the face normal onto the plane, p − n (n·ap)/|n|²
 * (`closestOnTriangleArray`, which rounds at ε|ap|: a point on the face stays within ulps of
 * itself), and `triangleWitnesses` takes its nearest point from `closestOnTriangleArray` (its own
 * copy of the regions is gone; triangles between 2^-20 and 2^-10 now take the exact sliver path).
 *
 * Oracles, written without the library: the line's contact set by hand (the triangle lies in the
 * cylinder's tangent plane x = −1.25 and crosses the generator z = −0.375 between its edges ca and
 * cb, at y = 17/96 and y = 23/128, inside the cylinder's −0.75..3.375: distance exactly 0, normal
 * exactly ±(1, 0, 0), both witnesses on that segment); a triangle's witness judged by its exact
 * distance from the triangle (test/fuzz/corner-touch.gen.ts, in integers); the fuzzer's checks
 * (replay, facing on). Properties: the class (test/fuzz/generator-touch.gen.ts: a turned cylinder
 * or cone of 2^-13..2^13 touching or near touching a triangle along a generator — its face across
 * it, an edge along it or crossing it — the triangle's least height 2^-9..1 of a fat one's,
 * offsets to 1e6): 6, 12 and 8 of 1,000 `contact` replays not facing at fast-check seeds 1–3
 * before, none after; and the closest point of triangles of L/h up to 2^10 to points on or near
 * their face.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import { answerQuery } from "../../src/io/query.js";
import * as vec3 from "../../src/math/vec3.js";
import { type ContactAnswer, EPS, facingError, pairBar } from "./contact-checks.js";
import { triangleDistance, ulpOfPoints } from "./corner-touch.gen.js";
import { offsetScenario } from "./generate.js";
import { generatorTouchArb } from "./generator-touch.gen.js";
import { add, cross, norm, scale, sub, type V } from "./oracle-shapes.js";
import { expectReplayPasses, loadCaseLines, replayCases } from "./recorded-cases.js";

type J = Record<string, unknown>;

const CASES = loadCaseLines("./seed-97.cases.jsonl");

/** The triangle's witness is on it when within this many ulps of its largest coordinate. */
const ON_TRIANGLE_ULPS = 16;

describe("issue 16, seed 97: a triangle touching a cylinder's generator, its witness moved off it", () => {
  replayCases(CASES, 2, { facing: true });

  it("the line, both orders: distance 0, normal ±(1, 0, 0), both witnesses the same point of the generator x = −1.25, z = −0.375 inside the triangle (y in 17/96..23/128)", () => {
    const line = (CASES[0] as unknown as { line: { a: J; b: J } }).line;
    const tri = line.a;
    const cyl = line.b;
    expect(tri.type).toBe("triangle");
    for (const triFirst of [true, false]) {
      for (const prediction of [undefined, 1.315304304234322]) {
        const [a, b] = triFirst ? [tri, cyl] : [cyl, tri];
        const r = answerQuery({ op: "contact", a, b, prediction }) as ContactAnswer | null;
        expect(r).not.toBeNull();
        const res = r as ContactAnswer;
        expect(res.distance).toBe(0);
        expect(res.normal).toEqual(triFirst ? [1, 0, 0] : [-1, 0, 0]);
        for (const p of [res.pointA, res.pointB]) {
          expect(p[0]).toBe(-1.25);
          expect(Math.abs(p[2] + 0.375)).toBeLessThanOrEqual(2 ** -53);
          expect(p[1]).toBeGreaterThanOrEqual(17 / 96);
          expect(p[1]).toBeLessThanOrEqual(23 / 128);
        }
        // Before: 1.08e-13 (bar 3.75e-14).
        expect(facingError(res)).toBeLessThanOrEqual(4 * 2 ** -53);
      }
    }
  });

  it("property: a turned cylinder or cone of 2^-13..2^13 touching or near touching a triangle along a generator (face across it, edge along or across it; least height 2^-9..1 of a fat triangle's), offsets to 1e6, both orders: the fuzzer's checks with facing, the solid's witness on the generator (to the side's sag over the bar), the triangle's on the triangle", () => {
    fc.assert(
      fc.property(generatorTouchArb, (g) => {
        const sj = g.s;
        const R = sj.radius as number;
        const H = sj.halfHeight as number;
        // The side's radius of curvature across the generator (the cone's at its base rim).
        const rc = sj.type === "cone" ? (R * Math.hypot(R, 2 * H)) / (2 * H) : R;
        const gp = add(g.generator.point, g.offset as V);
        for (const sc of [offsetScenario(g.t, g.s, g.offset), offsetScenario(g.s, g.t, g.offset)]) {
          const wa = sc.worldA as J;
          const wb = sc.worldB as J;
          const triFirst = wa.type === "triangle";
          const wt = triFirst ? wa : wb;
          const bar = pairBar(wa, wb);
          const prediction = 4 * bar + 2 ** 12 * EPS * g.size;
          const r = answerQuery({ op: "contact", a: wa, b: wb, prediction }) as ContactAnswer;
          expect(r).not.toBeNull();
          const pS = triFirst ? r.pointB : r.pointA;
          const pT = triFirst ? r.pointA : r.pointB;
          // A witness ρ across the generator lies ρ²/(2 rc) off the tangent plane, within the
          // distance's bar for ρ up to √(2 rc · bar).
          const off = norm(cross(sub(pS, gp), g.generator.dir));
          expect(off).toBeLessThanOrEqual(bar + 2 * Math.sqrt(rc * bar));
          const u = ulpOfPoints(wt.a as V, wt.b as V, wt.c as V, pT);
          expect(triangleDistance(wt, pT) / u).toBeLessThanOrEqual(ON_TRIANGLE_ULPS);
          expectReplayPasses(sc, g.pair, {
            ops: ["intersects", "distance", "contact", "manifold"],
            facing: true,
          });
        }
      }),
      { numRuns: 150, seed: 97 },
    );
  });

  it("property: closestPointOnTriangle of a point on or within 2^8 ulps of a triangle's face (L/h 1..2^9, sizes 2^-20..2^20, offsets to 1e6) moves it by no more than its exact distance from the triangle plus 8 ulps, onto the triangle to 4 ulps", () => {
    const q = fc.double({ min: 0.05, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.tuple(q, q, q, q, q, q),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(q, q, q),
        fc.integer({ min: -8, max: 8 }),
        fc.constantFrom(0, 1, 1e3, 1e6),
        ([x1, y1, x2, y2, z1, z2], eThin, eS, [w0, w1, w2], ep, mag) => {
          const S = 2 ** eS;
          const thin = 2 ** -eThin;
          // Corners about the origin: a long axis x, the triangle squashed across by `thin`,
          // tilted out of z = 0 and moved by the offset.
          const o: V = [mag * 0.31, -mag * 0.77, mag * 0.55];
          const corners: V[] = [
            [-x1, -thin * y1, z1 * 0.3],
            [x2, -thin * y2 * 0.5, -z2 * 0.2],
            [0.3 * (x2 - x1), thin * (y1 + y2), 0.1 * (z1 - z2)],
          ].map((c) => add(o, scale(c as V, S)));
          const [a, b, c] = corners;
          const n = cross(sub(b, a), sub(c, a));
          const sum = w0 + w1 + w2;
          const inside = add(add(scale(a, w0 / sum), scale(b, w1 / sum)), scale(c, w2 / sum));
          const u = ulpOfPoints(a, b, c, inside);
          const push = ep === 0 ? 0 : Math.sign(ep) * 2 ** (Math.abs(ep) - 1) * u;
          const p = add(inside, scale(n, push / norm(n)));
          const out = vec3.create();
          closestPointOnTriangle(
            out,
            vec3.create(...p),
            vec3.create(...a),
            vec3.create(...b),
            vec3.create(...c),
          );
          const t = { type: "triangle", a, b, c };
          const pv: V = [out.x, out.y, out.z];
          expect(triangleDistance(t, pv) / u).toBeLessThanOrEqual(4);
          expect(norm(sub(pv, p)) / u).toBeLessThanOrEqual(triangleDistance(t, p) / u + 8);
        },
      ),
      { numRuns: 2000, seed: 97 },
    );
  });
});
