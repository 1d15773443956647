/**
 * EPA (src/geometry/epa.ts) against the SAT oracle (test/oracles/polytope-distance.ts: every
 * face normal and edge × edge axis of two point sets) on random overlapping polytopes, plus the
 * growth of a small GJK simplex into a tetrahedron and the flat cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EPA_MAX_ITERATIONS, EPA_POLYTOPE_TOLERANCE } from "../../src/constants.js";
import { EpaStatus, epa, makeEpaResult } from "../../src/geometry/epa.js";
import { GjkStatus, gjk, makeGjkResult } from "../../src/geometry/gjk.js";
import { PointCloudSupport, TransformedSupport } from "../../src/geometry/support.js";
import { contact } from "../../src/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import type { ConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { unitQuat, vec as vecRaw } from "../oracles/arbitraries.js";

/**
 * Vectors without magnitudes below 1e-100: squared lengths of such vectors underflow, and GJK
 * (like every squared-distance method) treats distances below ~1e-154 as touching.
 */
const vec = (lo: number, hi: number) =>
  vecRaw(lo, hi).map((p) => ({
    x: Math.abs(p.x) < 1e-100 ? 0 : p.x,
    y: Math.abs(p.y) < 1e-100 ? 0 : p.y,
    z: Math.abs(p.z) < 1e-100 ? 0 : p.z,
  }));

import { overlapAlong, polytopeDistance, satOverlap } from "../oracles/polytope-distance.js";

function pack(pts: readonly Vec3[]): Float64Array {
  return Float64Array.from(pts.flatMap((p) => [p.x, p.y, p.z]));
}

const cloud: fc.Arbitrary<Vec3[]> = fc
  .tuple(
    fc.array(vec(-1, 1), { minLength: 4, maxLength: 10 }),
    fc.constantFrom("plain", "plain", "plain", "flat", "dup", "box"),
  )
  .map(([pts, kind]) => {
    if (kind === "flat") return pts.map((p) => ({ x: p.x, y: p.y, z: 0 }));
    if (kind === "dup") return [...pts, ...pts, pts[0]];
    if (kind === "box") {
      const h = {
        x: Math.abs(pts[0].x) + 0.1,
        y: Math.abs(pts[0].y) + 0.1,
        z: Math.abs(pts[0].z) + 0.1,
      };
      const out: Vec3[] = [];
      for (const sx of [-1, 1])
        for (const sy of [-1, 1])
          for (const sz of [-1, 1]) out.push({ x: sx * h.x, y: sy * h.y, z: sz * h.z });
      return out;
    }
    return pts;
  });

const supA = new PointCloudSupport();
const supBLocal = new PointCloudSupport();
const supB = new TransformedSupport();
const g = makeGjkResult();
const e = makeEpaResult();

describe("epa on random overlapping point-set polytopes", () => {
  it("depth within 1e-6 relative of the SAT oracle, and the normal attains it", () => {
    let checked = 0;
    let converged = 0;
    fc.assert(
      fc.property(
        cloud,
        cloud,
        vec(-0.6, 0.6),
        unitQuat,
        fc.constantFrom(1e-3, 1, 1, 1e3),
        (a0, b0, t0, rotation, s) => {
          const a = a0.map((p) => vec3.scale(vec3.create(), p, s));
          const bLocal = b0.map((p) => vec3.scale(vec3.create(), p, s));
          const pose = iso.create(vec3.scale(vec3.create(), t0, s), rotation);
          const bWorld = bLocal.map((p) => iso.transformPoint(vec3.create(), pose, p));
          supA.reset(pack(a));
          supBLocal.reset(pack(bLocal));
          supB.reset(supBLocal, pose);
          gjk(g, supA, supB, pose.translation);
          if (g.status !== GjkStatus.Intersecting) return;
          epa(e, supA, supB, g.simplex, g.direction, EPA_POLYTOPE_TOLERANCE);
          expect(Number.isFinite(e.depth)).toBe(true);
          expect(Math.abs(vec3.length(e.normal) - 1)).toBeLessThan(1e-12);
          expect(vec3.isFiniteVec(e.pointA) && vec3.isFiniteVec(e.pointB)).toBe(true);
          expect(e.iterations).toBeLessThanOrEqual(EPA_MAX_ITERATIONS);
          const sat = satOverlap(a, bWorld);
          const oracle = Math.max(0, sat.depth);
          const tol = 1e-6 * s * (1 + 1e-9);
          if (e.status === EpaStatus.Converged || e.status === EpaStatus.Flat) converged++;
          expect(Math.abs(e.depth - oracle)).toBeLessThanOrEqual(tol);
          // Moving B by depth along the normal is a separating translation.
          expect(Math.abs(overlapAlong(a, bWorld, e.normal) - e.depth)).toBeLessThanOrEqual(tol);
          // pointA − pointB = depth · normal.
          const diff = vec3.sub(vec3.create(), e.pointA, e.pointB);
          expect(
            vec3.distance(diff, vec3.scale(vec3.create(), e.normal, e.depth)),
          ).toBeLessThanOrEqual(tol);
          checked++;
        },
      ),
      { numRuns: 250 },
    );
    expect(checked).toBeGreaterThan(50);
    // Only numerically degenerate inputs (extents at 1e-13 of the size) may end otherwise.
    expect(converged).toBeGreaterThanOrEqual(0.95 * checked);
  });
});

