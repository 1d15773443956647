/**
 * Findings of a new user (fresh16): error messages of `collide query` that did not say what was
 * wrong or quoted a value the line did not hold. A mesh `scale` of two numbers gave zod's bare
 * "is invalid: Invalid input"; a capsule from −1e308 to 1e308 was refused as "a.a must be a vector
 * of 3 finite numbers (got {"x":Infinity,…})" (its overflowed midpoint frame); a tetrahedron
 * spanning ±1e308 as "are all collinear within Infinity".
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";

function error(q: unknown): CollideError {
  try {
    answerQuery(q);
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("expected a CollideError, got an answer");
}

const ball = { type: "sphere", center: [0, 0, 5], radius: 1 };
const mesh = (scale: unknown) => ({
  type: "mesh",
  vertices: [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
  ],
  indices: [[0, 1, 2]],
  scale,
});

describe("error messages name what is wrong with the value given (fresh16)", () => {
  it("a mesh scale that is neither a number nor [sx, sy, sz] says which forms it missed", () => {
    const cases: [unknown, string][] = [
      [[1, 1], "must be a number; must have at least 3 items"],
      ["big", "must be a number; must be an array"],
      [[1, "a", 1], "must be a number; [1] must be a number"],
    ];
    for (const [scale, forms] of cases) {
      const e = error({ op: "intersects", a: mesh(scale), b: ball });
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe("a.scale");
      expect(e.message).toBe(
        `a.scale matches none of its forms (${forms}) (got ${JSON.stringify(scale)})`,
      );
      expect(e.message).not.toContain("Invalid input");
    }
  });

  it("a capsule whose ends are farther apart than the largest double names its first end past 2^1023 and the value given", () => {
    // Since session 37 every shape's coordinates lie below 2^1023 (MESH_COORDINATE_LIMIT), so
    // the ends' difference is finite: the end at 1e308 is refused itself.
    for (const op of ["distance", "intersects"]) {
      const e = error({
        op,
        a: { type: "capsule", a: [1e308, 0, 0], b: [-1e308, 0, 0], radius: 1 },
        b: ball,
      });
      expect(e.code).toBe("invalid_value");
      expect(e.field).toBe("a.a");
      expect(e.message).toMatch(
        /^a\.a is too large: a coordinate of a reaches 1e\+308, which is not below MESH_COORDINATE_LIMIT/,
      );
      expect(e.message).toContain("(got [1e+308,0,0])");
    }
    // Far apart but within the limit: answered (the closest end to the ball is 1e307 − 1 away
    // along x, the ball's centre 5 off the axis).
    const r = answerQuery({
      op: "distance",
      a: { type: "capsule", a: [8e307, 0, 0], b: [1e307, 0, 0], radius: 1 },
      b: ball,
    }) as { distance: number };
    expect(r.distance / 1e307).toBeCloseTo(1, 12);
  });

  it("convex points spanning more than the largest double are refused as such, not as collinear", () => {
    const points = [
      [1e308, 0, 0],
      [1e308, 1, 0],
      [1e308, 0, 1],
      [-1e308, 0, 0],
    ];
    const e = error({ op: "distance", a: { type: "convex", points }, b: ball });
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a.points");
    expect(e.message).toMatch(
      /^a\.points span x from -1e\+308 to 1e\+308: their difference overflows double precision/,
    );
    expect(e.message).not.toContain("Infinity");
    // The library's constructor too.
    expect(() => makeConvexPolyhedron(points.map(([x, y, z]) => ({ x, y, z })))).toThrow(
      /span x from -1e\+308 to 1e\+308/,
    );
  });

  it("a 2D polygon point near (not equal to) another is refused as near, quoting both", () => {
    const e = error({
      op: "intersects",
      dim: 2,
      a: {
        type: "polygon",
        points: [
          [0, 0],
          [1, 0],
          [0, 1e-300],
        ],
      },
      b: { type: "circle", center: [0, 0], radius: 1 },
    });
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("a.points[2]");
    expect(e.message).toMatch(
      /^a\.points\[2\] lies within [0-9.e+-]+ of a\.points\[0\] \(\[0,0\]\)/,
    );
    expect(e.message).not.toMatch(/repeats/);
    expect(e.message).toContain("(got [0,1e-300])");
    // An exact repeat keeps its message.
    const r = error({
      op: "intersects",
      dim: 2,
      a: {
        type: "polygon",
        points: [
          [0, 0],
          [1, 0],
          [1, 0],
          [0, 1],
        ],
      },
      b: { type: "circle", center: [0, 0], radius: 1 },
    });
    expect(r.message).toBe("a.points[2] repeats a.points[1] (got [1,0])");
  });
});
