/**
 * Faults found by a fresh user attacking the command and the API (session of 2026-12-01), each
 * with the right value derived by hand.
 */
import { describe, expect, it } from "vitest";
import { answerQuery, answerQueryLine } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { makeSphere } from "../../src/shapes/sphere.js";

const sphere = (c: number[], r: number) => ({ type: "sphere", center: c, radius: r });

describe("fresh-user findings", () => {
  it("castShapes with a huge maxToi still finds toi 3 (the rounding tolerance followed maxToi)", () => {
    const r = answerQuery({
      op: "castShapes",
      a: sphere([0, 0, 0], 1),
      velocityA: [1, 0, 0],
      b: sphere([5, 0, 0], 1),
      velocityB: [0, 0, 0],
      maxToi: 1e14,
    }) as { toi: number };
    expect(r.toi).toBeCloseTo(3, 9);
  });

  it("manifold with a compound as B: normal from A, depth 0.5, the compound's position honoured", () => {
    const compound = (pos?: number[]) => ({
      type: "compound",
      children: [{ shape: sphere([0, 0, 0], 1) }],
      ...(pos ? { position: pos } : {}),
    });
    const m1 = answerQuery({ op: "manifold", a: sphere([1.5, 0, 0], 1), b: compound() }) as {
      normal: number[];
      points: { pointA: number[]; distance: number }[];
    };
    expect(m1.normal).toEqual([-1, 0, 0]);
    expect(m1.points[0].distance).toBeCloseTo(-0.5, 12);
    expect(m1.points[0].pointA[0]).toBeCloseTo(0.5, 12);
    const m2 = answerQuery({
      op: "manifold",
      a: { type: "halfspace", normal: [0, 1, 0], offset: 0 },
      b: compound([0, 0.5, 0]),
    }) as { points: { distance: number }[] };
    expect(m2.points[0].distance).toBeCloseTo(-0.5, 12);
    const m3 = answerQuery({ op: "manifold", a: compound(), b: compound([1.5, 0, 0]) }) as {
      normal: number[];
      points: { distance: number }[];
    };
    expect(m3.normal).toEqual([1, 0, 0]);
    expect(m3.points[0].distance).toBeCloseTo(-0.5, 12);
  });

  it("isometry.multiply is safe when out aliases an input", () => {
    const a = iso.create(vec3.create(1, 2, 3), { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 });
    const b = iso.create(vec3.create(-4, 0.5, 2));
    const want = iso.multiply(iso.identity(), a, b);
    const aliased = iso.multiply(a, a, b);
    expect(vec3.distance(aliased.translation, want.translation)).toBeLessThan(1e-14);
  });

  it("an answer that overflows is an error line, never null", () => {
    const line = JSON.stringify({
      op: "volume",
      a: sphere([0, 0, 0], 1e200),
      b: sphere([1e200, 0, 0], 1e200),
    });
    const r = answerQueryLine(line, 0);
    expect(r.failed).toBe(true);
    expect(JSON.parse(r.line).error.code).toBe("invalid_value");
  });

  it("a 2D ray with a zero direction is an error naming direction", () => {
    const r = answerQueryLine(
      JSON.stringify({
        dim: 2,
        op: "raycast",
        shape: { type: "circle", center: [0, 0], radius: 1 },
        origin: [3, 0],
        direction: [0, 0],
        maxToi: 10,
      }),
      0,
    );
    expect(r.failed).toBe(true);
    expect(JSON.parse(r.line).error.message).toContain("direction");
  });

  it("the TypeScript pair queries refuse NaN translations, non-unit rotations and negative predictions", () => {
    const s = makeSphere(1);
    const nan = {
      translation: { x: Number.NaN, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const fat = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 2 } };
    expect(() => distance(s, nan, s, iso.identity())).toThrow(/poseA\.translation/);
    expect(() => intersects(s, iso.identity(), s, fat)).toThrow(/poseB\.rotation/);
    expect(() => contact(s, iso.identity(), s, iso.identity(), -1)).toThrow(/prediction/);
    expect(() => intersects(null as never, iso.identity(), s, iso.identity())).toThrow(/\ba\b/);
  });
});
