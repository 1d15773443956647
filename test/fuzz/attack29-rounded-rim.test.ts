/**
 * Issue 16, the open lines attack29-rounded-rim.jsonl (session 29's second fresh-user attack, G2,
 * on 1975d51): a cylinder's or cone's rim of ~1e6 against a rounded box or hull of ~1e-6, or a
 * cylinder of ~1e-6 against a rounded hull of ~1e6. 19 of ~4,100 such pairs were wrong there (the
 * plain box and hull none of ~2,550): `contact` 1.1 to 22 times the depth bar off, −5.2e-8 for a
 * gap of 5.3e-10, −1.8e-7 for a depth of 6.9e-11 with an errorBound of 4.1e-9, −9.3e-8 for a gap
 * of 1.3e-10, witnesses apart sideways by up to 8.5e-3.
 *
 * Why: a rounded box or hull against a cylinder or a cone was solved by GJK/EPA on the swept
 * shapes (the core with its radius as a margin), which the polytope paths of the narrow phase —
 * the separating axes, the corner's closed form, the supporting features' nearest points — do
 * not take: they test for a bare polytope. Fixed in src/narrowphase/rounded-polytope.ts,
 * registered by src/narrowphase/default-pairs.ts: the core box or hull against the solid as the
 * plain pair is solved, the radius taken off its distance exactly, the normal the cores', the
 * rounded shape's witness moved by the radius along it (parry's rounded shapes); the errorBound is
 * the core's plus that subtraction's rounding, and the narrow phase's rounding term counts the
 * magnitude of the shapes' support points (B's offset and both sizes), not only the witnesses'
 * (src/narrowphase/convex-convex.ts `recordError`: a hull of 1e6 whose vertices lie 1e6 from a
 * cylinder of 4e-7 has its faces' planes rounded there; its bound had been 5.4e-11 for an error
 * of 1.9e-10).
 *
 * Oracles, written without the library: the lines' signed distances at 40 digits (mpmath), as
 * −min over unit n of h_C(n) + h_K(−n) less the radius (C the cylinder or cone, K the core box or
 * hull), the least over every feature pair's normals — K's face normals, the arcs of K's edges,
 * C's meridians (cap, rim fan, side) at the azimuth of each of K's vertices and its centre — then
 * a random pattern search from the best that found nothing lower; the fuzzer's own checks (its
 * independent support functions and bounds, witnesses on their shapes and facing). The property
 * generates the class: a rim of 1..1e6 against a rounded box or hull of 1e-6..1 (radius 0 to a
 * quarter of it) whose core's supporting vertex along the rim's normal sits on that normal
 * touching, apart or overlapping, both orders, offsets to 1e9; where apart, the gap is known by
 * construction (the supporting points face each other along a normal of both).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import {
  angleArb,
  cubePointArb,
  fractionArb,
  fractionTripleArb,
  offsetArb,
  rotationArb,
} from "./arbitraries.js";
import type { ContactAnswer } from "./contact-checks.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { add, dot, norm, rotate, scale, sub, unit, unrotate, type V } from "./oracle-shapes.js";
import { expectReplayPasses } from "./recorded-cases.js";

type J = Record<string, unknown>;
/** `contact`'s answer with its error bound. */
interface Answer extends ContactAnswer {
  errorBound: number;
}

const EPS = 2 ** -52;

