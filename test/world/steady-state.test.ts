/**
 * Allocation of a steady-state step, measured in a child process (`node --expose-gc` with a
 * 128 MB semi-space, so no scavenge runs during the measured steps and heap growth equals the
 * bytes allocated): 1,000 bodies of the benchmark scene, every body moved every frame, 600
 * steps after a JIT warm-up (the probe measures 1,000 when run by hand). Two runs per broad phase: "broad" (masks 0: setPose + broad phase
 * + filter + contact cache, the world's own code) and "full" (with the narrow phase).
 *
 * Measured on Node 20 (x64): "broad" ≈ 8 KB per step (≈ 8 bytes per setPose, plus ≈ 100 bytes
 * per step for the `subarray` view in `PairSet.sort`), "full" ≈ 52 KB per step for ≈ 420
 * contact pairs, almost all of it in the narrow phase (`Math.hypot` in vec3.length/normalize
 * allocates its argument list in V8, and the clipping of manifoldFromContact). The bounds below
 * lock those numbers in against regressions and prove there is no leak (the heap after a full
 * collection is back to where it started); they are not yet the zero the design asks for.
 * Re-measured after passing clip planes through a scratch array (src/geometry/clip.ts) and
 * writing manifold candidates in place (src/narrowphase/manifold.ts): "full" ≈ 39 KB per step
 * (was ≈ 106–130 KB on this scene of 723 contacts); what is left is mostly heap numbers for
 * doubles passed to calls V8 does not inline (computeBoxes in setPose ≈ 8 KB, vec3.normalize,
 * triArea2 of the manifold reduction, clampIntoBox).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const probe = fileURLToPath(new URL("./steady-state-probe.ts", import.meta.url));

interface ProbeResult {
  broadphase: string;
  mode: string;
  bytesPerStep: number;
  heapAfterGcDeltaBytes: number;
  gcsDuring: number;
  contacts: number;
}

function runProbe(broadphase: string, mode: string): ProbeResult {
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      "--min-semi-space-size=128",
      "--max-semi-space-size=128",
      "--import",
      "tsx",
      probe,
      broadphase,
      "1000",
      "600",
      mode,
    ],
    { encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").pop() as string) as ProbeResult;
}

describe("CollisionWorld steady-state allocation (child process, 1,000 bodies × 600 steps)", () => {
  for (const bp of ["tree"]) {
    it(`${bp}: the world's own path allocates under 16 bytes per body per step, no leak`, () => {
      const r = runProbe(bp, "broad");
      expect(r.gcsDuring).toBe(0);
      expect(r.bytesPerStep).toBeLessThan(16 * 1000);
      expect(r.heapAfterGcDeltaBytes).toBeLessThan(1 << 20);
    });
  }

  it("tree, full pipeline: bounded allocation and no leak", () => {
    const r = runProbe("tree", "full");
    expect(r.contacts).toBeGreaterThan(100);
    expect(r.bytesPerStep).toBeLessThan(64_000);
    expect(r.heapAfterGcDeltaBytes).toBeLessThan(1 << 20);
  });
});
