/**
 * The scene JSON's shape forms table (src/io/scene-forms.ts): the reader dispatches every `type`
 * by name through it, the built-in forms are registered in the docs/FORMATS.md order (the order
 * of the "must be one of …" message), and a form registered later is read with no change to the
 * reader. Oracles: the name list as written here from the reader's message before the table, and
 * shapes built by hand with the `make…` constructors.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CollideError } from "../../src/errors.js";
import { parseScene } from "../../src/io/scene.js";
import {
  registerSceneForm,
  type SceneForm,
  sceneForm,
  v3,
  vecJson,
} from "../../src/io/scene-forms.js";
import { parseShape, SHAPE_TYPES } from "../../src/io/shapes-json.js";
import { findShapeDef, MAX_SHAPE_TYPES } from "../../src/shapes/registry.js";
import { makeSphere } from "../../src/shapes/sphere.js";

const FORMATS_ORDER = [
  ...["sphere", "aabb", "box", "capsule", "cylinder", "cone", "convex", "triangle"],
  ...["roundedBox", "roundedConvex", "halfspace", "heightfield", "compound", "mesh"],
];

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    if (e instanceof CollideError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("the scene forms table", () => {
  it("holds the FORMATS.md forms in their order, and every registered definition is read", () => {
    expect(SHAPE_TYPES).toEqual(FORMATS_ORDER);
    const e = errorOf(() => parseShape({ type: "ellipsoid" }, "a"));
    expect([e.code, e.field]).toEqual(["invalid_value", "a.type"]);
    expect(e.message).toContain(`must be one of ${FORMATS_ORDER.join(", ")}`);
    for (const name of FORMATS_ORDER) expect(sceneForm(name)?.name).toBe(name);
    // Each definition's JSON name is either a scene form's or read by its default form.
    for (let t = 0; t < MAX_SHAPE_TYPES; t++) {
      const d = findShapeDef(t);
      if (d && sceneForm(d.json.name) === null) {
        expect(["cuboid"]).toContain(d.json.name); // FORMATS.md names it `aabb` / `box`
      }
    }
    // Names on the object prototype are not forms.
    for (const name of ["toString", "constructor", "__proto__"]) {
      const err = errorOf(() => parseShape({ type: name }, "s"));
      expect([err.code, err.field]).toEqual(["invalid_value", "s.type"]);
    }
  });

  it("reads a form registered later by name, in shapes and scenes, and lists it last", () => {
    // A test-only form: a sphere given by its diameter, centred at `at`.
    registerSceneForm({
      name: "testBall",
      defs: [],
      translationField: "at",
      schema: () =>
        z.strictObject({ type: z.literal("testBall"), at: vecJson, diameter: z.number() }),
      read: (json, field) => ({
        shape: makeSphere((json.diameter as number) / 2, `${field}.diameter`),
        pose: {
          translation: v3(json.at as number[]),
          rotation: { x: 0, y: 0, z: 0, w: 1 },
        },
      }),
    });
    const p = parseShape({ type: "testBall", at: [1, 2, 3], diameter: 4 }, "a");
    expect(p.shape).toEqual(makeSphere(2));
    expect(p.pose.translation).toEqual({ x: 1, y: 2, z: 3 });
    const scene = parseScene({
      bodies: [{ id: "b", shape: { type: "testBall", at: [0, 0, 0], diameter: 1 } }],
    });
    expect(scene.bodies[0].shape).toEqual(makeSphere(0.5));
    const bad = errorOf(() => parseShape({ type: "testBall", at: [0, 0, 0], diameter: -2 }, "s"));
    expect([bad.code, bad.field]).toEqual(["invalid_value", "s.diameter"]);
    const unknown = errorOf(() =>
      parseShape({ type: "testBall", at: [0, 0, 0], diameter: 1, r: 1 }, "s"),
    );
    expect([unknown.code, unknown.field]).toEqual(["unknown_field", "s.r"]);
    const e = errorOf(() => parseShape({ type: "nope" }, "a"));
    expect(e.message).toContain(`must be one of ${[...FORMATS_ORDER, "testBall"].join(", ")}`);
    expect(() => registerSceneForm(sceneForm("testBall") as SceneForm)).toThrow();
  });
});
