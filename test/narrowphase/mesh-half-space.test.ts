/**
 * Mesh against half-space (src/narrowphase/mesh-half-space.ts), through the public pair queries
 * and the world. Oracle: the mesh's triangles one by one as convex shapes against the
 * half-space (the convex–half-space routine, independent code), whose minimum is the mesh's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeHalfSpace } from "../../src/shapes/half-space.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { CollisionWorld } from "../../src/world/collision-world.js";

const v = (x: number, y: number, z: number) => ({ x, y, z });
const coord = fc.double({ min: -3, max: 3, noNaN: true });
const vec = fc.tuple(coord, coord, coord).map(([x, y, z]) => v(x, y, z));
const quatArb = fc
  .tuple(coord, coord, coord, coord)
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => {
    const q = quat.create(x, y, z, w);
    quat.normalize(q, q);
    return q;
  });

describe("mesh × half-space", () => {
  it("distance and contact equal the minimum over the mesh's triangles (convex oracle)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(vec, vec, vec), { minLength: 1, maxLength: 6 }),
        vec,
        quatArb,
        fc.double({ min: -2, max: 2, noNaN: true }),
        (tris, t, q, offset) => {
          const pts = tris.flat();
          const idx = pts.map((_, i) => i);
          const mesh = makeTriangleMesh(pts, idx);
          const plane = makeHalfSpace(v(0, 1, 0), offset);
          const pm = iso.create(t, q);
          const pp = iso.identity();
          let best = Infinity;
          for (const [a, b, c] of tris) {
            const tri = makeTriangle(a, b, c);
            const d = distance(tri, pm, plane, pp).distance;
            if (d < best) best = d;
          }
          const got = distance(mesh, pm, plane, pp).distance;
          expect(Math.abs(got - best)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(best)));
          expect(intersects(mesh, pm, plane, pp)).toBe(got === 0);
          // Penetration depth: the deepest triangle's.
          let deepest = Infinity;
          for (const [a, b, c] of tris) {
            const cc = contact(makeTriangle(a, b, c), pm, plane, pp, 10);
            if (cc !== null && cc.distance < deepest) deepest = cc.distance;
          }
          const c = contact(mesh, pm, plane, pp, 10);
          expect(c).not.toBeNull();
          expect(Math.abs((c?.distance ?? 0) - deepest)).toBeLessThanOrEqual(
            1e-12 * (1 + Math.abs(deepest)),
          );
          const m = manifold(mesh, pm, plane, pp, 10);
          expect(m?.count).toBeGreaterThanOrEqual(1);
          expect(m?.count).toBeLessThanOrEqual(4);
          for (let k = 0; k < (m?.count ?? 0); k++) {
            expect(m?.points[k].distance).toBeGreaterThanOrEqual(deepest - 1e-12);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a flat square resting on the ground gives a 4-point manifold at depth 0.1", () => {
    const mesh = makeTriangleMesh(
      [v(-1, 0, -1), v(1, 0, -1), v(1, 0, 1), v(-1, 0, 1)],
      [0, 1, 2, 0, 2, 3],
    );
    const ground = makeHalfSpace(v(0, 1, 0), 0);
    const m = manifold(mesh, iso.create(v(0, -0.1, 0)), ground, iso.identity(), 0);
    expect(m?.count).toBe(4);
    expect(m?.normal.y).toBe(-1);
    for (let k = 0; k < 4; k++) expect(m?.points[k].distance).toBeCloseTo(-0.1, 12);
  });

  it("a world with two half-spaces, a mesh and a ball steps (it threw unsupported_pair)", () => {
    const w = new CollisionWorld();
    const ground = w.addBody({ shape: makeHalfSpace(v(0, 1, 0), 0), pose: iso.identity() });
    w.addBody({ shape: makeHalfSpace(v(1, 0, 0), -100), pose: iso.identity() });
    const level = w.addBody({
      shape: makeTriangleMesh([v(0, 0, 0), v(1, 0, 0), v(0, 0, 1)], [0, 1, 2]),
      pose: iso.create(v(0, 0.05, 0)),
    });
    const ball = w.addBody({ shape: makeSphere(0.5), pose: iso.create(v(5, 0.4, 5)) });
    w.step();
    const pairs = [...w.contacts()].map((c) => [c.a, c.b].sort((p, q) => p - q).join("-"));
    expect(pairs.sort()).toEqual(
      [
        [ground, ball].sort((p, q) => p - q).join("-"),
        // The mesh is 0.05 above the ground: apart, no contact.
      ].sort(),
    );
    w.setPose(level, iso.create(v(0, -0.05, 0)));
    w.step();
    expect(w.contactCount).toBe(2);
  });
});
