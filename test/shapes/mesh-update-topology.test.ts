/**
 * `updateTriangleMeshVertices` recomputes what the positions decide (attack session 36). It kept
 * the original mesh's weld of equal positions, edge neighbours and closedness: a triangle soup
 * whose coincident corners were updated apart still answered as if they were shared (208 of
 * 3,000 sphere and box contacts off, e.g. depth −0.2312 along (0.19, −0.78, −0.59) against a
 * fresh build's −0.2236 along (0, −0.89, −0.46)), and a `solid: true` cube soup updated open
 * stayed solid (a point outside it "inside", a ray from there hitting at 0) where
 * `makeTriangleMesh` refuses `solid: true` on the same vertices.
 *
 * Oracles: `makeTriangleMesh` on the new vertices with the same indices and options (the
 * documented semantics: a refit keeps the index buffer and recomputes everything derived from
 * positions), and for the adjacency also a brute force over position keys written here
 * (independent of the library's hash and buckets). Structure (weld, edge neighbours, closedness,
 * active edges, pseudo-normals, root box) must be equal exactly, and the queries' answers bit for
 * bit: every per-triangle computation reads the same corners and the same adjacency, and the
 * refitted BVH finds the same triangles as the fresh one — only the order the two trees visit
 * them differs, which could show only in a tie between two triangles' answers and does not in
 * these cases (the bound stated is therefore zero).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import { contact } from "../../src/query/contact.js";
import { projectPoint } from "../../src/query/project-point.js";
import { raycast } from "../../src/query/raycast.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import {
  makeTriangleMesh,
  type TriangleMesh,
  updateTriangleMeshVertices,
} from "../../src/shapes/triangle-mesh.js";

const I: Isometry = iso.identity();

function at(x: number, y: number, z: number): Isometry {
  return { translation: { x, y, z }, rotation: I.rotation };
}

/** A key of a vertex's exact position (−0 and +0 one key, as `===` makes them equal). */
function key(v: ArrayLike<number>, i: number): string {
  return `${v[3 * i] + 0},${v[3 * i + 1] + 0},${v[3 * i + 2] + 0}`;
}

/**
 * Brute-force adjacency over exact positions: per half-edge 3t + e, the triangle across it when
 * exactly two half-edges of triangles with three distinct positions lie on that position pair,
 * running opposite ways; closed when every such half-edge has one (collapsed triangles ignored:
 * the cases here have none).
 */
function bruteAdjacency(
  v: ArrayLike<number>,
  idx: ArrayLike<number>,
): { neighbors: number[]; closed: boolean } {
  const T = idx.length / 3;
  const k = (t: number, c: number) => key(v, idx[3 * t + c]);
  const live = (t: number) => k(t, 0) !== k(t, 1) && k(t, 1) !== k(t, 2) && k(t, 2) !== k(t, 0);
  const neighbors: number[] = new Array(3 * T).fill(-1);
  let closed = true;
  for (let t = 0; t < T; t++) {
    if (!live(t)) continue;
    for (let e = 0; e < 3; e++) {
      const p = k(t, e);
      const q = k(t, (e + 1) % 3);
      const same: [number, boolean][] = [];
      for (let s = 0; s < T; s++) {
        if (!live(s)) continue;
        for (let f = 0; f < 3; f++) {
          const a = k(s, f);
          const b = k(s, (f + 1) % 3);
          if (a === p && b === q) same.push([s, true]);
          else if (a === q && b === p) same.push([s, false]);
        }
      }
      // `same` holds this half-edge itself.
      const other = same.filter(([s, fwd]) => !(s === t && fwd));
      if (same.length === 2 && other.length === 1 && !other[0][1])
        neighbors[3 * t + e] = other[0][0];
      else closed = false;
    }
  }
  return { neighbors, closed };
}

