import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESH_BVH_MAX_DEPTH } from "../../src/constants.js";
import { CollideError } from "../../src/errors.js";
import type { MeshBvh } from "../../src/geometry/mesh-bvh.js";
import {
  buildMeshBvh,
  isMeshBvhLeaf,
  makeMeshBvhHits,
  meshBvhLeafCount,
  meshBvhLeafOffset,
  meshBvhNodeRayEntry,
  meshBvhRightChild,
  queryMeshBvhAabb,
  refitMeshBvh,
} from "../../src/geometry/mesh-bvh.js";
import { makeRandom } from "../../src/math/random.js";

/** Random primitive boxes: n boxes of size ≤ size in a cube of side extent around offset. */
function randomBoxes(seed: number, n: number, extent: number, size: number, offset = 0) {
  const rng = makeRandom(seed);
  const b = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const c = offset + (rng() - 0.5) * extent;
      const h = rng() * size;
      b[6 * i + k] = c - h;
      b[6 * i + 3 + k] = c + h;
    }
  }
  return b;
}

function overlaps(b: ArrayLike<number>, i: number, q: number[]): boolean {
  for (let k = 0; k < 3; k++) if (b[6 * i + k] > q[3 + k] || b[6 * i + 3 + k] < q[k]) return false;
  return true;
}

/** Structural invariants: pre-order layout, boxes nest, every primitive once, depth bounded. */
function checkInvariants(bvh: MeshBvh, prim: ArrayLike<number>, n: number): void {
  const seen = new Uint8Array(n);
  const contains = (o: number, lo: ArrayLike<number>, p: number) => {
    for (let k = 0; k < 3; k++) {
      expect(bvh.bounds[o + k]).toBeLessThanOrEqual(lo[p + k]);
      expect(bvh.bounds[o + 3 + k]).toBeGreaterThanOrEqual(lo[p + 3 + k]);
    }
  };
  for (let i = 0; i < bvh.nodeCount; i++) {
    if (isMeshBvhLeaf(bvh, i)) {
      const s = meshBvhLeafOffset(bvh, i);
      const c = meshBvhLeafCount(bvh, i);
      expect(c).toBeGreaterThan(0);
      for (let q = s; q < s + c; q++) {
        const p = bvh.primitives[q];
        seen[p]++;
        contains(6 * i, prim, 6 * p);
      }
    } else {
      const r = meshBvhRightChild(bvh, i);
      expect(r).toBeGreaterThan(i + 1);
      expect(r).toBeLessThan(bvh.nodeCount);
      contains(6 * i, bvh.bounds, 6 * (i + 1));
      contains(6 * i, bvh.bounds, 6 * r);
    }
  }
  for (let p = 0; p < n; p++) expect(seen[p]).toBe(1);
  expect(bvh.depth).toBeLessThanOrEqual(MESH_BVH_MAX_DEPTH);
}

