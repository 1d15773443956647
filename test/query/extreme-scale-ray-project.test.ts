/**
 * `raycast` and `projectPoint` far from unit scale (sizes and offsets 1e-200 … 1e200): the
 * change of units of src/narrowphase/extreme-scale.ts (a shape with a scaled copy is rescaled by
 * a power of two; a compound's children one by one; a surface mesh's triangles one by one).
 * Every scene is the same unit scene multiplied by s, so the answers are hand-derived at unit
 * scale and multiplied by s: a hit's toi and normal, the projected point, its distance and the
 * inside flag. Before the change a 1e-200 sphere, capsule and compound reported toi 0, a 1e200
 * one missed, a 1e±200 mesh missed, and projections were wrong or threw (fresh14's finding).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import type { Shape } from "../../src/shapes/shape.js";

const Q = { x: 0, y: 0, z: 0, w: 1 };
const SCALES = [1e-200, 1e-150, 1e-100, 1e-80, 1e80, 1e100, 1e150, 1e200];

/** The unit scene's shapes multiplied by s (the pose translation T = (7, 2, 0)·s). */
function shapes(s: number): Record<string, Shape> {
  const v: number[] = [];
  for (const [x, z] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ])
    v.push(x * s, 0, z * s);
  const corners: { x: number; y: number; z: number }[] = [];
  for (let k = 0; k < 8; k++)
    corners.push({ x: (k & 1 ? 1 : -1) * s, y: (k & 2 ? 1 : -1) * s, z: (k & 4 ? 1 : -1) * s });
  return {
    sphere: api.makeSphere(2 * s),
    box: api.makeCuboid({ x: s, y: 2 * s, z: 3 * s }),
    capsule: api.makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, s),
    cylinder: api.makeCylinder(2 * s, s),
    cone: api.makeCone(2 * s, s),
    hull: api.makeConvexPolyhedron(corners),
    mesh: api.makeTriangleMesh(v, [0, 2, 1, 0, 3, 2]),
    compound: api.makeCompound([
      { shape: api.makeSphere(s), pose: { translation: { x: 3 * s, y: 0, z: 0 }, rotation: Q } },
      {
        shape: api.makeCuboid({ x: s, y: s, z: s }),
        pose: { translation: { x: -3 * s, y: 0, z: 0 }, rotation: Q },
      },
    ]),
  };
}

/** Relative closeness to `want·s` (the unit answer scaled), to 1e-12 of s. */
function near(got: number, want: number, s: number): void {
  expect(Math.abs(got - want * s)).toBeLessThanOrEqual(1e-12 * s);
}

/** Unit-scene rays: [shape, origin offset from T, direction, toi in multiples of s for a unit dir, normal]. */
const RAYS: [string, [number, number, number], [number, number, number], number, number[]][] = [
  ["sphere", [0, 10, 0], [0, -1, 0], 8, [0, 1, 0]],
  ["sphere", [-5, 0, 0], [1, 0, 0], 3, [-1, 0, 0]],
  ["box", [0, 10, 0], [0, -1, 0], 8, [0, 1, 0]],
  ["box", [0, 0, -7], [0, 0, 1], 4, [0, 0, -1]],
  ["capsule", [0, 10, 0], [0, -1, 0], 8, [0, 1, 0]],
  ["capsule", [4, 0.5, 0], [-1, 0, 0], 3, [1, 0, 0]],
  ["cylinder", [0, 10, 0], [0, -1, 0], 8, [0, 1, 0]],
  ["cylinder", [5, 0, 0], [-1, 0, 0], 4, [1, 0, 0]],
  ["cone", [0, -10, 0], [0, 1, 0], 8, [0, -1, 0]],
  ["hull", [0, 10, 0], [0, -1, 0], 9, [0, 1, 0]],
  ["mesh", [0.25, 10, 0.25], [0, -1, 0], 10, [0, 1, 0]],
  ["mesh", [0.25, -4, -0.5], [0, 1, 0], 4, [0, -1, 0]],
  ["compound", [10, 0, 0], [-1, 0, 0], 6, [1, 0, 0]],
  ["compound", [-3, 6, 0], [0, -1, 0], 5, [0, 1, 0]],
];

