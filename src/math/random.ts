/**
 * A small seeded pseudo-random generator (mulberry32) for reproducible scenes, demos and
 * benchmarks: the same seed gives the same sequence on every JavaScript engine (integer
 * arithmetic only).
 */

/** A generator of uniform doubles in [0, 1). */
export type Random = () => number;

/** A mulberry32 generator seeded with the 32-bit integer `seed`. */
export function makeRandom(seed: number): Random {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform double in [lo, hi) from `rng`. */
export function uniform(rng: Random, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}
