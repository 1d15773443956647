/**
 * The first pass of `CollisionWorld.setPoses` cut into chunks that any thread may run: for each
 * body `i` of the batch, check its pose `poses[7i .. 7i+6]` (finite numbers, a unit quaternion,
 * a finite displacement from the body's current pose) and compute its tight box and its
 * broad-phase box (the tight box grown by half the prediction distance and the rounding pad),
 * (the tight box written as 6 doubles from `boxes[6i]`). The arithmetic is the world's own (`computeBoxes`
 * of src/world/collision-world.ts), so every thread gives bitwise the same boxes.
 *
 * A chunk does not throw: it stops at the first body it cannot handle here — a bad value, an
 * AABB out of range, a half-space (whose broad-phase box the world leaves as it was), a body
 * without a shape — and reports failure; the world then runs its own first pass on the calling
 * thread, which throws the error one thread throws, or handles the half-space.
 */

import type { BulkMoveTarget } from "../broadphase/broad-phase.js";
import { DISPLACEMENT_MARGIN_SCALE } from "../broadphase/spatial-hash.js";
import {
  UNIT_QUATERNION_TOLERANCE,
  WORLD_AABB_ROUNDING_PAD,
  WORLD_MAX_COORDINATE,
} from "../constants.js";
import * as aabbm from "../math/aabb.js";
import * as iso from "../math/isometry.js";
import type { Vec3 } from "../math/vec3.js";
import { aabbShapeOfType } from "../shapes/index.js";
import { isUnboundedType } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { KIND_STATIC } from "./body-kinds.js";

/** Bodies per chunk of the parallel first pass of `setPoses`. */
export const POSE_BOXES_CHUNK = 2048;

/**
 * Doubles per body of {@link PoseBoxesJob.boxes}: the tight box's min xyz, max xyz. The second
 * pass grows it into the broad-phase box again (the first pass's arithmetic, so bitwise its
 * box): 12 doubles a body, both boxes, were 4.8 MB of fresh pages on the first `setPoses` of
 * 50,000 bodies.
 */
export const POSE_BOX_STRIDE = 6;

/** Chunk status: not done yet. */
export const POSE_CHUNK_PENDING = -1;
/** Chunk status: every body done. */
export const POSE_CHUNK_DONE = 0;
/** Chunk status: stopped at a body the world must handle on the calling thread. */
export const POSE_CHUNK_FAILED = 1;

/**
 * The arrays of one parallel first pass of `setPoses` (shared memory when run on workers), and
 * of its parallel second pass (`applyPoseChunk`: the fields from `aabb` on).
 */
export interface PoseBoxesJob extends BulkMoveTarget {
  /** The new poses, 7 doubles per body of the batch. */
  poses: Float64Array;
  /** The slot of each body of the batch (the caller resolved the handles). */
  slots: Int32Array;
  /** Bodies in the batch. */
  count: number;
  /** Bodies per chunk (a positive integer). */
  chunkSize: number;
  /** The world's current poses, 7 doubles per slot (read only). */
  pose: Float64Array;
  /** Half the world's prediction distance. */
  halfPrediction: number;
  /** Output: `POSE_BOX_STRIDE` doubles per body of the batch. */
  boxes: Float64Array;
  /** Per chunk: `POSE_CHUNK_PENDING` until done, then DONE or FAILED (atomic store). */
  status: Int32Array;
  /** Second pass: the world's tight boxes by slot, 6 doubles (written). */
  aabb: Float64Array;
  /** Second pass: the world's broad-phase boxes by slot, 6 doubles (written). */
  bpBox: Float64Array;
  /** Second pass: kind id by slot (a `KIND_STATIC` body is not in the broad phase). */
  kind: Uint8Array;
  /** Second pass, output by body of the batch: 1 when its box left its fat box, else 0. */
  left: Uint8Array;
}

/** A poses job with empty arrays (set per job). */
export function emptyPoseBoxesJob(chunkSize: number): PoseBoxesJob {
  const f = new Float64Array(0);
  const u = new Uint8Array(0);
  return {
    poses: f,
    slots: new Int32Array(0),
    count: 0,
    chunkSize,
    pose: f,
    halfPrediction: 0,
    boxes: f,
    status: new Int32Array(0),
    aabb: f,
    bpBox: f,
    kind: u,
    left: u,
    gridBox: f,
    fat: f,
    pad: f,
    grid: 1,
  };
}

/** Number of chunks of `job` (at least 1). */
export function poseBoxesChunks(job: PoseBoxesJob): number {
  return Math.max(1, Math.ceil(job.count / job.chunkSize));
}

