/**
 * 2D queries at any scale (issue 16, "exact to the last bit"; session 15, fresh2d). The 2D
 * routines square lengths, which overflow above about 1e154 and underflow below about 1e-154:
 * a 1e160 circle was hit at the wrong time, a 1e154 direction that misses hit at toi 1e-153, a
 * 1e-170 direction that hits missed, a point just outside a 1e200 polygon's corner was "inside",
 * and a unit circle 2 away from a 1e200 polygon was at another distance. The queries now change
 * units by powers of two (exact), so an answer at scale 2^e is the unit-scale answer times 2^e:
 * the properties below check that over 2^±990 against the unit answers (themselves checked
 * against oracles in test/dim2/), and the hand-derived cases check the values themselves.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { castShapes2D } from "../../src/dim2/cast-shapes2.js";
import { contact2D, distance2D, intersects2D } from "../../src/dim2/contact2.js";
import type { Pose2 } from "../../src/dim2/pose2.js";
import * as pose2 from "../../src/dim2/pose2.js";
import { projectPoint2D } from "../../src/dim2/project-point2.js";
import { castRay2D } from "../../src/dim2/raycast2.js";
import {
  makeCapsule,
  makeCircle,
  makePolygon,
  makeRect,
  makeSegment,
  polygonAt,
  type Shape2,
  ShapeType2,
} from "../../src/dim2/shapes.js";
import { CollideError } from "../../src/errors.js";
import { answerQuery } from "../../src/io/query.js";
import { answerQuery2D } from "../../src/io/query-2d.js";
import { registerPair } from "../../src/narrowphase/pair-table.js";
import { num, poseArb, shapeArb } from "../dim2/arbitraries.js";

const P = (x: number, y = 0, a = 0): Pose2 => pose2.fromAngle(x, y, a);

/** `s` rebuilt by its constructor with every length multiplied by `k` (a power of two). */
function scaled(s: Shape2, k: number): Shape2 {
  switch (s.type) {
    case ShapeType2.Circle:
      return makeCircle(s.radius * k);
    case ShapeType2.Rect:
      return makeRect({ x: s.halfExtents.x * k, y: s.halfExtents.y * k });
    case ShapeType2.Polygon: {
      const pts = [];
      const v = s.core.verts;
      for (let i = 0; i < s.core.count; i++) pts.push({ x: v[2 * i] * k, y: v[2 * i + 1] * k });
      return makePolygon(pts);
    }
    case ShapeType2.Capsule:
      return makeCapsule(
        { x: s.a.x * k, y: s.a.y * k },
        { x: s.b.x * k, y: s.b.y * k },
        s.radius * k,
      );
    case ShapeType2.Segment:
      return makeSegment({ x: s.a.x * k, y: s.a.y * k }, { x: s.b.x * k, y: s.b.y * k });
  }
}

const scaledPose = (p: Pose2, k: number): Pose2 => ({
  p: { x: p.p.x * k, y: p.p.y * k },
  q: { c: p.q.c, s: p.q.s },
});

/**
 * `x` (a far answer brought back to unit scale) equals `y` (the unit-scale answer) to 1e-13
 * relative, plus 1e-20 absolute: at 2^-990 a unit-scale coordinate below 2^-32 is subnormal and
 * keeps fewer bits (2^-1074 · 2^990 ≈ 5e-26 in unit terms), which no change of units can restore.
 */
function same(x: number, y: number): void {
  expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-13 * Math.max(Math.abs(x), Math.abs(y)) + 1e-20);
}

const exponent = fc.integer({ min: -990, max: 990 });

