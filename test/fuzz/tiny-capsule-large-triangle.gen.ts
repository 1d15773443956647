/**
 * Issue 16, seed 100's class: a tiny capsule touching a huge triangle (size ratio 1e6..1e10), on
 * its face, near or across an edge, at a corner, its segment along any direction — perpendicular
 * to the surface, nearly parallel to it, or between — the pair turned and moved by an offset to
 * 1e6 (test/fuzz/tiny-capsule-large-triangle.test.ts; see {@link tinyCapsuleLargeTriangleArb}).
 */
import fc from "fast-check";
import { rotationArb, unitArb } from "./arbitraries.js";
import { exactOffset } from "./generate.js";
import { add, cross, rotate, scale, sub, unit, type V } from "./oracle-shapes.js";

type J = Record<string, unknown>;

/** A capsule and a triangle (JSON, local frame) and the offset into the world. */
export interface CapsuleTriangleDraw {
  capsule: J;
  triangle: J;
  offset: number[];
}

/** One draw: {@link CapsuleTriangleDraw} and the feature touched. */
export interface TinyCapsuleDraw extends CapsuleTriangleDraw {
  feature: "face" | "edge" | "corner";
}

/**
 * A fat triangle's corners (counter-clockwise in the xy-plane): at angles 0, 2π/3 + j1 and
 * 4π/3 + j2 about a centre `centreFrac`·T along the unit `centreDir`, at r0, r1, r2 of T from it.
 */
export function fatTriangle(
  T: number,
  [r0, r1, r2, j1, j2]: readonly number[],
  centreFrac: number,
  centreDir: readonly number[],
): V[] {
  const centre = scale(centreDir as V, centreFrac * T);
  const angles = [0, (2 * Math.PI) / 3 + j1, (4 * Math.PI) / 3 + j2];
  const radii = [r0, r1, r2];
  return angles.map((t, i) =>
    add(centre, [T * radii[i] * Math.cos(t), T * radii[i] * Math.sin(t), 0]),
  );
}

/**
 * The draw of the capsule from `near` to `far` (radius r) and the triangle of `corners`, both
 * turned by the unit quaternion q ([x, y, z, w]), and the offset `exactOffset(ou, om)`.
 */
export function capsuleTriangleDraw(
  q: readonly number[],
  near: V,
  far: V,
  r: number,
  corners: readonly V[],
  ou: readonly number[],
  om: number,
): CapsuleTriangleDraw {
  const turn = (v: V): V => rotate(q as number[], v);
  return {
    capsule: { type: "capsule", a: turn(near), b: turn(far), radius: r },
    triangle: {
      type: "triangle",
      a: turn(corners[0]),
      b: turn(corners[1]),
      c: turn(corners[2]),
    },
    offset: exactOffset(ou as number[], om),
  };
}

/**
 * A fat triangle of size T = r·10^(6..10) (corners at angles about 120° apart, at 0.5..1 of T from
 * its centre, which lies 0..T from the local origin), a point X on it — inside its face, on an
 * edge, or a corner — and a unit direction u in the triangle's normal cone there (±n on the face;
 * between ±n and the edge's outward in-plane normal on an edge; any mix of ±n and the two edges'
 * outward normals at a corner); the capsule's near end at X + u·(r − overlap), overlap 0,
 * ±10^(-15..-9) of T (at most r/2) or ±10^(-6..-0.5) of r, its segment of 10^(-1..1)·r leaving along cos β·u + sin β·w
 * (w ⊥ u), β = 0, 2^-k short of π/2 or any in between, so the near end stays the segment's closest
 * point; radius 10^(-10..-3); the pair turned, then moved by an offset of 0, 1, 1e3 or 1e6 along a
 * random direction.
 */