describe("raycast far from unit scale", () => {
  for (const s of SCALES) {
    it(`hits at scale ${s} with the unit scene's toi and normal`, () => {
      const sh = shapes(s);
      const T = { x: 7 * s, y: 2 * s, z: 0 };
      const pose = { translation: T, rotation: Q };
      for (const [name, o, d, toi, n] of RAYS) {
        const origin = { x: T.x + o[0] * s, y: T.y + o[1] * s, z: T.z + o[2] * s };
        // A unit direction: toi in lengths; a direction of length s: toi in multiples of it.
        const hit = api.raycast(sh[name], pose, origin, { x: d[0], y: d[1], z: d[2] }, Infinity);
        expect(hit, `${name} ${o}`).not.toBeNull();
        if (!hit) continue;
        near(hit.toi, toi, s);
        near(hit.normal.x, n[0], 1);
        near(hit.normal.y, n[1], 1);
        near(hit.normal.z, n[2], 1);
        near(hit.point.x - T.x, o[0] + d[0] * toi, s);
        near(hit.point.y - T.y, o[1] + d[1] * toi, s);
        const scaled = api.raycast(
          sh[name],
          pose,
          origin,
          { x: d[0] * s, y: d[1] * s, z: d[2] * s },
          Infinity,
        );
        expect(scaled).not.toBeNull();
        if (scaled) expect(Math.abs(scaled.toi - toi)).toBeLessThanOrEqual(1e-12 * toi);
        // Too short a reach: a miss.
        const short = api.raycast(
          sh[name],
          pose,
          origin,
          { x: d[0], y: d[1], z: d[2] },
          0.9 * toi * s,
        );
        expect(short, `${name} short`).toBeNull();
      }
    });
  }
  it("misses beside every shape at every scale", () => {
    for (const s of SCALES) {
      const sh = shapes(s);
      const T = { x: 7 * s, y: 2 * s, z: 0 };
      for (const name of Object.keys(sh)) {
        const origin = { x: T.x + 20 * s, y: T.y + 10 * s, z: T.z };
        expect(
          api.raycast(
            sh[name],
            { translation: T, rotation: Q },
            origin,
            { x: 0, y: -1, z: 0 },
            Infinity,
          ),
          `${name} ${s}`,
        ).toBeNull();
      }
    }
  });
});

/** Unit-scene projections: [shape, point offset, projected point, distance, inside]. */
const PROJECTIONS: [string, number[], number[], number, boolean][] = [
  ["sphere", [5, 0, 0], [2, 0, 0], 3, false],
  ["sphere", [0, -6, 0], [0, -2, 0], 4, false],
  ["box", [3, 0.5, 0], [1, 0.5, 0], 2, false],
  ["box", [0.75, 1, 0], [1, 1, 0], 0.25, true],
  ["capsule", [3, 0, 0], [1, 0, 0], 2, false],
  ["capsule", [0, 5, 0], [0, 2, 0], 3, false],
  ["cylinder", [0.25, -5, 0], [0.25, -2, 0], 3, false],
  ["cylinder", [4, 0, 0], [1, 0, 0], 3, false],
  ["cone", [0.25, -5, 0], [0.25, -2, 0], 3, false],
  ["mesh", [0.25, 5, 0.5], [0.25, 0, 0.5], 5, false],
  ["mesh", [3, -4, 0], [1, 0, 0], 2 * Math.sqrt(5), false],
  ["compound", [6, 0, 0], [4, 0, 0], 2, false],
  ["compound", [-3, 5, 0], [-3, 1, 0], 4, false],
];

describe("projectPoint far from unit scale", () => {
  for (const s of SCALES) {
    it(`projects at scale ${s} as the unit scene`, () => {
      const sh = shapes(s);
      const T = { x: 7 * s, y: 2 * s, z: 0 };
      const pose = { translation: T, rotation: Q };
      for (const [name, p, q, dist, inside] of PROJECTIONS) {
        const point = { x: T.x + p[0] * s, y: T.y + p[1] * s, z: T.z + p[2] * s };
        // Hollow: the surface point even from inside.
        const r = api.projectPoint(sh[name], pose, point, false);
        near(r.point.x - T.x, q[0], s);
        near(r.point.y - T.y, q[1], s);
        near(r.point.z - T.z, q[2], s);
        near(r.distance, dist, s);
        expect(r.inside, `${name} ${p}`).toBe(inside);
        // Solid: a point inside projects to itself.
        const solid = api.projectPoint(sh[name], pose, point, true);
        expect(solid.inside).toBe(inside);
        if (inside) {
          expect(solid.distance).toBe(0);
          expect(solid.point).toEqual(point);
        }
      }
    });
  }
  it("a sphere's projection is its centre ray's point at every scale (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SCALES),
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.double({ min: -4, max: 4, noNaN: true }),
        (s, x, y, z) => {
          const len = Math.hypot(x, y, z);
          fc.pre(len > 0.1);
          const T = { x: 7 * s, y: 2 * s, z: 0 };
          const r = api.projectPoint(
            api.makeSphere(2 * s),
            { translation: T, rotation: Q },
            { x: T.x + x * s, y: T.y + y * s, z: T.z + z * s },
            false,
          );
          near(r.distance, Math.abs(len - 2), s);
          near(r.point.x - T.x, (2 * x) / len, s);
          expect(r.inside).toBe(len < 2);
        },
      ),
      { numRuns: 200 },
    );
  });
  it("a hull's projection at 1e±200 (its scaled copy: vertices and plane offsets times k)", () => {
    for (const s of [1e-200, 1e200]) {
      const T = { x: 7 * s, y: 2 * s, z: 0 };
      const r = api.projectPoint(
        shapes(s).hull,
        { translation: T, rotation: Q },
        { x: T.x + 0.25 * s, y: T.y + 5 * s, z: T.z + 0.25 * s },
        true,
      );
      near(r.point.y - T.y, 1, s);
      near(r.distance, 4, s);
    }
  });
});
