/**
 * Issue 16: a capsule against a sliver triangle. test/fuzz/rounded-tilt.gen.ts at fast-check seed 3
 * (10^4 draws, both orders) drew a capsule of radius 0.25 and length 1.2 lying 1.86e-9 rad off
 * parallel along a triangle 1.1 long two of whose corners were 1.6e-13 apart, touching, at 1e7:
 * GJK/EPA on the swept segment answered a normal 1.06e-9 short of the depth along it over the
 * fuzzer's bar of 1.2e-14 ("normal does not achieve the depth", both orders). Now a needle (least
 * height below 2^-40 of its longest edge, `isNeedle`) whose segment gap is above 2^-20 of the
 * pair's extent is answered as the capsule's segment against the triangle by triangle-polytope's
 * exact features, the radius added (`contactCapsuleTriangle` → `contactCapsulePolytope`,
 * src/narrowphase/capsule-triangle.ts), as capsules against boxes and hulls are; every other
 * triangle keeps GJK/EPA. The property's generator (below) at fast-check seed 7, 3,000 draws, both
 * orders: 88 of 6,000 contacts off the oracle's distance before, 2 after; normals missing the
 * depth 78 before, 66 after; the fuzzer's replay (facing on) of 400 draws at seed 11: 44 failures
 * before (distance, witnesses, depth, normal), 8 after, all "normal does not achieve the depth",
 * 5e-14..3e-13 over bars of ~1e-14 (test/fuzz/capsule-needle-normal.cases.jsonl, the first two).
 *
 * Those (session 36, traced with exact rationals): the segment and the needle are two triangles
 * without area, whose separating axis test is their closest points' direction with the gap as its
 * separation (`segmentsSat`), so `gapNormal` (src/narrowphase/triangle-polytope.ts) kept that
 * rounded direction as "achieving" the gap and never measured it. Its rounding is ε of the
 * coordinates over the gap (a capsule of radius 1e-3 of the size: 1e-13 rad), tilted along the
 * needle, whose far corner then lay up to 3.1e-13 short along it. Measured, the direction gives way
 * to the feature pairs' exact normals: a corner against an edge's inside by its perpendicular to
 * the edge (the second line: the needle's corner 7.5e-11 inside the segment's radius), and two
 * edges' insides — the segment crossing the needle's long edge 2^-9 rad off, the first line — by
 * their common perpendicular, a cross product 2^-9 rad short of its factors' lengths, so ε/θ off
 * in doubles: now from exact products (`edgesCross`), with the edges' points on it from exact
 * triple products (`edgesCrossWitnesses`; the closed form's were ε/θ² off along the edges,
 * 7.5e-14 apart across the normal), the tied pairs' perpendiculars and crosses all offered (a
 * segment crossing both long edges of a needle at their shared corner, the nearer in doubles the
 * wrong one by 3.9e-17, its cross 4e-14 short: the fourth line), and the witnesses faced along the
 * normal kept by the gap the contact reports (the separation had been taken, a few ulps below it:
 * the third line). The generator's 10^3 draws at seeds 1–5, the fuzzer's replay in both orders:
 * 36, 32, 40, 28 and 24 of 2,000 replays failing before, 0, 2, 0, 0, 0 after — the two one draw in both orders, at
 * 1e9 whose needle the offset's rounding thickens to 1e-7 of its edge, GJK/EPA's (below); seed 11's
 * 400: 4 of 800 before, 0 after. Slivers between 2^-40 and 2^-20 of their edge, GJK/EPA's then
 * (that draw: witnesses 0.498 apart across the normal over a bar of 9.5e-7), take the same exact
 * features since session 38 (below).
 *
 * Oracles, written without the library: the overlap h_A(n) + h_B(−n) along the answer's normal
 * from the shapes' definitions, summed exactly over the input doubles (`overlapMiss` of
 * rounded-tilt.gen.ts), against the fuzzer's bar; the distance of the segment to the triangle by
 * brute force over its features (the segment against the triangle's three edges, its ends'
 * closest points of the triangle; a sliver's exact normal, oracle-shapes.ts) less the radius; the
 * lines' distance and normal from the segment's exact closest features in rationals (Python's
 * fractions over the input doubles: the segment against the three edges, its ends against the
 * triangle; 60 digits for the square root); and the fuzzer's own checks (replay, facing on).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { capsuleSliverArb, capsuleThinSliverArb } from "./capsule-sliver.gen.js";
import type { ContactAnswer } from "./contact-checks.js";
import { replayScenario } from "./fuzz.js";
import { offsetScenario, type Scenario } from "./generate.js";
import {
  add,
  closestOnTriangle,
  dist,
  scale,
  segmentSegmentDistance,
  sub,
  type V,
} from "./oracle-shapes.js";
import { bar, bothOrders, normalMiss } from "./overlap-miss.js";
import { expectReplayPasses, loadCaseLines } from "./recorded-cases.js";

type J = Record<string, unknown>;

const EPS = 2 ** -52;

/** `op` of the scenario's world pair at its prediction. */
function query<T>(op: string, sc: Scenario): T {
  return answerQuery({ op, a: sc.worldA, b: sc.worldB, prediction: sc.prediction }) as T;
}

