/**
 * What the GPU path needs of a caller's `GPUDevice`, checked once: the object itself, the limits
 * its kernels rely on, and its loss. Collide never creates a device and never imports a WebGPU
 * implementation: the caller passes a device from `navigator.gpu` (browsers) or from the
 * `webgpu` package (Node, Dawn). The `GPUBufferUsage` and `GPUMapMode` flags are spelled out here
 * as numbers (their values are fixed by the WebGPU specification, §3.1 "Buffer usages"), so no
 * global of the implementation is needed.
 */
import { CollideError, checkOptionKeys, invalidValue } from "../errors.js";

/** `GPUBufferUsage.MAP_READ`. */
const USAGE_MAP_READ = 0x0001;
/** `GPUBufferUsage.COPY_SRC`. */
const USAGE_COPY_SRC = 0x0004;
/** `GPUBufferUsage.COPY_DST`. */
const USAGE_COPY_DST = 0x0008;
/** `GPUBufferUsage.UNIFORM`. */
const USAGE_UNIFORM = 0x0040;
/** `GPUBufferUsage.STORAGE`. */
const USAGE_STORAGE = 0x0080;
/** `GPUMapMode.READ`. */
const MAP_MODE_READ = 0x0001;

/** Threads per workgroup of every Collide kernel (the WebGPU default limit is 256). */
export const WORKGROUP_SIZE = 256;

/** What the GPU path does when the device cannot serve (lost, or a limit too small). */
export interface GpuOptions {
  /**
   * `"none"`: a GPU failure rejects with a `CollideError` naming the cause (the world stays as
   * it was and may be switched to the CPU with `fallback = "cpu"`). `"cpu"`: the same answers are
   * computed on the CPU instead, silently — only when asked for.
   * @default "none"
   */
  fallback: "none" | "cpu";
}

/** The default {@link GpuOptions}. */
export function defaultGpuOptions(): GpuOptions {
  return { fallback: "none" };
}

/** Validates `options.fallback`. */
export function checkGpuOptions(options: Partial<GpuOptions> | undefined): GpuOptions {
  const defaults = defaultGpuOptions();
  if (options !== undefined) checkOptionKeys(options, defaults, "collide/gpu");
  const o = { ...defaults, ...(options ?? {}) };
  if (o.fallback !== "none" && o.fallback !== "cpu") {
    invalidValue("gpu.fallback", o.fallback, 'must be "none" or "cpu"');
  }
  return o;
}

/** The limits (name, least value) every Collide kernel needs. */
const REQUIRED_LIMITS: ReadonlyArray<readonly [keyof GPUSupportedLimits, number]> = [
  ["maxComputeWorkgroupSizeX", WORKGROUP_SIZE],
  ["maxComputeInvocationsPerWorkgroup", WORKGROUP_SIZE],
  ["maxComputeWorkgroupStorageSize", 4096],
  ["maxStorageBuffersPerShaderStage", 7],
  ["maxBindGroups", 1],
  ["maxDynamicUniformBuffersPerPipelineLayout", 1],
];

/**
 * Throws `CollideError` unless `device` looks like a `GPUDevice` with the limits Collide needs
 * (naming the first missing limit, e.g. `device.limits.maxComputeInvocationsPerWorkgroup`).
 */
export function checkDevice(device: unknown): asserts device is GPUDevice {
  const d = device as Partial<GPUDevice> | null | undefined;
  if (
    d === null ||
    d === undefined ||
    typeof d !== "object" ||
    typeof d.createBuffer !== "function" ||
    typeof d.createComputePipeline !== "function" ||
    typeof d.queue !== "object" ||
    typeof d.limits !== "object"
  ) {
    invalidValue(
      "device",
      device === undefined ? "undefined" : device === null ? null : typeof device,
      "must be a GPUDevice (from navigator.gpu.requestAdapter() then adapter.requestDevice() in a browser, or from the webgpu package in Node)",
    );
  }
  const limits = (d as GPUDevice).limits;
  for (const [name, least] of REQUIRED_LIMITS) {
    const v = limits[name] as number | undefined;
    if (typeof v !== "number" || v < least) {
      throw new CollideError(
        "invalid_value",
        `device.limits.${name}`,
        v,
        `device.limits.${name} must be at least ${least} for Collide's GPU kernels (got ${v})`,
      );
    }
  }
}

