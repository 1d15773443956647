import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castShapes2D } from "../../src/dim2/cast-shapes2.js";
import { distance2D, intersects2D } from "../../src/dim2/contact2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { projectPoint2D } from "../../src/dim2/project-point2.js";
import { castRay2D } from "../../src/dim2/raycast2.js";
import { makeCircle, makeSegment, rectFromMinMax, ShapeType2 } from "../../src/dim2/shapes.js";
import { num, poseArb, shapeArb } from "./arbitraries.js";
import { distToShape, outline, scaleOf } from "./oracle.js";

const vec = fc.record({ x: num(-1, 1), y: num(-1, 1) });

describe("ray casts against dense sampling", () => {
  it("the first hit is where marching along the ray first enters the shape", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(1), vec, vec, (shape, pose, o, d) => {
        if (Math.hypot(d.x, d.y) < 1e-3) return;
        const origin = { x: 4 * o.x, y: 4 * o.y };
        const maxToi = 10;
        const hit = castRay2D(shape, pose, origin, d, maxToi);
        const s = scaleOf(shape) + 1;
        const dl = Math.hypot(d.x, d.y);
        const step = 1e-3 / dl;
        // Oracle: march the ray with a small step; segments have no area, so use a distance band.
        const band = shape.type === ShapeType2.Segment ? 2e-3 : 0;
        let first = -1;
        for (let t = 0; t <= maxToi + step; t += step) {
          if (distToShape(shape, pose, [origin.x + d.x * t, origin.y + d.y * t]) <= band) {
            first = t;
            break;
          }
        }
        if (hit === null) {
          // Missed: marching finds nothing either (up to grazing within the step).
          if (first >= 0) {
            const p: [number, number] = [origin.x + d.x * first, origin.y + d.y * first];
            expect(distToShape(shape, pose, p)).toBeLessThanOrEqual(2e-3 * s);
          }
          return;
        }
        expect(hit.toi).toBeGreaterThanOrEqual(0);
        expect(hit.toi).toBeLessThanOrEqual(maxToi);
        expect(distToShape(shape, pose, [hit.point.x, hit.point.y])).toBeLessThan(1e-9 * s);
        if (shape.type !== ShapeType2.Segment) {
          expect(first).toBeGreaterThanOrEqual(0);
          expect(Math.abs(first - hit.toi)).toBeLessThanOrEqual(step * 1.01 + 1e-9);
        }
        if (hit.toi > 0) {
          expect(Math.hypot(hit.normal.x, hit.normal.y)).toBeCloseTo(1, 12);
          // The normal faces the ray's origin.
          expect(hit.normal.x * d.x + hit.normal.y * d.y).toBeLessThanOrEqual(1e-12);
        } else {
          expect(hit.normal).toEqual({ x: 0, y: 0 });
        }
      }),
      { numRuns: 200 },
    );
  });

  it("from inside: solid gives toi 0, non-solid gives the exit with the outward normal", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(1), vec, (shape, pose, d) => {
        if (Math.hypot(d.x, d.y) < 1e-3 || shape.type === ShapeType2.Segment) return;
        const origin = { x: pose.p.x, y: pose.p.y };
        if (distToShape(shape, pose, [origin.x, origin.y]) > 0) return;
        const solid = castRay2D(shape, pose, origin, d, 1e6);
        expect(solid?.toi).toBe(0);
        const exit = castRay2D(shape, pose, origin, d, 1e6, false);
        expect(exit).not.toBeNull();
        if (!exit) return;
        const s = scaleOf(shape) + 1;
        expect(distToShape(shape, pose, [exit.point.x, exit.point.y])).toBeLessThan(1e-9 * s);
        const beyond: [number, number] = [exit.point.x + d.x * 1e-6, exit.point.y + d.y * 1e-6];
        expect(distToShape(shape, pose, beyond)).toBeGreaterThan(0);
        expect(exit.normal.x * d.x + exit.normal.y * d.y).toBeGreaterThanOrEqual(-1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it("hand-derived hits: box face, segment facing the origin, parallel ray along an edge", () => {
    const box = rectFromMinMax({ x: 1, y: -1 }, { x: 3, y: 1 });
    const h = castRay2D(box.shape, box.pose, { x: 0, y: 0 }, { x: 2, y: 0 }, 10);
    expect(h).toEqual({ toi: 0.5, point: { x: 1, y: 0 }, normal: { x: -1, y: 0 } });
    const edge = castRay2D(box.shape, box.pose, { x: 0, y: 1 }, { x: 1, y: 0 }, 10);
    expect(edge?.toi).toBe(1);
    const seg = makeSegment({ x: 0, y: -1 }, { x: 0, y: 1 });
    const id = pose2.identity();
    const fromRight = castRay2D(seg, id, { x: 2, y: 0 }, { x: -1, y: 0 }, 10);
    expect(fromRight?.normal).toEqual({ x: 1, y: 0 });
    expect(
      castRay2D(makeCircle(1), pose2.fromAngle(1e6, 0), { x: 0, y: 0 }, { x: 1, y: 0 }, 2e6)?.toi,
    ).toBeCloseTo(1e6 - 1, 6);
  });
});

describe("projectPoint against the definitions", () => {
  it("the projection is on the shape and no sampled boundary point is closer", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(1), vec, fc.boolean(), (shape, pose, p, solid) => {
        const q = { x: 3 * p.x, y: 3 * p.y };
        const r = projectPoint2D(shape, pose, q, solid);
        const s = scaleOf(shape) + 1;
        const dist = distToShape(shape, pose, [q.x, q.y]);
        let best = Infinity;
        for (const b of outline(shape, pose, 200))
          best = Math.min(best, Math.hypot(b[0] - q.x, b[1] - q.y));
        if (dist > 1e-12 * s) expect(r.inside).toBe(false);
        // A segment has no interior: lying exactly on it is decided at rounding level.
        if (dist === 0 && best > 1e-6 * s && shape.type !== ShapeType2.Segment) {
          expect(r.inside).toBe(true);
        }
        if (r.inside && solid) {
          expect(r.distance).toBe(0);
          return;
        }
        expect(distToShape(shape, pose, [r.point.x, r.point.y])).toBeLessThan(1e-9 * s);
        expect(Math.hypot(r.point.x - q.x, r.point.y - q.y)).toBeCloseTo(r.distance, 9);
        expect(r.distance).toBeLessThanOrEqual(best + 1e-9 * s);
        if (!r.inside) expect(r.distance).toBeCloseTo(dist, 9);
      }),
      { numRuns: 200 },
    );
  });
});

