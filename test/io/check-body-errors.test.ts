/**
 * `checkScene` (and so `collide check`) names the scene's body when the world refuses it:
 * `bodies[1].pose.translation …`, where the world's own message says `body.pose.translation`
 * and does not tell which body of the file it was.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { checkScene } from "../../src/io/check.js";
import { parseScene } from "../../src/io/scene.js";

describe("checkScene errors name the body", () => {
  it("a sphere whose AABB overflows is reported as bodies[1]", () => {
    const scene = parseScene({
      bodies: [
        { id: "a", shape: { type: "sphere", center: [0, 0, 0], radius: 1 } },
        // (A radius within the world's bound: since session 37 a shape reaching past it from its
        // own origin is named with its reach, below.)
        { id: "b", shape: { type: "sphere", center: [1e308, 0, 0], radius: 1e299 } },
      ],
    });
    let err: unknown = null;
    try {
      checkScene(scene);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    // The scene file has no pose: the field is the body's shape (fresh16).
    expect((err as CollideError).field).toBe("bodies[1].shape");
    expect((err as CollideError).message).toMatch(/^bodies\[1\]\.shape \(id "b"\) puts /);
  });

  it("a shape reaching past the world's bound from its own origin is named with its id and reach (session 37)", () => {
    const scene = parseScene({
      bodies: [
        { id: "a", shape: { type: "sphere", center: [0, 0, 0], radius: 1 } },
        { id: "b", shape: { type: "sphere", center: [0, 0, 0], radius: 8e307 } },
      ],
    });
    let err: unknown = null;
    try {
      checkScene(scene);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("bodies[1].shape");
    expect((err as CollideError).message).toMatch(
      /^bodies\[1\]\.shape \(id "b"\) reaches 8e\+307 from the body's origin/,
    );
  });
});

describe("checkScene's own arguments (found by a fresh user, session 22)", () => {
  const scene = parseScene({
    bodies: [{ id: "a", shape: { type: "sphere", center: [0, 0, 0], radius: 1 } }],
  });
  it("refuses an unknown option with the closest valid key, and a bad option's type", () => {
    expect(() => checkScene(scene, { predicton: 1 } as never)).toThrow(
      /options\.predicton is not an option \(did you mean "prediction"\?\)/,
    );
    expect(() => checkScene(scene, { maxPairs: "9" } as never)).toThrow(/^options\.maxPairs /);
    expect(checkScene(scene, { prediction: 0 }).stats.bodies).toBe(1);
  });
  it("refuses what is not a scene with a CollideError naming it", () => {
    for (const bad of [null, undefined, 7, {}, { bodies: "x" }, { bodies: [], origin: 3 }]) {
      expect(() => checkScene(bad as never), JSON.stringify(bad)).toThrow(CollideError);
      expect(() => checkScene(bad as never)).toThrow(/^scene .*must be a scene made by/);
    }
  });
});
