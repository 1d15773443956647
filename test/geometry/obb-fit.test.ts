import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { fitObbPca, makeObb, type Obb } from "../../src/geometry/obb-fit.js";

type P = [number, number, number];
type Q = { x: number; y: number; z: number; w: number };

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

/** Columns of the rotation matrix of q, written out independently of src/math. */
function axesOf(q: Q): [P, P, P] {
  const { x, y, z, w } = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
    [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
    [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)],
  ];
}
const dot = (a: P, b: P) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const pack = (pts: P[]) => Float64Array.from(pts.flat());
const volume = (b: Obb) => 8 * b.halfExtents.x * b.halfExtents.y * b.halfExtents.z;
const halves = (b: Obb): P => [b.halfExtents.x, b.halfExtents.y, b.halfExtents.z];

/** A uniformly random rotation (Shoemake 1992) from the generator. */
function randomQuat(r: () => number): Q {
  const u1 = r();
  const u2 = r() * 2 * Math.PI;
  const u3 = r() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return { x: a * Math.sin(u2), y: a * Math.cos(u2), z: b * Math.sin(u3), w: b * Math.cos(u3) };
}

/** Local coordinates of p in box b (independent transform by the box axes). */
function toLocal(b: Obb, p: P): P {
  const d: P = [p[0] - b.center.x, p[1] - b.center.y, p[2] - b.center.z];
  const [a0, a1, a2] = axesOf(b.rotation);
  return [dot(d, a0), dot(d, a1), dot(d, a2)];
}

/** Tolerance for points on the box surface: round-off at the extent and the coordinates. */
function slack(b: Obb, pts: P[]): number {
  let mag = 0;
  for (const p of pts) mag = Math.max(mag, Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]));
  return 1e-12 * Math.max(...halves(b)) + 16 * Number.EPSILON * mag;
}

function expectValidBox(b: Obb, pts: P[]): void {
  const q = b.rotation;
  expect(Math.abs(Math.hypot(q.x, q.y, q.z, q.w) - 1)).toBeLessThanOrEqual(1e-14);
  for (const h of halves(b)) {
    expect(Number.isFinite(h)).toBe(true);
    expect(h).toBeGreaterThanOrEqual(0);
  }
  const tol = slack(b, pts);
  const lo: P = [Infinity, Infinity, Infinity];
  const hi: P = [-Infinity, -Infinity, -Infinity];
  for (const p of pts) {
    const l = toLocal(b, p);
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(l[k])).toBeLessThanOrEqual(halves(b)[k] + tol);
      lo[k] = Math.min(lo[k], l[k]);
      hi[k] = Math.max(hi[k], l[k]);
    }
  }
  // Tight: the box is the AABB of the points in its own frame, so points touch both faces.
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(hi[k] - halves(b)[k])).toBeLessThanOrEqual(tol);
    expect(Math.abs(lo[k] + halves(b)[k])).toBeLessThanOrEqual(tol);
  }
}

/**
 * Dense samples of the surface of a box with the given pose: every face is cut into square
 * cells of side `cell` and one uniformly random point is drawn in each (jittered sampling).
 */
function boxSurface(r: () => number, half: P, q: Q, c: P, cell: number): P[] {
  const [a0, a1, a2] = axesOf(q);
  const out: P[] = [];
  for (let axis = 0; axis < 3; axis++) {
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const nu = Math.max(1, Math.round((2 * half[u]) / cell));
    const nv = Math.max(1, Math.round((2 * half[v]) / cell));
    for (const side of [-1, 1]) {
      for (let i = 0; i < nu; i++) {
        for (let j = 0; j < nv; j++) {
          const l: P = [0, 0, 0];
          l[axis] = side * half[axis];
          l[u] = -half[u] + ((i + r()) / nu) * 2 * half[u];
          l[v] = -half[v] + ((j + r()) / nv) * 2 * half[v];
          out.push([0, 1, 2].map((k) => c[k] + l[0] * a0[k] + l[1] * a1[k] + l[2] * a2[k]) as P);
        }
      }
    }
  }
  return out;
}

