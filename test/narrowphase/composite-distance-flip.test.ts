/**
 * Regression (fuzzer, seed 16, 272 wrong answers): a compound's `distance` against a shape whose
 * part pairs are themselves flipped in the pair table (a triangle against a box child) returned
 * witness points from the last part tested, not the nearest: the branch and bound wrote the
 * pair table's flip scratch while its part queries reused it. Oracle: the brute-force minimum
 * over the children, each child's own `distance` through its pose.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  distance,
  type Isometry,
  makeCapsule,
  makeCompound,
  makeCuboid,
  makeSphere,
  makeTriangle,
  type Shape,
} from "../../src/index.js";
import * as iso from "../../src/math/isometry.js";

const id = { x: 0, y: 0, z: 0, w: 1 };
const at = (x: number, y: number, z: number): Isometry => ({
  translation: { x, y, z },
  rotation: id,
});

describe("compound distance keeps the nearest part's witness points", () => {
  it("hand-derived: sphere child at x = 5 (r 1) and box child at x = −5, triangle at x = 10", () => {
    const c = makeCompound([
      { shape: makeSphere(1), pose: at(5, 0, 0) },
      { shape: makeCuboid({ x: 1, y: 1, z: 1 }), pose: at(-5, 0, 0) },
    ]);
    const t = makeTriangle({ x: 10, y: 0, z: 0 }, { x: 10, y: 1, z: 0 }, { x: 10, y: 0, z: 1 });
    const d = distance(c, at(0, 0, 0), t, at(0, 0, 0));
    expect(d.distance).toBe(4);
    expect(d.pointA).toEqual({ x: 6, y: 0, z: 0 });
    expect(d.pointB).toEqual({ x: 10, y: 0, z: 0 });
    const e = distance(t, at(0, 0, 0), c, at(0, 0, 0));
    expect(e.pointA).toEqual({ x: 10, y: 0, z: 0 });
    expect(e.pointB).toEqual({ x: 6, y: 0, z: 0 });
  });

  it("equals the nearest child's own answer, in both orders, for triangles, capsules and boxes", () => {
    const coord = fc.double({ min: -20, max: 20, noNaN: true });
    const size = fc.double({ min: 0.1, max: 3, noNaN: true });
    const child = fc.record({
      kind: fc.constantFrom("sphere", "box"),
      r: size,
      x: coord,
      y: coord,
      z: coord,
    });
    const other = fc.record({
      kind: fc.constantFrom("triangle", "capsule", "box"),
      x: coord,
      y: coord,
      z: coord,
      s: size,
    });
    fc.assert(
      fc.property(fc.array(child, { minLength: 2, maxLength: 6 }), other, (kids, o) => {
        const parts = kids.map((k) => ({
          shape: (k.kind === "sphere"
            ? makeSphere(k.r)
            : makeCuboid({ x: k.r, y: k.r / 2, z: k.r })) as Shape,
          pose: at(k.x, k.y, k.z),
        }));
        const c = makeCompound(parts as Parameters<typeof makeCompound>[0]);
        let s: Shape;
        let pose = at(0, 0, 0);
        if (o.kind === "triangle") {
          s = makeTriangle(
            { x: o.x, y: o.y, z: o.z },
            { x: o.x + o.s, y: o.y, z: o.z },
            { x: o.x, y: o.y + o.s, z: o.z + o.s / 3 },
          );
        } else {
          s =
            o.kind === "capsule"
              ? makeCapsule({ x: 0, y: -o.s, z: 0 }, { x: 0, y: o.s, z: 0 }, o.s / 4)
              : makeCuboid({ x: o.s, y: o.s, z: o.s / 2 });
          pose = at(o.x, o.y, o.z);
        }
        const cPose = at(0.5, -0.25, 0.125);
        let best = Number.POSITIVE_INFINITY;
        let second = Number.POSITIVE_INFINITY;
        let bestA = { x: 0, y: 0, z: 0 };
        let bestB = { x: 0, y: 0, z: 0 };
        for (const p of parts) {
          const d = distance(p.shape, iso.multiply(iso.identity(), cPose, p.pose), s, pose);
          if (d.distance < best) {
            second = best;
            best = d.distance;
            bestA = { ...d.pointA };
            bestB = { ...d.pointB };
          } else if (d.distance < second) second = d.distance;
        }
        const ab = distance(c, cPose, s, pose);
        const ba = distance(s, pose, c, cPose);
        const tol = 1e-9 * (1 + Math.abs(best));
        expect(Math.abs(ab.distance - best)).toBeLessThanOrEqual(tol);
        expect(Math.abs(ba.distance - best)).toBeLessThanOrEqual(tol);
        const span = (p: { x: number; y: number; z: number }, q: typeof p) =>
          Math.hypot(q.x - p.x, q.y - p.y, q.z - p.z);
        if (best > 1e-6) {
          // Apart: the witness points span the distance, in both orders (overlapping, they are
          // the deepest contact's and span its depth).
          expect(Math.abs(span(ab.pointA, ab.pointB) - ab.distance)).toBeLessThanOrEqual(1e-7);
          expect(Math.abs(span(ba.pointA, ba.pointB) - ba.distance)).toBeLessThanOrEqual(1e-7);
        }
        // Apart, with a unique nearest child: its points.
        if (best > 1e-6 && second - best > 1e-6) {
          for (const [k, v] of [
            [ab.pointA, bestA],
            [ab.pointB, bestB],
            [ba.pointB, bestA],
            [ba.pointA, bestB],
          ] as const) {
            expect(span(k, v)).toBeLessThanOrEqual(1e-7 * (1 + best));
          }
        }
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });
});
