import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import { bunnyMeshData } from "../../src/io/mesh-loaders.js";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import {
  contactConvexConvex,
  distanceConvexConvex,
  intersectsConvexConvex,
} from "../../src/narrowphase/convex-convex.js";
import {
  contactMeshConvex,
  distanceMeshConvex,
  intersectsMeshConvex,
  manifoldMeshConvex,
} from "../../src/narrowphase/convex-mesh.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../../src/narrowphase/dispatch.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import {
  getMeshTriangle,
  makeTriangleMesh,
  meshTriangleNormal,
} from "../../src/shapes/triangle-mesh.js";
import { randomSoup } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";

const a = vec3.create();
const b = vec3.create();
const c = vec3.create();

/** Brute force over every triangle with the plain convex routines (the oracle). */
function brute(mesh: TriangleMesh, s: ConvexShape, pose: Isometry) {
  let any = false;
  let dist = Infinity;
  let deepest = Infinity;
  const dr = makeDistanceResult();
  const cr = makeContact();
  for (let t = 0; t < mesh.triangleCount; t++) {
    getMeshTriangle(mesh, t, a, b, c);
    const tri = makeTriangle(a, b, c);
    if (intersectsConvexConvex(tri, s, pose)) any = true;
    dist = Math.min(dist, distanceConvexConvex(dr, tri, s, pose).distance);
    if (contactConvexConvex(cr, tri, s, pose, 0)) deepest = Math.min(deepest, cr.distance);
  }
  return { any, dist, deepest };
}

const shapes: ConvexShape[] = [
  makeSphere(0.6),
  makeCuboid({ x: 0.5, y: 0.3, z: 0.7 }),
  makeCapsule({ x: -0.4, y: 0, z: 0 }, { x: 0.4, y: 0.1, z: 0 }, 0.3),
  makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.7, 0.7, 0.7]),
];

