/**
 * The viewer's scene transfer: every shape type through JSON and back gives a shape that
 * answers queries exactly as the original (distance to probe spheres around it, its AABB),
 * and bad numbers are refused by the `make…` constructors, naming the field.
 */
import { describe, expect, it } from "vitest";
import {
  poseFromTransfer,
  poseToTransfer,
  type ShapeTransfer,
  shapeFromTransfer,
  shapeToTransfer,
} from "../../src/debug/scene-transfer.js";
import { CollideError } from "../../src/errors.js";
import * as aabbm from "../../src/math/aabb.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { loadBunny } from "../../src/models/bunny.js";
import { distance } from "../../src/query/distance.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeCompound } from "../../src/shapes/compound.js";
import { makeCone } from "../../src/shapes/cone.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { aabbShape } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";

const bunny = loadBunny();
const v = vec3.create;
const shapes: [string, Shape][] = [
  ["sphere", makeSphere(0.7)],
  ["cuboid", makeCuboid(v(0.5, 0.2, 0.9))],
  ["capsule", makeCapsule(v(0, -0.5, 0), v(0.2, 0.5, 0), 0.3)],
  ["cylinder", makeCylinder(0.6, 0.4)],
  ["cone", makeCone(0.5, 0.3)],
  ["convex", makeConvexPolyhedron([v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0, 0, 1), v(1, 1, 1)])],
  ["triangle", makeTriangle(v(0, 0, 0), v(1, 0, 0), v(0, 1, 0))],
  ["mesh", makeTriangleMesh(bunny.positions, bunny.cells)],
  ["halfspace", makeHalfSpace(v(0, 1, 0), -0.5)],
  [
    "compound",
    makeCompound([
      { shape: makeSphere(0.3), pose: iso.create(v(1, 0, 0)) },
      {
        shape: makeCuboid(v(0.2, 0.2, 0.2)),
        pose: iso.create(v(-1, 0, 0), quat.fromAxisAngle(quat.identity(), v(0, 1, 0), 0.5)),
      },
    ]),
  ],
];

describe("scene transfer", () => {
  for (const [name, shape] of shapes) {
    it(`rebuilds a ${name} that answers like the original`, () => {
      const t = JSON.parse(JSON.stringify(shapeToTransfer(shape))) as ShapeTransfer;
      const back = shapeFromTransfer(t);
      expect(back.type).toBe(shape.type);
      const pose = iso.create(
        v(0.3, -0.2, 0.1),
        quat.fromAxisAngle(quat.identity(), v(Math.SQRT1_2, Math.SQRT1_2, 0), 0.7),
      );
      const pose2 = poseFromTransfer(JSON.parse(JSON.stringify(poseToTransfer(pose))));
      expect(pose2).toEqual(pose);
      if (name !== "halfspace") {
        const a = aabbShape(aabbm.empty(), shape, pose);
        const b = aabbShape(aabbm.empty(), back, pose2);
        expect(b).toEqual(a);
      }
      const probe = makeSphere(0.1);
      for (const p of [v(3, 0, 0), v(0, 4, 0), v(-2, -2, 1), v(0.5, 12, -3)]) {
        const d1 = distance(shape, pose, probe, iso.create(p)).distance;
        const d2 = distance(back, pose2, probe, iso.create(p)).distance;
        expect(d2).toBeCloseTo(d1, 12);
      }
    });
  }

  it("refuses bad numbers naming the field", () => {
    expect(() => shapeFromTransfer({ type: "sphere", radius: -1 }, "bodies[3].shape")).toThrow(
      /bodies\[3\]\.shape\.radius/,
    );
    expect(() =>
      shapeFromTransfer({ type: "mesh", vertices: [0, 0, 0], indices: [0, 1, 2] }),
    ).toThrow(CollideError);
  });
});
