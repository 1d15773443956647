import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Isometry } from "../../src/math/isometry.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { contact } from "../../src/query/contact.js";
import { distance } from "../../src/query/distance.js";
import { intersects } from "../../src/query/intersects.js";
import { manifold } from "../../src/query/manifold.js";
import { computePairs } from "../../src/query/pairs.js";
import {
  type ConvexShape,
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeHalfSpace,
  makeSphere,
} from "../../src/shapes/index.js";
import { num, pose, unitQuat, vec } from "../oracles/arbitraries.js";
import { boxCorners } from "../oracles/support-oracle.js";

const plane = makeHalfSpace(vec3.create(0, 0, 1), 0.25);

describe("half-space against convex shapes", () => {
  it("box: signed distance is the lowest corner's height above the plane (brute force over corners)", () => {
    fc.assert(
      fc.property(vec(0.05, 2), pose(-3, 3), pose(-1, 1), (h, pb, pa) => {
        const c = contact(plane, pa, makeCuboid(h), pb, Infinity);
        const n = quat.rotate(vec3.create(), pa.rotation, plane.normal);
        const d = plane.offset + vec3.dot(n, pa.translation);
        let lowest = Infinity;
        for (const p of boxCorners(h, pb)) lowest = Math.min(lowest, vec3.dot(n, p) - d);
        expect(c).not.toBeNull();
        expect(c?.distance).toBeCloseTo(lowest, 10);
        // Normal from the half-space toward the box is the plane's outward normal.
        expect(vec3.distance(c?.normal ?? vec3.create(), n)).toBeLessThan(1e-12);
        expect(intersects(plane, pa, makeCuboid(h), pb)).toBe(lowest <= 0);
        const dist = distance(makeCuboid(h), pb, plane, pa);
        expect(dist.distance).toBeCloseTo(Math.max(0, lowest), 10);
        // Swapping A and B flips the normal and nothing else.
        const s = contact(makeCuboid(h), pb, plane, pa, Infinity);
        expect(s?.distance).toBeCloseTo(c?.distance ?? Number.NaN, 12);
        expect(
          vec3.distance(s?.normal ?? vec3.create(), vec3.negate(vec3.create(), n)),
        ).toBeLessThan(1e-12);
      }),
      { numRuns: 300 },
    );
  });

  it("a box resting on the plane gets 4 points at its bottom corners; a lying capsule gets 2", () => {
    const box = makeCuboid(vec3.create(0.5, 0.3, 0.2));
    const pb = iso.create(
      vec3.create(1, 2, 0.25 + 0.2 - 0.01),
      quat.fromAxisAngle(quat.identity(), vec3.create(0, 0, 1), 0.4),
    );
    const m = manifold(plane, iso.identity(), box, pb);
    expect(m?.count).toBe(4);
    for (let i = 0; i < (m?.count ?? 0); i++) {
      expect(m?.points[i].distance).toBeCloseTo(-0.01, 12);
      expect(m?.points[i].pointB.z).toBeCloseTo(0.24, 12);
    }
    const pill = makeCapsule(vec3.create(-1, 0, 0), vec3.create(1, 0, 0), 0.3);
    const mc = manifold(plane, iso.identity(), pill, iso.create(vec3.create(0, 0, 0.5)));
    expect(mc?.count).toBe(2);
    expect(mc?.points[0].distance).toBeCloseTo(-0.05, 12);
  });

  it("sphere: exact, including a centre exactly on the plane", () => {
    const c = contact(plane, iso.identity(), makeSphere(1), iso.create(vec3.create(3, 4, 0.25)));
    expect(c?.distance).toBeCloseTo(-1, 14);
    expect(c?.normal).toEqual({ x: 0, y: 0, z: 1 });
  });

  it("two half-spaces intersect unless they face away from each other with a gap", () => {
    const up = makeHalfSpace(vec3.create(0, 1, 0), 0);
    const down = makeHalfSpace(vec3.create(0, -1, 0), -10);
    expect(intersects(up, iso.identity(), down, iso.identity())).toBe(false);
    expect(
      intersects(up, iso.identity(), makeHalfSpace(vec3.create(0, -1, 0), 0), iso.identity()),
    ).toBe(true);
    expect(
      intersects(up, iso.identity(), makeHalfSpace(vec3.create(1, 0, 0), -10), iso.identity()),
    ).toBe(true);
  });

  it("a non-unit normal is refused, naming the field", () => {
    expect(() => makeHalfSpace(vec3.create(0, 2, 0), 0, "a")).toThrow(/a\.normal/);
    expect(() => makeHalfSpace(vec3.create(0, 1, 0), Number.NaN, "a")).toThrow(/a\.offset/);
  });
});

describe("compound shapes, answered child by child", () => {
  const childArb: fc.Arbitrary<{ shape: ConvexShape; pose: Isometry }> = fc.record({
    shape: fc.oneof(
      num(0.1, 1).map((r) => makeSphere(r) as ConvexShape),
      vec(0.1, 1).map((h) => makeCuboid(h) as ConvexShape),
    ),
    pose: fc.record({ translation: vec(-2, 2), rotation: unitQuat }),
  });

  it("contact and distance equal the best child's, computed one child at a time in the world frame", () => {
    fc.assert(
      fc.property(
        fc.array(childArb, { minLength: 1, maxLength: 4 }),
        pose(-2, 2),
        vec(0.1, 1),
        pose(-3, 3),
        (children, pc, h, pb) => {
          const compound = makeCompound(children);
          const box = makeCuboid(h);
          let best = Infinity;
          for (const ch of children) {
            const world = iso.multiply(iso.identity(), pc, ch.pose);
            const c = contact(ch.shape, world, box, pb, Infinity);
            if (c) best = Math.min(best, c.distance);
          }
          const c = contact(compound, pc, box, pb, Infinity);
          expect(c?.distance).toBeCloseTo(best, 9);
          expect(distance(compound, pc, box, pb).distance).toBeCloseTo(Math.max(0, best), 9);
          expect(intersects(box, pb, compound, pc)).toBe(best <= 0);
          const flipped = contact(box, pb, compound, pc, Infinity);
          expect(flipped?.distance).toBeCloseTo(best, 9);
          if (best <= 0) {
            const m = manifold(compound, pc, box, pb);
            expect(m).not.toBeNull();
            expect(m?.count).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("pairs reports a compound and a half-space like any other shape", () => {
    const compound = makeCompound([
      { shape: makeSphere(0.5), pose: iso.create(vec3.create(-1, 0, 0)) },
      { shape: makeSphere(0.5), pose: iso.create(vec3.create(1, 0, 0)) },
    ]);
    const shapes = [
      { shape: compound, pose: iso.create(vec3.create(0, 0, 0.7)) },
      { shape: plane, pose: iso.identity() },
      { shape: makeSphere(0.2), pose: iso.create(vec3.create(0, 0, 0.7)) },
      { shape: makeSphere(0.2), pose: iso.create(vec3.create(1.6, 0, 0.7)) },
    ];
    expect(computePairs(shapes, "tree")).toEqual([
      [0, 1],
      [0, 3],
    ]);
  });
});
