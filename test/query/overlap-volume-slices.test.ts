/**
 * overlapVolume of a cylinder, cone, capsule or sphere partly inside a box, a hull or a
 * half-space (issue 16, the fresh-user attack: a disc of half height 1e-6..1e-12 cut across by
 * a box took 23–35 s for 2–20 %). Oracles written here, independent of the slicing:
 *
 * - hand-derived closed forms for axis-aligned cuts: a disc cut through its axis (half), a disc
 *   of radius r cut by a face at distance a (r²·acos(a/r) − a·√(r² − a²) times the height), a
 *   disc cut by two perpendicular faces (the integral of √(r² − x²) − b from a to √(r² − b²)), a
 *   needle capsule crossing a plane away from its ends (πr² times the axis length behind the
 *   plane plus a half ball: the oblique cut's two wedges cancel);
 * - a turned thin disc: 2h times the slice area at t = 0 (bracketed by the inscribed and the
 *   circumscribed 4096-gon clipped by the box's half-planes, a 2D clipping written here), plus
 *   h times the slice area's Lipschitz bound Σ 2r|b_j|/|a_j| (each line moves by |b_j|/|a_j| per
 *   unit height and sweeps at most a chord 2r);
 * - dense Monte Carlo with a 6σ bound for turned shapes of moderate aspect.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Quat } from "../../src/math/quat.js";
import { overlapVolume } from "../../src/query/overlap-volume.js";
import {
  makeCapsule,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeHalfSpace,
  makeSphere,
  type Shape,
} from "../../src/shapes/index.js";
import { cubePointArb, quatCoordsArb } from "../fuzz/arbitraries.js";
import { ID, pose, quatOf } from "../support/pose.js";
import { rotateByQuat, unrotateByQuat, type V3 } from "../support/quat.js";

const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const U = 2 ** -53;

/** A polytope's local planes (n, d: n·p ≤ d) in the frame of a shape at (0, qs), it at (c, qo). */
function planesIn(qs: Quat, c: V3, qo: Quat, local: [V3, number][]): [V3, number][] {
  return local.map(([n, d]) => {
    const nw = rotateByQuat(qo, n);
    return [unrotateByQuat(qs, nw), d + dot(nw, c)] as [V3, number];
  });
}

/** The octahedron |x| + |y| + |z| ≤ s: its vertices and its eight planes, by hand. */
function octahedron(s: number): { points: number[]; planes: [V3, number][] } {
  const points = [s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s, 0, 0, 0, s, 0, 0, -s];
  const planes: [V3, number][] = [];
  const k = 1 / Math.sqrt(3);
  for (const x of [1, -1])
    for (const y of [1, -1]) for (const z of [1, -1]) planes.push([[x * k, y * k, z * k], s * k]);
  return { points, planes };
}

/** The box's six planes (n, d: n·p ≤ d) in the frame of a shape at (0, qs), box at (c, qb). */
function boxPlanesIn(qs: Quat, c: V3, qb: Quat, h: V3): [V3, number][] {
  return planesIn(qs, c, qb, boxLocal(h));
}

/** The box of half extents h: its six local planes. */
function boxLocal(h: V3): [V3, number][] {
  const out: [V3, number][] = [];
  for (let k = 0; k < 3; k++) {
    for (const s of [1, -1]) {
      const e: V3 = [0, 0, 0];
      e[k] = s;
      out.push([e, h[k]]);
    }
  }
  return out;
}

