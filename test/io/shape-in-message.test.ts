/**
 * A shape in an error message is named by its kind, never by the library's record with its
 * internal type number (issue 16; fresh16: `collide check` refused a ball of radius 1e300 quoting
 * `{"type":0,"radius":1e+300}`). The world's refusal quotes a made shape as its JSON form
 * (`{"type":"sphere",…}`), `checkScene`'s quotes the shape as the scene file wrote it, and
 * `describeValue` writes every made shape, alone or nested, as its JSON form.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeValue } from "../../src/errors.js";
import { checkScene } from "../../src/io/check.js";
import { parseScene } from "../../src/io/scene.js";
import * as iso from "../../src/math/isometry.js";
import { containsPointTriangleMesh, getMeshTriangle } from "../../src/query/checked-helpers.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import { makeRoundedConvexPolyhedron, makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh, updateTriangleMeshVertices } from "../../src/shapes/triangle-mesh.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { refusal } from "../support/refusal.js";

const v = (x: number, y: number, z: number) => ({ x, y, z });
const cube = (s: number) => {
  const p: number[] = [];
  for (const x of [-s, s]) for (const y of [-s, s]) for (const z of [-s, s]) p.push(x, y, z);
  return p;
};

/** Each bounded kind at size s (its reach from its origin about s), with its JSON name. */
const MADE: [string, (s: number) => Shape][] = [
  ["sphere", (s) => makeSphere(s)],
  ["cuboid", (s) => makeCuboid(v(s, s / 2, 1))],
  ["capsule", (s) => makeCapsule(v(-s / 2, 0, 0), v(s / 2, 0, 0), s / 4)],
  ["cylinder", (s) => makeCylinder(s, 1)],
  ["cone", (s) => makeCone(1, s)],
  ["convex", (s) => makeConvexPolyhedron(cube(s))],
  ["triangle", (s) => makeTriangle(v(0, 0, 0), v(s, 0, 0), v(0, s, 0))],
  ["mesh", (s) => makeTriangleMesh([0, 0, 0, s, 0, 0, 0, s, 0], [0, 1, 2])],
  ["compound", (s) => makeCompound([{ shape: makeSphere(s), pose: iso.identity() }])],
  ["roundedBox", (s) => makeRoundedCuboid(v(s / 2, 1, 1), s / 4)],
  ["roundedConvex", (s) => makeRoundedConvexPolyhedron(cube(s / 2), s / 4)],
  [
    "heightfield",
    (s) => makeHeightfield({ rows: 2, cols: 2, heights: [0, 0, 0, 1], scale: v(s, 1, s) }),
  ],
];

const NUMBERED_TYPE = /"type":\d/;

describe("shapes in error messages are named by their kind", () => {
  it("the world refuses a shape reaching past its bound naming the kind (property over kinds and sizes)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MADE.length - 1 }),
        // 2^998 ≈ 2.7e300 (past the bound of 1e300 whatever the kind's proportions) up to 2^1020.
        fc.integer({ min: 998, max: 1020 }),
        (k, e) => {
          const [name, make] = MADE[k];
          const shape = make(2 ** e);
          const err = refusal(() => new CollisionWorld().addBody({ shape, pose: iso.identity() }));
          expect(err.field).toBe("body.shape");
          expect(err.message).toMatch(/^body\.shape reaches \S+ from the body's origin/);
          expect(err.message).toContain(`(got {"type":"${name}"`);
          expect(err.message).not.toMatch(NUMBERED_TYPE);
        },
      ),
    );
  });

  it("describeValue writes a made shape, alone or nested, as its JSON form", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MADE.length - 1 }),
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        (k, s) => {
          const [name, make] = MADE[k];
          const shape = make(s);
          for (const value of [shape, [shape], { shape, pose: iso.identity() }]) {
            const text = describeValue(value);
            expect(text).not.toMatch(NUMBERED_TYPE);
            expect(text).toContain(`{"type":"${name}"`);
          }
        },
      ),
    );
    // A hand-built object is quoted as its author wrote it.
    expect(describeValue({ type: 0, radius: 1 })).toBe('{"type":0,"radius":1}');
  });

  it("the mesh helpers name a wrong kind by its name", () => {
    const ball = makeSphere(1);
    for (const f of [
      () => getMeshTriangle(ball as never, 0, v(0, 0, 0), v(0, 0, 0), v(0, 0, 0)),
      () => containsPointTriangleMesh(ball as never, v(0, 0, 0)),
    ]) {
      const e = refusal(f);
      expect(e.field).toBe("mesh.type");
      expect(e.value).toBe("sphere");
      expect(e.message).toBe(
        'mesh.type must be "mesh" (ShapeType.TriangleMesh, a triangle mesh) (got "sphere")',
      );
    }
    const e = refusal(() => updateTriangleMeshVertices(ball as never, [0]));
    expect(e.message).toBe(
      'mesh must be a triangle mesh made by makeTriangleMesh (got {"type":"sphere","radius":1})',
    );
  });
});

