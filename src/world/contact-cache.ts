/**
 * The 3D collision world's contact cache: the dimension-free {@link PairCache} of
 * src/world/core/pair-cache.ts (touch lists of this and the previous frame, the linear-merge
 * diff into `begin` / `persist` / `end` event lists, the touch query) with the 3D contact record.
 *
 * Contact manifolds (non-sensor pairs) are stored in world frame as packed records of doubles:
 * `a, b, distance, normal xyz, count`, then per point `pointA xyz, pointB xyz, distance,
 * featureId` (7 + 8 · count doubles, at most {@link CONTACT_RECORD_STRIDE}). All storage grows
 * by doubling and is kept, so a steady-state step allocates nothing here.
 */
import type { ContactManifold } from "../narrowphase/contact.js";
import { MAX_MANIFOLD_POINTS, makeContactManifold } from "../narrowphase/contact.js";
import { PairCache, type PairEvent, PairEventList, type PairEvents } from "./core/pair-cache.js";
import type { BodyHandle } from "./handles.js";

/** Doubles per manifold point in a contact record: pointA xyz, pointB xyz, distance, featureId. */
const POINT_STRIDE = 8;
/** Doubles before the points in a contact record: a, b, distance, normal xyz, count. */
const HEADER = 7;
/** Index of the point count in a contact record. */
const COUNT_INDEX = 6;

/** Most doubles a contact record of the cache takes (header + 4 points). */
export const CONTACT_RECORD_STRIDE = HEADER + POINT_STRIDE * MAX_MANIFOLD_POINTS;

/**
 * One contact event, as returned by {@link EventList.toArray} (allocating convenience form):
 * the pair's bodies `a`, `b` (`a` < `b` unless the world reordered its slots, see
 * `reorderSlotsAt`: then `a` is the body of the lower storage slot), and `sensor`, true when either body is a
 * sensor (an overlap without contact points).
 */
export type WorldEvent = PairEvent<BodyHandle>;

/**
 * A list of pair events filled by the step, read after it: `count` events, the `i`-th between
 * bodies `a(i) < b(i)`, in ascending `(a, b)` order — until the world reorders its slots
 * (`reorderSlotsAt`): then in ascending slot-pair order, `a(i)` the body of the lower slot.
 * Valid until the next step.
 */
export class EventList extends PairEventList<BodyHandle> {}

/** The three event lists of one step: `begin`, `persist` and `end`. */
export type WorldEvents = PairEvents<EventList>;

/**
 * A touching, non-sensor pair's contact in world frame, read by `CollisionWorld.readContact`:
 * the pair's handles (lower first; the lower slot's first after the world reordered its slots,
 * see `reorderSlotsAt`), the signed distance of the pair (the narrow phase's contact:
 * negative = penetration depth) and its manifold (unit normal from A
 * toward B, 1–4 points with witness points on A and B, signed distances and feature ids).
 */
export interface WorldContact {
  /** Body A: the lower handle (the lower slot's after the world reordered its slots). */
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
 * The 3D world's contact cache: this and the previous frame's touching pairs, this frame's
 * contact records, and the event lists (see the module docs).
 */
export class ContactCache extends PairCache<EventList> {
  /** An empty cache. */
  constructor() {
    super(HEADER, COUNT_INDEX, POINT_STRIDE, MAX_MANIFOLD_POINTS, () => new EventList());
  }

  /**
   * Records a touching pair with its world-frame manifold and signed distance. Pairs must come
   * in ascending key order.
   */
  addContact(key: number, a: number, b: number, distance: number, m: ContactManifold): void {
    let k = this.addRecord(key, a, b);
    const r = this.records;
    r[k + 2] = distance;
    r[k + 3] = m.normal.x;
    r[k + 4] = m.normal.y;
    r[k + 5] = m.normal.z;
    r[k + COUNT_INDEX] = m.count;
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
    const k = this.addRecord(key, a, b);
    const r = this.records;
    const end = HEADER + POINT_STRIDE * src[offset + COUNT_INDEX];
    for (let i = 2; i < end; i++) r[k + i] = src[offset + i];
  }

  /** Fills `out` with contact record `i` (0 ≤ i < contactCount). Returns out. */
  readContact(i: number, out: WorldContact): WorldContact {
    const r = this.records;
    let k = this.recordOffset(i);
    out.a = r[k] as BodyHandle;
    out.b = r[k + 1] as BodyHandle;
    out.distance = r[k + 2];
    const m = out.manifold;
    m.normal.x = r[k + 3];
    m.normal.y = r[k + 4];
    m.normal.z = r[k + 5];
    m.count = r[k + COUNT_INDEX];
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
}