/** Distance of point x to segment pq (its clamped projection). */
function pointSegmentDistance(x: V, p: V, q: V): number {
  const d = sub(q, p);
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const w = sub(x, p);
  const t = dd > 0 ? Math.min(1, Math.max(0, (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dd)) : 0;
  return dist(x, add(p, scale(d, t)));
}

/**
 * Distance of segments pq and uv: the least of the clamped closed form's (oracle-shapes.ts, whose
 * denominator |d1|²|d2|² − (d1·d2)² cancels for segments near parallel) and a ternary search over
 * pq of the distance to uv (convex in the parameter; each value the distance of two points of the
 * segments, so an upper bound, and within a few ulps of the size of the least).
 */
function segmentsDistance(p: V, q: V, u: V, v: V): number {
  const at = (s: number): number => pointSegmentDistance(add(p, scale(sub(q, p), s)), u, v);
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-18; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (at(m1) <= at(m2)) hi = m2;
    else lo = m1;
  }
  return Math.min(segmentSegmentDistance(p, q, u, v), at(lo), at(hi), at(0), at(1));
}

/**
 * Distance of segment pq to triangle abc by brute force over features: the segment against each
 * edge and each end's closest point of the triangle (Ericson 2005, §5.1.10; a segment through the
 * face's inside is not among them, which the generator below never draws: its capsule lies over
 * the triangle's long edge, at most the triangle's thickness 1e-9 of the size across it). Local
 * frame, doubles.
 */
function segmentTriangleDistance(p: V, q: V, a: V, b: V, c: V): number {
  return Math.min(
    segmentsDistance(p, q, a, b),
    segmentsDistance(p, q, b, c),
    segmentsDistance(p, q, c, a),
    dist(p, closestOnTriangle(p, a, b, c)),
    dist(q, closestOnTriangle(q, a, b, c)),
  );
}

/** The capsule's and the triangle's JSON of a scenario, whichever comes first. */
function capsuleAndTriangle(sc: Scenario): { cap: J; tri: J } {
  const a = sc.localA as J;
  const b = sc.localB as J;
  return a.type === "capsule" ? { cap: a, tri: b } : { cap: b, tri: a };
}

/** The oracle's signed distance of the scenario's capsule and triangle (≤ 0 touching). */
function oracleDistance(sc: Scenario): number {
  const { cap, tri } = capsuleAndTriangle(sc);
  const d = segmentTriangleDistance(cap.a as V, cap.b as V, tri.a as V, tri.b as V, tri.c as V);
  return d - (cap.radius as number);
}

/** The generator's line (seed 3): local shapes, offset 1e7 along z. */
const LINE = {
  capsule: {
    type: "capsule",
    a: [0.2822820756797886, 0.5052997907963598, 0.17987760342657566],
    b: [-0.2822820756797886, -0.5052997907963598, -0.17987760342657566],
    radius: 0.2499999992239267,
  } as J,
  triangle: {
    type: "triangle",
    a: [0.33149603408630984, 0.31727593510756547, -0.08424493111670017],
    b: [-0.1342329127363846, -0.5164034200192307, -0.38101972825825214],
    c: [0.3314960340862938, 0.3172759351075789, -0.08424493111670017],
  } as J,
  offset: [0, 0, 10000000],
  prediction: 9.313225746154785e-10,
};