/** Everything of `a` derived from its positions equals `b`'s (a fresh build). */
function expectSameDerived(a: TriangleMesh, b: TriangleMesh): void {
  expect(a.weld === null ? null : Array.from(a.weld)).toEqual(
    b.weld === null ? null : Array.from(b.weld),
  );
  expect(Array.from(a.edgeNeighbors)).toEqual(Array.from(b.edgeNeighbors));
  expect(a.closed).toBe(b.closed);
  expect(a.solid).toBe(b.solid);
  expect(Array.from(a.activeEdges)).toEqual(Array.from(b.activeEdges));
  expect(a.pseudoNormals === null).toBe(b.pseudoNormals === null);
  if (a.pseudoNormals !== null && b.pseudoNormals !== null) {
    expect(a.pseudoNormals.orientation).toBe(b.pseudoNormals.orientation);
    expect(Array.from(a.pseudoNormals.vertex)).toEqual(Array.from(b.pseudoNormals.vertex));
    expect(Array.from(a.pseudoNormals.face)).toEqual(Array.from(b.pseudoNormals.face));
  }
  expect(Array.from(a.bvh.bounds.subarray(0, 6))).toEqual(Array.from(b.bvh.bounds.subarray(0, 6)));
}

/** The contact of two meshes with the same probe, as plain numbers (null: apart). */
function contactOf(m: TriangleMesh, probe: Shape, pose: Isometry) {
  const c = contact(m, I, probe, pose);
  return c === null
    ? null
    : [c.distance, c.normal.x, c.normal.y, c.normal.z, c.pointA.x, c.pointA.y, c.pointA.z];
}

/** An n × n grid of quads over height h, as a soup: every triangle its own three vertices. */
function gridSoup(n: number, h: (x: number, z: number) => number): { V: number[]; T: number[] } {
  const V: number[] = [];
  const T: number[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const q = [
        [i, j],
        [i + 1, j],
        [i + 1, j + 1],
        [i, j + 1],
      ].map(([x, z]) => [x, h(x, z), z]);
      for (const tri of [
        [0, 2, 1],
        [0, 3, 2],
      ])
        for (const k of tri) {
          T.push(V.length / 3);
          V.push(...q[k]);
        }
    }
  return { V, T };
}

/** A deterministic generator in [0, 1) (the attack script's). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe("updateTriangleMeshVertices recomputes the adjacency of the new positions", () => {
  it("the attack's grid soup: corners updated apart stop being shared (contacts as a fresh build)", () => {
    const n = 6;
    const { V, T } = gridSoup(n, (x, z) => 0.3 * Math.sin(x * 1.3) * Math.cos(z * 0.7));
    const m0 = makeTriangleMesh(V, T);
    expect(m0.weld).not.toBeNull();
    const rnd = lcg(4);
    for (let trial = 0; trial < 5; trial++) {
      const V2 = V.slice();
      const split = trial % 2 === 1;
      const memo = new Map<string, number>();
      for (let k = 0; k < V2.length; k += 3) {
        const g = `${V[k]},${V[k + 2]}`;
        if (!memo.has(g) || split) memo.set(g, (rnd() - 0.5) * 1.5);
        V2[k + 1] = memo.get(g) as number;
      }
      // Trial 4: a column collapsed onto its neighbour (distinct corners made to coincide).
      if (trial === 4)
        for (let k = 0; k < V2.length; k += 3)
          if (V2[k] === 3) {
            V2[k] = 2;
            V2[k + 1] = 0;
          }
      const updated = updateTriangleMeshVertices(m0, V2);
      const fresh = makeTriangleMesh(V2, T);
      expectSameDerived(updated, fresh);
      if (trial !== 4) {
        const brute = bruteAdjacency(V2, T);
        expect(Array.from(updated.edgeNeighbors)).toEqual(brute.neighbors);
        expect(updated.closed).toBe(brute.closed);
      }
      // Parted corners: no triangle has a neighbour any more (the old update kept m0's).
      if (split) expect(Array.from(updated.edgeNeighbors).every((x) => x === -1)).toBe(true);
      else
        expect(Array.from(updated.edgeNeighbors).filter((x) => x >= 0).length).toBeGreaterThan(0);
      const sphere = makeSphere(0.3);
      const box = makeCuboid({ x: 0.3, y: 0.2, z: 0.3 });
      for (let s = 0; s < 300; s++) {
        const pose = at(rnd() * n, (rnd() - 0.5) * 2, rnd() * n);
        for (const probe of [sphere, box]) {
          const u = contactOf(updated, probe, pose);
          expect(u).toEqual(contactOf(fresh, probe, pose));
        }
        const from = { x: pose.translation.x, y: 5, z: pose.translation.z };
        const dir = { x: 0.1, y: -1, z: 0.05 };
        expect(raycast(updated, I, from, dir, Infinity)).toEqual(
          raycast(fresh, I, from, dir, Infinity),
        );
      }
    }
  });

  it("corners updated together merge: an open soup closes, and a solid made from it is accepted", () => {
    const { V: cubeV, T: cubeT } = cubeSoup();
    // Pull the +z face out by 0.5: open. Then update back: closed again, as a fresh build.
    const open = moveTopFace(cubeV, 0.5);
    const m = makeTriangleMesh(open, cubeT);
    expect(m.closed).toBe(false);
    const back = updateTriangleMeshVertices(m, cubeV);
    const fresh = makeTriangleMesh(cubeV, cubeT);
    expectSameDerived(back, fresh);
    expect(back.closed).toBe(true);
    expect(back.pseudoNormals).not.toBeNull();
    for (const p of [
      { x: 0, y: 0, z: 0 },
      { x: 0.3, y: -0.9, z: 0.99 },
      { x: 0, y: 0, z: 1.2 },
    ])
      expect(projectPoint(back, I, p)).toEqual(projectPoint(fresh, I, p));
  });
});

/** The cube [−1, 1]³ as 12 outward triangles, every corner its own vertex. */
function cubeSoup(): { V: number[]; T: number[] } {
  const cv = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];
  const ci = [
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4,
    7, 0, 7, 3,
  ];
  const V: number[] = [];
  const T: number[] = [];
  for (const i of ci) {
    T.push(V.length / 3);
    V.push(cv[3 * i], cv[3 * i + 1], cv[3 * i + 2]);
  }
  return { V, T };
}

