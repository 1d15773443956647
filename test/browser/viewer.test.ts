/**
 * The debug viewer in a real browser: `collide view examples/scene.json` is started as a child
 * process (the JavaScript users run, dist/cli/main.js), Debian's Chromium is driven headless
 * through playwright-core, and the page must (1) draw, (2) show the same contact count as
 * `collide check --json` on the same scene, (3) step GJK once on a selected pair and show step
 * 1's simplex — compared with the library's own GJK run through a GjkRecorder, an independent
 * path from the viewer's server — and (4) leave a screenshot at docs/viewer.png for the README.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GjkRecorder, gjk, makeGjkResult } from "../../src/geometry/gjk.js";
import { TransformedSupport } from "../../src/geometry/support.js";
import { loadScene } from "../../src/io/scene.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { ShapeCoreSupport } from "../../src/narrowphase/convex-convex.js";
import type { ConvexShape } from "../../src/shapes/shape.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const SCENE = join(ROOT, "examples/scene.json");
const SCREENSHOT = join(ROOT, "docs/viewer.png");
const CHROMIUM = "/usr/bin/chromium";

let context: BrowserContext | null = null;
let profile = "";
let url = "";

const servers: ChildProcess[] = [];

/** Starts `collide view ARGS` and resolves with the address it prints first. */
function startViewer(args: string[] = [SCENE]): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(process.execPath, [CLI, "view", ...args, "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    servers.push(child);
    let stderr = "";
    child.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolveUrl(line.trim()));
    child.once("exit", (code) => reject(new Error(`collide view exited (${code}): ${stderr}`)));
  });
}

beforeAll(async () => {
  url = await startViewer();
  profile = mkdtempSync(join(tmpdir(), "collide-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      // WebGL without a GPU: Chromium's software rasteriser (SwiftShader), which newer
      // versions only enable for WebGL when asked.
      "--enable-unsafe-swiftshader",
    ],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  for (const child of servers) child.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe("collide view", () => {
  it("prints its loopback address first", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("draws the scene, matches collide check, steps GJK and saves a screenshot", async () => {
    const page = await context!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    const status = page.getByTestId("status");
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="status"]')?.getAttribute("data-state") !== "loading",
      undefined,
      { timeout: 20_000 },
    );
    expect(await status.getAttribute("data-state"), (await status.textContent()) ?? "").toBe(
      "drawn",
    );
    const rendered = await page.evaluate(
      () => (window as unknown as { __collideFrames?: number }).__collideFrames ?? 0,
    );
    expect(rendered).toBeGreaterThan(0);
    // Something other than the background was drawn: count pixels that differ from the corner.
    const painted = await page.evaluate(() => {
      const gl = document.querySelector("#view canvas") as HTMLCanvasElement;
      const c = document.createElement("canvas");
      c.width = gl.width;
      c.height = gl.height;
      const ctx = c.getContext("2d")!;
      ctx.drawImage(gl, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 30) n++;
      }
      return n / (c.width * c.height);
    });
    expect(painted).toBeGreaterThan(0.05);

    // Contact count: the page against `collide check --json` on the same scene.
    const check = JSON.parse(
      execFileSync(process.execPath, [CLI, "check", "--json", SCENE], { encoding: "utf8" }),
    ) as { pairs: unknown[] };
    const shown = Number(await page.getByTestId("contact-count").textContent());
    expect(shown).toBe(check.pairs.length);
    expect(shown).toBeGreaterThan(0);

    // Pick two bodies and single-step GJK once.
    await page.getByTestId("body-crate").click();
    await page.getByTestId("body-crate-on-crate").click();
    const stepButton = page.getByTestId("gjk-step");
    await expect.poll(() => stepButton.isEnabled(), { timeout: 10_000 }).toBe(true);
    await stepButton.click();
    await expect
      .poll(() => page.getByTestId("gjk-step-index").textContent(), { timeout: 5_000 })
      .toMatch(/^GJK step 1 \/ \d+$/);
    const simplexEl = page.getByTestId("gjk-simplex");
    const shownSimplex = JSON.parse(
      (await simplexEl.getAttribute("data-simplex")) ?? "[]",
    ) as number[][];
    expect(await simplexEl.textContent()).toContain(`simplex: ${shownSimplex.length} point(s)`);

    // Oracle: the library's GJK on the same pair with a GjkRecorder, mapped to world orientation.
    const scene = loadScene(SCENE);
    const A = scene.bodies.find((b) => b.id === "crate")!;
    const B = scene.bodies.find((b) => b.id === "crate-on-crate")!;
    const bInA = iso.invMul(iso.identity(), A.pose, B.pose);
    const coreB = new TransformedSupport().reset(
      new ShapeCoreSupport().reset(B.shape as ConvexShape),
      bInA,
    );
    const rec = new GjkRecorder();
    gjk(
      makeGjkResult(),
      new ShapeCoreSupport().reset(A.shape as ConvexShape),
      coreB,
      bInA.translation,
      Infinity,
      rec,
    );
    const expected = rec.steps[0].simplex.map((w) =>
      quat.rotate(vec3.create(), A.pose.rotation, w),
    );
    expect(shownSimplex.length).toBe(expected.length);
    shownSimplex.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(expected[i].x, 9);
      expect(p[1]).toBeCloseTo(expected[i].y, 9);
      expect(p[2]).toBeCloseTo(expected[i].z, 9);
    });

    // For the picture: GJK's last simplex with EPA's final polytope beside it.
    while (await stepButton.isEnabled()) {
      const label = (await page.getByTestId("gjk-step-index").textContent()) ?? "";
      const m = /^GJK step (\d+) \/ (\d+)$/.exec(label);
      if (!m || m[1] === m[2]) break;
      await stepButton.click();
    }
    await page.getByTestId("epa-toggle").check();
    await page.screenshot({ path: SCREENSHOT });
    expect(errors).toEqual([]);
  });

  it("plays the demo frame by frame", async () => {
    const demoUrl = await startViewer(["--demo", "--frames", "30"]);
    const page = await context!.newPage();
    await page.goto(demoUrl);
    await expect
      .poll(() => page.getByTestId("status").getAttribute("data-state"), { timeout: 20_000 })
      .toBe("drawn");
    expect(await page.getByTestId("frame-index").textContent()).toBe("0");
    await page.getByTestId("demo-step").click();
    await expect.poll(() => page.getByTestId("frame-index").textContent()).toBe("1");
    await page.getByTestId("demo-play").click();
    await expect
      .poll(async () => Number(await page.getByTestId("frame-index").textContent()), {
        timeout: 10_000,
      })
      .toBeGreaterThan(3);
    await page.getByTestId("demo-play").click();
    const count = Number(await page.getByTestId("contact-count").textContent());
    expect(Number.isInteger(count) && count >= 0).toBe(true);
  });

  it("serves the loopback interface only", async () => {
    const status = await rawStatus(url, "example.com");
    expect(status).toBe(403);
    expect(await rawStatus(url, new URL(url).host)).toBe(200);
    const bad = spawnSync(process.execPath, [CLI, "view", SCENE, "--host", "0.0.0.0"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--host/);
  });
});

/** The status code of GET `target` sent with the given Host header. */
function rawStatus(target: string, host: string): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const req = request(target, { headers: { host } }, (res) => {
      res.resume();
      resolveStatus(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}
