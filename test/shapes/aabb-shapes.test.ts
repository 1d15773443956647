import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as aabb from "../../src/math/aabb.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { intersectsCuboidCuboid } from "../../src/narrowphase/cuboid-cuboid.js";
import {
  aabbShape,
  type ConvexShape,
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCuboidFromMinMax,
  makeCylinder,
  makeSphere,
  makeTriangle,
  supportShape,
} from "../../src/shapes/index.js";
import { num, pose, vec } from "../oracles/arbitraries.js";

/** Oracle: the world AABB from the support function along ±x, ±y, ±z (rotated into the shape's frame). */
function supportAabb(s: ConvexShape, p: Isometry): aabb.Aabb {
  const out = aabb.empty();
  const d = vec3.create();
  const local = vec3.create();
  const w = vec3.create();
  for (let i = 0; i < 3; i++) {
    for (const sign of [-1, 1]) {
      vec3.set(d, 0, 0, 0);
      vec3.setAxis(d, i, sign);
      quat.inverseRotate(local, p.rotation, d);
      supportShape(w, s, local);
      iso.transformPoint(w, p, w);
      aabb.expandByPoint(out, out, w);
    }
  }
  return out;
}

const shapeArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.01, 3).map((r) => makeSphere(r)),
  vec(0, 2).map((h) => makeCuboid(h)),
  fc.tuple(vec(-1, 1), vec(-1, 1), num(0.01, 1)).map(([a, b, r]) => makeCapsule(a, b, r)),
  fc.tuple(num(0.01, 2), num(0.01, 2)).map(([h, r]) => makeCylinder(h, r)),
  fc.tuple(num(0.01, 2), num(0.01, 2)).map(([h, r]) => makeCone(h, r)),
  fc.tuple(vec(-1, 1), vec(-1, 1), vec(-1, 1)).map(([a, b, c]) => makeTriangle(a, b, c)),
  fc.constant(
    makeConvexPolyhedron([
      vec3.create(0, 0, 0),
      vec3.create(1, 0, 0),
      vec3.create(0, 1, 0),
      vec3.create(0, 0, 1),
      vec3.create(0.7, 0.6, 0.5),
    ]),
  ),
);