/**
 * Throws `CollideError` naming the limit when a storage buffer of `bytes` does not fit the
 * device (`maxStorageBufferBindingSize`, `maxBufferSize`); `what` says which buffer.
 */
export function checkBufferSize(device: GPUDevice, bytes: number, what: string): void {
  const l = device.limits;
  for (const name of ["maxStorageBufferBindingSize", "maxBufferSize"] as const) {
    if (bytes > l[name]) {
      throw new CollideError(
        "invalid_value",
        `device.limits.${name}`,
        l[name],
        `${what} needs a buffer of ${bytes} bytes, more than device.limits.${name} = ${l[name]}; request a device with a larger limit or use the CPU path`,
      );
    }
  }
}

/** Throws `CollideError` naming the limit when `workgroups` exceed one dispatch dimension. */
export function checkWorkgroups(device: GPUDevice, workgroups: number, what: string): void {
  const max = device.limits.maxComputeWorkgroupsPerDimension;
  if (workgroups > max) {
    throw new CollideError(
      "invalid_value",
      "device.limits.maxComputeWorkgroupsPerDimension",
      max,
      `${what} needs ${workgroups} workgroups of ${WORKGROUP_SIZE}, more than device.limits.maxComputeWorkgroupsPerDimension = ${max}`,
    );
  }
}

/** The error of a lost device. */
export function lostError(reason: string): CollideError {
  return new CollideError(
    "invalid_value",
    "device",
    reason,
    `the GPUDevice was lost (${reason}); make a new device and a new GPU object, or set fallback = "cpu" to continue on the CPU`,
  );
}

/**
 * What the three GPU objects (broad phase, narrow phase, ray batches) share: the caller's device
 * and its loss, the `fallback` switch, one call at a time, and the one readback of each call.
 */
export abstract class GpuHost {
  private fallbackMode: "none" | "cpu";
  /**
   * `"none"`: GPU failures reject; `"cpu"`: the same answers are computed on the CPU instead.
   * @throws CollideError (field `gpu.fallback`) when set to anything else.
   */
  get fallback(): "none" | "cpu" {
    return this.fallbackMode;
  }
  /** Sets {@link fallback}; anything but `"none"` or `"cpu"` throws `CollideError` (`gpu.fallback`). */
  set fallback(mode: "none" | "cpu") {
    if (mode !== "none" && mode !== "cpu") {
      invalidValue("gpu.fallback", mode, 'must be "none" or "cpu"');
    }
    this.fallbackMode = mode;
  }
  /** The kernels' uniform parameters (16 bytes; the first is the thread count). */
  protected readonly params: GPUBuffer;
  /** Host copy of {@link params}. */
  protected readonly paramsHost = new Uint32Array(4);
  /** The loss message, or null while the device lives. */
  private lost: string | null = null;
  private busy = false;

  constructor(
    readonly device: GPUDevice,
    options: GpuOptions,
    /** What the object is, for messages (`"GPU broad phase"`). */
    private readonly what: string,
  ) {
    this.fallbackMode = options.fallback;
    this.params = this.buffer("params", 16, "parameters");
    const p = (device as { lost?: Promise<GPUDeviceLostInfo> }).lost;
    if (p !== undefined && typeof p.then === "function") {
      p.then(
        (info) => {
          this.lost = `${info.reason}${info.message ? `: ${info.message}` : ""}`;
        },
        () => {
          this.lost = "unknown";
        },
      );
    }
  }

  /** The device's loss reason, or null while it lives. */
  get deviceLost(): string | null {
    return this.lost;
  }

