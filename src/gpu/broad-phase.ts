/**
 * The GPU broad phase: a sort-based uniform grid over the caller's `GPUDevice`, exact to the f64
 * boxes.
 *
 * Each step (`computePairsAsync`) the host rounds every tight box outward to f32 (each bound moves
 * outward by at most one f32 ulp of its magnitude, see src/gpu/f32.ts; bounds beyond ±FLT_MAX are
 * clamped, which only adds candidates), picks the cell size (1.5 × the 95th percentile of a sample
 * of the bodies' largest extents), and computes in f64 each body's home cell — the cell of its box
 * centre, relative to the first body's centre — and the cell's hash bucket. Bodies larger than a
 * cell (or beyond 2^30 cells) are "large". It uploads boxes, ids, cells and bucket keys in one
 * write each; the GPU lists the bodies bucket by bucket (a counting sort with atomics), and
 * each normal body scans the 27 buckets around its cell while each large body tests every body
 * (src/gpu/broad-phase-wgsl.ts). Two normal bodies whose f64 boxes overlap have centres at most
 * one cell apart on every axis, so the pair is scanned; comparisons of f32 values are exact and
 * outward rounding only grows boxes, so the GPU's pairs are a superset of the true pairs. The host
 * reads them back in one copy and keeps those whose f64 boxes overlap (`boxesOverlap`, the test of
 * every CPU broad phase), then sorts and removes duplicates. The result is therefore the
 * brute-force oracle's pair set, bitwise the pairs of `"grid"`.
 *
 * Queries (`queryAabb`, `castRay`) run on the host over the f64 boxes (O(n) each, as the brute-force
 * broad phase; the world switches to its query BVH once it stops changing).
 *
 * Cost per step (docs/DESIGN.md, "GPU path"): 44 bytes uploaded per body (box 24, id 4, cell 12,
 * bucket key 4; 4 more per large body), 8 bytes read back per candidate-pair slot; 5 kernel
 * launches (count, scan, scatter, grid pairs, large pairs) in one submission, whatever N; one
 * readback (a second only when the pairs outgrow the buffer, which then grows by half again).
 * Each large body costs O(n) on the GPU.
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
  COUNT_WGSL,
  cellHash,
  GRID_PAIRS_WGSL,
  LARGE_CELL,
  LARGE_PAIRS_WGSL,
  SCAN_WGSL,
  SCATTER_WGSL,
} from "./broad-phase-wgsl.js";
import { checkFactory, GpuHost, type GpuOptions, WORKGROUP_SIZE } from "./device.js";
import { roundDown, roundUp } from "./f32.js";

/** Pair slots of the first pair buffer, and the least any later one gets. */
const INITIAL_PAIR_CAPACITY = 4096;
/** The pair buffer grows to this many times the pairs found when they overflow it. */
const PAIR_GROWTH = 1.5;
/** Bytes of the header of the pair buffer (count, pad). */
const PAIR_HEADER_BYTES = 8;
/** Bodies sampled to choose the cell size. */
const CELL_SAMPLE = 1024;
/** The cell side is this many times the sampled 95th percentile of the bodies' largest extents. */
const CELL_SCALE = 1.5;
/** Quantile of the sampled extents the cell size is based on. */
const CELL_QUANTILE = 0.95;
/**
 * A body is normal (in the grid) when its largest extent is at most the cell size times this:
 * slack for the rounding of the f64 cell computation (relative error ≤ 2^−22 below 2^30 cells),
 * so that overlapping normal bodies are never more than one cell apart.
 */
