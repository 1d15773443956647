/**
 * The contact cache of the collision world and its events, Box2D v3 style: the step writes this
 * frame's touching pairs into flat typed arrays, then diffs them against the previous frame's
 * to fill three event arrays — `begin` (touching now, not before), `persist` (both), `end`
 * (before, not now) — which the user reads after the step. No callback runs inside the step.
 *
 * Both frames' pair lists are sorted ascending by the packed slot pair (`lo · 2^26 + hi`, see
 * src/broadphase/pair-set.ts), so the diff is one linear merge and every event list comes out
 * in `(lower handle, higher handle)` order. Each entry keeps the two handles it had when it was
 * recorded, so an `end` caused by `removeBody` still names the removed body's (now stale)
 * handle; the world keeps a removed body's slot reserved until that step has run, so a slot is
 * never reused while a pair key of the previous frame still refers to it.
 *
 * Contact manifolds (non-sensor pairs) are stored in world frame as fixed-stride records of
 * doubles: `a, b, distance, normal xyz, count`, then per point `pointA xyz, pointB xyz,
 * distance, featureId` ({@link CONTACT_RECORD_STRIDE} doubles). All storage grows by doubling
 * and is kept, so a steady-state step allocates nothing here.
 */
import { growFloat64 } from "../broadphase/broad-phase.js";
import { PAIR_KEY_BASE } from "../broadphase/pair-set.js";
import type { ContactManifold } from "../narrowphase/contact.js";
import { MAX_MANIFOLD_POINTS, makeContactManifold } from "../narrowphase/contact.js";
import type { BodyHandle } from "./handles.js";

/** Doubles per manifold point in a contact record: pointA xyz, pointB xyz, distance, featureId. */
const POINT_STRIDE = 8;
/** Doubles before the points in a contact record: a, b, distance, normal xyz, count. */
const HEADER = 7;

/** Doubles per contact record of the cache (header + 4 points). */
export const CONTACT_RECORD_STRIDE = HEADER + POINT_STRIDE * MAX_MANIFOLD_POINTS;

const INITIAL_CAPACITY = 64;

function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  if (n <= a.length) return a;
  let cap = Math.max(1, a.length);
  while (cap < n) cap *= 2;
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}

/** One contact event, as returned by {@link EventList.toArray} (allocating convenience form). */
export interface WorldEvent {
  /** The pair's lower handle. */
  a: BodyHandle;
  /** The pair's higher handle. */
  b: BodyHandle;
  /** True when either body is a sensor (an overlap without contact points). */
  sensor: boolean;
}

/**
 * A list of pair events filled by the step, read after it: `count` events, the `i`-th between
 * bodies `a(i) < b(i)`, in ascending `(a, b)` order. Valid until the next step.
 */
export class EventList {
  private handles = new Float64Array(2 * INITIAL_CAPACITY);
  private sensors = new Uint8Array(INITIAL_CAPACITY);
  private n = 0;

  /** Number of events. */
  get count(): number {
    return this.n;
  }

  /** The lower handle of event `i` (0 ≤ i < count). */
  a(i: number): BodyHandle {
    return this.handles[2 * i] as BodyHandle;
  }

  /** The higher handle of event `i` (0 ≤ i < count). */
  b(i: number): BodyHandle {
    return this.handles[2 * i + 1] as BodyHandle;
  }

  /** True when event `i` is a sensor overlap (no contact points). */
  isSensor(i: number): boolean {
    return this.sensors[i] === 1;
  }

  /** The events as objects (allocates; for tools and tests). */
  toArray(): WorldEvent[] {
    const out: WorldEvent[] = [];
    for (let i = 0; i < this.n; i++)
      out.push({ a: this.a(i), b: this.b(i), sensor: this.isSensor(i) });
    return out;
  }

