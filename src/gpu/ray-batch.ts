/**
 * GPU batch ray casts against a static set of shapes — spheres, cuboids, capsules and triangle
 * meshes — with the closest hit per ray: the answers of the CPU's world ray cast
 * (`castRayClosest`, src/world/ray-cast.ts, solid) over the same shapes.
 *
 * The host builds once, in f64, a BVH over the primitives (a sphere, a cuboid, a capsule's
 * bounding box, each triangle of each mesh in world space), relative to the scene's centre (so a
 * scene far from the origin keeps its f32 precision), and uploads it. Per batch it uploads the
 * rays (32 bytes each) with each ray's error bound `eta = GPU_RAY_RELATIVE_ERROR · (L + |o − c|)`
 * (L the scene's radius, c its centre), runs one kernel (src/gpu/ray-batch-wgsl.ts) and reads back
 * 16 bytes per ray. The kernel's answer is kept when its best hit is sure (the ray hits the shape
 * shrunk by `eta`) and no other primitive's earliest possible entry (the shape grown by `eta`)
 * comes before the best hit's latest possible time; the hit (shape index) is then the CPU's, and
 * `toi` is the kernel's f32 value, within the stated error `toiError`. Every other ray — grazing,
 * through shared mesh edges, ties, capsules (tested on the GPU only through their bounding box) —
 * is cast on the CPU, whose `toi` it then reports exactly.
 */
import { invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as iso from "../math/isometry.js";
import * as quat from "../math/quat.js";
import * as vec3 from "../math/vec3.js";
import type { Shape } from "../shapes/shape.js";
import { ShapeType } from "../shapes/shape.js";
import { CollisionWorld } from "../world/collision-world.js";
import { type BodyHandle, handleSlot } from "../world/handles.js";
import { castRayClosest } from "../world/ray-cast.js";
import { checkFactory, GpuHost, type GpuOptions } from "./device.js";
import { roundDown, roundUp } from "./f32.js";
import {
  F32_NONE,
  PRIM_BOUND_ONLY,
  PRIM_BOX,
  PRIM_SPHERE,
  PRIM_TRIANGLE,
  RAY_STACK_DEPTH,
  RAY_WGSL,
} from "./ray-batch-wgsl.js";

/**
 * The kernel's error bound on lengths, relative to the ray's scale (scene radius plus the ray
 * origin's distance from the scene centre), unitless: 2^−16 (256 f32 unit roundoffs). Shapes
 * are grown and shrunk by this much to bracket each entry time; it covers the rounding of the
 * inputs to f32 and the few dozen f32 operations of each test with a wide margin.
 */
export const GPU_RAY_RELATIVE_ERROR = 2 ** -16;

/** Primitives per BVH leaf. */
const LEAF_SIZE = 4;
const PRIM_FLOATS = 16;
const NODE_FLOATS = 8;

/** The static scene of a ray caster: shapes with world poses. */
export interface GpuRayScene {
  /** Spheres, cuboids, capsules and triangle meshes. */
  shapes: readonly Shape[];
  /** World pose of each shape. */
  poses: readonly Isometry[];
}

/** The answers of one batch, index r per ray (arrays reused by the next call of the same size). */
export interface GpuRayHits {
  /** Number of rays. */
  count: number;
  /** Index of the closest shape hit, or −1: always the CPU ray cast's. */
  hit: Int32Array;
  /** Time of impact in multiples of the ray's direction (0 for a miss). */
  toi: Float64Array;
  /** Bound on |toi − CPU toi| for rays the GPU resolved; 0 for those the CPU resolved. */
  toiError: Float64Array;
  /** 0 = resolved by the GPU, 1 = by the CPU. */
  resolvedBy: Uint8Array;
  /** Rays the CPU resolved. */
  cpuRays: number;
}

interface Built {
  prims: Float32Array<ArrayBuffer>;
  owner: Int32Array;
  nodes: Float32Array<ArrayBuffer>;
  center: vec3.Vec3;
  radius: number;
}

/** Builds the primitive list and the BVH (median split on the longest axis, depth-first). */
function build(scene: GpuRayScene): Built {
  const { shapes, poses } = scene;
  const pr: number[] = [];
  const owner: number[] = [];
  const boxes: number[] = [];
  const col = vec3.create();
  const p = vec3.create();
  const addBox = (mn: number[], mx: number[]) => boxes.push(...mn, ...mx);
  for (let s = 0; s < shapes.length; s++) {
    const sh = shapes[s];
    const pose = poses[s];
    const t = pose.translation;
    if (sh.type === ShapeType.Sphere) {
      pr.push(t.x, t.y, t.z, PRIM_SPHERE, sh.radius, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      owner.push(s);
      const r = sh.radius;
      addBox([t.x - r, t.y - r, t.z - r], [t.x + r, t.y + r, t.z + r]);
    } else if (sh.type === ShapeType.Cuboid || sh.type === ShapeType.Capsule) {
      // An oriented box: the cuboid, or the capsule's local bounding box.
      let h: vec3.Vec3;
      const c = vec3.create();
      if (sh.type === ShapeType.Cuboid) {
        h = sh.halfExtents;
      } else {
        const r = sh.radius;
        h = vec3.create(
          0.5 * Math.abs(sh.a.x - sh.b.x) + r,
          0.5 * Math.abs(sh.a.y - sh.b.y) + r,
          0.5 * Math.abs(sh.a.z - sh.b.z) + r,
        );
        vec3.set(c, 0.5 * (sh.a.x + sh.b.x), 0.5 * (sh.a.y + sh.b.y), 0.5 * (sh.a.z + sh.b.z));
      }
      iso.transformPoint(p, pose, c);
      const rec = [p.x, p.y, p.z, sh.type === ShapeType.Cuboid ? PRIM_BOX : PRIM_BOUND_ONLY];
      const ext = [0, 0, 0];
      const axes = [vec3.create(1, 0, 0), vec3.create(0, 1, 0), vec3.create(0, 0, 1)];
      const hv = [h.x, h.y, h.z];
      for (let k = 0; k < 3; k++) {
        quat.rotate(col, pose.rotation, axes[k]);
        rec.push(col.x, col.y, col.z, hv[k]);
        ext[0] += Math.abs(col.x) * hv[k];
        ext[1] += Math.abs(col.y) * hv[k];
        ext[2] += Math.abs(col.z) * hv[k];
      }
      pr.push(...rec);
      owner.push(s);
      addBox(
        [p.x - ext[0], p.y - ext[1], p.z - ext[2]],
        [p.x + ext[0], p.y + ext[1], p.z + ext[2]],
      );
    } else if (sh.type === ShapeType.TriangleMesh) {
      const v = sh.vertices;
      const idx = sh.indices;
      const w = new Float64Array(v.length);
      for (let i = 0; i < v.length; i += 3) {
        vec3.set(col, v[i], v[i + 1], v[i + 2]);
        iso.transformPoint(p, pose, col);
        w[i] = p.x;
        w[i + 1] = p.y;
        w[i + 2] = p.z;
      }
      for (let f = 0; f < idx.length; f += 3) {
        const a = 3 * idx[f];
        const b = 3 * idx[f + 1];
        const c = 3 * idx[f + 2];
        pr.push(w[a], w[a + 1], w[a + 2], PRIM_TRIANGLE, w[b], w[b + 1], w[b + 2], 0);
        pr.push(w[c], w[c + 1], w[c + 2], 0, 0, 0, 0, 0);
        owner.push(s);
        addBox(
          [
            Math.min(w[a], w[b], w[c]),
            Math.min(w[a + 1], w[b + 1], w[c + 1]),
            Math.min(w[a + 2], w[b + 2], w[c + 2]),
          ],
          [
            Math.max(w[a], w[b], w[c]),
            Math.max(w[a + 1], w[b + 1], w[c + 1]),
            Math.max(w[a + 2], w[b + 2], w[c + 2]),
          ],
        );
      }
    } else {
      invalidValue(
        `scene.shapes[${s}].type`,
        sh?.type,
        "must be a sphere, cuboid, capsule or triangle mesh for GPU ray casts",
      );
    }
  }
  const n = owner.length;
  // Scene centre and radius.
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], boxes[6 * i + k]);
      hi[k] = Math.max(hi[k], boxes[6 * i + 3 + k]);
    }
  }
  const center =
    n > 0
      ? vec3.create(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]))
      : vec3.create();
  const radius = n > 0 ? 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) : 0;
  const pad = GPU_RAY_RELATIVE_ERROR * radius;
  // BVH over primitive order `order`, rewritten in place so leaves are contiguous.
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const cent = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) cent[3 * i + k] = 0.5 * (boxes[6 * i + k] + boxes[6 * i + 3 + k]);
  }
  const nodes: number[] = [];
  const rec = (start: number, end: number, depth: number): void => {
    const me = nodes.length / NODE_FLOATS;
    const mn = [Infinity, Infinity, Infinity];
    const mx = [-Infinity, -Infinity, -Infinity];
    const cmn = [Infinity, Infinity, Infinity];
    const cmx = [-Infinity, -Infinity, -Infinity];
    for (let i = start; i < end; i++) {
      const q = order[i];
      for (let k = 0; k < 3; k++) {
        mn[k] = Math.min(mn[k], boxes[6 * q + k]);
        mx[k] = Math.max(mx[k], boxes[6 * q + 3 + k]);
        cmn[k] = Math.min(cmn[k], cent[3 * q + k]);
        cmx[k] = Math.max(cmx[k], cent[3 * q + k]);
      }
    }
    nodes.push(mn[0] - center.x - pad, mn[1] - center.y - pad, mn[2] - center.z - pad, 0);
    nodes.push(mx[0] - center.x + pad, mx[1] - center.y + pad, mx[2] - center.z + pad, 0);
    if (end - start <= LEAF_SIZE || depth >= RAY_STACK_DEPTH - 3) {
      nodes[me * NODE_FLOATS + 3] = start;
      nodes[me * NODE_FLOATS + 7] = end - start;
      return;
    }
    let axis = 0;
    if (cmx[1] - cmn[1] > cmx[axis] - cmn[axis]) axis = 1;
    if (cmx[2] - cmn[2] > cmx[axis] - cmn[axis]) axis = 2;
    const part = Array.from(order.subarray(start, end)).sort(
      (a, b) => cent[3 * a + axis] - cent[3 * b + axis] || a - b,
    );
    order.set(part, start);
    const mid = (start + end) >> 1;
    rec(start, mid, depth + 1);
    nodes[me * NODE_FLOATS + 3] = nodes.length / NODE_FLOATS;
    nodes[me * NODE_FLOATS + 7] = 0;
    rec(mid, end, depth + 1);
  };
  if (n > 0) rec(0, n, 0);
  else nodes.push(1, 1, 1, 0, -1, -1, -1, 0); // an empty node no ray enters
  // Primitives in leaf order, relative to the centre, rounded to f32 (boxes outward).
  const prims = new Float32Array(PRIM_FLOATS * Math.max(1, n));
  const ownerOut = new Int32Array(Math.max(1, n));
  for (let i = 0; i < n; i++) {
    const q = order[i];
    const src = PRIM_FLOATS * q;
    const dst = PRIM_FLOATS * i;
    for (let k = 0; k < PRIM_FLOATS; k++) prims[dst + k] = pr[src + k];
    const kind = pr[src + 3];
    const shift = (j: number) => {
      prims[dst + j] = pr[src + j] - center.x;
      prims[dst + j + 1] = pr[src + j + 1] - center.y;
      prims[dst + j + 2] = pr[src + j + 2] - center.z;
    };
    shift(0);
    if (kind === PRIM_TRIANGLE) {
      shift(4);
      shift(8);
    }
    ownerOut[i] = owner[q];
  }
  const nodeArr = new Float32Array(nodes.length);
  const nodeBits = new Uint32Array(nodeArr.buffer);
  for (let i = 0; i < nodes.length; i += NODE_FLOATS) {
    for (let k = 0; k < 3; k++) {
      nodeArr[i + k] = roundDown(nodes[i + k]);
      nodeArr[i + 4 + k] = roundUp(nodes[i + 4 + k]);
    }
    nodeBits[i + 3] = nodes[i + 3];
    nodeBits[i + 7] = nodes[i + 7];
  }
  return { prims, owner: ownerOut, nodes: nodeArr, center, radius };
}