const NORMAL_EXTENT = 1 - 2 ** -20;
/** Cell coordinates must stay below this in magnitude (i32 arithmetic on the GPU). */
const MAX_CELL_COORD = 2 ** 30;
/** Bucket key of a large body (no bucket: the count and scatter kernels skip it). */
const KEY_LARGE = 0xfffffffe;

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
export class GpuBroadPhase extends GpuHost implements BroadPhase {
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
  private readonly countPipe: GPUComputePipeline;
  private readonly scanPipe: GPUComputePipeline;
  private readonly scatterPipe: GPUComputePipeline;
  private readonly gridPipe: GPUComputePipeline;
  private readonly largePipe: GPUComputePipeline;
  private bodyCapacity = 0;
  /** Buckets of the hash table: a power of two ≥ the body capacity. */
  private padded = 0;
  private boxesBuf: GPUBuffer | null = null;
  private idsBuf: GPUBuffer | null = null;
  private keysBuf: GPUBuffer | null = null;
  private cellsBuf: GPUBuffer | null = null;
  private countsBuf: GPUBuffer | null = null;
  private startsBuf: GPUBuffer | null = null;
  private cursorBuf: GPUBuffer | null = null;
  private sortedBuf: GPUBuffer | null = null;
  private largeBuf: GPUBuffer | null = null;
  private countGroup: GPUBindGroup | null = null;
  private scanGroup: GPUBindGroup | null = null;
  private scatterGroup: GPUBindGroup | null = null;
  private gridGroup: GPUBindGroup | null = null;
  private largeGroup: GPUBindGroup | null = null;
  private pairCapacity = INITIAL_PAIR_CAPACITY;
  private pairBuf: GPUBuffer | null = null;
  private readBuf: GPUBuffer | null = null;
  private boxesHost = new Float32Array(0);
  private idsHost = new Uint32Array(0);
  private cellsHost = new Int32Array(0);
  private keysHost = new Uint32Array(0);
  private largeHost = new Uint32Array(0);
  private readonly sample = new Float64Array(CELL_SAMPLE);
  /** Large bodies of the current step. */
  private large = 0;
  private cpu: SpatialHash | null = null;

  /** Use {@link createGpuBroadPhase}. */
  constructor(device: GPUDevice, options: GpuOptions) {
    super(device, options, "GPU broad phase");
    this.countPipe = this.pipeline(COUNT_WGSL, "collide grid count");
    this.scanPipe = this.pipeline(SCAN_WGSL, "collide grid scan");
    this.scatterPipe = this.pipeline(SCATTER_WGSL, "collide grid scatter");
    this.gridPipe = this.pipeline(GRID_PAIRS_WGSL, "collide grid pairs");
    this.largePipe = this.pipeline(LARGE_PAIRS_WGSL, "collide large pairs");
  }

