import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gjkRayCast, makeGjkRayHit } from "../../src/geometry/gjk-raycast.js";
import {
  makeRayInterval,
  RAY_MISS,
  RAY_TRIANGLE_DEGENERATE,
  rayIntervalCapsule,
  rayIntervalCone,
  rayIntervalConvexPolyhedron,
  rayIntervalCuboid,
  rayIntervalCylinder,
  rayIntervalSphere,
  rayTriangle,
  selectRayHit,
} from "../../src/geometry/ray-primitives.js";
import { PointCloudSupport } from "../../src/geometry/support.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { ShapeCoreSupport } from "../../src/narrowphase/convex-convex.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { num, vec } from "../oracles/arbitraries.js";

/** A point on a grid of step 1/64 (exact in binary) with |components| ≤ lim, plus a random offset. */
function gridVec(lim: number): fc.Arbitrary<Vec3> {
  const c = fc.integer({ min: -64 * lim, max: 64 * lim }).map((i) => i / 64);
  return fc
    .tuple(c, c, c, fc.double({ min: -0.01, max: 0.01, noNaN: true }))
    .map(([x, y, z, e]) => vec3.create(x + e, y - e, z + 2 * e));
}

const iv = makeRayInterval();
const n = vec3.create();

/** Closed-form cast of a shape in its local frame (t or RAY_MISS), normal in `n`. */
function closedForm(s: ConvexShape, o: Vec3, d: Vec3, maxToi: number, solid: boolean): number {
  let ok = false;
  switch (s.type) {
    case ShapeType.Sphere:
      ok = rayIntervalSphere(iv, s.radius, o, d);
      break;
    case ShapeType.Cuboid:
      ok = rayIntervalCuboid(iv, s.halfExtents, o, d);
      break;
    case ShapeType.Capsule:
      ok = rayIntervalCapsule(iv, s.a, s.b, s.radius, o, d);
      break;
    case ShapeType.Cylinder:
      ok = rayIntervalCylinder(iv, s.halfHeight, s.radius, o, d);
      break;
    case ShapeType.Cone:
      ok = rayIntervalCone(iv, s.halfHeight, s.radius, o, d);
      break;
    case ShapeType.ConvexPolyhedron:
      ok = rayIntervalConvexPolyhedron(iv, s.faceNormals, s.facePlaneOffsets, o, d);
      break;
    default:
      throw new Error("not a solid primitive");
  }
  return ok ? selectRayHit(n, iv, maxToi, solid) : RAY_MISS;
}

const shapeArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.2, 2).map((r) => makeSphere(r) as ConvexShape),
  vec(0.1, 2).map((h) => makeCuboid(h) as ConvexShape),
  fc
    .tuple(vec(-1, 1), vec(-1, 1), num(0.1, 1))
    .map(([a, b, r]) => makeCapsule(a, b, r) as ConvexShape),
  fc.tuple(num(0.2, 2), num(0.2, 2)).map(([h, r]) => makeCylinder(h, r) as ConvexShape),
  fc.tuple(num(0.2, 2), num(0.2, 2)).map(([h, r]) => makeCone(h, r) as ConvexShape),
  fc
    .array(
      fc
        .tuple(fc.integer({ min: -150, max: 150 }), fc.integer({ min: -150, max: 150 }))
        .chain(([x, y]) =>
          fc.integer({ min: -150, max: 150 }).map((z) => vec3.create(x / 100, y / 100, z / 100)),
        ),
      { minLength: 6, maxLength: 14 },
    )
    .map((pts) => {
      try {
        return makeConvexPolyhedron(pts) as ConvexShape;
      } catch {
        return makeCuboid(vec3.create(1, 0.5, 0.25)) as ConvexShape;
      }
    }),
);