/**
 * GPU batch ray casts against a static scene (see the module docs). Made by
 * {@link createGpuRayCaster}; buffers grow to the largest batch and are reused.
 */
export class GpuRayCaster extends GpuHost {
  private readonly pipe: GPUComputePipeline;
  private readonly primBuf: GPUBuffer;
  private readonly nodeBuf: GPUBuffer;
  private readonly owner: Int32Array;
  private readonly center: vec3.Vec3;
  private readonly radius: number;
  /** The CPU twin: the shapes as static bodies of a world (its ray cast is the oracle). */
  private readonly world = new CollisionWorld({ broadphase: "tree" });
  private capacity = 0;
  private rayBuf: GPUBuffer | null = null;
  private outBuf: GPUBuffer | null = null;
  private readBuf: GPUBuffer | null = null;
  private group: GPUBindGroup | null = null;
  private host = new Float32Array(0);
  private readonly slotToShape: Int32Array;
  private out: GpuRayHits = {
    count: 0,
    hit: new Int32Array(0),
    toi: new Float64Array(0),
    toiError: new Float64Array(0),
    resolvedBy: new Uint8Array(0),
    cpuRays: 0,
  };
  private readonly o = vec3.create();
  private readonly d = vec3.create();

  /** Use {@link createGpuRayCaster}. */
  constructor(device: GPUDevice, scene: GpuRayScene, options: GpuOptions) {
    super(device, options, "GPU ray batch");
    const { shapes, poses } = scene;
    if (!Array.isArray(shapes) || !Array.isArray(poses) || shapes.length !== poses.length) {
      invalidValue("scene.poses", poses?.length, "must be an array as long as scene.shapes");
    }
    const b = build(scene);
    this.owner = b.owner;
    this.center = b.center;
    this.radius = b.radius;
    this.slotToShape = new Int32Array(shapes.length);
    for (let s = 0; s < shapes.length; s++) {
      const h = this.world.addBody({ shape: shapes[s], pose: poses[s] });
      this.slotToShape[handleSlot(h as BodyHandle)] = s;
    }
    const prims = `${b.owner.length} primitives`;
    this.primBuf = this.buffer("input", 4 * b.prims.length, prims);
    this.nodeBuf = this.buffer("input", 4 * b.nodes.length, prims);
    this.pipe = this.pipeline(RAY_WGSL, "collide ray batch");
    device.queue.writeBuffer(this.primBuf, 0, b.prims);
    device.queue.writeBuffer(this.nodeBuf, 0, b.nodes);
  }

