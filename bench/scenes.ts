/**
 * The world benchmark's scenes, shared by every engine (bench/scene-runner.ts runs one engine on
 * one of them in its own process; bench/world-scenes.ts prints them side by side):
 *
 * - (a) `lattice`: bodies on a jittered lattice (body order follows position), each moving on a
 *   small triangle wave (bench/world-scene.ts, the original benchmark scene);
 * - (b) `random`: bodies placed uniformly at random (order unrelated to position), each a random
 *   walk of up to {@link WALK_STEP} per axis per frame, half spheres and half rotated boxes,
 *   about 1.45 touching partners each;
 * - (c) `level`: {@link LEVEL_STATIC} static unit boxes packed so that neighbours touch (a voxel
 *   terrain, two layers thick) with `n` moving spheres and boxes on a random walk over it;
 * - (d) `piles`: clustered piles of bodies whose sizes span 1:100 (many small, a few large),
 *   each a random walk.
 *
 * Every scene is plain typed arrays filled from a seeded generator: every engine sees exactly the
 * same poses, frame after frame. The first `staticCount` bodies are static (scene c only) and
 * never move; `move(frame)` writes the moving bodies' positions at `frame` (frames are stepped
 * one after the other; a jump to any other frame teleports every moving body to a fresh spot
 * near its start, so that every engine counts its pairs on the same poses).
 */
import { makeRandom } from "../src/math/random.js";
import { makeBenchScene, moveScene } from "./world-scene.js";

/** Largest step of the random walks per axis per frame, scene units. */
export const WALK_STEP = 0.05;
/** Static boxes of the level scene (c). */
export const LEVEL_STATIC = 100_000;
/** The scene names, (a) to (d). */
export const SCENE_NAMES = ["lattice", "random", "level", "piles"] as const;
/** One of {@link SCENE_NAMES}. */
export type SceneName = (typeof SCENE_NAMES)[number];

/** One benchmark scene (module docs). */
export interface Scene {
  /** Which scene. */
  name: SceneName;
  /** Bodies in all, static ones included. */
  n: number;
  /** Moving bodies: indices `staticCount .. n − 1`. */
  moving: number;
  /** Static bodies: indices `0 .. staticCount − 1`. */
  staticCount: number;
  /** 0 = sphere, 1 = box. */
  kind: Uint8Array;
  /** Sphere radius (kind 0, in [0]) or box half extents (kind 1), 3 per body. */
  size: Float64Array;
  /** Rotation quaternion xyzw, 4 per body (identity for spheres). */
  rot: Float64Array;
  /** Current position xyz, 3 per body. */
  pos: Float64Array;
  /** Writes the positions at `frame` into `pos` (allocates nothing). */
  move(frame: number): void;
}

/** A random unit quaternion into `rot[4i..4i+3]`. */
function randomRotation(rng: () => number, rot: Float64Array, i: number): void {
  let x = 0;
  let y = 0;
  let z = 0;
  let w = 0;
  let l = 0;
  while (l < 1e-3 || l > 1) {
    x = 2 * rng() - 1;
    y = 2 * rng() - 1;
    z = 2 * rng() - 1;
    w = 2 * rng() - 1;
    l = Math.sqrt(x * x + y * y + z * z + w * w);
  }
  rot[4 * i] = x / l;
  rot[4 * i + 1] = y / l;
  rot[4 * i + 2] = z / l;
  rot[4 * i + 3] = w / l;
}

