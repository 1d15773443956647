/** Shared fast-check arbitraries: vectors, unit quaternions, poses, at several scales. */
import fc from "fast-check";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";

/** A finite double in [lo, hi] with no NaN. */
export function num(lo: number, hi: number): fc.Arbitrary<number> {
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/** A vector with components in [lo, hi]. */
export function vec(lo: number, hi: number): fc.Arbitrary<Vec3> {
  return fc.record({ x: num(lo, hi), y: num(lo, hi), z: num(lo, hi) });
}

/** A unit quaternion, including the identity and axis-aligned quarter turns as special cases. */
export const unitQuat: fc.Arbitrary<Quat> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(-1, 1))
      .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-3)
      .map(([x, y, z, w]) => {
        const l = Math.hypot(x, y, z, w);
        return { x: x / l, y: y / l, z: z / l, w: w / l };
      }),
  },
  { weight: 1, arbitrary: fc.constant({ x: 0, y: 0, z: 0, w: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 },
      { x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 },
      { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
      { x: 0, y: 0, z: 1, w: 0 },
    ),
  },
);

/** A pose with translation components in [lo, hi] and any rotation. */
export function pose(lo: number, hi: number): fc.Arbitrary<Isometry> {
  return fc.record({ translation: vec(lo, hi), rotation: unitQuat });
}

/** A scale factor among the adversarial ones: 1e-3 … 1e4. */
export const scale: fc.Arbitrary<number> = fc.constantFrom(1e-3, 0.1, 1, 10, 1e4);
