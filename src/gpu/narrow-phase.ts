/**
 * The GPU batch narrow phase: for many pairs of spheres, cuboids and capsules at once, whether
 * each pair intersects (touching counts), with its depth and normal — the answers of the CPU's
 * `contact` query (src/query/contact.ts) at prediction 0.
 *
 * The host expresses each pair in shape A's frame in f64 (so scenes far from the origin lose
 * nothing), rounds to f32 and uploads the records in one write; the kernel
 * (src/gpu/narrow-phase-wgsl.ts) bounds the signed distance and decides only pairs that are clear
 * beyond the pair's error bound `eps = GPU_NARROW_RELATIVE_ERROR · S` (S = distance between the
 * shapes' origins plus both bounding radii about their origins). The host then settles, with the
 * CPU `contact` routine in f64, every pair the GPU left ambiguous (near touching, degenerate axes)
 * and every intersecting pair whose contact is the CPU's to give (boxes; a core inside the other
 * shape). So `intersects` is always the CPU's; `distance` and `normal` are the CPU's for every
 * pair with `resolvedBy = CPU`, and the kernel's f32 values (within `eps` of the CPU's distance)
 * for sphere and capsule pairs resolved on the GPU.
 */
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import { type Contact, makeContact } from "../narrowphase/contact.js";
import { contact } from "../query/contact.js";
import { boundingRadiusOf, MAX_SHAPE_TYPES } from "../shapes/registry.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { bufferBytes, checkFactory, GpuHost, type GpuOptions } from "./device.js";
import {
  KIND_CAPSULE_CAPSULE,
  KIND_CAPSULE_SPHERE,
  KIND_CUBOID_CAPSULE,
  KIND_CUBOID_CUBOID,
  KIND_CUBOID_SPHERE,
  KIND_SPHERE_SPHERE,
  NARROW_WGSL,
  PAIR_RECORD_VEC4,
  STATUS_AMBIGUOUS,
  STATUS_CONTACT,
  STATUS_SEPARATED,
} from "./narrow-phase-wgsl.js";

/**
 * Error bound of the kernel's signed distance relative to the pair's scale S, unitless: 2^−14
 * (1024 f32 unit roundoffs). The kernels evaluate at most a few dozen f32 operations on values of
 * magnitude ≤ S whose inputs carry one rounding each (Higham 2002, §3.1: a length or dot product
 * of n terms errs by at most about (n + 2)·u relative to the sum of magnitudes), and SAT axes are
 * trusted only when their cross product is at least 1/16 long (amplification ≤ 16); 2^−14 covers
 * that with a wide margin. Pairs within this bound of touching go to the CPU.
 */
export const GPU_NARROW_RELATIVE_ERROR = 2 ** -14;

/** Scales outside [2^−100, 2^100] are left to the CPU (f32 would underflow or overflow). */
const F32_SAFE_SCALE = 2 ** 100;

/** Who resolved a pair. */
export const RESOLVED_BY_GPU = 0;
/** The CPU routine resolved the pair (ambiguous on the GPU, or a contact the CPU gives). */
export const RESOLVED_BY_CPU = 1;

/** One batch of pairs: shapes with world poses, and pairs of indices into them. */
export interface GpuPairBatch {
  /** Spheres, cuboids and capsules. */
  shapes: readonly Shape[];
  /** World pose of each shape. */
  poses: readonly Isometry[];
  /** Index pairs `(pairs[2k], pairs[2k+1])` into `shapes`. */
  pairs: Int32Array | Uint32Array | readonly number[];
}

/** The answers for a batch, index k per pair (arrays reused by the next call of the same size). */
export interface GpuContactBatch {
  /** Number of pairs. */
  count: number;
  /** 1 when the pair touches or overlaps, else 0: always the CPU query's answer. */
  intersects: Uint8Array;
  /** Signed distance of an intersecting pair (−depth, scene units); 0 for separated pairs. */
  distance: Float64Array;
  /** Unit normal from A toward B, world frame, `normal[3k .. 3k+2]`, for intersecting pairs. */
  normal: Float64Array;
  /** {@link RESOLVED_BY_GPU} or {@link RESOLVED_BY_CPU}. */
  resolvedBy: Uint8Array;
  /** Pairs the CPU resolved. */
  cpuPairs: number;
}

const RECORD_FLOATS = 4 * PAIR_RECORD_VEC4;
const relPose = iso.identity();
const tmp = vec3.create();
const tmp2 = vec3.create();
const col = vec3.create();
const cpuContact: Contact = makeContact();
const unitX = vec3.create(1, 0, 0);
const unitY = vec3.create(0, 1, 0);
const unitZ = vec3.create(0, 0, 1);

