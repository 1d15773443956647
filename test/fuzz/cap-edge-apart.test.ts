/**
 * Issue 16, the repository fuzzer's seed 110 (10^6 queries: 1 wrong): a cylinder (half height 52,
 * radius 66, at the origin) and a mesh whose triangle lies 48 below the bottom cap with its edge
 * x = x_e = −66 − 2^-21 along z, just outside the rim. `contact` answered distance 48 with the
 * cap's normal (0, −1, 0) exactly and the witnesses (−66, −52, 0), (x_e, −100, 0): pointB − pointA
 * was 2^-21 off the normal times the distance ("pointB − pointA not along the normal: error
 * 4.768e-7 > bar 8.403e-8").
 *
 * Why: `cornerRevolution` (src/narrowphase/corner-revolution.ts) took the edge's nearest point to
 * the solid (right) and, the solid's point being on the rim, the normal as the common
 * perpendicular e × t of the edge and the rim's tangent. But the edge runs along the tangent there
 * (a horizontal edge at its point nearest the axis: e ∥ t exactly at the answer), so e × t was the
 * rounding of the tangent, along the axis — the cap's normal. Fixed: e × t only where its
 * direction rounds less than the points' difference (sin θ ≥ d/|q|), else the projection's normal
 * (the points' difference) with its part along the edge taken out.
 *
 * Oracle, by hand: the closest points are the rim's point (−66, −52, 0) and the edge's
 * (x_e, −100, 0) (the edge's distance from the rim circle, √((√(x_e² + z²) − 66)² + 48²), is least
 * at z = 0), so the normal is (x_e + 66, −48, 0)/√(2^-42 + 48²) = (−2^-21/48, −1, 0) in doubles
 * (√(2^-42 + 2304) rounds to 48) and the distance 48. The property: a cylinder's cap (either) or
 * a cone's base over a triangle's edge along the rim's tangent, outside it by 1e-9..1e-5 of the
 * size and 1e-3..1e2 of the size across the cap's plane, at the four exact azimuths: the
 * distance √(gap² + offset²) of the exact inputs, pointB − pointA = distance · normal.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact } from "../../src/index.js";
import type { Isometry } from "../../src/math/isometry.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { loadCaseLines, replayCases } from "./recorded-cases.js";

const ID: Isometry = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const at = (x: number, y: number, z: number): Isometry => ({
  translation: { x, y, z },
  rotation: { x: 0, y: 0, z: 0, w: 1 },
});

type P3 = [number, number, number];

/** |pointB − pointA − distance·normal| of contact(a, b) and the answer, both non-null. */
function check(a: Shape, pa: Isometry, b: Shape, pb: Isometry) {
  const c = contact(a, pa, b, pb, 1e300);
  expect(c).not.toBeNull();
  if (c === null) throw new Error("null");
  const d = c.distance;
  const ex = c.pointB.x - c.pointA.x - d * c.normal.x;
  const ey = c.pointB.y - c.pointA.y - d * c.normal.y;
  const ez = c.pointB.z - c.pointA.z - d * c.normal.z;
  return { c, facing: Math.hypot(ex, ey, ez) };
}

