/**
 * Issue 16, session 26: the merged manifold of a triangle mesh (src/narrowphase/composite.ts,
 * `manifoldSurface` and the two-surface merge) faces across its normal. Each merged triangle's
 * manifold faced across its own normal, up to 18° off the deepest contact's
 * (`MESH_MANIFOLD_MERGE_COS`), and kept its witnesses: at a box mesh's corner or edge, pointB −
 * pointA ran sideways to the normal by up to a third of the depth (a sphere over the mesh's top
 * edge: its point under the side face's corner 9e-3 off; a box resting across the corner: 3.6e-2
 * at depth 0.12). The fuzzer's `facing` option now checks manifold points too: at seed 44, over
 * mesh, compound, box and sphere, 162 such lines before (sphere-mesh 67, mesh-mesh 54, box-mesh
 * 26, mesh-compound 15), 0 after; one of each pair is recorded here.
 *
 * Oracles, independent of the code under test: the fuzzer's replay (test/fuzz/fuzz.ts: its own
 * shape models, the bars of docs/FORMATS.md, `facing` on), and for the hand-derived inputs and
 * the property, brute force over the mesh's 12 triangles (test/fuzz/oracle-shapes.ts's closest
 * point on a triangle) for the mesh's side, the other shape's closed-form signed distance for its
 * side, and the contract itself: distance = (pointB − pointA)·n, pointB − pointA along n, no
 * point deeper than `contact`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";
import { boxMeshJson } from "../support/box-mesh.js";
import { quatArb } from "./arbitraries.js";
import { exactOffset, offsetScenario } from "./generate.js";
import {
  closestOnTriangle,
  dist,
  dot,
  norm,
  oshape,
  rotate,
  scale,
  sub,
  type V,
} from "./oracle-shapes.js";
import { expectReplayPasses, loadCases, replayCases } from "./recorded-cases.js";

const EPS = 2 ** -52;

interface Manifold {
  normal: V;
  points: { pointA: V; pointB: V; distance: number }[];
}

type J = Record<string, unknown>;

/** The distance from p to the nearest of the mesh JSON's triangles (brute force, world frame). */
function meshSurfaceDistance(mesh: J, p: V): number {
  const pos = (mesh.position as V | undefined) ?? [0, 0, 0];
  const q = mesh.rotation as number[] | undefined;
  const vs = (mesh.vertices as V[]).map((v) => {
    const r = rotate(q, v);
    return [r[0] + pos[0], r[1] + pos[1], r[2] + pos[2]] as V;
  });
  let best = Number.POSITIVE_INFINITY;
  for (const [i, j, k] of mesh.indices as number[][])
    best = Math.min(best, dist(p, closestOnTriangle(p, vs[i], vs[j], vs[k])));
  return best;
}

/** |signed distance| of p from the JSON shape's surface (the fuzzer's model; one convex piece). */
function convexSurfaceDistance(shape: J, p: V): number {
  return Math.min(...oshape(shape).pieces.map((q) => Math.abs(q.signed(p))));
}

/**
 * Checks the manifold of `a` and `b` (one of them the box mesh `mesh`) point by point against
 * the oracles above, to `tol`; returns the manifold (null when there is none).
 */
function checkManifold(a: J, b: J, mesh: J, tol: number): Manifold | null {
  const m = answerQuery({ op: "manifold", a, b }) as Manifold | null;
  const c = answerQuery({ op: "contact", a, b }) as { distance: number } | null;
  expect(m === null).toBe(c === null);
  if (m === null || c === null) return m;
  const n = m.normal;
  for (const p of m.points) {
    const d = sub(p.pointB, p.pointA);
    const along = dot(d, n);
    expect(Math.abs(along - p.distance)).toBeLessThanOrEqual(tol);
    expect(norm(sub(d, scale(n, along)))).toBeLessThanOrEqual(tol);
    expect(p.distance).toBeGreaterThanOrEqual(c.distance - tol);
    const onMesh = a === mesh ? p.pointA : p.pointB;
    const onOther = a === mesh ? p.pointB : p.pointA;
    const other = a === mesh ? b : a;
    expect(meshSurfaceDistance(mesh, onMesh)).toBeLessThanOrEqual(tol);
    const off =
      other.type === "mesh"
        ? meshSurfaceDistance(other, onOther)
        : convexSurfaceDistance(other, onOther);
    expect(off).toBeLessThanOrEqual(tol);
  }
  return m;
}

const CASES = loadCases("./manifold-facing.cases.json");

