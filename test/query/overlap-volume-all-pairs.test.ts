/**
 * overlapVolume for every pair of shape types (issue 14): half-spaces, compounds, solid meshes
 * and surfaces, against independent oracles — hand-derived volumes (a spherical cap, a cut
 * octahedron, a capsule cut across its axis, voxel counts), Monte Carlo with inside predicates
 * written here (no library code), and fast-check properties (both argument orders agree, the
 * overlap is at most either volume, 0 when apart, monotone in a plane's offset), with adversarial
 * poses: a plane through a face, far from the origin, tiny and huge scales.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQueryLines } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import {
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeHeightfield,
  makeRoundedCuboid,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";

const ID: Quat = { x: 0, y: 0, z: 0, w: 1 };
/** The octree tests take seconds of CPU; on the loaded shared machine, many times that. */
const HEAVY_TEST_TIMEOUT = 400_000;
const pose = (x = 0, y = 0, z = 0, rotation: Quat = ID): Isometry => ({
  translation: { x, y, z },
  rotation,
});
const axisAngle = (ax: number, ay: number, az: number, angle: number): Quat => {
  const l = Math.hypot(ax, ay, az);
  const s = Math.sin(angle / 2) / l;
  return { x: ax * s, y: ay * s, z: az * s, w: Math.cos(angle / 2) };
};
const v3 = (x: number, y: number, z: number) => ({ x, y, z });
/** The half-space n·p ≤ d for any nonzero n (both scaled to a unit normal). */
const plane = (nx: number, ny: number, nz: number, d: number) => {
  const l = Math.hypot(nx, ny, nz);
  return makeHalfSpace(v3(nx / l, ny / l, nz / l), d / l);
};

/** Seeded PRNG (mulberry32). */
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

/** Rotates (x, y, z) by the inverse of q (world → local). */
function toLocal(q: Quat, x: number, y: number, z: number): [number, number, number] {
  const qx = -q.x;
  const qy = -q.y;
  const qz = -q.z;
  const qw = q.w;
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  return [
    x + qw * tx + (qy * tz - qz * ty),
    y + qw * ty + (qz * tx - qx * tz),
    z + qw * tz + (qx * ty - qy * tx),
  ];
}

type Inside = (x: number, y: number, z: number) => boolean;

/** The world predicate of a local predicate at a pose. */
function posed(inside: Inside, p: Isometry): Inside {
  return (x, y, z) => {
    const [lx, ly, lz] = toLocal(
      p.rotation,
      x - p.translation.x,
      y - p.translation.y,
      z - p.translation.z,
    );
    return inside(lx, ly, lz);
  };
}

/** Monte Carlo volume of {a ∧ b} in the box [lo, hi]: estimate and its standard deviation. */
function monteCarlo(
  a: Inside,
  b: Inside,
  lo: [number, number, number],
  hi: [number, number, number],
  n: number,
  seed: number,
): { volume: number; sigma: number } {
  const r = rng(seed);
  const box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const x = lo[0] + r() * (hi[0] - lo[0]);
    const y = lo[1] + r() * (hi[1] - lo[1]);
    const z = lo[2] + r() * (hi[2] - lo[2]);
    if (a(x, y, z) && b(x, y, z)) hits++;
  }
  const p = hits / n;
  return { volume: p * box, sigma: box * Math.sqrt((p * (1 - p)) / n) };
}

/** The truth lies within the answer's bound, allowing the oracle's own uncertainty. */
function expectWithin(
  r: { volume: number; errorBound: number },
  truth: number,
  slack = 1e-12 * Math.max(1, Math.abs(truth)),
): void {
  expect(Math.abs(r.volume - truth)).toBeLessThanOrEqual(r.errorBound + slack);
}

// --- Shapes with plain predicates (the oracle's own) -----------------------------------------

const insideBox =
  (hx: number, hy: number, hz: number): Inside =>
  (x, y, z) =>
    Math.abs(x) <= hx && Math.abs(y) <= hy && Math.abs(z) <= hz;
