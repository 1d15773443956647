/**
 * castShapes and castShapesNonlinear of two composites (mesh × mesh, mesh × compound, compound ×
 * compound) go through the composite module's node-pair search (src/narrowphase/composite.ts
 * `leastOverPartPairs`, bounded by swept boxes or by conservative advancement on the nodes'
 * balls). Oracle (brute force): the earliest time of impact over every part pair, each pair cast
 * alone — under linear motion as two shapes at the part's world pose (a body that does not
 * rotate carries its parts along its velocity); under rotation as two one-child compounds (the
 * part on the body's interpolated pose, the same motion), so no node bound can drop the pair.
 * Starts within 1e-9 of touching are left out (the part predicates' tolerance, not the search).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { distance } from "../../src/query/distance.js";
import {
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { ConvexShape, Shape } from "../../src/shapes/shape.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { unitQuatOf } from "../fuzz/arbitraries.js";

/** A composite and its parts (shape and pose in the composite's frame). */
interface Composite {
  shape: Shape;
  parts: { shape: ConvexShape; pose: Isometry }[];
}

const coord = fc.double({ min: -1, max: 1, noNaN: true });
const point = fc.tuple(coord, coord, coord);

/** A triangle soup of 1–40 triangles (a tree of several levels) in [−1, 1]³ (non-degenerate). */
const mesh: fc.Arbitrary<Composite> = fc
  .array(fc.tuple(point, point, point), { minLength: 1, maxLength: 40 })
  .filter((ts) =>
    ts.every(([a, b, c]) => {
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      return Math.hypot(n[0], n[1], n[2]) > 1e-3;
    }),
  )
  .map((ts) => {
    const v = ts.flatMap(([a, b, c]) => [...a, ...b, ...c]);
    const idx = ts.flatMap((_, k) => [3 * k, 3 * k + 1, 3 * k + 2]);
    const P = (k: number) => ({ x: v[3 * k], y: v[3 * k + 1], z: v[3 * k + 2] });
    return {
      shape: makeTriangleMesh(v, idx),
      parts: ts.map((_, k) => ({
        shape: makeTriangle(P(3 * k), P(3 * k + 1), P(3 * k + 2)) as ConvexShape,
        pose: iso.identity(),
      })),
    };
  });

const unitQuat = unitQuatOf(coord);

const child: fc.Arbitrary<ConvexShape> = fc.oneof(
  fc.double({ min: 0.05, max: 0.5, noNaN: true }).map((r) => makeSphere(r)),
  fc
    .tuple(
      fc.double({ min: 0.05, max: 0.4, noNaN: true }),
      fc.double({ min: 0.05, max: 0.4, noNaN: true }),
      fc.double({ min: 0.05, max: 0.4, noNaN: true }),
    )
    .map(([x, y, z]) => makeCuboid({ x, y, z })),
  fc
    .tuple(
      fc.double({ min: 0, max: 0.4, noNaN: true }),
      fc.double({ min: 0.05, max: 0.3, noNaN: true }),
    )
    .map(([h, r]) => makeCapsule({ x: 0, y: -h, z: 0 }, { x: 0, y: h, z: 0 }, r)),
);

/** A compound of 1–12 convex children at random poses. */
const compound: fc.Arbitrary<Composite> = fc
  .array(fc.tuple(child, point, unitQuat), { minLength: 1, maxLength: 12 })
  .map((cs) => {
    const parts = cs.map(([shape, [x, y, z], rotation]) => ({
      shape,
      pose: { translation: { x, y, z }, rotation },
    }));
    return { shape: makeCompound(parts), parts };
  });

const composite = fc.oneof(mesh, compound);

const pose: fc.Arbitrary<Isometry> = fc
  .tuple(point, unitQuat)
  .map(([[x, y, z], rotation]) => ({ translation: { x: 3 * x, y: 3 * y, z: 3 * z }, rotation }));
const velocity: fc.Arbitrary<Vec3> = point.map(([x, y, z]) => ({ x: 4 * x, y: 4 * y, z: 4 * z }));

function world(body: Isometry, part: Isometry): Isometry {
  return iso.multiply(iso.identity(), body, part);
}

