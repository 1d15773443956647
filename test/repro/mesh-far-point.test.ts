/**
 * A point or a ray origin far from a small mesh (found by a fresh-user attack, session 17): the
 * unit tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1) made `solid`, `projectPoint` at (x, 0, 0)
 * said "inside, distance 0" for every x from about 4.8e80 to 1e155 (the change of units brought the
 * point near 1 and the mesh near 1e-100, where the pseudo-normal's feature was lost to rounding);
 * a ray from (1e100, 0.1, 0.1) along −x reported the far face's normal (−1, 0, 0) (every
 * triangle's toi rounded to the same double, the tie went to the lowest index); from 1e200 a ray
 * missed the mesh (the small copy's products underflowed), and a surface mesh's normal came out
 * (1, 1e-201, 1e-201). Oracles by hand: outside the box of the vertices a point is outside the
 * solid; the first face a ray from outside meets is one facing it; the hit plane x + y + z = 1 at
 * y = z = 0.1 gives toi x − 0.8.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";

const I: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const V = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
/** Outward-wound faces: z = 0, y = 0, x = 0, x + y + z = 1. */
const OUT = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
/** The same faces wound inward. */
const IN = [0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2];
const S3 = 1 / Math.sqrt(3);
const FACE_NORMALS = [
  [0, 0, -1],
  [0, -1, 0],
  [-1, 0, 0],
  [S3, S3, S3],
];

const meshes: [string, TriangleMesh][] = [
  ["solid, outward", makeTriangleMesh(V, OUT, "", { solid: true })],
  ["solid, inward", makeTriangleMesh(V, IN, "", { solid: true })],
  ["surface", makeTriangleMesh(V, OUT)],
];
const FAR = [10, 1e10, 1e40, 1e80, 4.7e80, 4.8e80, 1e100, 1e155, 1e200, 1e300];

describe("a point far from a small solid mesh is outside it", () => {
  for (const [name, mesh] of meshes) {
    for (const x of FAR) {
      it(`${name}, (${x}, 0, 0): outside, distance x − 1 to the corner (1, 0, 0)`, () => {
        const r = projectPoint(mesh, I, { x, y: 0, z: 0 });
        expect(r.inside).toBe(false);
        expect(r.distance).toBe(x - 1);
        expect(r.point).toEqual({ x: 1, y: 0, z: 0 });
      });
    }
  }

  it("any direction, any distance from 4 to 1e300: outside, at |p| within the mesh's size", () => {
    const mesh = meshes[0][1];
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0.6, max: 300, noNaN: true }),
        (ux, uy, uz, e) => {
          const n = Math.hypot(ux, uy, uz);
          fc.pre(n > 0.1);
          const r0 = 10 ** e;
          const p = { x: (ux / n) * r0, y: (uy / n) * r0, z: (uz / n) * r0 };
          const r = projectPoint(mesh, I, p);
          const d = Math.hypot(p.x, p.y, p.z);
          expect(r.inside).toBe(false);
          // Every corner lies within 1 of the origin, so the distance is within 1 of |p|.
          expect(Math.abs(r.distance - d)).toBeLessThanOrEqual(1 + 4e-16 * d);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a point inside still projects onto itself", () => {
    for (const [, mesh] of meshes.slice(0, 2)) {
      const r = projectPoint(mesh, I, { x: 0.1, y: 0.2, z: 0.3 });
      expect(r.inside).toBe(true);
      expect(r.distance).toBe(0);
    }
  });
});

describe("a ray from far away meets the face that faces it", () => {
  for (const [name, mesh] of meshes) {
    for (const x of FAR) {
      it(`${name}, from (${x}, 0.1, 0.1) along −x: the face x + y + z = 1 at toi x − 0.8`, () => {
        const hit = raycast(mesh, I, { x, y: 0.1, z: 0.1 }, { x: -1, y: 0, z: 0 }, Infinity);
        expect(hit).not.toBeNull();
        if (hit === null) return;
        expect(hit.normal.x).toBeCloseTo(S3, 15);
        expect(hit.normal.y).toBeCloseTo(S3, 15);
        expect(hit.normal.z).toBeCloseTo(S3, 15);
        const ulp = 2 ** (Math.floor(Math.log2(x)) - 52);
        expect(Math.abs(hit.toi - (x - 0.8))).toBeLessThanOrEqual(2 * ulp);
      });
    }
  }

  it("from any far point toward the centroid: an entry face, facing the ray", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 300, noNaN: true }),
        (m, ux, uy, uz, e) => {
          const n = Math.hypot(ux, uy, uz);
          fc.pre(n > 0.1);
          const r0 = 10 ** e;
          // Along an axis-aligned direction through the centroid (1/4, 1/4, 1/4): representable.
          const a =
            Math.abs(ux) >= Math.abs(uy) && Math.abs(ux) >= Math.abs(uz)
              ? 0
              : Math.abs(uy) >= Math.abs(uz)
                ? 1
                : 2;
          const s = [ux, uy, uz][a] > 0 ? 1 : -1;
          const o = [0.25, 0.25, 0.25];
          o[a] = s * r0;
          const d = [0, 0, 0];
          d[a] = -s;
          const hit = raycast(
            meshes[m][1],
            I,
            { x: o[0], y: o[1], z: o[2] },
            { x: d[0], y: d[1], z: d[2] },
            Infinity,
          );
          expect(hit).not.toBeNull();
          if (hit === null) return;
          const k = FACE_NORMALS.findIndex(
            (f) =>
              Math.abs(f[0] - hit.normal.x) < 1e-12 &&
              Math.abs(f[1] - hit.normal.y) < 1e-12 &&
              Math.abs(f[2] - hit.normal.z) < 1e-12,
          );
          expect(k).toBeGreaterThanOrEqual(0);
          expect(FACE_NORMALS[k][a] * d[a]).toBeLessThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a compound's sphere from 1e200: the sphere's own normal (was (1, 0, 0))", () => {
    const cp = makeCompound([
      { shape: makeCuboid({ x: 0.5, y: 0.5, z: 0.5 }), pose: I },
      {
        shape: makeSphere(0.5),
        pose: { translation: { x: 2, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } },
      },
    ]);
    const hit = raycast(cp, I, { x: 1e200, y: 0.1, z: 0.1 }, { x: -1, y: 0, z: 0 }, Infinity);
    expect(hit).not.toBeNull();
    if (hit === null) return;
    // The sphere's surface at y = z = 0.1: x − 2 = √(0.25 − 0.02); normal (x − 2, 0.1, 0.1) / 0.5.
    const hx = Math.sqrt(0.23);
    expect(hit.normal.x).toBeCloseTo(hx / 0.5, 14);
    expect(hit.normal.y).toBeCloseTo(0.2, 14);
    expect(hit.normal.z).toBeCloseTo(0.2, 14);
    expect(hit.toi).toBe(1e200);
  });
});