const insideBall =
  (r: number): Inside =>
  (x, y, z) =>
    x * x + y * y + z * z <= r * r;
const insidePlane =
  (nx: number, ny: number, nz: number, d: number): Inside =>
  (x, y, z) =>
    nx * x + ny * y + nz * z <= d;

/** Closed octahedron |x| + |y| + |z| ≤ s as a mesh (outward winding unless `inward`). */
function octahedron(s: number, inward = false) {
  const v = [s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s];
  const idx: number[] = [];
  for (const x of [0, 1])
    for (const y of [2, 3])
      for (const z of [4, 5]) {
        // Outward when (x, y, z) turns counter-clockwise seen from outside.
        const sign = (x === 0 ? 1 : -1) * (y === 2 ? 1 : -1) * (z === 4 ? 1 : -1);
        const tri = sign > 0 ? [x, y, z] : [x, z, y];
        idx.push(...(inward ? [tri[0], tri[2], tri[1]] : tri));
      }
  return makeTriangleMesh(v, idx, "", { solid: true });
}
const insideOctahedron =
  (s: number): Inside =>
  (x, y, z) =>
    Math.abs(x) + Math.abs(y) + Math.abs(z) <= s;

/**
 * The surface of a union of unit voxels (cells [i, i+1]×[j, j+1]×[k, k+1]) as a closed mesh,
 * each exposed face two outward triangles. The voxels must not meet along an edge only.
 */
function voxelMesh(voxels: [number, number, number][]) {
  const key = (i: number, j: number, k: number) => `${i},${j},${k}`;
  const set = new Set(voxels.map(([i, j, k]) => key(i, j, k)));
  const verts: number[] = [];
  const index = new Map<string, number>();
  const vid = (x: number, y: number, z: number) => {
    const k = key(x, y, z);
    let id = index.get(k);
    if (id === undefined) {
      id = verts.length / 3;
      verts.push(x, y, z);
      index.set(k, id);
    }
    return id;
  };
  const idx: number[] = [];
  for (const [i, j, k] of voxels) {
    for (let axis = 0; axis < 3; axis++) {
      for (const side of [0, 1]) {
        const n = [0, 0, 0];
        n[axis] = side ? 1 : -1;
        if (set.has(key(i + n[0], j + n[1], k + n[2]))) continue;
        // The face's corners: the axis fixed, the other two (u, w) in counter-clockwise order
        // seen from outside.
        const u = (axis + 1) % 3;
        const w = (axis + 2) % 3;
        const corner = (a: number, b: number) => {
          const p = [i, j, k];
          p[axis] += side;
          p[u] += a;
          p[w] += b;
          return vid(p[0], p[1], p[2]);
        };
        const q = side
          ? [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)]
          : [corner(0, 0), corner(0, 1), corner(1, 1), corner(1, 0)];
        idx.push(q[0], q[1], q[2], q[0], q[2], q[3]);
      }
    }
  }
  return makeTriangleMesh(verts, idx, "", { solid: true });
}
const insideVoxels =
  (voxels: [number, number, number][]): Inside =>
  (x, y, z) =>
    voxels.some(
      ([i, j, k]) => x >= i && x <= i + 1 && y >= j && y <= j + 1 && z >= k && z <= k + 1,
    );

/** A U of five voxels (not convex): two columns on a base. */
const U_VOXELS: [number, number, number][] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [0, 1, 0],
  [2, 1, 0],
];

const capVolume = (r: number, h: number) => (Math.PI * h * h * (3 * r - h)) / 3;

