/**
 * `projectPoint` / `projectPoints` on shapes given by coordinates far from their frame's origin
 * (world coordinates, identity pose), fresh-user findings of session 43:
 *
 * - 07: a triangle, a capsule (also inside a compound) or a mesh with vertices near 1e12–1e13
 *   called a point 0.08–0.75 outside it inside (distance 0): the "on it" tolerance was a fraction
 *   (1e-13) of the point's own coordinates. Such shapes are now answered in the frame at their
 *   power-of-two grid centre (src/geometry/far-centre.ts), as the same shape placed by a pose.
 * - 04: a heightfield seen from far above answered the first of its triangles tied to rounding
 *   ((96, 0, 91) from 1e9 instead of the foot (100.3, 0, 100.7)); its ties are now decided exactly
 *   as a mesh's.
 * - 03: the mesh's far tie-breaking was quadratic in the tied count (16 s for 80,000 triangles).
 *
 * Oracle: test/oracles/exact-hull-projection.ts `exactMeshProjection`, the exact nearest point of
 * a set of triangles (exact fractions, rounded once); a capsule's core as the degenerate triangle
 * (a, b, b). Every input is an exact double (local coordinates on a grid whose step the offset's
 * ulp divides), so the world shape is exactly the local shape moved by the offset. The bar is
 * docs/FORMATS.md's for projectPoint: 1e-9·R + 256·ε·R + 4u (R the shape's size, u an ulp of
 * the answer's world coordinates).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { exactMeshProjection } from "../oracles/exact-hull-projection.js";
import { farPlacement, gridStep, meshTriangles, onGrid, type V3 } from "../support/far-grid.js";
import { meshOfField } from "../support/field-mesh.js";
import { pose } from "../support/pose.js";
import { ulp } from "../support/ulp.js";

const ID = pose();
const vec = (v: V3) => ({ x: v[0], y: v[1], z: v[2] });

/** The bar of FORMATS.md for a shape of size r whose answer lies near world magnitude s. */
function bar(r: number, s: number): number {
  return 1e-9 * r + 256 * Number.EPSILON * r + 4 * ulp(2 * s);
}

// Local coordinates on the grid of the offset's step (test/support/far-grid.ts, gridStep): the
// shapes as small as exactness allows (about 1 up to 1e13), so the old tolerance of 1e-13 of the
// coordinates (1 at 1e13) was most of their size.
const coord = fc.integer({ min: -256, max: 256 });
const local = fc.tuple(coord, coord, coord);
const offset = fc.tuple(
  fc.double({ min: 6, max: 15, noNaN: true }),
  fc.constantFrom(-1, 1),
  fc.constantFrom(-1, 1),
  fc.constantFrom(-1, 1),
);

function expectNear(
  got: api.PointProjection,
  ex: { point: readonly number[]; distance: number },
  r: number,
  s: number,
): void {
  const b = bar(r, s);
  expect(Math.abs(got.distance - ex.distance), "distance").toBeLessThanOrEqual(b);
  expect(Math.abs(got.point.x - ex.point[0]), "x").toBeLessThanOrEqual(b);
  expect(Math.abs(got.point.y - ex.point[1]), "y").toBeLessThanOrEqual(b);
  expect(Math.abs(got.point.z - ex.point[2]), "z").toBeLessThanOrEqual(b);
}

/** The capsule's exact answer: its core's exact nearest point moved by the radius toward p. */
function capsuleOracle(a: V3, b: V3, radius: number, p: V3) {
  const core = exactMeshProjection([a, b, b], [[0, 1, 2]], p);
  const d = core.distance;
  const u = p.map((x, i) => (x - core.point[i]) / d);
  return {
    inside: d <= radius,
    distance: d - radius,
    point: core.point.map((x, i) => x + radius * u[i]),
  };
}

