/**
 * `projectPoint` far from compounds and heightfields, fresh-user findings of session 44:
 *
 * - 07: a compound of flat unit triangles or flat boxes placed by child poses (or given in world
 *   coordinates) at x, z ≈ 1e9, seen from 1e9..1e12 above, answered a point 5–7 off the foot —
 *   the first child met among those whose distances rounded alike — while the mesh of the same
 *   triangles answered the foot (docs/FORMATS.md: far ties "decided exactly: the least exact
 *   distance, then the lexicographically least point"). The tied children's triangles are now
 *   decided exactly.
 * - 04: a flat 1024 × 1024 heightfield seen from 1e9 above took seconds for one query (every
 *   triangle tied within the rounding reach); the answer was right. The candidates are now bound
 *   per cell; the answer is the same (not timed here: the numbers go in the session's report).
 *
 * Oracles: the foot of a point above a flat tiling (its x and z, distance D: every other point
 * of the plane is farther by (dx² + dz²)/(2D) > 0), test/oracles/exact-hull-projection.ts
 * `exactMeshProjection` (the exact nearest point of a set of triangles, rounded once), and the
 * mesh of the same triangles (test/support/field-mesh.ts for a field), whose far ties follow the
 * same rule.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { exactMeshProjection } from "../oracles/exact-hull-projection.js";
import { meshOfField } from "../support/field-mesh.js";
import { pose } from "../support/pose.js";
import { ulp } from "../support/ulp.js";

const ID = pose();
type V3 = [number, number, number];
const vec = (v: V3) => ({ x: v[0], y: v[1], z: v[2] });

/** The tiling of finding 07: n × n unit cells at (C + i, 0, C + j), as parts and as one mesh. */
function tiling(n: number, C: number) {
  const tris: { shape: api.ConvexShape; pose: api.Isometry }[] = [];
  const world: { shape: api.ConvexShape; pose: api.Isometry }[] = [];
  const boxes: { shape: api.ConvexShape; pose: api.Isometry }[] = [];
  const V: number[] = [];
  const T: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const at = pose(C + i, 0, C + j);
      tris.push({
        shape: api.makeTriangle(vec([0, 0, 0]), vec([1, 0, 0]), vec([0, 0, 1])),
        pose: at,
      });
      tris.push({
        shape: api.makeTriangle(vec([1, 0, 0]), vec([1, 0, 1]), vec([0, 0, 1])),
        pose: at,
      });
      boxes.push({
        shape: api.makeCuboid({ x: 0.5, y: 0, z: 0.5 }),
        pose: pose(C + i + 0.5, 0, C + j + 0.5),
      });
      const b = V.length / 3;
      V.push(C + i, 0, C + j, C + i + 1, 0, C + j, C + i, 0, C + j + 1, C + i + 1, 0, C + j + 1);
      T.push(b, b + 1, b + 2, b + 1, b + 3, b + 2);
      const c = (k: number) => vec([V[3 * (b + k)], V[3 * (b + k) + 1], V[3 * (b + k) + 2]]);
      world.push({ shape: api.makeTriangle(c(0), c(1), c(2)), pose: ID });
      world.push({ shape: api.makeTriangle(c(1), c(3), c(2)), pose: ID });
    }
  }
  return {
    triangles: api.makeCompound(tris),
    world: api.makeCompound(world),
    boxes: api.makeCompound(boxes),
    mesh: api.makeTriangleMesh(V, T),
  };
}

