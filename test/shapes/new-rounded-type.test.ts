/**
 * A new rounded type needs no edit to src/shapes/rounded.ts (issue 14, item 7): its definition
 * file builds its record with `roundedShapeDef` from src/shapes/defs/helpers.ts — the place a
 * definition imports its helpers from — and registers it. Here a rounded cylinder under a free
 * type id (the id and the `Shape` union of src/shapes/shape.ts are the recipe's second file; the
 * pair table's defaults cover ids below SHAPE_TYPE_COUNT, so the pair queries are not asked).
 * Oracles, hand-derived: a cylinder of radius 1 and half height 1 swept by 0.25 is the points
 * within 0.25 of it — its side at ρ = 1.25, its caps at |y| = 1.25, its rim a quarter torus.
 */
import { describe, expect, it } from "vitest";
import "../../src/index.js";
import * as iso from "../../src/math/isometry.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import type { Cylinder } from "../../src/shapes/cylinder.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { roundedShapeDef } from "../../src/shapes/defs/helpers.js";
import { brandShape, SHAPE_TYPE_COUNT, type Shape, ShapeType } from "../../src/shapes/shape.js";
import { findShapeDef, registerShape, shapeDefByJsonName } from "../../src/shapes/shape-def.js";

const ROUNDED_CYLINDER = SHAPE_TYPE_COUNT + 3;

interface RoundedCylinder {
  readonly type: number;
  readonly core: Cylinder;
  readonly radius: number;
}

describe("a new rounded type from roundedShapeDef, one definition file", () => {
  const def = roundedShapeDef(
    ROUNDED_CYLINDER as never,
    ShapeType.Cylinder,
    (shape) => {
      const s = shape as unknown as RoundedCylinder;
      return {
        type: "cylinder",
        halfHeight: s.core.halfHeight + s.radius,
        radius: s.core.radius + s.radius,
      };
    },
    {
      name: "roundedCylinderTest",
      schema: (z) => z.object({ type: z.literal("roundedCylinderTest") }),
      toJson: (s) => ({ type: "roundedCylinderTest", radius: (s as RoundedCylinder).radius }),
      fromJson: () => {
        throw new Error("not read in this test");
      },
    },
  );
  registerShape(def as never);
  const shape = brandShape({
    type: ROUNDED_CYLINDER,
    core: makeCylinder(1, 1),
    radius: 0.25,
  }) as unknown as Shape;

  it("registers under its id and JSON name with the rounded capabilities", () => {
    const d = findShapeDef(ROUNDED_CYLINDER);
    expect(d?.supportMapped).toBe(true);
    expect(d?.polytope).toBeNull();
    expect(d?.revolution).toBeNull();
    expect(d?.margin(shape)).toBe(0.25);
    expect(shapeDefByJsonName("roundedCylinderTest")).toBe(d);
    expect(d?.boundingRadius(shape)).toBeCloseTo(Math.SQRT2 + 0.25, 12);
  });

  it("projectPoint: side, cap and rim against the hand-derived surface", () => {
    const id = iso.identity();
    const side = projectPoint(shape, id, { x: 3, y: 0.5, z: 0 });
    expect(side.distance).toBeCloseTo(3 - 1.25, 12);
    expect(side.point.x).toBeCloseTo(1.25, 12);
    expect(side.inside).toBe(false);
    const cap = projectPoint(shape, id, { x: 0.2, y: 2, z: -0.3 });
    expect(cap.distance).toBeCloseTo(0.75, 12);
    expect(cap.point.y).toBeCloseTo(1.25, 12);
    // Beyond the rim, diagonally: the quarter torus of radius 0.25 about the rim point (1, 1, 0).
    const rim = projectPoint(shape, id, { x: 2, y: 2, z: 0 });
    expect(rim.distance).toBeCloseTo(Math.SQRT2 - 0.25, 12);
    expect(rim.point.x).toBeCloseTo(1 + 0.25 / Math.SQRT2, 12);
    const inside = projectPoint(shape, id, { x: 0, y: 1.1, z: 0 });
    expect(inside.inside).toBe(true);
    expect(inside.distance).toBe(0);
  });

  it("raycast: a ray down the axis hits the rounded cap, one across hits the rounded side", () => {
    const id = iso.identity();
    const down = raycast(shape, id, { x: 0, y: 5, z: 0 }, { x: 0, y: -1, z: 0 }, 10);
    expect(down?.toi).toBeCloseTo(5 - 1.25, 9);
    expect(down?.normal.y).toBeCloseTo(1, 9);
    const across = raycast(shape, id, { x: -5, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 10);
    expect(across?.toi).toBeCloseTo(5 - 1.25, 9);
    expect(across?.normal.x).toBeCloseTo(-1, 9);
  });
});
