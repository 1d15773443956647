/**
 * Warm starts of the world's narrow phase: what each candidate pair of the last step left
 * behind, used to skip work this step without ever changing an answer (issue 15, item 3; the
 * reference texts' "cache the last frame's simplex or separating axis", Bullet's and Jolt's
 * persistent manifolds).
 *
 * For every pair the step took to the narrow phase (src/world/narrow-pair.ts), the cache keeps,
 * keyed by the packed slot pair, the inputs of that call — both poses (14 doubles, compared
 * bitwise), both shapes (by identity: shapes are immutable), both flag bytes and the prediction
 * distance — its output record (kind, distance, normal, manifold: everything `narrowPair`
 * writes), and a separating axis. This step, for the same key:
 *
 * 1. **Unchanged pair** (every input bitwise equal): `narrowPair` is a pure function of those
 *    inputs, so the stored record IS the cold answer; it is copied, the narrow phase skipped.
 * 2. **Cached axis** (the pair moved): the axis is tested first as an early out for separated
 *    pairs, and taken only where the cold query provably answers "no contact" too:
 *    - box–box: the SAT axis (face of A, face of B or edge × edge, by index) that separated or
 *      least penetrated the pair last time, its separation computed by
 *      `cuboidAxisSeparation` with the very arithmetic of the full 15-axis test. When it
 *      exceeds the test's tie tolerance, the full test (which stops at the first axis beyond 0)
 *      is certain to report the boxes apart, and with a positive prediction the cold path's GJK
 *      distance is at least that separation, so the axis must also beat the prediction by
 *      WARM_START_GAP_MARGIN of the pair's size;
 *    - other convex pairs (no sphere: sphere pairs are closed forms, cheaper than the test): the
 *      last contact normal, in the lower slot's frame, and the separation of the two support
 *      points along it, a lower bound of the true gap for any axis; it must beat the prediction
 *      by WARM_START_GAP_MARGIN of the pair's size, a thousand times the distance accuracy of
 *      every pair routine (docs/FORMATS.md, "Accuracy"), so the cold routine's distance is
 *      beyond the prediction too.
 *    Otherwise the cold query runs, in full and unchanged — its answer is the one reported.
 *
 * What is not warm-started, and why: GJK's simplex and search direction. Started from last
 * frame's simplex, GJK takes a different path to the same distance and its result differs in
 * the last bits (and EPA's polytope with it), so a warm GJK would break the rule that a warm
 * answer is bitwise the cold one; the cached axis above gives the early out such a warm start
 * is mostly for. A pair whose bodies moved together (same relative pose, new world poses) is
 * recomputed: its world-frame manifold changed. Sensor pairs (a boolean test) are reused when
 * unchanged but get no axis. The parallel executor's threads (src/parallel/) run the cold
 * narrow phase; the world uses this cache on the calling thread only.
 *
 * Storage: two frames of flat typed arrays (this step's and the last), filled in ascending key
 * order — the order the world visits pairs — so the last frame's entry of a key is found by
 * one cursor moving forward: O(1) per pair, no hashing. Grown by doubling, kept: a
 * steady-state step allocates nothing here.
 */

import { growFloat64 } from "../broadphase/broad-phase.js";
import { PAIR_KEY_BASE } from "../broadphase/pair-set.js";
import { WARM_START_GAP_MARGIN } from "../constants.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import {
  axisSeparation,
  cuboidAxisSeparation,
  cuboidSatTie,
  lastCuboidSat,
} from "../narrowphase/cuboid-cuboid.js";
import { offsetOutOfRange } from "../narrowphase/extreme-scale.js";
import type { Cuboid } from "../shapes/cuboid.js";
import { shapeDef } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { FLAG_CONVEX, FLAG_CUBOID, FLAG_SENSOR, FLAG_SPHERE } from "./body-store.js";
import {
  NARROW_CONTACT,
  NARROW_HEADER,
  NARROW_NONE,
  NARROW_POINT_STRIDE,
  NARROW_RECORD_STRIDE,
  narrowPair,
} from "./narrow-pair.js";

/** Axis kinds of an entry: none, a box–box SAT axis (index in `axis[0..2]`), a unit direction. */
const AXIS_NONE = 0;
const AXIS_SAT = 1;
const AXIS_DIRECTION = 2;

const INITIAL_CAPACITY = 64;