describe("projectPoint on a compound tied from far (fresh 44/07)", () => {
  it("the reported 10 × 10 tiling at 1e9 seen from 1e6, 1e9, 1e12 above: the foot, at distance D", () => {
    const C = 1e9;
    const t = tiling(10, C);
    for (const D of [1e6, 1e9, 1e12]) {
      const q = { x: C + 5.3, y: D, z: C + 5.7 };
      for (const [name, s] of Object.entries(t)) {
        const r = api.projectPoint(s, ID, q);
        expect(r.point, `${name} from ${D}`).toEqual({ x: q.x, y: 0, z: q.z });
        expect(r.distance, `${name} from ${D}`).toBe(D);
        expect(r.inside).toBe(false);
      }
    }
  });

  it("property: tilings of triangles (posed or in world coordinates) and flat boxes at 1e3..1e12 seen from 1e2..1e12 away: the mesh's answer and the exact one (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 25, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
        fc.integer({ min: 3, max: 12 }),
        fc.tuple(fc.integer({ min: -16, max: 48 }), fc.integer({ min: -16, max: 48 })),
        fc.double({ min: 2, max: 12, noNaN: true }),
        fc.constantFrom<V3>([0, 1, 0], [0.5, 1, -0.25], [-1, 0.125, 0.5], [0, -1, 0]),
        (rows, cols, hs, posed, e, [qx, qz], d, dir) => {
          const C = 10 ** e;
          // Vertex (r, c) at (C + c, h/4, C + r): a terrain of unit cells split along a diagonal.
          const vert = (r: number, c: number): V3 => [C + c, hs[r * 5 + c] / 4, C + r];
          const parts: { shape: api.ConvexShape; pose: api.Isometry }[] = [];
          const V: V3[] = [];
          const F: V3[] = [];
          const boxParts: { shape: api.ConvexShape; pose: api.Isometry }[] = [];
          const BV: V3[] = [];
          const BF: V3[] = [];
          let k = 0;
          for (let r = 0; r < rows; r++) {
            for (let c = 0; c < cols; c++) {
              for (const tri of [
                [vert(r, c), vert(r + 1, c), vert(r + 1, c + 1)],
                [vert(r, c), vert(r + 1, c + 1), vert(r, c + 1)],
              ] as V3[][]) {
                const b = V.length;
                V.push(...tri);
                F.push([b, b + 1, b + 2]);
                // Posed: corners relative to the cell's corner (exact: C + small integers).
                const o: V3 = [C + c, 0, C + r];
                const rel = (v: V3) => vec([v[0] - o[0], v[1], v[2] - o[2]]);
                parts.push(
                  posed[k++ % 32]
                    ? {
                        shape: api.makeTriangle(rel(tri[0]), rel(tri[1]), rel(tri[2])),
                        pose: pose(o[0], o[1], o[2]),
                      }
                    : { shape: api.makeTriangle(vec(tri[0]), vec(tri[1]), vec(tri[2])), pose: ID },
                );
              }
              // A flat box over the cell at the height of its first corner.
              const y = hs[r * 5 + c] / 4;
              boxParts.push({
                shape: api.makeCuboid({ x: 0.5, y: 0, z: 0.5 }),
                pose: pose(C + c + 0.5, y, C + r + 0.5),
              });
              const b = BV.length;
              BV.push([C + c, y, C + r], [C + c + 1, y, C + r], [C + c, y, C + r + 1]);
              BV.push([C + c + 1, y, C + r + 1]);
              BF.push([b, b + 1, b + 3], [b, b + 3, b + 2]);
            }
          }
          const D = 10 ** d;
          const p = vec([C + qx / 8 + dir[0] * D, dir[1] * D, C + qz / 8 + dir[2] * D]);
          for (const [ps, vs, fs] of [
            [parts, V, F],
            [boxParts, BV, BF],
          ] as const) {
            const got = api.projectPoint(api.makeCompound(ps), ID, p);
            const mesh = api.makeTriangleMesh(vs.flat(), fs.flat());
            const m = api.projectPoint(mesh, ID, p);
            expect(got.point).toEqual(m.point);
            expect(got.distance).toBe(m.distance);
            expect(got.inside).toBe(false);
            const ex = exactMeshProjection(vs, fs, [p.x, p.y, p.z]);
            const g = [got.point.x, got.point.y, got.point.z];
            for (let i = 0; i < 3; i++)
              expect(Math.abs(g[i] - ex.point[i])).toBeLessThanOrEqual(ulp(ex.point[i]));
            expect(Math.abs(got.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
          }
        },
      ),
      { numRuns: 80, seed: 4407 },
    );
  });
});

