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
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import { contactConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Cylinder } from "../../src/shapes/cylinder.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { roundedShapeDef } from "../../src/shapes/defs/helpers.js";
import {
  brandShape,
  type ConvexShape,
  SHAPE_TYPE_COUNT,
  type Shape,
  ShapeType,
} from "../../src/shapes/shape.js";
import { findShapeDef, registerShape, shapeDefByJsonName } from "../../src/shapes/shape-def.js";
import { makeSphere } from "../../src/shapes/sphere.js";

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

  it("contact against a box and a sphere: witnesses on the rounded surface, the normal attains the depth", () => {
    // Oracles: the core cylinder's exact distance (2D profile) minus 0.25 for A's witness; the
    // overlap along the normal from exact supports (cylinder + 0.25·n, box corners) for the depth.
    const coreDist = (p: Vec3) => {
      const dr = Math.hypot(p.x, p.z) - 1;
      const dy = Math.abs(p.y) - 1;
      return dr > 0 && dy > 0 ? Math.hypot(dr, dy) : Math.max(dr, dy);
    };
    const cylSupport = (n: Vec3) => Math.hypot(n.x, n.z) + Math.abs(n.y) + 0.25;
    const c = makeContact();
    const box = makeCuboid({ x: 0.3, y: 0.4, z: 0.5 });
    const cases: Array<[Vec3, Vec3, number]> = [
      [{ x: 1.3, y: 0.2, z: 0.4 }, { x: 0.3, y: 0.7, z: 0.2 }, 0.9],
      [{ x: 1.1, y: 1.2, z: -0.5 }, { x: -0.4, y: 0.1, z: 0.9 }, 2.1],
      [{ x: -0.8, y: -1.3, z: 0.7 }, { x: 0.5, y: -0.6, z: 0.2 }, 1.4],
    ];
    for (const [t, axis, angle] of cases) {
      const l = Math.hypot(axis.x, axis.y, axis.z);
      const q = quat.fromAxisAngle(
        quat.create(),
        { x: axis.x / l, y: axis.y / l, z: axis.z / l },
        angle,
      );
      const pose = iso.create(t, q);
      expect(contactConvexConvex(c, shape as unknown as ConvexShape, box, pose, 0)).toBe(true);
      const depth = -c.distance;
      expect(depth).toBeGreaterThan(0);
      expect(Math.abs(coreDist(c.pointA) - 0.25)).toBeLessThan(1e-9 * depth);
      // Overlap along n: h_A(n) + h_B(−n), B's support the farthest corner along −n.
      const n = c.normal;
      const nb = quat.inverseRotate({ x: 0, y: 0, z: 0 }, q, n);
      const hB =
        0.3 * Math.abs(nb.x) +
        0.4 * Math.abs(nb.y) +
        0.5 * Math.abs(nb.z) -
        (n.x * t.x + n.y * t.y + n.z * t.z);
      expect(Math.abs(cylSupport(n) + hB - depth)).toBeLessThan(1e-9 * depth);
    }
    // A sphere of radius 0.5 centred at (1.5, 0.3, 0.2) overlaps the side: depth 1.25 + 0.5 − ρ.
    const ball = makeSphere(0.5);
    const at = { x: 1.5, y: 0.3, z: 0.2 };
    expect(contactConvexConvex(c, shape as unknown as ConvexShape, ball, iso.create(at), 0)).toBe(
      true,
    );
    const rho = Math.hypot(1.5, 0.2);
    expect(Math.abs(-c.distance - (1.75 - rho))).toBeLessThan(1e-9);
    expect(Math.abs(coreDist(c.pointA) - 0.25)).toBeLessThan(1e-9 * (1.75 - rho));
    expect(c.normal.x).toBeCloseTo(1.5 / rho, 9);
  });
});