/** The cube soup's +z face (triangles 2 and 3) moved out by dz, its side faces left: open. */
function moveTopFace(V: number[], dz: number): number[] {
  const out = V.slice();
  for (const t of [2, 3]) for (let k = 0; k < 3; k++) out[9 * t + 3 * k + 2] += dz;
  return out;
}

describe("updateTriangleMeshVertices keeps a solid mesh closed", () => {
  it("refuses the attack's opened solid cube (CollideError naming solid) and leaves the mesh as it was", () => {
    const { V, T } = cubeSoup();
    const solid = makeTriangleMesh(V, T, "", { solid: true });
    const before = {
      vertices: Array.from(solid.vertices),
      neighbors: Array.from(solid.edgeNeighbors),
      active: Array.from(solid.activeEdges),
      inside: projectPoint(solid, I, { x: 0, y: 0, z: 0.5 }),
      outside: projectPoint(solid, I, { x: 0, y: 0, z: 1.2 }),
    };
    const V2 = moveTopFace(V, 0.5);
    // The oracle: a fresh build refuses solid: true on these vertices.
    expect(() => makeTriangleMesh(V2, T, "", { solid: true })).toThrow(/solid needs a closed mesh/);
    let err: unknown = null;
    try {
      updateTriangleMeshVertices(solid, V2);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CollideError);
    expect((err as CollideError).field).toBe("solid");
    expect((err as CollideError).code).toBe("invalid_value");
    expect((err as Error).message).toMatch(/needs a closed mesh.*triangle 2/);
    // Unchanged: same arrays, same answers (the point (0, 0, 1.2) is outside the cube).
    expect(Array.from(solid.vertices)).toEqual(before.vertices);
    expect(Array.from(solid.edgeNeighbors)).toEqual(before.neighbors);
    expect(Array.from(solid.activeEdges)).toEqual(before.active);
    expect(solid.solid && solid.closed).toBe(true);
    expect(projectPoint(solid, I, { x: 0, y: 0, z: 0.5 })).toEqual(before.inside);
    const out = projectPoint(solid, I, { x: 0, y: 0, z: 1.2 });
    expect(out).toEqual(before.outside);
    expect(out.inside).toBe(false);
    // A surface (solid: false) made of the same soup takes the update and opens.
    const surface = updateTriangleMeshVertices(makeTriangleMesh(V, T), V2);
    expectSameDerived(surface, makeTriangleMesh(V2, T));
    expect(surface.closed).toBe(false);
    expect(projectPoint(surface, I, { x: 0, y: 0, z: 1.2 }).inside).toBe(false);
  });

  it("a solid updated to another closed shape stays solid and answers as a fresh solid build", () => {
    const { V, T } = cubeSoup();
    const solid = makeTriangleMesh(V, T, "", { solid: true });
    // Every copy of a corner moved alike (a sheared, stretched cube): still closed.
    const V2 = V.map((x, i) => (i % 3 === 2 ? 1.5 * x : i % 3 === 0 ? x + 0.25 * V[i + 2] : x));
    const updated = updateTriangleMeshVertices(solid, V2);
    const fresh = makeTriangleMesh(V2, T, "", { solid: true });
    expectSameDerived(updated, fresh);
    const probe = makeSphere(0.05);
    for (const p of [
      { x: 0, y: 0, z: 1.2 },
      { x: 0.1, y: 0.2, z: 1.6 },
      { x: 0.2, y: 0.9, z: -1.4 },
    ]) {
      expect(projectPoint(updated, I, p)).toEqual(projectPoint(fresh, I, p));
      expect(contactOf(updated, probe, at(p.x, p.y, p.z))).toEqual(
        contactOf(fresh, probe, at(p.x, p.y, p.z)),
      );
      expect(raycast(updated, I, p, { x: 1, y: 0, z: 0 }, Infinity)).toEqual(
        raycast(fresh, I, p, { x: 1, y: 0, z: 0 }, Infinity),
      );
    }
  });
});

