/**
 * Adjacency over welded positions (attack report 33, F2). Active edges, closedness and vertex
 * pseudo-normals were found from shared vertex *indices*, so a triangle soup — or an OBJ/glTF
 * exported with split vertices — got sideways edge normals at its internal seams: a box standing
 * 0.3 into a flat quad of two unwelded triangles answered depth 0.1414 along the diagonal seam,
 * the same quad over shared vertices 0.3 straight down. Now vertices at exactly equal positions
 * are one vertex for adjacency (src/shapes/triangle-mesh.ts `weldVertices`).
 *
 * Oracles: the hand-derived contact of the reported case; for the soup property, the indexed
 * mesh of the same triangles. Against the indexed mesh with the soup's own triangle order and
 * corner order the answers must be bitwise equal: the BVH, the triangles' corners and every
 * per-triangle computation are then the same, and only the adjacency comes from welding, so any
 * difference is a welding fault. Against the indexed mesh in its original order (another BVH,
 * corners rotated, so other roundings and another order of ties) the adjacency must be the same
 * exactly (edge neighbours and active edges mapped through the shuffle, closedness) and the
 * distance equal within 1e-12 of the pair's size (a rounding of the rotated corners).
 */
import { Document, NodeIO } from "@gltf-transform/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { meshFromData, parseGlb } from "../../src/io/mesh-loaders.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { makeRandom } from "../../src/math/random.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeHeightfield } from "../../src/shapes/heightfield.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh, type TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { num, unitQuat } from "../oracles/arbitraries.js";

const I: Isometry = iso.identity();

function at(x: number, y: number, z: number, rotation = I.rotation): Isometry {
  return { translation: { x, y, z }, rotation };
}

/** The normal is (0, −1, 0) exactly (either sign of zero). */
function expectDown(n: Vec3): void {
  expect([Math.abs(n.x), n.y, Math.abs(n.z)]).toEqual([0, -1, 0]);
}

/** The cube [0, 1]³ as 12 outward triangles over 8 shared vertices. */
const CUBE_V = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1];
const CUBE_I = [
  0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7,
  1, 7, 5,
];

/** Every corner its own vertex, triangles and corners in the given order. */
function soupOf(v: ArrayLike<number>, idx: ArrayLike<number>): { v: number[]; i: number[] } {
  const sv: number[] = [];
  for (let k = 0; k < idx.length; k++) sv.push(v[3 * idx[k]], v[3 * idx[k] + 1], v[3 * idx[k] + 2]);
  return { v: sv, i: Array.from({ length: idx.length }, (_, k) => k) };
}

/**
 * The triangles of `idx` shuffled (triangle order `perm`, each rotated by `rot[t]` corners), as
 * an indexed mesh's indices, and as a soup whose corner vertices are stored in the order `place`.
 */
function shuffled(
  v: ArrayLike<number>,
  idx: ArrayLike<number>,
  perm: number[],
  rot: number[],
  place: number[],
): { indexed: number[]; soupV: number[]; soupI: number[] } {
  const indexed: number[] = [];
  for (let s = 0; s < perm.length; s++) {
    const t = perm[s];
    for (let k = 0; k < 3; k++) indexed.push(idx[3 * t + ((k + rot[s]) % 3)]);
  }
  const soupV = new Array<number>(3 * indexed.length);
  const soupI: number[] = [];
  for (let c = 0; c < indexed.length; c++) {
    const slot = place[c];
    for (let k = 0; k < 3; k++) soupV[3 * slot + k] = v[3 * indexed[c] + k];
    soupI.push(slot);
  }
  return { indexed, soupV, soupI };
}

