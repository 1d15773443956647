/**
 * Witness points of degenerate boxes — flat (one half extent 0) and line-like (two) — against
 * boxes, boxes given as hulls and triangles: `contact`, `manifold`, `distance` (overlapping: the
 * contact's deepest points) and the world's contacts put each witness on its shape (fresh43 01:
 * two flat boxes meeting edge to edge had both witnesses at B's corner, 1.4 off A). The box–box
 * SAT's face axis there has a segment for each supporting face (a side face of zero width), which
 * the manifold's clip cannot take as a reference: its witness had stayed B's support corner
 * (src/narrowphase/cuboid-cuboid.ts, faceWitnessCuboidCuboid).
 *
 * Oracles: hand-derived crossing points (two flat boxes' edges; a segment through a flat box),
 * and a point's distance to a box by clamping in the box's frame (exact under the identity and
 * half turns, whose rotations are sign flips).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { manifold } from "../../src/query/manifold.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { CollisionWorld, makeWorldContact } from "../../src/world/index.js";
import { boxCorners, boxShape, dyadic, permuted } from "../support/flat-box.js";

const I: Quat = { x: 0, y: 0, z: 0, w: 1 };
/** The identity and the three half turns: exact rotations (sign flips of two axes). */
const HALF_TURNS: Quat[] = [
  I,
  { x: 1, y: 0, z: 0, w: 0 },
  { x: 0, y: 1, z: 0, w: 0 },
  { x: 0, y: 0, z: 1, w: 0 },
];
const R = Math.SQRT1_2;
/** Quarter turns about each axis (their quaternions round: the bar below allows for it). */
const QUARTER_TURNS: Quat[] = [
  { x: R, y: 0, z: 0, w: R },
  { x: 0, y: R, z: 0, w: R },
  { x: 0, y: 0, z: R, w: R },
];

function pose(t: Vec3, q: Quat = I): Isometry {
  return { translation: t, rotation: q };
}