/** Area of a polygon (xy packed) clipped by the half-planes a·x + b·y ≤ c (test's own 2D code). */
function clippedArea(poly: number[], lines: [number, number, number][]): number {
  let p = poly;
  for (const [a, b, c] of lines) {
    const q: number[] = [];
    const n = p.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const s0 = a * p[2 * i] + b * p[2 * i + 1] - c;
      const s1 = a * p[2 * j] + b * p[2 * j + 1] - c;
      if (s0 <= 0) q.push(p[2 * i], p[2 * i + 1]);
      if (s0 * s1 < 0) {
        const f = s0 / (s0 - s1);
        q.push(
          p[2 * i] + f * (p[2 * j] - p[2 * i]),
          p[2 * i + 1] + f * (p[2 * j + 1] - p[2 * i + 1]),
        );
      }
    }
    p = q;
    if (p.length < 6) return 0;
  }
  let s = 0;
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    s += p[2 * i] * p[2 * j + 1] - p[2 * j] * p[2 * i + 1];
  }
  return Math.abs(s) / 2;
}

const NGON = 4096;
/** [lower, upper] of |disc(r) ∩ lines|: the inscribed and the circumscribed NGON-gons clipped. */
function discArea(r: number, lines: [number, number, number][], ngon = NGON): [number, number] {
  const inner: number[] = [];
  const outer: number[] = [];
  const R = (r / Math.cos(Math.PI / ngon)) * (1 + 1e-12);
  for (let i = 0; i < ngon; i++) {
    const phi = (2 * Math.PI * i) / ngon;
    inner.push(r * (1 - 1e-12) * Math.cos(phi), r * (1 - 1e-12) * Math.sin(phi));
    outer.push(R * Math.cos(phi), R * Math.sin(phi));
  }
  const slack = 1e-12 * r * r;
  return [clippedArea(inner, lines) - slack, clippedArea(outer, lines) + slack];
}

/**
 * Oracle for a disc (cylinder of radius r, half height h, axis y) at (0, qd) and a box of half
 * extents `he` at (c, qb): [lower, upper] of the volume (module doc), the inputs' own rounding
 * `inputShift` (a displacement of the box, unit) included.
 */
function thinDiscOracle(
  r: number,
  h: number,
  qd: Quat,
  c: V3,
  qb: Quat,
  he: V3,
  inputShift: number,
): [number, number] {
  const planes = boxPlanesIn(qd, c, qb, he);
  const lines: [number, number, number][] = planes.map(([n, d]) => [n[0], n[2], d]);
  const [lo, hi] = discArea(r, lines);
  let lip = 0;
  let shift = 0;
  for (const [n] of planes) {
    const la = Math.hypot(n[0], n[2]);
    lip += (2 * r * Math.abs(n[1])) / la;
    shift += (2 * r * inputShift) / la;
  }
  return [2 * h * (lo - lip * h - shift), 2 * h * (hi + lip * h + shift)];
}

/**
 * One call of each curved kind against a box and a half-space first, so the timings below
 * measure the method and not the first calls' compilation.
 */
function warmUp(): void {
  const box = makeCuboid({ x: 0.5, y: 0.5, z: 0.5 });
  const h = makeHalfSpace({ x: 0, y: 0, z: 1 }, 0.1);
  const turn = quatOf([0.2, 0.5, -0.3, 0.8]);
  for (let i = 0; i < 20; i++) {
    for (const s of [
      makeCylinder(0.3, 1),
      makeCone(0.3, 1),
      makeCapsule({ x: -0.5, y: 0, z: 0 }, { x: 0.5, y: 0.2, z: 0 }, 0.3),
      makeSphere(0.6),
    ]) {
      overlapVolume(s, pose(0, 0, 0, turn), box, pose(0.6, 0.1, 0.2));
      overlapVolume(s, pose(0, 0, 0, turn), h, pose());
    }
  }
}

