/**
 * The examples site in a real browser: the site is built once with Vite (as `npm run examples`
 * does), served by scripts/serve-static.ts on 127.0.0.1 with the cross-origin isolation
 * headers, and each page is opened in Debian's Chromium, driven headless through
 * playwright-core. Every page must load with no console error and publish its inputs as
 * `collide query` lines with its answers on `window.__example`; the answers must match the
 * command's (`node dist/cli/main.js query`, an independent path: JSON parsing and the query
 * dispatcher) for the same lines. Dragging with the mouse must change the contact count as
 * expected, and each page leaves a screenshot (in docs/examples/ for the README with
 * `npm run screenshots`; see `screenshotDir`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { serveStatic } from "../../scripts/serve-static.js";
import { screenshotDir } from "./chromium.js";

declare global {
  interface Window {
    __example: {
      ready: boolean;
      screen: (x: number, y: number, z: number) => { x: number; y: number };
      [k: string]: unknown;
    };
  }
}

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const SITE = join(ROOT, "examples/web");
const SHOTS = screenshotDir("examples");

let context: BrowserContext | null = null;
let server: Server | null = null;
let profile = "";
let base = "";
/** Pages of the current test, closed after it (a page left open keeps drawing frames). */
const pages: Page[] = [];
const t0 = Date.now();

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Example {
  ready: boolean;
  contacts?: number;
  queries?: Json[];
  answers?: Json[];
  [k: string]: unknown;
}

beforeAll(async () => {
  await build({ configFile: join(SITE, "vite.config.ts"), logLevel: "error" });
  ({ server, url: base } = await serveStatic(join(SITE, "dist")));
  profile = mkdtempSync(join(tmpdir(), "collide-examples-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1100, height: 620 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--enable-unsafe-swiftshader",
    ],
  });
}, 90_000);

