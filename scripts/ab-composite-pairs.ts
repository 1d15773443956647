/**
 * A/B of the composite × composite pair queries between this tree (`src/`) and a base tree
 * (another checkout's `src/`, e.g. `git archive main src tsconfig.json package.json`): random
 * meshes (closed boxes and spheres, open triangle soups, solid and surface), compounds (convex
 * children, a nested compound) and heightfields, paired in both argument orders at random poses
 * near each other; `intersects`, `distance`, `contact`, `manifold` and `castShapes`. Prints, per
 * pair kind and operation, how many answers differ bitwise and the largest difference.
 *
 * Run: `npx tsx scripts/ab-composite-pairs.ts /tmp/base/src [pairs-per-kind] [seed]`.
 */
import { pathToFileURL } from "node:url";

type Api = typeof import("../src/index.js");

const baseDir = process.argv[2];
if (!baseDir) throw new Error("usage: ab-composite-pairs.ts <base src dir> [count] [seed]");
const COUNT = Number(process.argv[3] ?? 300);
const SEED = Number(process.argv[4] ?? 1);

const cur: Api = await import("../src/index.js");
const base: Api = await import(pathToFileURL(`${baseDir}/index.ts`).href);

type V = { x: number; y: number; z: number };

/** A closed UV sphere as vertices and indices (rows × cols). */
function uvSphere(r: number, rows: number, cols: number, c: V) {
  const v: number[] = [c.x, c.y + r, c.z];
  for (let i = 1; i < rows; i++) {
    const th = (Math.PI * i) / rows;
    for (let j = 0; j < cols; j++) {
      const ph = (2 * Math.PI * j) / cols;
      v.push(
        c.x + r * Math.sin(th) * Math.cos(ph),
        c.y + r * Math.cos(th),
        c.z + r * Math.sin(th) * Math.sin(ph),
      );
    }
  }
  v.push(c.x, c.y - r, c.z);
  const idx: number[] = [];
  const at = (i: number, j: number) => 1 + (i - 1) * cols + (j % cols);
  const south = v.length / 3 - 1;
  for (let j = 0; j < cols; j++) idx.push(0, at(1, j + 1), at(1, j));
  for (let i = 1; i < rows - 1; i++)
    for (let j = 0; j < cols; j++) {
      idx.push(at(i, j), at(i, j + 1), at(i + 1, j + 1));
      idx.push(at(i, j), at(i + 1, j + 1), at(i + 1, j));
    }
  for (let j = 0; j < cols; j++) idx.push(south, at(rows - 1, j), at(rows - 1, j + 1));
  return { v, idx };
}

/** A closed box (12 triangles, outward). */
function box(h: V) {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z);
  const idx = [
    0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3,
    5, 3, 7, 5,
  ];
  return { v, idx };
}

function shapes(api: Api, seed: number) {
  const rng = api.makeRandom(seed);
  const out: { name: string; shape: unknown }[] = [];
  const s1 = uvSphere(0.6, 6, 8, { x: 0, y: 0, z: 0 });
  out.push({ name: "sphereMesh", shape: api.makeTriangleMesh(s1.v, s1.idx) });
  out.push({
    name: "sphereSolid",
    shape: api.makeTriangleMesh(s1.v, s1.idx, "", { solid: true }),
  });
  const b1 = box({ x: 0.5, y: 0.3, z: 0.4 });
  out.push({ name: "boxMesh", shape: api.makeTriangleMesh(b1.v, b1.idx) });
  out.push({ name: "boxSolid", shape: api.makeTriangleMesh(b1.v, b1.idx, "", { solid: true }) });
  const soup: number[] = [];
  const sidx: number[] = [];
  for (let t = 0; t < 40; t++) {
    const cx = rng() * 1.6 - 0.8;
    const cy = rng() * 1.6 - 0.8;
    const cz = rng() * 1.6 - 0.8;
    for (let k = 0; k < 3; k++) {
      soup.push(cx + rng() * 0.5 - 0.25, cy + rng() * 0.5 - 0.25, cz + rng() * 0.5 - 0.25);
      sidx.push(3 * t + k);
    }
  }
  out.push({ name: "soup", shape: api.makeTriangleMesh(soup, sidx) });
  // A flat grid (coplanar neighbours: internal edges).
  const gv: number[] = [];
  const gi: number[] = [];
  const n = 6;
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++) gv.push(i * 0.25 - 0.75, 0.05 * Math.sin(i + j), j * 0.25 - 0.75);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      gi.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  out.push({ name: "grid", shape: api.makeTriangleMesh(gv, gi) });
  const rot = (a: number) => ({ x: 0, y: Math.sin(a / 2), z: 0, w: Math.cos(a / 2) });
  const kids = [
    {
      shape: api.makeSphere(0.25),
      pose: { translation: { x: 0.4, y: 0, z: 0 }, rotation: rot(0) },
    },
    {
      shape: api.makeCuboid({ x: 0.2, y: 0.3, z: 0.15 }),
      pose: { translation: { x: -0.3, y: 0.1, z: 0.1 }, rotation: rot(0.7) },
    },
    {
      shape: api.makeCapsule({ x: 0, y: -0.2, z: 0 }, { x: 0, y: 0.2, z: 0 }, 0.1),
      pose: { translation: { x: 0, y: 0.3, z: -0.3 }, rotation: rot(1.3) },
    },
    {
      shape: api.makeConvexPolyhedron([
        { x: 0.2, y: 0, z: 0 },
        { x: -0.2, y: 0.05, z: 0 },
        { x: 0, y: 0.2, z: 0.05 },
        { x: 0, y: -0.15, z: 0.2 },
        { x: 0.05, y: 0, z: -0.2 },
      ]),
      pose: { translation: { x: 0.1, y: -0.35, z: 0.2 }, rotation: rot(2.1) },
    },
  ];
  // biome-ignore lint/suspicious/noExplicitAny: two module instances share no types
  const compound = api.makeCompound(kids as any);
  out.push({ name: "compound", shape: compound });
  out.push({
    name: "nestedCompound",
    shape: api.makeCompound([
      // biome-ignore lint/suspicious/noExplicitAny: idem
      { shape: compound as any, pose: { translation: { x: 0.2, y: 0, z: 0 }, rotation: rot(0.4) } },
      {
        shape: api.makeSphere(0.2),
        pose: { translation: { x: -0.5, y: 0, z: 0 }, rotation: rot(0) },
      },
    ]),
  });
  const rows = 9;
  const cols = 9;
  const heights = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) heights[r * cols + c] = 0.2 * Math.sin(r * 0.7) * Math.cos(c);
  out.push({
    name: "heightfield",
    shape: api.makeHeightfield({ rows, cols, heights, scale: { x: 0.2, y: 1, z: 0.2 } }),
  });
  return out;
}

