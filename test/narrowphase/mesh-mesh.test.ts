import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../../src/narrowphase/contact.js";
import { contactConvexConvex, distanceConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { contactPair, manifoldPair } from "../../src/narrowphase/dispatch.js";
import {
  contactMeshMesh,
  distanceMeshMesh,
  intersectingTrianglePairsMeshMesh,
  intersectsMeshMesh,
  intersectsTriangleTriangle,
  makeTrianglePairs,
} from "../../src/narrowphase/mesh-mesh.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { getMeshTriangle } from "../../src/shapes/triangle-mesh.js";
import { cubeMesh, randomSoup } from "../mesh/helpers.js";
import { unitQuat, vec } from "../oracles/arbitraries.js";

const v = (x: number, y: number, z: number) => vec3.create(x, y, z);

describe("intersectsTriangleTriangle (Möller 1997)", () => {
  it("agrees with GJK/EPA on random triangle pairs away from touching", () => {
    const c = makeContact();
    const d = makeDistanceResult();
    fc.assert(
      fc.property(
        fc.array(vec(-1, 1), { minLength: 6, maxLength: 6 }),
        fc.constantFrom(1e-3, 1, 1e4),
        (p, s) => {
          const q = p.map((x) => vec3.scale(vec3.create(), x, s));
          const ta = makeTriangle(q[0], q[1], q[2]);
          const tb = makeTriangle(q[3], q[4], q[5]);
          const got = intersectsTriangleTriangle(q[0], q[1], q[2], q[3], q[4], q[5]);
          const gap = distanceConvexConvex(d, ta, tb, iso.identity()).distance;
          if (gap > 1e-9 * s) expect(got).toBe(false);
          if (
            gap === 0 &&
            contactConvexConvex(c, ta, tb, iso.identity(), 0) &&
            c.distance < -1e-6 * s
          )
            expect(got).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("handles coplanar, touching and crossing pairs by hand", () => {
    const a0 = v(0, 0, 0);
    const a1 = v(2, 0, 0);
    const a2 = v(0, 2, 0);
    // Coplanar overlapping, coplanar disjoint, coplanar touching at a vertex.
    expect(intersectsTriangleTriangle(a0, a1, a2, v(0.5, 0.5, 0), v(3, 0.5, 0), v(0.5, 3, 0))).toBe(
      true,
    );
    expect(intersectsTriangleTriangle(a0, a1, a2, v(3, 3, 0), v(4, 3, 0), v(3, 4, 0))).toBe(false);
    expect(intersectsTriangleTriangle(a0, a1, a2, v(2, 0, 0), v(3, 0, 0), v(3, 1, 0))).toBe(true);
    // One inside the other, coplanar.
    expect(
      intersectsTriangleTriangle(a0, a1, a2, v(0.1, 0.1, 0), v(0.3, 0.1, 0), v(0.1, 0.3, 0)),
    ).toBe(true);
    // Crossing, and a vertex touching the face from above, and just above.
    expect(
      intersectsTriangleTriangle(a0, a1, a2, v(0.5, 0.5, -1), v(0.5, 0.5, 1), v(1, -1, 0.5)),
    ).toBe(true);
    expect(
      intersectsTriangleTriangle(a0, a1, a2, v(0.5, 0.5, 0), v(0.5, 0.5, 1), v(1, 0.6, 1)),
    ).toBe(true);
    expect(
      intersectsTriangleTriangle(a0, a1, a2, v(0.5, 0.5, 1e-9), v(0.5, 0.5, 1), v(1, 0.6, 1)),
    ).toBe(false);
    // Degenerate (a segment) through the face, and beside it.
    expect(
      intersectsTriangleTriangle(a0, a1, a2, v(0.5, 0.5, -1), v(0.5, 0.5, 1), v(0.5, 0.5, 1)),
    ).toBe(true);
    expect(intersectsTriangleTriangle(a0, a1, a2, v(5, 5, -1), v(5, 5, 1), v(5, 5, 1))).toBe(false);
  });
});

const a = vec3.create();
const b = vec3.create();
const c = vec3.create();
const d = vec3.create();
const e = vec3.create();
const f = vec3.create();

function triB(m: TriangleMesh, t: number, pose: Isometry, p: Vec3, q: Vec3, r: Vec3): void {
  getMeshTriangle(m, t, p, q, r);
  iso.transformPoint(p, pose, p);
  iso.transformPoint(q, pose, q);
  iso.transformPoint(r, pose, r);
}

describe("mesh against mesh: brute force over all triangle pairs", () => {
  it("lists exactly the intersecting pairs, and distance / contact match the oracle", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        unitQuat,
        fc.constantFrom(1, 1e-3, 1e4),
        (seed, q, s) => {
          const rng = makeRandom(seed);
          const ma = randomSoup(rng, 25, 4 * s, 1.5 * s);
          const mb = randomSoup(rng, 25, 4 * s, 1.5 * s);
          const pose = {
            translation: vec3.create((rng() - 0.5) * s, (rng() - 0.5) * s, 0),
            rotation: q,
          };
          const want: number[] = [];
          let dist = Infinity;
          let deepest = Infinity;
          const dr = makeDistanceResult();
          const cr = makeContact();
          for (let i = 0; i < ma.triangleCount; i++) {
            getMeshTriangle(ma, i, a, b, c);
            for (let j = 0; j < mb.triangleCount; j++) {
              triB(mb, j, pose, d, e, f);
              if (intersectsTriangleTriangle(a, b, c, d, e, f)) want.push(i, j);
              const ta = makeTriangle(a, b, c);
              const tb = makeTriangle(d, e, f);
              dist = Math.min(dist, distanceConvexConvex(dr, ta, tb, iso.identity()).distance);
              if (contactConvexConvex(cr, ta, tb, iso.identity(), 0))
                deepest = Math.min(deepest, cr.distance);
            }
          }
          const pairs = makeTrianglePairs(2);
          const n = intersectingTrianglePairsMeshMesh(pairs, ma, mb, pose);
          expect(Array.from(pairs.pairs.subarray(0, 2 * n))).toEqual(want);
          expect(intersectsMeshMesh(ma, mb, pose)).toBe(want.length > 0);
          const got = distanceMeshMesh(makeDistanceResult(), ma, mb, pose);
          expect(Math.abs(got.distance - dist)).toBeLessThanOrEqual(1e-9 * s);
          const ct = makeContact();
          const hit = contactMeshMesh(ct, ma, mb, pose, 0);
          if (deepest < Infinity) {
            expect(hit).toBe(true);
            expect(Math.abs(ct.distance - deepest)).toBeLessThanOrEqual(1e-9 * s);
          } else expect(hit).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("answers interlocked cubes through the dispatch with a manifold, and nested cubes as apart", () => {
    const big = cubeMesh(2);
    const small = cubeMesh(1);
    const pose = iso.create(vec3.create(1.5, 0.5, 0.5));
    const ct = makeContact();
    expect(contactPair(ct, big, small, pose, 0)).toBe(true);
    expect(ct.distance).toBeLessThan(0);
    const m = makeContactManifold();
    expect(manifoldPair(m, big, small, pose, 0)).toBe(true);
    expect(m.count).toBeGreaterThanOrEqual(1);
    const inside = iso.create(vec3.create(0.5, 0.5, 0.5));
    expect(intersectsMeshMesh(big, small, inside)).toBe(false);
    expect(distanceMeshMesh(makeDistanceResult(), big, small, inside).distance).toBeCloseTo(
      0.5,
      12,
    );
  });
});
