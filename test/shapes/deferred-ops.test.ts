/**
 * Deferred shape operations (src/shapes/shape-def.ts, `ShapeOps`): a record may leave its
 * manifold features, ray cast and point projection as `DEFERRED` and register them from a
 * module of their own, in either load order; the modules that call them load them
 * (src/shapes/defs/ops.ts), so a query never meets a placeholder.
 */
import { describe, expect, it } from "vitest";
import { raycast } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { sphereDef } from "../../src/shapes/defs/sphere.js";
import { ShapeType } from "../../src/shapes/shape.js";
import {
  DEFERRED,
  registerShape,
  registerShapeOps,
  type ShapeDef,
  shapeDef,
} from "../../src/shapes/shape-def.js";
import { makeSphere, type Sphere } from "../../src/shapes/sphere.js";

/** A spare type id (the built-in ids are far below it). */
const SPARE = 30 as ShapeType;

describe("deferred shape operations", () => {
  it("the query modules load the built-in types' operations: no placeholder is left", () => {
    for (const t of [ShapeType.Sphere, ShapeType.Cuboid]) {
      const d = shapeDef(t);
      expect(d.feature).not.toBe(DEFERRED);
      expect(d.edgeFeature).not.toBe(DEFERRED);
      expect(d.rayCast).not.toBe(DEFERRED);
      expect(d.projectPoint).not.toBe(DEFERRED);
    }
    // A ray along −x from x = 5 meets the unit sphere at x = 1 and the box of half extent 2 at 2.
    const at = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    const o = { x: 5, y: 0, z: 0 };
    const d = { x: -1, y: 0, z: 0 };
    expect(raycast(makeSphere(1), at, o, d, 10)?.toi).toBe(4);
    expect(raycast(makeCuboid({ x: 2, y: 2, z: 2 }), at, o, d, 10)?.toi).toBe(3);
  });

  it("operations registered before their record are installed when it registers, and after it at once", () => {
    const cast: NonNullable<ShapeDef<Sphere>["rayCast"]> = () => false;
    registerShapeOps<Sphere>(SPARE as Sphere["type"], {
      feature: null,
      edgeFeature: null,
      rayCast: cast,
      projectPoint: null,
    });
    registerShape<Sphere>({
      ...sphereDef,
      type: SPARE as Sphere["type"],
      feature: DEFERRED,
      edgeFeature: DEFERRED,
      rayCast: DEFERRED,
      projectPoint: DEFERRED,
      json: { ...sphereDef.json, name: "spare-test-type" },
    });
    expect(shapeDef(SPARE).rayCast).toBe(cast);
    expect(shapeDef(SPARE).feature).toBeNull();
    const cast2: NonNullable<ShapeDef<Sphere>["rayCast"]> = () => true;
    registerShapeOps<Sphere>(SPARE as Sphere["type"], {
      feature: null,
      edgeFeature: null,
      rayCast: cast2,
      projectPoint: null,
    });
    expect(shapeDef(SPARE).rayCast).toBe(cast2);
    expect(() => DEFERRED()).toThrow(/deferred operation/);
  });
});
