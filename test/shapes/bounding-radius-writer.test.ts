/**
 * `ShapeDef.writeBoundingRadius` (src/shapes/shape-def.ts), the hot paths' bounding radius through
 * a typed array: for every built-in type that has one it writes `boundingRadius`'s bits (the
 * oracle: the record's own `boundingRadius`, compared with Object.is), over magnitudes from
 * subnormal to 1e300 and zero vertices (the rare paths of the lengths it writes out); and a
 * record spread from a built-in that overrides `boundingRadius` alone loses the writer, so it
 * cannot answer the old radius.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { shapeDef } from "../../src/shapes/registry.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import {
  boundingRadiusWith,
  registerShape,
  type ShapeDef,
  writeBoundingRadiusOf,
} from "../../src/shapes/shape-def.js";
import { makeTriangle } from "../../src/shapes/triangle.js";

const mag = fc.oneof(
  fc.constant(0),
  fc.double({ min: 1e-310, max: 1e-280, noNaN: true }),
  fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
  fc.double({ min: 1e280, max: 1e300, noNaN: true }),
);
const coord = fc.tuple(mag, fc.boolean()).map(([m, neg]) => (neg ? -m : m));
const vec = fc.record({ x: coord, y: coord, z: coord });
const pos = fc.oneof(
  fc.double({ min: 1e-300, max: 1e-280, noNaN: true }),
  fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
  fc.double({ min: 1e280, max: 1e300, noNaN: true }),
);

function check(s: Shape): void {
  const d = shapeDef(s.type);
  expect(d.writeBoundingRadius, d.name).toBeDefined();
  const out = new Float64Array(1);
  writeBoundingRadiusOf(out, s);
  expect(
    Object.is(out[0], d.boundingRadius(s)),
    `${d.name}: ${out[0]} vs ${d.boundingRadius(s)}`,
  ).toBe(true);
}

describe("ShapeDef.writeBoundingRadius writes boundingRadius's bits", () => {
  it("triangles, boxes, cylinders, cones, rounded boxes (zero and extreme coordinates)", () => {
    fc.assert(
      fc.property(vec, vec, vec, pos, pos, (a, b, c, h, r) => {
        check(makeTriangle(a, b, c));
        check(makeCuboid({ x: Math.abs(a.x), y: Math.abs(a.y), z: Math.abs(a.z) }));
        check(makeCylinder(h, r));
        check(makeCone(h, r));
        check(
          makeRoundedCuboid({ x: Math.abs(b.x), y: Math.abs(b.y), z: Math.abs(b.z) }, 1e-3 * r),
        );
      }),
      { numRuns: 300 },
    );
  });
  it("convex polyhedra and rounded ones (a cached radius)", () => {
    const v = [1, 0, 0, -1, 0, 0, 0, 2, 0, 0, -2, 0, 0, 0, 3, 0.5, 0.25, -3];
    check(makeConvexPolyhedron(v));
    check(makeRoundedConvexPolyhedron(v, 0.25));
  });
  it("a record spread from a built-in that overrides boundingRadius alone loses the writer", () => {
    const cyl = shapeDef(makeCylinder(1, 1).type);
    const spread = { ...cyl, boundingRadius: () => 42 } as ShapeDef;
    expect(spread.writeBoundingRadius).toBeDefined();
    // registerShape drops it (registered again as the built-in afterwards).
    registerShape(spread);
    try {
      const out = new Float64Array(1);
      writeBoundingRadiusOf(out, makeCylinder(1, 1));
      expect(out[0]).toBe(42);
    } finally {
      registerShape(cyl);
    }
    // A writer made with its own record's function is kept.
    const made = boundingRadiusWith<Shape>(
      () => 7,
      (out) => {
        out[0] = 7;
      },
    );
    expect((made.writeBoundingRadius as { boundingRadius?: unknown }).boundingRadius).toBe(
      made.boundingRadius,
    );
  });
});