describe("overlapVolume sliced: axis-aligned closed forms at any aspect ratio", () => {
  it("a disc (cylinder, cone) cut through its axis is half of it", () => {
    warmUp();
    for (const hh of [1, 1e-3, 1e-6, 1e-9, 1e-12]) {
      const box = makeCuboid({ x: 2, y: 2, z: 2 });
      for (const [s, whole] of [
        [makeCylinder(hh, 1), 2 * Math.PI * hh],
        [makeCone(hh, 1), (2 / 3) * Math.PI * hh],
      ] as [Shape, number][]) {
        const t = performance.now();
        const r = overlapVolume(s, pose(), box, pose(2, 0, 0));
        const ms = performance.now() - t;
        expect(Math.abs(r.volume - whole / 2)).toBeLessThanOrEqual(r.errorBound);
        expect(r.errorBound).toBeLessThanOrEqual(1e-6 * whole);
        expect(ms).toBeLessThan(250);
        const rh = overlapVolume(s, pose(), makeHalfSpace({ x: 0, y: 0, z: 1 }, 0), pose());
        expect(Math.abs(rh.volume - whole / 2)).toBeLessThanOrEqual(rh.errorBound);
        expect(rh.errorBound).toBeLessThanOrEqual(1e-6 * whole);
      }
    }
  });

  it("a disc cut by a face at distance a: r²·acos(a/r) − a·√(r² − a²) times the height", () => {
    for (const hh of [1e-3, 1e-6, 1e-9, 1e-12]) {
      for (const [rad, a] of [
        [1, 0.3],
        [2.5, -1.7],
        [1e-3, 9e-4],
        [1e3, 400],
      ]) {
        const disc = makeCylinder(hh * rad, rad);
        const exact =
          (rad * rad * Math.acos(a / rad) - a * Math.sqrt(rad * rad - a * a)) * 2 * hh * rad;
        const box = makeCuboid({ x: 2 * rad, y: 2 * rad, z: 2 * rad });
        const t = performance.now();
        const r = overlapVolume(disc, pose(), box, pose(a + 2 * rad, 0, 0));
        const ms = performance.now() - t;
        expect(Math.abs(r.volume - exact)).toBeLessThanOrEqual(r.errorBound);
        expect(r.errorBound).toBeLessThanOrEqual(1e-6 * exact);
        expect(ms).toBeLessThan(250);
      }
    }
  });

  it("a disc cut by two perpendicular faces: ∫ from a to √(r² − b²) of (√(r² − x²) − b)", () => {
    const F = (r: number, x: number) =>
      0.5 * (x * Math.sqrt(r * r - x * x) + r * r * Math.asin(x / r));
    for (const hh of [1e-6, 1e-9, 1e-12]) {
      for (const [a, b] of [
        [0, 0],
        [0.3, 0.4],
        [-0.5, 0.2],
        [-0.6, 0.1],
      ]) {
        // (b ≥ 0 and a ≥ −√(r² − b²): the region's lower side is z = b, its left x = a.)
        const r = 1;
        const x1 = Math.sqrt(r * r - b * b);
        const area = F(r, x1) - F(r, a) - b * (x1 - a);
        const exact = area * 2 * hh;
        // The box's corner edge along y at (a, b): x ≥ a, z ≥ b.
        const box = makeCuboid({ x: 3, y: 3, z: 3 });
        const res = overlapVolume(makeCylinder(hh, r), pose(), box, pose(a + 3, 0, b + 3));
        expect(Math.abs(res.volume - exact)).toBeLessThanOrEqual(res.errorBound);
        expect(res.errorBound).toBeLessThanOrEqual(1e-6 * exact);
        // Swapped arguments: the same bits.
        const sw = overlapVolume(box, pose(a + 3, 0, b + 3), makeCylinder(hh, r), pose());
        expect(sw).toEqual(res);
      }
    }
  });

  it("a needle capsule crossing a plane away from its ends: πr²·s + (2/3)πr³", () => {
    for (const r of [1e-3, 1e-6, 1e-9]) {
      for (const tilt of [0, 0.3, 1.1]) {
        // Segment from (−1, 0, 0) to (1, 0, 0) turned about z by `tilt`; plane x ≤ 0.2.
        const q = { x: 0, y: 0, z: Math.sin(tilt / 2), w: Math.cos(tilt / 2) };
        const cap = makeCapsule({ x: -1, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, r);
        const cut = 0.2;
        // The axis meets x = cut at arc length 1 + cut/cos(tilt) from the end behind the plane.
        const s = 1 + cut / Math.cos(tilt);
        const exact = Math.PI * r * r * s + (2 / 3) * Math.PI * r * r * r;
        const res = overlapVolume(
          cap,
          pose(0, 0, 0, q),
          makeHalfSpace({ x: 1, y: 0, z: 0 }, cut),
          pose(),
        );
        expect(Math.abs(res.volume - exact)).toBeLessThanOrEqual(res.errorBound + 1e-15 * exact);
        expect(res.errorBound).toBeLessThanOrEqual(1e-6 * exact);
        const box = makeCuboid({ x: 5, y: 5, z: 5 });
        const rb = overlapVolume(cap, pose(0, 0, 0, q), box, pose(cut - 5, 0, 0));
        expect(Math.abs(rb.volume - exact)).toBeLessThanOrEqual(rb.errorBound + 1e-15 * exact);
        expect(rb.errorBound).toBeLessThanOrEqual(1e-6 * exact);
      }
    }
  });
});

describe("overlapVolume sliced: issue 16's thin disc cut across by a turned unit box", () => {
  it("answers within 1e-6 in milliseconds at half heights 1e-6, 1e-9, 1e-12", () => {
    warmUp();
    const qb = quatOf([
      0.3 * Math.sin(0.55),
      0.8 * Math.sin(0.55),
      -0.52 * Math.sin(0.55),
      Math.cos(0.55),
    ]);
    const c: V3 = [0.55, 0.05, 0.1];
    const he: V3 = [0.5, 0.5, 0.5];
    for (const hh of [1e-6, 1e-9, 1e-12]) {
      const t = performance.now();
      const r = overlapVolume(
        makeCylinder(hh, 1),
        pose(),
        makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }),
        pose(...c, qb),
      );
      const ms = performance.now() - t;
      const [lo, hi] = thinDiscOracle(1, hh, ID, c, qb, he, 8 * U);
      expect(r.volume + r.errorBound).toBeGreaterThanOrEqual(lo);
      expect(r.volume - r.errorBound).toBeLessThanOrEqual(hi);
      expect(r.errorBound).toBeLessThanOrEqual(1e-6 * r.volume);
      expect(ms).toBeLessThan(250);
    }
  });
});

