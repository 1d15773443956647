/**
 * `projectPoint` far from a convex hull with a merged face whose corners are not exactly
 * coplanar (issue 16, session 41): the hull builder merges corners within its tolerance (1e-10 of
 * the extent) into one face, off its stored plane, and the exact far path
 * (src/shapes/defs/convex-polyhedron.ts, `exactHullWhenFar`) had left such a hull to the double
 * path, whose foot drifts by ε·distance. Now such a face contributes every triangle of its
 * corners and the answer is certified against every vertex (else every face is taken).
 *
 * Oracle: test/oracles/exact-hull-projection.ts — the exact projection onto the convex hull of
 * the hull's vertices by brute force over every boundary triple (no hull construction of the
 * library), rounded once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { exactHull, projectOntoExactHull } from "../oracles/exact-hull-projection.js";
import { pose } from "../support/pose.js";
import { ulp } from "../support/ulp.js";

const ID = pose();

/** Whether some face of the hull has a corner off the plane of its first three (exactly). */
function hasNonPlanarFace(h: api.ConvexPolyhedron): boolean {
  const v = h.vertices;
  const fo = h.faceOffsets;
  const fv = h.faceVertices;
  const big = (x: number) => {
    let e = 0n;
    let m = x;
    while (!Number.isInteger(m)) {
      m *= 2;
      e++;
    }
    return BigInt(m) << (1100n - e);
  };
  const P = (i: number) => [big(v[3 * i]), big(v[3 * i + 1]), big(v[3 * i + 2])];
  for (let f = 0; f + 1 < fo.length; f++) {
    if (fo[f + 1] - fo[f] < 4) continue;
    const [a, b, c] = [0, 1, 2].map((k) => P(fv[fo[f] + k]));
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    for (let k = fo[f] + 3; k < fo[f + 1]; k++) {
      const d = P(fv[k]);
      if (n[0] * (d[0] - a[0]) + n[1] * (d[1] - a[1]) + n[2] * (d[2] - a[2]) !== 0n) return true;
    }
  }
  return false;
}

/** A box of half extents s·(1, hy, hz) with each corner moved by up to `bump` of s. */
function bumpedBox(s: number, hy: number, hz: number, bumps: number[]): api.ConvexPolyhedron {
  const pts: number[] = [];
  let i = 0;
  for (const x of [-1, 1])
    for (const y of [-hy, hy])
      for (const z of [-hz, hz]) {
        pts.push(s * (x + bumps[i]), s * (y + bumps[i + 1]), s * (z + bumps[i + 2]));
        i += 3;
      }
  return api.makeConvexPolyhedron(Float64Array.from(pts));
}

function check(h: api.ConvexPolyhedron, p: api.Vec3): void {
  const pts: number[][] = [];
  for (let i = 0; i < h.vertices.length; i += 3)
    pts.push([h.vertices[i], h.vertices[i + 1], h.vertices[i + 2]]);
  const ex = projectOntoExactHull(exactHull(pts, [p.x, p.y, p.z]), [p.x, p.y, p.z]);
  const got = api.projectPoint(h, ID, p);
  expect(got.inside).toBe(false);
  const g = [got.point.x, got.point.y, got.point.z];
  for (let k = 0; k < 3; k++)
    expect(Math.abs(g[k] - ex.point[k]), `coordinate ${k}`).toBeLessThanOrEqual(ulp(ex.point[k]));
  expect(Math.abs(got.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
}

describe("projectPoint far from a hull with a non-planar merged face: the exact nearest point", () => {
  it("a unit cube with a top corner raised 1e-12: from 1e3..1e300 above, beside and off an edge", () => {
    const bumps = new Array(24).fill(0);
    bumps[3 * 7 + 1] = 1e-12; // corner (1, 1, 1) raised in y
    const h = bumpedBox(1, 1, 1, bumps);
    expect(hasNonPlanarFace(h)).toBe(true);
    for (const D of [1e3, 1e6, 1e9, 1e12, 1e16, 1e100, 1e300]) {
      check(h, { x: 0.3, y: D, z: 0.7 });
      check(h, { x: D, y: 0.999, z: -0.2 });
      check(h, { x: D, y: D, z: 0.25 });
      check(h, { x: 0.9 * D, y: D, z: 0.8 * D });
    }
  });

  it("property: boxes of 1e-6..1e6 with corners bumped by up to 3e-11 seen from 1e3..1e9 sizes", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        fc.array(fc.double({ min: -3e-11, max: 3e-11, noNaN: true }), {
          minLength: 24,
          maxLength: 24,
        }),
        fc.double({ min: 3, max: 9, noNaN: true }),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.integer({ min: 0, max: 2 }),
        (ls, hy, hz, bumps, lf, dir, axis) => {
          const s = 10 ** ls;
          const h = bumpedBox(s, hy, hz, bumps);
          fc.pre(hasNonPlanarFace(h));
          // Mostly off a face (one axis dominant), sometimes off an edge or a corner.
          const d = [dir[0], dir[1], dir[2]];
          d[axis] = d[axis] < 0 ? -4 : 4;
          const l = Math.hypot(d[0], d[1], d[2]);
          const far = s * 10 ** lf;
          check(h, { x: (d[0] / l) * far, y: (d[1] / l) * far, z: (d[2] / l) * far });
        },
      ),
      { numRuns: 60 },
    );
  });
});
