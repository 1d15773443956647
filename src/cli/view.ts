/**
 * `collide view SCENE` and `collide view --demo`: serves the web debug viewer (viewer/, built by
 * Vite into viewer/dist when that is missing or older than its sources) and its JSON endpoints
 * on 127.0.0.1 only, and prints the address `http://127.0.0.1:PORT/` as the first line of
 * standard output.
 *
 * Endpoints: `GET /api/info` (bodies and frame count), `GET /api/frame?i=K` (frame K's poses and
 * debug draw: wireframes, AABBs, contacts), `GET /api/gjk?a=I&b=J&frame=K` (the GJK/EPA trace of
 * bodies I and J at frame K). A scene file is one frame whose contacts are `checkScene`'s; the
 * demo records the frames of the `collide demo` scene (src/cli/demo-scene.ts). Requests whose Host header is not this address
 * are refused (403), so another site cannot reach the server through DNS rebinding.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DemoContact,
  framePose,
  recordDemoFrames,
  type DemoScene as ViewerDemoScene,
} from "../debug/demo-frames.js";
import {
  buildViewFrame,
  buildViewGjk,
  buildViewInfo,
  type ViewInfo,
  type ViewSourceBody,
} from "../debug/view-model.js";
import { CollideError, invalidValue } from "../errors.js";
import type { Isometry } from "../math/isometry.js";
import * as vec3 from "../math/vec3.js";
import { checkScene, loadSceneAsync } from "../node.js";
import { makeWorldContact } from "../world/contact-cache.js";
import { DemoScene } from "./demo-scene.js";

/** Options of `collide view`. */
export interface ViewCommandOptions {
  /** Serve the built-in moving demo instead of a scene file. */
  demo?: boolean;
  /** TCP port; 0 picks any free port. @default 0 */
  port: number;
  /** Host to bind: only 127.0.0.1 (or `localhost`, which means it) is accepted. @default "127.0.0.1" */
  host?: string;
  /** Frames of the demo, 1 to {@link VIEW_MAX_FRAMES}. @default the demo scene's own count */
  frames?: number;
  /** Allow mesh files outside the scene file's folder. */
  allowOutside?: boolean;
}

/**
 * Most demo frames the viewer records: every frame is kept in memory (poses and contacts, tens
 * of kilobytes a frame), so this bounds the server to a few hundred megabytes; a minute at 60 Hz.
 * @default 3600
 */
export const VIEW_MAX_FRAMES = 3600;

/** The loopback address the viewer binds. */
const LOOPBACK = "127.0.0.1";

/** What the server serves: bodies, and per frame the poses and contacts. */
interface ViewSource {
  info: ViewInfo;
  bodies: ViewSourceBody[];
  poses(frame: number): Isometry[];
  contacts(frame: number): DemoContact[];
}

const v3 = (a: readonly number[]) => ({ x: a[0], y: a[1], z: a[2] });

async function sceneSource(path: string, allowOutside: boolean): Promise<ViewSource> {
  const scene = await loadSceneAsync(path, { allowOutside });
  const result = checkScene(scene);
  const index = new Map(scene.bodies.map((b, i) => [b.id, i]));
  const contacts: DemoContact[] = result.pairs.map((p) => ({
    a: index.get(p.a) as number,
    b: index.get(p.b) as number,
    distance: p.distance,
    normal: v3(p.normal),
    points: p.points.map((q) => ({ pointA: v3(q.pointA), pointB: v3(q.pointB) })),
  }));
  const bodies = scene.bodies.map((b) => ({ id: b.id, shape: b.shape }));
  const poses = scene.bodies.map((b) => b.pose);
  return {
    info: buildViewInfo("scene", basename(path), bodies, 1),
    bodies,
    poses: () => poses,
    contacts: () => contacts,
  };
}

function demoSource(frames: number | undefined): ViewSource {
  const scene = viewerDemoScene(VIEWER_DEMO_BODIES, frames ?? VIEWER_DEMO_FRAMES);
  const rec = recordDemoFrames(scene, scene.frameCount);
  const n = rec.poses.length;
  return {
    info: buildViewInfo("demo", "demo", rec.bodies, n),
    bodies: rec.bodies,
    poses: (f) => rec.bodies.map((_, i) => framePose(rec.poses[f], i)),
    contacts: (f) => rec.contacts[f],
  };
}

/** Moving bodies of the viewer's demo (fewer than `collide demo`'s, to keep the page light). */
const VIEWER_DEMO_BODIES = 400;
/** Frames the viewer's demo records. */
const VIEWER_DEMO_FRAMES = 240;

/**
 * The demo scene of `collide demo` (src/cli/demo-scene.ts) behind the viewer's frame interface:
 * each step reports the contacts at the frame's starting poses, then advances one demo frame.
 */
