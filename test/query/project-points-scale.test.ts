/**
 * `projectPoints` (batch signed distance on a mesh) at any scale, as `projectPoint` answers
 * (fresh-user finding, session 18): a point at the centre of a closed mesh of size 1e200 was
 * refused as "too far", and a point outside a 1e-200 mesh got a negative distance and a wrong
 * closest point (every squared offset underflowed to 0). The oracle is the box's closed form:
 * outside, the length of the excess over the half extents; inside, minus the least clearance.
 */
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import { projectPoint, projectPoints } from "../../src/query/project-point.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { BOX_TRIANGLES, boxCorners } from "../support/box-mesh.js";
import "../../src/index.js";
import { refusal } from "../support/refusal.js";

const I = iso.identity();

function cube(h: number, solid: boolean) {
  return makeTriangleMesh(
    new Float64Array(boxCorners(h, h, h).flat()),
    new Uint32Array(BOX_TRIANGLES.flat()),
    "",
    { solid },
  );
}

/** Signed distance from p to the box [−h, h]³ (closed form). */
function boxOracle(h: number, p: number[]): { d: number } {
  const e = p.map((c) => Math.abs(c) - h);
  if (e.some((x) => x > 0)) return { d: Math.hypot(...e.map((x) => Math.max(0, x))) };
  return { d: Math.max(...e) };
}

/** Points relative to the box of half side h: its centre, inside, on a face, outside. */
function probes(h: number): number[][] {
  return [
    [0, 0, 0],
    [0.5 * h, 0.1 * h, -0.25 * h],
    [h, 0.5 * h, 0],
    [3 * h, 0, 0],
    [-2 * h, 2 * h, 0.5 * h],
    [1.5 * h, -1.25 * h, 2 * h],
  ];
}

describe("projectPoints answers every finite point projectPoint answers", () => {
  it("a closed box mesh from 1e-300 to 1e300: the closed-form signed distance and point, projectPoint's distance", () => {
    for (const h of [1e-300, 1e-200, 1e-160, 1e-40, 1, 1e40, 1e155, 1e200, 1e300]) {
      for (const solid of [false, true]) {
        const mesh = cube(h, solid);
        const ps = probes(h);
        const r = projectPoints(mesh, I, new Float64Array(ps.flat()));
        ps.forEach((p, i) => {
          const o = boxOracle(h, p);
          const tag = `h ${h} solid ${solid} point ${p}`;
          expect(r.signedDistances[i] / h, tag).toBeCloseTo(o.d / h, 14);
          // The point is on the box's boundary at that distance from p (the centre ties six
          // faces: any of them).
          const q = [0, 1, 2].map((k) => r.points[3 * i + k] / h);
          expect(Math.max(...q.map(Math.abs)), tag).toBeCloseTo(1, 14);
          const gap = Math.hypot(...q.map((c, k) => c - p[k] / h));
          expect(gap, tag).toBeCloseTo(Math.abs(o.d) / h, 14);
          // One truth: the hollow projectPoint's distance, to the last bit.
          const one = projectPoint(mesh, I, { x: p[0], y: p[1], z: p[2] }, false);
          expect(Math.abs(r.signedDistances[i]), tag).toBe(one.distance);
        });
      }
    }
  });

  it("a unit box and points from 1e-300 to 1e300 away: the distance is the point's own to the last bits", () => {
    const mesh = cube(1, true);
    // Before, from about 1e16 away the walk's squared distances all rounded alike, it took a
    // triangle on the far side and that side's pseudo-normal called the point inside.
    for (const x of [1e-300, 1e-100, 1e17, 1e30, 1e40, 1e100, 1e155, 1e200, 1e300, -1.5e308]) {
      const r = projectPoints(mesh, I, new Float64Array([x, 0, 0]));
      const o = boxOracle(1, [x, 0, 0]);
      expect(r.signedDistances[0] / o.d, String(x)).toBeCloseTo(1, 15);
      const one = projectPoint(mesh, I, { x, y: 0, z: 0 }, false);
      expect(Math.abs(r.signedDistances[0])).toBe(one.distance);
      expect(one.inside).toBe(Math.abs(x) < 1);
    }
  });

  it("a pose far out: the mesh at 1e250 with points around it", () => {
    const h = 1e249;
    const mesh = cube(h, false);
    const pose = {
      translation: { x: 1e250, y: -1e250, z: 0 },
      rotation: { x: 0, y: 0, z: 0, w: 1 },
    };
    const ps = probes(h);
    const world = ps.flatMap((p) => [p[0] + 1e250, p[1] - 1e250, p[2]]);
    const r = projectPoints(mesh, pose, new Float64Array(world));
    ps.forEach((p, i) => {
      expect(r.signedDistances[i] / h).toBeCloseTo(boxOracle(h, p).d / h, 12);
    });
  });

  it("a distance or offset that overflows a double is refused naming points[3i..3i+2] and the point; out is left as it was", () => {
    // A small box near x = 8.5e307 and a point at x = −9.5e307: 1.8e308 apart.
    const v = boxCorners(1, 1, 1).flatMap((c) => [c[0] + 8.5e307, c[1], c[2]]);
    const far = makeTriangleMesh(new Float64Array(v), new Uint32Array(BOX_TRIANGLES.flat()));
    const out = {
      points: new Float64Array(6).fill(7),
      signedDistances: new Float64Array(2).fill(7),
      triangles: new Int32Array(2).fill(7),
    };
    const e = refusal(() =>
      projectPoints(far, I, new Float64Array([0, 0, 0, -9.5e307, 0, 0]), out),
    );
    expect(e.code).toBe("invalid_value");
    expect(e.field).toBe("points[3..5]");
    expect(e.message).toContain("points[3..5] is too far from the shape");
    expect(e.message).toContain("-9.5e+307");
    expect(e.message).not.toContain("1e150");
    expect(Array.from(out.points)).toEqual([7, 7, 7, 7, 7, 7]);
    expect(Array.from(out.signedDistances)).toEqual([7, 7]);
    expect(Array.from(out.triangles)).toEqual([7, 7]);
    // The point 1e308 left of a pose at +1e308: their offset overflows.
    const pose = { translation: { x: 1e308, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
    const e2 = refusal(() =>
      projectPoints(cube(1, true), pose, new Float64Array([1e308, 0, 0, -1e308, 0, 0]), out),
    );
    expect(e2.field).toBe("points[3..5]");
    expect(e2.message).toContain("offset overflows");
    expect(Array.from(out.points)).toEqual([7, 7, 7, 7, 7, 7]);
  });
});
