import { describe, expect, it } from "vitest";
import { makePolygon } from "../../src/dim2/shapes.js";
import { CollideError } from "../../src/errors.js";
import { answerQuery2D } from "../../src/io/query-2d.js";

function q(line: object): unknown {
  return answerQuery2D({ dim: 2, ...line });
}

function code(line: object): string {
  try {
    q(line);
  } catch (e) {
    if (e instanceof CollideError) return `${e.code} ${e.message}`;
    throw e;
  }
  return "ok";
}

const circle = (x: number, y: number, r: number) => ({ type: "circle", center: [x, y], radius: r });

describe("collide query, dim 2", () => {
  it("answers every op with the 3D field names and [x, y] vectors", () => {
    expect(q({ op: "intersects", a: circle(0, 0, 1), b: circle(2, 0, 1) })).toEqual({
      intersects: true,
    });
    expect(q({ op: "distance", a: circle(0, 0, 1), b: circle(4, 0, 1) })).toEqual({
      distance: 2,
      pointA: [1, 0],
      pointB: [3, 0],
    });
    expect(
      q({ op: "contact", a: { type: "rect", min: [0, 0], max: [2, 2] }, b: circle(3, 1, 1.5) }),
    ).toEqual({ distance: -0.5, normal: [1, 0], pointA: [2, 1], pointB: [1.5, 1] });
    expect(q({ op: "contact", a: circle(0, 0, 1), b: circle(5, 0, 1) })).toBeNull();
    const m = q({
      op: "manifold",
      a: { type: "rect", min: [-5, -1], max: [5, 0] },
      b: { type: "orect", center: [0, 0.4], halfExtents: [0.5, 0.5], angle: 0 },
    }) as { normal: number[]; points: unknown[] };
    expect(m.normal).toEqual([0, 1]);
    expect(m.points).toHaveLength(2);
    expect(
      q({
        op: "raycast",
        shape: { type: "segment", a: [1, -1], b: [1, 1] },
        origin: [0, 0],
        direction: [2, 0],
        maxToi: 1,
      }),
    ).toEqual({ toi: 0.5, point: [1, 0], normal: [-1, 0] });
    expect(
      q({
        op: "projectPoint",
        shape: { type: "capsule", a: [0, 0], b: [2, 0], radius: 1 },
        point: [1, 3],
      }),
    ).toEqual({ point: [1, 1], distance: 2, inside: false });
    const cast = q({
      op: "castShapes",
      a: circle(0, 0, 1),
      velocityA: [1, 0],
      b: {
        type: "polygon",
        points: [
          [5, -1],
          [7, -1],
          [6, 1],
        ],
      },
      velocityB: [0, 0],
      maxToi: 10,
    }) as { toi: number; normal: number[] };
    // Tangent to the edge (5, −1)–(6, 1): (−2(t − 5) + 1)/√5 = 1.
    expect(cast.toi).toBeCloseTo((11 - Math.sqrt(5)) / 2, 9);
    expect(cast.normal[0]).toBeCloseTo(2 / Math.sqrt(5), 9);
    expect(
      q({
        op: "pairs",
        shapes: [
          circle(0, 0, 1),
          circle(2, 0, 1),
          circle(10, 0, 1),
          { type: "segment", a: [9, 0], b: [11, 0] },
        ],
        broadphase: "grid",
      }),
    ).toEqual({
      pairs: [
        [0, 1],
        [2, 3],
      ],
    });
  });

  it("rejects bad lines naming the field and the value", () => {
    expect(code({ op: "intersects", a: circle(0, 0, 1), b: circle(0, 0, 1), extra: 1 })).toMatch(
      /^unknown_field unknown field extra/,
    );
    expect(code({ op: "intersects", a: circle(0, 0, 1) })).toMatch(
      /^missing_field missing field b/,
    );
    expect(code({ op: "intersects", a: circle(0, 0, -1), b: circle(0, 0, 1) })).toMatch(
      /^invalid_value a\.radius must be > 0 \(got -1\)/,
    );
    expect(
      code({
        op: "intersects",
        a: { type: "sphere", center: [0, 0, 0], radius: 1 },
        b: circle(0, 0, 1),
      }),
    ).toMatch(/^invalid_value a\.type/);
    expect(
      code({
        op: "intersects",
        a: { type: "circle", center: [0, 0, 0], radius: 1 },
        b: circle(0, 0, 1),
      }),
    ).toMatch(/^invalid_value a\.center/);
    expect(
      code({
        op: "intersects",
        a: {
          type: "polygon",
          points: [
            [0, 0],
            [2, 0],
            [1, 0.1],
            [1, 2],
          ],
        },
        b: circle(0, 0, 1),
      }),
    ).toMatch(/^invalid_value a\.points must be convex/);
    expect(
      code({
        op: "intersects",
        a: {
          type: "polygon",
          points: [
            [0, 0],
            [1, 0],
            [1, 0],
          ],
        },
        b: circle(0, 0, 1),
      }),
    ).toMatch(/^invalid_value a\.points\[2\] repeats a\.points\[1\]/);
    expect(
      code({
        op: "intersects",
        a: {
          type: "polygon",
          points: [
            [0, 0],
            [1, 1],
            [2, 2],
          ],
        },
        b: circle(0, 0, 1),
      }),
    ).toMatch(/at least 3 non-collinear points/);
    expect(code({ op: "contact", a: circle(0, 0, 1), b: circle(0, 0, 1), prediction: -1 })).toMatch(
      /^invalid_value prediction/,
    );
    expect(code({ op: "volume", a: circle(0, 0, 1), b: circle(0, 0, 1) })).toMatch(
      /^unsupported_pair/,
    );
  });

  it("polygons are stored counter-clockwise whatever the winding, collinear points dropped", () => {
    const cw = makePolygon([
      { x: 0, y: 0 },
      { x: 0, y: 1 },
      { x: 0.5, y: 1 },
      { x: 1, y: 1 },
      { x: 1, y: 0 },
    ]);
    expect(cw.core.count).toBe(4);
    expect(Array.from(cw.core.verts)).toEqual([1, 0, 1, 1, 0, 1, 0, 0]);
  });
});