describe("projectPoint on a heightfield from far (fresh 44/04)", () => {
  it("the reported flat 1024 × 1024 terrain from 1e6 and 1e9 above: the foot (100.3, 0, 100.7), distance D", () => {
    const n = 1024;
    const hf = api.makeHeightfield({
      rows: n,
      cols: n,
      heights: new Float64Array(n * n),
      scale: { x: 1, y: 1, z: 1 },
    });
    for (const D of [1e6, 1e9]) {
      const r = api.projectPoint(hf, ID, { x: 100.3, y: D, z: 100.7 });
      expect(r.point).toEqual({ x: 100.3, y: 0, z: 100.7 });
      expect(r.distance).toBe(D);
    }
  });

  it("a 1024 × 1024 plane sloping (c + r)/4 seen along its normal from 2^8..2^30 (the tree walk, the cell pass, the far pass): the foot (100, 50, 100), distance D·√1.125", () => {
    for (const n of [1024, 300]) {
      const h = new Float64Array(n * n);
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) h[r * n + c] = (c + r) / 4;
      const hf = api.makeHeightfield({ rows: n, cols: n, heights: h, scale: { x: 1, y: 1, z: 1 } });
      for (const D of [2 ** 8, 3072, 2 ** 20, 2 ** 30]) {
        // q = foot + D·(−1/4, 1, −1/4), exact; the plane's normal, so the foot is the nearest.
        const q = { x: 100 - D / 4, y: 50 + D, z: 100 - D / 4 };
        const got = api.projectPoint(hf, ID, q);
        expect(got.point, `${n} from ${D}`).toEqual({ x: 100, y: 50, z: 100 });
        const ex = D * Math.sqrt(1.125);
        expect(Math.abs(got.distance - ex)).toBeLessThanOrEqual(2 * ulp(ex));
      }
    }
  });

  it("property: fields seen from far (beyond 4 sizes) in any direction — above, beside, along a slope's normal: the mesh's answer and the exact one (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 2, max: 8 }),
        fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 64, maxLength: 64 }),
        fc.constantFrom(0, 1, 2),
        fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 })),
        fc.constantFrom(0.5, 1, 2),
        fc.tuple(fc.integer({ min: -64, max: 600 }), fc.integer({ min: -64, max: 600 })),
        fc.double({ min: 2, max: 12, noNaN: true }),
        fc.constantFrom<V3>([0, 1, 0], [0.25, 1, -0.5], [1, 0, 0.5], [0, -1, 0], [-1, 0.5, 0]),
        (rows, cols, hs, kind, [a, b], sx, [qx, qz], d, dir) => {
          // kind 0: integer heights/4; 1: a plane of slopes a/4, b/4; 2: flat.
          const h: number[] = [];
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < cols; c++)
              h.push(kind === 0 ? hs[r * 8 + c] / 4 : kind === 1 ? (a * c + b * r) / 4 : 0);
          const s = { x: sx, y: 1, z: 1 };
          const hf = api.makeHeightfield({ rows, cols, heights: h, scale: s });
          const mesh = meshOfField(rows, cols, h, s);
          const D = 10 ** d;
          // Along the plane's normal (−a/(4·sx), 1, −b/4) for a slope, else `dir`.
          const n: V3 = kind === 1 && dir[1] === 1 ? [-a / (4 * sx), 1, -b / 4] : dir;
          const p = vec([qx / 64 + n[0] * D, n[1] * D, qz / 64 + n[2] * D]);
          const gh = api.projectPoint(hf, ID, p);
          const gm = api.projectPoint(mesh, ID, p);
          expect(gh.point).toEqual(gm.point);
          expect(gh.distance).toBe(gm.distance);
          const v: V3[] = [];
          for (let i = 0; i < mesh.vertices.length; i += 3)
            v.push([mesh.vertices[i], mesh.vertices[i + 1], mesh.vertices[i + 2]]);
          const f: V3[] = [];
          for (let i = 0; i < mesh.indices.length; i += 3)
            f.push([mesh.indices[i], mesh.indices[i + 1], mesh.indices[i + 2]]);
          const ex = exactMeshProjection(v, f, [p.x, p.y, p.z]);
          const g = [gh.point.x, gh.point.y, gh.point.z];
          for (let k = 0; k < 3; k++)
            expect(Math.abs(g[k] - ex.point[k])).toBeLessThanOrEqual(ulp(ex.point[k]));
          expect(Math.abs(gh.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
        },
      ),
      { numRuns: 100, seed: 4404 },
    );
  });

  it("property: fields with holes seen from near and far: the exact distance (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 7 }),
        fc.integer({ min: 2, max: 7 }),
        fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 49, maxLength: 49 }),
        fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }),
        fc.tuple(
          fc.integer({ min: -64, max: 512 }),
          fc.integer({ min: -512, max: 512 }),
          fc.integer({ min: -64, max: 512 }),
        ),
        fc.double({ min: -1, max: 10, noNaN: true }),
        (rows, cols, hs, holesIn, [qx, qy, qz], d) => {
          const h = hs.slice(0, rows * cols).map((x) => x / 4);
          const holes = holesIn.slice(0, (rows - 1) * (cols - 1));
          holes[0] = false;
          const s = { x: 1, y: 1, z: 1 };
          const hf = api.makeHeightfield({ rows, cols, heights: h, scale: s, holes });
          const k = 10 ** d / 64;
          const p = { x: (qx / 64) * Math.max(1, k), y: qy * k, z: (qz / 64) * Math.max(1, k) };
          const v: V3[] = [];
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < cols; c++) v.push([c, h[r * cols + c], r]);
          const f: V3[] = [];
          for (let r = 0; r + 1 < rows; r++) {
            for (let c = 0; c + 1 < cols; c++) {
              if (holes[r * (cols - 1) + c]) continue;
              const v00 = r * cols + c;
              f.push([v00, v00 + cols, v00 + cols + 1], [v00, v00 + cols + 1, v00 + 1]);
            }
          }
          const gh = api.projectPoint(hf, ID, p);
          const ex = exactMeshProjection(v, f, [p.x, p.y, p.z]);
          const bar = 1e-9 * 8 + 256 * Number.EPSILON * 8 + 4 * ulp(2 * (8 + ex.distance));
          expect(Math.abs(gh.distance - ex.distance)).toBeLessThanOrEqual(bar);
          if (ex.distance > 64)
            expect(Math.abs(gh.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
        },
      ),
      { numRuns: 120, seed: 4405 },
    );
  });
});