const scratchPose = iso.identity();
const scratchBox = aabbm.empty();

/**
 * Runs chunk `c` of `job` (module docs) with `shapes` = the shape of each slot, and publishes
 * its status (an atomic store, after which its boxes are visible to every thread).
 */
export function poseBoxesChunk(
  job: PoseBoxesJob,
  shapes: readonly (Shape | undefined)[],
  c: number,
): void {
  const { poses, slots, pose, boxes } = job;
  const hp = job.halfPrediction;
  const end = Math.min(job.count, (c + 1) * job.chunkSize);
  const p = scratchPose;
  const t = p.translation;
  const r = p.rotation;
  const box = scratchBox;
  let status = POSE_CHUNK_DONE;
  for (let i = c * job.chunkSize; i < end; i++) {
    const o = 7 * i;
    const tx = poses[o];
    const ty = poses[o + 1];
    const tz = poses[o + 2];
    const qx = poses[o + 3];
    const qy = poses[o + 4];
    const qz = poses[o + 5];
    const qw = poses[o + 6];
    // NaN and ±Infinity fail here (x − x is NaN for both).
    const finite = tx - tx + (ty - ty) + (tz - tz) + (qx - qx) + (qy - qy) + (qz - qz) + (qw - qw);
    if (finite !== 0) {
      status = POSE_CHUNK_FAILED;
      break;
    }
    const len2 = qx * qx + qy * qy + qz * qz + qw * qw;
    if (!(Math.abs(Math.sqrt(len2) - 1) <= UNIT_QUATERNION_TOLERANCE)) {
      status = POSE_CHUNK_FAILED;
      break;
    }
    const slot = slots[i];
    const q = 7 * slot;
    const d = tx - pose[q] + (ty - pose[q + 1]) + (tz - pose[q + 2]);
    const shape = shapes[slot];
    if (d - d !== 0 || shape === undefined || isUnboundedType(shape.type)) {
      status = POSE_CHUNK_FAILED;
      break;
    }
    t.x = tx;
    t.y = ty;
    t.z = tz;
    r.x = qx;
    r.y = qy;
    r.z = qz;
    r.w = qw;
    // The box of the pose stored: an accepted quaternion normalised (docs/FORMATS.md).
    iso.unitPose(p, p);
    aabbShapeOfType(box, shape.type, shape, p);
    const mn = box.min;
    const mx = box.max;
    const big = Math.max(
      Math.abs(mn.x),
      Math.abs(mn.y),
      Math.abs(mn.z),
      Math.abs(mx.x),
      Math.abs(mx.y),
      Math.abs(mx.z),
    );
    const h = hp + WORLD_AABB_ROUNDING_PAD * big;
    const k = POSE_BOX_STRIDE * i;
    boxes[k] = mn.x;
    boxes[k + 1] = mn.y;
    boxes[k + 2] = mn.z;
    boxes[k + 3] = mx.x;
    boxes[k + 4] = mx.y;
    boxes[k + 5] = mx.z;
    const b0 = mn.x - h;
    const b1 = mn.y - h;
    const b2 = mn.z - h;
    const b3 = mx.x + h;
    const b4 = mx.y + h;
    const b5 = mx.z + h;
    if (!boxWithinBound(b0, b1, b2, b3, b4, b5)) {
      status = POSE_CHUNK_FAILED;
      break;
    }
  }
  Atomics.store(job.status, c, status);
}

/**
 * Chunk `c` of the second pass of `setPoses` on threads (every body of the batch passed the
 * first pass, and no slot appears twice): writes each body's pose, tight box and broad-phase
 * box, and moves its broad-phase box as the grid's `moveFromArrays` does (the fat box test, the
 * pad of a box that left it, flagged in `left` for the caller to put in the move buffer, in
 * order). Publishes `POSE_CHUNK_DONE` in `status[c]`. Bitwise the serial pass's writes.
 */
