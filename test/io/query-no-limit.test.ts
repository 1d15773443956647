/**
 * A `collide query` line without `maxToi` casts without a time limit (JSON has no Infinity), in
 * 3D and 2D; a negative one is still refused. Hand-derived oracle: a unit sphere (circle) at
 * x = 1e6 moving at −1 per unit time toward a unit box at the origin first touches it when its
 * centre reaches x = 2, at t = 1e6 − 2 (every number exact); a ray from x = 1e6 along −x enters
 * the box's face x = 1 at toi 1e6 − 1. Against a half-space y ≤ 0, a unit sphere at height h
 * falling at 1 touches at t = h − 1; one moving sideways or up never does (null), and one already
 * overlapping answers 0; two opposite half-spaces y ≤ 0 and y ≥ 3 closing at 1 meet at t = 3.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";

const box = { type: "aabb", min: [-1, -1, -1], max: [1, 1, 1] };
const far = { type: "sphere", center: [1e6, 0, 0], radius: 1 };

describe("maxToi left out: no limit", () => {
  it("castShapes in 3D", () => {
    const r = answerQuery({
      op: "castShapes",
      a: far,
      velocityA: [-1, 0, 0],
      b: box,
      velocityB: [0, 0, 0],
    }) as {
      toi: number;
    };
    // Within the cast's bar (FORMATS.md: the advancement stops within its tolerance).
    expect(Math.abs(r.toi - (1e6 - 2))).toBeLessThan(1e-9);
  });
  it("raycast in 3D", () => {
    const r = answerQuery({
      op: "raycast",
      shape: box,
      origin: [1e6, 0, 0],
      direction: [-1, 0, 0],
    }) as { toi: number };
    expect(r.toi).toBe(1e6 - 1);
  });
  it("castShapes and raycast in 2D", () => {
    const circle = { type: "circle", center: [1e6, 0], radius: 1 };
    const rect = { type: "rect", min: [-1, -1], max: [1, 1] };
    const c = answerQuery({
      dim: 2,
      op: "castShapes",
      a: circle,
      velocityA: [-1, 0],
      b: rect,
      velocityB: [0, 0],
    }) as {
      toi: number;
    };
    expect(Math.abs(c.toi - (1e6 - 2))).toBeLessThan(1e-9);
    const r = answerQuery({
      dim: 2,
      op: "raycast",
      shape: rect,
      origin: [1e6, 0],
      direction: [-1, 0],
    }) as { toi: number };
    expect(r.toi).toBe(1e6 - 1);
  });
  it("castShapes with a half-space, both orders", () => {
    const hs = { type: "halfspace", normal: [0, 1, 0], offset: 0 };
    const cast = (y: number, vy: number) => {
      const s = { type: "sphere", center: [0, y, 0], radius: 1 };
      const ab = answerQuery({
        op: "castShapes",
        a: hs,
        velocityA: [0, 0, 0],
        b: s,
        velocityB: [0.3, vy, 0],
      });
      const ba = answerQuery({
        op: "castShapes",
        a: s,
        velocityA: [0.3, vy, 0],
        b: hs,
        velocityB: [0, 0, 0],
      });
      return [ab, ba].map((r) => (r === null ? null : (r as { toi: number }).toi));
    };
    expect(cast(5, -1)).toEqual([4, 4]);
    expect(cast(5, 0)).toEqual([null, null]);
    expect(cast(5, 1)).toEqual([null, null]);
    expect(cast(0.5, 1)).toEqual([0, 0]);
    expect(cast(1e9, -1)).toEqual([1e9 - 1, 1e9 - 1]);
    const up = { type: "halfspace", normal: [0, -1, 0], offset: -3 };
    const two = (vy: number) =>
      answerQuery({
        op: "castShapes",
        a: hs,
        velocityA: [0, 0, 0],
        b: up,
        velocityB: [0, vy, 0],
      }) as { toi: number } | null;
    expect(two(-1)?.toi).toBe(3);
    expect(two(1)).toBeNull();
  });
  it("a negative maxToi is still refused, naming the field", () => {
    const q = {
      op: "castShapes",
      a: far,
      velocityA: [-1, 0, 0],
      b: box,
      velocityB: [0, 0, 0],
      maxToi: -1,
    };
    expect(() => answerQuery(q)).toThrow(CollideError);
    expect(() => answerQuery(q)).toThrow(/maxToi/);
  });
});
