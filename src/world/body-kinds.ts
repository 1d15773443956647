/**
 * Per-slot state of the collision world's body kinds, move buffer and sleeping, kept beside the
 * body store (src/world/body-store.ts) so that the narrow phase's shared storage is unchanged.
 *
 * - **Kinds.** A body is `dynamic`, `kinematic` (both "moving": they sit in the world's broad
 *   phase and pair with everything) or `static`: static bodies live in their own structure, a
 *   linear BVH over their broad-phase boxes (src/broadphase/static-bvh.ts: Morton order,
 *   100,000 boxes built in tens of milliseconds), as Box2D
 *   keeps a static tree beside its dynamic one and Jolt a broad-phase layer for non-moving
 *   bodies. It is built once, at the first step or query after static bodies were added, moved
 *   or removed (a lazy rebuild, O(S log S)); static bodies are never paired with one another.
 * - **Move buffer** (Box2D's `b2BufferMove`): every slot whose box, pose, filter or existence
 *   changed since the last step is marked dirty once and listed; only those query the broad
 *   phase at the next step, and only pairs with a dirty body go to the narrow phase — a pair of
 *   two clean bodies keeps its last result.
 * - **Sleeping**: a flag per moving body and the step at which it last moved; with
 *   `sleepAfterSteps` = N > 0 a FIFO of (slot, step moved) entries finds the bodies that stayed
 *   still N steps without scanning the bodies that did not move (amortised O(1) per move).
 *
 * - **Static candidates** of a moving body (temporal coherence, as Box2D's fat boxes): its query
 *   of the static BVH is made with its broad-phase box grown by {@link STATIC_CANDIDATE_MARGIN}
 *   of its largest side, and the entries found are kept; while its box stays inside that fat
 *   box and the static set is unchanged, its static pairs are the kept entries whose boxes
 *   touch its box — exactly the entries a query would find (any entry touching the box touches
 *   the fat box that contains it), without descending the hierarchy. A body that leaves its fat
 *   box, and every body after a rebuild of the static BVH, queries again.
 *
 * Storage is typed arrays grown by doubling and kept, so a steady-state step allocates nothing
 * here; the static BVH's build allocates (it runs only when the static set changed).
 */
import { growFloat64, growInt32 } from "../broadphase/broad-phase.js";
import { StaticBvh, warmStaticBvh } from "../broadphase/static-bvh.js";
import {
  growFloat64Mem,
  growInt32Mem,
  newInt32,
  toSharedFloat64,
  toSharedInt32,
  toSharedUint8,
} from "../math/typed-arrays.js";
import { gatherRows } from "./core/slot-store.js";
import type { StaticQueryJob } from "./static-query.js";

/** Kind id of a dynamic body (the default). */
export const KIND_DYNAMIC = 0;
/** Kind id of a kinematic body (moved by the user; a moving body for collision). */
export const KIND_KINEMATIC = 1;
/** Kind id of a static body (never paired with another static body). */
export const KIND_STATIC = 2;

/**
 * Margin of a moving body's static query box, as a fraction of its broad-phase box's largest
 * side (module docs): wider keeps the candidates longer, at the cost of more kept entries.
 */
export const STATIC_CANDIDATE_MARGIN = 0.25;

/**
 * Bounded static bodies at which the static BVH's builder is warmed up (`warmStaticBvh`, once per
 * process): a set this large is a level being added, whose first build, at the next step, then
 * runs optimised code; smaller sets build in a few milliseconds cold.
 */
export const STATIC_WARM_AT = 4096;

/** Bits of a {@link BodyKinds.dirty} mark: the slot is in the moving / the static move list. */
const DIRTY_MOVING = 1;
const DIRTY_STATIC = 2;

/** A body's kind, as given in `BodyDesc.kind`. */
export type BodyKind = "static" | "kinematic" | "dynamic";

/** The kind names by id. */
export const KIND_NAMES: readonly BodyKind[] = ["dynamic", "kinematic", "static"];

function growU8(a: Uint8Array, n: number): Uint8Array {
  if (n <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < n) cap *= 2;
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}

