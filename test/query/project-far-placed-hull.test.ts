/**
 * `projectPoint` onto a convex hull placed far from its frame's origin (issue 16, session 42):
 * such a hull is answered as its copy re-centred at a coarse grid point c of its box
 * (src/shapes/hull-frame.ts), the point moved by −c. Seen from beyond 2^52 of its extent the
 * difference p − c rounds by up to |c| — many extents — and the copy's exact far path then
 * answered the rounded point: another corner (a hull of 0.006 at 0.05 seen from 2e15 along a
 * face normal; 168 of 3,000 random face-normal queries from 1e0..1e25 sizes off, up to 4e15
 * ulps). Now such a point is answered on the hull as given (src/query/project-point.ts,
 * `exactDifference`), exactly.
 *
 * Oracle: test/oracles/exact-hull-projection.ts — the exact projection onto the convex hull of
 * the hull's vertices by brute force over every boundary triple, rounded once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { exactHull, projectOntoExactHull } from "../oracles/exact-hull-projection.js";
import { pose } from "../support/pose.js";
import { ulp, uniform } from "../support/ulp.js";

const ID = pose();

function check(h: api.ConvexPolyhedron, q: number[]): void {
  const pts: number[][] = [];
  for (let i = 0; i < h.vertices.length; i += 3)
    pts.push([h.vertices[i], h.vertices[i + 1], h.vertices[i + 2]]);
  const ex = projectOntoExactHull(exactHull(pts, q), q);
  const got = api.projectPoint(h, ID, { x: q[0], y: q[1], z: q[2] });
  expect(got.inside).toBe(ex.inside);
  const g = [got.point.x, got.point.y, got.point.z];
  for (let k = 0; k < 3; k++)
    expect(Math.abs(g[k] - ex.point[k]), `coordinate ${k}`).toBeLessThanOrEqual(ulp(ex.point[k]));
  expect(Math.abs(got.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
}

const unit = uniform(-0.5, 0.5);
const point3 = fc.tuple(unit, unit, unit);

describe("projectPoint from far onto a hull placed far from its frame's origin: exact", () => {
  it("a hull of 0.006 at 0.05 seen from 2e15 along a face normal: its corner, not another", () => {
    const pts = [
      [0.0511131269918191, -0.007175069408882563, -0.014011846599064617],
      [0.05736071552370651, -0.0031611433183492323, -0.018708628409921355],
      [0.053296911599347525, -0.003743361333498815, -0.016235081685773183],
      [0.053654271745420146, -0.008999599585192697, -0.01579950161108511],
      [0.05466408783699968, -0.005130075668781964, -0.016901546590237362],
    ];
    const h = api.makeConvexPolyhedron(Float64Array.from(pts.flat()));
    const q = [1031856922131859.1, 521100140990858, 1817898993141855];
    check(h, q);
    const got = api.projectPoint(h, ID, { x: q[0], y: q[1], z: q[2] });
    expect([got.point.x, got.point.y, got.point.z]).toEqual(pts[0]);
  });

  it("property: hulls of 1e-6..1e6 at 1..1e9 sizes from the origin, seen along a face normal from 10..1e25 sizes", () => {
    fc.assert(
      fc.property(
        uniform(-6, 6),
        uniform(0, 9),
        point3,
        fc.array(point3, { minLength: 5, maxLength: 10 }),
        fc.nat(),
        uniform(0, 1),
        uniform(1, 25),
        (ls, lo, od, cloud, fi, w, ll) => {
          const s = 10 ** ls;
          const ol = Math.hypot(...od);
          fc.pre(ol > 0.05);
          const c = od.map((x) => (x / ol) * s * 10 ** lo);
          const pts = cloud.map((p) => p.map((x, k) => c[k] + s * x));
          let h: api.ConvexPolyhedron;
          try {
            h = api.makeConvexPolyhedron(Float64Array.from(pts.flat()));
          } catch {
            return fc.pre(false);
          }
          // A point of a face (between its centroid and a corner) moved out along its normal.
          const f = fi % (h.faceOffsets.length - 1);
          const a = h.faceOffsets[f];
          const b = h.faceOffsets[f + 1];
          const cen = [0, 0, 0];
          for (let i = a; i < b; i++)
            for (let k = 0; k < 3; k++) cen[k] += h.vertices[3 * h.faceVertices[i] + k] / (b - a);
          const v0 = 3 * h.faceVertices[a];
          const L = s * 10 ** ll;
          const q = [0, 1, 2].map(
            (k) => cen[k] * w + h.vertices[v0 + k] * (1 - w) + h.faceNormals[3 * f + k] * L,
          );
          check(h, q);
        },
      ),
      { numRuns: 300 },
    );
  });
});