function viewerDemoScene(bodies: number, frameCount: number): ViewerDemoScene {
  const demo = new DemoScene({ bodies, seed: 1 });
  const w = demo.world;
  const index = new Map<number, number>();
  const views = demo.bodies.map((b, i) => {
    index.set(b.handle, i);
    return { id: b.name, shape: b.shape, pose: w.getPose(b.handle) };
  });
  const contact = makeWorldContact();
  return {
    bodies: views,
    frameCount,
    step(): DemoContact[] {
      w.step();
      const out: DemoContact[] = [];
      for (let i = 0; i < w.contactCount; i++) {
        w.readContact(i, contact);
        const m = contact.manifold;
        const points = [];
        for (let k = 0; k < m.count; k++) {
          points.push({
            pointA: vec3.clone(m.points[k].pointA),
            pointB: vec3.clone(m.points[k].pointB),
          });
        }
        out.push({
          a: index.get(contact.a) as number,
          b: index.get(contact.b) as number,
          distance: contact.distance,
          normal: vec3.clone(m.normal),
          points,
        });
      }
      demo.frame();
      demo.bodies.forEach((b, i) => {
        w.getPose(b.handle, views[i].pose);
      });
      return out;
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
 * Builds viewer/dist with Vite when it is missing or older than the viewer's sources or the
 * library sources it bundles (src/three, src/debug). Vite's own output goes to standard error.
 * Throws `CollideError` when the build fails.
 */
export function ensureViewerBuilt(root: string = packageRoot()): string {
  const viewer = join(root, "viewer");
  const dist = join(viewer, "dist");
  const built = newestMtime(join(dist, "index.html"));
  const sources = Math.max(
    newestMtime(join(viewer, "index.html")),
    newestMtime(join(viewer, "src")),
    newestMtime(join(viewer, "vite.config.ts")),
    newestMtime(join(root, "src", "three")),
    newestMtime(join(root, "src", "debug")),
  );
  if (built > 0 && built >= sources) return dist;
  if (!existsSync(join(viewer, "index.html"))) {
    throw new CollideError(
      "io_error",
      "viewer",
      viewer,
      `the viewer's sources are missing (${viewer})`,
    );
  }
  process.stderr.write("collide view: building the viewer (vite build)...\n");
  const vite = join(root, "node_modules", "vite", "bin", "vite.js");
  if (!existsSync(vite)) {
    throw new CollideError(
      "io_error",
      "viewer",
      vite,
      "vite is not installed: run `npm install` to build the viewer",
    );
  }
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

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(text);
}

function intParam(url: URL, name: string, lo: number, hi: number): number | null {
  const raw = url.searchParams.get(name);
  const n = Number(raw);
  if (raw === null || !Number.isInteger(n) || n < lo || n > hi) return null;
  return n;
}

/** The request handler of the viewer server for `source`, serving static files from `dist`. */
function makeHandler(source: ViewSource, dist: string, allowedHosts: () => Set<string>) {
  const frames = source.info.frameCount;
  const nb = source.bodies.length;
  /** The answer of an `/api/…` path, or null for a static file. */
  const apiResponse = (url: URL): { status: number; body: unknown } | null => {
    if (url.pathname === "/api/info") return { status: 200, body: source.info };
    if (url.pathname === "/api/frame") {
      const i = intParam(url, "i", 0, frames - 1);
      if (i === null) {
        return { status: 400, body: { error: `i must be an integer in [0, ${frames - 1}]` } };
      }
      const frame = buildViewFrame(i, source.bodies, source.poses(i), source.contacts(i));
      return { status: 200, body: frame };
    }
    if (url.pathname === "/api/gjk") {
      const a = intParam(url, "a", 0, nb - 1);
      const b = intParam(url, "b", 0, nb - 1);
      const f = url.searchParams.has("frame") ? intParam(url, "frame", 0, frames - 1) : 0;
      if (a === null || b === null || f === null || a === b) {
        const error = `a and b must be distinct body indices in [0, ${nb - 1}], frame in [0, ${frames - 1}]`;
        return { status: 400, body: { error } };
      }
      return { status: 200, body: buildViewGjk(source.bodies, source.poses(f), a, b) };
    }
    if (url.pathname.startsWith("/api/"))
      return { status: 404, body: { error: "no such endpoint" } };
    return null;
  };
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
    try {
      const api = apiResponse(url);
      if (api) {
        sendJson(res, api.status, api.body);
        return;
      }
      const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
      const file = normalize(join(dist, rel));
      if (!file.startsWith(dist + sep) || !existsSync(file) || statSync(file).isDirectory()) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found\n");
        return;
      }
      res.writeHead(200, {
        "content-type": MIME[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : readFileSync(file));
    } catch (e) {
      sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
    }
  };
}

/**
 * Runs `collide view`: loads the scene (or records the demo), builds the viewer if needed,
 * listens on 127.0.0.1:`port` and prints `http://127.0.0.1:PORT/` on standard output. Resolves
 * once listening; the server runs until the process ends. Throws `CollideError` for a bad
 * scene (mesh files: OBJ, glTF or GLB, inside the scene's folder unless `allowOutside`), a host
 * other than 127.0.0.1, a bad port or frame count, or neither/both of SCENE and `--demo`.
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
  if (
    o.frames !== undefined &&
    !(Number.isInteger(o.frames) && o.frames >= 1 && o.frames <= VIEW_MAX_FRAMES)
  ) {
    invalidValue("--frames", o.frames, `must be an integer in [1, ${VIEW_MAX_FRAMES}]`);
  }
  const source = o.demo
    ? demoSource(o.frames)
    : await sceneSource(scenePath as string, o.allowOutside === true);
  const dist = ensureViewerBuilt();
  let hosts = new Set<string>();
  const server = createServer(makeHandler(source, dist, () => hosts));
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(o.port, LOOPBACK, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  process.stdout.write(`http://${LOOPBACK}:${port}/\n`);
  const summary =
    source.info.mode === "demo"
      ? `demo: ${source.bodies.length} bodies, ${source.info.frameCount} frames`
      : `${source.info.title}: ${source.bodies.length} bodies, ${source.contacts(0).length} pairs in contact`;
  process.stdout.write(`${summary}; press Ctrl+C to stop\n`);
}
