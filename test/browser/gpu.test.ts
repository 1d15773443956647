/**
 * The GPU path in a real browser: Debian's Chromium, headless, with WebGPU enabled on SwiftShader
 * (its software Vulkan driver; no GPU needed), loads the built library (dist/, plain ES modules
 * served from 127.0.0.1, a secure context) and steps one world with `createGpuBroadPhase` of
 * `collide/gpu` on `navigator.gpu`'s device and one with `"grid"`: the contacts and events must
 * be bitwise identical. Also runs a GPU ray batch and checks it against the CPU world ray cast.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, resolve } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const DIST = join(ROOT, "dist");
const CHROMIUM = "/usr/bin/chromium";

/** Chromium flags that give headless WebGPU on SwiftShader (Vulkan) without a GPU. */
const WEBGPU_FLAGS = [
  "--no-sandbox",
  "--enable-unsafe-webgpu",
  "--enable-features=Vulkan",
  "--use-vulkan=swiftshader",
  "--use-webgpu-adapter=swiftshader",
  "--disable-vulkan-surface",
  "--enable-unsafe-swiftshader",
];

let server: Server;
let browser: Browser;
let url = "";

beforeAll(async () => {
  // dist/ as static ES modules, and an empty page at /.
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
    if (path === "/") {
      res.setHeader("content-type", "text/html");
      res.end("<!doctype html><title>collide gpu</title>");
      return;
    }
    const file = normalize(join(DIST, path.replace(/^\/dist\//, "")));
    if (!path.startsWith("/dist/") || !file.startsWith(DIST) || !file.endsWith(".js")) {
      res.statusCode = 404;
      res.end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.setHeader("content-type", "text/javascript");
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: WEBGPU_FLAGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok));
});

/** Runs in the page (plain JavaScript: vitest must not transform its dynamic imports). */
const PAGE_CODE = `(async () => {
      const gpuMod = await import("/dist/gpu/index.js");
      const world = await import("/dist/world/index.js");
      const shapes = await import("/dist/shapes/index.js");
      const rayMod = await import("/dist/world/ray-cast.js");
      const nav = navigator;
      if (!nav.gpu) return { error: "no navigator.gpu" };
      const adapter = await nav.gpu.requestAdapter();
      if (!adapter) return { error: "no adapter" };
      const device = await adapter.requestDevice();
      let seed = 12345;
      const rnd = () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
      const gpuWorld = new world.CollisionWorld({ broadphase: gpuMod.createGpuBroadPhase(device) });
      const ref = new world.CollisionWorld({ broadphase: "grid" });
      const bodies = [];
      for (let i = 0; i < 600; i++) {
        const s = 0.2 + 0.4 * rnd();
        const k = i % 3;
        const shape =
          k === 0
            ? shapes.makeSphere(s)
            : k === 1
              ? shapes.makeCuboid({ x: s, y: s, z: 0.5 * s })
              : shapes.makeCapsule({ x: 0, y: -s, z: 0 }, { x: 0, y: s, z: 0 }, 0.5 * s);
        const pose = {
          translation: { x: 10 * rnd(), y: 10 * rnd(), z: 10 * rnd() },
          rotation: { x: 0, y: 0, z: Math.sin(i), w: Math.cos(i) },
        };
        const l = Math.hypot(pose.rotation.z, pose.rotation.w);
        pose.rotation.z /= l;
        pose.rotation.w /= l;
        bodies.push({ shape, pose });
        gpuWorld.addBody({ shape, pose });
        ref.addBody({ shape, pose });
      }
      const dump = (w) => {
        const out = [];
        for (const c of w.contacts()) {
          out.push(c.a, c.b, c.distance, c.manifold.normal.x, c.manifold.normal.y, c.manifold.normal.z);
          for (let i = 0; i < c.manifold.count; i++) {
            const p = c.manifold.points[i];
            out.push(p.pointA.x, p.pointA.y, p.pointA.z, p.pointB.x, p.pointB.y, p.pointB.z, p.distance);
          }
        }
        const e = w.events();
        return JSON.stringify([out, e.begin.toArray(), e.persist.toArray(), e.end.toArray()]);
      };
      let same = true;
      let contacts = 0;
      for (let step = 0; step < 3; step++) {
        await gpuWorld.stepAsync();
        ref.step();
        if (dump(gpuWorld) !== dump(ref)) same = false;
        contacts += ref.contactCount;
      }
      let threw = "";
      try {
        gpuWorld.step();
      } catch (e) {
        threw = String(e.message);
      }
      // Rays into the same bodies.
      const rc = gpuMod.createGpuRayCaster(device, {
        shapes: bodies.map((b) => b.shape),
        poses: bodies.map((b) => b.pose),
      });
      const rays = new Float64Array(6 * 500);
      for (let i = 0; i < 500; i++) {
        rays.set([10 * rnd(), 10 * rnd(), -2, rnd() - 0.5, rnd() - 0.5, 1], 6 * i);
      }
      const hits = await rc.castRays(rays);
      const handles = ref.handles();
      let raysSame = true;
      for (let i = 0; i < 500; i++) {
        const o = { x: rays[6 * i], y: rays[6 * i + 1], z: rays[6 * i + 2] };
        const d = { x: rays[6 * i + 3], y: rays[6 * i + 4], z: rays[6 * i + 5] };
        const h = rayMod.castRayClosest(ref, o, d);
        const want = h === null ? -1 : handles.indexOf(h.handle);
        if (hits.hit[i] !== want) raysSame = false;
      }
      return {
        adapter: \`\${adapter.info.vendor} \${adapter.info.architecture}\`,
        same,
        contacts,
        threw,
        raysSame,
        gpuRays: hits.count - hits.cpuRays,
      };
})()`;

describe("collide/gpu in Chromium (WebGPU on SwiftShader)", () => {
  it("a GPU-broad-phase world gives the grid world's contacts and events, and rays match", async () => {
    const page = await browser.newPage();
    await page.goto(url);
    const r = (await page.evaluate(PAGE_CODE)) as Record<string, unknown>;
    expect(r).not.toHaveProperty("error");
    expect(String(r.adapter)).toMatch(/swiftshader/i);
    expect(r.contacts as number).toBeGreaterThan(50);
    expect(r.same).toBe(true);
    expect(String(r.threw)).toMatch(/stepAsync/);
    expect(r.raysSame).toBe(true);
    expect(r.gpuRays as number).toBeGreaterThan(100);
  });
});
