/**
 * Structure-of-arrays storage of the collision world's bodies, indexed by slot (the body's
 * broad-phase proxy id): poses (7 doubles: translation xyz, rotation quaternion xyzw), tight
 * world AABBs (6 doubles), 32-bit layer and mask, flag bytes, slot generations and the number of
 * touching pairs of each slot at the last step, all in typed arrays that grow by doubling. Only
 * the shape and user data, which are the user's objects, live in plain arrays.
 *
 * Slots are recycled through a LIFO free list, so the same sequence of operations always gives
 * the same slots and handles (determinism). A slot freed while its body still has touching
 * pairs from the last step is only "pending" until the next step has reported their `end`
 * events (see src/world/contact-cache.ts).
 */
import { growFloat64, growInt32 } from "../broadphase/broad-phase.js";
import type { Isometry } from "../math/isometry.js";
import type { Shape } from "../shapes/shape.js";
import { HANDLE_GENERATION_BASE } from "./handles.js";

/** Flag bit: the slot holds a live body. */
export const FLAG_ALIVE = 1;
/** Flag bit: the body is a sensor (boolean overlap, no contact points). */
export const FLAG_SENSOR = 2;
/** Flag bit: the body's shape is convex (its manifold comes from `manifoldFromContact`). */
export const FLAG_CONVEX = 4;
/**
 * Flag bit: the body's shape is a sphere. With {@link FLAG_CUBOID}, the narrow phase's fast path
 * for spheres and boxes branches on these bits, not on `shape.type`: a branch on the shape
 * object's own field makes V8 treat the field loads that follow as polymorphic over every shape
 * class and box the doubles they give (an allocation per pair).
 */
export const FLAG_SPHERE = 8;
/** Flag bit: the body's shape is a cuboid (see {@link FLAG_SPHERE}). */
export const FLAG_CUBOID = 16;

const INITIAL_SLOTS = 16;

/** Body storage of a world (see the module docs); fields are read directly by the world. */
export class BodyStore {
  /** Poses: `pose[7·s .. 7·s+6] = (tx, ty, tz, qx, qy, qz, qw)`, world frame. */
  pose: Float64Array;
  /** Tight world AABBs: `aabb[6·s .. 6·s+5] = (minx, miny, minz, maxx, maxy, maxz)`. */
  aabb = new Float64Array(6 * INITIAL_SLOTS);
  /** Collision layer bits of each slot. */
  layer = new Uint32Array(INITIAL_SLOTS);
  /** Collision mask bits of each slot. */
  mask = new Uint32Array(INITIAL_SLOTS);
  /** Flag bits of each slot ({@link FLAG_ALIVE}, {@link FLAG_SENSOR}). */
  flags: Uint8Array;
  /**
   * Shape type ({@link ShapeType} id) of each slot. The hot paths dispatch on this byte rather
   * than on `shape.type`: a polymorphic map check on the shape object would make V8 treat every
   * later field load of the inlined per-type routine as polymorphic, and box its doubles.
   */
  shapeType = new Uint8Array(INITIAL_SLOTS);
  /** Current generation of each slot (the generation of its live body's handle). */
  generation = new Uint32Array(INITIAL_SLOTS);
  /** Number of touching pairs (last step) each slot takes part in. */
  touchCount = new Int32Array(INITIAL_SLOTS);
  /** Shape of each live slot. */
  shapes: (Shape | undefined)[] = [];
  /** User data of each live slot. */
  userData: unknown[] = [];
  /** Number of slots ever used (the high-water mark). */
  slotCount = 0;
  /** Number of live bodies. */
  count = 0;
  private free = new Int32Array(INITIAL_SLOTS);
  private freeCount = 0;
  private pending = new Int32Array(INITIAL_SLOTS);
  private pendingCount = 0;
  /** Incremented whenever a slot's shape changes (see `NarrowPhaseInput.shapesVersion`). */
  shapesVersion = 0;
  /** Whether `pose` and `flags` live in `SharedArrayBuffer`s (see the constructor). */
  private readonly shared: boolean;

  /**
   * An empty store. With `shared`, the poses and flag bytes live in `SharedArrayBuffer`s, so a
   * parallel executor's worker threads read them in place instead of receiving a copy every
   * step (the world asks for it when it has an executor).
   */
  constructor(shared = false) {
    this.shared = shared;
    this.pose = allocFloat64(7 * INITIAL_SLOTS, shared);
    this.flags = allocUint8(INITIAL_SLOTS, shared);
  }

