/**
 * The contact cache and events of a collision world, written once for every dimension (Box2D v3
 * style): the step writes this frame's touching pairs into flat typed arrays, then diffs them
 * against the previous frame's to fill three event lists — `begin` (touching now, not before),
 * `persist` (both), `end` (before, not now) — which the user reads after the step. No callback
 * runs inside the step.
 *
 * Both frames' pair lists are sorted ascending by the packed slot pair (`lo · 2^26 + hi`, see
 * src/broadphase/pair-set.ts), so the diff is one linear merge and every event list comes out
 * in slot-pair order, each event naming the body of its lower slot first: `(lower handle, higher
 * handle)` order until the 3D world reorders its slots (src/world/core/slot-store.ts). Each entry keeps the two handles it had when it was
 * recorded, so an `end` caused by `removeBody` still names the removed body's (now stale)
 * handle; the world keeps a removed body's slot reserved until that step has run
 * (src/world/core/slot-store.ts), so a slot is never reused while a pair key of the previous
 * frame still refers to it.
 *
 * Contact manifolds (non-sensor pairs) are stored in world frame as records of doubles packed
 * one after the other, each as long as its manifold needs: a header whose first two doubles are
 * the pair's handles and one of which is the point count, then that many points of a fixed
 * stride; the layout is the dimension's (src/world/contact-cache.ts for 3D,
 * src/dim2/contact-cache2.ts for 2D), and record `i` starts at `recordOffset(i)`. Most contacts
 * of a scene of spheres and boxes have one point: a record of the 4 points' room (39 doubles in
 * 3D) was 11.7 MB of each frame's buffer at 37,500 contacts, all of it fresh pages on the first
 * two steps; packed, about 5.5 MB. All storage grows by doubling and is kept, so a steady-state
 * step allocates nothing here.
 */

import { PAIR_KEY_BASE } from "../../broadphase/pair-set.js";
import { invalidValue } from "../../errors.js";
import { growFloat64 } from "../../math/typed-arrays.js";
import { handleSlot } from "../handles.js";

const INITIAL_CAPACITY = 64;
/**
 * Most pairs a frame after one without contacts reserves room for up front (every candidate
 * pair up to this many in its pair list, half of them up to this many in its records; 2^17
 * records of two points are 24 MB in 3D), so that a frame with many candidates and few contacts
 * does not reserve far more than it uses. (2^16 before, and the pair list as long as the records:
 * the first step of scene (d) at 50,000 bodies, 86,000 contacts, grew its pair list by doubling.)
 */
const FIRST_FRAME_MAX = 1 << 17;

function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}

/** One pair event as an object (the allocating convenience form of a {@link PairEventList}). */
export interface PairEvent<H extends number> {
  /** The pair's lower handle. */
  a: H;
  /** The pair's higher handle. */
  b: H;
  /** True when either body is a sensor (an overlap without contact points). */
  sensor: boolean;
}

/**
 * Throws `CollideError` naming `index` unless `i` is an integer in [0, n): the index check of
 * the event and impact lists' accessors, with the message of `readContact`.
 */
export function checkEventIndex(i: number, n: number): void {
  if (!(Number.isInteger(i) && i >= 0 && i < n)) {
    invalidValue("index", i, `must be an integer in [0, ${n})`);
  }
}

/**
 * A list of pair events filled by the step, read after it: `count` events, the `i`-th between
 * bodies `a(i) < b(i)`, in ascending `(a, b)` order. Valid until the next step. `H` is the
 * world's handle type.
 */
export class PairEventList<H extends number> {
  private handles = new Float64Array(2 * INITIAL_CAPACITY);
  private sensors = new Uint8Array(INITIAL_CAPACITY);
  private n = 0;

  /** Number of events. */
  get count(): number {
    return this.n;
  }

  /**
   * The lower handle of event `i` (0 ≤ i < count). Throws `CollideError` naming `index` for an
   * `i` that is not an integer in [0, count), as `readContact` does (it had returned undefined).
   */
  a(i: number): H {
    checkEventIndex(i, this.n);
    return this.handles[2 * i] as H;
  }

  /** The higher handle of event `i` (0 ≤ i < count). Throws as {@link a}. */
  b(i: number): H {
    checkEventIndex(i, this.n);
    return this.handles[2 * i + 1] as H;
  }

  /** True when event `i` is a sensor overlap (no contact points). Throws as {@link a}. */
  isSensor(i: number): boolean {
    checkEventIndex(i, this.n);
    return this.sensors[i] === 1;
  }