/** One frame's entries, in ascending key order. */
class Frame {
  count = 0;
  keys = new Float64Array(INITIAL_CAPACITY);
  /** Both poses, 14 doubles per entry (lower slot's 7, then the higher's). */
  poses = new Float64Array(14 * INITIAL_CAPACITY);
  /** The narrow-phase record, NARROW_RECORD_STRIDE doubles per entry (kind first). */
  records = new Float64Array(NARROW_RECORD_STRIDE * INITIAL_CAPACITY);
  /** Axis: kind, then 3 numbers (SAT kind, i, j; or a unit direction in the lower slot's frame). */
  axes = new Float64Array(4 * INITIAL_CAPACITY);
  /** Flag bytes of the lower and the higher slot. */
  flags = new Uint8Array(2 * INITIAL_CAPACITY);
  shapesLo: (Shape | undefined)[] = [];
  shapesHi: (Shape | undefined)[] = [];

  /** Makes room for entry `n` (doubling). */
  reserve(n: number): void {
    if (n < this.keys.length) return;
    const cap = 2 * this.keys.length;
    this.keys = growFloat64(this.keys, cap);
    this.poses = growFloat64(this.poses, 14 * cap);
    this.records = growFloat64(this.records, NARROW_RECORD_STRIDE * cap);
    this.axes = growFloat64(this.axes, 4 * cap);
    const f = new Uint8Array(2 * cap);
    f.set(this.flags);
    this.flags = f;
  }
}

const poseLo = iso.identity();
const poseHi = iso.identity();
const bInA = iso.identity();
const dirA = vec3.create();
const dirB = vec3.create();
const supA = vec3.create();
const supB = vec3.create();

/** Reads the pose of `slot` from the 7-doubles-per-slot array `pose` into `out`. */
function readPose(out: Isometry, pose: Float64Array, slot: number): void {
  const k = 7 * slot;
  out.translation.x = pose[k];
  out.translation.y = pose[k + 1];
  out.translation.z = pose[k + 2];
  out.rotation.x = pose[k + 3];
  out.rotation.y = pose[k + 4];
  out.rotation.z = pose[k + 5];
  out.rotation.w = pose[k + 6];
}

/** Work counters of the last frame, for tests and benchmarks. */
export interface WarmStartStats {
  /** Pairs whose stored answer was reused (nothing changed). */
  reused: number;
  /** Pairs answered "apart" by their cached axis. */
  axisEarlyOuts: number;
  /** Pairs that ran the full (cold) narrow phase. */
  cold: number;
}

/**
 * The warm-start cache of a world (see the module docs). Per step: {@link beginFrame}, then
 * {@link narrow} for each pair in ascending key order (instead of `narrowPair`), then
 * {@link endFrame}.
 */
export class WarmStartCache {
  private prev = new Frame();
  private cur = new Frame();
  private cursor = 0;
  private prediction = Number.NaN;
  private prevPrediction = Number.NaN;
  /** True when this frame's prediction is the last frame's (bitwise). */
  private samePrediction = false;
  /** Counters of the current / last frame. */
  readonly stats: WarmStartStats = { reused: 0, axisEarlyOuts: 0, cold: 0 };

  /** Starts a frame at prediction distance `prediction` (scene units). */
  beginFrame(prediction: number): void {
    this.cur.count = 0;
    this.cursor = 0;
    this.prediction = prediction;
    this.samePrediction = Object.is(this.prevPrediction, prediction);
    const s = this.stats;
    s.reused = 0;
    s.axisEarlyOuts = 0;
    s.cold = 0;
  }

  /** Ends a frame: this frame's entries become the last frame's. */
  endFrame(): void {
    const p = this.prev;
    // Drop the shape references of entries no longer in use (so a removed shape can be freed).
    for (let i = this.cur.count; i < p.count; i++) {
      p.shapesLo[i] = undefined;
      p.shapesHi[i] = undefined;
    }
    this.prev = this.cur;
    this.cur = p;
    this.prevPrediction = this.prediction;
  }

  /**
   * Keeps pair `key`'s last entry for the next frame unchanged: the world's move buffer carried
   * the pair (neither body moved), so its narrow phase did not run. Same key order as
   * {@link narrow}. (It takes the slots `lo` < `hi`, small integers, rather than the packed key,
   * a double that V8 would box when passing it to a call it does not inline.)
   */
  carry(lo: number, hi: number): void {
    const key = lo * PAIR_KEY_BASE + hi;
    const p = this.prev;
    let c = this.cursor;
    while (c < p.count && p.keys[c] < key) c++;
    this.cursor = c;
    if (c === p.count || p.keys[c] !== key) return;
    const cur = this.cur;
    const e = cur.count;
    cur.reserve(e);
    cur.keys[e] = key;
    cur.flags[2 * e] = p.flags[2 * c];
    cur.flags[2 * e + 1] = p.flags[2 * c + 1];
    cur.shapesLo[e] = p.shapesLo[c];
    cur.shapesHi[e] = p.shapesHi[c];
    for (let i = 0; i < 14; i++) cur.poses[14 * e + i] = p.poses[14 * c + i];
    for (let i = 0; i < 4; i++) cur.axes[4 * e + i] = p.axes[4 * c + i];
    const rs = NARROW_RECORD_STRIDE;
    for (let i = 0; i < rs; i++) cur.records[rs * e + i] = p.records[rs * c + i];
    cur.count = e + 1;
  }

