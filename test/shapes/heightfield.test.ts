/**
 * The heightfield (src/shapes/heightfield.ts) through the composite path, against two independent
 * oracles: the same terrain built as a triangle mesh from the JSON contract's formula (vertex
 * (r, c) at (c·sx, h·sy, r·sz), cells split along (r, c)–(r+1, c+1), +y normals) — every query
 * must give the mesh's answer — and brute force over every cell's triangles (a ray–triangle
 * test written here, the closest point on each triangle). Adversarial cases: a shape on a vertex,
 * on a diagonal, across a cell boundary, holes, rays along a cell edge, straight down and
 * parallel to the ground, far from the origin, tiny and huge scales.
 */
import fc from "fast-check";
import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { DebugDraw } from "../../src/debug/draw.js";
import { shapeFromTransfer, shapeToTransfer } from "../../src/debug/scene-transfer.js";
import { shapeView } from "../../src/debug/shape-view.js";
import { drawShape } from "../../src/debug/shapes.js";
import { CollideError } from "../../src/errors.js";
import { closestPointOnTriangle } from "../../src/geometry/closest-point.js";
import { makeMeshBvhHits } from "../../src/geometry/mesh-bvh.js";
import { answerQuery } from "../../src/io/query.js";
import { parseShape } from "../../src/io/shapes-json.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { castShapes } from "../../src/query/cast-shapes.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import type { Heightfield } from "../../src/shapes/heightfield.js";
import {
  heightfieldByteLength,
  heightfieldEdgeFlags,
  isHeightfieldHole,
  makeHeightfield,
  queryHeightfieldAabb,
} from "../../src/shapes/heightfield.js";
import {
  makeCapsule,
  makeCompound,
  makeConvexPolyhedron,
  makeCuboid,
  makeSphere,
  makeTriangleMesh,
} from "../../src/shapes/index.js";
import type { Shape } from "../../src/shapes/shape.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { shapeToObject3D } from "../../src/three/index.js";
import { castShape } from "../../src/world/cast-shape.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { castRayClosest } from "../../src/world/ray-cast.js";
import { unitQuat } from "../oracles/arbitraries.js";

interface Terrain {
  hf: Heightfield;
  mesh: TriangleMesh;
  /** Triangle corners, 9 doubles each, in the heightfield's part order (holes skipped). */
  tris: Float64Array;
}

