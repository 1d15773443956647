/**
 * A capsule whose axis slopes to the contact plane: its manifold holds its contact (issue 16,
 * test/fuzz/open/triangle-capsule-manifold.jsonl, found by test/fuzz/triangle-curved.test.ts'
 * second property at 1,500 runs, fast-check seed 1616: a capsule of 1.5e-6 in a compound, its
 * cap's pole on the edge of a triangle whose face lies 3° from the normal — "manifold null but
 * contact non-null").
 *
 * The capsule's supporting segment was its side line (the core moved by r across the axis): on
 * the surface, but where the axis slopes by α to the contact plane it ends r·tan α short of the
 * pole, its end r(1 − cos α) shallower than it. Clipped against the triangle's face it lost the
 * touching end (points 6.2e-8 and 2.3e-6 off for a contact of 1e-19); against a box's face the
 * manifold's one point was 38% shallower than the contact (a capsule 5° off, 0.0062 for 0.01).
 * Now the segment is the core moved by r along the direction, whose deep end is the pole, and
 * each clipped point lying below it is seated on the surface along the normal by the capsule's
 * ray cast (src/narrowphase/manifold.ts, `seatOnSurface`).
 *
 * Oracle: hand-derived depths (a capsule resting on a face or an edge: its pole's depth), and
 * the fuzzer's independent shapes (test/fuzz/oracle-shapes.ts): every manifold point on both
 * shapes, its distance (pointB − pointA)·normal, the deepest one the contact's distance within
 * the contact's depth bar (docs/FORMATS.md, Accuracy) and none deeper; the fuzzer's checks at
 * offsets up to 2^30 (`replayScenario`, the facing bar on).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { ManifoldJson } from "../support/answers.js";
import { thousandthQuatArb } from "./arbitraries.js";
import { replayScenario } from "./fuzz.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { surfaceDistance } from "./oracle-pairs.js";
import { cross, dot, oshape, sub, unit, unrotate, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

const EPS = Number.EPSILON;
const OPS = { ops: ["intersects", "distance", "contact", "manifold"] };

/** The recorded line (test/fuzz/open/triangle-capsule-manifold.jsonl). */
const LINE = {
  a: {
    type: "triangle",
    a: [0.0020114178067495254, 0.0067214595739533865, -0.009400685162685444],
    b: [0.008139101337479294, 0.0067214595739514185, -0.004554382365993602],
    c: [0.0063696487850893975, 0.006978491632942139, -0.010923305244856862],
  },
  b: {
    type: "compound",
    children: [
      {
        shape: {
          type: "capsule",
          a: [-3.814697265625e-6, 1.1444091796875e-6, 0],
          b: [3.814697265625e-6, -1.1444091796875e-6, 7.62939453125e-7],
          radius: 1.52587890625e-6,
        },
        position: [0, 0, 0],
      },
    ],
    position: [0.0045468732714653015, 0.006718751043081284, -0.007398437708616257],
    rotation: [-0.9098958078073448, 0.2780582004759144, -0.0012413312521246179, 0.3078501505269052],
  },
};

interface ContactJ {
  distance: number;
  normal: V;
  pointA: V;
  pointB: V;
}

const maxAbs = (...ps: V[]) => Math.max(...ps.flatMap((p) => p.map(Math.abs)));

/**
 * The manifold of (a, b) at `prediction` against their contact: null exactly when the contact
 * is, at least one point, the deepest within the contact's depth bar (1e-6 of the depth plus 64
 * ulps of the pair's magnitude: the witnesses' and the shapes' extent) of its distance and none deeper, every point on both shapes
 * and its distance (pointB − pointA)·normal, to that bar plus 4 ulps of the point.
 */
function agreement(a: J, b: J, prediction: number): string[] {
  const c = answerQuery({ op: "contact", a, b, prediction } as never) as ContactJ | null;
  const m = answerQuery({ op: "manifold", a, b, prediction } as never) as ManifoldJson | null;
  if ((c === null) !== (m === null)) return [`manifold ${m === null ? "null" : "non-null"}`];
  if (c === null || m === null) return [];
  if (m.points.length === 0) return ["manifold with no point"];
  const A = oshape(a);
  const B = oshape(b);
  // The pair's magnitude: the witnesses' and the shapes' extent from the origin.
  const L = Math.max(
    maxAbs(c.pointA, c.pointB),
    A.radius + Math.hypot(...A.center),
    B.radius + Math.hypot(...B.center),
  );
  const bar = 1e-6 * Math.abs(c.distance) + 64 * EPS * L;
  const out: string[] = [];
  const least = Math.min(...m.points.map((p) => p.distance));
  if (least > c.distance + bar) out.push(`deepest point ${least}, contact ${c.distance}`);
  if (least < c.distance - bar) out.push(`a point at ${least}, deeper than ${c.distance}`);
  for (const p of m.points) {
    const pBar = bar + 4 * EPS * maxAbs(p.pointA, p.pointB);
    const offA = surfaceDistance(A, p.pointA);
    const offB = surfaceDistance(B, p.pointB);
    if (!(offA <= pBar)) out.push(`pointA ${offA} off A (bar ${pBar})`);
    if (!(offB <= pBar)) out.push(`pointB ${offB} off B (bar ${pBar})`);
    const along = dot(sub(p.pointB, p.pointA), m.normal);
    if (!(Math.abs(along - p.distance) <= pBar)) out.push(`(pB − pA)·n ${along}, ${p.distance}`);
  }
  return out;
}

