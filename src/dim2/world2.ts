/**
 * The 2D collision world, `CollisionWorld2D`: the API, filtering, events and determinism of the
 * 3D `CollisionWorld` (src/world/collision-world.ts) for the 2D shapes, on the same world core
 * (src/world/core/): the handles, slots, layers, masks, flags and touch counts of
 * `SlotStore` (poses of 4 doubles — translation xy, cos, sin — and boxes of 4), the contact cache
 * and event lists of `PairCache` (2D records, src/dim2/contact-cache2.ts), and the broad phase
 * chosen by name. Each body's 2D AABB is handed to the broad phases (src/broadphase/) as a 3D box
 * with z = 0, which is exact (every box shares the z interval [0, 0], so 3D overlap is 2D
 * overlap), and rays get z = 0 too. No broad-phase code is copied.
 *
 * A step: broad phase (exact pairs of the bodies' boxes grown by half the prediction distance,
 * sorted ascending by slot pair) → layer/mask filter (`(layerA & maskB) != 0 && (layerB & maskA)
 * != 0`) → narrow phase in A's frame (the lower handle is A): sensors get the exact boolean
 * overlap, other pairs the contact with the prediction distance and a manifold of up to 2
 * points → contact cache, diffed with the last step into `begin`, `persist` and `end` lists
 * (Box2D v3: events are read after the step, no callbacks inside it).
 *
 * Handles are `(slot + 1) · 2^20 + generation` as in 3D (src/world/handles.ts), so ascending
 * handle order is slot order (until a slot gets a fresh id after 2^20 removals: pairs then
 * follow slot order, as in 3D after a reordering) and 0 is never a handle. `removeBody` takes the body out at once;
 * its touching pairs of the last step are reported as `end` events (with its old handle) by the
 * next `step()`, and its slot is reused only after that step (at once when it touched nothing).
 * Storage is structure-of-arrays in typed arrays; a steady-state step allocates nothing
 * (test/dim2/steady-state.test.ts). Nothing on the step's path calls a transcendental function,
 * so results are bitwise reproducible.
 */
