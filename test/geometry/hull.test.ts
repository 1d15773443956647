import fc from "fast-check";
import type quickhullRunner from "quickhull3d";
import { describe, expect, it } from "vitest";
import { HULL_FLAT_FACTOR } from "../../src/constants.js";
import { CollideError } from "../../src/errors.js";
import {
  type ConvexHull,
  computeConvexHull,
  hullTolerance,
  validateConvexHull,
} from "../../src/geometry/hull.js";

// quickhull3d's split ESM files import each other without extensions, which Node cannot
// resolve; its bundled build is self-contained. Test oracle only.
const quickhullBundle = "quickhull3d/dist/quickhull3d.js";
const quickhull = ((await import(quickhullBundle)) as { default: typeof quickhullRunner }).default;

type P = [number, number, number];

/** Seeded PRNG (mulberry32) so every random case is reproducible from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pack(points: P[]): Float64Array {
  const out = new Float64Array(3 * points.length);
  points.forEach((p, i) => {
    out.set(p, 3 * i);
  });
  return out;
}

function unpack(points: ArrayLike<number>): P[] {
  const out: P[] = [];
  for (let i = 0; i < points.length; i += 3) out.push([points[i], points[i + 1], points[i + 2]]);
  return out;
}

function randomUnit(r: () => number): P {
  for (;;) {
    const p: P = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
    const l = Math.hypot(...p);
    if (l > 0.1 && l <= 1) return [p[0] / l, p[1] / l, p[2] / l];
  }
}

/** A random rotation matrix (rows) from a random unit quaternion. */
function randomRotation(r: () => number): number[][] {
  let q = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
  const l = Math.hypot(...q);
  q = q.map((c) => c / l);
  const [x, y, z, w] = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

function transform(points: P[], rot: number[][] | null, scale: number, offset: number): P[] {
  return points.map((p) => {
    const s = [p[0] * scale, p[1] * scale, p[2] * scale];
    const q = rot
      ? rot.map((row) => row[0] * s[0] + row[1] * s[1] + row[2] * s[2])
      : [s[0], s[1], s[2]];
    return [q[0] + offset, q[1] + offset * 0.5, q[2] - offset * 0.25] as P;
  });
}

/** Volume by the divergence theorem over triangles (i, j, k), relative to a nearby point. */
function triangleVolume(points: P[], tris: number[][], ref: P): number {
  let v = 0;
  for (const [i, j, k] of tris) {
    const a = points[i].map((c, d) => c - ref[d]);
    const b = points[j].map((c, d) => c - ref[d]);
    const c = points[k].map((c2, d) => c2 - ref[d]);
    v +=
      a[0] * (b[1] * c[2] - b[2] * c[1]) +
      a[1] * (b[2] * c[0] - b[0] * c[2]) +
      a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return v / 6;
}

/** Our hull's faces fanned into triangles. */
function hullTriangles(hull: ConvexHull): number[][] {
  const tris: number[][] = [];
  for (let f = 0; f + 1 < hull.faceOffsets.length; f++) {
    const s = hull.faceOffsets[f];
    for (let i = s + 1; i + 1 < hull.faceOffsets[f + 1]; i++) {
      tris.push([hull.faceVertices[s], hull.faceVertices[i], hull.faceVertices[i + 1]]);
    }
  }
  return tris;
}

function hullVolume(hull: ConvexHull): number {
  const pts = unpack(hull.vertices);
  return triangleVolume(pts, hullTriangles(hull), pts[0]);
}

function hullArea(hull: ConvexHull): number {
  const pts = unpack(hull.vertices);
  let area = 0;
  for (const [i, j, k] of hullTriangles(hull)) {
    const u = pts[j].map((c, d) => c - pts[i][d]);
    const w = pts[k].map((c, d) => c - pts[i][d]);
    area +=
      Math.hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]) /
      2;
  }
  return area;
}

function quickhullVolume(points: P[]): number {
  return triangleVolume(points, quickhull(points), points[0]);
}

