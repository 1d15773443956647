/**
 * Regression of the fresh-user crash of issue 19: `await world.stepAsync()` on the GPU broad
 * phase killed the Node process (SIGSEGV, aborts with `std::system_error: Invalid argument` or
 * futex/pthread assertions, or a hang) at 10,000–20,000 touching spheres. The cause was not a
 * kernel or a size limit: Dawn's Node binding (`webgpu`) shuts its instance down when the `GPU`
 * object `create()` returned is garbage-collected, even while a device made from it is working,
 * and nothing kept that object alive — the README's Node snippet left it in a local that V8 may
 * collect once it is no longer used. Larger scenes allocate more during a step, so a collection
 * fell inside a dispatch more often.
 *
 * `requestGpuDevice(gpu)` ties the `GPU` object to the device it returns. The probe
 * (gc-step-probe.ts, its own process with `--expose-gc`) makes the device that way from
 * `create([])` alone, forces full collections every 5 ms while it steps the failing scene, and
 * must exit cleanly with the pairs and contacts of `"grid"` and of the hand count: in rows of
 * 1,000 spheres of radius 0.5 spaced 0.9, neighbours in a row or a column touch (0.9 < 1) and
 * diagonal neighbours do not (0.9·√2 > 1), while all eight neighbours' boxes overlap.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CollideError } from "../../src/errors.js";
import { requestGpuDevice } from "../../src/gpu/index.js";
import { useSwiftShader } from "./device.js";

const probe = fileURLToPath(new URL("./gc-step-probe.ts", import.meta.url));

/** Box pairs and touching sphere pairs of `rows` full rows of 1,000 (hand-derived, see above). */
function handCount(rows: number): { boxPairs: number; contacts: number } {
  const inRow = rows * 999;
  const inColumn = (rows - 1) * 1000;
  const diagonal = 2 * (rows - 1) * 999;
  return { boxPairs: inRow + inColumn + diagonal, contacts: inRow + inColumn };
}

describe("a GPU device from requestGpuDevice outlives garbage collection (issue 19 crash)", () => {
  it("10,000 touching spheres, 2 steps under forced collections: clean exit, the grid's contacts", () => {
    useSwiftShader();
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", probe, "10000", "2"], {
      encoding: "utf8",
      timeout: 110_000,
      maxBuffer: 64 << 20,
    });
    expect(r.signal, r.stderr.slice(-2000)).toBeNull();
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    const out = JSON.parse(r.stdout.trim().split("\n").pop() as string) as {
      gpu: number[][];
      grid: number[][];
    };
    const want = handCount(10);
    expect(out.gpu.length).toBe(2);
    for (let s = 0; s < 2; s++) {
      expect(out.gpu[s][0]).toBe(want.boxPairs);
      expect(out.gpu[s][1]).toBe(want.contacts);
      expect(out.gpu[s]).toEqual(out.grid[s]);
    }
  });

  it("refuses what is not a GPU object, naming the field", async () => {
    await expect(requestGpuDevice(undefined as never)).rejects.toThrow(CollideError);
    await expect(requestGpuDevice({} as never)).rejects.toThrow(/gpu must be a GPU object/);
  });

  it("a GPU object that gives no adapter: CollideError naming the adapter", async () => {
    const none = { requestAdapter: async () => null } as unknown as GPU;
    const err = await requestGpuDevice(none).catch((e) => e);
    expect(err).toBeInstanceOf(CollideError);
    expect(err.field).toBe("adapter");
  });
});
