/**
 * Issue 16, a 10^6-query fuzz run (seed 50): an `aabb` against a half-space whose normal is an
 * axis, far from the origin, got a depth off by the rounding of the aabb's centre (min + max)/2
 * in the world frame — 9.1e-13 for an aabb of 6e-3 touching the plane x = −8811.6 exactly (the
 * true depth 0), 1.5e-8 at y = 1.7e8 — where the bar is relative to the aabb's size. The query's
 * local frame (src/io/local-frame.ts) left every line with a half-space in the world frame; a
 * half-space whose normal lies along an axis now moves with the shift of that axis (its offset
 * shifts exactly when its plane's coordinate does); one with another normal kept the axes it
 * has a component on unshifted, and now moves with the frame too, its offset less n·shift
 * formed exactly and rounded once (seed 54: test/fuzz/seed-54.test.ts).
 *
 * Oracle: the signed distance of an axis-aligned box from the plane x_k = c along ±e_k is
 * min_k − c (normal +e_k) or −c − max_k … written out per sign below, an exact difference of two
 * doubles (TwoSum), so the bar is a few ulps of the aabb's size, not of its distance from the
 * origin.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type V3 = [number, number, number];
interface ContactAnswer {
  distance: number;
  normal: V3;
  pointA: V3;
  pointB: V3;
}

/** The exact value of a − b as the pair (rounded difference, its rounding error). */
function twoDiff(a: number, b: number): [number, number] {
  const s = a - b;
  const z = s - a;
  return [s, a - (s - z) + (-b - z)];
}

/**
 * The line's contact, checked: the distance within `bar` of the exact signed distance
 * `exact = hi + lo` (the box's side toward the plane minus the plane), the normal ±e_k from A
 * (the half-space) toward B, and the witnesses on the plane and on the box's face.
 */
function checkContact(line: Record<string, unknown>, exact: [number, number], bar: number): void {
  const c = answerQuery(line) as ContactAnswer | null;
  expect(c).not.toBeNull();
  const got = (c as ContactAnswer).distance;
  expect(Math.abs(got - exact[0] - exact[1])).toBeLessThanOrEqual(bar);
  const inter = (answerQuery({ op: "intersects", a: line.a, b: line.b }) as { intersects: boolean })
    .intersects;
  expect(inter).toBe(exact[0] + exact[1] <= 0);
}

describe("issue 16: an aabb against an axis half-space far from the origin", () => {
  it("seed 50: an aabb touching the plane x = −8811.600083426578 exactly has depth 0", () => {
    const line = {
      op: "contact",
      a: { type: "halfspace", normal: [1, 0, 0], offset: -8811.600083426578 },
      b: {
        type: "aabb",
        min: [-8811.600083426578, -12388.042390249373, 21118.583385783993],
        max: [-8811.593605585149, -12388.034320827572, 21118.583385783993],
      },
    };
    const c = answerQuery(line) as ContactAnswer;
    expect(c.distance).toBe(0);
    expect(c.normal).toEqual([1, 0, 0]);
    expect(c.pointA[0]).toBe(-8811.600083426578);
    expect(c.pointB[0]).toBe(-8811.600083426578);
  });

  it("seed 50: an aabb 7.7e-7 deep behind the plane y = 172696576", () => {
    const minY = 172696575.99999923;
    const line = {
      op: "contact",
      a: { type: "halfspace", normal: [0, 1, 0], offset: 172696576 },
      b: {
        type: "aabb",
        min: [-44551136.00000028, minY, -83215423.99999924],
        max: [-44551135.999998525, 172696575.99999943, -83215423.99999778],
      },
    };
    // Signed distance min_y − offset, exact by Sterbenz's lemma.
    checkContact(line, twoDiff(minY, 172696576), 4 * Number.EPSILON * 2e-7);
  });

  it("property: sizes 1e-6..1e3, offsets to 1e9, either sign of normal, touching, apart or deep", () => {
    const coord = fc.double({ min: -1e9, max: 1e9, noNaN: true });
    const size = fc.double({ min: 1e-6, max: 1e3, noNaN: true });
    const frac = fc.constantFrom(-0.5, -1e-6, 0, 0, 1e-9, 0.25, 2);
    fc.assert(
      fc.property(
        fc.tuple(coord, coord, coord),
        fc.tuple(size, size, size),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        frac,
        (p, s, axis, up, f) => {
          const min = p as V3;
          const max = p.map((x, i) => x + s[i]) as V3;
          // The plane sits at the box's low (normal +e_k) or high (−e_k) face, moved by f of
          // the box's size into (f < 0 deep) or away from it.
          const sign = up ? 1 : -1;
          const face = up ? min[axis] : max[axis];
          const plane = face - sign * f * s[axis];
          const n: V3 = [0, 0, 0];
          n[axis] = sign;
          const line = {
            op: "contact",
            prediction: 4 * s[axis] + 1,
            a: { type: "halfspace", normal: n, offset: sign * plane },
            b: { type: "aabb", min, max },
          };
          // Signed distance along ±e_k: (min_k − plane) or (plane − max_k).
          const exact = up ? twoDiff(min[axis], plane) : twoDiff(plane, max[axis]);
          // A few ulps of the box's size and of the gap (the plane's own rounding is in exact).
          const bar = 4 * Number.EPSILON * (s[axis] + Math.abs(exact[0]));
          checkContact(line, exact, bar);
        },
      ),
      { numRuns: 400, seed: 50 },
    );
  });

  it("a half-space whose normal is not an axis keeps its axes unshifted (same answer as alone)", () => {
    const n: V3 = [0.6, 0.8, 0];
    const line = {
      op: "distance",
      a: { type: "halfspace", normal: n, offset: 1e6 },
      b: { type: "sphere", center: [600000.5, 800000.5, 123456789], radius: 0.25 },
    };
    const d = (answerQuery(line) as { distance: number }).distance;
    // 0.6·600000.5 + 0.8·800000.5 − 1e6 − 0.25 = 0.45, to the rounding of the 1e6 products.
    expect(Math.abs(d - 0.45)).toBeLessThan(1e-9);
  });
});
