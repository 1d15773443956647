/**
 * Regression inputs of issue 16 on polytopes and the sphere/capsule closed forms, found by the
 * differential fuzzer (seed 16, 10^5 queries), each with its right value from an independent
 * oracle (test/fuzz/oracle-*.ts, or exact arithmetic by hand), and a property over adversarial
 * inputs for the sphere–box touching predicate.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contact, distance, intersects, makeCuboid, makeSphere } from "../../src/index.js";
import { answerQuery } from "../../src/io/query.js";
import { parseShape } from "../../src/io/shapes-json.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import type { ContactJson, DistanceJson } from "../support/answers.js";
import { pairTruth, surfaceDistance } from "./oracle-pairs.js";
import { oshape, type V } from "./oracle-shapes.js";

/** The world's verdict at prediction 0 for two JSON shapes. */
function worldTouching(a: unknown, b: unknown): boolean {
  const world = new CollisionWorld({ prediction: 0 });
  const pa = parseShape(a, "a");
  const pb = parseShape(b, "b");
  const ha = world.addBody({ shape: pa.shape, pose: pa.pose });
  const hb = world.addBody({ shape: pb.shape, pose: pb.pose });
  world.step();
  return world.isTouching(ha, hb);
}

/** intersects ⇔ distance = 0 ⇔ contact (prediction 0) ≠ null ⇔ the world's pair, both orders. */
function expectOneTruth(a: unknown, b: unknown): boolean {
  const hit = (answerQuery({ op: "intersects", a, b }) as { intersects: boolean }).intersects;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    expect(
      (answerQuery({ op: "intersects", a: x, b: y }) as { intersects: boolean }).intersects,
    ).toBe(hit);
    const d = answerQuery({ op: "distance", a: x, b: y }) as DistanceJson;
    expect(d.distance === 0).toBe(hit);
    const c = answerQuery({ op: "contact", a: x, b: y }) as ContactJson | null;
    expect(c !== null).toBe(hit);
    if (c) expect(c.distance).toBeLessThanOrEqual(0);
    expect(worldTouching(x, y)).toBe(hit);
  }
  return hit;
}

describe("issue 16: sphere–box touching decided by one predicate", () => {
  it("a box of 1e-3 touching a sphere of radius 4e5 at a corner", () => {
    // Was: intersects true, distance 2.3e-10, contact null and the world apart (the box-first
    // order took the sphere's centre out of the box's frame and back).
    const box = {
      type: "box",
      center: [0.011923544108867645, 0.01870383322238922, 0.01811768114566803],
      halfExtents: [0.0003434898613268692, 0.001150741043839818, 0.0016766568383862145],
      rotation: [
        -0.46082173190864995, -0.02946117738218466, -0.771623331368441, -0.4374617753768176,
      ],
    };
    const sphere = {
      type: "sphere",
      center: [-46250.566644580154, -339455.2032973268, -232266.83016336837],
      radius: 413904.39939834666,
    };
    // Oracle: the box's nearest corner lies on the sphere's surface to within the rounding of
    // |corner − centre| at 4e5 (64·ε·L = 5.9e-9): touching, so the answer may go either way,
    // but one way in every query (both orders, and the world).
    const B = oshape(box);
    const S = oshape(sphere);
    const signs = (B.vertices as V[]).map((v) => surfaceSigned(S, v));
    expect(Math.abs(Math.min(...signs))).toBeLessThan(64 * Number.EPSILON * 413904.39939834666);
    expect(Math.max(...signs)).toBeGreaterThan(1e-4);
    const hit = expectOneTruth(box, sphere);
    if (!hit) {
      const d = (answerQuery({ op: "distance", a: box, b: sphere }) as DistanceJson).distance;
      expect(d).toBeLessThan(64 * Number.EPSILON * 413904.39939834666);
    }
  });

  it("property: near-touching spheres of any size against small boxes agree in every query", () => {
    // Adversarial: the sphere's surface placed within a few ulps of a box corner, face or edge
    // point, radii from 1e-3 to 1e6 against boxes of 1e-3 to 1, both orders, turned boxes.
    fc.assert(
      fc.property(
        fc.double({ min: -3, max: 6, noNaN: true }),
        fc.double({ min: -3, max: 0, noNaN: true }),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        fc.integer({ min: -8, max: 8 }),
        fc.tuple(
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
          fc.double({ min: -1, max: 1, noNaN: true }),
        ),
        (lr, lh, dir, feat, ulps, q) => {
          const r = 10 ** lr;
          const s = 10 ** lh;
          const h = { x: s, y: 0.7 * s, z: 0.3 * s };
          const qn = Math.hypot(...q);
          if (!(qn > 0.1)) return;
          const rot = { x: q[0] / qn, y: q[1] / qn, z: q[2] / qn, w: q[3] / qn };
          const dn = Math.hypot(...dir);
          if (!(dn > 0.1)) return;
          // A point of the box's surface (clamped feature point), in the world.
          const local = {
            x: Math.sign(feat[0]) * h.x * Math.min(1, 2 * Math.abs(feat[0])),
            y: Math.sign(feat[1]) * h.y * Math.min(1, 2 * Math.abs(feat[1])),
            z: Math.sign(feat[2]) * h.z,
          };
          const boxPose = { translation: { x: 0.01, y: -0.02, z: 0.03 }, rotation: rot };
          const p = { x: 0, y: 0, z: 0 };
          // p = R·local + t (the box's surface point), then the centre r along dir from it.
          const ux = 2 * (rot.y * local.z - rot.z * local.y);
          const uy = 2 * (rot.z * local.x - rot.x * local.z);
          const uz = 2 * (rot.x * local.y - rot.y * local.x);
          p.x = local.x + rot.w * ux + (rot.y * uz - rot.z * uy) + 0.01;
          p.y = local.y + rot.w * uy + (rot.z * ux - rot.x * uz) - 0.02;
          p.z = local.z + rot.w * uz + (rot.x * uy - rot.y * ux) + 0.03;
          const rr = r * (1 + ulps * Number.EPSILON);
          const c = {
            x: p.x + (dir[0] / dn) * rr,
            y: p.y + (dir[1] / dn) * rr,
            z: p.z + (dir[2] / dn) * rr,
          };
          const sphere = makeSphere(r);
          const box = makeCuboid(h);
          const spherePose = { translation: c, rotation: { x: 0, y: 0, z: 0, w: 1 } };
          for (const [a, pa, b, pb] of [
            [sphere, spherePose, box, boxPose],
            [box, boxPose, sphere, spherePose],
          ] as const) {
            const hit = intersects(a, pa, b, pb);
            expect(distance(a, pa, b, pb).distance === 0).toBe(hit);
            const k = contact(a, pa, b, pb);
            expect(k !== null).toBe(hit);
            if (k) expect(k.distance).toBeLessThanOrEqual(0);
          }
          expect(intersects(sphere, spherePose, box, boxPose)).toBe(
            intersects(box, boxPose, sphere, spherePose),
          );
        },
      ),
      { numRuns: 3000, seed: 16 },
    );
  });
});

