/**
 * Session 38 (fresh-user attack 01): `projectPoint` on a triangle mesh of long thin triangles
 * answered a wrong distance and point. A 0.01 × 0.01 × 10000 beam as a mesh gave 0.003736 for
 * 0.002723 from (0.0127, 0.0057, 8289.08): the closest-triangle walk ranked triangles with a
 * scalar copy of the closest-point arithmetic without its sliver branch, and the routine itself
 * (`closestPointOnTriangle`) mislaid the face point of a triangle above its 2^-20 sliver ratio
 * by about ε·(L/h)^4 of its length (1e-5 of L at L/h = 1e6). Now the walk ranks by the routine's
 * own body (`closestOnTriangleArray`), thin triangles (height under 2^-10 of the longest edge)
 * are projected along the exactly expanded normal, and the answer's triangle projection
 * (src/geometry/triangle-projection.ts) takes that path on the corners as given.
 *
 * Oracle: exact rationals (test/oracles/exact-hull-projection.ts `exactMeshProjection`: every
 * triangle's face region, edges and corners in BigInt, compared as fractions; none of the
 * library's closest-point code), and for the beams' `inside` the exact hull of their eight
 * corners. Bar: 1e-12·M, M the largest coordinate of the corners and the point (see BAR; the
 * documented bar, docs/FORMATS.md "Accuracy", is 1e-9·R above that).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import { projectPoint, projectPoints } from "../../src/query/project-point.js";
import { makeHeightfield, makeTriangleMesh } from "../../src/shapes/index.js";
import { unitQuatArrayOf } from "../fuzz/arbitraries.js";
import { exactHullProjection, exactMeshProjection } from "../oracles/exact-hull-projection.js";
import { rotateVec } from "../support/quat.js";

/**
 * The bar, relative to the largest coordinate M: a point within GJK_ROUNDING_TOLERANCE (1e-13)
 * of its own and its offset's coordinates from a triangle is answered as on it (distance 0,
 * src/geometry/triangle-projection.ts), up to 7e-13·M; the rest is a few ulps of M.
 */
const BAR = 1e-12;
const ID = iso.identity();

/** The beam's eight corners and twelve outward-wound triangles (x, y across, z along). */
const BEAM_INDICES = [
  [0, 1, 5],
  [0, 5, 4],
  [1, 2, 6],
  [1, 6, 5],
  [2, 3, 7],
  [2, 7, 6],
  [3, 0, 4],
  [3, 4, 7],
  [0, 2, 1],
  [0, 3, 2],
  [4, 5, 6],
  [4, 6, 7],
];
function beamCorners(w: number, l: number): number[][] {
  return [
    [0, 0, 0],
    [w, 0, 0],
    [w, w, 0],
    [0, w, 0],
    [0, 0, l],
    [w, 0, l],
    [w, w, l],
    [0, w, l],
  ];
}

function meshOf(vertices: number[][], indices: number[][], solid: boolean) {
  return makeTriangleMesh(
    Float64Array.from(vertices.flat()),
    Uint32Array.from(indices.flat()),
    "",
    {
      solid,
    },
  );
}

const vec = (p: number[]) => ({ x: p[0], y: p[1], z: p[2] });
const arr = (p: { x: number; y: number; z: number }) => [p.x, p.y, p.z];

