/** Shared by the browser tests: Debian's Chromium, its flags, and a frame-rate probe. */
import type { Page } from "playwright-core";

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

/** Frames drawn per second over `ms` milliseconds (requestAnimationFrame callbacks). */
export async function measureFps(page: Page, ms = 2000): Promise<number> {
  return page.evaluate(
    (span) =>
      new Promise<number>((done) => {
        let n = 0;
        const t0 = performance.now();
        const tick = () => {
          n++;
          const t = performance.now() - t0;
          if (t >= span) done((1000 * n) / t);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}
