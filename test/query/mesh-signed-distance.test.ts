/**
 * Signed distance to closed meshes through the BVH (src/query/mesh-distance.ts) against brute
 * force: the distance over every triangle, and the sign from the generalised winding number
 * summed over every triangle (a different method from the pseudo-normals under test). On the
 * bunny, at random points and at points jittered about the surface; on a cube, at points in the
 * vertex and edge regions where the pseudo-normals matter; with inward winding and under a pose.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import { computeConvexHull } from "../../src/geometry/hull.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import { loadBunny } from "../../src/models/bunny.js";
import { projectPoint, projectPoints } from "../../src/query/project-point.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  makeTriangleMesh,
  type TriangleMesh,
  updateTriangleMeshVertices,
  windingNumberTriangleMesh,
} from "../../src/shapes/triangle-mesh.js";
import { hullMesh } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

/** Seeded PRNG (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Oracle: distance over every triangle, and the triangles at that distance. */
function brute(mesh: TriangleMesh, p: vec3.Vec3): { distance: number; tris: Set<number> } {
  const a = vec3.create();
  const b = vec3.create();
  const c = vec3.create();
  const q = vec3.create();
  const v = mesh.vertices;
  const d: number[] = [];
  for (let t = 0; t < mesh.triangleCount; t++) {
    const i = 3 * mesh.indices[3 * t];
    const j = 3 * mesh.indices[3 * t + 1];
    const k = 3 * mesh.indices[3 * t + 2];
    vec3.set(a, v[i], v[i + 1], v[i + 2]);
    vec3.set(b, v[j], v[j + 1], v[j + 2]);
    vec3.set(c, v[k], v[k + 1], v[k + 2]);
    closestPointOnTriangle(q, p, a, b, c);
    d.push(vec3.distance(p, q));
  }
  const distance = Math.min(...d);
  const tris = new Set<number>();
  d.forEach((x, t) => {
    if (x <= distance * (1 + 1e-12) + 1e-15) tris.add(t);
  });
  return { distance, tris };
}

const insideByWinding = (mesh: TriangleMesh, p: vec3.Vec3) =>
  Math.abs(windingNumberTriangleMesh(mesh, p)) >= 0.5;

const bunny = loadBunny();
// Solid (the bunny is closed): `projectPoint` reports `inside` only for a solid mesh.
const mesh = makeTriangleMesh(bunny.positions, bunny.cells, "", { solid: true });
const identity = iso.identity();

describe("signed distance on the bunny vs brute force", () => {
  it("random points and points about the surface: sign, distance and triangle", () => {
    const random = rng(1);
    const n = 600;
    const pts = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      pts[3 * i] = -6 + 12 * random();
      pts[3 * i + 1] = -1 + 11.5 * random();
      pts[3 * i + 2] = -5 + 10 * random();
    }
    const first = projectPoints(mesh, identity, pts);
    // Half the points moved to within ±0.02 of the surface, where the sign is hard.
    const near = new Float64Array(pts);
    for (let i = 0; i < n; i += 2) {
      for (let k = 0; k < 3; k++)
        near[3 * i + k] = first.points[3 * i + k] + 0.04 * (random() - 0.5);
    }
    const r = projectPoints(mesh, identity, near);
    let inside = 0;
    for (let i = 0; i < n; i++) {
      const p = { x: near[3 * i], y: near[3 * i + 1], z: near[3 * i + 2] };
      const o = brute(mesh, p);
      const d = Math.abs(r.signedDistances[i]);
      expect(d).toBeCloseTo(o.distance, 12);
      expect(o.tris.has(r.triangles[i])).toBe(true);
      if (o.distance > 1e-9) {
        expect(r.signedDistances[i] < 0).toBe(insideByWinding(mesh, p));
      }
      if (r.signedDistances[i] < 0) inside++;
      // The single-point query agrees (hollow projection gives the same point and distance).
      const s = projectPoint(mesh, identity, p, false);
      expect(s.inside).toBe(r.signedDistances[i] <= 0);
      expect(s.triangle).toBe(r.triangles[i]);
      expect(s.distance).toBe(d);
    }
    expect(inside).toBeGreaterThan(50);
    expect(inside).toBeLessThan(n - 50);
  });

  it("under a pose, and with the winding reversed, the sign is the same", () => {
    const flipped = new Uint32Array(bunny.cells);
    for (let t = 0; t < flipped.length; t += 3) {
      const x = flipped[t + 1];
      flipped[t + 1] = flipped[t + 2];
      flipped[t + 2] = x;
    }
    const inward = makeTriangleMesh(bunny.positions, flipped);
    const pose: Isometry = {
      translation: { x: 100, y: -50, z: 3 },
      rotation: { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
    };
    const random = rng(2);
    const n = 200;
    const local: vec3.Vec3[] = [];
    const pts = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const l = vec3.create(-5 + 10 * random(), 10 * random(), -4 + 8 * random());
      local.push(l);
      const w = iso.transformPoint(vec3.create(), pose, l);
      pts.set([w.x, w.y, w.z], 3 * i);
    }
    const a = projectPoints(mesh, pose, pts);
    const b = projectPoints(inward, pose, pts);
    for (let i = 0; i < n; i++) {
      expect(a.signedDistances[i] < 0).toBe(insideByWinding(mesh, local[i]));
      expect(b.signedDistances[i]).toBeCloseTo(a.signedDistances[i], 12);
    }
  });
});