  /** Empties the list, keeping storage (world internal). */
  clear(): void {
    this.n = 0;
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
export interface WorldEvents {
  /** Pairs that touch now and did not at the previous step. */
  readonly begin: EventList;
  /** Pairs that touched at the previous step and still do. */
  readonly persist: EventList;
  /** Pairs that touched at the previous step and no longer do (or whose body was removed). */
  readonly end: EventList;
}

/** One frame's touching pairs: packed slot keys, their handles and sensor flags. */
class TouchList {
  keys = new Float64Array(INITIAL_CAPACITY);
  handles = new Float64Array(2 * INITIAL_CAPACITY);
  sensors = new Uint8Array(INITIAL_CAPACITY);
  count = 0;

  push(key: number, a: number, b: number, sensor: number): void {
    if (this.count === this.keys.length) {
      this.keys = growFloat64(this.keys, 2 * this.count);
      this.handles = growFloat64(this.handles, 4 * this.count);
      this.sensors = growU8(this.sensors, 2 * this.count);
    }
    this.keys[this.count] = key;
    this.handles[2 * this.count] = a;
    this.handles[2 * this.count + 1] = b;
    this.sensors[this.count++] = sensor;
  }
}

/**
 * A touching, non-sensor pair's contact in world frame, read by `CollisionWorld.readContact`:
 * the pair's handles (lower first), the signed distance of the pair (the narrow phase's contact:
 * negative = penetration depth) and its manifold (unit normal from A
 * toward B, 1–4 points with witness points on A and B, signed distances and feature ids).
 */
export interface WorldContact {
  /** The lower handle (body A). */
  a: BodyHandle;
  /** The higher handle (body B). */
  b: BodyHandle;
  /** Signed distance of the pair's contact, scene units: gap > 0, penetration < 0. */
  distance: number;
  /** The contact manifold in world frame; `manifold.count` of its points are valid. */
  manifold: ContactManifold;
}

/** A new, zeroed {@link WorldContact} with a preallocated manifold (allocates). */
export function makeWorldContact(): WorldContact {
  return { a: 0 as BodyHandle, b: 0 as BodyHandle, distance: 0, manifold: makeContactManifold() };
}

/**
 * The world's contact cache: this and the previous frame's touching pairs, this frame's contact
 * records, and the event lists (see the module docs).
 */
export class ContactCache {
  private prev = new TouchList();
  private cur = new TouchList();
  private records = new Float64Array(CONTACT_RECORD_STRIDE * INITIAL_CAPACITY);
  private recordCount = 0;
  /** The previous frame's contact records, read by {@link carry}. */
  private prevRecords = new Float64Array(CONTACT_RECORD_STRIDE * INITIAL_CAPACITY);
  /** {@link carry}'s cursor: position in the previous frame's pairs and records. */
  private carryPair = 0;
  private carryRecord = 0;
  /** This step's events. */
  readonly events: WorldEvents = {
    begin: new EventList(),
    persist: new EventList(),
    end: new EventList(),
  };

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
   * records stay readable by {@link carry} until the next frame).
   */
  beginFrame(): void {
    this.cur.count = 0;
    const r = this.records;
    this.records = this.prevRecords;
    this.prevRecords = r;
    this.recordCount = 0;
    this.carryPair = 0;
    this.carryRecord = 0;
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
    while (i < p.count && p.keys[i] < key) {
      if (p.sensors[i] === 0) r++;
      i++;
    }
    this.carryPair = i;
    this.carryRecord = r;
    if (i === p.count || p.keys[i] !== key) return 0;
    const sensor = p.sensors[i];
    this.cur.push(key, p.handles[2 * i], p.handles[2 * i + 1], sensor);
    if (sensor !== 0) return 1;
    const need = CONTACT_RECORD_STRIDE * (this.recordCount + 1);
    if (need > this.records.length) this.records = growFloat64(this.records, need);
    const src = this.prevRecords;
    const dst = this.records;
    const from = CONTACT_RECORD_STRIDE * r;
    const to = CONTACT_RECORD_STRIDE * this.recordCount++;
    const end = HEADER + POINT_STRIDE * src[from + 6];
    for (let j = 0; j < end; j++) dst[to + j] = src[from + j];
    return 2;
  }

  /** Records a touching sensor pair (no manifold). Pairs must come in ascending key order. */
  addSensorPair(key: number, a: number, b: number): void {
    this.cur.push(key, a, b, 1);
  }

  /**
   * Records a touching pair with its world-frame manifold and signed distance. Pairs must come
   * in ascending key order.
   */
  addContact(key: number, a: number, b: number, distance: number, m: ContactManifold): void {
    this.cur.push(key, a, b, 0);
    const need = CONTACT_RECORD_STRIDE * (this.recordCount + 1);
    if (need > this.records.length) this.records = growFloat64(this.records, need);
    const r = this.records;
    let k = CONTACT_RECORD_STRIDE * this.recordCount++;
    r[k] = a;
    r[k + 1] = b;
    r[k + 2] = distance;
    r[k + 3] = m.normal.x;
    r[k + 4] = m.normal.y;
    r[k + 5] = m.normal.z;
    r[k + 6] = m.count;
    k += HEADER;
    for (let i = 0; i < m.count; i++, k += POINT_STRIDE) {
      const p = m.points[i];
      r[k] = p.pointA.x;
      r[k + 1] = p.pointA.y;
      r[k + 2] = p.pointA.z;
      r[k + 3] = p.pointB.x;
      r[k + 4] = p.pointB.y;
      r[k + 5] = p.pointB.z;
      r[k + 6] = p.distance;
      r[k + 7] = p.featureId;
    }
  }

  /**
   * Records a touching pair from a narrow-phase record (src/world/narrow-pair.ts) at
   * `src[offset ..]`: the same layout as this cache's records from index 2 on (distance, normal,
   * count, points), so it is copied as is. Pairs must come in ascending key order.
   */
  addContactRecord(key: number, a: number, b: number, src: Float64Array, offset: number): void {
    this.cur.push(key, a, b, 0);
    const need = CONTACT_RECORD_STRIDE * (this.recordCount + 1);
    if (need > this.records.length) this.records = growFloat64(this.records, need);
    const r = this.records;
    const k = CONTACT_RECORD_STRIDE * this.recordCount++;
    r[k] = a;
    r[k + 1] = b;
    const end = HEADER + POINT_STRIDE * src[offset + 6];
    for (let i = 2; i < end; i++) r[k + i] = src[offset + i];
  }

  /**
   * Ends a frame: fills the event lists by merging the previous frame's sorted pairs with this
   * frame's, then makes this frame the previous one.
   */
  endFrame(): void {
    const { begin, persist, end } = this.events;
    begin.clear();
    persist.clear();
    end.clear();
    const p = this.prev;
    const c = this.cur;
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

  /** Fills `out` with contact record `i` (0 ≤ i < contactCount). Returns out. */
  readContact(i: number, out: WorldContact): WorldContact {
    const r = this.records;
    let k = CONTACT_RECORD_STRIDE * i;
    out.a = r[k] as BodyHandle;
    out.b = r[k + 1] as BodyHandle;
    out.distance = r[k + 2];
    const m = out.manifold;
    m.normal.x = r[k + 3];
    m.normal.y = r[k + 4];
    m.normal.z = r[k + 5];
    m.count = r[k + 6];
    k += HEADER;
    for (let q = 0; q < m.count; q++, k += POINT_STRIDE) {
      const p = m.points[q];
      p.pointA.x = r[k];
      p.pointA.y = r[k + 1];
      p.pointA.z = r[k + 2];
      p.pointB.x = r[k + 3];
      p.pointB.y = r[k + 4];
      p.pointB.z = r[k + 5];
      p.distance = r[k + 6];
      p.featureId = r[k + 7];
    }
    return out;
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

  /** Forgets every pair and event (keeps storage). */
  clear(): void {
    this.prev.count = 0;
    this.cur.count = 0;
    this.recordCount = 0;
    this.events.begin.clear();
    this.events.persist.clear();
    this.events.end.clear();
  }
}
