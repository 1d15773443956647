/**
 * The GPU broad phase: sweep and prune over the caller's `GPUDevice`, exact to the f64 boxes.
 *
 * Each step (`computePairsAsync`) the host rounds every tight box outward to f32 (each bound moves
 * outward by at most one f32 ulp of its magnitude, see src/gpu/f32.ts; bounds beyond ±FLT_MAX are
 * clamped, which only adds candidates) and uploads the boxes and proxy ids in one write. The GPU
 * computes sort keys, sorts them with a bitonic sort (one workgroup-memory pass per 512-element
 * block, global passes above) and sweeps the sorted list on the axis of largest spread of the box
 * centres (Ericson 2005, §7.5.1), appending every pair whose f32 boxes overlap. Comparisons of f32
 * values are exact and outward rounding only grows boxes, so the GPU's pairs are a superset of the
 * true pairs; the host reads them back in one copy and keeps those whose f64 boxes overlap
 * (`boxesOverlap`, the test of every CPU broad phase), then sorts. The result is therefore the
 * brute-force oracle's pair set, bitwise the pairs of `"grid"`.
 *
 * Queries (`queryAabb`, `castRay`) run on the host over the f64 boxes (O(n) each, as the brute-force
 * broad phase; the world switches to its query BVH once it stops changing).
 *
 * Cost per step (docs/DESIGN.md, "GPU path"): 28 bytes uploaded per body, 8 bytes read back per
 * candidate pair slot; 3 + (number of bitonic passes) kernel launches in one submission; one
 * readback (a second only when the pairs outgrow the buffer, which then grows by half again).
 */
