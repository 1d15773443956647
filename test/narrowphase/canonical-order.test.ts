/**
 * canonicalOrder (src/narrowphase/canonical-order.ts) written out without helper calls (a
 * double passed to a helper V8 does not inline is boxed, per world-step pair) must answer as the
 * rule it documents: the sign of the first clearly non-zero rotation component (w ≥ 0), for a
 * half turn the sign of t·k, else the first clearly non-zero translation component. The oracle
 * here is that rule written with a helper, as the module had it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalOrder } from "../../src/narrowphase/canonical-order.js";

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