describe("world AABBs of shapes", () => {
  it("are tight under any pose: equal to the support function's extents along the axes", () => {
    fc.assert(
      fc.property(shapeArb, pose(-100, 100), (s, p) => {
        const got = aabbShape(aabb.empty(), s, p);
        const want = supportAabb(s, p);
        const size = vec3.length(p.translation) + 10;
        for (const k of ["min", "max"] as const) {
          for (const c of ["x", "y", "z"] as const) {
            expect(Math.abs(got[k][c] - want[k][c])).toBeLessThanOrEqual(1e-13 * size);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it("a rotated box's AABB has half extents |R|·h and contains its 8 corners", () => {
    fc.assert(
      fc.property(vec(0, 3), pose(-5, 5), (h, p) => {
        const b = aabbShape(aabb.empty(), makeCuboid(h), p);
        for (const sx of [-1, 1])
          for (const sy of [-1, 1])
            for (const sz of [-1, 1]) {
              const c = iso.transformPoint(
                vec3.create(),
                p,
                vec3.create(sx * h.x, sy * h.y, sz * h.z),
              );
              const grown = aabb.expandByMargin(aabb.empty(), b, 1e-12);
              expect(aabb.containsPoint(grown, c)).toBe(true);
            }
      }),
    );
  });
});

describe("AABB in both representations", () => {
  const boxArb = fc.tuple(vec(-5, 5), vec(0, 3)).map(([c, h]) => ({ c, h }));
  it("min/max and centre + half extents convert both ways", () => {
    fc.assert(
      fc.property(boxArb, ({ c, h }) => {
        const b = aabb.fromCenterHalfExtents(aabb.empty(), c, h);
        const c2 = aabb.center(vec3.create(), b);
        const h2 = aabb.halfExtents(vec3.create(), b);
        expect(vec3.equals(c, c2, 1e-14)).toBe(true);
        expect(vec3.equals(h, h2, 1e-14)).toBe(true);
        const { shape, center } = makeCuboidFromMinMax(b.min, b.max);
        expect(vec3.equals(shape.halfExtents, h, 1e-14)).toBe(true);
        expect(vec3.equals(center, c, 1e-14)).toBe(true);
      }),
    );
  });

  it("the overlap tests agree: min/max, centre/half extents, and the box–box SAT with no rotation", () => {
    // Integer-valued boxes make touching exact in both representations.
    const intBox = fc
      .tuple(
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
      )
      .map(([x, y, z, a, b, c]) => ({
        c: vec3.create(x, y, z),
        h: vec3.create(a / 2, b / 2, c / 2),
      }));
    fc.assert(
      fc.property(intBox, intBox, (A, B) => {
        const a = aabb.fromCenterHalfExtents(aabb.empty(), A.c, A.h);
        const b = aabb.fromCenterHalfExtents(aabb.empty(), B.c, B.h);
        const minMax = aabb.overlaps(a, b);
        const centre = aabb.overlapsCenterHalfExtents(A.c, A.h, B.c, B.h);
        const bInA = iso.create(vec3.sub(vec3.create(), B.c, A.c));
        const sat = intersectsCuboidCuboid(makeCuboid(A.h), makeCuboid(B.h), bInA);
        expect(centre).toBe(minMax);
        expect(sat).toBe(minMax);
      }),
      { numRuns: 500 },
    );
  });
});

describe("shape constructors refuse bad input with a CollideError naming the field", () => {
  const bad: [() => unknown, string][] = [
    [() => makeSphere(Number.NaN), "radius"],
    [() => makeSphere(-1), "radius"],
    [() => makeSphere(0), "radius"],
    [() => makeSphere(Number.POSITIVE_INFINITY), "radius"],
    [() => makeCuboid(vec3.create(1, -1, 1)), "halfExtents"],
    [() => makeCuboid(vec3.create(1, Number.NaN, 1)), "halfExtents"],
    [() => makeCapsule(vec3.create(), vec3.create(1, 0, 0), 0, "pill"), "pill.radius"],
    [() => makeCapsule(vec3.create(Number.NaN, 0, 0), vec3.create(), 1), "a"],
    [() => makeCylinder(0, 1), "halfHeight"],
    [() => makeCone(1, -2), "radius"],
    [() => makeTriangle(vec3.create(), vec3.create(Infinity, 0, 0), vec3.create()), "b"],
    // Coplanar points make a flat polygon (test/shapes/flat-polygon.test.ts); fewer than 3,
    // coincident or collinear points are refused.
    [() => makeConvexPolyhedron([vec3.create(), vec3.create(1, 0, 0)]), "points"],
    [
      () =>
        makeConvexPolyhedron([
          vec3.create(),
          vec3.create(1, 1, 1),
          vec3.create(2, 2, 2),
          vec3.create(3, 3, 3),
        ]),
      "points",
    ],
    [() => makeCuboidFromMinMax(vec3.create(1, 0, 0), vec3.create(0, 1, 1)), "max"],
  ];
  bad.forEach(([f, field], i) => {
    it(`case ${i}: field ${field}`, () => {
      let err: unknown;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(Error);
      expect((err as { name: string }).name).toBe("CollideError");
      expect((err as { field: string }).field).toBe(field);
      expect((err as Error).message).toContain(field);
    });
  });
});

describe("math", () => {
  it("invMul gives B's pose in A's frame: A ∘ (A⁻¹ ∘ B) = B", () => {
    fc.assert(
      fc.property(pose(-10, 10), pose(-10, 10), vec(-3, 3), (a, b, p) => {
        const bInA = iso.invMul(iso.identity(), a, b);
        const viaA = iso.transformPoint(
          vec3.create(),
          a,
          iso.transformPoint(vec3.create(), bInA, p),
        );
        const direct = iso.transformPoint(vec3.create(), b, p);
        expect(vec3.distance(viaA, direct)).toBeLessThan(1e-12 * 30);
        const inv = iso.invert(iso.identity(), a);
        const back = iso.transformPoint(
          vec3.create(),
          inv,
          iso.transformPoint(vec3.create(), a, p),
        );
        expect(vec3.distance(back, p)).toBeLessThan(1e-12 * 30);
      }),
    );
  });

  it("quaternion rotation agrees with the rotation matrix; fromMat3 inverts fromQuat", async () => {
    const mat3 = await import("../../src/math/mat3.js");
    fc.assert(
      fc.property(pose(0, 0), vec(-3, 3), (p, v) => {
        const m = mat3.fromQuat(mat3.create(), p.rotation);
        const a = quat.rotate(vec3.create(), p.rotation, v);
        const b = mat3.transform(vec3.create(), m, v);
        expect(vec3.distance(a, b)).toBeLessThan(1e-13 * 10);
        const q = quat.fromMat3(quat.create(), m);
        const c = quat.rotate(vec3.create(), q, v);
        expect(vec3.distance(a, c)).toBeLessThan(1e-12 * 10);
      }),
    );
  });

  it("normalize never returns NaN, even for subnormal and huge vectors", () => {
    const cases: Vec3[] = [
      vec3.create(5e-324, 5e-324, 0),
      vec3.create(0, 0, 5e-324),
      vec3.create(1e308, 1e308, 1e308),
      vec3.create(0, 0, 0),
    ];
    for (const v of cases) {
      const out = vec3.create(7, 7, 7);
      const len = vec3.normalize(out, v);
      expect(Number.isFinite(out.x + out.y + out.z)).toBe(true);
      if (len > 0) expect(vec3.length(out)).toBeCloseTo(1, 12);
    }
  });
});
