/**
 * The face contact of src/narrowphase/face-depth.ts (issue 15): where S's deepest point lies
 * beside the triangle, the depth is the ray cast's exit from T − S, and the touch of S moved by
 * it is measured by the pair's own exact `distance` for a box or a sphere (triangle–polytope's
 * features, sphere–triangle's closed form) instead of GJK. These check that depth and its
 * witnesses against hand-derived values, for a sphere and an axis-aligned box straddling an edge
 * of a horizontal triangle, at sizes 2^-20..2^20 and offsets to 1e6.
 *
 * Oracles. The triangle lies in the plane y = y0 with its edge z = z0 along x; S stands on its
 * front (+y). A sphere of radius r whose centre is e beyond the edge (0 < e < r) and t above the
 * plane: moved up by s it touches the edge where (t + s)² + e² = r², so the depth is
 * s* = √(r² − e²) − t. A box of half extents h whose bottom face crosses the edge, its centre t
 * above the plane (0 ≤ t < h_y): it clears the triangle when its bottom face reaches the plane,
 * s* = h_y − t. Tolerance: the contract's 64 ε of the coordinates' magnitude
 * (docs/FORMATS.md, "Accuracy").
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import { faceContactTriangleConvex } from "../../src/narrowphase/face-depth.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { ShapeType } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import type { Triangle } from "../../src/shapes/triangle.js";

const EPS = 2 ** -52;
const UP = vec3.create(0, 1, 0);

/** The triangle (x0, y0, z0), (x0, y0, z0 + L), (x0 + L, y0, z0): face normal +y, edge z = z0. */
function triangle(x0: number, y0: number, z0: number, l: number): Triangle {
  return {
    type: ShapeType.Triangle,
    a: vec3.create(x0, y0, z0),
    b: vec3.create(x0, y0, z0 + l),
    c: vec3.create(x0 + l, y0, z0),
  };
}

function pose(x: number, y: number, z: number): Isometry {
  return { translation: vec3.create(x, y, z), rotation: { x: 0, y: 0, z: 0, w: 1 } };
}

/** Checks the face contact of `s` at `p` against the depth `depth` (> 0), magnitude `m`. */
function expectFaceContact(tri: Triangle, s: ConvexShape, p: Isometry, depth: number, m: number) {
  const out = makeContact();
  expect(faceContactTriangleConvex(out, tri, UP, s, p)).toBe(true);
  const tol = 64 * EPS * m;
  expect(out.normal).toEqual({ x: 0, y: 1, z: 0 });
  expect(Math.abs(out.distance + depth)).toBeLessThanOrEqual(tol);
  // Witnesses: A's in the triangle's plane, on the triangle's side of its edge; they span the
  // depth along the normal.
  expect(Math.abs(out.pointA.y - tri.a.y)).toBeLessThanOrEqual(tol);
  expect(out.pointA.z).toBeGreaterThanOrEqual(tri.a.z - tol);
  expect(Math.abs(out.pointB.y - out.pointA.y - out.distance)).toBeLessThanOrEqual(2 * tol);
  return out;
}

const scaleArb = fc.integer({ min: -20, max: 20 }).map((j) => 2 ** j);
const offsetArb = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const unitArb = fc.double({ min: 0.05, max: 0.95, noNaN: true });

describe("face contact beside a triangle's edge, the touch by the pair's own distance", () => {
  it("a sphere beyond the edge: depth √(r² − e²) − t, its witness on the sphere", () => {
    fc.assert(
      fc.property(
        scaleArb,
        offsetArb,
        offsetArb,
        offsetArb,
        unitArb,
        unitArb,
        unitArb,
        (k, x0, y0, z0, u, fe, ft) => {
          const l = 4 * k;
          const r = k;
          const e = fe * r;
          const rise = Math.sqrt(r * r - e * e);
          const t = ft * 0.9 * rise;
          const c = { x: x0 + u * 0.5 * l, y: y0 + t, z: z0 - e };
          const tri = triangle(x0, y0, z0, l);
          const m = Math.max(Math.abs(x0), Math.abs(y0), Math.abs(z0)) + l;
          // The oracle from the rounded coordinates (exact differences of nearby doubles).
          const eAt = tri.a.z - c.z;
          const tAt = c.y - tri.a.y;
          const depth = Math.sqrt(r * r - eAt * eAt) - tAt;
          const out = expectFaceContact(tri, makeSphere(r), pose(c.x, c.y, c.z), depth, m);
          // On the sphere, to the rounding of its centre's coordinates.
          expect(Math.abs(vec3.distance(out.pointB, c) - r)).toBeLessThanOrEqual(64 * EPS * m);
        },
      ),
    );
  });

  it("a box whose bottom face crosses the edge: depth h_y − t, its witness on the bottom face", () => {
    fc.assert(
      fc.property(
        scaleArb,
        offsetArb,
        offsetArb,
        offsetArb,
        unitArb,
        unitArb,
        unitArb,
        fc.boolean(),
        (k, x0, y0, z0, u, fe, ft, beyond) => {
          const l = 4 * k;
          const h = { x: 0.3 * k, y: 0.5 * k, z: 0.4 * k };
          // The centre beyond the edge or before it, by less than h_z: the bottom face crosses it.
          const e = (beyond ? 1 : -1) * fe * h.z;
          const t = ft * h.y;
          const c = { x: x0 + 0.5 * k + u * k, y: y0 + t, z: z0 - e };
          const tri = triangle(x0, y0, z0, l);
          const m = Math.max(Math.abs(x0), Math.abs(y0), Math.abs(z0)) + l;
          const depth = h.y - (c.y - tri.a.y);
          const out = expectFaceContact(tri, makeCuboid(h), pose(c.x, c.y, c.z), depth, m);
          expect(Math.abs(out.pointB.y - (c.y - h.y))).toBeLessThanOrEqual(64 * EPS * m);
        },
      ),
    );
  });
});
