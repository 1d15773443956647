/**
 * Each constructor's module loads its own shape definition (issue 14, items 5 and 7): this file
 * imports the sphere's constructor and the pair table's defaults only, so the other types have
 * no record until their module loads; a type that loads after the defaults were installed gets
 * its capability pairs then (GJK/EPA for a support-mapped type), while the specialised overrides
 * registered before stay. Oracles: the sphere–cone gap and overlap derived by hand.
 */
import { describe, expect, it } from "vitest";
import "../../src/narrowphase/dispatch.js";
import * as iso from "../../src/math/isometry.js";
import { hasPairRoutine } from "../../src/narrowphase/pair-table.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { findShapeDef } from "../../src/shapes/registry.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";

describe("shape definitions load with their constructors", () => {
  it("a type loaded after the pair table's defaults gets its pairs; overrides stay", async () => {
    expect(findShapeDef(ShapeType.Sphere)).not.toBeNull();
    expect(findShapeDef(ShapeType.Cone)).toBeNull();
    // The sphere–cone closed form is an override registered by type id, before the cone loads;
    // its distance is the capability default's, filled in when the cone's record arrives.
    expect(hasPairRoutine("intersects", ShapeType.Sphere, ShapeType.Cone)).toBe(true);
    expect(hasPairRoutine("intersects", ShapeType.Cone, ShapeType.Cone)).toBe(false);
    const { makeCone } = await import("../../src/shapes/cone.js");
    expect(findShapeDef(ShapeType.Cone)?.name).toBe("cone");
    expect(hasPairRoutine("intersects", ShapeType.Cone, ShapeType.Cone)).toBe(true);
    expect(hasPairRoutine("distance", ShapeType.Sphere, ShapeType.Cone)).toBe(true);
    const cone = makeCone(1, 1);
    const ball = makeSphere(0.5);
    // The cone's base disk (radius 1) lies at y = −1; a ball centred 2 below the apex axis's
    // base, on the axis, is 1 − 0.5 = 0.5 away from the base.
    const below = iso.create({ x: 0, y: -2, z: 0 });
    expect(intersects(ball, below, cone, iso.identity())).toBe(false);
    expect(distance(ball, below, cone, iso.identity()).distance).toBeCloseTo(0.5, 9);
    expect(distance(cone, iso.identity(), cone, iso.create({ x: 0, y: 3, z: 0 })).distance).toBe(1);
    expect(intersects(ball, iso.create({ x: 0, y: -1.25, z: 0 }), cone, iso.identity())).toBe(true);
  });
});
