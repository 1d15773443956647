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

/**
 * A random unit quaternion from `rng`: four uniform components in [−1, 1), drawn again while
 * their length is below 10⁻³, then normalized (scene set-up only; not uniform over rotations).
 */
export function randomRotation(rng: Random): { x: number; y: number; z: number; w: number } {
  let x = 0;
  let y = 0;
  let z = 0;
  let w = 0;
  let l = 0;
  while (l < 1e-3) {
    x = 2 * rng() - 1;
    y = 2 * rng() - 1;
    z = 2 * rng() - 1;
    w = 2 * rng() - 1;
    l = Math.sqrt(x * x + y * y + z * z + w * w);
  }
  return { x: x / l, y: y / l, z: z / l, w: w / l };
}
