/**
 * `projectPoints` and `projectPoint` on a closed mesh that is not solid (session 41, an earlier
 * leftover): the batch is the surface's signed distance field — negative inside any closed mesh,
 * solid or not (src/query/project-point.ts) — while `projectPoint` calls no point inside a
 * surface mesh (docs/FORMATS.md, "a surface … `projectPoint` gives the nearest surface point and
 * `inside` false"). Both give the same nearest point and distance, and the same mesh made solid
 * gives the batch the same answers, `projectPoint` then `inside` from inside.
 *
 * Oracles: an L-shaped block of three unit voxels (non-convex), inside by its voxels (exact
 * comparisons), its surface's nearest point by exact brute force over its triangles
 * (test/oracles/exact-hull-projection.ts, `exactMeshProjection`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { exactMeshProjection } from "../oracles/exact-hull-projection.js";

const VOXELS = [
  [0, 0, 0],
  [1, 0, 0],
  [0, 1, 0],
];
const has = (x: number, y: number, z: number) =>
  VOXELS.some(([a, b, c]) => a === x && b === y && c === z);

/** The L's boundary: each voxel face without a neighbour, two triangles wound outward. */
function lBlock(): { vertices: number[][]; indices: number[][] } {
  const vertices: number[][] = [];
  const key = new Map<string, number>();
  const vid = (p: number[]) => {
    const k = p.join(",");
    let i = key.get(k);
    if (i === undefined) {
      i = vertices.length;
      vertices.push(p);
      key.set(k, i);
    }
    return i;
  };
  const indices: number[][] = [];
  for (const [x, y, z] of VOXELS) {
    for (let axis = 0; axis < 3; axis++) {
      for (const side of [0, 1]) {
        const n = [0, 0, 0];
        n[axis] = side ? 1 : -1;
        if (has(x + n[0], y + n[1], z + n[2])) continue;
        const u = (axis + 1) % 3;
        const w = (axis + 2) % 3;
        const corner = (a: number, b: number) => {
          const p = [x, y, z];
          p[axis] += side;
          p[u] += a;
          p[w] += b;
          return vid(p);
        };
        const q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
        // (u, w, axis) is right-handed: counter-clockwise in (u, w) faces +axis.
        if (side) indices.push([q[0], q[1], q[2]], [q[0], q[2], q[3]]);
        else indices.push([q[0], q[2], q[1]], [q[0], q[3], q[2]]);
      }
    }
  }
  return { vertices, indices };
}

const { vertices, indices } = lBlock();
const flatV = Float64Array.from(vertices.flat());
const flatI = Uint32Array.from(indices.flat());
const surface = api.makeTriangleMesh(flatV, flatI);
const solid = api.makeTriangleMesh(flatV, flatI, "", { solid: true });
const ID = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };

function insideL(p: number[]): boolean {
  return VOXELS.some(([a, b, c]) => [a, b, c].every((lo, k) => p[k] > lo && p[k] < lo + 1));
}

describe("projectPoints and projectPoint on a closed surface mesh (not solid)", () => {
  it("the mesh is closed and not solid", () => {
    expect(surface.closed).toBe(true);
    expect(surface.solid).toBe(false);
    expect(solid.solid).toBe(true);
  });

  it("property: signs by the voxels, the same point and distance in both, and as the solid mesh", () => {
    const coord = fc.double({ min: -1, max: 3, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 12 }),
        (ps) => {
          const pts = Float64Array.from(ps.flat());
          const batch = api.projectPoints(surface, ID, pts);
          const batchSolid = api.projectPoints(solid, ID, pts);
          ps.forEach((q, i) => {
            const ex = exactMeshProjection(vertices, indices, q);
            if (ex.distance < 1e-12) return; // on the surface: either sign
            const p = { x: q[0], y: q[1], z: q[2] };
            const inside = insideL(q);
            const sd = batch.signedDistances[i];
            // The batch: signed by inside (closed mesh, solid or not), |sd| the exact distance.
            expect(sd < 0, `sign of ${q}`).toBe(inside);
            expect(Math.abs(Math.abs(sd) - ex.distance)).toBeLessThanOrEqual(1e-15);
            // The solid mesh's batch: the same answers.
            expect(batchSolid.signedDistances[i]).toBe(sd);
            expect(batchSolid.points[3 * i]).toBe(batch.points[3 * i]);
            expect(batchSolid.points[3 * i + 1]).toBe(batch.points[3 * i + 1]);
            expect(batchSolid.points[3 * i + 2]).toBe(batch.points[3 * i + 2]);
            // projectPoint on the surface, solid or hollow query: never inside, the batch's point
            // and distance.
            for (const s of [true, false]) {
              const r = api.projectPoint(surface, ID, p, s);
              expect(r.inside).toBe(false);
              expect(r.distance).toBe(Math.abs(sd));
              expect([r.point.x, r.point.y, r.point.z]).toEqual([
                batch.points[3 * i],
                batch.points[3 * i + 1],
                batch.points[3 * i + 2],
              ]);
            }
            // projectPoint on the solid mesh: inside as the sign; hollow, the same point and
            // distance; solid from inside, the point itself at distance 0.
            const h = api.projectPoint(solid, ID, p, false);
            expect(h.inside).toBe(inside);
            expect(h.distance).toBe(Math.abs(sd));
            const so = api.projectPoint(solid, ID, p, true);
            expect(so.inside).toBe(inside);
            if (inside) {
              expect(so.distance).toBe(0);
              expect(so.point).toEqual(p);
            } else expect(so.distance).toBe(sd);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: far points (1e3..1e9 away) — outside, the exact nearest point in both, bit for bit", () => {
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.tuple(unit, unit, unit),
        fc.double({ min: 3, max: 9, noNaN: true }),
        (d, lf) => {
          const l = Math.hypot(d[0], d[1], d[2]);
          fc.pre(l > 0.1);
          const far = 10 ** lf;
          const q = d.map((x) => 1 + (x / l) * far);
          const batch = api.projectPoints(surface, ID, Float64Array.from(q));
          const ex = exactMeshProjection(vertices, indices, q);
          expect(batch.signedDistances[0]).toBeGreaterThan(0);
          expect([...batch.points.subarray(0, 3)]).toEqual(ex.point);
          const p = { x: q[0], y: q[1], z: q[2] };
          for (const m of [surface, solid]) {
            const r = api.projectPoint(m, ID, p);
            expect(r.inside).toBe(false);
            expect([r.point.x, r.point.y, r.point.z]).toEqual(ex.point);
            expect(r.distance).toBe(batch.signedDistances[0]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
