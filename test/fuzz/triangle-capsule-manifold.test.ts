/**
 * A capsule touching a triangle's edge: its manifold is null exactly when its contact is, and its
 * deepest point is the contact (issue 16, found by test/fuzz/triangle-curved.test.ts' second
 * property at 1,500 runs, fast-check seed 1616: a capsule of 1.5e-6 in a compound, its end
 * touching the edge of a triangle whose face lies 3° from the contact normal, 2^-38 rad off a
 * coordinate axis — "manifold null but contact non-null").
 *
 * The manifold clipped the capsule's segment against the triangle's face (the reference face,
 * within `MANIFOLD_FEATURE_COS` of the normal), which cut away the end that touched the edge: its
 * points lay 6.2e-8 and 2.3e-6 from the triangle where the contact was 1.3e-19, beyond the
 * touching band, so the `manifold` query dropped the manifold that the `contact` query kept (and
 * the bare capsule's manifold, kept at prediction 0, had no point at its contact). Now the
 * contact's own pair joins the clipped points whenever they all lie shallower than it beyond its
 * depth bar (src/narrowphase/manifold.ts).
 *
 * Oracle: the fuzzer's checks (test/fuzz/fuzz.ts: points on their shapes by the oracle of
 * test/fuzz/oracle-*.ts, null exactly when contact is, no point deeper than the contact), and
 * the deepest point's distance within the contact's depth bar of the contact's distance.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { replayScenario } from "./fuzz.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { cross, dot, oshape, sub, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

const OPS = { ops: ["intersects", "distance", "contact", "manifold"] };

/** The recorded line (test/fuzz/open/triangle-capsule-manifold.jsonl before the fix). */
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

interface Point {
  pointA: number[];
  pointB: number[];
  distance: number;
}

function query(op: string, a: J, b: J, prediction: number): unknown {
  return answerQuery({ op, a, b, prediction } as never);
}

/**
 * The manifold of (a, b) at `prediction` against their contact: both null or both not, and the
 * manifold's deepest point within the depth bar (1e-6 of the depth plus 64 ulps of the
 * witnesses' magnitude, docs/FORMATS.md) of the contact's distance, none deeper.
 */
function agreement(a: J, b: J, prediction: number): string[] {
  const c = query("contact", a, b, prediction) as {
    distance: number;
    pointA: number[];
  } | null;
  const m = query("manifold", a, b, prediction) as { points: Point[] } | null;
  if ((c === null) !== (m === null)) return [`manifold ${m} but contact ${JSON.stringify(c)}`];
  if (c === null || m === null) return [];
  const mag = Math.max(...c.pointA.map(Math.abs));
  const bar = 1e-6 * Math.abs(c.distance) + 64 * Number.EPSILON * mag;
  const least = Math.min(...m.points.map((p) => p.distance));
  const out: string[] = [];
  if (least > c.distance + bar) out.push(`deepest point ${least}, contact ${c.distance}`);
  if (least < c.distance - bar)
    out.push(`a point at ${least} deeper than the contact ${c.distance}`);
  return out;
}

/** The failures of the fuzzer's checks on (a, b) moved by `off`, both argument orders. */
function failures(a: J, b: J, off: number[]): string[] {
  const out: string[] = [];
  for (const sc of [offsetScenario(a, b, off), offsetScenario(b, a, off)]) {
    for (const f of replayScenario(sc, "triangle-capsule", OPS)) out.push(`${f.op}: ${f.reason}`);
  }
  return out;
}