describe("mesh projectPoint on long thin triangles (session 38)", () => {
  it("the 0.01 × 0.01 × 10000 beam: x − 0.01 to the foot on the face x = 0.01", () => {
    const p = [0.012723347775172443, 0.005730968243442476, 8289.080448448658];
    // Hand-derived: p is beyond the face x = 0.01 (0.0127 > 0.01) and within its y ∈ [0, 0.01]
    // and z ∈ [0, 10000]: the foot is (0.01, y, z), the distance x − 0.01 (that subtraction is
    // exact to 1 ulp of 0.0027).
    const want = p[0] - 0.01;
    for (const solid of [false, true]) {
      const mesh = meshOf(beamCorners(0.01, 10000), BEAM_INDICES, solid);
      for (const solidQuery of [false, true]) {
        const r = projectPoint(mesh, ID, vec(p), solidQuery);
        expect(r.inside).toBe(false);
        expect(Math.abs(r.distance - want)).toBeLessThan(1e-15);
        expect(Math.abs(r.point.x - 0.01)).toBeLessThan(1e-15);
        expect(Math.abs(r.point.y - p[1])).toBeLessThan(1e-15);
        expect(Math.abs(r.point.z - p[2])).toBeLessThan(1e-11);
      }
      const batch = projectPoints(mesh, ID, Float64Array.from(p));
      expect(Math.abs(batch.signedDistances[0] - want)).toBeLessThan(1e-15);
      expect(Math.abs(batch.points[1] - p[1])).toBeLessThan(1e-15);
    }
  });

  it("attack 01c: the terrain of four needles as a mesh answers as its heightfield and the exact oracle", () => {
    const vertices = [
      [0, -0.008, 0],
      [0.01, 0.02, 0],
      [0.02, -0.01, 0],
      [0, 0.016, 10000],
      [0.01, -0.012, 10000],
      [0.02, -0.014, 10000],
    ];
    const indices = [
      [0, 4, 1],
      [0, 3, 4],
      [1, 5, 2],
      [1, 4, 5],
    ];
    const p = [0.003, -0.008, 5479];
    const want = exactMeshProjection(vertices, indices, p);
    const mesh = projectPoint(meshOf(vertices, indices, false), ID, vec(p));
    const hf = projectPoint(
      makeHeightfield({
        rows: 2,
        cols: 3,
        heights: [-0.4, 1, -0.5, 0.8, -0.6, -0.7],
        scale: { x: 0.01, y: 0.02, z: 10000 },
      }),
      ID,
      vec(p),
    );
    const bar = BAR * 1e4;
    expect(Math.abs(want.distance - 0.0015974633511819)).toBeLessThan(1e-15);
    for (const r of [mesh, hf]) {
      expect(Math.abs(r.distance - want.distance)).toBeLessThan(bar);
      for (let k = 0; k < 3; k++)
        expect(Math.abs(arr(r.point)[k] - want.point[k])).toBeLessThan(bar);
    }
  });

  it("a 1.7e-6 × 1451 beam at 9.6e5 is not inside-out (the winding's sign from exact volumes)", () => {
    // The property's counterexample: the signed volume Σ a·((b − a) × (c − a)) came out negative
    // (its slivers' rounded cross products against |a| ≈ 1e6), every point near it "inside".
    const q = [-0.4507290030658746, -0.12913843333093783, -0.1350583592734595, -0.8728836522827285];
    const t = [0.003554994463235565, 0, 962892.7285870209];
    const l = 10 ** 3.1617333739995956;
    const w = l / 10 ** 8.941021727398038;
    const vertices = placed(beamCorners(w, l), q, t);
    const p = placed([[1.7537636067718267 * w, 1.9747058916836977 * w, 0.3865 * l]], q, t)[0];
    const hull = exactHullProjection(vertices, p);
    const exact = exactMeshProjection(vertices, BEAM_INDICES, p);
    expect(hull.inside).toBe(false);
    expect(exact.distance).toBeGreaterThan(1e-6);
    const mesh = meshOf(vertices, BEAM_INDICES, true);
    expect(mesh.pseudoNormals?.orientation).toBe(1);
    const r = projectPoint(mesh, ID, vec(p), true);
    expect(r.inside).toBe(false);
    expect(Math.abs(r.distance - exact.distance)).toBeLessThan(BAR * 1e6);
    // And a point on its axis is inside.
    const mid = placed([[w / 2, w / 2, l / 2]], q, t)[0];
    expect(exactHullProjection(vertices, mid).inside).toBe(true);
    expect(projectPoint(mesh, ID, vec(mid), false).inside).toBe(true);
  });
});

/**
 * A real in [min, max], unbiased (fast-check's doubles favour the ends and 0, which left every
 * beam axis-aligned with the point on a corner: the old code passed).
 */
function real(min: number, max: number): fc.Arbitrary<number> {
  return fc
    .noBias(fc.integer({ min: 0, max: 2 ** 30 }))
    .map((i) => min + ((max - min) * i) / 2 ** 30);
}

/** A random unit quaternion [x, y, z, w]. */
const quatArb = unitQuatArrayOf(real(-1, 1));

/** Corners rotated by q and moved by t, in doubles (the mesh and the oracle share them). */
function placed(corners: number[][], q: number[], t: number[]): number[][] {
  return corners.map((c) => {
    const r = rotateVec(q, c);
    return [r[0] + t[0], r[1] + t[1], r[2] + t[2]];
  });
}

/** One offset coordinate: 0 or ±10^k, k ∈ [-3, 6] (log-uniform: small offsets keep the bar tight). */
const offsetCoord = fc.oneof(
  fc.constant(0),
  fc.tuple(fc.boolean(), real(-3, 6)).map(([neg, k]) => (neg ? -1 : 1) * 10 ** k),
);
const offsetArb = fc.tuple(offsetCoord, offsetCoord, offsetCoord);
const unit = real(0, 1);

function magnitude(vertices: number[][], p: number[]): number {
  let m = Math.max(...p.map(Math.abs));
  for (const v of vertices) m = Math.max(m, ...v.map(Math.abs));
  return m;
}

