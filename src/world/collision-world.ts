/**
 * The collision world: bodies (a shape at a pose, a collision filter, an optional sensor flag)
 * held by generational handles, and a `step()` that finds what touches what.
 *
 * A step runs the pipeline of docs/DESIGN.md:
 *
 * 1. world AABBs — computed at `addBody`/`setPose` (tight box of the shape at its pose, grown by
 *    half the prediction distance and a rounding pad on every side) and handed to the broad phase at once, so
 *    queries between steps see the current poses; the dynamic tree keeps FAT AABBs (a margin,
 *    `aabbMargin`, stretched along the last displacement) so slow bodies do not touch it;
 * 2. broad phase — the exact set of overlapping boxes, as packed slot pairs sorted ascending,
 *    never two static bodies: moving bodies (`kind` "dynamic" or "kinematic") are in the broad
 *    phase, static ones in their own BVH (src/world/body-kinds.ts); only the bodies in the move
 *    buffer (added, moved, removed or refiltered since the last step) query them, and the last
 *    step's pairs of two unmoved bodies are kept (persistent pairs, see docs/DESIGN.md);
 * 3. layer / mask filter — a pair is tested when `(layerA & maskB) != 0 && (layerB & maskA) != 0`;
 * 4. narrow phase — only for pairs with a body in the move buffer (a pair of two unmoved bodies
 *    carries its last result over) — in A's frame with `bInA` (the lower slot is A: the lower handle unless the slots were reordered), through the pair dispatch
 *    (src/narrowphase/dispatch.ts): a sensor pair (either body a sensor) only gets the exact
 *    boolean overlap test `intersectsPair`, any other pair `contactPair` with the prediction
 *    distance and, when within it, a manifold of up to 4 points built from that contact
 *    (`manifoldFromContact` for two convex shapes; `manifoldPair` otherwise, e.g. a compound's
 *    deepest child pair); results are converted to the world frame once;
 * 5. contact cache — this frame's touching pairs are diffed with the last frame's into `begin`,
 *    `persist` and `end` event arrays, read after the step (Box2D v3: no callbacks inside the
 *    step);
 * 6. continuous collision — bodies added with `ccd: true` (or `setCcd`) are swept from their
 *    pose at the previous step to their pose now, and the pairs they touch on the way are
 *    listed with their first time of impact in `impacts()` (src/world/ccd.ts), so a fast body
 *    cannot tunnel through a thin one unreported; without the flag, only the step's final
 *    poses are tested.
 *
 * Storage is structure-of-arrays in typed arrays (src/world/body-store.ts), the pair list and
 * the contact records are typed arrays kept across steps, and the narrow phase works in module
 * scratch objects, so a steady-state step (bodies moved, none added) allocates nothing.
 *
 * Determinism: the same operations in the same order give bitwise-identical contacts and
 * events. Slots (and so handles) are assigned by a LIFO free list; every broad phase reports the
 * exact same sorted pair set (src/broadphase/broad-phase.ts), so the choice of broad phase does
 * not change any result; pairs and events come in ascending `(lower handle, higher handle)`
 * order (after a spatial reordering of the slots, `reorderSlotsAt`, in ascending slot-pair
 * order, each naming the body of its lower slot first: the same sets); and nothing on the path calls `Math.sin`, `cos`, `exp` or `pow`.
 *
 * Removal: `removeBody` takes the body out at once (its handle is stale immediately, queries no
 * longer see it); its touching pairs of the last step are reported as `end` events by the next
 * `step()`, with the removed body's old handle.
 */
import { type BroadPhase, checkRay } from "../broadphase/broad-phase.js";
import { PAIR_KEY_BASE, PairSet } from "../broadphase/pair-set.js";
import { QueryBvh } from "../broadphase/query-bvh.js";
import { MORTON_ORDER_MAX, sortByMorton } from "../broadphase/static-bvh.js";
import {
  AABB_MARGIN,
  UNIT_QUATERNION_TOLERANCE,
  WORLD_AABB_ROUNDING_PAD,
  WORLD_MAX_COORDINATE,
  WORLD_MAX_PAIRS,
  WORLD_QUERY_BVH_RAYS_PER_BODY,
  WORLD_REORDER_SLOTS_AT,
} from "../constants.js";
import {
  CollideError,
  checkOptions,
  checkOutArray,
  checkOutRecord,
  invalidValue,
  type OptionsSpec,
  optionsSpec,
  withDefaults,
} from "../errors.js";
import * as aabbm from "../math/aabb.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import { newFloat64, newInt32 } from "../math/typed-arrays.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { intersectsPair } from "../narrowphase/pair-table.js";
import { checkManifoldOut } from "../query/frames.js";
import {
  checkFrustum,
  type Frustum,
  type FrustumMode,
  FrustumTest,
  frustumIntersectsShapeUnchecked,
  frustumTestAabbUnchecked,
} from "../query/frustum.js";
import {
  aabbShape,
  aabbShapeOfType,
  boundingRadiusOf,
  isSupportMappedType,
  isUnboundedType,
} from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { checkVec3 } from "../shapes/validate.js";
import { type BodyKind, BodyKinds, KIND_NAMES, KIND_STATIC } from "./body-kinds.js";
import {
  allocFloat64,
  BodyStore,
  FLAG_ALIVE,
  FLAG_CONVEX,
  FLAG_CUBOID,
  FLAG_SENSOR,
  FLAG_SPHERE,
} from "./body-store.js";
import { CcdState, type ImpactList } from "./ccd.js";
import {
  ContactCache,
  makeWorldContact,
  type WorldContact,
  type WorldEvents,
} from "./contact-cache.js";
import { checkWorldOptionValues, makeNamedBroadPhase } from "./core/world-options.js";
import type { NarrowPhaseInput, NarrowPhaseSink, StepExecutor } from "./executor.js";
import { type BodyHandle, MAX_BODY_SLOT } from "./handles.js";
import {
  NARROW_CARRY,
  NARROW_NONE,
  NARROW_RECORD_STRIDE,
  NARROW_SENSOR,
  narrowPairRadius,
} from "./narrow-pair.js";
import {
  emptyPoseBoxesJob,
  POSE_BOX_STRIDE,
  POSE_BOXES_CHUNK,
  POSE_CHUNK_DONE,
  type PoseBoxesJob,
  poseBoxesChunks,
  vecsWithinBound,
} from "./pose-boxes.js";
import {
  emptyStaticQueryJob,
  STATIC_QUERY_CHUNK,
  STATIC_QUERY_ROOM_PER_BODY,
  type StaticQueryJob,
  staticQueryChunks,
} from "./static-query.js";
import { checkFilterBits, checkShape, checkWorldPose, keptShape } from "./validate.js";
import { WarmStartCache, type WarmStartStats } from "./warm-start-cache.js";

/** The broad phases a world can use, by name. */
export type WorldBroadPhase = "brute" | "sap" | "grid" | "tree" | "octree";

/** Settings of a {@link CollisionWorld}. */
export interface CollisionWorldOptions {
  /**
   * The broad phase: `"brute"` (all pairs, the oracle), `"sap"` (sweep and prune), `"grid"`
   * (spatial hash), `"tree"` (dynamic AABB tree) or `"octree"` (loose octree). Changes the speed, never the result. The
   * grid is the default: it was the fastest on every scene of the repository's benchmark (lattice,
   * random walks, a level, piles of sizes 1:100; README's broad-phase guide). A {@link BroadPhase} instance (empty, used by
   * this world only) may be given instead of a name, such as `createGpuBroadPhase(device)` of
   * `collide/gpu`: the core never imports the GPU code. A broad phase with `requiresAsync` set
   * is stepped with {@link CollisionWorld.stepAsync} only.
   * @default "grid"
   */
  broadphase: WorldBroadPhase | BroadPhase;
  /**
   * Prediction distance, scene units (≥ 0): pairs whose gap is at most this are reported as
   * contacts (with speculative manifold points). 0 reports only touching or overlapping pairs,
   * as `collide check` does; a physics engine would pass `SPECULATIVE_DISTANCE`. Sensors ignore
   * it (exact overlap).
   * @default 0 scene units
   */
  prediction: number;
  /**
   * Fat-AABB margin of the dynamic tree, scene units (≥ 0); other broad phases ignore it.
   * @default AABB_MARGIN = 0.05 scene units
   */
  aabbMargin: number;
  /**
   * Time the broad and narrow phases of every step (`stats.broadPhaseMs`, `narrowPhaseMs`).
   * @default false
   */
  profile: boolean;
  /**
   * A parallel executor of the narrow phase (e.g. `WorkerExecutor` of the Node-only entry
   * `collide/parallel`), or null to run it on the calling thread. Changes the speed, never the
   * result: contacts and events are bitwise identical. The world does not dispose it.
   * @default null
   */
  executor: StepExecutor | null;
  /**
   * Most candidate pairs a step may take to the narrow phase (a positive integer). A step whose
   * broad phase finds more throws `CollideError` naming this option, before any narrow-phase
   * work, instead of exhausting memory (10,000 bodies at one point are 50 million pairs, about
   * 15 GB of manifolds). The world is left as it was before the step.
   * @default WORLD_MAX_PAIRS = 2^21 pairs
   */
  maxPairs: number;
  /**
   * Warm starts of the narrow phase (src/world/warm-start-cache.ts): a pair whose poses, shapes and
   * flags are bitwise those of the last step reuses its answer, and a moved pair first tries
   * the axis that separated it last time. Changes the speed, never the result: contacts and
   * events are bitwise those of a cold step. Used when the narrow phase runs on the calling
   * thread (no `executor`). It allocates nothing per step. Off by default: on every scene of the
   * repository's benchmark it was slower than cold steps (warm ÷ cold 1.15–1.43), because no
   * pair's inputs repeat when every body moves and the move buffer already carries the pairs of
   * bodies that did not move.
   * @default false
   */
  warmStart: boolean;
  /**
   * Automatic sleep: a moving body that no `setPose`/`setPoses` moved for this many consecutive
   * steps (a non-negative integer) is put to sleep at the end of the last of them, as if by
   * {@link CollisionWorld.sleep}; 0 turns automatic sleep off. Sleeping changes no result (see
   * {@link CollisionWorld.sleep}).
   * @default 0 (off)
   */
  sleepAfterSteps: number;
  /**
   * Spatial reordering of the body storage (bodies, scene units of count): at the start of a
   * step, when the world holds at least this many bounded bodies, at least a quarter of them
   * added since the last reordering, and no pair state yet (the last step found no candidate
   * pair — e.g. the first step after the bodies were added), the world moves its bodies to
   * storage slots in the Morton (Z-order) order of their broad-phase box centres, so that bodies
   * near in space are near in memory whatever order they were added in. Invisible to handles;
   * the pairs, contacts and events are the same sets (a pair may then name its bodies in either
   * handle order, see {@link WorldContact}). A non-negative number; `Infinity` turns it off.
   * Measured (CPU time, bench/scenes.ts, 50,000 bodies added in random order): a frame of
   * `setPoses` and `step` 1.0–1.1× faster on the random walk (the step 1.2×, `setPoses` 2×
   * slower: its handles no longer in slot order), 1.1–1.2× on the piles; the first step about
   * 60 ms slower; no gain at 10,000 bodies. Off by default; 16,384 is the measured break-even.
   * @default WORLD_REORDER_SLOTS_AT = Infinity (off)
   */
  reorderSlotsAt: number;
}

/** The fields of {@link BodyDesc}; `addBody` refuses any other (a typo such as `sensr`). */
const BODY_SPEC = optionsSpec("addBody", "body", {
  shape: "any",
  pose: "any",
  kind: "string",
  layer: "number",
  mask: "number",
  sensor: "boolean",
  userData: "any",
  ccd: "boolean",
});

/** The options of the world's constructor. */
const WORLD_SPEC = optionsSpec("CollisionWorld", "options", {
  broadphase: "any",
  prediction: "number",
  aabbMargin: "number",
  profile: "boolean",
  executor: "any",
  maxPairs: "number",
  warmStart: "boolean",
  sleepAfterSteps: "number",
  reorderSlotsAt: "number",
});

/** The {@link QueryFilter} fields, shared by every world query's options (values checked by beginFilter). */
const FILTER_KEYS = {
  mask: "any",
  includeSensors: "any",
  exclude: "any",
  predicate: "any",
} as const;
const RAY_KEYS = { ...FILTER_KEYS, solid: "boolean", ignoreInitialOverlap: "boolean" } as const;
/** The options specs of the world queries (module constants: the check allocates nothing). */
const RAY_CLOSEST_SPEC = optionsSpec("castRayClosest", "options", RAY_KEYS);
const RAY_ALL_SPEC = optionsSpec("castRayAll", "options", RAY_KEYS);
const RAY_ANY_SPEC = optionsSpec("castRayAny", "options", RAY_KEYS);
const OVERLAP_AABB_SPEC = optionsSpec("overlapAabb", "filter", FILTER_KEYS);
const OVERLAP_SHAPE_SPEC = optionsSpec("overlapShape", "filter", FILTER_KEYS);
/** The sub-records of the `out` records the world's getters and ray casts write (checkOutRecord). */
const POSE_PARTS = ["translation", "rotation"] as const;
const POSE_RECORD = "a pose record {translation, rotation} (isometry.identity())";
const AABB_PARTS = ["min", "max"] as const;
const CONTACT_PARTS = ["manifold"] as const;
const RAY_HIT_PARTS = ["point", "normal"] as const;
const RAY_HIT_RECORD = "a ray hit record {handle, toi, point, normal}";
const OVERLAP_FRUSTUM_SPEC = optionsSpec("overlapFrustum", "options", {
  ...FILTER_KEYS,
  mode: "string",
});
/** The default {@link CollisionWorldOptions}. */
export function defaultCollisionWorldOptions(): CollisionWorldOptions {
  return {
    broadphase: "grid",
    prediction: 0,
    aabbMargin: AABB_MARGIN,
    profile: false,
    executor: null,
    maxPairs: WORLD_MAX_PAIRS,
    warmStart: false,
    sleepAfterSteps: 0,
    reorderSlotsAt: WORLD_REORDER_SLOTS_AT,
  };
}

/** What {@link CollisionWorld.addBody} takes. */
export interface BodyDesc {
  /**
   * The body's shape, in its local frame. A shape from a `make…` constructor (deeply frozen) is
   * kept by reference; a hand-built object is validated here and replaced by the copy its
   * type's `make…` builds (deeply frozen, owning its arrays; a hull is rebuilt from its
   * vertices), so a later change to the hand-built object changes nothing in the world.
   * `getShape` returns the kept shape: the same object for a made shape, the copy otherwise.
   */
  shape: Shape;
  /** The body's pose in the world (copied). */
  pose: Isometry;
  /**
   * `"dynamic"` or `"kinematic"`: a moving body (the two are the same for collision: a moving
   * body pairs with every other body); `"static"`: a body that is not expected to move. Static
   * bodies are kept in their own structure (a query BVH over their boxes, built at the first
   * step or query after a static body was added, moved or removed), are never paired with one
   * another, never sleep, and cost a step nothing while no moving body comes near them.
   * `setPose` on a static body is allowed but rebuilds the static structure (O(S log S) for S
   * static bodies) at the next step: move a body often as `"kinematic"`. A static body may be
   * a sensor; it may not have `ccd`. @default "dynamic"
   */
  kind?: BodyKind;
  /** Collision layer bits (unsigned 32-bit). @default 1 */
  layer?: number;
  /** Layers this body collides with (unsigned 32-bit). @default 0xffffffff (all) */
  mask?: number;
  /** A sensor reports overlap begin/persist/end but no contact points. @default false */
  sensor?: boolean;
  /** Anything the caller wants back from {@link CollisionWorld.getUserData}. @default undefined */
  userData?: unknown;
  /**
   * Continuous collision detection: a fast body is swept from its pose at the previous step to
   * its pose now, and each pair it touches on the way is reported in {@link CollisionWorld.impacts}
   * (src/world/ccd.ts). Without it a small body moving farther than its size in one step can
   * pass through a thin wall unreported (a sphere of radius 0.1 moving 100 units through a wall
   * 0.01 thick). Every shape but a half-space is swept. A sensor or a half-space may not have
   * `ccd` (a sensor reports overlaps at the step's poses, as Rapier's and Jolt's sensors do; a
   * half-space is unbounded, so it has no swept box, but the fast bodies are swept against it):
   * `addBody` and `setCcd` refuse it with a `CollideError` naming `body.ccd` (or the handle).
   * @default false
   */
  ccd?: boolean;
}