/** Kinds, broad-phase boxes, dirty marks, sleep state and the static set (see the module docs). */
export class BodyKinds {
  /** Kind id of each slot ({@link KIND_DYNAMIC}, {@link KIND_KINEMATIC}, {@link KIND_STATIC}). */
  kind: Uint8Array = new Uint8Array(16);
  /** 1 when the slot's (moving) body sleeps. */
  sleeping: Uint8Array = new Uint8Array(16);
  /**
   * Broad-phase box of each slot: the tight box grown by half the prediction and the rounding
   * pad, `box[6s .. 6s+5] = (minx, miny, minz, maxx, maxy, maxz)` — what the broad phase holds.
   */
  box: Float64Array = new Float64Array(96);
  /** Nonzero when the slot is in the move buffer (bits: which lists hold it, {@link markDirty}). */
  dirty: Uint8Array = new Uint8Array(16);
  /** The move buffer's moving (non-static) slots, `dirtyList[0 .. dirtyCount)`, in marking order. */
  dirtyList = new Int32Array(16);
  dirtyCount = 0;
  /**
   * The move buffer's static slots, `dirtyStatic[0 .. dirtyStaticCount)`, in marking order: kept
   * apart so that the step's passes over the moving bodies do not walk a level's 100,000 static
   * bodies, listed once when they are added.
   */
  dirtyStatic = new Int32Array(16);
  dirtyStaticCount = 0;
  /** Step index at which each slot last moved (or woke). */
  lastMoved = new Float64Array(16);
  /** Live static slots, densely packed, and each slot's position there (−1: not static). */
  private staticSlots = new Int32Array(16);
  private staticPos = new Int32Array(16).fill(-1);
  /** Number of live static bodies (half-spaces included). */
  staticCount = 0;
  /** Number of live bounded static bodies (those in {@link staticBvh}). */
  staticBounded = 0;
  /** The static structure: a BVH over the bounded static bodies' broad-phase boxes. */
  readonly staticBvh = new StaticBvh();
  /** False when static bodies were added, moved or removed since {@link staticBvh} was built. */
  staticFresh = true;
  /** 1 for a static slot with a box (in the static BVH), 0 otherwise (half-spaces, moving). */
  private staticBox: Uint8Array = new Uint8Array(16);
  private bvhIds = new Int32Array(0);
  /** Incremented by every build of {@link staticBvh}: kept static candidates of older builds are stale. */
  private staticVersion = 1;
  // Static candidates (module docs): per slot the fat box queried, the range of its entry
  // indices in `scPool` and the static version they were found at (0: none); `scLive` entries
  // of the pool's first `scLen` belong to current ranges, the rest to replaced ones.
  private scBox: Float64Array = new Float64Array(96);
  private scStart: Int32Array = new Int32Array(16);
  private scCount: Int32Array = new Int32Array(16);
  private scVersion: Int32Array = new Int32Array(16);
  private scPool: Int32Array = new Int32Array(1024);
  private scSpare: Int32Array = new Int32Array(1024);
  private scLen = 0;
  private scLive = 0;
  // Sleep queue: a ring of (slot, step) entries in step order.
  private qSlot = new Int32Array(64);
  private qStep = new Float64Array(64);
  private qHead = 0;
  private qCount = 0;

  /**
   * True when {@link box} and {@link kind} live in `SharedArrayBuffer`s (a world with a parallel
   * executor: the threaded `setPoses` writes the boxes), see {@link share}.
   */
  shared = false;

  /** Moves {@link box}, {@link kind} and {@link dirty} into shared memory, now and after every growth. */
  share(): void {
    this.shared = true;
    this.box = toSharedFloat64(this.box, true);
    // The static BVH reads the static bodies' boxes in place: the same boxes, a new array.
    this.staticBvh.rebind(this.box);
    this.kind = toSharedUint8(this.kind, true);
    this.dirty = toSharedUint8(this.dirty, true);
    // The static candidates, read by the static queries on the executor's threads.
    this.scBox = toSharedFloat64(this.scBox, true);
    this.scStart = toSharedInt32(this.scStart, true);
    this.scCount = toSharedInt32(this.scCount, true);
    this.scVersion = toSharedInt32(this.scVersion, true);
    this.scPool = toSharedInt32(this.scPool, true);
    this.scSpare = toSharedInt32(this.scSpare, true);
  }

  /** Grows the per-slot arrays to hold slot `slot`. */
  ensure(slot: number): void {
    const n = slot + 1;
    if (n <= this.kind.length) return;
    let cap = this.kind.length;
    while (cap < n) cap *= 2;
    this.kind = growU8(this.kind, cap);
    this.sleeping = growU8(this.sleeping, cap);
    this.dirty = growU8(this.dirty, cap);
    this.box = growFloat64Mem(this.box, 6 * cap, this.shared);
    this.staticBvh.rebind(this.box);
    if (this.shared) this.share();
    this.lastMoved = growFloat64(this.lastMoved, cap);
    this.staticPos = growInt32(this.staticPos, cap, -1);
    this.staticBox = growU8(this.staticBox, cap);
    this.scBox = growFloat64Mem(this.scBox, 6 * cap, this.shared);
    this.scStart = growInt32Mem(this.scStart, cap, this.shared);
    this.scCount = growInt32Mem(this.scCount, cap, this.shared);
    this.scVersion = growInt32Mem(this.scVersion, cap, this.shared);
  }