/** The failures of the fuzzer's checks (facing bar on) on (a, b) moved by `off`, both orders. */
function failures(a: J, b: J, off: number[]): string[] {
  const out: string[] = [];
  for (const sc of [offsetScenario(a, b, off), offsetScenario(b, a, off)]) {
    for (const f of replayScenario(sc, "capsule-manifold", OPS)) out.push(`${f.op}: ${f.reason}`);
  }
  return out;
}

/** The quaternion [x, y, z, w] of the rotation whose matrix has columns X, Y, Z (right-handed). */
function quatOfColumns(X: V, Y: V, Z: V): number[] {
  const [m00, m10, m20] = X;
  const [m01, m11, m21] = Y;
  const [m02, m12, m22] = Z;
  const tr = m00 + m11 + m22;
  let q: number[];
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  return q;
}

/** A capsule of radius r along ±h·u about the origin (its axis sloping by `deg`° up from +x). */
function slopedCapsule(deg: number, r: number, h: number, lift: number): J {
  const s = Math.sin((deg * Math.PI) / 180);
  const c = Math.cos((deg * Math.PI) / 180);
  return { type: "capsule", a: [0, lift, 0], b: [h * c, lift + h * s, 0], radius: r };
}

describe("issue 16: a sloped capsule's manifold holds its contact", () => {
  it("the recorded line: the deepest manifold point is the contact, both orders", () => {
    expect(agreement(LINE.a, LINE.b, 0)).toEqual([]);
    expect(agreement(LINE.b, LINE.a, 0)).toEqual([]);
    const m = answerQuery({ op: "manifold", a: LINE.a, b: LINE.b } as never) as ManifoldJson;
    // Before: two points at 6.2e-8 and 2.3e-6 for a contact of −8.0e-19.
    expect(Math.min(...m.points.map((p) => p.distance))).toBeLessThan(1e-16);
    const sc = offsetScenario(LINE.a, LINE.b, [0, 0, 0]);
    expect(replayScenario(sc, "triangle-compound", OPS).map((f) => f.reason)).toEqual([]);
  });

  it("a capsule of radius 1 sloping 1°..17° with its pole 0.01 into a box's face or edge: the manifold's deepest point −0.01 (before: −0.0098 at 1°, −0.0062 at 5°)", () => {
    const face = { type: "box", center: [0, 0, 0], halfExtents: [10, 1, 10] };
    // A box turned 45° about x: its top edge along x at y = √2.
    const edge = {
      type: "box",
      center: [0, 0, 0],
      halfExtents: [10, 1, 1],
      rotation: [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)],
    };
    for (const deg of [1, 2, 5, 10, 17]) {
      for (const [box, top] of [
        [face, 1],
        [edge, Math.SQRT2],
      ] as const) {
        // The pole (the lower cap's lowest point) 0.01 below the top: a depth of 0.01.
        const cap = slopedCapsule(deg, 1, 2, top + 1 - 0.01);
        for (const [x, y] of [
          [box, cap],
          [cap, box],
        ]) {
          const m = answerQuery({ op: "manifold", a: x, b: y } as never) as ManifoldJson;
          const least = Math.min(...m.points.map((p) => p.distance));
          expect(Math.abs(least + 0.01), `${deg}° ${box === face ? "face" : "edge"}`).toBeLessThan(
            1e-15,
          );
          expect(agreement(x, y, 0)).toEqual([]);
          expect(agreement(x, y, 0.05)).toEqual([]);
        }
      }
    }
  });

  // Coordinates in thousandths (fast-check's doubles favour 0 and ±1).
  const unitInt = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
  const point = fc.tuple(unitInt, unitInt, unitInt);
  const quat = thousandthQuatArb;

  it("property: capsules (alone or a compound's child), level to 2^-50..2^-10 rad or sloping up to 17°, touching, grazing or pressing a triangle's or box's edge or face, the edge near-parallel to the axis or turned, sizes 2^-20..2^20, offsets to 2^30", () => {
    let checked = 0;
    let withContact = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(fc.constantFrom("capsule", "compound"), fc.integer({ min: -4, max: 1 })),
        fc.tuple(point, point, quat),
        fc.tuple(fc.boolean(), fc.integer({ min: -50, max: -10 }), unitInt),
        fc.tuple(
          fc.constantFrom("triangle-edge", "triangle-face", "box-edge", "box-face"),
          fc.boolean(),
          fc.integer({ min: -50, max: -10 }),
          unitInt,
        ),
        fc.tuple(unitInt, unitInt, fc.integer({ min: -2, max: 2 })),
        fc.tuple(fc.constantFrom(0, 0, 1, -1), fc.integer({ min: -50, max: -8 })),
        fc.tuple(point, fc.integer({ min: -5, max: 30 })),
        (
          eB,
          [kind, eR],
          [d0, t0, q],
          [sloped, eTilt, slope],
          [target, alongAxis, eTurn, turn],
          [alpha, lam, eT],
          [gapSign, eGap],
          [dir, eo],
        ) => {
          if (!(Math.hypot(...d0) > 0.1) || !(Math.hypot(...t0) > 0.1)) return;
          const S = 2 ** eB;
          const r = 2 ** eR * S;
          // d: from the capsule toward the other shape; t1 ⟂ d; the axis u slopes by ang to
          // the plane ⟂ d (level to 2^eTilt, or up to 17°).
          const d = unit(d0 as V);
          const t1 = unit(cross(d, t0 as V));
          if (!t1.every(Number.isFinite) || Math.hypot(...cross(d, t0 as V)) < 0.1) return;
          const t2 = cross(d, t1);
          const ang = sloped ? 0.3 * slope : Math.sign(slope || 1) * 2 ** eTilt;
          const u = unit(t1.map((x, i) => Math.cos(ang) * x + Math.sin(ang) * d[i]) as V);
          const end = u.map((x) => x * S) as V;
          let b: J;
          if (kind === "capsule") {
            b = { type: "capsule", a: end.map((x) => -x), b: end, radius: r };
          } else {
            const e = unrotate(q, end);
            const child = { type: "capsule", a: e.map((x) => -x), b: e, radius: r };
            b = {
              type: "compound",
              children: [{ shape: child }],
              position: [0, 0, 0],
              rotation: q,
            };
          }
          const p0 = oshape(b).pieces[0].support(d);
          // The point touched (the support point moved by a gap along d, or into the shape).
          const p = p0.map((x, i) => x + gapSign * 2 ** eGap * S * d[i]) as V;
          // The edge's direction in the tangent plane: along the axis's shadow turned by
          // 2^eTurn rad, or turned by any angle.
          const beta = alongAxis ? turn * 2 ** eTurn : turn * Math.PI;
          const e = unit(t1.map((x, i) => Math.cos(beta) * x + Math.sin(beta) * t2[i]) as V);
          const w = cross(d, e);
          const St = 2 ** eT * S;
          const l = 0.5 + 0.45 * lam;
          let a: J;
          if (target === "triangle-edge" || target === "triangle-face") {
            // The edge through p, the third corner beyond it (tilted toward d by aa), or p
            // inside a face ⟂ d.
            const aa = target === "triangle-edge" ? (0.02 + 0.96 * Math.abs(alpha)) * Math.PI : 0;
            const side = target === "triangle-edge" ? 0 : -0.3 * St;
            a = {
              type: "triangle",
              a: p.map((x, i) => x - l * St * e[i] + side * w[i]),
              b: p.map((x, i) => x + (1 - l) * St * e[i] + side * w[i]),
              c: p.map(
                (x, i) => x + 0.5 * St * (e[i] * lam + Math.cos(aa) * w[i] + Math.sin(aa) * d[i]),
              ),
            };
          } else {
            // A box whose edge along e passes through p, its faces at γ and 90° − γ to d, or
            // whose face ⟂ d holds p.
            const g = target === "box-edge" ? (0.02 + 0.46 * Math.abs(alpha)) * Math.PI : 0;
            const Y = d.map((x, i) => Math.cos(g) * x + Math.sin(g) * w[i]) as V;
            const Z = d.map((x, i) => Math.sin(g) * x - Math.cos(g) * w[i]) as V;
            const h: V = [St, St * (1 + Math.abs(lam)), St * (1.5 - Math.abs(alpha))];
            const zf = target === "box-edge" ? 1 : 0.9 * lam;
            const c = p.map(
              (x, i) => x - (l - 0.5) * 2 * h[0] * e[i] + h[1] * Y[i] + zf * h[2] * Z[i],
            );
            a = { type: "box", center: c, halfExtents: h, rotation: quatOfColumns(e, Y, Z) };
          }
          for (const pred of [0, 1e-3 * S]) {
            expect(agreement(a, b, pred), `prediction ${pred}`).toEqual([]);
            expect(agreement(b, a, pred), `prediction ${pred}, swapped`).toEqual([]);
          }
          if (answerQuery({ op: "contact", a, b } as never) !== null) withContact++;
          const off = exactOffset(dir, 2 ** Math.min(30, eB + eo));
          expect(failures(a, b, off)).toEqual([]);
          checked++;
        },
      ),
      { numRuns: 400, seed: 31 },
    );
    expect(checked).toBeGreaterThan(300);
    expect(withContact).toBeGreaterThan(150);
  });
});