describe("mesh against convex shapes: brute force over all triangles", () => {
  it("intersects, distance and contact depth agree with the per-triangle oracle (seeded)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unitQuat,
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e6),
        (seed, k, q, s, far) => {
          const rng = makeRandom(seed);
          const v: number[] = [];
          const soup = randomSoup(rng, 40, 6, 2);
          for (const x of soup.vertices) v.push(x * s + far);
          const mesh = makeTriangleMesh(v, soup.indices);
          const base = shapes[k];
          const shape: ConvexShape =
            base.type === 0
              ? makeSphere(base.radius * s)
              : base.type === 1
                ? makeCuboid(vec3.scale(vec3.create(), base.halfExtents, s))
                : base.type === 2
                  ? makeCapsule(
                      vec3.scale(vec3.create(), base.a, s),
                      vec3.scale(vec3.create(), base.b, s),
                      base.radius * s,
                    )
                  : makeConvexPolyhedron(
                      Array.from(
                        (base as ReturnType<typeof makeConvexPolyhedron>).vertices,
                        (x) => x * s,
                      ),
                    );
          const pose = {
            translation: vec3.create(
              far + (rng() - 0.5) * 6 * s,
              far + (rng() - 0.5) * 6 * s,
              far + (rng() - 0.5) * 6 * s,
            ),
            rotation: q,
          };
          const o = brute(mesh, shape, pose);
          const tol = 1e-6 * s * (far > 0 ? 1e4 : 1);
          const dr = distanceMeshConvex(makeDistanceResult(), mesh, shape, pose);
          expect(Math.abs(dr.distance - o.dist)).toBeLessThanOrEqual(tol);
          if (o.dist > tol) expect(intersectsMeshConvex(mesh, shape, pose)).toBe(false);
          if (o.deepest < -tol) {
            expect(intersectsMeshConvex(mesh, shape, pose)).toBe(true);
            const ct = makeContact();
            expect(contactMeshConvex(ct, mesh, shape, pose, 0)).toBe(true);
            expect(Math.abs(ct.distance - o.deepest)).toBeLessThanOrEqual(
              tol + 1e-9 * Math.abs(o.deepest),
            );
            expect(Math.abs(vec3.length(ct.normal) - 1)).toBeLessThan(1e-9);
            const m = makeContactManifold();
            expect(manifoldMeshConvex(m, mesh, shape, pose, 0)).toBe(true);
            expect(m.count).toBeGreaterThanOrEqual(1);
            expect(m.count).toBeLessThanOrEqual(4);
            for (let i = 0; i < m.count; i++)
              expect(Number.isFinite(m.points[i].distance)).toBe(true);
          }
          if (o.any === false) expect(intersectsMeshConvex(mesh, shape, pose)).toBe(false);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("answers through the dispatch in both orders with mirrored results", () => {
    const rng = makeRandom(3);
    const mesh = randomSoup(rng, 30, 4, 2);
    const box = makeCuboid({ x: 0.6, y: 0.6, z: 0.6 });
    const pose = iso.create(vec3.create(0.2, 0.1, 0), {
      x: 0,
      y: 0,
      z: Math.SQRT1_2,
      w: Math.SQRT1_2,
    });
    const inv = iso.invert(iso.identity(), pose);
    const c1 = makeContact();
    const c2 = makeContact();
    const hit = contactPair(c1, mesh, box, pose, 0.5);
    expect(contactPair(c2, box, mesh, inv, 0.5)).toBe(hit);
    expect(intersectsPair(mesh, box, pose)).toBe(intersectsPair(box, mesh, inv));
    const d1 = distancePair(makeDistanceResult(), mesh, box, pose);
    const d2 = distancePair(makeDistanceResult(), box, mesh, inv);
    expect(d1.distance).toBeCloseTo(d2.distance, 9);
    if (hit) {
      expect(c2.distance).toBeCloseTo(c1.distance, 9);
      const n = iso.transformVector(vec3.create(), pose, c2.normal);
      expect(vec3.dot(n, c1.normal)).toBeCloseTo(-1, 9);
      const m = makeContactManifold();
      expect(manifoldPair(m, box, mesh, inv, 0.5)).toBe(true);
      expect(m.count).toBeGreaterThan(0);
    }
  });
});

describe("internal edges", () => {
  // Two squares side by side (4 triangles), seam along x = 0, all in z = 0.
  const strip = makeTriangleMesh(
    [-2, -2, 0, 0, -2, 0, 0, 2, 0, -2, 2, 0, 2, -2, 0, 2, 2, 0],
    [0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2],
  );
  const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });

  it("gives a box sliding across the shared edge the face normal (no bump)", () => {
    // Check the oracle first: the right-hand triangle alone pushes the box sideways here.
    const pose = iso.create(vec3.create(-0.5 + 0.002, 0, 0.5 - 0.01));
    getMeshTriangle(strip, 3, a, b, c);
    const alone = makeContact();
    expect(contactConvexConvex(alone, makeTriangle(a, b, c), box, pose, 0)).toBe(true);
    expect(Math.abs(alone.normal.z)).toBeLessThan(0.5);
    for (let s = 0; s <= 40; s++) {
      const x = -0.6 + (1.2 * s) / 40;
      const p = iso.create(vec3.create(x, 0.3, 0.5 - 0.01));
      const ct = makeContact();
      expect(contactMeshConvex(ct, strip, box, p, 0)).toBe(true);
      expect(ct.normal.z).toBeCloseTo(1, 12);
      expect(ct.distance).toBeCloseTo(-0.01, 9);
      const m = makeContactManifold();
      expect(manifoldMeshConvex(m, strip, box, p, 0)).toBe(true);
      expect(m.normal.z).toBeCloseTo(1, 12);
      expect(m.count).toBe(4);
      for (let i = 0; i < m.count; i++) expect(m.points[i].distance).toBeCloseTo(-0.01, 9);
    }
  });

  it("passes the handed case sphere-on-flat-quad-seam through answerQuery", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const line = readFileSync(join(here, "../cases/bug-reports.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"sphere-on-flat-quad-seam"'))[0];
    const kase = JSON.parse(line);
    const r = answerQuery(kase.query) as { distance: number; normal: number[]; pointA: number[] };
    expect(Math.abs(r.distance - kase.expect.distance)).toBeLessThanOrEqual(kase.tol);
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(r.normal[i] - kase.expect.normal[i])).toBeLessThanOrEqual(kase.tol);
      expect(Math.abs(r.pointA[i] - kase.expect.pointA[i])).toBeLessThanOrEqual(kase.tol);
    }
  });
});