  /** The slot the next {@link allocate} returns (does not change state). */
  peekSlot(): number {
    return this.freeCount > 0 ? this.free[this.freeCount - 1] : this.slotCount;
  }

  /** Takes the next free slot (see {@link peekSlot}), growing storage when needed. */
  allocate(): number {
    if (this.freeCount > 0) return this.free[--this.freeCount];
    const s = this.slotCount++;
    if (s >= this.flags.length) this.grow(2 * this.flags.length);
    return s;
  }

  /** True when `slot` holds a live body. */
  isAlive(slot: number): boolean {
    return slot >= 0 && slot < this.slotCount && (this.flags[slot] & FLAG_ALIVE) !== 0;
  }

  /** Writes a pose into `slot`. */
  writePose(slot: number, p: Isometry): void {
    const k = 7 * slot;
    const a = this.pose;
    a[k] = p.translation.x;
    a[k + 1] = p.translation.y;
    a[k + 2] = p.translation.z;
    a[k + 3] = p.rotation.x;
    a[k + 4] = p.rotation.y;
    a[k + 5] = p.rotation.z;
    a[k + 6] = p.rotation.w;
  }

  /** Reads the pose of `slot` into `out`. Returns out. */
  readPose(out: Isometry, slot: number): Isometry {
    const k = 7 * slot;
    const a = this.pose;
    out.translation.x = a[k];
    out.translation.y = a[k + 1];
    out.translation.z = a[k + 2];
    out.rotation.x = a[k + 3];
    out.rotation.y = a[k + 4];
    out.rotation.z = a[k + 5];
    out.rotation.w = a[k + 6];
    return out;
  }

  /**
   * Kills the body of `slot`: clears its flags, bumps the generation (so its handle becomes
   * stale) and frees the slot now, or after the next step when it still has touching pairs.
   */
  kill(slot: number): void {
    this.flags[slot] = 0;
    this.generation[slot] = (this.generation[slot] + 1) % HANDLE_GENERATION_BASE;
    this.shapes[slot] = undefined;
    this.shapesVersion++;
    this.userData[slot] = undefined;
    this.count--;
    if (this.touchCount[slot] > 0) {
      if (this.pendingCount === this.pending.length)
        this.pending = growInt32(this.pending, 2 * this.pendingCount);
      this.pending[this.pendingCount++] = slot;
    } else {
      this.release(slot);
    }
  }

  /** Frees every pending slot (called at the end of a step, after the `end` events). */
  releasePending(): void {
    for (let i = 0; i < this.pendingCount; i++) this.release(this.pending[i]);
    this.pendingCount = 0;
  }

  private release(slot: number): void {
    if (this.freeCount === this.free.length) this.free = growInt32(this.free, 2 * this.freeCount);
    this.free[this.freeCount++] = slot;
  }

  private grow(n: number): void {
    const pose = allocFloat64(7 * n, this.shared);
    pose.set(this.pose);
    this.pose = pose;
    this.aabb = growFloat64(this.aabb, 6 * n);
    const layer = new Uint32Array(n);
    layer.set(this.layer);
    this.layer = layer;
    const mask = new Uint32Array(n);
    mask.set(this.mask);
    this.mask = mask;
    const flags = allocUint8(n, this.shared);
    flags.set(this.flags);
    this.flags = flags;
    const shapeType = new Uint8Array(n);
    shapeType.set(this.shapeType);
    this.shapeType = shapeType;
    const gen = new Uint32Array(n);
    gen.set(this.generation);
    this.generation = gen;
    const touch = new Int32Array(n);
    touch.set(this.touchCount);
    this.touchCount = touch;
  }
}

/** A zeroed `Float64Array` of `n` values, in a `SharedArrayBuffer` when `shared`. */
export function allocFloat64(n: number, shared: boolean): Float64Array {
  return shared ? new Float64Array(new SharedArrayBuffer(8 * n)) : new Float64Array(n);
}

/** A zeroed `Uint8Array` of `n` values, in a `SharedArrayBuffer` when `shared`. */
export function allocUint8(n: number, shared: boolean): Uint8Array {
  return shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n);
}
