/**
 * overlapVolume against independent oracles: hand-derived volumes (two unit cubes offset by
 * 0.5; a cube turned 45° about z in another: the octagonal prism; a ball and a box; the
 * Steinmetz bicylinder 16r³/3), a grid quadrature of the ball–box closed form, Monte Carlo with
 * 10^7 samples and plain inside predicates written here, and the adaptive method's bound
 * checked against exact answers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ballBoxVolume } from "../../src/geometry/ball-box-volume.js";
import {
  clipPolytopeFaces,
  polytopeFacesVolume,
  tetrahedronFaces,
  tetrahedronFractionBelow,
} from "../../src/geometry/polytope-volume.js";
import { answerQueryLines } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import { sphereSphereIntersection } from "../../src/query/volume.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import { axisAngle, pose } from "../support/pose.js";

const unitCube = () => makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
const cubeHull = (h: number) => {
  const p: number[] = [];
  for (let k = 0; k < 8; k++) p.push(k & 1 ? h : -h, k & 2 ? h : -h, k & 4 ? h : -h);
  return makeConvexPolyhedron(p);
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

/** Rotates (x, y, z) by the inverse of q (world → local), into out. */
function toLocal(out: number[], q: Quat, x: number, y: number, z: number): void {
  // v' = q* v q: rotation by the conjugate.
  const qx = -q.x;
  const qy = -q.y;
  const qz = -q.z;
  const qw = q.w;
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
}

type Inside = (x: number, y: number, z: number) => boolean;

/** Plain inside predicates in the shape's local frame (the oracle's own, no library code). */
const insideCylinder =
  (h: number, r: number): Inside =>
  (x, y, z) =>
    Math.abs(y) <= h && x * x + z * z <= r * r;
const insideCapsule =
  (h: number, r: number): Inside =>
  (x, y, z) => {
    const cy = Math.max(-h, Math.min(h, y));
    return x * x + (y - cy) ** 2 + z * z <= r * r;
  };
const insideCone =
  (h: number, r: number): Inside =>
  (x, y, z) =>
    y >= -h && y <= h && 2 * h * Math.hypot(x, z) <= r * (h - y);
const insideBox =
  (hx: number, hy: number, hz: number): Inside =>
  (x, y, z) =>
    Math.abs(x) <= hx && Math.abs(y) <= hy && Math.abs(z) <= hz;

/** Monte Carlo volume of A ∩ B over the box [lo, hi]³ with n samples: estimate and σ. */
function monteCarlo(
  inA: Inside,
  poseA: Isometry,
  inB: Inside,
  poseB: Isometry,
  lo: number,
  hi: number,
  n: number,
  seed: number,
): { volume: number; sigma: number } {
  const random = rng(seed);
  const l = [0, 0, 0];
  let hits = 0;
  const ta = poseA.translation;
  const tb = poseB.translation;
  for (let i = 0; i < n; i++) {
    const x = lo + (hi - lo) * random();
    const y = lo + (hi - lo) * random();
    const z = lo + (hi - lo) * random();
    toLocal(l, poseA.rotation, x - ta.x, y - ta.y, z - ta.z);
    if (!inA(l[0], l[1], l[2])) continue;
    toLocal(l, poseB.rotation, x - tb.x, y - tb.y, z - tb.z);
    if (inB(l[0], l[1], l[2])) hits++;
  }
  const boxVolume = (hi - lo) ** 3;
  const p = hits / n;
  return { volume: p * boxVolume, sigma: boxVolume * Math.sqrt((p * (1 - p)) / n) };
}