describe("the Stanford bunny", () => {
  const data = bunnyMeshData();
  const bunny = makeTriangleMesh(data.vertices, data.indices);
  const weights = [0, 0, 0];

  /** Exact distance from p to the bunny surface, brute force over all triangles. */
  function bruteDistance(p: { x: number; y: number; z: number }): number {
    let best = Infinity;
    const q = vec3.create();
    for (let t = 0; t < bunny.triangleCount; t++) {
      getMeshTriangle(bunny, t, a, b, c);
      closestPointOnTriangle(q, p, a, b, c, weights);
      best = Math.min(best, vec3.distance(q, p));
    }
    return best;
  }

  it("a sphere tangent at a sampled surface point touches; lifted by a small gap it does not", () => {
    const rng = makeRandom(2024);
    const r = 0.05;
    const gap = 1e-3;
    const n = vec3.create();
    let checked = 0;
    for (let k = 0; k < 60; k++) {
      const t = Math.floor(rng() * bunny.triangleCount);
      if (!(meshTriangleNormal(n, bunny, t) > 0)) continue;
      getMeshTriangle(bunny, t, a, b, c);
      let u = rng();
      let w = rng();
      if (u + w > 1) {
        u = 1 - u;
        w = 1 - w;
      }
      const p = vec3.create(
        a.x + u * (b.x - a.x) + w * (c.x - a.x),
        a.y + u * (b.y - a.y) + w * (c.y - a.y),
        a.z + u * (b.z - a.z) + w * (c.z - a.z),
      );
      const sphere = makeSphere(r);
      const touch = iso.create(vec3.addScaled(vec3.create(), p, n, r * (1 - 1e-9)));
      expect(intersectsMeshConvex(bunny, sphere, touch)).toBe(true);
      const ct = makeContact();
      expect(contactMeshConvex(ct, bunny, sphere, touch, 0)).toBe(true);
      expect(ct.distance).toBeLessThanOrEqual(0);
      const lifted = iso.create(vec3.addScaled(vec3.create(), p, n, r + gap));
      const truth = bruteDistance(lifted.translation) - r;
      const d = distanceMeshConvex(makeDistanceResult(), bunny, sphere, lifted).distance;
      expect(Math.abs(d - Math.max(0, truth))).toBeLessThan(1e-9);
      expect(intersectsMeshConvex(bunny, sphere, lifted)).toBe(truth <= 0);
      if (truth > gap / 2) {
        expect(intersectsMeshConvex(bunny, sphere, lifted)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe("degenerate input", () => {
  it("answers meshes of zero-area triangles without NaN", () => {
    const m = makeTriangleMesh([0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 1, 0], [0, 1, 2, 0, 0, 0, 3, 3, 1]);
    for (const s of shapes) {
      for (const t of [vec3.create(1, 0, 0), vec3.create(1, 0.2, 0), vec3.create(5, 5, 5)]) {
        const pose = iso.create(t);
        const d = distanceMeshConvex(makeDistanceResult(), m, s, pose);
        expect(Number.isFinite(d.distance)).toBe(true);
        expect(vec3.isFiniteVec(d.pointA) && vec3.isFiniteVec(d.pointB)).toBe(true);
        const ct = makeContact();
        if (contactMeshConvex(ct, m, s, pose, 1)) {
          expect(Number.isFinite(ct.distance)).toBe(true);
          expect(vec3.length(ct.normal)).toBeCloseTo(1, 9);
        }
      }
    }
  });
});
