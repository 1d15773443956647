/** fast-check arbitraries shared by the fuzzer's property tests. */
import fc from "fast-check";
import { unit, type V } from "./oracle-shapes.js";

/**
 * Four coordinates [x, y, z, w] in [−1, 1], not normalised: {@link quatArb}'s draws before its
 * filter, for a test that normalises them itself (test/support/pose.ts's `quatOf`).
 */
export const quatCoordsArb = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

/** A unit quaternion [x, y, z, w]: four coordinates in [−1, 1] (norm above 0.1), normalised. */
export const quatArb = quatCoordsArb
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q);
    return q.map((c) => c / l);
  });

/** {@link quatArb} as a `{x, y, z, w}` record: the same draws. */
export const quatObjArb = quatArb.map(([x, y, z, w]) => ({ x, y, z, w }));

/**
 * A unit quaternion [x, y, z, w] as {@link quatArb} draws it, from four draws of `coord` whose
 * norm is above `minNorm`, each divided by that norm: for a test whose coordinates are another
 * range (±2, ±4), a grid (thousandths, integers) or whose norm bar is another. The same draws as
 * the tuple–filter–map written out in a test.
 */
export function unitQuatArrayOf(
  coord: fc.Arbitrary<number>,
  minNorm = 0.1,
): fc.Arbitrary<number[]> {
  return fc
    .tuple(coord, coord, coord, coord)
    .filter((q) => Math.hypot(...q) > minNorm)
    .map((q) => {
      const l = Math.hypot(...q);
      return q.map((c) => c / l);
    });
}

/** {@link unitQuatArrayOf} as a `{x, y, z, w}` record: the same draws. */
export function unitQuatOf(
  coord: fc.Arbitrary<number>,
  minNorm = 0.1,
): fc.Arbitrary<{ x: number; y: number; z: number; w: number }> {
  return unitQuatArrayOf(coord, minNorm).map(([x, y, z, w]) => ({ x, y, z, w }));
}

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

/** An angle in [0, 2π) on a grid of 2^20 steps. */
export const angleArb = fc
  .integer({ min: 0, max: (1 << 20) - 1 })
  .map((i) => (i / (1 << 20)) * 2 * Math.PI);

/** A unit quaternion [x, y, z, w] from three angles of {@link angleArb} (spread over the sphere, no subnormals). */
export const rotationArb = fc.tuple(angleArb, angleArb, angleArb).map(([u, v, w]) => {
  const s = Math.sin(u / 4 + 0.3);
  const c = Math.cos(u / 4 + 0.3);
  return [s * Math.sin(v), s * Math.cos(v), c * Math.sin(w), c * Math.cos(w)];
});

/**
 * A coordinate in [−1, 1] in thousandths (fast-check's doubles favour 0 and ±1, which make most
 * triangles degenerate and most offsets axis-aligned).
 */
export const thousandthArb = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);

/** A point of the cube [−1, 1]³ in thousandths ({@link thousandthArb}). */
export const thousandthPointArb = fc.tuple(thousandthArb, thousandthArb, thousandthArb);

/** A unit quaternion [x, y, z, w]: four {@link thousandthArb} coordinates (norm above 0.1), normalised. */
export const thousandthQuatArb = fc
  .tuple(thousandthArb, thousandthArb, thousandthArb, thousandthArb)
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => q.map((x) => x / Math.hypot(...q)));

/** A fraction in [0.2, 1]: a size relative to another (a half extent to a radius, say). */
export const fractionArb = fc.double({ min: 0.2, max: 1, noNaN: true });

/** Three {@link fractionArb}s: half extents relative to a size. */
export const fractionTripleArb = fc.tuple(fractionArb, fractionArb, fractionArb);