  /** True unless `fallback` is `"cpu"`: a world must then be stepped with `stepAsync`. */
  get requiresAsync(): boolean {
    return this.fallback !== "cpu";
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
    return this.run(
      "computePairsAsync",
      () => {},
      () => this.computePairsGpu(out),
      () => this.computePairsCpu(out),
    );
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
    const st = this.stats;
    const t0 = performance.now();
    const n = this.proxies.count;
    if (n < 2) {
      await this.confirmAlive();
      out.clear();
      st.candidates = 0;
      st.readbacks = 0;
      return out;
    }
    this.ensureBodyBuffers(n);
    this.upload(n);
    const device = this.device;
    const p = this.paramsHost;
    p[0] = n;
    p[1] = this.padded;
    p[2] = this.large;
    p[3] = this.pairCapacity;
    device.queue.writeBuffer(this.params, 0, p);
    const t1 = performance.now();
    const enc = device.createCommandEncoder();
    enc.clearBuffer(this.pairBuf as GPUBuffer, 0, PAIR_HEADER_BYTES);
    enc.clearBuffer(this.countsBuf as GPUBuffer);
    const pass = enc.beginComputePass();
    this.kernel(pass, this.countPipe, this.countGroup, n);
    this.kernel(pass, this.scanPipe, this.scanGroup, 1);
    this.kernel(pass, this.scatterPipe, this.scatterGroup, n);
    this.encodePairs(pass, n);
    pass.end();
    let found = await this.readPairs(enc);
    st.readbacks = 1;
    if (found > this.pairCapacity) {
      // The pairs outgrew the buffer: grow it and rerun the pair kernels over the bucket lists.
      this.growPairs(Math.ceil(found * PAIR_GROWTH));
      p[3] = this.pairCapacity;
      device.queue.writeBuffer(this.params, 0, p);
      const enc2 = device.createCommandEncoder();
      enc2.clearBuffer(this.pairBuf as GPUBuffer, 0, PAIR_HEADER_BYTES);
      const pass2 = enc2.beginComputePass();
      this.encodePairs(pass2, n);
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

  /** Records the grid and large-body pair kernels. */
  private encodePairs(pass: GPUComputePassEncoder, n: number): void {
    if (n > this.large) this.kernel(pass, this.gridPipe, this.gridGroup, n);
    if (this.large > 0) this.kernel(pass, this.largePipe, this.largeGroup, this.large);
  }

  /** Copies the pair buffer to the readback buffer, maps it; returns the pair count. */
  private async readPairs(enc: GPUCommandEncoder): Promise<number> {
    const read = this.readBuf as GPUBuffer;
    enc.copyBufferToBuffer(this.pairBuf as GPUBuffer, 0, read, 0, read.size);
    await this.submitAndMap(enc, read);
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
    out.sortUnique();
  }

  /**
   * Rounds the boxes outward to f32, chooses the cell size, computes each body's cell and bucket
   * key in f64 (large bodies get {@link KEY_LARGE}), and uploads boxes, ids, cells and keys.
   */
  private upload(n: number): void {
    const { box, live } = this.proxies;
    const bh = this.boxesHost;
    const ih = this.idsHost;
    const ch = this.cellsHost;
    const kh = this.keysHost;
    // Cell size from a sample of the bodies' largest extents.
    const m = Math.min(n, CELL_SAMPLE);
    const sample = this.sample;
    for (let s = 0; s < m; s++) {
      const k = 6 * live[Math.floor((s * n) / m)];
      sample[s] = Math.max(box[k + 3] - box[k], box[k + 4] - box[k + 1], box[k + 5] - box[k + 2]);
    }
    const sorted = sample.subarray(0, m).sort();
    let cell = CELL_SCALE * sorted[Math.floor(CELL_QUANTILE * (m - 1))];
    if (!(cell > 0) || !Number.isFinite(cell)) cell = 1;
    const k0 = 6 * live[0];
    const ox = 0.5 * (box[k0] + box[k0 + 3]);
    const oy = 0.5 * (box[k0 + 1] + box[k0 + 4]);
    const oz = 0.5 * (box[k0 + 2] + box[k0 + 5]);
    const normalExtent = cell * NORMAL_EXTENT;
    const mask = this.padded - 1;
    const lh = this.largeHost;
    let large = 0;
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
      const cx = Math.floor((0.5 * (box[k] + box[k + 3]) - ox) / cell);
      const cy = Math.floor((0.5 * (box[k + 1] + box[k + 4]) - oy) / cell);
      const cz = Math.floor((0.5 * (box[k + 2] + box[k + 5]) - oz) / cell);
      const extent = Math.max(
        box[k + 3] - box[k],
        box[k + 4] - box[k + 1],
        box[k + 5] - box[k + 2],
      );
      if (
        extent <= normalExtent &&
        Math.abs(cx) < MAX_CELL_COORD &&
        Math.abs(cy) < MAX_CELL_COORD &&
        Math.abs(cz) < MAX_CELL_COORD
      ) {
        ch[3 * i] = cx;
        ch[3 * i + 1] = cy;
        ch[3 * i + 2] = cz;
        kh[i] = cellHash(cx, cy, cz, mask);
      } else {
        ch[3 * i] = LARGE_CELL;
        ch[3 * i + 1] = 0;
        ch[3 * i + 2] = 0;
        kh[i] = KEY_LARGE;
        lh[large++] = i;
      }
    }
    this.large = large;
    const q = this.device.queue;
    q.writeBuffer(this.boxesBuf as GPUBuffer, 0, bh, 0, 6 * n);
    q.writeBuffer(this.idsBuf as GPUBuffer, 0, ih, 0, n);
    q.writeBuffer(this.cellsBuf as GPUBuffer, 0, ch, 0, 3 * n);
    q.writeBuffer(this.keysBuf as GPUBuffer, 0, kh, 0, n);
    if (large > 0) q.writeBuffer(this.largeBuf as GPUBuffer, 0, lh, 0, large);
  }

  /** (Re)allocates the per-body buffers when `n` bodies do not fit. */
  private ensureBodyBuffers(n: number): void {
    if (n <= this.bodyCapacity && this.pairBuf !== null) return;
    const what = `${n} bodies`;
    const cap = this.grow(this.bodyCapacity, n, WORKGROUP_SIZE, what);
    this.destroyAll(this.bodyBuffers());
    this.boxesBuf = this.buffer("input", 24 * cap, what);
    this.idsBuf = this.buffer("input", 4 * cap, what);
    this.keysBuf = this.buffer("input", 4 * cap, what);
    this.cellsBuf = this.buffer("input", 12 * cap, what);
    this.countsBuf = this.buffer("input", 4 * cap, what);
    this.startsBuf = this.buffer("scratch", 4 * cap, what);
    this.cursorBuf = this.buffer("scratch", 4 * cap, what);
    this.sortedBuf = this.buffer("scratch", 4 * cap, what);
    this.largeBuf = this.buffer("input", 4 * cap, what);
    this.boxesHost = new Float32Array(6 * cap);
    this.idsHost = new Uint32Array(cap);
    this.cellsHost = new Int32Array(3 * cap);
    this.keysHost = new Uint32Array(cap);
    this.largeHost = new Uint32Array(cap);
    this.bodyCapacity = cap;
    this.padded = cap;
    this.countGroup = this.bindGroup(this.countPipe, [this.params, this.keysBuf, this.countsBuf]);
    this.scanGroup = this.bindGroup(this.scanPipe, [
      this.params,
      this.countsBuf,
      this.startsBuf,
      this.cursorBuf,
    ]);
    this.scatterGroup = this.bindGroup(this.scatterPipe, [
      this.params,
      this.keysBuf,
      this.cursorBuf,
      this.sortedBuf,
    ]);
    this.growPairs(this.pairCapacity);
  }

  private bodyBuffers(): (GPUBuffer | null)[] {
    return [
      this.boxesBuf,
      this.idsBuf,
      this.keysBuf,
      this.cellsBuf,
      this.countsBuf,
      this.startsBuf,
      this.cursorBuf,
      this.sortedBuf,
      this.largeBuf,
    ];
  }

  /** (Re)allocates the pair buffer and its readback twin for `capacity` pairs. */
  private growPairs(capacity: number): void {
    const cap = Math.max(INITIAL_PAIR_CAPACITY, capacity);
    const bytes = PAIR_HEADER_BYTES + 8 * cap;
    const what = `${cap} candidate pairs`;
    const pairBuf = this.buffer("pairs", bytes, what);
    const readBuf = this.buffer("readback", bytes, what);
    this.destroyAll([this.pairBuf, this.readBuf]);
    this.pairBuf = pairBuf;
    this.readBuf = readBuf;
    this.pairCapacity = cap;
    // Bindings 5 and 6 (bucket starts and counts) only for the grid kernel: the large-body kernel
    // does not read them, and "auto" layouts leave out what a kernel does not use.
    const common = (list: GPUBuffer | null) => [
      this.params,
      this.boxesBuf,
      list,
      this.idsBuf,
      this.cellsBuf,
    ];
    this.gridGroup = this.bindGroup(this.gridPipe, [
      ...common(this.sortedBuf),
      this.startsBuf,
      this.countsBuf,
      pairBuf,
    ]);
    this.largeGroup = this.bindGroup(this.largePipe, [
      ...common(this.largeBuf),
      null,
      null,
      pairBuf,
    ]);
  }

  /** Frees the GPU buffers (the broad phase is unusable on the GPU afterwards; the device is the caller's). */
  destroy(): void {
    this.destroyAll([...this.bodyBuffers(), this.pairBuf, this.readBuf, this.params]);
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
  return new GpuBroadPhase(device, checkFactory(device, options));
}
