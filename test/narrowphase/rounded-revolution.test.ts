/**
 * Sphere and capsule against cylinder and cone (src/narrowphase/rounded-revolution.ts): the
 * closed forms are checked against values derived by hand and, on random and adversarial poses,
 * against the fuzzer's independent oracles (test/fuzz/oracle-*.ts: certified distance bounds,
 * least overlap over candidate axes, the shapes' own signed distances), at the bars of
 * docs/FORMATS.md ("Accuracy"); contact(B, A) must be contact(A, B) flipped.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { pairTruth, shapeSigned, surfaceDistance } from "../fuzz/oracle-pairs.js";
import { oshape, type V } from "../fuzz/oracle-shapes.js";

type Vec = [number, number, number];
interface C {
  distance: number;
  normal: Vec;
  pointA: Vec;
  pointB: Vec;
}
const q = (o: object) => answerQuery(o) as unknown;
const contact = (a: object, b: object) => q({ op: "contact", a, b, prediction: 1e300 }) as C;
const close = (x: number, y: number, tol: number) =>
  expect(Math.abs(x - y)).toBeLessThanOrEqual(tol);

describe("hand-derived values", () => {
  it("issue 16's capsule on a cylinder's cap rim touches at (0, 1, −6)", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 1, radius: 6 };
    const cap = { type: "capsule", a: [0, 1, -10], b: [6, 1, -10], radius: 4 };
    expect((q({ op: "intersects", a: cyl, b: cap }) as { intersects: boolean }).intersects).toBe(
      true,
    );
    const c = contact(cap, cyl);
    expect(c.distance).toBe(0);
    expect(c.normal).toEqual([0, 0, 1]);
    expect(c.pointA).toEqual([0, 1, -6]);
    expect(c.pointB).toEqual([0, 1, -6]);
    // Moved away by 2^-30: a gap of exactly that.
    const cap2 = { ...cap, a: [0, 1, -10 - 2 ** -30], b: [6, 1, -10 - 2 ** -30] };
    expect((q({ op: "intersects", a: cyl, b: cap2 }) as { intersects: boolean }).intersects).toBe(
      false,
    );
    close(contact(cap2, cyl).distance, 2 ** -30, 1e-15);
  });

  it("sphere inside a cylinder leaves through the nearer of side and cap", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 12, radius: 9 };
    // Centre 2 below the top cap, 7 from the side: depth 2 + r.
    const c = contact({ type: "sphere", center: [1, 10, 0], radius: 0.5 }, cyl);
    expect(c.distance).toBe(-2.5);
    expect(c.normal.map((x) => x + 0)).toEqual([0, -1, 0]);
    expect(c.pointB).toEqual([1, 12, 0]);
    expect(c.pointA).toEqual([1, 9.5, 0]);
    // Centre 1 from the side (x = 8), 6 from the caps: depth 1 + r along −x.
    const s = contact({ type: "sphere", center: [8, 6, 0], radius: 0.5 }, cyl);
    expect(s.distance).toBe(-1.5);
    expect(s.normal.map((x) => x + 0)).toEqual([-1, 0, 0]);
    expect(s.pointB).toEqual([9, 6, 0]);
  });

  it("sphere above a cone's apex, beside its slant, and inside it", () => {
    const cone = { type: "cone", center: [0, 0, 0], halfHeight: 1, radius: 1 };
    const d = q({ op: "distance", a: { type: "sphere", center: [0, 3, 0], radius: 1 }, b: cone });
    expect(d).toEqual({ distance: 1, pointA: [0, 2, 0], pointB: [0, 1, 0] });
    // The slant through (0, 1) and (1, −1): outward normal (2, 1)/√5. A centre 3 along it
    // from the slant's midpoint (0.5, 0).
    const n: Vec = [2 / Math.sqrt(5), 1 / Math.sqrt(5), 0];
    const c = contact({ type: "sphere", center: [0.5 + 3 * n[0], 3 * n[1], 0], radius: 1 }, cone);
    close(c.distance, 2, 1e-15);
    close(c.normal[0], -n[0], 1e-15);
    close(c.normal[1], -n[1], 1e-15);
    close(c.pointB[0], 0.5, 1e-15);
    close(c.pointB[1], 0, 1e-15);
    // Centre (0.2, 0.5) inside: 0.2·2/√5 − 0.5/√5 = −0.1/√5 from the slant, 1.5 from the base.
    const i = contact({ type: "sphere", center: [0, 0.5, 0.2], radius: 1 }, cone);
    close(i.distance, -(1 + 0.1 / Math.sqrt(5)), 1e-15);
    close(i.pointB[1], 0.52, 1e-15);
    close(i.pointB[2], 0.24, 1e-15);
  });

  it("capsule parallel to a cylinder's side: distance and a two-point manifold", () => {
    const cyl = { type: "cylinder", center: [0, 0, 0], halfHeight: 2, radius: 1 };
    // The segment 0.25 outside the side, radius 0.5: overlap 0.25 along −x.
    const cap = { type: "capsule", a: [1.25, -1, 0], b: [1.25, 1, 0], radius: 0.5 };
    const c = contact(cap, cyl);
    expect(c.distance).toBe(-0.25);
    expect(c.normal.map((x) => x + 0)).toEqual([-1, 0, 0]);
    expect(c.pointB[0]).toBe(1);
    const m = q({ op: "manifold", a: cap, b: cyl }) as { points: unknown[] };
    expect(m.points.length).toBe(2);
  });
});

const unitQ = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .chain(() =>
    fc
      .tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
      )
      .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
      .map(([x, y, z, w]) => {
        const l = Math.hypot(x, y, z, w);
        return [x / l, y / l, z / l, w / l];
      }),
  );
const size = fc.double({ min: 0.05, max: 20, noNaN: true });
const coord = fc.double({ min: -30, max: 30, noNaN: true });
const point = fc.tuple(coord, coord, coord);
const solid = fc
  .tuple(
    fc.constantFrom("cylinder", "cone"),
    point,
    size,
    size,
    unitQ,
    fc.double({ min: -8, max: 8, noNaN: true }),
  )
  .map(([type, center, halfHeight, radius, rotation, s]) => ({
    type,
    center: center.map((x) => x * 10 ** (s / 8)),
    halfHeight,
    radius,
    rotation,
  }));
const rounded = fc.oneof(
  fc.tuple(point, size).map(([center, radius]) => ({ type: "sphere", center, radius })),
  fc
    .tuple(point, point, size)
    .map(([a, b, radius]) => ({ type: "capsule", a, b: a.map((x, i) => x + b[i] / 3), radius })),
);

describe("against the independent oracles", () => {
  it("distance, depth, normal, witnesses on their shapes, the flip", () => {
    fc.assert(
      fc.property(rounded, solid, (r, s) => {
        const A = oshape(r);
        const B = oshape(s);
        const truth = pairTruth(A, B, [], true);
        const c = contact(r, s);
        const f = contact(s, r);
        const L = Math.max(
          A.radius,
          B.radius,
          Math.hypot(...(B.center.map((x, i) => x - A.center[i]) as V)),
        );
        const tol = 1e-9 * L;
        // Flip: same distance, negated normal, exchanged points. A capsule whose segment enters
        // the solid is answered by GJK/EPA (not a closed form): its normal may differ on a tie
        // (a segment along a cone's axis), so only its distance is compared.
        close(f.distance, c.distance, 64 * Number.EPSILON * L);
        const closedForm = r.type === "sphere" || c.distance >= -(r as { radius: number }).radius;
        for (let i = 0; closedForm && i < 3; i++) {
          close(f.normal[i], -c.normal[i], 1e-12);
          close(f.pointA[i], c.pointB[i], 64 * Number.EPSILON * L);
        }
        // Witnesses on their shapes, (pointB − pointA)·n = distance; the GJK/EPA answer of a
        // segment inside the solid is held to 1e-6 of the pair's size (its normal's refinement).
        const tolW = closedForm ? tol : 1e-6 * L;
        expect(surfaceDistance(A, c.pointA as V)).toBeLessThanOrEqual(tolW);
        expect(surfaceDistance(B, c.pointB as V)).toBeLessThanOrEqual(tolW);
        const proj =
          (c.pointB[0] - c.pointA[0]) * c.normal[0] +
          (c.pointB[1] - c.pointA[1]) * c.normal[1] +
          (c.pointB[2] - c.pointA[2]) * c.normal[2];
        close(proj, c.distance, tolW);
        if (closedForm && c.distance < 0) {
          // The normal achieves the depth: the overlap along it (oracle supports) is the depth.
          const n = c.normal as V;
          const dotN = (p: readonly number[]) => p[0] * n[0] + p[1] * n[1] + p[2] * n[2];
          const rr = r as { radius: number; center?: V; a?: V; b?: V };
          const hA =
            (rr.center ? dotN(rr.center) : Math.max(dotN(rr.a as V), dotN(rr.b as V))) + rr.radius;
          const hB = -dotN(B.pieces[0].support([-n[0], -n[1], -n[2]]));
          close(hA + hB, -c.distance, 1e-6 * -c.distance + 64 * Number.EPSILON * L);
        }
        if (c.distance > 0) {
          expect(c.distance).toBeGreaterThanOrEqual(truth.lower - tol);
          expect(c.distance).toBeLessThanOrEqual(truth.upper + tol);
        } else {
          // Never deeper than the least overlap the oracle found (an upper bound on the depth).
          expect(-c.distance).toBeLessThanOrEqual(truth.depth + 1e-6 * truth.depth + tol);
          const inter = q({ op: "intersects", a: r, b: s }) as { intersects: boolean };
          expect(inter.intersects).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("a sphere's depth is its radius plus its centre's depth (the oracle's signed distance)", () => {
    fc.assert(
      fc.property(solid, point, size, (s, p, radius) => {
        const center = p.map((x, i) => s.center[i] + x / 10) as V;
        const r = { type: "sphere", center, radius };
        const c = contact(r, s);
        const B = oshape(s);
        const expected = shapeSigned(B, center) - radius;
        const L = Math.max(radius, B.radius, Math.hypot(...(s.center as Vec)));
        close(c.distance, expected, 1e-9 * Math.abs(expected) + 64 * Number.EPSILON * L);
        // The normal achieves the depth: the overlap along it is the reported one.
        if (c.distance < 0) {
          const n = c.normal as V;
          const hA = center[0] * n[0] + center[1] * n[1] + center[2] * n[2] + radius;
          const sB = B.pieces[0].support([-n[0], -n[1], -n[2]]);
          const hB = -(sB[0] * n[0] + sB[1] * n[1] + sB[2] * n[2]);
          close(hA + hB, -c.distance, 1e-9 * -c.distance + 64 * Number.EPSILON * L);
        }
      }),
      { numRuns: 300 },
    );
  });
});
