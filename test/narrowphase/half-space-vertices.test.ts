/**
 * Half-space against a triangle mesh and a heightfield, computed in the composite's frame
 * (src/narrowphase/half-space-vertices.ts, mesh-half-space.ts, half-space-heightfield.ts), far
 * from the origin and at every scale. Oracle: brute force over the mesh's triangles and the
 * field's cells (holes skipped), each corner's signed distance to the plane computed exactly in
 * rationals from the input doubles and rounded once (test/oracles/exact-plane.ts): a triangle's
 * lowest point along the normal is a corner, so the least corner gap is the pair's signed
 * distance.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { type Heightfield, makeHeightfield } from "../../src/shapes/heightfield.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { exactPlaneGaps, type PlainPose } from "../oracles/exact-plane.js";

type V = [number, number, number];
const IDENTITY: PlainPose = { t: [0, 0, 0], q: [0, 0, 0, 1] };
const toPose = (p: PlainPose): Isometry => ({
  translation: { x: p.t[0], y: p.t[1], z: p.t[2] },
  rotation: { x: p.q[0], y: p.q[1], z: p.q[2], w: p.q[3] },
});

/** Box mesh of half extents h (12 triangles, outward winding). */
function boxMesh(h: V): { vertices: V[]; indices: number[] } {
  const vertices: V[] = [];
  for (const x of [-h[0], h[0]])
    for (const y of [-h[1], h[1]]) for (const z of [-h[2], h[2]]) vertices.push([x, y, z]);
  const indices = [
    0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5,
    7, 1, 7, 3,
  ];
  return { vertices, indices };
}

/** The corners of every triangle of the field that is not a hole (the brute force's input). */
function fieldTriangles(
  rows: number,
  cols: number,
  heights: number[],
  s: V,
  holes: boolean[] | undefined,
): V[][] {
  const at = (r: number, c: number): V => [c * s[0], heights[r * cols + c] * s[1], r * s[2]];
  const tris: V[][] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      if (holes?.[r * (cols - 1) + c]) continue;
      tris.push([at(r, c), at(r + 1, c), at(r + 1, c + 1)]);
      tris.push([at(r, c), at(r + 1, c + 1), at(r, c + 1)]);
    }
  }
  return tris;
}

/** Exact least corner gap over the triangles (brute force) of a shape at `pm`. */
function truthGap(n: V, o: number, ph: PlainPose, tris: V[][], pm: PlainPose): number {
  let best = Infinity;
  for (const t of tris) best = Math.min(best, ...exactPlaneGaps(n, o, ph, t, pm));
  return best;
}

/** Exact gap of a world point. */
const worldGap = (n: V, o: number, ph: PlainPose, p: { x: number; y: number; z: number }) =>
  exactPlaneGaps(n, o, ph, [[p.x, p.y, p.z]], IDENTITY)[0];

/**
 * Every operation, both orders, against the truth `g` (exact least corner gap): contact and
 * distance within `tol`, intersects ⇔ g ≤ 0, manifold non-null ⇔ g ≤ 0 with its deepest point at
 * the contact's depth, witnesses on the plane and at the gap (within `tolW`, which adds the
 * rounding of the world coordinates).
 */
function checkAll(
  shape: Shape,
  pm: PlainPose,
  n: V,
  o: number,
  ph: PlainPose,
  g: number,
  tol: number,
  tolW: number,
): void {
  const plane = makeHalfSpace({ x: n[0], y: n[1], z: n[2] }, o);
  const PH = toPose(ph);
  const PM = toPose(pm);
  const c = contact(plane, PH, shape, PM, Infinity);
  const f = contact(shape, PM, plane, PH, Infinity);
  expect(c).not.toBeNull();
  expect(f).not.toBeNull();
  if (c === null || f === null) return;
  expect(Math.abs(c.distance - g)).toBeLessThanOrEqual(tol);
  expect(f.distance).toBe(c.distance);
  // (Compared as numbers: 0 and −0 are one normal.)
  expect([f.normal.x + c.normal.x, f.normal.y + c.normal.y, f.normal.z + c.normal.z]).toEqual([
    0, 0, 0,
  ]);
  expect(f.pointA).toEqual(c.pointB);
  expect(Math.abs(worldGap(n, o, ph, c.pointA))).toBeLessThanOrEqual(tolW);
  expect(Math.abs(worldGap(n, o, ph, c.pointB) - g)).toBeLessThanOrEqual(tolW);
  const d = distance(plane, PH, shape, PM);
  expect(Math.abs(d.distance - Math.max(0, g))).toBeLessThanOrEqual(tol);
  expect(distance(shape, PM, plane, PH).distance).toBe(d.distance);
  expect(intersects(plane, PH, shape, PM)).toBe(g <= 0);
  expect(intersects(shape, PM, plane, PH)).toBe(g <= 0);
  const m = manifold(plane, PH, shape, PM, 0);
  expect(m !== null).toBe(g <= 0);
  expect(manifold(shape, PM, plane, PH, 0) !== null).toBe(g <= 0);
  if (m !== null) {
    let deepest = Infinity;
    for (let k = 0; k < m.count; k++) deepest = Math.min(deepest, m.points[k].distance);
    expect(deepest).toBe(c.distance);
  }
}

