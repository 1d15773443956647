/**
 * The world's implicit warm-up: when a world first holds {@link WARM_UP_AT} moving bodies, it
 * steps a private sample world of its own moving shapes, so that V8 has compiled the step's
 * code (the narrow phase above all) before the world's first step — the part of
 * `prepareWorld`'s work (src/world/prepare.ts) that needs no finished world, done without the
 * user's call, once per process and kind of body.
 *
 * Why: a fresh process's first step at 50,000 bodies of scene (b) (bench/scenes.ts) took 4.7–5.6×
 * a steady step of process CPU, most of it V8's optimising compiler on its background threads
 * and the main thread running the narrow phase in the interpreter until that code was ready; a
 * second world in the same process stepped first at 2.7×. A sample of `prepareWorld`'s size
 * (128 bodies, 12 steps, a few hundred narrow-phase calls) left most of the narrow phase to be
 * compiled in the first step: V8 compiles a function once its calls have run enough bytecode,
 * so the sample is dense (each body touching about one and a half others, as scene (b)) and
 * stepped until every pair routine it meets has run a few thousand times. The sample is taken
 * while bodies are still being added, so the rest of the adds leave V8's background threads
 * time to finish compiling before the first step.
 *
 * The sample holds the world's own shape objects (the same hidden classes, hence the same type
 * feedback), every kind of moving body (shape type, sensor or not) in equal shares, on random
 * poses in a cube, walked {@link WARM_UP_STEPS} times. The world itself is not touched: its
 * answers are the same with or without the warm-up (test/world/warm-up.test.ts).
 */
import { CollideError } from "../errors.js";
import { makeRandom, randomRotation } from "../math/random.js";
import type { Shape } from "../shapes/shape.js";
import type { CollisionWorld, CollisionWorldOptions } from "./collision-world.js";
import type { BodyHandle } from "./handles.js";

/** Moving bodies a world holds when it warms the step's code up (bodies). */
export const WARM_UP_AT = 4096;
/** Bodies of the warm-up's sample world. */
export const WARM_UP_BODIES = 768;
/** Steps of the warm-up's sample world. */
export const WARM_UP_STEPS = 6;
/** Most distinct shapes per kind of body taken into the sample (the world gathers them). */
export const WARM_UP_KIND_SHAPES = 32;
/**
 * Spacing of the sample's bodies, multiple of their median bounding radius: a body touches about
 * one and a half others (scene (b)'s density, bench/scenes.ts: 2.1 units³ per body of radius ~0.5).
 */
const WARM_UP_SPACING = 2.5;
/** Largest step of the sample's walk per axis, fraction of the spacing. */
const WARM_UP_WALK = 0.05;
/**
 * Largest bounding radius of a sampled shape, multiple of the median: a shape far larger than
 * the rest would overlap most of the sample (hundreds of pairs each), so it is left out.
 */
const WARM_UP_RADIUS_SPREAD = 4;

/** Kinds of body (shape type and sensor) whose code a warm-up of this process has run. */
const warmedKinds = new Set<number>();

/** One moving body kind's shapes, as {@link warmUpStep} takes them. */
export interface WarmUpKind {
  /** `shape.type * 2 + (sensor ? 1 : 0)`. */
  key: number;
  sensor: boolean;
  /** Distinct shapes of this kind (the world's own objects), with their bounding radii. */
  shapes: Shape[];
  radii: number[];
}

/** True when every one of `keys` has been warmed up in this process. */
export function kindsWarmed(keys: Iterable<number>): boolean {
  for (const k of keys) if (!warmedKinds.has(k)) return false;
  return true;
}

/** Forgets every warm-up of this process (for tests: the next world to qualify warms up again). */
export function forgetWarmUps(): void {
  warmedKinds.clear();
}

/**
 * Steps a private sample world made by `make` (with `options`) of the given kinds' shapes (module
 * docs) and marks the kinds warmed. Returns the contacts of the sample's last step. Allocates (the
 * sample world), once per process and set of kinds. A `CollideError` of the sample (a pair with
 * no routine, a limit of the options) ends the warm-up, not the call.
 */
export function warmUpStep(
  kinds: readonly WarmUpKind[],
  make: (options: Partial<CollisionWorldOptions>) => CollisionWorld,
  options: Partial<CollisionWorldOptions>,
): number {
  for (const k of kinds) warmedKinds.add(k.key);
  const radii: number[] = [];
  for (const k of kinds) for (const r of k.radii) radii.push(r);
  if (radii.length === 0) return 0;
  radii.sort((a, b) => a - b);
  const median = radii[radii.length >> 1];
  const spacing = WARM_UP_SPACING * median;
  if (!(spacing > 0) || !Number.isFinite(spacing)) return 0;
  // Each kind's shapes within the radius spread of the median; a kind with none is left out.
  const lists: { sensor: boolean; shapes: Shape[] }[] = [];
  for (const k of kinds) {
    const shapes = k.shapes.filter((_, i) => k.radii[i] <= WARM_UP_RADIUS_SPREAD * median);
    if (shapes.length > 0) lists.push({ sensor: k.sensor, shapes });
  }
  const side = spacing * Math.cbrt(WARM_UP_BODIES);
  const sample = make(options);
  const rng = makeRandom(0x2545f491);
  const handles: BodyHandle[] = [];
  const poses = new Float64Array(7 * WARM_UP_BODIES);
  for (let i = 0; i < WARM_UP_BODIES; i++) {
    // The kinds interleaved, each kind's shapes in turn.
    const kind = lists[i % lists.length];
    const shape = kind.shapes[Math.floor(i / lists.length) % kind.shapes.length];
    const rotation = randomRotation(rng);
    const k = 7 * i;
    poses[k] = side * rng();
    poses[k + 1] = side * rng();
    poses[k + 2] = side * rng();
    poses[k + 3] = rotation.x;
    poses[k + 4] = rotation.y;
    poses[k + 5] = rotation.z;
    poses[k + 6] = rotation.w;
    handles.push(
      sample.addBody({
        shape,
        pose: { translation: { x: poses[k], y: poses[k + 1], z: poses[k + 2] }, rotation },
        sensor: kind.sensor,
      }),
    );
  }
  const walk = WARM_UP_WALK * spacing;
  try {
    sample.step();
    for (let s = 1; s < WARM_UP_STEPS; s++) {
      for (let i = 0; i < WARM_UP_BODIES; i++) {
        for (let j = 0; j < 3; j++) poses[7 * i + j] += walk * (2 * rng() - 1);
      }
      sample.setPoses(handles, poses);
      sample.step();
    }
  } catch (e) {
    // Whatever the sample meets (a pair with no routine, a limit of the options) ends the
    // warm-up, never the world's `addBody` that ran it: the sample is not the world.
    if (!(e instanceof CollideError)) throw e;
  }
  return sample.contactCount;
}