  /** Number of entries kept from the last frame (pairs its narrow phase ran or carried). */
  get size(): number {
    return this.prev.count;
  }

  /** Forgets every entry (keeps storage). */
  clear(): void {
    this.prev.count = 0;
    this.cur.count = 0;
    this.prevPrediction = Number.NaN;
  }

  /**
   * The narrow phase of the pair of slots `lo` < `hi`, exactly `narrowPair(out, 0, lo, hi, pose,
   * flags, shapes, prediction)` — bitwise the same record and kind — with the work skipped
   * where the last frame's entry of the pair proves the answer (see the module docs).
   * `prediction` must be the one given to {@link beginFrame} (passed again as the caller holds
   * it: a double loaded from a field and passed to a call is boxed, an allocation per pair).
   * (The slots, small integers, are passed rather than the packed key, a double that V8 boxes
   * when passing it to a call it does not inline: 16 bytes per pair.)
   */
  narrow(
    out: Float64Array,
    lo: number,
    hi: number,
    pose: Float64Array,
    flags: Uint8Array,
    shapes: readonly (Shape | undefined)[],
    prediction: number,
  ): number {
    const key = lo * PAIR_KEY_BASE + hi;
    const p = this.prev;
    let c = this.cursor;
    while (c < p.count && p.keys[c] < key) c++;
    this.cursor = c;
    const found = c < p.count && p.keys[c] === key;
    const sa = shapes[lo];
    const sb = shapes[hi];
    const fl = flags[lo];
    const fh = flags[hi];
    const cur = this.cur;
    const e = cur.count;
    cur.reserve(e);
    cur.keys[e] = key;
    cur.flags[2 * e] = fl;
    cur.flags[2 * e + 1] = fh;
    cur.shapesLo[e] = sa;
    cur.shapesHi[e] = sb;
    const ka = 7 * lo;
    const kb = 7 * hi;
    const kp = 14 * e;
    const cp = cur.poses;
    for (let i = 0; i < 7; i++) {
      cp[kp + i] = pose[ka + i];
      cp[kp + 7 + i] = pose[kb + i];
    }
    cur.count = e + 1;
    const ax = cur.axes;
    const ke = 4 * e;
    let sameInputs = false;
    if (found) {
      // The last entry's axis carries over (replaced below when this frame finds a better one).
      const kc = 4 * c;
      ax[ke] = p.axes[kc];
      ax[ke + 1] = p.axes[kc + 1];
      ax[ke + 2] = p.axes[kc + 2];
      ax[ke + 3] = p.axes[kc + 3];
      sameInputs =
        p.shapesLo[c] === sa &&
        p.shapesHi[c] === sb &&
        p.flags[2 * c] === fl &&
        p.flags[2 * c + 1] === fh &&
        this.samePrediction &&
        samePoses(p.poses, 14 * c, cp, kp);
    } else ax[ke] = AXIS_NONE;
    const rs = NARROW_RECORD_STRIDE;
    const cr = cur.records;
    if (sameInputs) {
      const pr = p.records;
      const from = rs * c;
      const kind = pr[from];
      const end = kind === NARROW_CONTACT ? NARROW_HEADER + NARROW_POINT_STRIDE * pr[from + 6] : 1;
      for (let i = 0; i < end; i++) {
        const v = pr[from + i];
        out[i] = v;
        cr[rs * e + i] = v;
      }
      this.stats.reused++;
      return kind;
    }
    if (
      ax[ke] !== AXIS_NONE &&
      ((fl | fh) & FLAG_SENSOR) === 0 &&
      this.apartByAxis(e, lo, hi, sa as Shape, sb as Shape, fl, fh, pose)
    ) {
      out[0] = NARROW_NONE;
      cr[rs * e] = NARROW_NONE;
      this.stats.axisEarlyOuts++;
      return NARROW_NONE;
    }
    const kind = narrowPair(out, 0, lo, hi, pose, flags, shapes, prediction);
    this.stats.cold++;
    const end = kind === NARROW_CONTACT ? NARROW_HEADER + NARROW_POINT_STRIDE * out[6] : 1;
    for (let i = 0; i < end; i++) cr[rs * e + i] = out[i];
    if (((fl | fh) & FLAG_SENSOR) !== 0) return kind;
    // The axis for next time.
    const kinds = FLAG_SPHERE | FLAG_CUBOID;
    if ((fl & fh & FLAG_CUBOID) !== 0) {
      // The SAT's last axis (this pair's, unless the bounding-sphere test settled it first: any
      // axis is a valid test, a stale one is only a weaker one).
      const sat = lastCuboidSat();
      ax[ke] = AXIS_SAT;
      ax[ke + 1] = sat.kind;
      ax[ke + 2] = sat.i;
      ax[ke + 3] = sat.j;
    } else if (
      kind === NARROW_CONTACT &&
      (fl & fh & FLAG_CONVEX) !== 0 &&
      ((fl | fh) & FLAG_SPHERE) === 0 &&
      !((fl & kinds) !== 0 && (fh & kinds) !== 0)
    ) {
      // The contact normal (world frame, lower toward higher) in the lower slot's frame.
      readPose(poseLo, pose, lo);
      vec3.set(dirA, out[3], out[4], out[5]);
      quat.inverseRotate(dirA, poseLo.rotation, dirA);
      ax[ke] = AXIS_DIRECTION;
      ax[ke + 1] = dirA.x;
      ax[ke + 2] = dirA.y;
      ax[ke + 3] = dirA.z;
    }
    return kind;
  }

