/**
 * Same-process CPU-time ratio of a heightfield against the other composites (a small sphere mesh,
 * a 128-triangle grid mesh, a two-child compound, an 8 × 8 heightfield patch) through the pair
 * table (the two-tree routines `…CompositeComposite`, the field as A, since issue 14) against the
 * part-by-part routines they replaced (`…ShapeComposite`: each field triangle asked of the
 * other shape through the table), for intersects, distance, contact and manifold (prediction
 * 0.05), over the same seeded poses over a 64 × 64 field. Both are called directly from one
 * module instance, rounds interleaved; an A/A row (two-tree against itself) gives the noise.
 * Reports the lower quartile of 9 rounds (after 2 warm-up rounds) of CPU time per query
 * (`process.cpuUsage`), the ratio new/old, how many answers differ, and the load average.
 *
 * Run: `node --import tsx bench/heightfield-two-trees.ts`.
 */
import { loadavg } from "node:os";
import * as api from "../src/index.js";
import type { Isometry } from "../src/math/isometry.js";
import {
  contactShapeComposite,
  distanceShapeComposite,
  intersectsShapeComposite,
  manifoldShapeComposite,
} from "../src/narrowphase/composite.js";
import {
  makeContact,
  makeContactManifold,
  makeDistanceResult,
} from "../src/narrowphase/contact.js";
import {
  contactPair,
  distancePair,
  intersectsPair,
  manifoldPair,
} from "../src/narrowphase/dispatch.js";
import type { Shape } from "../src/shapes/shape.js";

const rows = 64;
const cols = 64;
const heights = new Float64Array(rows * cols);
for (let r = 0; r < rows; r++)
  for (let c = 0; c < cols; c++) heights[r * cols + c] = Math.sin(r * 0.3) * Math.cos(c * 0.2);
const field = api.makeHeightfield({ rows, cols, heights, scale: { x: 0.25, y: 1, z: 0.25 } });

function sphereMesh(): Shape {
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
  return api.makeTriangleMesh(sv, si);
}

function gridMesh(): Shape {
  // 8 × 8 squares of 0.1, 128 triangles, gently bent.
  const v: number[] = [];
  const idx: number[] = [];
  const n = 8;
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) v.push(0.1 * i - 0.4, 0.05 * Math.sin(i + j), 0.1 * j - 0.4);
  const at = (i: number, j: number) => j * (n + 1) + i;
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      idx.push(at(i, j), at(i + 1, j + 1), at(i + 1, j));
      idx.push(at(i, j), at(i, j + 1), at(i + 1, j + 1));
    }
  return api.makeTriangleMesh(v, idx);
}

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
const ph = new Float64Array(81);
for (let k = 0; k < 81; k++) ph[k] = 0.2 * Math.sin(k);
const patch = api.makeHeightfield({
  rows: 9,
  cols: 9,
  heights: ph,
  scale: { x: 0.1, y: 1, z: 0.1 },
});
const others: [string, Shape][] = [
  ["sphereMesh(80)", sphereMesh()],
  ["gridMesh(128)", gridMesh()],
  ["compound(2)", compound],
  ["field 8×8", patch],
];

/** Seeded poses of the other shape over the field; returned as the field's pose in its frame. */
function poses(count: number): Isometry[] {
  const rng = api.makeRandom(7);
  const out: Isometry[] = [];
  const w = (cols - 1) * 0.25;
  const h = (rows - 1) * 0.25;
  for (let i = 0; i < count; i++) {
    const t = { x: rng() * w, y: 2.4 * rng() - 1.2, z: rng() * h };
    const q = { x: rng() - 0.5, y: rng() - 0.5, z: rng() - 0.5, w: rng() };
    const n = Math.hypot(q.x, q.y, q.z, q.w);
    const p = { translation: t, rotation: { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n } };
    out.push(api.isometry.invert(api.isometry.identity(), p));
  }
  return out;
}

const ops = ["intersects", "distance", "contact", "manifold"] as const;
const c = makeContact();
const d = makeDistanceResult();
const m = makeContactManifold();

/** One answer of `op` for (other, field) at `p` (the field in the other's frame), new or old. */
function ask(op: string, twoTrees: boolean, s: Shape, p: Isometry): number {
  if (op === "intersects")
    return (twoTrees ? intersectsPair(s, field, p) : intersectsShapeComposite(s, field, p)) ? 1 : 0;
  if (op === "distance")
    return (twoTrees ? distancePair(d, s, field, p) : distanceShapeComposite(d, s, field, p))
      .distance;
  if (op === "contact") {
    const f = twoTrees
      ? contactPair(c, s, field, p, 0.05)
      : contactShapeComposite(c, s, field, p, 0.05);
    return f ? c.distance : Number.NaN;
  }
  const f = twoTrees
    ? manifoldPair(m, s, field, p, 0.05)
    : manifoldShapeComposite(m, s, field, p, 0.05);
  return f ? m.count : -1;
}

function time(op: string, twoTrees: boolean, s: Shape, ps: Isometry[], sink: number[]): number {
  const t0 = process.cpuUsage();
  let acc = 0;
  for (const p of ps) acc += ask(op, twoTrees, s, p);
  const t = process.cpuUsage(t0);
  sink.push(acc);
  return (t.user + t.system) / ps.length;
}

const ps = poses(300);
const ROUNDS = 9;
const sink: number[] = [];
const load0 = loadavg()[0];
console.log(
  "pair (× field 64×64)  op          new µs    old µs   new/old  A/A   answers differing",
);
for (const [name, s] of others) {
  for (const op of ops) {
    const tn: number[] = [];
    const to: number[] = [];
    const ta: number[] = [];
    for (let r = 0; r < 2; r++) {
      time(op, true, s, ps, sink);
      time(op, false, s, ps, sink);
    }
    for (let r = 0; r < ROUNDS; r++) {
      tn.push(time(op, true, s, ps, sink));
      to.push(time(op, false, s, ps, sink));
      ta.push(time(op, true, s, ps, sink));
    }
    for (const x of [tn, to, ta]) x.sort((a, b) => a - b);
    const q = ROUNDS >> 2;
    let differ = 0;
    for (const p of ps) if (!Object.is(ask(op, true, s, p), ask(op, false, s, p))) differ++;
    console.log(
      `${name.padEnd(22)}${op.padEnd(12)}${tn[q].toFixed(1).padStart(7)}${to[q].toFixed(1).padStart(10)}${(tn[q] / to[q]).toFixed(3).padStart(9)}${(ta[q] / tn[q]).toFixed(3).padStart(7)}   ${differ}/${ps.length}`,
    );
  }
}
console.log(`load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}`);
if (sink.length < 0) console.log(sink);
