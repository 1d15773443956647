import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact2D, distance2D, intersects2D } from "../../src/dim2/contact2.js";
import { manifold2D } from "../../src/dim2/manifold2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import {
  circleAt,
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  makeSegment,
  orientedRect,
  rectFromMinMax,
} from "../../src/dim2/shapes.js";
import { polygonArb, poseArb, shapeArb } from "./arbitraries.js";
import { clipArea, distToShape, type P, sampledDistance, scaleOf, worldPolygon } from "./oracle.js";

function moved(p: Pose2, dx: number, dy: number): Pose2 {
  return { p: { x: p.p.x + dx, y: p.p.y + dy }, q: { c: p.q.c, s: p.q.s } };
}

const polyOrRect = fc.oneof(
  polygonArb(),
  fc
    .record({
      x: fc.double({ min: 0.1, max: 2, noNaN: true }),
      y: fc.double({ min: 0.1, max: 2, noNaN: true }),
    })
    .map((h) => makeRect(h)),
);

/** Edge normals (world) of a polygon-cored shape. */
function edgeNormals(poly: P[]): P[] {
  const out: P[] = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    out.push([(b[1] - a[1]) / l, -(b[0] - a[0]) / l]);
  }
  return out;
}

function overlapAlong(u: P, a: P[], b: P[]): number {
  const pa = a.map((p) => p[0] * u[0] + p[1] * u[1]);
  const pb = b.map((p) => p[0] * u[0] + p[1] * u[1]);
  // The shortest translation along ±u that separates the projections.
  return Math.min(Math.max(...pa) - Math.min(...pb), Math.max(...pb) - Math.min(...pa));
}

describe("polygon–polygon SAT", () => {
  it("intersects iff the clipped intersection area is positive (Sutherland–Hodgman oracle)", () => {
    fc.assert(
      fc.property(polyOrRect, poseArb(2), polyOrRect, poseArb(2), (a, pa, b, pb) => {
        const area = clipArea(worldPolygon(a, pa), worldPolygon(b, pb));
        const hit = intersects2D(a, pa, b, pb);
        if (area > 1e-9) expect(hit).toBe(true);
        if (!hit) {
          expect(area).toBeLessThanOrEqual(1e-9);
          expect(sampledDistance(a, pa, b, pb, 50)).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the MTV moves the shapes to touching, and no other edge normal gives a shorter one", () => {
    fc.assert(
      fc.property(polyOrRect, poseArb(1), polyOrRect, poseArb(1), (a, pa, b, pb) => {
        const c = contact2D(a, pa, b, pb);
        if (!c || c.distance >= 0) return;
        const depth = -c.distance;
        expect(Math.hypot(c.normal.x, c.normal.y)).toBeCloseTo(1, 12);
        const s = scaleOf(a, b) + 1;
        const eps = 1e-9 * s;
        // Pushed by the MTV (plus a hair) B separates; by a hair less it still touches.
        const out = moved(pb, c.normal.x * (depth + eps), c.normal.y * (depth + eps));
        const dOut = distance2D(a, pa, b, out).distance;
        expect(dOut).toBeGreaterThan(0);
        expect(dOut).toBeLessThan(1e-6 * s);
        const justIn = moved(pb, c.normal.x * (depth - eps), c.normal.y * (depth - eps));
        expect(intersects2D(a, pa, b, justIn)).toBe(true);
        // Along every edge normal the overlap is at least the depth.
        const wa = worldPolygon(a, pa);
        const wb = worldPolygon(b, pb);
        for (const u of [...edgeNormals(wa), ...edgeNormals(wb)]) {
          expect(overlapAlong(u, wa, wb)).toBeGreaterThanOrEqual(depth - 1e-9 * s);
        }
        // Witness points: pointB − pointA = distance · normal.
        expect(c.pointB.x - c.pointA.x).toBeCloseTo(c.distance * c.normal.x, 9);
        expect(c.pointB.y - c.pointA.y).toBeCloseTo(c.distance * c.normal.y, 9);
      }),
      { numRuns: 300 },
    );
  });
});

describe("distance and closest points (2D GJK) against dense sampling", () => {
  it("any convex pair", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(3), shapeArb(), poseArb(3), (a, pa, b, pb) => {
        const d = distance2D(a, pa, b, pb);
        const sampled = sampledDistance(a, pa, b, pb, 200);
        const s = scaleOf(a, b) + 1;
        expect(d.distance).toBeGreaterThanOrEqual(0);
        // The exact distance never exceeds a sampled one; samples are dense enough to be close.
        expect(d.distance).toBeLessThanOrEqual(sampled + 1e-9 * s);
        expect(sampled - d.distance).toBeLessThan(0.05 * s);
        if (d.distance > 0) {
          expect(distToShape(a, pa, [d.pointA.x, d.pointA.y])).toBeLessThan(1e-9 * s);
          expect(distToShape(b, pb, [d.pointB.x, d.pointB.y])).toBeLessThan(1e-9 * s);
          expect(Math.hypot(d.pointB.x - d.pointA.x, d.pointB.y - d.pointA.y)).toBeCloseTo(
            d.distance,
            9,
          );
        } else {
          expect(intersects2D(a, pa, b, pb)).toBe(true);
        }
        expect(intersects2D(a, pa, b, pb)).toBe(d.distance === 0);
      }),
      { numRuns: 300 },
    );
  });

  it("penetration of any overlapping pair: moving B by the contact vector makes them touch", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(1), shapeArb(), poseArb(1), (a, pa, b, pb) => {
        const c = contact2D(a, pa, b, pb);
        if (!c) return;
        const s = scaleOf(a, b) + 1;
        expect(Number.isFinite(c.distance)).toBe(true);
        expect(Math.hypot(c.normal.x, c.normal.y)).toBeCloseTo(1, 12);
        if (c.distance >= 0) return;
        const k = -c.distance + 1e-9 * s;
        const d = distance2D(a, pa, b, moved(pb, c.normal.x * k, c.normal.y * k)).distance;
        expect(d).toBeLessThan(1e-6 * s);
      }),
      { numRuns: 300 },
    );
  });
});