describe("GJK ray cast against the closed forms (independent algorithms)", () => {
  const core = new ShapeCoreSupport();
  const hit = makeGjkRayHit();
  it("agree on hit/miss, time of impact and normal", () => {
    fc.assert(
      fc.property(shapeArb, vec(-5, 5), vec(-1.2, 1.2), fc.boolean(), (s, o, target, solid) => {
        const d = vec3.sub(vec3.create(), target, o);
        if (vec3.length(d) < 1e-3) return;
        const maxToi = 3;
        const t = closedForm(s, o, d, maxToi, solid);
        const ok = gjkRayCast(hit, core.reset(s), o, d, maxToi, solid);
        const scale = 5 / vec3.length(d);
        if (t >= 0 && ok) {
          expect(Math.abs(hit.toi - t)).toBeLessThan(1e-6 * scale);
          const outside = closedForm(s, o, d, 0, true) === RAY_MISS;
          if (t > 1e-6 && hit.toi > 1e-6) {
            // Both are outward normals: against the ray on entry, along it on exit.
            const sign = outside ? 1 : -1;
            expect(sign * vec3.dot(hit.normal, d)).toBeLessThanOrEqual(1e-9);
            expect(sign * vec3.dot(n, d)).toBeLessThanOrEqual(1e-9);
          }
        } else if (t >= 0 !== ok) {
          // Only a grazing ray may disagree, and then the two answers are near each other.
          const tt = t >= 0 ? t : hit.toi;
          const p = vec3.addScaled(vec3.create(), o, d, tt);
          const back = closedForm(s, p, d, 1e-6 * scale, true);
          const fwd = gjkRayCast(hit, core.reset(s), p, d, 1e-6 * scale, true);
          expect(back >= 0 || fwd).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("handles a point cloud with a margin and a hollow cast from inside", () => {
    const cloud = new PointCloudSupport().reset(
      new Float64Array([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1]),
      0.5,
    );
    // Octahedron |x|+|y|+|z| ≤ 1 swept by 0.5: along +x it reaches 1.5.
    expect(gjkRayCast(hit, cloud, vec3.create(5, 0, 0), vec3.create(-1, 0, 0), 10, true)).toBe(
      true,
    );
    expect(hit.toi).toBeCloseTo(3.5, 8);
    expect(hit.normal.x).toBeCloseTo(1, 6);
    expect(gjkRayCast(hit, cloud, vec3.create(0, 0, 0), vec3.create(0, 2, 0), 10, false)).toBe(
      true,
    );
    expect(hit.toi).toBeCloseTo(0.75, 8);
    expect(gjkRayCast(hit, cloud, vec3.create(0, 0, 0), vec3.create(0, 2, 0), 10, true)).toBe(true);
    expect(hit.toi).toBe(0);
    expect(vec3.length(hit.normal)).toBe(0);
    expect(gjkRayCast(hit, cloud, vec3.create(5, 5, 0), vec3.create(1, 0, 0), 10, true)).toBe(
      false,
    );
    // Zero direction: a point query.
    expect(gjkRayCast(hit, cloud, vec3.create(0.1, 0, 0), vec3.create(), 10, true)).toBe(true);
    expect(gjkRayCast(hit, cloud, vec3.create(3, 0, 0), vec3.create(), 10, true)).toBe(false);
  });
});

describe("closed forms: exact hand-derived values", () => {
  it("sphere: stable roots far away and from inside", () => {
    expect(rayIntervalSphere(iv, 1, vec3.create(-1e8, 0, 0), vec3.create(1, 0, 0))).toBe(true);
    expect(Math.abs(iv.tEnter - (1e8 - 1))).toBeLessThanOrEqual(2e-8);
    expect(iv.tExit).toBe(1e8 + 1);
    expect(rayIntervalSphere(iv, 2, vec3.create(0, 0, 0), vec3.create(0, 0, 1))).toBe(true);
    expect(iv.tEnter).toBe(-2);
    expect(iv.tExit).toBe(2);
    expect(vec3.exactEquals(iv.normalExit, { x: 0, y: 0, z: 1 })).toBe(true);
    // Tangent: a single point, closed.
    expect(rayIntervalSphere(iv, 1, vec3.create(-3, 1, 0), vec3.create(1, 0, 0))).toBe(true);
    expect(iv.tEnter).toBe(3);
    expect(rayIntervalSphere(iv, 1, vec3.create(-3, 1 + 1e-12, 0), vec3.create(1, 0, 0))).toBe(
      false,
    );
  });

  it("selectRayHit: solid, hollow, maxToi, infinite ends", () => {
    rayIntervalCuboid(iv, vec3.create(1, 1, 1), vec3.create(0, 0, 0), vec3.create(0, 0, 0));
    expect(iv.tEnter).toBe(-Infinity);
    expect(selectRayHit(n, iv, 10, true)).toBe(0);
    expect(selectRayHit(n, iv, Infinity, false)).toBe(RAY_MISS);
    rayIntervalCuboid(iv, vec3.create(1, 1, 1), vec3.create(-3, 0, 0), vec3.create(1, 0, 0));
    expect(selectRayHit(n, iv, 10, true)).toBe(2);
    expect(vec3.exactEquals(n, { x: -1, y: 0, z: 0 })).toBe(true);
    expect(selectRayHit(n, iv, 1.5, true)).toBe(RAY_MISS);
  });

  it("cone: quadric cases (steep, shallow, along a generator) and the base", () => {
    // Cone h = 1, r = 1: side ρ = (1 − y)/2.
    expect(rayIntervalCone(iv, 1, 1, vec3.create(0, 3, 0), vec3.create(0, -1, 0))).toBe(true);
    expect(iv.tEnter).toBe(2);
    expect(iv.tExit).toBe(4);
    expect(vec3.exactEquals(iv.normalExit, { x: 0, y: -1, z: 0 })).toBe(true);
    expect(rayIntervalCone(iv, 1, 1, vec3.create(-3, 0, 0), vec3.create(1, 0, 0))).toBe(true);
    expect(iv.tEnter).toBeCloseTo(2.5, 14);
    expect(iv.tExit).toBeCloseTo(3.5, 14);
    // Above the apex, sideways: misses (the upper nappe is cut off).
    expect(rayIntervalCone(iv, 1, 1, vec3.create(-3, 2, 0), vec3.create(1, 0, 0))).toBe(false);
    // Upward steep ray under the cone axis through the base then out the side.
    expect(rayIntervalCone(iv, 1, 1, vec3.create(0.2, -3, 0), vec3.create(0, 1, 0))).toBe(true);
    expect(iv.tEnter).toBe(2);
    expect(iv.tExit).toBeCloseTo(3.6, 14);
  });

  it("cylinder and capsule: axis-parallel lines inside the side", () => {
    expect(rayIntervalCylinder(iv, 1, 1, vec3.create(0.5, -5, 0), vec3.create(0, 1, 0))).toBe(true);
    expect([iv.tEnter, iv.tExit]).toEqual([4, 6]);
    expect(rayIntervalCylinder(iv, 1, 1, vec3.create(1.5, -5, 0), vec3.create(0, 1, 0))).toBe(
      false,
    );
    const a = vec3.create(0, -1, 0);
    const b = vec3.create(0, 1, 0);
    expect(rayIntervalCapsule(iv, a, b, 1, vec3.create(0, -5, 0), vec3.create(0, 1, 0))).toBe(true);
    expect([iv.tEnter, iv.tExit]).toEqual([3, 7]);
    expect(rayIntervalCapsule(iv, a, b, 1, vec3.create(-5, 0.5, 0), vec3.create(1, 0, 0))).toBe(
      true,
    );
    expect([iv.tEnter, iv.tExit]).toEqual([4, 6]);
    expect(vec3.exactEquals(iv.normalEnter, { x: -1, y: 0, z: 0 })).toBe(true);
  });
});

describe("watertight ray–triangle (Woop, Benthin & Wald 2013)", () => {
  it("a ray through a shared edge or vertex hits at least one neighbour", () => {
    fc.assert(
      fc.property(
        gridVec(10),
        gridVec(10),
        gridVec(10),
        gridVec(10),
        gridVec(20),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (p, q, r, s, o, u) => {
          // Quad p q r s split along the diagonal p–r: triangles (p, q, r) and (p, r, s).
          const target = vec3.lerp(vec3.create(), p, r, u);
          const d = vec3.sub(vec3.create(), target, o);
          if (vec3.length(d) === 0) return;
          const t1 = rayTriangle(n, p, q, r, o, d);
          const t2 = rayTriangle(n, p, r, s, o, d);
          const hit = (t: number) => t >= 0 || t === RAY_TRIANGLE_DEGENERATE;
          // The quad may fold so that the ray sees the edge from outside both; only when q and
          // s lie on opposite sides of the plane through the ray and the edge is a hit due.
          const m = vec3.cross(vec3.create(), vec3.sub(vec3.create(), r, p), d);
          const sq = vec3.dot(m, vec3.sub(vec3.create(), q, p));
          const ss = vec3.dot(m, vec3.sub(vec3.create(), s, p));
          const size = vec3.length(m) * (vec3.distance(q, p) + vec3.distance(s, p));
          const edge = vec3.distance(r, p) * vec3.length(d);
          const transversal = vec3.length(m) > 1e-6 * edge;
          if (transversal && sq * ss < 0 && Math.min(Math.abs(sq), Math.abs(ss)) > 1e-9 * size) {
            expect(hit(t1) || hit(t2)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the normal faces the ray origin; t is exact on axis rays", () => {
    const a = vec3.create(0, 0, 0);
    const b = vec3.create(2, 0, 0);
    const c = vec3.create(0, 2, 0);
    expect(rayTriangle(n, a, b, c, vec3.create(0.5, 0.5, 3), vec3.create(0, 0, -1))).toBe(3);
    expect(vec3.exactEquals(n, { x: 0, y: 0, z: 1 })).toBe(true);
    expect(rayTriangle(n, a, b, c, vec3.create(0.5, 0.5, -3), vec3.create(0, 0, 2))).toBe(1.5);
    expect(vec3.exactEquals(n, { x: 0, y: 0, z: -1 })).toBe(true);
    // Exactly through a vertex and an edge.
    expect(rayTriangle(n, a, b, c, vec3.create(2, 0, 1), vec3.create(0, 0, -1))).toBe(1);
    expect(rayTriangle(n, a, b, c, vec3.create(1, 1, 1), vec3.create(0, 0, -1))).toBe(1);
    expect(rayTriangle(n, a, b, c, vec3.create(1, 1.0000001, 1), vec3.create(0, 0, -1))).toBe(
      RAY_MISS,
    );
    // Behind the origin, parallel, degenerate.
    expect(rayTriangle(n, a, b, c, vec3.create(0.5, 0.5, 3), vec3.create(0, 0, 1))).toBe(RAY_MISS);
    expect(rayTriangle(n, a, b, c, vec3.create(0.5, 0.5, 0), vec3.create(1, 0, 0))).toBe(
      RAY_TRIANGLE_DEGENERATE,
    );
    expect(rayTriangle(n, a, b, b, vec3.create(1, 0, 1), vec3.create(0, 0, -1))).toBe(
      RAY_TRIANGLE_DEGENERATE,
    );
    expect(rayTriangle(n, a, b, c, vec3.create(0.5, 0.5, 1), vec3.create())).toBe(
      RAY_TRIANGLE_DEGENERATE,
    );
  });
});