  /**
   * True when entry `e`'s axis proves the pair (lower slot `lo`, higher `hi`) apart by more
   * than the prediction, so that the cold narrow phase answers NARROW_NONE (module docs).
   */
  private apartByAxis(
    e: number,
    lo: number,
    hi: number,
    sa: Shape,
    sb: Shape,
    fl: number,
    fh: number,
    pose: Float64Array,
  ): boolean {
    const ax = this.cur.axes;
    const k = 4 * e;
    const prediction = this.prediction;
    // B's pose in A's frame, as narrowPair forms it (A = the lower slot for these pairs).
    readPose(poseLo, pose, lo);
    readPose(poseHi, pose, hi);
    iso.invMul(bInA, poseLo, poseHi);
    // Far outside unit scale the cold path changes units first (extreme-scale.ts): no early out.
    if (offsetOutOfRange(bInA)) return false;
    const t = bInA.translation;
    if (ax[k] === AXIS_SAT) {
      if ((fl & fh & FLAG_CUBOID) === 0) return false;
      const a = sa as Cuboid;
      const b = sb as Cuboid;
      // (Results read from a typed array: a double returned by a call is boxed, an allocation.)
      cuboidAxisSeparation(a, b, bInA, ax[k + 1], ax[k + 2], ax[k + 3]);
      cuboidSatTie(a, b);
      const s = axisSeparation[0];
      if (!(s > axisSeparation[1])) return false;
      if (prediction <= 0) return true;
      pairSize(sa, sb, bInA);
      return s > prediction + WARM_START_GAP_MARGIN * sizeOut[0];
    }
    if ((fl & fh & FLAG_CONVEX) === 0) return false;
    const da = shapeDef(sa.type);
    const db = shapeDef(sb.type);
    const supportA = da.coreSupport;
    const supportB = db.coreSupport;
    if (supportA === null || supportB === null) return false;
    // Separation along n: −(h_A(n) + h_B(−n)), a lower bound of the gap for any unit n.
    vec3.set(dirA, ax[k + 1], ax[k + 2], ax[k + 3]);
    supportA(supA, sa, dirA);
    quat.inverseRotate(dirB, bInA.rotation, dirA);
    vec3.negate(dirB, dirB);
    supportB(supB, sb, dirB);
    quat.rotate(supB, bInA.rotation, supB);
    vec3.add(supB, supB, t);
    const gap =
      dirA.x * (supB.x - supA.x) +
      dirA.y * (supB.y - supA.y) +
      dirA.z * (supB.z - supA.z) -
      da.margin(sa) -
      db.margin(sb);
    pairSize(sa, sb, bInA);
    return gap > Math.max(prediction, 0) + WARM_START_GAP_MARGIN * sizeOut[0];
  }
}

const sizeOut = new Float64Array(1);

/**
 * The pair's size for the margin, into `sizeOut[0]`: |t|₁ plus both bounding radii (no squares:
 * no overflow).
 */
function pairSize(sa: Shape, sb: Shape, pose: Isometry): void {
  const t = pose.translation;
  sizeOut[0] =
    Math.abs(t.x) +
    Math.abs(t.y) +
    Math.abs(t.z) +
    shapeDef(sa.type).boundingRadius(sa) +
    shapeDef(sb.type).boundingRadius(sb);
}

/** True when the 14 doubles at `a[i..]` and `b[j..]` are bitwise equal (+0 ≠ −0, NaN = NaN). */
function samePoses(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  for (let k = 0; k < 14; k++) {
    const x = a[i + k];
    const y = b[j + k];
    if (x !== y || (x === 0 && 1 / x !== 1 / y)) return false;
  }
  return true;
}
