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
export const USAGE_MAP_READ = 0x0001;
/** `GPUBufferUsage.COPY_SRC`. */
export const USAGE_COPY_SRC = 0x0004;
/** `GPUBufferUsage.COPY_DST`. */
export const USAGE_COPY_DST = 0x0008;
/** `GPUBufferUsage.UNIFORM`. */
export const USAGE_UNIFORM = 0x0040;
/** `GPUBufferUsage.STORAGE`. */
export const USAGE_STORAGE = 0x0080;
/** `GPUMapMode.READ`. */
export const MAP_MODE_READ = 0x0001;

/** Threads per workgroup of every Collide kernel (the WebGPU default limit is 256). */
export const WORKGROUP_SIZE = 256;

/** Alignment of dynamic uniform-buffer offsets (the WebGPU default `minUniformBufferOffsetAlignment`). */
export const UNIFORM_STRIDE = 256;

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
  if (options !== undefined) checkOptionKeys(options, defaults);
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

/**
 * Watches a device's loss: `lost` holds the reason once `device.lost` resolves. Shared by the
 * GPU objects made on one device.
 */
export class DeviceWatch {
  /** The loss message, or null while the device lives. */
  lost: string | null = null;

  constructor(readonly device: GPUDevice) {
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

  /** Throws `CollideError` when the device is lost. */
  check(): void {
    if (this.lost !== null) throw lostError(this.lost);
  }
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

/** The error of a lost device. */
export function lostError(reason: string): CollideError {
  return new CollideError(
    "invalid_value",
    "device",
    reason,
    `the GPUDevice was lost (${reason}); make a new device and a new GPU object, or set fallback = "cpu" to continue on the CPU`,
  );
}

/** A compute pipeline from WGSL source, entry point `main`. */
export function makePipeline(device: GPUDevice, code: string, label: string): GPUComputePipeline {
  const module = device.createShaderModule({ code, label });
  return device.createComputePipeline({
    layout: "auto",
    compute: { module, entryPoint: "main" },
    label,
  });
}

/** `GPUShaderStage.COMPUTE`. */
const STAGE_COMPUTE = 0x4;

/**
 * A compute pipeline whose binding 0 is a uniform buffer with a dynamic offset (one entry per
 * dispatch, {@link UNIFORM_STRIDE} apart) and bindings 1 … `storage` read-write storage buffers.
 */
export function makeDynamicPipeline(
  device: GPUDevice,
  code: string,
  label: string,
  storage: number,
): { pipeline: GPUComputePipeline; layout: GPUBindGroupLayout } {
  const entries: GPUBindGroupLayoutEntry[] = [
    { binding: 0, visibility: STAGE_COMPUTE, buffer: { type: "uniform", hasDynamicOffset: true } },
  ];
  for (let b = 1; b <= storage; b++) {
    entries.push({ binding: b, visibility: STAGE_COMPUTE, buffer: { type: "storage" } });
  }
  const layout = device.createBindGroupLayout({ entries, label });
  const module = device.createShaderModule({ code, label });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: "main" },
    label,
  });
  return { pipeline, layout };
}

/** Size rounded up to a multiple of 4 bytes, at least 16 (buffer sizes WebGPU accepts for copies). */
export function bufferBytes(bytes: number): number {
  return Math.max(16, Math.ceil(bytes / 4) * 4);
}

/** Number of workgroups covering `n` threads. */
export function workgroupsFor(n: number): number {
  return Math.max(1, Math.ceil(n / WORKGROUP_SIZE));
}