describe("a mesh's adjacency is over welded positions", () => {
  it("the reported box on an unwelded quad: depth 0.3 straight down, as welded and as a heightfield", () => {
    // The box's bottom face lies at y = 0.2 − 0.5 = −0.3, 0.3 below the floor y = 0, and spans
    // [−0.1, 0.1]² well inside the quad [−1, 1]²: it leaves the floor along +y after 0.3, so
    // the contact normal (from the box to the floor) is (0, −1, 0) and the distance −0.3.
    const box = makeCuboid({ x: 0.1, y: 0.5, z: 0.1 });
    const soup = makeTriangleMesh(
      [-1, 0, -1, 1, 0, 1, 1, 0, -1, -1, 0, -1, -1, 0, 1, 1, 0, 1],
      [0, 1, 2, 3, 4, 5],
    );
    expect(Array.from(soup.weld ?? [])).toEqual([0, 1, 2, 0, 4, 1]);
    expect(soup.activeEdges[0] & 1).toBe(0); // the diagonal (corner 0 → 1) is a seam
    const welded = makeTriangleMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 2, 1, 0, 3, 2]);
    expect(welded.weld).toBeNull();
    const field = makeHeightfield({
      rows: 2,
      cols: 2,
      heights: [0, 0, 0, 0],
      scale: { x: 2, y: 1, z: 2 },
    });
    for (const [floor, pose] of [
      [soup, I],
      [welded, I],
      [field, at(-1, 0, -1)],
    ] as const) {
      const c = contact(box, at(0, 0.2, 0), floor, pose);
      expect(c).not.toBeNull();
      if (c === null) return;
      expect(c.distance).toBeCloseTo(-0.3, 15);
      expectDown(c.normal);
      const m = manifold(box, at(0, 0.2, 0), floor, pose);
      expect(m?.count).toBe(4);
      for (const p of m?.points.slice(0, m.count) ?? []) expect(p.distance).toBeCloseTo(-0.3, 15);
    }
  });

  it("welds exactly: −0 and +0 are one coordinate, a difference of one ulp stays apart", () => {
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, -0, 0, -0, 1, 1, 0, 1 + 2 ** -52, 0, 0];
    const m = makeTriangleMesh(v, [0, 1, 2, 3, 2, 4, 5, 4, 2]);
    expect(Array.from(m.weld ?? [])).toEqual([0, 1, 2, 0, 4, 5]);
    expect(Array.from(m.vertices)).toEqual(v); // the user's arrays as given
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 3, 2, 4, 5, 4, 2]);
    // Triangle 1 (3, 2, 4) shares edge 3→2 ≡ 0→2 with triangle 0's 2→0 and 2→4 with triangle
    // 2's 4→2; triangle 2's 2→5 would meet triangle 0's 1→2 only if 5 were 1.
    expect(Array.from(m.edgeNeighbors)).toEqual([-1, -1, 1, 0, 2, -1, -1, 1, -1]);
  });

  it("a triangle with two corners at one position neither opens the mesh nor separates its neighbours", () => {
    // The cube with one edge 0–3 of its bottom split by a sliver (0, 3, 3'), 3' a copy of 3.
    const v = [...CUBE_V, 1, 1, 0];
    const idx = [...CUBE_I];
    idx[3 * 0 + 2] = 8; // bottom triangle (0, 2, 3) → (0, 2, 3')
    idx.push(0, 8, 3); // the sliver, wound to close the bottom again
    const m = makeTriangleMesh(v, idx, "", { solid: true });
    expect(m.closed).toBe(true);
    expect(m.edgeNeighbors[3 * 12]).toBe(-1);
    // Bottom triangles 0 and 1 are neighbours across 0–3 ≡ 0–3'.
    expect(m.edgeNeighbors[3 * 0 + 2]).toBe(1);
    expect(m.edgeNeighbors[3 * 1 + 0]).toBe(0);
  });

  it("a soup of the closed cube (12 triangles, 36 vertices) is closed and solid, and answers bitwise as the indexed cube", () => {
    const indexed = makeTriangleMesh(CUBE_V, CUBE_I, "", { solid: true });
    const s = soupOf(CUBE_V, CUBE_I);
    const soup = makeTriangleMesh(s.v, s.i, "", { solid: true });
    expect(soup.vertexCount).toBe(36);
    expect(indexed.closed && soup.closed).toBe(true);
    expect(Array.from(soup.edgeNeighbors)).toEqual(Array.from(indexed.edgeNeighbors));
    expect(Array.from(soup.activeEdges)).toEqual(Array.from(indexed.activeEdges));
    const rng = makeRandom(33);
    const shapes: Shape[] = [
      makeSphere(0.3),
      makeCuboid({ x: 0.2, y: 0.4, z: 0.1 }),
      makeCapsule({ x: 0, y: -0.3, z: 0 }, { x: 0, y: 0.3, z: 0 }, 0.1),
      makeCylinder(0.2, 0.3),
    ];
    const pose = at(0.25, -0.5, 1, { x: 0.1, y: 0.7, z: 0.1, w: 0.7 });
    const qi = { x: 0, y: 0, z: 0, w: 1 };
    for (let k = 0; k < 200; k++) {
      const p: Vec3 = { x: 2.5 * rng() - 1, y: 2.5 * rng() - 1.5, z: 2.5 * rng() };
      const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() - 0.5 };
      const l = Math.hypot(q.x, q.y, q.z, q.w);
      const sp: Isometry = {
        translation: p,
        rotation: l > 0.1 ? { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l } : qi,
      };
      const sh = shapes[k % shapes.length];
      expect(contact(sh, sp, soup, pose)).toEqual(contact(sh, sp, indexed, pose));
      expect(distance(sh, sp, soup, pose)).toEqual(distance(sh, sp, indexed, pose));
      expect(manifold(soup, pose, sh, sp)).toEqual(manifold(indexed, pose, sh, sp));
      expect(projectPoint(soup, pose, p)).toEqual(projectPoint(indexed, pose, p));
      expect(projectPoint(soup, pose, p, false)).toEqual(projectPoint(indexed, pose, p, false));
      const d = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5 };
      expect(raycast(soup, pose, p, d, 10)).toEqual(raycast(indexed, pose, p, d, 10));
      expect(raycast(soup, pose, p, d, 10, false)).toEqual(raycast(indexed, pose, p, d, 10, false));
    }
  });

  it("random grids and closed meshes: the shuffled soup has the indexed mesh's adjacency and answers (fast-check)", () => {
    const mesh = fc.record({
      kind: fc.constantFrom("grid", "hull", "star"),
      rows: fc.integer({ min: 2, max: 5 }),
      cols: fc.integer({ min: 2, max: 5 }),
      // Heights on a coarse grid too: exactly coplanar cells (inactive seams).
      coarse: fc.boolean(),
      seed: fc.integer({ min: 1, max: 1e9 }),
      size: fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
      offset: fc.constantFrom(0, 1e3, 1e6, 1e9),
      rotation: unitQuat,
      solid: fc.boolean(),
    });
    const other = fc.record({
      kind: fc.constantFrom("sphere", "box", "capsule", "cylinder", "hull"),
      p: fc.tuple(num(-0.3, 1.3), num(-0.5, 0.8), num(-0.3, 1.3)),
      size: num(0.05, 0.6),
      rotation: unitQuat,
    });
    fc.assert(
      fc.property(mesh, other, (mk, o) => {
        const rng = makeRandom(mk.seed);
        const L = mk.size;
        const v: number[] = [];
        const idx: number[] = [];
        if (mk.kind === "grid") {
          // Heightfield-like: vertex (r, c) at (c, h, r)/(cols − 1), cells split like FORMATS'.
          for (let r = 0; r < mk.rows; r++) {
            for (let c = 0; c < mk.cols; c++) {
              const h = mk.coarse ? Math.round(rng() * 3) / 4 : 0.5 * rng();
              v.push((c / (mk.cols - 1)) * L, h * L, (r / (mk.rows - 1)) * L);
            }
          }
          for (let r = 0; r + 1 < mk.rows; r++) {
            for (let c = 0; c + 1 < mk.cols; c++) {
              const v00 = r * mk.cols + c;
              idx.push(v00, v00 + mk.cols + 1, v00 + 1, v00, v00 + mk.cols, v00 + mk.cols + 1);
            }
          }
        } else {
          // A hull of random points; "star": points on a sphere (all on the hull) moved
          // radially afterwards, a closed star-shaped mesh with concave edges.
          const n = 6 + (mk.seed % 14);
          const pts: number[] = [];
          for (let k = 0; k < n; k++) {
            let x = rng() - 0.5;
            let y = rng() - 0.5;
            let z = rng() - 0.5;
            if (mk.kind === "star") {
              const l = Math.hypot(x, y, z) || 1;
              x /= 2 * l;
              y /= 2 * l;
              z /= 2 * l;
            }
            pts.push(0.5 + x, 0.2 + y, 0.5 + z);
          }
          const hull = makeConvexPolyhedron(pts);
          const hv = hull.vertices;
          for (let k = 0; k < hv.length; k += 3) {
            const f = mk.kind === "star" ? 0.5 + rng() : 1;
            v.push(
              (0.5 + f * (hv[k] - 0.5)) * L,
              (0.2 + f * (hv[k + 1] - 0.2)) * L,
              (0.5 + f * (hv[k + 2] - 0.5)) * L,
            );
          }
          const fo = hull.faceOffsets;
          const fv = hull.faceVertices;
          for (let f = 0; f + 1 < fo.length; f++) {
            for (let k = fo[f] + 1; k + 1 < fo[f + 1]; k++) idx.push(fv[fo[f]], fv[k], fv[k + 1]);
          }
        }
        const T = idx.length / 3;
        const perm = Array.from({ length: T }, (_, t) => t);
        for (let t = T - 1; t > 0; t--) {
          const j = Math.floor(rng() * (t + 1));
          [perm[t], perm[j]] = [perm[j], perm[t]];
        }
        const rot = perm.map(() => Math.floor(rng() * 3));
        const place = Array.from({ length: 3 * T }, (_, c) => c);
        for (let c = 3 * T - 1; c > 0; c--) {
          const j = Math.floor(rng() * (c + 1));
          [place[c], place[j]] = [place[j], place[c]];
        }
        const sh = shuffled(v, idx, perm, rot, place);
        const solid = mk.kind !== "grid" && mk.solid;
        const original = makeTriangleMesh(v, idx, "", { solid });
        const same = makeTriangleMesh(v, sh.indexed, "", { solid });
        const soup = makeTriangleMesh(sh.soupV, sh.soupI, "", { solid });
        expect(original.closed).toBe(mk.kind !== "grid");
        expect(soup.closed).toBe(original.closed);
        // Adjacency through the shuffle: soup edge (s, k) is original edge (perm[s], k + rot[s]).
        const origEdge = (s: number, k: number) => 3 * perm[s] + ((k + rot[s]) % 3);
        const inv = new Array<number>(T);
        for (let s = 0; s < T; s++) inv[perm[s]] = s;
        for (let s = 0; s < T; s++) {
          for (let k = 0; k < 3; k++) {
            const n = original.edgeNeighbors[origEdge(s, k)];
            expect(soup.edgeNeighbors[3 * s + k]).toBe(n < 0 ? -1 : inv[n]);
            expect((soup.activeEdges[s] >> k) & 1).toBe(
              (original.activeEdges[perm[s]] >> ((k + rot[s]) % 3)) & 1,
            );
          }
        }
        expect(Array.from(soup.edgeNeighbors)).toEqual(Array.from(same.edgeNeighbors));
        expect(Array.from(soup.activeEdges)).toEqual(Array.from(same.activeEdges));
        const poseM: Isometry = {
          translation: { x: mk.offset, y: -mk.offset, z: mk.offset },
          rotation: mk.rotation,
        };
        const s = o.size * L;
        let shape: Shape;
        if (o.kind === "sphere") shape = makeSphere(s);
        else if (o.kind === "box") shape = makeCuboid({ x: s, y: 0.6 * s, z: 0.8 * s });
        else if (o.kind === "capsule")
          shape = makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, 0.4 * s);
        else if (o.kind === "cylinder") shape = makeCylinder(s, 0.7 * s);
        else
          shape = makeConvexPolyhedron([
            s,
            0,
            0,
            -s,
            0.2 * s,
            0,
            0,
            s,
            0.3 * s,
            0.1 * s,
            -0.5 * s,
            s,
            0,
            0,
            -0.8 * s,
          ]);
        const local = { x: o.p[0] * L, y: o.p[1] * L, z: o.p[2] * L };
        const poseS: Isometry = {
          translation: iso.transformPoint({ x: 0, y: 0, z: 0 }, poseM, local),
          rotation: o.rotation,
        };
        expect(intersects(shape, poseS, soup, poseM)).toBe(intersects(shape, poseS, same, poseM));
        // The original order: the same distance up to the rounding of the rotated corners.
        const bar = 1e-12 * 4 * L + 64 * Number.EPSILON * (mk.offset + 4 * L);
        // A non-convex solid (the star) answers a crossing shape by its depth bracket
        // (`boundedSolidContact`): its hull is built from the sorted distinct positions and its
        // tied extreme vertices broken by coordinates, so the soup answers bit for bit too.
        expect(distance(shape, poseS, soup, poseM)).toEqual(distance(shape, poseS, same, poseM));
        expect(contact(shape, poseS, soup, poseM)).toEqual(contact(shape, poseS, same, poseM));
        expect(contact(soup, poseM, shape, poseS)).toEqual(contact(same, poseM, shape, poseS));
        expect(manifold(shape, poseS, soup, poseM)).toEqual(manifold(shape, poseS, same, poseM));
        expect(manifold(soup, poseM, shape, poseS)).toEqual(manifold(same, poseM, shape, poseS));
        const ds = distance(shape, poseS, soup, poseM).distance;
        const dor = distance(shape, poseS, original, poseM).distance;
        expect(Math.abs(ds - dor)).toBeLessThanOrEqual(bar);
      }),
      { numRuns: 300 },
    );
  });

  it("a glTF exported with split vertices answers as the welded mesh and the heightfield", async () => {
    // A flat 4 × 3 field (3 × 2 cells of 2 × 2), every triangle its own three vertices; a
    // cylinder (half height 1, radius 0.5) stands on the interior vertex (2, 0, 2), its bottom
    // 0.2 below the floor: the contact is 0.2 straight down, not sideways across a seam.
    const heights = new Array(12).fill(0);
    const field = makeHeightfield({ rows: 3, cols: 4, heights, scale: { x: 2, y: 1, z: 2 } });
    const pos: number[] = [];
    for (let r = 0; r < 2; r++) {
      for (let c = 0; c < 3; c++) {
        const p = (rr: number, cc: number) => [2 * cc, 0, 2 * rr];
        pos.push(...p(r, c), ...p(r + 1, c + 1), ...p(r, c + 1));
        pos.push(...p(r, c), ...p(r + 1, c), ...p(r + 1, c + 1));
      }
    }
    const doc = new Document();
    const buffer = doc.createBuffer();
    const position = doc
      .createAccessor()
      .setType("VEC3")
      .setArray(new Float32Array(pos))
      .setBuffer(buffer);
    const ind = doc
      .createAccessor()
      .setType("SCALAR")
      .setArray(new Uint16Array(Array.from({ length: 36 }, (_, k) => k)))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute("POSITION", position).setIndices(ind);
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
    const data = await parseGlb(await new NodeIO().writeBinary(doc));
    const fromFile: TriangleMesh = meshFromData(data);
    expect(fromFile.vertexCount).toBe(36);
    expect(fromFile.weld).not.toBeNull();
    const cyl = makeCylinder(1, 0.5);
    const pose = at(2, 0.8, 2);
    for (const floor of [fromFile, field]) {
      const c = contact(cyl, pose, floor, I);
      expect(c).not.toBeNull();
      if (c === null) return;
      expect(c.distance).toBeCloseTo(-0.2, 14);
      expectDown(c.normal);
    }
  });
});
