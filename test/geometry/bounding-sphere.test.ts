import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import {
  type BoundingSphere,
  boundingSphereExact,
  boundingSphereMean,
  boundingSphereRitter,
  makeBoundingSphere,
  packPoints,
} from "../../src/geometry/bounding-sphere.js";

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

const pack = (pts: P[]) => Float64Array.from(pts.flat());
const dist = (a: P, c: { x: number; y: number; z: number }) =>
  Math.hypot(a[0] - c.x, a[1] - c.y, a[2] - c.z);

const vecFinite = (c: { x: number; y: number; z: number }) =>
  Number.isFinite(c.x) && Number.isFinite(c.y) && Number.isFinite(c.z);

/** Containment slack: relative CONTAINMENT_TOLERANCE-sized plus rounding of far coordinates. */
function slack(s: BoundingSphere, pts: P[]): number {
  let mag = 0;
  for (const p of pts) mag = Math.max(mag, Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]));
  return 1e-12 * s.radius + 8 * Number.EPSILON * mag;
}

function expectContains(s: BoundingSphere, pts: P[]): void {
  const tol = slack(s, pts);
  for (const p of pts) expect(dist(p, s.center)).toBeLessThanOrEqual(s.radius + tol);
}

// ---- Independent brute-force oracle: smallest sphere through 1–4 points containing all. ----

function solve3(m: number[][], b: number[]): number[] | null {
  const det = (a: number[][]) =>
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
    a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const d = det(m);
  const norm = m.map((r) => Math.hypot(...r)).reduce((x, y) => x * y, 1);
  if (!(Math.abs(d) > 1e-10 * norm)) return null;
  const out: number[] = [];
  for (let c = 0; c < 3; c++) {
    const mc = m.map((row, r) => row.map((v, k) => (k === c ? b[r] : v)));
    out.push(det(mc) / d);
  }
  return out;
}

/** Candidate sphere (relative to q[0]) through the given points, with all of them on it. */
function through(q: P[]): { c: P; r: number } | null {
  const o = q[0];
  const rel = q.map((p) => [p[0] - o[0], p[1] - o[1], p[2] - o[2]]);
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  let c: number[] | null;
  if (q.length === 1) c = [0, 0, 0];
  else if (q.length === 2) c = rel[1].map((v) => v / 2);
  else if (q.length === 3) {
    // centre = s·u + t·v with (c − u/2)·u = 0 and (c − v/2)·v = 0
    const [u, v] = [rel[1], rel[2]];
    const a = dot(u, u);
    const b = dot(u, v);
    const e = dot(v, v);
    const det = a * e - b * b;
    if (!(det > 1e-10 * a * e)) return null;
    const s = (0.5 * a * e - 0.5 * e * b) / det;
    const t = (0.5 * e * a - 0.5 * a * b) / det;
    c = [0, 1, 2].map((k) => s * u[k] + t * v[k]);
  } else {
    c = solve3(
      [rel[1], rel[2], rel[3]].map((r) => r.map((v) => 2 * v)),
      [rel[1], rel[2], rel[3]].map((r) => dot(r, r)),
    );
    if (!c) return null;
  }
  const r = Math.max(...rel.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2])));
  return { c: [c[0] + o[0], c[1] + o[1], c[2] + o[2]], r };
}

function oracleRadius(pts: P[], tol: number): number {
  let best = Number.POSITIVE_INFINITY;
  const n = pts.length;
  const consider = (idx: number[]) => {
    const s = through(idx.map((i) => pts[i]));
    if (!s || s.r >= best) return;
    const c = { x: s.c[0], y: s.c[1], z: s.c[2] };
    if (pts.every((p) => dist(p, c) <= s.r + tol)) best = s.r;
  };
  for (let a = 0; a < n; a++) {
    consider([a]);
    for (let b = a + 1; b < n; b++) {
      consider([a, b]);
      for (let c = b + 1; c < n; c++) {
        consider([a, b, c]);
        for (let d = c + 1; d < n; d++) consider([a, b, c, d]);
      }
    }
  }
  return best;
}

// ---- Arbitraries: general and adversarial point sets. ----