/**
 * The capsule-needle-normal lines (the generator's draws: seed 11, two; seeds 1 and 4, one each),
 * the capsule first, and their exact signed distance and unit normal (capsule toward triangle):
 * the segment's nearest feature pair in rationals — the segment's inside against the needle's
 * edge bc's inside; the needle's corner c against the segment's inside (tied with c against the
 * segment from edge ca); the segment's inside against edge ca's inside, tied with ab's to 1.5e-17
 * and 3.9e-17 in the last two. (The doubles nearest their 20 digits.)
 */
const NEEDLE_CASES = loadCaseLines("./capsule-needle-normal.cases.jsonl");
const NEEDLE_ORACLE: { distance: number; normal: V }[] = [
  {
    distance: -7.892205021637989e-13,
    normal: [-0.7822783322551325, 0.6224035361403387, -0.02558220248787411],
  },
  {
    distance: -7.499835160919249e-11,
    normal: [-0.4350146855884924, -0.6843931949026258, 0.5851223616418376],
  },
  {
    distance: -7.103857831584518e-16,
    normal: [-0.8603294230589817, 0.4744575140225988, -0.18634202748305337],
  },
  {
    distance: -1.3741754540358371e-12,
    normal: [-5.119991264843203e-5, -0.9999999977091656, 4.4274571500824566e-5],
  },
];

describe("issue 16: a capsule against a sliver triangle", () => {
  it("the generator's line (seed 3), both orders: the oracle's distance, the normal achieves the depth", () => {
    const sc = {
      ...offsetScenario(LINE.capsule, LINE.triangle, LINE.offset),
      prediction: LINE.prediction,
    };
    // Brute force over the features: touching, −1.4e-16 (the radius's and coordinates' rounding).
    const d = oracleDistance(sc);
    expect(Math.abs(d)).toBeLessThan(1e-15);
    for (const s of bothOrders(sc)) {
      const r = query<ContactAnswer | null>("contact", s);
      expect(r).not.toBeNull();
      if (!r) continue;
      expect(Math.abs(r.distance - d)).toBeLessThanOrEqual(bar(s, r.distance));
      // Was 1.057e-9 over a bar of 1.217e-14 (GJK/EPA on the swept segment).
      expect(normalMiss(s, r)).toBeLessThanOrEqual(bar(s, r.distance));
    }
    expectReplayPasses(sc, "capsule-triangle", { facing: true });
    expectReplayPasses(bothOrders(sc)[1], "triangle-capsule", { facing: true });
  });

  it("the capsule-needle-normal lines, both orders: the exact distance, the normal achieves the depth, the fuzzer's checks", () => {
    expect(NEEDLE_CASES.length).toBe(NEEDLE_ORACLE.length);
    NEEDLE_CASES.forEach((c, i) => {
      const o = NEEDLE_ORACLE[i];
      bothOrders(c.scenario).forEach((s, k) => {
        const r = query<ContactAnswer | null>("contact", s);
        expect(r).not.toBeNull();
        if (!r) return;
        expect(Math.abs(r.distance - o.distance)).toBeLessThanOrEqual(bar(s, r.distance));
        // Was 3.1e-13, 5.1e-14, 0 and 4.0e-14 over bars of 1.3e-14, 1.0e-14, 2.8e-14, 2.0e-14.
        expect(normalMiss(s, r)).toBeLessThanOrEqual(bar(s, r.distance));
        // The exact normal of the edges rounded to the local frame: ε/θ about an axis across them
        // (2.6e-14 at 2^-9 rad), which moves neither's extent.
        const sign = k === 0 ? 1 : -1;
        expect(dist(r.normal as V, scale(o.normal, sign))).toBeLessThan(1e-12);
      });
      expectReplayPasses(c.scenario, "capsule-triangle", { facing: true });
      expectReplayPasses(bothOrders(c.scenario)[1], "triangle-capsule", { facing: true });
    });
  });

  it("property: the generator's draws replayed through the fuzzer's checks, both orders (facing on)", () => {
    // Seed 11's 400 draws: 4 of 800 replays failing before (the normal 5e-14..3e-13 short of the
    // depth), none after.
    fc.assert(
      fc.property(capsuleSliverArb, (k) => {
        const sc = {
          ...offsetScenario(k.capsule, k.triangle, k.offset),
          prediction: k.capsule.radius as number,
        };
        const [ct, tc] = bothOrders(sc);
        expectReplayPasses(ct, "capsule-triangle", { facing: true });
        expectReplayPasses(tc, "triangle-capsule", { facing: true });
        return true;
      }),
      { numRuns: 400, seed: 11 },
    );
  });

  it("property: both orders, the distance is the oracle's (the segment's exact features)", () => {
    // GJK/EPA on the swept segment: 94 of 6,000 contacts (3,000 draws, both orders) off the
    // oracle's distance by more than the bar, up to 2.3e-11 at sizes of 1e3; now none.
    fc.assert(
      fc.property(capsuleSliverArb, (k) => {
        const sc = offsetScenario(k.capsule, k.triangle, k.offset);
        const d = oracleDistance(sc);
        for (const s of bothOrders({ ...sc, prediction: k.capsule.radius as number })) {
          const r = query<ContactAnswer | null>("contact", s);
          if (!r) throw new Error(`no contact (oracle ${d})`);
          const tol = bar(s, r.distance) + 64 * EPS * (k.capsule.radius as number);
          if (!(Math.abs(r.distance - d) <= tol)) {
            throw new Error(`distance ${r.distance}, oracle ${d}, bar ${tol}`);
          }
        }
        return true;
      }),
      { numRuns: 400, seed: 35 },
    );
  });
});

