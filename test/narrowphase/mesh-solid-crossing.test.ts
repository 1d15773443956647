/**
 * A shape crossing the surface of a solid mesh (issue 16, item 9; session 19): the solid's depth
 * — the distance to push the shape out along the outward normal — in `contact`, `manifold`,
 * `distance` (0 at the contact's points when they overlap) and the world, consistent with
 * `intersects` and `projectPoint`. A triangle is two-sided, so the triangle contacts gave a sphere
 * whose centre is just inside a face the depth r − d through the face (toward the inside) instead
 * of r + d out of the solid, and a box more than half in was pushed further in.
 *
 * Oracles, independent of the code under test:
 * - the same solid as a box (`makeCuboid`, the box's own closed forms and SAT): the closed cube
 *   mesh [0, 2]³ is the box of half extents 1 at (1, 1, 1), so every answer must equal the box's;
 * - hand-derived depths: a sphere of radius r centred at height z in the cube, nearest to the face
 *   z = 0, is r + z deep through that face, normal (0, 0, −1);
 * - a non-convex solid (an L of two boxes) against spheres: the depth r − sd(c), sd the signed
 *   distance from brute force over the triangles (test/oracles/polytope-distance.ts) signed by
 *   the L's own inside test (a union of two boxes).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import type { Contact } from "../../src/narrowphase/contact.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import type { Capsule } from "../../src/shapes/capsule.js";
import type { Cuboid } from "../../src/shapes/cuboid.js";
import { makeCapsule, makeCuboid, makeCylinder, makeSphere } from "../../src/shapes/index.js";
import { type Shape, ShapeType } from "../../src/shapes/shape.js";
import type { Sphere } from "../../src/shapes/sphere.js";
import { convexSolidOfTriangleMesh, makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { cubeMesh, hullMesh } from "../mesh/helpers.js";
import { unitQuat } from "../oracles/arbitraries.js";
import { pointTriangleDistSq } from "../oracles/polytope-distance.js";
import { insideL, lMesh } from "../support/l-mesh.js";

const I = iso.identity();
const solid = cubeMesh(2, true);
const box = makeCuboid(vec3.create(1, 1, 1));
const boxPose = iso.create(vec3.create(1, 1, 1));

function at(x: number, y: number, z: number, rotation?: Isometry["rotation"]): Isometry {
  const p = iso.create(vec3.create(x, y, z));
  if (rotation) p.rotation = rotation;
  return p;
}

/** The contact of `s` at `p` against the solid cube and against the box oracle, both orders. */
function expectLikeBox(s: Shape, p: Isometry, tol = 1e-9): Contact {
  const c = contact(solid, I, s, p, 0);
  const o = contact(box, boxPose, s, p, 0);
  expect(o).not.toBeNull();
  expect(c).not.toBeNull();
  if (!c || !o) throw new Error("unreachable");
  expect(c.distance).toBeLessThan(0);
  expect(Math.abs(c.distance - o.distance)).toBeLessThanOrEqual(tol);
  // The normal achieves the box's depth (normals tie at a corner or an edge of the box).
  if (s.type === ShapeType.Cylinder) expect(vec3.dot(c.normal, o.normal)).toBeGreaterThan(1 - tol);
  else expect(Math.abs(overlapAlong(s, p, c.normal) + o.distance)).toBeLessThanOrEqual(tol);
  // The normal achieves the depth: the witnesses span it along the normal.
  const span = vec3.dot(vec3.sub(vec3.create(), c.pointB, c.pointA), c.normal);
  expect(Math.abs(span - c.distance)).toBeLessThanOrEqual(tol);
  // Swapped: the same depth, the normal negated.
  const f = contact(s, p, solid, I, 0);
  expect(f).not.toBeNull();
  expect(Math.abs((f?.distance ?? 0) - c.distance)).toBeLessThanOrEqual(tol);
  expect(vec3.dot(f?.normal ?? vec3.create(), c.normal)).toBeLessThan(-1 + tol);
  // One truth: intersecting, distance 0, a manifold as deep.
  expect(intersects(solid, I, s, p)).toBe(true);
  expect(intersects(s, p, solid, I)).toBe(true);
  expect(distance(solid, I, s, p).distance).toBe(0);
  const m = manifold(solid, I, s, p, 0);
  const mo = manifold(box, boxPose, s, p, 0);
  expect(m).not.toBeNull();
  expect(mo).not.toBeNull();
  if (m && mo) {
    const deepest = (x: typeof m) => Math.min(...x.points.slice(0, x.count).map((q) => q.distance));
    expect(Math.abs(deepest(m) - deepest(mo))).toBeLessThanOrEqual(tol);
    if (s.type !== ShapeType.Cylinder)
      expect(Math.abs(overlapAlong(s, p, m.normal) + o.distance)).toBeLessThanOrEqual(tol);
  }
  return c;
}