afterAll(async () => {
  await context?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  if (profile) rmSync(profile, { recursive: true, force: true });
  console.log(`examples browser test: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
});

/** Opens example `name`, recording console errors, and waits until it published its answers. */
async function open(name: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context!.newPage();
  pages.push(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(`${base}${name}.html`);
  await page.waitForFunction(() => window.__example?.ready === true, undefined, {
    timeout: 20_000,
  });
  return { page, errors };
}

async function state(page: Page): Promise<Example> {
  return page.evaluate(() => {
    const { screen: _s, ...rest } = window.__example;
    return JSON.parse(JSON.stringify(rest)) as Example;
  });
}

/** The answers of `collide query` for `lines` (one run of the command). */
function collideQuery(lines: Json[]): Json[] {
  const out = execFileSync(process.execPath, [CLI, "query"], {
    input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
    encoding: "utf8",
    cwd: ROOT,
  });
  return out
    .trim()
    .split("\n")
    .map((l) => {
      const o = JSON.parse(l) as { result?: Json; error?: Json };
      expect(o.error, l).toBeUndefined();
      return o.result as Json;
    });
}

/** Deep equality with numbers within `tol` (relative to max(1, |expected|)). */
function expectClose(actual: Json, expected: Json, tol: number, path = "$"): void {
  if (typeof expected === "number") {
    expect(typeof actual, path).toBe("number");
    expect(Math.abs((actual as number) - expected), path).toBeLessThanOrEqual(
      tol * Math.max(1, Math.abs(expected)),
    );
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as Json[]).length, path).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) {
      expectClose((actual as Json[])[i], expected[i], tol, `${path}[${i}]`);
    }
  } else if (expected !== null && typeof expected === "object") {
    expect(actual !== null && typeof actual === "object", path).toBe(true);
    for (const k of Object.keys(expected)) {
      expectClose((actual as Record<string, Json>)[k], expected[k], tol, `${path}.${k}`);
    }
  } else expect(actual, path).toBe(expected);
}

/** The page's published answers against `collide query` on its published lines. */
async function matchesQuery(page: Page, tol = 1e-9): Promise<Example> {
  const s = await state(page);
  expect(s.queries?.length ?? 0).toBeGreaterThan(0);
  const cli = collideQuery(s.queries!);
  s.answers!.forEach((a, i) => {
    // The page publishes the fields it shows; the command may give more (e.g. contact points).
    if (a === null) expect(cli[i], `answer ${i}`).toBeNull();
    else expectClose(cli[i], a, tol, `answer ${i}`);
  });
  return s;
}

/** Drags with the mouse from world point `from` to `to` (both on the drag plane z = const). */
async function drag(page: Page, from: number[], to: number[], release = true): Promise<void> {
  const at = (p: number[]) =>
    page.evaluate(([x, y, z]) => window.__example.screen(x, y, z), p as [number, number, number]);
  const a = await at(from);
  const b = await at(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  if (release) await page.mouse.up();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe("the examples site", () => {
  it("sphere–box: closest point, contact and dragging into the box", async () => {
    const { page, errors } = await open("sphere-box");
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(0);
    await drag(page, [2.2, 0.4, 0], [1.1, 0.3, 0]);
    s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    await shot(page, "sphere-box");
    await drag(page, [1.1, 0.3, 0], [-2.5, -1, 0]);
    expect((await matchesQuery(page)).contacts).toBe(0);
    expect(errors).toEqual([]);
  });

  it("OBB–OBB SAT: 15 axes, no separating axis exactly when the library says they overlap", async () => {
    const { page, errors } = await open("obb-sat");
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(0);
    expect(s.separatingAxes).toBeGreaterThan(0);
    await drag(page, [2.4, 0.3, 0], [1.2, 0.2, 0]);
    s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    expect(s.separatingAxes).toBe(0);
    await shot(page, "obb-sat");
    expect(errors).toEqual([]);
  });

  it("GJK and EPA: steps, and the distance and depth of collide query", async () => {
    const { page, errors } = await open("gjk-epa");
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(0);
    expect(s.gjkSteps).toBeGreaterThan(0);
    expect(s.epaSteps).toBe(0);
    await drag(page, [2.2, 0.5, 0], [0.9, 0.3, 0]);
    s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    expect(s.epaSteps).toBeGreaterThan(0);
    // The trace's signed distance is the narrow phase's: the contact query's depth.
    expect(s.traceDistance as number).toBeCloseTo(
      (s.answers![1] as { distance: number }).distance,
      9,
    );
    await page.getByRole("button", { name: "step ▶" }).click();
    expect(await page.getByTestId("readout").textContent()).toMatch(/GJK step 2 of/);
    await page.getByRole("button", { name: "last" }).click();
    expect(await page.getByTestId("readout").textContent()).toMatch(/EPA step (\d+) of \1/);
    await shot(page, "gjk-epa");
    expect(errors).toEqual([]);
  });

  it("2D polygon SAT: the minimum translation vector", async () => {
    const { page, errors } = await open("polygon-sat");
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(0);
    await drag(page, [2.6, 1.6, 0.01], [1.1, 0.5, 0.01]);
    s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    const c = s.answers![0] as { distance: number; normal: number[] };
    expect(c.distance).toBeLessThan(0);
    const mtv = s.mtv as number[];
    expect(Math.hypot(mtv[0], mtv[1])).toBeCloseTo(-c.distance, 12);
    await shot(page, "polygon-sat");
    expect(errors).toEqual([]);
  });

  it("bounding spheres: mean, Ritter and exact of collide query; exact is the smallest", async () => {
    const { page, errors } = await open("bounding-spheres");
    let s = await matchesQuery(page);
    const radius = (i: number) => (s.answers![i] as { radius: number }).radius;
    expect(radius(2)).toBeLessThanOrEqual(radius(1));
    expect(radius(2)).toBeLessThanOrEqual(radius(0));
    await page.getByRole("button", { name: "new cloud" }).click();
    s = await matchesQuery(page);
    expect(s.seed).toBe(2);
    await shot(page, "bounding-spheres");
    expect(errors).toEqual([]);
  });

  it("sphere–sphere volume and IoU; dragging apart empties the lens", async () => {
    const { page, errors } = await open("sphere-volume");
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    await shot(page, "sphere-volume");
    await drag(page, [1.6, 0.2, 0], [2.2, 0.2, 0]);
    s = await matchesQuery(page);
    expect(s.contacts).toBe(0);
    expect(s.answers![0]).toEqual({ volume: 0, surfaceArea: 0, iou: 0 });
    expect(errors).toEqual([]);
  });

  it("ray casts on the bunny match collide query, and the mouse ray hits", async () => {
    const { page, errors } = await open("bunny-rays");
    const s = await state(page);
    // examples/bunny.obj holds the npm package's numbers, which the page uses (read once by the
    // command, then cached).
    const shape = { type: "mesh", file: "examples/bunny.obj" } as unknown as Json;
    const rays = s.rays as { origin: number[]; direction: number[]; maxToi: number }[];
    const lines = rays.map((r) => ({ op: "raycast", shape, ...r }) as unknown as Json);
    const cli = collideQuery(lines);
    (s.answers as Json[]).forEach((a, i) => {
      if (a === null) expect(cli[i], `ray ${i}`).toBeNull();
      else expectClose(cli[i], a, 1e-9, `ray ${i}`);
    });
    expect(s.hits).toBeGreaterThan(10);
    expect(s.hits).toBeLessThan(rays.length);
    const p = await page.evaluate(() => window.__example.screen(0, 4, 0));
    await page.mouse.move(p.x, p.y);
    const hit = (await state(page)).mouseHit as {
      origin: number[];
      direction: number[];
      point: number[];
    };
    expect(hit).not.toBeNull();
    const [mouseCli] = collideQuery([
      {
        op: "raycast",
        shape,
        origin: hit.origin,
        direction: hit.direction,
        maxToi: 1000,
      } as unknown as Json,
    ]);
    expectClose(mouseCli, { point: hit.point } as unknown as Json, 1e-9);
    await shot(page, "bunny-rays");
    expect(errors).toEqual([]);
  });

  it("bullet and thin wall: CCD reports the impact of collide query's castShapes; discrete misses", async () => {
    const { page, errors } = await open("bullet-ccd");
    const s = await state(page);
    const first = s.firstPass as {
      impacts: { toi: number; query: Json }[];
      discreteContacts: number;
    };
    expect(first.discreteContacts).toBe(0);
    expect(first.impacts.length).toBe(1);
    const [cast] = collideQuery([first.impacts[0].query]);
    expect(cast).not.toBeNull();
    expect(first.impacts[0].toi).toBeCloseTo((cast as { toi: number }).toi, 6);
    await page.waitForFunction(() => {
      const c = window.__example.current as { impacts: unknown[] } | undefined;
      return (c?.impacts.length ?? 0) > 0;
    });
    await shot(page, "bullet-ccd");
    expect(errors).toEqual([]);
  });

  it("gravity: the ball comes to rest on the platform; lifting it with the mouse ends the contact", async () => {
    const { page, errors } = await open("gravity");
    await page.waitForFunction(() => window.__example.resting === true, undefined, {
      timeout: 30_000,
    });
    let s = await matchesQuery(page);
    expect(s.contacts).toBe(1);
    expect(s.bounces).toBeGreaterThan(0);
    await shot(page, "gravity");
    const h = s.height as number;
    const x = (s.queries![0] as { b: { center: number[] } }).b.center[0];
    await drag(page, [x, h, 0], [x, h + 2, 0], false);
    s = await state(page);
    expect(s.contacts).toBe(0);
    await page.mouse.up();
    await page.waitForFunction(() => window.__example.contacts === 1, undefined, {
      timeout: 10_000,
    });
    expect(errors).toEqual([]);
  });

  it("Web Worker threads: contacts bitwise identical to one thread, in Chromium", async () => {
    const { page, errors } = await open("workers");
    const s = await state(page);
    expect(s.error).toBeUndefined();
    expect(s.crossOriginIsolated).toBe(true);
    expect(s.identical).toBe(true);
    expect(s.numbers).toBeGreaterThan(1000);
    expect(s.workerBlocks).toBeGreaterThan(0);
    console.log(
      `workers page: ${s.threads} threads ${(s.msThreads as number).toFixed(2)} ms/step, one thread ${(s.msOneThread as number).toFixed(2)} ms/step, workers ran ${s.workerBlocks} of ${s.blocks} blocks`,
    );
    await shot(page, "workers");
    expect(errors).toEqual([]);
  });

  it("the index links every example", async () => {
    const page = await context!.newPage();
    pages.push(page);
    await page.goto(base);
    const links = await page.locator("ul.pages a").count();
    expect(links).toBe(10);
  });
});
