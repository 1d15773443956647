/**
 * Pair queries at the two ends of the double range. The power-of-two rescaling of
 * src/narrowphase/extreme-scale.ts once picked a factor whose reciprocal overflowed (an offset
 * of 1.6e308 needs 2^-1024, and 1/2^-1024 is Infinity; subnormal sizes needed 2^1024), so valid
 * poses gave NaN, refused as "an internal fault". And poses whose offset itself overflows
 * (±1e308) are refused naming poseB instead. Expected values are hand-derived.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";

const at = (x: number) => iso.create({ x, y: 0, z: 0 });

describe("pair queries at the ends of the double range", () => {
  it("unit spheres at ±8e307 are 1.6e308 − 2 apart (was NaN)", () => {
    const s = makeSphere(1);
    // 1.6e308 − 2 rounds to 1.6e308.
    expect(distance(s, at(8e307), s, at(-8e307)).distance).toBe(1.6e308);
    expect(distance(makeCuboid({ x: 1, y: 1, z: 1 }), at(8e307), s, at(-8e307)).distance).toBe(
      1.6e308,
    );
    expect(contact(s, at(8e307), s, at(-8e307))).toBeNull();
    expect(manifold(s, at(8e307), s, at(-8e307))).toBeNull();
  });

  it("subnormal spheres 4e-320 apart centre to centre are 2e-320 apart", () => {
    const s = makeSphere(1e-320);
    const d = distance(s, at(0), s, at(4e-320)).distance;
    // Subnormals are spaced 2^-1074 ≈ 4.9e-324 apart: allow a few spacings.
    expect(Math.abs(d - 2e-320)).toBeLessThanOrEqual(4 * 2 ** -1074);
    expect(contact(s, at(0), s, at(1.5e-320))?.distance).toBeLessThan(0);
  });

  it("poses whose offset overflows (±1e308) are refused naming poseB", () => {
    const s = makeSphere(1);
    for (const q of [distance, contact, manifold] as const) {
      let err: unknown = null;
      try {
        q(s, at(1e308), s, at(-1e308));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CollideError);
      expect((err as CollideError).field).toBe("poseB.translation");
    }
  });

  it("castShapes, raycast and projectPoint refuse offsets that overflow, naming the argument", () => {
    const s = makeSphere(1);
    const v = (x: number) => ({ x, y: 0, z: 0 });
    const fieldOf = (run: () => unknown): string => {
      try {
        run();
      } catch (e) {
        expect(e).toBeInstanceOf(CollideError);
        return (e as CollideError).field;
      }
      return "(answered)";
    };
    expect(fieldOf(() => castShapes(s, at(1e308), v(1), s, at(-1e308), v(0), 1))).toBe(
      "poseB.translation",
    );
    expect(fieldOf(() => raycast(s, at(1e308), v(-1e308), v(1e308), 10))).toBe("origin");
    expect(fieldOf(() => projectPoint(s, at(1e308), v(-1e308)))).toBe("point");
  });

  it("quaternion fields given as strings are refused by every pair query (they coerced)", () => {
    const s = makeSphere(1);
    const box = makeCuboid({ x: 1, y: 1, z: 1 });
    const bad = {
      translation: { x: 0, y: 0, z: 0 },
      rotation: { x: "0", y: "0", z: "0.7071067811865476", w: "0.7071067811865476" },
    } as never;
    for (const run of [
      () => intersects(s, at(0), box, bad),
      () => intersects(box, bad, s, at(0)),
      () => intersects(s, at(0), s, bad),
      () => distance(s, at(0), s, bad),
      () => contact(s, at(0), box, bad),
      () => manifold(box, bad, s, at(0)),
    ]) {
      expect(run).toThrow(CollideError);
    }
  });
});
