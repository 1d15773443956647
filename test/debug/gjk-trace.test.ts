/**
 * The GJK/EPA trace against independent oracles: analytic distances and depths (sphere pairs,
 * axis-aligned boxes), the closest-point optimality condition v·(w − v) ≥ 0 at every step, the
 * world-frame Minkowski points against their own witnesses, and the recording EPA and the
 * narrow phase against SAT by brute force over the 15 box axes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { traceGjkPair } from "../../src/debug/gjk-trace.js";
import { CollideError } from "../../src/errors.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  makeCapsule,
  makeCompound,
  makeConvexPolyhedron,
  makeCuboid,
  makeHalfSpace,
  makeSphere,
} from "../../src/shapes/index.js";
import { pose, unitQuat, vec } from "../oracles/arbitraries.js";
import { boxCorners, projectionOverlap, sphereDirections } from "../oracles/support-oracle.js";

/** Checks the per-step invariants of a trace (see the module docs). */
function checkSteps(t: ReturnType<typeof traceGjkPair>, scale: number): void {
  expect(t.steps.length).toBeGreaterThan(0);
  let last = Infinity;
  for (const s of t.steps) {
    expect(s.simplex.length).toBeGreaterThanOrEqual(1);
    expect(s.simplex.length).toBeLessThanOrEqual(4);
    const vv = vec3.lengthSq(s.v);
    const eps = 1e-9 * scale * scale;
    // v is the closest point of the simplex's hull to the origin: v·(w − v) ≥ 0 for every w.
    for (const w of s.simplex) expect(vec3.dot(s.v, w) - vv).toBeGreaterThanOrEqual(-eps);
    // Each Minkowski point is its witnesses' difference (world frame).
    s.simplex.forEach((w, i) => {
      const d = vec3.sub(vec3.create(), s.witnessesA[i], s.witnessesB[i]);
      expect(vec3.distance(d, w)).toBeLessThanOrEqual(1e-9 * scale);
    });
    expect(Math.sqrt(vv)).toBeLessThanOrEqual(last + 1e-12 * scale);
    last = Math.sqrt(vv);
    expect(vec3.length(s.direction)).toBeCloseTo(1, 12);
    if (vv > eps) {
      const dir = vec3.scale(vec3.create(), s.v, -1 / Math.sqrt(vv));
      expect(vec3.distance(dir, s.direction)).toBeLessThan(1e-9);
    }
  }
}

