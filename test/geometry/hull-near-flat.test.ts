// Nearly flat and nearly collinear point sets just above the flatness threshold: every input
// point must stay inside or on the hull within the bar HULL_FLAT_FACTOR × hullTolerance (4 ×
// (1e-10 × extent + 8ε × max|x|): relative to the set's size, plus the coordinates' own rounding).
// Oracles: the hull's face planes, collide's projectPoint, and a brute-force support-function gap
// (max over directions of the input's support minus the hull vertices' support).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HULL_FLAT_FACTOR } from "../../src/constants.js";
import { CollideError } from "../../src/errors.js";
import { computeConvexHull, hullTolerance, validateConvexHull } from "../../src/geometry/hull.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import { intersects } from "../../src/query/intersects.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeSphere } from "../../src/shapes/index.js";

type M3 = [number[], number[], number[]];

/** Rotation matrix of the quaternion (x, y, z, w), normalised. */
function rotation(x: number, y: number, z: number, w: number): M3 {
  const l = Math.hypot(x, y, z, w);
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** Worst distance of an input point outside a face plane of the hull. */
/**
 * n points drawn uniformly in the slab [-1, 1] × [-w, w] × [-t, t], rotated by R, scaled by
 * `size` and moved by `o` when given (flat coordinates as a list x0, y0, z0, x1, …).
 */
function slabPoints(
  rand: () => number,
  n: number,
  w: number,
  t: number,
  size: number,
  R: M3,
  o?: number[],
): number[] {
  const points: number[] = [];
  for (let k = 0; k < n; k++) {
    const l = [2 * rand() - 1, (2 * rand() - 1) * w, (2 * rand() - 1) * t];
    for (let j = 0; j < 3; j++) {
      const v = size * (R[j][0] * l[0] + R[j][1] * l[1] + R[j][2] * l[2]);
      points.push(o ? v + o[j] : v);
    }
  }
  return points;
}

function planeExcess(points: number[], hull: ReturnType<typeof computeConvexHull>): number {
  const { faceNormals: n, facePlaneOffsets: d } = hull;
  let worst = 0;
  for (let i = 0; i < points.length; i += 3) {
    for (let f = 0; f < d.length; f++) {
      const s = n[3 * f] * points[i] + n[3 * f + 1] * points[i + 1] + n[3 * f + 2] * points[i + 2];
      worst = Math.max(worst, s - d[f]);
    }
  }
  return worst;
}

/**
 * Brute-force lower bound of how far the input sticks out of the hull of the returned vertices:
 * max over directions d of (max p·d over the input − max v·d over the vertices), the directions
 * spread from along the set's long axis to nearly perpendicular to it (local axes rotated by R).
 */
function supportGap(points: number[], vertices: Float64Array, R: M3, rand: () => number): number {
  let worst = 0;
  for (let k = 0; k < 400; k++) {
    const e = 10 ** (-12 * rand());
    const l = [(2 * rand() - 1) * e, 2 * rand() - 1, 2 * rand() - 1];
    const d = R.map((row) => row[0] * l[0] + row[1] * l[1] + row[2] * l[2]);
    const len = Math.hypot(d[0], d[1], d[2]);
    let mp = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < points.length; i += 3) {
      mp = Math.max(mp, (d[0] * points[i] + d[1] * points[i + 1] + d[2] * points[i + 2]) / len);
    }
    let mv = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < vertices.length; i += 3) {
      mv = Math.max(
        mv,
        (d[0] * vertices[i] + d[1] * vertices[i + 1] + d[2] * vertices[i + 2]) / len,
      );
    }
    worst = Math.max(worst, mp - mv);
  }
  return worst;
}

const I = iso.identity();

