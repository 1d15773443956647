import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rayTriangleHit } from "../../src/geometry/ray-primitives.js";
import { bunnyMeshData } from "../../src/io/mesh-loaders.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  castRayTriangleMesh,
  castRayTriangleMeshAll,
  makeMeshRayHit,
  makeMeshRayHits,
} from "../../src/narrowphase/mesh-ray.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { getMeshTriangle, makeTriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { cubeMesh, randomSoup } from "../mesh/helpers.js";

const a = vec3.create();
const b = vec3.create();
const c = vec3.create();

/** Oracle: plane hit then barycentric inside test with a tolerance, over every triangle. */
function bruteHits(m: TriangleMesh, o: vec3.Vec3, dir: vec3.Vec3, maxToi: number): number[] {
  const out: number[] = [];
  const e1 = vec3.create();
  const e2 = vec3.create();
  const n = vec3.create();
  const p = vec3.create();
  for (let t = 0; t < m.triangleCount; t++) {
    getMeshTriangle(m, t, a, b, c);
    vec3.sub(e1, b, a);
    vec3.sub(e2, c, a);
    vec3.cross(n, e1, e2);
    const den = vec3.dot(n, dir);
    if (den === 0) continue;
    const toi = (vec3.dot(n, a) - vec3.dot(n, o)) / den;
    if (!(toi >= 0 && toi <= maxToi)) continue;
    vec3.addScaled(p, o, dir, toi);
    // Barycentric sign test via sub-triangle normals.
    const s = [a, b, c].map((u, k) => {
      const w = [a, b, c][(k + 1) % 3];
      const q1 = vec3.sub(vec3.create(), w, u);
      const q2 = vec3.sub(vec3.create(), p, u);
      return vec3.dot(vec3.cross(vec3.create(), q1, q2), n) / vec3.lengthSq(n);
    });
    if (s.every((x) => x >= -1e-9) || s.every((x) => x <= 1e-9)) out.push(toi);
  }
  return out.sort((x, y) => x - y);
}