/**
 * Filter of the world queries (rays, shape casts, box, shape and frustum overlaps), applied to
 * each candidate body before its exact (narrow-phase) test, as Jolt's body filters and Rapier's
 * `QueryFilter` do: layer mask, sensors, excluded handles, then the predicate.
 */
export interface QueryFilter {
  /** Only bodies whose layer has a bit of this mask are reported. @default 0xffffffff */
  mask?: number;
  /** Report sensors too; false excludes them. @default true */
  includeSensors?: boolean;
  /**
   * Bodies never reported: one handle (the caster itself), or an array or `Set` of handles.
   * Stale handles are allowed (they match nothing). @default none
   */
  exclude?: BodyHandle | readonly BodyHandle[] | ReadonlySet<BodyHandle>;
  /**
   * Called with the handle of each candidate that passed the other filters, before its exact
   * test; a falsy return drops it. It may read the world (poses, shapes, contacts) but must not
   * change it nor start another query of the same world (a ray, cast or overlap): either throws
   * `CollideError` `invalid_value` (field `world`), the outer query unchanged. @default none
   */
  predicate?: (handle: BodyHandle) => boolean;
}

/** Options of {@link CollisionWorld.overlapFrustum}. */
export interface FrustumQueryOptions extends QueryFilter {
  /**
   * `exact` (default): the bodies whose shape shares a point with the frustum; `conservative`:
   * the bodies whose world AABB the six-plane test keeps (a superset). @default "exact"
   */
  mode?: FrustumMode;
}

/** Options of the world ray casts. */
export interface RayCastOptions extends QueryFilter {
  /**
   * A ray starting inside a body hits it at time 0 when true; when false it reports the exit
   * through the body's boundary (as `castRayShape`'s `solid`). @default true
   */
  solid?: boolean;
  /**
   * Ignore the bodies the ray starts inside until it leaves them: a ray from inside a solid
   * reports its exit (Box2D's "start inside, want the exit"), as `solid: false`. @default false
   */
  ignoreInitialOverlap?: boolean;
}

/**
 * The ray casts' default options (all unset), shared: a default `= {}` builds a new object on
 * every call, one allocation per ray.
 */
export const NO_RAY_OPTIONS: RayCastOptions = Object.freeze({});

/** A ray hit in the world: the body, the time of impact, the point and the surface normal. */
export interface WorldRayHit {
  /** The body hit. */
  handle: BodyHandle;
  /** Time of impact: the hit point is `origin + toi · dir` (units of `dir`'s length). */
  toi: number;
  /** The hit point, world frame. */
  point: Vec3;
  /** Unit outward surface normal at the hit, world frame. */
  normal: Vec3;
}

/** What a per-shape ray routine writes: time of impact, hit point and normal, world frame. */
export interface RayShapeHit {
  /** Time of impact in multiples of the ray direction. */
  toi: number;
  /** Hit point, world frame. */
  point: Vec3;
  /** Outward unit normal at the hit, world frame. */
  normal: Vec3;
}

/**
 * A per-shape ray routine with the signature of `castRayShape` (src/query/raycast.ts): casts the
 * segment `origin + t·dir`, `t ∈ [0, maxToi]`, against `shape` at world `pose`, writes the hit
 * into `out` and returns a truthy value on a hit, a falsy one on a miss.
 */
export type RayShapeCaster = (
  out: RayShapeHit,
  shape: Shape,
  pose: Isometry,
  origin: Vec3,
  dir: Vec3,
  maxToi: number,
  solid: boolean,
) => unknown;

/** Counters and timings of the last step (the same for every broad phase, timings aside). */
export interface WorldStepStats {
  /** Live bodies. */
  bodies: number;
  /** Pairs reported by the broad phase (boxes grown by half the prediction and the rounding pad overlap). */
  candidatePairs: number;
  /** Candidate pairs that pass the layer/mask filter. */
  filteredPairs: number;
  /** Touching non-sensor pairs (contacts). */
  contactPairs: number;
  /** Overlapping sensor pairs. */
  sensorPairs: number;
  /**
   * Bodies in the move buffer of the last step: added, moved (`setPose`/`setPoses`), removed
   * or given a new filter since the step before. Only they queried the broad phase.
   */
  movedBodies: number;
  /**
   * Pairs the last step took to the narrow phase: the filtered pairs with a body in the move
   * buffer. A pair of two unmoved bodies keeps its last result without a narrow-phase test.
   */
  narrowPairs: number;
  /** Sleeping bodies after the last step. */
  sleepingBodies: number;
  /** Broad-phase time of the last step, milliseconds (0 unless `profile`). */
  broadPhaseMs: number;
  /** Narrow-phase and contact-cache time of the last step, milliseconds (0 unless `profile`). */
  narrowPhaseMs: number;
}

const DEFAULT_LAYER = 1;
const DEFAULT_MASK = 0xffffffff;

const poseA = iso.identity();
const poseB = iso.identity();
const bInA = iso.identity();
const narrowRecord = new Float64Array(NARROW_RECORD_STRIDE);
const box = aabbm.empty();
const bpMin = vec3.create();
const bpMax = vec3.create();
const displacement = vec3.create();
const posesScratch = iso.identity();
/** Fewest querying moving bodies whose static queries run on the executor's threads (two chunks). */
const PARALLEL_STATIC_MIN = 2 * STATIC_QUERY_CHUNK;

/** Smallest `setPoses` batch whose first pass runs on the executor's threads (two chunks). */
const PARALLEL_POSES_MIN = 2 * POSE_BOXES_CHUNK;
/**
 * Smallest `setPoses` batch applied in slot order rather than handle order (a counting sort of
 * the batch by slot; it also needs a quarter of the slots): below it the batch's accesses fit
 * in cache either way.
 */
const POSES_SORT_MIN = 1024;
/**
 * How much shorter the path through the bodies' box centres must be in Morton order than in
 * slot order for the world to reorder its slots (see `reorderSlots`): uniformly random order
 * is 18 times longer at 50,000 bodies, clustered piles 43 times; row-by-row lattice order 1.06
 * times (bench/scenes.ts, measured).
 */
const REORDER_GAIN_MIN = 2;

/**
 * Length of the path through the centres of the boxes `box[6·ids[i] ..]` (min xyz, max xyz)
 * in the order `ids[0 .. count)`, in the L1 norm (twice the centre distance: min + max sums).
 */
function pathLength(box: Float64Array, ids: Int32Array, count: number): number {
  let sum = 0;
  for (let i = 1; i < count; i++) {
    const a = 6 * ids[i - 1];
    const b = 6 * ids[i];
    sum +=
      Math.abs(box[a] + box[a + 3] - box[b] - box[b + 3]) +
      Math.abs(box[a + 1] + box[a + 4] - box[b + 1] - box[b + 4]) +
      Math.abs(box[a + 2] + box[a + 5] - box[b + 2] - box[b + 5]);
  }
  return sum;
}
const rayHitScratch: RayShapeHit = { toi: 0, point: vec3.create(), normal: vec3.create() };

/** Scratch pose for a rotation normalised before use or storage (never the caller's object). */
const unitPoseScratch = iso.identity();

/** Reads the pose at `poses[o .. o+6]` (tx, ty, tz, qx, qy, qz, qw) into `out`. */
function readPoseAt(out: Isometry, poses: Float64Array, o: number): void {
  out.translation.x = poses[o];
  out.translation.y = poses[o + 1];
  out.translation.z = poses[o + 2];
  out.rotation.x = poses[o + 3];
  out.rotation.y = poses[o + 4];
  out.rotation.z = poses[o + 5];
  out.rotation.w = poses[o + 6];
}

/** Inserts `v` into the ascending array `a`. */
function insertSorted(a: number[], v: number): void {
  let i = a.length;
  a.push(v);
  while (i > 0 && a[i - 1] > v) {
    a[i] = a[i - 1];
    i--;
  }
  a[i] = v;
}

/** The broad-phase names of the 3D world, in the order its error message lists them. */
const BROAD_PHASE_NAMES = ["brute", "sap", "grid", "tree", "octree"] as const;

/**
 * A collision world (see the module docs). Throws `CollideError` on bad options.
 *
 * ```ts
 * const world = new CollisionWorld({ broadphase: "tree" });
 * const a = world.addBody({ shape: makeSphere(1), pose: iso.create({ x: 0, y: 0, z: 0 }) });
 * world.step();
 * for (const c of world.contacts()) console.log(c.a, c.b, c.distance);
 * ```
 */
export class CollisionWorld {
  /** The options in force (read-only). */
  readonly options: Readonly<CollisionWorldOptions>;
  /** Counters and timings of the last step. */
  readonly stats: WorldStepStats = {
    bodies: 0,
    candidatePairs: 0,
    filteredPairs: 0,
    contactPairs: 0,
    sensorPairs: 0,
    movedBodies: 0,
    narrowPairs: 0,
    sleepingBodies: 0,
    broadPhaseMs: 0,
    narrowPhaseMs: 0,
  };
  private readonly bodies: BodyStore;
  private readonly bp: BroadPhase;
  /**
   * The persistent pairs: every candidate pair of the last step (boxes overlap, never two
   * static bodies), ascending. Built each step from the pairs of two unmoved bodies kept from
   * the step before and the pairs the move buffer's bodies find (see {@link buildPairs}).
   */
  private pairs = new PairSet(256);
  /** The next step's pairs, built beside {@link pairs} and swapped in when complete. */
  private nextPairs = new PairSet(256);
  /** Scratch pair sets of {@link buildPairs}: kept pairs, found pairs, the broad phase's pairs. */
  private readonly keptPairs = new PairSet(256);
  private readonly foundPairs = new PairSet(256);
  private readonly movingPairs = new PairSet(256);
  /** Kinds, broad-phase boxes, the move buffer, sleep state and the static structure. */
  private readonly kinds = new BodyKinds();
  /** Number of steps run (the clock of the move buffer and of automatic sleep). */
  private stepIndex = 0;
  /** Number of sleeping bodies. */
  private sleepingCount = 0;
  /** The slot whose box {@link pairVisitor} / {@link staticPairVisitor} is querying. */
  private pairQuerySlot = 0;
  /** Visitors of the move buffer's broad-phase queries (bound once). */
  private readonly pairVisitor: (id: number) => unknown;
  private readonly staticPairVisitor: (id: number) => unknown;
  private readonly fromStaticVisitor: (id: number) => unknown;
  /**
   * The step's pairs to carry over (the filter passed, neither body in the move buffer),
   * ascending, `carryKeys[0 .. carryCount)`, and the next one not yet carried into the contact
   * cache (executor path).
   */
  private carryKeys: Float64Array = new Float64Array(256);
  private carryCount = 0;
  private carryCursor = 0;
  /** Pairs given to the narrow phase in this step. */
  private narrowCount = 0;
  /** What continuous collision queries: the broad phase and the static structure. */
  private readonly ccdQuery: { queryAabb(min: Vec3, max: Vec3, out: number[]): number };
  private ccdOut: number[] = [];
  private readonly ccdPush: (id: number) => unknown;
  /** Scratch of {@link setPoses}: slots, and tight boxes (6 doubles each). */
  private posesSlots: Int32Array = new Int32Array(0);
  private posesBoxes: Float64Array = new Float64Array(0);
  /** The batch's poses copied to shared memory for the parallel first pass of {@link setPoses}. */
  private posesIn: Float64Array = new Float64Array(0);
  /** The parallel first pass of {@link setPoses} (src/world/pose-boxes.ts). */
  private readonly poseJob: PoseBoxesJob = emptyPoseBoxesJob(POSE_BOXES_CHUNK);
  /** Per slot: the last `setPoses` batch that held it (a handle given twice is refused). */
  /** The moving bodies' static queries on the executor's threads (src/world/static-query.ts). */
  private readonly staticJob: StaticQueryJob = emptyStaticQueryJob();
  /** Scratch of {@link posesBySlot}: counts per slot, the batch's slots, its sorted poses. */
  private posesCount: Int32Array = new Int32Array(0);
  private posesHandleSlots: Int32Array = new Int32Array(0);
  private posesSorted: Float64Array = new Float64Array(0);
  /** True while a {@link stepAsync} awaits its broad phase: bodies may not change meanwhile. */
  private stepping = false;
  /** True while a query's predicate runs (see {@link checkNotStepping}). */
  private inPredicate = false;
  /**
   * True once some body had a filter that can refuse a pair (a mask other than all bits, or
   * layer 0); until then every pair passes the layer/mask test and the step skips it (it read
   * two arrays at random slots per candidate pair). Never reset: conservative.
   */
  private closedFilter = false;
  /** Bodies added since the storage was last reordered (see `reorderSlotsAt`). */
  private addedSinceReorder = 0;
  /** Slots of unbounded bodies (half-spaces), ascending: outside the broad phase. */
  private readonly unbounded: number[] = [];
  private readonly cache = new ContactCache();
  /** Warm starts of the narrow phase (src/world/warm-start-cache.ts). */
  private readonly warmStarts = new WarmStartCache();
  /** Filtered pair keys of the step when an executor runs the narrow phase. */
  private filteredKeys: Float64Array = new Float64Array(256);
  private readonly executorInput: NarrowPhaseInput = {
    pairs: this.filteredKeys,
    pairCount: 0,
    pose: new Float64Array(0),
    flags: new Uint8Array(0),
    radius: new Float64Array(0),
    shapes: [],
    slotCount: 0,
    shapesVersion: -1,
    prediction: 0,
    dirty: null,
  };
  private readonly ccd = new CcdState();
  private readonly halfPrediction: number;
  /**
   * Static four-wide BVH over the bounded bodies' padded tight boxes, for ray casts and box
   * queries on a world that has not changed for a while (see {@link queryStructure}).
   */
  private readonly queryBvh = new QueryBvh();
  /** True while `queryBvh` matches the bodies (no add, move or removal since its build). */
  private queryBvhFresh = false;
  /** Queries served by the broad phase since the bodies last changed. */
  private queriesSinceChange = 0;
  private queryBvhBoxes = new Float64Array(0);
  private queryBvhIds = new Int32Array(0);
  // Query state, read by the visitors below (bound once, so queries do not allocate closures).
  private qMask = DEFAULT_MASK;
  private qSensors = true;
  /** The query's excluded handle (−1: none), handle list or set, and predicate. */
  private qExcludeOne = -1;
  private qExcludeList: readonly number[] | null = null;
  private qExcludeSet: ReadonlySet<number> | null = null;
  private qPredicate: ((handle: BodyHandle) => boolean) | null = null;
  private qFrustum: Frustum | null = null;
  private qFrustumExact = true;
  private qSolid = true;
  private qOrigin: Vec3 = vec3.create();
  private qDir: Vec3 = vec3.create();
  private qMaxToi = 0;
  private qBestToi = 0;
  private qBestSlot = -1;
  private readonly qBestPoint = vec3.create();
  private readonly qBestNormal = vec3.create();
  private qAll: WorldRayHit[] | null = null;
  private qAny = false;
  private qCaster: RayShapeCaster | null = null;
  private qOut: BodyHandle[] = [];
  private qShape: Shape | null = null;
  private qPose: Isometry = iso.identity();
  private readonly qMin = vec3.create();
  private readonly qMax = vec3.create();
  /** Sensor pairs counted by {@link narrowSink} in the current step. */
  private sinkSensorPairs = 0;
  /** Pairs the executor's threads found unmoved (`NARROW_CARRY` records) in the current step. */
  private sinkCarried = 0;
  /** Merges one block of an executor's records into the contact cache (bound once). */
  private readonly narrowSink: NarrowPhaseSink;
  private readonly rayVisitor: (id: number, toi: number) => unknown;
  private readonly aabbVisitor: (id: number) => unknown;
  private readonly shapeVisitor: (id: number) => unknown;
  private readonly frustumVisitor: (id: number) => unknown;

