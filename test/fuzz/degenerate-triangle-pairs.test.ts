/**
 * Issue 16, the degenerate triangles of test/fuzz/open/rounded-tilt-normal.jsonl (the generator
 * test/fuzz/rounded-tilt.gen.ts at seed 3, session 34), moved here with their right values:
 *
 * - roundedBox–triangle, the triangle a segment along x (corners collinear, 0.5 long, one edge of
 *   1.25e-5) beside the rounded box's core edge 2.8e-14 rad off parallel: its corner against the
 *   core's edge and the core's corner against its short edge tie to 1e-21, and the nearer in
 *   doubles, the core's corner, gave a normal perpendicular to the segment, 5.0e-14 short of the
 *   depth along the core's far corner (bar 2.2e-14). Not the segment's face axis (it has none): the
 *   tie of `triangle-polytope`'s closest features, whose `gapNormal` tried only the nearest corner
 *   against an edge.
 * - capsule–aabb: the capsule's end 2.2e-16 beside the box's corner along the box's edge, the
 *   segments' closest points rounded onto the corner, the corners' direction 2.3e-13 rad off the
 *   edge's perpendicular and 4.5e-13 short of the depth along the edge's far end (bar 2.3e-14).
 *   Now `gapNormal`, when its first normal falls short, walks every edge pair with a corner tied
 *   within the frame's rounding of the gap and tries its direction made perpendicular to the edge
 *   (either edge for two corners), kept when it separates the pair further.
 * - capsule–point triangle (its three corners equal): the distance right, the normal 3.0e-9 rad off
 *   the segment's perpendicular (GJK on the swept segment: the end and its inside 1.5e-12 along it
 *   tied), 6.0e-13 short of the gap over a bar of 8.5e-18. Now a point triangle against a capsule
 *   is the point–segment closed form, the radius subtracted (src/narrowphase/capsule-triangle.ts).
 *
 * Oracles, written without the library: the distances at 60 digits (mpmath, the inputs' doubles
 * exact: point–segment, segment–box from the segment's ends and the box's 12 edges); the overlap
 * h_A(n) + h_B(−n) along the answer's normal, summed exactly over the input doubles (`overlapMiss`
 * of rounded-tilt.gen.ts); the fuzzer's own checks (replay, facing on).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { offsetArb, rotationArb } from "./arbitraries.js";
import { replayScenario } from "./fuzz.js";
import { exactOffset, offsetScenario } from "./generate.js";
import { add, rotate, scale, type V } from "./oracle-shapes.js";
import { bar, bothOrders, contactOf, normalMiss } from "./overlap-miss.js";
import { expectReplayPasses, loadCaseLines } from "./recorded-cases.js";

type J = Record<string, unknown>;

const EPS = 2 ** -52;
const CASES = loadCaseLines("./degenerate-triangle-pairs.cases.jsonl");

/** The exact distances of the three lines (mpmath, 60 digits, rounded to doubles), by the cases' order. */
const EXACT: Record<string, number> = {
  "capsule-triangle": 6.030038127991111e-13,
  "capsule-aabb": -1.0000027035450126e-14,
  "roundedBox-triangle": -4.995927351667112e-10,
};

describe("issue 16: degenerate triangles' pairs of the rounded-tilt generator (seed 3)", () => {
  it("the three lines, both orders: the exact distance, and the normal achieves it", () => {
    expect(CASES.length).toBe(3);
    for (const c of CASES) {
      for (const sc of bothOrders(c.scenario)) {
        const r = contactOf(sc);
        expect(r, c.was).not.toBeNull();
        if (!r) continue;
        const tol = bar(sc, r.distance);
        expect(Math.abs(r.distance - EXACT[c.pair]), c.pair).toBeLessThanOrEqual(tol);
        expect(normalMiss(sc, r), `${c.pair}: ${c.was}`).toBeLessThanOrEqual(tol);
      }
    }
  });

  it("the three lines pass the fuzzer's own checks, witnesses facing", () => {
    for (const c of CASES) expectReplayPasses(c.scenario, c.pair, { facing: true });
  });
});

