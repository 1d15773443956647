/**
 * The examples' static server (scripts/serve-static.ts): files with their content type and the
 * cross-origin isolation headers, index.html for a folder, 404 for a missing file, and nothing
 * outside the root (an encoded `..` is refused).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic } from "../../scripts/serve-static.js";

let server: Server;
let url = "";
let root = "";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "collide-serve-"));
  mkdirSync(join(root, "site"));
  writeFileSync(join(root, "site", "index.html"), "<p>home</p>");
  writeFileSync(join(root, "site", "a.js"), "export {};");
  writeFileSync(join(root, "secret.txt"), "outside");
  ({ server, url } = await serveStatic(join(root, "site")));
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

describe("serveStatic", () => {
  it("listens on 127.0.0.1 and serves files with COOP/COEP", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await fetch(`${url}a.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(r.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(r.headers.get("cross-origin-embedder-policy")).toBe("require-corp");
    expect(await r.text()).toBe("export {};");
  });

  it("serves index.html for the root and 404 for a missing file", async () => {
    expect(await (await fetch(url)).text()).toBe("<p>home</p>");
    expect((await fetch(`${url}missing.js`)).status).toBe(404);
  });

  it("refuses paths outside the root", async () => {
    expect((await fetch(`${url}..%2fsecret.txt`)).status).toBe(403);
  });
});