/** Each scene kind written at size s (its reach from its origin about s). */
const WRITTEN: ((s: number) => Record<string, unknown>)[] = [
  (s) => ({ type: "sphere", center: [0, 0, 0], radius: s }),
  (s) => ({ type: "aabb", min: [-s, 0, 0], max: [s, 1, 1] }),
  (s) => ({ type: "box", center: [0, 0, 0], halfExtents: [s, 1, 1] }),
  (s) => ({ type: "capsule", a: [-s / 2, 0, 0], b: [s / 2, 0, 0], radius: s / 2 }),
  (s) => ({ type: "cylinder", center: [0, 0, 0], halfHeight: s, radius: 1 }),
  (s) => ({ type: "cone", center: [0, 0, 0], halfHeight: 1, radius: s }),
  (s) => ({
    type: "convex",
    points: [
      [-s, -s, -s],
      [s, -s, -s],
      [0, s, -s],
      [0, 0, s],
    ],
  }),
  (s) => ({ type: "triangle", a: [-s, 0, 0], b: [s, 0, 0], c: [0, s, 0] }),
  (s) => ({
    type: "mesh",
    vertices: [
      [-s, 0, 0],
      [s, 0, 0],
      [0, s, 0],
    ],
    indices: [[0, 1, 2]],
  }),
  (s) => ({ type: "roundedBox", center: [0, 0, 0], halfExtents: [s / 2, 1, 1], radius: s / 2 }),
  (s) => ({
    type: "compound",
    children: [{ shape: { type: "sphere", center: [0, 0, 0], radius: s } }],
  }),
];

describe("collide check quotes a shape reaching past the bound as the scene wrote it", () => {
  it("the fresh16 ball: its scene JSON, not the library's record", () => {
    const shape = { type: "sphere", center: [1e300, 0, 0], radius: 1e300 };
    const e = refusal(() => checkScene(parseScene({ bodies: [{ id: "huge", shape }] })));
    expect(e.field).toBe("bodies[0].shape");
    expect(e.value).toEqual(shape);
    expect(e.message).toBe(
      'bodies[0].shape (id "huge") reaches 1e+300 from the body\'s origin, so its AABB is out of range at any pose (its coordinates must lie within ±1e+300; scale the scene down) (got {"type":"sphere","center":[1e+300,0,0],"radius":1e+300})',
    );
  });

  it("property over the scene's kinds and sizes past the bound", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: WRITTEN.length - 1 }),
        fc.integer({ min: 998, max: 1018 }),
        (k, e) => {
          const shape = WRITTEN[k](2 ** e);
          const err = refusal(() =>
            checkScene(parseScene({ bodies: [{ id: "b", shape: { ...shape } }] })),
          );
          expect(err.field).toBe("bodies[0].shape");
          expect(err.value).toEqual(shape);
          expect(err.message).toMatch(/^bodies\[0\]\.shape \(id "b"\) reaches \S+ from/);
          expect(err.message).toContain(`(got {"type":"${shape.type}"`);
          expect(err.message).not.toMatch(NUMBERED_TYPE);
        },
      ),
    );
  });
});