describe("signed distance at a cube's vertices and edges", () => {
  // A unit cube as 12 outward triangles.
  const V = [];
  for (let k = 0; k < 8; k++) V.push(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
  const F = [
    0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3,
    7, 1, 7, 5,
  ];
  const cube = makeTriangleMesh(V, F);

  it("is closed and outward, and every region gets the box's exact signed distance", () => {
    expect(cube.closed).toBe(true);
    const random = rng(3);
    const n = 3000;
    const pts = new Float64Array(3 * n);
    for (let i = 0; i < 3 * n; i++) pts[i] = -2 + 4 * random();
    // Points on the diagonals through corners and edges, where one pseudo-normal decides.
    pts.set([1.5, 1.5, 1.5, 0.9, 0.9, 0.9, 1.2, 1.2, 0, 0.95, 0.95, 0.3, 2, 0, 0], 0);
    const r = projectPoints(cube, identity, pts);
    for (let i = 0; i < n; i++) {
      const x = Math.abs(pts[3 * i]) - 1;
      const y = Math.abs(pts[3 * i + 1]) - 1;
      const z = Math.abs(pts[3 * i + 2]) - 1;
      const outside = Math.hypot(Math.max(x, 0), Math.max(y, 0), Math.max(z, 0));
      const exact = outside > 0 ? outside : Math.max(x, y, z);
      expect(r.signedDistances[i]).toBeCloseTo(exact, 12);
    }
  });
});

describe("pseudo-normals are made with the mesh", () => {
  it("a closed mesh has them from construction, an open one has none", () => {
    expect(mesh.pseudoNormals).not.toBeNull();
    expect(mesh.pseudoNormals?.face.length).toBe(3 * mesh.triangleCount);
    expect(mesh.pseudoNormals?.vertex.length).toBe(3 * mesh.vertexCount);
    expect(mesh.pseudoNormals?.orientation).toBe(1);
    const open = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    expect(open.closed).toBe(false);
    expect(open.pseudoNormals).toBeNull();
    // An open mesh is unsigned: positive everywhere, on both sides of the triangle.
    const r = projectPoints(open, identity, new Float64Array([0.2, 0.2, 1, 0.2, 0.2, -1]));
    expect([...r.signedDistances]).toEqual([1, 1]);
  });

  it("a deformed mesh (updateTriangleMeshVertices) gets its own: the sign follows the new shape", () => {
    // The bunny stretched 3× along x and sheared: the old normals would sign wrongly.
    const v = new Float64Array(mesh.vertices);
    for (let i = 0; i < v.length; i += 3) {
      v[i] = 3 * v[i] + 0.5 * v[i + 1];
    }
    const moved = updateTriangleMeshVertices(mesh, v);
    expect(moved.pseudoNormals).not.toBe(mesh.pseudoNormals);
    const random = rng(9);
    const n = 300;
    const pts = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      pts[3 * i] = -20 + 40 * random();
      pts[3 * i + 1] = -1 + 11.5 * random();
      pts[3 * i + 2] = -5 + 10 * random();
    }
    const r = projectPoints(moved, identity, pts);
    for (let i = 0; i < n; i++) {
      const p = { x: pts[3 * i], y: pts[3 * i + 1], z: pts[3 * i + 2] };
      const o = brute(moved, p);
      expect(Math.abs(r.signedDistances[i])).toBeCloseTo(o.distance, 12);
      if (o.distance > 1e-9) expect(r.signedDistances[i] < 0).toBe(insideByWinding(moved, p));
    }
  });
});