/** Points whose hull is shape `s` at `p` less its radius (box corners, capsule ends, centre). */
function corePoints(s: Shape, p: Isometry): { points: Vec3[]; radius: number } {
  const local: Vec3[] = [];
  let radius = 0;
  if (s.type === ShapeType.Sphere) {
    local.push(vec3.create());
    radius = (s as Sphere).radius;
  } else if (s.type === ShapeType.Capsule) {
    local.push(vec3.clone((s as Capsule).a), vec3.clone((s as Capsule).b));
    radius = (s as Capsule).radius;
  } else if (s.type === ShapeType.Cuboid) {
    const h = (s as Cuboid).halfExtents;
    for (let k = 0; k < 8; k++)
      local.push(vec3.create(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z));
  } else throw new Error("no core points");
  return { points: local.map((q) => iso.transformPoint(vec3.create(), p, q)), radius };
}

/**
 * The overlap along unit n of the box oracle (A) and shape s at p (B): max over the box of n·x
 * minus min over s of n·y (the depth that normal achieves). Cylinders: its normal only.
 */
function overlapAlong(s: Shape, p: Isometry, n: Vec3): number {
  let hA = -Infinity;
  for (let k = 0; k < 8; k++)
    hA = Math.max(hA, n.x * (k & 1 ? 2 : 0) + n.y * (k & 2 ? 2 : 0) + n.z * (k & 4 ? 2 : 0));
  if (s.type === ShapeType.Cylinder) return Number.NaN;
  const { points, radius } = corePoints(s, p);
  const lB = Math.min(...points.map((q) => vec3.dot(n, q))) - radius;
  return hA - lB;
}

/**
 * A coordinate across the cube [0, 2] and 0.3 beyond, in steps of 1/1000 (its faces, edges and
 * corners included). Subnormal offsets from a corner are left out: the triangle projection's
 * error bound is relative to the point's offset from the corner, and there it rounds a point
 * 5e-323 off a face onto the corner (a known limit, not this test's subject).
 */
const coordinate = fc.integer({ min: -300, max: 2300 }).map((i) => i / 1000);

