import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { distance } from "../../src/query/distance.js";
import { projectPoint } from "../../src/query/project-point.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  supportShape,
} from "../../src/shapes/index.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";
import { sphereDirections } from "../oracles/support-oracle.js";

function segmentDistance(p: Vec3, a: Vec3, b: Vec3): number {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const ez = b.z - a.z;
  const ee = ex * ex + ey * ey + ez * ez;
  let t = ee > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey + (p.z - a.z) * ez) / ee : 0;
  t = Math.min(1, Math.max(0, t));
  return Math.hypot(p.x - a.x - t * ex, p.y - a.y - t * ey, p.z - a.z - t * ez);
}

/** Independent membership of the shape grown (slack > 0) or shrunk (slack < 0), local frame. */
function insideLocal(s: ConvexShape, p: Vec3, slack: number): boolean {
  switch (s.type) {
    case ShapeType.Sphere:
      return Math.hypot(p.x, p.y, p.z) <= s.radius + slack;
    case ShapeType.Cuboid: {
      const h = s.halfExtents;
      return (
        Math.abs(p.x) <= h.x + slack && Math.abs(p.y) <= h.y + slack && Math.abs(p.z) <= h.z + slack
      );
    }
    case ShapeType.Capsule:
      return segmentDistance(p, s.a, s.b) <= s.radius + slack;
    case ShapeType.Cylinder:
      return Math.hypot(p.x, p.z) <= s.radius + slack && Math.abs(p.y) <= s.halfHeight + slack;
    case ShapeType.Cone: {
      const h = s.halfHeight;
      const k = s.radius / (2 * h);
      if (p.y < -h - slack) return false;
      return Math.hypot(p.x, p.z) <= k * (h - p.y) + slack * Math.hypot(1, k);
    }
    case ShapeType.ConvexPolyhedron: {
      const n = s.faceNormals;
      for (let f = 0; f < s.faceCount; f++) {
        const d = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z;
        if (d > s.facePlaneOffsets[f] + slack) return false;
      }
      return true;
    }
    case ShapeType.Triangle:
      return false;
    default:
      throw new Error(`no membership oracle for shape type ${s.type}`);
  }
}

const gridPoint = fc
  .tuple(
    fc.integer({ min: -150, max: 150 }),
    fc.integer({ min: -150, max: 150 }),
    fc.integer({ min: -150, max: 150 }),
  )
  .map(([x, y, z]) => vec3.create(x / 100, y / 100, z / 100));

const shapeArb: fc.Arbitrary<ConvexShape> = fc.oneof(
  num(0.2, 2).map((r) => makeSphere(r) as ConvexShape),
  vec(0.1, 2).map((h) => makeCuboid(h) as ConvexShape),
  fc
    .tuple(vec(-1, 1), vec(-1, 1), num(0.1, 1))
    .map(([a, b, r]) => makeCapsule(a, b, r) as ConvexShape),
  fc.tuple(num(0.2, 2), num(0.2, 2)).map(([h, r]) => makeCylinder(h, r) as ConvexShape),
  fc.tuple(num(0.2, 2), num(0.2, 2)).map(([h, r]) => makeCone(h, r) as ConvexShape),
  fc.array(gridPoint, { minLength: 6, maxLength: 14 }).map((pts) => {
    try {
      return makeConvexPolyhedron(pts) as ConvexShape;
    } catch {
      return makeCuboid(vec3.create(1, 0.5, 0.25)) as ConvexShape;
    }
  }),
);

const DIRS = sphereDirections(1500);

/** Dense boundary samples: the support points over many directions (local frame). */
function boundarySamples(s: ConvexShape): Vec3[] {
  return DIRS.map((d) => supportShape(vec3.create(), s, d));
}

