/**
 * A WebGPU device for the GPU tests, in Node, with no GPU: the `webgpu` package (Dawn's Node
 * binding) over SwiftShader, Chromium's software Vulkan driver, which Debian's `chromium` package
 * ships (scripts/test-setup.sh installs it and the Vulkan loader `libvulkan1`). The Vulkan loader
 * is pointed at SwiftShader's ICD file here, before Dawn starts, unless VK_ICD_FILENAMES is set
 * already (a machine with a real GPU may set it to its driver).
 */
import { existsSync } from "node:fs";
import { requestGpuDevice } from "../../src/gpu/index.js";

/** Where Debian's chromium package puts SwiftShader's Vulkan ICD file. */
export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

let cached: Promise<{ device: GPUDevice }> | null = null;

/** Points the Vulkan loader at SwiftShader unless told otherwise. */
export function useSwiftShader(): void {
  if (process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER_ICD)) {
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  }
  // The Vulkan loader warns on stderr without it; any writable directory does.
  if (process.env.XDG_RUNTIME_DIR === undefined) process.env.XDG_RUNTIME_DIR = "/tmp";
}

/**
 * A fresh device on a fresh `GPU` object, made with `requestGpuDevice`, which keeps that object
 * alive as long as the device (Dawn's device stops working once its `GPU` object is collected).
 * Rejects with the reason when no adapter is available.
 */
export async function makeDevice(
  limits: Record<string, number> = {},
): Promise<{ device: GPUDevice }> {
  useSwiftShader();
  const { create } = await import("webgpu");
  try {
    return { device: await requestGpuDevice(create([]), { device: { requiredLimits: limits } }) };
  } catch (e) {
    throw new Error(
      `${String(e)} (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES}); run scripts/test-setup.sh`,
    );
  }
}

/** One device shared by the tests of a file. */
export function sharedDevice(): Promise<{ device: GPUDevice }> {
  if (cached === null) cached = makeDevice();
  return cached;
}
