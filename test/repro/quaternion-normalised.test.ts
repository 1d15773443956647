/**
 * Finding of a fresh user (attack-t): a quaternion within UNIT_QUATERNION_TOLERANCE (1e-6) of unit
 * length was accepted and then used raw, so the rotation it applied was not rigid: a long shape
 * turned by it grew by up to 2·1e-6 of its length. A cylinder of half height 1e6 turned by
 * 90° about z with |q| = 1 + 9e-7 was 3.866 from a sphere 2 away (pointB 2.6 off the sphere).
 * Wanted (as Rapier and Jolt do): an accepted quaternion is normalised before use everywhere — the
 * pair queries, casts, rays, point projection, the world's bodies (stored normalised) and a
 * compound's children; one beyond the tolerance is still refused.
 *
 * Oracle (hand-derived): 90° about z takes local +y to world −x, so a cylinder, cone or box of
 * half height H along y, turned, reaches x = ±H; a unit sphere centred at x = H + 3 is 2 from the
 * cylinder, the cone's base disc and the box (half extents 1, H, 1), and 1 from a capsule of
 * radius 1 on the segment y ∈ [−H, H]. Tolerance: docs/FORMATS.md's distance accuracy,
 * 1e-9·d + 64·ε·L with L ≈ 2H.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UNIT_QUATERNION_TOLERANCE } from "../../src/constants.js";
import { distance2D } from "../../src/dim2/contact2.js";
import { makeCircle, makeRect } from "../../src/dim2/shapes.js";
import { CollisionWorld2D } from "../../src/dim2/world2.js";
import { CollideError } from "../../src/errors.js";
import {
  CollisionWorld,
  castShapes,
  contact,
  distance,
  intersects,
  makeCapsule,
  makeCompound,
  makeCone,
  makeCuboid,
  makeCylinder,
  makeSphere,
  projectPoint,
  raycast,
} from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import type { Isometry } from "../../src/math/isometry.js";
import type { Quat } from "../../src/math/quat.js";
import type { Shape } from "../../src/shapes/shape.js";
import { unitQuatOf } from "../fuzz/arbitraries.js";

const I: Quat = { x: 0, y: 0, z: 0, w: 1 };
const at = (x: number, rotation: Quat = I, y = 0, z = 0): Isometry => ({
  translation: { x, y, z },
  rotation,
});
/** 90° about z, its length scaled by 1 + e. */
const quarterZ = (e: number): Quat => {
  const k = Math.SQRT1_2 * (1 + e);
  return { x: 0, y: 0, z: k, w: k };
};
const bar = (d: number, h: number) => 1e-9 * d + 64 * Number.EPSILON * 2 * h;
const OFF = [9e-7, -9e-7, 5e-7];
const SCALES = [1, 1e3, 1e6];

function turned(h: number): [string, Shape, number][] {
  return [
    ["cylinder", makeCylinder(h, 1), 2],
    ["cone", makeCone(h, 1), 2],
    ["box", makeCuboid({ x: 1, y: h, z: 1 }), 2],
    ["capsule", makeCapsule({ x: 0, y: -h, z: 0 }, { x: 0, y: h, z: 0 }, 1), 1],
  ];
}

