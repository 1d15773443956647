/**
 * Same-process speed ratio and answer check of the mesh and heightfield pair queries between
 * this tree (`src/`) and a base tree (another checkout's `src/`, e.g. `git archive main src`):
 * `intersects`, `distance`, `contact` and `manifold` of a sphere, a cuboid, a capsule, a
 * convex polyhedron, a small sphere mesh (mesh × mesh) and a compound (mesh × compound) against
 * the Stanford bunny and against a heightfield, over the same seeded
 * poses near the surface, rounds alternating between the two trees. Reports CPU time
 * (`process.cpuUsage`, lower quartile of 9 rounds after 2 warm-up rounds) per query of each tree, the ratio (this / base), the load average, and
 * how many answers differ (and by how much).
 *
 * Run: `git archive main src tsconfig.json package.json | tar -x -C /tmp/base && ln -s
 * $PWD/node_modules /tmp/base/` then `node --import tsx bench/composite-ratio.ts /tmp/base/src`
 * (a third argument keeps only the pairs whose name contains it, e.g. `compound–bunny`).
 * The base needs the tsconfig.json and package.json: without them tsx compiles it to another
 * target and the base runs 3–9× slower (an A/A run read ratios of 0.12–0.3). The tree loaded
 * first measures ~4% faster (A/A geometric mean 0.96): compare against an A/A run.
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";

type Api = typeof import("../src/index.js");
type Node = typeof import("../src/node.js");

const baseDir = process.argv[2];
if (!baseDir) throw new Error("usage: composite-ratio.ts <base src dir> [pair filter]");
/** Optional third argument: only the pairs whose name ("compound–bunny") contains it. */
const only = process.argv[3] ?? "";

const cur: Api = await import("../src/index.js");
const curNode: Node = await import("../src/node.js");
const base: Api = await import(pathToFileURL(`${baseDir}/index.ts`).href);
const baseNode: Node = await import(pathToFileURL(`${baseDir}/node.ts`).href);

interface Scene {
  api: Api;
  // biome-ignore lint/suspicious/noExplicitAny: two module instances share no types
  shapes: any[];
  // biome-ignore lint/suspicious/noExplicitAny: idem
  targets: any[];
}

function scene(api: Api, node: Node): Scene {
  const data = node.bunnyMeshData();
  const bunny = api.makeTriangleMesh(data.vertices, data.indices);
  const rows = 64;
  const cols = 64;
  const heights = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) heights[r * cols + c] = Math.sin(r * 0.3) * Math.cos(c * 0.2);
  const hf = api.makeHeightfield({ rows, cols, heights, scale: { x: 0.25, y: 1, z: 0.25 } });
  const hull = api.makeConvexPolyhedron([
    { x: 0.3, y: 0, z: 0 },
    { x: -0.3, y: 0.1, z: 0 },
    { x: 0, y: 0.3, z: 0.1 },
    { x: 0, y: -0.2, z: 0.3 },
    { x: 0.1, y: 0, z: -0.3 },
  ]);
  // A closed UV sphere mesh (mesh × mesh) and a compound (mesh × compound): the two-tree pairs.
  const sv: number[] = [0, 0.3, 0];
  const si: number[] = [];
  const R = 6;
  const C = 8;
  for (let i = 1; i < R; i++)
    for (let j = 0; j < C; j++) {
      const th = (Math.PI * i) / R;
      const ph = (2 * Math.PI * j) / C;
      sv.push(
        0.3 * Math.sin(th) * Math.cos(ph),
        0.3 * Math.cos(th),
        0.3 * Math.sin(th) * Math.sin(ph),
      );
    }
  sv.push(0, -0.3, 0);
  const at = (i: number, j: number) => 1 + (i - 1) * C + (j % C);
  for (let j = 0; j < C; j++) si.push(0, at(1, j + 1), at(1, j));
  for (let i = 1; i < R - 1; i++)
    for (let j = 0; j < C; j++)
      si.push(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i + 1, j));
  for (let j = 0; j < C; j++) si.push(R * C - C + 1, at(R - 1, j), at(R - 1, j + 1));
  const id = api.isometry.identity();
  const compound = api.makeCompound([
    {
      shape: api.makeSphere(0.15),
      pose: { translation: { x: 0.15, y: 0, z: 0 }, rotation: id.rotation },
    },
    {
      shape: api.makeCuboid({ x: 0.1, y: 0.15, z: 0.1 }),
      pose: { translation: { x: -0.15, y: 0, z: 0 }, rotation: id.rotation },
    },
  ]);
  return {
    api,
    shapes: [
      api.makeSphere(0.3),
      api.makeCuboid({ x: 0.3, y: 0.2, z: 0.25 }),
      api.makeCapsule({ x: 0, y: -0.25, z: 0 }, { x: 0, y: 0.25, z: 0 }, 0.15),
      hull,
      api.makeTriangleMesh(sv, si),
      compound,
    ],
    targets: [bunny, hf],
  };
}

const names = ["sphere", "cuboid", "capsule", "hull", "sphereMesh", "compound"];
const targetNames = ["bunny", "heightfield"];
const ops = ["intersects", "distance", "contact", "manifold"] as const;