/**
 * The kernel's rank of each shape type it answers (sphere 0, capsule 1, cuboid 2), −1 for the
 * types it leaves to the CPU: a table by type id, like the shape definitions'.
 */
const GPU_TYPE_RANK = new Int8Array(MAX_SHAPE_TYPES).fill(-1);
GPU_TYPE_RANK[ShapeType.Sphere] = 0;
GPU_TYPE_RANK[ShapeType.Capsule] = 1;
GPU_TYPE_RANK[ShapeType.Cuboid] = 2;

function typeRank(s: Shape): number {
  return GPU_TYPE_RANK[s.type];
}

/** The shape's bounding radius, from its definition (src/shapes/shape-def.ts). */
function boundingRadius(s: Shape): number {
  return boundingRadiusOf(s);
}

/**
 * The GPU batch narrow phase (see the module docs). Made by {@link createGpuNarrowPhase}; buffers
 * grow to the largest batch and are reused.
 */
export class GpuNarrowPhase extends GpuHost {
  private readonly pipe: GPUComputePipeline;
  private capacity = 0;
  private pairBuf: GPUBuffer | null = null;
  private resultBuf: GPUBuffer | null = null;
  private statusBuf: GPUBuffer | null = null;
  private readBuf: GPUBuffer | null = null;
  private group: GPUBindGroup | null = null;
  private host = new Float32Array(0);
  /** Per pair: 1 when A and B were swapped to put the larger type first. */
  private swapped = new Uint8Array(0);
  private out: GpuContactBatch = {
    count: 0,
    intersects: new Uint8Array(0),
    distance: new Float64Array(0),
    normal: new Float64Array(0),
    resolvedBy: new Uint8Array(0),
    cpuPairs: 0,
  };

  /** Use {@link createGpuNarrowPhase}. */
  constructor(device: GPUDevice, options: GpuOptions) {
    super(device, options, "GPU narrow phase");
    this.pipe = this.pipeline(NARROW_WGSL, "collide narrow phase");
  }

  /**
   * Intersects, depth and normal of every pair of `batch` (see {@link GpuContactBatch}). Throws
   * `CollideError` for a shape other than a sphere, cuboid or capsule, an index out of range, or
   * a pair of a shape with itself; rejects with `CollideError` when the device is lost or a buffer
   * exceeds a device limit (naming it), unless `fallback` is `"cpu"`. The result's arrays are
   * reused by the next call.
   */
  async contacts(batch: GpuPairBatch): Promise<GpuContactBatch> {
    const { shapes, poses, pairs } = batch;
    if (!Array.isArray(shapes) || !Array.isArray(poses) || shapes.length !== poses.length) {
      invalidValue("batch.poses", poses?.length, "must be an array as long as batch.shapes");
    }
    if (pairs.length % 2 !== 0)
      invalidValue("batch.pairs", pairs.length, "must have an even length");
    const count = pairs.length / 2;
    for (let k = 0; k < pairs.length; k++) {
      const i = pairs[k];
      if (!(Number.isInteger(i) && i >= 0 && i < shapes.length)) {
        invalidValue(
          `batch.pairs[${k}]`,
          i,
          `must be an index into batch.shapes [0, ${shapes.length})`,
        );
      }
      if (typeRank(shapes[i]) < 0) {
        invalidValue(
          `batch.shapes[${i}].type`,
          shapes[i]?.type,
          "must be a sphere, cuboid or capsule on the GPU",
        );
      }
    }
    return this.run(
      "contacts",
      () => this.prepareOut(count),
      () => this.runGpu(batch, count),
      () => this.allOnCpu(batch),
    );
  }

  private allOnCpu(batch: GpuPairBatch): GpuContactBatch {
    const o = this.out;
    o.cpuPairs = 0;
    for (let k = 0; k < o.count; k++) this.resolveOnCpu(batch, k);
    return o;
  }

  private prepareOut(count: number): void {
    const o = this.out;
    if (o.intersects.length < count) {
      o.intersects = new Uint8Array(count);
      o.distance = new Float64Array(count);
      o.normal = new Float64Array(3 * count);
      o.resolvedBy = new Uint8Array(count);
      this.swapped = new Uint8Array(count);
    }
    o.count = count;
    o.cpuPairs = 0;
  }

