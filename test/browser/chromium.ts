/** Shared by the browser tests: Debian's Chromium, its flags, and the viewer's frame-rate probe. */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";

/**
 * Where the browser tests write their screenshots, `docs/<sub>` of the repository when
 * `COLLIDE_SCREENSHOTS=1` (`npm run screenshots`: the README's images), else a folder under the
 * system's temporary folder, so that a test run leaves the tracked tree as it was.
 */
export function screenshotDir(sub = ""): string {
  const dir =
    process.env.COLLIDE_SCREENSHOTS === "1"
      ? join(resolve(import.meta.dirname, "../.."), "docs", sub)
      : join(tmpdir(), "collide-screenshots", sub);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Debian's Chromium (scripts/test-setup.sh installs it). */
export const CHROMIUM = "/usr/bin/chromium";

/** Chromium's flags: headless, no GPU (WebGL through SwiftShader), nothing fetched. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  // WebGL without a GPU: Chromium's software rasteriser (SwiftShader), which newer versions
  // only enable for WebGL when asked.
  "--enable-unsafe-swiftshader",
];

/** What {@link measureViewer} measured over `seconds`. */
export interface ViewerRates {
  /** Frames the viewer's page drew per second (`window.__collideFrames`). */
  drawn: number;
  /** requestAnimationFrame callbacks per second (the display's rate, when the page keeps up). */
  raf: number;
  /** Frames the viewer's worker stepped per second (`window.__collideWorkerFrame`). */
  worker: number;
  /** Mean of the worker's step time over the frames drawn, ms (`window.__collideStepMs`). */
  stepMs: number;
  /** The resolution scale at the end (`window.__collideResolution`). */
  resolution: number;
  /** The span measured, s. */
  seconds: number;
  /** Frames drawn and worker frames over the span (both advance while the demo plays). */
  framesDrawn: number;
  workerFrames: number;
}

/**
 * The debug viewer's rates over `ms` milliseconds (see {@link ViewerRates}). The page function
 * is a string: a transpiler's helpers (tsx, vitest) would not exist in the page.
 */
export async function measureViewer(page: Page, ms = 3000): Promise<ViewerRates> {
  return page.evaluate<ViewerRates>(`
    new Promise((done) => {
      const w = window;
      const d0 = w.__collideFrames;
      const f0 = w.__collideWorkerFrame;
      let n = 0;
      let stepSum = 0;
      let steps = 0;
      let lastDrawn = d0;
      const t0 = performance.now();
      const tick = () => {
        n++;
        if (w.__collideFrames !== lastDrawn && typeof w.__collideStepMs === "number") {
          lastDrawn = w.__collideFrames;
          stepSum += w.__collideStepMs;
          steps++;
        }
        const t = performance.now() - t0;
        if (t >= ${ms}) {
          const s = t / 1000;
          done({
            drawn: (w.__collideFrames - d0) / s,
            raf: n / s,
            worker: (w.__collideWorkerFrame - f0) / s,
            stepMs: steps ? stepSum / steps : Number.NaN,
            resolution: typeof w.__collideResolution === "number" ? w.__collideResolution : 1,
            seconds: s,
            framesDrawn: w.__collideFrames - d0,
            workerFrames: w.__collideWorkerFrame - f0,
          });
        } else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })`);
}
