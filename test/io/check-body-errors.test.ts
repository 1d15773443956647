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
        { id: "b", shape: { type: "sphere", center: [1e308, 0, 0], radius: 1e308 } },
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
});
