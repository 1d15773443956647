/**
 * Adjacency and part order at high valence (session 35's fresh-user attack, D1 and D2): building
 * a mesh matched the half-edges of each vertex pairwise, O(k²) at a vertex of valence k (a closed
 * bipyramid of 16k triangles took 22 s, a fan of 32k triangles on one edge 56 s), and a contact
 * whose candidate parts met a near tie sorted them by insertion, loading two triangles per
 * comparison (a box on 20k cells of a heightfield, 20 s; a sphere on a bipyramid's apex of 16k
 * triangles, 3 s). Now the half-edges are counted per other end (src/shapes/triangle-mesh.ts,
 * `findEdgeNeighbors`) and many tied candidates are sorted by keys (src/narrowphase/composite.ts,
 * `sortInPartOrder`), the same orders. Time is not asserted here (bench/ measures); the answers
 * are, against brute force.
 *
 * Oracles: the adjacency rule over every pair of half-edges (a half-edge's neighbour is the one
 * other half-edge of its undirected edge when it runs the opposite way, else none; closed when
 * every half-edge has one); the contact's depth by bisection on the point–triangle distance
 * (test/fuzz/oracle-shapes.ts) of the sphere moved along each triangle's normal, and the same contact for the triangles in any order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import { contact } from "../../src/query/contact.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { closestOnTriangle } from "../fuzz/oracle-shapes.js";

type V = [number, number, number];

/** Brute-force neighbours: for each half-edge (3t + k, corner k to k + 1) the one opposite half-edge's triangle, else −1. */
function bruteNeighbors(idx: number[]): { neighbors: number[]; closed: boolean } {
  const h = idx.length;
  const next = (e: number) => e - (e % 3) + (((e % 3) + 1) % 3);
  const neighbors = new Array(h).fill(-1);
  let closed = h > 0;
  for (let e = 0; e < h; e++) {
    const a = idx[e];
    const b = idx[next(e)];
    let others = 0;
    let opposite = -1;
    for (let f = 0; f < h; f++) {
      if (f === e) continue;
      const c = idx[f];
      const d = idx[next(f)];
      if ((c === a && d === b) || (c === b && d === a)) {
        others++;
        if (c === b) opposite = f;
      }
    }
    if (others === 1 && opposite >= 0) neighbors[e] = Math.floor(opposite / 3);
    else closed = false;
  }
  return { neighbors, closed };
}

/** A closed bipyramid: apexes (0,0,±1) over a rim of n points of the unit circle, 2n triangles. */
function bipyramid(n: number): { vertices: number[]; indices: number[] } {
  const vertices = [0, 0, 1, 0, 0, -1];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    vertices.push(Math.cos(t), Math.sin(t), 0);
  }
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    indices.push(0, 2 + i, 2 + j, 1, 2 + j, 2 + i);
  }
  return { vertices, indices };
}

describe("mesh adjacency at high valence", () => {
  it("random soups over few vertices (fans, repeated and flipped triangles): neighbours and closedness as brute force", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 7 }),
        fc.array(fc.tuple(fc.nat(6), fc.nat(6), fc.nat(6)), { minLength: 1, maxLength: 40 }),
        (nv, tris) => {
          // Distinct positions in general position (so welding keeps every vertex).
          const vertices: number[] = [];
          for (let i = 0; i < nv; i++)
            vertices.push(i, i * i * 0.37 + 0.1, i * i * i * 0.013 - 0.5);
          const idx: number[] = [];
          for (const [a, b, c] of tris) {
            const t = [a % nv, b % nv, c % nv];
            if (t[0] === t[1] || t[1] === t[2] || t[2] === t[0]) continue;
            idx.push(...t);
          }
          if (idx.length === 0) return;
          const m = makeTriangleMesh(vertices, idx);
          const want = bruteNeighbors(idx);
          expect(Array.from(m.edgeNeighbors)).toEqual(want.neighbors);
          expect(m.closed).toBe(want.closed);
        },
      ),
      { numRuns: 500, seed: 35 },
    );
  });

  it("a closed bipyramid of 8,000 triangles (two vertices of valence 4,000) and a fan of 4,000 triangles on one edge", () => {
    const { vertices, indices } = bipyramid(4000);
    const m = makeTriangleMesh(vertices, indices);
    expect(m.closed).toBe(true);
    const want = bruteNeighborsBipyramid(4000);
    expect(Array.from(m.edgeNeighbors)).toEqual(want);
    // A fan: 4,000 triangles on the edge (0,0,0)–(0,0,1), each edge of the hinge shared by all.
    const fv = [0, 0, 0, 0, 0, 1];
    const fi: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const t = (2 * Math.PI * i) / 4000;
      fv.push(Math.cos(t), Math.sin(t), 0.5);
      fi.push(0, 1, 2 + i);
    }
    const fan = makeTriangleMesh(fv, fi);
    expect(fan.closed).toBe(false);
    for (let t = 0; t < 4000; t++) expect(fan.edgeNeighbors[3 * t]).toBe(-1);
  });
});