  /** The events as objects (allocates; for tools and tests). */
  toArray(): PairEvent<H>[] {
    const out: PairEvent<H>[] = [];
    for (let i = 0; i < this.n; i++)
      out.push({ a: this.a(i), b: this.b(i), sensor: this.isSensor(i) });
    return out;
  }

  /** Empties the list, keeping storage (world internal). */
  clear(): void {
    this.n = 0;
  }

  /**
   * Empties the list and gives it room for `n` events, allocated without copying when it has
   * less (at least twice the old room), so that the events of a frame are written without
   * regrowing (world internal).
   */
  clearWithRoom(n: number): void {
    this.n = 0;
    if (n <= this.sensors.length) return;
    const cap = Math.max(n, 2 * this.sensors.length);
    this.handles = new Float64Array(2 * cap);
    this.sensors = new Uint8Array(cap);
  }

  /** Appends an event (world internal). */
  push(a: number, b: number, sensor: number): void {
    if (this.n === this.sensors.length) {
      this.handles = growFloat64(this.handles, 4 * this.n);
      this.sensors = growU8(this.sensors, 2 * this.n);
    }
    this.handles[2 * this.n] = a;
    this.handles[2 * this.n + 1] = b;
    this.sensors[this.n++] = sensor;
  }
}

/** The three event lists of one step. */
export interface PairEvents<L> {
  /** Pairs that touch now and did not at the previous step. */
  readonly begin: L;
  /** Pairs that touched at the previous step and still do. */
  readonly persist: L;
  /** Pairs that touched at the previous step and no longer do (or whose body was removed). */
  readonly end: L;
}

/** One frame's touching pairs: packed slot keys, their handles and sensor flags. */
class TouchList {
  keys = new Float64Array(INITIAL_CAPACITY);
  handles = new Float64Array(2 * INITIAL_CAPACITY);
  sensors = new Uint8Array(INITIAL_CAPACITY);
  count = 0;

  push(key: number, a: number, b: number, sensor: number): void {
    this.reserve();
    this.keys[this.count] = key;
    this.handles[2 * this.count] = a;
    this.handles[2 * this.count + 1] = b;
    this.sensors[this.count++] = sensor;
  }

  /**
   * Appends the pair of slots `lo < hi` with their bodies' handles `handleOfSlot[lo]`,
   * `handleOfSlot[hi]` (src/world/core/slot-store.ts). Takes small
   * integers only and computes the key and handles (doubles above 2^31) here: a double passed
   * to a call V8 does not inline is boxed (allocated).
   */
  pushSlots(lo: number, hi: number, handleOfSlot: Float64Array, sensor: number): void {
    this.reserve();
    const i = this.count++;
    this.keys[i] = lo * PAIR_KEY_BASE + hi;
    this.handles[2 * i] = handleOfSlot[lo];
    this.handles[2 * i + 1] = handleOfSlot[hi];
    this.sensors[i] = sensor;
  }

  /**
   * Room for at least `least` pairs in an empty list, allocated without copying: when it has
   * less, room for `size` (≥ `least`, at least twice the old room).
   */
  reserveEmpty(least: number, size: number): void {
    if (least <= this.keys.length) return;
    const cap = Math.max(size, 2 * this.keys.length);
    this.keys = new Float64Array(cap);
    this.handles = new Float64Array(2 * cap);
    this.sensors = new Uint8Array(cap);
  }

  private reserve(): void {
    if (this.count === this.keys.length) {
      this.keys = growFloat64(this.keys, 2 * this.count);
      this.handles = growFloat64(this.handles, 4 * this.count);
      this.sensors = growU8(this.sensors, 2 * this.count);
    }
  }
}

/**
 * A world's contact cache (see the module docs): this and the previous frame's touching pairs,
 * this frame's contact records of `recordStride` doubles each, and the event lists of type `L`.
 * A dimension's cache extends it with the writing and reading of its record layout.
 */