  /**
   * The closest hit of every ray `rays[6r .. 6r+5] = (ox, oy, oz, dx, dy, dz)` (world frame,
   * `dir` need not be unit; toi in multiples of it) over `t ∈ [0, maxToi]`, solid (a ray starting
   * inside a shape hits it at 0). Throws `CollideError` for a non-finite value, a zero direction
   * or a negative `maxToi`; rejects with `CollideError` when the device is lost or a buffer
   * exceeds a device limit (naming it), unless `fallback` is `"cpu"`.
   */
  async castRays(rays: Float64Array, maxToi = Number.POSITIVE_INFINITY): Promise<GpuRayHits> {
    if (!(rays instanceof Float64Array) || rays.length % 6 !== 0) {
      invalidValue("rays", rays?.length, "must be a Float64Array of 6 numbers per ray");
    }
    if (typeof maxToi !== "number" || Number.isNaN(maxToi) || maxToi < 0) {
      invalidValue("maxToi", maxToi, "must be a number >= 0 (Infinity allowed)");
    }
    const count = rays.length / 6;
    for (let r = 0; r < count; r++) {
      for (let k = 0; k < 6; k++) {
        if (!Number.isFinite(rays[6 * r + k]))
          invalidValue(`rays[${6 * r + k}]`, rays[6 * r + k], "must be finite");
      }
      if (rays[6 * r + 3] === 0 && rays[6 * r + 4] === 0 && rays[6 * r + 5] === 0) {
        invalidValue(`rays[${6 * r + 3}]`, 0, "ray direction must not be zero");
      }
    }
    return this.run(
      "castRays",
      () => this.prepareOut(count),
      () => this.runGpu(rays, maxToi, count),
      () => this.allOnCpu(rays, maxToi),
    );
  }

  private prepareOut(count: number): void {
    const o = this.out;
    if (o.hit.length < count) {
      o.hit = new Int32Array(count);
      o.toi = new Float64Array(count);
      o.toiError = new Float64Array(count);
      o.resolvedBy = new Uint8Array(count);
    }
    o.count = count;
    o.cpuRays = 0;
  }

  private allOnCpu(rays: Float64Array, maxToi: number): GpuRayHits {
    for (let r = 0; r < this.out.count; r++) this.castOnCpu(rays, maxToi, r);
    return this.out;
  }