const coord = fc.double({ min: -1, max: 1, noNaN: true });
const general = fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 8 });
const gridCoord = fc.integer({ min: -2, max: 2 });
/** Integer grid points: duplicates, collinear, coplanar and cospherical sets abound. */
const grid = fc.array(fc.tuple(gridCoord, gridCoord, gridCoord), { minLength: 1, maxLength: 8 });
const unitDir = fc
  .tuple(coord, coord, coord)
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
  .map(([x, y, z]): P => {
    const l = Math.hypot(x, y, z);
    return [x / l, y / l, z / l];
  });
const collinear = fc
  .tuple(unitDir, fc.array(coord, { minLength: 1, maxLength: 8 }))
  .map(([d, ts]) => ts.map((t): P => [0.3 + t * d[0], -0.2 + t * d[1], 0.1 + t * d[2]]));
const coplanar = fc
  .tuple(unitDir, unitDir, fc.array(fc.tuple(coord, coord), { minLength: 1, maxLength: 8 }))
  .map(([u, v, st]) => st.map(([s, t]): P => [0, 1, 2].map((k) => s * u[k] + t * v[k]) as P));
const onCircle = fc
  .array(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), { minLength: 1, maxLength: 8 })
  .map((as) => as.map((a): P => [Math.cos(a), Math.sin(a), 0.5]));
const onSphere = fc
  .array(unitDir, { minLength: 1, maxLength: 8 })
  .map((ds) => ds.map((d): P => [d[0] + 0.1, d[1], d[2] - 0.3]));
const withDuplicates = general.map((pts) => [...pts, ...pts.slice(0, 3), pts[0]]);
/** Grid points nudged by ~1e-10: nearly degenerate support sets, the hard case for round-off. */
const jitter = fc.double({ min: -1e-10, max: 1e-10, noNaN: true });
const nearGrid = fc.array(
  fc
    .tuple(gridCoord, gridCoord, gridCoord, jitter, jitter, jitter)
    .map(([x, y, z, a, b, c]): P => [x + a, y + b, z + c]),
  { minLength: 1, maxLength: 8 },
);
const anySet = fc.oneof(
  general,
  grid,
  nearGrid,
  collinear,
  coplanar,
  onCircle,
  onSphere,
  withDuplicates,
);
const scale = fc.constantFrom(1e-3, 1, 1e4);

const methods = [
  ["mean", boundingSphereMean],
  ["ritter", boundingSphereRitter],
  ["exact", boundingSphereExact],
] as const;

describe("bounding spheres: known values", () => {
  it("one point has radius 0 at the point", () => {
    for (const [, f] of methods) {
      const s = f(makeBoundingSphere(), [3, -4, 5]);
      expect(s.center).toEqual({ x: 3, y: -4, z: 5 });
      expect(s.radius).toBe(0);
    }
  });

  it("two points give the diametral sphere (exact, Ritter)", () => {
    for (const f of [boundingSphereExact, boundingSphereRitter]) {
      const s = f(makeBoundingSphere(), [1, 2, 3, 5, 2, 3]);
      expect(s.center.x).toBeCloseTo(3, 14);
      expect(s.radius).toBeCloseTo(2, 14);
    }
  });

  it("exact: cube corners give the half diagonal, a square its circumcircle", () => {
    const cube: P[] = [];
    for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) cube.push([x, y, z]);
    const s = boundingSphereExact(makeBoundingSphere(), pack(cube));
    expect(s.radius).toBeCloseTo(Math.sqrt(3), 13);
    const square = boundingSphereExact(makeBoundingSphere(), [0, 0, 7, 2, 0, 7, 2, 2, 7, 0, 2, 7]);
    expect(square.radius).toBeCloseTo(Math.SQRT2, 13);
    expect(square.center.z).toBeCloseTo(7, 13);
  });

  it("exact: regular tetrahedron gives its circumradius; obtuse triangle its longest edge", () => {
    const tet = [1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1];
    expect(boundingSphereExact(makeBoundingSphere(), tet).radius).toBeCloseTo(Math.sqrt(3), 13);
    const obtuse = [0, 0, 0, 10, 0, 0, 5, 1, 0];
    const s = boundingSphereExact(makeBoundingSphere(), obtuse);
    expect(s.radius).toBeCloseTo(5, 13);
    expect(s.center.x).toBeCloseTo(5, 13);
    expect(s.center.y).toBeCloseTo(0, 13);
  });

  it("mean uses the centroid", () => {
    const s = boundingSphereMean(makeBoundingSphere(), [0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4]);
    expect(s.center).toEqual({ x: 1, y: 1, z: 1 });
    expect(s.radius).toBeCloseTo(Math.sqrt(11), 14);
  });

  it("accepts {x, y, z} points with the same result as packed coordinates", () => {
    const r = rng(7);
    const pts = Array.from({ length: 50 }, () => ({ x: r(), y: r(), z: r() }));
    const packed = packPoints(pts);
    for (const [, f] of methods) {
      expect(f(makeBoundingSphere(), pts)).toEqual(f(makeBoundingSphere(), packed));
    }
  });
});