/** Seeded poses near each target's surface: positions over its box, random rotations. */
function poses(api: Api, target: unknown, count: number) {
  const rng = api.makeRandom(7);
  const box = api.aabbShape(
    { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } },
    // biome-ignore lint/suspicious/noExplicitAny: idem
    target as any,
    api.isometry.identity(),
  );
  const out = [];
  for (let i = 0; i < count; i++) {
    const t = {
      x: box.min.x + rng() * (box.max.x - box.min.x),
      y: box.min.y + rng() * (box.max.y - box.min.y),
      z: box.min.z + rng() * (box.max.z - box.min.z),
    };
    const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() };
    const n = Math.hypot(q.x, q.y, q.z, q.w);
    out.push({ translation: t, rotation: { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n } });
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: idem
function run(s: Scene, op: string, shape: any, target: any, ps: any[], sink: number[]): number {
  const api = s.api;
  const id = api.isometry.identity();
  const t0 = process.cpuUsage();
  let acc = 0;
  for (const p of ps) {
    if (op === "intersects") acc += api.intersects(shape, p, target, id) ? 1 : 0;
    else if (op === "distance") acc += api.distance(shape, p, target, id).distance;
    else if (op === "contact") acc += api.contact(shape, p, target, id, 0.05)?.distance ?? 0;
    else {
      const m = api.manifold(shape, p, target, id, 0.05);
      acc += m ? m.count + m.points[0].distance : 0;
    }
  }
  const t = process.cpuUsage(t0);
  sink.push(acc);
  return (t.user + t.system) / ps.length;
}

// biome-ignore lint/suspicious/noExplicitAny: idem
function answers(s: Scene, op: string, shape: any, target: any, ps: any[]): number[] {
  const api = s.api;
  const id = api.isometry.identity();
  const out: number[] = [];
  for (const p of ps) {
    if (op === "intersects") out.push(api.intersects(shape, p, target, id) ? 1 : 0);
    else if (op === "distance") {
      const d = api.distance(shape, p, target, id);
      out.push(d.distance, d.pointA.x, d.pointB.y);
    } else if (op === "contact") {
      const c = api.contact(shape, p, target, id, 0.05);
      out.push(c ? c.distance : Number.NaN, c ? c.normal.x : 0, c ? c.pointB.z : 0);
    } else {
      const m = api.manifold(shape, p, target, id, 0.05);
      out.push(m ? m.count : -1, m ? m.normal.y : 0, m ? m.points[0].distance : 0);
    }
  }
  return out;
}

const A = scene(cur, curNode);
const B = scene(base, baseNode);
const COUNT = 400;
const ROUNDS = 9;
const sink: number[] = [];
const load0 = loadavg()[0];
console.log(
  "pair                op          this µs   base µs   ratio   answers differing (max |Δ|)",
);
const ratios: number[] = [];
// Warm every selected pair and operation in both trees first, so that the first rows measured
// are not the ones that pay for the compilation (a filtered run would time its first row cold).
for (let ti = 0; ti < 2; ti++) {
  const psA = poses(cur, A.targets[ti], COUNT);
  const psB = poses(base, B.targets[ti], COUNT);
  for (let si = 0; si < A.shapes.length; si++) {
    if (!`${names[si]}–${targetNames[ti]}`.includes(only)) continue;
    for (let r = 0; r < 2; r++)
      for (const op of ops) {
        run(A, op, A.shapes[si], A.targets[ti], psA, sink);
        run(B, op, B.shapes[si], B.targets[ti], psB, sink);
      }
  }
}
for (let ti = 0; ti < 2; ti++) {
  const psA = poses(cur, A.targets[ti], COUNT);
  const psB = poses(base, B.targets[ti], COUNT);
  for (let si = 0; si < A.shapes.length; si++) {
    if (!`${names[si]}–${targetNames[ti]}`.includes(only)) continue;
    for (const op of ops) {
      const ta: number[] = [];
      const tb: number[] = [];
      for (let r = 0; r < 2; r++) {
        run(A, op, A.shapes[si], A.targets[ti], psA, sink);
        run(B, op, B.shapes[si], B.targets[ti], psB, sink);
      }
      for (let r = 0; r < ROUNDS; r++) {
        ta.push(run(A, op, A.shapes[si], A.targets[ti], psA, sink));
        tb.push(run(B, op, B.shapes[si], B.targets[ti], psB, sink));
      }
      ta.sort((x, y) => x - y);
      tb.sort((x, y) => x - y);
      // The lower quartile of the rounds: CPU time is inflated, never deflated, by other load.
      const ma = ta[ROUNDS >> 2];
      const mb = tb[ROUNDS >> 2];
      const xa = answers(A, op, A.shapes[si], A.targets[ti], psA);
      const xb = answers(B, op, B.shapes[si], B.targets[ti], psB);
      let diff = 0;
      let maxD = 0;
      for (let k = 0; k < xa.length; k++) {
        if (Object.is(xa[k], xb[k])) continue;
        diff++;
        maxD = Math.max(maxD, Math.abs(xa[k] - xb[k]));
      }
      ratios.push(ma / mb);
      console.log(
        `${`${names[si]}–${targetNames[ti]}`.padEnd(20)}${op.padEnd(12)}${ma.toFixed(2).padStart(8)}${mb
          .toFixed(2)
          .padStart(
            10,
          )}${(ma / mb).toFixed(3).padStart(8)}   ${diff}${diff ? ` (${maxD.toExponential(2)})` : ""}`,
      );
    }
  }
}
const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log(
  `geometric mean ratio ${geo.toFixed(3)}; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
);
if (sink.length < 0) console.log(sink);