  /**
   * Moves the state of every slot `s` < `slotCount` to slot `newOf[s]` (`oldOf` the inverse;
   * the world's spatial reordering, src/world/core/slot-store.ts `permute`): kinds, sleep flags,
   * dirty marks and the move buffer, boxes, move clocks and the sleep queue, the static set.
   * The static BVH is rebuilt at its next use (its entries are slots) and the kept static
   * candidates are dropped with it. Allocates scratch (a permutation is rare).
   */
  permute(newOf: Int32Array, oldOf: Int32Array, slotCount: number): void {
    gatherRows(this.kind, oldOf, slotCount, 1);
    gatherRows(this.sleeping, oldOf, slotCount, 1);
    gatherRows(this.dirty, oldOf, slotCount, 1);
    gatherRows(this.box, oldOf, slotCount, 6);
    gatherRows(this.lastMoved, oldOf, slotCount, 1);
    gatherRows(this.staticPos, oldOf, slotCount, 1);
    gatherRows(this.staticBox, oldOf, slotCount, 1);
    for (let i = 0; i < this.dirtyCount; i++) this.dirtyList[i] = newOf[this.dirtyList[i]];
    for (let i = 0; i < this.dirtyStaticCount; i++) {
      this.dirtyStatic[i] = newOf[this.dirtyStatic[i]];
    }
    for (let i = 0; i < this.staticCount; i++) {
      this.staticSlots[i] = newOf[this.staticSlots[i]];
    }
    for (let i = 0; i < this.qCount; i++) {
      const j = (this.qHead + i) % this.qSlot.length;
      this.qSlot[j] = newOf[this.qSlot[j]];
    }
    this.scVersion.fill(0);
    this.scLen = 0;
    this.scLive = 0;
    if (this.staticBounded > 0) this.staticFresh = false;
  }

  /**
   * Puts `slot` in the move buffer (once per list): in {@link dirtyStatic} when its kind (set
   * before) is static, else in {@link dirtyList}. Its {@link dirty} mark says which lists hold
   * it (bit 0 the moving one, bit 1 the static one): a slot whose static body was removed and
   * which took a moving body in the same step is in both, and each list's readers take only the
   * entries whose current kind is theirs.
   */
  markDirty(slot: number): void {
    const isStatic = this.kind[slot] === KIND_STATIC;
    const bit = isStatic ? DIRTY_STATIC : DIRTY_MOVING;
    const mark = this.dirty[slot];
    if ((mark & bit) !== 0) return;
    this.dirty[slot] = mark | bit;
    if (isStatic) {
      if (this.dirtyStaticCount === this.dirtyStatic.length) {
        this.dirtyStatic = growInt32(this.dirtyStatic, 2 * this.dirtyStaticCount);
      }
      this.dirtyStatic[this.dirtyStaticCount++] = slot;
      return;
    }
    if (this.dirtyCount === this.dirtyList.length) {
      this.dirtyList = growInt32(this.dirtyList, 2 * this.dirtyCount);
    }
    this.dirtyList[this.dirtyCount++] = slot;
  }

  /** Slots in the move buffer, moving and static. */
  get movedCount(): number {
    return this.dirtyCount + this.dirtyStaticCount;
  }

  /** Empties the move buffer. */
  clearDirty(): void {
    for (let i = 0; i < this.dirtyCount; i++) this.dirty[this.dirtyList[i]] = 0;
    this.dirtyCount = 0;
    this.clearDirtyStatic();
  }

  /**
   * Empties the static part of the move buffer (the moving part is the caller's): a level's
   * first step lists every static body, whose marks are then cleared by one fill.
   */
  clearDirtyStatic(): void {
    const n = this.dirtyStaticCount;
    const dirty = this.dirty;
    if (8 * n >= dirty.length && this.dirtyCount === 0) dirty.fill(0);
    else for (let i = 0; i < n; i++) dirty[this.dirtyStatic[i]] = 0;
    this.dirtyStaticCount = 0;
  }