  /** Answers pair k with the CPU `contact` query (prediction 0). */
  private resolveOnCpu(batch: GpuPairBatch, k: number): void {
    const o = this.out;
    const ia = batch.pairs[2 * k];
    const ib = batch.pairs[2 * k + 1];
    const c = contact(
      batch.shapes[ia],
      batch.poses[ia],
      batch.shapes[ib],
      batch.poses[ib],
      0,
      cpuContact,
    );
    o.resolvedBy[k] = RESOLVED_BY_CPU;
    o.cpuPairs++;
    if (c === null) {
      o.intersects[k] = 0;
      o.distance[k] = 0;
      o.normal[3 * k] = 0;
      o.normal[3 * k + 1] = 0;
      o.normal[3 * k + 2] = 0;
    } else {
      o.intersects[k] = 1;
      o.distance[k] = c.distance;
      o.normal[3 * k] = c.normal.x;
      o.normal[3 * k + 1] = c.normal.y;
      o.normal[3 * k + 2] = c.normal.z;
    }
  }

  private async runGpu(batch: GpuPairBatch, count: number): Promise<GpuContactBatch> {
    const o = this.out;
    if (count === 0) {
      await this.confirmAlive();
      return o;
    }
    this.ensure(count);
    const far = this.pack(batch, count);
    this.device.queue.writeBuffer(
      this.pairBuf as GPUBuffer,
      0,
      this.host,
      0,
      RECORD_FLOATS * count,
    );
    const read = this.readBuf as GPUBuffer;
    await this.runKernel(this.pipe, this.group, count, read, [
      [this.resultBuf as GPUBuffer, 0, 16 * count],
      [this.statusBuf as GPUBuffer, 16 * this.capacity, 4 * count],
    ]);
    const res = new Float32Array(read.getMappedRange(0, 16 * count));
    const st = new Uint32Array(read.getMappedRange(16 * this.capacity, bufferBytes(4 * count)));
    for (let k = 0; k < count; k++) {
      const s = far[k] === 1 ? STATUS_AMBIGUOUS : st[k];
      if (s === STATUS_SEPARATED) {
        o.intersects[k] = 0;
        o.distance[k] = 0;
        o.normal[3 * k] = 0;
        o.normal[3 * k + 1] = 0;
        o.normal[3 * k + 2] = 0;
        o.resolvedBy[k] = RESOLVED_BY_GPU;
      } else if (s === STATUS_CONTACT) {
        // Normal from A's frame to the world, and back to the caller's A → B order.
        const ia = batch.pairs[2 * k + this.swapped[k]];
        const sign = this.swapped[k] === 1 ? -1 : 1;
        vec3.set(tmp, sign * res[4 * k], sign * res[4 * k + 1], sign * res[4 * k + 2]);
        quat.rotate(tmp, batch.poses[ia].rotation, tmp);
        vec3.normalize(tmp, tmp);
        o.intersects[k] = 1;
        o.distance[k] = res[4 * k + 3];
        o.normal[3 * k] = tmp.x;
        o.normal[3 * k + 1] = tmp.y;
        o.normal[3 * k + 2] = tmp.z;
        o.resolvedBy[k] = RESOLVED_BY_GPU;
      } else {
        this.resolveOnCpu(batch, k);
      }
    }
    read.unmap();
    return o;
  }

