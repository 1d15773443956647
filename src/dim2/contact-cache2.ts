/**
 * The 2D collision world's contact cache: the dimension-free {@link PairCache} of
 * src/world/core/pair-cache.ts — the very one the 3D world uses (touch lists of this and the
 * previous frame, the linear-merge diff into `begin` / `persist` / `end` event lists, the touch
 * query) — with the 2D contact record.
 *
 * Contact manifolds (non-sensor pairs) are stored in world frame as packed records of doubles:
 * `a, b, distance, normal xy, count`, then per point `pointA xy, pointB xy, distance, id`
 * (6 + 6 · count doubles, at most {@link CONTACT_RECORD_STRIDE_2D}). All storage grows by doubling and is kept, so
 * a steady-state step allocates nothing here.
 */
import {
  PairCache,
  type PairEvent,
  PairEventList,
  type PairEvents,
} from "../world/core/pair-cache.js";
import type { Contact2 } from "./contact2.js";
import type { Manifold2 } from "./manifold2.js";
import { makeManifold2 } from "./manifold2.js";

/** A body of a `CollisionWorld2D`: a branded integer (slot + generation), never 0. */
export type BodyHandle2D = number & { readonly __brand: "BodyHandle2D" };

/** Doubles per manifold point in a 2D contact record: pointA xy, pointB xy, distance, id. */
const POINT_STRIDE = 6;
/** Doubles before the points in a 2D contact record: a, b, distance, normal xy, count. */
const HEADER = 6;
/** Index of the point count in a 2D contact record. */
const COUNT_INDEX = 5;
/** Most points of a 2D manifold. */
const MAX_POINTS = 2;

/** Most doubles a contact record of the 2D cache takes (header + 2 points). */
export const CONTACT_RECORD_STRIDE_2D = HEADER + POINT_STRIDE * MAX_POINTS;

/** One event as an object ({@link EventList2D.toArray}): handles `a < b` and the sensor flag. */
export type WorldEvent2D = PairEvent<BodyHandle2D>;

/** A list of pair events of one step, in ascending (a, b) order; valid until the next step. */
export class EventList2D extends PairEventList<BodyHandle2D> {}

/** The three event lists of a step. */
export type WorldEvents2D = PairEvents<EventList2D>;

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

/** The 2D world's contact cache (see the module docs). */
export class ContactCache2D extends PairCache<EventList2D> {
  /** An empty cache. */
  constructor() {
    super(HEADER, COUNT_INDEX, POINT_STRIDE, MAX_POINTS, () => new EventList2D());
  }

  /**
   * Records the touching pair of slots `lo < hi` (handles from `handleOfSlot`): the signed
   * distance of its contact `contact` and its manifold `m`, both in A's frame, turned to the
   * world frame by A's pose `pose[4·lo .. 4·lo+3]` (translation xy, cos, sin). Pairs must come
   * in ascending slot-pair order. Takes no double argument (V8 would box it when the call is not
   * inlined).
   */
  addContactSlots(
    lo: number,
    hi: number,
    handleOfSlot: Float64Array,
    contact: Contact2,
    m: Manifold2,
    pose: Float64Array,
  ): void {
    const o = this.addRecordSlots(lo, hi, handleOfSlot);
    const r = this.records;
    const k = 4 * lo;
    const px = pose[k];
    const py = pose[k + 1];
    const c = pose[k + 2];
    const s = pose[k + 3];
    r[o + 2] = contact.distance;
    r[o + 3] = c * m.normal.x - s * m.normal.y;
    r[o + 4] = s * m.normal.x + c * m.normal.y;
    r[o + COUNT_INDEX] = m.count;
    for (let p = 0; p < m.count; p++) {
      const q = o + HEADER + POINT_STRIDE * p;
      const pt = m.points[p];
      r[q] = c * pt.pointA.x - s * pt.pointA.y + px;
      r[q + 1] = s * pt.pointA.x + c * pt.pointA.y + py;
      r[q + 2] = c * pt.pointB.x - s * pt.pointB.y + px;
      r[q + 3] = s * pt.pointB.x + c * pt.pointB.y + py;
      r[q + 4] = pt.distance;
      r[q + 5] = pt.id;
    }
  }

  /** Fills `out` with contact record `i` (0 ≤ i < contactCount). Returns out. */
  readContact(i: number, out: WorldContact2D): WorldContact2D {
    const r = this.records;
    const k = this.recordOffset(i);
    out.a = r[k] as BodyHandle2D;
    out.b = r[k + 1] as BodyHandle2D;
    out.distance = r[k + 2];
    const m = out.manifold;
    m.normal.x = r[k + 3];
    m.normal.y = r[k + 4];
    m.count = r[k + COUNT_INDEX];
    for (let p = 0; p < m.count; p++) {
      const q = k + HEADER + POINT_STRIDE * p;
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
}
