/**
 * The static BVH of the world's static bodies (src/broadphase/static-bvh.ts) against brute
 * force: box queries report exactly the boxes that overlap or touch the query box, ray casts
 * exactly the boxes the shared slab test enters, with the same entry parameter — for random,
 * packed (touching, a voxel slab), coincident and mixed-size (1:1000) boxes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { raySegmentBoxEntry } from "../../src/broadphase/broad-phase.js";
import { StaticBvh, warmStaticBvh } from "../../src/broadphase/static-bvh.js";
import { CollideError } from "../../src/errors.js";
import { makeRandom } from "../../src/math/random.js";
import * as vec3 from "../../src/math/vec3.js";

const boxArb = fc
  .tuple(
    fc.double({ min: -20, max: 20, noNaN: true }),
    fc.double({ min: -20, max: 20, noNaN: true }),
    fc.double({ min: -20, max: 20, noNaN: true }),
    fc.constantFrom(0, 0.5, 1, 1, 3, 500),
  )
  .map(([x, y, z, h]) => [x - h, y - h, z - h, x + h, y + h, z + h]);

function brute(boxes: number[][], min: number[], max: number[]): number[] {
  const out: number[] = [];
  boxes.forEach((b, i) => {
    if (b[0] <= max[0] && min[0] <= b[3] && b[1] <= max[1] && min[1] <= b[4]) {
      if (b[2] <= max[2] && min[2] <= b[5]) out.push(i);
    }
  });
  return out;
}

function check(boxes: number[][], queries: number[][]): void {
  const bvh = new StaticBvh();
  const flat = new Float64Array(boxes.flat());
  bvh.build(flat, Int32Array.from(boxes.keys()), boxes.length);
  expect(bvh.size).toBe(boxes.length);
  for (const q of queries) {
    const got: number[] = [];
    bvh.queryAabb(vec3.create(q[0], q[1], q[2]), vec3.create(q[3], q[4], q[5]), (id) => {
      got.push(id);
    });
    expect(got.sort((a, b) => a - b)).toEqual(brute(boxes, q.slice(0, 3), q.slice(3)));
    const o = vec3.create(q[0], q[1], q[2]);
    const d = vec3.create(q[3] - q[0], q[4] - q[1], q[5] - q[2]);
    if (d.x === 0 && d.y === 0 && d.z === 0) continue;
    const hits: string[] = [];
    bvh.castRay(o, d, 1, (id, t) => {
      hits.push(`${id}:${t}`);
    });
    const want: string[] = [];
    boxes.forEach((_, i) => {
      const t = raySegmentBoxEntry(o.x, o.y, o.z, d.x, d.y, d.z, 1, flat, 6 * i);
      if (t >= 0) want.push(`${i}:${t}`);
    });
    expect(hits.sort()).toEqual(want.sort());
  }
}

describe("StaticBvh", () => {
  it("box queries and ray casts equal brute force (random, mixed sizes, coincident)", () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 0, maxLength: 120 }),
        fc.array(
          fc
            .tuple(boxArb, boxArb)
            .map(([a, b]) => [
              Math.min(a[0], b[0]),
              Math.min(a[1], b[1]),
              Math.min(a[2], b[2]),
              Math.max(a[0], b[0]),
              Math.max(a[1], b[1]),
              Math.max(a[2], b[2]),
            ]),
          { minLength: 1, maxLength: 8 },
        ),
        fc.boolean(),
        (boxes, queries, dup) => {
          check(dup ? [...boxes, ...boxes] : boxes, queries);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a packed voxel slab: touching neighbours are reported (closed boxes)", () => {
    const boxes: number[][] = [];
    for (let i = 0; i < 30; i++) {
      for (let j = 0; j < 30; j++) boxes.push([i - 0.5, -0.5, j - 0.5, i + 0.5, 0.5, j + 0.5]);
    }
    check(boxes, [
      [3.5, 0.5, 3.5, 3.5, 0.5, 3.5],
      [-10, -10, -10, 100, 100, 100],
      [4.6, 0.6, 4.6, 5, 1, 5],
      [2, -3, 2, 7, 2, 9],
    ]);
  });

  it("orders entries by Morton code of the centre, ties in input order, through both entry points", () => {
    // 3,000 boxes on 7 distinct centres (many ties) plus a far corner box, ids permuted: the
    // entries must be sorted by the centre's code (checked by recomputing it) and, within a
    // code, keep the input order; buildById over a per-id array gives the same entries.
    const n = 3001;
    const centres = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 1, 1],
      [0.5, 0.25, 0.75],
      [0.9, 0.1, 0.3],
    ];
    const boxes = new Float64Array(6 * n);
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = i === n - 1 ? [10, 10, 10] : centres[(i * 5) % 7];
      const h = 0.1 + (i % 3) * 0.05;
      boxes.set([c[0] - h, c[1] - h, c[2] - h, c[0] + h, c[1] + h, c[2] + h], 6 * i);
      ids[i] = (i * 7) % n;
    }
    const bvh = new StaticBvh();
    bvh.build(boxes, ids, n);
    const inputOf = new Int32Array(n);
    for (let i = 0; i < n; i++) inputOf[ids[i]] = i;
    const q = (v: number) => Math.floor((v / 10) * 1023);
    const morton = (i: number) => {
      let code = 0;
      for (let b = 9; b >= 0; b--) {
        for (let k = 2; k >= 0; k--) {
          const c = 0.5 * boxes[6 * i + k] + 0.5 * boxes[6 * i + 3 + k];
          code = code * 2 + ((q(c) >> b) & 1);
        }
      }
      return code;
    };
    let wrong = 0;
    for (let r = 1; r < n; r++) {
      const a = inputOf[bvh.entryIds[r - 1]];
      const b = inputOf[bvh.entryIds[r]];
      if (morton(a) > morton(b) || (morton(a) === morton(b) && a > b)) wrong++;
    }
    expect(wrong).toBe(0);
    const perId = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) perId.set(boxes.subarray(6 * i, 6 * i + 6), 6 * ids[i]);
    const byId = new StaticBvh();
    byId.buildById(perId, ids, n);
    expect(Array.from(byId.entryIds.subarray(0, n))).toEqual(
      Array.from(bvh.entryIds.subarray(0, n)),
    );
  });

  it("one builder reused over growing and shrinking sets, one shared centre, codes differing in one digit: order and queries exact", () => {
    // The builder keeps its arrays between builds and grows them: the same builder over 40,
    // 5,000, 1 and 300 boxes — random; all on one centre (one code: input order); centres
    // differing only in their lowest code bits — gives the brute-force answers and the (code,
    // input index) order.
    const bvh = new StaticBvh();
    const sets: number[][][] = [];
    let seed = 7;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const random = (n: number, spread: number) =>
      Array.from({ length: n }, () => {
        const c = [rnd() * spread, rnd() * spread, rnd() * spread];
        const h = 0.05 + rnd();
        return [c[0] - h, c[1] - h, c[2] - h, c[0] + h, c[1] + h, c[2] + h];
      });
    sets.push(random(40, 10));
    sets.push(random(5000, 60));
    sets.push(Array.from({ length: 64 }, (_, i) => [-1 - i, -1, -1, 1 + i, 1, 1]));
    sets.push(random(1, 5));
    // x centres 0 and 1023 / 1024 of a range of 1 apart from one far box: low x bits only.
    sets.push(
      Array.from({ length: 300 }, (_, i) => {
        const x = i === 299 ? 1 : (i % 4) / 1023;
        return [x - 0.5, -0.5, -0.5, x + 0.5, 0.5, 0.5];
      }),
    );
    sets.push(random(300, 20));
    for (const boxes of sets) {
      const n = boxes.length;
      const flat = new Float64Array(boxes.flat());
      bvh.build(flat, Int32Array.from(boxes.keys()), n);
      let lo = [Infinity, Infinity, Infinity];
      let hi = [-Infinity, -Infinity, -Infinity];
      const centre = (i: number, k: number) => 0.5 * flat[6 * i + k] + 0.5 * flat[6 * i + 3 + k];
      for (let i = 0; i < n; i++) {
        lo = lo.map((v, k) => Math.min(v, centre(i, k)));
        hi = hi.map((v, k) => Math.max(v, centre(i, k)));
      }
      const morton = (i: number) => {
        let code = 0;
        for (let b = 9; b >= 0; b--) {
          for (let k = 2; k >= 0; k--) {
            const s = hi[k] > lo[k] ? 1023 / (hi[k] - lo[k]) : 0;
            code = code * 2 + ((Math.floor((centre(i, k) - lo[k]) * s) >> b) & 1);
          }
        }
        return code;
      };
      const want = Array.from(boxes.keys()).sort((a, b) => morton(a) - morton(b) || a - b);
      expect(Array.from(bvh.entryIds.subarray(0, n))).toEqual(want);
      for (let j = 0; j < 20; j++) {
        const i = Math.floor(rnd() * n);
        const q = [...boxes[i].slice(0, 3).map((v) => v - rnd()), ...boxes[i].slice(3)];
        const got: number[] = [];
        bvh.queryAabb(vec3.create(q[0], q[1], q[2]), vec3.create(q[3], q[4], q[5]), (id) => {
          got.push(id);
        });
        expect(got.sort((a, b) => a - b)).toEqual(brute(boxes, q.slice(0, 3), q.slice(3)));
      }
    }
  });

  it("reads its boxes in place: after rebind to a grown copy, the old array wiped, answers equal brute force", () => {
    // The world's per-slot boxes grow into a new array (adding bodies) without a rebuild of
    // the static structure: the hierarchy keeps no copy, so it must read the new array.
    const rng = (() => {
      let s = 7;
      return () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return s / 2 ** 32;
      };
    })();
    const n = 400;
    const boxes: number[][] = [];
    for (let i = 0; i < n; i++) {
      const x = 40 * rng();
      const y = 40 * rng();
      const z = 40 * rng();
      const h = 0.2 + 2 * rng();
      boxes.push([x - h, y - h, z - h, x + h, y + h, z + h]);
    }
    const first = new Float64Array(boxes.flat());
    const ids = Int32Array.from(boxes.keys());
    const bvh = new StaticBvh();
    bvh.buildById(first, ids, n);
    const grown = new Float64Array(2 * first.length);
    grown.set(first);
    bvh.rebind(grown);
    first.fill(Number.NaN);
    for (let q = 0; q < 50; q++) {
      const x = 40 * rng();
      const y = 40 * rng();
      const z = 40 * rng();
      const h = 4 * rng();
      const min = [x - h, y - h, z - h];
      const max = [x + h, y + h, z + h];
      const got: number[] = [];
      bvh.queryAabb(
        vec3.create(min[0], min[1], min[2]),
        vec3.create(max[0], max[1], max[2]),
        (id) => {
          got.push(id);
        },
      );
      expect(got.sort((a, b) => a - b)).toEqual(brute(boxes, min, max));
      const out = new Int32Array(n);
      const found = bvh.collectEntries(min[0], min[1], min[2], max[0], max[1], max[2], out, 0);
      expect(
        Array.from(out.subarray(0, found), (r) => bvh.entryIds[r]).sort((a, b) => a - b),
      ).toEqual(brute(boxes, min, max));
    }
  });

  it("the warm-up leaves a built hierarchy and later builds as they were", () => {
    const rng = makeRandom(20261204);
    const n = 500;
    const boxes = new Float64Array(6 * n);
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = [30 * rng(), 30 * rng(), 30 * rng()];
      for (let a = 0; a < 3; a++) {
        boxes[6 * i + a] = c[a] - rng();
        boxes[6 * i + 3 + a] = c[a] + rng();
      }
      ids[i] = 3 * i + 1;
    }
    const hits = (bvh: StaticBvh) => {
      const out = new Int32Array(n);
      const all: number[][] = [];
      for (let q = 0; q < 20; q++) {
        const k = 6 * ((q * 37) % n);
        const found = bvh.collectEntries(
          boxes[k] - 2,
          boxes[k + 1] - 2,
          boxes[k + 2] - 2,
          boxes[k + 3] + 2,
          boxes[k + 4] + 2,
          boxes[k + 5] + 2,
          out,
          0,
        );
        all.push(Array.from(out.subarray(0, found)));
      }
      return all;
    };
    const before = new StaticBvh();
    before.build(boxes, ids, n);
    const order = Array.from(before.entryIds.subarray(0, n));
    const found = hits(before);
    warmStaticBvh();
    warmStaticBvh();
    expect(Array.from(before.entryIds.subarray(0, n))).toEqual(order);
    expect(hits(before)).toEqual(found);
    const after = new StaticBvh();
    after.build(boxes, ids, n);
    expect(Array.from(after.entryIds.subarray(0, n))).toEqual(order);
    expect(hits(after)).toEqual(found);
  });

  it("refuses non-finite or inverted boxes", () => {
    const bvh = new StaticBvh();
    expect(() => bvh.build(new Float64Array([0, 0, 0, Number.NaN, 1, 1]), [0], 1)).toThrow(
      CollideError,
    );
    expect(() => bvh.build(new Float64Array([2, 0, 0, 1, 1, 1]), [0], 1)).toThrow(CollideError);
  });
});