describe("projectPoint against dense sampling and GJK distance", () => {
  it("outside: the closest point is on the shape and no sample or GJK is closer", () => {
    fc.assert(
      fc.property(shapeArb, vec(-4, 4), unitQuat, vec(-3, 3), (s, p, rotation, t) => {
        const pose: Isometry = { translation: t, rotation };
        const pw = iso.transformPoint(vec3.create(), pose, p);
        const r = projectPoint(s, pose, pw);
        const local = iso.inverseTransformPoint(vec3.create(), pose, r.point);
        expect(r.inside).toBe(insideLocal(s, p, 0));
        if (r.inside) {
          expect(r.distance).toBe(0);
          expect(vec3.exactEquals(r.point, pw)).toBe(true);
          return;
        }
        expect(insideLocal(s, local, 1e-9)).toBe(true);
        expect(Math.abs(vec3.distance(pw, r.point) - r.distance)).toBeLessThan(1e-12);
        let best = Infinity;
        for (const q of boundarySamples(s)) best = Math.min(best, vec3.distance(p, q));
        expect(r.distance).toBeLessThanOrEqual(best + 1e-9);
        const probe = makeSphere(1e-9);
        const g = distance(s, pose, probe, { translation: pw, rotation: iso.identity().rotation });
        expect(Math.abs(r.distance - (g.distance + 1e-9))).toBeLessThan(1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it("hollow from inside: the point is on the boundary and no boundary sample is closer", () => {
    fc.assert(
      fc.property(shapeArb, vec(-1, 1), (s, p) => {
        if (!insideLocal(s, p, 0)) return;
        const pose = iso.identity();
        const r = projectPoint(s, pose, p, false);
        expect(r.inside).toBe(true);
        expect(insideLocal(s, r.point, 1e-9)).toBe(true);
        expect(insideLocal(s, r.point, -1e-9)).toBe(false);
        let best = Infinity;
        for (const q of boundarySamples(s)) best = Math.min(best, vec3.distance(p, q));
        expect(r.distance).toBeLessThanOrEqual(best + 1e-9);
        expect(Math.abs(vec3.distance(p, r.point) - r.distance)).toBeLessThan(1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it("scales and translations: 1e-3, 1e4, a 1e6 offset", () => {
    for (const k of [1e-3, 1, 1e4]) {
      const s = makeCuboid(vec3.create(k, 2 * k, 3 * k));
      const pose: Isometry = {
        translation: vec3.create(1e6, -1e6, 0),
        rotation: iso.identity().rotation,
      };
      const r = projectPoint(s, pose, vec3.create(1e6 + 3 * k, -1e6, 0));
      expect(r.distance).toBeCloseTo(2 * k, 9);
      expect(r.inside).toBe(false);
      const h = projectPoint(s, pose, vec3.create(1e6 + 0.5 * k, -1e6, 0), false);
      expect(h.distance).toBeCloseTo(0.5 * k, 9);
      expect(h.inside).toBe(true);
    }
  });
});

describe("projectPoint: exact cases", () => {
  const id = iso.identity();
  it("centres and axes (no direction) still give a boundary point", () => {
    const sp = projectPoint(makeSphere(2), id, vec3.create(), false);
    expect(sp.distance).toBe(2);
    const tiny = projectPoint(makeCone(1, 1), id, vec3.create(5e-324, 0, 5e-324), false);
    // The side line ρ = (1 − y)/2 is nearest at (ρ, y) = (0.4, 0.2), on the 45° azimuth.
    expect(Math.abs(Math.hypot(tiny.point.x, tiny.point.z) - 0.4)).toBeLessThan(1e-15);
    expect(tiny.point.x).toBe(tiny.point.z);
    expect(tiny.distance).toBeCloseTo(1 / Math.sqrt(5), 15);
    const cap = projectPoint(
      makeCapsule(vec3.create(0, -1, 0), vec3.create(0, 1, 0), 0.5),
      id,
      vec3.create(0, 0.3, 0),
      false,
    );
    expect(cap.distance).toBeCloseTo(0.5, 15);
    expect(Math.abs(cap.point.y - 0.3)).toBeLessThan(1e-15);
    const cyl = projectPoint(makeCylinder(1, 0.5), id, vec3.create(0, 0.9, 0), false);
    expect(cyl.distance).toBeCloseTo(0.1, 15);
    expect(cyl.point.y).toBe(1);
    const cone = projectPoint(makeCone(1, 1), id, vec3.create(0, 3, 0));
    expect(cone.distance).toBe(2);
    const base = projectPoint(makeCone(1, 1), id, vec3.create(0, -0.9, 0), false);
    expect(base.distance).toBeCloseTo(0.1, 12);
  });

  it("triangle: on it is inside with distance 0; off it, the plane or an edge", () => {
    const tri = makeTriangle(vec3.create(0, 0, 0), vec3.create(1, 0, 0), vec3.create(0, 1, 0));
    expect(projectPoint(tri, id, vec3.create(0.2, 0.2, 0)).inside).toBe(true);
    const r = projectPoint(tri, id, vec3.create(0.2, 0.2, 2));
    expect(r.distance).toBe(2);
    expect(r.inside).toBe(false);
    expect(projectPoint(tri, id, vec3.create(2, 0, 0)).distance).toBe(1);
  });

  it("answerQuery projectPoint follows FORMATS.md", () => {
    const q = {
      op: "projectPoint",
      shape: { type: "box", center: [1, 0, 0], halfExtents: [1, 1, 1] },
      point: [1.5, 0, 0],
    };
    expect(answerQuery(q)).toEqual({ point: [1.5, 0, 0], distance: 0, inside: true });
    expect(answerQuery({ ...q, solid: false })).toEqual({
      point: [2, 0, 0],
      distance: 0.5,
      inside: true,
    });
    expect(() => answerQuery({ ...q, bogus: 1 })).toThrow(/bogus/);
  });
});