describe("a shape crossing a solid mesh gets the solid's depth", () => {
  it("a sphere centred just inside a face: r + z out through that face (hand-derived)", () => {
    const r = 0.25;
    for (const z of [0.2, 0.1, 0.01, 1e-9]) {
      const c = expectLikeBox(makeSphere(r), at(1, 1, z));
      expect(c.distance).toBeCloseTo(-(r + z), 14);
      expect(c.normal).toEqual({ x: 0, y: 0, z: -1 });
      expect(c.pointA).toEqual({ x: 1, y: 1, z: 0 });
      // B's witness, its extreme point along −n: the sphere's top, z + r.
      expect(c.pointB.z).toBeCloseTo(z + r, 14);
    }
    // Centred on the face and just outside it: r − d, as the surface gave.
    expect(expectLikeBox(makeSphere(r), at(1, 1, 0)).distance).toBe(-r);
    expect(expectLikeBox(makeSphere(r), at(1, 1, -0.1)).distance).toBeCloseTo(-0.15, 14);
  });

  it("a large sphere centred deep inside, and one across a corner", () => {
    // Radius 1.2 at height 0.9: out through z = 0, depth 1.2 + 0.9.
    expect(expectLikeBox(makeSphere(1.2), at(1, 1, 0.9)).distance).toBeCloseTo(-2.1, 14);
    // Nearest face x = 0 at 0.1: depth 0.35.
    expect(expectLikeBox(makeSphere(0.25), at(0.1, 0.15, 0.12)).distance).toBeCloseTo(-0.35, 14);
    // Outside a corner, crossing three faces: r − |c − corner|.
    const c = expectLikeBox(makeSphere(0.5), at(-0.1, -0.2, -0.2));
    expect(c.distance).toBeCloseTo(-0.2, 14);
  });

  it("boxes, capsules and cylinders half in (rotated too): the box's depth", () => {
    const q = (x: number, y: number, z: number, w: number) => {
      const l = Math.hypot(x, y, z, w);
      return { x: x / l, y: y / l, z: z / l, w: w / l };
    };
    expectLikeBox(makeCuboid(vec3.create(0.3, 0.3, 0.3)), at(1, 1, 0.1));
    expectLikeBox(makeCuboid(vec3.create(0.3, 0.2, 0.4)), at(1, 1.1, 0.1, q(0.1, 0.2, 0.3, 0.9)));
    expectLikeBox(makeCuboid(vec3.create(0.5, 0.5, 0.5)), at(1.9, 1, 1.2, q(0.3, -0.1, 0.2, 0.8)));
    const cap = makeCapsule(vec3.create(0, 0, -0.5), vec3.create(0, 0, 0.5), 0.2);
    expect(expectLikeBox(cap, at(1, 1, 0.3)).distance).toBeCloseTo(-1, 12);
    const lying = makeCapsule(vec3.create(-0.5, 0, 0), vec3.create(0.5, 0, 0), 0.2);
    expect(expectLikeBox(lying, at(1, 1, 0.1)).distance).toBeCloseTo(-0.3, 12);
    expectLikeBox(lying, at(0.2, 1, 1.9, q(0.2, 0.5, -0.1, 0.7)));
    expectLikeBox(makeCylinder(0.3, 0.3), at(1, 1, 0.1), 1e-8);
  });

  it("random spheres, boxes and capsules across the cube: the box's answer (fast-check)", () => {
    const shapes = [
      makeSphere(0.4),
      makeCuboid(vec3.create(0.4, 0.25, 0.3)),
      makeCapsule(vec3.create(-0.3, 0.1, 0), vec3.create(0.3, -0.1, 0.1), 0.2),
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        coordinate,
        coordinate,
        coordinate,
        unitQuat,
        (k, x, y, z, rotation) => {
          const s = shapes[k];
          const p = at(x, y, z, rotation);
          const o = contact(box, boxPose, s, p, 0);
          // Touching within rounding either way: not this test's subject.
          if (!o || o.distance > -1e-6) return;
          expectLikeBox(s, p, 1e-8);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("projectPoint and the sphere's contact agree: depth r − signed distance at the centre", () => {
    for (const c of [vec3.create(1, 1, 0.2), vec3.create(0.3, 1.7, 1), vec3.create(1, 1, -0.1)]) {
      const r = 0.35;
      const pp = projectPoint(solid, I, c, false);
      const sd = pp.inside ? -pp.distance : pp.distance;
      const k = contact(solid, I, makeSphere(r), iso.create(c), 0);
      expect(k?.distance).toBeCloseTo(sd - r, 14);
      expect(vec3.distance(k?.pointA ?? vec3.create(), pp.point)).toBeLessThan(1e-14);
    }
  });

  it("the world reports the solid's depth", () => {
    const world = new CollisionWorld({ prediction: 0 });
    const m = world.addBody({ shape: solid, pose: I });
    const s = world.addBody({ shape: makeSphere(0.25), pose: at(1, 1, 0.1) });
    world.step();
    expect(world.isTouching(m, s)).toBe(true);
    const depths: number[] = [];
    for (const c of world.contacts()) {
      for (let i = 0; i < c.manifold.count; i++) depths.push(c.manifold.points[i].distance);
    }
    expect(depths.length).toBeGreaterThan(0);
    expect(Math.min(...depths)).toBeCloseTo(-0.35, 12);
  });
});

describe("which solids are answered as their convex hull", () => {
  it("convex solids (the cube, random hulls, inward winding) are; the L and a surface are not", () => {
    expect(convexSolidOfTriangleMesh(solid)).not.toBeNull();
    expect(convexSolidOfTriangleMesh(cubeMesh(2))).toBeNull();
    expect(convexSolidOfTriangleMesh(lMesh())).toBeNull();
    const rng = makeRandom(21);
    for (let k = 0; k < 20; k++) {
      const pts: number[] = [];
      for (let i = 0; i < 30; i++) pts.push(rng() * 4 - 2);
      const h = hullMesh(pts);
      const s = makeTriangleMesh(h.vertices, h.indices, "", { solid: true });
      expect(convexSolidOfTriangleMesh(s)).not.toBeNull();
      // Reversed winding: the same solid.
      const rev = Array.from(h.indices);
      for (let t = 0; t < rev.length; t += 3) [rev[t + 1], rev[t + 2]] = [rev[t + 2], rev[t + 1]];
      expect(
        convexSolidOfTriangleMesh(makeTriangleMesh(h.vertices, rev, "", { solid: true })),
      ).not.toBeNull();
      // One vertex moved to the vertices' centroid (strictly inside): a dent, not convex.
      const v = Float64Array.from(h.vertices);
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let i = c; i < v.length; i += 3) sum += h.vertices[i];
        v[c] = sum / h.vertexCount;
      }
      const dented = makeTriangleMesh(v, h.indices, "", { solid: true });
      expect(convexSolidOfTriangleMesh(dented)).toBeNull();
    }
  });
});

describe("a non-convex solid: spheres by the signed distance (brute force)", () => {
  const mesh = lMesh();
  const inside = insideL;
  const signedDistance = (c: Vec3): number => {
    let best = Infinity;
    const P = (i: number) =>
      [mesh.vertices[3 * i], mesh.vertices[3 * i + 1], mesh.vertices[3 * i + 2]] as const;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const d = pointTriangleDistSq(
        [c.x, c.y, c.z],
        P(mesh.indices[3 * t]),
        P(mesh.indices[3 * t + 1]),
        P(mesh.indices[3 * t + 2]),
      );
      best = Math.min(best, d);
    }
    return inside(c) ? -Math.sqrt(best) : Math.sqrt(best);
  };

  it("hand-derived: in the L's inner corner region and along its arms", () => {
    // Inside the arm x ∈ [1, 2], y ∈ [0, 1], z = 0.5, nearest face y = 1 at 0.1.
    const k = contact(mesh, I, makeSphere(0.3), at(1.5, 0.9, 0.5), 0);
    expect(k?.distance).toBeCloseTo(-0.4, 14);
    expect(k?.normal.y).toBeCloseTo(1, 14);
    // Outside, in the notch: 0.1 from the faces x = 1 (y ≥ 1) and y = 1 (x ≥ 1), radius 0.2.
    const e = contact(mesh, I, makeSphere(0.2), at(1.1, 1.1, 0.5), 0);
    expect(e?.distance).toBeCloseTo(-0.1, 14);
    // Inside, next to the inner edge (1, 1, z): nearest face x = 1 (y ≥ 1)... the centre at
    // (0.9, 1.5, 0.5) is 0.1 from x = 1: depth 0.3 + 0.1 out through it, normal +x.
    const g = contact(mesh, I, makeSphere(0.3), at(0.9, 1.5, 0.5), 0);
    expect(g?.distance).toBeCloseTo(-0.4, 14);
    expect(g?.normal.x).toBeCloseTo(1, 14);
  });

  it("random spheres crossing the L: r − sd(c) (fast-check)", () => {
    fc.assert(
      fc.property(
        coordinate,
        coordinate,
        coordinate.map((z) => z / 2),
        fc.double({ min: 0.05, max: 0.6, noNaN: true }),
        (x, y, z, r) => {
          const c = vec3.create(x, y, z);
          const sd = signedDistance(c);
          const k = contact(mesh, I, makeSphere(r), iso.create(c), 0);
          if (sd - r > 1e-9) {
            expect(k).toBeNull();
            return;
          }
          if (sd - r > -1e-9) return; // touching to rounding
          expect(k).not.toBeNull();
          expect(k?.distance).toBeCloseTo(sd - r, 12);
          expect(intersects(mesh, I, makeSphere(r), iso.create(c))).toBe(true);
          const f = contact(makeSphere(r), iso.create(c), mesh, I, 0);
          expect(f?.distance).toBeCloseTo(sd - r, 12);
        },
      ),
      { numRuns: 400 },
    );
  });
});