/**
 * Issue 16's capsule-sliver-gjk line and two draws of its class (test/fuzz/capsule-thin-sliver
 * .cases.jsonl, the capsule first): capsules over slivers whose least height is 2^-40..2^-20 of
 * their longest edge, once GJK/EPA's, now the segment's exact features against the sliver (its
 * face normal from exact products, `exactFaceNormal`; its corners against the segment's edges
 * projected, `cornerEdgePairs`; a corner–edge perpendicular tried before the SAT's in-plane axis,
 * `sliverCornerEdge`, `cornerEdgeFirst` for every pair since session 41:
 * src/narrowphase/triangle-polytope.ts). The line: a capsule of radius 1 at
 * 1e9 over a sliver the offset's rounding thickened to 1e-7 of its edge, GJK/EPA's witnesses 0.498
 * apart across the normal; the draws (capsuleThinSliverArb, seed 2 draw 419 and seed 1 draw 250)
 * failed on that path with the rounded face normal (the normal 3.1e-10 short of the depth: the
 * edges' closed form, near parallel, took a corner 1.5e-10 farther than the segment's end over the
 * edge) and with the SAT's in-plane axis kept (5.2e-12 across the normal). Oracle: the exact
 * nearest feature pair in rationals over the input doubles (Python's fractions: the segment
 * against the three edges — interiors and ends — and its ends against the face; 60 digits for the
 * square root): the segment's end against edge bc's inside, against ab's inside, against bc's
 * inside; the signed distance (less the radius), the unit normal (capsule toward triangle) and
 * the triangle's point, the doubles nearest them.
 */
const THIN_CASES = loadCaseLines("./capsule-thin-sliver.cases.jsonl");
const THIN_ORACLE: { distance: number; normal: V; onTriangle: V }[] = [
  {
    distance: -7.031070426905132e-8,
    normal: [0.44922560461581945, 0.7753156297881058, 0.4439392192224341],
    onTriangle: [0.38167585894025213, -1000000000.0355169, -0.3241926862884287],
  },
  {
    distance: -1.1427354270664743e-9,
    normal: [-0.1071987211507863, 0.9324790962124769, 0.34495096653060425],
    onTriangle: [-0.4553625569764683, 6.144801415741154e-5, -10000000.141676897],
  },
  {
    distance: -6.067145678348802e-9,
    normal: [0.921558163879755, 0.31338674690914475, 0.22917089136336316],
    onTriangle: [0.05122682195534209, -0.16640354903626697, 0.02155668527269654],
  },
];

type Wrap = "bare" | "mesh" | "compound";
const WRAPS: Wrap[] = ["bare", "mesh", "compound"];

