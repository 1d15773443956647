/**
 * The viewer's GPU path in a real browser: `collide view examples/scene.json` (dist/cli/main.js)
 * in Debian's Chromium with WebGPU on SwiftShader (the flags of gpu.test.ts; the page is served
 * from 127.0.0.1, a secure context). The worker finds a WebGPU adapter, the page's toggle is
 * enabled, and switching rebuilds the worker's world with `createGpuBroadPhase(device)`: the
 * label says the GPU produced the contacts, and their count is `collide check --json`'s, as on
 * the CPU path before and after.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM } from "./chromium.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const SCENE = join(ROOT, "examples/scene.json");

/** Chromium flags that give headless WebGPU on SwiftShader (Vulkan) without a GPU. */
const WEBGPU_FLAGS = [
  "--no-sandbox",
  "--enable-unsafe-webgpu",
  "--enable-features=Vulkan",
  "--use-vulkan=swiftshader",
  "--use-webgpu-adapter=swiftshader",
  "--disable-vulkan-surface",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

let server: ChildProcess | null = null;
let context: BrowserContext | null = null;
let profile = "";
let url = "";

beforeAll(async () => {
  url = await new Promise<string>((done, reject) => {
    const child = spawn(process.execPath, [CLI, "view", SCENE, "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server = child;
    let stderr = "";
    child.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    createInterface({ input: child.stdout! }).once("line", (l) => done(l.trim()));
    child.once("exit", (code) => reject(new Error(`collide view exited (${code}): ${stderr}`)));
  });
  profile = mkdtempSync(join(tmpdir(), "collide-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: WEBGPU_FLAGS,
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe("collide view SCENE on the GPU path", () => {
  it("switches to the GPU broad phase: the label says GPU, the contacts are collide check's", async () => {
    const t0 = performance.now();
    const check = JSON.parse(
      execFileSync(process.execPath, [CLI, "check", "--json", SCENE], { encoding: "utf8" }),
    ) as { pairs: unknown[] };
    const expected = check.pairs.length;
    expect(expected).toBeGreaterThan(0);

    const page = await context!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    const status = page.getByTestId("status");
    await expect
      .poll(() => status.getAttribute("data-state"), { timeout: 30_000 })
      .not.toBe("loading");
    expect(await status.getAttribute("data-state"), (await status.textContent()) ?? "").toBe(
      "drawn",
    );
    const backend = page.getByTestId("backend");
    const count = async () => Number(await page.getByTestId("contact-count").textContent());
    expect(await backend.getAttribute("data-path")).toBe("cpu");
    expect(await backend.textContent()).toMatch(/^CPU/);
    expect(await count()).toBe(expected);

    // The worker found a WebGPU adapter (SwiftShader): the toggle is enabled.
    const toggle = page.getByTestId("gpu-toggle");
    await expect.poll(() => toggle.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId("gpu-reason").textContent()).toMatch(/swiftshader/i);

    await toggle.check();
    await expect.poll(() => backend.getAttribute("data-path"), { timeout: 30_000 }).toBe("gpu");
    const label = (await backend.textContent()) ?? "";
    process.stdout.write(`viewer on the GPU path: contacts from: ${label}\n`);
    expect(label).toMatch(/^GPU broad phase \(.*swiftshader.*\)$/i);
    expect(await count()).toBe(expected);
    expect(await toggle.isChecked()).toBe(true);
    await expect.poll(() => toggle.isEnabled(), { timeout: 10_000 }).toBe(true);

    // And back: the CPU path again, the same count.
    await toggle.uncheck();
    await expect.poll(() => backend.getAttribute("data-path"), { timeout: 30_000 }).toBe("cpu");
    expect(await count()).toBe(expected);
    expect(await status.getAttribute("data-state")).toBe("drawn");
    expect(errors).toEqual([]);
    await page.close();
    expect(performance.now() - t0).toBeLessThan(60_000);
  }, 90_000);
});