describe("nearly flat convex keeps its footprint corners (attack26 F2)", () => {
  const pts = [
    [0.441, -0.21, 1.68e-9],
    [0.419, -0.318, 1.42e-9],
    [-0.49, -1.03, -1.54e-9],
    [-1.95, 1.85, 5.63e-10],
    [0.297, -1.9, 2.86e-10],
  ];

  it("the corner (0.441, −0.21) is a hull vertex: a sphere on it intersects, projection 0", () => {
    // (0.441, −0.21) lies 0.0945 outside the edge (−1.95, 1.85)–(0.297, −1.9) in xy: a corner of
    // the footprint, so a vertex of the exact hull (the z spread, ±1.7e-9, is above the flat bar).
    const hull = computeConvexHull(pts.flat(), { allowFlat: true });
    expect(validateConvexHull(pts.flat(), hull)).toEqual([]);
    expect(hull.vertices.length / 3).toBe(5);
    const shape = makeConvexPolyhedron(pts.flat());
    const ball = makeSphere(0.05);
    expect(intersects(shape, I, ball, iso.create({ x: 0.441, y: -0.21, z: 0 }))).toBe(true);
    const r = projectPoint(shape, I, { x: 0.441, y: -0.21, z: 1.68e-9 });
    expect(r.distance).toBe(0);
  });

  it("fast-check: near-flat sets (thickness 1e-12..1e-6, sizes 1e-6..1e6, offsets to 1e9, rotated) stay within the bar", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 30 }),
        fc.double({ min: -12, max: -6, noNaN: true }),
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.double({ min: -3, max: 9, noNaN: true }),
        fc.boolean(),
        (seed, n, logThickness, logSize, logOffset, centred) => {
          const rand = makeRandom(seed);
          const t = 10 ** logThickness;
          const size = 10 ** logSize;
          const off = centred ? 0 : 10 ** logOffset * size;
          const R = rotation(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5);
          const o = [0, 1, 2].map(() => (2 * rand() - 1) * off);
          const points = slabPoints(rand, n, 1, t, size, R, o);
          const bar = HULL_FLAT_FACTOR * hullTolerance(points);
          let hull: ReturnType<typeof computeConvexHull>;
          try {
            hull = computeConvexHull(points, { allowFlat: true });
          } catch (e) {
            // Only refused when the coordinates' rounding swamps the set (far off the origin).
            expect(e).toBeInstanceOf(CollideError);
            expect(off / size).toBeGreaterThan(1e9);
            return;
          }
          expect(planeExcess(points, hull)).toBeLessThanOrEqual(bar);
          expect(supportGap(points, hull.vertices, R, rand)).toBeLessThanOrEqual(bar);
          expect(validateConvexHull(points, hull)).toEqual([]);
          const shape = makeConvexPolyhedron(points);
          for (let i = 0; i < points.length; i += 3) {
            const q = { x: points[i], y: points[i + 1], z: points[i + 2] };
            expect(projectPoint(shape, I, q).distance).toBeLessThanOrEqual(bar);
          }
        },
      ),
      { numRuns: 400, seed: 26 },
    );
  });

  it("fast-check: needles and nearly collinear ribbons keep their far corners (face planes, support gap)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 30 }),
        fc.double({ min: -12, max: -6, noNaN: true }),
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.boolean(),
        (seed, n, logThickness, logSize, ribbon) => {
          const rand = makeRandom(seed);
          const t = 10 ** logThickness;
          const w = ribbon ? Math.sqrt(t) : t;
          const size = 10 ** logSize;
          const R = rotation(rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5);
          const points = slabPoints(rand, n, w, t, size, R);
          const bar = HULL_FLAT_FACTOR * hullTolerance(points);
          let hull: ReturnType<typeof computeConvexHull>;
          try {
            hull = computeConvexHull(points, { allowFlat: true });
          } catch (e) {
            // Collinear within the flat bar: refused, never a wrong hull.
            expect(e).toBeInstanceOf(CollideError);
            expect(w).toBeLessThan(1e-9);
            return;
          }
          expect(planeExcess(points, hull)).toBeLessThanOrEqual(bar);
          expect(supportGap(points, hull.vertices, R, rand)).toBeLessThanOrEqual(bar);
          expect(validateConvexHull(points, hull)).toEqual([]);
        },
      ),
      { numRuns: 400, seed: 27 },
    );
  });
});

/** Faces of each hull vertex. */
function facesPerVertex(hull: ReturnType<typeof computeConvexHull>): number[] {
  const count = new Array<number>(hull.vertices.length / 3).fill(0);
  for (const v of hull.faceVertices) count[v]++;
  return count;
}