describe("buildMeshBvh", () => {
  it("keeps its invariants on random boxes at several scales and far from the origin", () => {
    for (const [seed, scale, offset] of [
      [1, 1, 0],
      [2, 1e-3, 0],
      [3, 1e4, 0],
      [4, 1, 1e6],
    ]) {
      const n = 500;
      const prim = randomBoxes(seed, n, 10 * scale, 0.3 * scale, offset);
      const bvh = buildMeshBvh(prim, n);
      checkInvariants(bvh, prim, n);
    }
  });

  it("builds the same tree with the (ignored) reorderBounds option, and never writes the boxes", () => {
    // Sizes on both sides of the kept scratch (2^16 primitives), so both node-array paths run.
    for (const n of [700, 70_000]) {
      const prim = randomBoxes(n, n, 10, 0.3);
      const copy = prim.slice();
      const a = buildMeshBvh(prim, n);
      const b = buildMeshBvh(copy, n, { reorderBounds: true });
      expect(b.nodeCount).toBe(a.nodeCount);
      const differ = (x: ArrayLike<number>, y: ArrayLike<number>) => {
        let d = x.length === y.length ? 0 : 1;
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) d++;
        return d;
      };
      expect(differ(b.bounds, a.bounds)).toBe(0);
      expect(differ(b.data, a.data)).toBe(0);
      expect(differ(b.primitives, a.primitives)).toBe(0);
      expect(differ(copy, prim)).toBe(0);
      checkInvariants(b, prim, n); // 70,000: the root and its children bin a sample of the slots
    }
  });

  it("splits coincident primitives into bounded leaves and handles 0 and 1 primitive", () => {
    const n = 100;
    const prim = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) prim.set([1, 1, 1, 2, 2, 2], 6 * i);
    const bvh = buildMeshBvh(prim, n);
    checkInvariants(bvh, prim, n);
    for (let i = 0; i < bvh.nodeCount; i++)
      if (isMeshBvhLeaf(bvh, i)) expect(meshBvhLeafCount(bvh, i)).toBeLessThanOrEqual(4);
    expect(buildMeshBvh(new Float64Array(0), 0).nodeCount).toBe(0);
    const one = buildMeshBvh(new Float64Array([0, 0, 0, 1, 1, 1]), 1);
    expect(one.nodeCount).toBe(1);
    expect(isMeshBvhLeaf(one, 0)).toBe(true);
  });

  it("keeps its invariants and exact boxes on adversarial centroids (adjacent doubles, one-leaf builds, reused scratch)", () => {
    const x = 1 + 2 ** -52;
    const cases: [Float64Array, number, number][] = [];
    for (const n of [5, 31, 33, 200]) {
      // Centroids one ulp apart along x: the midpoint rounds onto an end.
      const prim = new Float64Array(6 * n);
      for (let i = 0; i < n; i++) prim.set([i % 2 ? x : 1, 0, 0, i % 2 ? x : 1, 1, 1], 6 * i);
      cases.push([prim, n, 4], [prim, n, 1]);
    }
    cases.push(
      [randomBoxes(9, 2000, 10, 0.3), 2000, 1],
      [randomBoxes(10, 70, 1e-9, 1e-10, 5), 70, 4],
    );
    for (const [prim, n, maxLeafSize] of cases) {
      const bvh = buildMeshBvh(prim, n, { maxLeafSize });
      checkInvariants(bvh, prim, n);
      // Each node's box is exactly the union of its primitives' boxes (no rounding: min/max only).
      const lo = new Float64Array(6 * bvh.nodeCount);
      for (let i = bvh.nodeCount - 1; i >= 0; i--) {
        const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        const grow = (src: ArrayLike<number>, o: number) => {
          for (let k = 0; k < 3; k++) {
            box[k] = Math.min(box[k], src[o + k]);
            box[3 + k] = Math.max(box[3 + k], src[o + 3 + k]);
          }
        };
        if (isMeshBvhLeaf(bvh, i)) {
          const s = meshBvhLeafOffset(bvh, i);
          for (let q = s; q < s + meshBvhLeafCount(bvh, i); q++) grow(prim, 6 * bvh.primitives[q]);
        } else {
          grow(lo, 6 * (i + 1));
          grow(lo, 6 * meshBvhRightChild(bvh, i));
        }
        lo.set(box, 6 * i);
        expect(Array.from(bvh.bounds.subarray(6 * i, 6 * i + 6))).toEqual(box);
      }
    }
  });

  it("a large build (its working arrays held weakly and reused) has exact boxes and arrays of node length", () => {
    // Above the kept scratch (2^16 primitives) a build's working arrays are held weakly and reused
    // by the next large build: leaves of 4, then leaves of 1 (its node words grow), then 4 again.
    const n = 70_000;
    const prim = randomBoxes(11, n, 10, 0.3);
    const first = buildMeshBvh(prim, n);
    for (const maxLeafSize of [4, 1, 4]) {
      const bvh = buildMeshBvh(prim, n, { maxLeafSize });
      expect(bvh.bounds.length).toBe(6 * bvh.nodeCount);
      expect(bvh.data.length).toBe(2 * bvh.nodeCount);
      const box = new Float64Array(6 * bvh.nodeCount);
      let wrong = 0;
      for (let i = bvh.nodeCount - 1; i >= 0; i--) {
        const o = 6 * i;
        box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], o);
        const grow = (src: ArrayLike<number>, p: number) => {
          for (let k = 0; k < 3; k++) {
            box[o + k] = Math.min(box[o + k], src[p + k]);
            box[o + 3 + k] = Math.max(box[o + 3 + k], src[p + 3 + k]);
          }
        };
        if (isMeshBvhLeaf(bvh, i)) {
          const s = meshBvhLeafOffset(bvh, i);
          for (let q = s; q < s + meshBvhLeafCount(bvh, i); q++) grow(prim, 6 * bvh.primitives[q]);
        } else {
          grow(box, 6 * (i + 1));
          grow(box, 6 * meshBvhRightChild(bvh, i));
        }
        for (let k = 0; k < 6; k++) if (bvh.bounds[o + k] !== box[o + k]) wrong++;
      }
      expect(wrong).toBe(0);
      const seen = new Uint8Array(n);
      for (const p of bvh.primitives) seen[p]++;
      expect(seen.every((c) => c === 1)).toBe(true);
      if (maxLeafSize === 4) {
        // A build on reused arrays is the same tree as on fresh ones.
        expect(bvh.data).toEqual(first.data);
        expect(bvh.bounds).toEqual(first.bounds);
        expect(bvh.primitives).toEqual(first.primitives);
      }
    }
  });

  it("refuses non-finite bounds and bad options", () => {
    expect(() => buildMeshBvh(new Float64Array([0, 0, Number.NaN, 1, 1, 1]), 1)).toThrow(
      CollideError,
    );
    expect(() => buildMeshBvh(new Float64Array(6), 1, { bins: 1 })).toThrow(/bins/);
  });
});