export const tinyCapsuleLargeTriangleArb: fc.Arbitrary<TinyCapsuleDraw> = fc
  .tuple(
    fc.double({ min: -10, max: -3, noNaN: true }),
    fc.double({ min: 6, max: 10, noNaN: true }),
    fc.tuple(
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      fc.double({ min: 0.5, max: 1, noNaN: true }),
      fc.double({ min: -0.4, max: 0.4, noNaN: true }),
      fc.double({ min: -0.4, max: 0.4, noNaN: true }),
    ),
    fc.double({ min: 0, max: 1, noNaN: true }),
    unitArb,
    fc.constantFrom("face", "edge", "corner") as fc.Arbitrary<"face" | "edge" | "corner">,
    fc.tuple(
      fc.double({ min: 0.02, max: 0.98, noNaN: true }),
      fc.double({ min: 0.02, max: 0.98, noNaN: true }),
      fc.integer({ min: 0, max: 2 }),
    ),
    fc.tuple(
      fc.constantFrom(1, -1),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    fc.oneof(
      fc.constant(0),
      fc
        .tuple(fc.constantFrom(1, -1), fc.double({ min: -15, max: -9, noNaN: true }))
        .map(([s, e]): [number, number] => [s * 10 ** e, 0]),
      fc
        .tuple(fc.constantFrom(1, -1), fc.double({ min: -6, max: -0.5, noNaN: true }))
        .map(([s, e]): [number, number] => [0, s * 10 ** e]),
    ),
    fc.oneof(
      fc.constant(0),
      fc.integer({ min: 1, max: 40 }).map((k) => Math.PI / 2 - 2 ** -k),
      fc.double({ min: 0, max: Math.PI / 2, noNaN: true }),
    ),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    rotationArb,
    fc.tuple(unitArb, fc.constantFrom(0, 1, 1e3, 1e6)),
  )
  .map(
    ([
      er,
      eRatio,
      [r0, r1, r2, j1, j2],
      centreFrac,
      centreDir,
      feature,
      [s, w, k],
      [side, m1, m2],
      overlapRel,
      beta,
      gamma,
      eLen,
      q,
      [ou, om],
    ]) => {
      const r = 10 ** er;
      const T = r * 10 ** eRatio;
      const corners = fatTriangle(T, [r0, r1, r2, j1, j2], centreFrac, centreDir);
      const n: V = [0, 0, 1];
      // Outward in-plane normal of edge i (corner i to corner i + 1): counter-clockwise corners.
      const outward = (i: number): V => {
        const e = sub(corners[(i + 1) % 3], corners[i]);
        return unit(cross(e, n));
      };
      let x: V;
      let u: V;
      const nn = scale(n, side);
      if (feature === "face") {
        const w0 = s;
        const w1 = (1 - s) * w;
        const w2 = 1 - w0 - w1;
        x = add(add(scale(corners[0], w0), scale(corners[1], w1)), scale(corners[2], w2));
        u = nn;
      } else if (feature === "edge") {
        x = add(corners[k], scale(sub(corners[(k + 1) % 3], corners[k]), s));
        u = unit(add(scale(nn, m1), scale(outward(k), 1 - m1 + 1e-3)));
      } else {
        x = corners[k];
        const o1 = outward(k);
        const o2 = outward((k + 2) % 3);
        u = unit(add(add(scale(nn, m1), scale(o1, m2 + 1e-3)), scale(o2, 1 - m2 + 1e-3)));
      }
      const [ofT, ofR] = overlapRel === 0 ? [0, 0] : overlapRel;
      const overlap = ofR * r + Math.sign(ofT) * Math.min(Math.abs(ofT) * T, r / 2);
      const near = add(x, scale(u, r - overlap));
      // w ⊥ u, turned by gamma about u.
      const helper: V = Math.abs(u[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const w1v = unit(cross(u, helper));
      const w2v = cross(u, w1v);
      const wv = add(scale(w1v, Math.cos(gamma)), scale(w2v, Math.sin(gamma)));
      const d = add(scale(u, Math.cos(beta)), scale(wv, Math.sin(beta)));
      const far = add(near, scale(d, r * 10 ** eLen));
      return { ...capsuleTriangleDraw(q, near, far, r, corners, ou, om), feature };
    },
  );
