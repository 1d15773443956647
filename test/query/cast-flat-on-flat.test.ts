/**
 * `castShapes` and the world's `castShape` of a flat or degenerate shape (a zero-thickness box, a
 * line-like box with two zero half extents, a flat hull, a triangle) a tiny gap above a flat face
 * (a flat box, a solid box's or hull's top, a flat hull, a mesh, a heightfield, a triangle),
 * moving down onto it (fresh-user finding 08). A gap within the stopping tolerance (1e-10 of the
 * smaller shape) was answered null: the shape passed through the face. The time-0 normal closed
 * the gap, but the probe 2^14 tolerances of travel later, past the face, found the opposite normal
 * (the face now on the other side), which "separated" the pair at time 0 up to the tolerance and
 * opened: `partsAfterProbe` took it as a proof that they never meet. Two flat shapes in parallel
 * planes are separated up to the tolerance along both n and −n, so that plane proves nothing; the
 * cast now advances on the time-0 normal (`crossesFlat` in src/query/cast-shapes.ts).
 *
 * Oracle: the motion is a translation straight down at speed v, the floor's face is the plane
 * y = 0 and is wider than the mover, so the first contact is when the mover's lowest vertex
 * reaches y = 0: toi = h / v with h that vertex's height at time 0 (the mover's vertices rotated
 * by its pose in doubles here; its placement puts the lowest one at the chosen gap). Untilted,
 * h is the gap exactly (the mover's plane is y = gap). The bar: within 16 × the stopping tolerance
 * of the contract (docs/FORMATS.md, castShapes) in distance, and the untilted pairs to 1e-6 of the
 * gap (they are answered to rounding), unless answered 0 at a start `intersects` calls touching.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Quat } from "../../src/math/quat.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import {
  makeConvexPolyhedron,
  makeCuboid,
  makeHeightfield,
  makeTriangle,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";

const I: Quat = { x: 0, y: 0, z: 0, w: 1 };
const ZERO: Vec3 = { x: 0, y: 0, z: 0 };

const MOVERS = ["zero box", "line box", "flat hull", "triangle"] as const;
const FLOORS = [
  "flat box",
  "solid box",
  "solid hull",
  "flat hull",
  "mesh",
  "heightfield",
  "triangle",
] as const;

/** A mover of half size m in the plane y = 0 of its frame, with its vertices. */
function mover(kind: (typeof MOVERS)[number], m: number): { shape: Shape; vertices: Vec3[] } {
  const quad = [
    { x: -m, y: 0, z: -m },
    { x: m, y: 0, z: -m },
    { x: m, y: 0, z: m },
    { x: -m, y: 0, z: m },
  ];
  switch (kind) {
    case "zero box":
      return { shape: makeCuboid({ x: m, y: 0, z: m }), vertices: quad };
    case "line box":
      return {
        shape: makeCuboid({ x: 0, y: 0, z: m }),
        vertices: [
          { x: 0, y: 0, z: -m },
          { x: 0, y: 0, z: m },
        ],
      };
    case "flat hull":
      return { shape: makeConvexPolyhedron(quad), vertices: quad };
    case "triangle": {
      const v = [quad[0], quad[1], { x: 0, y: 0, z: m }];
      return { shape: makeTriangle(v[0], v[1], v[2]), vertices: v };
    }
  }
}

/** A floor of half size s whose top face is the plane y = 0 of the world, centred at the origin. */
function floor(kind: (typeof FLOORS)[number], s: number): { shape: Shape; at: Vec3 } {
  const quad = [-s, 0, -s, s, 0, -s, s, 0, s, -s, 0, s];
  switch (kind) {
    case "flat box":
      return { shape: makeCuboid({ x: s, y: 0, z: s }), at: ZERO };
    case "solid box":
      return { shape: makeCuboid({ x: s, y: s / 2, z: s }), at: { x: 0, y: -s / 2, z: 0 } };
    case "solid hull":
      return {
        shape: makeConvexPolyhedron([...quad, -s, -s, -s, s, -s, -s, s, -s, s, -s, -s, s]),
        at: ZERO,
      };
    case "flat hull":
      return { shape: makeConvexPolyhedron(quad), at: ZERO };
    case "mesh":
      return { shape: makeTriangleMesh(quad, [0, 2, 1, 0, 3, 2]), at: ZERO };
    case "heightfield":
      return {
        shape: makeHeightfield({
          rows: 3,
          cols: 3,
          heights: [0, 0, 0, 0, 0, 0, 0, 0, 0],
          scale: { x: s, y: 1, z: s },
        }),
        at: { x: -s, y: 0, z: -s },
      };
    case "triangle":
      return {
        shape: makeTriangle({ x: -s, y: 0, z: -s }, { x: s, y: 0, z: -s }, { x: 0, y: 0, z: s }),
        at: ZERO,
      };
  }
}

type Case = {
  moverKind: (typeof MOVERS)[number];
  floorKind: (typeof FLOORS)[number];
  size: number;
  gapFraction: number;
  tilt: number;
  tiltAxis: number;
};