describe("overlapVolume: half-space × half-space", () => {
  it("Infinity where they share an unbounded region, 0 when opposite and touching or apart", () => {
    const up = makeHalfSpace(v3(0, 1, 0), 0);
    const down = makeHalfSpace(v3(0, -1, 0), 0);
    const tilted = plane(1, 1, 0, 0);
    const cases: [Shape, Isometry, Shape, Isometry, number][] = [
      [up, pose(), up, pose(5, 7, 1), Infinity], // equal normals: nested
      [up, pose(), tilted, pose(), Infinity], // crossing planes
      [up, pose(0, 1), down, pose(), Infinity], // opposite, a slab of thickness 1
      [up, pose(), down, pose(), 0], // opposite, touching: a plane has no volume
      [up, pose(), down, pose(0, 2), 0], // opposite with a gap
      [up, pose(0, 0, 0, axisAngle(1, 0, 0, 0.3)), down, pose(), Infinity], // turned: not opposite
    ];
    for (const [a, pa, b, pb, want] of cases) {
      expect(overlapVolume(a, pa, b, pb)).toEqual({ volume: want, errorBound: 0 });
      expect(overlapVolume(b, pb, a, pa)).toEqual({ volume: want, errorBound: 0 });
    }
  });

  it("collide query prints the unbounded volume as the largest double (JSON has no Infinity)", () => {
    const line = JSON.stringify({
      op: "volume",
      a: { type: "halfspace", normal: [0, 1, 0], offset: 0 },
      b: { type: "halfspace", normal: [1, 0, 0], offset: 0 },
    });
    const { lines, failed } = answerQueryLines(line);
    expect(failed).toBe(false);
    expect(JSON.parse(lines[0]).result).toEqual({ volume: Number.MAX_VALUE, errorBound: 0 });
  });
});