function faceSizes(hull: ConvexHull): number[] {
  const sizes: number[] = [];
  for (let f = 0; f + 1 < hull.faceOffsets.length; f++) {
    sizes.push(hull.faceOffsets[f + 1] - hull.faceOffsets[f]);
  }
  return sizes;
}

/**
 * Every check against the oracles: structural validity, vertices ⊆ input, support function
 * equal to the brute-force support over the input in many directions, every clearly extreme
 * input point is a hull vertex, volume equal to quickhull3d's.
 */
function checkHull(points: P[], seed: number, options: { quickhull?: boolean } = {}): ConvexHull {
  const packed = pack(points);
  const hull = computeConvexHull(packed);
  const tol = hullTolerance(packed);
  const problems = validateConvexHull(packed, hull, 4 * tol);
  expect(problems.slice(0, 5), `seed ${seed}`).toEqual([]);

  const keys = points.map((p) => p.join(","));
  const inputKeys = new Set(keys);
  const verts = unpack(hull.vertices);
  const vertexKeys = new Set(verts.map((v) => v.join(",")));
  for (const v of vertexKeys) expect(inputKeys.has(v), `seed ${seed}`).toBe(true);
  expect(vertexKeys.size).toBe(verts.length);

  const r = rng(seed ^ 0x5bd1e995);
  for (let k = 0; k < 200; k++) {
    const d = randomUnit(r);
    const dot = (p: P) => p[0] * d[0] + p[1] * d[1] + p[2] * d[2];
    let best = 0;
    for (let i = 1; i < points.length; i++) if (dot(points[i]) > dot(points[best])) best = i;
    let second = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < points.length; i++) {
      if (keys[i] !== keys[best]) second = Math.max(second, dot(points[i]));
    }
    let hullBest = Number.NEGATIVE_INFINITY;
    for (const v of verts) hullBest = Math.max(hullBest, dot(v));
    // A point merged away within the tolerance of the faces of a thin wedge can stick out a few
    // tolerances along the wedge, hence 16 rather than 1.
    expect(dot(points[best]) - hullBest, `seed ${seed}`).toBeLessThanOrEqual(16 * tol);
    expect(hullBest - dot(points[best])).toBeLessThanOrEqual(0);
    if (dot(points[best]) - second > 1000 * tol) {
      expect(vertexKeys.has(keys[best]), `seed ${seed} extreme point`).toBe(true);
    }
  }

  if (options.quickhull !== false) {
    const ours = hullVolume(hull);
    const theirs = quickhullVolume(points);
    const slack = 1e-9 * Math.abs(theirs) + 4 * tol * hullArea(hull);
    expect(Math.abs(ours - theirs), `seed ${seed}: ${ours} vs ${theirs}`).toBeLessThanOrEqual(
      slack,
    );
  }
  return hull;
}

function boxWithGrid(r: () => number, grid: number): { points: P[]; h: P } {
  const h: P = [0.2 + r(), 0.2 + r(), 0.2 + r()];
  const points: P[] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        points.push([sx * h[0], sy * h[1], sz * h[2]]);
      }
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [-1, 1]) {
      for (let i = 0; i <= grid; i++) {
        for (let j = 0; j <= grid; j++) {
          const p: P = [0, 0, 0];
          p[axis] = side * h[axis];
          p[(axis + 1) % 3] = (2 * (i / grid) - 1) * h[(axis + 1) % 3];
          p[(axis + 2) % 3] = (2 * (j / grid) - 1) * h[(axis + 2) % 3];
          points.push(p);
        }
      }
    }
  }
  for (let i = 0; i < 20; i++)
    points.push([(2 * r() - 1) * h[0], (2 * r() - 1) * h[1], (2 * r() - 1) * h[2]]);
  return { points, h };
}

