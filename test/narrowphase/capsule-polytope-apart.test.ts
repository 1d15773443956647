/**
 * The capsule–polytope contact first asks GJK whether the pair is proven apart beyond the
 * prediction (src/narrowphase/capsule-polytope.ts, `provedApart`): the separating axis test of
 * the exact path projects every vertex of the polytope on every face normal and edge cross, and
 * ran on every candidate pair of the demo scene (10 of its 22 s of CPU). The proof must never
 * change an answer: for any pair, `contact` at a prediction p is non-null exactly when the exact
 * path's gap (the contact at an unbounded prediction, no proof asked) is ≤ p, and then equal to
 * it bit for bit — at p equal to the gap, one ulp either side, 1e-9 relative either side, and 0,
 * on capsules against hulls and boxes of 1e-6..1e6, touching to apart, at offsets up to 1e9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuery } from "../../src/io/query.js";

type C = { distance: number; normal: number[]; pointA: number[]; pointB: number[] } | null;

const contact = (a: object, b: object, prediction: number) =>
  answerQuery({ op: "contact", a, b, prediction }) as C;

const nextUp = (x: number) => {
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  if (x === 0) return Number.MIN_VALUE;
  i[0] += x > 0 ? 1n : -1n;
  return f[0];
};
const nextDown = (x: number) => -nextUp(-x);

const unit = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

const quat = fc.tuple(unit, fc.double({ min: 0.1, max: 1, noNaN: true }));

/** The unit quaternion of a drawn (x, y, z) and w ≥ 0.1, normalised where it is used. */
function unitQuat([[x, y, z], w]: [number[], number]): number[] {
  const l = Math.hypot(x, y, z, w);
  return [x / l, y / l, z / l, w / l];
}

const pair = fc.record({
  scale: fc.integer({ min: -20, max: 20 }).map((e) => 2 ** e),
  offset: fc.constantFrom(0, 1e3, 1e6, 1e9),
  seg: fc.tuple(unit, unit),
  radius: fc.double({ min: 0.01, max: 1, noNaN: true }),
  box: fc.boolean(),
  points: fc.array(unit, { minLength: 4, maxLength: 24 }),
  half: unit,
  rot: quat,
  dir: unit,
  // The polytope's centre along dir at this multiple of the size: deep, touching, apart.
  reach: fc.oneof(fc.double({ min: 0, max: 4, noNaN: true }), fc.constantFrom(1, 1.5, 2, 2.5)),
});

type Pair = typeof pair extends fc.Arbitrary<infer T> ? T : never;

function answers(p: Pair) {
  const s = p.scale;
  const o = p.offset;
  const cap = {
    type: "capsule",
    a: p.seg[0].map((c) => o + c * s),
    b: p.seg[1].map((c) => o + c * s),
    radius: p.radius * s,
  };
  const l = Math.hypot(...p.dir) || 1;
  const at = p.dir.map((c) => o + (c / l) * p.reach * s);
  const poly = p.box
    ? {
        type: "box",
        center: at,
        halfExtents: p.half.map((c) => (0.05 + Math.abs(c)) * s),
        rotation: unitQuat(p.rot),
      }
    : {
        type: "convex",
        points: [
          ...p.points,
          [0.3, 0.2, 0.1],
          [-0.2, 0.4, -0.3],
          [0.1, -0.5, 0.2],
          [-0.4, -0.1, 0.5],
        ].map((q) => q.map((c) => c * s)),
        position: at,
        rotation: unitQuat(p.rot),
      };
  return { cap, poly };
}

describe("capsule–polytope contact: GJK's proof of apart changes no answer", () => {
  it("non-null exactly when the exact gap ≤ the prediction, and then the exact answer, in both orders", () => {
    fc.assert(
      fc.property(pair, (p) => {
        const { cap, poly } = answers(p);
        for (const [a, b] of [
          [cap, poly],
          [poly, cap],
        ]) {
          const ref = contact(a, b, 1e300);
          expect(ref).not.toBeNull();
          const d = (ref as NonNullable<C>).distance;
          const tries = [
            0,
            d,
            nextUp(d),
            nextDown(d),
            d * (1 + 1e-9),
            d * (1 - 1e-9),
            Math.abs(d) * 2,
          ];
          for (const q of tries) {
            if (!(q >= 0)) continue;
            const c = contact(a, b, q);
            if (d <= q) expect(c).toEqual(ref);
            else expect(c).toBeNull();
          }
        }
      }),
      { numRuns: 400, seed: 29 },
    );
  });
});
