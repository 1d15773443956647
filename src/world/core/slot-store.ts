/**
 * Structure-of-arrays body storage of a collision world, written once for every dimension: the
 * 3D `CollisionWorld` (src/world/body-store.ts adds its quaternion poses) and the 2D
 * `CollisionWorld2D` (src/dim2/world2.ts, angle poses) keep their bodies here. Indexed by slot
 * (the body's broad-phase proxy id): poses (`poseStride` doubles a body: 7 in 3D — translation
 * xyz, quaternion xyzw — and 4 in 2D — translation xy, cos, sin), tight world AABBs
 * (`boxStride` doubles: min then max, 6 in 3D, 4 in 2D), 32-bit layer and mask, flag bytes, a
 * shape-type byte, slot generations and the number of touching pairs of each slot at the last
 * step, all in typed arrays that grow by doubling. Only the shapes and user data, which are the
 * user's objects, live in plain arrays.
 *
 * Handles are generational (src/world/handles.ts): `(id + 1) · 2^20 + generation`, so 0 is
 * never a handle. A body's id names it for its whole life while its slot may change: the world
 * may move bodies between slots ({@link SlotStore.permute}, the 3D world's spatial reordering),
 * through `slotOfId` / `idOfSlot`. A slot and its id are taken and freed together, through LIFO
 * free lists, so until a permutation (or an id retired after 2^20 removals, see `release`)
 * id = slot (ascending handle order is slot order), and the
 * same sequence of operations always gives the same slots and handles (determinism). A slot
 * freed while its body still has touching pairs from the last step is only "pending" (its id
 * too) until the next step has reported their `end` events (src/world/core/pair-cache.ts), so a
 * pair key of the previous frame never names a reused slot.
 */
import { invalidValue } from "../../errors.js";
import { growInt32 } from "../../math/typed-arrays.js";
import {
  HANDLE_GENERATION_BASE,
  handleGeneration,
  handleSlot,
  isHandleShaped,
  MAX_BODY_SLOT,
  packHandle,
} from "../handles.js";

/** Flag bit: the slot holds a live body. */
export const FLAG_ALIVE = 1;
/** Flag bit: the body is a sensor (boolean overlap, no contact points). */
export const FLAG_SENSOR = 2;

const INITIAL_SLOTS = 16;

/**
 * Body storage of a world of any dimension (see the module docs); fields are read directly by
 * the worlds. `S` is the world's shape type.
 */
export class SlotStore<S> {
  /** Doubles per pose (7 in 3D, 4 in 2D). */
  readonly poseStride: number;
  /** Doubles per tight AABB: min then max (6 in 3D, 4 in 2D). */
  readonly boxStride: number;
  /** Poses, `poseStride` doubles a slot, world frame. */
  pose: Float64Array;
  /** Tight world AABBs, `boxStride` doubles a slot: min coordinates, then max coordinates. */
  aabb: Float64Array;
  /** Collision layer bits of each slot. */
  layer = new Uint32Array(INITIAL_SLOTS);
  /** Collision mask bits of each slot. */
  mask = new Uint32Array(INITIAL_SLOTS);
  /** Flag bits of each slot ({@link FLAG_ALIVE}, {@link FLAG_SENSOR}, and the world's own). */
  flags: Uint8Array;
  /**
   * Shape type id of each slot. The hot paths dispatch on this byte rather than on `shape.type`:
   * a polymorphic map check on the shape object would make V8 treat every later field load of
   * the inlined per-type routine as polymorphic, and box its doubles.
   */
  shapeType = new Uint8Array(INITIAL_SLOTS);
  /**
   * Bounding radius of each live slot's shape about its origin, scene units (the shape
   * definition's `boundingRadius`, Infinity for an unbounded shape), written by the world when
   * it adds the body: the narrow phase's world-frame reject test reads it beside the poses
   * without loading the shape object. 0 in a world that does not use it (the 2D world).
   */
  radius: Float64Array;
  /** Current generation of each body id (the generation of its live body's handle). */
  generation = new Uint32Array(INITIAL_SLOTS);
  /** Body id of each slot in use (live or pending). */
  idOfSlot = new Int32Array(INITIAL_SLOTS);
  /** Slot of each body id in use (a live or pending slot's); stale for a free id. */
  slotOfId = new Int32Array(INITIAL_SLOTS).fill(-1);
  /**
   * Handle of each live slot's body, `packHandle(idOfSlot[s], generation[idOfSlot[s]])`, kept
   * so that the step's pair lists read one double per body.
   */
  handleOfSlot = new Float64Array(INITIAL_SLOTS);
  /** Number of touching pairs (last step) each slot takes part in. */
  touchCount = new Int32Array(INITIAL_SLOTS);
  /** Shape of each live slot. */
  shapes: (S | undefined)[] = [];
  /** User data of each live slot. */
  userData: unknown[] = [];
  /** Number of slots ever used (the high-water mark). */
  slotCount = 0;
  /** Number of live bodies. */
  count = 0;
  /** Incremented whenever a slot's shape changes (see `NarrowPhaseInput.shapesVersion`). */
  shapesVersion = 0;
  private free = new Int32Array(INITIAL_SLOTS);
  private freeCount = 0;
  /** Free ids (LIFO, freed with their slots: without a permutation the same as {@link free}). */
  private freeIds = new Int32Array(INITIAL_SLOTS);
  private freeIdCount = 0;
  /** Number of ids ever used (≤ {@link slotCount}). */
  private idCount = 0;
  /** The generation of the last batch that named each slot (see {@link beginBatch}). */
  private batchStamp = new Int32Array(0);
  private batchGeneration = 0;
  private pending = new Int32Array(INITIAL_SLOTS);
  private pendingCount = 0;
  /** Whether `pose`, `aabb`, `flags` and `radius` live in `SharedArrayBuffer`s (see the constructor). */
  private readonly shared: boolean;

