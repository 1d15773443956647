/**
 * The world benchmark's scene, shared by every engine in bench/world.ts and by the
 * steady-state allocation probe of test/world: N bodies, half spheres and half rotated boxes,
 * on a jittered cubic lattice of spacing 1 with sizes chosen so that a body touches one or two
 * others on average, and a per-frame motion that moves every body a little (a triangle wave of
 * amplitude `MOTION_AMPLITUDE` around its home, different phase and rate per body and axis).
 *
 * Everything is plain typed arrays filled from a seeded generator, so every engine sees exactly
 * the same poses, frame after frame. The motion uses only + − × and `Math.abs` (no sin/cos).
 */
import { makeRandom, randomRotation } from "../src/math/random.js";

/** Spacing of the lattice the bodies sit on, scene units. */
export const LATTICE_SPACING = 1;
/** Largest jitter of a body's home from its lattice point, per axis, scene units. */
export const HOME_JITTER = 0.2;
/** Amplitude of each body's motion around its home, per axis, scene units. */
export const MOTION_AMPLITUDE = 0.08;
/** Default scale of the bodies' sizes, tuned for about 0.8 touching pairs per body. */
export const BODY_SIZE_SCALE = 1.1;
/** Largest phase advance of the triangle wave per frame (1 = a full period). */
export const MAX_RATE = 0.02;

/** One benchmark scene: body kinds, sizes, rotations, homes and motion parameters. */
export interface BenchScene {
  /** Number of bodies. */
  n: number;
  /** 0 = sphere, 1 = box. */
  kind: Uint8Array;
  /** Sphere radius (kind 0) or box half extents (kind 1): 3 per body (radius in [0]). */
  size: Float64Array;
  /** Rotation quaternion xyzw, 4 per body (identity for spheres). */
  rot: Float64Array;
  /** Home position xyz, 3 per body. */
  home: Float64Array;
  /** Triangle-wave phase xyz, 3 per body. */
  phase: Float64Array;
  /** Triangle-wave rate xyz (periods per frame), 3 per body. */
  rate: Float64Array;
  /** Current position xyz, 3 per body (written by {@link moveScene}). */
  pos: Float64Array;
}

/**
 * The scene of `n` bodies from `seed`. `sizeScale` scales every body (the default gives about
 * 0.8 touching pairs per body, i.e. each body touches one or two others).
 */
export function makeBenchScene(n: number, seed = 1, sizeScale = BODY_SIZE_SCALE): BenchScene {
  const rng = makeRandom(seed);
  const side = Math.ceil(Math.cbrt(n));
  const s: BenchScene = {
    n,
    kind: new Uint8Array(n),
    size: new Float64Array(3 * n),
    rot: new Float64Array(4 * n),
    home: new Float64Array(3 * n),
    phase: new Float64Array(3 * n),
    rate: new Float64Array(3 * n),
    pos: new Float64Array(3 * n),
  };
  for (let i = 0; i < n; i++) {
    const ix = i % side;
    const iy = Math.floor(i / side) % side;
    const iz = Math.floor(i / (side * side));
    s.home[3 * i] = ix * LATTICE_SPACING + HOME_JITTER * (2 * rng() - 1);
    s.home[3 * i + 1] = iy * LATTICE_SPACING + HOME_JITTER * (2 * rng() - 1);
    s.home[3 * i + 2] = iz * LATTICE_SPACING + HOME_JITTER * (2 * rng() - 1);
    for (let a = 0; a < 3; a++) {
      s.phase[3 * i + a] = rng();
      s.rate[3 * i + a] = MAX_RATE * (0.25 + 0.75 * rng());
    }
    if (i % 2 === 0) {
      s.kind[i] = 0;
      s.size[3 * i] = sizeScale * (0.36 + 0.12 * rng());
      s.rot[4 * i + 3] = 1;
    } else {
      s.kind[i] = 1;
      for (let a = 0; a < 3; a++) s.size[3 * i + a] = sizeScale * (0.22 + 0.16 * rng());
      const q = randomRotation(rng);
      s.rot[4 * i] = q.x;
      s.rot[4 * i + 1] = q.y;
      s.rot[4 * i + 2] = q.z;
      s.rot[4 * i + 3] = q.w;
    }
  }
  moveScene(s, 0);
  return s;
}

/** Writes every body's position at `frame` into `scene.pos` (allocates nothing). */
export function moveScene(scene: BenchScene, frame: number): void {
  const { n, home, phase, rate, pos } = scene;
  for (let k = 0; k < 3 * n; k++) {
    const x = phase[k] + frame * rate[k];
    const f = x - Math.floor(x);
    pos[k] = home[k] + MOTION_AMPLITUDE * (4 * Math.abs(f - 0.5) - 1);
  }
}
