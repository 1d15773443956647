/**
 * Sweep and prune (sort and sweep) on one axis (Baraff 1992, §3; Ericson 2005, §7.5.2).
 *
 * The end points (min and max) of every proxy's box on the sweep axis are kept sorted in typed
 * arrays. A move updates the two values and restores order by insertion sort, which is O(1)
 * amortised when bodies move a little from frame to frame (temporal coherence); inserts and axis
 * changes mark the list unsorted and the next query sorts it once with a merge sort. Equal values
 * order a min end point before a max end point, so touching intervals overlap.
 *
 * `computePairs` sweeps the list keeping the set of open intervals: each min end point pairs its
 * proxy with every open one, and the pair is kept when the boxes also overlap on the other two
 * axes. The sweep axis is the one along which the box centres have the largest variance; it is
 * chosen at the first sweep, re-chosen on demand ({@link SweepAndPrune.chooseAxis}) and switched
 * automatically when another axis's variance exceeds the current one's by
 * `axisSwitchRatio` (checked at each `computePairs`, O(n)).
 */

import { SAP_AXIS_SWITCH_RATIO } from "../constants.js";
import { checkOptions, invalidValue, optionsSpec, withDefaults } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  checkBox,
  checkRay,
  growFloat64,
  growInt32,
  ProxyBoxes,
  type RayCastCallback,
  raySegmentBoxEntry,
} from "./broad-phase.js";
import type { PairSet } from "./pair-set.js";

/** Settings of {@link SweepAndPrune}. */
export interface SweepAndPruneOptions {
  /**
   * The sweep axis: 0 = x, 1 = y, 2 = z, or `"auto"` to choose the axis of largest variance of
   * the box centres and switch when the spread changes.
   * @default "auto"
   */
  axis: 0 | 1 | 2 | "auto";
  /**
   * In `"auto"` mode, the sweep axis switches when another axis's centre variance exceeds the
   * current one's by this factor (> 1; hysteresis against flip-flopping). Unitless.
   * @default SAP_AXIS_SWITCH_RATIO = 2
   */
  axisSwitchRatio: number;
}

/** The default {@link SweepAndPruneOptions}: automatic axis, switch ratio 2. */
export function defaultSweepAndPruneOptions(): SweepAndPruneOptions {
  return { axis: "auto", axisSwitchRatio: SAP_AXIS_SWITCH_RATIO };
}

const SAP_SPEC = optionsSpec("SweepAndPrune", "options", {
  axis: "any",
  axisSwitchRatio: "number",
});

/**
 * Incremental sweep and prune over one axis (see the module docs). Exact: reports the pairs
 * whose boxes overlap or touch. Callbacks must not modify this broad phase while it iterates.
 * Throws `CollideError` on bad options.
 */
export class SweepAndPrune implements BroadPhase {
  private readonly proxies = new ProxyBoxes();
  private readonly options: SweepAndPruneOptions;
  private axisIndex: number;
  private axisChosen: boolean;
  /** End point values on the sweep axis. */
  private epValue = new Float64Array(32);
  /** End point data: `2·id + (1 for a max end point, 0 for a min)`. */
  private epData = new Int32Array(32);
  private epCount = 0;
  /** Position of each proxy's min / max end point in the arrays (valid when sorted). */
  private minPos = new Int32Array(0);
  private maxPos = new Int32Array(0);
  private sorted = true;
  private scratchValue = new Float64Array(32);
  private scratchData = new Int32Array(32);
  private active = new Int32Array(16);
  private activeSlot = new Int32Array(0);

  /** A new, empty sweep and prune; `options` overrides {@link defaultSweepAndPruneOptions}. */
  constructor(options: Partial<SweepAndPruneOptions> = {}) {
    checkOptions(options, SAP_SPEC);
    const o = withDefaults(defaultSweepAndPruneOptions(), options);
    if (o.axis !== "auto" && o.axis !== 0 && o.axis !== 1 && o.axis !== 2) {
      invalidValue("options.axis", o.axis, 'must be 0, 1, 2 or "auto"');
    }
    if (!(Number.isFinite(o.axisSwitchRatio) && o.axisSwitchRatio > 1)) {
      invalidValue("options.axisSwitchRatio", o.axisSwitchRatio, "must be a finite number > 1");
    }
    this.options = o;
    this.axisIndex = o.axis === "auto" ? 0 : o.axis;
    this.axisChosen = o.axis !== "auto";
  }

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  /** The current sweep axis (0 = x, 1 = y, 2 = z). */
  get axis(): number {
    return this.axisIndex;
  }