  /** Writes the f32 records in A's frame; returns a per-pair flag: 1 = left to the CPU (scale). */
  private pack(batch: GpuPairBatch, count: number): Uint8Array {
    const h = this.host;
    const far = this.farScratch(count);
    for (let k = 0; k < count; k++) {
      let ia = batch.pairs[2 * k];
      let ib = batch.pairs[2 * k + 1];
      let sa = batch.shapes[ia];
      let sb = batch.shapes[ib];
      this.swapped[k] = 0;
      if (typeRank(sb) > typeRank(sa)) {
        const t = ia;
        ia = ib;
        ib = t;
        sa = batch.shapes[ia];
        sb = batch.shapes[ib];
        this.swapped[k] = 1;
      }
      iso.invMul(relPose, batch.poses[ia], batch.poses[ib]);
      const t = relPose.translation;
      const scale = vec3.length(t) + boundingRadius(sa) + boundingRadius(sb);
      const o = RECORD_FLOATS * k;
      h.fill(0, o, o + RECORD_FLOATS);
      far[k] =
        scale > F32_SAFE_SCALE || scale < 1 / F32_SAFE_SCALE || !Number.isFinite(scale) ? 1 : 0;
      const eps = GPU_NARROW_RELATIVE_ERROR * scale;
      let kind = 0;
      // a: (half extents | 0, radius)
      if (sa.type === ShapeType.Cuboid) {
        h[o] = sa.halfExtents.x;
        h[o + 1] = sa.halfExtents.y;
        h[o + 2] = sa.halfExtents.z;
      } else if (sa.type === ShapeType.Capsule) {
        h[o + 3] = sa.radius;
        h[o + 4] = sa.a.x;
        h[o + 5] = sa.a.y;
        h[o + 6] = sa.a.z;
        h[o + 8] = sa.b.x;
        h[o + 9] = sa.b.y;
        h[o + 10] = sa.b.z;
      } else if (sa.type === ShapeType.Sphere) {
        h[o + 3] = sa.radius;
      }
      h[o + 7] = eps;
      // bt: B's origin (a capsule B: its endpoint a) in A's frame.
      if (sb.type === ShapeType.Capsule) {
        iso.transformPoint(tmp, relPose, sb.a);
        iso.transformPoint(tmp2, relPose, sb.b);
        h[o + 12] = tmp.x;
        h[o + 13] = tmp.y;
        h[o + 14] = tmp.z;
        h[o + 28] = tmp2.x - tmp.x;
        h[o + 29] = tmp2.y - tmp.y;
        h[o + 30] = tmp2.z - tmp.z;
        h[o + 31] = sb.radius;
      } else {
        h[o + 12] = t.x;
        h[o + 13] = t.y;
        h[o + 14] = t.z;
        if (sb.type === ShapeType.Cuboid) {
          const q = relPose.rotation;
          quat.rotate(col, q, unitX);
          h[o + 16] = col.x;
          h[o + 17] = col.y;
          h[o + 18] = col.z;
          quat.rotate(col, q, unitY);
          h[o + 20] = col.x;
          h[o + 21] = col.y;
          h[o + 22] = col.z;
          quat.rotate(col, q, unitZ);
          h[o + 24] = col.x;
          h[o + 25] = col.y;
          h[o + 26] = col.z;
          h[o + 28] = sb.halfExtents.x;
          h[o + 29] = sb.halfExtents.y;
          h[o + 30] = sb.halfExtents.z;
        } else if (sb.type === ShapeType.Sphere) {
          h[o + 31] = sb.radius;
        }
      }
      const ra = typeRank(sa);
      const rb = typeRank(sb);
      if (ra === 0) kind = KIND_SPHERE_SPHERE;
      else if (ra === 1) kind = rb === 0 ? KIND_CAPSULE_SPHERE : KIND_CAPSULE_CAPSULE;
      else
        kind = rb === 0 ? KIND_CUBOID_SPHERE : rb === 1 ? KIND_CUBOID_CAPSULE : KIND_CUBOID_CUBOID;
      h[o + 11] = kind;
    }
    return far;
  }

  private far = new Uint8Array(0);
  private farScratch(count: number): Uint8Array {
    if (this.far.length < count) this.far = new Uint8Array(count);
    return this.far;
  }

  private ensure(count: number): void {
    if (count <= this.capacity) return;
    const what = `${count} pairs`;
    const cap = this.grow(this.capacity, count, 1024, what);
    this.destroyAll(this.batchBuffers());
    this.pairBuf = this.buffer("input", 4 * RECORD_FLOATS * cap, what);
    this.resultBuf = this.buffer("output", 16 * cap, what);
    this.statusBuf = this.buffer("output", 4 * cap, what);
    this.readBuf = this.buffer("readback", 20 * cap, what);
    this.host = new Float32Array(RECORD_FLOATS * cap);
    this.capacity = cap;
    this.group = this.bindGroup(this.pipe, [
      this.params,
      this.pairBuf,
      this.resultBuf,
      this.statusBuf,
    ]);
  }

  private batchBuffers(): (GPUBuffer | null)[] {
    return [this.pairBuf, this.resultBuf, this.statusBuf, this.readBuf];
  }

  /** Frees the GPU buffers (the device is the caller's). */
  destroy(): void {
    this.destroyAll([...this.batchBuffers(), this.params]);
    this.capacity = 0;
  }
}

/**
 * A GPU batch narrow phase on the caller's `device` (see {@link GpuNarrowPhase}). Throws
 * `CollideError` when `device` is not a `GPUDevice` or lacks a limit the kernel needs.
 */
export function createGpuNarrowPhase(
  device: GPUDevice,
  options?: Partial<GpuOptions>,
): GpuNarrowPhase {
  return new GpuNarrowPhase(device, checkFactory(device, options));
}
