/**
 * Issue 16: the generator of capsules along needle triangles (test/fuzz/capsule-sliver.test.ts):
 * the triangle's long edge along its local x, its third corner 10^-15..10^-12.1 of the size off
 * it, the capsule lying over the edge parallel or slightly turned, touching or overlapping a
 * little, the pair turned and moved by an offset to 1e9 (see {@link capsuleSliverArb}).
 */
import fc from "fast-check";
import { offsetArb, rotationArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { add, rotate, scale, sub, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/**
 * A capsule along a sliver triangle: the triangle's long edge of size 10^-3..10^3 along its local
 * x, its third corner at a corner (0 or 1 along the edge, the line's two corners near each other)
 * or inside it, moved off the edge by 10^lo..10^hi of the size (needles, below 2^-40, at the
 * defaults −15..−12.1: {@link capsuleSliverArb}; thicker slivers, up to 2^-20, at −12.1..−6.1:
 * {@link capsuleThinSliverArb}); the capsule's axis along the
 * edge turned by 0 or 2^-5..2^-45 rad about the direction to it (or any way, 2^-k about a
 * tilted axis), its segment 10^-1..1 of the size, its radius 10^-3..1 of it, its centre over a point
 * of the edge at the radius less an overlap of 0 or 10^-12..10^-9 of the size; the pair turned,
 * then moved by an offset to 1e9.
 */
export const capsuleSliverArbOf = (lo: number, hi: number) =>
  fc
    .tuple(
      fc.double({ min: -3, max: 3, noNaN: true }),
      fc.double({ min: lo, max: hi, noNaN: true }),
      fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.oneof(
        fc.constant(0),
        fc.integer({ min: 5, max: 45 }).map((k) => 2 ** -k),
      ),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.double({ min: -3, max: 0, noNaN: true }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      fc.double({ min: 2 ** -10, max: 1 - 2 ** -10, noNaN: true }),
      fc.oneof(
        fc.constant(0),
        fc.double({ min: -12, max: -9, noNaN: true }).map((e) => 10 ** e),
      ),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      rotationArb,
      offsetArb,
    )
    .map(([es, er, t, psi, tilt, phi, eRad, half, tau, overlap, chi, q, [ou, om]]) => {
      const size = 10 ** es;
      const a: V = [0, 0, 0];
      const b: V = [size, 0, 0];
      // The third corner: at t along the edge, 10^er of the size off it in the direction psi.
      const c: V = [size * t, size * 10 ** er * Math.cos(psi), size * 10 ** er * Math.sin(psi)];
      const r = size * 10 ** eRad;
      // The direction from the edge to the capsule, and the capsule's axis turned by `tilt`
      // about it (chi = 0) or about an axis between it and the edge's perpendicular.
      const n: V = [0, Math.cos(phi), Math.sin(phi)];
      const m: V = [0, -Math.sin(phi), Math.cos(phi)];
      const k = add(scale(n, Math.cos(chi)), scale(m, Math.sin(chi)));
      // Rodrigues: x turned by tilt about k (k ⊥ x).
      const axis = add(scale([1, 0, 0], Math.cos(tilt)), scale([0, -k[2], k[1]], Math.sin(tilt)));
      const foot: V = [size * tau, 0, 0];
      const centre = add(foot, scale(n, r - overlap * size));
      const h = scale(axis, half * size);
      const turn = (v: V): V => rotate(q, v);
      return {
        capsule: {
          type: "capsule",
          a: turn(add(centre, h)),
          b: turn(sub(centre, h)),
          radius: r,
        } as J,
        triangle: { type: "triangle", a: turn(a), b: turn(b), c: turn(c) } as J,
        offset: exactOffset(ou, Math.min(1e9, om * size * 1e7)),
      };
    });

/** Capsules along needles, least height 10^-15..10^-12.1 of the edge (see {@link capsuleSliverArbOf}). */
export const capsuleSliverArb = capsuleSliverArbOf(-15, -12.1);

/** Capsules along slivers of least height 10^-12.1..10^-6.1 of the edge, up to 2^-20. */
export const capsuleThinSliverArb = capsuleSliverArbOf(-12.1, -6.1);
