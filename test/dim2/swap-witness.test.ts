/**
 * Regression of issue 16 (found in passing, session 24): 2D contact(B, A) was not contact(A, B)
 * flipped bit for bit when two SAT axes tied ("ties favour A" took A's axis in one order and B's
 * in the other), and the SAT's witness, the other shape's deepest corner, lay off the face it
 * was projected on when that shape was the larger: a 0.25 square inside a 48 one got pointA
 * (−0.375, 32), 32 units off it (17 % of overlapping rect and polygon pairs not flipped, 20–40 %
 * with a witness off its shape). Fixed in src/dim2/contact2.ts: every pair answered in one
 * canonical order (`orderSwapped2`) and flipped; tied axes chosen by their normal alone; the
 * witnesses the points of the two support features at the middle of their common span.
 *
 * Oracle: the polygons' world corners (no library code): the point's distance to the boundary,
 * the least overlap over all edge normals (the SAT minimum is the depth of two convex polygons).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery2D } from "../../src/io/query-2d.js";

type P = [number, number];
// biome-ignore lint/suspicious/noExplicitAny: the query's JSON answer
type Any = any;
type J = Record<string, unknown>;
const EPS = 2 ** -52;

/** The world corners of a JSON rect, orect or polygon. */
function corners(j: J): P[] {
  if (j.type === "rect") {
    const [x0, y0] = j.min as P;
    const [x1, y1] = j.max as P;
    return [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
  }
  if (j.type === "orect") {
    const a = j.angle as number;
    const [cx, cy] = j.center as P;
    const [hx, hy] = j.halfExtents as P;
    const c = Math.cos(a);
    const s = Math.sin(a);
    return (
      [
        [-hx, -hy],
        [hx, -hy],
        [hx, hy],
        [-hx, hy],
      ] as P[]
    ).map(([x, y]) => [cx + c * x - s * y, cy + s * x + c * y]);
  }
  return j.points as P[];
}

/** Distance from p to the boundary of the polygon `v`. */
function boundaryDistance(v: P[], p: P): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < v.length; i++) {
    const a = v[i];
    const b = v[(i + 1) % v.length];
    const ex = b[0] - a[0];
    const ey = b[1] - a[1];
    const t = Math.max(
      0,
      Math.min(1, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)),
    );
    best = Math.min(best, Math.hypot(a[0] + t * ex - p[0], a[1] + t * ey - p[1]));
  }
  return best;
}

/** The least overlap of two convex polygons over their edge normals (their depth when > 0). */
function satDepth(a: P[], b: P[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const [p, q] of [
    [a, b],
    [b, a],
  ]) {
    for (let i = 0; i < p.length; i++) {
      const u = p[i];
      const w = p[(i + 1) % p.length];
      const l = Math.hypot(w[0] - u[0], w[1] - u[1]);
      const n: P = [(w[1] - u[1]) / l, -(w[0] - u[0]) / l];
      const dots = (v: P[]) => v.map((x) => x[0] * n[0] + x[1] * n[1]);
      const da = dots(p);
      const db = dots(q);
      best = Math.min(best, Math.max(...da) - Math.min(...db), Math.max(...db) - Math.min(...da));
    }
  }
  return best;
}

/** contact and manifold of (a, b) against (b, a), and the witnesses on their shapes. */
function expectFlippedOnShapes(a: J, b: J): void {
  const ab = answerQuery2D({ op: "contact", dim: 2, a, b }) as Any;
  const ba = answerQuery2D({ op: "contact", dim: 2, a: b, b: a }) as Any;
  const where = JSON.stringify({ a, b, ab, ba });
  expect(ba === null, where).toBe(ab === null);
  if (ab === null) return;
  expect(ba.distance, where).toBe(ab.distance);
  expect(ba.normal, where).toEqual(ab.normal.map((x: number) => 0 - x));
  expect(ba.pointA, where).toEqual(ab.pointB);
  expect(ba.pointB, where).toEqual(ab.pointA);
  const va = corners(a);
  const vb = corners(b);
  const size = Math.max(...[...va, ...vb].flat().map(Math.abs));
  const bar = 1e-9 * size + 64 * EPS * size;
  expect(boundaryDistance(va, ab.pointA), where).toBeLessThanOrEqual(bar);
  expect(boundaryDistance(vb, ab.pointB), where).toBeLessThanOrEqual(bar);
  for (const k of [0, 1]) {
    const gap = ab.pointB[k] - ab.pointA[k] - ab.distance * ab.normal[k];
    expect(Math.abs(gap), where).toBeLessThanOrEqual(bar);
  }
  const depth = satDepth(va, vb);
  if (depth > 0)
    expect(Math.abs(-ab.distance - depth), where).toBeLessThanOrEqual(1e-6 * depth + bar);
  const mab = answerQuery2D({ op: "manifold", dim: 2, a, b }) as Any;
  const mba = answerQuery2D({ op: "manifold", dim: 2, a: b, b: a }) as Any;
  expect(mba.normal, where).toEqual(mab.normal.map((x: number) => 0 - x));
  expect(
    mba.points.map((p: Any) => [p.pointB, p.pointA, p.distance]),
    where,
  ).toEqual(mab.points.map((p: Any) => [p.pointA, p.pointB, p.distance]));
}

