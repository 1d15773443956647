/**
 * Continuous collision detection (CCD) of the collision world: bodies flagged as fast are swept
 * from their pose at the previous `step()` to their pose now, so a bullet that crosses a thin
 * wall between two steps is reported instead of tunnelling through it.
 *
 * A discrete step only sees the poses at the end of each step: a sphere of radius 0.1 moving
 * 100 units in one step passes a wall 0.01 thick without ever overlapping it. Flag the sphere
 * with `ccd: true` (`addBody`) or `setCcd(handle, true)`, and every step also:
 *
 * 1. for each fast body that moved since the last step, builds its swept AABB — the union of
 *    its boxes at both poses when the rotation did not change (exact for a translation), or
 *    the box of the path of its origin grown by the shape's bounding radius when it did —
 *    padded by `SWEPT_AABB_PAD`;
 * 2. asks the broad phase for the bodies whose box touches it, keeps those passing the
 *    layer/mask filter, and computes the first time of impact of the pair with
 *    `castShapesNonlinearInto` (src/query/cast-shapes.ts: conservative advancement; the
 *    translation is interpolated linearly and the rotation by nlerp, so a pure translation is
 *    the linear cast), the other body held at its current pose;
 * 3. casts every pair of fast bodies whose swept boxes overlap (at least one of them moved)
 *    with BOTH motions — fast against fast;
 * 4. records each pair that touches at some time of the sweep as an impact, read after the step
 *    from `world.impacts()` (Box2D v3 style: an event array, no callback inside the step).
 *
 * An impact names the pair `(a, b)` (the body of the lower slot first: the lower handle unless
 * the world reordered its slots, see `reorderSlotsAt`), the time of impact `toi` ∈ [0, 1] as
 * a fraction of the step (0 = the pose at the previous step, 1 = the pose now), and the unit
 * normal from a toward b and the witness points at that time, world frame. A pair that touches
 * at the start of the sweep has toi 0; a pair that still touches at the end is reported as a
 * contact by the discrete step as well. Impacts come in ascending slot-pair order; the same
 * operations give the same impacts with every broad phase (the candidate set is exact for the
 * box and sorted).
 *
 * Every shape is swept and every shape is a candidate: convex shapes, triangle meshes and
 * compounds (part by part through their composite views, src/query/cast-shapes.ts) and
 * half-spaces (outside the broad phase, added to every fast body's candidates). A fast body
 * may not be a half-space (refused: it is unbounded, with no swept box). Sensor pairs
 * are not swept (a sensor reports the overlap at the step's poses). A slow body is taken at its
 * current pose, as Box2D's continuous collision treats static bodies. A fast body's sweep starts
 * from its pose at `addBody` / `setCcd(…, true)` until the first step.
 *
 * Sources: Mirtich 1996 (conservative advancement); Catto 2013, "Continuous Collision"
 * (GDC), and Box2D v3's `b2SolveContinuous` for the sweep against static bodies; Rapier's CCD
 * flag per body.
 */
import type { BroadPhase } from "../broadphase/broad-phase.js";
import { boxesOverlap, growFloat64 } from "../broadphase/broad-phase.js";
import { PAIR_KEY_BASE } from "../broadphase/pair-set.js";
import { SWEPT_AABB_PAD } from "../constants.js";
import { checkOutRecord } from "../errors.js";
import * as aabbm from "../math/aabb.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import * as vec3 from "../math/vec3.js";
import { boundingRadius, castShapesNonlinearInto, makeShapeCastHit } from "../query/cast-shapes.js";
import { aabbShape } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { type BodyStore, FLAG_ALIVE, FLAG_SENSOR } from "./body-store.js";
import { checkEventIndex } from "./core/pair-cache.js";
import type { BodyHandle } from "./handles.js";

