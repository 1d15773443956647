/**
 * Flat convex polygons (issue 17 item 2): coplanar points make a convex polyhedron flagged
 * `flat` (src/geometry/hull.ts, src/shapes/convex-polyhedron.ts). Oracles, independent of the
 * hull code:
 * - the **union of every triangle** of the input points as a triangle mesh: in a plane the union
 *   of all triangles with corners in a point set is its convex hull (Carathéodory), so the mesh
 *   is the same polygon built without any hull algorithm; ray casts, point projection, distance
 *   and shape casts must match it;
 * - brute force: dense sampling of the polygon for projections, the vertices for the AABB, the
 *   plane's equation for the 2D hull (every input point inside every side);
 * - hand-derived manifolds (a box resting on a tile: 4 points, the tile's normal).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DebugDraw } from "../../src/debug/draw.js";
import { shapeView } from "../../src/debug/shape-view.js";
import { drawShape } from "../../src/debug/shapes.js";
import { answerQuery } from "../../src/io/query.js";
import * as aabb from "../../src/math/aabb.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import {
  aabbShape,
  makeConvexPolyhedron,
  makeCuboid,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { num, unitQuat, vec } from "../oracles/arbitraries.js";

const I = iso.identity();

/** A polygon's points in 3D: 2D points (x, y) placed at centre + x·u + y·v, (u, v) from `rot`. */
function embed(
  points2: [number, number][],
  centre: Vec3,
  rot: { x: number; y: number; z: number; w: number },
  s: number,
): number[] {
  const u = quat.rotate(vec3.create(), rot, vec3.create(1, 0, 0));
  const v = quat.rotate(vec3.create(), rot, vec3.create(0, 1, 0));
  const out: number[] = [];
  for (const [x, y] of points2) {
    out.push(
      centre.x + s * (x * u.x + y * v.x),
      centre.y + s * (x * u.y + y * v.y),
      centre.z + s * (x * u.z + y * v.z),
    );
  }
  return out;
}

/** The union of every non-degenerate triangle of the points, as a mesh (the oracle polygon). */
function allTriangles(points: number[], points2: [number, number][]) {
  const idx: number[] = [];
  const n = points2.length;
  let span = 0;
  for (const [x, y] of points2) span = Math.max(span, Math.abs(x), Math.abs(y));
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++) {
        const [ax, ay] = points2[a];
        const [bx, by] = points2[b];
        const [cx, cy] = points2[c];
        const area = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
        if (area > 1e-6 * span * span) idx.push(a, b, c);
      }
  return makeTriangleMesh(points, idx);
}

/** Random polygon input: 3–8 points in the unit disk, not all near one line. */
const polygon2 = fc
  .array(fc.tuple(num(-1, 1), num(-1, 1)), { minLength: 3, maxLength: 8 })
  .filter((pts) => {
    let best = 0;
    for (const a of pts)
      for (const b of pts)
        for (const c of pts)
          best = Math.max(
            best,
            Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])),
          );
    return best > 0.05;
  });

/** Polygon placements: any plane, adversarial offsets and scales. */
const placement = fc.record({
  rot: unitQuat,
  centre: fc.oneof(vec(-3, 3), fc.constant(vec3.create(1e6, -2e6, 5e5))),
  s: fc.constantFrom(1, 1e-3, 1e3, 0.37),
});