function shuffle<T>(items: T[], r: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("computeConvexHull on hand-derived solids", () => {
  it("a unit cube is 8 vertices, 6 quads, 12 edges with axis normals at offset 0.5", () => {
    const pts: P[] = [];
    for (const x of [-0.5, 0.5])
      for (const y of [-0.5, 0.5]) for (const z of [-0.5, 0.5]) pts.push([x, y, z]);
    const hull = checkHull(pts, 1);
    expect(hull.vertices.length / 3).toBe(8);
    expect(faceSizes(hull)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(hull.edges.length / 2).toBe(12);
    const normals = unpack(hull.faceNormals).map((n) => n.map((c) => Math.round(c)).join(","));
    expect(new Set(normals)).toEqual(
      new Set(["1,0,0", "-1,0,0", "0,1,0", "0,-1,0", "0,0,1", "0,0,-1"]),
    );
    for (const d of hull.facePlaneOffsets) expect(d).toBeCloseTo(0.5, 14);
    expect(hullVolume(hull)).toBeCloseTo(1, 14);
  });

  it("a regular octahedron is 6 vertices, 8 triangles, 12 edges", () => {
    const pts: P[] = [
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0, 0, -1],
      [0, 0, 0],
    ];
    const hull = checkHull(pts, 2);
    expect(hull.vertices.length / 3).toBe(6);
    expect(faceSizes(hull)).toEqual(new Array(8).fill(3));
    expect(hull.edges.length / 2).toBe(12);
    for (const d of hull.facePlaneOffsets) expect(d).toBeCloseTo(1 / Math.sqrt(3), 14);
    expect(hullVolume(hull)).toBeCloseTo(4 / 3, 14);
  });

  it("a tetrahedron is 4 vertices, 4 triangles, 6 edges with outward normals", () => {
    const pts: P[] = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const hull = checkHull(pts, 3);
    expect(hull.vertices.length / 3).toBe(4);
    expect(faceSizes(hull)).toEqual([3, 3, 3, 3]);
    expect(hull.edges.length / 2).toBe(6);
    const s = 1 / Math.sqrt(3);
    const expected = ["-1,0,0", "0,-1,0", "0,0,-1", `${s},${s},${s}`];
    const normals = unpack(hull.faceNormals);
    for (const e of expected) {
      const n = e.split(",").map(Number);
      expect(normals.some((m) => Math.hypot(m[0] - n[0], m[1] - n[1], m[2] - n[2]) < 1e-14)).toBe(
        true,
      );
    }
    expect(hullVolume(hull)).toBeCloseTo(1 / 6, 15);
  });

  it("a box with grid points on faces and edges, inside points and duplicates is still 6 quads", () => {
    const r = rng(4);
    const { points, h } = boxWithGrid(r, 4);
    const withDuplicates = shuffle(points.concat(points.slice(0, 30)), r);
    const hull = checkHull(withDuplicates, 4);
    expect(hull.vertices.length / 3).toBe(8);
    expect(faceSizes(hull)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(hull.edges.length / 2).toBe(12);
    expect(hullVolume(hull)).toBeCloseTo(8 * h[0] * h[1] * h[2], 13);
  });

  it("a point in the middle of a cube edge or face is not a hull vertex", () => {
    const pts: P[] = [];
    for (const x of [0, 2]) for (const y of [0, 2]) for (const z of [0, 2]) pts.push([x, y, z]);
    pts.push([1, 0, 0], [0, 1, 2], [1, 1, 0], [2, 1, 1]);
    const hull = checkHull(pts, 5);
    expect(hull.vertices.length / 3).toBe(8);
    expect(faceSizes(hull)).toEqual([4, 4, 4, 4, 4, 4]);
  });

  it("a prism over a regular 16-gon has two 16-gon caps and 16 quads", () => {
    const n = 16;
    const pts: P[] = [];
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * k) / n;
      pts.push([Math.cos(t), Math.sin(t), 1], [Math.cos(t), Math.sin(t), -1]);
    }
    const hull = checkHull(pts, 6);
    const sizes = faceSizes(hull).sort((a, b) => b - a);
    expect(sizes).toEqual([16, 16, ...new Array(16).fill(4)]);
    expect(hull.vertices.length / 3).toBe(2 * n);
    expect(hull.edges.length / 2).toBe(3 * n);
    // Analytic volume: area of the regular n-gon × height.
    expect(hullVolume(hull)).toBeCloseTo((n / 2) * Math.sin((2 * Math.PI) / n) * 2, 13);
  });

  it("is deterministic: the same input gives bitwise the same hull", () => {
    const r = rng(7);
    const pts = pack(Array.from({ length: 300 }, () => randomUnit(r)));
    const a = computeConvexHull(pts);
    const b = computeConvexHull(Float64Array.from(pts));
    expect(b).toEqual(a);
  });

  it("accepts a plain number array and does not modify it", () => {
    const pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.2, 0.2, 0.2];
    const copy = pts.slice();
    const hull = computeConvexHull(pts);
    expect(pts).toEqual(copy);
    expect(hull.vertices.length / 3).toBe(4);
  });
});