  /** A new, empty world; `options` overrides {@link defaultCollisionWorldOptions}. */
  constructor(options: Partial<CollisionWorldOptions> = {}) {
    const defaults = defaultCollisionWorldOptions();
    if (options === undefined) invalidValue("options", options, "must be an object");
    checkOptions(options, WORLD_SPEC);
    const o = withDefaults(defaults, options);
    if (typeof o.profile !== "boolean") {
      invalidValue("options.profile", o.profile, "must be a boolean");
    }
    if (typeof o.warmStart !== "boolean") {
      invalidValue("options.warmStart", o.warmStart, "must be a boolean");
    }
    if (
      o.executor !== null &&
      (typeof o.executor !== "object" ||
        typeof (o.executor as { runNarrowPhase?: unknown }).runNarrowPhase !== "function")
    ) {
      invalidValue("options.executor", o.executor, "must be a StepExecutor or null");
    }
    checkWorldOptionValues(o);
    this.bp = makeNamedBroadPhase(o.broadphase, o.aabbMargin, BROAD_PHASE_NAMES, true);
    // The executor's threads run the broad phase's parallel part too (the grid's candidate merge).
    if (o.executor !== null && typeof o.executor.runCandidateMerge === "function") {
      this.bp.setParallel?.(o.executor as Required<StepExecutor>);
    }
    // With an executor, poses, flags and the step's pairs live in shared memory: the worker
    // threads read them in place (no per-step copy).
    const shared = o.executor !== null && typeof SharedArrayBuffer === "function";
    this.bodies = new BodyStore(shared);
    if (shared) this.kinds.share();
    if (shared) this.filteredKeys = allocFloat64(256, true);
    this.options = Object.freeze({ ...o, profile: o.profile === true });
    this.halfPrediction = o.prediction / 2;
    if (!(Number.isInteger(o.sleepAfterSteps) && o.sleepAfterSteps >= 0)) {
      invalidValue("options.sleepAfterSteps", o.sleepAfterSteps, "must be an integer >= 0");
    }
    if (!(o.reorderSlotsAt >= 0)) {
      invalidValue(
        "options.reorderSlotsAt",
        o.reorderSlotsAt,
        "must be a number >= 0 (or Infinity)",
      );
    }
    for (const set of [this.pairs, this.nextPairs, this.keptPairs, this.foundPairs]) {
      set.setLimit(o.maxPairs, "options.maxPairs");
    }
    this.movingPairs.setLimit(o.maxPairs, "options.maxPairs");
    this.pairVisitor = (id) => this.visitMovingPair(id);
    this.staticPairVisitor = (id) => this.visitStaticPair(id);
    this.fromStaticVisitor = (id) => this.visitFromStatic(id);
    this.ccdPush = (id) => {
      this.ccdOut.push(id);
    };
    this.ccdQuery = {
      queryAabb: (min: Vec3, max: Vec3, out: number[]): number => {
        let n = this.bp.queryAabb(min, max, out);
        if (this.kinds.staticBounded > 0) {
          this.ensureStaticBvh();
          this.ccdOut = out;
          n += this.kinds.staticBvh.queryAabb(min, max, this.ccdPush);
        }
        return n;
      },
    };
    this.narrowSink = (data, offset, count) => this.mergeRecords(data, offset, count);
    this.rayVisitor = (id, toi) => this.visitRay(id, toi);
    this.aabbVisitor = (id) => this.visitAabb(id);
    this.shapeVisitor = (id) => this.visitShape(id);
    this.frustumVisitor = (id) => this.visitFrustum(id);
  }

  /** Number of live bodies. */
  get bodyCount(): number {
    return this.bodies.count;
  }

  /**
   * Adds a body and returns its handle. The body takes part from the next `step()` on; queries
   * see it at once. Throws `CollideError` (the world unchanged) for an invalid or unsupported
   * shape, a pose with a non-finite translation or a quaternion off unit length by more than
   * `UNIT_QUATERNION_TOLERANCE` (one within it is stored normalised), a pose so far out that
   * its AABB is not finite, layer/mask bits outside [0, 2^32 − 1], a non-boolean `sensor`
   * or `ccd`, or `ccd` on a sensor or a static body.
   */
  addBody(desc: BodyDesc): BodyHandle {
    this.checkNotStepping();
    if (desc === null || typeof desc !== "object" || Array.isArray(desc)) {
      invalidValue("body", desc, "must be an object");
    }
    checkOptions(desc, BODY_SPEC);
    // A hand-built shape is validated and kept as its make… copy (marked, deeply frozen).
    const shape = keptShape("body.shape", desc.shape);
    checkWorldPose("body.pose", desc.pose);
    // Stored normalised: an accepted quaternion is used normalised (docs/FORMATS.md).
    const pose = iso.unitPose(unitPoseScratch, desc.pose);
    const layer = desc.layer ?? DEFAULT_LAYER;
    const mask = desc.mask ?? DEFAULT_MASK;
    checkFilterBits("body.layer", layer);
    checkFilterBits("body.mask", mask);
    const sensor = desc.sensor ?? false;
    if (typeof sensor !== "boolean") invalidValue("body.sensor", sensor, "must be a boolean");
    const ccd = desc.ccd ?? false;
    if (typeof ccd !== "boolean") invalidValue("body.ccd", ccd, "must be a boolean");
    const kindName = desc.kind ?? "dynamic";
    const kind = KIND_NAMES.indexOf(kindName);
    if (kind < 0 || typeof kindName !== "string") {
      invalidValue("body.kind", kindName, 'must be "static", "kinematic" or "dynamic"');
    }
    if (sensor && ccd) {
      // A sensor reports overlaps at the step's poses and takes no part in sweeps (as Rapier's
      // and Jolt's sensors): a sensor with ccd would be accepted and never report a sweep.
      invalidValue(
        "body.ccd",
        ccd,
        "must be false for a sensor (continuous collision is for non-sensor bodies; a sensor reports overlaps at the step's poses)",
      );
    }
    if (kind === KIND_STATIC && ccd) {
      invalidValue(
        "body.ccd",
        ccd,
        "must be false for a static body (a static body does not move)",
      );
    }
    const unbounded = isUnboundedType(shape.type);
    if (unbounded && ccd) {
      // It would be accepted and never swept (an unbounded shape has no swept box): refused.
      invalidValue(
        "body.ccd",
        ccd,
        "must be false for a half-space (it is unbounded and cannot be swept; the fast bodies moving against it are)",
      );
    }
    this.computeBoxes("body.pose", shape.type, shape, pose, unbounded);
    const radius = boundingRadiusOf(shape);
    const b = this.bodies;
    if (b.peekSlot() > MAX_BODY_SLOT) {
      invalidValue("body", b.count, `exceeds the world's capacity of ${MAX_BODY_SLOT + 1} bodies`);
    }
    const slot = b.allocate();
    const k = this.kinds;
    k.ensure(slot);
    k.forgetStaticCandidates(slot);
    if (unbounded) insertSorted(this.unbounded, slot);
    else if (kind !== KIND_STATIC) this.bp.insert(slot, bpMin, bpMax);
    k.kind[slot] = kind;
    k.sleeping[slot] = 0;
    if (kind === KIND_STATIC) k.addStatic(slot, !unbounded);
    this.writeBpBox(slot);
    k.markDirty(slot);
    this.bodiesChanged();
    b.writePose(slot, pose);
    this.writeTightBox(slot);
    b.layer[slot] = layer;
    b.mask[slot] = mask;
    if (mask !== DEFAULT_MASK || layer === 0) this.closedFilter = true;
    b.flags[slot] =
      FLAG_ALIVE |
      (sensor ? FLAG_SENSOR : 0) |
      (isSupportMappedType(shape.type) ? FLAG_CONVEX : 0) |
      // The two bits of the world's specialised sphere/box fast path (narrow-pair.ts and the
      // warm-start cache's cuboid SAT axis): typed overrides of those pairs, not capabilities.
      (shape.type === ShapeType.Sphere ? FLAG_SPHERE : 0) |
      (shape.type === ShapeType.Cuboid ? FLAG_CUBOID : 0);
    b.touchCount[slot] = 0;
    b.shapes[slot] = shape;
    b.shapesVersion++;
    b.shapeType[slot] = shape.type;
    b.radius[slot] = radius;
    b.userData[slot] = desc.userData;
    if (ccd) this.ccd.add(slot, b.pose);
    b.count++;
    this.addedSinceReorder++;
    return b.handleOf(slot) as BodyHandle;
  }

  /**
   * Moves body `handle` to `pose` (world frame; copied, its quaternion normalised when within
   * `UNIT_QUATERNION_TOLERANCE` of unit length). Throws `CollideError` (the world
   * unchanged) for a stale or unknown handle, a non-finite translation, a non-unit quaternion, or
   * a pose whose AABB is not finite.
   */
  setPose(handle: BodyHandle, pose: Isometry): void {
    this.checkNotStepping();
    const slot = this.requireSlot("handle", handle);
    checkWorldPose("pose", pose);
    // Stored normalised: an accepted quaternion is used normalised (docs/FORMATS.md).
    pose = iso.unitPose(unitPoseScratch, pose);
    const b = this.bodies;
    const type = b.shapeType[slot] as ShapeType;
    const unbounded = isUnboundedType(type);
    this.computeBoxes("pose", type, b.shapes[slot] as Shape, pose, unbounded);
    const k = 7 * slot;
    vec3.set(
      displacement,
      pose.translation.x - b.pose[k],
      pose.translation.y - b.pose[k + 1],
      pose.translation.z - b.pose[k + 2],
    );
    if (!vec3.isFiniteVec(displacement)) {
      invalidValue("pose.translation", pose.translation, "moves the body by a non-finite amount");
    }
    this.applyMove(slot, unbounded);
    b.writePose(slot, pose);
    this.writeTightBox(slot);
  }

  /**
   * Moves many bodies at once: body `handles[i]` to the pose `poses[7i .. 7i+6]` =
   * `(tx, ty, tz, qx, qy, qz, qw)` (world frame, a unit quaternion, stored normalised), with the same effect as
   * `setPose` on each. Everything is validated before anything changes: throws `CollideError`
   * (the world unchanged) when `poses` is not a `Float64Array` of exactly `7 · handles.length`
   * numbers, a handle is stale or unknown (field `handles[i]`), a handle is given twice (field
   * `handles[i]` of the second, its value the handle: one pose per body per call — a repeat is
   * almost always an indexing slip, and "the last pose wins" silently dropped the other), a value
   * is not finite (field `poses[j]`), a quaternion is not of unit length, or a pose puts a body's
   * AABB out of range. Creates no object per body.
   */
  setPoses(handles: ArrayLike<number>, poses: Float64Array): void {
    this.checkNotStepping();
    if (handles === null || typeof handles !== "object" || typeof handles.length !== "number") {
      invalidValue("handles", handles, "must be an array or typed array of body handles");
    }
    if (!(poses instanceof Float64Array)) {
      invalidValue("poses", poses, "must be a Float64Array of 7 numbers per handle");
    }
    const n = handles.length;
    if (poses.length !== 7 * n) {
      invalidValue(
        "poses.length",
        poses.length,
        `must be 7 × handles.length = ${7 * n} (tx, ty, tz, qx, qy, qz, qw per body)`,
      );
    }
    this.checkPosesDistinct(handles, n);
    const b = this.bodies;
    if (this.posesSlots.length < n) {
      const cap = Math.max(n, 2 * this.posesSlots.length);
      const shared = this.options.executor !== null && typeof SharedArrayBuffer === "function";
      this.posesSlots = newInt32(cap, shared);
      this.posesBoxes = newFloat64(POSE_BOX_STRIDE * cap, shared);
    }
    const slots = this.posesSlots;
    const boxes = this.posesBoxes;
    // Pass 1: validate every handle and pose and compute every box; nothing changes yet. A
    // large batch does it on the executor's threads first; this loop then only runs when some
    // body needs it (an error to throw in order, a half-space).
    const parallel = this.parallelPoseBoxes(handles, poses, n);
    // Serial, a large batch: its entries copied in ascending slot order first (posesBySlot), so
    // that both passes read and write the bodies' storage in order; a bad entry then sends the
    // pass again over the batch in handle order, which throws the error of the first one.
    let src = poses;
    if (!parallel) {
      const bySlot = this.posesBySlot(handles, poses, n);
      if (bySlot === null) this.posesFirstPass(handles, poses, n, false);
      else {
        try {
          this.posesFirstPass(handles, bySlot, n, true);
        } catch (e) {
          this.posesFirstPass(handles, poses, n, false);
          throw e;
        }
        src = bySlot;
      }
    }
    if (parallel && this.parallelPoseApply(n)) return;
    // Pass 2: apply, in order (the batch's, or ascending slot order where sorted; every slot
    // once): applyMove and the pose and tight box writes of setPose, read
    // from the arrays (the broad phase's moveFromArrays where it has one: the box is valid).
    const pose = b.pose;
    const aabb = b.aabb;
    const k = this.kinds;
    const kbox = k.box;
    const bp = this.bp;
    const hp = this.halfPrediction;
    for (let i = 0; i < n; i++) {
      const slot = slots[i];
      const o = 7 * i;
      const kk = POSE_BOX_STRIDE * i;
      const q = 7 * slot;
      const s6 = 6 * slot;
      const unbounded = isUnboundedType(b.shapeType[slot]);
      // The broad-phase box, grown from the tight box as computeBoxes grows it (the same
      // operations, so bitwise its box), written to its place by slot first and read from there
      // (a half-space has none: its place is left as it was).
      if (!unbounded) {
        const big = Math.max(
          Math.abs(boxes[kk]),
          Math.abs(boxes[kk + 1]),
          Math.abs(boxes[kk + 2]),
          Math.abs(boxes[kk + 3]),
          Math.abs(boxes[kk + 4]),
          Math.abs(boxes[kk + 5]),
        );
        const h = hp + WORLD_AABB_ROUNDING_PAD * big;
        kbox[s6] = boxes[kk] - h;
        kbox[s6 + 1] = boxes[kk + 1] - h;
        kbox[s6 + 2] = boxes[kk + 2] - h;
        kbox[s6 + 3] = boxes[kk + 3] + h;
        kbox[s6 + 4] = boxes[kk + 4] + h;
        kbox[s6 + 5] = boxes[kk + 5] + h;
      }
      if (k.kind[slot] === KIND_STATIC) {
        if (!unbounded) k.staticFresh = false;
      } else if (!unbounded) {
        if (bp.moveFromArrays !== undefined) {
          bp.moveFromArrays(slot, kbox, s6, src, o, pose, q);
        } else {
          vec3.set(
            displacement,
            src[o] - pose[q],
            src[o + 1] - pose[q + 1],
            src[o + 2] - pose[q + 2],
          );
          vec3.set(bpMin, kbox[s6], kbox[s6 + 1], kbox[s6 + 2]);
          vec3.set(bpMax, kbox[s6 + 3], kbox[s6 + 4], kbox[s6 + 5]);
          bp.move(slot, bpMin, bpMax, displacement);
        }
      }
      k.markDirty(slot);
      if (k.sleeping[slot] !== 0) this.wakeSlot(slot);
      for (let j = 0; j < 7; j++) pose[q + j] = src[o + j];
      iso.unitQuatAt(pose, q + 3);
      for (let j = 0; j < 6; j++) aabb[s6 + j] = boxes[kk + j];
    }
    if (n > 0) this.bodiesChanged();
  }

