/**
 * The scene JSON of docs/FORMATS.md read through the shape definitions (src/io/shapes-json.ts):
 * the placed forms (sphere, box, cylinder, cone, roundedBox, halfspace) are their definition's
 * JSON form plus `center` / `position` / `rotation`, and a type registered later is read the same
 * way under its own JSON name with no change to the reader (issue 14, item 7). Oracle: the shape
 * and pose built by hand with the `make…` constructors.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { parseShape } from "../../src/io/shapes-json.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { registerShape, type ShapeDef, shapeDef } from "../../src/shapes/shape-def.js";
import { makeSphere, type Sphere } from "../../src/shapes/sphere.js";

function codeOf(f: () => unknown): [string, string] | null {
  try {
    f();
    return null;
  } catch (e) {
    if (!(e instanceof CollideError)) throw e;
    return [e.code, e.field];
  }
}

const q = { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 };

describe("the scene's shapes through the definitions", () => {
  it("each placed form gives its constructor's shape at its placement", () => {
    const cases: [unknown, unknown, { x: number; y: number; z: number }, boolean][] = [
      [
        { type: "sphere", center: [1, 2, 3], radius: 2 },
        makeSphere(2),
        { x: 1, y: 2, z: 3 },
        false,
      ],
      [
        { type: "box", center: [0, -1, 0], halfExtents: [1, 2, 3], rotation: [q.x, q.y, q.z, q.w] },
        makeCuboid({ x: 1, y: 2, z: 3 }),
        { x: 0, y: -1, z: 0 },
        true,
      ],
      [
        { type: "cylinder", center: [4, 0, 0], halfHeight: 1, radius: 0.5 },
        makeCylinder(1, 0.5),
        { x: 4, y: 0, z: 0 },
        false,
      ],
      [
        { type: "cone", center: [0, 0, 5], halfHeight: 2, radius: 1 },
        makeCone(2, 1),
        { x: 0, y: 0, z: 5 },
        false,
      ],
      [
        { type: "roundedBox", center: [1, 1, 1], halfExtents: [1, 1, 1], radius: 0.25 },
        makeRoundedCuboid({ x: 1, y: 1, z: 1 }, 0.25),
        { x: 1, y: 1, z: 1 },
        false,
      ],
      [
        { type: "halfspace", normal: [0, 1, 0], offset: -2 },
        makeHalfSpace({ x: 0, y: 1, z: 0 }, -2),
        { x: 0, y: 0, z: 0 },
        false,
      ],
    ];
    for (const [json, shape, at, rotated] of cases) {
      const p = parseShape(json, "a");
      expect(p.shape).toEqual(shape);
      expect(Object.isFrozen(p.shape)).toBe(true);
      expect(p.pose.translation).toEqual(at);
      expect(p.pose.rotation).toEqual(rotated ? q : { x: 0, y: 0, z: 0, w: 1 });
    }
    // The placement fields are the form's: a sphere takes no rotation and needs its centre.
    expect(
      codeOf(() =>
        parseShape({ type: "sphere", center: [0, 0, 0], radius: 1, rotation: [0, 0, 0, 1] }, "a"),
      ),
    ).toEqual(["unknown_field", "a.rotation"]);
    expect(codeOf(() => parseShape({ type: "sphere", radius: 1 }, "a"))).toEqual([
      "missing_field",
      "a.center",
    ]);
    expect(
      codeOf(() => parseShape({ type: "box", center: [0, 0, 0], halfExtents: [1, -1, 1] }, "b")),
    ).toEqual(["invalid_value", "b.halfExtents"]);
    // The definitions' own names are not scene names when FORMATS.md gives the type another.
    expect(codeOf(() => parseShape({ type: "cuboid", halfExtents: [1, 1, 1] }, "a"))).toEqual([
      "invalid_value",
      "a.type",
    ]);
  });

  it("a type registered later is read by its definition's JSON form, placed", () => {
    // A test-only definition: the sphere's record under the JSON name "ball" (the reader has no
    // entry for it; only the definitions' table knows it).
    const sphere = shapeDef(ShapeType.Sphere) as unknown as ShapeDef<Sphere>;
    const ball: ShapeDef<Sphere> = {
      ...sphere,
      json: {
        name: "ball",
        schema: (z) => z.strictObject({ type: z.literal("ball"), radius: z.number() }),
        toJson: (s) => ({ type: "ball", radius: s.radius }),
        fromJson: (j, field) => makeSphere(j.radius as number, `${field}.radius`),
      },
    };
    expect(codeOf(() => parseShape({ type: "ball", radius: 1 }, "a"))).toEqual([
      "invalid_value",
      "a.type",
    ]);
    registerShape(ball);
    try {
      const p = parseShape(
        { type: "ball", radius: 3, position: [1, 2, 3], rotation: [q.x, q.y, q.z, q.w] },
        "a",
      );
      expect(p.shape).toEqual(makeSphere(3));
      expect(p.pose).toEqual({ translation: { x: 1, y: 2, z: 3 }, rotation: q });
      const origin = parseShape({ type: "ball", radius: 1 }, "s");
      expect(origin.pose.translation).toEqual({ x: 0, y: 0, z: 0 });
      expect(codeOf(() => parseShape({ type: "ball", radius: -1 }, "s"))).toEqual([
        "invalid_value",
        "s.radius",
      ]);
      expect(codeOf(() => parseShape({ type: "ball", radius: 1, center: [0, 0, 0] }, "s"))).toEqual(
        ["unknown_field", "s.center"],
      );
      expect(codeOf(() => parseShape({ type: "ball" }, "s"))).toEqual([
        "missing_field",
        "s.radius",
      ]);
    } finally {
      registerShape(sphere);
    }
  });
});
