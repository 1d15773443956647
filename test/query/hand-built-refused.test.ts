/**
 * Hand-built shape objects that are not NaN but still bad (negative or zero sizes, numbers given
 * as strings, infinities, missing fields, non-unit half-space normals, a mesh without its BVH,
 * an empty compound, null): every pair query refuses them with a `CollideError` naming the
 * field, where it used to answer (a −1 sphere had distance 0.316) or throw a `TypeError`. Shapes
 * from the `make…` constructors carry the validated mark and skip the check; hand-built valid
 * shapes are validated and answered exactly as the built ones.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
// Every shape type's definition, as the main entry loads them: the shapes below are hand-built,
// so no make… module loads theirs.
import "../../src/index.js";
import * as iso from "../../src/math/isometry.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { isBrandedShape, type Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

const I = iso.identity();
const far = iso.create({ x: 10, y: 0, z: 0 });
const v = (x: number, y: number, z: number) => ({ x, y, z });

const BAD: [string, unknown, string][] = [
  ["negative radius", { type: 0, radius: -1 }, "radius"],
  ["zero radius", { type: 0, radius: 0 }, "radius"],
  ["string radius", { type: 0, radius: "1" }, "radius"],
  ["infinite half extent", { type: 1, halfExtents: v(Infinity, 1, 1) }, "halfExtents"],
  ["negative half extent", { type: 1, halfExtents: v(-1, 1, 1) }, "halfExtents"],
  ["missing half extents", { type: 1 }, "halfExtents"],
  ["capsule radius -1", { type: 2, a: v(0, -1, 0), b: v(0, 1, 0), radius: -1 }, "radius"],
  ["cone half height 0", { type: 4, halfHeight: 0, radius: 1 }, "halfHeight"],
  ["zero half-space normal", { type: 8, normal: v(0, 0, 0), offset: 0 }, "normal"],
  ["non-unit half-space normal", { type: 8, normal: v(0, 2, 0), offset: 0 }, "normal"],
  ["empty compound", { type: 9, children: [] }, "children"],
];

/** Every query with the bad shape as its first argument; the other is a unit sphere. */
function queries(bad: Shape): [string, () => unknown][] {
  const ball = makeSphere(1);
  return [
    ["intersects", () => intersects(bad, I, ball, far)],
    ["intersects (second)", () => intersects(ball, far, bad, I)],
    ["distance", () => distance(bad, I, ball, far)],
    ["contact", () => contact(bad, far, ball, I)],
    ["manifold", () => manifold(bad, I, ball, far)],
    ["castShapes", () => castShapes(bad, I, v(1, 0, 0), ball, far, v(0, 0, 0), 20)],
    ["raycast", () => raycast(bad, I, v(-5, 0, 0), v(1, 0, 0), 100)],
    ["projectPoint", () => projectPoint(bad, I, v(3, 0, 0))],
  ];
}

describe("hand-built shapes that are bad but not NaN", () => {
  for (const [name, shape, field] of BAD) {
    it(`${name}: every query throws a CollideError naming ${field}`, () => {
      for (const [q, run] of queries(shape as Shape)) {
        let err: unknown = null;
        try {
          run();
        } catch (e) {
          err = e;
        }
        expect(err, q).toBeInstanceOf(CollideError);
        expect((err as CollideError).field, q).toContain(field);
      }
    });
  }

  it("null and non-objects are refused by raycast and projectPoint (was a TypeError)", () => {
    expect(() => raycast(null as never, I, v(0, 0, 0), v(1, 0, 0), 1)).toThrow(CollideError);
    expect(() => projectPoint(null as never, I, v(0, 0, 0))).toThrow(CollideError);
    expect(() => projectPoint(7 as never, I, v(0, 0, 0))).toThrow(CollideError);
  });

  it("a hand-built mesh (no BVH) is refused, a built one answers", () => {
    const built = makeTriangleMesh([v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)], [0, 1, 2]);
    const hand = { type: 7, vertices: built.vertices, indices: built.indices };
    expect(() => distance(hand as never, I, makeSphere(0.1), far)).toThrow(/makeTriangleMesh/);
    expect(distance(built, I, makeSphere(0.1), iso.create(v(0.2, 0.2, 1)))).toMatchObject({
      distance: expect.closeTo(0.9, 12),
    });
  });

  it("valid hand-built shapes are answered exactly as built ones; built shapes carry the brand", () => {
    const hb = { type: 1, halfExtents: v(0.5, 0.3, 0.4) } as Shape;
    const built = makeCuboid(v(0.5, 0.3, 0.4));
    expect(isBrandedShape(built)).toBe(true);
    expect(isBrandedShape(hb)).toBe(false);
    // The brand is invisible to JSON and to key listings.
    expect(JSON.stringify(built)).toBe(JSON.stringify(hb));
    expect(Object.keys(built)).toEqual(Object.keys(hb));
    const ball = makeSphere(0.4);
    for (let i = 0; i < 20; i++) {
      const p = iso.create(v(0.3 * i - 3, 0.1 * i, 0.2), { x: 0, y: 0.6, z: 0, w: 0.8 });
      expect(intersects(hb, I, ball, p)).toBe(intersects(built, I, ball, p));
      expect(distance(hb, I, ball, p)).toEqual(distance(built, I, ball, p));
      expect(contact(hb, I, ball, p, 0.5)).toEqual(contact(built, I, ball, p, 0.5));
    }
  });
});
