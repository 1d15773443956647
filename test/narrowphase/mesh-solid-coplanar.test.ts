/**
 * Two `solid: true` meshes, one of them not convex (an L), whose surfaces meet only in coplanar
 * faces or along edges — no triangle pair crossing properly (issue 16, session 26). Every
 * triangle contact then has depth 0, and the pair was answered as touching whether the solids
 * touch (two cubes sharing a face: right) or overlap: a unit cube inside the L's arm, its faces on
 * the L's faces, and two Ls at one pose, got depth 0 for a depth of 1. Now the two are told apart
 * (src/narrowphase/mesh-solid.ts `touchingSolidsOverlap`: coplanar faces with the same outward
 * side over an area, or a point of one surface strictly inside the other solid) and overlapping
 * solids get the solids' depth bound (`crossingSolidsContact`), touching ones keep 0.
 *
 * Oracle, independent of the code under test: the L and the cube as unions of axis-aligned boxes
 * (test/support/l-mesh.ts), exact on half-integer placements: the interiors overlap exactly when
 * two boxes' open intervals overlap on all three axes, touch when the closed ones do and no open
 * ones, and a contact's normal achieves its depth when B pushed along it by the depth overlaps A no
 * more (the same interval test).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { unitQuat } from "../oracles/arbitraries.js";
import { BOX_TRIANGLES, boxCorners } from "../support/box-mesh.js";
import { boxUnionsOverlap, lBoxes, lMesh } from "../support/l-mesh.js";

/** The solid cube [0, s]³ as a mesh. */
function cubeMesh(s: number): TriangleMesh {
  const v = boxCorners(s / 2, s / 2, s / 2).map((p) => p.map((x) => x + s / 2));
  return makeTriangleMesh(v.flat(), BOX_TRIANGLES.flat(), "", { solid: true });
}

/** The unit cube's one box, translated by t. */
const cubeBoxes = (t: readonly number[]) => [
  [
    [t[0], t[1], t[2]],
    [t[0] + 1, t[1] + 1, t[2] + 1],
  ],
];

const L = lMesh();
const CUBE = cubeMesh(1);
const I = iso.identity();
const at = (t: readonly number[]): Isometry => iso.create(vec3.create(t[0], t[1], t[2]));

/** The answers of every pair op for A at `pa` and B at `pb`. */
function answers(a: TriangleMesh, pa: Isometry, b: TriangleMesh, pb: Isometry) {
  return {
    intersects: intersects(a, pa, b, pb),
    distance: distance(a, pa, b, pb).distance,
    contact: contact(a, pa, b, pb, 0),
    manifold: manifold(a, pa, b, pb, 0),
  };
}

/**
 * Checks the pair (the L `a` at `frame.o`, `b` (cube or L) at unit-frame offset `t` times
 * `frame.s` from it, both turned by `frame.q`; both orders) against the box-union oracle; `tol`
 * the rounding allowed on a touch (0: exact, the touch must intersect).
 */
function expectLikeBoxes(
  a: TriangleMesh,
  b: TriangleMesh,
  boxesB: (t: readonly number[]) => number[][][],
  t: readonly number[],
  frame: { s: number; o: readonly number[]; q: quat.Quat },
  tol: number,
): void {
  const ov = boxUnionsOverlap(lBoxes([0, 0, 0]), boxesB(t));
  const { s, o, q } = frame;
  const poseA = iso.create(vec3.create(o[0], o[1], o[2]));
  poseA.rotation = q;
  const tw = quat.rotate(vec3.create(), q, vec3.create(t[0] * s, t[1] * s, t[2] * s));
  const poseB = iso.create(vec3.create(o[0] + tw.x, o[1] + tw.y, o[2] + tw.z));
  poseB.rotation = q;
  const exact = tol === 0;
  for (const swap of [false, true]) {
    const r = swap ? answers(b, poseB, a, poseA) : answers(a, poseA, b, poseB);
    // One truth: intersects ⇔ distance ≤ 0 ⇔ contact ⇔ manifold.
    expect(r.distance <= 0).toBe(r.intersects);
    expect(r.contact !== null).toBe(r.intersects);
    expect(r.manifold !== null).toBe(r.intersects);
    if (ov > 0 || (ov === 0 && exact)) expect(r.intersects).toBe(true);
    if (ov < 0) continue;
    const c = r.contact;
    if (c === null) continue;
    if (ov === 0) {
      // Touching: depth 0 (to the rounding of the frame).
      expect(Math.abs(c.distance)).toBeLessThanOrEqual(tol);
    } else {
      expect(c.distance).toBeLessThan(0);
      // The normal achieves the depth: B pushed along it (in the unit frame) by the depth parts them.
      const n = quat.inverseRotate(vec3.create(), q, c.normal);
      const push = (-c.distance * (1 + 1e-12)) / s + 1e-12;
      const sign = swap ? -1 : 1;
      const moved = [0, 1, 2].map((k) => t[k] + sign * vec3.getAxis(n, k) * push);
      expect(boxUnionsOverlap(lBoxes([0, 0, 0]), boxesB(moved))).toBeLessThanOrEqual(1e-9);
    }
    for (const p of r.manifold?.points ?? [])
      expect(p.distance).toBeGreaterThanOrEqual(c.distance - tol);
  }
}

