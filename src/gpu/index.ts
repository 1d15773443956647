/**
 * `collide/gpu`: the WebGPU path. Every object here takes a `GPUDevice` from the caller — from
 * `navigator.gpu` in a browser, or from the `webgpu` package (Dawn) in Node — and Collide never
 * imports a WebGPU implementation. Kernels compute in f32; the answers are the CPU path's, exact:
 * the GPU only prunes or decides what is clear beyond a stated f32 error bound, and the host
 * settles the rest in f64 (docs/DESIGN.md, "GPU path").
 */
// The pair table's default registrations (see src/index.ts): the CPU settles ambiguous pairs.
import "../narrowphase/dispatch.js";

export {
  createGpuBroadPhase,
  GpuBroadPhase,
  type GpuBroadPhaseStats,
} from "./broad-phase.js";
export {
  defaultGpuOptions,
  type GpuDeviceRequest,
  type GpuOptions,
  requestGpuDevice,
} from "./device.js";
export {
  createGpuNarrowPhase,
  GPU_NARROW_RELATIVE_ERROR,
  type GpuContactBatch,
  GpuNarrowPhase,
  type GpuPairBatch,
  RESOLVED_BY_CPU,
  RESOLVED_BY_GPU,
} from "./narrow-phase.js";
export {
  createGpuRayCaster,
  GPU_RAY_RELATIVE_ERROR,
  GpuRayCaster,
  type GpuRayHits,
  type GpuRayScene,
} from "./ray-batch.js";