  /**
   * Static bodies of the move buffer whose `flags` have bit `alive` (the live moved static
   * bodies).
   */
  liveDirtyStatic(flags: Uint8Array, alive: number): number {
    const list = this.dirtyStatic;
    const kind = this.kind;
    let n = 0;
    for (let i = 0; i < this.dirtyStaticCount; i++) {
      const s = list[i];
      if ((flags[s] & alive) !== 0 && kind[s] === KIND_STATIC) n++;
    }
    return n;
  }

  /** Adds static `slot` to the static set (`bounded`: it has a box; half-spaces do not). */
  addStatic(slot: number, bounded: boolean): void {
    if (this.staticCount === this.staticSlots.length) {
      this.staticSlots = growInt32(this.staticSlots, 2 * this.staticCount);
    }
    this.staticPos[slot] = this.staticCount;
    this.staticSlots[this.staticCount++] = slot;
    if (bounded) {
      this.staticBox[slot] = 1;
      if (++this.staticBounded === STATIC_WARM_AT) warmStaticBvh();
      this.staticFresh = false;
    }
  }

  /** Removes static `slot` from the static set. */
  removeStatic(slot: number, bounded: boolean): void {
    const p = this.staticPos[slot];
    const last = this.staticSlots[--this.staticCount];
    this.staticSlots[p] = last;
    this.staticPos[last] = p;
    this.staticPos[slot] = -1;
    this.staticBox[slot] = 0;
    if (bounded) {
      this.staticBounded--;
      this.staticFresh = false;
    }
  }

  /**
   * Rebuilds the static BVH when the static set changed, over the bounded static slots'
   * boxes read in place from {@link box}. The entries are taken in ascending slot order, so
   * the same operations build the same hierarchy.
   */
  ensureStaticBvh(slotCount: number): void {
    if (this.staticFresh) return;
    const n = this.staticBounded;
    if (this.bvhIds.length < n) this.bvhIds = new Int32Array(n);
    const ids = this.bvhIds;
    const flag = this.staticBox;
    let count = 0;
    for (let s = 0; s < slotCount && count < n; s++) if (flag[s] !== 0) ids[count++] = s;
    this.staticBvh.buildById(this.box, ids, count);
    this.staticFresh = true;
    // Every kept static candidate list is of the old hierarchy's entries.
    this.staticVersion++;
    this.scLen = 0;
    this.scLive = 0;
  }

  /** Drops the kept static candidates of `slot` (its body was added or removed). */
  forgetStaticCandidates(slot: number): void {
    if (this.scVersion[slot] === this.staticVersion) this.scLive -= this.scCount[slot];
    this.scVersion[slot] = 0;
  }

  /**
   * Calls `visit(id)` for every static body of the static BVH whose box touches the box of
   * moving `slot` (closed boxes, as `staticBvh.queryAabb`), from the slot's kept candidates
   * when its box is still inside their fat box (module docs), else after querying again;
   * `slotCount` bounds the slots that may hold candidates. The BVH must be fresh
   * ({@link ensureStaticBvh}). Allocates nothing unless the candidate pool grows.
   */
  queryStatic(slot: number, slotCount: number, visit: (id: number) => unknown): void {
    const box = this.box;
    const o = 6 * slot;
    const x0 = box[o];
    const y0 = box[o + 1];
    const z0 = box[o + 2];
    const x1 = box[o + 3];
    const y1 = box[o + 4];
    const z1 = box[o + 5];
    const f = this.scBox;
    const kept =
      this.scVersion[slot] === this.staticVersion &&
      f[o] <= x0 &&
      f[o + 1] <= y0 &&
      f[o + 2] <= z0 &&
      f[o + 3] >= x1 &&
      f[o + 4] >= y1 &&
      f[o + 5] >= z1;
    if (!kept) this.refreshStatic(slot, slotCount);
    // The static bodies' boxes are those the (fresh) BVH was built over, read in place.
    const pool = this.scPool;
    const start = this.scStart[slot];
    const end = start + this.scCount[slot];
    for (let i = start; i < end; i++) {
      const id = pool[i];
      const k = 6 * id;
      if (box[k] > x1 || box[k + 3] < x0 || box[k + 1] > y1 || box[k + 4] < y0) continue;
      if (box[k + 2] > z1 || box[k + 5] < z0) continue;
      visit(id);
    }
  }

