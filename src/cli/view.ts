/**
 * `collide view SCENE` and `collide view --demo`: serves the web debug viewer on 127.0.0.1 only
 * and prints the address `http://127.0.0.1:PORT/` as the first line of standard output.
 *
 * The server serves the scene ONCE (`GET /api/scene`, src/debug/scene-transfer.ts: every body's
 * shape by its numbers, meshes as vertex and index arrays read here by src/io; for the demo,
 * the bunny's arrays and the demo's options) and the viewer's static files. The page runs
 * Collide itself, in a Web Worker: no frame is asked of the server.
 *
 * The static files are the Vite build of viewer/ in `dist/viewer` (made by `npm run build` and
 * by `prepack`, so an installed package carries it and needs no Vite). In a clone with Vite
 * installed, a build older than the viewer's sources is rebuilt first. Requests whose Host
 * header is not this address are refused (403), so another site cannot reach the server
 * through DNS rebinding. Every answer carries the cross-origin isolation headers (COOP/COEP),
 * so the page may use `SharedArrayBuffer`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { poseToTransfer, type SceneTransfer, shapeToTransfer } from "../debug/scene-transfer.js";
import { CollideError, invalidValue } from "../errors.js";
import { loadBunny, loadSceneAsync } from "../node.js";
import { count } from "./output.js";

/** Options of `collide view`. */
export interface ViewCommandOptions {
  /** Serve the built-in moving demo instead of a scene file. */
  demo?: boolean;
  /** The demo's crowd falls under gravity (src/debug/demo-scene.ts). */
  gravity?: boolean;
  /** Moving bodies of the demo, 1 to {@link VIEW_MAX_BODIES}. @default 400 */
  bodies?: number;
  /** TCP port; 0 picks any free port. @default 0 */
  port: number;
  /** Host to bind: only 127.0.0.1 (or `localhost`, which means it) is accepted. @default "127.0.0.1" */
  host?: string;
  /** Allow mesh files outside the scene file's folder. */
  allowOutside?: boolean;
}

/**
 * Most moving bodies of the viewer's demo: the page steps the world itself, and 5,000 bodies
 * take about 20 ms a frame in a browser's worker on a 2-core machine. @default 5000
 */
export const VIEW_MAX_BODIES = 5000;

/** Moving bodies of the viewer's demo unless `--bodies` says otherwise. */
const VIEW_DEMO_BODIES = 400;

/** The loopback address the viewer binds. */
const LOOPBACK = "127.0.0.1";

async function sceneTransfer(path: string, allowOutside: boolean): Promise<SceneTransfer> {
  const scene = await loadSceneAsync(path, { allowOutside });
  return {
    mode: "scene",
    title: basename(path),
    // The bodies are posed in the scene's local frame, as `collide check` reads them, so the
    // page's world is the check's world; the page shows world points moved by the origin.
    origin: scene.origin ?? [0, 0, 0],
    bodies: scene.bodies.map((b) => ({
      id: b.id,
      shape: shapeToTransfer(b.shape),
      pose: poseToTransfer(b.pose),
      layer: b.layer,
      mask: b.mask,
    })),
  };
}

function demoTransfer(bodies: number, gravity: boolean): SceneTransfer {
  const bunny = loadBunny();
  return {
    mode: "demo",
    title: gravity ? "demo (gravity)" : "demo",
    demo: {
      bodies,
      seed: 1,
      gravity,
      model: { positions: Array.from(bunny.positions), cells: Array.from(bunny.cells) },
    },
  };
}

/** The package root (two levels above dist/cli/ or src/cli/). */
function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/** Newest modification time (ms) of the files under `path` (a file or a directory). */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of readdirSync(path)) {
    if (e === "dist" || e === "node_modules") continue;
    t = Math.max(t, newestMtime(join(path, e)));
  }
  return t;
}

/**
 * The folder of the built viewer, `dist/viewer` under the package root. In a clone (viewer/
 * sources and Vite present) it is rebuilt with Vite when missing or older than the viewer's
 * sources or the library sources it bundles (src/); an installed package serves the build it
 * ships. Vite's output goes to standard error. Throws `CollideError` when there is no build
 * and none can be made, or the build fails.
 */