  /**
   * An empty store of `poseStride` doubles a pose and `boxStride` a box. With `shared`, the
   * poses, tight boxes, flag bytes and bounding radii live in `SharedArrayBuffer`s, so a parallel executor's worker threads
   * read them in place instead of receiving a copy every step.
   */
  constructor(poseStride: number, boxStride: number, shared = false) {
    this.poseStride = poseStride;
    this.boxStride = boxStride;
    this.shared = shared;
    this.pose = allocFloat64(poseStride * INITIAL_SLOTS, shared);
    this.aabb = allocFloat64(boxStride * INITIAL_SLOTS, shared);
    this.flags = allocUint8(INITIAL_SLOTS, shared);
    this.radius = allocFloat64(INITIAL_SLOTS, shared);
  }

  /** The slot the next {@link allocate} returns (does not change state). */
  peekSlot(): number {
    return this.freeCount > 0 ? this.free[this.freeCount - 1] : this.slotCount;
  }

  /**
   * Takes the next free slot (see {@link peekSlot}) and the next free body id, growing storage
   * when needed; {@link handleOf} the slot is the new body's handle.
   */
  allocate(): number {
    // Reached only after 2^46 removals (an id is retired after 2^20 generations, see release),
    // and checked before anything changes.
    if (this.freeIdCount === 0 && this.idCount > MAX_BODY_SLOT)
      invalidValue(
        "body",
        this.idCount,
        `has no handle left: the world's ${MAX_BODY_SLOT + 1} body ids are used up`,
      );
    let s: number;
    if (this.freeCount > 0) s = this.free[--this.freeCount];
    else {
      s = this.slotCount++;
      if (s >= this.flags.length) this.grow(2 * this.flags.length);
    }
    const id = this.freeIdCount > 0 ? this.freeIds[--this.freeIdCount] : this.idCount++;
    if (id >= this.generation.length) this.grow(2 * this.generation.length);
    this.idOfSlot[s] = id;
    this.slotOfId[id] = s;
    this.handleOfSlot[s] = packHandle(id, this.generation[id]);
    return s;
  }

  /** True when `slot` holds a live body. */
  isAlive(slot: number): boolean {
    return slot >= 0 && slot < this.slotCount && (this.flags[slot] & FLAG_ALIVE) !== 0;
  }

  /** The handle of the body in live `slot` (no liveness check). */
  handleOf(slot: number): number {
    return this.handleOfSlot[slot];
  }

  /** The live slot of `handle`, or −1 (a stale, unknown or malformed handle). Never throws. */
  slotOf(handle: number): number {
    if (!isHandleShaped(handle)) return -1;
    const id = handleSlot(handle);
    if (id >= this.idCount || this.generation[id] !== handleGeneration(handle)) return -1;
    const s = this.slotOfId[id];
    return s >= 0 && this.isAlive(s) ? s : -1;
  }

  /** The live slot of `handle`; throws `CollideError` naming `field` when it is not live. */
  requireSlot(field: string, handle: number): number {
    const s = this.slotOf(handle);
    if (s < 0) invalidValue(field, handle, "is not a live body of this world (unknown or removed)");
    return s;
  }

  /**
   * Starts a batch (a `setPoses` call) in which each body may be named once: see
   * {@link requireBatchSlot}. No allocation once the stamp array has grown to the slots.
   */
  beginBatch(): void {
    if (this.batchStamp.length < this.slotCount) {
      this.batchStamp = new Int32Array(Math.max(this.slotCount, 2 * this.batchStamp.length));
      this.batchGeneration = 0;
    }
    if (++this.batchGeneration >= 0x7fffffff) {
      this.batchStamp.fill(0);
      this.batchGeneration = 1;
    }
  }

  /**
   * The live slot of `handles[i]` in the batch begun by {@link beginBatch}: `invalid_value` for a
   * stale or unknown handle (field `handles[i]`) or one named earlier in the batch (field
   * `handles[i]` of the repeat, its value the handle, the message naming the first). A per-slot
   * stamp of the batch's generation, so a batch is checked in one walk.
   */
  requireBatchSlot(handles: ArrayLike<number>, i: number): number {
    // The field's name is formed only for an error: a template string a call allocates.
    const slot = this.slotOf(handles[i]);
    if (slot < 0) this.requireSlot(`handles[${i}]`, handles[i]);
    const gen = this.batchGeneration;
    if (this.batchStamp[slot] === gen) {
      let first = 0;
      while (this.slotOf(handles[first]) !== slot) first++;
      invalidValue(
        `handles[${i}]`,
        handles[i],
        `repeats handles[${first}]: setPoses moves each body once (one pose per handle)`,
      );
    }
    this.batchStamp[slot] = gen;
    return slot;
  }

