/**
 * The debug viewer in a real browser: `collide view` is started as a child process (the
 * JavaScript users run, dist/cli/main.js), Debian's Chromium is driven headless through
 * playwright-core. The page runs Collide in a Web Worker; each check compares what it shows
 * with the library run here in Node on the same input, through other entry points:
 * (1) the contact count against `collide check --json`; (2) GJK step 1's simplex against the
 * library's GJK with a GjkRecorder; (3) the broad phase's candidate pairs against a Node world;
 * (4) a ray from the mouse against `castRayClosest`; (5) dragging a body off the floor ends its
 * contact (count and end event); (6) a mesh pair's closest triangle against a brute-force scan
 * of every triangle with the `distance` query; (7) the demo plays at the display's rate
 * (frames per second printed). Screenshots go to docs/ for the README with `npm run screenshots`
 * (else to a temporary folder: see `screenshotDir`).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoScene } from "../../src/debug/demo-scene.js";
import { GjkRecorder, gjk, makeGjkResult } from "../../src/geometry/gjk.js";
import { TransformedSupport } from "../../src/geometry/support.js";
import { loadScene } from "../../src/io/scene.js";
import * as iso from "../../src/math/isometry.js";
import * as quat from "../../src/math/quat.js";
import * as vec3 from "../../src/math/vec3.js";
import { loadBunny } from "../../src/models/bunny.js";
import { ShapeCoreSupport } from "../../src/narrowphase/convex-convex.js";
import { distance } from "../../src/query/distance.js";
import type { ConvexShape } from "../../src/shapes/shape.js";
import { makeTriangle } from "../../src/shapes/triangle.js";
import type { TriangleMesh } from "../../src/shapes/triangle-mesh.js";
import { CollisionWorld } from "../../src/world/collision-world.js";
import { castRayClosest } from "../../src/world/ray-cast.js";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  measureViewer,
  screenshotDir,
  type ViewerRates,
} from "./chromium.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/main.js");
const SCENE = join(ROOT, "examples/scene.json");
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

/** Opens `target` and waits until the page has drawn its first frame from the worker. */
async function openViewer(target: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context!.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(target);
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="status"]')?.getAttribute("data-state") !== "loading",
    undefined,
    { timeout: 60_000 },
  );
  const status = page.getByTestId("status");
  expect(await status.getAttribute("data-state"), (await status.textContent()) ?? "").toBe("drawn");
  return { page, errors };
}

/** Page coordinates of the centre of body `i`'s AABB. */
function project(page: Page, i: number): Promise<[number, number]> {
  return page.evaluate(
    (k) =>
      (window as unknown as { __collideProject: (i: number) => [number, number] }).__collideProject(
        k,
      ),
    i,
  );
}