/** A 32-bit hash of (body axis index, frame) mapped to [−1, 1): the walk's step, no state. */
function walkUnit(k: number, frame: number): number {
  let h = Math.imul(k ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(frame + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 31 - 1;
}

/**
 * A random walk over the bodies `from .. n − 1`: each frame every coordinate moves by up to
 * `step` (a hash of body, axis and frame), reflected at the box `[lo, hi]` per axis.
 */
function walker(
  scene: Omit<Scene, "move">,
  home: Float64Array,
  lo: Float64Array,
  hi: Float64Array,
  step: Float64Array,
): (frame: number) => void {
  let at = 0;
  const { pos, staticCount: from, n } = scene;
  return (frame: number) => {
    if (frame === at + 1) {
      for (let k = 3 * from; k < 3 * n; k++) {
        const a = k % 3;
        let p = pos[k] + step[((k - 3 * from) / 3) | 0] * walkUnit(k, frame);
        if (p > hi[a]) p = 2 * hi[a] - p;
        if (p < lo[a]) p = 2 * lo[a] - p;
        pos[k] = p;
      }
    } else {
      // Frame 0 restarts the walk; any other jump teleports every moving body to a spot a few
      // steps from its start.
      for (let k = 3 * from; k < 3 * n; k++) {
        let p = home[k];
        if (frame !== 0) p += 4 * step[((k - 3 * from) / 3) | 0] * walkUnit(k, frame);
        const a = k % 3;
        pos[k] = Math.min(hi[a], Math.max(lo[a], p));
      }
    }
    at = frame;
  };
}

function emptyScene(name: SceneName, n: number, staticCount: number): Omit<Scene, "move"> {
  return {
    name,
    n,
    moving: n - staticCount,
    staticCount,
    kind: new Uint8Array(n),
    size: new Float64Array(3 * n),
    rot: new Float64Array(4 * n),
    pos: new Float64Array(3 * n),
  };
}

/** Half spheres and half rotated boxes of about the lattice scene's sizes, times `scale`. */
function mixedBody(rng: () => number, s: Omit<Scene, "move">, i: number, scale: number): void {
  if (i % 2 === 0) {
    s.kind[i] = 0;
    s.size[3 * i] = scale * (0.36 + 0.12 * rng());
    s.rot[4 * i + 3] = 1;
  } else {
    s.kind[i] = 1;
    for (let a = 0; a < 3; a++) s.size[3 * i + a] = scale * (0.22 + 0.16 * rng());
    randomRotation(rng, s.rot, i);
  }
}

/**
 * Volume per body of scene (b), scene units³: chosen so that a body touches about 1.45 others
 * (measured by the naive grid's exact tests at 10,000 bodies).
 */
export const RANDOM_VOLUME_PER_BODY = 2.1;

/** Scene (b): uniform random placement, random walk (module docs). */
function randomScene(n: number, seed: number): Scene {
  const rng = makeRandom(seed);
  const s = emptyScene("random", n, 0);
  const side = Math.cbrt(n * RANDOM_VOLUME_PER_BODY);
  const home = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    mixedBody(rng, s, i, 1.1);
    for (let a = 0; a < 3; a++) home[3 * i + a] = side * rng();
  }
  s.pos.set(home);
  const lo = new Float64Array(3);
  const hi = new Float64Array(3).fill(side);
  const step = new Float64Array(n).fill(WALK_STEP);
  return { ...s, move: walker(s, home, lo, hi, step) };
}

/** Scene (c): a voxel terrain of LEVEL_STATIC unit boxes with `n` moving bodies over it. */
function levelScene(n: number, seed: number): Scene {
  const rng = makeRandom(seed);
  const total = LEVEL_STATIC + n;
  const s = emptyScene("level", total, LEVEL_STATIC);
  // Two layers of 250 × 200 unit cubes (half extent 0.5) whose faces touch; the top layer's top
  // face is at y = 0.5.
  const nx = 250;
  const nz = 200;
  let i = 0;
  for (let y = 0; y < 2; y++) {
    for (let x = 0; x < nx; x++) {
      for (let z = 0; z < nz; z++) {
        s.kind[i] = 1;
        s.size.fill(0.5, 3 * i, 3 * i + 3);
        s.rot[4 * i + 3] = 1;
        s.pos[3 * i] = x;
        s.pos[3 * i + 1] = y - 1;
        s.pos[3 * i + 2] = z;
        i++;
      }
    }
  }
  const home = new Float64Array(3 * total);
  // The moving bodies fill a slab above the terrain, thick enough for about the same density as
  // scene (b) at 10,000 bodies; at 1,000 they are ten times sparser (most touch only terrain).
  const slab = (10_000 * RANDOM_VOLUME_PER_BODY) / (nx * nz);
  for (let j = LEVEL_STATIC; j < total; j++) {
    mixedBody(rng, s, j, 1.1);
    home[3 * j] = (nx - 1) * rng();
    home[3 * j + 1] = 0.5 + slab * rng();
    home[3 * j + 2] = (nz - 1) * rng();
  }
  s.pos.set(home.subarray(3 * LEVEL_STATIC), 3 * LEVEL_STATIC);
  const lo = new Float64Array([0, 0.3, 0]);
  const hi = new Float64Array([nx - 1, 0.5 + slab, nz - 1]);
  const step = new Float64Array(n).fill(WALK_STEP);
  return { ...s, move: walker(s, home, lo, hi, step) };
}

/** Bodies per pile of scene (d). */
const PILE_SIZE = 200;

/**
 * Scene (d): piles of {@link PILE_SIZE} bodies around random centres, sizes 0.05 to 5 (1:100,
 * most small: a size of 0.05 · 100^(u⁶) for uniform u), each a random walk whose step scales
 * with its size (up to WALK_STEP for the unit-size bodies).
 */
function pilesScene(n: number, seed: number): Scene {
  const rng = makeRandom(seed);
  const s = emptyScene("piles", n, 0);
  const piles = Math.max(1, Math.round(n / PILE_SIZE));
  const side = Math.cbrt(piles) * 24;
  const centres = new Float64Array(3 * piles);
  for (let k = 0; k < 3 * piles; k++) centres[k] = side * rng();
  const home = new Float64Array(3 * n);
  const step = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const scale = 0.05 * 100 ** (rng() ** 6);
    if (i % 2 === 0) {
      s.kind[i] = 0;
      s.size[3 * i] = scale * (0.8 + 0.2 * rng());
      s.rot[4 * i + 3] = 1;
    } else {
      s.kind[i] = 1;
      for (let a = 0; a < 3; a++) s.size[3 * i + a] = scale * (0.5 + 0.5 * rng());
      randomRotation(rng, s.rot, i);
    }
    step[i] = WALK_STEP * Math.min(1, 2 * scale);
    const p = i % piles;
    // A pile: a Gaussian-like cloud (sum of three uniforms) of radius about 6 around its centre.
    for (let a = 0; a < 3; a++) {
      home[3 * i + a] = centres[3 * p + a] + 4.5 * (rng() + rng() + rng() - 1.5);
    }
  }
  s.pos.set(home);
  const lo = new Float64Array(3).fill(-5);
  const hi = new Float64Array(3).fill(side + 5);
  return { ...s, move: walker(s, home, lo, hi, step) };
}

/** Scene (a), the lattice scene of bench/world-scene.ts, as a {@link Scene}. */
function latticeScene(n: number, seed: number): Scene {
  const b = makeBenchScene(n, seed);
  return {
    name: "lattice",
    n,
    moving: n,
    staticCount: 0,
    kind: b.kind,
    size: b.size,
    rot: b.rot,
    pos: b.pos,
    move: (frame) => moveScene(b, frame),
  };
}

/** The scene `name` with `n` moving bodies (plus the level's static boxes for "level"). */
export function makeScene(name: SceneName, n: number, seed = 1): Scene {
  switch (name) {
    case "lattice":
      return latticeScene(n, seed);
    case "random":
      return randomScene(n, seed);
    case "level":
      return levelScene(n, seed);
    case "piles":
      return pilesScene(n, seed);
  }
}