describe("projectPoint on shapes given in far world coordinates (fresh 43/07)", () => {
  it("the reported triangle at 1e12 and capsule at 1e13: outside, at the exact distance", () => {
    const o: V3 = [1e12, -5e11, 2.5e11];
    const add = (v: V3): V3 => [v[0] + o[0], v[1] + o[1], v[2] + o[2]];
    const tri: V3[] = [
      [0.87890625, -0.39453125, 0.8671875],
      [-0.1015625, 0.04296875, 0.26171875],
      [0.48046875, -0.484375, -0.078125],
    ].map((v) => add(v as V3));
    const p = add([0.642578125, -0.3955078125, 0.17578125]);
    const got = api.projectPoint(
      api.makeTriangle(vec(tri[0]), vec(tri[1]), vec(tri[2])),
      ID,
      vec(p),
    );
    const ex = exactMeshProjection(tri, [[0, 1, 2]], p);
    expect(ex.distance).toBeCloseTo(0.0806144414541, 12);
    expect(got.inside).toBe(false);
    expectNear(got, ex, 2, 1e12);

    const o2: V3 = [1e13, -5e12, 2.5e12];
    const add2 = (v: V3): V3 => [v[0] + o2[0], v[1] + o2[1], v[2] + o2[2]];
    const a = add2([0.5, 0.25, -0.125]);
    const b = add2([-0.5, 0.75, 0.375]);
    const q = add2([0.25, -0.5, 0.5]);
    const cap = api.makeCapsule(vec(a), vec(b), 0.25);
    const c = api.projectPoint(cap, ID, vec(q));
    expect(c.inside).toBe(false);
    expect(Math.abs(c.distance - 0.7460860906568267)).toBeLessThanOrEqual(bar(2, 1e13));
    // Inside a compound (the part at the identity) too.
    const comp = api.makeCompound([{ shape: cap, pose: ID }]);
    const cc = api.projectPoint(comp, ID, vec(q));
    expect(cc.inside).toBe(false);
    expect(Math.abs(cc.distance - 0.7460860906568267)).toBeLessThanOrEqual(bar(2, 1e13));
  });

  it("property: triangles, capsules, a tetrahedron surface mesh and a compound at 1e6..1e15 in world coordinates: the exact answer (fast-check)", () => {
    fc.assert(
      fc.property(
        offset,
        fc.tuple(local, local, local, local),
        local,
        fc.integer({ min: 1, max: 64 }),
        (off, [la, lb, lc, ld], lp, rk) => {
          const pl = farPlacement(off);
          const a = onGrid(pl, la);
          const b = onGrid(pl, lb);
          const c = onGrid(pl, lc);
          const d = onGrid(pl, ld);
          const p = onGrid(pl, lp);
          const r = 512 * pl.k;
          // Triangle (a degenerate one is a segment or a point: the oracle takes it too).
          const tri = api.projectPoint(api.makeTriangle(vec(a), vec(b), vec(c)), ID, vec(p));
          const exT = exactMeshProjection([a, b, c], [[0, 1, 2]], p);
          expect(tri.inside).toBe(exT.distance === 0);
          expectNear(tri, exT, r, pl.s);
          // Capsule.
          const radius = rk * pl.k;
          const cap = api.makeCapsule(vec(a), vec(b), radius);
          const exC = capsuleOracle(a, b, radius, p);
          const gotC = api.projectPoint(cap, ID, vec(p));
          expect(gotC.inside).toBe(exC.inside);
          if (!exC.inside) expectNear(gotC, exC, r, pl.s);
          // Surface mesh of the tetrahedron abcd (its triangles).
          const faces: V3[] = [
            [0, 1, 2],
            [0, 2, 3],
            [0, 3, 1],
            [1, 3, 2],
          ];
          const verts = [a, b, c, d];
          const mesh = api.makeTriangleMesh(
            new Float64Array(verts.flat()),
            new Uint32Array(faces.flat()),
          );
          const exM = exactMeshProjection(verts, faces, p);
          const gotM = api.projectPoint(mesh, ID, vec(p));
          expectNear(gotM, exM, r, pl.s);
          const batch = api.projectPoints(mesh, ID, new Float64Array(p));
          // Signed (the tetrahedron is closed): its magnitude is the distance.
          expect(Math.abs(Math.abs(batch.signedDistances[0]) - exM.distance)).toBeLessThanOrEqual(
            bar(r, pl.s),
          );
          for (let i = 0; i < 3; i++)
            expect(Math.abs(batch.points[i] - exM.point[i])).toBeLessThanOrEqual(bar(r, pl.s));
          // A compound of the capsule and the triangle, parts at the identity: the nearer.
          const comp = api.makeCompound([
            { shape: cap, pose: ID },
            { shape: api.makeTriangle(vec(c), vec(d), vec(a)), pose: ID },
          ]);
          const exT2 = exactMeshProjection([c, d, a], [[0, 1, 2]], p);
          const gotK = api.projectPoint(comp, ID, vec(p));
          if (exC.inside || exT2.distance === 0) expect(gotK.inside).toBe(true);
          else {
            expect(gotK.inside).toBe(false);
            const ex = exC.distance <= exT2.distance ? exC : exT2;
            expect(Math.abs(gotK.distance - ex.distance)).toBeLessThanOrEqual(bar(r, pl.s));
          }
        },
      ),
      { numRuns: 150, seed: 43 },
    );
  });
});