export class PairCache<L extends PairEventList<number>> {
  /** Most doubles a contact record takes (header and the most points; the handles first). */
  readonly recordStride: number;
  /** Doubles of a record before its points. */
  private readonly recordHeader: number;
  /** Doubles per manifold point of a record. */
  private readonly pointStride: number;
  /** Index in a record of its point count. */
  private readonly countIndex: number;
  /** This frame's contact records, packed (module docs). */
  protected records: Float64Array<ArrayBuffer>;
  /** Number of contact records of this frame. */
  protected recordCount = 0;
  /** Where each of this frame's records starts in {@link records}. */
  private recordStart = new Int32Array(INITIAL_CAPACITY);
  /** Where the last record written starts, −1 before the first: its length is read from it. */
  private lastStart = -1;
  /** The previous frame's contact records, read by {@link carry}. */
  private prevRecords: Float64Array<ArrayBuffer>;
  /** {@link carry}'s cursor: position in the previous frame's pairs and records (an offset). */
  private carryPair = 0;
  private carryRecord = 0;
  private prev = new TouchList();
  private cur = new TouchList();
  /** This step's events. */
  readonly events: PairEvents<L>;

  /**
   * An empty cache of records of `header` doubles, the point count at `countIndex` among them,
   * then `pointStride` doubles per point, at most `maxPoints` points; `makeList` makes an event
   * list.
   */
  constructor(
    header: number,
    countIndex: number,
    pointStride: number,
    maxPoints: number,
    makeList: () => L,
  ) {
    this.recordHeader = header;
    this.countIndex = countIndex;
    this.pointStride = pointStride;
    this.recordStride = header + pointStride * maxPoints;
    this.records = new Float64Array(this.recordStride * INITIAL_CAPACITY);
    this.prevRecords = new Float64Array(this.recordStride * INITIAL_CAPACITY);
    this.events = { begin: makeList(), persist: makeList(), end: makeList() };
  }

  /** Where contact record `i` of the last step starts in {@link records} (0 ≤ i < count). */
  protected recordOffset(i: number): number {
    return this.recordStart[i];
  }

  /** Where the next record goes: just past the last one written this frame. */
  private nextStart(): number {
    const k = this.lastStart;
    if (k < 0) return 0;
    return k + this.recordHeader + this.pointStride * (this.records[k + this.countIndex] | 0);
  }

  /**
   * Makes room for one more record of the most doubles at `at` (and its start entry); returns
   * the records array (a new one when it grew).
   */
  private roomAt(at: number): Float64Array<ArrayBuffer> {
    const need = at + this.recordStride;
    if (need > this.records.length) this.records = growFloat64(this.records, need);
    if (this.recordCount === this.recordStart.length) {
      const grown = new Int32Array(2 * this.recordCount);
      grown.set(this.recordStart);
      this.recordStart = grown;
    }
    return this.records;
  }

  /** Keeps the record written at `at` as this frame's next one. */
  private keepAt(at: number): void {
    this.recordStart[this.recordCount++] = at;
    this.lastStart = at;
  }

  /** Number of touching non-sensor pairs of the last step (contact records). */
  get contactCount(): number {
    return this.recordCount;
  }

  /** Number of touching pairs of the last step, sensors included. */
  get touchingCount(): number {
    return this.prev.count;
  }

  /**
   * Starts a frame: empties this frame's pair list and contact records (the last frame's
   * records stay readable by {@link carry} until the next frame). `candidates`, the pairs the
   * frame may record at most, sizes the storage up front (see {@link reserveFrame}).
   */
  beginFrame(candidates = 0): void {
    const last = this.recordCount;
    const lastEnd = this.nextStart();
    this.cur.count = 0;
    const r = this.records;
    this.records = this.prevRecords;
    this.prevRecords = r;
    this.recordCount = 0;
    this.lastStart = -1;
    this.carryPair = 0;
    this.carryRecord = 0;
    if (last > 0) {
      this.reserveFrame(
        last + (last >> 4),
        last + (last >> 2),
        lastEnd + (lastEnd >> 4) + this.recordStride,
        lastEnd + (lastEnd >> 2) + this.recordStride,
      );
    } else {
      const first = Math.min(candidates >> 1, FIRST_FRAME_MAX);
      // Records of two points (most of a scene of spheres and boxes have one; a record of the
      // most points was 20 MB reserved for 6 MB written on scene (a) at 50,000 bodies, and the
      // ArrayBuffers a first step allocates count towards V8's external memory limit, whose
      // crossing costs a full garbage collection): more are grown by doubling. The pair list
      // (29 bytes a pair) has room for every candidate: the level's first step touches 78 % of
      // its candidates.
      const pairs = Math.min(candidates, FIRST_FRAME_MAX);
      const doubles = (this.recordHeader + 2 * this.pointStride) * first + this.recordStride;
      this.reserveFrame(pairs, pairs, doubles, doubles);
    }
  }

