/**
 * Swapping A and B in a mesh–mesh `castShapes` (and `castShapesNonlinear`) gives the same time,
 * the normal negated and the points swapped (issue 16, must-have 2). A fresh user found the
 * normals not negations: each order ran its own computation (an A-centred frame, ties among
 * touching triangle pairs to the first in traversal order), and face-on-face hits gave normals
 * that were not negations and points far apart. Both orders now run one computation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import { castShapes, castShapesNonlinear } from "../../src/query/cast-shapes.js";
import { makeTriangleMesh } from "../../src/shapes/index.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { quatObjArb } from "../fuzz/arbitraries.js";
import { boxMesh } from "../support/box-mesh.js";

/** A tetrahedron mesh (an open surface when `open`: one face dropped). */
function tetraMesh(s: number, open: boolean): TriangleMesh {
  const v = new Float64Array([s, s, s, s, -s, -s, -s, s, -s, -s, -s, s]);
  const t = [0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2];
  return makeTriangleMesh(v, new Uint32Array(open ? t.slice(0, 9) : t));
}

const unitQuat = quatObjArb;
// Axis-aligned rotations too: the face-on-face ties are where the orders disagreed.
const rotation = fc.oneof(
  fc.constant({ x: 0, y: 0, z: 0, w: 1 }),
  fc.constant({ x: 0, y: Math.SQRT1_2, z: 0, w: Math.SQRT1_2 }),
  unitQuat,
);
const coord = (s: number) => fc.integer({ min: -16 * s, max: 16 * s }).map((k) => k / 16);
const vec = (s: number) => fc.record({ x: coord(s), y: coord(s), z: coord(s) });

const meshes = fc.constantFrom(
  boxMesh(1, 1, 1),
  boxMesh(0.5, 0.5, 0.5),
  boxMesh(2, 0.25, 1),
  tetraMesh(1, false),
  tetraMesh(0.75, true),
);

function expectSwapped(h1: ReturnType<typeof castShapes>, h2: ReturnType<typeof castShapes>): void {
  expect(h1 === null).toBe(h2 === null);
  if (!h1 || !h2) return;
  expect(h2.toi).toBe(h1.toi);
  expect(h2.normal.x).toBe(-h1.normal.x);
  expect(h2.normal.y).toBe(-h1.normal.y);
  expect(h2.normal.z).toBe(-h1.normal.z);
  expect(h2.pointA).toEqual(h1.pointB);
  expect(h2.pointB).toEqual(h1.pointA);
  expect(Math.hypot(h1.normal.x, h1.normal.y, h1.normal.z)).toBeCloseTo(1, 12);
}

describe("mesh–mesh castShapes: swapping A and B negates the normal and swaps the points", () => {
  it("face on face, head-on (the fresh user's kind of case)", () => {
    const a = boxMesh(1, 1, 1);
    const b = boxMesh(0.5, 0.5, 0.5);
    const I = { x: 0, y: 0, z: 0, w: 1 };
    const pA: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: I };
    const pB: Isometry = { translation: { x: 5, y: 0.25, z: -0.125 }, rotation: I };
    const vA = { x: 1, y: 0, z: 0 };
    const vB = { x: -1, y: 0, z: 0 };
    const h1 = castShapes(a, pA, vA, b, pB, vB, 10);
    const h2 = castShapes(b, pB, vB, a, pA, vA, 10);
    // gap 5 − 1 − 0.5 = 3.5 closing at 2: toi 1.75, normal +x from A to B
    expect(h1?.toi).toBeCloseTo(1.75, 9);
    expect(h1?.normal).toEqual({ x: 1, y: 0, z: 0 });
    expectSwapped(h1, h2);
  });

  it("property: castShapes, random meshes, poses and velocities", () => {
    fc.assert(
      fc.property(
        meshes,
        meshes,
        rotation,
        rotation,
        vec(3),
        vec(1),
        vec(1),
        fc.constantFrom(0, 1e3),
        (a, b, qA, qB, tB, vA, vB, off) => {
          const pA = { translation: { x: off, y: -off, z: off / 2 }, rotation: qA };
          const pB = {
            translation: { x: off + 4 + tB.x, y: -off + tB.y, z: off / 2 + tB.z },
            rotation: qB,
          };
          const vA2 = { x: vA.x + 1, y: vA.y, z: vA.z };
          const vB2 = { x: vB.x - 1, y: vB.y, z: vB.z };
          expectSwapped(
            castShapes(a, pA, vA2, b, pB, vB2, 10),
            castShapes(b, pB, vB2, a, pA, vA2, 10),
          );
        },
      ),
      { numRuns: 120 },
    );
  });

  it("property: castShapesNonlinear", () => {
    fc.assert(
      fc.property(
        meshes,
        meshes,
        rotation,
        rotation,
        rotation,
        vec(3),
        (a, b, qA0, qA1, qB, tB) => {
          const pA0 = { translation: { x: 0, y: 0, z: 0 }, rotation: qA0 };
          const pA1 = { translation: { x: 2, y: 0, z: 0 }, rotation: qA1 };
          const pB0 = { translation: { x: 5 + tB.x, y: tB.y, z: tB.z }, rotation: qB };
          const pB1 = { translation: { x: 3 + tB.x, y: tB.y, z: tB.z }, rotation: qB };
          expectSwapped(
            castShapesNonlinear(a, pA0, pA1, b, pB0, pB1, 1),
            castShapesNonlinear(b, pB0, pB1, a, pA0, pA1, 1),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
