/**
 * projectPoint on a mesh far from it (issue 16, item 9 follow-up): the triangles around the
 * nearest feature tie in squared distance to rounding, and the walk returned the lowest-index
 * triangle's point — another corner of that triangle, up to a whole edge from the nearest point —
 * with the right distance. On a convex mesh the nearest point is unique, so it is checked against
 * two independent oracles:
 *
 * - the normal cone: a point v + s·n with n strictly inside the normal cone of vertex v (the sum
 *   of its triangles' unit normals) or of an edge's point (the sum of its two triangles'
 *   normals) projects onto v or onto that edge point, exactly up to the rounding of p;
 * - brute force over every triangle, each triangle's closest point compared by its exact squared
 *   distance (dyadic rationals, test/fuzz/exact.ts), so ties are decided exactly.
 */
import { describe, expect, it } from "vitest";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { projectPoint } from "../../src/query/project-point.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { getMeshTriangle } from "../../src/shapes/triangle-mesh.js";
import { type Dy, dadd, dcmp, dmul, dsub, dy } from "../fuzz/exact.js";
import { hullMesh } from "../mesh/helpers.js";

const I = iso.identity();
const EPS = 2 ** -52;
const SCALES = [1e3, 1e6, 1e9];

/**
 * Seeded convex meshes: hulls of 4–15 points on the integer grid of [−4, 4]³ or of quarter
 * units, so that many hull faces are split into coplanar triangles (the ties of a far point).
 */
function meshes(seed: number, count: number): TriangleMesh[] {
  const rng = makeRandom(seed);
  const out: TriangleMesh[] = [];
  while (out.length < count) {
    const pts: number[] = [];
    const n = 4 + Math.floor(rng() * 12);
    const unit = rng() < 0.5 ? 1 : 4;
    for (let i = 0; i < 3 * n; i++) pts.push(Math.round((rng() - 0.5) * 8 * unit) / unit);
    try {
      out.push(hullMesh(pts));
    } catch {
      // coplanar points: no hull
    }
  }
  return out;
}

/** Unit normal of triangle t by its winding (the hull's triangles wind outward); 0 if degenerate. */
function normalOf(m: TriangleMesh, t: number): Vec3 {
  const a = vec3.create();
  const b = vec3.create();
  const c = vec3.create();
  getMeshTriangle(m, t, a, b, c);
  const n = vec3.cross(vec3.create(), vec3.sub(vec3.create(), b, a), vec3.sub(vec3.create(), c, a));
  const l = vec3.length(n);
  return l > 0 ? vec3.scale(n, n, 1 / l) : n;
}

/** Exact squared distance of two double points. */
function exactDistSq(p: Vec3, q: Vec3): Dy {
  const x = dsub(dy(p.x), dy(q.x));
  const y = dsub(dy(p.y), dy(q.y));
  const z = dsub(dy(p.z), dy(q.z));
  return dadd(dadd(dmul(x, x), dmul(y, y)), dmul(z, z));
}

/** The rounding of a point's coordinates at magnitude |p|: a few ulps. */
function bound(p: Vec3): number {
  return 8 * EPS * Math.max(1, Math.abs(p.x), Math.abs(p.y), Math.abs(p.z));
}