  /**
   * Refuses a {@link setPoses} batch that names a body twice (`invalid_value` naming the second
   * `handles[i]`, its value the handle) or a handle that is not live (as the first pass does, in
   * order): the slot store's batch stamp (`requireBatchSlot`), shared with the 2D world.
   */
  private checkPosesDistinct(handles: ArrayLike<number>, n: number): void {
    this.bodies.beginBatch();
    for (let i = 0; i < n; i++) this.bodies.requireBatchSlot(handles, i);
  }

  /**
   * The first pass of {@link setPoses} (see there): validates every entry `i` in order and
   * writes its slot to `posesSlots[i]` (`resolved`: already there, the entries being those of
   * {@link posesBySlot}) and its tight box to `posesBoxes[6i ..]`. Throws `CollideError` at the
   * first bad entry; changes nothing else.
   */
  private posesFirstPass(
    handles: ArrayLike<number>,
    poses: Float64Array,
    n: number,
    resolved: boolean,
  ): void {
    const b = this.bodies;
    const slots = this.posesSlots;
    const boxes = this.posesBoxes;
    const p = posesScratch;
    for (let i = 0; i < n; i++) {
      let slot = 0;
      if (resolved) slot = slots[i];
      else {
        const h = handles[i];
        slot = this.slotOf(h);
        if (slot < 0) {
          invalidValue(`handles[${i}]`, h, "is not a live body of this world (unknown or removed)");
        }
      }
      const o = 7 * i;
      for (let j = 0; j < 7; j++) {
        if (!Number.isFinite(poses[o + j])) {
          invalidValue(`poses[${o + j}]`, poses[o + j], "must be a finite number");
        }
      }
      const qx = poses[o + 3];
      const qy = poses[o + 4];
      const qz = poses[o + 5];
      const qw = poses[o + 6];
      const len2 = qx * qx + qy * qy + qz * qz + qw * qw;
      if (!(Math.abs(Math.sqrt(len2) - 1) <= UNIT_QUATERNION_TOLERANCE)) {
        invalidValue(
          `poses[${o + 3}..${o + 6}]`,
          [qx, qy, qz, qw],
          `(the rotation qx, qy, qz, qw of handles[${i}]) must be a unit quaternion, of length 1 within ${UNIT_QUATERNION_TOLERANCE} (the identity is 0, 0, 0, 1); its length is ${Math.sqrt(len2)}`,
        );
      }
      if (!resolved) slots[i] = slot;
      const q = 7 * slot;
      if (
        !Number.isFinite(poses[o] - b.pose[q]) ||
        !Number.isFinite(poses[o + 1] - b.pose[q + 1]) ||
        !Number.isFinite(poses[o + 2] - b.pose[q + 2])
      ) {
        invalidValue(`poses[${o}]`, poses[o], "moves the body by a non-finite amount");
      }
      readPoseAt(p, poses, o);
      // The box of the pose stored: an accepted quaternion normalised (docs/FORMATS.md).
      iso.unitPose(p, p);
      const type = b.shapeType[slot] as ShapeType;
      const unbounded = isUnboundedType(type);
      try {
        this.computeBoxes("poses", type, b.shapes[slot] as Shape, p, unbounded);
      } catch {
        // Named here, not before: a field string built per body would allocate. The field is
        // the translation component of largest magnitude (the one past the bound).
        let j = o;
        for (let c = 1; c < 3; c++) if (Math.abs(poses[o + c]) > Math.abs(poses[j])) j = o + c;
        invalidValue(
          `poses[${j}]`,
          poses[j],
          `puts the body's AABB out of range (its coordinates must lie within ±${WORLD_MAX_COORDINATE})`,
        );
      }
      // The tight box only: pass 2 grows it into the broad-phase box again (bitwise as
      // computeBoxes did), so the batch's scratch is 6 doubles a body, not 12.
      const k = POSE_BOX_STRIDE * i;
      boxes[k] = box.min.x;
      boxes[k + 1] = box.min.y;
      boxes[k + 2] = box.min.z;
      boxes[k + 3] = box.max.x;
      boxes[k + 4] = box.max.y;
      boxes[k + 5] = box.max.z;
    }
  }

  /**
   * A large {@link setPoses} batch in ascending slot order: resolves the `n` handles, sorts the
   * entries by slot, stably (a counting sort: O(n + slots), scratch kept), and returns their poses
   * in that order (7 doubles each), with their slots in `posesSlots` — or `poses` itself when it
   * is already in ascending slot order. Returns null for a batch too small to gain from it (fewer
   * than {@link POSES_SORT_MIN} bodies or than a quarter of the slots) or holding a handle that
   * is not live (the pass in handle order then throws).
   */
  private posesBySlot(
    handles: ArrayLike<number>,
    poses: Float64Array,
    n: number,
  ): Float64Array | null {
    const slotCount = this.bodies.slotCount;
    if (n < POSES_SORT_MIN || 4 * n < slotCount) return null;
    if (this.posesCount.length < slotCount + 1) {
      this.posesCount = new Int32Array(Math.max(slotCount + 1, 2 * this.posesCount.length));
    }
    if (this.posesHandleSlots.length < n) {
      this.posesHandleSlots = new Int32Array(Math.max(n, 2 * this.posesHandleSlots.length));
    }
    const count = this.posesCount;
    const bySlot = this.posesHandleSlots;
    count.fill(0, 0, slotCount + 1);
    let ascending = true;
    let last = -1;
    for (let i = 0; i < n; i++) {
      const slot = this.slotOf(handles[i]);
      if (slot < 0) return null;
      bySlot[i] = slot;
      count[slot + 1]++;
      if (slot <= last) ascending = false;
      last = slot;
    }
    const slots = this.posesSlots;
    if (ascending) {
      for (let i = 0; i < n; i++) slots[i] = bySlot[i];
      return poses;
    }
    for (let s = 0; s < slotCount; s++) count[s + 1] += count[s];
    // Allocated only for a batch out of slot order (a batch in order, the common case, reads
    // `poses` itself: 2.8 MB of ArrayBuffer at 50,000 bodies not allocated).
    if (this.posesSorted.length < 7 * n) {
      this.posesSorted = new Float64Array(Math.max(7 * n, 2 * this.posesSorted.length));
    }
    const out = this.posesSorted;
    for (let i = 0; i < n; i++) {
      const slot = bySlot[i];
      const r = count[slot]++;
      slots[r] = slot;
      const o = 7 * i;
      const w = 7 * r;
      out[w] = poses[o];
      out[w + 1] = poses[o + 1];
      out[w + 2] = poses[o + 2];
      out[w + 3] = poses[o + 3];
      out[w + 4] = poses[o + 4];
      out[w + 5] = poses[o + 5];
      out[w + 6] = poses[o + 6];
    }
    return out;
  }

  /**
   * The first pass of {@link setPoses} on the executor's threads (src/world/pose-boxes.ts): the
   * handles are resolved here, then every body's checks and boxes run in chunks. Returns true
   * when every body's slot and boxes are in `posesSlots`/`posesBoxes`; false when the batch is
   * small, there is no such executor, or some body needs the serial pass (which then throws
   * the error in order, or handles it).
   */
  private parallelPoseBoxes(handles: ArrayLike<number>, poses: Float64Array, n: number): boolean {
    const ex = this.options.executor;
    if (ex === null || ex.runPoseBoxes === undefined || n < PARALLEL_POSES_MIN) return false;
    const slots = this.posesSlots;
    if (!(slots.buffer instanceof SharedArrayBuffer)) return false;
    // The handles resolved (live and distinct: checkPosesDistinct).
    for (let i = 0; i < n; i++) {
      const slot = this.slotOf(handles[i]);
      if (slot < 0) return false;
      slots[i] = slot;
    }
    let input = poses;
    if (!(poses.buffer instanceof SharedArrayBuffer)) {
      if (this.posesIn.length < 7 * n) this.posesIn = newFloat64(7 * slots.length, true);
      this.posesIn.set(poses);
      input = this.posesIn;
    }
    const b = this.bodies;
    const job = this.poseJob;
    job.poses = input;
    job.slots = slots;
    job.count = n;
    job.pose = b.pose;
    job.halfPrediction = this.halfPrediction;
    job.boxes = this.posesBoxes;
    const chunks = poseBoxesChunks(job);
    if (job.status.length < chunks) job.status = newInt32(2 * chunks, true);
    ex.runPoseBoxes(job, chunks, b.shapes, b.slotCount, b.shapesVersion);
    for (let c = 0; c < chunks; c++) if (job.status[c] !== POSE_CHUNK_DONE) return false;
    return true;
  }

  /**
   * The second pass of {@link setPoses} on the executor's threads, after a parallel first pass
   * (src/world/pose-boxes.ts `applyPoseChunk`: poses, tight and broad-phase boxes written, the
   * grid's boxes moved and tested against their fat boxes), then, here and in order, what the
   * serial pass does besides: the move buffers, waking, the static structure's freshness.
   * Returns false, having changed nothing, when it cannot: no such executor, a broad phase
   * without `prepareBulkMove` (any but the grid), or an array not in shared memory.
   */
  private parallelPoseApply(n: number): boolean {
    const ex = this.options.executor;
    const bp = this.bp;
    const k = this.kinds;
    const b = this.bodies;
    if (
      ex === null ||
      ex.runPoseApply === undefined ||
      bp.prepareBulkMove === undefined ||
      bp.markMovedOut === undefined ||
      !k.shared ||
      !(b.aabb.buffer instanceof SharedArrayBuffer)
    ) {
      return false;
    }
    const slots = this.posesSlots;
    const job = this.poseJob;
    if (!bp.prepareBulkMove(job)) return false;
    if (job.left.length < n) job.left = new Uint8Array(new SharedArrayBuffer(slots.length));
    job.aabb = b.aabb;
    job.bpBox = k.box;
    job.kind = k.kind;
    ex.runPoseApply(job, poseBoxesChunks(job));
    const left = job.left;
    const kind = k.kind;
    for (let i = 0; i < n; i++) {
      const slot = slots[i];
      if (kind[slot] === KIND_STATIC) k.staticFresh = false;
      else if (left[i] !== 0) bp.markMovedOut(slot);
      k.markDirty(slot);
      if (k.sleeping[slot] !== 0) this.wakeSlot(slot);
    }
    if (n > 0) this.bodiesChanged();
    return true;
  }

  /**
   * The part of a move after validation, with `box` = the new tight box and `bpMin`/`bpMax` =
   * the new broad-phase box: updates the broad phase or the static structure, puts the body
   * in the move buffer and wakes it. The caller writes the pose and the tight box.
   */
  private applyMove(slot: number, unbounded: boolean): void {
    const k = this.kinds;
    if (k.kind[slot] === KIND_STATIC) {
      if (!unbounded) k.staticFresh = false;
    } else if (!unbounded) this.bp.move(slot, bpMin, bpMax, displacement);
    this.writeBpBox(slot);
    k.markDirty(slot);
    if (k.sleeping[slot] !== 0) this.wakeSlot(slot);
    this.bodiesChanged();
  }

  /**
   * Removes body `handle`: its handle is stale at once and queries no longer see it; the pairs
   * it touched at the last step are reported as `end` events by the next `step()`. Throws
   * `CollideError` for a stale or unknown handle (so a double removal is an error).
   */
  removeBody(handle: BodyHandle): void {
    this.checkNotStepping();
    const slot = this.requireSlot("handle", handle);
    const u = this.unbounded.indexOf(slot);
    const k = this.kinds;
    if (u >= 0) this.unbounded.splice(u, 1);
    else if (k.kind[slot] !== KIND_STATIC) this.bp.remove(slot);
    if (k.kind[slot] === KIND_STATIC) k.removeStatic(slot, u < 0);
    k.forgetStaticCandidates(slot);
    if (k.sleeping[slot] !== 0) {
      k.sleeping[slot] = 0;
      this.sleepingCount--;
    }
    k.markDirty(slot);
    this.bodiesChanged();
    this.ccd.remove(slot);
    this.bodies.kill(slot);
  }

  /** True when `handle` names a live body of this world (never throws). */
  has(handle: BodyHandle): boolean {
    return this.slotOf(handle) >= 0;
  }

  /** The pose of body `handle`, written into `out` (allocated when omitted). Throws on a stale handle. */
  getPose(handle: BodyHandle, out: Isometry = iso.identity()): Isometry {
    checkOutRecord("out", out, POSE_PARTS, POSE_RECORD);
    return this.bodies.readPose(out, this.requireSlot("handle", handle));
  }

  /**
   * The shape body `handle` keeps: the one given to `addBody` when a `make…` built it, else the
   * frozen copy `addBody` made of the hand-built object. Throws `CollideError` on a stale handle.
   */
  getShape(handle: BodyHandle): Shape {
    return this.bodies.shapes[this.requireSlot("handle", handle)] as Shape;
  }

  /** The user data given to `addBody` for `handle`. Throws `CollideError` on a stale handle. */
  getUserData(handle: BodyHandle): unknown {
    return this.bodies.userData[this.requireSlot("handle", handle)];
  }

  /** True when body `handle` is a sensor. Throws `CollideError` on a stale handle. */
  isSensor(handle: BodyHandle): boolean {
    return (this.bodies.flags[this.requireSlot("handle", handle)] & FLAG_SENSOR) !== 0;
  }

  /** The collision layer and mask of `handle`. Throws `CollideError` on a stale handle. */
  getFilter(handle: BodyHandle): { layer: number; mask: number } {
    const s = this.requireSlot("handle", handle);
    return { layer: this.bodies.layer[s], mask: this.bodies.mask[s] };
  }

  /**
   * Changes the collision layer and mask of `handle`, effective at the next step. Throws
   * `CollideError` (the world unchanged) on a stale handle or bits outside [0, 2^32 − 1].
   */
  setFilter(handle: BodyHandle, layer: number, mask: number): void {
    const s = this.requireSlot("handle", handle);
    checkFilterBits("layer", layer);
    checkFilterBits("mask", mask);
    this.bodies.layer[s] = layer;
    this.bodies.mask[s] = mask;
    if (mask !== DEFAULT_MASK || layer === 0) this.closedFilter = true;
    this.kinds.markDirty(s);
  }