describe("queryMeshBvhAabb", () => {
  it("finds every primitive whose box overlaps the query (brute force), seeded", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        const n = 300;
        const prim = randomBoxes(seed, n, 10, 0.5);
        const bvh = buildMeshBvh(prim, n);
        const rng = makeRandom(seed + 7);
        const hits = makeMeshBvhHits(4);
        for (let k = 0; k < 10; k++) {
          const c = [0, 1, 2].map(() => (rng() - 0.5) * 12);
          const h = [0, 1, 2].map(() => rng() * 2);
          const q = [c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]];
          queryMeshBvhAabb(hits, bvh, q[0], q[1], q[2], q[3], q[4], q[5]);
          const found = new Set(Array.from(hits.ids.subarray(0, hits.count)));
          expect(found.size).toBe(hits.count);
          for (let i = 0; i < n; i++) if (overlaps(prim, i, q)) expect(found.has(i)).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("stays correct after a refit to moved primitives", () => {
    const n = 400;
    const prim = randomBoxes(11, n, 10, 0.4);
    const bvh = buildMeshBvh(prim, n);
    const moved = randomBoxes(12, n, 10, 0.4);
    refitMeshBvh(bvh, moved);
    checkInvariants(bvh, moved, n);
    const hits = makeMeshBvhHits();
    const q = [-2, -2, -2, 2, 2, 2];
    queryMeshBvhAabb(hits, bvh, q[0], q[1], q[2], q[3], q[4], q[5]);
    const found = new Set(Array.from(hits.ids.subarray(0, hits.count)));
    for (let i = 0; i < n; i++) if (overlaps(moved, i, q)) expect(found.has(i)).toBe(true);
  });
});

describe("meshBvhNodeRayEntry", () => {
  /** The entry t through the register form: [o, 1/d, tmax] in, entry out (Infinity on a miss). */
  const enter = (
    bvh: ReturnType<typeof buildMeshBvh>,
    ox: number,
    oy: number,
    oz: number,
    ix: number,
    iy: number,
    iz: number,
    tmax: number,
  ): number => {
    const ray = new Float64Array([ox, oy, oz, ix, iy, iz, tmax, Number.NaN]);
    const hit = meshBvhNodeRayEntry(bvh, 0, ray);
    expect(hit).toBe(ray[7] !== Number.POSITIVE_INFINITY);
    return ray[7];
  };
  it("agrees with dense sampling of the ray against the root box, including parallel rays on a face", () => {
    const bvh = buildMeshBvh(new Float64Array([0, 0, 0, 1, 1, 1]), 1);
    const rng = makeRandom(5);
    for (let k = 0; k < 200; k++) {
      const o = [0, 1, 2].map(() => (rng() - 0.5) * 4);
      const d = [0, 1, 2].map(() => (rng() < 0.2 ? 0 : rng() - 0.5));
      if (d.every((x) => x === 0)) continue;
      const t = enter(bvh, o[0], o[1], o[2], 1 / d[0], 1 / d[1], 1 / d[2], 10);
      let first = Infinity;
      for (let s = 0; s <= 20000; s++) {
        const tt = (10 * s) / 20000;
        const p = o.map((x, i) => x + tt * d[i]);
        if (p.every((x) => x >= 0 && x <= 1)) {
          first = tt;
          break;
        }
      }
      if (first === Infinity) {
        // Sampling may miss a grazing hit; the slab test must then be near the box's boundary.
        if (t !== Infinity) expect(t).toBeLessThanOrEqual(10);
      } else expect(Math.abs(t - first)).toBeLessThanOrEqual(10 / 20000 + 1e-12);
    }
    // A ray lying in the plane x = 0 (a face) with direction along y enters.
    expect(enter(bvh, 0, -1, 0.5, Infinity, 1, Infinity, 10)).toBe(1);
  });
});

describe("buildMeshBvh on random triangle soups (fast-check)", () => {
  /** Triangle boxes of random triangles; some share corners, some are clustered or repeated. */
  const soup = fc
    .tuple(
      fc.array(
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: 0, max: 3 })),
        {
          minLength: 1,
          maxLength: 400,
        },
      ),
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.constantFrom(1e-3, 1, 1e4),
    )
    .map(([seeds, seed, s]) => {
      const rng = makeRandom(seed);
      const n = seeds.length;
      const b = new Float64Array(6 * n);
      for (let i = 0; i < n; i++) {
        const [c, kind] = seeds[i];
        for (let k = 0; k < 3; k++) {
          // kind 0: anywhere; 1: clustered on a line; 2: a copy of the previous; 3: tiny.
          const base = kind === 1 ? c : rng() * 2 - 1;
          let lo = base;
          let hi = base;
          for (let corner = 0; corner < 3; corner++) {
            const x = base + (kind === 3 ? 1e-9 : 0.2) * (rng() - 0.5);
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
          }
          b[6 * i + k] = s * lo;
          b[6 * i + 3 + k] = s * hi;
        }
        if (kind === 2 && i > 0) for (let k = 0; k < 6; k++) b[6 * i + k] = b[6 * (i - 1) + k];
      }
      return b;
    });

  it("every primitive in exactly one leaf, and every node box exactly the union of its contents", () => {
    fc.assert(
      fc.property(
        soup,
        fc.constantFrom(2, 3, 16, 64),
        fc.constantFrom(1, 2, 4, 8),
        (prim, bins, maxLeafSize) => {
          const n = prim.length / 6;
          const bvh = buildMeshBvh(prim, n, { bins, maxLeafSize });
          checkInvariants(bvh, prim, n);
          // Tight: a leaf's box is the union of its primitives' boxes, an inner node's the union
          // of its children's, to the bit (min and max are exact).
          for (let i = bvh.nodeCount - 1; i >= 0; i--) {
            const u = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
            const grow = (src: ArrayLike<number>, o: number) => {
              for (let k = 0; k < 3; k++) {
                u[k] = Math.min(u[k], src[o + k]);
                u[3 + k] = Math.max(u[3 + k], src[o + 3 + k]);
              }
            };
            if (isMeshBvhLeaf(bvh, i)) {
              const s = meshBvhLeafOffset(bvh, i);
              for (let q = s; q < s + meshBvhLeafCount(bvh, i); q++)
                grow(prim, 6 * bvh.primitives[q]);
            } else {
              grow(bvh.bounds, 6 * (i + 1));
              grow(bvh.bounds, 6 * meshBvhRightChild(bvh, i));
            }
            for (let k = 0; k < 6; k++) expect(bvh.bounds[6 * i + k]).toBe(u[k]);
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});