describe("issue 16: merged mesh manifold points face across the normal (seed 44, facing on)", () => {
  replayCases(CASES, 4, { facing: true });

  const mesh = boxMeshJson([1, 1, 1], [0, 0, 0]) as unknown as J;

  it("a sphere (r 2) over the box mesh's top edge: depth 0.1, every point facing", () => {
    // The sphere's centre (−0.5, 2.9, 1) lies over the edge z = 1 of the top face: the deepest
    // triangle contact is r − 1.9 = 0.1 along (0, 1, 0) (brute force over the triangles: the top
    // face's and the +z face's). The −x face's triangle meets it at its corner (−1, 1, 1), normal
    // 15° off (0, 1, 0): that point is taken where the vertical through the corner enters the
    // sphere, 1.9 − √3.75 below the corner (was: the sphere's point along the tilted normal,
    // 9e-3 beside it).
    const sphere = { type: "sphere", center: [-0.5, 2.9, 1], radius: 2 };
    for (const [a, b] of [
      [mesh, sphere],
      [sphere, mesh],
    ]) {
      const c = answerQuery({ op: "contact", a, b }) as { distance: number; normal: V };
      expect(c.distance).toBeCloseTo(-0.1, 14);
      expect(c.normal).toEqual(a === mesh ? [0, 1, 0] : [0, -1, 0]);
      const m = checkManifold(a, b, mesh, 1e-14) as Manifold;
      const corner = m.points.find((p) => dist(a === mesh ? p.pointA : p.pointB, [-1, 1, 1]) === 0);
      expect(corner?.distance).toBeCloseTo(1.9 - Math.sqrt(3.75), 14);
    }
  });

  it("a box resting across the box mesh's corner, tilted 0.2 rad: every point facing", () => {
    const s = Math.sin(0.1);
    const box = {
      type: "box",
      center: [1.2, 1.8, 1.2],
      halfExtents: [1, 1, 1],
      rotation: [0.6 * s, 0, 0.8 * s, Math.cos(0.1)],
    };
    for (const [a, b] of [
      [mesh, box],
      [box, mesh],
    ]) {
      // Was: three of the four points 1.8e-2..3.6e-2 off the normal.
      expect((checkManifold(a, b, mesh, 1e-14) as Manifold).points.length).toBe(4);
    }
    expectReplayPasses(offsetScenario(mesh, box, [0, 0, 0]), "box-mesh", { facing: true });
  });
});

/** A shape of kind `kind` of size h, resting on the box mesh's top (height `top`) at (x, z). */
function restingShape(kind: number, h: number, x: number, top: number, z: number, q: number[]): J {
  const c = [x, top + 0.9 * h, z];
  switch (kind) {
    case 0:
      return { type: "box", center: c, halfExtents: [h, h, 0.8 * h], rotation: q };
    case 1:
      return { type: "sphere", center: c, radius: h };
    case 2: {
      const u = rotate(q, [h, 0, 0]);
      return {
        type: "capsule",
        a: [c[0] - u[0], c[1] - u[1], c[2] - u[2]],
        b: [c[0] + u[0], c[1] + u[1], c[2] + u[2]],
        radius: 0.6 * h,
      };
    }
    case 3:
      return {
        type: "convex",
        points: [
          [-h, -h, -h],
          [h, -h, -0.7 * h],
          [-0.8 * h, -h, h],
          [h, -0.9 * h, h],
          [0, h, 0],
        ],
        position: c,
        rotation: q,
      };
    default:
      return { ...boxMeshJson([h, h, h], c), rotation: q } as unknown as J;
  }
}

describe("property: shapes resting across a box mesh's corners and edges", () => {
  it("box, sphere, capsule, hull and box mesh, both orders, sizes 1e-3..1e3, offsets to 1e6: every merged point faces, on both shapes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: 0.3, max: 2, noNaN: true }),
        fc.constantFrom(-1, -0.5, 0, 0.5, 1),
        fc.constantFrom(-1, 1),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        quatArb,
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.tuple(
          fc.constantFrom([1, 0, 0], [0.6, 0.8, 0], [0, 0.6, -0.8]),
          fc.constantFrom(0, 1e3, 1e6),
        ),
        (kind, e, ratio, along, edge, sink, q, tilt, [u, mag]) => {
          const sz = 10 ** e;
          const h = ratio * sz;
          // A tilt of up to 0.3 rad about a random axis.
          const axis = q.slice(0, 3);
          const la = Math.hypot(...axis) || 1;
          const sn = Math.sin(tilt / 2);
          const rot = [
            (axis[0] / la) * sn,
            (axis[1] / la) * sn,
            (axis[2] / la) * sn,
            Math.cos(tilt / 2),
          ];
          const offset = exactOffset(u, mag);
          const mesh = boxMeshJson([sz, sz, sz], offset) as unknown as J;
          // On the top face's edge z = ±sz (at a corner when `along` is ±1), sunk by up to 0.3 h.
          const other = restingShape(
            kind,
            h,
            offset[0] + along * sz,
            offset[1] + sz - sink * h - 0.1 * h,
            offset[2] + edge * sz,
            rot,
          );
          const tol =
            1e-9 * (sz + h) + 256 * EPS * (Math.max(...offset.map(Math.abs)) + 4 * (sz + h));
          checkManifold(mesh, other, mesh, tol);
          checkManifold(other, mesh, mesh, tol);
        },
      ),
      { numRuns: 400 },
    );
  });
});
