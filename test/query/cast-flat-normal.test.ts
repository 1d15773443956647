/**
 * `castShapes` between two flat shapes (zero thickness: triangles, flat hulls, surface meshes,
 * heightfields, a compound of a flat hull, 2D segments) closing face to face in parallel planes
 * (issue 16, fresh-user attack 39, finding 3). At the time of impact the two lie in one plane,
 * so their Minkowski difference is flat and the plane's two normals both support it; the contact
 * routine's sign was arbitrary: a triangle cast onto a triangle gave (1, 0, 0) in both argument
 * orders, a flat tile falling onto a tile (0, −1, 0), the world's CCD the floor's normal pointing
 * away from the faller. Now the sign is the one of a first contact (`orientFlatContact` in
 * src/query/cast-shapes.ts, `orientFlatContact2` in src/dim2/cast-shapes2.ts).
 *
 * Oracle: the normal is from A toward B (docs/FORMATS.md, castShapes), and under a translation
 * the shapes meet where the relative path enters their Minkowski difference, against its outward
 * normal: n·(v_B − v_A) < 0 at a face-on meeting. The repros' normals and times are derived by
 * hand (planes x = 0 and x = 3 closing at speed 1 meet at t = 3 with normal +x from the left
 * shape to the right one); the property builds parallel flat pairs with the meeting time, the
 * plane's normal and the side B comes from known by construction.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castShapes2D } from "../../src/dim2/cast-shapes2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import { makeSegment } from "../../src/dim2/shapes.js";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import {
  makeCompound,
  makeConvexPolyhedron,
  makeHeightfield,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { quatObjArb } from "../fuzz/arbitraries.js";

type Hit = { toi: number; normal: number[]; pointA: number[]; pointB: number[] } | null;

/** The `collide query` answer of a castShapes line (the hit, or null). */
function query(q: object): Hit {
  return answerQuery({ op: "castShapes", ...q }) as Hit;
}

const I = { x: 0, y: 0, z: 0, w: 1 };

/** Expects hit's toi and its normal within 1e-12 of the hand-derived ones. */
function expectHit(h: Hit, toi: number, normal: number[]): void {
  expect(h).toBeTypeOf("object");
  expect(h).not.toBeNull();
  if (!h) return;
  expect(h.normal).toHaveLength(normal.length);
  expect(h.toi).toBeCloseTo(toi, 9);
  for (let i = 0; i < normal.length; i++)
    expect(Math.abs(h.normal[i] - normal[i])).toBeLessThan(1e-12);
}

