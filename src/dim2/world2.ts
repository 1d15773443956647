/**
 * The 2D collision world, `CollisionWorld2D`: the API, filtering, events and determinism of the
 * 3D `CollisionWorld` (src/world/collision-world.ts) for the 2D shapes, over the very same broad
 * phases (src/broadphase/): each body's 2D AABB is handed to them as a 3D box with z = 0, which
 * is exact (every box shares the z interval [0, 0], so 3D overlap is 2D overlap), and rays get
 * z = 0 too. No broad-phase code is copied.
 *
 * A step: broad phase (exact pairs of the bodies' boxes grown by half the prediction distance,
 * sorted ascending by slot pair) → layer/mask filter (`(layerA & maskB) != 0 && (layerB & maskA)
 * != 0`) → narrow phase in A's frame (the lower handle is A): sensors get the exact boolean
 * overlap, other pairs the contact with the prediction distance and a manifold of up to 2
 * points → contact cache, diffed with the last step into `begin`, `persist` and `end` lists
 * (Box2D v3: events are read after the step, no callbacks inside it).
 *
 * Handles are `(slot + 1) · 2^20 + generation` as in 3D, so ascending handle order is slot order
 * and 0 is never a handle. `removeBody` takes the body out at once; its touching pairs of the
 * last step are reported as `end` events (with its old handle) by the next `step()`, and its slot
 * is reused only after that step. Storage is structure-of-arrays in typed arrays; a steady-state
 * step allocates nothing. Nothing on the step's path calls a transcendental function, so results
 * are bitwise reproducible.
 */
import type { BroadPhase } from "../broadphase/broad-phase.js";
import { growFloat64 } from "../broadphase/broad-phase.js";
import { BruteForceBroadPhase } from "../broadphase/brute-force.js";
import { DynamicTree } from "../broadphase/dynamic-tree.js";
import { MAX_PROXY_ID, PAIR_KEY_BASE, PairSet } from "../broadphase/pair-set.js";
import { SpatialHash } from "../broadphase/spatial-hash.js";
import { SweepAndPrune } from "../broadphase/sweep-and-prune.js";
import { AABB_MARGIN, WORLD_MAX_PAIRS } from "../constants.js";
import { invalidValue } from "../errors.js";
import { type Contact2, contactShapes2, makeContact2 } from "./contact2.js";
import { type Manifold2, makeManifold2, manifoldFromContact2 } from "./manifold2.js";
import type { Pose2 } from "./pose2.js";
import * as pose2 from "./pose2.js";
import { castRay2D, makeRayHit2, type RayHit2 } from "./raycast2.js";
import { aabbShape2, type Shape2, ShapeType2 } from "./shapes.js";
import type { Vec2 } from "./vec2.js";

/** A body of a {@link CollisionWorld2D}: a branded integer (slot + generation), never 0. */
export type BodyHandle2D = number & { readonly __brand: "BodyHandle2D" };

/** The broad phases a 2D world can use, by name (those of the 3D world). */
export type World2DBroadPhase = "brute" | "sap" | "grid" | "tree";

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
  /** The body's shape in its local frame (kept by reference; treat it as immutable). */
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

/** A touching non-sensor pair: handles (lower first), signed distance and world manifold. */
export interface WorldContact2D {
  a: BodyHandle2D;
  b: BodyHandle2D;
  distance: number;
  manifold: Manifold2;
}

/** A new {@link WorldContact2D} (allocates). */
export function makeWorldContact2D(): WorldContact2D {
  return { a: 0 as BodyHandle2D, b: 0 as BodyHandle2D, distance: 0, manifold: makeManifold2() };
}

/** One event as an object ({@link EventList2D.toArray}). */
export interface WorldEvent2D {
  a: BodyHandle2D;
  b: BodyHandle2D;
  sensor: boolean;
}

