/**
 * The brute-force broad phase: every pair of proxies is tested, O(n²) per `computePairs`, O(n)
 * per query. It is obviously correct, so it is the oracle the other broad phases are tested
 * against (Jolt keeps `BroadPhaseBruteForce` for the same reason).
 */
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  castRayByScan,
  checkBox,
  ProxyBoxes,
  type RayCastCallback,
} from "./broad-phase.js";
import type { PairSet } from "./pair-set.js";

/**
 * Broad phase that tests all pairs (see the module docs). Exact: reports the pairs whose boxes
 * overlap or touch. Callbacks must not modify this broad phase while it iterates.
 */
export class BruteForceBroadPhase implements BroadPhase {
  private readonly proxies = new ProxyBoxes();

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  /** Adds proxy `id` with box `[min, max]`; throws `CollideError` on a present id or a bad box. */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
  }

  /** Replaces the box of proxy `id`; throws `CollideError` on an absent id or a bad box. */
  move(id: number, min: Vec3, max: Vec3, _displacement?: Vec3): void {
    this.proxies.set(id, min, max);
  }

  /** Removes proxy `id`; throws `CollideError` when it is absent. */
  remove(id: number): void {
    this.proxies.delete(id);
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy. */
  clear(): void {
    this.proxies.clear();
  }

  /** Fills `out` with every overlapping or touching pair, sorted by `(lo, hi)`. O(n²). */
  computePairs(out: PairSet): PairSet {
    out.clear();
    const { box, live, count } = this.proxies;
    for (let i = 0; i < count; i++) {
      const a = live[i];
      for (let j = i + 1; j < count; j++) {
        const b = live[j];
        if (boxesOverlap(box, 6 * a, box, 6 * b)) out.add(a, b);
      }
    }
    return out.sort();
  }

  /** Reports every proxy whose box overlaps or touches `[min, max]`. O(n). */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    checkBox("query", min, max);
    const { box, live, count } = this.proxies;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const id = live[i];
      const k = 6 * id;
      if (
        box[k] <= max.x &&
        min.x <= box[k + 3] &&
        box[k + 1] <= max.y &&
        min.y <= box[k + 4] &&
        box[k + 2] <= max.z &&
        min.z <= box[k + 5]
      ) {
        n++;
        if (Array.isArray(out)) out.push(id);
        else if (out(id) === false) break;
      }
    }
    return n;
  }

  /** Visits every proxy whose box the segment touches, in storage order. O(n). */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    return castRayByScan(this.proxies, origin, dir, maxToi, callback);
  }
}