const UNIT = { s: 1, o: [0, 0, 0], q: quat.identity() };

describe("solid L and cube meshes meeting in coplanar faces", () => {
  it("two unit cubes sharing a face exactly, one of them the L's corner block: touching", () => {
    for (const t of [
      [2, 0, 0], // beside the arm's end face x = 2
      [1, 1, 0], // in the notch: on the faces y = 1 and x = 1
      [0, 0, 1], // on top of the corner block
      [-1, 0.5, 0], // beside the face x = 0, half over its edge
    ]) {
      const r = answers(L, I, CUBE, at(t));
      expect(r.intersects).toBe(true);
      expect(r.distance).toBe(0);
      expect(r.contact?.distance).toBe(0);
      expectLikeBoxes(L, CUBE, cubeBoxes, t, UNIT, 0);
    }
  });

  it("a unit cube inside the L's arm, its faces on the L's: depth 1 (was 0)", () => {
    // The cube [0.5, 1.5] × [0, 1] × [0, 1]: out along ±z or −y by 1 (every other way is longer:
    // +x 1.5, +y 2 past the other arm, the notch's corner √1.25).
    const c = contact(L, I, CUBE, at([0.5, 0, 0]), 0);
    expect(c?.distance).toBe(-1);
    expectLikeBoxes(L, CUBE, cubeBoxes, [0.5, 0, 0], UNIT, 0);
    // The L's corner block itself: out by 1 along ±z, −x or −y.
    expect(contact(L, I, CUBE, I, 0)?.distance).toBe(-1);
  });

  it("two Ls at one pose, and an L on an L moved along its arm: the solids' depth", () => {
    expect(contact(L, I, L, I, 0)?.distance).toBe(-1);
    expect(manifold(L, I, L, I, 0)?.points[0].distance).toBe(-1);
    expectLikeBoxes(L, L, lBoxes as never, [0.5, 0, 0], UNIT, 0);
    expectLikeBoxes(L, L, lBoxes as never, [0, 0, 1], UNIT, 0);
  });
});

/** Half-integer offsets in [−2.5, 2.5]: faces of B on A's face planes, touching and overlapping. */
const halfGrid = fc.integer({ min: -5, max: 5 }).map((i) => i / 2);

describe("property: L against cube or L on the half-integer grid", () => {
  it("sizes 2^-10..2^10, offsets to 1e6 (exact): touching is touching, overlap has a parting depth", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.tuple(halfGrid, halfGrid, halfGrid),
        fc.integer({ min: -10, max: 10 }),
        fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 })),
        (isL, t, k, [ox, oz]) => {
          const s = 2 ** k;
          const a = lMesh(s);
          const b = isL ? a : cubeMesh(s);
          const boxesB = isL ? (lBoxes as never) : cubeBoxes;
          // Exact placements: offsets on a grid coarser than s / 2, so o + t·s is a double.
          const o = [ox * s, 0, oz * s];
          const ov = boxUnionsOverlap(lBoxes([0, 0, 0]), boxesB(t));
          const pa = at(o);
          const pb = at([o[0] + t[0] * s, t[1] * s, o[2] + t[2] * s]);
          for (const [x, px, y, py] of [
            [a, pa, b, pb],
            [b, pb, a, pa],
          ] as const) {
            const r = answers(x, px, y, py);
            expect(r.intersects).toBe(ov >= 0);
            expect(r.distance <= 0).toBe(r.intersects);
            expect(r.contact !== null).toBe(r.intersects);
            expect(r.manifold !== null).toBe(r.intersects);
            if (ov === 0) expect(r.contact?.distance).toBe(0);
            if (ov > 0) expect(r.contact?.distance).toBeLessThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("turned and moved together (rounding): consistent, touching within rounding, overlap parted", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.tuple(halfGrid, halfGrid, halfGrid),
        fc.integer({ min: -3, max: 3 }),
        unitQuat,
        fc.constantFrom(0, 1, 1e3),
        (isL, t, e, q, mag) => {
          const s = 10 ** e;
          const a = lMesh(s);
          const b = isL ? a : cubeMesh(s);
          const boxesB = isL ? (lBoxes as never) : cubeBoxes;
          // The pose of B in A's frame is rounded at the offset: within 2^22 sizes.
          const o = [mag * s, -0.7 * mag * s, 0.3 * mag * s];
          const tol = 1e-9 * s + 256 * Number.EPSILON * (mag + 3) * s;
          expectLikeBoxes(L, isL ? L : CUBE, boxesB, t, { s: 1, o: [0, 0, 0], q }, tol);
          expectLikeBoxes(a, b, boxesB, t, { s, o, q }, tol);
        },
      ),
      { numRuns: 150 },
    );
  });
});