/** The mover's pose (lowest vertex at height gap) and the oracle's height h of that vertex. */
function place(c: Case, vertices: Vec3[]): { rotation: Quat; y: number; h: number } {
  const gap = c.gapFraction * c.size;
  const ax = Math.cos(c.tiltAxis);
  const az = Math.sin(c.tiltAxis);
  const half = c.tilt / 2;
  const rotation = { x: ax * Math.sin(half), y: 0, z: az * Math.sin(half), w: Math.cos(half) };
  let low = Number.POSITIVE_INFINITY;
  const p = { x: 0, y: 0, z: 0 };
  for (const v of vertices) {
    quat.rotate(p, rotation, v);
    low = Math.min(low, p.y);
  }
  const y = gap - low;
  return { rotation, y, h: y + low };
}

/** Casts the case in both argument orders and through the world; returns the tois. */
function castCase(c: Case): { h: number; speed: number; tois: (number | null)[]; tol: number } {
  const s = c.size;
  const m = mover(c.moverKind, 0.25 * s);
  const f = floor(c.floorKind, s);
  const { rotation, y, h } = place(c, m.vertices);
  const poseM = { translation: { x: 0, y, z: 0 }, rotation };
  const poseF = { translation: f.at, rotation: I };
  const down = { x: 0, y: -s, z: 0 };
  const up = { x: 0, y: s, z: 0 };
  const tois: (number | null)[] = [];
  const ab = castShapes(m.shape, poseM, down, f.shape, poseF, ZERO, 10);
  tois.push(ab === null ? null : ab.toi);
  const ba = castShapes(f.shape, poseF, ZERO, m.shape, poseM, down, 10);
  tois.push(ba === null ? null : ba.toi);
  // The floor rising onto a resting mover: the same relative motion.
  const rise = castShapes(m.shape, poseM, ZERO, f.shape, poseF, up, 10);
  tois.push(rise === null ? null : rise.toi);
  const world = new CollisionWorld();
  world.addBody({ shape: f.shape, pose: poseF, kind: "static" });
  const wh = castShape(world, m.shape, poseM, down, 10);
  tois.push(wh === null ? null : wh.toi);
  // 16 × the stopping tolerance (1e-10 of the smaller shape's radius, 1e-13 of the coordinates).
  const tol = 16 * (1e-10 * 0.25 * Math.SQRT2 * s + 1e-13 * 2 * s);
  return { h, speed: s, tois, tol };
}

function check(c: Case): void {
  const { h, speed, tois, tol } = castCase(c);
  for (const toi of tois) {
    expect(toi, `${JSON.stringify(c)}: no tunnelling`).not.toBeNull();
    const d = (toi as number) * speed;
    // Never past the contact, never short of it by more than the bar.
    expect(
      Math.abs(d - Math.max(0, h)),
      `${JSON.stringify(c)}: toi·v ${d} vs h ${h}`,
    ).toBeLessThanOrEqual(tol);
    // Toi 0 where `intersects` calls the start touching (two flat hulls 2^-60 apart: GJK's
    // rounding), within the bar above; any later answer is the gap's own time.
    if (c.tilt === 0 && h > 0 && toi !== 0) expect(Math.abs(d - h)).toBeLessThanOrEqual(1e-6 * h);
  }
}

describe("castShapes: a flat shape onto a flat face (finding 08)", () => {
  it("the repro: a zero-thickness tile, a line box, 1e-11 above a flat box, a mesh, a triangle", () => {
    for (const moverKind of ["zero box", "line box"] as const)
      for (const floorKind of ["flat box", "mesh", "triangle"] as const)
        for (const gapFraction of [2 ** -40, 1e-11, 1e-9])
          check({ moverKind, floorKind, size: 1, gapFraction, tilt: 0, tiltAxis: 0 });
  });

  it("every mover kind onto every floor kind, parallel and tilted, gaps 0, 1e-300, 2^-60 and 2^-40..2^-10", () => {
    for (const moverKind of MOVERS)
      for (const floorKind of FLOORS)
        for (const gapFraction of [0, 1e-300, 2 ** -60, 2 ** -40, 2 ** -33, 2 ** -25, 2 ** -10])
          for (const tilt of [0, 1e-12, 1e-9, 1e-3])
            check({ moverKind, floorKind, size: 1, gapFraction, tilt, tiltAxis: 0.7 });
  });

  it("property: sizes 2^-10..2^10, gaps 0 and 2^-40..2^-10 of the size, both orders, the world", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MOVERS),
        fc.constantFrom(...FLOORS),
        fc.integer({ min: -10, max: 10 }),
        fc.oneof(
          fc.constant(0),
          fc.double({ min: -40, max: -10, noNaN: true }).map((e) => 2 ** e),
        ),
        fc.oneof(
          fc.constant(0),
          fc.double({ min: -45, max: -6, noNaN: true }).map((e) => 2 ** e),
        ),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (moverKind, floorKind, e, gapFraction, tilt, tiltAxis) => {
          check({ moverKind, floorKind, size: 2 ** e, gapFraction, tilt, tiltAxis });
        },
      ),
      { numRuns: 300, seed: 8043 },
    );
  });
});
