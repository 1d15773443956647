/** fast-check arbitraries shared by the fuzzer's property tests. */
import fc from "fast-check";

/** A unit quaternion [x, y, z, w]: four coordinates in [−1, 1] (norm above 0.1), normalised. */
export const quatArb = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q);
    return q.map((c) => c / l);
  });

/** A point of the cube [−1, 1]³ (a direction or an offset before scaling). */
export const cubePointArb = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);
