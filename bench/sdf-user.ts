/**
 * Signed distance to the bunny as a user measures it: the built package (`dist/`, after
 * `npm run build`; `--src` imports src/ instead), the bunny through the public API
 * (`collide/node`'s `loadBunny`, `makeTriangleMesh(…, { solid: true })`), `projectPoint` one
 * point per call (a fresh `{x, y, z}` each time, the default result object or a reused one) and
 * `projectPoints` on a Float64Array, at the identity pose and at a rotated, translated pose.
 *
 * Point distributions (10,000 points each, fixed seed):
 * - `box+g`: uniform in the bunny's AABB with each side moved out by g × that side's extent
 *   (g = 0.1 is bench/mesh.ts's distribution; 0.25 and 0.5 as a user might choose);
 * - `near`: points on random triangles (area-weighted) moved along the face normal by a
 *   uniform offset in ±2 % of the bunny's largest extent (particles touching the surface).
 *
 * Time is CPU time (`process.cpuUsage`, user + system) per query, the median of 7 runs after
 * 3 warm-up runs, all in one process. The load average is printed; the machine is shared.
 *
 * `--cold batch` or `--cold call` measures instead the JIT warm-up a short script pays: CPU µs
 * per query of each of the first 15 chunks of 2,000 queries (box+0.25 points) in this fresh
 * process, before anything else has run.
 *
 * Run: `npm run build && npx tsx bench/sdf-user.ts [--src] [--json] [--cold batch|call]`
 * (or `node bench/sdf-user.ts` under Node ≥ 22.6 with type stripping).
 */
import { loadavg } from "node:os";

type Vec = { x: number; y: number; z: number };
type Pose = { translation: Vec; rotation: { x: number; y: number; z: number; w: number } };

const useSrc = process.argv.includes("--src");
// The built package by a computed path, so that type-checking a clean clone (no dist/ yet) does
// not look for it.
const dir = useSrc ? "../src" : "../dist";
// biome-ignore lint/suspicious/noExplicitAny: the module is the dist/ or the src/ build.
const lib: any = await import(`${dir}/index.js`);
// biome-ignore lint/suspicious/noExplicitAny: as above.
const node: any = await import(`${dir}/node.js`);

/** Mulberry32: a small seeded generator, so that every run sees the same points. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bunny = node.loadBunny();
const V: Float64Array = bunny.positions;
const I: Uint32Array = bunny.cells;
const mesh = lib.makeTriangleMesh(V, I, "", { solid: true });

const lo = [Infinity, Infinity, Infinity];
const hi = [-Infinity, -Infinity, -Infinity];
for (let i = 0; i < V.length; i += 3) {
  for (let k = 0; k < 3; k++) {
    lo[k] = Math.min(lo[k], V[i + k]);
    hi[k] = Math.max(hi[k], V[i + k]);
  }
}
const ext = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];

/** Uniform points in the box grown by g × extent on each side (local frame). */
function boxPoints(n: number, g: number, seed: number): Float64Array {
  const r = rng(seed);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < 3 * n; i++) {
    const k = i % 3;
    p[i] = lo[k] - g * ext[k] + (1 + 2 * g) * ext[k] * r();
  }
  return p;
}

/** Points on area-weighted random triangles, offset along the face normal by ±frac × size. */
function nearPoints(n: number, frac: number, seed: number): Float64Array {
  const r = rng(seed);
  const tris = I.length / 3;
  const cum = new Float64Array(tris);
  let total = 0;
  const normals = new Float64Array(3 * tris);
  for (let t = 0; t < tris; t++) {
    const a = 3 * I[3 * t];
    const b = 3 * I[3 * t + 1];
    const c = 3 * I[3 * t + 2];
    const ab = [V[b] - V[a], V[b + 1] - V[a + 1], V[b + 2] - V[a + 2]];
    const ac = [V[c] - V[a], V[c + 1] - V[a + 1], V[c + 2] - V[a + 2]];
    const nx = ab[1] * ac[2] - ab[2] * ac[1];
    const ny = ab[2] * ac[0] - ab[0] * ac[2];
    const nz = ab[0] * ac[1] - ab[1] * ac[0];
    const len = Math.hypot(nx, ny, nz);
    total += len;
    cum[t] = total;
    if (len > 0) normals.set([nx / len, ny / len, nz / len], 3 * t);
  }
  const size = Math.max(...ext);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const u = r() * total;
    let lo2 = 0;
    let hi2 = tris - 1;
    while (lo2 < hi2) {
      const m = (lo2 + hi2) >> 1;
      if (cum[m] < u) lo2 = m + 1;
      else hi2 = m;
    }
    const t = lo2;
    let s = r();
    let w = r();
    if (s + w > 1) {
      s = 1 - s;
      w = 1 - w;
    }
    const a = 3 * I[3 * t];
    const b = 3 * I[3 * t + 1];
    const c = 3 * I[3 * t + 2];
    const off = (2 * r() - 1) * frac * size;
    for (let k = 0; k < 3; k++) {
      p[3 * i + k] =
        V[a + k] + s * (V[b + k] - V[a + k]) + w * (V[c + k] - V[a + k]) + off * normals[3 * t + k];
    }
  }
  return p;
}

const identity: Pose = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
/** 0.6 rad about an oblique unit axis, then a translation. */
const axis = [1 / 3, 2 / 3, 2 / 3];
const rotated: Pose = {
  translation: { x: 3, y: -1, z: 2 },
  rotation: {
    x: axis[0] * Math.sin(0.3),
    y: axis[1] * Math.sin(0.3),
    z: axis[2] * Math.sin(0.3),
    w: Math.cos(0.3),
  },
};