describe("fitObbPca: boxes sampled from a known rotated box", () => {
  for (const [seed, s, off] of [
    [1, 1, 0],
    [2, 1e-3, 0],
    [3, 1e4, 0],
    [4, 1, 1e6],
    [5, 10, -1e6],
  ] as const) {
    it(`recovers a rotated 3 × 1.5 × 0.5 box within 5 % volume (seed ${seed}, scale ${s}, offset ${off})`, () => {
      const r = rng(seed);
      const half: P = [3 * s, 1.5 * s, 0.5 * s];
      const q = randomQuat(r);
      const c: P = [off + s * r(), -off + s * r(), off];
      const pts = boxSurface(r, half, q, c, 0.05 * s);
      const box = fitObbPca(makeObb(), pack(pts));
      expectValidBox(box, pts);
      const trueVolume = 8 * half[0] * half[1] * half[2];
      expect(volume(box) / trueVolume).toBeLessThanOrEqual(1.05);
      expect(volume(box) / trueVolume).toBeGreaterThanOrEqual(0.95);
      // Axes line up with the true ones, largest spread first.
      const fitted = axesOf(box.rotation);
      const truth = axesOf(q);
      for (let k = 0; k < 3; k++) expect(Math.abs(dot(fitted[k], truth[k]))).toBeGreaterThan(0.999);
      for (let k = 0; k < 3; k++) expect(halves(box)[k] / half[k]).toBeCloseTo(1, 1);
      // Information check: the world AABB of the same points is much larger.
      let aabb = 1;
      for (let k = 0; k < 3; k++) {
        const vs = pts.map((p) => p[k]);
        aabb *= Math.max(...vs) - Math.min(...vs);
      }
      expect(volume(box)).toBeLessThanOrEqual(aabb * (1 + 1e-9));
    });
  }
});

