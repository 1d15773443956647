/** fast-check generators of 2D shapes and poses for the 2D tests. */
import fc from "fast-check";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import {
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  makeSegment,
  type Shape2,
} from "../../src/dim2/shapes.js";

/**
 * Doubles in [min, max] with magnitudes below 1e-9 flushed to 0: tiny scales (1e-3) are tested
 * on their own; left alone, shrinking heads for 5e-324 and only explores underflow and
 * rounding-level ties between coordinates, where "touching" has no exact answer.
 */
export function num(min: number, max: number): fc.Arbitrary<number> {
  return fc.double({ min, max, noNaN: true }).map((v) => (Math.abs(v) < 1e-9 ? 0 : v));
}

const unit = num(0, 1);

/** A convex polygon: 3–8 points at increasing angles on an ellipse, scaled by `s`. */
export function polygonArb(s = 1): fc.Arbitrary<Shape2> {
  return fc
    .record({
      k: fc.integer({ min: 3, max: 8 }),
      angles: fc.array(unit, { minLength: 8, maxLength: 8 }),
      rx: num(0.3, 2),
      ry: num(0.3, 2),
    })
    .map(({ k, angles, rx, ry }) => {
      // Evenly spread angles with jitter keep the points distinct and in convex position.
      const pts = [];
      for (let i = 0; i < k; i++) {
        const t = ((i + 0.8 * angles[i]) / k) * 2 * Math.PI;
        pts.push({ x: s * rx * Math.cos(t), y: s * ry * Math.sin(t) });
      }
      return makePolygon(pts);
    });
}

/** Any 2D shape at scale `s`. */
export function shapeArb(s = 1): fc.Arbitrary<Shape2> {
  const len = num(0.1, 2);
  const pt = fc.record({
    x: num(-1.5, 1.5),
    y: num(-1.5, 1.5),
  });
  return fc.oneof(
    len.map((r) => makeCircle(s * r)),
    fc.record({ x: len, y: len }).map((h) => makeRect({ x: s * h.x, y: s * h.y })),
    polygonArb(s),
    fc
      .record({ a: pt, b: pt, r: len })
      .map(({ a, b, r }) =>
        makeCapsule({ x: s * a.x, y: s * a.y }, { x: s * b.x, y: s * b.y }, s * r * 0.5),
      ),
    fc
      .record({ a: pt, b: pt })
      .map(({ a, b }) => makeSegment({ x: s * a.x, y: s * a.y }, { x: s * b.x, y: s * b.y })),
  );
}

/** A pose within `range` of `offset` (both axes), any angle. */
export function poseArb(range = 3, offset = 0): fc.Arbitrary<Pose2> {
  const c = num(-range, range);
  return fc
    .record({ x: c, y: c, a: num(-Math.PI, Math.PI) })
    .map(({ x, y, a }) => pose2.fromAngle(offset + x, offset + y, a));
}

/** A size in 1e-6..1e6, log-uniform (10 to an exponent drawn in [−6, 6]). */
export const logSizeArb = fc.double({ min: -6, max: 6, noNaN: true }).map((e) => 10 ** e);

/** An offset's magnitude in 1..1e9, log-uniform (10 to an exponent drawn in [0, 9]). */
export const logOffsetArb = fc.double({ min: 0, max: 9, noNaN: true }).map((e) => 10 ** e);