describe("updateTriangleMeshVertices equals a fresh build on soups (fast-check)", () => {
  // A 3 × 3 grid soup over random heights; the update gives each grid point a new height and, per
  // vertex copy, keeps it (shared), parts it (its own height: a split corner) or moves it onto a
  // neighbouring grid point's new position (a merge, possibly collapsing a triangle); heights on
  // a coarse lattice so that parted copies also meet again at times. Scales 1e-6 to 1e6.
  const n = 3;
  const g = n + 1;
  const scales = [1e-6, 1e-3, 1, 1e3, 1e6];
  it("structure and sphere/box contacts equal makeTriangleMesh on the new vertices", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -4, max: 4 }), { minLength: g * g, maxLength: g * g }),
        fc.array(fc.integer({ min: -4, max: 4 }), { minLength: g * g, maxLength: g * g }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: -4, max: 4 })), {
          minLength: 6 * n * n,
          maxLength: 6 * n * n,
        }),
        fc.constantFrom(...scales),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: n, noNaN: true }),
            fc.double({ min: -2, max: 2, noNaN: true }),
            fc.double({ min: 0, max: n, noNaN: true }),
          ),
          { minLength: 6, maxLength: 6 },
        ),
        (h0, h1, copies, s, probes) => {
          const height = (hs: number[], x: number, z: number) => 0.25 * hs[x * g + z];
          const { V, T } = gridSoup(n, (x, z) => height(h0, x, z));
          const scaled = V.map((x) => x * s);
          const m0 = makeTriangleMesh(scaled, T);
          const V2 = V.slice();
          for (let c = 0; c < V.length / 3; c++) {
            const x = V[3 * c];
            const z = V[3 * c + 2];
            const [mode, dh] = copies[c];
            if (mode <= 5)
              V2[3 * c + 1] = height(h1, x, z); // shared
            else if (mode <= 7)
              V2[3 * c + 1] = 0.25 * dh; // parted
            else {
              // Merged onto the next grid point along x (or back along x at the edge).
              const x2 = x < n ? x + 1 : x - 1;
              V2[3 * c] = x2;
              V2[3 * c + 1] = height(h1, x2, z);
            }
          }
          const S2 = V2.map((x) => x * s);
          const updated = updateTriangleMeshVertices(m0, S2);
          const fresh = makeTriangleMesh(S2, T);
          expectSameDerived(updated, fresh);
          const sphere = makeSphere(0.3 * s);
          const box = makeCuboid({ x: 0.3 * s, y: 0.2 * s, z: 0.3 * s });
          for (const [px, py, pz] of probes) {
            const pose = at(px * s, py * s, pz * s);
            for (const probe of [sphere, box])
              expect(contactOf(updated, probe, pose)).toEqual(contactOf(fresh, probe, pose));
          }
        },
      ),
      { numRuns: 150, seed: 36 },
    );
  });
});

