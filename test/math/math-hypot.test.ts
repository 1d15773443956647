/**
 * mathHypot2/mathHypot3 (src/math/scalar.ts) return Math.hypot's bits: they replace it in the
 * curved shapes' kernels, where V8's builtin allocated on every call, and every answer must stay
 * bitwise the same. The oracle is Math.hypot itself, over random magnitudes from 2^-1074 to
 * 2^1023, signed zeros, subnormals, infinities and NaN.
 */
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import { mathHypot2, mathHypot3 } from "../../src/math/scalar.js";

const SPECIAL = [0, -0, 1, -1, 2 ** -1074, -(2 ** -1074), 1e-310, 1e308, -1e308, 0.1, 3, 4];
const NON_FINITE = [Infinity, -Infinity, Number.NaN];

describe("mathHypot2 and mathHypot3 are Math.hypot bit for bit", () => {
  it("random magnitudes across the double range, specials mixed in", () => {
    const rng = makeRandom(19);
    const pick = (): number => {
      const r = rng();
      if (r < 0.1) return SPECIAL[Math.floor(rng() * SPECIAL.length)];
      if (r < 0.12) return NON_FINITE[Math.floor(rng() * NON_FINITE.length)];
      // Mostly near unit scale, where the kernels run; sometimes anywhere in the range.
      const e = r < 0.8 ? Math.floor(rng() * 80) - 40 : Math.floor(rng() * 2098) - 1075;
      return (rng() - 0.5) * 2 ** e;
    };
    let checked = 0;
    for (let i = 0; i < 200_000; i++) {
      const x = pick();
      const y = pick();
      const z = pick();
      if (!Object.is(mathHypot3(x, y, z), Math.hypot(x, y, z)))
        expect([x, y, z, mathHypot3(x, y, z)]).toEqual([x, y, z, Math.hypot(x, y, z)]);
      if (!Object.is(mathHypot2(x, y), Math.hypot(x, y)))
        expect([x, y, mathHypot2(x, y)]).toEqual([x, y, Math.hypot(x, y)]);
      checked++;
    }
    expect(checked).toBe(200_000);
  });

  it("Infinity wins over NaN, and all zeros give +0", () => {
    expect(mathHypot3(Number.NaN, -Infinity, 1)).toBe(Infinity);
    expect(mathHypot2(Infinity, Number.NaN)).toBe(Infinity);
    expect(mathHypot3(Number.NaN, 0, 1)).toBeNaN();
    expect(Object.is(mathHypot3(-0, -0, 0), 0)).toBe(true);
    expect(Object.is(mathHypot2(-0, -0), 0)).toBe(true);
  });
});