export function ensureViewerBuilt(root: string = packageRoot()): string {
  const viewer = join(root, "viewer");
  const dist = join(root, "dist", "viewer");
  const built = newestMtime(join(dist, "index.html"));
  const vite = join(root, "node_modules", "vite", "bin", "vite.js");
  const canBuild = existsSync(join(viewer, "index.html")) && existsSync(vite);
  if (!canBuild) {
    if (built > 0) return dist;
    throw new CollideError(
      "io_error",
      "viewer",
      dist,
      "the built viewer is missing: run `npm run build` in the repository (it needs Vite)",
    );
  }
  const sources = Math.max(
    newestMtime(join(viewer, "index.html")),
    newestMtime(join(viewer, "src")),
    newestMtime(join(viewer, "vite.config.ts")),
    newestMtime(join(root, "src")),
  );
  if (built > 0 && built >= sources) return dist;
  process.stderr.write("collide view: building the viewer (vite build)...\n");
  const r = spawnSync(process.execPath, [vite, "build", viewer], {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (r.status !== 0 || !existsSync(join(dist, "index.html"))) {
    throw new CollideError(
      "io_error",
      "viewer",
      dist,
      `vite build of the viewer failed (status ${r.status})`,
    );
  }
  return dist;
}

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

/** Cross-origin isolation: the page may then use `SharedArrayBuffer` (Web Worker threads). */
const ISOLATION_HEADERS = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
  "cross-origin-resource-policy": "same-origin",
};

/** The request handler of the viewer server: `api/scene` (the scene, once) and static files from `dist`. */
function makeHandler(scene: string, dist: string, allowedHosts: () => Set<string>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!allowedHosts().has(String(req.headers.host ?? ""))) {
      res.writeHead(403, { "content-type": "text/plain" });
      res.end("forbidden host\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "text/plain" });
      res.end("method not allowed\n");
      return;
    }
    const url = new URL(req.url ?? "/", `http://${LOOPBACK}`);
    const head = req.method === "HEAD";
    if (url.pathname === "/api/scene") {
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "no-store",
        ...ISOLATION_HEADERS,
      });
      res.end(head ? undefined : scene);
      return;
    }
    let file = "";
    try {
      const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
      file = normalize(join(dist, rel));
    } catch {
      file = "";
    }
    if (!file.startsWith(dist + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
      return;
    }
    res.writeHead(200, {
      "content-type": MIME[extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
      ...ISOLATION_HEADERS,
    });
    res.end(head ? undefined : readFileSync(file));
  };
}

/**
 * Runs `collide view`: loads the scene (mesh files: OBJ, glTF or GLB, inside the scene's folder
 * unless `allowOutside`) or prepares the demo, finds the built viewer, listens on
 * 127.0.0.1:`port` and prints `http://127.0.0.1:PORT/` on standard output. Resolves once
 * listening; the server runs until the process ends. Throws `CollideError` for a bad scene, a
 * host other than 127.0.0.1, a bad port or body count, neither or both of SCENE and `--demo`,
 * `--gravity` without `--demo`, or a port that cannot be bound (in use, or not allowed).
 */
export async function runViewCommand(
  scenePath: string | undefined,
  o: ViewCommandOptions,
): Promise<void> {
  const host = o.host ?? LOOPBACK;
  if (host !== LOOPBACK && host !== "localhost") {
    invalidValue(
      "--host",
      host,
      "must be 127.0.0.1: the viewer serves the loopback interface only",
    );
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    invalidValue("--port", o.port, "must be an integer in [0, 65535]");
  }
  if (o.demo && scenePath !== undefined) {
    invalidValue("scene", scenePath, "cannot be given together with --demo");
  }
  if (!o.demo && scenePath === undefined) {
    throw new CollideError("missing_field", "scene", undefined, "missing SCENE (or pass --demo)");
  }
  if (!o.demo && (o.gravity || o.bodies !== undefined)) {
    if (o.gravity) invalidValue("--gravity", true, "applies to --demo only");
    invalidValue("--bodies", o.bodies, "applies to --demo only");
  }
  const bodies = o.bodies ?? VIEW_DEMO_BODIES;
  if (!(Number.isInteger(bodies) && bodies >= 1 && bodies <= VIEW_MAX_BODIES)) {
    invalidValue("--bodies", bodies, `must be an integer in [1, ${VIEW_MAX_BODIES}]`);
  }
  const transfer = o.demo
    ? demoTransfer(bodies, o.gravity === true)
    : await sceneTransfer(scenePath as string, o.allowOutside === true);
  const scene = JSON.stringify(transfer);
  const dist = ensureViewerBuilt();
  let hosts = new Set<string>();
  const server = createServer(makeHandler(scene, dist, () => hosts));
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      const why =
        e.code === "EADDRINUSE"
          ? "is in use by another program (pick another, or 0 for any free port)"
          : e.code === "EACCES"
            ? "may not be bound by this user (ports below 1024 need privileges)"
            : `cannot be bound (${e.code ?? e.message})`;
      reject(new CollideError("io_error", "--port", o.port, `--port ${o.port} ${why}`));
    });
    server.listen(o.port, LOOPBACK, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  process.stdout.write(`http://${LOOPBACK}:${port}/\n`);
  const summary =
    transfer.mode === "demo"
      ? `${transfer.title}: ${count(bodies, "moving body", "moving bodies")} around the bunny, stepped in the page`
      : `${transfer.title}: ${count(transfer.bodies.length, "body", "bodies")}`;
  process.stdout.write(`${summary}; press Ctrl+C to stop\n`);
}