describe("projectPoint on a heightfield from far: as the mesh of its triangles (fresh 43/04)", () => {
  it("the reported flat 201 × 201 terrain from 1e7..1e9 above: the foot (100.3, 0, 100.7)", () => {
    const n = 201;
    const hf = api.makeHeightfield({
      rows: n,
      cols: n,
      heights: new Float64Array(n * n),
      scale: { x: 1, y: 1, z: 1 },
    });
    for (const h of [1e7, 1e8, 1e9]) {
      const got = api.projectPoint(hf, ID, { x: 100.3, y: h, z: 100.7 });
      expect(got.point).toEqual({ x: 100.3, y: 0, z: 100.7 });
      expect(got.distance).toBe(h);
    }
  });

  it("property: small fields (heights on a grid) seen from 1e3..1e12 sizes above: the same point and distance as the mesh, and the exact answer (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 25, maxLength: 25 }),
        fc.tuple(fc.integer({ min: -64, max: 320 }), fc.integer({ min: -64, max: 320 })),
        fc.double({ min: 3, max: 12, noNaN: true }),
        (rows, cols, hs, [qx, qz], e) => {
          const h = hs.slice(0, rows * cols).map((x) => x / 4);
          const s = { x: 1, y: 1, z: 1 };
          const hf = api.makeHeightfield({ rows, cols, heights: h, scale: s });
          const mesh = meshOfField(rows, cols, h, s);
          const p = { x: qx / 64, y: 10 ** e, z: qz / 64 };
          const gh = api.projectPoint(hf, ID, p);
          const gm = api.projectPoint(mesh, ID, p);
          expect(gh.point).toEqual(gm.point);
          expect(gh.distance).toBe(gm.distance);
          const { vertices: v, faces: f } = meshTriangles(mesh);
          const ex = exactMeshProjection(v, f, [p.x, p.y, p.z]);
          for (let k = 0; k < 3; k++)
            expect(
              Math.abs([gh.point.x, gh.point.y, gh.point.z][k] - ex.point[k]),
            ).toBeLessThanOrEqual(ulp(ex.point[k]));
          expect(Math.abs(gh.distance - ex.distance)).toBeLessThanOrEqual(2 * ulp(ex.distance));
        },
      ),
      { numRuns: 60, seed: 4304 },
    );
  });
});

describe("projectPoint on a heightfield whose heights are far from its origin", () => {
  it("property: heights near 1e10..1e14 (identity pose): the exact nearest point of its triangles (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -512, max: 512 }), { minLength: 9, maxLength: 9 }),
        fc.tuple(
          fc.integer({ min: 0, max: 512 }),
          fc.integer({ min: -1024, max: 1024 }),
          fc.integer({ min: 0, max: 512 }),
        ),
        fc.integer({ min: 10, max: 14 }),
        (hs, [qx, qy, qz], e) => {
          const big = 10 ** e;
          const k = gridStep(big);
          const local = hs.map((h) => h * k);
          const far = local.map((h) => big + h);
          const s = { x: 1, y: 1, z: 1 };
          const p = { x: qx / 256, y: big + qy * k, z: qz / 256 };
          const w = api.projectPoint(
            api.makeHeightfield({ rows: 3, cols: 3, heights: far, scale: s }),
            ID,
            p,
          );
          const mesh = meshOfField(3, 3, far, s);
          const { vertices: v, faces: f } = meshTriangles(mesh);
          const ex = exactMeshProjection(v, f, [p.x, p.y, p.z]);
          expect(w.inside).toBe(ex.distance === 0);
          expectNear(w, ex, 2 + 1024 * k, big);
        },
      ),
      { numRuns: 80, seed: 4307 },
    );
  });
});

describe("projectPoint / projectPoints on a large flat mesh from far: near-linear (fresh 43/03)", () => {
  it("an 80,000-triangle flat grid from 1e8 and 1e9 above: the foot, well under 4 s per query (was 16 s)", () => {
    const n = 200;
    const v: number[] = [];
    for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) v.push(i, 0, j);
    const idx: number[] = [];
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const a = i * (n + 1) + j;
        idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
      }
    const mesh = api.makeTriangleMesh(new Float64Array(v), new Uint32Array(idx));
    for (const h of [1e8, 1e9]) {
      const t0 = performance.now();
      const r = api.projectPoint(mesh, ID, { x: 100.3, y: h, z: 100.7 });
      const t1 = performance.now();
      const b = api.projectPoints(mesh, ID, new Float64Array([100.3, h, 100.7, 37.25, h, 150.5]));
      const t2 = performance.now();
      expect(r.point).toEqual({ x: 100.3, y: 0, z: 100.7 });
      expect(r.distance).toBe(h);
      expect([...b.points]).toEqual([100.3, 0, 100.7, 37.25, 0, 150.5]);
      expect([...b.signedDistances]).toEqual([h, h]);
      // Generous for a loaded 2-core machine (about 0.1–0.5 s here; quadratic was 16 s).
      expect(t1 - t0).toBeLessThan(4000);
      expect(t2 - t1).toBeLessThan(8000);
    }
  });
});