const unit = (v: number[]): V => {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
};

describe("half-space × triangle mesh in the mesh's frame", () => {
  it("a unit box mesh at 1e9: the deepest corner's gap −0.95 exactly (was −0.9500007152557373)", () => {
    const { vertices, indices } = boxMesh([0.5, 0.5, 0.5]);
    const mesh = makeTriangleMesh(vertices.flat(), indices);
    const l = Math.hypot(1, 2, 3, 4);
    const pm: PlainPose = { t: [1e9, 2e9, -3e9], q: [1 / l, 2 / l, 3 / l, 4 / l] };
    const n: V = [0, 1, 0];
    const o = 2e9 + 0.25;
    const tris = [];
    for (let t = 0; t < indices.length; t += 3)
      tris.push([vertices[indices[t]], vertices[indices[t + 1]], vertices[indices[t + 2]]]);
    const g = truthGap(n, o, IDENTITY, tris, pm);
    expect(g).toBe(-0.95);
    const c = contact(makeHalfSpace({ x: 0, y: 1, z: 0 }, o), toPose(IDENTITY), mesh, toPose(pm));
    expect(c?.distance).toBe(-0.95);
    checkAll(mesh, pm, n, o, IDENTITY, g, 1e-15, 4 * 2 ** -52 * 3e9);
  });

  it("every operation matches the brute force over triangles, sizes 1e-6..1e6, offsets to 1e9 (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -6, max: 6 }),
        fc.constantFrom(0, 1e3, 1e6, 1e9),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 14, maxLength: 14 }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.boolean(),
        (e, T, r, cut, nearPlane) => {
          const S = 10 ** e;
          const { vertices, indices } = boxMesh([
            S * (0.2 + Math.abs(r[0])),
            S * (0.2 + Math.abs(r[1])),
            S * (0.2 + Math.abs(r[2])),
          ]);
          const mesh = makeTriangleMesh(vertices.flat(), indices);
          const l = Math.hypot(r[3], r[4], r[5], r[6] + 0.01);
          const pm: PlainPose = {
            t: [T * r[7], T * r[8], T * r[9]],
            q: [r[3] / l, r[4] / l, r[5] / l, (r[6] + 0.01) / l],
          };
          const n = unit([r[10], r[11], r[12] + 0.01]);
          // The half-space at the identity, or posed near the mesh and rotated.
          const ph: PlainPose = nearPlane
            ? { t: [pm.t[0] + S * r[13], pm.t[1], pm.t[2] - S], q: pm.q.slice().reverse() }
            : IDENTITY;
          const through = exactPlaneGaps(n, 0, ph, [[0, 0, 0]], pm)[0];
          const o = through + S * cut;
          const tris = [];
          for (let t = 0; t < indices.length; t += 3)
            tris.push([vertices[indices[t]], vertices[indices[t + 1]], vertices[indices[t + 2]]]);
          const g = truthGap(n, o, ph, tris, pm);
          checkAll(mesh, pm, n, o, ph, g, 1e-13 * S, 1e-13 * S + 8 * 2 ** -52 * (T + 2 * S));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("half-space × heightfield in the field's frame", () => {
  it("a field of 1e-6 at 1e9: depth 2.07e-6 (was 6.1e-7 through the composite mid-phase)", () => {
    const S = 1e-6;
    const heights = [0, 0.25, 0.5, 0.75, 0.5, 0.25, 1, 0, 0.125];
    const hf = makeHeightfield({ rows: 3, cols: 3, heights, scale: { x: S, y: S, z: S } });
    const l = Math.hypot(-2, 2, 0, -3);
    const pm: PlainPose = { t: [968278404, -144858754, -641075819], q: [-2 / l, 2 / l, 0, -3 / l] };
    const n = unit([0, 3, -1]);
    const o = 65300893.59357609;
    const g = truthGap(n, o, IDENTITY, fieldTriangles(3, 3, heights, [S, S, S], undefined), pm);
    expect(g).toBeCloseTo(-2.0720730946918794e-6, 20);
    checkAll(hf, pm, n, o, IDENTITY, g, 1e-13 * S, 1e-13 * S + 8 * 2 ** -52 * 1e9);
  });

  it("a tilted plane holding most of the field: the manifold is not null (was null, contact −1.36)", () => {
    const heights = [
      0, 0.13, 0.76, 0.46, 0.53, 0.22, 0.05, 0.68, 0.68, 0.93, 0.38, 0.52, 0.83, 0.03, 0.05, 0.53,
      0.67, 0.01, 0.38, 0.07,
    ];
    const s: V = [0.4, 0.5, 0.3];
    const hf = makeHeightfield({ rows: 4, cols: 5, heights, scale: { x: s[0], y: s[1], z: s[2] } });
    const n: V = [-0.8083416899397655, 0.5477145292686265, 0.2158529748077858];
    const o = 0.20939071966503284;
    const g = truthGap(n, o, IDENTITY, fieldTriangles(4, 5, heights, s, undefined), IDENTITY);
    expect(g).toBeCloseTo(-1.3595327754522706, 14);
    const m = manifold(
      makeHalfSpace({ x: n[0], y: n[1], z: n[2] }, o),
      toPose(IDENTITY),
      hf,
      toPose(IDENTITY),
    );
    expect(m).not.toBeNull();
    checkAll(hf, IDENTITY, n, o, IDENTITY, g, 1e-15, 1e-15);
  });

  it("every operation matches the brute force over cells, holes included, sizes 1e-6..1e6, offsets to 1e9 (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -6, max: 6 }),
        fc.constantFrom(0, 1e3, 1e6, 1e9),
        fc.integer({ min: 2, max: 20 }),
        fc.integer({ min: 2, max: 20 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 400, maxLength: 400 }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        (e, T, rows, cols, r, hs, cut, nearPlane, holeKind) => {
          const S = 10 ** e;
          const heights = hs.slice(0, rows * cols);
          const cells = (rows - 1) * (cols - 1);
          // Holes in a quarter of the runs: every third cell, never all of them.
          const holes =
            holeKind === 0 && cells > 1
              ? Array.from({ length: cells }, (_, i) => i % 3 === 1)
              : undefined;
          const s: V = [
            S * (0.2 + Math.abs(r[0])),
            S * (0.2 + Math.abs(r[1])),
            S * (0.2 + Math.abs(r[2])),
          ];
          const hf: Heightfield = makeHeightfield({
            rows,
            cols,
            heights,
            scale: { x: s[0], y: s[1], z: s[2] },
            holes,
          });
          const l = Math.hypot(r[3], r[4], r[5], r[6] + 0.01);
          const pm: PlainPose = {
            t: [T * r[7], T * r[8], T * r[9]],
            q: [r[3] / l, r[4] / l, r[5] / l, (r[6] + 0.01) / l],
          };
          const n = unit([r[10], r[11], r[11] * r[10] + 0.01]);
          const ph: PlainPose = nearPlane
            ? { t: [pm.t[0] + S * r[0], pm.t[1], pm.t[2] + S], q: pm.q.slice().reverse() }
            : IDENTITY;
          const mid: V = [((cols - 1) * s[0]) / 2, 0, ((rows - 1) * s[2]) / 2];
          const through = exactPlaneGaps(n, 0, ph, [mid], pm)[0];
          const o = through + S * cut;
          const g = truthGap(n, o, ph, fieldTriangles(rows, cols, heights, s, holes), pm);
          const size = S * Math.max(rows, cols) * 2;
          checkAll(hf, pm, n, o, ph, g, 1e-13 * size, 1e-13 * size + 8 * 2 ** -52 * (T + size));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a 70 × 65 field: the block-pruned search finds the brute force's deepest vertex", () => {
    const rows = 70;
    const cols = 65;
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const heights = Array.from({ length: rows * cols }, () => 3 * rnd());
    const s: V = [0.5, 1, 0.25];
    const hf = makeHeightfield({ rows, cols, heights, scale: { x: s[0], y: s[1], z: s[2] } });
    const verts: V[] = [];
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) verts.push([c * s[0], heights[r * cols + c] * s[1], r * s[2]]);
    for (let k = 0; k < 40; k++) {
      const n = unit([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]);
      const gaps = exactPlaneGaps(n, 0, IDENTITY, verts, IDENTITY);
      const lo = Math.min(...gaps);
      const hi = Math.max(...gaps);
      // Planes from below the lowest vertex to above the highest.
      const o = lo + (hi - lo) * (1.2 * rnd() - 0.1);
      const g = lo - o;
      const plane = makeHalfSpace({ x: n[0], y: n[1], z: n[2] }, o);
      const c = contact(plane, toPose(IDENTITY), hf, toPose(IDENTITY), Infinity);
      expect(Math.abs((c?.distance ?? Number.NaN) - g)).toBeLessThanOrEqual(1e-13);
      const m = manifold(plane, toPose(IDENTITY), hf, toPose(IDENTITY), 0);
      expect(m !== null).toBe(g <= 0);
    }
  });
});
