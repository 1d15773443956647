/**
 * Issue 16, class 8 and must-have 2 ("one truth across operations"): castShapes answers toi 0
 * exactly when `intersects` is true at time 0 — never for a gap that intersects sees, and never
 * a positive toi for shapes already touching. Near-touching pairs of every curved and flat
 * convex type are built by moving B along the closest-point direction by the distance plus or
 * minus a few ulps, so the pair sits where rounding decides.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { unitQuatArrayOf } from "../fuzz/arbitraries.js";

type Vec = [number, number, number];
const q = (o: object) => answerQuery(o) as Record<string, unknown>;

const coord = fc.double({ min: -4, max: 4, noNaN: true });
const point = fc.tuple(coord, coord, coord);
const size = fc.double({ min: 0.1, max: 3, noNaN: true });
const rotation = unitQuatArrayOf(coord);
const shape = fc.oneof(
  fc.tuple(point, size).map(([center, radius]) => ({ type: "sphere", center, radius })),
  fc
    .tuple(point, size, size, size, rotation)
    .map(([center, x, y, z, r]) => ({ type: "box", center, halfExtents: [x, y, z], rotation: r })),
  fc
    .tuple(point, point, size)
    .map(([a, b, radius]) => ({ type: "capsule", a, b: a.map((x, i) => x + b[i] / 2), radius })),
  fc
    .tuple(fc.constantFrom("cylinder", "cone"), point, size, size, rotation)
    .map(([type, center, halfHeight, radius, r]) => ({
      type,
      center,
      halfHeight,
      radius,
      rotation: r,
    })),
);

/** The shape moved by `t` (JSON form). */
function moved(s: Record<string, unknown>, t: Vec): Record<string, unknown> {
  const add = (p: unknown) => (p as number[]).map((x, i) => x + t[i]);
  if (s.type === "capsule") return { ...s, a: add(s.a), b: add(s.b) };
  return { ...s, center: add(s.center) };
}

describe("castShapes and intersects agree at time 0", () => {
  it("toi 0 exactly when intersects, on near-touching pairs", () => {
    fc.assert(
      fc.property(shape, shape, fc.integer({ min: -6, max: 6 }), (a, b0, ulps) => {
        const d = q({ op: "distance", a, b: b0 }) as {
          distance: number;
          pointA: Vec;
          pointB: Vec;
        };
        if (!(d.distance > 0)) return;
        const u = d.pointB.map((x, i) => x - d.pointA[i]) as Vec;
        const l = Math.hypot(...u);
        if (!(l > 0)) return;
        // Move B back by the distance, give or take a few ulps of the coordinates.
        const back = d.distance + ulps * 2 ** -50;
        const b = moved(b0, u.map((x) => (-x / l) * back) as Vec);
        const inter = (q({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
        const toward = u.map((x) => -x / l);
        const hit = q({
          op: "castShapes",
          a,
          velocityA: [0, 0, 0],
          b,
          velocityB: toward,
          maxToi: 1,
        }) as { toi: number } | null;
        expect(hit).not.toBeNull();
        expect((hit as { toi: number }).toi === 0).toBe(inter);
      }),
      { numRuns: 300 },
    );
  });
});