describe("overlapVolume: convex × half-space", () => {
  it("a ball: the spherical cap, both orders bit for bit, at any scale and distance (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1.2, max: 1.2, noNaN: true }),
        fc.constantFrom(1e-6, 1, 1e6),
        fc.constantFrom(0, 1, 1e6),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        (t, scale, far, angle) => {
          const r = scale;
          // A plane with normal n at signed distance t·r from the ball's centre c.
          const n = v3(Math.cos(angle), Math.sin(angle), 0);
          const c = v3(far * scale, -far * scale, 0.5 * far * scale);
          const offset = n.x * c.x + n.y * c.y + n.z * c.z + t * r;
          const h = makeHalfSpace(n, offset);
          const s = makeSphere(r);
          const ab = overlapVolume(s, pose(c.x, c.y, c.z), h, pose());
          const ba = overlapVolume(h, pose(), s, pose(c.x, c.y, c.z));
          expect(ba).toEqual(ab);
          const truth =
            t >= 1 ? (4 / 3) * Math.PI * r ** 3 : t <= -1 ? 0 : capVolume(r, r * (1 + t));
          // The plane's offset itself carries a rounding of ulp(offset): a cap of that height.
          const planeSlack = Math.PI * r * r * 4 * 2 ** -52 * Math.abs(offset);
          expectWithin(ab, truth, 1e-12 * truth + planeSlack);
          expect(ab.errorBound).toBeLessThanOrEqual(
            1e-6 * (4 / 3) * Math.PI * r ** 3 + 64 * planeSlack,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a box: half through its centre, all or nothing through a face, a corner cut exactly", () => {
    const box = makeCuboid(v3(1, 2, 3));
    const at = pose(10, -20, 30);
    // Through the centre along y: half of 48.
    expectWithin(overlapVolume(box, at, plane(0, 1, 0, -20), pose()), 24);
    // A plane holding the top face: the whole box; the bottom face: nothing.
    expectWithin(overlapVolume(box, at, plane(0, 1, 0, -18), pose()), 48);
    expectWithin(overlapVolume(plane(0, 1, 0, -22), pose(), box, at), 0);
    // The corner (x, y, z) ≥ (10 + 1, −20 + 2, 30 + 3) − s cut by x + y + z ≥ …: a tetrahedron
    // of legs s = 0.5: s³/6 above the plane, the rest below.
    const corner = 11 - 18 + 33;
    const r = overlapVolume(box, at, plane(-1, -1, -1, -(corner - 0.5)), pose());
    expectWithin(r, 0.5 ** 3 / 6, 1e-12);
  });

  it(
    "a capsule cut across its axis: a cylinder slice plus a hemisphere (closed form)",
    () => {
      const r = 0.7;
      const half = 1.3;
      const cap = makeCapsule(v3(0, -half, 0), v3(0, half, 0), r);
      for (const t of [-2.5, -1.6, -0.4, 0, 0.9, 1.5, 3]) {
        const h = makeHalfSpace(v3(0, 1, 0), t);
        // Below y = t: the lower hemisphere's part, the cylinder's, the upper hemisphere's.
        const lowerCap =
          t <= -half - r ? 0 : t >= -half ? (2 / 3) * Math.PI * r ** 3 : capVolume(r, t + half + r);
        const cyl = Math.PI * r * r * Math.max(0, Math.min(t, half) + half);
        const upperCap =
          t <= half
            ? 0
            : t >= half + r
              ? (2 / 3) * Math.PI * r ** 3
              : (2 / 3) * Math.PI * r ** 3 - capVolume(r, half + r - t);
        const truth = lowerCap + cyl + upperCap;
        const a = overlapVolume(cap, pose(0, 0, 0, axisAngle(1, 2, 3, 0)), h, pose());
        const b = overlapVolume(h, pose(), cap, pose());
        expectWithin(a, truth);
        expectWithin(b, truth);
        expect(a.errorBound).toBeLessThanOrEqual(1e-3 * truth + 1e-12);
      }
    },
    HEAVY_TEST_TIMEOUT,
  );

  it("rotated cylinder and rounded box against a tilted plane: Monte Carlo (10^6 samples)", () => {
    const q = axisAngle(1, -2, 0.5, 0.8);
    const n = v3(0.3, 0.9, -0.2);
    const ln = Math.hypot(n.x, n.y, n.z);
    const h = plane(n.x, n.y, n.z, 0.2);
    const inPlane = insidePlane(n.x / ln, n.y / ln, n.z / ln, 0.2 / ln);
    const cyl = makeCylinder(0.8, 0.5);
    const cylIn: Inside = (x, y, z) => Math.abs(y) <= 0.8 && x * x + z * z <= 0.25;
    const rb = makeRoundedCuboid(v3(0.4, 0.3, 0.2), 0.25);
    const rbIn: Inside = (x, y, z) =>
      Math.hypot(
        Math.max(0, Math.abs(x) - 0.4),
        Math.max(0, Math.abs(y) - 0.3),
        Math.max(0, Math.abs(z) - 0.2),
      ) <= 0.25;
    for (const [s, inside] of [
      [cyl, cylIn],
      [rb, rbIn],
    ] as const) {
      const p = pose(0.1, -0.2, 0.05, q);
      const r = overlapVolume(s, p, h, pose());
      const mc = monteCarlo(posed(inside, p), inPlane, [-1, -1.1, -1], [1.1, 1, 1], 1_000_000, 7);
      expect(Math.abs(r.volume - mc.volume)).toBeLessThanOrEqual(r.errorBound + 4.5 * mc.sigma);
    }
  });
});

describe("overlapVolume: solid mesh × half-space (exact)", () => {
  it("an octahedron cut at height t: 4/3 − (2/3)(1 − t)³, either winding, far away and at any scale", () => {
    for (const scale of [1e-6, 1, 1e6]) {
      for (const inward of [false, true]) {
        const mesh = octahedron(scale, inward);
        for (const far of [0, 1e6]) {
          for (const t of [-1.5, -1, -0.3, 0, 0.5, 1, 2]) {
            const at = pose(far * scale, 0, 0, axisAngle(0, 0, 1, 0));
            const h = makeHalfSpace(v3(0, 0, 1), t * scale);
            const u = Math.min(1, Math.max(-1, t));
            // Below z = u·s: the upper pyramid above it removed (or the lower one kept).
            const truth =
              (u >= 0 ? 4 / 3 - (2 / 3) * (1 - u) ** 3 : (2 / 3) * (1 + u) ** 3) * scale ** 3;
            const r = overlapVolume(mesh, at, h, pose());
            expectWithin(r, truth, 1e-12 * scale ** 3);
            // Beside the roundings at the mesh's size, the plane's at the pose's magnitude (far·scale)
            // times the mesh's area (about 3.5 scale²).
            expect(r.errorBound).toBeLessThanOrEqual(
              1e-9 * scale ** 3 + 1e-13 * scale ** 2 * far * scale,
            );
            expect(overlapVolume(h, pose(), mesh, at)).toEqual(r);
          }
        }
      }
    }
  });

  it("a U of voxels (not convex) under a tilted plane: Monte Carlo, and both orders agree", () => {
    const mesh = voxelMesh(U_VOXELS);
    const q = axisAngle(0.3, 1, -0.4, 0.7);
    const p = pose(0.2, 0.1, -0.3, q);
    const h = plane(0.2, 1, 0.1, 1.1);
    const r = overlapVolume(mesh, p, h, pose());
    expect(overlapVolume(h, pose(), mesh, p)).toEqual(r);
    const ln = Math.hypot(0.2, 1, 0.1);
    const mc = monteCarlo(
      posed(insideVoxels(U_VOXELS), p),
      insidePlane(0.2 / ln, 1 / ln, 0.1 / ln, 1.1 / ln),
      [-3, -3, -3],
      [4, 4, 4],
      1_000_000,
      3,
    );
    expect(Math.abs(r.volume - mc.volume)).toBeLessThanOrEqual(r.errorBound + 4.5 * mc.sigma);
    // Below every voxel: all five; above: none.
    expectWithin(overlapVolume(mesh, pose(), makeHalfSpace(v3(0, 1, 0), 2), pose()), 5);
    expectWithin(overlapVolume(mesh, pose(), makeHalfSpace(v3(0, 1, 0), 0), pose()), 0);
    // Through the arms' base (y ≤ 1): the three base voxels.
    expectWithin(overlapVolume(mesh, pose(), makeHalfSpace(v3(0, 1, 0), 1), pose()), 3);
  });
});

describe("overlapVolume: compounds (the union of the children)", () => {
  const cube = makeCuboid(v3(0.5, 0.5, 0.5));
  it("overlapping children count once: two unit cubes offset by 0.5 under planes and in a box", () => {
    const c = makeCompound([
      { shape: cube, pose: pose() },
      { shape: cube, pose: pose(0.5) },
    ]);
    // The union is [−0.5, 1] × [−0.5, 0.5]²: 1.5 (not the sum 2).
    const all = overlapVolume(c, pose(), makeHalfSpace(v3(0, 1, 0), 5), pose());
    expectWithin(all, 1.5);
    expect(all.errorBound).toBeLessThanOrEqual(1.5e-3);
    expectWithin(overlapVolume(makeHalfSpace(v3(0, 1, 0), 0), pose(), c, pose()), 0.75);
    // A big box holding x ≥ 0: the union's [0, 1] part, 1.
    const big = makeCuboid(v3(2, 2, 2));
    expectWithin(overlapVolume(c, pose(), big, pose(2)), 1);
    expectWithin(overlapVolume(big, pose(2), c, pose()), 1);
  });

  it("disjoint children: the sum of exact child volumes; a flat child adds nothing", () => {
    const c = makeCompound([
      { shape: cube, pose: pose() },
      { shape: cube, pose: pose(2) },
      { shape: makeTriangle(v3(0, 0, 0), v3(3, 0, 0), v3(0, 3, 0)), pose: pose() },
    ]);
    const r = overlapVolume(c, pose(), makeCuboid(v3(2, 0.25, 2)), pose(1));
    expect(r.volume).toBeCloseTo(2 * 0.5, 12);
    expect(r.errorBound).toBeLessThan(1e-9);
    const hs = overlapVolume(makeHalfSpace(v3(1, 0, 0), 2), pose(), c, pose());
    expect(hs.volume).toBeCloseTo(1.5, 12);
    expect(hs.errorBound).toBeLessThan(1e-9);
  });

  it(
    "overlapping rotated children × sphere, × compound, × solid mesh: Monte Carlo",
    () => {
      const q = axisAngle(1, 1, 0, 0.6);
      const c = makeCompound([
        { shape: makeCuboid(v3(0.6, 0.3, 0.4)), pose: pose(0, 0, 0, q) },
        { shape: makeSphere(0.45), pose: pose(0.4, 0.2, 0) },
        { shape: makeCylinder(0.5, 0.25), pose: pose(-0.2, 0.1, 0.2, axisAngle(0, 0, 1, 1.2)) },
      ]);
      const cIn: Inside = (x, y, z) =>
        posed(insideBox(0.6, 0.3, 0.4), pose(0, 0, 0, q))(x, y, z) ||
        posed(insideBall(0.45), pose(0.4, 0.2, 0))(x, y, z) ||
        posed(
          (a, b, d) => Math.abs(b) <= 0.5 && a * a + d * d <= 0.0625,
          pose(-0.2, 0.1, 0.2, axisAngle(0, 0, 1, 1.2)),
        )(x, y, z);
      const lo: [number, number, number] = [-1.2, -1.2, -1.2];
      const hi: [number, number, number] = [1.2, 1.2, 1.2];
      const ball = makeSphere(0.6);
      const pb = pose(0.3, -0.1, 0.1);
      const oct = octahedron(0.9);
      const po = pose(-0.1, 0.2, 0, axisAngle(0, 1, 0, 0.4));
      const cases: [Shape, Isometry, Inside][] = [
        [ball, pb, posed(insideBall(0.6), pb)],
        [
          c,
          pose(0.3, 0.2, -0.1, axisAngle(1, 0, 0, 1)),
          posed(cIn, pose(0.3, 0.2, -0.1, axisAngle(1, 0, 0, 1))),
        ],
        [oct, po, posed(insideOctahedron(0.9), po)],
      ];
      for (const [s, p, inside] of cases) {
        const ab = overlapVolume(c, pose(), s, p, { relativeTolerance: 3e-3 });
        const ba = overlapVolume(s, p, c, pose(), { relativeTolerance: 3e-3 });
        const mc = monteCarlo(cIn, inside, lo, hi, 1_000_000, 11);
        expect(Math.abs(ab.volume - mc.volume)).toBeLessThanOrEqual(ab.errorBound + 4.5 * mc.sigma);
        expect(Math.abs(ba.volume - mc.volume)).toBeLessThanOrEqual(ba.errorBound + 4.5 * mc.sigma);
        expect(Math.abs(ab.volume - ba.volume)).toBeLessThanOrEqual(ab.errorBound + ba.errorBound);
      }
    },
    HEAVY_TEST_TIMEOUT,
  );
});

describe("overlapVolume: solid meshes (octree)", () => {
  it(
    "the voxel U × a ball and × a rotated box: Monte Carlo; the octahedron × a cube: within the bound of a closed form",
    () => {
      const mesh = voxelMesh(U_VOXELS);
      const inU = insideVoxels(U_VOXELS);
      const ball = makeSphere(0.9);
      const pb = pose(1.5, 1.2, 0.5);
      const r = overlapVolume(mesh, pose(), ball, pb);
      const mc = monteCarlo(
        inU,
        posed(insideBall(0.9), pb),
        [0.5, 0.2, -0.5],
        [2.5, 2.2, 1.5],
        1_000_000,
        5,
      );
      expect(Math.abs(r.volume - mc.volume)).toBeLessThanOrEqual(r.errorBound + 4.5 * mc.sigma);
      expect(r.errorBound).toBeLessThanOrEqual(1e-3 * r.volume);
      const q = axisAngle(1, 2, 3, 0.5);
      const pbox = pose(1, 0.8, 0.5, q);
      const box = makeCuboid(v3(1.2, 0.4, 0.6));
      const rb = overlapVolume(box, pbox, mesh, pose(), { relativeTolerance: 1e-2 });
      const mcb = monteCarlo(
        inU,
        posed(insideBox(1.2, 0.4, 0.6), pbox),
        [-0.5, -0.5, -1],
        [3, 2.5, 2],
        1_000_000,
        6,
      );
      expect(Math.abs(rb.volume - mcb.volume)).toBeLessThanOrEqual(rb.errorBound + 4.5 * mcb.sigma);
      // The octahedron |x|+|y|+|z| ≤ 1 in the cube [0, 2]³: its positive octant, 1/6.
      const o = overlapVolume(octahedron(1), pose(), makeCuboid(v3(1, 1, 1)), pose(1, 1, 1), {
        relativeTolerance: 1e-2,
      });
      expectWithin(o, 1 / 6);
    },
    HEAVY_TEST_TIMEOUT,
  );

  it(
    "two solid meshes: the U and a copy shifted by one share 2 voxels",
    () => {
      const mesh = voxelMesh(U_VOXELS);
      // Shifted by one along x: (1,0,0), (2,0,0), (3,0,0), (1,1,0), (3,1,0); shared: (1,0,0), (2,0,0).
      const r = overlapVolume(mesh, pose(), mesh, pose(1), { relativeTolerance: 1e-2 });
      expectWithin(r, 2, 1e-9);
    },
    HEAVY_TEST_TIMEOUT,
  );

  it("at the cell cap the answer is coarser but its bound still holds", () => {
    const mesh = octahedron(1);
    const truth = (4 / 3) * (1 / 8); // the box [0, 5]³ holds the octahedron's positive octant
    for (const maxCells of [1, 100, 5000]) {
      const r = overlapVolume(mesh, pose(), makeCuboid(v3(2.5, 2.5, 2.5)), pose(2.5, 2.5, 2.5), {
        maxCells,
      });
      expectWithin(r, truth);
    }
  });
});

describe("overlapVolume: surfaces have no volume", () => {
  it("a triangle, a surface mesh and a heightfield give 0 with anything, half-spaces included", () => {
    const hf = makeHeightfield({
      rows: 3,
      cols: 3,
      heights: [0, 1, 0, 1, 2, 1, 0, 1, 0],
      scale: v3(1, 1, 1),
    });
    const surface = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const tri = makeTriangle(v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0));
    const others: Shape[] = [
      makeCuboid(v3(3, 3, 3)),
      makeHalfSpace(v3(0, 1, 0), 10),
      octahedron(3),
      makeCompound([{ shape: makeSphere(3), pose: pose() }]),
      hf,
    ];
    for (const s of [hf, surface, tri]) {
      for (const o of others) {
        expect(overlapVolume(s, pose(), o, pose())).toEqual({ volume: 0, errorBound: 0 });
        expect(overlapVolume(o, pose(), s, pose())).toEqual({ volume: 0, errorBound: 0 });
      }
    }
  });
});