describe("epa from small simplices and flat differences", () => {
  const box = (c: Vec3, h: number) => {
    const out: Vec3[] = [];
    for (const sx of [-1, 1])
      for (const sy of [-1, 1])
        for (const sz of [-1, 1]) out.push({ x: c.x + sx * h, y: c.y + sy * h, z: c.z + sz * h });
    return pack(out);
  };

  it("touching boxes (GJK ends on a point, segment or triangle): depth 0, face normal", () => {
    for (const [c, n] of [
      [
        { x: 2, y: 0, z: 0 },
        { x: 1, y: 0, z: 0 },
      ],
      [
        { x: 0, y: -2, z: 0.5 },
        { x: 0, y: -1, z: 0 },
      ],
      [
        { x: 0.25, y: 0.5, z: 2 },
        { x: 0, y: 0, z: 1 },
      ],
    ] as const) {
      supA.reset(box({ x: 0, y: 0, z: 0 }, 1));
      supBLocal.reset(box(c, 1));
      gjk(g, supA, supBLocal, c);
      expect(g.status).toBe(GjkStatus.Intersecting);
      epa(e, supA, supBLocal, g.simplex, g.direction, EPA_POLYTOPE_TOLERANCE);
      expect(e.depth).toBeLessThan(1e-12);
      expect(vec3.distance(e.normal, n)).toBeLessThan(1e-9);
    }
  });

  it("a point core inside a box: the nearest face and its depth", () => {
    supA.reset(box({ x: 0, y: 0, z: 0 }, 1));
    supBLocal.reset(pack([{ x: 0.3, y: 0.6, z: -0.1 }]));
    gjk(g, supA, supBLocal, null);
    epa(e, supA, supBLocal, g.simplex, g.direction, EPA_POLYTOPE_TOLERANCE);
    expect(e.depth).toBeCloseTo(0.4, 12);
    expect(vec3.distance(e.normal, { x: 0, y: 1, z: 0 })).toBeLessThan(1e-12);
  });

  it("coincident points: Flat, depth 0, normal from the hint or +x", () => {
    supA.reset(pack([{ x: 1, y: 2, z: 3 }]));
    supBLocal.reset(pack([{ x: 1, y: 2, z: 3 }]));
    gjk(g, supA, supBLocal, null);
    epa(e, supA, supBLocal, g.simplex, null);
    expect(e.status).toBe(EpaStatus.Flat);
    expect(e.depth).toBe(0);
    expect(e.normal).toEqual({ x: 1, y: 0, z: 0 });
    epa(e, supA, supBLocal, g.simplex, { x: 0, y: -2, z: 0 });
    expect(e.normal).toEqual({ x: 0, y: -1, z: 0 });
  });

  it("coplanar overlapping triangles: Flat, depth 0, the plane normal", () => {
    supA.reset(
      pack([
        { x: 0, y: 0, z: 0 },
        { x: 2, y: 0, z: 0 },
        { x: 0, y: 2, z: 0 },
      ]),
    );
    supBLocal.reset(
      pack([
        { x: 0.5, y: 0.5, z: 0 },
        { x: 3, y: 0.5, z: 0 },
        { x: 0.5, y: 3, z: 0 },
      ]),
    );
    gjk(g, supA, supBLocal, null);
    expect(g.status).toBe(GjkStatus.Intersecting);
    epa(e, supA, supBLocal, g.simplex, { x: 0, y: 0, z: 1 });
    expect(e.status).toBe(EpaStatus.Flat);
    expect(e.depth).toBe(0);
    expect(e.normal).toEqual({ x: 0, y: 0, z: 1 });
  });

  it("crossing segments (a flat parallelogram difference): depth 0", () => {
    supA.reset(
      pack([
        { x: -1, y: 0, z: 0 },
        { x: 1, y: 0, z: 0 },
      ]),
    );
    supBLocal.reset(
      pack([
        { x: 0, y: -1, z: 0 },
        { x: 0, y: 1, z: 0 },
      ]),
    );
    gjk(g, supA, supBLocal, null);
    expect(g.status).toBe(GjkStatus.Intersecting);
    epa(e, supA, supBLocal, g.simplex, null);
    expect(e.depth).toBe(0);
    expect(Math.abs(e.normal.z)).toBeCloseTo(1, 12);
  });
});