describe("circle–rect by clamping (nine Voronoi regions)", () => {
  const rect = makeRect({ x: 2, y: 1 });
  it("matches the definition in every region, for axis-aligned and oriented rectangles", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -4, max: 4, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: 0.05, max: 1.5, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        (x, y, r, angle) => {
          const pr = pose2.fromAngle(0.5, -0.25, angle);
          const circle = makeCircle(r);
          const pc = pose2.fromAngle(x, y);
          const c = contact2D(circle, pc, rect, pr, Infinity);
          expect(c).not.toBeNull();
          if (!c) return;
          expect(Math.hypot(c.normal.x, c.normal.y)).toBeCloseTo(1, 12);
          const outside = distToShape(rect, pr, [x, y]);
          if (outside > 0) {
            expect(c.distance).toBeCloseTo(outside - r, 10);
          } else {
            const lx = pr.q.c * (x - 0.5) + pr.q.s * (y + 0.25);
            const ly = -pr.q.s * (x - 0.5) + pr.q.c * (y + 0.25);
            const edge = Math.min(2 - Math.abs(lx), 1 - Math.abs(ly));
            expect(c.distance).toBeCloseTo(-(edge + r), 10);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("centre exactly on an edge, at a corner and at the centre never gives a zero normal", () => {
    const a = rectFromMinMax({ x: -1, y: -1 }, { x: 1, y: 1 });
    for (const [x, y] of [
      [1, 0],
      [0, -1],
      [1, 1],
      [-1, -1],
      [0, 0],
    ]) {
      const c = contact2D(makeCircle(0.5), pose2.fromAngle(x, y), a.shape, a.pose);
      expect(c).not.toBeNull();
      if (!c) continue;
      expect(Math.hypot(c.normal.x, c.normal.y)).toBeCloseTo(1, 14);
    }
    const edge = contact2D(makeCircle(0.5), pose2.fromAngle(1, 0), a.shape, a.pose);
    expect(edge?.distance).toBe(-0.5);
    expect(edge?.normal).toEqual({ x: -1, y: 0 });
    const centre = contact2D(makeCircle(0.5), pose2.fromAngle(0, 0), a.shape, a.pose);
    expect(centre?.distance).toBe(-1.5);
  });
});

describe("adversarial cases", () => {
  const cases: [string, number, number][] = [
    ["unit", 1, 0],
    ["tiny", 1e-3, 0],
    ["huge", 1e4, 0],
    ["far from origin", 1, 1e6],
  ];
  for (const [name, s, off] of cases) {
    it(`touching counts as intersecting; a gap is a gap (${name})`, () => {
      const a = rectFromMinMax({ x: off, y: off }, { x: off + s, y: off + s });
      const b = rectFromMinMax({ x: off + s, y: off }, { x: off + 2 * s, y: off + s });
      expect(intersects2D(a.shape, a.pose, b.shape, b.pose)).toBe(true);
      expect(distance2D(a.shape, a.pose, b.shape, b.pose).distance).toBe(0);
      const corner = rectFromMinMax({ x: off + s, y: off + s }, { x: off + 2 * s, y: off + 2 * s });
      expect(intersects2D(a.shape, a.pose, corner.shape, corner.pose)).toBe(true);
      const gap = rectFromMinMax(
        { x: off + s + 1e-9 * Math.max(s, off), y: off },
        { x: off + 3 * s, y: off + s },
      );
      expect(intersects2D(a.shape, a.pose, gap.shape, gap.pose)).toBe(false);
      // Same boxes as rotated polygons (the SAT path) and as circles.
      const pa = orientedRect({ x: off, y: off }, { x: s, y: s }, Math.PI / 4);
      const pb = orientedRect({ x: off + 2 * s * Math.SQRT2, y: off }, { x: s, y: s }, Math.PI / 4);
      const d = distance2D(pa.shape, pa.pose, pb.shape, pb.pose).distance;
      expect(d).toBeLessThan(1e-9 * Math.max(s, off));
      const c1 = circleAt({ x: off, y: off }, s);
      const c2 = circleAt({ x: off + 2 * s, y: off }, s);
      expect(intersects2D(c1.shape, c1.pose, c2.shape, c2.pose)).toBe(true);
    });
  }

  it("parallel edges, collinear segments and coincident centres give finite contacts", () => {
    const id = pose2.identity();
    const seg = makeSegment({ x: -1, y: 0 }, { x: 1, y: 0 });
    const c = contact2D(seg, id, seg, pose2.fromAngle(0.5, 0));
    expect(c?.distance).toBe(0);
    expect(contact2D(seg, id, seg, pose2.fromAngle(2.5, 0))).toBeNull();
    expect(distance2D(seg, id, seg, pose2.fromAngle(2.5, 0)).distance).toBeCloseTo(0.5, 14);
    const circle = makeCircle(1);
    const cc = contact2D(circle, id, circle, id);
    expect(cc?.distance).toBe(-2);
    expect(cc?.normal).toEqual({ x: 1, y: 0 });
    const cap = makeCapsule({ x: -1, y: 0 }, { x: 1, y: 0 }, 0.5);
    const capc = contact2D(cap, id, cap, id);
    expect(capc?.distance).toBe(-1);
    const tri = makePolygon([
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 0, y: 1 },
    ]);
    const tc = contact2D(tri, id, tri, id);
    expect(tc).not.toBeNull();
    expect(Number.isFinite(tc?.distance)).toBe(true);
  });
});

describe("manifolds (incident edge clipped against the reference edge)", () => {
  it("a box resting on a box gives 2 points on both surfaces", () => {
    const floor = rectFromMinMax({ x: -5, y: -1 }, { x: 5, y: 0 });
    const box = orientedRect({ x: 0.3, y: 0.49 }, { x: 0.5, y: 0.5 }, 0);
    const m = manifold2D(floor.shape, floor.pose, box.shape, box.pose);
    expect(m?.count).toBe(2);
    expect(m?.normal.x).toBeCloseTo(0, 14);
    expect(m?.normal.y).toBeCloseTo(1, 14);
    for (let i = 0; i < (m?.count ?? 0); i++) {
      const p = m?.points[i];
      expect(p?.distance).toBeCloseTo(-0.01, 12);
      expect(p?.pointA.y).toBeCloseTo(0, 12);
      expect(p?.pointB.y).toBeCloseTo(-0.01, 12);
    }
    expect(m?.points[0].pointA.x).toBeCloseTo(-0.2, 12);
    expect(m?.points[1].pointA.x).toBeCloseTo(0.8, 12);
  });

  it("a box standing on its corner gives 1 point; a capsule lying on a box gives 2", () => {
    const floor = rectFromMinMax({ x: -5, y: -1 }, { x: 5, y: 0 });
    const box = orientedRect({ x: 0, y: Math.SQRT1_2 - 0.01 }, { x: 0.5, y: 0.5 }, Math.PI / 4);
    expect(manifold2D(floor.shape, floor.pose, box.shape, box.pose)?.count).toBe(1);
    const cap = makeCapsule({ x: -1, y: 0 }, { x: 1, y: 0 }, 0.25);
    const m = manifold2D(floor.shape, floor.pose, cap, pose2.fromAngle(0, 0.2));
    expect(m?.count).toBe(2);
    expect(m?.points[0].distance).toBeCloseTo(-0.05, 12);
  });

  it("every manifold point lies on both shapes within its distance, the deepest matches the contact", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(1), shapeArb(), poseArb(1), (a, pa, b, pb) => {
        const m = manifold2D(a, pa, b, pb, 0.1);
        const c = contact2D(a, pa, b, pb, 0.1);
        expect(m === null).toBe(c === null);
        if (!m || !c) return;
        const s = scaleOf(a, b) + 1;
        expect(m.count).toBeGreaterThanOrEqual(1);
        expect(m.count).toBeLessThanOrEqual(2);
        let deepest = Infinity;
        for (let i = 0; i < m.count; i++) {
          const p = m.points[i];
          deepest = Math.min(deepest, p.distance);
          expect(p.distance).toBeLessThanOrEqual(0.1 + 1e-3);
          // Witnesses sit on (or, when penetrating, inside) their shapes.
          expect(distToShape(a, pa, [p.pointA.x, p.pointA.y])).toBeLessThan(1e-6 * s);
          expect(distToShape(b, pb, [p.pointB.x, p.pointB.y])).toBeLessThan(1e-6 * s);
        }
        expect(deepest).toBeGreaterThanOrEqual(c.distance - 1e-6 * s);
      }),
      { numRuns: 300 },
    );
  });
});
