/**
 * The 2D world's benchmark scene, shared by the 2D step timing (bench/world2.ts) and the 2D
 * steady-state allocation probe of test/dim2: N bodies on a jittered square lattice of spacing
 * 1, a quarter each circles, rotated rectangles, rotated convex hexagons and rotated capsules,
 * sized so that a body touches one or two others, and a per-frame motion that moves every body a
 * little (a triangle wave of amplitude `MOTION_AMPLITUDE_2D` around its home, different phase and
 * rate per body and axis) — the 2D counterpart of bench/world-scene.ts.
 *
 * Everything is plain typed arrays filled from a seeded generator, so every run sees exactly the
 * same poses, frame after frame. The motion uses only + − × and `Math.abs` (no sin/cos); the
 * rotations are drawn once, as unit (cos, sin) pairs from a normalised random vector.
 */
import { makeCapsule, makeCircle, makePolygon, makeRect, type Shape2 } from "../src/dim2/shapes.js";
import { makeRandom } from "../src/math/random.js";

/** Largest jitter of a body's home from its lattice point, per axis, scene units. */
export const HOME_JITTER_2D = 0.2;
/** Amplitude of each body's motion around its home, per axis, scene units. */
export const MOTION_AMPLITUDE_2D = 0.08;
/** Largest phase advance of the triangle wave per frame (1 = a full period). */
export const MAX_RATE_2D = 0.02;

/** One 2D benchmark scene: shapes, rotations, homes and motion parameters. */
export interface BenchScene2 {
  /** Number of bodies. */
  n: number;
  /** The body shapes (local frame). */
  shapes: Shape2[];
  /** Rotation as (cos, sin), 2 per body. */
  rot: Float64Array;
  /** Home position xy, 2 per body. */
  home: Float64Array;
  /** Triangle-wave phase xy, 2 per body. */
  phase: Float64Array;
  /** Triangle-wave rate xy (periods per frame), 2 per body. */
  rate: Float64Array;
  /** Current position xy, 2 per body (written by {@link moveScene2}). */
  pos: Float64Array;
}

/** A regular k-gon of circumradius r, counter-clockwise, built without sin/cos by rotation. */
function regularPolygon(k: number, r: number): { x: number; y: number }[] {
  // cos and sin of 2π/k for k = 6 (the only one used): 1/2 and √3/2.
  const c = 0.5;
  const s = Math.sqrt(3) / 2;
  const out: { x: number; y: number }[] = [];
  let x = r;
  let y = 0;
  for (let i = 0; i < k; i++) {
    out.push({ x, y });
    const nx = c * x - s * y;
    y = s * x + c * y;
    x = nx;
  }
  return out;
}

/** The scene of `n` bodies from `seed` (about 0.8–1.5 touching pairs per body). */
export function makeBenchScene2(n: number, seed = 1): BenchScene2 {
  const rng = makeRandom(seed);
  const side = Math.ceil(Math.sqrt(n));
  const s: BenchScene2 = {
    n,
    shapes: [],
    rot: new Float64Array(2 * n),
    home: new Float64Array(2 * n),
    phase: new Float64Array(2 * n),
    rate: new Float64Array(2 * n),
    pos: new Float64Array(2 * n),
  };
  for (let i = 0; i < n; i++) {
    s.home[2 * i] = (i % side) + HOME_JITTER_2D * (2 * rng() - 1);
    s.home[2 * i + 1] = Math.floor(i / side) + HOME_JITTER_2D * (2 * rng() - 1);
    for (let a = 0; a < 2; a++) {
      s.phase[2 * i + a] = rng();
      s.rate[2 * i + a] = MAX_RATE_2D * (0.25 + 0.75 * rng());
    }
    let c = 0;
    let sn = 0;
    let l = 0;
    while (l < 1e-3) {
      c = 2 * rng() - 1;
      sn = 2 * rng() - 1;
      l = Math.sqrt(c * c + sn * sn);
    }
    s.rot[2 * i] = c / l;
    s.rot[2 * i + 1] = sn / l;
    switch (i % 4) {
      case 0:
        s.shapes.push(makeCircle(0.45 + 0.15 * rng()));
        s.rot[2 * i] = 1;
        s.rot[2 * i + 1] = 0;
        break;
      case 1:
        s.shapes.push(makeRect({ x: 0.3 + 0.2 * rng(), y: 0.3 + 0.2 * rng() }));
        break;
      case 2:
        s.shapes.push(makePolygon(regularPolygon(6, 0.45 + 0.15 * rng())));
        break;
      default: {
        const h = 0.2 + 0.15 * rng();
        s.shapes.push(makeCapsule({ x: -h, y: 0 }, { x: h, y: 0 }, 0.25 + 0.1 * rng()));
      }
    }
  }
  moveScene2(s, 0);
  return s;
}

/** Writes every body's position at `frame` into `scene.pos` (allocates nothing). */
export function moveScene2(scene: BenchScene2, frame: number): void {
  const { n, home, phase, rate, pos } = scene;
  for (let k = 0; k < 2 * n; k++) {
    const x = phase[k] + frame * rate[k];
    const f = x - Math.floor(x);
    pos[k] = home[k] + MOTION_AMPLITUDE_2D * (4 * Math.abs(f - 0.5) - 1);
  }
}