describe("flat convex polygon construction", () => {
  it("a unit square tile is flat: 4 corners, 2 faces ±n, 4 edges", () => {
    const tile = makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0.5, 0, 0.5, 0.5, 0, 0]);
    expect(tile.flat).toBe(true);
    expect(tile.vertexCount).toBe(4);
    expect(tile.faceCount).toBe(2);
    expect(tile.edges.length / 2).toBe(4);
    expect(Math.abs(tile.faceNormals[1])).toBe(1);
    expect(tile.faceNormals[4]).toBe(-tile.faceNormals[1]);
    expect(tile.facePlaneOffsets[0]).toBe(0);
    expect(tile.facePlaneOffsets[1]).toBe(0);
  });

  it("three points make a triangle; a solid stays a solid (flat: false)", () => {
    expect(makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 0, 1, 0]).flat).toBe(true);
    expect(makeConvexPolyhedron([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]).flat).toBe(false);
  });

  it("the corners are the 2D hull: every input point inside every side, every corner an input point (fast-check)", () => {
    fc.assert(
      fc.property(polygon2, placement, (p2, { rot, centre, s }) => {
        const pts = embed(p2, centre, rot, s);
        const poly = makeConvexPolyhedron(pts);
        expect(poly.flat).toBe(true);
        const tol = 1e-9 * (s + Math.abs(centre.x) + Math.abs(centre.y) + Math.abs(centre.z));
        const v = poly.vertices;
        for (let k = 0; k < poly.vertexCount; k++) {
          let found = false;
          for (let i = 0; i < pts.length; i += 3)
            if (v[3 * k] === pts[i] && v[3 * k + 1] === pts[i + 1] && v[3 * k + 2] === pts[i + 2])
              found = true;
          expect(found).toBe(true);
        }
        // Every input point on the plane and projecting onto the polygon with distance ~0.
        for (let i = 0; i < pts.length; i += 3) {
          const q = vec3.create(pts[i], pts[i + 1], pts[i + 2]);
          expect(projectPoint(poly, I, q).distance).toBeLessThanOrEqual(tol);
        }
        // Every corner is needed: the mesh of the other corners misses it (strict convexity).
        expect(poly.vertexCount).toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ["coincident", [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]],
    ["collinear", [0, 0, 0, 1, 1, 1, 2, 2, 2, -5, -5, -5]],
    ["two points", [0, 0, 0, 1, 0, 0]],
    ["collinear within the tolerance", [0, 0, 0, 1, 0, 0, 2, 1e-14, 0, 3, 0, 0]],
  ])("refuses %s points with a CollideError naming the field and the points", (_, pts) => {
    expect(() => makeConvexPolyhedron(pts, "shapes[2].points")).toThrow(
      /^shapes\[2\]\.points .*\[/,
    );
    try {
      makeConvexPolyhedron(pts, "shapes[2].points");
    } catch (e) {
      expect((e as { name: string }).name).toBe("CollideError");
      expect((e as Error).message).toContain(String(pts[3]));
    }
  });

  it("JSON: a coplanar `convex` is a flat polygon; collinear points an invalid_value naming shape.points", () => {
    const r = answerQuery({
      op: "raycast",
      shape: {
        type: "convex",
        points: [
          [0, 0, 0],
          [2, 0, 0],
          [2, 2, 0],
          [0, 2, 0],
        ],
        position: [0, 0, 1],
      },
      origin: [1, 1, -3],
      direction: [0, 0, 1],
      maxToi: 10,
    }) as { toi: number; normal: number[] };
    expect(r.toi).toBe(4);
    expect(r.normal).toEqual([0, 0, -1]);
    expect(() =>
      answerQuery({
        op: "projectPoint",
        shape: {
          type: "convex",
          points: [
            [0, 0, 0],
            [1, 1, 1],
            [2, 2, 2],
          ],
        },
        point: [0, 0, 0],
      }),
    ).toThrow(/shape\.points .*collinear.*\[\[0,0,0\],\[1,1,1\],\[2,2,2\]\]/);
  });
});

describe("flat polygon queries against the same polygon as a triangle mesh (fast-check)", () => {
  it("ray casts hit from both sides, edge-on and at the mesh's time", () => {
    fc.assert(
      fc.property(
        polygon2,
        placement,
        vec(-2, 2),
        vec(-1.2, 1.2),
        (p2, { rot, centre, s }, o, target) => {
          const pts = embed(p2, centre, rot, s);
          const poly = makeConvexPolyhedron(pts);
          const mesh = allTriangles(pts, p2);
          const origin = vec3.create(centre.x + s * o.x, centre.y + s * o.y, centre.z + s * o.z);
          const aim = vec3.create(
            centre.x + s * target.x,
            centre.y + s * target.y,
            centre.z + s * target.z,
          );
          const dir = vec3.sub(vec3.create(), aim, origin);
          if (vec3.length(dir) < 1e-3 * s) return;
          const n = vec3.create(poly.faceNormals[0], poly.faceNormals[1], poly.faceNormals[2]);
          const sin = Math.abs(vec3.dot(n, dir)) / vec3.length(dir);
          const op = vec3.dot(n, origin) - poly.facePlaneOffsets[0];
          if (sin < 1e-6 || Math.abs(op) < 1e-6 * s) return; // edge-on: the dedicated test below
          const a = raycast(poly, I, origin, dir, 10);
          const b = raycast(mesh, I, origin, dir, 10);
          // Rays through the boundary (a corner, an edge) may hit or miss within roundoff.
          const tol = 1e-9 * (s + vec3.length(centre));
          if (b === null) {
            if (a !== null)
              expect(projectPoint(mesh, I, a.point, false).distance).toBeLessThan(tol);
            return;
          }
          if (a === null) {
            expect(projectPoint(poly, I, b.point).distance).toBeLessThan(tol);
            return;
          }
          expect(Math.abs(a.toi - b.toi)).toBeLessThanOrEqual(1e-9 * Math.max(1, b.toi));
          // The normal faces the ray's origin: ±n, against the direction.
          expect(Math.abs(Math.abs(vec3.dot(a.normal, n)) - 1)).toBeLessThan(1e-12);
          expect(vec3.dot(a.normal, dir)).toBeLessThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("projectPoint and distance match the mesh; the closest point beats dense sampling", () => {
    fc.assert(
      fc.property(polygon2, placement, vec(-2, 2), (p2, { rot, centre, s }, q0) => {
        const pts = embed(p2, centre, rot, s);
        const poly = makeConvexPolyhedron(pts);
        const mesh = allTriangles(pts, p2);
        const q = vec3.create(centre.x + s * q0.x, centre.y + s * q0.y, centre.z + s * q0.z);
        const a = projectPoint(poly, I, q);
        const b = projectPoint(mesh, I, q, false);
        const tol = 1e-9 * (s + vec3.length(centre));
        expect(Math.abs(a.distance - b.distance)).toBeLessThanOrEqual(tol);
        expect(vec3.distance(a.point, b.point)).toBeLessThanOrEqual(Math.sqrt(tol * s) + tol);
        // A sphere around q: distance = point distance − radius.
        const r = 0.05 * s;
        const sphere = makeSphere(r);
        const pose: Isometry = iso.create(q);
        if (a.distance > 2 * r) {
          const d = distance(poly, I, sphere, pose);
          expect(Math.abs(d.distance - (a.distance - r))).toBeLessThanOrEqual(1e-7 * s + tol);
          expect(intersects(poly, I, sphere, pose)).toBe(false);
        } else if (a.distance < 0.5 * r) {
          expect(intersects(poly, I, sphere, pose)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a sphere cast onto the polygon from either side stops where the mesh stops", () => {
    fc.assert(
      fc.property(polygon2, unitQuat, vec(-3, 3), vec(-0.8, 0.8), (p2, rot, o, t) => {
        const centre = vec3.create(0.2, -0.1, 0.3);
        const pts = embed(p2, centre, rot, 1);
        const poly = makeConvexPolyhedron(pts);
        const mesh = allTriangles(pts, p2);
        const sphere = makeSphere(0.25);
        const start = vec3.add(vec3.create(), centre, o);
        const aim = vec3.add(vec3.create(), centre, t);
        const v = vec3.sub(vec3.create(), aim, start);
        if (projectPoint(poly, I, start).distance <= 0.3) return;
        const a = castShapes(poly, I, vec3.create(), sphere, iso.create(start), v, 2);
        const b = castShapes(mesh, I, vec3.create(), sphere, iso.create(start), v, 2);
        expect(a === null).toBe(b === null);
        if (a !== null && b !== null) expect(Math.abs(a.toi - b.toi)).toBeLessThanOrEqual(1e-6);
      }),
      { numRuns: 150 },
    );
  });

  it("intersects a random box exactly when the mesh does (away from touching)", () => {
    fc.assert(
      fc.property(
        polygon2,
        unitQuat,
        vec(-1.5, 1.5),
        unitQuat,
        vec(0.05, 0.6),
        (p2, rot, c, boxRot, h) => {
          const pts = embed(p2, vec3.create(), rot, 1);
          const poly = makeConvexPolyhedron(pts);
          const mesh = allTriangles(pts, p2);
          const box = makeCuboid(h);
          const pose = iso.create(c, boxRot);
          const d = distance(mesh, I, box, pose).distance;
          const hit = intersects(poly, I, box, pose);
          if (d > 1e-9) {
            expect(hit).toBe(false);
            expect(Math.abs(distance(poly, I, box, pose).distance - d)).toBeLessThanOrEqual(1e-7);
          } else expect(hit).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("flat polygon edge cases (adversarial)", () => {
  const tile = makeConvexPolyhedron([-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2]);

  it("a ray in the polygon's plane enters through a side with the side's in-plane normal", () => {
    const hit = raycast(tile, I, vec3.create(5, 0, 0.5), vec3.create(-1, 0, 0), 10);
    expect(hit?.toi).toBe(3);
    expect(hit?.normal).toEqual({ x: 1, y: 0, z: 0 });
    expect(raycast(tile, I, vec3.create(5, 1e-12, 0.5), vec3.create(-1, 0, 0), 10)).toBeNull();
    // From a point of the polygon: inside a solid shape (toi 0); hollow, it leaves at once.
    const inside = raycast(tile, I, vec3.create(0, 0, 0), vec3.create(0, 1, 0), 10);
    expect(inside?.toi).toBe(0);
  });

  it("rays hit both sides with the normal facing the origin, through exact corners too", () => {
    const up = raycast(tile, I, vec3.create(2, -3, 2), vec3.create(0, 1, 0), 10);
    expect(up?.toi).toBe(3);
    expect(up?.normal).toEqual({ x: 0, y: -1, z: 0 });
    const down = raycast(tile, I, vec3.create(-2, 3, 0), vec3.create(0, -1, 0), 10);
    expect(down?.normal).toEqual({ x: 0, y: 1, z: 0 });
    expect(raycast(tile, I, vec3.create(2.0000001, 3, 0), vec3.create(0, -1, 0), 10)).toBeNull();
  });

  it("point projection: on the polygon, beside it in its plane, above and below (sampling oracle)", () => {
    const on = projectPoint(tile, I, vec3.create(0.5, 0, -1));
    expect(on.inside).toBe(true);
    expect(on.distance).toBe(0);
    const beside = projectPoint(tile, I, vec3.create(3, 0, 0));
    expect(beside.inside).toBe(false);
    expect(beside.distance).toBe(1);
    for (const q of [
      vec3.create(0.3, 0.7, -0.2),
      vec3.create(0.3, -0.7, -0.2),
      vec3.create(3, -1, 2.5),
    ]) {
      const p = projectPoint(tile, I, q);
      let best = Infinity;
      for (let i = 0; i <= 200; i++)
        for (let j = 0; j <= 200; j++) {
          const x = -2 + (4 * i) / 200;
          const z = -2 + (4 * j) / 200;
          best = Math.min(best, Math.hypot(q.x - x, q.y, q.z - z));
        }
      expect(p.distance).toBeLessThanOrEqual(best + 1e-12);
      expect(p.distance).toBeGreaterThanOrEqual(best - 0.02 * Math.SQRT2);
      expect(p.inside).toBe(false);
    }
  });

  it.each([
    ["at the origin", vec3.create(0, 0, 0), 1],
    ["far from the origin", vec3.create(1e6, -3e6, 2e6), 1],
    ["tiny", vec3.create(0, 0, 0), 1e-4],
    ["huge", vec3.create(0, 0, 0), 1e4],
  ])("a box resting on a tile %s gets a 4-point manifold with the tile's normal", (_, c, s) => {
    const tileS = makeConvexPolyhedron(
      embed(
        [
          [-2, -2],
          [2, -2],
          [2, 2],
          [-2, 2],
        ],
        vec3.create(),
        { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 },
        s,
      ),
    );
    const tilePose = iso.create(c);
    const box = makeCuboid(vec3.create(0.5 * s, 0.5 * s, 0.5 * s));
    const boxPose = iso.create(
      vec3.create(c.x + 0.3 * s, c.y + 0.49 * s, c.z - 0.2 * s),
      quat.fromAxisAngle(quat.create(), vec3.create(0, 1, 0), 0.3),
    );
    const m = manifold(tileS, tilePose, box, boxPose);
    expect(m).not.toBeNull();
    if (m === null) return;
    expect(m.count).toBe(4);
    expect(m.normal.y).toBeCloseTo(1, 12);
    for (let i = 0; i < m.count; i++) {
      expect(m.points[i].distance / s).toBeCloseTo(-0.01, 6);
    }
    // Flipped order: the normal from the box toward the tile.
    const f = manifold(box, boxPose, tileS, tilePose);
    expect(f?.count).toBe(4);
    expect(f?.normal.y).toBeCloseTo(-1, 12);
  });

  it("a box resting under the tile (the other side) gets the reversed normal", () => {
    const m = manifold(
      tile,
      I,
      makeCuboid(vec3.create(0.5, 0.5, 0.5)),
      iso.create(vec3.create(0, -0.49, 0)),
    );
    expect(m?.count).toBe(4);
    expect(m?.normal.y).toBeCloseTo(-1, 12);
  });

  it("polygon on polygon: coplanar overlap (distance 0, the normal), parallel gap, crossing", () => {
    const small = makeConvexPolyhedron([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1]);
    const coplanar = manifold(tile, I, small, iso.create(vec3.create(0.5, 0, 0)));
    expect(coplanar?.count).toBe(4);
    expect(Math.abs(coplanar?.normal.y ?? 0)).toBeCloseTo(1, 12);
    for (const p of coplanar?.points.slice(0, 4) ?? []) expect(Math.abs(p.distance)).toBe(0);
    expect(distance(tile, I, small, iso.create(vec3.create(0.5, 0.25, 0))).distance).toBeCloseTo(
      0.25,
      12,
    );
    expect(manifold(tile, I, small, iso.create(vec3.create(0.5, 0.25, 0)))).toBeNull();
    const tilted = iso.create(
      vec3.create(0.5, 0.3, 0),
      quat.fromAxisAngle(quat.create(), vec3.create(1, 0, 0), Math.PI / 4),
    );
    const cross = manifold(tile, I, small, tilted);
    // Hand-derived: the tilted square reaches 0.3 − sin 45° below the tile: depth along y.
    expect(cross?.normal.y).toBeCloseTo(1, 9);
    expect(cross?.points[0].distance).toBeCloseTo(0.3 - Math.SQRT1_2, 9);
  });

  it("touching edge-on: a box whose face touches the tile's edge intersects; 1e-9 away it does not", () => {
    const box = makeCuboid(vec3.create(0.5, 0.5, 0.5));
    expect(intersects(tile, I, box, iso.create(vec3.create(2.5, 0, 0)))).toBe(true);
    expect(intersects(tile, I, box, iso.create(vec3.create(2.5 + 1e-9, 0, 0)))).toBe(false);
    expect(
      distance(tile, I, box, iso.create(vec3.create(2.5 + 1e-6, 0.2, 0))).distance,
    ).toBeCloseTo(1e-6, 12);
  });

  it("AABB is the vertices' box; debug draw gives its edges; the view two fans", () => {
    const axis = vec3.create(1, 2, 3);
    vec3.normalize(axis, axis);
    const rot = quat.fromAxisAngle(quat.create(), axis, 0.7);
    const pose = iso.create(vec3.create(3, -4, 5), rot);
    const box = aabbShape(aabb.empty(), tile, pose);
    const lo = vec3.create(Infinity, Infinity, Infinity);
    const hi = vec3.create(-Infinity, -Infinity, -Infinity);
    for (let i = 0; i < tile.vertices.length; i += 3) {
      const p = iso.transformPoint(
        vec3.create(),
        pose,
        vec3.create(tile.vertices[i], tile.vertices[i + 1], tile.vertices[i + 2]),
      );
      vec3.min(lo, lo, p);
      vec3.max(hi, hi, p);
    }
    expect(box.min).toEqual(lo);
    expect(box.max).toEqual(hi);
    const dd = new DebugDraw();
    drawShape(dd, tile, pose);
    expect(dd.lineCount).toBe(4);
    const view = shapeView(tile);
    expect(view.type).toBe("triangles");
    if (view.type === "triangles") expect(view.indices.length).toBe(3 * 4);
  });

  it("in a world: a box resting on a tile body makes one 4-point contact along the tile's normal", () => {
    const w = new CollisionWorld();
    const floor = w.addBody({ shape: tile, pose: iso.identity() });
    const box = w.addBody({
      shape: makeCuboid(vec3.create(0.5, 0.5, 0.5)),
      pose: iso.create(vec3.create(0.2, 0.49, -0.3)),
    });
    w.step();
    const contacts = w.contacts();
    expect(contacts.length).toBe(1);
    const c = contacts[0];
    expect([c.a, c.b].sort()).toEqual([floor, box].sort());
    expect(c.manifold.count).toBe(4);
    expect(Math.abs(c.manifold.normal.y)).toBeCloseTo(1, 12);
    for (let i = 0; i < 4; i++) expect(c.manifold.points[i].distance).toBeCloseTo(-0.01, 9);
  });
});