  /**
   * Gives this frame's (empty) records and pair list room for at least `least` pairs and
   * `leastDoubles` doubles of records at once, allocated without copying: when they hold fewer,
   * room for `size` pairs and `sizeDoubles` doubles. A frame after one with contacts asks for
   * the last frame's count and doubles and a sixteenth, and reallocates to them and a quarter; a
   * frame after one without contacts (the first step) for every candidate pair in its pair list
   * and half of them in its records, as records of two points (each at most
   * {@link FIRST_FRAME_MAX}), of which only the doubles written are touched. Grown by doubling
   * from a small array as they were filled, the records of the first step of scene (b) at
   * 50,000 bodies allocated 39 MB and touched about twice what they hold, in each of the two
   * frames' buffers. Asking for the count and a quarter every frame
   * reallocated the first step's buffer (sized from the candidates) at the third step: 37,500
   * contacts asked for 47,000 records of a buffer of 40,700, and 11.7 MB of fresh pages (2,900
   * page faults) were written again. Never shrinks and grows at least twofold, so a
   * steady-state step allocates nothing here.
   */
  private reserveFrame(
    least: number,
    size: number,
    leastDoubles: number,
    sizeDoubles: number,
  ): void {
    if (leastDoubles > this.records.length) {
      // Twice the old room when that is more: a count creeping up by a few pairs a frame
      // reallocates O(log) times, not every frame.
      this.records = new Float64Array(Math.max(sizeDoubles, 2 * this.records.length));
    }
    if (least > this.recordStart.length) {
      this.recordStart = new Int32Array(Math.max(size, 2 * this.recordStart.length));
    }
    this.cur.reserveEmpty(least, size);
  }

  /**
   * Carries pair `(lo, hi)` (slots, lo < hi) over from the previous frame unchanged (a
   * persistent pair whose bodies did not move): when it touched then, its entry and contact
   * record are copied into this frame. Returns 0 when it did not touch, 1 for a sensor
   * overlap, 2 for a contact. Calls (and the `add…` calls between them) must come in ascending
   * key order within a frame. (It takes the slots, small integers, rather than the packed key,
   * a double that V8 would box when passing it to a call it does not inline.)
   */
  carry(lo: number, hi: number): number {
    const key = lo * PAIR_KEY_BASE + hi;
    const p = this.prev;
    let i = this.carryPair;
    let r = this.carryRecord;
    const prev = this.prevRecords;
    while (i < p.count && p.keys[i] < key) {
      if (p.sensors[i] === 0)
        r += this.recordHeader + this.pointStride * (prev[r + this.countIndex] | 0);
      i++;
    }
    this.carryPair = i;
    this.carryRecord = r;
    if (i === p.count || p.keys[i] !== key) return 0;
    const sensor = p.sensors[i];
    this.cur.push(key, p.handles[2 * i], p.handles[2 * i + 1], sensor);
    if (sensor !== 0) return 1;
    const to = this.nextStart();
    const dst = this.roomAt(to);
    const src = this.prevRecords;
    const length = this.recordHeader + this.pointStride * (src[r + this.countIndex] | 0);
    for (let k = 0; k < length; k++) dst[to + k] = src[r + k];
    this.keepAt(to);
    return 2;
  }

  /**
   * The offset in {@link recordArray} of the contact record the next {@link commitRecordSlots}
   * will keep, with room for it made: a narrow phase writes the record's doubles after the two
   * handle slots in place (no copy through a scratch record), then commits it, or drops it by
   * not committing (the next reservation returns the same offset). Read {@link recordArray}
   * after this call: the array may have grown.
   */
  reserveRecord(): number {
    const at = this.nextStart();
    this.roomAt(at);
    return at;
  }

  /** This frame's contact records (see {@link reserveRecord}); valid until the next growth. */
  get recordArray(): Float64Array {
    return this.records;
  }

  /**
   * Keeps the record written at the last {@link reserveRecord} offset as the touching
   * non-sensor pair of slots `lo < hi` (handles from `handleOfSlot`, written into its first two
   * doubles). Slots, not the packed key or handles: doubles above 2^30 passed to a call V8
   * does not inline would be boxed. Pairs must come in ascending key order.
   */
  commitRecordSlots(lo: number, hi: number, handleOfSlot: Float64Array): void {
    this.cur.pushSlots(lo, hi, handleOfSlot, 0);
    const k = this.nextStart();
    this.records[k] = this.cur.handles[2 * this.cur.count - 2];
    this.records[k + 1] = this.cur.handles[2 * this.cur.count - 1];
    this.keepAt(k);
  }