beforeAll(async () => {
  url = await startViewer();
  profile = mkdtempSync(join(tmpdir(), "collide-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: CHROMIUM_ARGS,
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  for (const child of servers) {
    // The package test's server runs under npx in its own process group: end the group.
    try {
      if (child.pid && child.spawnargs[0] === "npx") process.kill(-child.pid);
      else child.kill();
    } catch {
      child.kill();
    }
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const scene = loadScene(SCENE);
const indexOf = (id: string) => scene.bodies.findIndex((b) => b.id === id);

describe("collide view SCENE", () => {
  it("prints its loopback address first", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("draws the scene, matches collide check, steps GJK, shows candidate pairs", async () => {
    const { page, errors } = await openViewer(url);
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

    // Contact count: the page's worker against `collide check --json` on the same scene.
    const check = JSON.parse(
      execFileSync(process.execPath, [CLI, "check", "--json", SCENE], { encoding: "utf8" }),
    ) as { pairs: unknown[] };
    const shown = Number(await page.getByTestId("contact-count").textContent());
    expect(shown).toBe(check.pairs.length);
    expect(shown).toBeGreaterThan(0);

    // Candidate pairs: a Node world with the same broad phase (the dynamic tree).
    const w = new CollisionWorld({ broadphase: "tree" });
    for (const b of scene.bodies) {
      w.addBody({ shape: b.shape, pose: b.pose, layer: b.layer, mask: b.mask });
    }
    w.step();
    await page.getByTestId("show-candidates").check();
    expect(Number(await page.getByTestId("candidate-count").textContent())).toBe(
      w.candidatePairs().length / 2,
    );

    // Pick two bodies and single-step GJK once.
    await page.getByTestId("body-crate").click();
    await page.getByTestId("body-crate-on-crate").click();
    const stepButton = page.getByTestId("gjk-step");
    await expect.poll(() => stepButton.isEnabled(), { timeout: 20_000 }).toBe(true);
    await stepButton.click();
    await expect
      .poll(() => page.getByTestId("gjk-step-index").textContent(), { timeout: 10_000 })
      .toMatch(/^GJK step 1 \/ \d+$/);
    const simplexEl = page.getByTestId("gjk-simplex");
    const shownSimplex = JSON.parse(
      (await simplexEl.getAttribute("data-simplex")) ?? "[]",
    ) as number[][];
    expect(await simplexEl.textContent()).toContain(`simplex: ${shownSimplex.length} point(s)`);

    // Oracle: the library's GJK on the same pair with a GjkRecorder, mapped to world orientation.
    const A = scene.bodies[indexOf("crate")];
    const B = scene.bodies[indexOf("crate-on-crate")];
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
    const expected = rec.steps[0].simplex.map((p) =>
      quat.rotate(vec3.create(), A.pose.rotation, p),
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
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(screenshotDir(), "viewer.png") });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("casts a ray from the mouse: the hit matches castRayClosest in Node", async () => {
    const { page, errors } = await openViewer(url);
    await page.getByTestId("tool-ray").check();
    const target = indexOf("crate-on-crate");
    const [x, y] = await project(page, target);
    await page.mouse.move(x - 3, y);
    await page.mouse.move(x, y);
    const ray = page.getByTestId("ray");
    await expect.poll(() => ray.getAttribute("data-body"), { timeout: 20_000 }).not.toBe("-1");
    // Read the ray's attributes in one go, once they have settled: a later mouse event's ray
    // may land between separate reads (origin of one ray, hit of the next).
    const readRay = () =>
      page.evaluate(() => {
        const e = document.querySelector('[data-testid="ray"]');
        return ["data-body", "data-origin", "data-dir", "data-point", "data-normal"].map(
          (a) => e?.getAttribute(a) ?? "null",
        );
      });
    let attrs = await readRay();
    for (let k = 0; k < 50; k++) {
      await page.waitForTimeout(200);
      const next = await readRay();
      if (JSON.stringify(next) === JSON.stringify(attrs)) break;
      attrs = next;
    }
    const [body, origin, dir, point, normal] = [
      Number(attrs[0]),
      ...attrs.slice(1).map((a) => JSON.parse(a) as number[]),
    ] as [number, number[], number[], number[], number[]];
    const w = new CollisionWorld({ broadphase: "brute" });
    const handles = scene.bodies.map((b) => w.addBody({ shape: b.shape, pose: b.pose }));
    const hit = castRayClosest(
      w,
      vec3.create(origin[0], origin[1], origin[2]),
      vec3.create(dir[0], dir[1], dir[2]),
    );
    expect(hit).not.toBeNull();
    expect(body).toBe(handles.indexOf(hit!.handle));
    expect(body).toBe(target);
    for (let k = 0; k < 3; k++) {
      expect(point[k]).toBeCloseTo([hit!.point.x, hit!.point.y, hit!.point.z][k], 9);
      expect(normal[k]).toBeCloseTo([hit!.normal.x, hit!.normal.y, hit!.normal.z][k], 9);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("drags a body off the floor: its contact ends, live", async () => {
    const { page, errors } = await openViewer(url);
    const before = Number(await page.getByTestId("contact-count").textContent());
    await page.getByTestId("tool-drag").check();
    const [x, y] = await project(page, indexOf("ball"));
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) await page.mouse.move(x, y - 25 * k);
    await expect
      .poll(async () => Number(await page.getByTestId("contact-count").textContent()), {
        timeout: 20_000,
      })
      .toBe(before - 1);
    await expect
      .poll(() => page.getByTestId("event-log").textContent(), { timeout: 10_000 })
      .toContain("end: floor – ball");
    await page.mouse.up();
    // Back down onto the floor: the contact begins again.
    await page.getByTestId("tool-drag").check();
    const [x2, y2] = await project(page, indexOf("ball"));
    await page.mouse.move(x2, y2);
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) await page.mouse.move(x2, y2 + 25 * k);
    await expect
      .poll(() => page.getByTestId("event-log").textContent(), { timeout: 20_000 })
      .toContain("begin: floor – ball");
    await page.mouse.up();
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("serves the loopback interface only", async () => {
    const status = await rawStatus(url, "example.com");
    expect(status).toBe(403);
    expect(await rawStatus(url, new URL(url).host)).toBe(200);
    const bad = spawnSync(process.execPath, [CLI, "view", SCENE, "--host", "0.0.0.0"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^collide: --host/);
  });

  it("refuses a busy port with one collide: line and status 1", () => {
    const port = new URL(url).port;
    const busy = spawnSync(process.execPath, [CLI, "view", SCENE, "--port", port], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(busy.status).toBe(1);
    expect(busy.stderr.trim()).toBe(
      `collide: --port ${port} is in use by another program (pick another, or 0 for any free port)`,
    );
  });
});

describe("collide view --demo", () => {
  it("picks a mesh pair (closest triangle, by brute force) and plays in the page", async () => {
    const bodies = 60;
    const demoUrl = await startViewer(["--demo", "--bodies", String(bodies)]);
    // Opened paused (`?play=0`): the pair is picked at frame 0, then play is pressed.
    const { page, errors } = await openViewer(`${demoUrl}?play=0`);
    expect(await page.getByTestId("frame-index").textContent()).toBe("0");

    // The bunny mesh and the first crowd body, at frame 0 (nothing has moved yet).
    await page.getByTestId("body-bunny (mesh)").click();
    await page.getByTestId("body-body 0").click();
    const pre = page.getByTestId("gjk-simplex");
    await expect
      .poll(() => pre.getAttribute("data-triangle"), { timeout: 20_000 })
      .toMatch(/^\d+$/);
    expect(await page.getByTestId("gjk-step-index").textContent()).toContain(
      "bunny (mesh): closest triangle #",
    );
    const shownTriangle = Number(await pre.getAttribute("data-triangle"));
    const shownDistance = Number(/distance (\S+)/.exec((await pre.textContent()) ?? "")![1]);
    // Oracle: the same demo built here, every triangle of the mesh against the body.
    const demo = new DemoScene({ model: loadBunny(), bodies, seed: 1 });
    const mesh = demo.bodies.find((b) => b.name === "bunny (mesh)")!;
    const body = demo.bodies.find((b) => b.name === "body 0")!;
    const m = mesh.shape as TriangleMesh;
    const meshPose = demo.world.getPose(mesh.handle);
    const bodyPose = demo.world.getPose(body.handle);
    let best = -1;
    let bestD = Infinity;
    const corner = (t: number, k: number) => {
      const i = 3 * m.indices[3 * t + k];
      return vec3.create(m.vertices[i], m.vertices[i + 1], m.vertices[i + 2]);
    };
    for (let t = 0; t < m.triangleCount; t++) {
      const tri = makeTriangle(corner(t, 0), corner(t, 1), corner(t, 2));
      const d = distance(tri, meshPose, body.shape, bodyPose).distance;
      if (d < bestD) {
        bestD = d;
        best = t;
      }
    }
    expect(best).toBeGreaterThanOrEqual(0);
    expect(shownDistance).toBeCloseTo(bestD, 5);
    // The shown triangle is one of the closest (triangles sharing the closest vertex or edge tie).
    const shown = makeTriangle(
      corner(shownTriangle, 0),
      corner(shownTriangle, 1),
      corner(shownTriangle, 2),
    );
    expect(distance(shown, meshPose, body.shape, bodyPose).distance).toBeCloseTo(bestD, 9);
    await page.screenshot({ path: join(screenshotDir(), "viewer-mesh-pair.png") });

    // Play: frames advance in the worker, the page draws at the display's rate.
    await page.getByTestId("demo-play").click();
    await expect
      .poll(async () => Number(await page.getByTestId("frame-index").textContent()), {
        timeout: 20_000,
      })
      .toBeGreaterThan(3);
    const rates = await measureViewer(page, 3000);
    process.stdout.write(`${describeRates(`viewer demo (${bodies} moving bodies)`, rates)}\n`);
    // It plays: the page draws new frames and the worker steps (no wall-clock threshold).
    expect(rates.framesDrawn).toBeGreaterThan(0);
    expect(rates.workerFrames).toBeGreaterThan(0);
    await page.screenshot({ path: join(screenshotDir(), "viewer-demo.png") });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
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

describe("the package from npm pack", () => {
  // In this file, after the tests above have built dist/viewer: `npm pack --ignore-scripts`
  // packs the build the suite made (prepack, `npm run build && npm run build:viewer`, would
  // rewrite dist/ while other test files run dist/cli/main.js).
  it("installs into an empty folder and `npx collide view --demo` plays in Chromium", async () => {
    const t0 = performance.now();
    const dir = mkdtempSync(join(tmpdir(), "collide-pack-"));
    try {
      const packed = JSON.parse(
        execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
          cwd: ROOT,
          encoding: "utf8",
        }),
      ) as { filename: string; files: { path: string }[] }[];
      const files = packed[0].files.map((f) => f.path);
      expect(files).toContain("dist/viewer/index.html");
      expect(files).toContain("dist/cli/main.js");
      expect(files.some((f) => f.startsWith("dist/viewer/assets/worker-"))).toBe(true);
      // The shipped declarations point at files that ship: not at the repository's shared/,
      // and every src/… or docs/… file they name is in the package (src/ ships, for the
      // declarations' references and the source maps).
      const shipped = new Set(files);
      for (const f of files.filter((p) => p.endsWith(".d.ts"))) {
        const text = readFileSync(join(ROOT, f), "utf8");
        expect(text, f).not.toContain("shared/");
        for (const [ref] of text.matchAll(/\b(?:src|docs)\/[\w./-]*\w\.(?:ts|md)\b/g)) {
          expect(shipped.has(ref), `${f} names ${ref}`).toBe(true);
        }
      }
      expect(files.some((p) => p.startsWith("examples/web/dist/"))).toBe(false);
      const app = join(dir, "app");
      mkdirSync(app);
      writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true }\n');
      execFileSync(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", join(dir, packed[0].filename)],
        { cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
      );
      expect(existsSync(join(app, "node_modules", "vite"))).toBe(false);
      const port = await freePort();
      const child = spawn("npx", ["--no", "collide", "view", "--demo", "--port", String(port)], {
        cwd: app,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      servers.push(child);
      const address = await new Promise<string>((done, reject) => {
        createInterface({ input: child.stdout! }).once("line", (l) => done(l.trim()));
        child.once("exit", (code) => reject(new Error(`npx collide view exited (${code})`)));
      });
      expect(address).toBe(`http://127.0.0.1:${port}/`);
      // The same port again: one `collide:` line, status 1.
      const busy = spawnSync("npx", ["--no", "collide", "view", "--demo", "--port", String(port)], {
        cwd: app,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(/^collide: --port \d+ is in use/);
      // The demo plays as soon as it is loaded: no button to press.
      const { page, errors } = await openViewer(address);
      await expect.poll(() => page.getByTestId("demo-play").textContent()).toBe("pause");
      await expect
        .poll(async () => Number(await page.getByTestId("frame-index").textContent()), {
          timeout: 20_000,
        })
        .toBeGreaterThan(3);
      // Warm up (the JIT, the adaptive resolution), then measure the frame rate and print it.
      await page.waitForTimeout(WARM_UP_MS);
      const rates = await measureViewer(page, 4000);
      const bodies = await page.getByTestId("bodies").locator("li").count();
      process.stdout.write(
        `${describeRates(`installed package, npx collide view --demo (${bodies} bodies)`, rates)}; test ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
      );
      // It plays: the page draws new frames and the worker steps (no wall-clock threshold).
      expect(rates.framesDrawn).toBeGreaterThan(0);
      expect(rates.workerFrames).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});

/** Play before the packed viewer's frame rate is measured, ms. */
const WARM_UP_MS = 5000;

/** One line of the viewer's measured rates, with the machine's load average. */
function describeRates(what: string, r: ViewerRates): string {
  return (
    `${what}: ${r.drawn.toFixed(1)} frames drawn/s, ${r.raf.toFixed(1)} animation frames/s, ` +
    `worker ${r.worker.toFixed(1)} steps/s of ${r.stepMs.toFixed(2)} ms, resolution ` +
    `${Math.round(100 * r.resolution)}% (headless Chromium, software WebGL; load average ` +
    `${loadavg()[0].toFixed(1)})`
  );
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => done(p));
    });
  });
}