  /**
   * Kills the body of `slot`: clears its flags, bumps the generation (so its handle becomes
   * stale) and frees the slot now, or after the next step when it still has touching pairs.
   */
  kill(slot: number): void {
    this.flags[slot] = 0;
    const id = this.idOfSlot[slot];
    // slotOfId[id] stays until the slot is released: the next step's `end` events name it.
    this.generation[id] = (this.generation[id] + 1) % HANDLE_GENERATION_BASE;
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
    // An id whose generation has wrapped back to 0 (2^20 removals of its bodies) is retired, not
    // reused: its next handle would equal its first, and a handle kept that long would name a
    // new body. The slot is reused with a fresh id; ids last 2^26 · 2^20 removals.
    const id = this.idOfSlot[slot];
    if (this.generation[id] === 0) {
      // No handle's generation is 2^20: every handle of the retired id is stale for good.
      this.generation[id] = HANDLE_GENERATION_BASE;
      return;
    }
    if (this.freeIdCount === this.freeIds.length) {
      this.freeIds = growInt32(this.freeIds, 2 * this.freeIdCount);
    }
    this.freeIds[this.freeIdCount++] = id;
  }

  /**
   * Moves every slot `s` < {@link slotCount} to slot `newOf[s]` (`oldOf` its inverse, both
   * permutations of `[0, slotCount)`), with everything stored per slot: poses, boxes, filters,
   * flags, shapes, user data, touch counts, ids (so every handle keeps naming its body) and the
   * free and pending lists. The caller moves its own per-slot state. Allocates scratch (a
   * permutation is rare: see the 3D world's spatial reordering).
   */
  permute(newOf: Int32Array, oldOf: Int32Array): void {
    const n = this.slotCount;
    gatherRows(this.pose, oldOf, n, this.poseStride);
    gatherRows(this.aabb, oldOf, n, this.boxStride);
    gatherRows(this.layer, oldOf, n, 1);
    gatherRows(this.mask, oldOf, n, 1);
    gatherRows(this.flags, oldOf, n, 1);
    gatherRows(this.shapeType, oldOf, n, 1);
    gatherRows(this.radius, oldOf, n, 1);
    gatherRows(this.touchCount, oldOf, n, 1);
    gatherRows(this.idOfSlot, oldOf, n, 1);
    gatherRows(this.handleOfSlot, oldOf, n, 1);
    const shapes = this.shapes.slice(0, n);
    const userData = this.userData.slice(0, n);
    for (let s = 0; s < n; s++) {
      this.shapes[s] = shapes[oldOf[s]];
      this.userData[s] = userData[oldOf[s]];
      if (this.isAlive(s)) this.slotOfId[this.idOfSlot[s]] = s;
    }
    for (let i = 0; i < this.freeCount; i++) this.free[i] = newOf[this.free[i]];
    for (let i = 0; i < this.pendingCount; i++) {
      const s = newOf[this.pending[i]];
      this.pending[i] = s;
      this.slotOfId[this.idOfSlot[s]] = s;
    }
    this.shapesVersion++;
  }

  private grow(n: number): void {
    const pose = allocFloat64(this.poseStride * n, this.shared);
    pose.set(this.pose);
    this.pose = pose;
    const aabb = allocFloat64(this.boxStride * n, this.shared);
    aabb.set(this.aabb);
    this.aabb = aabb;
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
    const radius = allocFloat64(n, this.shared);
    radius.set(this.radius);
    this.radius = radius;
    const gen = new Uint32Array(n);
    gen.set(this.generation);
    this.generation = gen;
    const idOfSlot = new Int32Array(n);
    idOfSlot.set(this.idOfSlot);
    this.idOfSlot = idOfSlot;
    const slotOfId = new Int32Array(n).fill(-1);
    slotOfId.set(this.slotOfId);
    this.slotOfId = slotOfId;
    const handleOfSlot = new Float64Array(n);
    handleOfSlot.set(this.handleOfSlot);
    this.handleOfSlot = handleOfSlot;
    const touch = new Int32Array(n);
    touch.set(this.touchCount);
    this.touchCount = touch;
  }
}

/**
 * Reorders the first `n` rows of `stride` values of `a` in place: row `s` becomes the old row
 * `oldOf[s]` (through a copy of those rows).
 */
export function gatherRows(
  a: Float64Array | Int32Array | Uint32Array | Uint8Array,
  oldOf: Int32Array,
  n: number,
  stride: number,
): void {
  const copy = a.slice(0, n * stride);
  for (let s = 0; s < n; s++) {
    const from = oldOf[s] * stride;
    const to = s * stride;
    for (let j = 0; j < stride; j++) a[to + j] = copy[from + j];
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