/** One impact of a fast body's sweep (allocating convenience form, see {@link ImpactList}). */
export interface WorldImpact {
  /** The pair's body of the lower slot (the lower handle unless the world reordered its slots). */
  a: BodyHandle;
  /** The pair's higher handle. */
  b: BodyHandle;
  /** Time of impact as a fraction of the step, in [0, 1] (0: previous step's poses, 1: now). */
  toi: number;
  /** Unit contact normal from `a` toward `b` at the time of impact, world frame. */
  normal: Vec3;
  /** Witness point on `a` at the time of impact, world frame. */
  pointA: Vec3;
  /** Witness point on `b` at the time of impact, world frame. */
  pointB: Vec3;
}

/** A new zeroed {@link WorldImpact} (allocates). */
export function makeWorldImpact(): WorldImpact {
  return {
    a: 0 as BodyHandle,
    b: 0 as BodyHandle,
    toi: 0,
    normal: vec3.create(),
    pointA: vec3.create(),
    pointB: vec3.create(),
  };
}

/** Doubles per impact record: a, b, toi, normal xyz, pointA xyz, pointB xyz. */
const IMPACT_STRIDE = 12;
const IMPACT_PARTS = ["normal", "pointA", "pointB"] as const;
const INITIAL_CAPACITY = 16;

/**
 * The impacts of the last step (see the module docs): `count` records in ascending `(a, b)`
 * order, read by index without allocation, valid until the next step.
 */
export class ImpactList {
  private rec = new Float64Array(IMPACT_STRIDE * INITIAL_CAPACITY);
  private keys = new Float64Array(INITIAL_CAPACITY);
  private order = new Int32Array(INITIAL_CAPACITY);
  private n = 0;

  /** Number of impacts. */
  get count(): number {
    return this.n;
  }

  /**
   * The first body (lower slot) of impact `i` (0 ≤ i < count). Throws `CollideError` naming
   * `index` for an `i` that is not an integer in [0, count), as `readContact` does.
   */
  a(i: number): BodyHandle {
    checkEventIndex(i, this.n);
    return this.rec[IMPACT_STRIDE * this.order[i]] as BodyHandle;
  }

  /** The higher handle of impact `i` (0 ≤ i < count). Throws as {@link a}. */
  b(i: number): BodyHandle {
    checkEventIndex(i, this.n);
    return this.rec[IMPACT_STRIDE * this.order[i] + 1] as BodyHandle;
  }

  /** The time of impact of impact `i`, a fraction of the step in [0, 1]. Throws as {@link a}. */
  toi(i: number): number {
    checkEventIndex(i, this.n);
    return this.rec[IMPACT_STRIDE * this.order[i] + 2];
  }

  /**
   * Writes impact `i` (0 ≤ i < count) into `out` and returns it. Throws as {@link a}, and
   * naming `out` unless it is an impact record (makeWorldImpact()).
   */
  read(i: number, out: WorldImpact = makeWorldImpact()): WorldImpact {
    checkEventIndex(i, this.n);
    checkOutRecord("out", out, IMPACT_PARTS, "an impact record (makeWorldImpact())");
    const r = this.rec;
    const k = IMPACT_STRIDE * this.order[i];
    out.a = r[k] as BodyHandle;
    out.b = r[k + 1] as BodyHandle;
    out.toi = r[k + 2];
    vec3.set(out.normal, r[k + 3], r[k + 4], r[k + 5]);
    vec3.set(out.pointA, r[k + 6], r[k + 7], r[k + 8]);
    vec3.set(out.pointB, r[k + 9], r[k + 10], r[k + 11]);
    return out;
  }

  /** The impacts as objects (allocates; for tools and tests). */
  toArray(): WorldImpact[] {
    const out: WorldImpact[] = [];
    for (let i = 0; i < this.n; i++) out.push(this.read(i));
    return out;
  }

  /** Empties the list, keeping storage (world internal). */
  clear(): void {
    this.n = 0;
  }

