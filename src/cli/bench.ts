/**
 * `collide bench`: runs the benchmark suite of bench/ (Collide and its peers side by side). The
 * peers are devDependencies, so this works in a clone of the repository (`npm run bench`), not
 * from an installed package.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CollideError } from "../errors.js";

/**
 * Runs the repository's bench/run.ts (or bench/gpu.ts with `gpu`: the WebGPU path against the CPU
 * path; in a clone only, the package does not ship bench/) through tsx with the given options; exits with its status.
 */
export function runBenchCommand(o: { json?: boolean; quick?: boolean; gpu?: boolean }): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const script = join(root, "bench", o.gpu ? "gpu.ts" : "run.ts");
  if (!existsSync(script) || !existsSync(join(root, "node_modules", "tsx"))) {
    throw new CollideError(
      "io_error",
      "bench",
      script,
      "collide bench runs in a clone of the repository after `npm ci` (it needs bench/ and the devDependencies)",
    );
  }
  const args = [
    "--import",
    "tsx",
    script,
    ...(o.json ? ["--json"] : []),
    ...(o.quick ? ["--quick"] : []),
  ];
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}