describe("castShapes (conservative advancement)", () => {
  it("touches at toi, is apart just before, and agrees with bisection on intersects", () => {
    fc.assert(
      fc.property(shapeArb(), poseArb(3), shapeArb(), poseArb(3), vec, (a, pa, b, pb, v) => {
        const va = { x: 2 * v.x, y: 2 * v.y };
        const vb = { x: 0, y: 0 };
        const maxToi = 5;
        const r = castShapes2D(a, pa, va, b, pb, vb, maxToi);
        const at = (t: number) => ({ p: { x: pa.p.x + va.x * t, y: pa.p.y + va.y * t }, q: pa.q });
        const s = scaleOf(a, b) + 1;
        // Oracle: dense sampling of the intersection test over time, then bisection.
        let first = -1;
        const n = 400;
        for (let i = 0; i <= n; i++) {
          const t = (maxToi * i) / n;
          if (intersects2D(a, at(t), b, pb)) {
            first = t;
            break;
          }
        }
        if (r === null) {
          expect(first).toBe(-1);
          return;
        }
        expect(distance2D(a, at(r.toi), b, pb).distance).toBeLessThan(1e-6 * s);
        if (r.toi > 0) expect(intersects2D(a, at(r.toi * (1 - 1e-6) - 1e-9), b, pb)).toBe(false);
        if (first >= 0) expect(r.toi).toBeLessThanOrEqual(first + 1e-9);
      }),
      { numRuns: 200 },
    );
  });
});

describe("castRay2D with a zero direction (found by a fresh user, session 22)", () => {
  it("is refused naming the direction, as the 3D raycast and the 2D world refuse it", () => {
    const c = makeCircle(1);
    const pose = pose2.fromAngle(0, 0);
    for (const origin of [
      { x: -5, y: 0 },
      { x: 0, y: 0 },
    ]) {
      expect(() => castRay2D(c, pose, origin, { x: 0, y: 0 }, 10)).toThrow(
        /^direction .*must not be the zero vector/,
      );
    }
  });
});