describe("the attack's repros, both argument orders (hand-derived normals)", () => {
  const triL = { type: "triangle", a: [0, 0, 0], b: [0, 1, 0], c: [0, 0, 1] };
  const triR = { type: "triangle", a: [3, 0, 0], b: [3, 1, 0], c: [3, 0, 1] };
  const v0 = [0, 0, 0];
  const vx = [1, 0, 0];
  // Left shape at x = 0 moving +x at 1, right one at x = 3: toi 3; A left → +x, A right → −x.
  it("triangle onto triangle", () => {
    expectHit(query({ a: triL, velocityA: vx, b: triR, velocityB: v0 }), 3, [1, 0, 0]);
    expectHit(query({ a: triR, velocityA: v0, b: triL, velocityB: vx }), 3, [-1, 0, 0]);
  });
  it("flat hull onto flat hull", () => {
    const l = {
      type: "convex",
      points: [
        [0, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [0, 1, 1],
      ],
    };
    const r = {
      type: "convex",
      points: [
        [3, 0, 0],
        [3, 1, 0],
        [3, 0, 1],
        [3, 1, 1],
      ],
    };
    expectHit(query({ a: l, velocityA: vx, b: r, velocityB: v0 }), 3, [1, 0, 0]);
    expectHit(query({ a: r, velocityA: v0, b: l, velocityB: vx }), 3, [-1, 0, 0]);
  });
  it("triangle onto a one-triangle mesh", () => {
    const m = {
      type: "mesh",
      vertices: [
        [3, 0, 0],
        [3, 1, 0],
        [3, 0, 1],
      ],
      indices: [[0, 1, 2]],
    };
    expectHit(query({ a: triL, velocityA: vx, b: m, velocityB: v0 }), 3, [1, 0, 0]);
    expectHit(query({ a: m, velocityA: v0, b: triL, velocityB: vx }), 3, [-1, 0, 0]);
  });
  // A floor at y = 0, a faller at y = 3 moving −y at 1: toi 3; A the floor → +y, A the faller → −y.
  const tile = (y: number) => ({
    type: "convex",
    points: [
      [-1, y, -1],
      [1, y, -1],
      [1, y, 1],
      [-1, y, 1],
    ],
  });
  const quad = {
    type: "mesh",
    vertices: [
      [-1, 0, -1],
      [1, 0, -1],
      [1, 0, 1],
      [-1, 0, 1],
    ],
    indices: [
      [0, 2, 1],
      [0, 3, 2],
    ],
  };
  const down = [0, -1, 0];
  it("flat tile onto tile", () => {
    expectHit(query({ a: tile(0), velocityA: v0, b: tile(3), velocityB: down }), 3, [0, 1, 0]);
    expectHit(query({ a: tile(3), velocityA: down, b: tile(0), velocityB: v0 }), 3, [0, -1, 0]);
  });
  it("flat tile, triangle and mesh quad onto a mesh and a heightfield", () => {
    const hf = {
      type: "heightfield",
      rows: 2,
      cols: 2,
      heights: [0, 0, 0, 0],
      scale: [4, 1, 4],
      position: [-2, 0, -2],
    };
    const tri = { type: "triangle", a: [-0.5, 3, -0.5], b: [0.5, 3, -0.5], c: [0, 3, 0.5] };
    const quadUp = { ...quad, position: [0.2, 3, 0.1] };
    for (const floor of [quad, hf]) {
      for (const faller of [tile(3), tri, quadUp]) {
        expectHit(query({ a: floor, velocityA: v0, b: faller, velocityB: down }), 3, [0, 1, 0]);
        expectHit(query({ a: faller, velocityA: down, b: floor, velocityB: v0 }), 3, [0, -1, 0]);
      }
    }
  });
  it("two vertical mesh quads closing along −z", () => {
    const r = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];
    const a = { ...quad, rotation: r, vertices: quad.vertices.map((p) => p.map((c) => c / 2)) };
    const pos = [0.2966933727264404, 2.323496103286743, 0.10501284599304199];
    const b = { ...a, position: pos };
    const vB = [-0.09226419925689697, -1, -0.04770175516605377];
    // The quads lie in planes z = const (the rotation takes local y to z); B's plane at z = pos[2]
    // closes at |vB.z|: toi = pos[2] / −vB.z, normal +z from A (below in z) to B.
    const toi = pos[2] / -vB[2];
    expectHit(query({ a, velocityA: v0, b, velocityB: vB }), toi, [0, 0, 1]);
    expectHit(query({ a: b, velocityA: vB, b: a, velocityB: v0 }), toi, [0, 0, -1]);
  });
  it("2D segment onto segment", () => {
    const l = { type: "segment", a: [0, 0], b: [0, 1] };
    const r = { type: "segment", a: [3, -1], b: [3, 0.5] };
    expectHit(query({ dim: 2, a: l, velocityA: [1, 0], b: r, velocityB: [0, 0] }), 3, [1, 0]);
    expectHit(query({ dim: 2, a: r, velocityA: [0, 0], b: l, velocityB: [1, 0] }), 3, [-1, 0]);
  });
});

describe("the world's CCD: a flat tile falling fast onto a static tile", () => {
  for (const floorFirst of [true, false]) {
    it(`impacts() gives the normal from a toward b (floor added ${floorFirst ? "first" : "second"})`, () => {
      const t = makeConvexPolyhedron([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1]);
      const w = new CollisionWorld({});
      const pose = (x: number, y: number, z: number): Isometry => ({
        translation: { x, y, z },
        rotation: I,
      });
      const add = (floor: boolean) =>
        floor
          ? w.addBody({ shape: t, pose: pose(0, 0, 0), kind: "static" })
          : w.addBody({ shape: t, pose: pose(0.2, 3, 0.1), ccd: true });
      const first = add(floorFirst);
      const second = add(!floorFirst);
      const floor = floorFirst ? first : second;
      w.step();
      w.setPose(floorFirst ? second : first, pose(0.2, -3, 0.1));
      w.step();
      const im = w.impacts();
      expect(im.count).toBe(1);
      const r = im.read(0);
      // The faller crosses y = 0 halfway through its move from y = 3 to y = −3.
      expect(r.toi).toBeCloseTo(0.5, 9);
      const up = r.a === floor ? 1 : -1;
      expect(r.normal.x).toBeCloseTo(0, 12);
      expect(r.normal.y).toBeCloseTo(up, 12);
      expect(r.normal.z).toBeCloseTo(0, 12);
    });
  }
});

