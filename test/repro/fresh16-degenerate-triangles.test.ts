/**
 * Findings of a new user (fresh16): triangles given with repeated or collinear corners — points
 * and segments, which docs/FORMATS.md allows ("may be degenerate; then it is a segment or a
 * point") — against each other. Two such triangles at the same point were reported apart
 * (`intersects` false, `contact` null, a `pairs` and `collide check` pair missed), a point on a
 * segment and two overlapping collinear segments too, while two coplanar segments 1 apart were
 * reported touching (distance 0, witnesses 1 apart): the separating axis test had no axis in
 * their common plane. Oracle: the exact segment intersection predicate on integer coordinates
 * (orientation signs, Ericson 2005 §5.1.9.1) and a brute-force distance over sampled points.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type V = [number, number, number];
const tri = (a: V, b: V, c: V) => ({ type: "triangle", a, b, c });
const seg = (a: V, b: V) => tri(a, b, b);
const pt = (a: V) => tri(a, a, a);

function ask(op: string, a: unknown, b: unknown): unknown {
  return answerQuery({ op, a, b });
}
const intersects = (a: unknown, b: unknown) =>
  (ask("intersects", a, b) as { intersects: boolean }).intersects;
const distance = (a: unknown, b: unknown) =>
  ask("distance", a, b) as { distance: number; pointA: V; pointB: V };

const norm = (v: V) => Math.hypot(v[0], v[1], v[2]);
const sub = (p: V, q: V): V => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];

describe("degenerate triangles against each other (fresh16)", () => {
  it("two point triangles at the same point touch, in every op", () => {
    for (const p of [
      [0, 0, 0],
      [0.5, 0, 0],
      [1, 2, 3],
    ] as V[]) {
      expect(intersects(pt(p), pt(p))).toBe(true);
      expect(distance(pt(p), pt(p)).distance).toBe(0);
      const c = ask("contact", pt(p), pt(p)) as { distance: number; normal: V } | null;
      expect(c).not.toBeNull();
      expect(c?.distance).toBe(0);
      expect(norm(c?.normal as V)).toBeCloseTo(1, 12);
      expect(ask("manifold", pt(p), pt(p))).not.toBeNull();
      expect(answerQuery({ op: "pairs", shapes: [pt(p), pt(p)] })).toEqual({ pairs: [[0, 1]] });
    }
  });

  it("a point on a segment and overlapping collinear segments touch", () => {
    expect(intersects(pt([0.5, 0, 0]), seg([0, 0, 0], [1, 0, 0]))).toBe(true);
    expect(intersects(seg([0, 0, 0], [1, 0, 0]), pt([0.5, 0, 0]))).toBe(true);
    expect(intersects(seg([0, 0, 0], [2, 0, 0]), seg([1, 0, 0], [3, 0, 0]))).toBe(true);
    const c = ask("contact", seg([0, 0, 0], [2, 0, 0]), seg([1, 0, 0], [3, 0, 0])) as {
      distance: number;
      normal: V;
    };
    expect(c.distance).toBe(0);
    // The normal of a touch of collinear segments is normal to their line (overlap 0 along it).
    expect(c.normal[0]).toBe(0);
    expect(norm(c.normal)).toBeCloseTo(1, 12);
  });

  it("coplanar segments apart are apart, by their true distance", () => {
    // Lines crossing outside the segments: 1 apart.
    const a = seg([0, 0, 0], [1, 0, 0]);
    const b = seg([2, -1, 0], [2, 1, 0]);
    expect(intersects(a, b)).toBe(false);
    const d = distance(a, b);
    expect(d.distance).toBe(1);
    expect(d.pointA).toEqual([1, 0, 0]);
    expect(d.pointB).toEqual([2, 0, 0]);
    // A segment against a T: 0.5 apart.
    expect(intersects(a, seg([0.5, 0.5, 0], [0.5, 2, 0]))).toBe(false);
    expect(distance(a, seg([0.5, 0.5, 0], [0.5, 2, 0])).distance).toBe(0.5);
    // Parallel, 1 apart.
    expect(intersects(a, seg([0, 1, 0], [1, 1, 0]))).toBe(false);
  });

  it("a segment in a triangle's plane, below its corner, is apart (the segment's in-plane normal)", () => {
    const s = seg([0, 0, 0], [10, 0, 0]);
    // No edge of the triangle has an in-plane normal that separates it from the segment.
    const t = tri([5, 1, 0], [3, 3, 0], [7, 4, 0]);
    expect(intersects(s, t)).toBe(false);
    expect(intersects(t, s)).toBe(false);
    expect(distance(s, t).distance).toBe(1);
    expect(
      intersects(s, {
        type: "convex",
        points: [
          [5, 1, 0],
          [3, 3, 0],
          [7, 4, 0],
        ],
      }),
    ).toBe(false);
    // Moved up to the corner it touches; into it, it overlaps.
    expect(intersects(seg([0, 1, 0], [10, 1, 0]), t)).toBe(true);
    expect(intersects(seg([0, 2, 0], [10, 2, 0]), t)).toBe(true);
  });

  it("point triangles meet in castShapes at the time they coincide, with a unit normal", () => {
    const r = answerQuery({
      op: "castShapes",
      a: pt([0, 0, 0]),
      velocityA: [1, 0, 0],
      b: pt([2, 0, 0]),
      velocityB: [0, 0, 0],
      maxToi: 10,
    }) as { toi: number; normal: V };
    expect(r.toi).toBeCloseTo(2, 9);
    expect(norm(r.normal)).toBeCloseTo(1, 12);
    const r0 = answerQuery({
      op: "castShapes",
      a: pt([0, 0, 0]),
      velocityA: [0, 0, 0],
      b: pt([0, 0, 0]),
      velocityB: [0, 0, 0],
      maxToi: 10,
    }) as { toi: number };
    expect(r0.toi).toBe(0);
  });

  /** Sign of the orientation of (p, q, r) in the plane (exact on small integers). */
  const orient = (p: V, q: V, r: V) =>
    Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const onSeg = (p: V, q: V, r: V) =>
    Math.min(p[0], q[0]) <= r[0] &&
    r[0] <= Math.max(p[0], q[0]) &&
    Math.min(p[1], q[1]) <= r[1] &&
    r[1] <= Math.max(p[1], q[1]);
  /** Exact: do the closed segments pq and rs of the plane z = 0 share a point? */
  function segmentsMeet(p: V, q: V, r: V, s: V): boolean {
    const o1 = orient(p, q, r);
    const o2 = orient(p, q, s);
    const o3 = orient(r, s, p);
    const o4 = orient(r, s, q);
    if (o1 !== o2 && o3 !== o4 && o1 * o2 <= 0 && o3 * o4 <= 0) {
      // Proper or touching crossing (not all collinear).
      if (!(o1 === 0 && o2 === 0)) return true;
    }
    if (o1 === 0 && onSeg(p, q, r)) return true;
    if (o2 === 0 && onSeg(p, q, s)) return true;
    if (o3 === 0 && onSeg(r, s, p)) return true;
    if (o4 === 0 && onSeg(r, s, q)) return true;
    return false;
  }
  /** Brute force: the least distance over 401 × 401 sampled points of the two segments. */
  function sampledDistance(p: V, q: V, r: V, s: V): number {
    let best = Infinity;
    const n = 400;
    for (let i = 0; i <= n; i++) {
      const a: V = [p[0] + ((q[0] - p[0]) * i) / n, p[1] + ((q[1] - p[1]) * i) / n, 0];
      for (let j = 0; j <= n; j++) {
        const b: V = [r[0] + ((s[0] - r[0]) * j) / n, r[1] + ((s[1] - r[1]) * j) / n, 0];
        best = Math.min(best, norm(sub(a, b)));
      }
    }
    return best;
  }

  it("segments and points of a small integer grid: intersects is the exact predicate, distance the sampled one", () => {
    const c = fc.integer({ min: -3, max: 3 });
    const p2 = fc.tuple(c, c).map(([x, y]) => [x, y, 0] as V);
    fc.assert(
      fc.property(p2, p2, p2, p2, (p, q, r, s) => {
        const a = seg(p, q);
        const b = seg(r, s);
        const meet = segmentsMeet(p, q, r, s);
        expect(intersects(a, b)).toBe(meet);
        expect(intersects(b, a)).toBe(meet);
        const d = distance(a, b).distance;
        if (meet) expect(d).toBe(0);
        else {
          // The sampled distance is at most the step's reach above the true one.
          const reach = (norm(sub(q, p)) + norm(sub(s, r))) / 400;
          const sd = sampledDistance(p, q, r, s);
          expect(d).toBeGreaterThan(0);
          expect(d).toBeLessThanOrEqual(sd + 1e-12);
          expect(d).toBeGreaterThanOrEqual(sd - reach - 1e-12);
        }
      }),
      { numRuns: 300, seed: 16 },
    );
  });
});
