/**
 * One semantics per mesh in every operation (issue 16, class 9): a mesh is a surface unless it
 * was built `solid: true`, which only a closed mesh may be. Hand-derived values on the closed
 * cube [0, 2]³ (tests/mesh/helpers.ts): a sphere of radius 1/4 at (1, 1, 1/2) is inside it,
 * 1/4 from the face z = 0 (its nearest face), so against the solid cube it intersects, its
 * distance is 0, and the contact goes out through z = 0: normal (0, 0, −1) from the cube toward
 * the sphere, depth 1/2 + 1/4 = 3/4, witness points (1, 1, 0) on the cube and (1, 1, 3/4) on
 * the sphere; against the surface cube it touches nothing.
 */
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeSphere, makeTriangleMesh } from "../../src/shapes/index.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { cubeMesh } from "../mesh/helpers.js";

const I = iso.identity();
const ball = makeSphere(0.25);
const inside = iso.create(vec3.create(1, 1, 0.5));

describe("solid meshes (issue 16, class 9)", () => {
  it("solid: true is refused for an open mesh, naming the field", () => {
    const open = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(() => makeTriangleMesh(open, [0, 1, 2], "m", { solid: true })).toThrow(CollideError);
    expect(() => makeTriangleMesh(open, [0, 1, 2], "m", { solid: true })).toThrow(/m\.solid/);
    expect(() =>
      answerQuery({
        op: "intersects",
        a: {
          type: "mesh",
          vertices: [open.slice(0, 3), open.slice(3, 6), open.slice(6)],
          indices: [[0, 1, 2]],
          solid: true,
        },
        b: { type: "sphere", center: [0, 0, 0], radius: 1 },
      }),
    ).toThrow(/solid/);
    expect(cubeMesh(2, true).solid).toBe(true);
    expect(cubeMesh(2).solid).toBe(false);
  });

  it("a sphere inside: intersects, distance 0 and the contact through the nearest face", () => {
    const solid = cubeMesh(2, true);
    expect(intersects(solid, I, ball, inside)).toBe(true);
    const d = distance(solid, I, ball, inside);
    expect(d.distance).toBe(0);
    const c = contact(solid, I, ball, inside, 0);
    expect(c).not.toBeNull();
    expect(c?.distance).toBeCloseTo(-0.75, 14);
    expect(c?.normal).toEqual({ x: 0, y: 0, z: -1 });
    expect(c?.pointA).toEqual({ x: 1, y: 1, z: 0 });
    expect(c?.pointB.z).toBeCloseTo(0.75, 14);
    // Swapped: the normal negated and the points swapped.
    const f = contact(ball, inside, solid, I, 0);
    expect(f?.distance).toBeCloseTo(-0.75, 14);
    expect(f?.normal.z).toBeCloseTo(1, 14);
    expect(f?.pointB).toEqual({ x: 1, y: 1, z: 0 });
    const m = manifold(solid, I, ball, inside, 0);
    expect(m?.count).toBe(1);
    expect(m?.points[0].distance).toBeCloseTo(-0.75, 14);
    // A shape crossing the surface keeps its triangle contact; one outside stays apart.
    expect(intersects(solid, I, ball, iso.create(vec3.create(1, 1, 2.1)))).toBe(true);
    expect(intersects(solid, I, ball, iso.create(vec3.create(1, 1, 2.5)))).toBe(false);
    expect(distance(solid, I, ball, iso.create(vec3.create(1, 1, 2.5))).distance).toBeCloseTo(
      0.25,
      14,
    );
  });

  it("the same sphere against the surface cube touches nothing", () => {
    const surface = cubeMesh(2);
    expect(intersects(surface, I, ball, inside)).toBe(false);
    expect(distance(surface, I, ball, inside).distance).toBeCloseTo(0.25, 14);
    expect(contact(surface, I, ball, inside, 0)).toBeNull();
    expect(manifold(surface, I, ball, inside, 0)).toBeNull();
  });

  it("a surface mesh inside a solid mesh, either order: each triangle's depth, 1/2", () => {
    // The surface cube [1/2, 3/2]³ in the solid [0, 2]³ is its 12 triangles (a composite answers
    // its deepest part's contact): each face's triangles clear the solid through the face of the
    // big cube parallel to them, 1/2 away (issue 16, session 39; it had been pushed out whole,
    // 1/2 + 1, with errorBound 0).
    const big = cubeMesh(2, true);
    const small = cubeMesh(1);
    const at = iso.create(vec3.create(0.5, 0.5, 0.5));
    expect(intersects(big, I, small, at)).toBe(true);
    expect(intersects(small, at, big, I)).toBe(true);
    expect(distance(big, I, small, at).distance).toBe(0);
    const c = contact(big, I, small, at, 0);
    expect(c?.distance).toBeCloseTo(-0.5, 14);
    const f = contact(small, at, big, I, 0);
    expect(f?.distance).toBeCloseTo(-0.5, 14);
    expect(vec3.dot(f?.normal ?? vec3.create(), c?.normal ?? vec3.create())).toBeCloseTo(-1, 14);
    for (const k of [c, f]) {
      if (!k) continue;
      const d = vec3.sub(vec3.create(), k.pointB, k.pointA);
      const want = vec3.scale(vec3.create(), k.normal, k.distance);
      expect(vec3.distance(d, want)).toBeLessThan(1e-14);
    }
    const m = manifold(big, I, small, at, 0);
    expect(m?.count ?? 0).toBeGreaterThan(0);
    for (const p of m?.points.slice(0, m.count) ?? []) expect(p.distance).toBeCloseTo(-0.5, 14);
    // Both surfaces: nested meshes that do not cross do not touch.
    expect(intersects(cubeMesh(2), I, small, at)).toBe(false);
    expect(contact(cubeMesh(2), I, small, at, 0)).toBeNull();
  });

  it("casts, rays and points follow the mesh's semantics", () => {
    const solid = cubeMesh(2, true);
    const surface = cubeMesh(2);
    const up = vec3.create(0, 0, 1);
    expect(castShapes(ball, inside, up, solid, I, vec3.create(), 10)?.toi).toBe(0);
    // The surface cube: the ball meets the top face when 0.5 + t + 0.25 = 2.
    expect(castShapes(ball, inside, up, surface, I, vec3.create(), 10)?.toi).toBeCloseTo(1.25, 9);
    const o = vec3.create(1, 1, 0.5);
    expect(raycast(solid, I, o, up, 10, true)?.toi).toBe(0);
    expect(raycast(surface, I, o, up, 10, true)?.toi).toBeCloseTo(1.5, 14);
    expect(projectPoint(solid, I, o).inside).toBe(true);
    expect(projectPoint(solid, I, o).distance).toBe(0);
    expect(projectPoint(surface, I, o).inside).toBe(false);
    expect(projectPoint(surface, I, o).distance).toBeCloseTo(0.5, 14);
  });

  it("the world and the JSON query agree", () => {
    const world = new CollisionWorld({ prediction: 0 });
    const m = world.addBody({ shape: cubeMesh(2, true), pose: I });
    const s = world.addBody({ shape: ball, pose: inside });
    world.step();
    expect(world.isTouching(m, s)).toBe(true);
    const cube = {
      type: "mesh",
      vertices: [
        [0, 0, 0],
        [2, 0, 0],
        [0, 2, 0],
        [2, 2, 0],
        [0, 0, 2],
        [2, 0, 2],
        [0, 2, 2],
        [2, 2, 2],
      ],
      indices: [
        [0, 2, 3],
        [0, 3, 1],
        [4, 5, 7],
        [4, 7, 6],
        [0, 1, 5],
        [0, 5, 4],
        [2, 6, 7],
        [2, 7, 3],
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5],
      ],
    };
    const sphere = { type: "sphere", center: [1, 1, 0.5], radius: 0.25 };
    expect(answerQuery({ op: "intersects", a: { ...cube, solid: true }, b: sphere })).toEqual({
      intersects: true,
    });
    expect(answerQuery({ op: "intersects", a: cube, b: sphere })).toEqual({ intersects: false });
  });
});
