/**
 * mathHypot2/mathHypot3 (src/math/scalar.ts) return Math.hypot's bits: they replace it in the
 * curved shapes' kernels, where V8's builtin allocated on every call, and every answer must stay
 * bitwise the same. The oracle is Math.hypot itself, over random magnitudes from 2^-1074 to
 * 2^1023, signed zeros, subnormals, infinities and NaN. Session 20 moved their shared body into
 * one function; the fast-check properties below hold the new code to the session-19 code (kept
 * here as the reference, `session19Hypot2`/`session19Hypot3`) bit for bit, and to Math.hypot
 * within one ulp (a bound that does not rest on V8's algorithm), on any doubles and on extremes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRandom } from "../../src/math/random.js";
import {
  hypotIo,
  mathHypot2,
  mathHypot2Io,
  mathHypot3,
  mathHypot3Io,
} from "../../src/math/scalar.js";

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

  // mathHypot2Io/mathHypot3Io: the same algorithm written out, arguments and result in hypotIo
  // (no double crosses the call in the curved kernels). Oracle: Math.hypot.
  it("mathHypot2Io and mathHypot3Io (through hypotIo) are Math.hypot bit for bit", () => {
    const rng = makeRandom(20);
    const pick = (): number => {
      const r = rng();
      if (r < 0.1) return SPECIAL[Math.floor(rng() * SPECIAL.length)];
      if (r < 0.12) return NON_FINITE[Math.floor(rng() * NON_FINITE.length)];
      const e = r < 0.8 ? Math.floor(rng() * 80) - 40 : Math.floor(rng() * 2098) - 1075;
      return (rng() - 0.5) * 2 ** e;
    };
    for (let i = 0; i < 100_000; i++) {
      const x = pick();
      const y = pick();
      const z = pick();
      hypotIo[0] = x;
      hypotIo[1] = y;
      hypotIo[2] = z;
      mathHypot3Io();
      if (!Object.is(hypotIo[0], Math.hypot(x, y, z)))
        expect([x, y, z, hypotIo[0]]).toEqual([x, y, z, Math.hypot(x, y, z)]);
      hypotIo[0] = x;
      hypotIo[1] = y;
      mathHypot2Io();
      if (!Object.is(hypotIo[0], Math.hypot(x, y)))
        expect([x, y, hypotIo[0]]).toEqual([x, y, Math.hypot(x, y)]);
    }
    hypotIo[0] = Number.NaN;
    hypotIo[1] = -Infinity;
    hypotIo[2] = 1;
    mathHypot3Io();
    expect(hypotIo[0]).toBe(Infinity);
    hypotIo[0] = -0;
    hypotIo[1] = -0;
    mathHypot2Io();
    expect(Object.is(hypotIo[0], 0)).toBe(true);
  });

  it("Infinity wins over NaN, and all zeros give +0", () => {
    expect(mathHypot3(Number.NaN, -Infinity, 1)).toBe(Infinity);
    expect(mathHypot2(Infinity, Number.NaN)).toBe(Infinity);
    expect(mathHypot3(Number.NaN, 0, 1)).toBeNaN();
    expect(Object.is(mathHypot3(-0, -0, 0), 0)).toBe(true);
    expect(Object.is(mathHypot2(-0, -0), 0)).toBe(true);
  });
});

/** mathHypot2 as session 19 wrote it (the reference of the refactor). */
function session19Hypot2(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (Number.isNaN(ax) || Number.isNaN(ay)) return Number.NaN;
  const m = Math.max(ax, ay);
  if (m === 0) return 0;
  let sum = 0;
  let comp = 0;
  let q = ax / m;
  let t = q * q - comp;
  let u = sum + t;
  comp = u - sum - t;
  sum = u;
  q = ay / m;
  t = q * q - comp;
  u = sum + t;
  sum = u;
  return Math.sqrt(sum) * m;
}

/** mathHypot3 as session 19 wrote it (the reference of the refactor). */
function session19Hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (Number.isNaN(ax) || Number.isNaN(ay) || Number.isNaN(az)) return Number.NaN;
  const m = Math.max(ax, ay, az);
  if (m === 0) return 0;
  let sum = 0;
  let comp = 0;
  let q = ax / m;
  let t = q * q - comp;
  let u = sum + t;
  comp = u - sum - t;
  sum = u;
  q = ay / m;
  t = q * q - comp;
  u = sum + t;
  comp = u - sum - t;
  sum = u;
  q = az / m;
  t = q * q - comp;
  u = sum + t;
  sum = u;
  return Math.sqrt(sum) * m;
}

/** The gap from |x| to the next double up (x finite). */
function ulp(x: number): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, Math.abs(x));
  v.setBigUint64(0, v.getBigUint64(0) + 1n);
  return v.getFloat64(0) - Math.abs(x);
}

/**
 * Mostly unit-scale doubles (where the kernels run and the compensation changes bits), else any
 * double (subnormals, ±0, ±Infinity, NaN included) or one of the extremes, each signed.
 */
const anyDouble = fc.oneof(
  { arbitrary: fc.double({ min: -8, max: 8, noNaN: true }), weight: 4 },
  fc.double(),
  fc
    .tuple(
      fc.constantFrom(0, 2 ** -1074, 1e-310, 2 ** -1022, 1e-300, 1, 1e300, 1.7e308, Infinity),
      fc.boolean(),
    )
    .map(([x, negative]) => (negative ? -x : x)),
  fc.constant(Number.NaN),
);

/** Math.hypot within one ulp of its own value (exactly, where it is 0 or not finite). */
function nearHypot(got: number, want: number): boolean {
  if (want === 0 || !Number.isFinite(want)) return Object.is(got, want);
  return Math.abs(got - want) <= ulp(want);
}

describe("mathHypot2 and mathHypot3 after the session-20 refactor (fast-check)", () => {
  it("are the session-19 code bit for bit, and Math.hypot within one ulp", () => {
    fc.assert(
      fc.property(anyDouble, anyDouble, anyDouble, (x, y, z) => {
        const h2 = mathHypot2(x, y);
        const h3 = mathHypot3(x, y, z);
        expect(Object.is(h2, session19Hypot2(x, y))).toBe(true);
        expect(Object.is(h3, session19Hypot3(x, y, z))).toBe(true);
        expect(nearHypot(h2, Math.hypot(x, y))).toBe(true);
        expect(nearHypot(h3, Math.hypot(x, y, z))).toBe(true);
      }),
      { numRuns: 20_000, seed: 20 },
    );
  });
});