  private castOnCpu(rays: Float64Array, maxToi: number, r: number): void {
    const o = this.out;
    vec3.set(this.o, rays[6 * r], rays[6 * r + 1], rays[6 * r + 2]);
    vec3.set(this.d, rays[6 * r + 3], rays[6 * r + 4], rays[6 * r + 5]);
    const h = castRayClosest(this.world, this.o, this.d, maxToi);
    o.resolvedBy[r] = 1;
    o.cpuRays++;
    o.toiError[r] = 0;
    if (h === null) {
      o.hit[r] = -1;
      o.toi[r] = 0;
    } else {
      o.hit[r] = this.slotToShape[handleSlot(h.handle)];
      o.toi[r] = h.toi;
    }
  }

  private async runGpu(rays: Float64Array, maxToi: number, count: number): Promise<GpuRayHits> {
    const o = this.out;
    if (count === 0) {
      await this.confirmAlive();
      return o;
    }
    this.ensure(count);
    const h = this.host;
    const c = this.center;
    const tmax = Math.min(maxToi, F32_NONE / 4);
    for (let r = 0; r < count; r++) {
      const ox = rays[6 * r] - c.x;
      const oy = rays[6 * r + 1] - c.y;
      const oz = rays[6 * r + 2] - c.z;
      const k = 8 * r;
      h[k] = ox;
      h[k + 1] = oy;
      h[k + 2] = oz;
      h[k + 3] = GPU_RAY_RELATIVE_ERROR * (this.radius + Math.hypot(ox, oy, oz));
      h[k + 4] = rays[6 * r + 3];
      h[k + 5] = rays[6 * r + 4];
      h[k + 6] = rays[6 * r + 5];
      h[k + 7] = tmax;
    }
    this.device.queue.writeBuffer(this.rayBuf as GPUBuffer, 0, h, 0, 8 * count);
    const read = this.readBuf as GPUBuffer;
    await this.runKernel(this.pipe, this.group, count, read, [
      [this.outBuf as GPUBuffer, 0, 16 * count],
    ]);
    const range = read.getMappedRange(0, 16 * count);
    const f = new Float32Array(range);
    const u = new Uint32Array(range);
    for (let r = 0; r < count; r++) {
      const best = f[4 * r];
      const err = f[4 * r + 1];
      const comp = f[4 * r + 2];
      const idx = u[4 * r + 3];
      const noHit = idx === 0xffffffff;
      if (noHit && comp >= F32_NONE) {
        o.hit[r] = -1;
        o.toi[r] = 0;
        o.toiError[r] = 0;
        o.resolvedBy[r] = 0;
      } else if (!noHit && comp > best + err && best + err <= maxToi) {
        o.hit[r] = this.owner[idx];
        o.toi[r] = best;
        o.toiError[r] = err;
        o.resolvedBy[r] = 0;
      } else {
        this.castOnCpu(rays, maxToi, r);
      }
    }
    read.unmap();
    return o;
  }

  private ensure(count: number): void {
    if (count <= this.capacity) return;
    const what = `${count} rays`;
    const cap = this.grow(this.capacity, count, 1024, what);
    this.destroyAll(this.batchBuffers());
    this.rayBuf = this.buffer("input", 32 * cap, what);
    this.outBuf = this.buffer("output", 16 * cap, what);
    this.readBuf = this.buffer("readback", 16 * cap, what);
    this.host = new Float32Array(8 * cap);
    this.capacity = cap;
    this.group = this.bindGroup(this.pipe, [
      this.params,
      this.rayBuf,
      this.primBuf,
      this.nodeBuf,
      this.outBuf,
    ]);
  }

  private batchBuffers(): (GPUBuffer | null)[] {
    return [this.rayBuf, this.outBuf, this.readBuf];
  }

  /** Frees the GPU buffers (the device is the caller's). */
  destroy(): void {
    this.destroyAll([...this.batchBuffers(), this.primBuf, this.nodeBuf, this.params]);
    this.capacity = 0;
  }
}

/**
 * GPU batch ray casts against the static `scene` on the caller's `device` (see
 * {@link GpuRayCaster}). Throws `CollideError` for a shape other than a sphere, cuboid, capsule or
 * triangle mesh (naming `scene.shapes[i].type`), a bad pose, a device that is not a `GPUDevice`
 * or lacks a limit, or a scene too large for `maxStorageBufferBindingSize`.
 */
export function createGpuRayCaster(
  device: GPUDevice,
  scene: GpuRayScene,
  options?: Partial<GpuOptions>,
): GpuRayCaster {
  return new GpuRayCaster(device, scene, checkFactory(device, options));
}