/** Triangle JSON `t` alone, as a one-triangle mesh's or as a compound's child (identity poses). */
function wrapTriangle(t: J, wrap: Wrap): J {
  if (wrap === "mesh") return { type: "mesh", vertices: [t.a, t.b, t.c], indices: [[0, 1, 2]] };
  if (wrap === "compound") {
    return { type: "compound", children: [{ shape: t, position: [0, 0, 0] }], position: [0, 0, 0] };
  }
  return t;
}

/** The scenario `sc` (capsule first) with its triangle wrapped, at its prediction. */
function wrapped(sc: Scenario, wrap: Wrap): Scenario {
  return {
    ...offsetScenario(sc.localA as J, wrapTriangle(sc.localB as J, wrap), sc.offset),
    prediction: sc.prediction,
  };
}

describe("issue 16: a capsule against a thin sliver (least height 2^-40..2^-20 of its edge)", () => {
  it("the capsule-sliver-gjk line and two draws, both orders, bare, a mesh's and a compound's: the exact distance, normal and triangle point; the fuzzer's checks", () => {
    expect(THIN_CASES.length).toBe(THIN_ORACLE.length);
    THIN_CASES.forEach((c, i) => {
      const o = THIN_ORACLE[i];
      for (const wrap of WRAPS) {
        const sc = wrapped(c.scenario, wrap);
        // The bare pair's scenarios for the overlap oracle (the same shapes in the world).
        const bare = bothOrders(c.scenario);
        bothOrders(sc).forEach((s, k) => {
          const r = query<ContactAnswer | null>("contact", s);
          expect(r).not.toBeNull();
          if (!r) return;
          const b = bar(bare[k], r.distance);
          expect(Math.abs(r.distance - o.distance)).toBeLessThanOrEqual(b);
          expect(normalMiss(bare[k], r)).toBeLessThanOrEqual(b);
          const sign = k === 0 ? 1 : -1;
          // The exact normal rounded (a few ulps), and the triangle's witness the exact foot.
          expect(dist(r.normal as V, scale(o.normal, sign))).toBeLessThan(1e-12);
          expect(dist((k === 0 ? r.pointB : r.pointA) as V, o.onTriangle)).toBeLessThanOrEqual(b);
        });
        const pair = `capsule-${(sc.localB as J).type}`;
        expectReplayPasses(sc, pair, { facing: true });
        expectReplayPasses(bothOrders(sc)[1], pair.split("-").reverse().join("-"), {
          facing: true,
        });
      }
    });
  });

  it("property: capsuleThinSliverArb's draws, bare, a mesh's or a compound's, both orders: the fuzzer's checks (facing on) and the oracle's distance", () => {
    // 500 draws at seeds 1, 2 and 3, bare, both orders: 12, 22 and 20 of 1,000 replays failing
    // on GJK/EPA (witnesses up to 766 apart across the normal, normals 7.4e-12 short of the depth),
    // none on the exact features; seeds 4-7 none; as a mesh's or a compound's triangle 24 and 26
    // of 3,000 at seeds 1-3 before, none after. This
    // seed's 60 failed at the 23rd on GJK/EPA (the normal missing the depth).
    fc.assert(
      fc.property(capsuleThinSliverArb, fc.constantFrom<Wrap>(...WRAPS), (k, wrap) => {
        const bare = {
          ...offsetScenario(k.capsule, k.triangle, k.offset),
          prediction: k.capsule.radius as number,
        };
        const d = oracleDistance(bare);
        const sc = wrapped(bare, wrap);
        const pair = `capsule-${(sc.localB as J).type}`;
        const names = [pair, pair.split("-").reverse().join("-")];
        bothOrders(sc).forEach((s, i) => {
          const fails = replayScenario(s, names[i], { facing: true });
          if (fails.length > 0) {
            throw new Error(fails.map((f) => `${f.op}: ${f.reason}`).join("; "));
          }
          const r = query<ContactAnswer | null>("contact", s);
          if (!r) throw new Error(`no contact (oracle ${d})`);
          const tol = bar(s, r.distance) + 64 * EPS * (k.capsule.radius as number);
          if (!(Math.abs(r.distance - d) <= tol)) {
            throw new Error(`distance ${r.distance}, oracle ${d}, bar ${tol}`);
          }
        });
        return true;
      }),
      { numRuns: 60, seed: 5 },
    );
  });
});