/**
 * Oracle for two convex polyhedra: SAT over A's and B's hull face normals and the cross products
 * of their hull edges (the facet normals of A − B are among these), each axis's overlap by brute
 * force over the vertices. Independent of GJK and EPA: only the hull record (quickhull) is shared.
 */
function hullSatDepth(a: ConvexPolyhedron, b: ConvexPolyhedron, bPose: Isometry): number {
  const va: Vec3[] = [];
  for (let i = 0; i < a.vertices.length; i += 3)
    va.push(vec3.create(a.vertices[i], a.vertices[i + 1], a.vertices[i + 2]));
  const vb: Vec3[] = [];
  for (let i = 0; i < b.vertices.length; i += 3) {
    const p = vec3.create(b.vertices[i], b.vertices[i + 1], b.vertices[i + 2]);
    vb.push(iso.transformPoint(p, bPose, p));
  }
  const rot = (v: Vec3) => iso.transformVector(vec3.create(), bPose, v);
  const normals = (h: ConvexPolyhedron) => {
    const out: Vec3[] = [];
    for (let f = 0; f < h.faceCount; f++)
      out.push(
        vec3.create(h.faceNormals[3 * f], h.faceNormals[3 * f + 1], h.faceNormals[3 * f + 2]),
      );
    return out;
  };
  const edges = (h: ConvexPolyhedron) => {
    const out: Vec3[] = [];
    const v = h.vertices;
    for (let e = 0; e < h.edges.length; e += 2) {
      const i = 3 * h.edges[e];
      const j = 3 * h.edges[e + 1];
      out.push(vec3.create(v[j] - v[i], v[j + 1] - v[i + 1], v[j + 2] - v[i + 2]));
    }
    return out;
  };
  let best = Infinity;
  const tryAxis = (d: Vec3) => {
    const l = vec3.length(d);
    if (!(l > 0)) return;
    const n = vec3.scale(vec3.create(), d, 1 / l);
    best = Math.min(best, overlapAlong(va, vb, n), overlapAlong(va, vb, vec3.negate(n, n)));
  };
  for (const n of normals(a)) tryAxis(n);
  for (const n of normals(b)) tryAxis(rot(n));
  const eb = edges(b).map(rot);
  for (const u of edges(a))
    for (const w of eb) {
      const c = vec3.cross(vec3.create(), u, w);
      if (vec3.lengthSq(c) > 1e-20 * vec3.lengthSq(u) * vec3.lengthSq(w)) tryAxis(c);
    }
  return best;
}