describe("traceGjkPair", () => {
  it("separated spheres: one point per core, distance |c1 − c2| − r1 − r2", () => {
    fc.assert(
      fc.property(
        vec(-100, 100),
        vec(-100, 100),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        (c1, c2, r1, r2) => {
          const d = vec3.distance(c1, c2);
          fc.pre(d > r1 + r2 + 1e-6);
          const t = traceGjkPair(makeSphere(r1), iso.create(c1), makeSphere(r2), iso.create(c2));
          expect(t.status).toBe("separated");
          expect(t.marginA).toBe(r1);
          expect(t.marginB).toBe(r2);
          expect(t.distance).toBeCloseTo(d - r1 - r2, 9);
          checkSteps(t, 200);
          const lastV = t.steps[t.steps.length - 1].v;
          expect(vec3.length(lastV)).toBeCloseTo(d, 9);
          // The Minkowski difference of two points is c1 − c2.
          expect(vec3.distance(lastV, vec3.sub(vec3.create(), c1, c2))).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it("rotated boxes: steps satisfy the closest-point condition; the end matches SAT by brute force", () => {
    const dirs = sphereDirections(400);
    fc.assert(
      fc.property(vec(0.1, 2), vec(0.1, 2), pose(-3, 3), unitQuat, (ha, hb, pb, qa) => {
        const pa = { translation: vec3.create(), rotation: qa };
        const t = traceGjkPair(makeCuboid(ha), pa, makeCuboid(hb), pb);
        checkSteps(t, 10);
        const ca = boxCorners(ha, pa);
        const cb = boxCorners(hb, pb);
        if (t.status === "separated") {
          // The gap is at least the best separating axis found by sampling, and at most |v|.
          let gap = -Infinity;
          for (const d of dirs) gap = Math.max(gap, -projectionOverlap(ca, cb, d));
          expect(t.distance).toBeGreaterThanOrEqual(gap - 1e-9);
          expect(t.epa).toBeNull();
        } else {
          // Overlap: EPA's depth is the minimum overlap over the 15 SAT axes of two boxes.
          const axes: Vec3[] = [];
          const ax = (q: typeof qa, i: number) =>
            quat.rotate(
              vec3.create(),
              q,
              vec3.create(i === 0 ? 1 : 0, i === 1 ? 1 : 0, i === 2 ? 1 : 0),
            );
          for (let i = 0; i < 3; i++) axes.push(ax(qa, i), ax(pb.rotation, i));
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++) {
              const c = vec3.cross(vec3.create(), ax(qa, i), ax(pb.rotation, j));
              if (vec3.normalize(c, c) > 1e-6) axes.push(c);
            }
          let sat = Infinity;
          for (const d of axes) sat = Math.min(sat, projectionOverlap(ca, cb, d));
          const e = t.epa!;
          expect(e).not.toBeNull();
          // The narrow phase (EPA, or its SAT fallback) and the recording EPA both find it.
          expect(t.distance).toBeCloseTo(-sat, 6);
          expect(e.tracedDepth).toBeCloseTo(sat, 6);
          if (e.status === "converged") expect(e.depth).toBeCloseTo(sat, 6);
          checkPolytopes(e.steps);
        }
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it("overlapping axis-aligned boxes far from the origin: depth = smallest axis overlap", () => {
    for (const far of [0, 1e6]) {
      const o = vec3.create(far, -far, far);
      const pa = iso.create(o);
      const pb = iso.create(vec3.add(vec3.create(), o, vec3.create(1.5, 0.2, -0.1)));
      const t = traceGjkPair(
        makeCuboid(vec3.create(1, 1, 1)),
        pa,
        makeCuboid(vec3.create(1, 1, 1)),
        pb,
      );
      expect(t.status).toBe("intersecting");
      // Overlaps per axis: x 0.5, y 1.8, z 1.9.
      expect(t.epa!.depth).toBeCloseTo(0.5, 6);
      expect(t.epa!.normal.x).toBeCloseTo(1, 6);
      const lastPoly = t.epa!.steps[t.epa!.steps.length - 1];
      expect(lastPoly.distance).toBeCloseTo(0.5, 6);
    }
  });

  it("a sphere in a box: full distance = −(core depth + radius)", () => {
    const t = traceGjkPair(
      makeCuboid(vec3.create(2, 1, 2)),
      iso.identity(),
      makeSphere(0.5),
      iso.create(vec3.create(0.3, 0.8, 0)),
    );
    // The sphere's centre is 0.2 under the top face: depth 0.2 + 0.5.
    expect(t.status).toBe("intersecting");
    expect(t.distance).toBeCloseTo(-0.7, 6);
    expect(t.marginB).toBe(0.5);
  });

  it("touching hulls and a capsule's segment core give finite traces", () => {
    const cube = makeConvexPolyhedron([
      0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1,
    ]);
    const t = traceGjkPair(cube, iso.identity(), cube, iso.create(vec3.create(1, 0, 0)));
    expect(Number.isFinite(t.distance)).toBe(true);
    expect(Math.abs(t.distance)).toBeLessThan(1e-9);
    for (const s of t.steps)
      expect(s.simplex.flatMap((p) => [p.x, p.y, p.z]).every(Number.isFinite)).toBe(true);
    const cap = makeCapsule(vec3.create(0, -1, 0), vec3.create(0, 1, 0), 0.25);
    const t2 = traceGjkPair(cap, iso.identity(), cap, iso.create(vec3.create(0.3, 0, 0)));
    expect(t2.distance).toBeCloseTo(-0.2, 9);
  });

  it("refuses shapes without a support function", () => {
    const hs = makeHalfSpace(vec3.create(0, 1, 0), 0);
    const comp = makeCompound([{ shape: makeSphere(1), pose: iso.identity() }]);
    expect(() => traceGjkPair(hs, iso.identity(), makeSphere(1), iso.identity())).toThrow(
      CollideError,
    );
    expect(() => traceGjkPair(makeSphere(1), iso.identity(), comp, iso.identity())).toThrow(
      /shapeB/,
    );
  });
});

/** Each recorded polytope is convex, holds the origin, and its closest face is the nearest. */
function checkPolytopes(steps: NonNullable<ReturnType<typeof traceGjkPair>["epa"]>["steps"]): void {
  expect(steps.length).toBeGreaterThan(0);
  for (const p of steps) {
    if (p.faces.length < 4) continue;
    expect(p.closestFaces.length).toBeGreaterThan(0);
    const size = Math.max(...p.vertices.map((v) => vec3.length(v)));
    // The hull merges nearly coplanar faces, so a face is flat only to within a small tolerance;
    // and a sliver triangle of a fan has an ill-conditioned normal, so slivers are not judged.
    const eps = 1e-7 * Math.max(1, size);
    let nearest = Infinity;
    for (const [i, j, k] of p.faces) {
      const e1 = vec3.sub(vec3.create(), p.vertices[j], p.vertices[i]);
      const e2 = vec3.sub(vec3.create(), p.vertices[k], p.vertices[i]);
      const n = vec3.cross(vec3.create(), e1, e2);
      const sliver = vec3.length(n) < 1e-3 * vec3.length(e1) * vec3.length(e2);
      vec3.normalize(n, n);
      const d = vec3.dot(n, p.vertices[i]);
      if (sliver) continue;
      expect(d).toBeGreaterThanOrEqual(-eps); // origin inside
      nearest = Math.min(nearest, d);
      for (const v of p.vertices) expect(vec3.dot(n, v) - d).toBeLessThanOrEqual(eps); // convex
    }
    // The reported closest face is no farther than any (non-sliver) face.
    expect(p.distance).toBeLessThanOrEqual(Math.max(0, nearest) + eps);
  }
}
