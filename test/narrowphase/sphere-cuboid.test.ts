import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeContact, makeDistanceResult } from "../../src/narrowphase/contact.js";
import {
  contactSphereCuboid,
  distanceSphereCuboid,
  intersectsSphereCuboid,
} from "../../src/narrowphase/sphere-cuboid.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { num, pose, scale, vec } from "../oracles/arbitraries.js";

/**
 * Oracle: the distance from a point to a box by dense sampling of the box (a grid of n³ points
 * over the solid box, in the box's frame). Its error is at most half the grid cell diagonal.
 */
function sampledDistance(p: Vec3, h: Vec3, n: number): number {
  let best = Infinity;
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++)
      for (let k = 0; k <= n; k++) {
        const q = vec3.create(
          -h.x + (2 * h.x * i) / n,
          -h.y + (2 * h.y * j) / n,
          -h.z + (2 * h.z * k) / n,
        );
        best = Math.min(best, vec3.distance(p, q));
      }
  return best;
}

/** B's pose in A's frame for a sphere A at `ca` (identity rotation) and a box at `boxPose`. */
function boxInSphere(ca: Vec3, boxPose: Isometry): Isometry {
  return iso.invMul(iso.identity(), iso.create(ca), boxPose);
}

describe("sphere–cuboid", () => {
  it("closest point matches dense sampling of the box (rotated boxes)", () => {
    fc.assert(
      fc.property(vec(0.1, 2), pose(-3, 3), vec(-5, 5), num(0.05, 1), (h, bp, ca, r) => {
        const box = makeCuboid(h);
        const s = makeSphere(r);
        const bInA = boxInSphere(ca, bp);
        const res = distanceSphereCuboid(makeDistanceResult(), s, box, bInA);
        const pInBox = iso.inverseTransformPoint(vec3.create(), bp, ca);
        const n = 12;
        const oracle = sampledDistance(pInBox, h, n);
        const cell = Math.hypot(h.x, h.y, h.z) / n;
        const expected = Math.max(0, oracle - r);
        expect(res.distance).toBeLessThanOrEqual(expected + 1e-9);
        expect(res.distance).toBeGreaterThanOrEqual(expected - cell - 1e-9);
        expect(intersectsSphereCuboid(s, box, bInA)).toBe(res.distance === 0);
      }),
      { numRuns: 150 },
    );
  });

  it("centre inside: nearest face normal and depth = distance to that face + radius", () => {
    fc.assert(
      fc.property(
        vec(0.1, 2),
        pose(-3, 3),
        fc.tuple(num(-1, 1), num(-1, 1), num(-1, 1)),
        num(0.01, 1),
        (h, bp, [u, v, w], r) => {
          const local = vec3.create(u * h.x, v * h.y, w * h.z);
          const ca = iso.transformPoint(vec3.create(), bp, local);
          const c = makeContact();
          const ok = contactSphereCuboid(c, makeSphere(r), makeCuboid(h), boxInSphere(ca, bp), 0);
          expect(ok).toBe(true);
          const toFace = Math.min(
            h.x - Math.abs(local.x),
            h.y - Math.abs(local.y),
            h.z - Math.abs(local.z),
          );
          expect(c.distance).toBeCloseTo(-(toFace + r), 9);
          expect(vec3.length(c.normal)).toBeCloseTo(1, 12);
          expect(Number.isFinite(c.normal.x + c.pointA.x + c.pointB.x)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a centre exactly on a face or at the box centre gives a finite unit normal", () => {
    const box = makeCuboid(vec3.create(1, 1, 1));
    for (const p of [
      vec3.create(0, 0, 0),
      vec3.create(1, 0, 0),
      vec3.create(1, 1, 1),
      vec3.create(0, -1, 0.5),
    ]) {
      const c = makeContact();
      expect(contactSphereCuboid(c, makeSphere(0.5), box, boxInSphere(p, iso.identity()), 0)).toBe(
        true,
      );
      expect(vec3.length(c.normal)).toBe(1);
    }
  });

  it("exact touching counts, at dyadic scales from 2^-10 to 2^14, on every face", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 14 }), fc.integer({ min: 0, max: 5 }), (e, face) => {
        const k = 2 ** e;
        const h = vec3.create(k, 2 * k, 0.5 * k);
        const r = 0.25 * k;
        const axis = face >> 1;
        const sign = face & 1 ? -1 : 1;
        const local = vec3.create(0.5 * h.x, -0.25 * h.y, 0.125 * h.z);
        vec3.setAxis(local, axis, sign * (vec3.getAxis(h, axis) + r));
        const bp = iso.create(vec3.create(3 * k, -5 * k, 7 * k));
        const ca = iso.transformPoint(vec3.create(), bp, local);
        const s = makeSphere(r);
        const box = makeCuboid(h);
        expect(intersectsSphereCuboid(s, box, boxInSphere(ca, bp))).toBe(true);
        const c = makeContact();
        expect(contactSphereCuboid(c, s, box, boxInSphere(ca, bp), 0)).toBe(true);
        expect(c.distance).toBe(0);
      }),
    );
  });

  it("under any rotation and scale: 1e-9 (relative) inside touches, 1e-9 outside is a gap", () => {
    fc.assert(
      fc.property(scale, pose(-1, 1), fc.integer({ min: 0, max: 5 }), (k, p, face) => {
        const bp = iso.create(vec3.scale(vec3.create(), p.translation, k), p.rotation);
        const h = vec3.create(k, 2 * k, 0.5 * k);
        const r = 0.25 * k;
        const axis = face >> 1;
        const sign = face & 1 ? -1 : 1;
        const s = makeSphere(r);
        const box = makeCuboid(h);
        const at = (eps: number) => {
          const local = vec3.create(0.3 * h.x, 0.1 * h.y, -0.2 * h.z);
          vec3.setAxis(local, axis, sign * (vec3.getAxis(h, axis) + r + eps * k));
          return boxInSphere(iso.transformPoint(vec3.create(), bp, local), bp);
        };
        expect(intersectsSphereCuboid(s, box, at(-1e-9))).toBe(true);
        expect(intersectsSphereCuboid(s, box, at(1e-9))).toBe(false);
      }),
    );
  });

  it("worked example: thin rotated box far from the origin (handed case)", () => {
    const bp = iso.create(vec3.create(-1187, 1706, 12), {
      x: 0,
      y: 0,
      z: -0.17364817766693033,
      w: 0.984807753012208,
    });
    const ca = vec3.create(-1159.88399650782, 1701.557888496215, 12.4);
    const c = makeContact();
    expect(
      contactSphereCuboid(
        c,
        makeSphere(2.6),
        makeCuboid(vec3.create(88, 6, 3)),
        boxInSphere(ca, bp),
        0,
      ),
    ).toBe(true);
    expect(c.distance).toBeCloseTo(-3.5, 6);
    // Normal from sphere toward box is minus the box's +y face normal.
    expect(c.normal.x).toBeCloseTo(-0.342020143325669, 6);
    expect(c.normal.y).toBeCloseTo(-0.939692620785908, 6);
  });
});