/** The recorded lines (a, b as in the attack's `collide query` lines) and their true distances. */
const LINES: { id: string; a: J; b: J; truth: number }[] = [
  {
    id: "G2",
    a: {
      type: "cylinder",
      center: [-1140489.224344492, 341176.56480526924, -1574837.002903223],
      halfHeight: 386463.52235227823,
      radius: 1092707.0756908506,
      rotation: [
        0.09652644129177242, -0.08312054699267907, 0.9456046414588207, 0.29934174926113954,
      ],
    },
    b: {
      type: "roundedBox",
      center: [-1374368.4300016165, -97960.38871741295, -528021.8040329218],
      halfExtents: [2.3935376913286744e-7, 1.0650342992972584e-6, 3.416395647451281e-7],
      radius: 1e-15,
      rotation: [0.06362331368286382, -0.6001100156984779, 0.6061920693973241, 0.5180262715482433],
    },
    truth: 5.251960513108618e-10,
  },
  {
    id: "G2b-s22-114",
    a: {
      type: "cylinder",
      center: [-1218514.8354619741, -404867.8046092391, -844496.1113855243],
      halfHeight: 418532.02008642256,
      radius: 1116326.4050148427,
      rotation: [
        -0.09306399934054413, -0.8283750268659563, -0.10387091205115694, 0.542535473974956,
      ],
    },
    b: {
      type: "roundedBox",
      center: [-160375.67185029504, -303169.15118947765, -304725.2445398134],
      halfExtents: [1.0920630758628249e-7, 9.598630810156463e-7, 1.5748513666912914e-7],
      radius: 1e-15,
      rotation: [-0.722589850471765, -0.5189873178593457, 0.17644211504936902, 0.4211700985745072],
    },
    truth: 2.1227535081331932e-11,
  },
  {
    id: "G2c-s31-0",
    a: {
      type: "cone",
      center: [-1860121.2333887815, -1308092.8521230817, -1282098.8949388266],
      halfHeight: 516739.33155834675,
      radius: 248917.13825054467,
      rotation: [
        -0.17153504935182007, -0.11656102581864634, -0.7329318397835314, -0.6479198811083831,
      ],
    },
    b: {
      type: "roundedBox",
      center: [-1293074.8677769993, -1389087.702412974, -1311722.0610064296],
      halfExtents: [7.635727062821388e-7, 4.2042393577285105e-7, 8.302386197261512e-7],
      radius: 1e-15,
      rotation: [
        -0.6061080406043786, -0.6941739270680094, -0.10836485929552589, 0.37284401478843665,
      ],
    },
    truth: -6.923600457119085e-11,
  },
  {
    id: "G2d-s22-28",
    a: {
      type: "cylinder",
      center: [0.0000016237178603187203, 0.0000010833604326471687, 0.0000014796885270625352],
      halfHeight: 6.684343928005546e-7,
      radius: 4.1577165252529085e-7,
      rotation: [-0.3481538235194796, 0.9150746539532841, 0.04348080436408782, 0.19883840804255182],
    },
    b: {
      type: "roundedConvex",
      points: [-1, 1].flatMap((x) =>
        [-1, 1].flatMap((y) =>
          [-1, 1].map((z) => [x * 1062643.3136872947, y * 265204.8963587731, z * 766082.764742896]),
        ),
      ),
      radius: 0,
      position: [-386479.8488100413, 334773.2181449798, 1134167.414323169],
      rotation: [0.510377226237124, 0.11727951294985271, -0.7636406901533428, 0.37764202510164485],
    },
    truth: 1.3078666456469765e-10,
  },
];

/** A shape's centre (JSON). */
const centre = (j: J): V => (j.center ?? j.position) as V;

/** Half the largest extent of a shape (JSON), for the bars. */
function size(j: J): number {
  if (j.type === "roundedBox") return norm(j.halfExtents as V) + (j.radius as number);
  if (j.type === "roundedConvex")
    return Math.max(...(j.points as V[]).map((p) => norm(p))) + (j.radius as number);
  return Math.hypot(j.halfHeight as number, j.radius as number);
}

/** The fuzzer's rounding bar of a pair: 64 ε of its largest size or centre distance. */
function pairBar(a: J, b: J): number {
  return 64 * EPS * Math.max(size(a), size(b), norm(sub(centre(a), centre(b))));
}

/** Sideways distance of the witnesses across the normal. */
function sideways(r: Answer): number {
  const dp = sub(r.pointB, r.pointA);
  return norm(sub(dp, scale(r.normal, dot(dp, r.normal))));
}

describe("issue 16: the attack's rim against a tiny rounded box or hull, right answers", () => {
  for (const line of LINES) {
    it(`${line.id}: the distance within the bar of the truth, errorBound covering it, facing`, () => {
      for (const [a, b] of [
        [line.a, line.b],
        [line.b, line.a],
      ]) {
        const r = answerQuery({ op: "contact", a, b, prediction: 1e-6 }) as Answer;
        const bar = pairBar(a, b);
        const err = Math.abs(r.distance - line.truth);
        expect(err).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(line.truth), 1e-6) + bar);
        expect(err).toBeLessThanOrEqual(r.errorBound);
        expect(sideways(r)).toBeLessThanOrEqual(bar);
        // pointB − pointA along the normal is the distance.
        expect(Math.abs(dot(sub(r.pointB, r.pointA), r.normal) - r.distance)).toBeLessThanOrEqual(
          bar,
        );
        const hit = answerQuery({ op: "intersects", a, b }) as { intersects: boolean };
        const d = answerQuery({ op: "distance", a, b }) as { distance: number };
        expect(hit.intersects).toBe(d.distance === 0);
        expect(Math.abs(Math.max(line.truth, 0) - d.distance)).toBeLessThanOrEqual(2 * bar);
      }
    });
    it(`${line.id}: the fuzzer's checks, facing on, every op, both orders`, () => {
      const pair = `${line.a.type}-${line.b.type}`;
      for (const sc of [
        offsetScenario(line.a, line.b, [0, 0, 0]),
        offsetScenario(line.b, line.a, [0, 0, 0]),
      ]) {
        sc.prediction = 1e-6;
        expectReplayPasses(sc, pair, { facing: true });
      }
    });
  }
});