function poses(api: Api, seed: number, count: number) {
  const rng = api.makeRandom(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const s = i % 3 === 0 ? 0.6 : 1.4;
    const t = { x: (rng() - 0.5) * s, y: (rng() - 0.5) * s, z: (rng() - 0.5) * s };
    const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() - 0.5 };
    const n = Math.hypot(q.x, q.y, q.z, q.w);
    const v = { x: (rng() - 0.5) * 4, y: (rng() - 0.5) * 4, z: (rng() - 0.5) * 4 };
    out.push({
      pose: { translation: t, rotation: { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n } },
      velocity: v,
    });
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: idem
function answer(api: Api, op: string, a: any, b: any, p: any): number[] {
  const id = api.isometry.identity();
  const zero = { x: 0, y: 0, z: 0 };
  try {
    if (op === "intersects") return [api.intersects(a, id, b, p.pose) ? 1 : 0];
    if (op === "distance") {
      const d = api.distance(a, id, b, p.pose);
      return [d.distance, d.pointA.x, d.pointA.y, d.pointA.z, d.pointB.x, d.pointB.y, d.pointB.z];
    }
    if (op === "contact") {
      const c = api.contact(a, id, b, p.pose, 0.1);
      if (!c) return [Number.NaN];
      return [c.distance, c.normal.x, c.normal.y, c.normal.z, c.pointA.x, c.pointA.y, c.pointB.z];
    }
    if (op === "manifold") {
      const m = api.manifold(a, id, b, p.pose, 0.1);
      if (!m) return [-1];
      const r = [m.count, m.normal.x, m.normal.y, m.normal.z];
      // Points as a set (sorted), so a permutation is not a difference.
      const pts = m.points
        .slice(0, m.count)
        .map((q) => [q.distance, q.pointA.x, q.pointA.y, q.pointA.z, q.pointB.x, q.featureId]);
      pts.sort((u, w) => u[1] - w[1] || u[2] - w[2] || u[3] - w[3] || u[0] - w[0]);
      for (const q of pts) r.push(...q);
      return r;
    }
    const h = api.castShapes(a, id, zero, b, p.pose, p.velocity, 1);
    if (!h) return [-1];
    return [h.toi, h.normal.x, h.normal.y, h.normal.z, h.pointA.x, h.pointB.y];
  } catch (e) {
    return [Number.POSITIVE_INFINITY, String((e as Error).message).length];
  }
}

const A = shapes(cur, SEED);
const B = shapes(base, SEED);
const psA = poses(cur, SEED + 1, COUNT);
const psB = poses(base, SEED + 1, COUNT);
const ops = ["intersects", "distance", "contact", "manifold", "cast"];
const only = process.env.AB_ONLY;
let total = 0;
for (let i = 0; i < A.length; i++) {
  for (let j = 0; j < A.length; j++) {
    const kind = `${A[i].name}×${A[j].name}`;
    if (only && !kind.includes(only)) continue;
    for (const op of ops) {
      let diff = 0;
      let maxD = 0;
      let example = "";
      for (let k = 0; k < COUNT; k++) {
        const x = answer(cur, op, A[i].shape, A[j].shape, psA[k]);
        const y = answer(base, op, B[i].shape, B[j].shape, psB[k]);
        let differs = x.length !== y.length;
        let d = differs ? Number.POSITIVE_INFINITY : 0;
        for (let q = 0; q < Math.min(x.length, y.length); q++) {
          if (Object.is(x[q], y[q])) continue;
          differs = true;
          d = Math.max(d, Number.isNaN(x[q] - y[q]) ? Infinity : Math.abs(x[q] - y[q]));
        }
        if (!differs) continue;
        diff++;
        maxD = Math.max(maxD, d);
        if (!example) example = `#${k} new ${JSON.stringify(x)} old ${JSON.stringify(y)}`;
      }
      total += diff;
      if (diff)
        console.log(
          `${kind.padEnd(32)}${op.padEnd(11)}${diff}/${COUNT} max|Δ| ${maxD.toExponential(2)}  ${example}`,
        );
    }
  }
}
console.log(`differing answers: ${total}`);
