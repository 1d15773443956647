/**
 * 2D manifolds with a rounded side (capsules): every manifold point lies on its shape's surface
 * (docs/FORMATS.md). A clipped core point moved out by the radius along the reference normal is
 * on the rounded surface only where that normal is the core's own there, so a capsule leaning on
 * a face gives its single contact (fresh user's finding: a second point 0.0123 inside a capsule).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { manifold2D } from "../../src/dim2/manifold2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { makeCapsule, type Shape2 } from "../../src/dim2/shapes.js";
import { answerQuery } from "../../src/io/query.js";
import { num, polygonArb, shapeArb } from "./arbitraries.js";
import { type P, scaleOf, worldPolygon } from "./oracle.js";

const LINE =
  '{"op":"manifold","dim":2,"a":{"type":"capsule","a":[0.002621767195917638,-0.04159747659575865],"b":[-0.002621767195917638,0.04159747659575865],"radius":0.035139742964586045},"b":{"type":"capsule","a":[0.40214606277620746,2.0713701793766814],"b":[-12.540228800379374,-10.5044631415267],"radius":2.590153388725535}}';

function segDist(p: P, a: P, b: P): number {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const l2 = ex * ex + ey * ey;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey);
}

/** Signed distance of world point p to the surface of `shape` at `pose` (< 0 inside), brute force. */
function signedDist(shape: Shape2, pose: Pose2, p: P): number {
  const w = worldPolygon(shape, pose);
  let d = Infinity;
  let inside = w.length >= 3;
  for (let i = 0; i < w.length; i++) {
    const a = w[i];
    const b = w[(i + 1) % w.length];
    d = Math.min(d, segDist(p, a, b));
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0) inside = false;
  }
  return (inside ? -d : d) - shape.core.radius;
}

function expectOnSurfaces(a: Shape2, pa: Pose2, b: Shape2, pb: Pose2): void {
  const m = manifold2D(a, pa, b, pb);
  if (m === null) return;
  const size =
    scaleOf(a, b) + Math.abs(pa.p.x) + Math.abs(pa.p.y) + Math.abs(pb.p.x) + Math.abs(pb.p.y);
  for (let i = 0; i < m.count; i++) {
    const q = m.points[i];
    expect(Math.abs(signedDist(a, pa, [q.pointA.x, q.pointA.y]))).toBeLessThanOrEqual(1e-9 * size);
    expect(Math.abs(signedDist(b, pb, [q.pointB.x, q.pointB.y]))).toBeLessThanOrEqual(1e-9 * size);
  }
}

describe("2D manifold of rounded shapes: points on the surfaces", () => {
  it("the fresh user's line: each point at the radius from its capsule's segment", () => {
    const q = JSON.parse(LINE);
    const ans = answerQuery(q) as { points: { pointA: P; pointB: P }[] };
    const size = 13;
    for (const pt of ans.points) {
      const dA = segDist(pt.pointA, q.a.a, q.a.b) - q.a.radius;
      const dB = segDist(pt.pointB, q.b.a, q.b.b) - q.b.radius;
      expect(Math.abs(dA)).toBeLessThanOrEqual(1e-9 * size);
      expect(Math.abs(dB)).toBeLessThanOrEqual(1e-9 * size);
    }
  });

  it("two parallel capsules on each other still give two points", () => {
    const a = makeCapsule({ x: -1, y: 0 }, { x: 1, y: 0 }, 0.5);
    const b = makeCapsule({ x: -1, y: 0 }, { x: 1, y: 0 }, 0.25);
    const m = manifold2D(a, pose2.fromAngle(0, 0, 0), b, pose2.fromAngle(0.5, 0.7, 0));
    expect(m?.count).toBe(2);
    expectOnSurfaces(a, pose2.fromAngle(0, 0, 0), b, pose2.fromAngle(0.5, 0.7, 0));
  });

  it("property: capsule against capsule, rect or polygon — points on both surfaces", () => {
    const pt = fc.record({ x: num(-1.5, 1.5), y: num(-1.5, 1.5) });
    const capsule = fc
      .record({ a: pt, b: pt, r: num(0.05, 1) })
      .map(({ a, b, r }) => makeCapsule(a, b, r));
    const other = fc.oneof(capsule, polygonArb(), shapeArb());
    // Angles near multiples of π/4 make parallel edges (the two-point case) common.
    const angle = fc.oneof(
      num(-Math.PI, Math.PI),
      fc
        .tuple(fc.integer({ min: -4, max: 4 }), num(-0.04, 0.04))
        .map(([k, e]) => (k * Math.PI) / 4 + e),
      fc.integer({ min: -4, max: 4 }).map((k) => (k * Math.PI) / 4),
    );
    const pose = fc
      .record({ x: num(-1.5, 1.5), y: num(-1.5, 1.5), a: angle })
      .map(({ x, y, a }) => pose2.fromAngle(x, y, a));
    fc.assert(
      fc.property(capsule, pose, other, pose, fc.boolean(), (a, pa, b, pb, swap) => {
        if (swap) expectOnSurfaces(b, pb, a, pa);
        else expectOnSurfaces(a, pa, b, pb);
      }),
      { numRuns: 400 },
    );
  });
});
