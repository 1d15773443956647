/**
 * Two solid meshes whose surfaces cross (issue 16, attack 25): the depth and normal of the solids'
 * overlap, not the triangles' 0. Two closed cubes overlapping by 0.1 got distance 0 (their
 * coplanar faces touch), at an offset (0.5, 0.5, 0) −0.5 along −y (a push that deepens the
 * overlap), coincident cubes 0.
 *
 * Oracles, independent of the code under test:
 * - hand-derived depths of two axis-aligned cubes (the least of the axis overlaps);
 * - the same solid as a `convex` hull of the mesh's vertices (the convex pair's own routines): a
 *   convex solid mesh must answer bitwise as that hull, in every pair and order;
 * - for the non-convex L (the union of two boxes): the solids' interiors overlap exactly when one
 *   box of each does (interval tests), and a contact's normal achieves its depth when B pushed
 *   along it by the depth (plus a hair) overlaps A no more (the same interval tests).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeConvexHull } from "../../src/geometry/hull.js";
import { answerQuery } from "../../src/io/query.js";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { unitQuat } from "../oracles/arbitraries.js";
import { BOX_TRIANGLES } from "../support/box-mesh.js";
import { boxUnionsOverlap, lBoxes, lMesh } from "../support/l-mesh.js";

// The attack's reproducer (/work/notes/attack25-solid-mesh.jsonl): a closed cube, corners ±1.
const CUBE = {
  type: "mesh",
  solid: true,
  vertices: [
    [-1, -1, -1],
    [-1, -1, 1],
    [-1, 1, -1],
    [-1, 1, 1],
    [1, -1, -1],
    [1, -1, 1],
    [1, 1, -1],
    [1, 1, 1],
  ],
  indices: BOX_TRIANGLES.map((t) => [...t]),
};

type Answer = { distance: number; normal: number[]; pointA: number[]; pointB: number[] };

function query(op: string, b: object): Answer {
  return answerQuery({ op, a: CUBE, b }) as unknown as Answer;
}

describe("attack 25: two solid cube meshes whose surfaces cross", () => {
  const cases: [number[], number, number[]][] = [
    [[1.9, 0, 0], -0.1, [1, 0, 0]],
    [[0.5, 0.5, 0], -1.5, [1, 0, 0]],
  ];
  for (const [pos, depth, normal] of cases) {
    it(`offset ${pos}: ${depth} along ${normal}`, () => {
      const c = query("contact", { ...CUBE, position: pos });
      expect(c.distance).toBeCloseTo(depth, 14);
      expect(c.normal).toEqual(normal);
      const m = answerQuery({
        op: "manifold",
        a: CUBE,
        b: { ...CUBE, position: pos },
      }) as unknown as {
        normal: number[];
        points: { distance: number }[];
      };
      expect(m.normal).toEqual(normal);
      expect(m.points.length).toBe(4);
      for (const p of m.points) expect(p.distance).toBeCloseTo(depth, 14);
      // The same as the convex hull against itself.
      const hull = { type: "convex", points: CUBE.vertices };
      const h = answerQuery({ op: "contact", a: hull, b: { ...hull, position: pos } });
      expect(c).toEqual(h);
    });
  }
  it("coincident cubes: −2; a small cube inside: −0.9", () => {
    expect(query("contact", CUBE).distance).toBe(-2);
    const small = { ...CUBE, vertices: CUBE.vertices.map((v) => v.map((x) => x / 10)) };
    expect(query("contact", small).distance).toBeCloseTo(-1.1, 14);
    const moved = { ...small, position: [0.8, 0, 0] };
    // The small cube (half size 0.1) at x = 0.8 inside the big one: pushed out through x = 1.
    expect(query("contact", moved).distance).toBeCloseTo(-0.3, 14);
    expect(query("intersects", moved)).toEqual({ intersects: true });
  });
});

/** A closed, outward-wound solid mesh of the convex hull of `pts` and that hull as `convex`. */
function solidHull(pts: number[]): { mesh: TriangleMesh; hull: Shape } {
  const h = computeConvexHull(pts);
  const idx: number[] = [];
  for (let f = 0; f + 1 < h.faceOffsets.length; f++) {
    const s = h.faceOffsets[f];
    const e = h.faceOffsets[f + 1];
    for (let k = s + 1; k + 1 < e; k++)
      idx.push(h.faceVertices[s], h.faceVertices[k], h.faceVertices[k + 1]);
  }
  const mesh = makeTriangleMesh(h.vertices, idx, "", { solid: true });
  return { mesh, hull: makeConvexPolyhedron(mesh.vertices) };
}

const polytope = (scale: number) =>
  fc
    .array(
      fc.tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
      ),
      {
        minLength: 6,
        maxLength: 14,
      },
    )
    .map((ps) => ps.flatMap((p) => [p[0] * scale, p[1] * scale, p[2] * scale]));