describe("a quaternion within the tolerance is normalised before use (attack-t)", () => {
  it("pair queries: the turned shape is at its hand-derived distance at every scale", () => {
    const ball = makeSphere(1);
    for (const h of SCALES) {
      for (const e of OFF) {
        for (const [name, s, want] of turned(h)) {
          const pa = at(0, quarterZ(e));
          const pb = at(h + 3);
          const d = distance(s, pa, ball, pb);
          expect(Math.abs(d.distance - want), `${name} H=${h} e=${e}`).toBeLessThanOrEqual(
            bar(want, h),
          );
          // pointB on the sphere's surface.
          const r = Math.hypot(d.pointB.x - (h + 3), d.pointB.y, d.pointB.z);
          expect(Math.abs(r - 1), `${name} pointB`).toBeLessThanOrEqual(bar(1, h));
          const c = contact(s, pa, ball, pb, 10);
          expect(c).not.toBeNull();
          expect(Math.abs((c?.distance ?? 0) - want)).toBeLessThanOrEqual(bar(want, h));
          expect(intersects(s, pa, ball, pb)).toBe(false);
          // The caller's object is never written.
          expect(pa.rotation).toEqual(quarterZ(e));
        }
      }
    }
  });

  it("the ray, the point projection and the cast see the rigid rotation", () => {
    for (const h of SCALES) {
      const cyl = makeCylinder(h, 1);
      const pose = at(0, quarterZ(9e-7));
      const hit = raycast(cyl, pose, { x: h + 10, y: 0, z: 0 }, { x: -1, y: 0, z: 0 }, 100);
      expect(Math.abs((hit?.toi ?? 0) - 10)).toBeLessThanOrEqual(bar(10, h));
      const p = projectPoint(cyl, pose, { x: h + 4, y: 0, z: 0 });
      expect(Math.abs(p.point.x - h)).toBeLessThanOrEqual(bar(1, h));
      const cast = castShapes(
        cyl,
        pose,
        { x: 0, y: 0, z: 0 },
        makeSphere(1),
        at(h + 3),
        { x: -1, y: 0, z: 0 },
        10,
      );
      expect(Math.abs((cast?.toi ?? 0) - 2)).toBeLessThanOrEqual(bar(2, h));
    }
  });

  it("the world stores the normalised rotation (addBody, setPose, setPoses) and collides with it", () => {
    for (const h of SCALES) {
      const w = new CollisionWorld();
      const q = quarterZ(9e-7);
      const n = Math.hypot(q.x, q.y, q.z, q.w);
      const cyl = w.addBody({ shape: makeCylinder(h, 1), pose: at(0, q) });
      // 1.5 apart for the rigid rotation; overlapping by ~0.3 at H = 1e6 with the raw one.
      const ball = w.addBody({ shape: makeSphere(1), pose: at(h + 2.5) });
      const stored = w.getPose(cyl).rotation;
      expect(Math.abs(stored.z - q.z / n)).toBeLessThanOrEqual(2 * Number.EPSILON);
      expect(Math.abs(stored.w - q.w / n)).toBeLessThanOrEqual(2 * Number.EPSILON);
      w.step();
      expect(w.contacts().length, `H=${h}`).toBe(0);
      w.setPose(ball, at(h + 0.5));
      w.step();
      const c = w.contacts();
      expect(c.length).toBe(1);
      expect(Math.abs(c[0].distance + 0.5)).toBeLessThanOrEqual(bar(0.5, h));
      w.setPose(cyl, at(0, quarterZ(-9e-7)));
      expect(Math.abs(Math.hypot(...Object.values(w.getPose(cyl).rotation)) - 1)).toBeLessThan(
        4 * Number.EPSILON,
      );
      const q2 = quarterZ(7e-7);
      w.setPoses([cyl], new Float64Array([0, 0, 0, q2.x, q2.y, q2.z, q2.w]));
      const r = w.getPose(cyl).rotation;
      expect(Math.abs(Math.hypot(r.x, r.y, r.z, r.w) - 1)).toBeLessThan(4 * Number.EPSILON);
      w.setPose(ball, at(h + 2.5));
      w.step();
      expect(w.contacts().length).toBe(0);
    }
  });

  it("a compound keeps its children's poses normalised", () => {
    const h = 1e6;
    const comp = makeCompound([{ shape: makeCylinder(h, 1), pose: at(0, quarterZ(9e-7)) }]);
    const r = comp.children[0].pose.rotation;
    expect(Math.abs(Math.hypot(r.x, r.y, r.z, r.w) - 1)).toBeLessThan(4 * Number.EPSILON);
    const d = distance(comp, at(0), makeSphere(1), at(h + 3)).distance;
    expect(Math.abs(d - 2)).toBeLessThanOrEqual(bar(2, h));
  });

  it("the command answers the attack's line with the normalised quaternion's distance", () => {
    for (const h of SCALES) {
      const k = 0.7071074175546463; // √½ · (1 + 9e-7)
      const ans = answerQuery({
        op: "distance",
        a: {
          type: "cylinder",
          center: [0, 0, 0],
          halfHeight: h,
          radius: 1,
          rotation: [0, 0, k, k],
        },
        b: { type: "sphere", center: [h + 3, 0, 0], radius: 1 },
      }) as { distance: number };
      expect(Math.abs(ans.distance - 2), `H=${h}`).toBeLessThanOrEqual(bar(2, h));
    }
  });

  it("2D: a rotation {c, s} within the tolerance (on its length, as a quaternion's) is normalised", () => {
    // 90°: local +y to world −x; a rect of half extents (1, H) reaches x = ±H; a unit circle at
    // x = H + 3 is 2 away. |(c, s)| = 1 + 9e-7 (its square off by 1.8e-6) is accepted as in 3D.
    for (const h of SCALES) {
      const q = { c: 0, s: 1 + 9e-7 };
      const d = distance2D(makeRect({ x: 1, y: h }), { p: { x: 0, y: 0 }, q }, makeCircle(1), {
        p: { x: h + 3, y: 0 },
        q: { c: 1, s: 0 },
      });
      expect(Math.abs(d.distance - 2), `H=${h}`).toBeLessThanOrEqual(bar(2, h));
      expect(q.s).toBe(1 + 9e-7);
      const w = new CollisionWorld2D();
      const r = w.addBody({ shape: makeRect({ x: 1, y: h }), pose: { p: { x: 0, y: 0 }, q } });
      expect(w.getPose(r).q.s).toBe(1);
    }
  });

  it("beyond the tolerance stays a CollideError", () => {
    const bad = at(0, quarterZ(2 * UNIT_QUATERNION_TOLERANCE));
    expect(() => distance(makeSphere(1), bad, makeSphere(1), at(3))).toThrow(CollideError);
    expect(() => new CollisionWorld().addBody({ shape: makeSphere(1), pose: bad })).toThrow(
      CollideError,
    );
  });

  it("property: a perturbed-within-tolerance quaternion answers as the exactly normalised one", () => {
    const coord = fc.double({ min: -4, max: 4, noNaN: true });
    const unit = unitQuatOf(coord);
    const shapes = [
      makeCuboid({ x: 2, y: 0.5, z: 1 }),
      makeCylinder(3, 0.5),
      makeCapsule({ x: -2, y: 0, z: 0 }, { x: 2, y: 0, z: 0 }, 0.3),
      makeCone(2, 1),
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: shapes.length - 1 }),
        fc.integer({ min: 0, max: shapes.length - 1 }),
        unit,
        unit,
        fc.double({
          min: -0.99 * UNIT_QUATERNION_TOLERANCE,
          max: 0.99 * UNIT_QUATERNION_TOLERANCE,
        }),
        fc.tuple(coord, coord, coord),
        (i, j, qa, qb, e, [x, y, z]) => {
          const s = 1 + e;
          const raw = { x: qa.x * s, y: qa.y * s, z: qa.z * s, w: qa.w * s };
          const n = Math.hypot(raw.x, raw.y, raw.z, raw.w);
          const exact = { x: raw.x / n, y: raw.y / n, z: raw.z / n, w: raw.w / n };
          const pb = at(x, qb, y, z);
          const a = shapes[i];
          const b = shapes[j];
          const dRaw = distance(a, at(0, raw), b, pb).distance;
          const dExact = distance(a, at(0, exact), b, pb).distance;
          expect(Math.abs(dRaw - dExact)).toBeLessThanOrEqual(1e-12 * Math.max(1, dExact));
          expect(intersects(a, at(0, raw), b, pb)).toBe(intersects(a, at(0, exact), b, pb));
          const cRaw = contact(a, at(0, raw), b, pb, 1);
          const cExact = contact(a, at(0, exact), b, pb, 1);
          expect(cRaw === null).toBe(cExact === null);
          if (cRaw && cExact) {
            expect(Math.abs(cRaw.distance - cExact.distance)).toBeLessThanOrEqual(
              1e-12 * Math.max(1, Math.abs(cExact.distance)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
