/**
 * Regression of issue 16, class 3 against curved shapes (a fresh user's attack): a rounded
 * shape whose core exactly touches a cylinder or a cone. A capsule's segment through a cone's
 * rim (`contact` of capsule (0,−10,0)–(0,10,0), r 5, and a cone at (1,0,0), hh 1, r 1) had the
 * right depth 5 but the normal (0,1,0), pointA on the axis: its segment's signed distance was
 * exactly 0, and the closed form (src/narrowphase/rounded-revolution.ts) took the projection's
 * normal, undefined there (along +y the overlap is 16). A segment a few ulps outside took the
 * direction between two points apart by the rounding of their coordinates. Fixed: a segment
 * within CORE_TOUCH_BAND of the solid is answered by the full solve (or the coplanar closed
 * form); and the cone's profile (src/geometry/revolution.ts) no longer takes the rim for a point
 * of the slant's region within ulps of it (a sphere's centre there had the normal (0,1,0)).
 *
 * Oracle: the least overlap h_A(n) + h_B(−n) over unit directions (test/oracles/ridge-overlap.ts,
 * no library code), seeded with the construction's separating normal: every placement puts the
 * core in a supporting plane of B at a point of B's feature (rim, cap, side, apex) with a known
 * normal of B's normal cone there, so the depth is the radius and that normal attains it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { type J, leastOverlap, overlapAlong } from "../oracles/ridge-overlap.js";
import { norm, type V } from "./oracle-shapes.js";

const EPS = 2 ** -52;
// biome-ignore lint/suspicious/noExplicitAny: the query's JSON answer
type Answer = any;

const contact = (a: J, b: J): Answer => answerQuery({ op: "contact", a, b } as never);

/** The next double above (s > 0) or below (s < 0) x, |s| times. */
function ulps(x: number, s: number): number {
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  for (let k = 0; k < Math.abs(s); k++) {
    if (f[0] === 0) f[0] = s > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
    else i[0] += s > 0 === f[0] > 0 ? 1n : -1n;
  }
  return f[0];
}

/** Checks contact(a, b) in both orders against the least overlap; `n` B's outward normal there. */
function checkPair(a: J, b: J, n: V, L: number, o: V): string[] {
  const bad: string[] = [];
  for (const flip of [false, true]) {
    const [x, y] = flip ? [b, a] : [a, b];
    const c = contact(x, y);
    if (c === null) {
      bad.push(`${flip ? "(B, A)" : "(A, B)"} null`);
      continue;
    }
    const hint: V = flip ? n : [-n[0], -n[1], -n[2]];
    const truth = leastOverlap(x, y, [hint, c.normal]).value;
    const bar = 1e-6 * Math.abs(truth) + 64 * EPS * L + 16 * EPS * (L + norm(o));
    const along = overlapAlong(x, y, c.normal, o);
    if (!(Math.abs(-c.distance - truth) <= bar)) bad.push(`depth ${-c.distance} vs ${truth}`);
    if (!(Math.abs(along + c.distance) <= bar)) bad.push(`along ${along} vs ${-c.distance}`);
  }
  return bad;
}

