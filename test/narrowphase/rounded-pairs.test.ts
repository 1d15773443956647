import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as iso from "../../src/math/isometry.js";
import type { Vec3 } from "../../src/math/vec3.js";
import * as vec3 from "../../src/math/vec3.js";
import {
  contactCapsuleCapsule,
  intersectsCapsuleCapsule,
} from "../../src/narrowphase/capsule-capsule.js";
import { makeContact } from "../../src/narrowphase/contact.js";
import { contactConvexConvex } from "../../src/narrowphase/convex-convex.js";
import { contactSphereCapsule } from "../../src/narrowphase/sphere-capsule.js";
import { contactSphereTriangle } from "../../src/narrowphase/sphere-triangle.js";
import { makeCapsule, makeSphere, makeTriangle } from "../../src/shapes/index.js";
import { num, pose, vec } from "../oracles/arbitraries.js";

/** Oracle: segment–segment distance by dense sampling of both segments (n × n points) — an upper bound. */
function sampledSegmentDistance(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3, n: number): number {
  let best = Infinity;
  const a = vec3.create();
  const b = vec3.create();
  for (let i = 0; i <= n; i++) {
    vec3.lerp(a, p1, q1, i / n);
    for (let j = 0; j <= n; j++) {
      vec3.lerp(b, p2, q2, j / n);
      best = Math.min(best, vec3.distance(a, b));
    }
  }
  return best;
}

describe("specialised rounded pairs", () => {
  it("capsule–capsule agrees with GJK/EPA and with dense sampling of the core segments", () => {
    fc.assert(
      fc.property(
        vec(-1, 1),
        vec(-1, 1),
        num(0.05, 0.5),
        vec(-1, 1),
        vec(-1, 1),
        num(0.05, 0.5),
        pose(-2, 2),
        (a1, b1, r1, a2, b2, r2, p) => {
          const A = makeCapsule(a1, b1, r1);
          const B = makeCapsule(a2, b2, r2);
          const c = makeContact();
          const g = makeContact();
          expect(contactCapsuleCapsule(c, A, B, p, Infinity)).toBe(true);
          expect(contactConvexConvex(g, A, B, p, Infinity)).toBe(true);
          expect(c.distance).toBeCloseTo(g.distance, 6);
          expect(vec3.length(c.normal)).toBeCloseTo(1, 12);
          expect(intersectsCapsuleCapsule(A, B, p)).toBe(c.distance <= 0);
          if (c.distance > 0) {
            const pa = iso.transformPoint(vec3.create(), p, B.a);
            const pb = iso.transformPoint(vec3.create(), p, B.b);
            const sampled = sampledSegmentDistance(A.a, A.b, pa, pb, 60) - r1 - r2;
            expect(c.distance).toBeLessThanOrEqual(sampled + 1e-12);
            expect(c.distance).toBeGreaterThan(sampled - 0.1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("sphere–capsule and sphere–triangle agree with GJK/EPA", () => {
    fc.assert(
      fc.property(
        num(0.05, 1),
        vec(-1, 1),
        vec(-1, 1),
        num(0.05, 0.5),
        vec(-1, 1),
        pose(-2, 2),
        (rs, a, b, rc, c3, p) => {
          const s = makeSphere(rs);
          const cap = makeCapsule(a, b, rc);
          const tri = makeTriangle(a, b, c3);
          const c = makeContact();
          const g = makeContact();
          expect(contactSphereCapsule(c, s, cap, p, Infinity)).toBe(true);
          expect(contactConvexConvex(g, s, cap, p, Infinity)).toBe(true);
          expect(c.distance).toBeCloseTo(g.distance, 6);
          expect(contactSphereTriangle(c, s, tri, p, Infinity)).toBe(true);
          expect(contactConvexConvex(g, s, tri, p, Infinity)).toBe(true);
          expect(c.distance).toBeCloseTo(g.distance, 6);
          expect(vec3.length(c.normal)).toBeCloseTo(1, 12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("degenerate cores: centre on the axis, crossing segments, zero-length capsules give unit normals", () => {
    const c = makeContact();
    const cap = makeCapsule(vec3.create(-1, 0, 0), vec3.create(1, 0, 0), 0.5);
    expect(contactSphereCapsule(c, makeSphere(0.3), cap, iso.identity(), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.8, 14);
    expect(vec3.length(c.normal)).toBeCloseTo(1, 14);
    const cross = makeCapsule(vec3.create(0, -1, 0), vec3.create(0, 1, 0), 0.25);
    expect(contactCapsuleCapsule(c, cap, cross, iso.identity(), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.75, 14);
    expect(Math.abs(c.normal.z)).toBeCloseTo(1, 14);
    const dot = makeCapsule(vec3.create(), vec3.create(), 0.25);
    expect(contactCapsuleCapsule(c, dot, dot, iso.identity(), 0)).toBe(true);
    expect(vec3.length(c.normal)).toBeCloseTo(1, 14);
    const tri = makeTriangle(vec3.create(-1, -1, 0), vec3.create(1, -1, 0), vec3.create(0, 1, 0));
    expect(contactSphereTriangle(c, makeSphere(0.5), tri, iso.identity(), 0)).toBe(true);
    expect(c.distance).toBeCloseTo(-0.5, 14);
    expect(Math.abs(c.normal.z)).toBe(1);
  });
});
