/**
 * A small static file server for the built examples site (examples/web/dist): 127.0.0.1 only,
 * GET and HEAD, paths confined to the root, and the cross-origin isolation headers
 * (`Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Embedder-Policy: require-corp`)
 * on every response, without which a browser gives the page no `SharedArrayBuffer` and the
 * Web Worker executor cannot run. Any static host serving the site must send the same two
 * headers for the `workers` page; the other pages run without them.
 *
 * `npm run examples:serve` (after `npm run examples`) runs it on port 5178, or `PORT`.
 */
import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Content types of the files a Vite build writes. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
};

/** The headers that make a page cross-origin isolated (and so give it `SharedArrayBuffer`). */
export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
} as const;

/**
 * Serves the folder `root` on 127.0.0.1:`port` (0 picks a free port); resolves with the server
 * and its base URL once it listens.
 */
export function serveStatic(root: string, port = 0): Promise<{ server: Server; url: string }> {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    let file = resolve(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      statSync(file);
    } catch {
      res.writeHead(404, ISOLATION_HEADERS).end("not found");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, ISOLATION_HEADERS).end();
      return;
    }
    res.writeHead(200, {
      ...ISOLATION_HEADERS,
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const p = typeof address === "object" && address !== null ? address.port : port;
      ok({ server, url: `http://127.0.0.1:${p}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("../examples/web/dist", import.meta.url));
  serveStatic(root, Number(process.env.PORT ?? 5178)).then(
    ({ url }) => console.log(url),
    (e: unknown) => {
      console.error(`serve-static: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