describe("projectPoint on a mesh: tied triangles give the nearest point", () => {
  it("a point in a vertex's normal cone projects onto the vertex, at any distance", () => {
    let checked = 0;
    for (const m of meshes(16, 40)) {
      for (let v = 0; v < m.vertexCount; v++) {
        const n = vec3.create();
        let used = 0;
        for (let t = 0; t < m.triangleCount; t++) {
          for (let k = 0; k < 3; k++) {
            if (m.indices[3 * t + k] === v) {
              vec3.add(n, n, normalOf(m, t));
              used++;
            }
          }
        }
        if (used === 0) continue;
        vec3.normalize(n, n);
        const at = vec3.create(m.vertices[3 * v], m.vertices[3 * v + 1], m.vertices[3 * v + 2]);
        for (const s of SCALES) {
          const p = vec3.addScaled(vec3.create(), at, n, s);
          const r = projectPoint(m, I, p);
          expect(vec3.distance(r.point, at)).toBeLessThanOrEqual(bound(p));
          expect(r.distance).toBeCloseTo(vec3.distance(p, at), 12 - Math.log10(s));
          expect(r.inside).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("a point in an edge's normal cone projects onto that edge point", () => {
    let checked = 0;
    for (const m of meshes(17, 30)) {
      for (let t = 0; t < m.triangleCount; t++) {
        for (let e = 0; e < 3; e++) {
          const u = m.edgeNeighbors[3 * t + e];
          if (u < t) continue;
          const n1 = normalOf(m, t);
          const n2 = normalOf(m, u);
          if (vec3.length(n1) === 0 || vec3.length(n2) === 0) continue;
          // Coplanar triangles: the edge lies inside a face (its cone is one direction).
          // Coplanar or folded pairs (a hull's sliver fan) have no proper edge cone.
          if (Math.abs(vec3.dot(n1, n2)) > 1 - 1e-9) continue;
          const i = m.indices[3 * t + e];
          const j = m.indices[3 * t + ((e + 1) % 3)];
          // The point a quarter along the edge: exact in binary for these coordinates.
          const q = vec3.create(
            0.75 * m.vertices[3 * i] + 0.25 * m.vertices[3 * j],
            0.75 * m.vertices[3 * i + 1] + 0.25 * m.vertices[3 * j + 1],
            0.75 * m.vertices[3 * i + 2] + 0.25 * m.vertices[3 * j + 2],
          );
          const n = vec3.add(vec3.create(), n1, n2);
          vec3.normalize(n, n);
          for (const s of SCALES) {
            const p = vec3.addScaled(vec3.create(), q, n, s);
            const r = projectPoint(m, I, p);
            expect(vec3.distance(r.point, q)).toBeLessThanOrEqual(bound(p));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("a point over a face split into coplanar triangles projects onto that face point", () => {
    let checked = 0;
    for (const m of meshes(20, 40)) {
      for (let t = 0; t < m.triangleCount; t++) {
        const n = normalOf(m, t);
        if (vec3.length(n) === 0) continue;
        const i = 3 * m.indices[3 * t];
        const j = 3 * m.indices[3 * t + 1];
        const k = 3 * m.indices[3 * t + 2];
        const v = m.vertices;
        // Weights 1/4, 1/4, 1/2: an interior point, exact in binary for these coordinates.
        const q = vec3.create(
          0.25 * v[i] + 0.25 * v[j] + 0.5 * v[k],
          0.25 * v[i + 1] + 0.25 * v[j + 1] + 0.5 * v[k + 1],
          0.25 * v[i + 2] + 0.25 * v[j + 2] + 0.5 * v[k + 2],
        );
        for (const s of SCALES) {
          const p = vec3.addScaled(vec3.create(), q, n, s);
          const r = projectPoint(m, I, p);
          expect(vec3.distance(r.point, q)).toBeLessThanOrEqual(bound(p));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("far points: no triangle's closest point is exactly nearer, beyond rounding", () => {
    const rng = makeRandom(19);
    const a = vec3.create();
    const b = vec3.create();
    const c = vec3.create();
    const q = vec3.create();
    let checked = 0;
    for (const m of meshes(18, 60)) {
      for (let k = 0; k < 10; k++) {
        const v = Math.floor(rng() * m.vertexCount);
        const s = SCALES[Math.floor(rng() * SCALES.length)];
        const p = vec3.create(
          m.vertices[3 * v] * s + rng() - 0.5,
          m.vertices[3 * v + 1] * s + rng() - 0.5,
          m.vertices[3 * v + 2] * s + rng() - 0.5,
        );
        let best: Dy | null = null;
        const bestPoint = vec3.create();
        for (let t = 0; t < m.triangleCount; t++) {
          getMeshTriangle(m, t, a, b, c);
          closestPointOnTriangle(q, p, a, b, c);
          const d = exactDistSq(p, q);
          if (best === null || dcmp(d, best) < 0) {
            best = d;
            vec3.copy(bestPoint, q);
          }
        }
        const r = projectPoint(m, I, p);
        // The exactly nearest candidate and the answer are one point up to its rounding.
        expect(vec3.distance(r.point, bestPoint)).toBeLessThanOrEqual(bound(p));
        checked++;
      }
    }
    expect(checked).toBe(600);
  });
});
