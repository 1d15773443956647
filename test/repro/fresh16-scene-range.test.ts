/**
 * Findings of a new user (fresh16) at the world's coordinate bound (±1e300) with `collide check`:
 * the scene is read in a local frame at its smallest shape (src/io/local-frame.ts), and two
 * spheres at ±6e299 — each well inside the bound — landed at 0 and −1.2e300 there, so the check
 * refused a valid scene; a body truly out of range was refused under a field the scene file does
 * not have (`bodies[0].pose.translation`) with the pose of that local frame (`[0, 0, 0]` for a
 * sphere at 1e300).
 */
import { describe, expect, it } from "vitest";
import { checkScene } from "../../src/io/check.js";
import { parseScene } from "../../src/io/scene.js";
import { refusal } from "../support/refusal.js";

const sphere = (center: number[], radius: number) => ({ type: "sphere", center, radius });

describe("collide check at the world's coordinate bound (fresh16)", () => {
  it("checks two spheres at ±6e299 (inside the bound) instead of refusing them", () => {
    for (const x of [6e299, 9e299]) {
      const scene = parseScene({
        bodies: [
          { id: "a", shape: sphere([x, 0, 0], 1) },
          { id: "b", shape: sphere([-x, 0, 0], 1) },
        ],
      });
      const r = checkScene(scene);
      expect(r.pairs).toEqual([]);
      expect(r.stats.bodies).toBe(2);
    }
  });

  it("reports the deep pair of a box spanning ±9e299 and a sphere at its end, in world coordinates", () => {
    const scene = parseScene({
      bodies: [
        { id: "slab", shape: { type: "aabb", min: [-9e299, 0, 0], max: [9e299, 1, 1] } },
        { id: "ball", shape: sphere([9e299, 0.5, 0.5], 0.25) },
      ],
    });
    const r = checkScene(scene);
    expect(r.pairs.length).toBe(1);
    expect(r.pairs[0].a).toBe("slab");
    // The ball's centre lies on the slab's +x face: depth its radius along +x... or along the
    // nearest other face (0.5 + 0.25 = 0.75 deep through ±y, ±z): the least is 0.25, along +x.
    expect(r.pairs[0].distance).toBe(-0.25);
    expect(r.pairs[0].normal).toEqual([1, 0, 0]);
  });

  it("refuses a body out of range under its shape's field, with its world position", () => {
    // (Radius 1e299: a shape whose own reach is past the range, radius 1e300, is refused for that
    // reach at any pose since session 37 — the test below.)
    const scene = parseScene({ bodies: [{ id: "huge", shape: sphere([1e300, 0, 0], 1e299) }] });
    const e = refusal(() => checkScene(scene));
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("bodies[0].shape");
    expect(e.value).toEqual([1e300, 0, 0]);
    expect(e.message).toMatch(/^bodies\[0\]\.shape \(id "huge"\) puts the body's AABB/);
    expect(e.message).toContain("[1e+300,0,0]");
    expect(e.message).not.toContain("pose.translation");
  });

  it("refuses a shape whose own reach is past the range at any pose, naming its reach (session 37)", () => {
    const scene = parseScene({ bodies: [{ id: "huge", shape: sphere([1e300, 0, 0], 1e300) }] });
    const e = refusal(() => checkScene(scene));
    expect(e.field).toBe("bodies[0].shape");
    expect(e.message).toMatch(
      /^bodies\[0\]\.shape \(id "huge"\) reaches 1e\+300 from the body's origin/,
    );
    // Quoting the shape as the scene wrote it, not the library's record `{"type":0,…}`
    // (test/io/shape-in-message.test.ts: every kind).
    expect(e.value).toEqual(sphere([1e300, 0, 0], 1e300));
    expect(e.message).toContain('(got {"type":"sphere","center":[1e+300,0,0],"radius":1e+300})');
  });
});