/** The flat kinds, each in the plane y = 0 of its frame with half size s about `centre`. */
type Flat = { shape: Shape; centre: Vec3 };
const FLAT_KINDS = ["triangle", "tile", "mesh", "heightfield", "compound"] as const;

function flat(kind: (typeof FLAT_KINDS)[number], s: number): Flat {
  const o = { x: 0, y: 0, z: 0 };
  const quadPoints = [-s, 0, -s, s, 0, -s, s, 0, s, -s, 0, s];
  switch (kind) {
    case "triangle":
      return {
        shape: makeTriangle({ x: -s, y: 0, z: -s }, { x: s, y: 0, z: -s }, { x: 0, y: 0, z: s }),
        centre: o,
      };
    case "tile":
      return { shape: makeConvexPolyhedron(quadPoints), centre: o };
    case "mesh":
      return { shape: makeTriangleMesh(quadPoints, [0, 2, 1, 0, 3, 2]), centre: o };
    case "heightfield":
      return {
        shape: makeHeightfield({
          rows: 2,
          cols: 2,
          heights: [0, 0, 0, 0],
          scale: { x: 2 * s, y: 1, z: 2 * s },
        }),
        centre: { x: s, y: 0, z: s },
      };
    case "compound":
      return {
        shape: makeCompound([
          { shape: makeConvexPolyhedron(quadPoints), pose: { translation: o, rotation: I } },
        ]),
        centre: o,
      };
  }
}

const unitQuat = quatObjArb;
// Axis-aligned frames too: the attack's failures were all aligned.
const frame = fc.oneof(
  fc.constant(I),
  fc.constant({ x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 }),
  fc.constant({ x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 }),
  unitQuat,
);
const logUniform = (lo: number, hi: number) =>
  fc.double({ min: Math.log10(lo), max: Math.log10(hi), noNaN: true }).map((e) => 10 ** e);
const signed = (m: number) => fc.double({ min: -m, max: m, noNaN: true });
const sign = fc.constantFrom(1, -1);

function rotate(q: Quat, v: Vec3): Vec3 {
  return quat.rotate({ x: 0, y: 0, z: 0 }, q, v);
}

/** The world pose putting flat `f`'s centre at `at`, its plane's normal along R·(0, 1, 0). */
function placed(f: Flat, r: Quat, at: Vec3): Isometry {
  const c = rotate(r, f.centre);
  return { translation: { x: at.x - c.x, y: at.y - c.y, z: at.z - c.z }, rotation: r };
}

