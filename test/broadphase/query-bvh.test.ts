import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { raySegmentBoxEntry } from "../../src/broadphase/broad-phase.js";
import { QueryBvh } from "../../src/broadphase/query-bvh.js";
import { CollideError } from "../../src/errors.js";
import type { Vec3 } from "../../src/math/vec3.js";

const v = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

/** Brute-force oracle: every entry whose box the segment touches, with its entry parameter. */
function bruteRay(
  boxes: Float64Array,
  n: number,
  o: Vec3,
  d: Vec3,
  tMax: number,
): Map<number, number> {
  const hits = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const t = raySegmentBoxEntry(o.x, o.y, o.z, d.x, d.y, d.z, tMax, boxes, 6 * i);
    if (t >= 0) hits.set(i, t);
  }
  return hits;
}

function bvhRay(bvh: QueryBvh, o: Vec3, d: Vec3, tMax: number): Map<number, number> {
  const hits = new Map<number, number>();
  bvh.castRay(o, d, tMax, (id, t) => {
    expect(hits.has(id)).toBe(false);
    hits.set(id, t);
  });
  return hits;
}

function bruteBox(boxes: Float64Array, n: number, mn: Vec3, mx: Vec3): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = 6 * i;
    if (
      boxes[k] <= mx.x &&
      mn.x <= boxes[k + 3] &&
      boxes[k + 1] <= mx.y &&
      mn.y <= boxes[k + 4] &&
      boxes[k + 2] <= mx.z &&
      mn.z <= boxes[k + 5]
    ) {
      out.push(i);
    }
  }
  return out;
}

function build(boxes: Float64Array, n: number): QueryBvh {
  const bvh = new QueryBvh();
  bvh.build(
    boxes,
    Int32Array.from({ length: n }, (_, i) => i),
    n,
  );
  return bvh;
}

/** Boxes on a lattice of `side`³ cells, each `size` wide, scaled by `scale`, shifted by `shift`. */
function latticeBoxes(side: number, size: number, scale: number, shift: number): Float64Array {
  const n = side ** 3;
  const b = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    const c = [i % side, Math.floor(i / side) % side, Math.floor(i / side / side)];
    for (let k = 0; k < 3; k++) {
      b[6 * i + k] = shift + scale * c[k];
      b[6 * i + 3 + k] = shift + scale * (c[k] + size);
    }
  }
  return b;
}

const coord = fc.double({ min: -10, max: 10, noNaN: true });
const boxArb = fc
  .tuple(coord, coord, coord, fc.double({ min: 0, max: 3, noNaN: true }), fc.nat(3))
  .map(([x, y, z, s, flat]) => {
    // Some boxes flat (zero extent on one axis) or points.
    const e = [s, s, s];
    if (flat > 0) e[flat - 1] = 0;
    return [x, y, z, x + e[0], y + e[1], z + e[2]];
  });
/** Directions with components often exactly zero (rays along faces and edges). */
const dirComp = fc.oneof(
  fc.constant(0),
  fc.constant(1),
  fc.constant(-1),
  fc.double({ min: -1, max: 1, noNaN: true }),
);
const dirArb = fc
  .tuple(dirComp, dirComp, dirComp)
  .filter(([x, y, z]) => x !== 0 || y !== 0 || z !== 0);

