import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import * as aabb from "../../src/math/aabb.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  aabbTriangleMesh,
  containsPointTriangleMesh,
  convexHullOfTriangleMesh,
  makeTriangleMesh,
  updateTriangleMeshVertices,
  windingNumberTriangleMesh,
} from "../../src/shapes/triangle-mesh.js";
import { cubeMesh, flatGrid, hullMesh } from "../mesh/helpers.js";
import { unitQuat, vec } from "../oracles/arbitraries.js";

function errorOf(f: () => unknown): CollideError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CollideError);
    return e as CollideError;
  }
  throw new Error("did not throw");
}

describe("makeTriangleMesh", () => {
  it("names the triangle of an out-of-range index, packed and nested", () => {
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const idx = new Array(24).fill(0).map((_, i) => i % 3);
    idx[3 * 7 + 1] = 3;
    const e = errorOf(() => makeTriangleMesh(v, idx, "mesh"));
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("mesh.indices[22]");
    expect(e.message).toMatch(/triangle 7/);
    const n = errorOf(() => makeTriangleMesh(v, [0, 1, -1], "b", { indexPath: "nested" }));
    expect(n.field).toBe("b.indices[0][2]");
    expect(errorOf(() => makeTriangleMesh(v, [0, 1, 1.5])).message).toMatch(/triangle 0/);
    expect(errorOf(() => makeTriangleMesh(v, [0, 1])).field).toBe("indices");
  });

  it("names the triangle that uses a non-finite vertex", () => {
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Number.POSITIVE_INFINITY];
    const e = errorOf(() => makeTriangleMesh(v, [0, 1, 2, 0, 1, 3], "m"));
    expect(e.field).toBe("m.vertices[3]");
    expect(e.message).toMatch(/triangle 1/);
  });

  it("accepts degenerate triangles and open, non-manifold meshes", () => {
    const v = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1];
    const m = makeTriangleMesh(v, [0, 1, 2, 0, 0, 0, 0, 1, 3, 0, 1, 4, 1, 0, 3]);
    expect(m.triangleCount).toBe(5);
    expect(m.closed).toBe(false);
    expect(Number.isFinite(windingNumberTriangleMesh(m, { x: 0, y: 0, z: 0 }))).toBe(true);
    expect(Number.isFinite(windingNumberTriangleMesh(m, { x: 0.5, y: 0, z: 0 }))).toBe(true);
    // An empty mesh is refused (issue 16: it answered "no contact"), naming the field.
    expect(() => makeTriangleMesh([], [])).toThrow(/^vertices must hold at least one vertex/);
    expect(() => makeTriangleMesh([0, 0, 0], [], "a")).toThrow(
      /^a\.indices must hold at least one triangle/,
    );
  });

  it("classifies active edges: boundary and ridges active, coplanar seams inactive", () => {
    const g = flatGrid(2, 1);
    for (let t = 0; t < g.triangleCount; t++) {
      for (let e = 0; e < 3; e++) {
        const active = (g.activeEdges[t] >> e) & 1;
        expect(active).toBe(g.edgeNeighbors[3 * t + e] < 0 ? 1 : 0);
      }
    }
    const c = cubeMesh();
    expect(c.closed).toBe(true);
    // Each cube triangle has two cube edges (active) and its face diagonal (inactive).
    for (let t = 0; t < 12; t++) {
      const f = c.activeEdges[t];
      expect((f & 1) + ((f >> 1) & 1) + ((f >> 2) & 1)).toBe(2);
    }
  });
});

describe("containsPointTriangleMesh", () => {
  it("matches the convex hull's half-space test for closed convex meshes (random clouds)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(1e-3, 1, 1e4), (seed, s) => {
        const rng = makeRandom(seed);
        const pts = new Float64Array(3 * 30);
        for (let i = 0; i < pts.length; i++) pts[i] = (rng() - 0.5) * s;
        const mesh = hullMesh(pts);
        const hull = convexHullOfTriangleMesh(mesh);
        expect(mesh.closed).toBe(true);
        for (let k = 0; k < 40; k++) {
          const p = vec3.create((rng() - 0.5) * s, (rng() - 0.5) * s, (rng() - 0.5) * s);
          let worst = -Infinity;
          for (let f = 0; f < hull.faceCount; f++) {
            const n = hull.faceNormals;
            const d = n[3 * f] * p.x + n[3 * f + 1] * p.y + n[3 * f + 2] * p.z;
            worst = Math.max(worst, d - hull.facePlaneOffsets[f]);
          }
          if (Math.abs(worst) < 1e-6 * s) continue; // too close to the surface to call
          expect(containsPointTriangleMesh(mesh, p)).toBe(worst < 0);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("is robust for points on the lines through edges and vertices (where ray parity breaks)", () => {
    const c = cubeMesh(2);
    // Points aligned with cube edges and vertices along every axis.
    expect(containsPointTriangleMesh(c, { x: 1, y: 1, z: 1 })).toBe(true);
    expect(containsPointTriangleMesh(c, { x: 0.5, y: 1, z: 1 })).toBe(true);
    expect(containsPointTriangleMesh(c, { x: -1, y: 0, z: 0 })).toBe(false);
    expect(containsPointTriangleMesh(c, { x: -1, y: 2, z: 2 })).toBe(false);
    expect(containsPointTriangleMesh(c, { x: 3, y: 1, z: 1 })).toBe(false);
    expect(Math.abs(windingNumberTriangleMesh(c, { x: 1, y: 1, z: 1 }) - 1)).toBeLessThan(1e-12);
  });
});

describe("aabbTriangleMesh", () => {
  it("contains every transformed vertex, exactly for identity rotations", () => {
    fc.assert(
      fc.property(vec(-1e6, 1e6), unitQuat, (t, q) => {
        const c = cubeMesh(3);
        const box = aabbTriangleMesh(aabb.empty(), c, { translation: t, rotation: q });
        const p = vec3.create();
        for (let i = 0; i < c.vertexCount; i++) {
          vec3.set(p, c.vertices[3 * i], c.vertices[3 * i + 1], c.vertices[3 * i + 2]);
          iso.transformPoint(p, { translation: t, rotation: q }, p);
          expect(aabb.containsPoint(aabb.expandByMargin(aabb.empty(), box, 1e-6), p)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
    const box = aabbTriangleMesh(aabb.empty(), cubeMesh(3), iso.identity());
    expect([box.min.x, box.max.z]).toEqual([0, 3]);
  });
});

describe("updateTriangleMeshVertices", () => {
  it("refits the tree and reclassifies edges after deformation", () => {
    const g = flatGrid(1, 1);
    const v = Float64Array.from(g.vertices);
    v[2] = 0.5; // lift a corner: the shared diagonal becomes a ridge or a valley
    const moved = updateTriangleMeshVertices(g, v);
    expect(moved.bvh.bounds[5]).toBe(0.5);
    expect(moved.vertices[2]).toBe(0.5);
    // A changed shape is a new shape: the original is untouched.
    expect(moved).not.toBe(g);
    expect(g.vertices[2]).toBe(0);
    expect(g.bvh.bounds[5]).toBe(0);
    expect(Object.isFrozen(moved)).toBe(true);
    expect(() => updateTriangleMeshVertices(g, [0, 0, 0])).toThrow(CollideError);
  });
});