describe("computeConvexHull refuses bad input", () => {
  const cases: [string, ArrayLike<number>][] = [
    ["a NaN coordinate", [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Number.NaN]],
    ["an infinite coordinate", [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Number.POSITIVE_INFINITY]],
    ["a length that is not a multiple of 3", [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5]],
    ["fewer than 4 points", [0, 0, 0, 1, 0, 0, 0, 1, 0]],
    ["no points", []],
    ["coincident points", [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]],
    ["collinear points", [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0.5, 0.5, 0.5]],
    ["coplanar points", [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.3, 0.7, 0]],
    ["points coplanar within the tolerance", [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1e-14]],
  ];
  for (const [name, pts] of cases) {
    it(`throws CollideError naming "points" for ${name}`, () => {
      let error: unknown;
      try {
        computeConvexHull(pts);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CollideError);
      expect((error as CollideError).field).toBe("points");
      expect((error as CollideError).code).toBe("invalid_value");
      expect((error as CollideError).message).toMatch(/^points /);
    });
  }

  it("names the given field", () => {
    expect(() => computeConvexHull([0, 0, 0], "shapes[3].points")).toThrow(/^shapes\[3\]\.points /);
  });

  it("mentions the non-coplanar requirement", () => {
    expect(() => computeConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])).toThrow(
      /a hull needs at least 4 non-coplanar points/,
    );
  });

  it("accepts a slab just thicker than the tolerance", () => {
    const pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1e-6];
    const hull = computeConvexHull(pts);
    expect(hull.vertices.length / 3).toBe(4);
    expect(validateConvexHull(pts, hull)).toEqual([]);
  });
});

const families = ["cube", "sphere", "duplicates", "box-grid", "prism", "near-plane"] as const;
type Family = (typeof families)[number];

function makeFamily(family: Family, r: () => number): P[] {
  const n = 4 + Math.floor(r() * 150);
  switch (family) {
    case "cube":
      return Array.from({ length: n }, () => [2 * r() - 1, 2 * r() - 1, 2 * r() - 1] as P);
    case "sphere":
      return Array.from({ length: n }, () => randomUnit(r));
    case "duplicates": {
      const base = Array.from(
        { length: 4 + Math.floor(n / 4) },
        () => [2 * r() - 1, 2 * r() - 1, 2 * r() - 1] as P,
      );
      const extra = Array.from({ length: n }, () => base[Math.floor(r() * base.length)]);
      return shuffle(base.concat(extra), r);
    }
    case "box-grid":
      return shuffle(boxWithGrid(r, 1 + Math.floor(r() * 5)).points, r);
    case "prism": {
      const m = 3 + Math.floor(r() * 20);
      const pts: P[] = [];
      for (let k = 0; k < m; k++) {
        const t = (2 * Math.PI * k) / m;
        pts.push([Math.cos(t), Math.sin(t), 0.5], [Math.cos(t), Math.sin(t), -0.5]);
        pts.push([Math.cos(t), Math.sin(t), r() - 0.5]);
      }
      return pts;
    }
    case "near-plane": {
      const pts: P[] = Array.from(
        { length: n },
        () => [2 * r() - 1, 2 * r() - 1, 1e-13 * (r() - 0.5)] as P,
      );
      pts.push([0.1, 0.2, 0.5], [-0.3, 0.1, -0.4]);
      return pts;
    }
  }
}

