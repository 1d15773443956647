/**
 * A capsule whose segment lies level over a cylinder's cap (perpendicular to the axis): every
 * point of the segment is nearest, and the segment search took one end in one argument order and
 * the other end in the other (the frame change rounds differently; fast-check seed 2 of
 * rounded-revolution.test.ts: a capsule 4.2e-7 long over a cap at 30, witnesses 4.2e-7 apart).
 * The tie rule answers with the segment's midpoint in both orders. Hand-derived: a cylinder of
 * half height 1, radius 2, turned 45° about x (axis u = (0, cos 45°, sin 45°)); a capsule of
 * radius 0.5 whose segment runs ±0.5 along x through 3u + 0.25·x̂: distance 3 − 1 − 0.5 = 1.5,
 * normal −u, pointA 2.5u + 0.25·x̂ (the midpoint's lowest point), pointB u + 0.25·x̂.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type C = { distance: number; normal: number[]; pointA: number[]; pointB: number[] };
const contact = (a: object, b: object) =>
  answerQuery({ op: "contact", a, b, prediction: 1e300 }) as C;

describe("capsule level over a cylinder's cap: one witness in both orders", () => {
  it("hand-derived: distance 1.5, witnesses at the segment's middle", () => {
    const c45 = Math.SQRT1_2;
    const u = [0, c45, c45];
    const at = (s: number, x: number) => [x, s * u[1], s * u[2]];
    const cap = { type: "capsule", a: at(3, -0.25), b: at(3, 0.75), radius: 0.5 };
    const cyl = {
      type: "cylinder",
      center: [0, 0, 0],
      halfHeight: 1,
      radius: 2,
      rotation: [Math.sin(Math.PI / 8), 0, 0, Math.cos(Math.PI / 8)],
    };
    const c = contact(cap, cyl);
    const f = contact(cyl, cap);
    expect(c.distance).toBeCloseTo(1.5, 12);
    for (let i = 0; i < 3; i++) {
      expect(c.normal[i]).toBeCloseTo(-u[i], 12);
      expect(c.pointA[i]).toBeCloseTo(at(2.5, 0.25)[i], 12);
      expect(c.pointB[i]).toBeCloseTo(at(1, 0.25)[i], 12);
      expect(Math.abs(f.pointA[i] - c.pointB[i])).toBeLessThanOrEqual(64 * Number.EPSILON * 3);
      expect(Math.abs(f.pointB[i] - c.pointA[i])).toBeLessThanOrEqual(64 * Number.EPSILON * 3);
    }
  });

  it("fast-check seed 2's counterexample: the two orders' witnesses agree", () => {
    const cap = {
      type: "capsule",
      a: [-5.96741892610713e-151, 1.6206215880756061e-52, 29.999999999999957],
      b: [-5.96741892610713e-151, -4.159727744065305e-7, 29.999999999999957],
      radius: 0.8473553978637589,
    };
    const cyl = {
      type: "cylinder",
      center: [-2.2552604512325037e-123, -4.842333590227157e-149, 6.4e-323],
      halfHeight: 0.05,
      radius: 0.05002216978899659,
      rotation: [6.247657455041121e-178, -0.7071067811865474, Math.SQRT1_2, 9.176302653898683e-284],
    };
    const c = contact(cap, cyl);
    const f = contact(cyl, cap);
    // The segment's middle: y = −4.16e-7 / 2 on both witnesses; 30 − 0.05 − 0.847 apart.
    expect(c.distance).toBeCloseTo(30 - 0.05 - 0.8473553978637589, 12);
    expect(Math.abs(c.pointA[1] + 4.159727744065305e-7 / 2)).toBeLessThanOrEqual(
      64 * Number.EPSILON * 30,
    );
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(f.pointA[i] - c.pointB[i])).toBeLessThanOrEqual(64 * Number.EPSILON * 30);
      expect(Math.abs(f.pointB[i] - c.pointA[i])).toBeLessThanOrEqual(64 * Number.EPSILON * 30);
    }
  });
});