  /** Appends an impact of the pair with packed slot key `key` (world internal). */
  push(key: number, a: number, b: number, toi: number, normal: Vec3, pA: Vec3, pB: Vec3): void {
    if (this.n === this.keys.length) {
      this.rec = growFloat64(this.rec, 2 * IMPACT_STRIDE * this.n);
      this.keys = growFloat64(this.keys, 2 * this.n);
      const o = new Int32Array(2 * this.n);
      o.set(this.order);
      this.order = o;
    }
    const i = this.n++;
    const r = this.rec;
    const k = IMPACT_STRIDE * i;
    r[k] = a;
    r[k + 1] = b;
    r[k + 2] = toi;
    r[k + 3] = normal.x;
    r[k + 4] = normal.y;
    r[k + 5] = normal.z;
    r[k + 6] = pA.x;
    r[k + 7] = pA.y;
    r[k + 8] = pA.z;
    r[k + 9] = pB.x;
    r[k + 10] = pB.y;
    r[k + 11] = pB.z;
    this.keys[i] = key;
    this.order[i] = i;
  }

  /** Sorts the read order by pair key, ascending (insertion sort: no allocation). */
  sortByPair(): void {
    const o = this.order;
    const keys = this.keys;
    for (let i = 1; i < this.n; i++) {
      const v = o[i];
      const kv = keys[v];
      let j = i;
      while (j > 0 && keys[o[j - 1]] > kv) {
        o[j] = o[j - 1];
        j--;
      }
      o[j] = v;
    }
  }
}

/** State of a sweep: not swept (unsupported shape, sensor), swept but still, or moved. */
const SWEEP_NONE = 0;
const SWEEP_STILL = 1;
const SWEEP_MOVED = 2;

const p0 = iso.identity();
const p1 = iso.identity();
const q0 = iso.identity();
const q1 = iso.identity();
const box0 = aabbm.empty();
const box1 = aabbm.empty();
const hit = makeShapeCastHit();

/** Inserts `v` into the ascending array `a`. */
function insertSorted(a: number[], v: number): void {
  let i = a.length;
  a.push(v);
  while (i > 0 && a[i - 1] > v) {
    a[i] = a[i - 1];
    i--;
  }
  a[i] = v;
}

/** Sorts a small number array ascending in place (insertion sort: no allocation). */
function sortSmall(a: number[]): void {
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i;
    while (j > 0 && a[j - 1] > v) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = v;
  }
}

/**
 * The continuous-collision state of a world (world internal; see the module docs): which slots
 * are fast, their poses at the previous step, and the impacts of the last step.
 */
export class CcdState {
  /** The impacts of the last step. */
  readonly impacts = new ImpactList();
  private readonly fast: number[] = [];
  private isFast = new Uint8Array(INITIAL_CAPACITY);
  private prev = new Float64Array(7 * INITIAL_CAPACITY);
  private swept = new Float64Array(6 * INITIAL_CAPACITY);
  private sweep = new Uint8Array(INITIAL_CAPACITY);
  private readonly candidates: number[] = [];
  private readonly qMin = vec3.create();
  private readonly qMax = vec3.create();

  /** Number of fast bodies. */
  get count(): number {
    return this.fast.length;
  }

  /** True when `slot` is flagged fast. */
  has(slot: number): boolean {
    return slot < this.isFast.length && this.isFast[slot] === 1;
  }

  /** Flags `slot` fast, its sweep starting at its pose in `poses` (the body store's array). */
  add(slot: number, poses: Float64Array): void {
    if (slot >= this.isFast.length) {
      let cap = this.isFast.length;
      while (cap <= slot) cap *= 2;
      const f = new Uint8Array(cap);
      f.set(this.isFast);
      this.isFast = f;
      this.prev = growFloat64(this.prev, 7 * cap);
    }
    if (this.isFast[slot] !== 1) insertSorted(this.fast, slot);
    this.isFast[slot] = 1;
    this.prev.set(poses.subarray(7 * slot, 7 * slot + 7), 7 * slot);
  }