describe("computeConvexHull against quickhull3d and brute-force support (fast-check)", () => {
  it("matches on random clouds of every family, rotated, scaled and translated", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(...families),
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e6),
        fc.boolean(),
        (seed, family, scale, offset, rotate) => {
          const r = rng(seed);
          const local = makeFamily(family, r);
          const points = transform(local, rotate ? randomRotation(r) : null, scale, offset);
          const hull = checkHull(points, seed);
          if (family === "box-grid") {
            expect(faceSizes(hull), `seed ${seed}`).toEqual([4, 4, 4, 4, 4, 4]);
            expect(hull.vertices.length / 3).toBe(8);
          }
          if (family === "prism" && !rotate && offset === 0) {
            const m = local.length / 3;
            expect(hull.vertices.length / 3, `seed ${seed}`).toBe(2 * m);
            expect(faceSizes(hull).length).toBe(m + 2);
          }
        },
      ),
      { numRuns: 250 },
    );
  });

  it("handles adversarial doubles (zeros, ±1, subnormals, repeats) or refuses them as flat", () => {
    const coordinate = fc.oneof(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.constantFrom(0, 1, -1, 0.5, 5e-324, -5e-324, 1e-300),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coordinate, coordinate, coordinate), { minLength: 4, maxLength: 12 }),
        (tuples) => {
          const points = tuples.map((t) => [t[0], t[1], t[2]] as P);
          const packed = pack(points);
          let hull: ConvexHull | null = null;
          try {
            hull = computeConvexHull(packed);
          } catch (e) {
            expect(e).toBeInstanceOf(CollideError);
          }
          const tol = hullTolerance(packed);
          const maxAbs = Math.max(...packed.map(Math.abs));
          // Brute force: the largest tetrahedron over every 4 input points.
          let maxVolume = 0;
          const n = points.length;
          for (let a = 0; a < n; a++)
            for (let b = a + 1; b < n; b++)
              for (let c = b + 1; c < n; c++)
                for (let d = c + 1; d < n; d++) {
                  maxVolume = Math.max(
                    maxVolume,
                    Math.abs(triangleVolume(points, [[a, b, c]], points[d])),
                  );
                }
          if (hull === null) {
            // Refused as flat: every tetrahedron is thinner than the flatness threshold.
            expect(maxVolume).toBeLessThanOrEqual(HULL_FLAT_FACTOR * tol * (2 * maxAbs) ** 2);
          } else {
            checkHull(points, 0, { quickhull: false });
            // Welded near-duplicates may sit up to the tolerance outside the hull.
            expect(hullVolume(hull)).toBeGreaterThanOrEqual(maxVolume - 4 * tol * hullArea(hull));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

const noiseKinds = ["noisy-box", "near-duplicates", "flat-cap"] as const;

/**
 * Coordinates jittered by `noise` × the hull tolerance: near-coplanar faces, near-duplicate
 * corners and nearly flat curved caps, where faces must still come out planar and convex.
 */
function toleranceNoiseCase(
  seed: number,
  kind: (typeof noiseKinds)[number],
  noise: number,
  scale: number,
  offset: number,
): void {
  const r = rng(seed);
  let local: P[];
  if (kind === "noisy-box") {
    local = boxWithGrid(r, 1 + Math.floor(r() * 5)).points;
  } else if (kind === "near-duplicates") {
    const base = Array.from(
      { length: 6 + Math.floor(r() * 20) },
      () => [2 * r() - 1, 2 * r() - 1, 2 * r() - 1] as P,
    );
    local = Array.from({ length: 150 }, () => base[Math.floor(r() * base.length)]);
  } else {
    const radius = 10 ** (2 + r() * 6);
    local = Array.from({ length: 200 }, () => {
      const x = 2 * r() - 1;
      const y = 2 * r() - 1;
      return [x, y, Math.sqrt(radius * radius - x * x - y * y) - radius] as P;
    });
    local.push([0, 0, -1]);
  }
  const clean = transform(local, randomRotation(r), scale, offset);
  const tol = hullTolerance(pack(clean));
  const points = clean.map((p) => p.map((c) => c + (2 * r() - 1) * noise * tol) as P);
  checkHull(points, seed, { quickhull: false });
}

describe("computeConvexHull with noise at the tolerance scale", () => {
  it("gives a valid, convex, planar hull whose support matches brute force (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(...noiseKinds),
        fc.constantFrom(0.3, 1, 3, 10),
        fc.constantFrom(1e-3, 1, 1e4),
        fc.constantFrom(0, 1e6),
        toleranceNoiseCase,
      ),
      { numRuns: 200 },
    );
  });

  it("repro: slivers along a noisy box's edges keep their planes (needle normals)", () => {
    toleranceNoiseCase(1, "noisy-box", 3, 1e-3, 0);
  });
});

