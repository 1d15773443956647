import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import * as vec3 from "../../src/math/vec3.js";
import { makeContact, makeDistanceResult } from "../../src/narrowphase/contact.js";
import {
  contactSphereSphere,
  distanceSphereSphere,
  intersectsSphereSphere,
} from "../../src/narrowphase/sphere-sphere.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { num, scale, vec } from "../oracles/arbitraries.js";

describe("sphere–sphere", () => {
  it("1e-9 (relative) inside the radius sum touches, 1e-9 outside is a gap, at every scale", () => {
    fc.assert(
      fc.property(vec(-1, 1), num(0.01, 1), num(0.01, 1), scale, (dir, ra, rb, k) => {
        const d = vec3.length(dir);
        fc.pre(d > 1e-3);
        const a = makeSphere(ra * k);
        const b = makeSphere(rb * k);
        const sum = a.radius + b.radius;
        for (const [eps, want] of [
          [-1e-9, true],
          [1e-9, false],
        ] as const) {
          const t = vec3.scale(vec3.create(), dir, (sum * (1 + eps)) / d);
          expect(intersectsSphereSphere(a, b, iso.create(t))).toBe(want);
          expect(contactSphereSphere(makeContact(), a, b, iso.create(t), 0)).toBe(want);
        }
      }),
    );
  });

  it("exact touching along an axis counts, at dyadic scales", () => {
    for (let e = -10; e <= 14; e++) {
      const k = 2 ** e;
      const c = makeContact();
      const bInA = iso.create(vec3.create(0, 0.75 * k, 0));
      expect(intersectsSphereSphere(makeSphere(0.5 * k), makeSphere(0.25 * k), bInA)).toBe(true);
      expect(contactSphereSphere(c, makeSphere(0.5 * k), makeSphere(0.25 * k), bInA, 0)).toBe(true);
      expect(c.distance).toBe(0);
    }
  });

  it("reports signed distance, unit normal from A to B and surface witness points", () => {
    fc.assert(
      fc.property(vec(-5, 5), num(0.01, 3), num(0.01, 3), (t, ra, rb) => {
        const a = makeSphere(ra);
        const b = makeSphere(rb);
        const c = makeContact();
        const ok = contactSphereSphere(c, a, b, iso.create(t), Infinity);
        expect(ok).toBe(true);
        const d = vec3.length(t);
        expect(c.distance).toBeCloseTo(d - ra - rb, 12);
        expect(Number.isFinite(c.normal.x + c.normal.y + c.normal.z)).toBe(true);
        expect(vec3.length(c.normal)).toBeCloseTo(1, 12);
        expect(vec3.length(c.pointA)).toBeCloseTo(ra, 12);
        expect(vec3.distance(c.pointB, t)).toBeCloseTo(rb, 12);
        expect(vec3.dot(vec3.sub(vec3.create(), c.pointB, c.pointA), c.normal)).toBeCloseTo(
          c.distance,
          10,
        );
        const r = distanceSphereSphere(makeDistanceResult(), a, b, iso.create(t));
        expect(r.distance).toBeCloseTo(Math.max(0, d - ra - rb), 12);
      }),
    );
  });

  it("a gap of 1e-9 is a gap; prediction includes it", () => {
    const a = makeSphere(1);
    const b = makeSphere(1);
    const bInA = iso.create(vec3.create(2 + 1e-9, 0, 0));
    expect(intersectsSphereSphere(a, b, bInA)).toBe(false);
    const c = makeContact();
    expect(contactSphereSphere(c, a, b, bInA, 0)).toBe(false);
    expect(contactSphereSphere(c, a, b, bInA, 1e-8)).toBe(true);
    expect(c.distance).toBeCloseTo(1e-9, 15);
  });

  it("coincident centres give a unit normal and the full depth", () => {
    const c = makeContact();
    expect(contactSphereSphere(c, makeSphere(0.6), makeSphere(0.35), iso.identity(), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.95, 14);
    expect(vec3.length(c.normal)).toBe(1);
  });
});
