/**
 * Cylinder–cylinder with parallel axes in closed form (src/narrowphase/cylinder-cylinder.ts,
 * issue 16 must-have 1): values derived by hand, and random parallel pairs (B turned about its
 * axis, either sense, at any offset) against the fuzzer's independent oracles (certified distance
 * bounds, least overlap over candidate axes, the shapes' own signed distances) at the bars of
 * docs/FORMATS.md; contact(B, A) must be contact(A, B) flipped. Crossing axes still go to the
 * general narrow phase.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { cylinderAxesParallel } from "../../src/narrowphase/cylinder-cylinder.js";
import { overlapPieces, pairTruth, surfaceDistance } from "../fuzz/oracle-pairs.js";
import { oshape, type V } from "../fuzz/oracle-shapes.js";
import { quatMul, rotateVec } from "../support/quat.js";

type Vec = [number, number, number];
interface C {
  distance: number;
  normal: Vec;
  pointA: Vec;
  pointB: Vec;
}
const q = (o: object) => answerQuery(o) as unknown;
const contact = (a: object, b: object, prediction = 1e300) =>
  q({ op: "contact", a, b, prediction }) as C | null;
const intersects = (a: object, b: object) =>
  (q({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
const distance = (a: object, b: object) =>
  q({ op: "distance", a, b }) as { distance: number; pointA: Vec; pointB: Vec };
const z = (v: Vec) => v.map((x) => x + 0);

const A = { type: "cylinder", center: [0, 0, 0], halfHeight: 1, radius: 2 };

describe("parallel cylinders, hand-derived", () => {
  it("side against side: gap ρ − rA − rB, witnesses at the middle of the common height", () => {
    // B: r 1, hh 1 at (3.5, 0.5, 0): gap 0.5 along +x; heights [−1, 1] ∩ [−0.5, 1.5] = [−0.5, 1].
    const B = { type: "cylinder", center: [3.5, 0.5, 0], halfHeight: 1, radius: 1 };
    const c = contact(A, B) as C;
    expect(c.distance).toBe(0.5);
    expect(z(c.normal)).toEqual([1, 0, 0]);
    expect(c.pointA).toEqual([2, 0.25, 0]);
    expect(c.pointB).toEqual([2.5, 0.25, 0]);
    expect(contact(A, B, 0)).toBeNull();
    expect(intersects(A, B)).toBe(false);
    // Moved in by 1: overlap 0.5 across the sides.
    const B2 = { ...B, center: [2.5, 0.5, 0] };
    const d = contact(A, B2) as C;
    expect(d.distance).toBe(-0.5);
    expect(d.pointA).toEqual([2, 0.25, 0]);
    expect(d.pointB).toEqual([1.5, 0.25, 0]);
  });

  it("cap on cap, B upside down: depth H − |y|, witnesses in the middle of the common disc", () => {
    // B turned 180° about x (its axis −y: the same set); y 1.75, hh 1: overlap 0.25 along +y.
    const B = {
      type: "cylinder",
      center: [1, 1.75, 0],
      halfHeight: 1,
      radius: 1,
      rotation: [1, 0, 0, 0],
    };
    const c = contact(A, B) as C;
    expect(c.distance).toBe(-0.25);
    expect(z(c.normal)).toEqual([0, 1, 0]);
    // Discs [−2, 2] and [0, 2] along x: middle 1.
    expect(c.pointA).toEqual([1, 1, 0]);
    expect(c.pointB).toEqual([1, 0.75, 0]);
  });

  it("rim against rim: the distance of (ρ − R, |y| − H)", () => {
    const B = { type: "cylinder", center: [0, 3, 5], halfHeight: 1, radius: 1 };
    const d = distance(A, B);
    expect(d.distance).toBe(Math.hypot(2, 1));
    expect(d.pointA).toEqual([0, 1, 2]);
    expect(d.pointB).toEqual([0, 2, 4]);
  });

  it("exactly touching is intersecting with distance 0 (side and cap)", () => {
    const side = { type: "cylinder", center: [0, 0.5, 3], halfHeight: 1, radius: 1 };
    expect(intersects(A, side)).toBe(true);
    expect(distance(A, side).distance).toBe(0);
    expect((contact(A, side, 0) as C).distance).toBe(0);
    const cap = {
      type: "cylinder",
      center: [0.5, 2, 0],
      halfHeight: 1,
      radius: 1,
      rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2],
    };
    expect(intersects(A, cap)).toBe(true);
    expect((contact(A, cap, 0) as C).distance).toBe(0);
    // 2^-40 further: apart by exactly that.
    const cap2 = { ...cap, center: [0.5, 2 + 2 ** -40, 0] };
    expect(intersects(A, cap2)).toBe(false);
    expect(distance(A, cap2).distance).toBe(2 ** -40);
  });

  it("a thin cylinder at the centre of a wide one leaves through the nearer cap, in both orders", () => {
    // A symmetric tie between the two caps would let the orders pick opposite ones: here the
    // small one is off centre, so the top cap is nearer by 0.5.
    const big = {
      type: "cylinder",
      center: [0, 0, 0],
      halfHeight: 1,
      radius: 10,
      rotation: [0, 0.6, 0, 0.8],
    };
    const small = { type: "cylinder", center: [0, 0.25, 0], halfHeight: 0.5, radius: 0.5 };
    const ab = contact(big, small) as C;
    const ba = contact(small, big) as C;
    expect(ab.distance).toBe(-1.25);
    expect(z(ab.normal)).toEqual([0, 1, 0]);
    expect(ba.distance).toBe(-1.25);
    expect(z(ba.normal)).toEqual([0, -1, 0]);
  });

  it("only (near-)parallel axes take the closed form", () => {
    const t = { x: 0, y: 0, z: 0 };
    expect(cylinderAxesParallel({ translation: t, rotation: { x: 1, y: 0, z: 0, w: 0 } })).toBe(
      true,
    );
    expect(cylinderAxesParallel({ translation: t, rotation: { x: 0, y: 0.6, z: 0, w: 0.8 } })).toBe(
      true,
    );
    const s = Math.sin(1e-6);
    const c = Math.cos(1e-6);
    expect(cylinderAxesParallel({ translation: t, rotation: { x: s, y: 0, z: 0, w: c } })).toBe(
      false,
    );
  });
});

describe("parallel cylinders against the independent oracle", () => {
  const num = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true });
  it("distance within the certified bounds, depth achieved by the normal and no deeper than the least overlap, points on the shapes, flips", () => {
    fc.assert(
      fc.property(
        num(0.01, 10),
        num(0.01, 10),
        num(0.01, 10),
        num(0.01, 10),
        fc.tuple(num(-25, 25), num(-25, 25), num(-25, 25)),
        num(0, 2 * Math.PI),
        fc.boolean(),
        fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(0.1, 1)),
        fc.constantFrom(0, 1e6, -3e8),
        (hA, rA, hB, rB, c, turn, upsideDown, qa, off) => {
          // A common rotation of both (random), B turned about its axis and maybe flipped.
          const l = Math.hypot(...qa);
          const R: [number, number, number, number] = [qa[0] / l, qa[1] / l, qa[2] / l, qa[3] / l];
          const turnQ: [number, number, number, number] = upsideDown
            ? [Math.cos(turn / 2), 0, Math.sin(turn / 2), 0]
            : [0, Math.sin(turn / 2), 0, Math.cos(turn / 2)];
          const qB = quatMul(R, turnQ);
          const cw = rotateVec(R, c as Vec).map((x) => x + off) as Vec;
          const a = {
            type: "cylinder",
            center: [off, off, off],
            halfHeight: hA,
            radius: rA,
            rotation: R,
          };
          const b = { type: "cylinder", center: cw, halfHeight: hB, radius: rB, rotation: qB };
          const OA = oshape(a);
          const OB = oshape(b);
          const size = Math.max(hA, rA, hB, rB, Math.hypot(...c));
          const tol = 1e-9 * size + 64 * 2 ** -52 * (size + Math.abs(off) * 2);
          const ct = contact(a, b) as C;
          const T = pairTruth(OA, OB, [ct.pointA as V, ct.pointB as V], true);
          expect(surfaceDistance(OA, ct.pointA as V)).toBeLessThanOrEqual(tol);
          expect(surfaceDistance(OB, ct.pointB as V)).toBeLessThanOrEqual(tol);
          if (ct.distance > 0) {
            expect(ct.distance).toBeLessThanOrEqual(T.upper + tol);
            expect(ct.distance).toBeGreaterThanOrEqual(T.lower - tol);
          } else {
            const ach = overlapPieces(OA.pieces[0], OB.pieces[0], ct.normal as V);
            expect(Math.abs(ach + ct.distance)).toBeLessThanOrEqual(tol);
            expect(-ct.distance).toBeLessThanOrEqual(T.depth + tol);
          }
          const ba = contact(b, a) as C;
          expect(Math.abs(ba.distance - ct.distance)).toBeLessThanOrEqual(tol);
          expect(Math.hypot(...ba.normal.map((x, i) => x + ct.normal[i]))).toBeLessThanOrEqual(
            1e-12,
          );
          expect(intersects(a, b)).toBe(ct.distance <= 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