describe("hull–hull contact (GJK + EPA) against SAT over the hulls' faces and edge pairs", () => {
  // Hulls of 12–40 points (the polytope grows through many iterations, so faces are freed and
  // their slots reused), including box-like and squashed ones with coplanar support points.
  const hullPointsArb: fc.Arbitrary<Vec3[]> = fc
    .tuple(
      fc.array(vec(-1, 1), { minLength: 12, maxLength: 40 }),
      fc.constantFrom("sphere", "sphere", "cloud", "squashed", "box"),
    )
    .map(([pts, kind]) => {
      if (kind === "sphere") {
        return pts.map((p) => {
          const l = Math.hypot(p.x, p.y, p.z) || 1;
          return { x: p.x / l, y: (0.8 * p.y) / l, z: p.z / l };
        });
      }
      if (kind === "squashed") return pts.map((p) => ({ x: p.x, y: 0.05 * p.y, z: p.z }));
      if (kind === "box") {
        // Points on the faces of a box: many coplanar support points.
        return pts.map((p) => {
          const a = [p.x, p.y, p.z];
          const k = Math.abs(p.x) > Math.abs(p.y) ? (Math.abs(p.x) > Math.abs(p.z) ? 0 : 2) : 1;
          a[k] = a[k] < 0 ? -0.7 : 0.7;
          return { x: a[0], y: a[1], z: a[2] };
        });
      }
      return pts;
    });

  it("depth within 1e-6 of the size, the normal attains it, witnesses on their hulls 'depth' apart along it", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        hullPointsArb,
        hullPointsArb,
        vec(-0.5, 0.5),
        unitQuat,
        fc.constantFrom(1e-2, 1, 1, 1e3),
        (pa, pb, t, rotation, s) => {
          let a: ConvexPolyhedron;
          let b: ConvexPolyhedron;
          try {
            a = makeConvexPolyhedron(pa.map((p) => vec3.scale(vec3.create(), p, s)));
            b = makeConvexPolyhedron(pb.map((p) => vec3.scale(vec3.create(), p, s)));
          } catch {
            return;
          }
          const poseA = iso.create(vec3.create(), { x: 0, y: 0, z: 0, w: 1 });
          const poseB = iso.create(vec3.scale(vec3.create(), t, s), rotation);
          const c = contact(a, poseA, b, poseB, 0);
          const sat = hullSatDepth(a, b, poseB);
          const tol = 1e-6 * s;
          if (sat < -tol) {
            expect(c).toBeNull();
            return;
          }
          if (sat <= tol) return; // touching within the tolerance: either answer
          expect(c).not.toBeNull();
          if (!c) return;
          expect(Math.abs(-c.distance - sat)).toBeLessThanOrEqual(tol);
          expect(Math.abs(vec3.length(c.normal) - 1)).toBeLessThan(1e-12);
          const va: Vec3[] = [];
          for (let i = 0; i < a.vertices.length; i += 3)
            va.push(vec3.create(a.vertices[i], a.vertices[i + 1], a.vertices[i + 2]));
          const vb: Vec3[] = [];
          for (let i = 0; i < b.vertices.length; i += 3) {
            const p = vec3.create(b.vertices[i], b.vertices[i + 1], b.vertices[i + 2]);
            vb.push(iso.transformPoint(p, poseB, p));
          }
          expect(Math.abs(overlapAlong(va, vb, c.normal) + c.distance)).toBeLessThanOrEqual(tol);
          // The witnesses span the depth along the normal and lie on their hulls (docs/FORMATS.md,
          // `contact`). They need not be depth·normal apart as vectors: a witness that the normal's
          // refinement left off its shape is seated on it (session 23), which may move it along
          // the contact plane (0.85 here for two octahedra at one centre).
          const span = vec3.dot(vec3.sub(vec3.create(), c.pointB, c.pointA), c.normal);
          expect(Math.abs(span - c.distance)).toBeLessThanOrEqual(tol);
          expect(polytopeDistance([c.pointA], va)).toBeLessThanOrEqual(tol);
          expect(polytopeDistance([c.pointB], vb)).toBeLessThanOrEqual(tol);
          checked++;
        },
      ),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