describe("computeConvexHull repros", () => {
  it("refuses a slab only as thick as the tolerance (found by fast-check)", () => {
    const pts = [
      1, 0, 0, 0, 0, 0, 0, 1.0000178689709661e-19, 0, 0, 0, 0, 0, 0, 1, 0, -1.0000177700125401e-10,
      0,
    ];
    expect(() => computeConvexHull(pts)).toThrow(CollideError);
  });

  it("welds a point within the tolerance of a corner, keeping the first", () => {
    const pts: P[] = [
      [1, 0, 0],
      [0, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1 + 5e-11, 0, 0],
      [0.2, 0.2, 0.2],
    ];
    const hull = checkHull(pts, 0);
    expect(unpack(hull.vertices)).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });
});

describe("computeConvexHull on 10^4 points", () => {
  // Speed is measured in bench/, not asserted here (a loaded CI machine is no clock).
  it("hulls 10^4 random points in a cube", () => {
    const r = rng(11);
    const pts = pack(
      Array.from({ length: 10_000 }, () => [2 * r() - 1, 2 * r() - 1, 2 * r() - 1] as P),
    );
    const hull = computeConvexHull(pts);
    expect(validateConvexHull(pts, hull)).toEqual([]);
    expect(Math.abs(hullVolume(hull) - quickhullVolume(unpack(pts)))).toBeLessThan(1e-9 * 8);
  });

  it("hulls 10^4 points on a sphere (all on the hull)", () => {
    const r = rng(12);
    const pts = pack(Array.from({ length: 10_000 }, () => randomUnit(r)));
    const hull = computeConvexHull(pts);
    expect(hull.vertices.length / 3).toBe(10_000);
    // Full structure; inside-every-plane for a sample of the points (all would be 2·10^8 tests).
    expect(validateConvexHull(pts.subarray(0, 3 * 500), hull, hullTolerance(pts))).toEqual([]);
  });
});

describe("computeConvexHull's options in the field's place (found by a fresh user, session 22)", () => {
  const square = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0];
  it("computeConvexHull(points, { allowFlat: true }) takes them as the options", () => {
    const h = computeConvexHull(square, { allowFlat: true });
    expect(h.flat).toBe(true);
    expect(h.vertices.length).toBe(12);
  });
  it("a field that is neither a string nor the options is refused, naming it", () => {
    expect(() => computeConvexHull(square, 7 as never)).toThrow(/^field .*must be a string/);
    expect(() => computeConvexHull(square, { allowFlat: true }, { allowFlat: true })).toThrow(
      /^field /,
    );
    expect(() => computeConvexHull(square, { alowFlat: true } as never)).toThrow(
      /did you mean "allowFlat"/,
    );
  });
});