  /**
   * Moves the fast flags and previous poses of every slot `s` to slot `newOf[s]` (the world's
   * spatial reordering, src/world/core/slot-store.ts `permute`; `oldOf` the inverse).
   */
  permute(newOf: Int32Array, oldOf: Int32Array): void {
    const fast = this.fast;
    if (fast.length === 0) return;
    for (let i = 0; i < fast.length; i++) {
      const s = newOf[fast[i]];
      fast[i] = s;
    }
    fast.sort((x, y) => x - y);
    const n = Math.min(oldOf.length, this.isFast.length);
    const isFast = new Uint8Array(this.isFast.length);
    const prev = new Float64Array(this.prev.length);
    for (let s = 0; s < n; s++) {
      const o = oldOf[s];
      if (o >= this.isFast.length) continue;
      isFast[s] = this.isFast[o];
      for (let j = 0; j < 7; j++) prev[7 * s + j] = this.prev[7 * o + j];
    }
    this.isFast = isFast;
    this.prev = prev;
  }

  /** Clears the fast flag of `slot` (no-op when it is not fast). */
  remove(slot: number): void {
    if (!this.has(slot)) return;
    this.isFast[slot] = 0;
    this.fast.splice(this.fast.indexOf(slot), 1);
  }

  /**
   * Sweeps every fast body from its previous pose to its current one against the broad phase's
   * bodies and the other fast bodies, fills {@link impacts} in ascending pair order, then makes
   * the current poses the previous ones. Allocates nothing in steady state.
   */
  run(b: BodyStore, bp: Pick<BroadPhase, "queryAabb">, unbounded: readonly number[] = []): void {
    const out = this.impacts;
    out.clear();
    const fast = this.fast;
    const nf = fast.length;
    if (nf === 0) return;
    if (this.sweep.length < nf) {
      this.sweep = new Uint8Array(2 * nf);
      this.swept = growFloat64(this.swept, 12 * nf);
    }
    for (let i = 0; i < nf; i++) this.sweep[i] = this.sweptBox(b, fast[i], i);
    const { flags, layer, mask, shapes, handleOfSlot } = b;
    const cand = this.candidates;
    for (let i = 0; i < nf; i++) {
      if (this.sweep[i] !== SWEEP_MOVED) continue;
      const s = fast[i];
      const k = 6 * i;
      const sw = this.swept;
      vec3.set(this.qMin, sw[k], sw[k + 1], sw[k + 2]);
      vec3.set(this.qMax, sw[k + 3], sw[k + 4], sw[k + 5]);
      cand.length = 0;
      bp.queryAabb(this.qMin, this.qMax, cand);
      for (let u = 0; u < unbounded.length; u++) cand.push(unbounded[u]);
      sortSmall(cand);
      this.readPrev(p0, s);
      b.readPose(p1, s);
      for (let j = 0; j < cand.length; j++) {
        const c = cand[j];
        if (c === s || this.has(c) || (flags[c] & FLAG_ALIVE) === 0) continue;
        if ((flags[c] & FLAG_SENSOR) !== 0) continue;
        if ((layer[s] & mask[c]) === 0 || (layer[c] & mask[s]) === 0) continue;
        const sc = shapes[c] as Shape;
        b.readPose(q0, c);
        const ss = shapes[s] as Shape;
        const lo = Math.min(s, c);
        const hi = Math.max(s, c);
        const touched =
          s < c
            ? castShapesNonlinearInto(hit, ss, p0, p1, sc, q0, q0, 1)
            : castShapesNonlinearInto(hit, sc, q0, q0, ss, p0, p1, 1);
        if (touched) this.record(lo, hi, handleOfSlot);
      }
    }
    for (let i = 0; i < nf; i++) {
      if (this.sweep[i] === SWEEP_NONE) continue;
      const s = fast[i];
      for (let j = i + 1; j < nf; j++) {
        if (this.sweep[j] === SWEEP_NONE) continue;
        if (this.sweep[i] !== SWEEP_MOVED && this.sweep[j] !== SWEEP_MOVED) continue;
        if (!boxesOverlap(this.swept, 6 * i, this.swept, 6 * j)) continue;
        const c = fast[j];
        if ((layer[s] & mask[c]) === 0 || (layer[c] & mask[s]) === 0) continue;
        this.readPrev(p0, s);
        b.readPose(p1, s);
        this.readPrev(q0, c);
        b.readPose(q1, c);
        // fast[] is ascending, so s < c.
        if (castShapesNonlinearInto(hit, shapes[s] as Shape, p0, p1, shapes[c] as Shape, q0, q1, 1))
          this.record(s, c, handleOfSlot);
      }
    }
    out.sortByPair();
    const pose = b.pose;
    for (let i = 0; i < nf; i++) {
      const k = 7 * fast[i];
      for (let d = 0; d < 7; d++) this.prev[k + d] = pose[k + d];
    }
  }