/** The core's supporting vertex (local frame) along local direction d: a box's or hull's. */
function coreSupport(j: J, d: V): V {
  if (j.type === "roundedBox") {
    const h = j.halfExtents as V;
    return [Math.sign(d[0]) * h[0], Math.sign(d[1]) * h[1], Math.sign(d[2]) * h[2]];
  }
  let best = (j.points as V[])[0];
  for (const p of j.points as V[]) if (dot(p, d) > dot(best, d)) best = p;
  return best;
}

for (const curvedType of ["cylinder", "cone"]) {
  for (const roundedType of ["roundedBox", "roundedConvex"]) {
    const pair = `${curvedType}-${roundedType}`;
    describe(`property: ${pair}, a rim of 1..1e6 against a rounded shape of 1e-6..1`, () => {
      it("touching, apart, overlapping, radius 0..1/4, both orders, offsets to 1e9", () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: 20 }),
            fc.integer({ min: -20, max: 0 }),
            fc.tuple(fractionArb, fractionArb),
            fractionTripleArb,
            fc.array(cubePointArb, { minLength: 4, maxLength: 8 }),
            fc.constantFrom(0, 1e-15, 2 ** -10, 0.25),
            rotationArb,
            rotationArb,
            angleArb,
            fc.double({ min: 0.02, max: 0.98, noNaN: true }),
            fc.boolean(),
            fc.constantFrom(-1e-2, -1e-4, -1e-7, 0, 0, 1e-9, 1e-6, 1e-3),
            offsetArb,
            (ea, eb, da, db, pts, rr, qa, qb, theta, fan, top, depth, [ou, om]) => {
              const sa = 10 ** ((ea * 6) / 20);
              const sb = 10 ** ((eb * 6) / 20);
              const h = sa * da[0];
              const r = sa * da[1];
              const a: J = {
                type: curvedType,
                center: [0, 0, 0],
                halfHeight: h,
                radius: r,
                rotation: qa,
              };
              // A rim point P and a normal n of its fan (cap's to side's), local to the solid.
              const cone = curvedType === "cone";
              const y = cone || !top ? -h : h;
              const radial: V = [Math.cos(theta), 0, Math.sin(theta)];
              const cap: V = [0, y > 0 ? 1 : -1, 0];
              const side: V = cone ? unit([radial[0] * 2 * h, r, radial[2] * 2 * h]) : radial;
              const t = (fan * Math.PI) / 2;
              const nl = unit(add(scale(cap, Math.cos(t)), scale(side, Math.sin(t))));
              const n = rotate(qa, nl);
              const p = rotate(qa, [r * radial[0], y, r * radial[2]]);
              const radius = sb * rr;
              const core = sb * (1 - rr);
              const c = 0.3;
              const b0: J =
                roundedType === "roundedBox"
                  ? {
                      type: roundedType,
                      center: [0, 0, 0],
                      halfExtents: scale(db as V, core),
                      radius,
                      rotation: qb,
                    }
                  : {
                      type: roundedType,
                      points: [...pts, [c, c, c], [-c, -c, c], [-c, c, -c], [c, -c, -c]].map((q) =>
                        scale(q as V, core),
                      ),
                      radius,
                      position: [0, 0, 0],
                      rotation: qb,
                    };
              // The core's supporting vertex along −n placed at P + (gap + radius)·n: the
              // rounded shape's supporting point then faces P across n at the signed gap.
              const gap = depth * sb;
              const v = rotate(qb, coreSupport(b0, unrotate(qb, scale(n, -1))));
              const at = sub(add(p, scale(n, gap + radius)), v);
              const b: J =
                roundedType === "roundedBox" ? { ...b0, center: at } : { ...b0, position: at };
              const offset = exactOffset(ou, Math.min(1e9, om * sa * 1e3));
              for (const sc of [offsetScenario(a, b, offset), offsetScenario(b, a, offset)]) {
                if (gap > 0) sc.prediction = 2 * gap;
                expectReplayPasses(sc, pair, { ops: ["intersects", "distance", "contact"] });
              }
              if (gap > 0 && offset.every((x) => x === 0)) {
                // Apart: P and the rounded shape's supporting point face each other along n, a
                // normal of both, so they are the nearest points and the gap is exact.
                const q = answerQuery({ op: "contact", a, b, prediction: 2 * gap }) as Answer;
                const bar = 1e-9 * Math.max(gap, Math.min(sa, sb)) + pairBar(a, b);
                expect(Math.abs(q.distance - gap)).toBeLessThanOrEqual(bar);
                expect(Math.abs(q.distance - gap)).toBeLessThanOrEqual(q.errorBound + bar);
              }
            },
          ),
          { numRuns: 120 },
        );
      });
    });
  }
}