describe("a rounded core touching a cylinder or a cone (issue 16, class 3)", () => {
  it("the capsule through a cone's rim: normal (1, 0, 0), depth 5, pointA on the capsule's surface", () => {
    const a: J = { type: "capsule", a: [0, -10, 0], b: [0, 10, 0], radius: 5 };
    const b: J = { type: "cone", center: [1, 0, 0], halfHeight: 1, radius: 1 };
    const c = contact(a, b);
    expect(c.distance).toBeCloseTo(-5, 12);
    expect(c.normal[0]).toBeCloseTo(1, 12);
    expect(Math.hypot(c.normal[1], c.normal[2])).toBeLessThan(1e-12);
    // The segment's point (0, −1, 0) plus 5 along the normal; the cone's rim point (0, −1, 0).
    for (const [p, q] of [
      [c.pointA, [5, -1, 0]],
      [c.pointB, [0, -1, 0]],
    ])
      for (let i = 0; i < 3; i++) expect(Math.abs(p[i] - q[i])).toBeLessThan(1e-12);
    expect(checkPair(a, b, [-1, 0, 0], 10, [1, 0, 0])).toEqual([]);
  });

  it("the capsule on a turned cylinder's rim: normal (0, 0, −1), depth 1", () => {
    const a: J = { type: "capsule", a: [1, 1, 0], b: [-1, -1, 0], radius: 1 };
    const b: J = {
      type: "cylinder",
      center: [-0.5, 0, -0.5],
      halfHeight: 0.5,
      radius: 0.5,
      rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2],
    };
    const c = contact(a, b);
    expect(c.distance).toBeCloseTo(-1, 12);
    expect(c.normal[2]).toBeCloseTo(-1, 12);
    for (let i = 0; i < 3; i++) expect(Math.abs(c.pointA[i] - [0, 0, -1][i])).toBeLessThan(1e-12);
    for (let i = 0; i < 3; i++) expect(Math.abs(c.pointB[i])).toBeLessThan(1e-12);
    expect(checkPair(a, b, [0, 0, 1], 2, [-0.5, 0, -0.5])).toEqual([]);
  });

  it("property: a capsule's segment or a sphere's centre on a rim, cap or side, and 1 ulp either side; sizes 2^-20..2^20, offsets to 2^30 (2^14 times the size)", () => {
    const dy = fc.integer({ min: 13, max: 77 }).map((k) => k / 64);
    fc.assert(
      fc.property(
        fc.constantFrom("cylinder", "cone"),
        fc.constantFrom("rim", "base rim", "cap", "side"),
        fc.constantFrom("capsule", "capsule", "sphere"),
        fc.tuple(dy, dy, dy, dy, dy, dy),
        fc.tuple(fc.boolean(), fc.boolean(), fc.constantFrom(1, 2 ** -7, 2 ** 7)),
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: -2, max: 2 }),
        (type, feature, core, [h, r, al, be, ta, tb], [tangent, end, rhoK], e, offExp, bump) => {
          const k = 2 ** e;
          // B's feature point p and two outward normals spanning its normal cone there.
          const slant: V = type === "cone" ? [2 * h, r, 0] : [1, 0, 0];
          const top = type === "cone" ? -1 : 1;
          let p: V;
          let n1: V;
          let n2: V = slant;
          if (feature === "rim")
            [p, n1] = [
              [r, top * h, 0],
              [0, top, 0],
            ];
          else if (feature === "base rim")
            [p, n1] = [
              [r, -h, 0],
              [0, -1, 0],
            ];
          else if (feature === "cap")
            [p, n1, n2] = [
              [r / 2, -h, 0],
              [0, -1, 0],
              [0, -1, 0],
            ];
          else [p, n1] = type === "cone" ? [[r / 2, 0, 0], slant] : [[r, h / 2, 0], slant];
          const m: V = [al * n1[0] + be * n2[0], al * n1[1] + be * n2[1], 0];
          const mUnit = m.map((x) => x / norm(m)) as V;
          // The segment in B's supporting plane m·x = m·p: direction ⟂ m (exact).
          const d: V = [m[1], -m[0], tangent ? ta : 0];
          const t0 = end ? 0 : -ta;
          // 1 ulp either side along m's larger component (its sign: out of B).
          const i = Math.abs(m[0]) >= Math.abs(m[1]) ? 0 : 1;
          const at = (t: number): V => {
            const q: V = [p[0] + t * d[0], p[1] + t * d[1], p[2] + t * d[2]];
            q[i] = ulps(q[i], Math.sign(m[i]) * bump);
            return q.map((x) => x * k) as V;
          };
          // Offsets up to 2^14 times the size (2^34 at the largest), as the fuzzer's scaled cases.
          const f = Math.min(2 ** 30, 2 ** offExp * k);
          const o: V = [f, -f * 0.75, f / 2];
          const move = (q: V): V => q.map((x, j) => x + o[j]) as V;
          const rho = r * rhoK * k;
          const a: J =
            core === "capsule"
              ? { type: "capsule", a: move(at(t0)), b: move(at(tb)), radius: rho }
              : { type: "sphere", center: move(at(0)), radius: rho };
          const b: J = { type, center: o, halfHeight: h * k, radius: r * k };
          const L = Math.max(rho, k * 4);
          const bad = checkPair(a, b, mUnit, L, o);
          expect(bad).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 16 },
    );
  }, 600_000);
});