  /** The kind of body `handle` (see {@link BodyDesc.kind}). Throws `CollideError` on a stale handle. */
  getKind(handle: BodyHandle): BodyKind {
    return KIND_NAMES[this.kinds.kind[this.requireSlot("handle", handle)]];
  }

  /**
   * Puts moving body `handle` to sleep (a no-op when it sleeps). A sleeping body is not moved
   * and not re-tested: its pairs with static and other sleeping bodies keep their last contacts
   * and report `persist` every step, with no `begin` or `end` while it sleeps (as in Box2D and
   * Rapier, whose sleeping contacts stay in the contact graph). It wakes when `setPose` or
   * `setPoses` moves it, when {@link wake} is called, or at the end of a step in which a
   * moving, awake body that moved touches it (a contact, not a sensor overlap: sensors do not
   * wake bodies, as in Box2D). Since a body that does not move gives the same contacts whether
   * it sleeps or not, sleeping never changes a pair, contact or event. Throws `CollideError`
   * for a stale handle or a static body (static bodies do not sleep).
   */
  sleep(handle: BodyHandle): void {
    this.checkNotStepping();
    const s = this.requireMovingSlot(handle);
    if (this.kinds.sleeping[s] !== 0) return;
    this.kinds.sleeping[s] = 1;
    this.sleepingCount++;
  }

  /**
   * Wakes body `handle` (a no-op when it is awake); with `sleepAfterSteps` on, it may fall
   * asleep again that many steps later. Throws `CollideError` for a stale or removed handle or
   * a static body (static bodies do not sleep).
   */
  wake(handle: BodyHandle): void {
    this.checkNotStepping();
    const s = this.requireMovingSlot(handle);
    if (this.kinds.sleeping[s] !== 0) this.wakeSlot(s);
  }

  /** True when body `handle` sleeps (always false for a static body). Throws on a stale handle. */
  isSleeping(handle: BodyHandle): boolean {
    return this.kinds.sleeping[this.requireSlot("handle", handle)] !== 0;
  }

  private requireMovingSlot(handle: BodyHandle): number {
    const s = this.requireSlot("handle", handle);
    if (this.kinds.kind[s] === KIND_STATIC) {
      invalidValue("handle", handle, "is a static body: static bodies do not sleep or wake");
    }
    return s;
  }

  private wakeSlot(s: number): void {
    const k = this.kinds;
    k.sleeping[s] = 0;
    this.sleepingCount--;
    k.moved(s, this.stepIndex, this.options.sleepAfterSteps > 0);
  }

  /** The tight world AABB of `handle`, written into `out` (allocated when omitted). */
  getAabb(handle: BodyHandle, out: aabbm.Aabb = aabbm.empty()): aabbm.Aabb {
    checkOutRecord("out", out, AABB_PARTS, "a box record {min, max} (aabb.empty())");
    const k = 6 * this.requireSlot("handle", handle);
    const a = this.bodies.aabb;
    vec3.set(out.min, a[k], a[k + 1], a[k + 2]);
    vec3.set(out.max, a[k + 3], a[k + 4], a[k + 5]);
    return out;
  }

  /** The live handles in ascending order (allocates). */
  handles(): BodyHandle[] {
    const b = this.bodies;
    const out: BodyHandle[] = [];
    for (let s = 0; s < b.slotCount; s++) {
      if ((b.flags[s] & FLAG_ALIVE) !== 0) out.push(b.handleOf(s) as BodyHandle);
    }
    // Slot order is handle order unless the world reordered its slots.
    return out.sort((x, y) => x - y);
  }

  /**
   * Runs one collision step (see the module docs): the move buffer's bodies query the broad
   * phase and the static structure, the pairs of two unmoved bodies are kept, the narrow phase
   * tests the pairs with a moved body, then the contact cache and events, the sweep of the fast
   * (`ccd`) bodies (src/world/ccd.ts) and automatic sleep. A step in which no body was added,
   * moved, removed or refiltered, after a step without `begin` or `end` events, does O(1) work.
   * Allocates nothing in steady state. Afterwards read {@link events}, {@link contacts} /
   * {@link readContact}, {@link impacts} and {@link stats}.
   */
  step(): void {
    this.checkNotStepping();
    if (this.bp.requiresAsync === true) {
      throw new CollideError(
        "invalid_value",
        "options.broadphase",
        "gpu",
        "this world's broad phase runs on the GPU, whose results arrive asynchronously: use `await world.stepAsync()` instead of `world.step()`",
      );
    }
    const t0 = this.options.profile ? performance.now() : 0;
    this.maybeReorderSlots();
    if (this.quietStep()) return;
    this.finishStep(this.wantsAllMovingPairs() ? this.bp.computePairs(this.movingPairs) : null, t0);
  }

  /**
   * Runs one collision step like {@link step}, awaiting the broad phase when it is asynchronous
   * (a GPU broad phase of `collide/gpu`, which then computes every pair of moving bodies); on
   * every other broad phase it is `step()` in a promise. An asynchronous broad phase is asked
   * for the moving bodies' pairs at every step, even one in which nothing moved, so that a lost
   * GPU device is reported at once. The pairs, contacts and events are
   * those `step()` gives. The world's bodies may not change (`addBody`, `setPose`, `setPoses`,
   * `removeBody`, `sleep`, `wake` throw `CollideError`) until the promise settles. When the
   * broad phase rejects (a lost GPU device, a device limit), the promise rejects with its
   * `CollideError` and the world is left as it was before the step.
   */
  async stepAsync(): Promise<void> {
    this.checkNotStepping();
    const bp = this.bp;
    const t0 = this.options.profile ? performance.now() : 0;
    this.maybeReorderSlots();
    if (bp.computePairsAsync === undefined) {
      if (this.quietStep()) return;
      this.finishStep(this.wantsAllMovingPairs() ? bp.computePairs(this.movingPairs) : null, t0);
      return;
    }
    this.stepping = true;
    let pairs: PairSet;
    try {
      pairs = await bp.computePairsAsync(this.movingPairs);
    } finally {
      this.stepping = false;
    }
    this.finishStep(pairs, t0);
  }

  /**
   * Throws while a query's predicate runs: the query is walking the broad phase with the world's
   * one set of traversal stacks and query fields, which a query started inside the predicate
   * would overwrite (the outer query then returned too few bodies). Every query method and
   * {@link castShape} call it before they touch any state, so the outer query is unchanged when
   * the caller catches the error.
   * @internal
   */
  checkNotInQuery(): void {
    if (this.inPredicate) {
      throw new CollideError(
        "invalid_value",
        "world",
        "a query's predicate",
        "world is in the middle of a query: its predicate must not start another query of the same world (collect the handles and query again after the query returns)",
      );
    }
  }

  /**
   * Throws while a {@link stepAsync} is in flight (its pairs are for the bodies as they were) and
   * while a query's predicate runs (the query is walking the world's structures).
   */
  private checkNotStepping(): void {
    if (this.inPredicate) {
      throw new CollideError(
        "invalid_value",
        "world",
        "a query's predicate",
        "world is in the middle of a query: its predicate must not add, move, remove, sleep or wake bodies or step the world (collect the handles and change the world after the query returns)",
      );
    }
    if (this.stepping) {
      throw new CollideError(
        "invalid_value",
        "world",
        "stepAsync",
        "world is in the middle of stepAsync(): await it before stepping again or changing bodies",
      );
    }
  }

  /**
   * Reorders the storage slots along the Morton curve (see `reorderSlotsAt`) when it is due:
   * enough bounded bodies, a quarter of them new since the last reordering, and no pair state
   * (no candidate pair, touching pair or warm start of the last step, so no per-pair record
   * names a slot).
   */
  private maybeReorderSlots(): void {
    const b = this.bodies;
    const bounded = b.count - this.unbounded.length;
    if (bounded < this.options.reorderSlotsAt || 4 * this.addedSinceReorder < bounded) return;
    if (this.pairs.size !== 0 || this.cache.touchingCount !== 0 || this.warmStarts.size !== 0) {
      return;
    }
    if (bounded > MORTON_ORDER_MAX) return;
    this.reorderSlots(bounded);
  }

  /**
   * Moves the bodies to new slots: the `bounded` live bounded bodies first, in the Morton order
   * of their broad-phase box centres (`sortByMorton`, the static BVH's order), then every other
   * slot (half-spaces, free and pending slots) in its old order. Every per-slot array moves with
   * them (the body store with the ids, so handles still name their bodies; kinds, boxes, move
   * buffer, sleep and static sets; the fast bodies), the broad phase is refilled in the new slot
   * order, and the structures built over slots (static BVH, query BVH) are rebuilt at their
   * next use. The world must hold no pair state. Allocates (O(slots)), once per reordering.
   */
  private reorderSlots(bounded: number): void {
    this.addedSinceReorder = 0;
    const b = this.bodies;
    const k = this.kinds;
    const n = b.slotCount;
    const flags = b.flags;
    const type = b.shapeType;
    const live = new Int32Array(bounded);
    let c = 0;
    for (let s = 0; s < n; s++) {
      if ((flags[s] & FLAG_ALIVE) !== 0 && !isUnboundedType(type[s])) live[c++] = s;
    }
    const oldOf = new Int32Array(n);
    sortByMorton(k.box, live, c, oldOf);
    const newOf = new Int32Array(n).fill(-1);
    for (let i = 0; i < c; i++) newOf[oldOf[i]] = i;
    // Kept as it is when already about as coherent: a path through the box centres in slot
    // order at most REORDER_GAIN_MIN times as long as in Morton order (bodies added in spatial
    // order, e.g. row by row on a lattice, which a reordering measured slower on).
    if (pathLength(k.box, live, c) <= REORDER_GAIN_MIN * pathLength(k.box, oldOf, c)) return;
    for (let s = 0; s < n; s++) {
      if (newOf[s] >= 0) continue;
      newOf[s] = c;
      oldOf[c++] = s;
    }
    b.permute(newOf, oldOf);
    k.permute(newOf, oldOf, n);
    this.ccd.permute(newOf, oldOf);
    const u = this.unbounded;
    for (let i = 0; i < u.length; i++) u[i] = newOf[u[i]];
    u.sort((x, y) => x - y);
    const bp = this.bp;
    bp.clear();
    const box = k.box;
    const kind = k.kind;
    for (let s = 0; s < bounded; s++) {
      if (kind[s] === KIND_STATIC) continue;
      const o = 6 * s;
      vec3.set(bpMin, box[o], box[o + 1], box[o + 2]);
      vec3.set(bpMax, box[o + 3], box[o + 4], box[o + 5]);
      bp.insert(s, bpMin, bpMax);
    }
    this.bodiesChanged();
  }

  /**
   * The O(1) step: when the move buffer is empty, no body is swept (`ccd`) and the last step
   * had no `begin` or `end` event, the pairs, contacts and events are those of the last step
   * (its `persist` list already holds every touching pair), so only the clock and automatic
   * sleep advance. Returns false when a full step is needed.
   */
  private quietStep(): boolean {
    if (this.kinds.movedCount !== 0 || this.ccd.count !== 0) return false;
    const ev = this.cache.events;
    if (ev.begin.count !== 0 || ev.end.count !== 0) return false;
    this.ccd.impacts.clear();
    this.endStepSleep();
    const st = this.stats;
    st.movedBodies = 0;
    st.narrowPairs = 0;
    st.sleepingBodies = this.sleepingCount;
    st.broadPhaseMs = 0;
    st.narrowPhaseMs = 0;
    return true;
  }

  /**
   * True when so many moving bodies are in the move buffer (more than a quarter) that one
   * `computePairs` of the broad phase is cheaper than a box query per moved body; the pair set
   * is the same either way.
   */
  private wantsAllMovingPairs(): boolean {
    const k = this.kinds;
    const moving = this.bp.size;
    if (4 * k.dirtyCount <= moving) return false;
    let moved = 0;
    for (let i = 0; i < k.dirtyCount; i++) {
      const s = k.dirtyList[i];
      // Counted only until the answer is known (every body moved: a quarter of the list).
      if (k.kind[s] !== KIND_STATIC && this.bp.has(s) && 4 * ++moved > moving) return true;
    }
    return false;
  }

