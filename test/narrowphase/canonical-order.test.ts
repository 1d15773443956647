/**
 * canonicalOrder (src/narrowphase/canonical-order.ts) written out without helper calls (a
 * double passed to a helper V8 does not inline is boxed, per world-step pair) must answer as the
 * rule it documents: the sign of the first clearly non-zero rotation component (w ≥ 0), for a
 * half turn the sign of t·k, else the first clearly non-zero translation component. The oracle
 * here is that rule written with a helper, as the module had it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalOrder,
  poseOrder,
  sameTypeSwapped,
  shapeDataOrder,
} from "../../src/narrowphase/canonical-order.js";
import { projectPoint } from "../../src/query/project-point.js";
import { makeCapsule } from "../../src/shapes/capsule.js";
import { makeConvexPolyhedron } from "../../src/shapes/convex-polyhedron.js";
import { makeCuboid } from "../../src/shapes/cuboid.js";
import { makeCylinder } from "../../src/shapes/cylinder.js";
import { makeRoundedCuboid } from "../../src/shapes/rounded.js";
import type { Shape } from "../../src/shapes/shape.js";
import { makeSphere } from "../../src/shapes/sphere.js";
import { makeTriangle } from "../../src/shapes/triangle.js";

const TINY = 2 ** -40;

function firstSign(x: number, y: number, z: number, tiny: number): number {
  const v = Math.abs(x) > tiny ? x : Math.abs(y) > tiny ? y : Math.abs(z) > tiny ? z : 0;
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function oracle(q: number[], t: number[]): number {
  const m = TINY * Math.max(Math.abs(t[0]), Math.abs(t[1]), Math.abs(t[2]));
  if (Math.abs(q[3]) <= TINY) {
    const s = firstSign(q[0], q[1], q[2], TINY);
    return firstSign(s * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2]), 0, 0, m);
  }
  const r = firstSign(q[0], q[1], q[2], TINY);
  if (r !== 0) return q[3] < 0 ? -r : r;
  return firstSign(t[0], t[1], t[2], m);
}

const component = fc.oneof(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.constantFrom(0, -0, TINY, -TINY, 2 * TINY, -2 * TINY, TINY / 2, 1, -1),
);
const coordinate = fc.oneof(
  fc.double({ min: -1e9, max: 1e9, noNaN: true }),
  fc.constantFrom(0, -0, 1e-300, -1e-300, 1, -1, 1e9),
);

describe("canonicalOrder", () => {
  it("answers the documented rule (fast-check, tiny and half-turn components included)", () => {
    fc.assert(
      fc.property(
        fc.array(component, { minLength: 4, maxLength: 4 }),
        fc.array(coordinate, { minLength: 3, maxLength: 3 }),
        (q, t) => {
          const got = canonicalOrder({
            rotation: { x: q[0], y: q[1], z: q[2], w: q[3] },
            translation: { x: t[0], y: t[1], z: t[2] },
          });
          expect(got).toBe(oracle(q, t));
        },
      ),
      { numRuns: 20000 },
    );
  });
  it("hand values: identity by the translation, a half turn by t·k, a turn by its axis", () => {
    const id = { x: 0, y: 0, z: 0, w: 1 };
    expect(canonicalOrder({ rotation: id, translation: { x: 0, y: -2, z: 5 } })).toBe(-1);
    expect(canonicalOrder({ rotation: id, translation: { x: 0, y: 0, z: 0 } })).toBe(0);
    const half = { x: 0, y: 0, z: 1, w: 0 };
    expect(canonicalOrder({ rotation: half, translation: { x: 1, y: 0, z: 3 } })).toBe(1);
    expect(canonicalOrder({ rotation: half, translation: { x: 1, y: 0, z: 0 } })).toBe(0);
    const s = Math.SQRT1_2;
    expect(
      canonicalOrder({ rotation: { x: 0, y: -s, z: 0, w: s }, translation: { x: 1, y: 0, z: 0 } }),
    ).toBe(-1);
    expect(
      canonicalOrder({ rotation: { x: 0, y: -s, z: 0, w: -s }, translation: { x: 1, y: 0, z: 0 } }),
    ).toBe(1);
  });
});

describe("sameTypeSwapped at a symmetric relative pose (session 44)", () => {
  const half = { x: 0, y: 1, z: 0, w: 6.123233995736766e-17 };
  const id = { x: 0, y: 0, z: 0, w: 1 };
  const v = (x: number, y: number, z: number) => ({ x, y, z });
  // Pairs of one type, the second larger in its first defining number, then equal data.
  const pairs: [Shape, Shape][] = [
    [makeCuboid(v(1, 0, 2)), makeCuboid(v(1.5, 0, 1))],
    [makeCuboid(v(1, 0, 2)), makeCuboid(v(1, 0, 2.5))],
    [makeSphere(1), makeSphere(2)],
    [makeCylinder(1, 2), makeCylinder(1, 3)],
    [makeCapsule(v(0, 0, 0), v(1, 0, 0), 1), makeCapsule(v(0, 0, 0), v(1, 0, 0), 2)],
    [
      makeTriangle(v(0, 0, 0), v(1, 0, 0), v(0, 0, 1)),
      makeTriangle(v(0, 0, 0), v(1, 0, 0), v(0, 0, 2)),
    ],
    [makeRoundedCuboid(v(1, 0, 1), 0.5), makeRoundedCuboid(v(1, 0, 1), 0.75)],
    [
      makeConvexPolyhedron([v(0, 0, 0), v(1, 0, 0), v(0, 0, 1)]),
      makeConvexPolyhedron([v(0, 0, 0), v(2, 0, 0), v(0, 0, 1)]),
    ],
  ];
  it("the smaller shape first by its data; antisymmetric; equal data by the world poses", () => {
    const pA = { translation: v(0, 0, 0), rotation: id };
    const pB = { translation: v(1, 0, 1), rotation: half };
    // B a half turn about y from A, its offset in the plane y = 0: canonicalOrder decides nothing.
    const bInA = { translation: v(1, 0, 1), rotation: half };
    const aInB = { translation: v(1, 0, 1), rotation: { ...half, y: -1 } };
    expect(canonicalOrder(bInA)).toBe(0);
    expect(canonicalOrder(aInB)).toBe(0);
    for (const [a, b] of pairs) {
      expect(shapeDataOrder(a, b)).toBe(-1);
      expect(shapeDataOrder(b, a)).toBe(1);
      expect(shapeDataOrder(a, a)).toBe(0);
      expect(sameTypeSwapped(a, b, bInA, pA, pB)).toBe(false);
      expect(sameTypeSwapped(b, a, aInB, pB, pA)).toBe(true);
      // One shape twice: the lesser world pose first (A's translation is the smaller here).
      expect(sameTypeSwapped(a, a, bInA, pA, pB)).toBe(false);
      expect(sameTypeSwapped(a, a, aInB, pB, pA)).toBe(true);
    }
    expect(poseOrder(pA, pA)).toBe(0);
    expect(poseOrder(pA, { translation: v(0, 0, 0), rotation: { ...id, w: -1 } })).toBe(1);
  });
  it("a hull's order does not change as queries fill its caches", () => {
    const a = makeConvexPolyhedron([v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]);
    const b = makeConvexPolyhedron([v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]);
    expect(shapeDataOrder(a, b)).toBe(0);
    for (let i = 0; i < 50; i++)
      projectPoint(a, { translation: v(0, 0, 0), rotation: id }, v(i, -i, 2 * i));
    expect(shapeDataOrder(a, b)).toBe(0);
    expect(shapeDataOrder(b, a)).toBe(0);
  });
});