  /** Queries the static BVH with the fat box of `slot` and keeps what it finds. */
  private refreshStatic(slot: number, slotCount: number): void {
    this.forgetStaticCandidates(slot);
    const box = this.box;
    const o = 6 * slot;
    const side = Math.max(box[o + 3] - box[o], box[o + 4] - box[o + 1], box[o + 5] - box[o + 2]);
    const m = STATIC_CANDIDATE_MARGIN * side;
    const f = this.scBox;
    for (let j = 0; j < 3; j++) {
      f[o + j] = box[o + j] - m;
      f[o + 3 + j] = box[o + 3 + j] + m;
    }
    const bvh = this.staticBvh;
    let found = bvh.collectEntries(
      f[o],
      f[o + 1],
      f[o + 2],
      f[o + 3],
      f[o + 4],
      f[o + 5],
      this.scPool,
      this.scLen,
    );
    if (this.scLen + found > this.scPool.length) {
      this.compactStatic(found, slotCount);
      found = bvh.collectEntries(
        f[o],
        f[o + 1],
        f[o + 2],
        f[o + 3],
        f[o + 4],
        f[o + 5],
        this.scPool,
        this.scLen,
      );
    }
    // Kept as static slots (not entry indices), so that other threads need not the BVH.
    const ids = bvh.entryIds;
    const pool = this.scPool;
    for (let i = this.scLen; i < this.scLen + found; i++) pool[i] = ids[pool[i]];
    this.scStart[slot] = this.scLen;
    this.scCount[slot] = found;
    this.scVersion[slot] = this.staticVersion;
    this.scLen += found;
    this.scLive += found;
  }

  /**
   * Moves the current candidate ranges to the front of a pool with room for `need` more and at
   * least half free afterwards (doubling when needed: amortised O(1) per kept entry).
   */
  private compactStatic(need: number, slotCount: number): void {
    let cap = this.scPool.length;
    while (cap < 2 * (this.scLive + need)) cap *= 2;
    if (this.scSpare.length < cap) this.scSpare = newInt32(cap, this.shared);
    const from = this.scPool;
    const to = this.scSpare;
    if (this.scLive === this.scLen) {
      // No replaced range (the first queries after a rebuild): the pool is copied as it is,
      // every range at its place, without a walk of the slots.
      to.set(from.subarray(0, this.scLen));
      this.scSpare = from;
      this.scPool = to;
      return;
    }
    const v = this.staticVersion;
    let len = 0;
    for (let s = 0; s < slotCount; s++) {
      if (this.scVersion[s] !== v) continue;
      const start = this.scStart[s];
      const count = this.scCount[s];
      for (let i = 0; i < count; i++) to[len + i] = from[start + i];
      this.scStart[s] = len;
      len += count;
    }
    this.scSpare = from;
    this.scPool = to;
    this.scLen = len;
    this.scLive = len;
  }

  /**
   * Points `job`'s candidate arrays (src/world/static-query.ts) at this set's, with the current
   * static build. The static BVH must be fresh ({@link ensureStaticBvh}).
   */
  fillStaticJob(job: StaticQueryJob): void {
    job.box = this.box;
    job.scBox = this.scBox;
    job.scStart = this.scStart;
    job.scCount = this.scCount;
    job.scVersion = this.scVersion;
    job.pool = this.scPool;
    job.staticVersion = this.staticVersion;
  }

  /** Records that `slot` moved (or woke) at step `step`; queues it for auto-sleep when `queue`. */
  moved(slot: number, step: number, queue: boolean): void {
    this.lastMoved[slot] = step;
    if (!queue) return;
    if (this.qCount === this.qSlot.length) {
      const cap = 2 * this.qSlot.length;
      const s = new Int32Array(cap);
      const t = new Float64Array(cap);
      for (let i = 0; i < this.qCount; i++) {
        const j = (this.qHead + i) % this.qSlot.length;
        s[i] = this.qSlot[j];
        t[i] = this.qStep[j];
      }
      this.qSlot = s;
      this.qStep = t;
      this.qHead = 0;
    }
    const j = (this.qHead + this.qCount++) % this.qSlot.length;
    this.qSlot[j] = slot;
    this.qStep[j] = step;
  }

  /**
   * Pops the queue entries of bodies that moved at step `upTo` or before and returns the next
   * one's slot when its entry is still its last move (the caller checks it is alive, moving and
   * awake), −1 when no entry is due. Call repeatedly until −1.
   */
  popDue(upTo: number): number {
    while (this.qCount > 0) {
      const j = this.qHead;
      if (this.qStep[j] > upTo) return -1;
      this.qHead = (j + 1) % this.qSlot.length;
      this.qCount--;
      const s = this.qSlot[j];
      if (this.lastMoved[s] === this.qStep[j]) return s;
    }
    return -1;
  }

  /** Forgets every queued auto-sleep entry (the option is off). */
  clearQueue(): void {
    this.qHead = 0;
    this.qCount = 0;
  }
}
