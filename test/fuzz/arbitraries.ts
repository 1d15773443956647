/** fast-check arbitraries shared by the fuzzer's property tests. */
import fc from "fast-check";
import { unit, type V } from "./oracle-shapes.js";

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

/** A unit direction: a point of {@link cubePointArb} of norm above 0.1, normalised. */
export const unitArb = cubePointArb.filter((v) => Math.hypot(...v) > 0.1).map((v) => unit(v as V));

/** An offset for `exactOffset`: a unit direction and a magnitude of 0, 1, 1e3, 1e6 or 1e9. */
export const offsetArb = fc.tuple(unitArb, fc.constantFrom(0, 1, 1e3, 1e6, 1e9));

/**
 * x rounded to 21 significant bits (0 below 1e-200): an offset with few bits, so the query's
 * local frame shifts it exactly.
 */
export const bits21 = (x: number): number => {
  if (!(Math.abs(x) > 1e-200)) return 0;
  const m = 2 ** (Math.floor(Math.log2(Math.abs(x))) - 20);
  return Math.round(x / m) * m;
};
