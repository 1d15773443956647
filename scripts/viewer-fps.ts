/**
 * Measures the debug viewer's frame rate in headless Chromium (software WebGL, as the browser
 * tests run it): starts `collide view --demo` (dist/cli/main.js; run `npm run build` first),
 * opens it at 1280 × 760, presses play and counts, over a few seconds, the frames the page drew
 * (`window.__collideFrames`), the requestAnimationFrame callbacks, and the worker's frames
 * (the frame index). Prints one line per configuration with the machine's load average.
 *
 *   npx tsx scripts/viewer-fps.ts [seconds] [--layers]
 *
 * `--layers` also measures with overlays switched off (wireframes; wireframes and body meshes;
 * everything), to see where the time goes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../test/browser/chromium.js";

const ROOT = resolve(import.meta.dirname, "..");
const seconds = Number(process.argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 6);
const layers = process.argv.includes("--layers");

function startViewer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "dist/cli/main.js"), "view", "--demo", "--port", "0"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    createInterface({ input: child.stdout! }).once("line", (line) =>
      done({ child, url: line.trim() }),
    );
    child.once("exit", (code) => reject(new Error(`collide view exited (${code})`)));
  });
}

/**
 * Frames drawn, animation frames and worker frames per second over `ms`. Passed as a string:
 * tsx's transform would add helpers the page does not have.
 */
async function measure(page: Page, ms: number) {
  return page.evaluate<{ drawn: number; raf: number; worker: number }>(`
    new Promise((done) => {
      const d0 = window.__collideFrames;
      const f0 = window.__collideWorkerFrame;
      let n = 0;
      const t0 = performance.now();
      const tick = () => {
        n++;
        const t = performance.now() - t0;
        if (t >= ${ms}) {
          const s = t / 1000;
          done({
            drawn: (window.__collideFrames - d0) / s,
            raf: n / s,
            worker: (window.__collideWorkerFrame - f0) / s,
          });
        } else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })`);
}

async function setToggles(page: Page, off: string[]): Promise<void> {
  for (const id of ["show-meshes", "show-wire", "show-aabbs", "show-candidates", "show-contacts"]) {
    await page.locator(`#${id}`).setChecked(!off.includes(id));
  }
}

async function main(): Promise<void> {
  const { child, url } = await startViewer();
  const profile = mkdtempSync(join(tmpdir(), "collide-fps-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      `document.querySelector('[data-testid="status"]')?.getAttribute("data-state") === "drawn"`,
      undefined,
      { timeout: 120_000 },
    );
    await page.getByTestId("demo-play").click();
    await page.waitForFunction("window.__collideWorkerFrame > 3", undefined, { timeout: 60_000 });
    const bodies = await page.getByTestId("bodies").locator("li").count();
    // The page's defaults: bodies, wireframes, AABBs and contacts on, candidate pairs off.
    const configs: [string, string[]][] = [["default layers", ["show-candidates"]]];
    if (layers) {
      configs.push(
        ["no wireframes", ["show-wire", "show-candidates"]],
        ["no wireframes, no body meshes", ["show-wire", "show-meshes", "show-candidates"]],
        [
          "all layers off",
          ["show-meshes", "show-wire", "show-aabbs", "show-candidates", "show-contacts"],
        ],
      );
    }
    for (const [name, off] of configs) {
      await setToggles(page, off);
      await measure(page, 1000); // settle
      const load = loadavg()[0];
      const r = await measure(page, 1000 * seconds);
      process.stdout.write(
        `${name} (${bodies} bodies): ${r.drawn.toFixed(1)} frames drawn/s, ${r.raf.toFixed(1)} animation frames/s, worker ${r.worker.toFixed(1)} frames/s; load average ${load.toFixed(1)} / ${loadavg()[0].toFixed(1)}\n`,
      );
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    child.kill();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