describe("property: parallel flat pairs closing face to face", () => {
  it("the normal is ±the planes' normal, opposes v_B − v_A, and swapping A and B negates it", () => {
    fc.assert(
      fc.property(
        fc.record({
          kindA: fc.constantFrom(...FLAT_KINDS),
          kindB: fc.constantFrom(...FLAT_KINDS),
          sA: logUniform(1e-3, 1e3),
          sB: logUniform(1e-3, 1e3),
          r: frame,
          // B's own turn about the planes' normal (its plane stays parallel).
          spin: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
          side: sign,
          offset: fc.record({ x: signed(1e6), y: signed(1e6), z: signed(1e6) }),
          lateral: fc.tuple(signed(0.2), signed(0.2)),
          gap: logUniform(0.01, 100),
          closing: logUniform(0.01, 100),
          slide: fc.tuple(signed(10), signed(10)),
          vA: fc.record({ x: signed(100), y: signed(100), z: signed(100) }),
        }),
        (p) => {
          const a = flat(p.kindA, p.sA);
          const b = flat(p.kindB, p.sB);
          const small = Math.min(p.sA, p.sB);
          const up = rotate(p.r, { x: 0, y: 1, z: 0 });
          const rB = quat.multiply(quat.identity(), p.r, {
            x: 0,
            y: Math.sin(p.spin / 2),
            z: 0,
            w: Math.cos(p.spin / 2),
          });
          // B meets A at time T = gap·size / closing with its centre beside A's by the lateral
          // offset (inside both faces: each holds the disc of radius 0.44·s about its centre).
          const scale = Math.max(p.sA, p.sB);
          const T = (p.gap * scale) / (p.closing * scale);
          const rel = rotate(p.r, {
            x: p.slide[0] * p.closing * scale,
            y: -p.side * p.closing * scale,
            z: p.slide[1] * p.closing * scale,
          });
          const meet = rotate(p.r, { x: p.lateral[0] * small, y: 0, z: p.lateral[1] * small });
          const startB = {
            x: p.offset.x + meet.x - rel.x * T,
            y: p.offset.y + meet.y - rel.y * T,
            z: p.offset.z + meet.z - rel.z * T,
          };
          const poseA = placed(a, p.r, p.offset);
          const poseB = placed(b, rB, startB);
          const vB = { x: p.vA.x + rel.x, y: p.vA.y + rel.y, z: p.vA.z + rel.z };
          const h1 = castShapes(a.shape, poseA, p.vA, b.shape, poseB, vB, 2 * T);
          const h2 = castShapes(b.shape, poseB, vB, a.shape, poseA, p.vA, 2 * T);
          expect(h1).not.toBeNull();
          expect(h2).not.toBeNull();
          if (!h1 || !h2) return;
          // The meeting time: the relative motion crosses the plane gap at the closing speed.
          expect(Math.abs(h1.toi - T)).toBeLessThanOrEqual(1e-6 * T);
          expect(Math.abs(h2.toi - T)).toBeLessThanOrEqual(1e-6 * T);
          const d1 = h1.normal.x * up.x + h1.normal.y * up.y + h1.normal.z * up.z;
          const d2 = h2.normal.x * up.x + h2.normal.y * up.y + h2.normal.z * up.z;
          // From A toward B: B comes from the `side` of A's plane.
          expect(d1 * p.side).toBeGreaterThan(1 - 1e-9);
          expect(d2 * p.side).toBeLessThan(-(1 - 1e-9));
          const close1 = h1.normal.x * rel.x + h1.normal.y * rel.y + h1.normal.z * rel.z;
          expect(close1).toBeLessThan(0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("2D: parallel segments closing across their line", () => {
    fc.assert(
      fc.property(
        fc.record({
          sA: logUniform(1e-3, 1e3),
          sB: logUniform(1e-3, 1e3),
          theta: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
          flipB: fc.boolean(),
          side: sign,
          offset: fc.tuple(signed(1e6), signed(1e6)),
          lateral: signed(0.5),
          gap: logUniform(0.01, 100),
          closing: logUniform(0.01, 100),
          slide: signed(10),
          vA: fc.tuple(signed(100), signed(100)),
        }),
        (p) => {
          const a = makeSegment({ x: -p.sA, y: 0 }, { x: p.sA, y: 0 });
          const b = makeSegment({ x: -p.sB, y: 0 }, { x: p.sB, y: 0 });
          const c = Math.cos(p.theta);
          const s = Math.sin(p.theta);
          // Local x along the segment, local y its normal: (−s, c).
          const along = (u: number, v: number) => ({ x: c * u - s * v, y: s * u + c * v });
          const scale = Math.max(p.sA, p.sB);
          const T = p.gap / p.closing;
          const rel = along(p.slide * p.closing * scale, -p.side * p.closing * scale);
          const meet = along(p.lateral * Math.min(p.sA, p.sB), 0);
          const poseA: Pose2 = { p: { x: p.offset[0], y: p.offset[1] }, q: { c, s } };
          const qB = p.flipB ? { c: -c, s: -s } : { c, s };
          const poseB: Pose2 = {
            p: { x: p.offset[0] + meet.x - rel.x * T, y: p.offset[1] + meet.y - rel.y * T },
            q: qB,
          };
          const vA = { x: p.vA[0], y: p.vA[1] };
          const vB = { x: vA.x + rel.x, y: vA.y + rel.y };
          const h1 = castShapes2D(a, poseA, vA, b, poseB, vB, 2 * T);
          const h2 = castShapes2D(b, poseB, vB, a, poseA, vA, 2 * T);
          expect(h1).not.toBeNull();
          expect(h2).not.toBeNull();
          if (!h1 || !h2) return;
          expect(Math.abs(h1.toi - T)).toBeLessThanOrEqual(1e-6 * T);
          expect(Math.abs(h2.toi - T)).toBeLessThanOrEqual(1e-6 * T);
          const up = along(0, 1);
          expect((h1.normal.x * up.x + h1.normal.y * up.y) * p.side).toBeGreaterThan(1 - 1e-9);
          expect((h2.normal.x * up.x + h2.normal.y * up.y) * p.side).toBeLessThan(-(1 - 1e-9));
        },
      ),
      { numRuns: 400 },
    );
  });
});