/** The points moved into the world by `pose` (so that each pose sees the same local points). */
function toWorld(local: Float64Array, pose: Pose): Float64Array {
  const { x: qx, y: qy, z: qz, w: qw } = pose.rotation;
  const out = new Float64Array(local.length);
  for (let i = 0; i < local.length; i += 3) {
    const vx = local[i];
    const vy = local[i + 1];
    const vz = local[i + 2];
    // v + 2w(q × v) + 2 q × (q × v)
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out[i] = vx + qw * tx + (qy * tz - qz * ty) + pose.translation.x;
    out[i + 1] = vy + qw * ty + (qz * tx - qx * tz) + pose.translation.y;
    out[i + 2] = vz + qw * tz + (qx * ty - qy * tx) + pose.translation.z;
  }
  return out;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** CPU µs per query of `f` over n points: median of 7 runs after 3 warm-up runs. */
function cpuUsPerQuery(n: number, f: () => number): number {
  let sink = 0;
  for (let i = 0; i < 3; i++) sink += f();
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = process.cpuUsage();
    sink += f();
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / n);
  }
  if (Number.isNaN(sink)) console.log("NaN");
  return median(times);
}

const coldAt = process.argv.indexOf("--cold");
if (coldAt >= 0) {
  const mode = process.argv[coldAt + 1] === "call" ? "call" : "batch";
  const chunk = 2000;
  const all = boxPoints(15 * chunk, 0.25, 21);
  const us: string[] = [];
  let res: { signedDistances: Float64Array } | undefined;
  for (let c = 0; c < 15; c++) {
    const pts = all.subarray(3 * chunk * c, 3 * chunk * (c + 1));
    const t0 = process.cpuUsage();
    if (mode === "batch") res = lib.projectPoints(mesh, identity, pts, res);
    else {
      for (let i = 0; i < chunk; i++)
        lib.projectPoint(mesh, identity, { x: pts[3 * i], y: pts[3 * i + 1], z: pts[3 * i + 2] });
    }
    const d = process.cpuUsage(t0);
    us.push(((d.user + d.system) / chunk).toFixed(1));
  }
  console.log(
    `cold ${mode} (${useSrc ? "src/" : "dist/"}), CPU µs per query of each chunk of ${chunk}: ${us.join(" ")}; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  process.exit(0);
}

const N = 10_000;
const dists: [string, Float64Array][] = [
  ["box+0.1", boxPoints(N, 0.1, 11)],
  ["box+0.25", boxPoints(N, 0.25, 12)],
  ["box+0.5", boxPoints(N, 0.5, 13)],
  ["near±2%", nearPoints(N, 0.02, 14)],
];

interface Row {
  distribution: string;
  pose: string;
  batchUs: number;
  perCallUs: number;
  perCallReusedUs: number;
  inside: number;
}
const rows: Row[] = [];
for (const [name, local] of dists) {
  for (const [poseName, pose] of [
    ["identity", identity],
    ["rotated", rotated],
  ] as [string, Pose][]) {
    const pts = toWorld(local, pose);
    let res = lib.projectPoints(mesh, pose, pts);
    const batchUs = cpuUsPerQuery(N, () => {
      res = lib.projectPoints(mesh, pose, pts, res);
      return res.signedDistances[0];
    });
    let inside = 0;
    for (let i = 0; i < N; i++) if (res.signedDistances[i] < 0) inside++;
    const perCallUs = cpuUsPerQuery(N, () => {
      let s = 0;
      for (let i = 0; i < N; i++) {
        const r = lib.projectPoint(mesh, pose, {
          x: pts[3 * i],
          y: pts[3 * i + 1],
          z: pts[3 * i + 2],
        });
        s += r.distance;
      }
      return s;
    });
    const out = lib.projectPoint(mesh, pose, { x: 0, y: 0, z: 0 });
    const q = { x: 0, y: 0, z: 0 };
    const perCallReusedUs = cpuUsPerQuery(N, () => {
      let s = 0;
      for (let i = 0; i < N; i++) {
        q.x = pts[3 * i];
        q.y = pts[3 * i + 1];
        q.z = pts[3 * i + 2];
        s += lib.projectPoint(mesh, pose, q, true, out).distance;
      }
      return s;
    });
    rows.push({ distribution: name, pose: poseName, batchUs, perCallUs, perCallReusedUs, inside });
  }
}

const load = loadavg().map((x) => x.toFixed(2));
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ source: useSrc ? "src" : "dist", load, rows }));
} else {
  console.log(
    `signed distance to the bunny (${I.length / 3} triangles), ${useSrc ? "src/" : "dist/"}, CPU µs per query (median of 7), load ${load.join(" ")}, node ${process.version}`,
  );
  console.log(
    `${"points".padEnd(10)} ${"pose".padEnd(9)} ${"batch".padStart(7)} ${"per call".padStart(9)} ${"reused out".padStart(11)} ${"inside".padStart(7)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.distribution.padEnd(10)} ${r.pose.padEnd(9)} ${r.batchUs.toFixed(2).padStart(7)} ${r.perCallUs.toFixed(2).padStart(9)} ${r.perCallReusedUs.toFixed(2).padStart(11)} ${String(r.inside).padStart(7)}`,
    );
  }
}