describe("QueryBvh", () => {
  it("an empty hierarchy reports nothing", () => {
    const bvh = build(new Float64Array(0), 0);
    expect(bvh.size).toBe(0);
    expect(bvh.castRay(v(0, 0, 0), v(1, 0, 0), Infinity, () => {})).toBe(0);
    expect(bvh.queryAabb(v(-1, -1, -1), v(1, 1, 1), () => {})).toBe(0);
  });

  it("a single box: hit at the hand-computed entry parameter, missed beside it", () => {
    const bvh = build(new Float64Array([1, 1, 1, 2, 2, 2]), 1);
    const hits = bvhRay(bvh, v(0, 1.5, 1.5), v(2, 0, 0), 10);
    expect([...hits]).toEqual([[0, 0.5]]);
    expect(bvhRay(bvh, v(0, 2.5, 1.5), v(1, 0, 0), 10).size).toBe(0);
    // The segment ends exactly on the face: touching counts.
    expect(bvhRay(bvh, v(0, 1.5, 1.5), v(1, 0, 0), 1).get(0)).toBe(1);
    expect(bvhRay(bvh, v(0, 1.5, 1.5), v(1, 0, 0), 0.999).size).toBe(0);
  });

  it("reports ids, not positions", () => {
    const bvh = new QueryBvh();
    bvh.build(new Float64Array([0, 0, 0, 1, 1, 1, 5, 0, 0, 6, 1, 1]), [42, 7], 2);
    expect([...bvhRay(bvh, v(-1, 0.5, 0.5), v(1, 0, 0), Infinity).keys()].sort()).toEqual([42, 7]);
    const ids: number[] = [];
    bvh.queryAabb(v(4, 0, 0), v(4.5, 1, 1), (id) => ids.push(id));
    expect(ids).toEqual([]);
    bvh.queryAabb(v(1, 0, 0), v(5, 1, 1), (id) => ids.push(id));
    expect(ids.sort()).toEqual([42, 7]);
  });

  it("rays match brute force on random boxes (flat boxes, points, axis-aligned rays)", () => {
    fc.assert(
      fc.property(
        fc.array(boxArb, { minLength: 1, maxLength: 80 }),
        fc.tuple(coord, coord, coord),
        dirArb,
        fc.oneof(fc.constant(Infinity), fc.double({ min: 0, max: 30, noNaN: true })),
        (list, [ox, oy, oz], [dx, dy, dz], tMax) => {
          const boxes = Float64Array.from(list.flat());
          const bvh = build(boxes, list.length);
          const o = v(ox, oy, oz);
          const d = v(dx, dy, dz);
          const want = bruteRay(boxes, list.length, o, d, tMax);
          const got = bvhRay(bvh, o, d, tMax);
          expect(new Map([...got].sort((a, b) => a[0] - b[0]))).toEqual(
            new Map([...want].sort((a, b) => a[0] - b[0])),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("rays from a box's face plane, along its faces and edges, find it (touching lattice)", () => {
    // Unit boxes touching face to face; rays start on shared planes and run along them.
    const boxes = latticeBoxes(4, 1, 1, 0);
    const n = 64;
    const bvh = build(boxes, n);
    for (const o of [v(0, 0, 0), v(1, 1, -1), v(2, -1, 2), v(4, 4, 4), v(-1, 3, 3)]) {
      for (const d of [v(1, 0, 0), v(0, 1, 0), v(0, 0, 1), v(-1, 0, 0), v(1, 1, 0), v(1, 1, 1)]) {
        const want = bruteRay(boxes, n, o, d, Infinity);
        expect(bvhRay(bvh, o, d, Infinity)).toEqual(want);
      }
    }
  });

  for (const [scale, shift] of [
    [1e-3, 0],
    [1e4, 0],
    [1, 1e6],
    [1e-3, -1e6],
  ]) {
    it(`rays and boxes match brute force at scale ${scale}, shifted by ${shift}`, () => {
      const boxes = latticeBoxes(6, 1, scale, shift);
      const n = 216;
      const bvh = build(boxes, n);
      fc.assert(
        fc.property(
          fc.tuple(fc.double({ min: -1, max: 7, noNaN: true }), fc.nat(6), fc.nat(6)),
          dirArb,
          ([a, b, c], [dx, dy, dz]) => {
            // Origins on lattice planes (exact integers) as well as between them.
            const o = v(shift + scale * a, shift + scale * b, shift + scale * c);
            const d = v(dx, dy, dz);
            expect(bvhRay(bvh, o, d, Infinity)).toEqual(bruteRay(boxes, n, o, d, Infinity));
            const mn = v(o.x, o.y, o.z);
            const mx = v(o.x + scale * Math.abs(dx), o.y + scale * Math.abs(dy), o.z);
            const got: number[] = [];
            bvh.queryAabb(mn, mx, (id) => got.push(id));
            expect(got.sort((p, q) => p - q)).toEqual(bruteBox(boxes, n, mn, mx));
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it("coincident boxes (every centroid equal) are all reported", () => {
    const n = 300;
    const boxes = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) boxes.set([0, 0, 0, 1, 1, 1], 6 * i);
    const bvh = build(boxes, n);
    expect(bvhRay(bvh, v(-1, 0.5, 0.5), v(1, 0, 0), Infinity).size).toBe(n);
    let count = 0;
    bvh.queryAabb(v(1, 1, 1), v(2, 2, 2), () => {
      count++;
    });
    expect(count).toBe(n);
  });

  it("the callback clips the segment and stops the cast", () => {
    // A row of boxes along x; a closest-hit collector clips to each hit.
    const n = 50;
    const boxes = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) boxes.set([2 * i, 0, 0, 2 * i + 1, 1, 1], 6 * i);
    const bvh = build(boxes, n);
    let best = Infinity;
    let bestId = -1;
    bvh.castRay(v(-1, 0.5, 0.5), v(1, 0, 0), Infinity, (id, t) => {
      if (t < best) {
        best = t;
        bestId = id;
      }
      return best;
    });
    expect([bestId, best]).toEqual([0, 1]);
    let visits = 0;
    bvh.castRay(v(-1, 0.5, 0.5), v(1, 0, 0), Infinity, () => {
      visits++;
      return -1;
    });
    expect(visits).toBe(1);
    let boxVisits = 0;
    bvh.queryAabb(v(-10, -10, -10), v(200, 10, 10), () => {
      boxVisits++;
      return false;
    });
    expect(boxVisits).toBe(1);
  });

  it("refuses bad input with a CollideError naming the field", () => {
    const bvh = new QueryBvh();
    expect(() => bvh.build(new Float64Array([1, 0, 0, 0, 1, 1]), [0], 1)).toThrow(CollideError);
    expect(() => bvh.build(new Float64Array([0, 0, 0, Number.NaN, 1, 1]), [0], 1)).toThrow(
      /primBounds/,
    );
    expect(() => bvh.build(new Float64Array(6), [], 1)).toThrow(/ids/);
    expect(() => bvh.build(new Float64Array(6), [0], -1)).toThrow(/count/);
    bvh.build(new Float64Array([0, 0, 0, 1, 1, 1]), [0], 1);
    expect(() => bvh.castRay(v(Number.NaN, 0, 0), v(1, 0, 0), 1, () => {})).toThrow(/origin/);
    expect(() => bvh.castRay(v(0, 0, 0), v(1, 0, 0), -1, () => {})).toThrow(/maxToi/);
    expect(() => bvh.queryAabb(v(1, 1, 1), v(0, 0, 0), () => {})).toThrow(CollideError);
  });
});
