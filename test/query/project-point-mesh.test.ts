import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { loadBunny } from "../../src/models/bunny.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { pose, vec } from "../oracles/arbitraries.js";

const bunny = loadBunny();
const mesh = makeTriangleMesh(bunny.positions, bunny.cells);

/** Oracle: the closest point over every triangle, by brute force. */
function bruteDistance(p: vec3.Vec3): number {
  let best = Infinity;
  const a = vec3.create();
  const b = vec3.create();
  const c = vec3.create();
  const q = vec3.create();
  const v = bunny.positions;
  for (let t = 0; t < bunny.cells.length; t += 3) {
    const i = 3 * bunny.cells[t];
    const j = 3 * bunny.cells[t + 1];
    const k = 3 * bunny.cells[t + 2];
    vec3.set(a, v[i], v[i + 1], v[i + 2]);
    vec3.set(b, v[j], v[j + 1], v[j + 2]);
    vec3.set(c, v[k], v[k + 1], v[k + 2]);
    closestPointOnTriangle(q, p, a, b, c);
    best = Math.min(best, vec3.distance(p, q));
  }
  return best;
}

describe("projectPoint on a triangle mesh", () => {
  it("matches brute force over the bunny's triangles under any pose (hollow projection)", () => {
    fc.assert(
      fc.property(vec(-8, 12), pose(-3, 3), (pLocal, bp) => {
        const pW = iso.transformPoint(vec3.create(), bp, pLocal);
        const r = projectPoint(mesh, bp, pW, false);
        expect(r.distance).toBeCloseTo(bruteDistance(pLocal), 9);
        expect(vec3.distance(r.point, pW)).toBeCloseTo(r.distance, 9);
      }),
      { numRuns: 40 },
    );
  });

  it("a solid mesh reports inside points (distance 0 when solid); a surface mesh has no inside", () => {
    const v = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
    const idx = [
      0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0,
      4, 7, 0, 7, 3,
    ];
    const surface = makeTriangleMesh(v, idx);
    expect(surface.closed).toBe(true);
    expect(surface.solid).toBe(false);
    const onSurface = projectPoint(surface, iso.identity(), vec3.create(0.5, 0.5, 0.25));
    expect(onSurface.inside).toBe(false);
    expect(onSurface.distance).toBeCloseTo(0.25, 14);
    const cube = makeTriangleMesh(v, idx, "", { solid: true });
    expect(cube.solid).toBe(true);
    const inside = projectPoint(cube, iso.identity(), vec3.create(0.5, 0.5, 0.25));
    expect(inside.inside).toBe(true);
    expect(inside.distance).toBe(0);
    const hollow = projectPoint(cube, iso.identity(), vec3.create(0.5, 0.5, 0.25), false);
    expect(hollow.distance).toBeCloseTo(0.25, 14);
    const out = projectPoint(cube, iso.identity(), vec3.create(2, 0.5, 0.5));
    expect(out.inside).toBe(false);
    expect(out.distance).toBeCloseTo(1, 14);
  });
});