describe("2D SAT contacts: the same answer in either order, witnesses on the shapes (issue 16)", () => {
  it("the recorded pairs", () => {
    // Was: (B, A) pointA (−0.375, 32), 32 off the small square.
    expectFlippedOnShapes(
      { type: "rect", min: [-16, -16], max: [32, 32] },
      { type: "orect", center: [-0.5, -0.5], halfExtents: [0.125, 0.125], angle: Math.PI },
    );
    // Was: pointA (−8, −64), 56 off A; (B, A) another pair of points.
    expectFlippedOnShapes(
      { type: "orect", center: [-12, 4], halfExtents: [4, 12], angle: 0 },
      { type: "orect", center: [48, 0], halfExtents: [64, 64], angle: Math.PI },
    );
    const c = answerQuery2D({
      op: "contact",
      dim: 2,
      a: { type: "rect", min: [-16, -16], max: [32, 32] },
      b: { type: "orect", center: [-0.5, -0.5], halfExtents: [0.125, 0.125], angle: Math.PI },
    }) as Any;
    // By hand: the small square [−0.625, −0.375]² leaves the big one [−16, 32]² by 15.625 to
    // the left or down (its far side past −16), by 32.625 right or up: a tie of two axes.
    expect(c.distance).toBe(-15.625);
    expect([
      [-1, 0],
      [0, -1],
    ]).toContainEqual(c.normal);
  });

  it("property: rects, rotated rects and polygons on a dyadic grid (ties everywhere), scales 2^-20..2^20, offsets to 2^30 (2^40 of the size)", () => {
    const grid = fc.integer({ min: -8, max: 8 });
    const half = fc.integer({ min: 1, max: 8 });
    const shapeArb = fc.tuple(
      fc.integer({ min: 0, max: 3 }),
      grid,
      grid,
      half,
      half,
      fc.constantFrom(0, Math.PI / 2, Math.PI / 4, Math.PI, 1),
      fc.integer({ min: -3, max: 3 }),
    );
    fc.assert(
      fc.property(
        shapeArb,
        shapeArb,
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 0, max: 30 }),
        (sa, sb, e, offExp) => {
          const L = 2 ** e;
          // Offsets to 2^30, at most 2^40 times the scale (the grid's points stay distinct).
          const o = offExp === 0 ? 0 : 2 ** Math.min(offExp, e + 40);
          const make = ([k, x, y, hx, hy, angle, rel]: typeof sa): J => {
            const s = (L * 2 ** rel) / 8;
            const cx = x * s + o;
            const cy = y * s - o;
            const w = hx * s;
            const h = hy * s;
            if (k === 0)
              return {
                type: "rect",
                min: [cx - w, cy - h],
                max: [cx + w, cy + h],
              };
            if (k === 1) return { type: "orect", center: [cx, cy], halfExtents: [w, h], angle };
            if (k === 2)
              return {
                type: "polygon",
                points: [
                  [cx - w, cy - h],
                  [cx + w, cy - h],
                  [cx + w, cy + h],
                  [cx - w, cy + h],
                ],
              };
            return {
              type: "polygon",
              points: [
                [cx - w, cy],
                [cx, cy - h],
                [cx + w, cy],
                [cx, cy + h],
              ],
            };
          };
          expectFlippedOnShapes(make(sa), make(sb));
        },
      ),
      { numRuns: 1500 },
    );
  });
});