/** Rotates v by unit q (q v q*), written apart from src/math. */
function rotate(q: Quat, v: Vec3): Vec3 {
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

/** Distance from world point p to the box of half extents h at pose `at`: clamp in its frame. */
function boxDistance(h: Vec3, at: Isometry, p: Vec3): number {
  const q = at.rotation;
  const inv = { x: -q.x, y: -q.y, z: -q.z, w: q.w };
  const l = rotate(inv, {
    x: p.x - at.translation.x,
    y: p.y - at.translation.y,
    z: p.z - at.translation.z,
  });
  const dx = Math.max(Math.abs(l.x) - h.x, 0);
  const dy = Math.max(Math.abs(l.y) - h.y, 0);
  const dz = Math.max(Math.abs(l.z) - h.z, 0);
  return Math.hypot(dx, dy, dz);
}

/** Distance from p to triangle abc by dense barycentric sampling refined by edge clamps (oracle). */
function triangleDistance(a: Vec3, b: Vec3, c: Vec3, p: Vec3): number {
  const sub = (u: Vec3, v: Vec3): Vec3 => ({ x: u.x - v.x, y: u.y - v.y, z: u.z - v.z });
  const dot = (u: Vec3, v: Vec3): number => u.x * v.x + u.y * v.y + u.z * v.z;
  const seg = (u: Vec3, v: Vec3): number => {
    const e = sub(v, u);
    const t = Math.min(1, Math.max(0, dot(sub(p, u), e) / dot(e, e)));
    return Math.hypot(p.x - u.x - t * e.x, p.y - u.y - t * e.y, p.z - u.z - t * e.z);
  };
  const e1 = sub(b, a);
  const e2 = sub(c, a);
  const n = {
    x: e1.y * e2.z - e1.z * e2.y,
    y: e1.z * e2.x - e1.x * e2.z,
    z: e1.x * e2.y - e1.y * e2.x,
  };
  const nn = dot(n, n);
  const w = sub(p, a);
  const h = dot(w, n) / nn;
  const f = sub(w, { x: h * n.x, y: h * n.y, z: h * n.z });
  // Barycentric of the foot: inside when both weights and their sum lie in [0, 1].
  const d00 = dot(e1, e1);
  const d01 = dot(e1, e2);
  const d11 = dot(e2, e2);
  const d20 = dot(f, e1);
  const d21 = dot(f, e2);
  const den = d00 * d11 - d01 * d01;
  const v = (d11 * d20 - d01 * d21) / den;
  const u = (d00 * d21 - d01 * d20) / den;
  if (v >= 0 && u >= 0 && u + v <= 1) return Math.abs(h) * Math.sqrt(nn);
  return Math.min(seg(a, b), seg(b, c), seg(c, a));
}

/** A shape with its own distance oracle. */
interface Posed {
  shape: Shape;
  at: Isometry;
  dist: (p: Vec3) => number;
}

function box(h: Vec3, at: Isometry, asHull = false): Posed {
  return { shape: boxShape(h, asHull), at, dist: (p) => boxDistance(h, at, p) };
}

function triangle(a: Vec3, b: Vec3, c: Vec3, at: Isometry): Posed {
  const w = (v: Vec3): Vec3 => {
    const r = rotate(at.rotation, v);
    return { x: r.x + at.translation.x, y: r.y + at.translation.y, z: r.z + at.translation.z };
  };
  const [wa, wb, wc] = [w(a), w(b), w(c)];
  return { shape: makeTriangle(a, b, c), at, dist: (p) => triangleDistance(wa, wb, wc, p) };
}

/** Magnitude of the pair's coordinates: the witness bar is a few ulps of it. */
function mag(...ps: Vec3[]): number {
  return Math.max(1, ...ps.flatMap((p) => [Math.abs(p.x), Math.abs(p.y), Math.abs(p.z)]));
}

/**
 * Every witness of contact, manifold, distance (when overlapping) and the world's contact lies
 * on its shape within `ulps` ulps of the coordinates' magnitude; returns whether a contact was
 * found.
 */
function expectWitnessesOnShapes(A: Posed, B: Posed, ulps: number, world = true): boolean {
  const bar = ulps * Number.EPSILON * mag(A.at.translation, B.at.translation);
  const c = contact(A.shape, A.at, B.shape, B.at);
  if (c === null) return false;
  expect(A.dist(c.pointA)).toBeLessThanOrEqual(bar);
  expect(B.dist(c.pointB)).toBeLessThanOrEqual(bar);
  const m = manifold(A.shape, A.at, B.shape, B.at);
  expect(m).not.toBeNull();
  if (m === null) return true;
  for (let i = 0; i < m.count; i++) {
    expect(A.dist(m.points[i].pointA)).toBeLessThanOrEqual(bar);
    expect(B.dist(m.points[i].pointB)).toBeLessThanOrEqual(bar);
  }
  const d = distance(A.shape, A.at, B.shape, B.at);
  expect(d.distance).toBe(0);
  expect(A.dist(d.pointA)).toBeLessThanOrEqual(bar);
  expect(B.dist(d.pointB)).toBeLessThanOrEqual(bar);
  if (world) {
    const w = new CollisionWorld();
    const ha = w.addBody({ shape: A.shape, pose: A.at });
    w.addBody({ shape: B.shape, pose: B.at });
    w.step();
    expect(w.contactCount).toBe(1);
    const wc = makeWorldContact();
    w.readContact(0, wc);
    const [onA, onB] = wc.a === ha ? ["pointA", "pointB"] : ["pointB", "pointA"];
    for (let i = 0; i < wc.manifold.count; i++) {
      const p = wc.manifold.points[i] as unknown as Record<string, Vec3>;
      expect(A.dist(p[onA])).toBeLessThanOrEqual(bar);
      expect(B.dist(p[onB])).toBeLessThanOrEqual(bar);
    }
  }
  return true;
}

describe("flat boxes meeting edge to edge (fresh43 01)", () => {
  it("the reported case: witnesses at the crossing (1, 0, 0.7), in contact, manifold and world", () => {
    const A = makeCuboid({ x: 1, y: 0, z: 0.8 });
    const B = makeCuboid({ x: 0.75, y: 0.9, z: 0 });
    const pA = pose({ x: 0, y: 0, z: 0 });
    for (const dx of [0, -1e-3]) {
      const pB = pose({ x: 1.75 + dx, y: 0.5, z: 0.7 });
      const c = contact(A, pA, B, pB);
      expect(c).not.toBeNull();
      if (c === null) continue;
      expect([c.normal.x, c.normal.y, c.normal.z]).toEqual([1, 0, 0]);
      // By hand: A's edge x = 1 (y = 0) crosses B's plane z = 0.7 there; B's edge is x = 1 + dx.
      expect([c.pointA.x, c.pointA.y, c.pointA.z]).toEqual([1, 0, 0.7]);
      expect([c.pointB.x, c.pointB.y, c.pointB.z]).toEqual([1.75 + dx - 0.75, 0, 0.7]);
      const m = manifold(A, pA, B, pB);
      expect(m?.count).toBe(1);
      expect([m?.points[0].pointA.x, m?.points[0].pointA.y, m?.points[0].pointA.z]).toEqual([
        1, 0, 0.7,
      ]);
      expectWitnessesOnShapes(
        { shape: A, at: pA, dist: (p) => boxDistance(A.halfExtents, pA, p) },
        { shape: B, at: pB, dist: (p) => boxDistance(B.halfExtents, pB, p) },
        4,
      );
    }
  });

  // Dyadic half extents and offsets (test/support/flat-box.ts): every coordinate below is exact.

  it("property: two flat boxes' edges crossing (exact rationals, axes permuted, both orders)", () => {
    fc.assert(
      fc.property(
        dyadic(1, 32),
        dyadic(1, 32),
        dyadic(1, 32),
        dyadic(1, 32),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom([0, 1, 2], [1, 2, 0], [2, 0, 1], [1, 0, 2]),
        fc.constantFrom(1, -1),
        (hx, hz, bx, by, ky, kz, kp, perm, side) => {
          // A = {|x| ≤ hx, y = 0, |z| ≤ hz}; B = {x ∈ side·hx + [−pen, 2bx − pen], |y − ty| ≤ by, z = tz},
          // |ty| < by, |tz| < hz, pen below both margins: the least overlap is pen along x.
          const ty = (ky / 16) * by;
          const tz = (kz / 16) * hz;
          const pen = (kp / 64) * Math.min(by - Math.abs(ty), hz - Math.abs(tz));
          const P = (v: Vec3): Vec3 => permuted(v, perm);
          const ha = P({ x: hx, y: 0, z: hz });
          const hb = P({ x: bx, y: by, z: 0 });
          const pA = pose({ x: 0, y: 0, z: 0 });
          const pB = pose(P({ x: side * (hx + bx - pen), y: ty, z: tz }));
          const A = makeCuboid(ha);
          const B = makeCuboid(hb);
          const wantA = P({ x: side * hx, y: 0, z: tz });
          const wantB = P({ x: side * (hx - pen), y: 0, z: tz });
          for (const swap of [false, true]) {
            const c = swap ? contact(B, pB, A, pA) : contact(A, pA, B, pB);
            expect(c).not.toBeNull();
            if (c === null) return;
            const [pa, pb] = swap ? [c.pointB, c.pointA] : [c.pointA, c.pointB];
            expect(c.distance + 0).toBe(0 - pen);
            expect([pa.x, pa.y, pa.z]).toEqual([wantA.x, wantA.y, wantA.z]);
            expect([pb.x, pb.y, pb.z]).toEqual([wantB.x, wantB.y, wantB.z]);
          }
          expectWitnessesOnShapes(
            { shape: A, at: pA, dist: (p) => boxDistance(ha, pA, p) },
            { shape: B, at: pB, dist: (p) => boxDistance(hb, pB, p) },
            4,
            false,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a line-like box through a flat box (exact crossing point)", () => {
    fc.assert(
      fc.property(
        dyadic(1, 32),
        dyadic(1, 32),
        dyadic(1, 32),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom([0, 1, 2], [1, 2, 0], [2, 0, 1]),
        (hx, by, bz, ky, kz, kp, perm) => {
          // A = the segment |x| ≤ hx (y = z = 0); B = the plate x = hx − pen, |y − ty| ≤ by,
          // |z − tz| ≤ bz around the segment: least overlap pen along x, B pushed out past A's end.
          const ty = (ky / 16) * by;
          const tz = (kz / 16) * bz;
          const pen = (kp / 64) * Math.min(by - Math.abs(ty), bz - Math.abs(tz), hx);
          const P = (v: Vec3): Vec3 => permuted(v, perm);
          const ha = P({ x: hx, y: 0, z: 0 });
          const hb = P({ x: 0, y: by, z: bz });
          const pA = pose({ x: 0, y: 0, z: 0 });
          const pB = pose(P({ x: hx - pen, y: ty, z: tz }));
          const A = makeCuboid(ha);
          const B = makeCuboid(hb);
          const c = contact(A, pA, B, pB);
          expect(c).not.toBeNull();
          if (c === null) return;
          expect(c.distance + 0).toBe(0 - pen);
          const wantA = P({ x: hx, y: 0, z: 0 });
          const wantB = P({ x: hx - pen, y: 0, z: 0 });
          expect([c.pointA.x, c.pointA.y, c.pointA.z]).toEqual([wantA.x, wantA.y, wantA.z]);
          expect([c.pointB.x, c.pointB.y, c.pointB.z]).toEqual([wantB.x, wantB.y, wantB.z]);
          expectWitnessesOnShapes(
            { shape: A, at: pA, dist: (p) => boxDistance(ha, pA, p) },
            { shape: B, at: pB, dist: (p) => boxDistance(hb, pB, p) },
            4,
            false,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a line-like box across a flat box near its edge", () => {
  it("property: the least overlap is in the plate's plane; witnesses where the line crosses it", () => {
    fc.assert(
      fc.property(
        dyadic(1, 32),
        dyadic(1, 32),
        dyadic(1, 32),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1]),
        (hx, hy, bz, ky, kz, kp, perm) => {
          // A = the plate |x| ≤ hx, |y| ≤ hy, z = 0; B = the segment x = hx − pen, y = ty,
          // |z − tz| ≤ bz through it: least overlap pen along x (B pushed off the plate's edge).
          const ty = (ky / 16) * hy;
          const tz = (kz / 16) * bz;
          const pen = (kp / 64) * Math.min(hy - Math.abs(ty), bz - Math.abs(tz), hx);
          const P = (v: Vec3): Vec3 => permuted(v, perm);
          const ha = P({ x: hx, y: hy, z: 0 });
          const hb = P({ x: 0, y: 0, z: bz });
          const pA = pose({ x: 0, y: 0, z: 0 });
          const pB = pose(P({ x: hx - pen, y: ty, z: tz }));
          const A = makeCuboid(ha);
          const B = makeCuboid(hb);
          const wantA = P({ x: hx, y: ty, z: 0 });
          const wantB = P({ x: hx - pen, y: ty, z: 0 });
          for (const swap of [false, true]) {
            const c = swap ? contact(B, pB, A, pA) : contact(A, pA, B, pB);
            expect(c).not.toBeNull();
            if (c === null) return;
            const [pa, pb] = swap ? [c.pointB, c.pointA] : [c.pointA, c.pointB];
            expect(c.distance + 0).toBe(0 - pen);
            expect([pa.x, pa.y, pa.z]).toEqual([wantA.x, wantA.y, wantA.z]);
            expect([pb.x, pb.y, pb.z]).toEqual([wantB.x, wantB.y, wantB.z]);
          }
          expectWitnessesOnShapes(
            { shape: A, at: pA, dist: (p) => boxDistance(ha, pA, p) },
            { shape: B, at: pB, dist: (p) => boxDistance(hb, pB, p) },
            4,
            false,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("degenerate boxes against boxes, hulls and triangles: witnesses on their shapes", () => {
  const he = fc.constantFrom(0.125, 0.25, 0.5, 0.75, 1, 1.5);
  const coord = fc.integer({ min: -16, max: 16 }).map((i) => i / 8);
  /** Half extents with one zero (flat) or two (line-like). */
  const degenerate = fc.tuple(he, he, he, fc.nat(2), fc.boolean()).map(([a, b, c, k, line]) => {
    const h: number[] = [a, b, c];
    h[k] = 0;
    if (line) h[(k + 1) % 3] = 0;
    return { x: h[0], y: h[1], z: h[2] };
  });

  it("property: placed touching, 2^-30 deep or 1/8 deep along an axis (half turns exact, quarter turns rounded)", () => {
    fc.assert(
      fc.property(
        degenerate,
        fc.nat(4),
        fc.tuple(he, he, he),
        degenerate,
        fc.tuple(coord, coord, coord),
        fc.tuple(coord, coord, coord),
        fc.constantFrom(...HALF_TURNS, ...QUARTER_TURNS),
        fc.constantFrom(...HALF_TURNS),
        fc.nat(2),
        fc.constantFrom(1, -1),
        fc.constantFrom(0, 2 ** -30, 0.125),
        (ha, kind, hFull, hDeg, tA, off, qA, qB, k, side, pen) => {
          const at = pose({ x: tA[0], y: tA[1], z: tA[2] }, qA);
          const A = box(ha, at);
          // B's corners or vertices in its frame (B turned by a half turn: signs only).
          const hb = kind === 1 ? hDeg : { x: hFull[0], y: hFull[1], z: hFull[2] };
          const tri = [
            { x: -1, y: -0.5, z: 0 },
            { x: 1, y: -0.5, z: 0.25 },
            { x: 0, y: 1, z: -0.25 },
          ];
          const local = kind === 4 ? tri : boxCorners(hb);
          const world = local.map((v) => rotate(qB, v));
          const axis = (["x", "y", "z"] as const)[k];
          // A's extent along the axis in the world (its rotation mixes axes for a quarter turn).
          const aw = boxCorners(ha).map((v) => rotate(qA, v)[axis]);
          const aHi = Math.max(...aw);
          const aLo = Math.min(...aw);
          const bLo = Math.min(...world.map((v) => v[axis]));
          const bHi = Math.max(...world.map((v) => v[axis]));
          const t = { x: tA[0] + off[0], y: tA[1] + off[1], z: tA[2] + off[2] };
          t[axis] = side > 0 ? tA[k] + aHi - bLo - pen : tA[k] + aLo - bHi + pen;
          const bt = pose(t, qB);
          const B =
            kind === 4
              ? triangle(tri[0], tri[1], tri[2], bt)
              : box(hb, bt, kind === 2 || (kind === 3 && hb.z > 0));
          const ulps = qA.w === 1 || qA.w === 0 ? 8 : 64;
          expectWitnessesOnShapes(A, B, ulps, kind !== 4);
          expectWitnessesOnShapes(B, A, ulps, false);
        },
      ),
      { numRuns: 400 },
    );
  });
});