describe("issue 16: a capsule touching a triangle's edge has a manifold exactly when it has a contact", () => {
  it("the recorded line: the manifold non-null at prediction 0, its deepest point the contact", () => {
    const m = query("manifold", LINE.a, LINE.b, 0) as { points: Point[] } | null;
    expect(m).not.toBeNull();
    expect(agreement(LINE.a, LINE.b, 0)).toEqual([]);
    expect(agreement(LINE.b, LINE.a, 0)).toEqual([]);
    const sc = offsetScenario(LINE.a, LINE.b, [0, 0, 0]);
    expect(replayScenario(sc, "triangle-compound", OPS).map((f) => f.reason)).toEqual([]);
  });

  // Coordinates in thousandths (fast-check's doubles favour 0 and ±1).
  const unitInt = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);
  const point = fc.tuple(unitInt, unitInt, unitInt);
  const quat = fc
    .tuple(unitInt, unitInt, unitInt, unitInt)
    .filter((q) => Math.hypot(...q) > 0.1)
    .map((q) => q.map((x) => x / Math.hypot(...q)));

  it("property: capsules (alone or a compound's child) touching or grazing a triangle's edge, the edge or the contact direction 2^-50..2^-10 rad from the capsule's axis or its perpendicular, sizes 2^-20..2^20, offsets to 2^30", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.tuple(fc.integer({ min: -4, max: 0 }), point, quat, fc.boolean()),
        fc.tuple(fc.integer({ min: 0, max: 2 }), point, fc.integer({ min: -50, max: -10 }), point),
        fc.tuple(unitInt, unitInt, unitInt, fc.integer({ min: -2, max: 2 })),
        fc.tuple(fc.constantFrom(0, 0, 1, -1), fc.integer({ min: -50, max: -30 })),
        fc.tuple(point, fc.integer({ min: -5, max: 30 })),
        (
          eB,
          [eR, u0, q, inCompound],
          [mode, w0, eTilt, tilt],
          [beta, alpha, lam, eT],
          [gapSign, eGap],
          [dir, eo],
        ) => {
          const S = 2 ** eB;
          if (!(Math.hypot(...u0) > 0.1) || !(Math.hypot(...w0) > 0.1)) return;
          // The capsule: axis u0, half length S, radius 2^eR·S; in a compound turned by q.
          const r = 2 ** eR * S;
          const seg = unit(u0 as V).map((x) => x * S);
          const cap: J = { type: "capsule", a: seg.map((x) => -x), b: seg, radius: r };
          const b: J = inCompound
            ? { type: "compound", children: [{ shape: cap }], position: [0, 0, 0], rotation: q }
            : cap;
          const o = oshape(b);
          // The capsule's axis in the world: its support along ± directions.
          const ax = unit(
            sub(o.pieces[0].support(seg as V), o.pieces[0].support(seg.map((x) => -x) as V)),
          );
          const perp = unit(cross(ax, unit(w0 as V)));
          const tiny = 2 ** eTilt;
          const tt = unit(tilt as V);
          // Toward the triangle (d) and the edge's direction (e) in the tangent plane:
          // mode 0: d ⟂ the axis (tilted by 2^eTilt), the edge along the axis (tilted): a side
          //   lying along the edge; mode 1: d along the axis (tilted), a cap's pole on the edge;
          // mode 2: d ⟂ the axis, the edge ⟂ both turned by beta, tilted toward the axis.
          const d = unit((mode === 1 ? ax : perp).map((x, i) => x + tiny * tt[i]) as V);
          let e: V;
          if (mode === 0) e = unit(sub(ax, d.map((x) => x * dot(ax, d)) as V));
          else {
            const t1 = unit(cross(d, Math.abs(d[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0]));
            const t2 = cross(d, t1);
            const bb = beta * Math.PI;
            e = unit(t1.map((x, i) => Math.cos(bb) * x + Math.sin(bb) * t2[i]) as V);
          }
          if (mode !== 1) {
            const side = cross(d, e);
            e = unit(e.map((x, i) => x + tiny * lam * side[i]) as V);
          }
          const p0 = o.pieces[0].support(d);
          // Touching (the support point on the edge), or 2^eGap·S apart or into it.
          const p = p0.map((x, i) => x + gapSign * 2 ** eGap * S * d[i]);
          const St = 2 ** eT * S;
          const w = cross(d, e);
          const aa = (0.02 + 0.96 * Math.abs(alpha)) * Math.PI;
          const l = 0.5 + 0.45 * lam;
          const a: J = {
            type: "triangle",
            a: p.map((x, i) => x - l * St * e[i]),
            b: p.map((x, i) => x + (1 - l) * St * e[i]),
            c: p.map(
              (x, i) => x + 0.5 * St * (e[i] * lam + Math.cos(aa) * w[i] + Math.sin(aa) * d[i]),
            ),
          };
          const off = exactOffset(dir, 2 ** Math.min(30, eB + eo));
          for (const pred of [0, 1e-3 * S]) {
            expect(agreement(a, b, pred), `prediction ${pred}`).toEqual([]);
            expect(agreement(b, a, pred), `prediction ${pred}, swapped`).toEqual([]);
          }
          expect(failures(a, b, off)).toEqual([]);
          checked++;
        },
      ),
      { numRuns: 300, seed: 38 },
    );
    expect(checked).toBeGreaterThan(200);
  });
});