describe("signed distance with a degenerate triangle in a closed mesh", () => {
  it("a cube whose top face has a T-junction closed by a zero-area sliver: the box's exact SDF", () => {
    // Cube [-1, 1]³; the top face (y = 1) gets the midpoint m of its edge a–b, and the sliver
    // (6, 7, 8) — three collinear corners — closes the mesh against the front face (z = 1).
    const V = [];
    for (let k = 0; k < 8; k++) V.push(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    V.push(0, 1, 1); // 8: m, midpoint of 6 = (-1, 1, 1) and 7 = (1, 1, 1)
    // The cube of the test above with its top face (2, 6, 7), (2, 7, 3) split at m.
    const F = [
      0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 8, 2, 8, 3, 3, 8, 7, 0, 4, 6, 0,
      6, 2, 1, 3, 7, 1, 7, 5, 6, 7, 8,
    ];
    const cube = makeTriangleMesh(V, F);
    expect(cube.closed).toBe(true);
    const random = rng(4);
    const n = 3000;
    const pts = new Float64Array(3 * n);
    for (let i = 0; i < 3 * n; i++) pts[i] = -2 + 4 * random();
    // Points about the split edge (y = 1, z = 1), inside and outside, and on its diagonal.
    for (let i = 0; i < 400; i++) {
      pts[3 * i] = -1.5 + 3 * random();
      pts[3 * i + 1] = 1 + 0.2 * (random() - 0.5);
      pts[3 * i + 2] = 1 + 0.2 * (random() - 0.5);
    }
    pts.set([0, 1.3, 1.3, 0, 0.9, 0.9, 0.5, 1.1, 1.1], 3 * 400);
    const r = projectPoints(cube, identity, pts);
    for (let i = 0; i < n; i++) {
      const x = Math.abs(pts[3 * i]) - 1;
      const y = Math.abs(pts[3 * i + 1]) - 1;
      const z = Math.abs(pts[3 * i + 2]) - 1;
      const outside = Math.hypot(Math.max(x, 0), Math.max(y, 0), Math.max(z, 0));
      const exact = outside > 0 ? outside : Math.max(x, y, z);
      expect(r.signedDistances[i]).toBeCloseTo(exact, 12);
    }
  });
});

describe("signed distance on random convex meshes (fast-check)", () => {
  it("matches brute force and the hull's half-spaces at any scale, far from the origin, near vertices and edges", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e5),
        unitQuat,
        (seed, scale, far, rotation) => {
          const random = makeRandom(seed);
          const cloud = new Float64Array(3 * 24);
          for (let i = 0; i < cloud.length; i++) cloud[i] = (random() - 0.5) * scale;
          const m = hullMesh(cloud);
          const hull = computeConvexHull(cloud);
          const pose: Isometry = {
            translation: { x: far, y: -far, z: 0.5 * far },
            rotation,
          };
          const n = 60;
          const local: vec3.Vec3[] = [];
          for (let i = 0; i < n; i++) {
            if (i % 3 === 0) {
              local.push(
                vec3.create(
                  (random() - 0.5) * scale,
                  (random() - 0.5) * scale,
                  (random() - 0.5) * scale,
                ),
              );
            } else {
              // About a vertex, or about the middle of a triangle's edge: the feature cases.
              const t = Math.floor(random() * m.triangleCount);
              const a = 3 * m.indices[3 * t];
              const b = 3 * m.indices[3 * t + (i % 3 === 1 ? 0 : 1)];
              const jitter = 0.02 * scale;
              local.push(
                vec3.create(
                  0.5 * (m.vertices[a] + m.vertices[b]) + jitter * (random() - 0.5),
                  0.5 * (m.vertices[a + 1] + m.vertices[b + 1]) + jitter * (random() - 0.5),
                  0.5 * (m.vertices[a + 2] + m.vertices[b + 2]) + jitter * (random() - 0.5),
                ),
              );
            }
          }
          const pts = new Float64Array(3 * n);
          const w = vec3.create();
          for (let i = 0; i < n; i++) {
            iso.transformPoint(w, pose, local[i]);
            pts.set([w.x, w.y, w.z], 3 * i);
          }
          const r = projectPoints(m, pose, pts);
          // The pose's rounding: world coordinates near 1e5 carry ~1e-11 absolute error.
          const slack = 1e-9 * scale + 1e-10 * far;
          for (let i = 0; i < n; i++) {
            const o = brute(m, local[i]);
            expect(Math.abs(Math.abs(r.signedDistances[i]) - o.distance)).toBeLessThanOrEqual(
              slack,
            );
            // The sign, where the point is clearly off the surface, from the half-spaces.
            let worst = -Infinity;
            for (let f = 0; f < hull.facePlaneOffsets.length; f++) {
              const nrm = hull.faceNormals;
              const d =
                nrm[3 * f] * local[i].x + nrm[3 * f + 1] * local[i].y + nrm[3 * f + 2] * local[i].z;
              worst = Math.max(worst, d - hull.facePlaneOffsets[f]);
            }
            if (Math.abs(worst) > 1e-6 * scale + 1e-9 * far)
              expect(r.signedDistances[i] < 0).toBe(worst < 0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("projectPoints: bad input", () => {
  it("refuses a non-mesh, a bad length and a NaN, naming them", () => {
    const pts = new Float64Array([0, 0, 0]);
    expect(() => projectPoints(makeSphere(1) as unknown as TriangleMesh, identity, pts)).toThrow(
      /mesh\.type/,
    );
    expect(() => projectPoints(mesh, identity, new Float64Array(4))).toThrow(/points must be/);
    expect(() => projectPoints(mesh, identity, [0, 0, 0] as unknown as Float64Array)).toThrow(
      CollideError,
    );
    expect(() => projectPoints(mesh, identity, new Float64Array([0, Number.NaN, 0]))).toThrow(
      /points\[1\]/,
    );
  });
});
