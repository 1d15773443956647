/**
 * Closest points on segment, triangle, tetrahedron (src/geometry/closest-point.ts) against two
 * independent oracles: the convex optimality certificate — q is the closest point of conv(V)
 * to p iff q ∈ conv(V) and (p − q)·(v − q) ≤ 0 for every vertex v — and dense sampling of
 * the simplex by barycentric grids. Degenerate simplices included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  closestPointOnSegment,
  closestPointOnTetrahedron,
  closestPointOnTriangle,
} from "../../src/geometry/closest-point.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { vec } from "../oracles/arbitraries.js";

/** Checks weights, reconstruction and the optimality certificate; returns |p − q|. */
function certify(p: Vec3, q: Vec3, verts: Vec3[], w: number[], size: number): number {
  const tol = 1e-9 * size;
  let sum = 0;
  const r = vec3.create();
  for (let i = 0; i < verts.length; i++) {
    expect(Number.isFinite(w[i])).toBe(true);
    expect(w[i]).toBeGreaterThanOrEqual(-1e-12);
    sum += w[i];
    vec3.addScaled(r, r, verts[i], w[i]);
  }
  expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
  expect(vec3.distance(r, q)).toBeLessThanOrEqual(tol);
  const pq = vec3.sub(vec3.create(), p, q);
  for (const v of verts) {
    const vq = vec3.sub(vec3.create(), v, q);
    expect(vec3.dot(pq, vq)).toBeLessThanOrEqual(tol * size);
  }
  return vec3.distance(p, q);
}

/** Min distance from p over a barycentric grid of the simplex (an upper bound on the truth). */
function sampled(p: Vec3, verts: Vec3[], n: number): number {
  let best = Infinity;
  const q = vec3.create();
  const rec = (i: number, left: number, acc: Vec3) => {
    if (i === verts.length - 1) {
      vec3.addScaled(q, acc, verts[i], left / n);
      best = Math.min(best, vec3.distance(p, q));
      return;
    }
    for (let k = 0; k <= left; k++)
      rec(i + 1, left - k, vec3.addScaled(vec3.create(), acc, verts[i], k / n));
  };
  rec(0, n, vec3.create());
  return best;
}

/** Random simplex corners, sometimes degenerate (repeated, collinear, coplanar). */
function corners(k: number): fc.Arbitrary<Vec3[]> {
  return fc
    .tuple(
      fc.array(vec(-2, 2), { minLength: k, maxLength: k }),
      fc.constantFrom("plain", "plain", "dup", "line", "flat"),
    )
    .map(([vs, kind]) => {
      if (kind === "dup") return vs.map((v, i) => (i === k - 1 ? vec3.clone(vs[0]) : v));
      if (kind === "line")
        return vs.map((v, i) =>
          vec3.lerp(vec3.create(), vs[0], vs[1], i - 0.5 * i * i + 0.3 * v.x),
        );
      if (kind === "flat") return vs.map((v) => ({ x: v.x, y: v.y, z: 0.5 }));
      return vs;
    });
}

const scaleArb = fc.constantFrom(1e-3, 1, 1e3);

describe("closest points on simplices", () => {
  it("segment: certificate and sampling", () => {
    fc.assert(
      fc.property(vec(-3, 3), corners(2), scaleArb, (p0, vs0, s) => {
        const p = vec3.scale(vec3.create(), p0, s);
        const vs = vs0.map((v) => vec3.scale(vec3.create(), v, s));
        const w = [0, 0];
        const q = closestPointOnSegment(vec3.create(), p, vs[0], vs[1], w);
        const d = certify(p, q, vs, w, s);
        expect(d).toBeLessThanOrEqual(sampled(p, vs, 200) + 1e-12 * s);
      }),
      { numRuns: 300 },
    );
  });

  it("triangle: certificate and sampling (zero-area triangles included)", () => {
    fc.assert(
      fc.property(vec(-3, 3), corners(3), scaleArb, (p0, vs0, s) => {
        const p = vec3.scale(vec3.create(), p0, s);
        const vs = vs0.map((v) => vec3.scale(vec3.create(), v, s));
        const w = [0, 0, 0];
        const q = closestPointOnTriangle(vec3.create(), p, vs[0], vs[1], vs[2], w);
        const d = certify(p, q, vs, w, s);
        expect(d).toBeLessThanOrEqual(sampled(p, vs, 60) + 1e-12 * s);
      }),
      { numRuns: 300 },
    );
  });

  it("tetrahedron: certificate and sampling (flat tetrahedra included)", () => {
    fc.assert(
      fc.property(vec(-3, 3), corners(4), scaleArb, (p0, vs0, s) => {
        const p = vec3.scale(vec3.create(), p0, s);
        const vs = vs0.map((v) => vec3.scale(vec3.create(), v, s));
        const w = [0, 0, 0, 0];
        const q = closestPointOnTetrahedron(vec3.create(), p, vs[0], vs[1], vs[2], vs[3], w);
        const d = certify(p, q, vs, w, s);
        expect(d).toBeLessThanOrEqual(sampled(p, vs, 24) + 1e-12 * s);
      }),
      { numRuns: 200 },
    );
  });

  it("exact cases: a point inside, on an edge, degenerate to a point; out may alias p", () => {
    const a = { x: 0, y: 0, z: 0 };
    const b = { x: 1, y: 0, z: 0 };
    const c = { x: 0, y: 1, z: 0 };
    const d = { x: 0, y: 0, z: 1 };
    const w = [0, 0, 0, 0];
    expect(
      closestPointOnTetrahedron(vec3.create(), { x: 0.1, y: 0.2, z: 0.3 }, a, b, c, d, w),
    ).toEqual({ x: 0.1, y: 0.2, z: 0.3 });
    expect(w[0]).toBeCloseTo(0.4, 15);
    expect(closestPointOnTriangle(vec3.create(), { x: 0.5, y: -1, z: 3 }, a, b, c, w)).toEqual({
      x: 0.5,
      y: 0,
      z: 0,
    });
    expect(closestPointOnTriangle(vec3.create(), { x: 5, y: 5, z: 5 }, a, a, a, w)).toEqual(a);
    expect(closestPointOnSegment(vec3.create(), { x: 5, y: 5, z: 5 }, b, b, w)).toEqual(b);
    const p = { x: 2, y: 2, z: 2 };
    closestPointOnTriangle(p, p, a, b, c);
    expect(p.z).toBe(0);
    expect(p.x + p.y).toBeCloseTo(1, 15);
  });
});