/** Brute force, linear: the earliest toi over the part pairs, each cast alone. */
function bruteLinear(
  A: Composite,
  pa: Isometry,
  va: Vec3,
  B: Composite,
  pb: Isometry,
  vb: Vec3,
  maxToi: number,
): number {
  let best = Infinity;
  for (const a of A.parts)
    for (const b of B.parts) {
      const h = castShapes(a.shape, world(pa, a.pose), va, b.shape, world(pb, b.pose), vb, maxToi);
      if (h && h.toi < best) best = h.toi;
    }
  return best;
}

/** Brute force, rotating: each part pair as two one-child compounds on the bodies' motions. */
function bruteNonlinear(
  A: Composite,
  a0: Isometry,
  a1: Isometry,
  B: Composite,
  b0: Isometry,
  b1: Isometry,
): number {
  let best = Infinity;
  for (const a of A.parts)
    for (const b of B.parts) {
      const ca = makeCompound([a]);
      const cb = makeCompound([b]);
      const h = castShapesNonlinear(ca, a0, a1, cb, b0, b1);
      if (h && h.toi < best) best = h.toi;
    }
  return best;
}

describe("castShapes of two composites: the earliest part-pair time of impact", () => {
  it("linear: equals brute force over part pairs (fast-check)", () => {
    fc.assert(
      fc.property(composite, pose, velocity, composite, pose, velocity, (A, pa, va, B, pb, vb) => {
        // Pairs within rounding of touching at the start are left out: whether they touch is the
        // part-pair predicates' call (Möller's test and GJK may differ at 1e-14), not the search's.
        fc.pre(distance(A.shape, pa, B.shape, pb).distance > 1e-9);
        const maxToi = 2;
        const h = castShapes(A.shape, pa, va, B.shape, pb, vb, maxToi);
        const brute = bruteLinear(A, pa, va, B, pb, vb, maxToi);
        expect(h === null).toBe(brute === Infinity);
        if (!h) return;
        expect(Math.abs(h.toi - brute)).toBeLessThanOrEqual(1e-7 * (1 + brute));
        expect(Math.hypot(h.normal.x, h.normal.y, h.normal.z)).toBeCloseTo(1, 9);
      }),
      { numRuns: 120, seed: 1412 },
    );
  });

  it("rotating: equals brute force over part pairs (fast-check)", () => {
    fc.assert(
      fc.property(composite, pose, pose, composite, pose, pose, (A, a0, a1, B, b0, b1) => {
        fc.pre(distance(A.shape, a0, B.shape, b0).distance > 1e-9);
        const h = castShapesNonlinear(A.shape, a0, a1, B.shape, b0, b1);
        const brute = bruteNonlinear(A, a0, a1, B, b0, b1);
        expect(h === null).toBe(brute === Infinity);
        if (!h) return;
        // The one-child compounds' lever arm (their bounding radius) is not the bodies', so the
        // rotating bound's steps differ; each stops within the cast's tolerance of touching,
        // which in time is that gap over the closing speed (larger on a grazing approach).
        expect(Math.abs(h.toi - brute)).toBeLessThanOrEqual(1e-5 * (1 + brute));
      }),
      { numRuns: 80, seed: 1413 },
    );
  });

  it("a mesh falling onto a mesh from far: the first triangle pair, both orders", () => {
    // Two unit squares (two triangles each), B 5 above A moving down at 2: toi (5 − 0) / 2.
    const sq = makeTriangleMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 2, 1, 0, 3, 2]);
    const id = iso.identity();
    const up = { translation: { x: 0.3, y: 5, z: -0.2 }, rotation: id.rotation };
    const h = castShapes(sq, id, { x: 0, y: 0, z: 0 }, sq, up, { x: 0, y: -2, z: 0 }, 10);
    expect(h).not.toBeNull();
    if (h) expect(h.toi).toBeCloseTo(2.5, 9);
    const r = castShapes(sq, up, { x: 0, y: -2, z: 0 }, sq, id, { x: 0, y: 0, z: 0 }, 10);
    expect(r).not.toBeNull();
    if (r) expect(r.toi).toBeCloseTo(2.5, 9);
  });
});