describe("updateTriangleMeshVertices on closed meshes (fast-check)", () => {
  // The cube [−1, 1]³, as a soup or over 8 shared vertices, made with solid: true or false; the
  // update moves each cube corner by a lattice step of 0 or ±1 per axis (corners may meet:
  // collapsed triangles, a closed mesh of fewer faces or a non-manifold one) and, on the soup,
  // parts a few copies of a corner from it (the mesh opens). Scales 1e-6 to 1e6.
  const CV = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1];
  const CI = [
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4,
    7, 0, 7, 3,
  ];
  it("closedness, solid refusal and answers equal makeTriangleMesh on the new vertices", () => {
    const seen = { refused: 0, closed: 0, opened: 0 };
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 24, maxLength: 24 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 36, maxLength: 36 }),
        fc.constantFrom(1e-6, 1e-3, 1, 1e3, 1e6),
        (soup, solid, step, part, s) => {
          const moved = CV.map((x, i) => (x + step[i]) * s);
          const V: number[] = [];
          const V2: number[] = [];
          let T: number[];
          if (soup) {
            T = [];
            CI.forEach((c, k) => {
              T.push(k);
              const partBy = part[k] === 0 ? 0.5 : 0; // one copy in 16 parted from its corner
              for (let a = 0; a < 3; a++) {
                V.push(CV[3 * c + a] * s);
                V2.push(moved[3 * c + a] + (a === 2 ? partBy * s : 0));
              }
            });
          } else {
            T = CI;
            V.push(...CV.map((x) => x * s));
            V2.push(...moved);
          }
          const m0 = makeTriangleMesh(V, T, "", { solid });
          let freshErr: unknown = null;
          let fresh: TriangleMesh | null = null;
          try {
            fresh = makeTriangleMesh(V2, T, "", { solid });
          } catch (e) {
            freshErr = e;
          }
          let updErr: unknown = null;
          let updated: TriangleMesh | null = null;
          try {
            updated = updateTriangleMeshVertices(m0, V2);
          } catch (e) {
            updErr = e;
          }
          // Refused exactly when a fresh solid build is, naming the same field.
          expect(updErr === null).toBe(freshErr === null);
          if (updErr !== null) {
            seen.refused++;
            expect((updErr as CollideError).field).toBe("solid");
            expect((freshErr as CollideError).field).toBe("solid");
            expect(Array.from(m0.vertices)).toEqual(V);
            return;
          }
          const u = updated as TriangleMesh;
          const f = fresh as TriangleMesh;
          expectSameDerived(u, f);
          if (u.closed) seen.closed++;
          else seen.opened++;
          const probe = makeSphere(0.3 * s);
          for (const p of [
            { x: 0, y: 0, z: 0 },
            { x: 0.4, y: -0.3, z: 1.1 },
            { x: 1.2, y: 0.9, z: -0.6 },
            { x: -0.9, y: 1.6, z: 0.2 },
          ]) {
            const q = { x: p.x * s, y: p.y * s, z: p.z * s };
            expect(projectPoint(u, I, q)).toEqual(projectPoint(f, I, q));
            expect(contactOf(u, probe, at(q.x, q.y, q.z))).toEqual(
              contactOf(f, probe, at(q.x, q.y, q.z)),
            );
          }
        },
      ),
      { numRuns: 300, seed: 3636 },
    );
    // Every outcome met: refused solids, closed and opened updates.
    expect(Math.min(seen.refused, seen.closed, seen.opened)).toBeGreaterThan(20);
  });
});
