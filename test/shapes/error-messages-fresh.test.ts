/**
 * Error messages a fresh user read (each hand-checked): the field is a name, never a value, and
 * the value is printed as the input gave it.
 */
import { describe, expect, it } from "vitest";
import { makePolygon } from "../../src/dim2/shapes.js";
import { CollideError } from "../../src/errors.js";
import { answerQuery2D } from "../../src/io/query-2d.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";

function thrown(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    if (e instanceof CollideError) return e;
    throw e;
  }
  throw new Error("expected a CollideError");
}

describe("fresh users' error messages", () => {
  it("makeHeightfield(3, 3, heights) names the field `heightfield`, not the value 3", () => {
    const call = makeHeightfield as unknown as (...args: unknown[]) => unknown;
    const e = thrown(() => call(3, 3, new Float64Array(9)));
    expect(e.field).toBe("heightfield");
    expect(e.value).toBe(3);
    expect(e.message).toMatch(/^heightfield must be one object \{ rows, cols, heights/);
    expect(e.message).not.toMatch(/^3 /);
    const e1 = thrown(() => call(3));
    expect(e1.field).toBe("heightfield");
    expect(e1.message).toMatch(/rows, cols, heights/);
  });

  it("a 2D polygon's error prints the points as given: [x, y] pairs in a query, {x, y} in the API", () => {
    const a = thrown(() =>
      answerQuery2D({
        op: "intersects",
        dim: 2,
        a: {
          type: "polygon",
          points: [
            [0, 0],
            [1, 0],
            [2, 0],
          ],
        },
        b: { type: "circle", radius: 1 },
      }),
    );
    expect(a.value).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(a.message).toBe(
      "a.points must have at least 3 non-collinear points (got [[0,0],[1,0],[2,0]])",
    );
    const r = thrown(() =>
      answerQuery2D({
        op: "intersects",
        dim: 2,
        a: {
          type: "polygon",
          points: [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        },
        b: { type: "circle", radius: 1 },
      }),
    );
    expect(r.message).toBe("a.points[2] repeats a.points[0] (got [0,0])");
    const e = thrown(() =>
      makePolygon([
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 2, y: 0 },
      ]),
    );
    expect(e.message).toBe(
      'points must have at least 3 non-collinear points (got [{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}])',
    );
    // The API takes {x, y}; its message says so (it said "[x, y]" and refused [x, y]).
    const v = thrown(() => makePolygon([[0, 0] as never, [1, 0] as never, [0, 1] as never]));
    expect(v.field).toBe("points[0]");
    expect(v.message).toBe("points[0] must be a finite vector {x, y} (got [0,0])");
  });
});
