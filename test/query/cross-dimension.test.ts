/**
 * 2D and 3D shapes are not each other's (session 38's attack on small leftovers): the 2D and 3D
 * shapes share type ids (a circle and a sphere are both `{type: 0, radius}`), and a made circle
 * was accepted by `intersects` and `CollisionWorld.addBody` as a hand-built sphere, a made sphere
 * by `projectPoint2D` as a circle. Each side now refuses the other's made shapes naming the
 * argument (src/shapes/dimension.ts), over every kind of each; a hand-built shape is still
 * validated as the side's own kind (`{type: 0, radius: 1}` is a sphere in 3D, a circle in 2D).
 */
import { describe, expect, it } from "vitest";
import type { CollideError } from "../../src/errors.js";
import {
  CollisionWorld,
  contact,
  dim2,
  distance,
  intersects,
  isometry,
  makeCapsule,
  makeCompound,
  makeCone,
  makeConvexPolyhedron,
  makeCuboid,
  makeCylinder,
  makeSphere,
  makeTriangle,
  projectPoint,
  raycast,
} from "../../src/index.js";
import { refusal } from "../support/refusal.js";

const I = isometry.identity();
const P2 = dim2.pose2.fromAngle(0, 0);
const shapes2 = [
  dim2.makeCircle(1),
  dim2.makeRect({ x: 1, y: 2 }),
  dim2.makePolygon([
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: 0, y: 1 },
  ]),
  dim2.makeCapsule({ x: 0, y: 0 }, { x: 1, y: 0 }, 0.5),
  dim2.makeSegment({ x: 0, y: 0 }, { x: 1, y: 0 }),
];
const o = { x: 0, y: 0, z: 0 };
const shapes3 = [
  makeSphere(1),
  makeCuboid({ x: 1, y: 1, z: 1 }),
  makeCapsule(o, { x: 0, y: 1, z: 0 }, 0.5),
  makeCylinder(1, 1),
  makeCone(1, 1),
  makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  makeTriangle(o, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }),
];

const says2D = (e: CollideError) => expect(e.message).toMatch(/is a 2D shape/);
const says3D = (e: CollideError) => expect(e.message).toMatch(/is a 3D shape/);

describe("a 2D shape in a 3D query or world is refused", () => {
  it.each(shapes2.map((s) => [s.type, s] as const))("2D type %i", (_t, s2) => {
    const s = s2 as never;
    const ball = makeSphere(1);
    for (const [f, field] of [
      [() => intersects(s, I, ball, I), "a"],
      [() => intersects(ball, I, s, I), "b"],
      [() => distance(s, I, ball, I), "a"],
      [() => contact(ball, I, s, I), "b"],
      [() => projectPoint(s, I, o), "shape"],
      [() => raycast(s, I, o, { x: 1, y: 0, z: 0 }), "shape"],
    ] as const) {
      const e = refusal(f);
      expect(e.field).toBe(field);
      says2D(e);
    }
    const w = new CollisionWorld();
    const e = refusal(() => w.addBody({ shape: s, pose: I }));
    says2D(e);
    expect(w.bodyCount).toBe(0);
    says2D(refusal(() => makeCompound([{ shape: s, pose: I }])));
  });

  it("a hand-built {type: 0, radius: 1} is still a sphere", () => {
    expect(
      distance(
        { type: 0, radius: 1 } as never,
        I,
        makeSphere(1),
        isometry.create({ x: 3, y: 0, z: 0 }),
      ).distance,
    ).toBe(1);
  });
});

describe("a 3D shape in a 2D query or world is refused", () => {
  it.each(shapes3.map((s) => [s.type, s] as const))("3D type %i", (_t, s3) => {
    const s = s3 as never;
    const c = dim2.makeCircle(1);
    for (const [f, field] of [
      [() => dim2.intersects2D(s, P2, c, P2), "a"],
      [() => dim2.intersects2D(c, P2, s, P2), "b"],
      [() => dim2.distance2D(s, P2, c, P2), "a"],
      [() => dim2.projectPoint2D(s, P2, { x: 0, y: 0 }), "shape"],
      [() => dim2.castRay2D(s, P2, { x: -5, y: 0 }, { x: 1, y: 0 }), "shape"],
    ] as const) {
      const e = refusal(f);
      expect(e.field).toBe(field);
      says3D(e);
    }
    const w = new dim2.CollisionWorld2D();
    says3D(refusal(() => w.addBody({ shape: s, pose: P2 })));
    expect(w.bodyCount).toBe(0);
  });

  it("a hand-built {type: 0, radius: 1} is still a circle", () => {
    const d = dim2.distance2D(
      { type: 0, radius: 1 } as never,
      P2,
      dim2.makeCircle(1),
      dim2.pose2.fromAngle(3, 0),
    );
    expect(d.distance).toBe(1);
  });
});