  /** Adds proxy `id` with box `[min, max]`; throws `CollideError` on a present id or a bad box. */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    if (id >= this.minPos.length) {
      this.minPos = growInt32(this.minPos, id + 1);
      this.maxPos = growInt32(this.maxPos, id + 1);
      this.activeSlot = growInt32(this.activeSlot, id + 1);
    }
    const n = this.epCount + 2;
    this.epValue = growFloat64(this.epValue, n);
    this.epData = growInt32(this.epData, n);
    const box = this.proxies.box;
    const a = this.axisIndex;
    this.minPos[id] = this.epCount;
    this.epValue[this.epCount] = box[6 * id + a];
    this.epData[this.epCount++] = 2 * id;
    this.maxPos[id] = this.epCount;
    this.epValue[this.epCount] = box[6 * id + 3 + a];
    this.epData[this.epCount++] = 2 * id + 1;
    this.sorted = false;
  }

  /**
   * Replaces the box of proxy `id` and restores the end point order by insertion sort; throws
   * `CollideError` on an absent id or a bad box.
   */
  move(id: number, min: Vec3, max: Vec3, _displacement?: Vec3): void {
    this.proxies.set(id, min, max);
    const box = this.proxies.box;
    const a = this.axisIndex;
    const lo = box[6 * id + a];
    const hi = box[6 * id + 3 + a];
    const pMax = this.maxPos[id];
    const oldHi = this.epValue[pMax];
    this.epValue[this.minPos[id]] = lo;
    this.epValue[pMax] = hi;
    if (!this.sorted) return;
    // Max rising: sift the max end point first (to the right), then the min; max falling: the
    // min first, so that neither end point is blocked by its stale partner.
    if (hi >= oldHi) {
      this.sift(this.maxPos[id]);
      this.sift(this.minPos[id]);
    } else {
      this.sift(this.minPos[id]);
      this.sift(this.maxPos[id]);
    }
  }

  /** Removes proxy `id` (O(n) compaction of the end points); throws when it is absent. */
  remove(id: number): void {
    this.proxies.delete(id);
    const v = this.epValue;
    const d = this.epData;
    let w = 0;
    for (let r = 0; r < this.epCount; r++) {
      const e = d[r];
      if (e >> 1 === id) continue;
      if (w !== r) {
        v[w] = v[r];
        d[w] = e;
        if (e & 1) this.maxPos[e >> 1] = w;
        else this.minPos[e >> 1] = w;
      }
      w++;
    }
    this.epCount = w;
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy. */
  clear(): void {
    this.proxies.clear();
    this.epCount = 0;
    this.sorted = true;
    if (this.options.axis === "auto") this.axisChosen = false;
  }

  /**
   * Re-chooses the sweep axis now as the axis of largest centre variance (only in `"auto"`
   * mode; a fixed axis stays). Returns the axis.
   */
  chooseAxis(): number {
    if (this.options.axis !== "auto") return this.axisIndex;
    this.setAxis(this.bestAxis(1));
    this.axisChosen = true;
    return this.axisIndex;
  }

  /** Fills `out` with every overlapping or touching pair, sorted by `(lo, hi)`. */
  computePairs(out: PairSet): PairSet {
    out.clear();
    if (this.options.axis === "auto") {
      if (!this.axisChosen) this.chooseAxis();
      else this.setAxis(this.bestAxis(this.options.axisSwitchRatio));
    }
    this.ensureSorted();
    const box = this.proxies.box;
    const v = this.epData;
    let nActive = 0;
    this.active = growInt32(this.active, this.proxies.count);
    const active = this.active;
    const activeSlot = this.activeSlot;
    for (let p = 0; p < this.epCount; p++) {
      const e = v[p];
      const id = e >> 1;
      if (e & 1) {
        const s = activeSlot[id];
        const last = active[--nActive];
        active[s] = last;
        activeSlot[last] = s;
      } else {
        const k = 6 * id;
        for (let q = 0; q < nActive; q++) {
          const other = active[q];
          if (boxesOverlap(box, k, box, 6 * other)) out.add(id, other);
        }
        activeSlot[id] = nActive;
        active[nActive++] = id;
      }
    }
    return out.sort();
  }

  /**
   * Reports every proxy whose box overlaps or touches `[min, max]`: scans the min end points up
   * to `max` on the sweep axis and tests each box.
   */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    checkBox("query", min, max);
    this.ensureSorted();
    const box = this.proxies.box;
    const qHi = this.axisIndex === 0 ? max.x : this.axisIndex === 1 ? max.y : max.z;
    let n = 0;
    for (let p = 0; p < this.epCount; p++) {
      if (this.epValue[p] > qHi) break;
      const e = this.epData[p];
      if (e & 1) continue;
      const id = e >> 1;
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

  /**
   * Visits every proxy whose box the segment touches, walking the end points in the ray's
   * direction along the sweep axis (near to far on that axis) and stopping at the first end point
   * whose entry parameter on that axis exceeds the (possibly clipped) `maxToi`.
   */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    checkRay(origin, dir, maxToi);
    this.ensureSorted();
    const box = this.proxies.box;
    const a = this.axisIndex;
    const oa = a === 0 ? origin.x : a === 1 ? origin.y : origin.z;
    const da = a === 0 ? dir.x : a === 1 ? dir.y : dir.z;
    const { x: ox, y: oy, z: oz } = origin;
    const { x: dx, y: dy, z: dz } = dir;
    let tMax = maxToi;
    let n = 0;
    const backward = da < 0;
    const wanted = backward ? 1 : 0;
    for (let i = 0; i < this.epCount; i++) {
      const p = backward ? this.epCount - 1 - i : i;
      const e = this.epData[p];
      if ((e & 1) !== wanted) continue;
      const value = this.epValue[p];
      // The entry parameter on the sweep axis is monotone along the walk: once past tMax (or, for
      // a ray parallel to the slabs, once past the origin), no later proxy can be touched.
      if (da === 0 ? value > oa : (value - oa) / da > tMax) break;
      const id = e >> 1;
      const t = raySegmentBoxEntry(ox, oy, oz, dx, dy, dz, tMax, box, 6 * id);
      if (t < 0) continue;
      n++;
      const r = callback(id, t);
      if (typeof r === "number") {
        if (r < 0) break;
        if (r < tMax) tMax = r;
      }
    }
    return n;
  }

  /** The axis of largest centre variance if it beats the current axis's by `ratio`, else the current. */
  private bestAxis(ratio: number): number {
    const { box, live, count } = this.proxies;
    if (count < 2) return this.axisIndex;
    let best = this.axisIndex;
    let varCurrent = 0;
    let varBest = -1;
    for (let a = 0; a < 3; a++) {
      let sum = 0;
      let sumSq = 0;
      for (let i = 0; i < count; i++) {
        const k = 6 * live[i];
        const c = 0.5 * (box[k + a] + box[k + 3 + a]);
        sum += c;
        sumSq += c * c;
      }
      const mean = sum / count;
      const variance = Math.max(0, sumSq / count - mean * mean);
      if (a === this.axisIndex) varCurrent = variance;
      if (variance > varBest) {
        varBest = variance;
        best = a;
      }
    }
    return varBest > ratio * varCurrent ? best : this.axisIndex;
  }

  private setAxis(a: number): void {
    if (a === this.axisIndex) return;
    this.axisIndex = a;
    const box = this.proxies.box;
    for (let p = 0; p < this.epCount; p++) {
      const e = this.epData[p];
      this.epValue[p] = box[6 * (e >> 1) + (e & 1 ? 3 : 0) + a];
    }
    this.sorted = false;
  }

  /** Sorts the end points when inserts or an axis change left them unsorted (merge sort). */
  private ensureSorted(): void {
    if (this.sorted) return;
    const n = this.epCount;
    this.scratchValue = growFloat64(this.scratchValue, n);
    this.scratchData = growInt32(this.scratchData, n);
    let srcV = this.epValue;
    let srcD = this.epData;
    let dstV = this.scratchValue;
    let dstD = this.scratchData;
    for (let width = 1; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let i = lo;
        let j = mid;
        let w = lo;
        while (i < mid && j < hi) {
          if (before(srcV[j], srcD[j], srcV[i], srcD[i])) {
            dstV[w] = srcV[j];
            dstD[w++] = srcD[j++];
          } else {
            dstV[w] = srcV[i];
            dstD[w++] = srcD[i++];
          }
        }
        while (i < mid) {
          dstV[w] = srcV[i];
          dstD[w++] = srcD[i++];
        }
        while (j < hi) {
          dstV[w] = srcV[j];
          dstD[w++] = srcD[j++];
        }
      }
      const tv = srcV;
      srcV = dstV;
      dstV = tv;
      const td = srcD;
      srcD = dstD;
      dstD = td;
    }
    this.epValue = srcV;
    this.epData = srcD;
    this.scratchValue = dstV;
    this.scratchData = dstD;
    for (let p = 0; p < n; p++) {
      const e = srcD[p];
      if (e & 1) this.maxPos[e >> 1] = p;
      else this.minPos[e >> 1] = p;
    }
    this.sorted = true;
  }

  /** Insertion sort step: moves the end point at `p` left or right to its place. */
  private sift(p: number): void {
    const v = this.epValue;
    const d = this.epData;
    const value = v[p];
    const data = d[p];
    let q = p;
    // `before` written out: the end point values passed to a call V8 does not inline are boxed.
    const side = data & 1;
    while (q > 0 && (value < v[q - 1] || (value === v[q - 1] && side < (d[q - 1] & 1)))) {
      v[q] = v[q - 1];
      d[q] = d[q - 1];
      this.place(q);
      q--;
    }
    if (q === p) {
      while (
        q + 1 < this.epCount &&
        (v[q + 1] < value || (v[q + 1] === value && (d[q + 1] & 1) < side))
      ) {
        v[q] = v[q + 1];
        d[q] = d[q + 1];
        this.place(q);
        q++;
      }
    }
    v[q] = value;
    d[q] = data;
    this.place(q);
  }

  private place(p: number): void {
    const e = this.epData[p];
    if (e & 1) this.maxPos[e >> 1] = p;
    else this.minPos[e >> 1] = p;
  }
}

/** End point order: by value, and at equal values a min end point before a max one. */
function before(va: number, da: number, vb: number, db: number): boolean {
  return va < vb || (va === vb && (da & 1) < (db & 1));
}