export function applyPoseChunk(job: PoseBoxesJob, c: number): void {
  const { poses, slots, pose, boxes, aabb, bpBox, kind, left, gridBox, fat, pad } = job;
  const built = job.grid === 2;
  const hp = job.halfPrediction;
  const end = Math.min(job.count, (c + 1) * job.chunkSize);
  for (let i = c * job.chunkSize; i < end; i++) {
    const slot = slots[i];
    const o = 7 * i;
    const kk = POSE_BOX_STRIDE * i;
    const q = 7 * slot;
    const s6 = 6 * slot;
    // The broad-phase box, grown from the tight box as poseBoxesChunk grew it.
    const big = Math.max(
      Math.abs(boxes[kk]),
      Math.abs(boxes[kk + 1]),
      Math.abs(boxes[kk + 2]),
      Math.abs(boxes[kk + 3]),
      Math.abs(boxes[kk + 4]),
      Math.abs(boxes[kk + 5]),
    );
    const h = hp + WORLD_AABB_ROUNDING_PAD * big;
    const x0 = boxes[kk] - h;
    const y0 = boxes[kk + 1] - h;
    const z0 = boxes[kk + 2] - h;
    const x1 = boxes[kk + 3] + h;
    const y1 = boxes[kk + 4] + h;
    const z1 = boxes[kk + 5] + h;
    let out = 0;
    if (kind[slot] !== KIND_STATIC) {
      gridBox[s6] = x0;
      gridBox[s6 + 1] = y0;
      gridBox[s6 + 2] = z0;
      gridBox[s6 + 3] = x1;
      gridBox[s6 + 4] = y1;
      gridBox[s6 + 5] = z1;
      if (
        built &&
        (x0 < fat[s6] ||
          y0 < fat[s6 + 1] ||
          z0 < fat[s6 + 2] ||
          x1 > fat[s6 + 3] ||
          y1 > fat[s6 + 4] ||
          z1 > fat[s6 + 5])
      ) {
        let d = Math.max(
          Math.abs(poses[o] - pose[q]),
          Math.abs(poses[o + 1] - pose[q + 1]),
          Math.abs(poses[o + 2] - pose[q + 2]),
        );
        if (!Number.isFinite(d)) d = 0;
        pad[slot] = DISPLACEMENT_MARGIN_SCALE * d;
        out = 1;
      }
    }
    left[i] = out;
    bpBox[s6] = x0;
    bpBox[s6 + 1] = y0;
    bpBox[s6 + 2] = z0;
    bpBox[s6 + 3] = x1;
    bpBox[s6 + 4] = y1;
    bpBox[s6 + 5] = z1;
    for (let j = 0; j < 7; j++) pose[q + j] = poses[o + j];
    iso.unitQuatAt(pose, q + 3);
    for (let j = 0; j < 6; j++) aabb[s6 + j] = boxes[kk + j];
  }
  Atomics.store(job.status, c, POSE_CHUNK_DONE);
}

/**
 * Runs the chunks of the first pass of `setPoses` over threads: a parallel executor
 * (`WorkerExecutor` of `collide/parallel`) implements it.
 */
export interface PoseBoxesRunner {
  /**
   * Runs every chunk `0 .. chunks − 1` of `job` with `poseBoxesChunk` on any thread in any
   * order, the slots' shapes being `shapes[0 .. slotCount)` (`shapesVersion` as in
   * `NarrowPhaseInput`), and returns when all are done.
   */
  runPoseBoxes(
    job: PoseBoxesJob,
    chunks: number,
    shapes: readonly (Shape | undefined)[],
    slotCount: number,
    shapesVersion: number,
  ): void;
  /**
   * Optional: runs every chunk `0 .. chunks − 1` of the second pass with `applyPoseChunk` on
   * any thread in any order (every array of `job` in shared memory) and returns when all are done.
   */
  runPoseApply?(job: PoseBoxesJob, chunks: number): void;
}

/**
 * True when every coordinate of a broad-phase box lies within ±`WORLD_MAX_COORDINATE` (false for
 * NaN): the one test of the serial (collision-world.ts) and threaded passes, so both refuse the
 * same poses.
 */
export function boxWithinBound(
  b0: number,
  b1: number,
  b2: number,
  b3: number,
  b4: number,
  b5: number,
): boolean {
  const m = WORLD_MAX_COORDINATE;
  return (
    Math.abs(b0) <= m &&
    Math.abs(b1) <= m &&
    Math.abs(b2) <= m &&
    Math.abs(b3) <= m &&
    Math.abs(b4) <= m &&
    Math.abs(b5) <= m
  );
}

/**
 * {@link boxWithinBound} of the box `[min, max]`, given as vectors (the serial `setPose` path:
 * six doubles passed to a call V8 does not inline would be boxed).
 */
export function vecsWithinBound(min: Vec3, max: Vec3): boolean {
  const m = WORLD_MAX_COORDINATE;
  return (
    Math.abs(min.x) <= m &&
    Math.abs(min.y) <= m &&
    Math.abs(min.z) <= m &&
    Math.abs(max.x) <= m &&
    Math.abs(max.y) <= m &&
    Math.abs(max.z) <= m
  );
}
