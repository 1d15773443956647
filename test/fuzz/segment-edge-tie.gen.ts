/**
 * Issue 16, the seed-100-segment-corner line's class: a capsule whose segment lies perpendicular
 * to a triangle's edge, its near end touching, near or just over the edge's inside, the rest of
 * the segment leaving level with that end (perpendicular to the end's direction from the edge too)
 * or a little toward or away from the edge — so that the end against the edge's inside and the
 * segment's inside against the edge (their common perpendicular, the segment × edge axis of the
 * separating axis test) tie in doubles: the segment's points a distance x from the end lie farther
 * from the edge by only about x²/(2g) at a gap g (test/fuzz/segment-edge-tie.test.ts; see
 * {@link segmentEdgeTieArb}).
 */
import fc from "fast-check";
import { rotationArb, unitArb } from "./arbitraries.js";
import { add, cross, scale, sub, unit, type V } from "./oracle-shapes.js";
import {
  type CapsuleTriangleDraw,
  capsuleTriangleDraw,
  fatTriangle,
} from "./tiny-capsule-large-triangle.gen.js";

/** One draw: the capsule and the triangle (JSON, local frame) and the offset into the world. */
export type SegmentEdgeTieDraw = CapsuleTriangleDraw;

/** ±2^-k for k in [lo, hi], or 0. */
const tinyArb = (lo: number, hi: number): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constant(0),
    fc.tuple(fc.constantFrom(1, -1), fc.integer({ min: lo, max: hi })).map(([s, k]) => s * 2 ** -k),
  );

/**
 * A fat triangle of size T = 10^(-3..3) (corners about 120° apart at 0.5..1 of T from a centre
 * 0..T from the local origin), a point X on its edge k — at 0.02..0.98 of it or 2^-(10..45) of it
 * from either end — the unit u in the edge's cone of normals (the edge's outward in-plane normal
 * turned by α ∈ [0, π/2] toward ±n: in the plane, over the face's side, or between), the
 * capsule's near end at X + u·g for a gap g = r + δ, δ 0, ±2^-(10..50)·r (touching within
 * rounding to overlapping or apart by a fraction of r) or +10^(-1..1)·r (apart); its segment of
 * length L = r·10^(-2..2) (at most T) leaving along cos β·w + sin β·u + τ·e, w = ±e × u (the
 * direction perpendicular to the edge and to u, turned about u by 0 or a random angle within the
 * plane perpendicular to the edge only), β = 0, ±2^-(8..50) (level, a hair away from the edge or
 * toward it, the segment's inside then the nearest) or any in [0, π/2), τ = 0 or ±2^-(10..50)
 * along the edge; the radius r = T·10^(-10..eMax); the pair turned, then moved by an offset of 0, 1,
 * 1e3 or 1e6 along a random direction.
 *
 * {@link segmentEdgeTieArb} takes eMax = −5.5, the capsules below 2^-10 of the triangle (the
 * segment's exact features since session 41); {@link segmentEdgeTieFullArb} eMax = 0, up to the
 * triangle's size (the larger ones GJK/EPA's until session 42, capsule-triangle's `exactFeatures`).
 */
export function segmentEdgeTie(eMax: number): fc.Arbitrary<SegmentEdgeTieDraw> {
  return fc
    .tuple(
      fc.tuple(
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -10, max: eMax, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
      ),
      fc.tuple(
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.double({ min: -0.4, max: 0.4, noNaN: true }),
        fc.double({ min: -0.4, max: 0.4, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        unitArb,
      ),
      fc.tuple(
        fc.integer({ min: 0, max: 2 }),
        fc.oneof(
          fc.double({ min: 0.02, max: 0.98, noNaN: true }),
          fc.integer({ min: 10, max: 45 }).map((k) => 2 ** -k),
          fc.integer({ min: 10, max: 45 }).map((k) => 1 - 2 ** -k),
        ),
        fc.oneof(
          fc.constant(0),
          fc.constant(Math.PI / 2),
          fc.double({ min: 0, max: Math.PI / 2, noNaN: true }),
        ),
        fc.constantFrom(1, -1),
      ),
      fc.oneof(
        fc.constant(0),
        tinyArb(10, 50),
        fc.double({ min: -1, max: 1, noNaN: true }).map((e) => 10 ** e),
      ),
      fc.tuple(
        fc.oneof(
          tinyArb(8, 50),
          fc.double({ min: 0, max: Math.PI / 2, noNaN: true, maxExcluded: true }),
        ),
        fc.constantFrom(1, -1),
        tinyArb(10, 50),
      ),
      rotationArb,
      fc.tuple(unitArb, fc.constantFrom(0, 1, 1e3, 1e6)),
    )
    .map(
      ([
        [eT, eR, eL],
        [r0, r1, r2, j1, j2, centreFrac, centreDir],
        [k, s, alpha, side],
        delta,
        [beta, wSign, tau],
        q,
        [ou, om],
      ]) => {
        const T = 10 ** eT;
        const r = T * 10 ** eR;
        const L = Math.min(r * 10 ** eL, T);
        const corners = fatTriangle(T, [r0, r1, r2, j1, j2], centreFrac, centreDir);
        const n: V = [0, 0, side];
        const e = unit(sub(corners[(k + 1) % 3], corners[k]));
        // Counter-clockwise corners: e × (0, 0, 1) points out of the triangle.
        const outward = unit(cross(e, [0, 0, 1]));
        const x = add(corners[k], scale(sub(corners[(k + 1) % 3], corners[k]), s));
        const u = unit(add(scale(outward, Math.cos(alpha)), scale(n, Math.sin(alpha))));
        const g = r + delta * r;
        const near = add(x, scale(u, g));
        const w = scale(unit(cross(e, u)), wSign);
        const d = add(add(scale(w, Math.cos(beta)), scale(u, Math.sin(beta))), scale(e, tau));
        const far = add(near, scale(d, L));
        return capsuleTriangleDraw(q, near, far, r, corners, ou, om);
      },
    );
}

/** {@link segmentEdgeTie} with radii 10^(-10..-5.5) of the triangle. */
export const segmentEdgeTieArb: fc.Arbitrary<SegmentEdgeTieDraw> = segmentEdgeTie(-5.5);

/** {@link segmentEdgeTie} with radii 10^(-10..0) of the triangle. */
export const segmentEdgeTieFullArb: fc.Arbitrary<SegmentEdgeTieDraw> = segmentEdgeTie(0);