describe("fitObbPca: degenerate sets", () => {
  it("all points equal: zero half extents at the point, unit rotation", () => {
    const pts: P[] = [
      [1e6, -2, 3],
      [1e6, -2, 3],
      [1e6, -2, 3],
    ];
    const box = fitObbPca(makeObb(), pack(pts));
    expect(halves(box)).toEqual([0, 0, 0]);
    expect(box.center).toEqual({ x: 1e6, y: -2, z: 3 });
    expectValidBox(box, pts);
  });

  it("one point", () => {
    const box = fitObbPca(makeObb(), [4, 5, 6]);
    expect(halves(box)).toEqual([0, 0, 0]);
    expect(box.center).toEqual({ x: 4, y: 5, z: 6 });
  });

  it("collinear points: a segment box along the line", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(1e-3, 1, 1e4),
        (seed, s) => {
          const r = rng(seed);
          const dir = axesOf(randomQuat(r))[0];
          const ts = Array.from({ length: 20 }, () => (2 * r() - 1) * s);
          const pts = ts.map((t): P => [1 + t * dir[0], 2 + t * dir[1], -3 + t * dir[2]]);
          const box = fitObbPca(makeObb(), pack(pts));
          expectValidBox(box, pts);
          const len = Math.max(...ts) - Math.min(...ts);
          expect(box.halfExtents.x).toBeCloseTo(len / 2, 12 - Math.log10(s));
          expect(box.halfExtents.y).toBeLessThanOrEqual(1e-12 * len);
          expect(box.halfExtents.z).toBeLessThanOrEqual(1e-12 * len);
          expect(Math.abs(dot(axesOf(box.rotation)[0], dir))).toBeGreaterThan(1 - 1e-12);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("coplanar points: zero half extent along the plane normal", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(1e-3, 1, 1e4),
        (seed, s) => {
          const r = rng(seed);
          const [u, v, n] = axesOf(randomQuat(r));
          const pts = Array.from({ length: 30 }, (): P => {
            const a = (2 * r() - 1) * s;
            const b = (2 * r() - 1) * s;
            return [5 + a * u[0] + b * v[0], a * u[1] + b * v[1], a * u[2] + b * v[2]];
          });
          const box = fitObbPca(makeObb(), pack(pts));
          expectValidBox(box, pts);
          expect(box.halfExtents.z).toBeLessThanOrEqual(1e-11 * s);
          expect(box.halfExtents.y).toBeGreaterThan(0.1 * s);
          expect(Math.abs(dot(axesOf(box.rotation)[2], n))).toBeGreaterThan(1 - 1e-12);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("axis-aligned line and square give exactly zero extents on the degenerate axes", () => {
    const line = fitObbPca(makeObb(), [0, 0, 0, 1, 0, 0, 3, 0, 0]);
    expect(halves(line)).toEqual([1.5, 0, 0]);
    const square = fitObbPca(makeObb(), [0, 0, 0, 2, 0, 0, 0, 1, 0, 2, 1, 0]);
    expect(square.halfExtents.z).toBe(0);
    expect(square.halfExtents.x).toBeCloseTo(1, 14);
    expect(square.halfExtents.y).toBeCloseTo(0.5, 14);
  });
});

describe("fitObbPca: properties on random and adversarial sets", () => {
  const coord = fc.double({ min: -1, max: 1, noNaN: true });
  const general = fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 40 });
  const g = fc.integer({ min: -2, max: 2 });
  const grid = fc.array(fc.tuple(g, g, g), { minLength: 1, maxLength: 20 });
  const dup = general.map((pts) => [...pts, ...pts, pts[0]]);
  const sets = fc.oneof(general, grid, dup);

  it("contains every point, is tight, and has a unit rotation (all scales, far from origin)", () => {
    fc.assert(
      fc.property(sets, fc.constantFrom(1e-3, 1, 1e4), fc.constantFrom(0, 1e6), (base, s, off) => {
        const pts = base.map((p): P => [p[0] * s + off, p[1] * s, p[2] * s - off]);
        expectValidBox(fitObbPca(makeObb(), pack(pts)), pts);
      }),
      { numRuns: 300 },
    );
  });

  it("axes are eigenvectors of the covariance (naive oracle), by decreasing variance", () => {
    fc.assert(
      fc.property(sets, fc.constantFrom(1e-3, 1, 1e4), (base, s) => {
        const raw = base.map((p): P => [p[0] * s, p[1] * s, p[2] * s]);
        // The oracle works on the points normalised to unit size (eigenvectors do not change),
        // so that its squares neither underflow nor overflow.
        let big = 0;
        for (const p of raw) big = Math.max(big, ...p.map(Math.abs));
        const pts = big > 0 ? raw.map((p) => p.map((v) => v / big) as P) : raw;
        const n = pts.length;
        const mean = [0, 1, 2].map((k) => pts.reduce((acc, p) => acc + p[k], 0) / n);
        const cov = [0, 1, 2].map((i) =>
          [0, 1, 2].map(
            (j) => pts.reduce((a, p) => a + (p[i] - mean[i]) * (p[j] - mean[j]), 0) / n,
          ),
        );
        // The naive covariance carries round-off of about (ε · |coordinates|)² of its own.
        let mag = 0;
        for (const p of pts) mag = Math.max(mag, ...p.map(Math.abs));
        const tol = 1e-9 * Math.hypot(...cov.flat()) + 64 * (Number.EPSILON * mag) ** 2;
        const box = fitObbPca(makeObb(), pack(raw));
        const axes = axesOf(box.rotation);
        const lambdas = axes.map((a) => {
          const ca = cov.map((row) => row[0] * a[0] + row[1] * a[1] + row[2] * a[2]) as P;
          const lambda = dot(a, ca);
          const residual = Math.hypot(...ca.map((v, k) => v - lambda * a[k]));
          expect(residual).toBeLessThanOrEqual(tol);
          return lambda;
        });
        expect(lambdas[0]).toBeGreaterThanOrEqual(lambdas[1] - tol);
        expect(lambdas[1]).toBeGreaterThanOrEqual(lambdas[2] - tol);
      }),
      { numRuns: 200 },
    );
  });

  it("packed and {x, y, z} inputs agree; repeated calls are bitwise equal", () => {
    const r = rng(11);
    const pts = Array.from({ length: 100 }, () => ({ x: r(), y: 2 * r(), z: 3 * r() }));
    const a = fitObbPca(makeObb(), pts);
    const b = fitObbPca(makeObb(), Float64Array.from(pts.flatMap((p) => [p.x, p.y, p.z])));
    expect(b).toEqual(a);
    expect(fitObbPca(makeObb(), pts)).toEqual(a);
  });
});

describe("fitObbPca: bad input", () => {
  const bad: [string, ArrayLike<number> | { x: number; y: number; z: number }[]][] = [
    ["empty", []],
    ["length not a multiple of 3", [1, 2]],
    ["NaN", [0, 0, Number.NaN]],
    ["infinite Vec3", [{ x: Number.POSITIVE_INFINITY, y: 0, z: 0 }]],
  ];
  for (const [name, pts] of bad) {
    it(`rejects ${name} with a CollideError naming "points"`, () => {
      let err: unknown;
      try {
        fitObbPca(makeObb(), pts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CollideError);
      expect((err as CollideError).field).toBe("points");
    });
  }
});
