/**
 * Regression (second fresh-user pass, session 2): spheres 8 apart cast with velocities ±1e308
 * came back with toi 0 (a touch that is not there): their relative velocity, 2e308, overflows.
 * Such a cast is now refused naming the velocity; large but representable motions still work.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { makeSphere } from "../../src/shapes/sphere.js";

const at = (x: number) => ({
  translation: { x, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

describe("castShapes with overflowing relative motion", () => {
  it("refuses ±1e308 velocities instead of reporting toi 0", () => {
    const s = makeSphere(1);
    let err: unknown = null;
    try {
      castShapes(s, at(0), { x: 1e308, y: 0, z: 0 }, s, at(8), { x: -1e308, y: 0, z: 0 }, 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("velocityB");
  });

  it("a fast but finite approach still hits at the hand-derived time (gap 6 at closing speed 2e300)", () => {
    const s = makeSphere(1);
    const hit = castShapes(
      s,
      at(0),
      { x: 1e300, y: 0, z: 0 },
      s,
      at(8),
      { x: -1e300, y: 0, z: 0 },
      1,
    );
    expect(hit).not.toBeNull();
    expect(hit!.toi / (6 / 2e300)).toBeCloseTo(1, 6);
  });
});