  /**
   * Runs one call: `gpu()`, or `cpu()` when `fallback` is `"cpu"` and the device is lost or the
   * GPU call failed. `start()` runs first, once the call is admitted. A second call while one is
   * in flight throws `CollideError` naming `method`.
   */
  protected async run<T>(
    method: string,
    start: () => void,
    gpu: () => Promise<T>,
    cpu: () => T,
  ): Promise<T> {
    if (this.busy) {
      throw new CollideError(
        "invalid_value",
        method,
        "busy",
        `${method}() is already running on this ${this.what}; await it first`,
      );
    }
    this.busy = true;
    try {
      start();
      if (this.fallback === "cpu" && this.lost !== null) return cpu();
      try {
        this.checkAlive();
        return await gpu();
      } catch (e) {
        if (this.fallback === "cpu") return cpu();
        throw e;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Throws `CollideError` when the device is known to be lost. */
  protected checkAlive(): void {
    if (this.lost !== null) throw lostError(this.lost);
  }

  /**
   * For a call with nothing to compute: one queue round trip, so that a loss not yet delivered
   * (as just after `device.destroy()`) is still reported as a `CollideError`.
   */
  protected async confirmAlive(): Promise<void> {
    await this.device.queue.onSubmittedWorkDone();
    this.checkAlive();
  }

  /**
   * Submits `enc` (whose last commands copy the results into `read`) and maps `read` for reading;
   * a failure rejects with `CollideError` (the device's loss when that is the cause).
   */
  protected async submitAndMap(enc: GPUCommandEncoder, read: GPUBuffer): Promise<void> {
    this.device.queue.submit([enc.finish()]);
    try {
      await read.mapAsync(MAP_MODE_READ);
    } catch (e) {
      this.checkAlive();
      throw new CollideError(
        "invalid_value",
        "device",
        String(e),
        `reading the ${this.what}'s results back failed: ${String(e)}`,
      );
    }
  }

  /**
   * Runs `pipe` with `group` over `count` threads (`paramsHost[0] = count`), copies each
   * `[source, offset in read, bytes]` of `copies` into `read` and maps it (see {@link submitAndMap}).
   */
  protected async runKernel(
    pipe: GPUComputePipeline,
    group: GPUBindGroup | null,
    count: number,
    read: GPUBuffer,
    copies: readonly (readonly [GPUBuffer, number, number])[],
  ): Promise<void> {
    this.paramsHost[0] = count;
    this.device.queue.writeBuffer(this.params, 0, this.paramsHost);
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    this.kernel(pass, pipe, group, count);
    pass.end();
    for (const [source, offset, bytes] of copies) {
      enc.copyBufferToBuffer(source, 0, read, offset, bytes);
    }
    await this.submitAndMap(enc, read);
  }

  /** A buffer of `kind` holding `bytes` (rounded up, see {@link bufferBytes}), checked against the device's limits. */
  protected buffer(kind: BufferKind, bytes: number, what: string): GPUBuffer {
    const size = bufferBytes(bytes);
    if (kind !== "params") checkBufferSize(this.device, size, `the ${this.what}'s ${what}`);
    return this.device.createBuffer({ size, usage: BUFFER_USAGE[kind] });
  }

  /** Throws `CollideError` naming the limit when `threads` do not fit one dispatch. */
  protected checkThreads(threads: number, what: string): void {
    checkWorkgroups(this.device, workgroupsFor(threads), `the ${this.what} with ${what}`);
  }

  /** A compute pipeline from WGSL `code` (entry point `main`). */
  protected pipeline(code: string, label: string): GPUComputePipeline {
    return makePipeline(this.device, code, label);
  }

  /**
   * The capacity for `needed` items: `current` doubled until it holds them (at least `least`),
   * checked against the dispatch limit (`what` names the items in the error).
   */
  protected grow(current: number, needed: number, least: number, what: string): number {
    let cap = Math.max(least, current);
    while (cap < needed) cap *= 2;
    this.checkThreads(cap, what);
    return cap;
  }

  /** Records one dispatch of `pipe` with `group` over `threads` threads. */
  protected kernel(
    pass: GPUComputePassEncoder,
    pipe: GPUComputePipeline,
    group: GPUBindGroup | null,
    threads: number,
  ): void {
    pass.setPipeline(pipe);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(workgroupsFor(threads));
  }

  /** `GPUBuffer.destroy()` of each buffer present. */
  protected destroyAll(buffers: readonly (GPUBuffer | null)[]): void {
    for (const b of buffers) b?.destroy();
  }

  /** A bind group of `pipe` whose binding i is `buffers[i]` (null entries are left out). */
  protected bindGroup(
    pipe: GPUComputePipeline,
    buffers: readonly (GPUBuffer | null)[],
  ): GPUBindGroup {
    const entries: GPUBindGroupEntry[] = [];
    for (let i = 0; i < buffers.length; i++) {
      const b = buffers[i];
      if (b !== null) entries.push({ binding: i, resource: { buffer: b } });
    }
    return this.device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries });
  }
}

/** The buffers of the kernels, by use. */
export type BufferKind = "input" | "output" | "scratch" | "pairs" | "readback" | "params";

/** The usage flags of each {@link BufferKind}. */
const BUFFER_USAGE: Readonly<Record<BufferKind, number>> = {
  /** Written by the host, read by kernels. */
  input: USAGE_STORAGE | USAGE_COPY_DST,
  /** Written by kernels, copied to a readback buffer. */
  output: USAGE_STORAGE | USAGE_COPY_SRC,
  /** Kernels only. */
  scratch: USAGE_STORAGE,
  /** Written by kernels after a clear, copied to a readback buffer. */
  pairs: USAGE_STORAGE | USAGE_COPY_SRC | USAGE_COPY_DST,
  /** Mapped by the host. */
  readback: USAGE_MAP_READ | USAGE_COPY_DST,
  /** A kernel's uniform parameters. */
  params: USAGE_UNIFORM | USAGE_COPY_DST,
};

/** A compute pipeline from WGSL source, entry point `main`. */
export function makePipeline(device: GPUDevice, code: string, label: string): GPUComputePipeline {
  const module = device.createShaderModule({ code, label });
  return device.createComputePipeline({
    layout: "auto",
    compute: { module, entryPoint: "main" },
    label,
  });
}

/**
 * The checked options and device of a GPU object's factory: throws `CollideError` for bad
 * `options` or a `device` that is not a `GPUDevice` with the limits the kernels need.
 */
export function checkFactory(
  device: unknown,
  options: Partial<GpuOptions> | undefined,
): GpuOptions {
  const o = checkGpuOptions(options);
  checkDevice(device);
  return o;
}

/** Size rounded up to a multiple of 4 bytes, at least 16 (buffer sizes WebGPU accepts for copies). */
export function bufferBytes(bytes: number): number {
  return Math.max(16, Math.ceil(bytes / 4) * 4);
}

/** Number of workgroups covering `n` threads. */
export function workgroupsFor(n: number): number {
  return Math.max(1, Math.ceil(n / WORKGROUP_SIZE));
}

/** The `GPU` object and adapter each device of {@link requestGpuDevice} came from, kept alive by it. */
const origins = new WeakMap<GPUDevice, { gpu: GPU; adapter: GPUAdapter }>();

/** What {@link requestGpuDevice} asks of the adapter and the device. */
export interface GpuDeviceRequest {
  /** Passed to `gpu.requestAdapter` (e.g. `powerPreference`). @default {} */
  adapter?: GPURequestAdapterOptions;
  /** Passed to `adapter.requestDevice` (e.g. `requiredLimits`). @default {} */
  device?: GPUDeviceDescriptor;
}

/**
 * A `GPUDevice` from `gpu` (`navigator.gpu` in a browser, or `create([])` of the `webgpu` package
 * in Node), tied to it: the `GPU` object and its adapter stay alive as long as the device does.
 *
 * Why: in Node, Dawn (`webgpu`) shuts its instance down when the object `create()` returned is
 * garbage-collected, even while a device made from it is in use; a collection during a long
 * dispatch then crashes the process inside Dawn's and SwiftShader's threads (SIGSEGV, abort with
 * `std::system_error`, or a hang). A local variable is no guard: once its last use is behind, V8
 * may collect it across an `await`. Devices made here keep their `GPU` object reachable (a
 * `WeakMap` keyed by the device), so a caller only has to keep the device.
 *
 * Rejects with `CollideError` when `gpu` has no `requestAdapter` (field `gpu`) or gives no
 * adapter (field `adapter`); a device request the adapter refuses rejects with its own error.
 */
export async function requestGpuDevice(
  gpu: GPU,
  request: GpuDeviceRequest = {},
): Promise<GPUDevice> {
  if (gpu === null || typeof gpu !== "object" || typeof gpu.requestAdapter !== "function") {
    invalidValue(
      "gpu",
      gpu === undefined ? "undefined" : gpu === null ? null : typeof gpu,
      'must be a GPU object (navigator.gpu in a browser, or create([]) of the "webgpu" package in Node)',
    );
  }
  const adapter = await gpu.requestAdapter(request.adapter);
  if (adapter === null) {
    throw new CollideError(
      "invalid_value",
      "adapter",
      null,
      "gpu.requestAdapter() gave no adapter (no WebGPU driver; in Node without a GPU point VK_ICD_FILENAMES at a software Vulkan driver such as SwiftShader)",
    );
  }
  const device = await adapter.requestDevice(request.device);
  origins.set(device, { gpu, adapter });
  return device;
}