/** The answer's point lies on the mesh and at its distance from p, both within the bar. */
function expectOnMeshAt(
  vertices: number[][],
  indices: number[][],
  p: number[],
  r: { point: { x: number; y: number; z: number }; distance: number },
  bar: number,
): void {
  const q = arr(r.point);
  expect(exactMeshProjection(vertices, indices, q).distance).toBeLessThanOrEqual(bar);
  expect(
    Math.abs(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) - r.distance),
  ).toBeLessThanOrEqual(bar);
}

describe("property: thin beams and needle meshes against exact rationals", () => {
  it("beams of aspect 1e3..1e9, rotated, offset to 1e6: distance, point and inside", () => {
    fc.assert(
      fc.property(
        real(3, 9),
        real(-2, 4),
        quatArb,
        offsetArb,
        fc.tuple(unit, unit, unit),
        fc.boolean(),
        (lgAspect, lgLength, q, t, [u, v, s], solid) => {
          const l = 10 ** lgLength;
          const w = l / 10 ** lgAspect;
          const vertices = placed(beamCorners(w, l), q, t);
          // Within three widths across and 10 % beyond the ends along.
          const p = placed([[(3 * u - 1) * w, (3 * v - 1) * w, (1.2 * s - 0.1) * l]], q, t)[0];
          const bar = BAR * magnitude(vertices, p);
          const exact = exactMeshProjection(vertices, BEAM_INDICES, p);
          const hull = exactHullProjection(vertices, p);
          const mesh = meshOf(vertices, BEAM_INDICES, solid);
          for (const solidQuery of [false, true]) {
            const r = projectPoint(mesh, ID, vec(p), solidQuery);
            // Where the point is off the surface by more than the bar, the exact hull decides
            // inside (the beam is convex up to its corners' rounding, far below the bar).
            const clear = exact.distance > bar;
            if (clear) expect(r.inside).toBe(solid && hull.inside);
            if (solid && solidQuery && r.inside) {
              expect(r.distance).toBe(0);
              continue;
            }
            expect(Math.abs(r.distance - exact.distance)).toBeLessThanOrEqual(bar);
            expectOnMeshAt(vertices, BEAM_INDICES, p, r, bar);
          }
          const batch = projectPoints(mesh, ID, Float64Array.from(p));
          expect(Math.abs(Math.abs(batch.signedDistances[0]) - exact.distance)).toBeLessThanOrEqual(
            bar,
          );
          if (exact.distance > bar) expect(batch.signedDistances[0] < 0).toBe(hull.inside);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("open meshes of needle and cap triangles (aspect 1e3..1e9), rotated, offset to 1e6", () => {
    // A needle has its third corner near an end of the long edge, a cap near its middle; a strip
    // of them shares edges like a mesh's.
    const triangleArb = fc.record({
      lgAspect: real(3, 9),
      along: real(-0.2, 1.2),
      tilt: real(-1, 1),
    });
    fc.assert(
      fc.property(
        fc.array(triangleArb, { minLength: 1, maxLength: 5 }),
        real(-2, 4),
        quatArb,
        offsetArb,
        fc.tuple(unit, unit, unit),
        (tris, lgLength, q, t, [u, v, s]) => {
          const l = 10 ** lgLength;
          const corners: number[][] = [];
          const indices: number[][] = [];
          let hMax = 0;
          tris.forEach((tri, i) => {
            const h = l / 10 ** tri.lgAspect;
            hMax = Math.max(hMax, h);
            // The long edge (0, y, 0) → (0, y, l) and a third corner h off it, tilted out of
            // the strip's plane by up to h.
            const y = i * h;
            corners.push([0, y, 0], [0, y, l], [tri.tilt * h, y + h, tri.along * l]);
            indices.push([3 * i, 3 * i + 1, 3 * i + 2]);
          });
          const vertices = placed(corners, q, t);
          const p = placed(
            [[(4 * u - 2) * hMax, (tris.length + 2) * (2 * v - 0.5) * hMax, (1.4 * s - 0.2) * l]],
            q,
            t,
          )[0];
          const bar = BAR * magnitude(vertices, p);
          const exact = exactMeshProjection(vertices, indices, p);
          const mesh = meshOf(vertices, indices, false);
          for (const solidQuery of [false, true]) {
            const r = projectPoint(mesh, ID, vec(p), solidQuery);
            expect(r.inside).toBe(false);
            expect(Math.abs(r.distance - exact.distance)).toBeLessThanOrEqual(bar);
            expectOnMeshAt(vertices, indices, p, r, bar);
          }
          const batch = projectPoints(mesh, ID, Float64Array.from(p));
          expect(Math.abs(batch.signedDistances[0] - exact.distance)).toBeLessThanOrEqual(bar);
        },
      ),
      { numRuns: 300 },
    );
  });
});
