/**
 * Measures the debug viewer's frame rate in headless Chromium (software WebGL, as the browser
 * tests run it): starts `collide view --demo` (dist/cli/main.js; run `npm run build` first),
 * opens it at 1280 × 760 (the demo plays as soon as it is loaded), lets the page warm up (the JIT, the adaptive
 * resolution), then counts over a few seconds the frames the page drew
 * (`window.__collideFrames`), the requestAnimationFrame callbacks, and the frames the worker
 * stepped. Prints one line per configuration with the machine's load average, the worker's step
 * time, the resolution scale and what was drawn.
 *
 *   npx tsx scripts/viewer-fps.ts [seconds] [--layers] [--cpu] [--resolution=X] [--cli=PATH]
 *
 * `--layers` also measures other sets of layers (AABBs, wireframes, everything, nothing);
 * `--cpu` adds the CPU time Chromium's threads spent per frame drawn, by process and thread
 * (Linux /proc: the GPU process's unnamed `Thread<n>` threads are SwiftShader's rasteriser);
 * `--resolution=X` opens the page with `?resolution=X` (a fixed scale instead of the adaptive
 * one); `--cli=PATH` runs another build's `collide` (to compare builds back to back).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, measureViewer } from "../test/browser/chromium.js";

const ROOT = resolve(import.meta.dirname, "..");
const seconds = Number(process.argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 6);
const layers = process.argv.includes("--layers");
const cpu = process.argv.includes("--cpu");
const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const fixedResolution = option("resolution");
const cli = resolve(option("cli") ?? join(ROOT, "dist/cli/main.js"));
/** Seconds of play before measuring (JIT warm-up, the resolution settling). */
const WARM_UP_S = 8;

function startViewer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [cli, "view", "--demo", "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    createInterface({ input: child.stdout! }).once("line", (line) =>
      done({ child, url: line.trim() }),
    );
    child.once("exit", (code) => reject(new Error(`collide view exited (${code})`)));
  });
}

/** CPU ticks (1/100 s) of every thread of the Chromium processes using `profile`. */
function cpuTicks(profile: string): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let cmd: string;
    let tasks: string[];
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.includes(profile)) continue;
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? "browser";
    for (const t of tasks) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const key = `${type}:${name.replace(/\d+>?$/, "n")}`;
        ticks.set(key, (ticks.get(key) ?? 0) + Number(f[11]) + Number(f[12]));
      } catch {}
    }
  }
  return ticks;
}

async function setToggles(page: Page, on: string[]): Promise<void> {
  for (const id of ["show-meshes", "show-wire", "show-aabbs", "show-candidates", "show-contacts"]) {
    await page.locator(`#${id}`).setChecked(on.includes(id));
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
    await page.goto(fixedResolution ? `${url}?resolution=${fixedResolution}` : url);
    await page.waitForFunction(
      `document.querySelector('[data-testid="status"]')?.getAttribute("data-state") === "drawn"`,
      undefined,
      { timeout: 120_000 },
    );
    await page.waitForFunction("window.__collideWorkerFrame > 3", undefined, { timeout: 60_000 });
    await page.waitForTimeout(1000 * WARM_UP_S);
    const bodies = await page.getByTestId("bodies").locator("li").count();
    // null: the page's own defaults.
    const configs: [string, string[] | null][] = [["the page's defaults", null]];
    if (layers) {
      const defaults = ["show-meshes", "show-contacts"];
      configs.push(
        ["defaults + AABBs", [...defaults, "show-aabbs"]],
        ["defaults + wireframes", [...defaults, "show-wire"]],
        [
          "everything (bodies, wireframes, AABBs, contacts, candidate pairs)",
          [...defaults, "show-wire", "show-aabbs", "show-candidates"],
        ],
        ["nothing", []],
      );
    }
    for (const [name, on] of configs) {
      if (on) await setToggles(page, on);
      await measureViewer(page, 1000); // settle
      const load = loadavg()[0];
      const before = cpu ? cpuTicks(profile) : null;
      const r = await measureViewer(page, 1000 * seconds);
      const shown = await page.evaluate(
        `[document.getElementById("triangles")?.textContent ?? "?", document.getElementById("segments")?.textContent ?? "?"]`,
      );
      const [triangles, segments] = shown as [string, string];
      process.stdout.write(
        `${name} (${bodies} bodies; ${triangles} triangles, ${segments} line segments): ` +
          `${r.drawn.toFixed(1)} frames drawn/s, ${r.raf.toFixed(1)} animation frames/s, ` +
          `worker ${r.worker.toFixed(1)} steps/s of ${r.stepMs.toFixed(2)} ms, ` +
          `resolution ${Math.round(100 * r.resolution)}%; ` +
          `load average ${load.toFixed(1)} / ${loadavg()[0].toFixed(1)}\n`,
      );
      if (before) {
        const after = cpuTicks(profile);
        const frames = r.drawn * r.seconds;
        const rows = [...after]
          .map(([k, v]) => [k, (10 * (v - (before.get(k) ?? 0))) / frames] as const)
          .filter(([, ms]) => ms >= 0.3)
          .sort((a, b) => b[1] - a[1]);
        const total = rows.reduce((s, [, ms]) => s + ms, 0);
        process.stdout.write(
          `  CPU ms per frame drawn: ${total.toFixed(1)} = ${rows.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(", ")}\n`,
        );
      }
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
