/**
 * Session 41's fresh-user attack at extreme coordinates, findings 01–03 (the query lines' input):
 *
 * - 01: a half-space listed before an `aabb` whose size overflows (min −1.7e308, max 1.7e308) was
 *   an "internal error: Cannot read properties of undefined" in every pair op and `pairs`: the
 *   line's local frame (src/io/local-frame.ts) picked the first shape, the half-space, as the
 *   smallest placed one when every extent was infinite. The other order named `a.max`; now both
 *   name the aabb's `max` with the size limit's message.
 * - 02/03: an aabb from 1e308 to 1.7e308 (its size 7e307 valid) had its centre (min + max)/2
 *   overflow: the query refused it naming `min` with an Infinity the line never held, and
 *   `makeCuboidFromMinMax` returned centre.x = Infinity. The centre is now min/2 + max/2 there:
 *   1.35e308, exactly (hand-derived: 5e307 + 8.5e307, both halves exact, their sum rounded once
 *   as 1.35e308 itself is), and the box answers as the same `box` line.
 * - 07: a line whose answer overflows (a sphere of radius 8.9e307 against a hull as large:
 *   `contact`'s errorBound) was refused as "the answer's result.errorBound is not a finite
 *   number", naming an output; the error now names the input's largest number and its value.
 */
import { describe, expect, it } from "vitest";
import { makeCuboidFromMinMax } from "../../src/index.js";
import { answerQuery, answerQueryLine } from "../../src/io/query.js";

const HUGE = { type: "aabb", min: [-1.7e308, 0, 0], max: [1.7e308, 1, 1] };
const PLANE = { type: "halfspace", normal: [0, 1, 0], offset: 0 };
const TILTED = { type: "halfspace", normal: [0.6, 0.8, 0], offset: 0 };

function errorOf(line: object): string {
  try {
    const r = answerQuery(line);
    return `answered ${JSON.stringify(r)}`;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("fresh41 01: a half-space with an aabb whose size overflows", () => {
  it("every op and both orders refuse naming the aabb's max with the size limit (was: internal error)", () => {
    const zero = [0, 0, 0];
    for (const plane of [PLANE, TILTED]) {
      for (const swap of [false, true]) {
        const [a, b] = swap ? [HUGE, plane] : [plane, HUGE];
        const field = swap ? "a.max" : "b.max";
        const lines: object[] = [
          { op: "intersects", a, b },
          { op: "distance", a, b },
          { op: "contact", a, b },
          { op: "manifold", a, b },
          { op: "castShapes", a, velocityA: zero, b, velocityB: [0, -1, 0] },
        ];
        for (const line of lines) {
          const m = errorOf(line);
          expect(m).toContain(`${field} is too large`);
          expect(m).toContain("MESH_COORDINATE_LIMIT");
          expect(m).not.toContain("internal error");
        }
        const p = errorOf({ op: "pairs", shapes: [a, b] });
        expect(p).toContain(`shapes[${swap ? 0 : 1}].max is too large`);
      }
    }
  });
});

describe("fresh41 02/03: an aabb whose centre (min + max)/2 overflows", () => {
  it("makeCuboidFromMinMax: centre min/2 + max/2, half extents max/2 − min/2", () => {
    const r = makeCuboidFromMinMax({ x: 1e308, y: 0, z: 0 }, { x: 1.7e308, y: 1, z: 1 });
    expect(r.center).toEqual({ x: 1.35e308, y: 0.5, z: 0.5 });
    // max − min is exact here (Sterbenz: both in [2^1023, 2^1024)), so the half extent is the
    // doubles' exact half difference, 3.4999999999999996e307 (the decimal 1.7e308 − 1e308 is not
    // a double).
    expect(r.shape.halfExtents).toEqual({ x: 3.4999999999999996e307, y: 0.5, z: 0.5 });
    expect(2 * r.shape.halfExtents.x + 1e308).toBe(1.7e308);
    // Elsewhere the centre is (min + max)/2 as before, bit for bit.
    const s = makeCuboidFromMinMax({ x: -3, y: 1e-310, z: 2 }, { x: 5, y: 3e-310, z: 2 });
    expect(s.center).toEqual({ x: 1, y: 0.5 * (1e-310 + 3e-310), z: 2 });
  });

  it("the query line answers as the same box (was: refused naming min with an Infinity)", () => {
    const ray = { origin: [0, 0.5, 0.5], direction: [1, 0, 0] };
    const asAabb = answerQuery({
      op: "raycast",
      shape: { type: "aabb", min: [1e308, 0, 0], max: [1.7e308, 1, 1] },
      ...ray,
    });
    const asBox = answerQuery({
      op: "raycast",
      shape: { type: "box", center: [1.35e308, 0.5, 0.5], halfExtents: [3.5e307, 0.5, 0.5] },
      ...ray,
    });
    expect(asAabb).toEqual(asBox);
    expect(asAabb).toEqual({ toi: 1e308, point: [1e308, 0.5, 0.5], normal: [-1, 0, 0] });
  });
});

describe("fresh41 07: a near-limit line whose answer overflows", () => {
  it("the refusal names the input's largest number, not the output", () => {
    const cases: [object, string, string][] = [
      [
        {
          id: 1,
          op: "contact",
          a: { type: "sphere", center: [0, 0, 0], radius: 8.9e307 },
          b: {
            type: "convex",
            points: [
              [-8.9e307, 0, 0],
              [8.9e307, 0, 0],
              [0, 8.9e307, 0],
              [0, 0, 8.9e307],
            ],
          },
        },
        "a.radius = 8.9e+307",
        "a finite errorBound",
      ],
      [
        {
          id: 2,
          op: "contact",
          a: { type: "box", center: [0, 0, 0], halfExtents: [8.9e307, 1, 1] },
          b: { type: "cylinder", center: [0, 0, 0], halfHeight: 8.9e307, radius: 8.9e307 },
        },
        "a.halfExtents[0] = 8.9e+307",
        "a finite errorBound",
      ],
    ];
    for (const [line, names, what] of cases) {
      const r = answerQueryLine(JSON.stringify(line), 0);
      expect(r.failed).toBe(true);
      const e = JSON.parse(r.line).error;
      expect(e.code).toBe("invalid_value");
      expect(e.message).toContain(names);
      expect(e.message).toContain(what);
      expect(e.message).toContain("scale the scene down");
      expect(e.message).not.toContain("result.");
    }
  });
});
