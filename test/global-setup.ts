/**
 * Builds dist/ once before the tests, so that the command-line tests run the same JavaScript
 * that users run (`node dist/cli/main.js`), even when vitest is started directly.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { useSwiftShader } from "./gpu/device.js";

export default function setup(): void {
  // The GPU tests run WebGPU on SwiftShader; the Vulkan loader reads VK_ICD_FILENAMES from the
  // process environment, which only the main thread can set (a worker's process.env is a copy).
  useSwiftShader();
  // COLLIDE_SKIP_BUILD=1 reuses an existing dist/ (for quick local runs of a few test files).
  if (process.env.COLLIDE_SKIP_BUILD === "1") return;
  const require = createRequire(import.meta.url);
  const tsc = require.resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
  // As `npm run build` does: the command is executable, so `npx collide` runs it.
  execFileSync(process.execPath, ["scripts/bin-executable.mjs"], { stdio: "inherit" });
}