/** The bipyramid's neighbours by construction: triangle 2i (top) and 2i+1 (bottom) around rim edge i. */
function bruteNeighborsBipyramid(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const prev = (i + n - 1) % n;
    const next = (i + 1) % n;
    // Top (0, r_i, r_j): edges apex→r_i (shared with the previous top), r_i→r_j (the bottom of i), r_j→apex (the next top).
    out.push(2 * prev, 2 * i + 1, 2 * next);
    // Bottom (1, r_j, r_i): edges 1→r_j (the next bottom), r_j→r_i (the top of i), r_i→1 (the previous bottom).
    out.push(2 * next + 1, 2 * i, 2 * prev + 1);
  }
  return out;
}

describe("a contact whose many candidate triangles tie", () => {
  it("a sphere on a bipyramid's apex (64 tied triangles): the brute-force depth, the same in any triangle order", () => {
    const n = 64;
    const { vertices, indices } = bipyramid(n);
    const r = 0.1;
    const c: V = [0, 0, 1.05];
    // The surface's contact on an internal vertex is the deepest triangle's along its face normal
    // (the internal-edge rule): how far the sphere moves along a triangle's normal until it clears
    // that triangle, by bisection on the point–triangle distance.
    const corner = (k: number): V => [vertices[3 * k], vertices[3 * k + 1], vertices[3 * k + 2]];
    let deepest = 0;
    for (let t = 0; t < indices.length; t += 3) {
      const a = corner(indices[t]);
      const b = corner(indices[t + 1]);
      const e = corner(indices[t + 2]);
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const w = [e[0] - a[0], e[1] - a[1], e[2] - a[2]];
      const m: V = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
      ];
      const l = Math.hypot(...m);
      const dist = (s: number) => {
        const q: V = [c[0] + (s * m[0]) / l, c[1] + (s * m[1]) / l, c[2] + (s * m[2]) / l];
        const f = closestOnTriangle(q, a, b, e);
        return Math.hypot(f[0] - q[0], f[1] - q[1], f[2] - q[2]);
      };
      if (dist(0) >= r || dist(1) < r) continue;
      let lo = 0;
      let hi = 1;
      for (let i = 0; i < 200; i++) {
        const mid = (lo + hi) / 2;
        if (dist(mid) < r) lo = mid;
        else hi = mid;
      }
      deepest = Math.max(deepest, hi);
    }
    expect(deepest).toBeGreaterThan(0.05);
    const pose = iso.create({ x: c[0], y: c[1], z: c[2] });
    const sphere = makeSphere(r);
    const base = contact(makeTriangleMesh(vertices, indices), iso.identity(), sphere, pose);
    expect(base).not.toBeNull();
    expect(Math.abs(-(base?.distance ?? 0) - deepest)).toBeLessThan(1e-12);
    // Rotated triangle lists (another BVH and another candidate order, the same triangles).
    for (const shift of [1, 17, 63]) {
      const rolled = [...indices.slice(6 * shift), ...indices.slice(0, 6 * shift)];
      const other = contact(makeTriangleMesh(vertices, rolled), iso.identity(), sphere, pose);
      expect(other?.distance).toBe(base?.distance);
      expect(other?.normal).toEqual(base?.normal);
    }
  });
});