describe("overlapVolume sliced: random thin discs cut by random boxes (fast-check)", () => {
  it("holds the oracle within errorBound + its own bound, ≤ 1e-6 relative, < 250 ms", () => {
    warmUp();
    let worst = 0;
    fc.assert(
      fc.property(
        fc.double({ min: 3, max: 12, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        quatCoordsArb,
        quatCoordsArb,
        cubePointArb,
        fc.tuple(
          fc.double({ min: 0.2, max: 2, noNaN: true }),
          fc.double({ min: 0.2, max: 2, noNaN: true }),
          fc.double({ min: 0.2, max: 2, noNaN: true }),
        ),
        cubePointArb,
        fc.boolean(),
        (exponent, logScale, q1, q2, dir, he0, far0, swap) => {
          const s = 10 ** logScale;
          const h = s * 10 ** -exponent;
          const qd = quatOf(q1);
          const qb = quatOf(q2);
          const he: V3 = [he0[0] * s, he0[1] * s, he0[2] * s];
          // The box's centre within about its size of the disc's: it cuts across (or holds) it.
          const c: V3 = [dir[0] * 1.5 * s, dir[1] * 1.5 * s, dir[2] * 1.5 * s];
          const T: V3 = [far0[0] * 1e6, far0[1] * 1e6, far0[2] * 1e6];
          const planes = boxPlanesIn(qd, c, qb, he);
          // A face nearly parallel to the disc makes the oracle's Lipschitz bound useless.
          fc.pre(planes.every(([n]) => Math.hypot(n[0], n[2]) > 1e-3));
          const disc = makeCylinder(h, s);
          const box = makeCuboid({ x: he[0], y: he[1], z: he[2] });
          const pd = pose(T[0], T[1], T[2], qd);
          const pb = pose(T[0] + c[0], T[1] + c[1], T[2] + c[2], qb);
          const t = performance.now();
          const r = swap ? overlapVolume(box, pb, disc, pd) : overlapVolume(disc, pd, box, pb);
          const ms = performance.now() - t;
          // The box's centre as given is off the intended one by the sums' rounding.
          const shift = 4 * U * (Math.hypot(...T) + Math.hypot(...c)) + 8 * U * s;
          const [lo, hi] = thinDiscOracle(s, h, qd, c, qb, he, shift);
          expect(r.volume + r.errorBound).toBeGreaterThanOrEqual(lo);
          expect(r.volume - r.errorBound).toBeLessThanOrEqual(hi);
          const whole = 2 * Math.PI * s * s * h;
          expect(r.errorBound).toBeLessThanOrEqual(1e-6 * whole);
          worst = Math.max(worst, ms);
        },
      ),
      { numRuns: 300, seed: 40 },
    );
    expect(worst).toBeLessThan(250);
  });
});

/** The curved shape of a Monte Carlo trial, by its own numbers (local frame). */
interface Curved {
  kind: number; // 0 cylinder, 1 cone, 2 capsule, 3 sphere
  r: number;
  h: number;
  a: V3;
  b: V3;
}

/** Whether local point p lies in the curved shape (the Monte Carlo oracle's own test). */
function insideCurved(c: Curved, p: V3): boolean {
  if (c.kind === 0) return Math.abs(p[1]) <= c.h && Math.hypot(p[0], p[2]) <= c.r;
  if (c.kind === 1)
    return Math.abs(p[1]) <= c.h && Math.hypot(p[0], p[2]) <= (c.r * (c.h - p[1])) / (2 * c.h);
  if (c.kind === 2) {
    const ab: V3 = [c.b[0] - c.a[0], c.b[1] - c.a[1], c.b[2] - c.a[2]];
    const ap: V3 = [p[0] - c.a[0], p[1] - c.a[1], p[2] - c.a[2]];
    const t = Math.max(0, Math.min(1, dot(ab, ap) / dot(ab, ab)));
    return Math.hypot(ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]) <= c.r;
  }
  return Math.hypot(...p) <= c.r;
}

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("overlapVolume sliced: turned shapes of moderate aspect against Monte Carlo", () => {
  it("cylinders, cones, capsules and spheres with boxes, a tetrahedron hull and half-spaces", () => {
    warmUp();
    const rand = rng(40);
    const tetra = [1, 1, 1, -1, -1, 1, -1, 1, -1, 1, -1, -1].map((v) => 0.9 * v);
    // Its face planes written by hand: outward normals (±1, ±1, ±1)/√3 with an odd count of
    // minus signs, offset 0.9/√3.
    const tetraPlanes: [V3, number][] = [
      [[-1, -1, -1], 0.9],
      [[-1, 1, 1], 0.9],
      [[1, -1, 1], 0.9],
      [[1, 1, -1], 0.9],
    ].map(([n, d]) => [
      (n as number[]).map((x) => x / Math.sqrt(3)) as V3,
      (d as number) / Math.sqrt(3),
    ]);
    const N = 200_000;
    for (let trial = 0; trial < 24; trial++) {
      const kind = trial % 4;
      const other = Math.floor(trial / 4) % 3;
      const aspect = 0.05 + rand() * 0.95;
      let s: Shape;
      let R: number;
      let V: number;
      if (kind === 0) {
        s = makeCylinder(aspect, 1);
        R = Math.hypot(1, aspect);
        V = 2 * Math.PI * aspect;
      } else if (kind === 1) {
        s = makeCone(aspect, 1);
        R = Math.hypot(1, aspect);
        V = (2 / 3) * Math.PI * aspect;
      } else if (kind === 2) {
        s = makeCapsule({ x: -0.3, y: 0.5, z: 0.2 }, { x: 0.4, y: -0.6, z: 0.1 }, aspect);
        R = Math.hypot(0.4, 0.6, 0.2) + aspect;
        V = Math.PI * aspect * aspect * Math.hypot(0.7, 1.1, 0.1) + (4 / 3) * Math.PI * aspect ** 3;
      } else {
        s = makeSphere(aspect + 0.3);
        R = aspect + 0.3;
        V = (4 / 3) * Math.PI * R ** 3;
      }
      const cv: Curved = {
        kind,
        r: kind === 3 ? R : kind === 2 ? aspect : 1,
        h: aspect,
        a: [-0.3, 0.5, 0.2],
        b: [0.4, -0.6, 0.1],
      };
      const qs = quatOf([rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5]);
      const qo = quatOf([rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5]);
      const c: V3 = [(rand() - 0.5) * 1.5, (rand() - 0.5) * 1.5, (rand() - 0.5) * 1.5];
      let o: Shape;
      let planes: [V3, number][];
      if (other === 0) {
        const he: V3 = [0.3 + rand(), 0.3 + rand(), 0.3 + rand()];
        o = makeCuboid({ x: he[0], y: he[1], z: he[2] });
        planes = boxPlanesIn(qs, c, qo, he);
      } else if (other === 1) {
        o = makeConvexPolyhedron(tetra);
        planes = tetraPlanes.map(([n, d]) => {
          const nw = rotateByQuat(qo, n);
          return [unrotateByQuat(qs, nw), d + dot(nw, c)] as [V3, number];
        });
      } else {
        const n = rotateByQuat(qo, [0, 0, 1]);
        o = makeHalfSpace({ x: n[0], y: n[1], z: n[2] }, dot(n, c) * 0.3);
        planes = [[unrotateByQuat(qs, n), dot(n, c) * 0.3]];
      }
      // Monte Carlo in the curved shape's bounding cube (its frame).
      let hits = 0;
      for (let i = 0; i < N; i++) {
        const p: V3 = [(2 * rand() - 1) * R, (2 * rand() - 1) * R, (2 * rand() - 1) * R];
        if (!insideCurved(cv, p)) continue;
        if (planes.every(([n, d]) => dot(n, p) <= d)) hits++;
      }
      const cube = 8 * R * R * R;
      const frac = hits / N;
      const mc = frac * cube;
      const sigma = Math.sqrt(Math.max(frac * (1 - frac), 1 / N) / N) * cube;
      const t = performance.now();
      const r = overlapVolume(s, pose(0, 0, 0, qs), o, other === 2 ? pose() : pose(...c, qo));
      const ms = performance.now() - t;
      expect(Math.abs(r.volume - mc)).toBeLessThanOrEqual(r.errorBound + 6 * sigma);
      expect(r.errorBound).toBeLessThanOrEqual(1e-5 * V);
      expect(ms).toBeLessThan(250);
    }
  });
});

/**
 * Oracle for a thin cone (radius r, half height h, axis y, apex at +h) at (0, qd) and the planes
 * `planes` (its frame): ∫A(t)dt with A(t) = |disc(ρ(t)) ∩ Q(t)|, ρ(t) = r(h − t)/(2h). Frozen at
 * Q(0), A₀(ρ) grows with ρ, so on [tᵢ, tᵢ₊₁] it lies between A₀(ρ(tᵢ₊₁)) and A₀(ρ(tᵢ)) (each
 * bracketed by the inscribed and circumscribed 512-gons); Q(t) differs from Q(0) by at most
 * the Lipschitz bound Σ 2r|b_j|/|a_j| times |t| ≤ h, and the inputs' shift as for the disc.
 */
function thinConeOracle(
  r: number,
  h: number,
  planes: [V3, number][],
  inputShift: number,
): [number, number] {
  const lines: [number, number, number][] = planes.map(([n, d]) => [n[0], n[2], d]);
  let lip = 0;
  let shift = 0;
  for (const [n] of planes) {
    const la = Math.hypot(n[0], n[2]);
    lip += (2 * r * Math.abs(n[1])) / la;
    shift += (2 * r * inputShift) / la;
  }
  const M = 200;
  let lo = 0;
  let hi = 0;
  let prev = discArea(r, lines, 512); // ρ(−h) = r
  for (let i = 0; i < M; i++) {
    const t1 = -h + (2 * h * (i + 1)) / M;
    const rho1 = (r * (h - t1)) / (2 * h);
    const next: [number, number] = rho1 > 0 ? discArea(rho1, lines, 512) : [0, 0];
    lo += Math.max(0, next[0]);
    hi += prev[1];
    prev = next;
  }
  const w = (2 * h) / M;
  const slack = 2 * h * (lip * h + shift);
  return [lo * w - slack, hi * w + slack];
}

/**
 * Oracle for a needle capsule (segment a–b in its frame, radius r) and the planes `planes` (its
 * frame): πr² times the length of the segment's part inside them, within the capsule's two half
 * balls and, per plane at angle φ to the axis, the cylinder's part within r/|cos φ| of its
 * crossing along the axis (only there can a cross-section's points disagree with the axis).
 */
function needleOracle(a: V3, b: V3, r: number, planes: [V3, number][]): [number, number] {
  const ab: V3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const L = Math.hypot(...ab);
  let l0 = 0;
  let l1 = 1;
  let near = 0;
  for (const [n, d] of planes) {
    const na = dot(n, a);
    const nd = dot(n, ab);
    if (nd === 0) {
      if (na > d) l1 = -1;
    } else {
      const l = (d - na) / nd;
      if (nd > 0) l1 = Math.min(l1, l);
      else l0 = Math.max(l0, l);
    }
    near += Math.PI * r * r * ((2 * r) / (Math.abs(nd) / L));
  }
  const inside = Math.max(0, l1 - l0) * L;
  const base = Math.PI * r * r * inside;
  const caps = (4 / 3) * Math.PI * r * r * r;
  return [base - near - 1e-12 * base, base + caps + near + 1e-12 * base];
}

describe("overlapVolume sliced: random thin cones and needle capsules cut by boxes and hulls (fast-check)", () => {
  it("holds the oracle within errorBound + its own bound, < 250 ms, scales 1e-3..1e3, offsets to 1e6", () => {
    warmUp();
    let worst = 0;
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.double({ min: 3, max: 12, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        quatCoordsArb,
        quatCoordsArb,
        cubePointArb,
        fc.tuple(
          fc.double({ min: 0.3, max: 2, noNaN: true }),
          fc.double({ min: 0.3, max: 2, noNaN: true }),
          fc.double({ min: 0.3, max: 2, noNaN: true }),
        ),
        cubePointArb,
        fc.boolean(),
        (cone, hull, exponent, logScale, q1, q2, dir, he0, far0, swap) => {
          const s = 10 ** logScale;
          const thin = s * 10 ** -exponent;
          const qs = quatOf(q1);
          const qo = quatOf(q2);
          const c: V3 = [dir[0] * 1.2 * s, dir[1] * 1.2 * s, dir[2] * 1.2 * s];
          const T: V3 = [far0[0] * 1e6, far0[1] * 1e6, far0[2] * 1e6];
          let other: Shape;
          let local: [V3, number][];
          if (hull) {
            const o = octahedron(1.5 * he0[0] * s);
            other = makeConvexPolyhedron(o.points);
            local = o.planes;
          } else {
            const he: V3 = [he0[0] * s, he0[1] * s, he0[2] * s];
            other = makeCuboid({ x: he[0], y: he[1], z: he[2] });
            local = boxLocal(he);
          }
          const planes = planesIn(qs, c, qo, local);
          const shift = 4 * U * (Math.hypot(...T) + Math.hypot(...c)) + 8 * U * s;
          let shape: Shape;
          let oracle: [number, number];
          if (cone) {
            fc.pre(planes.every(([n]) => Math.hypot(n[0], n[2]) > 1e-3));
            shape = makeCone(thin, s);
            oracle = thinConeOracle(s, thin, planes, shift);
          } else {
            // A needle along a skew local segment of length 2s, radius `thin`.
            const a: V3 = [-0.6 * s, -0.64 * s, 0.48 * s];
            const b: V3 = [0.6 * s, 0.64 * s, -0.48 * s];
            const axis: V3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            const L = Math.hypot(...axis);
            fc.pre(planes.every(([n]) => Math.abs(dot(n, axis)) / L > 0.05));
            shape = makeCapsule({ x: a[0], y: a[1], z: a[2] }, { x: b[0], y: b[1], z: b[2] }, thin);
            // The inputs' shift moves the crossings by shift/|cos φ| along the axis.
            const [lo, hi] = needleOracle(a, b, thin, planes);
            let moved = 0;
            for (const [n] of planes) moved += (shift * L) / Math.abs(dot(n, axis));
            const band = Math.PI * thin * thin * moved;
            oracle = [lo - band, hi + band];
          }
          const ps = pose(T[0], T[1], T[2], qs);
          const po = pose(T[0] + c[0], T[1] + c[1], T[2] + c[2], qo);
          const t = performance.now();
          const r = swap
            ? overlapVolume(other, po, shape, ps)
            : overlapVolume(shape, ps, other, po);
          const ms = performance.now() - t;
          expect(r.volume + r.errorBound).toBeGreaterThanOrEqual(oracle[0]);
          expect(r.volume - r.errorBound).toBeLessThanOrEqual(oracle[1]);
          const whole = cone
            ? (2 / 3) * Math.PI * s * s * thin
            : Math.PI * thin * thin * 2 * s + (4 / 3) * Math.PI * thin ** 3;
          expect(r.errorBound).toBeLessThanOrEqual(1e-6 * whole);
          worst = Math.max(worst, ms);
        },
      ),
      { numRuns: 200, seed: 41 },
    );
    expect(worst).toBeLessThan(250);
  });
});

describe("overlapVolume sliced: far from unit scale", () => {
  it("a pair scaled by k answers k³ times the unit answer within both bounds (1e-100..1e90)", () => {
    // The slice's polygon is clipped in units of ρ: its edges' quartic terms had underflowed at
    // 1e-100 (the whole disc answered) and the planes' rounding share overflowed at 1e90.
    const q = quatOf([0.2612, 0.6964, -0.4527, 0.4536]);
    const make = [
      (k: number) => makeCylinder(1e-9 * k, k),
      (k: number) => makeCone(1e-9 * k, k),
      (k: number) => makeCapsule({ x: -k, y: 0, z: 0 }, { x: k, y: 0, z: 0 }, 1e-9 * k),
      (k: number) => makeSphere(k),
    ];
    for (const mk of make) {
      const at = (k: number) =>
        overlapVolume(
          mk(k),
          pose(),
          makeCuboid({ x: 0.5 * k, y: 0.5 * k, z: 0.5 * k }),
          pose(0.55 * k, 0.05 * k, 0.1 * k, q),
        );
      const unitAnswer = at(1);
      expect(unitAnswer.errorBound).toBeLessThanOrEqual(1e-6 * unitAnswer.volume);
      for (const k of [1e-100, 1e-60, 1e60, 1e90]) {
        const r = at(k);
        const k3 = k * k * k;
        expect(Math.abs(r.volume / k3 - unitAnswer.volume)).toBeLessThanOrEqual(
          r.errorBound / k3 + unitAnswer.errorBound + 1e-12 * unitAnswer.volume,
        );
        // Subnormal volumes (a needle of 1e-100: 3e-318) keep an honest, wider bound.
        if (r.volume > 1e-290) expect(r.errorBound).toBeLessThanOrEqual(1e-6 * r.volume);
      }
    }
  });
});