describe("overlapVolume: polytopes (exact)", () => {
  it("two unit cubes offset by 0.5 overlap in 0.5", () => {
    const r = overlapVolume(unitCube(), pose(), unitCube(), pose(0.5));
    expect(r.volume).toBeCloseTo(0.5, 14);
    expect(r.errorBound).toBe(0);
    // The same with hulls, and a hull with a box.
    expect(overlapVolume(cubeHull(0.5), pose(), cubeHull(0.5), pose(0, 0.5)).volume).toBeCloseTo(
      0.5,
      14,
    );
    expect(overlapVolume(cubeHull(0.5), pose(), unitCube(), pose(0, 0, -0.5)).volume).toBeCloseTo(
      0.5,
      14,
    );
  });

  it("errorBound is 0 only when the arithmetic was exact, and covers the rounding otherwise", () => {
    // Dyadic offsets: every sum and product exact.
    expect(overlapVolume(unitCube(), pose(), unitCube(), pose(0.5, 0.25, -0.125))).toEqual({
      volume: 0.5 * 0.75 * 0.875,
      errorBound: 0,
    });
    // (1 − 0.3)(1 − 0.1)(1 − 0.7) with these doubles: 0.18900000000000003 is 7.2e-19 off
    // (exact rationals, by hand); the bound covers it and stays at the rounding level.
    const r = overlapVolume(unitCube(), pose(), unitCube(), pose(0.3, 0.1, 0.7));
    expect(r.volume).toBe(0.18900000000000003);
    expect(r.errorBound).toBeGreaterThanOrEqual(7.3e-19);
    expect(r.errorBound).toBeLessThan(1e-14);
    // The lead's finding: the rotated case is 2 ulps off 2(√2 − 1); errorBound no longer says 0.
    const q = axisAngle(0, 0, 1, Math.PI / 4);
    const o = overlapVolume(unitCube(), pose(), unitCube(), pose(0, 0, 0, q));
    expect(o.errorBound).toBeGreaterThanOrEqual(Math.abs(o.volume - 2 * (Math.SQRT2 - 1)));
    expect(o.errorBound).toBeLessThan(1e-10);
  });

  it("a cube turned 45° about z inside another: the octagonal prism 2(√2 − 1)", () => {
    const q = axisAngle(0, 0, 1, Math.PI / 4);
    const exact = 2 * (Math.SQRT2 - 1);
    expect(overlapVolume(unitCube(), pose(), unitCube(), pose(0, 0, 0, q)).volume).toBeCloseTo(
      exact,
      13,
    );
    expect(
      overlapVolume(cubeHull(0.5), pose(), cubeHull(0.5), pose(0, 0, 0, q)).volume,
    ).toBeCloseTo(exact, 13);
    // Far from the origin, both moved together.
    const far = 1e5;
    expect(
      overlapVolume(unitCube(), pose(far, -far, far), unitCube(), pose(far, -far, far, q)).volume,
    ).toBeCloseTo(exact, 8);
  });

  it("disjoint, touching and nested polytopes", () => {
    expect(overlapVolume(unitCube(), pose(), unitCube(), pose(2)).volume).toBe(0);
    expect(overlapVolume(unitCube(), pose(), unitCube(), pose(1)).volume).toBeCloseTo(0, 14);
    const small = makeCuboid({ x: 0.1, y: 0.2, z: 0.3 });
    expect(overlapVolume(unitCube(), pose(), small, pose(0.1, 0.1, 0.1)).volume).toBeCloseTo(
      0.2 * 0.4 * 0.6,
      14,
    );
    expect(overlapVolume(small, pose(0.1, 0.1, 0.1), unitCube(), pose()).volume).toBeCloseTo(
      0.2 * 0.4 * 0.6,
      14,
    );
  });

  it("two boxes offset on every axis: the product of the overlaps (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.double({ min: 0.01, max: 3, noNaN: true }),
          fc.double({ min: 0.01, max: 3, noNaN: true }),
          fc.double({ min: 0.01, max: 3, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: 0.01, max: 3, noNaN: true }),
          fc.double({ min: 0.01, max: 3, noNaN: true }),
          fc.double({ min: 0.01, max: 3, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: -5, max: 5, noNaN: true }),
          fc.double({ min: -5, max: 5, noNaN: true }),
          fc.double({ min: -5, max: 5, noNaN: true }),
        ),
        (ha, hb, t) => {
          const overlap = (a: number, b: number, d: number) =>
            Math.max(0, Math.min(a, d + b) - Math.max(-a, d - b));
          const exact =
            overlap(ha[0], hb[0], t[0]) * overlap(ha[1], hb[1], t[1]) * overlap(ha[2], hb[2], t[2]);
          const r = overlapVolume(
            makeCuboid({ x: ha[0], y: ha[1], z: ha[2] }),
            pose(),
            makeCuboid({ x: hb[0], y: hb[1], z: hb[2] }),
            pose(t[0], t[1], t[2]),
          );
          expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(
            1e-12 * (1 + 8 * ha[0] * ha[1] * ha[2]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("rotated box × random hull against 10^7 Monte Carlo samples", () => {
    const random = rng(17);
    const pts: number[] = [];
    for (let i = 0; i < 30; i++) {
      // Points on a squashed sphere of radius ~0.8.
      const u = 2 * random() - 1;
      const phi = 2 * Math.PI * random();
      const s = Math.sqrt(1 - u * u);
      pts.push(0.8 * s * Math.cos(phi), 0.6 * u, 0.7 * s * Math.sin(phi));
    }
    const hull = makeConvexPolyhedron(pts);
    const qa = axisAngle(1, 2, 3, 0.7);
    const pa = pose(0.2, -0.1, 0.1, qa);
    const box = makeCuboid({ x: 0.5, y: 0.4, z: 0.6 });
    const pb = pose(0, 0, 0, axisAngle(-1, 0.5, 0.2, 1.1));
    const r = overlapVolume(hull, pa, box, pb);
    // The hull's inside: every face plane (local frame).
    const inHull: Inside = (x, y, z) => {
      for (let f = 0; f < hull.faceCount; f++) {
        const n = hull.faceNormals;
        if (n[3 * f] * x + n[3 * f + 1] * y + n[3 * f + 2] * z > hull.facePlaneOffsets[f])
          return false;
      }
      return true;
    };
    const mc = monteCarlo(inHull, pa, insideBox(0.5, 0.4, 0.6), pb, -1, 1, 1e7, 5);
    // Clipping is exact but for rounding, which the bound covers (a few ulps of the size).
    expect(r.errorBound).toBeGreaterThan(0);
    expect(r.errorBound).toBeLessThan(1e-10);
    expect(Math.abs(r.volume - mc.volume)).toBeLessThanOrEqual(5 * mc.sigma);
  });

  it("the tetrahedron fraction's closed form matches clipping (fast-check)", () => {
    const f = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(f, f, f, f, (g0, g1, g2, g3) => {
        // The fraction is scale invariant; the clipping oracle is not accurate on subnormals.
        const m = Math.max(Math.abs(g0), Math.abs(g1), Math.abs(g2), Math.abs(g3)) || 1;
        const [f0, f1, f2, f3] = [g0 / m, g1 / m, g2 / m, g3 / m];
        const faces = tetrahedronFaces([0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]);
        const clipped = clipPolytopeFaces(faces, f1 - f0, f2 - f0, f3 - f0, -f0);
        const all = f0 <= 0 && f1 <= 0 && f2 <= 0 && f3 <= 0;
        const expected = all ? 1 : 6 * polytopeFacesVolume(clipped);
        expect(Math.abs(tetrahedronFractionBelow(g0, g1, g2, g3) - expected)).toBeLessThan(1e-9);
      }),
      { numRuns: 2000 },
    );
  });

  it("a triangle has no volume", () => {
    const t = makeTriangle({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
    expect(overlapVolume(t, pose(), unitCube(), pose())).toEqual({ volume: 0, errorBound: 0 });
  });
});

describe("overlapVolume: sphere–box closed form", () => {
  /** Oracle: z-chords of the ball on a midpoint grid in x, y. */
  function chords(
    r: number,
    x0: number,
    y0: number,
    z0: number,
    x1: number,
    y1: number,
    z1: number,
  ) {
    const n = 400;
    const hx = (x1 - x0) / n;
    const hy = (y1 - y0) / n;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const x = x0 + (i + 0.5) * hx;
      for (let j = 0; j < n; j++) {
        const y = y0 + (j + 0.5) * hy;
        const rr = r * r - x * x - y * y;
        if (rr <= 0) continue;
        const zr = Math.sqrt(rr);
        const lo = Math.max(z0, -zr);
        const hi = Math.min(z1, zr);
        if (hi > lo) s += hi - lo;
      }
    }
    return s * hx * hy;
  }

  it("whole ball, whole box, half, quarter and eighth balls", () => {
    const ball = (4 / 3) * Math.PI;
    expect(ballBoxVolume(1, -2, -2, -2, 2, 2, 2)).toBeCloseTo(ball, 13);
    expect(ballBoxVolume(1, -0.5, -0.5, -0.5, 0.5, 0.5, 0.5)).toBeCloseTo(1, 13);
    expect(ballBoxVolume(1, 0, -2, -2, 2, 2, 2)).toBeCloseTo(ball / 2, 13);
    expect(ballBoxVolume(1, 0, 0, -2, 2, 2, 2)).toBeCloseTo(ball / 4, 13);
    expect(ballBoxVolume(1, 0, 0, 0, 2, 2, 2)).toBeCloseTo(ball / 8, 13);
    expect(ballBoxVolume(3, 0, 0, 0, 5, 5, 5)).toBeCloseTo((27 * ball) / 8, 11);
    // A cap: h = 0.4 of a unit ball, πh²(3r − h)/3.
    expect(ballBoxVolume(1, -2, -2, 0.6, 2, 2, 2)).toBeCloseTo((Math.PI * 0.16 * 2.6) / 3, 13);
    expect(ballBoxVolume(1, 2, 2, 2, 3, 3, 3)).toBe(0);
  });

  it("matches a fine chord quadrature on random boxes (fast-check)", () => {
    const coord = fc.double({ min: -1.5, max: 1.5, noNaN: true });
    fc.assert(
      fc.property(coord, coord, coord, coord, coord, coord, (a, b, c, d, e, f) => {
        const [x0, x1] = [Math.min(a, b), Math.max(a, b)];
        const [y0, y1] = [Math.min(c, d), Math.max(c, d)];
        const [z0, z1] = [Math.min(e, f), Math.max(e, f)];
        const v = ballBoxVolume(1, x0, y0, z0, x1, y1, z1);
        // The midpoint rule's error on the chord function, with its square-root edge.
        expect(Math.abs(v - chords(1, x0, y0, z0, x1, y1, z1))).toBeLessThan(2e-4);
      }),
      { numRuns: 60 },
    );
  });

  it("sphere × rotated box through overlapVolume, both orders, vs Monte Carlo", () => {
    const q = axisAngle(1, 1, 0, 0.6);
    const s = makeSphere(0.9);
    const b = makeCuboid({ x: 0.7, y: 0.3, z: 0.5 });
    const ps = pose(0.3, 0.2, -0.1);
    const pb = pose(-0.2, 0.1, 0.3, q);
    const r1 = overlapVolume(s, ps, b, pb);
    const r2 = overlapVolume(b, pb, s, ps);
    expect(r1.errorBound).toBeLessThan(1e-12);
    expect(r2).toEqual(r1);
    const mc = monteCarlo(insideCapsule(0, 0.9), ps, insideBox(0.7, 0.3, 0.5), pb, -1, 1, 2e6, 9);
    expect(Math.abs(r1.volume - mc.volume)).toBeLessThanOrEqual(5 * mc.sigma);
  });
});

describe("overlapVolume: curved pairs (adaptive, rigorous bound)", () => {
  it("two balls as capsules: the lens lies within the reported bound", () => {
    const c = makeCapsule({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 1);
    for (const d of [0.3, 1.7]) {
      const exact = sphereSphereIntersection(
        { x: 0, y: 0, z: 0 },
        1,
        { x: d, y: 0, z: 0 },
        1,
      ).volume;
      const r = overlapVolume(c, pose(), c, pose(d, 0.01, 0));
      const exactShifted = sphereSphereIntersection(
        { x: 0, y: 0, z: 0 },
        1,
        { x: d, y: 0.01, z: 0 },
        1,
      ).volume;
      expect(Math.abs(r.volume - exactShifted)).toBeLessThanOrEqual(r.errorBound);
      expect(r.errorBound).toBeLessThanOrEqual(1e-3 * r.volume + 1e-12);
      expect(r.errorBound).toBeGreaterThan(0);
      expect(exact).toBeGreaterThan(0);
    }
  });

  it("a ball (capsule) with a box: within the bound of the closed form", () => {
    const c = makeCapsule({ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, 0.8);
    const b = makeCuboid({ x: 0.6, y: 0.4, z: 0.5 });
    const r = overlapVolume(c, pose(0.5, 0.2, 0.1), b, pose());
    const exact = ballBoxVolume(0.8, -1.1, -0.6, -0.6, 0.1, 0.2, 0.4);
    expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
  });

  it("the Steinmetz bicylinder: two long perpendicular cylinders of radius r meet in 16r³/3", () => {
    const cyl = makeCylinder(3, 0.5);
    const r = overlapVolume(cyl, pose(), cyl, pose(0, 0, 0, axisAngle(1, 0, 0, Math.PI / 2)));
    const exact = (16 * 0.125) / 3;
    expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
    expect(r.errorBound).toBeLessThanOrEqual(1e-3 * exact);
  });

  it("capsule × rotated cylinder against 10^7 Monte Carlo samples", () => {
    const cap = makeCapsule({ x: 0, y: -0.4, z: 0 }, { x: 0, y: 0.4, z: 0 }, 0.45);
    const cyl = makeCylinder(0.6, 0.5);
    const pa = pose(0.1, 0, 0.05, axisAngle(0, 0, 1, 0.4));
    const pb = pose(-0.2, 0.1, 0, axisAngle(1, 0.3, 0, 1.2));
    const r = overlapVolume(cap, pa, cyl, pb);
    const mc = monteCarlo(
      insideCapsule(0.4, 0.45),
      pa,
      insideCylinder(0.6, 0.5),
      pb,
      -1,
      1,
      1e7,
      3,
    );
    expect(Math.abs(r.volume - mc.volume)).toBeLessThanOrEqual(r.errorBound + 5 * mc.sigma);
  });

  it("cone × sphere-like hull against Monte Carlo, and a tighter tolerance narrows the bound", () => {
    const cone = makeCone(0.6, 0.5);
    const box = makeCuboid({ x: 0.3, y: 0.3, z: 0.3 });
    const pa = pose(0, 0, 0, axisAngle(1, 0, 0, 0.3));
    const pb = pose(0.2, -0.3, 0.1, axisAngle(0, 1, 1, 0.5));
    // Sliced across the cone's axis (src/query/overlap-volume-slices.ts), which refines to 1e-6
    // of the volume at least: the tolerances that narrow it lie below that.
    const coarse = overlapVolume(cone, pa, box, pb, { relativeTolerance: 1e-6 });
    const fine = overlapVolume(cone, pa, box, pb, { relativeTolerance: 1e-8 });
    expect(fine.errorBound).toBeLessThan(coarse.errorBound);
    expect(Math.abs(fine.volume - coarse.volume)).toBeLessThanOrEqual(
      fine.errorBound + coarse.errorBound,
    );
    const mc = monteCarlo(insideCone(0.6, 0.5), pa, insideBox(0.3, 0.3, 0.3), pb, -1, 1, 2e6, 11);
    expect(Math.abs(fine.volume - mc.volume)).toBeLessThanOrEqual(fine.errorBound + 5 * mc.sigma);
  });

  it("disjoint curved shapes give 0 ± 0", () => {
    expect(overlapVolume(makeCone(1, 1), pose(), makeCylinder(1, 1), pose(5))).toEqual({
      volume: 0,
      errorBound: 0,
    });
  });
});

describe("overlapVolume: bad input", () => {
  it("a surface mesh has no volume (0, not a refusal); bad options are refused by name", () => {
    // It refused every mesh with unsupported_pair; a surface's intersection has volume 0.
    const mesh = makeTriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    expect(overlapVolume(unitCube(), pose(), mesh, pose())).toEqual({ volume: 0, errorBound: 0 });
    expect(() =>
      overlapVolume(makeCone(1, 1), pose(), makeCone(1, 1), pose(), { relativeTolerance: -1 }),
    ).toThrow(/options.relativeTolerance/);
    expect(() =>
      overlapVolume(makeCone(1, 1), pose(), makeCone(1, 1), pose(), { maxCells: 0.5 }),
    ).toThrow(/options.maxCells/);
    expect(() => overlapVolume(unitCube(), pose(Number.NaN), unitCube(), pose())).toThrow(/poseA/);
  });
});

describe("collide query: op volume", () => {
  it("answers any convex pair with volume and errorBound; two spheres keep their fields", () => {
    const lines = [
      {
        op: "volume",
        a: { type: "box", center: [0, 0, 0], halfExtents: [0.5, 0.5, 0.5] },
        b: { type: "aabb", min: [0, -0.5, -0.5], max: [1, 0.5, 0.5] },
      },
      {
        op: "volume",
        a: { type: "sphere", center: [0, 0, 0], radius: 5 },
        b: { type: "sphere", center: [4, 0, 0], radius: 3 },
      },
      {
        op: "volume",
        a: { type: "box", center: [0, 0, 0], halfExtents: [1, 1, 1] },
        b: {
          type: "mesh",
          vertices: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
          ],
          indices: [[0, 1, 2]],
        },
      },
      {
        op: "volume",
        a: { type: "capsule", a: [0, 0, 0], b: [0, 1, 0], radius: 0.5 },
        b: { type: "cylinder", center: [0.2, 0, 0], halfHeight: 1, radius: 0.5 },
      },
    ];
    const { lines: out, failed } = answerQueryLines(lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(failed).toBe(false);
    const r = out.map((l) => JSON.parse(l));
    expect(r[0].result).toEqual({ volume: 0.5, errorBound: 0 });
    expect(Object.keys(r[1].result)).toEqual(["volume", "surfaceArea", "iou", "errorBound"]);
    expect(r[1].result.volume).toBeCloseTo((68 * Math.PI) / 3, 12);
    expect(r[1].result.errorBound).toBe(0);
    expect(r[2].result).toEqual({ volume: 0, errorBound: 0 });
    expect(r[3].result.errorBound).toBeGreaterThan(0);
    expect(r[3].result.errorBound).toBeLessThanOrEqual(1e-3 * r[3].result.volume);
  });
});