/** A list of pair events of one step, in ascending (a, b) order; valid until the next step. */
export class EventList2D {
  private h = new Float64Array(64);
  private s = new Uint8Array(32);
  private n = 0;
  /** Number of events. */
  get count(): number {
    return this.n;
  }
  /** The lower handle of event i. */
  a(i: number): BodyHandle2D {
    return this.h[2 * i] as BodyHandle2D;
  }
  /** The higher handle of event i. */
  b(i: number): BodyHandle2D {
    return this.h[2 * i + 1] as BodyHandle2D;
  }
  /** True when event i is a sensor overlap. */
  isSensor(i: number): boolean {
    return this.s[i] === 1;
  }
  /** The events as objects (allocates). */
  toArray(): WorldEvent2D[] {
    const out: WorldEvent2D[] = [];
    for (let i = 0; i < this.n; i++)
      out.push({ a: this.a(i), b: this.b(i), sensor: this.isSensor(i) });
    return out;
  }
  /** Empties the list (world internal). */
  clear(): void {
    this.n = 0;
  }
  /** Appends an event (world internal). */
  push(a: number, b: number, sensor: number): void {
    if (this.n === this.s.length) {
      this.h = growFloat64(this.h, 4 * this.n);
      const s = new Uint8Array(2 * this.n);
      s.set(this.s);
      this.s = s;
    }
    this.h[2 * this.n] = a;
    this.h[2 * this.n + 1] = b;
    this.s[this.n++] = sensor;
  }
}

/** The three event lists of a step. */
export interface WorldEvents2D {
  readonly begin: EventList2D;
  readonly persist: EventList2D;
  readonly end: EventList2D;
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

const GEN_BASE = 2 ** 20;
const DEFAULT_LAYER = 1;
const DEFAULT_MASK = 0xffffffff;
/** Contact record: a, b, distance, nx, ny, count, then 2 × (pAx, pAy, pBx, pBy, distance, id). */
const REC = 18;
const FLAG_ALIVE = 1;
const FLAG_SENSOR = 2;

function packHandle(slot: number, gen: number): BodyHandle2D {
  return ((slot + 1) * GEN_BASE + gen) as BodyHandle2D;
}

function handleSlot(h: number): number {
  return Math.floor(h / GEN_BASE) - 1;
}

function checkBits(field: string, v: unknown): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    invalidValue(field, v, "must be an integer in [0, 2^32 - 1]");
  }
}

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