import type { BroadPhase } from "../broadphase/broad-phase.js";
import { PAIR_KEY_BASE, PairSet } from "../broadphase/pair-set.js";
import { AABB_MARGIN, WORLD_MAX_COORDINATE, WORLD_MAX_PAIRS } from "../constants.js";
import {
  checkOptions,
  checkOutArray,
  checkOutRecord,
  invalidValue,
  type OptionsSpec,
  optionsSpec,
  withDefaults,
} from "../errors.js";
import { FLAG_ALIVE, FLAG_SENSOR, SlotStore } from "../world/core/slot-store.js";
import { checkWorldOptionValues, makeNamedBroadPhase } from "../world/core/world-options.js";
import { MAX_BODY_SLOT } from "../world/handles.js";
import { checkFilterBits } from "../world/validate.js";
import {
  type BodyHandle2D,
  ContactCache2D,
  makeWorldContact2D,
  type WorldContact2D,
  type WorldEvents2D,
} from "./contact-cache2.js";
import { type Contact2, contactShapes2, makeContact2 } from "./contact2.js";
import {
  checkManifold2Out,
  type Manifold2,
  makeManifold2,
  manifoldFromContact2,
} from "./manifold2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import { castRayWorld2, makeRayHit2, type RayHit2 } from "./raycast2.js";
import { aabbShape2, keptShape2, type Shape2, ShapeType2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** Scratch poses for a rotation normalised before use (never the caller's object). */
const unitP = pose2.identity();

export {
  type BodyHandle2D,
  EventList2D,
  makeWorldContact2D,
  type WorldContact2D,
  type WorldEvent2D,
  type WorldEvents2D,
} from "./contact-cache2.js";

/** The 2D world's options specs (module constants: the checks allocate nothing). */
const WORLD2_SPEC = optionsSpec("CollisionWorld2D", "options", {
  broadphase: "any",
  prediction: "number",
  aabbMargin: "number",
  profile: "boolean",
  maxPairs: "number",
});
const BODY2_SPEC = optionsSpec("CollisionWorld2D.addBody", "body", {
  shape: "any",
  pose: "any",
  layer: "number",
  mask: "number",
  sensor: "boolean",
  userData: "any",
});
const FILTER2_KEYS = { mask: "number", includeSensors: "boolean" } as const;
const OVERLAP_AABB2_SPEC = optionsSpec("CollisionWorld2D.overlapAabb", "filter", FILTER2_KEYS);
const OVERLAP_SHAPE2_SPEC = optionsSpec("CollisionWorld2D.overlapShape", "filter", FILTER2_KEYS);
const RAY2_KEYS = { ...FILTER2_KEYS, solid: "boolean" } as const;
/** The sub-records of the `out` records the 2D world's getters and ray cast write. */
const POSE2_PARTS = ["p", "q"] as const;
const CONTACT2_PARTS = ["manifold"] as const;
const RAY_HIT2_PARTS = ["point", "normal"] as const;
const RAY2_SPEC = optionsSpec("CollisionWorld2D.castRay", "options", RAY2_KEYS);
const RAY_ALL2_SPEC = optionsSpec("CollisionWorld2D.castRayAll", "options", RAY2_KEYS);

/** The broad phases a 2D world can use, by name (those of the 3D world). */
export type World2DBroadPhase = "brute" | "sap" | "grid" | "tree" | "quadtree";

/** The broad-phase names of the 2D world, in the order its error message lists them. */
const BROAD_PHASE_NAMES = ["brute", "sap", "grid", "tree", "quadtree"] as const;

/** Settings of a {@link CollisionWorld2D} (the 3D world's `CollisionWorldOptions`). */
export interface CollisionWorld2DOptions {
  /** Broad phase: changes the speed, never the result. @default "tree" */
  broadphase: World2DBroadPhase;
  /**
   * Prediction distance, scene units (≥ 0): pairs whose gap is at most this are contacts.
   * Sensors ignore it (exact overlap). @default 0 scene units
   */
  prediction: number;
  /** Fat-AABB margin of the dynamic tree, scene units (≥ 0). @default AABB_MARGIN = 0.05 */
  aabbMargin: number;
  /** Time the broad and narrow phases of every step. @default false */
  profile: boolean;
  /**
   * Most candidate pairs a step may find before it throws `CollideError` naming
   * `options.maxPairs` (as the 3D world's). @default WORLD_MAX_PAIRS = 2^21 pairs
   */
  maxPairs: number;
}

/** The default {@link CollisionWorld2DOptions}. */
export function defaultCollisionWorld2DOptions(): CollisionWorld2DOptions {
  return {
    broadphase: "tree",
    prediction: 0,
    aabbMargin: AABB_MARGIN,
    profile: false,
    maxPairs: WORLD_MAX_PAIRS,
  };
}

/** What {@link CollisionWorld2D.addBody} takes. */
export interface BodyDesc2D {
  /**
   * The body's shape in its local frame: kept by reference when a `make…` built it (frozen); a
   * hand-built object is rebuilt by its constructor (validated, frozen), so changing it later
   * changes nothing in the world.
   */
  shape: Shape2;
  /** The body's pose in the world (copied). */
  pose: Pose2;
  /** Collision layer bits (unsigned 32-bit). @default 1 */
  layer?: number;
  /** Layers this body collides with (unsigned 32-bit). @default 0xffffffff */
  mask?: number;
  /** A sensor reports overlap begin/persist/end but no contact points. @default false */
  sensor?: boolean;
  /** Anything the caller wants back from {@link CollisionWorld2D.getUserData}. */
  userData?: unknown;
}

/** Filter of the world queries. */
export interface QueryFilter2D {
  /** Only bodies whose layer has a bit of this mask are reported. @default 0xffffffff */
  mask?: number;
  /** Report sensors too. @default true */
  includeSensors?: boolean;
}

/** Options of the world ray casts. */
export interface RayCastOptions2D extends QueryFilter2D {
  /** A ray from inside a body hits it at time 0 when true, else reports its exit. @default true */
  solid?: boolean;
}

/** A ray hit in the world: body, time of impact, point and outward normal (world frame). */
export interface WorldRayHit2D {
  handle: BodyHandle2D;
  toi: number;
  point: Vec2;
  normal: Vec2;
}

/** Counters and timings of the last step (as the 3D world's `WorldStepStats`). */
export interface WorldStepStats2D {
  bodies: number;
  candidatePairs: number;
  filteredPairs: number;
  contactPairs: number;
  sensorPairs: number;
  broadPhaseMs: number;
  narrowPhaseMs: number;
}

const DEFAULT_LAYER = 1;
const DEFAULT_MASK = 0xffffffff;
/** Doubles per 2D pose in the slot store: translation xy, cos, sin. */
const POSE_STRIDE_2D = 4;
/** Doubles per 2D tight AABB in the slot store: min xy, max xy. */
const BOX_STRIDE_2D = 4;

function checkShape2(field: string, s: Shape2): void {
  if (
    s === null ||
    typeof s !== "object" ||
    typeof s.type !== "number" ||
    s.type < ShapeType2.Circle ||
    s.type > ShapeType2.Segment ||
    !s.core
  ) {
    invalidValue(field, s, "must be a 2D shape (makeCircle, makeRect, makePolygon, ...)");
  }
}

const poseA: Pose2 = pose2.identity();
const poseB: Pose2 = pose2.identity();
const bInA: Pose2 = pose2.identity();
const cScratch: Contact2 = makeContact2();
const mScratch: Manifold2 = makeManifold2();
const minV = { x: 0, y: 0 };
const maxV = { x: 0, y: 0 };
const bpMin = { x: 0, y: 0, z: 0 };
const bpMax = { x: 0, y: 0, z: 0 };
const disp = { x: 0, y: 0, z: 0 };
const rayO = { x: 0, y: 0, z: 0 };
const rayD = { x: 0, y: 0, z: 0 };
const hitScratch: RayHit2 = makeRayHit2();

/**
 * A 2D collision world (see the module docs). Throws `CollideError` on bad options.
 *
 * ```ts
 * const world = new CollisionWorld2D({ broadphase: "sap" });
 * const a = world.addBody({ shape: makeCircle(1), pose: pose2.fromAngle(0, 0) });
 * world.step();
 * for (const c of world.contacts()) console.log(c.a, c.b, c.distance);
 * ```
 */
export class CollisionWorld2D {
  /** The options in force. */
  readonly options: Readonly<CollisionWorld2DOptions>;
  /** Counters and timings of the last step. */
  readonly stats: WorldStepStats2D = {
    bodies: 0,
    candidatePairs: 0,
    filteredPairs: 0,
    contactPairs: 0,
    sensorPairs: 0,
    broadPhaseMs: 0,
    narrowPhaseMs: 0,
  };
  private readonly bp: BroadPhase;
  private readonly pairs = new PairSet(256);
  /** Per slot: the last `setPoses` batch that held it (a handle given twice is refused). */
  private readonly half: number;
  /** The bodies: slots, handles, filters, flags, poses and boxes (the world core's store). */
  private readonly bodies = new SlotStore<Shape2>(POSE_STRIDE_2D, BOX_STRIDE_2D);
  /** This and the last step's touching pairs, contact records and events (the world core's). */
  private readonly cache = new ContactCache2D();
  // Query filter state, set by beginFilter (no allocation per query).
  private qMask = DEFAULT_MASK;
  private qSensors = true;

  /** A new, empty world; `options` overrides {@link defaultCollisionWorld2DOptions}. */
  constructor(options: Partial<CollisionWorld2DOptions> = {}) {
    if (options === undefined) invalidValue("options", options, "must be an object");
    checkOptions(options, WORLD2_SPEC);
    const o = withDefaults(defaultCollisionWorld2DOptions(), options);
    checkWorldOptionValues(o);
    this.pairs.setLimit(o.maxPairs, "options.maxPairs");
    this.bp = makeNamedBroadPhase(o.broadphase, o.aabbMargin, BROAD_PHASE_NAMES, false);
    this.options = Object.freeze({ ...o, profile: o.profile === true });
    this.half = o.prediction / 2;
  }

  /** Number of live bodies. */
  get bodyCount(): number {
    return this.bodies.count;
  }

  /**
   * Adds a body and returns its handle; it takes part from the next `step()`, queries see it at
   * once. Throws `CollideError` (world unchanged) for an invalid shape or pose, filter bits
   * outside [0, 2^32 − 1], a non-boolean `sensor`, or a full world.
   */
  addBody(desc: BodyDesc2D): BodyHandle2D {
    if (desc === undefined) invalidValue("body", desc, "must be an object");
    checkOptions(desc, BODY2_SPEC);
    // A hand-built shape is rebuilt by its constructor (validated, frozen; see keptShape2).
    const shape = keptShape2("body.shape", desc.shape);
    pose2.checkPose("body.pose", desc.pose);
    // Stored normalised: an accepted rotation is used normalised (docs/FORMATS.md).
    const pose = pose2.unitPose(unitP, desc.pose);
    const layer = desc.layer ?? DEFAULT_LAYER;
    const mask = desc.mask ?? DEFAULT_MASK;
    checkFilterBits("body.layer", layer);
    checkFilterBits("body.mask", mask);
    const sensor = desc.sensor ?? false;
    if (typeof sensor !== "boolean") invalidValue("body.sensor", sensor, "must be a boolean");
    this.computeBoxes("body.pose", shape, pose);
    const b = this.bodies;
    if (b.peekSlot() > MAX_BODY_SLOT) {
      invalidValue("body", b.count, `exceeds the world's capacity of ${MAX_BODY_SLOT + 1} bodies`);
    }
    const slot = b.allocate();
    this.bp.insert(slot, bpMin, bpMax);
    this.writePose(slot, pose);
    this.writeBox(slot);
    b.layer[slot] = layer;
    b.mask[slot] = mask;
    b.flags[slot] = FLAG_ALIVE | (sensor ? FLAG_SENSOR : 0);
    b.touchCount[slot] = 0;
    b.shapes[slot] = shape;
    b.shapesVersion++;
    b.shapeType[slot] = shape.type;
    b.userData[slot] = desc.userData;
    b.count++;
    return b.handleOf(slot) as BodyHandle2D;
  }

  /** Moves body `handle` to `pose` (copied). Throws `CollideError` (world unchanged) on a stale handle or bad pose. */
  setPose(handle: BodyHandle2D, pose: Pose2): void {
    const b = this.bodies;
    const slot = b.requireSlot("handle", handle);
    pose2.checkPose("pose", pose);
    pose = pose2.unitPose(unitP, pose);
    this.computeBoxes("pose", b.shapes[slot] as Shape2, pose);
    disp.x = pose.p.x - b.pose[4 * slot];
    disp.y = pose.p.y - b.pose[4 * slot + 1];
    this.bp.move(slot, bpMin, bpMax, disp);
    this.writePose(slot, pose);
    this.writeBox(slot);
  }

  /**
   * Moves many bodies at once: body `handles[i]` to `poses[i]` (copied), the same as
   * {@link setPose} on each. Everything is validated before anything changes: throws
   * `CollideError` (the world unchanged) when `poses` is not an array of `handles.length` poses,
   * a handle is stale or unknown (field `handles[i]`), a handle is given twice (field
   * `handles[i]` of the second, its value the handle: one pose per body per call, as the 3D
   * world's `setPoses`), or a pose is bad or puts the body's box out of range (field
   * `poses[i]`).
   */
  setPoses(handles: ArrayLike<BodyHandle2D>, poses: readonly Pose2[]): void {
    if (handles === null || typeof handles !== "object" || typeof handles.length !== "number")
      invalidValue("handles", handles, "must be an array or typed array of body handles");
    const n = handles.length;
    if (!Array.isArray(poses) || poses.length !== n)
      invalidValue("poses", poses, `must be an array of handles.length = ${n} poses`);
    const b = this.bodies;
    b.beginBatch();
    for (let i = 0; i < n; i++) {
      const slot = b.requireBatchSlot(handles, i);
      pose2.checkPose(`poses[${i}]`, poses[i]);
      this.computeBoxes(`poses[${i}]`, b.shapes[slot] as Shape2, pose2.unitPose(unitP, poses[i]));
    }
    for (let i = 0; i < n; i++) this.setPose(handles[i], poses[i]);
  }

  /**
   * Removes body `handle` at once; its pairs touching at the last step are reported as `end`
   * events by the next `step()`. Throws `CollideError` for a stale or unknown handle.
   */
  removeBody(handle: BodyHandle2D): void {
    const slot = this.bodies.requireSlot("handle", handle);
    this.bp.remove(slot);
    this.bodies.kill(slot);
  }

  /** True when `handle` names a live body (never throws). */
  has(handle: BodyHandle2D): boolean {
    return this.bodies.slotOf(handle) >= 0;
  }

  /** The pose of `handle` into `out`. Throws on a stale handle. */
  getPose(handle: BodyHandle2D, out: Pose2 = pose2.identity()): Pose2 {
    checkOutRecord("out", out, POSE2_PARTS, "a pose record {p, q} (pose2.identity())");
    return this.readPose(out, this.bodies.requireSlot("handle", handle));
  }

  /** The shape `handle` keeps (the made shape given, or the copy of a hand-built one). Throws on a stale handle. */
  getShape(handle: BodyHandle2D): Shape2 {
    return this.bodies.shapes[this.bodies.requireSlot("handle", handle)] as Shape2;
  }

  /** The user data of `handle`. Throws on a stale handle. */
  getUserData(handle: BodyHandle2D): unknown {
    return this.bodies.userData[this.bodies.requireSlot("handle", handle)];
  }

  /** True when `handle` is a sensor. Throws on a stale handle. */
  isSensor(handle: BodyHandle2D): boolean {
    return (this.bodies.flags[this.bodies.requireSlot("handle", handle)] & FLAG_SENSOR) !== 0;
  }

  /** The layer and mask of `handle`. Throws on a stale handle. */
  getFilter(handle: BodyHandle2D): { layer: number; mask: number } {
    const s = this.bodies.requireSlot("handle", handle);
    return { layer: this.bodies.layer[s], mask: this.bodies.mask[s] };
  }

  /** Changes the layer and mask of `handle`, effective at the next step. Throws on bad input. */
  setFilter(handle: BodyHandle2D, layer: number, mask: number): void {
    const s = this.bodies.requireSlot("handle", handle);
    checkFilterBits("layer", layer);
    checkFilterBits("mask", mask);
    this.bodies.layer[s] = layer;
    this.bodies.mask[s] = mask;
  }

  /** The tight world AABB of `handle`: `{min, max}` (allocates). Throws on a stale handle. */
  getAabb(handle: BodyHandle2D): { min: Vec2; max: Vec2 } {
    const k = 4 * this.bodies.requireSlot("handle", handle);
    const a = this.bodies.aabb;
    return { min: { x: a[k], y: a[k + 1] }, max: { x: a[k + 2], y: a[k + 3] } };
  }

  /** The live handles in ascending order (allocates). */
  handles(): BodyHandle2D[] {
    const b = this.bodies;
    const out: BodyHandle2D[] = [];
    for (let s = 0; s < b.slotCount; s++) {
      if ((b.flags[s] & FLAG_ALIVE) !== 0) out.push(b.handleOf(s) as BodyHandle2D);
    }
    return out;
  }

  /** Runs one step (module docs). Allocates nothing in steady state. Then read events/contacts. */
  step(): void {
    const profile = this.options.profile;
    const t0 = profile ? performance.now() : 0;
    const pairs = this.bp.computePairs(this.pairs);
    if (pairs.size > this.options.maxPairs) {
      invalidValue(
        "options.maxPairs",
        this.options.maxPairs,
        `is exceeded: the broad phase found ${pairs.size} candidate pairs (raise it to allow this)`,
      );
    }
    const t1 = profile ? performance.now() : 0;
    const prediction = this.options.prediction;
    const b = this.bodies;
    const { layer, mask, flags, handleOfSlot, shapes, pose } = b;
    const cache = this.cache;
    cache.beginFrame();
    let filtered = 0;
    let sensorPairs = 0;
    const n = pairs.size;
    // The keys read from the storage, not through `keyAt`: a key above 2^31 returned from a call
    // V8 does not inline is boxed (allocated).
    const keys = pairs.storage;
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const hi = key - lo * PAIR_KEY_BASE;
      if ((layer[lo] & mask[hi]) === 0 || (layer[hi] & mask[lo]) === 0) continue;
      filtered++;
      this.readPose(poseA, lo);
      this.readPose(poseB, hi);
      pose2.invMul(bInA, poseA, poseB);
      const sa = shapes[lo] as Shape2;
      const sb = shapes[hi] as Shape2;
      if (((flags[lo] | flags[hi]) & FLAG_SENSOR) !== 0) {
        if (contactShapes2(cScratch, sa, sb, bInA, 0)) {
          cache.addSensorSlots(lo, hi, handleOfSlot);
          sensorPairs++;
        }
        continue;
      }
      if (!contactShapes2(cScratch, sa, sb, bInA, prediction)) continue;
      const m = manifoldFromContact2(mScratch, sa, sb, bInA, cScratch, prediction);
      cache.addContactSlots(lo, hi, handleOfSlot, cScratch, m, pose);
    }
    cache.endFrame();
    cache.updateTouchCounts(b.touchCount, b.slotOfId);
    b.releasePending();
    const st = this.stats;
    st.bodies = b.count;
    st.candidatePairs = n;
    st.filteredPairs = filtered;
    st.sensorPairs = sensorPairs;
    st.contactPairs = cache.contactCount;
    if (profile) {
      st.broadPhaseMs = t1 - t0;
      st.narrowPhaseMs = performance.now() - t1;
    }
  }

  /** The events of the last step: `begin`, `persist`, `end`, valid until the next step. */
  events(): WorldEvents2D {
    return this.cache.events;
  }

  /** Number of touching non-sensor pairs of the last step. */
  get contactCount(): number {
    return this.cache.contactCount;
  }

  /** The i-th contact of the last step (ascending (a, b) order, world frame) into `out`. */
  readContact(i: number, out: WorldContact2D = makeWorldContact2D()): WorldContact2D {
    if (!(Number.isInteger(i) && i >= 0 && i < this.cache.contactCount)) {
      invalidValue("index", i, `must be an integer in [0, ${this.cache.contactCount})`);
    }
    checkOutRecord("out", out, CONTACT2_PARTS, "a contact record {a, b, distance, manifold}");
    checkManifold2Out(out.manifold, "out.manifold");
    return this.cache.readContact(i, out);
  }

  /** Every contact of the last step (allocates; use {@link readContact} to avoid that). */
  contacts(): WorldContact2D[] {
    const out: WorldContact2D[] = [];
    for (let i = 0; i < this.cache.contactCount; i++) {
      out.push(this.cache.readContact(i, makeWorldContact2D()));
    }
    return out;
  }

  /** True when `a` and `b` touched (contact or sensor overlap) at the last step. */
  isTouching(a: BodyHandle2D, b: BodyHandle2D): boolean {
    const sa = this.bodies.requireSlot("a", a);
    const sb = this.bodies.requireSlot("b", b);
    if (sa === sb) return false;
    return this.cache.isTouching(sa < sb ? sa * PAIR_KEY_BASE + sb : sb * PAIR_KEY_BASE + sa);
  }

  /**
   * The closest body hit by the ray `origin + t·dir`, t ∈ [0, maxToi] (world frame), or null.
   * Candidates come from the broad phase's ray traversal, clipped at the best hit so far; ties
   * in toi go to the lower handle, so the answer does not depend on the broad phase. Throws
   * `CollideError` for a non-finite origin or direction, a zero direction or a negative maxToi.
   */
  castRay(
    origin: Vec2,
    dir: Vec2,
    maxToi = Infinity,
    options: RayCastOptions2D = {},
    out?: WorldRayHit2D,
  ): WorldRayHit2D | null {
    if (out !== undefined) {
      checkOutRecord("out", out, RAY_HIT2_PARTS, "a ray hit record {handle, toi, point, normal}");
    }
    const best = { slot: -1, toi: maxToi, px: 0, py: 0, nx: 0, ny: 0 };
    this.runRay(origin, dir, maxToi, options, RAY2_SPEC, (slot, hit) => {
      if (hit.toi < best.toi || (hit.toi === best.toi && (best.slot < 0 || slot < best.slot))) {
        best.slot = slot;
        best.toi = hit.toi;
        best.px = hit.point.x;
        best.py = hit.point.y;
        best.nx = hit.normal.x;
        best.ny = hit.normal.y;
      }
      return best.toi;
    });
    if (best.slot < 0) return null;
    const h = out ?? {
      handle: 0 as BodyHandle2D,
      toi: 0,
      point: { x: 0, y: 0 },
      normal: { x: 0, y: 0 },
    };
    h.handle = this.bodies.handleOf(best.slot) as BodyHandle2D;
    h.toi = best.toi;
    h.point.x = best.px;
    h.point.y = best.py;
    h.normal.x = best.nx;
    h.normal.y = best.ny;
    return h;
  }

  /** Every body hit by the ray, sorted by toi then handle, appended to `out` (allocates). */
  castRayAll(
    origin: Vec2,
    dir: Vec2,
    maxToi = Infinity,
    options: RayCastOptions2D = {},
    out: WorldRayHit2D[] = [],
  ): WorldRayHit2D[] {
    checkOutArray("out", out);
    const start = out.length;
    this.runRay(origin, dir, maxToi, options, RAY_ALL2_SPEC, (slot, hit) => {
      out.push({
        handle: this.bodies.handleOf(slot) as BodyHandle2D,
        toi: hit.toi,
        point: { x: hit.point.x, y: hit.point.y },
        normal: { x: hit.normal.x, y: hit.normal.y },
      });
      return undefined;
    });
    const tail = out.splice(start).sort((p, q) => p.toi - q.toi || p.handle - q.handle);
    for (const h of tail) out.push(h);
    return out;
  }

  /**
   * The bodies whose tight AABB overlaps or touches `[min, max]`, ascending, appended to `out`
   * (the broad phase's box query). Throws `CollideError` for a non-finite box or min > max.
   */
  overlapAabb(
    min: Vec2,
    max: Vec2,
    out: BodyHandle2D[] = [],
    filter: QueryFilter2D = {},
  ): BodyHandle2D[] {
    // Checked here, in the caller's names and 2D values (the broad phase's own check saw the
    // 3D box it is given, z = 0, and named it `query.min`).
    if (!min || !Number.isFinite(min.x) || !Number.isFinite(min.y)) {
      invalidValue("min", min, "must be a finite vector");
    }
    if (!max || !Number.isFinite(max.x) || !Number.isFinite(max.y)) {
      invalidValue("max", max, "must be a finite vector");
    }
    if (min.x > max.x || min.y > max.y) {
      invalidValue("max", max, `must be >= min on every axis (min ${JSON.stringify(min)})`);
    }
    this.beginFilter(filter, OVERLAP_AABB2_SPEC);
    bpMin.x = min?.x;
    bpMin.y = min?.y;
    bpMax.x = max?.x;
    bpMax.y = max?.y;
    const start = out.length;
    const b = this.bodies.aabb;
    this.bp.queryAabb(bpMin, bpMax, (slot) => {
      if (!this.passes(slot)) return undefined;
      const k = 4 * slot;
      if (b[k] <= max.x && min.x <= b[k + 2] && b[k + 1] <= max.y && min.y <= b[k + 3]) {
        out.push(this.bodies.handleOf(slot) as BodyHandle2D);
      }
      return undefined;
    });
    sortTail(out, start);
    return out;
  }

  /**
   * The bodies that overlap or touch `shape` at `pose` (exact, no slop), ascending, appended to
   * `out`. Throws `CollideError` for an invalid shape or pose.
   */
  overlapShape(
    shape: Shape2,
    pose: Pose2,
    out: BodyHandle2D[] = [],
    filter: QueryFilter2D = {},
  ): BodyHandle2D[] {
    checkShape2("shape", shape);
    pose2.checkPose("pose", pose);
    pose = pose2.unitPose(unitP, pose);
    this.beginFilter(filter, OVERLAP_SHAPE2_SPEC);
    aabbShape2(minV, maxV, shape, pose);
    bpMin.x = minV.x;
    bpMin.y = minV.y;
    bpMax.x = maxV.x;
    bpMax.y = maxV.y;
    const start = out.length;
    const qPose = pose2.clone(pose);
    this.bp.queryAabb(bpMin, bpMax, (slot) => {
      if (!this.passes(slot)) return undefined;
      this.readPose(poseB, slot);
      pose2.invMul(bInA, qPose, poseB);
      if (contactShapes2(cScratch, shape, this.bodies.shapes[slot] as Shape2, bInA, 0)) {
        out.push(this.bodies.handleOf(slot) as BodyHandle2D);
      }
      return undefined;
    });
    sortTail(out, start);
    return out;
  }

  // ---------------------------------------------------------------------------------------------

  private runRay(
    origin: Vec2,
    dir: Vec2,
    maxToi: number,
    options: RayCastOptions2D,
    spec: OptionsSpec,
    visit: (slot: number, hit: RayHit2) => unknown,
  ): void {
    if (!origin || !Number.isFinite(origin.x) || !Number.isFinite(origin.y)) {
      invalidValue("origin", origin, "must be a finite vector");
    }
    if (!dir || !Number.isFinite(dir.x) || !Number.isFinite(dir.y)) {
      invalidValue("dir", dir, "must be a finite vector");
    }
    if (dir.x === 0 && dir.y === 0) invalidValue("dir", dir, "must not be zero");
    if (typeof maxToi !== "number" || !(maxToi >= 0)) {
      invalidValue("maxToi", maxToi, "must be a number >= 0 (Infinity allowed)");
    }
    this.beginFilter(options, spec);
    const solid = options.solid ?? true;
    rayO.x = origin.x;
    rayO.y = origin.y;
    rayD.x = dir.x;
    rayD.y = dir.y;
    const o = { x: origin.x, y: origin.y };
    const d = { x: dir.x, y: dir.y };
    this.bp.castRay(rayO, rayD, maxToi, (slot) => {
      if (!this.passes(slot)) return undefined;
      this.readPose(poseA, slot);
      const hit = castRayWorld2(
        this.bodies.shapes[slot] as Shape2,
        poseA,
        o,
        d,
        maxToi,
        solid,
        hitScratch,
      );
      if (!hit) return undefined;
      return visit(slot, hit);
    });
  }

  /** Checks `filter` and sets the query's mask and sensor choice (no allocation). */
  private beginFilter(filter: QueryFilter2D, spec: OptionsSpec): void {
    if (filter === undefined) invalidValue(spec.field, filter, "must be an object");
    checkOptions(filter, spec);
    const mask = filter.mask ?? DEFAULT_MASK;
    checkFilterBits("filter.mask", mask);
    this.qMask = mask;
    this.qSensors = filter.includeSensors ?? true;
  }

  /** True when body `slot` passes the query filter set by {@link beginFilter}. */
  private passes(slot: number): boolean {
    const b = this.bodies;
    return (
      (b.layer[slot] & this.qMask) !== 0 && (this.qSensors || (b.flags[slot] & FLAG_SENSOR) === 0)
    );
  }

  private computeBoxes(field: string, shape: Shape2, pose: Pose2): void {
    aabbShape2(minV, maxV, shape, pose);
    const h = this.half;
    bpMin.x = minV.x - h;
    bpMin.y = minV.y - h;
    bpMax.x = maxV.x + h;
    bpMax.y = maxV.y + h;
    // Within ±WORLD_MAX_COORDINATE, as in the 3D world: past it the broad phases' sums and
    // differences of coordinates overflow (a quadtree then paired a body with itself, at NaN).
    const m = WORLD_MAX_COORDINATE;
    if (!(bpMin.x >= -m && bpMin.y >= -m && bpMax.x <= m && bpMax.y <= m)) {
      invalidValue(
        `${field}.p`,
        pose.p,
        `puts the body's AABB out of range (its coordinates must lie within ±${m})`,
      );
    }
  }

  private writePose(slot: number, p: Pose2): void {
    const k = 4 * slot;
    const a = this.bodies.pose;
    a[k] = p.p.x;
    a[k + 1] = p.p.y;
    a[k + 2] = p.q.c;
    a[k + 3] = p.q.s;
  }

  private readPose(out: Pose2, slot: number): Pose2 {
    const k = 4 * slot;
    const a = this.bodies.pose;
    out.p.x = a[k];
    out.p.y = a[k + 1];
    out.q.c = a[k + 2];
    out.q.s = a[k + 3];
    return out;
  }

  private writeBox(slot: number): void {
    const k = 4 * slot;
    const a = this.bodies.aabb;
    a[k] = minV.x;
    a[k + 1] = minV.y;
    a[k + 2] = maxV.x;
    a[k + 3] = maxV.y;
  }
}

function sortTail(a: number[], start: number): void {
  const tail = a.splice(start).sort((p, q) => p - q);
  for (const h of tail) a.push(h);
}