describe("a convex solid mesh answers as its convex hull", () => {
  it("random polytopes at scales 1e-3..1e3, offsets to 1e6: intersects, distance, contact equal", () => {
    const scaleArb = fc.integer({ min: -3, max: 3 }).map((e) => 10 ** e);
    fc.assert(
      fc.property(
        scaleArb.chain((s) =>
          fc.tuple(
            fc.constant(s),
            polytope(s),
            polytope(s),
            fc.tuple(
              fc.double({ min: -2, max: 2, noNaN: true }),
              fc.double({ min: -2, max: 2, noNaN: true }),
              fc.double({ min: -2, max: 2, noNaN: true }),
            ),
            fc.integer({ min: 0, max: 6 }),
            unitQuat,
            unitQuat,
          ),
        ),
        ([s, pa, pb, d, offExp, ra, rb]) => {
          let A: ReturnType<typeof solidHull>;
          let B: ReturnType<typeof solidHull>;
          try {
            A = solidHull(pa);
            B = solidHull(pb);
          } catch {
            return; // flat point sets: no solid
          }
          const far = offExp === 0 ? 0 : 10 ** offExp;
          const poseA = iso.create(vec3.create(far, -far, far));
          poseA.rotation = ra;
          const poseB = iso.create(vec3.create(far + d[0] * s, -far + d[1] * s, far + d[2] * s));
          poseB.rotation = rb;
          const box = makeCuboid(vec3.create(0.5 * s, 0.3 * s, 0.7 * s));
          const pairs: [Shape, Shape, Shape, Shape][] = [
            [A.mesh, B.mesh, A.hull, B.hull],
            [A.mesh, B.hull, A.hull, B.hull],
            [A.hull, B.mesh, A.hull, B.hull],
            [A.mesh, box, A.hull, box],
            [box, B.mesh, box, B.hull],
          ];
          // The rounding of the query frames at the offset (the mesh's and the hull's differ).
          const tol = 1e-10 * s + 1e-14 * far;
          for (const [a, b, ha, hb] of pairs) {
            expect(intersects(a, poseA, b, poseB)).toBe(intersects(ha, poseA, hb, poseB));
            const d = distance(a, poseA, b, poseB).distance;
            expect(Math.abs(d - distance(ha, poseA, hb, poseB).distance)).toBeLessThanOrEqual(tol);
            const c = contact(a, poseA, b, poseB, 0.1 * s);
            const ch = contact(ha, poseA, hb, poseB, 0.1 * s);
            expect(c === null).toBe(ch === null);
            if (c && ch) {
              expect(Math.abs(c.distance - ch.distance)).toBeLessThanOrEqual(tol);
              expect(vec3.dot(c.normal, ch.normal)).toBeGreaterThan(1 - 1e-9);
            }
            const m = manifold(a, poseA, b, poseB, 0.1 * s);
            expect(m === null).toBe(manifold(ha, poseA, hb, poseB, 0.1 * s) === null);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** The interiors of the two Ls (A at the origin, B translated by t) overlap by more than `eps`. */
function lsOverlap(t: number[], eps: number): boolean {
  return boxUnionsOverlap(lBoxes([0, 0, 0]), lBoxes(t)) > eps;
}

describe("non-convex solid meshes (Ls) interpenetrating", () => {
  const L = lMesh();
  it("distance < 0 whenever the interiors overlap, and the normal achieves the depth", () => {
    // Offsets off the integers: no face of B on a face plane of A (see crossingSolidsContact).
    const coord = fc.integer({ min: -18999, max: 18999 }).map((i) => i / 10000 + 3e-5);
    fc.assert(
      fc.property(fc.tuple(coord, coord, coord), (t) => {
        fc.pre(lsOverlap(t, 1e-6));
        const poseB = iso.create(vec3.create(t[0], t[1], t[2]));
        const c = contact(L, iso.identity(), L, poseB, 0);
        expect(c).not.toBeNull();
        if (!c) return;
        expect(c.distance).toBeLessThan(0);
        expect(intersects(L, iso.identity(), L, poseB)).toBe(true);
        expect(distance(L, iso.identity(), L, poseB).distance).toBe(0);
        // (pointB − pointA)·n = distance.
        const span = vec3.dot(vec3.sub(vec3.create(), c.pointB, c.pointA), c.normal);
        expect(Math.abs(span - c.distance)).toBeLessThanOrEqual(1e-12);
        // B pushed along the normal by the depth overlaps A no more.
        const push = -c.distance + 1e-9;
        const moved = [0, 1, 2].map((k) => t[k] + vec3.getAxis(c.normal, k) * push);
        expect(lsOverlap(moved, 0)).toBe(false);
        // Swapped: the same depth.
        const f = contact(L, poseB, L, iso.identity(), 0);
        expect(f?.distance).toBeLessThan(0);
        const m = manifold(L, iso.identity(), L, poseB, 0);
        expect(m?.points[0].distance).toBe(c.distance);
      }),
      { numRuns: 300 },
    );
  });
  it("an L pushed into another's notch: the hull bound is honest", () => {
    const poseB = iso.create(vec3.create(0.6, 0.7, 0.3));
    const c = contact(L, iso.identity(), L, poseB, 0);
    expect(c?.distance).toBeLessThan(0);
  });
});
