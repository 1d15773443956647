/**
 * A fresh-user attack on the session-33 merge (README only) found two faults the session's own
 * changes had brought:
 * - a solid mesh accepted with a collapsed triangle (its three corners one point) inside it: the
 *   weld let a triangle with two corners at one welded vertex keep the mesh closed wherever it
 *   lay, and `contact` then took the point for surface (a sphere at the cube's inside point:
 *   depth 0.05 along (0, 1, 0) instead of 0.35 to the nearest face). A collapsed triangle now
 *   keeps the mesh closed only on the others' surface (along one of their edges, at one of their
 *   vertices);
 * - two half-spaces whose normals differ by rounding only: the new Newton steps left their
 *   "common point" 7.4e5 outside B (the planes' line beyond what the steps can reach); a point
 *   the steps do not bring onto both planes to 64 ulps now falls back to the parallel planes'
 *   inner point.
 */
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

const CUBE_V = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
const CUBE_I = [
  0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7,
  0, 7, 3,
];

describe("attack 33b: a collapsed triangle and a solid mesh", () => {
  it("a point triangle inside the cube opens it: `solid` refused", () => {
    const v = [...CUBE_V, 0.3, 0.3, 0.3];
    const idx = [...CUBE_I, 8, 8, 8];
    expect(makeTriangleMesh(v, idx).closed).toBe(false);
    expect(() => makeTriangleMesh(v, idx, "", { solid: true })).toThrow(/closed mesh/);
  });

  it("a point triangle at a cube corner or a segment triangle along its edge keeps it closed", () => {
    expect(makeTriangleMesh(CUBE_V, [...CUBE_I, 6, 6, 6]).closed).toBe(true);
    expect(makeTriangleMesh(CUBE_V, [...CUBE_I, 0, 1, 1]).closed).toBe(true);
    // A segment through the inside (the cube's diagonal 0–6, no edge of it) opens it.
    expect(makeTriangleMesh(CUBE_V, [...CUBE_I, 0, 6, 6]).closed).toBe(false);
  });

  it("the sphere inside the solid cube: depth 0.35 to the nearest face", () => {
    const c = answerQuery({
      op: "contact",
      a: {
        type: "mesh",
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [1, 1, 0],
          [0, 1, 0],
          [0, 0, 1],
          [1, 0, 1],
          [1, 1, 1],
          [0, 1, 1],
        ],
        indices: [
          [0, 2, 1],
          [0, 3, 2],
          [4, 5, 6],
          [4, 6, 7],
          [0, 1, 5],
          [0, 5, 4],
          [2, 3, 7],
          [2, 7, 6],
          [1, 2, 6],
          [1, 6, 5],
          [0, 4, 7],
          [0, 7, 3],
        ],
        solid: true,
      },
      b: { type: "sphere", center: [0.3, 0.3, 0.3], radius: 0.05 },
    }) as { distance: number };
    expect(c.distance).toBeCloseTo(-0.35, 12);
  });
});

describe("attack 33b: half-spaces whose normals differ by rounding", () => {
  it("the common point lies in both half-spaces", () => {
    const a = {
      type: "halfspace",
      normal: [-0.9593899395357524, -0.08543320863143408, 0.26883472763116556],
      offset: 315658.8077545166,
    };
    const b = {
      type: "halfspace",
      normal: [-0.9593899395357525, -0.0854332086314341, 0.2688347276311656],
      offset: -424363.8515472412,
    };
    // Both argument orders (session 44: the order (b, a) answered a point ~2e22 away, on the line
    // where the planes, normals one ulp apart, cross; the same-type order then made both take it).
    for (const [op, x, y] of [
      ["distance", a, b],
      ["contact", a, b],
      ["distance", b, a],
      ["contact", b, a],
    ] as const) {
      const r = answerQuery({ op, a: x, b: y }) as { pointA: number[]; pointB: number[] };
      for (const p of [r.pointA, r.pointB]) {
        // n·p − d: the point inside or on each plane to the rounding of its 4.3e5 magnitude.
        for (const h of [a, b]) {
          const s = h.normal[0] * p[0] + h.normal[1] * p[1] + h.normal[2] * p[2] - h.offset;
          expect(s).toBeLessThanOrEqual(1e-9 * 4.3e5);
        }
      }
    }
  });
});