describe("bounding spheres: bad input", () => {
  const bad: [string, ArrayLike<number> | { x: number; y: number; z: number }[]][] = [
    ["empty", []],
    ["empty Float64Array", new Float64Array(0)],
    ["length not a multiple of 3", [1, 2, 3, 4]],
    ["NaN coordinate", [1, Number.NaN, 3]],
    ["infinite coordinate", [0, 0, 0, 1, 2, Number.POSITIVE_INFINITY]],
    ["infinite Vec3", [{ x: 0, y: 0, z: Number.NEGATIVE_INFINITY }]],
  ];
  for (const [name, pts] of bad) {
    it(`rejects ${name} with a CollideError naming "points"`, () => {
      for (const [, f] of methods) {
        let err: unknown;
        try {
          f(makeBoundingSphere(), pts);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(CollideError);
        expect((err as CollideError).code).toBe("invalid_value");
        expect((err as CollideError).field).toBe("points");
      }
    });
  }
});

describe("bounding spheres: properties", () => {
  it("every method contains every point (random and adversarial sets, all scales)", () => {
    fc.assert(
      fc.property(anySet, scale, fc.constantFrom(0, 1e6), (base, s, off) => {
        const pts = base.map((p): P => [p[0] * s + off, p[1] * s - off, p[2] * s + off]);
        for (const [, f] of methods) expectContains(f(makeBoundingSphere(), pack(pts)), pts);
      }),
      { numRuns: 300 },
    );
  });

  it("exact matches the brute-force oracle over all support sets of ≤ 4 points", () => {
    fc.assert(
      fc.property(anySet, scale, (base, s) => {
        const pts = base.map((p): P => [p[0] * s, p[1] * s, p[2] * s]);
        const exact = boundingSphereExact(makeBoundingSphere(), pack(pts));
        const oracle = oracleRadius(pts, 1e-9 * s);
        expect(Math.abs(exact.radius - oracle)).toBeLessThanOrEqual(1e-7 * s);
      }),
      { numRuns: 300 },
    );
  });

  it("exact ≤ Ritter and exact ≤ mean", () => {
    fc.assert(
      fc.property(
        fc.oneof(anySet, fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 60 })),
        scale,
        (base, s) => {
          const p = pack(base.map((q): P => [q[0] * s, q[1] * s, q[2] * s]));
          const e = boundingSphereExact(makeBoundingSphere(), p).radius;
          // Relative round-off, plus the rounding of centres at the coordinates' magnitude.
          let mag = 0;
          for (const v of p) mag = Math.max(mag, Math.abs(v));
          const slackR = 1e-12 * e + 8 * Number.EPSILON * mag;
          expect(e).toBeLessThanOrEqual(
            boundingSphereRitter(makeBoundingSphere(), p).radius + slackR,
          );
          expect(e).toBeLessThanOrEqual(
            boundingSphereMean(makeBoundingSphere(), p).radius + slackR,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is invariant under translation by 1e6 and scales with the points", () => {
    fc.assert(
      fc.property(anySet, scale, unitDir, (base, s, dir) => {
        const pts = base.map((p): P => [p[0] * s, p[1] * s, p[2] * s]);
        const off = dir.map((v) => v * 1e6) as P;
        const moved = pts.map((p): P => [p[0] + off[0], p[1] + off[1], p[2] + off[2]]);
        const unit = base.map((p): P => [p[0], p[1], p[2]]);
        // Rounding of the moved coordinates: about ulp(1e6) per coordinate.
        const tol = 1e-9 * s + 64 * Number.EPSILON * 1e6;
        // Ritter is a heuristic whose choices (ties among axis extremes) follow the rounding
        // of the moved coordinates, so only mean and exact are compared point for point.
        const ritter = boundingSphereRitter(makeBoundingSphere(), pack(moved)).radius;
        const exact = boundingSphereExact(makeBoundingSphere(), pack(moved)).radius;
        expect(ritter).toBeGreaterThanOrEqual(exact - tol);
        expect(ritter).toBeLessThanOrEqual(2 * exact + tol);
        for (const f of [boundingSphereMean, boundingSphereExact]) {
          const a = f(makeBoundingSphere(), pack(pts));
          const b = f(makeBoundingSphere(), pack(moved));
          expect(Math.abs(a.radius - b.radius)).toBeLessThanOrEqual(tol);
          if (f === boundingSphereMean) {
            // The centroid is well conditioned; the minimum sphere's centre is not (near a
            // tie between support sets it moves like the square root of a perturbation), so
            // for it the radius alone is compared.
            expect(Math.abs(b.center.x - off[0] - a.center.x)).toBeLessThanOrEqual(tol);
            expect(Math.abs(b.center.z - off[2] - a.center.z)).toBeLessThanOrEqual(tol);
          }
          const u = f(makeBoundingSphere(), pack(unit));
          expect(Math.abs(a.radius - u.radius * s)).toBeLessThanOrEqual(1e-9 * s);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("is deterministic: the same points give bitwise the same sphere", () => {
    const r = rng(42);
    const p = Float64Array.from({ length: 3000 }, () => r() * 2 - 1);
    const a = boundingSphereExact(makeBoundingSphere(), p);
    boundingSphereExact(
      makeBoundingSphere(),
      Float64Array.from({ length: 300 }, () => r()),
    );
    const b = boundingSphereExact(makeBoundingSphere(), p);
    expect(b).toEqual(a);
  });
});

describe("bounding spheres: extreme magnitudes", () => {
  it("finite, enclosing and scale-exact results for coordinates near 1e-300 and 1e300", () => {
    const r = rng(5);
    const unit: P[] = Array.from({ length: 40 }, () => [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1]);
    const ref = boundingSphereExact(makeBoundingSphere(), pack(unit)).radius;
    for (const s of [1e-300, 1e-160, 1e160, 1e300]) {
      const pts = unit.map((p): P => [p[0] * s, p[1] * s, p[2] * s]);
      for (const [name, f] of methods) {
        const sph = f(makeBoundingSphere(), pack(pts));
        expect(Number.isFinite(sph.radius), `${name} at ${s}`).toBe(true);
        expect(vecFinite(sph.center), `${name} at ${s}`).toBe(true);
        expectContains(sph, pts);
      }
      const exact = boundingSphereExact(makeBoundingSphere(), pack(pts)).radius;
      expect(exact / s).toBeCloseTo(ref, 10);
    }
  });
});

describe("bounding spheres: larger sets", () => {
  it("exact on 20k points inside a ball is contained and within the ball", () => {
    const seed = 2024;
    const r = rng(seed);
    const pts: P[] = [];
    while (pts.length < 20000) {
      const p: P = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
      if (Math.hypot(...p) <= 1) pts.push(p);
    }
    pts.push([1, 0, 0], [-1, 0, 0]);
    const s = boundingSphereExact(makeBoundingSphere(), pack(pts));
    expectContains(s, pts);
    expect(s.radius, `seed ${seed}`).toBeLessThanOrEqual(1 + 1e-12);
    expect(s.radius, `seed ${seed}`).toBeGreaterThanOrEqual(1 - 1e-12);
  });

  it("exact on dense points of a sphere surface (highly cospherical) finds that sphere", () => {
    const seed = 99;
    const r = rng(seed);
    const pts: P[] = [];
    for (let i = 0; i < 5000; i++) {
      const z = r() * 2 - 1;
      const a = r() * 2 * Math.PI;
      const q = Math.sqrt(1 - z * z);
      pts.push([3 + 2 * q * Math.cos(a), -1 + 2 * q * Math.sin(a), 2 * z]);
    }
    const s = boundingSphereExact(makeBoundingSphere(), pack(pts));
    expectContains(s, pts);
    expect(s.radius, `seed ${seed}`).toBeCloseTo(2, 6);
    expect(boundingSphereRitter(makeBoundingSphere(), pack(pts)).radius).toBeGreaterThanOrEqual(
      s.radius * (1 - 1e-12),
    );
  });
});