/** The distance of point p to segment [a, b] less r, in doubles (the local frame's sizes). */
function pointSegmentGap(p: V, a: V, b: V, r: number): number {
  const d: V = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const w: V = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const t = dd > 0 ? Math.min(1, Math.max(0, (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dd)) : 0;
  return Math.hypot(w[0] - t * d[0], w[1] - t * d[1], w[2] - t * d[2]) - r;
}

/**
 * A point triangle against a capsule: the point beside the segment's inside or 2^-40..2^-10 of
 * its length from an end (on either side), at the radius plus a gap of 0, ±1e-9 or 2^-20..2^-1
 * of the size, the pair turned by any rotation, sizes 1e-3..1e3, offsets to 1e9.
 */
const pointCapsuleArb = fc
  .tuple(
    fc.integer({ min: -10, max: 10 }),
    fc.double({ min: 0.05, max: 2, noNaN: true }),
    fc.oneof(
      fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      fc
        .tuple(fc.integer({ min: 10, max: 40 }), fc.constantFrom(-1, 1), fc.boolean())
        .map(([k, side, end]) => (end ? 1 : 0) + (end ? -side : side) * 2 ** -k),
    ),
    fc.oneof(
      fc.constantFrom(0, 1e-9, -1e-9),
      fc.integer({ min: 1, max: 20 }).map((k) => 2 ** -k),
    ),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    rotationArb,
    offsetArb,
  )
  .map(([e, rho, t, g, phi, q, [ou, om]]) => {
    const s = 2 ** e;
    const r = s * rho * 0.25;
    const a: V = rotate(q, [-s, 0, 0]);
    const b: V = rotate(q, [s, 0, 0]);
    const m: V = [0, Math.cos(phi), Math.sin(phi)];
    const p = rotate(q, add([-s + 2 * s * t, 0, 0], scale(m, r + g * s)));
    return {
      capsule: { type: "capsule", a, b, radius: r } as J,
      point: { type: "triangle", a: p, b: p, c: p } as J,
      offset: exactOffset(ou, Math.min(1e9, om * s * 1e4)),
      prediction: Math.max(0, g * s) + s,
    };
  });

/**
 * A segment or sliver triangle beside a box's, an aabb's or a rounded box's (core) edge: the
 * segment along the edge, ±2^-36..2^-50 rad off parallel (the box turned about the face's normal;
 * the tie band of its corner–edge pairs), or across it, away from the box; its end 2^-32..2^-20
 * of the size or 0..4 ulps before or past the
 * edge's end, apart along a normal of the edge's fan (2^-30 rad to 87° from a face's) by the
 * radius plus 0, ±1e-9 or 2^-20 of the size; the third corner on the segment, on it within one
 * ulp, or 2^-25 of its length off it (a sliver); sizes 1e-3..1e3, offsets to 1e9.
 */
const segmentEdgeArb = fc
  .tuple(
    fc.constantFrom("box", "aabb", "roundedBox"),
    fc.integer({ min: -10, max: 10 }),
    fc.tuple(
      fc.double({ min: 0.2, max: 1, noNaN: true }),
      fc.double({ min: 0.2, max: 1, noNaN: true }),
    ),
    fc.integer({ min: 36, max: 50 }).chain((k) => fc.constantFrom(-k, k)),
    fc.oneof(
      fc.integer({ min: 20, max: 32 }).chain((k) => fc.constantFrom(-(2 ** -k), 2 ** -k)),
      fc.integer({ min: -4, max: 4 }).map((j) => j * EPS),
    ),
    fc.constantFrom(0, 1e-9, -1e-9, 2 ** -20),
    fc.oneof(
      fc.double({ min: 0.05, max: Math.PI / 2 - 0.05, noNaN: true }),
      fc.integer({ min: 5, max: 30 }).map((j) => 2 ** -j),
    ),
    fc.constantFrom("collinear", "ulp", "sliver"),
    fc.constantFrom("along", "across"),
    offsetArb,
  )
  .map(([type, e, [hy, hz], k, past, g, phi, third, course, [ou, om]]) => {
    const s = 2 ** e;
    const h: V = [s, s * hy, s * hz];
    const radius = type === "roundedBox" ? s * 2 ** -10 : 0;
    const tilt = type === "aabb" ? 0 : Math.sign(k) * 2 ** -Math.abs(k);
    const q = [0, 0, Math.sin(tilt / 2), Math.cos(tilt / 2)];
    const m: V = [0, -Math.cos(phi), Math.sin(phi)];
    const off = radius + g * s;
    // The edge at y = −hy, z = +hz along x; the segment from 0.5·s beyond −hx to past its end.
    const y = -h[1] + off * m[1];
    const z = h[2] + off * m[2];
    const c: V = [-h[0] + past * s, y, z];
    const a: V = course === "along" ? [-h[0] - s / 2, y, z] : [c[0] - s * 2 ** -15, y, z + s / 2];
    const mid: V = add(a, scale([c[0] - a[0], c[1] - a[1], c[2] - a[2]], 0.999975));
    const b: V =
      third === "collinear"
        ? mid
        : third === "ulp"
          ? [mid[0], mid[1] + Math.abs(mid[1]) * EPS, mid[2]]
          : [mid[0], mid[1] + s * 2 ** -26, mid[2] - s * 2 ** -26];
    const box: J =
      type === "aabb"
        ? { type, min: scale(h, -1), max: h }
        : type === "box"
          ? { type, center: [0, 0, 0], halfExtents: h, rotation: q }
          : { type, center: [0, 0, 0], halfExtents: h, radius, rotation: q };
    return {
      box,
      triangle: { type: "triangle", a, b, c } as J,
      pair: `${type}-triangle`,
      offset: exactOffset(ou, Math.min(1e9, om * s * 1e4)),
      prediction: Math.max(0, g * s) + s * 2 ** -20,
    };
  });

describe("issue 16: properties of degenerate triangles against capsules and boxes", () => {
  it("property: a point triangle against a capsule, both orders: the exact point–segment distance, the normal achieving it, the fuzzer's checks", () => {
    fc.assert(
      fc.property(pointCapsuleArb, (k) => {
        const sc0 = { ...offsetScenario(k.capsule, k.point, k.offset), prediction: k.prediction };
        const la = sc0.localA as J;
        const lb = sc0.localB as J;
        const exact = pointSegmentGap(lb.a as V, la.a as V, la.b as V, la.radius as number);
        for (const sc of bothOrders(sc0)) {
          const r = contactOf(sc);
          if (!r) return false;
          const tol = bar(sc, r.distance);
          if (!(Math.abs(r.distance - exact) <= tol)) return false;
          if (!(normalMiss(sc, r) <= tol)) return false;
        }
        return replayScenario(sc0, "capsule-triangle", { facing: true }).length === 0;
      }),
      { numRuns: 200, seed: 35 },
    );
  });

  it("property: a segment or sliver triangle along a box's, an aabb's or a rounded box's edge, both orders: the normal achieves the depth or gap, the fuzzer's checks", () => {
    fc.assert(
      fc.property(segmentEdgeArb, (k) => {
        const sc0 = { ...offsetScenario(k.box, k.triangle, k.offset), prediction: k.prediction };
        for (const sc of bothOrders(sc0)) {
          const r = contactOf(sc);
          if (!r) continue;
          if (!(normalMiss(sc, r) <= bar(sc, r.distance))) return false;
        }
        return replayScenario(sc0, k.pair, { facing: true }).length === 0;
      }),
      { numRuns: 400, seed: 36 },
    );
  });
});