describe("validateConvexHull accepts the fold corners the builder keeps (a vertex on 2 faces)", () => {
  // Seven points of a slab 8.6e-10 × 0.6 thick (rotated): the hull has 6 faces and vertex 4 on
  // only two of them, the top and bottom meeting at a fold of the rim. The validator required 3
  // faces per vertex and flagged it ("vertex 4 is on 2 faces"); so it did every flat polygon.
  const pts = [
    0.3732044509283798, -0.40428304790684416, -0.027256327493382138, 0.23996028385211124,
    -0.127397504378328, 0.46649828800205045, 0.03301264334831983, -0.13877535611606434,
    -0.37859122674476003, 0.09356137572597874, -0.142079684716421, -0.15555799888584396,
    0.015146561281735629, -0.06845865157295389, -0.1911827446541571, 0.3467237792073139,
    -0.34844641765151396, 0.07382559676500565, -0.054225799753330854, 0.11646628463223868,
    0.21475713558717247,
  ];

  it("the 2-face vertex is a corner of the input: beyond the chord of its neighbours, along the chord's outward normal, by more than the tolerance (brute force)", () => {
    const hull = computeConvexHull(pts, { allowFlat: true });
    expect(hull.flat).toBe(false);
    const v = facesPerVertex(hull).indexOf(2);
    expect(v).toBeGreaterThanOrEqual(0);
    // Its neighbours p, q in the first face that lists it, and that face's normal n.
    let f = 0;
    while (!hull.faceVertices.subarray(hull.faceOffsets[f], hull.faceOffsets[f + 1]).includes(v))
      f++;
    const loop = Array.from(
      hull.faceVertices.subarray(hull.faceOffsets[f], hull.faceOffsets[f + 1]),
    );
    const k = loop.indexOf(v);
    const p = loop[(k + loop.length - 1) % loop.length];
    const q = loop[(k + 1) % loop.length];
    const V = (i: number) => [0, 1, 2].map((j) => hull.vertices[3 * i + j]);
    const n = [0, 1, 2].map((j) => hull.faceNormals[3 * f + j]);
    const e = V(q).map((c, j) => c - V(p)[j]);
    // (q − p) × n: in the face's plane, perpendicular to the chord, away from the face (ccw loop).
    const d = [e[1] * n[2] - e[2] * n[1], e[2] * n[0] - e[0] * n[2], e[0] * n[1] - e[1] * n[0]];
    const len = Math.hypot(...d);
    const along = (x: number, y: number, z: number) => (x * d[0] + y * d[1] + z * d[2]) / len;
    const mine = along(...(V(v) as [number, number, number]));
    let others = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pts.length; i += 3) {
      const [x, y, z] = [pts[i], pts[i + 1], pts[i + 2]];
      const [a, b, c] = V(v);
      if (x !== a || y !== b || z !== c) others = Math.max(others, along(x, y, z));
    }
    expect(mine - others).toBeGreaterThan(HULL_FLAT_FACTOR * hullTolerance(pts));
    expect(validateConvexHull(pts, hull)).toEqual([]);
  });

  it("a flat polygon (every vertex on its 2 faces) is valid; a vertex put in the middle of an edge is still flagged", () => {
    const square = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0];
    const flat = computeConvexHull(square, { allowFlat: true });
    expect(flat.flat).toBe(true);
    expect(validateConvexHull(square, flat)).toEqual([]);
    // The unit cube with (0.5, 0, 0) put into the edge (0,0,0)–(1,0,0) of both its faces.
    const cube: number[] = [];
    for (let i = 0; i < 8; i++) cube.push(i & 1, (i >> 1) & 1, (i >> 2) & 1);
    const hull = computeConvexHull(cube);
    const at = (x: number, y: number, z: number) => {
      for (let k = 0; k < 8; k++)
        if (
          hull.vertices[3 * k] === x &&
          hull.vertices[3 * k + 1] === y &&
          hull.vertices[3 * k + 2] === z
        )
          return k;
      throw new Error("no such corner");
    };
    const a = at(0, 0, 0);
    const b = at(1, 0, 0);
    const m = 8;
    const loops: number[][] = [];
    for (let f = 0; f + 1 < hull.faceOffsets.length; f++) {
      const loop = Array.from(
        hull.faceVertices.subarray(hull.faceOffsets[f], hull.faceOffsets[f + 1]),
      );
      const out: number[] = [];
      loop.forEach((u, i) => {
        const w = loop[(i + 1) % loop.length];
        out.push(u);
        if ((u === a && w === b) || (u === b && w === a)) out.push(m);
      });
      loops.push(out);
    }
    const edges = Array.from(hull.edges);
    const e = edges.findIndex(
      (x, i) => i % 2 === 0 && ((x === a && edges[i + 1] === b) || (x === b && edges[i + 1] === a)),
    );
    edges.splice(e, 2, a, m, m, b);
    const split = {
      ...hull,
      vertices: Float64Array.from([...hull.vertices, 0.5, 0, 0]),
      faceOffsets: Uint32Array.from([
        0,
        ...loops.map((_, f) => loops.slice(0, f + 1).flat().length),
      ]),
      faceVertices: Uint32Array.from(loops.flat()),
      edges: Uint32Array.from(edges),
    };
    // Everything else holds (V − E + F = 9 − 13 + 6 = 2, closed, planar, convex faces).
    const problems = validateConvexHull(cube, split);
    expect(problems).toHaveLength(1);
    expect([
      `vertex 8 is on 2 faces and 0 from the line through its neighbours ${a} and ${b}: the middle of an edge`,
      `vertex 8 is on 2 faces and 0 from the line through its neighbours ${b} and ${a}: the middle of an edge`,
    ]).toContain(problems[0]);
  });
});