  /**
   * Builds the step's candidate pairs into {@link nextPairs} (see the module docs): the pairs
   * of the last step between two bodies outside the move buffer, plus every pair of a body in
   * the move buffer, found by box queries of the broad phase (moving bodies) and of the static
   * structure (static bodies); `allMoving`, when given, is the broad phase's complete pair set
   * of the moving bodies and replaces their kept pairs and queries; when more static bodies
   * are in the move buffer than there are moving bodies, every moving body queries the static
   * structure instead of each moved static body querying the broad phase. Two static bodies
   * are never paired. Throws `CollideError` (options.maxPairs) before changing any state.
   */
  private buildPairs(allMoving: PairSet | null): void {
    const k = this.kinds;
    const b = this.bodies;
    const { dirty, kind, dirtyList, dirtyCount, dirtyStatic, dirtyStaticCount } = k;
    const type = b.shapeType;
    const flags = b.flags;
    this.ensureStaticBvh();
    const fullMoving = allMoving !== null;
    if (fullMoving && k.staticBounded === 0 && this.unbounded.length === 0) {
      // Only bounded moving bodies: every pair is in the broad phase's complete set (the
      // random scene's every step, where all bodies move): one copy, no walk of the old pairs.
      const next = this.nextPairs;
      next.clear();
      next.appendKeys(allMoving.storage, 0, allMoving.size);
      return;
    }
    // The live moved static bodies, counted only when they may outnumber the moving bodies.
    const fullStatic =
      k.staticBounded > 0 &&
      dirtyStaticCount > this.bp.size &&
      k.liveDirtyStatic(flags, FLAG_ALIVE) > this.bp.size;
    // Pairs kept from the last step: neither body in the move buffer.
    // Keys are written to the sets' storage directly (PairSet.room): a key passed to `addKey`
    // is boxed whenever V8 does not inline it here (measured 4.9 KB per step under load).
    const kept = this.keptPairs;
    kept.clear();
    let keptKeys = kept.storage;
    let kw = 0;
    const old = this.pairs;
    for (let i = 0; i < old.size; i++) {
      const key = old.keyAt(i);
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const hi = key - lo * PAIR_KEY_BASE;
      if (dirty[lo] !== 0 || dirty[hi] !== 0) continue;
      if (!isUnboundedType(type[lo]) && !isUnboundedType(type[hi])) {
        const staticPair = kind[lo] === KIND_STATIC || kind[hi] === KIND_STATIC;
        if (staticPair ? fullStatic : fullMoving) continue;
      }
      if (kw === keptKeys.length) {
        kept.setSize(kw);
        keptKeys = kept.room();
      }
      keptKeys[kw++] = key;
    }
    kept.setSize(kw);
    // Pairs found now.
    const found = this.foundPairs;
    found.clear();
    if (allMoving !== null) found.appendKeys(allMoving.storage, 0, allMoving.size);
    const box = k.box;
    const unbounded = this.unbounded;
    // Many moving bodies query the static structure: their kept candidates are tested on the
    // executor's threads after this loop (the bodies listed here), the rest on this thread.
    const ex = this.options.executor;
    const staticJob =
      ex !== null &&
      ex.runStaticQueries !== undefined &&
      k.shared &&
      !fullStatic &&
      k.staticBounded > 0 &&
      dirtyCount >= PARALLEL_STATIC_MIN;
    const job = this.staticJob;
    if (staticJob && job.bodies.length < dirtyCount) {
      job.bodies = newInt32(Math.max(dirtyCount, 2 * job.bodies.length), true);
    }
    let jobBodies = 0;
    // The moved moving bodies, then the moved static ones — unless every moving body queries the
    // static structure and no unbounded body is there to pair with (a moved static box then
    // has nothing to do: the first step after a level is added lists every static body).
    const statics = fullStatic && unbounded.length === 0 ? 0 : dirtyStaticCount;
    for (let i = 0; i < dirtyCount + statics; i++) {
      const d = i < dirtyCount ? dirtyList[i] : dirtyStatic[i - dirtyCount];
      if ((flags[d] & FLAG_ALIVE) === 0) continue;
      const dStatic = kind[d] === KIND_STATIC;
      // Each list's entries of its own kind (a slot may be in both: BodyKinds.markDirty).
      if (dStatic !== i >= dirtyCount) continue;
      if (dStatic && fullStatic && unbounded.length === 0 && !isUnboundedType(type[d])) {
        continue;
      }
      if (isUnboundedType(type[d])) {
        for (let s = 0; s < b.slotCount; s++) {
          if ((flags[s] & FLAG_ALIVE) === 0 || isUnboundedType(type[s])) continue;
          if (dStatic && kind[s] === KIND_STATIC) continue;
          found.add(d, s);
        }
        continue;
      }
      for (let u = 0; u < unbounded.length; u++) {
        const s = unbounded[u];
        if (dStatic && kind[s] === KIND_STATIC) continue;
        found.add(d, s);
      }
      const o = 6 * d;
      vec3.set(bpMin, box[o], box[o + 1], box[o + 2]);
      vec3.set(bpMax, box[o + 3], box[o + 4], box[o + 5]);
      this.pairQuerySlot = d;
      if (!dStatic) {
        if (!fullMoving) this.bp.queryAabb(bpMin, bpMax, this.pairVisitor);
        if (!fullStatic && k.staticBounded > 0) {
          if (staticJob) job.bodies[jobBodies++] = d;
          else k.queryStatic(d, b.slotCount, this.staticPairVisitor);
        }
      } else if (!fullStatic) {
        this.bp.queryAabb(bpMin, bpMax, this.fromStaticVisitor);
      }
    }
    if (jobBodies > 0) this.runStaticJob(jobBodies);
    if (fullStatic) this.queryStaticAll();
    // Found holds only the broad phase's pair set (sorted, unique) when nothing else was added.
    if (allMoving === null || found.size !== allMoving.size) found.sortUnique();
    // Merge the two ascending sets.
    const next = this.nextPairs;
    next.clear();
    const nk = kept.size;
    const nf = found.size;
    if (nk === 0 || nf === 0) {
      // One set empty (every body in the move buffer, or none found): a copy, no merge.
      const src = nk === 0 ? found : kept;
      next.appendKeys(src.storage, 0, src.size);
      return;
    }
    let nextKeys = next.storage;
    let w = 0;
    let i = 0;
    let j = 0;
    while (i < nk || j < nf) {
      const a = i < nk ? kept.keyAt(i) : Infinity;
      const c = j < nf ? found.keyAt(j) : Infinity;
      if (w === nextKeys.length) {
        next.setSize(w);
        nextKeys = next.room();
      }
      if (a < c) {
        nextKeys[w++] = a;
        i++;
      } else if (c < a) {
        nextKeys[w++] = c;
        j++;
      } else {
        nextKeys[w++] = a;
        i++;
        j++;
      }
    }
    next.setSize(w);
  }

  /**
   * Every live bounded moving body queries the static structure (its pairs to
   * {@link foundPairs}). A method of its own: on a level's first step this loop walks every slot
   * (100,000 static ones) in code V8 has not compiled yet, and is compiled on the stack as this
   * small function instead of as the whole of `buildPairs`.
   */
  private queryStaticAll(): void {
    const b = this.bodies;
    const k = this.kinds;
    const flags = b.flags;
    const kind = k.kind;
    const type = b.shapeType;
    for (let s = 0; s < b.slotCount; s++) {
      if ((flags[s] & FLAG_ALIVE) === 0 || kind[s] === KIND_STATIC) continue;
      if (isUnboundedType(type[s])) continue;
      this.pairQuerySlot = s;
      k.queryStatic(s, b.slotCount, this.staticPairVisitor);
    }
  }

  /**
   * The static queries of the `count` moving bodies listed in the static job, on the executor's
   * threads (src/world/static-query.ts): their pairs go to {@link foundPairs} (unsorted), and
   * the bodies a chunk left (candidates to refresh, or more pairs than its room) query here.
   */
  private runStaticJob(count: number): void {
    const job = this.staticJob;
    const k = this.kinds;
    job.count = count;
    k.fillStaticJob(job);
    const chunks = staticQueryChunks(job);
    const room = job.chunkSize * STATIC_QUERY_ROOM_PER_BODY;
    if (job.keys.length < chunks * room) job.keys = newFloat64(chunks * room, true);
    if (job.serial.length < chunks * job.chunkSize) {
      job.serial = newInt32(chunks * job.chunkSize, true);
    }
    if (job.chunkLengths.length < 2 * chunks) job.chunkLengths = newInt32(2 * chunks, true);
    (this.options.executor as StepExecutor).runStaticQueries?.(job, chunks);
    const found = this.foundPairs;
    const slotCount = this.bodies.slotCount;
    for (let c = 0; c < chunks; c++) {
      const from = c * room;
      found.appendKeys(job.keys, from, from + job.chunkLengths[2 * c]);
    }
    for (let c = 0; c < chunks; c++) {
      const from = c * job.chunkSize;
      const to = from + job.chunkLengths[2 * c + 1];
      for (let i = from; i < to; i++) {
        const d = job.serial[i];
        this.pairQuerySlot = d;
        k.queryStatic(d, slotCount, this.staticPairVisitor);
      }
    }
  }

  /** Move-buffer query of a moving body: pairs it with moving body `id`. */
  private visitMovingPair(id: number): unknown {
    const d = this.pairQuerySlot;
    // Two moved bodies find each other: the lower one's query adds the pair.
    if (id !== d && (this.kinds.dirty[id] === 0 || d < id)) this.foundPairs.add(d, id);
    return undefined;
  }

  /** Move-buffer query of a moving body in the static structure: pairs it with static `id`. */
  private visitStaticPair(id: number): unknown {
    this.foundPairs.add(this.pairQuerySlot, id);
    return undefined;
  }

  /**
   * Move-buffer query of a moved static body in the broad phase: pairs it with moving `id`
   * unless `id` moved too (its own query of the static structure adds the pair).
   */
  private visitFromStatic(id: number): unknown {
    if (this.kinds.dirty[id] === 0) this.foundPairs.add(this.pairQuerySlot, id);
    return undefined;
  }

  /**
   * The step after the moving bodies' broad phase (`allMoving`, or null for the move buffer's
   * queries): pairs, filter, narrow phase of the pairs with a moved body (the others carry
   * their last result over), contact cache, CCD, sleep, stats.
   */
  private finishStep(allMoving: PairSet | null, t0: number): void {
    const profile = this.options.profile;
    this.buildPairs(allMoving);
    const pairs = this.nextPairs;
    if (pairs.size > this.options.maxPairs) {
      invalidValue(
        "options.maxPairs",
        this.options.maxPairs,
        `is exceeded: the broad phase found ${pairs.size} candidate pairs (raise it to allow this)`,
      );
    }
    this.nextPairs = this.pairs;
    this.pairs = pairs;
    const t1 = profile ? performance.now() : 0;
    const b = this.bodies;
    const { layer, mask, flags, handleOfSlot, shapes, radius } = b;
    const dirty = this.kinds.dirty;
    const cache = this.cache;
    const prediction = this.options.prediction;
    cache.beginFrame(pairs.size);
    let filtered = 0;
    let sensorPairs = 0;
    const n = pairs.size;
    this.narrowCount = 0;
    const executor = this.options.executor;
    if (executor !== null && executor !== undefined) {
      if (this.filteredKeys.length < n) {
        let cap = this.filteredKeys.length;
        while (cap < n) cap *= 2;
        this.filteredKeys = allocFloat64(
          cap,
          this.filteredKeys.buffer instanceof SharedArrayBuffer,
        );
      }
      if (this.carryKeys.length < n) {
        let cap = this.carryKeys.length;
        while (cap < n) cap *= 2;
        this.carryKeys = new Float64Array(cap);
      }
      const keys = this.filteredKeys;
      const input = this.executorInput;
      // Every pair passes the filter while no body ever had a closed one: an executor that
      // carries unmoved pairs itself gets them all and sorts out the unmoved ones on its threads.
      const threadsCarry = executor.carriesUnmoved === true && !this.closedFilter;
      let tested = 0;
      let carried = 0;
      const all = pairs.storage;
      if (threadsCarry) {
        for (let i = 0; i < n; i++) keys[i] = all[i];
        filtered = n;
        tested = n;
        input.dirty = dirty;
      } else {
        // The filter, and the pairs to carry over (listed, so that the merge walks only those).
        const carry = this.carryKeys;
        for (let i = 0; i < n; i++) {
          const key = all[i];
          const lo = Math.floor(key / PAIR_KEY_BASE);
          const hi = key - lo * PAIR_KEY_BASE;
          if ((layer[lo] & mask[hi]) !== 0 && (layer[hi] & mask[lo]) !== 0) {
            filtered++;
            if (dirty[lo] !== 0 || dirty[hi] !== 0) keys[tested++] = key;
            else carry[carried++] = key;
          }
        }
        input.dirty = null;
      }
      this.carryCount = carried;
      input.pairs = keys;
      input.pairCount = tested;
      input.pose = b.pose;
      input.flags = flags;
      input.radius = radius;
      input.shapes = shapes;
      input.slotCount = b.slotCount;
      input.shapesVersion = b.shapesVersion;
      input.prediction = prediction;
      this.sinkSensorPairs = 0;
      this.sinkCarried = 0;
      this.carryCursor = 0;
      executor.runNarrowPhase(input, this.narrowSink);
      this.carryUpTo(Infinity);
      sensorPairs = this.sinkSensorPairs;
      this.narrowCount = tested - this.sinkCarried;
    } else {
      const rec = narrowRecord;
      // Every pair passes the layer/mask filter while no body ever had a closed one.
      const filters = this.closedFilter;
      let tested = 0;
      const warm = this.options.warmStart ? this.warmStarts : null;
      warm?.beginFrame(prediction);
      // The keys read from the storage (not through `keyAt`) and the slots made integers
      // (`| 0`, exact: slots are below 2^26): until V8 has compiled this loop — much of a first
      // step's narrow phase — the call and the subtraction each made a heap number per pair, and
      // the slot passed to narrowPairRadius was a heap number.
      const keys = pairs.storage;
      for (let i = 0; i < n; i++) {
        const key = keys[i];
        const lo = Math.floor(key / PAIR_KEY_BASE) | 0;
        const hi = (key - lo * PAIR_KEY_BASE) | 0;
        if (filters && ((layer[lo] & mask[hi]) === 0 || (layer[hi] & mask[lo]) === 0)) continue;
        filtered++;
        if (dirty[lo] === 0 && dirty[hi] === 0) {
          // A persistent pair of two unmoved bodies: its last result stands.
          if (cache.carry(lo, hi) === 1) sensorPairs++;
          warm?.carry(lo, hi);
          continue;
        }
        tested++;
        // Without warm starts the record is written in place in the contact cache's next
        // record (kept by commitRecordSlots when the pair touches), not copied from a scratch one.
        let kind = NARROW_NONE;
        if (warm === null) {
          const at = cache.reserveRecord();
          const out = cache.recordArray;
          kind = narrowPairRadius(out, at, lo, hi, b.pose, flags, shapes, radius, prediction);
        } else {
          kind = warm.narrow(rec, lo, hi, b.pose, flags, shapes, prediction);
        }
        if (kind === NARROW_NONE) continue;
        if (kind === NARROW_SENSOR) {
          cache.addSensorPair(key, handleOfSlot[lo], handleOfSlot[hi]);
          sensorPairs++;
        } else {
          if (warm === null) cache.commitRecordSlots(lo, hi, handleOfSlot);
          else {
            const ha = handleOfSlot[lo];
            const hb = handleOfSlot[hi];
            cache.addContactRecord(key, ha, hb, rec, 0);
          }
          this.wakeOnContact(lo, hi);
        }
      }
      warm?.endFrame();
      this.narrowCount = tested;
    }
    cache.endFrame();
    this.ccd.run(b, this.ccdQuery, this.unbounded);
    this.cache.updateTouchCounts(b.touchCount, b.slotOfId);
    b.releasePending();
    const st = this.stats;
    st.movedBodies = this.kinds.movedCount;
    this.endStepMoves();
    st.bodies = b.count;
    st.candidatePairs = n;
    st.filteredPairs = filtered;
    st.sensorPairs = sensorPairs;
    st.contactPairs = cache.contactCount;
    st.narrowPairs = this.narrowCount;
    st.sleepingBodies = this.sleepingCount;
    if (profile) {
      const t2 = performance.now();
      st.broadPhaseMs = t1 - t0;
      st.narrowPhaseMs = t2 - t1;
    }
  }

  /**
   * The warm-start counters of the last step (src/world/warm-start-cache.ts): pairs whose answer was
   * reused, pairs settled by their cached separating axis, pairs that ran the cold narrow phase.
   * All zero with `warmStart: false` or an executor. Valid until the next step.
   */
  warmStartStats(): Readonly<WarmStartStats> {
    return this.warmStarts.stats;
  }

  /**
   * A contact between `lo` and `hi` was found by the narrow phase this step: a sleeping body
   * touched by a moving, awake body of the move buffer wakes.
   */
  private wakeOnContact(lo: number, hi: number): void {
    const k = this.kinds;
    const sl = k.sleeping;
    if (sl[lo] === sl[hi]) return;
    const sleeper = sl[lo] !== 0 ? lo : hi;
    const mover = sleeper === lo ? hi : lo;
    if (k.dirty[mover] !== 0 && k.kind[mover] !== KIND_STATIC) this.wakeSlot(sleeper);
  }

  /**
   * Carries every pair of {@link carryKeys} below `key` (the filter passed, neither body in
   * the move buffer) into the contact cache, from {@link carryCursor} on (executor path).
   */
  private carryUpTo(key: number): void {
    const carry = this.carryKeys;
    const n = this.carryCount;
    let i = this.carryCursor;
    for (; i < n; i++) {
      const k = carry[i];
      if (k >= key) break;
      const lo = Math.floor(k / PAIR_KEY_BASE);
      const hi = k - lo * PAIR_KEY_BASE;
      if (this.cache.carry(lo, hi) === 1) this.sinkSensorPairs++;
    }
    this.carryCursor = i;
  }

  /**
   * End of a full step: the moved moving bodies' clocks restart (for automatic sleep), the
   * move buffer empties, and automatic sleep runs.
   */
  private endStepMoves(): void {
    const k = this.kinds;
    const b = this.bodies;
    const queue = this.options.sleepAfterSteps > 0;
    const { dirty, dirtyList, kind, sleeping } = k;
    const flags = b.flags;
    // One pass: restart the clocks and empty the move buffer (as `clearDirty`).
    for (let i = 0; i < k.dirtyCount; i++) {
      const s = dirtyList[i];
      dirty[s] = 0;
      if ((flags[s] & FLAG_ALIVE) === 0 || kind[s] === KIND_STATIC) continue;
      if (sleeping[s] === 0) k.moved(s, this.stepIndex, queue);
    }
    k.dirtyCount = 0;
    k.clearDirtyStatic();
    this.endStepSleep();
  }