function makeBroadPhase(name: World2DBroadPhase, margin: number): BroadPhase {
  switch (name) {
    case "brute":
      return new BruteForceBroadPhase();
    case "sap":
      return new SweepAndPrune();
    case "grid":
      return new SpatialHash();
    case "tree":
      return new DynamicTree({ margin });
  }
  return invalidValue("options.broadphase", name, 'must be "brute", "sap", "grid" or "tree"');
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
  private readonly half: number;
  // Bodies, structure of arrays by slot.
  private pose = new Float64Array(4 * 16);
  private box = new Float64Array(4 * 16);
  private layer = new Uint32Array(16);
  private mask = new Uint32Array(16);
  private flags = new Uint8Array(16);
  private gen = new Uint32Array(16);
  private shapes: (Shape2 | null)[] = [];
  private userData: unknown[] = [];
  private slotCount = 0;
  private count = 0;
  private free: number[] = [];
  private pending: number[] = [];
  // Contact cache: this and the last step's touching pairs (keys, handles, sensor flags).
  private prevKeys = new Float64Array(64);
  private prevH = new Float64Array(128);
  private prevS = new Uint8Array(64);
  private prevN = 0;
  private curKeys = new Float64Array(64);
  private curH = new Float64Array(128);
  private curS = new Uint8Array(64);
  private curN = 0;
  private records = new Float64Array(REC * 64);
  private nContacts = 0;
  private readonly ev: WorldEvents2D = {
    begin: new EventList2D(),
    persist: new EventList2D(),
    end: new EventList2D(),
  };

  /** A new, empty world; `options` overrides {@link defaultCollisionWorld2DOptions}. */
  constructor(options: Partial<CollisionWorld2DOptions> = {}) {
    const o = { ...defaultCollisionWorld2DOptions(), ...options };
    if (!(typeof o.prediction === "number" && Number.isFinite(o.prediction) && o.prediction >= 0)) {
      invalidValue("options.prediction", o.prediction, "must be a finite number >= 0");
    }
    if (!(typeof o.aabbMargin === "number" && Number.isFinite(o.aabbMargin) && o.aabbMargin >= 0)) {
      invalidValue("options.aabbMargin", o.aabbMargin, "must be a finite number >= 0");
    }
    if (!(Number.isInteger(o.maxPairs) && o.maxPairs >= 1)) {
      invalidValue("options.maxPairs", o.maxPairs, "must be an integer >= 1");
    }
    this.pairs.setLimit(o.maxPairs, "options.maxPairs");
    this.bp = makeBroadPhase(o.broadphase, o.aabbMargin);
    this.options = Object.freeze({ ...o, profile: o.profile === true });
    this.half = o.prediction / 2;
  }

  /** Number of live bodies. */
  get bodyCount(): number {
    return this.count;
  }

  /**
   * Adds a body and returns its handle; it takes part from the next `step()`, queries see it at
   * once. Throws `CollideError` (world unchanged) for an invalid shape or pose, filter bits
   * outside [0, 2^32 − 1], a non-boolean `sensor`, or a full world.
   */
  addBody(desc: BodyDesc2D): BodyHandle2D {
    if (desc === null || typeof desc !== "object") invalidValue("body", desc, "must be an object");
    checkShape2("body.shape", desc.shape);
    pose2.checkPose("body.pose", desc.pose);
    const layer = desc.layer ?? DEFAULT_LAYER;
    const mask = desc.mask ?? DEFAULT_MASK;
    checkBits("body.layer", layer);
    checkBits("body.mask", mask);
    const sensor = desc.sensor ?? false;
    if (typeof sensor !== "boolean") invalidValue("body.sensor", sensor, "must be a boolean");
    this.computeBoxes("body.pose", desc.shape, desc.pose);
    const slot =
      this.free.length > 0 ? (this.free[this.free.length - 1] as number) : this.slotCount;
    if (slot > MAX_PROXY_ID) invalidValue("body", this.count, "exceeds the world's capacity");
    this.bp.insert(slot, bpMin, bpMax);
    if (slot === this.slotCount) {
      this.grow(slot + 1);
      this.slotCount++;
      this.shapes.push(null);
      this.userData.push(undefined);
    } else {
      this.free.pop();
    }
    this.writePose(slot, desc.pose);
    this.writeBox(slot);
    this.layer[slot] = layer;
    this.mask[slot] = mask;
    this.flags[slot] = FLAG_ALIVE | (sensor ? FLAG_SENSOR : 0);
    this.shapes[slot] = desc.shape;
    this.userData[slot] = desc.userData;
    this.count++;
    return packHandle(slot, this.gen[slot]);
  }

  /** Moves body `handle` to `pose` (copied). Throws `CollideError` (world unchanged) on a stale handle or bad pose. */
  setPose(handle: BodyHandle2D, pose: Pose2): void {
    const slot = this.requireSlot("handle", handle);
    pose2.checkPose("pose", pose);
    this.computeBoxes("pose", this.shapes[slot] as Shape2, pose);
    disp.x = pose.p.x - this.pose[4 * slot];
    disp.y = pose.p.y - this.pose[4 * slot + 1];
    this.bp.move(slot, bpMin, bpMax, disp);
    this.writePose(slot, pose);
    this.writeBox(slot);
  }

  /**
   * Removes body `handle` at once; its pairs touching at the last step are reported as `end`
   * events by the next `step()`. Throws `CollideError` for a stale or unknown handle.
   */
  removeBody(handle: BodyHandle2D): void {
    const slot = this.requireSlot("handle", handle);
    this.bp.remove(slot);
    this.flags[slot] = 0;
    this.gen[slot] = (this.gen[slot] + 1) % GEN_BASE;
    this.shapes[slot] = null;
    this.userData[slot] = undefined;
    this.count--;
    this.pending.push(slot);
  }

  /** True when `handle` names a live body (never throws). */
  has(handle: BodyHandle2D): boolean {
    return this.slotOf(handle) >= 0;
  }

  /** The pose of `handle` into `out`. Throws on a stale handle. */
  getPose(handle: BodyHandle2D, out: Pose2 = pose2.identity()): Pose2 {
    return this.readPose(out, this.requireSlot("handle", handle));
  }

  /** The shape of `handle`. Throws on a stale handle. */
  getShape(handle: BodyHandle2D): Shape2 {
    return this.shapes[this.requireSlot("handle", handle)] as Shape2;
  }

  /** The user data of `handle`. Throws on a stale handle. */
  getUserData(handle: BodyHandle2D): unknown {
    return this.userData[this.requireSlot("handle", handle)];
  }

  /** True when `handle` is a sensor. Throws on a stale handle. */
  isSensor(handle: BodyHandle2D): boolean {
    return (this.flags[this.requireSlot("handle", handle)] & FLAG_SENSOR) !== 0;
  }

  /** The layer and mask of `handle`. Throws on a stale handle. */
  getFilter(handle: BodyHandle2D): { layer: number; mask: number } {
    const s = this.requireSlot("handle", handle);
    return { layer: this.layer[s], mask: this.mask[s] };
  }

  /** Changes the layer and mask of `handle`, effective at the next step. Throws on bad input. */
  setFilter(handle: BodyHandle2D, layer: number, mask: number): void {
    const s = this.requireSlot("handle", handle);
    checkBits("layer", layer);
    checkBits("mask", mask);
    this.layer[s] = layer;
    this.mask[s] = mask;
  }

  /** The tight world AABB of `handle`: `{min, max}` (allocates). Throws on a stale handle. */
  getAabb(handle: BodyHandle2D): { min: Vec2; max: Vec2 } {
    const k = 4 * this.requireSlot("handle", handle);
    const b = this.box;
    return { min: { x: b[k], y: b[k + 1] }, max: { x: b[k + 2], y: b[k + 3] } };
  }

  /** The live handles in ascending order (allocates). */
  handles(): BodyHandle2D[] {
    const out: BodyHandle2D[] = [];
    for (let s = 0; s < this.slotCount; s++) {
      if ((this.flags[s] & FLAG_ALIVE) !== 0) out.push(packHandle(s, this.gen[s]));
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
    const { layer, mask, flags, gen, shapes } = this;
    this.curN = 0;
    this.nContacts = 0;
    let filtered = 0;
    let sensorPairs = 0;
    const n = pairs.size;
    for (let i = 0; i < n; i++) {
      const key = pairs.keyAt(i);
      const lo = Math.floor(key / PAIR_KEY_BASE);
      const hi = key - lo * PAIR_KEY_BASE;
      if ((layer[lo] & mask[hi]) === 0 || (layer[hi] & mask[lo]) === 0) continue;
      filtered++;
      this.readPose(poseA, lo);
      this.readPose(poseB, hi);
      pose2.invMul(bInA, poseA, poseB);
      const sa = shapes[lo] as Shape2;
      const sb = shapes[hi] as Shape2;
      const ha = packHandle(lo, gen[lo]);
      const hb = packHandle(hi, gen[hi]);
      if (((flags[lo] | flags[hi]) & FLAG_SENSOR) !== 0) {
        if (contactShapes2(cScratch, sa, sb, bInA, 0)) {
          this.pushTouch(key, ha, hb, 1);
          sensorPairs++;
        }
        continue;
      }
      if (!contactShapes2(cScratch, sa, sb, bInA, prediction)) continue;
      const m = manifoldFromContact2(mScratch, sa, sb, bInA, cScratch, prediction);
      this.pushTouch(key, ha, hb, 0);
      this.pushContact(ha, hb, cScratch.distance, m);
    }
    this.diff();
    for (const s of this.pending) this.free.push(s);
    this.pending.length = 0;
    const st = this.stats;
    st.bodies = this.count;
    st.candidatePairs = n;
    st.filteredPairs = filtered;
    st.sensorPairs = sensorPairs;
    st.contactPairs = this.nContacts;
    if (profile) {
      st.broadPhaseMs = t1 - t0;
      st.narrowPhaseMs = performance.now() - t1;
    }
  }

  /** The events of the last step: `begin`, `persist`, `end`, valid until the next step. */
  events(): WorldEvents2D {
    return this.ev;
  }

  /** Number of touching non-sensor pairs of the last step. */
  get contactCount(): number {
    return this.nContacts;
  }

  /** The i-th contact of the last step (ascending (a, b) order, world frame) into `out`. */
  readContact(i: number, out: WorldContact2D = makeWorldContact2D()): WorldContact2D {
    if (!(Number.isInteger(i) && i >= 0 && i < this.nContacts)) {
      invalidValue("index", i, `must be an integer in [0, ${this.nContacts})`);
    }
    const r = this.records;
    const k = REC * i;
    out.a = r[k] as BodyHandle2D;
    out.b = r[k + 1] as BodyHandle2D;
    out.distance = r[k + 2];
    const m = out.manifold;
    m.normal.x = r[k + 3];
    m.normal.y = r[k + 4];
    m.count = r[k + 5];
    for (let p = 0; p < m.count; p++) {
      const q = k + 6 + 6 * p;
      const pt = m.points[p];
      pt.pointA.x = r[q];
      pt.pointA.y = r[q + 1];
      pt.pointB.x = r[q + 2];
      pt.pointB.y = r[q + 3];
      pt.distance = r[q + 4];
      pt.id = r[q + 5];
    }
    return out;
  }

  /** Every contact of the last step (allocates; use {@link readContact} to avoid that). */
  contacts(): WorldContact2D[] {
    const out: WorldContact2D[] = [];
    for (let i = 0; i < this.nContacts; i++) out.push(this.readContact(i));
    return out;
  }

  /** True when `a` and `b` touched (contact or sensor overlap) at the last step. */
  isTouching(a: BodyHandle2D, b: BodyHandle2D): boolean {
    const sa = this.requireSlot("a", a);
    const sb = this.requireSlot("b", b);
    if (sa === sb) return false;
    const key = sa < sb ? sa * PAIR_KEY_BASE + sb : sb * PAIR_KEY_BASE + sa;
    let lo = 0;
    let hi = this.prevN - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = this.prevKeys[mid];
      if (k === key) return true;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
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
    const best = { slot: -1, toi: maxToi, px: 0, py: 0, nx: 0, ny: 0 };
    this.runRay(origin, dir, maxToi, options, (slot, hit) => {
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
    h.handle = packHandle(best.slot, this.gen[best.slot]);
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
    const start = out.length;
    this.runRay(origin, dir, maxToi, options, (slot, hit) => {
      out.push({
        handle: packHandle(slot, this.gen[slot]),
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
    const f = this.filterOf(filter);
    bpMin.x = min?.x;
    bpMin.y = min?.y;
    bpMax.x = max?.x;
    bpMax.y = max?.y;
    const start = out.length;
    const b = this.box;
    this.bp.queryAabb(bpMin, bpMax, (slot) => {
      if (!this.passes(slot, f.mask, f.sensors)) return undefined;
      const k = 4 * slot;
      if (b[k] <= max.x && min.x <= b[k + 2] && b[k + 1] <= max.y && min.y <= b[k + 3]) {
        out.push(packHandle(slot, this.gen[slot]));
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
    const f = this.filterOf(filter);
    aabbShape2(minV, maxV, shape, pose);
    bpMin.x = minV.x;
    bpMin.y = minV.y;
    bpMax.x = maxV.x;
    bpMax.y = maxV.y;
    const start = out.length;
    const qPose = pose2.clone(pose);
    this.bp.queryAabb(bpMin, bpMax, (slot) => {
      if (!this.passes(slot, f.mask, f.sensors)) return undefined;
      this.readPose(poseB, slot);
      pose2.invMul(bInA, qPose, poseB);
      if (contactShapes2(cScratch, shape, this.shapes[slot] as Shape2, bInA, 0)) {
        out.push(packHandle(slot, this.gen[slot]));
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
    const f = this.filterOf(options);
    const solid = options.solid ?? true;
    rayO.x = origin.x;
    rayO.y = origin.y;
    rayD.x = dir.x;
    rayD.y = dir.y;
    const o = { x: origin.x, y: origin.y };
    const d = { x: dir.x, y: dir.y };
    this.bp.castRay(rayO, rayD, maxToi, (slot) => {
      if (!this.passes(slot, f.mask, f.sensors)) return undefined;
      this.readPose(poseA, slot);
      const hit = castRay2D(this.shapes[slot] as Shape2, poseA, o, d, maxToi, solid, hitScratch);
      if (!hit) return undefined;
      return visit(slot, hit);
    });
  }

  private filterOf(filter: QueryFilter2D): { mask: number; sensors: boolean } {
    const mask = filter?.mask ?? DEFAULT_MASK;
    checkBits("filter.mask", mask);
    return { mask, sensors: filter?.includeSensors ?? true };
  }

  private passes(slot: number, qMask: number, sensors: boolean): boolean {
    return (this.layer[slot] & qMask) !== 0 && (sensors || (this.flags[slot] & FLAG_SENSOR) === 0);
  }

  private slotOf(handle: number): number {
    if (typeof handle !== "number" || !Number.isInteger(handle) || handle < GEN_BASE) return -1;
    const s = handleSlot(handle);
    if (s >= this.slotCount || (this.flags[s] & FLAG_ALIVE) === 0) return -1;
    if (this.gen[s] !== handle - (s + 1) * GEN_BASE) return -1;
    return s;
  }

  private requireSlot(field: string, handle: BodyHandle2D): number {
    const s = this.slotOf(handle);
    if (s < 0) invalidValue(field, handle, "is not a live body of this world (unknown or removed)");
    return s;
  }

  private computeBoxes(field: string, shape: Shape2, pose: Pose2): void {
    aabbShape2(minV, maxV, shape, pose);
    const h = this.half;
    bpMin.x = minV.x - h;
    bpMin.y = minV.y - h;
    bpMax.x = maxV.x + h;
    bpMax.y = maxV.y + h;
    if (
      !Number.isFinite(bpMin.x) ||
      !Number.isFinite(bpMin.y) ||
      !Number.isFinite(bpMax.x) ||
      !Number.isFinite(bpMax.y)
    ) {
      invalidValue(`${field}.p`, pose.p, "puts the body's AABB out of range");
    }
  }

  private grow(n: number): void {
    if (n <= this.layer.length) return;
    const cap = Math.max(2 * this.layer.length, n);
    this.pose = growFloat64(this.pose, 4 * cap);
    this.box = growFloat64(this.box, 4 * cap);
    const u32 = (a: Uint32Array) => {
      const b = new Uint32Array(cap);
      b.set(a);
      return b;
    };
    this.layer = u32(this.layer);
    this.mask = u32(this.mask);
    this.gen = u32(this.gen);
    const f = new Uint8Array(cap);
    f.set(this.flags);
    this.flags = f;
  }

  private writePose(slot: number, p: Pose2): void {
    const k = 4 * slot;
    this.pose[k] = p.p.x;
    this.pose[k + 1] = p.p.y;
    this.pose[k + 2] = p.q.c;
    this.pose[k + 3] = p.q.s;
  }

  private readPose(out: Pose2, slot: number): Pose2 {
    const k = 4 * slot;
    out.p.x = this.pose[k];
    out.p.y = this.pose[k + 1];
    out.q.c = this.pose[k + 2];
    out.q.s = this.pose[k + 3];
    return out;
  }

  private writeBox(slot: number): void {
    const k = 4 * slot;
    this.box[k] = minV.x;
    this.box[k + 1] = minV.y;
    this.box[k + 2] = maxV.x;
    this.box[k + 3] = maxV.y;
  }

  private pushTouch(key: number, a: number, b: number, sensor: number): void {
    if (this.curN === this.curKeys.length) {
      this.curKeys = growFloat64(this.curKeys, 2 * this.curN);
      this.curH = growFloat64(this.curH, 4 * this.curN);
      const s = new Uint8Array(2 * this.curN);
      s.set(this.curS);
      this.curS = s;
    }
    this.curKeys[this.curN] = key;
    this.curH[2 * this.curN] = a;
    this.curH[2 * this.curN + 1] = b;
    this.curS[this.curN++] = sensor;
  }

  private pushContact(a: number, b: number, distance: number, m: Manifold2): void {
    const i = this.nContacts++;
    this.records = growFloat64(this.records, REC * this.nContacts);
    const r = this.records;
    const k = REC * i;
    r[k] = a;
    r[k + 1] = b;
    r[k + 2] = distance;
    // To the world frame (poseA is the pair's A pose).
    const c = poseA.q.c;
    const s = poseA.q.s;
    r[k + 3] = c * m.normal.x - s * m.normal.y;
    r[k + 4] = s * m.normal.x + c * m.normal.y;
    r[k + 5] = m.count;
    for (let p = 0; p < m.count; p++) {
      const q = k + 6 + 6 * p;
      const pt = m.points[p];
      r[q] = c * pt.pointA.x - s * pt.pointA.y + poseA.p.x;
      r[q + 1] = s * pt.pointA.x + c * pt.pointA.y + poseA.p.y;
      r[q + 2] = c * pt.pointB.x - s * pt.pointB.y + poseA.p.x;
      r[q + 3] = s * pt.pointB.x + c * pt.pointB.y + poseA.p.y;
      r[q + 4] = pt.distance;
      r[q + 5] = pt.id;
    }
  }

  /** Merges this step's sorted touching pairs with the last step's into the event lists. */
  private diff(): void {
    const { begin, persist, end } = this.ev;
    begin.clear();
    persist.clear();
    end.clear();
    let i = 0;
    let j = 0;
    const pk = this.prevKeys;
    const ck = this.curKeys;
    while (i < this.prevN || j < this.curN) {
      if (j >= this.curN || (i < this.prevN && pk[i] < ck[j])) {
        end.push(this.prevH[2 * i], this.prevH[2 * i + 1], this.prevS[i]);
        i++;
      } else if (i >= this.prevN || ck[j] < pk[i]) {
        begin.push(this.curH[2 * j], this.curH[2 * j + 1], this.curS[j]);
        j++;
      } else {
        if (
          this.prevH[2 * i] !== this.curH[2 * j] ||
          this.prevH[2 * i + 1] !== this.curH[2 * j + 1]
        ) {
          // The same slots, other bodies (cannot happen while slots are held until this step).
          end.push(this.prevH[2 * i], this.prevH[2 * i + 1], this.prevS[i]);
          begin.push(this.curH[2 * j], this.curH[2 * j + 1], this.curS[j]);
        } else {
          persist.push(this.curH[2 * j], this.curH[2 * j + 1], this.curS[j]);
        }
        i++;
        j++;
      }
    }
    // Swap the frames.
    const k = this.prevKeys;
    this.prevKeys = this.curKeys;
    this.curKeys = k;
    const h = this.prevH;
    this.prevH = this.curH;
    this.curH = h;
    const s = this.prevS;
    this.prevS = this.curS;
    this.curS = s;
    this.prevN = this.curN;
    this.curN = 0;
  }
}

function sortTail(a: number[], start: number): void {
  const tail = a.splice(start).sort((p, q) => p - q);
  for (const h of tail) a.push(h);
}