  private record(lo: number, hi: number, handleOfSlot: Float64Array): void {
    this.impacts.push(
      lo * PAIR_KEY_BASE + hi,
      handleOfSlot[lo] as BodyHandle,
      handleOfSlot[hi] as BodyHandle,
      hit.toi,
      hit.normal,
      hit.pointA,
      hit.pointB,
    );
  }

  private readPrev(out: iso.Isometry, slot: number): iso.Isometry {
    const a = this.prev;
    const k = 7 * slot;
    vec3.set(out.translation, a[k], a[k + 1], a[k + 2]);
    out.rotation.x = a[k + 3];
    out.rotation.y = a[k + 4];
    out.rotation.z = a[k + 5];
    out.rotation.w = a[k + 6];
    return out;
  }

  /**
   * Writes the padded swept box of fast slot `s` (index `i` of the fast list) into `swept` and
   * returns its sweep state: SWEEP_NONE for a sensor or a shape that is not swept, SWEEP_STILL
   * (the current tight box) when it did not move, SWEEP_MOVED otherwise.
   */
  private sweptBox(b: BodyStore, s: number, i: number): number {
    const shape = b.shapes[s] as Shape;
    if ((b.flags[s] & FLAG_SENSOR) !== 0 || !Number.isFinite(boundingRadius(shape))) {
      return SWEEP_NONE;
    }
    const pose = b.pose;
    const prev = this.prev;
    const k7 = 7 * s;
    let moved = false;
    let rotated = false;
    for (let d = 0; d < 7; d++) {
      if (pose[k7 + d] !== prev[k7 + d]) {
        moved = true;
        if (d >= 3) rotated = true;
      }
    }
    const w = this.swept;
    const k = 6 * i;
    if (!moved) {
      const a = b.aabb;
      for (let d = 0; d < 6; d++) w[k + d] = a[6 * s + d];
      return SWEEP_STILL;
    }
    this.readPrev(p0, s);
    b.readPose(p1, s);
    let r = 0;
    if (rotated) {
      r = boundingRadius(shape);
      const t0 = p0.translation;
      const t1 = p1.translation;
      vec3.set(
        box0.min,
        Math.min(t0.x, t1.x) - r,
        Math.min(t0.y, t1.y) - r,
        Math.min(t0.z, t1.z) - r,
      );
      vec3.set(
        box0.max,
        Math.max(t0.x, t1.x) + r,
        Math.max(t0.y, t1.y) + r,
        Math.max(t0.z, t1.z) + r,
      );
    } else {
      aabbShape(box0, shape, p0);
      aabbShape(box1, shape, p1);
      aabbm.union(box0, box0, box1);
      r = boundingRadius(shape);
    }
    const mn = box0.min;
    const mx = box0.max;
    const big = Math.max(
      Math.abs(mn.x),
      Math.abs(mn.y),
      Math.abs(mn.z),
      Math.abs(mx.x),
      Math.abs(mx.y),
      Math.abs(mx.z),
    );
    const pad = SWEPT_AABB_PAD * (big + r);
    w[k] = mn.x - pad;
    w[k + 1] = mn.y - pad;
    w[k + 2] = mn.z - pad;
    w[k + 3] = mx.x + pad;
    w[k + 4] = mx.y + pad;
    w[k + 5] = mx.z + pad;
    return SWEEP_MOVED;
  }
}