  /** Puts to sleep the bodies that stayed still `sleepAfterSteps` steps; advances the clock. */
  private endStepSleep(): void {
    const after = this.options.sleepAfterSteps;
    if (after > 0) {
      const k = this.kinds;
      const b = this.bodies;
      for (;;) {
        const s = k.popDue(this.stepIndex - after);
        if (s < 0) break;
        if ((b.flags[s] & FLAG_ALIVE) === 0 || k.kind[s] === KIND_STATIC) continue;
        if (k.sleeping[s] !== 0) continue;
        k.sleeping[s] = 1;
        this.sleepingCount++;
      }
    }
    this.stepIndex++;
  }

  /** The events of the last step: `begin`, `persist`, `end` lists, valid until the next step. */
  events(): WorldEvents {
    return this.cache.events;
  }

  /**
   * The continuous-collision impacts of the last step (src/world/ccd.ts): every pair with a fast
   * body that touched during the fast body's sweep from its previous pose to its current one,
   * with the first time of impact (a fraction of the step in [0, 1]) and the normal and witness
   * points at that time, world frame, in ascending `(a, b)` order; valid until the next step.
   * Empty when no body has `ccd` set.
   */
  impacts(): ImpactList {
    return this.ccd.impacts;
  }

  /**
   * Turns continuous collision detection of body `handle` on or off (see {@link BodyDesc.ccd}).
   * Turning it on starts the sweep at the body's current pose. Throws `CollideError` on a stale
   * handle, a non-boolean `enabled`, or turning it on for a static body, a sensor or a half-space.
   */
  setCcd(handle: BodyHandle, enabled: boolean): void {
    const slot = this.requireSlot("handle", handle);
    if (typeof enabled !== "boolean") invalidValue("enabled", enabled, "must be a boolean");
    if (enabled && this.kinds.kind[slot] === KIND_STATIC) {
      invalidValue("handle", handle, "is a static body: continuous collision needs a moving body");
    }
    if (enabled && (this.bodies.flags[slot] & FLAG_SENSOR) !== 0) {
      invalidValue("handle", handle, "is a sensor: continuous collision is for non-sensor bodies");
    }
    if (enabled && this.bodies.shapeType[slot] === ShapeType.HalfSpace) {
      invalidValue("handle", handle, "is a half-space: an unbounded shape cannot be swept");
    }
    if (!enabled) this.ccd.remove(slot);
    else if (!this.ccd.has(slot)) this.ccd.add(slot, this.bodies.pose);
  }

  /** True when body `handle` has continuous collision detection on. Throws on a stale handle. */
  isCcd(handle: BodyHandle): boolean {
    return this.ccd.has(this.requireSlot("handle", handle));
  }

  /** Number of touching non-sensor pairs of the last step. */
  get contactCount(): number {
    return this.cache.contactCount;
  }

  /**
   * Fills `out` with the `i`-th contact of the last step (0 ≤ i < contactCount; ascending
   * `(a, b)` order, world frame). Allocation-free access; returns out.
   */
  readContact(i: number, out: WorldContact = makeWorldContact()): WorldContact {
    if (!(Number.isInteger(i) && i >= 0 && i < this.cache.contactCount)) {
      invalidValue("index", i, `must be an integer in [0, ${this.cache.contactCount})`);
    }
    checkOutRecord("out", out, CONTACT_PARTS, "a contact record {a, b, distance, manifold}");
    checkManifoldOut(out.manifold, "out.manifold");
    return this.cache.readContact(i, out);
  }

  /**
   * Every touching non-sensor pair of the last step with its world-frame manifold, in ascending
   * `(a, b)` order (allocates fresh objects; use {@link readContact} in a loop to avoid that).
   */
  contacts(): WorldContact[] {
    const out: WorldContact[] = [];
    for (let i = 0; i < this.cache.contactCount; i++) {
      out.push(this.cache.readContact(i, makeWorldContact()));
    }
    return out;
  }

  /**
   * True when bodies `a` and `b` touched (contact or sensor overlap) at the last step. Throws
   * `CollideError` for stale handles.
   */
  isTouching(a: BodyHandle, b: BodyHandle): boolean {
    const sa = this.requireSlot("a", a);
    const sb = this.requireSlot("b", b);
    if (sa === sb) return false;
    const key = sa < sb ? sa * PAIR_KEY_BASE + sb : sb * PAIR_KEY_BASE + sa;
    return this.cache.isTouching(key);
  }

  /**
   * The broad phase's candidate pairs of the last step (before the layer/mask filter and the
   * narrow phase), appended to `out` as handle pairs `a0, b0, a1, b1, …` with `a < b`, in the
   * broad phase's order; for debugging and the viewer (allocates as `out` grows).
   */
  candidatePairs(out: BodyHandle[] = []): BodyHandle[] {
    checkOutArray("out", out);
    const pairs = this.pairs;
    const handleOfSlot = this.bodies.handleOfSlot;
    for (let i = 0; i < pairs.size; i++) {
      const key = pairs.keyAt(i);
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const hi = key - lo * PAIR_KEY_BASE;
      const a = handleOfSlot[lo] as BodyHandle;
      const b = handleOfSlot[hi] as BodyHandle;
      if (a < b) out.push(a, b);
      else out.push(b, a);
    }
    return out;
  }

  /**
   * The closest body hit by the ray segment `origin + t·dir`, `t ∈ [0, maxToi]` (world frame;
   * `maxToi` may be Infinity), or null, with `caster` as the per-shape ray routine (src/world/
   * ray-cast.ts passes `castRayShape`). The broad phase's ray traversal finds the candidate
   * bodies, nearest boxes first where it can, and clips the segment at the best hit so far; ties
   * in `toi` go to the lower handle, so the answer does not depend on the broad phase. Writes
   * into `out` when given. Throws `CollideError` for a non-finite origin or direction or a
   * negative `maxToi`.
   */
  castRayWith(
    caster: RayShapeCaster,
    origin: Vec3,
    dir: Vec3,
    maxToi = Infinity,
    options: RayCastOptions = NO_RAY_OPTIONS,
    out?: WorldRayHit,
  ): WorldRayHit | null {
    if (out !== undefined) checkOutRecord("out", out, RAY_HIT_PARTS, RAY_HIT_RECORD);
    this.beginRay(caster, origin, dir, maxToi, options, null, RAY_CLOSEST_SPEC);
    this.castRayAll(origin, dir, maxToi);
    for (const u of this.unbounded) this.visitRay(u, 0);
    this.qCaster = null;
    return this.bestRayHit(out);
  }

  /**
   * Every body hit by the ray segment (see {@link castRayWith}), sorted by `toi` then handle,
   * appended to `out` (allocates the hits; `out` is sorted as a whole).
   */
  castRayAllWith(
    caster: RayShapeCaster,
    origin: Vec3,
    dir: Vec3,
    maxToi = Infinity,
    options: RayCastOptions = NO_RAY_OPTIONS,
    out: WorldRayHit[] = [],
  ): WorldRayHit[] {
    checkOutArray("out", out);
    this.beginRay(caster, origin, dir, maxToi, options, out, RAY_ALL_SPEC);
    this.castRayAll(origin, dir, maxToi);
    for (const u of this.unbounded) this.visitRay(u, 0);
    this.qAll = null;
    this.qCaster = null;
    out.sort((p, q) => p.toi - q.toi || p.handle - q.handle);
    return out;
  }

  /**
   * Some body hit by the ray segment (see {@link castRayWith}), or null: the cast stops at the
   * first hit found (Jolt's any-hit collector), for line-of-sight tests. Whether there is a hit
   * is the same for every broad phase; WHICH body is reported depends on the traversal order
   * (use {@link castRayWith} for a deterministic closest hit). Writes into `out` when given.
   */
  castRayAnyWith(
    caster: RayShapeCaster,
    origin: Vec3,
    dir: Vec3,
    maxToi = Infinity,
    options: RayCastOptions = NO_RAY_OPTIONS,
    out?: WorldRayHit,
  ): WorldRayHit | null {
    if (out !== undefined) checkOutRecord("out", out, RAY_HIT_PARTS, RAY_HIT_RECORD);
    this.beginRay(caster, origin, dir, maxToi, options, null, RAY_ANY_SPEC);
    this.qAny = true;
    try {
      this.castRayAll(origin, dir, maxToi);
      for (const u of this.unbounded) {
        if (this.qBestSlot >= 0) break;
        this.visitRay(u, 0);
      }
    } finally {
      this.qAny = false;
      this.qCaster = null;
    }
    return this.bestRayHit(out);
  }

  /**
   * The bodies whose tight world AABB overlaps or touches the box `[min, max]` (world frame),
   * in ascending handle order, appended to `out`. Uses the broad phase's box query. Throws
   * `CollideError` for a non-finite box or `min > max`.
   */
  overlapAabb(
    min: Vec3,
    max: Vec3,
    out: BodyHandle[] = [],
    filter: QueryFilter = {},
  ): BodyHandle[] {
    this.checkNotInQuery();
    checkVec3("min", min);
    checkVec3("max", max);
    if (!Array.isArray(out)) invalidValue("out", out, "must be an array");
    this.beginFilter(filter, OVERLAP_AABB_SPEC);
    vec3.copy(this.qMin, min);
    vec3.copy(this.qMax, max);
    this.qOut = out;
    const start = out.length;
    this.queryAabbAll(min, max, this.aabbVisitor);
    for (const u of this.unbounded) this.visitAabb(u);
    sortTail(out, start);
    return out;
  }

  /**
   * The bodies that overlap or touch `shape` placed at `pose` (world frame; exact test, no
   * slop), in ascending handle order, appended to `out`. Uses the broad phase's box query with
   * the shape's AABB. Throws `CollideError` for an invalid shape or pose, or a half-space
   * (unbounded: `shape.type`).
   */
  overlapShape(
    shape: Shape,
    pose: Isometry,
    out: BodyHandle[] = [],
    filter: QueryFilter = {},
  ): BodyHandle[] {
    this.checkNotInQuery();
    checkShape("shape", shape);
    if (shape.type === ShapeType.HalfSpace) {
      // Named as castShape names it (it was "pose.translation puts the shape's AABB out of
      // range" for any translation: the half-space's box is unbounded).
      invalidValue("shape.type", "halfspace", "must be a bounded shape (not a half-space)");
    }
    checkWorldPose("pose", pose);
    pose = iso.unitPose(unitPoseScratch, pose);
    if (!Array.isArray(out)) invalidValue("out", out, "must be an array");
    this.beginFilter(filter, OVERLAP_SHAPE_SPEC);
    aabbShape(box, shape, pose);
    if (!vec3.isFiniteVec(box.min) || !vec3.isFiniteVec(box.max)) {
      invalidValue("pose.translation", pose.translation, "puts the shape's AABB out of range");
    }
    vec3.copy(this.qMin, box.min);
    vec3.copy(this.qMax, box.max);
    this.qShape = shape;
    this.qPose = pose;
    this.qOut = out;
    const start = out.length;
    this.queryAabbAll(this.qMin, this.qMax, this.shapeVisitor);
    for (const u of this.unbounded) this.visitShape(u);
    this.qShape = null;
    sortTail(out, start);
    return out;
  }

  /**
   * The bodies that share a point with the view frustum `frustum` (src/query/frustum.ts), in
   * ascending handle order, appended to `out`. The broad phase's box query over the frustum's
   * AABB gives the candidates; each body's world AABB is culled by the plane–corner test
   * (Ericson 2005, §5.2.3), and in `exact` mode (default) a body the planes keep is confirmed
   * by an exact test of its shape against the frustum polytope. `options`: the
   * {@link QueryFilter} fields and `mode`. Throws `CollideError` for a bad frustum, mode or filter.
   */
  overlapFrustum(
    frustum: Frustum,
    options: FrustumQueryOptions = {},
    out: BodyHandle[] = [],
  ): BodyHandle[] {
    this.checkNotInQuery();
    checkFrustum("frustum", frustum);
    if (options === undefined) invalidValue("options", options, "must be an object");
    checkOptions(options, OVERLAP_FRUSTUM_SPEC);
    const mode = options.mode ?? "exact";
    if (mode !== "exact" && mode !== "conservative")
      invalidValue("options.mode", mode, 'must be "exact" or "conservative"');
    if (!Array.isArray(out)) invalidValue("out", out, "must be an array");
    this.beginFilter(options, OVERLAP_FRUSTUM_SPEC);
    this.qFrustum = frustum;
    this.qFrustumExact = mode === "exact";
    vec3.copy(this.qMin, frustum.min);
    vec3.copy(this.qMax, frustum.max);
    this.qOut = out;
    const start = out.length;
    try {
      this.queryAabbAll(this.qMin, this.qMax, this.frustumVisitor);
      for (const u of this.unbounded) this.visitFrustum(u);
    } finally {
      this.qFrustum = null;
    }
    sortTail(out, start);
    return out;
  }

  // ---------------------------------------------------------------------------------------------

  /** The live slot of `handle`, or −1. */
  private slotOf(handle: number): number {
    return this.bodies.slotOf(handle);
  }

  private requireSlot(field: string, handle: BodyHandle): number {
    return this.bodies.requireSlot(field, handle);
  }

  /**
   * box = tight AABB of `shape` at `pose`; bpMin/bpMax = it grown by half the prediction plus
   * the rounding pad (`WORLD_AABB_ROUNDING_PAD` × its largest coordinate magnitude).
   */
  private computeBoxes(
    field: string,
    type: ShapeType,
    shape: Shape,
    pose: Isometry,
    unbounded = false,
  ): void {
    aabbShapeOfType(box, type, shape, pose);
    if (unbounded) return;
    const mn = box.min;
    const mx = box.max;
    const big = Math.max(
      Math.abs(mn.x),
      Math.abs(mn.y),
      Math.abs(mn.z),
      Math.abs(mx.x),
      Math.abs(mx.y),
      Math.abs(mx.z),
    );
    const h = this.halfPrediction + WORLD_AABB_ROUNDING_PAD * big;
    // Written out, and the bound tested on the vectors: this runs in every setPose, and a double
    // passed to a call V8 does not inline is boxed (12 per call, ≈ 96 KB per step at 1,000 bodies
    // measured with a small inlining budget, `--max-inlined-bytecode-size-cumulative=200`).
    bpMin.x = mn.x - h;
    bpMin.y = mn.y - h;
    bpMin.z = mn.z - h;
    bpMax.x = mx.x + h;
    bpMax.y = mx.y + h;
    bpMax.z = mx.z + h;
    // The same test as src/world/pose-boxes.ts (the threaded setPoses refuses the same poses).
    if (!vecsWithinBound(bpMin, bpMax)) this.refuseBox(field, type, shape, pose);
  }