/** The heightfield and, independently, the mesh of the JSON contract's triangles. */
function terrain(
  rows: number,
  cols: number,
  heights: number[],
  scale: Vec3,
  holes?: boolean[],
): Terrain {
  const hf = makeHeightfield({ rows, cols, heights: Float64Array.from(heights), scale, holes });
  const vertices: number[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      vertices.push(c * scale.x, heights[r * cols + c] * scale.y, r * scale.z);
  const indices: number[] = [];
  const tris: number[] = [];
  const corner = (v: number) => vertices.slice(3 * v, 3 * v + 3);
  for (let r = 0; r + 1 < rows; r++)
    for (let c = 0; c + 1 < cols; c++) {
      if (holes?.[r * (cols - 1) + c]) continue;
      const v00 = r * cols + c;
      const v01 = v00 + 1;
      const v10 = v00 + cols;
      const v11 = v10 + 1;
      indices.push(v00, v10, v11, v00, v11, v01);
      for (const v of [v00, v10, v11, v00, v11, v01]) tris.push(...corner(v));
    }
  return { hf, mesh: makeTriangleMesh(vertices, indices), tris: Float64Array.from(tris) };
}

const P = (x: number, y: number, z: number): Vec3 => ({ x, y, z });
const at = (x: number, y: number, z: number, rotation = { x: 0, y: 0, z: 0, w: 1 }): Isometry => ({
  translation: P(x, y, z),
  rotation,
});
const ID = iso.identity();

/** Möller–Trumbore (written here): t of o + t·d on triangle abc, or Infinity. */
function rayTri(o: Vec3, d: Vec3, t: Float64Array, k: number, eps: number): number {
  const a = P(t[k], t[k + 1], t[k + 2]);
  const e1 = P(t[k + 3] - a.x, t[k + 4] - a.y, t[k + 5] - a.z);
  const e2 = P(t[k + 6] - a.x, t[k + 7] - a.y, t[k + 8] - a.z);
  const p = vec3.cross(vec3.create(), d, e2);
  const det = vec3.dot(e1, p);
  if (Math.abs(det) < 1e-14 * vec3.length(e1) * vec3.length(e2) * vec3.length(d)) return Infinity;
  const s = vec3.sub(vec3.create(), o, a);
  const u = vec3.dot(s, p) / det;
  const q = vec3.cross(vec3.create(), s, e1);
  const v = vec3.dot(d, q) / det;
  if (u < -eps || v < -eps || u + v > 1 + eps) return Infinity;
  const tt = vec3.dot(e2, q) / det;
  return tt >= 0 ? tt : Infinity;
}

/** Brute force: the nearest ray hit over every triangle (local frame). */
function bruteRay(T: Terrain, o: Vec3, d: Vec3, maxToi: number, eps = 1e-12): number {
  let best = Infinity;
  for (let k = 0; k < T.tris.length; k += 9) best = Math.min(best, rayTri(o, d, T.tris, k, eps));
  return best <= maxToi ? best : Infinity;
}

/** Brute force: the distance from local point p to the nearest triangle. */
function brutePoint(T: Terrain, p: Vec3): number {
  let best = Infinity;
  const q = vec3.create();
  for (let k = 0; k < T.tris.length; k += 9) {
    const t = T.tris;
    closestPointOnTriangle(
      q,
      p,
      P(t[k], t[k + 1], t[k + 2]),
      P(t[k + 3], t[k + 4], t[k + 5]),
      P(t[k + 6], t[k + 7], t[k + 8]),
    );
    best = Math.min(best, vec3.distance(p, q));
  }
  return best;
}

const randomTerrain = fc
  .record({
    rows: fc.integer({ min: 2, max: 6 }),
    cols: fc.integer({ min: 2, max: 6 }),
    sx: fc.double({ min: 0.3, max: 2, noNaN: true }),
    sy: fc.double({ min: 0.2, max: 2, noNaN: true }),
    sz: fc.double({ min: 0.3, max: 2, noNaN: true }),
    seed: fc.integer({ min: 0, max: 1e6 }),
    holeRate: fc.constantFrom(0, 0, 0.2),
  })
  .map(({ rows, cols, sx, sy, sz, seed, holeRate }) => {
    let s = seed + 1;
    const rnd = () => {
      s = (s * 16807) % 2147483647;
      return s / 2147483647;
    };
    const heights = Array.from({ length: rows * cols }, () => Math.round((rnd() * 2 - 1) * 8) / 8);
    const cells = (rows - 1) * (cols - 1);
    const holes = Array.from({ length: cells }, () => rnd() < holeRate);
    if (holes.every(Boolean)) holes[0] = false;
    return terrain(rows, cols, heights, P(sx, sy, sz), holeRate > 0 ? holes : undefined);
  });

const smallShape: fc.Arbitrary<Shape> = fc.oneof(
  fc.double({ min: 0.1, max: 0.8, noNaN: true }).map((r) => makeSphere(r)),
  fc
    .tuple(
      fc.double({ min: 0.05, max: 0.6, noNaN: true }),
      fc.double({ min: 0.05, max: 0.6, noNaN: true }),
      fc.double({ min: 0.05, max: 0.6, noNaN: true }),
    )
    .map(([x, y, z]) => makeCuboid(P(x, y, z))),
  fc
    .tuple(
      fc.double({ min: 0, max: 0.5, noNaN: true }),
      fc.double({ min: 0.1, max: 0.4, noNaN: true }),
    )
    .map(([h, r]) => makeCapsule(P(0, -h, 0), P(0, h, 0), r)),
  fc.constant(
    makeConvexPolyhedron([0.4, 0, 0, -0.4, 0, 0, 0, 0.5, 0, 0, -0.3, 0, 0, 0, 0.4, 0, 0, -0.4]),
  ),
);

/** A pose over or near the terrain's footprint. */
function poseNear(T: Terrain): fc.Arbitrary<Isometry> {
  const W = (T.hf.cols - 1) * T.hf.scale.x;
  const D = (T.hf.rows - 1) * T.hf.scale.z;
  const H = 2 * T.hf.scale.y;
  return fc.record({
    translation: fc.record({
      x: fc.double({ min: -0.5, max: W + 0.5, noNaN: true }),
      y: fc.double({ min: -H - 0.5, max: H + 0.5, noNaN: true }),
      z: fc.double({ min: -0.5, max: D + 0.5, noNaN: true }),
    }),
    rotation: unitQuat,
  });
}

const terrainPose: fc.Arbitrary<Isometry> = fc.oneof(
  fc.constant(iso.identity()),
  fc.record({
    translation: fc.record({
      x: fc.double({ min: -5, max: 5, noNaN: true }),
      y: fc.double({ min: -5, max: 5, noNaN: true }),
      z: fc.double({ min: -5, max: 5, noNaN: true }),
    }),
    rotation: unitQuat,
  }),
);

/** Tolerance of answers compared between two paths (GJK/EPA on triangles in different frames). */
const TOL = 1e-6;

describe("makeHeightfield: bad input names the field and the value", () => {
  const ok = { rows: 2, cols: 2, heights: [0, 0, 0, 0], scale: P(1, 1, 1) };
  const cases: [string, object, string][] = [
    ["rows", { ...ok, rows: 1 }, "rows"],
    ["cols not integer", { ...ok, cols: 2.5 }, "cols"],
    ["heights length", { ...ok, heights: [0, 0, 0] }, "heights"],
    ["NaN height", { ...ok, heights: [0, Number.NaN, 0, 0] }, "heights[1]"],
    ["infinite height", { ...ok, heights: [0, 0, Infinity, 0] }, "heights[2]"],
    ["scale.x = 0", { ...ok, scale: P(0, 1, 1) }, "scale.x"],
    ["scale.y < 0", { ...ok, scale: P(1, -1, 1) }, "scale.y"],
    ["scale.z NaN", { ...ok, scale: P(1, 1, Number.NaN) }, "scale.z"],
    ["holes length", { ...ok, holes: [true, false] }, "holes"],
    ["all holes", { ...ok, holes: [true] }, "holes"],
  ];
  for (const [name, desc, field] of cases) {
    it(name, () => {
      let err: unknown;
      try {
        makeHeightfield(desc as never, "terrain");
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CollideError);
      expect((err as CollideError).field).toBe(`terrain.${field}`);
    });
  }
  it("all holes: names holes and gives the flags as written (not a made-up value)", () => {
    for (const holes of [[true], [1], new Uint8Array([1])]) {
      let err: CollideError | undefined;
      try {
        makeHeightfield({ ...ok, holes: holes as boolean[] }, "terrain");
      } catch (e) {
        err = e as CollideError;
      }
      expect(err?.code).toBe("invalid_value");
      expect(err?.field).toBe("terrain.holes");
      expect(err?.value).toBe(holes);
      expect(err?.message).toBe(
        `terrain.holes marks its only cell as a hole: at least one cell must be solid (a heightfield of holes touches nothing) (got [${holes[0] === true ? "true" : "1"}])`,
      );
    }
  });
  it("is frozen, copies its input, and costs 8 bytes per height plus a small tree", () => {
    const src = new Float64Array(64 * 64);
    const hf = makeHeightfield({ rows: 64, cols: 64, heights: src, scale: P(1, 1, 1) });
    src[0] = 5;
    expect(hf.heights[0]).toBe(0);
    expect(Object.isFrozen(hf)).toBe(true);
    expect(Object.isFrozen(hf.scale)).toBe(true);
    const bytes = heightfieldByteLength(hf);
    expect(bytes).toBeGreaterThanOrEqual(8 * 64 * 64);
    expect(bytes).toBeLessThan(8 * 64 * 64 * 1.1);
  });
});

describe("the min/max tree (mid-phase) against a scan of every cell", () => {
  it("returns exactly the triangles whose boxes overlap the query box", () => {
    fc.assert(
      fc.property(
        randomTerrain,
        fc.tuple(
          fc.double({ min: -1, max: 12, noNaN: true }),
          fc.double({ min: -3, max: 3, noNaN: true }),
          fc.double({ min: -1, max: 12, noNaN: true }),
          fc.double({ min: 0, max: 6, noNaN: true }),
          fc.double({ min: 0, max: 3, noNaN: true }),
          fc.double({ min: 0, max: 6, noNaN: true }),
        ),
        (T, [x, y, z, w, h, d]) => {
          const hits = makeMeshBvhHits(4);
          const n = queryHeightfieldAabb(hits, T.hf, x, y, z, x + w, y + h, z + d);
          const got = Array.from(hits.ids.subarray(0, n)).sort((a, b) => a - b);
          const want: number[] = [];
          const cells = (T.hf.rows - 1) * (T.hf.cols - 1);
          let k = 0;
          for (let cell = 0; cell < cells; cell++) {
            const hole = T.hf.holes && (T.hf.holes[cell >> 3] >> (cell & 7)) & 1;
            if (hole) continue;
            for (let part = 0; part < 2; part++, k += 9) {
              const t = T.tris;
              const lo = [0, 1, 2].map((a) => Math.min(t[k + a], t[k + 3 + a], t[k + 6 + a]));
              const hi = [0, 1, 2].map((a) => Math.max(t[k + a], t[k + 3 + a], t[k + 6 + a]));
              if (lo[0] <= x + w && hi[0] >= x && lo[1] <= y + h && hi[1] >= y)
                if (lo[2] <= z + d && hi[2] >= z) want.push(2 * cell + part);
            }
          }
          expect(got).toEqual(want);
        },
      ),
    );
  });
  it("a 100 × 100 field with blocks and levels finds every cell of a full query", () => {
    const rows = 100;
    const heights = Array.from({ length: rows * rows }, (_, i) => Math.sin(i));
    const hf = makeHeightfield({ rows, cols: rows, heights, scale: P(1, 1, 1) });
    expect(hf.tree.levels).toBeGreaterThan(2);
    const hits = makeMeshBvhHits(4);
    const n = queryHeightfieldAabb(
      hits,
      hf,
      -Infinity,
      -Infinity,
      -Infinity,
      Infinity,
      Infinity,
      Infinity,
    );
    expect(n).toBe(2 * 99 * 99);
  });
});

describe("every query matches the same terrain as a triangle mesh, and brute force", () => {
  it("intersects, distance, contact and manifold depth (fast-check)", () => {
    fc.assert(
      fc.property(randomTerrain, terrainPose, smallShape, fc.context(), (T, tp, s, ctx) =>
        fc.assert(
          fc.property(poseNear(T), (local) => {
            const sp = iso.multiply(iso.identity(), tp, local);
            const dm = distance(T.mesh, tp, s, sp).distance;
            const dh = distance(T.hf, tp, s, sp).distance;
            ctx.log(`dm ${dm} dh ${dh}`);
            expect(dh).toBeCloseTo(dm, 6);
            const cm = contact(T.mesh, tp, s, sp, 0.5);
            const ch = contact(T.hf, tp, s, sp, 0.5);
            expect(ch === null).toBe(cm === null);
            if (cm && ch) {
              expect(Math.abs(ch.distance - cm.distance)).toBeLessThan(TOL * 10);
              // Apart, the closest direction is the mesh's. Overlapping, triangles sharing an
              // inactive edge tie on depth with each its own face normal (either is the rule's
              // answer, the first in each one's order is taken): the normal must then be unit and
              // agree with the witness points.
              if (cm.distance > 1e-3)
                expect(vec3.dot(ch.normal, cm.normal)).toBeGreaterThan(1 - 1e-4);
              expect(vec3.length(ch.normal)).toBeCloseTo(1, 9);
              const gap = vec3.sub(vec3.create(), ch.pointB, ch.pointA);
              expect(vec3.dot(gap, ch.normal)).toBeCloseTo(ch.distance, 6);
            }
            if (Math.abs(dm) > 1e-6)
              expect(intersects(T.hf, tp, s, sp)).toBe(intersects(T.mesh, tp, s, sp));
            // The reversed order is the flip.
            const cr = contact(s, sp, T.hf, tp, 0.5);
            expect(cr === null).toBe(ch === null);
            if (cr && ch) expect(cr.distance).toBeCloseTo(ch.distance, 9);
            const mm = manifold(T.mesh, tp, s, sp, 0.05);
            const mh = manifold(T.hf, tp, s, sp, 0.05);
            expect(mh === null).toBe(mm === null);
            // Compared where both chose the same normal (see the contact's ties above).
            if (mm && mh && vec3.dot(mm.normal, mh.normal) > 1 - 1e-9) {
              const deepest = (m: typeof mm) => Math.min(...m.points.map((p) => p.distance));
              expect(Math.abs(deepest(mh) - deepest(mm))).toBeLessThan(1e-5);
              expect(mh.points.length).toBe(mm.points.length);
            }
          }),
          { numRuns: 8 },
        ),
      ),
      { numRuns: 40 },
    );
  });

  it("raycast: the mesh's answer and the brute-force nearest triangle (fast-check)", () => {
    fc.assert(
      fc.property(
        randomTerrain,
        terrainPose,
        fc.record({
          x: fc.double({ min: -2, max: 12, noNaN: true }),
          y: fc.double({ min: -4, max: 4, noNaN: true }),
          z: fc.double({ min: -2, max: 12, noNaN: true }),
        }),
        fc
          .record({
            x: fc.double({ min: -1, max: 1, noNaN: true }),
            y: fc.double({ min: -1, max: 1, noNaN: true }),
            z: fc.double({ min: -1, max: 1, noNaN: true }),
          })
          .filter((d) => vec3.length(d) > 1e-3),
        fc.constantFrom(3, 20, Infinity),
        (T, tp, oL, dL, maxToi) => {
          const o = iso.transformPoint(vec3.create(), tp, oL);
          const d = iso.transformVector(vec3.create(), tp, dL);
          const hm = raycast(T.mesh, tp, o, d, maxToi);
          const hh = raycast(T.hf, tp, o, d, maxToi);
          // The oracle with a strict and a tolerant barycentric test: a strict hit must be found,
          // and anything found must be a tolerant hit (a ray within rounding of an edge may go
          // either way, as it does for the mesh).
          // The oracle sees the ray as the shape does: taken back into its frame from the world.
          const oS = iso.inverseTransformPoint(vec3.create(), tp, o);
          const dS = iso.inverseTransformVector(vec3.create(), tp, d);
          // `strict` on triangles shrunk by 1e-9 (barycentric) must be hit; `brute` on triangles
          // grown by as much bounds what may be hit (a ray within rounding of an edge or a vertex
          // may go either way, as it does for the mesh).
          const strict = bruteRay(T, oS, dS, maxToi, -1e-9);
          const brute = bruteRay(T, oS, dS, maxToi, 1e-9);
          expect(hh === null).toBe(hm === null);
          if (strict < Infinity) expect(hh).not.toBeNull();
          if (!hh || !hm) return;
          expect(brute).toBeLessThan(Infinity);
          // The true first crossing lies between the tolerant and the strict oracle; where they
          // agree, the heightfield, the mesh and brute force give the same time.
          const slack = 1e-9 * (1 + brute);
          expect(hh.toi).toBeGreaterThanOrEqual(brute - slack);
          if (hh.toi > strict + slack) {
            // A graze the rounded oracle takes and the watertight test does not (a ray passing
            // within rounding of a vertex): the mesh's watertight answer must be the same.
            expect(hh.toi).toBeCloseTo(hm.toi, 9);
          } else if (strict - brute <= slack) {
            expect(hh.toi).toBeCloseTo(brute, 7);
            expect(hh.toi).toBeCloseTo(hm.toi, 9);
          }
          expect(vec3.dot(hh.normal, d)).toBeLessThanOrEqual(1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("projectPoint: the brute-force nearest triangle and the mesh's point (fast-check)", () => {
    fc.assert(
      fc.property(
        randomTerrain,
        terrainPose,
        fc.record({
          x: fc.double({ min: -3, max: 13, noNaN: true }),
          y: fc.double({ min: -6, max: 6, noNaN: true }),
          z: fc.double({ min: -3, max: 13, noNaN: true }),
        }),
        (T, tp, pL) => {
          const p = iso.transformPoint(vec3.create(), tp, pL);
          const ph = projectPoint(T.hf, tp, p, false);
          const pm = projectPoint(T.mesh, tp, p, false);
          const brute = brutePoint(T, pL);
          expect(ph.distance).toBeCloseTo(brute, 9);
          expect(ph.distance).toBeCloseTo(pm.distance, 9);
          expect(vec3.distance(ph.point, p)).toBeCloseTo(ph.distance, 9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("castShapes: the mesh's time of impact (fast-check)", () => {
    fc.assert(
      fc.property(
        randomTerrain,
        terrainPose,
        smallShape,
        fc.record({
          x: fc.double({ min: -1, max: 1, noNaN: true }),
          y: fc.double({ min: -3, max: 0, noNaN: true }),
          z: fc.double({ min: -1, max: 1, noNaN: true }),
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (T, tp, s, v, u, w) => {
          const W = (T.hf.cols - 1) * T.hf.scale.x;
          const D = (T.hf.rows - 1) * T.hf.scale.z;
          const start = iso.multiply(iso.identity(), tp, at(u * W, 2 * T.hf.scale.y + 1.5, w * D));
          const vel = iso.transformVector(vec3.create(), tp, v);
          const zero = P(0, 0, 0);
          const hm = castShapes(s, start, vel, T.mesh, tp, zero, 3);
          const hh = castShapes(s, start, vel, T.hf, tp, zero, 3);
          expect(hh === null).toBe(hm === null);
          if (hm && hh) {
            expect(Math.abs(hh.toi - hm.toi)).toBeLessThan(1e-4);
            expect(vec3.dot(hh.normal, hm.normal)).toBeGreaterThan(0.99);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("a compound against the heightfield, and heightfield against heightfield", () => {
    const T = terrain(
      4,
      4,
      [0, 0.5, 0, 0, 0.2, 0.8, 0.1, 0, 0, 0.3, 0.4, 0, 0, 0, 0, 0],
      P(1, 1, 1),
    );
    const comp = makeCompound([
      { shape: makeSphere(0.3), pose: at(0.5, 0, 0) },
      { shape: makeCuboid(P(0.2, 0.2, 0.2)), pose: at(-0.5, 0, 0) },
    ]);
    for (const y of [0.2, 0.6, 1.5]) {
      const p = at(1.5, y, 1.4);
      expect(distance(T.hf, ID, comp, p).distance).toBeCloseTo(
        distance(T.mesh, ID, comp, p).distance,
        6,
      );
    }
    const other = terrain(2, 2, [0, 0, 0, 0], P(0.5, 1, 0.5));
    const c = contact(T.hf, ID, other.hf, at(1.2, 0.3, 1.2), 1);
    const cm = contact(T.mesh, ID, other.mesh, at(1.2, 0.3, 1.2), 1);
    expect(c && cm).toBeTruthy();
    if (c && cm) expect(c.distance).toBeCloseTo(cm.distance, 6);
  });
});

describe("internal edges: a box sliding over flat terrain gets the face normal", () => {
  const flat = terrain(5, 5, new Array(25).fill(0), P(1, 1, 1));
  const box = makeCuboid(P(0.3, 0.2, 0.3));
  it("across cell diagonals and cell boundaries, at every point of a slide", () => {
    for (let k = 0; k <= 80; k++) {
      const x = 0.5 + (3 * k) / 80;
      for (const z of [0.5, 1, 1.37, 2, 2.5]) {
        const p = at(x, 0.2 - 0.01, z);
        const c = contact(flat.hf, ID, box, p);
        expect(c).not.toBeNull();
        if (!c) continue;
        expect(c.normal.x).toBe(0);
        expect(c.normal.z).toBe(0);
        expect(c.normal.y).toBeCloseTo(1, 12);
        expect(c.distance).toBeCloseTo(-0.01, 9);
        const m = manifold(flat.hf, ID, box, p);
        expect(m).not.toBeNull();
        if (!m) continue;
        expect(m.normal.y).toBeCloseTo(1, 12);
        expect(Math.abs(m.normal.x) + Math.abs(m.normal.z)).toBe(0);
        expect(m.points.length).toBe(4);
        // The deepest point at the box's depth; a box corner exactly over a triangle's edge is
        // reported at distance 0 by the triangle's clipping (the triangle mesh does the same).
        expect(Math.min(...m.points.map((q) => q.distance))).toBeCloseTo(-0.01, 9);
        for (const q of m.points) {
          expect(q.distance).toBeGreaterThanOrEqual(-0.01 - 1e-9);
          expect(q.distance).toBeLessThanOrEqual(0);
        }
      }
    }
  });
  it("a sphere on a vertex, on a diagonal and on a cell edge", () => {
    const ball = makeSphere(0.5);
    for (const [x, z] of [
      [2, 2],
      [1.5, 1.5],
      [2, 1.3],
      [1.3, 3],
    ]) {
      const c = contact(flat.hf, ID, ball, at(x, 0.45, z));
      expect(c?.normal).toEqual({ x: 0, y: 1, z: 0 });
      expect(c?.distance).toBeCloseTo(-0.05, 12);
      expect(intersects(flat.hf, ID, ball, at(x, 0.5, z))).toBe(true);
      expect(intersects(flat.hf, ID, ball, at(x, 0.5 + 1e-9, z))).toBe(false);
    }
  });
  it("flags: flat interior edges inactive, the border active, a ridge active", () => {
    expect(heightfieldEdgeFlags(flat.hf, 2 * 5 + 0)).toBe(0);
    expect(heightfieldEdgeFlags(flat.hf, 1)).toBe(0b100); // triangle 1 of cell 0: top border
    const ridge = terrain(3, 3, [0, 0, 0, 1, 1, 1, 0, 0, 0], P(1, 1, 1));
    // Cell 0's triangle 0 has its edge 1 (v10 → v11) on the ridge row r = 1.
    expect(heightfieldEdgeFlags(ridge.hf, 0) & 0b10).toBe(0b10);
  });
});

describe("adversarial rays and points", () => {
  const T = terrain(
    4,
    5,
    [0, 1, 0, 2, 1, 0.5, 0.5, 1, 1, 0, 0, 0, 3, 0, 1, 1, 1, 1, 1, 1],
    P(1.5, 0.5, 1),
  );
  it("a ray straight down on a vertex, a diagonal and a cell edge", () => {
    for (const [x, z] of [
      [1.5, 1],
      [0.75, 0.5],
      [3, 1.5],
      [0, 0],
      [6, 3],
      [2.2, 2],
    ]) {
      const h = raycast(T.hf, ID, P(x, 10, z), P(0, -1, 0), Infinity);
      const b = bruteRay(T, P(x, 10, z), P(0, -1, 0), Infinity);
      expect(h).not.toBeNull();
      expect(h?.toi).toBeCloseTo(b, 12);
      expect(h?.normal.y).toBeGreaterThan(0);
    }
  });
  it("a ray along a cell edge (in the plane x = c·sx) and along a row", () => {
    for (const c of [0, 1, 2, 3, 4]) {
      const o = P(c * 1.5, 4, -1);
      const d = P(0, -1.5, 1);
      const h = raycast(T.hf, ID, o, d, Infinity);
      const m = raycast(T.mesh, ID, o, d, Infinity);
      expect(bruteRay(T, o, d, Infinity)).toBeLessThan(Infinity);
      expect(h?.toi).toBeCloseTo(bruteRay(T, o, d, Infinity), 9);
      expect(h?.toi).toBeCloseTo(m?.toi ?? Number.NaN, 12);
    }
    const o = P(-1, 3, 2);
    const d = P(1, -1, 0);
    expect(raycast(T.hf, ID, o, d, Infinity)?.toi).toBeCloseTo(bruteRay(T, o, d, Infinity), 9);
  });
  it("a ray parallel to the ground: above misses, in the plane of a flat field misses (as the mesh)", () => {
    const flat = terrain(3, 3, new Array(9).fill(0), P(1, 1, 1));
    expect(raycast(flat.hf, ID, P(-1, 0.1, 1), P(1, 0, 0), Infinity)).toBeNull();
    expect(raycast(flat.hf, ID, P(-1, 0, 1), P(1, 0, 0), Infinity)).toBeNull();
    expect(raycast(flat.mesh, ID, P(-1, 0, 1), P(1, 0, 0), Infinity)).toBeNull();
    // Horizontal into a hill.
    const h = raycast(T.hf, ID, P(-1, 0.5, 1.2), P(1, 0, 0), Infinity);
    const b = bruteRay(T, P(-1, 0.5, 1.2), P(1, 0, 0), Infinity);
    expect(b).toBeLessThan(Infinity);
    expect(h?.toi).toBeCloseTo(b, 12);
  });
  it("holes: a ray and a sphere through a hole miss", () => {
    const H = terrain(3, 3, new Array(9).fill(0), P(1, 1, 1), [false, true, false, false]);
    expect(raycast(H.hf, ID, P(1.5, 1, 0.5), P(0, -1, 0), Infinity)).toBeNull();
    expect(raycast(H.hf, ID, P(0.5, 1, 0.5), P(0, -1, 0), Infinity)?.toi).toBe(1);
    expect(intersects(H.hf, ID, makeSphere(0.3), at(1.5, 0, 0.5))).toBe(false);
    expect(intersects(H.hf, ID, makeSphere(0.3), at(0.5, 0, 0.5))).toBe(true);
    expect(distance(H.hf, ID, makeSphere(0.1), at(1.5, 0, 0.5)).distance).toBeCloseTo(
      distance(H.mesh, ID, makeSphere(0.1), at(1.5, 0, 0.5)).distance,
      12,
    );
  });
  it("far from the origin, tiny and huge scale", () => {
    for (const [s, off] of [
      [1e-3, 0],
      [1e4, 0],
      [1, 1e6],
      [1e-3, 1e3],
    ] as const) {
      const S = terrain(3, 4, [0, 1, 0, 2, 1, 0, 0, 1, 0.5, 0.5, 1, 0], P(s, s, s));
      const pose = at(off, -off, off);
      const o = P(off + 1.2 * s, -off + 5 * s, off + 0.7 * s);
      const d = P(0.1 * s, -s, 0.05 * s);
      const h = raycast(S.hf, pose, o, d, Infinity);
      const m = raycast(S.mesh, pose, o, d, Infinity);
      expect(h).not.toBeNull();
      expect(h?.toi).toBeCloseTo(m?.toi ?? Number.NaN, 6);
      const ball = makeSphere(0.3 * s);
      const bp = at(off + 1.1 * s, -off + 1.1 * s, off + 0.9 * s);
      const dh = distance(S.hf, pose, ball, bp).distance;
      const dm = distance(S.mesh, pose, ball, bp).distance;
      expect(Math.abs(dh - dm)).toBeLessThan(1e-9 * Math.max(s, off));
      const q = P(off + 2.5 * s, -off + 3 * s, off + 1.5 * s);
      expect(projectPoint(S.hf, pose, q).distance).toBeCloseTo(
        (projectPoint(S.mesh, pose, q).distance / s) * s,
        6,
      );
    }
  });
  it("rays exactly on grid lines, block boundaries and vertices hit what the mesh hits (fast-check)", () => {
    // Issue 17: the DDA walked one of the cells sharing a boundary line (or a vertex), so a ray
    // lying on it missed a solid neighbour of a hole. Up to 20 × 20 vertices, so the lines
    // x = 8·sx and z = 8·sz, 16·sx, 16·sz are also boundaries of the min/max tree's blocks.
    const grid = fc
      .record({
        rows: fc.integer({ min: 2, max: 20 }),
        cols: fc.integer({ min: 2, max: 20 }),
        sx: fc.constantFrom(1, 0.5, 2, 0.3, 0.7),
        sy: fc.constantFrom(1, 0.5, 0.3),
        sz: fc.constantFrom(1, 0.25, 2, 0.3, 0.7),
        seed: fc.integer({ min: 0, max: 1e6 }),
        holeRate: fc.constantFrom(0.3, 0.5, 0.8),
        flat: fc.boolean(),
      })
      .map(({ rows, cols, sx, sy, sz, seed, holeRate, flat }) => {
        let s = seed + 1;
        const rnd = () => {
          s = (s * 16807) % 2147483647;
          return s / 2147483647;
        };
        const heights = Array.from({ length: rows * cols }, () =>
          flat ? 0 : Math.round((rnd() * 2 - 1) * 2),
        );
        const holes = Array.from({ length: (rows - 1) * (cols - 1) }, () => rnd() < holeRate);
        if (holes.every(Boolean)) holes[Math.floor(rnd() * holes.length)] = false;
        return { T: terrain(rows, cols, heights, P(sx, sy, sz), holes), heights };
      });
    fc.assert(
      fc.property(
        grid,
        fc.constantFrom("x-line", "z-line", "vertex"),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: -4, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        ({ T, heights }, mode, ci, ri, i, j, k) => {
          const { rows, cols, scale } = T.hf;
          const c = ci % cols;
          const r = ri % rows;
          const vx = c * scale.x;
          const vz = r * scale.z;
          let o: Vec3;
          let d: Vec3;
          if (mode === "vertex") {
            // Aimed exactly at vertex (r, c) from any side (or straight down).
            d = P(i / 4, -1, j / 4);
            const v = P(vx, heights[r * cols + c] * scale.y, vz);
            o = P(v.x - k * d.x, v.y - k * d.y, v.z - k * d.z);
          } else if (mode === "x-line") {
            // In the plane x = c·sx: straight down or slanted along z.
            d = P(0, -1, j / 4);
            o = P(vx, 5, (ri / 19) * (rows - 1) * scale.z - 2 * d.z);
          } else {
            d = P(i / 4, -1, 0);
            o = P((ci / 19) * (cols - 1) * scale.x - 2 * d.x, 5, vz);
          }
          const hm = raycast(T.mesh, ID, o, d, Infinity);
          const hh = raycast(T.hf, ID, o, d, Infinity);
          expect(hh === null).toBe(hm === null);
          if (hh && hm) {
            expect(hh.toi).toBeCloseTo(hm.toi, 9);
            // The first hit lies between brute force on triangles grown by 1e-9 (barycentric) and
            // on triangles shrunk by as much: a ray aimed at a vertex through rounded coordinates
            // passes within rounding of it, on whichever side its doubles put it (the exact test,
            // src/geometry/ray-primitives.ts `rayTriangleHit`, says which).
            expect(hh.toi).toBeGreaterThanOrEqual(bruteRay(T, o, d, Infinity, 1e-9) - 1e-6);
            expect(hh.toi).toBeLessThanOrEqual(bruteRay(T, o, d, Infinity, -1e-9) + 1e-6);
          }
          const dyadic = [scale.x, scale.y, scale.z].every((v) => Number.isInteger(4 * v));
          if (mode === "vertex" && dyadic) {
            // With dyadic scales the ray meets the vertex exactly (no rounding): a vertex shared by
            // a solid cell is hit at toi k (unless something is hit first).
            const solid = [
              [r - 1, c - 1],
              [r - 1, c],
              [r, c - 1],
              [r, c],
            ].some(
              ([a, b]) =>
                a >= 0 &&
                b >= 0 &&
                a < rows - 1 &&
                b < cols - 1 &&
                !isHeightfieldHole(T.hf, a * (cols - 1) + b),
            );
            if (solid && bruteRay(T, o, d, k * (1 - 1e-9), 1e-9) === Infinity)
              expect(hh?.toi).toBeCloseTo(k, 9);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
  it("issue 17 repro: a ray along the edge of a hole hits the solid neighbour", () => {
    const z6 = new Array(6).fill(0);
    for (const holes of [
      [true, false],
      [false, true],
    ]) {
      const T = terrain(2, 3, z6, P(1, 1, 1), holes);
      const h = raycast(T.hf, ID, P(1, 5, 0.5), P(0, -1, 0), 100);
      expect(h?.toi).toBe(5);
      expect([h?.point.x, h?.point.y, h?.point.z]).toEqual([1, 0, 0.5]);
      expect(raycast(T.hf, ID, P(1, 5, 0.1), P(0, -5, 0.5), 100)?.toi).toBeCloseTo(1, 12);
    }
    const V = terrain(3, 3, new Array(9).fill(0), P(1, 1, 1), [false, false, true, true]);
    expect(raycast(V.hf, ID, P(1, 5, 1), P(0, -1, 0), 100)?.toi).toBe(5);
  });
});

describe("in the world, JSON, debug draw and the viewer", () => {
  const T = terrain(
    6,
    6,
    Array.from({ length: 36 }, (_, i) => (i % 7) / 10),
    P(1, 1, 1),
  );
  it("a static and a moving heightfield body collide with a sphere; ray and shape casts reach it", () => {
    const world = new CollisionWorld();
    const ground = world.addBody({ shape: T.hf, pose: at(0, 0, 0) });
    const ball = world.addBody({ shape: makeSphere(0.4), pose: at(2.5, 0.5, 2.5) });
    world.step();
    expect(world.isTouching(ground, ball)).toBe(true);
    world.setPose(ball, at(2.5, 3, 2.5));
    world.step();
    expect(world.isTouching(ground, ball)).toBe(false);
    // Moving the heightfield up to the ball.
    world.setPose(ground, at(0, 2.5, 0));
    world.step();
    expect(world.isTouching(ground, ball)).toBe(true);
    const hit = castRayClosest(world, P(1.2, 10, 1.7), P(0, -1, 0));
    expect(hit?.handle).toBe(ground);
    const b = bruteRay(T, P(1.2, 7.5, 1.7), P(0, -1, 0), Infinity);
    expect(hit?.toi).toBeCloseTo(b, 9);
    world.setPose(ball, at(20, 20, 20));
    const sweep = castShape(world, makeSphere(0.2), at(3.3, 8, 3.3), P(0, -1, 0), 20);
    expect(sweep?.handle).toBe(ground);
  });
  it("parses the JSON contract and names bad fields", () => {
    const json = {
      type: "heightfield",
      rows: 2,
      cols: 3,
      heights: [0, 1, 2, 3, 4, 5],
      scale: [1, 0.5, 2],
      position: [1, 2, 3],
    };
    const { shape, pose } = parseShape(json, "a");
    expect(shape.type).toBe(T.hf.type);
    expect(pose.translation).toEqual(P(1, 2, 3));
    // vertex (r, c) at (c·sx, h·sy, r·sz): (1, 2) is (2, 5·0.5, 2) in the shape's frame.
    const hit = raycast(shape, pose, P(1 + 2, 10, 3 + 2), P(0, -1, 0), Infinity);
    expect(hit?.toi).toBeCloseTo(10 - (2 + 2.5), 12);
    expect(hit?.normal.y).toBeGreaterThan(0);
    const bad = (patch: object) => {
      try {
        parseShape({ ...json, ...patch }, "a");
      } catch (e) {
        return (e as CollideError).field;
      }
      return "no error";
    };
    expect(bad({ rows: 1 })).toBe("a.rows");
    expect(bad({ heights: [0, 1] })).toBe("a.heights");
    expect(bad({ scale: [1, 0, 1] })).toBe("a.scale[1]");
    expect(bad({ holes: [true, true] })).toBe("a.holes");
    const answer = answerQuery({
      op: "intersects",
      a: json,
      b: { type: "sphere", center: [2, 3.4, 3], radius: 1 },
    });
    expect(answer).toEqual({ intersects: true });
    const apart = answerQuery({
      op: "intersects",
      a: json,
      b: { type: "sphere", center: [2, 6, 3], radius: 1 },
    });
    expect(apart).toEqual({ intersects: false });
  });
  it("debug draw, the shape view, the three.js object and the scene transfer", () => {
    const dd = new DebugDraw();
    drawShape(dd, T.hf, ID);
    // 5 × 5 cells: every edge once: 6·5 horizontal + 5·6 vertical + 25 diagonals.
    expect(dd.lineCount).toBe(30 + 30 + 25);
    const view = shapeView(T.hf);
    expect(view.type).toBe("heightfield");
    const obj = shapeToObject3D(T.hf, new THREE.MeshBasicMaterial()) as THREE.Mesh;
    expect(obj.geometry.getIndex()?.count).toBe(6 * 25);
    const back = shapeFromTransfer(
      JSON.parse(JSON.stringify(shapeToTransfer(T.hf))),
    ) as Heightfield;
    expect(Array.from(back.heights)).toEqual(Array.from(T.hf.heights));
    const H = terrain(3, 3, new Array(9).fill(0), P(1, 1, 1), [false, true, false, false]);
    const hb = shapeFromTransfer(shapeToTransfer(H.hf)) as Heightfield;
    expect(Array.from(hb.holes ?? [])).toEqual(Array.from(H.hf.holes ?? []));
  });
});

describe("heightfield bad input found by a fresh user", () => {
  it("refuses a height whose scaled value overflows, naming the height", () => {
    expect(() =>
      makeHeightfield({
        rows: 2,
        cols: 2,
        heights: new Float64Array([0, 0, 0, 1e308]),
        scale: { x: 1, y: 10, z: 1 },
      }),
    ).toThrow(/^heights\[3\] times scale\.y = 10 puts a vertex at y = Infinity.*1e\+308/);
    expect(() =>
      makeHeightfield({
        rows: 2,
        cols: 3,
        heights: new Float64Array(6),
        scale: { x: 1e308, y: 1, z: 1 },
      }),
    ).toThrow(/^scale\.x /);
  });

  it("takes only true, false, 1 and 0 as hole flags", () => {
    const desc = { rows: 2, cols: 3, heights: new Float64Array(6), scale: { x: 1, y: 1, z: 1 } };
    for (const bad of [2, "yes", null, -1])
      expect(() => makeHeightfield({ ...desc, holes: [bad as number, 0] })).toThrow(
        /^holes\[0\] must be a flag/,
      );
    expect(makeHeightfield({ ...desc, holes: [true, 0] }).holes).not.toBeNull();
    expect(() =>
      answerQuery({
        op: "raycast",
        shape: {
          type: "heightfield",
          rows: 2,
          cols: 2,
          heights: [0, 0, 0, 0],
          scale: [1, 1, 1],
          holes: ["yes"],
        },
        origin: [0, 1, 0],
        direction: [0, -1, 0],
        maxToi: 9,
      } as never),
    ).toThrow(/holes\[0\] must be a flag/);
  });
});