describe("castRayTriangleMesh", () => {
  it("finds the closest hit and all hits of brute force on random soups (seeded)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(1e-3, 1, 1e4), (seed, s) => {
        const rng = makeRandom(seed);
        const soup = randomSoup(rng, 60, 6, 2);
        const mesh = makeTriangleMesh(
          Array.from(soup.vertices, (x) => x * s),
          soup.indices,
        );
        const hit = makeMeshRayHit();
        const all = makeMeshRayHits(1);
        for (let k = 0; k < 20; k++) {
          const o = vec3.create(
            (rng() - 0.5) * 10 * s,
            (rng() - 0.5) * 10 * s,
            (rng() - 0.5) * 10 * s,
          );
          const dir = vec3.create(rng() - 0.5, rng() - 0.5, rng() - 0.5);
          const want = bruteHits(mesh, o, dir, 30 * s);
          const got = castRayTriangleMesh(hit, mesh, o, dir, 30 * s);
          const n = castRayTriangleMeshAll(all, mesh, o, dir, 30 * s);
          if (want.length === 0) {
            expect(got).toBe(false);
            continue;
          }
          // Grazing hits within the oracle's tolerance may go either way; compare the rest.
          expect(Math.abs(n - want.length)).toBeLessThanOrEqual(1);
          if (got) {
            expect(hit.toi).toBeCloseTo(all.toi[0], 9);
            expect(Math.abs(hit.toi - want[0]) <= 1e-6 * s || n !== want.length).toBe(true);
            expect(vec3.dot(hit.normal, dir)).toBeLessThanOrEqual(0);
            expect(vec3.length(hit.normal)).toBeCloseTo(1, 12);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  // The traversal's slab test takes a path without NaN cases when no component of dir is zero
  // (src/narrowphase/mesh-ray.ts, entryFast) and the general one otherwise: both must find, bit
  // for bit, the triangle and toi of brute force over every triangle's exact test (the smallest
  // toi, the lowest triangle index among equal ones), for directions of every sign pattern,
  // components ±0 and ±1e-300 (a reciprocal of 1e300), scales 1e-6..1e6 and offsets up to 1e9.
  it("finds bit for bit the closest hit of brute force over the exact triangle test (property)", () => {
    const pa = vec3.create();
    const pb = vec3.create();
    const pc = vec3.create();
    const special = [0, -0, 1e-300, -1e-300];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom(1e-6, 1, 1e6),
        fc.constantFrom(0, 1e3, 1e9),
        (seed, s, offset) => {
          const rng = makeRandom(seed);
          const soup = randomSoup(rng, 80, 6, 2);
          const mesh = makeTriangleMesh(
            Array.from(soup.vertices, (x) => offset + x * s),
            soup.indices,
          );
          const hit = makeMeshRayHit();
          for (let k = 0; k < 40; k++) {
            const o = vec3.create(
              offset + (rng() - 0.5) * 10 * s,
              offset + (rng() - 0.5) * 10 * s,
              offset + (rng() - 0.5) * 10 * s,
            );
            // Aim at a random triangle's corner or centre half the time: hits, shared edges.
            const dir = vec3.create(rng() - 0.5, rng() - 0.5, rng() - 0.5);
            if (k % 2 === 0) {
              getMeshTriangle(mesh, Math.floor(rng() * mesh.triangleCount), pa, pb, pc);
              const w = k % 4 === 0 ? [1, 0, 0] : [1 / 3, 1 / 3, 1 / 3];
              vec3.set(
                dir,
                w[0] * pa.x + w[1] * pb.x + w[2] * pc.x - o.x,
                w[0] * pa.y + w[1] * pb.y + w[2] * pc.y - o.y,
                w[0] * pa.z + w[1] * pb.z + w[2] * pc.z - o.z,
              );
            }
            if (k % 5 === 1) dir.x = special[k % 4];
            if (k % 7 === 2) dir.z = special[(k >> 1) % 4];
            if (dir.x === 0 && dir.y === 0 && dir.z === 0) dir.y = 1;
            let bestToi = Number.POSITIVE_INFINITY;
            let bestTri = -1;
            for (let t = 0; t < mesh.triangleCount; t++) {
              getMeshTriangle(mesh, t, pa, pb, pc);
              const toi = rayTriangleHit(pa, pb, pc, o, dir);
              if (toi < 0 || toi > 30 * s) continue;
              if (toi < bestToi) {
                bestToi = toi;
                bestTri = t;
              }
            }
            const got = castRayTriangleMesh(hit, mesh, o, dir, 30 * s);
            expect(got).toBe(bestTri >= 0);
            if (got) {
              expect(hit.triangle).toBe(bestTri);
              expect(Object.is(hit.toi, bestToi)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is watertight: rays through shared edges and vertices of a closed mesh always hit", () => {
    const cube = cubeMesh(2);
    const hit = makeMeshRayHit();
    const all = makeMeshRayHits();
    const targets = [
      [1, 1, 0], // face diagonal (shared edge of two triangles)
      [0, 0, 0], // a vertex
      [2, 1, 0], // a cube edge
      [0.5, 0.5, 0], // on a face diagonal
    ];
    for (const [x, y, z] of targets) {
      const o = vec3.create(0.3, 0.7, -5);
      const dir = vec3.create(x - 0.3, y - 0.7, z + 5);
      expect(castRayTriangleMesh(hit, cube, o, dir, 10)).toBe(true);
      expect(hit.toi).toBeCloseTo(1, 12);
      expect(castRayTriangleMeshAll(all, cube, o, dir, 10)).toBeGreaterThanOrEqual(1);
    }
    // Inside a solid mesh: a solid ray gives toi 0; hollow gives the exit. A mesh built without
    // `solid` is a surface, so even a solid ray from inside reports the exit (issue 16, class 9).
    const o = vec3.create(1, 1, 1);
    const solidCube = cubeMesh(2, true);
    expect(castRayTriangleMesh(hit, solidCube, o, vec3.create(0, 0, 1), 10, true)).toBe(true);
    expect([hit.toi, hit.triangle, hit.normal.z]).toEqual([0, -1, 0]);
    expect(castRayTriangleMesh(hit, solidCube, o, vec3.create(0, 0, 1), 10, false)).toBe(true);
    expect(hit.toi).toBeCloseTo(1, 12);
    expect(castRayTriangleMesh(hit, cube, o, vec3.create(0, 0, 1), 10, true)).toBe(true);
    expect(hit.toi).toBeCloseTo(1, 12);
    expect(hit.normal.z).toBeCloseTo(-1, 12);
    expect(castRayTriangleMesh(hit, cube, o, vec3.create(0, 0, 1), 10, false)).toBe(true);
    expect(hit.toi).toBeCloseTo(1, 12);
    expect(hit.normal.z).toBeCloseTo(-1, 12);
    expect(castRayTriangleMesh(hit, cube, o, vec3.create(0, 0, 0), 10)).toBe(false);
  });

  it("hits the bunny at its interior vertices along their normals (no crack at any fan)", () => {
    const data = bunnyMeshData();
    const bunny = makeTriangleMesh(data.vertices, data.indices);
    const hit = makeMeshRayHit();
    // Area-weighted vertex normals; rim vertices of the bunny's holes are skipped.
    const normals = new Float64Array(3 * bunny.vertexCount);
    const rim = new Uint8Array(bunny.vertexCount);
    const used = new Uint8Array(bunny.vertexCount);
    const n = vec3.create();
    const e1 = vec3.create();
    const e2 = vec3.create();
    for (let t = 0; t < bunny.triangleCount; t++) {
      getMeshTriangle(bunny, t, a, b, c);
      vec3.cross(n, vec3.sub(e1, b, a), vec3.sub(e2, c, a));
      for (let k = 0; k < 3; k++) {
        const p = bunny.indices[3 * t + k];
        used[p] = 1;
        normals[3 * p] += n.x;
        normals[3 * p + 1] += n.y;
        normals[3 * p + 2] += n.z;
        if (bunny.edgeNeighbors[3 * t + k] < 0) {
          rim[p] = 1;
          rim[bunny.indices[3 * t + ((k + 1) % 3)]] = 1;
        }
      }
    }
    let tested = 0;
    for (let vi = 0; vi < bunny.vertexCount; vi += 7) {
      if (!used[vi] || rim[vi]) continue;
      vec3.set(n, normals[3 * vi], normals[3 * vi + 1], normals[3 * vi + 2]);
      if (!(vec3.normalize(n, n) > 0)) continue;
      const target = vec3.create(
        bunny.vertices[3 * vi],
        bunny.vertices[3 * vi + 1],
        bunny.vertices[3 * vi + 2],
      );
      const o = vec3.addScaled(vec3.create(), target, n, 0.01);
      const dir = vec3.sub(vec3.create(), target, o);
      expect(castRayTriangleMesh(hit, bunny, o, dir, 2)).toBe(true);
      expect(hit.toi).toBeLessThanOrEqual(1 + 1e-9);
      tested++;
    }
    expect(tested).toBeGreaterThan(200);
  });
});