  /** Records a touching sensor pair (no manifold). Pairs must come in ascending key order. */
  addSensorPair(key: number, a: number, b: number): void {
    this.cur.push(key, a, b, 1);
  }

  /**
   * Records the touching sensor pair of slots `lo < hi` (handles from `handleOfSlot`;
   * no manifold). Pairs must come in ascending slot-pair order.
   */
  addSensorSlots(lo: number, hi: number, handleOfSlot: Float64Array): void {
    this.cur.pushSlots(lo, hi, handleOfSlot, 1);
  }

  /**
   * Records the touching non-sensor pair of slots `lo < hi` (handles from
   * `handleOfSlot`) and appends a contact record whose first two doubles are its handles;
   * returns the record's offset in {@link records}, for the caller to write the rest. Pairs must
   * come in ascending slot-pair order.
   */
  protected addRecordSlots(lo: number, hi: number, handleOfSlot: Float64Array): number {
    this.cur.pushSlots(lo, hi, handleOfSlot, 0);
    const k = this.nextStart();
    const r = this.roomAt(k);
    r[k] = this.cur.handles[2 * this.cur.count - 2];
    r[k + 1] = this.cur.handles[2 * this.cur.count - 1];
    r[k + this.countIndex] = 0;
    this.keepAt(k);
    return k;
  }

  /**
   * Records a touching non-sensor pair and appends a contact record whose first two doubles are
   * its handles `a`, `b`; returns the record's offset in {@link records}, for the caller to
   * write the rest. Pairs must come in ascending key order.
   */
  protected addRecord(key: number, a: number, b: number): number {
    this.cur.push(key, a, b, 0);
    const k = this.nextStart();
    const r = this.roomAt(k);
    r[k] = a;
    r[k + 1] = b;
    r[k + this.countIndex] = 0;
    this.keepAt(k);
    return k;
  }

  /**
   * Ends a frame: fills the event lists by merging the previous frame's sorted pairs with this
   * frame's, then makes this frame the previous one.
   */
  endFrame(): void {
    const { begin, persist, end } = this.events;
    const p = this.prev;
    const c = this.cur;
    // Each list sized for the most events it can get: on the first step every touching pair
    // begins (37,000 at 50,000 bodies, a list that grew by doubling from 64 before).
    begin.clearWithRoom(c.count);
    persist.clearWithRoom(Math.min(p.count, c.count));
    end.clearWithRoom(p.count);
    let i = 0;
    let j = 0;
    while (i < p.count || j < c.count) {
      const kp = i < p.count ? p.keys[i] : Infinity;
      const kc = j < c.count ? c.keys[j] : Infinity;
      if (kp === kc) {
        persist.push(c.handles[2 * j], c.handles[2 * j + 1], c.sensors[j]);
        i++;
        j++;
      } else if (kp < kc) {
        end.push(p.handles[2 * i], p.handles[2 * i + 1], p.sensors[i]);
        i++;
      } else {
        begin.push(c.handles[2 * j], c.handles[2 * j + 1], c.sensors[j]);
        j++;
      }
    }
    this.prev = c;
    this.cur = p;
  }

  /** True when the pair with packed slot key `key` touched at the last step (binary search). */
  isTouching(key: number): boolean {
    const keys = this.prev.keys;
    let lo = 0;
    let hi = this.prev.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = keys[mid];
      if (v === key) return true;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * Updates the per-slot touching-pair counts `touchCount` (indexed by slot; `slotOfId` the
   * slot of each body id, src/world/core/slot-store.ts) from this step's begin and end events. The slot store holds a removed body's slot while its count is above 0
   * (src/world/core/slot-store.ts).
   */
  updateTouchCounts(touchCount: Int32Array, slotOfId: Int32Array): void {
    const { begin, end } = this.events;
    for (let i = 0; i < begin.count; i++) {
      touchCount[slotOfId[handleSlot(begin.a(i))]]++;
      touchCount[slotOfId[handleSlot(begin.b(i))]]++;
    }
    for (let i = 0; i < end.count; i++) {
      touchCount[slotOfId[handleSlot(end.a(i))]]--;
      touchCount[slotOfId[handleSlot(end.b(i))]]--;
    }
  }

  /** Forgets every pair and event (keeps storage). */
  clear(): void {
    this.prev.count = 0;
    this.cur.count = 0;
    this.recordCount = 0;
    this.lastStart = -1;
    this.carryPair = 0;
    this.carryRecord = 0;
    this.events.begin.clear();
    this.events.persist.clear();
    this.events.end.clear();
  }
}