import {
  type AabbQueryCallback,
  type BroadPhase,
  boxesOverlap,
  ProxyBoxes,
  type RayCastCallback,
} from "../broadphase/broad-phase.js";
import { BruteForceBroadPhase } from "../broadphase/brute-force.js";
import type { PairSet } from "../broadphase/pair-set.js";
import { SpatialHash } from "../broadphase/spatial-hash.js";
import { CollideError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import {
  BITONIC_GLOBAL_WGSL,
  BITONIC_LOCAL_WGSL,
  KEYS_WGSL,
  SORT_BLOCK,
  SWEEP_WGSL,
} from "./broad-phase-wgsl.js";
import {
  bufferBytes,
  checkBufferSize,
  checkDevice,
  checkGpuOptions,
  checkWorkgroups,
  DeviceWatch,
  type GpuOptions,
  lostError,
  MAP_MODE_READ,
  makeDynamicPipeline,
  makePipeline,
  UNIFORM_STRIDE,
  USAGE_COPY_DST,
  USAGE_COPY_SRC,
  USAGE_MAP_READ,
  USAGE_STORAGE,
  USAGE_UNIFORM,
  WORKGROUP_SIZE,
  workgroupsFor,
} from "./device.js";
import { roundDown, roundUp } from "./f32.js";

/** Pair slots of the first pair buffer, and the least any later one gets. */
const INITIAL_PAIR_CAPACITY = 4096;
/** The pair buffer grows to this many times the pairs found when they overflow it. */
const PAIR_GROWTH = 1.5;
/** Bytes of the header of the pair buffer (count, pad). */
const PAIR_HEADER_BYTES = 8;

/** Timings of the last GPU step, milliseconds (host clock). */
export interface GpuBroadPhaseStats {
  /** Rounding and upload of the boxes. */
  uploadMs: number;
  /** From submission to the readback being mapped (GPU work and the copy). */
  gpuMs: number;
  /** Exact f64 filtering and sorting of the candidates on the host. */
  filterMs: number;
  /** Candidate pairs the GPU reported (f32 boxes overlap). */
  candidates: number;
  /** Readbacks of the last step (1, or 2 when the pair buffer grew). */
  readbacks: number;
}

/**
 * A broad phase whose pairs are found on the GPU (see the module docs). Made by
 * {@link createGpuBroadPhase}; give it to `new CollisionWorld({ broadphase })` and step the world
 * with `await world.stepAsync()`.
 */
export class GpuBroadPhase implements BroadPhase {
  /** `"none"`: GPU failures reject; `"cpu"`: pairs are computed on the CPU instead (same set). */
  fallback: "none" | "cpu";
  /** Timings and counters of the last GPU step. */
  readonly stats: GpuBroadPhaseStats = {
    uploadMs: 0,
    gpuMs: 0,
    filterMs: 0,
    candidates: 0,
    readbacks: 0,
  };
  private readonly proxies = new ProxyBoxes();
  private readonly queries = new BruteForceBroadPhase();
  private readonly watch: DeviceWatch;
  private readonly keysPipe: GPUComputePipeline;
  private readonly globalPipe: GPUComputePipeline;
  private readonly localPipe: GPUComputePipeline;
  private readonly globalLayout: GPUBindGroupLayout;
  private readonly localLayout: GPUBindGroupLayout;
  private readonly sweepPipe: GPUComputePipeline;
  private readonly params: GPUBuffer;
  private readonly paramsHost = new Uint32Array(4);
  private bodyCapacity = 0;
  private padded = 0;
  private boxesBuf: GPUBuffer | null = null;
  private idsBuf: GPUBuffer | null = null;
  private keysBuf: GPUBuffer | null = null;
  private valsBuf: GPUBuffer | null = null;
  private stepsBuf: GPUBuffer | null = null;
  /** The sort passes for the current padded size: (k, j, uniform offset) per pass. */
  private passes: Int32Array = new Int32Array(0);
  private keysGroup: GPUBindGroup | null = null;
  private globalGroup: GPUBindGroup | null = null;
  private localGroup: GPUBindGroup | null = null;
  private sweepGroup: GPUBindGroup | null = null;
  private pairCapacity = INITIAL_PAIR_CAPACITY;
  private pairBuf: GPUBuffer | null = null;
  private readBuf: GPUBuffer | null = null;
  private boxesHost = new Float32Array(0);
  private idsHost = new Uint32Array(0);
  private cpu: SpatialHash | null = null;
  private busy = false;

  /** Use {@link createGpuBroadPhase}. */
  constructor(
    readonly device: GPUDevice,
    options: GpuOptions,
  ) {
    this.fallback = options.fallback;
    this.watch = new DeviceWatch(device);
    this.keysPipe = makePipeline(device, KEYS_WGSL, "collide broad phase keys");
    const g = makeDynamicPipeline(device, BITONIC_GLOBAL_WGSL, "collide bitonic global", 2);
    const l = makeDynamicPipeline(device, BITONIC_LOCAL_WGSL, "collide bitonic local", 2);
    this.globalPipe = g.pipeline;
    this.globalLayout = g.layout;
    this.localPipe = l.pipeline;
    this.localLayout = l.layout;
    this.sweepPipe = makePipeline(device, SWEEP_WGSL, "collide sweep");
    this.params = device.createBuffer({ size: 16, usage: USAGE_UNIFORM | USAGE_COPY_DST });
  }

  /** True unless `fallback` is `"cpu"`: a world must then be stepped with `stepAsync`. */
  get requiresAsync(): boolean {
    return this.fallback !== "cpu";
  }

  /** The device's loss reason, or null while it lives. */
  get deviceLost(): string | null {
    return this.watch.lost;
  }

  /** Number of proxies held. */
  get size(): number {
    return this.proxies.count;
  }

  /** Adds proxy `id` with tight box `[min, max]` (see {@link BroadPhase.insert}). */
  insert(id: number, min: Vec3, max: Vec3): void {
    this.proxies.add(id, min, max);
    this.queries.insert(id, min, max);
  }

  /** Gives proxy `id` its new tight box. */
  move(id: number, min: Vec3, max: Vec3, _displacement?: Vec3): void {
    this.proxies.set(id, min, max);
    this.queries.move(id, min, max);
  }

  /** Removes proxy `id`. */
  remove(id: number): void {
    this.proxies.delete(id);
    this.queries.remove(id);
  }

  /** True when proxy `id` is present. */
  has(id: number): boolean {
    return this.proxies.has(id);
  }

  /** Removes every proxy, keeping storage (host and GPU). */
  clear(): void {
    this.proxies.clear();
    this.queries.clear();
  }

  /**
   * The pairs on the CPU when `fallback` is `"cpu"` (the same set); otherwise throws
   * `CollideError`: the GPU answers asynchronously, use {@link computePairsAsync}.
   */
  computePairs(out: PairSet): PairSet {
    if (this.fallback === "cpu") return this.computePairsCpu(out);
    throw new CollideError(
      "invalid_value",
      "broadphase",
      "gpu",
      "the GPU broad phase answers asynchronously: use `await world.stepAsync()` (or computePairsAsync)",
    );
  }

  /** Reports every proxy whose box overlaps `[min, max]` (host, O(n)). */
  queryAabb(min: Vec3, max: Vec3, out: number[] | AabbQueryCallback): number {
    return this.queries.queryAabb(min, max, out);
  }

  /** Visits every proxy whose box the segment touches (host, O(n)). */
  castRay(origin: Vec3, dir: Vec3, maxToi: number, callback: RayCastCallback): number {
    return this.queries.castRay(origin, dir, maxToi, callback);
  }

  /**
   * Fills `out` with every pair whose tight boxes overlap or touch, sorted by `(lo, hi)` — the
   * brute-force set — found on the GPU (see the module docs). Rejects with `CollideError` when the
   * device is lost or a buffer exceeds a device limit (naming it), unless `fallback` is `"cpu"`
   * (then the CPU computes the same set). The boxes are read when called, before the promise settles.
   */
  async computePairsAsync(out: PairSet): Promise<PairSet> {
    if (this.busy) {
      throw new CollideError(
        "invalid_value",
        "broadphase",
        "busy",
        "computePairsAsync is already running on this GPU broad phase; await it first",
      );
    }
    if (this.fallback === "cpu" && this.watch.lost !== null) return this.computePairsCpu(out);
    this.busy = true;
    try {
      return await this.computePairsGpu(out);
    } catch (e) {
      if (this.fallback === "cpu") return this.computePairsCpu(out);
      throw e;
    } finally {
      this.busy = false;
    }
  }

  /** The CPU twin: the spatial hash over the same boxes. */
  private computePairsCpu(out: PairSet): PairSet {
    if (this.cpu === null) this.cpu = new SpatialHash();
    const cpu = this.cpu;
    cpu.clear();
    const { box, live, count } = this.proxies;
    const lo = { x: 0, y: 0, z: 0 };
    const hi = { x: 0, y: 0, z: 0 };
    for (let i = 0; i < count; i++) {
      const k = 6 * live[i];
      lo.x = box[k];
      lo.y = box[k + 1];
      lo.z = box[k + 2];
      hi.x = box[k + 3];
      hi.y = box[k + 4];
      hi.z = box[k + 5];
      cpu.insert(live[i], lo, hi);
    }
    return cpu.computePairs(out);
  }

  private async computePairsGpu(out: PairSet): Promise<PairSet> {
    this.watch.check();
    const st = this.stats;
    const t0 = performance.now();
    const n = this.proxies.count;
    if (n < 2) {
      out.clear();
      st.candidates = 0;
      st.readbacks = 0;
      return out;
    }
    this.ensureBodyBuffers(n);
    const axis = this.upload(n);
    const device = this.device;
    const p = this.paramsHost;
    p[0] = n;
    p[1] = this.padded;
    p[2] = axis;
    p[3] = this.pairCapacity;
    device.queue.writeBuffer(this.params, 0, p);
    const t1 = performance.now();
    const enc = device.createCommandEncoder();
    enc.clearBuffer(this.pairBuf as GPUBuffer, 0, PAIR_HEADER_BYTES);
    const pass = enc.beginComputePass();
    pass.setPipeline(this.keysPipe);
    pass.setBindGroup(0, this.keysGroup);
    pass.dispatchWorkgroups(workgroupsFor(this.padded));
    this.encodeSort(pass);
    pass.setPipeline(this.sweepPipe);
    pass.setBindGroup(0, this.sweepGroup);
    pass.dispatchWorkgroups(workgroupsFor(n));
    pass.end();
    let found = await this.readPairs(enc);
    st.readbacks = 1;
    if (found > this.pairCapacity) {
      // The pairs outgrew the buffer: grow it and rerun the sweep over the sorted boxes.
      this.growPairs(Math.ceil(found * PAIR_GROWTH));
      p[3] = this.pairCapacity;
      device.queue.writeBuffer(this.params, 0, p);
      const enc2 = device.createCommandEncoder();
      enc2.clearBuffer(this.pairBuf as GPUBuffer, 0, PAIR_HEADER_BYTES);
      const pass2 = enc2.beginComputePass();
      pass2.setPipeline(this.sweepPipe);
      pass2.setBindGroup(0, this.sweepGroup);
      pass2.dispatchWorkgroups(workgroupsFor(n));
      pass2.end();
      found = await this.readPairs(enc2);
      st.readbacks = 2;
    }
    const t2 = performance.now();
    this.filter(out, found);
    const t3 = performance.now();
    st.uploadMs = t1 - t0;
    st.gpuMs = t2 - t1;
    st.filterMs = t3 - t2;
    st.candidates = found;
    return out;
  }

  /** Copies the pair buffer to the readback buffer, maps it; returns the pair count. */
  private async readPairs(enc: GPUCommandEncoder): Promise<number> {
    const read = this.readBuf as GPUBuffer;
    enc.copyBufferToBuffer(this.pairBuf as GPUBuffer, 0, read, 0, read.size);
    this.device.queue.submit([enc.finish()]);
    try {
      await read.mapAsync(MAP_MODE_READ);
    } catch (e) {
      if (this.watch.lost !== null) throw lostError(this.watch.lost);
      throw new CollideError(
        "invalid_value",
        "device",
        String(e),
        `reading the GPU broad phase's pairs back failed: ${String(e)}`,
      );
    }
    const head = new Uint32Array(read.getMappedRange(0, PAIR_HEADER_BYTES));
    const found = head[0];
    if (found > this.pairCapacity) read.unmap();
    return found;
  }

  /** Keeps the candidates whose f64 boxes overlap, sorted; unmaps the readback buffer. */
  private filter(out: PairSet, found: number): void {
    const read = this.readBuf as GPUBuffer;
    out.clear();
    if (found > 0) {
      const pairs = new Uint32Array(read.getMappedRange(PAIR_HEADER_BYTES, 8 * found));
      const box = this.proxies.box;
      for (let i = 0; i < 2 * found; i += 2) {
        const a = pairs[i];
        const b = pairs[i + 1];
        if (boxesOverlap(box, 6 * a, box, 6 * b)) out.add(a, b);
      }
    }
    read.unmap();
    out.sort();
  }

  /** Rounds the boxes outward to f32 and uploads them with the ids; returns the sweep axis. */
  private upload(n: number): number {
    const { box, live } = this.proxies;
    const bh = this.boxesHost;
    const ih = this.idsHost;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let qx = 0;
    let qy = 0;
    let qz = 0;
    for (let i = 0; i < n; i++) {
      const id = live[i];
      const k = 6 * id;
      const o = 6 * i;
      ih[i] = id;
      bh[o] = roundDown(box[k]);
      bh[o + 1] = roundDown(box[k + 1]);
      bh[o + 2] = roundDown(box[k + 2]);
      bh[o + 3] = roundUp(box[k + 3]);
      bh[o + 4] = roundUp(box[k + 4]);
      bh[o + 5] = roundUp(box[k + 5]);
      const cx = 0.5 * (box[k] + box[k + 3]);
      const cy = 0.5 * (box[k + 1] + box[k + 4]);
      const cz = 0.5 * (box[k + 2] + box[k + 5]);
      sx += cx;
      sy += cy;
      sz += cz;
      qx += cx * cx;
      qy += cy * cy;
      qz += cz * cz;
    }
    const vx = qx - (sx * sx) / n;
    const vy = qy - (sy * sy) / n;
    const vz = qz - (sz * sz) / n;
    const q = this.device.queue;
    q.writeBuffer(this.boxesBuf as GPUBuffer, 0, bh, 0, 6 * n);
    q.writeBuffer(this.idsBuf as GPUBuffer, 0, ih, 0, n);
    // Largest spread; a non-finite variance (huge coordinates) falls back to x, still exact.
    if (vy > vx && vy >= vz) return 1;
    if (vz > vx && vz > vy) return 2;
    return 0;
  }

  /** Records the bitonic sort of the padded key/value arrays. */
  private encodeSort(pass: GPUComputePassEncoder): void {
    const passes = this.passes;
    const blocks = this.padded / SORT_BLOCK;
    for (let s = 0; s < passes.length; s += 3) {
      const k = passes[s];
      const j = passes[s + 1];
      const offset = passes[s + 2];
      if (k === 0 || j < SORT_BLOCK) {
        pass.setPipeline(this.localPipe);
        pass.setBindGroup(0, this.localGroup, [offset]);
        pass.dispatchWorkgroups(blocks);
      } else {
        pass.setPipeline(this.globalPipe);
        pass.setBindGroup(0, this.globalGroup, [offset]);
        pass.dispatchWorkgroups(this.padded / 2 / WORKGROUP_SIZE);
      }
    }
  }

  /** (Re)allocates the per-body buffers when `n` bodies do not fit, and the sort schedule. */
  private ensureBodyBuffers(n: number): void {
    if (n <= this.bodyCapacity && this.pairBuf !== null) return;
    let cap = Math.max(SORT_BLOCK, this.bodyCapacity);
    while (cap < n) cap *= 2;
    const device = this.device;
    checkBufferSize(device, 24 * cap, `the GPU broad phase with ${n} bodies`);
    checkWorkgroups(device, cap / 2 / WORKGROUP_SIZE, `the GPU sort of ${n} bodies`);
    checkWorkgroups(device, workgroupsFor(cap), `the GPU sweep of ${n} bodies`);
    for (const b of [this.boxesBuf, this.idsBuf, this.keysBuf, this.valsBuf, this.stepsBuf]) {
      b?.destroy();
    }
    const storage = USAGE_STORAGE | USAGE_COPY_DST;
    this.boxesBuf = device.createBuffer({ size: 24 * cap, usage: storage });
    this.idsBuf = device.createBuffer({ size: 4 * cap, usage: storage });
    this.keysBuf = device.createBuffer({ size: 4 * cap, usage: USAGE_STORAGE });
    this.valsBuf = device.createBuffer({ size: 4 * cap, usage: USAGE_STORAGE });
    this.boxesHost = new Float32Array(6 * cap);
    this.idsHost = new Uint32Array(cap);
    this.bodyCapacity = cap;
    this.padded = cap;
    // The schedule: the block sort, then per stage k > SORT_BLOCK the global passes j ≥ SORT_BLOCK
    // and one local pass for the rest.
    const list: number[] = [0, 0];
    for (let k = 2 * SORT_BLOCK; k <= cap; k *= 2) {
      for (let j = k / 2; j >= SORT_BLOCK; j /= 2) list.push(k, j);
      list.push(k, SORT_BLOCK / 2);
    }
    const count = list.length / 2;
    this.passes = new Int32Array(3 * count);
    const steps = new Uint32Array((count * UNIFORM_STRIDE) / 4);
    for (let s = 0; s < count; s++) {
      this.passes[3 * s] = list[2 * s];
      this.passes[3 * s + 1] = list[2 * s + 1];
      this.passes[3 * s + 2] = s * UNIFORM_STRIDE;
      steps[(s * UNIFORM_STRIDE) / 4] = list[2 * s];
      steps[(s * UNIFORM_STRIDE) / 4 + 1] = list[2 * s + 1];
    }
    this.stepsBuf = device.createBuffer({
      size: count * UNIFORM_STRIDE,
      usage: USAGE_UNIFORM | USAGE_COPY_DST,
    });
    device.queue.writeBuffer(this.stepsBuf, 0, steps);
    const keys = this.keysBuf;
    const vals = this.valsBuf;
    this.keysGroup = device.createBindGroup({
      layout: this.keysPipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: this.boxesBuf } },
        { binding: 2, resource: { buffer: keys } },
        { binding: 3, resource: { buffer: vals } },
      ],
    });
    const stepEntries = (layout: GPUBindGroupLayout): GPUBindGroup =>
      device.createBindGroup({
        layout,
        entries: [
          { binding: 0, resource: { buffer: this.stepsBuf as GPUBuffer, size: 16 } },
          { binding: 1, resource: { buffer: keys } },
          { binding: 2, resource: { buffer: vals } },
        ],
      });
    this.globalGroup = stepEntries(this.globalLayout);
    this.localGroup = stepEntries(this.localLayout);
    this.growPairs(this.pairCapacity);
  }

  /** (Re)allocates the pair buffer and its readback twin for `capacity` pairs. */
  private growPairs(capacity: number): void {
    const device = this.device;
    const cap = Math.max(INITIAL_PAIR_CAPACITY, capacity);
    const bytes = bufferBytes(PAIR_HEADER_BYTES + 8 * cap);
    checkBufferSize(device, bytes, `the GPU broad phase's ${cap} candidate pairs`);
    this.pairBuf?.destroy();
    this.readBuf?.destroy();
    this.pairBuf = device.createBuffer({
      size: bytes,
      usage: USAGE_STORAGE | USAGE_COPY_SRC | USAGE_COPY_DST,
    });
    this.readBuf = device.createBuffer({ size: bytes, usage: USAGE_MAP_READ | USAGE_COPY_DST });
    this.pairCapacity = cap;
    this.sweepGroup = device.createBindGroup({
      layout: this.sweepPipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: this.boxesBuf as GPUBuffer } },
        { binding: 2, resource: { buffer: this.valsBuf as GPUBuffer } },
        { binding: 3, resource: { buffer: this.idsBuf as GPUBuffer } },
        { binding: 4, resource: { buffer: this.pairBuf } },
      ],
    });
  }

  /** Frees the GPU buffers (the broad phase is unusable on the GPU afterwards; the device is the caller's). */
  destroy(): void {
    for (const b of [
      this.boxesBuf,
      this.idsBuf,
      this.keysBuf,
      this.valsBuf,
      this.stepsBuf,
      this.pairBuf,
      this.readBuf,
      this.params,
    ]) {
      b?.destroy();
    }
    this.pairBuf = null;
    this.bodyCapacity = 0;
  }
}

/**
 * A GPU broad phase on the caller's `device` (see {@link GpuBroadPhase}):
 * `new CollisionWorld({ broadphase: createGpuBroadPhase(device) })`, then `await world.stepAsync()`.
 * The pairs are bitwise those of every CPU broad phase. Throws `CollideError` when `device` is not
 * a `GPUDevice` or lacks a limit the kernels need (naming it, e.g.
 * `device.limits.maxComputeInvocationsPerWorkgroup`), or on bad `options`.
 */
export function createGpuBroadPhase(
  device: GPUDevice,
  options?: Partial<GpuOptions>,
): GpuBroadPhase {
  const o = checkGpuOptions(options);
  checkDevice(device);
  return new GpuBroadPhase(device, o);
}