  /**
   * The refusal of a body box beyond ±WORLD_MAX_COORDINATE (error path only: allocates). When
   * the shape reaches past the bound from its own origin at this rotation — no translation could
   * place it — an added body's error names `body.shape` and that reach (a compound whose child
   * sits at 5e307 had been refused naming `body.pose.translation` with the value (0, 0, 0),
   * session 36's second attack); otherwise `<field>.translation` and the translation given.
   */
  private refuseBox(field: string, type: ShapeType, shape: Shape, pose: Isometry): never {
    const own = { min: vec3.create(), max: vec3.create() };
    aabbShapeOfType(own, type, shape, iso.create(vec3.create(), pose.rotation));
    const reach = aabbm.reach(own);
    const grown = reach + this.halfPrediction + WORLD_AABB_ROUNDING_PAD * reach;
    if (field === "body.pose" && !(grown <= WORLD_MAX_COORDINATE)) {
      invalidValue(
        "body.shape",
        shape,
        `reaches ${reach} from the body's origin, so its AABB is out of range at any pose (its coordinates must lie within ±${WORLD_MAX_COORDINATE}; scale the scene down)`,
      );
    }
    return invalidValue(
      `${field}.translation`,
      pose.translation,
      `puts the body's AABB out of range (its coordinates must lie within ±${WORLD_MAX_COORDINATE})`,
    );
  }

  /**
   * Adds `count` narrow-phase records from `data[offset]` on (an executor's block, in pair
   * order) to the contact cache.
   */
  private mergeRecords(data: Float64Array, offset: number, count: number): void {
    const keys = this.filteredKeys;
    const handleOfSlot = this.bodies.handleOfSlot;
    const cache = this.cache;
    let off = offset;
    for (let r = 0; r < count; r++, off += NARROW_RECORD_STRIDE) {
      const key = keys[data[off + 1]];
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const hi = key - lo * PAIR_KEY_BASE;
      this.carryUpTo(key);
      const kind = data[off];
      if (kind === NARROW_CARRY) {
        if (cache.carry(lo, hi) === 1) this.sinkSensorPairs++;
        this.sinkCarried++;
        continue;
      }
      const ha = handleOfSlot[lo];
      const hb = handleOfSlot[hi];
      if (kind === NARROW_SENSOR) {
        cache.addSensorPair(key, ha, hb);
        this.sinkSensorPairs++;
      } else {
        cache.addContactRecord(key, ha, hb, data, off);
        this.wakeOnContact(lo, hi);
      }
    }
  }

  /** Stores the broad-phase box `[bpMin, bpMax]` of `slot` (what the broad phase holds). */
  private writeBpBox(slot: number): void {
    const a = this.kinds.box;
    const k = 6 * slot;
    a[k] = bpMin.x;
    a[k + 1] = bpMin.y;
    a[k + 2] = bpMin.z;
    a[k + 3] = bpMax.x;
    a[k + 4] = bpMax.y;
    a[k + 5] = bpMax.z;
  }

  /** Builds the static structure when static bodies were added, moved or removed since. */
  private ensureStaticBvh(): void {
    const k = this.kinds;
    if (k.staticFresh) return;
    k.ensureStaticBvh(this.bodies.slotCount);
  }

  /**
   * Visits the bodies whose broad-phase box touches `[min, max]`: through the query BVH of
   * every body when fresh, else the broad phase (moving bodies) and the static structure.
   */
  private queryAabbAll(min: Vec3, max: Vec3, visitor: (id: number) => unknown): void {
    const q = this.queryStructure();
    q.queryAabb(min, max, visitor);
    if (q === this.queryBvh || this.kinds.staticBounded === 0) return;
    this.ensureStaticBvh();
    this.kinds.staticBvh.queryAabb(min, max, visitor);
  }

  /**
   * Casts the query's ray through the structures of {@link queryAabbAll}; the second one's
   * segment is clipped at the best hit so far (closest hit), or skipped once a hit is found
   * (any hit).
   */
  private castRayAll(origin: Vec3, dir: Vec3, maxToi: number): void {
    const q = this.queryStructure();
    q.castRay(origin, dir, maxToi, this.rayVisitor);
    if (q === this.queryBvh || this.kinds.staticBounded === 0) return;
    if (this.qAny && this.qBestSlot >= 0) return;
    this.ensureStaticBvh();
    const t = this.qAll === null ? Math.min(maxToi, this.qBestToi) : maxToi;
    this.kinds.staticBvh.castRay(origin, dir, t, this.rayVisitor);
  }

  /** Marks the query BVH stale: a body was added, moved or removed. */
  private bodiesChanged(): void {
    this.queryBvhFresh = false;
    this.queriesSinceChange = 0;
  }

  /**
   * What a ray cast or box query traverses: the static query BVH when it is fresh; else the
   * broad phase, until the world has served `WORLD_QUERY_BVH_RAYS_PER_BODY` × (bounded bodies)
   * queries without a change, when the BVH is built (its cost is then covered by the queries
   * it speeds up). Both report the same candidates, and every query sorts or tie-breaks its
   * answer by handle, so the answers do not depend on which one is used (except which body an
   * any-hit cast reports, as documented).
   */
  private queryStructure(): QueryBvh | BroadPhase {
    if (this.queryBvhFresh) return this.queryBvh;
    const bounded = this.bodies.count - this.unbounded.length;
    if (++this.queriesSinceChange < WORLD_QUERY_BVH_RAYS_PER_BODY * bounded || bounded === 0) {
      return this.bp;
    }
    this.buildQueryBvh();
    return this.queryBvh;
  }

  /**
   * Builds the query BVH over every live bounded body's tight box, padded like the broad
   * phase's (`WORLD_AABB_ROUNDING_PAD` × its largest coordinate magnitude, without the
   * prediction distance, which queries do not use).
   */
  private buildQueryBvh(): void {
    const b = this.bodies;
    const n = b.count - this.unbounded.length;
    if (this.queryBvhIds.length < n) {
      this.queryBvhIds = new Int32Array(n);
      this.queryBvhBoxes = new Float64Array(6 * n);
    }
    const ids = this.queryBvhIds;
    const boxes = this.queryBvhBoxes;
    let count = 0;
    for (let slot = 0; slot < b.slotCount && count < n; slot++) {
      if ((b.flags[slot] & FLAG_ALIVE) === 0 || isUnboundedType(b.shapeType[slot])) continue;
      const k = 6 * slot;
      let big = 0;
      for (let j = 0; j < 6; j++) big = Math.max(big, Math.abs(b.aabb[k + j]));
      const pad = WORLD_AABB_ROUNDING_PAD * big;
      for (let j = 0; j < 3; j++) {
        boxes[6 * count + j] = b.aabb[k + j] - pad;
        boxes[6 * count + 3 + j] = b.aabb[k + 3 + j] + pad;
      }
      ids[count++] = slot;
    }
    this.queryBvh.build(boxes, ids, count);
    this.queryBvhFresh = true;
  }

  private writeTightBox(slot: number): void {
    const a = this.bodies.aabb;
    const k = 6 * slot;
    a[k] = box.min.x;
    a[k + 1] = box.min.y;
    a[k + 2] = box.min.z;
    a[k + 3] = box.max.x;
    a[k + 4] = box.max.y;
    a[k + 5] = box.max.z;
  }

  private beginFilter(filter: QueryFilter, spec: OptionsSpec): void {
    if (filter === undefined) invalidValue(spec.field, filter, "must be an object");
    checkOptions(filter, spec);
    // `undefined` is "not set"; `null` is refused like any other wrong value.
    const mask = filter.mask === undefined ? DEFAULT_MASK : filter.mask;
    checkFilterBits("filter.mask", mask);
    const sensors = filter.includeSensors === undefined ? true : filter.includeSensors;
    if (typeof sensors !== "boolean")
      invalidValue("filter.includeSensors", sensors, "must be a boolean");
    const predicate = filter.predicate === undefined ? null : filter.predicate;
    if (predicate !== null && typeof predicate !== "function")
      invalidValue("filter.predicate", predicate, "must be a function (handle) => boolean");
    if (predicate === null && filter.predicate === null)
      invalidValue("filter.predicate", null, "must be a function (handle) => boolean");
    this.qExcludeOne = -1;
    this.qExcludeList = null;
    this.qExcludeSet = null;
    const ex = filter.exclude;
    if (typeof ex === "number") {
      checkHandleValue("filter.exclude", ex);
      this.qExcludeOne = ex;
    } else if (Array.isArray(ex)) {
      for (let i = 0; i < ex.length; i++) checkHandleValue(`filter.exclude[${i}]`, ex[i]);
      this.qExcludeList = ex;
    } else if (ex instanceof Set) {
      for (const h of ex) checkHandleValue("filter.exclude", h);
      this.qExcludeSet = ex;
    } else if (ex !== undefined) {
      invalidValue("filter.exclude", ex, "must be a body handle or an array or Set of handles");
    }
    this.qMask = mask;
    this.qSensors = sensors;
    this.qPredicate = predicate;
  }

  private passes(slot: number): boolean {
    const b = this.bodies;
    if ((b.layer[slot] & this.qMask) === 0) return false;
    if (!this.qSensors && (b.flags[slot] & FLAG_SENSOR) !== 0) return false;
    if (this.qExcludeOne < 0 && this.qExcludeList === null && this.qExcludeSet === null) {
      if (this.qPredicate === null) return true;
    }
    const h = b.handleOf(slot) as BodyHandle;
    if (h === this.qExcludeOne) return false;
    if (this.qExcludeList?.includes(h)) return false;
    if (this.qExcludeSet?.has(h)) return false;
    if (this.qPredicate === null) return true;
    // The world is read-only while the caller's predicate runs: a body added, moved or removed
    // there would change the structure the query is walking (checkNotStepping refuses it).
    this.inPredicate = true;
    try {
      return Boolean(this.qPredicate(h));
    } finally {
      this.inPredicate = false;
    }
  }

  private beginRay(
    caster: RayShapeCaster,
    origin: Vec3,
    dir: Vec3,
    maxToi: number,
    options: RayCastOptions,
    all: WorldRayHit[] | null,
    spec: OptionsSpec,
  ): void {
    this.checkNotInQuery();
    checkRay(origin, dir, maxToi);
    if (dir.x === 0 && dir.y === 0 && dir.z === 0) invalidValue("dir", dir, "must not be zero");
    this.beginFilter(options, spec);
    const ignoreInitial = options.ignoreInitialOverlap ?? false;
    if (typeof ignoreInitial !== "boolean")
      invalidValue("options.ignoreInitialOverlap", ignoreInitial, "must be a boolean");
    this.qSolid = ignoreInitial ? false : (options.solid ?? true);
    this.qCaster = caster;
    this.qOrigin = origin;
    this.qDir = dir;
    this.qMaxToi = maxToi;
    this.qBestToi = maxToi;
    this.qBestSlot = -1;
    this.qAll = all;
  }

  private visitRay(slot: number, boxToi: number): unknown {
    if (!this.passes(slot)) return undefined;
    const all = this.qAll;
    if (all === null && boxToi > this.qBestToi) return undefined;
    const shape = this.bodies.shapes[slot] as Shape;
    this.bodies.readPose(poseA, slot);
    const h = rayHitScratch;
    const caster = this.qCaster as RayShapeCaster;
    if (!caster(h, shape, poseA, this.qOrigin, this.qDir, this.qMaxToi, this.qSolid)) {
      return undefined;
    }
    if (all !== null) {
      all.push({
        handle: this.bodies.handleOf(slot) as BodyHandle,
        toi: h.toi,
        point: vec3.clone(h.point),
        normal: vec3.clone(h.normal),
      });
      return undefined;
    }
    if (
      h.toi < this.qBestToi ||
      (h.toi === this.qBestToi && (this.qBestSlot < 0 || slot < this.qBestSlot))
    ) {
      this.qBestToi = h.toi;
      this.qBestSlot = slot;
      vec3.copy(this.qBestPoint, h.point);
      vec3.copy(this.qBestNormal, h.normal);
    }
    return this.qAny ? -1 : this.qBestToi;
  }

  /** The best ray hit of the last cast, written to `out` (allocated when absent), or null. */
  private bestRayHit(out?: WorldRayHit): WorldRayHit | null {
    if (this.qBestSlot < 0) return null;
    const hit = out ?? {
      handle: 0 as BodyHandle,
      toi: 0,
      point: vec3.create(),
      normal: vec3.create(),
    };
    hit.handle = this.bodies.handleOf(this.qBestSlot) as BodyHandle;
    hit.toi = this.qBestToi;
    vec3.copy(hit.point, this.qBestPoint);
    vec3.copy(hit.normal, this.qBestNormal);
    return hit;
  }

  /** True when body `slot`'s tight AABB overlaps or touches the query box [qMin, qMax]. */
  private overlapsQueryBox(slot: number): boolean {
    const a = this.bodies.aabb;
    const k = 6 * slot;
    const mn = this.qMin;
    const mx = this.qMax;
    return (
      a[k] <= mx.x &&
      mn.x <= a[k + 3] &&
      a[k + 1] <= mx.y &&
      mn.y <= a[k + 4] &&
      a[k + 2] <= mx.z &&
      mn.z <= a[k + 5]
    );
  }

  private visitAabb(slot: number): unknown {
    if (this.passes(slot) && this.overlapsQueryBox(slot)) {
      this.qOut.push(this.bodies.handleOf(slot) as BodyHandle);
    }
    return undefined;
  }

  private visitFrustum(slot: number): unknown {
    if (!this.passes(slot)) return undefined;
    const f = this.qFrustum as Frustum;
    const a = this.bodies.aabb;
    const k = 6 * slot;
    vec3.set(frustumBoxMin, a[k], a[k + 1], a[k + 2]);
    vec3.set(frustumBoxMax, a[k + 3], a[k + 4], a[k + 5]);
    const test = frustumTestAabbUnchecked(f, frustumBoxMin, frustumBoxMax, "conservative");
    if (test === FrustumTest.Outside) return undefined;
    if (test === FrustumTest.Intersects && this.qFrustumExact) {
      this.bodies.readPose(poseB, slot);
      if (!frustumIntersectsShapeUnchecked(f, this.bodies.shapes[slot] as Shape, poseB)) {
        return undefined;
      }
    }
    this.qOut.push(this.bodies.handleOf(slot) as BodyHandle);
    return undefined;
  }

  private visitShape(slot: number): unknown {
    if (!this.passes(slot) || !this.overlapsQueryBox(slot)) return undefined;
    this.bodies.readPose(poseB, slot);
    iso.invMul(bInA, this.qPose, poseB);
    if (intersectsPair(this.qShape as Shape, this.bodies.shapes[slot] as Shape, bInA)) {
      this.qOut.push(this.bodies.handleOf(slot) as BodyHandle);
    }
    return undefined;
  }
}

const frustumBoxMin = vec3.create();
const frustumBoxMax = vec3.create();

/** Throws `CollideError` naming `field` unless `h` is a handle-shaped integer ≥ 0. */
function checkHandleValue(field: string, h: unknown): void {
  if (typeof h !== "number" || !Number.isSafeInteger(h) || h < 0)
    invalidValue(field, h, "must be a body handle (an integer ≥ 0)");
}

/** Sorts `a[start ..]` ascending in place (numbers). */
function sortTail(a: number[], start: number): void {
  if (start === 0) {
    a.sort((p, q) => p - q);
    return;
  }
  const tail = a.splice(start).sort((p, q) => p - q);
  for (const h of tail) a.push(h);
}

/**
 * Throws `CollideError` naming `world` unless it is a {@link CollisionWorld} (the free world
 * queries castRayClosest, castRayAll, castRayAny, castShape and prepareWorld take the world
 * first; a null or `{}` had thrown a TypeError). One `instanceof`.
 */
export function checkWorldArg(world: unknown): asserts world is CollisionWorld {
  if (!(world instanceof CollisionWorld)) invalidValue("world", world, "must be a CollisionWorld");
}