/** Signed distance of point p from the sphere's surface (oracle shape, closed form). */
function surfaceSigned(S: ReturnType<typeof oshape>, p: V): number {
  const c = S.center;
  return Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]) - S.radius;
}

describe("issue 16: flat boxes' witness points", () => {
  it("a box of zero thickness against a box: points on both boxes, both orders", () => {
    // Was: pointA 6.5e4 off the flat box A (its face, a segment, bounded nothing along it).
    const a = {
      type: "aabb",
      min: [-36656.74732183746, -20933.965383595816, 34.547637939453125],
      max: [36491.125617735896, 21701.092825002066, 34.547637939453125],
    };
    const b = {
      type: "aabb",
      min: [-17741.223912544534, -76492.54144976144, -125610.46936858416],
      max: [132701.54747233115, 250195.64020899113, 196166.5087665699],
    };
    const A = oshape(a);
    const B = oshape(b);
    // Hand-derived: the least overlap is along x, A's max x − B's min x.
    const depth = 36491.125617735896 - -17741.223912544534;
    const c = answerQuery({ op: "contact", a, b }) as ContactJson;
    expect(c.normal).toEqual([1, 0, 0]);
    expect(Math.abs(-c.distance - depth)).toBeLessThanOrEqual(1e-9 * depth);
    expect(surfaceDistance(A, c.pointA)).toBeLessThanOrEqual(1e-9);
    expect(surfaceDistance(B, c.pointB)).toBeLessThanOrEqual(1e-9);
    const f = answerQuery({ op: "contact", a: b, b: a }) as ContactJson;
    expect(f.pointB).toEqual(c.pointA);
    const m = answerQuery({ op: "manifold", a, b }) as {
      points: { pointA: V; pointB: V }[];
    };
    for (const p of m.points) {
      expect(surfaceDistance(A, p.pointA)).toBeLessThanOrEqual(1e-9);
      expect(surfaceDistance(B, p.pointB)).toBeLessThanOrEqual(1e-9);
    }
  });
});

describe("issue 16: capsules far from the origin keep their ends", () => {
  it("two capsules of 0.1 at 3.4e8: the distance is the oracle's", () => {
    // Was: 3.9e-8 below the certified lower bound (the midpoint's rounding moved end a).
    const offset: V = [-337961728, 176011264, -35436160];
    const localA = {
      type: "capsule",
      a: [0.007425904273986816, 0.04508364200592041, -0.009562328457832336],
      b: [-0.007425904273986816, -0.04508364200592041, 0.009562328457832336],
      radius: 0.017660440360256987,
    };
    const localB = {
      type: "capsule",
      a: [0.15789711475372314, 0.21364358067512512, 0.016667865216732025],
      b: [0.3061017394065857, 0.13139507174491882, -0.3086678460240364],
      radius: 0.1022740965198216,
    };
    // The world shapes are the local ones shifted exactly (every sum below is exact).
    const shift = (j: typeof localA) => ({
      ...j,
      a: j.a.map((x, i) => x + offset[i]),
      b: j.b.map((x, i) => x + offset[i]),
    });
    const a = shift(localA);
    const b = shift(localB);
    for (const j of [a, b])
      for (const k of ["a", "b"] as const)
        j[k].forEach((x, i) => {
          expect(x - offset[i]).toBe(((j === a ? localA : localB)[k] as number[])[i]);
        });
    const T = pairTruth(oshape(localA), oshape(localB), [], false);
    const d = (answerQuery({ op: "distance", a, b }) as DistanceJson).distance;
    expect(T.upper - T.lower).toBeLessThan(1e-12);
    expect(d).toBeGreaterThanOrEqual(T.lower - 1e-9 * d);
    expect(d).toBeLessThanOrEqual(T.upper + 1e-9 * d);
  });
});