describe("overlapVolume: properties over every solid kind (fast-check)", () => {
  const kinds: { shape: Shape; volume: number }[] = [
    { shape: makeSphere(0.7), volume: (4 / 3) * Math.PI * 0.343 },
    { shape: makeCuboid(v3(0.5, 0.4, 0.3)), volume: 0.48 },
    { shape: octahedron(0.8), volume: (4 / 3) * 0.512 },
    {
      shape: makeCompound([
        { shape: makeCuboid(v3(0.5, 0.2, 0.2)), pose: pose() },
        { shape: makeCuboid(v3(0.2, 0.5, 0.2)), pose: pose() },
      ]),
      // A cross of two boxes sharing their 0.4 × 0.4 × 0.4 middle.
      volume: 0.4 * 0.4 * 1 * 2 - 0.4 * 0.4 * 0.4,
    },
    { shape: voxelMesh([[0, 0, 0]]), volume: 1 },
  ];
  // An absolute floor too: a barely overlapping pair would refine its tiny volume to the cap.
  const opts = { relativeTolerance: 5e-2, tolerance: 1e-3 };
  it(
    "both orders agree within the bounds, the overlap is at most either volume, 0 when apart",
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: kinds.length - 1 }),
          fc.integer({ min: 0, max: kinds.length - 1 }),
          fc.tuple(
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
            fc.double({ min: -1, max: 1, noNaN: true }),
          ),
          fc.double({ min: 0, max: 3, noNaN: true }),
          (i, j, [x, y, z], angle) => {
            const a = kinds[i];
            const b = kinds[j];
            const pb = pose(x, y, z, axisAngle(1, 0.5, -0.3, angle));
            const ab = overlapVolume(a.shape, pose(), b.shape, pb, opts);
            const ba = overlapVolume(b.shape, pb, a.shape, pose(), opts);
            expect(Math.abs(ab.volume - ba.volume)).toBeLessThanOrEqual(
              ab.errorBound + ba.errorBound + 1e-12,
            );
            expect(ab.volume - ab.errorBound).toBeLessThanOrEqual(
              Math.min(a.volume, b.volume) + 1e-9,
            );
            expect(ab.volume).toBeGreaterThanOrEqual(0);
            const apart = overlapVolume(a.shape, pose(), b.shape, pose(x + 10, y, z), opts);
            expect(apart).toEqual({ volume: 0, errorBound: 0 });
          },
        ),
        { numRuns: 20 },
      );
    },
    HEAVY_TEST_TIMEOUT,
  );

  it("grows with the offset of a half-space (monotone), from 0 to the whole volume", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: kinds.length - 1 }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (i, d, step) => {
          const k = kinds[i];
          const lo = overlapVolume(k.shape, pose(), plane(0.3, -0.8, 0.5, d), pose(), opts);
          const hi = overlapVolume(plane(0.3, -0.8, 0.5, d + step), pose(), k.shape, pose(), opts);
          expect(lo.volume - lo.errorBound).toBeLessThanOrEqual(hi.volume + hi.errorBound + 1e-12);
          const all = overlapVolume(k.shape, pose(), plane(0.3, -0.8, 0.5, 10), pose(), opts);
          expectWithin(all, k.volume, 1e-9);
          expect(overlapVolume(k.shape, pose(), plane(0.3, -0.8, 0.5, -10), pose(), opts)).toEqual({
            volume: 0,
            errorBound: 0,
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("overlapVolume: scale and overflow", () => {
  it(
    "a compound × ball scales as s³ from 1e-6 to 1e6 (each answer within the other's bound)",
    () => {
      const at = (k: number) => {
        const c = makeCompound([
          { shape: makeCuboid(v3(0.5 * k, 0.2 * k, 0.2 * k)), pose: pose() },
          { shape: makeCuboid(v3(0.2 * k, 0.5 * k, 0.2 * k)), pose: pose(0.1 * k) },
        ]);
        return overlapVolume(c, pose(), makeSphere(0.45 * k), pose(0.2 * k, 0.1 * k, 0.05 * k), {
          relativeTolerance: 1e-2,
        });
      };
      const unit = at(1);
      for (const k of [1e-6, 1e6]) {
        const r = at(k);
        const k3 = k * k * k;
        expect(Math.abs(r.volume / k3 - unit.volume)).toBeLessThanOrEqual(
          r.errorBound / k3 + unit.errorBound + 1e-9 * unit.volume,
        );
      }
    },
    HEAVY_TEST_TIMEOUT,
  );

  it("a volume beyond the doubles is refused by name, never Infinity (half-spaces aside)", () => {
    const up = makeHalfSpace(v3(0, 1, 0), 0);
    for (const [a, b] of [
      [makeSphere(1e200), up],
      [makeSphere(1e200), makeSphere(1e200)],
      [makeCompound([{ shape: makeCuboid(v3(1e120, 1e120, 1e120)), pose: pose() }]), up],
    ] as [Shape, Shape][]) {
      // Two balls are refused by the lens's own check (`sphereSphereIntersection`, naming the
      // smaller ball's radius: "a.radius is too large: … overflows a double"), the rest by the
      // overlap volume's ("… too large for a finite overlap volume").
      const refused =
        /(radius|shape|children\[0\]|a|b)\S* is too large(: the intersection| for a finite overlap volume)/;
      expect(() => overlapVolume(a, pose(), b, pose())).toThrow(refused);
      expect(() => overlapVolume(b, pose(), a, pose())).toThrow(refused);
    }
  });
});