describe("a cap's rim over a triangle's edge along its tangent, apart (seed 110)", () => {
  replayCases(loadCaseLines("./cap-edge-apart.cases.jsonl"), 1);

  const xe = -66.00000047683716;
  it("the edge is 2^-21 outside the rim", () => {
    expect(xe + 66).toBe(-(2 ** -21));
  });
  // The line's mesh at its position, and its one triangle that faces the cap, in world frame.
  const verts: P3[] = [
    [-164, -76, -180],
    [-164, -76, 180],
    [-164, 76, -180],
    [-164, 76, 180],
    [164, -76, -180],
    [164, -76, 180],
    [164, 76, -180],
    [164, 76, 180],
  ];
  const mesh = makeTriangleMesh(
    verts.map(([x, y, z]) => ({ x, y, z })),
    [0, 1, 3, 0, 3, 2, 0, 4, 5, 0, 5, 1],
  );
  const pos = at(-230.00000047683716, -24, 76);
  const w = (i: number) => ({
    x: verts[i][0] + pos.translation.x,
    y: verts[i][1] + pos.translation.y,
    z: verts[i][2] + pos.translation.z,
  });
  const tri = makeTriangle(w(0), w(4), w(5));
  const cyl = makeCylinder(52, 66);
  const nx = -(2 ** -21) / 48;
  // The triangle in the mesh's frame, posed at its position.
  const triLocal = makeTriangle(
    { x: verts[0][0], y: verts[0][1], z: verts[0][2] },
    { x: verts[4][0], y: verts[4][1], z: verts[4][2] },
    { x: verts[5][0], y: verts[5][1], z: verts[5][2] },
  );
  const cases: [string, Shape, Isometry][] = [
    ["the mesh", mesh, pos],
    ["the bare triangle posed", triLocal, pos],
  ];
  for (const [name, s, ps] of cases) {
    for (const flip of [false, true]) {
      it(`${name}, ${flip ? "B the cylinder" : "A the cylinder"}: the rim–edge normal`, () => {
        const { c, facing } = flip ? check(s, ps, cyl, ID) : check(cyl, ID, s, ps);
        const sg = flip ? -1 : 1;
        expect(Math.abs(c.distance - 48)).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(c.normal.x - sg * nx)).toBeLessThanOrEqual(1e-20);
        expect(Math.abs(c.normal.y + sg)).toBeLessThanOrEqual(1e-15);
        expect(Math.abs(c.normal.z)).toBeLessThanOrEqual(1e-20);
        const rim = flip ? c.pointB : c.pointA;
        const edge = flip ? c.pointA : c.pointB;
        expect(rim.x).toBe(-66);
        expect(rim.y).toBe(-52);
        expect(edge.x).toBe(xe);
        expect(edge.y).toBe(-100);
        expect(Math.abs(rim.z) + Math.abs(edge.z)).toBeLessThanOrEqual(1e-12);
        expect(facing).toBeLessThanOrEqual(1e-12);
      });
    }
  }

  // The bare triangle in world coordinates at the identity: the solver's witnesses face each
  // other (so the exact corner answer is not asked for) but lie 0.015 along the edge from the
  // closest points, where the distance is flat (5e-14 farther): distance and facing within the
  // rounding, the normal within the distance's conditioning, √(2·4e-14/66) ≈ 3.5e-8 rad, of it.
  for (const flip of [false, true]) {
    it(`the bare triangle in world coordinates, ${flip ? "B" : "A"} the cylinder`, () => {
      const { c, facing } = flip ? check(tri, ID, cyl, ID) : check(cyl, ID, tri, ID);
      const sg = flip ? -1 : 1;
      expect(Math.abs(c.distance - 48)).toBeLessThanOrEqual(2e-13);
      expect(facing).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(c.normal.x - sg * nx)).toBeLessThanOrEqual(1e-7);
      expect(Math.abs(c.normal.y + sg)).toBeLessThanOrEqual(1e-14);
    });
  }

  it("property: a cap's rim over an edge along its tangent, outside by a hair", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("cylinder", "cone"),
        fc.integer({ min: -10, max: 10 }),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.double({ min: -9, max: -5, noNaN: true }),
        fc.double({ min: -3, max: 2, noNaN: true }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        (kind, e, hf, rf, offLog, gapLog, top, azimuth, len, mesh, flip) => {
          const size = 2 ** e;
          const h = hf * size;
          const r = rf * size;
          const solid = kind === "cylinder" ? makeCylinder(h, r) : makeCone(h, r);
          const up = kind === "cylinder" && top ? 1 : -1;
          // The edge along z at x = −(r + offset), the triangle beyond it, across the cap's plane.
          const xe = -(r + 10 ** offLog * size);
          const ye = up * (h + 10 ** gapLog * size);
          const off = -xe - r;
          const gap = up * ye - h;
          const l = len * size;
          // The four exact azimuths: (x, z) → (x, z), (−z, x), (−x, −z), (z, −x).
          const turn = (x: number, y: number, z: number) => {
            const [u, v] =
              azimuth === 0 ? [x, z] : azimuth === 1 ? [-z, x] : azimuth === 2 ? [-x, -z] : [z, -x];
            return { x: u, y, z: v };
          };
          const ta = turn(xe, ye, -l);
          const tb = turn(xe, ye, 0.7 * l);
          const tc = turn(xe - l, ye, 0);
          const poly: Shape = mesh
            ? makeTriangleMesh([ta, tb, tc], [0, 1, 2])
            : makeTriangle(ta, tb, tc);
          const { c, facing } = flip ? check(poly, ID, solid, ID) : check(solid, ID, poly, ID);
          const exact = Math.hypot(gap, off);
          const scale = size + gap;
          expect(Math.abs(c.distance - exact)).toBeLessThanOrEqual(1e-14 * scale);
          expect(facing).toBeLessThanOrEqual(1e-14 * scale);
        },
      ),
      { numRuns: 1000, seed: 110 },
    );
  });
});