describe("2D ray casts at any scale", () => {
  it("a 1e160 circle: toi 2.2e160 at (−0.8e160, 0.6e160), normal (−0.8, 0.6) (by hand)", () => {
    // Origin (−3e160, 0.6e160), direction +x: the line y = 0.6e160 enters the disc of radius
    // 1e160 at x = −√(1 − 0.36)·1e160 = −0.8e160, 2.2e160 after the origin.
    const hit = castRay2D(
      makeCircle(1e160),
      P(0),
      { x: -3e160, y: 0.6e160 },
      { x: 1, y: 0 },
      1e300,
    );
    expect(hit).not.toBeNull();
    same(hit?.toi as number, 2.2e160);
    same(hit?.point.x as number, -0.8e160);
    same(hit?.point.y as number, 0.6e160);
    same(hit?.normal.x as number, -0.8);
    same(hit?.normal.y as number, 0.6);
    // The circle at (2e160, 0) from the origin: toi 1e160 (main said 2e160 with a zero normal).
    const h2 = castRay2D(makeCircle(1e160), P(2e160), { x: 0, y: 0 }, { x: 1, y: 0 }, Infinity);
    expect(h2?.toi).toBe(1e160);
    expect(h2?.normal).toEqual({ x: -1, y: 0 });
  });

  it("a direction of length 1e154 that misses misses (main: toi 1e-153)", () => {
    // The line y = 5 passes 5 from the unit circle's centre.
    expect(castRay2D(makeCircle(1), P(0), { x: -10, y: 5 }, { x: 1e154, y: 0 }, 1)).toBeNull();
    expect(
      castRay2D(makeCircle(1), P(0), { x: -10, y: 0.5 }, { x: 1e154, y: 0 }, 1),
    ).not.toBeNull();
  });

  it("a direction of length 1e-170 hits at toi 9e170 (main: null)", () => {
    const hit = castRay2D(makeCircle(1), P(0), { x: -10, y: 0 }, { x: 1e-170, y: 0 }, Infinity);
    // toi = 9 / fl(1e-170), to the rounding of the quadratic.
    same(hit?.toi as number, 9 / 1e-170);
    expect(hit?.point).toEqual({ x: -1, y: 0 });
    // A capsule (0,0)–(1,0) of radius 1 from (−10, 0.5): enters the end disc at x = −√0.75.
    const cap = makeCapsule({ x: 0, y: 0 }, { x: 1, y: 0 }, 1);
    const h2 = castRay2D(cap, P(0), { x: -10, y: 0.5 }, { x: 1e-170, y: 0 }, Infinity);
    same(h2?.toi as number, (10 - Math.sqrt(0.75)) / 1e-170);
  });

  it("the hit at scale 2^e with a direction scaled by 2^f is the unit hit, toi × 2^(e−f)", () => {
    fc.assert(
      fc.property(
        shapeArb(1),
        poseArb(2),
        fc.record({ x: num(-4, 4), y: num(-4, 4) }),
        fc.record({ x: num(-1, 1), y: num(-1, 1) }),
        fc.boolean(),
        exponent,
        fc.integer({ min: -1000, max: 1000 }),
        (shape, pose, o, d, solid, e, g) => {
          if (d.x === 0 && d.y === 0) return;
          // f within 2^±990 with e − f = g: the toi scales by 2^g, within the range of doubles.
          const f = Math.max(-990, Math.min(990, e - g));
          const k = 2 ** e;
          const kd = 2 ** f;
          const unit = castRay2D(shape, pose, o, d, Infinity, solid);
          const far = castRay2D(
            scaled(shape, k),
            scaledPose(pose, k),
            { x: o.x * k, y: o.y * k },
            { x: d.x * kd, y: d.y * kd },
            Infinity,
            solid,
          );
          expect(far === null).toBe(unit === null);
          if (unit === null || far === null) return;
          same(far.toi / 2 ** (e - f), unit.toi);
          same(far.point.x / k, unit.point.x);
          same(far.point.y / k, unit.point.y);
          same(far.normal.x, unit.normal.x);
          same(far.normal.y, unit.normal.y);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("2D point projection at any scale", () => {
  it("a point just outside a 1e200 square's corner projects on the corner (main: inside)", () => {
    const sq = [
      [0, 0],
      [1e200, 0],
      [1e200, 1e200],
      [0, 1e200],
    ];
    const shape = { type: "polygon", points: sq };
    expect(answerQuery2D({ op: "projectPoint", dim: 2, shape, point: [-1, -2] })).toEqual({
      point: [0, 0],
      distance: Math.sqrt(5),
      inside: false,
    });
    const r = answerQuery2D({ op: "projectPoint", dim: 2, shape, point: [-1e199, -1e199] }) as {
      point: number[];
      distance: number;
    };
    expect(r.point).toEqual([0, 0]);
    same(r.distance, Math.SQRT2 * 1e199);
  });

  it("a 1e200 capsule: (−3e200, 4e200) projects to (−0.6e200, 0.8e200) at 4e200", () => {
    // Closest core point (0, 0), 5e200 away; minus the radius 1e200 along (−0.6, 0.8).
    const r = answerQuery2D({
      op: "projectPoint",
      dim: 2,
      shape: { type: "capsule", a: [0, 0], b: [1e200, 0], radius: 1e200 },
      point: [-3e200, 4e200],
    }) as { point: number[]; distance: number; inside: boolean };
    same(r.point[0], -0.6e200);
    same(r.point[1], 0.8e200);
    same(r.distance, 4e200);
    expect(r.inside).toBe(false);
  });

  it("the projection at scale 2^e is the unit projection times 2^e", () => {
    fc.assert(
      fc.property(
        shapeArb(1),
        poseArb(2),
        fc.record({ x: num(-4, 4), y: num(-4, 4) }),
        fc.boolean(),
        exponent,
        (shape, pose, p, solid, e) => {
          const k = 2 ** e;
          const unit = projectPoint2D(shape, pose, p, solid);
          const far = projectPoint2D(
            scaled(shape, k),
            scaledPose(pose, k),
            {
              x: p.x * k,
              y: p.y * k,
            },
            solid,
          );
          expect(far.inside).toBe(unit.inside);
          same(far.distance / k, unit.distance);
          same(far.point.x / k, unit.point.x);
          same(far.point.y / k, unit.point.y);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("2D pair queries with a shape beyond 1e154", () => {
  const bigSquare = [
    [-1e200, -1e200],
    [0, -1e200],
    [0, 0],
    [-1e200, 0],
  ];
  const a = { type: "polygon", points: bigSquare };

  it("a unit circle 2 from a 1e200 polygon's edge: distance 2 (main: rejected polygon / wrong)", () => {
    const b = { type: "circle", center: [3, 0], radius: 1 };
    expect(answerQuery2D({ op: "distance", dim: 2, a, b })).toEqual({
      distance: 2,
      pointA: [0, 0],
      pointB: [2, 0],
    });
  });

  it("a unit circle overlapping the edge by 0.5: contact −0.5, intersects (main: null)", () => {
    const b = { type: "circle", center: [0.5, -3], radius: 1 };
    expect(answerQuery2D({ op: "contact", dim: 2, a, b })).toEqual({
      distance: -0.5,
      normal: [1, 0],
      pointA: [0, -3],
      pointB: [-0.5, -3],
    });
    expect(answerQuery2D({ op: "intersects", dim: 2, a, b })).toEqual({ intersects: true });
  });

  it("a unit circle moving at speed 1 toward the edge 2 away: toi 2 (main: 0)", () => {
    const b = { type: "circle", center: [3, -5], radius: 1 };
    const r = answerQuery2D({
      op: "castShapes",
      dim: 2,
      a,
      velocityA: [0, 0],
      b,
      velocityB: [-1, 0],
      maxToi: 10,
    }) as { toi: number; normal: number[] };
    expect(Math.abs(r.toi - 2)).toBeLessThanOrEqual(2e-9);
    expect(r.normal).toEqual([1, 0]);
  });

  it("a ±1e308 square is accepted and answers (main: 'repeats points[0]')", () => {
    const huge = polygonAt([
      { x: -1e308, y: -1e308 },
      { x: 1e308, y: -1e308 },
      { x: 1e308, y: 1e308 },
      { x: -1e308, y: 1e308 },
    ]);
    const p = projectPoint2D(huge.shape, huge.pose, { x: 1, y: 5 });
    expect(p).toEqual({ point: { x: 1, y: 5 }, distance: 0, inside: true });
    // Circle of radius 1e308 at (1e308, 1e308) and a unit circle at the origin: 1e308·(√2 − 1) − 1.
    const d = distance2D(makeCircle(1), P(0), makeCircle(1e308), P(1e308, 1e308));
    same(d.distance, 1e308 * (Math.SQRT2 - 1));
  });

  it("distance, contact, intersects and castShapes at scale 2^e are the unit answers × 2^e", () => {
    fc.assert(
      fc.property(
        shapeArb(1),
        poseArb(2),
        shapeArb(1),
        poseArb(2),
        fc.record({ x: num(-2, 2), y: num(-2, 2) }),
        exponent,
        (sa, pa, sb, pb, v, e) => {
          const k = 2 ** e;
          const ka = scaled(sa, k);
          const kb = scaled(sb, k);
          const kpa = scaledPose(pa, k);
          const kpb = scaledPose(pb, k);
          expect(intersects2D(ka, kpa, kb, kpb)).toBe(intersects2D(sa, pa, sb, pb));
          const d = distance2D(sa, pa, sb, pb);
          const kd = distance2D(ka, kpa, kb, kpb);
          same(kd.distance / k, d.distance);
          same(kd.pointA.x / k, d.pointA.x);
          same(kd.pointB.y / k, d.pointB.y);
          const c = contact2D(sa, pa, sb, pb, 0.5);
          const kc = contact2D(ka, kpa, kb, kpb, 0.5 * k);
          expect(kc === null).toBe(c === null);
          if (c !== null && kc !== null) {
            same(kc.distance / k, c.distance);
            same(kc.normal.x, c.normal.x);
            same(kc.pointA.y / k, c.pointA.y);
          }
          const t = castShapes2D(sa, pa, { x: 0, y: 0 }, sb, pb, v, 4);
          const kt = castShapes2D(ka, kpa, { x: 0, y: 0 }, kb, kpb, { x: v.x * k, y: v.y * k }, 4);
          expect(kt === null).toBe(t === null);
          if (t !== null && kt !== null) {
            same(kt.toi, t.toi);
            same(kt.pointB.x / k, t.pointB.x);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("messages at the ends of the range name the user's field and value", () => {
  /** The error of a query line (fails the test when the line answers). */
  function lineError(line: object, answer: (q: unknown) => unknown): CollideError {
    try {
      answer(line);
    } catch (e) {
      expect(e).toBeInstanceOf(CollideError);
      return e as CollideError;
    }
    throw new Error("expected a CollideError, got an answer");
  }

  it("a ±1e308 triangle: a.a is refused at the coordinate limit 2^1023, quoting [−1e308, −1e308, 0] (main: Infinity)", () => {
    // Session 37: every shape's coordinates in its own frame are below MESH_COORDINATE_LIMIT
    // (2^1023), so the corners' differences stay finite; the first corner past it is named (before,
    // a.b was refused as too far from a.a).
    const tri = {
      type: "triangle",
      a: [-1e308, -1e308, 0],
      b: [1e308, -1e308, 0],
      c: [0, 1e308, 0],
    };
    const e = lineError(
      { op: "distance", a: tri, b: { type: "sphere", center: [0, 0, 5], radius: 1 } },
      answerQuery,
    );
    expect(e.field).toBe("a.a");
    expect(e.value).toEqual([-1e308, -1e308, 0]);
    expect(e.message).toContain("2^1023");
    expect(e.message).not.toContain("Infinity");
  });

  it("pairs: a body out of the world's range names shapes[i].center, not body.pose.p", () => {
    const e = lineError(
      {
        op: "pairs",
        dim: 2,
        shapes: [
          { type: "circle", center: [0, 0], radius: 1 },
          { type: "circle", center: [1e308, 0], radius: 1 },
        ],
      },
      answerQuery2D,
    );
    expect(e.field).toBe("shapes[1].center");
    expect(e.value).toEqual([1e308, 0]);
    expect(e.message).not.toContain("body.pose");
  });

  it("a ray or a point past the range of doubles from the shape is refused, not 'inside'", () => {
    const shape = { type: "circle", center: [-1e308, 0], radius: 1 };
    const ray = { op: "raycast", dim: 2, shape, origin: [1e308, 0], direction: [-1, 0], maxToi: 1 };
    const e = lineError(ray, answerQuery2D);
    expect(e.field).toBe("origin");
    expect(e.message).toContain("too far from shape.center");
    const pp = lineError({ op: "projectPoint", dim: 2, shape, point: [1e308, 0] }, answerQuery2D);
    expect(pp.field).toBe("point");
    // The library names its own arguments.
    const lib = (() => {
      try {
        castRay2D(makeCircle(1), P(-1e308), { x: 1e308, y: 0 }, { x: -1, y: 0 }, 1);
      } catch (err) {
        return err as CollideError;
      }
      return null;
    })();
    expect(lib?.field).toBe("origin");
  });

  it("registerPair(0, 1, null) is a CollideError naming fns (main: a TypeError)", () => {
    for (const fns of [null, undefined, 5]) {
      let err: unknown = null;
      try {
        registerPair(0 as never, 1 as never, fns as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CollideError);
      expect((err as CollideError).field).toBe("fns");
    }
  });
});
